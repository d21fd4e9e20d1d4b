"""A guarded store against a memgate server (uvicorn on loopback, real SQLite, API
keys): the agent's key adds and searches, a reviewer's key approves, an admin's
key runs the sync job and the rollback (reading the log needs an admin)."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from adapter_fixtures import HOSTILE, TOKEN
from test_adapter_mem0 import mem0_memory

from memgate.adapters.mem0 import GuardedMemory
from memgate.client import MemgateClient
from memgate.client.errors import Forbidden
from memgate.service.app import create_app
from memgate.service.keys_sqlite import SqliteKeyStore as KeyStore
from memgate.service.settings import Settings


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, dict[str, str]]]:
    """The server's URL and a key per role."""
    import uvicorn

    settings = Settings(data_dir=tmp_path / "data", graph=None)
    with KeyStore(settings.keys_path) as store:
        keys = {
            "agent": store.create("mem0-agent", "agent", [], user_channel=True)[1],
            "reviewer": store.create("mem0-reviewer", "reviewer", [])[1],
            "admin": store.create("mem0-admin", "admin", [])[1],
        }
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    web = uvicorn.Server(uvicorn.Config(create_app(settings), log_level="warning"))
    thread = threading.Thread(target=web.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not web.started:
        assert thread.is_alive() and time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}", keys
    finally:
        web.should_exit = True
        thread.join(timeout=20)
        sock.close()


def test_mem0_behind_a_server(tmp_path: Path, served: tuple[str, dict[str, str]]) -> None:
    url, keys = served
    memory = mem0_memory(tmp_path)
    agent = GuardedMemory.connect(memory, url, keys["agent"])
    syncer = GuardedMemory.connect(memory, url, keys["admin"])  # the sync job
    reviewer = MemgateClient(url, key=keys["reviewer"])
    admin = MemgateClient(url, key=keys["admin"])
    try:
        first = agent.add("I prefer metric units.", user_id="alice", infer=False)
        mark = first["memgate"][0]
        done = agent.add(
            [
                {"role": "user", "content": f"My deploy token is {TOKEN}"},
                {"role": "assistant", "content": HOSTILE},
            ],
            user_id="alice",
            infer=False,
        )
        held, rejected = done["memgate"]
        assert (held["state"], rejected["state"]) == ("pending_review", "rejected")
        stored = memory.get_all(filters={"user_id": "alice"})["results"]
        assert [h["memory"] for h in stored] == ["I prefer metric units."]

        reviewer.approve(held["id"])
        report = syncer.sync()
        assert report.added == [held["id"]]
        found = agent.search("deploy token metric", filters={"user_id": "alice"}, session_id="r1")
        texts = sorted(h["memory"] for h in found["results"])
        assert texts[0] == "I prefer metric units."
        assert texts[1].startswith("My deploy token is [REDACTED:") and TOKEN not in texts[1]

        first_seq = next(
            r.seq
            for r in admin.log_page(after_seq=0, limit=1000).records
            if r.event.memory_id == mark["id"]
        )
        admin.rollback(to=first_seq, reason="bad review", dry_run=False)
        found = agent.search("deploy token metric", filters={"user_id": "alice"})
        assert [h["memory"] for h in found["results"]] == ["I prefer metric units."]
        assert syncer.sync().removed == [held["id"]]
        remaining = memory.get_all(filters={"user_id": "alice"})["results"]
        assert [h["memory"] for h in remaining] == ["I prefer metric units."]
        with pytest.raises(Forbidden):
            agent.sync()  # an agent key cannot read the log
    finally:
        agent.close()
        syncer.close()
        reviewer.close()
        admin.close()
        memory.close()
        memory.vector_store.client.close()
