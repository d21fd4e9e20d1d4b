"""End-to-end write throughput and read latency of a SQLite-backed Gateway.

One write = scan + score + route + MAC-chain + SQLite commit (WAL,
synchronous=NORMAL: an acknowledged write survives a process crash; the
last commits may be lost on power failure). Memories are ~1 KB `mixed` texts
from corpus_gen (prose, code, JSON, some fake credentials and injections).

Cells: one writer awaiting each write in turn, and 16 writers (asyncio.gather
in waves of 16; the store commits concurrent appends together), each for
target "short" (transient, short-term pool + restore row) and "long"
(long-term pool + FTS). The scan-only column runs the same texts through an
identically configured inspector, so the storage overhead is visible.

Reads: median latency of `read` of a transient id, `read` of an approved
long-term id, and `search` under a namespace prefix with a one-word query.

    .venv/bin/python benchmarks/bench_write.py [--n 400] [--reads 300]

Writes a markdown table and JSON with machine info to benchmarks/results/.

`--profile` instead times long-term writes stage by stage (CPU microseconds
per write of the loop thread under cProfile; see `STAGES`) and prints that
table beside the cell's CPU and wall time without the profiler. One writer
(the default): the scan runs inline, so it is counted; `--writers 16`: scans
run where the gateway puts them (scanner processes), so what is left on the
loop thread shows.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import shutil
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine
from corpus_gen import generate

from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryState, MemoryWrite, Reader, Target
from memgate.gateway import Gateway
from memgate.gateway.scanpool import default_processes
from memgate.trust import Inspector, Policy

RESULTS = Path(__file__).resolve().parent / "results"
SIZE = 1024
WRITERS = 16
SOURCE = Source.AGENT
READER = Reader(session_id="bench-reader", call_id="bench-call")


def _ms(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def texts(n: int, seed: int, kind: str = "mixed") -> list[str]:
    return [generate(SIZE, kind, seed * 1_000_003 + i) for i in range(n)]


def writes(items: list[str], target: Target, tag: str) -> list[MemoryWrite]:
    return [
        MemoryWrite(
            content=text,
            namespace=("bench", tag, f"w{i % WRITERS}"),
            source=SOURCE,
            session_id=f"{tag}-session-{i % WRITERS}",
            agent_id=f"agent-{i % WRITERS}",
            call_id=f"{tag}-call-{i}",
            target=target,
        )
        for i, text in enumerate(items)
    ]


async def _timed(call: Awaitable[object], out: list[float]) -> object:
    t0 = time.perf_counter()
    result = await call
    out.append(time.perf_counter() - t0)
    return result


def bench_policy(scan_processes: int | None) -> Policy:
    """The default policy, with `[routing] scan_processes` set if not None."""
    policy = Policy.load()
    if scan_processes is None:
        return policy
    routing = policy.routing.model_copy(update={"scan_processes": scan_processes})
    return policy.model_copy(update={"routing": routing})


async def write_cell(
    data_dir: Path, batch: list[MemoryWrite], concurrency: int, policy: Policy | None = None
) -> tuple[float, float, list[float], Counter[str], int]:
    """Wall time, CPU time of this process, per-write latencies, the states the
    writes ended in and the scanner processes that scanned them."""
    gateway = await open_gateway(data_dir, graph=None, policy=policy)
    try:
        # First-use costs (statement cache, analyzers, with several writers the
        # scanner processes they start) stay out of the cell.
        await _warm_up(gateway, batch, concurrency)
        latencies: list[float] = []
        states: Counter[str] = Counter()
        t0, c0 = time.perf_counter(), time.process_time()
        for start in range(0, len(batch), concurrency):
            wave = batch[start : start + concurrency]
            receipts = await asyncio.gather(*(_timed(gateway.write(w), latencies) for w in wave))
            states.update(r.state.value for r in receipts)  # type: ignore[attr-defined]
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        scanners = gateway.admission.scan_processes
    finally:
        await gateway.close()
    return wall, cpu, latencies, states, scanners


async def _warm_up(
    gateway: Gateway, batch: list[MemoryWrite], concurrency: int, wait: float = 300.0
) -> int:
    """Waves of warm-up writes until the scanner processes they start are ready
    (or none will be: one writer, one core, `scan_processes = 0`); returns how
    many are."""
    wanted = default_processes(gateway.routing.scan_processes) if concurrency > 1 else 0
    deadline = time.perf_counter() + wait
    wave = 0
    while True:
        warm = [
            w.model_copy(update={"namespace": ("warmup",), "call_id": f"warmup-{wave}-{i}"})
            for i, w in enumerate(batch[:concurrency])
        ]
        await asyncio.gather(*(gateway.write(w) for w in warm))
        wave += 1
        ready = gateway.admission.scan_processes
        if ready >= wanted or time.perf_counter() > deadline:
            return ready


def scan_only(batch: list[MemoryWrite], fingerprint_key: bytes) -> float:
    """The same texts through a fresh inspector configured like the gateway's."""
    inspector = Inspector.default(fingerprint_key=fingerprint_key)
    inspector.inspect(batch[0].content, SOURCE)
    t0 = time.perf_counter()
    for w in batch:
        inspector.inspect(w.content, w.source)
    return time.perf_counter() - t0


