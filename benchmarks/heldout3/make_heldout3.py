"""Write the third held-out detection set (text.jsonl, code.jsonl) byte for byte.

    .venv/bin/python benchmarks/heldout3/make_heldout3.py [--out DIR]

Never tune on this set (see README.md). The script prints only counts, ids and the
names of failed checks, never an item's text; it writes nothing if a check fails."""

from __future__ import annotations

import argparse
import importlib
import sys
from collections import Counter
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import h3core  # noqa: E402

PARTS = (
    "part_benign_text",
    "part_benign_code",
    "part_injection",
    "part_secret",
    "part_pii",
    "part_dangerous",
    "part_exfil",
)


def build() -> h3core.Book:
    if str(HERE) not in sys.path:  # the parts import their siblings
        sys.path.insert(0, str(HERE))
    gens = [importlib.import_module(p).build() for p in PARTS]
    book = h3core.Book(gens=gens)
    h3core.number(book)
    return book


def counts_tables(book: h3core.Book) -> str:
    """Markdown count tables (per label, file and label / family); no texts."""
    cols = ("en", "zh", "hard", *h3core.SOURCES)

    def table(title: str, key: Callable[[dict[str, object]], str]) -> list[str]:
        groups: dict[str, Counter[str]] = {}
        for r in book.rows:
            c = groups.setdefault(key(r), Counter())
            c["total"] += 1
            c[str(r["lang"])] += 1
            c["hard"] += bool(r["hard"])
            c[str(r["source"])] += 1
        out = [f"| {title} | total | " + " | ".join(cols) + " |", "|---" * (len(cols) + 2) + "|"]
        for k in sorted(groups):
            c = groups[k]
            out.append(f"| {k} | {c['total']} | " + " | ".join(str(c[x]) for x in cols) + " |")
        return out

    zh = sum(r["lang"] == "zh" for r in book.rows)
    text = [r for r in book.rows if r["_file"] == "text"]
    tzh = sum(r["lang"] == "zh" for r in text)
    head = (
        f"{len(book.rows)} items; Chinese: {zh} ({100 * zh / len(book.rows):.1f} %); "
        f"in text.jsonl {tzh} of {len(text)} ({100 * tzh / len(text):.1f} %). "
        "Columns: total, lang, hard, source."
    )
    parts = [
        [head],
        table("label", lambda r: str(r["label"])),
        table("file", lambda r: str(r["_file"])),
        table("label / family", lambda r: f"{r['label']} / {r['family']}"),
    ]
    return "\n\n".join("\n".join(p) for p in parts)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--counts", action="store_true", help="print the README's count tables")
    args = ap.parse_args()
    book = build()
    if args.counts:
        print(counts_tables(book))
        return 0
    problems = h3core.validate(book)
    if problems:
        for p in problems:
            print(p, file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for stem in ("text", "code"):
        lines = [h3core.dump(r) for r in book.rows if r["_file"] == stem]
        (args.out / f"{stem}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    counts = Counter(r["label"] for r in book.rows)
    zh = sum(r["lang"] == "zh" for r in book.rows)
    print(
        f"{len(book.rows)} rows, zh {zh}; "
        + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
