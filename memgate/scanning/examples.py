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

GENERATOR = re.compile(r"\{\{gen:([A-Za-z0-9_]+):(\d{1,4})\}\}")


def expand(text: str, seed: str) -> str:
    """Replace every generator in `text`; the same seed gives the same output."""
    rng = random.Random(seed)  # noqa: S311 - test data, not cryptography

    def fill(match: re.Match[str]) -> str:
        charset = CHARSETS.get(match.group(1))
        if charset is None:
            raise ValueError(f"unknown generator charset {match.group(1)!r}")
        return "".join(rng.choice(charset) for _ in range(int(match.group(2))))

    return GENERATOR.sub(fill, text)
