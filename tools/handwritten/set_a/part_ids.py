# ruff: noqa: E501  (case data: long literals are kept on one line, as written)
"""Identifiers that pass python-stdnum's checks and phone numbers that pass
libphonenumber's, built from a seeded Random so the set is reproducible.

The check digits are found by trying every completion of a random body in a
fixed order (the first valid one wins) instead of re-implementing each
country's checksum here: stdnum is the contract, so stdnum decides."""

from __future__ import annotations

import itertools
import random
import string
from collections.abc import Callable

import phonenumbers
from stdnum import iban
from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.cl import rut
from stdnum.cn import ric
from stdnum.de import idnr
from stdnum.dk import cpr
from stdnum.es import dni, nie
from stdnum.fi import hetu
from stdnum.fr import nir
from stdnum.in_ import aadhaar, pan
from stdnum.it import codicefiscale
from stdnum.jp import in_ as jp_in
from stdnum.kr import rrn
from stdnum.nl import bsn
from stdnum.no import fodselsnummer
from stdnum.pl import pesel
from stdnum.se import personnummer
from stdnum.th import pin
from stdnum.tr import tckimlik
from stdnum.us import ssn
from stdnum.za import idnr as za_idnr

DIG = string.digits


def _complete(valid: Callable[[str], bool], body: str, alphabet: str, n: int) -> str | None:
    for tail in itertools.product(alphabet, repeat=n):
        cand = body.replace("?" * n, "".join(tail), 1)
        if valid(cand):
            return cand
    return None


def _digits(rng: random.Random, n: int, first: str = "123456789") -> str:
    return rng.choice(first) + "".join(rng.choice(DIG) for _ in range(n - 1))


def _date(rng: random.Random, lo: int = 1950, hi: int = 2003) -> tuple[int, int, int]:
    return rng.randint(lo, hi), rng.randint(1, 12), rng.randint(1, 28)


