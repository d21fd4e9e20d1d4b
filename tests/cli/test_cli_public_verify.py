"""Signed checkpoints against a real `memgate serve`: the checkpoint exported
over HTTP, the public key fetched without a key, and `memgate log verify
--checkpoint F --public-key P --url` checking the server's log pages with no
log key; a forged checkpoint fails."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from typer.testing import CliRunner, Result

from memgate.cli.main import app
from memgate.client import MemgateClient
from memgate.domain import Source
from memgate.domain.memory import MemoryWrite
from tests.cli.serving import Server


def remote(server: Server, *args: str) -> Result:
    return CliRunner().invoke(
        app,
        list(args),
        env={
            "COLUMNS": "200",
            "MEMGATE_URL": server.url,
            "MEMGATE_KEY": server.admin_key,
            "MEMGATE_DATA_DIR": str(server.data_dir.parent / "never-used"),
        },
    )


def verified(result: Result) -> tuple[int, Any]:
    assert result.exit_code in (0, 1), result.output
    return result.exit_code, json.loads(result.stdout)


def test_public_key_verify_over_the_api(server: Server, tmp_path: Path) -> None:
    with MemgateClient(server.url, key=server.admin_key) as client:
        client.write(
            MemoryWrite(content="Signed note one.", namespace=("pubv",), source=Source.USER)
        )
    cp = tmp_path / "cp.json"
    made = remote(server, "log", "checkpoint", "--out", str(cp))
    assert made.exit_code == 0, made.output
    published = httpx.get(f"{server.url}/v1/log/public-key", timeout=10)  # no key
    assert published.status_code == 200
    pem = tmp_path / "checkpoint.pub"
    pem.write_text(published.json()["pem"])
    assert pem.read_text() == (server.data_dir / "keys" / "checkpoint.pub").read_text()
    with MemgateClient(server.url, key=server.admin_key) as client:
        client.write(
            MemoryWrite(content="Signed note two.", namespace=("pubv",), source=Source.USER)
        )
    args = ("log", "verify", "--json", "--checkpoint", str(cp), "--public-key", str(pem))
    code, report = verified(remote(server, *args))
    assert code == 0, report
    assert report["signature_ok"] is True
    assert report["last_seq"] > json.loads(cp.read_text())["seq"]

    forged = tmp_path / "forged.json"
    point = json.loads(cp.read_text())
    forged.write_text(json.dumps({**point, "head_mac": "0" * 64}))
    args = ("log", "verify", "--json", "--checkpoint", str(forged), "--public-key", str(pem))
    code, report = verified(remote(server, *args))
    assert code == 1
    assert report["signature_ok"] is False
