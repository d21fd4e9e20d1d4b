"""Hashed character n-grams: the features of the shipped classifier.

One function turns a text into hashed n-gram indices, vectorised with numpy so
that a 2 KB text costs tens of microseconds. Training (`tools/train_classifier.py`)
and inference (`memgate.scanning.classifier`) call the same function, so the
model sees at run time exactly what it was trained on.

The text is folded first: lower case, every decimal digit to `0` (ports, IPs,
dates and ids generalise), runs of whitespace to one space. N-grams run over
code points, so Chinese and Latin text are treated alike.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

__all__ = ["FEATURE_BITS", "NGRAM_SIZES", "fold", "hashed_ngrams", "ngram_span", "unfold"]

FEATURE_BITS = 18
NGRAM_SIZES = (1, 2, 3, 4, 5)
MAX_CODEPOINTS = 65536
"""Longer texts are featurised on their first MAX_CODEPOINTS code points (bounded
time on any input; the analyzer reads the chunk in windows)."""

_PRIME = np.uint64(0x100000001B3)
_MIX = np.uint64(0x9E3779B97F4A7C15)
_SHIFT = np.uint64(64 - FEATURE_BITS)
_TOP = 0x3000
_IS_SPACE = np.zeros(_TOP + 2, dtype=bool)
"""Whitespace by code point up to U+3000 (ideographic space); the last cell stands
for every code point above, none of them whitespace. A table lookup costs a tenth
of `np.isin`."""
_IS_SPACE[[9, 10, 11, 12, 13, 0x85, 0xA0, 0x2028, 0x2029, _TOP]] = True


def fold(text: str) -> npt.NDArray[np.uint64]:
    """The folded code points of a text: lower case, digits to `0`, whitespace
    runs to one space (numpy does it; `str.translate` costs 0.5 ms per 2 KB)."""
    raw = text[:MAX_CODEPOINTS].lower().encode("utf-32-le", "surrogatepass")
    # NOTE: folded in 32 bits and widened once at the end, after the repeated
    # spaces are gone: the same values as folding in 64 bits, half the memory.
    cp = np.frombuffer(raw, dtype=np.uint32).copy()
    cp[(cp - np.uint32(48)) <= np.uint32(9)] = 48  # wraps below '0': one compare
    cp[_IS_SPACE[np.minimum(cp, _TOP + 1)]] = 32
    space = cp == 32
    keep = np.empty(len(cp), dtype=bool)
    if len(cp):
        keep[0] = not space[0]
        np.logical_not(space[1:] & space[:-1], out=keep[1:])
    out: npt.NDArray[np.uint64] = cp[keep].astype(np.uint64)
    return out


def unfold(cp: npt.NDArray[np.uint64]) -> str:
    """The text of folded code points (for evidence)."""
    return cp.astype(np.uint32).tobytes().decode("utf-32-le", "replace")


def hashed_ngrams(cp: npt.NDArray[np.uint64]) -> npt.NDArray[np.intp]:
    """Feature index of every n-gram of folded code points (with repeats)."""
    n = len(cp)
    total = sum(max(n - size + 1, 0) for size in NGRAM_SIZES)
    out = np.empty(total, dtype=np.uint64)
    offset = 0
    h = cp
    for size in range(1, NGRAM_SIZES[-1] + 1):
        if size > n:
            break
        # h[i] = hash of cp[i : i + size], built from the (size - 1)-gram hashes
        # (the 1-gram hash 0 * _PRIME + cp is cp itself).
        if size > 1:
            h = h[: n - size + 1] * _PRIME + cp[size - 1 :]
        if size in NGRAM_SIZES:
            part = out[offset : offset + len(h)]
            np.add(h, np.uint64(size), out=part)
            np.multiply(part, _MIX, out=part)
            np.right_shift(part, _SHIFT, out=part)
            offset += len(h)
    # every index is below 2**FEATURE_BITS: the same bits as a signed integer
    return out.view(np.int64).astype(np.intp, copy=False)


def ngram_span(n: int, position: int) -> tuple[int, int]:
    """Span (start, end) in the folded code points (of length n) of the n-gram
    at `position` of the array `hashed_ngrams` returns, for evidence."""
    offset = position
    for size in NGRAM_SIZES:
        count = max(n - size + 1, 0)
        if offset < count:
            return offset, offset + size
        offset -= count
    return 0, 0
