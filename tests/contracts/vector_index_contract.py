"""The VectorIndex port's contract: every backend passes this one suite.

A backend's test module subclasses `VectorIndexContract` and supplies
`open_index(directory)` (a fresh, empty index) and `reopen(index, directory)`
(the same index after a restart: itself for one that keeps nothing).
"""

from __future__ import annotations

import math
from abc import ABC, abstractmethod
from pathlib import Path
from typing import ClassVar

import pytest

from memgate.domain.recall import IndexedVector, IndexMark, VectorIndex


def vec(*values: float) -> tuple[float, ...]:
    return tuple(values)


def row(memory_id: str, namespace: tuple[str, ...], *values: float) -> IndexedVector:
    return IndexedVector(memory_id=memory_id, namespace=namespace, vector=vec(*values))


def mark(seq: int) -> IndexMark:
    return IndexMark(seq=seq, mac=f"mac{seq}", embedder="test/3")


class VectorIndexContract(ABC):
    persistent: ClassVar[bool] = False

    @abstractmethod
    def open_index(self, directory: Path) -> VectorIndex: ...

    @abstractmethod
    def reopen(self, index: VectorIndex, directory: Path) -> VectorIndex: ...

    def test_empty_index_finds_nothing(self, tmp_path: Path) -> None:
        index = self.open_index(tmp_path)
        assert index.count() == 0
        assert index.mark() == IndexMark()
        assert index.nearest(vec(1, 0, 0), 5) == []
        index.close()

    def test_nearest_first_with_cosine_scores(self, tmp_path: Path) -> None:
        index = self.open_index(tmp_path)
        index.apply(
            [
                row("a", ("acme",), 1, 0, 0),
                row("b", ("acme",), 1, 1, 0),
                row("c", ("acme",), 0, 0, 5),  # length does not matter: unit vectors
            ],
            [],
            mark(3),
        )
        hits = index.nearest(vec(2, 0, 0), 3)
        assert [h.memory_id for h in hits] == ["a", "b", "c"]
        assert hits[0].score == pytest.approx(1.0, abs=1e-6)
        assert hits[1].score == pytest.approx(1 / math.sqrt(2), abs=1e-6)
        assert hits[2].score == pytest.approx(0.0, abs=1e-6)
        assert [h.memory_id for h in index.nearest(vec(0, 0, 1), 1)] == ["c"]
        assert index.mark() == mark(3)
        index.close()

    def test_namespace_prefix_scopes_by_whole_labels(self, tmp_path: Path) -> None:
        index = self.open_index(tmp_path)
        index.apply(
            [
                row("a", ("acme", "u1"), 1, 0, 0),
                row("b", ("acme", "u2"), 1, 0, 0),
                row("c", ("acmex",), 1, 0, 0),
                row("d", ("other",), 1, 0, 0),
            ],
            [],
            mark(4),
        )
        assert {h.memory_id for h in index.nearest(vec(1, 0, 0), 10, ("acme",))} == {"a", "b"}
        assert [h.memory_id for h in index.nearest(vec(1, 0, 0), 10, ("acme", "u2"))] == ["b"]
        assert index.nearest(vec(1, 0, 0), 10, ("nobody",)) == []
        assert len(index.nearest(vec(1, 0, 0), 10)) == 4
        index.close()

    def test_upsert_replaces_and_removal_drops(self, tmp_path: Path) -> None:
        index = self.open_index(tmp_path)
        index.apply([row("a", ("n",), 1, 0, 0), row("b", ("n",), 0, 1, 0)], [], mark(2))
        index.apply([row("a", ("n",), 0, 0, 1)], ["b", "never-there"], mark(5))
        assert index.count() == 1
        hits = index.nearest(vec(0, 0, 1), 5)
        assert [h.memory_id for h in hits] == ["a"]
        assert hits[0].score == pytest.approx(1.0, abs=1e-6)
        assert index.mark() == mark(5)
        # a removal moves the last row into the hole: the rest stay findable
        index.apply([row(f"m{i}", ("n",), 1, i, 0) for i in range(5)], [], mark(6))
        index.apply([], ["m0", "m2"], mark(7))
        assert {h.memory_id for h in index.nearest(vec(1, 0, 0), 10)} == {"a", "m1", "m3", "m4"}
        index.close()

    def test_clear_forgets_vectors_and_mark(self, tmp_path: Path) -> None:
        index = self.open_index(tmp_path)
        index.apply([row("a", ("n",), 1, 0, 0)], [], mark(1))
        index.clear()
        assert index.count() == 0
        assert index.mark() == IndexMark()
        assert index.nearest(vec(1, 0, 0), 5) == []
        index.close()

    def test_k_bounds_the_answer(self, tmp_path: Path) -> None:
        index = self.open_index(tmp_path)
        index.apply([row(f"m{i}", ("n",), 1, i / 10, 0) for i in range(20)], [], mark(20))
        hits = index.nearest(vec(1, 0, 0), 3)
        assert [h.memory_id for h in hits] == ["m0", "m1", "m2"]
        assert index.nearest(vec(1, 0, 0), 0) == []
        index.close()

    def test_survives_a_restart_when_persistent(self, tmp_path: Path) -> None:
        index = self.open_index(tmp_path)
        index.apply([row("a", ("n",), 1, 0, 0), row("b", ("m",), 0, 1, 0)], ["x"], mark(9))
        again = self.reopen(index, tmp_path)
        if self.persistent:
            assert again.mark() == mark(9)
            assert again.count() == 2
            assert [h.memory_id for h in again.nearest(vec(0, 1, 0), 1, ("m",))] == ["b"]
        else:
            assert again.count() in (0, 2)
        again.close()
