"""Notifications through the HTTP service: the app's delivery worker tells a
real receiver about a write entering review, a rollback applied over the API and
a failed verify (queued by the verify endpoint: it is no log event), once each."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable
from pathlib import Path

import httpx
from notify_receiver import Receiver, arrived, receiving

from memgate.bootstrap import DB_FILE
from memgate.notify import SIGNATURE_HEADER, TIMESTAMP_HEADER, verify_signature
from memgate.service.app import create_app
from memgate.service.settings import Settings

SECRET = "service-notify-secret-42"


def serve(
    tmp_path: Path,
    receiver: Receiver,
    body: Callable[[httpx.AsyncClient, httpx.AsyncClient], Awaitable[None]],
) -> None:
    settings = Settings(
        data_dir=tmp_path,
        graph=None,
        notify_urls=(receiver.url,),
        notify_secret=SECRET,  # type: ignore[arg-type]
        notify_retry_seconds=0.2,
    )
    app = create_app(settings)

    async def go() -> None:
        async with app.router.lifespan_context(app):
            keys = app.state.memgate.keys
            admin_key = keys.ensure_admin()
            _, agent_key = keys.create("agent", "agent", [("team",)])
            transport = httpx.ASGITransport(app=app)
            base = "http://memgate.test"
            async with (
                httpx.AsyncClient(
                    transport=transport,
                    base_url=base,
                    headers={"Authorization": f"Bearer {agent_key}"},
                ) as agent,
                httpx.AsyncClient(
                    transport=transport,
                    base_url=base,
                    headers={"Authorization": f"Bearer {admin_key}"},
                ) as admin,
            ):
                await body(agent, admin)

    asyncio.run(go())


def test_review_rollback_and_verify_failure_reach_the_receiver(tmp_path: Path) -> None:
    with receiving() as receiver:

        async def body(agent: httpx.AsyncClient, admin: httpx.AsyncClient) -> None:
            answer = await agent.post(
                "/v1/memories",
                json={
                    "content": "the build cache lives on nas-3",
                    "namespace": ["team", "ops"],
                    "source": "web",
                    "target": "long",
                },
            )
            assert answer.status_code == 201, answer.text
            written = answer.json()
            (first,) = await arrived(receiver, 1)
            assert first.json()["kind"] == "review_pending"
            assert first.json()["memory_id"] == written["id"]

            answer = await admin.post(
                "/v1/rollback",
                json={"to_seq": 0, "reason": "drill 3", "dry_run": False},
            )
            assert answer.status_code == 200, answer.text
            second = (await arrived(receiver, 2))[1].json()
            assert second["kind"] == "rollback_applied"
            assert second["reason"] == "drill 3" and second["detail"]["to_seq"] == 0

            ok = await admin.get("/v1/log/verify")
            assert ok.status_code == 200 and ok.json()["ok"] is True
            await asyncio.sleep(1.5)
            assert len(receiver.requests) == 2  # a clean verify tells nobody

            db = sqlite3.connect(tmp_path / DB_FILE)
            db.execute("DROP TRIGGER events_no_update")
            db.execute("UPDATE events SET actor = 'mallory' WHERE seq = 1")
            db.commit()
            db.close()
            for _ in range(2):  # the same failure found twice is told once
                bad = await admin.get("/v1/log/verify")
                assert bad.status_code == 200 and bad.json()["ok"] is False
            third = (await arrived(receiver, 3))[2].json()
            assert third["kind"] == "verify_failed"
            assert third["detail"]["first_bad_seq"] == 1
            await asyncio.sleep(1.5)
            assert len(receiver.requests) == 3

        serve(tmp_path, receiver, body)
        for request in receiver.requests:
            stamp = request.headers[TIMESTAMP_HEADER]
            assert verify_signature(
                SECRET.encode(), request.body, stamp, request.headers[SIGNATURE_HEADER]
            )
            assert (
                "nas-3" not in request.body.decode() or request.json()["kind"] == "review_pending"
            )


def test_notices_wait_for_the_next_start_when_the_receiver_is_down(tmp_path: Path) -> None:
    down = Receiver(port=0)
    down.start()
    port = down.port
    down.stop()  # a port nobody listens on
    receiver = Receiver(port=port)

    async def write(agent: httpx.AsyncClient, admin: httpx.AsyncClient) -> None:
        answer = await agent.post(
            "/v1/memories",
            json={
                "content": "survives a restart",
                "namespace": ["team"],
                "source": "web",
                "target": "long",
            },
        )
        assert answer.status_code == 201
        await asyncio.sleep(0.5)
        scraped = (await admin.get("/metrics")).text
        assert "memgate_notices_waiting 1.0" in scraped
        assert "memgate_notices_given_up 0.0" in scraped

    serve(tmp_path, receiver, write)  # delivery fails; the app stops with it queued
    receiver.start()
    try:

        async def wait(agent: httpx.AsyncClient, admin: httpx.AsyncClient) -> None:
            (request,) = await arrived(receiver, 1)
            assert request.json()["excerpt"] == "survives a restart"
            await asyncio.sleep(0.3)
            assert "memgate_notices_waiting 0.0" in (await admin.get("/metrics")).text
            await asyncio.sleep(1.0)  # time for a second (wrong) delivery to show

        serve(tmp_path, receiver, wait)
        assert len(receiver.requests) == 1
    finally:
        receiver.stop()
