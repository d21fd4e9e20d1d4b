"""Options every command shares, and how results and errors are printed.

Every command runs on a local data directory (the gateway opened in this
process) or against a server (`--url`, `--key`); `--json` prints machine-readable
output for scripts, errors included: with `--json` an error is one JSON object on
standard output, `{"error": {"type", "message", "exit_code", ...}}` (ERROR_SHAPE),
and nothing on standard error.

Exit codes (EXIT_CODES): 0 done, 1 refused or failed (the message says why), 3
usage error (a bad option or argument, a rollback that needs `--yes` without a
terminal), 130 interrupted. `memgate scan` keeps its own: 0 approve, 1 review,
2 reject, 3 usage.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from pydantic import BaseModel, ValidationError
from rich.console import Console

from memgate.errors import InvalidInput, MemgateError, NotFound

DATA_DIR_ENV = "MEMGATE_DATA_DIR"
URL_ENV = "MEMGATE_URL"
KEY_ENV = "MEMGATE_KEY"
DEFAULT_DATA_DIR = Path("data")
EXIT_OK = 0
EXIT_FAILED = 1
USAGE_ERROR = 3
"""Exit code for bad invocations; 2 means "reject" for `memgate scan`."""
EXIT_INTERRUPTED = 130
EXIT_CODES = {
    EXIT_OK: "done",
    EXIT_FAILED: "refused or failed (the message says why)",
    USAGE_ERROR: "usage error (a bad option or argument; a rollback without --yes and no terminal)",
    EXIT_INTERRUPTED: "interrupted (Ctrl-C) or aborted at a prompt",
}
EXIT_HELP = (
    "Exit codes: 0 done, 1 refused or failed, 3 usage error, 130 interrupted;"
    " scan: 0 approve, 1 review, 2 reject. With --json, errors too are JSON on stdout."
)
ERROR_SHAPE = {"error": {"type": "str", "message": "str", "exit_code": "int"}}
"""What `--json` prints for any error (some types add fields: `field` for invalid_input)."""
PIPED_WIDTH = 4096
"""Console width when output is not a terminal: rich would cut lines at 80 columns,
and ids, fingerprints and paths must stay whole to be copied."""

_JSON_OUTPUT: ContextVar[bool] = ContextVar("memgate_json_output", default=False)
"""Set by the `--json` flag as it is parsed, reset by the root callback at the
start of each invocation (a test runner invokes the app many times in one process)."""


def reset_output_mode() -> None:
    _JSON_OUTPUT.set(False)


def _json_flag(value: bool) -> bool:
    if value:
        _JSON_OUTPUT.set(True)
    return value


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
StoreOpt = Annotated[
    str | None,
    typer.Option(
        "--store",
        envvar="MEMGATE_STORE",
        help="The store the replicas share (postgresql://...) instead of the data"
        " directory's SQLite database; the keys still come from the data directory"
        " or MEMGATE_LOG_KEY.",
        show_default=False,
    ),
]
JsonOpt = Annotated[
    bool,
    typer.Option(
        "--json", help="Print JSON for scripts (errors too: one JSON object).", callback=_json_flag
    ),
]


@dataclass(frozen=True)
class Target:
    """Where a command runs: a server (`url`) or a local data directory."""

    data_dir: Path
    url: str | None = None
    key: str | None = None
    as_json: bool = False
    store: str | None = None
    """A shared store's URL (--store / MEMGATE_STORE), for local commands."""

    @classmethod
    def of(
        cls,
        data_dir: Path | None,
        url: str | None,
        key: str | None,
        as_json: bool = False,
        *,
        store: str | None = None,
    ) -> Target:
        return cls(
            data_dir=data_dir or Path(os.environ.get(DATA_DIR_ENV) or DEFAULT_DATA_DIR),
            url=url or None,
            key=key or None,
            as_json=as_json,
            store=store or None,
        )

    @property
    def remote(self) -> bool:
        return self.url is not None


