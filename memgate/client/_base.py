"""What the sync and async clients share: configuration and answer handling."""

from __future__ import annotations

from typing import Any

import httpx
from pydantic import ValidationError

from memgate.client._calls import Call
from memgate.client.errors import RemoteError, problem_error
from memgate.domain.memory import Reader

DEFAULT_TIMEOUT = 30.0


def auth_headers(key: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {key}"} if key else {}


def finish[T](call: Call[T], response: httpx.Response) -> T:
    """Raise the problem as a memgate error, or parse the answer into its model."""
    if response.status_code >= 400:
        raise problem_error(response)
    body: Any = None
    if response.content:
        try:
            body = response.json()
        except ValueError:
            raise RemoteError(
                response.status_code, f"{call.method} {call.path}: the answer is not JSON"
            ) from None
    try:
        return call.parse(body)
    except (ValidationError, KeyError, TypeError, AttributeError) as exc:
        raise RemoteError(
            response.status_code,
            f"{call.method} {call.path}: unexpected answer shape: {exc}",
            title="bad answer",
        ) from None


def pick_reader(given: Reader | None, default: Reader | None) -> Reader | None:
    return given if given is not None else default
