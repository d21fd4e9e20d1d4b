r"""The `secret_context` detector: a secret told by its context, not its shape.

Vendor tokens carry a prefix (`ghp_`, `xoxb-`) and are `regex` rules. Most
passwords and many keys carry none: what marks them is the name they are
given (`DB_PASSWORD`, `<add key="FeishuAppSecret" value="...">`, `- name:
DD_API_KEY` / `value: ...`, `getenv("SMTP_PASS", "...")`, `${JWT_SECRET:...}`)
or the sentence they sit in ("the Wi-Fi password is ...", "密码是 ...",
"口令：...", "use this token ... for the deploy"). This detector reads such
pairs in three steps, cheapest first:

1. A keyword prefilter (one Aho-Corasick automaton over every rule's keywords)
   picks the rules that may apply to a chunk: a rule runs only if one of its
   keywords occurs.
2. The rule's carrier (`params.carrier`) finds (name, value) pairs: `assignment`
   (`.env`, INI, properties, YAML, JSON, code, type-annotated defaults, escaped
   JSON, diff lines), `xml` (attribute pairs and elements), `name_value` (a
   `name:` / `value:` pair: Kubernetes env, ECS task definitions), `default` (the
   fallback of an environment lookup in any language: `getenv("K", "v")`,
   `getenv('K') ?: 'v'`, `env::var("K").unwrap_or("v")`), `prose` (EN and ZH
   sentences that say a value is a password, a key or a PIN), `table` (CSV, TSV
   and Markdown rows under a header naming a password or key column). An
   assignment's name may also be followed by a directive's blank (`%global
   db_pass v`, `SetEnv`, `ENV`), an RSpec block (`let(:api_token) { 'v' }`) or,
   for a code name, a sentence (`the MAILGUN_API_KEY for prod is v`, `DB_PASSWORD 是 v`).
3. The name is classified (`secret_name`): a password name, a key or token name,
   or neither (`max_tokens`, `public_key`, `token_url`, `secret_name`). The value
   passes the false-positive predicates (placeholders, references, hashes,
   UUIDs, words) and a floor that depends on the class: a password may be short
   and typed by a person; a key must look generated.

Only the value is reported as sensitive (redacted and fingerprinted).
"""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import Enum

from ahocorasick_rs import AhoCorasick, Implementation, MatchKind

from memgate.domain import Chunk, ChunkKind
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.predicates import (
    is_benign_key,
    is_data_uri,
    is_env_reference,
    is_indirect_reference,
    is_integrity_hash,
    is_placeholder,
    is_public_value,
    is_regex_text,
    is_sequential,
    is_uuid,
    is_word_like,
    mixed_case_random,
    passphrase_like,
    password_like,
    secret_like,
    shannon_entropy,
)
from memgate.scanning.rules import Rule

MAX_HITS_PER_RULE = 32
MAX_MATCHES_PER_RULE = 256
"""Carrier matches examined per rule and chunk (bounded time on pathological input)."""
CONTEXT_CHARS = 80


class SecretName(Enum):
    PASSWORD = "password"  # noqa: S105 - a class name, not a credential
    KEY = "key"


# ---------------------------------------------------------------- names

# Name words, on the lower-cased name split at `_ - . / space` and camelCase.
_PASSWORD_WORDS = frozenset(
    {
        "password",
        "passwd",
        "pwd",
        "pass",
        "passphrase",
        "passcode",
        "pw",
        "pword",
        "passwort",
        "contrasena",
        "motdepasse",
        "mdp",
        "senha",
        "parol",
    }
)
_SECRET_WORDS = frozenset(
    {
        "secret",
        "secrets",
        "token",
        "tokens",
        "apikey",
        "apikeys",
        "credential",
        "credentials",
        "creds",
        "cred",
        "privatekey",
        "secretkey",
        "accesskey",
        "authkey",
        "authtoken",
        "accesstoken",
        "refreshtoken",
        "bearer",
        "pat",
        "sk",
        "signingkey",
        "appsecret",
        "clientsecret",
        "webhooksecret",
        "masterkey",
        "hmac",
        "dsn",
        "connectionstring",
        "connstr",
        "sas",
        "license",
        "licensekey",
    }
)
# `key` counts when another word qualifies it (`api_key`, `DD_APP_KEY`, `STRIPE_KEY`).
_KEY_QUALIFIERS_BENIGN = frozenset(
    {
        "public",
        "pub",
        "publishable",
        "primary",
        "foreign",
        "sort",
        "partition",
        "cache",
        "idempotency",
        "hash",
        "lookup",
        "map",
        "dict",
        "row",
        "column",
        "index",
        "unique",
        "composite",
        "natural",
        "surrogate",
        "press",
        "hot",
        "short",
        "shortcut",
        "keyboard",
        "object",
        "s3",
        "item",
        "entry",
        "redis",
        "config",
        "translation",
        "i18n",
        "label",
        "dedupe",
        "dedup",
        "group",
        "routing",
        "shard",
        "sharding",
        "query",
        "search",
        "music",
        "piano",
        "react",
        "list",
        "key",
        "registry",
        "ssh",
        "gpg",
        "pgp",
        "known",
        "host",
        "fingerprint",
        "kid",
        "next",
        "prev",
        "page",
        "max",
        "min",
        "num",
        "csrf",
        "xsrf",
    }
)
# A last word that makes the name about the secret, not the secret itself.
_BENIGN_LAST = frozenset(
    {
        "id",
        "ids",
        "name",
        "names",
        "type",
        "types",
        "url",
        "uri",
        "urls",
        "path",
        "paths",
        "file",
        "files",
        "filename",
        "length",
        "len",
        "size",
        "count",
        "limit",
        "limits",
        "ttl",
        "expiry",
        "expires",
        "expiration",
        "expire",
        "exp",
        "header",
        "headers",
        "field",
        "fields",
        "param",
        "params",
        "prefix",
        "suffix",
        "env",
        "var",
        "vars",
        "ref",
        "refs",
        "arn",
        "region",
        "version",
        "hint",
        "hints",
        "label",
        "format",
        "alg",
        "algorithm",
        "endpoint",
        "host",
        "port",
        "user",
        "username",
        "enabled",
        "enable",
        "disabled",
        "required",
        "policy",
        "policies",
        "rotation",
        "mode",
        "scope",
        "scopes",
        "location",
        "dir",
        "directory",
        "store",
        "provider",
        "source",
        "sources",
        "manager",
        "service",
        "client",
        "class",
        "schema",
        "pattern",
        "regex",
        "placeholder",
        "description",
        "desc",
        "title",
        "help",
        "message",
        "msg",
        "error",
        "errors",
        "status",
        "state",
        "valid",
        "validity",
        "strength",
        "min",
        "max",
        "reset",
        "changed",
        "change",
        "set",
        "created",
        "updated",
        "at",
        "time",
        "date",
        "timeout",
        "interval",
        "lifetime",
        "age",
        "usage",
        "used",
        "budget",
        "cost",
        "price",
        "kind",
        "method",
        "flow",
        "grant",
        "audience",
        "issuer",
        "key_id",
        "keyid",
        "secretname",
        "mount",
        "backend",
        "engine",
        "bucket",
        "table",
        "column",
        "index",
        "input",
        "form",
        "button",
        "icon",
        "link",
        "page",
        "view",
        "route",
        "handler",
        "callback",
        "hook",
        "function",
        "fn",
        "func",
        "test",
        "tests",
        "spec",
        "mock",
        "example",
        "sample",
        "demo",
        "doc",
        "docs",
        "chars",
        "encoding",
        "encoder",
        "decoder",
        "parser",
        "generator",
        "validator",
        "checker",
        "counter",
        "estimate",
        "estimator",
        "tokenizer",
        "vocab",
        "embedding",
        "embeddings",
        "position",
        "pos",
        "offset",
        "start",
        "end",
        "stream",
        "streaming",
    }
)
_BENIGN_ANY = frozenset(
    {
        "public",
        "pub",
        "publishable",
        "csrf",
        "xsrf",
        "max",
        "min",
        "num",
        "tokenizer",
        "tokenizers",
        "next",
        "prev",
        "page",
        "pagination",
        "cursor",
        "continuation",
        "sync",
        "idempotency",
        "nonce",
        "trace",
        "correlation",
        "request",
        "sort",
        "partition",
        "primary",
        "foreign",
        "cache",
        "i18n",
        "translation",
        "keyboard",
        "hotkey",
        "shortcut",
        "output",
        "input",
        "prompt",
        "completion",
        "total",
        "bypass",
        "forgot",
        "reset",
        "confirm",
        "confirmation",
        "old",
        "new_password_confirm",
        "show",
        "hide",
        "toggle",
        "visible",
        "strength",
        "policy",
        "hint",
        "complexity",
        "expiry",
        "expires",
        "rotate",
        "rotation",
        "lookup",
        "registry",
        "known",
        "ssh",
        "gpg",
        "pgp",
        "fingerprint",
    }
)
# Chinese names: a substring test (no word boundaries).
_ZH_PASSWORD = ("密码", "口令", "密碼", "暗号", "通行码")
_ZH_SECRET = ("密钥", "秘钥", "私钥", "令牌", "凭证", "凭据", "访问码", "授权码", "金鑰", "密鑰")
_ZH_BENIGN = (
    "公钥",
    "长度",
    "规则",
    "策略",
    "强度",
    "提示",
    "重置",
    "修改",
    "忘记",
    "找回",
    "格式",
    "复杂度",
    "输入框",
    "字段",
)

