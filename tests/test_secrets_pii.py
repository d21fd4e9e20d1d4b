"""Secret and personal-data rules through the Scanner: values are redacted everywhere,
fingerprints are stable, benign look-alikes stay clean, and no regex hangs."""

from __future__ import annotations

import re
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memgate.domain import Category, Source
from memgate.scanning import BUILTIN_ANALYZERS, Scanner, ScanResult, default_rules_dir, load_rules
from memgate.scanning.examples import expand

FILES = [default_rules_dir() / f for f in ("secrets.toml", "pii.toml", "identifiers.toml")]
MAX_SECONDS = 2.0


@pytest.fixture(scope="module")
def scanner() -> Scanner:
    return Scanner(load_rules(FILES), BUILTIN_ANALYZERS, fingerprint_key=b"test-key")


def _sensitive(result: ScanResult) -> list[str]:
    return [f.rule_id for f in result.findings if f.category in (Category.SECRET, Category.PII)]


def _assert_redacted(result: ScanResult, value: str) -> None:
    assert value not in result.redacted
    for finding in result.findings:
        assert value not in finding.evidence
        assert value not in finding.model_dump_json()


# Each case: a template with a {{gen:...}} value, the value's template, the rule expected.
SECRET_CASES = [
    ("aws_access_key_id = {v}", "AKIA{{gen:upper_digit:16}}", "MG-SEC-001"),
    ("aws_secret_access_key = {v}", "{{gen:alnum:40}}", "MG-SEC-002"),
    ("export GH_TOKEN={v}", "ghp_{{gen:alnum:36}}", "MG-SEC-008"),
    ("bot: {v}", "xoxb-{{gen:digit:11}}-{{gen:digit:13}}-{{gen:alnum:24}}", "MG-SEC-011"),
    ("STRIPE_KEY={v}", "sk_live_{{gen:alnum:24}}", "MG-SEC-013"),
    ("key is {v} ok", "sk-ant-api03-{{gen:b64url:93}}AA", "MG-SEC-016"),
    ("admin: {v}", "sk-ant-admin01-{{gen:b64url:93}}AA", "MG-SEC-016"),
    ("CLAUDE_TOKEN={v}", "sk-ant-oat01-{{gen:b64url:95}}AA", "MG-SEC-044"),
    ("INTRA_SECRET={v}", "s-s4t2ud-{{gen:hex:64}}", "MG-SEC-040"),
    ("curl --user\\\n  'ops:{v}' https://api.example.com", "{{gen:alnum:14}}7", "MG-SEC-034"),
    ("SENDGRID={v}", "SG.{{gen:b64url:22}}.{{gen:b64url:43}}", "MG-SEC-019"),
    ("DATABASE_URL=postgres://app:{v}@db.example.net:5432/app", "{{gen:alnum:18}}", "MG-SEC-028"),
    ('{{"db": {{"password": "{v}"}}}}', "{{gen:alnum:14}}7!", "MG-SEC-031"),
    ("app.encryption-key: {v}", "{{gen:alnum:32}}", "MG-SEC-031"),
    ("Secret_B64 => '{v}'", "{{gen:alnum:36}}", "MG-SEC-031"),
    (
        'curl -H "Authorization: Bearer {v}" https://api.example.com',
        "{{gen:alnum:40}}",
        "MG-SEC-032",
    ),
]


@pytest.mark.parametrize(("template", "value_template", "rule_id"), SECRET_CASES)
def test_secret_is_found_and_redacted(
    scanner: Scanner, template: str, value_template: str, rule_id: str
) -> None:
    value = expand(value_template, rule_id)
    text = template.format(v=value)
    result = scanner.scan(text, Source.AGENT)
    assert rule_id in _sensitive(result)
    _assert_redacted(result, value)
    assert f"[REDACTED:{rule_id}:" in result.redacted or "[REDACTED:MG-" in result.redacted


def test_unlabeled_aws_secret_next_to_its_key_id(scanner: Scanner) -> None:
    key_id = expand("AKIA{{gen:upper_digit:16}}", "pair-id")
    secret = expand("{{gen:alnum:20}}/{{gen:alnum:19}}", "pair-secret")
    result = scanner.scan(f"IAM user ci-deploy\n{key_id}\t{secret}\n")
    assert {"MG-SEC-001", "MG-SEC-043"} <= set(_sensitive(result))
    _assert_redacted(result, secret)
    far = scanner.scan(f"{key_id}\n" + "notes " * 40 + secret)
    assert "MG-SEC-043" not in _sensitive(far)


def test_only_the_value_is_redacted(scanner: Scanner) -> None:
    value = expand("{{gen:alnum:32}}", "only-value")
    result = scanner.scan(f"API_TOKEN={value}\nregion=eu-west-1")
    assert result.redacted.startswith("API_TOKEN=[REDACTED:MG-SEC-031:")
    assert result.redacted.endswith("\nregion=eu-west-1")


