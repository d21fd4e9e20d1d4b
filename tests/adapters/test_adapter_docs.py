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
}


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
            [sys.executable, str(script)], capture_output=True, text=True, timeout=120, check=False
        )
        assert done.returncode == 0, f"{page} example {number} failed:\n{done.stderr[-3000:]}"
        out += done.stdout
    for expected in EXPECTED[page]:
        assert expected in out, f"{page}: {expected!r} not in output:\n{out}"
