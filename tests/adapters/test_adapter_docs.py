"""The runnable examples in docs/adapters/*.md run, and print what the pages say."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs" / "adapters"
BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
EXPECTED = {
    "langgraph.md": [
        "thread A sees {'text': 'likes green tea'}",
        "thread B sees {'text': 'likes green tea'}",
        "memgate says approved",
    ],
    "openai_agents.md": [
        "function_call_output -> [memgate: this function call output was withheld: ",
        "MG-INJ-001",
    ],
    "autogen.md": [
        "Prefers metric units. approved 1.0",
        "{'diet': 'vegetarian'}",
        "The user's favourite colour is teal.",
        "'role': 'user'",
    ],
    "mcp.md": ["'add_memory'", "'verify_log'", "The user prefers tea.", "session_id='s1'"],
    "mem0.md": [
        "metric: approved ['I prefer metric units.']",
        "hostile: rejected ['MG-",
        "token: pending_review in mem0: 1",
        "synced: True",
        "found: My deploy token is [REDACTED:MG-SEC-",
        "found: I prefer metric units.",
        "read by: ['chat-7']",
    ],
    "llama_index.md": [
        "indexed: 1 of 2",
        "retrieved: I prefer metric units.",
        "read by: ['docs-1']",
        "long-term memory: True",
    ],
    "crewai.md": [
        "stored: ['I prefer metric units.', \"The user's team reports in imperial units.\"]",
        "recalled: I prefer metric units.",
        "read by: ['crew-1']",
        "after rollback: ['I prefer metric units.']",
        "synced out: 1 left: 1",
    ],
}
NOT_EXPECTED = {
    "mem0.md": ["Ignore all previous", "ghp_"],
    "llama_index.md": ["retrieved: Ignore"],
    "crewai.md": ["recalled: Ignore", "stored: ['Ignore"],
}


def python_for(page: str) -> str:
    """The interpreter a page's examples need: CrewAI's own environment for its page
    (its pins conflict with the dev extras; see test_adapter_crewai.py)."""
    if page != "crewai.md":
        return sys.executable
    from test_adapter_crewai import crewai_python

    python = crewai_python()
    assert python.exists(), f"CrewAI's environment is missing ({python}): run `make setup-crewai`"
    return str(python)


@pytest.mark.parametrize("page", sorted(EXPECTED))
def test_doc_examples_run(page: str, tmp_path: Path) -> None:
    """Each page's examples, run as a user would: `python example.py`."""
    blocks = BLOCK.findall((DOCS / page).read_text())
    assert blocks, f"{page} has no runnable example"
    out = ""
    for number, code in enumerate(blocks):
        script = tmp_path / f"example_{number}.py"
        script.write_text(code)
        done = subprocess.run(
            [python_for(page), str(script)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert done.returncode == 0, f"{page} example {number} failed:\n{done.stderr[-3000:]}"
        out += done.stdout
    for expected in EXPECTED[page]:
        assert expected in out, f"{page}: {expected!r} not in output:\n{out}"
    for unwanted in NOT_EXPECTED.get(page, []):
        assert unwanted not in out, f"{page}: {unwanted!r} in output:\n{out}"
