"""Small pure predicates: false-positive filters and validators for rule values.

Filters return True when a candidate value is NOT a real finding (a
placeholder, a hash, a UUID). Validators return True when a value is
well-formed (a Luhn-valid card number). Rules name them in `filters` and
`validators`.

Every predicate takes `(value, context)`: the candidate value and up to
`CONTEXT_CHARS` characters of text on either side of it (the value included).
All are pure, never raise, and run in time linear in their input.
"""

from __future__ import annotations

import base64
import binascii
import itertools
import json
import math
import re
from collections import Counter
from collections.abc import Callable

_DIGITS = frozenset("0123456789")

Predicate = Callable[[str, str], bool]
"""(value, context) -> bool. Context is the text around the value."""

# Placeholder shapes, matched on the lower-cased value. `_PLACEHOLDER_WHOLE` and
# `_PLACEHOLDER_START` are anchored (one attempt); `_PLACEHOLDER_ANYWHERE` starts
# every branch with a literal, so the regex engine only stops on those characters.
_PLACEHOLDER_WHOLE = re.compile(
    r"""(?x)
    (?:your|my|the|some|an?)?[_-]?(?:api|secret|access|auth|private|client|app|bot|db)?[_-]?
      (?:key|token|secret|password|pass|pwd|id)[_-]?(?:id|here)?$
    | (?:secret|password|passw0rd|token|null|none|nil|undefined|true|false|test|testing|pass|
         admin|root|user|guest|yyy+|zzz+|foo|bar|foobar|string|value|required|optional)$
    | \$[a-z_][a-z0-9_]*$|%[a-z_]+%$
    | <|\{|\[|\$\{|\$\(
    | x{3,}|\*{3,}|\.{3,}|-{3,}|\#{3,}|0{6,}
    """
)
_PLACEHOLDER_ANYWHERE = re.compile(
    r"""(?x)
    your[_-]|_here$|-here$|\{\{.*\}\}
    | changeme|change[_-]me|placeholder|redacted
    | replace[_-]?(?:me|with|this)|insert[_-]|put[_-]your|enter[_-]your
    | \.\.\.|…|xxxx|\*\*\*
    """
)
# Words that make a value an example only where they stand as a word of it
# (`AKIAIOSFODNN7EXAMPLE`, `my-dummy-token`, `fake_key`), or where the text
# around says it is one: inside a random-looking token they prove nothing.
_WEAK_WORD = re.compile(r"example|dummy|sample|fake|test[_-]?key|todo|demo|mock")
_WEAK_DELIMITED = re.compile(
    r"(?:^|[^a-z])(?:example|dummy|sample|fake|test[_-]?key|todo|demo|mock)(?:key|s)?(?:[^a-z]|$)"
    r"|example(?:key)?$"  # the documented AWS keys: AKIAIOSFODNN7EXAMPLE, ...EXAMPLEKEY
)
_EXAMPLE_CONTEXT = re.compile(
    r"(?i)\b(?:e\.g\.|for example|for instance|example|examples|sample|dummy|fake|mock|placeholder|"
    r"illustrat\w*|documentation|docs?)\b|示例|例如|样例|比如|举例|假的|虚构"
)
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
_HEX = re.compile(r"^[0-9a-fA-F]+$")
_HASH_CONTEXT = re.compile(
    r"(?i)\b(?:sha(?:1|256|384|512)?|md5|digest|checksum|hash|commit|rev|revision|integrity|"
    r"etag|h1:|sum|fingerprint|blake2b?|crc32)\b"
)
_INTEGRITY = re.compile(
    r"(?i)(?:sha(?:1|256|384|512)-[A-Za-z0-9+/=]{20,}|"
    r"\bh1:[A-Za-z0-9+/=]{20,})"
)
_INTEGRITY_PREFIX = re.compile(
    r"(?i)(?:sha(?:1|224|256|384|512)[-:~]|\bh1:|md5[-:=]|blake2b?[-:]|sha512/|@sha256:)$"
)


def shannon_entropy(value: str) -> float:
    """Bits per character."""
    n = len(value)
    if not n:
        return 0.0
    # H = log2(n) - sum(c * log2(c)) / n, with c * log2(c) from a table for short values.
    counts = Counter(value).values()
    if n < len(_XLOGX):
        total = sum(map(_XLOGX.__getitem__, counts))
    else:
        total = sum(c * math.log2(c) for c in counts)
    return max(0.0, math.log2(n) - total / n)


_XLOGX = tuple(c * math.log2(c) if c else 0.0 for c in range(1024))


def _before(value: str, context: str, n: int = 60) -> str:
    """The text just before `value` in `context` (empty if not found)."""
    at = context.find(value)
    if at < 0:
        return ""
    return context[max(0, at - n) : at]


def is_placeholder(value: str, context: str = "") -> bool:
    """`YOUR_API_KEY`, `<token>`, `${VAR}`, `{{ var }}`, `changeme`, `xxxx`, `sk-...`."""
    stripped = value.strip("'\"` ")
    if not stripped:
        return True
    lowered = stripped.lower()
    if _PLACEHOLDER_WHOLE.match(lowered) or _PLACEHOLDER_ANYWHERE.search(lowered):
        return True
    if _WEAK_WORD.search(lowered) and (
        _WEAK_DELIMITED.search(lowered) or is_example_context(value, context)
    ):
        return True
    # A long run of one character ("QQQQQQQQQQ", "0000000000") is typed, not generated
    # (real tokens may hold a short run: AWS session tokens contain "//////////").
    run = _ONE_CHAR_RUN.search(stripped)
    return run is not None and len(run.group(0)) * 10 >= len(stripped) * 3


