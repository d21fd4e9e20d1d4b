"""Personal identifiers in the shapes real records take, through the public interface.

- A person whose surname is a word like Example, Sample, Placeholder or Demo is still a
  person: the fictional-context filter reads those words only as words about the data.
- Structured records give an ID's kind by a country code and a generic key
  (`{"country": "SE", "number": …}`, CSV `country,id_number`): the number is checked
  with that country's personal-number module.
- IBAN with a BIC beside it, spaced NINO, 手机 +CC phones, CSV columns under one
  header, month-named birth dates, alphanumeric passports, IDN e-mail at `.example`.

Every value is built here (random body, check digits computed with python-stdnum;
phones from libphonenumber's example numbers): never anyone's data.
"""

from __future__ import annotations

import json
import random

import phonenumbers
import pytest
from stdnum import iban, luhn, verhoeff
from stdnum.es import dni
from stdnum.it import codicefiscale
from stdnum.pl import pesel
from stdnum.tr import tckimlik

from memgate.domain import Category, Source
from memgate.scanning.identifiers import is_fictional_context, twid_valid
from memgate.trust import Inspector

RNG = random.Random(2026)

FIRST = ["Maja", "Tomasz", "Keiko", "Oluwaseun", "Björn", "Priya", "Rafael", "Aoife"]
SURNAMES = ["Example", "Sample", "Placeholder", "Demo", "Dummy", "Mock", "Fake", "Synthetic"]


def _digits(n: int, first: str = "123456789") -> str:
    return RNG.choice(first) + "".join(RNG.choice("0123456789") for _ in range(n - 1))


def _name() -> str:
    return f"{RNG.choice(FIRST)} {RNG.choice(SURNAMES)}"


def _pesel() -> str:
    while True:
        body = f"{RNG.randrange(60, 99)}{RNG.randrange(1, 13):02d}{RNG.randrange(1, 28):02d}"
        body += _digits(4, "0123456789")
        value = body + pesel.calc_check_digit(body)
        if pesel.is_valid(value):
            return value


def _tr() -> str:
    body = _digits(9)
    return body + tckimlik.calc_check_digits(body)


def _se() -> str:
    body = f"{RNG.randrange(50, 99)}{RNG.randrange(1, 13):02d}{RNG.randrange(1, 28):02d}"
    body += _digits(3, "0123456789")
    return f"{body[:6]}-{body[6:]}{luhn.calc_check_digit(body)}"


def _aadhaar(spaced: bool = True) -> str:
    body = _digits(11, "23456789")
    value = body + verhoeff.calc_check_digit(body)
    return f"{value[:4]} {value[4:8]} {value[8:]}" if spaced else value


def _za() -> str:
    body = (
        f"{RNG.randrange(60, 99)}{RNG.randrange(1, 13):02d}{RNG.randrange(1, 28):02d}"
        + _digits(4, "0123456789")
        + "08"
    )
    return body + luhn.calc_check_digit(body)


def _es() -> str:
    body = _digits(8)
    return body + dni.calc_check_digit(body)


_TW_LETTER = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))


def _tw() -> str:
    letter = RNG.choice("ABCDEFGHJKLMNPQRSTUVXYWZIO")
    body = RNG.choice("12") + _digits(7, "0123456789")
    code = _TW_LETTER[letter]
    total = code // 10 + (code % 10) * 9
    total += sum(int(d) * w for d, w in zip(body, range(8, 0, -1), strict=True))
    value = f"{letter}{body}{(10 - total % 10) % 10}"
    assert twid_valid(value)
    return value


def _cf() -> str:
    letters = "".join(RNG.choice("BCDFGHLMNPRSTVZ") for _ in range(6))
    body = f"{letters}{RNG.randrange(50, 99)}{RNG.choice('ABCDEHLMPRST')}"
    body += f"{RNG.randrange(1, 29):02d}{RNG.choice('FHL')}{RNG.randrange(100, 999)}"
    return body + codicefiscale.calc_check_digit(body)


def _iban(country: str = "DE") -> str:
    bban = _digits(18, "0123456789") if country == "DE" else "ABNA" + _digits(10, "0123456789")
    check = iban.calc_check_digits(f"{country}00{bban}")
    return f"{country}{check}{bban}"


def _spaced(value: str) -> str:
    return " ".join(value[i : i + 4] for i in range(0, len(value), 4))


