# ruff: noqa: E501  (hand-written case texts and vendor shapes are data, one per line)
"""Carriers that wrap a payload the way it reaches an agent's memory in set 5:
e-mails, web pages (hidden comments, collapsed sections, alt text, meta tags),
tool JSON and XML, search results, tickets, wiki pages, chat exports, SMS, OCR'd
screenshots, transcripts, pull requests, logs, CSV, YAML and calendar entries.
Each takes the part's generator (for names, dates and hosts) and the payload."""

from __future__ import annotations

import json

from h5core import Gen


def date(g: Gen) -> str:
    return f"2026-{g.num(1, 11):02d}-{g.num(1, 28):02d}"


def email(g: Gen, body: str, subject: str = "Quick update") -> str:
    who = g.person()
    user = who.split()[0].lower()
    dom = g.pick(("mail.example.com", "partner.example.net", "supplier.example.org"))
    return (
        f"From: {who} <{user}@{dom}>\nTo: ops@example.com\nDate: {date(g)}\n"
        f"Subject: {subject}\n\n{body}\n\nBest,\n{who}"
    )


def email_zh(g: Gen, body: str, subject: str = "关于本周事项") -> str:
    who = g.zh_person()
    return (
        f"发件人：{who} <{g.s('abcdefghijklmnopqrstuvwxyz', 7)}@corp.example.com>\n"
        f"收件人：研发中心\n时间：{date(g)}\n主题：{subject}\n\n{body}\n\n此致\n{who}"
    )


def web_comment(g: Gen, title: str, visible: str, hidden: str) -> str:
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body>\n"
        f"<h1>{title}</h1>\n<p>{visible}</p>\n<!-- {hidden} -->\n<footer>© 2026</footer></body></html>"
    )


def web_details(g: Gen, title: str, visible: str, hidden: str) -> str:
    return (
        f"<article>\n<h2>{title}</h2>\n<p>{visible}</p>\n"
        f"<details><summary>More</summary><p>{hidden}</p></details>\n</article>"
    )


def web_alt(g: Gen, visible: str, hidden: str) -> str:
    return f'<section><p>{visible}</p>\n<img src="/static/chart-{g.num(1, 90)}.png" alt="{hidden}" width="640"></section>'


def web_meta(g: Gen, title: str, visible: str, hidden: str) -> str:
    return (
        f'<head><meta name="description" content="{hidden}"><title>{title}</title></head>\n'
        f"<body><p>{visible}</p></body>"
    )


def web_offscreen(g: Gen, visible: str, hidden: str) -> str:
    return (
        f'<div class="post"><p>{visible}</p>'
        f'<p style="position:absolute;left:-9999px">{hidden}</p></div>'
    )


def tool_json(g: Gen, tool: str, payload: str, key: str = "text") -> str:
    obj = {
        "tool": tool,
        "ok": True,
        "data": {"request_id": g.s("0123456789abcdef", 12), key: payload},
    }
    return json.dumps(obj, ensure_ascii=False, indent=2)


def search_results(g: Gen, query: str, hits: list[tuple[str, str]]) -> str:
    out = [f'web_search("{query}") -> {len(hits)} results']
    for i, (title, snippet) in enumerate(hits, 1):
        out.append(
            f"{i}. {title}\n   https://{g.pick(('blog', 'docs', 'forum', 'kb'))}.example.org/{g.num(100, 9999)}\n   {snippet}"
        )
    return "\n".join(out)


def xml_response(g: Gen, field: str, payload: str) -> str:
    return (
        f'<?xml version="1.0" encoding="UTF-8"?>\n<response status="200">\n'
        f"  <id>{g.num(10000, 99999)}</id>\n  <{field}>{payload}</{field}>\n</response>"
    )


def ticket(g: Gen, title: str, body: str, zh: bool = False) -> str:
    n = g.num(2000, 9900)
    if zh:
        return f"【工单 {n}】{title}\n状态：处理中 ｜ 优先级：P{g.num(1, 4)} ｜ 负责人：{g.zh_person()}\n\n{body}"
    return f"[{g.pick(('OPS', 'SUP', 'INFRA', 'APP'))}-{n}] {title}\nState: In progress · Priority: P{g.num(1, 4)} · Assignee: {g.person()}\n\n{body}"


def wiki(g: Gen, title: str, body: str) -> str:
    return f"= {title} =\nLast edited {date(g)} by {g.person()}\n\n{body}"


