"""Problem responses turned back into memgate errors.

A server answers errors as RFC 7807-style problem JSON. The client raises the
memgate error a local Gateway would have raised (so `except NotFound:` works the
same in both modes), as a subclass of `RemoteError` that also carries the HTTP
status, the problem type and the per-field errors:

    RemoteError (MemgateError)        any problem answer; .status .detail .errors
    ├── Unauthorized                  401: no key or a bad one
    ├── Forbidden                     403: the key's role or namespace scope
    │   └── RemoteWriteForbidden (WriteForbidden)     a source the key may not declare,
    │                                                 another writer's memory; .field
    ├── InvalidRequest                422 / 400: the request did not validate
    ├── RemoteNotFound (NotFound)                     404
    ├── RemoteIllegalTransition (IllegalTransition)   409 illegal state change
    ├── RemoteReviewRefused (ReviewRefused)           own write, missing reason
    ├── RemoteWriteRefused (WriteRefused)             key carries a secret
    ├── RemoteOversizedWrite (OversizedWrite)         413
    ├── RemoteRollbackInProgress (RollbackInProgress) 503 + Retry-After
    └── Unavailable                   503 for another reason (store, graph); .retry_after
        └── RemoteRecallUnavailable (RecallUnavailable)  vector / hybrid search is off

Other answers (409 conflict, 5xx) are a plain RemoteError.
"""

from __future__ import annotations

import re
from typing import Any

import httpx

from memgate.errors import (
    IllegalTransition,
    MemgateError,
    NotFound,
    OversizedWrite,
    RecallUnavailable,
    ReviewRefused,
    RollbackInProgress,
    WriteForbidden,
    WriteRefused,
)

_TRANSITION = re.compile(r"memory (\S+): illegal transition (\S+) -> (\S+)")
_OVERSIZE = re.compile(r"(\d+) bytes exceeds the limit of (\d+)")
_DEFAULT_RETRY = 1.0


class RemoteError(MemgateError):
    """A server answered with a problem (or not at all: status 0)."""

    def __init__(
        self,
        status: int,
        detail: str,
        *,
        title: str = "",
        problem_type: str = "about:blank",
        errors: list[dict[str, Any]] | None = None,
    ) -> None:
        # NOTE: Exception.__init__ directly: the memgate base classes mixed in below
        # have their own constructor arguments, which a problem answer does not carry.
        Exception.__init__(self, f"{status} {title}: {detail}" if title else f"{status}: {detail}")
        self.status = status
        self.detail = detail
        self.title = title
        self.problem_type = problem_type
        self.errors = errors or []


class Unauthorized(RemoteError):
    """401: the key is missing, unknown or revoked."""


class Forbidden(RemoteError):
    """403: the key's role or namespace scope does not allow this."""


class InvalidRequest(RemoteError):
    """400 / 422: the request did not validate; `errors` names the fields."""


class Unavailable(RemoteError):
    """503 for another reason than a rollback (store or graph down): retry later."""

    def __init__(self, status: int, detail: str, *, retry_after: float | None, **kw: Any) -> None:
        super().__init__(status, detail, **kw)
        self.retry_after = retry_after


class RemoteRecallUnavailable(Unavailable, RecallUnavailable):
    """503 `vector-unavailable`: the server has no semantic recall (the detail says
    which extra to install there); text search works."""


class RemoteNotFound(RemoteError, NotFound):
    pass


class RemoteReviewRefused(RemoteError, ReviewRefused):
    pass


class RemoteWriteRefused(RemoteError, WriteRefused):
    pass


class RemoteWriteForbidden(Forbidden, WriteForbidden):
    """403: the key may not make this write; `field` names what (source, key)."""

    def __init__(self, status: int, detail: str, **kw: Any) -> None:
        RemoteError.__init__(self, status, detail, **kw)
        first = self.errors[0] if self.errors else {}
        self.field = str(first.get("field", "body")).removeprefix("body.")
        self.reason = str(first.get("reason", detail))


class RemoteIllegalTransition(RemoteError, IllegalTransition):
    def __init__(self, status: int, detail: str, **kw: Any) -> None:
        RemoteError.__init__(self, status, detail, **kw)
        found = _TRANSITION.search(detail)
        self.memory_id = found.group(1) if found else ""
        self.before = found.group(2) if found else None
        self.after = found.group(3) if found else None


