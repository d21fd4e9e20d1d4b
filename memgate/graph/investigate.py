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


def impact_rows(rows: Rows) -> tuple[set[str], list[ImpactRow]]:
    """(known subjects, impacted memories): one row per memory reached, on its
    shortest path, the path as evidence (memory, session, call, memory, ...). With
    several subjects, one may be in another's blast radius: it is listed."""
    known: set[str] = set()
    best: dict[str, ImpactRow] = {}
    for subject, target, ns, state, length, nodes, sessions, calls in rows:
        known.add(str(subject))
        if target is None or target == subject:
            continue
        depth = int(length)
        previous = best.get(target)
        if previous is not None and previous.depth <= depth:
            continue
        path: list[str] = []
        for i, node in enumerate(nodes):
            path.append(f"memory:{node}")
            if i < len(sessions) and sessions[i]:
                path.append(f"session:{sessions[i]}")
                if calls[i]:
                    path.append(f"call:{calls[i]}")
        last_session = sessions[-1] if sessions and sessions[-1] else None
        best[target] = ImpactRow(
            memory_id=target,
            namespace=_ns(ns),
            state=state,
            depth=depth,
            session_id=last_session,
            call_id=calls[-1] if last_session else None,
            path=tuple(path),
        )
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
