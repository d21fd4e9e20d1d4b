"""MemgateStorage against the real CrewAI: its unified `Memory` over a LanceDB store
guarded by memgate (a local embedding callable, a stand-in LLM behind CrewAI's
BaseLLM that fails if called: every save passes its fields, recall is shallow)."""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# CrewAI reads these at import: no telemetry, no trace collection (its first-run
# trace would also stall every flow 5 s), no files under the user's data dir.
os.environ.setdefault("CREWAI_DISABLE_TELEMETRY", "true")
os.environ.setdefault("CREWAI_TRACING_ENABLED", "false")
os.environ.setdefault("OTEL_SDK_DISABLED", "true")
os.environ.setdefault("CREWAI_STORAGE_DIR", tempfile.mkdtemp(prefix="memgate-crewai-tests-"))

import pytest
from adapter_fixtures import HOSTILE, TOKEN
from guarded_fixtures import embed, graph_readers, readers_of, running_gateway

with warnings.catch_warnings():
    # crewai's lazy package imports warn while importing (ImportWarning).
    warnings.simplefilter("ignore", ImportWarning)
    from crewai.llms.base_llm import BaseLLM
    from crewai.memory.storage.lancedb_storage import LanceDBStorage
    from crewai.memory.unified_memory import Memory

    from memgate.adapters.crewai import MemgateStorage

from memgate.domain.memory import MemoryState
from memgate.gateway import SyncGateway
from memgate.trust import Inspector

# CrewAI stamps records with datetime.utcnow() (deprecated in Python 3.12).
pytestmark = pytest.mark.filterwarnings("ignore:datetime.datetime.utc:DeprecationWarning")


class NoLLM(BaseLLM):
    """CrewAI's LLM port; these tests give every field, so it is never asked."""

    def call(self, messages: Any, *args: Any, **kwargs: Any) -> str:
        raise AssertionError(f"unexpected LLM call: {messages!r}")


def embedder(texts: list[str]) -> list[list[float]]:
    return [embed(t) for t in texts]


@pytest.fixture
def gateway(inspector: Inspector) -> Iterator[SyncGateway]:
    with running_gateway(inspector) as gateway:
        yield gateway


@pytest.fixture
def storage(gateway: SyncGateway, tmp_path: Path) -> MemgateStorage:
    return MemgateStorage.from_sync(
        gateway, embedder=embedder, path=tmp_path / "lancedb", session_id="crew-1"
    )


@pytest.fixture
def memory(storage: MemgateStorage) -> Iterator[Memory]:
    memory = Memory(storage=storage, embedder=embedder, llm=NoLLM(model="none"))
    try:
        yield memory
    finally:
        memory.close()


def remember(memory: Memory, text: str) -> None:
    memory.remember(text, scope="/user", categories=["prefs"], importance=0.6)


def recall(memory: Memory, query: str) -> list[str]:
    return [m.record.content for m in memory.recall(query, depth="shallow", limit=5)]


def inner(storage: MemgateStorage) -> list[str]:
    assert isinstance(storage.inner, LanceDBStorage)
    return sorted(r.content for r in storage.inner.list_records(limit=100))


def test_only_approved_records_reach_lancedb(memory: Memory, storage: MemgateStorage) -> None:
    remember(memory, "I prefer metric units.")
    remember(memory, HOSTILE)
    assert inner(storage) == ["I prefer metric units."]
    assert recall(memory, "metric units password") == ["I prefer metric units."]


def test_recall_is_a_recorded_read_in_the_log_and_the_graph(
    memory: Memory, gateway: SyncGateway
) -> None:
    remember(memory, "The user's favourite colour is teal.")
    assert recall(memory, "favourite colour") == ["The user's favourite colour is teal."]
    (item,) = gateway.run(gateway.gateway.search(("crewai",)))
    assert "crew-1" in readers_of(gateway, item.id)
    assert "crew-1" in graph_readers(gateway, item.id)


def test_a_secret_enters_redacted_after_review_and_sync(
    memory: Memory, storage: MemgateStorage, gateway: SyncGateway
) -> None:
    remember(memory, f"The deploy token is {TOKEN}")
    assert inner(storage) == [] and recall(memory, "deploy token") == []
    (held,) = gateway.run(gateway.gateway.pending())
    assert held.state is MemoryState.PENDING_REVIEW
    gateway.run(gateway.gateway.approve(held.id, reviewer="rita"))
    assert storage.sync().added == [held.id]
    (text,) = inner(storage)
    assert text.startswith("The deploy token is [REDACTED:") and TOKEN not in text
    assert recall(memory, "deploy token") == [text]
    record = storage.inner.get_record(held.key or "")
    assert record is not None and record.embedding == pytest.approx(embed(text))


def test_rollback_hides_at_once_and_sync_removes(
    memory: Memory, storage: MemgateStorage, gateway: SyncGateway
) -> None:
    remember(memory, "I prefer metric units.")
    mark = gateway.run(gateway.gateway.store.log_heads())[0]
    remember(memory, "Always answer using imperial units of measure.")
    assert len(inner(storage)) == 2
    gateway.run(gateway.gateway.rollback(to=mark, reason="bad", actor="ops", dry_run=False))
    assert recall(memory, "units of measure metric imperial") == ["I prefer metric units."]
    assert len(storage.sync().removed) == 1
    assert inner(storage) == ["I prefer metric units."]


def test_a_rejected_update_keeps_the_previous_version(
    memory: Memory, storage: MemgateStorage
) -> None:
    remember(memory, "I prefer metric units.")
    (record,) = storage.inner.list_records(limit=10)
    storage.update(record.model_copy(update={"content": HOSTILE}))
    assert inner(storage) == ["I prefer metric units."]
    assert recall(memory, "metric units") == ["I prefer metric units."]


def test_forget_and_reset_tombstone_in_memgate(
    memory: Memory, storage: MemgateStorage, gateway: SyncGateway
) -> None:
    remember(memory, "Call me Al.")
    remember(memory, "I live in Lisbon.")
    records = sorted(storage.inner.list_records(limit=10), key=lambda r: r.content)
    ids = [r.metadata["memgate_id"] for r in records]
    storage.delete(record_ids=[records[0].id])
    assert inner(storage) == ["I live in Lisbon."]
    memory.reset()
    assert inner(storage) == []
    items = [gateway.run(gateway.gateway.get_any(i)) for i in ids]
    assert [i.state if i else None for i in items] == [MemoryState.DELETED] * 2


def test_install_makes_default_memories_guarded(
    storage: MemgateStorage, gateway: SyncGateway
) -> None:
    storage.install()
    try:
        memory = Memory(embedder=embedder, llm=NoLLM(model="none"))
        remember(memory, "Guarded by default.")
        memory.drain_writes()
        assert [i.content for i in gateway.run(gateway.gateway.search(("crewai",)))] == [
            "Guarded by default."
        ]
    finally:
        MemgateStorage.uninstall()
