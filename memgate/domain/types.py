"""Data types shared by every layer: sources, decisions, chunks, findings, reports."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field


class Source(StrEnum):
    """Where a memory write came from. Weighs how instructions inside it are read."""

    USER = "user"
    AGENT = "agent"
    TOOL = "tool"
    WEB = "web"
    DOCUMENT = "document"


class Decision(StrEnum):
    """The scan verdict. Ordered: approve < review < reject."""

    APPROVE = "approve"
    REVIEW = "review"
    REJECT = "reject"

    @property
    def rank(self) -> int:
        return _DECISION_RANK[self]

    def at_least(self, other: Decision) -> Decision:
        """The stricter of the two decisions."""
        return self if self.rank >= other.rank else other


_DECISION_RANK = {Decision.APPROVE: 0, Decision.REVIEW: 1, Decision.REJECT: 2}


class Category(StrEnum):
    """What a finding is about. `secret` and `pii` are the sensitive categories."""

    CODE_EXEC = "code_exec"
    SECRET = "secret"  # noqa: S105 - a category name, not a password
    PII = "pii"
    INJECTION = "injection"
    EXFIL = "exfil"
    HIDDEN_TEXT = "hidden_text"
    OBFUSCATION = "obfuscation"
    DESTRUCTIVE = "destructive"

    @property
    def sensitive(self) -> bool:
        return self in (Category.SECRET, Category.PII)


class Severity(StrEnum):
    INFO = "info"
    LOW = "low"
    MEDIUM = "medium"
    HIGH = "high"
    CRITICAL = "critical"


class ChunkKind(StrEnum):
    CODE = "code"
    JSON = "json"
    PROSE = "prose"


@dataclass(frozen=True, slots=True)
class Span:
    """Half-open character range [start, end)."""

    start: int
    end: int

    def __post_init__(self) -> None:
        if not 0 <= self.start <= self.end:
            raise ValueError(f"invalid span [{self.start}, {self.end})")

    def __len__(self) -> int:
        return self.end - self.start


@dataclass(frozen=True, slots=True)
class Chunk:
    """A piece of normalized text: code (with a language), embedded JSON, or prose."""

    kind: ChunkKind
    span: Span
    text: str
    language: str | None = None


class Finding(BaseModel):
    """One rule that fired. Never carries a secret value: evidence is redacted,
    and secrets are identified by a keyed fingerprint."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    rule_id: str
    category: Category
    severity: Severity
    confidence: float = Field(ge=0.0, le=1.0)
    weight: float = Field(ge=0.0)
    chunk_index: int | None = None
    span: tuple[int, int]
    evidence: str = ""
    fingerprint: str | None = None
    layer: str = "text"
    """Where it was seen: `text`, or the hidden carrier it was decoded from
    (`tag_chars`, `html_comment`, `base64`, ...)."""


class ChunkSummary(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    kind: ChunkKind
    language: str | None
    span: tuple[int, int]


class ScanReport(BaseModel):
    """The verdict on one piece of content."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    decision: Decision
    trust_score: float = Field(ge=0.0, le=1.0)
    source: Source
    source_prior: float = Field(default=1.0, ge=0.0, le=1.0)
    """Cap on the trust routing may use for auto-approval (web/document < approve)."""
    findings: tuple[Finding, ...]
    chunks: tuple[ChunkSummary, ...]
    redacted: str
    rules_version: str
    reasons: tuple[str, ...] = ()

    @property
    def categories(self) -> tuple[Category, ...]:
        return tuple(sorted({f.category for f in self.findings}))

    @property
    def sensitive(self) -> bool:
        return any(f.category.sensitive for f in self.findings)
