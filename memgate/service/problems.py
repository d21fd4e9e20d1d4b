"""Errors as problem JSON (RFC 9457 style): every answer to bad client input is a
4xx naming the field and the reason, never a 5xx.

    {"type": "https://memgate.dev/problems/validation", "title": "Invalid request",
     "status": 422, "detail": "...", "errors": [{"field": "body.namespace", "reason": "..."}]}

The mapping of the error tree (memgate/errors.py) to statuses lives here, once.
"""

from __future__ import annotations

import json
import logging
import math
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from memgate.errors import (
    GraphUnavailable,
    IllegalTransition,
    InvalidInput,
    KeyFileError,
    MemgateError,
    NotFound,
    OversizedWrite,
    PolicyError,
    RecallUnavailable,
    ReviewRefused,
    RollbackInProgress,
    RulesError,
    StorageError,
    WriteForbidden,
    WriteRefused,
)
from memgate.service.keys import KeyConflict

log = logging.getLogger("memgate.service")

PROBLEM_TYPE = "https://memgate.dev/problems/"
MEDIA_TYPE = "application/problem+json"


class FieldError(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    field: str
    reason: str


class ProblemBody(BaseModel):
    """The body of every error answer."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    type: str
    title: str
    status: int
    detail: str
    errors: list[FieldError] | None = None


class Problem(Exception):
    """Raised by routes to answer with a problem body."""

    def __init__(
        self,
        status: int,
        title: str,
        detail: str,
        *,
        kind: str | None = None,
        errors: Sequence[FieldError] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        super().__init__(detail)
        self.status = status
        self.title = title
        self.detail = detail
        self.kind = kind or title.lower().replace(" ", "-")
        self.errors = list(errors) if errors else None
        self.headers = headers

    @classmethod
    def invalid(cls, field: str, reason: str) -> Problem:
        """A 422 naming one field."""
        return cls(
            422,
            "Invalid request",
            f"{field}: {reason}",
            kind="validation",
            errors=[FieldError(field=field, reason=reason)],
        )

    @classmethod
    def not_found(cls, what: str) -> Problem:
        return cls(404, "Not found", what, kind="not-found")

    @classmethod
    def forbidden(cls, detail: str) -> Problem:
        return cls(403, "Forbidden", detail, kind="forbidden")

    def response(self) -> JSONResponse:
        body = ProblemBody(
            type=PROBLEM_TYPE + self.kind,
            title=self.title,
            status=self.status,
            detail=self.detail,
            errors=self.errors,
        )
        return JSONResponse(
            body.model_dump(mode="json", exclude_none=True),
            status_code=self.status,
            headers=self.headers,
            media_type=MEDIA_TYPE,
        )


ERROR_STATUS: dict[type[MemgateError], tuple[int, str, str]] = {
    NotFound: (404, "Not found", "not-found"),
    IllegalTransition: (409, "Illegal transition", "illegal-transition"),
    OversizedWrite: (413, "Content too large", "oversized"),
    InvalidInput: (422, "Invalid request", "validation"),
    WriteForbidden: (403, "Write forbidden", "write-forbidden"),
    WriteRefused: (422, "Write refused", "write-refused"),
    ReviewRefused: (403, "Review refused", "review-refused"),
    KeyConflict: (409, "Conflict", "conflict"),
    RollbackInProgress: (503, "Rollback in progress", "rollback"),
    GraphUnavailable: (503, "Unavailable", "unavailable"),
    RecallUnavailable: (503, "Vector search unavailable", "vector-unavailable"),
    StorageError: (503, "Unavailable", "unavailable"),
    # Server configuration, never client input: the operator fixes the files.
    RulesError: (500, "Server misconfigured", "misconfigured"),
    PolicyError: (500, "Server misconfigured", "misconfigured"),
    KeyFileError: (500, "Server misconfigured", "misconfigured"),
}
"""Status, title and problem kind for each error of the tree (the nearest class
in the error's MRO wins). tests/service checks that every class is here."""


def problem_for(exc: MemgateError) -> Problem:
    """The answer to one error of the tree. Messages of the tree never carry a
    secret value (findings are named by rule id), so they are safe to return,
    except for server-side failures, which are logged and answered generically."""
    entry = next((ERROR_STATUS[c] for c in type(exc).__mro__ if c in ERROR_STATUS), None)
    if entry is None:
        log.error("unmapped memgate error: %s", type(exc).__name__)
        return Problem(500, "Internal error", "the server failed; see its log", kind="internal")
    status, title, kind = entry
    detail = str(exc)
    # NOTE: RecallUnavailable's message is configuration advice (which extra to
    # install), never content: the caller needs it to know text search still works.
    if status >= 500 and not isinstance(exc, (RollbackInProgress, RecallUnavailable)):
        log.error("%s: %s", type(exc).__name__, detail)
        detail = f"{title.lower()}; see the server's log"
    headers = None
    if isinstance(exc, RollbackInProgress):
        headers = {"Retry-After": str(max(1, math.ceil(exc.retry_after)))}
    elif status == 503:
        headers = {"Retry-After": "5"}
    errors = None
    if status == 413:
        errors = [FieldError(field="body.content", reason=detail)]
    elif isinstance(exc, InvalidInput):
        errors = [FieldError(field=exc.field, reason=exc.reason)]
    elif isinstance(exc, WriteForbidden):
        errors = [FieldError(field=f"body.{exc.field}", reason=exc.reason)]
    return Problem(status, title, detail, kind=kind, errors=errors, headers=headers)


def _field(loc: Sequence[Any]) -> str:
    return ".".join(str(part) for part in loc) or "body"


def validation_problem(exc: RequestValidationError) -> Problem:
    """A 422 with one entry per failed field. Never echoes the input (it may hold
    a secret): only where and why."""
    errors = []
    for error in exc.errors()[:50]:
        reason = str(error.get("msg", "invalid"))
        if error.get("type") == "json_invalid":
            ctx = error.get("ctx") or {}
            reason = f"invalid JSON: {ctx.get('error', 'cannot parse')}"
            errors.append(FieldError(field="body", reason=reason))
            continue
        errors.append(FieldError(field=_field(error.get("loc", ())), reason=reason))
    detail = "; ".join(f"{e.field}: {e.reason}" for e in errors[:5]) or "invalid request"
    return Problem(422, "Invalid request", detail, kind="validation", errors=errors)


_FASTAPI_BODY_ERROR = "There was an error parsing the body"
_HTTP_TITLES = {
    400: "Bad request",
    401: "Unauthorized",
    403: "Forbidden",
    404: "Not found",
    405: "Method not allowed",
    413: "Content too large",
    415: "Unsupported media type",
}


def install(app: FastAPI) -> None:
    """Register the handlers that turn every error into problem JSON."""

    async def on_problem(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, Problem)  # noqa: S101 - registered for Problem only
        return exc.response()

    async def on_memgate(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, MemgateError)  # noqa: S101
        return problem_for(exc).response()

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)  # noqa: S101
        return validation_problem(exc).response()

    async def on_http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, HTTPException)  # noqa: S101
        title = _HTTP_TITLES.get(exc.status_code, "Error")
        detail = exc.detail if isinstance(exc.detail, str) else title
        if exc.status_code == 400 and detail == _FASTAPI_BODY_ERROR:
            # FastAPI's answer when json.loads raises something other than a
            # JSONDecodeError: bytes that are not UTF-8, or nesting past the
            # recursion limit. Invalid JSON like any other: 422 naming the body.
            return Problem.invalid(
                "body", "not JSON memgate can read (not UTF-8, or nested too deeply)"
            ).response()
        return Problem(
            exc.status_code,
            title,
            detail,
            kind=title.lower().replace(" ", "-"),
            headers=dict(exc.headers or {}),
        ).response()

    async def on_recursion(request: Request, exc: Exception) -> JSONResponse:
        return Problem.invalid("body", "nested too deeply").response()

    async def on_unexpected(request: Request, exc: Exception) -> JSONResponse:
        # NOTE: the message may quote input; log the type and route only.
        log.error("unexpected %s on %s %s", type(exc).__name__, request.method, request.url.path)
        return Problem(500, "Internal error", "the server failed; see its log").response()

    app.add_exception_handler(Problem, on_problem)
    app.add_exception_handler(MemgateError, on_memgate)
    app.add_exception_handler(RequestValidationError, on_validation)
    app.add_exception_handler(HTTPException, on_http)
    app.add_exception_handler(RecursionError, on_recursion)
    app.add_exception_handler(Exception, on_unexpected)


