"""The policy: thresholds, severity values, category weights and source priors,
loaded from TOML (never hard-coded)."""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    field_validator,
    model_validator,
)

from memgate.domain import Category, Severity, Source
from memgate.domain.memory import MemoryState
from memgate.errors import PolicyError

DEFAULT_POLICY = Path(__file__).with_name("default_policy.toml")


class Thresholds(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    approve: float = Field(ge=0.0, le=1.0)
    review: float = Field(ge=0.0, le=1.0)
    quorum_floor: float = Field(default=0.1, ge=0.0, le=1.0)
    """A finding counts toward a category's `reject_quorum` (and lets its category
    stand behind a rejection) only when its deduction is at least this: a merely
    corroborating classifier finding or an info note is no second witness."""

    @model_validator(mode="after")
    def _ordered(self) -> Thresholds:
        if self.review > self.approve:
            raise ValueError("thresholds.review must not exceed thresholds.approve")
        return self


class CategoryPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    weight: float = Field(default=1.0, ge=0.0)
    max_deduction: float | None = Field(default=None, ge=0.0, le=1.0)
    review_at: Severity | None = None
    """A finding of this category at or above this severity is never approved,
    from any source: the source multiplier weighs it, it does not excuse it."""
    reject_quorum: int = Field(default=1, ge=1)
    """How many distinct rules of this category it takes to reject a write on this
    category's evidence alone. A rejection that rests on fewer (and on no other
    category) is held for review instead: one lexical rule is a reason for a person
    to look, two independent ones are corroboration."""


class SourcePolicy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    prior: float = Field(default=1.0, ge=0.0, le=1.0)
    multiplier: dict[Category, float] = Field(default_factory=dict)


class LayerPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    hidden_multiplier: float = Field(default=1.0, ge=0.0)


class ClassifierPolicy(BaseModel):
    """How the trained classifier's findings (rule ids `MG-CLS-*`) count. Its
    probability is the finding's confidence. Below `threshold` a finding is
    dropped; from there up to the category's `confident` probability it only
    corroborates: it counts at the `corroborating` severity (a small deduction
    that alone leaves a write approved, but adds to what the rules found) and, for
    secrets and personal data, it is dropped (it has no value to redact); at or
    above `confident` it counts at its rule's severity. `weight` scales every
    classifier deduction."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    rule_prefix: str = "MG-CLS-"
    threshold: float = Field(default=0.5, ge=0.0, le=1.0)
    confident: dict[Category, float] = Field(default_factory=dict)
    """Per category; above 1 means the classifier never decides alone there."""
    default_confident: float = Field(default=0.99, ge=0.0, le=1.01)
    corroborating: Severity = Severity.INFO
    weight: float = Field(default=1.0, ge=0.0)
    witness: bool = True
    """Whether a finding of the classifier counts toward a category's
    `reject_quorum`. When false the model may hold a write for a person, beside the
    rules too, but a refusal rests on the rules' own witnesses."""
    alone_from: frozenset[Source] = frozenset(Source)
    """Sources whose writes a confident finding may decide alone; from the others
    it only corroborates (the user's own "end every answer with a summary" is a
    preference, the same words in a web page are planted)."""

    def confident_at(self, category: Category, source: Source) -> float:
        if source not in self.alone_from:
            return 2.0
        return self.confident.get(category, self.default_confident)


class RoutingPolicy(BaseModel):
    """Where writes go. Web and document content is never auto-approved long-term,
    whatever `trusted_sources` says."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_bytes: int = Field(default=16384, ge=1)
    short_ttl_seconds: float = Field(default=1800, gt=0)
    short_max_entries: int = Field(default=1000, ge=1)
    """Per namespace."""
    short_max_total_entries: int = Field(default=50_000, ge=1)
    """The whole short-term pool, over every namespace."""
    short_max_total_bytes: int = Field(default=64 << 20, ge=1 << 16)
    """The whole short-term pool's estimated memory (memgate.pools.short.item_bytes)."""
    sliding_expiry: bool = False
    trusted_sources: frozenset[Source] = frozenset({Source.USER})
    long_term_sources: frozenset[Source] = frozenset({Source.USER})
    promotion_sessions: int = Field(default=3, ge=2)
    review_timeout_seconds: float = Field(default=7 * 24 * 3600, gt=0)
    rollback_wait_seconds: float = Field(default=5.0, ge=0)
    """How long a write waits for a running rollback before RollbackInProgress."""
    snapshot_every: int = Field(default=10000, ge=100)
    """Events between automatic snapshots of the projection (bounds replay time)."""
    scan_processes: int | None = Field(default=0, ge=0, le=64)
    """Scanner processes beside the event loop for writes (memgate/gateway/scanpool.py),
    started once writes are scanned concurrently (admission.START_POOL_AFTER). 0 (the
    default): every scan in the gateway's scan thread; None: one per core (none on one
    core). Opt-in until a run on an idle machine shows the pool pays for its children
    (about 90 MB and a cold scanner cache each): on the shared 2-core machine it measured
    no gain (bench_write, 16 writers, load 5-9)."""
    shared_write: tuple[str, ...] = ()
    """Namespace prefixes, slash-joined ("acme/team"), whose keyed memories any
    writer may replace; a replacement of another writer's memory there goes to
    review. Elsewhere a writer replaces only what it wrote."""

    @field_validator("shared_write")
    @classmethod
    def _prefixes(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for prefix in value:
            if not prefix or any(not label for label in prefix.split("/")):
                raise ValueError(f"{prefix!r}: a namespace prefix is labels joined by '/'")
        return value

    def shares(self, namespace: tuple[str, ...]) -> bool:
        """Whether writers may replace each other's memories in this namespace."""
        return any(
            namespace[: len(labels)] == labels
            for labels in (tuple(p.split("/")) for p in self.shared_write)
        )

    def trusted(self, source: Source) -> bool:
        return source in self.trusted_sources and source not in (Source.WEB, Source.DOCUMENT)


class ProvenancePolicy(BaseModel):
    """Routing by what a session has read (`memgate/gateway/provenance.py`). A
    session that was served untrusted content within `window_seconds` is tainted;
    a long-term write from one of the `auto_approve` sources is kept without a
    human when the scan approves it and its session is clean, and held for review
    with the reads that tainted it otherwise."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    auto_approve: frozenset[Source] = frozenset()
    """Sources whose clean-session writes the scan approves go long-term approved
    (empty: provenance only explains holds, as before). Never web or document."""
    window_seconds: float = Field(default=3600.0, gt=0, allow_inf_nan=False)
    """How far back a read taints the session (from the read to the write)."""
    taint_sources: frozenset[Source] = frozenset({Source.TOOL, Source.WEB, Source.DOCUMENT})
    """Reading an item from one of these sources taints."""
    taint_states: frozenset[MemoryState] = frozenset(
        {MemoryState.PENDING_REVIEW, MemoryState.REJECTED}
    )
    """Reading an item that is (now) in one of these states taints."""
    finding_severity: Severity = Severity.LOW
    """Reading an item with a finding at or above this severity taints."""
    scope: Literal["session", "agent"] = "session"
    """`session`: the reads of the write's session, of its call, and the reads
    without a session made by its agent. `agent`: every read by its agent id."""
    require_session: bool = True
    """A write with neither a session nor a call id has no provenance to check:
    it is held (a client cannot look clean by leaving its session out)."""
    max_reads: int = Field(default=5000, ge=1)
    """More linked reads in the window than this: held unchecked (fail closed)."""

    @model_validator(mode="after")
    def _never_web(self) -> ProvenancePolicy:
        bad = sorted(s.value for s in self.auto_approve & {Source.WEB, Source.DOCUMENT})
        if bad:
            raise ValueError(f"provenance.auto_approve may not name {', '.join(bad)}")
        return self


def load_toml_model[M: BaseModel](model: type[M], file: Path) -> M:
    """`model` validated from the TOML file `file`. Raises PolicyError naming the
    file and, for a validation error, the first field at fault."""
    try:
        data = tomllib.loads(file.read_text(encoding="utf-8"))
        return model.model_validate(data)
    except OSError as exc:
        raise PolicyError(f"{file}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"{file}: not valid TOML: {exc}") from None
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise PolicyError(f"{file}: {where}: {first['msg']}") from None


class Policy(BaseModel):
    """How findings become a trust score and a decision."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    thresholds: Thresholds
    severity: dict[Severity, float]
    categories: dict[Category, CategoryPolicy] = Field(default_factory=dict)
    sources: dict[Source, SourcePolicy] = Field(default_factory=dict)
    layers: LayerPolicy = LayerPolicy()
    classifier: ClassifierPolicy = ClassifierPolicy()
    routing: RoutingPolicy = RoutingPolicy()
    provenance: ProvenancePolicy = ProvenancePolicy()

    @model_validator(mode="after")
    def _complete(self) -> Policy:
        missing = [s.value for s in Severity if s not in self.severity]
        if missing:
            raise ValueError(f"severity values missing for: {', '.join(missing)}")
        return self

    @classmethod
    def load(cls, path: Path | None = None) -> Policy:
        """Load a policy file (default: the bundled one). Raises PolicyError."""
        return load_toml_model(cls, path or DEFAULT_POLICY)

    def category(self, category: Category) -> CategoryPolicy:
        return self.categories.get(category, CategoryPolicy())

    def source(self, source: Source) -> SourcePolicy:
        return self.sources.get(source, SourcePolicy())
