"""`memgate search --mode`: semantic recall from the shell, on a local data
directory (in-process gateway) and against a real `memgate serve` (--url)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from memgate.cli.main import app
from tests.cli.serving import Server

PREF = "I prefer metric units"
ENV = {
    "MEMGATE_GRAPH": "none",
    "MEMGATE_FALKORDB_URL": "",
    "COLUMNS": "200",
    "MEMGATE_URL": "",
    "MEMGATE_KEY": "",
}


def local(data: Path, *args: str) -> Result:
    return CliRunner().invoke(app, [*args, "--data-dir", str(data)], env=ENV)


def ok_json(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_metric_preference_from_the_cli(tmp_path: Path) -> None:
    data = tmp_path / "data"
    for content in [PREF, "The user lives in Lisbon.", "Deploys happen on Tuesdays."]:
        receipt = ok_json(
            local(data, "write", content, "--namespace", "acme/u1", "--source", "user", "--json")
        )
        assert receipt["state"] == "approved"
    assert (
        ok_json(local(data, "search", "metric preference", "--namespace", "acme", "--json")) == []
    )
    for mode in ("vector", "hybrid"):
        found = ok_json(
            local(
                data,
                "search",
                "metric preference",
                "--namespace",
                "acme",
                "--mode",
                mode,
                "--limit",
                "2",
                "--json",
            )
        )
        assert found[0]["content"] == PREF, mode
    table = local(data, "search", "metric preference", "--mode", "hybrid", "--limit", "1")
    assert table.exit_code == 0 and PREF in table.stdout
    bad = local(data, "search", "x", "--mode", "fuzzy")
    assert bad.exit_code != 0 and "--mode" in bad.output


def test_metric_preference_from_the_cli_remote(server: Server) -> None:
    def remote(key: str, *args: str) -> Result:
        return CliRunner().invoke(
            app, list(args), env={**ENV, "MEMGATE_URL": server.url, "MEMGATE_KEY": key}
        )

    created = ok_json(
        remote(
            server.admin_key,
            "keys",
            "create",
            "recall-bot",
            "--namespace",
            "recall",
            "--user-channel",
            "--json",
        )
    )
    key = created["key"]
    ok_json(remote(key, "write", PREF, "--namespace", "recall/u1", "--source", "user", "--json"))
    ok_json(remote(key, "write", "Lunch is at noon.", "--namespace", "recall/u1", "--json"))
    found = ok_json(
        remote(
            key,
            "search",
            "metric preference",
            "--namespace",
            "recall",
            "--mode",
            "vector",
            "--json",
        )
    )
    assert found[0]["content"] == PREF
