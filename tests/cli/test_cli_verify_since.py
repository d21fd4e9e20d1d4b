"""`memgate log verify --since CHECKPOINT`: incremental verify from a checkpoint,
through the CLI on a local data directory."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from memgate.bootstrap import DB_FILE
from memgate.cli.main import app

ENV = {"MEMGATE_GRAPH": "none", "MEMGATE_FALKORDB_URL": "", "MEMGATE_URL": "", "MEMGATE_KEY": ""}


def run(data: Path, *args: str) -> Result:
    return CliRunner().invoke(app, [*args, "--data-dir", str(data)], env={**ENV, "COLUMNS": "200"})


def ok_json(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def write(data: Path, content: str) -> None:
    result = run(data, "write", content, "--namespace", "acme/u1", "--source", "user", "--json")
    assert result.exit_code == 0, result.output


def test_verify_since_checks_only_what_came_after_and_names_tampering(tmp_path: Path) -> None:
    data = tmp_path / "data"
    write(data, "I prefer metric units.")
    write(data, "I work in Lyon.")
    point = tmp_path / "verified.json"
    assert ok_json(run(data, "log", "verify", "--json"))["ok"]
    assert run(data, "log", "checkpoint", "--out", str(point)).exit_code == 0
    seq = json.loads(point.read_text())["seq"]
    write(data, "I like green tea.")
    found = ok_json(run(data, "log", "verify", "--since", str(point), "--json"))
    assert found["ok"] and found["checked"] >= 1 and found["last_seq"] > seq
    assert "incremental" in found["scope"]
    # an event after the checkpoint edited outside memgate: named
    db = sqlite3.connect(data / DB_FILE)
    try:
        db.execute("DROP TRIGGER events_no_update")
        db.execute("UPDATE events SET actor = 'mallory' WHERE seq = ?", (seq + 1,))
        db.commit()
    finally:
        db.close()
    bad = run(data, "log", "verify", "--since", str(point), "--json")
    assert bad.exit_code == 1, bad.output
    assert json.loads(bad.stdout)["first_bad_seq"] == seq + 1
    refused = run(data, "log", "verify", "--since", str(point), "--public-key", str(point))
    assert refused.exit_code == 3
