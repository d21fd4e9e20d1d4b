"""Where an applied rollback's time goes, per stage, in CPU and wall seconds.

Builds (or reuses, with `--db`) the bench_rollback log of `--size` events,
copies it, dry-runs once to warm the caches, then applies a rollback to the
middle of the log and its undo, timing each stage by wrapping the functions
that carry it: the two version queries and the plan, the sealing of the
compensating events (`seal_compensation`, or the generic `_seal_event` on a
store without the fast path), each SQL statement of the transaction (the
writer connection is wrapped), the short-term pool and the promotion recount.
CPU seconds are the process's (every thread: the version queries run on two,
the WAL checkpointer on a third); compare them, not wall time, on a shared
machine. The wrappers cost a few percent.

    .venv/bin/python benchmarks/profile_rollback.py [--size 100000] [--db PATH]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rollback import build, gateway

import memgate.gateway.incident as incident
import memgate.store.sqlite as sqlite_store
from memgate.pools.short import ShortTermPool
from memgate.trust import Inspector

Stages = dict[str, list[float]]


def _timed(stages: Stages, owner: Any, name: str, label: str) -> None:
    fn = getattr(owner, name, None)
    if fn is None:
        return

    def note(cpu: float, wall: float) -> None:
        s = stages.setdefault(label, [0.0, 0.0, 0.0])
        s[0] += time.process_time() - cpu
        s[1] += time.perf_counter() - wall
        s[2] += 1

    if asyncio.iscoroutinefunction(fn):

        @functools.wraps(fn)
        async def wrapped_async(*args: Any, **kwargs: Any) -> Any:
            cpu, wall = time.process_time(), time.perf_counter()
            try:
                return await fn(*args, **kwargs)
            finally:
                note(cpu, wall)

        setattr(owner, name, wrapped_async)
        return

    @functools.wraps(fn)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return fn(*args, **kwargs)
        finally:
            note(cpu, wall)

    setattr(owner, name, wrapped)


class _Statements:
    """The writer connection, with each statement's time noted under its text."""

    def __init__(self, db: Any, stages: Stages) -> None:
        self._db, self._stages = db, stages

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)

    def _run(self, call: Callable[..., Any], sql: str, *args: Any) -> Any:
        cpu, wall = time.process_time(), time.perf_counter()
        try:
            return call(sql, *args)
        finally:
            s = self._stages.setdefault("SQL " + " ".join(sql.split())[:48], [0.0, 0.0, 0.0])
            s[0] += time.process_time() - cpu
            s[1] += time.perf_counter() - wall
            s[2] += len(args[0]) if call == self._db.executemany else 1

    def execute(self, sql: str, *args: Any) -> Any:
        return self._run(self._db.execute, sql, *args)

    def executemany(self, sql: str, *args: Any) -> Any:
        return self._run(self._db.executemany, sql, *args)


def instrument(stages: Stages) -> None:
    store = sqlite_store.SqliteStore
    _timed(stages, store, "changed_versions", "plan: version queries (2, on threads)")
    _timed(stages, store, "changed_versions_pair", "plan: version query (both sides, one pass)")
    _timed(stages, incident, "plan", "plan: compare")
    _timed(stages, sqlite_store, "seal_compensation", "seal: events + rows (fast path)")
    _timed(stages, store, "_seal_event", "seal: events + rows (generic)")
    _timed(stages, store, "append_compensation", "append (seal + SQL + commit)")
    _timed(stages, store, "_commit", "append (seal + SQL + commit)")
    _timed(stages, ShortTermPool, "put", "short-term pool: put")
    _timed(stages, ShortTermPool, "remove", "short-term pool: remove")
    _timed(stages, store, "short_term_items", "recount: short_term_items")
    _timed(stages, incident.Incident, "_recount_promotions", "recount (all)")


async def profile(db: Path) -> None:
    work = Path(tempfile.mkdtemp(prefix="memgate-profile-rollback-"))
    try:
        path = work / "memgate.sqlite3"
        shutil.copy(db, path)
        gw = await gateway(path, Inspector.default(fingerprint_key=b"bench"))
        try:
            head = (await gw.checkpoint()).seq
            await gw.rollback(to=head // 2, reason="bench", actor="bench")  # warm
            stages: Stages = {}
            instrument(stages)
            store = gw.ctx.store
            store._writer = _Statements(store._writer, stages)  # type: ignore[attr-defined]
            for label, to in (("applied", head // 2), ("undo", head)):
                stages.clear()
                load = [f"{x:.2f}" for x in os.getloadavg()]
                cpu, wall = time.process_time(), time.perf_counter()
                plan = await gw.rollback(to=to, reason="bench", actor="bench", dry_run=False)
                cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
                print(f"\n{label}: {len(plan.changes):,} changes, load {' '.join(load)}")
                print("| stage | CPU s | wall s | calls or rows |\n|---|---|---|---|")
                for name, (c, w, n) in stages.items():
                    print(f"| {name} | {c:.3f} | {w:.3f} | {int(n):,} |")
                print(f"| **whole rollback** | **{cpu:.3f}** | **{wall:.3f}** | |")
            result = await gw.verify()
            print(f"\nverify after the undo: ok={result.ok} checked={result.checked:,}")
        finally:
            await gw.close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--db", type=Path, help="a log built by an earlier run (kept)")
    args = parser.parse_args()
    db = args.db
    if db is None or not db.exists():
        db = db or Path(tempfile.mkdtemp(prefix="memgate-profile-db-")) / "memgate.sqlite3"
        db.parent.mkdir(parents=True, exist_ok=True)
        print(f"building {args.size:,} events into {db}")
        asyncio.run(build(db, args.size, None))
    asyncio.run(profile(db))


if __name__ == "__main__":
    main()
