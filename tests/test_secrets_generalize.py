"""Credentials an agent is handed, in shapes the rule examples do not spell out: vendor
tokens of AI and developer platforms, UUID-shaped API tokens under a credential's
name, private keys outside the PEM types, double-escaped PEM bodies in logs, wallet
seed phrases. Each through the public Inspector, on both sides (look-alikes stay
approved), EN and ZH; values are generated here, never committed, and redacted."""

from __future__ import annotations

import random
import string

import pytest

from memgate.domain import Category, Source
from memgate.scanning.predicates import is_benign_key, seed_phrase
from memgate.scanning.secret_context import uuid_credential_name
from memgate.trust import Inspector

ALNUM = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def _gen(rng: random.Random, n: int, alphabet: str = ALNUM) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


def _uuid(rng: random.Random) -> str:
    h = lambda n: _gen(rng, n, HEX)  # noqa: E731
    return f"{h(8)}-{h(4)}-4{h(3)}-a{h(3)}-{h(12)}"


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default(fingerprint_key=b"gen-test")


def _secret_values(inspector: Inspector, text: str) -> list[str]:
    report = inspector.inspect(text, Source.AGENT)
    assert report.decision.value != "approve", f"approved: {text!r}"
    secrets = [f for f in report.findings if f.category is Category.SECRET]
    assert secrets, f"no secret finding: {text!r}"
    return [f.rule_id for f in secrets]


# (template with {v}, value generator): the value must be found and redacted.
VENDOR_CASES = [
    ("LANGSMITH_API_KEY={v}", lambda r: f"lsv2_pt_{_gen(r, 32, HEX)}_{_gen(r, 10, HEX)}"),
    ("I saved {v} for tracing runs", lambda r: f"lsv2_sk_{_gen(r, 32, HEX)}_{_gen(r, 10, HEX)}"),
    ("search with {v} from now on", lambda r: f"tvly-{_gen(r, 32)}"),
    ("记住这个 Jina key：{v}", lambda r: f"jina_{_gen(r, 60)}"),
    ("runpod key {v}", lambda r: f"rpa_{_gen(r, 44, string.ascii_uppercase + string.digits)}"),
    ("export CEREBRAS_API_KEY={v}", lambda r: f"csk-{_gen(r, 48, HEX + 'ghijklmnop')}"),
    ("NGC: {v}", lambda r: f"nvapi-{_gen(r, 64, B64URL)}"),
    ("tailscale up --authkey {v}", lambda r: f"tskey-auth-k{_gen(r, 11)}CNTRL-{_gen(r, 30)}"),
    ("Typeform token {v}", lambda r: f"tfp_{_gen(r, 44)}_{_gen(r, 14)}"),
    ("plaid: {v}", lambda r: f"access-production-{_uuid(r)}"),
    ("支付回调用 {v} 验签", lambda r: f"FLWSECK-{_gen(r, 32, HEX)}-X"),
    ("grafana api key {v}", lambda r: f"eyJrIjoi{_gen(r, 84)}"),
    ("fly deploy with FlyV1 {v}", lambda r: f"fm2_{_gen(r, 220, B64)}"),
    ("x-api-key: {v}", lambda r: f"pat.{_gen(r, 22, B64URL)}.{_gen(r, 24)}.{_gen(r, 20)}"),
    ("helicone {v}", lambda r: "sk-helicone-" + "-".join(_gen(r, 7) for _ in range(4))),
    ("wandb login {v}", lambda r: _gen(r, 40, HEX)),
    ("rpc = 'https://mainnet.infura.io/v3/{v}'", lambda r: _gen(r, 32, HEX)),
    ("const rpc = 'https://eth-mainnet.g.alchemy.com/v2/{v}'", lambda r: _gen(r, 32, B64URL)),
    ("VOYAGE_API_KEY={v}", lambda r: f"pa-{_gen(r, 43, B64URL)}"),
    ("WG: [Interface]\nPrivateKey = {v}\nListenPort = 51820", lambda r: _gen(r, 42, B64) + "A="),
    # Heroku, Snyk, Postmark, Codecov, Scaleway: API tokens issued as UUIDs
    ("HEROKU_API_KEY={v}", _uuid),
    ("POSTMARK_SERVER_TOKEN={v}", _uuid),
    ('{{"snyk_token": "{v}"}}', _uuid),
    ("codecov:\n  token: {v}", _uuid),
    ('os.getenv("SCW_SECRET_KEY", "{v}")', _uuid),
    ('<add key="RailwayToken" value="{v}" />', _uuid),
    # a vendor name that starts with a benign word (page, state, pub, sync)
    ("PAGERDUTY_TOKEN={v}", lambda r: _gen(r, 20) + "7"),
    ("STATEFUL_API_KEY={v}", lambda r: _gen(r, 32) + "7"),
    ("PUBNUB_SECRET_KEY={v}", lambda r: "sec-c-" + _gen(r, 48) + "7"),
]


