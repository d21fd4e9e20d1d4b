"""`memgate serve` as a real process delivers notices: its start-up banner names
the targets (scheme, host and port only), and a write entering review over its
HTTP API reaches a receiver, signed."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from notify_receiver import receiving

from memgate.notify import SIGNATURE_HEADER, TIMESTAMP_HEADER, verify_signature
from tests.cli.serving import KEY_LINE, start_server, stop

SECRET = "serve-notify-secret"


def test_memgate_serve_delivers_signed_notices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with receiving() as receiver:
        monkeypatch.setenv("MEMGATE_NOTIFY_URLS", f"slack:{receiver.url}")
        monkeypatch.setenv("MEMGATE_NOTIFY_SECRET", SECRET)
        log = tmp_path / "serve.log"
        process, url = start_server(tmp_path / "data", log, "--graph", "none")
        try:
            output = log.read_text()
            found = KEY_LINE.search(output)
            assert found, output
            assert f"notifications: slack http://127.0.0.1:{receiver.port}; signed" in output
            assert "T0SECRETPATH" not in output
            admin = {"Authorization": f"Bearer {found.group(1)}"}
            created = httpx.post(
                url + "/v1/keys",
                json={"name": "agent", "role": "agent", "namespaces": [["team"]]},
                headers=admin,
            )
            assert created.status_code == 201, created.text
            agent = {"Authorization": f"Bearer {created.json()['key']}"}
            written = httpx.post(
                url + "/v1/memories",
                json={
                    "content": "the release train leaves at 16:00",
                    "namespace": ["team", "ops"],
                    "source": "web",
                    "target": "long",
                },
                headers=agent,
            )
            assert written.status_code == 201, written.text
            (request,) = receiver.wait_for(1, timeout=30)
        finally:
            stop(process)
        message = request.json()
        assert message["text"].startswith("Review needed: " + written.json()["id"])
        assert request.headers[SIGNATURE_HEADER].startswith("sha256=")
        assert verify_signature(
            SECRET.encode(),
            request.body,
            request.headers[TIMESTAMP_HEADER],
            request.headers[SIGNATURE_HEADER],
        )
