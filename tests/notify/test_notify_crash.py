"""The outbox row commits with its event: a worker writing (and rolling back) is
SIGKILLed at random moments, and after each kill, through the public
interfaces, every event of the log that people are told about has its notice
in the outbox, and no notice reports an event the log does not hold."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from memgate.bootstrap import open_gateway, open_outbox
from memgate.domain.notices import event_notice_id, kind_of

WORKER = Path(__file__).with_name("outbox_crash_worker.py")
CYCLES = 3


def _run_and_kill(data_dir: Path, acks: int) -> list[int]:
    """Run the worker until it acknowledged `acks` operations, then SIGKILL it."""
    errors = data_dir.parent / "worker.err"
    seen: list[int] = []
    with (
        errors.open("w") as stderr,
        subprocess.Popen(
            [sys.executable, str(WORKER), str(data_dir)],
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            env={**os.environ, "MEMGATE_GRAPH": "none"},
        ) as process,
    ):
        assert process.stdout is not None
        deadline = time.monotonic() + 120
        try:
            while len(seen) < acks:
                line = process.stdout.readline()
                if not line:
                    raise AssertionError(errors.read_text())
                kind, _, value = line.strip().partition(" ")
                if kind in ("W", "R"):
                    seen.append(int(value))
                assert time.monotonic() < deadline
        finally:
            process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
    return seen


async def _check(data_dir: Path, acked: list[int]) -> int:
    gateway = await open_gateway(data_dir, graph=None)
    outbox = open_outbox(data_dir)
    try:
        told: set[str] = set()
        after = 0
        while records := await gateway.store.records(after_seq=after, limit=1000):
            for record in records:
                if kind_of(record.event) is not None:
                    told.add(event_notice_id(record.seq))
            after = records[-1].seq
        assert max(acked) <= after  # what was acknowledged is in the log
        claimed = await outbox.claim(now=time.time() + 1, limit=100_000, lease=1, due_only=False)
        notices = {e.notice.id for e in claimed}
        assert notices == told
        assert all(e.notice.seq is not None and e.notice.seq <= after for e in claimed)
        return len(told)
    finally:
        await outbox.close()
        await gateway.close()


def test_every_event_told_survives_a_kill_with_its_notice(tmp_path: Path) -> None:
    rng = random.Random(15)
    data_dir = tmp_path / "data"
    counts = []
    for _ in range(CYCLES):
        acked = _run_and_kill(data_dir, rng.randint(20, 90))
        counts.append(asyncio.run(_check(data_dir, acked)))
    assert counts == sorted(counts) and counts[-1] > counts[0] > 0
