"""Provenance graph speed: projection throughput, read-path overhead, and
investigation latency on a large graph (embedded FalkorDB, real SQLite).

1. Build a log synthetically through `SqliteStore` (the real schema, MAC chain
   and reads table; the scanner is skipped, bench_write.py measures that):
   `base` seed memories, then sessions that each read `--reads-per-session`
   existing memories (uniformly random, so older memories collect more readers)
   through calls of `--reads-per-call` reads each (a search serving 5 items is
   one call; 1 makes every read its own call, the projector's worst case),
   and then write one memory. `--edges` read edges in all (default 100k; the
   issue's target is stated at 1M: `--edges 1000000`).
2. Open a Gateway with `graph="embedded"` on it and time the projection from
   scratch: read links projected per second (reads are drained first, so that
   phase is timed alone), then events per second (each write also derives its
   FLOWED_TO taint edges from the session's reads).
3. `readers`, `blast_radius` (depth 1, 2, 3) and `provenance` latency through
   the Gateway (flush, freshness check, query, result models) on random memories.
4. Read-path latency with the graph off vs on: `Gateway.read` on a fresh data
   dir, alternating off/on rounds; with the graph on, the projector runs and
   projects those very reads meanwhile.

    .venv/bin/python benchmarks/bench_graph.py [--edges 1000000] [--latency-reads 3000]

Prints a table; writes benchmarks/results/graph.md and graph.json (with
`--tag`, graph-<tag>.*).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine

from memgate.bootstrap import DB_FILE, LOG_KEY_ENV, open_gateway
from memgate.domain import Decision, Source
from memgate.domain.events import Event, Op
from memgate.domain.memory import MemoryItem, MemoryState, MemoryWrite, PoolName, Reader, Target
from memgate.domain.ports import ReadRecord
from memgate.gateway import Gateway
from memgate.graph import GraphProjection
from memgate.log.keys import load_or_create_key
from memgate.store.sqlite import SqliteStore

RESULTS = Path(__file__).resolve().parent / "results"
T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _item(memory_id: str, session: str, at: datetime) -> MemoryItem:
    return MemoryItem(
        id=memory_id,
        namespace=("bench", session[-2:]),
        key=None,
        content=f"memory {memory_id}",
        pool=PoolName.LONG,
        state=MemoryState.APPROVED,
        trust_score=1.0,
        decision=Decision.APPROVE,
        source=Source.AGENT,
        session_id=session,
        call_id=f"{session}-w",
        created_at=at,
        updated_at=at,
        scanned_at=at,
        rules_version="bench",
        fingerprint=memory_id,
    )


def _event(item: MemoryItem) -> Event:
    return Event(
        op=Op.ADMITTED,
        memory_id=item.id,
        at=item.created_at,
        actor="bench",
        state_after=item.state,
        item=item,
    )


async def build(
    data_dir: Path, edges: int, per_session: int, per_call: int, seed: int
) -> dict[str, int]:
    """The synthetic log: returns counts."""
    rng = random.Random(seed)
    key = load_or_create_key(data_dir / "keys" / "log.key", env=LOG_KEY_ENV)
    store = await SqliteStore.open(data_dir / DB_FILE, key)
    sessions = edges // per_session
    base = max(per_session * 2, sessions // 2)
    ids: list[str] = []
    at = T0
    events: list[Event] = []
    for i in range(base):
        at += timedelta(microseconds=10)
        ids.append(f"m{i:08d}")
        events.append(_event(_item(ids[-1], f"seed{i % 1000:04d}", at)))
        if len(events) >= 2000:
            await store.append(events)
            events = []
    reads: list[ReadRecord] = []
    for s in range(sessions):
        session = f"s{s:07d}"
        for j in range(per_session):
            at += timedelta(microseconds=10)
            reads.append(
                ReadRecord(
                    memory_id=rng.choice(ids),
                    at=at,
                    session_id=session,
                    call_id=f"r{j // per_call}",
                )
            )
        at += timedelta(microseconds=10)
        ids.append(f"w{s:08d}")
        events.append(_event(_item(ids[-1], session, at)))
        if len(events) >= 2000:
            await store.record_reads(reads)
            reads = []
            await store.append(events)
            events = []
    await store.record_reads(reads)
    if events:
        await store.append(events)
    await store.flush()
    heads = await store.log_heads()
    await store.close()
    return {"events": heads[0], "reads": heads[1], "memories": len(ids), "sessions": sessions}


def projection(gateway: Gateway) -> GraphProjection:
    assert isinstance(gateway.graph, GraphProjection)
    return gateway.graph


def _server_cpu(graph: GraphProjection) -> float:
    """CPU seconds of the embedded FalkorDB server process (and its reaped
    children: background saves), nan when it cannot be read."""
    pid = getattr(getattr(graph.backend, "connection", None), "server_pid", 0)
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return float("nan")
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


async def project(gateway: Gateway, reads: int, events: int) -> dict[str, float]:
    graph = projection(gateway)
    started = time.perf_counter()
    # The embedded server starts with the projector: 0 s before it answers.
    cpu = [(time.process_time(), _server_cpu(graph))]
    if math.isnan(cpu[0][1]):
        cpu[0] = (cpu[0][0], 0.0)
    reads_done = None
    while True:
        status = await gateway.projection_status()
        now = time.perf_counter()
        if reads_done is None and graph.projected_reads >= reads:
            reads_done = now
            cpu.append((time.process_time(), _server_cpu(graph)))
        if status.available and status.lag == 0 and graph.projected_events >= events:
            break
        if status.last_error:
            print("graph error:", status.last_error, file=sys.stderr)
        await asyncio.sleep(0.05)
    done = time.perf_counter()
    cpu.append((time.process_time(), _server_cpu(graph)))
    assert reads_done is not None
    # Reads are drained before events; the first events batch may go first.
    return {
        "reads_seconds": reads_done - started,
        "read_links_per_s": reads / (reads_done - started),
        "events_seconds": done - reads_done,
        "events_per_s": events / max(done - reads_done, 1e-9),
        "total_seconds": done - started,
        # CPU seconds per phase: this process (all threads) and the server.
        "reads_client_cpu_s": cpu[1][0] - cpu[0][0],
        "reads_server_cpu_s": cpu[1][1] - cpu[0][1],
        "events_client_cpu_s": cpu[2][0] - cpu[1][0],
        "events_server_cpu_s": cpu[2][1] - cpu[1][1],
    }


def _ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50_ms": statistics.median(ordered) * 1000,
        "p95_ms": ordered[int(len(ordered) * 0.95) - 1] * 1000,
        "p99_ms": ordered[max(int(len(ordered) * 0.99) - 1, 0)] * 1000,
        "mean_ms": statistics.fmean(ordered) * 1000,
    }


async def investigations(gateway: Gateway, memories: int, n: int, seed: int) -> dict[str, Any]:
    rng = random.Random(seed)
    base_ids = [f"w{i:08d}" for i in range(memories)]
    out: dict[str, Any] = {}
    kinds: list[tuple[str, Any]] = [
        ("readers", lambda m: gateway.readers(m)),
        ("blast_radius d1", lambda m: gateway.blast_radius(m, 1)),
        ("blast_radius d2", lambda m: gateway.blast_radius(m, 2)),
        ("blast_radius d3", lambda m: gateway.blast_radius(m, 3)),
        ("provenance", lambda m: gateway.provenance(m)),
    ]
    for name, ask in kinds:
        samples, sizes = [], []
        statuses: dict[str, int] = {}
        for _ in range(n):
            memory_id = rng.choice(base_ids)
            started = time.perf_counter()
            found = await ask(memory_id)
            samples.append(time.perf_counter() - started)
            statuses[found.status.value] = statuses.get(found.status.value, 0) + 1
            sizes.append(len(found.readers) + len(found.impact) + len(found.provenance))
        out[name] = {**_ms(samples), "rows_median": statistics.median(sizes), "status": statuses}
    return out


async def read_latency(root: Path, reads: int, rounds: int) -> dict[str, Any]:
    """Gateway.read p50 with the graph off and on, alternating rounds."""
    results: dict[str, list[float]] = {"off": [], "on": []}
    for r in range(rounds):
        for mode in ("off", "on"):
            data = root / f"lat-{mode}-{r}"
            gateway = await open_gateway(data, graph="embedded" if mode == "on" else None)
            try:
                ids = []
                for i in range(200):
                    receipt = await gateway.write(
                        MemoryWrite(
                            content=f"Fact number {i} about the deployment schedule.",
                            namespace=("bench", "lat"),
                            source=Source.USER,
                            session_id="writer",
                            target=Target.LONG,
                        )
                    )
                    ids.append(receipt.id)
                if gateway.graph is not None:
                    assert await projection(gateway).sync(within=30.0)
                samples = []
                for i in range(reads):
                    reader = Reader(session_id=f"s{i // 20}", call_id=f"c{i}")
                    started = time.perf_counter()
                    item = await gateway.read(ids[i % len(ids)], reader)
                    samples.append(time.perf_counter() - started)
                    assert item is not None
                    if i % 50 == 0:
                        await asyncio.sleep(0)  # let the committer and projector run
                results[mode].append(statistics.median(samples))
                if gateway.graph is not None:
                    assert await projection(gateway).sync(within=30.0)
                    status = await gateway.projection_status()
                    assert status.pending_reads == 0, status
            finally:
                await gateway.close()
    off = statistics.median(results["off"]) * 1e6
    on = statistics.median(results["on"]) * 1e6
    return {
        "off_p50_us": off,
        "on_p50_us": on,
        "overhead_pct": (on - off) / off * 100,
        "rounds_off_us": [x * 1e6 for x in results["off"]],
        "rounds_on_us": [x * 1e6 for x in results["on"]],
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", type=int, default=100_000, help="read edges (1M: 1000000)")
    parser.add_argument("--reads-per-session", type=int, default=20)
    parser.add_argument("--reads-per-call", type=int, default=5)
    parser.add_argument("--queries", type=int, default=200, help="per investigation kind")
    parser.add_argument("--latency-reads", type=int, default=3000)
    parser.add_argument("--latency-rounds", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--tag", default="")
    parser.add_argument("--keep", action="store_true", help="keep the data dir")
    parser.add_argument(
        "--data",
        type=Path,
        default=None,
        help="a data dir kept by an earlier --keep run: skip the build and the projection"
        " timing (investigation latency only; kept, never deleted)",
    )
    parser.add_argument(
        "--reproject",
        action="store_true",
        help="with --data: drop the kept graph and time its projection again",
    )
    parser.add_argument("--skip-latency", action="store_true", help="no read-path rounds")
    args = parser.parse_args()
    reuse = args.data is not None
    root = args.data if reuse else Path(tempfile.mkdtemp(prefix="memgate-bench-graph-"))
    if args.keep or reuse:
        print(f"data dir: {root}", file=sys.stderr)
    try:
        started = time.perf_counter()
        if reuse:
            counts = json.loads((root / "counts.json").read_text())
        else:
            counts = await build(
                root / "big", args.edges, args.reads_per_session, args.reads_per_call, args.seed
            )
            (root / "counts.json").write_text(json.dumps(counts))
        build_s = time.perf_counter() - started
        print(f"built {counts} in {build_s:.1f} s", file=sys.stderr)
        if reuse and args.reproject:
            shutil.rmtree(root / "big" / "graph", ignore_errors=True)
        gateway = await open_gateway(root / "big", graph="embedded")
        try:
            if reuse and not args.reproject:
                assert await projection(gateway).sync(within=600.0)
                proj = {k: float("nan") for k in ("reads_seconds", "read_links_per_s")}
                proj |= {k: float("nan") for k in ("events_seconds", "events_per_s")}
                proj["total_seconds"] = float("nan")
                for phase in ("reads", "events"):
                    proj[f"{phase}_client_cpu_s"] = proj[f"{phase}_server_cpu_s"] = float("nan")
            else:
                proj = await project(gateway, counts["reads"], counts["events"])
            print(f"projected: {proj}", file=sys.stderr)
            writers = counts["sessions"]
            inv = await investigations(gateway, writers, args.queries, args.seed)
        finally:
            await gateway.close()
        if args.skip_latency:
            latency = {"off_p50_us": float("nan"), "on_p50_us": float("nan")}
            latency["overhead_pct"] = float("nan")
        else:
            latency = await read_latency(root, args.latency_reads, args.latency_rounds)
    finally:
        if not (args.keep or reuse):
            shutil.rmtree(root, ignore_errors=True)
    load = " / ".join(f"{x:.1f}" for x in os.getloadavg())
    rows = [
        "| measure | value | target |",
        "|---|---|---|",
        f"| read edges / events / memories / sessions | {counts['reads']:,} / {counts['events']:,}"
        f" / {counts['memories']:,} / {counts['sessions']:,} | |",
        f"| read links projected per second | {proj['read_links_per_s']:,.0f} | >= 20,000 |",
        f"| events projected per second (with taint edges) | {proj['events_per_s']:,.0f} | |",
        f"| full projection from scratch | {proj['total_seconds']:.1f} s | |",
        f"| projection CPU, reads phase: client / server | {proj['reads_client_cpu_s']:.1f} /"
        f" {proj['reads_server_cpu_s']:.1f} s | |",
        f"| projection CPU, events phase: client / server | {proj['events_client_cpu_s']:.1f} /"
        f" {proj['events_server_cpu_s']:.1f} s | |",
        f"| load average (1 / 5 / 15 min) at the end | {load} | |",
        f"| Gateway.read p50, graph off | {latency['off_p50_us']:.0f} us | |",
        f"| Gateway.read p50, graph on (projecting) | {latency['on_p50_us']:.0f} us | |",
        f"| read-path overhead | {latency['overhead_pct']:+.1f} % | <= 5 % |",
    ]
    for name, value in inv.items():
        rows.append(
            f"| {name} p50 / p95 / p99 (rows median {value['rows_median']:g}) |"
            f" {value['p50_ms']:.2f} / {value['p95_ms']:.2f} / {value['p99_ms']:.2f} ms"
            f" | p50 <= 5 ms{', p99 <= 50 ms' if name == 'blast_radius d3' else ''} |"
        )
    command = "python benchmarks/bench_graph.py " + " ".join(sys.argv[1:])
    text = "\n".join(
        [f"# bench_graph ({counts['reads']:,} read edges)", "", f"`{command}`", "", *rows, ""]
    )
    print(text)
    data = {
        "args": vars(args),
        "machine": machine(),
        "counts": counts,
        "build_seconds": build_s,
        "projection": proj,
        "investigations": inv,
        "read_latency": latency,
    }
    RESULTS.mkdir(exist_ok=True)
    stem = f"graph-{args.tag}" if args.tag else "graph"
    (RESULTS / f"{stem}.md").write_text(text)
    (RESULTS / f"{stem}.json").write_text(json.dumps(data, indent=2, default=str) + "\n")


if __name__ == "__main__":
    asyncio.run(main())
