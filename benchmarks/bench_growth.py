"""How each cost grows with the store: one line per size (1k, 10k, 100k and,
with --million, 1M events) for write, get, search, verify and rollback.

One store grows through the sizes. Between measurements it is filled with the
synthetic event stream of bench_rollback (appended through `SqliteStore.append`,
real schema, MAC chain, projection and FTS, 2,000 events per transaction: a
gateway write would scan each one and make a 1M build take far longer), less its
transient tool outputs: those live in the in-memory short-term pool with a TTL
(30 min by default), so a long log of them would not be live; bench_footprint
measures that pool. At each size, through a Gateway on that store:

- write: `--writes` sequential gateway writes of ~1 KB clean prose (scan, MAC
  chain, commit), as writes/s and median ms;
- get: median of `--reads` reads of random approved memories (recorded reads);
- search: median of namespace-prefix + one-word searches, limit 10;
- verify: the whole chain;
- rollback: dry run and applied rollback of the last 1,000 events (the usual
  incident: recent poison), and a dry run back over the last 10 % of the log;
- db bytes.

    .venv/bin/python benchmarks/bench_growth.py [--million] [--writes 500] [--reads 300]

Writes benchmarks/results/growth.{md,json} (with machine info; the 1M line is
kept from an earlier --million run when this run stops short of it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rollback import BATCH, KEY, gateway, synthetic_events
from bench_scan import machine
from corpus_gen import generate

from memgate.domain import Source
from memgate.domain.events import Event, Op
from memgate.domain.memory import MemoryState, MemoryWrite, PoolName, Reader, Target
from memgate.store.sqlite import SqliteStore
from memgate.trust import Inspector

RESULTS = Path(__file__).resolve().parent / "results"
SIZES = (1_000, 10_000, 100_000)
MILLION = 1_000_000
RECENT = 1000
READER = Reader(session_id="growth-reader", call_id="growth-call")
WORDS = ("deploy", "latency", "invoices", "retry", "pipeline", "customer")


class Stream:
    """The synthetic stream, consumed size by size; remembers approved ids."""

    def __init__(self, total: int) -> None:
        # the stream's transient events are skipped: ask for enough of the rest
        self._events: Iterator[Event] = synthetic_events(total * 2)
        self.approved: list[str] = []
        self._rng = random.Random(5)

    async def fill(self, path: Path, count: int) -> float:
        store = await SqliteStore.open(path, KEY)
        t0 = time.perf_counter()
        batch: list[Event] = []
        appended = 0
        while appended < count:
            event = next(self._events)
            if event.item is not None and event.item.pool is PoolName.SHORT:
                continue
            appended += 1
            batch.append(event)
            if event.state_after is MemoryState.APPROVED and event.op is Op.ADMITTED:
                # reservoir of approved ids to read (some get deleted later: reads
                # of those answer None and are skipped when choosing)
                if len(self.approved) < 5000:
                    self.approved.append(event.memory_id)
                else:
                    self.approved[self._rng.randrange(5000)] = event.memory_id
            if len(batch) == BATCH:
                await store.append(batch)
                batch = []
        if batch:
            await store.append(batch)
        # one snapshot at the end of each fill: a live gateway snapshots every
        # 10,000 events, so replay never starts further back than that
        await store.snapshot()
        await store.close()
        return time.perf_counter() - t0


def _ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


async def measure(path: Path, stream: Stream, args: argparse.Namespace) -> dict[str, Any]:
    gw = await gateway(path, Inspector.default(fingerprint_key=b"growth"))
    try:
        head = (await gw.checkpoint()).seq
        texts = [generate(1024, "prose", 77_000_000 + head + i) for i in range(args.writes)]
        warm = MemoryWrite(content=texts[0], namespace=("warm",), source=Source.USER)
        await gw.write(warm)
        if gw._snapshotting is not None:  # bench-only: the first write's catch-up snapshot
            await gw._snapshotting
        writes: list[float] = []
        for i, text in enumerate(texts):
            w = MemoryWrite(
                content=text,
                namespace=("growth", f"team{i % 8}"),
                source=Source.USER,
                session_id=f"g{i % 16}",
                target=Target.LONG,
            )
            t0 = time.perf_counter()
            await gw.write(w)
            writes.append(time.perf_counter() - t0)
        live = []
        for memory_id in stream.approved:
            item = await gw.get_any(memory_id)
            if item is not None and item.state is MemoryState.APPROVED:
                live.append(memory_id)
            if len(live) >= 500:
                break
        assert live, "no approved memory to read"
        rng = random.Random(head)
        gets: list[float] = []
        for _ in range(args.reads):
            memory_id = rng.choice(live)
            t0 = time.perf_counter()
            assert await gw.read(memory_id, READER) is not None
            gets.append(time.perf_counter() - t0)
        searches: list[float] = []
        for i in range(args.searches):
            t0 = time.perf_counter()
            await gw.search(("bench",), WORDS[i % len(WORDS)], limit=10, reader=READER)
            searches.append(time.perf_counter() - t0)
        await gw.flush()
        t0 = time.perf_counter()
        verified = await gw.verify()
        verify_s = time.perf_counter() - t0
        assert verified.ok, verified.reason
        head = (await gw.checkpoint()).seq
        t0 = time.perf_counter()
        tenth = await gw.rollback(to=head - head // 10, reason="growth", actor="bench")
        tenth_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        recent = await gw.rollback(to=head - RECENT, reason="growth", actor="bench")
        recent_dry_s = time.perf_counter() - t0
        t0 = time.perf_counter()
        await gw.rollback(to=head - RECENT, reason="growth", actor="bench", dry_run=False)
        recent_applied_s = time.perf_counter() - t0
    finally:
        await gw.close()
    db_bytes = sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))
    return {
        "events": head,
        "writes_per_s": len(writes) / sum(writes),
        "write_median_ms": _ms(writes),
        "get_median_ms": _ms(gets),
        "search_median_ms": _ms(searches),
        "verify_s": verify_s,
        "rollback_recent_changes": len(recent.changes),
        "rollback_recent_dry_s": recent_dry_s,
        "rollback_recent_applied_s": recent_applied_s,
        "rollback_tenth_changes": len(tenth.changes),
        "rollback_tenth_dry_s": tenth_s,
        "db_bytes": db_bytes,
    }


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    sizes = sorted(args.sizes) + ([MILLION] if args.million else [])
    root = Path(tempfile.mkdtemp(prefix="memgate-bench-growth-"))
    path = root / "memgate.sqlite3"
    stream = Stream(sizes[-1])
    rows: list[dict[str, Any]] = []
    built = 0
    try:
        for size in sizes:
            fill_s = await stream.fill(path, size - built)
            built = size
            row = {"size": size, "fill_s": fill_s, **(await measure(path, stream, args))}
            rows.append(row)
            print(json.dumps(row), file=sys.stderr)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return rows


COLUMNS = (
    ("size", "synthetic events", "{:,}"),
    ("writes_per_s", "writes/s", "{:,.0f}"),
    ("write_median_ms", "write median ms", "{:.3f}"),
    ("get_median_ms", "get median ms", "{:.3f}"),
    ("search_median_ms", "search median ms", "{:.3f}"),
    ("verify_s", "verify s", "{:.3f}"),
    ("rollback_recent_dry_s", "rollback last 1k dry s", "{:.3f}"),
    ("rollback_recent_applied_s", "rollback last 1k applied s", "{:.3f}"),
    ("rollback_tenth_changes", "changes, last 10 %", "{:,}"),
    ("rollback_tenth_dry_s", "dry run last 10 % s", "{:.3f}"),
    ("db_bytes", "db MB", "{:.0f}"),
)


def markdown(rows: list[dict[str, Any]]) -> str:
    lines = [
        "# bench_growth",
        "",
        "One store grown through the sizes (synthetic events appended through"
        " `SqliteStore.append`); at each size, through a Gateway: sequential writes of"
        " ~1 KB clean prose, reads of random approved memories, prefix + one-word"
        " searches, a full verify, rollbacks over the last 1,000 events (dry, applied)"
        " and a dry run over the last 10 % of the log. Transient tool outputs are left"
        " out of the synthetic log (the short-term pool is in memory, with a TTL).",
        "",
        "| " + " | ".join(title for _, title, _ in COLUMNS) + " |",
        "|" + "---|" * len(COLUMNS),
    ]
    for row in rows:
        cells = []
        for key, _, fmt in COLUMNS:
            value = row[key] / 1e6 if key == "db_bytes" else row[key]
            cells.append(fmt.format(value))
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--million", action="store_true", help="grow to 1M events too")
    parser.add_argument("--writes", type=int, default=500)
    parser.add_argument("--reads", type=int, default=300)
    parser.add_argument("--searches", type=int, default=30)
    parser.add_argument("--sizes", type=int, nargs="+", default=list(SIZES))
    parser.add_argument("--out", default="growth", help="results file stem")
    args = parser.parse_args()
    started = time.perf_counter()
    rows = asyncio.run(run(args))
    previous = RESULTS / f"{args.out}.json"
    if not args.million and previous.exists():
        # keep the 1M line of an earlier --million run, marked with its own machine
        old = json.loads(previous.read_text())
        top = max(args.sizes)
        kept = [dict(r, kept_from_earlier_run=True) for r in old["rows"] if r["size"] > top]
        rows += kept
    data = {
        "machine": machine(),
        "args": vars(args),
        "rows": rows,
        "total_s": time.perf_counter() - started,
    }
    text = markdown(rows)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.out}.md").write_text(text)
    previous.write_text(json.dumps(data, indent=2) + "\n")


if __name__ == "__main__":
    main()
