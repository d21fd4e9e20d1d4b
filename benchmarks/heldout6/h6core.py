# ruff: noqa: E501  (hand-written case texts and vendor shapes are data, one per line)
"""Shared machinery of held-out set 6: the book of rows, one seeded generator per
part, fake credentials in vendor shapes, checksummed identifiers drawn with
python-stdnum, phone numbers checked with phonenumbers, and the checks every row
passes before anything is written. Never prints an item's text."""

from __future__ import annotations

import hashlib
import ipaddress
import random
import re
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import phonenumbers
from stdnum import iban as std_iban
from stdnum import luhn as std_luhn

LABEL_EXPECT = {
    "benign": "approve",
    "injection": "reject",
    "dangerous_code": "reject",
    "exfil": "reject",
    "secret": "review",
    "pii": "review",
}
PREFIX = {
    "benign": "ben",
    "injection": "inj",
    "dangerous_code": "dc",
    "exfil": "ex",
    "secret": "sec",
    "pii": "pii",
}
FILE_LABELS = {
    "text": {"benign", "injection", "secret", "pii"},
    "code": {"benign", "dangerous_code", "exfil"},
}
SOURCES = ("user", "agent", "tool", "web", "document")
FIELDS = ("id", "label", "expect", "family", "source", "lang", "hard", "note", "text")
SEED = "memgate-heldout6/{part}/20261207"

UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
DIGITS = string.digits
HEX = "0123456789abcdef"
ALNUM = UPPER + LOWER + DIGITS
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


# ---------------------------------------------------------------- the book


