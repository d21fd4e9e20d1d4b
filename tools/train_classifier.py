"""Train the shipped text classifier (rule MG-CLS-001..005) and measure it honestly.

    .venv/bin/python tools/train_classifier.py                 # train on all, write the model
    .venv/bin/python tools/train_classifier.py --loo           # leave-one-origin-out table only
    .venv/bin/python tools/train_classifier.py --loo --write   # both

Data: `../shared/corpus/train/train.jsonl` (63k items), `public.jsonl` (the classes that
are clean enough to learn from) and `dev.jsonl`. Never `benchmarks/heldout/`: that set
measures the result and is never trained or tuned on.

Model: hashed character 1..5-grams of the folded text (`memgate.scanning._features`,
the same function inference uses), each text's count vector divided by the square
root of its n-gram count, and a multinomial logistic regression (scikit-learn's
SGDClassifier with log loss, elastic-net penalty to keep the weights sparse and the
file small). Classes: benign, injection, dangerous_code, exfil, secret, pii.

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
from collections import Counter, defaultdict
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


def load(corpus: Path) -> list[Item]:
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


def _weights(labels: Sequence[str]) -> npt.NDArray[np.float64]:
    """Each class weighs the same in total (the corpus has 40 % benign, 8 % exfil)."""
    counts = Counter(labels)
    return np.array([len(labels) / (len(counts) * counts[y]) for y in labels])


def fit(x: sparse.csr_matrix, labels: Sequence[str], *, epochs: int = 8) -> SGDClassifier:
    model = SGDClassifier(
        loss="log_loss",
        penalty="elasticnet",
        alpha=2e-6,
        l1_ratio=0.15,
        max_iter=epochs,
        tol=None,
        random_state=SEED,
    )
    y = np.array([CLASSES.index(label) for label in labels])
    model.fit(x, y, sample_weight=_weights(labels))
    return model


def probabilities(model: SGDClassifier, x: sparse.csr_matrix) -> npt.NDArray[np.float64]:
    scores = x @ model.coef_.T + model.intercept_
    scores -= scores.max(axis=1, keepdims=True)
    exp = np.exp(scores)
    full = np.zeros((x.shape[0], len(CLASSES)))
    full[:, model.classes_] = exp / exp.sum(axis=1, keepdims=True)
    return full


def leave_one_origin_out(items: Sequence[Item], x: sparse.csr_matrix, threshold: float) -> None:
    """Hold each group out in turn, train on the rest, report on the held-out group:
    for a malicious or sensitive group the share flagged (any non-benign class above
    `threshold`), for a benign group the share wrongly flagged."""
    groups = sorted({it.group for it in items})
    print(f"\n## Leave-one-origin-out, flag threshold {threshold}\n")
    print("| held-out group | label | n | flagged | as own class |")
    print("|---|---|---|---|---|")
    totals: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
    for group in groups:
        test = np.array([it.group == group for it in items])
        train_idx = np.flatnonzero(~test)
        model = fit(x[train_idx], [items[i].label for i in train_idx], epochs=5)
        test_idx = np.flatnonzero(test)
        probs = probabilities(model, x[test_idx])
        by_label: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0])
        for row, i in zip(probs, test_idx, strict=True):
            label = items[i].label
            flagged = float(row[1:].max()) >= threshold
            own = label != "benign" and float(row[CLASSES.index(label)]) >= threshold
            cell = by_label[label]
            cell[0] += 1
            cell[1] += flagged
            cell[2] += own
        for label, (n, flagged, own) in sorted(by_label.items()):
            t = totals[label]
            t[0] += n
            t[1] += flagged
            t[2] += own
            own_cell = "" if label == "benign" else f"{own / n:.1%}"
            print(f"| {group} | {label} | {n} | {flagged / n:.1%} | {own_cell} |")
    print("\n| label (all held-out groups) | n | flagged | as own class |")
    print("|---|---|---|---|")
    for label, (n, flagged, own) in sorted(totals.items()):
        own_cell = "" if label == "benign" else f"{own / n:.1%}"
        print(f"| {label} | {n} | {flagged / n:.1%} | {own_cell} |")


def write(model: SGDClassifier, items: Sequence[Item], path: Path, *, quiet: bool = False) -> None:
    coef = np.zeros((len(CLASSES), model.coef_.shape[1]))
    coef[model.classes_] = model.coef_
    bias = np.full(len(CLASSES), -30.0)
    bias[model.classes_] = model.intercept_
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
    parser.add_argument("--threshold", type=float, default=0.5)
    args = parser.parse_args()
    t0 = time.perf_counter()
    items = load(args.corpus)
    x = featurize([it.text for it in items])
    print(f"{len(items)} items, {x.nnz} non-zeros, featurized in {time.perf_counter() - t0:.1f} s")
    if args.loo:
        leave_one_origin_out(items, x, args.threshold)
    if args.write or not args.loo:
        model = fit(x, [it.label for it in items])
        write(model, items, MODEL)
    print(f"(took {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