class BodyLimit:
    """Answer 413 (problem JSON) to a request body larger than the limit, before
    anything parses it: at once when Content-Length says so; a body without a
    length (chunked) is read up to the limit, then replayed to the app."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                try:
                    size = int(value)
                except ValueError:
                    size = -1
                if size < 0 or size > self.max_bytes:
                    await self._refuse(size, send)
                    return
                await self.app(scope, receive, send)
                return
        if scope.get("method") in ("GET", "HEAD", "DELETE", "OPTIONS"):
            await self.app(scope, receive, send)
            return
        messages: list[Message] = []
        size = 0
        while True:
            message = await receive()
            messages.append(message)
            if message["type"] != "http.request":
                break
            size += len(message.get("body", b""))
            if size > self.max_bytes:
                await self._refuse(size, send)
                return
            if not message.get("more_body", False):
                break
        replay = iter(messages)

        async def replayed() -> Message:
            return next(replay, None) or await receive()

        await self.app(scope, replayed, send)

    async def _refuse(self, size: int, send: Send) -> None:
        if size < 0:
            status, title, detail = 400, "Bad request", "invalid Content-Length"
        else:
            status, title = 413, "Content too large"
            detail = f"the request body exceeds the limit of {self.max_bytes} bytes"
        body = ProblemBody(
            type=PROBLEM_TYPE + ("oversized" if status == 413 else "bad-request"),
            title=title,
            status=status,
            detail=detail,
        )
        payload = json.dumps(body.model_dump(exclude_none=True)).encode()
        start: Message = {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", MEDIA_TYPE.encode()),
                (b"content-length", str(len(payload)).encode()),
                (b"connection", b"close"),
            ],
        }
        await send(start)
        await send({"type": "http.response.body", "body": payload})