_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NAME_SPLIT = re.compile(r"[^a-z0-9]+")


def name_words(name: str) -> list[str]:
    """`DB_PASSWORD` -> [db, password]; `feishuAppSecret` -> [feishu, app, secret]."""
    return [w for w in _NAME_SPLIT.split(_CAMEL.sub("_", name).lower()) if w]


@functools.lru_cache(maxsize=4096)
def secret_name(name: str) -> SecretName | None:
    """What a name says about its value: a password, a key or token, or neither."""
    if not name.isascii():
        if any(w in name for w in _ZH_BENIGN):
            return None
        if any(w in name for w in _ZH_PASSWORD):
            return SecretName.PASSWORD
        if any(w in name for w in _ZH_SECRET):
            return SecretName.KEY
    words = name_words(name)
    if not words or len(words) > 10:
        return None
    last = words[-1]
    if (last in _BENIGN_LAST and len(words) > 1) or not _BENIGN_ANY.isdisjoint(words):
        return None
    # Suffixes of the value's encoding do not change what it is: DB_PASSWORD_B64.
    while len(words) > 1 and words[-1] in (
        "b64",
        "base64",
        "value",
        "enc",
        "encoded",
        "str",
        "raw",
        "hex",
        "prod",
        "production",
        "live",
        "dev",
        "staging",
        "test",
        "1",
        "2",
        "v2",
        "new",
        "old",
    ):
        words.pop()
    joined = "".join(words)
    if not _PASSWORD_WORDS.isdisjoint(words) or joined.endswith(("password", "passwd")):
        return SecretName.PASSWORD
    if not _SECRET_WORDS.isdisjoint(words) or joined.endswith(("secret", "token", "apikey")):
        return SecretName.KEY
    if words[-1] in ("key", "keys", "ak") and len(words) > 1:
        qualifier = words[-2]
        if qualifier not in _KEY_QUALIFIERS_BENIGN:
            return SecretName.KEY
    if joined.endswith("key") and joined[:-3] in (
        "api",
        "app",
        "secret",
        "access",
        "private",
        "master",
        "signing",
        "encryption",
        "auth",
    ):
        return SecretName.KEY
    return None


# ---------------------------------------------------------------- values

_QUOTES = "\"'`“”「」"
_KEY_FILTERS = (
    is_placeholder,
    is_env_reference,
    is_indirect_reference,
    is_regex_text,
    is_integrity_hash,
    is_data_uri,
    is_sequential,
    is_public_value,
)


# Names whose value is the credential itself even when it is a UUID: Heroku, Snyk,
# Postmark, Codecov, Railway and Scaleway issue API tokens and keys as UUIDs.
_UUID_CREDENTIAL_LAST = frozenset(
    {"token", "secret", "apikey", "authtoken", "accesstoken", "secretkey", "password", "passwd"}
)
_UUID_CREDENTIAL_KEY = frozenset({"api", "secret", "access", "auth", "private", "license"})
_EXAMPLE_UUID = re.compile(
    r"(?i)^(?:123e4567-e89b-12d3-a456-426614174000|123e4567-e89b-12d3-a456-426655440000"
    r"|550e8400-e29b-41d4-a716-446655440000|([0-9a-f])\1{7}-.*|.*(?:0000-0000|ffff-ffff).*)$"
)
"""The UUIDs of RFC 4122's and the docs' examples, nil and repeated-digit ones."""


def uuid_credential_name(name: str) -> bool:
    """A name that says its value is a token or key as such (`HEROKU_API_KEY`,
    `SNYK_TOKEN`, `postmarkServerToken`), so a UUID there is the credential; an
    `_id`, a `page_token` or an `idempotency_key` never reaches here."""
    words = name_words(name)
    if not words or secret_name(name) is None:
        return False
    if words[-1] in _UUID_CREDENTIAL_LAST:
        return True
    return words[-1] == "key" and len(words) > 1 and words[-2] in _UUID_CREDENTIAL_KEY


