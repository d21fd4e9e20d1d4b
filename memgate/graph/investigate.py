"""Raw template rows (column order of `schema/graph/*.cypher`) to investigation
results. Shared by both backends, so the twin and FalkorDB answer alike."""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
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

_EDGE_ORDER = operator.itemgetter(0, 1, 2)

Step = Callable[[list[str], int], Rows]
"""One level of the walk: (frontier memory ids, row limit) -> rows of the
`blast_radius` template (start id, target id, session, call)."""
Describe = Callable[[list[str]], Rows]
"""Memory ids -> rows of the `blast_memories` template (id, namespace, state)."""
Last = Callable[[list[str], int, list[str]], Rows]
"""The last level with the descriptions in the same round trip: (frontier, row
limit, memory ids to describe) -> rows of the `blast_last` template (start id,
target id, session, call, namespace, state; a row without a target describes
its start id)."""


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
    all subjects' frontiers together, at most `depth` levels.

    Bounded: each subject keeps at most `limit` memories (at each level the new
    ones in id order, so a cut keeps what a full walk would list first), only
    kept memories are expanded, and a level reads at most `level_edges` edges;
    whenever a cap drops something the result says `truncated`. Uncut, the
    answer is the full one: every memory within `depth` hops at its shortest
    distance, with one shortest path as evidence (memory, session, call,
    memory, ...; a DERIVED_FROM hop has no session). With several subjects one
    may be in another's blast radius: it is listed, at its smallest depth.
    `known` answers which of the subjects the graph holds (a subject without
    outgoing edges answers no edge row); `describe` the namespace and state of
    the memories listed, asked once at the end, or, given `last`, in the last
    level's query (one round trip fewer; `describe` is then only asked when the
    walk ends before `depth`)."""
    order = list(dict.fromkeys(str(s) for s in subjects))
    paths: dict[str, dict[str, list[str]]] = {s: {s: [f"memory:{s}"]} for s in order}
    frontiers: dict[str, list[str]] = {s: [s] for s in order}
    best: dict[str, tuple[int, str | None, str | None, tuple[str, ...]]] = {}
    """memory -> (depth, session, call, path) at its smallest depth."""
    seen_subjects: set[str] = set()
    truncated = False
    info: dict[str, tuple[Any, Any]] | None = None
    """namespace and state by memory id, when the last level's query said them."""
    for level in range(1, depth + 1):
        ids = sorted({node for f in frontiers.values() for node in f})
        if not ids:
            break
        if level == depth and last is not None:
            described = sorted(best)
            info = {}
            rows: Rows = []
            for start, end, session, call, ns, state in last(ids, level_edges + 1, described):
                if end is None:
                    info[str(start)] = (ns, state)
                else:
                    info[str(end)] = (ns, state)
                    rows.append([start, end, session, call])
        else:
            rows = step(ids, level_edges + 1)
        if len(rows) > level_edges:
            truncated = True
            rows = rows[:level_edges]
        # Each edge as (target, sort keys of session and call, session, call),
        # sorted by the first three (itemgetter: no Python call per comparison).
        out: dict[str, list[tuple[str, str, str, Any, Any]]] = {}
        for start, end, session, call in rows:
            if end is not None:
                edge = (str(end), str(session or ""), str(call or ""), session, call)
                out.setdefault(str(start), []).append(edge)
        if level == 1:
            seen_subjects.update(out)
        for edges in out.values():
            edges.sort(key=_EDGE_ORDER)
        for subject in order:
            path_to = paths[subject]
            found: dict[str, tuple[str, Any, Any]] = {}
            for node in frontiers[subject]:
                for target, _, _, session, call in out.get(node, ()):
                    if target not in path_to and target not in found:
                        found[target] = (node, session, call)
            room = limit - (len(path_to) - 1)
            kept = sorted(found)
            if len(kept) > room:
                truncated = True
                kept = kept[: max(room, 0)]
            for target in kept:
                node, session, call = found[target]
                hop = [f"session:{session}", f"call:{call}"] if session else []
                if session and not call:
                    hop = hop[:1]
                path_to[target] = [*path_to[node], *hop, f"memory:{target}"]
                previous = best.get(target)
                if previous is not None and previous[0] <= level:
                    continue
                best[target] = (
                    level,
                    session or None,
                    call if session else None,
                    tuple(path_to[target]),
                )
            frontiers[subject] = kept
    missing = [s for s in order if s not in seen_subjects]
    known_ids = seen_subjects | (known(missing) if missing else set())
    if info is None:
        info = {str(r[0]): (r[1], r[2]) for r in describe(sorted(best))} if best else {}
    impact = [
        ImpactRow(
            memory_id=target,
            namespace=_ns(info.get(target, (None, None))[0]),
            state=info.get(target, (None, None))[1],
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
