# ruff: noqa: E501 - hand-written case texts and vendor shapes read best on one line
"""Shared machinery for make_heldout2.py: a seeded generator of fake values
(hosts, credentials in vendor shapes, checksummed national identifiers, phone
numbers, invented names), the case book, carriers that embed a payload in a
realistic artefact, and the validation that runs before anything is written.

Nothing here reads memgate's code, rules or data: the set is written apart from
the detector on purpose (see README.md)."""

from __future__ import annotations

import base64
import hashlib
import ipaddress
import json
import random
import re
import string
from typing import Any

import phonenumbers
from stdnum import iban as std_iban
from stdnum import luhn
from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.ch import ssn as ch_ssn
from stdnum.cl import rut
from stdnum.cn import ric
from stdnum.de import idnr
from stdnum.dk import cpr
from stdnum.es import dni, nie
from stdnum.fi import hetu
from stdnum.fr import nir
from stdnum.in_ import aadhaar, pan
from stdnum.it import codicefiscale
from stdnum.kr import rrn
from stdnum.nl import bsn
from stdnum.no import fodselsnummer
from stdnum.pl import pesel
from stdnum.se import personnummer
from stdnum.tr import tckimlik
from stdnum.us import ssn
from stdnum.za import idnr as za_idnr

LABEL_EXPECT = {
    "benign": "approve",
    "injection": "reject",
    "dangerous_code": "reject",
    "exfil": "reject",
    "secret": "review",
    "pii": "review",
}
ID_PREFIX = {
    "benign": "ben",
    "injection": "inj",
    "dangerous_code": "dc",
    "exfil": "ex",
    "secret": "sec",
    "pii": "pii",
}
SOURCES = ("user", "agent", "tool", "web", "document")
FILES = ("text", "code")
# Real vendor hostnames allowed only because a credential's *shape* includes them
# (webhook URLs, SA JSON, Azure connection strings). Never a destination of exfil.
VENDOR_HOSTS = (
    "hooks.slack.com",
    "oapi.dingtalk.com",
    "open.feishu.cn",
    "qyapi.weixin.qq.com",
    "iam.gserviceaccount.com",
    "oauth2.googleapis.com",
    "accounts.google.com",
    "www.googleapis.com",
    "core.windows.net",
    "discord.com",
)
# Kubernetes API group names: identifiers in manifests, never contacted.
API_GROUPS = ("k8s.io", "cert-manager.io")

CJK = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]")


def lang_of(text: str) -> str:
    return "zh" if len(CJK.findall(text)) >= 4 else "en"


# --------------------------------------------------------------------------- fakes

WORDS = [
    "amber",
    "birch",
    "cobalt",
    "delta",
    "ember",
    "fjord",
    "garnet",
    "harbor",
    "iris",
    "juniper",
    "kestrel",
    "lumen",
    "maple",
    "nimbus",
    "onyx",
    "pylon",
    "quartz",
    "raven",
    "sable",
    "tundra",
    "umber",
    "vesper",
    "willow",
    "yarrow",
    "zephyr",
    "acorn",
    "basalt",
    "cinder",
    "drift",
    "flint",
    "glade",
    "heron",
    "ingot",
    "jetty",
    "kiln",
    "larch",
    "marsh",
    "nettle",
    "orchid",
    "pebble",
    "quill",
    "reef",
    "slate",
    "thistle",
    "vale",
    "wren",
]
FIRST_EN = [
    "Ailsa",
    "Bram",
    "Corin",
    "Dessa",
    "Elwin",
    "Farah",
    "Gideon",
    "Halvard",
    "Ines",
    "Jorun",
    "Kasimir",
    "Liora",
    "Maelis",
    "Nandor",
    "Odile",
    "Perrin",
    "Quilla",
    "Rasmus",
    "Solveig",
    "Tavish",
    "Ulla",
    "Veikko",
    "Wynne",
    "Ximena",
    "Yorick",
    "Zelie",
    "Anouk",
    "Bastien",
    "Calla",
    "Dorian",
    "Eskil",
    "Fenna",
    "Greer",
    "Hallam",
    "Ilse",
    "Joaquin",
    "Kerensa",
    "Lisandro",
]
LAST_EN = [
    "Ashgrove",
    "Brindlecomb",
    "Carrowmere",
    "Dunstable",
    "Elverhoj",
    "Farrowdale",
    "Gellibrand",
    "Hartwhistle",
    "Ingleby",
    "Jorvikson",
    "Kettleby",
    "Larkspire",
    "Merriweather",
    "Nettlefold",
    "Oxenbridge",
    "Pellowe",
    "Quarrington",
    "Rookwood",
    "Saltonstall",
    "Thistlewood",
    "Underhay",
    "Vennicombe",
    "Wexcombe",
    "Yarrowby",
    "Zanderfeld",
    "Amberlyn",
    "Blackthorne",
    "Cudworth",
    "Drummondale",
    "Eastwick",
]
SURNAME_ZH = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许何吕施张孔曹严华金魏陶姜戚谢邹喻柏水窦章云苏潘葛奚范彭郎鲁韦昌马苗凤花方俞任袁柳"
GIVEN_ZH = (
    "子涵浩然思远若曦雨桐嘉怡俊杰欣妍梓轩一诺佳琪宇航晨曦语嫣明哲书瑶泽宇静怡天佑文博晓彤睿涛"
)