def value_ok(
    kind: SecretName, value: str, context: str, *, strict: bool = False, uuid_ok: bool = False
) -> bool:
    """The value of a secret-named field looks like a real secret. `strict` (a
    value stated in a sentence without a separator) asks for a generated look;
    `uuid_ok` (a name that is a token's or a key's as such) takes a random UUID."""
    if not value or len(value) > 2048 or any(map(str.isspace, value)):
        return False
    if any(f(value, context) for f in _KEY_FILTERS):
        return False
    if is_uuid(value):
        return uuid_ok and not strict and _EXAMPLE_UUID.match(value) is None
    if value.lower() in _LITERALS or _YAML_TAG.fullmatch(value):
        return False
    if strict:
        return len(value) >= 16 and shannon_entropy(value) >= 3.5 and secret_like(value)
    if kind is SecretName.PASSWORD:
        # typed (`Maple9484@`), a diceware passphrase (`river-horse-staple-cloud`) or
        # drawn from letters alone (`XJUnjgFbEU`)
        return len(value) >= 6 and (
            password_like(value) or passphrase_like(value) or mixed_case_random(value)
        )
    if is_word_like(value) or _identifier_like(value):
        return False
    return len(value) >= 8 and secret_like(value) and shannon_entropy(value) >= 3.0


# Words, capitalised words, short numbers and separators: a name (`NormalBrushGradient1`,
# `XXH3_SECRET_SIZE_MIN`, `DOC_Vector_5_32`), not a generated key.
_IDENTIFIER_LIKE = re.compile(
    r"(?>[A-Z]?[a-z]{2,}|[A-Z]{2,}(?=[A-Z][a-z]|[^A-Za-z]|$)|\d{1,4}(?!\d)|[_.:/-])+"
)
_DIGIT_RUN = re.compile(r"\d+")
MAX_IDENTIFIER_NUMBERS = 3
"""A name holds a few numbers (`DOC_Vector_5_32`); a key drawn from lower-case letters
and digits (`ap120kfw2dqfg8ryb27t…`, Baidu, Qianfan) holds one every few characters."""


def _identifier_like(value: str) -> bool:
    return (
        _IDENTIFIER_LIKE.fullmatch(value) is not None
        and len(_DIGIT_RUN.findall(value)) <= MAX_IDENTIFIER_NUMBERS
    )


_YAML_TAG = re.compile(r"!!?[A-Za-z][A-Za-z_.-]{0,30}")
"""`password: !vault |` (Ansible), `!!str`, `!Ref`: a YAML tag, the value is on the next lines."""

_LITERALS = frozenset(
    {
        "true",
        "false",
        "null",
        "none",
        "nil",
        "undefined",
        "yes",
        "no",
        "on",
        "off",
        "required",
        "optional",
        "string",
        "str",
        "int",
        "bool",
        "boolean",
        "object",
        "secret",
        "password",
    }
)


# ---------------------------------------------------------------- carriers

# Each carrier: patterns with groups `k` (the name, when the pattern has one) and
# `v` (the value). Patterns start with a literal where they can, so the regex
# engine skips ahead between occurrences of it.
_VALUE = (
    r"""(?:"(?P<v1>[^"\n\\]{1,2048})"|'(?P<v2>[^'\n\\]{1,2048})'|"""
    r"""\\"(?P<v3>[^"\n\\]{1,2048})\\"|`(?P<v5>[^`\n\\$"']{1,2048})`|(?P<v4>[^\s"'`,;<>(){}\[\]\\]{1,2048}))"""
)
_NAME = r"""[A-Za-z_$@][\w.\-/$@]{0,99}"""

_ASSIGN_TAIL = re.compile(
    r"""(?:\\?["'`])?\]?[ \t]{0,4}"""
    # a type annotation: `key: str =`, Rust `key: &str =`
    r"""(?::[ \t]*&?[A-Za-z_][\w\[\], |.<>']{0,30}?[ \t]*(?==))?"""
    # a Go declaration's type: `var dbPassword string =`
    r"""(?:(?<=[\w])[ \t]+[A-Za-z_*\[\]][\w.\[\]*]{0,30}[ \t]*(?==[^=]))?"""
    r"""(?:=>|:=|\?=|\|\|=|<-|=|:|：|[ \t]+(?:=|is)[ \t]+"""
    # `#define API_KEY "..."`, `set PASSWORD '...'`: a space, then a quoted value
    r"""|[ \t]+(?=["'`]))[ \t]{0,4}"""
    r"""(?:!!?[A-Za-z]{1,10}[ \t]+)?""" + _VALUE  # a YAML tag: `key: !!str value`
)
_IDENT_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-$")

