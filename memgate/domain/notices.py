"""Notices: what people are told, and which events tell them.

A notice reports one event of the log (an item entered review, a review timed
out, a rollback was applied) or a failed verify, which is not an event. It holds
ids, the namespace, the reason and a short excerpt of the stored content (which
the gateway redacted before storage): never metadata, never a value the scan
found sensitive. Notices wait in a durable outbox (`memgate.domain.ports.Outbox`)
until every configured target has taken them.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from memgate.domain.events import Event, Op, VerifyResult
from memgate.domain.memory import MemoryState

EXCERPT_CHARS = 160
REASON_CHARS = 300
REVIEW_TIMEOUT_REASON = "review_timeout"
"""The reason the gateway's review timeout records on the rejection it appends."""

_TAG = re.compile(r"\[REDACTED:[A-Za-z0-9_.-]+:[0-9a-f]+\]")
_CONTROLS = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]+")
_TOKEN = re.compile(r"[A-Za-z0-9_+/=-]{32,}")
_DIGITS = re.compile(r"\d")
_LETTERS = re.compile(r"[A-Za-z]")


class NoticeKind(StrEnum):
    REVIEW_PENDING = "review_pending"
    """An item entered the review queue (new, promoted, or demoted by a rescan)."""
    REVIEW_TIMEOUT = "review_timeout"
    """An item waited longer than the review timeout and was rejected."""
    ROLLBACK_APPLIED = "rollback_applied"
    """A rollback was applied (one notice for the whole rollback)."""
    VERIFY_FAILED = "verify_failed"
    """`verify` found the log or what is served diverging."""
    GUARD_ASK = "guard_ask"
    """The tool-call guard asked a person about a call (memgate.domain.asks)."""
    TEST = "test"
    """`memgate notify test`."""


class Notice(BaseModel):
    """One notification, as every format renders it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    """Stable per notice (`ev<seq>` for an event's): receivers deduplicate on it,
    since delivery is at least once."""
    kind: NoticeKind
    at: datetime
    seq: int | None = None
    """The log event it reports."""
    memory_id: str | None = None
    namespace: tuple[str, ...] = ()
    source: str | None = None
    state: str | None = None
    trust_score: float | None = None
    actor: str | None = None
    reason: str | None = None
    rules: tuple[str, ...] = ()
    excerpt: str | None = None
    """At most EXCERPT_CHARS of the stored (redacted) content."""
    detail: dict[str, Any] = Field(default_factory=dict)
    """Rollback: to_seq, head_seq, changed, scope. Verify: first_bad_seq, last_seq,
    divergence_count, divergences (table, id, kind)."""


def kind_of(event: Event) -> NoticeKind | None:
    """Which notice an event produces, if any. The SQLite outbox applies the same
    rule in a trigger (schema/sqlite/006_outbox.sql); the contract tests hold the
    two together."""
    if event.op is Op.ROLLED_BACK:
        return NoticeKind.ROLLBACK_APPLIED if event.state_after is None else None
    if event.op is Op.REJECTED and event.reason == REVIEW_TIMEOUT_REASON:
        return NoticeKind.REVIEW_TIMEOUT
    if event.state_after is MemoryState.PENDING_REVIEW:
        return NoticeKind.REVIEW_PENDING
    return None


def event_notice_id(seq: int) -> str:
    return f"ev{seq}"


def notice_for(kind: NoticeKind, seq: int, event: Event) -> Notice:
    """The notice of event `seq` (its kind from `kind_of`)."""
    item = event.item
    detail: dict[str, Any] = {}
    if kind is NoticeKind.ROLLBACK_APPLIED and event.detail:
        detail = {
            k: event.detail[k]
            for k in ("to_seq", "head_seq", "changed", "scope")
            if k in event.detail
        }
    return Notice(
        id=event_notice_id(seq),
        kind=kind,
        at=event.at,
        seq=seq,
        memory_id=None if item is None else event.memory_id,
        namespace=item.namespace if item is not None else (),
        source=item.source.value if item is not None else None,
        state=event.state_after.value if event.state_after is not None else None,
        trust_score=item.trust_score if item is not None else None,
        actor=event.actor,
        reason=short_text(event.reason, REASON_CHARS),
        rules=tuple(sorted({f.rule_id for f in item.findings})) if item is not None else (),
        excerpt=excerpt(item.content) if item is not None else None,
        detail=detail,
    )


def verify_notice(result: VerifyResult, at: datetime) -> Notice:
    """The notice of a failed verify. Its id is a digest of what failed, so the
    same failure found again (a monitor verifying every minute) is told once."""
    shown = [{"table": d.table, "id": d.id, "kind": d.kind} for d in result.divergences[:10]]
    what = f"{result.first_bad_seq}|{result.reason}|{result.divergence_count}|{shown}"
    digest = hashlib.sha256(what.encode("utf-8", "replace")).hexdigest()[:20]
    return Notice(
        id=f"vf{digest}",
        kind=NoticeKind.VERIFY_FAILED,
        at=at,
        reason=short_text(result.reason or "verify failed", REASON_CHARS),
        detail={
            "first_bad_seq": result.first_bad_seq,
            "last_seq": result.last_seq,
            "checked": result.checked,
            "divergence_count": result.divergence_count,
            "divergences": shown,
            "signature_ok": result.signature_ok,
        },
    )


def short_text(text: str | None, limit: int) -> str | None:
    """One line of at most `limit` characters: control and bidi characters become
    spaces, long token-like runs are masked (a second guard: content is redacted
    before storage, but a reviewer's free-text reason is not scanned)."""
    if text is None:
        return None
    flat = " ".join(_CONTROLS.sub(" ", text).split())
    flat = _mask_tokens(flat)
    if len(flat) <= limit:
        return flat
    cut = limit
    for tag in _TAG.finditer(flat, 0, limit + 64):
        if tag.start() < limit < tag.end():
            cut = tag.start()  # never half a redaction tag
    return flat[:cut].rstrip() + "…"


def excerpt(content: str) -> str:
    return short_text(content, EXCERPT_CHARS) or ""


def _mask_tokens(text: str) -> str:
    tags = [(m.start(), m.end()) for m in _TAG.finditer(text)]

    def mask(match: re.Match[str]) -> str:
        value = match.group(0)
        inside = any(lo <= match.start() < hi for lo, hi in tags)
        if inside or not (_DIGITS.search(value) and _LETTERS.search(value)):
            return value
        return "[masked]"

    return _TOKEN.sub(mask, text)
