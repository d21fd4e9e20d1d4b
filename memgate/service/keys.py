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
import sqlite3
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum
from pathlib import Path

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

_SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    id          TEXT PRIMARY KEY,
    name        TEXT NOT NULL,
    role        TEXT NOT NULL,
    namespaces  TEXT NOT NULL,
    key_hash    TEXT NOT NULL UNIQUE,
    hint        TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    revoked_at  TEXT,
    sources     TEXT,
    guard_roles TEXT
);
"""
_MIGRATIONS = (
    # Keys made before sources were a property of the key: NULL = the role's default.
    ("sources", "ALTER TABLE api_keys ADD COLUMN sources TEXT"),
    # Keys made before guard roles were a property of the key: NULL = none held.
    ("guard_roles", "ALTER TABLE api_keys ADD COLUMN guard_roles TEXT"),
)
_COLUMNS = "id, name, role, namespaces, hint, created_at, revoked_at, sources, guard_roles"


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


class KeyStore:
    """API keys in their own SQLite file (data_dir/db/keys.sqlite3). Thread-safe:
    the HTTP service calls it from the event loop, the UI from worker threads."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA busy_timeout=5000")
        self._db.executescript(_SCHEMA)
        self._migrate()
        self._lock = threading.Lock()
        self._cache: dict[str, Principal | None] = {}

    def _migrate(self) -> None:
        """Add the columns newer versions keep to a key store made by an older one."""
        have = {row[1] for row in self._db.execute("PRAGMA table_info(api_keys)")}
        for column, sql in _MIGRATIONS:
            if column not in have:
                try:
                    self._db.execute(sql)
                except sqlite3.OperationalError as exc:
                    # NOTE: another process opening the same store may have added it.
                    if "duplicate column" not in str(exc):
                        raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> KeyStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

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
        role = Role(role)
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
        with self._lock:
            self._db.execute(
                "INSERT INTO api_keys"
                " (id, name, role, namespaces, key_hash, hint, created_at, sources, guard_roles)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    info.id,
                    info.name,
                    info.role.value,
                    _encode_scopes(scopes),
                    _hash(raw),
                    info.hint,
                    info.created_at.isoformat(),
                    _encode_sources(declared),
                    ",".join(held),
                ),
            )
        return info, raw

    def set_sources(
        self,
        key_id: str,
        sources: Iterable[Source | str] | None,
        *,
        user_channel: bool = False,
    ) -> KeyInfo:
        """Replace the sources a key may declare (None: its role's default; e.g. make
        an existing key the user channel it always was). Takes effect at once.
        Raises NotFound for an unknown key, ValueError for a bad source."""
        info = self.get(key_id)
        if info is None:
            raise NotFound(f"no key {key_id}")
        wanted = None if sources is None else list(sources)
        declared = check_sources(info.role, wanted, user_channel=user_channel)
        with self._lock:
            self._db.execute(
                "UPDATE api_keys SET sources = ? WHERE id = ?",
                (_encode_sources(declared), key_id),
            )
            self._cache.clear()
        changed = self.get(key_id)
        assert changed is not None  # noqa: S101 - keys are never deleted
        return changed

    def set_guard_roles(self, key_id: str, guard_roles: Iterable[str] | None) -> KeyInfo:
        """Replace the guard roles a key may act as (None or empty: none, so the
        guard policy's default role). Takes effect at once. Raises NotFound for an
        unknown key, ValueError for a bad role name."""
        info = self.get(key_id)
        if info is None:
            raise NotFound(f"no key {key_id}")
        held = check_guard_roles(info.role, None if guard_roles is None else list(guard_roles))
        with self._lock:
            self._db.execute(
                "UPDATE api_keys SET guard_roles = ? WHERE id = ?", (",".join(held), key_id)
            )
            self._cache.clear()
        changed = self.get(key_id)
        assert changed is not None  # noqa: S101 - keys are never deleted
        return changed

    def authenticate(self, raw: str | None) -> Principal | None:
        """The principal of an active key, else None."""
        if not raw or not raw.startswith(KEY_PREFIX) or len(raw) > 200:
            return None
        digest = _hash(raw)
        if digest in self._cache:
            return self._cache[digest]
        with self._lock:
            row = self._db.execute(
                "SELECT id, name, role, namespaces, sources, guard_roles FROM api_keys"
                " WHERE key_hash = ? AND revoked_at IS NULL",
                (digest,),
            ).fetchone()
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
            if len(self._cache) > 10_000:
                self._cache.clear()
            self._cache[digest] = principal
        return principal

    def _info(self, row: tuple[str, ...]) -> KeyInfo:
        role = Role(row[2])
        return KeyInfo(
            id=row[0],
            name=row[1],
            role=role,
            namespaces=_decode_scopes(row[3]),
            sources=ordered(_decode_sources(row[7], role)),
            guard_roles=_decode_guard_roles(row[8]),
            hint=row[4],
            created_at=datetime.fromisoformat(row[5]),
            revoked_at=datetime.fromisoformat(row[6]) if row[6] else None,
        )

    def list(self, *, include_revoked: bool = True) -> list[KeyInfo]:
        """Every key, oldest first."""
        sql = f"SELECT {_COLUMNS} FROM api_keys"  # noqa: S608 - constant column list
        if not include_revoked:
            sql += " WHERE revoked_at IS NULL"
        with self._lock:
            rows = self._db.execute(sql + " ORDER BY created_at, id").fetchall()
        return [self._info(row) for row in rows]

    def get(self, key_id: str) -> KeyInfo | None:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_COLUMNS} FROM api_keys WHERE id = ?",  # noqa: S608 - constant
                (key_id,),
            ).fetchone()
        return None if row is None else self._info(row)

    def revoke(self, key_id: str) -> KeyInfo:
        """Revoke a key (it stays listed). Raises NotFound for an unknown key and
        KeyConflict for the last active admin key (that would lock everyone out)."""
        with self._lock:
            row = self._db.execute(
                "SELECT role, revoked_at FROM api_keys WHERE id = ?", (key_id,)
            ).fetchone()
            if row is None:
                raise NotFound(f"no key {key_id}")
            if row[1] is None and row[0] == Role.ADMIN.value:
                (admins,) = self._db.execute(
                    "SELECT count(*) FROM api_keys WHERE role = ? AND revoked_at IS NULL",
                    (Role.ADMIN.value,),
                ).fetchone()
                if admins <= 1:
                    raise KeyConflict(f"{key_id} is the last active admin key")
            self._db.execute(
                "UPDATE api_keys SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?",
                (datetime.now(UTC).isoformat(), key_id),
            )
            self._cache.clear()
        info = self.get(key_id)
        assert info is not None  # noqa: S101 - just read under the lock
        return info

    def ensure_admin(self, name: str = "admin") -> str | None:
        """On a new data directory (no key at all), create the first admin key and
        return it (to be printed once); otherwise None."""
        with self._lock:
            (count,) = self._db.execute("SELECT count(*) FROM api_keys").fetchone()
        if count:
            return None
        _, raw = self.create(name, Role.ADMIN)
        return raw