def _mobile(region: str) -> str:
    number = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    assert number is not None
    return phonenumbers.format_number(number, phonenumbers.PhoneNumberFormat.INTERNATIONAL)


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default(fingerprint_key=b"t")


def _assert_held(inspector: Inspector, text: str, *values: str) -> None:
    report = inspector.inspect(text, Source.TOOL)
    fired = {f.rule_id for f in report.findings}
    assert report.decision.value == "review", (text, fired)
    for value in values:
        assert value not in report.redacted, (value, report.redacted)


def _assert_no_pii(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.TOOL)
    pii = [
        (f.rule_id, f.evidence)
        for f in report.findings
        if f.category is Category.PII and f.rule_id.startswith(("MG-ID-", "MG-PII-"))
    ]
    assert not pii, (text, pii)
    assert report.decision.value == "approve", (text, report.decision)


# ---------------------------------------------------------------- people named Example


def test_the_filter_reads_a_surname_as_a_name() -> None:
    for surname in SURNAMES:
        assert not is_fictional_context(f"Refund to Jordan {surname}, account on file.")
        assert not is_fictional_context(f"客户 Hannah {surname}，手机号已核实")
    for said in (
        "Example: a refund to Jordan Lee.",
        "this is sample data only",
        "for example, a refund to Jordan Lee",
        "e.g. Jordan Lee's refund",
        "EXAMPLE ONLY — do not use",
        "a placeholder value for the form",
        "示例数据：客户 Hannah Lee",
        "Jordan Sample wrote, for example, this",
    ):
        assert is_fictional_context(said), said


@pytest.mark.parametrize("surname", SURNAMES)
def test_person_with_an_example_like_surname(inspector: Inspector, surname: str) -> None:
    first = RNG.choice(FIRST)
    value = _pesel()
    _assert_held(inspector, f"Pacjent {first} {surname}, PESEL {value}.", value)
    value = _tr()
    _assert_held(inspector, f"Müşteri {first} {surname} — TC kimlik no {value}", value)
    value = _iban()
    _assert_held(inspector, f"收款人 {first} {surname}，IBAN：{value}", value)


def test_iban_with_a_bic_beside_it(inspector: Inspector) -> None:
    for country in ("DE", "NL"):
        value = _spaced(_iban(country))
        text = f"Refund details: {_name()}, IBAN {value}, BIC DEUTDEFF500."
        _assert_held(inspector, text, value)
    value = _iban("NL")
    payload = {"payee": _name(), "iban": value, "bic": "ABNANL2A", "amount": 980.5}
    _assert_held(inspector, json.dumps(payload), value)


def test_spaced_national_insurance_number(inspector: Inspector) -> None:
    for value in ("JR 35 06 02 B", "AB 12 34 56 C", "CE 81 47 20 D"):
        text = f"UK employee {_name()}, National Insurance number {value}, tax code 1257L."
        _assert_held(inspector, text, value)
        _assert_held(inspector, f"英国员工 {_name()}，NI number：{value}", value)


@pytest.mark.parametrize("region", ["NL", "DE", "GB", "FR", "SE"])
def test_mobile_after_shouji_with_a_country_code(inspector: Inspector, region: str) -> None:
    value = _mobile(region)
    _assert_held(inspector, f"联系人 {_name()}，手机 {value}，白天都能打通。", value)
    _assert_held(inspector, f"Contact {_name()}, mobile {value}, evenings.", value)


# ---------------------------------------------------------------- records keyed by a country


def _records() -> list[tuple[str, str]]:
    return [
        ("IN", _aadhaar()),
        ("IN", _aadhaar(spaced=False)),
        ("TW", _tw()),
        ("SE", _se()),
        ("TR", _tr()),
        ("ZA", _za()),
        ("IT", _cf()),
        ("PL", _pesel()),
        ("ES", _es()),
    ]


@pytest.mark.parametrize(("country", "value"), _records(), ids=lambda v: str(v)[:2])
def test_record_names_its_country(inspector: Inspector, country: str, value: str) -> None:
    nested = {
        "customer": _name(),
        "id_document": {"country": country, "number": value},
        "status": "verified",
    }
    _assert_held(inspector, "Tool output (crm.lookup):\n" + json.dumps(nested), value)
    flat = {"name": "刘佳怡", "nationality": country.lower(), "id_number": value}
    _assert_held(inspector, "客户登记信息：\n" + json.dumps(flat, ensure_ascii=False), value)
    _assert_held(inspector, f"customer: {_name()}\ncountry: {country}\ndocument_no: {value}", value)


