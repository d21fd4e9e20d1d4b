"""What the integrity checks cost, on a real SQLite store of N events.

- verify, chain only vs. full (chain + every projection row + reads, replaying
  the log): `memgate log verify` does the full one;
- open: `SqliteStore.open`, which runs `PRAGMA quick_check` (a damaged page is
  refused at start), vs. the quick_check alone;
- get: one point read with its row MAC checked (what every served row pays);
- signed checkpoint: the first export (hash chain from genesis) and the next
  one after 1,000 more events (incremental).

    .venv/bin/python benchmarks/bench_integrity.py [--sizes 10000 100000]

Prints a table with targets; writes benchmarks/results/integrity.{md,json}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rollback import synthetic_events
from bench_scan import machine

from memgate.log.integrity import Signer
from memgate.store.sqlite import SqliteStore, verify_file
from memgate.store.sqlite_integrity import read_only, verify_chain_range

KEY = b"bench-integrity-key-0123456789abcdef"
RESULTS = Path(__file__).resolve().parent / "results"
TARGETS = {
    "full_over_chain": 5.0,
    "open_s_per_100k": 2.0,
    "get_ms": 0.5,
    "checkpoint_next_ms": 500.0,
}
"""Full verify at most 5x the chain alone (it replays every entry's JSON and MACs
every row); start-up quick_check ≤ 2 s per 100k events; a point read with its MAC
check ≤ 0.5 ms; a signed checkpoint after 1,000 new events ≤ 0.5 s."""


async def build(path: Path, n: int) -> list[str]:
    store = await SqliteStore.open(path, KEY, signer=Signer.generate())
    ids: list[str] = []
    try:
        batch = []
        for event in synthetic_events(n):
            batch.append(event)
            if event.item is not None and event.item.pool.value == "long":
                ids.append(event.item.id)
            if len(batch) == 2000:
                await store.append(batch)
                batch = []
        if batch:
            await store.append(batch)
    finally:
        await store.close()
    return ids


def verify_times(path: Path, n: int) -> dict[str, Any]:
    out: dict[str, Any] = {"events": n, "db_mb": round(path.stat().st_size / 1e6, 1)}
    uri = path.resolve().as_uri() + "?mode=ro"
    t0 = time.perf_counter()
    chain = verify_chain_range(uri, KEY, 1, None, None)
    out["chain_verify_s"] = time.perf_counter() - t0
    t0 = time.perf_counter()
    full = verify_file(path, KEY)
    out["full_verify_s"] = time.perf_counter() - t0
    if not (chain.ok and full.ok):
        raise RuntimeError(f"the bench store does not verify: {chain} {full}")
    out["rows"] = full.rows_checked
    out["full_verify_us_per_event"] = out["full_verify_s"] / n * 1e6
    out["full_over_chain"] = out["full_verify_s"] / out["chain_verify_s"]
    with read_only(path) as db:
        t0 = time.perf_counter()
        db.execute("PRAGMA quick_check(5)").fetchall()
        out["quick_check_s"] = time.perf_counter() - t0
    return out


async def measure(path: Path, ids: list[str], n: int) -> dict[str, Any]:
    out = await asyncio.to_thread(verify_times, path, n)
    t0 = time.perf_counter()
    store = await SqliteStore.open(path, KEY, signer=Signer.generate())
    out["open_s"] = time.perf_counter() - t0
    out["open_s_per_100k"] = out["open_s"] / n * 100_000
    try:
        sample = ids[:: max(1, len(ids) // 300)][:300]
        times = []
        for memory_id in sample:
            t0 = time.perf_counter()
            await store.get(memory_id)
            times.append(time.perf_counter() - t0)
        out["get_ms"] = statistics.median(times) * 1e3
        t0 = time.perf_counter()
        await store.export_checkpoint()
        out["checkpoint_first_s"] = time.perf_counter() - t0
        await store.append(list(synthetic_events(1000, seed=99)))
        t0 = time.perf_counter()
        await store.export_checkpoint()
        out["checkpoint_next_ms"] = (time.perf_counter() - t0) * 1e3
    finally:
        await store.close()
    return out


COLUMNS = [
    ("events", "events", "{:,}"),
    ("db_mb", "db MB", "{}"),
    ("chain_verify_s", "chain verify s", "{:.2f}"),
    ("full_verify_s", "full verify s", "{:.2f}"),
    ("full_verify_us_per_event", "full µs/event", "{:.1f}"),
    ("full_over_chain", "full / chain", "{:.1f}"),
    ("quick_check_s", "quick_check s", "{:.2f}"),
    ("open_s", "open s", "{:.2f}"),
    ("get_ms", "get ms (MAC)", "{:.3f}"),
    ("checkpoint_first_s", "1st checkpoint s", "{:.2f}"),
    ("checkpoint_next_ms", "next checkpoint ms", "{:.1f}"),
]


def markdown(rows: list[dict[str, Any]]) -> str:
    head = "| " + " | ".join(title for _, title, _ in COLUMNS) + " |"
    rule = "|" + "---|" * len(COLUMNS)
    lines = [head, rule]
    for row in rows:
        lines.append("| " + " | ".join(fmt.format(row[k]) for k, _, fmt in COLUMNS) + " |")
    targets = ", ".join(f"{k} ≤ {v}" for k, v in TARGETS.items())
    lines.append("")
    lines.append(f"Targets: {targets}.")
    for row in rows:
        missed = [k for k, v in TARGETS.items() if row[k] > v]
        lines.append(
            f"- {row['events']:,} events: "
            + ("all targets met" if not missed else "missed " + ", ".join(missed))
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    args = parser.parse_args()
    rows = []
    for n in args.sizes:
        directory = Path(tempfile.mkdtemp(prefix="mg-integrity-"))
        try:
            path = directory / "memgate.sqlite3"
            ids = asyncio.run(build(path, n))
            rows.append(asyncio.run(measure(path, ids, n)))
        finally:
            shutil.rmtree(directory, ignore_errors=True)
    text = markdown(rows)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "integrity.md").write_text(
        "# Integrity costs\n\n`.venv/bin/python benchmarks/bench_integrity.py`\n\n" + text + "\n",
        encoding="utf-8",
    )
    (RESULTS / "integrity.json").write_text(
        json.dumps({"machine": machine(), "rows": rows}, indent=2) + "\n", encoding="utf-8"
    )


if __name__ == "__main__":
    main()