_XML = (
    # <add key="FeishuAppSecret" value="..."/>, <property name="db.password" value="..."/>
    re.compile(
        r"""<[A-Za-z][\w:.-]{0,40}\s[^<>]{0,200}?\b(?:key|name|"""
        r"""id)\s*=\s*["'](?P<k>[^"'<>]{1,100})["']"""
        r"""[^<>]{0,200}?\bvalue\s*=\s*(?:"(?P<v1>[^"<>\n]{1,2048})"|'(?P<v2>[^'<>\n]{1,2048})')"""
    ),
    # <entry key="jdbc.password">...</entry>, <param name="token">...</param>
    re.compile(
        r"""<[A-Za-z][\w:.-]{0,40}\s[^<>]{0,200}?\b(?:key|"""
        r"""name)\s*=\s*["'](?P<k>[^"'<>]{1,100})["'][^<>]{0,100}>"""
        r"""\s{0,8}(?:<!\[CDATA\[)?(?P<v4>[^<>\s]{1,2048})(?:\]\]>)?\s{0,8}</"""
    ),
    # <password>...</password>, <jwtSecret>...</jwtSecret>
    re.compile(
        r"""<(?P<k>[A-Za-z][\w:.-]{0,80})>\s{0,8}(?:<!\[CDATA\[)?(?P<v4>[^<>\s]{1,2048})(?:\]\]>)?\s{0,8}</(?P=k)>"""
    ),
)
_NAME_VALUE = (
    # - name: DD_API_KEY\n  value: "..."; {"name": "DB_PASSWORD", "value": "..."}
    re.compile(
        r"""\b(?:name|key|Name|"""
        r"""Key)\\?["']?[ \t]*[:=][ \t]*\\?["']?(?P<k>[\w.\-/]{1,100})\\?["']?[ \t]*,?[ \t]*"""
        r"""(?:\r?\n[ \t]*(?:-[ \t]*)?)?\\?["']?(?:value|Value)\\?["']?[ \t]*[:=][ \t]*""" + _VALUE
    ),
)
_DEFAULT = (
    # getenv("K", "v"), os.environ.get("K", "v"), ENV.fetch("K", "v"), getOrDefault("K", "v"),
    # env("K", default="v"), config.get("k", "v"), System.getProperty("k", "v")
    re.compile(
        r"""(?i:getenv|environ\.get|environ\.setdefault|env\.get|env\.fetch|getOrDefault|"""
        r"""getProperty|"""
        r"""fetch|env|get_env|getEnv|config|get|setting|settings|GetEnvironmentVariable|"""
        r"""Getenv|LookupEnv|EnvironmentVariable|"""
        r"""env_or|getenv_or|envOr|value_or|define|"""
        r"""option)\s{0,2}\(\s{0,2}[@$:]?["'](?P<k>[\w.\-/]{1,100})["']\s{0,2},"""
        r"""\s{0,4}(?:(?:default|fallback|"""
        r"""default_value)\s{0,2}[=:]\s{0,2})?(?:"(?P<v1>[^"\n]{1,1024})"|"""
        r"""'(?P<v2>[^'\n]{1,1024})')"""
    ),
    # process.env.K || "v", os.environ.get("K") or "v", os.Getenv("K") ?? "v"
    re.compile(
        r"""(?:environ|env|ENV)(?:\.(?P<k>\w{1,100})|"""
        r"""\[\s{0,2}["'](?P<k2>[\w.\-]{1,100})["']\s{0,2}\]"""
        r"""|\.get\(\s{0,2}["'](?P<k3>[\w.\-]{1,100})["']\s{0,2}\))\s{0,2}(?:\|\||\?\?|"""
        r"""\bor\b|\?:)\s{0,2}"""
        r"""(?:"(?P<v1>[^"\n]{1,1024})"|'(?P<v2>[^'\n]{1,1024})')"""
    ),
    # An environment lookup by a literal name, then its fallback: PHP getenv('K') ?: 'v',
    # C# GetEnvironmentVariable("K") ?? "v", Rust env::var("K").unwrap_or("v".into()),
    # Kotlin System.getenv("K") ?: "v", Ruby ENV.fetch("K") { "v" }, Java
    # Optional.ofNullable(System.getenv("K")).orElse("v")
    re.compile(
        r"""(?i:getenv|environ(?:ment)?(?:variable)?|env::var|env\.var|env\.fetch|env)"""
        r"""\s{0,2}\(\s{0,2}[@$:]?["'](?P<k>[\w.\-/]{1,100})["']\s{0,2}\)\)?"""
        r"""(?:\s{0,2}(?:\|\||\?\?|\?:|\bor\b)\s{0,2}|\s{0,2}\{\s{0,2}(?:\|\w*\|\s{0,2})?"""
        r"""|\.(?:unwrap_or(?:_else)?|or_else|orElse|getOrElse|or|value_or|unwrapOr)"""
        r"""\(\s{0,2}(?:\|\w*\|\s{0,2}|\(\)\s{0,2}(?:=>|->)\s{0,2})?)"""
        r"""(?:"(?P<v1>[^"\n]{1,1024})"|'(?P<v2>[^'\n]{1,1024})')"""
    ),
    # Terraform: variable "db_password" { default = "s3cret" }
    re.compile(
        r"""variable\s{1,4}"(?P<k>[\w.\-]{1,100})"\s{0,4}\{[^{}]{0,300}?\bdefault\s{0,4}=\s{0,4}"""
        r"""(?:"(?P<v1>[^"\n]{1,1024})")"""
    ),
    # ${DB_PASSWORD:s3cret}, ${DB_PASSWORD:-s3cret}, %{DB_PASSWORD:s3cret}
    re.compile(r"""[$%]\{(?P<k>[\w.\-]{1,100}):-?(?P<v4>[^}\s"']{1,1024})\}"""),
)

# Prose: a secret word, a few words of what it is for, a copula or a colon, the value.
_PROSE_PASSWORD = (
    r"""(?:wi-?fi[ \t]*(?:password|passwd|pass|key|pw|密码|口令)|pass(?:word|wd|phrase|"""  # noqa: S105
    r"""code)|\bpwd\b|\bpw\b|\bpass\b|\bpsk\b|\bkey[ \t]+content\b"""
    # 密码学 / 密码算法 / 密码分析 are cryptography, not a password
    r"""|密码(?!学|算法|分析|体制|协议)|口令|密碼(?!學)|暗号|通行码)"""
)
# A PIN or a keypad code is digits, often four: its own pattern and value shape.
_PROSE_PIN = re.compile(
    r"""(?i)(?P<k>\bpin(?:[ \t]?(?:code|number|no\.?))?|\b(?:door|alarm|gate|safe|lock|keypad"""
    r"""|entry)[ \t]?code|pin码|门禁码|开门密码"""
    r"""|(?:(?<=支付|取款|交易|提现|付款|转账|网银)|(?<=卡))密码)"""
    + r"""(?:[ \t]{0,2}(?:for|of|to|on|at|of[ \t]the|for[ \t]the|的)?[ \t]{0,2}"""
    + r"""[^\n:=：。，,;；.!?？！@/\d]{0,32}?)??"""
    + r"""[ \t]*(?:\bis\b|\bwas\b|(?<!\w)[:：]|(?<=\w)[:：]|是|为|為|=|(?<=密码)(?=[ \t]*\d))"""
    + r"""[ \t]*(?:now[ \t]+)?"""
    + r"""[「"'`“]?(?P<v4>\d{4,8})(?![\w-])(?![ \t]*[年月日位个次号元])"""
)
_PROSE_KEY = (
    r"""(?:api[ \t_-]?key|secret[ \t_-]?key|access[ \t_-]?key|private[ \t_-]?key|"""
    r"""app[ \t_-]?secret|client[ \t_-]?secret"""
    r"""|\bsecret|\btokens?\b|\bkey\b|\bcredentials?\b|密钥|秘钥|私钥|令牌|凭证|凭据|授权码|访问码|金鑰|密鑰)"""
)
_PROSE_GAP = (
    r"""(?:[ \t]{0,2}(?:for|of|to|on|at|of[ \t]the|for[ \t]the|的|是|"""
    r"""为)?[ \t]{0,2}[^\n:=：。，,;；.!?？！@/]{0,32}?)??"""
)
_PROSE_SEP = (
    r"""[ \t]*(?:(?:\b(?:has[ \t]+been|have[ \t]+been|was|is|got|been)[ \t]+)?"""
    r"""\b(?:set|changed|reset|updated|rotated|switched)[ \t]+to\b"""
    r"""|\bis\b|\bwas\b|\bare\b|,?[ \t]*\b(?:it[’']?s|it[ \t]+is|that[’']?s)\b"""
    r"""|(?<![<>=!])(?<!\w)(?::|：)|(?<=\w)(?::|：)|是|为|為|"""
    r"""改成了?|改为|设为|设置为|换成了?|发你|发给你|给你|如下|->|→|⇒|=>|(?P<to>\bto\b))"""
    r"""[ \t]*(?:是|为|:|：)?[ \t]*(?:(?:now|currently|still|just)[ \t]+)?"""
)
"""`(?P<to>to)` ("I set the database password to v") counts only after a verb that
sets a value (`_SET_BEFORE`): "the password to the vault" names no value."""
_SET_BEFORE = re.compile(
    r"(?i)\b(?:set|sets|setting|change[ds]?|changing|reset|update[ds]?|updating|rotate[ds]?"
    r"|switch(?:ed)?)\b[^.\n]{0,48}\Z"
)
_PROSE_VALUE = r"""[「"'`“（(]?(?P<v4>[^\s"'`，。、,;；「」“”（）()\[\]<>]{6,256})"""
_PROSE = (
    re.compile(r"(?i)(?P<k>" + _PROSE_PASSWORD + r")" + _PROSE_GAP + _PROSE_SEP + _PROSE_VALUE),
    re.compile(r"(?i)(?P<k>" + _PROSE_KEY + r")" + _PROSE_GAP + _PROSE_SEP + _PROSE_VALUE),
)
# "use this token X for", "登录密码 X": no separator, so the value must look generated
# (keys) or like a password (password words right before it).
_PROSE_BARE = (
    re.compile(
        r"(?i)(?P<k>" + _PROSE_PASSWORD + r")(?:[ \t]+(?:is[ \t]+)?|(?<=[码令碼号])[ \t]*)"
        r"""[「"'`“]?(?P<v4>[^\s"'`，。、,;；「」“”（）()\[\]<>]{6,128})"""
    ),
    re.compile(
        r"(?i)(?P<k>" + _PROSE_KEY + r")[ \t]+(?:is[ \t]+)?"
        r"""[「"'`“]?(?P<v4>[^\s"'`，。、,;；「」“”（）()\[\]<>]{16,512})"""
    ),
)

