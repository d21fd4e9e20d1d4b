"""Incremental verify on PostgreSQL (`PostgresStore.verify(since=checkpoint)`), as
the SQLite store has it: only what came after a checkpoint is checked, and
tampering after it, with the checkpoint's own event, or with a row a later
event touched is still named. Real PostgreSQL; rows are tampered with as the
database's owner would (triggers off)."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import psycopg
import pytest

from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.events import Checkpoint, VerifyResult
from memgate.domain.memory import MemoryWrite
from memgate.gateway import Gateway
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - fixture


class Log:
    def __init__(self, server: PgServer, tmp_path: Path) -> None:
        self.url = server.fresh_url()
        self.tmp = tmp_path

    async def build(self) -> tuple[Checkpoint, list[str]]:
        gw = await self.open()
        ids = []
        try:
            for n in range(6):
                got = await gw.write(self._w(f"I prefer tea number {n}."))
                ids.append(got.id)
            point = await gw.store.export_checkpoint()  # type: ignore[attr-defined]
            for n in range(4):
                got = await gw.write(self._w(f"I prefer coffee number {n}."))
                ids.append(got.id)
        finally:
            await gw.close()
        return point, ids

    @staticmethod
    def _w(text: str) -> MemoryWrite:
        return MemoryWrite(content=text, namespace=("acme", "u1"), source=Source.USER)

    async def open(self) -> Gateway:
        return await open_gateway(self.tmp / "d", store_url=self.url, graph=None)

    def since(self, point: Checkpoint, checkpoint: Checkpoint | None = None) -> VerifyResult:
        async def go() -> VerifyResult:
            gw = await self.open()
            try:
                return await gw.store.verify(checkpoint, since=point)  # type: ignore[call-arg]
            finally:
                await gw.close()

        return asyncio.run(go())

    def owner(self, statement: str, *params: object) -> None:
        """Run a statement with the log's triggers off (as the table owner could)."""
        with psycopg.connect(self.url, autocommit=True) as conn, conn.transaction():
            conn.execute("SET LOCAL session_replication_role = replica")
            conn.execute(statement.encode(), params)  # type: ignore[arg-type]


@pytest.fixture
def log(
    postgres: PgServer,  # noqa: F811 - fixture
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> tuple[Log, Checkpoint, list[str]]:
    monkeypatch.setenv("MEMGATE_LOG_KEY", secrets.token_hex(32))
    monkeypatch.setenv("MEMGATE_FINGERPRINT_KEY", secrets.token_hex(32))
    found = Log(postgres, tmp_path)
    point, ids = asyncio.run(found.build())
    return found, point, ids


def test_only_what_came_after_the_checkpoint_is_checked(
    log: tuple[Log, Checkpoint, list[str]],
) -> None:
    found, point, _ = log
    result = found.since(point)
    assert result.ok, result.reason
    head = asyncio.run(_head(found))
    assert result.checked == head - point.seq > 0
    assert result.scope and "incremental" in result.scope
    assert 0 < result.rows_checked <= 4
    assert result.reads_checked == 0
    full = asyncio.run(_full(found))
    assert full.ok and full.checked == head


async def _head(found: Log) -> int:
    gw = await found.open()
    try:
        return (await gw.store.checkpoint()).seq
    finally:
        await gw.close()


async def _full(found: Log) -> VerifyResult:
    gw = await found.open()
    try:
        return await gw.store.verify()
    finally:
        await gw.close()


def test_a_changed_event_after_the_checkpoint_is_named(
    log: tuple[Log, Checkpoint, list[str]],
) -> None:
    found, point, _ = log
    bad = point.seq + 2
    found.owner("UPDATE events SET mac = repeat('0', 64) WHERE seq = %s", bad)
    result = found.since(point)
    assert not result.ok
    assert result.first_bad_seq is not None and result.first_bad_seq in (bad, bad + 1)


def test_the_checkpoints_own_event_rewritten_or_gone_is_named(
    log: tuple[Log, Checkpoint, list[str]],
) -> None:
    found, point, _ = log
    found.owner("UPDATE events SET mac = repeat('1', 64) WHERE seq = %s", point.seq)
    result = found.since(point)
    assert not result.ok and result.first_bad_seq == point.seq
    assert "rewritten" in (result.reason or "")
    found.owner("DELETE FROM events WHERE seq >= %s", point.seq)
    result = found.since(point)
    assert not result.ok and "truncated" in (result.reason or "")


def test_a_row_a_later_event_touched_is_named(
    log: tuple[Log, Checkpoint, list[str]],
) -> None:
    found, point, ids = log
    later = ids[-1]
    found.owner("UPDATE items SET content = 'I prefer poison.' WHERE id = %s", later)
    result = found.since(point)
    assert not result.ok
    assert any(d.id == later for d in result.divergences), result.divergences


def test_a_forged_signature_is_refused(log: tuple[Log, Checkpoint, list[str]]) -> None:
    found, point, _ = log
    assert point.signature
    forged = point.model_copy(update={"seq": point.seq - 1})
    result = found.since(forged)
    assert not result.ok and result.signature_ok is False
