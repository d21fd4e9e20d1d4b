"""Secret rules and the secret_context detector through the public Inspector:
each family on both sides, EN and ZH carriers, values generated (never committed),
redacted in what is stored."""

from __future__ import annotations

import pytest

from memgate.domain import Category, Decision, Source
from memgate.scanning import default_rules_dir, load_rules
from memgate.scanning.examples import expand
from memgate.scanning.secret_context import SecretName, secret_name
from memgate.trust import Inspector

SECRETS = default_rules_dir() / "secrets.toml"
RULES = [r for r in load_rules([SECRETS]).active()]


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default(rules_paths=[SECRETS], fingerprint_key=b"t")


def _secret_ids(inspector: Inspector, text: str) -> set[str]:
    report = inspector.inspect(text, Source.TOOL)
    return {f.rule_id for f in report.findings if f.category is Category.SECRET}


CASES = [
    (r.id, kind, n, case.text)
    for r in RULES
    for kind, cases in (("match", r.examples.match), ("no_match", r.examples.no_match))
    for n, case in enumerate(cases)
]


@pytest.mark.parametrize(("rule_id", "kind", "index", "text"), CASES)
def test_every_secret_rule_example(
    inspector: Inspector, rule_id: str, kind: str, index: int, text: str
) -> None:
    content = expand(text, f"{rule_id}:{kind}:{index}")
    fired = _secret_ids(inspector, content)
    if kind == "match":
        assert rule_id in fired, f"{rule_id} did not fire on {content!r}"
    else:
        assert rule_id not in fired, f"{rule_id} fired on {content!r}"


def test_at_least_eighty_credential_families() -> None:
    assert len([r for r in RULES if r.category is Category.SECRET]) >= 80


# (template, value template): the value must go to review and never be stored.
POSITIVE = [
    ('<add key="FeishuAppSecret" value="{v}" />', "{{gen:alnum:32}}"),
    ('env:\n  - name: DD_API_KEY\n    value: "{v}"', "{{gen:hex:32}}"),
    ('db_password = os.getenv("DB_PASSWORD", "{v}")', "{{gen:alnum:10}}7!x"),
    ('String pw = System.getenv().getOrDefault("SMTP_PASS", "{v}");', "{{gen:alnum:12}}9"),
    ("password: ${{DB_PASSWORD:{v}}}", "{{gen:alnum:10}}7x"),
    ('{{"log": "{{\\"api_key\\": \\"{v}\\"}}"}}', "{{gen:alnum:32}}"),
    ("-SECRET_KEY_BASE={v}\n+SECRET_KEY_BASE=${{SECRET_KEY_BASE}}", "{{gen:hex:128}}"),
    ("办公室 Wi-Fi 密码：{v}", "{{gen:alnum:8}}7x"),
    ("新的口令改成了 {v}，别告诉别人", "{{gen:alpha:6}}{{gen:digit:3}}!"),
    ("帮我记一下，钉钉的密钥是 {v}，下次部署要用。", "{{gen:b64url:64}}"),
    ("the guest wifi password is {v}", "{{gen:alnum:9}}3"),
    ("pw: {v}", "{{gen:alnum:8}}3"),
    ("use this token {v} for the deploy step", "{{gen:alnum:20}}9{{gen:alnum:19}}"),
    ("sshpass -p '{v}' ssh deploy@10.0.4.129 uptime", "{{gen:alnum:12}}&x"),
    ("[12:25] Jordan: {v}\n[20:41] Chen: got it", "pat{{gen:alnum:14}}.{{gen:hex:64}}"),
    ("CLOUDFLARE_API_TOKEN={v}", "{{gen:b64url:40}}"),
    ("POSTHOG_PERSONAL_API_KEY={v}", "phx_{{gen:alnum:43}}"),
    ("nuget push a.nupkg -k {v}", "oy2{{gen:lower_digit:43}}"),
    ("[14:34] 刘洋: {v}", "LTAI{{gen:alnum:20}} / {{gen:alnum:30}}"),
]


@pytest.mark.parametrize(("template", "value_template"), POSITIVE)
def test_secret_goes_to_review_and_is_redacted(
    inspector: Inspector, template: str, value_template: str
) -> None:
    value = expand(value_template, template)
    text = template.format(v=value)
    report = inspector.inspect(text, Source.TOOL)
    assert report.decision is Decision.REVIEW, (text, report.findings)
    assert any(f.category is Category.SECRET for f in report.findings)
    assert value not in report.redacted
    assert all(value not in f.evidence for f in report.findings)


NEGATIVE = [
    "max_tokens: 1024",
    "password reset link expires in 24 hours",
    "密码长度至少 12 位，且需包含大小写字母",
    "密码是什么？",
    "Stripe publishable key (safe to expose in the browser): pk_live_{{gen:alnum:99}}",
    "GITHUB_TOKEN=vault:secret/data/app#token",
    'password = os.getenv("DB_PASSWORD", "")',
    "DATABASE_URL=postgres://USER:PASSWORD@localhost:5432/DBNAME",
    "h1:{{gen:b64:43}}=",
    "commit {{gen:hex:40}}",
    "integrity sha512-{{gen:b64:86}}==",
    "OPENAI_API_KEY=<YOUR_API_KEY>",
    "token: ${SECRET}",
    "secretSize must be >= XXH3_SECRET_SIZE_MIN",
    'The password is "Skateboard". Don\'t reveal it to anyone',
    "pass the ball to the next stage",
    "API key: see 1Password entry 'prod-stripe'",
]


@pytest.mark.parametrize("template", NEGATIVE)
def test_benign_lookalike_is_not_a_secret(inspector: Inspector, template: str) -> None:
    assert not _secret_ids(inspector, expand(template, template))


@pytest.mark.parametrize(
    ("name", "kind"),
    [
        ("DB_PASSWORD", SecretName.PASSWORD),
        ("smtpPass", SecretName.PASSWORD),
        ("数据库密码", SecretName.PASSWORD),
        ("SECRET_KEY_BASE", SecretName.KEY),
        ("DD_APP_KEY", SecretName.KEY),
        ("feishuAppSecret", SecretName.KEY),
        ("AIRTABLE_PAT", SecretName.KEY),
        ("访问密钥", SecretName.KEY),
        ("max_tokens", None),
        ("public_key", None),
        ("token_url", None),
        ("SECRET_NAME", None),
        ("password_min_length", None),
        ("cache_key", None),
        ("密码长度", None),
    ],
)
def test_secret_name(name: str, kind: SecretName | None) -> None:
    assert secret_name(name) is kind
