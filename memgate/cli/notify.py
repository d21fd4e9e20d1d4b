"""`memgate notify`: send a test notification, drain the outbox, show its status.

Targets, format and secret come from the settings (MEMGATE_NOTIFY_URLS,
MEMGATE_NOTIFY_FORMAT, MEMGATE_NOTIFY_SECRET), as `memgate serve` reads them.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
from datetime import UTC, datetime
from typing import Annotated

import typer
from rich.console import Console

from memgate.bootstrap import DB_FILE, POSTGRES_SCHEMES, open_outbox
from memgate.cli.lock import DataDirBusy, data_dir_lock
from memgate.cli.options import (
    EXIT_FAILED,
    USAGE_ERROR,
    DataDirOpt,
    JsonOpt,
    StoreOpt,
    Target,
    emit_json,
    fail,
    reported,
)
from memgate.domain.memory import utcnow
from memgate.domain.notices import Notice, NoticeKind
from memgate.domain.ports import OutboxStatus
from memgate.notify import Attempt, Deliverer, DrainReport, Format, send_test
from memgate.notify import Target as NotifyTarget
from memgate.service.settings import Settings, SettingsError

app = typer.Typer(
    help="Notifications: test the configured webhook, drain the outbox, show its status.",
    no_args_is_help=True,
)

ToOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--to",
        help="Send to this URL instead of MEMGATE_NOTIFY_URLS (repeatable;"
        " slack:URL or json:URL picks a format).",
        show_default=False,
    ),
]
FormatOpt = Annotated[
    Format | None, typer.Option("--format", help="Default format (MEMGATE_NOTIFY_FORMAT).")
]


def _settings(
    data_dir: DataDirOpt, to: list[str] | None, fmt: Format | None, store: str | None = None
) -> Settings:
    try:
        return Settings.from_env(
            data_dir=Target.of(data_dir, None, None).data_dir,
            notify_urls=tuple(to) if to else None,
            notify_format=fmt,
            store=store or None,
        )
    except SettingsError as exc:
        fail(str(exc), USAGE_ERROR)


def _targets(settings: Settings) -> tuple[NotifyTarget, ...]:
    targets = settings.notify_targets
    if not targets:
        fail("no notification target: set MEMGATE_NOTIFY_URLS or pass --to URL", USAGE_ERROR)
    return targets


def _attempt_line(attempt: Attempt) -> str:
    outcome = "[green]delivered[/]" if attempt.ok else "[red]FAILED[/]"
    status = f"HTTP {attempt.status}" if attempt.status is not None else attempt.error
    detail = f"  ({attempt.error})" if not attempt.ok and attempt.status is not None else ""
    return f"{outcome}  {attempt.target}  {status}  {attempt.seconds * 1000:.0f} ms{detail}"


@app.command("test")
def send_test_notice(to: ToOpt = None, fmt: FormatOpt = None, as_json: JsonOpt = False) -> None:
    """Send a test notification to each configured target and print the outcome.

    Sent now, not through the outbox. Exit code 1 if any target did not take it.

    Example:
      MEMGATE_NOTIFY_URLS=slack:https://hooks.slack.com/services/T0/B0/XYZ memgate notify test
    """
    settings = _settings(None, to, fmt)
    targets = _targets(settings)
    notice = Notice(
        id=f"test{secrets.token_hex(8)}",
        kind=NoticeKind.TEST,
        at=utcnow(),
        reason="sent by memgate notify test",
    )
    attempts = asyncio.run(
        send_test(targets, settings.notify_key, notice, public_url=settings.public_url)
    )
    signed = settings.notify_key is not None
    if as_json:
        emit_json(
            {
                "notice": notice.id,
                "signed": signed,
                "results": [
                    {
                        "target": a.target,
                        "ok": a.ok,
                        "status": a.status,
                        "error": a.error,
                        "seconds": round(a.seconds, 4),
                    }
                    for a in attempts
                ],
            }
        )
    else:
        console = Console(highlight=False, soft_wrap=True)
        for attempt in attempts:
            console.print(_attempt_line(attempt))
        console.print(
            f"notice {notice.id}, "
            + ("signed (X-Memgate-Signature)" if signed else "unsigned: set MEMGATE_NOTIFY_SECRET")
        )
    if not all(a.ok for a in attempts):
        raise typer.Exit(EXIT_FAILED)


def _report_json(report: DrainReport, status: OutboxStatus) -> dict[str, object]:
    return {
        "delivered": report.delivered,
        "failed": report.failed,
        "given_up": report.given_up,
        "status": status.model_dump(mode="json"),
    }


@app.command("drain")
def drain(
    data_dir: DataDirOpt = None,
    to: ToOpt = None,
    fmt: FormatOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Deliver a local data directory's outbox (or a shared store's) now and print
    the counts.

    Every waiting notice is attempted once, whatever its backoff. A running
    `memgate serve` delivers its outbox itself (on a shared store, the replicas
    and this command each claim a notice before sending it). Exit code 1 if some
    still wait.

    Examples:
      memgate notify drain --data-dir data
      memgate notify drain --store postgresql://memgate@db/memgate
    """
    settings = _settings(data_dir, to, fmt, store)
    _database(settings)
    targets = _targets(settings)
    try:
        holding = (
            contextlib.nullcontext()
            if _shared(settings)
            else data_dir_lock(settings.data_dir, what="memgate notify drain")
        )
        with holding, reported():
            report, status = asyncio.run(_drain(settings, targets))
    except DataDirBusy as exc:
        fail(f"{exc}: a running memgate serve delivers its outbox itself")
    if as_json:
        emit_json(_report_json(report, status))
    else:
        console = Console(highlight=False, soft_wrap=True)
        console.print(
            f"delivered {report.delivered}, failed {report.failed} (retried later),"
            f" given up {report.given_up}; waiting now: {status.pending}"
        )
        for attempt in report.attempts:
            if not attempt.ok:
                console.print("  " + _attempt_line(attempt))
    if status.pending:
        raise typer.Exit(EXIT_FAILED)


