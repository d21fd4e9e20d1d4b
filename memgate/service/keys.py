"""API keys and roles.

A key is shown once, when it is created; the store keeps only its SHA-256 (a
raw key carries 256 random bits, so a fast hash is enough: there is nothing to
brute-force). Each key has one role and a list of namespace scopes (label
prefixes); an empty list means every namespace.

    agent     write, read, search, delete in its scopes
    reviewer  the review queue and reads in its scopes; never its own writes
    admin     everything: rollback, log, investigations, keys

The `source` a write declares is a property of the key, not of the request:
each key carries the sources it may declare. By default an agent key declares
`agent`, `tool`, `web` and `document`, never `user`: only a key created as a
user channel (`user_channel=True` adds `user` to the defaults; or explicit
`sources`) speaks for the user, whose words the policy trusts most. Admin keys
may declare every source, reviewer keys none (they do not write). Keys stored
before sources existed have none recorded (NULL) and get their role's default;
`set_sources` changes a key's sources in place.

The guard role a tool call is judged under (POST /v1/guard/decide, `memgate hook`)
is a property of the key too: each key carries the guard roles it may act as
(`guard_roles`, in the order given; the first is its default). A key with none
(the default for every new or older key) is judged under the guard policy's
default role; a call naming a role the key does not hold is refused (403).
Admin keys may act as any role (they can grant themselves any anyway).
`set_guard_roles` changes them in place.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import threading
import time
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any, Protocol, Self

from pydantic import BaseModel, ConfigDict

from memgate.domain import Source
from memgate.errors import MemgateError, NotFound
from memgate.gateway.ownership import CREDENTIAL_PREFIX

KEY_PREFIX = "mgk_"
ACTOR_PREFIX = CREDENTIAL_PREFIX
"""Every identity a key acts under starts with this (`key:k_3f9a…`): the log's
actor, the reviewer, the writer's agent id, which the gateway reads as the
credential that owns a memory. Client-chosen ids (sessions) may not."""
Namespace = tuple[str, ...]


class Role(StrEnum):
    AGENT = "agent"
    REVIEWER = "reviewer"
    ADMIN = "admin"


AGENT_SOURCES = frozenset({Source.AGENT, Source.TOOL, Source.WEB, Source.DOCUMENT})
USER_CHANNEL_SOURCES = frozenset({Source.USER})


def default_sources(role: Role) -> frozenset[Source]:
    """The sources a key of this role declares when none were set for it."""
    if role is Role.ADMIN:
        return frozenset(Source)
    if role is Role.AGENT:
        return AGENT_SOURCES
    return frozenset()


def ordered(sources: Iterable[Source]) -> tuple[Source, ...]:
    """Sources in the enum's order (stable listings)."""
    chosen = set(sources)
    return tuple(s for s in Source if s in chosen)


def check_sources(
    role: Role, sources: Iterable[Source | str] | None, *, user_channel: bool = False
) -> frozenset[Source]:
    """The sources a key may declare: `sources` as given, else the role's default;
    a user channel adds `user` to them. Raises ValueError for an unknown source,
    or for sources on a reviewer key."""
    if sources is None:
        chosen = set(default_sources(role))
    else:
        try:
            chosen = {Source(s) for s in sources}
        except ValueError:
            names = ", ".join(s.value for s in Source)
            raise ValueError(f"sources must be among {names}") from None
    if user_channel:
        chosen |= USER_CHANNEL_SOURCES
    if role is Role.REVIEWER and chosen:
        raise ValueError("reviewer keys do not write, so they declare no source")
    return frozenset(chosen)


def _encode_sources(sources: Iterable[Source]) -> str:
    return ",".join(s.value for s in ordered(sources))


def _decode_sources(text: str | None, role: Role) -> frozenset[Source]:
    if text is None:
        return default_sources(role)
    return frozenset(Source(s) for s in text.split(",") if s)


GUARD_ROLE_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{1,100}$")
MAX_GUARD_ROLES = 32


