"""`memgate keys`: API keys for the HTTP service (admin)."""

from __future__ import annotations

from typing import Annotated

import typer
from rich.console import Console

from memgate.cli.backend import backend
from memgate.cli.options import DataDirOpt, JsonOpt, KeyOpt, Target, UrlOpt, emit_json, reported
from memgate.cli.render import keys_table
from memgate.service.keys import Role

app = typer.Typer(help="API keys: create, list, revoke.", no_args_is_help=True)


@app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="Who or what uses the key.")],
    role: Annotated[Role, typer.Option(help="What the key may do.")] = Role.AGENT,
    namespace: Annotated[
        list[str] | None,
        typer.Option(help="Namespace scope, slash-joined (repeatable; none = all)."),
    ] = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a key; the key itself is printed this once and never stored.

    Example:
      memgate keys create support-bot --role agent --namespace acme/support
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        created = b.create_key(name, role.value, list(namespace or []))
    if as_json:
        emit_json({**created.info.model_dump(mode="json"), "key": created.key})
        return
    console = Console()
    console.print(f"created {created.info.id} ({created.info.role}) for {created.info.name}")
    console.print(f"key (shown once): [bold]{created.key}[/]", highlight=False, soft_wrap=True)


@app.command("list")
def list_keys(
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Every key (never the key itself, only its first characters).

    Example:
      memgate keys list --json
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        keys = b.list_keys()
    if as_json:
        emit_json(keys)
    else:
        Console().print(keys_table(keys))


@app.command("revoke")
def revoke(
    key_id: Annotated[str, typer.Argument(help="Key id (k_...), from `memgate keys list`.")],
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Revoke a key at once (the last admin key cannot be revoked).

    Example:
      memgate keys revoke k_3f9a1c2b7d4e
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        b.revoke_key(key_id)
    if as_json:
        emit_json({"id": key_id, "revoked": True})
    else:
        Console().print(f"revoked {key_id}")
