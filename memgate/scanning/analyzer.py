"""The analyzer port: one detector family applied to one chunk at a time."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from memgate.domain import Chunk, Severity, Source
from memgate.scanning.rules import Rule


@dataclass(frozen=True, slots=True)
class Hit:
    """A rule firing, in coordinates of the chunk's text (0 = chunk start)."""

    rule_id: str
    start: int
    end: int
    value: tuple[int, int] | None = None
    """Span of the sensitive value (secret, personal data), to redact and fingerprint."""
    confidence: float | None = None
    """Overrides the rule's confidence (e.g. raised when input is tainted)."""
    severity: Severity | None = None
    """Overrides the rule's severity (e.g. lowered for a literal argument)."""
    note: str = ""
    """A few words of why, shown after the evidence. Never a secret value."""


@dataclass(frozen=True, slots=True)
class ScanContext:
    """What an analyzer may know besides the chunk. Analyzers must depend on
    nothing else: their results are cached by chunk text and this context."""

    source: Source
    origin: str
    """`text`, or the hidden carrier the layer was decoded from."""
    hidden: bool
    depth: int

    def cache_key(self) -> str:
        return f"{self.source}|{self.origin}|{int(self.hidden)}|{self.depth}"


class Analyzer(Protocol):
    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterable[Hit]:
        """Yield hits for this chunk. Must never raise and must be bounded in time."""
        ...


AnalyzerFactory = Callable[[Sequence[Rule]], Analyzer]
"""Builds an analyzer from the rules whose `detector` names it."""
