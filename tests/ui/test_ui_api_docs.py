"""/docs and /redoc render in a real browser with every request outside the
server refused: Swagger UI lists the operations, Redoc shows the API's title."""

from __future__ import annotations

from playwright.sync_api import Page, Route
from ui_support import UIServer


def offline(page: Page, server: UIServer) -> list[str]:
    """Refuse every request that does not go to the server; return the list of
    refused URLs (filled as the page loads)."""
    refused: list[str] = []

    def handle(route: Route) -> None:
        if route.request.url.startswith(server.base_url):
            route.continue_()
        else:
            refused.append(route.request.url)
            route.abort()

    page.route("**/*", handle)
    return refused


def test_swagger_ui_renders_offline(page: Page, ui_server: UIServer) -> None:
    refused = offline(page, ui_server)
    page.goto(f"{ui_server.base_url}/docs")
    page.locator(".swagger-ui .info .title").wait_for(timeout=30_000)
    assert "memgate" in page.locator(".swagger-ui .info .title").inner_text()
    page.locator(".opblock").first.wait_for(timeout=30_000)
    assert page.locator(".opblock").count() > 20
    assert page.locator(".opblock-summary-path", has_text="/v1/memories/search").count() >= 1
    assert refused == []


def test_redoc_renders_offline(page: Page, ui_server: UIServer) -> None:
    refused = offline(page, ui_server)
    page.goto(f"{ui_server.base_url}/redoc")
    heading = page.locator("h1", has_text="memgate")
    heading.first.wait_for(timeout=30_000)
    assert page.get_by_text("/v1/memories/search").count() >= 1
    assert refused == []
