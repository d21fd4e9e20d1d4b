"""One process at a time on a data directory.

The event log has one writer: its MAC chain is extended by the process that
holds the store open. Two processes appending to the same SQLite file would
race for the next sequence number, so `memgate serve` and every local command
take an exclusive advisory lock (`data_dir/.lock`, fcntl) for as long as they
hold the gateway open. A command that finds a server there is told to use
`--url` instead.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Iterator
from pathlib import Path

from memgate.errors import StorageError

LOCK_FILE = ".lock"
POLL_SECONDS = 0.1

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no advisory locks, no guard
    fcntl = None  # type: ignore[assignment]


class DataDirBusy(StorageError):
    """Another memgate process holds the data directory."""

    def __init__(self, data_dir: Path, holder: dict[str, object]) -> None:
        what = holder.get("what") or "another memgate process"
        url = holder.get("url")
        hint = f"; use --url {url}" if url else ""
        super().__init__(f"{data_dir} is in use by {what} (pid {holder.get('pid', '?')}){hint}")
        self.holder = holder


def _holder(path: Path) -> dict[str, object]:
    try:
        value = json.loads(path.read_text(encoding="utf-8") or "{}")
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


@contextlib.contextmanager
def data_dir_lock(
    data_dir: Path, *, what: str, url: str | None = None, wait: float = 0.0
) -> Iterator[None]:
    """Hold the data directory for this process; raise DataDirBusy if another
    process holds it after waiting `wait` seconds."""
    if fcntl is None:  # pragma: no cover
        yield
        return
    data_dir.mkdir(parents=True, exist_ok=True)
    path = data_dir / LOCK_FILE
    handle = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the whole block
    try:
        deadline = time.monotonic() + wait
        while True:
            try:
                fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                holder = _holder(path)
                # NOTE: a server holds on for good: say so at once rather than wait.
                if holder.get("url") or time.monotonic() >= deadline:
                    raise DataDirBusy(data_dir, holder) from None
                time.sleep(POLL_SECONDS)
        handle.seek(0)
        handle.truncate()
        handle.write(json.dumps({"pid": os.getpid(), "what": what, "url": url}))
        handle.flush()
        yield
    finally:
        handle.close()  # closing the descriptor releases the lock
