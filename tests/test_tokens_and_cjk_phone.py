"""Vendor tokens that had no rule (OpenRouter, ngrok, JD Cloud; PostHog personal keys of
any length), and a Chinese mobile number written right after a Chinese character
(`手机号是131…`: a CJK character is a word character, so `\\w` boundaries hid it), through
the public Inspector: sent to review and redacted; look-alikes stay approved."""

from __future__ import annotations

import random
import string

import pytest

from memgate.domain import Decision, Source
from memgate.trust.inspector import Inspector

R = random.Random(20261207)


def alnum(n: int) -> str:
    return "".join(R.choice(string.ascii_letters + string.digits) for _ in range(n))


def hexd(n: int) -> str:
    return "".join(R.choice("0123456789abcdef") for _ in range(n))


def upper(n: int) -> str:
    return "".join(R.choice(string.ascii_uppercase + string.digits) for _ in range(n))


def mobile() -> str:
    return "1" + R.choice("3456789") + "".join(R.choice(string.digits) for _ in range(9))


SECRETS = [
    (f"using openrouter now, full key: sk-or-v1-{hexd(64)}", "MG-SEC-107"),
    (f"ngrok config add-authtoken 2{alnum(26)}_{alnum(21)}", "MG-SEC-108"),
    (f"京东云的 AK 是 JDC_{upper(28)}，给对象存储用的。", "MG-SEC-109"),
    (f"posthog personal key: phx_{alnum(47)}", "MG-SEC-076"),
]
PHONES = [f"我妈的手机号是{mobile()}，快递到了让他们打这个。", f"联系人王芳{mobile()}（白天）"]
LOOKALIKES = [
    "set OPENROUTER_API_KEY=sk-or-v1-... in your shell profile",
    "ngrok config add-authtoken $NGROK_AUTHTOKEN",
    "JDC_ACCESS_KEY_ID=<your key>",
    "订单号202411301234567，请查收。",
    "版本号V13123669840B 已发布",
]


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default()


@pytest.mark.parametrize(("text", "rule"), SECRETS)
def test_vendor_tokens_go_to_review_redacted(inspector: Inspector, text: str, rule: str) -> None:
    report = inspector.inspect(text, Source.USER)
    assert rule in {f.rule_id for f in report.findings}
    assert report.decision is not Decision.APPROVE
    value = text.split()[-1].rstrip("，。给对象存储用的")
    assert value[:12] not in report.redacted


@pytest.mark.parametrize("text", PHONES)
def test_cn_mobile_after_a_chinese_character(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.USER)
    assert "MG-PII-002" in {f.rule_id for f in report.findings}
    assert report.decision is not Decision.APPROVE


@pytest.mark.parametrize("text", LOOKALIKES)
def test_lookalikes_stay_approved(inspector: Inspector, text: str) -> None:
    assert inspector.inspect(text, Source.USER).decision is Decision.APPROVE, text
