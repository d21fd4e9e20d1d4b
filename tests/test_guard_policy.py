"""The guard's policy file and its min-cut arithmetic (library level; the
scenarios go through HTTP in tests/service/test_service_guard.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memgate.errors import PolicyError
from memgate.guard import Effect, GuardPolicy
from memgate.guard.flow import decide_flow
from memgate.guard.installs import installs, squat


def test_bundled_policy_most_specific_rule_wins() -> None:
    policy = GuardPolicy.load()
    _, analyst = policy.role("analyst")
    assert analyst.rule_for("db.query") is not None
    assert analyst.rule_for("db.query").effect is Effect.ALLOW  # type: ignore[union-attr]
    assert analyst.rule_for("db.execute").effect is Effect.DENY  # type: ignore[union-attr]
    assert analyst.rule_for("shell.run") is None  # default deny applies
    name, developer = policy.role(None)
    assert name == "developer"
    assert developer.rule_for("Bash").effect is Effect.ALLOW  # type: ignore[union-attr]
    assert developer.rule_for("mcp__github__create_issue").effect is Effect.ASK  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("default_effect = 'maybe'", "default_effect"),
        (
            "[roles.x]\n[[roles.x.rules]]\ntool = 'a'\neffect = 'allow'\nblocked_patterns = ['(']",
            "blocked_patterns",
        ),
        ("[chain]\nmax_depth = 0", "chain.max_depth"),
        ("[flow]\nsurprise = 1", "flow.surprise"),
        ("not toml = = =", "not valid TOML"),
    ],
)  # fmt: skip
def test_bad_policy_names_the_field(tmp_path: Path, text: str, where: str) -> None:
    path = tmp_path / "guard.toml"
    path.write_text(text)
    with pytest.raises(PolicyError, match=where.replace(".", r"\.")) as caught:
        GuardPolicy.load(path)
    assert str(path) in str(caught.value)


@given(
    n=st.integers(min_value=1, max_value=8),
    data=st.data(),
)
def test_flow_value_is_the_decision(n: int, data: st.DataObject) -> None:
    """max flow = min(2k, 2n-1), infinite through a tainted destination; the cut
    names exactly the tainted arguments when it rewrites."""
    names = [f"a{i}" for i in range(n)]
    tainted = data.draw(st.sets(st.sampled_from(names)))
    destinations = data.draw(st.sets(st.sampled_from(names)))
    cut = decide_flow(
        names, {a: [(f"read-{a}", f"fp-{a}")] for a in tainted}, frozenset(destinations)
    )
    k = len(tainted)
    if not tainted:
        assert (cut.value, cut.blocked) == (0.0, False)
    elif tainted & destinations or 2 * k >= 2 * n - 1:
        assert cut.value == 2 * n - 1
        assert cut.blocked
    else:
        assert cut.value == 2 * k
        assert not cut.blocked
        assert set(cut.cut_args) == tainted


def test_install_parsing_and_near_misses() -> None:
    found = list(
        installs("pip install -r req.txt 'reqeusts>=2' && npm i -D @types/node expresss@4")
    )
    assert found == [("reqeusts", "pypi"), ("@types/node", "npm"), ("expresss", "npm")]
    assert squat("reqeusts", "pypi") is not None
    assert squat("requests", "pypi") is None
    assert squat("Requests", "pypi") is None
    assert squat("my-internal-tool", "pypi") is None
    assert squat("expresss", "npm") is not None
