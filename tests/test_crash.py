"""Crash safety: a worker process (tests/crash_worker.py) writing, or writing and
rolling back, is killed with SIGKILL at a random moment, again and again on the
same data directory. After every kill, reopening the store must give:

- a log whose MAC chain verifies, with the long-term pool equal to the replay
  of the log (the projection is written in the event's transaction);
- every write the worker acknowledged (printed) before it died, at the
  sequence number its receipt named; every acknowledged rollback's marker;
- no half-applied rollback: each marker (`rolled_back` on `rollback:<id>`) is
  preceded by exactly `detail["changed"]` compensating `rolled_back` events,
  and no compensating event stands without its marker right after the run.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memgate.bootstrap import open_gateway
from memgate.domain.events import LogRecord, Op
from memgate.domain.memory import MemoryItem, PoolName

WORKER = Path(__file__).with_name("crash_worker.py")
ROOT = WORKER.parent.parent
ROUNDS = 8


def _is_marker(record: LogRecord) -> bool:
    return record.event.op is Op.ROLLED_BACK and record.event.memory_id.startswith("rollback:")


def rollback_shape_problems(records: list[LogRecord]) -> list[str]:
    """Every maximal run of compensating events must end in a marker that counts it."""
    problems = []
    run: list[LogRecord] = []
    for record in records:
        if _is_marker(record):
            changed = (record.event.detail or {}).get("changed")
            if changed != len(run):
                problems.append(
                    f"marker {record.seq} says {changed} changes, {len(run)} precede it"
                )
            run = []
        elif record.event.op is Op.ROLLED_BACK:
            run.append(record)
        elif run:
            problems.append(
                f"compensating events {run[0].seq}..{run[-1].seq} have no marker"
                f" (event {record.seq} follows)"
            )
            run = []
    if run:
        problems.append(f"compensating events {run[0].seq}..{run[-1].seq} end the log unmarked")
    return problems


def run_worker(data_dir: Path, mode: str, rng: random.Random, out: Path) -> float:
    """Start the worker, kill it with SIGKILL a random moment after it is ready;
    returns the delay used."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with out.open("wb") as sink:
        proc = subprocess.Popen(
            [sys.executable, str(WORKER), str(data_dir), mode],
            stdout=sink,
            stderr=subprocess.PIPE,
            cwd=ROOT,
            env=env,
        )
    try:
        deadline = time.monotonic() + 30
        while not out.read_bytes().startswith(b"READY\n"):
            if proc.poll() is not None:
                stderr = proc.stderr.read().decode() if proc.stderr else ""
                raise AssertionError(f"worker exited early ({proc.returncode}): {stderr}")
            assert time.monotonic() < deadline, "worker did not start"
            time.sleep(0.01)
        delay = rng.uniform(0.05, 0.6)
        time.sleep(delay)
        assert proc.poll() is None, f"worker died by itself: {proc.stderr.read().decode()}"  # type: ignore[union-attr]
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        return delay
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        if proc.stderr is not None:
            proc.stderr.close()


def acknowledged(out: Path) -> list[list[str]]:
    """Lines the worker finished printing (a torn last line was never acknowledged)."""
    text = out.read_text()
    lines = text.split("\n")[:-1]  # what follows the last newline is incomplete
    return [line.split() for line in lines if line != "READY"]


async def check_store(data_dir: Path, acks: list[list[str]]) -> tuple[int, int]:
    gw = await open_gateway(data_dir, graph=None)
    try:
        result = await gw.verify()
        assert result.ok, f"verify failed after a kill: {result}"
        head = (await gw.checkpoint()).seq
        assert result.last_seq == head
        records: list[LogRecord] = []
        while len(records) < head:
            records.extend(await gw.store.records(after_seq=len(records), limit=5000))
        by_seq = {r.seq: r for r in records}
        writes = rollbacks = 0
        for ack in acks:
            if ack[0] == "W":
                memory_id, seq = ack[1], int(ack[2])
                assert seq in by_seq, f"acknowledged write {memory_id} at {seq} is lost"
                assert by_seq[seq].event.memory_id == memory_id
                assert await gw.history(memory_id)
                writes += 1
            else:
                marker, changed = int(ack[1]), int(ack[2])
                assert marker in by_seq and _is_marker(by_seq[marker]), f"rollback {marker} lost"
                assert (by_seq[marker].event.detail or {})["changed"] == changed
                rollbacks += 1
        problems = rollback_shape_problems(records)
        assert not problems, problems
        # The long-term pool is the projection of the log, even across kills.
        replayed = await gw.store.state_at(head)
        for memory_id, body in replayed.items():
            item = MemoryItem.model_validate(body)
            if item.pool is PoolName.LONG:
                assert await gw.get_any(memory_id) == item, f"pool row of {memory_id} is stale"
        return writes, rollbacks
    finally:
        await gw.close()


@pytest.mark.parametrize("mode", ["write", "rollback"])
def test_sigkill_never_loses_an_acknowledged_write_or_half_applies_a_rollback(
    mode: str, tmp_path: Path
) -> None:
    rng = random.Random()
    data_dir = tmp_path / "data"
    totals = [0, 0]
    for round_ in range(ROUNDS):
        out = tmp_path / f"out-{round_}.txt"
        delay = run_worker(data_dir, mode, rng, out)
        acks = acknowledged(out)
        try:
            writes, rollbacks = asyncio.run(check_store(data_dir, acks))
        except AssertionError as exc:
            raise AssertionError(
                f"round {round_}, killed {delay:.3f} s after start: {exc}"
            ) from exc
        totals[0] += writes
        totals[1] += rollbacks
    assert totals[0] > 0, "the worker never acknowledged a write before being killed"
    if mode == "rollback":
        assert totals[1] > 0, "the worker never completed a rollback before being killed"


def test_shape_check_catches_a_half_applied_rollback() -> None:
    """The checker itself: a run of compensating events without its marker, or a
    marker whose count disagrees, is reported."""
    from datetime import UTC, datetime

    from memgate.domain.events import Event

    def rec(seq: int, op: Op, memory_id: str, changed: int | None = None) -> LogRecord:
        detail = {"changed": changed} if changed is not None else None
        event = Event(op=op, memory_id=memory_id, at=datetime.now(UTC), actor="t", detail=detail)
        return LogRecord(seq=seq, event=event, prev_mac="0", mac="0")

    good = [
        rec(1, Op.ADMITTED, "m1"),
        rec(2, Op.ROLLED_BACK, "m1"),
        rec(3, Op.ROLLED_BACK, "rollback:x", 1),
    ]
    assert rollback_shape_problems(good) == []
    torn = good[:2]
    assert rollback_shape_problems(torn)
    wrong = [*good[:2], rec(3, Op.ROLLED_BACK, "rollback:x", 2)]
    assert rollback_shape_problems(wrong)
    interleaved = [
        good[0],
        good[1],
        rec(3, Op.ADMITTED, "m2"),
        rec(4, Op.ROLLED_BACK, "rollback:x", 1),
    ]
    assert len(rollback_shape_problems(interleaved)) == 2
