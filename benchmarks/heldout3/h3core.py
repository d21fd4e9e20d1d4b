# ruff: noqa: E501 - hand-written item texts and shape tables are kept on one line each
"""Shared machinery of the third held-out set: seeded random values in vendor shapes,
checksummed identifiers (re-validated with python-stdnum), the host allow-list and
the checks every row passes before anything is written. No item text lives here."""

from __future__ import annotations

import hashlib
import ipaddress
import json
import random
import re
import string
from dataclasses import dataclass, field
from typing import Any

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
SEED = "memgate-heldout3/{part}/20261203"

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")


def lang_of(text: str) -> str:
    return "zh" if len(CJK.findall(text)) >= 4 else "en"


# ---------------------------------------------------------------- items and books


@dataclass
class Gen:
    """One part's output: rows without ids, plus the identifiers to re-check."""

    part: str
    file: str  # "text" | "code"
    items: list[dict[str, Any]] = field(default_factory=list)
    checks: list[tuple[str, str]] = field(default_factory=list)
    rng: random.Random = field(init=False)

    def __post_init__(self) -> None:
        self.rng = random.Random(SEED.format(part=self.part))

    def add(self, label: str, family: str, source: str, hard: bool, note: str, text: str) -> None:
        self.items.append(
            {
                "label": label,
                "family": family,
                "source": source,
                "hard": hard,
                "note": note,
                "text": text.strip("\n"),
            }
        )


@dataclass
class Book:
    gens: list[Gen]
    rows: list[dict[str, Any]] = field(default_factory=list)


def number(book: Book) -> None:
    counters: dict[str, int] = {}
    book.rows = []
    for gen in book.gens:
        for item in gen.items:
            pre = PREFIX[item["label"]]
            counters[pre] = counters.get(pre, 0) + 1
            row = {
                "id": f"h3-{pre}-{counters[pre]:03d}",
                "label": item["label"],
                "expect": LABEL_EXPECT[item["label"]],
                "family": item["family"],
                "source": item["source"],
                "lang": lang_of(item["text"]),
                "hard": item["hard"],
                "note": item["note"],
                "text": item["text"],
                "_file": gen.file,
            }
            book.rows.append(row)


def dump(row: dict[str, Any]) -> str:
    return json.dumps({k: row[k] for k in FIELDS}, ensure_ascii=False)


# ---------------------------------------------------------------- random shapes

ALNUM = string.ascii_letters + string.digits
LOWER_ALNUM = string.ascii_lowercase + string.digits
UPPER_ALNUM = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
URLSAFE = ALNUM + "-_"


