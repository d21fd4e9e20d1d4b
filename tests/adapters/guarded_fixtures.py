"""Shared pieces of the guarded-store tests (mem0, LlamaIndex, CrewAI): a local,
deterministic embedding, and a gateway on its own loop thread (the wrapped
stores are synchronous)."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Iterator
from contextlib import contextmanager

from memgate.bootstrap import memory_gateway
from memgate.gateway import Gateway, SyncGateway
from memgate.trust import Inspector

DIMS = 64
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


def embed(text: str) -> list[float]:
    """A bag of hashed words, L2-normalised: texts sharing words are close. Stands
    in for a model behind each framework's own embedding interface (no network)."""
    vector = [0.0] * DIMS
    for word in _WORD.findall(text.casefold()):
        digest = hashlib.blake2b(word.encode(), digest_size=4).digest()
        vector[int.from_bytes(digest[:2], "big") % DIMS] += 1.0 if digest[2] % 2 else -1.0
    norm = math.sqrt(sum(v * v for v in vector)) or 1.0
    return [v / norm for v in vector]


async def _gateway(inspector: Inspector) -> Gateway:
    # The in-memory twins, with the in-memory provenance graph.
    return memory_gateway(inspector=inspector, graph=True)


@contextmanager
def running_gateway(inspector: Inspector) -> Iterator[SyncGateway]:
    """An in-memory gateway (with its graph twin) on its own loop thread."""
    gateway = SyncGateway.start(lambda: _gateway(inspector))
    try:
        yield gateway
    finally:
        gateway.close()


def readers_of(gateway: SyncGateway, memory_id: str) -> list[str | None]:
    """The sessions memgate recorded reading the memory."""
    return [r.session_id for r in gateway.run(gateway.gateway.reads_of(memory_id))]


def graph_readers(gateway: SyncGateway, memory_id: str) -> set[str | None]:
    """The sessions the provenance graph says read the memory (once projected)."""

    async def ask() -> set[str | None]:
        await gateway.gateway.flush()
        graph = gateway.gateway.graph
        assert graph is not None, "the test gateway has a graph"
        assert await graph.sync(within=10.0), "the graph did not catch up with the log"
        found = await gateway.gateway.readers(memory_id)
        return {r.session_id for r in found.readers}

    return gateway.run(ask())
