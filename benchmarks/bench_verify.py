"""How long `verify` takes, and what each way of running it costs, on one store.

On a SQLite store of N synthetic events (bench_integrity's builder; `--data` reuses
a file): the event chain walked by one thread; the chain split in two ranges on
threads (what verify does past PARALLEL_VERIFY_MIN events) and on two spawned
processes (what it did before); the full verify (chain, every projection row
and read, quick_check); and the incremental verify from a checkpoint after
`--new` more events (`SqliteStore.verify(since=...)`). Wall and CPU seconds
(this process's, threads included) are both given: on a machine shared with
other jobs the wall clock says how loaded it was, the CPU what the work costs.

    .venv/bin/python benchmarks/bench_verify.py [--events 100000] [--new 1000] [--data FILE]

Writes benchmarks/results/verify.{md,json}.
"""

from __future__ import annotations

import argparse
import asyncio
import concurrent.futures
import contextlib
import json
import multiprocessing
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_integrity import KEY, build
from bench_rollback import synthetic_events
from bench_scan import machine

from memgate.domain.events import Checkpoint, VerifyResult
from memgate.log.integrity import Signer
from memgate.store.sqlite import SqliteStore, verify_file
from memgate.store.sqlite_integrity import verify_chain_range

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_1M_S = 5.0
"""The issue's target: a full verify of 1M events in at most 5 s, loaded 2-core."""


def timed(fn: Callable[[], Any]) -> tuple[Any, float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - wall, time.process_time() - cpu


def ranges(path: Path, n: int, pool: concurrent.futures.Executor) -> bool:
    uri = path.resolve().as_uri() + "?mode=ro"
    step = -(-n // 2)
    bounds = [(lo, min(lo + step - 1, n)) for lo in range(1, n + 1, step)]
    futures = [pool.submit(verify_chain_range, uri, KEY, lo, hi, None) for lo, hi in bounds]
    return all(f.result().ok for f in futures)


async def incremental(path: Path, new: int) -> tuple[VerifyResult, float, float, int]:
    store = await SqliteStore.open(path, KEY, signer=Signer.generate())
    try:
        point: Checkpoint = await store.export_checkpoint()
        await store.append(list(synthetic_events(new, seed=123)))
        await store.flush()
        wall, cpu = time.perf_counter(), time.process_time()
        result = await store.verify(since=point)
        return result, time.perf_counter() - wall, time.process_time() - cpu, point.seq
    finally:
        await store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=100_000)
    parser.add_argument("--new", type=int, default=1000, help="events after the checkpoint")
    parser.add_argument("--data", type=Path, help="an existing bench store file (copied)")
    parser.add_argument("--tag", default="")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="memgate-bench-verify-"))
    path = root / "memgate.db"
    try:
        if args.data:
            shutil.copyfile(args.data, path)
        else:
            asyncio.run(build(path, args.events))
        with contextlib.closing(sqlite3.connect(path)) as db:
            n = int(db.execute("SELECT max(seq) FROM events").fetchone()[0])
        rows: list[tuple[str, float, float, str]] = []
        uri = path.resolve().as_uri() + "?mode=ro"
        ok, wall, cpu = timed(lambda: verify_chain_range(uri, KEY, 1, None, None).ok)
        rows.append(("chain, one thread", wall, cpu, "ok" if ok else "FAILED"))
        with concurrent.futures.ThreadPoolExecutor(2) as threads:
            ok, wall, cpu = timed(lambda: ranges(path, n, threads))
        rows.append(("chain, 2 ranges on threads (now)", wall, cpu, "ok" if ok else "FAILED"))
        spawn = multiprocessing.get_context("spawn")
        ok, wall, cpu = timed(
            lambda: ranges(path, n, concurrent.futures.ProcessPoolExecutor(2, mp_context=spawn))
        )
        rows.append(
            ("chain, 2 spawned processes (before)", wall, cpu, "ok; CPU excludes the workers")
        )
        full, wall, cpu = timed(lambda: verify_file(path, KEY))
        rows.append(
            (
                "full verify (chain, rows, reads, quick_check)",
                wall,
                cpu,
                f"{'ok' if full.ok else 'FAILED'}; {full.rows_checked:,} rows",
            )
        )
        inc, wall, cpu, since = asyncio.run(incremental(path, args.new))
        rows.append(
            (
                f"incremental verify, {args.new:,} events after a checkpoint",
                wall,
                cpu,
                f"{'ok' if inc.ok else 'FAILED: ' + str(inc.reason)}; {inc.checked:,} events,"
                f" {inc.rows_checked:,} rows",
            )
        )
    finally:
        shutil.rmtree(root, ignore_errors=True)
    load = os.getloadavg()
    lines = [
        f"# bench_verify ({n:,} events)",
        "",
        f"`python benchmarks/bench_verify.py {' '.join(sys.argv[1:])}`",
        "",
        f"Load average at the end {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f} on"
        f" {os.cpu_count()} CPUs (other jobs share the machine: wall > CPU).",
        "",
        "| what | wall s | CPU s | per event µs (CPU) | note |",
        "|---|---|---|---|---|",
    ]
    for name, wall, cpu, note in rows:
        count = args.new if name.startswith("incremental") else n
        lines.append(
            f"| {name} | {wall:.2f} | {cpu:.2f} | {cpu / max(count, 1) * 1e6:.1f} | {note} |"
        )
    full_cpu_1m = rows[3][2] / n * 1_000_000
    lines += [
        "",
        f"Full verify of 1M events at this CPU cost: ~{full_cpu_1m:.0f} CPU s (target"
        f" ≤ {TARGET_1M_S:.0f} s wall, loaded). Incremental: O(events since the checkpoint).",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    stem = f"verify-{args.tag}" if args.tag else "verify"
    (RESULTS / f"{stem}.md").write_text(text)
    data = {
        "machine": machine(),
        "args": {k: str(v) for k, v in vars(args).items()},
        "events": n,
        "rows": [{"what": r[0], "wall_s": r[1], "cpu_s": r[2], "note": r[3]} for r in rows],
        "load": load,
        "since_seq": since,
    }
    (RESULTS / f"{stem}.json").write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
