"""Issue 15, holes 1 and 5 through the library: the Gateway's write and read entry
points check identifiers, metadata, filters and content with the domain
validator (a write built with `model_construct` skipped MemoryWrite's own
checks), and scanning runs off the event loop so a large write does not stall
the others."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest

from memgate.bootstrap import memory_gateway
from memgate.domain import Source, limits
from memgate.domain.memory import MemoryWrite, Reader, Target
from memgate.errors import InvalidInput
from memgate.trust import Inspector, Policy

OK: dict[str, Any] = {"content": "The build uses Python 3.12.", "namespace": ("acme", "u1")}


def unchecked(**fields: Any) -> MemoryWrite:
    """A write as a fast path builds it: no validation."""
    return MemoryWrite.model_construct(**{**MemoryWrite(**OK).__dict__, **fields})


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"session_id": "s\x00"}, "session_id"),
        ({"call_id": "c\x1b[31m"}, "call_id"),
        ({"agent_id": "a\u2028b"}, "agent_id"),
        ({"key": "k\x00"}, "key"),
        ({"namespace": ("acme", "u\x00")}, "namespace.1"),
        ({"namespace": ()}, "namespace"),
        ({"metadata": {"k\x00": 1}}, "metadata"),
        ({"metadata": {"blob": "x" * 900_000}}, "metadata"),
        ({"metadata": {"a": [[[[[[[[1]]]]]]]]}}, "metadata"),
        ({"content": ""}, "content"),
        ({"content": " \n\t"}, "content"),
    ],
)
def test_write_refuses_what_the_domain_validator_refuses(
    inspector: Inspector, fields: dict[str, Any], field: str
) -> None:
    async def go() -> None:
        gateway = memory_gateway(inspector=inspector)
        with pytest.raises(InvalidInput) as caught:
            await gateway.write(unchecked(**fields))
        assert caught.value.field == field
        assert (await gateway.checkpoint()).seq == 0

    asyncio.run(go())


def test_reads_refuse_bad_identifiers_and_filters(inspector: Inspector) -> None:
    async def go() -> None:
        gateway = memory_gateway(inspector=inspector)
        await gateway.write(MemoryWrite(**OK, key="k"))
        bad_reader = Reader.model_construct(session_id="s\x00", call_id=None, agent_id=None)
        with pytest.raises(InvalidInput, match="session_id"):
            await gateway.search(("acme",), "python", reader=bad_reader)
        with pytest.raises(InvalidInput, match="key"):
            await gateway.read_key(("acme", "u1"), "k\x00")
        with pytest.raises(InvalidInput, match="namespace"):
            await gateway.list(("acme\x00",))
        too_many = {f"k{i}": i for i in range(495)}
        with pytest.raises(InvalidInput, match="metadata"):
            await gateway.search(("acme",), metadata=too_many)
        fine = {f"k{i}": i for i in range(limits.MAX_FILTER_KEYS)}
        assert await gateway.search(("acme",), metadata=fine) == []
        assert len(await gateway.search(("acme",), "python")) == 1

    asyncio.run(go())


def test_a_large_write_does_not_stall_the_event_loop(inspector: Inspector) -> None:
    """The scan runs in a worker thread: while a large write is scanned the loop
    keeps waking a 5 ms ticker. A generous bound (a third of the write's own
    duration), since the machine may be loaded; benchmarks/bench_stall.py
    measures the latency."""
    default = Policy.load()
    routing = default.routing.model_copy(update={"max_bytes": 1 << 20})
    policy = default.model_copy(update={"routing": routing})
    block = (
        "Deploy notes: run `make release` then curl https://ci.example.net/status; "
        '{"step": 3, "ok": true} The assistant should keep the changelog short. '
    )

    async def go() -> None:
        gateway = memory_gateway(inspector=inspector, policy=policy)
        content = (block * (900_000 // len(block)))[:900_000]
        gaps: list[float] = []
        done = asyncio.Event()

        async def ticker() -> None:
            while not done.is_set():
                t0 = time.perf_counter()
                await asyncio.sleep(0.005)
                gaps.append(time.perf_counter() - t0)

        tick = asyncio.create_task(ticker())
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        receipt = await gateway.write(
            MemoryWrite(content=content, namespace=("big",), source=Source.TOOL, target=Target.LONG)
        )
        took = time.perf_counter() - started
        done.set()
        await tick
        assert receipt.seq == 1
        assert took > 0.2, "the write was too quick to show anything"
        assert max(gaps) < took / 3, (max(gaps), took)

    asyncio.run(go())
