"""Structured content made readable for reviewers.

Adapters store JSON: a chat message (`{"role": ..., "content": ...}`, OpenAI
Agents items, LangChain messages), a list of them, a LangGraph state with
`messages`, or any value dict. Shown raw, a queue of these reads as noise and
reviewers learn to click approve; here each becomes either a conversation (role,
then text) or a key/value view. Strings stay plain text split into segments
(redaction tags become chips), so the template escapes everything: nothing here
builds markup.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memgate.service.ui.highlight import TAG, Segment, segments

MAX_PARSE_CHARS = 256 * 1024
MAX_DEPTH = 6
MAX_ITEMS = 50
MAX_MESSAGES = 100
_BARE_TAG = re.compile(r"(?<=[:\[,])(\s*)(" + TAG.pattern + r")")
"""A redaction tag where a JSON value was (a number replaced by a tag is no
longer valid JSON): quoted before parsing."""
_ROLE_OF_TYPE = {
    "human": "user",
    "humanmessage": "user",
    "ai": "assistant",
    "aimessage": "assistant",
    "system": "system",
    "systemmessage": "system",
    "tool": "tool",
    "toolmessage": "tool",
    "function_call": "tool call",
    "function_call_output": "tool result",
}
ROLES = ("user", "assistant", "system", "developer", "tool", "tool call", "tool result")


@dataclass(slots=True)
class Message:
    role: str
    parts: list[Segment]
    name: str | None = None
    """A tool's or participant's name, when the message has one."""

    @property
    def role_class(self) -> str:
        return self.role.replace(" ", "-") if self.role in ROLES else "other"


@dataclass(slots=True)
class Row:
    key: str
    parts: list[Segment] = field(default_factory=list)
    """The value as text, for scalars."""
    children: list[Row] = field(default_factory=list)
    """Nested rows, for objects and lists."""
    messages: list[Message] = field(default_factory=list)
    """A nested conversation (a state's `messages`)."""
    note: str | None = None
    """E.g. "12 more items not shown"."""


@dataclass(slots=True)
class Structured:
    kind: str
    """"messages" or "fields"."""
    messages: list[Message] = field(default_factory=list)
    rows: list[Row] = field(default_factory=list)

    def preview(self) -> str:
        """One line for the queue: `user: text · assistant: text` or `key: value · ...`."""
        if self.kind == "messages":
            bits = [f"{m.role}: {_text(m.parts)}" for m in self.messages]
        else:
            bits = [f"{r.key}: {_row_text(r)}" for r in self.rows]
        return " · ".join(" ".join(b.split()) for b in bits)


def parse(content: str) -> Any:
    """The JSON value in `content`, or None when it is not a JSON object or array."""
    text = content.strip()
    if not text or text[0] not in "{[" or len(text) > MAX_PARSE_CHARS:
        return None
    for candidate in (text, _BARE_TAG.sub(lambda m: f'{m.group(1)}"{m.group(2)}"', text)):
        try:
            value = json.loads(candidate)
        except (ValueError, RecursionError):
            continue
        if isinstance(value, dict | list) and value:
            return value
    return None


def structured(content: str) -> Structured | None:
    """A readable view of structured content, or None for plain text."""
    value = parse(content)
    if value is None:
        return None
    messages = _messages(value)
    if messages is not None:
        return Structured("messages", messages=messages)
    if isinstance(value, Mapping):
        return Structured("fields", rows=_rows(value, 0))
    return Structured("fields", rows=_rows({f"[{i}]": v for i, v in enumerate(value)}, 0))


def _messages(value: Any) -> list[Message] | None:
    """Messages if `value` is one, a list of them, or a state holding them only."""
    if isinstance(value, Mapping):
        one = _message(value)
        if one is not None:
            return [one]
        inner = value.get("messages")
        if len(value) == 1 and isinstance(inner, list):
            return _messages(inner)
        return None
    if isinstance(value, list) and value:
        found = [_message(v) for v in value[:MAX_MESSAGES] if isinstance(v, Mapping)]
        if len(found) == len(value[:MAX_MESSAGES]) and all(m is not None for m in found):
            return [m for m in found if m is not None]
    return None


def _message(value: Mapping[str, Any]) -> Message | None:
    data: Mapping[str, Any] = value
    if value.get("lc") == 1 and isinstance(value.get("kwargs"), Mapping):
        data = value["kwargs"]  # a LangChain serialized message
        kind = str(value.get("id", [""])[-1]).lower() if isinstance(value.get("id"), list) else ""
        role = _ROLE_OF_TYPE.get(kind) or _ROLE_OF_TYPE.get(str(data.get("type", "")).lower())
    else:
        role = value.get("role") if isinstance(value.get("role"), str) else None
        role = role or _ROLE_OF_TYPE.get(str(value.get("type", "")).lower())
    if not role:
        return None
    text = _content_text(data)
    if text is None:
        return None
    name = data.get("name") if isinstance(data.get("name"), str) else None
    return Message(role=str(role), parts=segments(text, []), name=name)


def _content_text(data: Mapping[str, Any]) -> str | None:
    """The readable text of a message: its content (a string or a list of parts),
    tool calls as `name(arguments)`, a tool result's output."""
    pieces: list[str] = []
    content = data.get("content")
    if isinstance(content, str):
        pieces.append(content)
    elif isinstance(content, list):
        for part in content[:MAX_ITEMS]:
            if isinstance(part, str):
                pieces.append(part)
            elif isinstance(part, Mapping):
                text = part.get("text")
                pieces.append(text if isinstance(text, str) else f"[{part.get('type', 'part')}]")
    elif content is not None:
        return None
    if isinstance(data.get("arguments"), str) and isinstance(data.get("name"), str):
        pieces.append(f"{data['name']}({data['arguments']})")
    if isinstance(data.get("output"), str):
        pieces.append(data["output"])
    for call in data.get("tool_calls") or ():
        if isinstance(call, Mapping):
            inner = call.get("function")
            fn: Mapping[str, Any] = inner if isinstance(inner, Mapping) else call
            args = fn.get("arguments", fn.get("args", ""))
            if not isinstance(args, str):
                args = json.dumps(args, ensure_ascii=False)
            pieces.append(f"calls {fn.get('name', '?')}({args})")
    if not pieces and content is None:
        return None
    return "\n".join(pieces)


def _scalar(value: Any) -> str:
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False)


