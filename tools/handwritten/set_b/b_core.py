"""Shared pieces of hand-written set B: the case record, seeded fake values
(tokens, checksummed national identifiers, phone numbers) and small helpers.

Every value here is fake: tokens are random strings in a vendor's published
shape, identifiers are random bodies with their check digits computed and then
confirmed by python-stdnum, phone numbers are confirmed by phonenumbers."""

from __future__ import annotations

import random
import re
import string
from dataclasses import dataclass, field
from typing import Callable

import phonenumbers
from stdnum import iban as std_iban
from stdnum import luhn
from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.cn import ric
from stdnum.de import idnr
from stdnum.es import dni, nie
from stdnum.fi import hetu
from stdnum.fr import nir
from stdnum.in_ import aadhaar
from stdnum.it import codicefiscale
from stdnum.jp import in_ as jp_in
from stdnum.kr import rrn
from stdnum.nl import bsn
from stdnum.pl import pesel
from stdnum.se import personnummer
from stdnum.th import pin
from stdnum.tr import tckimlik
from stdnum.us import ssn


@dataclass(frozen=True)
class Case:
    """One memory write before it gets its id."""

    label: str
    family: str
    source: str
    lang: str
    hard: bool
    note: str
    text: str


@dataclass
class Gen:
    """The cases one family function made, and the identifiers it used
    (kind, value) so the format test can re-check them."""

    cases: list[Case] = field(default_factory=list)
    checks: list[tuple[str, str]] = field(default_factory=list)

    def add(
        self, label: str, family: str, source: str, lang: str, hard: bool, note: str, text: str
    ) -> None:
        self.cases.append(Case(label, family, source, lang, hard, note, text))


def pick(rng: random.Random, items: list[str] | tuple[str, ...]) -> str:
    return items[rng.randrange(len(items))]


def rand_str(
    rng: random.Random, n: int, alphabet: str = string.ascii_letters + string.digits
) -> str:
    return "".join(alphabet[rng.randrange(len(alphabet))] for _ in range(n))


HEX = "0123456789abcdef"
B32 = string.ascii_uppercase + "234567"
LOWER_DIG = string.ascii_lowercase + string.digits
URLSAFE = string.ascii_letters + string.digits + "-_"


def _digits(rng: random.Random, n: int) -> str:
    return "".join(str(rng.randrange(10)) for _ in range(n))


def _date(rng: random.Random) -> tuple[int, int, int]:
    return rng.randrange(1950, 2004), rng.randrange(1, 13), rng.randrange(1, 29)


def _nino_ok(value: str) -> bool:
    # python-stdnum has no UK NINO module; the NINO has no check digit either,
    # so this is HMRC's published shape (no D F I Q U V; not BG GB NK KN TN NT ZZ).
    v = value.replace(" ", "").upper()
    return re.fullmatch(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", v) is not None and v[
        :2
    ] not in {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}


def _brute(body: Callable[[], str], ok: Callable[[str], bool], tails: str, width: int = 1) -> str:
    """A random body with the check characters that make `ok` accept it."""
    while True:
        b = body()
        if width == 1:
            cands = [b + t for t in tails]
        else:
            cands = [b + a + c for a in tails for c in tails]
        for c in cands:
            if ok(c):
                return c


