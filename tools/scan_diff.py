"""Regression guard for scanner changes that must not change detection: dump every
finding (rule id, span, severity, confidence, fingerprint present) and the decision
per item over fixed corpora, then diff two dumps.

    .venv/bin/python tools/scan_diff.py dump before.json        # before the change
    .venv/bin/python tools/scan_diff.py dump after.json         # after it
    .venv/bin/python tools/scan_diff.py diff before.json after.json

Corpora (fixed, so two dumps are comparable): ../shared/corpus/dev.jsonl (its own
sources), ../shared/corpus/public.jsonl (as `web`, as eval_detection does),
benchmarks/heldout/*.jsonl, and a seeded 6,000-item sample of
../shared/corpus/train/train.jsonl. `--only dev,heldout` narrows a quick check.

`diff` prints each item whose decision, trust score, redacted text or findings
differ, and exits 1 when any does.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from memgate.domain import Source
from memgate.scanning import BUILTIN_ANALYZERS, Scanner, load_rules
from memgate.trust import Inspector, Policy

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
HELDOUT = ROOT / "benchmarks" / "heldout"
TRAIN_SAMPLE = 6000
TRAIN_SEED = 1314
SETS = ("dev", "public", "heldout", "train")


def _rows(path: Path) -> list[dict[str, object]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def items(only: set[str]) -> Iterator[tuple[str, str, Source]]:
    """(key, text, source) over the fixed corpora, in a fixed order."""
    if "dev" in only:
        for row in _rows(CORPUS / "dev.jsonl"):
            yield f"dev/{row['id']}", str(row["text"]), Source(str(row["source"]))
    if "public" in only:
        for row in _rows(CORPUS / "public.jsonl"):
            yield f"public/{row['id']}", str(row["text"]), Source.WEB
    if "heldout" in only:
        for path in sorted(HELDOUT.glob("*.jsonl")):
            for row in _rows(path):
                yield f"heldout/{row['id']}", str(row["text"]), Source(str(row["source"]))
    if "train" in only:
        rows = _rows(CORPUS / "train" / "train.jsonl")
        picked = sorted(random.Random(TRAIN_SEED).sample(range(len(rows)), TRAIN_SAMPLE))
        for i in picked:
            row = rows[i]
            yield f"train/{row['id']}", str(row["text"]), Source(str(row["source"]))


def dump(out: Path, only: set[str]) -> None:
    # cache_size=0: every item is scanned in full, independent of the order.
    scanner = Scanner(load_rules(), BUILTIN_ANALYZERS, fingerprint_key=b"scan-diff", cache_size=0)
    insp = Inspector(scanner, Policy.load())
    result: dict[str, object] = {}
    t0 = time.perf_counter()
    for n, (key, text, source) in enumerate(items(only), 1):
        report = insp.inspect(text, source)
        result[key] = {
            "decision": report.decision.value,
            "trust": report.trust_score,
            "redacted": hashlib.sha256(
                report.redacted.encode("utf-8", "surrogatepass")
            ).hexdigest()[:16],
            "findings": sorted(
                [
                    f.rule_id,
                    list(f.span),
                    f.severity.value,
                    round(f.confidence, 6),
                    f.fingerprint is not None,
                    f.layer,
                ]
                for f in report.findings
            ),
        }
        if n % 2000 == 0:
            print(f"{n} items, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    out.write_text(json.dumps(result, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(result)} items in {time.perf_counter() - t0:.1f} s -> {out}", file=sys.stderr)


def diff(before: Path, after: Path) -> int:
    a = json.loads(before.read_text(encoding="utf-8"))
    b = json.loads(after.read_text(encoding="utf-8"))
    changed = 0
    for key in sorted(set(a) | set(b)):
        x, y = a.get(key), b.get(key)
        if x == y:
            continue
        changed += 1
        if x is None or y is None:
            print(f"{key}: only in {'after' if x is None else 'before'}")
            continue
        print(f"{key}: {x['decision']} {x['trust']} -> {y['decision']} {y['trust']}")
        fx = {json.dumps(f) for f in x["findings"]}
        fy = {json.dumps(f) for f in y["findings"]}
        for f in sorted(fx - fy):
            print(f"   - {f}")
        for f in sorted(fy - fx):
            print(f"   + {f}")
        if x["redacted"] != y["redacted"]:
            print("   redacted text differs")
    print(f"{changed} of {len(set(a) | set(b))} items differ", file=sys.stderr)
    return 1 if changed else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    sub = parser.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump")
    d.add_argument("out", type=Path)
    d.add_argument("--only", default=",".join(SETS), help=f"comma list of {', '.join(SETS)}")
    c = sub.add_parser("diff")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    if args.cmd == "dump":
        dump(args.out, set(args.only.split(",")))
    else:
        sys.exit(diff(args.before, args.after))


if __name__ == "__main__":
    main()
