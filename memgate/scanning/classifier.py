"""The trained classifier as an analyzer (detector `classifier`, rules MG-CLS-*).

A multinomial linear model over hashed character n-grams (`_features`), trained by
`tools/train_classifier.py` on the shared corpora and shipped as
`_models/classifier.npz`. It sits beside the rules for what phrasing-based rules
miss: each rule names one class of the model (`params.cls`) and reports when that
class's probability reaches `params.threshold`. The hit's confidence is the
probability, so the policy's severity and category weights turn it into a
deduction like any other finding; the note names the probability and the words
that pushed the text towards the class, so a reviewer sees why.

Inference is a gather and a sum: about 0.1 ms for 2 KB. Chunks longer than
WINDOW + STRIDE code points are read in overlapping windows (one planted line in a
long page must not be diluted away), all from one gather through cumulative sums;
the highest probability of any window counts. Chunks are read up to
`_features.MAX_CODEPOINTS`.
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
from memgate.scanning._code_lang import KeywordSet
from memgate.scanning._features import (
    FEATURE_BITS,
    NGRAM_SIZES,
    fold,
    hashed_ngrams,
    ngram_span,
    unfold,
)
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.rules import Rule

log = logging.getLogger(__name__)

MODELS = Path(__file__).with_name("_models")
STRIDE = 192
WINDOW = 2 * STRIDE
"""A window is two segments of STRIDE code points."""
MIN_CHARS = 12
MIN_CHARS_QUIET = 40
"""Sensitive classes read only chunks this long: the gateway also scans keys and
metadata values, where a classifier guess must not refuse a write."""
EVIDENCE_WORDS = 5
QUIET_CLASSES = frozenset({"secret", "pii"})
"""No words as evidence for these: a word could be part of the value."""


@dataclass(frozen=True, slots=True)
class Model:
    rows: npt.NDArray[np.void]
    """(2**FEATURE_BITS,) rows of ROW_WIDTH float32 (the classes' weights, padded),
    each one opaque 32-byte item: numpy gathers one 1-D array of wide items in a
    tenth of the time of six per-class gathers or one 2-D gather of rows."""
    bias: npt.NDArray[np.float32]
    classes: tuple[str, ...]

    def index(self, cls: str) -> int:
        return self.classes.index(cls)


ROW_WIDTH = 8


@lru_cache(maxsize=4)
def load_model(path: Path) -> Model:
    """Load (once per process and path) a model written by the training script."""
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        weights = data["weights"].astype(np.float32)
        bias = data["bias"].astype(np.float32)
    n_features, n_classes = weights.shape
    if int(meta["feature_bits"]) != FEATURE_BITS or n_features != 1 << FEATURE_BITS:
        raise ValueError(f"{path}: trained with other features ({meta['feature_bits']} bits)")
    if n_classes > ROW_WIDTH:
        raise ValueError(f"{path}: {n_classes} classes, at most {ROW_WIDTH} supported")
    padded = np.zeros((n_features, ROW_WIDTH), dtype=np.float32)
    padded[:, :n_classes] = weights
    rows = padded.view(f"V{4 * ROW_WIDTH}").ravel()
    return Model(rows=rows, bias=bias, classes=tuple(meta["classes"]))


@dataclass(frozen=True, slots=True)
class _Watch:
    rule_id: str
    column: int
    cls: str
    threshold: float
    discussion: KeywordSet | None = None
    """`params.discussion`: words of texts about attacks (attackers, red team,
    提示注入, 论文...); with `discussion_min` of them in the text the probability is
    capped at `discussion_cap` (the model reads a quoted attack like an attack)."""
    discussion_min: int = 2
    discussion_cap: float = 1.0


class ClassifierAnalyzer:
    """Reports each class whose probability reaches its rule's threshold.

    It reads each layer's whole text (the scanner's `whole_text` protocol) rather
    than chunk by chunk: the model was trained on whole memories, a fence or a JSON
    block does not split the context it reads, and one call per text costs less
    than one per chunk; windows keep a long text from diluting one planted line."""

    whole_text = True

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
            words = [str(w).lower() for w in rule.params.get("discussion", ())]
            self._watch.append(
                _Watch(
                    rule.id,
                    self._model.index(cls),
                    cls,
                    float(rule.params["threshold"]),
                    KeywordSet(words) if words else None,
                    int(rule.params.get("discussion_min", 2)),
                    float(rule.params.get("discussion_cap", 1.0)),
                )
            )

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterable[Hit]:
        model = self._model
        text = chunk.text
        if model is None or len(text) < MIN_CHARS:
            return ()
        cp = fold(text)
        idx = hashed_ngrams(cp)
        # One gather of every n-gram's class weights; every window's score is then
        # a difference of cumulative sums, so windows cost one pass.
        contrib = model.rows.take(idx).view(np.float32).reshape(-1, ROW_WIDTH)
        probs, windows = _window_probabilities(model, contrib, len(cp))
        best = probs.max(axis=0)
        hits: list[Hit] = []
        for watch in self._watch:
            p = float(best[watch.column])
            quiet = watch.cls in QUIET_CLASSES
            if p < watch.threshold or (quiet and len(text) < MIN_CHARS_QUIET):
                continue
            note = f"classifier p={p:.2f} {watch.cls}"
            if watch.discussion is not None and p > watch.discussion_cap:
                about = sorted(watch.discussion.present(text.lower()))
                if len(about) >= watch.discussion_min:
                    p = watch.discussion_cap
                    note += f", capped at {p:.2f}: a text about attacks ({', '.join(about)})"
            if not quiet:
                a, b = windows[int(probs[:, watch.column].argmax())]
                words = _top_words(contrib, cp, watch.column, (a, b))
                if words:
                    note += ": " + ", ".join(words)
            hits.append(Hit(rule_id=watch.rule_id, start=0, end=len(text), confidence=p, note=note))
        return hits


def _window_probabilities(
    model: Model, contrib: npt.NDArray[np.float32], n: int
) -> tuple[npt.NDArray[np.float32], list[tuple[int, int]]]:
    """Class probabilities (n_windows, n_classes) of the windows of a chunk of `n`
    folded code points, and the windows' spans. `contrib` holds one row of class
    weights per n-gram, in `hashed_ngrams` order (all 1-grams by start, then all
    2-grams, ...). A chunk up to WINDOW + STRIDE is one window."""
    k = len(model.bias)
    total = contrib.shape[0]
    if n <= WINDOW + STRIDE or total == 0:
        sums = contrib[:, :k].sum(axis=0, keepdims=True)
        scores = sums / np.float32(np.sqrt(max(total, 1))) + model.bias
        return _softmax(scores), [(0, n)]
    # summed weights of the n-grams starting at each position, then per segment of
    # STRIDE positions (a sum over the middle axis, cheaper than a prefix sum);
    # a window is two neighbouring segments
    segments = -(-n // STRIDE)
    at = np.zeros((segments * STRIDE, ROW_WIDTH), dtype=np.float32)
    offset = 0
    for size in NGRAM_SIZES:
        m = n - size + 1
        at[:m] += contrib[offset : offset + m]
        offset += m
    # NOTE: summed over the first axis of a contiguous (STRIDE, segments, width)
    # copy: numpy adds the STRIDE rows one after another, as `sum(axis=1)` of the
    # (segments, STRIDE, width) view does (the same float32 sums, bit for bit),
    # in long inner loops instead of one loop of `width` per row.
    by_row = np.ascontiguousarray(at.reshape(segments, STRIDE, ROW_WIDTH).transpose(1, 0, 2))
    seg = np.add.reduce(by_row, axis=0)
    sums = seg[:-1, :k] + seg[1:, :k]
    starts = np.arange(segments - 1) * STRIDE
    ends = np.minimum(starts + WINDOW, n)
    # n-grams of each size starting inside the window (none start in the last size - 1)
    last = n - np.array(NGRAM_SIZES) + 1
    counts = (np.minimum(ends[:, None], last[None, :]) - starts[:, None]).clip(0).sum(axis=1)
    scores = sums / np.sqrt(np.maximum(counts, 1)).astype(np.float32)[:, None] + model.bias
    return _softmax(scores), list(zip(starts.tolist(), ends.tolist(), strict=True))


def _softmax(scores: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    e = np.exp(scores - scores.max(axis=1, keepdims=True))
    out: npt.NDArray[np.float32] = (e / e.sum(axis=1, keepdims=True)).astype(np.float32)
    return out


def _top_words(
    contrib: npt.NDArray[np.float32],
    cp: npt.NDArray[np.uint64],
    column: int,
    window: tuple[int, int],
) -> list[str]:
    """The words around the n-grams of `window` that pushed most towards `column`
    (against the benign class), without digits, in order of weight."""
    push = contrib[:, column] - contrib[:, 0]
    starts = np.concatenate([np.arange(max(len(cp) - s + 1, 0)) for s in NGRAM_SIZES])
    push[(starts < window[0]) | (starts >= window[1])] = 0.0
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
