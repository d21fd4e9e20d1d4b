"""The `memgate` console script. `memgate hook ...` runs on every tool call of a
coding agent, so it is dispatched here, before the full command line (typer,
rich, the scanner) is imported; everything else goes to memgate.cli.main."""

from __future__ import annotations

import sys


def main() -> None:
    argv = sys.argv[1:]
    if len(argv) == 2 and argv[0] == "hook":
        from memgate.cli.hook import HOOKS, run

        if argv[1] in HOOKS:
            sys.exit(run(argv[1]))
    from memgate.cli.main import main as full

    full()
