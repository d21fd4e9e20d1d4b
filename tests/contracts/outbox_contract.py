"""The Outbox port's contract: an outbox read beside its store.

A backend's test module subclasses `OutboxContract` and supplies `open_pair`, a
fresh store and the outbox over it. Events are appended through the store only:
which of them become notices is the backend's business (a trigger for SQLite,
the log read back for the twin), and must follow `kind_of` exactly.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

from memgate.domain.events import Event, Op, VerifyResult
from memgate.domain.memory import MemoryState, PoolName
from memgate.domain.notices import EXCERPT_CHARS, NoticeKind, kind_of, verify_notice
from memgate.domain.ports import Outbox, Store
from tests.contracts import T0, event_for, long_item, run, short_item

Body = Callable[[Any, Store, Outbox], Awaitable[None]]


def outbox_test(body: Body) -> Callable[[Any, Path], None]:
    def test(self: OutboxContract, tmp_path: Path) -> None:
        async def go() -> None:
            store, outbox = await self.open_pair(tmp_path)
            try:
                await body(self, store, outbox)
            finally:
                await outbox.close()
                await store.close()

        run(go())

    test.__name__ = body.__name__
    test.__qualname__ = body.__qualname__
    test.__doc__ = body.__doc__
    return test


def mixed_events() -> list[Event]:
    """One of every kind of event people are (or are not) told about."""
    approved = long_item(content="approved note")
    pending = long_item(
        content="from the web: " + "word " * 80,
        state=MemoryState.PENDING_REVIEW,
        namespace=("team", "alpha"),
        metadata={"token": "metadata-is-never-in-a-notice"},
    )
    demoted = approved.model_copy(update={"state": MemoryState.PENDING_REVIEW, "version": 2})
    timed_out = pending.model_copy(update={"state": MemoryState.REJECTED, "version": 2})
    reviewed = long_item(state=MemoryState.REJECTED)
    back = demoted.model_copy(update={"state": MemoryState.APPROVED, "version": 3})
    back_pending = long_item(state=MemoryState.PENDING_REVIEW)
    transient = short_item()
    return [
        event_for(approved, Op.ADMITTED),
        event_for(pending, Op.QUEUED, reason="source web is never approved automatically"),
        event_for(demoted, Op.DEMOTED, before=MemoryState.APPROVED, reason="rescan"),
        event_for(
            timed_out, Op.REJECTED, before=MemoryState.PENDING_REVIEW, reason="review_timeout"
        ),
        event_for(reviewed, Op.REJECTED, before=MemoryState.PENDING_REVIEW, reason="spam"),
        event_for(transient, Op.ADMITTED),
        event_for(back, Op.ROLLED_BACK, before=MemoryState.PENDING_REVIEW, reason="incident 7"),
        event_for(back_pending, Op.ROLLED_BACK, before=MemoryState.APPROVED, reason="incident 7"),
        Event(
            op=Op.ROLLED_BACK,
            memory_id="rollback:r1",
            at=T0 + timedelta(minutes=5),
            actor="admin:alice",
            reason="incident 7",
            detail={"to_seq": 3, "head_seq": 8, "changed": 2, "scope": {"namespace": None}},
        ),
    ]


def expected_kinds(events: list[Event], first_seq: int = 1) -> dict[str, NoticeKind]:
    out = {}
    for seq, event in enumerate(events, start=first_seq):
        kind = kind_of(event)
        if kind is not None:
            out[f"ev{seq}"] = kind
    return out


class OutboxContract(ABC):
    @abstractmethod
    async def open_pair(self, directory: Path) -> tuple[Store, Outbox]: ...

    @outbox_test
    async def test_events_become_notices_by_the_one_rule(
        self, store: Store, outbox: Outbox
    ) -> None:
        events = mixed_events()
        await store.append(events)
        claimed = await outbox.claim(now=time.time() + 1, limit=100, lease=30)
        got = {e.notice.id: e.notice.kind for e in claimed}
        assert got == expected_kinds(events)
        assert sorted(got.values()) == sorted(
            [
                NoticeKind.REVIEW_PENDING,
                NoticeKind.REVIEW_PENDING,
                NoticeKind.REVIEW_TIMEOUT,
                NoticeKind.ROLLBACK_APPLIED,
            ]
        )

    @outbox_test
    async def test_a_notice_carries_ids_reason_and_a_short_excerpt(
        self, store: Store, outbox: Outbox
    ) -> None:
        events = mixed_events()
        await store.append(events)
        claimed = await outbox.claim(now=time.time() + 1, limit=100, lease=30)
        by_id = {e.notice.id: e.notice for e in claimed}
        queued = by_id["ev2"]
        assert queued.memory_id == events[1].memory_id
        assert queued.namespace == ("team", "alpha")
        assert queued.reason == "source web is never approved automatically"
        assert queued.excerpt is not None and queued.excerpt.startswith("from the web: word")
        assert len(queued.excerpt) <= EXCERPT_CHARS + 1
        assert "metadata-is-never-in-a-notice" not in queued.model_dump_json()
        rollback = by_id["ev9"]
        assert rollback.memory_id is None
        assert rollback.actor == "admin:alice"
        assert rollback.detail["changed"] == 2 and rollback.detail["to_seq"] == 3

    @outbox_test
    async def test_a_claim_is_a_lease(self, store: Store, outbox: Outbox) -> None:
        await store.append(mixed_events()[:2])
        now = time.time() + 1
        first = await outbox.claim(now=now, limit=10, lease=30)
        assert [e.notice.id for e in first] == ["ev2"]
        assert await outbox.claim(now=now, limit=10, lease=30) == []
        assert await outbox.claim(now=now, limit=10, lease=30, due_only=False) == []
        again = await outbox.claim(now=now + 31, limit=10, lease=30)
        assert [e.notice.id for e in again] == ["ev2"]  # the worker died: claimed again
        assert again[0].attempts == 0

    @outbox_test
    async def test_a_failed_attempt_waits_for_its_retry(self, store: Store, outbox: Outbox) -> None:
        await store.append(mixed_events()[:2])
        now = time.time() + 1
        (entry,) = await outbox.claim(now=now, limit=10, lease=30)
        await outbox.settle(
            entry.notice.id,
            done=frozenset({"t1"}),
            delivered=False,
            next_at=now + 60,
            error="HTTP 503",
        )
        assert await outbox.claim(now=now + 1, limit=10, lease=30) == []
        status = await outbox.status()
        assert (status.pending, status.delivered, status.last_error) == (1, 0, "HTTP 503")
        (retry,) = await outbox.claim(now=now + 61, limit=10, lease=30)
        assert retry.attempts == 1 and retry.done == frozenset({"t1"})
        await outbox.settle(retry.notice.id, done=frozenset({"t1", "t2"}), delivered=True)
        status = await outbox.status()
        assert (status.pending, status.delivered, status.last_error) == (0, 1, None)
        assert await outbox.claim(now=now + 10_000, limit=10, lease=30, due_only=False) == []

    @outbox_test
    async def test_drain_takes_what_is_not_due_yet(self, store: Store, outbox: Outbox) -> None:
        await store.append(mixed_events()[:2])
        now = time.time() + 1
        (entry,) = await outbox.claim(now=now, limit=10, lease=30)
        await outbox.settle(entry.notice.id, done=frozenset(), delivered=False, next_at=now + 600)
        assert await outbox.claim(now=now, limit=10, lease=30) == []
        (forced,) = await outbox.claim(now=now, limit=10, lease=30, due_only=False)
        assert forced.notice.id == entry.notice.id

    @outbox_test
    async def test_given_up_is_kept_apart(self, store: Store, outbox: Outbox) -> None:
        await store.append(mixed_events()[:2])
        now = time.time() + 1
        (entry,) = await outbox.claim(now=now, limit=10, lease=30)
        await outbox.settle(
            entry.notice.id, done=frozenset(), delivered=False, error="HTTP 404", gave_up=True
        )
        status = await outbox.status()
        assert (status.pending, status.given_up) == (0, 1)
        assert await outbox.claim(now=now + 10_000, limit=10, lease=30, due_only=False) == []

    @outbox_test
    async def test_enqueue_is_idempotent_per_notice_id(self, store: Store, outbox: Outbox) -> None:
        failure = VerifyResult(
            ok=False, checked=5, last_seq=5, first_bad_seq=3, reason="MAC mismatch"
        )
        notice = verify_notice(failure, T0)
        assert await outbox.enqueue(notice) is True
        assert await outbox.enqueue(verify_notice(failure, T0 + timedelta(hours=1))) is False
        (entry,) = await outbox.claim(now=time.time() + 1, limit=10, lease=30)
        assert entry.notice == notice
        assert entry.notice.detail["first_bad_seq"] == 3

    @outbox_test
    async def test_prune_forgets_only_settled_notices(self, store: Store, outbox: Outbox) -> None:
        events = mixed_events()
        await store.append(events)
        now = time.time() + 1
        claimed = await outbox.claim(now=now, limit=100, lease=30)
        first, *rest = claimed
        await outbox.settle(first.notice.id, done=frozenset(), delivered=True)
        assert await outbox.prune(before=now + 10) == 1
        status = await outbox.status()
        assert (status.pending, status.delivered) == (len(rest), 0)


__all__ = ["OutboxContract", "PoolName"]
