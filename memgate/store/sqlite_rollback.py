"""A rollback's compensating events sealed straight into SQLite rows.

`SqliteStore.append` takes events as models and seals each through the generic
path (`Chain.seal`, `projected`, `item_fields`, `sealed`): for a rollback of 43k
memories that meant three models per change (event, reference, record) and a
dozen generic calls, most of the apply's Python time. Here one loop over the
plan writes each change's log row and projection row directly: the entry text
is spelled once (the parts every event of the rollback shares computed once),
the MAC input is joined as text and encoded once, the row is built from the
plain struct. The bytes are exactly those of the generic path
(tests/test_rollback_apply.py compares the two databases table by table)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from pydantic import TypeAdapter

from memgate.domain.events import Op, instant_text
from memgate.domain.raw import encode
from memgate.domain.rollback import Compensation
from memgate.log.integrity import RowSeal
from memgate.store.projection import LONG, SHORT, SHORT_GONE, route
from memgate.store.served import _instant_text, short_fields

__all__ = ["Sealed", "seal_compensation"]

_dumps = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode
"""`canonical_json`'s encoder (the log's entries are spelled by it)."""
_OP = Op.ROLLED_BACK.value
_TIME = TypeAdapter(datetime)


@dataclass(slots=True)
class Sealed:
    """The rows of one rollback, ready for `executemany`, and the chain after it.
    Each memory appears once (a plan has one change per memory)."""

    last_seq: int
    head: str
    events: list[tuple[Any, ...]] = field(default_factory=list)
    items: list[tuple[Any, ...]] = field(default_factory=list)
    """Sealed items rows set whole (the upsert's parameters)."""
    narrow: list[tuple[Any, ...]] = field(default_factory=list)
    """`_NARROW_ITEM`'s parameters, for rows whose item changes only in state,
    version and `updated_at`."""
    narrow_rows: list[tuple[Any, ...]] = field(default_factory=list)
    """The same rows sealed whole, should the narrow update find another row."""
    short: list[tuple[Any, ...]] = field(default_factory=list)
    short_gone: list[tuple[str]] = field(default_factory=list)


class _Mac:
    """HMAC-SHA256 under one key (RFC 2104) with the key's two blocks hashed once:
    each message then costs two copies of a hash state. OpenSSL 3's one-shot HMAC
    sets the key up on every call: 18.7 us per 1.4 KB message, 9.4 us so, on the
    loaded machine (the same bytes: tests/test_rollback_apply.py)."""

    __slots__ = ("inner", "outer")

    def __init__(self, key: bytes) -> None:
        if len(key) > 64:
            key = hashlib.sha256(key).digest()
        block = key.ljust(64, b"\0")
        self.inner = hashlib.sha256(bytes(b ^ 0x36 for b in block)).copy
        self.outer = hashlib.sha256(bytes(b ^ 0x5C for b in block)).copy

    def hex(self, message: bytes) -> str:
        h = self.inner()
        h.update(message)
        o = self.outer()
        o.update(h.digest())
        return o.hexdigest()


def _column(value: str | None) -> str:
    """One value of `memgate.log.chain.column_bytes` (and of the row MAC's
    `memgate.log.integrity.encode`), as text."""
    return "-" if value is None else f"{len(value)}:{value}"


def seal_compensation(
    key: bytes, seal: RowSeal, last_seq: int, head: str, batch: Compensation
) -> Sealed:
    """Number and MAC every compensating event of `batch` after (`last_seq`,
    `head`), with its projection row; the marker is left to the caller (a plain
    event, sealed the generic way after these)."""
    out = Sealed(last_seq, head)
    actor, reason = batch.actor, batch.reason
    at_text = instant_text(batch.at)
    # The entry (`memgate.log.chain._reference_entry`) and the column bytes
    # (`column_bytes(event_columns(event))`) around the per-change values.
    at_json = _dumps(_TIME.dump_python(batch.at, mode="json"))
    entry_start = f'{{"actor":{_dumps(actor)},"at":{at_json},"detail":null,'
    entry_middle = f',"op":{_dumps(_OP)},"reason":{_dumps(reason)},"restores":{{"mac":'
    cols_start = _column(at_text) + "|"
    cols_middle = f"|{_column(_OP)}|{_column(actor)}|{_column(reason)}|"
    summary = "{}"
    summary_column = _column(summary)
    namespaces: dict[tuple[str, ...], str] = {}
    """Each namespace's column text, joined once (a store has few namespaces)."""
    events, items, short, gone = out.events, out.items, out.short, out.short_gone
    narrow, narrow_rows = out.narrow, out.narrow_rows
    event_mac = _Mac(key).hex
    # NOTE: the row key is RowSeal's own (its `row` is the generic path's MAC).
    row_mac = _Mac(seal._rows).hex
    short_mac = seal.row
    stamp, stamp_text = "", ""
    seq = last_seq
    for p in batch.planned:
        item = p.item
        memory_id = item.id
        state, before, pool = item.state, p.change.state_before.value, item.pool
        origin = p.origin
        seq += 1
        entry = (
            f'{entry_start}"memory_id":{_dumps(memory_id)}{entry_middle}"{origin.mac}",'
            f'"pool":"{pool}","seq":{origin.seq:d},"state":"{state}","version":{item.version:d}}},'
            f'"state_after":"{state}","state_before":"{before}"}}'
        )
        # `_column` inlined: the memory id and both states are never None here.
        columns = (
            f"{cols_start}{len(memory_id)}:{memory_id}{cols_middle}{len(before)}:{before}|"
            f"{len(state)}:{state}|{summary_column}"
        )
        tag = event_mac(f"{head}|{seq:d}|{entry}|{columns}".encode("utf-8", "surrogatepass"))
        events.append(
            (
                seq,
                at_text,
                memory_id,
                _OP,
                actor,
                reason,
                before,
                state,
                summary,
                entry.encode("utf-8", "surrogatepass"),
                head,
                tag,
            )
        )
        head = tag
        where = route(pool, state)
        if where == LONG:
            # `raw_item_fields` and `RowSeal.row` spelled out (one f-string for
            # the MAC input instead of a generic pass over 17 values).
            labels = tuple(item.namespace)
            namespace = namespaces.get(labels)
            if namespace is None:
                namespace = namespaces[labels] = "".join([f"{label}/" for label in labels])
            findings = item.findings
            categories = (
                " " + " ".join(sorted({str(f.get("category")) for f in findings})) + " "
                if findings
                else "  "
            )
            if item.updated_at != stamp:
                stamp, stamp_text = item.updated_at, _instant_text(item.updated_at)
            created = _instant_text(item.created_at)
            expires = _instant_text(item.expires_at) if item.expires_at else None
            body = encode(item).decode("utf-8", "surrogatepass")
            key_, session, source = item.key, item.session_id, item.source
            fingerprint, content = item.fingerprint, item.content
            text = (
                f"5:items|{len(memory_id)}:{memory_id}|{len(namespace)}:{namespace}|"
                f"{_column(key_)}|{len(pool)}:{pool}|{len(state)}:{state}|"
                f"{len(source)}:{source}|{_column(session)}|{len(created)}:{created}|"
                f"{len(stamp_text)}:{stamp_text}|{_column(expires)}|"
                f"{len(fingerprint)}:{fingerprint}|{len(categories)}:{categories}|"
                f"{len(content)}:{content}|{len(body)}:{body}|{len(str(seq))}:{seq:d}|"
                f"{len(tag)}:{tag}"
            )
            mac = row_mac(text.encode("utf-8", "surrogatepass"))
            row = (
                memory_id,
                namespace,
                key_,
                pool,
                state,
                source,
                session,
                created,
                stamp_text,
                expires,
                fingerprint,
                categories,
                content,
                body,
                seq,
                tag,
                mac,
            )
            if p.narrow:
                narrow_rows.append(row)
                narrow.append(
                    (
                        state,
                        stamp_text,
                        body,
                        seq,
                        tag,
                        mac,
                        memory_id,
                        namespace,
                        key_,
                        pool,
                        source,
                        session,
                        created,
                        expires,
                        fingerprint,
                        categories,
                        content,
                    )
                )
            else:
                items.append(row)
        elif where == SHORT:
            fields = short_fields(item)
            short.append((*fields, seq, tag, short_mac("short_items", fields, seq, tag)))
        elif where == SHORT_GONE:
            gone.append((memory_id,))
    out.last_seq, out.head = seq, head
    return out
