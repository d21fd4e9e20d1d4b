"""`memgate hook pre-tool-use | post-tool-use`: the Claude Code hooks (see
memgate.cli.hook; the console script runs them without loading this module)."""

from __future__ import annotations

import typer

from memgate.cli import hook

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