def check_guard_roles(role: Role, guard_roles: Iterable[str] | None) -> tuple[str, ...]:
    """The guard roles a key may act as, in the order given (duplicates dropped);
    None: none (the guard policy's default role). Raises ValueError for a bad name
    or for roles on a reviewer key (reviewers do not call the guard)."""
    if guard_roles is None:
        return ()
    chosen = tuple(dict.fromkeys(guard_roles))
    for name in chosen:
        if not isinstance(name, str) or not GUARD_ROLE_PATTERN.match(name):
            raise ValueError("guard roles are 1-100 characters of letters, digits and _.:-")
    if len(chosen) > MAX_GUARD_ROLES:
        raise ValueError(f"a key holds at most {MAX_GUARD_ROLES} guard roles")
    if role is Role.REVIEWER and chosen:
        raise ValueError("reviewer keys do not call the guard, so they hold no guard role")
    return chosen


def _decode_guard_roles(text: str | None) -> tuple[str, ...]:
    return tuple(r for r in (text or "").split(",") if r)


class KeyConflict(MemgateError):
    """A key operation that would leave the service unusable (revoking the last admin)."""


def _hash(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "surrogatepass")).hexdigest()


def _encode_scopes(scopes: Iterable[Namespace]) -> str:
    # NOTE: labels never contain "/" (MemoryWrite refuses it), and "\n" separates scopes.
    return "\n".join("/".join(scope) for scope in scopes)


def _decode_scopes(text: str) -> tuple[Namespace, ...]:
    return tuple(tuple(line.split("/")) for line in text.split("\n") if line)


def check_scopes(namespaces: Iterable[Sequence[str]]) -> tuple[Namespace, ...]:
    """Scopes as tuples; raises ValueError on an empty scope or a bad label."""
    out: list[Namespace] = []
    for scope in namespaces:
        labels = tuple(scope)
        if not labels:
            raise ValueError("a namespace scope needs at least one label")
        for label in labels:
            if not label or "/" in label or "\n" in label or len(label) > 128:
                raise ValueError("namespace labels must be 1-128 chars without '/'")
        out.append(labels)
    return tuple(dict.fromkeys(out))


def _under(namespace: Namespace, prefix: Namespace) -> bool:
    return namespace[: len(prefix)] == prefix


@dataclass(frozen=True, slots=True)
class Principal:
    """Who is calling: the authenticated key."""

    key_id: str
    name: str
    role: Role
    namespaces: tuple[Namespace, ...] = ()
    sources: frozenset[Source] = frozenset()
    """The sources this key may declare on a write."""
    guard_roles: tuple[str, ...] = ()
    """The guard roles this key may act as; the first is its default."""

    @property
    def actor(self) -> str:
        """The identity recorded in the log for this key's actions (and the reviewer
        identity the gateway compares with a memory's writer)."""
        return f"{ACTOR_PREFIX}{self.key_id}"

    def may_declare(self, source: Source) -> bool:
        """Whether a write by this key may say it came from `source`."""
        return source in self.sources

    def may_act_as(self, guard_role: str) -> bool:
        """Whether a tool call by this key may be judged under `guard_role`."""
        return self.role is Role.ADMIN or guard_role in self.guard_roles

    @property
    def default_guard_role(self) -> str | None:
        """The guard role of a call that names none (None: the policy's default)."""
        return self.guard_roles[0] if self.guard_roles else None

    def agent_label(self, agent_id: str | None) -> str:
        """The agent id recorded for this key's writes and reads. Always starts with
        the key's identity, so a client cannot write as another key (and a reviewer
        cannot dodge the own-write rule by naming another agent)."""
        return self.actor if not agent_id else f"{self.actor}/{agent_id}"

    def wrote(self, agent_id: str | None) -> bool:
        """Whether a memory whose writer is `agent_id` was written with this key."""
        return agent_id is not None and (
            agent_id == self.actor or agent_id.startswith(self.actor + "/")
        )

    def covers(self, namespace: Sequence[str]) -> bool:
        """Whether the namespace is inside one of this key's scopes."""
        ns = tuple(namespace)
        return not self.namespaces or any(_under(ns, scope) for scope in self.namespaces)

    def can_read(self, namespace: Sequence[str]) -> bool:
        return self.covers(namespace)

    def can_write(self, namespace: Sequence[str]) -> bool:
        return self.role in (Role.AGENT, Role.ADMIN) and self.covers(namespace)

    def can_review(self, namespace: Sequence[str]) -> bool:
        return self.role in (Role.REVIEWER, Role.ADMIN) and self.covers(namespace)

    def prefixes(self, prefix: Sequence[str] = ()) -> list[Namespace]:
        """The namespace prefixes to query for a request under `prefix`, narrowed
        to this key's scopes: [prefix] when it lies inside a scope, the scopes
        that lie under it otherwise, [] when nothing under it is visible."""
        wanted = tuple(prefix)
        if self.covers(wanted):
            return [wanted]
        return [scope for scope in self.namespaces if _under(scope, wanted)]