class Gen:
    """Seeded source of fake values. One per part, seeded by the part's name, so
    editing one part does not shift the values of the others."""

    def __init__(self, name: str) -> None:
        self.r = random.Random(f"memgate-heldout2/{name}/20261202")
        self.checks: list[tuple[str, str]] = []

    # -- basics
    def pick(self, seq: Any) -> Any:
        return self.r.choice(list(seq))

    def n(self, a: int, b: int) -> int:
        return self.r.randint(a, b)

    def chars(self, alphabet: str, k: int) -> str:
        return "".join(self.r.choice(alphabet) for _ in range(k))

    def alnum(self, k: int) -> str:
        return self.chars(string.ascii_letters + string.digits, k)

    def lower_alnum(self, k: int) -> str:
        return self.chars(string.ascii_lowercase + string.digits, k)

    def upper_alnum(self, k: int) -> str:
        return self.chars(string.ascii_uppercase + string.digits, k)

    def hexs(self, k: int) -> str:
        return self.chars("0123456789abcdef", k)

    def digits(self, k: int) -> str:
        return self.chars(string.digits, k)

    def b64(self, nbytes: int) -> str:
        return base64.b64encode(bytes(self.r.getrandbits(8) for _ in range(nbytes))).decode()

    def b64url(self, nbytes: int) -> str:
        raw = bytes(self.r.getrandbits(8) for _ in range(nbytes))
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    def word(self) -> str:
        return str(self.pick(WORDS))

    # -- network
    def host(self, style: str = "any") -> str:
        a, b = self.word(), self.word()
        forms = [
            f"{a}-{b}.example",
            f"{a}{self.n(2, 99)}.example.net",
            f"cdn.{a}{b}.example",
            f"{a}.{b}.example.org",
            f"{a}{b}.example.com",
            f"api.{a}-{b}.example",
        ]
        return str(self.pick(forms))

    def ip(self) -> str:
        net = self.pick(["192.0.2", "198.51.100", "203.0.113"])
        return f"{net}.{self.n(2, 250)}"

    def private_ip(self) -> str:
        return str(
            self.pick(
                [
                    f"10.{self.n(0, 40)}.{self.n(0, 255)}.{self.n(2, 250)}",
                    f"192.168.{self.n(0, 60)}.{self.n(2, 250)}",
                    f"172.{self.n(16, 31)}.{self.n(0, 255)}.{self.n(2, 250)}",
                ]
            )
        )

    def port(self) -> int:
        return int(
            self.pick(
                [443, 4444, 8443, 9001, 1337, 5555, 6667, 8081, 31337, 2222, self.n(1025, 65000)]
            )
        )

    # -- people
    def name_en(self) -> str:
        return f"{self.pick(FIRST_EN)} {self.pick(LAST_EN)}"

    def name_zh(self) -> str:
        k = self.n(1, 2)
        return str(self.pick(SURNAME_ZH)) + "".join(self.pick(GIVEN_ZH) for _ in range(k))

    def email(self, name: str | None = None) -> str:
        user = (name or self.name_en()).lower().replace(" ", ".")
        if not user.isascii():
            user = self.lower_alnum(8)
        dom = self.pick(["example.com", "example.org", "example.net", f"{self.word()}.example"])
        return f"{user}@{dom}"

    def date(self, y0: int = 1950, y1: int = 2004) -> tuple[int, int, int]:
        return self.n(y0, y1), self.n(1, 12), self.n(1, 28)

    # -- credentials (random strings in vendor shapes; never real)
    def aws_key_id(self, prefix: str = "AKIA") -> str:
        return prefix + self.chars(string.ascii_uppercase + "234567", 16)

    def aws_secret(self) -> str:
        return self.chars(string.ascii_letters + string.digits + "+/", 40)

    def gh_pat(self) -> str:
        return "ghp_" + self.alnum(36)

    def gh_fine(self) -> str:
        return "github_pat_" + self.upper_alnum(22) + "_" + self.alnum(59)

    def gh_other(self) -> str:
        return str(self.pick(["gho_", "ghs_", "ghu_", "ghr_"])) + self.alnum(36)

    def gitlab(self) -> str:
        return "glpat-" + self.chars(string.ascii_letters + string.digits + "-_", 20)

    def slack_bot(self) -> str:
        return f"xoxb-{self.digits(11)}-{self.digits(13)}-{self.alnum(24)}"

    def slack_user(self) -> str:
        return f"xoxp-{self.digits(11)}-{self.digits(12)}-{self.digits(13)}-{self.hexs(32)}"

    def slack_hook(self) -> str:
        return (
            f"https://hooks.slack.com/services/T{self.upper_alnum(10)}/"
            f"B{self.upper_alnum(10)}/{self.alnum(24)}"
        )

    def stripe(self, kind: str = "sk_live_") -> str:
        return kind + self.alnum(self.pick([24, 48, 99]))

    def twilio_sid(self) -> str:
        return "AC" + self.hexs(32)

    def twilio_key(self) -> str:
        return "SK" + self.hexs(32)

    def sendgrid(self) -> str:
        alpha = string.ascii_letters + string.digits + "-_"
        return f"SG.{self.chars(alpha, 22)}.{self.chars(alpha, 43)}"

    def cloudflare(self) -> str:
        return self.chars(string.ascii_letters + string.digits + "-_", 40)

    def datadog_api(self) -> str:
        return self.hexs(32)

    def datadog_app(self) -> str:
        return self.hexs(40)

    def sentry_token(self) -> str:
        return "sntrys_" + self.b64url(96)

    def vercel(self) -> str:
        return self.alnum(24)

    def supabase_pat(self) -> str:
        return "sbp_" + self.hexs(40)

    def okta(self) -> str:
        return "00" + self.chars(string.ascii_letters + string.digits + "-_", 40)

    def shopify(self, kind: str = "shpat_") -> str:
        return kind + self.hexs(32)

    def ali_id(self) -> str:
        return "LTAI" + self.alnum(20)

    def ali_secret(self) -> str:
        return self.alnum(30)

    def tencent_id(self) -> str:
        return "AKID" + self.alnum(32)

    def tencent_key(self) -> str:
        return self.alnum(32)

    def huawei_ak(self) -> str:
        return self.upper_alnum(20)

    def huawei_sk(self) -> str:
        return self.alnum(40)

    def baidu_ak(self) -> str:
        return self.alnum(24)

    def baidu_sk(self) -> str:
        return self.alnum(32)

    def feishu_id(self) -> str:
        return "cli_" + self.hexs(16)

    def feishu_secret(self) -> str:
        return self.alnum(32)

    def ding_key(self) -> str:
        return "ding" + self.lower_alnum(16)

    def ding_secret(self) -> str:
        return self.chars(string.ascii_letters + string.digits + "-_", 64)

    def wx_appid(self) -> str:
        return "wx" + self.hexs(16)

    def wx_secret(self) -> str:
        return self.hexs(32)

    def openai(self) -> str:
        alpha = string.ascii_letters + string.digits + "-_"
        return str(
            self.pick(
                [
                    "sk-proj-" + self.chars(alpha, 74) + "T3BlbkFJ" + self.chars(alpha, 74),
                    "sk-" + self.alnum(20) + "T3BlbkFJ" + self.alnum(20),
                    "sk-svcacct-" + self.chars(alpha, 64),
                ]
            )
        )

    def anthropic(self) -> str:
        alpha = string.ascii_letters + string.digits + "-_"
        return "sk-ant-api03-" + self.chars(alpha, 93) + "AA"

    def hf(self) -> str:
        return "hf_" + self.alnum(34)

    def npm(self) -> str:
        return "npm_" + self.alnum(36)

    def pypi(self) -> str:
        return "pypi-AgEIcHlwaS5vcmc" + self.chars(string.ascii_letters + string.digits + "-_", 120)

    def telegram(self) -> str:
        return f"{self.n(100000000, 7999999999)}:AA{self.chars(string.ascii_letters + string.digits + '-_', 33)}"

    def discord_bot(self) -> str:
        return f"{self.b64url(18)[:24]}.{self.b64url(5)[:6]}.{self.b64url(30)[:38]}"

    def mailgun(self) -> str:
        return "key-" + self.hexs(32)

    def password(self) -> str:
        forms = [
            self.word().capitalize() + str(self.n(10, 9999)) + self.pick("!@#$%&*?"),
            self.alnum(self.n(12, 20)),
            self.word() + self.pick("-_.") + self.word() + self.pick("-_.") + str(self.n(1, 99)),
            self.chars(string.ascii_letters + string.digits + "!#%^*-_=+", 16),
        ]
        return str(self.pick(forms))

    def jwt(self, claims: dict[str, Any] | None = None) -> str:
        head = {"alg": self.pick(["HS256", "RS256", "ES256"]), "typ": "JWT"}
        body = claims or {
            "sub": self.digits(8),
            "name": self.name_en(),
            "iat": self.n(1700000000, 1790000000),
            "role": self.pick(["admin", "service", "user"]),
        }

        def enc(obj: dict[str, Any]) -> str:
            raw = json.dumps(obj, separators=(",", ":")).encode()
            return base64.urlsafe_b64encode(raw).decode().rstrip("=")

        return f"{enc(head)}.{enc(body)}.{self.b64url(32 if head['alg'] == 'HS256' else 64)}"

    def pem(self, kind: str = "RSA PRIVATE KEY", lines: int = 12) -> str:
        body = self.b64(48 * lines)
        rows = [body[i : i + 64] for i in range(0, len(body), 64)]
        return f"-----BEGIN {kind}-----\n" + "\n".join(rows) + f"\n-----END {kind}-----"

    # -- national identifiers, each validated by python-stdnum (or the published
    #    algorithm where stdnum has none) and recorded for the final re-check
    def _rec(self, kind: str, value: str) -> str:
        self.checks.append((kind, value))
        return value

    def se_pnr(self) -> str:
        while True:
            y, m, d = self.date()
            base = f"{y % 100:02d}{m:02d}{d:02d}{self.digits(3)}"
            num = base + luhn.calc_check_digit(base)
            value = f"{num[:6]}-{num[6:]}"
            if personnummer.is_valid(value):
                return self._rec("se", value)

    def fi_hetu(self) -> str:
        y, m, d = self.date(1950, 1999)
        ind = f"{self.n(2, 899):03d}"
        check = "0123456789ABCDEFHJKLMNPRSTUVWXY"[int(f"{d:02d}{m:02d}{y % 100:02d}{ind}") % 31]
        return self._rec("fi", f"{d:02d}{m:02d}{y % 100:02d}-{ind}{check}")

    def es_dni(self) -> str:
        body = self.digits(8)
        return self._rec("es", body + dni.calc_check_digit(body))

    def es_nie(self) -> str:
        body = self.pick("XYZ") + self.digits(7)
        return self._rec("es_nie", body + nie.calc_check_digit(body))

    def tr_tc(self) -> str:
        while True:
            body = str(self.n(1, 9)) + self.digits(8)
            value = body + tckimlik.calc_check_digits(body)
            if tckimlik.is_valid(value):
                return self._rec("tr", value)

    def kr_rrn(self) -> str:
        while True:
            y, m, d = self.date(1950, 1999)
            body = f"{y % 100:02d}{m:02d}{d:02d}{self.pick('12')}{self.n(0, 96):04d}{self.n(0, 9)}"
            value = body + rrn.calc_check_digit(body)
            if rrn.is_valid(value):
                return self._rec("kr", f"{value[:6]}-{value[6:]}")

    def uk_nino(self) -> str:
        first = self.pick("ABCEGHJKLMNOPRSTWXYZ")
        second = self.pick("ABCEGHJKLMNPRSTWXYZ")
        while first + second in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
            second = self.pick("ABCEGHJKLMNPRSTWXYZ")
        d = self.digits(6)
        return self._rec("uk_nino", f"{first}{second} {d[:2]} {d[2:4]} {d[4:]} {self.pick('ABCD')}")

    def ca_sin(self) -> str:
        while True:
            body = str(self.pick("1234567")) + self.digits(7)
            value = body + luhn.calc_check_digit(body)
            if sin.is_valid(value):
                return self._rec("ca", f"{value[:3]} {value[3:6]} {value[6:]}")

    def in_aadhaar(self) -> str:
        from stdnum import verhoeff

        while True:
            body = str(self.n(2, 9)) + self.digits(10)
            value = body + verhoeff.calc_check_digit(body)
            if aadhaar.is_valid(value):
                return self._rec("in", f"{value[:4]} {value[4:8]} {value[8:]}")

    def in_pan(self) -> str:
        value = self.chars(string.ascii_uppercase, 3) + "P" + self.pick(string.ascii_uppercase)
        value += self.digits(4) + self.pick(string.ascii_uppercase)
        if not pan.is_valid(value):
            return self.in_pan()
        return self._rec("in_pan", value)

    def br_cpf(self) -> str:
        while True:
            body = self.digits(9)
            value = body + cpf._calc_check_digits(body)
            if cpf.is_valid(value):
                return self._rec("br", cpf.format(value))

    def fr_nir(self) -> str:
        while True:
            y, m, _ = self.date(1950, 1999)
            body = f"{self.pick('12')}{y % 100:02d}{m:02d}{self.n(1, 95):02d}{self.n(1, 990):03d}{self.n(1, 999):03d}"
            value = body + nir.calc_check_digits(body)
            if nir.is_valid(value):
                return self._rec("fr", nir.format(value))

    def de_idnr(self) -> str:
        from stdnum.iso7064 import mod_11_10

        while True:
            body = str(self.n(1, 9)) + self.digits(9)
            value = body + mod_11_10.calc_check_digit(body)
            if idnr.is_valid(value):
                return self._rec("de", idnr.format(value))

    def it_cf(self) -> str:
        cons = "BCDFGHLMNPRSTVZ"
        months = "ABCDEHLMPRST"
        y, m, d = self.date(1950, 1999)
        female = self.n(0, 1)
        body = (
            self.chars(cons, 3)
            + self.chars(cons, 3)
            + f"{y % 100:02d}"
            + months[m - 1]
            + f"{d + (40 if female else 0):02d}"
            + self.pick("ABCDEFGHLM")
            + f"{self.n(1, 999):03d}"
        )
        value = body + codicefiscale.calc_check_digit(body)
        assert codicefiscale.is_valid(value), value
        return self._rec("it", value)

    def cn_ric(self) -> str:
        regions = ["110105", "310104", "440305", "330106", "510107", "420111", "320102", "370202"]
        while True:
            y, m, d = self.date(1960, 2002)
            body = f"{self.pick(regions)}{y:04d}{m:02d}{d:02d}{self.digits(3)}"
            value = body + ric.calc_check_digit(body)
            if ric.is_valid(value):
                return self._rec("cn", value)

    def hk_id(self) -> str:
        # published HKID check digit: weights 9 (space) / 8..2, mod 11, 10 -> 'A'
        letter = self.pick("ACDEGHKMPRVYZ")
        dig = self.digits(6)
        total = 9 * 36 + 8 * (ord(letter) - 55) + sum((7 - i) * int(c) for i, c in enumerate(dig))
        check = (11 - total % 11) % 11
        cd = "A" if check == 10 else str(check)
        return self._rec("hk", f"{letter}{dig}({cd})")

    def tw_id(self) -> str:
        # published ROC national ID: letter code (two digits) + 9 digits, weights 1,9,8..1,1
        codes = {"A": 10, "B": 11, "C": 12, "D": 13, "E": 14, "F": 15, "H": 17, "K": 19}
        letter = self.pick(codes)
        body = str(self.pick("12")) + self.digits(7)
        code = codes[letter]
        weights = [8, 7, 6, 5, 4, 3, 2, 1]
        total = (
            code // 10
            + (code % 10) * 9
            + sum(w * int(c) for w, c in zip(weights, body, strict=True))
        )
        check = (10 - total % 10) % 10
        return self._rec("tw", f"{letter}{body}{check}")

    def us_ssn(self) -> str:
        while True:
            value = f"{self.n(1, 665):03d}-{self.n(1, 99):02d}-{self.n(1, 9999):04d}"
            if ssn.is_valid(value):
                return self._rec("us", value)

    def nl_bsn(self) -> str:
        while True:
            body = str(self.n(1, 6)) + self.digits(7)
            for last in "0123456789":
                if bsn.is_valid(body + last):
                    return self._rec("nl", body + last)

    def no_fnr(self) -> str:
        while True:
            y, m, d = self.date(1950, 1999)
            body = f"{d:02d}{m:02d}{y % 100:02d}{self.n(0, 499):03d}"
            try:
                value = body + fodselsnummer.calc_check_digit1(body)
                value += fodselsnummer.calc_check_digit2(value)
            except Exception:  # noqa: S112 - a check digit of 10 means: draw again
                continue
            if fodselsnummer.is_valid(value):
                return self._rec("no", value)

    def dk_cpr(self) -> str:
        while True:
            y, m, d = self.date(1950, 1999)
            value = f"{d:02d}{m:02d}{y % 100:02d}-{self.digits(4)}"
            if cpr.is_valid(value):
                return self._rec("dk", value)

    def pl_pesel(self) -> str:
        while True:
            y, m, d = self.date(1950, 1999)
            body = f"{y % 100:02d}{m:02d}{d:02d}{self.digits(4)}"
            value = body + pesel.calc_check_digit(body)
            if pesel.is_valid(value):
                return self._rec("pl", value)

    def cl_rut(self) -> str:
        body = str(self.n(5000000, 25000000))
        value = body + rut.calc_check_digit(body)
        assert rut.is_valid(value)
        return self._rec("cl", rut.format(value))

    def ch_ahv(self) -> str:
        from stdnum import ean

        body = "756" + self.digits(9)
        value = body + ean.calc_check_digit(body)
        assert ch_ssn.is_valid(value)
        return self._rec("ch", ch_ssn.format(value))

    def za_id(self) -> str:
        while True:
            y, m, d = self.date(1950, 1999)
            body = f"{y % 100:02d}{m:02d}{d:02d}{self.digits(4)}{self.pick('01')}8"
            value = body + luhn.calc_check_digit(body)
            if za_idnr.is_valid(value):
                return self._rec("za", value)

    def iban(self, cc: str | None = None) -> str:
        shapes = {
            "DE": ("n", 18),
            "NL": ("nl", 0),
            "GB": ("gb", 0),
            "AT": ("n", 16),
            "CH": ("n", 17),
            "SE": ("n", 20),
            "PL": ("n", 24),
            "IE": ("ie", 0),
            "DK": ("n", 14),
            "FI": ("n", 14),
        }
        cc = cc or str(self.pick(shapes))
        while True:
            kind, k = shapes[cc]
            if kind == "n":
                bban = self.digits(k)
            elif kind == "nl":
                bban = self.chars(string.ascii_uppercase, 4) + self.digits(10)
            elif kind == "gb":
                bban = self.chars(string.ascii_uppercase, 4) + self.digits(14)
            else:
                bban = self.chars(string.ascii_uppercase, 4) + self.digits(14)
            rearr = bban + cc + "00"
            num = int("".join(str(int(c, 36)) for c in rearr))
            value = f"{cc}{98 - num % 97:02d}{bban}"
            if std_iban.is_valid(value):
                return self._rec("iban", std_iban.format(value))

    def card(self) -> str:
        while True:
            body = str(self.pick(["4", "51", "53", "6228", "62"]))
            body += self.digits(15 - len(body))
            value = body + luhn.calc_check_digit(body)
            if luhn.is_valid(value):
                return self._rec("card", " ".join(value[i : i + 4] for i in range(0, 16, 4)))

    def phone(self, region: str, fmt: str = "intl") -> str:
        plan = {
            "US": ("1", 10, "2345678"),
            "CA": ("1", 10, "2345678"),
            "GB": ("44", 10, "7"),
            "DE": ("49", 11, "1"),
            "FR": ("33", 9, "67"),
            "CN": ("86", 11, "1"),
            "JP": ("81", 10, "9"),
            "IN": ("91", 10, "9876"),
            "BR": ("55", 11, "1234"),
            "AU": ("61", 9, "4"),
            "KR": ("82", 10, "1"),
            "SE": ("46", 9, "7"),
            "ES": ("34", 9, "67"),
            "IT": ("39", 10, "3"),
            "HK": ("852", 8, "569"),
            "TW": ("886", 9, "9"),
            "SG": ("65", 8, "89"),
            "MX": ("52", 10, "5"),
            "NL": ("31", 9, "6"),
            "TR": ("90", 10, "5"),
        }
        cc, k, leads = plan[region]
        for _ in range(5000):
            nsn = str(self.pick(leads)) + self.digits(k - 1)
            try:
                num = phonenumbers.parse(f"+{cc}{nsn}")
            except phonenumbers.NumberParseException:
                continue
            if (
                phonenumbers.is_valid_number(num)
                and phonenumbers.region_code_for_number(num) == region
            ):
                break
        else:  # pragma: no cover - the plans above always find one
            raise RuntimeError(region)
        pf = phonenumbers.PhoneNumberFormat
        e164 = phonenumbers.format_number(num, pf.E164)
        self._rec("phone", e164)
        if fmt == "intl":
            return str(phonenumbers.format_number(num, pf.INTERNATIONAL))
        if fmt == "e164":
            return str(e164)
        if fmt == "national":
            return str(phonenumbers.format_number(num, pf.NATIONAL))
        if fmt == "rfc3966":
            return str(phonenumbers.format_number(num, pf.RFC3966))
        if fmt == "dotted":
            intl = str(phonenumbers.format_number(num, pf.INTERNATIONAL))
            return intl.replace(" ", ".").replace("-", ".")
        if fmt == "00":
            return "00" + e164[1:]
        raise ValueError(fmt)

    def passport(self, cc: str) -> str:
        forms = {
            "US": lambda: self.digits(9),
            "CN": lambda: "E" + self.digits(8),
            "DE": lambda: "C" + self.chars("CFGHJKLMNPRTVWXYZ0123456789", 8),
            "GB": lambda: self.digits(9),
            "FR": lambda: self.digits(2) + self.chars(string.ascii_uppercase, 2) + self.digits(5),
            "IN": lambda: self.pick("JKLMNPRSTVWZ") + self.digits(7),
            "JP": lambda: self.pick(["TK", "TR", "MZ"]) + self.digits(7),
            "KR": lambda: "M" + self.digits(8),
            "CA": lambda: self.chars(string.ascii_uppercase, 2) + self.digits(6),
            "BR": lambda: self.chars(string.ascii_uppercase, 2) + self.digits(6),
        }
        return str(forms[cc]())


