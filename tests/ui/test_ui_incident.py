"""Admin pages in a real Chromium: pick a point from a memory's timeline, dry-run
the rollback (nothing changes, the plan matches the API's), confirm it (the
change shows through the API), and read the log status."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect
from ui_helpers import shot, sign_in
from ui_support import UIServer


def test_rollback_dry_run_then_apply(page: Page, ui_server: UIServer) -> None:
    memory_id = ui_server.write("Quarterly targets moved to the shared drive.", ["ui", "incident"])
    approved = ui_server.api("reviewer").post(f"/v1/review/{memory_id}/approve", json={})
    assert approved.status_code == 200, approved.text
    history = ui_server.api("admin").get(f"/v1/memories/{memory_id}/history").json()["events"]
    approval_seq = history[-1]["seq"]

    sign_in(page, ui_server, "admin")
    page.goto(f"{ui_server.base_url}/ui/items/{memory_id}")
    page.click("text=Investigate an incident from this memory")
    page.wait_for_url(re.compile(r".*/ui/incident\?memory_id=.*"))
    # No graph on this server: the blast radius says so instead of showing "nothing".
    expect(page.locator(".graph-unavailable")).to_contain_text("Graph unavailable")
    # Pick the point just before the approval from the memory's timeline.
    page.click(f"a.pick-seq:text-is('#{approval_seq}')")
    expect(page.locator("#to_seq")).to_have_value(str(approval_seq - 1))
    page.fill("#reason", "approved by mistake")
    page.click("#dry-run")
    plan = page.locator("#plan")
    expect(plan).to_contain_text("Dry run")
    expect(plan.locator("table.changes tbody tr")).to_have_count(1)
    expect(plan.locator("table.changes")).to_contain_text("approved → pending_review")
    shot(page, "incident_plan")
    # A dry run changes nothing, and the API plans the same diff.
    assert ui_server.item(memory_id)["state"] == "approved"
    api_plan = ui_server.api("admin").post(
        "/v1/rollback",
        json={
            "to_seq": approval_seq - 1,
            "memory_id": memory_id,
            "reason": "compare",
            "dry_run": True,
        },
    )
    assert api_plan.status_code == 200, api_plan.text
    assert [c["memory_id"] for c in api_plan.json()["changes"]] == [memory_id]

    page.click("#apply")
    expect(page.locator(".notice.ok").first).to_contain_text("Rollback applied: 1 change(s)")
    assert ui_server.item(memory_id)["state"] == "pending_review"
    events = ui_server.api("admin").get(f"/v1/memories/{memory_id}/history").json()["events"]
    assert events[-1]["event"]["op"] == "rolled_back"
    assert events[-1]["event"]["reason"] == "approved by mistake"
    assert events[-1]["event"]["actor"] == f"key:{ui_server.key_ids['admin']}"


def test_apply_refuses_a_stale_plan(page: Page, ui_server: UIServer) -> None:
    first = ui_server.write("Stale plan check, first memory.", ["ui", "stale"])
    head = ui_server.api("admin").get(f"/v1/memories/{first}/history").json()["events"][-1]["seq"]
    sign_in(page, ui_server, "admin")
    page.goto(f"{ui_server.base_url}/ui/incident?to_seq={head}")
    page.fill("input[name=namespace]", "ui/stale")
    page.fill("#reason", "drop the later writes")
    ui_server.write("Stale plan check, second memory.", ["ui", "stale"])
    page.click("#dry-run")
    expect(page.locator("#plan table.changes tbody tr")).to_have_count(1)
    late = ui_server.write("Stale plan check, written after the dry run.", ["ui", "stale"])
    page.click("#apply")
    # The log moved: the new plan is shown, nothing applied yet.
    expect(page.locator(".notice.error")).to_contain_text("The log moved since the dry run")
    expect(page.locator("#plan table.changes tbody tr")).to_have_count(2)
    assert ui_server.item(late)["state"] == "pending_review"
    page.click("#apply")
    expect(page.locator(".notice.ok").first).to_contain_text("Rollback applied: 2 change(s)")
    assert ui_server.item(late)["state"] == "deleted"
    assert ui_server.item(first)["state"] == "pending_review"


def test_log_status_page(page: Page, ui_server: UIServer) -> None:
    ui_server.write("One more event for the log page.", ["ui", "log"])
    sign_in(page, ui_server, "admin")
    page.goto(ui_server.base_url + "/ui/log")
    page.click("#verify-now")  # the first visit may show an earlier verification
    verify = ui_server.api("admin").get("/v1/log/verify").json()
    assert verify["ok"] is True
    status = page.inner_text("#chain-status")
    match = re.search(r"verified up to seq (\d+)", status)
    assert match is not None, status
    # The page verified at its own moment; the API's head can only be the same or later.
    assert 0 < int(match.group(1)) <= verify["last_seq"]
    expect(page.locator(".graph-unavailable")).to_contain_text("Graph unavailable")
    shot(page, "log")


def test_rollback_by_memory_needs_no_sequence(page: Page, ui_server: UIServer) -> None:
    memory_id = ui_server.write("Scoped by memory, no sequence number given.", ["ui", "bymem"])
    approved = ui_server.api("reviewer").post(f"/v1/review/{memory_id}/approve", json={})
    assert approved.status_code == 200, approved.text
    first = ui_server.api("admin").get(f"/v1/memories/{memory_id}/history").json()["events"][0]

    sign_in(page, ui_server, "admin")
    page.goto(f"{ui_server.base_url}/ui/incident?memory_id={memory_id}")
    # The sequence field is optional when a memory scopes the rollback.
    assert page.locator("#to_seq").get_attribute("required") is None
    expect(page.locator("#to_seq")).to_have_value("")
    page.fill("#reason", "undo this memory entirely")
    page.click("#dry-run")
    plan = page.locator("#plan")
    expect(plan).to_contain_text(f"back to seq {first['seq'] - 1}")
    expect(plan.locator("table.changes tbody tr")).to_have_count(1)
    expect(plan.locator("table.changes")).to_contain_text("approved → deleted")
    expect(page.locator("#to_seq")).to_have_value(str(first["seq"] - 1))
    assert ui_server.item(memory_id)["state"] == "approved"
    page.click("#apply")
    expect(page.locator(".notice.ok").first).to_contain_text("Rollback applied: 1 change(s)")
    assert ui_server.item(memory_id)["state"] == "deleted"

    # Neither a sequence nor a memory: the form says what it needs.
    page.goto(f"{ui_server.base_url}/ui/incident")
    page.fill("#reason", "nothing picked")
    page.click("#dry-run")
    expect(page.locator(".notice.error")).to_contain_text(
        "Pick a target sequence, or name a memory"
    )
    expect(page.locator("#plan")).to_have_count(0)
    # An unknown memory is named, not rolled back to somewhere.
    page.fill("#memory_id", "m_NOPE")
    page.fill("#reason", "unknown memory")
    page.click("#dry-run")
    expect(page.locator(".notice.error")).to_contain_text("No memory m_NOPE in the log")


def test_incident_hints_agree(page: Page, ui_server: UIServer) -> None:
    memory_id = ui_server.write("Hints check: both timelines pick the same way.", ["ui", "hints"])
    seq = ui_server.api("admin").get(f"/v1/memories/{memory_id}/history").json()["events"][0]["seq"]
    sign_in(page, ui_server, "admin")
    # From the memory's timeline and from the recent log alike, #N undoes N and after.
    page.goto(f"{ui_server.base_url}/ui/incident?memory_id={memory_id}")
    memory_hint = page.inner_text("#pick-hint")
    field_hint = page.inner_text("#to-seq-hint")
    page.click(f"a.pick-seq:text-is('#{seq}')")
    expect(page.locator("#to_seq")).to_have_value(str(seq - 1))
    page.goto(f"{ui_server.base_url}/ui/incident")
    assert page.inner_text("#pick-hint") == memory_hint
    assert "undo" in field_hint and "undoes" in memory_hint
    page.click(f"a.pick-seq:text-is('#{seq}')")
    expect(page.locator("#to_seq")).to_have_value(str(seq - 1))
