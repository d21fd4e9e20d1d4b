"""A real webhook receiver for the notification tests: an HTTP server on a
loopback port in a thread, recording every request and answering with the
status codes a test scripts (then 200)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Receiver:
    port: int = 0
    script: list[int | tuple[int, dict[str, str]]] = field(default_factory=list)
    """Answers for the first requests, in order (status, or status and headers)."""
    requests: list[Received] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/hooks/T0SECRETPATH"

    def start(self) -> Receiver:
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                with receiver._lock:
                    receiver.requests.append(
                        Received(self.path, dict(self.headers.items()), body, time.monotonic())
                    )
                    answer = receiver.script.pop(0) if receiver.script else 200
                status, headers = answer if isinstance(answer, tuple) else (answer, {})
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, format: str, *args: Any) -> None:
                return None

        ThreadingHTTPServer.allow_reuse_address = True
        self._server = ThreadingHTTPServer(("127.0.0.1", self.port), Handler)
        self.port = self._server.server_address[1]
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def wait_for(self, count: int, timeout: float = 15.0) -> list[Received]:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if len(self.requests) >= count:
                    return list(self.requests)
            time.sleep(0.02)
        raise AssertionError(f"{len(self.requests)} requests arrived, expected {count}")


def free_port() -> int:
    with contextlib.closing(socket.socket()) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@contextlib.contextmanager
def receiving(**kwargs: Any) -> Iterator[Receiver]:
    receiver = Receiver(**kwargs).start()
    try:
        yield receiver
    finally:
        receiver.stop()


async def arrived(receiver: Receiver, count: int, within: float = 15.0) -> list[Received]:
    """`wait_for` for a test whose deliverer runs on this thread's event loop."""
    import asyncio

    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        with receiver._lock:
            if len(receiver.requests) >= count:
                return list(receiver.requests)
        await asyncio.sleep(0.02)
    raise AssertionError(f"{len(receiver.requests)} requests arrived, expected {count}")
