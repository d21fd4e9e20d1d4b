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


def _valid(module: object, prefix: str, length: int) -> str:
    """The first number with `prefix` the stdnum module accepts (made up here)."""
    is_valid = module.is_valid  # type: ignore[attr-defined]
    for n in range(10 ** (length - len(prefix))):
        value = prefix + str(n).zfill(length - len(prefix))
        if is_valid(value):
            return value
    raise AssertionError(prefix)


def _national_cases() -> list[tuple[str, str, str]]:
    from stdnum.bg import egn
    from stdnum.cz import rc
    from stdnum.ee import ik
    from stdnum.gb import nhs
    from stdnum.gr import amka
    from stdnum.hr import oib
    from stdnum.ru import inn

    cz = _valid(rc, "856203", 10)
    uk = _valid(nhs, "4857362", 10)
    return [
        ("MG-ID-034", f"Pacientka: Eva Dvořáková, rodné číslo {cz[:6]}/{cz[6:]}", cz[6:]),
        ("MG-ID-035", f"ασθενής, ΑΜΚΑ: {(v := _valid(amka, '1203914', 11))}", v),
        ("MG-ID-036", f"Patient Sam Hale, NHS number {uk[:3]} {uk[3:6]} {uk[6:]}", uk[6:]),
        ("MG-ID-038", f"isikukood {(v := _valid(ik, '49103152', 11))}", v),
        ("MG-ID-039", f"ЕГН на клиента: {(v := _valid(egn, '8512248', 10))}", v),
        ("MG-ID-042", f"OIB: {(v := _valid(oib, '69435151', 11))}", v),
        ("MG-ID-045", f"ИНН физлица {(v := _valid(inn, '7712345', 12))}", v),
    ]


@pytest.mark.parametrize(("rule_id", "text", "value"), _national_cases())
def test_european_national_ids(inspector: Inspector, rule_id: str, text: str, value: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert rule_id in {f.rule_id for f in report.findings}, text
    assert value not in report.redacted


@pytest.mark.parametrize(
    "text",
    [
        "NHS England published 2024 figures: 1234567890 visits",
        "OIB field is required on the form",
        "Holiday Inn, room 4821, confirmation 7707083893",
        "AMKA lookup service returned HTTP 503",
    ],
)
def test_national_id_words_without_their_number(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert not [f for f in report.findings if f.category is Category.PII], text