@pytest.mark.parametrize(("template", "make"), VENDOR_CASES)
def test_vendor_credentials_found_and_redacted(
    inspector: Inspector, template: str, make: object
) -> None:
    for seed in range(3):
        value = make(random.Random(f"{template}:{seed}"))  # type: ignore[operator]
        text = template.format(v=value)
        _secret_values(inspector, text)
        report = inspector.inspect(text, Source.AGENT)
        assert value not in report.redacted
        for finding in report.findings:
            assert value not in finding.model_dump_json()


def _block(rng: random.Random, lines: int, width: int = 64) -> list[str]:
    return [_gen(rng, width, B64) for _ in range(lines)]


def test_private_key_formats_outside_pem(inspector: Inspector) -> None:
    rng = random.Random(5)
    body = _block(rng, 3)
    hexes = [_gen(rng, 32, HEX) for _ in range(4)]
    # (text, a line of the key that must not survive)
    cases = [
        (
            "PuTTY-User-Key-File-3: ssh-ed25519\nEncryption: none\nComment: deploy\n"
            f"Public-Lines: 2\nAAAAC3NzaC1lZDI1NTE5AAAAI{_gen(rng, 43)}\nPrivate-Lines: 1\n"
            f"{body[0]}\nPrivate-MAC: {_gen(rng, 64, HEX)}",
            body[0],
        ),
        (
            "-----BEGIN OpenVPN Static key V1-----\n"
            + "\n".join(hexes)
            + "\n-----END OpenVPN Static key V1-----",
            hexes[2],
        ),
        (
            "cosign.key:\n-----BEGIN ENCRYPTED SIGSTORE PRIVATE KEY-----\n"
            + "\n".join(body)
            + "\n-----END ENCRYPTED SIGSTORE PRIVATE KEY-----",
            body[1],
        ),
        # a JSON log line whose message holds JSON: the newlines are escaped twice
        (
            '{"level":"debug","msg":"{\\"key\\":\\"-----BEGIN PRIVATE KEY-----\\\\n'
            + "\\\\n".join(body)
            + '\\\\n-----END PRIVATE KEY-----\\"}"}',
            body[2],
        ),
    ]
    for text, line in cases:
        _secret_values(inspector, text)
        assert line not in inspector.inspect(text, Source.AGENT).redacted, text[:60]


def test_wallet_seed_phrase_en_zh(inspector: Inspector) -> None:
    words = "ribbon glance pilot frozen copper velvet oyster manual lumber decade jungle spirit"
    for text in (
        f"my MetaMask seed phrase: {words}",
        f"钱包助记词是 {words}，千万别丢",
        f'MNEMONIC="{words}"',
    ):
        _secret_values(inspector, text)
        assert "oyster manual" not in inspector.inspect(text, Source.AGENT).redacted


