"""Rich views of the domain models (tables for people; `--json` prints the models)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from memgate.client.models import ApiKey
from memgate.domain.events import LogRecord, VerifyResult
from memgate.domain.graph import Investigation, InvestigationStatus
from memgate.domain.memory import MemoryItem, MemoryState
from memgate.domain.rollback import Action, RollbackPlan

STATE_STYLE = {
    MemoryState.APPROVED: "green",
    MemoryState.TRANSIENT: "cyan",
    MemoryState.PENDING_REVIEW: "yellow",
    MemoryState.REJECTED: "red",
    MemoryState.EXPIRED: "dim",
    MemoryState.DELETED: "dim",
}
ACTION_STYLE = {Action.REMOVED: "red", Action.RESTORED: "green", Action.REVERTED: "yellow"}
ANSWERED = frozenset(
    {InvestigationStatus.OK, InvestigationStatus.NO_READERS, InvestigationStatus.NO_PATH}
)


def ns(namespace: Sequence[str]) -> str:
    return "/".join(namespace) or "-"


def _time(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%d %H:%M:%S")


def _short(text: str, width: int = 60) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def items_table(items: Sequence[MemoryItem], title: str) -> Group:
    """Two lines per memory (header, then content), readable at any terminal
    width; `show` has the details (findings, times, reviewer)."""
    lines: list[Text] = [Text(title, style="bold")]
    for item in items:
        head = Text.assemble(
            (item.id, "bold"),
            "  ",
            (item.state.value, STATE_STYLE[item.state]),
            f"  trust {item.trust_score:.2f}  {item.source.value}  {ns(item.namespace)}",
        )
        rules = sorted({f.rule_id for f in item.findings})
        if rules:
            head.append("  " + ", ".join(rules), style="magenta")
        lines.append(head)
        lines.append(Text("    " + _short(item.content, 200)))
    return Group(*lines)


def print_item(console: Console, item: MemoryItem) -> None:
    style = STATE_STYLE[item.state]
    console.print(f"[bold]{item.id}[/]  [{style}]{item.state.value}[/]  pool {item.pool.value}")
    rows = [
        ("namespace", ns(item.namespace)),
        ("key", item.key or "-"),
        ("source", item.source.value),
        ("trust / decision", f"{item.trust_score:.2f} / {item.decision.value}"),
        ("session / agent / call", f"{item.session_id} / {item.agent_id} / {item.call_id}"),
        ("created / updated", f"{_time(item.created_at)} / {_time(item.updated_at)}"),
        ("version", str(item.version)),
        ("derived from", ", ".join(item.derived_from) or "-"),
        ("reviewed by", item.reviewed_by or "-"),
        ("reason", item.reason or "-"),
        ("fingerprint", item.fingerprint),
    ]
    for label, value in rows:
        console.print(f"  {label:>24}: ", Text(value), end="\n", highlight=False)
    if item.findings:
        grid = Table(title="findings")
        for column in ("rule", "category", "severity", "span", "evidence"):
            grid.add_column(column)
        for f in item.findings:
            grid.add_row(
                f.rule_id,
                f.category.value,
                f.severity.value,
                f"{f.span[0]}-{f.span[1]}",
                Text(f.evidence),
            )
        console.print(grid)
    console.print(Text("content (secrets redacted):", style="bold"))
    console.print(Text(item.content))


DIFF_ROWS = 50
"""Rows of a rollback diff printed by default (`--limit`); the rest are counted."""


def plan_table(plan: RollbackPlan, limit: int = 0) -> Table:
    """The diff, its first `limit` changes (0: all)."""
    verb = "rolled back" if plan.applied else "would change"
    grid = Table(title=f"rollback to seq {plan.to_seq} (head {plan.head_seq}): {verb}")
    grid.add_column("memory", no_wrap=True)
    for column in ("namespace", "pool", "action", "state now", "state after"):
        grid.add_column(column)
    shown = plan.changes if limit <= 0 else plan.changes[:limit]
    for change in shown:
        grid.add_row(
            change.memory_id,
            ns(change.namespace),
            change.pool.value,
            Text(change.action.value, style=ACTION_STYLE[change.action]),
            Text(change.state_before.value, style=STATE_STYLE[change.state_before]),
            Text(change.state_after.value, style=STATE_STYLE[change.state_after]),
        )
    return grid


def print_plan(
    console: Console, plan: RollbackPlan, *, limit: int = DIFF_ROWS, diff: bool = True
) -> None:
    """The plan: the diff (its first `limit` rows, 0: all; none with `diff=False`,
    e.g. after applying a plan whose diff was just shown), then counts per
    namespace, the graph's view and, once applied, the marker."""
    total = len(plan.changes)
    if plan.changes and diff:
        console.print(plan_table(plan, limit))
        hidden = total - limit if 0 < limit < total else 0
        if hidden:
            console.print(
                f"  … and {hidden} more change(s) ({total} in all; --limit 0 prints every"
                " row, --json lists them all)",
                highlight=False,
            )
    for namespace, counts in sorted(plan.counts.items()):
        summary = ", ".join(f"{action} {n}" for action, n in sorted(counts.items()))
        console.print(f"  {namespace}: {summary}")
    readers = getattr(plan, "readers", ())
    derived = getattr(plan, "derived", ())
    status = getattr(plan, "graph_status", None)
    if status is not None:
        console.print(
            f"  graph: {status.value}; {len(readers)} reading call(s),"
            f" {len(derived)} memory(ies) written after reading"
        )
    if plan.applied:
        console.print(f"[green]applied[/]: {total} change(s), marker event seq {plan.marker_seq}")


