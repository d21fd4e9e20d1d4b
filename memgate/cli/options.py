"""Options every command shares, and how results and errors are printed.

Every command runs on a local data directory (the gateway opened in this
process) or against a server (`--url`, `--key`); `--json` prints machine-readable
output for scripts. Exit codes: 0 done, 1 refused or failed (the message says
why), 3 usage error.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from pydantic import BaseModel, ValidationError
from rich.console import Console

from memgate.errors import InvalidInput, MemgateError

DATA_DIR_ENV = "MEMGATE_DATA_DIR"
URL_ENV = "MEMGATE_URL"
KEY_ENV = "MEMGATE_KEY"
DEFAULT_DATA_DIR = Path("data")
EXIT_FAILED = 1
USAGE_ERROR = 3
"""Exit code for bad invocations; 2 means "reject" for `memgate scan`."""

DataDirOpt = Annotated[
    Path | None,
    typer.Option(
        "--data-dir",
        "-d",
        envvar=DATA_DIR_ENV,
        help="Local data directory (default ./data).",
        show_default=False,
    ),
]
UrlOpt = Annotated[
    str | None,
    typer.Option("--url", envvar=URL_ENV, help="A memgate server, e.g. http://127.0.0.1:8765."),
]
KeyOpt = Annotated[
    str | None,
    typer.Option("--key", envvar=KEY_ENV, help="API key for --url.", show_default=False),
]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]


@dataclass(frozen=True)
class Target:
    """Where a command runs: a server (`url`) or a local data directory."""

    data_dir: Path
    url: str | None = None
    key: str | None = None
    as_json: bool = False

    @classmethod
    def of(
        cls, data_dir: Path | None, url: str | None, key: str | None, as_json: bool = False
    ) -> Target:
        return cls(
            data_dir=data_dir or Path(os.environ.get(DATA_DIR_ENV) or DEFAULT_DATA_DIR),
            url=url or None,
            key=key or None,
            as_json=as_json,
        )

    @property
    def remote(self) -> bool:
        return self.url is not None


def err_console() -> Console:
    return Console(stderr=True)


def fail(message: str, code: int = EXIT_FAILED) -> NoReturn:
    err_console().print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


@contextmanager
def reported() -> Iterator[None]:
    """Turn memgate errors (local or from a server) into a message and exit 1;
    ValueError (a bad argument the gateway refused) into a usage error."""
    try:
        yield
    except InvalidInput as exc:
        fail(f"invalid {exc.field}: {exc.reason}", USAGE_ERROR)
    except MemgateError as exc:
        fail(str(exc))
    except ValidationError as exc:
        fail(invalid_fields(exc), USAGE_ERROR)
    except ValueError as exc:
        fail(str(exc), USAGE_ERROR)


def invalid_fields(exc: ValidationError) -> str:
    """Which fields failed and why, never the value given (it may hold a secret)."""
    parts = []
    for error in exc.errors()[:5]:
        field = ".".join(str(p) for p in error.get("loc", ())) or "value"
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, InvalidInput):
            field, reason = cause.field, cause.reason
        else:
            reason = str(error.get("msg", "invalid")).removeprefix("Value error, ")
        parts.append(f"invalid {field}: {reason}")
    return "; ".join(parts)


def to_jsonable(value: Any) -> Any:
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    if isinstance(value, list | tuple):
        return [to_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {k: to_jsonable(v) for k, v in value.items()}
    return value


def emit_json(value: Any) -> None:
    typer.echo(json.dumps(to_jsonable(value), ensure_ascii=False))
