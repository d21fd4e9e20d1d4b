"""The ValueStore contract on PostgreSQL; and what only a shared value store does:
two stores on one database (two replicas, each with its own data directory) see
each other's fingerprints, decided calls and feed cursors, and count in one rate
window; the database holds fingerprints, never a value."""

from __future__ import annotations

from pathlib import Path

import psycopg
import pytest

from memgate.guard.chain import ChainTracker
from memgate.guard.values import ValueStore
from memgate.guard.values_postgres import PostgresValueStore
from tests.contracts.value_store_contract import ValueStoreContract, sighting
from tests.pg_fixtures import PgServer, pg_server, postgres  # noqa: F401 - fixture

pytestmark = pytest.mark.usefixtures("postgres")


class TestPostgresValueStore(ValueStoreContract):
    @pytest.fixture(autouse=True)
    def _dir(self, tmp_path: Path) -> None:
        self._path = tmp_path / "db" / "guard.sqlite3"

    def make(self) -> ValueStore:
        return PostgresValueStore.open(pg_server().fresh_url(), self._path)


def test_two_replicas_share_values_calls_cursors_and_windows(tmp_path: Path) -> None:
    url = pg_server().fresh_url()
    a = PostgresValueStore.open(url, tmp_path / "a" / "guard.sqlite3")
    b = PostgresValueStore.open(url, tmp_path / "b" / "guard.sqlite3")
    try:
        a.add([sighting("fp-a", "call_1", 5.0)])
        assert [s.call_id for s in b.lookup(["fp-a"])] == ["call_1"]
        b.record_call("call_2", "s1", "bot", "Bash", 6.0, "deny", "flow")
        assert a.decision("call_2") == "deny"
        a.add_fed([], {"events": 12})
        b.add_fed([], {"events": 4})  # a slower replica never moves the cursor back
        assert (a.cursor("events"), b.cursor("events")) == (12, 12)
        hit_a, hit_b = a.window_hits(), b.window_hits()
        assert hit_a is not None and hit_b is not None
        assert [hit_a("calls:bot", 100.0, 60.0), hit_b("calls:bot", 101.0, 60.0)] == [1, 2]
        assert hit_a("calls:bot", 102.0, 60.0) == 3
    finally:
        a.close()
        b.close()


def test_a_lost_connection_is_reopened(tmp_path: Path) -> None:
    url = pg_server().fresh_url()
    store = PostgresValueStore.open(url, tmp_path / "guard.sqlite3")
    try:
        store.add([sighting("fp-a", "call_1", 1.0)])
        with psycopg.connect(url, autocommit=True) as admin:
            pid = store._pg.backend_pid
            admin.execute("SELECT pg_terminate_backend(%s)", (pid,))
        assert [s.fp for s in store.lookup(["fp-a"])] == ["fp-a"]
    finally:
        store.close()


def test_the_database_holds_fingerprints_only(tmp_path: Path) -> None:
    url = pg_server().fresh_url()
    store = PostgresValueStore.open(url, tmp_path / "guard.sqlite3")
    try:
        store.add([sighting("fp-a", "call_1", 1.0)])
        with psycopg.connect(url) as conn:
            columns = {
                r[0]
                for r in conn.execute(
                    "SELECT column_name FROM information_schema.columns"
                    " WHERE table_name = 'guard_values' AND table_schema = current_schema()"
                ).fetchall()
            }
        assert "value" not in columns
        assert {"fp", "value_fp"} <= columns
    finally:
        store.close()


def test_a_window_counts_within_its_span(tmp_path: Path) -> None:
    store = PostgresValueStore.open(pg_server().fresh_url(), tmp_path / "guard.sqlite3")
    try:
        hits = store.window_hits()
        assert hits is not None
        assert [hits("k", t, 60.0) for t in (100.0, 110.0, 120.0)] == [1, 2, 3]
        assert hits("other", 120.0, 60.0) == 1
        assert hits("k", 170.5, 60.0) == 2  # 100 and 110 fell out of the window
        # The tracker's keys hold a NUL (agent, rule), which PostgreSQL text cannot.
        tracker = ChainTracker(10.0, shared=hits)
        assert [tracker.rules.hit("bot\x00db.query", 200.0 + i) for i in range(3)] == [1, 2, 3]
        assert tracker.calls.hit("bot", 200.0) == 1  # another window, same agent
    finally:
        store.close()
