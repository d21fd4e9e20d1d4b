"""What a notice looks like on the wire, and how it is signed.

Two formats: plain JSON (the notice's fields, for scripts and pagers) and
Slack-compatible JSON (`text` plus Block Kit `blocks`, for an incoming webhook).
Every request carries

    X-Memgate-Notice:    the notice id (deliveries are at least once: deduplicate on it)
    X-Memgate-Timestamp: Unix seconds when this attempt was signed
    X-Memgate-Signature: sha256=<hex HMAC-SHA256(secret, timestamp + "." + body)>

when a secret is configured. Signing the timestamp with the body lets a receiver
refuse replays: `verify_signature` checks both, within a tolerance.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from enum import StrEnum
from typing import Any

from memgate.domain.notices import Notice, NoticeKind

SIGNATURE_HEADER = "X-Memgate-Signature"
TIMESTAMP_HEADER = "X-Memgate-Timestamp"
NOTICE_HEADER = "X-Memgate-Notice"
SIGNATURE_PREFIX = "sha256="
DEFAULT_TOLERANCE_SECONDS = 300.0
PAYLOAD_TYPE = "memgate.notice"
PAYLOAD_VERSION = 1


class Format(StrEnum):
    JSON = "json"
    SLACK = "slack"


def _namespace(notice: Notice) -> str:
    return "/".join(notice.namespace) or "-"


def headline(notice: Notice) -> str:
    """One line saying what happened (plain text; Slack escapes it)."""
    kind = notice.kind
    if kind is NoticeKind.REVIEW_PENDING:
        trust = f", trust {notice.trust_score:.2f}" if notice.trust_score is not None else ""
        return (
            f"Review needed: {notice.memory_id} in {_namespace(notice)}"
            f" ({notice.source or 'unknown source'}{trust})"
        )
    if kind is NoticeKind.REVIEW_TIMEOUT:
        return (
            f"Review timed out: {notice.memory_id} in {_namespace(notice)} was rejected"
            " after waiting too long"
        )
    if kind is NoticeKind.ROLLBACK_APPLIED:
        changed = notice.detail.get("changed", "?")
        to_seq = notice.detail.get("to_seq", "?")
        return f"Rollback applied by {notice.actor}: {changed} memories back to log seq {to_seq}"
    if kind is NoticeKind.GUARD_ASK:
        tool = notice.detail.get("tool", "?")
        session = notice.detail.get("session_id") or "no session"
        return f"Tool call needs approval: {tool} ({session}), ask {notice.detail.get('ask_id')}"
    if kind is NoticeKind.VERIFY_FAILED:
        bad = notice.detail.get("first_bad_seq")
        where = f" at seq {bad}" if bad is not None else ""
        count = notice.detail.get("divergence_count") or 0
        return f"Log verify FAILED{where} ({count} divergences)"
    return "memgate test notification: this target receives memgate notices"


def plain(notice: Notice) -> dict[str, Any]:
    """The plain JSON payload: the notice's fields plus a `summary` line."""
    return {
        "type": PAYLOAD_TYPE,
        "version": PAYLOAD_VERSION,
        "summary": headline(notice),
        **notice.model_dump(mode="json"),
    }


SLACK_FIELD_CHARS = 1900
"""Block Kit caps a field's text at 2,000 characters (a section's at 3,000)."""


def slack_escape(text: str, limit: int = SLACK_FIELD_CHARS) -> str:
    """Slack reads `<...>` as links and mentions (`<!channel>`) and `&` as an entity:
    escaped as its docs require, stored text never formats or pings. At most
    `limit` characters after escaping (an escape is never cut in half)."""
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if len(escaped) <= limit:
        return escaped
    cut = escaped[: limit - 1]
    amp = cut.rfind("&")
    if amp != -1 and ";" not in cut[amp:]:
        cut = cut[:amp]
    return cut + "…"


