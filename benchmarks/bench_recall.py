"""Semantic recall: retrieval quality of text vs vector vs hybrid search on a
paraphrase set, and query latency at 100k memories.

Quality. benchmarks/data/recall_paraphrase.jsonl holds 208 hand-written pairs
(110 English, 98 Chinese): a memory as an agent would store it ("I prefer
metric units") and a later question that means the same in other words
("metric preference"). All memories go into one namespace of a real data
directory (SQLite + FTS5, the local model of the `recall` extra, the SQLite
vector index), through `Gateway.write` as user memories; then every query is
asked in each mode, limit 5. recall@5: the share of queries whose memory is
among the five served; MRR@5 likewise (1/rank, 0 when absent). Rows:

  text      memgate's full-text search (every word of the query occurs)
  overlap   the adapters' word-overlap ranking (adapters/_recall.py: most shared
            words of 3+ letters, newest first on ties) over the namespace
  vector    nearest approved memories by embedding (multilingual-e5-small, 4-bit)
  hybrid    reciprocal rank fusion (k=60) of text and vector
  hybrid-any  a design measured and not taken: RRF of vector with the overlap
            ranking (any shared word) instead of the text search

Latency. A store of `--n` events (bench_rollback's synthetic stream: ~60 % end
as approved long-term memories) is filled through `SqliteStore.append`. Its
approved memories get RANDOM unit vectors in the SQLite vector index (embedding
100k texts on this 2-core machine would take about an hour; relevance is not
measured here, only time), the mark set to the log's head, so the gateway
serves from it at once. Then `--queries` real queries through
`Gateway.search(mode=...)`: query embedding by the real model, exact nearest
neighbours over every vector, FTS5, item fetches, recorded reads. The query
embedding alone is timed too.

Vector backends, at the same size with the same random vectors, k=10:

  numpy (chosen)  MemoryVectorIndex / SqliteVectorIndex: one float32 matrix in
                  RAM, exact (a matrix-vector product), persisted in a SQLite
                  table of its own (stdlib sqlite3, no extension)
  sqlite-vec      vec0 virtual table (cosine), exact, via apsw (the stdlib sqlite3
                  here cannot load extensions)
  FalkorDB        the embedded engine's HNSW vector index (`CREATE VECTOR INDEX`,
                  `db.idx.vector.queryNodes`), approximate: its recall@10 against
                  the exact answer is reported

    .venv/bin/python benchmarks/bench_recall.py [--n 100000] [--queries 200] [--quick]

Writes benchmarks/results/recall.{md,json} (recall-quick.* with --quick).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_rollback import BATCH, synthetic_events
from bench_scan import machine

from memgate.adapters._recall import rank
from memgate.bootstrap import open_gateway
from memgate.domain.memory import MemoryItem, MemoryState, MemoryWrite, PoolName, Target
from memgate.domain.recall import IndexedVector, IndexMark, fuse
from memgate.domain.types import Source
from memgate.recall import INDEX_FILE, LOCAL_NAME, LocalEmbedder, SqliteVectorIndex
from memgate.recall.projector import indexed
from memgate.store.sqlite import SqliteStore

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"
DATA = HERE / "data" / "recall_paraphrase.jsonl"
LITERAL = HERE / "data" / "recall_literal.jsonl"
"""28 queries that name what the memory says literally (a name, an id, a
product): where text search is at its best; each points at a paraphrase-set
memory by id."""
NS = ("bench", "recall")
MODES = ("text", "overlap", "vector", "hybrid", "hybrid-any")
K = 5
FALKOR_BUDGET_S = 300.0
"""Seconds of FalkorDB inserts at most; past it the comparison runs on what is in."""
LOG_KEY = b"bench-recall-log-key-00000000000"
TARGETS = {
    "recall_vector": 0.80,
    "recall_hybrid_over_text": 0.30,
    "latency_hybrid_p95_ms": 100.0,
}
"""recall@5 of vector search >= 0.80 on each language; hybrid >= text + 0.30;
p95 of a hybrid search at 100k memories <= 100 ms."""


def load() -> list[dict[str, str]]:
    rows = [json.loads(line) for line in DATA.read_text(encoding="utf-8").splitlines() if line]
    assert len(rows) >= 200, len(rows)
    return rows


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


# -- quality -----------------------------------------------------------------------


async def quality(root: Path) -> dict[str, Any]:
    pairs = load()
    gateway = await open_gateway(root / "quality", graph=None)
    try:
        ids: dict[str, str] = {}
        held = []
        for pair in pairs:
            receipt = await gateway.write(
                MemoryWrite(
                    content=pair["memory"], namespace=NS, source=Source.USER, target=Target.LONG
                )
            )
            if receipt.state is MemoryState.APPROVED:
                ids[pair["id"]] = receipt.id
            else:
                held.append(pair["id"])
        t0 = time.perf_counter()
        caught_up = await gateway.recall.sync(within=3600) if gateway.recall else False
        embed_s = time.perf_counter() - t0
        assert caught_up, "the recall index did not catch up"
        everything = await gateway.search(NS, None, limit=1000)
        scores: dict[str, dict[str, list[float]]] = {}
        literal = [
            {**q, "lang": f"literal-{q['lang']}", "id": q["target"]}
            for q in map(json.loads, LITERAL.read_text(encoding="utf-8").splitlines())
        ]
        for pair in [*pairs, *literal]:
            want = ids.get(pair["id"])
            if want is None:
                continue
            for mode in MODES:
                if mode == "overlap":
                    served = [i.id for i in rank(everything, pair["query"], K)]
                elif mode == "hybrid-any":
                    near = await gateway.search(NS, pair["query"], mode="vector", limit=50)
                    words = rank(everything, pair["query"], 50)
                    fused = fuse([[i.id for i in near], [i.id for i in words]])
                    served = [ident for ident, _ in fused[:K]]
                else:
                    found = await gateway.search(NS, pair["query"], mode=mode, limit=K)
                    served = [i.id for i in found]
                rr = 1.0 / (served.index(want) + 1) if want in served else 0.0
                groups = (
                    (pair["lang"], "literal")
                    if "literal" in pair["lang"]
                    else (
                        pair["lang"],
                        "all",
                    )
                )
                for lang in groups:
                    cell = scores.setdefault(lang, {}).setdefault(mode, [])
                    cell.append(rr)
        table = {
            lang: {
                mode: {
                    "recall_at_5": sum(1 for r in rrs if r > 0) / len(rrs),
                    "mrr_at_5": sum(rrs) / len(rrs),
                    "queries": len(rrs),
                }
                for mode, rrs in modes.items()
            }
            for lang, modes in scores.items()
        }
        return {
            "pairs": len(pairs),
            "held_back_by_the_scan": held,
            "index_build_s": round(embed_s, 2),
            "memories_embedded": len(ids),
            "table": table,
        }
    finally:
        await gateway.close()


# -- latency -----------------------------------------------------------------------


async def fill(path: Path, n: int) -> tuple[list[MemoryItem], int, str]:
    """`n` synthetic events into a real store; the approved long-term items at the
    end, and the log's head (seq, MAC)."""
    store = await SqliteStore.open(path, LOG_KEY)
    latest: dict[str, MemoryItem] = {}
    batch = []
    appended = 0
    for event in synthetic_events(n * 2):
        # NOTE: as bench_growth does, the stream's transient tool outputs are left
        # out: they live in the in-memory short-term pool with a TTL, so a long
        # log of them would not be live (and the pool's linear scan would be
        # what a search measures).
        if event.item is not None and event.item.pool is PoolName.SHORT:
            continue
        if appended == n:
            break
        appended += 1
        batch.append(event)
        if event.item is not None:
            latest[event.item.id] = event.item
        if len(batch) == BATCH:
            await store.append(batch)
            batch = []
    if batch:
        await store.append(batch)
    head = (await store.records(after_seq=n - 1, limit=1))[-1]
    await store.close()
    return [i for i in latest.values() if indexed(i)], head.seq, head.mac


