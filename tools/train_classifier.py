"""Train the shipped text classifier (rule MG-CLS-001..005) and measure it honestly.

    .venv/bin/python tools/train_classifier.py                 # train on all, write the model
    .venv/bin/python tools/train_classifier.py --loo           # leave-one-origin-out table only
    .venv/bin/python tools/train_classifier.py --loo --write   # both

Data: `../shared/corpus/train/train.jsonl` (63k items), `public.jsonl` (the classes that
are clean enough to learn from), `dev.jsonl`, benign text read from this machine, and
synthetic clause pairs (`tools/_clause_corpus.py`: the same carriers and filler with a
planted or a benign clause), and the burnt held-out sets (`BURNT_HELDOUT`: read while
rules were written, so they no longer measure), the diag halves of `heldout4/` and
`heldout5/` (`DIAG_HELDOUT`: read to find misses) and the hand-written training sets
(`tools/handwritten/set_*/`). Never a final half, and never a held-out set that still
measures (`benchmarks/heldout6/`, later ones).

Model: hashed character 1..5-grams of the folded text (`memgate.scanning._features`,
the same function inference uses), each text's count vector divided by the square
root of its n-gram count, and one-vs-rest logistic regressions (scikit-learn's
SGDClassifier with log loss, elastic-net penalty to keep the weights sparse and the
file small) whose scores a softmax turns into probabilities, at training and at
inference alike. Classes: benign, injection, dangerous_code, exfil, secret, pii.

Output: `memgate/scanning/_models/classifier.npz` (float16 weights, bias, class
names, training metadata) and `docs/classifier.md`'s numbers are printed for the
maintainer to paste.

Deterministic: fixed seed, corpus read in file order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import numpy.typing as npt
from scipy import sparse
from sklearn.linear_model import SGDClassifier

from memgate.scanning._features import FEATURE_BITS, NGRAM_SIZES, fold, hashed_ngrams

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT.parent / "shared" / "corpus"
MODEL = ROOT / "memgate" / "scanning" / "_models" / "classifier.npz"
CLASSES = ("benign", "injection", "dangerous_code", "exfil", "secret", "pii")
SEED = 20261201

# public.jsonl classes and how they are learnt. The insecure-code lines of
# CyberSecEval / CodeShield / bandit are insecure, not always dangerous: left out so
# that the model does not learn "code = dangerous".
PUBLIC_LABELS = {
    "injection_pos": "injection",
    "injection_pos_indirect_hard": "injection",
    "benign_prose": "benign",
    "benign_instructional_hard": "benign",
    "benign_high_entropy": "benign",
    "secret_pos": "secret",
    "secret_neg_lookalike": "benign",
    "benign_code": "benign",
}
PUBLIC_CAP = 600
"""Per public origin, so the 4k lock-file hashes do not drown the rest."""


@dataclass(frozen=True, slots=True)
class Item:
    text: str
    label: str
    group: str
    """Leave-one-origin-out unit: an upstream repository or a generator family."""
    origin: str


def _jsonl(path: Path) -> Iterable[dict[str, object]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _group(origin: str) -> str:
    parts = origin.split("/")
    return "/".join(parts[:2]) if parts[0] == "gen" else parts[0]


def load(corpus: Path, *, local: bool = True, synthetic: bool = True) -> list[Item]:
    items: list[Item] = []
    for row in _jsonl(corpus / "train" / "train.jsonl"):
        origin = str(row["origin"])
        items.append(Item(str(row["text"]), str(row["label"]), _group(origin), origin))
    per_origin: Counter[str] = Counter()
    for row in _jsonl(corpus / "public.jsonl"):
        label = PUBLIC_LABELS.get(str(row["cls"]))
        if label is None:
            continue
        origin = "public:" + str(row["id"]).split("#")[0]
        per_origin[origin] += 1
        if per_origin[origin] > PUBLIC_CAP:
            continue
        items.append(Item(str(row["text"]), label, origin.split("/")[0], origin))
    for row in _jsonl(corpus / "dev.jsonl"):
        items.append(Item(str(row["text"]), str(row["label"]), "dev", "dev"))
    if local:
        items.extend(local_benign())
    if synthetic:
        items.extend(clause_benign_pairs())
    items.extend(burnt_heldout())
    return items


BURNT_HELDOUT = ("heldout", "heldout2", "heldout3")
"""Held-out sets whose items were read while rules were written (their README says
so): no longer measures, so they teach. Hand-written memory writes in the carriers
and voices the gateway meets, unlike most of the corpus. The sets that still
measure (`heldout4`, `heldout5`, and any later one) are never read here."""
HANDWRITTEN_WEIGHT = 4.0
"""A burnt held-out item weighs this many corpus items: 2.7k hand-written writes
beside 63k items mostly from two kinds of source (repositories, generators)."""


DIAG_HELDOUT = ("heldout4", "heldout5")
"""Held-out sets whose diag half was read to find what the detectors lack (their
README says so): that half teaches since 2026-12-07. Their final halves are never
trained on, but they come from the same generators, so for the classifier they no
longer measure new text; `benchmarks/heldout6/` (and later sets) do."""
HANDWRITTEN = ROOT / "tools" / "handwritten"
"""Training sets written for the classifier by hand (`set_*/`, the held-out row
schema), by writers who read no held-out set and none of each other's."""


