"""The decision path's shortcuts decide as the long way does: the installer
prefilter never hides an install shlex would find, and cached argument checks
give the same report as fresh ones."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from memgate.guard import Guard, GuardPolicy, ToolCall, ValueStore
from memgate.guard.installs import _words, installs, may_install
from memgate.trust import Inspector

TOKENS = [
    *("pip", "install", "npm", "i", "uv", "add", "reqeusts", "lodahs", "'", '"', "\\"),
    *("&&", ";", "|", "(", ")", "-r", "x", "python3", "-m", "ls", "echo", "p''ip", " "),
]


def slow_installs(command: str) -> list[tuple[str, str]]:
    """`installs` without its prefilter (the tokenizer on everything)."""
    import memgate.guard.installs as module

    saved = module.may_install
    module.may_install = lambda _: True  # type: ignore[assignment]
    try:
        return list(installs(command))
    finally:
        module.may_install = saved


@settings(max_examples=500, deadline=None)
@given(st.lists(st.sampled_from(TOKENS), max_size=12).map(" ".join))
def test_the_prefilter_hides_no_install(command: str) -> None:
    assert list(installs(command)) == slow_installs(command)
    if not may_install(command):
        assert not any(w in {"pip", "npm", "uv", "python3"} for w in _words(command))


def test_cached_checks_give_the_same_decision(inspector: Inspector, tmp_path: object) -> None:
    guard = Guard(inspector.scanner, GuardPolicy.load(), ValueStore(":memory:"))
    call = ToolCall(
        tool="Bash", session_id="s", input={"command": "pip install reqeusts && rm -rf /"}
    )
    first = guard.decide(call)
    again = guard.decide(call)
    assert first.decision == again.decision == "deny"
    assert first.reasons == again.reasons
    moved = guard.decide(call.model_copy(update={"input": {"cmd": call.input["command"]}}))
    assert [r.replace("cmd", "command") for r in moved.reasons] == list(first.reasons)
