"""An e-mail kept as a memory: the addresses of its envelope (From / To / Cc, 发件人 /
收件人 next to another header line) are the message's own, not someone's contact data
recorded, so they alone do not send the write to review; a lone "From:" line, a long
recipient list, and an address given in the body still do (MG-PII-001, MG-ID-002),
through the public Inspector, EN and ZH."""

from __future__ import annotations

import random
import string

import pytest

from memgate.domain import Decision, Source
from memgate.trust.inspector import Inspector

R = random.Random(2026_12_07)


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default()


def person() -> str:
    first = "".join(R.choice(string.ascii_lowercase) for _ in range(R.randint(3, 7)))
    last = "".join(R.choice(string.ascii_lowercase) for _ in range(R.randint(4, 8)))
    return f"{first}.{last}"


def pii_rules(inspector: Inspector, text: str) -> set[str]:
    report = inspector.inspect(text, Source.TOOL)
    return {f.rule_id for f in report.findings if f.category.value == "pii"}


def envelopes() -> list[str]:
    out = []
    for _ in range(3):
        a, b = person(), person()
        out.append(
            f"From: {a.title()} <{a}@corp.example.com>\nTo: {b}@corp.example.com\n"
            "Date: 2026-03-02\nSubject: Office closed Friday\n\nHi all,\n\n"
            "The office is closed on Friday; the helpdesk answers as usual.\n\nThanks"
        )
        out.append(
            f"发件人：陈子晨 <{a}@corp.example.com>\n收件人：研发中心\n时间：2026-02-20\n"
            "主题：报销流程调整\n\n大家好：\n\n从下月起，报销统一走新的财务系统。\n\n此致"
        )
        out.append(
            f"> From: {a}@partner.example.net\n> Sent: Monday\n> To: {b}@corp.example.com; "
            f"{person()}@corp.example.com\n> Subject: Re: quote\n>\n> Attached is the quote."
        )
        out.append(
            f"寄件者：{a}@corp.example.com\n主旨：會議改期\n\n週四的評審會改到週五上午十點。"
        )
    return out


@pytest.mark.parametrize("text", envelopes())
def test_envelope_addresses_are_not_personal_data(inspector: Inspector, text: str) -> None:
    assert pii_rules(inspector, text) == set()
    assert inspector.inspect(text, Source.TOOL).decision is Decision.APPROVE


def test_lone_sender_line_is_still_personal(inspector: Inspector) -> None:
    text = f"From: Laura Benson <{person()}@example.org>"
    assert "MG-PII-001" in pii_rules(inspector, text)


def test_long_recipient_list_is_a_list(inspector: Inspector) -> None:
    names = ", ".join(f"{person()}@example.org" for _ in range(5))
    text = f"Subject: offsite attendees\nTo: {names}\n\nSee you there."
    report = inspector.inspect(text, Source.TOOL)
    assert "MG-PII-001" in {f.rule_id for f in report.findings}
    assert report.decision is not Decision.APPROVE


@pytest.mark.parametrize(
    "body",
    [
        "PS: my private address is {a}@gmail.com if you need me on leave.",
        "附：客户联系人邮箱 {a}@example.com，请跟进。",
    ],
)
def test_address_in_the_body_still_counts(inspector: Inspector, body: str) -> None:
    sender = person()
    text = (
        f"From: {sender}@corp.example.com\nTo: team@corp.example.com\nSubject: leave\n\n"
        + body.format(a=person())
    )
    report = inspector.inspect(text, Source.TOOL)
    assert report.decision is not Decision.APPROVE
    assert any(f.rule_id in {"MG-PII-001", "MG-ID-002"} for f in report.findings)


def test_idn_address_in_an_envelope(inspector: Inspector) -> None:
    text = "发件人：王芳 <王芳@例子.中国>\n收件人：研发中心\n主题：周报\n\n本周完成接口联调。"
    assert pii_rules(inspector, text) == set()
    lone = "客户联系人：王芳，邮箱 王芳@例子.中国"
    assert "MG-ID-002" in pii_rules(inspector, lone)
