"""The GuardState contract on PostgreSQL (the state every replica shares), and
taking over what a replica's data directory kept before it moved there."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import psycopg
import pytest

from memgate.guard.state import Counts, GuardState, LocalGuardState, PinStatus
from memgate.guard.state_postgres import PRUNE_EVERY, TASK_TTL, PostgresGuardState
from memgate.guard.values import ValueStore
from tests.contracts.guard_state_contract import BURST, GuardStateContract, begin
from tests.pg_fixtures import pg_server, postgres  # noqa: F401 - fixture

pytestmark = pytest.mark.usefixtures("postgres")


class TestPostgresGuardState(GuardStateContract):
    def make(self) -> GuardState:
        return PostgresGuardState.open(pg_server().fresh_url(), BURST)


def test_a_replica_s_local_trust_and_pins_are_taken_over_once(tmp_path: Path) -> None:
    values = ValueStore(tmp_path / "guard.sqlite3")
    local = LocalGuardState(values, BURST)
    local.count_trust("shape-1", "Read", 1.0, ok=4)
    local.pin("github", [("get_issue", "d1"), ("list_repos", "d2")], False, 2.0)
    local.pin("github", [("get_issue", "d1-poisoned")], False, 3.0)  # changed, locally
    url = pg_server().fresh_url()
    shared = PostgresGuardState.open(url, BURST)
    try:
        shared.pin("github", [("list_repos", "d2-other")], False, 1.5)  # another replica's
        assert shared.import_local(values) == (1, 1)
        assert shared.trust("shape-1") == Counts(4, 0)
        assert shared.changed("github", "get_issue")  # the local change still stands
        # the pin this database had first stays: the local d2 is a change of it
        assert shared.pin("github", [("list_repos", "d2")], False, 4.0) == [
            ("list_repos", PinStatus.CHANGED)
        ]
        assert shared.import_local(values) == (0, 0)  # again: nothing counted twice
        assert shared.trust("shape-1") == Counts(4, 0)
        empty = ValueStore(":memory:")  # a data directory that kept nothing
        assert shared.import_local(empty) == (0, 0)
        empty.close()
    finally:
        shared.close()
        values.close()


def test_two_replicas_racing_for_a_breaker_take_only_its_limit() -> None:
    url = pg_server().fresh_url()
    states = [PostgresGuardState.open(url, BURST) for _ in range(2)]
    start = threading.Barrier(2)

    def race(state: PostgresGuardState) -> list[int | None]:
        start.wait()
        return [state.take_destructive("task-race", 5, float(i)) for i in range(20)]

    try:
        with ThreadPoolExecutor(2) as pool:
            taken = [n for got in pool.map(race, states) for n in got if n is not None]
        assert sorted(taken) == [1, 2, 3, 4, 5]
    finally:
        for state in states:
            state.close()


def test_expired_windows_depths_and_idle_tasks_are_pruned() -> None:
    url = pg_server().fresh_url()
    state = PostgresGuardState.open(url, BURST)
    try:
        state.take_destructive("old-task", 3, 0.0)
        state.set_masking("old-task", ["c0"], 0.0)
        state.take_destructive("new-task", 3, TASK_TTL)
        for i in range(PRUNE_EVERY):
            state.begin(begin(state, TASK_TTL + 1.0, f"c{i}", scope="new-task"))
        with psycopg.connect(url) as conn:
            left = {
                table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()  # noqa: S608
                for table in ("guard_breaker", "guard_masking")
            }
        assert left == {"guard_breaker": (1,), "guard_masking": (0,)}
        assert state.begin(begin(state, TASK_TTL + 2.0, "x", scope="new-task")).destructive == 1
    finally:
        state.close()
