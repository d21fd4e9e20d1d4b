"""Tool calls the guard asked about, in the review UI: listed on the queue page
beside pending memories, and a page per ask with the call, its arguments
(sensitive values redacted before they were stored), the reasons, the graph path
of the values that made it risky, and allow / deny."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from fastapi.responses import RedirectResponse

from memgate.domain.asks import AskState, GuardAsk
from memgate.errors import NotFound, ReviewRefused
from memgate.service.guard_asks import review, visible_ask
from memgate.service.ui.review import safe_back
from memgate.service.ui.web import PREFIX, UI, UIError, state


def path_lines(ask: GuardAsk) -> list[dict[str, Any]]:
    """The path as a person reads it: where each value came from, then which
    argument of this call carries it."""
    lines = []
    for step in ask.path:
        kind = str(step.get("kind", "?"))
        fp = str(step.get("fingerprint", ""))
        memory = step.get("memory_id")
        session = step.get("session_id") or "?"
        if kind == "arg":
            text = (
                f"argument {step.get('arg')} of this call carries value {fp} ({step.get('form')})"
            )
        elif memory and kind == "write":
            text = f"value {fp} was written into memory {memory} in session {session}"
        elif memory:
            text = f"value {fp} was read from memory {memory} in session {session}"
            text += f" (call {step.get('call_id')})"
        else:
            text = f"value {fp} was read by {step.get('tool') or '?'} in session {session}"
            text += f" (call {step.get('call_id')})"
        lines.append({"kind": kind, "text": text, "memory_id": memory, "rule": step.get("rule_id")})
    return lines


def add_ask_routes(router: APIRouter, ui: UI) -> None:
    @router.get("/asks/{ask_id}", name="ui_ask")
    async def ask_page(request: Request, ask_id: str) -> Response:
        session = ui.session(request)
        try:
            ask = await visible_ask(request.app, session.principal, ask_id)
        except NotFound:
            raise UIError(404, f"No guard ask {ask_id} visible to this key.") from None
        return ui.render(
            request,
            "ask.html",
            {
                "ask": ask,
                "path": path_lines(ask),
                "pending": ask.state is AskState.PENDING,
                "own": ask.actor == session.principal.actor,
            },
            session=session,
        )

    async def answer(request: Request, ask_id: str, verdict: AskState) -> Response:
        session = ui.session(request)
        form = await ui.check_csrf(request, session)
        back = safe_back(form.get("back"), f"{PREFIX}/asks/{ask_id}")
        note = str(form.get("note") or "").strip() or None
        said = "allowed" if verdict is AskState.ALLOWED else "denied"
        if verdict is AskState.DENIED and note is None:
            session.notice("error", "Not denied: a reason is required to deny.")
            return RedirectResponse(back, 303)
        try:
            await review(request.app, state(request), session.principal, ask_id, verdict, note)
        except NotFound:
            raise UIError(404, f"No guard ask {ask_id} visible to this key.") from None
        except ReviewRefused as exc:
            session.notice("error", f"Not {said}: {exc}")
        else:
            session.notice("ok", f"{said.capitalize()} tool call {ask_id}.")
        return RedirectResponse(back, 303)

    @router.post("/asks/{ask_id}/allow", name="ui_ask_allow")
    async def allow(request: Request, ask_id: str) -> Response:
        return await answer(request, ask_id, AskState.ALLOWED)

    @router.post("/asks/{ask_id}/deny", name="ui_ask_deny")
    async def deny(request: Request, ask_id: str) -> Response:
        return await answer(request, ask_id, AskState.DENIED)
