"""`memgate demo` replays the reference incident and every step behaves."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path


def test_demo_exits_0_and_every_step_behaved(tmp_path: Path) -> None:
    keep = tmp_path / "demo-data"
    result = subprocess.run(
        [sys.executable, "-m", "memgate.cli", "demo", "--json", "--data-dir", str(keep)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(result.stdout)
    assert report["ok"] is True
    titles = [s["title"] for s in report["steps"]]
    assert len(titles) == 11 and all(s["ok"] for s in report["steps"])
    assert "who read it" in titles and "what it touched (blast radius)" in titles
    # the kept directory holds the incident: the log verifies and shows the rollback
    tail = subprocess.run(
        [
            sys.executable,
            "-m",
            "memgate.cli",
            "log",
            "tail",
            "-n",
            "1",
            "--json",
            "--data-dir",
            str(keep),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={"MEMGATE_GRAPH": "none", "PATH": "/usr/bin:/bin"},
    )
    assert tail.returncode == 0, tail.stderr
    assert json.loads(tail.stdout)["event"]["op"] == "rolled_back"


def test_demo_refuses_a_non_empty_directory(tmp_path: Path) -> None:
    (tmp_path / "something").write_text("x")
    result = subprocess.run(
        [sys.executable, "-m", "memgate.cli", "demo", "--data-dir", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode == 3 and "not empty" in result.stdout + result.stderr
