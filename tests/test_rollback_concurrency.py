"""Concurrency: many writers and a rollback at once give one of the serial orders.

A rollback reads the head, replays, and appends its compensating events and
marker; a write that slipped in between (the known pitfall) would either be
reverted without being in the plan or land between the compensating events.
The write gate forbids both. Concretely, for an applied rollback whose
compensating events are seq first..marker-1 and whose marker is seq marker:

- every write's event has seq < first or seq > marker; nothing but compensating
  events lies in first..marker;
- the served state afterwards is what the writes at or before the target built,
  plus the writes acknowledged after the marker (writes in between are reverted).

And while a (slow) rollback holds the gate, writers wait: with a short
`routing.rollback_wait_seconds` they get RollbackInProgress and nothing is
appended; with a long one they go through after the marker. Reads never wait.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from memgate.bootstrap import memory_gateway, open_gateway
from memgate.domain import Source
from memgate.domain.events import LogRecord, Op
from memgate.domain.memory import MemoryWrite, Target
from memgate.domain.raw import Version
from memgate.errors import RollbackInProgress
from memgate.gateway import Gateway
from memgate.gateway.core import WriteReceipt
from memgate.trust import Policy

WRITERS = 5
PER_WRITER = 40
KEYS = ("k0", "k1", "k2", "k3")


class Clock:
    def __init__(self) -> None:
        self.now = datetime(2026, 3, 1, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(microseconds=10)
        return self.now


def with_wait(seconds: float) -> Policy:
    base = Policy.load()
    routing = base.routing.model_copy(update={"rollback_wait_seconds": seconds})
    return base.model_copy(update={"routing": routing})


Opener = Callable[[Policy], Awaitable[Gateway]]


@pytest.fixture(params=["sqlite", "memory"])
def opener(request: pytest.FixtureRequest, tmp_path: Path) -> Opener:
    async def open_(policy: Policy) -> Gateway:
        if request.param == "sqlite":
            return await open_gateway(tmp_path / "d", policy=policy, clock=Clock(), graph=None)
        return memory_gateway(policy=policy, clock=Clock())

    return open_


def a_write(writer: int, n: int, rng: random.Random) -> MemoryWrite:
    """Unique content per write (no promotion); user long-term, tool short-term, keyed."""
    kind = rng.randrange(3)
    content = f"note {n} from writer {writer}: the build cache lives in bucket {rng.random():.6f}"
    if kind == 1:
        return MemoryWrite(content=content, source=Source.TOOL, namespace=("ci", str(writer)))
    return MemoryWrite(
        content=content,
        source=Source.USER,
        namespace=("team",),
        key=rng.choice(KEYS) if kind == 2 else None,
        target=Target.LONG,
    )


async def all_records(gw: Gateway) -> list[LogRecord]:
    head = (await gw.checkpoint()).seq
    records: list[LogRecord] = []
    while len(records) < head:
        records.extend(await gw.store.records(after_seq=len(records), limit=5000))
    return records


async def served(gw: Gateway) -> dict[str, str]:
    return {i.id: i.content for i in await gw.search((), limit=1000)}


def expected_served(
    seed: dict[str, str], acked: list[tuple[WriteReceipt, str]], target: int, marker: int
) -> dict[str, str]:
    """Seed state, then each id's last version written at or before the target
    or after the marker (the versions in between were reverted)."""
    state = dict(seed)
    for receipt, content in sorted(acked, key=lambda a: a[0].seq):
        if receipt.seq <= target or receipt.seq > marker:
            state[receipt.id] = content
    return state


def test_writers_and_a_rollback_serialize(opener: Opener) -> None:
    rng = random.Random(20260301)

    async def scenario() -> None:
        gw = await opener(with_wait(30.0))
        try:
            for n in range(10):
                await gw.write(a_write(99, n, rng))
            seed = await served(gw)
            seed_head = (await gw.checkpoint()).seq
            acked: list[tuple[WriteReceipt, str]] = []
            outcome: dict[str, Any] = {}
            third = asyncio.Event()

            async def writer(k: int) -> None:
                for n in range(PER_WRITER):
                    write = a_write(k, n, rng)
                    acked.append((await gw.write(write), write.content))
                    if len(acked) >= WRITERS * PER_WRITER // 3:
                        third.set()
                    # Separate requests: let the others in (the in-memory store never
                    # suspends inside a write, so without this a writer runs to the end).
                    await asyncio.sleep(0)

            async def roller() -> None:
                await third.wait()
                # Target: a point inside the stream of concurrent writes.
                target = sorted(r.seq for r, _ in acked)[len(acked) // 2]
                outcome["target"] = target
                outcome["plan"] = await gw.rollback(
                    to=target, reason="concurrency", actor="ops", dry_run=False
                )

            await asyncio.gather(*(writer(k) for k in range(WRITERS)), roller())
            target, plan = outcome["target"], outcome["plan"]
            marker = plan.marker_seq
            first = marker - len(plan.changes)
            assert len(acked) == WRITERS * PER_WRITER
            assert seed_head < target < first <= marker

            records = await all_records(gw)
            by_seq = {r.seq: r for r in records}
            between = [by_seq[s] for s in range(first, marker)]
            assert all(
                r.event.op is Op.ROLLED_BACK and not r.event.memory_id.startswith("rollback:")
                for r in between
            ), "a write slipped between the compensating events"
            assert by_seq[marker].event.memory_id.startswith("rollback:")
            assert {r.event.memory_id for r in between} == {c.memory_id for c in plan.changes}

            seqs = sorted(r.seq for r, _ in acked)
            assert not [s for s in seqs if first <= s <= marker], "a write inside the rollback"
            reverted = [s for s in seqs if target < s < first]
            survived = [s for s in seqs if s > marker]
            assert reverted, "no write fell between the target and the rollback: test too weak"
            assert survived, "no write came after the rollback: test too weak"

            got = await served(gw)
            want = expected_served(seed, acked, target, marker)
            assert got == want, (
                f"served {len(got)}, expected {len(want)}; extra {set(got) - set(want)},"
                f" missing {set(want) - set(got)},"
                f" wrong content {[k for k in got.keys() & want.keys() if got[k] != want[k]]}"
            )
            result = await gw.verify()
            assert result.ok, result.reason
        finally:
            await gw.close()

    asyncio.run(scenario())


def test_concurrent_rollbacks_run_one_at_a_time(opener: Opener) -> None:
    rng = random.Random(7)

    async def scenario() -> None:
        gw = await opener(with_wait(30.0))
        try:
            receipts = [await gw.write(a_write(0, n, rng)) for n in range(30)]
            targets = [receipts[5].seq, receipts[20].seq, 0]

            async def writes() -> None:
                for n in range(30, 60):
                    await gw.write(a_write(1, n, rng))
                    await asyncio.sleep(0)

            plans = await asyncio.gather(
                *(gw.rollback(to=t, reason="r", actor="o", dry_run=False) for t in targets),
                writes(),
            )
            records = await all_records(gw)
            by_seq = {r.seq: r for r in records}
            for plan in plans[:3]:
                assert plan is not None and plan.marker_seq is not None
                first = plan.marker_seq - len(plan.changes)
                for seq in range(first, plan.marker_seq):
                    event = by_seq[seq].event
                    assert event.op is Op.ROLLED_BACK and not event.memory_id.startswith(
                        "rollback:"
                    )
                assert by_seq[plan.marker_seq].event.detail["changed"] == len(plan.changes)  # type: ignore[index]
            assert (await gw.verify()).ok
        finally:
            await gw.close()

    asyncio.run(scenario())


def slow_replay(gw: Gateway, seconds: float) -> None:
    """Make replay slow, as on a large store, so the rollback holds the gate a while."""
    real = gw.store.changed_versions

    async def changed_versions(since: int, at: int) -> dict[str, Version]:
        await asyncio.sleep(seconds)
        return await real(since, at)

    gw.store.changed_versions = changed_versions  # type: ignore[method-assign]
    pair = getattr(gw.store, "changed_versions_pair", None)
    if pair is not None:  # a store that reads both sides in one pass: as slow as two

        async def changed_versions_pair(
            since: int, at: int
        ) -> tuple[dict[str, Version], dict[str, Version]]:
            await asyncio.sleep(2 * seconds)
            return await pair(since, at)  # type: ignore[no-any-return]

        gw.store.changed_versions_pair = changed_versions_pair  # type: ignore[attr-defined]


def test_writes_during_a_slow_rollback_fail_fast_with_a_short_wait(opener: Opener) -> None:
    async def scenario() -> None:
        gw = await opener(with_wait(0.05))
        try:
            rng = random.Random(1)
            for n in range(5):
                await gw.write(a_write(0, n, rng))
            target = (await gw.checkpoint()).seq
            late = await gw.write(a_write(0, 5, rng))
            slow_replay(gw, 0.3)  # two replays: the gate is held ~0.6 s
            rollback = asyncio.create_task(
                gw.rollback(to=target, reason="slow", actor="ops", dry_run=False)
            )
            await asyncio.sleep(0.05)
            head = (await gw.checkpoint()).seq
            started = time.monotonic()
            results = await asyncio.gather(
                *(gw.write(a_write(1, n, rng)) for n in range(5)), return_exceptions=True
            )
            waited = time.monotonic() - started
            assert all(isinstance(r, RollbackInProgress) for r in results), results
            assert all(r.retry_after == 0.05 for r in results if isinstance(r, RollbackInProgress))
            assert waited < 0.3, f"writers waited {waited:.2f} s, the policy says 0.05 s"
            started = time.monotonic()
            assert late.id in {i.id for i in await gw.search(())}  # reads keep working
            assert time.monotonic() - started < 0.1
            assert not rollback.done()
            assert (await gw.checkpoint()).seq == head, "a refused write reached the log"
            plan = await rollback
            assert [c.memory_id for c in plan.changes] == [late.id]
            assert (await gw.checkpoint()).seq == plan.marker_seq
        finally:
            await gw.close()

    asyncio.run(scenario())


def test_writes_during_a_slow_rollback_go_through_after_it_with_a_long_wait(
    opener: Opener,
) -> None:
    async def scenario() -> None:
        gw = await opener(with_wait(5.0))
        try:
            rng = random.Random(2)
            for n in range(5):
                await gw.write(a_write(0, n, rng))
            target = (await gw.checkpoint()).seq
            late = await gw.write(a_write(0, 5, rng))
            slow_replay(gw, 0.2)
            rollback = asyncio.create_task(
                gw.rollback(to=target, reason="slow", actor="ops", dry_run=False)
            )
            await asyncio.sleep(0.05)
            writes = [a_write(1, n, rng).model_copy(update={"key": None}) for n in range(5)]
            receipts = await asyncio.gather(*(gw.write(w) for w in writes))
            assert rollback.done()
            plan = rollback.result()
            assert plan.marker_seq is not None
            assert all(r.seq > plan.marker_seq for r in receipts)
            now = await served(gw)
            assert late.id not in now
            assert all(now[r.id] == w.content for r, w in zip(receipts, writes, strict=True))
            assert (await gw.verify()).ok
        finally:
            await gw.close()

    asyncio.run(scenario())
