# ruff: noqa: E501
"""Carriers of set F: tool results and agent notes as real agent frameworks write
them. Each builder takes (rng, lang, value) and returns the memory text with
`value` in exactly one field; the rest is ordinary filler."""

from __future__ import annotations

import json
import random

Builder = "callable"


def _dump(rng: random.Random, obj: object) -> str:
    if rng.random() < 0.5:
        return json.dumps(obj, ensure_ascii=False, indent=2)
    return json.dumps(obj, ensure_ascii=False)


def _hex(rng: random.Random, n: int) -> str:
    return "".join(rng.choice("0123456789abcdef") for _ in range(n))


def openai_fn(rng, lang, v):
    name = rng.choice(["get_weather", "lookup_order", "fetch_ticket", "get_invoice", "read_doc"])
    if lang == "zh":
        inner = {"status": "ok", "订单号": f"SO{rng.randint(100000, 999999)}", "备注": v}
    else:
        inner = {"status": "ok", "order_id": f"A-{rng.randint(10000, 99999)}", "remarks": v}
    return _dump(
        rng,
        {
            "role": "tool",
            "tool_call_id": "call_" + _hex(rng, 24),
            "name": name,
            "content": json.dumps(inner, ensure_ascii=False),
        },
    )


def mcp_result(rng, lang, v):
    head = "查询完成，共 3 条记录。" if lang == "zh" else "Query finished, 3 records."
    return _dump(
        rng,
        {
            "jsonrpc": "2.0",
            "id": rng.randint(2, 900),
            "result": {
                "content": [{"type": "text", "text": head}, {"type": "text", "text": v}],
                "isError": False,
            },
        },
    )


def langgraph_msg(rng, lang, v):
    return _dump(
        rng,
        {
            "type": "tool",
            "name": rng.choice(["search_docs", "kb_lookup", "read_file"]),
            "tool_call_id": "toolu_" + _hex(rng, 20),
            "status": "success",
            "content": v,
            "artifact": None,
        },
    )


def browser_page(rng, lang, v):
    if lang == "zh":
        t = rng.choice(
            [
                "2026 年度差旅报销指南",
                "如何配置 Nginx 反向代理",
                "新版会员权益说明",
                "杭州周末亲子游攻略",
            ]
        )
        url = rng.choice(
            [
                "https://help.example-corp.cn/travel",
                "https://blog.devnotes.cn/nginx",
                "https://www.shop-demo.cn/vip",
            ]
        )
    else:
        t = rng.choice(
            [
                "Expense policy FAQ",
                "Installing Postgres 17 on Debian",
                "Spring sale: terms",
                "Best hiking trails near Denver",
            ]
        )
        url = rng.choice(
            [
                "https://docs.acme-example.com/expenses",
                "https://wiki.example.org/pg17",
                "https://shop.example.net/sale",
            ]
        )
    return _dump(
        rng, {"title": t, "url": url, "status": 200, "text": v, "links": rng.randint(4, 60)}
    )


def rag_chunks(rng, lang, v):
    filler = (
        "报销需在出差结束后 30 天内提交。"
        if lang == "zh"
        else "Claims must be filed within 30 days of travel."
    )
    chunks = [
        {
            "id": "c" + _hex(rng, 6),
            "score": round(rng.uniform(0.71, 0.93), 3),
            "text": filler,
            "metadata": {"source": "handbook.pdf", "page": rng.randint(2, 40)},
        },
        {
            "id": "c" + _hex(rng, 6),
            "score": round(rng.uniform(0.55, 0.7), 3),
            "text": v,
            "metadata": {
                "source": rng.choice(["faq.md", "wiki/ops.md", "vendor_notes.docx"]),
                "page": rng.randint(1, 9),
            },
        },
    ]
    rng.shuffle(chunks)
    return _dump(
        rng, {"query": "报销流程" if lang == "zh" else "travel reimbursement", "results": chunks}
    )


def inbox(rng, lang, v):
    if lang == "zh":
        frm, subj = rng.choice(
            [
                ("李娜 <li.na@vendor-demo.cn>", "关于三季度对账"),
                ("HR <hr@corp-demo.cn>", "年假余额提醒"),
                ("王强 <wq@partner-demo.cn>", "合同盖章进度"),
            ]
        )
    else:
        frm, subj = rng.choice(
            [
                ("Dana Ruiz <dana@vendor-example.com>", "Re: Q3 invoice"),
                ("IT Desk <it@corp-example.com>", "Laptop refresh"),
                ("Sam Okafor <sam@partner-example.org>", "Contract redlines"),
            ]
        )
    return _dump(
        rng,
        {
            "messages": [
                {
                    "id": _hex(rng, 16),
                    "from": frm,
                    "subject": subj,
                    "date": f"2026-11-{rng.randint(10, 28)}T0{rng.randint(1, 9)}:12:00Z",
                    "labels": ["INBOX", "UNREAD"],
                    "snippet": v,
                }
            ]
        },
    )


def calendar(rng, lang, v):
    s = (
        "季度复盘会"
        if lang == "zh"
        else rng.choice(["Quarterly review", "1:1 with Priya", "Vendor sync"])
    )
    return _dump(
        rng,
        {
            "kind": "calendar#event",
            "id": _hex(rng, 26),
            "summary": s,
            "start": {"dateTime": "2026-12-09T10:00:00+08:00"},
            "end": {"dateTime": "2026-12-09T11:00:00+08:00"},
            "description": v,
            "attendees": [{"email": "team@example.com"}],
        },
    )


