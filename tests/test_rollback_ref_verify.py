"""Verify checks a compensating event's reference (issue 18), on every backend.

The chain MAC only proves an entry is the key holder's. A reference written
wrong (a bug, or someone with the key) resolves to nothing in replay while its
row serves an item, so verify checks each reference against the event it names
(`memgate.log.references`): appended through the store with one part wrong,
or edited in the stored log with the chain MACs recomputed with the key, every
part of it (seq, MAC, pool, state, version, op) fails verify at that event; a
sound one, and a whole rollback and its undo, pass."""

from __future__ import annotations

import asyncio
import json
import shutil
import sqlite3
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import msgspec
import psycopg
import pytest

from memgate.domain.events import Event, Op, canonical_json
from memgate.domain.memory import MemoryState
from memgate.domain.raw import Version
from memgate.gateway.rollback import json_time
from memgate.log.integrity import RowSeal
from memgate.log.references import (
    Noted,
    _sqlite_walk,
    first_fault,
    reference_fault,
    sqlite_first_fault,
)
from memgate.store.memory import MemoryStore
from memgate.store.postgres import PostgresStore
from memgate.store.sqlite import SqliteStore
from memgate.store.sqlite_integrity import check_served
from tests.contracts.tamper_contract import rechain
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - the fixture
from tests.test_rollback_refs import KEY, START, Opener, gateway, history_events, opener  # noqa: F401

AT = START + timedelta(days=3)
Store = MemoryStore | SqliteStore | PostgresStore


def restoring(origin: Version, **changes: Any) -> Event:
    """A compensating event putting back `origin`'s item (with `changes`), named by
    `origin`'s seq and MAC (which may be wrong: the point of these tests)."""
    item = msgspec.structs.replace(
        origin.item,
        **{"version": origin.item.version + 1, "updated_at": json_time(AT), **changes},
    )
    return Event.restoring(
        at=AT,
        actor="ops",
        reason="test",
        state_before=MemoryState(origin.item.state),
        origin=origin,
        item=item,
    )


def _served_long(versions: dict[str, Version]) -> list[str]:
    return sorted(k for k, v in versions.items() if v.item.pool == "long")


Forge = Callable[[Store, dict[str, Version], int], Any]


