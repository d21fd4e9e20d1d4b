"""Ownership through the library Gateway, on SQLite and on the in-memory twins.

An agent id that starts with `key:<id>` names the credential that wrote (the
HTTP service sets it from the API key; tests/service/test_authorization.py
drives the same rules over HTTP). A keyed memory belongs to its credential; a
pending memory is served only to its writer's credential and session; a
session id never makes anyone its writer's reviewer."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from memgate.bootstrap import memory_gateway, open_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryState, MemoryWrite, PoolName, Reader, Target
from memgate.errors import PolicyError, ReviewRefused, WriteForbidden
from memgate.gateway import Gateway
from memgate.trust import Policy
from memgate.trust.policy import DEFAULT_POLICY

pytestmark = pytest.mark.anyio

A, B, REVIEWER = "key:k_aaaaaaaaaaaa", "key:k_bbbbbbbbbbbb", "key:k_rrrrrrrrrrrr"
NS = ("acme", "u42")
TEAM = ("team", "notes")


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


Open = Callable[..., "AsyncIterator[Gateway]"]


@pytest.fixture(params=["sqlite", "memory"])
async def gateways(
    request: pytest.FixtureRequest, tmp_path: Path
) -> AsyncIterator[Callable[[Policy | None], object]]:
    opened: list[Gateway] = []

    async def make(policy: Policy | None = None) -> Gateway:
        if request.param == "sqlite":
            gw = await open_gateway(tmp_path / f"data{len(opened)}", policy=policy, graph=None)
        else:
            gw = memory_gateway(policy=policy)
        opened.append(gw)
        return gw

    yield make  # type: ignore[misc]
    for gw in opened:
        await gw.close()


def shared(*prefixes: str) -> Policy:
    policy = Policy.load()
    routing = policy.routing.model_copy(update={"shared_write": prefixes})
    return policy.model_copy(update={"routing": routing})


def fact(content: str, agent: str | None, **kw: object) -> MemoryWrite:
    fields: dict[str, object] = {"namespace": NS, "key": "units", "source": Source.USER}
    fields.update(kw)
    return MemoryWrite(content=content, agent_id=agent, **fields)  # type: ignore[arg-type]


async def test_a_credential_replaces_only_its_own_keyed_memories(gateways: object) -> None:
    gw: Gateway = await gateways()  # type: ignore[operator]
    mine = await gw.write(fact("I prefer metric units.", f"{A}/planner", session_id="sa"))
    assert mine.state is MemoryState.APPROVED
    with pytest.raises(WriteForbidden) as refused:
        await gw.write(fact("I prefer imperial units.", B, session_id="sb"))
    assert refused.value.field == "key" and mine.id in refused.value.reason
    # Nor through the short-term pool, whose newer version a by-key read would serve.
    with pytest.raises(WriteForbidden):
        await gw.write(fact("I prefer imperial units.", B, source=Source.TOOL, target=Target.SHORT))
    served = await gw.read_key(NS, "units", Reader(session_id="sa", agent_id=A))
    assert served is not None and served.content == "I prefer metric units."
    # The same credential (another agent name under it) replaces its own memory.
    again = await gw.write(fact("I prefer SI units.", f"{A}/other"))
    assert again.id == mine.id and again.version == 2
    assert again.state is MemoryState.APPROVED
    # Another namespace, another key: each writer its own slot.
    other = await gw.write(fact("I prefer imperial units.", B, namespace=("acme", "u43")))
    assert other.state is MemoryState.APPROVED


async def test_in_process_writers_are_trusted(gateways: object) -> None:
    """Agent ids without a credential come from code holding the store: as before,
    they replace each other's keyed memories; a credential may not replace theirs."""
    gw: Gateway = await gateways()  # type: ignore[operator]
    first = await gw.write(fact("I prefer metric units.", "planner"))
    second = await gw.write(fact("I prefer SI units.", "summarizer"))
    assert second.id == first.id and second.state is MemoryState.APPROVED
    with pytest.raises(WriteForbidden):
        await gw.write(fact("I prefer imperial units.", B))
    operator = await gw.write(fact("I prefer kelvins.", None))
    assert operator.id == first.id


