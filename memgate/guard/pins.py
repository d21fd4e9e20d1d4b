"""Pinned tool descriptions: a rug pull is a tool whose description (or input
schema) changes after it earned trust.

The first listing of a server's tools pins each tool's digest (SHA-256 of its
description and input schema, canonical JSON). A later listing with a different
digest marks the tool changed; calls of a changed tool are asked about (the
policy's `[trust] changed_tool`) until a person accepts the new description
(an admin's listing with `accept`). The pins live in the guard's state
(`memgate/guard/state.py`): the guard's SQLite with the few changed tools hot
in memory, or PostgreSQL, shared by every replica: the first digest any replica
saw stays pinned.

MCP tools are named `mcp__<server>__<tool>` in calls (as Claude Code names
them), so the hook and the MCP proxy see the same pins.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from memgate.guard.state import GuardState, PinStatus

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
    def __init__(self, state: GuardState) -> None:
        self._state = state

    def report(self, listing: ToolListing, at: float) -> PinReport:
        """Record a listing: pin new tools, mark changed ones (re-pin them if
        `listing.accept`)."""
        found = self._state.pin(
            listing.server, [(tool.name, digest(tool)) for tool in listing.tools],
            listing.accept, at,
        )  # fmt: skip

        def named(status: PinStatus) -> tuple[str, ...]:
            return tuple(name for name, s in found if s is status)

        return PinReport(
            server=listing.server,
            new=named(PinStatus.NEW),
            changed=named(PinStatus.CHANGED),
            accepted=named(PinStatus.ACCEPTED),
            unchanged=len(named(PinStatus.UNCHANGED)),
        )

    def changed(self, server: str, tool: str) -> bool:
        """Whether the tool's latest listing differs from its pinned description."""
        return self._state.changed(server, tool)
