# ruff: noqa: E501  (hand-written case data, kept as written)
"""Set C core: the case record, seeded fake values and their checks. Every
identifier is random; check digits are confirmed by python-stdnum, phones by
phonenumbers, bank cards by the Luhn check. Nothing here is a real value."""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

import phonenumbers
from stdnum import iban, luhn
from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.cn import ric, uscc
from stdnum.es import dni
from stdnum.fi import hetu
from stdnum.in_ import aadhaar, pan
from stdnum.kr import rrn
from stdnum.my import nric
from stdnum.se import personnummer
from stdnum.th import pin
from stdnum.tr import tckimlik
from stdnum.us import ssn

VALIDATORS = {
    "cn_ric": ric.is_valid,
    "cn_uscc": uscc.is_valid,
    "bank_card": luhn.is_valid,
    "iban": iban.is_valid,
    "br_cpf": cpf.is_valid,
    "ca_sin": sin.is_valid,
    "es_dni": dni.is_valid,
    "fi_hetu": hetu.is_valid,
    "in_aadhaar": aadhaar.is_valid,
    "in_pan": pan.is_valid,
    "kr_rrn": rrn.is_valid,
    "my_nric": nric.is_valid,
    "se_pnr": personnummer.is_valid,
    "th_pin": pin.is_valid,
    "tr_tc": tckimlik.is_valid,
    "us_ssn": ssn.is_valid,
}


def check_ident(kind: str, value: str) -> bool:
    if kind == "cn_passport":  # no check digit: the NIA shape E/EA/G + digits
        return (
            len(value) == 9
            and value[0] in "EG"
            and (value[1:].isdigit() or (value[1].isalpha() and value[2:].isdigit()))
        )
    return bool(VALIDATORS[kind](value))


def phone_ok(number: str, region: str | None) -> bool:
    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(number, region))
    except phonenumbers.NumberParseException:
        return False


@dataclass(frozen=True)
class Case:
    label: str
    family: str
    source: str
    lang: str
    hard: bool
    note: str
    text: str