def test_fingerprint_is_stable_and_value_specific(scanner: Scanner) -> None:
    a = expand("ghp_{{gen:alnum:36}}", "fp-a")
    b = expand("ghp_{{gen:alnum:36}}", "fp-b")
    first = scanner.scan(f"token {a}")
    second = scanner.scan(f"another note, same token: {a}")
    other = scanner.scan(f"token {b}")
    fp = {f.fingerprint for f in first.findings if f.rule_id == "MG-SEC-008"}
    assert fp == {f.fingerprint for f in second.findings if f.rule_id == "MG-SEC-008"}
    assert fp.isdisjoint({f.fingerprint for f in other.findings})
    assert None not in fp


@pytest.mark.parametrize(
    ("text", "rule_id", "value"),
    [
        (
            "新员工：张伟，身份证号 110105199308170422，入职 2024-07-01",
            "MG-PII-005",
            "110105199308170422",
        ),
        ("登记：身份证号 310104198605213772（校验位不对）", "MG-PII-006", "310104198605213772"),
        ('{"name": "李明轩", "mobile": "+86 186 1234 5078"}', "MG-PII-002", "186 1234 5078"),
        ("Visa 4716 2003 8941 0336, expires 09/27", "MG-PII-007", "4716 2003 8941 0336"),
        ("出行：护照号 E53525889，6 月出发", "MG-PII-008", "E53525889"),
        ("From: Laura Benson <laura.benson@example.org>", "MG-PII-001", "laura.benson@example.org"),
        ("call me at (503) 555-0164 tonight", "MG-ID-001", "555-0164"),
    ],
)
def test_pii_is_found_and_redacted(scanner: Scanner, text: str, rule_id: str, value: str) -> None:
    result = scanner.scan(text, Source.TOOL)
    assert rule_id in _sensitive(result)
    _assert_redacted(result, value)


@pytest.mark.parametrize(
    ("text", "values"),
    [
        # phone context only once, before the first number of a list
        (
            "On-call roster: Mia Torres mia.torres@example.org, 415-555-0101;"
            " Raj Patel raj.patel@example.net, 415-555-0102; Lena Vos, 415-555-0103.",
            ["415-555-0101", "415-555-0102", "415-555-0103"],
        ),
        (
            "Phone list for the site visit\n"
            + "".join(
                f"- volunteer {n}, arrives by bus from the north car park: 212-555-01{n}\n"
                for n in range(10, 14)
            ),
            [f"212-555-01{n}" for n in range(10, 14)],
        ),
        # parentheses, and a full stop right after the number
        ("Home (718) 555-0177. Office line 718-555-0178.", ["(718) 555-0177", "718-555-0178"]),
        ("Please text me on 929.555.0190.", ["929.555.0190"]),
        # a signature: an e-mail address next to the number says "contact"
        (
            "-- \nOmar Haddad | Field Engineer | omar.haddad@example.com | 206-555-0143",
            ["206-555-0143"],
        ),
        # the whole birth date, whatever the day's digits
        ("patient intake: DOB 1984-11-29, allergies none", ["1984-11-29"]),
        ("DOB 1979-08-31; MRN pending", ["1979-08-31"]),
        ('{"dob": "07/30/1991"}', ["07/30/1991"]),
        ("date of birth: 21.10.1966.", ["21.10.1966"]),
        ("出生日期：1990年12月25日，籍贯浙江", ["1990年12月25日"]),
    ],
)
def test_every_value_in_a_personal_record_is_redacted(
    scanner: Scanner, text: str, values: list[str]
) -> None:
    result = scanner.scan(text, Source.TOOL)
    for value in values:
        _assert_redacted(result, value)
    assert not re.search(r"\[REDACTED:[^\]]+\]\d", result.redacted)  # no digit left behind


def test_phone_context_stays_in_its_paragraph(scanner: Scanner) -> None:
    text = "Contact: Ana Ruiz, mobile 503-555-0110.\n\nBatch 7 shipped 312-555-1000 units."
    result = scanner.scan(text, Source.TOOL)
    _assert_redacted(result, "503-555-0110")
    assert "312-555-1000" in result.redacted


def test_no_redaction_leaves_a_digit_behind(scanner: Scanner) -> None:
    for rule in load_rules(FILES).active():
        for case in rule.examples.match:
            redacted = scanner.scan(expand(case.text, rule.id), case.source).redacted
            assert not re.search(r"\[REDACTED:[^\]]+\]\d", redacted), (rule.id, redacted)


