"""Scan without storing: what the gateway would decide about some content."""

from __future__ import annotations

from fastapi import APIRouter

from memgate.domain import ScanReport
from memgate.errors import OversizedWrite
from memgate.service.deps import AnyKey, State
from memgate.service.routes.common import PROBLEMS
from memgate.service.schemas import ScanBody

router = APIRouter(tags=["scan"], responses=PROBLEMS)


@router.post(
    "/v1/scan",
    summary="Scan content without storing it",
    description="Findings with their spans, the trust score and the decision. Nothing is "
    "stored or logged; secrets in the answer are redacted like stored content.",
)
async def scan(body: ScanBody, principal: AnyKey, state: State) -> ScanReport:
    size = len(body.content.encode("utf-8"))
    limit = state.gateway.routing.max_bytes
    if size > limit:
        raise OversizedWrite(size, limit)
    return await state.gateway.scan(body.content, body.source)