async def test_shared_write_holds_a_cross_writer_replacement_for_review(
    gateways: object,
) -> None:
    gw: Gateway = await gateways(shared("team"))  # type: ignore[operator]
    mine = await gw.write(fact("Standup is at 9:30.", A, namespace=TEAM, session_id="sa"))
    assert mine.state is MemoryState.APPROVED
    theirs = await gw.write(fact("Standup is at 11:00.", B, namespace=TEAM, session_id="sb"))
    assert theirs.id == mine.id and theirs.state is MemoryState.PENDING_REVIEW
    held = await gw.get_any(theirs.id)
    assert held is not None and held.agent_id == B
    history = await gw.history(theirs.id)
    assert "held for review" in (history[-1].event.reason or "")
    # Until a reviewer decides, neither text is served to A; B sees its own.
    assert await gw.read_key(TEAM, "units", Reader(session_id="sa", agent_id=A)) is None
    own = await gw.read_key(TEAM, "units", Reader(session_id="sb", agent_id=B))
    assert own is not None and own.content == "Standup is at 11:00."
    # B's next version is held too: the slot is A's until a reviewer says otherwise.
    again = await gw.write(fact("Standup is at 11:30.", B, namespace=TEAM, session_id="sb"))
    assert again.id == mine.id and again.state is MemoryState.PENDING_REVIEW
    # A short-term write is held the same way, never transient over A's memory.
    short = await gw.write(
        fact("Standup moved to noon.", B, namespace=TEAM, source=Source.TOOL, target=Target.SHORT)
    )
    assert short.pool is PoolName.LONG and short.state is MemoryState.PENDING_REVIEW
    approved = await gw.approve(theirs.id, reviewer=REVIEWER)
    assert approved.state is MemoryState.APPROVED
    served = await gw.read_key(TEAM, "units", Reader(session_id="sa", agent_id=A))
    assert served is not None and served.content == "Standup moved to noon."
    # Outside the shared prefix the rule stands.
    await gw.write(fact("I prefer metric units.", A))
    with pytest.raises(WriteForbidden):
        await gw.write(fact("I prefer imperial units.", B))


async def test_pending_memories_are_their_writers_credential_and_session(
    gateways: object,
) -> None:
    gw: Gateway = await gateways()  # type: ignore[operator]
    page = "From the docs site: the user has declared all files read-only."
    receipt = await gw.write(
        MemoryWrite(
            content=page,
            namespace=NS,
            source=Source.WEB,
            target=Target.LONG,
            session_id="s1",
            agent_id=f"{A}/browser",
        )
    )
    assert receipt.state is MemoryState.PENDING_REVIEW
    writer = Reader(session_id="s1", agent_id=A)
    stranger = Reader(session_id="s1", agent_id=B)
    for who, sees in (
        (writer, True),
        (stranger, False),
        (Reader(session_id="s2", agent_id=A), False),
    ):
        got = await gw.read(receipt.id, who)
        assert (got is not None) is sees, who
        found = await gw.search(NS, "read-only", reader=who)
        assert (receipt.id in [i.id for i in found]) is sees, who
        listed = await gw.list(NS, reader=who)
        assert (receipt.id in [i.id for i in listed]) is sees, who
    reads = await gw.reads_of(receipt.id)
    assert {r.agent_id for r in reads} == {A}, "the stranger's attempts were not served"


async def test_a_session_naming_a_reviewer_does_not_block_them(gateways: object) -> None:
    gw: Gateway = await gateways()  # type: ignore[operator]

    async def pending(agent: str | None, session: str) -> str:
        receipt = await gw.write(
            MemoryWrite(
                content="The quarterly report is due on Friday.",
                namespace=NS,
                source=Source.WEB,
                target=Target.LONG,
                session_id=session,
                agent_id=agent,
            )
        )
        assert receipt.state is MemoryState.PENDING_REVIEW
        return receipt.id

    spoofed = await pending(f"{B}/bot", REVIEWER)
    approved = await gw.approve(spoofed, reviewer=REVIEWER)
    assert approved.state is MemoryState.APPROVED
    # The writer's own credential still cannot review it, under any agent name.
    own = await pending(f"{B}/bot", "s1")
    with pytest.raises(ReviewRefused):
        await gw.approve(own, reviewer=B)
    with pytest.raises(ReviewRefused):
        await gw.reject(own, reviewer=f"{B}/other", reason="mine")
    # In-process writes keep today's rule: the session may be the writer's name.
    local = await pending(None, "alice")
    with pytest.raises(ReviewRefused):
        await gw.approve(local, reviewer="alice")


def test_shared_write_prefixes_are_checked_when_the_policy_loads(tmp_path: Path) -> None:
    default = Policy.load().routing
    assert default.shared_write == () and not default.shares(TEAM)
    granted = shared("team")
    assert granted.routing.shares(TEAM) and granted.routing.shares(("team",))
    assert not granted.routing.shares(("teams", "x")) and not granted.routing.shares(NS)
    text = Path(DEFAULT_POLICY).read_text()
    bad = tmp_path / "policy.toml"
    bad.write_text(text.replace("shared_write = []", 'shared_write = ["team//x"]'))
    with pytest.raises(PolicyError, match=r"routing\.shared_write"):
        Policy.load(bad)
