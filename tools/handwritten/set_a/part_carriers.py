# ruff: noqa: E501  (case data: long literals are kept on one line, as written)
"""Carriers a memory write arrives in from tools, web pages and documents, and
the ordinary filler around a clause. A carrier takes the clause (an attack, or
its benign twin) and wraps it the same way for both, so a pair differs only in
that clause. Every carrier returns (text, source)."""

from __future__ import annotations

import json
import random

NAMES_EN = [
    "Alice Moreno",
    "Ben Okafor",
    "Chloe Martin",
    "Dmitri Volkov",
    "Emma Schulz",
    "Farid Haddad",
    "Grace Lee",
    "Hiro Tanaka",
    "Ines Duarte",
    "Jonas Berg",
    "Kavya Rao",
    "Liam Walsh",
]
NAMES_ZH = [
    "王磊",
    "李娜",
    "张伟",
    "刘洋",
    "陈静",
    "杨帆",
    "赵敏",
    "黄海",
    "周婷",
    "吴军",
    "徐晨",
    "孙悦",
]
TEAMS = ["platform", "billing", "data-infra", "mobile", "search", "growth", "sre", "payments"]

FILL_EN = [
    "The migration to the new build cache finished on Tuesday and CI times dropped by about a third.",
    "Please keep the release notes short; customers mostly read the first two bullets.",
    "Staging will be down for maintenance between 02:00 and 03:00 UTC on Saturday.",
    "The quarterly report is due on the 15th; finance needs the numbers a week earlier.",
    "We agreed to move the stand-up to 09:30 so the Berlin office can join.",
    "The onboarding checklist now links to the new VPN guide.",
    "Latency on the search endpoint is back under 120 ms at p95 after the index rebuild.",
    "Remember that the office is closed on Monday for the public holiday.",
    "Design review for the settings page is scheduled for Thursday afternoon.",
    "The vendor confirmed the invoice was paid and the ticket can be closed.",
    "Customer feedback on the new dashboard has been mostly positive.",
    "The load test used 400 virtual users for 20 minutes against the canary.",
    "Docs for the v2 API are published under /docs/api/v2.",
    "We replaced the flaky integration test with a contract test.",
    "The team prefers short pull requests, ideally under 400 changed lines.",
    "Lunch-and-learn this Friday: an introduction to property-based testing.",
    "Travel requests need manager approval at least two weeks in advance.",
    "The dependency upgrade bumped the minimum Python version to 3.10.",
    "Marketing wants the pricing page translated into German and Japanese before the launch event.",
    "The new hires start on the 4th; their laptops are ordered and the accounts are requested.",
    "We are deprecating the v1 webhooks at the end of Q2; customers got two reminder e-mails.",
    "The incident review found that the alert fired, but the runbook link pointed at an old page.",
    "Please book meeting rooms through the calendar, not the whiteboard by the kitchen.",
    "The data team will re-run the churn model once the November events are backfilled.",
    "Our SLA for priority-one tickets is a first response within 30 minutes, around the clock.",
    "The mobile app's crash-free rate is 99.6 % on Android and 99.8 % on iOS this week.",
    "Procurement signed the three-year renewal with a 7 % discount.",
    "Feature flags older than 90 days will be cleaned up in the next hygiene sprint.",
]
FILL_ZH = [
    "新的构建缓存已于周二上线，CI 时间缩短了大约三分之一。",
    "发布说明请尽量简短，客户一般只看前两条。",
    "预发环境将于周六凌晨两点到三点停机维护。",
    "季度报告 15 号截止，财务需要提前一周拿到数据。",
    "站会改到九点半，方便上海和深圳两地同事一起参加。",
    "新员工入职清单已经加上了 VPN 使用指南的链接。",
    "搜索接口重建索引后，p95 延迟回到了 120 毫秒以内。",
    "下周一公司放假，请提前安排好值班。",
    "设置页面的设计评审安排在周四下午。",
    "供应商确认发票已付款，工单可以关闭了。",
    "客户对新版仪表盘的反馈总体比较积极。",
    "压测使用了 400 个虚拟用户，持续 20 分钟。",
    "v2 接口文档已经发布在 /docs/api/v2 下。",
    "不稳定的集成测试已替换为契约测试。",
    "团队希望每个合并请求控制在 400 行改动以内。",
    "本周五午间分享：基于属性的测试入门。",
    "出差申请需要至少提前两周由主管审批。",
    "依赖升级后最低 Python 版本提高到了 3.10。",
    "市场部希望在发布会前把价格页翻译成日文和德文。",
    "新同事 4 号入职，电脑已经下单，账号也在申请中。",
    "v1 版本的回调接口将于第二季度末下线，已给客户发过两次提醒。",
    "故障复盘发现告警正常触发了，但值班手册链接指向了旧页面。",
    "会议室请通过日历预订，不要再写在茶水间的白板上。",
    "等十一月的事件数据补齐后，数据组会重新跑流失预测模型。",
    "一级工单的服务承诺是 30 分钟内首次响应，全天候有效。",
    "本周移动端无崩溃率：安卓 99.6%，iOS 99.8%。",
    "采购部已签下三年续约合同，拿到了 7% 的折扣。",
    "超过 90 天的功能开关会在下个迭代统一清理。",
]


