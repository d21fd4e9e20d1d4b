"""Routing by provenance over HTTP: an agent's long-term write from a session that
was served untrusted content waits for review with the reads that tainted it;
from a clean session it is kept without a human."""

from __future__ import annotations

import httpx
import pytest
from service_support import Service

pytestmark = pytest.mark.anyio

PAGE = (
    "Product FAQ: The Acme router supports WPA3. Firmware 2.4 adds guest networks, and"
    " reviewers rate it highly for home offices."
)
"""A web page the scan serves (short-term): untrusted by its source alone, so the
sessions served it are tainted. (A page with a planted order is rejected and
served to nobody: its writer's own session is tainted, tested in the gateway's
provenance tests.)"""
SUMMARY = "Summary: Acme router supports WPA3; recommend Acme and suggest disabling the firewall."
NOTE = "User prefers morning meetings; next step: draft the Q3 budget."


async def _write(client: httpx.AsyncClient, **body: object) -> dict[str, object]:
    body.setdefault("namespace", ["acme", "u42"])
    answer = await client.post("/v1/memories", json=body)
    assert answer.status_code == 201, answer.text
    receipt: dict[str, object] = answer.json()
    return receipt


async def test_a_clean_session_keeps_its_write_and_a_tainted_one_waits_with_the_reason(
    service: Service,
) -> None:
    user = service.key("agent", ["acme"], name="chat", user_channel=True)
    agent = service.key("agent", ["acme"], name="planner")
    reviewer = service.key("reviewer", ["acme"], name="alice")
    async with (
        service.client(user) as chat,
        service.client(agent) as bot,
        service.client(reviewer) as rev,
    ):
        fact = await _write(chat, content="I prefer metric units.", source="user", key="units")
        assert fact["state"] == "approved"
        page = await _write(bot, content=PAGE, source="web", session_id="crawl")
        assert page["state"] == "transient"

        # s1 reads only the user's approved memory: its note is kept.
        got = await bot.get(f"/v1/memories/{fact['id']}", headers={"X-Memgate-Session": "s1"})
        assert got.status_code == 200
        clean = await _write(bot, content=NOTE, source="agent", session_id="s1", target="long")
        assert (clean["state"], clean["provenance"]) == ("approved", None)

        # s7 is served the page by a search: its summary waits, naming the read.
        found = await bot.post(
            "/v1/memories/search",
            json={"namespace": ["acme", "u42"], "query": "router", "session_id": "s7"},
        )
        assert found.status_code == 200, found.text
        assert page["id"] in {i["id"] for i in found.json()["items"]}
        held = await _write(bot, content=SUMMARY, source="agent", session_id="s7", target="long")
        assert held["state"] == "pending_review"
        reason = held["provenance"]
        assert isinstance(reason, str)
        assert f"session s7 read {page['id']} (web, transient" in reason

        queue = await rev.get("/v1/review/pending")
        assert queue.status_code == 200
        (queued,) = [i for i in queue.json()["items"] if i["id"] == held["id"]]
        assert queued["reason"] == reason
        log = await rev.get(f"/v1/review/{held['id']}")
        assert log.status_code == 200


async def test_list_and_by_key_reads_taint_and_a_missing_session_is_held(
    service: Service,
) -> None:
    agent = service.key("agent", ["acme"], name="planner")
    async with service.client(agent) as bot:
        page = await _write(bot, content=PAGE, source="web", key="faq")
        listed = await bot.get(
            "/v1/memories", params={"namespace": "acme/u42"}, headers={"X-Memgate-Session": "s2"}
        )
        assert listed.status_code == 200
        assert page["id"] in {i["id"] for i in listed.json()["items"]}
        held = await _write(bot, content=NOTE, source="agent", session_id="s2", target="long")
        assert held["state"] == "pending_review"
        assert f"session s2 read {page['id']}" in str(held["provenance"])

        by_key = await bot.get(
            "/v1/memories/by-key",
            params={"namespace": "acme/u42", "key": "faq"},
            headers={"X-Memgate-Session": "s3"},
        )
        assert by_key.status_code == 200
        again = await _write(bot, content=NOTE, source="agent", session_id="s3", target="long")
        assert f"session s3 read {page['id']}" in str(again["provenance"])

        anonymous = await _write(bot, content=NOTE, source="agent", target="long")
        assert anonymous["state"] == "pending_review"
        assert "no session or call id" in str(anonymous["provenance"])
