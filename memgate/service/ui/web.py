"""What every UI page shares: templates, sessions, sign-in checks, CSRF, the
security headers, and the error pages that replace FastAPI's JSON errors.

Every response of the UI passes through `UIRoute`, so the Content-Security-Policy
and the other headers are on error pages and redirects too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Coroutine, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from fastapi import Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.routing import APIRoute
from fastapi.templating import Jinja2Templates
from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape
from starlette.exceptions import HTTPException as StarletteHTTPException

from memgate.gateway import Gateway
from memgate.service.deps import MemgateState
from memgate.service.keys import Principal, Role
from memgate.service.ui.sessions import COOKIE, Session, SessionStore, tokens_match

HERE = Path(__file__).parent
PREFIX = "/ui"
CSP = (
    "default-src 'self'; script-src 'self'; object-src 'none'; frame-ancestors 'none'; "
    "base-uri 'none'; form-action 'self'"
)
SECURITY_HEADERS: Mapping[str, str] = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "no-referrer",
    "Cross-Origin-Opener-Policy": "same-origin",
}
REVIEW_ROLES = frozenset({Role.REVIEWER, Role.ADMIN})


class UIError(Exception):
    """Ends a request with a page instead of a JSON problem."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


class SignInRequired(Exception):
    """No (valid) session: go to the sign-in page and come back."""


def role_of(principal: Principal) -> str:
    return principal.role.value


def state(request: Request) -> MemgateState:
    found = getattr(request.app.state, "memgate", None)
    if not isinstance(found, MemgateState):
        raise UIError(503, "The service is starting; try again in a moment.")
    return found


def gateway(request: Request) -> Gateway:
    return state(request).gateway


def when(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def age(moment: datetime | None) -> str:
    if moment is None:
        return "-"
    seconds = max(0, int((datetime.now(UTC) - moment).total_seconds()))
    for size, unit in ((86400, "d"), (3600, "h"), (60, "min")):
        if seconds >= size:
            return f"{seconds // size} {unit}"
    return f"{seconds} s"


def ns_text(namespace: tuple[str, ...] | list[str]) -> str:
    return "/".join(namespace)


def _environment() -> Environment:
    # Autoescape everything, whatever the file name: memory content is attacker text.
    env = Environment(
        loader=FileSystemLoader(HERE / "templates"),
        autoescape=select_autoescape(default=True, default_for_string=True),
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["when"] = when
    env.filters["age"] = age
    env.filters["ns"] = ns_text
    env.filters["pretty"] = lambda value: json.dumps(value, indent=2, ensure_ascii=False)
    return env


class UI:
    """Per-app UI state: built once by `build_ui_router` (no module singletons)."""

    def __init__(self) -> None:
        self.templates = Jinja2Templates(env=_environment())
        self._sessions: SessionStore | None = None
        self.asset_versions = {
            name: hashlib.sha256((HERE / "static" / name).read_bytes()).hexdigest()[:12]
            for name in ("ui.css", "ui.js")
        }

    def sessions(self, request: Request) -> SessionStore:
        """The sessions of the running app's key store (shared by every replica on
        a PostgreSQL store)."""
        keys = state(request).keys
        if self._sessions is None or self._sessions.records is not keys:
            self._sessions = SessionStore(keys)
        return self._sessions

    def session(self, request: Request) -> Session:
        """The signed-in session, or SignInRequired. A session whose key was revoked
        since sign-in ends here."""
        token = request.cookies.get(COOKIE)
        sessions = self.sessions(request)
        session = sessions.get(token)
        if session is None:
            raise SignInRequired
        info = state(request).keys.get(session.principal.key_id)
        if info is None or info.revoked_at is not None:
            sessions.end(token)
            raise SignInRequired
        return session

    def require_admin(self, session: Session) -> None:
        if session.principal.role is not Role.ADMIN:
            raise UIError(403, "This page is for admin keys only.")

    @staticmethod
    async def check_csrf(request: Request, session: Session) -> Any:
        """The parsed form, if its `csrf` field matches the session; else 403."""
        form = await request.form()
        token = form.get("csrf")
        if not isinstance(token, str) or not tokens_match(session.csrf, token):
            raise UIError(403, "The form's CSRF token is missing or wrong. Reload the page.")
        return form

    def render(
        self,
        request: Request,
        name: str,
        context: dict[str, Any],
        *,
        session: Session | None = None,
        status: int = 200,
    ) -> HTMLResponse:
        base: dict[str, Any] = {
            "prefix": PREFIX,
            "assets": self.asset_versions,
            "principal": session.principal if session else None,
            "role": role_of(session.principal) if session else None,
            "csrf": session.csrf if session else "",
            "notices": session.take_notices() if session else [],
        }
        base.update(context)
        response: HTMLResponse = self.templates.TemplateResponse(
            request, name, base, status_code=status
        )
        return response

    def error_page(self, request: Request, status: int, message: str) -> HTMLResponse:
        session = None
        if isinstance(getattr(request.app.state, "memgate", None), MemgateState):
            session = self.sessions(request).get(request.cookies.get(COOKIE))
        return self.render(
            request,
            "error.html",
            {"status": status, "message": message},
            session=session,
            status=status,
        )


def secure(response: Response, *, cache: bool = False) -> Response:
    for name, value in SECURITY_HEADERS.items():
        response.headers[name] = value
    if not cache:
        response.headers["Cache-Control"] = "no-store"
    return response


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for error in exc.errors():
        where = ".".join(str(p) for p in error.get("loc", ())[1:]) or "input"
        parts.append(f"{where}: {error.get('msg', 'invalid')}")
    return "Invalid input. " + "; ".join(parts)


def route_class(ui: UI) -> type[APIRoute]:
    """An APIRoute whose responses all carry the security headers and whose
    errors are HTML pages (a browser user never sees problem JSON)."""

    class UIRoute(APIRoute):
        def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
            inner = super().get_route_handler()

            async def handler(request: Request) -> Response:
                response: Response
                try:
                    response = await inner(request)
                except SignInRequired:
                    target = request.url.path
                    if request.method == "GET" and request.url.query:
                        target += "?" + request.url.query
                    login = request.url_for("ui_login").include_query_params(next=target)
                    response = RedirectResponse(str(login.path) + "?" + login.query, 303)
                except UIError as exc:
                    response = ui.error_page(request, exc.status, exc.message)
                except RequestValidationError as exc:
                    response = ui.error_page(request, 422, _validation_message(exc))
                except StarletteHTTPException as exc:
                    response = ui.error_page(request, exc.status_code, str(exc.detail))
                return secure(response, cache=request.url.path.startswith(PREFIX + "/static/"))

            return handler

    return UIRoute