class Fake:
    """Seeded fake values; `checks` records (kind, value) of every identifier made."""

    def __init__(self, seed: str) -> None:
        self.r = random.Random(seed)
        self.checks: list[tuple[str, str]] = []

    def s(self, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def hexs(self, n: int) -> str:
        return self.s(n, "0123456789abcdef")

    def digits(self, n: int) -> str:
        return self.s(n, string.digits)

    def uuid(self) -> str:
        h = self.hexs(32)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    def _until(self, kind: str, make) -> str:
        while True:
            v = make()
            if check_ident(kind, v):
                self.checks.append((kind, v))
                return v

    # identifiers
    def cn_ric(self) -> str:
        areas = [
            "110105",
            "310115",
            "440305",
            "330106",
            "510107",
            "420111",
            "320102",
            "370202",
            "610113",
            "350203",
        ]

        def mk():
            body = (
                self.r.choice(areas)
                + f"{self.r.randint(1965, 2003)}{self.r.randint(1, 12):02d}{self.r.randint(1, 28):02d}"
                + self.digits(3)
            )
            return body + ric.calc_check_digit(body)

        return self._until("cn_ric", mk)

    def cn_uscc(self) -> str:
        def mk():
            body = (
                "91"
                + self.r.choice(["110108", "310115", "440300", "330100"])
                + self.s(9, "0123456789ABCDEFGHJKLMNPQRTUWXY")
            )
            return body + uscc.calc_check_digit(body)

        return self._until("cn_uscc", mk)

    def bank_card(self) -> str:
        def mk():
            body = self.r.choice(
                ["622202", "621700", "622848", "621483", "622588", "625965"]
            ) + self.digits(12 if self.r.random() < 0.6 else 9)
            return body + luhn.calc_check_digit(body)

        return self._until("bank_card", mk)

    def cn_passport(self) -> str:
        return self._until("cn_passport", lambda: self.r.choice(["E", "E", "G"]) + self.digits(8))

    def iban_de(self) -> str:
        bban = self.digits(18)
        for cd in range(100):
            v = f"DE{cd:02d}{bban}"
            if iban.is_valid(v):
                self.checks.append(("iban", v))
                return v
        return self.iban_de()

    def other(self, kind: str) -> str:
        d = self.digits
        makers = {
            "br_cpf": lambda: d(11),
            "ca_sin": lambda: self.r.choice("12345679") + d(8),
            "es_dni": lambda: d(8) + self.r.choice("TRWAGMYFPDXBNJZSQVHLCKE"),
            "fi_hetu": lambda: (
                f"{self.r.randint(1, 28):02d}{self.r.randint(1, 12):02d}{self.r.randint(70, 99)}-{self.r.randint(2, 899):03d}"
                + self.r.choice("0123456789ABCDEFHJKLMNPRSTUVWXY")
            ),
            "in_aadhaar": lambda: self.r.choice("23456789") + d(11),
            "in_pan": lambda: (
                self.s(3, string.ascii_uppercase)
                + "P"
                + self.s(1, string.ascii_uppercase)
                + d(4)
                + self.s(1, string.ascii_uppercase)
            ),
            "kr_rrn": lambda: (
                f"{self.r.randint(70, 99)}{self.r.randint(1, 12):02d}{self.r.randint(1, 28):02d}"
                + self.r.choice("12")
                + d(6)
            ),
            "my_nric": lambda: (
                f"{self.r.randint(70, 99)}{self.r.randint(1, 12):02d}{self.r.randint(1, 28):02d}"
                + self.r.choice(["14", "10", "08", "01"])
                + d(4)
            ),
            "se_pnr": lambda: (
                f"{self.r.randint(60, 99)}{self.r.randint(1, 12):02d}{self.r.randint(1, 28):02d}-"
                + d(4)
            ),
            "th_pin": lambda: self.r.choice("12345678") + d(12),
            "tr_tc": lambda: self.r.choice("123456789") + d(10),
            "us_ssn": lambda: (
                f"{self.r.randint(100, 665)}-{self.r.randint(10, 99)}-{self.r.randint(1000, 9999)}"
            ),
        }
        return self._until(kind, makers[kind])

    def cn_mobile(self) -> str:
        while True:
            v = self.r.choice(
                ["138", "139", "136", "150", "158", "186", "188", "177", "135", "199"]
            ) + self.digits(8)
            if phone_ok(v, "CN"):
                self.checks.append(("phone", "CN:" + v))
                return v

    def phone(self, region: str, fmt) -> str:
        while True:
            v = fmt(self)
            if phone_ok(v, region):
                self.checks.append(("phone", f"{region}:{v}"))
                return v

    # vendor-shaped tokens (random, fake)
    def aliyun(self) -> tuple[str, str]:
        return "LTAI5t" + self.s(18), self.s(30)

    def tencent(self) -> tuple[str, str]:
        return "AKID" + self.s(32), self.s(32)

    def huawei(self) -> tuple[str, str]:
        return self.s(20, string.ascii_uppercase + string.digits), self.s(40)

    def baidu(self) -> tuple[str, str]:
        return self.hexs(32), self.hexs(32)

    def feishu_hook(self) -> str:
        return "https://open.feishu.cn/open-apis/bot/v2/hook/" + self.uuid()

    def dingtalk_hook(self) -> str:
        return "https://oapi.dingtalk.com/robot/send?access_token=" + self.hexs(64)

    def dingtalk_secret(self) -> str:
        return "SEC" + self.hexs(64)

    def wecom_hook(self) -> str:
        return "https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=" + self.uuid()

    def github(self) -> str:
        return "ghp_" + self.s(36)

    def aws(self) -> tuple[str, str]:
        return "AKIA" + self.s(16, string.ascii_uppercase + "234567"), self.s(
            40, string.ascii_letters + string.digits + "/+"
        )

    def slack(self) -> str:
        return f"xoxb-{self.digits(12)}-{self.digits(13)}-{self.s(24)}"

    def openai(self) -> str:
        return "sk-proj-" + self.s(48, string.ascii_letters + string.digits + "_-")

    def stripe(self) -> str:
        return "sk_live_" + self.s(24)

    def password(self) -> str:
        words = [
            "Tiger",
            "Moon",
            "Haidian",
            "Xihu",
            "Panda",
            "Lotus",
            "Qilin",
            "Bamboo",
            "River",
            "Cloud",
        ]
        return (
            self.r.choice(words)
            + self.s(1, "@#!$%&*")
            + self.digits(self.r.randint(3, 5))
            + self.s(2, string.ascii_lowercase)
        )
