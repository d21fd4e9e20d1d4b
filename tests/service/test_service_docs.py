"""The API docs work offline: /docs and /redoc reference only the app's own
assets (no CDN, no web fonts, no validator badge), and every asset they name is
served by the app itself."""

from __future__ import annotations

import re

import pytest
from service_support import Service

pytestmark = pytest.mark.anyio

REFERENCE = re.compile(
    r"""(?:src|href|spec-url)\s*=\s*["']([^"']+)["']|url\s*:\s*["']([^"']+)["']"""
)


def references(html: str) -> list[str]:
    """Every URL an HTML page loads: src/href attributes, Redoc's spec-url and the
    `url:` of the Swagger UI configuration (the OpenAPI schema)."""
    return [a or b for a, b in REFERENCE.findall(html)]


@pytest.mark.parametrize(
    ("page", "assets"),
    [
        ("/docs", {"swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"}),
        ("/redoc", {"redoc.standalone.js", "favicon.png"}),
    ],
)
async def test_docs_pages_load_only_local_assets(
    service: Service, page: str, assets: set[str]
) -> None:
    async with service.client() as anonymous:
        answer = await anonymous.get(page)
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/html")
        html = answer.text
        assert "http://" not in html and "https://" not in html, "an outside URL in " + page
        found = references(html)
        names = {url.rsplit("/", 1)[-1] for url in found}
        assert assets <= names, found
        assert "/openapi.json" in found, found
        for url in found:
            assert url.startswith("/") and not url.startswith("//"), url
            fetched = await anonymous.get(url)
            assert fetched.status_code == 200, url
            assert len(fetched.content) > 1000, url
        assert "img-src 'self' data:" in answer.headers["content-security-policy"]
        schema = await anonymous.get("/openapi.json")
        assert schema.status_code == 200
        assert schema.json()["info"]["title"] == "memgate"


async def test_docs_assets_have_their_content_types(service: Service) -> None:
    async with service.client() as anonymous:
        types = {
            name: (await anonymous.get(f"/docs/assets/{name}")).headers["content-type"]
            for name in ("swagger-ui-bundle.js", "swagger-ui.css", "redoc.standalone.js")
        }
        missing = await anonymous.get("/docs/assets/nothing-here.js")
        redirect = await anonymous.get("/docs/oauth2-redirect")
    assert "javascript" in types["swagger-ui-bundle.js"]
    assert "javascript" in types["redoc.standalone.js"]
    assert types["swagger-ui.css"].startswith("text/css")
    assert missing.status_code == 404
    assert redirect.status_code == 200
    assert "https://" not in redirect.text
