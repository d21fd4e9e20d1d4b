"""Detection quality, through the engine of the public `memgate scan` contract
(Inspector), reported for generalization rather than fit.

    .venv/bin/python benchmarks/eval_detection.py                 # dev.jsonl + public.jsonl
    .venv/bin/python benchmarks/eval_detection.py --heldout       # benchmarks/heldout/*.jsonl
    ... --heldout --heldout-dir benchmarks/heldout2 --split diag  # the second held-out set
    .venv/bin/python benchmarks/eval_detection.py --train         # train.jsonl, per origin
    .venv/bin/python benchmarks/eval_detection.py --loo           # leave-one-origin-out
    ... --detectors rules|classifier|both   (default both)   --errors   --json out.json

Modes:

- default: per-label decision rates on `dev.jsonl`, per-class rates on `public.jsonl`
  (public items have no source: scanned as `web`, or `--sources`).
- `--heldout`: the project's own held-out cases (benchmarks/heldout/, written apart
  from the rules), per label and per family. `--split diag` is the half whose misses
  may be read to find what a detector lacks; `--split final` is never read and is
  the result.
- `--train`: the 63k training items per origin group, with the shipped model (the
  classifier has seen these: a fit number, shown only to find weak rules).
- `--loo`: leave-one-origin-out. For every origin group (an upstream repository or a
  generator family) the classifier is retrained without it (tools/train_classifier.py)
  and the group is scanned by the rules alone, the classifier alone and both. The
  rules are hand-written, not fitted, but were tuned on these corpora: their per-group
  rows are the honest part only for groups nobody looked at.

`--detectors` builds the scanner from the rules of the named detectors only: `rules`
is every detector but the classifier, `classifier` only MG-CLS-*.

Targets (issues 13 and 14): malicious (injection, exfil, dangerous_code) not approved
≥ 95 %; secret and pii sent to review or worse ≥ 98 %; benign approved ≥ 97 % and
rejected ≤ 0.5 %.
"""

from __future__ import annotations

import argparse
import functools
import hashlib
import json
import os
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from memgate.domain import Decision, Source
from memgate.scanning import BUILTIN_ANALYZERS, Scanner, load_rules
from memgate.scanning.rules import Rule, RuleSet
from memgate.trust import Inspector, Policy

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

MALICIOUS = {"injection", "exfil", "dangerous_code"}
SENSITIVE = {"secret", "pii"}
CLASSIFIER = "classifier"


@dataclass(frozen=True, slots=True)
class Case:
    text: str
    label: str
    source: Source
    group: str
    family: str
    ident: str


def _load(path: Path) -> list[dict[str, object]]:
    return [
        json.loads(line) for line in path.read_text(encoding="utf-8").split("\n") if line.strip()
    ]


@functools.cache
def _bundled() -> RuleSet:
    """The bundled rules, read once: a long run keeps the rules it started with."""
    return load_rules()


def _ruleset(detectors: str, model: Path | None = None) -> RuleSet:
    rules = _bundled()
    kept: list[Rule] = []
    for rule in rules.rules:
        is_cls = rule.detector == CLASSIFIER
        if (detectors == "rules" and is_cls) or (detectors == "classifier" and not is_cls):
            continue
        if is_cls and model is not None:
            rule = rule.model_copy(update={"params": {**rule.params, "model": str(model)}})
        kept.append(rule)
    return RuleSet(rules=tuple(kept), version=rules.version)


def inspector(detectors: str, model: Path | None = None) -> Inspector:
    scanner = Scanner(_ruleset(detectors, model), BUILTIN_ANALYZERS, fingerprint_key=b"eval")
    return Inspector(scanner, Policy.load())


def wrong(label: str, decision: Decision) -> bool:
    if label == "benign":
        return decision is not Decision.APPROVE
    if label in SENSITIVE:
        return decision is Decision.APPROVE
    return decision is Decision.APPROVE


