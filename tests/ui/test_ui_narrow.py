"""Every UI page on a phone-sized screen (390 x 844): nothing is wider than the
viewport, so the page never scrolls sideways (wide tables scroll inside their
own box instead)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page
from ui_helpers import shot, sign_in
from ui_support import UIServer

WIDTH = 390
LONG = "A long line without spaces: " + "x" * 300 + " and a link https://example.org/" + "y" * 120


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": WIDTH, "height": 844})
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()


def _width(page: Page) -> int:
    width: int = page.evaluate(
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
    )
    return width


def test_every_page_fits_390_px(phone: Page, ui_server: UIServer) -> None:
    ns = ["ui", "narrow", "a-rather-long-namespace-label-for-a-phone-screen"]
    memory_id = ui_server.write(LONG, ns, key="k-" + "z" * 60)
    ui_server.write("deploy token ghp_8fK2mQ9xLp3RtY7vWz1NcB4hJd6Gs0AeUi5o for staging", ns)
    history = ui_server.api("admin").get(f"/v1/memories/{memory_id}/history").json()["events"]

    phone.goto(ui_server.base_url + "/ui/login")
    assert _width(phone) <= WIDTH, "login"
    sign_in(phone, ui_server, "admin")
    pages = {
        "queue": "/ui/queue",
        "memories": "/ui/memories",
        "item": f"/ui/items/{memory_id}",
        "incident": f"/ui/incident?memory_id={memory_id}",
        "log": "/ui/log",
        "error": "/ui/no-such-page",
    }
    wide = {}
    for name, path in pages.items():
        phone.goto(ui_server.base_url + path)
        if _width(phone) > WIDTH:
            wide[name] = _width(phone)
        shot(phone, f"narrow_{name}")
    # The incident page with a dry-run plan on it.
    phone.goto(ui_server.base_url + f"/ui/incident?memory_id={memory_id}")
    phone.fill("#to_seq", str(history[0]["seq"] - 1))
    phone.fill("#reason", "narrow screen check")
    phone.click("#dry-run")
    phone.wait_for_selector("#plan")
    if _width(phone) > WIDTH:
        wide["incident plan"] = _width(phone)
    shot(phone, "narrow_incident_plan")
    assert wide == {}, f"pages wider than {WIDTH} px: {wide}"