_ONE_CHAR_RUN = re.compile(r"(.)\1{9,}")
_OBVIOUS_ANYWHERE = re.compile(
    r"""(?x)
    your[_-]|_here$|-here$|\{\{.*\}\}
    | changeme|change[_-]me|placeholder|example|redacted
    | replace[_-]?(?:me|with|this)|insert[_-]|put[_-]your|enter[_-]your
    | \.\.\.|…|xxxx|\*\*\*
    """
)


def is_example_context(value: str, context: str = "") -> bool:
    """The text around the value (the value itself left out) says it is an
    example: "e.g.", "for example", "sample", "示例", "例如"."""
    return bool(_EXAMPLE_CONTEXT.search(context.replace(value, " "))) if context else False


def is_obvious_placeholder(value: str, context: str = "") -> bool:
    """`is_placeholder` without its weak words (`fake`, `dummy`, `sample`, `test_key`,
    `todo`): for a value whose full vendor shape (exact length, fixed suffix) already
    marks it as a key, where only a template or a masked value is not one."""
    stripped = value.strip("'\"` ")
    if not stripped:
        return True
    lowered = stripped.lower()
    if _PLACEHOLDER_WHOLE.match(lowered) or _OBVIOUS_ANYWHERE.search(lowered):
        return True
    run = _ONE_CHAR_RUN.search(stripped)
    return run is not None and len(run.group(0)) * 10 >= len(stripped) * 3


def is_uuid(value: str, context: str = "") -> bool:
    return bool(_UUID.match(value))


def is_hash_in_context(value: str, context: str = "") -> bool:
    """A hex digest (git SHA, md5, sha256) or an integrity hash, said to be one."""
    if _INTEGRITY.search(context) and value in context:
        return True
    if _HEX.match(value) and len(value) in (32, 40, 56, 64, 96, 128):
        return bool(_HASH_CONTEXT.search(context)) or len(value) in (40, 64)
    return False


def is_integrity_hash(value: str, context: str = "") -> bool:
    """The value directly follows `sha512-`, `h1:`, `sha256:` (lock files, go.sum, digests)."""
    return bool(_INTEGRITY_PREFIX.search(_before(value, context, 12)))


