"""The HTTP service on the PostgreSQL store (Settings.store / MEMGATE_STORE):
writes, reads, search and verify through the API land in Postgres; the setting
is validated and never shown."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from memgate.cli.main import app as cli
from memgate.cli.options import USAGE_ERROR
from memgate.service.app import create_app
from memgate.service.settings import Settings, SettingsError
from tests.pg_fixtures import PgServer, postgres  # noqa: F401 - the fixture


def test_service_on_postgres(postgres: PgServer, tmp_path: Path) -> None:  # noqa: F811
    url = postgres.fresh_url()
    settings = Settings.from_env({"MEMGATE_STORE": url}, data_dir=tmp_path, graph="none")
    assert settings.store == url
    assert url not in repr(settings)

    async def go() -> None:
        app = create_app(settings)
        async with app.router.lifespan_context(app):
            admin = app.state.memgate.keys.ensure_admin()
            assert admin is not None
            async with httpx.AsyncClient(
                transport=httpx.ASGITransport(app=app),
                base_url="http://memgate.test",
                headers={"Authorization": f"Bearer {admin}"},
            ) as http:
                made = await http.post(
                    "/v1/memories",
                    json={"content": "I prefer metric units.", "namespace": ["acme", "u1"]},
                )
                assert made.status_code == 201, made.text
                memory_id = made.json()["id"]
                got = await http.get(f"/v1/memories/{memory_id}")
                assert got.status_code == 200 and got.json()["content"] == "I prefer metric units."
                found = await http.post("/v1/memories/search", json={"query": "metric"})
                assert [i["id"] for i in found.json()["items"]] == [memory_id]
                verified = await http.get("/v1/log/verify")
                assert verified.status_code == 200 and verified.json()["ok"], verified.text

    asyncio.run(go())
    rows = postgres.execute(url, "SELECT count(*) FROM events")
    assert rows[0][0] >= 1  # the log is in PostgreSQL
    assert not (tmp_path / "db" / "memgate.sqlite3").exists()


@pytest.mark.parametrize("value", ["mysql://db/x", "memgate.sqlite3"])
def test_a_bad_store_setting_names_the_variable(value: str) -> None:
    with pytest.raises(SettingsError, match="MEMGATE_STORE") as caught:
        Settings.from_env({"MEMGATE_STORE": value})
    assert value not in str(caught.value)


def test_sqlite_is_the_default_store() -> None:
    assert Settings.from_env({}).store is None
    assert Settings.from_env({"MEMGATE_STORE": "sqlite"}).store is None


def test_serve_refuses_a_bad_store_option(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        cli, ["serve", "--store", "mysql://user:pw@db/x", "--data-dir", str(tmp_path / "d")]
    )
    assert result.exit_code == USAGE_ERROR, result.output
    assert "MEMGATE_STORE" in result.output
    assert "pw@db" not in result.output
    assert not (tmp_path / "d").exists()  # refused before anything was made