async def _sound(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    a = versions[_served_long(versions)[0]]
    return [restoring(a, state=MemoryState.DELETED.value)]


async def _dangling(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    a = versions[_served_long(versions)[0]]
    return [restoring(Version(head + 100, a.mac, a.item))]


async def _seq_zero(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    a = versions[_served_long(versions)[0]]
    return [restoring(Version(0, a.mac, a.item))]


async def _seq_itself(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    a = versions[_served_long(versions)[0]]
    return [restoring(Version(head + 1, a.mac, a.item))]


async def _other_memory(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    ids = _served_long(versions)
    a, b = versions[ids[0]], versions[ids[1]]
    return [restoring(Version(b.seq, b.mac, a.item))]


async def _wrong_mac(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    a = versions[_served_long(versions)[0]]
    return [restoring(Version(a.seq, "0" * 64, a.item))]


async def _other_mac(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    ids = _served_long(versions)
    a, b = versions[ids[0]], versions[ids[1]]
    return [restoring(Version(a.seq, b.mac, a.item))]


async def _two_hops(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    """A sound reference first (appended here), then one naming it."""
    a = versions[_served_long(versions)[0]]
    (first,) = await store.append([restoring(a, state=MemoryState.DELETED.value)])
    resolved = msgspec.structs.replace(a.item, version=a.item.version + 1)
    return [restoring(Version(first.seq, first.mac, resolved))]


async def _pool(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    a = versions[_served_long(versions)[0]]
    return [restoring(a, pool="short", state=MemoryState.TRANSIENT.value)]


async def _state(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    a = versions[_served_long(versions)[0]]
    event = restoring(a, state=MemoryState.APPROVED.value)
    assert event.restores is not None
    wrong = event.restores.model_copy(update={"state": MemoryState.REJECTED})
    return [event.model_copy(update={"restores": wrong})]


async def _version(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    a = versions[_served_long(versions)[0]]
    return [restoring(a, version=a.item.version)]


async def _op(store: Store, versions: dict[str, Version], head: int) -> list[Event]:
    a = versions[_served_long(versions)[0]]
    return [restoring(a).model_copy(update={"op": Op.EDITED})]


FORGERIES: dict[str, Forge] = {
    "dangling seq": _dangling,
    "seq 0": _seq_zero,
    "its own seq": _seq_itself,
    "another memory's event": _other_memory,
    "a reference to a reference": _two_hops,
    "wrong MAC": _wrong_mac,
    "another event's MAC": _other_mac,
    "another pool": _pool,
    "state not state_after": _state,
    "version not above": _version,
    "not a rolled_back event": _op,
}


STILL_RESOLVED = {"state not state_after", "version not above", "not a rolled_back event"}
"""Forgeries replay still resolves (`replay.resolve` checks what makes the named
item fit: event, MAC, memory, pool, one hop; not the reference's own fields)."""


@pytest.mark.parametrize("forgery", [None, *FORGERIES])
def test_a_reference_that_does_not_hold_fails_verify_at_its_event(
    opener: Opener,  # noqa: F811
    forgery: str | None,
) -> None:
    async def scenario() -> None:
        store = await opener()
        try:
            await store.append(list(history_events(20)))
            head = (await store.checkpoint()).seq
            versions = await store.changed_versions(0, head)
            make = _sound if forgery is None else FORGERIES[forgery]
            events = await make(store, versions, head)
            (record,) = await store.append(events)
            # replay (point-in-time reads), alike on every backend: a reference
            # that names no fit item resolves to nothing (the memory keeps its
            # item); one whose own state, version or op is off still resolves
            # (replay reads what the entry says; verify names it)
            memory_id = record.event.memory_id
            then = (await store.state_at(record.seq - 1)).get(memory_id)
            now = (await store.state_at(record.seq)).get(memory_id)
            result = await store.verify()
            if forgery is None:
                assert result.ok, result.reason
                assert now is not None and now["state"] == "deleted" and now != then
                return
            assert (now == then) == (forgery not in STILL_RESOLVED), (now, then)
            assert not result.ok
            assert result.first_bad_seq == record.seq, result.reason
            assert result.reason is not None and "reference does not hold" in result.reason
            # the chain itself holds: the reference check names it
            assert result.checked == record.seq
        finally:
            await store.close()

    asyncio.run(scenario())


# -- the stored log edited, the chain MACs recomputed with the key ---------------------


PARTS: dict[str, Callable[[dict[str, Any]], Any]] = {
    "seq": lambda ref: 10**6,
    "mac": lambda ref: "f" * 64,
    "pool": lambda ref: "short" if ref["pool"] == "long" else "long",
    "state": lambda ref: "rejected" if ref["state"] != "rejected" else "approved",
    "version": lambda ref: 0,
}


class _Sql:
    """A raw connection with the append-only guard off (as the tamper suite's)."""

    def __init__(self, run: Callable[..., Any], marks: str) -> None:
        self._run, self._marks = run, marks

    def execute(self, sql: str, params: Any = ()) -> None:
        self._run(sql.replace("?", self._marks), tuple(params))

    def fetchall(self, sql: str, params: Any = ()) -> list[tuple[Any, ...]]:
        return list(self._run(sql.replace("?", self._marks), tuple(params)).fetchall())


def _edit(db: _Sql, seq: int, part: str, mac_too: bool) -> None:
    (row,) = db.fetchall("SELECT entry FROM events WHERE seq = ?", (seq,))
    data = json.loads(bytes(row[0]))
    data["restores"][part] = PARTS[part](data["restores"])
    db.execute("UPDATE events SET entry = ? WHERE seq = ?", (canonical_json(data), seq))
    if mac_too:
        rechain(db, seq, KEY)


async def _rolled_back(store: Store) -> int:
    """A real rollback and its undo; returns the seq of its first reference."""
    await store.append(list(history_events(40)))
    gw = await gateway(store)
    try:
        head = (await gw.checkpoint()).seq
        await gw.rollback(to=head // 2, reason="r", actor="ops", dry_run=False)
        await gw.rollback(to=head, reason="undo", actor="ops", dry_run=False)
        assert (await gw.verify()).ok
        for record in await store.records(after_seq=head, limit=1000):
            if record.event.restores is not None:
                return record.seq
        raise AssertionError("no reference written")
    finally:
        await gw.close()


@pytest.mark.parametrize("mac_too", [False, True], ids=["entry-only", "rechained-with-key"])
@pytest.mark.parametrize("part", sorted(PARTS))
def test_each_part_of_a_stored_reference_edited_fails_verify_sqlite(
    tmp_path: Path, part: str, mac_too: bool
) -> None:
    template = tmp_path / "template.sqlite3"

    async def build() -> int:
        return await _rolled_back(await SqliteStore.open(template, KEY))

    seq = asyncio.run(build())
    path = tmp_path / "m.sqlite3"
    shutil.copy(template, path)
    db = sqlite3.connect(path)
    try:
        db.execute("DROP TRIGGER events_no_update")
        _edit(_Sql(db.execute, "?"), seq, part, mac_too)
        db.commit()
    finally:
        db.close()
    _assert_named(asyncio.run(_verify(SqliteStore.open(path, KEY))), seq, mac_too)


@pytest.mark.parametrize("mac_too", [False, True], ids=["entry-only", "rechained-with-key"])
@pytest.mark.parametrize("part", sorted(PARTS))
def test_each_part_of_a_stored_reference_edited_fails_verify_postgres(
    postgres: PgServer,  # noqa: F811
    part: str,
    mac_too: bool,
) -> None:
    url = postgres.fresh_url()

    async def build() -> int:
        return await _rolled_back(await PostgresStore.open(url, KEY))

    seq = asyncio.run(build())
    with psycopg.connect(url) as conn, conn.transaction():
        conn.execute("SET LOCAL session_replication_role = replica")  # no triggers
        _edit(_Sql(lambda q, p: conn.execute(q.encode(), p), "%s"), seq, part, mac_too)
    _assert_named(asyncio.run(_verify(PostgresStore.open(url, KEY))), seq, mac_too)


async def _verify(opening: Any) -> Any:
    store = await opening
    try:
        return await store.verify()
    finally:
        await store.close()


def _assert_named(result: Any, seq: int, mac_too: bool) -> None:
    assert not result.ok
    assert result.first_bad_seq == seq, result.reason
    if mac_too:  # the MACs hold again: only the reference check can name it
        assert "reference does not hold" in str(result.reason), result.reason
        assert result.checked > seq
    else:
        assert result.checked == seq - 1


def test_the_rule_passes_what_replay_resolves() -> None:
    """`reference_fault` and replay's `resolve` agree on a sound reference and on
    an entry that is no reference (an item whose metadata spells the key)."""
    base = canonical_json(
        {
            "memory_id": "m1",
            "op": "admitted",
            "item": {"id": "m1", "pool": "long", "state": "approved", "version": 1},
        }
    )
    ref = {"seq": 1, "mac": "ab" * 32, "pool": "long", "state": "deleted", "version": 2}
    entry = {"memory_id": "m1", "op": "rolled_back", "state_after": "deleted", "restores": ref}
    assert reference_fault(2, canonical_json(entry), base, "ab" * 32) is None
    not_one = {"memory_id": "m2", "op": "admitted", "item": {"metadata": {"restores": {}}}}
    assert reference_fault(3, canonical_json(not_one), None, None) is None
    for key in ref:
        bad = {**entry, "restores": {**ref, key: "x" if key != "mac" else "cd" * 32}}
        assert reference_fault(2, canonical_json(bad), base, "ab" * 32) is not None, key


def test_sqlites_rule_in_sql_and_its_python_walk_agree(tmp_path: Path) -> None:
    """The SQL pre-check finds what Python's walk finds, and an entry SQLite's JSON
    cannot read (under a MAC recomputed with the key) sends verify to the walk
    instead of failing it."""

    async def build(path: Path, forge: Forge) -> int:
        store = await SqliteStore.open(path, KEY)
        try:
            await store.append(list(history_events(20)))
            head = (await store.checkpoint()).seq
            versions = await store.changed_versions(0, head)
            (record,) = await store.append(await forge(store, versions, head))
            return record.seq
        finally:
            await store.close()

    for name, forge in (("sound", _sound), *FORGERIES.items()):
        path = tmp_path / f"{name.replace(' ', '_')}.sqlite3"
        seq = asyncio.run(build(path, forge))
        db = sqlite3.connect(path)
        try:
            db.execute("BEGIN")
            in_sql = sqlite_first_fault(db)
            walked = first_fault(_sqlite_walk(db, 0))
            noted = Noted()  # as verify does: the served check lists the references
            check_served(db, RowSeal(KEY), noted)
            listed = sqlite_first_fault(db, noted=noted)
        finally:
            db.close()
        assert noted.complete and len(noted.seqs) == (
            2 if name == "a reference to a reference" else 1
        )
        assert in_sql == walked == listed, name
        assert (in_sql is None) == (name == "sound"), name
        assert in_sql is None or in_sql[0] == seq
    path = tmp_path / "sound.sqlite3"
    db = sqlite3.connect(path)
    try:
        db.execute("DROP TRIGGER events_no_update")
        (last,) = db.execute("SELECT max(seq) FROM events").fetchone()
        db.execute("UPDATE events SET entry = ? WHERE seq = ?", (b'{"restores":{"seq":1,', last))
        rechain(_Sql(db.execute, "?"), last, KEY)
        db.commit()
        db.execute("BEGIN")
        assert sqlite_first_fault(db) is None  # not JSON: no reference to check
    finally:
        db.close()
    result = asyncio.run(_verify(SqliteStore.open(path, KEY)))
    assert result.checked == last and not result.ok  # the chain holds; its row is stale
