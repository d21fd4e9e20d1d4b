"""Helpers shared by the UI tests (fixtures live in conftest.py)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import Page

if TYPE_CHECKING:
    from ui_support import UIServer

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts" / "ui"


def sign_in(page: Page, server: UIServer, who: str) -> None:
    page.goto(server.base_url + "/ui/")
    page.fill("#key", server.keys[who])
    page.click("button[type=submit]")
    page.wait_for_url(re.compile(r".*/ui/queue.*"))


def shot(page: Page, name: str) -> None:
    """A full-page screenshot for a person to look at (tests/artifacts/ui/)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def notices(page: Page) -> str:
    return " | ".join(page.locator(".notice").all_inner_texts())
