"""The trained classifier as an analyzer (detector `classifier`, rules MG-CLS-*).

A multinomial linear model over hashed character n-grams (`_features`), trained by
`tools/train_classifier.py` on the shared corpora and shipped as
`_models/classifier.npz`. It sits beside the rules for what phrasing-based rules
miss: each rule names one class of the model (`params.cls`) and reports when that
class's probability reaches `params.threshold`. The hit's confidence is the
probability, so the policy's severity and category weights turn it into a
deduction like any other finding; the note names the probability and the words
that pushed the text towards the class, so a reviewer sees why.

Inference is a gather and a sum: about 0.1 ms for 2 KB. Long chunks are read in
overlapping windows (the model was trained on texts of at most 6,000 characters
and one planted line in a long page must not be diluted away); the highest
probability of any window counts.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memgate.domain import Chunk
from memgate.scanning._features import FEATURE_BITS, fold, hashed_ngrams, ngram_span, unfold
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.rules import Rule

log = logging.getLogger(__name__)

MODELS = Path(__file__).with_name("_models")
WINDOW = 2000
STRIDE = 1500
MIN_CHARS = 12
EVIDENCE_WORDS = 5
QUIET_CLASSES = frozenset({"secret", "pii"})
"""No words as evidence for these: a word could be part of the value."""


@dataclass(frozen=True, slots=True)
class Model:
    weights: tuple[npt.NDArray[np.float32], ...]
    """One contiguous (2**FEATURE_BITS,) array per class: six 1-D gathers cost a
    fifth of one gather of rows."""
    bias: npt.NDArray[np.float32]
    classes: tuple[str, ...]

    def index(self, cls: str) -> int:
        return self.classes.index(cls)

    def scores(self, idx: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
        if len(idx) == 0:
            return self.bias.copy()
        total = np.array([w.take(idx).sum() for w in self.weights], dtype=np.float32)
        out: npt.NDArray[np.float32] = total / np.float32(np.sqrt(len(idx))) + self.bias
        return out

    def probabilities(self, idx: npt.NDArray[np.intp]) -> npt.NDArray[np.float32]:
        s = self.scores(idx)
        e = np.exp(s - s.max())
        out: npt.NDArray[np.float32] = e / e.sum()
        return out


@lru_cache(maxsize=4)
def load_model(path: Path) -> Model:
    """Load (once per process and path) a model written by the training script."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        weights = np.ascontiguousarray(data["weights"].astype(np.float32).T)
        bias = data["bias"].astype(np.float32)
    if int(meta["feature_bits"]) != FEATURE_BITS or weights.shape[1] != 1 << FEATURE_BITS:
        raise ValueError(f"{path}: trained with other features ({meta['feature_bits']} bits)")
    return Model(weights=tuple(weights), bias=bias, classes=tuple(meta["classes"]))


@dataclass(frozen=True, slots=True)
class _Watch:
    rule_id: str
    column: int
    cls: str
    threshold: float


class ClassifierAnalyzer:
    """Reports, per chunk, each class whose probability reaches its rule's threshold."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._model: Model | None = None
        self._watch: list[_Watch] = []
        paths = {str(r.params.get("model", "classifier.npz")) for r in rules}
        if len(paths) > 1:
            raise ValueError(f"classifier rules name more than one model: {sorted(paths)}")
        if not rules:
            return
        self._model = load_model(MODELS / paths.pop())
        for rule in rules:
            cls = str(rule.params["cls"])
            self._watch.append(
                _Watch(rule.id, self._model.index(cls), cls, float(rule.params["threshold"]))
            )

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterable[Hit]:
        model = self._model
        text = chunk.text
        if model is None or len(text) < MIN_CHARS:
            return ()
        best: npt.NDArray[np.float32] | None = None
        best_idx: dict[int, tuple[npt.NDArray[np.uint64], npt.NDArray[np.intp]]] = {}
        for start in _windows(len(text)):
            cp = fold(text[start : start + WINDOW])
            idx = hashed_ngrams(cp)
            probs = model.probabilities(idx)
            if best is None:
                best = probs.copy()
                best_idx = {c: (cp, idx) for c in range(len(probs))}
                continue
            for column in np.flatnonzero(probs > best):
                best[column] = probs[column]
                best_idx[int(column)] = (cp, idx)
        if best is None:
            return ()
        hits: list[Hit] = []
        for watch in self._watch:
            p = float(best[watch.column])
            if p < watch.threshold:
                continue
            cp, idx = best_idx[watch.column]
            note = f"classifier p={p:.2f} {watch.cls}"
            if watch.cls not in QUIET_CLASSES:
                words = _top_words(model, cp, idx, watch.column)
                if words:
                    note += ": " + ", ".join(words)
            hits.append(Hit(rule_id=watch.rule_id, start=0, end=len(text), confidence=p, note=note))
        return hits


def _windows(n: int) -> range:
    if n <= WINDOW + STRIDE // 2:
        return range(0, 1)
    return range(0, n - STRIDE // 2, STRIDE)


def _top_words(
    model: Model, cp: npt.NDArray[np.uint64], idx: npt.NDArray[np.intp], column: int
) -> list[str]:
    """The words around the n-grams that pushed most towards `column` (against
    the benign class), without digits, in order of weight."""
    push = model.weights[column].take(idx) - model.weights[0].take(idx)
    k = min(len(push), 60)
    order = np.argpartition(-push, k - 1)[:k]
    order = order[np.argsort(-push[order])]
    text = unfold(cp)
    words: list[str] = []
    for position in order:
        if push[position] <= 0:
            break
        start, end = ngram_span(len(cp), int(position))
        word = _word_at(text, start, end)
        if word and word not in words:
            words.append(word)
            if len(words) == EVIDENCE_WORDS:
                break
    return words


def _word_at(text: str, start: int, end: int) -> str:
    """The word(s) an n-gram sits in; CJK n-grams are shown as they are."""
    if any("\u3400" <= ch <= "\u9fff" for ch in text[start:end]):
        return text[start:end].strip()
    while start > 0 and text[start - 1].isalpha():
        start -= 1
    while end < len(text) and text[end].isalpha():
        end += 1
    word = text[start:end].strip(" .,;:!?\"'()[]{}<>")
    if not word or "0" in word or len(word) > 24 or not any(c.isalpha() for c in word):
        return ""
    return word