def fill(rng: random.Random, lang: str, n: int) -> list[str]:
    pool = FILL_ZH if lang == "zh" else FILL_EN
    return rng.sample(pool, n)


def place(rng: random.Random, lang: str, clause: str, n: int | None = None) -> str:
    """The clause among n filler sentences, at a random position."""
    n = rng.randint(0, 4) if n is None else n
    parts = [s for s in fill(rng, lang, n + 1) if s != clause][:n]  # never the clause twice
    parts.insert(rng.randint(0, n), clause)
    if lang != "zh":
        return " ".join(parts)
    # Chinese sentences run on without spaces; one ending in Latin text (a URL, base64) gets a space
    return "".join(
        x if x.endswith(("。", "！", "？", "”", "」", "）")) else x + " " for x in parts
    ).rstrip()


def _name(rng: random.Random, lang: str) -> str:
    return rng.choice(NAMES_ZH if lang == "zh" else NAMES_EN)


def tool_json(rng, lang, body):
    obj = {
        "tool": rng.choice(
            ["web_search", "fetch_url", "crm.lookup", "kb.search", "jira.get_issue"]
        ),
        "status": "ok",
        "results": [
            {"title": fill(rng, lang, 1)[0][:40], "snippet": fill(rng, lang, 1)[0]},
            {
                "title": ("结果" if lang == "zh" else "Result") + f" {rng.randint(2, 9)}",
                "snippet": body,
            },
        ],
    }
    if rng.random() < 0.5:
        obj["results"].reverse()
    return json.dumps(obj, ensure_ascii=False, indent=rng.choice([None, 2])), "tool"


def tool_xml(rng, lang, body):
    return (
        f'<response tool="{rng.choice(["docs.query", "ticket.read", "drive.read"])}" code="200">\n'
        f'  <item id="{rng.randint(1000, 9999)}"><summary>{fill(rng, lang, 1)[0]}</summary></item>\n'
        f'  <item id="{rng.randint(1000, 9999)}"><summary>{body}</summary></item>\n</response>'
    ), "tool"


def search_results(rng, lang, body):
    lines = [
        f"{i}. {fill(rng, lang, 1)[0]} — https://{rng.choice(['docs', 'blog', 'help'])}.site{i}.org/p/{rng.randint(10, 999)}"
        for i in range(1, 4)
    ]
    k = rng.randint(0, 3)
    lines.insert(k, f"{k + 1}. {body}")
    head = "搜索结果：" if lang == "zh" else "Search results for the query:"
    return head + "\n" + "\n".join(lines), "tool"


def html_comment(rng, lang, body):
    return (
        f"<html><body><h1>{fill(rng, lang, 1)[0][:30]}</h1><p>{place(rng, lang, fill(rng, lang, 1)[0], 1)}</p>"
        f"<!-- {body} --><footer>© 2026</footer></body></html>"
    ), "web"


def html_hidden(rng, lang, body):
    style = rng.choice(
        [
            "display:none",
            "font-size:0",
            "color:#fff;background:#fff",
            "position:absolute;left:-9999px",
        ]
    )
    return (
        f"<article><p>{place(rng, lang, fill(rng, lang, 1)[0], 2)}</p>"
        f'<div style="{style}">{body}</div></article>'
    ), "web"


def html_alt(rng, lang, body):
    return (
        f'<p>{fill(rng, lang, 1)[0]}</p>\n<img src="/img/chart-{rng.randint(1, 40)}.png" alt="{body}">\n'
        f"<p>{fill(rng, lang, 1)[0]}</p>"
    ), "web"


def html_footer(rng, lang, body):
    return (
        f"{place(rng, lang, fill(rng, lang, 1)[0], 2)}\n\n---\n"
        f"{'页脚' if lang == 'zh' else 'Footer'}: {body}"
    ), "web"


