"""Pending asks expire (issue 16): past the policy's `[asks] expire_after` an
unanswered ask is `expired` (GET /v1/guard/asks/{id} says so, the queue no
longer lists it, a reviewer can no longer answer it) and the same call decided
again asks anew. Over HTTP, real app and SQLite, with a short expiry."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_support import start_service

from memgate.errors import PolicyError
from memgate.guard.policy import DEFAULT_GUARD_POLICY, AsksPolicy, GuardPolicy

STRIPE = "sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc"  # fake, shaped like a real one
ISSUE = {"repo": "acme/web", "title": "deploy failing", "body": f"the key {STRIPE} is wrong"}
TOOL = "mcp__github__create_issue"
EXPIRY = 2.0


async def decide(client: httpx.AsyncClient, **call: Any) -> dict[str, Any]:
    response = await client.post("/v1/guard/decide", json=call)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def _policy(tmp_path: Path, expire_after: str) -> Path:
    text = DEFAULT_GUARD_POLICY.read_text(encoding="utf-8")
    assert 'expire_after = "24h"' in text
    policy = tmp_path / "guard.toml"
    policy.write_text(text.replace('expire_after = "24h"', f'expire_after = "{expire_after}"'))
    return policy


@pytest.mark.anyio
async def test_an_unanswered_ask_expires_and_the_call_asks_anew(tmp_path: Path) -> None:
    policy = _policy(tmp_path, f"{EXPIRY}s")
    async for service in start_service(tmp_path / "data", graph=None, guard_policy_path=policy):
        agent = service.client(service.key("agent", ["acme"], name="bot"))
        reviewer = service.client(service.key("reviewer", ["acme"], name="rev"))
        async with agent, reviewer:
            asked = await decide(agent, tool=TOOL, input=ISSUE, session_id="s1", call_id="c1")
            assert asked["decision"] == "ask"
            ask_id = asked["ask_id"]
            first = (await agent.get(f"/v1/guard/asks/{ask_id}")).json()
            assert first["state"] == "pending"
            created = datetime.fromisoformat(first["created_at"])
            due = datetime.fromisoformat(first["expires_at"])
            assert due - created == timedelta(seconds=EXPIRY)
            listed = (await reviewer.get("/v1/guard/asks")).json()["asks"]
            assert [a["id"] for a in listed] == [ask_id]

            await asyncio.sleep(EXPIRY + 0.2)
            gone = await agent.get(f"/v1/guard/asks/{ask_id}")
            assert gone.status_code == 200
            assert (gone.json()["state"], gone.json()["reviewer"]) == ("expired", "memgate:expiry")
            assert (await reviewer.get("/v1/guard/asks")).json()["asks"] == []
            late = await reviewer.post(f"/v1/guard/asks/{ask_id}/allow", json={"note": "ok"})
            assert late.status_code == 409 and "expired" in late.text

            again = await decide(agent, tool=TOOL, input=ISSUE, session_id="s1", call_id="c2")
            assert again["decision"] == "ask" and again["ask_id"] != ask_id
            fresh = (await agent.get(f"/v1/guard/asks/{again['ask_id']}")).json()
            assert fresh["state"] == "pending"
            assert (await agent.get(f"/v1/guard/asks/{ask_id}")).json()["state"] == "expired"
            # the new ask is answered as any other
            allowed = await reviewer.post(f"/v1/guard/asks/{again['ask_id']}/allow", json={})
            assert allowed.status_code == 200 and allowed.json()["state"] == "allowed"


@pytest.mark.anyio
async def test_an_answer_before_expiry_stands(tmp_path: Path) -> None:
    policy = _policy(tmp_path, f"{EXPIRY}s")
    async for service in start_service(tmp_path / "data", graph=None, guard_policy_path=policy):
        agent = service.client(service.key("agent", ["acme"], name="bot"))
        reviewer = service.client(service.key("reviewer", ["acme"], name="rev"))
        async with agent, reviewer:
            asked = await decide(agent, tool=TOOL, input=ISSUE, session_id="s1", call_id="c1")
            denied = await reviewer.post(
                f"/v1/guard/asks/{asked['ask_id']}/deny", json={"note": "no"}
            )
            assert denied.status_code == 200
            await asyncio.sleep(EXPIRY + 0.2)
            still = (await agent.get(f"/v1/guard/asks/{asked['ask_id']}")).json()
            assert still["state"] == "denied"
            again = await decide(agent, tool=TOOL, input=ISSUE, session_id="s1", call_id="c2")
            assert (again["decision"], again["layer"]) == ("deny", "review")


def test_expire_after_takes_durations_and_never() -> None:
    assert GuardPolicy.load().asks.expire_after == timedelta(hours=24)
    assert AsksPolicy(expire_after="30m").expire_after == timedelta(minutes=30)  # type: ignore[arg-type]
    assert AsksPolicy(expire_after="7d").expire_after == timedelta(days=7)  # type: ignore[arg-type]
    assert AsksPolicy(expire_after="never").expire_after is None  # type: ignore[arg-type]
    assert AsksPolicy(expire_after=90).expire_after == timedelta(seconds=90)  # type: ignore[arg-type]


@pytest.mark.parametrize("bad", ["soon", "0s", "-1h", "24 hours"])
def test_a_bad_expire_after_names_the_field(tmp_path: Path, bad: str) -> None:
    with pytest.raises(PolicyError, match="expire_after"):
        GuardPolicy.load(_policy(tmp_path, bad))
