"""Structured content in a real Chromium: a chat message, an OpenAI Agents
conversation and a LangGraph value dict read as role/content and key/value, in
the queue and on the item page, not as raw JSON; a redacted value inside stays a
tag; markup inside a value stays text."""

from __future__ import annotations

import json

from playwright.sync_api import Page, expect
from ui_helpers import shot, sign_in
from ui_support import UIServer

CHAT = {"role": "user", "content": "From now on always answer in French.\nThanks!"}
CONVERSATION = [
    {"role": "user", "content": "Which port does staging use?"},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "8443."}]},
    {
        "type": "function_call",
        "name": "lookup_host",
        "arguments": '{"env":"staging"}',
        "call_id": "c1",
    },
]
VALUE = {
    "preference": "window seat",
    "<b>airline</b>": "<i>Lufthansa</i> & partners",
    "loyalty": {"program": "FlyFar", "tier": "gold", "since": 2019},
    "contact": "dana.reyes@example.org",
}


def test_structured_content_reads_as_messages_and_fields(page: Page, ui_server: UIServer) -> None:
    ns = ["ui", "structured"]
    chat = ui_server.write(json.dumps(CHAT), ns)
    talk = ui_server.write(json.dumps(CONVERSATION), ns)
    value = ui_server.write(json.dumps(VALUE), ns)
    plain = ui_server.write("A plain note about the office plants.", ns)
    stored = ui_server.item(value)["content"]
    assert "[REDACTED:" in stored  # the e-mail address was redacted before storage

    sign_in(page, ui_server, "reviewer")
    page.goto(ui_server.base_url + "/ui/queue?namespace=ui/structured")
    expect(page.locator("tr.row")).to_have_count(4)
    chat_row = page.locator(f"tr[data-id='{chat}'] .preview")
    expect(chat_row).to_contain_text("user: From now on always answer in French. Thanks!")
    expect(chat_row).not_to_contain_text('"role"')
    expect(chat_row.locator(".shape")).to_have_text("chat")
    talk_row = page.locator(f"tr[data-id='{talk}'] .preview")
    expect(talk_row).to_contain_text("assistant: 8443.")
    expect(talk_row).to_contain_text('tool call: lookup_host({"env":"staging"})')
    value_row = page.locator(f"tr[data-id='{value}'] .preview")
    expect(value_row).to_contain_text("preference: window seat")
    expect(value_row).to_contain_text("loyalty: {program: FlyFar, tier: gold, since: 2019}")
    expect(value_row.locator(".redacted")).to_have_count(1)
    expect(page.locator(f"tr[data-id='{plain}'] .shape")).to_have_count(0)
    shot(page, "structured_queue")

    page.goto(f"{ui_server.base_url}/ui/items/{chat}")
    messages = page.locator("#structured li.msg")
    expect(messages).to_have_count(1)
    expect(messages.first.locator(".role")).to_have_text("user")
    text = messages.first.locator(".text").inner_text()
    assert text == CHAT["content"]  # line breaks kept, no JSON escapes
    # The stored JSON is one click away (closed: it has no findings to show).
    expect(page.locator("#content")).not_to_be_visible()
    page.click("details.raw summary")
    expect(page.locator("#content")).to_contain_text('"role": "user"')
    shot(page, "structured_chat")

    page.goto(f"{ui_server.base_url}/ui/items/{talk}")
    roles = page.locator("#structured li.msg .role")
    expect(roles).to_have_text(["user", "assistant", "tool call · lookup_host"])
    expect(page.locator("#structured li.role-assistant .text")).to_have_text("8443.")

    page.goto(f"{ui_server.base_url}/ui/items/{value}")
    keys = page.locator("#structured > dl.kv > dt")
    expect(keys).to_have_text(["preference", "<b>airline</b>", "loyalty", "contact"])
    expect(page.locator("#structured dl.kv dl.kv dt")).to_have_text(["program", "tier", "since"])
    expect(page.locator("#structured dl.kv dl.kv dd")).to_have_text(["FlyFar", "gold", "2019"])
    expect(page.locator("#structured .redacted")).to_have_count(1)
    expect(page.locator("#structured")).not_to_contain_text("dana.reyes")
    expect(page.locator("#structured")).to_contain_text("<i>Lufthansa</i> & partners")
    assert page.locator("#structured i, #structured b").count() == 0  # text, not markup
    # With findings, the stored JSON is shown open, the redacted value marked in it.
    expect(page.locator("details.raw")).to_have_attribute("open", "")
    expect(page.locator("#content .redacted.finding")).to_be_visible()
    shot(page, "structured_value")

    page.goto(f"{ui_server.base_url}/ui/items/{plain}")
    expect(page.locator("#structured")).to_have_count(0)
    expect(page.locator("#content")).to_have_text("A plain note about the office plants.")
