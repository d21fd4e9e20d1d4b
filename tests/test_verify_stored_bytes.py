"""Verify over stored bytes (`memgate.store.sqlite_integrity`: `verify_events`,
`check_served`'s fast path): the MAC inputs SQLite builds are the exact bytes the
writer MACed, a batch that fails is walked the exact way, and every verdict is
the reference walk's (`verify_rows`, `served.check_served`), on untouched and
tampered stores, at every batch boundary. Real SQLite files, edited with sqlite3
as an attacker would."""

from __future__ import annotations

import contextlib
import hmac
import shutil
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memgate.domain.events import Checkpoint, Event, VerifyResult
from memgate.domain.ports import ReadRecord
from memgate.log.chain import GENESIS, Hmacs, column_bytes, verify_rows
from memgate.log.integrity import RowSeal, encode
from memgate.store import served
from memgate.store import sqlite_integrity as fast
from memgate.store.sqlite import SqliteStore, verify_file
from tests import test_log_tamper as tamper
from tests.contracts import KEY, T0, event_for, long_item, run, short_item

ODD = "naïve 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 ‮ e\u0301 |5:x| 日本"
"""Text whose length in characters differs from its length in bytes, with the
encoding's own separators in it."""


def _events() -> list[Event]:
    events = []
    for i in range(40):
        if i % 5 == 4:
            item = short_item(id=f"short-{i % 3}", content=f"{ODD} short {i}")
        else:
            item = long_item(id=f"mem-{i % 7}", content=f"{ODD} note {i}", key=f"k{i % 7}")
        actor = ODD if i % 6 == 0 else f"agent-{i % 2}"
        reason = None if i % 2 else f"because {ODD}"
        events.append(event_for(item, actor=actor, reason=reason))
    return events


async def _build(path: Path) -> Checkpoint:
    store = await SqliteStore.open(path, KEY)
    try:
        await store.append(_events()[:25])
        reads = [
            ReadRecord(memory_id=f"mem-{i % 7}", at=T0, session_id=ODD if i % 3 else None)
            for i in range(30)
        ]
        await store.record_reads(reads)
        await store.append(_events()[25:])
        await store.flush()
        return await store.checkpoint()
    finally:
        await store.close()


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Checkpoint]:
    path = tmp_path_factory.mktemp("stored-bytes") / "memgate.db"
    return path, run(_build(path))


@pytest.fixture
def store_file(template: tuple[Path, Checkpoint], tmp_path: Path) -> Path:
    path = tmp_path / "memgate.db"
    shutil.copyfile(template[0], path)
    return path


@contextlib.contextmanager
def snapshot(path: Path) -> Iterator[sqlite3.Connection]:
    with contextlib.closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("BEGIN")
        yield db


def edit(path: Path, *statements: tuple[str, tuple[Any, ...]]) -> None:
    with contextlib.closing(sqlite3.connect(path)) as db:
        db.execute("DROP TRIGGER IF EXISTS events_no_update")
        db.execute("DROP TRIGGER IF EXISTS events_no_delete")
        for sql, params in statements:
            db.execute(sql, params)
        db.commit()


def reference(path: Path, checkpoint: Checkpoint | None = None) -> VerifyResult:
    """What verify said before the fast paths: the exact walks only."""
    with snapshot(path) as db:
        chain = verify_rows(KEY, fast.event_rows(db), checkpoint)
        check = served.check_served(fast._Snapshot(db), RowSeal(KEY))
    return served.served_verdict(chain, check, None)


def verified(path: Path, checkpoint: Checkpoint | None = None) -> VerifyResult:
    """The store file's verify, without the page check (compared field by field)."""
    with snapshot(path) as db:
        chain = fast.verify_events(db, KEY, checkpoint=checkpoint)
        check = fast.check_served(db, RowSeal(KEY))
    return served.served_verdict(chain, check, None)


# -- the bytes --------------------------------------------------------------------------


@given(
    key=st.binary(min_size=16, max_size=200),
    messages=st.lists(st.binary(max_size=3000), max_size=8),
)
def test_hmacs_are_hmac_sha256(key: bytes, messages: list[bytes]) -> None:
    want = [hmac.digest(key, m, "sha256") for m in messages]
    assert Hmacs(key).digests(messages) == want
    assert Hmacs(key).hexes(messages) == "".join(w.hex() for w in want)
    assert [Hmacs(key).hexdigest(m) for m in messages] == [w.hex() for w in want]