def plain_flags_in_help() -> None:
    """Show flags in `--help` without a value type.

    NOTE: typer's rich help (0.2x) prints `<bool>` after every flag, so
    `--dry-run <bool>` reads as if it took a value (its plain formatter already
    leaves flags bare). This makes the rich panel do the same; a typer without
    the method is left as it is."""
    core = getattr(typer, "core", None)
    option = getattr(core, "TyperOption", None)
    shown = getattr(option, "display_type_rich", None)
    if option is None or shown is None or getattr(shown, "memgate_plain_flags", False):
        return

    def display_type_rich(self: Any, ctx: Any) -> Any:
        if getattr(self, "is_flag", False) and not getattr(self, "count", False):
            return None
        return shown(self, ctx)

    display_type_rich.memgate_plain_flags = True  # type: ignore[attr-defined]
    option.display_type_rich = display_type_rich


def console(*, stderr: bool = False, **options: Any) -> Console:
    """A rich console for a command's output. On a terminal it wraps to the
    terminal's width; piped or redirected (and COLUMNS unset) it does not cut
    lines at 80 columns, so tables keep ids whole."""
    made = Console(stderr=stderr, **options)
    if made.is_terminal or "width" in options or os.environ.get("COLUMNS", "").isdigit():
        return made
    return Console(stderr=stderr, width=PIPED_WIDTH, **options)


def err_console() -> Console:
    return console(stderr=True)


def json_requested(argv: list[str] | None = None) -> bool:
    """Whether the running command was given `--json`: the flag once parsed, else
    the command line itself (an error while parsing it)."""
    if _JSON_OUTPUT.get():
        return True
    words = sys.argv[1:] if argv is None else argv
    return "--json" in (words[: words.index("--")] if "--" in words else words)


def error_json(message: str, code: int, kind: str | None = None, **details: Any) -> dict[str, Any]:
    """The one error shape of `--json` (ERROR_SHAPE)."""
    if kind is None:
        kind = "usage" if code == USAGE_ERROR else "failed"
    return {"error": {"type": kind, "message": message, "exit_code": code, **details}}


def fail(
    message: str, code: int = EXIT_FAILED, kind: str | None = None, **details: Any
) -> NoReturn:
    """Report an error and exit with `code`: a line on stderr, or with `--json`
    the error object on stdout."""
    if json_requested():
        typer.echo(json.dumps(error_json(message, code, kind, **details), ensure_ascii=False))
    else:
        err_console().print(f"[red]error:[/red] {message}", highlight=False, soft_wrap=True)
    raise typer.Exit(code)


def error_kind(exc: BaseException) -> str:
    """`not_found` for NotFound, `rollback_in_progress` for RollbackInProgress, ..."""
    return re.sub(r"(?<!^)(?=[A-Z])", "_", type(exc).__name__).lower()


@contextmanager
def reported() -> Iterator[None]:
    """Turn memgate errors (local or from a server) into a message and exit 1;
    ValueError (a bad argument the gateway refused) into a usage error."""
    try:
        yield
    except InvalidInput as exc:
        fail(f"invalid {exc.field}: {exc.reason}", USAGE_ERROR, "invalid_input", field=exc.field)
    except NotFound as exc:
        fail(str(exc), EXIT_FAILED, "not_found")
    except MemgateError as exc:
        fail(str(exc), EXIT_FAILED, error_kind(exc))
    except ValidationError as exc:
        names = field_names(exc)
        fail(invalid_fields(exc), USAGE_ERROR, "invalid_input", field=names[0], fields=names)
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


def field_names(exc: ValidationError) -> list[str]:
    """The fields a ValidationError names (for the JSON error), never the values."""
    names: list[str] = []
    for error in exc.errors()[:5]:
        cause = (error.get("ctx") or {}).get("error")
        if isinstance(cause, InvalidInput):
            names.append(cause.field)
        else:
            names.append(".".join(str(p) for p in error.get("loc", ())) or "value")
    return names or ["value"]


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
