"""Measure tests/data/scan_cases.jsonl through the public Inspector.

    .venv/bin/python tests/scan_cases_eval.py [--misses tune] [--json OUT]

secret / pii rows pass when the decision is review (or reject) and a finding of
their category is present; benign rows pass when approved. Prints each family
and sub-family group per half; `--misses tune` lists only the tune half's misses
(the check half is never read case by case).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

from memgate.domain import Source
from memgate.trust.inspector import Inspector

DATA = Path(__file__).parent / "data" / "scan_cases.jsonl"


def group(kind: str) -> str:
    head = kind.split(":")[0]
    return {"he": "benign_high_entropy"}.get(head, head)


def passed(row: dict[str, str], report: object) -> bool:
    decision = str(report.decision)  # type: ignore[attr-defined]
    cats = {str(f.category) for f in report.findings}  # type: ignore[attr-defined]
    if row["family"] == "benign":
        return decision == "approve"
    return decision in ("review", "reject") and row["family"] in cats


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--misses", choices=["tune"], default=None)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    if not DATA.exists():
        sys.exit("run tests/scan_cases_gen.py first")
    rows = [json.loads(line) for line in DATA.open(encoding="utf-8")]
    insp = Inspector.default()
    tot: Counter[tuple[str, str]] = Counter()
    ok: Counter[tuple[str, str]] = Counter()
    sub_tot: Counter[tuple[str, str, str]] = Counter()
    sub_ok: Counter[tuple[str, str, str]] = Counter()
    results = {}
    for row in rows:
        rep = insp.inspect(row["text"], Source(row["source"]))
        good = passed(row, rep)
        results[row["id"]] = good
        key = (row["family"], row["half"])
        tot[key] += 1
        ok[key] += good
        g = group(row["kind"])
        sub_tot[(row["family"], g, row["half"])] += 1
        sub_ok[(row["family"], g, row["half"])] += good
        if args.misses == row["half"] and not good:
            rules = sorted({f.rule_id for f in rep.findings})
            print(f"MISS {row['kind']} [{row['carrier']}] {rep.decision} {rules}")
            print(f"    {row['text'][:300]!r}")
    print("\nfamily   half   passed")
    for fam in ("secret", "pii", "benign"):
        for half in ("tune", "check"):
            n = tot[(fam, half)]
            print(f"{fam:8} {half:6} {ok[(fam, half)]}/{n} = {ok[(fam, half)] / max(n, 1):.1%}")
    print("\nsub-family: tune | check")
    for fam, g in sorted({(f, g) for f, g, _ in sub_tot}):
        cells = [f"{sub_ok[(fam, g, h)]}/{sub_tot[(fam, g, h)]}" for h in ("tune", "check")]
        print(f"  {fam:7} {g:22} {cells[0]:>8} | {cells[1]:>8}")
    if args.json:
        args.json.write_text(json.dumps(results))


if __name__ == "__main__":
    main()
