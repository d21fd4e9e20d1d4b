"""The review UI's sessions kept in a key store (memgate.service.ui.sessions):
what a request reads back is what was stored (hypothesis round trip of the
persisted body), notices survive to the next request (another replica's),
idle and lifetime expiry on a shared wall clock, sign-out and revocation end a
session everywhere, and a stored row never holds the cookie token."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from memgate.domain import Source
from memgate.service.keys import Principal, Role
from memgate.service.keys_memory import MemoryKeyStore
from memgate.service.keys_sqlite import SqliteKeyStore
from memgate.service.ui.sessions import IDLE_SECONDS, LIFETIME_SECONDS, SessionStore

labels = st.text(st.characters(blacklist_characters="/\n", blacklist_categories=["Cs"]),
                 min_size=1, max_size=12)  # fmt: skip


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@settings(max_examples=60, deadline=None)
@given(
    name=st.text(min_size=1, max_size=40),
    role=st.sampled_from([Role.REVIEWER, Role.ADMIN]),
    scopes=st.lists(st.lists(labels, min_size=1, max_size=3).map(tuple), max_size=3),
    sources=st.frozensets(st.sampled_from(list(Source))),
    guard_roles=st.lists(st.from_regex(r"[a-z][a-z0-9_.:-]{0,10}", fullmatch=True), max_size=3),
    notices=st.lists(st.tuples(st.sampled_from(["ok", "error"]), st.text(max_size=60)), max_size=3),
)
def test_a_stored_session_reads_back_as_it_was(
    name: str,
    role: Role,
    scopes: list[tuple[str, ...]],
    sources: frozenset[Source],
    guard_roles: list[str],
    notices: list[tuple[str, str]],
) -> None:
    principal = Principal("k_1", name, role, tuple(scopes), sources, tuple(guard_roles))
    keys = MemoryKeyStore()
    here, there = SessionStore(keys), SessionStore(keys)  # two replicas, one store
    token, session = here.create(principal)
    for kind, text in notices:
        session.notice(kind, text)
    got = there.get(token)
    assert got is not None
    assert got.principal == principal
    assert got.csrf == session.csrf
    assert got.take_notices() == notices
    again = here.get(token)
    assert again is not None and again.notices == []  # shown once, on whichever replica


def test_expiry_sign_out_and_revocation_end_a_session_everywhere() -> None:
    clock = Clock()
    keys = SqliteKeyStore(Path(tempfile.mkdtemp(prefix="mg-sessions-")) / "keys.sqlite3")
    keys.create("root", "admin")
    info, _ = keys.create("rev", "reviewer")
    principal = info.principal()
    a, b = SessionStore(keys, clock=clock), SessionStore(keys, clock=clock)
    token, _ = a.create(principal)
    clock.now += IDLE_SECONDS - 60
    assert b.get(token) is not None  # seen now: the idle time starts again
    clock.now += IDLE_SECONDS - 60
    assert a.get(token) is not None
    clock.now += IDLE_SECONDS + 1
    assert b.get(token) is None  # idle too long
    token, _ = a.create(principal)
    for _ in range(int(LIFETIME_SECONDS // (IDLE_SECONDS - 60)) + 1):
        clock.now += IDLE_SECONDS - 60
        b.get(token)
    assert a.get(token) is None  # past its lifetime, however busy
    token, _ = a.create(principal)
    b.end(token)
    assert a.get(token) is None
    token, _ = a.create(principal)
    keys.revoke(info.id)
    assert b.get(token) is None
    data = b"".join(p.read_bytes() for p in keys.path.parent.iterdir())
    assert token.encode() not in data
    keys.close()