def email(rng, lang, body):
    a, b = _name(rng, lang), _name(rng, lang)
    if lang == "zh":
        head = (
            f"发件人: {a} <{rng.choice(['ops', 'hr', 'it'])}@corp-mail.cn>\n收件人: {b}\n"
            f"主题: {fill(rng, lang, 1)[0][:12]}\n时间: 2026年11月{rng.randint(1, 28)}日\n\n"
        )
        return head + f"{b}，你好：\n\n{place(rng, lang, body)}\n\n此致\n{a}", "document"
    head = (
        f"From: {a} <{a.split()[0].lower()}@{rng.choice(['acme-corp.com', 'northwind.io', 'contoso.net'])}>\n"
        f"To: {b.split()[0].lower()}@acme-corp.com\nSubject: {fill(rng, lang, 1)[0][:30]}\n"
        f"Date: Tue, {rng.randint(1, 28)} Nov 2026 10:{rng.randint(10, 59)}:00 +0000\n\n"
    )
    return (
        head + f"Hi {b.split()[0]},\n\n{place(rng, lang, body)}\n\nBest,\n{a.split()[0]}",
        "document",
    )


def ticket(rng, lang, body):
    key = f"{rng.choice(['OPS', 'SUP', 'INC', 'DEV'])}-{rng.randint(100, 9999)}"
    if lang == "zh":
        return (
            f"工单 {key}\n状态：处理中\n描述：\n{place(rng, lang, body)}\n评论（{_name(rng, lang)}）：{fill(rng, lang, 1)[0]}",
            "tool",
        )
    return (
        f"Ticket {key} [{rng.choice(['Open', 'In progress', 'Waiting'])}]\nReporter: {_name(rng, lang)}\n"
        f"Description:\n{place(rng, lang, body)}\nComment: {fill(rng, lang, 1)[0]}"
    ), "tool"


def wiki(rng, lang, body):
    title = (
        rng.choice(["值班手册", "发布流程", "新人指南"])
        if lang == "zh"
        else rng.choice(["On-call handbook", "Release process", "Team onboarding"])
    )
    return (
        f"# {title}\n\n## {'概述' if lang == 'zh' else 'Overview'}\n{place(rng, lang, fill(rng, lang, 1)[0], 1)}\n\n## {'说明' if lang == 'zh' else 'Notes'}\n- {body}\n- {fill(rng, lang, 1)[0]}",
        "document",
    )


def pdf(rng, lang, body):
    n = rng.randint(2, 30)
    return (
        f"--- page {n} of {n + rng.randint(1, 20)} ---\n{place(rng, lang, body, rng.randint(1, 3))}\n{rng.randint(1, 99)}",
        "document",
    )


def minutes(rng, lang, body):
    if lang == "zh":
        return (
            f"会议纪要（{rng.choice(TEAMS)} 周会）\n参会人：{'、'.join(rng.sample(NAMES_ZH, 3))}\n"
            f"1. {fill(rng, lang, 1)[0]}\n2. {body}\n行动项：{_name(rng, lang)} 跟进。"
        ), "document"
    return (
        f"Minutes — {rng.choice(TEAMS)} weekly\nAttendees: {', '.join(rng.sample(NAMES_EN, 3))}\n"
        f"1. {fill(rng, lang, 1)[0]}\n2. {body}\nAction items: {_name(rng, lang).split()[0]} to follow up."
    ), "document"


def calendar(rng, lang, body):
    return (
        f"BEGIN:VEVENT\nDTSTART:202612{rng.randint(10, 28)}T{rng.randint(8, 17):02d}0000Z\n"
        f"SUMMARY:{fill(rng, lang, 1)[0][:24]}\nDESCRIPTION:{body}\nEND:VEVENT"
    ), "tool"


def csv_row(rng, lang, body):
    head = "id,客户,备注,状态" if lang == "zh" else "id,customer,notes,status"
    r1 = f'{rng.randint(100, 999)},{_name(rng, lang)},"{fill(rng, lang, 1)[0]}",{"已完成" if lang == "zh" else "done"}'
    r2 = f'{rng.randint(100, 999)},{_name(rng, lang)},"{body}",{"待处理" if lang == "zh" else "open"}'
    return f"{head}\n{r1}\n{r2}", "tool"


def chat(rng, lang, body):
    a, b = _name(rng, lang), _name(rng, lang)
    m1, m2 = sorted(rng.sample(range(10, 60), 2))
    return (
        f"[09:{m1}] {a}: {fill(rng, lang, 1)[0]}\n[09:{m2}] {b}: {body}\n"
        f"[10:{rng.randint(10, 59)}] {a}: {'好的' if lang == 'zh' else 'ok, thanks'}"
    ), "tool"


