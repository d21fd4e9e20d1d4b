"""`ask` through the review queue, in the service: a decision of `ask` becomes a
pending item (or joins the one its call already has), people are told through
the notification outbox, and a reviewer's answer is logged and settles the next
decision of the same call.

    decision = await settle(app, guard, call, decision, principal)   # POST /v1/guard/decide
    ask = await review(app, ask_id, AskState.ALLOWED, reviewer, note)  # API and UI
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from pathlib import Path

import anyio.to_thread
from fastapi import FastAPI

from memgate.bootstrap import DB_FILE, POSTGRES_SCHEMES
from memgate.domain import Source
from memgate.domain.asks import AskState, AskStore, GuardAsk
from memgate.domain.memory import utcnow
from memgate.errors import NotFound, ReviewRefused
from memgate.guard import Guard, GuardDecision, ToolCall, Verdict
from memgate.guard.asks import answered, ask_notice, call_digest, new_ask, review_event, waiting
from memgate.guard.audit import decision_event
from memgate.service.deps import MemgateState
from memgate.service.keys import Principal
from memgate.service.notify import notifier_of
from memgate.store.sqlite_asks import SqliteAsks

log = logging.getLogger("memgate.service")


def open_asks(data_dir: Path, store_url: str | None = None) -> AskStore:
    """The guard's review-queue items: in the data directory's SQLite database, or
    in the PostgreSQL store at `store_url` (shared by every replica)."""
    if store_url is not None and store_url.startswith(POSTGRES_SCHEMES):
        # NOTE: imported here so that memgate runs without the `postgres` extra.
        from memgate.store.postgres_asks import PostgresAsks

        return PostgresAsks(store_url)
    return SqliteAsks(Path(data_dir) / DB_FILE)


def asks_of(app: FastAPI) -> AskStore | None:
    found = getattr(app.state, "guard_asks", None)
    return found if found is not None else None


EXPIRER = "memgate:expiry"
"""The `reviewer` of an ask that expired unanswered."""


def _expire_after(app: FastAPI) -> timedelta | None:
    guard = getattr(app.state, "guard", None)
    return None if guard is None else guard.policy.asks.expire_after


def expires_at(ask: GuardAsk, after: timedelta | None) -> datetime | None:
    """When a pending ask expires: its own `expires_at`, else (stored before asks
    expired) `created_at` + the policy's `expire_after`; None: never."""
    if ask.expires_at is not None:
        return ask.expires_at
    return None if after is None else ask.created_at + after


async def current(
    asks: AskStore, ask: GuardAsk, after: timedelta | None, now: datetime | None = None
) -> GuardAsk:
    """The ask as it stands now: a pending one past its expiry is stored as
    `expired` first (whichever replica looks first; an answer that came in
    between stands)."""
    due = expires_at(ask, after) if ask.state is AskState.PENDING else None
    now = now or utcnow()
    if due is None or now < due:
        return ask
    done = await asks.resolve(
        ask.id, AskState.EXPIRED, reviewer=EXPIRER, note=f"no answer by {due.isoformat()}",
        at=now, review_seq=None,
    )  # fmt: skip
    if done is not None:
        return done
    return await asks.get(ask.id) or ask


def may_see(principal: Principal, ask: GuardAsk) -> bool:
    """The key that asked, or a reviewer or admin whose scope covers one of the
    asking key's namespaces (an unscoped asker: unscoped reviewers only)."""
    if principal.actor == ask.actor:
        return True
    if not ask.namespaces:
        return principal.can_review(())
    return any(principal.can_review(ns) for ns in ask.namespaces)


