"""`memgate notify test | drain | status` through the CLI (typer app, and once
the installed entry point in a subprocess), against a real loopback receiver."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from notify_receiver import Receiver, free_port, receiving
from typer.testing import CliRunner, Result

from memgate.cli.main import app
from memgate.notify import SIGNATURE_HEADER, TIMESTAMP_HEADER, verify_signature

SECRET = "cli-notify-secret"
BASE_ENV = {
    "MEMGATE_GRAPH": "none",
    "MEMGATE_FALKORDB_URL": "",
    "MEMGATE_URL": "",
    "MEMGATE_KEY": "",
    "MEMGATE_NOTIFY_URLS": "",
    "MEMGATE_NOTIFY_SECRET": "",
    "COLUMNS": "200",
}


def run(*args: str, **env: str) -> Result:
    return CliRunner().invoke(app, list(args), env={**BASE_ENV, **env})


def test_notify_test_sends_a_signed_test_notice(tmp_path: Path) -> None:
    with receiving() as receiver:
        result = run(
            "notify", "test", MEMGATE_NOTIFY_URLS=receiver.url, MEMGATE_NOTIFY_SECRET=SECRET
        )
        assert result.exit_code == 0, result.output
        assert "delivered" in result.output and "HTTP 200" in result.output
        assert "signed" in result.output
        assert "T0SECRETPATH" not in result.output  # the webhook path is a credential
        (request,) = receiver.requests
        assert request.json()["kind"] == "test"
        assert verify_signature(
            SECRET.encode(),
            request.body,
            request.headers[TIMESTAMP_HEADER],
            request.headers[SIGNATURE_HEADER],
        )


def test_notify_test_reports_a_target_that_is_down() -> None:
    url = f"http://127.0.0.1:{free_port()}/hooks/T0SECRETPATH"
    result = run("notify", "test", MEMGATE_NOTIFY_URLS=url)
    assert result.exit_code == 1
    assert "FAILED" in result.output and "ConnectError" in result.output
    assert "unsigned" in result.output
    assert "T0SECRETPATH" not in result.output


def test_notify_test_with_no_target_is_a_usage_error() -> None:
    result = run("notify", "test")
    assert result.exit_code == 3
    assert "MEMGATE_NOTIFY_URLS" in result.output


def test_notify_test_json_and_slack_format() -> None:
    with receiving(script=[500]) as broken, receiving() as slack:
        result = run("notify", "test", "--to", broken.url, "--to", f"slack:{slack.url}", "--json")
        assert result.exit_code == 1, result.output
        out: dict[str, Any] = json.loads(result.stdout)
        assert [r["ok"] for r in out["results"]] == [False, True]
        assert out["results"][0]["status"] == 500 and out["signed"] is False
        message = slack.requests[0].json()
        assert set(message) == {"text", "blocks"}
        assert message["text"].startswith("memgate test notification")


def test_drain_and_status_on_a_local_data_directory(tmp_path: Path) -> None:
    data = str(tmp_path / "data")
    written = run(
        "write",
        "a page on the deploy freeze",
        "--namespace",
        "acme/u1",
        "--source",
        "web",
        "--target",
        "long",
        "--json",
        "--data-dir",
        data,
    )
    assert written.exit_code == 0, written.output
    memory_id = json.loads(written.stdout)["id"]
    status = run("notify", "status", "--json", "--data-dir", data)
    assert status.exit_code == 0, status.output
    assert json.loads(status.stdout)["pending"] == 1

    port = free_port()
    url = f"http://127.0.0.1:{port}/hooks/T0SECRETPATH"
    down = run("notify", "drain", "--data-dir", data, MEMGATE_NOTIFY_URLS=url)
    assert down.exit_code == 1, down.output
    assert "delivered 0, failed 1" in down.output and "waiting now: 1" in down.output

    receiver = Receiver(port=port).start()
    try:
        up = run("notify", "drain", "--data-dir", data, "--json", MEMGATE_NOTIFY_URLS=url)
        assert up.exit_code == 0, up.output
        report = json.loads(up.stdout)
        assert report["delivered"] == 1 and report["status"]["pending"] == 0
        (request,) = receiver.requests
        assert request.json()["memory_id"] == memory_id
        again = run("notify", "drain", "--data-dir", data, MEMGATE_NOTIFY_URLS=url)
        assert again.exit_code == 0 and "delivered 0" in again.output
        assert len(receiver.requests) == 1
    finally:
        receiver.stop()
    shown = run("notify", "status", "--data-dir", data)
    assert "waiting 0, delivered 1, given up 0" in shown.output


def test_the_installed_command_runs_notify_test() -> None:
    with receiving() as receiver:
        env = {**os.environ, **BASE_ENV, "MEMGATE_NOTIFY_URLS": f"json:{receiver.url}"}
        done = subprocess.run(
            [sys.executable, "-m", "memgate.cli", "notify", "test"],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        assert done.returncode == 0, done.stderr
        assert "delivered" in done.stdout
        assert len(receiver.requests) == 1


def test_drain_refuses_a_directory_a_server_holds(tmp_path: Path) -> None:
    from memgate.cli.lock import data_dir_lock

    data = tmp_path / "data"
    assert run("write", "held", "--namespace", "a/b", "--data-dir", str(data)).exit_code == 0
    with data_dir_lock(data, what="memgate serve", url="http://127.0.0.1:8765"):
        result = run(
            "notify", "drain", "--data-dir", str(data), MEMGATE_NOTIFY_URLS="http://127.0.0.1:9/x"
        )
    assert result.exit_code == 1
    assert "delivers its outbox itself" in result.output
