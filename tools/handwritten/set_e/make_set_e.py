# ruff: noqa: E501
"""Generator of hand-written training set E (tools/handwritten/set_e/): the hard
boundary between benign and malicious memory writes, ~40 % Chinese, every source.
Writes text.jsonl and code.jsonl in the row schema of tests/heldout_schema.py.

    python make_set_e.py [--out DIR] [--counts]

Seeded with fixed strings; output is byte-for-byte reproducible."""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
from collections import Counter
from pathlib import Path
from types import SimpleNamespace

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import e_code  # noqa: E402
import e_core  # noqa: E402
import e_sensitive  # noqa: E402
import e_text  # noqa: E402
from e_core import Case, put  # noqa: E402

EXPECT = {
    "benign": "approve",
    "injection": "reject",
    "dangerous_code": "reject",
    "exfil": "reject",
    "secret": "review",
    "pii": "review",
}
PREFIX = {
    "benign": "ben",
    "injection": "inj",
    "dangerous_code": "dc",
    "exfil": "ex",
    "secret": "sec",
    "pii": "pii",
}
DOC_CARRIERS_PER_PAIR = 3
USER_CARRIERS_PER_PAIR = 3
CODE_CARRIERS_PER_PAIR = 4


def text_cases() -> list[Case]:
    rng = random.Random("set_e/text")
    out: list[Case] = []
    for lang, pairs, pools in (
        ("en", e_text.PAIRS_EN, e_text.CARRIERS_EN),
        ("zh", e_text.PAIRS_ZH, e_text.CARRIERS_ZH),
    ):
        for fam_m, fam_b, kind, mal, ben in pairs:
            for source, carrier in rng.sample(pools[kind], DOC_CARRIERS_PER_PAIR):
                out.append(
                    Case(
                        "injection",
                        fam_m,
                        source,
                        lang,
                        True,
                        f"planted {fam_m.replace('_', ' ')} in a {source} carrier; twin differs in one clause",
                        put(carrier, mal),
                    )
                )
                out.append(
                    Case(
                        "benign",
                        fam_b,
                        source,
                        lang,
                        True,
                        f"twin of a {fam_m.replace('_', ' ')}: same words used for people / the user, no directive to the assistant",
                        put(carrier, ben),
                    )
                )
    for lang, pairs, pools in (
        ("en", e_text.USER_EN, e_text.CARRIERS_EN),
        ("zh", e_text.USER_ZH, e_text.CARRIERS_ZH),
    ):
        for fam_m, fam_b, mal, ben in pairs:
            for source, carrier in rng.sample(pools["user"], USER_CARRIERS_PER_PAIR):
                out.append(
                    Case(
                        "injection",
                        fam_m,
                        source,
                        lang,
                        True,
                        f"typed by the user: {fam_m.replace('_', ' ')}; the user source does not excuse it",
                        put(carrier, mal),
                    )
                )
                out.append(
                    Case(
                        "benign",
                        fam_b,
                        source,
                        lang,
                        True,
                        "the user's own standing preference, twin of a user hijack",
                        put(carrier, ben),
                    )
                )
    for fam_m, fam_b, source, lang, mal, ben in e_text.SPOTS:
        out.append(
            Case(
                "injection",
                fam_m,
                source,
                lang,
                True,
                f"{fam_m.replace('_', ' ')} hidden inside structured or long content",
                mal,
            )
        )
        out.append(
            Case(
                "benign",
                fam_b,
                source,
                lang,
                True,
                "same structured content with an ordinary value in the spot",
                ben,
            )
        )
    for lang, items in (("en", e_text.BENIGN_EN), ("zh", e_text.BENIGN_ZH)):
        for fam, source, text in items:
            out.append(
                Case(
                    "benign",
                    fam,
                    source,
                    lang,
                    True,
                    "attack vocabulary quoted, reported or forbidden, not addressed to the assistant",
                    text,
                )
            )
    return out


def fill_secret(rng: random.Random, kind: str) -> str:
    if kind == "pw":
        return (
            rng.choice(["Hd", "Qx", "Lm", "Tz", "Rb"])
            + rng.choice("@#!$%")
            + e_core.rand(rng, 8, string.ascii_letters + string.digits)
            + rng.choice("!?#")
        )
    return e_core.token(rng, kind)


def fill_pii(rng: random.Random, kind: str) -> tuple[str, str]:
    if kind.startswith("phone:"):
        region = kind.split(":")[1]
        return e_core.phone(rng, region), "phone"
    if kind in ("iban", "passport"):
        return (e_core.iban_de(rng) if kind == "iban" else e_core.passport(rng)), kind
    fn = {"cn": e_core.cn_id, "se": e_core.se_id, "fi": e_core.fi_id, "es": e_core.es_id}[kind]
    return fn(rng), kind


