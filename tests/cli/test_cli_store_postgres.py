"""`--store postgresql://...` on the CLI commands that used to open only the data
directory's SQLite database: `memgate search`, `memgate log verify` (full and
`--since`), `memgate notify status` / `drain`; against real PostgreSQL, from a
data directory that holds nothing but the keys (as an operator's host would)."""

from __future__ import annotations

import asyncio
import json
import secrets
from pathlib import Path
from typing import Any

import psycopg
from typer.testing import CliRunner, Result

from memgate.bootstrap import open_outbox
from memgate.cli.main import app
from memgate.domain.memory import utcnow
from memgate.domain.notices import Notice, NoticeKind
from memgate.store.postgres import PostgresStore
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - fixture

LOG_KEY = secrets.token_hex(32)
BASE = {
    "MEMGATE_GRAPH": "none",
    "MEMGATE_FALKORDB_URL": "",
    "MEMGATE_URL": "",
    "MEMGATE_KEY": "",
    "MEMGATE_LOG_KEY": LOG_KEY,
    "MEMGATE_FINGERPRINT_KEY": secrets.token_hex(32),
    "COLUMNS": "200",
}


def run(data: Path, *args: str, **env: str) -> Result:
    return CliRunner().invoke(app, [*args, "--data-dir", str(data)], env={**BASE, **env})


def ok_json(result: Result) -> Any:
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_search_verify_and_notify_take_a_postgresql_store(
    postgres: PgServer,  # noqa: F811 - fixture
    tmp_path: Path,
) -> None:
    url = postgres.fresh_url()
    writer, operator = tmp_path / "replica", tmp_path / "ops"
    for text in ("I prefer metric units.", "I work in Lyon."):
        made = run(
            writer, "write", text, "--namespace", "acme/u1", "--source", "user", "--json",
            MEMGATE_STORE=url,
        )  # fmt: skip
        assert made.exit_code == 0, made.output

    # search: the shared store's memories; the operator's own SQLite has none.
    query = ("search", "metric", "--namespace", "acme", "--json")
    found = ok_json(run(operator, *query, "--store", url))
    assert [i["content"] for i in found] == ["I prefer metric units."]
    assert ok_json(run(operator, *query)) == []

    # log verify: the whole store, then incremental from a checkpoint.
    full = ok_json(run(operator, "log", "verify", "--store", url, "--json"))
    assert full["ok"] and full["checked"] >= 2
    point = asyncio.run(_checkpoint(url))
    saved = tmp_path / "verified.json"
    saved.write_text(point.model_dump_json())
    made = run(
        writer, "write", "I like green tea.", "--namespace", "acme/u1", "--source", "user",
        MEMGATE_STORE=url,
    )  # fmt: skip
    assert made.exit_code == 0, made.output
    since = ok_json(run(operator, "log", "verify", "--store", url, "--since", str(saved), "--json"))
    assert since["ok"] and since["checked"] >= 1 and "incremental" in since["scope"]
    assert since["last_seq"] > point.seq
    with psycopg.connect(url, autocommit=True) as conn, conn.transaction():
        conn.execute("SET LOCAL session_replication_role = replica")
        conn.execute("UPDATE events SET actor = 'mallory' WHERE seq = %s", (point.seq + 1,))
    bad = run(operator, "log", "verify", "--store", url, "--since", str(saved), "--json")
    assert bad.exit_code == 1, bad.output
    assert json.loads(bad.stdout)["first_bad_seq"] == point.seq + 1
    wrong = run(operator, "log", "verify", "--store", "mysql://x", "--json")
    assert wrong.exit_code == 3

    # notify: the outbox the replicas share.
    asyncio.run(_enqueue(writer, url))
    status = ok_json(run(operator, "notify", "status", "--store", url, "--json"))
    assert status["pending"] == 1
    # without --store: the operator's own SQLite outbox (made by the search above)
    assert ok_json(run(operator, "notify", "status", "--json"))["pending"] == 0
    drained = run(
        operator, "notify", "drain", "--store", url, "--to", "json:http://127.0.0.1:9/", "--json"
    )
    assert drained.exit_code == 1, drained.output  # one attempt, refused: still waiting
    report = json.loads(drained.stdout)
    assert report["failed"] == 1 and report["status"]["pending"] == 1, report


async def _checkpoint(url: str) -> Any:
    store = await PostgresStore.open(url, LOG_KEY.encode())
    try:
        return await store.checkpoint()
    finally:
        await store.close()


async def _enqueue(data: Path, url: str) -> None:
    outbox = open_outbox(data, url)
    try:
        notice = Notice(id="test-cli-store", kind=NoticeKind.TEST, at=utcnow(), reason="cli")
        assert await outbox.enqueue(notice)
    finally:
        await outbox.close()
