"""Hand-written TRAINING set B for memgate's text classifier: memory writes typed
by the user or written by the agent (preferences, project facts, session notes,
web summaries, pasted code) and the attacks that hide in them.

    python tools/handwritten/set_b/make_set_b.py            # writes text.jsonl, code.jsonl here
    python tools/handwritten/set_b/make_set_b.py --out DIR  # writes them to DIR
    python tools/handwritten/set_b/make_set_b.py --counts   # prints the count tables, writes nothing

Rows keep the held-out row schema (tests/heldout_schema.py) with the id prefix
`tb-`. The output is byte-for-byte reproducible: every part draws from its own
random.Random seeded with a fixed string, and files are written in a fixed
order. This is a training set: it is not a measurement set and nothing in it
was drawn from benchmarks/."""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:  # run as a script; tests import it with the folder on the path
    sys.path.insert(0, str(HERE))

import b_benign_text  # noqa: E402
import b_code  # noqa: E402
import b_injection  # noqa: E402
import b_sensitive  # noqa: E402
from b_core import Case  # noqa: E402

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
ORDER = ("id", "label", "expect", "family", "source", "lang", "hard", "note", "text")


class Book(NamedTuple):
    text: list[dict[str, object]]
    code: list[dict[str, object]]
    checks: list[tuple[str, str]]


def build() -> Book:
    parts_text = [
        b_benign_text.build(random.Random("set_b/benign_text")),
        b_injection.build(random.Random("set_b/injection")),
        b_sensitive.build_secrets(random.Random("set_b/secret")),
        b_sensitive.build_pii(random.Random("set_b/pii")),
    ]
    parts_code = [b_code.build(random.Random("set_b/code"))]
    counter: Counter[str] = Counter()
    seen: set[str] = set()

    def rows(cases: list[Case]) -> list[dict[str, object]]:
        out = []
        for c in cases:
            if c.text in seen:  # one text, one row, even across parts
                continue
            seen.add(c.text)
            counter[c.label] += 1
            row = {
                "id": f"tb-{PREFIX[c.label]}-{counter[c.label]:03d}",
                "label": c.label,
                "expect": EXPECT[c.label],
                "family": c.family,
                "source": c.source,
                "lang": c.lang,
                "hard": c.hard,
                "note": c.note,
                "text": c.text,
            }
            out.append({k: row[k] for k in ORDER})
        return out

    text = rows([c for g in parts_text for c in g.cases])
    code = rows([c for g in parts_code for c in g.cases])
    checks = [ch for g in parts_text + parts_code for ch in g.checks]
    return Book(text, code, checks)


def counts(book: Book) -> str:
    allr = book.text + book.code
    lines = [f"{len(allr)} items; text.jsonl {len(book.text)}, code.jsonl {len(book.code)}", ""]
    lines += ["| label / family | en | zh | total |", "|---|---|---|---|"]
    by = Counter((str(r["label"]), str(r["family"]), str(r["lang"])) for r in allr)
    for label in PREFIX:
        lab = [r for r in allr if r["label"] == label]
        lines.append(
            f"| **{label}** | {sum(r['lang'] == 'en' for r in lab)} | {sum(r['lang'] == 'zh' for r in lab)} | {len(lab)} |"
        )
        for fam in sorted({str(r["family"]) for r in lab}):
            en, zh = by[(label, fam, "en")], by[(label, fam, "zh")]
            lines.append(f"| {label} / {fam} | {en} | {zh} | {en + zh} |")
    lines += ["", "| source | n |", "|---|---|"]
    for src, n in sorted(Counter(str(r["source"]) for r in allr).items()):
        lines.append(f"| {src} | {n} |")
    return "\n".join(lines) + "\n"


def write(book: Book, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for stem, rs in (("text", book.text), ("code", book.code)):
        with open(out / f"{stem}.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for r in rs:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--out",
        type=Path,
        default=HERE,
        help="folder for text.jsonl and code.jsonl (default: this folder)",
    )
    ap.add_argument(
        "--counts", action="store_true", help="print the count tables and write nothing"
    )
    a = ap.parse_args(argv)
    book = build()
    if a.counts:
        sys.stdout.write(counts(book))
        return 0
    write(book, a.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
