"""Issue 15, hole 1, over HTTP against real FalkorDB: rows holding NUL, left in the
store by a version that did not check identifiers (the edge refuses them now:
422), no longer stop the graph. /readyz stays ready and counts them, a rebuild
answers 200 listing them, and `readers` answers the memory read after them,
and `graph_behind` (never `no_readers`) for the one whose read was set aside."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import httpx
import pytest
from service_support import Service

from memgate.domain.events import Event, Op
from memgate.domain.graph import GraphRebuild
from memgate.domain.ports import ReadRecord

pytestmark = pytest.mark.anyio
NUL = "\x00"
BAD = {
    "session_id": {"session_id": f"s{NUL}x"},
    "namespace": {"namespace": ("team", f"o{NUL}ps")},
    "call_id": {"call_id": f"c{NUL}"},
    "agent_id": {"agent_id": f"a{NUL}"},
}


async def ok(answer: httpx.Response, code: int = 200) -> Any:
    assert answer.status_code == code, answer.text
    return answer.json()


async def test_rows_with_nul_are_set_aside_and_the_service_stays_ready(
    graph_service: Service,
) -> None:
    svc = graph_service
    agent_key = svc.key("agent", ["team"], name="bot", user_channel=True)
    gw = svc.state.gateway
    async with svc.client(svc.admin_key) as admin, svc.client(agent_key) as agent:
        body = {"content": "Deploys happen on Tuesdays.", "namespace": ["team", "ops"]}
        body |= {"source": "user", "session_id": "s1", "target": "long"}
        # The edge refuses NUL today, naming the field.
        refused = await agent.post("/v1/memories", json={**body, "session_id": f"s{NUL}x"})
        assert refused.status_code == 422, refused.text
        good = await ok(await agent.post("/v1/memories", json=body), 201)

        # What an older version let in: through the store's log and reads ports.
        template = await gw.store.get(good["id"])
        assert template is not None
        seqs = {}
        for i, (name, update) in enumerate(BAD.items()):
            item = template.model_copy(update={"id": f"m_bad_{i}", **update})
            (record,) = await gw.store.append(
                [
                    Event(
                        op=Op.ADMITTED,
                        memory_id=item.id,
                        at=item.created_at,
                        actor="legacy",
                        state_after=item.state,
                        item=item,
                    )
                ]
            )
            seqs[name] = record.seq
        await gw.store.record_reads(
            [ReadRecord(memory_id=good["id"], at=datetime.now(UTC), session_id=f"r{NUL}")]
        )
        later = await ok(
            await agent.post("/v1/memories", json={**body, "content": "Backups run nightly."}),
            201,
        )
        read = await agent.get(
            f"/v1/memories/{later['id']}", headers={"X-Memgate-Session": "s-after"}
        )
        assert read.status_code == 200, read.text
        assert await gw.graph.sync(within=10.0)  # type: ignore[union-attr]

        ready = await ok(await admin.get("/readyz"))
        assert (ready["status"], ready["graph"]) == ("ready", "ok"), ready
        assert ready["graph_set_aside"] == len(BAD) + 1
        assert ready["projection_lag"] == 0
        metrics = (await admin.get("/metrics")).text
        assert f"memgate_graph_set_aside_rows {float(len(BAD) + 1)}" in metrics
        assert "memgate_graph_available 1.0" in metrics

        who = await ok(await admin.get(f"/v1/investigate/readers/{later['id']}"))
        assert who["status"] == "ok", who
        assert [r["session_id"] for r in who["readers"]] == ["s-after"]
        behind = await ok(await admin.get(f"/v1/investigate/readers/{good['id']}"))
        assert behind["status"] == "graph_behind", behind
        assert len(behind["gap"]["set_aside_reads"]) == 1
        lost = await ok(await admin.get("/v1/investigate/provenance/m_bad_0"))
        assert lost["status"] == "graph_behind"
        assert lost["gap"]["set_aside"] == [seqs["session_id"]]

        rebuilt = await ok(await admin.post("/v1/graph/rebuild"))
        head = (await gw.checkpoint()).seq
        assert rebuilt["events"] == head - len(BAD)
        assert rebuilt["set_aside"] == len(BAD) + 1
        reasons = {(r["kind"], r["seq"]): r["reason"] for r in rebuilt["set_aside_rows"]}
        for name, seq in seqs.items():
            assert reasons[("event", seq)] == f"control character in {name}"
        assert "\\u0000" not in str(rebuilt) and NUL not in str(rebuilt)
        # What the Python client decodes it into (`rebuild_graph_report`).
        report = GraphRebuild.model_validate(rebuilt)
        assert report.set_aside == len(BAD) + 1 and len(report.set_aside_rows) == len(BAD) + 1
        again = await ok(await admin.get(f"/v1/investigate/readers/{later['id']}"))
        assert again["status"] == "ok" and again["readers"][0]["session_id"] == "s-after"
