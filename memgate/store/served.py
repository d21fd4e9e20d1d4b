"""What every store serves, and how `verify` checks it against the log, written
once for every SQL backend (SQLite, PostgreSQL).

Projection rows (a long-term `items` row, a transient `short_items` row) are
stored as the same columns, sealed with the same row MAC; reads are chained the
same way. The checks here work on plain rows handed over by a `ServedSource`
(each backend reads its own tables in one consistent snapshot), so the rules of
what counts as a divergence cannot drift apart between backends.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from memgate.domain.events import MAX_DIVERGENCES, Checkpoint, Divergence, VerifyResult
from memgate.domain.memory import MemoryItem
from memgate.domain.raw import RawItem, encode
from memgate.log.chain import GENESIS, Columns, column_bytes, verify_rows
from memgate.log.integrity import GENESIS_HASH, RowSeal, hash_step
from memgate.log.replay import resolve
from memgate.store.projection import LONG, SHORT, SHORT_GONE, namespace_key, route

log = logging.getLogger("memgate.integrity")

ITEM_COLUMNS = (
    "id",
    "namespace",
    "key",
    "pool",
    "state",
    "source",
    "session_id",
    "created_at",
    "updated_at",
    "expires_at",
    "fingerprint",
    "categories",
    "content",
    "body",
)
"""The stored columns of an items row, in the order the row MAC covers them."""
ITEM_SELECT = ", ".join(ITEM_COLUMNS) + ", event_seq, event_mac, row_mac"
SHORT_COLUMNS = ("id", "expires_at", "body")
SHORT_SELECT = ", ".join(SHORT_COLUMNS) + ", event_seq, event_mac, row_mac"
READ_SELECT = "seq, memory_id, at, session_id, call_id, agent_id, mac"
EVENT_COLUMNS = (
    "seq, entry, prev_mac, mac, at, memory_id, op, actor, reason, state_before, state_after,"
    " summary"
)
"""How the log table is read for the chain: `event_row` turns one into a chain row."""

ChainRow = tuple[int, bytes, str, str, Columns]
"""(seq, entry bytes, prev_mac, mac, columns): what `verify_rows` walks."""


def instant(moment: datetime) -> str:
    """A time as fixed-width UTC text, so that SQL compares and sorts instants:
    `isoformat()` keeps the offset, and 09:00+08:00 would sort after 02:00+00:00."""
    aware = moment if moment.tzinfo is not None else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat(timespec="microseconds")


def _instant_text(text: str) -> str:
    """`instant` of a time as the log's JSON spells it (pydantic: UTC as 'Z')."""
    if len(text) == 27 and text[-1] == "Z" and text[19] == ".":
        return text[:-1] + "+00:00"  # the usual spelling: no parsing needed
    return instant(datetime.fromisoformat(text))


def raw_item_fields(item: RawItem) -> tuple[Any, ...]:
    """`item_fields` of a plain struct (the same values: a test holds them equal)."""
    categories = " " + " ".join(sorted({str(f.get("category")) for f in item.findings})) + " "
    return (
        item.id,
        namespace_key(tuple(item.namespace)),
        item.key,
        item.pool,
        item.state,
        item.source,
        item.session_id,
        _instant_text(item.created_at),
        _instant_text(item.updated_at),
        _instant_text(item.expires_at) if item.expires_at else None,
        item.fingerprint,
        categories,
        item.content,
        encode(item).decode("utf-8", "surrogatepass"),
    )


def item_fields(item: MemoryItem | RawItem) -> tuple[Any, ...]:
    """An items row's stored columns (ITEM_COLUMNS) for `item`."""
    if isinstance(item, RawItem):
        return raw_item_fields(item)
    categories = " " + " ".join(sorted({f.category.value for f in item.findings})) + " "
    return (
        item.id,
        namespace_key(item.namespace),
        item.key,
        item.pool.value,
        item.state.value,
        item.source.value,
        item.session_id,
        instant(item.created_at),
        instant(item.updated_at),
        instant(item.expires_at) if item.expires_at else None,
        item.fingerprint,
        categories,
        item.content,
        item.model_dump_json(),
    )


