"""The guard's shared decision state on PostgreSQL: what a decision pays for it.

On one fresh PostgreSQL database (dropped at the end):

- `begin`: one decision's state round trip (windows per agent, rule and tool,
  depth, the task's breaker, the shape's trust, the tool's pin), one statement;
- `take_destructive`, `count_trust`, `pin` (a listing of 20 tools): the writes
  made after a destructive decision, per result, per listing;
- a whole routine decision (`Guard.decide` + `remember` of a developer's `Read`)
  in three set-ups: everything local (SQLite values, `LocalGuardState`), the
  set-up before migration 005 (values and per-minute windows on PostgreSQL,
  two round trips for the windows, the rest per replica), and now (values and
  `PostgresGuardState`: one round trip for the whole state).

p50 / p99 in milliseconds.

    .venv/bin/python benchmarks/bench_guard_state.py [--rounds 2000]
        [--admin postgresql://root@127.0.0.1:5432/postgres]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import psycopg

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memgate.guard import Guard, GuardPolicy, ToolCall, ValueStore
from memgate.guard.state import Begin
from memgate.guard.state_postgres import PostgresGuardState
from memgate.guard.values_postgres import PostgresValueStore
from memgate.scanning import BUILTIN_ANALYZERS, Scanner, load_rules


def stats(samples: list[float]) -> tuple[float, float]:
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return statistics.median(ordered) * 1000, p99 * 1000


def timed(rounds: int, work: Callable[[int], object]) -> tuple[float, float]:
    for i in range(min(50, rounds)):  # warm up
        work(-1 - i)
    samples = []
    for i in range(rounds):
        started = time.perf_counter()
        work(i)
        samples.append(time.perf_counter() - started)
    return stats(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument(
        "--admin",
        default=os.environ.get(
            "MEMGATE_TEST_POSTGRES", "postgresql://root@127.0.0.1:5432/postgres"
        ),
    )
    args = parser.parse_args()
    database = f"mg_bench_guard_state_{uuid.uuid4().hex[:8]}"
    with psycopg.connect(args.admin, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{database}"')
    url = psycopg.conninfo.make_conninfo(args.admin, dbname=database)
    rows: list[tuple[str, float, float]] = []
    try:
        state = PostgresGuardState.open(url, 10.0)
        try:

            def begin(i: int) -> object:
                return state.begin(
                    Begin(now=time.time(), call_id=f"c{i}", parent=f"c{i - 1}",
                          agent_key=f"a{i % 50}", rule_key=f"a{i % 50}\x00Read",
                          tool_key=f"a{i % 50}\x00Read", scope=f"t{i % 50}",
                          shape=f"s{i % 200}", mcp=("github", "get_issue"))
                )  # fmt: skip

            rows.append(("begin (the decision's one round trip)", *timed(args.rounds, begin)))
            rows.append(
                (
                    "take_destructive",
                    *timed(args.rounds, lambda i: state.take_destructive(f"t{i}", 3, time.time())),
                )
            )
            rows.append(
                (
                    "count_trust",
                    *timed(
                        args.rounds,
                        lambda i: state.count_trust(f"s{i % 200}", "Read", time.time(), ok=1),
                    ),
                )
            )
            listing = [(f"tool_{n}", f"digest-{n}") for n in range(20)]
            rows.append(
                (
                    "pin (20 tools)",
                    *timed(args.rounds // 4, lambda i: state.pin("github", listing, False, 1.0)),
                )
            )
        finally:
            state.close()

        scanner = Scanner(load_rules(), BUILTIN_ANALYZERS, fingerprint_key=b"bench-guard-state")
        policy = GuardPolicy.load()
        with tempfile.TemporaryDirectory() as tmp:
            setups: list[tuple[str, Callable[[], Guard]]] = [
                ("decide: local (SQLite, process state)",
                 lambda: Guard(scanner, policy, ValueStore(Path(tmp) / "l.sqlite3"))),
                ("decide: before 005 (PG values + windows)",
                 lambda: Guard(scanner, policy, PostgresValueStore.open(url, Path(tmp) / "b"))),
                ("decide: now (PG values + PostgresGuardState)",
                 lambda: Guard(scanner, policy, PostgresValueStore.open(url, Path(tmp) / "n"),
                               state=PostgresGuardState.open(url, 10.0))),
            ]  # fmt: skip
            for name, build in setups:
                guard = build()
                try:

                    def decide(i: int, guard: Guard = guard, name: str = name) -> object:
                        call = ToolCall(
                            tool="Read", input={"file_path": "src/app.py"},
                            agent_id=f"dev-{name[:12]}-{i % 50}", session_id="s",
                            call_id=f"{name[:12]}-{i}", role="developer",
                        )  # fmt: skip
                        decision = guard.decide(call)
                        guard.remember(call, decision)
                        return decision

                    rows.append((name, *timed(args.rounds, decide)))
                finally:
                    guard.close()
    finally:
        with psycopg.connect(args.admin, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE "{database}" WITH (FORCE)')
    load = os.getloadavg()[0]
    print(f"{args.rounds} rounds, load average {load:.1f}")
    print("| operation | p50 ms | p99 ms |\n|---|---|---|")
    for name, p50, p99 in rows:
        print(f"| {name} | {p50:.3f} | {p99:.3f} |")


if __name__ == "__main__":
    main()
