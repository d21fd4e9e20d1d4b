"""Vector indexes: the in-memory twin and the local SQLite table in the data
directory. Both search exactly (a matrix product over every vector under the
prefix), which at 100k memories of 384 dimensions takes a few milliseconds
(benchmarks/results/recall.md has the numbers and the comparison with
sqlite-vec and FalkorDB's own vector index).
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from memgate.domain.recall import IndexedVector, IndexMark, VectorHit
from memgate.errors import StorageError

Matrix = npt.NDArray[np.float32]


def namespace_key(namespace: Sequence[str]) -> str:
    """Labels joined with '/' plus a trailing '/', so prefixes compare as strings."""
    return "".join(f"{label}/" for label in namespace)


def unit(vector: Sequence[float], dims: int | None = None) -> Matrix:
    """The vector as float32 of unit length (a zero vector stays zero)."""
    out = np.asarray(vector, dtype=np.float32).reshape(-1)
    if dims is not None and out.shape[0] != dims:
        raise ValueError(f"a vector of {out.shape[0]} dimensions where {dims} were expected")
    norm = float(np.linalg.norm(out))
    return out / norm if norm > 0 else out


class MemoryVectorIndex:
    """The in-memory twin of `VectorIndex`: rows in a growing float32 matrix."""

    backend = "memory"

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._mark = IndexMark()
        self._ids: list[str] = []
        self._keys: list[str] = []
        self._row: dict[str, int] = {}
        self._matrix: Matrix = np.zeros((0, 0), dtype=np.float32)
        self._masks: dict[str, npt.NDArray[np.bool_]] = {}

    # -- the matrix ------------------------------------------------------------------

    def _put(self, memory_id: str, key: str, vector: Matrix) -> None:
        if self._matrix.shape[1] != vector.shape[0]:
            if self._ids:
                raise ValueError(
                    f"a vector of {vector.shape[0]} dimensions in an index of "
                    f"{self._matrix.shape[1]}"
                )
            self._matrix = np.zeros((64, vector.shape[0]), dtype=np.float32)
        row = self._row.get(memory_id)
        if row is None:
            row = len(self._ids)
            if row == self._matrix.shape[0]:
                grown = np.zeros((row * 2, self._matrix.shape[1]), dtype=np.float32)
                grown[:row] = self._matrix[:row]
                self._matrix = grown
            self._ids.append(memory_id)
            self._keys.append(key)
            self._row[memory_id] = row
        else:
            self._keys[row] = key
        self._matrix[row] = vector

    def _drop(self, memory_id: str) -> None:
        row = self._row.pop(memory_id, None)
        if row is None:
            return
        last = len(self._ids) - 1
        if row != last:  # move the last row into the hole
            moved = self._ids[last]
            self._ids[row] = moved
            self._keys[row] = self._keys[last]
            self._matrix[row] = self._matrix[last]
            self._row[moved] = row
        self._ids.pop()
        self._keys.pop()

    def _reset(self) -> None:
        self._ids, self._keys, self._row = [], [], {}
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        self._masks = {}
        self._mark = IndexMark()

    def _mask(self, key: str) -> npt.NDArray[np.bool_]:
        # NOTE: cached per prefix until the next change: agents ask the same
        # namespace again and again, and the scan over the keys is the slow part.
        mask = self._masks.get(key)
        if mask is None:
            mask = np.fromiter((k.startswith(key) for k in self._keys), bool, len(self._keys))
            self._masks[key] = mask
        return mask

    # -- the port --------------------------------------------------------------------

    def mark(self) -> IndexMark:
        return self._mark

    def apply(
        self, upserts: Sequence[IndexedVector], removals: Sequence[str], mark: IndexMark
    ) -> None:
        with self._lock:
            self._apply(upserts, removals)
            self._mark = mark

    def _apply(self, upserts: Sequence[IndexedVector], removals: Sequence[str]) -> None:
        for memory_id in removals:
            self._drop(memory_id)
        for row in upserts:
            self._put(row.memory_id, namespace_key(row.namespace), unit(row.vector))
        self._masks = {}

    def nearest(
        self, vector: Sequence[float], k: int, namespace_prefix: tuple[str, ...] = ()
    ) -> list[VectorHit]:
        with self._lock:
            n = len(self._ids)
            if n == 0 or k < 1:
                return []
            query = unit(vector, self._matrix.shape[1])
            scores = self._matrix[:n] @ query
            if namespace_prefix:
                mask = self._mask(namespace_key(namespace_prefix))
                candidates = np.flatnonzero(mask)
                if candidates.size == 0:
                    return []
                scores = scores[candidates]
            else:
                candidates = None
            take = min(k, scores.shape[0])
            top = np.argpartition(-scores, take - 1)[:take]
            top = top[np.argsort(-scores[top], kind="stable")]
            rows = candidates[top] if candidates is not None else top
            return [
                VectorHit(memory_id=self._ids[int(r)], score=float(s))
                for r, s in zip(rows, scores[top], strict=True)
            ]

    def clear(self) -> None:
        with self._lock:
            self._reset()

    def count(self) -> int:
        return len(self._ids)

    def close(self) -> None:
        return None


def _schema() -> str:
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_schema" / "recall", package.parent / "schema" / "recall"):
        path = candidate / "vectors.sql"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise StorageError(f"no recall schema found next to {package}")


class SqliteVectorIndex(MemoryVectorIndex):
    """The persistent index: a table in its own SQLite file (stdlib sqlite3, no
    extension), loaded into the matrix at open, each `apply` one transaction."""

    backend = "sqlite"

    def __init__(self, path: Path) -> None:
        super().__init__()
        self.path = Path(path)
        self._db: sqlite3.Connection | None = None

    def _open(self) -> sqlite3.Connection:
        """The connection, opened (and the vectors loaded) on first use: a gateway
        that never searches by vector never creates the file."""
        if self._db is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
            db.executescript(_schema())
            self._db = db
            self._load(db)
        return self._db

    def _load(self, db: sqlite3.Connection) -> None:
        row = db.execute("SELECT seq, mac, embedder FROM mark WHERE id = 1").fetchone()
        if row is not None:
            self._mark = IndexMark(seq=row[0], mac=row[1], embedder=row[2])
        for memory_id, key, blob in db.execute("SELECT memory_id, namespace, vector FROM vectors"):
            self._put(memory_id, key, np.frombuffer(blob, dtype=np.float32))

    def mark(self) -> IndexMark:
        with self._lock:
            self._open()
            return self._mark

    def count(self) -> int:
        with self._lock:
            self._open()
            return len(self._ids)

    def nearest(
        self, vector: Sequence[float], k: int, namespace_prefix: tuple[str, ...] = ()
    ) -> list[VectorHit]:
        with self._lock:
            self._open()
        return super().nearest(vector, k, namespace_prefix)

    def apply(
        self, upserts: Sequence[IndexedVector], removals: Sequence[str], mark: IndexMark
    ) -> None:
        with self._lock:
            rows = [
                (u.memory_id, namespace_key(u.namespace), unit(u.vector).astype("<f4").tobytes())
                for u in upserts
            ]
            dims = len(upserts[0].vector) if upserts else self._matrix.shape[1]
            db = self._open()
            db.execute("BEGIN IMMEDIATE")
            try:
                db.executemany("DELETE FROM vectors WHERE memory_id = ?", [(r,) for r in removals])
                db.executemany(
                    "INSERT INTO vectors (memory_id, namespace, vector) VALUES (?, ?, ?)"
                    " ON CONFLICT (memory_id) DO UPDATE SET"
                    " namespace = excluded.namespace, vector = excluded.vector",
                    rows,
                )
                db.execute(
                    "INSERT INTO mark (id, seq, mac, embedder, dims) VALUES (1, ?, ?, ?, ?)"
                    " ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, mac = excluded.mac,"
                    " embedder = excluded.embedder, dims = excluded.dims",
                    (mark.seq, mark.mac, mark.embedder, dims),
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
            self._apply(upserts, removals)
            self._mark = mark

    def clear(self) -> None:
        with self._lock:
            db = self._open()
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM vectors")
            db.execute("DELETE FROM mark")
            db.execute("COMMIT")
            self._reset()

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None
