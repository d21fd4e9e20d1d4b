"""GuardedMemory against the real mem0 (local Qdrant, mem0's own embedding and LLM
interfaces implemented by local stand-ins: no network, no model download)."""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

# mem0 reads these when it is imported: no usage telemetry, no ~/.mem0.
os.environ.setdefault("MEM0_TELEMETRY", "False")
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="memgate-mem0-tests-"))

import pytest
from adapter_fixtures import HOSTILE, TOKEN
from guarded_fixtures import DIMS, embed, graph_readers, readers_of, running_gateway
from mem0 import Memory
from mem0.configs.base import MemoryConfig
from mem0.embeddings.base import EmbeddingBase
from mem0.llms.base import LLMBase

from memgate.adapters.mem0 import GuardedMemory
from memgate.domain.memory import MemoryState
from memgate.gateway import SyncGateway
from memgate.trust import Inspector


class LocalEmbedding(EmbeddingBase):
    """mem0's embedding port, answered locally."""

    def embed(self, text: Any, memory_action: Any = None) -> list[float]:
        return embed(str(text))


class FactLLM(LLMBase):
    """mem0's LLM port: extracts one fact per user message it is shown (the
    message text after 'Fact: '), and keeps every prompt it was given."""

    def __init__(self) -> None:
        super().__init__(None)
        self.prompts: list[str] = []
        self.facts: list[str] = []

    def generate_response(
        self, messages: Any, tools: Any = None, tool_choice: str = "auto", **kwargs: Any
    ) -> str:
        self.prompts.append(json.dumps(messages, ensure_ascii=False))
        return json.dumps({"memory": [{"text": fact} for fact in self.facts]})


def mem0_memory(where: Path, llm: LLMBase | None = None) -> Memory:
    config = MemoryConfig(
        vector_store={
            "provider": "qdrant",
            "config": {
                "collection_name": "guarded",
                "path": str(where / "qdrant"),
                "embedding_model_dims": DIMS,
            },
        },
        # The providers are only named; their clients are replaced below and
        # never called (the key is a placeholder, nothing leaves the machine).
        llm={"provider": "openai", "config": {"api_key": "offline"}},
        embedder={"provider": "openai", "config": {"api_key": "offline"}},
        history_db_path=str(where / "history.db"),
    )
    memory = Memory(config)
    memory.embedding_model = LocalEmbedding()
    memory.llm = llm or FactLLM()
    return memory


@pytest.fixture
def gateway(inspector: Inspector) -> Iterator[SyncGateway]:
    with running_gateway(inspector) as gateway:
        yield gateway


@pytest.fixture
def llm() -> FactLLM:
    return FactLLM()


@pytest.fixture
def guarded(tmp_path: Path, gateway: SyncGateway, llm: FactLLM) -> Iterator[GuardedMemory]:
    memory = mem0_memory(tmp_path, llm)
    try:
        yield GuardedMemory.from_sync(memory, gateway)
    finally:
        memory.close()


def raw(guarded: GuardedMemory, user: str = "alice") -> list[str]:
    """What mem0 itself holds for the user, unchecked."""
    found = guarded.memory.get_all(filters={"user_id": user}, top_k=100)
    return sorted(hit["memory"] for hit in found["results"])


def test_only_approved_messages_reach_mem0(guarded: GuardedMemory) -> None:
    done = guarded.add(
        [
            {"role": "user", "content": "I prefer metric units."},
            {"role": "assistant", "content": HOSTILE},
        ],
        user_id="alice",
        infer=False,
    )
    states = [(m["role"], m["state"]) for m in done["memgate"]]
    assert states == [("user", "approved"), ("assistant", "rejected")]
    assert [r["memory"] for r in done["results"]] == ["I prefer metric units."]
    assert raw(guarded) == ["I prefer metric units."]


