"""The closed-form min cut (the default engine) against networkx's Edmonds-Karp
on random influence networks: the same value, the same cut, the same verdict."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memgate.guard.flow import ClosedFormEngine, NetworkxEngine

NAMES = ["url", "host", "command", "body", "txt", "record", "ttl", "Url", "title", "q"]
DESTINATIONS = frozenset({"url", "host", "command"})


@st.composite
def calls(draw: st.DrawFn) -> tuple[list[str], dict[str, list[tuple[str, str]]]]:
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=7, unique=True))
    tainted: dict[str, list[tuple[str, str]]] = {}
    for name in draw(st.lists(st.sampled_from(names), max_size=len(names), unique=True)):
        reads = draw(st.integers(min_value=0, max_value=3))
        tainted[name] = [
            (f"c{draw(st.integers(0, 4))}", f"v{draw(st.integers(0, 4))}") for _ in range(reads)
        ]
    return names, tainted


@settings(max_examples=400, deadline=None)
@given(calls())
def test_closed_form_equals_networkx(
    call: tuple[list[str], dict[str, list[tuple[str, str]]]],
) -> None:
    names, tainted = call
    got = ClosedFormEngine().decide(names, tainted, DESTINATIONS)
    want = NetworkxEngine().decide(names, tainted, DESTINATIONS)
    assert (got.value, got.block_cost, got.cut_args, got.blocked) == (
        want.value, want.block_cost, want.cut_args, want.blocked,
    )  # fmt: skip
    assert got.engine == "closed"


def test_the_three_outcomes() -> None:
    engine = ClosedFormEngine()
    dest = frozenset({"url"})
    assert engine.decide(["a", "b"], {}, dest).value == 0
    rewrite = engine.decide(["record", "txt", "ttl"], {"txt": [("c", "v")]}, dest)
    assert (rewrite.value, rewrite.cut_args, rewrite.blocked) == (2.0, ("txt",), False)
    deny = engine.decide(["url", "body"], {"url": [("c", "v")]}, dest)
    assert (deny.value, deny.blocked, deny.block_cost) == (3.0, True, 3)
    every = engine.decide(["a", "b"], {"a": [("c", "v")], "b": [("c", "w")]}, dest)
    assert every.blocked  # 2k = 4 > 2n-1 = 3