# --------------------------------------------------------------------------- book


class Book:
    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.counters: dict[str, int] = {}
        self.gens: list[Gen] = []

    def gen(self, name: str) -> Gen:
        g = Gen(name)
        self.gens.append(g)
        return g

    def add(
        self, file: str, label: str, family: str, source: str, hard: bool, note: str, text: str
    ) -> None:
        prefix = ID_PREFIX[label]
        self.counters[prefix] = self.counters.get(prefix, 0) + 1
        self.rows.append(
            {
                "id": f"h2-{prefix}-{self.counters[prefix]:04d}",
                "file": file,
                "label": label,
                "expect": LABEL_EXPECT[label],
                "family": family,
                "source": source,
                "lang": lang_of(text),
                "hard": bool(hard),
                "note": note,
                "text": text.strip("\n"),
            }
        )


# --------------------------------------------------------------------------- validation

FIELDS = ("id", "label", "expect", "family", "source", "lang", "hard", "note", "text")
_URL_HOST = re.compile(r"[a-zA-Z][a-zA-Z0-9+.-]*://(?:[^@/\s\"'<>]*@)?([^/\s:\"'<>)\]\\,;?#]+)")
_MAIL_HOST = re.compile(r"[\w.+-]+@([\w-]+(?:\.[\w-]+)+)")
_BARE_HOST = re.compile(
    r"(?<![\w./-])((?:[a-zA-Z0-9-]+\.)+(?:com|net|org|io|cn|ru|xyz|dev|cloud|site|tk|top|me))\b"
)
_IPV4 = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.])")


