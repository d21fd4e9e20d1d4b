"""Crash-test worker (run by tests/test_crash.py, not collected by pytest).

    python tests/crash_worker.py DATA_DIR MODE

Opens a SQLite gateway on DATA_DIR and loops until it is killed. It prints one
line per acknowledged operation, flushed before the next one starts, so the
parent knows what the store promised:

    READY                      the gateway is open
    W <memory id> <seq>        a write returned its receipt
    R <marker seq> <changed>   an applied rollback returned its plan

MODE "write": waves of 8 concurrent writes (user long-term, tool short-term,
keyed rewrites), so group commits hold several writes. MODE "rollback": three
writes, then an applied rollback to a recent sequence number, now and then a
snapshot (automatic snapshots also run every 100 events).
"""

from __future__ import annotations

import asyncio
import random
import sys
from pathlib import Path

from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryWrite, Target
from memgate.domain.rollback import RollbackScope
from memgate.gateway import Gateway
from memgate.trust import Policy

TEXTS = (
    "The user prefers concise answers with code samples in Python.",
    "build #{n} passed: 312 tests, 0 failures",
    "favourite editor: {n}",
    "The on-call rotation changes every Monday at 09:00 UTC (note {n}).",
)


def emit(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def memory_write(n: int, rng: random.Random) -> MemoryWrite:
    kind = rng.randrange(4)
    namespace = ("crash", rng.choice(("a", "b")))
    content = TEXTS[kind].format(n=n)
    if kind == 1:
        return MemoryWrite(content=content, source=Source.TOOL, namespace=namespace)
    key = f"k{n % 5}" if kind == 2 else None
    return MemoryWrite(
        content=content,
        source=Source.USER,
        namespace=namespace,
        key=key,
        session_id=f"s{n % 3}",
        target=Target.LONG,
    )


async def one_write(gw: Gateway, n: int, rng: random.Random) -> None:
    receipt = await gw.write(memory_write(n, rng))
    emit(f"W {receipt.id} {receipt.seq}")


async def writes(gw: Gateway, rng: random.Random) -> None:
    n = 0
    while True:
        await asyncio.gather(*(one_write(gw, n + i, rng) for i in range(8)))
        n += 8


async def rollbacks(gw: Gateway, rng: random.Random) -> None:
    n = 0
    while True:
        for _ in range(3):
            await one_write(gw, n, rng)
            n += 1
        head = (await gw.checkpoint()).seq
        scope = RollbackScope(namespace_prefix=("crash", "a")) if rng.random() < 0.3 else None
        plan = await gw.rollback(
            to=max(0, head - rng.randint(1, 6)),
            reason="crash test",
            actor="crash-worker",
            scope=scope,
            dry_run=False,
        )
        emit(f"R {plan.marker_seq} {len(plan.changes)}")
        if rng.random() < 0.1:
            await gw.store.snapshot()


async def main(data_dir: Path, mode: str) -> None:
    base = Policy.load()
    policy = base.model_copy(
        update={"routing": base.routing.model_copy(update={"snapshot_every": 100})}
    )
    gw = await open_gateway(data_dir, policy=policy, graph=None)
    # The scanner is compiled on first use (LazyScanner, ~0.6 s under load): built
    # before READY, so the kill lands among writes, not in the first one's scan.
    gw.ctx.inspector.scanner.scan("warm up", Source.TOOL)
    emit("READY")
    rng = random.Random()
    await (writes(gw, rng) if mode == "write" else rollbacks(gw, rng))


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), sys.argv[2]))
