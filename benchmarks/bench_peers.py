"""memgate next to the memory backends and guard a team could pick instead, on
the same inputs in the same run: write, get and search/list latency, ratios pair
by pair.

Pairs (each compares like with like as far as the peers allow):
- memgate Gateway on SQLite (scan, MAC-chained log, WAL, synchronous=NORMAL)
  vs LangGraph `SqliteStore` (given the same WAL + synchronous=NORMAL
  connection, so both are equally durable; no scanning, no log);
- memgate Gateway on its in-memory twins vs LangGraph `InMemoryStore`;
- memgate Gateway on SQLite vs OWASP agent-memory-guard `MemoryGuard` (strict
  policy, its in-memory store: it scans every write, keeps no durable log).

Inputs: ~1 KB `prose` memories from corpus_gen (seeded; clean, so every tool
stores them: memgate approves them into the long-term pool). Each cell runs
`--repeat` times on fresh stores; the tables quote the median of the repeats.

    .venv/bin/python benchmarks/bench_peers.py [--n 1000] [--reads 500] [--repeat 3]

Writes benchmarks/results/peers.{md,json} (with machine info).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine
from corpus_gen import generate

from memgate.bootstrap import memory_gateway, open_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryState, MemoryWrite, Reader, Target
from memgate.gateway import Gateway

RESULTS = Path(__file__).resolve().parent / "results"
SIZE = 1024
READER = Reader(session_id="bench-reader", call_id="bench-call")
WORDS = ("deploy", "latency", "invoices", "retry", "pipeline", "customer")


def _texts(n: int, seed: int) -> list[str]:
    return [generate(SIZE, "prose", seed * 1_000_003 + i) for i in range(n)]


def _median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def _timed(fn: Callable[[int], object], n: int) -> list[float]:
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        fn(i)
        out.append(time.perf_counter() - t0)
    return out


async def _atimed(fn: Callable[[int], Awaitable[object]], n: int) -> list[float]:
    out = []
    for i in range(n):
        t0 = time.perf_counter()
        await fn(i)
        out.append(time.perf_counter() - t0)
    return out


def _cell(write: list[float], get: list[float], search: list[float]) -> dict[str, float]:
    return {
        "writes_per_s": len(write) / sum(write),
        "write_median_ms": _median_ms(write),
        "get_median_ms": _median_ms(get),
        "search_median_ms": _median_ms(search),
    }


async def _memgate(gateway: Gateway, texts: list[str], reads: int) -> dict[str, float]:
    warm = MemoryWrite(content=texts[0], namespace=("warm",), source=Source.USER)
    await gateway.write(warm.model_copy(update={"target": Target.LONG}))
    ids: list[str] = []

    async def write(i: int) -> None:
        receipt = await gateway.write(
            MemoryWrite(
                content=texts[i],
                namespace=("bench", f"team{i % 8}"),
                source=Source.USER,
                session_id=f"s{i % 16}",
                target=Target.LONG,
            )
        )
        if receipt.state is MemoryState.APPROVED:
            ids.append(receipt.id)

    w = await _atimed(write, len(texts))
    assert len(ids) > len(texts) // 2, "memgate approved too few of the clean inputs"

    async def get(i: int) -> None:
        assert await gateway.read(ids[i % len(ids)], READER) is not None

    async def search(i: int) -> None:
        await gateway.search(("bench",), WORDS[i % len(WORDS)], limit=10, reader=READER)

    g = await _atimed(get, reads)
    s = await _atimed(search, max(reads // 5, 20))
    return _cell(w, g, s)


def _langgraph(store: Any, texts: list[str], reads: int) -> dict[str, float]:
    store.put(("warm",), "k", {"content": texts[0]})

    def write(i: int) -> None:
        store.put(("bench", f"team{i % 8}"), f"k{i}", {"content": texts[i]})

    w = _timed(write, len(texts))

    def get(i: int) -> None:
        j = i % len(texts)
        assert store.get(("bench", f"team{j % 8}"), f"k{j}") is not None

    def search(i: int) -> None:
        store.search(("bench",), limit=10)

    g = _timed(get, reads)
    s = _timed(search, max(reads // 5, 20))
    return _cell(w, g, s)


def _amg(texts: list[str], reads: int) -> dict[str, float]:
    from agent_memory_guard import MemoryGuard, Policy

    guard = MemoryGuard(policy=Policy.strict())
    guard.write("warm", texts[0])
    stored: list[str] = []

    def write(i: int) -> None:
        key = f"bench.team{i % 8}.k{i}"
        guard.write(key, texts[i])
        stored.append(key)

    w = _timed(write, len(texts))

    def get(i: int) -> None:
        assert guard.read(stored[i % len(stored)]) is not None

    g = _timed(get, reads)
    # agent-memory-guard has no search: its cell stays empty
    return {**_cell(w, g, [float("nan")]), "search_median_ms": float("nan")}


def _lg_sqlite(path: Path) -> Any:
    from langgraph.store.sqlite import SqliteStore as LgSqliteStore

    conn = sqlite3.connect(path, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=NORMAL")
    store = LgSqliteStore(conn)
    store.setup()
    return store


async def one_round(args: argparse.Namespace, root: Path, r: int) -> dict[str, dict[str, float]]:
    texts = _texts(args.n, args.seed + r)
    out: dict[str, dict[str, float]] = {}
    gw = await open_gateway(root / f"memgate-{r}", graph=None)
    try:
        out["memgate_sqlite"] = await _memgate(gw, texts, args.reads)
    finally:
        await gw.close()
    mem = memory_gateway()
    try:
        out["memgate_memory"] = await _memgate(mem, texts, args.reads)
    finally:
        await mem.close()
    try:
        from langgraph.store.memory import InMemoryStore
    except ImportError:
        pass
    else:
        out["langgraph_sqlite"] = _langgraph(
            _lg_sqlite(root / f"lg-{r}.sqlite3"), texts, args.reads
        )
        out["langgraph_memory"] = _langgraph(InMemoryStore(), texts, args.reads)
    with contextlib.suppress(ImportError):
        out["agent_memory_guard"] = _amg(texts, args.reads)
    return out


PAIRS = (
    ("memgate_sqlite", "langgraph_sqlite"),
    ("memgate_memory", "langgraph_memory"),
    ("memgate_sqlite", "agent_memory_guard"),
    ("memgate_memory", "agent_memory_guard"),
)
METRICS = ("write_median_ms", "get_median_ms", "search_median_ms")


def summarize(rounds: list[dict[str, dict[str, float]]]) -> dict[str, Any]:
    tools = sorted({t for r in rounds for t in r})
    cells = {
        t: {
            m: statistics.median(r[t][m] for r in rounds if t in r)
            for m in ("writes_per_s", *METRICS)
        }
        for t in tools
    }
    ratios = []
    for ours, peer in PAIRS:
        if ours in cells and peer in cells:
            row: dict[str, Any] = {"memgate": ours, "peer": peer}
            for m in METRICS:
                a, b = cells[ours][m], cells[peer][m]
                row[m.replace("_median_ms", "_ratio")] = a / b if b == b and b > 0 else None
            ratios.append(row)
    return {"cells": cells, "ratios": ratios}


def _f(value: float | None, digits: int = 4) -> str:
    if value is None or value != value:
        return "-"
    return f"{value:.{digits}f}"


def markdown(data: dict[str, Any], args: argparse.Namespace) -> str:
    lines = [
        "# bench_peers",
        "",
        f"~{SIZE} B clean prose memories, {args.n} sequential writes, {args.reads} gets,"
        f" median of {args.repeat} rounds on fresh stores. ratio = memgate / peer"
        " (below 1: memgate is faster).",
        "",
        "| store | writes/s | write median ms | get median ms | search/list median ms |",
        "|---|---|---|---|---|",
    ]
    for tool, c in data["cells"].items():
        lines.append(
            f"| {tool} | {c['writes_per_s']:.0f} | {_f(c['write_median_ms'])} |"
            f" {_f(c['get_median_ms'])} | {_f(c['search_median_ms'])} |"
        )
    lines += [
        "",
        "| memgate | peer | write ratio | get ratio | search ratio |",
        "|---|---|---|---|---|",
    ]
    for r in data["ratios"]:
        lines.append(
            f"| {r['memgate']} | {r['peer']} | {_f(r['write_ratio'], 2)} |"
            f" {_f(r['get_ratio'], 2)} | {_f(r['search_ratio'], 2)} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=1000, help="writes per store and round")
    parser.add_argument("--reads", type=int, default=500, help="gets per store and round")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=23)
    args = parser.parse_args()
    root = Path(tempfile.mkdtemp(prefix="memgate-bench-peers-"))
    rounds = []
    try:
        for r in range(args.repeat):
            rounds.append(asyncio.run(one_round(args, root, r)))
            print(json.dumps(rounds[-1]), file=sys.stderr)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    data = {"machine": machine(), "args": vars(args), **summarize(rounds), "rounds": rounds}
    text = markdown(data, args)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "peers.md").write_text(text)
    (RESULTS / "peers.json").write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
