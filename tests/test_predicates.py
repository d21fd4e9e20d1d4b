"""The false-positive filters and validators are small pure functions: test them directly."""

from __future__ import annotations

import math
import re
from collections import Counter
from itertools import pairwise

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgate.scanning.predicates import (
    FILTERS,
    VALIDATORS,
    card_number,
    cn_id_context,
    cn_resident_id_invalid,
    cn_resident_id_shape,
    cn_resident_id_valid,
    concatenated_secret,
    email_personal,
    is_benign_key,
    is_data_uri,
    is_env_reference,
    is_hash_in_context,
    is_indirect_reference,
    is_integrity_hash,
    is_non_personal_email,
    is_not_phone,
    is_obvious_placeholder,
    is_placeholder,
    is_regex_text,
    is_sequential,
    is_test_card,
    is_uuid,
    is_word_like,
    jwt_valid,
    luhn_valid,
    mixed_case,
    phone_context,
    phone_digits,
    secret_like,
    shannon_entropy,
)

# A JWT built for this test: header {"alg":"HS256","typ":"JWT"}, a tiny payload.
JWT_HEADER = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9"
JWT_PAYLOAD = "eyJzdWIiOiJ0ZXN0In0"


@pytest.mark.parametrize(
    "value",
    [
        "YOUR_API_KEY",
        "your-api-key",
        "<token>",
        "<SUMOLOGIC",
        "${SECRET}",
        "${{ secrets.DEPLOY_TOKEN }}",
        "{{ api_key }}",
        "{SumoAccessKey}",
        "changeme",
        "change-me-in-your-local-env",
        "xxxxxxxxxxxxxxxx",
        "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxx",
        "sk-...",
        "sk-proj-****7f2Q",
        "[REDACTED]",
        "AKIAIOSFODNN7EXAMPLE",
        "password",
        "test",
        "QQQQQQQQQQQQQQQQQQQQ",
        "sha256~XXXXXXXXXX_PUT_YOUR_TOKEN_HERE",
    ],
)
def test_placeholders(value: str) -> None:
    assert is_placeholder(value)


