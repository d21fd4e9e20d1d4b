"""The Makefile's two entry points: `make run` installs only what running needs,
with visible progress; `make test` still installs the dev and bench extras.

Checked with `make -n` (print, do not run) in a copy of the Makefile and
pyproject.toml in an empty directory, so no virtual environment is touched."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def copy_project(where: Path) -> None:
    for name in ("Makefile", "pyproject.toml"):
        shutil.copy(ROOT / name, where / name)


def make_n(target: str, where: Path) -> list[str]:
    make = shutil.which("make")
    assert make is not None, "these tests need GNU make on PATH (apt-get install make)"
    # under `make test` the environment carries MAKELEVEL / MAKEFLAGS, and a nested
    # make would print "Entering directory" lines around the plan
    env = {k: v for k, v in os.environ.items() if k not in ("MAKELEVEL", "MAKEFLAGS", "MFLAGS")}
    done = subprocess.run(
        [make, "--no-print-directory", "-n", target],
        cwd=where,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.splitlines()


def planned(target: str, where: Path) -> list[str]:
    """What `make <target>` would run on a fresh checkout (no .venv)."""
    copy_project(where)
    return make_n(target, where)


def installs(lines: list[str]) -> list[list[str]]:
    """The `pip install` commands of a plan, as argument lists."""
    found = []
    for line in lines:
        if "pip install" not in line:
            continue
        words = shlex.split(line)
        if "pip" in words and "install" in words:
            found.append(words[words.index("install") + 1 :])
    return found


def project_installs(lines: list[str]) -> list[list[str]]:
    """The pip installs of this project (`-e .` or `-e '.[extras]'`), not of pip."""
    return [args for args in installs(lines) if any(a.startswith(".") for a in args)]


def test_make_run_installs_the_runtime_set_only_and_shows_progress(tmp_path: Path) -> None:
    lines = planned("run", tmp_path)
    project = project_installs(lines)
    assert project == [["-e", "."]], project
    assert not any("--quiet" in args or "-q" in args for args in project)
    assert not any("[" in arg for args in installs(lines) for arg in args), installs(lines)
    # A message says what is happening before the install starts.
    install_at = next(i for i, line in enumerate(lines) if "pip install -e ." in line)
    assert any(line.startswith("echo") and "installing" in line for line in lines[:install_at]), (
        lines
    )
    assert lines[-1].endswith("memgate serve --data-dir data")


@pytest.mark.parametrize("target", ["test", "setup", "pytest"])
def test_make_test_still_installs_the_dev_and_bench_extras(tmp_path: Path, target: str) -> None:
    project = project_installs(planned(target, tmp_path))
    assert ["-e", ".[dev,bench]"] in [
        [a for a in args if a not in ("--quiet", "-q")] for args in project
    ], project


def test_run_stamp_is_kept_apart_from_the_dev_stamp(tmp_path: Path) -> None:
    """With the runtime set installed (its stamp newer than pyproject.toml),
    `make run` installs nothing more, though the dev extras are missing; `make
    setup` then installs only the extras."""
    copy_project(tmp_path)
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").touch()
    (venv / ".run-stamp").touch()
    assert installs(make_n("run", tmp_path)) == []
    assert project_installs(make_n("setup", tmp_path)) == [["--quiet", "-e", ".[dev,bench]"]]