async def settle(
    app: FastAPI, state: MemgateState, guard: Guard, call: ToolCall, decision: GuardDecision,
    principal: Principal,
) -> GuardDecision:  # fmt: skip
    """Log the decision; for an `ask`, settle it from the review queue first (an
    answer for the same call) or queue a new ask and tell people. Returns the
    decision as answered, with its `audit_seq` and `ask_id`."""
    asks = asks_of(app)
    store = state.gateway.store
    if decision.decision is not Verdict.ASK or asks is None:
        records = await store.append([decision_event(call, decision, principal.actor)])
        return decision.model_copy(update={"audit_seq": records[0].seq})
    digest = call_digest(guard.scanner.fingerprint, principal.actor, call)
    after = guard.policy.asks.expire_after
    known = await asks.answer(digest)
    if known is not None:
        known = await current(asks, known, after)
        if known.state is AskState.EXPIRED:
            known = None  # no one answered in time: ask anew
    if (
        known is not None
        and known.state is AskState.ALLOWED
        and not await asks.use(known.id, utcnow())
    ):
        known = None  # another replica spent it first: ask again
    if known is not None:
        decision = answered(decision, known)
        records = await store.append([decision_event(call, decision, principal.actor)])
        return decision.model_copy(update={"audit_seq": records[0].seq})
    records = await store.append([decision_event(call, decision, principal.actor)])
    seq = records[0].seq

    def redact(text: str) -> str:
        return guard.scanner.scan(text, Source.AGENT).redacted

    now = utcnow()
    ask = await anyio.to_thread.run_sync(
        lambda: new_ask(
            call, decision, digest=digest, actor=principal.actor,
            namespaces=principal.namespaces, audit_seq=seq, at=now, redact=redact,
        )
    )  # fmt: skip
    if after is not None:
        ask = ask.model_copy(update={"expires_at": now + after})
    stored = await asks.add(ask)
    if stored.id == ask.id:
        await tell(app, stored)
    return waiting(decision, stored).model_copy(update={"audit_seq": seq})


async def tell(app: FastAPI, ask: GuardAsk) -> None:
    """Queue the ask's notice; a failure to queue it never fails the decision."""
    notifier = notifier_of(app)
    if notifier is None:
        return
    try:
        await notifier.outbox.enqueue(ask_notice(ask))
    except Exception as exc:
        log.warning("could not queue the guard ask notice: %s", type(exc).__name__)


async def visible_ask(app: FastAPI, principal: Principal, ask_id: str) -> GuardAsk:
    """The ask, if this key may see it (else NotFound, as for an unknown id)."""
    asks = asks_of(app)
    ask = None if asks is None else await asks.get(ask_id)
    if ask is None or not may_see(principal, ask):
        raise NotFound(f"no guard ask {ask_id} visible to this key")
    assert asks is not None  # noqa: S101 - it was found there
    return await current(asks, ask, _expire_after(app))


async def pending_asks(app: FastAPI, principal: Principal, limit: int = 50) -> list[GuardAsk]:
    """The pending asks this key may review, oldest first (at most `limit`)."""
    asks = asks_of(app)
    if asks is None:
        return []
    after, now = _expire_after(app), utcnow()
    shown: list[GuardAsk] = []
    offset = 0
    while len(shown) < limit:
        page = await asks.pending(limit=200, offset=offset)
        expired = 0
        for a in page:
            a = await current(asks, a, after, now)
            if a.state is not AskState.PENDING:
                expired += 1  # no longer in the pending list: the next page moves up
            elif may_see(principal, a) and a.actor != principal.actor:
                shown.append(a)
        if len(page) < 200:
            break
        offset += 200 - expired
    return shown[:limit]


async def review(
    app: FastAPI, state: MemgateState, principal: Principal, ask_id: str, answer: AskState,
    note: str | None,
) -> GuardAsk:  # fmt: skip
    """A reviewer's answer: logged (`guard_decided`, layer `review`) and stored.
    The key that asked never answers (ReviewRefused); an answered ask keeps its
    first answer (ReviewRefused naming it)."""
    ask = await visible_ask(app, principal, ask_id)
    if principal.actor == ask.actor:
        raise ReviewRefused(f"{principal.actor} asked {ask_id} and cannot answer it")
    if ask.state is AskState.EXPIRED:
        raise ReviewRefused(f"{ask_id} expired unanswered ({ask.note}): the call asks anew")
    if ask.state is not AskState.PENDING:
        raise ReviewRefused(f"{ask_id} was {ask.state.value} already by {ask.reviewer}")
    asks = asks_of(app)
    assert asks is not None  # noqa: S101 - visible_ask found it there
    records = await state.gateway.store.append([review_event(ask, answer, principal.actor, note)])
    done = await asks.resolve(
        ask_id, answer, reviewer=principal.actor, note=note, at=utcnow(),
        review_seq=records[0].seq,
    )  # fmt: skip
    if done is None:
        raise ReviewRefused(f"{ask_id} was answered by someone else first")
    return done