class KeyInfo(BaseModel):
    """A key as listed: never the key itself, only a hint of its first characters."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    role: Role
    namespaces: tuple[Namespace, ...]
    sources: tuple[Source, ...] = ()
    """The sources the key may declare on a write (`user` only for a user channel)."""
    guard_roles: tuple[str, ...] = ()
    """The guard roles the key may act as (first: its default; none: the guard
    policy's default role)."""
    hint: str
    created_at: datetime
    revoked_at: datetime | None = None

    def principal(self) -> Principal:
        return Principal(
            self.id,
            self.name,
            self.role,
            self.namespaces,
            frozenset(self.sources),
            self.guard_roles,
        )


KEY_CACHE_SECONDS = 5.0
"""How long an authenticated key (or an unknown one) is served from a replica's
cache. A change made anywhere also drops every replica's cache at once (the
PostgreSQL backend's LISTEN/NOTIFY); this bounds how long a revoked key keeps
working on a replica that missed the notification (its connection was down)."""

KeyRow = tuple[str, str, str, str, str, str, str, str | None, str | None]
"""(id, name, role, scopes, key_hash, hint, created_at ISO, sources, guard_roles)
as `create` hands it to a backend: the encodings every backend stores."""

SessionRow = tuple[str, float, float]
"""(body JSON, created, seen) of a stored UI session; times in epoch seconds."""


class KeyStore(Protocol):
    """The API-key port: create, list, revoke and authenticate keys, and keep the
    review UI's sessions (which belong to a key: revoking it ends them). Backends:
    `MemoryKeyStore` (the in-memory twin), `SqliteKeyStore` (a data directory's
    db/keys.sqlite3), `PostgresKeyStore` (the store's database, shared by every
    replica). Synchronous and thread-safe: the HTTP service calls it from the
    event loop (`authenticate` is served from a cache, see KEY_CACHE_SECONDS),
    the UI from worker threads."""

    def create(
        self,
        name: str,
        role: Role | str,
        namespaces: Iterable[Sequence[str]] = (),
        *,
        sources: Iterable[Source | str] | None = None,
        user_channel: bool = False,
        guard_roles: Iterable[str] | None = None,
    ) -> tuple[KeyInfo, str]: ...
    def set_sources(
        self, key_id: str, sources: Iterable[Source | str] | None, *, user_channel: bool = False
    ) -> KeyInfo: ...
    def set_guard_roles(self, key_id: str, guard_roles: Iterable[str] | None) -> KeyInfo: ...
    def authenticate(self, raw: str | None) -> Principal | None: ...
    def is_cached(self, raw: str) -> bool: ...
    def list(self, *, include_revoked: bool = True) -> list[KeyInfo]: ...
    def get(self, key_id: str) -> KeyInfo | None: ...
    def revoke(self, key_id: str) -> KeyInfo: ...
    def ensure_admin(self, name: str = "admin") -> str | None: ...
    def put_session(self, digest: str, key_id: str, row: SessionRow) -> None: ...
    def get_session(self, digest: str) -> SessionRow | None: ...
    def end_session(self, digest: str) -> None: ...
    def prune_sessions(self, idle_before: float, created_before: float) -> int: ...
    def close(self) -> None: ...


def key_row(info: KeyInfo, raw: str, declared: Iterable[Source], held: Sequence[str]) -> KeyRow:
    return (
        info.id,
        info.name,
        info.role.value,
        _encode_scopes(info.namespaces),
        _hash(raw),
        info.hint,
        info.created_at.isoformat(),
        _encode_sources(declared),
        ",".join(held),
    )


def _when(value: str | datetime) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)


