"""The README's "A 5-minute tour", re-run as a script against a real server.

The shell blocks of the tour are taken from README.md as written and run by
bash, one script, `set -e`, with only the substitutions a script needs in place
of a person (each must find its text, so a README that drifts from them fails
here instead of silently testing something else):

- `make run` is replaced by the server this test starts (`memgate serve` on a
  free port and a temporary data directory);
- the keys the reader would copy (`mgk_...`) and the memory id they would copy
  (`m_01...`) are captured from the commands' `--json` output;
- `rollback` gets `--yes` (a script has no terminal to confirm on);
- the checkpoint goes under a temporary home.

Then the tour's claims are checked: the three writes land approved / pending /
rejected, the approved web line is served to session s3, the rollback removes it,
and the log verifies against the exported checkpoint.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from serving import KEY_LINE, start_server, stop

README = Path(__file__).resolve().parents[2] / "README.md"
BIN = Path(sys.executable).parent


def tour_blocks() -> list[str]:
    text = README.read_text(encoding="utf-8")
    start = text.index("## A 5-minute tour")
    end = text.index("\n## ", start + 1)
    return re.findall(r"```sh\n(.*?)```", text[start:end], flags=re.S)


def substitute(script: str, old: str, new: str) -> str:
    assert old in script, f"README tour no longer holds {old!r}: update this test"
    return script.replace(old, new)


def tour_script(url: str, admin_key: str) -> str:
    blocks = tour_blocks()
    assert blocks and blocks[0].lstrip().startswith("make run"), "the tour starts the server"
    script = "\n".join(blocks[1:])
    script = substitute(script, "export PATH=$PWD/.venv/bin:$PATH", f"export PATH={BIN}:$PATH")
    script = substitute(
        script,
        "export MEMGATE_URL=http://127.0.0.1:8765 MEMGATE_KEY=mgk_...",
        f"export MEMGATE_URL={url} MEMGATE_KEY={admin_key}",
    )
    key_of = "| python -c 'import json,sys; print(json.load(sys.stdin)[\"key\"])'"
    script = substitute(
        script,
        "memgate keys create support-bot --role agent --namespace acme --user-channel",
        f"AGENT_KEY=$(memgate keys create support-bot --role agent --namespace acme"
        f" --user-channel --json {key_of})",
    )
    script = substitute(
        script,
        "memgate keys create alice --role reviewer",
        f"REVIEWER_KEY=$(memgate keys create alice --role reviewer --json {key_of})",
    )
    script = substitute(
        script, "AGENT=mgk_...  REVIEWER=mgk_...", "AGENT=$AGENT_KEY REVIEWER=$REVIEWER_KEY"
    )
    # the web line's id, which the reader copies from `review list`
    script = substitute(
        script,
        "memgate review list --key $REVIEWER",
        "memgate review list --key $REVIEWER\n"
        "WEB_ID=$(memgate review list --key $REVIEWER --json"
        " | python -c 'import json,sys; d=json.load(sys.stdin);"
        ' items=d["items"] if isinstance(d, dict) else d; print(items[0]["id"])\')',
    )
    script = script.replace("m_01...", "$WEB_ID")
    script = substitute(
        script,
        'memgate rollback --to 1 --reason "poisoned web memory"',
        'memgate rollback --to 1 --reason "poisoned web memory" --yes',
    )
    # each of the tour's commands is announced, so its output can be told apart
    lines = []
    for line in script.splitlines():
        if line.startswith(("post '", "curl -s", "memgate ")):
            marker = line.replace("'", "").replace("\\", "")[:60]
            lines.append(f"echo; echo '### {marker}'")  # curl ends without a newline
        lines.append(line)
    return "set -euo pipefail\n" + "\n".join(lines) + "\n"


def outputs(out: str) -> list[tuple[str, str]]:
    """(command, its output) in order, from the announced script's stdout."""
    parts = re.split(r"^### (.*)$", out, flags=re.M)
    return list(zip(parts[1::2], parts[2::2], strict=True))


def output_of(runs: list[tuple[str, str]], prefix: str, nth: int = 0) -> str:
    found = [text for command, text in runs if command.startswith(prefix)]
    assert len(found) > nth, (prefix, [c for c, _ in runs])
    return found[nth]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[str, str]]:
    log = tmp_path / "serve.log"
    process, url = start_server(tmp_path / "data", log, "--graph", "embedded")
    try:
        match = KEY_LINE.search(log.read_text())
        assert match, log.read_text()
        yield url, match.group(1)
    finally:
        stop(process)


def test_the_readme_tour_runs_as_written(server: tuple[str, str], tmp_path: Path) -> None:
    url, admin_key = server
    home = tmp_path / "home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home), "COLUMNS": "200"}
    env.pop("MEMGATE_URL", None)
    env.pop("MEMGATE_KEY", None)
    done = subprocess.run(
        ["bash", "-c", tour_script(url, admin_key)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    out = done.stdout
    assert done.returncode == 0, (out[-3000:], done.stderr[-3000:])
    runs = outputs(out)
    # the three writes: approved, pending review, rejected
    assert '"state":"approved"' in output_of(runs, "post", 0)
    assert '"state":"pending_review"' in output_of(runs, "post", 1)
    assert '"state":"rejected"' in output_of(runs, "post", 2)
    # searching as session s2 finds the preference
    assert "metric units" in output_of(runs, 'curl -s "$MEMGATE_URL/v1/memories/search"', 0)
    # after the hurried approval the web line is served to s3 ...
    assert "read-only" in output_of(runs, 'curl -s "$MEMGATE_URL/v1/memories/search"', 1)
    # ... the rollback's dry run names it, and afterwards nothing is served
    web_id = re.search(r"m_[0-9A-Z]{20,}", output_of(runs, "memgate review list")).group(0)  # type: ignore[union-attr]
    assert web_id in output_of(runs, "memgate rollback --to 1 --dry-run")
    assert web_id in output_of(runs, "memgate investigate readers")
    assert "declared all files read-only" not in output_of(runs, "memgate search read-only")
    assert "rollback" in output_of(runs, "memgate log tail").lower()
    assert (home / "memgate-checkpoint.json").exists()