async def _median_latency(call: Callable[[int], Awaitable[object]], n: int) -> float:
    samples: list[float] = []
    for i in range(n):
        t0 = time.perf_counter()
        await call(i)
        samples.append(time.perf_counter() - t0)
    return _ms(samples, 0.5)


async def read_latencies(data_dir: Path, n: int, seed: int) -> dict[str, float]:
    gateway = await open_gateway(data_dir, graph=None)
    try:
        kind = "prose"  # mostly clean, so most long-term writes can be approved
        short_ids: list[str] = []
        long_ids: list[str] = []
        for w in writes(texts(n, seed, kind), Target.SHORT, "reads-short"):
            short_ids.append((await gateway.write(w)).id)
        for w in writes(texts(n, seed + 1, kind), Target.LONG, "reads-long"):
            receipt = await gateway.write(w)
            if receipt.state is MemoryState.PENDING_REVIEW:
                await gateway.approve(receipt.id, reviewer="bench-reviewer")
            # Clean-session agent writes are kept at once (routing by provenance).
            item = await gateway.get_any(receipt.id)
            if item is not None and item.state is MemoryState.APPROVED:
                long_ids.append(receipt.id)
        short_ids = [i for i in short_ids if await gateway.get_any(i) is not None]
        assert short_ids, "no transient items to time"
        assert long_ids, "no approved items to time"

        async def short_read(i: int) -> object:
            item = await gateway.read(short_ids[i % len(short_ids)], READER)
            assert item is not None
            return item

        async def long_read(i: int) -> object:
            item = await gateway.read(long_ids[i % len(long_ids)], READER)
            assert item is not None
            assert item.state is MemoryState.APPROVED
            return item

        words = ("deploy", "latency", "invoices", "retry", "search", "Python")

        async def search(i: int) -> object:
            return await gateway.search(("bench",), words[i % len(words)], limit=10, reader=READER)

        await short_read(0), await long_read(0), await search(0)
        return {
            "short_read_median_ms": round(await _median_latency(short_read, n), 4),
            "long_get_median_ms": round(await _median_latency(long_read, n), 4),
            "search_median_ms": round(await _median_latency(search, n), 4),
            "long_items": len(long_ids),
            "short_items": len(short_ids),
        }
    finally:
        await gateway.close()


async def run(
    args: argparse.Namespace, root: Path
) -> tuple[list[dict[str, object]], dict[str, float]]:
    rows: list[dict[str, object]] = []
    # Lazy imports, regex compilation and first-use costs stay out of every cell.
    scan_only(writes(texts(100, args.seed + 99, args.kind), Target.SHORT, "warm"), b"warm")
    policy = bench_policy(args.scan_processes)
    for target in (Target.SHORT, Target.LONG):
        if args.target not in (None, target.value):
            continue
        items = texts(args.n, args.seed, args.kind)
        scan_s = scan_only(writes(items, target, "scan"), b"bench-scan-only")
        for concurrency in (1, WRITERS):
            if args.writers not in (None, concurrency):
                continue
            tag = f"{target.value}-c{concurrency}"
            batch = writes(items, target, tag)
            wall, cpu, latencies, states, scanners = await write_cell(
                root / tag, batch, concurrency, policy
            )
            per_write = wall / len(batch) * 1000
            scan_ms = scan_s / len(batch) * 1000
            row: dict[str, object] = {
                "writers": concurrency,
                "target": target.value,
                "writes": len(batch),
                "writes_per_s": round(len(batch) / wall),
                "ms_per_write": round(per_write, 3),
                "median_ms": round(_ms(latencies, 0.5), 3),
                "p99_ms": round(_ms(latencies, 0.99), 3),
                "scan_ms_per_write": round(scan_ms, 3),
                "storage_ms_per_write": round(per_write - scan_ms, 3),
                "main_cpu_ms_per_write": round(cpu / len(batch) * 1000, 3),
                "scan_processes": scanners,
                "load": [round(x, 2) for x in os.getloadavg()],
                "states": dict(sorted(states.items())),
            }
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    if args.reads == 0:
        return rows, {}
    reads = await read_latencies(root / "reads", args.reads, args.seed + 7)
    print(json.dumps(reads), file=sys.stderr)
    return rows, reads


