"""Routine developer tool calls (tests/guard_data/routine_calls.jsonl: git, tests,
builds, reads of ordinary files, installs of real packages, fetching docs, and
MCP tools a coding agent uses every day) through POST /v1/guard/decide: none may
be denied. Run twice on one service: first deciding only, then as an agent
runs them (each call decided, run, its result reported), where accumulated
trust per (tool, argument shape) turns the matrix's "ask about MCP tools" into
allow after a few results."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import httpx
import pytest
from service_support import Service

pytestmark = pytest.mark.anyio

CORPUS = Path(__file__).parents[1] / "guard_data" / "routine_calls.jsonl"
MAX_ASK_SHARE = 0.1


async def run(
    client: httpx.AsyncClient, calls: list[dict[str, object]], tag: str, *, report: bool
) -> tuple[Counter[str], list[str], list[str]]:
    counts: Counter[str] = Counter()
    asked: list[str] = []
    denied: list[str] = []
    for index, call in enumerate(calls):
        call_id = f"{tag}-{index}"
        body = {**call, "session_id": f"{tag}-{index % 7}", "call_id": call_id}
        response = await client.post("/v1/guard/decide", json=body)
        assert response.status_code == 200, response.text
        answer = response.json()
        counts[answer["decision"]] += 1
        counts[f"layer:{answer['layer']}"] += 1
        line = f"{call['tool']} {json.dumps(call['input'])[:80]}: {answer['reasons']}"
        if answer["decision"] == "deny":
            denied.append(line)
        elif answer["decision"] == "ask":
            asked.append(line)
        if report and answer["decision"] != "deny":
            # run (an ask: a person approved it), and report what it showed
            result = {"call_id": call_id, "tool": call["tool"], "input": call["input"]}
            done = await client.post("/v1/guard/results", json={**result, "output": "ok"})
            assert done.status_code == 200, done.text
    return counts, asked, denied


async def test_routine_calls_are_never_denied(service: Service) -> None:
    calls = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    assert len(calls) >= 400
    # two agents (keys): one agent's 964 calls in a minute would trip its rate limit
    first = service.client(service.key("agent", ["dev"], name="first"))
    second = service.client(service.key("agent", ["dev"], name="second"))
    async with first, second:
        cold, cold_asked, cold_denied = await run(first, calls, "cold", report=False)
        warm, warm_asked, warm_denied = await run(second, calls, "warm", report=True)
    print(f"routine corpus: {len(calls)} calls; deciding only: {dict(cold)}")
    print(f"routine corpus: {len(calls)} calls; run with results (trust): {dict(warm)}")
    assert not cold_denied, "\n".join(cold_denied)
    assert not warm_denied, "\n".join(warm_denied)
    print("\n".join(warm_asked))
    # nothing was reported in the first pass, so it earned no trust ...
    assert cold["layer:trust"] == 0
    # ... while in the second, routine MCP calls are allowed after a few results
    assert warm["layer:trust"] >= 30, warm
    assert warm["ask"] < cold["ask"]
    assert warm["ask"] <= MAX_ASK_SHARE * len(calls), "\n".join(warm_asked)
    assert len(cold_asked) == cold["ask"]