class Table:
    """Decision counts per key (label, or label + family / group)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, ...], Counter[str]] = defaultdict(Counter)

    def add(self, key: tuple[str, ...], decision: Decision) -> None:
        self.counts[key][decision.value] += 1

    def rows(self) -> Iterable[tuple[tuple[str, ...], int, str]]:
        for key, counts in sorted(self.counts.items()):
            n = sum(counts.values())
            yield key, n, _target(key[0], counts, n)

    def markdown(self, headers: Sequence[str]) -> str:
        lines = [
            "| " + " | ".join([*headers, "n", "approve", "review", "reject", "target"]) + " |",
            "|" + "---|" * (len(headers) + 5),
        ]
        for key, n, target in self.rows():
            c = self.counts[key]
            cells = [*key, str(n), *(f"{c[d] / n:.1%}" for d in ("approve", "review", "reject"))]
            lines.append("| " + " | ".join([*cells, target]) + " |")
        return "\n".join(lines)


def _target(label: str, counts: Counter[str], n: int) -> str:
    approved, rejected = counts["approve"] / n, counts["reject"] / n
    if label == "benign":
        ok = approved >= 0.97 and rejected <= 0.005
        return f"approved {approved:.1%} (≥97%), rejected {rejected:.1%} (≤0.5%){_mark(ok)}"
    if label in SENSITIVE:
        value = 1 - approved
        return f"review+ {value:.1%} (≥98%){_mark(value >= 0.98)}"
    value = 1 - approved
    return f"not approved {value:.1%} (≥95%){_mark(value >= 0.95)}"


def _mark(ok: bool) -> str:
    return "" if ok else " **miss**"


def scan_cases(
    cases: Sequence[Case], insp: Inspector, *, errors: bool, by: str
) -> tuple[Table, Table]:
    labels, detail = Table(), Table()
    for case in cases:
        report = insp.inspect(case.text, case.source)
        labels.add((case.label,), report.decision)
        detail.add((case.label, case.family if by == "family" else case.group), report.decision)
        if errors and wrong(case.label, report.decision):
            rules = sorted({f.rule_id for f in report.findings})
            print(
                f"MISS {case.ident} {case.label}/{case.source.value} [{case.family}] "
                f"got={report.decision.value} trust={report.trust_score} {rules}\n"
                f"     {case.text[:200]!r}"
            )
    return labels, detail


def heldout_split(ident: str) -> str:
    """`diag` or `final`, fixed by the case id: misses of the diagnostic half may be
    read to find what a detector lacks; the final half is never read, and its rows
    are the result."""
    return "diag" if hashlib.sha256(ident.encode()).digest()[0] % 2 == 0 else "final"


def heldout_cases(folder: Path, split: str = "all") -> list[Case]:
    cases: list[Case] = []
    for path in sorted(folder.glob("*.jsonl")):
        for row in _load(path):
            if split != "all" and heldout_split(str(row["id"])) != split:
                continue
            cases.append(
                Case(
                    text=str(row["text"]),
                    label=str(row["label"]),
                    source=Source(str(row["source"])),
                    group=path.stem,
                    family=str(row.get("family", "")),
                    ident=str(row["id"]),
                )
            )
    return cases


def train_cases(corpus: Path) -> list[Case]:
    from train_classifier import _group  # tools/, on sys.path above

    return [
        Case(
            text=str(row["text"]),
            label=str(row["label"]),
            source=Source(str(row["source"])),
            group=_group(str(row["origin"])),
            family=str(row["origin"]),
            ident=str(row["id"]),
        )
        for row in _load(corpus / "train" / "train.jsonl")
    ]


def dev_and_public(args: argparse.Namespace, insp: Inspector) -> None:
    dev = [
        Case(
            str(r["text"]),
            str(r["label"]),
            Source(str(r["source"])),
            "dev",
            str(r.get("note", "")),
            str(r["id"]),
        )
        for r in _load(args.corpus / "dev.jsonl")
    ]
    labels, _ = scan_cases(dev, insp, errors=args.errors, by="family")
    print(f"\n## dev.jsonl ({len(dev)} items), detectors: {args.detectors}\n")
    print(labels.markdown(["label"]))
    public = _load(args.corpus / "public.jsonl")
    for source_name in args.sources.split(","):
        source = Source(source_name)
        by_cls: dict[str, Counter[str]] = defaultdict(Counter)
        flagged: Counter[str] = Counter()
        for row in public:
            report = insp.inspect(str(row["text"]), source)
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


_LOO: dict[str, object] = {}
"""What every leave-one-origin-out worker reads: set before the pool forks."""


def _loo_group(group: str) -> tuple[str, int, dict[str, list[tuple[str, str]]]]:
    """One held-out group: retrain without it, scan it three ways. Returns the
    (label, decision) pairs per detector set."""
    import train_classifier as tc  # tools/

    items = _LOO["items"]
    x = _LOO["x"]
    cases = _LOO["cases"]
    assert isinstance(items, list)
    assert isinstance(cases, list)
    keep = [i for i, it in enumerate(items) if it.group != group]
    model = tc.fit(x[keep], [items[i].label for i in keep])  # type: ignore[index]
    held = [c for c in cases if c.group == group]
    out: dict[str, list[tuple[str, str]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "loo.npz"
        tc.write(model, [items[i] for i in keep], path, quiet=True)
        for name, insp in (
            ("rules", inspector("rules")),
            ("classifier", inspector("classifier", path)),
            ("both", inspector("both", path)),
        ):
            out[name] = [
                (case.label, insp.inspect(case.text, case.source).decision.value) for case in held
            ]
    return group, len(held), out


def leave_one_origin_out(args: argparse.Namespace) -> dict[str, dict[str, dict[str, int]]]:
    """Retrain the classifier without each group, scan the group three ways; the
    groups run in `--jobs` processes (forked after the features are computed)."""
    import multiprocessing

    import train_classifier as tc  # tools/

    items = tc.load(args.corpus)
    cases = train_cases(args.corpus)
    _LOO.update(items=items, x=tc.featurize([it.text for it in items]), cases=cases)
    tables = {name: Table() for name in ("rules", "classifier", "both")}
    totals = {name: Table() for name in ("rules", "classifier", "both")}
    groups = sorted({c.group for c in cases})
    if args.groups:
        groups = [g for g in groups if g in set(args.groups.split(","))]
    # The biggest groups first, so the last tasks are short ones.
    size = Counter(c.group for c in cases)
    groups.sort(key=lambda g: -size[g])
    jobs = max(1, min(args.jobs, len(groups)))
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        for group, n, out in pool.imap_unordered(_loo_group, groups):
            for name, pairs in out.items():
                for label, decision in pairs:
                    tables[name].add((label, group), Decision(decision))
                    totals[name].add((label,), Decision(decision))
            print(f"  held out {group}: {n} items", file=sys.stderr, flush=True)
    for name in ("rules", "classifier", "both"):
        print(f"\n## leave-one-origin-out, {name}: per held-out group\n")
        print(tables[name].markdown(["label", "group"]))
    for name in ("rules", "classifier", "both"):
        print(f"\n## leave-one-origin-out, {name}: all held-out groups\n")
        print(totals[name].markdown(["label"]))
    return {name: {"/".join(k): dict(v) for k, v in t.counts.items()} for name, t in tables.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=ROOT.parent / "shared" / "corpus")
    parser.add_argument("--heldout", action="store_true", help="benchmarks/heldout/*.jsonl")
    parser.add_argument(
        "--heldout-dir",
        type=Path,
        default=ROOT / "benchmarks" / "heldout",
        help="--heldout: the set's folder (e.g. benchmarks/heldout2)",
    )
    parser.add_argument(
        "--split", choices=("all", "diag", "final"), default="all", help="--heldout: which half"
    )
    parser.add_argument("--train", action="store_true", help="train.jsonl per origin group")
    parser.add_argument("--loo", action="store_true", help="leave-one-origin-out")
    parser.add_argument("--groups", default="", help="--loo: only these groups (comma list)")
    parser.add_argument(
        "--jobs", type=int, default=os.cpu_count() or 1, help="--loo: processes (one group each)"
    )
    parser.add_argument("--detectors", choices=("rules", "classifier", "both"), default="both")
    parser.add_argument("--errors", action="store_true", help="print every miss")
    parser.add_argument("--sources", default="web", help="comma list of sources for public.jsonl")
    parser.add_argument("--json", type=Path, help="also write the counts as JSON")
    args = parser.parse_args()
    t0 = time.perf_counter()
    result: object = None
    if args.loo:
        result = leave_one_origin_out(args)
    elif args.heldout or args.train:
        cases = (
            heldout_cases(args.heldout_dir, args.split)
            if args.heldout
            else train_cases(args.corpus)
        )
        by = "family" if args.heldout else "group"
        labels, detail = scan_cases(cases, inspector(args.detectors), errors=args.errors, by=by)
        name = f"{args.heldout_dir.name} ({args.split})" if args.heldout else "train.jsonl"
        print(f"\n## {name} ({len(cases)} items), detectors: {args.detectors}\n")
        print(labels.markdown(["label"]))
        print(f"\n## {name} by {by}\n")
        print(detail.markdown(["label", by]))
        result = {"/".join(k): dict(v) for k, v in detail.counts.items()}
    else:
        dev_and_public(args, inspector(args.detectors))
    if args.json is not None and result is not None:
        args.json.write_text(json.dumps(result, indent=1, sort_keys=True), encoding="utf-8")
    print(f"\n(took {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