class RemoteOversizedWrite(RemoteError, OversizedWrite):
    def __init__(self, status: int, detail: str, **kw: Any) -> None:
        RemoteError.__init__(self, status, detail, **kw)
        found = _OVERSIZE.search(detail)
        self.size = int(found.group(1)) if found else 0
        self.limit = int(found.group(2)) if found else 0


class RemoteRollbackInProgress(RemoteError, RollbackInProgress):
    def __init__(self, status: int, detail: str, *, retry_after: float, **kw: Any) -> None:
        RemoteError.__init__(self, status, detail, **kw)
        self.retry_after = retry_after


_BY_TYPE: dict[str, type[RemoteError]] = {
    "not-found": RemoteNotFound,
    "illegal-transition": RemoteIllegalTransition,
    "review-refused": RemoteReviewRefused,
    "write-refused": RemoteWriteRefused,
    "write-forbidden": RemoteWriteForbidden,
    "oversized": RemoteOversizedWrite,
    "oversized-write": RemoteOversizedWrite,
    "oversize": RemoteOversizedWrite,
    "payload-too-large": RemoteOversizedWrite,
    "unauthorized": Unauthorized,
    "unavailable": Unavailable,
    "vector-unavailable": RemoteRecallUnavailable,
    "forbidden": Forbidden,
    "validation": InvalidRequest,
    "validation-error": InvalidRequest,
    "invalid-request": InvalidRequest,
}
_BY_STATUS: dict[int, type[RemoteError]] = {
    400: InvalidRequest,
    401: Unauthorized,
    403: Forbidden,
    404: RemoteNotFound,
    413: RemoteOversizedWrite,
    422: InvalidRequest,
}


def _slug(problem_type: str) -> str:
    """'https://memgate.dev/problems/Illegal_Transition' -> 'illegal-transition'."""
    return problem_type.rstrip("/").rsplit("/", 1)[-1].rsplit(":", 1)[-1].lower().replace("_", "-")


def _retry_after(response: httpx.Response) -> float | None:
    raw = response.headers.get("retry-after")
    if raw is None:
        return None
    try:
        return max(float(raw), 0.0)
    except ValueError:
        return _DEFAULT_RETRY


def problem_error(response: httpx.Response) -> RemoteError:
    """The error for a 4xx/5xx answer, chosen by the problem type, then the status."""
    try:
        body = response.json()
    except ValueError:
        body = None
    if not isinstance(body, dict):
        body = {"detail": response.text[:500] or response.reason_phrase}
    detail = body.get("detail")
    if not isinstance(detail, str):
        # FastAPI's own validation answers put a list of errors in `detail`.
        detail = str(detail) if detail is not None else response.reason_phrase
    errors = body.get("errors")
    kw: dict[str, Any] = {
        "title": str(body.get("title") or response.reason_phrase),
        "problem_type": str(body.get("type") or "about:blank"),
        "errors": errors if isinstance(errors, list) else None,
    }
    status = response.status_code
    retry = _retry_after(response)
    slug = _slug(kw["problem_type"])
    if slug in ("rollback", "rollback-in-progress"):
        return RemoteRollbackInProgress(
            status, detail, retry_after=_DEFAULT_RETRY if retry is None else retry, **kw
        )
    cls = _BY_TYPE.get(slug)
    if cls is None and status == 409 and _TRANSITION.search(detail):
        cls = RemoteIllegalTransition
    if cls is None:
        cls = _BY_STATUS.get(status, RemoteError)
    if cls is RemoteRecallUnavailable:
        return RemoteRecallUnavailable(status, detail, retry_after=retry, **kw)
    if cls is Unavailable or (cls is RemoteError and status == 503):
        return Unavailable(status, detail, retry_after=retry, **kw)
    return cls(status, detail, **kw)


def transport_error(url: str, exc: httpx.HTTPError) -> RemoteError:
    """No answer at all (refused, timed out): status 0, the cause in the detail."""
    return RemoteError(0, f"cannot reach {url}: {exc}", title="unreachable")
