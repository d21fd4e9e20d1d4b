"""The KeyStore port's contract: keys, their roles and scopes, revocation, the
authentication cache, the first admin, and the review UI's sessions.

A backend's test module subclasses `KeyStoreContract` and supplies `make`: a
fresh, empty key store whose authentication cache lasts `cache_seconds`.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from datetime import UTC, datetime

import pytest

from memgate.domain import Source
from memgate.errors import NotFound
from memgate.service.keys import KEY_PREFIX, KeyConflict, KeyStoreBase, Role


class KeyStoreContract(ABC):
    """What every key store must do. Not collected itself (no `Test` prefix)."""

    @abstractmethod
    def make(self, *, cache_seconds: float = 5.0) -> KeyStoreBase:
        """A fresh key store with no key in it."""

    def test_a_created_key_authenticates_as_its_principal(self) -> None:
        with self.make() as keys:
            info, raw = keys.create("ci", "agent", [("acme", "u1"), ("acme", "u2")])
            assert raw.startswith(KEY_PREFIX)
            assert len(raw) > 40
            assert info.hint == raw[: len(KEY_PREFIX) + 4]
            assert raw not in info.model_dump_json()
            principal = keys.authenticate(raw)
            assert principal is not None
            assert principal.key_id == info.id
            assert principal.role is Role.AGENT
            assert principal.namespaces == (("acme", "u1"), ("acme", "u2"))
            assert Source.USER not in principal.sources
            assert Source.AGENT in principal.sources
            assert keys.get(info.id) == info

    def test_unknown_and_malformed_keys_are_refused(self) -> None:
        with self.make() as keys:
            _, raw = keys.create("ci", "agent")
            assert keys.authenticate(raw[:-1] + ("A" if raw[-1] != "A" else "B")) is None
            assert keys.authenticate(None) is None
            assert keys.authenticate("") is None
            assert keys.authenticate("not-a-key") is None
            assert keys.authenticate(KEY_PREFIX + "x" * 300) is None

    def test_bad_input_names_what_is_wrong(self) -> None:
        with self.make() as keys:
            with pytest.raises(ValueError, match="name"):
                keys.create("  ", "agent")
            with pytest.raises(ValueError, match="role"):
                keys.create("x", "root")
            with pytest.raises(ValueError, match="admin keys are not scoped"):
                keys.create("x", "admin", [("acme",)])
            with pytest.raises(ValueError, match="sources"):
                keys.create("x", "agent", sources=["nobody"])
            with pytest.raises(ValueError, match="reviewer"):
                keys.create("x", "reviewer", sources=["agent"])
            with pytest.raises(ValueError, match="guard roles"):
                keys.create("x", "agent", guard_roles=["no spaces"])
            assert keys.list() == []

    def test_a_revoked_key_is_refused_at_once_and_stays_listed(self) -> None:
        with self.make() as keys:
            keys.create("root", "admin")
            info, raw = keys.create("ci", "agent")
            assert keys.authenticate(raw) is not None  # now cached
            revoked = keys.revoke(info.id)
            assert revoked.revoked_at is not None
            assert keys.authenticate(raw) is None
            assert [k.id for k in keys.list(include_revoked=False)] != [] and info.id not in [
                k.id for k in keys.list(include_revoked=False)
            ]
            assert info.id in [k.id for k in keys.list()]
            again = keys.revoke(info.id)  # revoking twice keeps the first time
            assert again.revoked_at == revoked.revoked_at
            with pytest.raises(NotFound):
                keys.revoke("k_missing")

    def test_the_last_active_admin_is_never_revoked(self) -> None:
        with self.make() as keys:
            first, _ = keys.create("root", "admin")
            with pytest.raises(KeyConflict):
                keys.revoke(first.id)
            second, raw = keys.create("root2", "admin")
            keys.revoke(first.id)
            with pytest.raises(KeyConflict):
                keys.revoke(second.id)
            assert keys.authenticate(raw) is not None

    def test_sources_and_guard_roles_change_in_place_at_once(self) -> None:
        with self.make() as keys:
            info, raw = keys.create("chat", "agent")
            before = keys.authenticate(raw)
            assert before is not None and not before.may_declare(Source.USER)
            changed = keys.set_sources(info.id, None, user_channel=True)
            assert Source.USER in changed.sources
            after = keys.authenticate(raw)
            assert after is not None and after.may_declare(Source.USER)
            keys.set_guard_roles(info.id, ["coder", "reader"])
            principal = keys.authenticate(raw)
            assert principal is not None and principal.guard_roles == ("coder", "reader")
            assert keys.set_guard_roles(info.id, None).guard_roles == ()
            with pytest.raises(NotFound):
                keys.set_sources("k_missing", None)
            with pytest.raises(NotFound):
                keys.set_guard_roles("k_missing", ["x"])
            with pytest.raises(ValueError, match="sources"):
                keys.set_sources(info.id, ["nobody"])

    def test_keys_are_listed_oldest_first(self) -> None:
        with self.make() as keys:
            made = [keys.create(f"k{i}", "agent")[0].id for i in range(4)]
            assert [k.id for k in keys.list()] == made
            assert keys.get("k_missing") is None

    def test_the_first_admin_is_made_once(self) -> None:
        with self.make() as keys:
            raw = keys.ensure_admin()
            assert raw is not None
            principal = keys.authenticate(raw)
            assert principal is not None and principal.role is Role.ADMIN
            assert keys.ensure_admin() is None
            assert len(keys.list()) == 1

    def test_no_first_admin_where_keys_exist(self) -> None:
        with self.make() as keys:
            keys.create("ci", "agent")
            assert keys.ensure_admin() is None

    def test_the_cache_lasts_its_ttl_for_unknown_keys_then_asks_again(self) -> None:
        with self.make(cache_seconds=0.3) as keys:
            _, raw = keys.create("ci", "agent")
            assert keys.authenticate(raw) is not None
            time.sleep(0.35)
            assert keys.authenticate(raw) is not None  # expired entry read again

    def test_sessions_are_stored_read_ended_and_pruned(self) -> None:
        with self.make() as keys:
            info, _ = keys.create("rev", "reviewer")
            now = datetime.now(UTC).timestamp()
            keys.put_session("d1", info.id, ('{"a": 1}', now - 100, now - 10))
            keys.put_session("d2", info.id, ("{}", now - 5000, now - 1))
            keys.put_session("d3", info.id, ("{}", now - 50, now - 4000))
            assert keys.get_session("d1") == ('{"a": 1}', now - 100, now - 10)
            keys.put_session("d1", info.id, ('{"a": 2}', now - 100, now))  # written back
            assert keys.get_session("d1") == ('{"a": 2}', now - 100, now)
            assert keys.prune_sessions(now - 1800, now - 3600) == 2  # d3 idle, d2 too old
            assert keys.get_session("d2") is None and keys.get_session("d3") is None
            keys.end_session("d1")
            assert keys.get_session("d1") is None
            keys.end_session("d1")  # ending twice is fine
            assert keys.get_session("missing") is None

    def test_revoking_a_key_ends_its_sessions_only(self) -> None:
        with self.make() as keys:
            keys.create("root", "admin")
            a, _ = keys.create("rev-a", "reviewer")
            b, _ = keys.create("rev-b", "reviewer")
            now = time.time()
            keys.put_session("sa", a.id, ("{}", now, now))
            keys.put_session("sb", b.id, ("{}", now, now))
            keys.revoke(a.id)
            assert keys.get_session("sa") is None
            assert keys.get_session("sb") is not None

    def test_is_cached_says_whether_authenticate_would_touch_storage(self) -> None:
        with self.make(cache_seconds=0.3) as keys:
            _, raw = keys.create("ci", "agent")
            time.sleep(0.1)  # a shared store's own change notice comes back first
            assert not keys.is_cached(raw)
            keys.authenticate(raw)
            assert keys.is_cached(raw)
            assert keys.is_cached("not-a-key")  # refused without a look-up
            time.sleep(0.35)
            assert not keys.is_cached(raw)
