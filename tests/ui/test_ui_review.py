"""Review flows in a real Chromium: sign in, approve, reject with a reason,
edit-and-approve after a rescan preview, bulk and keyboard actions, filters;
every effect is checked through the HTTP API."""

from __future__ import annotations

from playwright.sync_api import Page, expect
from ui_helpers import notices, shot, sign_in
from ui_support import UIServer

PII = "Ship to Dana, e-mail dana.reyes@example.org, before Friday."
SECRET = "deploy token ghp_8fK2mQ9xLp3RtY7vWz1NcB4hJd6Gs0AeUi5o for the staging box"


def test_approve_reject_and_edit_through_the_ui(page: Page, ui_server: UIServer) -> None:
    ns = ["ui", "flow"]
    first = ui_server.write("The user prefers dark mode in every editor.", ns)
    second = ui_server.write("The user's favourite colour is teal.", ns)
    third = ui_server.write(SECRET, ns)

    sign_in(page, ui_server, "reviewer")
    page.goto(ui_server.base_url + "/ui/queue?namespace=ui/flow")
    rows = page.locator("tr.row")
    expect(rows).to_have_count(3)
    # Oldest first, each row with its trust score and why it waits.
    assert [rows.nth(i).get_attribute("data-id") for i in range(3)] == [first, second, third]
    expect(page.locator(f"tr[data-id='{third}'] .chip")).to_contain_text(["secret"])
    expect(page.locator(f"tr[data-id='{third}'] .reasons")).to_contain_text("secret")
    expect(page.locator(f"tr[data-id='{third}'] .trust")).to_have_text("0.65")
    shot(page, "queue")

    page.click(f"tr[data-id='{first}'] form.approve button")
    expect(page.locator(".notice.ok")).to_contain_text(f"Approved {first}")
    approved = ui_server.item(first)
    assert approved["state"] == "approved"
    assert approved["reviewed_by"] == f"key:{ui_server.key_ids['reviewer']}"

    page.fill(f"tr[data-id='{second}'] form.reject input[name=reason]", "not a stable preference")
    page.click(f"tr[data-id='{second}'] form.reject button")
    expect(page.locator(".notice.ok")).to_contain_text(f"Rejected {second}")
    rejected = ui_server.item(second)
    assert rejected["state"] == "rejected"
    history = ui_server.api("admin").get(f"/v1/memories/{second}/history").json()["events"]
    assert history[-1]["event"]["reason"] == "not a stable preference"

    page.click(f"tr[data-id='{third}'] a.open")
    page.wait_for_url(f"**/ui/items/{third}")
    # The secret is stored redacted and shown as a tag, highlighted as a finding.
    tag = page.locator("#content .redacted")
    expect(tag).to_have_count(1)
    assert "MG-SEC" in (tag.get_attribute("title") or "")
    expect(page.locator("#content")).not_to_contain_text("ghp_")
    expect(page.locator(".graph-unavailable").first).to_contain_text("Graph unavailable")
    shot(page, "item")

    page.fill("#edit-content", "Deploy with the staging token; ask Dana at dana.reyes@example.org.")
    page.click("#rescan")
    preview = page.locator("#preview")
    expect(preview).to_contain_text("MG-PII")  # the new finding, before anything is saved
    expect(
        page.locator("#preview-content mark.finding, #preview-content .redacted")
    ).not_to_have_count(0)
    assert ui_server.item(third)["state"] == "pending_review"
    shot(page, "item_preview")

    page.click("#save-edit")
    expect(page.locator(".notice.ok")).to_contain_text(f"Edited and approved {third}")
    edited = ui_server.item(third)
    assert edited["state"] == "approved"
    assert "dana.reyes@example.org" not in edited["content"]
    assert edited["content"].startswith(
        "Deploy with the staging token; ask Dana at [REDACTED:MG-PII"
    )
    assert {f["category"] for f in edited["findings"]} == {"pii"}


def test_bulk_select_and_keyboard(page: Page, ui_server: UIServer) -> None:
    ns = ["ui", "bulk"]
    ids = [
        ui_server.write(f"Bulk note number {n} about the user's schedule.", ns) for n in range(3)
    ]
    sign_in(page, ui_server, "reviewer")
    page.goto(ui_server.base_url + "/ui/queue?namespace=ui/bulk")
    expect(page.locator("tr.row")).to_have_count(3)
    # Keyboard: the first row has focus; x selects, j moves down.
    expect(page.locator(f"tr[data-id='{ids[0]}']")).to_be_focused()
    page.keyboard.press("x")
    page.keyboard.press("j")
    page.keyboard.press("x")
    page.select_option("#bulk select[name=action]", "reject")
    page.fill("#bulk input[name=reason]", "duplicates of the calendar")
    page.click("#bulk button[type=submit]")
    expect(page.locator(".notice.ok")).to_contain_text("Rejected 2 item(s)")
    assert [ui_server.item(i)["state"] for i in ids[:2]] == ["rejected", "rejected"]
    # The remaining row: focus it and approve with "a".
    expect(page.locator("tr.row")).to_have_count(1)
    page.keyboard.press("j")
    page.keyboard.press("a")
    expect(page.locator(".notice.ok")).to_contain_text(f"Approved {ids[2]}")
    assert ui_server.item(ids[2])["state"] == "approved"


def test_refusals_are_shown(page: Page, ui_server: UIServer) -> None:
    ns = ["ui", "refusals"]
    own = ui_server.write("Written by the admin key itself.", ns, role="admin")
    other = ui_server.write("Needs a reason to reject.", ns)
    sign_in(page, ui_server, "admin")
    page.goto(f"{ui_server.base_url}/ui/items/{own}")
    page.click("#approve")
    expect(page.locator(".notice.error")).to_contain_text("cannot review it")
    assert ui_server.item(own)["state"] == "pending_review"

    # A reject without a reason never reaches the gateway (the browser requires
    # one; a blank one is refused by the server).
    page.goto(f"{ui_server.base_url}/ui/items/{other}")
    page.fill("#reject-reason", "   ")
    page.click("#reject")
    expect(page.locator(".notice.error")).to_contain_text("reason is required")
    assert ui_server.item(other)["state"] == "pending_review"


def test_filters_and_scopes(page: Page, ui_server: UIServer) -> None:
    ns = ["ui", "filters"]
    pii = ui_server.write(PII, ns)
    secret = ui_server.write(SECRET.replace("staging", "prod"), ns)
    sign_in(page, ui_server, "reviewer")
    page.goto(ui_server.base_url + "/ui/queue?namespace=ui/filters&category=secret")
    expect(page.locator("tr.row")).to_have_count(1)
    expect(page.locator("tr.row")).to_have_attribute("data-id", secret)
    page.goto(ui_server.base_url + "/ui/queue?namespace=ui/filters&category=pii&source=web")
    expect(page.locator("tr.row")).to_have_attribute("data-id", pii)
    page.goto(ui_server.base_url + "/ui/queue?namespace=ui/filters&age=1d")
    expect(page.locator(".empty")).to_contain_text("Nothing waits for review under these filters")
    page.goto(ui_server.base_url + "/ui/queue?category=nonsense")
    assert "Invalid filter" in notices(page)

    # A reviewer scoped to another namespace sees none of these and cannot open them.
    page.context.clear_cookies()
    sign_in(page, ui_server, "scoped")
    page.goto(ui_server.base_url + "/ui/queue?namespace=ui/filters")
    expect(page.locator("tr.row")).to_have_count(0)
    answer = page.goto(f"{ui_server.base_url}/ui/items/{pii}")
    assert answer is not None and answer.status == 404
