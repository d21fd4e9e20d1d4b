"""The KeyStore contract on PostgreSQL; and what only a shared key store does:
two stores on one database (two replicas) see each other's keys, a revocation
through one is refused by the other at once (LISTEN/NOTIFY) and, with the
notification missed, after the cache's TTL; keys of a data directory's SQLite
file are imported (and never un-revoked); replicas starting together make one
first admin; the database holds hashes, never a key."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from memgate.service.keys import KeyStoreBase
from memgate.service.keys_postgres import PostgresKeyStore
from memgate.service.keys_sqlite import SqliteKeyStore
from tests.contracts.key_store_contract import KeyStoreContract
from tests.pg_fixtures import PgServer, pg_server, postgres  # noqa: F401 - fixture

pytestmark = pytest.mark.usefixtures("postgres")


class TestPostgresKeyStore(KeyStoreContract):
    def make(self, *, cache_seconds: float = 5.0) -> KeyStoreBase:
        return PostgresKeyStore.open(pg_server().fresh_url(), cache_seconds=cache_seconds)


def _until(check: object, seconds: float) -> float:
    """Seconds until `check()` is true (fails after `seconds`)."""
    start = time.monotonic()
    while time.monotonic() - start < seconds:
        if check():  # type: ignore[operator]
            return time.monotonic() - start
        time.sleep(0.01)
    raise AssertionError(f"not within {seconds} s")


def test_a_revocation_on_one_replica_is_refused_on_the_other_at_once(
    postgres: PgServer,  # noqa: F811 - fixture
) -> None:
    url = postgres.fresh_url()
    with PostgresKeyStore.open(url) as a, PostgresKeyStore.open(url) as b:
        a.create("root", "admin")
        info, raw = a.create("ci", "agent", [("acme",)])
        assert b.authenticate(raw) is not None  # b made it from a's row, and caches it
        a.revoke(info.id)
        took = _until(lambda: b.authenticate(raw) is None, 2.0)
        print(f"revoked on a, refused on b after {took * 1000:.0f} ms")
        # A key made on a is known on b at once too (b cached it as unknown first).
        _, other = a.create("ci2", "agent")
        _until(lambda: b.authenticate(other) is not None, 2.0)
        changed = a.set_sources(a.list()[-1].id, None, user_channel=True)
        assert "user" in [s.value for s in changed.sources]
        _until(lambda: (p := b.authenticate(other)) is not None and "user" in p.sources, 2.0)


def test_a_missed_notification_is_bounded_by_the_cache_ttl(
    postgres: PgServer,  # noqa: F811 - fixture
) -> None:
    url = postgres.fresh_url()
    with PostgresKeyStore.open(url, cache_seconds=0.5) as keys:
        info, raw = keys.create("ci", "agent")
        time.sleep(0.2)  # the create's own NOTIFY comes back and drops the cache first
        assert keys.authenticate(raw) is not None
        # Revoked behind the store's back: no NOTIFY, as if it had been missed.
        postgres.execute(url, "UPDATE api_keys SET revoked_at = now() WHERE id = %s", (info.id,))
        assert keys.authenticate(raw) is not None, "served from the cache until its TTL"
        took = _until(lambda: keys.authenticate(raw) is None, 1.5)
        assert took <= 0.5 + 0.5  # the TTL, plus slack for a loaded machine


def test_keys_of_an_sqlite_file_are_imported_and_never_unrevoked(
    postgres: PgServer,  # noqa: F811 - fixture
    tmp_path: Path,
) -> None:
    url = postgres.fresh_url()
    file = tmp_path / "db" / "keys.sqlite3"
    with SqliteKeyStore(file) as old:
        old.create("root", "admin")
        kept, kept_raw = old.create("ci", "agent", [("acme",)], guard_roles=["coder"])
        gone, gone_raw = old.create("old", "agent")
        old.revoke(gone.id)
    with PostgresKeyStore.open(url, import_from=file) as keys:
        principal = keys.authenticate(kept_raw)
        assert principal is not None
        assert principal.namespaces == (("acme",),) and principal.guard_roles == ("coder",)
        assert keys.authenticate(gone_raw) is None
        assert keys.get(kept.id) == kept
        assert keys.ensure_admin() is None  # the imported admin is the first admin
        keys.revoke(kept.id)
    # Opened again on the same, unchanged file: the revocation made here stands.
    with PostgresKeyStore.open(url, import_from=file) as keys:
        assert keys.authenticate(kept_raw) is None
        assert len(keys.list()) == 3


def test_replicas_starting_together_make_one_first_admin(
    postgres: PgServer,  # noqa: F811 - fixture
) -> None:
    url = postgres.fresh_url()
    stores = [PostgresKeyStore.open(url) for _ in range(4)]
    made: list[str | None] = []
    start = threading.Barrier(len(stores))

    def go(store: PostgresKeyStore) -> None:
        start.wait()
        made.append(store.ensure_admin())

    threads = [threading.Thread(target=go, args=(s,)) for s in stores]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    try:
        assert len([m for m in made if m is not None]) == 1
        assert len(stores[0].list()) == 1
    finally:
        for s in stores:
            s.close()


def test_the_database_holds_hashes_never_a_key(
    postgres: PgServer,  # noqa: F811 - fixture
) -> None:
    url = postgres.fresh_url()
    with PostgresKeyStore.open(url) as keys:
        _, raw = keys.create("ci", "agent")
        rows = postgres.execute(url, "SELECT t::text FROM api_keys t")
    dump = " ".join(str(r[0]) for r in rows)
    assert raw not in dump and raw[8:] not in dump
    assert "ci" in dump