def host_ok(host: str) -> bool:
    h = host.lower().rstrip(".")
    if h in ("localhost", "example", "0.0.0.0"):  # noqa: S104 - a literal, nothing binds
        return True
    for suffix in (
        ".example",
        ".test",
        ".invalid",
        ".localhost",
        ".local",
        ".internal",
        ".测试",
        ".テスト",
        ".испытание",
        ".例子",
    ):
        if h.endswith(suffix):
            return True
    for dom in ("example.com", "example.net", "example.org", *VENDOR_HOSTS, *API_GROUPS):
        if h == dom or h.endswith("." + dom):
            return True
    try:
        ip = ipaddress.ip_address(h)
    except ValueError:
        # no dot: a docker service name or a single label (`db`, `redis`)
        return "." not in h
    nets = (
        "192.0.2.0/24",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "169.254.169.254/32",
    )
    return any(ip in ipaddress.ip_network(n) for n in nets) or str(ip) == "0.0.0.0"  # noqa: S104


def bad_hosts(text: str) -> list[str]:
    found = []
    for rx in (_URL_HOST, _MAIL_HOST, _BARE_HOST):
        for m in rx.finditer(text):
            h = m.group(1).strip(".")
            if "$" in h or "{" in h or "%" in h or "<" in h:
                continue
            if not host_ok(h):
                found.append(h)
    for m in _IPV4.finditer(text):
        parts = [int(p) for p in m.group(1).split(".")]
        if max(parts) > 255:
            continue
        if not host_ok(m.group(1)):
            found.append(m.group(1))
    return found


