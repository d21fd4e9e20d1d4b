# ruff: noqa: E501  (hand-written case data, kept as written)
"""Hand-written training set C (Chinese first): writes text.jsonl and code.jsonl.

    python tools/handwritten/set_c/make_set_c.py [--out DIR] [--counts]

Seeded per part with fixed strings, so the output is byte-for-byte the same on
every run. `--counts` prints the tables of README.md and writes nothing."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import c_code  # noqa: E402
import c_sensitive  # noqa: E402
import c_text  # noqa: E402
from c_core import Case, Fake  # noqa: E402

PREFIX = {
    "benign": "ben",
    "injection": "inj",
    "dangerous_code": "dc",
    "exfil": "ex",
    "secret": "sec",
    "pii": "pii",
}
EXPECT = {
    "benign": "approve",
    "injection": "reject",
    "dangerous_code": "reject",
    "exfil": "reject",
    "secret": "review",
    "pii": "review",
}


@dataclass
class Built:
    rows: list[tuple[str, dict]] = field(default_factory=list)
    checks: list[tuple[str, str]] = field(default_factory=list)


def build() -> Built:
    out = Built()
    seen: set[str] = set()
    num: Counter = Counter()

    def emitter(stem: str):
        def emit(c: Case) -> None:
            if c.text in seen:  # a carrier drew the same filler twice: keep the first
                return
            seen.add(c.text)
            num[c.label] += 1
            out.rows.append(
                (
                    stem,
                    {
                        "id": f"tc-{PREFIX[c.label]}-{num[c.label]:03d}",
                        "label": c.label,
                        "expect": EXPECT[c.label],
                        "family": c.family,
                        "source": c.source,
                        "lang": c.lang,
                        "hard": c.hard,
                        "note": c.note,
                        "text": c.text,
                    },
                )
            )

        return emit

    c_text.build(emitter("text"))
    fake = Fake("set_c/sensitive/v1")
    c_sensitive.build(emitter("text"), fake)
    c_code.build(emitter("code"))
    out.checks = fake.checks
    return out


def counts(b: Built) -> str:
    rows = [r for _, r in b.rows]
    n_text = sum(s == "text" for s, _ in b.rows)
    lines = [
        f"{len(rows)} items; text.jsonl {n_text}, code.jsonl {len(rows) - n_text}; "
        f"zh {sum(r['lang'] == 'zh' for r in rows)} ({100 * sum(r['lang'] == 'zh' for r in rows) / len(rows):.1f} %)",
        "",
        "| label / family | en | zh | total |",
        "|---|---|---|---|",
    ]
    for label in PREFIX:
        mine = [r for r in rows if r["label"] == label]
        en, zh = sum(r["lang"] == "en" for r in mine), sum(r["lang"] == "zh" for r in mine)
        lines.append(f"| **{label}** | {en} | {zh} | {len(mine)} |")
        for fam in sorted({r["family"] for r in mine}):
            fr = [r for r in mine if r["family"] == fam]
            e, z = sum(r["lang"] == "en" for r in fr), sum(r["lang"] == "zh" for r in fr)
            lines.append(f"| {label} / {fam} | {e} | {z} | {len(fr)} |")
    lines += ["", "| source | n |", "|---|---|"]
    for src, n in sorted(Counter(r["source"] for r in rows).items()):
        lines.append(f"| {src} | {n} |")
    lines.append(f"\nhard: {sum(r['hard'] for r in rows)}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--counts", action="store_true")
    a = ap.parse_args()
    b = build()
    if a.counts:
        print(counts(b))
        return
    a.out.mkdir(parents=True, exist_ok=True)
    for stem in ("text", "code"):
        with open(a.out / f"{stem}.jsonl", "w", encoding="utf-8", newline="\n") as fh:
            for s, row in b.rows:
                if s == stem:
                    fh.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
