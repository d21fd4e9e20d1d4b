"""One writing process per log: a second process opening the same database is
refused with a clear error (two writers would fork the MAC chain)."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import textwrap
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


def test_a_second_process_cannot_open_the_log_for_writing(tmp_path: Path) -> None:
    db = tmp_path / "db" / "memgate.sqlite3"
    with subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        with pytest.raises(StorageError, match="another process"):
            asyncio.run(SqliteStore.open(db, KEY))
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.flush()
        assert holder.wait(timeout=30) == 0

    async def reopen() -> int:
        store = await SqliteStore.open(db, KEY)
        try:
            return (await store.checkpoint()).seq
        finally:
            await store.close()

    assert asyncio.run(reopen()) == 0  # released when the holder closed


def test_the_lock_is_released_when_the_holder_dies(tmp_path: Path) -> None:
    db = tmp_path / "db" / "memgate.sqlite3"
    with subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(db)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as holder:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "open"
        holder.kill()
        holder.wait(timeout=30)

    async def reopen() -> None:
        store = await SqliteStore.open(db, KEY)
        await store.close()

    asyncio.run(reopen())
