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
"""

from __future__ import annotations

import argparse
import asyncio
import json
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
from memgate.trust import Inspector

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


async def write_cell(
    data_dir: Path, batch: list[MemoryWrite], concurrency: int
) -> tuple[float, list[float], Counter[str]]:
    """Wall time, per-write latencies and the states the writes ended in."""
    gateway = await open_gateway(data_dir, graph=None)
    try:
        warm = batch[0].model_copy(update={"namespace": ("warmup",), "call_id": "warmup"})
        await gateway.write(warm)  # first-use costs (statement cache, analyzers) stay out
        latencies: list[float] = []
        states: Counter[str] = Counter()
        t0 = time.perf_counter()
        for start in range(0, len(batch), concurrency):
            wave = batch[start : start + concurrency]
            receipts = await asyncio.gather(*(_timed(gateway.write(w), latencies) for w in wave))
            states.update(r.state.value for r in receipts)  # type: ignore[attr-defined]
        wall = time.perf_counter() - t0
    finally:
        await gateway.close()
    return wall, latencies, states


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
    for target in (Target.SHORT, Target.LONG):
        items = texts(args.n, args.seed, args.kind)
        scan_s = scan_only(writes(items, target, "scan"), b"bench-scan-only")
        for concurrency in (1, WRITERS):
            tag = f"{target.value}-c{concurrency}"
            batch = writes(items, target, tag)
            wall, latencies, states = await write_cell(root / tag, batch, concurrency)
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
                "states": dict(sorted(states.items())),
            }
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    reads = await read_latencies(root / "reads", args.reads, args.seed + 7)
    print(json.dumps(reads), file=sys.stderr)
    return rows, reads


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
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="memgate-bench-write-"))
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