def short_fields(item: MemoryItem | RawItem) -> tuple[Any, ...]:
    if isinstance(item, RawItem):
        raw_exp = datetime.fromisoformat(item.expires_at) if item.expires_at else None
        body = encode(item).decode("utf-8", "surrogatepass")
        return (item.id, raw_exp.isoformat() if raw_exp else None, body)
    exp = item.expires_at
    return (item.id, exp.isoformat() if exp else None, item.model_dump_json())


def sealed(
    seal: RowSeal, table: str, fields: tuple[Any, ...], seq: int, mac: str
) -> tuple[Any, ...]:
    """A row ready to store: its fields, its event, its MAC."""
    return (*fields, seq, mac, seal.row(table, fields, seq, mac))


def row_ok(seal: RowSeal, table: str, row: Sequence[Any]) -> bool:
    """Whether a row selected with ITEM_SELECT / SHORT_SELECT holds its MAC."""
    *fields, seq, mac, tag = row
    if seq is None or mac is None:
        return False
    return seal.row_ok(table, fields, int(seq), str(mac), tag)


def event_row(row: Sequence[Any]) -> ChainRow:
    """A row read with EVENT_COLUMNS as the chain walks it."""
    seq, entry, prev_mac, stored, *columns = row
    if isinstance(entry, str):
        entry = entry.encode()
    elif not isinstance(entry, bytes):
        entry = bytes(entry)
    return int(seq), entry, prev_mac, stored, tuple(columns)


@dataclass
class Refusals:
    """Rows the store would not serve because their MAC failed (counted, logged)."""

    count: int = 0
    recent: list[str] = field(default_factory=list)

    def note(self, table: str, memory_id: str, why: str = "fails its MAC") -> None:
        self.count += 1
        self.recent = [*self.recent[-19:], memory_id]
        # NOTE: a line per refused row: an operator sees it in the service log,
        # and /metrics counts it; the row id is no secret (content never logged).
        log.error(
            "integrity: %s row %s %s (edited outside memgate?): not served;"
            " run `memgate log verify`",
            table,
            memory_id,
            why,
        )


def served_items(
    seal: RowSeal, refusals: Refusals, rows: Iterable[Sequence[Any]], table: str = "items"
) -> list[MemoryItem]:
    """The rows (read with ITEM_SELECT / SHORT_SELECT plus a trailing "superseded"
    flag) whose MAC holds and that no later event of their memory replaced, as
    items; the others are refused (logged, counted): a forged or put-back row is
    never served, and the rest of the answer still is."""
    items = []
    for row in rows:
        *columns, superseded = row
        if superseded:
            refusals.note(table, str(row[0]), "is older than its memory's last event")
        elif row_ok(seal, table, columns):
            items.append(MemoryItem.model_validate_json(columns[-4]))
        else:
            refusals.note(table, str(row[0]))
    return items


# -- replaying the projection --------------------------------------------------------


@dataclass
class Expected:
    """What the log says the projection tables hold: memory id -> (seq, MAC) of
    the event whose item is the row."""

    long: dict[str, tuple[int, str]] = field(default_factory=dict)
    short: dict[str, tuple[int, str]] = field(default_factory=dict)


def expected_projection(events: Iterable[Sequence[Any]]) -> Expected:
    """Replay the log's items, rows (seq, entry, mac) in seq order, into the two
    tables, by the commit's own rule."""
    out = Expected()
    for seq, entry, mac in events:
        raw = entry if isinstance(entry, bytes) else str(entry).encode()
        reference = b'"restores":{' in raw
        if not reference and b'"item":{' not in raw:
            continue  # a marker: no item (exact: canonical JSON spells an item so)
        try:
            data = json.loads(raw)
        except ValueError:
            continue  # the chain check names an unreadable entry
        if not isinstance(data, dict):
            continue
        # A reference routes by the pool and state it names (its item is that of
        # an earlier event of the same memory, which `_diagnose` resolves).
        ref = data.get("restores")
        item = ref if isinstance(ref, dict) else data.get("item")
        if not isinstance(item, dict):
            continue
        memory_id = str(data.get("memory_id") if isinstance(ref, dict) else item.get("id"))
        where = route(str(item.get("pool")), str(item.get("state")))
        if where == LONG:
            out.long[memory_id] = (int(seq), str(mac))
        elif where == SHORT:
            out.short[memory_id] = (int(seq), str(mac))
        elif where == SHORT_GONE:
            out.short.pop(memory_id, None)
    return out