# The label after the value: "<v> is the wifi password", "'<v>' = the VPN password",
# "<v> (the admin password for Jenkins)", "Use <v> as the password", "<v> 是测试环境的管理员密码",
# "记住：<v>，这是VPN的登录口令". Matched backwards from a password or key word: the
# window before the word must end with a value, a link and a few words of what it is for.
_AFTER_LINK = (
    r"""(?:[ \t]+(?:is|was|as)[ \t]+|[ \t]*(?:=|->|→|=>)[ \t]*|[ \t]*[(（][ \t]*"""
    r"""|[ \t]+[-–—][ \t]+(?:(?:that[’']?s|it[’']?s|this[ \t]+is)[ \t]+)?"""
    r"""|[ \t]*[;；,，][ \t]*(?:it[ \t]+is|it[’']?s|that[’']?s|this[ \t]+is|这是|這是|是|就是)"""
    r"""[ \t]*"""
    r"""|[ \t]*(?:就是|是|为|為)[ \t]*)"""
)
_PROSE_AFTER = re.compile(
    r"""(?i)(?:^|(?<=[\s:：「"'`“(（]))[「"'`“]?"""
    r"""(?P<v4>[^\s"'`，。、,;；:：「」“”（）()\[\]<>=]{6,128})[」"'`”]?"""
    + _AFTER_LINK
    + r"""(?:(?:the|my|our|her|his|their|your|its|a|an|one)[ \t]+)?"""
    r"""(?:[^\s.;:,。；：，!?！？()（）"'`=]{1,24}[ \t]*){0,4}?\Z"""
)
AFTER_WINDOW = 90
_AFTER_WORDS = frozenset({"password", "passwords", "passwd", "passphrase", "passcode", "pw", "pwd"})
"""Not `pass`: before a value it is a verb ("<sha> (Adjust regex to pass new test)")."""
_AFTER_NEGATION = re.compile(
    r"(?i)(?<![A-Za-z])(?:no|not|without|non|never|无|没有|不需要|不用|免)(?![A-Za-z])"
)
_HEX_DIGEST = re.compile(
    r"[0-9a-f]{7,12}|[0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{56}|[0-9a-f]{64}|[0-9a-f]{96}|[0-9a-f]{128}",
    re.I,
)
_AFTER_ZH = ("密码", "口令", "密碼", "暗号", "通行码")
_AFTER_KEY_WORDS = frozenset({"token", "secret", "key", "credential", "credentials"})
_AFTER_BENIGN_NEXT = re.compile(
    r"""(?i)[ \t-]?(?:manager|managers|policy|policies|field|reset|hint|rule|rules|length"""
    r"""|strength|requirements?|change|prompt|protected|less|vault|store|hash|hashing|file"""
    r"""|box|input|form|page|screen|dialog|generator|expiry|expiration|rotation|format|type"""
    r"""|id\b|ids\b|name|names|url|endpoint|holder|count|limit|管理器|策略|规则|长度|强度|重置|字段"""
    r"""|输入框|提示|格式|类型)"""
)


def _after_word(text: str, at: int) -> tuple[SecretName, int] | None:
    """The password or key word at `at` (a whole word) and where it ends."""
    if text.startswith(_AFTER_ZH, at):
        return SecretName.PASSWORD, at + 2
    before = text[at - 1] if at > 0 else " "
    if (before.isascii() and before.isalnum()) or before in "_$.{-":
        return None  # inside a name (`OPENAI_API_KEY`, `${KEY}`), not a word
    m = re.match(r"[A-Za-z]+", text[at : at + 24])
    if m is None or text[at + m.end() : at + m.end() + 1] in ("_", "=", "}"):
        return None
    word = m.group(0).lower()
    end = at + m.end()
    if word in _AFTER_WORDS:
        return SecretName.PASSWORD, end
    if word in _AFTER_KEY_WORDS:
        return SecretName.KEY, end
    return None


_CARRIERS: dict[str, tuple[re.Pattern[str], ...]] = {
    "xml": _XML,
    "name_value": _NAME_VALUE,
    "default": _DEFAULT,
    "prose": (*_PROSE, *_PROSE_BARE, _PROSE_PIN),
}
_PROSE_BARE_SET = frozenset(_PROSE_BARE)
_PARAMS = frozenset({"carrier"})
_ASSIGNMENT = "assignment"
_TABLE = "table"
_ANCHORED = frozenset({_ASSIGNMENT, "prose", "default", _TABLE})
"""Carriers whose matches start at a keyword occurrence (tried there only)."""


