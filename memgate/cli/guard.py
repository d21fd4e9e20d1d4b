"""The guard's commands: `memgate hook pre-tool-use | post-tool-use` (the Claude
Code hooks; see memgate.cli.hook, the console script runs them without loading
this module), `memgate mcp-proxy -- <upstream>` and `memgate guard replay`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

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
    except OSError as exc:
        fail(f"cannot start the upstream server {command[0]!r}: {exc.strerror or exc}")


guard_app = typer.Typer(
    help="The tool-call guard: replay recorded histories.", no_args_is_help=True
)


@guard_app.command("replay")
def replay(
    transcript: Annotated[
        Path,
        typer.Argument(
            help="A Claude Code transcript (.jsonl) or a generic JSONL of calls and results.",
            exists=True,
            dir_okay=False,
            show_default=False,
        ),
    ],
    policy: Annotated[
        Path | None,
        typer.Option(
            envvar="MEMGATE_GUARD_POLICY", help="Guard policy (default: the bundled one)."
        ),
    ] = None,
    role: Annotated[
        str | None, typer.Option(help="Guard role of calls that name none (default: policy's).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")] = False,
) -> None:
    """Run a recorded agent history through the guard and print what it would
    have allowed, asked about, denied and rewritten, each with its path.

    Nothing is kept: a guard of its own, in memory, with a fresh fingerprint key.
    Formats: docs/guard.md (Replay).

    Example:
      memgate guard replay ~/.claude/projects/-work-app/3f2a9c.jsonl --json
    """
    import secrets

    from memgate.errors import MemgateError
    from memgate.guard import Guard, GuardPolicy, ValueStore
    from memgate.guard.replay import replay as run_replay
    from memgate.scanning import BUILTIN_ANALYZERS, Scanner, load_rules

    try:
        loaded = GuardPolicy.load(policy)
    except MemgateError as exc:
        fail(str(exc), USAGE_ERROR)
    scanner = Scanner(load_rules(), BUILTIN_ANALYZERS, fingerprint_key=secrets.token_bytes(32))
    clock = [0.0]
    values = ValueStore(":memory:")
    guard = Guard(scanner, loaded, values, clock=lambda: clock[0])
    try:
        with transcript.open(encoding="utf-8", errors="replace") as lines:
            report = run_replay(guard, lines, clock=clock, role=role)
    finally:
        values.close()
    if as_json:
        typer.echo(report.model_dump_json())
        return
    for replayed in report.calls:
        typer.echo(_line(replayed.line, replayed.session_id, replayed.decision.model_dump()))
    counts = report.counts
    typer.echo(
        f"{len(report.calls)} calls: {counts['allow']} allowed, {counts['ask']} asked,"
        f" {counts['deny']} denied, {counts['rewrite']} rewritten"
        f" ({counts.get('warn', 0)} with a warning); {report.results} results fed back,"
        f" {report.skipped_lines} other lines"
    )


def _line(number: int, session: str | None, decision: dict[str, Any]) -> str:
    verdict = str(decision["decision"]).upper()
    head = f"{verdict:<8}{decision['tool']}  (line {number}, session {session or '-'})"
    lines = [head]
    for reason in decision.get("reasons") or []:
        lines.append(f"    {reason}")
    for step in decision.get("path") or []:
        if step["kind"] == "read":
            lines.append(
                f"    path: value {step['fingerprint']} read by {step.get('tool') or '?'}"
                f" (call {step['call_id']}, session {step.get('session_id') or '-'})"
            )
        else:
            lines.append(f"    path: -> argument {step.get('arg')} carries it ({step.get('form')})")
    if decision.get("updated_input") is not None and decision["decision"] == "rewrite":
        lines.append(f"    rewritten input: {json.dumps(decision['updated_input'])[:300]}")
    return "\n".join(lines)
