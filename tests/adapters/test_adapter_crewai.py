"""The CrewAI adapter's tests, run in CrewAI's own environment.

crewai 1.x pins openai<3, pydantic<2.13 and mcp<2, which cannot be installed
beside this project's openai-agents (openai>=3) and MCP 2, so CrewAI lives in
.venv-crewai (`make setup-crewai`: memgate and `.[crewai]`). This test runs
tests/adapters/crewai_env there; it fails, naming the command, when that
environment is missing. MEMGATE_CREWAI_PYTHON points at another interpreter.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITE = Path(__file__).resolve().parent / "crewai_env"


def crewai_python() -> Path:
    return Path(os.environ.get("MEMGATE_CREWAI_PYTHON", ROOT / ".venv-crewai" / "bin" / "python"))


def test_the_crewai_suite_passes_against_the_real_crewai() -> None:
    python = crewai_python()
    assert python.exists(), (
        f"CrewAI's environment is missing ({python}): run `make setup-crewai`"
        " (or set MEMGATE_CREWAI_PYTHON to a Python with crewai and memgate installed)"
    )
    done = subprocess.run(
        [str(python), "-m", "pytest", str(SUITE), "-p", "no:cacheprovider"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=900,
        check=False,
    )
    tail = done.stdout[-4000:] + done.stderr[-2000:]
    assert done.returncode == 0, f"the CrewAI suite failed:\n{tail}"
    wanted = sum(
        len(re.findall(r"^def test_", f.read_text(), re.MULTILINE)) for f in SUITE.glob("test_*.py")
    )
    assert wanted > 0
    assert re.search(rf"\b{wanted} passed\b", done.stdout), f"not all {wanted} ran:\n{tail}"
    assert "skipped" not in done.stdout
