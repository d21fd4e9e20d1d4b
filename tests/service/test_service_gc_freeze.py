"""The service freezes what its startup built out of the garbage collector while it
runs (a full collection then skips the ~80k long-lived objects of rules, classifier
and clients) and unfreezes it when it stops; a request still works in between and
garbage made by requests is still collected."""

from __future__ import annotations

import gc
import weakref
from pathlib import Path

import pytest
from service_support import start_service

pytestmark = pytest.mark.anyio


class _Cycle:
    def __init__(self) -> None:
        self.me = self


async def test_startup_heap_is_frozen_while_serving(tmp_path: Path) -> None:
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    async for service in start_service(tmp_path, graph=None):
        assert gc.get_freeze_count() > 10_000
        async with service.client(service.admin_key) as client:
            assert (await client.get("/healthz")).status_code == 200
        made = _Cycle()
        ref = weakref.ref(made)
        del made
        gc.collect()
        assert ref() is None  # garbage made after startup is still collected
    assert gc.get_freeze_count() == 0