def slack(notice: Notice, link: str | None = None) -> dict[str, Any]:
    """A Slack incoming-webhook message: `text` (notifications, old clients) and blocks."""
    title = slack_escape(headline(notice), 1000)
    lines = [f"*{title}*"]
    if notice.reason:
        lines.append(slack_escape(notice.reason, 1500))
    blocks: list[dict[str, Any]] = [
        {"type": "section", "text": {"type": "mrkdwn", "text": "\n".join(lines)}}
    ]
    fields = []
    if notice.memory_id:
        fields.append(f"*Memory*\n`{slack_escape(notice.memory_id)}`")
    if notice.namespace:
        fields.append(f"*Namespace*\n`{slack_escape(_namespace(notice))}`")
    if notice.source:
        fields.append(f"*Source*\n{slack_escape(notice.source)}")
    if notice.rules:
        fields.append("*Rules*\n" + slack_escape(", ".join(notice.rules[:8])))
    if fields:
        blocks.append(
            {"type": "section", "fields": [{"type": "mrkdwn", "text": f} for f in fields]}
        )
    if notice.excerpt:
        blocks.append(
            {
                "type": "context",
                "elements": [{"type": "plain_text", "text": notice.excerpt, "emoji": False}],
            }
        )
    if link:
        blocks.append(
            {
                "type": "actions",
                "elements": [
                    {
                        "type": "button",
                        "text": {"type": "plain_text", "text": "Open in memgate"},
                        "url": link,
                    }
                ],
            }
        )
    context = f"memgate · {notice.kind.value} · {notice.id}"
    if notice.seq is not None:
        context += f" · log seq {notice.seq}"
    blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": context}]})
    return {"text": title, "blocks": blocks}


def link_for(notice: Notice, public_url: str | None) -> str | None:
    """Where the review UI shows what the notice is about, if the service's public
    address is configured."""
    if not public_url:
        return None
    base = public_url.rstrip("/")
    if notice.memory_id:
        return f"{base}/ui/items/{notice.memory_id}"
    if notice.kind is NoticeKind.GUARD_ASK and notice.detail.get("ask_id"):
        return f"{base}/ui/asks/{notice.detail['ask_id']}"
    if notice.kind in (NoticeKind.ROLLBACK_APPLIED, NoticeKind.VERIFY_FAILED):
        return f"{base}/ui/log"
    return f"{base}/ui/queue"


def render(notice: Notice, fmt: Format, public_url: str | None = None) -> bytes:
    """The request body for one notice in one format."""
    link = link_for(notice, public_url)
    if fmt is Format.SLACK:
        payload = slack(notice, link)
    else:
        payload = plain(notice)
        if link:
            payload["link"] = link
    return json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


def signature(secret: bytes, timestamp: str, body: bytes) -> str:
    mac = hmac.new(secret, timestamp.encode("ascii") + b"." + body, hashlib.sha256)
    return SIGNATURE_PREFIX + mac.hexdigest()


def signed_headers(notice_id: str, body: bytes, secret: bytes | None, now: float) -> dict[str, str]:
    headers = {"Content-Type": "application/json", NOTICE_HEADER: notice_id}
    if secret:
        timestamp = str(int(now))
        headers[TIMESTAMP_HEADER] = timestamp
        headers[SIGNATURE_HEADER] = signature(secret, timestamp, body)
    return headers


def verify_signature(
    secret: bytes,
    body: bytes,
    timestamp: str | None,
    header: str | None,
    *,
    now: float | None = None,
    tolerance: float = DEFAULT_TOLERANCE_SECONDS,
) -> bool:
    """For receivers: the signature holds for this body and timestamp, and the
    timestamp is within `tolerance` seconds of now (a replayed request is not)."""
    if not timestamp or not header or not timestamp.isdigit():
        return False
    current = time.time() if now is None else now
    if abs(current - int(timestamp)) > tolerance:
        return False
    return hmac.compare_digest(signature(secret, timestamp, body), header)
