"""Credentials and personal data in phrasings and carriers no rule example spells out,
through the public Inspector, on both sides (issue 14, item 4).

The cases (tests/secrets_pii_cases.py) are generated from a seeded RNG: vendor tokens
in their issued shapes written into sixteen carriers each (.env, escaped JSON logs,
XML, .properties, YAML, Kubernetes specs, getenv defaults in six languages, removed
diff lines, EN and ZH sentences), PEM bodies inside code strings, tokens split across
log lines, passwords in EN / ZH prose and config, national IDs of eighteen countries
(python-stdnum check digits), SSN / ITIN / bank accounts next to a label, passports and
driver's licences in prose and JSON, phone lists (libphonenumber example numbers in
five formats), internationalised e-mail; and benign look-alikes (hashes, UUIDs, build
ids, documented example keys, order numbers, versions, public keys and ids).

A secret or a personal datum goes to review from an agent and from the user alike
(the source weighs, it does not excuse), and its value is never in what is stored."""

from __future__ import annotations

import pytest

from memgate.domain import Category, Source
from memgate.scanning.predicates import split_token
from memgate.scanning.secret_context import _identifier_like, _table_cells, secret_name
from memgate.trust import Inspector
from tests.secrets_pii_cases import Case, Gen, all_cases

CASES = all_cases()
SENSITIVE = (Category.SECRET, Category.PII)


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default(fingerprint_key=b"generalize")


def _ids(cases: list[Case]) -> list[str]:
    return [label for label, _, _ in cases]


@pytest.mark.parametrize(("label", "text", "value"), CASES["secret"], ids=_ids(CASES["secret"]))
@pytest.mark.parametrize("source", [Source.AGENT, Source.USER])
def test_secret_goes_to_review_and_is_redacted(
    inspector: Inspector, source: Source, label: str, text: str, value: str
) -> None:
    report = inspector.inspect(text, source)
    fired = sorted({f.rule_id for f in report.findings})
    assert report.decision.value != "approve", (label, fired)
    assert any(f.category is Category.SECRET for f in report.findings), (label, fired)
    assert value not in report.redacted, (label, report.redacted)
    for finding in report.findings:
        assert value not in finding.model_dump_json()


@pytest.mark.parametrize(("label", "text", "value"), CASES["pii"], ids=_ids(CASES["pii"]))
@pytest.mark.parametrize("source", [Source.AGENT, Source.USER])
def test_personal_data_goes_to_review_and_is_redacted(
    inspector: Inspector, source: Source, label: str, text: str, value: str
) -> None:
    report = inspector.inspect(text, source)
    fired = sorted({f.rule_id for f in report.findings})
    assert report.decision.value == "review", (label, fired)
    assert any(f.category in SENSITIVE for f in report.findings), (label, fired)
    assert value not in report.redacted, (label, report.redacted)


@pytest.mark.parametrize(("label", "text", "value"), CASES["benign"], ids=_ids(CASES["benign"]))
@pytest.mark.parametrize("source", [Source.AGENT, Source.WEB])
def test_benign_look_alike_is_approved(
    inspector: Inspector, source: Source, label: str, text: str, value: None
) -> None:
    """No secret or personal-data finding from any source; approved as an agent's
    memory (from the web, the source prior alone may hold it)."""
    report = inspector.inspect(text, source)
    sensitive = [(f.rule_id, f.evidence) for f in report.findings if f.category in SENSITIVE]
    assert not sensitive, (label, sensitive)
    if source is Source.AGENT:
        assert report.decision.value == "approve", (label, [f.rule_id for f in report.findings])


def test_every_class_of_the_issue_has_cases() -> None:
    labels = {label.split(":", 1)[0] for cases in CASES.values() for label, _, _ in cases}
    vendors = {label.split(":", 1)[0] for label, _, _ in CASES["secret"]}
    for vendor in (
        "cloudflare", "posthog", "nuget", "bitbucket", "atlassian", "datadog", "sentry",
        "vercel", "supabase", "mailgun", "okta", "doppler", "linear", "notion", "shopify",
        "square", "paypal", "alibaba", "tencent", "huawei", "baidu", "wechat", "feishu",
        "dingtalk",
    ):  # fmt: skip
        assert vendor in vendors, vendor
    for kind in ("pem", "split", "diff", "pw-en", "pw-zh", "pw-config", "id", "ssn", "itin",
                 "bank", "passport", "dl", "phone", "phone-list", "idn", "hash", "uuid",
                 "build", "example", "order", "version"):  # fmt: skip
        assert kind in labels, kind
    carriers = {label.rsplit(":", 1)[1] for label, _, _ in CASES["secret"] if label.count(":") == 2}
    for carrier in ("escaped-json-log", "xml", "properties", "k8s-spec", "python-getenv",
                    "go-getenv", "node-default", "diff-removed", "prose-zh"):  # fmt: skip
        assert carrier in carriers, carrier


# ---------------------------------------------------------------- the capabilities, unit by unit


def test_split_token_joins_to_the_vendor_length() -> None:
    g = Gen("split")
    token = "ghp_" + g.s(36)
    assert split_token(f"{token[:20]}\n2025-03-02 INFO (cont.) {token[20:]}")
    assert split_token(f"{token[:9]}\n第二段 {token[9:]}")
    assert not split_token(f"{token}\n2025-03-02 INFO {g.s(20)}")  # already whole
    assert not split_token(f"{token[:20]}\nINFO {g.s(25)}")  # 45 characters: not a GitHub token
    assert not split_token(f"{token[:20]}\n{token[20:36]}ABCD extra words")
    assert not split_token(f"{token[:22]}\nthe-rest-of-it")  # a word, not a token's tail


def test_a_table_header_names_the_column_of_its_values() -> None:
    text = "service,user,password\nmailer,smtp,Tiger123!x\nbackup,bk,Maple456?y"
    cells = [(text[a:b], kind.value) for a, b, kind in _table_cells(text, 0)]
    assert cells == [("Tiger123!x", "password"), ("Maple456?y", "password")]
    md = "| host | api key |\n|---|---|\n| db1 | k-abc |"
    assert [text for text in (md[a:b] for a, b, _ in _table_cells(md, 0))] == ["k-abc"]
    code = "os.chmod('/etc/passwd', 0o227)\nos.chmod('/etc/passwd', 0o7)"
    assert list(_table_cells(code, 0)) == []  # code, not a header


def test_names_and_keys_of_lower_case_letters_and_digits() -> None:
    assert _identifier_like("DOC_Vector_5_32")
    assert _identifier_like("NormalBrushGradient1")
    assert not _identifier_like("ap120kfw2dqfg8ryb27txyxj5ooirko5")  # a Qianfan / Baidu key
    assert secret_name("HUAWEICLOUD_SDK_SK") is not None
    assert secret_name("WX_PAY_API_V3_KEY") is not None
