"""Passports and driver's licences after their label in the languages around them
(EN, DE, FR, ZH, JA, KO), through the public Inspector: sent to review and redacted;
the same words without a number, masks and class names stay approved."""

from __future__ import annotations

import random

import pytest

from memgate.domain import Category, Source
from memgate.scanning.predicates import licence_number
from memgate.trust import Inspector


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default(fingerprint_key=b"doc-test")


def _digits(rng: random.Random, n: int) -> str:
    first = str(rng.randint(1, 9))
    return first + "".join(str(rng.randint(0, 9)) for _ in range(n - 1))


CASES = [
    ("我的护照号是 EA{d7}，下周出发", 7),
    ("護照號碼 3{d8}", 8),
    ("パスポート番号 TK{d7}", 7),
    ("여권번호 M{d8}", 8),
    ("UK driving licence number: MORGA{d6}SM9IJ", 6),
    ("Führerschein-Nr. B0{d2}RRE2I{d2}", 2),
    ("driver license: F{d4} {d5} {d3}{d2}", 5),
    ("DL# S{d3}-{d4}-{d4}", 4),
    ("驾驶证号码：3{d11}", 11),
    ("運転免許証番号 3{d11}", 11),
    ("permis de conduire n° 12AB{d5}", 5),
]


@pytest.mark.parametrize(("template", "n"), CASES)
def test_document_numbers_sent_to_review(inspector: Inspector, template: str, n: int) -> None:
    for seed in range(3):
        rng = random.Random(f"{template}:{seed}")
        fields = {f"d{k}": _digits(rng, k) for k in (2, 3, 4, 5, 6, 7, 8, 11)}
        text = template.format(**fields)
        report = inspector.inspect(text, Source.AGENT)
        pii = [f for f in report.findings if f.category is Category.PII]
        assert pii and report.decision.value != "approve", text
        assert fields[f"d{n}"] not in report.redacted, text


@pytest.mark.parametrize(
    "text",
    [
        "driver's license required for the rental",
        "driving licence: EXPIRED, renew at the DVLA",
        "Führerschein Klasse B seit 2019",
        "driver's license number: XXXXXXXX",
        "パスポート番号は入国審査で確認されます",
        "请携带护照原件办理登机",
        "dl 2024 report attached",
    ],
)
def test_document_words_without_a_number_stay_approved(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert not [f for f in report.findings if f.category is Category.PII], text


def test_licence_number_predicate() -> None:
    assert licence_number("MORGA753116SM9IJ")
    assert licence_number("F2563 77104 83219")
    assert not licence_number("ABCDEFGH")
    assert not licence_number("11111-11111")
    assert not licence_number("A1234")