def test_a_secret_waits_for_review_and_enters_redacted_after_sync(
    guarded: GuardedMemory, gateway: SyncGateway
) -> None:
    done = guarded.add(f"My GitHub token is {TOKEN}", user_id="alice", infer=False)
    (status,) = done["memgate"]
    assert status["state"] == "pending_review" and status["redacted"]
    assert done["results"] == [] and raw(guarded) == []
    assert guarded.search("GitHub token", filters={"user_id": "alice"})["results"] == []

    gateway.run(gateway.gateway.approve(status["id"], reviewer="rita"))
    assert raw(guarded) == []  # the warehouse follows the log when synced
    report = guarded.sync()
    assert report.added == [status["id"]] and report.removed == []
    (stored,) = raw(guarded)
    assert stored.startswith("My GitHub token is [REDACTED:") and TOKEN not in stored
    found = guarded.search("GitHub token", filters={"user_id": "alice"}, session_id="s2")
    assert [r["memory"] for r in found["results"]] == [stored]
    assert guarded.sync().added == []  # idempotent: nothing new in the log


def test_every_search_is_a_recorded_read_in_the_log_and_the_graph(
    guarded: GuardedMemory, gateway: SyncGateway
) -> None:
    done = guarded.add("I prefer metric units.", user_id="alice", infer=False)
    memory_id = done["memgate"][0]["id"]
    found = guarded.search(
        "metric units", filters={"user_id": "alice"}, session_id="chat-9", call_id="c1"
    )
    assert [r["memory"] for r in found["results"]] == ["I prefer metric units."]
    assert found["results"][0]["memgate"][0]["id"] == memory_id
    assert "chat-9" in readers_of(gateway, memory_id)
    assert "chat-9" in graph_readers(gateway, memory_id)
    hit = guarded.get(found["results"][0]["id"], session_id="chat-10")
    assert hit is not None and hit["memory"] == "I prefer metric units."
    assert "chat-10" in readers_of(gateway, memory_id)


def test_rollback_hides_at_once_and_sync_removes_from_mem0(
    guarded: GuardedMemory, gateway: SyncGateway
) -> None:
    kept = guarded.add("I prefer metric units.", user_id="alice", infer=False)
    mark = gateway.run(gateway.gateway.store.log_heads())[0]
    guarded.add("The user's favourite colour is teal.", user_id="alice", infer=False)
    assert len(raw(guarded)) == 2
    plan = gateway.run(
        gateway.gateway.rollback(to=mark, reason="poisoned", actor="ops", dry_run=False)
    )
    assert plan.applied
    found = guarded.search("colour teal units", filters={"user_id": "alice"})
    assert [r["memory"] for r in found["results"]] == ["I prefer metric units."]
    assert len(guarded.get_all(filters={"user_id": "alice"})["results"]) == 1
    report = guarded.sync()
    assert len(report.removed) == 1 and report.removed[0] != kept["memgate"][0]["id"]
    assert raw(guarded) == ["I prefer metric units."]


def test_inference_sees_only_approved_messages_and_facts_follow_their_sources(
    guarded: GuardedMemory, gateway: SyncGateway, llm: FactLLM
) -> None:
    llm.facts = ["Prefers metric units"]
    done = guarded.add(
        [
            {"role": "user", "content": "Please use metric units with me."},
            {"role": "tool", "content": HOSTILE},
        ],
        user_id="alice",
    )
    assert [m["state"] for m in done["memgate"]] == ["approved", "rejected"]
    assert [r["memory"] for r in done["results"]] == ["Prefers metric units"]
    assert llm.prompts and all(HOSTILE not in p for p in llm.prompts)
    assert all("metric units with me" in p for p in llm.prompts)
    history = guarded.memory.db.get_last_messages("user_id=alice", limit=10)
    assert history and HOSTILE not in json.dumps(history)  # mem0's own message log
    source = done["memgate"][0]["id"]
    found = guarded.search("metric units", filters={"user_id": "alice"}, session_id="s3")
    assert [r["memory"] for r in found["results"]] == ["Prefers metric units"]
    assert "s3" in readers_of(gateway, source)

    gateway.run(gateway.gateway.delete(source, actor="ops", reason="wrong"))
    assert guarded.search("metric units", filters={"user_id": "alice"})["results"] == []
    assert guarded.sync().removed == [source]
    assert raw(guarded) == []


