"""Guard decisions beside memory events, for the incident commands: which tool
calls the sessions that read a memory went on to make (allowed, asked, denied,
rewritten), and which decisions' flow paths name the memory.

Decisions are `guard_decided` events of the log, read through the backend's log
pages (local or remote alike), from the newest `scan` events back at most."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic import BaseModel, ConfigDict
from rich.console import Console
from rich.table import Table

from memgate.cli.backend import Backend
from memgate.domain.events import LogRecord, Op

SCAN_EVENTS = 100_000
"""How far back (in events) the incident commands look for guard decisions."""
MAX_ROWS = 200


class GuardRow(BaseModel):
    """One guard decision, as the incident commands show it (no argument values:
    the log never held them)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    seq: int
    at: datetime
    decision: str
    layer: str
    tool: str
    session_id: str | None = None
    call_id: str
    actor: str
    reason: str | None = None
    memories: tuple[str, ...] = ()
    """Memories the decision's flow path names (written into, read from)."""
    why: str
    """`session` (made by a session that read or wrote the memory) or `path`."""
    ask_id: str | None = None


class GuardDecisions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    rows: tuple[GuardRow, ...] = ()
    scanned: int = 0
    """Log events looked at."""
    truncated: bool = False
    """More matched than MAX_ROWS (the newest are shown)."""


def _row(record: LogRecord, memories: set[str], sessions: set[str]) -> GuardRow | None:
    event = record.event
    if event.op is not Op.GUARD_DECIDED or not event.detail:
        return None
    detail: dict[str, Any] = event.detail
    named = tuple(
        sorted(
            {
                str(step.get("memory_id"))
                for step in detail.get("path") or ()
                if isinstance(step, dict) and step.get("memory_id")
            }
        )
    )
    session = detail.get("session_id")
    why = "path" if set(named) & memories else "session" if session in sessions else None
    if why is None:
        return None
    return GuardRow(
        seq=record.seq,
        at=event.at,
        decision=str(detail.get("decision")),
        layer=str(detail.get("layer")),
        tool=str(detail.get("tool")),
        session_id=session,
        call_id=event.memory_id.removeprefix("call:"),
        actor=event.actor,
        reason=event.reason,
        memories=named,
        why=why,
        ask_id=detail.get("ask_id"),
    )


def guard_decisions(
    b: Backend,
    *,
    memories: Iterable[str],
    sessions: Iterable[str | None],
    after_seq: int = 0,
    scan: int = SCAN_EVENTS,
) -> GuardDecisions:
    """Decisions after `after_seq` made in one of `sessions`, or whose path names
    one of `memories`, oldest first (at most MAX_ROWS, the newest)."""
    wanted = {m for m in memories if m}
    in_sessions = {s for s in sessions if s}
    if not wanted and not in_sessions:
        return GuardDecisions()
    head = b.checkpoint().seq
    after = max(after_seq, head - scan)
    rows: list[GuardRow] = []
    scanned = 0
    while after < head:
        page = b.log_page(after_seq=after, limit=1000)
        if not page.records:
            break
        for record in page.records:
            found = _row(record, wanted, in_sessions)
            if found is not None:
                rows.append(found)
        scanned += len(page.records)
        after = page.records[-1].seq
        if page.next_after_seq is None:
            break
    return GuardDecisions(
        rows=tuple(rows[-MAX_ROWS:]), scanned=scanned, truncated=len(rows) > MAX_ROWS
    )


_STYLE = {"allow": "green", "rewrite": "cyan", "ask": "yellow", "deny": "red"}


def print_guard(console: Console, found: GuardDecisions, title: str) -> None:
    if not found.rows:
        console.print(f"{title}: none (looked at {found.scanned} log events)")
        return
    table = Table(title=title, title_justify="left")
    for column in ("seq", "at", "decision", "tool", "session", "layer", "why", "memories"):
        table.add_column(column)
    for row in found.rows:
        style = _STYLE.get(row.decision, "")
        table.add_row(
            str(row.seq),
            row.at.strftime("%Y-%m-%d %H:%M:%S"),
            f"[{style}]{row.decision}[/]" if style else row.decision,
            row.tool,
            row.session_id or "-",
            row.layer,
            row.why,
            ", ".join(row.memories) or "-",
        )
    console.print(table)
    if found.truncated:
        console.print(f"(the newest {MAX_ROWS} shown)")


def investigation_subjects(found: Any) -> tuple[set[str], set[str | None]]:
    """(memories, sessions) an investigation's answer names."""
    memories = {str(found.subject)} if str(found.subject).startswith("m_") else set()
    sessions: set[str | None] = set()
    for row in (*found.readers, *found.exposure):
        sessions.add(getattr(row, "session_id", None))
        memory = getattr(row, "memory_id", None)
        if memory:
            memories.add(str(memory))
    for impact in found.impact:
        sessions.add(getattr(impact, "session_id", None))
        memory = getattr(impact, "memory_id", None)
        if memory:
            memories.add(str(memory))
    return memories, sessions
