"""The Lease port on every backend: the in-memory twin, a file lock (one host) and
a PostgreSQL session advisory lock; and for the two that outlive a process, a
holder SIGKILLed in a subprocess frees the lease for the others."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

from memgate.domain.ports import Lease
from memgate.lease import FileLease, LeaseBoard, open_lease
from memgate.lease.postgres import PostgresLease, lock_key
from tests.contracts import run
from tests.contracts.lease_contract import LeaseContract
from tests.pg_fixtures import PgServer, pg_server, postgres  # noqa: F401 - fixture

HOLD = """
import asyncio, sys
from memgate.lease import open_lease

async def main() -> None:
    lease = open_lease(sys.argv[1], name=sys.argv[2])
    assert await lease.acquire()
    print("holding", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


def hold_in_subprocess(where: str, name: str) -> subprocess.Popen[str]:
    """A process that takes the lease, says so, and holds it until killed."""
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD, where, name],
        stdout=subprocess.PIPE,
        text=True,
        cwd=Path(__file__).resolve().parents[1],
    )
    assert child.stdout is not None
    line = child.stdout.readline()
    assert line.strip() == "holding", line
    return child


def kill(child: subprocess.Popen[str]) -> None:
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=10)
    if child.stdout is not None:
        child.stdout.close()


class TestMemoryLease(LeaseContract):
    async def open_leases(self, n: int) -> list[Lease]:
        board = LeaseBoard()
        return [board.lease("projector") for _ in range(n)]


class TestFileLease(LeaseContract):
    @pytest.fixture(autouse=True)
    def _where(self, tmp_path: Path) -> None:
        self.path = tmp_path / "projector.lease"

    async def open_leases(self, n: int) -> list[Lease]:
        return [FileLease(self.path) for _ in range(n)]


@pytest.mark.usefixtures("postgres")
class TestPostgresLease(LeaseContract):
    async def open_leases(self, n: int) -> list[Lease]:
        name = f"memgate:test:{uuid.uuid4().hex}"
        return [PostgresLease(pg_server().url, name) for _ in range(n)]


def test_a_file_lease_holder_killed_frees_it(tmp_path: Path) -> None:
    path = tmp_path / "projector.lease"
    child = hold_in_subprocess(str(path), "projector")
    try:
        other = FileLease(path)
        assert not run(other.acquire())
    finally:
        kill(child)

    async def after() -> None:
        other = FileLease(path)
        try:
            assert await other.acquire()
        finally:
            await other.close()

    run(after())


def test_a_postgres_lease_holder_killed_frees_it(postgres: PgServer) -> None:  # noqa: F811
    name = f"memgate:test:{uuid.uuid4().hex}"
    child = hold_in_subprocess(postgres.url, name)

    async def try_once() -> bool:
        lease = PostgresLease(postgres.url, name)
        try:
            return await lease.acquire()
        finally:
            await lease.close()

    try:
        assert not run(try_once())
        held = postgres.execute(
            postgres.url,
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
            " AND ((classid::bigint << 32) | objid::bigint) = %s",
            (lock_key(name),),
        )
        assert held == [(1,)]
    finally:
        kill(child)
    # The server sees the connection close as the process dies and frees the
    # lock when that backend exits: soon, though not before kill() returns.
    deadline = time.monotonic() + 10
    while not run(try_once()):
        assert time.monotonic() < deadline, "the killed holder's lock was never freed"
        time.sleep(0.05)


def test_a_lost_connection_is_a_lost_lease(postgres: PgServer) -> None:  # noqa: F811
    """An administrator (or a network) ends the holder's session: `held()` says so,
    and another replica can take the lease."""
    name = f"memgate:test:{uuid.uuid4().hex}"

    async def go() -> None:
        holder, other = PostgresLease(postgres.url, name), PostgresLease(postgres.url, name)
        try:
            assert await holder.acquire()
            assert not await other.acquire()
            postgres.execute(
                postgres.url,
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'memgate-lease' AND pid IN (SELECT pid FROM"
                " pg_locks WHERE locktype = 'advisory'"
                " AND ((classid::bigint << 32) | objid::bigint) = %s)",
                (lock_key(name),),
            )
            assert not await holder.held()
            assert await other.acquire()
        finally:
            await holder.close()
            await other.close()

    run(go())


def test_open_lease_picks_the_backend(tmp_path: Path) -> None:
    assert isinstance(open_lease("postgresql://127.0.0.1/x", name="n"), PostgresLease)
    assert isinstance(open_lease(tmp_path / "l", name="n"), FileLease)
