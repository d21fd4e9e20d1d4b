"""Routine developer tool calls (tests/guard_data/routine_calls.jsonl: git, tests,
builds, reads of ordinary files, installs of real packages, fetching docs)
through POST /v1/guard/decide: none may be denied."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest
from service_support import Service

pytestmark = pytest.mark.anyio

CORPUS = Path(__file__).parents[1] / "guard_data" / "routine_calls.jsonl"
MAX_ASK_SHARE = 0.1


async def test_routine_calls_are_never_denied(service: Service) -> None:
    calls = [json.loads(line) for line in CORPUS.read_text().splitlines() if line.strip()]
    assert len(calls) >= 400
    counts: Counter[str] = Counter()
    asked: list[str] = []
    denied: list[str] = []
    async with service.client(service.key("agent", ["dev"])) as client:
        for index, call in enumerate(calls):
            response = await client.post(
                "/v1/guard/decide", json={**call, "session_id": f"dev-{index % 7}"}
            )
            assert response.status_code == 200, response.text
            answer = response.json()
            counts[answer["decision"]] += 1
            line = f"{call['tool']} {json.dumps(call['input'])[:80]}: {answer['reasons']}"
            if answer["decision"] == "deny":
                denied.append(line)
            elif answer["decision"] == "ask":
                asked.append(line)
    print(f"routine corpus: {len(calls)} calls, {dict(counts)}")
    assert not denied, "\n".join(denied)
    print("\n".join(asked))
    assert counts["ask"] <= MAX_ASK_SHARE * len(calls), "\n".join(asked)
