"""What a client may send as identifiers and metadata: the one validator every
edge uses (the HTTP schemas, the CLI, the adapters and the Gateway's entry points).

Identifiers are printable text of bounded length. "Printable" is Python's
`str.isprintable()`: no control characters (NUL, tab, newline, DEL, C1), no
format characters (zero-width, bidi controls, tag characters), no line or
paragraph separators, no lone surrogates, no unassigned code points; any other
Unicode letter, mark, digit, symbol or the ASCII space is fine. An identifier is
never blank. The bounds, in characters:

    namespace         1..32 labels, each 1..128, without '/'
    key               1..256
    session_id        1..256
    call_id           1..256
    agent_id          1..256 from a client; 1..320 recorded (room for the
                      `key:<id>/` prefix the service puts in front)
    metadata key      1..128

Metadata is plain JSON (objects, arrays, strings, finite numbers, booleans,
null) of at most 8 levels, 512 members and elements in all, and 8 KiB as
compact UTF-8 JSON; its keys are identifiers. A metadata filter (search) names
at most 32 keys. These bound the work one request can cause: metadata is
scanned like content, and every filter key is one SQL condition.

Every check raises `InvalidInput(field, reason)`, a `ValueError`, so pydantic
validators can call them as they are. Messages never quote the value.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Mapping
from typing import Any

from memgate.errors import InvalidInput

MAX_LABELS = 32
MAX_LABEL_CHARS = 128
MAX_KEY_CHARS = 256
MAX_ID_CHARS = 256
MAX_AGENT_ID_CHARS = 320
"""An agent id as recorded: the service prefixes the client's with `key:<id>/`."""
MAX_METADATA_KEY_CHARS = 128
MAX_METADATA_BYTES = 8192
MAX_METADATA_DEPTH = 8
MAX_METADATA_ITEMS = 512
"""Object members plus array elements, at every level together."""
MAX_FILTER_KEYS = 32

__all__ = [
    "MAX_AGENT_ID_CHARS",
    "MAX_FILTER_KEYS",
    "MAX_ID_CHARS",
    "MAX_KEY_CHARS",
    "MAX_LABELS",
    "MAX_LABEL_CHARS",
    "MAX_METADATA_BYTES",
    "MAX_METADATA_DEPTH",
    "MAX_METADATA_ITEMS",
    "MAX_METADATA_KEY_CHARS",
    "check_filter",
    "check_identifier",
    "check_label",
    "check_metadata",
    "check_namespace",
    "identifier_problem",
]


def identifier_problem(value: object, max_chars: int) -> str | None:
    """Why `value` is not an identifier of at most `max_chars` characters, or None."""
    if not isinstance(value, str):
        return "must be a string"
    if not value:
        return "must not be empty"
    if len(value) > max_chars:
        return f"must be at most {max_chars} characters"
    if not value.isprintable():
        bad = next(c for c in value if not c.isprintable())
        return (
            f"must be printable: character U+{ord(bad):04X} at position {value.index(bad)}"
            " is a control, format or separator character"
        )
    if value.isspace():
        return "must not be blank"
    return None


def check_identifier(value: str, field: str, max_chars: int = MAX_ID_CHARS) -> str:
    """`value` if it is an identifier; else InvalidInput naming `field`."""
    problem = identifier_problem(value, max_chars)
    if problem is not None:
        raise InvalidInput(field, problem)
    return value


def check_label(value: str, field: str = "namespace") -> str:
    """One namespace label: an identifier of at most 128 characters without '/'."""
    check_identifier(value, field, MAX_LABEL_CHARS)
    if "/" in value:
        raise InvalidInput(field, "must not contain '/' (labels are joined by '/')")
    return value


def check_namespace(
    labels: Iterable[str], field: str = "namespace", *, allow_empty: bool = False
) -> tuple[str, ...]:
    """A namespace (a prefix when `allow_empty`): 1..32 labels, each checked."""
    found = tuple(labels)
    if not found and not allow_empty:
        raise InvalidInput(field, "must have at least one label")
    if len(found) > MAX_LABELS:
        raise InvalidInput(field, f"must have at most {MAX_LABELS} labels")
    for index, label in enumerate(found):
        check_label(label, f"{field}.{index}")
    return found


def check_metadata(value: Mapping[str, Any], field: str = "metadata") -> Mapping[str, Any]:
    """Plain JSON within the depth, item and size bounds, keys being identifiers.
    Walks iteratively, so no input can exhaust the stack. Errors name `field`,
    never a key inside it (a key is client text, and messages never repeat it)."""
    if not isinstance(value, Mapping):
        raise InvalidInput(field, "must be a JSON object")
    items = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, Mapping | list | tuple):
            if depth > MAX_METADATA_DEPTH:
                raise InvalidInput(field, f"nested deeper than {MAX_METADATA_DEPTH} levels")
            items += len(node)
            if items > MAX_METADATA_ITEMS:
                raise InvalidInput(field, f"has more than {MAX_METADATA_ITEMS} members in all")
            if isinstance(node, Mapping):
                for key, child in node.items():
                    problem = identifier_problem(key, MAX_METADATA_KEY_CHARS)
                    if problem is not None:
                        raise InvalidInput(field, f"a key {problem}")
                    stack.append((child, depth + 1))
            else:
                stack.extend((child, depth + 1) for child in node)
        elif isinstance(node, float) and not math.isfinite(node):
            raise InvalidInput(field, "numbers must be finite (plain JSON)")
        elif node is not None and not isinstance(node, str | int | float | bool):
            raise InvalidInput(field, f"{type(node).__name__} is not plain JSON")
    try:
        text = json.dumps(value, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(field, f"must be plain JSON: {exc}") from None
    try:
        size = len(text.encode("utf-8"))
    except UnicodeEncodeError:
        raise InvalidInput(field, "holds a lone surrogate (not UTF-8 text)") from None
    if size > MAX_METADATA_BYTES:
        raise InvalidInput(
            field, f"is {size} bytes as JSON; at most {MAX_METADATA_BYTES} bytes are taken"
        )
    return value


def check_filter(value: Mapping[str, Any], field: str = "metadata") -> Mapping[str, Any]:
    """A metadata filter: at most 32 keys (each one condition), otherwise metadata."""
    if isinstance(value, Mapping) and len(value) > MAX_FILTER_KEYS:
        raise InvalidInput(field, f"filters on at most {MAX_FILTER_KEYS} keys")
    return check_metadata(value, field)