@pytest.mark.parametrize(
    "value", ["Zq8vN3xR7tLw2PbK", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", "lM4eg0By^4oz6*"]
)
def test_real_looking_values_are_not_placeholders(value: str) -> None:
    assert not is_placeholder(value)


def test_obvious_placeholder_keeps_only_templates_and_masks() -> None:
    for value in ("YOUR_API_KEY", "<token>", "${KEY}", "xxxxxxxxxxxx", "AKIAIOSFODNN7EXAMPLE"):
        assert is_obvious_placeholder(value)
    assert is_obvious_placeholder("Q" * 58)
    # Weak words and hand-typed runs inside a full vendor shape are not enough.
    for value in ("abc12fake-456def789ghij-klmnopqrstuvwx", "Zq8vN3xR7tLw2PbK_dummy1"):
        assert not is_obvious_placeholder(value)
        assert is_placeholder(value) or is_sequential(value)


def test_uuid() -> None:
    assert is_uuid("0496aae5-9b94-4d9f-a991-94a35b1a7edc")
    assert not is_uuid("0496aae59b944d9fa99194a35b1a7edc")


def test_hashes_and_integrity() -> None:
    sha = "a84bba07931db925306a0799dc6ebd718b8c764d"
    assert is_hash_in_context(sha, f"commit {sha}")
    assert is_integrity_hash(
        "mKv7RyuAzXvwmq+0XRK8Hq==", '"integrity": "sha512-mKv7RyuAzXvwmq+0XRK8Hq=="'
    )
    assert is_integrity_hash(
        "aQUYkXzVsufM+DwF1aE+0xfcU=", "go v0.26.0/go.mod h1:aQUYkXzVsufM+DwF1aE+0xfcU="
    )
    assert not is_integrity_hash("aQUYkXzVsufM", "token=aQUYkXzVsufM")


def test_sequential() -> None:
    for value in ("abcdefgh", "12345678", "aaaaaaaa", "12312312312312312312", "klmnopqrstuvwx"):
        assert is_sequential(value), value
    assert not is_sequential("Zq8vN3xR7tLw2PbK")


def test_data_uri() -> None:
    assert is_data_uri("iVBORw0KGgo", '<img src="data:image/png;base64,iVBORw0KGgo">')
    assert not is_data_uri("iVBORw0KGgo", "token=iVBORw0KGgo")


@pytest.mark.parametrize(
    ("value", "context"),
    [
        ("$API_KEY", "key=$API_KEY"),
        ("${TOKEN}", "t=${TOKEN}"),
        ("%SECRET%", "set s=%SECRET%"),
        ("$(cat", "X=$(cat /run/secrets/x)"),
        ('os.environ["X"]', 'k = os.environ["X"]'),
        ("process.env.TOKEN", "const t = process.env.TOKEN"),
    ],
)
def test_env_references(value: str, context: str) -> None:
    assert is_env_reference(value, context)


def test_regex_text() -> None:
    assert is_regex_text("AKIA[0-9A-Z]{16}")
    assert is_regex_text(r"gh[pousr]_\w{36}")
    assert not is_regex_text("Zq8vN3xR7tLw2PbK")


def test_indirect_reference_and_word_like() -> None:
    assert is_indirect_reference('get_secret("db")')
    assert is_indirect_reference("settings.SECRET_KEY")
    assert is_indirect_reference("/run/secrets/db")
    assert is_indirect_reference("secrets/prod.pem")
    assert not is_indirect_reference("s.ZC9Ecf4M5g9o34Q6RkzGsj0z")
    assert is_word_like("APIOrganizationExist")
    assert is_word_like("jjwt-jackson-0.11.2")
    assert not is_word_like("Zq8vN3xR7tLw2PbK")


def test_benign_key() -> None:
    assert is_benign_key("Mj2qykJO5rELyHgez", "csrf-token=Mj2qykJO5rELyHgez")
    assert is_benign_key("CAESIP2jTxc9", '"next_page_token": "CAESIP2jTxc9"')
    assert not is_benign_key("Zq8vN3xR7tLw2PbK", "API_TOKEN=Zq8vN3xR7tLw2PbK")


def test_cards() -> None:
    assert luhn_valid("4539375933878231")
    assert not luhn_valid("4539375933878232")
    assert card_number("4716 2003 8941 0336")
    assert not card_number("1234567812345670")  # issuer prefix 1
    assert not card_number("4716 20038 9410336")  # no card grouping
    assert is_test_card("4242 4242 4242 4242", "Stripe test mode: use 4242 4242 4242 4242")
    assert not is_test_card("4242 4242 4242 4242", "my card is 4242 4242 4242 4242")
    assert not is_test_card("4539375933878231", "test card 4539375933878231")


def test_cn_resident_id() -> None:
    assert cn_resident_id_valid("110105199308170422")
    assert not cn_resident_id_valid("110105199308170423")
    assert cn_resident_id_shape("110105199308170423")
    assert cn_resident_id_invalid("110105199308170423")
    assert not cn_resident_id_invalid("110105199308170422")
    assert not cn_resident_id_shape("110105199313170422")  # month 13
    assert cn_id_context("x", "身份证号 x")
    assert cn_id_context("x", "resident_id=x")
    assert not cn_id_context("x", "trace x took 12ms")


def test_emails() -> None:
    assert is_non_personal_email("support@example.com")
    assert is_non_personal_email("noreply@example.com")
    assert is_non_personal_email("product-feedback@vendor.example")
    assert is_non_personal_email("user@example.com")
    assert is_non_personal_email("gogo@e.gogoair.example")
    assert is_non_personal_email(
        "jane.roe@example.org", "Signed-off-by: Jane Roe <jane.roe@example.org>"
    )
    assert not is_non_personal_email(
        "laura.benson@example.org", "From: Laura <laura.benson@example.org>"
    )
    assert email_personal("laura.benson@example.org")
    assert email_personal("liuyutong88@example.com")
    assert email_personal("ab@example.com", "邮箱 ab@example.com")
    assert not email_personal("ab@example.com", "ab@example.com")
    assert email_personal("ab@QQ.com") and email_personal("ab@mail.yahoo.co.uk")
    assert not email_personal("ab@gmail.example.com")
    assert email_personal("ab@example.com", "Customer: ab@example.com")
    assert email_personal("ab@example.com", "the user's address ab@example.com")
    assert not email_personal("ab@example.com", "customer_id ab@example.com")  # not a word
    assert is_non_personal_email("bot@x.example", "Co-Authored-By: bot <bot@x.example>")


def test_phones() -> None:
    assert phone_context("617-555-0191", "reach me at 617-555-0191")
    assert not phone_context("617-555-0191", "apples 617-555-0191")
    far = " and then some more words about the week" * 3
    # a phone word covers its whole context (a paragraph); a weak one only nearby
    assert phone_context("617-555-0191", f"Contacts:{far} Ann 617-555-0191")
    assert phone_context("617-555-0191", f"number 617-555-0191{far}")
    assert not phone_context("617-555-0191", f"number{far} 617-555-0191")
    assert phone_context("617-555-0191", "ann.lee@example.org | 617-555-0191")
    assert not phone_context("617-555-0191", f"ann.lee@example.org{far} | 617-555-0191")
    assert not is_not_phone("617-555-0191", "cell 617-555-0191.")  # a full stop
    assert is_not_phone("617-555-0191", "x 617-555-0191.5")  # a decimal
    assert is_not_phone("617-555-0191", "x 617-555-0191:80")
    assert is_not_phone("13812345678", "订单号 13812345678")
    assert is_not_phone("13812345678", "order #13812345678")
    assert not is_not_phone("13812345678", "手机 13812345678")
    assert phone_digits("+44 20 7946 0958")
    assert not phone_digits("+12")


def test_secret_like_and_jwt() -> None:
    assert secret_like("OZgjON!ytr2FhhKt")
    assert secret_like("928ac4d8b505ff3a5c241f7e19d98e65")
    assert not secret_like("required")
    assert not secret_like("short1")
    assert not secret_like("has space 123")
    assert jwt_valid(f"{JWT_HEADER}.{JWT_PAYLOAD}.Zq8vN3xR7tLw2PbKe5Ty9Uq1")
    assert not jwt_valid(f"{JWT_HEADER}.{JWT_PAYLOAD}.aaaaaaaaaaaaaaaaaaaa")
    assert not jwt_valid("eyJhbGciOiJub25lIn0.eyJzdWIiOiJ0ZXN0In0.Zq8vN3xR7tLw2PbKe5Ty9Uq1")
    assert not jwt_valid("eyJub3QiOiJqd3QifQ.eyJzdWIiOiJ0ZXN0In0.Zq8vN3xR7tLw2PbKe5Ty9Uq1")


def test_concatenated_secret() -> None:
    assert concatenated_secret('_A = "sk_li"\n_B = "ve_Zq8vN3xR7tLw"\n_C = "2PbKe5Ty9Uq1"\n')
    assert not concatenated_secret('a = "hello"\nb = "world"\n')


def test_entropy() -> None:
    assert shannon_entropy("") == 0.0
    assert shannon_entropy("aaaa") == 0.0
    assert shannon_entropy("ab") == 1.0


@settings(max_examples=200, deadline=None)
@given(value=st.text(alphabet="ab01xyZ+/", max_size=1500))
def test_entropy_matches_its_definition(value: str) -> None:
    n = len(value)
    expected = -sum(c / n * math.log2(c / n) for c in Counter(value).values()) if n else 0.0
    assert shannon_entropy(value) == pytest.approx(expected, abs=1e-9)


def _sequential_spec(value: str) -> bool:
    """`is_sequential` written plainly, as the definition its fast version must keep."""
    if len(value) < 6:
        return False
    if len(set(value)) <= 2 or (len(value) >= 16 and len(set(value)) < 8):
        return True
    steps = {ord(b) - ord(a) for a, b in pairwise(value)}
    if len(steps) == 1 and steps <= {1, -1, 0}:
        return True
    if re.search(
        r"(?i)abcdefghij|bcdefghijk|cdefghijkl|defghijklm|efghijklmn|fghijklmno|"
        r"ghijklmnop|hijklmnopq|ijklmnopqr|jklmnopqrs|klmnopqrst|lmnopqrstu|mnopqrstuv|"
        r"nopqrstuvw|opqrstuvwx|pqrstuvwxy|qrstuvwxyz|0123456789|1234567890",
        value,
    ):
        return True
    repeated = max((len(m.group(0)) for m in re.finditer(r"(.{1,4})\1{4,}", value)), default=0)
    return repeated >= 10 and repeated * 10 >= len(value) * 4


@settings(max_examples=300, deadline=None)
@given(
    value=st.lists(
        st.sampled_from(["a", "B", "7", "x", "abc", "123", "Zq8v", "K", "ab", "9", "-"]),
        max_size=40,
    ).map("".join)
)
def test_sequential_matches_its_definition(value: str) -> None:
    assert is_sequential(value) == _sequential_spec(value)


def test_mixed_case() -> None:
    assert mixed_case("wJalrXUtnFEMI7K7MDENG")
    assert not mixed_case("a84bba07931db925306a0799dc6ebd718b8c764d")
    assert not mixed_case("ABCDEFGHIJ1234567890")


@settings(max_examples=200, deadline=None)
@given(value=st.text(max_size=300), context=st.text(max_size=600))
def test_predicates_never_raise(value: str, context: str) -> None:
    for predicate in (*FILTERS.values(), *VALIDATORS.values()):
        assert predicate(value, context + value) in (True, False)
