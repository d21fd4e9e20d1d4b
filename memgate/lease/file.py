"""The Lease port on one host: an exclusive `flock` on a file. The kernel frees it
when the holder's process dies (however it dies), so a SIGKILLed projector never
leaves it held. For replicas on one machine; across machines, `PostgresLease`."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
from pathlib import Path
from typing import IO


class FileLease:
    """Held while this instance has the lock on `path` (created if missing)."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._handle: IO[bytes] | None = None

    def _try(self) -> bool:
        if self._handle is not None:
            return True
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle = self.path.open("a+b")
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        handle.truncate(0)
        handle.write(f"{os.getpid()}\n".encode())
        handle.flush()
        self._handle = handle
        return True

    async def acquire(self) -> bool:
        return await asyncio.to_thread(self._try)

    async def held(self) -> bool:
        # A flock is the process's until it lets go or dies: nothing to lose meanwhile.
        return self._handle is not None

    async def release(self) -> None:
        handle, self._handle = self._handle, None
        if handle is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
            handle.close()

    async def close(self) -> None:
        await self.release()
