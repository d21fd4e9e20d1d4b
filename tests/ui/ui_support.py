"""The review UI under test: the real app served by uvicorn on a loopback port in
a background thread, driven by Debian's Chromium through Playwright, and
checked through the HTTP API of the same server."""

from __future__ import annotations

import contextlib
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn
from playwright.sync_api import Browser, Page, sync_playwright

from memgate.service.app import create_app
from memgate.service.keys_sqlite import SqliteKeyStore as KeyStore
from memgate.service.settings import Settings
from memgate.trust.policy import DEFAULT_POLICY

CHROMIUM = os.environ.get("MEMGATE_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


@dataclass
class UIServer:
    base_url: str
    keys: dict[str, str]
    key_ids: dict[str, str]
    clients: dict[str, httpx.Client] = field(default_factory=dict)

    def api(self, role: str) -> httpx.Client:
        """An API client authenticated with the role's key."""
        if role not in self.clients:
            self.clients[role] = httpx.Client(
                base_url=self.base_url,
                headers={"Authorization": f"Bearer {self.keys[role]}"},
                timeout=10,
            )
        return self.clients[role]

    def write(
        self, content: str, namespace: list[str], *, role: str = "agent", **extra: Any
    ) -> str:
        """Store a memory through the API so that it waits for review (web source,
        long-term target); returns its id."""
        body = {"content": content, "namespace": namespace, "source": "web", "target": "long"}
        body.update(extra)
        answer = self.api(role).post("/v1/memories", json=body)
        assert answer.status_code == 201, answer.text
        receipt = answer.json()
        assert receipt["state"] == "pending_review", receipt
        return str(receipt["id"])

    def item(self, memory_id: str) -> dict[str, Any]:
        """The memory as the API shows it to an admin, in any state."""
        answer = self.api("admin").get(f"/v1/review/{memory_id}")
        assert answer.status_code == 200, answer.text
        data: dict[str, Any] = answer.json()
        return data


def _review_markup_policy(data_dir: Path) -> Path:
    """The bundled policy, except that code execution findings deduct at most 0.3,
    so active markup from the web (MG-JS-005) waits for review instead of being
    rejected: the XSS tests need hostile markup stored and shown, to prove the
    pages escape it."""
    text = DEFAULT_POLICY.read_text(encoding="utf-8")
    section = "[categories.code_exec]\nweight = 1.0\n"
    assert section in text, "the bundled policy changed: update this test policy"
    path = data_dir / "policy.toml"
    path.write_text(text.replace(section, section + "max_deduction = 0.3\n"), encoding="utf-8")
    return path


@contextlib.contextmanager
def _serve(data_dir: Path, graph: str | None) -> Iterator[UIServer]:
    """create_app on `data_dir` under uvicorn on a free loopback port, with one key
    per role (and a reviewer scoped to another namespace)."""
    settings = Settings(data_dir=data_dir, graph=graph, policy_path=_review_markup_policy(data_dir))
    keys: dict[str, str] = {}
    ids: dict[str, str] = {}
    with KeyStore(settings.keys_path) as store:
        for name, role in (
            ("admin", "admin"),
            ("reviewer", "reviewer"),
            ("agent", "agent"),
            ("scoped", "reviewer"),
        ):
            scopes = [["elsewhere"]] if name == "scoped" else []
            info, raw = store.create(f"ui-{name}", role, scopes)
            keys[name], ids[name] = raw, info.id
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    config = uvicorn.Config(
        create_app(settings),
        log_level="warning",
        ws="none",
        lifespan="on",
        access_log=False,
        timeout_graceful_shutdown=2,
    )
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not server.started:
        if not thread.is_alive() or time.monotonic() > deadline:
            pytest.fail("the memgate app did not start under uvicorn")
        time.sleep(0.02)
    running = UIServer(base_url=f"http://127.0.0.1:{port}", keys=keys, key_ids=ids)
    try:
        yield running
    finally:
        for client in running.clients.values():
            client.close()
        server.should_exit = True
        thread.join(timeout=20)
        sock.close()


@pytest.fixture(scope="session")
def ui_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UIServer]:
    """The app without a provenance graph (investigations say "graph unavailable")."""
    with _serve(tmp_path_factory.mktemp("ui-data"), None) as running:
        yield running


@pytest.fixture(scope="session")
def ui_graph_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[UIServer]:
    """The app with its embedded FalkorDB graph (falkordblite under the data dir)."""
    with _serve(tmp_path_factory.mktemp("ui-graph-data"), "embedded") as running:
        yield running


# Module scope: Playwright's sync API keeps an event loop running in this thread
# while it is open, and asyncio tests that run after it (in another directory)
# could not start their own loop.
@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        pytest.fail(
            f"no Chromium at {CHROMIUM}: the UI tests need a real browser. Run `make test`"
            " (it apt-installs Debian's chromium) or set MEMGATE_CHROMIUM to a Chromium binary."
        )
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(10_000)
    try:
        yield context.new_page()
    finally:
        context.close()
