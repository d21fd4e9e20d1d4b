# ruff: noqa: E501 - hand-written item texts and shape tables are kept on one line each
"""Carrier wrappers: put a hand-written payload inside the kind of artefact an agent
reads (an e-mail, a web page, a ticket, tool JSON ...). Deterministic: the choice of
names and numbers comes from the part's seeded RNG."""

from __future__ import annotations

import json
import random


def email(rng: random.Random, subject: str, body: str, zh: bool = False) -> str:
    who = rng.choice(["lena", "ops", "ravi", "mkt", "hr-desk", "j.ortiz"])
    day = rng.randint(2, 27)
    if zh:
        return (
            f"发件人: {who}@corp.example.com\n收件人: team@corp.example.com\n"
            f"日期: 2026-11-{day:02d}\n主题: {subject}\n\n{body}"
        )
    return (
        f"From: {who}@corp.example.com\nTo: team@corp.example.com\n"
        f"Date: Tue, {day} Nov 2026 09:{rng.randint(10, 59)}:00 +0000\nSubject: {subject}\n\n{body}"
    )


def web_hidden(
    rng: random.Random, title: str, visible: str, hidden: str, how: str = "comment"
) -> str:
    if how == "comment":
        hid = f"<!-- {hidden} -->"
    elif how == "div":
        hid = f'<div style="display:none">{hidden}</div>'
    else:
        hid = f'<span style="color:#fff;font-size:1px">{hidden}</span>'
    return (
        f"<html><head><title>{title}</title></head><body>\n<h1>{title}</h1>\n"
        f"<p>{visible}</p>\n{hid}\n<footer>© 2026</footer></body></html>"
    )


def ticket(rng: random.Random, title: str, body: str, zh: bool = False) -> str:
    num = rng.randint(1000, 9999)
    if zh:
        return f"工单 #{num}：{title}\n状态：处理中  优先级：P{rng.randint(1, 3)}\n描述：\n{body}"
    return f"Ticket #{num}: {title}\nStatus: open  Priority: P{rng.randint(1, 3)}\nDescription:\n{body}"


def tool_json(rng: random.Random, tool: str, fields: dict[str, object]) -> str:
    payload = {
        "tool": tool,
        "status": "ok",
        "request_id": f"req-{rng.randint(10000, 99999)}",
        **fields,
    }
    return json.dumps(payload, ensure_ascii=False, indent=2)


def minutes(rng: random.Random, topic: str, lines: list[str], zh: bool = False) -> str:
    body = "\n".join(f"- {x}" for x in lines)
    if zh:
        return f"会议纪要：{topic}（11 月 {rng.randint(2, 27)} 日）\n参会：产品、后端、运维\n{body}"
    return f"Meeting notes: {topic} ({rng.randint(2, 27)} Nov)\nAttendees: product, backend, ops\n{body}"


def chat(lines: list[tuple[str, str]]) -> str:
    return "\n".join(f"[{who}] {what}" for who, what in lines)


def markdown(title: str, body: str) -> str:
    return f"# {title}\n\n{body}"


def commit(rng: random.Random, subject: str, body: str) -> str:
    sha = "".join(rng.choice("0123456789abcdef") for _ in range(40))
    return (
        f"commit {sha}\nAuthor: dev <dev@corp.example.com>\n\n    {subject}\n\n    "
        + body.replace("\n", "\n    ")
    )


def csv_rows(header: list[str], rows: list[list[str]]) -> str:
    def cell(x: str) -> str:
        return '"' + x.replace('"', '""') + '"' if ("," in x or '"' in x) else x

    return "\n".join(",".join(cell(c) for c in r) for r in [header, *rows])