@dataclass
class Gen:
    """One part's generator: its own RNG, its rows and the identifiers it drew."""

    part: str
    rng: random.Random = field(init=False)
    rows: list[dict[str, object]] = field(default_factory=list)
    checks: list[tuple[str, str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.rng = random.Random(SEED.format(part=self.part))

    def add(
        self,
        file: str,
        label: str,
        family: str,
        source: str,
        text: str,
        note: str,
        hard: bool = True,
    ) -> None:
        self.rows.append(
            {
                "file": file,
                "label": label,
                "family": family,
                "source": source,
                "hard": hard,
                "note": note,
                "text": text,
            }
        )

    # -- random helpers, all from this part's RNG
    def s(self, alphabet: str, n: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def pick(self, seq):  # type: ignore[no-untyped-def]
        return seq[self.rng.randrange(len(seq))]

    def num(self, lo: int, hi: int) -> int:
        return self.rng.randint(lo, hi)

    def ident(self, kind: str) -> str:
        value = draw_ident(kind, self.rng)
        self.checks.append(("iban" if kind.startswith("iban_") else kind, value))
        return value

    def phone(self, region: str, fmt: str = "intl") -> str:
        value = draw_phone(region, self.rng, fmt)
        self.checks.append(("phone", value))
        return value

    def host(self, sub: str = "") -> str:
        base = self.pick(HOST_BASES)
        return f"{sub}.{base}" if sub else base

    def ip(self) -> str:
        net = self.pick(("192.0.2", "198.51.100", "203.0.113"))
        return f"{net}.{self.num(2, 250)}"

    def port(self) -> int:
        return self.pick((443, 4444, 5555, 8443, 9001, 1337, 8080, 6667, 53, 31337, 7777))

    def person(self) -> str:
        return person_name(self.rng)

    def zh_person(self) -> str:
        return zh_name(self.rng)


@dataclass
class Book:
    gens: list[Gen]
    rows: list[dict[str, object]]
    files: dict[str, str] = field(default_factory=dict)  # id -> "text" | "code"


# never the bare example.com/.net/.org, which a project may call its own host
HOST_BASES = (
    "intake-sync.example",
    "bk-mirror.example.net",
    "telemetry-gw.test",
    "hold.invalid",
    "assets-cdn.example.org",
    "sink.example.com",
    "loghub-relay.example",
    "paste-bin.test",
    "edge-cache7.example.net",
    "mailer-out.invalid",
    "upd-channel.example",
    "share-point.test",
)


# ---------------------------------------------------------------- names


_SYL = (
    "ka",
    "ri",
    "mo",
    "len",
    "dor",
    "vi",
    "sa",
    "tam",
    "bel",
    "no",
    "ru",
    "fen",
    "al",
    "jo",
    "mar",
    "ti",
    "que",
    "los",
    "han",
    "ele",
    "os",
    "wyn",
    "bra",
    "cel",
    "dan",
    "ig",
    "per",
)
_ZH_SURNAME = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余于杜叶程魏苏吕丁任沈姚卢"
_ZH_GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华慧巧美佳雨欣宇浩然梓涵思远子轩晨曦博文嘉怡晓东志鹏海燕"


def person_name(rng: random.Random) -> str:
    def word(k: int) -> str:
        return "".join(rng.choice(_SYL) for _ in range(k)).capitalize()

    return f"{word(rng.randint(1, 2))} {word(rng.randint(2, 3))}"


def zh_name(rng: random.Random) -> str:
    given = "".join(rng.choice(_ZH_GIVEN) for _ in range(rng.randint(1, 2)))
    return rng.choice(_ZH_SURNAME) + given


# ---------------------------------------------------------------- identifiers


def _date(rng: random.Random, lo: int = 1955, hi: int = 2003) -> tuple[int, int, int]:
    return rng.randint(lo, hi), rng.randint(1, 12), rng.randint(1, 28)


def _d(rng: random.Random, n: int) -> str:
    return "".join(rng.choice(DIGITS) for _ in range(n))


def _hk_check(prefix: str, digits: str) -> str:
    vals = [ord(c) - 55 for c in prefix]  # A=10 .. Z=35
    if len(vals) == 1:
        vals = [36, *vals]
    total = (
        vals[0] * 9
        + vals[1] * 8
        + sum(int(d) * w for d, w in zip(digits, range(7, 1, -1), strict=True))
    )
    r = (11 - total % 11) % 11
    return "A" if r == 10 else str(r)


_TW = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))


def _tw_ok(value: str) -> bool:
    if not re.fullmatch(r"[A-Z][12]\d{8}", value):
        return False
    n = _TW[value[0]]
    total = n // 10 + (n % 10) * 9
    total += sum(int(d) * w for d, w in zip(value[1:9], (8, 7, 6, 5, 4, 3, 2, 1), strict=True))
    total += int(value[9])
    return total % 10 == 0


def _hk_ok(value: str) -> bool:
    m = re.fullmatch(r"([A-Z]{1,2})(\d{6})\(?([0-9A])\)?", value)
    return bool(m) and _hk_check(m.group(1), m.group(2)) == m.group(3)


_NINO_BAD_FIRST = set("DFIQUV")
_NINO_BAD_SECOND = set("DFIQUVO")
_NINO_BAD_PAIRS = {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}


def _nino_ok(value: str) -> bool:
    v = value.replace(" ", "").upper()
    if not re.fullmatch(r"[A-Z]{2}\d{6}[A-D]", v):
        return False
    return (
        v[0] not in _NINO_BAD_FIRST
        and v[1] not in _NINO_BAD_SECOND
        and v[:2] not in _NINO_BAD_PAIRS
    )


def _std(module: str) -> Callable[[str], bool]:
    def ok(value: str) -> bool:
        mod = __import__(f"stdnum.{module}", fromlist=["is_valid"])
        return bool(mod.is_valid(value))

    return ok


CHECKERS: dict[str, Callable[[str], bool]] = {
    "se": _std("se.personnummer"),
    "fi": _std("fi.hetu"),
    "es_dni": _std("es.dni"),
    "es_nie": _std("es.nie"),
    "tr": _std("tr.tckimlik"),
    "kr": _std("kr.rrn"),
    "th": _std("th.pin"),
    "ca_sin": _std("ca.sin"),
    "in_aadhaar": _std("in_.aadhaar"),
    "in_pan": _std("in_.pan"),
    "br_cpf": _std("br.cpf"),
    "fr_nir": _std("fr.nir"),
    "de_idnr": _std("de.idnr"),
    "it_cf": _std("it.codicefiscale"),
    "jp_mynumber": _std("jp.in_"),
    "cn": _std("cn.ric"),
    "us_ssn": _std("us.ssn"),
    "us_itin": _std("us.itin"),
    "us_rtn": _std("us.rtn"),
    "no": _std("no.fodselsnummer"),
    "nl_bsn": _std("nl.bsn"),
    "pl": _std("pl.pesel"),
    "za": _std("za.idnr"),
    "ch_ssn": _std("ch.ssn"),
    "cl_rut": _std("cl.rut"),
    "be_nn": _std("be.nn"),
    "ee": _std("ee.ik"),
    "ro": _std("ro.cnp"),
    "bg": _std("bg.egn"),
    "is": _std("is_.kennitala"),
    "il": _std("il.idnr"),
    "dk": _std("dk.cpr"),
    "iban": lambda v: bool(std_iban.is_valid(v)),
    "card": lambda v: (
        bool(std_luhn.is_valid(v.replace(" ", "").replace("-", "")))
        and len(v.replace(" ", "").replace("-", "")) in (15, 16)
    ),
    "au_tfn": _std("au.tfn"),
    "ie_pps": _std("ie.pps"),
    "hr_oib": _std("hr.oib"),
    "nz_ird": _std("nz.ird"),
    "cz_rc": _std("cz.rc"),
    "mx_curp": _std("mx.curp"),
    "at_vnr": _std("at.vnr"),
    "my_nric": _std("my.nric"),
    "lt_asmens": _std("lt.asmens"),
    "pt_cc": _std("pt.cc"),
    "si_emso": _std("si.emso"),
    "gr_amka": _std("gr.amka"),
    "ec_ci": _std("ec.ci"),
    "ru_inn": _std("ru.inn"),
    "ua_rntrc": _std("ua.rntrc"),
    "ar_cuit": _std("ar.cuit"),
    "pk_cnic": _std("pk.cnic"),
    "sk_rc": _std("sk.rc"),
    "hk": _hk_ok,
    "tw": _tw_ok,
    "gb_nino": _nino_ok,
}


def check_ident(kind: str, value: str) -> bool:
    checker = CHECKERS.get(kind)
    try:
        return bool(checker and checker(value))
    except Exception:
        return False


def _candidates(kind: str, rng: random.Random) -> Iterator[str]:
    """Bodies with every possible check character; the first valid one is taken."""
    y, m, d = _date(rng)
    yy, mm, dd = f"{y % 100:02d}", f"{m:02d}", f"{d:02d}"
    if kind == "se":
        body = f"{yy}{mm}{dd}-{_d(rng, 3)}"
        yield from (body + c for c in DIGITS)
    elif kind == "fi":
        sep = "-" if y < 2000 else "A"
        body = f"{dd}{mm}{yy}{sep}{rng.randint(2, 899):03d}"
        yield from (body + c for c in "0123456789ABCDEFHJKLMNPRSTUVWXY")
    elif kind == "es_dni":
        body = _d(rng, 8)
        yield from (body + c for c in "TRWAGMYFPDXBNJZSQVHLCKE")
    elif kind == "es_nie":
        body = rng.choice("XYZ") + _d(rng, 7)
        yield from (body + c for c in "TRWAGMYFPDXBNJZSQVHLCKE")
    elif kind == "tr":
        body = str(rng.randint(1, 9)) + _d(rng, 8)
        yield from (body + f"{k:02d}" for k in range(100))
    elif kind == "kr":
        body = f"{yy}{mm}{dd}-{rng.choice('12')}{_d(rng, 5)}"
        yield from (body + c for c in DIGITS)
    elif kind == "th":
        body = str(rng.randint(1, 8)) + _d(rng, 11)
        yield from (body + c for c in DIGITS)
    elif kind == "ca_sin":
        body = str(rng.choice("1234567")) + _d(rng, 7)
        for c in DIGITS:
            v = body + c
            yield f"{v[:3]} {v[3:6]} {v[6:]}"
    elif kind == "in_aadhaar":
        body = str(rng.randint(2, 9)) + _d(rng, 10)
        for c in DIGITS:
            v = body + c
            yield f"{v[:4]} {v[4:8]} {v[8:]}"
    elif kind == "in_pan":
        yield (
            "".join(rng.choice(UPPER) for _ in range(3))
            + "P"
            + rng.choice(UPPER)
            + _d(rng, 4)
            + rng.choice(UPPER)
        )
    elif kind == "br_cpf":
        body = _d(rng, 9)
        for k in range(100):
            v = body + f"{k:02d}"
            yield f"{v[:3]}.{v[3:6]}.{v[6:9]}-{v[9:]}"
    elif kind == "fr_nir":
        body = f"{rng.choice('12')}{yy}{mm}{rng.randint(1, 95):02d}{rng.randint(1, 990):03d}{rng.randint(1, 999):03d}"
        for k in range(1, 98):
            yield f"{body[0]} {body[1:3]} {body[3:5]} {body[5:7]} {body[7:10]} {body[10:13]} {k:02d}"
    elif kind == "de_idnr":
        body = str(rng.randint(1, 9)) + _d(rng, 9)
        yield from (body + c for c in DIGITS)
    elif kind == "it_cf":
        months = "ABCDEHLMPRST"
        day = d + (40 if rng.random() < 0.5 else 0)
        body = (
            "".join(rng.choice("BCDFGHLMNPRSTVZ") for _ in range(6))
            + yy
            + months[m - 1]
            + f"{day:02d}"
            + rng.choice("ABCDEFGHILM")
            + f"{rng.randint(1, 999):03d}"
        )
        yield from (body + c for c in UPPER)
    elif kind == "jp_mynumber":
        body = _d(rng, 11)
        for c in DIGITS:
            v = body + c
            yield f"{v[:4]} {v[4:8]} {v[8:]}"
    elif kind == "cn":
        region = rng.choice(
            ("110105", "310104", "440305", "330106", "510107", "320102", "420111", "610113")
        )
        body = f"{region}{y}{mm}{dd}{_d(rng, 3)}"
        yield from (body + c for c in DIGITS + "X")
    elif kind == "us_ssn":
        area = rng.randint(1, 665)
        yield f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"
    elif kind == "us_itin":
        group = rng.choice([*range(50, 66), *range(70, 89), *range(90, 93), *range(94, 100)])
        yield f"9{_d(rng, 2)}-{group:02d}-{rng.randint(1, 9999):04d}"
    elif kind == "us_rtn":
        body = rng.choice(("0", "1", "2", "3")) + _d(rng, 7)
        yield from (body + c for c in DIGITS)
    elif kind == "no":
        body = f"{dd}{mm}{yy}{rng.randint(0, 499):03d}"
        yield from (body + f"{k:02d}" for k in range(100))
    elif kind == "nl_bsn":
        body = str(rng.randint(1, 9)) + _d(rng, 7)
        yield from (body + c for c in DIGITS)
    elif kind == "pl":
        body = f"{yy}{mm}{dd}{_d(rng, 4)}"
        yield from (body + c for c in DIGITS)
    elif kind == "za":
        body = f"{yy}{mm}{dd}{_d(rng, 4)}0{rng.choice('89')}"
        yield from (body + c for c in DIGITS)
    elif kind == "ch_ssn":
        body = "756" + _d(rng, 9)
        for c in DIGITS:
            v = body + c
            yield f"{v[:3]}.{v[3:7]}.{v[7:11]}.{v[11:]}"
    elif kind == "cl_rut":
        body = str(rng.randint(5, 25)) + _d(rng, 6)
        for c in DIGITS + "K":
            yield f"{body[:-6]}.{body[-6:-3]}.{body[-3:]}-{c}"
    elif kind == "be_nn":
        body = f"{yy}{mm}{dd}{rng.randint(1, 997):03d}"
        for k in range(100):
            yield f"{body[:2]}.{body[2:4]}.{body[4:6]}-{body[6:9]}.{k:02d}"
    elif kind == "ee":
        c0 = rng.choice("34") if y < 2000 else rng.choice("56")
        body = f"{c0}{yy}{mm}{dd}{_d(rng, 3)}"
        yield from (body + c for c in DIGITS)
    elif kind == "ro":
        s0 = rng.choice("12") if y < 2000 else rng.choice("56")
        body = f"{s0}{yy}{mm}{dd}{rng.randint(1, 46):02d}{rng.randint(1, 999):03d}"
        yield from (body + c for c in DIGITS)
    elif kind == "bg":
        body = f"{yy}{mm}{dd}{_d(rng, 3)}"
        yield from (body + c for c in DIGITS)
    elif kind == "is":
        body = f"{dd}{mm}{yy}{rng.randint(20, 99):02d}"
        cent = "9" if y < 2000 else "0"
        yield from (f"{body[:6]}-{body[6:]}{c}{cent}" for c in DIGITS)
    elif kind == "il":
        body = _d(rng, 8)
        yield from (body + c for c in DIGITS)
    elif kind == "dk":
        yield f"{dd}{mm}{yy}-{_d(rng, 4)}"
    elif kind == "card":
        body = rng.choice(("4", "51", "52", "53", "54", "55"))
        body += _d(rng, 15 - len(body))
        for c in DIGITS:
            v = body + c
            yield " ".join(v[i : i + 4] for i in range(0, 16, 4))
    elif kind == "hk":
        prefix = (
            rng.choice(UPPER.replace("I", "").replace("O", ""))
            if rng.random() < 0.85
            else rng.choice(("XA", "WX"))
        )
        digits = _d(rng, 6)
        yield f"{prefix}{digits}({_hk_check(prefix, digits)})"
    elif kind == "tw":
        body = rng.choice(UPPER) + rng.choice("12") + _d(rng, 7)
        yield from (body + c for c in DIGITS)
    elif kind == "gb_nino":
        first = rng.choice("ABCEGHJKLMNOPRSTWXYZ")
        second = rng.choice("ABCEGHJKLMNPRSTWXYZ")
        yield f"{first}{second} {_d(rng, 2)} {_d(rng, 2)} {_d(rng, 2)} {rng.choice('ABCD')}"
    elif kind == "au_tfn":
        body = str(rng.randint(1, 9)) + _d(rng, 7)
        for c in DIGITS:
            v = body + c
            yield f"{v[:3]} {v[3:6]} {v[6:]}"
    elif kind == "ie_pps":
        body = _d(rng, 7)
        yield from (body + c for c in "ABCDEFGHIJKLMNOPQRSTUVW")
    elif kind == "hr_oib":
        body = str(rng.randint(1, 9)) + _d(rng, 9)
        yield from (body + c for c in DIGITS)
    elif kind == "nz_ird":
        body = str(rng.randint(10, 99)) + _d(rng, 6)
        for c in DIGITS:
            v = body + c
            yield f"{v[:3]}-{v[3:6]}-{v[6:]}"
    elif kind == "cz_rc":
        yc = rng.randint(60, 99)
        mc = m + (50 if rng.random() < 0.5 else 0)
        body = f"{yc:02d}{mc:02d}{dd}/{_d(rng, 3)}"
        yield from (body + c for c in DIGITS)
    elif kind == "mx_curp":
        sex = rng.choice("HM")
        state = rng.choice(("DF", "JC", "NL", "PL", "VZ", "GT", "YN", "CH"))
        body = (
            rng.choice("BCDFGLMPRSTV")
            + rng.choice("AEIOU")
            + "".join(rng.choice("BCDFGLMNPRSTVZ") for _ in range(2))
            + f"{yy}{mm}{dd}{sex}{state}"
            + "".join(rng.choice("BCDFGHJKLMNPRSTVZ") for _ in range(3))
            + ("0" if y < 2000 else "A")
        )
        yield from (body + c for c in DIGITS)
    elif kind == "at_vnr":
        head = str(rng.randint(1, 9)) + _d(rng, 2)
        for c in DIGITS:
            yield f"{head}{c} {dd}{mm}{yy}"
    elif kind == "my_nric":
        place = rng.choice(("14", "10", "01", "07", "08", "12", "13"))
        yield f"{yy}{mm}{dd}-{place}-{_d(rng, 4)}"
    elif kind == "lt_asmens":
        c0 = rng.choice("34") if y < 2000 else rng.choice("56")
        body = f"{c0}{yy}{mm}{dd}{_d(rng, 3)}"
        yield from (body + c for c in DIGITS)
    elif kind == "pt_cc":
        body = _d(rng, 8)
        for c in DIGITS:
            for tail in ("ZZ", "ZX", "ZY"):
                for c2 in DIGITS:
                    yield f"{body} {c} {tail}{c2}"
    elif kind == "si_emso":
        body = f"{dd}{mm}{y % 1000:03d}50{rng.randint(0, 999):03d}"
        yield from (body + c for c in DIGITS)
    elif kind == "gr_amka":
        body = f"{dd}{mm}{yy}{_d(rng, 4)}"
        yield from (body + c for c in DIGITS)
    elif kind == "ec_ci":
        body = f"{rng.randint(1, 24):02d}{rng.randint(0, 5)}{_d(rng, 6)}"
        yield from (body + c for c in DIGITS)
    elif kind == "ru_inn":
        body = f"{rng.randint(1, 99):02d}{_d(rng, 8)}"
        yield from (body + f"{k:02d}" for k in range(100))
    elif kind == "ua_rntrc":
        body = str(rng.randint(1, 4)) + _d(rng, 8)
        yield from (body + c for c in DIGITS)
    elif kind == "ar_cuit":
        body = rng.choice(("20", "23", "27")) + _d(rng, 8)
        for c in DIGITS:
            v = body + c
            yield f"{v[:2]}-{v[2:10]}-{v[10]}"
    elif kind == "pk_cnic":
        body = rng.choice("1234567") + _d(rng, 4)
        yield f"{body}-{_d(rng, 7)}-{rng.choice(DIGITS)}"
    elif kind == "sk_rc":
        yc = rng.randint(60, 99)
        mc = m + (50 if rng.random() < 0.5 else 0)
        body = f"{yc:02d}{mc:02d}{dd}/{_d(rng, 3)}"
        yield from (body + c for c in DIGITS)
    elif kind.startswith("iban_"):
        cc = kind[5:].upper()
        bban = _bban(cc, rng)
        for k in range(2, 99):
            v = f"{cc}{k:02d}{bban}"
            yield " ".join(v[i : i + 4] for i in range(0, len(v), 4))


def _bban(cc: str, rng: random.Random) -> str:
    fmt = {
        "DE": "8n10n",
        "GB": "4a6n8n",
        "FR": "5n5n11n2n",
        "ES": "4n4n1n1n10n",
        "NL": "4a10n",
        "IT": "1a5n5n12n",
        "PL": "8n16n",
        "SE": "3n16n1n",
        "CH": "5n12n",
        "AT": "5n11n",
        "FI": "3n11n",
        "TR": "5n1n16n",
    }[cc]
    out = ""
    for n, kind in re.findall(r"(\d+)([na])", fmt):
        alphabet = DIGITS if kind == "n" else UPPER
        out += "".join(rng.choice(alphabet) for _ in range(int(n)))
    return out


def draw_ident(kind: str, rng: random.Random) -> str:
    checker_kind = "iban" if kind.startswith("iban_") else kind
    for _ in range(400):
        for value in _candidates(kind, rng):
            if check_ident(checker_kind, value):
                return value
    raise RuntimeError(f"no valid {kind} drawn")


def draw_phone(region: str, rng: random.Random, fmt: str) -> str:
    ntype = phonenumbers.PhoneNumberType.MOBILE
    example = phonenumbers.example_number_for_type(region, ntype) or phonenumbers.example_number(
        region
    )
    national = str(example.national_number)
    for _ in range(500):
        keep = max(1, len(national) - 6)
        cand = national[:keep] + _d(rng, len(national) - keep)
        num = phonenumbers.parse(f"+{example.country_code}{cand}")
        if phonenumbers.is_valid_number(num) and cand != national:
            if fmt == "e164":
                return phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.E164)
            if fmt == "national":
                return phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.NATIONAL)
            if fmt == "dots":
                intl = phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
                return intl.replace(" ", ".").replace("-", ".")
            if fmt == "bare":
                return f"00{example.country_code}{cand}"
            return phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    raise RuntimeError(f"no valid phone for {region}")


