"""Slow clients cannot hold the server: deadlines on a connection's request head
and on a request's body, on top of uvicorn's own limits.

uvicorn (h11) closes an idle keep-alive connection after `timeout_keep_alive`
and bounds the request head's size (`h11_max_incomplete_event_size`), but a
client that connects and sends nothing, or sends its headers a byte at a time,
or a body slower than it promised, keeps its connection (and, for the body, a
request task) forever. Here:

- `guarded_h11(header_timeout)`: the h11 protocol with a deadline from the
  moment a connection waits for a request head (connect, or the previous
  response sent) until the head is complete; past it, 408 and close.
- `BodyDeadline`: the app middleware that reads a request's whole body (at most
  `max_body_bytes`, see `BodyLimit`) within `body_timeout` seconds, else 408
  and close, so no route ever waits on a trickling client.
- `server_config(app, settings)`: the uvicorn configuration `memgate serve`
  runs with, all of the above applied.

What needs a reverse proxy in front (nginx, Caddy, a cloud load balancer): TLS,
a cap on connections per client address and rate limits, and slow *readers*
(a client that never reads the response; uvicorn's write buffer pauses the
request, the socket's send timeout is the kernel's). See docs/limits.md.
"""

from __future__ import annotations

import asyncio
from typing import Any

import h11
import uvicorn
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from memgate.service.settings import Settings

TIMEOUT_RESPONSE = (
    b"HTTP/1.1 408 Request Timeout\r\n"
    b"content-type: text/plain; charset=utf-8\r\n"
    b"content-length: 16\r\n"
    b"connection: close\r\n\r\n"
    b"request too slow"
)


class _GuardedH11(H11Protocol):
    """H11Protocol with a request-head deadline (`header_timeout`, seconds)."""

    header_timeout: float = 10.0

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._head_deadline: asyncio.TimerHandle | None = None
        self._arm_head_deadline()

    def _arm_head_deadline(self) -> None:
        self._cancel_head_deadline()
        self._head_deadline = self.loop.call_later(self.header_timeout, self._head_timed_out)

    def _cancel_head_deadline(self) -> None:
        deadline = getattr(self, "_head_deadline", None)
        if deadline is not None:
            deadline.cancel()
            self._head_deadline = None

    def _head_timed_out(self) -> None:
        self._head_deadline = None
        if self.transport.is_closing():
            return
        if self.conn.their_state is not h11.IDLE:
            return  # the head is complete: the request is the app's (and BodyDeadline's)
        if self.cycle is not None and not self.cycle.response_complete:
            return
        self.transport.write(TIMEOUT_RESPONSE)
        self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing():
            self._arm_head_deadline()  # the next request's head has as long

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_head_deadline()
        super().connection_lost(exc)


def guarded_h11(header_timeout: float) -> type[H11Protocol]:
    """The h11 protocol class with a `header_timeout` (seconds) request-head deadline."""
    return type("GuardedH11Protocol", (_GuardedH11,), {"header_timeout": header_timeout})


_BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})


class BodyDeadline:
    """Read the request body within `seconds`, then hand it to the app; a client
    slower than that is answered 408 (connection closed) and the app never runs.
    Past `max_bytes` it stops reading and lets the app (BodyLimit: 413) answer."""

    def __init__(self, app: ASGIApp, seconds: float, max_bytes: int) -> None:
        self.app = app
        self.seconds = seconds
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in _BODY_METHODS:
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        try:
            async with asyncio.timeout(self.seconds):
                while size <= self.max_bytes:
                    message = await receive()
                    messages.append(message)
                    if message["type"] != "http.request" or not message.get("more_body", False):
                        break
                    size += len(message.get("body", b""))
        except TimeoutError:
            await _timed_out(send)
            return
        replay = iter(messages)

        async def replayed() -> Message:
            return next(replay, None) or await receive()

        await self.app(scope, replayed, send)


async def _timed_out(send: Send) -> None:
    body = b'{"type":"https://memgate.dev/problems/timeout","title":"Request timeout",'
    body += b'"status":408,"detail":"the request body did not arrive in time"}'
    await send(
        {
            "type": "http.response.start",
            "status": 408,
            "headers": [
                (b"content-type", b"application/problem+json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


def server_config(app: Any, settings: Settings, **options: Any) -> uvicorn.Config:
    """The uvicorn configuration of `memgate serve`: host and port from the
    settings, the guarded h11 protocol, and the settings' client timeouts."""
    return uvicorn.Config(
        app,
        host=settings.host,
        port=settings.port,
        http=guarded_h11(settings.header_timeout),
        timeout_keep_alive=max(1, round(settings.keep_alive_timeout)),
        h11_max_incomplete_event_size=settings.max_header_bytes,
        limit_concurrency=settings.max_connections,
        **options,
    )
