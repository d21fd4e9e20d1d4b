"""The API docs (`/docs`: Swagger UI, `/redoc`: Redoc) served with their assets
from this app, so they work without internet access.

FastAPI's own pages load Swagger UI and Redoc from a CDN (and Redoc's fonts from
Google), which leaves a blank page on an offline or firewalled host. The assets
come from the `fastapi-offline` package (MIT), which ships the Swagger UI bundle
(Apache-2.0) and Redoc's standalone bundle (MIT) as files in its wheel; only its
files are used, the app stays a plain FastAPI app.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.openapi.docs import (
    get_redoc_html,
    get_swagger_ui_html,
    get_swagger_ui_oauth2_redirect_html,
)
from fastapi.staticfiles import StaticFiles
from starlette.responses import HTMLResponse

__all__ = ["ASSETS_URL", "DOCS_CSP", "DOCS_URL", "REDOC_URL", "assets_dir", "install_docs"]

DOCS_URL = "/docs"
REDOC_URL = "/redoc"
ASSETS_URL = "/docs/assets"
"""Under /docs: public like the pages themselves."""
OAUTH2_REDIRECT_URL = "/docs/oauth2-redirect"
DOCS_CSP = (
    "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline';"
    " script-src 'self' 'unsafe-inline'; worker-src 'self' blob:; connect-src 'self';"
    " font-src 'self' data:; frame-ancestors 'none'"
)
"""The docs pages load nothing from elsewhere, even what the bundles would: Redoc's
sidebar links a logo on its CDN (hidden when it does not load)."""
SWAGGER_PARAMETERS = {
    # The default validator badge asks validator.swagger.io about the schema: an
    # outside request on every page view, and a broken image offline.
    "validatorUrl": None,
}


def assets_dir() -> Path:
    """The directory holding swagger-ui-bundle.js, swagger-ui.css,
    redoc.standalone.js and favicon.png."""
    # An installed package is a directory on disk (StaticFiles needs a real path).
    return Path(str(files("fastapi_offline") / "static"))


def install_docs(app: FastAPI) -> None:
    """Serve /docs, /docs/oauth2-redirect and /redoc from local assets. The app
    must be made with `docs_url=None, redoc_url=None` (FastAPI's CDN pages off)."""
    app.mount(ASSETS_URL, StaticFiles(directory=assets_dir()), name="docs-assets")

    def _root(request: Request) -> str:
        return str(request.scope.get("root_path", "")).rstrip("/")

    @app.get(DOCS_URL, include_in_schema=False)
    async def swagger_ui(request: Request) -> HTMLResponse:
        root = _root(request)
        page = get_swagger_ui_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - Swagger UI",
            oauth2_redirect_url=f"{root}{OAUTH2_REDIRECT_URL}",
            swagger_js_url=f"{root}{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{root}{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            swagger_ui_parameters=SWAGGER_PARAMETERS,
        )
        page.headers["Content-Security-Policy"] = DOCS_CSP
        return page

    @app.get(OAUTH2_REDIRECT_URL, include_in_schema=False)
    async def swagger_ui_redirect() -> HTMLResponse:
        return get_swagger_ui_oauth2_redirect_html()

    @app.get(REDOC_URL, include_in_schema=False)
    async def redoc(request: Request) -> HTMLResponse:
        root = _root(request)
        page = get_redoc_html(
            openapi_url=f"{root}{app.openapi_url}",
            title=f"{app.title} - ReDoc",
            redoc_js_url=f"{root}{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{root}{ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )
        page.headers["Content-Security-Policy"] = DOCS_CSP
        return page
