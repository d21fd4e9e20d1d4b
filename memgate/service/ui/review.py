"""Review pages: the pending queue (filters, per-row and bulk actions) and the
item page (highlighted findings, timeline, readers, approve / reject /
edit-and-approve with a rescan preview before saving)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import RedirectResponse

from memgate.domain import Category, ScanReport, Source
from memgate.domain.events import LogRecord
from memgate.domain.memory import MemoryItem, MemoryState
from memgate.errors import IllegalTransition, NotFound, OversizedWrite, ReviewRefused
from memgate.gateway import Gateway
from memgate.service.guard_asks import pending_asks
from memgate.service.keys import Principal
from memgate.service.ui.highlight import TAG, Mark, marks_for, segments
from memgate.service.ui.sessions import Session
from memgate.service.ui.structured import structured
from memgate.service.ui.web import PREFIX, UI, UIError, gateway, state

PAGE = 50
AGES: dict[str, tuple[str, int]] = {
    "10m": ("older than 10 min", 600),
    "1h": ("older than 1 h", 3600),
    "1d": ("older than 1 day", 86400),
    "7d": ("older than 7 days", 7 * 86400),
}
REFUSALS = (NotFound, ReviewRefused, IllegalTransition, OversizedWrite, ValueError)


def describer(gw: Gateway) -> Callable[[str], str]:
    rules = gw.inspector.scanner.rules.by_id()

    def describe(rule_id: str) -> str:
        rule = rules.get(rule_id)
        return rule.description if rule is not None else "rule not in the loaded rule set"

    return describe


def safe_back(value: object, default: str) -> str:
    """Only paths inside the UI are redirect targets (no open redirect)."""
    if not isinstance(value, str) or not value.startswith(PREFIX + "/"):
        return default
    if any(bad in value for bad in ("//", "\\", "\n", "\r")):
        return default
    return value


def entry_reasons(gw: Gateway, item: MemoryItem, history: list[LogRecord]) -> list[str]:
    """Why the item is in the queue: the scan's reasons recorded with the event that
    put it there, plus the routing rules that held it (a clean write from an
    untrusted source waits too, and a bare "approve 1.00" would not say why)."""
    reasons: list[str] = []
    for record in reversed(history):
        if record.event.state_after is MemoryState.PENDING_REVIEW:
            text = record.event.reason or ""
            reasons = [r.strip() for r in text.split(";") if r.strip()]
            break
    if item.state is MemoryState.PENDING_REVIEW:
        automatic = gw.routing.trusted(item.source) or (
            item.source in gw.policy.provenance.auto_approve
        )
        if not automatic:
            reasons.append(f"source {item.source.value} is never approved automatically")
        if item.trust_score < gw.policy.thresholds.approve:
            reasons.append(f"trust below the approve threshold {gw.policy.thresholds.approve:.2f}")
    return reasons


async def visible_item(request: Request, session: Session, memory_id: str) -> MemoryItem:
    """The item in any state, if this key may review its namespace (else 404, the
    same answer as for an unknown id, as in the API)."""
    gw = gateway(request)
    item = await gw.get_any(memory_id)
    if item is None:
        # In the log only (rejected at the door, an expired or deleted short-term
        # memory): its last event holds the item as it ended.
        ended = [r.event.item for r in await gw.history(memory_id) if r.event.item is not None]
        item = ended[-1] if ended else None
    if item is None or not session.principal.can_review(item.namespace):
        raise UIError(404, f"No memory {memory_id} visible to this key.")
    return item


def check_not_own(principal: Principal, item: MemoryItem) -> None:
    """The API's own-write rule: writes carry `key:<id>/...` as agent id, and the
    key that wrote a memory never reviews it."""
    if principal.wrote(item.agent_id):
        raise ReviewRefused(f"{principal.actor} wrote {item.id} and cannot review it")


async def _act(
    request: Request, session: Session, memory_id: str, action: str, text: str | None
) -> MemoryItem:
    """One review action with the API's checks: scope (404), own write, then the
    gateway (which refuses again what it can see: reviewer == writer)."""
    item = await visible_item(request, session, memory_id)
    check_not_own(session.principal, item)
    gw = gateway(request)
    who = session.principal.actor
    if action == "approve":
        done = await gw.approve(memory_id, reviewer=who, reason=text)
    else:
        done = await gw.reject(memory_id, reviewer=who, reason=text or "")
    state(request).metrics.reviews.labels(action, "ok").inc()
    return done


async def _decide(
    request: Request, session: Session, memory_id: str, action: str, text: str | None, back: str
) -> Response:
    """One item's approve or reject from its page: the outcome as a notice, then back."""
    done = "approved" if action == "approve" else "rejected"
    try:
        await _act(request, session, memory_id, action, text)
    except REFUSALS as exc:
        session.notice("error", f"Not {done}: {exc}")
    else:
        session.notice("ok", f"{done.capitalize()} {memory_id}.")
    return RedirectResponse(back, 303)


