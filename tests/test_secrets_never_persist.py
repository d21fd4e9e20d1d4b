"""Secret and personal values never reach the disk (DESIGN.md: "Secret values
never reach SQLite, the log, ...").

Every `secret` and `pii` item of the dev corpus is written through a SQLite
gateway (long-term and short-term), some are approved, edited, rejected and
promoted; then the raw bytes of every file in the data directory (database,
WAL, shared memory, keys) are searched for the sensitive values, while the
gateway is open (the WAL holds the fresh commits) and after it closed.

The values are derived independently of the scanner: every token of the text
that looks like a credential or a number (letters and digits, length >= 8; or
>= 10 digits once spaces and dashes are dropped), minus the tokens the gateway
returned verbatim in the stored content (those it judged not sensitive). On top
of that, every region the inspector itself marked as a secret or personal datum
(`original[finding.span]`) must be absent too.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
import sqlite3
import string
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from memgate.bootstrap import open_gateway
from memgate.domain import Source
from memgate.domain.memory import MemoryItem, MemoryState, MemoryWrite, Target
from memgate.errors import WriteRefused
from memgate.scanning.examples import expand

CORPUS = Path(__file__).parents[2] / "shared" / "corpus" / "dev.jsonl"
MARKER = "grepmarker-benign-7f3a9c1e"
"""Written (not sensitive, so stored verbatim) last: proves the search sees the WAL."""
REVIEWER = "reviewer-1"
COARSE = re.compile(r"""[\s"'`=:]+""")
FINE = re.compile(r"""[\s"'`=:,;()\[\]{}<>@/?&|\\*]+""")
NUMBER = re.compile(r"\+?\(?\d[\d ()\-]{7,}\d")


@dataclass
class Case:
    id: str
    text: str
    source: Source
    stored: list[str] = field(default_factory=list)
    """Every content the gateway stored for this text (redacted)."""
    regions: set[str] = field(default_factory=set)
    """What the inspector marked as secret/pii: `text[span]` of each finding."""


def _fake_cases() -> list[Case]:
    """Used only without the shared corpus: generated credentials and personal data."""
    rng = random.Random(20240611)
    alnum = string.ascii_letters + string.digits

    def rand(n: int, alphabet: str = alnum) -> str:
        return "".join(rng.choice(alphabet) for _ in range(n))

    texts = [
        f"token for the deploy bot: ghp_{rand(36)}",
        f"aws_access_key_id = AKIA{rand(16, string.ascii_uppercase + string.digits)}\n"
        f"aws_secret_access_key = {rand(40)}",
        f'client = OpenAI(api_key="sk-proj-{rand(48)}")',
        f"DATABASE_URL=postgresql://app:{rand(20)}@db.example.net:5432/app",
        f"Call Dana at 617-555-{rand(4, string.digits)} or dana.w@example.com.",
        f"card={_luhn('4539' + rand(11, string.digits))} exp=08/27 status=declined",
    ]
    return [Case(f"fake{i}", t, Source.TOOL) for i, t in enumerate(texts)]


def _luhn(body: str) -> str:
    """`body` plus the check digit that makes it Luhn-valid (a card number's shape)."""
    total = 0
    for i, ch in enumerate(reversed(body)):
        d = int(ch)
        if i % 2 == 0:
            d = d * 2 - 9 if d > 4 else d * 2
        total += d
    return body + str((10 - total % 10) % 10)


def load_cases() -> list[Case]:
    if not CORPUS.is_file():
        return _fake_cases()
    cases = []
    for line in CORPUS.read_text(encoding="utf-8").split("\n"):
        if not line.strip():
            continue
        row = json.loads(line)
        if row["label"] in ("secret", "pii"):
            cases.append(Case(row["id"], row["text"], Source(row["source"])))
    return cases


def _looks_sensitive(token: str) -> bool:
    letters = any(c.isalpha() for c in token)
    digits = any(c.isdigit() for c in token)
    return len(token) >= 8 and letters and digits


