"""Planning a rollback: compare the projection now with the projection at the
target point, within a scope, and list what changes. Pure functions.

The plan runs on raw rows (`memgate.domain.raw.Version`: each memory's item as a
plain struct with the event that embeds it), not on validated models: a rollback
of 43k memories planned in 2.8 s with a pydantic model per item, most of it
validation. Each change comes out with the event whose item it puts back, so the
compensating event can name that event instead of embedding the item again."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import Any

import msgspec
from pydantic import TypeAdapter

from memgate.domain.memory import MemoryState, PoolName
from memgate.domain.raw import RawItem, Version
from memgate.domain.rollback import Action, Change, Planned, RollbackScope

__all__ = ["Planned", "counts", "json_time", "plan"]

State = dict[str, dict[str, Any]]
Versions = Mapping[str, Version]

_TIME = TypeAdapter(datetime)
_NONE = PoolName.NONE.value
_TRANSIENT = MemoryState.TRANSIENT.value
_SERVED = frozenset({MemoryState.APPROVED.value, MemoryState.PENDING_REVIEW.value})
_ENDED = frozenset(
    {MemoryState.DELETED.value, MemoryState.REJECTED.value, MemoryState.EXPIRED.value}
)


def json_time(moment: datetime) -> str:
    """A time as the log's JSON spells it (pydantic's form): the `updated_at` a
    reference resolves to is the compensating event's own `at`, as text."""
    return str(_TIME.dump_python(moment, mode="json"))


def _served_at(item: RawItem | None, now: datetime) -> bool:
    if item is None or item.pool == _NONE:
        return False
    if item.state == _TRANSIENT:
        return item.expires_at is None or datetime.fromisoformat(item.expires_at) > now
    return item.state in _SERVED


def _derived_closure(root: str, parents: Iterable[tuple[str, Iterable[str]]]) -> set[str]:
    children: dict[str, set[str]] = defaultdict(set)
    for memory_id, derived_from in parents:
        for parent in derived_from or ():
            children[parent].add(memory_id)
    found = {root}
    frontier = [root]
    while frontier:
        for child in children.get(frontier.pop(), ()):
            if child not in found:
                found.add(child)
                frontier.append(child)
    return found


def _in_scope(item: RawItem, scope: RollbackScope, members: set[str] | None) -> bool:
    if members is not None and item.id not in members:
        return False
    prefix = scope.namespace_prefix
    if prefix and tuple(item.namespace[: len(prefix)]) != prefix:
        return False
    if scope.source is not None and item.source != scope.source.value:
        return False
    return scope.session_id is None or item.session_id == scope.session_id


def plan(
    target: Versions,
    current: Versions,
    scope: RollbackScope,
    now: datetime,
    *,
    lineage: State | None = None,
    tainted: set[str] | None = None,
) -> list[Planned]:
    """Every in-scope memory whose served form differs between now and the
    target point, with the item to write. `target` and `current` may hold only
    the memories touched since the target; `lineage` (every memory now, as
    JSON) is needed for a memory scope, to follow derivations through untouched
    items. `tainted` (from the provenance graph) adds, for a memory scope, what
    sessions wrote after reading the memory."""
    members: set[str] | None = None
    if scope.memory_id:
        parents: Iterable[tuple[str, Iterable[str]]] = (
            ((k, v.get("derived_from") or ()) for k, v in lineage.items())
            if lineage is not None
            else ((k, v.item.derived_from) for k, v in current.items())
        )
        members = _derived_closure(scope.memory_id, parents)
        if tainted:
            members |= tainted
    stamp = json_time(now)
    replace = msgspec.structs.replace
    out: list[Planned] = []
    for memory_id, now_version in current.items():
        cur = now_version.item
        then_version = target.get(memory_id)
        then = then_version.item if then_version is not None else None
        if not (_in_scope(cur, scope, members) or (then and _in_scope(then, scope, members))):
            continue
        if then is not None and then == cur:
            continue
        served_now, served_then = _served_at(cur, now), _served_at(then, now)
        if then is None or (not served_then and then.pool == _NONE):
            if not served_now and cur.state in _ENDED:
                continue
            if cur.pool == _NONE:
                continue
            gone = replace(
                cur, state=MemoryState.DELETED.value, updated_at=stamp, version=cur.version + 1
            )
            out.append(Planned(_change(cur, gone, Action.REMOVED), now_version, gone, True))
            continue
        if not served_now and not served_then:
            continue
        # The item as it is now apart from state, version and `updated_at` (the
        # row's narrow update); the same state too, and a served one: the memory
        # is in its earlier form already (rolled back to it before), as every
        # compensating event bumps version and `updated_at`.
        # NOTE: not only content and state: a keyed rewrite can keep both and change
        # the session (who sees a pending item), source, metadata or expiry.
        narrow = _same_apart_from_state(then, cur)
        if served_then and narrow and then.state == cur.state:
            continue
        assert then_version is not None  # noqa: S101 - then is not None here
        state = then.state
        if then.state == _TRANSIENT and not served_then:
            state = MemoryState.EXPIRED.value
        back = replace(then, state=state, updated_at=stamp, version=cur.version + 1)
        action = Action.RESTORED if served_then and not served_now else Action.REVERTED
        out.append(Planned(_change(cur, back, action), then_version, back, narrow))
    return out


def _same_apart_from_state(a: RawItem, b: RawItem) -> bool:
    """Equal apart from state, version and `updated_at`: `a` given `b`'s three
    compared whole (one copy; blanking the three on both sides took four)."""
    return (
        msgspec.structs.replace(a, state=b.state, updated_at=b.updated_at, version=b.version) == b
    )


_POOLS = {p.value: p for p in PoolName}
_STATES = {s.value: s for s in MemoryState}


def _change(before: RawItem, after: RawItem, action: Action) -> Change:
    return Change.built(
        memory_id=before.id,
        namespace=tuple(before.namespace),
        pool=_POOLS[after.pool],
        action=action,
        state_before=_STATES[before.state],
        state_after=_STATES[after.state],
    )


def counts(changes: list[Change]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for change in changes:
        row = table.setdefault("/".join(change.namespace), {})
        row[change.action.value] = row.get(change.action.value, 0) + 1
    return table