def _make(rng: random.Random, kind: str) -> str:
    for _ in range(200):
        y, m, d = _date(rng)
        if kind == "us_ssn":
            area = rng.choice([rng.randint(1, 665), rng.randint(667, 899)])
            val = f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"
            if ssn.is_valid(val):
                return val
            continue
        if kind == "cn_ric":
            area = rng.choice(
                ["110105", "310104", "440305", "510107", "330106", "420102", "320102"]
            )
            out = _complete(
                ric.is_valid, f"{area}{y}{m:02d}{d:02d}{rng.randint(0, 999):03d}?", DIG + "X", 1
            )
        elif kind == "se_personnummer":
            out = _complete(
                personnummer.is_valid,
                f"{y % 100:02d}{m:02d}{d:02d}-{rng.randint(0, 999):03d}?",
                DIG,
                1,
            )
        elif kind == "fi_hetu":
            sep = "-" if y < 2000 else "A"
            out = _complete(
                hetu.is_valid,
                f"{d:02d}{m:02d}{y % 100:02d}{sep}{rng.randint(2, 899):03d}?",
                "0123456789ABCDEFHJKLMNPRSTUVWXY",
                1,
            )
        elif kind == "es_dni":
            out = _complete(
                dni.is_valid, f"{rng.randint(10**7, 10**8 - 1)}?", string.ascii_uppercase, 1
            )
        elif kind == "es_nie":
            out = _complete(
                nie.is_valid,
                f"{rng.choice('XYZ')}{rng.randint(10**6, 10**7 - 1)}?",
                string.ascii_uppercase,
                1,
            )
        elif kind == "tr_tckimlik":
            out = _complete(tckimlik.is_valid, _digits(rng, 9) + "??", DIG, 2)
        elif kind == "kr_rrn":
            g = rng.choice("12") if y < 2000 else rng.choice("34")
            out = _complete(
                rrn.is_valid, f"{y % 100:02d}{m:02d}{d:02d}-{g}{rng.randint(0, 99999):05d}?", DIG, 1
            )
        elif kind == "th_pin":
            out = _complete(pin.is_valid, _digits(rng, 12, "12345678") + "?", DIG, 1)
        elif kind == "ca_sin":
            body = _digits(rng, 8, "1234567")
            out = _complete(sin.is_valid, f"{body[:3]}-{body[3:6]}-{body[6:]}?", DIG, 1)
        elif kind == "in_aadhaar":
            body = _digits(rng, 11, "23456789")
            out = _complete(aadhaar.is_valid, f"{body[:4]} {body[4:8]} {body[8:]}?", DIG, 1)
        elif kind == "in_pan":
            letters = "".join(rng.choice(string.ascii_uppercase) for _ in range(3))
            val = f"{letters}P{rng.choice(string.ascii_uppercase)}{rng.randint(1000, 9999)}{rng.choice(string.ascii_uppercase)}"
            out = val if pan.is_valid(val) else None
        elif kind == "br_cpf":
            b = _digits(rng, 9)
            out = _complete(cpf.is_valid, f"{b[:3]}.{b[3:6]}.{b[6:]}-??", DIG, 2)
        elif kind == "fr_nir":
            out = _complete(
                nir.is_valid,
                f"{rng.choice('12')}{y % 100:02d}{m:02d}{rng.randint(1, 95):02d}"
                f"{rng.randint(1, 999):03d}{rng.randint(1, 999):03d}??",
                DIG,
                2,
            )
        elif kind == "de_idnr":
            out = _complete(idnr.is_valid, _digits(rng, 10) + "?", DIG, 1)
        elif kind == "it_codicefiscale":
            sur = "".join(rng.choice("BCDFGLMNPRSTVZ") for _ in range(3))
            nam = "".join(rng.choice("BCDFGLMNPRSTVZ") for _ in range(3))
            out = _complete(
                codicefiscale.is_valid,
                f"{sur}{nam}{y % 100:02d}{'ABCDEHLMPRST'[m - 1]}"
                f"{d + rng.choice([0, 40]):02d}{rng.choice('ABCDFHLMF')}{rng.randint(100, 999)}?",
                string.ascii_uppercase,
                1,
            )
        elif kind == "jp_mynumber":
            out = _complete(jp_in.is_valid, _digits(rng, 11) + "?", DIG, 1)
        elif kind == "pl_pesel":
            mm = m if y < 2000 else m + 20
            out = _complete(
                pesel.is_valid, f"{y % 100:02d}{mm:02d}{d:02d}{rng.randint(0, 9999):04d}?", DIG, 1
            )
        elif kind == "nl_bsn":
            out = _complete(bsn.is_valid, _digits(rng, 8) + "?", DIG, 1)
        elif kind == "dk_cpr":
            out = _complete(
                cpr.is_valid, f"{d:02d}{m:02d}{y % 100:02d}-{rng.randint(0, 999):03d}?", DIG, 1
            )
        elif kind == "no_fodselsnummer":
            out = _complete(
                fodselsnummer.is_valid,
                f"{d:02d}{m:02d}{y % 100:02d}{rng.randint(0, 499):03d}??",
                DIG,
                2,
            )
        elif kind == "cl_rut":
            b = rng.randint(5_000_000, 25_000_000)
            s = f"{b:,}".replace(",", ".")
            out = _complete(rut.is_valid, f"{s}-?", DIG + "K", 1)
        elif kind == "za_idnr":
            out = _complete(
                za_idnr.is_valid,
                f"{y % 100:02d}{m:02d}{d:02d}{rng.randint(0, 9999):04d}{rng.choice('01')}8?",
                DIG,
                1,
            )
        elif kind == "iban_de":
            out = _complete(
                iban.is_valid,
                f"DE??{rng.randint(10**7, 10**8 - 1)}{rng.randint(10**9, 10**10 - 1)}",
                DIG,
                2,
            )
        elif kind == "iban_gb":
            out = _complete(
                iban.is_valid,
                f"GB??NWBK{rng.randint(100000, 999999)}{rng.randint(10**7, 10**8 - 1)}",
                DIG,
                2,
            )
        else:
            raise KeyError(kind)
        if out:
            return out
    raise RuntimeError(kind)