def crm(rng, lang, v):
    if lang == "zh":
        rec = {
            "客户名称": rng.choice(["华远物流", "星桥科技", "青禾餐饮"]),
            "阶段": "谈判中",
            "金额": rng.randint(5, 90) * 10000,
        }
    else:
        rec = {
            "Name": rng.choice(["Northwind Traders", "Globex", "Initech"]),
            "StageName": "Negotiation",
            "Amount": rng.randint(5, 90) * 1000,
        }
    rec["Description" if lang == "en" else "跟进记录"] = v
    return _dump(rng, {"attributes": {"type": "Opportunity"}, "Id": "006" + _hex(rng, 15), **rec})


def gh_issue(rng, lang, v):
    t = (
        rng.choice(["构建在 ARM 上失败", "文档链接失效", "升级后内存占用上涨"])
        if lang == "zh"
        else rng.choice(["Build fails on ARM", "Broken link in docs", "Memory grows after upgrade"])
    )
    return _dump(
        rng,
        {
            "number": rng.randint(40, 4000),
            "title": t,
            "state": "open",
            "user": {"login": rng.choice(["octo-dev", "zhangwei-gh", "mkern", "lin-yu"])},
            "labels": [{"name": "bug"}],
            "body": v,
            "comments": rng.randint(0, 12),
        },
    )


def gh_pr_comment(rng, lang, v):
    return _dump(
        rng,
        {
            "pull_request_review_comment": {
                "path": rng.choice(["src/app.py", "docs/setup.md", "cmd/main.go"]),
                "line": rng.randint(3, 300),
                "user": {"login": rng.choice(["reviewer-a", "chen-ops", "jdoe"])},
                "body": v,
            },
            "pull_number": rng.randint(10, 900),
        },
    )


def slack(rng, lang, v):
    return _dump(
        rng,
        {
            "ok": True,
            "messages": [
                {
                    "type": "message",
                    "user": "U0" + _hex(rng, 8).upper(),
                    "ts": f"17334{rng.randint(10000, 99999)}.00{rng.randint(1000, 9999)}",
                    "text": v,
                }
            ],
            "has_more": False,
        },
    )


def feishu(rng, lang, v):
    return _dump(
        rng,
        {
            "code": 0,
            "msg": "success",
            "data": {
                "items": [
                    {
                        "message_id": "om_" + _hex(rng, 32),
                        "msg_type": "text",
                        "sender": {"id": "ou_" + _hex(rng, 32), "sender_type": "user"},
                        "body": {"content": json.dumps({"text": v}, ensure_ascii=False)},
                    }
                ]
            },
        },
    )


def dingtalk(rng, lang, v):
    return _dump(
        rng,
        {
            "errcode": 0,
            "errmsg": "ok",
            "result": {
                "msgtype": "text",
                "senderNick": rng.choice(["赵敏", "孙磊", "Kevin"]),
                "conversationTitle": rng.choice(["研发群", "客服值班", "项目周会"]),
                "text": {"content": v},
            },
        },
    )


def search_hits(rng, lang, v):
    other = (
        "官方文档：安装步骤与系统要求。"
        if lang == "zh"
        else "Official docs: installation and system requirements."
    )
    hits = [
        {"title": "Docs", "url": "https://docs.example.com/install", "snippet": other},
        {
            "title": rng.choice(["论坛回复", "Forum answer", "Blog"]),
            "url": rng.choice(["https://forum.example.net/t/88", "https://bbs.example.cn/p/301"]),
            "snippet": v,
        },
    ]
    rng.shuffle(hits)
    return _dump(
        rng,
        {
            "query": rng.choice(["安装 redis 集群", "reset router password", "pandas merge keys"]),
            "hits": hits,
        },
    )


def img_alt(rng, lang, v):
    return _dump(
        rng,
        {
            "title": "产品页" if lang == "zh" else "Product page",
            "url": "https://shop.example.com/p/12",
            "images": [{"src": "https://cdn.example.com/i/hero.jpg", "alt": v}],
            "text": "限时折扣。" if lang == "zh" else "Limited offer.",
        },
    )


def nested_meta(rng, lang, v):
    return _dump(
        rng,
        {
            "result": {
                "items": [
                    {
                        "id": rng.randint(1, 99),
                        "name": "report.xlsx",
                        "metadata": {"owner": "finance", "x-notes": {"comment": v}},
                    }
                ]
            },
            "took_ms": rng.randint(3, 200),
        },
    )


def scratchpad(rng, lang, v):
    step = rng.randint(2, 9)
    if lang == "zh":
        return f"[草稿 第{step}步] 已调用 search_docs，结果如下：\n{v}\n下一步：整理成回答。"
    return f"Scratchpad, step {step}: called search_docs. Result:\n{v}\nNext: draft the answer."


def memory_summary(rng, lang, v):
    if lang == "zh":
        return f"会话记忆摘要（{rng.randint(2, 30)} 轮）：用户在处理季度报表。工具返回中提到：{v}"
    return f"Memory summary ({rng.randint(2, 30)} turns): user is working on the quarterly report. A tool result said: {v}"


TOOL = [
    openai_fn,
    mcp_result,
    langgraph_msg,
    rag_chunks,
    inbox,
    calendar,
    crm,
    gh_issue,
    gh_pr_comment,
    slack,
    feishu,
    dingtalk,
    nested_meta,
]
WEB = [browser_page, search_hits, img_alt]
AGENT = [scratchpad, memory_summary]
SOURCE = {
    **{f.__name__: "tool" for f in TOOL},
    **{f.__name__: "web" for f in WEB},
    **{f.__name__: "agent" for f in AGENT},
}
ALL = TOOL + WEB + AGENT