async def _drain(
    settings: Settings, targets: tuple[NotifyTarget, ...]
) -> tuple[DrainReport, OutboxStatus]:
    outbox = open_outbox(settings.data_dir, settings.store)
    deliverer = Deliverer(
        outbox,
        targets,
        secret=settings.notify_key,
        backoff=settings.notify_backoff,
        public_url=settings.public_url,
    )
    try:
        report = await deliverer.drain()
        return report, await outbox.status()
    finally:
        await deliverer.close()
        await outbox.close()


def _shared(settings: Settings) -> bool:
    return settings.store is not None and settings.store.startswith(POSTGRES_SCHEMES)


def _database(settings: Settings) -> None:
    if _shared(settings):
        return  # the store's own database (an unreachable one is named when opened)
    if not (settings.data_dir / DB_FILE).is_file():
        fail(f"no memgate database under {settings.data_dir}", USAGE_ERROR)


@app.command("status")
def status(data_dir: DataDirOpt = None, store: StoreOpt = None, as_json: JsonOpt = False) -> None:
    """Show how many notices wait, were delivered or were given up.

    Reads a local data directory's outbox, or with --store the outbox the
    replicas share (read-only: works beside running servers).

    Examples:
      memgate notify status --data-dir data
      memgate notify status --store postgresql://memgate@db/memgate
    """
    settings = _settings(data_dir, None, None, store)
    _database(settings)
    with reported():
        found = asyncio.run(_status(settings))
    if as_json:
        emit_json(found)
        return
    oldest = ""
    if found.oldest_pending is not None:
        since = datetime.fromtimestamp(found.oldest_pending, UTC)
        oldest = f", oldest waiting since {since:%Y-%m-%d %H:%M:%S} UTC"
        oldest += f" ({time.time() - found.oldest_pending:.0f} s)"
    console = Console(highlight=False, soft_wrap=True)
    console.print(
        f"waiting {found.pending}, delivered {found.delivered}, given up {found.given_up}{oldest}"
    )
    if found.last_error:
        console.print(f"last error: {found.last_error}")


async def _status(settings: Settings) -> OutboxStatus:
    outbox = open_outbox(settings.data_dir, settings.store)
    try:
        return await outbox.status()
    finally:
        await outbox.close()
