"""The schema files: every label and edge a template uses is declared, nothing
is inlined (the blast radius walks one level per query), depths are 1..6."""

from __future__ import annotations

import re
import time

import pytest
from graph_fixtures import FalkorServer

from memgate.graph import FalkorBackend, FalkorConnection
from memgate.graph.schema import TEMPLATES, load_schema, schema_dir


def test_templates_use_only_declared_labels_and_edges() -> None:
    schema = load_schema()
    for name in TEMPLATES:
        text = schema.queries[name]
        for label in re.findall(r"\(\s*\w*\s*:\s*(\w+)", text):
            assert label in schema.labels, (name, label)
        for edge in re.findall(r"\[\s*\w*\s*:\s*(\w+)", text):
            assert edge in schema.edges, (name, edge)


def test_every_schema_file_is_loaded() -> None:
    files = {p.stem for p in schema_dir().glob("*.cypher")}
    assert files == set(TEMPLATES)


def test_nothing_is_inlined() -> None:
    schema = load_schema()
    for text in schema.queries.values():
        assert "{{" not in text and "%s" not in text and "__" not in text
    # one level per query: no variable-length match (it enumerated paths)
    assert "*" not in schema.blast_radius(3)
    assert "$limit" in schema.blast_radius(1)
    assert all(schema.blast_radius(d) == schema.queries["blast_radius"] for d in range(1, 7))
    assert "FLOWED_TO" in schema.edges


@pytest.mark.parametrize("depth", [0, 7, "3", 3.0, True, -2])
def test_no_template_for_other_depths(depth: object) -> None:
    with pytest.raises(ValueError, match=r"1\.\.6"):
        load_schema().blast_radius(depth)  # type: ignore[arg-type]


def test_indexes_cover_every_merge_key() -> None:
    schema = load_schema()
    indexed = set(schema.index_statements)
    for label, spec in schema.labels.items():
        assert f"CREATE INDEX FOR (n:{label}) ON (n.{spec['key']})" in indexed


def _wait_until_indexes_operational(connection: FalkorConnection, count: int) -> None:
    """FalkorDB builds an index in the background: until it is OPERATIONAL the
    planner falls back to a label scan (seen under a loaded pytest -n 2 run), so
    the plans are read only once every index is ready."""
    deadline = time.monotonic() + 30
    while True:
        rows = connection.query("CALL db.indexes() YIELD label, status", read_only=True)
        ready = [row for row in rows if row[1] == "OPERATIONAL"]
        if len(ready) >= count:
            return
        assert time.monotonic() < deadline, f"indexes not operational after 30 s: {rows}"
        time.sleep(0.05)


def test_every_template_starts_from_an_index(
    falkordb_server: FalkorServer, graph_name: str
) -> None:
    """Without an index lookup a MERGE or MATCH scans a whole label (a taint
    query once took 2.4 s per batch that way): check the plans, not the clock."""
    schema = load_schema()
    connection = FalkorConnection(graph_name=graph_name, url=falkordb_server.url)
    try:
        FalkorBackend(connection, schema).ensure_schema()
        _wait_until_indexes_operational(connection, len(schema.index_statements))
        params = {
            "rows": [],
            "calls": [],
            "mark": 0,
            "id": "m",
            "ids": ["m"],
            "since": None,
            "until": None,
            "limit": 10,
            "fp": "ab",
            "seq": 1,
            "mac": "x",
            "aside": [],
            "keep": 1000,
        }
        for name, text in schema.queries.items():
            plan = connection.explain(text, params)
            assert "Label Scan" not in plan and "All Node Scan" not in plan, (name, plan)
    finally:
        connection.close()
