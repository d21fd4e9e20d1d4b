"""`memgate review`: the human review queue."""

from __future__ import annotations

from typing import Annotated

import typer

from memgate.cli.backend import backend
from memgate.cli.options import (
    DataDirOpt,
    JsonOpt,
    KeyOpt,
    Target,
    UrlOpt,
    console,
    emit_json,
    fail,
    reported,
)
from memgate.cli.render import items_table, print_item
from memgate.client.models import BulkResult
from memgate.domain.types import Category, Source

app = typer.Typer(
    help="Review pending memories: list, show, approve, reject.", no_args_is_help=True
)


@app.command("list")
def list_pending(
    namespace: Annotated[
        str | None, typer.Option(help="Namespace prefix, slash-joined: acme/team.")
    ] = None,
    category: Annotated[Category | None, typer.Option(help="Only items with this finding.")] = None,
    source: Annotated[Source | None, typer.Option(help="Only items from this source.")] = None,
    older_than: Annotated[
        float | None, typer.Option(help="Only items created more than this many seconds ago.")
    ] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000)] = 50,
    offset: Annotated[int, typer.Option(min=0)] = 0,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """The review queue, oldest first.

    Example:
      memgate review list --namespace acme --category injection
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        items = b.pending(
            namespace_prefix=namespace,
            category=category.value if category else None,
            source=source,
            older_than_seconds=older_than,
            limit=limit,
            offset=offset,
        )
    if as_json:
        emit_json(items)
        return
    console().print(items_table(items, f"pending review: {len(items)}"))


@app.command("show")
def show(
    memory_id: Annotated[str, typer.Argument(help="Memory id.")],
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """One memory in any state, with its findings (secrets redacted).

    Example:
      memgate review show m_01JDQ8Z6V2T4K9N3B7C5X1W0YR
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        item = b.review_item(memory_id)
    if as_json:
        emit_json(item)
        return
    print_item(console(), item)


def _report(results: list[BulkResult], as_json: bool) -> None:
    if as_json:
        emit_json(results)
    else:
        shown = console()
        for r in results:
            if r.ok:
                shown.print(f"{r.id}: [green]{r.state.value if r.state else 'ok'}[/]")
            else:
                shown.print(f"{r.id}: [red]refused[/] {r.error}", highlight=False)
    if not all(r.ok for r in results):
        raise typer.Exit(1)


@app.command("approve")
def approve(
    memory_ids: Annotated[list[str], typer.Argument(help="One or more memory ids.")],
    note: Annotated[str | None, typer.Option(help="A note recorded with the approval.")] = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Approve pending memories (never your own writes). Exit 1 if any was refused.

    Example:
      memgate review approve m_01JDQ8Z6V2T4K9N3B7C5X1W0YR m_01JDQ8ZB3M5N7P9R1T3V5X7Z9A \\
        --note "checked with the user"
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        if len(memory_ids) == 1:
            item = b.approve(memory_ids[0], note=note)
            results = [BulkResult(id=item.id, ok=True, state=item.state)]
        else:
            results = b.bulk("approve", memory_ids, reason=note)
    _report(results, as_json)


@app.command("reject")
def reject(
    memory_ids: Annotated[list[str], typer.Argument(help="One or more memory ids.")],
    reason: Annotated[str, typer.Option(help="Why (required, recorded in the log).")],
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Reject pending memories with a reason. Exit 1 if any was refused.

    Example:
      memgate review reject m_01JDQ8Z6V2T4K9N3B7C5X1W0YR --reason "instructions from a web page"
    """
    if not reason.strip():
        fail("--reason must not be empty", 3)
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        if len(memory_ids) == 1:
            item = b.reject(memory_ids[0], reason=reason)
            results = [BulkResult(id=item.id, ok=True, state=item.state)]
        else:
            results = b.bulk("reject", memory_ids, reason=reason)
    _report(results, as_json)


@app.command("edit")
def edit(
    memory_id: Annotated[str, typer.Argument(help="Memory id.")],
    content: Annotated[str, typer.Option(help="The corrected content (rescanned).")],
    note: Annotated[str | None, typer.Option(help="A note recorded with the edit.")] = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Edit a pending memory and approve it.

    The new text is rescanned; if the scan rejects it, the memory is rejected
    instead.

    Example:
      memgate review edit m_01JDQ8Z6V2T4K9N3B7C5X1W0YR --content "The user prefers metric units."
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        item = b.edit_and_approve(memory_id, content, note=note)
    if as_json:
        emit_json(item)
    else:
        print_item(console(), item)
