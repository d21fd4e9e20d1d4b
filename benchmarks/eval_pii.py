"""Personal-data detection on the tuning corpora: pii sent to review, benign flagged.

    .venv/bin/python benchmarks/eval_pii.py [--show N] [--origin PREFIX]

Reads `../shared/corpus/train/train.jsonl` and `dev.jsonl` (never the held-out
set). For pii items: share with decision != approve; for benign items: share with
a pii finding, share rejected. Prints up to N misses / false positives.
"""

from __future__ import annotations

import argparse
import collections
import json
from pathlib import Path

from memgate.domain import Category, Source
from memgate.trust import Inspector

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--show", type=int, default=0)
    ap.add_argument("--origin", default="")
    ap.add_argument("--files", nargs="*", default=["train/train.jsonl", "dev.jsonl"])
    args = ap.parse_args()
    insp = Inspector.default(fingerprint_key=b"eval")
    for name in args.files:
        pii: collections.Counter[str] = collections.Counter()
        pii_ok: collections.Counter[str] = collections.Counter()
        ben = ben_pii = ben_rej = 0
        misses: list[str] = []
        fps: list[str] = []
        for line in (CORPUS / name).read_text(encoding="utf-8").split("\n"):
            if not line.strip():
                continue
            d = json.loads(line)
            origin = d.get("origin", d.get("note", ""))
            if args.origin and not origin.startswith(args.origin):
                continue
            label = d["label"]
            if label not in ("pii", "benign"):
                continue
            rep = insp.inspect(d["text"], Source(d["source"]))
            if label == "pii":
                pii[origin] += 1
                if rep.decision.value != "approve":
                    pii_ok[origin] += 1
                elif len(misses) < args.show:
                    misses.append(f"[{origin}] {d['text'][:300]!r}")
            else:
                ben += 1
                has = [f.rule_id for f in rep.findings if f.category is Category.PII]
                if has:
                    ben_pii += 1
                    if len(fps) < args.show:
                        fps.append(f"[{origin}] {has} {d['text'][:300]!r}")
                if rep.decision.value == "reject":
                    ben_rej += 1
        total, ok = sum(pii.values()), sum(pii_ok.values())
        print(f"== {name}: pii to review {ok}/{total} = {ok / max(total, 1):.1%}")
        if "train" in name:
            for o in sorted(pii):
                print(f"   {o:40s} {pii_ok[o]}/{pii[o]}")
        print(
            f"   benign with a pii finding {ben_pii}/{ben} = {ben_pii / max(ben, 1):.2%}; "
            f"benign rejected {ben_rej}/{ben} = {ben_rej / max(ben, 1):.2%}"
        )
        for m in misses:
            print("MISS", m)
        for f in fps:
            print("FP  ", f)


if __name__ == "__main__":
    main()
