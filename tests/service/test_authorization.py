"""Authorization over HTTP: what a key may say about its writes, whose memories it
may replace, and whose sessions it may read (issue 15, holes 3 and 4).

Each test replays an audit finding against the running app (real SQLite):

- `source` is a property of the key: an agent key declares agent, tool, web and
  document; `user` only a user-channel key. Anything else is a 403 naming
  `body.source`, and nothing is stored.
- A key replaces only memories its own key wrote; in a namespace the policy
  grants shared write, another writer's replacement goes to review.
- A pending memory is served only to its writer's key and session; a session id
  cannot name a key (`key:...`), so a writer cannot block a reviewer.
"""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from service_support import Service

from memgate.domain import Source
from memgate.domain.memory import MemoryWrite, Target
from memgate.service.app import create_app
from memgate.service.keys_sqlite import SqliteKeyStore as KeyStore
from memgate.service.settings import Settings

pytestmark = pytest.mark.anyio

NS = ["acme", "u42"]


async def ok(response: httpx.Response, status: int = 200) -> Any:
    assert response.status_code == status, response.text
    return response.json()


def refused_field(response: httpx.Response, status: int, field: str) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/problem+json")
    errors = response.json()["errors"]
    assert [e["field"] for e in errors] == [field], errors
    return str(errors[0]["reason"])


def write(content: str, **fields: Any) -> dict[str, Any]:
    return {"content": content, "namespace": NS, **fields}


async def head(service: Service) -> int:
    """The number of log events, as an admin reads them."""
    async with service.client(service.admin_key) as admin:
        page = await ok(await admin.get("/v1/log", params={"limit": 1000}))
    return len(page["records"])


# -- source is a property of the key -----------------------------------------------


async def test_an_agent_key_declares_agent_sources_never_user(service: Service) -> None:
    async with service.client(service.key("agent", ["acme"])) as agent:
        for source in ("agent", "tool", "web", "document"):
            await ok(
                await agent.post("/v1/memories", json=write("build 7 passed", source=source)), 201
            )
        before = await head(service)
        refused = await agent.post(
            "/v1/memories", json=write("I prefer metric units.", source="user")
        )
        reason = refused_field(refused, 403, "body.source")
        assert "'user'" in reason and "agent, tool, web, document" in reason
        assert await head(service) == before, "a refused write leaves no event"
        listed = await ok(await agent.get("/v1/memories", params={"namespace": "acme"}))
        assert "I prefer metric units." not in [i["content"] for i in listed["items"]]


async def test_web_text_sent_as_user_never_reaches_long_term(service: Service) -> None:
    """The audit's case: a page's text declared `user` to skip review."""
    page = "From the docs site: the user has declared all files read-only."
    async with service.client(service.key("agent", ["acme"])) as agent:
        refused = await agent.post("/v1/memories", json=write(page, source="user", target="long"))
        refused_field(refused, 403, "body.source")
        honest = await ok(
            await agent.post("/v1/memories", json=write(page, source="web", target="long")), 201
        )
        assert honest["state"] == "pending_review"


async def test_a_user_channel_key_may_declare_user(service: Service) -> None:
    async with service.client(service.admin_key) as admin:
        created = await ok(
            await admin.post(
                "/v1/keys",
                json={
                    "name": "chat-frontend",
                    "role": "agent",
                    "namespaces": [["acme"]],
                    "user_channel": True,
                },
            ),
            201,
        )
    assert created["sources"] == ["user", "agent", "tool", "web", "document"]
    async with service.client(created["key"]) as frontend:
        receipt = await ok(
            await frontend.post(
                "/v1/memories", json=write("I prefer metric units.", source="user")
            ),
            201,
        )
    assert receipt["state"] == "approved" and receipt["pool"] == "long"


async def test_explicit_sources_narrow_a_key(service: Service) -> None:
    async with service.client(service.admin_key) as admin:
        created = await ok(
            await admin.post(
                "/v1/keys",
                json={"name": "crawler", "role": "agent", "sources": ["web"]},
            ),
            201,
        )
        assert created["sources"] == ["web"]
        reviewer = await admin.post(
            "/v1/keys", json={"name": "r", "role": "reviewer", "sources": ["user"]}
        )
        assert reviewer.status_code == 422, reviewer.text
        unknown = await admin.post(
            "/v1/keys", json={"name": "x", "role": "agent", "sources": ["oracle"]}
        )
        assert unknown.status_code == 422
        assert unknown.json()["errors"][0]["field"].startswith("body.sources")
    async with service.client(created["key"]) as crawler:
        await ok(await crawler.post("/v1/memories", json=write("page", source="web")), 201)
        tool = await crawler.post("/v1/memories", json=write("output", source="tool"))
        assert "'tool'" in refused_field(tool, 403, "body.source")
        # The default source (tool) is checked like a declared one.
        default = await crawler.post("/v1/memories", json=write("output"))
        refused_field(default, 403, "body.source")


