"""The ValueStore port's contract: value fingerprints and the calls that read
them, newest first and bounded per fingerprint; memory values; the memory
feed's cursors; decided calls; counts; the guard's other tables
(trust counters, pins) through `execute` / `fetch`. A store every replica shares
also counts rate windows (`window_hits`), tested in its own backend module.

A backend's test module subclasses `ValueStoreContract` and supplies `make`: a
fresh, empty value store (closed by the test).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from memgate.guard.values import Sighting, ValueStore


def sighting(fp: str, call_id: str, at: float, **extra: str | None) -> Sighting:
    return Sighting(
        fp=fp, value_fp=f"v-{fp}", form=str(extra.get("form") or "literal"),
        rule_id=extra.get("rule_id", "MG-SEC-001"), call_id=call_id,
        session_id=extra.get("session_id", "s1"), agent_id=extra.get("agent_id", "bot"),
        tool=extra.get("tool", "Read"), at=at, memory_id=extra.get("memory_id"),
    )  # fmt: skip


class ValueStoreContract(ABC):
    """What every value store must do. Not collected itself (no `Test` prefix)."""

    @abstractmethod
    def make(self) -> ValueStore:
        """A fresh value store with nothing in it."""

    def test_a_sighting_is_found_by_its_fingerprint_only(self) -> None:
        store = self.make()
        try:
            row = sighting("fp-a", "call_1", 10.0, rule_id=None, session_id=None)
            store.add([row, sighting("fp-b", "call_1", 11.0)])
            assert store.lookup(["fp-a"]) == [row]
            assert store.lookup(["fp-zzz"]) == []
            assert store.lookup([]) == []
            assert {s.fp for s in store.lookup(["fp-a", "fp-b", "fp-a"])} == {"fp-a", "fp-b"}
        finally:
            store.close()

    def test_lookup_is_newest_first_and_bounded_per_fingerprint(self) -> None:
        store = self.make()
        try:
            store.add([sighting("fp-a", f"call_{i}", float(i)) for i in range(8)])
            store.add([sighting("fp-b", "call_b", 3.5)])
            found = store.lookup(["fp-a", "fp-b"], per_value=3)
            assert [s.call_id for s in found if s.fp == "fp-a"] == ["call_7", "call_6", "call_5"]
            assert [s.at for s in found] == sorted((s.at for s in found), reverse=True)
            assert [s.call_id for s in found if s.fp == "fp-b"] == ["call_b"]
        finally:
            store.close()

    def test_the_same_fingerprint_and_call_is_kept_once(self) -> None:
        store = self.make()
        try:
            store.add([sighting("fp-a", "call_1", 1.0)])
            store.add([sighting("fp-a", "call_1", 2.0), sighting("fp-a", "call_2", 3.0)])
            assert sorted(s.call_id for s in store.lookup(["fp-a"])) == ["call_1", "call_2"]
            assert store.counts()[1] == 2
        finally:
            store.close()

    def test_many_fingerprints_at_once(self) -> None:
        store = self.make()
        try:
            store.add([sighting(f"fp-{i}", "call_1", float(i)) for i in range(900)])
            found = store.lookup([f"fp-{i}" for i in range(0, 1800, 2)])
            assert {s.fp for s in found} == {f"fp-{i}" for i in range(0, 900, 2)}
        finally:
            store.close()

    def test_memory_values_are_the_values_written_into_each_memory(self) -> None:
        store = self.make()
        try:
            store.add(
                [
                    sighting("fp-w", "call_w", 1.0, tool="memory.write", memory_id="m1"),
                    sighting("fp-r", "call_r", 2.0, tool="memory.read", memory_id="m1"),
                    sighting("fp-x", "call_x", 3.0, tool="memory.write", memory_id="m2"),
                ]
            )
            assert store.memory_values(["m1", "m3"]) == {"m1": [("v-fp-w", "MG-SEC-001")]}
            assert store.memory_values([]) == {}
            assert store.lookup(["fp-r"])[0].memory_id == "m1"
        finally:
            store.close()

    def test_the_feed_stores_rows_and_cursors_together(self) -> None:
        store = self.make()
        try:
            assert store.cursor("events") == 0
            store.add_fed([sighting("fp-a", "call_1", 1.0)], {"events": 7, "reads": 3})
            assert (store.cursor("events"), store.cursor("reads")) == (7, 3)
            store.add_fed([], {"events": 9})
            assert store.cursor("events") == 9
            assert [s.fp for s in store.lookup(["fp-a"])] == ["fp-a"]
        finally:
            store.close()

    def test_a_decided_call_is_recorded_and_replaced(self) -> None:
        store = self.make()
        try:
            assert store.call("call_1") is None
            assert store.decision("call_1") is None
            store.record_call("call_1", "s1", "bot", "Bash", 1.0, "ask", "matrix")
            assert store.call("call_1") == ("s1", "bot", "Bash")
            assert store.decision("call_1") == "ask"
            store.record_calls(
                [("call_1", None, "bot", "Bash", 2.0, "deny", "flow"),
                 ("call_2", "s2", None, "Read", 2.0, "allow", "matrix")]
            )  # fmt: skip
            assert store.call("call_1") == (None, "bot", "Bash")
            assert store.decision("call_1") == "deny"
            assert store.decision("call_2") == "allow"
            store.add([sighting("fp-a", "call_2", 1.0)])
            assert store.counts() == (2, 1)
        finally:
            store.close()

    def test_the_guard_s_other_tables_go_through_execute_and_fetch(self) -> None:
        store = self.make()
        try:
            store.executescript("CREATE TABLE IF NOT EXISTS t_other (k TEXT PRIMARY KEY, n INT)")
            store.execute("INSERT INTO t_other VALUES (?, ?)", ("a", 1))
            store.executemany("INSERT INTO t_other VALUES (?, ?)", [("b", 2), ("c", 3)])
            assert store.fetch("SELECT k, n FROM t_other WHERE n > ? ORDER BY k", (1,)) == [
                ("b", 2),
                ("c", 3),
            ]
        finally:
            store.close()
