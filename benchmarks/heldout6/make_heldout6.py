"""Write held-out detection set 6 (benchmarks/heldout6/text.jsonl and code.jsonl).

    .venv/bin/python benchmarks/heldout6/make_heldout6.py            # rewrite both files
    .venv/bin/python benchmarks/heldout6/make_heldout6.py --out DIR  # write them elsewhere
    .venv/bin/python benchmarks/heldout6/make_heldout6.py --counts   # print the tables only

Deterministic: every part draws from its own seeded RNG, so the files come out byte
for byte the same. Nothing is written when a check fails, and nothing but ids, check
names and counts is ever printed (never an item's text)."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))

import h6core  # noqa: E402
import part_benign_code  # noqa: E402
import part_benign_text  # noqa: E402
import part_dangerous  # noqa: E402
import part_exfil  # noqa: E402
import part_injection  # noqa: E402
import part_pii  # noqa: E402
import part_secret  # noqa: E402

PARTS = (
    ("benign_text", part_benign_text),
    ("benign_code", part_benign_code),
    ("injection", part_injection),
    ("dangerous", part_dangerous),
    ("exfil", part_exfil),
    ("secret", part_secret),
    ("pii", part_pii),
)


def build() -> h6core.Book:
    gens = []
    rows: list[dict[str, object]] = []
    files: dict[str, str] = {}
    seq: Counter[str] = Counter()
    for name, module in PARTS:
        gen = h6core.Gen(name)
        module.build(gen)
        gens.append(gen)
        for raw in gen.rows:
            label = str(raw["label"])
            seq[label] += 1
            rid = f"h6-{h6core.PREFIX[label]}-{seq[label]:03d}"
            text = str(raw["text"])
            rows.append(
                {
                    "id": rid,
                    "label": label,
                    "expect": h6core.LABEL_EXPECT[label],
                    "family": raw["family"],
                    "source": raw["source"],
                    "lang": h6core.lang_of(text),
                    "hard": raw["hard"],
                    "note": raw["note"],
                    "text": text,
                }
            )
            files[rid] = str(raw["file"])
    book = h6core.Book(gens=gens, rows=rows, files=files)
    return book


def file_problems(book: h6core.Book) -> list[str]:
    out = []
    for row in book.rows:
        rid = str(row["id"])
        stem = book.files.get(rid)
        if stem not in h6core.FILE_LABELS or row["label"] not in h6core.FILE_LABELS[stem]:
            out.append(f"{rid}: file")
    return out


def _table(rows: list[dict[str, object]], key, title: str) -> str:  # type: ignore[no-untyped-def]
    cols = ["total", "en", "zh", "hard", *h6core.SOURCES]
    groups: dict[str, Counter[str]] = {}
    for r in rows:
        c = groups.setdefault(key(r), Counter())
        c["total"] += 1
        c[str(r["lang"])] += 1
        c["hard"] += bool(r["hard"])
        c[str(r["source"])] += 1
    out = [f"| {title} | " + " | ".join(cols) + " |", "|---|" + "---|" * len(cols)]
    for k in sorted(groups):
        out.append(f"| {k} | " + " | ".join(str(groups[k][c]) for c in cols) + " |")
    return "\n".join(out)


def counts(book: h6core.Book) -> str:
    rows = book.rows
    zh = sum(r["lang"] == "zh" for r in rows)
    text_rows = [r for r in rows if book.files[str(r["id"])] == "text"]
    tzh = sum(r["lang"] == "zh" for r in text_rows)
    head = (
        f"{len(rows)} items; Chinese: {zh} ({100 * zh / len(rows):.1f} %); "
        f"in text.jsonl {tzh} of {len(text_rows)} ({100 * tzh / len(text_rows):.1f} %). "
        "Columns: total, lang, hard, source."
    )
    return "\n\n".join(
        [
            head,
            _table(rows, lambda r: str(r["label"]), "label"),
            _table(rows, lambda r: book.files[str(r["id"])], "file"),
            _table(rows, lambda r: f"{r['label']} / {r['family']}", "label / family"),
        ]
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=HERE)
    parser.add_argument("--counts", action="store_true", help="print the tables only")
    args = parser.parse_args()
    book = build()
    problems = h6core.validate(book) + file_problems(book)
    if problems:
        for p in problems:
            print(p, file=sys.stderr)
        return 1
    if args.counts:
        print(counts(book))
        return 0
    args.out.mkdir(parents=True, exist_ok=True)
    for stem in ("text", "code"):
        lines = [
            json.dumps(r, ensure_ascii=False) for r in book.rows if book.files[str(r["id"])] == stem
        ]
        (args.out / f"{stem}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
