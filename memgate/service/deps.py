"""Request dependencies: the app's state, the calling key, its role, the reader.

Authorization happens here and in each route: the role by `require(...)`, the
namespace scope per memory (a memory outside the key's scopes answers 404, as
if it did not exist, so ids cannot be probed), the sources a write may declare
by `declared_source(...)`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Annotated

import anyio.to_thread
from fastapi import Depends, Header, Request

from memgate.domain import Source
from memgate.domain.memory import MemoryItem, Reader
from memgate.errors import WriteForbidden
from memgate.gateway import Gateway
from memgate.service.keys import KeyStore, Principal, Role, ordered
from memgate.service.metrics import Metrics
from memgate.service.problems import Problem
from memgate.service.schemas import Ident, SessionId, parse_namespace
from memgate.service.settings import Settings


@dataclass(slots=True)
class MemgateState:
    """Everything a request needs; `app.state.memgate` while the app runs."""

    gateway: Gateway
    keys: KeyStore
    settings: Settings
    metrics: Metrics


def _state_of(request: Request) -> MemgateState:
    state = getattr(request.app.state, "memgate", None)
    if not isinstance(state, MemgateState):
        raise Problem(503, "Starting", "the service is not started", kind="unavailable")
    return state


async def get_state(request: Request) -> MemgateState:
    return _state_of(request)


State = Annotated[MemgateState, Depends(get_state)]

BEARER = "bearer"
HEADER_KEY = "X-Memgate-Key"
SECURITY_SCHEMES = {
    "APIKeyBearer": {
        "type": "http",
        "scheme": BEARER,
        "description": "An API key: `Authorization: Bearer mgk_...`",
    },
    "APIKeyHeader": {
        "type": "apiKey",
        "in": "header",
        "name": HEADER_KEY,
        "description": "An API key, as a header.",
    },
}
"""Documented in the OpenAPI schema by the app (see app.py); read here directly
from the headers, in one dependency per request (each FastAPI dependency costs
tens of microseconds, and every route needs the key)."""


def _unauthorized(detail: str) -> Problem:
    return Problem(
        401, "Unauthorized", detail, kind="unauthorized", headers={"WWW-Authenticate": "Bearer"}
    )


def _raw_key(request: Request) -> str | None:
    authorization = request.headers.get("authorization")
    if authorization:
        scheme, _, credentials = authorization.partition(" ")
        if scheme.lower() == BEARER and credentials.strip():
            return credentials.strip()
    return request.headers.get(HEADER_KEY)


def authenticate(request: Request) -> Principal:
    """The calling key, or 401."""
    raw = _raw_key(request)
    if not raw:
        raise _unauthorized("an API key is required: Authorization: Bearer <key> or X-Memgate-Key")
    principal = _state_of(request).keys.authenticate(raw)
    if principal is None:
        raise _unauthorized("unknown or revoked API key")
    return principal


def require(*roles: Role) -> Callable[[Request], Awaitable[Principal]]:
    """A dependency that admits the given roles only (401 without a key, 403 for
    another role)."""
    allowed = frozenset(roles)
    names = ", ".join(sorted(r.value for r in allowed))

    async def check(request: Request) -> Principal:
        raw = _raw_key(request)
        keys = _state_of(request).keys
        if raw and not keys.is_cached(raw):
            # A cache miss asks the key store (a PostgreSQL round trip on a shared
            # store): off the event loop; `authenticate` then answers from the cache.
            await anyio.to_thread.run_sync(keys.authenticate, raw)
        principal = authenticate(request)
        if principal.role not in allowed:
            raise Problem.forbidden(f"this needs a key with role {names}")
        return principal

    return check


AnyKey = Annotated[Principal, Depends(require(Role.AGENT, Role.REVIEWER, Role.ADMIN))]
Writer = Annotated[Principal, Depends(require(Role.AGENT, Role.ADMIN))]
Reviewer = Annotated[Principal, Depends(require(Role.REVIEWER, Role.ADMIN))]
Admin = Annotated[Principal, Depends(require(Role.ADMIN))]


def reader(
    principal: Principal,
    *,
    session_id: str | None = None,
    call_id: str | None = None,
    agent_id: str | None = None,
) -> Reader:
    """The reader recorded for a served item: the client's session and call, and
    an agent id that always names the key. The gateway serves a pending memory
    only to its writer's key and session, so a session id another key sends
    reads nothing of the writer's."""
    return Reader(session_id=session_id, call_id=call_id, agent_id=principal.agent_label(agent_id))


async def header_reader(
    principal: AnyKey,
    session: Annotated[SessionId | None, Header(alias="X-Memgate-Session")] = None,
    call: Annotated[Ident | None, Header(alias="X-Memgate-Call")] = None,
    agent: Annotated[Ident | None, Header(alias="X-Memgate-Agent")] = None,
) -> Reader:
    return reader(principal, session_id=session, call_id=call, agent_id=agent)


HeaderReader = Annotated[Reader, Depends(header_reader)]


def declared_source(principal: Principal, source: Source) -> Source:
    """The source of a write, if this key may declare it, else WriteForbidden
    (403 naming `body.source`)."""
    if not principal.may_declare(source):
        allowed = ", ".join(s.value for s in ordered(principal.sources)) or "none"
        raise WriteForbidden(
            "source", f"this key may not declare {source.value!r} (its sources: {allowed})"
        )
    return source


def namespace_param(value: str | None, field: str = "query.namespace") -> tuple[str, ...]:
    """A slash-joined namespace from a query parameter ("" or absent: all)."""
    try:
        return parse_namespace(value)
    except ValueError as exc:
        raise Problem.invalid(field, str(exc)) from None


def visible(item: MemoryItem | None, allowed: bool) -> MemoryItem:
    """The item, or 404 when it does not exist or the key may not see it."""
    if item is None or not allowed:
        raise Problem.not_found("no such memory (or not visible to this key)")
    return item
