"""The Lease port's contract: at most one holder, and a holder that goes frees it.

A backend's test module subclasses `LeaseContract` and supplies `open_leases`:
`n` fresh leases on one name, as `n` replicas would open them.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from typing import Any

from memgate.domain.ports import Lease
from tests.contracts import run

Body = Callable[[Any, list[Lease]], Awaitable[None]]


def lease_test(n: int) -> Callable[[Body], Callable[[Any], None]]:
    """Turn `async def test_x(self, leases)` into a sync test on `n` fresh leases."""

    def wrap(body: Body) -> Callable[[Any], None]:
        def test(self: LeaseContract) -> None:
            async def go() -> None:
                leases = await self.open_leases(n)
                try:
                    await body(self, leases)
                finally:
                    for lease in leases:
                        await lease.close()

            run(go())

        test.__name__ = body.__name__
        test.__qualname__ = body.__qualname__
        test.__doc__ = body.__doc__
        return test

    return wrap


class LeaseContract(ABC):
    """What every Lease must do. Not collected itself (no `Test` prefix)."""

    @abstractmethod
    async def open_leases(self, n: int) -> list[Lease]:
        """`n` leases competing for one name no other test uses."""

    @lease_test(3)
    async def test_one_holder_at_a_time(self, leases: list[Lease]) -> None:
        got = [await lease.acquire() for lease in leases]
        assert got == [True, False, False]
        assert [await lease.held() for lease in leases] == [True, False, False]
        # Asking again changes nothing, for the holder or the others.
        assert [await lease.acquire() for lease in leases] == [True, False, False]

    @lease_test(2)
    async def test_a_released_lease_is_taken_by_the_next_to_try(self, leases: list[Lease]) -> None:
        first, second = leases
        assert await first.acquire()
        assert not await second.acquire()
        await first.release()
        assert not await first.held()
        assert await second.acquire()
        assert await second.held()
        assert not await first.acquire()
        await first.release()  # releasing what one does not hold is no error
        assert await second.held()

    @lease_test(2)
    async def test_a_closed_holder_frees_it(self, leases: list[Lease]) -> None:
        first, second = leases
        assert await first.acquire()
        await first.close()  # the holder goes away without releasing
        assert await second.acquire()
        assert await second.held()

    @lease_test(1)
    async def test_a_lease_never_held_is_not_held(self, leases: list[Lease]) -> None:
        (lease,) = leases
        assert not await lease.held()
        await lease.release()
        assert await lease.acquire()
        await lease.release()
        assert await lease.acquire()
