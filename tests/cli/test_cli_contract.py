"""The CLI contract: exit codes, `--json` on every command including its errors
(one error shape), `--version`, output not cut at 80 columns when piped, a
rollback that needs `--yes` without a terminal, summarized large diffs, progress
on stderr, a JSON Lines scan that survives a bad line, help without `<bool>`.

Through the real console entry point (subprocess, so exit codes, standard
streams and terminals are the real ones; a pseudo-terminal where a TTY matters)
and through CliRunner where only the output matters."""

from __future__ import annotations

import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from memgate.bootstrap import open_sync_gateway
from memgate.cli.main import app
from memgate.domain.memory import MemoryWrite
from memgate.domain.types import Source

ENV = {
    **{k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")},
    "MEMGATE_GRAPH": "none",
    "MEMGATE_FALKORDB_URL": "",
    "MEMGATE_URL": "",
    "MEMGATE_KEY": "",
}
"""No graph (these tests need none), no server, and no COLUMNS: piped output
must not fall back to 80 columns."""
MISSING = "m_01JDQ8Z6V2T4K9N3B7C5X1W0YR"
ERROR_KEYS = {"type", "message", "exit_code"}


def memgate(data: Path, *args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memgate.cli", *args, "--data-dir", str(data)],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=ENV,
    )


def json_error(done: subprocess.CompletedProcess[str], code: int, kind: str) -> dict[str, Any]:
    """The one error shape: a JSON object on stdout, nothing on stderr."""
    assert done.returncode == code, (done.stdout, done.stderr)
    body: dict[str, Any] = json.loads(done.stdout)
    assert set(body) == {"error"}
    assert set(body["error"]) >= ERROR_KEYS, body
    assert body["error"]["type"] == kind, body
    assert body["error"]["exit_code"] == code
    assert done.stderr == ""
    return body["error"]


def seeded(data: Path, count: int, namespace: tuple[str, ...] = ("acme", "u1")) -> list[str]:
    """`count` approved memories written through the Python API (quicker than
    `count` CLI processes); their ids."""
    gateway = open_sync_gateway(data, graph=None)
    try:
        return [
            gateway.write(
                MemoryWrite(
                    content=f"Fact {n}: the user likes tea.",
                    namespace=namespace,
                    source=Source.USER,
                )
            ).id
            for n in range(count)
        ]
    finally:
        gateway.close()


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return tmp_path / "data"


# -- exit codes and the JSON error shape -----------------------------------------------


def test_an_empty_namespace_is_a_usage_error_not_a_traceback(data: Path) -> None:
    for namespace in ("", "/", "//"):
        done = memgate(data, "write", "I prefer metric units.", "--namespace", namespace)
        assert done.returncode == 3, done.stderr
        assert "Traceback" not in done.stderr and "validation" not in done.stderr
        assert "--namespace needs at least one label" in done.stderr
        error = json_error(
            memgate(data, "write", "x", "--namespace", namespace, "--json"), 3, "usage"
        )
        assert "--namespace" in error["message"]
    # A rollback scoped to "" would widen to every namespace: refused likewise.
    assert memgate(data, "rollback", "--to", "0", "--namespace", "", "--dry-run").returncode == 3


def test_errors_under_json_have_one_shape(data: Path, tmp_path: Path) -> None:
    seeded(data, 1)
    missing = json_error(memgate(data, "get", "m_NOPE", "--json"), 1, "not_found")
    assert "m_NOPE" in missing["message"]
    json_error(memgate(data, "review", "show", MISSING, "--json"), 1, "not_found")
    bad_point = json_error(memgate(data, "rollback", "--to", "yesterday", "--json"), 3, "usage")
    assert "neither a sequence number nor an ISO 8601 time" in bad_point["message"]
    json_error(memgate(data, "search", "--limit", "0", "--json"), 3, "usage")
    json_error(memgate(data, "review", "list", "--bogus-option", "--json"), 3, "usage")
    json_error(memgate(data, "scan", str(tmp_path / "nothing.txt"), "--json"), 3, "usage")
    invalid = json_error(
        memgate(data, "get", MISSING, "--session", "", "--json"), 3, "invalid_input"
    )
    assert invalid["field"] == "session_id"
    # Without --json the same errors are one line on stderr, stdout stays empty.
    plain = memgate(data, "get", "m_NOPE")
    assert plain.returncode == 1 and plain.stdout == "" and "error:" in plain.stderr


def test_version() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "memgate.cli", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=ENV,
    )
    assert done.returncode == 0, done.stderr
    assert re.fullmatch(r"memgate \d+\.\d+\.\d+\S*\n", done.stdout), done.stdout