def is_sequential(value: str, context: str = "") -> bool:
    """`abcdefgh`, `12345678`, `aaaaaaaa`, `123123123123`: made up by a person, not a generator."""
    n = len(value)
    if n < 6:
        return False
    distinct = len(set(value))
    if distinct <= 2 or (n >= 16 and distinct < 8):
        return True
    step = ord(value[1]) - ord(value[0])
    if step in (1, -1) and all(ord(b) - ord(a) == step for a, b in itertools.pairwise(value)):
        return True
    if _ALPHABET_RUN.search(value.lower()):
        return True
    # A short unit repeated over much of the value ("123123123123"): a span of
    # max(10, 0.4 n) characters with at most 4 distinct ones repeats span - 4 of them.
    if distinct > n - max(10, (n * 4 + 9) // 10) + 4:
        return False
    repeated = max((len(m.group(0)) for m in _REPEATED_UNIT.finditer(value)), default=0)
    return repeated >= 10 and repeated * 10 >= n * 4


_REPEATED_UNIT = re.compile(r"(.{1,4})\1{4,}")
_ALPHABET_RUN = re.compile(  # on the lower-cased value
    r"abcdefghij|bcdefghijk|cdefghijkl|defghijklm|efghijklmn|fghijklmno|ghijklmnop|"
    r"hijklmnopq|ijklmnopqr|jklmnopqrs|klmnopqrst|lmnopqrstu|mnopqrstuv|nopqrstuvw|opqrstuvwx|"
    r"pqrstuvwxy|qrstuvwxyz|0123456789|1234567890"
)


def is_data_uri(value: str, context: str = "") -> bool:
    """Base64 image/font payloads: `data:image/png;base64,...`."""
    return "data:" in context and ";base64," in context


def is_low_entropy(value: str, context: str = "") -> bool:
    return shannon_entropy(value) < 3.0


_ENV_REF = re.compile(
    r"""(?x)
    ^\$[A-Za-z_{(]|^%[A-Za-z_]\w*%|\$\{\{|^\{\{|
    os\.environ|os\.getenv|getenv\(|process\.env|import\.meta\.env|ENV\[|System\.getenv|
    Environment\.GetEnvironmentVariable|secrets\.[A-Za-z_]|vault\(|env\(
    """
)


def is_env_reference(value: str, context: str = "") -> bool:
    """`$VAR`, `${VAR}`, `%VAR%`, `os.environ["X"]`, `process.env.X`, `${{ secrets.X }}`."""
    if _ENV_REF.search(value):
        return True
    before = _before(value, context, 24)
    return bool(re.search(r"(?:os\.environ|getenv|process\.env|ENV)\W{0,4}$", before))


_REGEX_SYNTAX = re.compile(
    r"""\[[^\]]{1,40}-[^\]]{1,40}\]|\\[dswbDSWB]|\{\d{1,3}(?:,\d{0,3})?\}|\(\?[:=!iP<]|\[\^|\.\*|\.\+"""
)


def is_regex_text(value: str, context: str = "") -> bool:
    """A secret scanner's pattern shown in docs (`AKIA[0-9A-Z]{16}`) is not a secret."""
    return bool(_REGEX_SYNTAX.search(value))


_INDIRECT = re.compile(
    r"""(?x)
    # a call or subscript: get_secret(), cfg["x"]
    ^[A-Za-z_$][\w.$:-]*[(\[][\w.$:,\ /-]*(?:[)\]][\w.()\[\]$-]*)?$
    | ^[(\[]|[)\]]$
    | ^(?:/|\./|\.\./|~/|[A-Za-z]:\\)         # a file path
    | ^(?:https?|file)://                     # a URL, not a credential
    | ^(?:vault|secret|secrets|ssm|secretsmanager|awssm|aws-sm|gcpsm|gcp-sm|azkv|keyvault|kms|
         sops|doppler|infisical|bws|env|file|ref|arn:aws[\w-]*):\S   # a secret manager reference
    | ^op://
    | \.(?:pem|key|p12|pfx|crt|cer|json|txt|ya?ml|env|jks|keystore)$
    """
)


_ATTRIBUTE_PATH = re.compile(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")


def is_indirect_reference(value: str, context: str = "") -> bool:
    """The value names where the secret lives instead of being it: a call or
    subscript, a file path or URL, an attribute path (`settings.SECRET_KEY`)."""
    if _INDIRECT.search(value):
        return True
    # A dotted path of words is a reference; `s.ZC9Ecf4M5g9o34Q6Rk` (a Vault token) is not.
    return bool(_ATTRIBUTE_PATH.match(value)) and (
        not has_digit(value) or shannon_entropy(value) < 3.5
    )


_PUBLIC_VALUE = re.compile(
    r"""(?x)^(?:
    pk_(?:live|test)_ | ssh-(?:rsa|ed25519|dss)\b | ecdsa-sha2- | sk-(?:ssh-ed25519|ecdsa-sha2)
    | AAAA[BC]3Nza | age1[02-9ac-hj-np-z]{58}$ | npub1
    | -----BEGIN\ (?:PUBLIC|CERTIFICATE|SSH2\ PUBLIC)
    | phc_ | pub-[a-f0-9]{32}$ | pubkey- )"""
)


def is_public_value(value: str, context: str = "") -> bool:
    """A key meant to be public: Stripe publishable keys, SSH / age / Nostr public
    keys, certificates, PostHog project keys (client-side by design)."""
    return bool(_PUBLIC_VALUE.match(value.strip("'\"` ")))


def is_word_like(value: str, context: str = "") -> bool:
    """No digit and only letters and `_-.`: an identifier or a word, not a generated secret."""
    return _WORD_LIKE.fullmatch(value) is not None


_WORD_LIKE = re.compile(r"[A-Za-z_.\-]+(?:[-_.:]?v?\d{1,4}(?:\.\d{1,4}){1,3}(?:-[A-Za-z]+)?)?")


_BENIGN_KEY = re.compile(
    r"""(?ix)
    # a whole word of the name (`PAGE_TOKEN`, `nextPageToken`), not a prefix of one
    # (`PAGERDUTY_TOKEN`, `STATEMENT_KEY`, `PUBNUB_SECRET`, `SYNCTHING_API_KEY`)
    (?-i:(?<![A-Za-z0-9])|(?<=[a-z0-9])(?=[A-Z]))
    (?:csrf|xsrf|next|prev|page|continuation|cursor|pagination|sync|max|num|refresh[_-]?interval|
       token[_-]?(?:type|count|limit|url|endpoint|uri)|tokenizers?|public|pubkeys?|pub|publishable|
       idempotency|request|trace|correlation|nonce|state)
    (?-i:(?![A-Za-z])|(?<=[a-z])(?=[A-Z]))
    [\w.-]{0,30}["']?\s*(?::\s*[\w\[\]|. ]{0,30}?)?\s*(?:[:=]|=>|:=)\s*["'`]?$
    """
)


def is_benign_key(value: str, context: str = "") -> bool:
    """The key in front of the value is a token-ish name that is not a credential
    (`csrf-token=`, `next_page_token:`, `publishable_key=`)."""
    return bool(_BENIGN_KEY.search(_before(value, context, 60)))


# Well-known public test card numbers (Stripe, Braintree, Adyen docs).
_TEST_CARDS = frozenset(
    {
        "4242424242424242",
        "4000056655665556",
        "4111111111111111",
        "4012888888881881",
        "4222222222222",
        "5555555555554444",
        "5200828282828210",
        "5105105105105100",
        "2223003122003222",
        "378282246310005",
        "371449635398431",
        "6011111111111117",
        "6011000990139424",
        "3056930009020004",
        "36227206271667",
        "3566002020360505",
        "6200000000000005",
        "4000000000000002",
        "4000000000009995",
        "4000002500003155",
    }
)
_TEST_CONTEXT = re.compile(r"(?i)test|sandbox|dummy|example|sample|demo|stripe|测试|沙箱|示例")


def is_test_card(value: str, context: str = "") -> bool:
    """A public test card number said to be one (test mode, sandbox, docs)."""
    digits = "".join(c for c in value if c in _DIGITS)
    return digits in _TEST_CARDS and bool(_TEST_CONTEXT.search(context))


_ROLE_LOCAL = re.compile(  # on the lower-cased local part
    r"""(?x)^(?:
    no[-_.]?reply|do[-_.]?not[-_.]?reply|support|info|help|helpdesk|admin|administrator|
    contact|sales|billing|orders?|notifications?|notify|alerts?|news|newsletter|marketing|
    hello|hi|team|security|abuse|postmaster|webmaster|hostmaster|root|mailer[-_.]daemon|
    privacy|legal|press|jobs|careers|hr|office|service|services|feedback|dev|devops|ops|it|
    noc|soc|bot|ci|build|deploy|release|git|github|gitlab|bounce|bounces|archive|backup|
    [\w.-]*(?:-bot|-ci|-team|-ops|-noreply|-archive|-backup|-alerts)|
    user|username|name|email|someone|somebody|anyone|test|tester|example|foo|bar|baz|
    me|you|your[._-]?name|your[._-]?email|first[._-]?last|firstname[._-]?lastname|
    john[._-]?doe|jane[._-]?doe|john|jane|alice|bob|carol|dave|eve|mallory
    )$"""
)
_GIT_TRAILER = re.compile(  # on lower-cased text
    r"(?:signed-off-by|co-authored-by|reviewed-by|acked-by|tested-by|reported-by|"
    r"author_email|maintainer_email|git config)\W{0,4}[^\n]{0,60}$"
)


_ROLE_TOKENS = frozenset(
    {
        "noreply",
        "no-reply",
        "donotreply",
        "support",
        "info",
        "help",
        "helpdesk",
        "admin",
        "contact",
        "sales",
        "billing",
        "order",
        "orders",
        "notification",
        "notifications",
        "notify",
        "alert",
        "alerts",
        "news",
        "newsletter",
        "marketing",
        "team",
        "security",
        "abuse",
        "postmaster",
        "webmaster",
        "privacy",
        "legal",
        "press",
        "jobs",
        "careers",
        "feedback",
        "service",
        "services",
        "ops",
        "devops",
        "bot",
        "ci",
        "deploy",
        "release",
        "bounce",
        "bounces",
        "archive",
        "backup",
        "reply",
        "updates",
        "mailer",
        "daemon",
        "system",
        "accounts",
        "account",
        "receipts",
        "receipt",
        "invoices",
        "invoice",
        "hello",
    }
)


def is_non_personal_email(value: str, context: str = "") -> bool:
    """Role addresses (support@, noreply@, product-feedback@), an organisation writing
    under its own name (gogo@gogoair.com), generic doc examples (user@example.com),
    and git trailers / package metadata."""
    local, _, domain = value.partition("@")
    low_local = local.lower()
    if _ROLE_LOCAL.match(low_local):
        return True
    if not _ROLE_TOKENS.isdisjoint(_LOCAL_SEPARATORS.split(low_local)):
        return True
    lowered = domain.lower()
    if len(local) >= 3 and local.isalpha() and low_local in lowered:
        return True
    if lowered.endswith(("noreply.github.com", "users.noreply.gitlab.com")):
        return True
    return bool(_GIT_TRAILER.search(_before(value, context, 80).lower()))


_MAIL_ADDRESS_HEADER = re.compile(
    r"(?im)^[ \t>]*(?:from|to|cc|bcc|reply-to|sender"
    r"|发件人|收件人|抄送|密送|寄件人|收件者|發件人|寄件者)"
    r"[ \t]*[:：]"
)
_MAIL_OTHER_HEADER = re.compile(
    r"(?im)^[ \t>]*(?:from|to|cc|date|sent|subject"
    r"|发件人|收件人|抄送|时间|日期|主题|發件人|主旨|寄件日期)"
    r"[ \t]*[:：]"
)
MAIL_ENVELOPE_ADDRESSES = 3
"""A header line with more addresses than this is a list, not a message's envelope."""


def is_mail_envelope(value: str, context: str = "") -> bool:
    """Filter: the address stands in an address header (From, To, Cc, 发件人, 收件人...)
    of a message whose header block shows another header line next to it (Date,
    Subject, 主题, 时间...), with at most MAIL_ENVELOPE_ADDRESSES addresses on the
    line: the sender and recipients of an e-mail kept as a memory are the
    message's envelope, not a record of someone's contact data. A lone "From: ...",
    a contact list or a long recipient list are not."""
    at = context.find(value)
    if at < 0:
        return False
    start = context.rfind("\n", 0, at) + 1
    end = context.find("\n", at)
    end = len(context) if end < 0 else end
    line = context[start:end]
    if not _MAIL_ADDRESS_HEADER.match(line) or line.count("@") > MAIL_ENVELOPE_ADDRESSES:
        return False
    around = context[:start] + context[end:]
    return bool(_MAIL_OTHER_HEADER.search(around))


_LOCAL_SEPARATORS = re.compile(r"[-_.+]")


_NAME_LIKE_LOCAL = re.compile(
    r"(?i)^(?:[a-z]{2,}[._-][a-z]{2,}(?:[._-]?[a-z0-9]{1,10})?"  # first.last, first_last2
    r"|[a-z]{4,}\d{1,4})$"  # liuyutong88
)
# Said to be someone's address: a whole word (`\bname\b`), a phrase, or a CJK term.
_PERSONAL_WORDS = frozenset(
    [
        "name",
        "contact",
        "customer",
        "patient",
        "client",
        "tenant",
        "landlord",
        "employee",
        "applicant",
        "member",
        "student",
        "users",
        "personal",
        "private",
        "home",
        "mobile",
        "phone",
        "cell",
        "signature",
        "resume",
        "cv",
        "dob",
        "address",
        "guest",
        "passenger",
        "recipient",
        "owner",
        "holder",
        "emergency",
        "parent",
        "spouse",
    ]
)
_WORD = re.compile(r"\w+")
_PERSONAL_PHRASE = re.compile(  # on lower-cased text; `\b` after the first letter
    r"""(?x)
    (?: u(?<!\w.)ser'?s | m(?<!\w.)y\s+e-?mail | r(?<!\w.)each\s+me | e(?<!\w.)mail\s+me
      | e(?<!\w.)-?mail\s*(?:address)?\s*[:：=] | f(?<!\w.)rom: | t(?<!\w.)o: | c(?<!\w.)c: )\b
    """
)
_PERSONAL_CJK = re.compile(
    "邮箱|邮件|联系|客户|用户|姓名|收件|收货|电话|手机|住址|地址|简历|员工|个人|本人|患者|租客"
)
_FREEMAIL_NAMES = frozenset(
    [
        "gmail",
        "googlemail",
        "outlook",
        "hotmail",
        "live",
        "msn",
        "yahoo",
        "ymail",
        "icloud",
        "me",
        "aol",
        "proton",
        "protonmail",
        "pm",
        "gmx",
        "web",
        "mail",
        "yandex",
        "qq",
        "foxmail",
        "163",
        "126",
        "yeah",
        "sina",
        "sohu",
        "aliyun",
        "139",
        "naver",
        "daum",
        "hanmail",
    ]
)
_FREEMAIL_TLDS = frozenset(["com", "net", "org", "de", "fr", "ru", "cn", "me", "ch", "kr"])


def _is_freemail(domain: str) -> bool:
    labels = domain.lower().split(".")
    if len(labels) >= 2 and labels[-1] in _FREEMAIL_TLDS and labels[-2] in _FREEMAIL_NAMES:
        return True
    return (
        len(labels) >= 3
        and labels[-2] == "co"
        and labels[-1] in ("uk", "jp")
        and labels[-3] in _FREEMAIL_NAMES
    )


def email_personal(value: str, context: str = "") -> bool:
    """Validator: an address that belongs to a person: a name-like local part, a
    free-mail provider (gmail, qq, 163...), or said to be someone's (contact, 邮箱...)."""
    local, _, domain = value.partition("@")
    if _NAME_LIKE_LOCAL.match(local) or _is_freemail(domain) or _PERSONAL_CJK.search(context):
        return True
    lowered = context.lower()
    return not _PERSONAL_WORDS.isdisjoint(_WORD.findall(lowered)) or bool(
        _PERSONAL_PHRASE.search(lowered)
    )


PHONE_NEAR = 80
"""How near a weak phone word must be to the number (see `phone_context`)."""

# Words that say "phone" wherever they stand in a paragraph, and weaker ones
# (`number`, `line`, `m:`) that count only next to the number.
_PHONE_WORDS = re.compile(
    r"""(?ix)
    \b(?:phones?|tel|telephone|mobile|cell|cellphone|call|sms|reach|contacts?|fax|whatsapp|
    wechat|signal|signature|vcard)\b|电话|手机|联系|致电|微信|传真
    """
)
_PHONE_NEAR = re.compile(
    r"""(?ix)
    \b(?:text|line|number|ph|mob|m|t)\b|号码
    | [\w.+-]@[a-z0-9-]+\.[a-z]  # next to an e-mail address: a contact entry
    """
)


def phone_context(value: str, context: str = "") -> bool:
    """Validator: the number is said to be a phone number: a phone word anywhere in
    the context (one "contacts:" covers a list), or a weaker word (`number`,
    `line`) or an e-mail address within `PHONE_NEAR` characters of it."""
    if _PHONE_WORDS.search(context):
        return True
    at = context.find(value)
    if at >= 0:
        context = context[max(0, at - PHONE_NEAR) : at + len(value) + PHONE_NEAR]
    return bool(_PHONE_NEAR.search(context))


_NOT_PHONE_BEFORE = re.compile(
    r"""(?ix)(?:order|invoice|tracking|ticket|case|ref|reference|txn|transaction|serial|
    build|version|ver|v|isbn|issn|doi|id|no|\#|订单号?|单号|流水号?|编号|工单)\W{0,3}$"""
)
_NOT_PHONE_AFTER = re.compile(r"[.:]\d|:")  # 12.345678901, 555-0147:8080; not a full stop


def is_not_phone(value: str, context: str = "") -> bool:
    """Filter: the number is an order/ticket/serial number, or part of a version,
    decimal or timestamp."""
    before = _before(value, context, 24)
    if _NOT_PHONE_BEFORE.search(before):
        return True
    at = context.find(value)
    after = context[at + len(value) : at + len(value) + 2] if at >= 0 else ""
    # version strings and decimals: v1.2.3, 12.345678901
    return before.endswith((".", "v")) or bool(_NOT_PHONE_AFTER.match(after))


def phone_digits(value: str, context: str = "") -> bool:
    """Validator: 8 to 15 digits (E.164), not all one digit."""
    digits = [c for c in value if c in _DIGITS]
    return 8 <= len(digits) <= 15 and len(set(digits)) > 2


_CN_ID_CONTEXT = re.compile(
    r"(?i)身份证|证件|身份|公民|居民|实名|id[_ -]?(?:card|no|number)|idno|idcard|resident|citizen|"
    r"national[_ ]id|identity"
)


def cn_id_context(value: str, context: str = "") -> bool:
    """Validator: the number is said to be an identity number."""
    return bool(_CN_ID_CONTEXT.search(context))


def has_digit(value: str, context: str = "") -> bool:
    return any(map(str.isdigit, value))


# Function words of English prose, none of them in the BIP-39 word list (whose words
# are 3-8 letters, unique in their first four): a sentence of twelve words holds one.
_PROSE_WORD_LIST = """the and for with that this you are from have your was has but not can our
its into they them their his her she him which when what who how why there here then than
were been does did should would could might must shall these those some any each very many
much such only own same other onto upon per via whose where while because although unless"""
_PROSE_WORDS = frozenset(_PROSE_WORD_LIST.split())


def seed_phrase(value: str, context: str = "") -> bool:
    """Validator: a wallet seed phrase (BIP-39): 12, 15, 18, 21 or 24 lower-case
    words of 3 to 8 letters, no function word of English prose among them."""
    words = value.split()
    return (
        len(words) in (12, 15, 18, 21, 24)
        and all(3 <= len(w) <= 8 and w.isalpha() and w.islower() for w in words)
        and _PROSE_WORDS.isdisjoint(words)
        and len(set(words)) * 4 >= len(words) * 3
    )


def licence_number(value: str, context: str = "") -> bool:
    """Validator: a driver's licence number: 6 to 20 letters and digits once the
    spaces and dashes are gone, five digits or more, not one digit repeated."""
    core = value.replace(" ", "").replace("-", "")
    digits = [c for c in core if c.isdigit()]
    return 6 <= len(core) <= 20 and len(digits) >= 5 and len(set(digits)) >= 2


def mixed_case(value: str, context: str = "") -> bool:
    """Validator: upper- and lower-case letters and a digit (base64 of random bytes)."""
    return any(map(str.isupper, value)) and any(map(str.islower, value)) and has_digit(value)


def mixed_case_letters(value: str, context: str = "") -> bool:
    """Validator: upper- and lower-case letters (a token drawn from letters only)."""
    return any(map(str.isupper, value)) and any(map(str.islower, value))


def secret_like(value: str, context: str = "") -> bool:
    """Validator for generic assignments: no whitespace, at least 8 chars, and at least
    two character classes among lower, upper, digit, symbol (or long and high-entropy)."""
    if len(value) < 8 or any(map(str.isspace, value)):
        return False
    digit = any(map(str.isdigit, value))
    symbol = not value.isalnum()
    classes = any(map(str.islower, value)) + any(map(str.isupper, value)) + digit + symbol
    if classes >= 2 and (digit or symbol):
        return True
    return len(value) >= 20 and shannon_entropy(value) >= 4.0


def password_like(value: str, context: str = "") -> bool:
    """Validator: a password a person may have typed: 6 to 128 characters, no
    whitespace, letters with a digit or a symbol (not an identifier or a file name),
    or 6 to 16 digits not all alike."""
    n = len(value)
    if not 6 <= n <= 128 or any(map(str.isspace, value)):
        return False
    if value.isdigit():
        return n <= 16 and len(set(value)) >= 3
    letters = any(map(str.isalpha, value))
    digit = any(map(str.isdigit, value))
    symbol = not value.isalnum()
    if letters and (digit or symbol):
        return _WORD_LIKE.fullmatch(value) is None and not _FILE_NAME.fullmatch(value)
    return False


_PASSPHRASE = re.compile(
    r"[A-Za-z]{3,12}(?P<sep>[-._])[A-Za-z]{3,12}(?:(?P=sep)[A-Za-z]{3,12}){1,6}"
)
_PASSPHRASE_STOP = frozenset(
    {
        "the", "and", "for", "via", "with", "from", "your", "our", "not", "set", "see", "use",
        "reset", "change", "enter", "same", "none", "null", "empty", "required", "optional",
        "default", "example", "sample", "dummy", "placeholder", "secret", "password", "here",
        "there", "this", "that", "todo", "fixme", "redacted", "hidden", "masked", "vault",
        "env", "config", "value", "input", "field", "user", "admin", "test", "local", "dev",
    }
)  # fmt: skip


def passphrase_like(value: str, context: str = "") -> bool:
    """Validator: a passphrase of dictionary words (`correct-horse-battery-staple`,
    `river.cloud.maple`): 3 to 8 letter words, one separator, 14+ characters, no word
    that makes it a placeholder or a phrase (`use-the-vault`, `not-set-yet`)."""
    if len(value) < 14 or _PASSPHRASE.fullmatch(value) is None:
        return False
    words = re.split(r"[-._]", value.lower())
    return not any(w in _PASSPHRASE_STOP for w in words)


def mixed_case_random(value: str, context: str = "") -> bool:
    """Validator: 8 to 64 letters in a random mix of cases (`XJUnjgFbEU`), not words
    in camel case (`HelloWorld`, `XMLHttpRequest`)."""
    if not 8 <= len(value) <= 64 or not value.isascii() or not value.isalpha():
        return False
    if value.islower() or value.isupper():
        return False
    changes = sum(1 for a, b in itertools.pairwise(value) if a.isupper() != b.isupper())
    return changes >= 4 and _CAMEL_WORDS.fullmatch(value) is None


_CAMEL_WORDS = re.compile(r"(?:[A-Z]{2,}(?=[A-Z][a-z]|$)|[A-Z]?[a-z]{2,}|[A-Z][aeiouy])+")


# A file name has an extension people use (`report2024.pdf`); `Wang1979.godd` is a password.
_FILE_NAME = re.compile(
    r"[\w-]+\.(?:tar\.gz|txt|md|rst|py|pyc|js|mjs|ts|tsx|jsx|json|ya?ml|toml|cfg|conf|ini|log|csv"
    r"|tsv|pdf|png|jpe?g|gif|svg|webp|ico|bmp|html?|css|scss|sh|bash|zsh|ps1|bat|cmd|zip|gz|tgz"
    r"|bz2|xz|7z|rar|tar|xml|env|lock|rs|go|java|kt|rb|php|c|h|cc|cpp|hpp|cs|swift|m|exe|dll|so"
    r"|dylib|bin|img|iso|dmg|deb|rpm|apk|jar|war|whl|db|sqlite|sql|key|pem|crt|cer|der|p12|pfx"
    r"|doc|docx|xls|xlsx|ppt|pptx|odt|mp3|mp4|wav|flac|mov|avi|mkv|bak|tmp|old|out|dat|pkl|pt"
    r"|onnx|npz|npy|ipynb|vue|svelte|lua|pl|r|jl|scala|sbt|gradle|tf|tfvars|hcl|nix|proto|wasm)"
)


def _b64url_json(part: str) -> object:
    padded = part + "=" * (-len(part) % 4)
    try:
        raw = base64.urlsafe_b64decode(padded.encode("ascii"))
        return json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, UnicodeError):
        return None


def jwt_valid(value: str, context: str = "") -> bool:
    """Validator: three parts, a JSON header with `alg`, a non-trivial signature."""
    parts = value.split(".")
    if len(parts) != 3 or len(parts[0]) > 4096:
        return False
    header = _b64url_json(parts[0])
    if not isinstance(header, dict) or "alg" not in header:
        return False
    if str(header.get("alg", "")).lower() == "none":
        return False
    signature = parts[2]
    return len(signature) >= 16 and shannon_entropy(signature) >= 3.0


_KNOWN_PREFIX = re.compile(
    r"^(?:sk_live_|rk_live_|sk_test_|sk-|ghp_|gho_|ghs_|github_pat_|glpat-|xox[abposr]-|AKIA|ASIA|"
    r"AIza|hf_|npm_|pypi-|SG\.|xai-|gsk_|lsv2_|dop_v1_|shpat_|glsa_|sntrys_|dckr_pat_|AGE-SECRET-KEY-1)"
)


def concatenated_secret(value: str, context: str = "") -> bool:
    """Validator: the string literals in `value`, joined, make a secret (a known prefix,
    or long and high-entropy)."""
    pieces = re.findall(r"""["']([^"'\n]{1,200})["']""", value)
    joined = "".join(pieces)
    if 8 <= len(joined) < 16:
        # a short one is a password only where the name says so (`SMTP_PASSWORD`)
        return (
            bool(_PASSWORD_NAME.search(context))
            and password_like(joined)
            and has_digit(joined)
            and len(pieces) >= 2
        )
    if len(joined) < 16:
        return False
    if _KNOWN_PREFIX.match(joined):
        return True
    if len(joined) >= 24 and shannon_entropy(joined) >= 4.0 and has_digit(joined):
        return True
    # The rules using this name the target a secret (`DD_API_KEY = a + b`): a
    # generated look is enough, as for any secret-named value (hex keys: entropy < 4).
    return (
        len(pieces) >= 2
        and secret_like(joined)
        and shannon_entropy(joined) >= 3.0
        and _WORD_LIKE.fullmatch(joined) is None
        and not any(c.isspace() for c in joined)
    )


_PASSWORD_NAME = re.compile(r"(?i)passw(?:or)?d|passwd|\bpwd|_pwd|_pass\b|passphrase")


def joined_token(value: str, context: str = "") -> bool:
    """Validator: the string literals of an array joined with `''` make a token with a
    vendor prefix (`['ghp_u8', 'jzPd...'].join('')`); without a name saying it is a
    secret, only the prefix vouches for it."""
    pieces = re.findall(r"""["']([^"'\n]{1,80})["']""", value)
    joined = "".join(pieces)
    return len(joined) >= 20 and _KNOWN_PREFIX.match(joined) is not None and len(pieces) >= 2


# Vendor prefixes and the length of the whole token: fixed (GitHub classic tokens are
# always 40 characters) or a range. A token split over two lines must join to one.
_SPLIT_TOKEN_LENGTHS: tuple[tuple[str, int, int], ...] = (
    ("github_pat_", 82, 255),
    ("ghp_", 40, 40),
    ("gho_", 40, 40),
    ("ghu_", 40, 40),
    ("ghs_", 40, 40),
    ("ghr_", 40, 40),
    ("glpat-", 26, 64),
    ("sk-ant-", 90, 140),
    ("sk-proj-", 60, 220),
    ("sk-", 40, 220),
    ("sk_live_", 32, 255),
    ("rk_live_", 32, 255),
    ("xoxb-", 40, 90),
    ("xoxp-", 60, 110),
    ("akia", 20, 20),
    ("asia", 20, 20),
    ("aiza", 39, 39),
    ("hf_", 37, 37),
    ("npm_", 40, 40),
    ("pypi-", 80, 240),
    ("shpat_", 38, 38),
    ("lin_api_", 48, 48),
    ("phx_", 47, 47),
    ("sbp_", 44, 44),
    ("dop_v1_", 71, 71),
    ("glsa_", 46, 46),
)


_TOKEN_PART = re.compile(r"[A-Za-z0-9_-]+")
_KEY_LINE = re.compile(r"""(?:-[ \t]*)?["']?[\w.-]{1,64}["']?[ \t]*(?:[:=]|=>)[ \t]*["']?""")
_ASSIGNMENT_LINE = re.compile(r"[ \t]*(?:export[ \t]+)?[A-Za-z_][\w.-]{0,63}=")


def split_token(value: str, context: str = "") -> bool:
    """Validator: a vendor token cut at a line's end (a wrapped log line, a message
    sent in two parts): the first word of `value` (on its first line) and its last
    word (on the next) join to a whole token of that vendor's length, and the part
    on the next line looks generated, not like a word."""
    first_line, _, rest = value.partition("\n")
    head = first_line.split()
    tail = _TOKEN_PART.findall(rest)
    if len(head) != 1 or not tail:
        return False
    first, last = head[0], tail[-1]
    if _KEY_LINE.fullmatch(rest[: rest.rfind(last)].strip()) or _ASSIGNMENT_LINE.match(rest):
        # `region = eu-central-1`, `DB_PASSWORD=...`: the next line's own field, not a continuation
        return False
    joined = first + last
    lowered = joined.lower()
    shape = next((t for t in _SPLIT_TOKEN_LENGTHS if lowered.startswith(t[0])), None)
    if shape is None:
        return False
    _, low, high = shape
    if not low <= len(joined) <= high:
        return False
    if low == high and len(first) >= low:
        return False  # the first part alone is already whole: no continuation
    return (
        (has_digit(last) or mixed_case_letters(last))
        and not is_word_like(last)
        and shannon_entropy(last) >= 2.5
    )


FILTERS: dict[str, Predicate] = {
    "placeholder": is_placeholder,
    "obvious_placeholder": is_obvious_placeholder,
    "uuid": is_uuid,
    "hash_context": is_hash_in_context,
    "integrity": is_integrity_hash,
    "sequential": is_sequential,
    "data_uri": is_data_uri,
    "low_entropy": is_low_entropy,
    "env_reference": is_env_reference,
    "regex_text": is_regex_text,
    "indirect_reference": is_indirect_reference,
    "word_like": is_word_like,
    "benign_key": is_benign_key,
    "test_card": is_test_card,
    "non_personal_email": is_non_personal_email,
    "mail_envelope": is_mail_envelope,
    "example_context": is_example_context,
    "public_value": is_public_value,
    "not_phone": is_not_phone,
}


def _is_ascii_digits(value: str) -> bool:
    return value.isascii() and value.isdigit()


def luhn_valid(value: str, context: str = "") -> bool:
    digits = [int(c) for c in value if c in _DIGITS]
    if not 12 <= len(digits) <= 19:
        return False
    total = 0
    for i, d in enumerate(reversed(digits)):
        if i % 2 == 1:
            d *= 2
            if d > 9:
                d -= 9
        total += d
    return total % 10 == 0


_CARD_GROUPS = re.compile(
    r"^(?:\d{13,19}"  # unseparated
    r"|\d{4}(?:[ -]\d{4}){2,3}(?:[ -]\d{1,4})?"  # 4-4-4-4(-n)
    r"|\d{4}[ -]\d{6}[ -]\d{4,5})$"  # Amex / Diners 4-6-5
)


def card_number(value: str, context: str = "") -> bool:
    """Validator: a payment card: issuer prefix 2-6, card-like grouping, Luhn-valid,
    not one repeated digit."""
    digits = "".join(c for c in value if c in _DIGITS)
    if not 13 <= len(digits) <= 19 or digits[0] not in "23456":
        return False
    if len(set(digits)) < 4 or not _CARD_GROUPS.match(value):
        return False
    return luhn_valid(digits)


_CN_ID_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CN_ID_CHECK = "10X98765432"


def cn_resident_id_valid(value: str, context: str = "") -> bool:
    """GB 11643 checksum of an 18-character Chinese resident ID."""
    v = value.upper()
    if len(v) != 18 or not _is_ascii_digits(v[:17]):
        return False
    total = sum(int(c) * w for c, w in zip(v[:17], _CN_ID_WEIGHTS, strict=True))
    return _CN_ID_CHECK[total % 11] == v[17]


def cn_resident_id_shape(value: str, context: str = "") -> bool:
    """Plausible region, birth date and length, checksum not required."""
    v = value.upper()
    if len(v) != 18 or not _is_ascii_digits(v[:17]) or v[17] not in "0123456789X":
        return False
    year, month, day = int(v[6:10]), int(v[10:12]), int(v[12:14])
    return 1900 <= year <= 2100 and 1 <= month <= 12 and 1 <= day <= 31 and v[0] in "123456789"


def cn_resident_id_invalid(value: str, context: str = "") -> bool:
    """Well-shaped but checksum-invalid (a typo or a partly masked real ID)."""
    return cn_resident_id_shape(value) and not cn_resident_id_valid(value)


VALIDATORS: dict[str, Predicate] = {
    "luhn": luhn_valid,
    "card_number": card_number,
    "cn_resident_id": cn_resident_id_valid,
    "cn_resident_id_shape": cn_resident_id_shape,
    "cn_resident_id_invalid": cn_resident_id_invalid,
    "cn_id_context": cn_id_context,
    "jwt": jwt_valid,
    "secret_like": secret_like,
    "password_like": password_like,
    "passphrase_like": passphrase_like,
    "has_digit": has_digit,
    "mixed_case": mixed_case,
    "mixed_case_letters": mixed_case_letters,
    "email_personal": email_personal,
    "phone_context": phone_context,
    "phone_digits": phone_digits,
    "concatenated_secret": concatenated_secret,
    "seed_phrase": seed_phrase,
    "joined_token": joined_token,
    "split_token": split_token,
    "licence_number": licence_number,
}
