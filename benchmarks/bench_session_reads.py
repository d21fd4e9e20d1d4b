"""Does a write cost more the more its session has read? One session alternates
agent writes and reads (the LangGraph put+get shape) through a SQLite Gateway
(graph off): provenance routing checks, before each agent write, every memory the
session was served within the window (`[provenance]`, up to max_reads).

Two measures per size n, CPU time of the whole process (the machine is shared):

- `run`: n pairs of (agent write of a ~200-byte JSON value under a new key,
  read_key of it), CPU ms per pair averaged over the n pairs, and pairs/s of CPU;
- `at n`: the session first reads n - probe memories (written by the user source,
  which provenance does not route), then `--probe` pairs are timed, ending with n
  reads: the cost of one pair near n earlier reads, without paying for the ones
  before (n stays within max_reads, 5,000 by default: past it every write of the
  session is held, "served more than 5000 memories").

    .venv/bin/python benchmarks/bench_session_reads.py [--sizes 100,1000,5000]
        [--run-max 1000] [--probe 50] [--out session_reads]

Writes benchmarks/results/<out>.{md,json}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_langgraph import NS, values
from bench_scan import machine

from memgate.adapters._backend import canonical_json
from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryWrite, Reader, Target

RESULTS = Path(__file__).resolve().parent / "results"


async def pairs(gateway: Any, data: list[dict[str, Any]], start: int, session: str = "b") -> float:
    """CPU seconds of len(data) agent write + read_key pairs of `session`."""
    reader = Reader(session_id=session)
    cpu = time.process_time()
    for i, value in enumerate(data, start):
        write = MemoryWrite(
            content=canonical_json(value),
            namespace=NS,
            key=f"k{i}",
            source=Source.AGENT,
            session_id=session,
            target=Target.LONG,
        )
        receipt = await gateway.write(write)
        if receipt.provenance is not None:
            raise AssertionError(f"k{i} held by provenance: {receipt.provenance}")
        if await gateway.read_key(NS, f"k{i}", reader) is None:
            raise AssertionError(f"lost k{i}")
    return time.process_time() - cpu


WARM = 20
"""Pairs of another session first: the scanner's first calls are not timed."""


async def run(n: int, tmp: Path) -> float:
    gateway = await open_gateway(tmp / f"run-{n}", graph=None)
    try:
        await pairs(gateway, values(WARM), 10**6, session="warm")
        return await pairs(gateway, values(n), 0) / n
    finally:
        await gateway.close()


async def at(n: int, probe: int, tmp: Path) -> float:
    gateway = await open_gateway(tmp / f"at-{n}", graph=None)
    reader = Reader(session_id="b")
    try:
        await pairs(gateway, values(WARM), 10**6, session="warm")
        for i, value in enumerate(values(n - probe)):
            write = MemoryWrite(
                content=canonical_json(value),
                namespace=("users", "prefill"),
                key=f"p{i}",
                source=Source.USER,
                session_id="u",
                target=Target.LONG,
            )
            await gateway.write(write)
            if await gateway.read_key(("users", "prefill"), f"p{i}", reader) is None:
                raise AssertionError(f"lost p{i}")
        return await pairs(gateway, values(n)[n - probe :], n - probe) / probe
    finally:
        await gateway.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="100,1000,5000")
    parser.add_argument("--run-max", type=int, default=1000, help="largest n for `run`")
    parser.add_argument("--probe", type=int, default=50)
    parser.add_argument("--out", default="session_reads")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    tmp = Path(tempfile.mkdtemp(prefix="bench-session-reads-"))
    rows: dict[int, dict[str, float | None]] = {}
    try:
        for n in sizes:
            ran = asyncio.run(run(n, tmp)) if n <= args.run_max else None
            probed = asyncio.run(at(n, args.probe, tmp))
            rows[n] = {
                "run_cpu_ms": None if ran is None else ran * 1e3,
                "run_pairs_per_cpu_s": None if ran is None else 1 / ran,
                "at_cpu_ms": probed * 1e3,
                "at_pairs_per_cpu_s": 1 / probed,
            }
            print(n, rows[n], flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    load = Path("/proc/loadavg").read_text().split()[:3]
    lines = [
        "# One session's agent write + read_key pairs (SQLite gateway, graph off),"
        f" probe {args.probe}",
        "",
        f"Load average after the run: {' '.join(load)}",
        "",
        "| n | run: CPU ms/pair | run: pairs/CPU s | after n reads: CPU ms/pair | pairs/CPU s |",
        "|---:|---:|---:|---:|---:|",
    ]
    for n, row in rows.items():
        ran_ms, ran_s = row["run_cpu_ms"], row["run_pairs_per_cpu_s"]
        lines.append(
            f"| {n} | {'-' if ran_ms is None else f'{ran_ms:.2f}'}"
            f" | {'-' if ran_s is None else f'{ran_s:.0f}'}"
            f" | {row['at_cpu_ms']:.2f} | {row['at_pairs_per_cpu_s']:.0f} |"
        )
    text = "\n".join(lines)
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{args.out}.md").write_text(text + "\n")
    payload = {"sizes": rows, "probe": args.probe, "machine": machine()}
    (RESULTS / f"{args.out}.json").write_text(json.dumps(payload, indent=2) + "\n")


if __name__ == "__main__":
    main()