def test_chain_input_is_what_the_writer_macs(store_file: Path) -> None:
    with snapshot(store_file) as db:
        built = db.execute(fast._CHAIN_INPUT, (1, 1 << 62)).fetchall()
        rows = list(fast.event_rows(db))
    assert len(built) == len(rows) == 40
    for (seq, prev, stored, message), (_, entry, _, _, columns) in zip(built, rows, strict=True):
        assert message == b"|".join(
            (prev.encode(), str(seq).encode(), entry, column_bytes(columns))
        )
        assert hmac.digest(KEY, message, "sha256").hex() == stored


@pytest.mark.parametrize(
    ("table", "names"), [("items", fast.ITEM_COLUMNS), ("short_items", fast.SHORT_COLUMNS)]
)
def test_row_input_is_what_the_writer_macs(
    store_file: Path, table: str, names: tuple[str, ...]
) -> None:
    select = fast.ITEM_SELECT if table == "items" else fast.SHORT_SELECT
    sql = (
        f"SELECT id, CAST('{len(table)}:{table}|' ||"  # noqa: S608 - constants
        f" {fast._encoded(*names, 'event_seq', 'event_mac')} AS BLOB) FROM {table} ORDER BY id"
    )
    with snapshot(store_file) as db:
        built = db.execute(sql).fetchall()
        rows = db.execute(f"SELECT {select} FROM {table} ORDER BY id").fetchall()  # noqa: S608
    assert built and len(built) == len(rows)
    seal = RowSeal(KEY)
    for (_, message), row in zip(built, rows, strict=True):
        assert message == encode((table, *row[:-1]))
        assert seal.row_macs.hexes([message]) == row[-1]


def test_read_input_is_what_the_writer_macs(store_file: Path) -> None:
    with snapshot(store_file) as db:
        built = db.execute(fast._READ_INPUT).fetchall()
        rows = db.execute(f"SELECT {fast.READ_SELECT} FROM reads ORDER BY seq").fetchall()  # noqa: S608
    assert len(built) == len(rows) == 30
    prev = GENESIS
    for (seq, stored, message), (_, *fields, mac) in zip(built, rows, strict=True):
        assert message == encode(("read", prev, seq, *fields))
        assert RowSeal(KEY).read_macs.hexes([message]) == stored == mac
        prev = mac


# -- the verdicts -----------------------------------------------------------------------


def test_untouched_store_holds_on_the_fast_path(store_file: Path) -> None:
    with snapshot(store_file) as db:
        check = fast._all_served_hold(db, RowSeal(KEY))
        want = served.check_served(fast._Snapshot(db), RowSeal(KEY))
    assert check is not None  # the fast path vouched: no reference walk
    assert check == want
    assert (check.rows_checked, check.reads_checked, check.count) == (10, 30, 0)
    assert verified(store_file) == reference(store_file)
    assert verified(store_file).ok


