"""Rollback, snapshot and verify times of a SQLite-backed Gateway on large logs.

The logs are synthetic: events are appended straight through
`SqliteStore.append` (the real schema, MAC chain, projection, FTS and group
commit, in batches of 2,000 events per transaction), not written through the
gateway, whose scanner would make a 100k build take minutes (bench_write.py
measures that path). The event mix imitates a busy store: 60 % new approved
long-term memories, 15 % new transient tool outputs, 10 % new pending web
memories, 10 % approvals of pending ones, 5 % deletions; contents are ~300 B
`prose` from corpus_gen, so an event's MACed entry is ~1 KB.

Each size is built twice from the same stream: once plain, once with a
snapshot every `snapshot_every` (10,000) events, as the gateway takes them
automatically. On each, through the Gateway: a dry run and an applied rollback
of the whole store to the middle of the log (half the log's memories change),
then `verify`; and a dry run back over the last 1,000 events only (the usual
incident: the poison is recent). Snapshot time is the mean over the build, size the last one.

Verify at 1M events: extrapolated linearly from the largest size measured; with
`--million` also measured on a log built the same way (the build alone takes
about three minutes, so it is not part of the default run).

    .venv/bin/python benchmarks/bench_rollback.py [--sizes 10000 100000] [--million]
        [--snapshots both|no|yes]

Writes a markdown table and JSON with machine info to benchmarks/results/.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine
from corpus_gen import generate

from memgate.bootstrap import short_pool
from memgate.domain import Decision, Source
from memgate.domain.events import Event, Op
from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.gateway import Gateway
from memgate.gateway.core import content_fingerprint
from memgate.store.sqlite import SqliteStore
from memgate.trust import Inspector, Policy

RESULTS = Path(__file__).resolve().parent / "results"
KEY = b"bench-rollback-log-key-000000000"
BATCH = 2000
CONTENT_BYTES = 300
SNAPSHOT_EVERY = 10_000
RECENT = 1000
"""The incident case: a dry run back over the last 1,000 events only."""
START = datetime.now(UTC) - timedelta(days=1)


def synthetic_events(n: int, seed: int = 11) -> Iterator[Event]:
    """A deterministic stream of `n` plausible events (one second apart)."""
    rng = random.Random(seed)
    contents = [generate(CONTENT_BYTES, "prose", seed * 7919 + i) for i in range(500)]
    pending: list[MemoryItem] = []
    approved: list[MemoryItem] = []
    for i in range(n):
        at = START + timedelta(milliseconds=i)
        roll = rng.random()
        if roll < 0.10 and pending:
            item = pending.pop(rng.randrange(len(pending)))
            new = item.model_copy(
                update={
                    "state": MemoryState.APPROVED,
                    "updated_at": at,
                    "version": item.version + 1,
                    "reviewed_by": "reviewer",
                }
            )
            approved.append(new)
            yield Event(
                op=Op.APPROVED,
                memory_id=new.id,
                at=at,
                actor="reviewer",
                state_before=MemoryState.PENDING_REVIEW,
                state_after=MemoryState.APPROVED,
                item=new,
            )
            continue
        if roll < 0.15 and approved:
            item = approved.pop(rng.randrange(len(approved)))
            gone = item.model_copy(
                update={"state": MemoryState.DELETED, "updated_at": at, "version": item.version + 1}
            )
            yield Event(
                op=Op.DELETED,
                memory_id=gone.id,
                at=at,
                actor="ops",
                state_before=MemoryState.APPROVED,
                state_after=MemoryState.DELETED,
                item=gone,
            )
            continue
        kind = rng.random()
        content = f"{contents[rng.randrange(len(contents))]} #{i}"
        if kind < 0.60 / 0.85:
            source, pool, state, op = Source.USER, PoolName.LONG, MemoryState.APPROVED, Op.ADMITTED
        elif kind < 0.75 / 0.85:
            source, pool, state, op = (
                Source.TOOL,
                PoolName.SHORT,
                MemoryState.TRANSIENT,
                Op.ADMITTED,
            )
        else:
            source, pool, state, op = (
                Source.WEB,
                PoolName.LONG,
                MemoryState.PENDING_REVIEW,
                Op.QUEUED,
            )
        item = MemoryItem(
            id=f"m_bench{seed:02d}{i:09d}",
            namespace=("bench", f"team{i % 40}"),
            key=None,
            content=content,
            pool=pool,
            state=state,
            trust_score=1.0 if source is Source.USER else 0.6,
            decision=Decision.APPROVE if source is Source.USER else Decision.REVIEW,
            source=source,
            session_id=f"s{i % 97}",
            agent_id="bench-agent",
            call_id=f"c{i}",
            created_at=at,
            updated_at=at,
            scanned_at=at,
            expires_at=at + timedelta(days=30) if pool is PoolName.SHORT else None,
            rules_version="bench",
            fingerprint=content_fingerprint(content),
        )
        if state is MemoryState.PENDING_REVIEW:
            pending.append(item)
        elif state is MemoryState.APPROVED:
            approved.append(item)
        yield Event(
            op=op,
            memory_id=item.id,
            at=at,
            actor="bench-agent",
            state_before=None,
            state_after=state,
            item=item,
        )


async def build(path: Path, n: int, snapshot_every: int | None) -> dict[str, Any]:
    """Append `n` synthetic events; optionally snapshot every `snapshot_every`."""
    store = await SqliteStore.open(path, KEY)
    started = time.perf_counter()
    snap_times: list[float] = []
    batch: list[Event] = []
    done = 0
    for event in synthetic_events(n):
        batch.append(event)
        if len(batch) == BATCH:
            await store.append(batch)
            done += len(batch)
            batch = []
            if snapshot_every and done % snapshot_every == 0:
                t0 = time.perf_counter()
                await store.snapshot()
                snap_times.append(time.perf_counter() - t0)
    if batch:
        await store.append(batch)
    elapsed = time.perf_counter() - started
    snap_bytes = 0
    if snap_times:
        async with store._reader.execute(  # bench-only peek at the derived table
            "SELECT length(body) FROM snapshots ORDER BY seq DESC LIMIT 1"
        ) as cur:
            row = await cur.fetchone()
        snap_bytes = int(row[0]) if row else 0
    await store.close()
    return {
        "build_s": elapsed,
        "snapshot_count": len(snap_times),
        "snapshot_s": sum(snap_times) / len(snap_times) if snap_times else None,
        "snapshot_bytes": snap_bytes or None,
        "db_bytes": sum(p.stat().st_size for p in path.parent.glob(path.name + "*")),
    }


async def gateway(path: Path, inspector: Inspector) -> Gateway:
    policy = Policy.load()
    # Room for every synthetic transient item (capacity evictions would add events).
    routing = policy.routing.model_copy(update={"short_max_entries": 1_000_000})
    policy = policy.model_copy(update={"routing": routing})
    store = await SqliteStore.open(path, KEY)
    gw = Gateway(inspector=inspector, store=store, short=short_pool(policy), policy=policy)
    await gw.restore()
    return gw


async def timed_rollbacks(path: Path, inspector: Inspector) -> dict[str, Any]:
    gw = await gateway(path, inspector)
    try:
        head = (await gw.checkpoint()).seq
        middle = head // 2
        t = time.perf_counter()
        recent = await gw.rollback(to=head - RECENT, reason="bench", actor="bench")
        recent_s = time.perf_counter() - t
        t0 = time.perf_counter()
        dry = await gw.rollback(to=middle, reason="bench", actor="bench")
        t1 = time.perf_counter()
        c1 = time.process_time()
        applied = await gw.rollback(to=middle, reason="bench", actor="bench", dry_run=False)
        t2 = time.perf_counter()
        c2 = time.process_time()
        result = await gw.verify()
        t3 = time.perf_counter()
        assert result.ok, result.reason
        assert len(dry.changes) == len(applied.changes)
        # The undo: back to the head before the rollback (its compensating events
        # are themselves rolled back).
        c3 = time.process_time()
        undo = await gw.rollback(to=head, reason="bench undo", actor="bench", dry_run=False)
        t4 = time.perf_counter()
        c4 = time.process_time()
        assert len(undo.changes) == len(applied.changes)
        return {
            "events": head,
            "changes": len(applied.changes),
            "dry_run_s": t1 - t0,
            "applied_s": t2 - t1,
            "applied_cpu_s": c2 - c1,
            "undo_s": t4 - t3,
            "undo_cpu_s": c4 - c3,
            "verify_s": t3 - t2,
            "verified_events": result.checked,
            "recent_dry_run_s": recent_s,
            "recent_changes": len(recent.changes),
        }
    finally:
        await gw.close()


async def verify_only(path: Path) -> tuple[int, float]:
    store = await SqliteStore.open(path, KEY)
    try:
        t0 = time.perf_counter()
        result = await store.verify()
        elapsed = time.perf_counter() - t0
        assert result.ok, result.reason
        return result.checked, elapsed
    finally:
        await store.close()


def fmt(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "-"
    if isinstance(value, float):
        return f"{value:.3f}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


async def run(sizes: list[int], million: bool, snapshots: str = "both") -> dict[str, Any]:
    inspector = Inspector.default(fingerprint_key=b"bench")
    rows: list[dict[str, Any]] = []
    tmp = Path(tempfile.mkdtemp(prefix="memgate-bench-rollback-"))
    try:
        for n in sizes:
            for snap in {"both": (False, True), "no": (False,), "yes": (True,)}[snapshots]:
                path = tmp / f"{n}-{'snap' if snap else 'plain'}" / "memgate.sqlite3"
                built = await build(path, n, SNAPSHOT_EVERY if snap else None)
                timed = await timed_rollbacks(path, inspector)
                rows.append({"size": n, "snapshots": snap, **built, **timed})
                print(json.dumps(rows[-1]), file=sys.stderr)
                shutil.rmtree(path.parent)
        largest = max(sizes)
        per_event = next(r["verify_s"] / r["verified_events"] for r in rows if r["size"] == largest)
        verify_1m: dict[str, Any] = {
            "extrapolated_s": per_event * 1_000_000,
            "from_size": largest,
        }
        if million:
            path = tmp / "1m" / "memgate.sqlite3"
            built = await build(path, 1_000_000, None)
            checked, elapsed = await verify_only(path)
            verify_1m.update(
                {
                    "measured_s": elapsed,
                    "events": checked,
                    "build_s": built["build_s"],
                    "db_bytes": built["db_bytes"],
                }
            )
            shutil.rmtree(path.parent)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"rows": rows, "verify_1m": verify_1m}


def markdown(data: dict[str, Any]) -> str:
    cols = [
        ("size", "events built"),
        ("snapshots", "snapshots"),
        ("changes", "changes"),
        ("dry_run_s", "dry run s"),
        ("applied_s", "applied s"),
        ("applied_cpu_s", "applied CPU s"),
        ("undo_s", "undo s"),
        ("undo_cpu_s", "undo CPU s"),
        ("verify_s", "verify s"),
        ("recent_dry_run_s", "dry run s, last 1k events"),
        ("snapshot_s", "snapshot s (mean)"),
        ("snapshot_bytes", "snapshot bytes"),
        ("db_bytes", "db bytes"),
        ("build_s", "build s"),
    ]
    lines = [
        "# bench_rollback",
        "",
        "Synthetic logs appended through `SqliteStore.append` (real schema, MAC chain,"
        " projection, FTS; 2,000 events per transaction; ~1 KB entries, ~300 B prose"
        " contents). Rollback of the whole store to the middle of the log through"
        " `Gateway.rollback` (dry run, then applied: one compensating event per changed"
        " memory plus a marker, one transaction). With snapshots: one every 10,000 events,"
        " as the gateway takes them automatically; without: replay from the first event."
        " `verify` runs after the applied rollback (so it covers its events too); then"
        " the undo: a rollback back to the head before it (applied). CPU s: this"
        " process's CPU time for the same step (the machine is shared; wall time"
        " moves with its load, noted beside the table).",
        "",
        "| " + " | ".join(title for _, title in cols) + " |",
        "|" + "---|" * len(cols),
    ]
    for row in data["rows"]:
        cells = [fmt(row[k]) for k, _ in cols]
        lines.append("| " + " | ".join(cells) + " |")
    v = data["verify_1m"]
    lines += [
        "",
        f"Load average (1, 5, 15 min) after the run: {data.get('load_average_after')}.",
        "",
        "| verify at 1M events | seconds |",
        "|---|---|",
        f"| extrapolated from {v['from_size']:,} events | {v['extrapolated_s']:.2f} |",
    ]
    if "measured_s" in v:
        lines.append(
            f"| measured ({v['events']:,} events, {v['db_bytes'] / 1e9:.2f} GB,"
            f" built in {v['build_s']:.0f} s) | {v['measured_s']:.2f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--million", action="store_true", help="also build 1M events, verify")
    parser.add_argument(
        "--snapshots",
        choices=("both", "no", "yes"),
        default="both",
        help="build each size without snapshots, with them, or both (the default)",
    )
    args = parser.parse_args()
    started = time.perf_counter()
    data = asyncio.run(run(args.sizes, args.million, args.snapshots))
    data["machine"] = machine()
    data["load_average_after"] = os.getloadavg()
    data["total_s"] = time.perf_counter() - started
    text = markdown(data)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "rollback.md").write_text(text)
    (RESULTS / "rollback.json").write_text(json.dumps(data, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
