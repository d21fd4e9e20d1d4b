"""The in-memory twin of the Lease port: instances on one `LeaseBoard` compete."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field


@dataclass
class LeaseBoard:
    """Who holds which lease (by name), for the instances of one process."""

    holders: dict[str, int] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def lease(self, name: str = "projector") -> MemoryLease:
        return MemoryLease(self, name, next(self._ids))


class MemoryLease:
    """A lease held in a `LeaseBoard`; `close()` (the holder "dying") frees it."""

    def __init__(self, board: LeaseBoard, name: str, holder: int) -> None:
        self._board = board
        self.name = name
        self._holder = holder

    async def acquire(self) -> bool:
        current = self._board.holders.setdefault(self.name, self._holder)
        return current == self._holder

    async def held(self) -> bool:
        return self._board.holders.get(self.name) == self._holder

    async def release(self) -> None:
        if self._board.holders.get(self.name) == self._holder:
            del self._board.holders[self.name]

    async def close(self) -> None:
        await self.release()