# -- per-stage profile ----------------------------------------------------------

Where = tuple[str, str]
"""(file path suffix, function name) of a profiled function."""

STAGES: tuple[tuple[str, tuple[Where, ...], tuple[Where, ...]], ...] = (
    ("scan", (("scanning/scanner.py", "scan"),), ()),
    ("scan in a child: frames, pickle", (("gateway/scanpool.py", "inspect"),), ()),
    (
        "scoring + report",
        (("trust/inspector.py", "_report"),),
        (("scanning/scanner.py", "scan"),),
    ),
    (
        "routing (provenance, route)",
        (("gateway/provenance.py", "route"), ("gateway/admission.py", "_route")),
        (),
    ),
    ("event build (item, event)", (("gateway/admission.py", "_new_version"),), ()),
    ("log entry: canonical JSON + HMAC", (("log/chain.py", "seal"),), ()),
    (
        "projection rows + row MAC",
        (("store/sqlite.py", "_seal_event"),),
        (("log/chain.py", "seal"),),
    ),
    (
        "SQLite statements + COMMIT",
        (("store/sqlite.py", "_commit"),),
        (("store/sqlite.py", "_seal_event"),),
    ),
    (
        "receipt, pools, notes, evictions",
        (
            ("gateway/admission.py", "__init__"),
            ("gateway/admission.py", "_summary"),
            ("pools/short.py", "put"),
            ("gateway/context.py", "note"),
            ("gateway/provenance.py", "note"),
            ("gateway/admission.py", "log_evictions"),
            ("gateway/admission.py", "_maybe_promote"),
        ),
        (),
    ),
)
"""Stage name, the functions whose cumulative time it is, and the functions they
call whose time belongs to another stage (subtracted: on this path those are
called from nowhere else; cProfile's per-caller times are unreliable under
asyncio)."""


def _cum(stats: pstats.Stats, where: Where) -> float:
    """Cumulative seconds of every function matching `where`."""
    table = stats.stats  # type: ignore[attr-defined]
    return sum(
        values[3]
        for (path, _, name), values in table.items()
        if name == where[1] and path.endswith(where[0])
    )


def stage_table(stats: pstats.Stats, writes: int) -> list[tuple[str, float]]:
    """Microseconds of CPU per write in each of STAGES, then the rest."""
    rows = []
    for name, parts, minus in STAGES:
        seconds = sum(_cum(stats, w) for w in parts)
        seconds -= sum(_cum(stats, m) for m in minus)
        rows.append((name, seconds / writes * 1e6))
    total = stats.total_tt / writes * 1e6  # type: ignore[attr-defined]
    rows.append(("other (asyncio, gate, checks, copies)", total - sum(v for _, v in rows)))
    rows.append(("total (under cProfile)", total))
    return rows


async def profile_cell(
    data_dir: Path, batch: list[MemoryWrite], profiled: bool, concurrency: int = 1
) -> tuple[float, float, cProfile.Profile | None]:
    """(CPU s of this process, wall s, profile of the loop thread). One writer:
    scans inline on the loop thread, so they are counted. More: scans where the
    gateway puts them (scanner processes once warmed up), so the loop thread's
    share of the work shows."""
    gateway = await open_gateway(data_dir, graph=None)

    async def inline(work: Callable[..., object], /, *args: object, **kwargs: object) -> object:
        return work(*args, **kwargs)

    if concurrency == 1:
        gateway.ctx.off_loop = inline  # type: ignore[method-assign,assignment]
    try:
        await _warm_up(gateway, batch, concurrency)
        # CPU time, like the cell's own figure (the profiler's default clock is wall time).
        profile = cProfile.Profile(time.process_time) if profiled else None
        c0, t0 = time.process_time(), time.perf_counter()
        if profile is not None:
            profile.enable()
        for start in range(0, len(batch), concurrency):
            await asyncio.gather(*(gateway.write(w) for w in batch[start : start + concurrency]))
        if profile is not None:
            profile.disable()
        return time.process_time() - c0, time.perf_counter() - t0, profile
    finally:
        await gateway.close()


