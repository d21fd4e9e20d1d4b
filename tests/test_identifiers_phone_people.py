"""Phone numbers next to a person rather than a phone label, through the public
Inspector: a support ticket naming the customer (`用户 鄭淑芬（03-…）`, `customer
Ola Nordmann (0412 …)`), and a line the writer calls their own ("my number is"),
whatever its type. Both sides: ids, dates and business lines stay approved."""

from __future__ import annotations

import pytest

from memgate.domain import Category, Source
from memgate.trust import Inspector


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default(fingerprint_key=b"phone-test")


def _pii(inspector: Inspector, text: str) -> list[str]:
    report = inspector.inspect(text, Source.AGENT)
    return [f.rule_id for f in report.findings if f.category is Category.PII]


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("工单 #4411：用户 鄭淑芬（03-5712044）反映包裹破损", "5712044"),
        ("工單 #2207：客戶 林雅婷（0912-483716）要求退貨", "483716"),
        ("收件人 王建国（010 6234 5871），周末不在家", "6234 5871"),
        ("Ticket 88: customer Ola Nordmann (0412 345 678) wants a refund", "345 678"),
        ("Patient: Ines Duarte, +351 912 645 378, allergic to penicillin", "645 378"),
        ("I'm Tom Price, my number is +44 300 123 4567, ring after six.", "123 4567"),
        ("我的手机 +44 300 765 4321，白天打", "765 4321"),
    ],
)
def test_number_next_to_a_person_is_found_and_redacted(
    inspector: Inspector, text: str, number: str
) -> None:
    assert _pii(inspector, text), text
    assert number not in inspector.inspect(text, Source.AGENT).redacted


@pytest.mark.parametrize(
    "text",
    [
        "用户 ID 52345678 已注销",
        "用户数 20240315 的报表已生成",
        "client 2024-03-15 release 0.9.12",
        "Customer support: +44 800 123 4567 (free from UK landlines)",
        "customer #10293847 placed order 55120938",
        "member since 2019, 1200 points",
    ],
)
def test_ids_dates_and_business_lines_stay_approved(inspector: Inspector, text: str) -> None:
    assert not _pii(inspector, text), text


@pytest.mark.parametrize(
    "text",
    [
        "Intake summary: patient Grace Holloway, MRN 00482913, follow-up booked.",
        "Customer Janina Bondyra, account 09320541156",
    ],
)
def test_record_numbers_next_to_a_person_are_not_phones(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert "MG-ID-001" not in {f.rule_id for f in report.findings}, text