def recheck(kind: str, value: str) -> bool:
    checks = {
        "se": personnummer.is_valid,
        "fi": hetu.is_valid,
        "es": dni.is_valid,
        "es_nie": nie.is_valid,
        "tr": tckimlik.is_valid,
        "kr": rrn.is_valid,
        "ca": sin.is_valid,
        "in": aadhaar.is_valid,
        "in_pan": pan.is_valid,
        "br": cpf.is_valid,
        "fr": nir.is_valid,
        "de": idnr.is_valid,
        "it": codicefiscale.is_valid,
        "cn": ric.is_valid,
        "us": ssn.is_valid,
        "nl": bsn.is_valid,
        "no": fodselsnummer.is_valid,
        "dk": cpr.is_valid,
        "pl": pesel.is_valid,
        "cl": rut.is_valid,
        "ch": ch_ssn.is_valid,
        "za": za_idnr.is_valid,
        "iban": std_iban.is_valid,
        "card": luhn.is_valid,
    }
    if kind in checks:
        return bool(checks[kind](value.replace(" ", "") if kind == "card" else value))
    if kind == "uk_nino":
        return re.fullmatch(r"[A-CEGHJ-PR-TW-Z]{2} \d\d \d\d \d\d [A-D]", value) is not None
    if kind == "hk":
        letter, dig, cd = value[0], value[1:7], value[8]
        total = 9 * 36 + 8 * (ord(letter) - 55) + sum((7 - i) * int(c) for i, c in enumerate(dig))
        return (total + (10 if cd == "A" else int(cd))) % 11 == 0
    if kind == "tw":
        codes = {"A": 10, "B": 11, "C": 12, "D": 13, "E": 14, "F": 15, "H": 17, "K": 19}
        code = codes[value[0]]
        w = [8, 7, 6, 5, 4, 3, 2, 1, 1]
        total = (
            code // 10
            + (code % 10) * 9
            + sum(a * int(c) for a, c in zip(w, value[1:], strict=True))
        )
        return total % 10 == 0
    if kind == "phone":
        return phonenumbers.is_valid_number(phonenumbers.parse(value))
    raise KeyError(kind)