def test_rules_test_json(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["rules", "test", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["total"] == report["passed"] > 100
    assert report["failed"] == 0 and report["failures"] == []
    assert report["rules_version"]
    broken = tmp_path / "broken.toml"
    broken.write_text("[[rule]]\nid = \n", encoding="utf-8")
    bad = subprocess.run(
        [sys.executable, "-m", "memgate.cli", "rules", "test", str(broken), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=ENV,
    )
    json_error(bad, 3, "rules_error")


# -- output that stays whole when piped ------------------------------------------------


def test_tables_are_not_cut_at_80_columns_when_piped(data: Path) -> None:
    made = [
        json.loads(
            memgate(
                data,
                "keys",
                "create",
                f"bot-{n}",
                "--namespace",
                "acme-corporation-international/support-team-emea/tier-2",
                "--json",
            ).stdout
        )
        for n in range(2)
    ]
    listed = memgate(data, "keys", "list")
    assert listed.returncode == 0, listed.stderr
    for key in made:
        assert key["id"] in listed.stdout
    assert "acme-corporation-international/support-team-emea/tier-2" in listed.stdout
    assert not re.search(r"k_[0-9a-f]*…", listed.stdout)  # (a key's hint is cut on purpose)
    assert max(len(line) for line in listed.stdout.splitlines()) > 80
    ids = seeded(data, 1, ("acme-corporation-international", "support-team-emea", "u-42"))
    shown = memgate(data, "search", "tea", "--namespace", "acme-corporation-international")
    line = next(line for line in shown.stdout.splitlines() if ids[0] in line)
    assert "acme-corporation-international/support-team-emea/u-42" in line


# -- rollback: confirmation, large diffs -----------------------------------------------


def test_rollback_without_a_terminal_needs_yes(data: Path) -> None:
    seeded(data, 3)
    done = memgate(data, "rollback", "--to", "0", "--reason", "test")
    assert done.returncode == 3, done.stderr
    assert "--yes" in done.stderr and "no terminal" in done.stderr
    error = json_error(memgate(data, "rollback", "--to", "0", "--json"), 3, "confirmation_required")
    assert error["changes"] == 3
    still = json.loads(memgate(data, "search", "tea", "--json").stdout)
    assert len(still) == 3  # nothing was applied
    applied = memgate(data, "rollback", "--to", "0", "--yes", "--json")
    assert applied.returncode == 0 and json.loads(applied.stdout)["applied"]


def on_a_terminal(data: Path, *args: str, answer: str) -> tuple[int, str]:
    """Run memgate with stdin and stderr on a pseudo-terminal, answer the prompt,
    return the exit code and what the terminal showed."""
    master, slave = pty.openpty()
    process = subprocess.Popen(
        [sys.executable, "-m", "memgate.cli", *args, "--data-dir", str(data)],
        stdin=slave,
        stdout=subprocess.PIPE,
        stderr=slave,
        env=ENV,
        text=True,
    )
    os.close(slave)
    shown = b""
    answered = False
    deadline = time.monotonic() + 120
    while process.poll() is None and time.monotonic() < deadline:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                shown += os.read(master, 65536)
            except OSError:
                break
        if not answered and b"Apply this rollback" in shown:
            os.write(master, answer.encode())
            answered = True
    out, _ = process.communicate(timeout=60)
    os.close(master)
    return process.returncode, shown.decode("utf-8", "replace") + out


def test_rollback_asks_on_a_terminal(data: Path) -> None:
    ids = seeded(data, 2)
    code, shown = on_a_terminal(data, "rollback", "--to", "0", answer="n\n")
    assert code == 1 and "Apply this rollback (2 change(s))?" in shown
    assert "not applied" in shown
    code, shown = on_a_terminal(data, "rollback", "--to", "0", answer="y\n")
    assert code == 0, shown
    assert "applied" in shown and all(i in shown for i in ids)


def test_a_large_dry_run_is_summarized_and_the_applied_run_prints_it_once(data: Path) -> None:
    ids = seeded(data, 60)
    dry = memgate(data, "rollback", "--to", "0", "--dry-run")
    assert dry.returncode == 0, dry.stderr
    rows = [i for i in ids if i in dry.stdout]
    assert len(rows) == 50
    assert "… and 10 more change(s) (60 in all" in dry.stdout
    few = memgate(data, "rollback", "--to", "0", "--dry-run", "--limit", "5").stdout
    assert sum(i in few for i in ids) == 5 and "… and 55 more" in few
    every = memgate(data, "rollback", "--to", "0", "--dry-run", "--limit", "0").stdout
    assert all(i in every for i in ids) and "more change(s)" not in every
    as_json = json.loads(memgate(data, "rollback", "--to", "0", "--dry-run", "--json").stdout)
    assert len(as_json["changes"]) == 60  # scripts get every change
    applied = memgate(data, "rollback", "--to", "0", "--yes")
    assert applied.returncode == 0, applied.stderr
    assert max(applied.stdout.count(i) for i in ids) == 1  # the diff once, not twice
    assert "applied: 60 change(s)" in applied.stdout


# -- progress ---------------------------------------------------------------------------


def test_log_verify_shows_progress_only_when_asked_or_on_a_terminal(data: Path) -> None:
    seeded(data, 3)
    quiet = memgate(data, "log", "verify", "--json")
    assert quiet.returncode == 0 and quiet.stderr == ""
    assert json.loads(quiet.stdout)["ok"]
    asked = memgate(data, "log", "verify", "--json", "--progress")
    assert asked.returncode == 0 and json.loads(asked.stdout)["ok"]
    assert "verifying the log ..." in asked.stderr
    assert "verifying the log: done after" in asked.stderr
    code, shown = on_a_terminal(data, "log", "verify", answer="")
    assert code == 0 and "log verified" in shown


# -- scan --jsonl -----------------------------------------------------------------------


def test_scan_jsonl_reports_a_bad_line_and_scans_the_rest(tmp_path: Path) -> None:
    batch = tmp_path / "batch.jsonl"
    batch.write_text(
        "\n".join(
            [
                json.dumps({"id": "a", "text": "I prefer tea over coffee.", "source": "user"}),
                '{"id": "b", "text": "unterminated',
                json.dumps({"id": "c"}),
                json.dumps(["not", "an", "object"]),
                json.dumps({"id": "d", "text": "The build runs on Fridays.", "source": "user"}),
            ]
        )
        + "\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [sys.executable, "-m", "memgate.cli", "scan", "--jsonl", str(batch)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env=ENV,
    )
    assert done.returncode == 3
    assert [json.loads(line)["id"] for line in done.stdout.splitlines()] == ["a", "d"]
    for number in (2, 3, 4):
        assert f"batch.jsonl:{number}: bad record" in done.stderr
    assert "3 bad line(s) skipped, 2 scanned" in done.stderr


# -- help -------------------------------------------------------------------------------


def commands(group: Any, prefix: tuple[str, ...] = ()) -> list[tuple[str, ...]]:
    found = [prefix]
    for name, command in getattr(group, "commands", {}).items():
        found.extend(commands(command, (*prefix, name)))
    return found


def test_help_shows_flags_without_a_type_and_realistic_ids() -> None:
    runner = CliRunner()
    every = commands(typer.main.get_command(app))
    assert len(every) > 30
    for path in every:
        result = runner.invoke(app, [*path, "--help"], env={"COLUMNS": "120"})
        assert result.exit_code == 0, (path, result.output)
        assert "<bool>" not in result.output, path
        assert "01J9Z" not in result.output and "3f9a..." not in result.output, path
    rollback = runner.invoke(app, ["rollback", "--help"], env={"COLUMNS": "120"}).output
    assert re.search(r"--dry-run\s+Show the diff", rollback), rollback
    assert "Exit 0 applied" in rollback
    top = runner.invoke(app, ["--help"], env={"COLUMNS": "120"}).output
    assert "Exit codes: 0 done, 1 refused or failed, 3 usage error" in top


def test_search_pages_with_offset(data: Path) -> None:
    seeded(data, 5)

    def page(*args: str) -> list[str]:
        done = memgate(data, "search", "tea", "--namespace", "acme", "--json", *args)
        assert done.returncode == 0, done.stderr
        return [item["id"] for item in json.loads(done.stdout)]

    every = page("--limit", "5")
    assert len(every) == 5
    assert page("--limit", "2") == every[:2]
    assert page("--limit", "2", "--offset", "2") == every[2:4]
    assert page("--limit", "2", "--offset", "4") == every[4:]
    assert page("--offset", "5") == []
    json_error(memgate(data, "search", "--offset", "-1", "--json"), 3, "usage")
