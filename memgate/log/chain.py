"""The MAC chain: MAC_n = HMAC-SHA256(key, MAC_{n-1} ‖ n ‖ canonical JSON of entry n)."""

from __future__ import annotations

import hashlib
import hmac
import json
from collections.abc import Iterable
from typing import Any

from memgate.domain.events import (
    Checkpoint,
    Event,
    LogRecord,
    VerifyResult,
    canonical_json,
    summary_of,
)

GENESIS = "0" * 64


def entry_json(event: Event) -> bytes:
    """The bytes a MAC covers for one event."""
    return canonical_json(event.model_dump(mode="json"))


def mac(key: bytes, prev_mac: str, seq: int, entry: bytes) -> str:
    message = prev_mac.encode("ascii") + b"|" + str(seq).encode("ascii") + b"|" + entry
    return hmac.new(key, message, hashlib.sha256).hexdigest()


class Chain:
    """Numbers and MACs events in order. Not thread-safe: one writer at a time."""

    def __init__(self, key: bytes, last_seq: int = 0, head: str = GENESIS) -> None:
        if len(key) < 16:
            raise ValueError("the log key must be at least 16 bytes")
        self._key = key
        self.last_seq = last_seq
        self.head = head

    def seal(self, event: Event) -> tuple[LogRecord, bytes]:
        """The next record, and the canonical bytes that were MACed."""
        entry = entry_json(event)
        seq = self.last_seq + 1
        record = LogRecord(
            seq=seq, event=event, prev_mac=self.head, mac=mac(self._key, self.head, seq, entry)
        )
        self.last_seq, self.head = seq, record.mac
        return record, entry

    def reset(self, last_seq: int, head: str) -> None:
        """After a failed transaction: back to the last committed record."""
        self.last_seq, self.head = last_seq, head


def verify_rows(
    key: bytes,
    rows: Iterable[tuple[int, bytes, str, str, dict[str, Any]]],
    checkpoint: Checkpoint | None = None,
) -> VerifyResult:
    """Walk stored rows `(seq, entry bytes, prev_mac, mac, columns)` in seq order.

    `columns` are the denormalized columns stored beside the entry; each must agree
    with the entry, so an edit to any column is caught. Returns the first broken
    sequence number with a reason; with a checkpoint, also checks that the log
    still contains that exact point.
    """
    prev = GENESIS
    expected = 1
    checked = 0
    last = 0
    seen_checkpoint = checkpoint is None or checkpoint.seq == 0
    for seq, entry, prev_mac, stored_mac, columns in rows:
        if seq != expected:
            reason = "a record is missing" if seq > expected else "records are out of order"
            return _bad(checked, last, expected if seq > expected else seq, reason)
        if prev_mac != prev:
            return _bad(checked, last, seq, "previous MAC does not match the chain")
        if not hmac.compare_digest(mac(key, prev, seq, entry), stored_mac):
            return _bad(checked, last, seq, "MAC does not match the entry (tampered or wrong key)")
        mismatch = _column_mismatch(entry, columns)
        if mismatch:
            return _bad(checked, last, seq, f"column {mismatch} does not match the MACed entry")
        if checkpoint is not None and seq == checkpoint.seq:
            if stored_mac != checkpoint.head_mac:
                return _bad(checked, last, seq, "log diverges from the checkpoint (rewritten)")
            seen_checkpoint = True
        prev = stored_mac
        checked += 1
        last = seq
        expected += 1
    if not seen_checkpoint and checkpoint is not None:
        return _bad(
            checked,
            last,
            last + 1,
            f"log is shorter than the checkpoint at {checkpoint.seq} (truncated)",
        )
    return VerifyResult(ok=True, checked=checked, last_seq=last)


def _column_mismatch(entry: bytes, columns: dict[str, Any]) -> str | None:
    if not columns:
        return None
    data = json.loads(entry)
    for name, value in columns.items():
        expected = summary_of(data) if name == "summary" else data.get(name)
        if expected != value:
            return name
    return None


def _bad(checked: int, last: int, seq: int, reason: str) -> VerifyResult:
    return VerifyResult(ok=False, checked=checked, last_seq=last, first_bad_seq=seq, reason=reason)
