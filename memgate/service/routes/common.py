"""Documented error answers shared by the routers (OpenAPI `responses`)."""

from __future__ import annotations

from typing import Any

from fastapi import Response
from pydantic import BaseModel

from memgate.service.problems import MEDIA_TYPE, ProblemBody


def _problem(description: str) -> dict[str, Any]:
    return {"model": ProblemBody, "description": description, "content": {MEDIA_TYPE: {}}}


Responses = dict[int | str, dict[str, Any]]

PROBLEMS: Responses = {
    401: _problem("No API key, or an unknown or revoked one."),
    403: _problem("The key's role or namespace scopes do not allow this."),
    413: _problem("The request body is larger than the service accepts."),
    422: _problem("The request is invalid; `errors` names each field and the reason."),
}
NOT_FOUND: Responses = {404: _problem("No such memory, or not visible to this key.")}
CONFLICT: Responses = {409: _problem("The state machine does not allow this transition.")}
BUSY: Responses = {
    503: _problem(
        "A rollback holds the write lock (or the graph is unreachable); retry after"
        " `Retry-After` seconds."
    )
}
WRITE_PROBLEMS: Responses = {**BUSY}


def json_answer(model: BaseModel, status: int = 200) -> Response:
    """A model that is valid already, serialized once (by pydantic, in Rust): the
    hot routes skip FastAPI's response validation and dict-then-json encoding.
    Each declares its `response_model` for the OpenAPI schema."""
    return Response(model.model_dump_json(), status_code=status, media_type="application/json")