# kind -> (label in English, label in Chinese)
ID_KINDS = {
    "us_ssn": ("SSN", "美国社会安全号"),
    "cn_ric": ("resident ID", "身份证号"),
    "se_personnummer": ("personnummer", "瑞典个人号"),
    "fi_hetu": ("HETU", "芬兰身份号"),
    "es_dni": ("DNI", "西班牙DNI"),
    "es_nie": ("NIE", "西班牙NIE"),
    "tr_tckimlik": ("T.C. Kimlik No", "土耳其身份号"),
    "kr_rrn": ("RRN", "韩国居民登录号"),
    "th_pin": ("Thai ID", "泰国身份证号"),
    "ca_sin": ("SIN", "加拿大社会保险号"),
    "in_aadhaar": ("Aadhaar", "Aadhaar号"),
    "in_pan": ("PAN", "印度PAN"),
    "br_cpf": ("CPF", "巴西CPF"),
    "fr_nir": ("numéro de sécurité sociale", "法国社保号"),
    "de_idnr": ("Steuer-IdNr", "德国税号"),
    "it_codicefiscale": ("codice fiscale", "意大利税号"),
    "jp_mynumber": ("My Number", "日本个人编号"),
    "pl_pesel": ("PESEL", "波兰PESEL"),
    "nl_bsn": ("BSN", "荷兰BSN"),
    "dk_cpr": ("CPR", "丹麦CPR"),
    "no_fodselsnummer": ("fødselsnummer", "挪威出生号"),
    "cl_rut": ("RUT", "智利RUT"),
    "za_idnr": ("SA ID", "南非身份号"),
    "iban_de": ("IBAN", "银行账户IBAN"),
    "iban_gb": ("IBAN", "IBAN账号"),
}


VALIDATORS: dict[str, Callable[[str], bool]] = {
    "us_ssn": ssn.is_valid,
    "cn_ric": ric.is_valid,
    "se_personnummer": personnummer.is_valid,
    "fi_hetu": hetu.is_valid,
    "es_dni": dni.is_valid,
    "es_nie": nie.is_valid,
    "tr_tckimlik": tckimlik.is_valid,
    "kr_rrn": rrn.is_valid,
    "th_pin": pin.is_valid,
    "ca_sin": sin.is_valid,
    "in_aadhaar": aadhaar.is_valid,
    "in_pan": pan.is_valid,
    "br_cpf": cpf.is_valid,
    "fr_nir": nir.is_valid,
    "de_idnr": idnr.is_valid,
    "it_codicefiscale": codicefiscale.is_valid,
    "jp_mynumber": jp_in.is_valid,
    "pl_pesel": pesel.is_valid,
    "nl_bsn": bsn.is_valid,
    "dk_cpr": cpr.is_valid,
    "no_fodselsnummer": fodselsnummer.is_valid,
    "cl_rut": rut.is_valid,
    "za_idnr": za_idnr.is_valid,
    "iban_de": iban.is_valid,
    "iban_gb": iban.is_valid,
}


def check_ident(kind: str, value: str) -> bool:
    """Whether python-stdnum accepts `value` as an identifier of `kind`."""
    return bool(VALIDATORS[kind](value))


def phone_ok(number: str, region: str | None) -> bool:
    """Whether libphonenumber accepts `number` as written (national formats need `region`)."""
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(number, region))
    except phonenumbers.NumberParseException:
        return False


def national_id(rng: random.Random, kind: str, checks: list[tuple[str, str]]) -> str:
    """A valid identifier of `kind`; (kind, value) is appended to `checks`."""
    val = _make(rng, kind)
    if not check_ident(kind, val):
        raise RuntimeError(kind)
    checks.append((kind, val))
    return val


PHONE_REGIONS = [
    "US",
    "GB",
    "DE",
    "FR",
    "CN",
    "JP",
    "IN",
    "BR",
    "AU",
    "CA",
    "KR",
    "SG",
    "HK",
    "TW",
    "ES",
    "IT",
    "NL",
    "SE",
    "MX",
    "ZA",
]


def phone(rng: random.Random, region: str, checks: list[tuple[str, str]]) -> str:
    """A valid mobile number of `region` in one of several written formats;
    ("phone", "REGION:number") is appended to `checks`."""
    val = _phone(rng, region)
    if not phone_ok(val, region):
        raise RuntimeError(region)
    checks.append(("phone", f"{region}:{val}"))
    return val


def _phone(rng: random.Random, region: str) -> str:
    ex = phonenumbers.example_number_for_type(region, phonenumbers.PhoneNumberType.MOBILE)
    nsn = str(ex.national_number)
    for _ in range(500):
        keep = max(2, len(nsn) - 6)
        cand = nsn[:keep] + "".join(rng.choice(DIG) for _ in range(len(nsn) - keep))
        num = phonenumbers.parse("+" + str(ex.country_code) + cand)
        if phonenumbers.is_valid_number(num):
            style = rng.randrange(5)
            if style == 0:
                return phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.E164)
            if style == 1:
                return phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
            if style == 2:
                return phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.NATIONAL)
            if style == 3:
                return phonenumbers.format_number(
                    num, phonenumbers.PhoneNumberFormat.INTERNATIONAL
                ).replace(" ", ".")
            return f"+{ex.country_code}-{cand}"
    raise RuntimeError(region)