class ServedSource(Protocol):
    """A backend's tables, read in one snapshot, as `check_served` needs them."""

    def events(self) -> Iterable[Sequence[Any]]:
        """(seq, entry, mac) of every event, in seq order."""
        ...

    def rows(self, table: str, select: str) -> Iterable[Sequence[Any]]:
        """Every row of `table` ("items" or "short_items"), read with `select`."""
        ...

    def entry(self, seq: int) -> bytes | str | None:
        """The stored entry of event `seq`, or None."""
        ...

    def reads(self) -> Iterable[Sequence[Any]]:
        """Every read, READ_SELECT, in seq order."""
        ...

    def reads_head(self) -> Sequence[Any] | None:
        """(seq, mac, tag) of the read chain's head, or None."""
        ...


class _Found:
    def __init__(self) -> None:
        self.count = 0
        self.listed: list[Divergence] = []

    def add(self, table: str, ident: str, kind: str, detail: str) -> None:
        self.count += 1
        if len(self.listed) < MAX_DIVERGENCES:
            self.listed.append(Divergence(table=table, id=ident, kind=kind, detail=detail))


@dataclass(frozen=True)
class ServedCheck:
    rows_checked: int
    reads_checked: int
    divergences: tuple[Divergence, ...]
    count: int


def check_served(source: ServedSource, seal: RowSeal) -> ServedCheck:
    """Every projection row and every read against the log: MACs, each row's
    event is its memory's latest projection, each memory the log projects has its
    row, the read chain and its head."""
    expected = expected_projection(source.events())
    found = _Found()
    rows = 0
    for table, select, want in (
        ("items", ITEM_SELECT, expected.long),
        ("short_items", SHORT_SELECT, expected.short),
    ):
        seen: set[str] = set()
        for row in source.rows(table, select):
            rows += 1
            memory_id = str(row[0])
            seen.add(memory_id)
            _check_row(source, seal, table, row, want.get(memory_id), found)
        for memory_id in sorted(want.keys() - seen):
            seq, _ = want[memory_id]
            found.add(table, memory_id, "missing_row", f"event {seq} projects it; no row")
    reads = _check_reads(source, seal, found)
    return ServedCheck(rows, reads, tuple(found.listed), found.count)


def _check_row(
    source: ServedSource,
    seal: RowSeal,
    table: str,
    row: Sequence[Any],
    latest: tuple[int, str] | None,
    found: _Found,
) -> None:
    memory_id = str(row[0])
    *_, seq, mac, _tag = row
    if not row_ok(seal, table, row):
        found.add(table, memory_id, "row_mac", _diagnose(source, table, row))
        return
    if latest is None:
        found.add(table, memory_id, "orphan_row", f"no live event projects it (row claims {seq})")
    elif int(seq) != latest[0]:
        found.add(
            table,
            memory_id,
            "stale_row",
            f"row is the projection of event {seq}; the latest is event {latest[0]}",
        )
    elif str(mac) != latest[1]:
        found.add(
            table, memory_id, "stale_row", f"row is bound to another event {seq} (log rewritten)"
        )


