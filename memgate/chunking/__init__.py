"""Normalization and chunking: pure functions that prepare content for scanning."""

from memgate.chunking.chunker import chunk
from memgate.chunking.normalize import HiddenMark, Layer, Normalized, normalize
from memgate.chunking.sniff import fence_language, sniff_language

__all__ = [
    "HiddenMark",
    "Layer",
    "Normalized",
    "chunk",
    "fence_language",
    "normalize",
    "sniff_language",
]