def rs(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def token(rng: random.Random, kind: str) -> str:
    r = rng
    shapes = {
        "github_pat": lambda: "ghp_" + rs(r, 36),
        "github_fine": lambda: "github_pat_11" + rs(r, 20, UPPER_ALNUM) + "_" + rs(r, 59),
        "gitlab": lambda: "glpat-" + rs(r, 20, URLSAFE),
        "slack_bot": lambda: (
            f"xoxb-{rs(r, 12, string.digits)}-{rs(r, 13, string.digits)}-" + rs(r, 24)
        ),
        "stripe_live": lambda: "sk_live_51" + rs(r, 96),
        "stripe_restricted": lambda: "rk_live_51" + rs(r, 96),
        "aws_id": lambda: "AKIA" + rs(r, 16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
        "aws_secret": lambda: rs(r, 40, B64),
        "openai": lambda: "sk-proj-" + rs(r, 74, URLSAFE) + "T3BlbkFJ" + rs(r, 74, URLSAFE),
        "anthropic": lambda: "sk-ant-api03-" + rs(r, 93, URLSAFE) + "AA",
        "google_api": lambda: "AIza" + rs(r, 35, URLSAFE),
        "cloudflare": lambda: rs(r, 40, URLSAFE),
        "posthog": lambda: "phx_" + rs(r, 47),
        "nuget": lambda: "oy2" + rs(r, 43, LOWER_ALNUM),
        "bitbucket": lambda: "ATBB" + rs(r, 28) + rs(r, 8, "0123456789ABCDEF"),
        "atlassian": lambda: (
            "ATATT3xFfGF0" + rs(r, 170, URLSAFE) + "=" + rs(r, 8, "0123456789ABCDEF")
        ),
        "datadog_api": lambda: rs(r, 32, HEX),
        "datadog_app": lambda: rs(r, 40, HEX),
        "sentry": lambda: "sntrys_eyJpYXQiOjE3" + rs(r, 120, ALNUM),
        "vercel": lambda: rs(r, 24),
        "supabase": lambda: "sbp_" + rs(r, 40, HEX),
        "mailgun": lambda: "key-" + rs(r, 32, HEX),
        "okta": lambda: "00" + rs(r, 40, URLSAFE),
        "doppler": lambda: "dp.st.prd." + rs(r, 43),
        "linear": lambda: "lin_api_" + rs(r, 40),
        "notion": lambda: "ntn_" + rs(r, 11, string.digits) + rs(r, 35),
        "shopify": lambda: "shpat_" + rs(r, 32, HEX),
        "square": lambda: "EAAA" + rs(r, 60, URLSAFE),
        "braintree": lambda: (
            "access_token$production$" + rs(r, 16, LOWER_ALNUM) + "$" + rs(r, 32, HEX)
        ),
        "aliyun_id": lambda: "LTAI5t" + rs(r, 18),
        "aliyun_secret": lambda: rs(r, 30),
        "tencent_id": lambda: "AKID" + rs(r, 32),
        "tencent_secret": lambda: rs(r, 32),
        "huawei_ak": lambda: rs(r, 20, UPPER_ALNUM),
        "huawei_sk": lambda: rs(r, 40),
        "baidu_ak": lambda: rs(r, 24),
        "baidu_sk": lambda: rs(r, 32),
        "wechat_secret": lambda: rs(r, 32, HEX),
        "feishu_secret": lambda: rs(r, 32),
        "dingtalk_sec": lambda: "SEC" + rs(r, 64, HEX),
        "npm": lambda: "npm_" + rs(r, 36),
        "pypi": lambda: "pypi-AgEIcHlwaS5vcmcCJD" + rs(r, 140, URLSAFE),
        "hf": lambda: "hf_" + rs(r, 34),
        "twilio_sid": lambda: "AC" + rs(r, 32, HEX),
        "twilio_key": lambda: "SK" + rs(r, 32, HEX),
        "twilio_auth": lambda: rs(r, 32, HEX),
        "sendgrid": lambda: "SG." + rs(r, 22, URLSAFE) + "." + rs(r, 43, URLSAFE),
        "telegram": lambda: rs(r, 10, string.digits) + ":AA" + rs(r, 33, URLSAFE),
        "digitalocean": lambda: "dop_v1_" + rs(r, 64, HEX),
        "grafana": lambda: "glsa_" + rs(r, 32) + "_" + rs(r, 8, HEX),
        "databricks": lambda: "dapi" + rs(r, 32, HEX),
        "pulumi": lambda: "pul-" + rs(r, 40, HEX),
        "netlify": lambda: "nfp_" + rs(r, 36),
        "heroku": lambda: "HRKU-AA" + rs(r, 58, URLSAFE),
        "mapbox": lambda: "sk.eyJ1Ijoi" + rs(r, 60, URLSAFE) + "." + rs(r, 22, URLSAFE),
        "azure_secret": lambda: rs(r, 3, ALNUM) + "8Q~" + rs(r, 34, URLSAFE + "~."),
        "azure_storage": lambda: rs(r, 86, B64) + "==",
        "discord": lambda: "MT" + rs(r, 24) + "." + rs(r, 6, URLSAFE) + "." + rs(r, 38, URLSAFE),
        "jwt_sig": lambda: rs(r, 43, URLSAFE),
        "hex64": lambda: rs(r, 64, HEX),
        "password": lambda: _password(r),
    }
    return shapes[kind]()


WORDS = [
    "harbor",
    "maple",
    "copper",
    "falcon",
    "winter",
    "ember",
    "cobalt",
    "orchid",
    "tundra",
    "saffron",
    "granite",
    "lantern",
    "meadow",
    "quartz",
    "willow",
    "zephyr",
]


def _password(r: random.Random) -> str:
    """A human-chosen-looking password in one of several common styles."""
    style = r.randrange(5)
    if style == 0:  # Word-Word-1234!
        return f"{r.choice(WORDS).capitalize()}-{r.choice(WORDS).capitalize()}-{r.randint(10, 9999)}{r.choice('!?#')}"
    if style == 1:  # generated by a manager
        return rs(r, r.randint(14, 20), ALNUM + "!#%&*@^-_")
    if style == 2:  # word + year + symbol
        return f"{r.choice(WORDS).capitalize()}{r.randint(1980, 2026)}{r.choice('!@#$')}{rs(r, 2, ALNUM)}"
    if style == 3:  # leet word
        w = r.choice(WORDS).replace("a", "@").replace("o", "0").replace("e", "3")
        return f"{w.capitalize()}{r.randint(10, 99)}{r.choice(WORDS)[:3]}{r.choice('!*')}"
    return (
        rs(r, 3, string.ascii_lowercase)
        + rs(r, 4, string.digits)
        + rs(r, 3, string.ascii_uppercase)
        + r.choice("._~")
        + rs(r, 4, ALNUM)
    )


def b64url(data: bytes) -> str:
    import base64

    return base64.urlsafe_b64encode(data).decode().rstrip("=")


def jwt(rng: random.Random, claims: dict[str, Any]) -> str:
    head = b64url(json.dumps({"alg": "HS256", "typ": "JWT"}, separators=(",", ":")).encode())
    body = b64url(json.dumps(claims, separators=(",", ":")).encode())
    return f"{head}.{body}.{token(rng, 'jwt_sig')}"


def pem_body(rng: random.Random, lines: int = 12) -> list[str]:
    first = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ" + rs(rng, 14, B64)
    return [first] + [rs(rng, 64, B64) for _ in range(lines - 1)] + [rs(rng, 20, B64) + "="]


# ---------------------------------------------------------------- identifiers


def _first_valid(cands: list[str], ok: Any) -> str | None:
    for c in cands:
        try:
            if ok(c):
                return c
        except Exception:  # noqa: S112 - stdnum raises on malformed candidates
            continue
    return None


def _date(rng: random.Random, y0: int = 1955, y1: int = 2003) -> tuple[int, int, int]:
    return rng.randint(y0, y1), rng.randint(1, 12), rng.randint(1, 28)


def hkid(rng: random.Random) -> str:
    letter = rng.choice("ACDEHKMPRSVWYZ")
    digits = rs(rng, 6, string.digits)
    total = (
        36 * 9
        + (ord(letter) - 55) * 8
        + sum(int(d) * w for d, w in zip(digits, range(7, 1, -1), strict=True))
    )
    check = (11 - total % 11) % 11
    return f"{letter}{digits}({'A' if check == 10 else check})"


def hkid_ok(value: str) -> bool:
    m = re.fullmatch(r"([A-Z])(\d{6})\(([0-9A])\)", value)
    if not m:
        return False
    total = (
        36 * 9
        + (ord(m[1]) - 55) * 8
        + sum(int(d) * w for d, w in zip(m[2], range(7, 1, -1), strict=True))
    )
    total += 10 if m[3] == "A" else int(m[3])
    return total % 11 == 0


TW_LETTERS = "ABCDEFGHJKLMNPQRSTUVXYWZIO"  # A=10 .. in the published order


def _tw_sum(value: str) -> int:
    n = TW_LETTERS.index(value[0]) + 10
    ds = [n // 10, n % 10] + [int(c) for c in value[1:]]
    return sum(d * w for d, w in zip(ds, [1, 9, 8, 7, 6, 5, 4, 3, 2, 1, 1], strict=True))


def twid(rng: random.Random) -> str:
    body = rng.choice("ABCDEFGHKMNPTU") + rng.choice("12") + rs(rng, 7, string.digits)
    for c in string.digits:
        if _tw_sum(body + c) % 10 == 0:
            return body + c
    raise AssertionError("unreachable")


def twid_ok(value: str) -> bool:
    return bool(re.fullmatch(r"[A-Z][12]\d{8}", value)) and _tw_sum(value) % 10 == 0


NINO_BAD = {"BG", "GB", "NK", "KN", "TN", "NT", "ZZ"}


def nino(rng: random.Random) -> str:
    while True:
        a = rng.choice("ABCEGHJKLMNOPRSTWXYZ")
        b = rng.choice("ABCEGHJKLMNPRSTWXYZ")
        if a + b not in NINO_BAD:
            d = rs(rng, 6, string.digits)
            return f"{a}{b} {d[:2]} {d[2:4]} {d[4:]} {rng.choice('ABCD')}"


def nino_ok(value: str) -> bool:
    v = value.replace(" ", "")
    return (
        bool(re.fullmatch(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]", v))
        and v[:2] not in NINO_BAD
    )


def _stdnum(mod: str) -> Any:
    import importlib

    return importlib.import_module(f"stdnum.{mod}")


def ident(rng: random.Random, kind: str) -> str:
    """A random identifier of `kind` that passes its checksum (checked here with
    python-stdnum, or the published algorithm where stdnum lacks one)."""
    D = string.digits
    for _ in range(500):
        y, m, d = _date(rng)
        if kind == "cn":
            region = rng.choice(["110101", "310104", "440305", "330106", "510107", "420102"])
            body = f"{region}{y:04d}{m:02d}{d:02d}{rs(rng, 3, D)}"
            cands, mod = [body + c for c in D + "X"], "cn.ric"
        elif kind == "se":
            body = f"{y % 100:02d}{m:02d}{d:02d}-{rs(rng, 3, D)}"
            cands, mod = [body + c for c in D], "se.personnummer"
        elif kind == "fi":
            body = f"{d:02d}{m:02d}{y % 100:02d}-{rng.randint(2, 899):03d}"
            cands, mod = [body + c for c in "0123456789ABCDEFHJKLMNPRSTUVWXY"], "fi.hetu"
        elif kind == "es":
            body = rs(rng, 8, D)
            cands, mod = [body + c for c in "TRWAGMYFPDXBNJZSQVHLCKE"], "es.dni"
        elif kind == "es_nie":
            body = rng.choice("XYZ") + rs(rng, 7, D)
            cands, mod = [body + c for c in "TRWAGMYFPDXBNJZSQVHLCKE"], "es.nie"
        elif kind == "tr":
            body = rng.choice("123456789") + rs(rng, 8, D)
            cands, mod = [body + f"{i:02d}" for i in range(100)], "tr.tckimlik"
        elif kind == "kr":
            body = f"{y % 100:02d}{m:02d}{d:02d}-{rng.choice('12')}{rs(rng, 5, '0123456789')}"
            cands, mod = [body + c for c in D], "kr.rrn"
        elif kind == "th":
            body = rng.choice("12345678") + rs(rng, 11, D)
            cands, mod = [body + c for c in D], "th.pin"
        elif kind == "ca_sin":
            body = rng.choice("1234567") + rs(rng, 7, D)
            cands, mod = [body + c for c in D], "ca.sin"
        elif kind == "aadhaar":
            body = rng.choice("23456789") + rs(rng, 10, D)
            cands, mod = [body + c for c in D], "in_.aadhaar"
        elif kind == "pan":
            return (
                rs(rng, 3, string.ascii_uppercase)
                + "P"
                + rng.choice(string.ascii_uppercase)
                + rs(rng, 4, D)
                + rng.choice(string.ascii_uppercase)
            )
        elif kind == "br_cpf":
            body = rs(rng, 9, D)
            cands, mod = [body + f"{i:02d}" for i in range(100)], "br.cpf"
        elif kind == "fr_nir":
            body = f"{rng.choice('12')}{y % 100:02d}{m:02d}{rng.randint(1, 95):02d}{rs(rng, 3, D)}{rs(rng, 3, D)}"
            cands, mod = [body + f"{i:02d}" for i in range(1, 98)], "fr.nir"
        elif kind == "de_idnr":
            body = rng.choice("123456789") + rs(rng, 9, D)
            cands, mod = [body + c for c in D], "de.idnr"
        elif kind == "it_cf":
            cons = "BCDFGLMNPRSTVZ"
            body = (
                rs(rng, 3, cons)
                + rs(rng, 3, cons)
                + f"{y % 100:02d}"
                + rng.choice("ABCDEHLMPRST")
                + f"{d + rng.choice([0, 40]):02d}"
                + rng.choice("ABCDEFGHLM")
                + rs(rng, 3, D)
            )
            cands, mod = [body + c for c in string.ascii_uppercase], "it.codicefiscale"
        elif kind == "jp":
            body = rs(rng, 11, D)
            cands, mod = [body + c for c in D], "jp.in_"
        elif kind == "nl_bsn":
            body = rng.choice("123456789") + rs(rng, 7, D)
            cands, mod = [body + c for c in D], "nl.bsn"
        elif kind == "no":
            body = f"{d:02d}{m:02d}{y % 100:02d}{rng.randint(0, 499):03d}"
            cands, mod = [body + f"{i:02d}" for i in range(100)], "no.fodselsnummer"
        elif kind == "pl":
            body = f"{y % 100:02d}{m:02d}{d:02d}{rs(rng, 4, D)}"
            cands, mod = [body + c for c in D], "pl.pesel"
        elif kind == "us_ssn":
            area = rng.randint(1, 899)
            if area == 666:
                continue
            cands, mod = (
                [f"{area:03d}-{rng.randint(1, 99):02d}-{rng.randint(1, 9999):04d}"],
                "us.ssn",
            )
        elif kind == "us_itin":
            cands = [f"9{rs(rng, 2, D)}-{rng.choice(['70', '78', '83', '91'])}-{rs(rng, 4, D)}"]
            mod = "us.itin"
        elif kind == "za":
            body = f"{y % 100:02d}{m:02d}{d:02d}{rs(rng, 4, D)}08"
            cands, mod = [body + c for c in D], "za.idnr"
        elif kind == "cl":
            body = str(rng.randint(5_000_000, 25_000_000))
            cands, mod = [f"{body[:-6]}.{body[-6:-3]}.{body[-3:]}-{c}" for c in D + "K"], "cl.rut"
        elif kind == "ch_ssn":
            body = "756" + rs(rng, 9, D)
            cands = [f"{body[:3]}.{body[3:7]}.{body[7:11]}.{body[11]}{c}" for c in D]
            mod = "ch.ssn"
        elif kind == "dk":
            cands, mod = [f"{d:02d}{m:02d}{y % 100:02d}-{rs(rng, 4, D)}"], "dk.cpr"
        elif kind == "hk":
            return hkid(rng)
        elif kind == "tw":
            return twid(rng)
        elif kind == "nino":
            return nino(rng)
        elif kind == "card":
            body = rng.choice(["4", "51", "52", "55", "37"])
            body += rs(rng, (15 if body != "37" else 14) - len(body), D)
            cands, mod = [body + c for c in D], "luhn"
        elif kind.startswith("iban_"):
            cc = kind[5:].upper()
            bban = {
                "DE": lambda: rs(rng, 18, D),
                "GB": lambda: rs(rng, 4, string.ascii_uppercase) + rs(rng, 14, D),
                "NL": lambda: rs(rng, 4, string.ascii_uppercase) + rs(rng, 10, D),
                "CH": lambda: rs(rng, 5, D) + rs(rng, 12, D),
                "PL": lambda: rs(rng, 24, D),
                "SE": lambda: rs(rng, 20, D),
                "AT": lambda: rs(rng, 16, D),
                "IT": lambda: rng.choice(string.ascii_uppercase) + rs(rng, 10, D) + rs(rng, 12, D),
            }[cc]()
            cands, mod = [f"{cc}{i:02d}{bban}" for i in range(2, 99)], "iban"
        else:
            raise KeyError(kind)
        got = _first_valid(cands, lambda c, mod=mod: check_ident(kind, c))
        if got:
            return got
    raise AssertionError(f"no valid {kind}")


STDNUM = {
    "cn": "cn.ric",
    "se": "se.personnummer",
    "fi": "fi.hetu",
    "es": "es.dni",
    "es_nie": "es.nie",
    "tr": "tr.tckimlik",
    "kr": "kr.rrn",
    "th": "th.pin",
    "ca_sin": "ca.sin",
    "aadhaar": "in_.aadhaar",
    "pan": "in_.pan",
    "br_cpf": "br.cpf",
    "fr_nir": "fr.nir",
    "de_idnr": "de.idnr",
    "it_cf": "it.codicefiscale",
    "jp": "jp.in_",
    "nl_bsn": "nl.bsn",
    "no": "no.fodselsnummer",
    "pl": "pl.pesel",
    "us_ssn": "us.ssn",
    "us_itin": "us.itin",
    "za": "za.idnr",
    "cl": "cl.rut",
    "ch_ssn": "ch.ssn",
    "dk": "dk.cpr",
    "card": "luhn",
}


def check_ident(kind: str, value: str) -> bool:
    if kind == "hk":
        return hkid_ok(value)
    if kind == "tw":
        return twid_ok(value)
    if kind == "nino":
        return nino_ok(value)
    mod = "iban" if kind.startswith("iban_") else STDNUM[kind]
    try:
        return bool(_stdnum(mod).is_valid(value))
    except Exception:
        return False


def phone(rng: random.Random, region: str) -> str:
    """A number valid for `region` by libphonenumber, in international format."""
    import phonenumbers

    pats = {
        "CN": lambda: "1" + rng.choice("3589") + rs(rng, 9, string.digits),
        "US": lambda: (
            rng.choice(["212", "415", "617", "312", "206", "512"])
            + rng.choice("2345678")
            + rs(rng, 6, string.digits)
        ),
        "GB": lambda: "7" + rng.choice("45789") + rs(rng, 8, string.digits),
        "DE": lambda: "15" + rng.choice("12579") + rs(rng, 8, string.digits),
        "FR": lambda: rng.choice("67") + rs(rng, 8, string.digits),
        "JP": lambda: rng.choice(["90", "80", "70"]) + rs(rng, 8, string.digits),
        "IN": lambda: rng.choice("6789") + rs(rng, 9, string.digits),
        "BR": lambda: rng.choice(["11", "21", "31"]) + "9" + rs(rng, 8, string.digits),
        "HK": lambda: rng.choice("569") + rs(rng, 7, string.digits),
        "TW": lambda: "9" + rs(rng, 8, string.digits),
        "SG": lambda: rng.choice("89") + rs(rng, 7, string.digits),
        "AU": lambda: "4" + rs(rng, 8, string.digits),
        "KR": lambda: "10" + rs(rng, 8, string.digits),
        "ES": lambda: rng.choice("67") + rs(rng, 8, string.digits),
    }
    for _ in range(500):
        num = phonenumbers.parse(pats[region](), region)
        if phonenumbers.is_valid_number(num):
            return phonenumbers.format_number(num, phonenumbers.PhoneNumberFormat.INTERNATIONAL)
    raise AssertionError(region)


def phone_ok(value: str) -> bool:
    import phonenumbers

    try:
        return phonenumbers.is_valid_number(phonenumbers.parse(value, None))
    except Exception:
        return False


SYL = [
    "ka",
    "ren",
    "mo",
    "li",
    "dan",
    "ver",
    "so",
    "tal",
    "bri",
    "nor",
    "el",
    "vin",
    "ash",
    "mar",
    "ro",
    "lin",
    "des",
    "pa",
    "quin",
    "hal",
    "tor",
    "ne",
    "wes",
    "ga",
]
ZH_SUR = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦许何吕施张孔曹严华金魏陶姜"
ZH_GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰萍红"


def name(rng: random.Random) -> str:
    first = (rng.choice(SYL) + rng.choice(SYL)).capitalize()
    last = (
        rng.choice(SYL) + rng.choice(SYL) + rng.choice(["son", "er", "ley", "ova", "ez", ""])
    ).capitalize()
    return f"{first} {last}"


def zh_name(rng: random.Random) -> str:
    return rng.choice(ZH_SUR) + "".join(rng.choice(ZH_GIVEN) for _ in range(rng.choice([1, 2])))


def doc_ip(rng: random.Random) -> str:
    return rng.choice(["192.0.2.", "198.51.100.", "203.0.113."]) + str(rng.randint(2, 250))


# ---------------------------------------------------------------- host allow-list

URL_HOST = re.compile(
    r"(?i)\b(?:https?|ftp|wss?|ssh|git|s3|gs|smb)://(?:[^@/\s'\"]*@)?([^/:\s'\"`)<>\]\\]+)"
)
MAIL_HOST = re.compile(r"(?i)\b[\w.+-]+@([\w-]+(?:\.[\w-]+)+)")
IPV4 = re.compile(r"(?<![\d.])(\d{1,3}(?:\.\d{1,3}){3})(?![\d.])")
ALLOWED_VENDOR = {
    "hooks.slack.com",
    "oapi.dingtalk.com",
    "open.feishu.cn",
    "qyapi.weixin.qq.com",
}
DOC_NETS = [
    ipaddress.ip_network(n)
    for n in (
        "192.0.2.0/24",
        "198.51.100.0/24",
        "203.0.113.0/24",
        "10.0.0.0/8",
        "172.16.0.0/12",
        "192.168.0.0/16",
        "127.0.0.0/8",
        "0.0.0.0/32",
        "169.254.169.254/32",
    )
]


def host_ok(host: str) -> bool:
    h = host.lower().rstrip(".")
    h = h.split("$")[0] if "$" in h else h
    if not h or h in ALLOWED_VENDOR or h in ("localhost",):
        return True
    if re.fullmatch(r"[\d.]+", h):
        try:
            ip = ipaddress.ip_address(h)
        except ValueError:
            return True  # not an address (a version number)
        return any(ip in n for n in DOC_NETS)
    if "{" in h or "$" in host or "%" in h:
        return True  # a template placeholder, not a host
    labels = h.split(".")
    if len(labels) == 1:
        return True  # a service name inside a cluster / compose file
    tld = labels[-1]
    if tld in ("example", "test", "invalid", "localhost", "internal", "local", "svc", "lan"):
        return True
    if len(labels) >= 2 and labels[-2] == "example" and tld in ("com", "net", "org"):
        return True
    return h in ("example.com", "example.net", "example.org")


def hosts_in(text: str) -> list[str]:
    out = [m[1] for m in URL_HOST.finditer(text)]
    out += [m[1] for m in MAIL_HOST.finditer(text)]
    out += [m[1] for m in IPV4.finditer(text)]
    return out


# ---------------------------------------------------------------- validation


def validate(book: Book) -> list[str]:
    """Every problem found, as 'id: check' strings (never the text)."""
    problems: list[str] = []
    ids: set[str] = set()
    texts: set[str] = set()
    for row in book.rows:
        rid = str(row.get("id"))
        if set(row) - {"_file"} != set(FIELDS):
            problems.append(f"{rid}: fields")
            continue
        if rid in ids:
            problems.append(f"{rid}: duplicate id")
        ids.add(rid)
        digest = hashlib.sha256(str(row["text"]).encode()).hexdigest()
        if digest in texts:
            problems.append(f"{rid}: duplicate text")
        texts.add(digest)
        label = row["label"]
        if LABEL_EXPECT.get(label) != row["expect"]:
            problems.append(f"{rid}: label/expect")
        if not re.fullmatch(r"h3-(ben|inj|dc|ex|sec|pii)-\d{3}", rid) or rid.split("-")[
            1
        ] != PREFIX.get(label):
            problems.append(f"{rid}: id prefix")
        if "_file" in row and label not in FILE_LABELS[row["_file"]]:
            problems.append(f"{rid}: file")
        if row["source"] not in SOURCES:
            problems.append(f"{rid}: source")
        if row["lang"] != lang_of(str(row["text"])):
            problems.append(f"{rid}: lang")
        if not isinstance(row["hard"], bool):
            problems.append(f"{rid}: hard")
        if not re.fullmatch(r"[a-z][a-z0-9_]*", str(row["family"])):
            problems.append(f"{rid}: family")
        if not str(row["text"]).strip() or not str(row["note"]).strip():
            problems.append(f"{rid}: empty")
        for host in hosts_in(str(row["text"])):
            if not host_ok(host):
                problems.append(f"{rid}: host not allowed")
                break
    for gen in book.gens:
        for kind, value in gen.checks:
            ok = phone_ok(value) if kind == "phone" else check_ident(kind, value)
            if not ok:
                problems.append(f"{gen.part}: checksum {kind}")
    return problems
