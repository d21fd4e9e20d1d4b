"""Server-side sessions for the review UI.

The cookie holds only an opaque random token; the principal, the CSRF token and
pending notices live here, keyed by the token's SHA-256 (a leaked session table
does not hand out cookies). They are kept in the key store (SQLite next to the
keys, or PostgreSQL's `ui_sessions` shared by every replica). Sessions end on
sign-out, after `idle` seconds without a request, or `lifetime` seconds after
sign-in (wall-clock seconds: replicas share them); revoking the key behind a
session deletes it, and the router also ends it on the next request.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from memgate.domain import Source
from memgate.service.keys import KeyStore, Principal, Role

COOKIE = "mg_ui_session"
LOGIN_COOKIE = "mg_ui_login"
IDLE_SECONDS = 30 * 60
LIFETIME_SECONDS = 8 * 3600
TOUCH_SECONDS = 30.0
"""A session's last-seen time is written back at most this often (an idle
timeout of 30 minutes does not need every request to write)."""
PRUNE_SECONDS = 60.0
"""Expired sessions are deleted at most this often (on sign-in)."""


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
    saver: Callable[[Session], None] | None = None
    """Writes the session back to its store (set by `SessionStore`)."""

    def _save(self) -> None:
        if self.saver is not None:
            self.saver(self)

    def notice(self, kind: str, text: str) -> None:
        self.notices.append((kind, text))
        self._save()

    def take_notices(self) -> list[tuple[str, str]]:
        out, self.notices = self.notices, []
        if out:
            self._save()
        return out

    def digest(self, text: str) -> str:
        """A MAC of `text` under this session's secret: ties a confirmation form to
        exactly what the page showed (an edit that was previewed)."""
        mac = hmac.new(self.csrf.encode(), text.encode("utf-8", "replace"), hashlib.sha256)
        return mac.hexdigest()


class SessionStore:
    """UI sessions kept in a key store (`memgate.service.keys.KeyStore`): the data
    directory's SQLite key file, or the PostgreSQL store's `ui_sessions` table
    shared by every replica, so a browser signed in through one replica is
    signed in on all. One per key store (the UI binds it per request). A session
    is read from the store on every request and written back when it changes
    (its last-seen time at most every `touch` seconds, its notices at once)."""

    def __init__(
        self,
        records: KeyStore,
        *,
        idle: float = IDLE_SECONDS,
        lifetime: float = LIFETIME_SECONDS,
        clock: Callable[[], float] = time.time,
        touch: float = TOUCH_SECONDS,
    ) -> None:
        self.records = records
        self._idle = idle
        self._lifetime = lifetime
        self._clock = clock
        self._touch = touch
        self._pruned = 0.0

    def _save(self, digest: str, session: Session) -> None:
        self.records.put_session(
            digest, session.principal.key_id, (_body(session), session.created, session.seen)
        )

    def create(self, principal: Principal) -> tuple[str, Session]:
        """A new session; returns the cookie token (shown once) and the session."""
        self._prune()
        token = secrets.token_urlsafe(32)
        now = self._clock()
        session = Session(
            principal=principal, csrf=secrets.token_urlsafe(32), created=now, seen=now
        )
        digest = _digest(token)
        session.saver = lambda s: self._save(digest, s)
        self._save(digest, session)
        return token, session

    def get(self, token: str | None) -> Session | None:
        if not token:
            return None
        digest = _digest(token)
        row = self.records.get_session(digest)
        if row is None:
            return None
        body, created, seen = row
        now = self._clock()
        if now - seen > self._idle or now - created > self._lifetime:
            self.records.end_session(digest)
            return None
        session = _session(body, created, seen)
        if session is None:  # a row this version cannot read: sign in again
            self.records.end_session(digest)
            return None
        session.saver = lambda s: self._save(digest, s)
        if now - seen >= self._touch:
            session.seen = now
            self._save(digest, session)
        return session

    def end(self, token: str | None) -> None:
        if token:
            self.records.end_session(_digest(token))

    def _prune(self) -> None:
        now = self._clock()
        if now - self._pruned < PRUNE_SECONDS:
            return
        self._pruned = now
        self.records.prune_sessions(now - self._idle, now - self._lifetime)


def _body(session: Session) -> str:
    p = session.principal
    return json.dumps(
        {
            "key_id": p.key_id,
            "name": p.name,
            "role": p.role.value,
            "namespaces": [list(ns) for ns in p.namespaces],
            "sources": sorted(s.value for s in p.sources),
            "guard_roles": list(p.guard_roles),
            "csrf": session.csrf,
            "notices": [list(n) for n in session.notices],
        },
        ensure_ascii=False,
    )


def _session(body: str, created: float, seen: float) -> Session | None:
    try:
        data = json.loads(body)
        principal = Principal(
            data["key_id"],
            data["name"],
            Role(data["role"]),
            tuple(tuple(ns) for ns in data["namespaces"]),
            frozenset(Source(s) for s in data["sources"]),
            tuple(data["guard_roles"]),
        )
        notices = [(str(k), str(t)) for k, t in data["notices"]]
        return Session(
            principal=principal, csrf=data["csrf"], created=created, seen=seen, notices=notices
        )
    except (ValueError, KeyError, TypeError):
        return None
