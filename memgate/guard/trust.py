"""Trust that does not rescan history: per (tool, argument shape) counters,
updated as results arrive, read in O(1) when a call is decided.

A call's *shape* is the tool and, per argument name, what kind of value it holds:
a number, a list, an object with these keys, a command with this program and
subcommand (`cmd:git status`), a URL on this host (`url:docs.python.org`), a
path, a string. Routine calls repeat their shapes; each result reported for an
allowed (or asked and then run) call adds one to its shape's `ok`, each denied
call adds one to `bad`. A shape with `min_results` results and no denial may
turn a permission-matrix `ask` into `allow` (the policy's `[trust]` section
says for which tools). Nothing else is relaxed: a parameter or flow objection,
a deny, a changed tool description always stand.

The counters live in the guard's state (`memgate/guard/state.py`): durable in
the guard's SQLite and hot in memory (an LRU of shapes, loaded on a miss by
primary key), or in PostgreSQL, shared by every replica and read in the
decision's one round trip: deciding never scans the call history, however long
it grows.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from typing import Any
from urllib.parse import urlsplit

from memgate.guard.state import Counts, GuardState

MAX_ARGS = 50
COMMAND_ARGS = frozenset({"command", "cmd", "script"})
_URL = re.compile(r"^[a-z][a-z0-9+.-]*://", re.IGNORECASE)
_WORD = re.compile(r"^[a-z][a-z0-9-]{0,19}$")
"""A subcommand (`status`, `install`, `run`): short lower-case words only, so a
shape never carries a value (a token after `echo` is not a subcommand)."""


def _command_kind(text: str) -> str:
    try:
        words = shlex.split(text, posix=True)
    except ValueError:
        words = text.split()
    while words and "=" in words[0] and not words[0].startswith("-"):
        words = words[1:]  # FOO=1 cmd ...
    if not words:
        return "cmd:"
    program = words[0].rsplit("/", 1)[-1][:40]
    if not re.match(r"^[A-Za-z0-9_.+-]+$", program):
        program = "?"
    sub = next((w for w in words[1:3] if not w.startswith("-")), "")
    return f"cmd:{program} {sub}".rstrip() if _WORD.match(sub or "x") else f"cmd:{program}"


def _kind(name: str, value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float):
        return "num"
    if isinstance(value, list | tuple):
        return "list"
    if isinstance(value, dict):
        return "obj{" + ",".join(sorted(str(k) for k in value)[:MAX_ARGS]) + "}"
    text = str(value)
    if name.lower() in COMMAND_ARGS:
        return _command_kind(text)
    if _URL.match(text):
        # the registrable part of the host only: a subdomain can carry a value
        host = (urlsplit(text).hostname or "").split(".")
        return "url:" + ".".join(host[-2:])
    return "str"


def shape_of(tool: str, arguments: dict[str, Any]) -> tuple[str, str]:
    """(digest, readable form) of a call's shape."""
    parts = [f"{name}:{_kind(name, arguments[name])}" for name in sorted(arguments)[:MAX_ARGS]]
    readable = f"{tool}({', '.join(parts)})"
    digest = hashlib.sha256(json.dumps([tool, parts]).encode()).hexdigest()[:32]
    return digest, readable


class TrustCounters:
    """The per-shape counters, in the guard's state (`memgate/guard/state.py`)."""

    def __init__(self, state: GuardState) -> None:
        self._state = state

    def get(self, shape: str) -> Counts:
        """The counts of one shape (one primary-key read)."""
        return self._state.trust(shape)

    def count(self, shape: str, tool: str, at: float, *, ok: int = 0, bad: int = 0) -> Counts:
        """Add to a shape's counts, durably."""
        return self._state.count_trust(shape, tool, at, ok=ok, bad=bad)