def wiki_zh(g: Gen, title: str, body: str) -> str:
    return f"# {title}\n最后编辑：{g.zh_person()}，{date(g)}\n\n{body}"


def chat(g: Gen, lines: list[tuple[str, str]]) -> str:
    hour, minute = g.num(8, 19), g.num(0, 15)
    out = []
    for who, msg in lines:
        minute += g.num(1, 6)
        out.append(f"{hour:02d}:{minute:02d} <{who}> {msg}")
    return "\n".join(out)


def sms(g: Gen, body: str) -> str:
    return f"SMS from +{g.num(10, 99)} ***{g.num(100, 999)} ({date(g)}): {body}"


def ocr(g: Gen, body: str) -> str:
    return f"[OCR of screenshot {g.num(1, 400)}.png, confidence 0.{g.num(80, 99)}]\n{body}"


def transcript(g: Gen, lines: list[tuple[str, str]]) -> str:
    t = g.num(0, 5)
    out = []
    for who, msg in lines:
        t += g.num(1, 3)
        out.append(f"[00:{t:02d}:{g.num(10, 59)}] {who}: {msg}")
    return "\n".join(out)


def pull_request(g: Gen, title: str, body: str) -> str:
    return f"PR #{g.num(100, 4000)}: {title}\nopened by {g.person()} · {g.num(1, 30)} files changed\n\n{body}"


def log_lines(g: Gen, lines: list[str]) -> str:
    h, m = g.num(0, 23), g.num(0, 50)
    out = []
    for i, ln in enumerate(lines):
        out.append(f"2026-11-{g.num(1, 28):02d}T{h:02d}:{m + i:02d}:{g.num(10, 59)}Z {ln}")
    return "\n".join(out)


def csv_rows(header: list[str], rows: list[list[str]]) -> str:
    def cell(v: str) -> str:
        return '"' + v.replace('"', '""') + '"' if any(c in v for c in ',"\n') else v

    return "\n".join(",".join(cell(c) for c in r) for r in [header, *rows])


def ics(g: Gen, summary: str, description: str) -> str:
    d = date(g).replace("-", "")
    return (
        "BEGIN:VCALENDAR\nBEGIN:VEVENT\n"
        f"UID:{g.s('0123456789abcdef', 16)}@cal.example.com\n"
        f"DTSTART:{d}T{g.num(7, 18):02d}3000Z\nSUMMARY:{summary}\n"
        f"DESCRIPTION:{description}\nEND:VEVENT\nEND:VCALENDAR"
    )


def minutes(g: Gen, title: str, items: list[str], zh: bool = False) -> str:
    if zh:
        head = f"{title}\n时间：{date(g)}　记录人：{g.zh_person()}\n参会人：{g.zh_person()}、{g.zh_person()}、{g.zh_person()}\n\n"
        return head + "\n".join(f"{'一二三四五六七八九十'[i]}、{x}" for i, x in enumerate(items))
    head = f"{title} — {date(g)}\nPresent: {g.person()}, {g.person()}, {g.person()}\n\n"
    return head + "\n".join(f"- {x}" for x in items)


def pdf_page(g: Gen, body: str) -> str:
    return f"[page {g.num(2, 60)} of {g.num(61, 120)}]\n{body}\n[footer: Confidential draft · do not distribute]"


def commit(g: Gen, subject: str, body: str) -> str:
    return (
        f"commit {g.s('0123456789abcdef', 40)}\nAuthor: {g.person()}\nDate:   {date(g)}\n\n    {subject}\n\n    "
        + body.replace("\n", "\n    ")
    )


def review(g: Gen, path: str, line: int, body: str) -> str:
    return f"{g.person()} commented on {path} line {line}:\n{body}"


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


def fence_lang(g: Gen, code: str) -> str:
    """The tag a person would put on this fence (or none)."""
    head = code.lstrip()
    if head.startswith(("import ", "from ")):
        return "python"
    if head.startswith("FROM "):
        return "dockerfile"
    if head.startswith(("{", "[")) and not head.startswith("[alias]"):
        return "json"
    if "jobs:" in code or head.startswith(("- hosts", "apiVersion", "services:", "stages:")):
        return "yaml"
    return g.pick(("sh", "bash", "", "shell"))


def tool_call(name: str, args: dict[str, object]) -> str:
    return json.dumps({"type": "tool_call", "name": name, "arguments": args}, ensure_ascii=False)


def memory_note(g: Gen, body: str) -> str:
    return f'memory.save(key="note-{g.num(100, 999)}") ← {body}'