def candidates(text: str) -> set[str]:
    """Credential- and number-shaped tokens of `text`, found without the scanner."""
    found: set[str] = set()
    for pattern in (COARSE, FINE):
        for token in pattern.split(text):
            token = token.strip(".,;!?()[]{}<>")
            if _looks_sensitive(token):
                found.add(token)
            digits = re.sub(r"[\s\-]", "", token)
            if len(digits) >= 10 and digits.isdigit():
                found.add(digits)
    for match in NUMBER.finditer(text):
        digits = re.sub(r"\D", "", match.group())
        if len(digits) >= 10:
            found.add(digits)
            found.add(match.group().strip())
    return found


def forms(value: str) -> set[bytes]:
    """The byte strings a stored value could appear as: UTF-8, and JSON-escaped."""
    return {value.encode("utf-8"), json.dumps(value, ensure_ascii=False)[1:-1].encode("utf-8")}


def snapshot(data_dir: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(data_dir)): p.read_bytes() for p in data_dir.rglob("*") if p.is_file()
    }


def logical_dump(db: Path) -> bytes:
    """Every cell of every table, as bytes. Catches a value that the raw search
    could miss because SQLite split it across two overflow pages."""
    parts: list[bytes] = []
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        tables = [r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='table'")]
        for table in tables:
            quoted = table.replace('"', '""')
            for row in con.execute(f'SELECT * FROM "{quoted}"'):  # noqa: S608 - names from sqlite_master
                for cell in row:
                    if isinstance(cell, bytes):
                        parts.append(cell)
                    elif cell is not None:
                        parts.append(str(cell).encode("utf-8", "surrogatepass"))
    finally:
        con.close()
    return b"\n".join(parts)


def _first_item(history_items: list[MemoryItem | None]) -> MemoryItem:
    item = next((i for i in history_items if i is not None), None)
    assert item is not None
    return item


async def _exercise(data_dir: Path, cases: list[Case]) -> tuple[dict[str, bytes], dict[str, bytes]]:
    gateway = await open_gateway(data_dir, graph=None)
    try:
        for n, case in enumerate(cases):
            for target in (Target.LONG, Target.SHORT):
                receipt = await gateway.write(
                    MemoryWrite(
                        content=case.text,
                        namespace=("corpus", case.id),
                        source=case.source,
                        session_id=f"session-{case.id}",
                        call_id=f"call-{n}",
                        target=target,
                    )
                )
                history = await gateway.history(receipt.id)
                item = _first_item([r.event.item for r in history])
                case.stored.append(item.content)
                case.regions.update(
                    case.text[f.span[0] : f.span[1]] for f in item.findings if f.category.sensitive
                )
                if receipt.state is MemoryState.TRANSIENT and n % 4 == 0:
                    promoted = await gateway.promote(receipt.id, by="operator")
                    (first, *_) = await gateway.history(promoted.id)
                    assert first.event.item is not None
                    case.stored.append(first.event.item.content)
                if receipt.state is not MemoryState.PENDING_REVIEW:
                    continue
                if n % 5 == 0:
                    edited = case.text + "\n(checked by the reviewer)"
                    done = await gateway.edit_and_approve(
                        receipt.id, reviewer=REVIEWER, new_content=edited
                    )
                    case.stored.append(done.content)
                    case.regions.update(
                        edited[f.span[0] : f.span[1]] for f in done.findings if f.category.sensitive
                    )
                elif n % 3 == 0:
                    await gateway.approve(receipt.id, reviewer=REVIEWER)
                elif n % 3 == 1:
                    await gateway.reject(
                        receipt.id, reviewer=REVIEWER, reason="contains credentials"
                    )
            # Reads are recorded too: serve each case once.
            await gateway.search(("corpus", case.id), limit=5)
        await gateway.write(
            MemoryWrite(
                content=f"The release checklist is pinned in the wiki ({MARKER}).",
                namespace=("corpus", "marker"),
                source=Source.USER,
                target=Target.LONG,
            )
        )
        await gateway.flush()
        while_open = snapshot(data_dir)
    finally:
        await gateway.close()
    return while_open, snapshot(data_dir)


@pytest.fixture(scope="module")
def persisted(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[list[Case], dict[str, bytes], dict[str, bytes], bytes]:
    data_dir = tmp_path_factory.mktemp("secrets-never-persist")
    cases = load_cases()
    while_open, after_close = asyncio.run(_exercise(data_dir, cases))
    dump = logical_dump(data_dir / "db" / "memgate.sqlite3")
    return cases, while_open, after_close, dump


def _hits(value: str, blobs: dict[str, bytes]) -> list[str]:
    return sorted({name for name, blob in blobs.items() for form in forms(value) if form in blob})


def test_the_search_sees_stored_text_in_the_wal_and_the_database(
    persisted: tuple[list[Case], dict[str, bytes], dict[str, bytes], bytes],
) -> None:
    """The check below can fail: the same search finds text that *is* stored."""
    cases, while_open, after_close, dump = persisted
    wal = "db/memgate.sqlite3-wal"
    assert wal in while_open, f"no WAL file while open: {sorted(while_open)}"
    assert MARKER.encode() in while_open[wal]
    assert MARKER.encode() in after_close["db/memgate.sqlite3"]
    assert MARKER.encode() in dump
    assert b"[REDACTED:" in after_close["db/memgate.sqlite3"]
    assert len(cases) >= 6


def test_sensitive_values_are_in_no_file(
    persisted: tuple[list[Case], dict[str, bytes], dict[str, bytes], bytes],
) -> None:
    cases, while_open, after_close, dump = persisted
    stored_anywhere = "\n".join(c for case in cases for c in case.stored)
    leaks: list[str] = []
    checked = 0
    for case in cases:
        values = {v for v in candidates(case.text) if v not in stored_anywhere}
        values |= case.regions
        for value in sorted(values):
            checked += 1
            where = _hits(value, while_open) + _hits(value, after_close)
            if value.encode("utf-8") in dump:
                where.append("(a table cell)")
            if where:
                # Name the case and the place, never the value.
                leaks.append(f"{case.id}: a {len(value)}-char value in {sorted(set(where))}")
    assert checked >= len(cases), "too few values derived: the check would be vacuous"
    assert not leaks, "sensitive values on disk:\n" + "\n".join(leaks)


def test_every_case_had_something_redacted(
    persisted: tuple[list[Case], dict[str, bytes], dict[str, bytes], bytes],
) -> None:
    cases, *_ = persisted
    missed = [case.id for case in cases if not case.regions]
    assert not missed, f"no secret/pii finding for {missed}"


def test_secrets_in_metadata_are_redacted_and_in_keys_refused(tmp_path: Path) -> None:
    secret = expand("ghp_{{gen:alnum:36}}", "metadata-secret")

    async def main() -> None:
        gateway = await open_gateway(tmp_path, graph=None)
        try:
            with pytest.raises(WriteRefused, match="key contains sensitive data"):
                await gateway.write(
                    MemoryWrite(
                        content="Deploy notes for the release train.",
                        namespace=("corpus", "meta"),
                        key=f"deploy-{secret}",
                        source=Source.USER,
                    )
                )
            receipt = await gateway.write(
                MemoryWrite(
                    content="Deploy notes for the release train.",
                    namespace=("corpus", "meta"),
                    metadata={"token": secret, "nested": [{"note": f"use {secret}"}], "n": 3},
                    source=Source.USER,
                    target=Target.LONG,
                )
            )
            item = await gateway.get_any(receipt.id)
            assert item is not None
            assert item.metadata["n"] == 3
            assert item.metadata["token"].startswith("[REDACTED:MG-SEC-")
            assert "[REDACTED:MG-SEC-" in item.metadata["nested"][0]["note"]
            await gateway.flush()
            assert not _hits(secret, snapshot(tmp_path))
        finally:
            await gateway.close()

    asyncio.run(main())
    assert not _hits(secret, snapshot(tmp_path))
