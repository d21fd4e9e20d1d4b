"""Write scans on every core: scanner processes beside the event loop.

The scanner is pure Python and holds the GIL the whole time it runs, so a second
scan thread would only take turns with the first and with the event loop. A
write's scan therefore goes to one of a few child processes, each with its own
inspector built from the gateway's (`Inspector.recipe`), while the loop thread
routes, seals and commits the writes already scanned.

The children are plain `python -m memgate.gateway.scanchild` processes speaking
length-prefixed pickle frames over their stdin / stdout, not a
`multiprocessing` pool: its `spawn` and `forkserver` children import the
parent's `__main__` again (an application script without a main guard would
run twice), and `fork` of a process with threads (aiosqlite, the checkpointer)
can deadlock. Pickle is used only between the gateway and the children it
started.

What a child's failure costs: nothing but time. A child that dies (killed, out
of memory, a crash in an extension) fails the scan it held with `ScanLost`;
admission then scans that write in the gateway's scan thread, as it does
without a pool, and the child is replaced (a few times: `RESTARTS`). Nothing
is stored before its scan returns, so a write acknowledged is one whose scan
finished, wherever it ran. A gateway that dies takes its children with it
(Linux: the parent-death signal; elsewhere they end at their closed input).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle  # frames only between the gateway and its own children
import struct
import sys
from collections import deque
from typing import Any

from memgate.domain import ScanReport, Source
from memgate.trust.inspector import KeyedVerdict, Recipe

log = logging.getLogger(__name__)

RESTARTS = 3
"""Children replaced after a death, over the pool's life; then it runs with fewer."""
FRAME = struct.Struct(">I")
"""A frame: its length (4 bytes, big-endian), then that many bytes of pickle."""
READY = b"ready"
"""A child's first frame, once its scanner is built."""


class ScanLost(Exception):
    """The child holding a scan died before it answered (scan it elsewhere)."""


def default_processes(configured: int | None) -> int:
    """How many scanner processes a policy's `scan_processes` means here."""
    if configured is not None:
        return configured
    cores = os.cpu_count() or 1
    return 0 if cores < 2 else min(cores, 8)


class _Child:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        if process.stdin is None or process.stdout is None:
            raise OSError("the scanner process has no pipes")
        self.stdin = process.stdin
        self.stdout = process.stdout

    async def send(self, value: object) -> None:
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        self.stdin.write(FRAME.pack(len(data)) + data)
        await self.stdin.drain()

    async def receive(self) -> Any:
        (size,) = FRAME.unpack(await self.stdout.readexactly(FRAME.size))
        return pickle.loads(await self.stdout.readexactly(size))  # noqa: S301 - our child

    def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()


class ScanPool:
    """`processes` scanner children for one inspector. Start with `start()`; until
    a child is ready `inspect` returns None (scan in the thread meanwhile)."""

    def __init__(self, recipe: Recipe, processes: int) -> None:
        self.recipe = recipe
        self._size = processes
        self._idle: list[_Child] = []
        self._waiting: deque[asyncio.Future[_Child]] = deque()
        self._alive = 0
        self._restarts = RESTARTS
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    @property
    def ready(self) -> int:
        """Children that can take a scan (idle or busy)."""
        return self._alive

    def start(self) -> None:
        """Start the children in the background (each builds its scanner first)."""
        for _ in range(self._size):
            self._spawn()

    def _spawn(self) -> None:
        task = asyncio.get_running_loop().create_task(self._start_one())
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _start_one(self) -> None:
        env = dict(os.environ)
        # The child imports memgate from wherever this process does.
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        child: _Child | None = None
        try:
            process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "memgate.gateway.scanchild",
                str(os.getpid()),
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                env=env,
            )
            child = _Child(process)
            await child.send(self.recipe)
            if await child.receive() != READY:
                raise ScanLost("the scanner process did not start")
        except (OSError, EOFError, asyncio.IncompleteReadError, ScanLost, pickle.PickleError):
            log.warning("a scanner process could not start; scans stay in the scan thread")
            if child is not None:
                child.kill()
            return
        if self._closed:
            await _stop(child)
            return
        self._alive += 1
        self._release(child)

    def _release(self, child: _Child) -> None:
        if self._closed:  # it held a scan while the pool closed: stop it now
            task = asyncio.get_running_loop().create_task(_stop(child))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
            return
        while self._waiting:
            waiter = self._waiting.popleft()
            if not waiter.done():
                waiter.set_result(child)
                return
        self._idle.append(child)

    async def inspect(
        self, key: str | None, content: str, metadata: dict[str, Any], source: Source
    ) -> KeyedVerdict | None:
        """`Inspector.inspect_keyed` in a child, or None when no child is ready.
        Raises ScanLost when the child died with the scan."""
        if self._closed or not self._alive:
            return None
        if self._idle:
            child = self._idle.pop()
        else:
            waiter: asyncio.Future[_Child] = asyncio.get_running_loop().create_future()
            self._waiting.append(waiter)
            child = await waiter
        try:
            await child.send((key, content, metadata, source))
            ok, value = await child.receive()
        except (OSError, EOFError, asyncio.IncompleteReadError, pickle.PickleError):
            self._lost(child)
            raise ScanLost("the scanner process died") from None
        except BaseException:
            # Cancelled mid-frame: the child's stream is out of step; replace it.
            self._lost(child)
            raise
        self._release(child)
        if not ok:
            raise RuntimeError(f"scan failed in the scanner process: {value}")
        rules, report, metadata = value
        return rules, ScanReport.model_validate_json(report), metadata

    def _lost(self, child: _Child) -> None:
        child.kill()
        self._alive -= 1
        log.warning("a scanner process died; its scan runs in the scan thread")
        if self._restarts > 0 and not self._closed:
            self._restarts -= 1
            self._spawn()
        elif not self._alive:
            for waiter in self._waiting:
                if not waiter.done():
                    waiter.set_exception(ScanLost("no scanner process left"))
            self._waiting.clear()

    async def close(self) -> None:
        """Stop every child (each ends once its input closes; one holding a scan,
        once it answered)."""
        self._closed = True
        for task in list(self._tasks):
            task.cancel()
        for waiter in self._waiting:
            if not waiter.done():
                waiter.set_exception(ScanLost("the scan pool is closed"))
        idle, self._idle = self._idle, []
        self._alive = 0
        await asyncio.gather(*(_stop(c) for c in idle))


async def _stop(child: _Child) -> None:
    with contextlib.suppress(OSError):
        child.stdin.close()
    try:
        await asyncio.wait_for(child.process.wait(), 5)
    except TimeoutError:
        child.kill()
        await child.process.wait()
