"""Memory items and log entries as plain structs (msgspec), for the paths where
validating a pydantic model per item cost more than the work itself: planning
and applying a rollback over tens of thousands of memories.

A `RawItem` holds exactly the JSON form of a `MemoryItem` (`model_dump(mode=
"json")`): times as the JSON text pydantic writes, enums as their values. It is
decoded from stored JSON without validation, so it is only built from what the
store wrote (entries under the log's MAC); anything crossing a trust boundary
goes through `MemoryItem`. The field order is `MemoryItem`'s, so `encode` gives
the same bytes as `MemoryItem.model_dump_json()` (tests/test_rollback_refs.py
checks both). The structs hold no cycles, so they are not tracked by the
garbage collector (`gc=False`): tens of thousands of them would otherwise make
every collection walk them."""

from __future__ import annotations

from typing import Any

import msgspec

__all__ = ["RawEntry", "RawItem", "RawRestores", "Version", "decode_entry", "decode_item", "encode"]


class RawItem(msgspec.Struct, kw_only=True, gc=False):
    id: str
    namespace: list[str]
    key: str | None
    content: str
    pool: str
    state: str
    trust_score: float
    decision: str
    findings: list[dict[str, Any]] = []
    source: str
    session_id: str | None = None
    agent_id: str | None = None
    call_id: str | None = None
    metadata: dict[str, Any] = {}
    created_at: str
    updated_at: str
    scanned_at: str
    expires_at: str | None = None
    rules_version: str
    fingerprint: str
    version: int = 1
    derived_from: list[str] = []
    reviewed_by: str | None = None
    reason: str | None = None


class RawRestores(msgspec.Struct, gc=False):
    """`memgate.domain.events.Restores` as stored."""

    seq: int
    mac: str
    pool: str
    state: str
    version: int


class RawEntry(msgspec.Struct, gc=False):
    """The parts of a stored event entry that carry its item."""

    memory_id: str
    at: str
    item: RawItem | None = None
    restores: RawRestores | None = None


_ITEM = msgspec.json.Decoder(RawItem)
_ENTRY = msgspec.json.Decoder(RawEntry)
_ENCODER = msgspec.json.Encoder()


def decode_item(data: bytes | str) -> RawItem:
    return _ITEM.decode(data)


def decode_entry(data: bytes | str) -> RawEntry:
    return _ENTRY.decode(data)


def encode(item: RawItem) -> bytes:
    return _ENCODER.encode(item)


class Version(msgspec.Struct, frozen=True, gc=False):
    """A memory's item at some point of the log, with the event that embeds it
    (`seq`, `mac`): what a compensating event names to restore it."""

    seq: int
    mac: str
    item: RawItem