@pytest.mark.parametrize(
    "text",
    [
        "export OPENAI_API_KEY=YOUR_API_KEY",
        'api_key = os.environ["ANTHROPIC_API_KEY"]',
        "    DEPLOY_TOKEN: ${{ secrets.DEPLOY_TOKEN }}",
        "- AWS access key id: AKIA[0-9A-Z]{16}\n- GitHub token: gh[pousr]_[A-Za-z0-9]{36}",
        "commit 5e141933554a0b74e7341841f318be21e895339c (Add workflow)",
        "c6467dfda2160ad062bde2397e1634bc4f6a5c4bb462957b605504ccfee1f498  file-0.tar.gz",
        "md5(file-1.tar.gz) = 9442b049b130a45da5151f75e58e1bc6",
        "cloud.google.com/go v0.26.0/go.mod h1:aQUYkXzVsufM+DwF1aE+0xfcU+56JwCaLick0ClmMTw=",
        '"integrity": "sha512-aEP+MOV8UJ489ezmNO7ojCHCgcn8XpM5Mt+7oEazfhU5pop6P7zIXWh9hbKOdXkD"',
        "request ids: 225f21f8-400b-4deb-9777-a851a2001383, 5f62869f-724a-4b4c-b66e-26bacd083bd8",
        '<img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAA">',
        "Stripe test mode: use card number 4242 4242 4242 4242 with any future expiry date.",
        "Questions? Write to support@example.com or noreply@example.com.",
        "Janet has 16 ducks; she sells 3 eggs for $2 each and earns 1,234,567 by 2024-06-11.",
        # word problems full of numbers, some next to phone words
        "A phone plan costs $45 a month plus $0.05 per text. Maria sent 312 texts in May,"
        " 555 in June and 1024 in July. How much did her texts cost? Answer: 0.05 * 1891 = 94.55",
        "Tom makes 3 calls a day. Each call lasts 12.5 minutes. Over 365 days, how many"
        " minutes is that? 3 * 12.5 * 365 = 13687.5 minutes, or 228.125 hours.",
        "The line passes through (2, 3) and (8, 15). Its slope is (15 - 3) / (8 - 2) = 2,"
        " so y = 2x - 1; at x = 250, y = 499 and at x = 1000, y = 1999.",
        "Call the mean of 415, 555 and 1234 m; then m = (415 + 555 + 1234) / 3 = 734.67.",
        "Ticket 617-555-0191 was closed; call the desk if it reopens.",
        "Order #13812345678 shipped at 1718073600; version 2.13.4567890",
        '  -H "Authorization: Bearer <token>" \\',
        "DATABASE_URL=postgres://USER:PASSWORD@localhost:5432/DBNAME",
        "The password is required and must have 12 characters.",
    ],
)
def test_benign_lookalikes_stay_clean(scanner: Scanner, text: str) -> None:
    assert _sensitive(scanner.scan(text, Source.DOCUMENT)) == []


HOSTILE = [
    "a" * 100_000,
    "=" * 50_000,
    "-----BEGIN " * 1000,
    "-----BEGIN PRIVATE KEY-----\n" * 1000,
    "-----BEGIN RSA PRIVATE KEY-----\n" + "A" * 100_000,
    "1" * 100_000,
    "1234 " * 20_000,
    "+1 " * 30_000,
    "a@" * 50_000,
    "a" * 60 + "@" + "b." * 30_000,
    "password=" * 10_000,
    "token: " + "x" * 100_000,
    "eyJ" * 30_000,
    ("eyJ" + "a" * 20 + ".") * 5000,
    "sk-" * 30_000,
    "postgres://" + "a:" * 40_000,
    'x = "ab"\n' * 10_000 + "API_KEY = x + y",
    '"a" + ' * 15_000,
    "密码是" * 20_000,
    "passport " * 10_000,
]


@pytest.mark.parametrize("text", HOSTILE, ids=lambda t: f"{t[:12]!r}x{len(t)}")
def test_regex_hostile_input_is_fast(scanner: Scanner, text: str) -> None:
    started = time.perf_counter()
    scanner.scan(text)
    assert time.perf_counter() - started < MAX_SECONDS


_PIECES = st.sampled_from(
    [
        "a",
        "A",
        "0",
        "9",
        " ",
        "\n",
        "=",
        ":",
        "-",
        "_",
        ".",
        "/",
        "+",
        "@",
        '"',
        "'",
        "\\n",
        "AKIA",
        "ghp_",
        "xoxb-",
        "sk-",
        "sk_live_",
        "eyJ",
        "-----BEGIN ",
        "PRIVATE KEY-----",
        "password",
        "token",
        "api_key",
        "Authorization: Bearer ",
        "://",
        "@tcp(",
        "+86 ",
        "138",
        "身份证",
        "护照",
        "passport ",
        "4242 ",
        "&key=",
        "?access_token=",
    ]
)


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(pieces=st.lists(st.tuples(_PIECES, st.integers(1, 4000)), min_size=1, max_size=30))
def test_random_repeats_are_fast(scanner: Scanner, pieces: list[tuple[str, int]]) -> None:
    text = "".join(p * n for p, n in pieces)[:100_000]
    started = time.perf_counter()
    scanner.scan(text)
    assert time.perf_counter() - started < MAX_SECONDS


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=st.text(max_size=5000))
def test_random_text_never_raises(scanner: Scanner, text: str) -> None:
    started = time.perf_counter()
    scanner.scan(text)
    assert time.perf_counter() - started < MAX_SECONDS
