"""The Pool port's contract: every backend passes this one suite.

A backend's test module subclasses `PoolContract` and supplies `open_pool` (a
fresh, empty pool), `make_item` (an item that pool holds) and `states` (the
states such items may be in). Each test gets its own pool.
"""

from __future__ import annotations

import tempfile
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable
from datetime import UTC, timedelta, timezone
from pathlib import Path
from typing import Any, ClassVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgate.domain.memory import MemoryItem, MemoryState
from memgate.domain.ports import Pool, PoolQuery
from memgate.domain.types import Category, Decision, Finding, Severity, Source
from tests.contracts import T0, finding, run

Body = Callable[[Any, Pool], Awaitable[None]]


def pool_test(body: Body) -> Callable[[Any, Path], None]:
    """Turn `async def test_x(self, pool)` into a sync test on a fresh pool."""

    def test(self: PoolContract, tmp_path: Path) -> None:
        async def go() -> None:
            pool = await self.open_pool(tmp_path)
            try:
                await body(self, pool)
            finally:
                await self.close_pool(pool)

        run(go())

    test.__name__ = body.__name__
    test.__qualname__ = body.__qualname__
    test.__doc__ = body.__doc__
    return test


def ids(items: list[MemoryItem]) -> list[str]:
    return [i.id for i in items]


# -- strategies for the round-trip property (STYLE #10) -------------------------

_label = st.text(min_size=1, max_size=12).filter(lambda s: "/" not in s)
_json_scalar = (
    st.none()
    | st.booleans()
    | st.integers(-(2**53), 2**53)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=20)
)
_json = st.recursive(
    _json_scalar,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3)
    ),
    max_leaves=8,
)
_moment = st.datetimes(
    min_value=T0.replace(tzinfo=None) - timedelta(days=3650),
    max_value=T0.replace(tzinfo=None) + timedelta(days=3650),
    timezones=st.sampled_from([UTC, timezone(timedelta(hours=8)), timezone(timedelta(hours=-5))]),
)
_findings = st.lists(
    st.builds(
        Finding,
        rule_id=st.from_regex(r"MG-[A-Z]{2,6}-[0-9]{3}", fullmatch=True),
        category=st.sampled_from(Category),
        severity=st.sampled_from(Severity),
        confidence=st.floats(0, 1),
        weight=st.floats(0, 5),
        chunk_index=st.none() | st.integers(0, 50),
        span=st.tuples(st.integers(0, 100), st.integers(0, 100)),
        evidence=st.text(max_size=20),
        fingerprint=st.none() | st.text("0123456789abcdef", min_size=16, max_size=16),
        layer=st.sampled_from(["text", "base64", "tag_chars"]),
    ),
    max_size=3,
).map(tuple)
_opt_text = st.none() | st.text(max_size=16)
item_fields = st.fixed_dictionaries(
    {
        "id": st.uuids().map(str),
        "namespace": st.lists(_label, min_size=1, max_size=3).map(tuple),
        "key": _opt_text,
        "content": st.text(max_size=200),
        "trust_score": st.floats(0, 1),
        "decision": st.sampled_from(Decision),
        "findings": _findings,
        "source": st.sampled_from(Source),
        "session_id": _opt_text,
        "agent_id": _opt_text,
        "call_id": _opt_text,
        "metadata": st.dictionaries(st.text(max_size=10), _json, max_size=4),
        "created_at": _moment,
        "updated_at": _moment,
        "scanned_at": _moment,
        "rules_version": st.text(min_size=1, max_size=10),
        "fingerprint": st.text("0123456789abcdef", min_size=16, max_size=16),
        "version": st.integers(1, 1000),
        "derived_from": st.lists(st.uuids().map(str), max_size=2).map(tuple),
        "reviewed_by": _opt_text,
        "reason": _opt_text,
    }
)


