"""The in-memory twin of the ask store (tests, `memory_gateway`): nothing persists."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from memgate.domain.asks import AskState, GuardAsk

__all__ = ["MemoryAsks"]


@dataclass
class MemoryAsks:
    _asks: dict[str, GuardAsk] = field(default_factory=dict)

    async def add(self, ask: GuardAsk) -> GuardAsk:
        for existing in self._asks.values():
            if existing.digest == ask.digest and existing.state is AskState.PENDING:
                return existing
        self._asks.setdefault(ask.id, ask)
        return self._asks[ask.id]

    async def get(self, ask_id: str) -> GuardAsk | None:
        return self._asks.get(ask_id)

    async def answer(self, digest: str) -> GuardAsk | None:
        found = [
            a
            for a in self._asks.values()
            if a.digest == digest and (a.state is not AskState.ALLOWED or a.used_at is None)
        ]
        return max(found, key=lambda a: a.created_at) if found else None

    async def pending(self, limit: int = 50, offset: int = 0) -> list[GuardAsk]:
        waiting = [a for a in self._asks.values() if a.state is AskState.PENDING]
        waiting.sort(key=lambda a: (a.created_at, a.id))
        return waiting[offset : offset + limit]

    async def resolve(
        self,
        ask_id: str,
        state: AskState,
        *,
        reviewer: str,
        note: str | None,
        at: datetime,
        review_seq: int | None,
    ) -> GuardAsk | None:
        ask = self._asks.get(ask_id)
        if ask is None or ask.state is not AskState.PENDING or state is AskState.PENDING:
            return None
        done = ask.model_copy(
            update={
                "state": state,
                "reviewer": reviewer,
                "note": note,
                "reviewed_at": at,
                "review_seq": review_seq,
            }
        )
        self._asks[ask_id] = done
        return done

    async def use(self, ask_id: str, at: datetime) -> bool:
        ask = self._asks.get(ask_id)
        if ask is None or ask.state is not AskState.ALLOWED or ask.used_at is not None:
            return False
        self._asks[ask_id] = ask.model_copy(update={"used_at": at})
        return True

    async def close(self) -> None:
        return None