def random_units(count: int, dims: int, seed: int = 3) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = rng.standard_normal((count, dims), dtype=np.float32)
    out /= np.linalg.norm(out, axis=1, keepdims=True)
    return out


async def latency(root: Path, n: int, queries: int) -> dict[str, Any]:
    data = root / "latency"
    (data / "db").mkdir(parents=True)
    t0 = time.perf_counter()
    items, seq, mac = await fill(data / "db" / "memgate.sqlite3", n)
    fill_s = time.perf_counter() - t0
    vectors = random_units(len(items), 384)
    index = SqliteVectorIndex(data / INDEX_FILE)
    t0 = time.perf_counter()
    for start in range(0, len(items), 5000):
        rows = [
            IndexedVector(memory_id=i.id, namespace=i.namespace, vector=tuple(v.tolist()))
            for i, v in zip(items[start : start + 5000], vectors[start : start + 5000], strict=True)
        ]
        index.apply(rows, [], IndexMark(seq=seq, mac=mac, embedder=LOCAL_NAME))
    index_s = time.perf_counter() - t0
    index.close()
    os.environ["MEMGATE_LOG_KEY"] = LOG_KEY.decode()
    pairs = load()
    texts = [p["query"] for p in pairs][:queries]
    out: dict[str, Any] = {
        "events": n,
        "memories_indexed": len(items),
        "fill_s": round(fill_s, 1),
        "index_fill_s": round(index_s, 1),
        "vectors": "random unit vectors (latency only; see the module docstring)",
    }
    gateway = await open_gateway(data, graph=None)
    try:
        t0 = time.perf_counter()
        await gateway.search((), "warm up", mode="vector")  # model load + index load
        out["first_vector_search_s"] = round(time.perf_counter() - t0, 2)
        prefix = items[0].namespace[:1]
        for mode in ("text", "vector", "hybrid"):
            samples = []
            for text in texts:
                t1 = time.perf_counter()
                await gateway.search(prefix, text, mode=mode, limit=10)
                samples.append((time.perf_counter() - t1) * 1000)
            out[f"{mode}_ms"] = {
                "p50": round(statistics.median(samples), 2),
                "p95": round(pct(samples, 0.95), 2),
            }
    finally:
        await gateway.close()
    embedder = LocalEmbedder()
    embedder.embed_query("warm up")
    samples = []
    for text in texts:
        t1 = time.perf_counter()
        embedder.embed_query(text)
        samples.append((time.perf_counter() - t1) * 1000)
    out["query_embedding_ms"] = {
        "p50": round(statistics.median(samples), 2),
        "p95": round(pct(samples, 0.95), 2),
    }
    out["backends"] = backends(vectors, root, min(queries, 100))
    return out


