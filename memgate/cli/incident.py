"""Incident commands: `memgate rollback`, `memgate log`, `memgate investigate`,
`memgate graph`."""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated

import typer
from pydantic import ValidationError
from rich.console import Console

from memgate.bootstrap import POSTGRES_SCHEMES
from memgate.cli.audit import (
    checkpoint_local,
    verify_local,
    verify_remote_with_public_key,
    verify_store,
    verify_with_public_key,
)
from memgate.cli.backend import Backend, backend
from memgate.cli.guard_events import guard_decisions, investigation_subjects, print_guard
from memgate.cli.options import (
    EXIT_FAILED,
    USAGE_ERROR,
    DataDirOpt,
    JsonOpt,
    KeyOpt,
    StoreOpt,
    Target,
    UrlOpt,
    console,
    emit_json,
    fail,
    reported,
    to_jsonable,
)
from memgate.cli.progress import ProgressOpt, activity
from memgate.cli.render import (
    ANSWERED,
    DIFF_ROWS,
    print_investigation,
    print_plan,
    print_verify,
    records_table,
)
from memgate.client import MemgateClient
from memgate.client._calls import labels
from memgate.domain.events import Checkpoint, VerifyResult
from memgate.domain.graph import Investigation, InvestigationStatus
from memgate.domain.rollback import RollbackScope
from memgate.domain.types import Source

log_app = typer.Typer(help="The tamper-evident event log.", no_args_is_help=True)
investigate_app = typer.Typer(
    help="Ask the provenance graph who read a memory and what it touched.", no_args_is_help=True
)
graph_app = typer.Typer(
    help="The provenance graph (a projection of the log).", no_args_is_help=True
)


def parse_point(text: str) -> int | datetime:
    """A rollback target: a sequence number, or an ISO 8601 time (UTC if no zone)."""
    stripped = text.strip()
    if stripped.isdigit():
        return int(stripped)
    try:
        moment = datetime.fromisoformat(stripped.replace("Z", "+00:00"))
    except ValueError:
        raise typer.BadParameter(
            f"{text!r} is neither a sequence number nor an ISO 8601 time", param_hint="--to"
        ) from None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


CONFIRMATION_NEEDS_A_TERMINAL = (
    "not applied: {n} change(s) wait for a confirmation, and there is no terminal to"
    " ask on; pass --yes to apply without asking (or --dry-run to only show the diff)"
)


