"""Does one large write stall everyone else? Latency of small requests while the
largest writes the service takes are being scanned (issue 15, hole 5).

The service app runs in this process (lifespan, real SQLite in a temp dir, no
graph) behind httpx's ASGI transport, so every request shares one event loop,
as under uvicorn. Writers send the largest write the API takes, back to back:
16 KB content (the policy's max_bytes; a realistic mix of prose, code, JSON)
plus 8 KiB of metadata (the cap). Meanwhile prompt clients send small requests
(GET /healthz, a 1-word search) and a probe task measures how late the loop
wakes it (`asyncio.sleep(0.005)`): the loop's longest stall.

Cells: idle (no large writes) and under load (`--writers` writers). Targets:
small-request p99 under load <= 50 ms and the loop's longest stall <= 50 ms
(before the scan ran off the loop, one 900 KB metadata value stalled every
request for 2.8 s; with the caps a max-size write scans in ~0.1-0.3 s, which
was a stall of that length for everyone).

    .venv/bin/python benchmarks/bench_stall.py [--seconds 8] [--writers 2]

Writes benchmarks/results/stall.md and stall.json with machine info.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_scan import machine
from corpus_gen import generate

from memgate.domain import limits
from memgate.service.app import create_app
from memgate.service.settings import Settings

RESULTS = Path(__file__).resolve().parent / "results"
TARGET_P99_MS = 50.0
TARGET_STALL_MS = 50.0


def _q(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000 if ordered else 0.0


def big_write(i: int) -> dict[str, Any]:
    content = generate(16000, "mixed", 7_000_003 + i)[:16000]
    while len(content.encode()) > 16384:
        content = content[:-100]
    note = generate(4000, "prose", 9_000_011 + i)
    metadata = {"source_doc": f"doc-{i}", "notes": note[: limits.MAX_METADATA_BYTES - 200]}
    while len(json.dumps(metadata, ensure_ascii=False).encode()) > limits.MAX_METADATA_BYTES:
        metadata["notes"] = metadata["notes"][:-200]
    return {
        "content": content,
        "namespace": ["bench", "big"],
        "source": "tool",
        "target": "long",
        "metadata": metadata,
    }


async def cell(app: Any, key: str, writers: int, seconds: float) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {key}"}
    transport = httpx.ASGITransport(app=app)
    stop = time.perf_counter() + seconds
    small: list[float] = []
    big: list[float] = []
    stalls: list[float] = []

    async def writer(n: int) -> None:
        async with httpx.AsyncClient(
            transport=transport, base_url="http://b", headers=headers
        ) as c:
            i = n
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                r = await c.post("/v1/memories", json=big_write(i))
                assert r.status_code == 201, r.text
                big.append(time.perf_counter() - t0)
                i += writers

    async def prompt() -> None:
        async with httpx.AsyncClient(
            transport=transport, base_url="http://b", headers=headers
        ) as c:
            n = 0
            while time.perf_counter() < stop:
                t0 = time.perf_counter()
                if n % 2:
                    r = await c.get("/healthz")
                else:
                    r = await c.post(
                        "/v1/memories/search", json={"namespace": ["bench"], "query": "deploy"}
                    )
                assert r.status_code == 200, r.text
                small.append(time.perf_counter() - t0)
                n += 1
                await asyncio.sleep(0.01)

    async def probe() -> None:
        while time.perf_counter() < stop:
            t0 = time.perf_counter()
            await asyncio.sleep(0.005)
            stalls.append(time.perf_counter() - t0 - 0.005)

    await asyncio.gather(probe(), prompt(), *(writer(n) for n in range(writers)))
    return {
        "writers": writers,
        "big_writes": len(big),
        "big_p50_ms": round(_q(big, 0.5), 1),
        "small_requests": len(small),
        "small_p50_ms": round(_q(small, 0.5), 2),
        "small_p99_ms": round(_q(small, 0.99), 2),
        "small_max_ms": round(max(small, default=0) * 1000, 2),
        "loop_stall_max_ms": round(max(stalls, default=0) * 1000, 2),
    }


async def main_async(seconds: float, writers: int) -> list[dict[str, Any]]:
    data = Path(tempfile.mkdtemp(prefix="memgate-stall-"))
    try:
        app = create_app(Settings(data_dir=data, graph=None))
        async with app.router.lifespan_context(app):
            key = app.state.memgate.keys.ensure_admin()
            assert key is not None
            return [await cell(app, key, 0, seconds), await cell(app, key, writers, seconds)]
    finally:
        shutil.rmtree(data, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--writers", type=int, default=2)
    args = parser.parse_args()
    rows = asyncio.run(main_async(args.seconds, args.writers))
    head = (
        "| large writers | large writes | large p50 ms | small requests | small p50 ms"
        " | small p99 ms | small max ms | loop stall max ms |"
    )
    lines = [
        "# One large write never stalls the others",
        "",
        f"Targets: small p99 under load <= {TARGET_P99_MS:g} ms, loop stall <= "
        f"{TARGET_STALL_MS:g} ms.",
        "",
        head,
        "|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        lines.append(
            f"| {r['writers']} | {r['big_writes']} | {r['big_p50_ms']} | {r['small_requests']}"
            f" | {r['small_p50_ms']} | {r['small_p99_ms']} | {r['small_max_ms']}"
            f" | {r['loop_stall_max_ms']} |"
        )
    loaded = rows[-1]
    met = loaded["small_p99_ms"] <= TARGET_P99_MS and loaded["loop_stall_max_ms"] <= (
        TARGET_STALL_MS
    )
    lines += ["", f"Under load: {'targets met' if met else 'TARGET MISSED'}."]
    text = "\n".join(lines) + "\n"
    print(text)
    RESULTS.mkdir(exist_ok=True)
    (RESULTS / "stall.md").write_text(text, encoding="utf-8")
    payload = {"machine": machine(), "seconds": args.seconds, "rows": rows}
    (RESULTS / "stall.json").write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
