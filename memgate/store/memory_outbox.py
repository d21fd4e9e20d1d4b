"""The in-memory twin of the SQLite outbox.

It reads the store's log as it grows (each call first takes in the events
appended since the last one, by the same rule `kind_of` the SQLite trigger
applies), so an appended event always has its notice, as with SQLite; nothing
persists.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from memgate.domain.memory import utcnow
from memgate.domain.notices import Notice, kind_of, notice_for
from memgate.domain.ports import EventLog, OutboxEntry, OutboxStatus


@dataclass
class _Row:
    notice: Notice
    created: float
    next_at: float
    attempts: int = 0
    lease_until: float | None = None
    done: frozenset[str] = frozenset()
    delivered_at: float | None = None
    gave_up_at: float | None = None
    last_error: str | None = None

    @property
    def open(self) -> bool:
        return self.delivered_at is None and self.gave_up_at is None


@dataclass
class MemoryOutbox:
    log: EventLog
    _rows: dict[str, _Row] = field(default_factory=dict)
    _seen: int = 0

    async def _take_in(self) -> None:
        while True:
            records = await self.log.records(after_seq=self._seen, limit=1000)
            if not records:
                return
            now = utcnow().timestamp()
            for record in records:
                kind = kind_of(record.event)
                if kind is not None:
                    notice = notice_for(kind, record.seq, record.event)
                    self._rows.setdefault(notice.id, _Row(notice, now, now))
            self._seen = records[-1].seq

    async def enqueue(self, notice: Notice) -> bool:
        await self._take_in()
        if notice.id in self._rows:
            return False
        now = utcnow().timestamp()
        self._rows[notice.id] = _Row(notice, now, now)
        return True

    async def claim(
        self, *, now: float, limit: int, lease: float, due_only: bool = True
    ) -> list[OutboxEntry]:
        await self._take_in()
        due = [
            row
            for row in self._rows.values()
            if row.open
            and (not due_only or row.next_at <= now)
            and (row.lease_until is None or row.lease_until <= now)
        ]
        due.sort(key=lambda r: r.next_at)
        taken = due[:limit]
        for row in taken:
            row.lease_until = now + lease
        return [
            OutboxEntry(notice=r.notice, attempts=r.attempts, done=r.done, created=r.created)
            for r in sorted(taken, key=lambda r: r.created)
        ]

    async def settle(
        self,
        notice_id: str,
        *,
        done: frozenset[str],
        delivered: bool,
        next_at: float | None = None,
        error: str | None = None,
        gave_up: bool = False,
    ) -> None:
        row = self._rows.get(notice_id)
        if row is None:
            return
        now = utcnow().timestamp()
        row.attempts += 1
        row.lease_until = None
        row.done = done
        row.delivered_at = now if delivered else None
        row.gave_up_at = now if gave_up and not delivered else None
        row.next_at = next_at if next_at is not None else row.next_at
        row.last_error = None if delivered else error

    async def status(self) -> OutboxStatus:
        await self._take_in()
        pending = [r for r in self._rows.values() if r.open]
        errors = sorted((r for r in pending if r.last_error), key=lambda r: r.next_at)
        return OutboxStatus(
            pending=len(pending),
            delivered=sum(1 for r in self._rows.values() if r.delivered_at is not None),
            given_up=sum(1 for r in self._rows.values() if r.gave_up_at is not None),
            oldest_pending=min((r.created for r in pending), default=None),
            last_error=errors[-1].last_error if errors else None,
        )

    async def prune(self, before: float) -> int:
        gone = [k for k, r in self._rows.items() if not r.open and r.created < before]
        for key in gone:
            del self._rows[key]
        return len(gone)

    async def close(self) -> None:
        return None
