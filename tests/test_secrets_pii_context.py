"""Labels after the value, passphrases, Wi-Fi tool output, ZH payment PINs, and a national
ID of any country stdnum validates reached by a generic label (issue 14, item 4), through
the public Inspector; each with benign twins. Values come from a seeded RNG (IDs made
valid with python-stdnum), never literals; `tests/scan_cases_eval.py` measures the wider
generated set (tests/scan_cases_gen.py) by tune / check half."""

from __future__ import annotations

import random
import string

import pytest
from stdnum.bg import egn
from stdnum.ee import ik
from stdnum.pk import cnic
from stdnum.pl import pesel

from memgate.domain import Decision, Source
from memgate.trust.inspector import Inspector

R = random.Random(141)


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default()


def typed_pw() -> str:
    return (
        "".join(R.choice(string.ascii_letters) for _ in range(6)) + str(R.randint(100, 999)) + "!"
    )


def passphrase() -> str:
    words = [
        "".join(R.choice(string.ascii_lowercase) for _ in range(R.randint(4, 7))) for _ in range(4)
    ]
    return "-".join(words)


def valid(module: object, length: int, prefix: str = "") -> str:
    is_valid = module.is_valid  # type: ignore[attr-defined]
    for _ in range(10_000):
        body = prefix + "".join(R.choice(string.digits) for _ in range(length - len(prefix)))
        if is_valid(body):
            return body
    raise AssertionError("no valid number found")


def sensitive(inspector: Inspector, text: str, value: str, source: Source, category: str) -> None:
    report = inspector.inspect(text, source)
    assert report.decision is not Decision.APPROVE, (text, report.findings)
    assert category in {str(f.category) for f in report.findings}, (text, report.findings)
    assert value not in report.redacted, report.redacted  # the value never survives
    for finding in report.findings:
        assert value not in repr(finding)


AFTER_EN = [
    "{v} is the password for the staging box.",
    "{v} - that's the wifi password for the guest network.",
    "Use {v} as the password when the installer asks.",
    "{v} (the admin password for Jenkins)",
    "'{v}' = the VPN password",
]
AFTER_ZH = [
    "{v} 是测试环境的管理员密码",
    "{v}就是家里路由器的密码",
    "记住：{v}，这是VPN的登录口令。",
]


@pytest.mark.parametrize("template", AFTER_EN + AFTER_ZH)
def test_password_named_after_its_value(inspector: Inspector, template: str) -> None:
    value = typed_pw()
    sensitive(inspector, template.format(v=value), value.rstrip("!"), Source.USER, "secret")


@pytest.mark.parametrize(
    "template",
    [
        'database:\n  password: "{v}"\n',
        "<dataSource>\n  <password>{v}</password>\n</dataSource>",
        '{{"db": {{"user": "app", "pass": "{v}"}}}}',
        'DB_PASSWORD = os.environ.get("DB_PASSWORD", "{v}")\n',
    ],
)
def test_passphrase_in_structured_carriers(inspector: Inspector, template: str) -> None:
    value = passphrase()
    sensitive(inspector, template.format(v=value), value, Source.USER, "secret")


def test_wifi_tool_output_and_zh_payment_pin(inspector: Inspector) -> None:
    value = "".join(R.choice(string.ascii_lowercase) for _ in range(8)) + "417"
    sensitive(inspector, f"Key Content            : {value}", value, Source.TOOL, "secret")
    psk = typed_pw().rstrip("!")
    sensitive(inspector, f"802-11-wireless-security.psk:  {psk}", psk, Source.TOOL, "secret")
    pin = "4" + "".join(R.choice("13579") for _ in range(5))
    sensitive(inspector, f"支付密码 {pin}，别告诉别人", pin, Source.USER, "secret")


@pytest.mark.parametrize(
    "text",
    [
        "Wi-Fi network name: Guest-7K2A (no password, captive portal)",
        "commit 3f9c2d1e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d (add a GitLab token detector)",
        "commit 3f9c2d1e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d (Adjust regex to pass new test)",
        "Bitwarden2 is the password manager we use.",
        "- uses: actions/cache@v4\n  with:\n    key: deps-3f9c2d1e8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d",
        "银行卡密码 2024 年要改",
        "password: not-set-yet",
        "Key Content            : Absent",
        "MAPBOX_SECRET_TOKEN=${OPENAI_API_KEY}",
    ],
)
def test_benign_twins_stay_approved(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.USER)
    assert not {str(f.category) for f in report.findings} & {"secret", "pii"}, report.findings


def test_generic_id_label_any_country_before_and_after(inspector: Inspector) -> None:
    bg = valid(egn, 10, "83")
    ee = valid(ik, 11, "4")
    pk = valid(cnic, 13, "35")
    pk_dashed = f"{pk[:5]}-{pk[5:12]}-{pk[12]}"
    for text, value in [
        (f"National ID: {bg} (Petrov)", bg),
        (f"客户的证件号码是{ee}", ee),
        (f"{ee} is her personal identity number.", ee),
        (f"{bg} 是他的身份证号", bg),
        (f"Please update the record with CNIC {pk_dashed} for Maria.", pk_dashed),
        # an ASCII label right after a CJK character is a label (`波兰PESEL`)
        (f"波兰PESEL：{valid(pesel, 11, '8')}", None),
    ]:
        report = inspector.inspect(text, Source.USER)
        assert report.decision is not Decision.APPROVE, (text, report.findings)
        assert "pii" in {str(f.category) for f in report.findings}, text
        if value is not None:
            assert value not in report.redacted


def test_generic_id_label_precision(inspector: Inspector) -> None:
    bg = valid(egn, 10, "83")
    for text in [
        "Ticket ID number 48213377 closed.",
        "Order ID number 2024011700312 shipped.",
        "身份证号必须是18位",
        # the label names the first number, not the date after it
        f"身份证号 {bg}，入职日期 2024-07-01",
        # the label is a Pakistani card's: a Dominican cédula's digits do not pass it
        "CNIC 00100759932",
    ]:
        report = inspector.inspect(text, Source.USER)
        spans = [f.span for f in report.findings if f.rule_id == "MG-ID-047"]
        assert all(text[a:b] == bg for a, b in spans), (text, report.findings)
