"""How soon the projector's lease is free after its holder is SIGKILLed: a child
process takes the PostgreSQL advisory lock, is killed, and this process tries
the lease every 5 ms until it has it (a replica polls once a second, so a
takeover takes this plus up to the poll).

    python benchmarks/bench_lease.py [--url postgresql://root@127.0.0.1:5432/test] [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import subprocess
import sys
import time
import uuid

from memgate.lease.postgres import PostgresLease

HOLD = """
import asyncio, sys
from memgate.lease import open_lease

async def main() -> None:
    lease = open_lease(sys.argv[1], name=sys.argv[2])
    assert await lease.acquire()
    print("holding", flush=True)
    await asyncio.sleep(600)

asyncio.run(main())
"""


async def once(url: str) -> float:
    name = f"memgate:bench:{uuid.uuid4().hex}"
    child = subprocess.Popen(  # noqa: ASYNC220 - started once, before the clock runs
        [sys.executable, "-c", HOLD, url, name], stdout=subprocess.PIPE, text=True
    )
    lease = PostgresLease(url, name)
    try:
        assert child.stdout is not None
        assert child.stdout.readline().strip() == "holding"
        assert not await lease.acquire()
        started = time.perf_counter()
        os.kill(child.pid, signal.SIGKILL)
        while not await lease.acquire():  # noqa: ASYNC110 - polling is what a replica does
            await asyncio.sleep(0.005)
        return time.perf_counter() - started
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        if child.stdout is not None:
            child.stdout.close()
        await lease.close()


async def main(url: str, runs: int) -> None:
    times = [await once(url) for _ in range(runs)]
    shown = ", ".join(f"{t * 1000:.1f}" for t in times)
    print(f"lease free after its holder's SIGKILL (ms, {runs} runs): {shown}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", default="postgresql://root@127.0.0.1:5432/test")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    asyncio.run(main(args.url, args.runs))