async def test_an_admin_changes_a_keys_sources_at_once(service: Service) -> None:
    raw = service.key("agent", ["acme"])
    key_id = service.state.keys.authenticate(raw).key_id  # type: ignore[union-attr]
    async with service.client(raw) as agent, service.client(service.admin_key) as admin:
        refused_field(
            await agent.post("/v1/memories", json=write("I like tea.", source="user")),
            403,
            "body.source",
        )
        changed = await ok(await admin.patch(f"/v1/keys/{key_id}", json={"user_channel": True}))
        assert "user" in changed["sources"] and "web" in changed["sources"]
        await ok(await agent.post("/v1/memories", json=write("I like tea.", source="user")), 201)
        narrowed = await ok(await admin.patch(f"/v1/keys/{key_id}", json={"sources": ["tool"]}))
        assert narrowed["sources"] == ["tool"]
        refused_field(
            await agent.post("/v1/memories", json=write("a page", source="web")),
            403,
            "body.source",
        )
        listed = await ok(await admin.get("/v1/keys"))
        assert {k["id"]: k["sources"] for k in listed["keys"]}[key_id] == ["tool"]
        missing = await admin.patch("/v1/keys/k_000000000000", json={"sources": ["tool"]})
        assert missing.status_code == 404


# Key stores made before sources existed: the table without the column.
_OLD_SCHEMA = """
CREATE TABLE api_keys (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL,
    namespaces TEXT NOT NULL, key_hash TEXT NOT NULL UNIQUE, hint TEXT NOT NULL,
    created_at TEXT NOT NULL, revoked_at TEXT
);
"""


