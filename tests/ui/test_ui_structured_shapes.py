"""Which stored contents the review UI reads as a conversation or a value, and
which stay plain text (memgate.service.ui.structured)."""

from __future__ import annotations

import json

from memgate.service.ui.structured import structured


def _roles(content: str) -> list[str]:
    shape = structured(content)
    assert shape is not None and shape.kind == "messages", shape
    return [m.role for m in shape.messages]


def test_chat_shapes_become_messages() -> None:
    assert _roles(json.dumps({"role": "user", "content": "hi"})) == ["user"]
    langchain = {
        "lc": 1,
        "type": "constructor",
        "id": ["langchain", "schema", "messages", "AIMessage"],
        "kwargs": {
            "content": "",
            "tool_calls": [{"name": "search", "args": {"q": "port"}, "id": "t1"}],
        },
    }
    assert _roles(json.dumps(langchain)) == ["assistant"]
    shape = structured(json.dumps(langchain))
    assert shape is not None
    assert "calls search" in shape.preview() and '"q": "port"' in shape.preview()
    state = {"messages": [{"type": "human", "content": "a"}, {"type": "ai", "content": "b"}]}
    assert _roles(json.dumps(state)) == ["user", "assistant"]
    parts = {"role": "user", "content": [{"type": "text", "text": "look"}, {"type": "image_url"}]}
    shape = structured(json.dumps(parts))
    assert shape is not None and shape.preview() == "user: look [image_url]"


def test_values_become_fields_and_text_stays_text() -> None:
    shape = structured('{"card": [REDACTED:MG-PII-003:0123abcd], "n": 1}')
    assert shape is not None and shape.kind == "fields"
    assert [r.key for r in shape.rows] == ["card", "n"]
    assert shape.rows[0].parts[0].tag_rule == "MG-PII-003"
    state = {"messages": [{"role": "user", "content": "q"}], "step": 3}
    shape = structured(json.dumps(state))
    assert shape is not None and shape.kind == "fields"
    assert [m.role for m in shape.rows[0].messages] == ["user"]
    for text in ("plain words", "[1, 2", "{}", "[]", '"a string"', "42", "{not json}"):
        assert structured(text) is None, text
    assert structured("[" * 5000 + '"leaf"' + "]" * 5000) is None  # too deep to parse
    shape = structured("[" * 500 + '"leaf"' + "]" * 500)
    assert shape is not None and shape.kind == "fields"  # shown down to a bounded depth
    wide = {f"k{i}": i for i in range(500)}
    shape = structured(json.dumps(wide))
    assert (
        shape is not None and len(shape.rows) == 51 and shape.rows[-1].note == "450 more not shown"
    )
