"""Investigations and `graph rebuild` on a local data directory, projected into
a real FalkorDB: the suite's shared falkordblite server, named by URL as an
operator would with MEMGATE_FALKORDB_URL (the embedded default is what
`memgate demo` runs on)."""

from __future__ import annotations

import json
import secrets
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from graph_fixtures import FalkorServer
from typer.testing import CliRunner, Result

from memgate.cli.main import app


@pytest.fixture
def run(falkordb_server: FalkorServer) -> Callable[..., Result]:
    def invoke(data: Path, *args: str) -> Result:
        return CliRunner().invoke(
            app,
            [*args, "--data-dir", str(data)],
            env={
                "COLUMNS": "200",
                "MEMGATE_URL": "",
                "MEMGATE_GRAPH": None,
                "MEMGATE_FALKORDB_URL": falkordb_server.url,
            },
        )

    return invoke


def answer(result: Result, code: int = 0) -> Any:
    assert result.exit_code == code, result.output
    return json.loads(result.stdout)


def test_readers_blast_radius_provenance_exposure_and_rebuild(
    tmp_path: Path, run: Callable[..., Result]
) -> None:
    data = tmp_path / "data"
    note = answer(
        run(
            data,
            "write",
            "The deploy freeze starts on Friday.",
            "--namespace",
            "acme",
            "--source",
            "user",
            "--session",
            "s1",
            "--call",
            "c1",
            "--json",
        )
    )
    assert note["state"] == "approved"
    seen = answer(run(data, "search", "freeze", "--session", "s2", "--call", "c2", "--json"))
    assert [i["id"] for i in seen] == [note["id"]]
    acted = answer(
        run(
            data,
            "write",
            "Postpone the Friday release.",
            "--namespace",
            "acme",
            "--source",
            "agent",
            "--session",
            "s2",
            "--call",
            "c3",
            "--json",
        )
    )

    readers = answer(run(data, "investigate", "readers", note["id"], "--json"))
    assert readers["status"] == "ok"
    assert [(r["session_id"], r["call_id"]) for r in readers["readers"]] == [("s2", "c2")]

    radius = answer(run(data, "investigate", "blast-radius", note["id"], "--depth", "2", "--json"))
    assert radius["status"] == "ok"
    assert [i["memory_id"] for i in radius["impact"]] == [acted["id"]]
    table = run(data, "investigate", "blast-radius", note["id"])
    assert acted["id"] in table.stdout and "session:s2" in table.stdout

    origin = answer(run(data, "investigate", "provenance", acted["id"], "--json"))
    assert origin["status"] == "ok" and origin["provenance"][0]["session_id"] == "s2"

    bad_depth = answer(  # an invalid question is a usage error (3), not "no answer" (1)
        run(data, "investigate", "blast-radius", note["id"], "--depth", "9", "--json"), code=3
    )
    assert bad_depth["status"] == "invalid_input"
    unknown = answer(run(data, "investigate", "readers", "m_nope", "--json"), code=1)
    assert unknown["status"] == "unknown_memory"
    token = "ghp_" + "".join(
        secrets.choice(string.ascii_letters + string.digits) for _ in range(36)
    )
    leaked = answer(
        run(
            data,
            "write",
            f"deploy with GITHUB_TOKEN={token} tonight",
            "--namespace",
            "acme",
            "--source",
            "user",
            "--session",
            "s4",
            "--json",
        )
    )
    shown = answer(run(data, "review", "show", leaked["id"], "--json"))
    assert token not in json.dumps(shown)
    fingerprint = shown["findings"][0]["fingerprint"]
    exposure = answer(run(data, "investigate", "exposure", fingerprint, "--json"))
    assert exposure["status"] == "ok"
    assert [(e["memory_id"], e["relation"]) for e in exposure["exposure"]] == [
        (leaked["id"], "contains")
    ]
    # A fingerprint no memory contains: the graph answered "not exposed", exit 0
    # (as the help says); an unknown memory id stays exit 1 (most likely a typo).
    unseen = answer(run(data, "investigate", "exposure", "0123abcd", "--json"), code=0)
    assert unseen["status"] == "unknown_memory"
    assert run(data, "investigate", "readers", "m_01JDQ8Z6V2T4K9N3B7C5X1W0YR").exit_code == 1

    rebuilt = run(data, "graph", "rebuild", "--json", "--progress")
    assert rebuilt.exit_code == 0, rebuilt.output
    assert json.loads(rebuilt.stdout)["projected"] >= 2
    # --progress off a terminal: a line as it starts and one as it ends, on stderr.
    assert "rebuilding the graph from the log ..." in rebuilt.stderr
    assert "rebuilding the graph from the log: done after" in rebuilt.stderr
    quiet = run(data, "graph", "rebuild", "--json")
    assert quiet.exit_code == 0 and "rebuilding" not in quiet.stderr
    again = answer(run(data, "investigate", "readers", note["id"], "--json"))
    assert [r["session_id"] for r in again["readers"]] == ["s2"]


def test_without_a_graph_an_investigation_says_so_and_exits_1(tmp_path: Path) -> None:
    data = tmp_path / "data"
    runner = CliRunner()
    env = {
        "COLUMNS": "200",
        "MEMGATE_URL": "",
        "MEMGATE_GRAPH": "none",
        "MEMGATE_FALKORDB_URL": None,
    }
    note = runner.invoke(
        app,
        [
            "write",
            "I like tea.",
            "--namespace",
            "a",
            "--source",
            "user",
            "--json",
            "--data-dir",
            str(data),
        ],
        env=env,
    )
    memory_id = json.loads(note.stdout)["id"]
    result = runner.invoke(
        app, ["investigate", "readers", memory_id, "--data-dir", str(data)], env=env
    )
    assert result.exit_code == 1
    assert "graph_unavailable" in result.stdout and "graph disabled" in result.stdout
    rebuild = runner.invoke(app, ["graph", "rebuild", "--data-dir", str(data)], env=env)
    assert rebuild.exit_code == 1 and "graph disabled" in rebuild.output
