# ruff: noqa: E501  (hand-written case texts and vendor shapes are data, one per line)
"""Carriers that wrap a payload the way it reaches an agent's memory: e-mails, web
pages, tool JSON, tickets, chat logs, CSV, YAML, calendar entries, diffs and the
like. Each takes the part's generator (for names, dates and hosts) and the payload."""

from __future__ import annotations

import json
import re

from h4core import Gen


def _first_sentence(text: str) -> str:
    return re.split(r"\. |。", text)[0][:60]


def _date(g: Gen) -> str:
    return f"2026-{g.num(1, 11):02d}-{g.num(1, 28):02d}"


def email(g: Gen, body: str, subject: str = "Re: follow-up") -> str:
    who = g.person()
    user = who.split()[0].lower()
    return (
        f"From: {who} <{user}@{g.pick(('mail.example.com', 'partner.example.net', 'vendor.example.org'))}>\n"
        f"To: team@example.com\nDate: {_date(g)}\nSubject: {subject}\n\n{body}\n\n-- \n{who}"
    )


def email_zh(g: Gen, body: str, subject: str = "回复：跟进事项") -> str:
    who = g.zh_person()
    return (
        f"发件人：{who} <{g.s('abcdefghijklmnopqrstuvwxyz', 6)}@corp.example.com>\n"
        f"收件人：项目组\n日期：{_date(g)}\n主题：{subject}\n\n{body}\n\n{who}"
    )


def web_comment(g: Gen, visible: str, hidden: str) -> str:
    return (
        f"<html><head><title>{_first_sentence(visible)}</title></head><body>\n"
        f"<article><p>{visible}</p>\n<!-- {hidden} -->\n</article></body></html>"
    )


def web_hidden_div(g: Gen, visible: str, hidden: str) -> str:
    return (
        f"<main>\n<h2>{_first_sentence(visible)}</h2>\n<p>{visible}</p>\n"
        f'<div style="display:none" aria-hidden="true">{hidden}</div>\n</main>'
    )


def web_white_span(g: Gen, visible: str, hidden: str) -> str:
    return f'<p>{visible} <span style="color:#fff;font-size:1px">{hidden}</span></p>'


def tool_json(g: Gen, tool: str, payload: str, key: str = "content") -> str:
    obj = {"tool": tool, "status": "ok", "result": {"id": g.num(1000, 99999), key: payload}}
    return json.dumps(obj, ensure_ascii=False, indent=1)


def tool_error_json(g: Gen, payload: str) -> str:
    obj = {"error": {"code": g.pick((400, 403, 429, 502)), "message": payload}}
    return json.dumps(obj, ensure_ascii=False)


def ticket(g: Gen, title: str, body: str, zh: bool = False) -> str:
    n = g.num(1200, 9800)
    if zh:
        return f"工单 #{n}：{title}\n状态：待处理 | 优先级：P{g.num(1, 3)}\n提交人：{g.zh_person()}\n\n{body}"
    return f"Ticket #{n}: {title}\nStatus: open | Priority: P{g.num(1, 3)}\nReporter: {g.person()}\n\n{body}"


def chat(g: Gen, lines: list[tuple[str, str]]) -> str:
    out = []
    hour, minute = g.num(8, 18), g.num(0, 20)
    for who, msg in lines:
        minute += g.num(1, 9)
        out.append(f"[{hour:02d}:{minute:02d}] {who}: {msg}")
    return "\n".join(out)


def csv_rows(header: list[str], rows: list[list[str]]) -> str:
    def cell(v: str) -> str:
        return '"' + v.replace('"', '""') + '"' if any(c in v for c in ',"\n') else v

    return "\n".join(",".join(cell(c) for c in r) for r in [header, *rows])


def ics(g: Gen, summary: str, description: str) -> str:
    d = _date(g).replace("-", "")
    return (
        "BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\n"
        f"UID:{g.s('0123456789abcdef', 12)}@calendar.example.com\n"
        f"DTSTART:{d}T{g.num(8, 17):02d}0000Z\nSUMMARY:{summary}\n"
        f"DESCRIPTION:{description}\nEND:VEVENT\nEND:VCALENDAR"
    )


def meeting(g: Gen, title: str, items: list[str], zh: bool = False) -> str:
    if zh:
        head = f"{title}（{_date(g)}）\n参会：{g.zh_person()}、{g.zh_person()}、{g.zh_person()}\n"
    else:
        head = f"{title} ({_date(g)})\nAttendees: {g.person()}, {g.person()}, {g.person()}\n"
    return head + "\n".join(f"{i + 1}. {x}" for i, x in enumerate(items))


def pdf_page(g: Gen, body: str) -> str:
    return f"--- page {g.num(2, 40)} ---\n{body}\n--- end of page ---"


def commit_msg(g: Gen, subject: str, body: str) -> str:
    return (
        f"commit {g.s('0123456789abcdef', 40)}\nAuthor: {g.person()}\nDate: {_date(g)}\n\n    {subject}\n\n    "
        + body.replace("\n", "\n    ")
    )


def review_comment(g: Gen, path: str, line: int, body: str) -> str:
    return f"Review comment on {path}:{line} by {g.person()}\n> {body}"


def yaml_block(pairs: list[tuple[str, str]]) -> str:
    out = []
    for k, v in pairs:
        if "\n" in v:
            out.append(f"{k}: |\n" + "\n".join("  " + ln for ln in v.splitlines()))
        else:
            out.append(f"{k}: {json.dumps(v, ensure_ascii=False)}")
    return "\n".join(out)


def fenced(lang: str, code: str) -> str:
    return f"```{lang}\n{code}\n```"