def _rows(value: Mapping[Any, Any], depth: int) -> list[Row]:
    rows: list[Row] = []
    items = list(value.items())
    for key, item in items[:MAX_ITEMS]:
        rows.append(_row(str(key), item, depth))
    if len(items) > MAX_ITEMS:
        rows.append(Row("…", note=f"{len(items) - MAX_ITEMS} more not shown"))
    return rows


def _row(key: str, item: Any, depth: int) -> Row:
    if not isinstance(item, Mapping | list):
        return Row(key, parts=segments(_scalar(item), []))
    if depth + 1 >= MAX_DEPTH:
        return Row(key, parts=segments(json.dumps(item, ensure_ascii=False)[:2000], []))
    messages = _messages(item) if isinstance(item, list) else None
    if messages:
        return Row(key, messages=messages)
    if isinstance(item, list):
        if not item:
            return Row(key, parts=segments("[]", []))
        return Row(key, children=_rows({f"[{i}]": v for i, v in enumerate(item)}, depth + 1))
    if not item:
        return Row(key, parts=segments("{}", []))
    return Row(key, children=_rows(item, depth + 1))


def _text(parts: Sequence[Segment]) -> str:
    return "".join(p.text for p in parts)


def _row_text(row: Row) -> str:
    if row.parts:
        return _text(row.parts)
    if row.messages:
        return " · ".join(f"{m.role}: {_text(m.parts)}" for m in row.messages)
    if row.children:
        return "{" + ", ".join(f"{c.key}: {_row_text(c)}" for c in row.children[:5]) + "}"
    return row.note or ""
