"""Write memgate's second held-out detection set (text.jsonl, code.jsonl).

    .venv/bin/python benchmarks/heldout2/make_heldout2.py            # rewrites the committed files
    .venv/bin/python benchmarks/heldout2/make_heldout2.py --out DIR  # writes elsewhere (the test)
    ... --counts                                                      # print the count tables
    ... --readme                                                      # rewrite README's counts

Deterministic: every random value comes from a seeded RNG per part (h2core.Gen), so
the output is byte-identical on every run. Before writing, every line is validated
(fields, unique ids and texts, label/expect pairs, sources, hosts, checksums); the
script refuses to write anything if a check fails. It never prints texts.

Never tune on this set: see README.md."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import h2core  # noqa: E402
import part_benign  # noqa: E402
import part_code  # noqa: E402
import part_injection  # noqa: E402
import part_secret_pii  # noqa: E402

PARTS = (part_injection, part_secret_pii, part_benign, part_code)
ORDER = ("id", "label", "expect", "family", "source", "lang", "hard", "note", "text")


def build() -> h2core.Book:
    book = h2core.Book()
    for part in PARTS:
        part.build(book)
    return book


def counts_markdown(rows: list[dict[str, object]]) -> str:
    def table(key: str, groups: list[str]) -> list[str]:
        c: Counter[tuple[str, str]] = Counter()
        keys: list[str] = []
        for r in rows:
            k = " / ".join(str(r[x]) for x in groups)
            if k not in keys:
                keys.append(k)
            c[(k, "total")] += 1
            c[(k, str(r["lang"]))] += 1
            c[(k, "hard")] += bool(r["hard"])
            c[(k, str(r["source"]))] += 1
        cols = ["total", "en", "zh", "hard", "user", "agent", "tool", "web", "document"]
        out = [f"| {key} | " + " | ".join(cols) + " |", "|---" * (len(cols) + 1) + "|"]
        for k in sorted(keys):
            out.append(f"| {k} | " + " | ".join(str(c[(k, col)]) for col in cols) + " |")
        return out

    lines = [*table("label", ["label"]), "", *table("file", ["file"]), ""]
    lines += table("label / family", ["label", "family"])
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", type=Path, default=HERE)
    ap.add_argument("--counts", action="store_true", help="print the count tables (no texts)")
    ap.add_argument("--readme", action="store_true", help="rewrite README.md's '## Counts' section")
    args = ap.parse_args()
    book = build()
    problems = h2core.validate(book)
    if problems:
        for p in problems:
            print(p, file=sys.stderr)
        return 1
    args.out.mkdir(parents=True, exist_ok=True)
    for file in h2core.FILES:
        rows = [r for r in book.rows if r["file"] == file]
        with open(args.out / f"{file}.jsonl", "w", encoding="utf-8", newline="\n") as fh:
            for r in rows:
                fh.write(json.dumps({k: r[k] for k in ORDER}, ensure_ascii=False) + "\n")
    zh = sum(r["lang"] == "zh" for r in book.rows)
    print(
        f"wrote {len(book.rows)} cases to {args.out} (zh {zh}, {100 * zh / len(book.rows):.1f} %)"
    )
    if args.counts:
        print(counts_markdown(book.rows))
    if args.readme:
        readme = HERE / "README.md"
        head = readme.read_text(encoding="utf-8").split("## Counts\n")[0]
        summary = (
            f"{len(book.rows)} items; Chinese: {zh} ({100 * zh / len(book.rows):.1f} %). "
            "Columns: total, lang, hard, source.\n\n"
        )
        readme.write_text(
            head + "## Counts\n\n" + summary + counts_markdown(book.rows) + "\n", encoding="utf-8"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