@dataclass(frozen=True, slots=True)
class _Compiled:
    rule: Rule
    carrier: str
    patterns: tuple[re.Pattern[str], ...]
    kinds: frozenset[ChunkKind]


def _compile(rule: Rule) -> _Compiled:
    unknown = set(rule.params) - _PARAMS
    if unknown:
        raise ValueError(f"{rule.id}: unknown secret_context params {sorted(unknown)}")
    carrier = rule.params.get("carrier")
    if carrier not in (_ASSIGNMENT, _TABLE) and carrier not in _CARRIERS:
        raise ValueError(
            f"{rule.id}: params.carrier must be one of {sorted([*_CARRIERS, _ASSIGNMENT, _TABLE])}"
        )
    if not rule.keywords:
        raise ValueError(f"{rule.id}: a secret_context rule needs keywords")
    return _Compiled(
        rule=rule,
        carrier=str(carrier),
        patterns=_CARRIERS.get(str(carrier), ()),
        kinds=frozenset(rule.chunks),
    )


class SecretContextAnalyzer:
    """Finds secrets named by their context; see the module docstring."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._compiled = tuple(_compile(r) for r in rules)
        keywords = list(dict.fromkeys(k for c in self._compiled for k in c.rule.keywords))
        self._ids = {k: n for n, k in enumerate(keywords)}
        self._automaton = (
            AhoCorasick(keywords, matchkind=MatchKind.Standard, implementation=Implementation.DFA)
            if keywords
            else None
        )
        self._keywords = tuple(keywords)
        self._rule_keywords = tuple(
            frozenset(self._ids[k] for k in c.rule.keywords) for c in self._compiled
        )

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterator[Hit]:
        if self._automaton is None:
            return
        text = chunk.text
        lower = text.lower()
        try:
            found = self._automaton.find_matches_as_indexes(lower, overlapping=True)
        except UnicodeEncodeError:  # a lone surrogate
            found = self._automaton.find_matches_as_indexes(
                lower.encode("utf-8", "replace").decode("utf-8"), overlapping=True
            )
        if not found:
            return
        at: dict[int, list[int]] = {}
        for n, start, _ in found:
            at.setdefault(n, []).append(start)
        aligned = len(lower) == len(text)
        for c, kw in zip(self._compiled, self._rule_keywords, strict=True):
            if chunk.kind not in c.kinds or kw.isdisjoint(at):
                continue
            anchored = c.carrier in _ANCHORED
            if anchored and not aligned:
                continue  # positions in `lower` would not index `text`
            starts = sorted({s for k in kw if k in at for s in at[k]}) if anchored else None
            if c.carrier == _ASSIGNMENT:
                yield from self._assignments(c, text, starts or [])
            elif c.carrier == _TABLE:
                yield from self._tables(c, text, starts or [])
            else:
                yield from self._carrier(c, text, starts)
                if c.carrier == "prose" and starts:
                    yield from self._prose_after(c, text, starts)

    def _carrier(self, c: _Compiled, text: str, starts: list[int] | None) -> Iterator[Hit]:
        """Pairs of one carrier: anywhere in the text, or (`starts`) only where a
        match starts at a keyword occurrence."""
        hits = 0
        seen: set[tuple[int, int]] = set()
        for pattern in c.patterns:
            strict = pattern in _PROSE_BARE_SET
            for n, m in enumerate(_matches(pattern, text, starts)):
                if n >= MAX_MATCHES_PER_RULE:
                    break
                name = _group(m, "k", "k2", "k3")
                span = _value_span(m)
                if name is None or span is None or span in seen:
                    continue
                kind = secret_name(name) if c.carrier != "prose" else _prose_kind(name)
                if kind is None:
                    continue
                vs, ve = span
                value = text[vs:ve]
                context = text[max(0, vs - CONTEXT_CHARS) : ve + CONTEXT_CHARS]
                if _sets_no_value(m, text):
                    continue
                if pattern is _PROSE_PIN:
                    if _pin_ok(value):
                        seen.add(span)
                        yield Hit(rule_id=c.rule.id, start=m.start(), end=m.end(), value=span)
                        hits += 1
                    continue
                uuid_ok = c.carrier != "prose" and is_uuid(value) and uuid_credential_name(name)
                if is_benign_key(value, context) or not value_ok(
                    kind, value, context, strict=strict and kind is SecretName.KEY, uuid_ok=uuid_ok
                ):
                    continue
                if strict and kind is SecretName.PASSWORD and not _bare_password(value):
                    continue
                if c.carrier == "prose" and (
                    _nested_key(name, text, m.start())
                    or _prose_not_a_value(value)
                    or _PUBLIC_BEFORE.search(text, max(0, m.start() - 24), m.start())
                    or _benign_qualifier_before(name, text, m.start())
                ):
                    continue
                seen.add(span)
                yield Hit(rule_id=c.rule.id, start=m.start(), end=m.end(), value=span)
                hits += 1
                if hits >= MAX_HITS_PER_RULE:
                    return

    def _prose_after(self, c: _Compiled, text: str, starts: list[int]) -> Iterator[Hit]:
        """A value the sentence names a password or a key only after it (`_PROSE_AFTER`):
        a password must look typed (a letter and a digit or a symbol; a passphrase only
        in quotes), a key generated; the word after the label must not make it another
        thing's ("the password manager", "密码策略")."""
        hits = 0
        done: set[int] = set()
        for at in starts[:MAX_MATCHES_PER_RULE]:
            word = _after_word(text, at)
            if word is None or at in done:
                continue
            done.add(at)
            kind, word_end = word
            if _AFTER_BENIGN_NEXT.match(text, word_end):
                continue
            m = _PROSE_AFTER.search(text, max(0, at - AFTER_WINDOW), at)
            if m is None:
                continue
            vs, ve = m.span("v4")
            value = text[vs:ve]
            if _AFTER_NEGATION.search(text, ve, at):
                continue  # "Guest-UX2C (no password, captive portal)"
            if text.startswith("(", ve) or (kind is SecretName.KEY and _identifier_like(value)):
                continue  # a call (`new(key`), a name
            if _HEX_DIGEST.fullmatch(value):
                continue  # "commit <sha1> (add a token detector)": a digest, not a key
            context = text[max(0, vs - CONTEXT_CHARS) : ve + CONTEXT_CHARS]
            if is_benign_key(value, context) or _prose_not_a_value(value):
                continue
            if any(f(value, context) for f in _KEY_FILTERS) or is_uuid(value):
                continue
            quoted = vs > 0 and text[vs - 1] in _QUOTES
            if kind is SecretName.PASSWORD:
                ok = password_like(value) or (quoted and passphrase_like(value))
            else:
                ok = value_ok(kind, value, context, strict=True)
            if not ok:
                continue
            yield Hit(rule_id=c.rule.id, start=vs, end=word_end, value=(vs, ve))
            hits += 1
            if hits >= MAX_HITS_PER_RULE:
                return

    def _assignments(self, c: _Compiled, text: str, starts: list[int]) -> Iterator[Hit]:
        """`NAME <sep> value` around each keyword occurrence: the name is the
        identifier the keyword sits in, the separator follows it."""
        hits = 0
        done: set[int] = set()
        n = len(text)
        for at in starts[:MAX_MATCHES_PER_RULE]:
            begin = at
            while begin > 0 and _ident(text[begin - 1]) and at - begin < 100:
                begin -= 1
            end = at
            while end < n and _ident(text[end]) and end - begin < 120:
                end += 1
            if end in done:
                continue
            done.add(end)
            if begin > 0 and text[begin - 1] in ":/@%" and not _free_colon(text, begin):
                continue  # inside a URL or a reference, not a name
            name = text[begin:end].strip(".-")
            kind = secret_name(name)
            if kind is None:
                continue
            for m in _tails(text, begin, end, name):
                span = _value_span(m)
                if span is None:
                    continue
                vs, ve = span
                value = text[vs:ve]
                context = text[max(0, vs - CONTEXT_CHARS) : ve + CONTEXT_CHARS]
                uuid_ok = (
                    is_uuid(value)
                    and uuid_credential_name(name)
                    and m.re is not _NAME_PROSE_TAIL  # a UUID in a sentence is an id
                )
                if is_benign_key(value, context) or not value_ok(
                    kind, value, context, uuid_ok=uuid_ok
                ):
                    continue
                if m.re is _NAME_PROSE_TAIL and (
                    _prose_not_a_value(value) or _sets_no_value(m, text, begin)
                ):
                    continue
                yield Hit(rule_id=c.rule.id, start=begin, end=m.end(), value=span)
                hits += 1
                if hits >= MAX_HITS_PER_RULE:
                    return
                break

    def _tables(self, c: _Compiled, text: str, starts: list[int]) -> Iterator[Hit]:
        """CSV, TSV and Markdown tables whose header names a password or key column
        (`service,user,password`, `| host | user | password |`): each row's cell in
        that column is the value its header names."""
        hits = 0
        seen_lines: set[int] = set()
        for at in starts[:MAX_MATCHES_PER_RULE]:
            line_start = text.rfind("\n", max(0, at - MAX_TABLE_HEADER), at) + 1
            if line_start in seen_lines or at - line_start >= MAX_TABLE_HEADER:
                continue
            seen_lines.add(line_start)
            for vs, ve, kind in _table_cells(text, line_start):
                value = text[vs:ve]
                context = text[max(0, vs - CONTEXT_CHARS) : ve + CONTEXT_CHARS]
                if is_benign_key(value, context) or not value_ok(kind, value, context):
                    continue
                yield Hit(rule_id=c.rule.id, start=vs, end=ve, value=(vs, ve))
                hits += 1
                if hits >= MAX_HITS_PER_RULE:
                    return


