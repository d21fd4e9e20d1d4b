"""Events of the append-only log (past tense) and the records that chain them."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, PrivateAttr

from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.raw import RawItem, Version


class Restores(BaseModel):
    """A compensating event's item by reference: the item of event `seq` (whose
    MAC is `mac`, an event of the same memory that embeds its item), with this
    pool (as that item's: it lets SQL route the row without resolving), state
    and version, and `updated_at` the compensating event's own time. A rollback
    of 43k memories then writes 43k small entries instead of 43k whole items;
    replay, verify and `records` resolve the reference (one hop: a reference
    always names an event that embeds its item, never another reference)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int
    mac: str
    pool: PoolName
    state: MemoryState
    version: int


class Op(StrEnum):
    """What happened to a memory. Past tense: the log holds facts, not commands."""

    ADMITTED = "admitted"
    """Entered a pool as transient or approved."""
    QUEUED = "queued"
    """Entered the long-term pool as pending review."""
    REJECTED = "rejected"
    APPROVED = "approved"
    EDITED = "edited"
    PROMOTED = "promoted"
    EXPIRED = "expired"
    DEMOTED = "demoted"
    DELETED = "deleted"
    ROLLED_BACK = "rolled_back"
    GUARD_DECIDED = "guard_decided"
    """The tool-call guard decided a call (a marker: `memory_id` is `call:<id>`,
    `detail` the decision without argument values)."""


class Event(BaseModel):
    """One state change. `item` is the memory after the change (content redacted):
    the pool tables are a projection of these items."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    op: Op
    memory_id: str
    at: datetime
    actor: str
    reason: str | None = None
    state_before: MemoryState | None = None
    state_after: MemoryState | None = None
    """None only for markers that concern no single memory (a rollback)."""
    item: MemoryItem | None = None
    detail: dict[str, Any] | None = None
    """Structured context for markers, e.g. a rollback's target and scope."""
    restores: Restores | None = None
    """A compensating event: its item is the one this names (see `Restores`). The
    stored entry leaves `item` out; `records` / `history` fill it in, resolved."""
    _raw: RawItem | None = PrivateAttr(default=None)
    """A reference event on its way into the store: the resolved item as a plain
    struct (`restoring`), which the store projects without building a model."""
    _narrow: bool = PrivateAttr(default=False)
    """The item differs from the memory's current one only in state, version and
    `updated_at` (a store may update just those columns of its row)."""

    @classmethod
    def restoring(
        cls,
        *,
        at: datetime,
        actor: str,
        reason: str | None,
        state_before: MemoryState,
        origin: Version,
        item: RawItem,
        narrow: bool = False,
    ) -> Event:
        """A compensating event that puts back `origin`'s item as `item` (its
        state and version changed, updated at `at`). Built without validation:
        every value comes from the log or from the plan over it."""
        state = _STATES[item.state]
        restores = _built(
            Restores,
            {
                "seq": origin.seq,
                "mac": origin.mac,
                "pool": _POOLS[item.pool],
                "state": state,
                "version": item.version,
            },
        )
        values = {
            "op": Op.ROLLED_BACK,
            "memory_id": item.id,
            "at": at,
            "actor": actor,
            "reason": reason,
            "state_before": state_before,
            "state_after": state,
            "item": None,
            "detail": None,
            "restores": restores,
        }
        return _built(cls, values, {"_raw": item, "_narrow": narrow})

    @property
    def raw_item(self) -> RawItem | None:
        """The resolved item of a reference event built by `restoring`."""
        # NOTE: not `self._raw`: pydantic finds private attributes in `__getattr__`,
        # after a failed lookup (~1 us; the store asks twice per event).
        private = self.__pydantic_private__
        return None if private is None else private.get("_raw")

    @property
    def narrow(self) -> bool:
        """Whether only state, version and `updated_at` change (see `restoring`)."""
        private = self.__pydantic_private__
        return False if private is None else bool(private.get("_narrow"))

    def summary(self) -> dict[str, Any]:
        """Findings summary stored beside the event: score, rules version, rule ids.
        Empty for a reference (computable from the entry alone, as verify needs)."""
        if self.item is None or self.restores is not None:
            return {}
        return {
            "trust_score": self.item.trust_score,
            "rules_version": self.item.rules_version,
            "rules": sorted({f.rule_id for f in self.item.findings}),
        }


def summary_of(entry: dict[str, Any]) -> dict[str, Any]:
    """`Event.summary()` computed from an event's JSON form (as `verify` reads it)."""
    item = entry.get("item")
    if not isinstance(item, dict) or entry.get("restores") is not None:
        return {}
    return {
        "trust_score": item.get("trust_score"),
        "rules_version": item.get("rules_version"),
        "rules": sorted({f.get("rule_id") for f in item.get("findings") or ()}),
    }


_POOLS = {p.value: p for p in PoolName}
_STATES = {s.value: s for s in MemoryState}
_set = object.__setattr__


def _built[M: BaseModel](cls: type[M], values: dict[str, Any], private: Any = None) -> M:
    """A model from values that need no validation, with every field given
    (`model_construct` without its per-field default handling: it cost 3 us of
    a rollback's ~40 us per change). tests/test_rollback_refs.py holds the
    result equal to the validated model."""
    model = cls.__new__(cls)
    _set(model, "__dict__", values)
    _set(model, "__pydantic_fields_set__", set(values))
    _set(model, "__pydantic_extra__", None)
    _set(model, "__pydantic_private__", private)
    return model


class LogRecord(BaseModel):
    """An event as stored: numbered and MAC-chained to its predecessor."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int
    event: Event
    prev_mac: str
    mac: str

    @classmethod
    def built(cls, seq: int, event: Event, prev_mac: str, mac: str) -> LogRecord:
        """A record from values of the right types, without validating them."""
        return _built(cls, {"seq": seq, "event": event, "prev_mac": prev_mac, "mac": mac})


def instant_text(moment: datetime) -> str:
    """A time as fixed-width UTC text, so SQL compares and sorts instants (and the
    log MACs one spelling of each)."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat(timespec="microseconds")


def canonical_json(value: Any) -> bytes:
    """Stable bytes for MACs: sorted keys, no whitespace, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode(
        "utf-8", "surrogatepass"
    )


class Checkpoint(BaseModel):
    """An exported point of the chain. Kept outside the database, it proves the log
    still extends it, even against someone holding the MAC key."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int
    head_mac: str
    count: int
    at: datetime
    head_hash: str | None = None
    """The public hash chain at `seq` (SHA-256, no key): what the signature binds,
    so the events up to `seq` can be checked with the public key alone."""
    key_id: str | None = None
    """Which Ed25519 key signed it (16 hex of the public key's SHA-256)."""
    signature: str | None = None
    """Ed25519 over seq, head_mac, head_hash, count and at (hex)."""


class Divergence(BaseModel):
    """One place where served state disagrees with the log."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    table: str
    """items, short_items, reads or database."""
    id: str
    """The row's memory id, or a read's sequence number."""
    kind: str
    """row_mac (edited or forged row), orphan_row (no event produced it),
    stale_row (an older projection put back), missing_row (the log has it, the
    table does not), read_chain (a read edited, inserted or deleted), reads_head
    (the newest reads cut off), damaged (a page of the file does not read)."""
    detail: str


MAX_DIVERGENCES = 100
"""A verify result lists at most this many; `divergence_count` has them all."""


class VerifyResult(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    ok: bool
    checked: int
    last_seq: int
    first_bad_seq: int | None = None
    reason: str | None = None
    rows_checked: int = 0
    """Projection rows (items, short_items) checked against the log."""
    reads_checked: int = 0
    divergences: tuple[Divergence, ...] = ()
    divergence_count: int = 0
    signature_ok: bool | None = None
    """With a signed checkpoint: whether its Ed25519 signature holds."""
    scope: str | None = None
    """What was checked, when it was less than everything (public-key mode)."""
