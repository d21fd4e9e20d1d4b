"""Server-side sessions for the review UI.

The cookie holds only an opaque random token; the principal, the CSRF token and
pending notices live here, keyed by the token's SHA-256 (a leaked session table
does not hand out cookies). Sessions end on sign-out, after `idle` seconds
without a request, or `lifetime` seconds after sign-in; when the key behind a
session is revoked the router ends it on the next request.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from memgate.service.keys import Principal

COOKIE = "mg_ui_session"
LOGIN_COOKIE = "mg_ui_login"
IDLE_SECONDS = 30 * 60
LIFETIME_SECONDS = 8 * 3600
MAX_SESSIONS = 10_000


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def tokens_match(expected: str, given: str | None) -> bool:
    """Constant-time comparison; an absent or empty token never matches."""
    if not expected or not given:
        return False
    return hmac.compare_digest(expected.encode(), given.encode("utf-8", "replace"))


@dataclass(slots=True)
class Session:
    principal: Principal
    """The `Principal` the key authenticated as (key id, name, role, namespaces)."""
    csrf: str
    created: float
    seen: float
    notices: list[tuple[str, str]] = field(default_factory=list)
    """(kind, text) shown once on the next page: `ok` or `error`."""

    def notice(self, kind: str, text: str) -> None:
        self.notices.append((kind, text))

    def take_notices(self) -> list[tuple[str, str]]:
        out, self.notices = self.notices, []
        return out

    def digest(self, text: str) -> str:
        """A MAC of `text` under this session's secret: ties a confirmation form to
        exactly what the page showed (an edit that was previewed)."""
        mac = hmac.new(self.csrf.encode(), text.encode("utf-8", "replace"), hashlib.sha256)
        return mac.hexdigest()


class SessionStore:
    """In-process sessions; one store per app (built in `build_ui_router`)."""

    def __init__(
        self,
        *,
        idle: float = IDLE_SECONDS,
        lifetime: float = LIFETIME_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._sessions: dict[str, Session] = {}
        self._idle = idle
        self._lifetime = lifetime
        self._clock = clock

    def create(self, principal: Principal) -> tuple[str, Session]:
        """A new session; returns the cookie token (shown once) and the session."""
        self._prune()
        token = secrets.token_urlsafe(32)
        now = self._clock()
        session = Session(
            principal=principal, csrf=secrets.token_urlsafe(32), created=now, seen=now
        )
        self._sessions[_digest(token)] = session
        return token, session

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        key = _digest(token)
        session = self._sessions.get(key)
        if session is None:
            return None
        now = self._clock()
        if now - session.seen > self._idle or now - session.created > self._lifetime:
            del self._sessions[key]
            return None
        session.seen = now
        return session

    def end(self, token: str | None) -> None:
        if token:
            self._sessions.pop(_digest(token), None)

    def _prune(self) -> None:
        now = self._clock()
        for key, s in list(self._sessions.items()):
            if now - s.seen > self._idle or now - s.created > self._lifetime:
                del self._sessions[key]
        while len(self._sessions) >= MAX_SESSIONS:
            oldest = min(self._sessions, key=lambda k: self._sessions[k].seen)
            del self._sessions[oldest]
