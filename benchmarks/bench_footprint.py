"""Memory footprint of 100k short-term entries, next to the peers' in-memory stores.

Each cell runs in its own fresh process and reports the memory its entries hold:
`traced` = bytes allocated by Python and still live (tracemalloc, after a gc),
`rss` = growth of the resident set. Entries are ~256 B `prose` texts from
corpus_gen (seeded), spread over 200 namespaces of 500 (the default policy keeps
at most 1,000 per namespace).

- memgate_short_pool: transient MemoryItems (as the gateway builds them: id,
  namespace, session, fingerprint, times, expiry) in the short-term pool;
- memgate_gateway: the same entries written through an in-memory Gateway (scan,
  MAC-chained log twin, short-term pool, promotion bookkeeping): `--gateway-n`
  writes (default 20,000; a scan per write makes 100k slow), scaled to 100k;
- langgraph_memory: LangGraph InMemoryStore values {"content": text};
- agent_memory_guard: MemoryGuard (permissive policy) writes.

    .venv/bin/python benchmarks/bench_footprint.py [--n 100000] [--gateway-n 20000]

Writes benchmarks/results/footprint.{md,json} (with machine info).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import shutil
import subprocess
import sys
import time
import tracemalloc
from datetime import timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine
from corpus_gen import generate

RESULTS = Path(__file__).resolve().parent / "results"
CONTENT = 256
SPACES = 200
CELLS = ("memgate_short_pool", "memgate_gateway", "langgraph_memory", "agent_memory_guard")


def _rss() -> int:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _texts(n: int) -> list[str]:
    return [generate(CONTENT, "prose", 91_000_000 + i) for i in range(n)]


def _fill(cell: str, texts: list[str]) -> Any:
    """Build the entries; returns what holds them (kept alive while measured)."""
    if cell == "memgate_short_pool":
        from memgate.bootstrap import short_pool
        from memgate.domain import Decision, Source
        from memgate.domain.memory import MemoryItem, MemoryState, PoolName, utcnow
        from memgate.gateway.core import content_fingerprint, new_id
        from memgate.trust import Policy

        # NOTE: the default policy caps the pool at 50,000 entries / 64 MiB: with it
        # half the entries left as evictions (and were held, undrained, in the
        # eviction list). The caps are raised so the pool holds all of them.
        policy = Policy.load()
        routing = policy.routing.model_copy(
            update={"short_max_total_entries": 10 * len(texts), "short_max_total_bytes": 1 << 40}
        )
        pool = short_pool(policy.model_copy(update={"routing": routing}))
        now = utcnow()

        async def go() -> None:
            for i, text in enumerate(texts):
                item = MemoryItem(
                    id=new_id(),
                    namespace=("agent", f"session-{i % SPACES}"),
                    key=None,
                    content=text,
                    pool=PoolName.SHORT,
                    state=MemoryState.TRANSIENT,
                    trust_score=1.0,
                    decision=Decision.APPROVE,
                    source=Source.TOOL,
                    session_id=f"session-{i % SPACES}",
                    agent_id="agent-1",
                    call_id=f"call-{i}",
                    created_at=now,
                    updated_at=now,
                    scanned_at=now,
                    expires_at=now + timedelta(hours=1),
                    rules_version="bench",
                    fingerprint=content_fingerprint(text),
                )
                await pool.put(item)
            assert len(pool) == len(texts), len(pool)  # type: ignore[arg-type]
            assert not await pool.claim_evicted()

        asyncio.run(go())
        return pool
    if cell == "langgraph_memory":
        from langgraph.store.memory import InMemoryStore

        store = InMemoryStore()
        for i, text in enumerate(texts):
            store.put(("agent", f"session-{i % SPACES}"), f"k{i}", {"content": text})
        return store
    if cell == "agent_memory_guard":
        from agent_memory_guard import MemoryGuard, Policy

        guard = MemoryGuard(policy=Policy.permissive())
        for i, text in enumerate(texts):
            guard.write(f"agent.session-{i % SPACES}.k{i}", text)
        return guard
    raise ValueError(cell)


async def _gateway_cell(texts: list[str]) -> tuple[int, float]:
    """RSS growth while `texts` are written through a SQLite-backed Gateway
    (target short), measured with the gateway open, which is then closed."""
    import tempfile

    from memgate.bootstrap import open_gateway
    from memgate.domain import Source
    from memgate.domain.memory import MemoryState, MemoryWrite, Target

    directory = Path(tempfile.mkdtemp(prefix="memgate-footprint-"))
    gateway = await open_gateway(directory, graph=None)
    try:

        def write(i: int, text: str) -> MemoryWrite:
            return MemoryWrite(
                content=text,
                namespace=("agent", f"session-{i % SPACES}"),
                source=Source.TOOL,
                session_id=f"session-{i % SPACES}",
                agent_id="agent-1",
                call_id=f"call-{i}",
                target=Target.SHORT,
            )

        for i, text in enumerate(_texts(50)):  # first-use costs stay out
            await gateway.write(write(i, text).model_copy(update={"namespace": ("warm",)}))
        gc.collect()
        rss0 = _rss()
        t0 = time.perf_counter()
        for i, text in enumerate(texts):
            receipt = await gateway.write(write(i, text))
            assert receipt.state is MemoryState.TRANSIENT
        await gateway.flush()
        fill_s = time.perf_counter() - t0
        gc.collect()
        return _rss() - rss0, fill_s
    finally:
        await gateway.close()
        shutil.rmtree(directory, ignore_errors=True)


def one(cell: str, n: int) -> dict[str, Any]:
    """Measure one cell in this process (called in a fresh subprocess). The
    gateway cell is measured by RSS only (tracemalloc would slow every scan)."""
    texts = _texts(n)
    if cell == "memgate_gateway":
        rss, fill_s = asyncio.run(_gateway_cell(texts))
        return {
            "cell": cell,
            "entries": n,
            "traced_bytes": None,
            "rss_bytes": rss,
            "content_bytes": sum(len(t.encode()) for t in texts),
            "fill_s": fill_s,
        }
    _fill(cell, texts[:50])  # imports and first-use caches stay out
    gc.collect()
    tracemalloc.start()
    rss0 = _rss()
    base, _ = tracemalloc.get_traced_memory()
    t0 = time.perf_counter()
    holder = _fill(cell, texts)
    fill_s = time.perf_counter() - t0
    gc.collect()
    traced, _ = tracemalloc.get_traced_memory()
    rss = _rss() - rss0
    tracemalloc.stop()
    del holder
    text_bytes = sum(len(t.encode()) for t in texts)
    return {
        "cell": cell,
        "entries": n,
        "traced_bytes": traced - base,
        "rss_bytes": rss,
        "content_bytes": text_bytes,
        "fill_s": fill_s,
    }


def _run_cell(cell: str, n: int) -> dict[str, Any] | None:
    proc = subprocess.run(
        [sys.executable, __file__, "--one", cell, "--n", str(n)],
        capture_output=True,
        text=True,
        check=False,
        timeout=3600,
    )
    if proc.returncode != 0:
        print(f"{cell}: failed\n{proc.stderr[-2000:]}", file=sys.stderr)
        return None
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


def markdown(rows: list[dict[str, Any]], n: int) -> str:
    lines = [
        "# bench_footprint",
        "",
        f"Memory held by {n:,} short-term entries of ~{CONTENT} B text, each cell in a"
        " fresh process (tracemalloc after gc; RSS growth). Scaled cells were measured"
        " on fewer entries and scaled linearly to the same count. memgate_gateway ="
        " writes through a SQLite-backed Gateway (target short), RSS only; its bounded"
        " caches (scan cache, statement caches) are in the figure, so scaling"
        " overstates them.",
        "",
        "| store | entries measured | MB traced (scaled) | MB RSS (scaled) |"
        " bytes per entry | of which text | build s |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        scale = n / r["entries"]
        traced = r["traced_bytes"]
        held = traced if traced is not None else r["rss_bytes"]
        lines.append(
            f"| {r['cell']} | {r['entries']:,} |"
            f" {'-' if traced is None else f'{traced * scale / 1e6:.1f}'} |"
            f" {r['rss_bytes'] * scale / 1e6:.1f} | {held / r['entries']:,.0f} |"
            f" {r['content_bytes'] / r['entries']:,.0f} | {r['fill_s']:.1f} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--gateway-n", type=int, default=20_000)
    parser.add_argument("--one", choices=CELLS, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(one(args.one, args.n)))
        return
    rows = []
    for cell in CELLS:
        n = args.gateway_n if cell == "memgate_gateway" else args.n
        row = _run_cell(cell, n)
        if row is not None:
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    text = markdown(rows, args.n)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "footprint.md").write_text(text)
    data = {"machine": machine(), "args": vars(args), "target_entries": args.n, "rows": rows}
    (RESULTS / "footprint.json").write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