MAX_TABLE_HEADER = 400
MAX_HEADER_CELL = 40
_HEADER_CELL = re.compile(r"[^\W\d][\w .#/-]{0,39}")
MAX_TABLE_ROWS = 200
_TABLE_DELIMITERS = (",", "\t", "|", ";")
_MARKDOWN_RULE = re.compile(r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)+\|?[ \t]*")


def _split_cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """[start, end) of each cell of a delimited line, blanks and quotes trimmed; a
    Markdown row's outer pipes open and close it, they hold no cell."""
    spans: list[tuple[int, int]] = []
    at = 0
    parts = line.split(delimiter)
    for n, cell in enumerate(parts):
        a, b = at, at + len(cell)
        at = b + 1
        if delimiter == "|" and n in (0, len(parts) - 1) and not cell.strip():
            continue
        while a < b and line[a] in " \t\"'`":
            a += 1
        while b > a and line[b - 1] in " \t\"'`\r":
            b -= 1
        spans.append((a, b))
    return spans


def _table_cells(text: str, line_start: int) -> Iterator[tuple[int, int, SecretName]]:
    """The cells under each secret-named header cell of the table whose header line
    starts at `line_start`: (start, end, what the header says the value is)."""
    line_end = text.find("\n", line_start)
    if line_end < 0 or line_end - line_start > MAX_TABLE_HEADER:
        return  # a header has rows under it and is a short line
    header = text[line_start:line_end]
    delimiter = max(_TABLE_DELIMITERS, key=header.count)
    cells = _split_cells(header, delimiter)
    # a header is names (`host`, `API key`, `密码`), not code: `chmod('/etc/passwd', 0o7)`
    if len(cells) < 2 or not all(_HEADER_CELL.fullmatch(header, a, b) for a, b in cells):
        return
    columns = [
        (i, kind)
        for i, (a, b) in enumerate(cells)
        if 0 < b - a <= MAX_HEADER_CELL and (kind := secret_name(header[a:b])) is not None
    ]
    if not columns:
        return
    at = line_end + 1
    for _ in range(MAX_TABLE_ROWS):
        if at >= len(text):
            return
        end = text.find("\n", at)
        end = len(text) if end < 0 else end
        row = text[at:end]
        if delimiter == "|" and _MARKDOWN_RULE.fullmatch(row):
            at = end + 1
            continue
        row_cells = _split_cells(row, delimiter)
        if len(row_cells) != len(cells):
            return
        for i, kind in columns:
            a, b = row_cells[i]
            if b > a:
                yield at + a, at + b, kind
        at = end + 1


# `%global db_pass v` (RPM spec), `SetEnv DB_PASS v` (Apache), `ENV DB_PASSWORD v`
# (Dockerfile), `setenv` (csh), `set -gx` (fish): a directive, the name, a blank, the value.
_DIRECTIVE_BEFORE = re.compile(
    r"(?i)(?:^|[\s;])(?:%global|%define|setenv|set(?:[ \t]+-{1,2}[a-z]+)*|env)[ \t]+\Z"
)
_DIRECTIVE_TAIL = re.compile(r"[ \t]+" + _VALUE)
# RSpec / minitest: `let(:admin_password) { 'v' }`, `let!(:api_token) { "v" }`.
_BLOCK_TAIL = re.compile(r"\)[ \t]{0,4}\{[ \t]{0,4}" + _VALUE)
# A code name in a sentence: "the MAILGUN_API_KEY for prod is v", "DB_PASSWORD 是 v".
# Between the name and the copula only words (`for prod`, `在测试环境`), no code
# punctuation: `usernamePassword(credentialsId: '…')` is a call, not a sentence.
_NAME_GAP = r"""(?:[ \t]+[^\s:=：。，,;；.!?？！@/(){}\[\]<>"'`|]{1,24}){0,4}?"""
_NAME_PROSE_TAIL = re.compile(r"(?i)" + _NAME_GAP + _PROSE_SEP + _PROSE_VALUE)


