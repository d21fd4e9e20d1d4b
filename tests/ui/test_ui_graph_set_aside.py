"""The review UI with a graph that set a row aside (a read whose session holds
NUL, left by an older version): the log page lists the row with its reason,
and the item page says the graph is behind instead of "no reader"."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect
from ui_helpers import shot, sign_in
from ui_support import UIServer, _serve

from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryWrite, Target
from memgate.domain.ports import ReadRecord


async def _seed(data: Path) -> str:
    gw = await open_gateway(data, graph="embedded")
    try:
        receipt = await gw.write(
            MemoryWrite(
                content="The vendor portal moved to a new address.",
                namespace=("ui", "aside"),
                source=Source.USER,
                session_id="s1",
                target=Target.LONG,
            )
        )
        await gw.store.record_reads(
            [ReadRecord(memory_id=receipt.id, at=datetime.now(UTC), session_id="s\x00")]
        )
        assert await gw.graph.sync(within=15.0)  # type: ignore[union-attr]
        return receipt.id
    finally:
        await gw.close()


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[UIServer, str]]:
    data = tmp_path_factory.mktemp("ui-set-aside")
    # Its own thread: Playwright's sync API may keep an event loop in this one.
    with ThreadPoolExecutor(1) as pool:
        memory_id = pool.submit(asyncio.run, _seed(data)).result()
    with _serve(data, "embedded") as running:
        yield running, memory_id


def test_log_page_lists_set_aside_rows_and_item_page_says_graph_behind(
    page: Page, seeded: tuple[UIServer, str]
) -> None:
    server, memory_id = seeded
    sign_in(page, server, "admin")
    page.goto(f"{server.base_url}/ui/log")
    expect(page.locator("#projection-set-aside")).to_contain_text("1 row(s)")
    rows = page.locator("table.set-aside-rows")
    expect(rows).to_contain_text("control character in session_id")
    expect(rows).to_contain_text(memory_id)
    expect(page.locator(".graph-unavailable")).to_have_count(0)
    shot(page, "log_set_aside")

    page.goto(f"{server.base_url}/ui/items/{memory_id}")
    readers = page.locator("section:has(h2:text('Readers'))")
    expect(readers.locator(".graph-behind")).to_contain_text("Graph behind the log")
    expect(readers).not_to_contain_text("No reader in the graph")
    shot(page, "item_graph_behind")
