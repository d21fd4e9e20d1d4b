"""`memgate keys`: API keys for the HTTP service (admin)."""

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
    reported,
)
from memgate.cli.render import keys_table
from memgate.domain import Source
from memgate.service.keys import Role

app = typer.Typer(
    help="API keys: create, list, change sources or guard roles, revoke.", no_args_is_help=True
)

SourcesOpt = Annotated[
    list[Source] | None,
    typer.Option(
        "--source",
        "--sources",
        help="A source the key's writes may declare (repeatable; default: the role's,"
        " agent keys agent, tool, web, document).",
    ),
]
UserChannelOpt = Annotated[
    bool,
    typer.Option(
        "--user-channel",
        help="The key speaks for the user: its writes may also declare source `user`.",
    ),
]

GuardRolesOpt = Annotated[
    str | None,
    typer.Option(
        "--guard-roles",
        help="Comma-separated guard roles the key may act as (the first is its default);"
        " none: the guard policy's default role.",
    ),
]


def _roles(text: str | None) -> list[str] | None:
    if text is None:
        return None
    return [r.strip() for r in text.split(",") if r.strip()]


@app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="Who or what uses the key.")],
    role: Annotated[Role, typer.Option(help="What the key may do.")] = Role.AGENT,
    namespace: Annotated[
        list[str] | None,
        typer.Option(help="Namespace scope, slash-joined (repeatable; none = all)."),
    ] = None,
    source: SourcesOpt = None,
    user_channel: UserChannelOpt = False,
    guard_roles: GuardRolesOpt = None,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a key; the key itself is printed this once and never stored.

    The sources a write may declare belong to the key: an agent key declares
    agent, tool, web and document; only a user channel declares `user`. So do
    the guard roles its tool calls are judged under (--guard-roles; none: the
    guard policy's default role).

    Examples:
      memgate keys create support-bot --role agent --namespace acme/support
      memgate keys create chat-frontend --user-channel --namespace acme
      memgate keys create crawler --source web --namespace acme/pages
      memgate keys create reporting-agent --guard-roles analyst,ops
    """
    sources = [s.value for s in source] if source else None
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        created = b.create_key(
            name,
            role.value,
            list(namespace or []),
            sources=sources,
            user_channel=user_channel,
            guard_roles=_roles(guard_roles),
        )
    if as_json:
        emit_json({**created.info.model_dump(mode="json"), "key": created.key})
        return
    shown = console()
    shown.print(f"created {created.info.id} ({created.info.role}) for {created.info.name}")
    shown.print(f"sources: {', '.join(created.info.sources) or '-'}")
    shown.print(f"guard roles: {', '.join(created.info.guard_roles) or '-'}")
    shown.print(f"key (shown once): [bold]{created.key}[/]", highlight=False, soft_wrap=True)


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
        console().print(keys_table(keys))


@app.command("sources")
def set_sources(
    key_id: Annotated[str, typer.Argument(help="Key id (k_...), from `memgate keys list`.")],
    source: SourcesOpt = None,
    user_channel: UserChannelOpt = False,
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Replace the sources a key's writes may declare; takes effect at once.

    Keys made before sources existed declare their role's default (an agent key:
    agent, tool, web, document); a key that relays the user's own words needs
    `user` given back this way (or a new key made with --user-channel).

    Examples (--user-channel alone: the role's default plus `user`):
      memgate keys sources k_3f9a1c2b7d4e --user-channel
      memgate keys sources k_3f9a1c2b7d4e --source tool --source web
    """
    if not source and not user_channel:
        raise typer.BadParameter("give --source (repeatable) or --user-channel")
    sources = [s.value for s in source] if source else None
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        changed = b.set_key_sources(key_id, sources, user_channel=user_channel)
    if as_json:
        emit_json(changed)
    else:
        console().print(f"{changed.id} declares: {', '.join(changed.sources) or '-'}")


@app.command("guard-roles")
def set_guard_roles(
    key_id: Annotated[str, typer.Argument(help="Key id (k_...), from `memgate keys list`.")],
    roles: Annotated[
        str,
        typer.Argument(help="Comma-separated guard roles (the first is the default); '' for none."),
    ],
    data_dir: DataDirOpt = None,
    url: UrlOpt = None,
    key: KeyOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Replace the guard roles a key may act as; takes effect at once.

    A tool call (POST /v1/guard/decide, `memgate hook`) naming a role its key does
    not hold is refused; one naming none is judged under the key's first role, or
    the guard policy's default role for a key with none.

    Examples:
      memgate keys guard-roles k_3f9a1c2b7d4e analyst,ops
      memgate keys guard-roles k_3f9a1c2b7d4e ''
    """
    with reported(), backend(Target.of(data_dir, url, key)) as b:
        changed = b.set_key_guard_roles(key_id, _roles(roles) or [])
    if as_json:
        emit_json(changed)
    else:
        console().print(f"{changed.id} acts as: {', '.join(changed.guard_roles) or '-'}")


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
        console().print(f"revoked {key_id}")
