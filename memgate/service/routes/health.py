"""Liveness, readiness and Prometheus metrics (no key needed)."""

from __future__ import annotations

import logging

from fastapi import APIRouter, Request, Response
from fastapi.responses import JSONResponse

from memgate.service.deps import MemgateState
from memgate.service.metrics import CONTENT_TYPE
from memgate.service.notify import notifier_of
from memgate.service.schemas import Health, Readiness

router = APIRouter(tags=["health"])
log = logging.getLogger("memgate.service")


@router.get("/healthz", summary="Liveness: the process answers")
async def healthz() -> Health:
    return Health(status="ok")


@router.get(
    "/readyz",
    summary="Readiness: SQLite and the graph",
    description="200 when SQLite answers (status `degraded` when the graph does not); 503 "
    "when SQLite does not or the service is not started. `graph_set_aside` counts rows the "
    "graph could not take: projection went on without them, so the graph stays `ok`.",
    response_model=Readiness,
    responses={503: {"model": Readiness, "description": "Not ready."}},
)
async def readyz(request: Request) -> JSONResponse:
    state = getattr(request.app.state, "memgate", None)
    if not isinstance(state, MemgateState):
        body = Readiness(status="unavailable", sqlite=False, graph="unavailable", detail="starting")
        return JSONResponse(body.model_dump(exclude_none=True), status_code=503)
    try:
        head = (await state.gateway.checkpoint()).seq
    except Exception as exc:
        log.warning("readiness: sqlite failed: %s", type(exc).__name__)
        body = Readiness(status="unavailable", sqlite=False, graph="unavailable", detail="sqlite")
        return JSONResponse(body.model_dump(exclude_none=True), status_code=503)
    projection = await state.gateway.projection_status()
    graph: str = "disabled"
    if projection.enabled:
        graph = "ok" if projection.available else "unavailable"
    body = Readiness(
        status="ready" if graph != "unavailable" else "degraded",
        sqlite=True,
        graph=graph,  # type: ignore[arg-type]
        log_head_seq=head,
        projection_lag=projection.lag if projection.enabled else None,
        graph_set_aside=projection.set_aside if projection.enabled else None,
    )
    return JSONResponse(body.model_dump(exclude_none=True))


@router.get(
    "/metrics",
    summary="Prometheus metrics",
    response_class=Response,
    responses={200: {"content": {CONTENT_TYPE: {}}, "description": "Prometheus text format."}},
)
async def metrics(request: Request) -> Response:
    state = getattr(request.app.state, "memgate", None)
    if not isinstance(state, MemgateState):
        return Response(b"", media_type=CONTENT_TYPE, status_code=503)
    await state.metrics.refresh(state.gateway)
    notifier = notifier_of(request.app)
    if notifier is not None:
        try:
            await state.metrics.refresh_notices(notifier.outbox)
        except Exception as exc:  # the outbox never takes the other metrics down
            log.warning("metrics: outbox status failed: %s", type(exc).__name__)
    return Response(state.metrics.render(), media_type=CONTENT_TYPE)
