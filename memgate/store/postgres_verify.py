"""Incremental verify on the PostgreSQL store: `PostgresStore.verify(since=cp)`,
the same check as the SQLite store's `verify_file(since=...)`, in time
proportional to what came after a checkpoint an earlier verify vouched for.

The log must still hold the checkpoint's event with its MAC (else it was
truncated or rewritten); the events after it are verified from there; and the
projection rows of every memory those events touch (or whose row claims a later
event, or none) are checked against that memory's whole history. Rows untouched
since, and the reads, were checked by the verify that vouched for the
checkpoint: the result's `scope` says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from memgate.domain.events import Checkpoint, VerifyResult
from memgate.log.chain import GENESIS, verify_rows
from memgate.log.integrity import RowSeal, signature_ok
from memgate.log.references import with_reference_fault
from memgate.store.postgres import _event_rows, _from_db, _Snapshot, _stream, reference_fault_after
from memgate.store.served import check_served, served_verdict

__all__ = ["verify_since"]

SCOPE = (
    "incremental: events after {seq} and the projection rows they touch"
    " (older rows and the reads: the verify that vouched for the checkpoint)"
)


class _Since(_Snapshot):
    """What changed after event `after_seq`, as `served.check_served` reads it."""

    def __init__(self, conn: psycopg.Connection[Any], after_seq: int) -> None:
        super().__init__(conn)
        touched = {
            str(r[0])
            for r in conn.execute(
                "SELECT DISTINCT memory_id FROM events WHERE seq > %s", (after_seq,)
            )
        }
        for table in ("items", "short_items"):
            sql = f"SELECT id FROM {table} WHERE coalesce(event_seq, 0) > %s OR event_seq IS NULL"  # noqa: S608 - constants
            touched.update(str(r[0]) for r in conn.execute(sql, (after_seq,)))
        self.touched = sorted(touched)

    def events(self) -> Iterator[Any]:
        return _stream(
            self._conn,
            "SELECT seq, entry, mac FROM events WHERE memory_id = ANY(%s) ORDER BY seq",
            (self.touched,),
        )

    def rows(self, table: str, select: str) -> Iterator[Any]:
        sql = f"SELECT {select} FROM {table} WHERE id = ANY(%s)"  # noqa: S608 - constants
        rows = _stream(self._conn, sql, (self.touched,))
        if table != "items":
            return iter(rows)
        return (_from_db(r) for r in rows)

    def reads(self) -> Iterator[Any]:
        return iter(())

    def reads_head(self) -> Any:
        return None


def verify_since(
    conn: psycopg.Connection[Any],
    key: bytes,
    since: Checkpoint,
    checkpoint: Checkpoint | None,
    public: Ed25519PublicKey,
) -> VerifyResult:
    """`PostgresStore.verify(checkpoint, since=since)`, in the caller's snapshot."""
    scope = SCOPE.format(seq=since.seq)

    def bad(seq: int, reason: str, signed: bool | None = None) -> VerifyResult:
        return VerifyResult(
            ok=False, checked=0, last_seq=since.seq, first_bad_seq=seq, reason=reason,
            signature_ok=signed, scope=scope,
        )  # fmt: skip

    signed = None
    if since.signature:
        signed = signature_ok(since, public)
        if not signed:
            return bad(
                since.seq,
                "the checkpoint's signature does not hold for this store's public key",
                False,
            )
    start_prev = GENESIS
    if since.seq:
        row = conn.execute("SELECT mac FROM events WHERE seq = %s", (since.seq,)).fetchone()
        if row is None:
            return bad(
                since.seq, f"log is shorter than the checkpoint at {since.seq} (truncated)", signed
            )
        if row[0] != since.head_mac:
            return bad(since.seq, "log diverges from the checkpoint (rewritten)", signed)
        start_prev = str(row[0])
    later = checkpoint if checkpoint is not None and checkpoint.seq > since.seq else None
    chain = verify_rows(
        key,
        _event_rows(conn, since.seq + 1),
        later,
        start_seq=since.seq + 1,
        start_prev=start_prev,
    )
    if checkpoint is not None and checkpoint.seq <= since.seq and checkpoint.seq:
        row = conn.execute("SELECT mac FROM events WHERE seq = %s", (checkpoint.seq,)).fetchone()
        if row is None or row[0] != checkpoint.head_mac:
            return bad(checkpoint.seq, "log diverges from the checkpoint (rewritten)", signed)
    chain = with_reference_fault(chain, reference_fault_after(conn, since.seq))
    served = check_served(_Since(conn, since.seq), RowSeal(key))
    if checkpoint is not None and checkpoint.signature:
        signed = signature_ok(checkpoint, public) and signed is not False
    verdict = served_verdict(chain, served, signed)
    return verdict.model_copy(update={"scope": scope})