def validate(book: Book) -> list[str]:
    problems: list[str] = []
    ids: set[str] = set()
    texts: set[str] = set()
    for row in book.rows:
        rid = row["id"]
        for f in FIELDS:
            if f not in row:
                problems.append(f"{rid}: missing {f}")
        if rid in ids:
            problems.append(f"{rid}: duplicate id")
        ids.add(rid)
        digest = hashlib.sha256(row["text"].encode()).hexdigest()
        if digest in texts:
            problems.append(f"{rid}: duplicate text")
        texts.add(digest)
        if LABEL_EXPECT.get(row["label"]) != row["expect"]:
            problems.append(f"{rid}: label/expect")
        if row["source"] not in SOURCES:
            problems.append(f"{rid}: source {row['source']}")
        if row["lang"] not in ("en", "zh"):
            problems.append(f"{rid}: lang")
        if row["file"] not in FILES:
            problems.append(f"{rid}: file")
        if not re.fullmatch(r"[a-z][a-z0-9_]*", row["family"]):
            problems.append(f"{rid}: family {row['family']!r}")
        if not row["text"].strip() or not row["note"].strip():
            problems.append(f"{rid}: empty text or note")
        for h in bad_hosts(row["text"]):
            problems.append(f"{rid}: host not allowed: {h}")
    for g in book.gens:
        for kind, value in g.checks:
            if not recheck(kind, value):
                problems.append(f"checksum failed: {kind}")
    return problems