def timed(fn: Callable[[np.ndarray], list[int]], qs: np.ndarray) -> tuple[dict[str, float], list]:
    samples, answers = [], []
    for q in qs:
        t1 = time.perf_counter()
        answers.append(fn(q))
        samples.append((time.perf_counter() - t1) * 1000)
    return {
        "p50": round(statistics.median(samples), 2),
        "p95": round(pct(samples, 0.95), 2),
    }, answers


def backends(vectors: np.ndarray, root: Path, queries: int) -> dict[str, Any]:
    """The three vector stores on the same vectors and queries, k=10."""
    from memgate.recall import MemoryVectorIndex

    count, dims = vectors.shape
    qs = random_units(queries, dims, seed=9)
    exact = [list(np.argsort(-(vectors @ q))[:10]) for q in qs]
    out: dict[str, Any] = {}

    mem = MemoryVectorIndex()
    t0 = time.perf_counter()
    for start in range(0, count, 5000):
        mem.apply(
            [
                IndexedVector(memory_id=str(start + j), namespace=("n",), vector=tuple(v.tolist()))
                for j, v in enumerate(vectors[start : start + 5000])
            ],
            [],
            IndexMark(),
        )
    build = time.perf_counter() - t0
    stats, answers = timed(lambda q: [int(h.memory_id) for h in mem.nearest(q, 10)], qs)
    out["numpy (chosen)"] = summary(stats, build, answers, exact)

    try:
        import apsw
        import sqlite_vec
    except ImportError as exc:
        out["sqlite-vec"] = {"error": f"not installed ({exc.name}): pip install apsw sqlite-vec"}
    else:
        db = apsw.Connection(str(root / "vec.sqlite3"))
        db.enable_load_extension(True)
        db.load_extension(sqlite_vec.loadable_path())
        db.enable_load_extension(False)
        db.execute(
            f"CREATE VIRTUAL TABLE v USING vec0(embedding float[{dims}] distance_metric=cosine)"
        )
        t0 = time.perf_counter()
        with db:
            db.executemany(
                "INSERT INTO v(rowid, embedding) VALUES (?, ?)",
                ((i + 1, vectors[i].tobytes()) for i in range(count)),
            )
        build = time.perf_counter() - t0
        sql = "SELECT rowid FROM v WHERE embedding MATCH ? AND k = 10"
        stats, answers = timed(lambda q: [r[0] - 1 for r in db.execute(sql, (q.tobytes(),))], qs)
        out["sqlite-vec"] = summary(stats, build, answers, exact)
        db.close()

    out["FalkorDB HNSW"] = falkordb(vectors, qs, exact, root)
    return out


