"""Values, not strings: sensitive values seen in tool results, stored only as
keyed fingerprints of the value and of its common encodings, each linked to the
call that read it.

A secret read as `sk_live_...` and later sent base64-encoded, hex-encoded,
URL-encoded, with its whitespace stripped, or split in two halves across
arguments still matches: every such form of the value is fingerprinted when the
value is read, and every word of a later call's arguments is fingerprinted and
looked up. The store is SQLite (WAL) holding fingerprints, call ids and times;
the value itself never reaches it.
"""

from __future__ import annotations

import base64
import re
import sqlite3
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

Fingerprint = Callable[[str], str]
WindowHits = Callable[[str, float, float], int]
"""Record one event of a key now; its events within the span, this one included."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS guard_values (
    fp         TEXT NOT NULL,   -- keyed fingerprint of one form of the value
    value_fp   TEXT NOT NULL,   -- the scanner's fingerprint of the value itself
    form       TEXT NOT NULL,   -- literal, base64, hex, url, stripped, half
    rule_id    TEXT,
    call_id    TEXT NOT NULL,
    session_id TEXT,
    agent_id   TEXT,
    tool       TEXT,
    at         REAL NOT NULL,
    PRIMARY KEY (fp, call_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS guard_calls (
    call_id    TEXT PRIMARY KEY,
    session_id TEXT,
    agent_id   TEXT,
    tool       TEXT NOT NULL,
    at         REAL NOT NULL,
    decision   TEXT NOT NULL,
    layer      TEXT NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS guard_feed (
    name       TEXT PRIMARY KEY,  -- events | reads: how far the memory feed has read
    cursor     INTEGER NOT NULL
) WITHOUT ROWID;
"""
MEMORY_COLUMN = "ALTER TABLE guard_values ADD COLUMN memory_id TEXT"
"""Added to files made before memory reads and writes were flow sources."""
MEMORY_INDEX = (
    "CREATE INDEX IF NOT EXISTS guard_values_memory ON guard_values (memory_id, tool)"
    " WHERE memory_id IS NOT NULL"
)
_INSERT_VALUE = (
    "INSERT OR IGNORE INTO guard_values"
    " (fp, value_fp, form, rule_id, call_id, session_id, agent_id, tool, at, memory_id)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
LOOKUP_CHUNK = 400
_INSERT_CALL = "INSERT OR REPLACE INTO guard_calls VALUES (?, ?, ?, ?, ?, ?, ?)"
CallRow = tuple[str, str | None, str | None, str, float, str, str]
"""call id, session, agent, tool, time, decision, layer."""

_TAG = re.compile(r"\[REDACTED:([A-Za-z0-9_.-]+):([0-9a-f]{16})\]")
_COARSE = re.compile(r"[\s'\"`]+")
_MEDIUM = re.compile(r"[\s'\"`,;?()<>{}\[\]|\\=:]+")
_FINE = re.compile(r"[\s'\"`,;?()<>{}\[\]|\\=:/@&]+")
_WS = re.compile(r"\s+")


def forms(value: str, split_min: int) -> dict[str, str]:
    """The value and its common re-encodings, by form name."""
    raw = value.encode("utf-8", "surrogatepass")
    out = {"literal": value}
    stripped = _WS.sub("", value)
    if stripped != value:
        out["stripped"] = stripped
    b64 = base64.b64encode(raw).decode()
    out["base64"] = b64
    out["base64-nopad"] = b64.rstrip("=")
    out["base64url"] = base64.urlsafe_b64encode(raw).decode().rstrip("=")
    out["base64-newline"] = base64.b64encode(raw + b"\n").decode()
    out["hex"] = raw.hex()
    out["hex-upper"] = raw.hex().upper()
    encoded = quote(value, safe="")
    if encoded != value:
        out["url"] = encoded
    if len(value) >= split_min:
        half = len(value) // 2
        out["half-1"] = value[:half]
        out["half-2"] = value[half:]
    return out


_EMAIL = re.compile(r"^<?([A-Za-z0-9._%+-]{1,64})@([A-Za-z0-9.-]{1,253}\.[A-Za-z]{2,24})>?[.,;]?$")
_DOTLESS = frozenset({"gmail.com", "googlemail.com"})


def alias_form(address: str) -> str | None:
    """The canonical mailbox an e-mail address reaches, as a keyed-hash input:
    lower case, no `+tag`, no dots for Gmail (`Jane.Doe+x@Example.com` and
    `jane.doe@example.com` are one customer). None for a non-address."""
    found = _EMAIL.match(address.strip())
    if found is None:
        return None
    local, domain = found.group(1).lower().split("+", 1)[0], found.group(2).lower()
    if domain in _DOTLESS:
        local, domain = local.replace(".", ""), "gmail.com"
    return f"\x00alias:{local}@{domain}" if local else None


def alias_key(word: str) -> str | None:
    """`alias_form` of a word of an argument (`mailto:` and `to=` prefixes dropped)."""
    tail = word.rsplit(":", 1)[-1].rsplit("=", 1)[-1]
    return alias_form(tail)


def words(text: str, min_len: int, limit: int) -> set[str]:
    """The words of an argument a value could hide in, at three grains of
    splitting (a base64 word keeps its `/` and `=` at the coarse grain)."""
    out: set[str] = set()
    for pattern in (_COARSE, _MEDIUM, _FINE):
        for word in pattern.split(text):
            if len(word) >= min_len:
                out.add(word)
                if len(out) >= limit:
                    return out
    return out


_B64_WORD = re.compile(r"[A-Za-z0-9+/_-]{16,}={0,2}")
_HEX_WORD = re.compile(r"(?:[0-9a-fA-F]{2}){8,}")
_PRINTABLE = re.compile(r"[\x20-\x7e\t\n\r]+")
MAX_DECODED_WORD = 4096


def decoded_words(word: str, min_len: int) -> list[tuple[str, str]]:
    """(form, text) for what a base64 (standard or URL-safe, padded or not) or hex
    word decodes to, when that is printable text: the text itself and, split as
    `words` splits, its words at least `min_len` long. Empty for anything else
    (most words: the checks are a character class and a length)."""
    if len(word) > MAX_DECODED_WORD or len(word) < 16:
        return []
    raw: bytes | None = None
    form = "hex"
    if _HEX_WORD.fullmatch(word):
        raw = bytes.fromhex(word)
    elif _B64_WORD.fullmatch(word):
        form = "base64"
        body = word.rstrip("=")
        padded = body + "=" * (-len(body) % 4)
        try:
            if "-" in body or "_" in body:
                raw = base64.urlsafe_b64decode(padded)
            else:
                raw = base64.b64decode(padded, validate=True)
        except (ValueError, TypeError):
            return []
    if raw is None:
        return []
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        return []
    if not _PRINTABLE.fullmatch(text):
        return []
    out = [(form, text.strip())]
    out.extend((form, w) for w in sorted(words(text, min_len, 64)) if w != text.strip())
    return out


def sensitive_values(
    original: str, redacted: str, fingerprint: Fingerprint
) -> list[tuple[str, str, str]]:
    """(value, rule id, fingerprint) for each value the scanner redacted, found by
    aligning the redacted text with the original (each candidate checked
    against the tag's fingerprint)."""
    out: list[tuple[str, str, str]] = []
    tags = list(_TAG.finditer(redacted))
    pos_o = 0
    pos_r = 0
    for index, tag in enumerate(tags):
        literal = redacted[pos_r : tag.start()]
        start = pos_o + len(literal)
        if original[pos_o:start] != literal:
            break  # the texts do not align (a tag-like string in the original)
        end_r = tags[index + 1].start() if index + 1 < len(tags) else len(redacted)
        following = redacted[tag.end() : end_r]
        end = _value_end(
            original, start, following, tag.group(2), fingerprint, last=end_r == len(redacted)
        )
        if end is None:
            break
        out.append((original[start:end], tag.group(1), tag.group(2)))
        pos_o, pos_r = end, tag.end()
    return out


def _value_end(
    original: str, start: int, following: str, fp: str, fingerprint: Fingerprint, *, last: bool
) -> int | None:
    if not following:
        return len(original) if last else None
    first: int | None = None
    at = original.find(following, start + 1)
    tries = 0
    while at != -1 and tries < 64:
        if first is None:
            first = at
        if fingerprint(original[start:at]) == fp:
            return at
        at = original.find(following, at + 1)
        tries += 1
    return first  # a merged span: its tag names the first value only


@dataclass(frozen=True, slots=True)
class Sighting:
    """A form of a sensitive value, read by an earlier call."""

    fp: str
    value_fp: str
    form: str
    rule_id: str | None
    call_id: str
    session_id: str | None
    agent_id: str | None
    tool: str | None
    at: float
    memory_id: str | None = None
    """A memory's value: written into it (tool `memory.write`) or read from it
    (`memory.read`), by the memory feed (memgate.guard.memory_feed)."""


class ValueStore:
    """Durable fingerprints of sensitive values and the calls that read them.
    One connection, serialized by a lock (calls are short)."""

    def __init__(self, path: Path | str) -> None:
        self.path = path
        if isinstance(path, Path):
            path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=2000")
            self._db.executescript(SCHEMA)
            columns = {row[1] for row in self._db.execute("PRAGMA table_info(guard_values)")}
            if "memory_id" not in columns:
                self._db.execute(MEMORY_COLUMN)
            self._db.execute(MEMORY_INDEX)

    # -- the guard's other tables (trust counters, tool pins) share the file --

    def executescript(self, script: str) -> None:
        with self._lock:
            self._db.executescript(script)

    def execute(self, sql: str, params: Sequence[Any]) -> None:
        with self._lock:
            self._db.execute(sql, params)

    def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Many rows in one transaction."""
        if not rows:
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(sql, rows)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def fetch(self, sql: str, params: Sequence[Any]) -> list[tuple[Any, ...]]:
        with self._lock:
            return list(self._db.execute(sql, params).fetchall())

    def add(self, rows: Sequence[Sighting]) -> None:
        if not rows:
            return
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                self._db.executemany(
                    _INSERT_VALUE,
                    [
                        (r.fp, r.value_fp, r.form, r.rule_id, r.call_id, r.session_id,
                         r.agent_id, r.tool, r.at, r.memory_id)
                        for r in rows
                    ],
                )  # fmt: skip
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def lookup(self, fps: Iterable[str], per_value: int = 5) -> list[Sighting]:
        """Sightings of any of these fingerprints, newest first, at most
        `per_value` reads per fingerprint."""
        wanted = sorted(set(fps))
        out: list[Sighting] = []
        with self._lock:
            for i in range(0, len(wanted), LOOKUP_CHUNK):
                chunk = wanted[i : i + LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    "SELECT fp, value_fp, form, rule_id, call_id, session_id, agent_id, tool, at,"  # noqa: S608 - only ? marks
                    " memory_id"
                    f" FROM guard_values WHERE fp IN ({marks}) ORDER BY at DESC",
                    chunk,
                ).fetchall()
                seen: dict[str, int] = {}
                for row in rows:
                    seen[row[0]] = seen.get(row[0], 0) + 1
                    if seen[row[0]] <= per_value:
                        out.append(Sighting(*row))
        return out

    def memory_values(self, memory_ids: Sequence[str]) -> dict[str, list[tuple[str, str | None]]]:
        """(value fingerprint, rule id) of the sensitive values written into each memory."""
        wanted = sorted(set(memory_ids))
        out: dict[str, list[tuple[str, str | None]]] = {}
        with self._lock:
            for i in range(0, len(wanted), LOOKUP_CHUNK):
                chunk = wanted[i : i + LOOKUP_CHUNK]
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    "SELECT DISTINCT memory_id, value_fp, rule_id FROM guard_values"  # noqa: S608 - only ? marks
                    f" WHERE memory_id IN ({marks}) AND tool = 'memory.write'",
                    chunk,
                ).fetchall()
                for memory_id, value_fp, rule_id in rows:
                    out.setdefault(memory_id, []).append((value_fp, rule_id))
        return out

    def cursor(self, name: str) -> int:
        with self._lock:
            row = self._db.execute(
                "SELECT cursor FROM guard_feed WHERE name = ?", (name,)
            ).fetchone()
        return int(row[0]) if row else 0

    def add_fed(self, rows: Sequence[Sighting], cursors: dict[str, int]) -> None:
        """Sightings from the memory feed and how far it has read, in one transaction."""
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                if rows:
                    self._db.executemany(
                        _INSERT_VALUE,
                        [
                            (r.fp, r.value_fp, r.form, r.rule_id, r.call_id, r.session_id,
                             r.agent_id, r.tool, r.at, r.memory_id)
                            for r in rows
                        ],
                    )  # fmt: skip
                self._db.executemany(
                    "INSERT OR REPLACE INTO guard_feed VALUES (?, ?)", list(cursors.items())
                )
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise

    def record_call(
        self,
        call_id: str,
        session_id: str | None,
        agent_id: str | None,
        tool: str,
        at: float,
        decision: str,
        layer: str,
    ) -> None:
        with self._lock:
            self._db.execute(
                _INSERT_CALL,
                (call_id, session_id, agent_id, tool, at, decision, layer),
            )

    def record_calls(
        self, rows: Sequence[tuple[str, str | None, str | None, str, float, str, str]]
    ) -> None:
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.executemany(
                "INSERT OR REPLACE INTO guard_calls VALUES (?, ?, ?, ?, ?, ?, ?)", rows
            )
            self._db.execute("COMMIT")

    def call(self, call_id: str) -> tuple[str | None, str | None, str] | None:
        """(session, agent, tool) of a recorded call."""
        with self._lock:
            row = self._db.execute(
                "SELECT session_id, agent_id, tool FROM guard_calls WHERE call_id = ?", (call_id,)
            ).fetchone()
        return None if row is None else (row[0], row[1], row[2])

    def decision(self, call_id: str) -> str | None:
        """The decision recorded for a call (allow, ask, deny, rewrite), if any."""
        with self._lock:
            row = self._db.execute(
                "SELECT decision FROM guard_calls WHERE call_id = ?", (call_id,)
            ).fetchone()
        return None if row is None else str(row[0])

    def window_hits(self) -> WindowHits | None:
        """A rate window every replica shares (`hit(key, now, span)` -> calls of
        `key` within `span` seconds, this one included); None when this store is
        one process's own and the call-chain tracker counts in memory."""
        return None

    def counts(self) -> tuple[int, int]:
        """(recorded calls, stored value fingerprints)."""
        with self._lock:
            calls = self._db.execute("SELECT count(*) FROM guard_calls").fetchone()[0]
            values = self._db.execute("SELECT count(*) FROM guard_values").fetchone()[0]
        return int(calls), int(values)

    def close(self) -> None:
        with self._lock:
            self._db.close()
