"""The memories page: every memory inside the key's scopes, in any state
(approved, pending, rejected, short-term, expired, deleted), filtered by state,
namespace, source and a text query (every word must occur), newest first, a page
at a time. Browsing is an operator's look, not an agent's read: nothing here is
recorded as a read (as the review queue and the item page).

Long-term memories come from the store (any state), live short-term ones from
the short-term pool, and those only the log holds (writes rejected at the door,
expired or deleted short-term memories) from the latest LOG_WINDOW events."""

from __future__ import annotations

from fastapi import APIRouter, Query, Request, Response

from memgate.domain import Source
from memgate.domain.memory import MemoryItem, MemoryState, PoolName
from memgate.domain.ports import PoolQuery
from memgate.gateway import Gateway
from memgate.pools.query import matches, text_matches
from memgate.service.ui.highlight import segments
from memgate.service.ui.review import PAGE, clip
from memgate.service.ui.structured import structured
from memgate.service.ui.web import UI, UIError, gateway

STATES: dict[str, frozenset[MemoryState] | None] = {
    "": None,
    "served": frozenset({MemoryState.APPROVED, MemoryState.TRANSIENT}),
    **{state.value: frozenset({state}) for state in MemoryState},
}
"""The state filter's choices: any, served (approved or short-term), or one state."""
LOG_STATES = frozenset({MemoryState.REJECTED, MemoryState.EXPIRED, MemoryState.DELETED})
MAX_QUERY = 500


LOG_WINDOW = 5000
"""How many of the latest log events are searched for memories that live in the
log only (rejected at write, expired or deleted short-term ones)."""
LOG_ONLY = frozenset({PoolName.NONE, PoolName.SHORT})


class LogTail:
    """Memories no pool holds any more (or ever held), from the latest events: a
    write rejected at the door, a short-term memory that expired or was deleted
    (their last event carries the item as it ended). Kept per app and read on
    from where the last page stopped, so a page reads only the new events."""

    def __init__(self) -> None:
        self.seq = 0
        self.last: dict[str, tuple[int, MemoryItem]] = {}

    async def items(self, gw: Gateway) -> list[MemoryItem]:
        head = (await gw.store.checkpoint()).seq
        if head < self.seq:  # another log (a test's fresh store): start again
            self.seq, self.last = 0, {}
        after = max(self.seq, head - LOG_WINDOW)
        while after < head:
            records = await gw.store.records(after_seq=after, limit=1000)
            if not records:
                break
            for record in records:
                item = record.event.item
                if item is not None:
                    self.last[item.id] = (record.seq, item)
            after = records[-1].seq
        self.seq = max(self.seq, after)
        floor = head - LOG_WINDOW
        self.last = {k: v for k, v in self.last.items() if v[0] > floor}
        return [
            item
            for _, item in self.last.values()
            if item.pool in LOG_ONLY
            and item.state is not MemoryState.TRANSIENT  # live ones: the short pool has them
        ]


async def _page(
    gw: Gateway, tail: LogTail, prefixes: list[tuple[str, ...]], query: PoolQuery, offset: int
) -> list[MemoryItem]:
    """One page inside the key's scopes, newest first, from the long-term store,
    the short-term pool and the log-only memories, merged (each source asked for
    its first `offset + PAGE`, as the queue merges its scopes)."""
    wanted = min(offset + PAGE, 1000)
    found: dict[str, MemoryItem] = {}
    ended: list[MemoryItem] | None = None
    for prefix in prefixes:
        scoped = query.model_copy(update={"namespace_prefix": prefix, "limit": wanted})
        batches = [await gw.store.search(scoped)]
        if query.states is None or MemoryState.TRANSIENT in query.states:
            batches.append(await gw.short.search(scoped))
        if query.states is None or query.states & LOG_STATES:
            ended = await tail.items(gw) if ended is None else ended
            batches.append(
                [i for i in ended if matches(i, scoped) and text_matches(i, scoped.text)]
            )
        for batch in batches:
            for item in batch:
                found.setdefault(item.id, item)
    merged = sorted(found.values(), key=lambda i: (i.created_at, i.id), reverse=True)
    return merged[offset : offset + PAGE]


def add_browse_routes(router: APIRouter, ui: UI) -> None:
    tail = LogTail()

    @router.get("/memories", name="ui_memories")
    async def memories(
        request: Request,
        q: str = Query("", max_length=MAX_QUERY),
        state: str = Query("", max_length=40),
        namespace: str = Query("", max_length=1000),
        source: str = Query("", max_length=40),
        offset: int = Query(0, ge=0, le=1_000_000),
    ) -> Response:
        session = ui.session(request)
        if state not in STATES:
            raise UIError(422, f"Invalid state filter {state!r}.")
        try:
            src = Source(source) if source else None
        except ValueError:
            raise UIError(422, f"Invalid source filter {source!r}.") from None
        prefix = tuple(label for label in namespace.strip().split("/") if label)
        query = PoolQuery(text=q.strip() or None, states=STATES[state], source=src, limit=PAGE)
        gw = gateway(request)
        page = await _page(gw, tail, session.principal.prefixes(prefix), query, offset)
        rows = []
        for item in page:
            shape = structured(item.content)
            text = shape.preview() if shape is not None else item.content
            rows.append(
                {
                    "item": item,
                    "categories": sorted({f.category.value for f in item.findings}),
                    "shape": shape.kind if shape is not None else None,
                    "preview": segments(clip(text), []),
                }
            )
        filters = {"q": q, "state": state, "namespace": namespace, "source": source}
        return ui.render(
            request,
            "memories.html",
            {
                "rows": rows,
                "filters": filters,
                "filtered": any(filters.values()),
                "states": [s for s in STATES if s],
                "sources": [s.value for s in Source],
                "offset": offset,
                "log_window": LOG_WINDOW,
                "next_offset": offset + PAGE if len(page) == PAGE else None,
                "prev_offset": max(0, offset - PAGE) if offset else None,
            },
            session=session,
        )
