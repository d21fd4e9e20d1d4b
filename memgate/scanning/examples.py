"""Expand `{{gen:<charset>:<length>}}` placeholders in rule examples.

Rule examples must show realistic credentials without committing one. A
generator yields a deterministic pseudo-random string (seeded by the rule id
and the example), so examples are reproducible and no literal key lives in
the repository.
"""

from __future__ import annotations

import random
import re
import string

CHARSETS = {
    "upper": string.ascii_uppercase,
    "lower": string.ascii_lowercase,
    "digit": string.digits,
    "alpha": string.ascii_letters,
    "alnum": string.ascii_letters + string.digits,
    "upper_digit": string.ascii_uppercase + string.digits,
    "lower_digit": string.ascii_lowercase + string.digits,
    "hex": "0123456789abcdef",
    "HEX": "0123456789ABCDEF",
    "b64": string.ascii_letters + string.digits + "+/",
    "b64url": string.ascii_letters + string.digits + "-_",
}

WORDLISTS = {
    # Words of the BIP-39 English list (public, 2048 words; these 64 suffice to
    # make a seed phrase that is nobody's wallet): `{{gen:bip39:12}}` is 12 of
    # them, all different.
    "bip39": [
        "abandon",
        "ability",
        "absorb",
        "access",
        "acoustic",
        "actress",
        "adapt",
        "advice",
        "aerobic",
        "afford",
        "agent",
        "alarm",
        "album",
        "alcohol",
        "alley",
        "almost",
        "amateur",
        "amazing",
        "anchor",
        "ancient",
        "anger",
        "animal",
        "ankle",
        "antenna",
        "anxiety",
        "apology",
        "april",
        "arctic",
        "arena",
        "armor",
        "arrow",
        "artwork",
        "aspect",
        "athlete",
        "auction",
        "august",
        "autumn",
        "avocado",
        "awkward",
        "bacon",
        "badge",
        "bamboo",
        "banana",
        "barrel",
        "basket",
        "battle",
        "beach",
        "benefit",
        "bicycle",
        "blanket",
        "blossom",
        "bounce",
        "bracket",
        "breeze",
        "bronze",
        "bubble",
        "buffalo",
        "butter",
        "cabbage",
        "cactus",
        "camera",
        "canyon",
        "carbon",
        "castle",
    ],
}

GENERATOR = re.compile(r"\{\{gen:([A-Za-z0-9_]+):(\d{1,4})\}\}")


def expand(text: str, seed: str) -> str:
    """Replace every generator in `text`; the same seed gives the same output."""
    rng = random.Random(seed)  # noqa: S311 - test data, not cryptography

    def fill(match: re.Match[str]) -> str:
        words = WORDLISTS.get(match.group(1))
        if words is not None:
            return " ".join(rng.sample(words, min(int(match.group(2)), len(words))))
        charset = CHARSETS.get(match.group(1))
        if charset is None:
            raise ValueError(f"unknown generator charset {match.group(1)!r}")
        return "".join(rng.choice(charset) for _ in range(int(match.group(2))))

    return GENERATOR.sub(fill, text)