def rollback(
    to: Annotated[str, typer.Option("--to", help="Sequence number or ISO time to return to.")],
    reason: Annotated[
        str, typer.Option(help="Why: recorded in the log's rollback marker.")
    ] = "operator rollback",
    namespace: Annotated[str | None, typer.Option(help="Only this namespace prefix.")] = None,
    source: Annotated[Source | None, typer.Option(help="Only memories from this source.")] = None,
    session: Annotated[str | None, typer.Option(help="Only memories of this session.")] = None,
    memory: Annotated[
        str | None, typer.Option(help="Only this memory and what derives from it.")
    ] = None,
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show the diff, change nothing.")] = (
        False
    ),
    yes: Annotated[
        bool,
        typer.Option(
            "--yes", "-y", help="Apply without asking (needed when there is no terminal)."
        ),
    ] = False,
    limit: Annotated[
        int,
        typer.Option(
            min=0, help="Rows of the diff to print; the rest are counted (0: all; --json: all)."
        ),
    ] = DIFF_ROWS,
    progress: ProgressOpt = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Return the store (or a scope of it) to a point in time.

    Shows the diff first (its first --limit rows), then asks; nothing is deleted:
    compensating events are appended, so a rollback is itself audited and can be
    undone. Without a terminal to ask on (a script, CI) it applies only with
    --yes, else exits 3 and says so.

    Exit 0 applied (or nothing to do, or --dry-run), 1 declined at the prompt or
    refused, 3 usage error or no terminal to confirm on without --yes.

    Examples:
      memgate rollback --to 41 --dry-run
      memgate rollback --to 41 --dry-run --limit 0
      memgate rollback --to 2026-11-30T09:15:00Z --namespace acme --reason "poisoned page" --yes
    """
    point = parse_point(to)
    if namespace is not None and not labels(namespace):
        # An empty prefix would widen the scope to every namespace.
        fail("--namespace needs at least one label, e.g. acme or acme/u1", USAGE_ERROR)
    with reported():
        scope = RollbackScope(
            namespace_prefix=labels(namespace),
            source=source,
            session_id=session,
            memory_id=memory,
        )
    out = console(stderr=as_json)
    with reported(), backend(Target.of(data_dir, url, key), graph=True) as b:
        with activity("computing the rollback plan", show=progress):
            plan = b.rollback(to=point, reason=reason, scope=scope, dry_run=True)
        if dry_run or not plan.changes:
            decided = guard_decisions(
                b,
                memories=[c.memory_id for c in plan.changes],
                sessions=[r.session_id for r in plan.readers],
                after_seq=plan.to_seq,
            )
            if as_json:
                emit_json(to_jsonable(plan) | {"guard_decisions": to_jsonable(decided)})
            else:
                print_plan(out, plan, limit=limit)
                if not plan.changes:
                    out.print("nothing to roll back")
                print_guard(
                    out, decided, f"Guard decisions since seq {plan.to_seq} about these memories"
                )
            return
        if not as_json:
            print_plan(out, plan, limit=limit)
        if not yes:
            if not sys.stdin.isatty():
                fail(
                    CONFIRMATION_NEEDS_A_TERMINAL.format(n=len(plan.changes)),
                    USAGE_ERROR,
                    "confirmation_required",
                    changes=len(plan.changes),
                )
            if not typer.confirm(f"Apply this rollback ({len(plan.changes)} change(s))?", err=True):
                fail("not applied", EXIT_FAILED, "declined")
        with activity(f"rolling back {len(plan.changes)} change(s)", show=progress):
            applied = b.rollback(to=point, reason=reason, scope=scope, dry_run=False)
    if as_json:
        emit_json(applied)
    else:
        # The diff was printed above: the applied plan's summary only.
        print_plan(out, applied, diff=False)


@log_app.command("verify")
def log_verify(
    checkpoint: Annotated[
        Path | None,
        typer.Option(help="A checkpoint file (from `memgate log checkpoint`) the log must extend."),
    ] = None,
    public_key: Annotated[
        Path | None,
        typer.Option(
            "--public-key",
            help="Verify with only this Ed25519 public key (PEM, e.g. keys/checkpoint.pub) and"
            " read access: needs --checkpoint; no log key.",
        ),
    ] = None,
    since: Annotated[
        Path | None,
        typer.Option(
            help="Incremental: a checkpoint file an earlier verify vouched for; only what"
            " came after it is checked (a local data directory or --store only).",
        ),
    ] = None,
    progress: ProgressOpt = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Check the log's MAC chain and everything served against it.

    Names the first bad event, and every projection row (items, short_items)
    or read that diverges from the log. With --checkpoint, also proves the log
    still extends an exported point (and checks its signature). Read-only:
    nothing is appended or written, and it can run beside a server.

    With --public-key (an auditor without the log key): checks the checkpoint's
    Ed25519 signature, that the events up to it are exactly those it signed, and
    that the events after it extend it.

    With --since (a checkpoint exported after an earlier verify): incremental,
    in time proportional to what came after it: the log must still hold that
    point, then the events after it and the rows they touch are checked (older
    rows and the reads were checked by the verify that vouched for it).

    Exit 0 intact, 1 tampered (the first bad seq or row is named).

    Examples:
      memgate log verify --checkpoint /secure/memgate-checkpoint.json
      memgate log verify --since /secure/last-verified.json
      memgate log verify --checkpoint cp.json --public-key checkpoint.pub --data-dir /mnt/copy
      memgate log verify --store postgresql://memgate@db/memgate --since last-verified.json

    With --store (or MEMGATE_STORE) a PostgreSQL store is verified (the log key
    from --data-dir's keys/ or MEMGATE_LOG_KEY), without a gateway: read-only.
    """
    saved = _load_checkpoint(checkpoint) if checkpoint is not None else None
    after = _load_checkpoint(since) if since is not None else None
    target = Target.of(data_dir, url, key, store=store)
    shared = target.store is not None and target.store.startswith(POSTGRES_SCHEMES)
    if target.store is not None and not shared and target.store != "sqlite":
        fail("--store must be sqlite or a postgresql:// URL", USAGE_ERROR)
    if after is not None and (public_key is not None or target.url is not None):
        fail("--since verifies a local data directory or --store with its log key", USAGE_ERROR)
    if shared and (public_key is not None or target.url is not None):
        fail("--store verifies with the log key: not with --public-key or --url", USAGE_ERROR)
    with reported(), activity("verifying the log", show=progress):
        if public_key is not None:
            if saved is None:
                fail("--public-key needs --checkpoint (the signed point to check)", USAGE_ERROR)
            pem = _read(public_key)
            if target.url is not None:
                with MemgateClient(target.url, key=target.key) as client:
                    result = verify_remote_with_public_key(client, pem, saved)
            else:
                result = verify_with_public_key(target.data_dir, pem, saved)
        elif shared and target.store is not None:
            result = verify_store(target.data_dir, target.store, saved, after)
        elif target.url is None:
            result = verify_local(target.data_dir, saved, after)
        else:
            with backend(target) as b:
                result = b.verify(saved)
    if as_json:
        emit_json(result)
    else:
        _print_verify(console(), result)
    raise typer.Exit(0 if result.ok else 1)