def _diag(ident: str) -> bool:
    """`benchmarks/eval_detection.py`'s `heldout_split(ident) == "diag"`."""
    return hashlib.sha256(ident.encode()).digest()[0] % 2 == 0


def _handwritten_rows(folder: Path, group: str, *, diag_only: bool = False) -> list[Item]:
    items: list[Item] = []
    for path in sorted(folder.glob("*.jsonl")):
        for row in _jsonl(path):
            label = str(row["label"])
            if label not in CLASSES or (diag_only and not _diag(str(row["id"]))):
                continue
            family = str(row.get("family", ""))
            items.append(Item(str(row["text"]), label, group, f"{folder.name}/{family}"))
    return items


def burnt_heldout() -> list[Item]:
    """The burnt held-out sets whole, the diag halves of DIAG_HELDOUT, and the
    hand-written training sets; each item weighs HANDWRITTEN_WEIGHT."""
    items: list[Item] = []
    for name in BURNT_HELDOUT:
        items += _handwritten_rows(ROOT / "benchmarks" / name, f"heldout/{name}")
    for name in DIAG_HELDOUT:
        items += _handwritten_rows(ROOT / "benchmarks" / name, f"heldout/{name}", diag_only=True)
    for folder in sorted(p for p in HANDWRITTEN.glob("set_*") if p.is_dir()):
        items += _handwritten_rows(folder, f"handwritten/{folder.name}")
    return items


SYNTHETIC_PAIRS = 3000
"""Planted and benign items each from `tools/_clause_corpus.py` (group `synthetic/clauses`)."""