def falkordb(vectors: np.ndarray, qs: np.ndarray, exact: list, root: Path) -> dict[str, Any]:
    from memgate.graph.server import FalkorConnection

    conn = FalkorConnection(graph_name="bench_recall", data_dir=root / "graph")
    try:
        conn.connect()
        graph = conn._graph
        dims = vectors.shape[1]
        graph.query(
            "CREATE VECTOR INDEX FOR (m:Memory) ON (m.embedding)"
            f" OPTIONS {{dimension: {dims}, similarityFunction: 'cosine'}}"
        )
        t0 = time.perf_counter()
        inserted = 0
        for start in range(0, vectors.shape[0], 1000):
            if time.perf_counter() - t0 > FALKOR_BUDGET_S:
                break  # HNSW indexes on insert: bounded, and the size is reported
            inserted = min(start + 1000, vectors.shape[0])
            rows = [
                {"id": start + j, "v": v.tolist()}
                for j, v in enumerate(vectors[start : start + 1000])
            ]
            graph.query(
                "UNWIND $rows AS r CREATE (:Memory {n: r.id, embedding: vecf32(r.v)})",
                {"rows": rows},
            )
        build = time.perf_counter() - t0
        cypher = (
            "CALL db.idx.vector.queryNodes('Memory', 'embedding', 10, vecf32($q))"
            " YIELD node RETURN node.n"
        )
        stats, answers = timed(
            lambda q: [r[0] for r in graph.query(cypher, {"q": q.tolist()}).result_set], qs
        )
        if inserted < vectors.shape[0]:
            exact = [list(np.argsort(-(vectors[:inserted] @ q))[:10]) for q in qs]
        out = summary(stats, build, answers, exact)
        return {**out, "vectors": inserted}
    except Exception as exc:  # report, never fail the whole run on one backend
        return {"error": f"{exc.__class__.__name__}: {str(exc)[:200]}"}
    finally:
        try:
            if conn._db is not None:
                conn._db.close()
        except Exception:  # noqa: S110 - best effort shutdown of the bench server
            pass


def summary(stats: dict[str, float], build: float, answers: list, exact: list) -> dict[str, Any]:
    return {**stats, "build_s": round(build, 1), "recall_at_10": _overlap(answers, exact)}


def _overlap(answers: list, exact: list) -> float:
    hits = sum(len(set(a) & {int(x) for x in e}) for a, e in zip(answers, exact, strict=True))
    return round(hits / (10 * len(exact)), 3)


# -- report ------------------------------------------------------------------------


def check(ok: bool) -> str:
    return "met" if ok else "MISSED"


