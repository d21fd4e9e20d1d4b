"""Rollback requests and plans."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict, Field

from memgate.domain.events import Event
from memgate.domain.graph import ImpactRow, InvestigationStatus, ReaderRow
from memgate.domain.memory import MemoryState, PoolName
from memgate.domain.raw import RawItem, Version
from memgate.domain.types import Source


class RollbackScope(BaseModel):
    """Which memories a rollback touches. Empty: the whole store. Fields combine (AND)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    namespace_prefix: tuple[str, ...] = ()
    source: Source | None = None
    session_id: str | None = None
    memory_id: str | None = None
    """One memory and everything derived from it: promotions, transitively, and,
    with the provenance graph, what sessions wrote after reading it (taint)."""


class Action(StrEnum):
    REMOVED = "removed"
    """Created after the target point: tombstoned."""
    RESTORED = "restored"
    """Served at the target point, not served now: served again."""
    REVERTED = "reverted"
    """Returned to an earlier content or state."""


class Change(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    memory_id: str
    namespace: tuple[str, ...]
    pool: PoolName
    action: Action
    state_before: MemoryState
    state_after: MemoryState

    @classmethod
    def built(
        cls,
        *,
        memory_id: str,
        namespace: tuple[str, ...],
        pool: PoolName,
        action: Action,
        state_before: MemoryState,
        state_after: MemoryState,
    ) -> Change:
        """A change from values of the right types, without validating them (a
        rollback plans one per changed memory; `model_construct` cost 3 us each)."""
        model = cls.__new__(cls)
        values = {
            "memory_id": memory_id,
            "namespace": namespace,
            "pool": pool,
            "action": action,
            "state_before": state_before,
            "state_after": state_after,
        }
        object.__setattr__(model, "__dict__", values)
        object.__setattr__(model, "__pydantic_fields_set__", set(values))
        object.__setattr__(model, "__pydantic_extra__", None)
        object.__setattr__(model, "__pydantic_private__", None)
        return model


class RollbackPlan(BaseModel):
    """The diff between now and the target point, per memory, with counts per
    namespace; `applied` tells whether compensating events were appended."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    to_seq: int
    head_seq: int
    scope: RollbackScope
    changes: tuple[Change, ...]
    counts: dict[str, dict[str, int]] = Field(default_factory=dict)
    """namespace ('a/b') -> action -> count."""
    applied: bool = False
    marker_seq: int | None = None
    readers: tuple[ReaderRow, ...] = ()
    """Dry run with a graph: who read the memories the rollback changes."""
    derived: tuple[ImpactRow, ...] = ()
    """Dry run with a graph: memories their content flowed into (blast radius)."""
    graph_status: InvestigationStatus | None = None
    """None without a graph; GRAPH_UNAVAILABLE when it could not answer (then
    `readers` and `derived` prove nothing)."""


@dataclass(frozen=True, slots=True)
class Planned:
    """One change: what the plan reports, the event whose item it restores, and
    that item as it will be after the compensating event."""

    change: Change
    origin: Version
    item: RawItem
    narrow: bool
    """`item` is the current item apart from state, version and `updated_at`."""


@dataclass(frozen=True, slots=True)
class Compensation:
    """An applied rollback on its way into the log: one compensating event per
    planned change (a reference to `origin`, see `memgate.domain.events.Restores`),
    all at `at` by `actor` for `reason`, then `marker`; one transaction."""

    at: datetime
    actor: str
    reason: str
    planned: Sequence[Planned]
    marker: Event

    def events(self) -> list[Event]:
        """The events a store appends (the generic path: one model per change)."""
        out = [
            Event.restoring(
                at=self.at,
                actor=self.actor,
                reason=self.reason,
                state_before=p.change.state_before,
                origin=p.origin,
                item=p.item,
                narrow=p.narrow,
            )
            for p in self.planned
        ]
        out.append(self.marker)
        return out


@runtime_checkable
class AppendsCompensation(Protocol):
    """A store that appends a rollback's events without building a model per change
    (43k changes: the models and their generic sealing were most of the apply).
    The stored bytes are exactly those of appending `Compensation.events()`."""

    async def append_compensation(self, batch: Compensation) -> int:
        """Append atomically; returns the marker's sequence number."""
        ...


@runtime_checkable
class PairsVersions(Protocol):
    """A store that reads a rollback's two sides in one pass (an undo's current
    versions name the events its target versions are: each decoded once)."""

    async def changed_versions_pair(
        self, since_seq: int, at_seq: int
    ) -> tuple[dict[str, Version], dict[str, Version]]:
        """`(changed_versions(since_seq, since_seq), changed_versions(since_seq, at_seq))`."""
        ...