def _tails(text: str, begin: int, end: int, name: str) -> Iterator[re.Match[str]]:
    """The ways a value may follow the name text[begin:end], most common first."""
    m = _ASSIGN_TAIL.match(text, end)
    if m is not None:
        yield m
    if _DIRECTIVE_BEFORE.search(text, max(0, begin - 24), begin):
        m = _DIRECTIVE_TAIL.match(text, end)
        if m is not None:
            yield m
    if text.startswith("(:", begin - 2):
        m = _BLOCK_TAIL.match(text, end)
        if m is not None:
            yield m
    if _code_name(name):
        m = _NAME_PROSE_TAIL.match(text, end)
        if m is not None:
            yield m


def _code_name(name: str) -> bool:
    """An identifier of two words or more, as code writes it (`DB_PASSWORD`,
    `mailgunApiKey`): in a sentence it still names the value after it."""
    return ("_" in name.strip("_") or _CAMEL.search(name) is not None) and len(
        name_words(name)
    ) >= 2


def _free_colon(text: str, begin: int) -> bool:
    """The `:` before the name is not glued to an ASCII name before it: a Ruby symbol
    (`:password => "v"`, `let(:api_token)`) or a label's colon after a word in another
    script (`记一下:DB_PASSWORD 是 …`, NFKC-folded from `：`), not `user:pass@` in a
    URL or `ns:key` in a reference."""
    if text[begin - 1] != ":" or begin < 2:
        return text[begin - 1] == ":"
    before = text[begin - 2]
    return not (before in _IDENT_CHARS or before in ":/")


def _matches(
    pattern: re.Pattern[str], text: str, starts: list[int] | None
) -> Iterator[re.Match[str]]:
    if starts is None:
        yield from pattern.finditer(text)
        return
    for at in starts[:MAX_MATCHES_PER_RULE]:
        m = pattern.match(text, at)
        if m is not None:
            yield m


def _ident(char: str) -> bool:
    return char in _IDENT_CHARS or (char > "\x7f" and char.isalnum())


def _group(m: re.Match[str], *names: str) -> str | None:
    groups = m.groupdict()
    for name in names:
        value = groups.get(name)
        if value is not None:
            return value
    return None


def _value_span(m: re.Match[str]) -> tuple[int, int] | None:
    groups = m.groupdict()
    for name in ("v1", "v2", "v3", "v4", "v5"):
        if groups.get(name) is not None:
            start, end = m.span(name)
            if m.string.endswith("..", start, end):
                return None  # shown truncated: `ops_eyJzaWdu..`
            # A trailing full stop or closing bracket ends the sentence, not the value.
            while end > start and m.string[end - 1] in ".!?。)）":
                end -= 1
            return (start, end) if end > start else None
    return None


def _prose_kind(name: str) -> SecretName | None:
    lowered = name.lower()
    # `psk` (a Wi-Fi pre-shared key, nmcli) and `Key Content` (netsh wlan) name passwords
    words = ("pass", "pw", "psk", "key content", "密码", "口令", "密碼", "暗号", "通行码")
    if any(w in lowered for w in words):
        return SecretName.PASSWORD
    return SecretName.KEY


_NOT_A_VALUE = re.compile(
    r"""(?ix)^(?:
    https?://\S*|www\.\S*|[\w.+-]+@[\w-]+\.[\w.]+     # an address, not a password
    | \d{1,4}(?:[-/.:]\d{1,4}){1,3}                    # a date or a time
    | v?\d+(?:\.\d+){1,3}                              # a version
    | [A-Za-z_][\w.-]{0,60}=.*                         # an assignment: the name is the key
    )$"""
)


_PUBLIC_BEFORE = re.compile(r"(?i)(?:public|publishable|\bpub|公钥|公開|公开)[\w \t-]{0,12}$|公钥")


def _bare_password(value: str) -> bool:
    """A password named without a separator ("登录密码 X"): a digit and a symbol, or long."""
    digit = any(map(str.isdigit, value))
    return (digit and (not value.isalnum() or len(value) >= 10)) or len(value) >= 16


_WORD_BEFORE = re.compile(r"([A-Za-z][A-Za-z0-9]{0,30})[ \t_-]{1,2}\Z")


def _benign_qualifier_before(name: str, text: str, start: int) -> bool:
    """A bare `key` in a sentence qualified by a word that makes it no credential
    (`cache key: <sha1>`, `sort key is …`, `primary key: …`), as in names."""
    if name.lower() not in ("key", "keys"):
        return False
    m = _WORD_BEFORE.search(text, max(0, start - 34), start)
    return m is not None and m.group(1).lower() in _KEY_QUALIFIERS_BENIGN


_INDENT_BEFORE = re.compile(r"(?:^|\n)(?:[ \t]{2,}|[ \t]*-[ \t]+)\Z")


def _nested_key(name: str, text: str, start: int) -> bool:
    """A bare `key:` nested in YAML (`with:` / `  key: deps-<sha1>`, i18n and sort
    keys): a mapping key named `key`, the assignment carrier's to judge (it takes
    no bare `key` for a credential name), not a sentence."""
    if name.lower() != "key":
        return False
    return _INDENT_BEFORE.search(text, max(0, start - 40), start) is not None


def _sets_no_value(m: re.Match[str], text: str, begin: int | None = None) -> bool:
    """The separator is a bare `to` with no verb that sets a value before it."""
    if m.re.groupindex.get("to") is None or m.start("to") < 0:
        return False
    start = m.start() if begin is None else begin
    return _SET_BEFORE.search(text, max(0, start - 48), start) is None


def _pin_ok(value: str) -> bool:
    """4 to 8 digits a person chose: not one digit, not a run up or down (1234, 9876)."""
    if len(set(value)) < 2:
        return False
    steps = {int(b) - int(a) for a, b in itertools.pairwise(value)}
    return steps not in ({1}, {-1})


def _prose_not_a_value(value: str) -> bool:
    return bool(_NOT_A_VALUE.match(value))
