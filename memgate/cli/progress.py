"""Progress of long operations (`log verify`, `graph rebuild`, `rollback`), always
on standard error so that standard output stays the result (or its JSON).

On a terminal: a live spinner with what runs and for how long. Off a terminal
(piped, CI, cron) nothing, unless `--progress` asks for it: then a line when it
starts, one every few seconds while it runs, and one when it ends, so a log
shows the operation is alive without control characters in it.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from memgate.cli.options import err_console

__all__ = ["HEARTBEAT_SECONDS", "ProgressOpt", "activity"]

HEARTBEAT_SECONDS = 5.0
"""Off a terminal, how often `--progress` says the operation still runs."""

ProgressOpt = Annotated[
    bool | None,
    typer.Option(
        "--progress/--no-progress",
        help="Show progress on stderr (default: only on a terminal).",
        show_default=False,
    ),
]


@contextmanager
def activity(description: str, *, show: bool | None) -> Iterator[None]:
    """Show that `description` is running while the block runs. `show`: the
    `--progress/--no-progress` flag (None: only when stderr is a terminal)."""
    console = err_console()
    wanted = console.is_terminal if show is None else show
    if not wanted:
        yield
        return
    if console.is_terminal:
        with Progress(
            SpinnerColumn(),
            TextColumn("{task.description}"),
            TimeElapsedColumn(),
            console=console,
            transient=True,
        ) as progress:
            progress.add_task(description, total=None)
            yield
        return
    with _heartbeat(console, description):
        yield


@contextmanager
def _heartbeat(console: Console, description: str) -> Iterator[None]:
    started = time.monotonic()
    done = threading.Event()

    def beat() -> None:
        while not done.wait(HEARTBEAT_SECONDS):
            console.print(f"{description}: {time.monotonic() - started:.0f} s", highlight=False)

    console.print(f"{description} ...", highlight=False)
    thread = threading.Thread(target=beat, name="memgate-progress", daemon=True)
    thread.start()
    outcome = "stopped"
    try:
        yield
        outcome = "done"
    finally:
        done.set()
        thread.join()
        seconds = time.monotonic() - started
        console.print(f"{description}: {outcome} after {seconds:.1f} s", highlight=False)
