"""Crash worker for tests/adapters/test_adapter_langgraph_journaled.py (not collected).

    python tests/adapters/langgraph_journal_worker.py DATA_DIR JOURNAL MODE

Opens a SQLite gateway on DATA_DIR and a `MemgateStore(ack="journaled")` on
JOURNAL, session "W", and prints `ACK <key>` (flushed) after each put returned,
so the parent knows exactly what the store acknowledged.

MODE "park": puts the [session, key, value] JSON lines read from stdin (from a
graph thread of that session) with the background
scan held off (scan_after one hour), prints DONE, then SIGKILLs itself: every
acknowledged put is in the journal only.
MODE "churn": puts `k<i>` values forever with the scan running whenever the
store is quiet for a millisecond, until the parent kills it: the kill lands
anywhere (mid-append, mid-scan, between the gateway's commit and the journal's
delete).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any, TypedDict

from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph

from memgate.adapters.langgraph import MemgateStore
from memgate.bootstrap import open_gateway

NS = ("users", "u1", "facts")


class Put(TypedDict):
    key: str
    value: dict[str, Any]


async def _put(state: Put) -> Put:
    await get_store().aput(NS, state["key"], state["value"])
    return state


def _graph(store: MemgateStore) -> Any:
    builder = StateGraph(Put)
    builder.add_node("put", _put)
    builder.add_edge(START, "put")
    builder.add_edge("put", END)
    return builder.compile(store=store)


async def main(data_dir: Path, journal: Path, mode: str) -> None:
    gateway = await open_gateway(data_dir, graph=None, recall=None)
    if mode == "park":
        store = MemgateStore(gateway, ack="journaled", journal=journal, scan_after=3600)
        graph = _graph(store)
        for line in sys.stdin:
            session, key, value = json.loads(line)
            await graph.ainvoke(
                {"key": key, "value": value}, {"configurable": {"thread_id": session}}
            )
            print(f"ACK {key}", flush=True)
        print("DONE", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    store = MemgateStore(
        gateway, session_id="W", ack="journaled", journal=journal, scan_after=0.001
    )
    i = 0
    while True:
        await store.aput(NS, f"k{i % 300}", {"text": f"the user likes tea, note {i}", "n": i})
        print(f"ACK k{i % 300} {i}", flush=True)
        i += 1
        if i % 7 == 0:
            await asyncio.sleep(0.002)  # quiet: the background scan runs


if __name__ == "__main__":
    asyncio.run(main(Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]))
