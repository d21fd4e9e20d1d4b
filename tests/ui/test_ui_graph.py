"""With the real (embedded FalkorDB) provenance graph: the item page lists the
sessions and calls that read a memory, and the incident page shows its blast
radius and the readers of what a rollback would change."""

from __future__ import annotations

import time

from playwright.sync_api import Page, expect
from ui_helpers import shot, sign_in
from ui_support import UIServer


def _projected(server: UIServer, memory_id: str) -> None:
    """Wait until the graph has caught up with the log (it projects in the background)."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        answer = server.api("admin").get(f"/v1/investigate/readers/{memory_id}").json()
        if answer["status"] != "graph_unavailable" and answer["lag"] == 0:
            return
        time.sleep(0.1)
    raise AssertionError(f"the graph did not catch up: {answer}")


def test_readers_and_blast_radius_from_the_graph(page: Page, ui_graph_server: UIServer) -> None:
    server = ui_graph_server
    ns = ["ui", "graph"]
    leaked = server.write("The vendor portal moved to a new address.", ns)
    assert server.api("reviewer").post(f"/v1/review/{leaked}/approve", json={}).status_code == 200
    read = server.api("agent").get(
        f"/v1/memories/{leaked}",
        headers={"X-Memgate-Session": "sess-ui-7", "X-Memgate-Call": "call-ui-1"},
    )
    assert read.status_code == 200, read.text
    # The same session then writes: that write is in the blast radius of `leaked`.
    tainted = server.write(
        "Use the new vendor portal address for invoices.",
        ns,
        session_id="sess-ui-7",
        call_id="call-ui-2",
    )
    _projected(server, tainted)

    sign_in(page, server, "admin")
    page.goto(f"{server.base_url}/ui/items/{leaked}")
    readers = page.locator("section:has(h2:text('Readers')) table").first
    expect(readers).to_contain_text("sess-ui-7")
    expect(readers).to_contain_text("call-ui-1")
    expect(page.locator(".graph-unavailable")).to_have_count(0)
    shot(page, "item_readers")

    page.goto(f"{server.base_url}/ui/incident?memory_id={leaked}")
    blast = page.locator("section:has(h2:text('Blast radius'))")
    expect(blast).to_contain_text(tainted)
    page.click("a.pick-seq >> nth=0")  # before the memory's first event: removes it
    page.fill("#reason", "poisoned vendor address")
    page.click("#dry-run")
    plan = page.locator("#plan")
    expect(plan).to_contain_text("Who read the affected memories")
    expect(plan).to_contain_text("sess-ui-7")
    shot(page, "incident_graph")
    assert server.item(leaked)["state"] == "approved"

    # Log status: the projection has caught up with the log (lag 0).
    page.goto(f"{server.base_url}/ui/log")
    expect(page.locator(".graph-unavailable")).to_have_count(0)
    expect(page.locator("#projection-lag")).to_contain_text("0 event(s)")
    shot(page, "log_graph")


def test_applied_rollback_reports_the_graph(page: Page, ui_graph_server: UIServer) -> None:
    server = ui_graph_server
    ns = ["ui", "graph-applied"]
    leaked = server.write("The build server moved to a new host name.", ns)
    assert server.api("reviewer").post(f"/v1/review/{leaked}/approve", json={}).status_code == 200
    read = server.api("agent").get(
        f"/v1/memories/{leaked}",
        headers={"X-Memgate-Session": "sess-applied", "X-Memgate-Call": "call-applied"},
    )
    assert read.status_code == 200, read.text
    _projected(server, leaked)

    sign_in(page, server, "admin")
    page.goto(f"{server.base_url}/ui/incident?memory_id={leaked}")
    page.click("a.pick-seq >> nth=0")
    page.fill("#reason", "wrong host name")
    page.click("#dry-run")
    page.click("#apply")
    expect(page.locator(".notice.ok").first).to_contain_text("Rollback applied: 1 change(s)")
    plan = page.locator("#plan")
    expect(plan).to_contain_text("Applied")
    # The graph is up: the applied plan shows its readers, never "no provenance graph".
    expect(plan).not_to_contain_text("no provenance graph")
    expect(plan.locator(".graph-unavailable")).to_have_count(0)
    expect(plan).to_contain_text("sess-applied")
    shot(page, "incident_applied_graph")
    assert server.item(leaked)["state"] == "deleted"
