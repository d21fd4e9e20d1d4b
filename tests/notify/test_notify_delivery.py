"""Notices delivered to a real webhook receiver on a loopback port: the signature
verifies, a receiver that is down or failing is retried with exponential backoff
until it takes the notice, and no notice carries a secret. The gateway is the
real SQLite one (library interface); the notices come out of its outbox."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import string
import time
from collections.abc import Awaitable, Callable
from datetime import timedelta
from pathlib import Path

from notify_receiver import Receiver, arrived, free_port, receiving

from memgate.bootstrap import open_gateway, open_outbox
from memgate.domain.memory import MemoryWrite
from memgate.domain.ports import Outbox
from memgate.gateway import Gateway
from memgate.notify import (
    NOTICE_HEADER,
    SIGNATURE_HEADER,
    TIMESTAMP_HEADER,
    Backoff,
    Deliverer,
    Format,
    Target,
    verify_signature,
)
from memgate.trust import Policy
from tests.contracts import FakeClock

SECRET = b"notify-test-secret-0123456789abcdef"
QUICK = Backoff(base=0.3, factor=2.0, cap=5.0, jitter=False)


def web_note(text: str, *namespace: str, **extra: object) -> MemoryWrite:
    """A long-term write from the web: it waits for review (a notice)."""
    return MemoryWrite(
        content=text,
        namespace=namespace or ("team", "notes"),
        source="web",
        target="long",
        **extra,  # type: ignore[arg-type]
    )


async def delivered(outbox: Outbox, count: int, within: float = 10.0) -> None:
    """Wait until `count` notices are settled as delivered (the receiver has them
    a moment before the worker records it)."""
    deadline = time.monotonic() + within
    while (await outbox.status()).delivered < count:
        assert time.monotonic() < deadline, await outbox.status()
        await asyncio.sleep(0.02)


def with_gateway(
    tmp_path: Path, body: Callable[[Gateway, Outbox], Awaitable[None]], **kwargs: object
) -> None:
    async def go() -> None:
        gateway = await open_gateway(tmp_path, **{"graph": None, **kwargs})  # type: ignore[arg-type]
        outbox = open_outbox(tmp_path)
        try:
            await body(gateway, outbox)
        finally:
            await outbox.close()
            await gateway.close()

    asyncio.run(go())


def test_a_review_notice_arrives_signed(tmp_path: Path) -> None:
    with receiving() as receiver:

        async def body(gateway: Gateway, outbox: Outbox) -> None:
            receipt = await gateway.write(web_note("the staging host moved to build-7"))
            assert receipt.state.value == "pending_review"
            deliverer = Deliverer(outbox, [Target(receiver.url)], secret=SECRET, backoff=QUICK)
            try:
                report = await deliverer.deliver_once()
            finally:
                await deliverer.close()
            assert (report.delivered, report.failed) == (1, 0)
            (request,) = receiver.requests
            payload = request.json()
            assert payload["kind"] == "review_pending"
            assert payload["memory_id"] == receipt.id
            assert payload["namespace"] == ["team", "notes"]
            assert payload["seq"] == receipt.seq
            assert payload["excerpt"] == "the staging host moved to build-7"
            assert request.headers[NOTICE_HEADER] == f"ev{receipt.seq}"
            assert (await outbox.status()).delivered == 1

        with_gateway(tmp_path, body)
        (request,) = receiver.requests
        stamp, signature = request.headers[TIMESTAMP_HEADER], request.headers[SIGNATURE_HEADER]
        assert signature.startswith("sha256=")
        assert verify_signature(SECRET, request.body, stamp, signature)
        assert not verify_signature(b"another secret", request.body, stamp, signature)
        assert not verify_signature(
            SECRET, request.body.replace(b"build-7", b"build-8"), stamp, signature
        )
        assert not verify_signature(SECRET, request.body, str(int(stamp) - 1), signature)
        replayed_later = time.time() + 3600
        assert not verify_signature(SECRET, request.body, stamp, signature, now=replayed_later)


def test_a_receiver_that_is_down_gets_the_notice_when_it_comes_up(tmp_path: Path) -> None:
    port = free_port()
    receiver = Receiver(port=port)

    async def body(gateway: Gateway, outbox: Outbox) -> None:
        receipt = await gateway.write(web_note("a page about the release train"))
        deliverer = Deliverer(
            outbox, [Target(receiver.url)], secret=SECRET, backoff=QUICK, poll_seconds=0.05
        )
        worker = asyncio.create_task(deliverer.run())
        try:
            await asyncio.sleep(1.2)  # attempts at ~0, 0.3, 0.9: all refused
            status = await outbox.status()
            assert status.pending == 1 and status.delivered == 0
            assert status.last_error is not None and "ConnectError" in status.last_error
            assert "T0SECRETPATH" not in status.last_error  # the URL is a credential
            receiver.start()
            (request,) = await arrived(receiver, 1, within=10)
            assert request.json()["memory_id"] == receipt.id
            await delivered(outbox, 1)
            assert (await outbox.status()).pending == 0
            await asyncio.sleep(0.5)
            assert len(receiver.requests) == 1  # delivered once, not again
        finally:
            worker.cancel()
            await deliverer.close()

    try:
        with_gateway(tmp_path, body)
    finally:
        receiver.stop()


def test_failures_are_retried_with_exponential_backoff(tmp_path: Path) -> None:
    with receiving(script=[503, 500, 502]) as receiver:

        async def body(gateway: Gateway, outbox: Outbox) -> None:
            await gateway.write(web_note("retry me"))
            deliverer = Deliverer(
                outbox, [Target(receiver.url)], secret=SECRET, backoff=QUICK, poll_seconds=0.02
            )
            worker = asyncio.create_task(deliverer.run())
            try:
                await arrived(receiver, 4, within=15)
                await delivered(outbox, 1)
            finally:
                worker.cancel()
                await deliverer.close()
            assert (await outbox.status()).delivered == 1

        with_gateway(tmp_path, body)
        times = [r.at for r in receiver.requests]
        gaps = [b - a for a, b in itertools.pairwise(times)]
        # waits of base * 2**(n-1) after the n-th failure: 0.3, 0.6, 1.2 seconds at least
        assert gaps[0] >= 0.3 and gaps[1] >= 0.6 and gaps[2] >= 1.2, gaps
        assert gaps[2] > gaps[0] * 2, gaps
        assert len({r.headers[NOTICE_HEADER] for r in receiver.requests}) == 1


def test_retry_after_is_honoured(tmp_path: Path) -> None:
    with receiving(script=[(429, {"Retry-After": "1"})]) as receiver:

        async def body(gateway: Gateway, outbox: Outbox) -> None:
            await gateway.write(web_note("slow down"))
            fast = Backoff(base=0.05, jitter=False)
            deliverer = Deliverer(outbox, [Target(receiver.url)], backoff=fast, poll_seconds=0.02)
            worker = asyncio.create_task(deliverer.run())
            try:
                await arrived(receiver, 2, within=10)
            finally:
                worker.cancel()
                await deliverer.close()

        with_gateway(tmp_path, body)
        first, second = receiver.requests[:2]
        assert second.at - first.at >= 1.0


def test_each_target_gets_it_once_even_when_another_fails(tmp_path: Path) -> None:
    with receiving() as good, receiving(script=[500, 500]) as flaky:

        async def body(gateway: Gateway, outbox: Outbox) -> None:
            await gateway.write(web_note("two targets"))
            targets = [Target(good.url), Target(flaky.url, Format.SLACK)]
            deliverer = Deliverer(outbox, targets, backoff=QUICK, poll_seconds=0.02)
            worker = asyncio.create_task(deliverer.run())
            try:
                await arrived(flaky, 3, within=10)
                await delivered(outbox, 1)
            finally:
                worker.cancel()
                await deliverer.close()
            assert (await outbox.status()).delivered == 1

        with_gateway(tmp_path, body)
        assert len(good.requests) == 1
        assert "blocks" in flaky.requests[-1].json()


def _rand(rng: random.Random, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def test_notices_never_carry_secrets(tmp_path: Path) -> None:
    rng = random.Random(8)
    token = "ghp_" + _rand(rng, 36)
    mail = "dana.whitfield@fastmail.com"
    marker = "ticket-4471-zeta-metadata"
    texts = [
        f"The CI token for the docs repo is {token} (rotate monthly).",
        f"Contact Dana Whitfield at {mail} about the offsite.",
    ]
    with receiving() as receiver:

        async def body(gateway: Gateway, outbox: Outbox) -> None:
            for text in texts:
                receipt = await gateway.write(web_note(text, metadata={"ticket": marker}))
                stored = await gateway.get_any(receipt.id)
                assert stored is not None and stored.state.value == "pending_review"
                assert token not in stored.content and mail not in stored.content
                assert "[REDACTED:" in stored.content
            targets = [Target(receiver.url), Target(receiver.url + "?s=1", Format.SLACK)]
            deliverer = Deliverer(outbox, targets, secret=SECRET)
            try:
                report = await deliverer.deliver_once()
            finally:
                await deliverer.close()
            assert report.delivered == 2

        with_gateway(tmp_path, body)
        assert len(receiver.requests) == 4
        for request in receiver.requests:
            raw = request.body.decode()
            for value in (token, mail, marker, token[4:20], "fastmail"):
                assert value not in raw, value
            assert "REDACTED:MG-" in raw


def test_slack_messages_cannot_ping_or_link(tmp_path: Path) -> None:
    with receiving() as receiver:

        async def body(gateway: Gateway, outbox: Outbox) -> None:
            await gateway.write(
                web_note("<!channel> read <https://evil.example/x|the docs> & reply", "a<b>", "c")
            )
            deliverer = Deliverer(outbox, [Target(receiver.url, Format.SLACK)])
            try:
                await deliverer.deliver_once()
            finally:
                await deliverer.close()

        with_gateway(tmp_path, body)
        (request,) = receiver.requests
        message = request.json()
        assert set(message) == {"text", "blocks"}
        assert message["text"].startswith("Review needed: m_")
        mrkdwn = [message["text"]]
        for block in message["blocks"]:
            if block.get("text", {}).get("type") == "mrkdwn":
                mrkdwn.append(block["text"]["text"])
            mrkdwn.extend(f["text"] for f in block.get("fields", []))
            mrkdwn.extend(e["text"] for e in block.get("elements", []) if e.get("type") == "mrkdwn")
        assert mrkdwn and all("<" not in m and ">" not in m for m in mrkdwn)
        assert any("a&lt;b&gt;/c" in m for m in mrkdwn)
        excerpts = [
            e["text"]
            for b in message["blocks"]
            for e in b.get("elements", [])
            if e.get("type") == "plain_text"
        ]
        assert excerpts == ["<!channel> read <https://evil.example/x|the docs> & reply"]


def test_review_timeouts_and_rollbacks_are_told(tmp_path: Path) -> None:
    clock = FakeClock()
    clock.now = clock.now.replace(year=2030)
    policy = Policy.load()
    timeout = policy.routing.review_timeout_seconds

    async def body(gateway: Gateway, outbox: Outbox) -> None:
        first = await gateway.write(web_note("waits forever"))
        clock.advance(seconds=timeout + 60)
        assert await gateway.expire_reviews() == 1
        kept = await gateway.write(web_note("approve me"))
        await gateway.approve(kept.id, reviewer="reviewer-1")
        plan = await gateway.rollback(
            to=first.seq, reason="incident 12", actor="admin:alice", dry_run=False
        )
        assert plan.applied
        entries = await outbox.claim(now=time.time() + 1, limit=50, lease=30)
        kinds = [(e.notice.kind.value, e.notice.memory_id) for e in entries]
        assert kinds[:3] == [
            ("review_pending", first.id),
            ("review_timeout", first.id),
            ("review_pending", kept.id),
        ]
        rollbacks = [e.notice for e in entries if e.notice.kind.value == "rollback_applied"]
        assert len(rollbacks) == 1  # one notice for the rollback, not one per memory
        told = rollbacks[0]
        assert told.actor == "admin:alice" and told.reason == "incident 12"
        assert (
            told.detail["to_seq"] == first.seq and told.detail["changed"] == len(plan.changes) == 2
        )
        assert len(entries) == 4

    with_gateway(tmp_path, body, policy=policy, clock=clock)


def test_no_target_keeps_notices_until_they_are_too_old(tmp_path: Path) -> None:
    async def body(gateway: Gateway, outbox: Outbox) -> None:
        await gateway.write(web_note("nobody listens"))
        now = time.time()
        deliverer = Deliverer(outbox, [], backoff=Backoff(max_age=100), clock=lambda: now)
        await deliverer.deliver_once()
        status = await outbox.status()
        assert (status.pending, status.given_up) == (1, 0)
        assert status.last_error == "no notification target configured"
        later = Deliverer(outbox, [], backoff=Backoff(max_age=100), clock=lambda: now + 200)
        await later.deliver_once()
        status = await outbox.status()
        assert (status.pending, status.given_up) == (0, 1)

    with_gateway(tmp_path, body)


def test_a_plain_json_notice_is_the_notice(tmp_path: Path) -> None:
    with receiving() as receiver:

        async def body(gateway: Gateway, outbox: Outbox) -> None:
            await gateway.write(web_note("plain"))
            deliverer = Deliverer(outbox, [Target(receiver.url)], public_url="https://mg.example")
            try:
                await deliverer.deliver_once()
            finally:
                await deliverer.close()

        with_gateway(tmp_path, body)
        payload = receiver.requests[0].json()
        assert payload["type"] == "memgate.notice" and payload["version"] == 1
        assert payload["summary"].startswith("Review needed: ")
        assert payload["link"] == f"https://mg.example/ui/items/{payload['memory_id']}"
        assert "content" not in payload and "metadata" not in payload
        assert json.loads(receiver.requests[0].body) == payload


_ = timedelta


def test_the_worker_outlives_an_outbox_that_is_not_there_yet(tmp_path: Path) -> None:
    """A worker started before its database exists (or while it cannot be read)
    keeps polling, quietly, and delivers once the store is there."""
    with receiving() as receiver:

        async def go() -> None:
            outbox = open_outbox(tmp_path)
            deliverer = Deliverer(outbox, [Target(receiver.url)], poll_seconds=0.01)
            worker = asyncio.create_task(deliverer.run())
            try:
                await asyncio.sleep(0.3)
                assert not worker.done()
                gateway = await open_gateway(tmp_path, graph=None)
                try:
                    receipt = await gateway.write(web_note("late start"))
                    (request,) = await arrived(receiver, 1, within=40)
                    assert request.json()["memory_id"] == receipt.id
                finally:
                    await gateway.close()
            finally:
                worker.cancel()
                await deliverer.close()
                await outbox.close()

        asyncio.run(go())


def test_slack_blocks_stay_within_block_kit_limits() -> None:
    from memgate.domain.memory import utcnow
    from memgate.domain.notices import Notice, NoticeKind
    from memgate.notify import render

    notice = Notice(
        id="ev9",
        kind=NoticeKind.REVIEW_PENDING,
        at=utcnow(),
        memory_id="m_" + "X" * 26,
        namespace=tuple("&<>label" * 40 for _ in range(30)),
        source="web",
        reason="r" * 300,
        rules=tuple(f"MG-SEC-{i:03d}" for i in range(40)),
        excerpt="e" * 161,
    )
    message = json.loads(render(notice, Format.SLACK))
    for block in message["blocks"]:
        if "text" in block:
            assert len(block["text"]["text"]) <= 3000
        assert len(block.get("fields", [])) <= 10
        assert all(len(f["text"]) <= 2000 for f in block.get("fields", []))


def test_the_in_memory_twin_tells_a_library_gateway() -> None:
    from memgate.bootstrap import memory_gateway, memory_outbox

    async def go() -> None:
        gateway = memory_gateway()
        outbox = memory_outbox(gateway.store)
        receipt = await gateway.write(web_note("kept in memory only"))
        (entry,) = await outbox.claim(now=time.time() + 1, limit=10, lease=30)
        assert entry.notice.kind.value == "review_pending"
        assert entry.notice.memory_id == receipt.id
        await gateway.close()

    asyncio.run(go())
