"""Tool calls the guard asked about, in a real Chromium: listed on the queue page
beside pending memories with the call, its redacted arguments and the graph path;
a reviewer denies one from its page and allows another from the queue; every
effect is checked through the HTTP API (the same call decided again)."""

from __future__ import annotations

import json
import uuid
from typing import Any

from playwright.sync_api import Page, expect
from ui_helpers import shot, sign_in
from ui_support import UIServer

STRIPE = "sk_live_" + "9xQ2mLp4RtY7vWz1NcB4hJd6"  # fake, shaped like a real one
TOOL = "mcp__github__create_issue"


def decide(server: UIServer, **call: Any) -> dict[str, Any]:
    answer = server.api("agent").post("/v1/guard/decide", json=call)
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def test_asks_beside_memories_deny_and_allow(page: Page, ui_server: UIServer) -> None:
    run = uuid.uuid4().hex[:8]
    monday, wednesday = f"mon-{run}", f"wed-{run}"
    memory = ui_server.write("The user prefers short answers.", ["ui", "asks"])
    # Monday: a tool result shows the key; Wednesday: an issue body carries it.
    shown = ui_server.api("agent").post(
        "/v1/guard/results",
        json={"call_id": f"read-{run}", "tool": "Read", "session_id": monday,
              "output": f"STRIPE_KEY={STRIPE}\n"},
    )  # fmt: skip
    assert shown.status_code == 200 and shown.json()["values"] == 1
    leaky = {"repo": "acme/web", "title": "deploy failing", "body": f"key {STRIPE} fails"}
    first = decide(ui_server, tool=TOOL, input=leaky, session_id=wednesday)
    assert first["decision"] == "ask" and first["path"], first
    plain = {"repo": "acme/web", "title": f"flaky test {run}", "body": "retry it"}
    second = decide(ui_server, tool=TOOL, input=plain, session_id=wednesday)
    assert second["decision"] == "ask"

    sign_in(page, ui_server, "reviewer")
    page.goto(ui_server.base_url + "/ui/queue")
    # The memory and both calls wait on the same page.
    expect(page.locator(f"tr.row[data-id='{memory}']")).to_have_count(1)
    row = page.locator(f"tr.ask-row[data-id='{first['ask_id']}']")
    expect(row).to_have_count(1)
    expect(row).to_contain_text(TOOL)
    expect(row).to_contain_text("[REDACTED:")
    expect(row).to_contain_text("path: ")
    expect(page.locator(f"tr.ask-row[data-id='{second['ask_id']}']")).to_have_count(1)
    assert STRIPE not in page.content()
    shot(page, "guard_asks_queue")

    row.locator("a.open").click()
    page.wait_for_url(f"**/ui/asks/{first['ask_id']}")
    expect(page.locator("#ask-state")).to_have_text("pending")
    args = json.loads(page.locator("#ask-arguments").inner_text())
    assert args["repo"] == "acme/web" and "[REDACTED:" in args["body"]
    path = page.locator("#ask-path li")
    expect(path).to_have_count(2)
    expect(path.nth(0)).to_contain_text(f"read by Read in session {monday}")
    expect(path.nth(1)).to_contain_text("argument body of this call carries value")
    expect(page.locator("#ask-reasons")).to_contain_text("flow:")
    assert STRIPE not in page.content()
    shot(page, "guard_ask_page")

    page.fill("#ask-deny-reason", "sends the production key to GitHub")
    page.click("#ask-deny")
    expect(page.locator(".notice.ok")).to_contain_text(f"Denied tool call {first['ask_id']}")
    expect(page.locator("#ask-state")).to_have_text("denied")
    expect(page.locator("#ask-answer")).to_contain_text("sends the production key")

    # From the queue: allow the other one once.
    page.goto(ui_server.base_url + "/ui/queue")
    expect(page.locator(f"tr.ask-row[data-id='{first['ask_id']}']")).to_have_count(0)
    page.click(f"tr.ask-row[data-id='{second['ask_id']}'] form.approve button")
    expect(page.locator(".notice.ok")).to_contain_text(f"Allowed tool call {second['ask_id']}")
    expect(page.locator(f"tr.ask-row[data-id='{second['ask_id']}']")).to_have_count(0)

    # The caller learns the answers: by id, and by deciding the same calls again.
    reviewer = f"key:{ui_server.key_ids['reviewer']}"
    got = ui_server.api("agent").get(f"/v1/guard/asks/{first['ask_id']}").json()
    assert (got["state"], got["reviewer"]) == ("denied", reviewer)
    again = decide(ui_server, tool=TOOL, input=leaky, session_id=wednesday)
    assert (again["decision"], again["layer"]) == ("deny", "review")
    through = decide(ui_server, tool=TOOL, input=plain, session_id=wednesday)
    assert (through["decision"], through["layer"]) == ("allow", "review")
    assert decide(ui_server, tool=TOOL, input=plain, session_id=wednesday)["decision"] == "ask"


def test_scoped_reviewer_and_own_ask(page: Page, ui_server: UIServer) -> None:
    asked = decide(ui_server, tool=TOOL, input={"title": uuid.uuid4().hex}, session_id="s")
    sign_in(page, ui_server, "scoped")  # scoped to another namespace: not its ask
    page.goto(ui_server.base_url + "/ui/queue")
    expect(page.locator(f"tr.ask-row[data-id='{asked['ask_id']}']")).to_have_count(0)
    response = page.goto(ui_server.base_url + f"/ui/asks/{asked['ask_id']}")
    assert response is not None and response.status == 404