class PoolContract(ABC):
    """What every Pool must do. Not collected itself (no `Test` prefix)."""

    states: ClassVar[tuple[MemoryState, ...]]
    """The states the pool's items may be in (two or more if the pool allows it)."""

    @abstractmethod
    async def open_pool(self, directory: Path) -> Pool:
        """A fresh, empty pool; `directory` is the test's own scratch space."""

    async def close_pool(self, pool: Pool) -> None:
        close = getattr(pool, "close", None)
        if close is not None:
            await close()

    @abstractmethod
    def make_item(self, **fields: Any) -> MemoryItem:
        """An item this pool holds; `fields` override its defaults."""

    # -- put / get ---------------------------------------------------------------

    @pool_test
    async def test_put_get_round_trip(self, pool: Pool) -> None:
        item = self.make_item(
            namespace=("user-1", "prefs", "tea"),
            key="favourite",
            content='likes green tea; JSON {"a": [1, 2]} and a tab\there',
            trust_score=0.91,
            findings=(finding(Category.PII, "MG-PII-001"), finding(Category.SECRET, "MG-SEC-002")),
            session_id="s-1",
            agent_id="agent-7",
            call_id="call-3",
            metadata={"lang": "en", "n": 3, "nested": {"ok": True, "xs": [1.5, None]}},
            expires_at=T0 + timedelta(days=2),
            version=4,
            derived_from=("m-parent",),
            reviewed_by="rev-1",
            reason="looks fine",
        )
        assert await pool.get(item.id) is None
        await pool.put(item)
        got = await pool.get(item.id)
        assert got == item
        assert got is not None
        assert got.model_dump() == item.model_dump()
        assert await pool.get("no-such-id") is None

    @settings(
        max_examples=25,
        deadline=None,
        # Each backend's subclass runs this same function: that is the point.
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
    )
    @given(data=st.data())
    def test_round_trip_any_item(self, data: st.DataObject) -> None:
        fields = data.draw(item_fields)
        state = data.draw(st.sampled_from(self.states))
        item = self.make_item(state=state, **fields)

        async def go(directory: Path) -> None:
            pool = await self.open_pool(directory)
            try:
                await pool.put(item)
                got = await pool.get(item.id)
            finally:
                await self.close_pool(pool)
            assert got == item
            assert got is not None
            assert got.model_dump_json() == item.model_dump_json()

        with tempfile.TemporaryDirectory() as directory:
            run(go(Path(directory)))

    @pool_test
    async def test_put_same_id_replaces(self, pool: Pool) -> None:
        first = self.make_item(content="alpha quartz", key="k")
        await pool.put(first)
        second = first.model_copy(
            update={
                "content": "beta quartz",
                "version": 2,
                "updated_at": first.updated_at + timedelta(1),
            }
        )
        await pool.put(second)
        assert await pool.get(first.id) == second
        assert await pool.list(PoolQuery()) == [second]
        assert await pool.search(PoolQuery(text="alpha")) == []
        assert await pool.search(PoolQuery(text="beta")) == [second]
        assert await pool.search(PoolQuery(text="quartz")) == [second]

    @pool_test
    async def test_remove(self, pool: Pool) -> None:
        kept, gone = self.make_item(content="kept words"), self.make_item(content="gone words")
        await pool.put(kept)
        await pool.put(gone)
        await pool.remove(gone.id)
        assert await pool.get(gone.id) is None
        assert await pool.get(kept.id) == kept
        assert await pool.list(PoolQuery()) == [kept]
        assert await pool.search(PoolQuery(text="words")) == [kept]
        await pool.remove(gone.id)  # removing twice, or an unknown id, is no error
        await pool.remove("no-such-id")
        assert await pool.list(PoolQuery()) == [kept]

    # -- get_by_key ----------------------------------------------------------------

    @pool_test
    async def test_get_by_key_returns_newest_not_deleted(self, pool: Pool) -> None:
        ns = ("user-1", "prefs")
        older = self.make_item(namespace=ns, key="tea", content="green")
        newer = self.make_item(
            namespace=ns,
            key="tea",
            content="black",
            updated_at=older.updated_at + timedelta(hours=1),
        )
        elsewhere = self.make_item(namespace=("user-2", "prefs"), key="tea")
        other_key = self.make_item(namespace=ns, key="coffee")
        for item in (older, newer, elsewhere, other_key):
            await pool.put(item)

        assert await pool.get_by_key(ns, "tea") == newer
        assert await pool.get_by_key(("user-2", "prefs"), "tea") == elsewhere
        assert await pool.get_by_key(ns, "coffee") == other_key
        assert await pool.get_by_key(ns, "milk") is None
        # The namespace must match exactly, not by prefix.
        assert await pool.get_by_key(("user-1",), "tea") is None
        assert await pool.get_by_key(("user-1", "prefs", "x"), "tea") is None

        tombstone = newer.model_copy(
            update={
                "state": MemoryState.DELETED,
                "updated_at": newer.updated_at + timedelta(hours=1),
            }
        )
        await pool.put(tombstone)
        assert await pool.get_by_key(ns, "tea") == older

    # -- list: filters ---------------------------------------------------------------

    @pool_test
    async def test_list_matches_namespace_by_label_prefix(self, pool: Pool) -> None:
        spaces = {
            "a": ("a",),
            "a.b": ("a", "b"),
            "a.b.c": ("a", "b", "c"),
            "a.bc": ("a", "bc"),
            "ab": ("ab",),
            "a-": ("a-",),
            "a0": ("a0",),
            "b.a": ("b", "a"),
            "zh": ("用户", "笔记"),
        }
        made = {name: self.make_item(namespace=ns) for name, ns in spaces.items()}
        for item in made.values():
            await pool.put(item)

        async def under(*prefix: str) -> set[str]:
            found = await pool.list(PoolQuery(namespace_prefix=prefix))
            return {name for name, item in made.items() if item.id in ids(found)}

        assert await under() == set(made)
        assert await under("a") == {"a", "a.b", "a.b.c", "a.bc"}
        assert await under("a", "b") == {"a.b", "a.b.c"}
        assert await under("a", "b", "c") == {"a.b.c"}
        assert await under("ab") == {"ab"}
        assert await under("a-") == {"a-"}
        assert await under("b") == {"b.a"}
        assert await under("用户") == {"zh"}
        assert await under("c") == set()
        assert await under("a", "b", "c", "d") == set()

    @pool_test
    async def test_list_filters_by_state(self, pool: Pool) -> None:
        by_state = {s: [self.make_item(state=s), self.make_item(state=s)] for s in self.states}
        for items in by_state.values():
            for item in items:
                await pool.put(item)
        for state, items in by_state.items():
            found = await pool.list(PoolQuery(states=frozenset({state})))
            assert sorted(ids(found)) == sorted(ids(items))
        everything = await pool.list(PoolQuery(states=frozenset(self.states)))
        assert len(everything) == 2 * len(self.states)
        assert await pool.list(PoolQuery(states=frozenset({MemoryState.REJECTED}))) == []
        assert await pool.list(PoolQuery(states=frozenset())) == []

    @pool_test
    async def test_list_filters_by_source_category_session(self, pool: Pool) -> None:
        web = self.make_item(
            source=Source.WEB, session_id="s-1", findings=(finding(Category.INJECTION),)
        )
        user = self.make_item(
            source=Source.USER, session_id="s-2", findings=(finding(Category.PII),)
        )
        both = self.make_item(
            source=Source.TOOL,
            session_id="s-1",
            findings=(finding(Category.PII), finding(Category.CODE_EXEC, "MG-CODE-001")),
        )
        clean = self.make_item(source=Source.WEB, session_id=None)
        for item in (web, user, both, clean):
            await pool.put(item)

        async def found(**query: Any) -> set[str]:
            return set(ids(await pool.list(PoolQuery(**query))))

        assert await found(source=Source.WEB) == {web.id, clean.id}
        assert await found(source=Source.DOCUMENT) == set()
        assert await found(category=Category.PII) == {user.id, both.id}
        assert await found(category=Category.CODE_EXEC) == {both.id}
        assert await found(category=Category.SECRET) == set()
        assert await found(session_id="s-1") == {web.id, both.id}
        assert await found(session_id="s-3") == set()
        assert await found(source=Source.WEB, session_id="s-1") == {web.id}
        assert await found(category=Category.PII, session_id="s-1") == {both.id}

    @pool_test
    async def test_list_filters_by_metadata_equality(self, pool: Pool) -> None:
        en = self.make_item(metadata={"lang": "en", "n": 3, "pinned": True, "tags": ["x"]})
        fr = self.make_item(metadata={"lang": "fr", "n": 3, "pinned": False})
        zh = self.make_item(metadata={"lang": "中文", "n": 4, "odd key": "v"})
        bare = self.make_item(metadata={})
        for item in (en, fr, zh, bare):
            await pool.put(item)

        async def found(metadata: dict[str, Any]) -> set[str]:
            return set(ids(await pool.list(PoolQuery(metadata=metadata))))

        assert await found({}) == {en.id, fr.id, zh.id, bare.id}
        assert await found({"lang": "en"}) == {en.id}
        assert await found({"lang": "中文"}) == {zh.id}
        assert await found({"n": 3}) == {en.id, fr.id}
        assert await found({"n": 3, "lang": "fr"}) == {fr.id}
        assert await found({"pinned": True}) == {en.id}
        assert await found({"pinned": False}) == {fr.id}
        assert await found({"tags": ["x"]}) == {en.id}
        assert await found({"odd key": "v"}) == {zh.id}
        assert await found({"lang": "de"}) == set()
        assert await found({"n": "3"}) == set()

    @pool_test
    async def test_list_filters_older_than(self, pool: Pool) -> None:
        items = [self.make_item(created_at=T0 + timedelta(minutes=i)) for i in range(4)]
        for item in items:
            await pool.put(item)
        found = await pool.list(PoolQuery(older_than=T0 + timedelta(minutes=2)))
        assert ids(found) == [items[1].id, items[0].id]

    # -- list: order and pages ---------------------------------------------------------

    @pool_test
    async def test_list_orders_newest_first_and_pages(self, pool: Pool) -> None:
        items = [
            self.make_item(created_at=T0 + timedelta(seconds=s))
            for s in (5, 1, 7, 3, 2.5, 6, 4, 0.25, 8, 9)
        ]
        for item in items:
            await pool.put(item)
        newest_first = sorted(items, key=lambda i: i.created_at, reverse=True)

        assert await pool.list(PoolQuery()) == newest_first
        assert await pool.list(PoolQuery(oldest_first=True)) == newest_first[::-1]
        pages = [await pool.list(PoolQuery(limit=3, offset=o)) for o in range(0, 12, 3)]
        assert [len(p) for p in pages] == [3, 3, 3, 1]
        assert [i for p in pages for i in p] == newest_first
        oldest = await pool.list(PoolQuery(limit=4, offset=2, oldest_first=True))
        assert oldest == newest_first[::-1][2:6]
        assert await pool.list(PoolQuery(offset=10)) == []

    @pool_test
    async def test_list_order_breaks_ties_by_id(self, pool: Pool) -> None:
        items = [self.make_item(id=f"tie-{c}", created_at=T0) for c in "cabd"]
        for item in items:
            await pool.put(item)
        assert ids(await pool.list(PoolQuery())) == ["tie-d", "tie-c", "tie-b", "tie-a"]
        assert ids(await pool.list(PoolQuery(oldest_first=True))) == [
            "tie-a",
            "tie-b",
            "tie-c",
            "tie-d",
        ]

    @pool_test
    async def test_list_orders_by_instant_across_time_zones(self, pool: Pool) -> None:
        """09:00 in UTC+08:00 is 01:00 UTC: earlier than 02:00 UTC though it reads later."""
        east = timezone(timedelta(hours=8))
        early = self.make_item(created_at=T0.replace(hour=9, tzinfo=east))
        late = self.make_item(created_at=T0.replace(hour=2))
        await pool.put(early)
        await pool.put(late)
        assert ids(await pool.list(PoolQuery())) == [late.id, early.id]
        assert ids(await pool.list(PoolQuery(older_than=T0.replace(hour=1, minute=30)))) == [
            early.id
        ]

    # -- search ------------------------------------------------------------------------

    @pool_test
    async def test_search_requires_every_word(self, pool: Pool) -> None:
        fox = self.make_item(
            content="The quick brown fox jumps", created_at=T0 + timedelta(seconds=1)
        )
        red = self.make_item(content="a quick red fox", created_at=T0 + timedelta(seconds=2))
        dog = self.make_item(content="the lazy dog sleeps", created_at=T0 + timedelta(seconds=3))
        for item in (fox, red, dog):
            await pool.put(item)

        async def found(text: str, **query: Any) -> list[str]:
            return ids(await pool.search(PoolQuery(text=text, **query)))

        assert await found("quick fox") == [red.id, fox.id]
        assert await found("QUICK Fox") == [red.id, fox.id]
        assert await found("fox quick") == [red.id, fox.id]
        assert await found("quick dog") == []
        assert await found("the") == [dog.id, fox.id]
        assert await found("brown") == [fox.id]
        assert await found("bro") == []  # words, not substrings
        assert await found("quick fox", oldest_first=True) == [fox.id, red.id]
        assert await found("quick fox", limit=1) == [red.id]
        assert await found("quick fox", limit=1, offset=1) == [fox.id]

    @pool_test
    async def test_search_applies_filters(self, pool: Pool) -> None:
        here = self.make_item(namespace=("a", "b"), content="shared words", source=Source.WEB)
        there = self.make_item(namespace=("ab",), content="shared words", source=Source.WEB)
        user = self.make_item(namespace=("a",), content="shared words", source=Source.USER)
        for item in (here, there, user):
            await pool.put(item)
        found = await pool.search(PoolQuery(text="shared", namespace_prefix=("a",)))
        assert set(ids(found)) == {here.id, user.id}
        found = await pool.search(PoolQuery(text="words", source=Source.WEB))
        assert set(ids(found)) == {here.id, there.id}
        state = self.states[0]
        found = await pool.search(PoolQuery(text="words", states=frozenset({state})))
        assert len(found) == 3
        assert (
            await pool.search(PoolQuery(text="words", states=frozenset({MemoryState.REJECTED})))
            == []
        )

    @pool_test
    async def test_search_treats_query_syntax_as_plain_words(self, pool: Pool) -> None:
        near = self.make_item(
            content="near and or not quick fox", created_at=T0 + timedelta(seconds=1)
        )
        fox = self.make_item(content="quick fox", created_at=T0 + timedelta(seconds=2))
        star = self.make_item(content="quickly foxes", created_at=T0 + timedelta(seconds=3))
        for item in (near, fox, star):
            await pool.put(item)
        cases = {
            '"quick': [fox.id, near.id],
            'quick"': [fox.id, near.id],
            '"quick fox"': [fox.id, near.id],
            '"': None,
            "quick*": [fox.id, near.id],
            "quick AND fox": [near.id],
            "quick OR lazy": [],
            "fox NOT quick": [near.id],
            "NEAR(quick fox)": [near.id],
            "NEAR(": [near.id],
            "-quick": [fox.id, near.id],
            "quick -fox": [fox.id, near.id],
            "content:quick": [],
            "^quick": [fox.id, near.id],
            "quick + fox": [fox.id, near.id],
            "(quick) {fox}": [fox.id, near.id],
            "'; DROP TABLE items; --": [],
            "*": None,
            "": None,
        }
        everything = ids(await pool.list(PoolQuery()))
        for text, expected in cases.items():
            found = ids(await pool.search(PoolQuery(text=text)))
            # A query without any word restricts nothing.
            assert found == (everything if expected is None else expected), text
        assert ids(await pool.list(PoolQuery())) == everything

    @pool_test
    async def test_unicode_content_round_trips_and_is_searchable(self, pool: Pool) -> None:
        zh = self.make_item(
            namespace=("用户", "偏好"),
            key="饮料",
            content="用户 喜欢 绿茶 ，以后 每次 都 推荐",
            metadata={"语言": "中文"},
        )
        mixed = self.make_item(content="naïve café ☕ emoji 🎉 and ΣΊΣΥΦΟΣ")
        for item in (zh, mixed):
            await pool.put(item)
        assert await pool.get(zh.id) == zh
        assert await pool.get(mixed.id) == mixed
        assert await pool.get_by_key(("用户", "偏好"), "饮料") == zh
        assert ids(await pool.search(PoolQuery(text="喜欢 绿茶"))) == [zh.id]
        assert ids(await pool.search(PoolQuery(text="绿茶 咖啡"))) == []
        assert ids(await pool.search(PoolQuery(text="Emoji NAÏVE"))) == [mixed.id]
        assert ids(await pool.list(PoolQuery(metadata={"语言": "中文"}))) == [zh.id]