BENIGN = [
    # hashes, UUIDs, digests, images
    "commit 3f786850e387550fdab836ed7e6dc881de23001b\nAuthor: dev\n\n    fix wandb logging",
    "docker pull ghcr.io/org/app@sha256:"
    + "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
    "request_id=6f1c2a9e-3b7d-4e2f-9a1c-5d8e7f6a4b3c trace_id=0b7e5f3a-1c2d-4e6f-8a9b-7c6d5e4f3a2b",
    "idempotency_key=6f1c2a9e-3b7d-4e2f-9a1c-5d8e7f6a4b3c",
    "next_page_token=6f1c2a9e-3b7d-4e2f-9a1c-5d8e7f6a4b3c",
    "api_key=123e4567-e89b-12d3-a456-426614174000  # the UUID of RFC 4122's example",
    '{"id": "6f1c2a9e-3b7d-4e2f-9a1c-5d8e7f6a4b3c", "token_type": "bearer"}',
    "http://assets.example.com/media/video_box.ico-7a388b69018576d24b59331fd60aab0c.png",
    "![chart](data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==)",
    # words that look like prefixes
    "See the API-V2-MIGRATION-NOTES document before upgrading.",
    "async def aio_fetch_all_pages_from_remote(session):",
    "jina_embeddings_v2_base_en_model_loader_config_for_the_retrieval_pipeline = 1",
    "The t1.micro instance is free-tier eligible.",
    "oauth:authorize returns a code the client exchanges",
    "PAGE_SIZE=50\nPAGER_EMAIL=ops@example.com",
    # public keys and certificates
    "[Peer]\nPublicKey = xTIBA5rboUvnH4htodjb6e697QjLERt1NAB4mZqp8Dg=\nAllowedIPs = 10.8.0.0/24",
    "[Interface]\nPrivateKey = <client-private-key>",
    # seed phrases talked about, not given
    "The mnemonic is: my very educated mother just served us nine pizzas tonight",
    "recovery phrase: write down the twelve words the wallet shows you and keep them offline",
    "助记词：请把钱包生成的十二个单词抄在纸上，离线保存",
    # examples said to be examples
    "Example key for the docs: tvly-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "infura docs: https://mainnet.infura.io/v3/YOUR_PROJECT_ID",
]


