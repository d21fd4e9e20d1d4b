"""Outbox crash worker (run by test_notify_crash.py, not collected by pytest).

    python outbox_crash_worker.py DATA_DIR

Opens a SQLite gateway and loops until killed: waves of concurrent web writes
that wait for review (each one a notice), now and then an approval and a
rollback. Prints `W <seq>` / `R <seq>` per acknowledged operation, flushed.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from memgate.bootstrap import open_gateway
from memgate.domain.memory import MemoryWrite


async def main(data_dir: Path) -> None:
    gateway = await open_gateway(data_dir, graph=None)
    print("READY", flush=True)
    n = 0
    while True:
        n += 1
        writes = [
            gateway.write(
                MemoryWrite(
                    content=f"a web page about release {n}.{i}",
                    namespace=("crash", str(i)),
                    source="web",
                    target="long",
                )
            )
            for i in range(6)
        ]
        for receipt in await asyncio.gather(*writes):
            print(f"W {receipt.seq}", flush=True)
        if n % 4 == 0:
            approved = await gateway.approve(receipt.id, reviewer="reviewer-1")
            print(f"A {approved.id}", flush=True)
        if n % 7 == 0:
            plan = await gateway.rollback(
                to=receipt.seq, reason=f"drill {n}", actor="admin:crash", dry_run=False
            )
            print(f"R {plan.marker_seq}", flush=True)


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1])))
