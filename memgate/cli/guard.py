"""The guard's commands: `memgate hook pre-tool-use | post-tool-use` (the Claude
Code hooks; see memgate.cli.hook, the console script runs them without loading
this module), `memgate mcp-proxy -- <upstream>` and `memgate guard replay`."""

from __future__ import annotations

from typing import Annotated

import typer

from memgate.cli import hook
from memgate.cli.options import USAGE_ERROR, KeyOpt, UrlOpt, fail

hook_app = typer.Typer(
    help="Claude Code hooks that ask a running memgate to guard every tool call.",
    no_args_is_help=True,
)


@hook_app.command("pre-tool-use")
def pre_tool_use() -> None:
    """Decide a tool call before it runs (Claude Code `PreToolUse`).

    Reads the hook JSON on stdin, prints `hookSpecificOutput` with
    `permissionDecision` allow | ask | deny (and `updatedInput` for a rewrite).
    Fails to `ask` when memgate cannot be reached. Example settings.json entry:

        {"hooks": {"PreToolUse": [{"matcher": "*", "hooks": [{"type": "command",
          "command": "memgate hook pre-tool-use"}]}]}}
    """
    raise typer.Exit(hook.run("pre-tool-use"))


@hook_app.command("post-tool-use")
def post_tool_use() -> None:
    """Report a tool's result (Claude Code `PostToolUse`) so the sensitive values
    it showed are fingerprinted: `memgate hook post-tool-use` on the same matcher."""
    raise typer.Exit(hook.run("post-tool-use"))


def mcp_proxy(
    command: Annotated[
        list[str],
        typer.Argument(help="The upstream MCP server's command, after --.", show_default=False),
    ],
    url: UrlOpt = None,
    key: KeyOpt = None,
    name: Annotated[
        str | None,
        typer.Option(
            help="The server's name in tool names (mcp__<name>__<tool>); use the name the"
            " client configures it under (default: the upstream's own name)."
        ),
    ] = None,
    session: Annotated[
        str | None,
        typer.Option(envvar="MEMGATE_SESSION", help="Session id (default: one per proxy run)."),
    ] = None,
    role: Annotated[
        str | None, typer.Option(envvar="MEMGATE_GUARD_ROLE", help="A guard role the key holds.")
    ] = None,
) -> None:
    """Guard every tools/call of an upstream MCP server (stdio in, stdio out).

    Needs a running memgate (--url/--key or MEMGATE_URL/MEMGATE_KEY). Pins the
    upstream's tool descriptions, decides each call (deny: a JSON-RPC error; ask:
    an error result asking for approval; rewrite: the call runs with redacted
    arguments) and reports each result so its secrets are fingerprinted.

    Example (a Claude Code .mcp.json entry, server "files"):
      memgate mcp-proxy --name files -- npx -y @modelcontextprotocol/server-filesystem .
    """
    try:
        # NOTE: imported here so that memgate works without the `mcp` extra.
        from memgate.adapters import mcp_proxy as proxy
    except ImportError as exc:
        fail(f"the MCP proxy needs the mcp extra: pip install 'memgate-customs[mcp]' ({exc})")
    config = proxy.ProxyConfig.from_env(url=url, key=key, session_id=session, role=role)
    try:
        proxy.main(command, config, name)
    except ValueError as exc:
        fail(str(exc), USAGE_ERROR)
