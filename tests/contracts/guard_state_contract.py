"""The GuardState port's contract: per decision one `begin` that counts the call
in its windows (per agent, per matrix rule, same-tool bursts) and remembers its
depth, and reads the task's destructive count, the shape's trust and the MCP
tool's pin; a breaker taken atomically against its limit; trust counters; tool
pins (first digest pinned, a different one is a change until accepted).

A backend's test module subclasses `GuardStateContract` and supplies `make`: a
fresh, empty state with bursts of `BURST` seconds (closed by the test).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from memgate.guard.state import Begin, Counts, GuardState, PinStatus

BURST = 10.0


def begin(state: GuardState, now: float, call_id: str, **over: object) -> Begin:
    fields: dict[str, object] = {
        "now": now, "call_id": call_id, "parent": None, "agent_key": "bot",
        "rule_key": "bot\x00db.query", "tool_key": "bot\x00db.query", "scope": "task-1",
        "shape": "shape-1", "mcp": None,
    }  # fmt: skip
    fields.update(over)
    return Begin(**fields)  # type: ignore[arg-type]


class GuardStateContract(ABC):
    """What every guard state must do. Not collected itself (no `Test` prefix)."""

    @abstractmethod
    def make(self) -> GuardState:
        """A fresh guard state with nothing in it (bursts of `BURST` seconds)."""

    def test_windows_count_each_call_within_their_span(self) -> None:
        state = self.make()
        try:
            snaps = [state.begin(begin(state, 100.0 + i, f"c{i}")) for i in range(3)]
            assert [(s.agent_count, s.rule_count, s.tool_count) for s in snaps] == [
                (1, 1, 1), (2, 2, 2), (3, 3, 3),
            ]  # fmt: skip
            # 9.5 s after the third the bursts (10 s) forgot the first two; the minute did not
            late = state.begin(begin(state, 111.5, "c3"))
            assert (late.agent_count, late.rule_count, late.tool_count) == (4, 4, 2)
            # over a minute after the last, everything is forgotten
            fresh = state.begin(begin(state, 172.0, "c4"))
            assert (fresh.agent_count, fresh.rule_count, fresh.tool_count) == (1, 1, 1)
            # no rule: no rule count; another agent counts apart
            other = state.begin(begin(state, 174.0, "c5", agent_key="eve", rule_key=None))
            assert (other.agent_count, other.rule_count) == (1, 0)
        finally:
            state.close()

    def test_depth_follows_parents(self) -> None:
        state = self.make()
        try:
            top = state.begin(begin(state, 1.0, "root"))
            child = state.begin(begin(state, 2.0, "child", parent="root"))
            grandchild = state.begin(begin(state, 3.0, "grandchild", parent="child"))
            orphan = state.begin(begin(state, 4.0, "orphan", parent="never-decided"))
            assert [top.depth, child.depth, grandchild.depth, orphan.depth] == [1, 2, 3, 2]
        finally:
            state.close()

    def test_the_breaker_lets_through_up_to_its_limit_per_scope(self) -> None:
        state = self.make()
        try:
            assert state.begin(begin(state, 1.0, "c0")).destructive == 0
            taken = [state.take_destructive("task-1", 3, 2.0 + i) for i in range(5)]
            assert taken == [1, 2, 3, None, None]
            assert state.begin(begin(state, 9.0, "c1")).destructive == 3
            assert state.take_destructive("task-2", 3, 9.0) == 1
            assert state.begin(begin(state, 9.5, "c2", scope="task-2")).destructive == 1
        finally:
            state.close()

    def test_trust_counters_accumulate(self) -> None:
        state = self.make()
        try:
            assert state.trust("shape-1") == Counts(0, 0)
            assert state.count_trust("shape-1", "db.query", 1.0, ok=1) == Counts(1, 0)
            assert state.count_trust("shape-1", "db.query", 2.0, ok=1) == Counts(2, 0)
            assert state.count_trust("shape-1", "db.query", 3.0, bad=1) == Counts(2, 1)
            assert state.trust("shape-1") == Counts(2, 1)
            assert state.trust("shape-2") == Counts(0, 0)
            assert state.begin(begin(state, 4.0, "c0")).trust == Counts(2, 1)
            assert state.begin(begin(state, 4.0, "c1", shape="shape-2")).trust == Counts(0, 0)
        finally:
            state.close()

    def test_the_first_digest_is_pinned_and_a_change_stands_until_accepted(self) -> None:
        state = self.make()
        try:
            tools = [("get_issue", "d1"), ("list_repos", "d2")]
            assert state.pin("github", tools, False, 1.0) == [
                ("get_issue", PinStatus.NEW), ("list_repos", PinStatus.NEW),
            ]  # fmt: skip
            assert state.pin("github", tools, False, 2.0) == [
                ("get_issue", PinStatus.UNCHANGED), ("list_repos", PinStatus.UNCHANGED),
            ]  # fmt: skip
            assert not state.changed("github", "get_issue")
            listed = [("get_issue", "d1-poisoned"), ("list_repos", "d2")]
            assert state.pin("github", listed, False, 3.0) == [
                ("get_issue", PinStatus.CHANGED), ("list_repos", PinStatus.UNCHANGED),
            ]  # fmt: skip
            assert state.changed("github", "get_issue")
            assert not state.changed("github", "list_repos")
            assert not state.changed("gitlab", "get_issue")  # another server
            mcp = ("github", "get_issue")
            assert state.begin(begin(state, 4.0, "c0", mcp=mcp)).changed
            assert not state.begin(begin(state, 4.0, "c1", mcp=("github", "list_repos"))).changed
            # listed again changed: still a change (the pin is not moved by seeing it)
            assert state.pin("github", listed[:1], False, 5.0) == [("get_issue", PinStatus.CHANGED)]
            # back to the pinned description: unchanged again
            assert state.pin("github", tools[:1], False, 6.0) == [
                ("get_issue", PinStatus.UNCHANGED)
            ]
            assert not state.changed(*mcp)
            # changed, then accepted: the new digest is pinned
            state.pin("github", listed[:1], False, 7.0)
            assert state.pin("github", listed[:1], True, 8.0) == [("get_issue", PinStatus.ACCEPTED)]
            assert not state.changed(*mcp)
            assert state.pin("github", tools[:1], False, 9.0) == [("get_issue", PinStatus.CHANGED)]
            # accepting what is already pinned is no acceptance
            assert state.pin("github", [("list_repos", "d2")], True, 10.0) == [
                ("list_repos", PinStatus.UNCHANGED)
            ]
        finally:
            state.close()

    def test_a_masking_chain_is_kept_per_scope_until_cleared(self) -> None:
        state = self.make()
        try:
            assert state.begin(begin(state, 1.0, "c0")).masking == ()
            state.set_masking("task-1", ["c0", "c1"], 2.0)
            assert state.begin(begin(state, 3.0, "c2")).masking == ("c0", "c1")
            assert state.begin(begin(state, 3.0, "c3", scope="task-2")).masking == ()
            state.set_masking("task-1", ["c0", "c1", "c2"], 4.0)
            assert state.begin(begin(state, 5.0, "c4")).masking == ("c0", "c1", "c2")
            state.set_masking("task-1", [], 6.0)
            assert state.begin(begin(state, 7.0, "c5")).masking == ()
        finally:
            state.close()