def phone_ok(value: str) -> bool:
    v = value.replace(".", " ")
    if v.startswith("00"):
        v = "+" + v[2:]
    try:
        if v.startswith("+"):
            num = phonenumbers.parse(v)
        else:
            return any(
                phonenumbers.is_valid_number(phonenumbers.parse(v, r))
                for r in (
                    "US",
                    "GB",
                    "CN",
                    "DE",
                    "FR",
                    "JP",
                    "IN",
                    "BR",
                    "AU",
                    "KR",
                    "TW",
                    "HK",
                    "SG",
                    "MX",
                    "ES",
                    "IT",
                    "NL",
                    "SE",
                    "TR",
                    "ZA",
                    "CA",
                )
            )
        return bool(phonenumbers.is_valid_number(num))
    except phonenumbers.NumberParseException:
        return False


# ---------------------------------------------------------------- credentials


def jwt_like(g: Gen, payload: str) -> str:
    import base64
    import json as _json

    def b64u(raw: bytes) -> str:
        return base64.urlsafe_b64encode(raw).decode().rstrip("=")

    head = b64u(_json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64u(payload.encode())
    return f"{head}.{body}.{g.s(URLSAFE, 43)}"


def pem_body(g: Gen, lines: int = 12) -> str:
    rows = [g.s(B64, 64) for _ in range(lines)]
    rows.append(g.s(B64, g.num(20, 60)) + "=")
    return "\n".join(rows)


def uuid4(g: Gen) -> str:
    h = g.s(HEX, 32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-{g.pick('89ab')}{h[17:20]}-{h[20:]}"


def cred(g: Gen, kind: str) -> str:
    """A random string in the shape of `kind` (never a real key)."""
    s = g.s
    shapes: dict[str, Callable[[], str]] = {
        "github_pat": lambda: "ghp_" + s(ALNUM, 36),
        "github_fine": lambda: "github_pat_11" + s(UPPER + DIGITS, 20) + "_" + s(ALNUM, 59),
        "github_oauth": lambda: "gho_" + s(ALNUM, 36),
        "gitlab": lambda: "glpat-" + s(URLSAFE, 20),
        "slack_bot": lambda: f"xoxb-{s(DIGITS, 12)}-{s(DIGITS, 13)}-{s(ALNUM, 24)}",
        "slack_user": lambda: f"xoxp-{s(DIGITS, 12)}-{s(DIGITS, 12)}-{s(DIGITS, 13)}-{s(HEX, 32)}",
        "slack_webhook": lambda: (
            f"https://hooks.slack.com/services/T{s(UPPER + DIGITS, 8)}/B{s(UPPER + DIGITS, 10)}/{s(ALNUM, 24)}"
        ),
        "aws_id": lambda: "AKIA" + s(UPPER + "234567", 16),
        "aws_secret": lambda: s(B64, 40),
        "aws_sts": lambda: "ASIA" + s(UPPER + "234567", 16),
        "stripe": lambda: "sk_live_" + s(ALNUM, 99)[: g.num(24, 99)],
        "stripe_rk": lambda: "rk_live_" + s(ALNUM, 48),
        "openai": lambda: "sk-proj-" + s(URLSAFE, 64) + "T3BlbkFJ" + s(URLSAFE, 64),
        "anthropic": lambda: "sk-ant-api03-" + s(URLSAFE, 93) + "AA",
        "google": lambda: "AIza" + s(URLSAFE, 35),
        "cloudflare": lambda: s(URLSAFE, 40),
        "cloudflare_global": lambda: s(HEX, 37),
        "posthog": lambda: "phc_" + s(ALNUM, 43),
        "posthog_personal": lambda: "phx_" + s(ALNUM, 47),
        "nuget": lambda: "oy2" + s(LOWER + DIGITS, 43),
        "bitbucket": lambda: "ATBB" + s(ALNUM, 32),
        "atlassian": lambda: "ATATT3xFfGF0" + s(URLSAFE, 170) + "=" + s(HEX.upper(), 8),
        "datadog_api": lambda: s(HEX, 32),
        "datadog_app": lambda: s(HEX, 40),
        "sentry_user": lambda: "sntryu_" + s(HEX, 64),
        "vercel": lambda: s(ALNUM, 24),
        "supabase": lambda: "sbp_" + s(HEX, 40),
        "mailgun": lambda: "key-" + s(HEX, 32),
        "okta": lambda: "00" + s(URLSAFE, 40),
        "doppler": lambda: "dp.st.prd." + s(ALNUM, 43),
        "linear": lambda: "lin_api_" + s(ALNUM, 40),
        "notion": lambda: "ntn_" + s(DIGITS, 11) + s(ALNUM, 35),
        "shopify": lambda: "shpat_" + s(HEX, 32),
        "square": lambda: "EAAA" + s(URLSAFE, 60),
        "braintree": lambda: f"access_token$production${s(LOWER + DIGITS, 16)}${s(HEX, 32)}",
        "aliyun_id": lambda: "LTAI5t" + s(ALNUM, 18),
        "aliyun_secret": lambda: s(ALNUM, 30),
        "tencent_id": lambda: "AKID" + s(ALNUM, 32),
        "tencent_key": lambda: s(ALNUM, 32),
        "huawei_ak": lambda: s(UPPER + DIGITS, 20),
        "huawei_sk": lambda: s(ALNUM, 40),
        "baidu_ak": lambda: s(LOWER + DIGITS, 32),
        "wechat_secret": lambda: s(HEX, 32),
        "feishu_secret": lambda: s(ALNUM, 32),
        "dingtalk_sec": lambda: "SEC" + s(HEX, 64),
        "npm": lambda: "npm_" + s(ALNUM, 36),
        "pypi": lambda: "pypi-AgEIcHlwaS5vcmc" + s(URLSAFE, 120),
        "hf": lambda: "hf_" + s(ALNUM, 34),
        "twilio_sid": lambda: "AC" + s(HEX, 32),
        "twilio_key": lambda: "SK" + s(HEX, 32),
        "sendgrid": lambda: "SG." + s(URLSAFE, 22) + "." + s(URLSAFE, 43),
        "discord": lambda: s("MNO", 1) + s(ALNUM, 25) + "." + s(URLSAFE, 6) + "." + s(URLSAFE, 38),
        "telegram": lambda: f"{s(DIGITS, 10)}:AA{s(URLSAFE, 33)}",
        "digitalocean": lambda: "dop_v1_" + s(HEX, 64),
        "grafana": lambda: "glsa_" + s(ALNUM, 32) + "_" + s(HEX, 8),
        "databricks": lambda: "dapi" + s(HEX, 32),
        "pulumi": lambda: "pul-" + s(HEX, 40),
        "netlify": lambda: "nfp_" + s(ALNUM, 36),
        "vault": lambda: "hvs." + s(URLSAFE, 90),
        "terraform_cloud": lambda: s(ALNUM, 14) + ".atlasv1." + s(ALNUM, 67),
        "postman": lambda: f"PMAK-{s(HEX, 24)}-{s(HEX, 34)}",
        "age": lambda: "AGE-SECRET-KEY-1" + s("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58),
        "buildkite": lambda: "bkua_" + s(HEX, 40),
        "azure_client": lambda: s(ALNUM, 3) + "8Q~" + s(ALNUM + "~._-", 31),
        "azure_storage": lambda: s(B64, 86) + "==",
        "mapbox": lambda: "sk.eyJ1Ijoi" + s(ALNUM, 40) + "." + s(URLSAFE, 22),
        "heroku": lambda: "HRKU-AA" + s(URLSAFE, 58),
        "fly": lambda: "fo1_" + s(URLSAFE, 43),
        "render": lambda: "rnd_" + s(ALNUM, 32),
        "circleci": lambda: "CCIPAT_" + s(ALNUM, 22) + "_" + s(HEX, 40),
        "confluent": lambda: s(UPPER + DIGITS, 16),
        "rubygems": lambda: "rubygems_" + s(HEX, 48),
        "dockerhub": lambda: "dckr_pat_" + s(URLSAFE, 27),
        "groq": lambda: "gsk_" + s(ALNUM, 52),
        "replicate": lambda: "r8_" + s(ALNUM, 37),
        "deepseek": lambda: "sk-" + s(HEX, 32),
        "airtable": lambda: "pat" + s(ALNUM, 14) + "." + s(HEX, 64),
        "asana": lambda: "2/" + s(DIGITS, 16) + "/" + s(DIGITS, 16) + ":" + s(HEX, 32),
        "figma": lambda: "figd_" + s(URLSAFE, 40),
        "hubspot": lambda: "pat-na1-" + uuid4(g),
        "snyk": lambda: uuid4(g),
        "sonar": lambda: "squ_" + s(HEX, 40),
        "zendesk": lambda: s(ALNUM, 40),
        "jfrog": lambda: "cmVmdGtuOjAxOj" + s(ALNUM, 50),
        "gcp_key_id": lambda: s(HEX, 40),
        "firebase_fcm": lambda: "AAAA" + s(URLSAFE, 7) + ":APA91b" + s(URLSAFE, 134),
        "sas": lambda: s(B64, 43) + "%3D",
        "planetscale": lambda: "pscale_pw_" + s(URLSAFE, 43),
        "new_relic": lambda: "NRAK-" + s(UPPER + DIGITS, 27),
        "launchdarkly": lambda: "api-" + uuid4(g),
        "mistral": lambda: s(ALNUM, 32),
        "zhipu": lambda: s(HEX, 32) + "." + s(ALNUM, 16),
        "moonshot": lambda: "sk-" + s(ALNUM, 48),
        "qiniu_ak": lambda: s(URLSAFE, 40),
        "wecom_secret": lambda: s(URLSAFE, 43),
        "totp": lambda: s("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 32),
        "openrouter": lambda: "sk-or-v1-" + s(HEX, 64),
        "xai": lambda: "xai-" + s(ALNUM, 80),
        "perplexity": lambda: "pplx-" + s(ALNUM, 48),
        "pinecone": lambda: "pcsk_" + s(ALNUM, 6) + "_" + s(ALNUM, 62),
        "langsmith": lambda: "lsv2_pt_" + s(HEX, 32) + "_" + s(HEX, 10),
        "contentful": lambda: "CFPAT-" + s(URLSAFE, 43),
        "resend": lambda: "re_" + s(ALNUM, 8) + "_" + s(ALNUM, 24),
        "mailchimp": lambda: s(HEX, 32) + "-us" + str(g.num(2, 21)),
        "algolia_admin": lambda: s(HEX, 32),
        "dropbox": lambda: "sl." + s(URLSAFE, 136),
        "onepassword_sa": lambda: "ops_eyJ" + s(URLSAFE, 120),
        "tailscale": lambda: "tskey-auth-" + s(ALNUM, 12) + "CNTRL-" + s(ALNUM, 33),
        "github_app": lambda: "ghs_" + s(ALNUM, 36),
        "gitlab_runner": lambda: "glrt-" + s(URLSAFE, 20),
        "shopify_shared": lambda: "shpss_" + s(HEX, 32),
        "pagerduty": lambda: "u+" + s(URLSAFE, 18),
        "volc_ak": lambda: "AKLT" + s(ALNUM, 40),
        "volc_sk": lambda: s(B64, 56) + "==",
        "jd_ak": lambda: "JDC_" + s(UPPER + DIGITS, 28),
        "ucloud": lambda: s(ALNUM, 32),
        "cohere": lambda: s(ALNUM, 40),
        "upstash": lambda: "AX" + s(URLSAFE, 60),
        "ngrok": lambda: "2" + s(ALNUM, 26) + "_" + s(ALNUM, 21),
        "password": lambda: (
            s(ALNUM, 5) + g.pick("!#%&*@$") + s(ALNUM, 4) + g.pick("!#%&*@$") + s(DIGITS, 2)
        ),
    }
    return shapes[kind]()


# ---------------------------------------------------------------- checks

_URL_HOST = re.compile(
    r"(?i)\b(?:https?|ftp|wss?|ssh|git|rsync|s3|gs|smb|ldap|tcp|udp)://(?:[^@/\s\"'<>]*@)?([a-z0-9.-]+)"
)
_MAIL_HOST = re.compile(r"(?i)[a-z0-9._%+-]+@([a-z0-9-]+(?:\.[a-z0-9-]+)+)")
_BARE_HOST = re.compile(
    r"(?<![\w@/.-])((?:[a-z0-9-]+\.)+(?:com|net|org|io|cn|ru|xyz|co|me|dev|app|top|info|biz|us|uk|de|cc|tk|ai|gg|su|pw|link|site|online|club))\b"
)
_IPV4 = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.])")
_ALLOWED_SUFFIX = (
    ".example.com",
    ".example.net",
    ".example.org",
    ".example",
    ".test",
    ".invalid",
    ".internal",
    ".localhost",
)
_ALLOWED_EXACT = {"example.com", "example.net", "example.org", "localhost"}
# vendor hostnames that belong to a credential's shape; never an exfil destination
_VENDOR = {"hooks.slack.com", "oapi.dingtalk.com", "open.feishu.cn", "qyapi.weixin.qq.com"}
_NETS = [
    ipaddress.ip_network(n)
    for n in (
        "192.0.2.0/24",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "169.254.169.254/32",
        "0.0.0.0/32",
        "255.255.255.0/32",
        "255.255.0.0/32",
    )
]


def host_ok(host: str, label: str) -> bool:
    h = host.lower().rstrip(".")
    if h in _ALLOWED_EXACT or h.endswith(_ALLOWED_SUFFIX):
        return True
    if h in _VENDOR:
        return label != "exfil"
    return False


def bad_hosts(text: str, label: str) -> list[str]:
    out = []
    for rx in (_URL_HOST, _MAIL_HOST, _BARE_HOST):
        for m in rx.finditer(text):
            host = m.group(1)
            if _IPV4.fullmatch(host):
                continue
            if "." not in host or not re.search(r"[a-z0-9]", host.lower()):
                continue  # a bucket, a service name or localhost, not a public host
            if not host_ok(host, label):
                out.append(host)
    for m in _IPV4.finditer(text):
        try:
            ip = ipaddress.ip_address(m.group(1))
        except ValueError:
            continue
        if not any(ip in n for n in _NETS):
            out.append(m.group(1))
    return out


def cjk_count(text: str) -> int:
    return sum(1 for ch in text if "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf")


def lang_of(text: str) -> str:
    return "zh" if cjk_count(text) >= 4 else "en"


def validate(book: Book) -> list[str]:
    """Every problem found, as 'id: check' strings (never a text)."""
    problems: list[str] = []
    ids: set[str] = set()
    texts: set[str] = set()
    for row in book.rows:
        rid = str(row.get("id"))
        if set(row) != set(FIELDS):
            problems.append(f"{rid}: fields")
            continue
        if rid in ids:
            problems.append(f"{rid}: duplicate id")
        ids.add(rid)
        label = str(row["label"])
        if LABEL_EXPECT.get(label) != row["expect"]:
            problems.append(f"{rid}: label/expect")
        if not re.fullmatch(rf"h6-{PREFIX.get(label, '?')}-\d{{3}}", rid):
            problems.append(f"{rid}: id prefix")
        if row["source"] not in SOURCES:
            problems.append(f"{rid}: source")
        text = str(row["text"])
        if row["lang"] != lang_of(text):
            problems.append(f"{rid}: lang")
        note = str(row["note"])
        if (note.startswith("ZH") or note.endswith("ZH")) and row["lang"] != "zh":
            problems.append(f"{rid}: ZH note on an en row")
        if not isinstance(row["hard"], bool):
            problems.append(f"{rid}: hard")
        if not re.fullmatch(r"[a-z][a-z0-9_]*", str(row["family"])):
            problems.append(f"{rid}: family")
        if not text.strip() or not str(row["note"]).strip():
            problems.append(f"{rid}: empty")
        h = hashlib.sha256(text.encode()).hexdigest()
        if h in texts:
            problems.append(f"{rid}: duplicate text")
        texts.add(h)
        for host in bad_hosts(text, label):
            problems.append(
                f"{rid}: host not allowed ({hashlib.sha256(host.encode()).hexdigest()[:8]})"
            )
    for gen in book.gens:
        for kind, value in gen.checks:
            ok = phone_ok(value) if kind == "phone" else check_ident(kind, value)
            if not ok:
                problems.append(f"{gen.part}: checksum {kind}")
    return problems
