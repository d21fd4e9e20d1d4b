"""Who wrote a memory, and whom it belongs to.

The HTTP service records every write and read with an agent id that starts with
the API key's identity (`key:k_3f9a…`, or `key:k_3f9a…/planner` with the client's
own agent id appended), so the credential behind a stored memory is on the item
and its event already. An agent id without that prefix was given by code that
opened the gateway in its own process (the library, the CLI on a data
directory, the adapters): that code is trusted, as it holds the store.

Two rules follow, for credentialed writers and readers:

- A keyed memory belongs to its writer's credential. Another credential's write
  to the same key is refused (WriteForbidden naming `key`), unless the policy's
  `routing.shared_write` names the namespace; there the replacement is taken
  but held for review: one writer's text never takes another's slot without a
  reviewer. The key's memories in both pools count (the newest version is the
  one a by-key read serves, so a short-term write could shadow a long-term one).
- A pending memory is served only to its writer's credential and session, so a
  session id is scoped to the key that used it: another key sending the same
  session reads nothing pending.
"""

from __future__ import annotations

from dataclasses import dataclass

from memgate.domain.events import Op
from memgate.domain.memory import MemoryItem, MemoryState, MemoryWrite, PoolName, Reader
from memgate.errors import WriteForbidden
from memgate.gateway.context import GatewayContext

CREDENTIAL_PREFIX = "key:"
"""An agent id (or actor) that starts with this names the credential that wrote it."""


def writer_of(agent_id: str | None) -> str | None:
    """The credential an agent id names (`key:k_ab12` for `key:k_ab12/planner`),
    or None for an id given by in-process code."""
    if not agent_id or not agent_id.startswith(CREDENTIAL_PREFIX):
        return None
    return agent_id.split("/", 1)[0]


def may_see_pending(item: MemoryItem, reader: Reader) -> bool:
    """A pending memory is its writer's alone: same session, same credential."""
    return (
        reader.session_id is not None
        and reader.session_id == item.session_id
        and writer_of(reader.agent_id) == writer_of(item.agent_id)
    )


def wrote(identity: str, item: MemoryItem) -> bool:
    """Whether `identity` (a reviewer or actor) is the memory's writer. A memory
    from a credential is that credential's, whatever session it named (a writer
    cannot put a reviewer's identity in its session and so block the reviewer);
    one from in-process code is its agent's or, failing that, its session's."""
    writer = writer_of(item.agent_id)
    if writer is not None:
        return identity == item.agent_id or writer_of(identity) == writer
    return identity in {item.agent_id, item.session_id}


@dataclass(frozen=True, slots=True)
class Route:
    """Where a keyed write goes once ownership is settled."""

    pool: PoolName
    state: MemoryState
    op: Op
    previous: MemoryItem | None
    hold: str | None = None
    """Why a replacement of another writer's memory waits for review."""


async def _live(ctx: GatewayContext, pool: PoolName, write: MemoryWrite) -> MemoryItem | None:
    assert write.key is not None  # noqa: S101 - only keyed writes get here
    if pool is PoolName.SHORT:
        return await ctx.short.get_by_key(write.namespace, write.key)
    found = await ctx.store.get_by_key(write.namespace, write.key)
    return None if found is None or found.state.final else found


async def _owners(ctx: GatewayContext, item: MemoryItem) -> set[str | None]:
    """The writers a live memory belongs to: its own, and while a replacement of
    it waits for review, the writer of the version last approved (else the
    replacer, once it owns the pending version, could approve its next write
    itself by writing it again)."""
    owners = {writer_of(item.agent_id)}
    if item.state is MemoryState.PENDING_REVIEW and item.version > 1:
        for record in reversed(await ctx.store.history(item.id)):
            before = record.event.item
            if before is not None and before.state is MemoryState.APPROVED:
                owners.add(writer_of(before.agent_id))
                break
    return owners


async def settle(ctx: GatewayContext, write: MemoryWrite, route: Route) -> Route:
    """The route of a keyed write (called under the write lock, `route.previous`
    being the key's live memory in the routed pool). Raises WriteForbidden when a
    credentialed writer would replace another writer's memory outside a
    shared-write namespace."""
    writer = writer_of(write.agent_id)
    if writer is None:
        return route
    other_pool = PoolName.LONG if route.pool is PoolName.SHORT else PoolName.SHORT
    foreign: list[tuple[MemoryItem, set[str | None]]] = []
    for item in (route.previous, await _live(ctx, other_pool, write)):
        if item is not None:
            others = await _owners(ctx, item) - {writer}
            if others:
                foreign.append((item, others))
    if not foreign:
        return route
    item, others = foreign[0]
    owner = ", ".join(sorted(o or "in-process code" for o in others))
    if not ctx.routing.shares(write.namespace):
        raise WriteForbidden(
            "key",
            f"this key names {item.id}, a memory {owner} wrote; a key replaces only the"
            " memories its own key wrote (routing.shared_write grants a namespace)",
        )
    # Shared write: the replacement is a new long-term version, held for review.
    previous = await _live(ctx, PoolName.LONG, write)
    return Route(
        PoolName.LONG,
        MemoryState.PENDING_REVIEW,
        Op.QUEUED,
        previous,
        hold=f"replaces {item.id}, a memory {owner} wrote: held for review (shared write)",
    )
