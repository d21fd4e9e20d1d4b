"""The graph backend on FalkorDB: batched UNWIND writes, templates from
`schema/graph/`, every value a query parameter."""

from __future__ import annotations

import contextlib
from typing import Any

import redis

from memgate.domain.graph import SetAsideRow
from memgate.graph.backend import SET_ASIDE_KEPT, GraphMoved, Marks, Rows
from memgate.graph.rows import EventBatch, ReadBatch, Row
from memgate.graph.schema import Schema, load_schema
from memgate.graph.server import FalkorConnection


class FalkorBackend:
    def __init__(self, connection: FalkorConnection, schema: Schema | None = None) -> None:
        self.connection = connection
        self.schema = schema or load_schema()

    def ensure_schema(self) -> None:
        for statement in self.schema.index_statements:
            try:
                self.connection.query(statement)
            except Exception as exc:
                # FalkorDB refuses to create an index that exists; that is fine.
                if "already indexed" not in str(exc).lower():
                    raise

    def marks(self) -> Marks:
        rows = self.connection.query(self.schema.queries["marks"], read_only=True)
        if not rows or (rows[0][0] is None and rows[0][1] is None):
            return Marks()
        events_seq, reads_seq, mac, aside, aside_count = rows[0]
        return Marks(
            events_seq=int(events_seq or 0),
            reads_seq=int(reads_seq or 0),
            head_mac=mac,
            set_aside=tuple(SetAsideRow.model_validate_json(a) for a in aside or ()),
            set_aside_count=int(aside_count or 0),
        )

    def apply_reads(self, batch: ReadBatch) -> None:
        done = self.connection.query(
            self.schema.queries["project_reads"],
            {
                "calls": batch.groups,
                "mark": batch.mark,
                "after": batch.after,
                "aside": _aside(batch.set_aside),
                "keep": SET_ASIDE_KEPT,
            },
        )
        if not done:
            raise GraphMoved("reads", batch.after)

    def apply_events(self, batch: EventBatch) -> None:
        q = self.schema.queries
        flows, reflows = _first_writes(batch.flows)
        for name, rows in (
            ("project_memories", batch.memories),
            ("project_writes", batch.writes),
            ("project_flows", flows),
            ("project_reflows", reflows),
            ("project_derived", batch.derived),
            ("project_sources", batch.sources),
            ("project_values", batch.values),
            ("project_decisions", batch.decisions),
            ("project_decided_memories", batch.decided_memories),
            ("project_decided_values", batch.decided_values),
        ):
            if rows:
                self.connection.query(q[name], {"rows": rows})
        done = self.connection.query(
            q["project_mark"],
            {
                "seq": batch.seq,
                "mac": batch.mac,
                "after": batch.after,
                "aside": _aside(batch.set_aside),
                "keep": SET_ASIDE_KEPT,
            },
        )
        if not done:
            raise GraphMoved("events", batch.after)

    def run(self, template: str, params: dict[str, Any]) -> Rows:
        return self.connection.query(self.schema.queries[template], params, read_only=True)

    def clear(self) -> None:
        self.connection.delete_graph()

    def reconnect(self) -> None:
        self.connection.reconnect()

    def close(self) -> None:
        with contextlib.suppress(redis.RedisError, OSError):
            self.connection.close()


def _first_writes(flows: list[Row]) -> tuple[list[Row], list[Row]]:
    """A batch's writes split for the taint queries: the first write of each
    memory by each session (project_flows creates their edges, checking the
    ones there once per write), and the later ones (project_reflows, run after
    it, merges edge by edge: within one CREATE query a second write of the same
    memory would not see the first one's edges)."""
    seen: set[tuple[Any, Any]] = set()
    first: list[Row] = []
    later: list[Row] = []
    for row in flows:
        key = (row["mid"], row["session"])
        if key in seen:
            later.append(row)
        else:
            seen.add(key)
            first.append(row)
    return first, later


def _aside(rows: list[SetAsideRow]) -> list[str]:
    """Set-aside rows as JSON strings (FalkorDB lists hold primitives only); their
    strings were checked by the row builder, so the graph takes them."""
    return [row.model_dump_json(exclude_defaults=True) for row in rows]
