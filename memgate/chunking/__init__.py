"""Normalization and chunking: pure functions that prepare content for scanning."""

from memgate.chunking.chunker import chunk, json_string_chunks
from memgate.chunking.normalize import HiddenMark, Layer, Normalized, normalize
from memgate.chunking.sniff import fence_language, sniff_language

__all__ = [
    "HiddenMark",
    "Layer",
    "Normalized",
    "chunk",
    "fence_language",
    "json_string_chunks",
    "normalize",
    "sniff_language",
]