async def profile(args: argparse.Namespace, root: Path) -> str:
    scan_only(writes(texts(100, args.seed + 99, args.kind), Target.SHORT, "warm"), b"warm")
    items = texts(args.n, args.seed, args.kind)
    batch = writes(items, Target.LONG, "profile")
    writers = args.writers or 1
    cpu, wall, _ = await profile_cell(root / "plain", batch, False, writers)
    _, _, prof = await profile_cell(root / "profiled", batch, True, writers)
    assert prof is not None
    stats = pstats.Stats(prof)
    load = os.getloadavg()
    where = "scan inline" if writers == 1 else "scans where the gateway runs them"
    lines = [
        f"{args.n} long-term `{args.kind}` writes, {writers} writer(s), {where};"
        f" load {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}",
        "",
        "| stage | CPU us / write |",
        "|---|---|",
        *(f"| {name} | {value:.0f} |" for name, value in stage_table(stats, len(batch))),
        f"| without profiler: CPU | {cpu / len(batch) * 1e6:.0f} |",
        f"| without profiler: wall | {wall / len(batch) * 1e6:.0f} |",
    ]
    if args.profile_top:
        stats.sort_stats("cumulative").print_stats(args.profile_top)
    return "\n".join(lines)


def render(rows: list[dict[str, object]], reads: dict[str, float]) -> str:
    header = [
        "writers",
        "target",
        "writes",
        "writes_per_s",
        "ms_per_write",
        "median_ms",
        "p99_ms",
        "scan_ms_per_write",
        "storage_ms_per_write",
        "main_cpu_ms_per_write",
        "scan_processes",
    ]
    lines = [
        "| " + " | ".join(header) + " | states |",
        "|" + "---|" * (len(header) + 1),
        *(
            "| "
            + " | ".join(str(r[h]) for h in header)
            + " | "
            + ", ".join(f"{k} {v}" for k, v in r["states"].items())  # type: ignore[attr-defined]
            + " |"
            for r in rows
        ),
    ]
    if reads:
        lines += [
            "",
            "| read | median_ms |",
            "|---|---|",
            f"| short-term read (transient id) | {reads['short_read_median_ms']} |",
            f"| long-term get (approved id) | {reads['long_get_median_ms']} |",
            f"| search (prefix + one word, limit 10) | {reads['search_median_ms']} |",
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1000, help="writes per cell")
    parser.add_argument("--reads", type=int, default=500, help="items and samples per read kind")
    parser.add_argument("--kind", default="mixed", choices=("mixed", "prose", "code"))
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--out", default="write", help="results file stem")
    parser.add_argument(
        "--scan-processes",
        type=int,
        default=None,
        help="[routing] scan_processes for the cells (default: the policy's; 0: scan thread)",
    )
    parser.add_argument("--writers", type=int, choices=(1, WRITERS), help="only these cells")
    parser.add_argument("--target", choices=("short", "long"), help="only these cells")
    parser.add_argument(
        "--profile", action="store_true", help="per-stage CPU table of one writer instead"
    )
    parser.add_argument("--profile-top", type=int, default=0, help="also print the top N functions")
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="memgate-bench-write-"))
    if args.profile:
        try:
            print(asyncio.run(profile(args, root)))
        finally:
            shutil.rmtree(root, ignore_errors=True)
        return
    try:
        rows, reads = asyncio.run(run(args, root))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    table = render(rows, reads)
    print(table)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.out}.md").write_text(
        "# bench_write\n\n"
        f"Durable writes through `Gateway.open` (SQLite WAL, synchronous=NORMAL) of ~{SIZE} B "
        f"`{args.kind}` memories from source `{SOURCE.value}`. "
        "`ms_per_write` = wall time / writes; "
        "`scan_ms_per_write` = the same texts through a fresh, identically configured "
        "inspector; `storage_ms_per_write` = the difference (routing, MAC chain, SQLite "
        f"commit, pools). {WRITERS} writers = asyncio.gather in waves of {WRITERS} "
        "(latency then includes waiting for the wave).\n\n" + table + "\n"
    )
    (RESULTS / f"{args.out}.json").write_text(
        json.dumps(
            {"machine": machine(), "args": vars(args), "rows": rows, "reads": reads}, indent=2
        )
        + "\n"
    )


if __name__ == "__main__":
    main()
