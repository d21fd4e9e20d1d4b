"""`memgate keys create --guard-roles` and `memgate keys guard-roles` on a local data
directory (CliRunner, real SQLite key store), and key stores made before guard
roles existed."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from memgate.cli.main import app


def run(data: Path, *args: str) -> Result:
    return CliRunner().invoke(
        app,
        [*args, "--data-dir", str(data)],
        env={"MEMGATE_GRAPH": "none", "COLUMNS": "220", "MEMGATE_URL": "", "MEMGATE_KEY": ""},
    )


def ok_json(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_keys_carry_the_guard_roles_they_may_act_as(tmp_path: Path) -> None:
    data = tmp_path / "data"
    plain = ok_json(run(data, "keys", "create", "bot", "--json"))
    assert plain["guard_roles"] == []
    both = ok_json(run(data, "keys", "create", "ops-bot", "--guard-roles", "analyst,ops", "--json"))
    assert both["guard_roles"] == ["analyst", "ops"]
    assert both["sources"] == ["agent", "tool", "web", "document"]
    changed = ok_json(run(data, "keys", "guard-roles", plain["id"], "ops", "--json"))
    assert changed["guard_roles"] == ["ops"]
    assert changed["sources"] == plain["sources"]
    listed = {k["id"]: k["guard_roles"] for k in ok_json(run(data, "keys", "list", "--json"))}
    assert listed == {plain["id"]: ["ops"], both["id"]: ["analyst", "ops"]}
    table = run(data, "keys", "list")
    assert table.exit_code == 0 and "guard roles" in table.output and "analyst, ops" in table.output
    cleared = ok_json(run(data, "keys", "guard-roles", both["id"], "", "--json"))
    assert cleared["guard_roles"] == []
    bad = run(data, "keys", "create", "x", "--guard-roles", "ops;drop")
    assert bad.exit_code != 0 and "guard roles are" in bad.output
    reviewer = run(data, "keys", "create", "r", "--role", "reviewer", "--guard-roles", "ops")
    assert reviewer.exit_code != 0 and "reviewer keys" in reviewer.output
    missing = run(data, "keys", "guard-roles", "k_000000000000", "ops")
    assert missing.exit_code == 1 and "no key" in missing.output


def test_a_key_store_from_before_guard_roles_opens_with_none(tmp_path: Path) -> None:
    data = tmp_path / "data"
    path = data / "db" / "keys.sqlite3"
    path.parent.mkdir(parents=True)
    with sqlite3.connect(path) as db:
        db.execute(
            "CREATE TABLE api_keys (id TEXT PRIMARY KEY, name TEXT NOT NULL, role TEXT NOT NULL,"
            " namespaces TEXT NOT NULL, key_hash TEXT NOT NULL UNIQUE, hint TEXT NOT NULL,"
            " created_at TEXT NOT NULL, revoked_at TEXT, sources TEXT)"
        )
        db.execute(
            "INSERT INTO api_keys VALUES ('k_0123456789ab', 'old', 'agent', '', 'h', 'mgk_',"
            " '2026-01-01T00:00:00+00:00', NULL, NULL)"
        )
    db.close()
    (old,) = ok_json(run(data, "keys", "list", "--json"))
    assert (old["id"], old["guard_roles"]) == ("k_0123456789ab", [])
    granted = ok_json(run(data, "keys", "guard-roles", old["id"], "analyst", "--json"))
    assert granted["guard_roles"] == ["analyst"]
