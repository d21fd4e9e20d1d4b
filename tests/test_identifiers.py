"""Personal identifiers through the public interface: national IDs, tax and bank numbers
(python-stdnum), phones of every region (phonenumbers), IDN e-mail.

Every identifier is constructed here: a random body with its check digits computed by
stdnum (or, for phones, libphonenumber's own example numbers), never anyone's data.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import phonenumbers
import pytest
from stdnum import iban, luhn, verhoeff
from stdnum.br import cpf
from stdnum.es import dni
from stdnum.fr import nir
from stdnum.it import codicefiscale
from stdnum.jp import in_ as jp_in
from stdnum.kr import rrn
from stdnum.pl import pesel
from stdnum.th import pin
from stdnum.tr import tckimlik

from memgate.domain import Category, Source
from memgate.scanning.identifiers import gb_nino_valid, hkid_valid, is_fictional_context, twid_valid
from memgate.trust import Inspector

RNG = random.Random(14)


def _digits(n: int, first: str = "123456789") -> str:
    return RNG.choice(first) + "".join(RNG.choice("0123456789") for _ in range(n - 1))


def _se() -> str:
    body = (
        f"{RNG.randrange(50, 99)}{RNG.randrange(1, 13):02d}{RNG.randrange(1, 28):02d}{_digits(3)}"
    )
    return f"{body[:6]}-{body[6:]}{luhn.calc_check_digit(body)}"


def _es() -> str:
    body = _digits(8)
    return body + dni.calc_check_digit(body)


def _tr() -> str:
    body = _digits(9)
    return body + tckimlik.calc_check_digits(body)


def _kr() -> str:
    while True:
        body = f"{RNG.randrange(60, 99)}{RNG.randrange(1, 13):02d}{RNG.randrange(1, 28):02d}" + (
            RNG.choice("12") + _digits(5, "0123456789")
        )
        full = f"{body[:6]}-{body[6:]}{rrn.calc_check_digit(body)}"
        if rrn.is_valid(full):
            return full


def _ca() -> str:
    body = _digits(8, "1234567")
    return body + luhn.calc_check_digit(body)


def _aadhaar() -> str:
    body = _digits(11, "23456789")
    full = body + verhoeff.calc_check_digit(body)
    return f"{full[:4]} {full[4:8]} {full[8:]}"


def _cpf() -> str:
    while True:
        body = _digits(9)
        full = body + cpf._calc_check_digits(body)
        if cpf.is_valid(full):
            return f"{full[:3]}.{full[3:6]}.{full[6:9]}-{full[9:]}"


def _nir() -> str:
    born = f"{RNG.choice('12')}{RNG.randrange(50, 99)}{RNG.randrange(1, 13):02d}"
    body = born + _digits(8, "0123456789")
    return body + nir.calc_check_digits(body)


def _cf() -> str:
    body = "RSSMRA" + f"{RNG.randrange(50, 99)}" + "T" + f"{RNG.randrange(10, 28)}" + "H501"
    return body + codicefiscale.calc_check_digit(body)


def _jp() -> str:
    body = _digits(11)
    return body + jp_in.calc_check_digit(body)


def _th() -> str:
    body = _digits(12)
    return body + pin.calc_check_digit(body)


def _pesel() -> str:
    born = f"{RNG.randrange(50, 99)}{RNG.randrange(1, 13):02d}{RNG.randrange(1, 28):02d}"
    body = born + _digits(4, "0123456789")
    return body + pesel.calc_check_digit(body)


def _iban() -> str:
    bban = "WEST" + _digits(14, "0123456789")
    return f"GB{iban.calc_check_digits('GB00' + bban)}{bban}"


def _ssn() -> str:
    return f"{RNG.randrange(100, 665)}-{RNG.randrange(10, 99)}-{RNG.randrange(1000, 9999)}"


# (rule, generator, EN text, ZH text): each text holds the value once as `{v}`.
FAMILIES: list[tuple[str, Callable[[], str], str, str]] = [
    ("MG-ID-012", _se, "Customer Inger Berg, personnummer {v}.", "瑞典客户 身份证号 {v}，请核对"),
    ("MG-ID-014", _es, "KYC: Lucía Gómez | DNI {v} | Madrid", "西班牙员工 DNI：{v}"),
    ("MG-ID-016", _tr, "Employee record, TC Kimlik No: {v}", "土耳其客户，身份证号 {v}"),
    (
        "MG-ID-017",
        _kr,
        "Korean applicant, resident registration number {v}",
        "韩国客户 身份证号 {v}",
    ),
    ("MG-ID-019", _ca, "Payroll: Marie Roy, SIN {v}, start Monday", "加拿大员工 SIN：{v}"),
    ("MG-ID-020", _aadhaar, "Vendor KYC, Aadhaar number {v}", "印度员工 Aadhaar 号码 {v}"),
    ("MG-ID-022", _cpf, "Cliente João Silva, CPF {v}", "巴西客户 CPF：{v}"),
    ("MG-ID-023", _nir, "Numéro de sécurité sociale : {v}", "法国员工社保号 {v}"),
    ("MG-ID-025", _cf, "Cliente Mario Rossi, codice fiscale {v}", "意大利客户 codice fiscale：{v}"),
    ("MG-ID-026", _jp, "Japanese staff, My Number {v}", "日本员工 マイナンバー {v}"),
    ("MG-ID-029", _th, "Thai customer, national ID {v}", "泰国客户身份证号 {v}"),
    ("MG-ID-030", _pesel, "KYC record | PESEL {v} | Kraków", "波兰客户 PESEL：{v}"),
    ("MG-ID-003", _iban, "Beneficiary: Ada Moss, IBAN {v}", "收款人：邵秀芳\nIBAN：{v}"),
    ("MG-ID-010", _ssn, "Her SSN is {v}, update payroll", "美国员工社会安全号 {v}"),
]


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default(fingerprint_key=b"t")


def _assert_held(inspector: Inspector, text: str, value: str, rule_id: str | None = None) -> None:
    report = inspector.inspect(text, Source.TOOL)
    fired = {f.rule_id for f in report.findings}
    assert report.decision.value == "review", (text, fired)
    assert value not in report.redacted, report.redacted
    if rule_id is not None:
        assert rule_id in fired, (text, fired)


def _assert_no_pii(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.TOOL)
    # The personal-data rules only: the trained classifier (MG-CLS-*) is judged by its own tests.
    pii = [
        (f.rule_id, f.evidence)
        for f in report.findings
        if f.category is Category.PII and f.rule_id.startswith(("MG-ID-", "MG-PII-"))
    ]
    assert not pii, (text, pii)


@pytest.mark.parametrize(("rule_id", "make", "en", "zh"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_national_identifier_goes_to_review(
    inspector: Inspector, rule_id: str, make: Callable[[], str], en: str, zh: str
) -> None:
    for template in (en, zh):
        value = make()
        _assert_held(inspector, template.format(v=value), value, rule_id)
    value = make()
    record = json.dumps({"name": "Test Person", "note": en.format(v=value)}, ensure_ascii=False)
    _assert_held(inspector, record, value)


@pytest.mark.parametrize(("rule_id", "make", "en", "zh"), FAMILIES, ids=[f[0] for f in FAMILIES])
def test_wrong_check_digit_is_not_that_identifier(
    inspector: Inspector, rule_id: str, make: Callable[[], str], en: str, zh: str
) -> None:
    value = make()
    last = value[-1]
    if rule_id == "MG-ID-010" or not last.isdigit():  # SSNs have no check digit
        return  # a check letter: flipping a digit is covered by the other families
    broken = value[:-1] + str((int(last) + 1) % 10)
    report = inspector.inspect(en.format(v=broken), Source.TOOL)
    assert rule_id not in {f.rule_id for f in report.findings}


def test_weak_checksums_need_a_label(inspector: Inspector) -> None:
    for value in (_ca(), _se(), _tr(), _pesel(), _jp()):
        _assert_no_pii(inspector, f"build {value} finished in 3.2 s")


def _example_numbers() -> list[tuple[str, str]]:
    cases = []
    for region in (
        "GB",
        "DE",
        "FR",
        "SE",
        "JP",
        "KR",
        "TW",
        "IN",
        "BR",
        "AU",
        "ES",
        "IT",
        "TH",
        "TR",
    ):
        number = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
        assert number is not None
        fmt = phonenumbers.PhoneNumberFormat
        cases.append((region, phonenumbers.format_number(number, fmt.INTERNATIONAL)))
        cases.append((region, phonenumbers.format_number(number, fmt.NATIONAL)))
    return cases


@pytest.mark.parametrize(("region", "number"), _example_numbers())
def test_phone_numbers_of_every_region(inspector: Inspector, region: str, number: str) -> None:
    for text in (
        f"Please call me on {number} after six.",
        f"紧急联系人：李娜，电话 {number}",
        json.dumps({"name": "Test Person", "mobile": number}),
        f"name,phone\nTest Person,{number}\n",
    ):
        _assert_held(inspector, text, number, "MG-ID-001")


def test_phone_list_in_a_paragraph(inspector: Inspector) -> None:
    text = "Contacts:\n- Ana, +34 612 34 56 78\n- Jonas, 0151 23456789\n- Kim, 010-2345-6789"
    report = inspector.inspect(text, Source.TOOL)
    assert report.decision.value == "review"
    for number in ("612 34 56 78", "23456789", "2345-6789"):
        assert number not in report.redacted


@pytest.mark.parametrize(
    "text",
    [
        "Order 4417283310 shipped on 2024-05-01; invoice 2024-0042.",
        "Released memgate 3.14.159 at 2024-03-15T10:24:07+08:00",
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 fixed the phone parser",
        "Total: 1,234,567.89 EUR, tax 234.56",
        "Customer J*** D**, SSN ***-**-7709, verified.",
        "用户 张* 手机 179****7147 已完成实名认证。",
        "身份证号 171370********9944（已脱敏）",
        "Example: call (555) 0100 to reach the demo line.",
        "Docs use +1-202-555-0143 as the sample support number.",
        "Contact our sales team at sales@example.com or +1 800 555 0100, Mon-Fri.",
        "客服热线 400-820-8820（工作日 9:00-18:00）",
        "Schema: name (string), phone (E.164 string), national_id (string, encrypted).",
        "The SSN field takes 9 digits, for example 123-45-6789.",
        "构建 20240115 完成，耗时 1234567 毫秒，电话会议改到周三",
    ],
)
def test_benign_numbers_stay_unflagged(inspector: Inspector, text: str) -> None:
    _assert_no_pii(inspector, text)


def test_idn_email(inspector: Inspector) -> None:
    _assert_held(inspector, "客户联系人：王芳，邮箱 王芳@例子.中国", "王芳@例子.中国", "MG-ID-002")
    _assert_held(
        inspector, "Kunde Jürgen Müller, jürgen.müller@bücher.de", "jürgen.müller@bücher.de"
    )
    _assert_no_pii(inspector, "Bitte schreiben Sie an info@bücher.de")


def test_labelled_number_without_known_checksum(inspector: Inspector) -> None:
    _assert_held(inspector, "KYC | Sozialversicherungsnummer 566-54-5135 | Siegen", "566-54-5135")
    _assert_held(inspector, "客户张伟，银行账号 6217 0032 8874 5196 203", "6217 0032 8874 5196 203")
    _assert_held(inspector, "Passport no. X42918377, expires 2031", "X42918377")
    _assert_no_pii(inspector, "Subject: 账号通知\nDate: 11 Mar 2025 09:39")


def test_builtin_checks() -> None:
    assert hkid_valid("A123456(3)") and not hkid_valid("A123456(4)")
    assert twid_valid("A123456789") and not twid_valid("A123456788")
    assert gb_nino_valid("AB 12 34 56 C") and not gb_nino_valid("QQ123456C")
    assert not gb_nino_valid("GB123456A")


def test_fictional_context_ignores_example_domains() -> None:
    assert not is_fictional_context("Ticket: Ann (ann.lee@example.net, 3811718518)")
    assert is_fictional_context("Example: call (555) 0100")
    assert is_fictional_context("示例数据：电话 13800000000")
