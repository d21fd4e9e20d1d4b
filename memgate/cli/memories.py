"""`memgate write | get | search | history | delete`: memories from the shell."""

from __future__ import annotations

from typing import Annotated

import typer

from memgate.cli.backend import backend
from memgate.cli.options import (
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
)
from memgate.cli.render import STATE_STYLE, items_table, print_item, records_table
from memgate.client._calls import labels
from memgate.domain.memory import MemoryWrite, Reader
from memgate.domain.memory import Target as WriteTarget
from memgate.domain.recall import SearchMode
from memgate.domain.types import Source

SessionOpt = Annotated[
    str | None, typer.Option("--session", help="Session id, recorded with the write or read.")
]
CallOpt = Annotated[str | None, typer.Option("--call", help="Call id, recorded likewise.")]


def write(
    content: Annotated[str, typer.Argument(help="What to remember.")],
    namespace: Annotated[str, typer.Option(help="Slash-joined namespace: acme/user-42.")],
    source: Annotated[Source, typer.Option(help="Where the content came from.")] = Source.TOOL,
    key: Annotated[str | None, typer.Option("--memory-key", help="A key to replace.")] = None,
    target: Annotated[WriteTarget, typer.Option(help="Pool to aim for.")] = WriteTarget.AUTO,
    session: SessionOpt = None,
    call: CallOpt = None,
    agent: Annotated[str | None, typer.Option(help="Agent id.")] = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    api_key: Annotated[
        str | None, typer.Option("--key", envvar="MEMGATE_KEY", help="API key for --url.")
    ] = None,
    as_json: JsonOpt = False,
) -> None:
    """Write a memory through the gate and print where it went.

    Example:
      memgate write "I prefer metric units." --namespace acme/u1 --source user --session s1
    """
    if not labels(namespace):
        fail("--namespace needs at least one label, e.g. acme/u1", USAGE_ERROR)
    with reported():
        # Built inside `reported`: an invalid field is a usage error naming it.
        memory = MemoryWrite(
            content=content,
            namespace=labels(namespace),
            key=key,
            source=source,
            session_id=session,
            call_id=call,
            agent_id=agent,
            target=target,
        )
    with reported(), backend(Target.of(data_dir, url, api_key)) as b:
        receipt = b.write(memory)
    if as_json:
        emit_json(receipt)
        return
    rules = ", ".join(f.rule_id for f in receipt.findings) or "no findings"
    console().print(
        f"{receipt.id}: [{STATE_STYLE[receipt.state]}]{receipt.state.value}[/] in pool"
        f" {receipt.pool.value} (trust {receipt.trust_score:.2f}, {receipt.decision.value};"
        f" {rules}) seq {receipt.seq}"
        + (f"; promoted as {receipt.promoted_id}" if receipt.promoted_id else "")
    )


def get(
    memory_id: Annotated[str, typer.Argument(help="Memory id.")],
    session: SessionOpt = None,
    call: CallOpt = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Read one memory as an agent would (recorded as a read). Exit 1 if not served.

    Example:
      memgate get m_01JDQ8Z6V2T4K9N3B7C5X1W0YR --session s2 --call c1
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        item = b.get(memory_id, reader=Reader(session_id=session, call_id=call))
    if as_json:
        emit_json(item)
    else:
        print_item(console(), item)


def search(
    query: Annotated[str | None, typer.Argument(help="Words the content must contain.")] = None,
    namespace: Annotated[str | None, typer.Option(help="Namespace prefix: acme.")] = None,
    limit: Annotated[int, typer.Option(min=1, max=1000, help="Results on this page.")] = 10,
    offset: Annotated[
        int, typer.Option(min=0, max=1_000_000, help="Results to skip: the next page.")
    ] = 0,
    session: SessionOpt = None,
    call: CallOpt = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    store: StoreOpt = None,
    as_json: JsonOpt = False,
    mode: Annotated[
        SearchMode,
        typer.Option(
            help="text: every word occurs; vector: nearest by meaning (the recall extra);"
            " hybrid: both, fused by rank."
        ),
    ] = SearchMode.TEXT,
) -> None:
    """Search served memories (recorded as reads).

    Examples:
      memgate search "read-only" --namespace acme --session s5
      memgate search "metric preference" --mode hybrid --namespace acme
      memgate search "read-only" --namespace acme --limit 10 --offset 10
      memgate search "metric" --namespace acme --store postgresql://memgate@db/memgate
    """
    with reported(), backend(Target.of(data_dir, url, key, store=store)) as b:
        items = b.search(
            namespace,
            query,
            limit=limit,
            offset=offset,
            reader=Reader(session_id=session, call_id=call),
            mode=mode.value,
        )
    if as_json:
        emit_json(items)
    else:
        console().print(items_table(items, f"{len(items)} memories"))


def history(
    memory_id: Annotated[str, typer.Argument(help="Memory id.")],
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every logged event of one memory, oldest first.

    Example:
      memgate history m_01JDQ8Z6V2T4K9N3B7C5X1W0YR
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        records = b.history(memory_id)
    if as_json:
        emit_json(records)
    else:
        console().print(records_table(records, f"history of {memory_id}"))


def delete(
    memory_id: Annotated[str, typer.Argument(help="Memory id.")],
    reason: Annotated[str | None, typer.Option(help="Recorded in the log.")] = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Tombstone a memory: never served again; its history stays.

    Example:
      memgate delete m_01JDQ8Z6V2T4K9N3B7C5X1W0YR --reason "user asked"
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        item = b.delete(memory_id, reason=reason)
    if as_json:
        emit_json(item)
    else:
        console().print(f"{item.id}: {item.state.value}")
