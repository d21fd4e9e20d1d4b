"""Keys and UI sessions across real replicas: two `memgate serve` processes on one
PostgreSQL store (own data directories, nothing copied between them). A key made
through replica A works on B; revoked through A, B refuses it within the bound
(LISTEN/NOTIFY: milliseconds; at worst the 5 s cache TTL); a key that was in
A's data directory's SQLite file before the store held keys (the migration)
works on B, whose directory never had it; a browser signed in through A is
signed in on B, and signing out on B ends it on A."""

from __future__ import annotations

import re
import secrets
import subprocess
import time
from pathlib import Path

import httpx
import pytest

from memgate.service.keys import KEY_CACHE_SECONDS
from memgate.service.keys_postgres import PostgresKeyStore
from memgate.service.keys_sqlite import SqliteKeyStore
from memgate.service.settings import KEYS_FILE
from tests.cli.serving import stop
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - fixture
from tests.test_replicas import start_server


def _sign_in(client: httpx.Client, key: str) -> None:
    form = client.get("/ui/login")
    token = re.search(r'name="csrf" value="([^"]+)"', form.text)
    assert token is not None
    answer = client.post(
        "/ui/login", data={"key": key, "csrf": token.group(1), "next": "/ui/queue"}
    )
    assert answer.status_code == 303, answer.text


def _csrf(page: httpx.Response) -> str:
    found = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert found is not None, page.text[:500]
    return found.group(1)


def test_keys_and_ui_sessions_are_shared_by_replicas(
    tmp_path: Path,
    postgres: PgServer,  # noqa: F811 - fixture
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    store_url = postgres.fresh_database()
    monkeypatch.setenv("MEMGATE_LOG_KEY", secrets.token_hex(32))
    monkeypatch.setenv("MEMGATE_FINGERPRINT_KEY", secrets.token_hex(32))
    a_dir, b_dir = tmp_path / "a", tmp_path / "b"
    # A key made the old way, in A's data directory only.
    with SqliteKeyStore(a_dir / KEYS_FILE) as old:
        old.create("root", "admin")
        _, legacy = old.create("legacy", "agent", [("acme",)])
    with PostgresKeyStore.open(store_url) as keys:
        assert keys.list() == []
    with SqliteKeyStore(a_dir / KEYS_FILE) as old:
        _, admin = old.create("ops", "admin")

    processes: list[subprocess.Popen[bytes]] = []
    args = ("--store", store_url, "--graph", "none")
    try:
        a_proc, a_url = start_server(a_dir, tmp_path / "a.log", *args)
        processes.append(a_proc)
        b_proc, b_url = start_server(b_dir, tmp_path / "b.log", *args)
        processes.append(b_proc)
        assert "admin key (shown once" not in (tmp_path / "b.log").read_text()
        with (
            httpx.Client(base_url=a_url, timeout=30) as a,
            httpx.Client(base_url=b_url, timeout=30) as b,
        ):
            bearer = {"Authorization": f"Bearer {admin}"}
            # The migrated keys: B's data directory never had them.
            assert b.get("/v1/keys/me", headers=bearer).status_code == 200
            me = b.get("/v1/keys/me", headers={"Authorization": f"Bearer {legacy}"})
            assert me.status_code == 200 and me.json()["namespaces"] == [["acme"]]

            made = a.post(
                "/v1/keys", json={"name": "ci", "role": "agent", "namespaces": [["acme"]]},
                headers=bearer,
            )  # fmt: skip
            assert made.status_code == 201, made.text
            agent, agent_id = made.json()["key"], made.json()["id"]
            agent_h = {"Authorization": f"Bearer {agent}"}
            for _ in range(3):  # cached on B now
                assert b.get("/v1/keys/me", headers=agent_h).status_code == 200
            assert a.delete(f"/v1/keys/{agent_id}", headers=bearer).status_code == 200
            start = time.monotonic()
            while b.get("/v1/keys/me", headers=agent_h).status_code != 401:
                assert time.monotonic() - start < KEY_CACHE_SECONDS + 1, "B still accepts it"
                time.sleep(0.02)
            took = time.monotonic() - start
            print(f"revoked through A, refused by B after {took * 1000:.0f} ms")
            assert took < 2.0, "the NOTIFY should beat the TTL on a live connection"
            assert a.get("/v1/keys/me", headers=agent_h).status_code == 401

        # The review UI: signed in through A, used through B, signed out on B.
        reviewer = httpx.post(
            a_url + "/v1/keys", json={"name": "rev", "role": "reviewer"}, headers=bearer,
            timeout=30,
        ).json()["key"]  # fmt: skip
        with httpx.Client(base_url=a_url, timeout=30) as browser_a:
            _sign_in(browser_a, reviewer)
            cookies = dict(browser_a.cookies)
            queue_a = browser_a.get("/ui/queue")
            assert queue_a.status_code == 200
            with httpx.Client(base_url=b_url, timeout=30, cookies=cookies) as browser_b:
                queue_b = browser_b.get("/ui/queue")
                assert queue_b.status_code == 200, queue_b.headers
                assert "rev" in queue_b.text
                assert _csrf(queue_b) == _csrf(queue_a), "one session: one CSRF secret"
                out = browser_b.post("/ui/logout", data={"csrf": _csrf(queue_b)})
                assert out.status_code == 303
            again = browser_a.get("/ui/queue")
            assert again.status_code in (302, 303, 307)
            assert "/ui/login" in again.headers["location"]
    finally:
        for process in processes:
            stop(process)