def clause_benign_pairs() -> list[Item]:
    """Carriers and filler used on both sides, only the clause differs (see
    `_clause_corpus`): teaches what a clause does rather than which carrier holds it."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from _clause_corpus import clause_items

    group = "synthetic/clauses"
    return [Item(t, label, group, group) for t, label in clause_items(SYNTHETIC_PAIRS)]


LOCAL_CAP = {"local/pydoc": 5000, "local/pycode": 3000, "local/debdoc": 3000}
"""Benign text read from this machine, by group (see `local_benign`)."""


def _paragraphs(text: str, low: int = 120, high: int = 1500) -> Iterable[str]:
    """Blank-line separated pieces, merged up to `high` characters."""
    buf = ""
    for part in text.split("\n\n"):
        part = part.strip()
        if not part:
            continue
        if buf and len(buf) + len(part) > high:
            if len(buf) >= low:
                yield buf
            buf = ""
        buf = f"{buf}\n\n{part}" if buf else part
    if len(buf) >= low:
        yield buf[: high * 2]


def local_benign(seed: int = SEED) -> list[Item]:
    """Benign prose and code the machine already has, so the model meets more than
    the corpus's few benign styles: the installed packages' docstrings and
    descriptions (`local/pydoc`), their source (`local/pycode`), and Debian's
    package documentation (`local/debdoc`). Only the weights learnt from them are
    shipped, never the text. Deterministic for one environment (sorted files, a
    seeded sample); another machine with other packages gives a similar mix."""
    import ast
    import gzip
    import random
    import sysconfig

    pools: dict[str, list[str]] = {g: [] for g in LOCAL_CAP}
    site = Path(sysconfig.get_paths()["purelib"])
    for meta in sorted(site.glob("*.dist-info/METADATA")):
        body = meta.read_text(encoding="utf-8", errors="replace").partition("\n\n")[2]
        pools["local/pydoc"].extend(_paragraphs(body))
    files = [p for p in sorted(site.rglob("*.py")) if not {"tests", "test"} & set(p.parts)]
    random.Random(seed).shuffle(files)
    for py in files[:2500]:
        try:
            source = py.read_text(encoding="utf-8")
            tree = ast.parse(source)
        except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef):
                doc = ast.get_docstring(node)
                if doc and len(doc) >= 120:
                    pools["local/pydoc"].append(doc[:3000])
        lines = source.split("\n")
        for start in range(0, len(lines), 60):
            piece = "\n".join(lines[start : start + 40]).strip()
            if len(piece) >= 200:
                pools["local/pycode"].append(piece[:3000])
    doc_root = Path("/usr/share/doc")
    if doc_root.is_dir():
        for path in sorted(doc_root.rglob("*")):
            name = path.name.lower()
            if not path.is_file() or not (
                name.startswith(("readme", "changelog", "news")) or name.endswith((".md", ".txt"))
            ):
                continue
            try:
                raw = path.read_bytes()[: 1 << 20]
                text = gzip.decompress(raw) if name.endswith(".gz") else raw
                pools["local/debdoc"].extend(_paragraphs(text.decode("utf-8", "replace")[:60000]))
            except (OSError, EOFError, gzip.BadGzipFile):
                continue
    rng = random.Random(seed)
    items: list[Item] = []
    for group, texts in pools.items():
        unique = sorted(set(texts))
        rng.shuffle(unique)
        items.extend(Item(t, "benign", group, group) for t in unique[: LOCAL_CAP[group]])
    return items


def featurize(texts: Sequence[str]) -> sparse.csr_matrix:
    indptr = [0]
    indices: list[npt.NDArray[np.intp]] = []
    data: list[npt.NDArray[np.float32]] = []
    for text in texts:
        idx = hashed_ngrams(fold(text))
        indices.append(idx)
        data.append(np.full(len(idx), 1.0 / np.sqrt(max(len(idx), 1)), dtype=np.float32))
        indptr.append(indptr[-1] + len(idx))
    matrix = sparse.csr_matrix(
        (np.concatenate(data), np.concatenate(indices), np.array(indptr)),
        shape=(len(texts), 1 << FEATURE_BITS),
    )
    matrix.sum_duplicates()
    return matrix


BENIGN_WEIGHT = 3.0
ALPHA = 1e-5


def _weights(labels: Sequence[str], groups: Sequence[str] | None = None) -> npt.NDArray[np.float64]:
    """A benign item weighs BENIGN_WEIGHT, every other 1. Not class-balanced: held
    out by origin, a balanced model flagged 11 % of dev.jsonl's benign writes at
    p >= 0.9 (3.6 % at 0.99); this one 3.6 % (0.7 %), at the cost of recall. Real
    traffic is mostly benign, and the classifier must rarely decide alone. A burnt
    held-out item weighs HANDWRITTEN_WEIGHT times more."""
    w = np.array([BENIGN_WEIGHT if y == "benign" else 1.0 for y in labels])
    if groups is not None:
        w *= np.array(
            [
                HANDWRITTEN_WEIGHT if g.startswith(("heldout/", "handwritten/")) else 1.0
                for g in groups
            ]
        )
    return w


def fit(
    x: sparse.csr_matrix,
    labels: Sequence[str],
    *,
    epochs: int = 8,
    groups: Sequence[str] | None = None,
) -> SGDClassifier:
    model = SGDClassifier(
        loss="log_loss",
        penalty="elasticnet",
        alpha=ALPHA,
        l1_ratio=0.15,
        max_iter=epochs,
        tol=None,
        random_state=SEED,
    )
    y = np.array([CLASSES.index(label) for label in labels])
    model.fit(x, y, sample_weight=_weights(labels, groups))
    return model


def _full(model: SGDClassifier) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """Weights (n_classes, n_features) and bias per class of CLASSES; a class the
    training data lacked gets a bias that keeps it at probability ~0. A two-class
    fit has one weight row, for its second class."""
    coef = np.zeros((len(CLASSES), model.coef_.shape[1]))
    bias = np.full(len(CLASSES), -30.0)
    if len(model.classes_) == 2:
        coef[model.classes_[1]] = model.coef_[0]
        bias[model.classes_[1]] = model.intercept_[0]
        bias[model.classes_[0]] = 0.0
    else:
        coef[model.classes_] = model.coef_
        bias[model.classes_] = model.intercept_
    return coef, bias


def probabilities(model: SGDClassifier, x: sparse.csr_matrix) -> npt.NDArray[np.float64]:
    """As inference computes them: softmax over the one-vs-rest scores."""
    coef, bias = _full(model)
    scores = np.asarray(x @ coef.T) + bias
    scores -= scores.max(axis=1, keepdims=True)
    exp = np.exp(scores)
    out: npt.NDArray[np.float64] = exp / exp.sum(axis=1, keepdims=True)
    return out


def leave_one_origin_out(
    items: Sequence[Item], x: sparse.csr_matrix, thresholds: Sequence[float]
) -> None:
    """Hold each group out in turn, train on the rest, report on the held-out group:
    for a malicious or sensitive group the share given its own class, for a benign
    group the share given any other class, at each probability threshold."""
    groups = sorted({it.group for it in items})
    heads = " | ".join(f"@{t}" for t in thresholds)
    print("\n## Classifier alone, leave-one-origin-out (flagged share per threshold)\n")
    print(f"| held-out group | label | n | {heads} |")
    print("|---|---|---|" + "---|" * len(thresholds))
    totals: dict[str, npt.NDArray[np.float64]] = {}
    sizes: Counter[str] = Counter()
    for group in groups:
        test = np.array([it.group == group for it in items])
        train_idx = np.flatnonzero(~test)
        model = fit(
            x[train_idx],
            [items[i].label for i in train_idx],
            epochs=5,
            groups=[items[i].group for i in train_idx],
        )
        test_idx = np.flatnonzero(test)
        probs = probabilities(model, x[test_idx])
        labels = np.array([items[i].label for i in test_idx])
        for label in sorted(set(labels)):
            rows = probs[labels == label]
            p = rows[:, 1:].max(axis=1) if label == "benign" else rows[:, CLASSES.index(label)]
            share = np.array([(p >= t).mean() for t in thresholds])
            totals[label] = totals.get(label, np.zeros(len(thresholds))) + share * len(rows)
            sizes[label] += len(rows)
            cells = " | ".join(f"{v:.1%}" for v in share)
            print(f"| {group} | {label} | {len(rows)} | {cells} |", flush=True)
    print(f"\n| label (all held-out groups) | n | {heads} |")
    print("|---|---|" + "---|" * len(thresholds))
    for label, total in sorted(totals.items()):
        cells = " | ".join(f"{v / sizes[label]:.1%}" for v in total)
        print(f"| {label} | {sizes[label]} | {cells} |")


def write(model: SGDClassifier, items: Sequence[Item], path: Path, *, quiet: bool = False) -> None:
    coef, bias = _full(model)
    digest = hashlib.sha256()
    for it in items:
        digest.update(it.label.encode() + b"\0" + it.text.encode("utf-8", "surrogatepass"))
    meta = {
        "classes": list(CLASSES),
        "feature_bits": FEATURE_BITS,
        "ngram_sizes": list(NGRAM_SIZES),
        "trained_on": dict(Counter(it.label for it in items)),
        "data_sha256": digest.hexdigest(),
        "nonzero_weights": int(np.count_nonzero(coef)),
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(
        path,
        # (n_features, n_classes): one gather per n-gram reads one row
        weights=coef.T.astype(np.float16),
        bias=bias.astype(np.float32),
        meta=np.array(json.dumps(meta, sort_keys=True)),
    )
    if not quiet:
        print(f"wrote {path} ({path.stat().st_size / 1e6:.1f} MB): {json.dumps(meta)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--loo", action="store_true", help="leave-one-origin-out table")
    parser.add_argument(
        "--write", action="store_true", help="write the model (default without --loo)"
    )
    parser.add_argument("--thresholds", default="0.5,0.8,0.9,0.95,0.98,0.99")
    args = parser.parse_args()
    t0 = time.perf_counter()
    items = load(args.corpus)
    x = featurize([it.text for it in items])
    print(f"{len(items)} items, {x.nnz} non-zeros, featurized in {time.perf_counter() - t0:.1f} s")
    if args.loo:
        leave_one_origin_out(items, x, [float(t) for t in args.thresholds.split(",")])
    if args.write or not args.loo:
        model = fit(x, [it.label for it in items], groups=[it.group for it in items])
        write(model, items, MODEL)
    print(f"(took {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
