"""One writing process per log: a second process opening the same database is
refused with a clear error (two writers would fork the MAC chain)."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import textwrap
from collections.abc import Iterator
from pathlib import Path

import pytest

from memgate.errors import StorageError
from memgate.store.sqlite import SqliteStore

KEY = b"k" * 32

HOLDER = textwrap.dedent(
    """
    import asyncio, sys
    from pathlib import Path
    from memgate.store.sqlite import SqliteStore

    async def main():
        store = await SqliteStore.open(Path(sys.argv[1]), b"k" * 32)
        print("open", flush=True)
        sys.stdin.readline()
        await store.close()

    asyncio.run(main())
    """
)


@contextlib.contextmanager
def holder(db: Path) -> Iterator[subprocess.Popen[str]]:
    """A process that holds the store open until it reads a line."""
    with subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as process:
        assert process.stdout is not None and process.stdout.readline().strip() == "open"
        yield process


async def reopen(db: Path) -> int:
    store = await SqliteStore.open(db, KEY)
    try:
        return (await store.checkpoint()).seq
    finally:
        await store.close()


def test_a_second_process_cannot_open_the_log_for_writing(tmp_path: Path) -> None:
    db = tmp_path / "db" / "memgate.sqlite3"
    with holder(db) as process:
        with pytest.raises(StorageError, match="another process"):
            asyncio.run(SqliteStore.open(db, KEY))
        assert process.stdin is not None
        process.stdin.write("\n")
        process.stdin.flush()
        assert process.wait(timeout=30) == 0
    assert asyncio.run(reopen(db)) == 0  # released when the holder closed


def test_the_lock_is_released_when_the_holder_dies(tmp_path: Path) -> None:
    db = tmp_path / "db" / "memgate.sqlite3"
    with holder(db) as process:
        process.kill()
        process.wait(timeout=30)
    assert asyncio.run(reopen(db)) == 0