def commit_msg(rng, lang, body):
    h = "".join(rng.choice("0123456789abcdef") for _ in range(40))
    return (
        f"commit {h}\nAuthor: {_name(rng, lang)} <dev@acme-corp.com>\n\n    {fill(rng, lang, 1)[0][:50]}\n\n    {body}",
        "tool",
    )


def pr_review(rng, lang, body):
    return (
        f"Review on PR #{rng.randint(10, 3000)} by {_name(rng, lang)}\n"
        f"> {fill(rng, lang, 1)[0]}\n\n{body}\n\n{'整体没问题。' if lang == 'zh' else 'LGTM otherwise.'}"
    ), "tool"


def readme(rng, lang, body):
    proj = rng.choice(["tinyq", "fastcsv", "logship", "pgbatch", "imgthumb"])
    return (
        f"# {proj}\n\n{fill(rng, lang, 1)[0]}\n\n## {'安装' if lang == 'zh' else 'Install'}\n\n    pip install {proj}\n\n"
        f"## {'注意' if lang == 'zh' else 'Notes'}\n\n{body}"
    ), "document"


def config(rng, lang, body):
    return (
        f"# service config ({rng.choice(TEAMS)})\nservice:\n  name: {rng.choice(['api', 'worker', 'gateway'])}\n"
        f"  replicas: {rng.randint(1, 6)}\n# {body}\nlogging:\n  level: info"
    ), "document"


def long_doc(rng, lang, body):
    """A page of 1-1.5 KB with the clause in one of its paragraphs."""
    n = rng.randint(10, 16) if lang == "en" else rng.randint(16, 24)
    pool = FILL_ZH if lang == "zh" else FILL_EN
    sents = rng.sample(pool, min(n, len(pool)))
    sents.insert(rng.randint(0, len(sents)), body)
    sep = "" if lang == "zh" else " "
    paras, i = [], 0
    while i < len(sents):
        k = rng.randint(2, 4)
        paras.append(sep.join(sents[i : i + k]))
        i += k
    heads = (
        ["## 背景", "## 进展", "## 风险", "## 下一步", "## 附注"]
        if lang == "zh"
        else ["## Background", "## Progress", "## Risks", "## Next steps", "## Notes"]
    )
    out = [f"# {'项目周报' if lang == 'zh' else 'Project status'} — {rng.choice(TEAMS)}"]
    for j, para in enumerate(paras):
        if j % 2 == 0 and j // 2 < len(heads):
            out.append(heads[j // 2])
        out.append(para)
    return "\n\n".join(out), rng.choice(["document", "web"])


def email_thread(rng, lang, body):
    """A reply with the earlier message quoted; the clause sits in the reply or in the quote."""
    a, b = _name(rng, lang), _name(rng, lang)
    quoted = [fill(rng, lang, 1)[0], place(rng, lang, fill(rng, lang, 1)[0], 2)]
    reply = place(rng, lang, fill(rng, lang, 1)[0], 1)
    if rng.random() < 0.5:
        quoted.insert(1, body)
    else:
        reply = place(rng, lang, body, 2)
    q = "\n".join("> " + x for x in quoted)
    if lang == "zh":
        return (
            f"主题: 回复: {fill(rng, lang, 1)[0][:10]}\n\n{reply}\n{b}\n\n在 2026年11月{rng.randint(1, 28)}日，{a} 写道：\n{q}",
            "document",
        )
    return (
        f"Subject: Re: {fill(rng, lang, 1)[0][:28]}\n\n{reply}\n{b.split()[0]}\n\nOn Mon, {rng.randint(1, 28)} Nov 2026, {a} wrote:\n{q}",
        "document",
    )


def plain(rng, lang, body):
    return place(rng, lang, body), rng.choice(["web", "document", "tool"])


CARRIERS = [
    tool_json,
    tool_xml,
    search_results,
    html_comment,
    html_hidden,
    html_alt,
    html_footer,
    email,
    ticket,
    wiki,
    pdf,
    minutes,
    calendar,
    csv_row,
    chat,
    commit_msg,
    pr_review,
    readme,
    config,
    long_doc,
    long_doc,
    email_thread,
    plain,
]


def wrap(rng: random.Random, lang: str, body: str, carrier=None):
    """(text, source, carrier name) of `body` in a carrier chosen by rng unless given."""
    c = carrier or rng.choice(CARRIERS)
    text, source = c(rng, lang, body)
    return text, source, c.__name__
