"""Wherever a data directory is given, the provenance graph is on (embedded
FalkorDB under the directory) unless it is turned off explicitly: open_gateway,
the LangGraph store, the AutoGen memory, `memgate mcp --data-dir` (the CLI case
is in test_adapter_mcp_main)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from memgate.adapters.autogen import MemgateMemory
from memgate.adapters.langgraph import MemgateStore
from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.graph import InvestigationStatus
from memgate.domain.memory import MemoryWrite, Reader
from memgate.gateway import Gateway


def test_open_gateway_has_the_graph_by_default_and_none_turns_it_off(tmp_path: Path) -> None:
    async def scenario() -> None:
        gateway = await open_gateway(tmp_path / "on")
        try:
            assert gateway.graph is not None
            receipt = await gateway.write(
                MemoryWrite(
                    content="I prefer metric units.",
                    namespace=("acme", "u42"),
                    source=Source.USER,
                    session_id="s1",
                )
            )
            assert await gateway.read(receipt.id, Reader(session_id="s2", call_id="c7"))
            assert await gateway.graph.sync(within=20.0), "the graph did not catch up"
            found = await gateway.readers(receipt.id)
            assert found.status is InvestigationStatus.OK, found
            assert {(r.session_id, r.call_id) for r in found.readers} == {("s2", "c7")}
        finally:
            await gateway.close()
        assert (tmp_path / "on" / "graph").is_dir()

        off = await open_gateway(tmp_path / "off", graph=None)
        try:
            assert off.graph is None
            found = await off.readers("m_anything")
            assert found.status is InvestigationStatus.GRAPH_UNAVAILABLE
        finally:
            await off.close()
        assert not (tmp_path / "off" / "graph").exists()

    asyncio.run(scenario())


def test_adapters_on_a_data_directory_have_the_graph(tmp_path: Path) -> None:
    store = MemgateStore.open(tmp_path / "lg")
    try:
        assert isinstance(store.backend, Gateway) and store.backend.graph is not None
    finally:
        store.close()
    bare = MemgateStore.open(tmp_path / "lg-off", graph=None)
    try:
        assert isinstance(bare.backend, Gateway) and bare.backend.graph is None
    finally:
        bare.close()

    async def scenario() -> None:
        memory = MemgateMemory(namespace=("u",), data_dir=tmp_path / "ag")
        backend = await memory.backend()
        try:
            assert isinstance(backend, Gateway) and backend.graph is not None
        finally:
            await memory.close()
        assert memory.dump_component().config["graph"] == "embedded"
        off = MemgateMemory(namespace=("u",), data_dir=tmp_path / "ag-off", graph=None)
        backend = await off.backend()
        try:
            assert isinstance(backend, Gateway) and backend.graph is None
        finally:
            await off.close()

    asyncio.run(scenario())
