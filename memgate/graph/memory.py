"""The in-memory twin of the FalkorDB backend: the same facts from the same
rows, the templates' answers computed in Python. For unit tests and notebooks;
the FalkorDB backend has its own tests against the real server."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from memgate.domain.graph import SetAsideRow
from memgate.graph.backend import SET_ASIDE_KEPT, GraphMoved, Marks, Rows
from memgate.graph.investigate import pack_edges, pack_last, pack_memories
from memgate.graph.rows import EventBatch, ReadBatch, Row
from memgate.graph.schema import load_schema

Flow = dict[str, Any]


class MemoryBackend:
    def __init__(self) -> None:
        self.clear()

    def clear(self) -> None:
        self.memories: dict[str, Row] = {}
        self.calls: dict[str, Row] = {}
        self.made: dict[str, set[str]] = defaultdict(set)
        self.reads: list[tuple[str, str, int, str | None]] = []
        self.reads_by_memory: dict[str, list[int]] = defaultdict(list)
        self.wrote: dict[tuple[str, str], Row] = {}
        self.derived: set[tuple[str, str]] = set()
        self.sources: dict[str, Row] = {}
        self.from_source: set[tuple[str, str]] = set()
        self.values: dict[str, Row] = {}
        self.contains: set[tuple[str, str]] = set()
        self.flows: dict[str, dict[tuple[str, str], Flow]] = defaultdict(dict)
        self.decisions: dict[int, Row] = {}
        """Guard decisions by log seq, with the call key they decided."""
        self.named: dict[tuple[int, str], str | None] = {}
        self.carried: dict[tuple[int, str], str | None] = {}
        self._marks = Marks()

    def ensure_schema(self) -> None:
        return None

    def marks(self) -> Marks:
        return self._marks

    def _memory(self, memory_id: str) -> Row:
        return self.memories.setdefault(memory_id, {"id": memory_id})

    def _call(self, r: Row) -> None:
        self.calls.setdefault(
            r["call"],
            {
                "call_id": r["call_id"],
                "session_id": r["session"],
                "agent_id": r["agent"],
                "tool": None,
            },
        )

    def apply_reads(self, batch: ReadBatch) -> None:
        if batch.after is not None and batch.after != self._marks.reads_seq:
            raise GraphMoved("reads", batch.after)
        for r in batch.rows:
            self._call(r)
            self._memory(r["mid"])
            self.reads_by_memory[r["mid"]].append(len(self.reads))
            self.reads.append((r["call"], r["mid"], r["at"], r["agent"]))
        for k in batch.calls:
            self.made[k["session"]].add(k["call"])
        self._mark(batch.set_aside, reads_seq=batch.mark)

    def _mark(
        self,
        aside: list[SetAsideRow],
        *,
        events_seq: int | None = None,
        reads_seq: int | None = None,
        mac: str | None = None,
    ) -> None:
        m = self._marks
        kept = (*m.set_aside, *aside)[:SET_ASIDE_KEPT]
        self._marks = Marks(
            events_seq=m.events_seq if events_seq is None else events_seq,
            reads_seq=m.reads_seq if reads_seq is None else reads_seq,
            head_mac=m.head_mac if mac is None else mac,
            set_aside=kept,
            set_aside_count=m.set_aside_count + len(aside),
        )

    def apply_events(self, batch: EventBatch) -> None:
        if batch.after is not None and batch.after != self._marks.events_seq:
            raise GraphMoved("events", batch.after)
        for row in batch.memories:
            self._memory(row["id"]).update(row)
        for w in batch.writes:
            self._call(w)
            call = self.calls[w["call"]]
            call["tool"] = call["tool"] or w["tool"]
            self._memory(w["mid"])
            edge = self.wrote.setdefault((w["call"], w["mid"]), {"at": w["at"]})
            edge["last"] = w["at"]
            if w["session"] is not None:
                self.made[w["session"]].add(w["call"])
        for w in batch.flows:
            first: dict[str, int] = {}
            calls = self.made.get(w["session"], set())
            for reader, mid, at, _ in self.reads:
                if reader in calls and at <= w["at"] and mid != w["mid"]:
                    first[mid] = min(at, first.get(mid, at))
            for mid, at in first.items():
                self.flows[mid].setdefault(
                    (w["mid"], w["session"]),
                    {
                        "kind": "session",
                        "session": w["session"],
                        "call": w["call_id"],
                        "read_at": at,
                        "at": w["at"],
                    },
                )
        for d in batch.derived:
            self._memory(d["child"])
            self._memory(d["parent"])
            self.derived.add((d["child"], d["parent"]))
            self.flows[d["parent"]].setdefault(
                (d["child"], ""), {"kind": "derived", "session": "", "call": None, "at": d["at"]}
            )
        for s in batch.sources:
            if s["mid"] in self.memories:
                self.sources.setdefault(s["sid"], {"kind": s["kind"], "uri": s["uri"]})
                self.from_source.add((s["mid"], s["sid"]))
        for v in batch.values:
            if v["mid"] in self.memories:
                self.values.setdefault(v["fp"], {"category": v["category"], "rule": v["rule"]})
                self.contains.add((v["mid"], v["fp"]))
        for d in batch.decisions:
            self._call(d)
            call = self.calls[d["call"]]
            call["tool"] = call["tool"] or d["tool"]
            call.update(decision=d["decision"], layer=d["layer"], seq=d["seq"])
            keep = ("decision", "layer", "tool", "at", "warn", "actor", "ask_id")
            self.decisions.setdefault(d["seq"], {"call": d["call"], **{k: d[k] for k in keep}})
            if d["session"] is not None:
                self.made[d["session"]].add(d["call"])
        for r in batch.decided_memories:
            if r["seq"] in self.decisions and r["mid"] in self.memories:
                self.named.setdefault((r["seq"], r["mid"]), r["kind"])
        for r in batch.decided_values:
            if r["seq"] in self.decisions and r["fp"] in self.values:
                self.carried.setdefault((r["seq"], r["fp"]), r["kind"])
        self._mark(batch.set_aside, events_seq=batch.seq, mac=batch.mac)

    # -- templates -------------------------------------------------------------------

    def run(self, template: str, params: dict[str, Any]) -> Rows:
        if template not in load_schema().queries:
            raise KeyError(template)
        return getattr(self, f"_{template}")(params)  # type: ignore[no-any-return]

    def _read_rows(self, memory_id: str, since: int | None, until: int | None) -> Rows:
        out = []
        for index in self.reads_by_memory.get(memory_id, []):
            call, mid, at, agent = self.reads[index]
            if (since is None or at >= since) and (until is None or at <= until):
                c = self.calls[call]
                out.append(
                    [c["session_id"], c["call_id"], agent or c["agent_id"], c["tool"], at, mid]
                )
        return out

    def _readers(self, p: dict[str, Any]) -> Rows:
        if p["id"] not in self.memories:
            return []
        rows = sorted(self._read_rows(p["id"], p["since"], p["until"]), key=lambda r: r[4])
        return rows[: p["limit"]] or [[None, None, None, None, None, p["id"]]]

    def _decisions(self, p: dict[str, Any]) -> Rows:
        calls = self.made.get(p["id"], set())
        rows: Rows = [
            [
                seq,
                self.calls[d["call"]]["call_id"],
                d["tool"],
                d["decision"],
                d["layer"],
                d["at"],
                [mid for (s, mid) in self.named if s == seq],
            ]
            for seq, d in sorted(self.decisions.items())
            if d["call"] in calls
        ]
        return rows[: p["limit"]]

    def _known(self, p: dict[str, Any]) -> Rows:
        return [[i] for i in p["ids"] if i in self.memories]

    def _readers_many(self, p: dict[str, Any]) -> Rows:
        rows = [r for mid in p["ids"] for r in self._read_rows(mid, None, None)]
        return sorted(rows, key=lambda r: r[4])[: p["limit"]]

    def _provenance(self, p: dict[str, Any]) -> Rows:
        if p["id"] not in self.memories:
            return []
        rows: Rows = []
        frontier, seen, depth = [p["id"]], {p["id"]}, 0
        while frontier and depth <= 6:
            nxt: list[str] = []
            for mid in frontier:
                parents = sorted(par for child, par in self.derived if child == mid)
                sources = [self.sources[s] for m, s in self.from_source if m == mid] or [{}]
                writers = [self.calls[c] for c, m in self.wrote if m == mid] or [{}]
                for src in sources:
                    for w in writers:
                        rows.append(
                            [
                                mid,
                                depth,
                                src.get("kind"),
                                src.get("uri"),
                                w.get("session_id"),
                                w.get("call_id"),
                                w.get("tool"),
                                parents,
                            ]
                        )
                nxt.extend(par for par in parents if par not in seen)
                seen.update(parents)
            frontier, depth = nxt, depth + 1
        return rows[: p["limit"]]

    def _exposure(self, p: dict[str, Any]) -> Rows:
        mids = sorted(m for m, fp in self.contains if fp == p["fp"])
        rows: Rows = []
        for mid in mids:
            m = self.memories[mid]
            writers = [self.calls[c] for c, w in self.wrote if w == mid] or [{}]
            for w in writers:
                rows.append(
                    [
                        "contains",
                        mid,
                        m.get("ns"),
                        m.get("state"),
                        w.get("session_id"),
                        w.get("call_id"),
                    ]
                )
        readers = []
        for mid in mids:
            m = self.memories[mid]
            for r in self._read_rows(mid, None, None):
                row = ["read", mid, m.get("ns"), m.get("state"), r[0], r[1]]
                if row not in readers:
                    readers.append(row)
        return rows[: p["limit"]] + readers[: p["limit"]]

    def _level(self, p: dict[str, Any]) -> list[tuple[Any, Any, Any, Any]]:
        """One level of the walk: the FLOWED_TO edges out of the frontier, at
        most `limit` (start, target, session, call)."""
        edges: list[tuple[Any, Any, Any, Any]] = []
        for node in p["ids"]:
            for (target, _), flow in self.flows.get(node, {}).items():
                if len(edges) >= p["limit"]:
                    return edges
                edges.append((node, target, flow["session"], flow["call"]))
        return edges

    def _blast_radius(self, p: dict[str, Any]) -> Rows:
        """Like the template: one level's edges, packed."""
        return pack_edges(self._level(p))

    def _blast_last(self, p: dict[str, Any]) -> Rows:
        """Like the template: the last level's edges with their targets' state
        and namespace, then the `described` memories, packed."""
        edges = []
        for edge in self._level(p):
            m = self.memories.get(edge[1], {})
            edges.append((*edge, m.get("state"), m.get("ns")))
        found = (self.memories.get(i) for i in p["described"])
        described = [(m["id"], m.get("state"), m.get("ns")) for m in found if m is not None]
        return pack_last(edges, described)

    def _blast_memories(self, p: dict[str, Any]) -> Rows:
        found = (self.memories.get(i) for i in p["ids"])
        return pack_memories([(m["id"], m.get("state"), m.get("ns")) for m in found if m])

    def reconnect(self) -> None:
        return None

    def close(self) -> None:
        return None
