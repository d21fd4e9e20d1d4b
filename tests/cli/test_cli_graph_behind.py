"""`memgate investigate` on a data directory whose graph set a row aside: the
answer reads `graph_behind` with the gap, never `no_readers`, and exits 1."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from pathlib import Path

from graph_fixtures import FalkorServer
from typer.testing import CliRunner, Result

from memgate.bootstrap import open_gateway
from memgate.cli.main import app
from memgate.domain import Source
from memgate.domain.memory import MemoryWrite, Target
from memgate.domain.ports import ReadRecord


def invoke(server: FalkorServer, data: Path, *args: str) -> Result:
    return CliRunner().invoke(
        app,
        [*args, "--data-dir", str(data)],
        env={
            "COLUMNS": "200",
            "MEMGATE_URL": "",
            "MEMGATE_GRAPH": None,
            "MEMGATE_FALKORDB_URL": server.url,
        },
    )


async def seed(data: Path, server: FalkorServer) -> str:
    """A memory whose only read holds NUL in its session (recorded through the
    store port, as an older version let it in)."""
    gw = await open_gateway(data, graph=server.url)
    try:
        receipt = await gw.write(
            MemoryWrite(
                content="The deploy freeze starts on Friday.",
                namespace=("acme",),
                source=Source.USER,
                session_id="s1",
                target=Target.LONG,
            )
        )
        await gw.store.record_reads(
            [ReadRecord(memory_id=receipt.id, at=datetime.now(UTC), session_id="s\x00")]
        )
        assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]
        return receipt.id
    finally:
        await gw.close()


def test_readers_of_a_memory_whose_read_was_set_aside(
    tmp_path: Path, falkordb_server: FalkorServer
) -> None:
    data = tmp_path / "data"
    memory_id = asyncio.run(seed(data, falkordb_server))

    shown = invoke(falkordb_server, data, "investigate", "readers", memory_id)
    assert shown.exit_code == 1, shown.output
    assert "graph_behind" in shown.output and "no_readers" not in shown.output
    assert "set aside" in shown.output and "reads 1" in shown.output

    found = invoke(falkordb_server, data, "investigate", "readers", memory_id, "--json")
    assert found.exit_code == 1, found.output
    body = json.loads(found.stdout)
    assert body["status"] == "graph_behind"
    assert body["gap"]["set_aside_reads"] == [1]

    rebuilt = invoke(falkordb_server, data, "graph", "rebuild", "--json")
    assert rebuilt.exit_code == 0, rebuilt.output
    report = json.loads(rebuilt.stdout)
    assert report["set_aside"] == 1
    (row,) = report["set_aside_rows"]
    assert (row["kind"], row["field"], row["memory_ids"]) == ("read", "session_id", [memory_id])
    told = invoke(falkordb_server, data, "graph", "rebuild")
    assert told.exit_code == 0, told.output
    assert "1 row(s) set aside" in told.output
    assert "read 1: control character in session_id" in told.output