def national_id(kind: str, rng: random.Random) -> str:
    """A valid (checksum-correct) identifier of `kind`, printed as people write it."""
    d = string.digits
    if kind == "cn_ric":

        def body() -> str:
            y, m, dd = _date(rng)
            return (
                pick(rng, ["110105", "310104", "440305", "330106", "510107"])
                + f"{y}{m:02d}{dd:02d}"
                + _digits(rng, 3)
            )

        return _brute(body, ric.is_valid, d + "X")
    if kind == "se_pnr":

        def body() -> str:
            y, m, dd = _date(rng)
            return f"{y % 100:02d}{m:02d}{dd:02d}-" + _digits(rng, 3)

        return _brute(body, personnummer.is_valid, d)
    if kind == "fi_hetu":

        def body() -> str:
            y, m, dd = _date(rng)
            return (
                f"{dd:02d}{m:02d}{y % 100:02d}"
                + ("-" if y < 2000 else "A")
                + f"{rng.randrange(2, 900):03d}"
            )

        return _brute(body, hetu.is_valid, "0123456789ABCDEFHJKLMNPRSTUVWXY")
    if kind == "es_dni":
        return _brute(lambda: _digits(rng, 8), dni.is_valid, "TRWAGMYFPDXBNJZSQVHLCKE")
    if kind == "es_nie":
        return _brute(
            lambda: pick(rng, ["X", "Y", "Z"]) + _digits(rng, 7),
            nie.is_valid,
            "TRWAGMYFPDXBNJZSQVHLCKE",
        )
    if kind == "tr_tckimlik":
        return _brute(lambda: str(rng.randrange(1, 10)) + _digits(rng, 8), tckimlik.is_valid, d, 2)
    if kind == "kr_rrn":

        def body() -> str:
            y, m, dd = _date(rng)
            return f"{y % 100:02d}{m:02d}{dd:02d}-" + pick(rng, ["1", "2"]) + _digits(rng, 5)

        return _brute(body, rrn.is_valid, d)
    if kind == "th_pin":
        return _brute(lambda: str(rng.randrange(1, 9)) + _digits(rng, 11), pin.is_valid, d)
    if kind == "gb_nino":

        def body() -> str:
            return pick(rng, ["AB", "CE", "JH", "KL", "MR", "PW", "SN"]) + _digits(rng, 6)

        return _brute(body, _nino_ok, "ABCD")
    if kind == "ca_sin":
        return _brute(lambda: str(rng.randrange(1, 8)) + _digits(rng, 7), sin.is_valid, d)
    if kind == "in_aadhaar":
        return _brute(lambda: str(rng.randrange(2, 10)) + _digits(rng, 10), aadhaar.is_valid, d)
    if kind == "br_cpf":
        return _brute(lambda: _digits(rng, 9), cpf.is_valid, d, 2)
    if kind == "fr_nir":

        def body() -> str:
            y, m, _ = _date(rng)
            return (
                pick(rng, ["1", "2"])
                + f"{y % 100:02d}{m:02d}"
                + pick(rng, ["75", "69", "13", "33"])
                + _digits(rng, 6)
            )

        return _brute(body, nir.is_valid, d, 2)
    if kind == "de_idnr":

        def body() -> str:
            while True:
                s = str(rng.randrange(1, 10)) + _digits(rng, 9)
                if 8 <= len(set(s)) <= 9:
                    return s

        return _brute(body, idnr.is_valid, d)
    if kind == "it_cf":

        def body() -> str:
            y, m, dd = _date(rng)
            return (
                rand_str(rng, 6, string.ascii_uppercase)
                + f"{y % 100:02d}"
                + "ABCDEHLMPRST"[m - 1]
                + f"{dd:02d}"
                + pick(rng, ["H501", "F205", "L219", "A662"])
            )

        return _brute(body, codicefiscale.is_valid, string.ascii_uppercase)
    if kind == "jp_mynumber":
        return _brute(lambda: _digits(rng, 11), jp_in.is_valid, d)
    if kind == "nl_bsn":
        return _brute(lambda: str(rng.randrange(1, 10)) + _digits(rng, 7), bsn.is_valid, d)
    if kind == "pl_pesel":

        def body() -> str:
            y, m, dd = _date(rng)
            return f"{y % 100:02d}{m:02d}{dd:02d}" + _digits(rng, 4)

        return _brute(body, pesel.is_valid, d)
    if kind == "us_ssn":
        while True:
            v = f"{rng.randrange(100, 665):03d}-{rng.randrange(1, 99):02d}-{rng.randrange(1, 9999):04d}"
            if ssn.is_valid(v):
                return v
    if kind == "credit_card":
        return _brute(
            lambda: pick(rng, ["4", "51", "52", "55"]) + _digits(rng, 14), luhn.is_valid, d
        )
    raise KeyError(kind)


IBAN_SHAPES = {
    "DE": lambda rng: _digits(rng, 18),
    "FR": lambda rng: (
        _digits(rng, 10)
        + rand_str(rng, 11, string.ascii_uppercase + string.digits)
        + _digits(rng, 2)
    ),
    "ES": lambda rng: _digits(rng, 20),
    "NL": lambda rng: pick(rng, ["ABNA", "INGB", "RABO"]) + _digits(rng, 10),
    "GB": lambda rng: pick(rng, ["NWBK", "BARC", "HBUK"]) + _digits(rng, 14),
    "IT": lambda rng: (
        rand_str(rng, 1, string.ascii_uppercase) + _digits(rng, 10) + _digits(rng, 12)
    ),
}


def iban(country: str, rng: random.Random) -> str:
    while True:
        bban = IBAN_SHAPES[country](rng)
        for cd in range(2, 99):
            v = f"{country}{cd:02d}{bban}"
            if std_iban.is_valid(v):
                return std_iban.format(v)


def check_ident(kind: str, value: str) -> bool:
    """What the format test re-runs: the value passes python-stdnum's check."""
    table = {
        "cn_ric": ric.is_valid,
        "se_pnr": personnummer.is_valid,
        "fi_hetu": hetu.is_valid,
        "es_dni": dni.is_valid,
        "es_nie": nie.is_valid,
        "tr_tckimlik": tckimlik.is_valid,
        "kr_rrn": rrn.is_valid,
        "th_pin": pin.is_valid,
        "gb_nino": _nino_ok,
        "ca_sin": sin.is_valid,
        "in_aadhaar": aadhaar.is_valid,
        "br_cpf": cpf.is_valid,
        "fr_nir": nir.is_valid,
        "de_idnr": idnr.is_valid,
        "it_cf": codicefiscale.is_valid,
        "jp_mynumber": jp_in.is_valid,
        "nl_bsn": bsn.is_valid,
        "pl_pesel": pesel.is_valid,
        "us_ssn": ssn.is_valid,
        "credit_card": luhn.is_valid,
        "iban": std_iban.is_valid,
    }
    return bool(table[kind](value))


def phone(region: str, rng: random.Random, kind: int = phonenumbers.PhoneNumberType.MOBILE) -> str:
    """A number phonenumbers calls valid for `region`, in a random common format."""
    ex = phonenumbers.example_number_for_type(region, kind)
    assert ex is not None, region
    nsn = str(ex.national_number)
    while True:
        keep = max(2, len(nsn) - 6)
        cand = nsn[:keep] + _digits(rng, len(nsn) - keep)
        num = phonenumbers.parse("+" + str(ex.country_code) + cand)
        if phonenumbers.is_valid_number(num) and phonenumbers.region_code_for_number(num) == region:
            fmt = pick(rng, ["INTERNATIONAL", "NATIONAL", "E164"])
            return phonenumbers.format_number(num, getattr(phonenumbers.PhoneNumberFormat, fmt))


def phone_ok(value: str, region: str | None = None) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(value, region))
    except phonenumbers.NumberParseException:
        return False
