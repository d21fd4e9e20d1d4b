# ruff: noqa: E501
"""Case record, carriers and fake values for set E. Every value is fake:
tokens are random strings in a vendor's shape, national IDs are random
bodies whose check digits python-stdnum confirms, phone numbers are
random subscriber numbers that phonenumbers confirms as valid."""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

import phonenumbers
from stdnum import iban
from stdnum.cn import ric as cn_ric
from stdnum.es import dni as es_dni
from stdnum.fi import hetu as fi_hetu
from stdnum.se import personnummer as se_pnr

SLOT = "@@"  # the payload slot of a carrier


@dataclass(frozen=True)
class Case:
    label: str
    family: str
    source: str
    lang: str
    hard: bool
    note: str
    text: str


def put(carrier: str, payload: str) -> str:
    if carrier.count(SLOT) != 1:
        raise ValueError(carrier[:40])
    return carrier.replace(SLOT, payload)


def rand(rng: random.Random, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


UP_DIG = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"


def token(rng: random.Random, kind: str) -> str:
    if kind == "github":
        return "ghp_" + rand(rng, 36)
    if kind == "slack":
        return f"xoxb-{rand(rng, 12, string.digits)}-{rand(rng, 13, string.digits)}-{rand(rng, 24)}"
    if kind == "stripe":
        return "sk_live_" + rand(rng, 24)
    if kind == "aws":
        return "AKIA" + rand(rng, 16, string.ascii_uppercase + "234567")
    if kind == "aws_secret":
        return rand(rng, 40, string.ascii_letters + string.digits + "/+")
    if kind == "openai":
        return "sk-proj-" + rand(rng, 48)
    if kind == "gitlab":
        return "glpat-" + rand(rng, 20, string.ascii_letters + string.digits + "_-")
    if kind == "sendgrid":
        return f"SG.{rand(rng, 22)}.{rand(rng, 43)}"
    if kind == "npm":
        return "npm_" + rand(rng, 36)
    if kind == "datadog":
        return rand(rng, 32, HEX)
    if kind == "aliyun":
        return "LTAI" + rand(rng, 20)
    if kind == "feishu":
        return rand(rng, 32, HEX)
    raise ValueError(kind)


def cn_id(rng: random.Random) -> str:
    while True:
        body = (
            rng.choice(["110105", "310104", "440305", "330106", "510107"])
            + f"{rng.randint(1965, 2002)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}"
            + f"{rng.randint(0, 999):03d}"
        )
        check = cn_ric.calc_check_digit(body)
        value = body + check
        if cn_ric.is_valid(value):
            return value


def se_id(rng: random.Random) -> str:
    while True:
        d = f"{rng.randint(60, 99)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.randint(0, 999):03d}"
        for c in "0123456789":
            v = f"{d[:6]}-{d[6:]}{c}"
            if se_pnr.is_valid(v):
                return v


def fi_id(rng: random.Random) -> str:
    while True:
        body = f"{rng.randint(1, 28):02d}{rng.randint(1, 12):02d}{rng.randint(70, 99)}-{rng.randint(2, 899):03d}"
        for c in "0123456789ABCDEFHJKLMNPRSTUVWXY":
            if fi_hetu.is_valid(body + c):
                return body + c


def es_id(rng: random.Random) -> str:
    body = f"{rng.randint(10000000, 99999999)}"
    v = body + es_dni.calc_check_digit(body)
    if not es_dni.is_valid(v):
        raise ValueError("es dni")
    return v


def iban_de(rng: random.Random) -> str:
    bban = f"{rng.randint(10000000, 99999999)}{rng.randint(0, 9999999999):010d}"
    num = int(bban + "131400")  # D=13 E=14, check digits 00
    v = f"DE{98 - num % 97:02d}{bban}"
    if not iban.is_valid(v):
        raise ValueError("iban")
    return " ".join(v[i : i + 4] for i in range(0, len(v), 4))


def passport(rng: random.Random) -> str:
    return rng.choice("CFGHJK") + rand(rng, 8, "CFGHJKLMNPRTVWXYZ0123456789")


def phone(rng: random.Random, region: str) -> str:
    prefixes = {
        "CN": ["138", "139", "186", "150", "177"],
        "GB": ["7700 9", "7911 1", "7400 1"],
        "US": ["415", "646", "312"],
        "DE": ["151", "160", "176"],
    }
    while True:
        p = rng.choice(prefixes[region])
        if region == "CN":
            s = f"{p}{rng.randint(0, 99999999):08d}"
            fmt = f"+86 {s[:3]} {s[3:7]} {s[7:]}" if rng.random() < 0.5 else s
        elif region == "GB":
            s = f"0{p}{rng.randint(0, 99999):05d}"
            fmt = s
        elif region == "US":
            s = f"({p}) {rng.randint(201, 989)}-{rng.randint(0, 9999):04d}"
            fmt = s
        else:
            s = f"+49 {p} {rng.randint(1000000, 9999999)}"
            fmt = s
        n = phonenumbers.parse(fmt, region)
        if phonenumbers.is_valid_number(n):
            return fmt