def _seqs(seqs: Sequence[int]) -> str:
    return ", ".join(str(s) for s in seqs) or "none"


def print_investigation(console: Console, found: Investigation) -> None:
    ok = found.status in ANSWERED
    style = "green" if found.status is InvestigationStatus.OK else ("yellow" if ok else "red")
    console.print(
        f"{found.kind} of {found.subject}: [{style}]{found.status.value}[/]"
        f"  (graph at seq {found.projected_seq}, lag {found.lag})"
    )
    if found.message:
        console.print(f"  {found.message}", highlight=False)
    if found.gap is not None:
        gap = found.gap
        console.print(
            f"  [yellow]incomplete[/]: the graph is {gap.events_behind} event(s) and"
            f" {gap.reads_behind} read(s) behind the log;"
            f" not projected yet: events {_seqs(gap.unprojected)},"
            f" {gap.unprojected_reads} read(s); set aside: events {_seqs(gap.set_aside)},"
            f" reads {_seqs(gap.set_aside_reads)}"
            + ("; too much missing to tell what concerns it" if gap.unchecked else ""),
            highlight=False,
        )
    if found.readers:
        grid = Table(title="readers")
        for column in ("session", "call", "agent", "tool", "at"):
            grid.add_column(column)
        for r in found.readers:
            grid.add_row(
                r.session_id or "-",
                r.call_id or "-",
                r.agent_id or "-",
                r.tool or "-",
                _time(r.at),
            )
        console.print(grid)
    if found.impact:
        grid = Table(title="blast radius")
        for column in ("memory", "namespace", "state", "depth", "session", "path"):
            grid.add_column(column)
        for i in found.impact:
            grid.add_row(
                i.memory_id,
                ns(i.namespace),
                i.state or "-",
                str(i.depth),
                i.session_id or "-",
                Text(" → ".join(i.path)),
            )
        console.print(grid)
    if found.provenance:
        grid = Table(title="provenance")
        for column in ("depth", "memory", "source", "uri", "session", "call", "derived from"):
            grid.add_column(column)
        for p in found.provenance:
            grid.add_row(
                str(p.depth),
                p.memory_id,
                p.source_kind or "-",
                p.source_uri or "-",
                p.session_id or "-",
                p.call_id or "-",
                ", ".join(p.derived_from) or "-",
            )
        console.print(grid)
    if found.exposure:
        grid = Table(title="exposure")
        for column in ("memory", "namespace", "state", "relation", "session", "call"):
            grid.add_column(column)
        for e in found.exposure:
            grid.add_row(
                e.memory_id,
                ns(e.namespace),
                e.state or "-",
                e.relation,
                e.session_id or "-",
                e.call_id or "-",
            )
        console.print(grid)


def print_verify(console: Console, result: VerifyResult) -> None:
    if result.ok:
        console.print(
            f"[green]log verified[/]: {result.checked} events, chain intact up to seq"
            f" {result.last_seq}"
        )
    else:
        console.print(
            f"[red]log verification FAILED[/] at seq {result.first_bad_seq}: {result.reason}"
            f" ({result.checked} events checked)",
            highlight=False,
        )


def records_table(records: Sequence[LogRecord], title: str = "log") -> Group:
    """One line per event (a second for its reason), readable at any width."""
    lines: list[Text] = [Text(title, style="bold")]
    for record in records:
        e = record.event
        before = e.state_before.value if e.state_before else "∅"
        after = e.state_after.value if e.state_after else "∅"
        lines.append(
            Text.assemble(
                (f"{record.seq:>6}", "bold"),
                f"  {_time(e.at)}  ",
                (f"{e.op.value:<11}", "magenta" if e.op.value == "rolled_back" else "cyan"),
                f" {e.memory_id}",
            )
        )
        why = f": {_short(e.reason, 160)}" if e.reason else ""
        lines.append(Text(f"        {before} → {after} by {e.actor}{why}"))
    return Group(*lines)


def keys_table(keys: Sequence[ApiKey]) -> Table:
    grid = Table(title="API keys")
    grid.add_column("id", no_wrap=True)
    columns = ("name", "role", "namespaces", "sources", "guard roles", "hint", "created", "status")
    for column in columns:
        grid.add_column(column)
    for k in keys:
        grid.add_row(
            k.id,
            k.name,
            k.role,
            ", ".join(ns(n) for n in k.namespaces) or "(all)",
            ", ".join(k.sources) or "-",
            ", ".join(k.guard_roles) or "-",
            k.hint + "…" if k.hint else "-",
            k.created_at.strftime("%Y-%m-%d %H:%M") if k.created_at else "-",
            Text("revoked", style="red") if k.revoked else Text("active", style="green"),
        )
    return grid
