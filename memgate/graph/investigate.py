"""Raw template rows (column order of `schema/graph/*.cypher`) to investigation
results. Shared by both backends, so the twin and FalkorDB answer alike."""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from memgate.domain.graph import ExposureRow, ImpactRow, ProvenanceRow, ReaderRow
from memgate.graph.backend import Rows
from memgate.graph.rows import from_micros


def _ns(value: Any) -> tuple[str, ...]:
    return tuple(map(str, value)) if isinstance(value, list) else ()


def reader_rows(rows: Rows) -> tuple[bool, list[ReaderRow]]:
    """(memory known, readers). The single-memory template answers one row with
    a null read when the memory exists and nobody read it."""
    out = [
        ReaderRow(
            session_id=session,
            call_id=call,
            agent_id=agent,
            tool=tool,
            at=from_micros(int(at)),
            memory_id=memory_id,
        )
        for session, call, agent, tool, at, memory_id in rows
        if at is not None
    ]
    return bool(rows), out


LEVEL_EDGES = 20_000
"""FLOWED_TO edges read per level of a blast radius walk (the query's LIMIT);
past it the level is cut and the answer says `truncated`."""

FIELD = "\x1f"
"""Separates the values in the blast radius templates' packed replies: one row
per level, each column (start ids, target ids, ...) one string, instead of a
row of cells per edge. FalkorDB's compact reply makes each cell a [type, value]
list, so a level of 2,000 edges came back as ~20k Python lists: beside the
parsing, they lived long enough to reach the oldest GC generation, and every
second or third large walk paid a full collection of the process (25-55 ms:
the d3 p99 at 1M edges). No id, session, call or namespace label holds a
control character (the row builder refuses them before they reach the graph),
so none holds this one."""
PART = "\x1e"
"""Joins the labels of a packed namespace."""
NULL = "\x1a"
"""A null in a packed column (told apart from the empty string)."""
PACKED = {"fs": FIELD, "ps": PART, "null": NULL}
"""The separators, as template parameters (Cypher strings have no escapes)."""

Step = Callable[[list[str], int], Rows]
"""One level of the walk: (frontier memory ids, edge limit) -> the reply of the
`blast_radius` template: one row, the number of edges, then the start ids,
target ids, sessions and calls, each column packed in one string (`pack_edges`)."""
Describe = Callable[[list[str]], Rows]
"""Memory ids -> the reply of the `blast_memories` template: one row, the
number of memories, then their ids, states and namespaces, packed
(`pack_memories`)."""
Last = Callable[[list[str], int, list[str]], Rows]
"""The last level with the descriptions in the same round trip: (frontier, edge
limit, memory ids to describe) -> the reply of the `blast_last` template: an
'edges' row (as `blast_radius`, plus the targets' states and namespaces) and a
'memories' row (the described ids, states and namespaces), packed (`pack_last`)."""


def _field(value: Any) -> str:
    return NULL if value is None else str(value)


def _labels(ns: Any) -> str:
    return PART.join(map(str, ns)) if isinstance(ns, list) else ""


def pack_edges(edges: Sequence[tuple[Any, Any, Any, Any]]) -> Rows:
    """(start, target, session, call) edges as the `blast_radius` template
    replies them (the in-memory twin answers with this)."""
    return [[len(edges), *(FIELD.join(_field(e[k]) for e in edges) for k in range(4))]]


def pack_memories(memories: Sequence[tuple[Any, Any, Any]]) -> Rows:
    """(id, state, namespace) as the `blast_memories` template replies them."""
    return [
        [
            len(memories),
            FIELD.join(str(m[0]) for m in memories),
            FIELD.join(_field(m[1]) for m in memories),
            FIELD.join(_labels(m[2]) for m in memories),
        ]
    ]


def pack_last(
    edges: Sequence[tuple[Any, Any, Any, Any, Any, Any]],
    memories: Sequence[tuple[Any, Any, Any]],
) -> Rows:
    """(start, target, session, call, target state, target namespace) edges and
    (id, state, namespace) memories as the `blast_last` template replies them."""
    count, *columns = pack_edges([e[:4] for e in edges])[0]
    described, ids, states, labels = pack_memories(memories)[0]
    return [
        [
            "edges",
            count,
            *columns,
            FIELD.join(_field(e[4]) for e in edges),
            FIELD.join(_labels(e[5]) for e in edges),
        ],
        ["memories", described, ids, "", "", "", states, labels],
    ]


