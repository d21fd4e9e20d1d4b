"""Pinned tool descriptions: a rug pull is a tool whose description (or input
schema) changes after it earned trust.

The first listing of a server's tools pins each tool's digest (SHA-256 of its
description and input schema, canonical JSON). A later listing with a different
digest marks the tool changed; calls of a changed tool are asked about (the
policy's `[trust] changed_tool`) until a person accepts the new description
(an admin's listing with `accept`). The pins are durable in the guard's SQLite;
the few changed tools are kept hot in memory.

MCP tools are named `mcp__<server>__<tool>` in calls (as Claude Code names
them), so the hook and the MCP proxy see the same pins.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from memgate.guard.values import ValueStore

SCHEMA = """
CREATE TABLE IF NOT EXISTS guard_tools (
    server     TEXT NOT NULL,
    tool       TEXT NOT NULL,
    pinned     TEXT NOT NULL,   -- digest of the trusted description and schema
    seen       TEXT NOT NULL,   -- digest of the latest listing
    pinned_at  REAL NOT NULL,
    seen_at    REAL NOT NULL,
    PRIMARY KEY (server, tool)
) WITHOUT ROWID;
"""
MAX_TOOLS = 1000
_NAME = r"^[\x21-\x7e]+$"


class ListedTool(BaseModel):
    """One tool as a server lists it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1, max_length=200, pattern=_NAME)
    description: str = Field(default="", max_length=100_000)
    input_schema: dict[str, Any] = Field(default_factory=dict)


class ToolListing(BaseModel):
    """A server's tools, as its `tools/list` answered."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    server: str = Field(min_length=1, max_length=200, pattern=r"^[A-Za-z0-9_.-]+$")
    tools: tuple[ListedTool, ...] = Field(max_length=MAX_TOOLS)
    accept: bool = False
    """Re-pin changed tools to their new description (admin keys only)."""


class PinReport(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    server: str
    new: tuple[str, ...] = ()
    """Tools seen for the first time (pinned now)."""
    changed: tuple[str, ...] = ()
    """Tools whose description differs from the pinned one (calls are asked about)."""
    accepted: tuple[str, ...] = ()
    """Changed tools re-pinned by this listing."""
    unchanged: int = 0


def digest(tool: ListedTool) -> str:
    canonical = json.dumps(
        [tool.description, tool.input_schema], sort_keys=True, separators=(",", ":"), default=str
    )
    return hashlib.sha256(canonical.encode("utf-8", "surrogatepass")).hexdigest()


def split_mcp_name(tool: str) -> tuple[str, str] | None:
    """(server, tool) of a call named `mcp__<server>__<tool>`."""
    if not tool.startswith("mcp__"):
        return None
    server, sep, name = tool[5:].partition("__")
    return (server, name) if sep and server and name else None


def mcp_name(server: str, tool: str) -> str:
    return f"mcp__{server}__{tool}"


class PinStore:
    def __init__(self, store: ValueStore) -> None:
        self._store = store
        store.executescript(SCHEMA)
        rows = store.fetch("SELECT server, tool FROM guard_tools WHERE pinned != seen", ())
        self._changed: set[tuple[str, str]] = {(str(r[0]), str(r[1])) for r in rows}

    def report(self, listing: ToolListing, at: float) -> PinReport:
        """Record a listing: pin new tools, mark changed ones (re-pin them if
        `listing.accept`)."""
        server = listing.server
        rows = self._store.fetch("SELECT tool, pinned FROM guard_tools WHERE server = ?", (server,))
        pinned = {str(r[0]): str(r[1]) for r in rows}
        new: list[str] = []
        changed: list[str] = []
        accepted: list[str] = []
        unchanged = 0
        writes: list[tuple[Any, ...]] = []
        for tool in listing.tools:
            now = digest(tool)
            before = pinned.get(tool.name)
            if before is None:
                new.append(tool.name)
                writes.append((server, tool.name, now, now, at, at))
            elif before == now:
                unchanged += 1
                self._changed.discard((server, tool.name))
                writes.append((server, tool.name, now, now, at, at))
            elif listing.accept:
                accepted.append(tool.name)
                self._changed.discard((server, tool.name))
                writes.append((server, tool.name, now, now, at, at))
            else:
                changed.append(tool.name)
                self._changed.add((server, tool.name))
                writes.append((server, tool.name, before, now, None, at))
        self._store.executemany(
            "INSERT INTO guard_tools VALUES (?, ?, ?, ?, coalesce(?, 0), ?)"
            " ON CONFLICT(server, tool) DO UPDATE SET pinned = excluded.pinned,"
            " seen = excluded.seen, seen_at = excluded.seen_at,"
            " pinned_at = CASE WHEN excluded.pinned_at > 0 THEN excluded.pinned_at"
            " ELSE guard_tools.pinned_at END",
            writes,
        )
        return PinReport(
            server=server,
            new=tuple(new),
            changed=tuple(changed),
            accepted=tuple(accepted),
            unchanged=unchanged,
        )

    def changed(self, server: str, tool: str) -> bool:
        """Whether the tool's latest listing differs from its pinned description."""
        return (server, tool) in self._changed