async def _pending(
    gw: Gateway,
    prefixes: list[tuple[str, ...]],
    category: Category | None,
    source: Source | None,
    older: datetime | None,
    offset: int,
) -> list[MemoryItem]:
    """The queue page inside the key's scopes, as the API computes it: one query
    when the filter lies inside a scope, else the scopes' pages merged."""
    merged: list[MemoryItem] = []
    for prefix in prefixes:
        merged.extend(
            await gw.pending(
                namespace_prefix=prefix,
                category=category,
                source=source,
                older_than=older,
                limit=PAGE if len(prefixes) == 1 else min(offset + PAGE, 1000),
                offset=offset if len(prefixes) == 1 else 0,
            )
        )
    if len(prefixes) == 1:
        return merged
    merged.sort(key=lambda i: (i.created_at, i.id))
    return merged[offset : offset + PAGE]


def _parse_filters(
    namespace: str, category: str, source: str, age: str
) -> tuple[tuple[str, ...], Category | None, Source | None, datetime | None]:
    prefix = tuple(label for label in namespace.strip().split("/") if label)
    try:
        cat = Category(category) if category else None
        src = Source(source) if source else None
    except ValueError as exc:
        raise UIError(422, f"Invalid filter: {exc}") from None
    if age and age not in AGES:
        raise UIError(422, f"Invalid age filter {age!r}.")
    older = datetime.now(UTC) - timedelta(seconds=AGES[age][1]) if age else None
    return prefix, cat, src, older


def add_review_routes(router: APIRouter, ui: UI) -> None:
    @router.get("/queue", name="ui_queue")
    async def queue(
        request: Request,
        namespace: str = Query("", max_length=1000),
        category: str = Query("", max_length=40),
        source: str = Query("", max_length=40),
        age: str = Query("", max_length=10),
        offset: int = Query(0, ge=0, le=1_000_000),
    ) -> Response:
        session = ui.session(request)
        prefix, cat, src, older = _parse_filters(namespace, category, source, age)
        gw = gateway(request)
        page = await _pending(gw, session.principal.prefixes(prefix), cat, src, older, offset)
        describe = describer(gw)
        rows = []
        for item in page:
            shape = structured(item.content)
            text = shape.preview() if shape is not None else item.content
            rows.append(
                {
                    "item": item,
                    "reasons": entry_reasons(gw, item, await gw.history(item.id)),
                    "categories": sorted({f.category.value for f in item.findings}),
                    "shape": shape.kind if shape is not None else None,
                    "preview": segments(clip(text), []),
                    "rules": [(f.rule_id, describe(f.rule_id)) for f in item.findings],
                }
            )
        filters = {"namespace": namespace, "category": category, "source": source, "age": age}
        here = str(request.url.path) + ("?" + request.url.query if request.url.query else "")
        return ui.render(
            request,
            "queue.html",
            {
                "rows": rows,
                "filters": filters,
                "categories": [c.value for c in Category],
                "sources": [s.value for s in Source],
                "ages": AGES,
                "offset": offset,
                "next_offset": offset + PAGE if len(page) == PAGE else None,
                "prev_offset": max(0, offset - PAGE) if offset else None,
                "here": here,
                "asks": await pending_asks(request.app, session.principal),
            },
            session=session,
        )

    @router.post("/queue/bulk", name="ui_bulk")
    async def bulk(request: Request) -> Response:
        session = ui.session(request)
        form = await ui.check_csrf(request, session)
        back = safe_back(form.get("back"), PREFIX + "/queue")
        ids = [str(i) for i in form.getlist("ids")][:PAGE]
        action = form.get("action")
        reason = str(form.get("reason") or "").strip()
        if not ids:
            session.notice("error", "Select at least one item.")
            return RedirectResponse(back, 303)
        if action not in ("approve", "reject"):
            raise UIError(422, "Bulk action must be approve or reject.")
        if action == "reject" and not reason:
            session.notice("error", "A reason is required to reject.")
            return RedirectResponse(back, 303)
        done = 0
        for memory_id in dict.fromkeys(ids):
            try:
                await _act(request, session, memory_id, str(action), reason or None)
            except UIError as exc:
                session.notice("error", f"{memory_id}: {exc.message}")
            except REFUSALS as exc:
                session.notice("error", f"{memory_id}: {exc}")
            else:
                done += 1
        if done:
            verb = "Approved" if action == "approve" else "Rejected"
            session.notice("ok", f"{verb} {done} item(s).")
        return RedirectResponse(back, 303)

    @router.get("/items/{memory_id}", name="ui_item")
    async def item_page(request: Request, memory_id: str) -> Response:
        session = ui.session(request)
        item = await visible_item(request, session, memory_id)
        return await _item_response(request, ui, session, item, preview=None)

    @router.post("/items/{memory_id}/approve", name="ui_approve")
    async def approve(request: Request, memory_id: str) -> Response:
        session = ui.session(request)
        form = await ui.check_csrf(request, session)
        back = safe_back(form.get("back"), f"{PREFIX}/items/{memory_id}")
        note = str(form.get("note") or "").strip() or None
        return await _decide(request, session, memory_id, "approve", note, back)

    @router.post("/items/{memory_id}/reject", name="ui_reject")
    async def reject(request: Request, memory_id: str) -> Response:
        session = ui.session(request)
        form = await ui.check_csrf(request, session)
        back = safe_back(form.get("back"), f"{PREFIX}/items/{memory_id}")
        reason = str(form.get("reason") or "").strip()
        if not reason:
            session.notice("error", "Not rejected: a reason is required to reject.")
            return RedirectResponse(back, 303)
        return await _decide(request, session, memory_id, "reject", reason, back)

    @router.post("/items/{memory_id}/preview", name="ui_preview")
    async def preview(request: Request, memory_id: str) -> Response:
        """Rescan the edited text and show its findings; nothing is stored."""
        session = ui.session(request)
        form = await ui.check_csrf(request, session)
        item = await visible_item(request, session, memory_id)
        content = str(form.get("content") or "")
        gw = gateway(request)
        size = len(content.encode("utf-8", "replace"))
        if size > gw.routing.max_bytes:
            session.notice("error", str(OversizedWrite(size, gw.routing.max_bytes)))
            return await _item_response(request, ui, session, item, preview=None)
        if not content.strip():
            session.notice("error", "The edited text is empty.")
            return await _item_response(request, ui, session, item, preview=None)
        report = gw.inspector.inspect(content, item.source)
        return await _item_response(request, ui, session, item, preview=(content, report))

    @router.post("/items/{memory_id}/edit", name="ui_edit")
    async def edit(request: Request, memory_id: str) -> Response:
        """Save a previewed edit: the digest proves this exact text was previewed."""
        session = ui.session(request)
        form = await ui.check_csrf(request, session)
        item = await visible_item(request, session, memory_id)
        content = str(form.get("content") or "")
        digest = str(form.get("digest") or "")
        back = f"{PREFIX}/items/{memory_id}"
        if not digest or digest != session.digest(f"{memory_id}\n{content}"):
            session.notice("error", "Preview the edited text before saving it.")
            return RedirectResponse(back, 303)
        note = str(form.get("note") or "").strip() or None
        try:
            check_not_own(session.principal, item)
            saved = await gateway(request).edit_and_approve(
                memory_id, reviewer=session.principal.actor, new_content=content, reason=note
            )
            state(request).metrics.reviews.labels("edit", saved.state.value).inc()
        except REFUSALS as exc:
            session.notice("error", f"Not saved: {exc}")
        else:
            if saved.state is MemoryState.REJECTED:
                session.notice("error", f"The edited text was rejected by the scan: {saved.reason}")
            else:
                session.notice("ok", f"Edited and approved {memory_id}.")
        return RedirectResponse(back, 303)