class KeyStoreBase(ABC):
    """What every backend shares: validation, the authentication cache (with its
    TTL), and the rules (the last admin is never revoked). A backend supplies the
    storage primitives below, each atomic on its own."""

    def __init__(self, *, cache_seconds: float = KEY_CACHE_SECONDS) -> None:
        self._cache_lock = threading.Lock()
        self._cache: dict[str, tuple[Principal | None, float]] = {}
        self._cache_seconds = cache_seconds

    # -- primitives ------------------------------------------------------------

    @abstractmethod
    def _insert(self, row: KeyRow, *, only_if_empty: bool = False) -> bool:
        """Insert a key; with `only_if_empty`, only if there is no key at all (one
        atomic step: replicas starting together make one first admin). Returns
        whether it was inserted."""

    @abstractmethod
    def _rows(self, key_id: str | None, *, include_revoked: bool) -> list[Sequence[Any]]:
        """Keys (one, or all oldest first) as (id, name, role, scopes, hint,
        created_at, revoked_at, sources, guard_roles)."""

    @abstractmethod
    def _active(self, digest: str) -> Sequence[Any] | None:
        """(id, name, role, scopes, sources, guard_roles) of the active key with
        this hash."""

    @abstractmethod
    def _set(self, key_id: str, column: str, value: str) -> None:
        """Set `sources` or `guard_roles` of a key."""

    @abstractmethod
    def _revoke(self, key_id: str, at: datetime) -> None:
        """Revoke atomically: NotFound for an unknown key, KeyConflict for the last
        active admin; ends the key's UI sessions."""

    def _changed(self) -> None:  # noqa: B027 - most backends have no other replicas
        """Tell other replicas that keys changed (their caches drop)."""

    # -- the port --------------------------------------------------------------

    def invalidate(self) -> None:
        """Drop every cached authentication (a key changed here or elsewhere)."""
        with self._cache_lock:
            self._cache.clear()

    def _after_change(self) -> None:
        self.invalidate()
        self._changed()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @abstractmethod
    def close(self) -> None: ...

    def create(
        self,
        name: str,
        role: Role | str,
        namespaces: Iterable[Sequence[str]] = (),
        *,
        sources: Iterable[Source | str] | None = None,
        user_channel: bool = False,
        guard_roles: Iterable[str] | None = None,
    ) -> tuple[KeyInfo, str]:
        """A new key: (its info, the raw key). The raw key is not stored and cannot
        be shown again. `sources`: what its writes may declare (default: the role's,
        see the module docstring); `user_channel`: the key speaks for the user (adds
        `user` to them); `guard_roles`: the guard roles it may act as, the first its
        default (none: the guard policy's default role). Raises ValueError on a bad
        name, role, scope, source or guard role."""
        info, raw, row = self._new(name, role, namespaces, sources, user_channel, guard_roles)
        self._insert(row)
        self._after_change()
        return info, raw

    @staticmethod
    def _new(
        name: str,
        role: Role | str,
        namespaces: Iterable[Sequence[str]],
        sources: Iterable[Source | str] | None,
        user_channel: bool,
        guard_roles: Iterable[str] | None,
    ) -> tuple[KeyInfo, str, KeyRow]:
        try:
            role = Role(role)
        except ValueError:
            raise ValueError("role must be agent, reviewer or admin") from None
        name = name.strip()
        if not name or len(name) > 200:
            raise ValueError("a key needs a name of 1-200 characters")
        scopes = check_scopes(namespaces)
        if role is Role.ADMIN and scopes:
            raise ValueError("admin keys are not scoped: they can roll back and read the log")
        declared = check_sources(role, sources, user_channel=user_channel)
        held = check_guard_roles(role, guard_roles)
        raw = KEY_PREFIX + secrets.token_urlsafe(32)
        info = KeyInfo(
            id="k_" + secrets.token_hex(6),
            name=name,
            role=role,
            namespaces=scopes,
            sources=ordered(declared),
            guard_roles=held,
            hint=raw[: len(KEY_PREFIX) + 4],
            created_at=datetime.now(UTC),
        )
        return info, raw, key_row(info, raw, declared, held)

    def _existing(self, key_id: str) -> KeyInfo:
        info = self.get(key_id)
        if info is None:
            raise NotFound(f"no key {key_id}")
        return info

    def set_sources(
        self,
        key_id: str,
        sources: Iterable[Source | str] | None,
        *,
        user_channel: bool = False,
    ) -> KeyInfo:
        """Replace the sources a key may declare (None: its role's default; e.g. make
        an existing key the user channel it always was). Takes effect at once (on
        every replica: see KEY_CACHE_SECONDS). Raises NotFound for an unknown key,
        ValueError for a bad source."""
        info = self._existing(key_id)
        wanted = None if sources is None else list(sources)
        declared = check_sources(info.role, wanted, user_channel=user_channel)
        self._set(key_id, "sources", _encode_sources(declared))
        self._after_change()
        return self._existing(key_id)

    def set_guard_roles(self, key_id: str, guard_roles: Iterable[str] | None) -> KeyInfo:
        """Replace the guard roles a key may act as (None or empty: none, so the
        guard policy's default role). Takes effect at once. Raises NotFound for an
        unknown key, ValueError for a bad role name."""
        info = self._existing(key_id)
        held = check_guard_roles(info.role, None if guard_roles is None else list(guard_roles))
        self._set(key_id, "guard_roles", ",".join(held))
        self._after_change()
        return self._existing(key_id)

    def is_cached(self, raw: str) -> bool:
        """Whether `authenticate(raw)` would answer from the cache (no storage
        access): the service asks the store off the event loop otherwise."""
        if not raw.startswith(KEY_PREFIX) or len(raw) > 200:
            return True  # refused without looking anything up
        cached = self._cache.get(_hash(raw))
        return cached is not None and cached[1] > time.monotonic()

    def authenticate(self, raw: str | None) -> Principal | None:
        """The principal of an active key, else None. Served from a cache for up to
        `cache_seconds` (dropped at once by any change to the keys)."""
        if not raw or not raw.startswith(KEY_PREFIX) or len(raw) > 200:
            return None
        digest = _hash(raw)
        now = time.monotonic()
        cached = self._cache.get(digest)
        if cached is not None and cached[1] > now:
            return cached[0]
        row = self._active(digest)
        principal = None
        if row is not None:
            role = Role(row[2])
            principal = Principal(
                row[0],
                row[1],
                role,
                _decode_scopes(row[3]),
                _decode_sources(row[4], role),
                _decode_guard_roles(row[5]),
            )
        with self._cache_lock:
            if len(self._cache) > 10_000:
                self._cache.clear()
            self._cache[digest] = (principal, now + self._cache_seconds)
        return principal

    @staticmethod
    def _info(row: Sequence[Any]) -> KeyInfo:
        role = Role(row[2])
        return KeyInfo(
            id=row[0],
            name=row[1],
            role=role,
            namespaces=_decode_scopes(row[3]),
            sources=ordered(_decode_sources(row[7], role)),
            guard_roles=_decode_guard_roles(row[8]),
            hint=row[4],
            created_at=_when(row[5]),
            revoked_at=_when(row[6]) if row[6] else None,
        )

    def list(self, *, include_revoked: bool = True) -> list[KeyInfo]:
        """Every key, oldest first."""
        return [self._info(row) for row in self._rows(None, include_revoked=include_revoked)]

    def get(self, key_id: str) -> KeyInfo | None:
        rows = self._rows(key_id, include_revoked=True)
        return self._info(rows[0]) if rows else None

    def revoke(self, key_id: str) -> KeyInfo:
        """Revoke a key (it stays listed) and end its UI sessions. Raises NotFound
        for an unknown key and KeyConflict for the last active admin key (that
        would lock everyone out)."""
        self._revoke(key_id, datetime.now(UTC))
        self._after_change()
        return self._existing(key_id)

    def ensure_admin(self, name: str = "admin") -> str | None:
        """On a new deployment (no key at all), create the first admin key and
        return it (to be printed once); otherwise None. Atomic: of replicas
        starting together on one database, one makes it."""
        _, raw, row = self._new(name, Role.ADMIN, (), None, False, None)
        if not self._insert(row, only_if_empty=True):
            return None
        self._after_change()
        return raw

    # -- UI sessions (memgate.service.ui.sessions) ------------------------------

    @abstractmethod
    def put_session(self, digest: str, key_id: str, row: SessionRow) -> None:
        """Store (or replace) the session whose cookie token hashes to `digest`."""

    @abstractmethod
    def get_session(self, digest: str) -> SessionRow | None: ...

    @abstractmethod
    def end_session(self, digest: str) -> None: ...

    @abstractmethod
    def prune_sessions(self, idle_before: float, created_before: float) -> int:
        """Delete sessions last seen before `idle_before` or created before
        `created_before`; returns how many."""