def markdown(result: dict[str, Any]) -> str:
    q = result["quality"]
    lines = [
        f"# Recall: {q['pairs']} paraphrase queries (EN + ZH), recall@5 and MRR@5",
        "",
        "Targets: vector recall@5 ≥ 0.80 in each language; hybrid ≥ text + 0.30;"
        " hybrid p95 ≤ 100 ms at 100k memories.",
        "",
        "Rows en / zh / all: the paraphrase set; literal-*: queries naming what the"
        " memory says (names, ids, products), the same memories.",
        "",
        "| set | queries | " + " | ".join(f"{m} R@5 | {m} MRR" for m in MODES) + " |",
        "|---|---:|" + "---:|" * (2 * len(MODES)),
    ]
    for lang in ("en", "zh", "all", "literal-en", "literal-zh", "literal"):
        row = q["table"].get(lang)
        if not row:
            continue
        cells = []
        for mode in MODES:
            cells += [f"{row[mode]['recall_at_5']:.3f}", f"{row[mode]['mrr_at_5']:.3f}"]
        lines.append(f"| {lang} | {row['text']['queries']} | " + " | ".join(cells) + " |")
    lines.append("")
    for name, ok in result["checks"].items():
        lines.append(f"- {name}: {check(ok)}")
    lines += [
        "",
        f"Index build (embedding {q['memories_embedded']} memories, one thread):"
        f" {q['index_build_s']} s; held back by the scan: {q['held_back_by_the_scan'] or 'none'}.",
    ]
    lat = result.get("latency")
    if lat:
        lines += [
            "",
            f"## Latency at {lat['memories_indexed']:,} indexed memories"
            f" ({lat['events']:,} events; {lat['vectors']})",
            "",
            "| search, limit 10, through Gateway.search | p50 ms | p95 ms |",
            "|---|---:|---:|",
        ]
        for mode in ("text", "vector", "hybrid"):
            lines.append(f"| {mode} | {lat[f'{mode}_ms']['p50']} | {lat[f'{mode}_ms']['p95']} |")
        e = lat["query_embedding_ms"]
        lines += [
            f"| query embedding alone | {e['p50']} | {e['p95']} |",
            "",
            f"First vector search after open (model load, {lat['memories_indexed']:,} vectors"
            f" read into RAM): {lat['first_vector_search_s']} s.",
            "",
            f"## Vector stores, {lat['memories_indexed']:,} random 384-d vectors, k=10",
            "",
            "| backend | p50 ms | p95 ms | build s | recall@10 vs exact |",
            "|---|---:|---:|---:|---:|",
        ]
        for name, b in lat["backends"].items():
            if "error" in b:
                lines.append(f"| {name} | {b['error']} | | | |")
            elif b.get("vectors", lat["memories_indexed"]) < lat["memories_indexed"]:
                lines.append(
                    f"| {name} ({b['vectors']:,} vectors: inserts stopped at"
                    f" {FALKOR_BUDGET_S:.0f} s) | {b['p50']} | {b['p95']} | {b['build_s']}"
                    f" | {b['recall_at_10']} |"
                )
            else:
                lines.append(
                    f"| {name} | {b['p50']} | {b['p95']} | {b['build_s']} | {b['recall_at_10']} |"
                )
    lines.append("")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000, help="events in the latency store")
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--quick", action="store_true", help="a 5,000-event latency store")
    parser.add_argument("--skip-latency", action="store_true")
    args = parser.parse_args()
    if args.quick:
        args.n, args.queries = 5000, 50
    random.seed(1)
    root = Path(tempfile.mkdtemp(prefix="bench-recall-"))
    try:
        result: dict[str, Any] = {"machine": machine(), "args": vars(args)}
        result["quality"] = asyncio.run(quality(root))
        if not args.skip_latency:
            result["latency"] = asyncio.run(latency(root, args.n, args.queries))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    table = result["quality"]["table"]
    floor = TARGETS["recall_vector"]
    checks = {
        f"vector recall@5 ≥ {floor} ({lang})": table[lang]["vector"]["recall_at_5"] >= floor
        for lang in ("en", "zh")
        if lang in table
    }
    checks["hybrid recall@5 ≥ text + 0.30 (all)"] = (
        table["all"]["hybrid"]["recall_at_5"]
        >= table["all"]["text"]["recall_at_5"] + TARGETS["recall_hybrid_over_text"]
    )
    if "latency" in result:
        checks["hybrid p95 ≤ 100 ms at the latency size"] = (
            result["latency"]["hybrid_ms"]["p95"] <= TARGETS["latency_hybrid_p95_ms"]
        )
    result["checks"] = checks
    text = markdown(result)
    print(text)
    stem = "recall-quick" if args.quick else "recall"
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / f"{stem}.md").write_text(text, encoding="utf-8")
    (RESULTS / f"{stem}.json").write_text(json.dumps(result, indent=2, default=str) + "\n")


if __name__ == "__main__":
    main()
