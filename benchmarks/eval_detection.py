"""Detection quality on the shared corpora, through the public `memgate scan --jsonl`
contract's engine (Inspector).

    .venv/bin/python benchmarks/eval_detection.py [--corpus ../shared/corpus] [--errors]

Prints per-label decision rates on dev.jsonl and per-class rates on public.jsonl
(public items have no source: they are scanned as `web`, and also as
`document`/`tool` for the classes where source matters).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter, defaultdict
from pathlib import Path

from memgate.domain import Decision, Source
from memgate.trust import Inspector

MALICIOUS = {"injection", "exfil", "dangerous_code"}
SENSITIVE = {"secret", "pii"}


def _load(path: Path) -> list[dict[str, object]]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--corpus", type=Path, default=Path(__file__).resolve().parents[2] / "shared" / "corpus"
    )
    parser.add_argument("--errors", action="store_true", help="print every miss")
    parser.add_argument("--sources", default="web", help="comma list of sources for public.jsonl")
    args = parser.parse_args()
    inspector = Inspector.default(fingerprint_key=b"eval")
    t0 = time.perf_counter()

    dev = _load(args.corpus / "dev.jsonl")
    by_label: dict[str, Counter[str]] = defaultdict(Counter)
    exact = 0
    for row in dev:
        report = inspector.inspect(str(row["text"]), Source(str(row["source"])))
        label = str(row["label"])
        by_label[label][report.decision.value] += 1
        exact += report.decision.value == row["expect"]
        wrong = (
            (label == "benign" and report.decision is not Decision.APPROVE)
            or (label in SENSITIVE and report.decision is not Decision.REVIEW)
            or (label in MALICIOUS and report.decision is Decision.APPROVE)
            or (label in ("injection", "exfil") and report.decision is not Decision.REJECT)
        )
        if args.errors and wrong:
            rules = sorted({f.rule_id for f in report.findings})
            print(
                f"MISS {row['id']} {label}/{row['source']} expect={row['expect']} "
                f"got={report.decision.value} trust={report.trust_score} {rules}\n"
                f"     {str(row['text'])[:160]!r}"
            )
    print(f"\n## dev.jsonl ({len(dev)} items): exact decision match {exact / len(dev):.1%}\n")
    print("| label | n | approve | review | reject | target |")
    print("|---|---|---|---|---|---|")
    for label, counts in sorted(by_label.items()):
        n = sum(counts.values())
        approved, rejected = counts["approve"] / n, counts["reject"] / n
        target = {
            "benign": f"approved {approved:.1%} (≥97%), rejected {rejected:.1%} (≤0.5%)",
            "secret": f"review+ {(n - counts['approve']) / n:.1%} (≥98%)",
            "pii": f"review+ {(n - counts['approve']) / n:.1%} (≥98%)",
        }.get(label, f"not approved {(n - counts['approve']) / n:.1%} (≥95%)")
        cells = [label, n, counts["approve"], counts["review"], counts["reject"], target]
        print("| " + " | ".join(str(c) for c in cells) + " |")

    public = _load(args.corpus / "public.jsonl")
    for source_name in args.sources.split(","):
        source = Source(source_name)
        by_cls: dict[str, Counter[str]] = defaultdict(Counter)
        flagged: Counter[str] = Counter()
        for row in public:
            report = inspector.inspect(str(row["text"]), source)
            cls = str(row["cls"])
            by_cls[cls][report.decision.value] += 1
            flagged[cls] += bool(report.findings)
            if args.errors:
                bad = (cls.startswith("benign") and report.decision is not Decision.APPROVE) or (
                    not cls.startswith("benign")
                    and cls != "secret_neg_lookalike"
                    and report.decision is Decision.APPROVE
                )
                if bad:
                    rules = sorted({f.rule_id for f in report.findings})
                    print(
                        f"MISS public {row['id']} {cls} got={report.decision.value} {rules} "
                        f"{str(row['text'])[:120]!r}"
                    )
        print(f"\n## public.jsonl as source={source.value}\n")
        print("| class | n | approve | review | reject | any finding |")
        print("|---|---|---|---|---|---|")
        for cls, counts in sorted(by_cls.items()):
            n = sum(counts.values())
            print(
                f"| {cls} | {n} | {counts['approve'] / n:.1%} | {counts['review'] / n:.1%} | "
                f"{counts['reject'] / n:.1%} | {flagged[cls] / n:.1%} |"
            )
    print(f"\n(took {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