def _entry_byte(seq: int) -> Callable[[Path], None]:
    def go(path: Path) -> None:
        with contextlib.closing(sqlite3.connect(path)) as db:
            (blob,) = db.execute("SELECT entry FROM events WHERE seq = ?", (seq,)).fetchone()
        flipped = bytearray(blob)
        flipped[len(flipped) // 2] ^= 0x01
        edit(path, ("UPDATE events SET entry = ? WHERE seq = ?", (bytes(flipped), seq)))

    return go


TAMPERS: dict[str, Callable[[Path], None]] = {
    "event entry": _entry_byte(17),
    "first event": _entry_byte(1),
    "last event": _entry_byte(40),
    "event column": lambda p: edit(p, ("UPDATE events SET actor = 'mallory' WHERE seq = 9", ())),
    "deleted event": lambda p: edit(p, ("DELETE FROM events WHERE seq = 12", ())),
    "truncated log": lambda p: edit(p, ("DELETE FROM events WHERE seq > 33", ())),
    "item content": lambda p: edit(
        p, ("UPDATE items SET content = 'forged' WHERE id = 'mem-3'", ())
    ),
    "item body": lambda p: edit(
        p, ("UPDATE items SET body = replace(body, 'note', 'nope') WHERE id = 'mem-1'", ())
    ),
    "item row MAC": lambda p: edit(p, ("UPDATE items SET row_mac = NULL WHERE id = 'mem-5'", ())),
    "item removed": lambda p: edit(p, ("DELETE FROM items WHERE id = 'mem-2'", ())),
    "stale item": lambda p: edit(
        p,
        (
            "UPDATE items SET event_seq = 1, event_mac = (SELECT mac FROM events WHERE seq = 1)"
            " WHERE id = 'mem-0'",
            (),
        ),
    ),
    "short body": lambda p: edit(
        p, ("UPDATE short_items SET body = body || ' ' WHERE id = 'short-1'", ())
    ),
    "read edited": lambda p: edit(
        p, ("UPDATE reads SET memory_id = 'mem-6' WHERE seq = (SELECT min(seq) + 4 FROM reads)", ())
    ),
    "read removed": lambda p: edit(
        p, ("DELETE FROM reads WHERE seq = (SELECT max(seq) FROM reads)", ())
    ),
    "reads head": lambda p: edit(p, ("UPDATE heads SET tag = 'x' WHERE name = 'reads'", ())),
}


@pytest.mark.parametrize("batch", [fast._BATCH, 1, 3, 7])
@pytest.mark.parametrize("name", sorted(TAMPERS))
def test_tampered_store_gets_the_reference_verdict(
    store_file: Path,
    template: tuple[Path, Checkpoint],
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    batch: int,
) -> None:
    monkeypatch.setattr(fast, "_BATCH", batch)
    TAMPERS[name](store_file)
    head = template[1]
    for checkpoint in (None, head):
        got = verified(store_file, checkpoint)
        assert not got.ok
        assert got == reference(store_file, checkpoint)
    with snapshot(store_file) as db:
        if name.startswith(("item", "stale", "short", "read")):
            assert fast._all_served_hold(db, RowSeal(KEY)) is None


def test_truncated_log_is_named_by_the_checkpoint_at_any_batch(
    store_file: Path, template: tuple[Path, Checkpoint], monkeypatch: pytest.MonkeyPatch
) -> None:
    head = template[1]
    edit(store_file, ("DELETE FROM events WHERE seq > 30", ()))
    for batch in (1, 4, 10, 30, 31, 2048):
        monkeypatch.setattr(fast, "_BATCH", batch)
        with snapshot(store_file) as db:
            result = fast.verify_events(db, KEY, checkpoint=head)
        assert (result.ok, result.checked, result.last_seq) == (False, 30, 30)
        assert result.first_bad_seq == 31
        assert "truncated" in (result.reason or "")
    result = verify_file(store_file, KEY, head)
    assert not result.ok
    assert result.first_bad_seq == 31


def test_a_nul_in_a_column_fails_only_the_fast_check(tmp_path: Path) -> None:
    """SQLite's length() stops at a NUL character: the fast input differs, the walk
    that follows finds the record genuine, and verify says so."""
    path = tmp_path / "memgate.db"

    async def write() -> None:
        store = await SqliteStore.open(path, KEY)
        try:
            item = long_item(id="mem-nul", content="before\x00after")
            await store.append([event_for(item, actor="agent\x00x", reason="r\x00")])
            await store.append([event_for(long_item(id="mem-ok"))])
        finally:
            await store.close()

    run(write())
    with snapshot(path) as db:
        assert fast._all_served_hold(db, RowSeal(KEY)) is None  # the fast check says "maybe"
    result = verify_file(path, KEY)
    assert result.ok, result.reason
    assert (result.checked, result.rows_checked) == (2, 2)
    assert result == reference(path).model_copy(update={"signature_ok": result.signature_ok})


class TestSmallBatchTamper(tamper.TestSqliteTamper):
    """The whole tamper suite with batches of 3 events: every edit lands on a batch
    border or inside one, and verify names the same first bad record."""

    @pytest.fixture(autouse=True)
    def small_batches(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setattr(fast, "_BATCH", 3)
