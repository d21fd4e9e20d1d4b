"""Raw template rows (column order of `schema/graph/*.cypher`) to investigation
results. Shared by both backends, so the twin and FalkorDB answer alike."""

from __future__ import annotations

from typing import Any

from memgate.domain.graph import ExposureRow, ImpactRow, ProvenanceRow, ReaderRow
from memgate.graph.backend import Rows
from memgate.graph.rows import from_micros


def _ns(value: Any) -> tuple[str, ...]:
    return tuple(str(v) for v in value) if isinstance(value, list) else ()


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


def impact_rows(rows: Rows, depth: int) -> tuple[set[str], list[ImpactRow]]:
    """(known subjects, impacted memories). Each row is one subject with the
    memories it reaches and the FLOWED_TO edges among them; each memory is listed once,
    at its shortest distance, with that path as evidence (memory, session, call,
    memory, ...). With several subjects, one may be in another's blast radius:
    it is listed."""
    known: set[str] = set()
    best: dict[str, ImpactRow] = {}
    for subject, nodes, edges in rows:
        known.add(str(subject))
        info = {str(n[0]): (n[1], n[2]) for n in nodes or ()}
        out: dict[str, list[tuple[str, Any, Any]]] = {}
        for start, end, session, call in edges or ():
            if end is not None:
                out.setdefault(str(start), []).append((str(end), session, call))
        # Shortest paths from the subject over the walk's edges.
        path_to: dict[str, list[str]] = {str(subject): [f"memory:{subject}"]}
        last_hop: dict[str, tuple[Any, Any]] = {}
        frontier = [str(subject)]
        for level in range(1, depth + 1):
            nxt: list[str] = []
            for node in frontier:
                for target, session, call in out.get(node, ()):
                    if target in path_to:
                        continue
                    hop = [f"session:{session}", f"call:{call}"] if session else []
                    if session and not call:
                        hop = hop[:1]
                    path_to[target] = [*path_to[node], *hop, f"memory:{target}"]
                    last_hop[target] = (session or None, call if session else None)
                    nxt.append(target)
                    previous = best.get(target)
                    if previous is not None and previous.depth <= level:
                        continue
                    ns, state = info.get(target, (None, None))
                    best[target] = ImpactRow(
                        memory_id=target,
                        namespace=_ns(ns),
                        state=state,
                        depth=level,
                        session_id=last_hop[target][0],
                        call_id=last_hop[target][1],
                        path=tuple(path_to[target]),
                    )
            frontier = nxt
    ordered = sorted(best.values(), key=lambda r: (r.depth, r.memory_id))
    return known, ordered


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
