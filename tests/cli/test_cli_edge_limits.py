"""Issue 15, hole 1 through the CLI: identifiers with control characters, empty
content and a bad namespace are usage errors naming the field; nothing is written."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from memgate.cli.main import app
from memgate.cli.options import USAGE_ERROR

ENV = {"MEMGATE_GRAPH": "none", "MEMGATE_FALKORDB_URL": "", "MEMGATE_URL": "", "MEMGATE_KEY": ""}


def run(data: Path, *args: str) -> Result:
    return CliRunner().invoke(app, [*args, "--data-dir", str(data)], env={**ENV, "COLUMNS": "200"})


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (("--session", "s\x00"), "session_id"),
        (("--call", "c\x07d"), "call_id"),
        (("--agent", "a\u200bb"), "agent_id"),
        (("--memory-key", "k\ny"), "key"),
        (("--namespace", "acme/u\x00"), "namespace.1"),
    ],
)
def test_control_characters_are_usage_errors_naming_the_field(
    tmp_path: Path, args: tuple[str, ...], field: str
) -> None:
    namespace = () if args[0] == "--namespace" else ("--namespace", "acme/u1")
    result = run(tmp_path / "data", "write", "I prefer tea.", *namespace, *args)
    assert result.exit_code == USAGE_ERROR, result.output
    assert f"invalid {field}: must be printable" in result.output
    assert "input_value" not in result.output  # the value is not echoed back
    # Nothing was written: the log is empty.
    listed = run(tmp_path / "data", "search", "tea", "--json")
    assert listed.exit_code == 0 and listed.stdout.strip() == "[]"


def test_empty_content_is_a_usage_error(tmp_path: Path) -> None:
    result = run(tmp_path / "data", "write", "  ", "--namespace", "acme/u1")
    assert result.exit_code == USAGE_ERROR, result.output
    assert "invalid content: must not be empty or only whitespace" in result.output


def test_read_side_ids_are_checked_too(tmp_path: Path) -> None:
    result = run(tmp_path / "data", "search", "tea", "--session", "s\x00")
    assert result.exit_code == USAGE_ERROR, result.output
    assert "invalid session_id: must be printable" in result.output
