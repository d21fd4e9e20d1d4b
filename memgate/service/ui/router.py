"""The review web UI at /ui: server-rendered pages over the in-process Gateway.

    app.include_router(build_ui_router())

Sign-in takes a reviewer or admin API key (agent keys are refused) and opens a
server-side session: the cookie is an opaque token (HttpOnly, SameSite=Strict,
Path=/ui). Every form carries the session's CSRF token and every POST checks it;
the sign-in form, which has no session yet, uses a double-submit cookie. Pages
are Jinja2 templates with autoescape on, scripts and styles are local files,
and a strict Content-Security-Policy forbids anything inline.
"""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Query, Request, Response
from fastapi.responses import RedirectResponse

from memgate.service.ui.asks import add_ask_routes
from memgate.service.ui.browse import add_browse_routes
from memgate.service.ui.incident import add_incident_routes
from memgate.service.ui.review import add_review_routes, safe_back
from memgate.service.ui.sessions import COOKIE, LOGIN_COOKIE, tokens_match
from memgate.service.ui.web import (
    HERE,
    PREFIX,
    REVIEW_ROLES,
    UI,
    UIError,
    role_of,
    route_class,
    state,
)

__all__ = ["build_ui_router"]

_STATIC_TYPES = {".css": "text/css; charset=utf-8", ".js": "text/javascript; charset=utf-8"}


def _static_files() -> dict[str, tuple[bytes, str]]:
    """The UI's assets, read once: only these names are served."""
    files = {}
    for path in sorted((HERE / "static").iterdir()):
        if path.suffix in _STATIC_TYPES:
            files[path.name] = (path.read_bytes(), _STATIC_TYPES[path.suffix])
    return files


def build_ui_router() -> APIRouter:
    """The UI's routes, with their own sessions (one set per app)."""
    ui = UI()
    router = APIRouter(prefix=PREFIX, route_class=route_class(ui), include_in_schema=False)
    static = _static_files()

    @router.get("", name="ui_root")
    @router.get("/", name="ui_index")
    async def index(request: Request) -> Response:
        ui.session(request)
        return RedirectResponse(PREFIX + "/queue", 303)

    @router.get("/static/{name}", name="ui_static")
    async def asset(name: str) -> Response:
        found = static.get(name)
        if found is None:
            raise UIError(404, "No such file.")
        body, media = found
        response = Response(body, media_type=media)
        response.headers["Cache-Control"] = "public, max-age=3600"
        return response

    @router.get("/login", name="ui_login")
    async def login_form(request: Request, next: str = Query("", max_length=2000)) -> Response:
        token = secrets.token_urlsafe(32)
        response = ui.render(
            request,
            "login.html",
            {"login_csrf": token, "next": safe_back(next, PREFIX + "/queue"), "error": None},
        )
        _set_cookie(request, response, LOGIN_COOKIE, token, max_age=3600)
        return response

    @router.post("/login", name="ui_login_post")
    async def login(request: Request) -> Response:
        form = await request.form()
        next_path = safe_back(form.get("next"), PREFIX + "/queue")
        given = form.get("csrf")
        cookie = request.cookies.get(LOGIN_COOKIE, "")
        if not isinstance(given, str) or not tokens_match(cookie, given):
            raise UIError(403, "The sign-in form expired or its CSRF token is wrong. Reload it.")
        raw = str(form.get("key") or "").strip()
        principal = state(request).keys.authenticate(raw) if raw else None
        error = None
        if principal is None:
            error = "Unknown or revoked key."
        elif principal.role not in REVIEW_ROLES:
            error = f"A {role_of(principal)} key cannot sign in here: use a reviewer or admin key."
        if error is not None or principal is None:
            token = secrets.token_urlsafe(32)
            status = 401 if principal is None else 403
            response = ui.render(
                request,
                "login.html",
                {"login_csrf": token, "next": next_path, "error": error},
                status=status,
            )
            _set_cookie(request, response, LOGIN_COOKIE, token, max_age=3600)
            return response
        ui.sessions(request).end(request.cookies.get(COOKIE))  # no session fixation
        token, _ = ui.sessions(request).create(principal)
        redirect = RedirectResponse(next_path, 303)
        _set_cookie(request, redirect, COOKIE, token, max_age=None)
        _drop_cookie(redirect, LOGIN_COOKIE)
        return redirect

    @router.post("/logout", name="ui_logout")
    async def logout(request: Request) -> Response:
        session = ui.session(request)
        await ui.check_csrf(request, session)
        ui.sessions(request).end(request.cookies.get(COOKIE))
        response = RedirectResponse(PREFIX + "/login", 303)
        _drop_cookie(response, COOKIE)
        return response

    add_review_routes(router, ui)
    add_browse_routes(router, ui)
    add_incident_routes(router, ui)
    add_ask_routes(router, ui)

    @router.api_route("/{rest:path}", methods=["GET", "POST"], name="ui_not_found")
    async def not_found(rest: str) -> Response:
        """Unknown UI paths get the UI's 404 page (and its headers), not API JSON."""
        raise UIError(404, "No such page.")

    return router


def _set_cookie(
    request: Request, response: Response, name: str, value: str, *, max_age: int | None
) -> None:
    response.set_cookie(
        name,
        value,
        max_age=max_age,
        path=PREFIX,
        httponly=True,
        samesite="strict",
        secure=request.url.scheme == "https",
    )


def _drop_cookie(response: Response, name: str) -> None:
    response.delete_cookie(name, path=PREFIX, httponly=True, samesite="strict")