def _diagnose(source: ServedSource, table: str, row: Sequence[Any]) -> str:
    """Which stored columns differ from what the row's event projects."""
    *fields, seq, _mac, tag = row
    if tag is None or seq is None:
        return "row has no MAC (written outside memgate)"
    entry = source.entry(int(seq))
    if entry is None:
        return f"row MAC fails; its event {seq} does not exist"
    try:
        data = json.loads(entry)
        ref = data.get("restores")
        base = mac = None
        if isinstance(ref, dict):
            found = source.entry(int(ref["seq"]))
            base = found.encode() if isinstance(found, str) else found
            mac = str(ref.get("mac"))  # the chain check covers the MAC it names
        resolved = resolve(data, base, mac)
        if resolved is None:
            raise KeyError("item")
        item = MemoryItem.model_validate(resolved)
    except (ValueError, KeyError, TypeError):
        return f"row MAC fails; event {seq} carries no item"
    names = ITEM_COLUMNS if table == "items" else SHORT_COLUMNS
    want = item_fields(item) if table == "items" else short_fields(item)
    differ = [n for n, a, b in zip(names, want, fields, strict=True) if a != b and n != "body"]
    if not differ and want[-1] != fields[-1]:
        differ = ["body"]
    if differ:
        return f"column {', '.join(differ)} differs from event {seq}"
    return f"row MAC fails (the MAC or event columns were changed; event {seq})"


def _check_reads(source: ServedSource, seal: RowSeal, found: _Found) -> int:
    prev = GENESIS
    last_seq, last_mac = 0, GENESIS
    checked = 0
    for seq, *fields, stored in source.reads():
        checked += 1
        want = seal.read(prev, int(seq), fields)
        if stored is None or want != stored:
            found.add(
                "reads",
                str(seq),
                "read_chain",
                f"read {seq} fails its chain MAC: it was edited or inserted, or a read"
                " before it was deleted",
            )
        prev = stored if stored is not None else want
        last_seq, last_mac = int(seq), prev
    head = source.reads_head()
    if head is None:
        if checked:
            found.add("reads", str(last_seq), "reads_head", "the read chain's head is missing")
        return checked
    seq, mac, tag = head
    if tag != seal.reads_head(int(seq), str(mac)):
        found.add("reads", str(seq), "reads_head", "the read chain's head fails its MAC")
    elif int(seq) != last_seq or mac != last_mac:
        found.add(
            "reads",
            str(seq),
            "reads_head",
            f"reads end at {last_seq} but the chain's head is read {seq}: reads were removed"
            if int(seq) > last_seq
            else f"reads after the chain's head ({seq}) were added outside memgate",
        )
    return checked


# -- the whole verdict -------------------------------------------------------------------


def served_verdict(chain: VerifyResult, served: ServedCheck, signed: bool | None) -> VerifyResult:
    """The chain's result with the served check and a checkpoint signature folded in."""
    ok = chain.ok and served.count == 0 and signed is not False
    reason = chain.reason
    if chain.ok and served.count:
        first = served.divergences[0]
        reason = (
            f"{served.count} divergence(s) between served state and the log; first:"
            f" {first.table} {first.id}: {first.kind} ({first.detail})"
        )
    elif chain.ok and signed is False:
        reason = "the checkpoint's signature does not hold for this store's public key"
    return chain.model_copy(
        update={
            "ok": ok,
            "reason": reason,
            "rows_checked": served.rows_checked,
            "reads_checked": served.reads_checked,
            "divergences": served.divergences,
            "divergence_count": served.count,
            "signature_ok": signed,
        }
    )


def verify_and_hash(
    key: bytes,
    rows: Iterable[ChainRow],
    after: tuple[int, str],
    prev: str,
) -> tuple[VerifyResult, int, str, str]:
    """Verify chain rows after `after` = (seq, public hash) of an earlier export
    (chained to `prev`, the MAC at that seq) and extend the public hash chain over
    them in one pass. Returns (result, seq, MAC, hash) at the last row."""
    head = _Head(after[0], prev, after[1])

    def walk() -> Iterable[ChainRow]:
        # Hashed as it is walked (a failed verify discards the hash): one pass, flat memory.
        for row in rows:
            number, entry, _prev, stored, columns = row
            head.digest = hash_step(head.digest, number, entry, column_bytes(columns), stored)
            head.seq, head.mac = number, stored
            yield row

    result = verify_rows(key, walk(), None, start_seq=after[0] + 1, start_prev=prev)
    return result, head.seq, head.mac, head.digest


@dataclass
class _Head:
    seq: int
    mac: str
    digest: str


def empty_checkpoint(at: datetime) -> Checkpoint:
    return Checkpoint(seq=0, head_mac=GENESIS, count=0, at=at, head_hash=GENESIS_HASH)
