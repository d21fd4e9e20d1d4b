"""Domain: data types and ports. Imports nothing else from memgate."""

from memgate.domain.types import (
    Category,
    Chunk,
    ChunkKind,
    ChunkSummary,
    Decision,
    Finding,
    ScanReport,
    Severity,
    Source,
    Span,
)

__all__ = [
    "Category",
    "Chunk",
    "ChunkKind",
    "ChunkSummary",
    "Decision",
    "Finding",
    "ScanReport",
    "Severity",
    "Source",
    "Span",
]