def _print_verify(console: Console, result: VerifyResult) -> None:
    print_verify(console, result)
    if result.rows_checked or result.reads_checked:
        console.print(
            f"served state: {result.rows_checked} rows, {result.reads_checked} reads checked",
            highlight=False,
        )
    if result.signature_ok is not None:
        console.print(
            "checkpoint signature: " + ("[green]valid[/]" if result.signature_ok else "[red]BAD[/]")
        )
    for d in result.divergences:
        console.print(f"  [red]{d.table}[/] {d.id}: {d.kind}: {d.detail}", highlight=False)
    if result.divergence_count > len(result.divergences):
        console.print(f"  ... {result.divergence_count - len(result.divergences)} more")
    if result.scope:
        console.print(f"[dim]checked: {result.scope}[/]", highlight=False)


def _read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", USAGE_ERROR)


def _load_checkpoint(path: Path) -> Checkpoint:
    try:
        return Checkpoint.model_validate_json(path.read_bytes())
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}", USAGE_ERROR)
    except ValidationError as exc:
        fail(f"{path} is not a checkpoint: {exc.errors()[0]['msg']}", USAGE_ERROR)


@log_app.command("checkpoint")
def log_checkpoint(
    out: Annotated[
        Path | None, typer.Option(help="Write the checkpoint JSON here (keep it off this host).")
    ] = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Export the chain's head (seq, MAC, hash, count), signed with Ed25519.

    Kept elsewhere, it later proves the log was not rewritten, even by someone
    holding the MAC key; with the public key (`keys/checkpoint.pub`, or
    GET /v1/log/public-key) anyone can check it. The log is verified before it is
    signed. Read-only on the database.

    Example:
      memgate log checkpoint --out /secure/memgate-checkpoint.json
    """
    target = Target.of(data_dir, url, key)
    with reported():
        if target.url is None:
            point = checkpoint_local(target.data_dir)
        else:
            with backend(target) as b:
                point = b.checkpoint()
    text = point.model_dump_json()
    if out is not None:
        out.write_text(text + "\n", encoding="utf-8")
    if as_json or out is None:
        typer.echo(text)
    else:
        console().print(f"checkpoint at seq {point.seq} ({point.count} events) written to {out}")


@log_app.command("tail")
def log_tail(
    lines: Annotated[int, typer.Option("-n", "--lines", min=1, max=1000)] = 20,
    follow: Annotated[bool, typer.Option("--follow", "-f", help="Keep printing new events.")] = (
        False
    ),
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The last events of the log (JSON Lines with --json).

    Example:
      memgate log tail -n 50
    """
    shown = console()
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        head = b.checkpoint().seq
        after = max(0, head - lines)
        while True:
            page = b.log_page(after_seq=after, limit=1000)
            if page.records:
                after = page.records[-1].seq
                if as_json:
                    for record in page.records:
                        typer.echo(record.model_dump_json())
                else:
                    shown.print(records_table(page.records))
            if not follow:
                return
            if page.next_after_seq is None:
                time.sleep(1.0)


def _investigate(
    target: Target,
    ask: Callable[[Backend], Investigation],
    as_json: bool,
    *,
    unknown_is_an_answer: bool = False,
) -> None:
    """Ask the graph one question and print the answer; exit 0 when it answered,
    3 for an invalid subject, 1 when it could not answer. `unknown_is_an_answer`:
    a subject the graph does not know is an answer too (a fingerprint no memory
    contains was not exposed), where an unknown memory id is most likely a typo."""
    with reported(), backend(target, graph=True) as b:
        found = ask(b)
        memories, sessions = investigation_subjects(found)
        decided = guard_decisions(b, memories=memories, sessions=sessions)
    if as_json:
        emit_json(to_jsonable(found) | {"guard_decisions": to_jsonable(decided)})
    else:
        print_investigation(console(), found)
        print_guard(console(), decided, "Guard decisions of these sessions and memories")
    answered = found.status in ANSWERED or (
        unknown_is_an_answer and found.status is InvestigationStatus.UNKNOWN_MEMORY
    )
    if answered:
        raise typer.Exit(0)
    raise typer.Exit(USAGE_ERROR if found.status is InvestigationStatus.INVALID_INPUT else 1)


@investigate_app.command("readers")
def investigate_readers(
    memory_id: Annotated[str, typer.Argument(help="Memory id.")],
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Which sessions and calls read this memory.

    Example:
      memgate investigate readers m_01JDQ8Z6V2T4K9N3B7C5X1W0YR

    Exit 0 when the graph answered (even with nothing found), 1 when it could not,
    does not know the memory, or is behind the log on it (`graph_behind`: the gap
    is printed); 3 for a malformed id.
    """
    _investigate(Target.of(data_dir, url, key), lambda b: b.readers(memory_id), as_json)


@investigate_app.command("blast-radius")
def investigate_blast_radius(
    memory_id: Annotated[str, typer.Argument(help="Memory id.")],
    depth: Annotated[int, typer.Option(help="Hops to follow (1-6).")] = 3,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Memories derived from this one, or written by sessions after they read it.

    Example:
      memgate investigate blast-radius m_01JDQ8Z6V2T4K9N3B7C5X1W0YR --depth 2

    Exit 0 when the graph answered (even with nothing found), 1 when it could not
    or does not know the memory, 3 for a malformed id or depth.
    """
    _investigate(Target.of(data_dir, url, key), lambda b: b.blast_radius(memory_id, depth), as_json)


@investigate_app.command("provenance")
def investigate_provenance(
    memory_id: Annotated[str, typer.Argument(help="Memory id.")],
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Where this memory came from: source, session, call, what it derives from.

    Example:
      memgate investigate provenance m_01JDQ8Z6V2T4K9N3B7C5X1W0YR

    Exit 0 when the graph answered (even with nothing found), 1 when it could not
    or does not know the memory, 3 for a malformed id.
    """
    _investigate(Target.of(data_dir, url, key), lambda b: b.provenance(memory_id), as_json)


@investigate_app.command("exposure")
def investigate_exposure(
    fingerprint: Annotated[str, typer.Argument(help="A content or secret fingerprint.")],
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Memories that contain this fingerprint, and the calls that read them.

    The fingerprint is a content fingerprint (`memgate get ID --json`: fingerprint)
    or a secret's keyed fingerprint (the last part of [REDACTED:rule:fingerprint]).

    Example:
      memgate investigate exposure 9f2c4e1a7b3d5f60

    Exit 0 when the graph answered, also when no memory contains the fingerprint
    (status unknown_memory: nothing was exposed); 1 when it could not answer or is
    behind the log (graph_behind); 3 for a malformed fingerprint.
    """
    _investigate(
        Target.of(data_dir, url, key),
        lambda b: b.exposure(fingerprint),
        as_json,
        unknown_is_an_answer=True,
    )


@graph_app.command("rebuild")
def graph_rebuild(
    progress: ProgressOpt = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Rebuild the provenance graph from the SQLite log and reads.

    SQLite is the source of truth; the graph is dropped and projected again.

    Example:
      memgate graph rebuild --data-dir data
    """
    with reported(), backend(Target.of(data_dir, url, key), graph=True) as b:
        started = time.perf_counter()
        with activity("rebuilding the graph from the log", show=progress):
            report = b.rebuild_graph_report()
        seconds = time.perf_counter() - started
    count = report.events
    if as_json:
        rows = [r.model_dump(mode="json") for r in report.set_aside_rows]
        typer.echo(
            json.dumps(
                {
                    "projected": count,
                    "seconds": round(seconds, 3),
                    "set_aside": report.set_aside,
                    "set_aside_rows": rows,
                }
            )
        )
    else:
        out = console()
        out.print(f"graph rebuilt: {count} events projected in {seconds:.2f} s")
        if report.set_aside:
            out.print(
                f"[yellow]{report.set_aside} row(s) set aside[/] (the graph could not take them;"
                " investigations of their memories answer graph_behind):"
            )
            for r in report.set_aside_rows:
                out.print(f"  {r.kind} {r.seq}: {r.reason}", highlight=False)
