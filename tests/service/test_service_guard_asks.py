"""`ask` through the review queue, over HTTP (real app, real SQLite, the real
scanner): an ask becomes a pending item with redacted arguments and the graph
path, is told through the notification outbox, is answered by a reviewer, and
the caller learns the answer by id or by deciding the same call again."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
import pytest
from service_support import Service

from memgate.domain.events import Op
from memgate.domain.notices import NoticeKind
from memgate.notify import Format, render
from memgate.store.sqlite_outbox import SqliteOutbox

pytestmark = pytest.mark.anyio

STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"  # fake, shaped like a real one
ISSUE = {"repo": "acme/web", "title": "deploy failing", "body": f"the key {STRIPE} is wrong"}
TOOL = "mcp__github__create_issue"


async def decide(client: httpx.AsyncClient, **call: Any) -> dict[str, Any]:
    response = await client.post("/v1/guard/decide", json=call)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


async def test_ask_is_queued_answered_and_settles_the_same_call(service: Service) -> None:
    agent = service.client(service.key("agent", ["acme"], name="bot"))
    reviewer = service.client(service.key("reviewer", ["acme"], name="rev"))
    outsider = service.client(service.key("reviewer", ["elsewhere"], name="other"))
    async with agent, reviewer, outsider:
        asked = await decide(agent, tool=TOOL, input=ISSUE, session_id="s1", call_id="c1")
        assert asked["decision"] == "ask"
        ask_id = asked["ask_id"]
        assert ask_id.startswith("ask_")
        assert any(f"ask {ask_id} waits" in r for r in asked["reasons"])
        assert "redacted_input" not in asked

        # a retry of the same call joins the waiting ask: one queue item
        again = await decide(agent, tool=TOOL, input=ISSUE, session_id="s1", call_id="c2")
        assert (again["decision"], again["ask_id"]) == ("ask", ask_id)
        # another session is another call
        other = await decide(agent, tool=TOOL, input=ISSUE, session_id="s2")
        assert other["ask_id"] != ask_id

        listed = (await reviewer.get("/v1/guard/asks")).json()["asks"]
        assert {a["id"] for a in listed} == {ask_id, other["ask_id"]}
        item = next(a for a in listed if a["id"] == ask_id)
        assert item["tool"] == TOOL
        assert item["session_id"] == "s1"
        assert item["arguments"]["repo"] == "acme/web"
        assert STRIPE not in json.dumps(listed)  # the secret is redacted
        assert "[REDACTED:" in item["arguments"]["body"]
        assert item["reasons"] and item["audit_seq"] == asked["audit_seq"]
        # scoped elsewhere: nothing listed, and 404 by id
        assert (await outsider.get("/v1/guard/asks")).json()["asks"] == []
        assert (await outsider.get(f"/v1/guard/asks/{ask_id}")).status_code == 404
        # the asking key reads its ask but never answers it
        mine = await agent.get(f"/v1/guard/asks/{ask_id}")
        assert mine.status_code == 200 and mine.json()["state"] == "pending"
        assert (await agent.post(f"/v1/guard/asks/{ask_id}/allow")).status_code == 403

        allowed = await reviewer.post(f"/v1/guard/asks/{ask_id}/allow", json={"note": "ok"})
        assert allowed.status_code == 200, allowed.text
        assert allowed.json()["state"] == "allowed"
        assert (await agent.get(f"/v1/guard/asks/{ask_id}")).json()["reviewer"].startswith("key:")
        late = await reviewer.post(f"/v1/guard/asks/{ask_id}/deny", json={"note": "no"})
        assert late.status_code == 409

        # the same call again: allowed once by the review, then asked again
        through = await decide(agent, tool=TOOL, input=ISSUE, session_id="s1", call_id="c3")
        assert (through["decision"], through["layer"], through["ask_id"]) == (
            "allow", "review", ask_id,
        )  # fmt: skip
        assert any("allowed by key:" in r for r in through["reasons"])
        next_time = await decide(agent, tool=TOOL, input=ISSUE, session_id="s1", call_id="c4")
        assert next_time["decision"] == "ask" and next_time["ask_id"] != ask_id

        # a denial sticks to the call
        bad = await reviewer.post(f"/v1/guard/asks/{other['ask_id']}/deny", json={})
        assert bad.status_code == 422 and "body.note" in bad.text
        denied = await reviewer.post(
            f"/v1/guard/asks/{other['ask_id']}/deny", json={"note": "leaks a key"}
        )
        assert denied.json()["state"] == "denied"
        for _ in range(2):
            no = await decide(agent, tool=TOOL, input=ISSUE, session_id="s2")
            assert (no["decision"], no["layer"]) == ("deny", "review")
            assert any("leaks a key" in r for r in no["reasons"])

        assert (await reviewer.get("/v1/guard/asks/ask_nope")).status_code == 404

    # every decision and both answers are events of the chained log
    records = await service.state.gateway.store.records()
    guard = [r.event for r in records if r.event.op is Op.GUARD_DECIDED]
    reviews = [e for e in guard if e.detail and e.detail["layer"] == "review"]
    assert {(e.detail or {}).get("ask_id") for e in reviews if e.actor.startswith("key:")} >= {
        ask_id, other["ask_id"],
    }  # fmt: skip
    assert STRIPE not in "".join(r.model_dump_json() for r in records)
    assert (await service.state.gateway.store.verify()).ok

    # people are told: a guard_ask notice per new ask in the outbox
    outbox = SqliteOutbox(service.state.settings.data_dir / "db" / "memgate.sqlite3")
    try:
        entries = await outbox.claim(now=time.time() + 1, limit=100, lease=1, due_only=False)
    finally:
        await outbox.close()
    told = [e.notice for e in entries if e.notice.kind is NoticeKind.GUARD_ASK]
    assert {n.detail["ask_id"] for n in told} >= {ask_id, other["ask_id"]}
    notice = next(n for n in told if n.detail["ask_id"] == ask_id)
    assert notice.detail["tool"] == TOOL and notice.seq == asked["audit_seq"]
    wire = render(notice, Format.SLACK, "https://memgate.example").decode()
    assert f"https://memgate.example/ui/asks/{ask_id}" in wire
    assert "Tool call needs approval" in wire
    assert STRIPE not in wire and STRIPE not in render(notice, Format.JSON).decode()


async def test_only_asks_are_queued(service: Service) -> None:
    agent = service.client(service.key("agent", ["acme"], guard_roles=["analyst"]))
    admin = service.client(service.admin_key)
    async with agent, admin:
        ok = await decide(agent, tool="db.query", input={"sql": "SELECT 1"})
        assert ok["decision"] == "allow" and ok["ask_id"] is None
        no = await decide(agent, tool="db.execute", input={"sql": "DROP TABLE t"})
        assert no["decision"] == "deny" and no["ask_id"] is None
        assert (await admin.get("/v1/guard/asks")).json()["asks"] == []


async def test_an_allowed_ask_still_redacts_what_the_flow_check_cut(service: Service) -> None:
    agent = service.client(service.key("agent", ["acme"], name="bot"))
    reviewer = service.client(service.key("reviewer", ["acme"], name="rev"))
    async with agent, reviewer:
        shown = await agent.post(
            "/v1/guard/results",
            json={"call_id": "r1", "tool": "Read", "session_id": "mon",
                  "output": f"STRIPE_KEY={STRIPE}"},
        )  # fmt: skip
        assert shown.json()["values"] == 1
        asked = await decide(agent, tool=TOOL, input=ISSUE, session_id="wed")
        assert asked["decision"] == "ask"
        assert [s["kind"] for s in asked["path"]] == ["read", "arg"]
        queued = (await reviewer.get(f"/v1/guard/asks/{asked['ask_id']}")).json()
        assert [s["kind"] for s in queued["path"]] == ["read", "arg"]
        assert queued["path"][0]["session_id"] == "mon"
        await reviewer.post(f"/v1/guard/asks/{asked['ask_id']}/allow")
        through = await decide(agent, tool=TOOL, input=ISSUE, session_id="wed")
        assert (through["decision"], through["layer"]) == ("rewrite", "review")
        assert STRIPE not in through["updated_input"]["body"]
        assert through["updated_input"]["repo"] == "acme/web"
