"""The projection on real FalkorDB: rebuild equals incremental, marks resume and
are checked against SQLite, a graph that cannot be reached never fails a write
or read, and no secret value ever reaches the graph."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import redis
from graph_fixtures import FalkorServer, open_graph_gateway
from graph_scenarios import Clock, incident, run, write

from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.graph import InvestigationStatus as S
from memgate.domain.memory import Reader, Target
from memgate.gateway import Gateway
from memgate.graph import GraphProjection
from memgate.scanning.examples import expand

NODES = "MATCH (n) RETURN labels(n)[0], properties(n)"
EDGES = (
    "MATCH (a)-[e]->(b) RETURN type(e), labels(a)[0], properties(a), labels(b)[0],"
    " properties(b), properties(e)"
)
KEYS = {"Memory": "id", "Call": "id", "Session": "id", "Source": "id", "Value": "fp", "Meta": "id"}


def _key(label: str, props: dict[str, Any]) -> str:
    return f"{label}:{props.get(KEYS[label])}"


def _freeze(value: Any) -> Any:
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, list):
        return tuple(_freeze(v) for v in value)
    return value


def dump(server: FalkorServer, graph_name: str) -> tuple[Counter[Any], Counter[Any]]:
    """Every node and edge with its properties, as comparable multisets."""
    nodes = Counter((label, _freeze(props)) for label, props in server.query(graph_name, NODES))
    edges = Counter(
        (kind, _key(la, pa), _key(lb, pb), _freeze(pe))
        for kind, la, pa, lb, pb, pe in server.query(graph_name, EDGES)
    )
    return nodes, edges


def projection(gateway: Gateway) -> GraphProjection:
    assert isinstance(gateway.graph, GraphProjection)
    return gateway.graph


def test_rebuild_equals_incremental_projection(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        clock = Clock()
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name, clock=clock)
        try:
            case = await incident(gw, clock)
            for i in range(3):  # a promotion: DERIVED_FROM
                await gw.write(
                    write("Cache lives in /var/cache.", f"p{i}", f"pc{i}", target=Target.SHORT)
                )
            await gw.delete(case.unrelated, actor="op", reason="cleanup")
            assert await projection(gw).sync(within=10.0)
            incremental = dump(falkordb_server, graph_name)
            head = (await gw.checkpoint()).seq
            assert await gw.rebuild_graph() == head
            rebuilt = dump(falkordb_server, graph_name)
            assert rebuilt == incremental
            labels = {label for label, _ in incremental[0]}
            assert labels == {"Memory", "Call", "Session", "Source", "Meta"}
            kinds = {kind for kind, *_ in incremental[1]}
            assert kinds == {"MADE", "READ", "WROTE", "DERIVED_FROM", "FROM_SOURCE", "FLOWED_TO"}
        finally:
            await gw.close()

    run(scenario())


def test_restart_resumes_from_the_high_water_mark(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        clock = Clock()
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name, clock=clock)
        case = await incident(gw, clock)
        assert await projection(gw).sync(within=10.0)
        status = await gw.projection_status()
        assert status.lag == 0 and status.projected_seq == status.head_seq > 0
        await gw.close()
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name, clock=clock)
        try:
            assert await gw.read(case.note, Reader(session_id="s7", call_id="c7"))
            await gw.write(write("One more fact.", "s7", "c7-write"))
            found = await gw.readers(case.note)
            assert [r.session_id for r in found.readers] == ["s2", "s7"]
            # Only what came after the mark was projected again (READ edges are
            # created, not merged: a replay from zero would double them).
            assert projection(gw).projected_events == 1
            assert projection(gw).projected_reads == 1
        finally:
            await gw.close()

    run(scenario())


def test_a_graph_from_another_log_is_rebuilt(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        clock = Clock()
        first = await open_graph_gateway(tmp_path / "a", falkordb_server, graph_name, clock=clock)
        old = await incident(first, clock)
        await first.close()
        # Another data directory (another log) pointed at the same graph.
        second = await open_graph_gateway(tmp_path / "b", falkordb_server, graph_name, clock=clock)
        try:
            new = await second.write(write("A fresh start.", "n1", "nc1"))
            assert (await second.provenance(new.id)).status is S.OK
            assert (await second.readers(old.poison)).status is S.UNKNOWN_MEMORY
        finally:
            await second.close()

    run(scenario())


def test_an_unreachable_graph_never_fails_a_write_or_read(tmp_path: Path) -> None:
    async def scenario() -> None:
        url = f"unix://{tmp_path}/no-such.sock"
        gw = await open_gateway(tmp_path / "data", graph=url)
        try:
            receipt = await gw.write(write("Still works.", "s1", "c1"))
            assert await gw.read(receipt.id, Reader(session_id="s2", call_id="c2"))
            assert await gw.search(("team",), "works")
            found = await gw.readers(receipt.id)
            assert found.status is S.GRAPH_UNAVAILABLE
            assert "unreachable" in found.message or "cannot reach" in found.message
            assert found.readers == ()
            status = await gw.projection_status()
            assert status.enabled and not status.available
            assert status.last_error and status.lag >= 2
        finally:
            await gw.close()

    run(scenario())


SECRETS = [
    expand("ghp_{{gen:alnum:36}}", "graph-secrets-1"),
    expand("AKIA{{gen:upper_digit:16}}", "graph-secrets-2"),
    expand("sk_live_{{gen:alnum:24}}", "graph-secrets-3"),
]


def test_no_secret_value_reaches_the_graph(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    async def scenario() -> None:
        clock = Clock()
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name, clock=clock)
        try:
            ids = []
            for i, secret in enumerate(SECRETS):
                for source in (Source.USER, Source.TOOL):
                    receipt = await gw.write(
                        write(
                            f"credentials for deploy: {secret}",
                            f"s{i}",
                            f"c{i}-{source.value}",
                            source=source,
                            metadata={"note": f"token={secret}"},
                            namespace=("vault", str(i)),
                        )
                    )
                    ids.append(receipt.id)
                    await gw.read(receipt.id, Reader(session_id=f"s{i}", call_id=f"r{i}"))
            await gw.write(
                write("Contact me at jane.doe@example.com, phone +1 415 555 0100", "p", "pc")
            )
            assert await projection(gw).sync(within=10.0)
            text = repr(dump(falkordb_server, graph_name))
            fingerprints = set()
            for memory_id in ids:
                item = await gw.get_any(memory_id)
                assert item is not None
                fingerprints |= {f.fingerprint for f in item.findings if f.fingerprint}
            assert fingerprints, "the scanner found no secret: the test proves nothing"
            for fingerprint in fingerprints:
                assert fingerprint in text  # the grep works: fingerprints are there
            for secret in SECRETS:
                assert secret not in text
                assert secret[-12:] not in text
            assert "jane.doe@example.com" not in text
        finally:
            await gw.close()

    run(scenario())


def test_a_graph_error_is_never_an_empty_ok(
    tmp_path: Path, falkordb_server: FalkorServer, graph_name: str
) -> None:
    """The key holding the graph is something else (a plain string): every query
    fails on the server. Investigations must say the graph could not answer."""
    client = redis.Redis.from_url(falkordb_server.url)
    client.set(graph_name, "not a graph")

    async def scenario() -> None:
        gw = await open_graph_gateway(tmp_path, falkordb_server, graph_name)
        try:
            receipt = await gw.write(write("Some fact.", "s1", "c1"))
            for found in (
                await gw.readers(receipt.id),
                await gw.blast_radius(receipt.id, 2),
                await gw.provenance(receipt.id),
                await gw.exposure("ab" * 8),
            ):
                assert found.status is S.GRAPH_UNAVAILABLE, found
                assert found.message
            status = await gw.projection_status()
            assert not status.available and status.last_error
        finally:
            await gw.close()
            client.delete(graph_name)
            client.close()

    run(scenario())