@pytest.mark.parametrize("text", BENIGN)
def test_look_alikes_stay_approved(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    secrets = [f.rule_id for f in report.findings if f.category is Category.SECRET]
    assert not secrets, f"{secrets} on {text!r}"


@pytest.mark.parametrize(
    ("before", "benign"),
    [
        ("PAGERDUTY_TOKEN=", False),
        ("STATEMENT_KEY=", False),
        ("PUBNUB_SECRET=", False),
        ("SYNCTHING_API_KEY=", False),
        ("next_page_token: ", True),
        ("nextPageToken=", True),
        ("PageToken=", True),
        ("csrf-token=", True),
        ("X-Request-Token: ", True),
        ("publishable_key=", True),
        ("pubkey=", True),
        ("max_tokens=", True),
    ],
)
def test_benign_key_reads_whole_words(before: str, benign: bool) -> None:
    assert is_benign_key("Zq8", f"{before}Zq8") is benign


def test_uuid_credential_name() -> None:
    for name in ("HEROKU_API_KEY", "snyk_token", "postmarkServerToken", "SCW_SECRET_KEY"):
        assert uuid_credential_name(name), name
    for name in ("request_id", "page_token", "idempotency_key", "tenant_id", "token_url"):
        assert not uuid_credential_name(name), name


def test_seed_phrase_predicate() -> None:
    twelve = "ribbon glance pilot frozen copper velvet oyster manual lumber decade jungle spirit"
    assert seed_phrase(twelve)
    assert not seed_phrase(" ".join(twelve.split()[:11]))
    assert not seed_phrase("the " + " ".join(twelve.split()[1:]))
    assert not seed_phrase(" ".join(["ribbon"] * 12))


def _password(rng: random.Random) -> str:
    return _gen(rng, 10) + "#" + _gen(rng, 3, string.digits)


COMMAND_CASES = [
    "echo '{v}' | docker login -u ops --password-stdin registry.example.com",
    "echo 'deploy:{v}' | sudo chpasswd",
    "redis 10.0.0.5:6379> AUTH default {v}",
    "$sec = ConvertTo-SecureString '{v}' -AsPlainText -Force",
    'Set-Item -Path Env:SMTP_PASSWORD -Value "{v}"',
    '[Environment]::SetEnvironmentVariable("DB_PASSWORD", "{v}", "User")',
    "openssl enc -aes-256-cbc -k {v} -in dump.sql -out dump.enc",
    "7z a -p{v} backup.7z data/",
    "备份用 zip -P {v} export.zip report.csv 压缩",
    "gpg --batch --passphrase {v} -c notes.txt",
    "gh secret set DEPLOY_TOKEN --body {v}",
    "az login --service-principal -u app -p {v} --tenant corp",
]


@pytest.mark.parametrize("template", COMMAND_CASES)
def test_password_on_a_command_line(inspector: Inspector, template: str) -> None:
    for seed in range(3):
        value = _password(random.Random(f"{template}:{seed}"))
        text = template.format(v=value)
        _secret_values(inspector, text)
        assert value not in inspector.inspect(text, Source.AGENT).redacted


@pytest.mark.parametrize(
    "text",
    [
        'echo "$CR_PAT" | docker login ghcr.io -u me --password-stdin',
        "The AUTH command takes a password argument.",
        "zip -r site.zip public/ && unzip -l site.zip",
        "gh secret set NPM_TOKEN < token.txt",
        "openssl req -new -key server.key -out server.csr",
        'Set-Item -Path Env:PATH -Value "C:\\tools;$env:PATH"',
        "7z x archive.7z -o/tmp/out",
        "OAuth flow: auth code then token exchange",
    ],
)
def test_commands_without_a_password_stay_approved(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert not [f for f in report.findings if f.category is Category.SECRET], text


def test_token_joined_from_array_pieces(inspector: Inspector) -> None:
    rng = random.Random(11)
    token = "ghp_" + _gen(rng, 36)
    key = "sk-proj-" + _gen(rng, 48)
    for text in (
        f"const t = ['{token[:10]}', '{token[10:25]}', '{token[25:]}'].join('')",
        f"api_key = ''.join(['{key[:12]}', '{key[12:40]}', '{key[40:]}'])",
        f"拼起来用：['{token[:8]}', '{token[8:]}'].join(\"\")",
    ):
        _secret_values(inspector, text)
        assert token[10:25] not in inspector.inspect(text, Source.AGENT).redacted
        assert key[12:40] not in inspector.inspect(text, Source.AGENT).redacted


@pytest.mark.parametrize(
    "text",
    [
        "const path = ['usr', 'local', 'bin'].join('/')",
        "name = ''.join(['abc', 'def', 'ghi'])",
        "const cls = ['btn', 'btn-primary', 'sk-large'].join(' ')",
        "ids = ''.join(['3f786850e387', '550fdab836ed7e6d'])",
    ],
)
def test_joined_arrays_without_a_token(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert not [f for f in report.findings if f.category is Category.SECRET], text


LANGUAGE_CASES = [
    'var dbPassword string = "{p}"',  # Go
    'let secret_key: &str = "{k}";',  # Rust
    "define('DB_PASSWORD', '{p}');",  # PHP
    'variable "db_password" {{\n  default = "{p}"\n}}',  # Terraform
    'secretKey <- "{k}"',  # R
    '#define API_KEY "{k}"',  # C
    "export const SUPABASE_SERVICE_KEY = `{k}`;",  # JS template literal
    "admin_password: !!str {p}",  # YAML tag
    "# 数据库配置\ndb_password <- '{p}'",
]


@pytest.mark.parametrize("template", LANGUAGE_CASES)
def test_secret_assignments_in_more_languages(inspector: Inspector, template: str) -> None:
    for seed in range(3):
        rng = random.Random(f"{template}:{seed}")
        p, k = _password(rng), _gen(rng, 32)
        text = template.format(p=p, k=k)
        _secret_values(inspector, text)
        redacted = inspector.inspect(text, Source.AGENT).redacted
        assert p not in redacted and k not in redacted


@pytest.mark.parametrize(
    "text",
    [
        "var tokenCount int = 42",
        'password "must be at least 8 characters"',
        'secretKey <- Sys.getenv("SECRET_KEY")',
        "const apiKey = `${process.env.API_KEY}`",
        'variable "db_password" {\n  type = string\n  sensitive = true\n}',
        "define('DB_PASSWORD', getenv('DB_PASSWORD'));",
        "apiKey: `<your-api-key>`",
        'the docs say `credentials.password` is `"swordfish"` in the example',
    ],
)
def test_language_look_alikes_stay_approved(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert not [f for f in report.findings if f.category is Category.SECRET], text


@pytest.mark.parametrize(
    ("name", "make"),
    [
        ("DD_API_KEY", lambda r: _gen(r, 32, HEX)),  # hex: entropy below 4 bits
        ("WECHAT_APP_SECRET", lambda r: _gen(r, 32, HEX)),
        ("AIRTABLE_PAT", lambda r: f"pat{_gen(r, 14)}.{_gen(r, 64, HEX)}"),
        ("JIRA_TOKEN", lambda r: "ATATT3xFfGF0" + _gen(r, 180, B64URL)),
        ("SMTP_PASSWORD", lambda r: "Winter" + _gen(r, 4, string.digits) + "&Q"),
    ],
)
def test_secret_split_into_fragments(inspector: Inspector, name: str, make: object) -> None:
    for seed in range(3):
        value = make(random.Random(f"{name}:{seed}"))  # type: ignore[operator]
        half = len(value) // 2
        text = f'part_a = "{value[:half]}"\npart_b = "{value[half:]}"\n{name} = part_a + part_b'
        _secret_values(inspector, text)
        assert value[:half] not in inspector.inspect(text, Source.AGENT).redacted


@pytest.mark.parametrize(
    "text",
    [
        'prefix = "user:"\nsuffix = "profile"\ncache_key = prefix + suffix',
        'a = "Hello, "\nb = "world"\ngreeting_token = a + b',
        'a = "min_"\nb = "length"\nPASSWORD_RULE = a + b',
    ],
)
def test_fragments_that_are_no_secret(inspector: Inspector, text: str) -> None:
    report = inspector.inspect(text, Source.AGENT)
    assert "MG-SEC-037" not in {f.rule_id for f in report.findings}, text


@pytest.mark.parametrize(
    "template",
    [
        "Admin panel login is admin / {v}",
        "后台 login is root / {v}",
    ],
)
def test_password_with_a_dot_is_not_a_file_name(inspector: Inspector, template: str) -> None:
    for seed in range(3):
        rng = random.Random(f"{template}:{seed}")
        value = "Wang" + _gen(rng, 4, string.digits) + "." + _gen(rng, 4, string.ascii_lowercase)
        text = template.format(v=value)
        _secret_values(inspector, text)
        assert value not in inspector.inspect(text, Source.AGENT).redacted


def test_file_names_are_not_passwords(inspector: Inspector) -> None:
    for text in (
        "password file: secrets2024.txt",
        "the password list is in report2024.pdf",
        "password=config2.yaml",
    ):
        report = inspector.inspect(text, Source.AGENT)
        assert not [f for f in report.findings if f.category is Category.SECRET], text
