"""Replay: the projection (each memory's latest item) at any sequence number,
from raw log entries, and MAC-protected compressed snapshots of it."""

from __future__ import annotations

import hashlib
import hmac
import json
import zlib
from collections.abc import Iterable
from typing import Any

from memgate.domain.events import canonical_json

State = dict[str, dict[str, Any]]
"""memory id -> the item (as JSON) after the last event that carried one."""


def apply_entries(state: State, entries: Iterable[bytes]) -> State:
    """Fold raw canonical-JSON entries, in sequence order, into `state`."""
    loads = json.loads
    for raw in entries:
        entry = loads(raw)
        item = entry.get("item")
        if item is not None:
            state[entry["memory_id"]] = item
    return state


def snapshot_body(state: State) -> bytes:
    return zlib.compress(canonical_json(state), 6)


def snapshot_mac(key: bytes, seq: int, head_mac: str, body: bytes) -> str:
    message = f"snapshot|{seq}|{head_mac}|".encode() + body
    return hmac.new(key, message, hashlib.sha256).hexdigest()


def load_snapshot(key: bytes, seq: int, head_mac: str, body: bytes, mac: str) -> State | None:
    """The state in a snapshot, or None if its MAC does not hold (then replay
    starts from an earlier point)."""
    if not hmac.compare_digest(snapshot_mac(key, seq, head_mac, body), mac):
        return None
    try:
        data = json.loads(zlib.decompress(body))
    except (zlib.error, ValueError):
        return None
    return data if isinstance(data, dict) else None