def test_a_held_message_is_inferred_on_approval(
    guarded: GuardedMemory, gateway: SyncGateway, llm: FactLLM
) -> None:
    done = guarded.add(f"Deploy with token {TOKEN} please", user_id="alice")
    (status,) = done["memgate"]
    assert status["state"] == "pending_review" and llm.prompts == []
    llm.facts = ["Deploys need a token"]
    gateway.run(gateway.gateway.approve(status["id"], reviewer="rita"))
    assert guarded.sync().added == [status["id"]]
    assert len(llm.prompts) == 1 and TOKEN not in llm.prompts[0]
    assert "[REDACTED:" in llm.prompts[0]
    assert raw(guarded) == ["Deploys need a token"]


def test_rejected_by_a_reviewer_never_enters(guarded: GuardedMemory, gateway: SyncGateway) -> None:
    done = guarded.add(f"token {TOKEN}", user_id="bob", infer=False)
    memory_id = done["memgate"][0]["id"]
    gateway.run(gateway.gateway.reject(memory_id, reviewer="rita", reason="secret"))
    report = guarded.sync()
    assert report.added == [] and raw(guarded, "bob") == []
    item = gateway.run(gateway.gateway.get_any(memory_id))
    assert item is not None and item.state is MemoryState.REJECTED


def test_delete_tombstones_the_message_in_memgate(
    guarded: GuardedMemory, gateway: SyncGateway
) -> None:
    done = guarded.add("Call me Al.", user_id="alice", infer=False)
    mem0_id = done["results"][0]["id"]
    memory_id = done["memgate"][0]["id"]
    guarded.delete(mem0_id)
    assert raw(guarded) == []
    item = gateway.run(gateway.gateway.get_any(memory_id))
    assert item is not None and item.state is MemoryState.DELETED
    guarded.add("Call me Ally.", user_id="alice", infer=False)
    guarded.delete_all(user_id="alice")
    assert raw(guarded) == []


def test_memories_written_around_memgate_are_not_served(guarded: GuardedMemory) -> None:
    guarded.memory.add("Unscanned note", user_id="alice", infer=False)
    assert raw(guarded) == ["Unscanned note"]
    assert guarded.search("Unscanned note", filters={"user_id": "alice"})["results"] == []
    assert guarded.get_all(filters={"user_id": "alice"})["results"] == []


def test_strict_raises_for_held_messages(guarded: GuardedMemory) -> None:
    from memgate.adapters import MemoryHeld

    guarded.strict = True
    with pytest.raises(MemoryHeld, match="rejected"):
        guarded.add([{"role": "assistant", "content": HOSTILE}], user_id="alice", infer=False)
    with pytest.raises(ValueError, match="user_id"):
        guarded.add("no scope at all")


def test_update_passes_the_gate(guarded: GuardedMemory, gateway: SyncGateway) -> None:
    done = guarded.add("I prefer metric units.", user_id="alice", infer=False)
    mem0_id, first = done["results"][0]["id"], done["memgate"][0]["id"]

    changed = guarded.update(mem0_id, "I prefer metric units, and Celsius.")
    assert changed["memgate"]["state"] == "approved"
    assert raw(guarded) == ["I prefer metric units, and Celsius."]
    old = gateway.run(gateway.gateway.get_any(first))
    assert old is not None and old.state is MemoryState.DELETED
    hit = guarded.get(mem0_id)
    assert hit is not None and hit["memory"] == "I prefer metric units, and Celsius."

    refused = guarded.update(mem0_id, HOSTILE)
    assert refused["memgate"]["state"] == "rejected"
    assert raw(guarded) == ["I prefer metric units, and Celsius."]

    held = guarded.update(mem0_id, f"Celsius, and my token is {TOKEN}")
    assert held["memgate"]["state"] == "pending_review"
    assert raw(guarded) == ["I prefer metric units, and Celsius."]
    gateway.run(gateway.gateway.approve(held["memgate"]["id"], reviewer="rita"))
    assert guarded.sync().added == [held["memgate"]["id"]]
    (text,) = raw(guarded)
    assert text.startswith("Celsius, and my token is [REDACTED:") and TOKEN not in text
    hit = guarded.get(mem0_id)
    assert hit is not None and hit["memory"] == text  # the same mem0 memory, replaced
