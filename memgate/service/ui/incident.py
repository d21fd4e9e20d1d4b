"""Admin pages: the incident page (pick a point or a memory, dry-run the
rollback, see the diff and the blast radius, confirm to apply) and the log
status page (how far the chain verifies, the head checkpoint, projection lag)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Query, Request, Response

from memgate.domain import Source
from memgate.domain.events import VerifyResult
from memgate.domain.memory import utcnow
from memgate.domain.rollback import RollbackPlan, RollbackScope
from memgate.errors import RollbackInProgress
from memgate.service.ui.sessions import Session
from memgate.service.ui.web import UI, UIError, gateway, when

TIMELINE = 40


class _Verified:
    """The last chain verification, kept per app: verifying a large log takes
    seconds, so the page shows the last result and verifies again on request."""

    def __init__(self) -> None:
        self.result: VerifyResult | None = None
        self.at: str | None = None


def _scope(form: Any) -> tuple[int | None, RollbackScope, str]:
    """Target sequence, scope and reason from the incident form."""
    raw_seq = str(form.get("to_seq") or "").strip()
    to_seq = None
    if raw_seq:
        if not raw_seq.isdigit():
            raise UIError(422, "The target sequence must be a whole number.")
        to_seq = int(raw_seq)
    namespace = tuple(p for p in str(form.get("namespace") or "").split("/") if p)
    source_text = str(form.get("source") or "")
    try:
        source = Source(source_text) if source_text else None
    except ValueError:
        raise UIError(422, f"Unknown source {source_text!r}.") from None
    memory_id = str(form.get("memory_id") or "").strip() or None
    session_id = str(form.get("session_id") or "").strip() or None
    scope = RollbackScope(
        namespace_prefix=namespace, source=source, memory_id=memory_id, session_id=session_id
    )
    return to_seq, scope, str(form.get("reason") or "").strip()


def add_incident_routes(router: APIRouter, ui: UI) -> None:
    verified = _Verified()

    async def page(
        request: Request,
        session: Session,
        *,
        form: dict[str, str],
        plan: RollbackPlan | None = None,
        error: str | None = None,
    ) -> Response:
        gw = gateway(request)
        head = (await gw.checkpoint()).seq
        timeline = await gw.store.records(after_seq=max(0, head - TIMELINE), limit=TIMELINE)
        memory_id = form.get("memory_id") or ""
        history = await gw.history(memory_id) if memory_id else []
        blast = await gw.blast_radius(memory_id, 3) if memory_id else None
        return ui.render(
            request,
            "incident.html",
            {
                "form": form,
                "timeline": list(reversed(timeline)),
                "history": history,
                "head": head,
                "plan": plan,
                "blast": blast,
                "error": error,
                "sources": [s.value for s in Source],
            },
            session=session,
        )

    @router.get("/incident", name="ui_incident")
    async def incident(
        request: Request,
        memory_id: str = Query("", max_length=200),
        to_seq: str = Query("", max_length=20),
    ) -> Response:
        session = ui.session(request)
        ui.require_admin(session)
        form = {"memory_id": memory_id, "to_seq": to_seq, "namespace": "", "source": ""}
        form |= {"session_id": "", "reason": ""}
        return await page(request, session, form=form)

    @router.post("/incident/dry-run", name="ui_dry_run")
    async def dry_run(request: Request) -> Response:
        session = ui.session(request)
        ui.require_admin(session)
        raw = await ui.check_csrf(request, session)
        return await _run(request, session, raw, apply=False)

    @router.post("/incident/apply", name="ui_apply")
    async def apply(request: Request) -> Response:
        session = ui.session(request)
        ui.require_admin(session)
        raw = await ui.check_csrf(request, session)
        return await _run(request, session, raw, apply=True)

    async def _run(request: Request, session: Session, raw: Any, *, apply: bool) -> Response:
        fields = ("to_seq", "memory_id", "namespace", "source", "session_id", "reason")
        form = {k: str(raw.get(k) or "") for k in fields}
        to_seq, scope, reason = _scope(raw)
        gw = gateway(request)
        if to_seq is None and scope.memory_id is not None:
            # Scoped by memory without a point: back to just before it entered.
            first = await gw.history(scope.memory_id)
            if not first:
                return await page(
                    request, session, form=form, error=f"No memory {scope.memory_id} in the log."
                )
            to_seq = first[0].seq - 1
            form["to_seq"] = str(to_seq)
        if to_seq is None:
            return await page(
                request,
                session,
                form=form,
                error="Pick a target sequence, or name a memory to undo it from its first event.",
            )
        if not reason:
            return await page(request, session, form=form, error="A reason is required.")
        actor = session.principal.actor
        try:
            plan = await gw.rollback(to=to_seq, reason=reason, actor=actor, scope=scope)
            if apply:
                # The confirmation applies the plan that was shown: if the log moved
                # since the dry run, show the new plan instead of applying blind.
                if str(plan.head_seq) != str(raw.get("head_seq") or ""):
                    return await page(
                        request,
                        session,
                        form=form,
                        plan=plan,
                        error="The log moved since the dry run: check this plan, confirm again.",
                    )
                plan = await gw.rollback(
                    to=to_seq, reason=reason, actor=actor, scope=scope, dry_run=False
                )
                session.notice(
                    "ok",
                    f"Rollback applied: {len(plan.changes)} change(s), marker {plan.marker_seq}.",
                )
        except (ValueError, RollbackInProgress) as exc:
            return await page(request, session, form=form, error=str(exc))
        return await page(request, session, form=form, plan=plan)

    @router.get("/log", name="ui_log")
    async def log_status(request: Request) -> Response:
        session = ui.session(request)
        ui.require_admin(session)
        if verified.result is None:
            await _verify(request)
        return await _log_page(request, session)

    @router.post("/log/verify", name="ui_verify")
    async def verify_now(request: Request) -> Response:
        session = ui.session(request)
        ui.require_admin(session)
        await ui.check_csrf(request, session)
        await _verify(request)
        return await _log_page(request, session)

    async def _verify(request: Request) -> None:
        verified.result = await gateway(request).verify()
        verified.at = when(utcnow())

    async def _log_page(request: Request, session: Session) -> Response:
        gw = gateway(request)
        projection = await gw.projection_status()
        return ui.render(
            request,
            "log.html",
            {
                "verify": verified.result,
                "verified_at": verified.at,
                "checkpoint": await gw.checkpoint(),
                "projection": projection,
            },
            session=session,
        )