def clip(text: str, limit: int = 240) -> str:
    """The queue's preview: the start of the content, never cutting a redaction
    tag in half (a half tag would read as content)."""
    if len(text) <= limit:
        return text
    for tag in TAG.finditer(text, 0, limit + 64):
        if tag.start() < limit < tag.end():
            limit = tag.end()
    return text[:limit] + "…"


def _layout(content: str, findings: Any, describe: Callable[[str], str]) -> dict[str, Any]:
    marks: list[Mark] = marks_for(content, findings, describe)
    return {
        "marks": marks,
        "segments": segments(content, marks),
        "unplaced": [m for m in marks if m.placed is None],
    }


async def _item_response(
    request: Request,
    ui: UI,
    session: Session,
    item: MemoryItem,
    preview: tuple[str, ScanReport] | None,
) -> Response:
    gw = gateway(request)
    describe = describer(gw)
    history = await gw.history(item.id)
    readers = await gw.readers(item.id)
    reads = await gw.reads_of(item.id)
    context: dict[str, Any] = {
        "item": item,
        "view": _layout(item.content, item.findings, describe),
        "structured": structured(item.content),
        "history": history,
        "reasons": entry_reasons(gw, item, history),
        "readers": readers,
        "reads": reads,
        "pending": item.state is MemoryState.PENDING_REVIEW,
        "preview": None,
    }
    if preview is not None:
        content, report = preview
        context["preview"] = {
            "content": content,
            "report": report,
            "view": _layout(report.redacted, report.findings, describe),
            "digest": session.digest(f"{item.id}\n{content}"),
        }
    return ui.render(request, "item.html", context, session=session)
