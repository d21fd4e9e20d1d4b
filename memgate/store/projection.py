"""How events become pool rows: shared by every Store implementation."""

from __future__ import annotations

from dataclasses import dataclass

from memgate.domain.events import Event
from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.raw import RawItem


@dataclass(frozen=True, slots=True)
class Projection:
    long: MemoryItem | RawItem | None = None
    """Upsert into the long-term pool (a plain struct for a reference event)."""
    short: MemoryItem | RawItem | None = None
    """Keep as a transient item (restored into the short-term pool on start)."""
    short_gone: str | None = None
    """A transient item that expired or was deleted."""


LONG = "long"
SHORT = "short"
SHORT_GONE = "short_gone"


def route(pool: str, state: str) -> str | None:
    """Which projection table an item with this pool and state lands in (LONG,
    SHORT or SHORT_GONE), or None: one rule for the store's commit and for verify's
    replay, which reads the items as JSON."""
    if pool == PoolName.LONG.value:
        return LONG
    if pool == PoolName.NONE.value:
        return None
    return SHORT if state == MemoryState.TRANSIENT.value else SHORT_GONE


def projected(event: Event) -> Projection:
    """Where one event's item goes. Items routed to no pool (rejected by the scan)
    live in the log only; short-term and long-term items never mix."""
    item: MemoryItem | RawItem | None = event.item
    if isinstance(item, MemoryItem):
        where = route(item.pool.value, item.state.value)
    else:
        item = event.raw_item
        if item is None:
            return Projection()
        where = route(item.pool, item.state)
    if where == LONG:
        return Projection(long=item)
    if where == SHORT:
        return Projection(short=item)
    if where == SHORT_GONE:
        return Projection(short_gone=item.id)
    return Projection()


def namespace_key(namespace: tuple[str, ...]) -> str:
    """Labels joined with '/' plus a trailing '/', so prefixes compare as strings."""
    return "".join(f"{label}/" for label in namespace)


def prefix_bounds(prefix: tuple[str, ...]) -> tuple[str, str] | None:
    """[low, high) covering every namespace under `prefix` ('/' sorts before '0')."""
    if not prefix:
        return None
    low = namespace_key(prefix)
    return low, low[:-1] + chr(ord("/") + 1)