def _unpack(row: Sequence[Any], width: int) -> list[list[str]]:
    """The `width` columns of a packed reply row (its count, then one string per
    column), as lists of equal length."""
    if not row or not row[0]:
        return [[] for _ in range(width)]
    count, *packed = row
    columns = [str(text).split(FIELD) for text in packed[:width]]
    if len(columns) != width or any(len(c) != count for c in columns):
        raise ValueError("a packed blast radius reply with a partial record")
    return columns


def _first(rows: Rows) -> list[Any]:
    return rows[0] if rows else []


def _namespace(labels: str) -> tuple[str, ...]:
    return tuple(labels.split(PART)) if labels else ()


def _value(field: str) -> str | None:
    return None if field == NULL else field


def _key(field: str) -> str:
    """The order of a session or call among edges: `str(value or "")`."""
    return "" if field == NULL else field


class _Pauses:
    """Walks running with the collector paused, and whether it was enabled
    before the first of them."""

    lock = threading.Lock()
    running = 0
    was_enabled = False


_PAUSES = _Pauses()
"""Module state, as the collector it guards is the process's."""


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector off while a walk runs (milliseconds; the
    projector's two reader threads may overlap, the last one out turns it back
    on if it was on). A large walk allocates a few thousand objects that hold no
    cycle (the answer's rows among them, alive until the caller is done): each
    young collection meanwhile could free none of them, only move them a
    generation up, and enough of them reaching the oldest one set off a full
    collection of the process (25-120 ms with the service's startup heap) in
    the middle of some walk. Paused, the answer is usually gone before it gets
    that far. Rollback pauses it too (memgate.gateway.incident)."""
    pauses = _PAUSES
    with pauses.lock:
        if pauses.running == 0:
            pauses.was_enabled = gc.isenabled()
            gc.disable()
        pauses.running += 1
    try:
        yield
    finally:
        with pauses.lock:
            pauses.running -= 1
            if pauses.running == 0 and pauses.was_enabled:
                gc.enable()


@dataclass(frozen=True, slots=True)
class Walk:
    """A blast radius walk: the subjects the graph knows, the memories reached
    (each once, at its shortest distance, ordered by depth then id), and whether
    a cap cut it (more memories may be reached than listed)."""

    known: set[str]
    impact: list[ImpactRow]
    truncated: bool


def walk(
    step: Step,
    known: Callable[[list[str]], set[str]],
    describe: Describe,
    subjects: Sequence[str],
    depth: int,
    limit: int,
    *,
    level_edges: int = LEVEL_EDGES,
    last: Last | None = None,
) -> Walk:
    """Breadth first from each subject over FLOWED_TO, one query per level for
    all subjects' frontiers together, at most `depth` levels, then one query
    describing the memories kept.

    Bounded: each subject keeps at most `limit` memories (at each level the new
    ones in id order, so a cut keeps what a full walk would list first), only
    kept memories are expanded, and a level reads at most `level_edges` edges;
    whenever a cap drops something the result says `truncated`. Uncut, the
    answer is the full one: every memory within `depth` hops at its shortest
    distance, with one shortest path as evidence (memory, session, call,
    memory, ...; a DERIVED_FROM hop has no session): the first frontier memory
    (in id order) with an edge to it, and of that memory's edges to it the
    least by (session, call). With several subjects one may be in another's
    blast radius: it is listed, at its smallest depth. `known` answers which of
    the subjects the graph holds (a subject without outgoing edges answers no
    edge); `describe` the namespace and state of the memories listed, asked
    once at the end, or, given `last`, in the last level's query (one round
    trip fewer; `describe` is then only asked when the walk ends before
    `depth`).

    Replies come packed, a string per column (see `FIELD`): no Python object
    per edge outlives the level's loop but the index lists."""
    order = list(dict.fromkeys(str(s) for s in subjects))
    paths: dict[str, dict[str, tuple[str, ...]]] = {s: {s: (f"memory:{s}",)} for s in order}
    frontiers: dict[str, list[str]] = {s: [s] for s in order}
    best: dict[str, tuple[int, str | None, str | None, tuple[str, ...]]] = {}
    """memory -> (depth, session, call, path) at its smallest depth."""
    seen_subjects: set[str] = set()
    truncated = False
    info: dict[str, tuple[tuple[str, ...], str | None]] | None = None
    """namespace and state by memory id, once the last level's query said them."""
    states: list[str] = []
    labels: list[str] = []
    """The last level's targets' states and namespaces, by edge."""
    for level in range(1, depth + 1):
        ids = sorted({node for f in frontiers.values() for node in f})
        if not ids:
            break
        if level == depth and last is not None:
            parts = {str(row[0]): row[1:] for row in last(ids, level_edges + 1, sorted(best))}
            columns = _unpack(parts.get("edges", []), 6)
            states, labels = columns[4], columns[5]
            memories = parts.get("memories", [])
            described = _unpack([*memories[:2], *memories[5:]], 3)
            info = {
                memory_id: (_namespace(ns), _value(state))
                for memory_id, state, ns in zip(*described, strict=True)
            }
        else:
            columns = _unpack(_first(step(ids, level_edges + 1)), 4)
        starts, targets, sessions, calls = columns[:4]
        if len(starts) > level_edges:
            truncated = True
            for column in columns:
                del column[level_edges:]
        # Edge indexes by start memory, in reply order.
        out: dict[str, list[int]] = {}
        for i, start in enumerate(starts):
            edges = out.get(start)
            if edges is None:
                out[start] = [i]
            else:
                edges.append(i)
        if level == 1:
            seen_subjects.update(out)
        for subject in order:
            path_to = paths[subject]
            found: dict[str, int] = {}
            """new target -> the edge reaching it: from the first frontier
            memory that has one, the least of its edges by (session, call)."""
            for node in frontiers[subject]:
                for i in out.get(node, ()):
                    target = targets[i]
                    if target in path_to:
                        continue
                    j = found.get(target)
                    if j is None or (
                        starts[j] == node
                        and (_key(sessions[i]), _key(calls[i]))
                        < (_key(sessions[j]), _key(calls[j]))
                    ):
                        found[target] = i
            room = limit - (len(path_to) - 1)
            kept = sorted(found)
            if len(kept) > room:
                truncated = True
                kept = kept[: max(room, 0)]
            for target in kept:
                i = found[target]
                session, call = _value(sessions[i]), _value(calls[i])
                if session:
                    hop: tuple[str, ...] = (
                        (f"session:{session}", f"call:{call}") if call else (f"session:{session}",)
                    )
                else:
                    hop = ()
                path = (*path_to[starts[i]], *hop, f"memory:{target}")
                path_to[target] = path
                if info is not None:
                    info[target] = (_namespace(labels[i]), _value(states[i]))
                previous = best.get(target)
                if previous is not None and previous[0] <= level:
                    continue
                best[target] = (level, session or None, call if session else None, path)
            frontiers[subject] = kept
    missing = [s for s in order if s not in seen_subjects]
    known_ids = seen_subjects | (known(missing) if missing else set())
    if info is None:
        info = {}
        if best:
            described = _unpack(_first(describe(sorted(best))), 3)
            for memory_id, state, ns in zip(*described, strict=True):
                info[memory_id] = (_namespace(ns), _value(state))
    impact = [
        ImpactRow(
            memory_id=target,
            namespace=info.get(target, ((), None))[0],
            state=info.get(target, ((), None))[1],
            depth=depth_of,
            session_id=session,
            call_id=call,
            path=path,
        )
        for target, (depth_of, session, call, path) in best.items()
    ]
    impact.sort(key=lambda r: (r.depth, r.memory_id))
    return Walk(known=known_ids & set(order), impact=impact, truncated=truncated)


def provenance_rows(rows: Rows) -> list[ProvenanceRow]:
    seen: set[tuple[Any, ...]] = set()
    out: list[ProvenanceRow] = []
    for memory_id, depth, kind, uri, session, call, tool, parents in rows:
        key = (memory_id, depth, kind, uri, session, call)
        if key in seen:
            continue
        seen.add(key)
        out.append(
            ProvenanceRow(
                memory_id=memory_id,
                source_kind=kind,
                source_uri=uri,
                session_id=session,
                call_id=call,
                tool=tool,
                derived_from=tuple(sorted(str(p) for p in parents or () if p is not None)),
                depth=int(depth),
            )
        )
    return out


def exposure_rows(rows: Rows) -> list[ExposureRow]:
    return [
        ExposureRow(
            relation=relation,
            memory_id=memory_id,
            namespace=_ns(ns),
            state=state,
            session_id=session,
            call_id=call,
        )
        for relation, memory_id, ns, state, session, call in rows
    ]
