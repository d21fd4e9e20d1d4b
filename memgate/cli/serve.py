"""`memgate serve` (the HTTP service and review UI) and `memgate mcp`."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path
from typing import Annotated, Any, Literal

import typer
from rich.console import Console

from memgate.cli.lock import data_dir_lock
from memgate.cli.options import (
    USAGE_ERROR,
    DataDirOpt,
    JsonOpt,
    KeyOpt,
    Target,
    UrlOpt,
    emit_json,
    fail,
    reported,
)
from memgate.service.keystores import open_keys
from memgate.service.settings import Settings, SettingsError
from memgate.store.datadir import check_data_dir, init_data_dir

DEFAULT_PORT = 8765


def _settings(**overrides: Any) -> Settings:
    try:
        return Settings.from_env(**overrides)
    except SettingsError as exc:
        fail(str(exc), USAGE_ERROR)


def browse_url(host: str, port: int) -> str:
    """The address to print: a wildcard bind is reached on loopback."""
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host  # noqa: S104 - display only
    if ":" in shown:
        shown = f"[{shown}]"
    return f"http://{shown}:{port}"


def serve(
    data_dir: DataDirOpt = None,
    host: Annotated[
        str | None, typer.Option(envvar="MEMGATE_HOST", help="Address to bind (127.0.0.1).")
    ] = None,
    port: Annotated[
        int | None, typer.Option(envvar="MEMGATE_PORT", help=f"Port ({DEFAULT_PORT}).")
    ] = None,
    graph: Annotated[
        str | None,
        typer.Option(
            help="Provenance graph: embedded (default), a FalkorDB URL, or none."
            " Env: MEMGATE_FALKORDB_URL."
        ),
    ] = None,
    store: Annotated[
        str | None,
        typer.Option(
            help="Log and long-term pool: sqlite (under the data directory, default) or a"
            " PostgreSQL URL shared by replicas, e.g. postgresql://memgate@127.0.0.1/memgate."
            " Env: MEMGATE_STORE."
        ),
    ] = None,
    short: Annotated[
        str | None,
        typer.Option(
            help="Short-term pool: memory (in this process, default) or a Redis URL"
            " shared by every replica, e.g. redis://127.0.0.1:6379/0. Env: MEMGATE_SHORT."
        ),
    ] = None,
    policy: Annotated[Path | None, typer.Option(help="Policy TOML file.")] = None,
    log_level: Annotated[str, typer.Option(help="uvicorn log level.")] = "info",
) -> None:
    """Run the HTTP API and the review UI on a data directory.

    SQLite and an embedded FalkorDB live under the data directory. On the first
    start of a new data directory an admin key is created and printed once.

    Example:
      memgate serve --data-dir data --port 8765
      memgate serve --data-dir data --store postgresql://memgate@127.0.0.1/memgate
      memgate serve --data-dir data --short redis://127.0.0.1:6379/0
    """
    target = Target.of(data_dir, None, None)
    settings = _settings(
        data_dir=target.data_dir,
        host=host,
        port=port if port is not None else DEFAULT_PORT,
        graph=graph,
        store=store,
        short=short,
        policy_path=policy,
    )
    url = browse_url(settings.host, settings.port)
    with reported(), data_dir_lock(settings.data_dir, what="memgate serve", url=url):
        # Refuse a store that lost its database or key before anything starts (the
        # same check the gateway makes, here so the message is not a traceback).
        if settings.store is None:  # PostgreSQL: checked as the store opens
            check_data_dir(settings.data_dir, pages=True)
        _serve(settings, url, log_level)


def init(data_dir: DataDirOpt = None, as_json: JsonOpt = False) -> None:
    """Create a data directory, or repair one that lost its database.

    Creates what is missing: the database, the log key, the fingerprint key and
    the checkpoint signing key pair (keys/checkpoint.pub is the public key to
    hand to auditors). An empty or unreadable database is moved aside (renamed
    *.broken-<time>, never deleted) and a new, empty one created. Never replaces
    a log that holds events, and never makes a new key for one. `memgate serve`
    on a new directory initializes it by itself; after a loss it refuses to start
    until this is run.

    Example:
      memgate init --data-dir data
    """
    target = Target.of(data_dir, None, None)
    with reported(), data_dir_lock(target.data_dir, what="memgate init"):
        report = asyncio.run(init_data_dir(target.data_dir))
    if as_json:
        emit_json(
            {
                "data_dir": str(report.data_dir),
                "created": list(report.created),
                "moved_aside": [str(p) for p in report.moved_aside],
            }
        )
        return
    console = Console()
    for path in report.moved_aside:
        console.print(f"moved aside: {path}", highlight=False)
    made = ", ".join(report.created) or "nothing (already initialized)"
    console.print(f"initialized {report.data_dir}: created {made}", highlight=False)


def _serve(settings: Settings, url: str, log_level: str) -> None:
    import uvicorn

    from memgate.service.app import create_app
    from memgate.service.guards import server_config

    with open_keys(settings.keys_path, settings.store) as keys:
        admin_key = keys.ensure_admin()
    console = Console(soft_wrap=True)
    console.print(f"memgate on [bold]{url}[/]  (data: {settings.data_dir.resolve()})")
    console.print(
        f"  review UI: {url}/ui    API docs: {url}/docs    graph: {settings.graph or 'none'}"
    )
    targets = settings.notify_targets
    if targets:
        signed = "signed" if settings.notify_key else "UNSIGNED (set MEMGATE_NOTIFY_SECRET)"
        shown = ", ".join(f"{t.format.value} {t.shown}" for t in targets)
        console.print(f"  notifications: {shown}; {signed}", highlight=False)
    if admin_key is not None:
        console.print(
            f"  [bold yellow]admin key (shown once, store it now):[/] [bold]{admin_key}[/]",
            highlight=False,
            soft_wrap=True,
        )
        console.print(f"  try: curl -H 'Authorization: Bearer {admin_key}' {url}/readyz")
    console.file.flush()  # before uvicorn takes over: a piped log sees the lines now
    # The guarded h11 protocol and the settings' client timeouts (memgate.service.guards).
    config = server_config(create_app(settings), settings, log_level=log_level)
    uvicorn.Server(config).run()


def mcp(
    transport: Annotated[
        str, typer.Option(help="stdio (for desktop clients) or http (streamable HTTP).")
    ] = "stdio",
    host: Annotated[str, typer.Option(help="With --transport http.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="With --transport http.")] = 8766,
    admin: Annotated[
        bool, typer.Option("--admin", help="Also expose review, rollback and investigation tools.")
    ] = False,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    graph: Annotated[
        str,
        typer.Option(
            help="On a data directory, the provenance graph: embedded (default), a"
            " FalkorDB URL, or none."
        ),
    ] = "embedded",
) -> None:
    """Serve memgate as MCP tools (add_memory, search_memories, ...).

    On a local data directory (with the embedded provenance graph unless
    --graph none), or in front of a server with --url/--key.

    Example:
      memgate mcp --data-dir data
      memgate mcp --url http://127.0.0.1:8765 --key $MEMGATE_KEY
    """
    if transport not in ("stdio", "http"):
        raise typer.BadParameter("must be stdio or http", param_hint="--transport")
    chosen: Literal["stdio", "http"] = "stdio" if transport == "stdio" else "http"
    try:
        # NOTE: imported here so that memgate works without the `mcp` extra.
        from memgate.adapters import mcp as mcp_adapter
    except ImportError as exc:
        missing = exc.name or ""
        if missing == "mcp" or missing.startswith("mcp."):
            fail("the MCP server needs the mcp extra: pip install 'memgate-customs[mcp]'")
        fail(f"the MCP adapter cannot be loaded: {exc}")
    target = Target.of(data_dir, url, key)
    holding = (
        contextlib.nullcontext()
        if target.remote
        else data_dir_lock(target.data_dir, what="memgate mcp")
    )
    with reported(), holding:
        mcp_adapter.main(
            data_dir=None if target.remote else target.data_dir,
            url=target.url,
            key=target.key,
            transport=chosen,
            host=host,
            port=port,
            admin=admin,
            graph=None if graph.strip().lower() == "none" else graph,
        )
