"""Review decisions and keyed writes across replicas: two gateways on one
PostgreSQL store (two replicas) deciding the same pending memories at once.
Each gateway's own lock only orders its own decisions; the replicas share the
store's advisory lock for every read-modify-append, so each memory is decided
exactly once (the other replica is refused: IllegalTransition), and one key's
writes through both replicas leave one current version."""

from __future__ import annotations

import asyncio
import secrets
from pathlib import Path

import pytest

from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.events import Op
from memgate.domain.memory import MemoryState, MemoryWrite, Target
from memgate.errors import IllegalTransition
from memgate.gateway import Gateway
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - fixture

PENDING = 12


def test_two_replicas_decide_each_pending_memory_once(
    postgres: PgServer,  # noqa: F811 - fixture
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("MEMGATE_LOG_KEY", secrets.token_hex(32))
    monkeypatch.setenv("MEMGATE_FINGERPRINT_KEY", secrets.token_hex(32))
    url = postgres.fresh_url()

    async def go() -> None:
        a: Gateway = await open_gateway(tmp_path / "a", store_url=url, graph=None)
        b: Gateway = await open_gateway(tmp_path / "b", store_url=url, graph=None)
        try:
            ids = []
            for n in range(PENDING):
                got = await a.write(
                    MemoryWrite(
                        content=f"The user likes green tea, number {n}.",
                        namespace=("acme", "u1"),
                        source=Source.WEB,
                        target=Target.LONG,
                    )
                )
                assert got.state is MemoryState.PENDING_REVIEW
                ids.append(got.id)

            async def decide(gw: Gateway, memory_id: str, approve: bool) -> str:
                try:
                    if approve:
                        await gw.approve(memory_id, reviewer="key:k_rev_a")
                        return "approved"
                    await gw.reject(memory_id, reviewer="key:k_rev_b", reason="no")
                    return "rejected"
                except IllegalTransition:
                    return "refused"

            outcomes = await asyncio.gather(
                *(decide(a, i, True) for i in ids), *(decide(b, i, False) for i in ids)
            )
            per_memory = list(zip(outcomes[:PENDING], outcomes[PENDING:], strict=True))
            for first, second in per_memory:
                assert sorted([first, second]) in (["approved", "refused"], ["refused", "rejected"])
            for memory_id in ids:
                history = await b.history(memory_id)
                decisions = [
                    r.event.op for r in history if r.event.op in (Op.APPROVED, Op.REJECTED)
                ]
                assert len(decisions) == 1, [r.event.op for r in history]

            # One key written through both replicas at once: one current version.
            async def keyed(gw: Gateway, n: int) -> None:
                await gw.write(
                    MemoryWrite(
                        content=f"Standup is at {n} o'clock.",
                        namespace=("acme", "u1"),
                        key="standup",
                        source=Source.USER,
                    )
                )

            await asyncio.gather(*(keyed(a if n % 2 else b, n) for n in range(10)))
            served = [i for i in await a.search(("acme", "u1"), limit=100) if i.key == "standup"]
            assert len(served) == 1
            assert (await a.verify()).ok
        finally:
            await a.close()
            await b.close()

    asyncio.run(go())