def test_table_with_country_and_id_columns(inspector: Inspector) -> None:
    rows = [("SE", _se()), ("TR", _tr()), ("PL", _pesel())]
    text = "name,country,id_number,plan\n" + "\n".join(
        f"{_name()},{country},{value},basic" for country, value in rows
    )
    _assert_held(inspector, text, *(v for _, v in rows))
    tsv = "姓名\tcountry\tid_number\n" + "\n".join(f"王芳\t{c}\t{v}" for c, v in rows)
    _assert_held(inspector, tsv, *(v for _, v in rows))


def test_record_names_the_document(inspector: Inspector) -> None:
    value = "P" + _digits(7, "0123456789")
    text = json.dumps({"doc_type": "passport", "country": "SE", "number": value})
    _assert_held(inspector, text, value)


def test_table_header_labels_every_row(inspector: Inspector) -> None:
    ssns = [f"{RNG.randrange(101, 665)}{RNG.randrange(10, 99)}{RNG.randrange(1000, 9999)}"]
    ssns += [f"{RNG.randrange(101, 665)}{RNG.randrange(10, 99)}{RNG.randrange(1000, 9999)}"]
    ssns += [f"{RNG.randrange(101, 665)}{RNG.randrange(10, 99)}{RNG.randrange(1000, 9999)}"]
    text = "payroll_export.csv\nemp_id,name,ssn,state\n" + "\n".join(
        f"{1040 + i},{_name()},{v},OH" for i, v in enumerate(ssns)
    )
    _assert_held(inspector, text, *ssns)


# ---------------------------------------------------------------- other shapes


@pytest.mark.parametrize(
    "text",
    [
        "my name is {n}, I live at 42 Elm Street, and my date of birth is 14 March 1988, keep it.",
        "Patient {n}, DOB: March 3rd, 1984, ward 4.",
        "{n} was born on 2 Sept. 1979 in Cork.",
    ],
)
def test_birth_date_with_the_month_named(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text.format(n=_name()), Source.TOOL)
    assert report.decision.value == "review"
    assert not any(y in report.redacted for y in ("1988", "1984", "1979"))


def test_alphanumeric_passport(inspector: Inspector) -> None:
    for value in ("C0W4G1LPP", "K9TX51MRL", "LM4T29XN"):
        _assert_held(inspector, f"Visa appointment for {_name()} — Reisepass Nr. {value}.", value)
        _assert_held(inspector, f"旅客 {_name()}，护照号码 {value}", value)


def test_idn_email_at_the_reserved_example_tld(inspector: Inspector) -> None:
    value = "josé.garcía@correo.example"
    _assert_held(inspector, f"New lead: {_name()}, {value}, prefers calls.", value)


# ---------------------------------------------------------------- benign stays approved


def test_benign_records_and_docs_stay_approved(inspector: Inspector) -> None:
    se, tr, pl, de_iban = _se(), _tr(), _pesel(), _spaced(_iban())
    broken = se[:-1] + str((int(se[-1]) + 1) % 10)
    for text in (
        f"For example, a Swedish personnummer looks like {se}.",
        json.dumps({"note": "sample data", "country": "SE", "number": se}),
        f"e.g. PESEL {pl} is how the form shows it",
        f"示例数据：TC kimlik no {tr}",
        f"Example: IBAN {de_iban}, BIC DEUTDEFF",
        json.dumps({"country": "IN", "number": "XXXX XXXX 4495"}),
        json.dumps({"country": "SE", "number": broken}),
        json.dumps({"country": "SE", "order": {"id": "48213377", "total": 1299.0}}),
        json.dumps({"country": "DE", "version": "2.0.1", "build": 20240115, "id": "88213"}),
        json.dumps({"country": "TR", "ts": "2024-05-01T10:24:07Z", "number": "1714567890123"}),
        "country,price,id\nSE,1299.00,88213\nTR,49.90,88214",
        "order_no,country,amount\n48213377,PL,129.99",
        "x,sin,cos\n0.5,0.479425538,0.877582561\n1.0,0.841470984,0.540302305",
        "sku,tin,qty\nA-1,tin can 330ml,48213\nA-2,tin lid,99120",
        "Bring your passport and 2 photos; passport v2 API uses OAuth2.",
        "Released on 14 March 1988; the date of birth field is required.",
        "Contact: jane.doe@example.org",
        "Customer J*** D**, SSN ***-**-7709, verified.",
    ):
        _assert_no_pii(inspector, text)