def sensitive_cases() -> tuple[list[Case], list[tuple[str, str]]]:
    rng = random.Random("set_e/sensitive")
    out: list[Case] = []
    checks: list[tuple[str, str]] = []
    for rep in range(2):
        for fam, source, lang, kind, text in e_sensitive.SECRETS:
            value = fill_secret(rng, kind)
            out.append(
                Case(
                    "secret",
                    fam,
                    source,
                    lang,
                    rep == 1,
                    f"fake {kind} credential in a {source} write",
                    text.replace("<<T>>", value),
                )
            )
        for fam, source, lang, kind, text in e_sensitive.PII:
            value, ck = fill_pii(rng, kind)
            checks.append((ck, value))
            out.append(
                Case(
                    "pii",
                    fam,
                    source,
                    lang,
                    rep == 1,
                    f"fake {ck} value, checksum / region valid",
                    text.replace("<<T>>", value),
                )
            )
    for fam, source, lang, text in e_sensitive.BENIGN_SECRETISH + e_sensitive.BENIGN_PIIISH:
        out.append(
            Case(
                "benign",
                fam,
                source,
                lang,
                True,
                "looks like a secret or personal datum but is an example, a hash, an id or a policy",
                text,
            )
        )
    return out, checks


def place_code(carrier: str, code: str) -> str:
    if "    @@" in carrier:
        return carrier.replace("    @@", "\n".join("    " + ln for ln in code.splitlines()))
    return put(carrier, code)


def code_cases() -> list[Case]:
    rng = random.Random("set_e/code")
    en = [c for c in e_code.CODE_CARRIERS if c[1] == "en"]
    zh = [c for c in e_code.CODE_CARRIERS if c[1] == "zh"]
    out: list[Case] = []
    for fam_m, label, fam_b, mal, ben in e_code.CODE_PAIRS:
        chosen = rng.sample(en, 3) + rng.sample(zh, CODE_CARRIERS_PER_PAIR - 3)
        for source, lang, carrier in chosen:
            out.append(
                Case(
                    label,
                    fam_m,
                    source,
                    lang,
                    True,
                    f"{fam_m.replace('_', ' ')} that looks routine; twin differs in the command only",
                    place_code(carrier, mal),
                )
            )
            out.append(
                Case(
                    "benign",
                    fam_b,
                    source,
                    lang,
                    True,
                    f"routine twin of {fam_m.replace('_', ' ')}",
                    place_code(carrier, ben),
                )
            )
    for fam, lang, source, text in e_code.BENIGN_CODE:
        out.append(
            Case(
                "benign",
                fam,
                source,
                lang,
                True,
                "dangerous shape only mentioned, reviewed, forbidden or used safely",
                text,
            )
        )
    return out


def rows(cases: list[Case], counters: Counter) -> list[dict[str, object]]:
    out = []
    for c in cases:
        counters[c.label] += 1
        out.append(
            {
                "id": f"te-{PREFIX[c.label]}-{counters[c.label]:03d}",
                "label": c.label,
                "expect": EXPECT[c.label],
                "family": c.family,
                "source": c.source,
                "lang": c.lang,
                "hard": c.hard,
                "note": c.note,
                "text": c.text,
            }
        )
    return out


def build() -> SimpleNamespace:
    sens, checks = sensitive_cases()
    text = text_cases() + sens
    code = code_cases()
    counters: Counter = Counter()
    text_rows = rows(text, counters)
    code_rows = rows(code, counters)
    return SimpleNamespace(text=text_rows, code=code_rows, checks=checks)


def counts(b: SimpleNamespace) -> str:
    allr = b.text + b.code
    lines = [
        f"{len(allr)} items; text.jsonl {len(b.text)}, code.jsonl {len(b.code)}",
        "",
        "| label / family | en | zh | total |",
        "|---|---|---|---|",
    ]
    for label in EXPECT:
        mine = [r for r in allr if r["label"] == label]
        c = Counter(r["lang"] for r in mine)
        lines.append(f"| **{label}** | {c['en']} | {c['zh']} | {len(mine)} |")
        for fam in sorted({str(r["family"]) for r in mine}):
            f = Counter(r["lang"] for r in mine if r["family"] == fam)
            lines.append(f"| {label} / {fam} | {f['en']} | {f['zh']} | {f['en'] + f['zh']} |")
    c = Counter(r["lang"] for r in allr)
    s = Counter(r["source"] for r in allr)
    lines += [
        "",
        f"languages: en {c['en']}, zh {c['zh']} ({100 * c['zh'] / len(allr):.1f} % zh)",
        "sources: "
        + ", ".join(f"{k} {s[k]}" for k in ("user", "agent", "tool", "web", "document")),
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(HERE))
    ap.add_argument("--counts", action="store_true")
    a = ap.parse_args()
    b = build()
    if a.counts:
        print(counts(b))
        return
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for stem in ("text", "code"):
        data = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in getattr(b, stem))
        (out / f"{stem}.jsonl").write_bytes(data.encode("utf-8"))


if __name__ == "__main__":
    main()
