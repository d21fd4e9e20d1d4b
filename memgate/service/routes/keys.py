"""API keys (admins): create (the key is shown once), list, revoke."""

from __future__ import annotations

from fastapi import APIRouter

from memgate.service.deps import Admin, State
from memgate.service.keys import KeyInfo
from memgate.service.problems import Problem
from memgate.service.routes.common import CONFLICT, NOT_FOUND, PROBLEMS
from memgate.service.schemas import Ident, KeyBody, KeyCreated, KeyList

router = APIRouter(prefix="/v1/keys", tags=["keys"], responses=PROBLEMS)


@router.post(
    "",
    status_code=201,
    summary="Create an API key",
    description="The answer carries the key itself, once: only its hash is stored.",
)
async def create_key(body: KeyBody, principal: Admin, state: State) -> KeyCreated:
    try:
        info, raw = state.keys.create(body.name, body.role, body.namespaces)
    except ValueError as exc:
        raise Problem.invalid("body", str(exc)) from None
    return KeyCreated(**info.model_dump(), key=raw)


@router.get("", summary="List API keys", description="Every key, revoked ones too; never the keys.")
async def list_keys(principal: Admin, state: State) -> KeyList:
    return KeyList(keys=state.keys.list())


@router.delete(
    "/{key_id}",
    summary="Revoke an API key",
    description="The key stops working at once. The last active admin key cannot be revoked.",
    responses={**NOT_FOUND, **CONFLICT},
)
async def revoke_key(key_id: Ident, principal: Admin, state: State) -> KeyInfo:
    return state.keys.revoke(key_id)