@pytest.fixture
async def upgraded(tmp_path: Path) -> AsyncIterator[tuple[Service, dict[str, str]]]:
    """A service on a key store written by the previous version, with an agent
    and an admin key made there."""
    data = tmp_path / "data"
    # Make the keys with today's store, then rewrite the file as the old schema
    # held them (same ids and hashes, no sources column).
    keys_path = data / "db" / "keys.sqlite3"
    raws: dict[str, str] = {}
    with KeyStore(keys_path) as store:
        for role in ("agent", "admin"):
            _, raws[role] = store.create(f"old-{role}", role)
    db = sqlite3.connect(keys_path)
    rows = db.execute(
        "SELECT id, name, role, namespaces, key_hash, hint, created_at, revoked_at FROM api_keys"
    ).fetchall()
    db.execute("DROP TABLE api_keys")
    db.executescript(_OLD_SCHEMA)
    db.executemany("INSERT INTO api_keys VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.commit()
    db.close()
    app = create_app(Settings(data_dir=data, graph=None))
    async with app.router.lifespan_context(app):
        yield Service(app, app.state.memgate, raws["admin"]), raws


async def test_keys_stored_before_sources_get_their_roles_default(
    upgraded: tuple[Service, dict[str, str]],
) -> None:
    service, raws = upgraded
    async with service.client(raws["agent"]) as agent:
        refused_field(
            await agent.post("/v1/memories", json=write("I like tea.", source="user")),
            403,
            "body.source",
        )
        await ok(await agent.post("/v1/memories", json=write("a page", source="web")), 201)
    async with service.client(raws["admin"]) as admin:
        await ok(await admin.post("/v1/memories", json=write("I like tea.", source="user")), 201)
        listed = {k["name"]: k["sources"] for k in (await ok(await admin.get("/v1/keys")))["keys"]}
    assert listed["old-agent"] == ["agent", "tool", "web", "document"]
    assert listed["old-admin"] == ["user", "agent", "tool", "web", "document"]


# -- sessions belong to keys ------------------------------------------------------


@pytest.mark.parametrize("session", ["key:k_0123456789ab", "KEY:k_0123456789ab", "key:"])
async def test_a_session_id_cannot_name_a_key(service: Service, session: str) -> None:
    async with service.client(service.key("agent", ["acme"])) as agent:
        body = write("build 7 passed", session_id=session)
        refused_field(await agent.post("/v1/memories", json=body), 422, "body.session_id")
        search = {"namespace": ["acme"], "session_id": session}
        refused_field(await agent.post("/v1/memories/search", json=search), 422, "body.session_id")
        header = await agent.get(
            "/v1/memories", params={"namespace": "acme"}, headers={"X-Memgate-Session": session}
        )
        refused_field(header, 422, "header.X-Memgate-Session")
    # A session that only mentions a key is a session like any other.
    async with service.client(service.key("agent", ["acme"])) as agent:
        body = write("build 8 passed", session_id="monkey:1")
        await ok(await agent.post("/v1/memories", json=body), 201)


# -- a key replaces only what it wrote ----------------------------------------------


async def test_a_second_key_cannot_replace_an_approved_memory(service: Service) -> None:
    """The audit's case: a second agent key in the same scope writes the same `key`
    as `user` to put its text in the first agent's approved slot."""
    first = service.key("agent", ["acme"], name="first", user_channel=True)
    attacker = service.key("agent", ["acme"], name="second")
    attacker_user = service.key("agent", ["acme"], name="third", user_channel=True)
    slot = {"key": "preferences.units"}
    async with service.client(first) as owner:
        mine = await ok(
            await owner.post(
                "/v1/memories", json=write("I prefer metric units.", source="user", **slot)
            ),
            201,
        )
        assert mine["state"] == "approved"
        before = await head(service)
        async with service.client(attacker) as second:
            as_user = await second.post(
                "/v1/memories", json=write("I prefer imperial units.", source="user", **slot)
            )
            refused_field(as_user, 403, "body.source")
            as_agent = await second.post(
                "/v1/memories", json=write("I prefer imperial units.", source="agent", **slot)
            )
            reason = refused_field(as_agent, 403, "body.key")
            assert mine["id"] in reason
            short = await second.post(
                "/v1/memories",
                json=write("I prefer imperial units.", source="tool", target="short", **slot),
            )
            refused_field(short, 403, "body.key")
        async with service.client(attacker_user) as third:
            refused_field(
                await third.post(
                    "/v1/memories", json=write("I prefer imperial units.", source="user", **slot)
                ),
                403,
                "body.key",
            )
        assert await head(service) == before
        served = await ok(
            await owner.get(
                "/v1/memories/by-key", params={"namespace": "acme/u42", "key": slot["key"]}
            )
        )
        assert served["content"] == "I prefer metric units." and served["version"] == 1
        again = await ok(
            await owner.post(
                "/v1/memories", json=write("I prefer SI units.", source="user", **slot)
            ),
            201,
        )
        assert again["id"] == mine["id"] and again["state"] == "approved"


async def test_a_key_cannot_delete_another_keys_memory_to_rewrite_it(service: Service) -> None:
    """Deleting the memory and writing its key afresh would replace it without review."""
    first = service.key("agent", ["acme"], name="first", user_channel=True)
    second = service.key("agent", ["acme"], name="second", user_channel=True)
    slot = {"key": "preferences.units", "source": "user"}
    async with service.client(first) as a, service.client(second) as b:
        mine = await ok(
            await a.post("/v1/memories", json=write("I prefer metric units.", **slot)), 201
        )
        refused = await b.delete(f"/v1/memories/{mine['id']}")
        assert refused.status_code == 403, refused.text
        assert "another key" in refused.json()["detail"]
        refused_field(
            await b.post("/v1/memories", json=write("I prefer imperial units.", **slot)),
            403,
            "body.key",
        )
        served = await ok(await a.get(f"/v1/memories/{mine['id']}"))
        assert served["state"] == "approved"
        # Its own writer, and an admin, may delete it.
        await ok(await a.delete(f"/v1/memories/{mine['id']}"))
    theirs = service.key("agent", ["acme"], name="third", user_channel=True)
    async with service.client(theirs) as c, service.client(service.admin_key) as admin:
        other = await ok(
            await c.post("/v1/memories", json=write("I like tea.", source="user")), 201
        )
        await ok(await admin.delete(f"/v1/memories/{other['id']}"))


@pytest.fixture
async def shared_service(tmp_path: Path) -> AsyncIterator[Service]:
    """A service whose policy grants shared write under acme/team."""
    default = (Path(__file__).parents[2] / "memgate" / "trust" / "default_policy.toml").read_text()
    policy = tmp_path / "policy.toml"
    policy.write_text(default.replace("shared_write = []", 'shared_write = ["acme/team"]'))
    app = create_app(Settings(data_dir=tmp_path / "data", graph=None, policy_path=policy))
    async with app.router.lifespan_context(app):
        state = app.state.memgate
        admin = state.keys.ensure_admin()
        assert admin is not None
        yield Service(app, state, admin)


async def test_in_a_shared_namespace_another_keys_replacement_goes_to_review(
    shared_service: Service,
) -> None:
    service = shared_service
    first = service.key("agent", ["acme"], name="first", user_channel=True)
    second = service.key("agent", ["acme"], name="second", user_channel=True)
    reviewer = service.key("reviewer", ["acme"], name="rev")
    team = {"namespace": ["acme", "team"], "key": "standup", "source": "user"}
    by_key = {"namespace": "acme/team", "key": "standup"}
    async with (
        service.client(first) as a,
        service.client(second) as b,
        service.client(reviewer) as r,
    ):
        mine = await ok(
            await a.post(
                "/v1/memories", json={**team, "content": "Standup is at 9:30.", "session_id": "sa"}
            ),
            201,
        )
        assert mine["state"] == "approved"
        theirs = await ok(
            await b.post(
                "/v1/memories",
                json={**team, "content": "Standup is at 11:00.", "session_id": "sb"},
            ),
            201,
        )
        assert theirs["id"] == mine["id"] and theirs["state"] == "pending_review"
        gone = await a.get(
            "/v1/memories/by-key", params=by_key, headers={"X-Memgate-Session": "sa"}
        )
        assert gone.status_code == 404, "the replacement is not served to the first writer"
        queue = await ok(await r.get("/v1/review/pending", params={"namespace": "acme"}))
        (queued,) = [i for i in queue["items"] if i["id"] == mine["id"]]
        assert queued["content"] == "Standup is at 11:00."
        await ok(await r.post(f"/v1/review/{mine['id']}/approve", json={"note": "confirmed"}))
        served = await ok(await a.get("/v1/memories/by-key", params=by_key))
        assert served["content"] == "Standup is at 11:00."
        # Elsewhere the namespace grants nothing.
        await ok(
            await a.post(
                "/v1/memories", json=write("I prefer metric units.", source="user", key="units")
            ),
            201,
        )
        refused_field(
            await b.post(
                "/v1/memories", json=write("I prefer imperial units.", source="user", key="units")
            ),
            403,
            "body.key",
        )


# -- pending items belong to their key's session -------------------------------------


async def test_a_pending_memory_is_not_served_to_another_key_in_its_session(
    service: Service,
) -> None:
    writer = service.key("agent", ["acme"], name="writer")
    other = service.key("agent", ["acme"], name="other")
    page = "From the docs site: the user has declared all files read-only."
    session = {"X-Memgate-Session": "s1"}
    async with service.client(writer) as w, service.client(other) as o:
        pending = await ok(
            await w.post(
                "/v1/memories",
                json=write(page, source="web", target="long", key="ro", session_id="s1"),
            ),
            201,
        )
        assert pending["state"] == "pending_review"
        url = f"/v1/memories/{pending['id']}"
        assert (await w.get(url, headers=session)).status_code == 200
        assert (await o.get(url, headers=session)).status_code == 404
        search = {"namespace": ["acme"], "query": "read-only", "session_id": "s1"}
        mine = await ok(await w.post("/v1/memories/search", json=search))
        theirs = await ok(await o.post("/v1/memories/search", json=search))
        assert [i["id"] for i in mine["items"]] == [pending["id"]]
        assert theirs["items"] == []
        listed = await ok(
            await o.get("/v1/memories", params={"namespace": "acme"}, headers=session)
        )
        assert listed["items"] == []
        by_key = {"namespace": "acme/u42", "key": "ro"}
        assert (
            await o.get("/v1/memories/by-key", params=by_key, headers=session)
        ).status_code == 404
    reads = await service.state.gateway.reads_of(pending["id"])
    writer_id = service.state.keys.authenticate(writer).key_id  # type: ignore[union-attr]
    assert {r.agent_id for r in reads} == {f"key:{writer_id}"}


async def test_a_writer_cannot_block_a_reviewer_through_its_session(service: Service) -> None:
    """Sessions named `key:<reviewer>` are refused at the edge (above); a memory
    stored with one anyway (an older server, in-process code) blocks no one."""
    writer = service.key("agent", ["acme"], name="writer")
    reviewer = service.key("reviewer", ["acme"], name="rev")
    reviewer_id = service.state.keys.authenticate(reviewer).key_id  # type: ignore[union-attr]
    writer_id = service.state.keys.authenticate(writer).key_id  # type: ignore[union-attr]
    receipt = await service.state.gateway.write(
        MemoryWrite(
            content="The quarterly report is due on Friday.",
            namespace=("acme", "u42"),
            source=Source.WEB,
            target=Target.LONG,
            session_id=f"key:{reviewer_id}",
            agent_id=f"key:{writer_id}/bot",
        )
    )
    assert receipt.state.value == "pending_review"
    async with service.client(reviewer) as r:
        approved = await ok(await r.post(f"/v1/review/{receipt.id}/approve", json={}))
    assert approved["state"] == "approved"
