"""Guard roles are a property of the key, over HTTP (real app, real SQLite): a call
naming a role its key does not hold is refused (403 naming `body.role`), one
naming none is judged under the key's default, and admins grant roles with
POST / PATCH /v1/keys."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from service_support import Service

from memgate.domain.events import Op

pytestmark = pytest.mark.anyio

EXECUTE = {"tool": "db.execute", "input": {"sql": "UPDATE t SET a = 1"}, "task_id": "t-1"}
QUERY = {"tool": "db.query", "input": {"sql": "SELECT 1"}}


async def decide(client: httpx.AsyncClient, **call: Any) -> httpx.Response:
    return await client.post("/v1/guard/decide", json=call)


async def decided(client: httpx.AsyncClient, **call: Any) -> dict[str, Any]:
    response = await decide(client, **call)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def refused_role(response: httpx.Response, role: str) -> None:
    assert response.status_code == 403, response.text
    problem = response.json()
    assert [e["field"] for e in problem["errors"]] == ["body.role"]
    assert repr(role) in problem["detail"]


async def test_agent_key_without_ops_cannot_claim_ops(service: Service) -> None:
    async with service.client(service.key("agent", ["acme"])) as agent:
        refused_role(await decide(agent, role="ops", **EXECUTE), "ops")
        refused_role(await decide(agent, role="admin", **QUERY), "admin")
        refused_role(await decide(agent, role="analyst", **QUERY), "analyst")
        # a refused claim decides nothing: no guard event in the log
        records = await service.state.gateway.store.records()
        assert [r for r in records if r.event.op is Op.GUARD_DECIDED] == []
        # the same key, judged under the role it holds, is decided and logged
        await decided(agent, **QUERY)
        records = await service.state.gateway.store.records()
        assert len([r for r in records if r.event.op is Op.GUARD_DECIDED]) == 1


async def test_plain_agent_key_is_judged_under_the_policy_default(service: Service) -> None:
    async with service.client(service.key("agent", ["acme"])) as agent:
        implicit = await decided(agent, **QUERY)
        assert implicit["role"] == "developer"
        assert implicit["decision"] == "ask"  # developer: db.* falls under '*' = ask
        # naming the default role everyone is judged under is not a claim
        explicit = await decided(agent, role="developer", **QUERY)
        assert explicit["role"] == "developer"
        assert explicit["decision"] == "ask"


async def test_key_granted_analyst_gets_analysts_decisions(service: Service) -> None:
    async with service.client(service.key("agent", ["acme"], guard_roles=["analyst"])) as agent:
        query = await decided(agent, **QUERY)  # no role named: the key's default
        assert (query["role"], query["decision"]) == ("analyst", "allow")
        named = await decided(agent, role="analyst", **QUERY)
        assert (named["role"], named["decision"]) == ("analyst", "allow")
        execute = await decided(agent, **EXECUTE)
        assert (execute["role"], execute["decision"], execute["layer"]) == (
            "analyst",
            "deny",
            "matrix",
        )
        refused_role(await decide(agent, role="ops", **EXECUTE), "ops")


async def test_the_first_role_is_the_default_and_others_may_be_named(service: Service) -> None:
    key = service.key("agent", ["acme"], guard_roles=["ops", "analyst"])
    async with service.client(key) as agent:
        ops = await decided(agent, **EXECUTE)
        assert (ops["role"], ops["decision"]) == ("ops", "allow")
        analyst = await decided(agent, role="analyst", **EXECUTE)
        assert (analyst["role"], analyst["decision"]) == ("analyst", "deny")


async def test_admin_may_act_as_any_role(service: Service) -> None:
    async with service.client(service.key("admin")) as admin:
        ops = await decided(admin, role="ops", **EXECUTE)
        assert (ops["role"], ops["decision"]) == ("ops", "allow")


async def test_admin_grants_and_withdraws_guard_roles(service: Service) -> None:
    async with service.client(service.key("admin")) as admin:
        made = await admin.post(
            "/v1/keys",
            json={
                "name": "chat",
                "role": "agent",
                "user_channel": True,
                "guard_roles": ["analyst"],
            },
        )
        assert made.status_code == 201, made.text
        info = made.json()
        assert info["guard_roles"] == ["analyst"]
        assert "user" in info["sources"]
        async with service.client(info["key"]) as agent:
            refused_role(await decide(agent, role="ops", **EXECUTE), "ops")
            granted = await admin.patch(
                f"/v1/keys/{info['id']}", json={"guard_roles": ["analyst", "ops"]}
            )
            assert granted.status_code == 200, granted.text
            assert granted.json()["guard_roles"] == ["analyst", "ops"]
            assert "user" in granted.json()["sources"]  # only guard_roles: sources kept
            ops = await decided(agent, role="ops", **EXECUTE)
            assert (ops["role"], ops["decision"]) == ("ops", "allow")
            listed = (await admin.get("/v1/keys")).json()["keys"]
            assert [k["guard_roles"] for k in listed if k["id"] == info["id"]] == [
                ["analyst", "ops"]
            ]
            withdrawn = await admin.patch(f"/v1/keys/{info['id']}", json={"guard_roles": []})
            assert withdrawn.json()["guard_roles"] == []
            refused_role(await decide(agent, role="analyst", **QUERY), "analyst")
            assert (await decided(agent, **QUERY))["role"] == "developer"


async def test_bad_guard_roles_are_refused_naming_the_field(service: Service) -> None:
    async with service.client(service.key("admin")) as admin:
        bad = await admin.post(
            "/v1/keys", json={"name": "x", "role": "agent", "guard_roles": ["ops,admin"]}
        )
        assert bad.status_code == 422, bad.text
        assert bad.json()["errors"][0]["field"].startswith("body.guard_roles")
        reviewer = await admin.post(
            "/v1/keys", json={"name": "r", "role": "reviewer", "guard_roles": ["ops"]}
        )
        assert reviewer.status_code == 422, reviewer.text
        key = (await admin.post("/v1/keys", json={"name": "r2", "role": "reviewer"})).json()
        patched = await admin.patch(f"/v1/keys/{key['id']}", json={"guard_roles": ["ops"]})
        assert patched.status_code == 422, patched.text
        assert patched.json()["errors"][0]["field"] == "body.guard_roles"
        missing = await admin.patch("/v1/keys/k_000000000000", json={"guard_roles": ["ops"]})
        assert missing.status_code == 404, missing.text
