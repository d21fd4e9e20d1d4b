"""Planning a rollback: compare the projection now with the projection at the
target point, within a scope, and list what changes. Pure functions."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any

from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.rollback import Action, Change, RollbackScope

State = dict[str, dict[str, Any]]


def _served_at(item: MemoryItem | None, now: datetime) -> bool:
    if item is None or item.pool is PoolName.NONE:
        return False
    if item.state is MemoryState.TRANSIENT:
        return item.expires_at is None or item.expires_at > now
    return item.state in (MemoryState.APPROVED, MemoryState.PENDING_REVIEW)


def _derived_closure(root: str, current: State) -> set[str]:
    children: dict[str, set[str]] = defaultdict(set)
    for memory_id, item in current.items():
        for parent in item.get("derived_from") or ():
            children[parent].add(memory_id)
    found = {root}
    frontier = [root]
    while frontier:
        for child in children.get(frontier.pop(), ()):
            if child not in found:
                found.add(child)
                frontier.append(child)
    return found


def _in_scope(item: dict[str, Any], scope: RollbackScope, members: set[str] | None) -> bool:
    if members is not None and item.get("id") not in members:
        return False
    prefix = scope.namespace_prefix
    if prefix and tuple(item.get("namespace") or ())[: len(prefix)] != prefix:
        return False
    if scope.source is not None and item.get("source") != scope.source.value:
        return False
    return scope.session_id is None or item.get("session_id") == scope.session_id


def plan(
    target: State,
    current: State,
    scope: RollbackScope,
    now: datetime,
    *,
    lineage: State | None = None,
    tainted: set[str] | None = None,
) -> list[tuple[Change, MemoryItem]]:
    """(change, the item to write) for every in-scope memory whose served form
    differs between now and the target point. `target` and `current` may hold
    only the memories touched since the target; `lineage` (every memory now) is
    needed for a memory scope, to follow derivations through untouched items.
    `tainted` (from the provenance graph) adds, for a memory scope, what sessions
    wrote after reading the memory."""
    members = (
        _derived_closure(scope.memory_id, lineage if lineage is not None else current)
        if scope.memory_id
        else None
    )
    if members is not None and tainted:
        members |= tainted
    out: list[tuple[Change, MemoryItem]] = []
    for memory_id, now_json in current.items():
        then_json = target.get(memory_id)
        if not (
            _in_scope(now_json, scope, members)
            or (then_json and _in_scope(then_json, scope, members))
        ):
            continue
        if then_json == now_json:
            continue
        cur = MemoryItem.model_validate(now_json)
        then = MemoryItem.model_validate(then_json) if then_json is not None else None
        served_now, served_then = _served_at(cur, now), _served_at(then, now)
        if then is None or (not served_then and then.pool is PoolName.NONE):
            if not served_now and cur.state in (
                MemoryState.DELETED,
                MemoryState.REJECTED,
                MemoryState.EXPIRED,
            ):
                continue
            if cur.pool is PoolName.NONE:
                continue
            gone = cur.model_copy(
                update={"state": MemoryState.DELETED, "updated_at": now, "version": cur.version + 1}
            )
            out.append((_change(cur, gone, Action.REMOVED), gone))
            continue
        if not served_now and not served_then:
            continue
        if served_then and then_json and _same_apart_from_bookkeeping(then_json, now_json):
            continue
        state = then.state
        if then.state is MemoryState.TRANSIENT and not served_then:
            state = MemoryState.EXPIRED
        back = then.model_copy(
            update={"state": state, "updated_at": now, "version": cur.version + 1}
        )
        action = Action.RESTORED if served_then and not served_now else Action.REVERTED
        out.append((_change(cur, back, action), back))
    return out


_BOOKKEEPING = frozenset({"updated_at", "version"})
"""Fields every compensating event bumps: a memory already rolled back to its
earlier form differs from that form only in these."""


def _same_apart_from_bookkeeping(then: dict[str, Any], now: dict[str, Any]) -> bool:
    # NOTE: not only content and state: a keyed rewrite can keep both and change
    # the session (who sees a pending item), source, metadata or expiry.
    return all(then.get(k) == now.get(k) for k in then.keys() | now.keys() if k not in _BOOKKEEPING)


def _change(before: MemoryItem, after: MemoryItem, action: Action) -> Change:
    return Change(
        memory_id=before.id,
        namespace=before.namespace,
        pool=after.pool,
        action=action,
        state_before=before.state,
        state_after=after.state,
    )


def counts(changes: list[Change]) -> dict[str, dict[str, int]]:
    table: dict[str, dict[str, int]] = {}
    for change in changes:
        row = table.setdefault("/".join(change.namespace), {})
        row[change.action.value] = row.get(change.action.value, 0) + 1
    return table
