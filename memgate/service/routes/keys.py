"""API keys (admins): create (the key is shown once), list, change sources and guard
roles, revoke; and any key's own description (`/v1/keys/me`)."""

from __future__ import annotations

from fastapi import APIRouter

from memgate.errors import NotFound as NotFoundError
from memgate.service.deps import Admin, AnyKey, State
from memgate.service.keys import KeyInfo
from memgate.service.problems import Problem
from memgate.service.routes.common import CONFLICT, NOT_FOUND, PROBLEMS
from memgate.service.schemas import Ident, KeyBody, KeyCreated, KeyList, KeySourcesBody

router = APIRouter(prefix="/v1/keys", tags=["keys"], responses=PROBLEMS)


@router.post(
    "",
    status_code=201,
    summary="Create an API key",
    description="The answer carries the key itself, once: only its hash is stored. "
    "`sources` are what the key's writes may declare (default: agent keys agent, tool, "
    "web, document; admin keys all; reviewer keys none); `user_channel` adds `user`.",
)
async def create_key(body: KeyBody, principal: Admin, state: State) -> KeyCreated:
    try:
        info, raw = state.keys.create(
            body.name,
            body.role,
            body.namespaces,
            sources=body.sources,
            user_channel=body.user_channel,
            guard_roles=body.guard_roles,
        )
    except ValueError as exc:
        raise Problem.invalid("body", str(exc)) from None
    return KeyCreated(**info.model_dump(), key=raw)


@router.get("", summary="List API keys", description="Every key, revoked ones too; never the keys.")
async def list_keys(principal: Admin, state: State) -> KeyList:
    return KeyList(keys=state.keys.list())


@router.get(
    "/me",
    summary="The calling key",
    description="The key that made this request, as listed (any role): its role, namespace "
    "scopes and the sources it may declare. Clients use it to place what they write inside "
    "the key's scopes.",
)
async def my_key(principal: AnyKey, state: State) -> KeyInfo:
    info = state.keys.get(principal.key_id)
    if info is None:  # revoked and purged between authentication and here
        raise NotFoundError(f"no key {principal.key_id}")
    return info


@router.patch(
    "/{key_id}",
    summary="Change the sources or guard roles of an API key",
    description="Replace the sources the key's writes may declare (e.g. make an existing "
    "key a user channel) and, with `guard_roles`, the guard roles it may act as (a body "
    "with only `guard_roles` leaves the sources as they are). Takes effect at once.",
    responses=NOT_FOUND,
)
async def set_key_sources(
    key_id: Ident, body: KeySourcesBody, principal: Admin, state: State
) -> KeyInfo:
    info = None
    if body.sets_sources:
        try:
            info = state.keys.set_sources(key_id, body.sources, user_channel=body.user_channel)
        except ValueError as exc:
            raise Problem.invalid("body.sources", str(exc)) from None
    if body.guard_roles is not None:
        try:
            info = state.keys.set_guard_roles(key_id, body.guard_roles)
        except ValueError as exc:
            raise Problem.invalid("body.guard_roles", str(exc)) from None
    if info is None:  # NOTE: a body of only `"guard_roles": null` changes nothing
        info = state.keys.get(key_id)
        if info is None:
            raise NotFoundError(f"no key {key_id}")
    return info


@router.delete(
    "/{key_id}",
    summary="Revoke an API key",
    description="The key stops working at once. The last active admin key cannot be revoked.",
    responses={**NOT_FOUND, **CONFLICT},
)
async def revoke_key(key_id: Ident, principal: Admin, state: State) -> KeyInfo:
    return state.keys.revoke(key_id)
