r"""The `identifiers` detector: personal identifiers checked with the field's libraries.

Rules (`rules/identifiers.toml`) are data; this module only knows three kinds:

- `kind = "checksum"` (the default): a candidate `regex` whose `value_group` must
  pass any of the `params.check` validators: a `python-stdnum` module by its
  path (`"se.personnummer"`, `"iban"`, `"in_.aadhaar"`), or one of the few
  `_BUILTIN_CHECKS` for identifiers stdnum lacks (HKID, Taiwan ID). With
  `params.label = "required"` (weak checksums, short numbers) one of the rule's
  `keywords` must stand before the value: within `params.near` characters, or
  anywhere in its paragraph with `params.context = "paragraph"` (a CSV header
  labels every row). Otherwise the keywords are not a prefilter: the rule runs
  wherever the chunk holds `params.digits` digits.
- `kind = "phone"`: candidates from `regex` checked with `phonenumbers`
  (libphonenumber). A number written internationally (`+44 …`, `0049 …`) must be
  valid for its country; a national one (`(08) 0681 0568`) must be said to be a
  phone (a `keywords` word in its paragraph, a `params.near_labels` word or an
  e-mail address just before it) and be valid in some region, tried in the order
  the script of the text hints. Toll-free, premium and shared-cost numbers are
  businesses, and NANP 555-0100..0199 is reserved for fiction: not personal data.
- `kind = "email"`: addresses with an internationalised domain or local part
  (IDN, EAI) that the ASCII e-mail rule cannot see; the domain must encode to IDNA.
- `kind = "record"`: a record names the ID's country (`"country": "SE"`, one of the
  rule's `keywords` then an ISO code) and holds a number under a generic key (a
  `params.near_labels` word, then `regex`): the number must pass that country's
  `params.countries` checks, or the record names the document (`params.documents`:
  `"doc_type": "passport"`). CSV / TSV tables with a country column and an ID
  column (`params.columns`) are read row by row.

A labelled rule's label may also be the header cell over a table cell (`name,ssn`).

Any kind may set `params.shape`: a regex every match of `regex` contains, found
fast (start it with a digit); a chunk without it is not scanned with `regex`.

Every kind honours the rule's `validators` and `filters` (`predicates.py`) and
drops a value whose paragraph says the data is fictional or an example.

Cost: a chunk without a digit (and, for e-mail, without a non-ASCII `@` address)
costs one `str.isascii` and one regex search; keywords are found with one
Aho-Corasick pass; phonenumbers runs only on phone-shaped candidates with a label,
a `+` or a `00` in front.
"""

from __future__ import annotations

import importlib
import itertools
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

import phonenumbers
from ahocorasick_rs import AhoCorasick, MatchKind

from memgate.domain import Chunk, ChunkKind
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.predicates import FILTERS, VALIDATORS, Predicate, email_personal
from memgate.scanning.rules import Rule

__all__ = ["IdentifierAnalyzer", "is_fictional_context"]

MAX_HITS_PER_RULE = 32
MAX_CANDIDATES = 256
"""Per rule and chunk: candidates past this are not checked (bounded time)."""
CONTEXT_CHARS = 80
PARAGRAPH_CHARS = 600
DEFAULT_NEAR = 48
DEFAULT_AFTER = 40
"""A required label may also follow the value this closely ("<v> is her DNI")."""
PHONE_NEAR = 40
"""How close a weak phone word or an e-mail address must be before a number."""

Check = Callable[[str], bool]

_KINDS = frozenset({"checksum", "phone", "email", "record"})
_PARAMS = frozenset(
    {
        "kind", "check", "label", "near", "context", "digits", "near_labels", "tight", "shape",
        "countries", "documents", "columns", "own_labels", "person_labels", "after",
        "label_checks", "qualifiers",
    }
)  # fmt: skip
_TIGHT_GAP = re.compile(
    r"""(?ix)[ \t:：=#"'.,|()（）\[\]{}-]{0,6}
    (?:(?:is|was|no\.?|nr\.?|num(?:ber)?|号码?|號碼?|是|为|為)[ \t:：=#"'.-]{0,3})?"""
)
"""With `params.tight`: all that may stand between a label and its value."""
_AFTER_GAP = re.compile(
    r"""(?ix)[ \t"'”」]{0,2}
    (?:[(（]|[-–—=][ \t]*(?:that[’']?s|it[’']?s)?|,?[ \t]*(?:is|was|as|are)\b
       |[;；,，][ \t]*(?:it[ \t]+is|it[’']?s|that[’']?s|这是|這是|是)|就是|是|为|為)
    [ \t]*(?:(?:the|her|his|my|their|our|your|its|a|an|mine)[ \t]+)?
    (?:[^\s.;:,。；：，!?！？()（）\d]{1,20}[ \t]+){0,3}[^\s.;:,。；：，!?！？()（）\d]{0,20}"""
)
"""With `params.after`: what may stand between a value and a label after it ("<v> is
her DNI", "<v>（the client's SIN", "<v> 是他的身份证号"): a copula or a bracket, a
determiner and a few words ending in the label."""
_MASK_CHARS = frozenset("*•●·#xX…")
_RUN = re.compile(r"\d(?:[ .\-/()]{0,2}\d){2,}")
"""A digit run of 3 or more; starting with a digit class lets the engine skip in C."""
_WORD_CHAR = re.compile(r"\w")


# ---------------------------------------------------------------- checks


def _stdnum_check(path: str) -> Check:
    module: Any = importlib.import_module(f"stdnum.{path}")
    is_valid: Callable[[str], bool] = module.is_valid

    def check(value: str) -> bool:
        try:
            return bool(is_valid(value))
        except Exception:  # stdnum raises on odd input; a check never does
            return False

    return check


_HKID_LETTER = {chr(c): c - 55 for c in range(ord("A"), ord("Z") + 1)}  # A=10 .. Z=35


def hkid_valid(value: str) -> bool:
    """Hong Kong identity card: one or two letters, six digits, a check digit or A
    (mod 11; shown in brackets: `A123456(3)`). stdnum has no module for it."""
    compact = re.sub(r"[\s()\[\]-]", "", value.upper())
    m = re.fullmatch(r"([A-Z]{1,2})(\d{6})([0-9A])", compact)
    if m is None:
        return False
    letters, digits, check = m.groups()
    values = ([36] if len(letters) == 1 else []) + [_HKID_LETTER[c] for c in letters]
    values += [int(d) for d in digits]
    total = sum(v * w for v, w in zip(values, range(9, 1, -1), strict=True))
    expected = (11 - total % 11) % 11
    return check == ("A" if expected == 10 else str(expected))


_TW_LETTER = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))


def twid_valid(value: str) -> bool:
    """Taiwan national identification number: a letter, 1/2 (or 8/9 for residents),
    eight digits, weighted mod 10. stdnum has only `tw.ubn` (companies)."""
    compact = value.strip().upper()
    if not re.fullmatch(r"[A-Z][1289]\d{8}", compact):
        return False
    code = _TW_LETTER[compact[0]]
    total = code // 10 + (code % 10) * 9
    total += sum(int(d) * w for d, w in zip(compact[1:9], range(8, 0, -1), strict=True))
    total += int(compact[9])
    return total % 10 == 0


_NINO = re.compile(r"[A-CEGHJ-PR-TW-Z][A-CEGHJ-NPR-TW-Z]\d{6}[A-D]")
_NINO_UNUSED = frozenset({"BG", "GB", "KN", "NK", "NT", "TN", "ZZ"})


def gb_nino_valid(value: str) -> bool:
    """UK National Insurance number: the allocation rules (no D, F, I, Q, U, V first;
    no O second; BG, GB, KN, NK, NT, TN, ZZ unused). There is no check digit, and
    stdnum has no module for it, so rules need a label next to it."""
    compact = re.sub(r"\s", "", value.upper())
    return bool(_NINO.fullmatch(compact)) and compact[:2] not in _NINO_UNUSED


_IBAN_SHAPE = re.compile(r"[A-Z]{2}\d{2}[A-Z0-9]{10,30}")


def iban_checksum_only(value: str) -> bool:
    """The ISO 7064 mod 97-10 check of an IBAN holds but its country format does not
    (a BBAN one digit short, as generated test data and typos are): still someone's
    account next to an IBAN label. A fully valid IBAN is `iban`'s, not counted twice."""
    compact = "".join(value.split()).upper()
    if not _IBAN_SHAPE.fullmatch(compact) or _stdnum_iban(compact):
        return False
    return _mod_97_10(compact[4:] + compact[:4])


_stdnum_iban = _stdnum_check("iban")
_mod_97_10 = _stdnum_check("iso7064.mod_97_10")


_BUILTIN_CHECKS: dict[str, Check] = {
    "iban_checksum": iban_checksum_only,
    "gb_nino": gb_nino_valid,
    "hkid": hkid_valid,
    "twid": twid_valid,
}


def _check(name: str) -> Check:
    builtin = _BUILTIN_CHECKS.get(name)
    if builtin is not None:
        return builtin
    try:
        return _stdnum_check(name)
    except ImportError:
        raise ValueError(f"unknown identifier check {name!r} (no stdnum.{name})") from None


# ---------------------------------------------------------------- context predicates

_FICTIONAL = re.compile(
    r"""(?ix)
    \be\.g\.|\b(?:for\ example|example|sample|fictional|fictitious|made[- ]up|placeholder|
       dummy|fake|mock|synthetic|test\ (?:data|number|value|id)s?|demo|documentation\ only)\b
    | 示例|样例|范例|虚构|假数据|测试数据|演示|举例|例如
    """
)
_EXAMPLE_DOMAIN = re.compile(
    r"(?i)[\w.+-]*@?\bexample\.(?:com|org|net|edu|[a-z]{2})\b"
    r"|[\w.+%-]*@(?:[\w-]+\.)*example(?![\w.-])"
)
"""Addresses at `example.com` and at the reserved `.example` TLD (`@mail.example`,
`josé@correo.example`): a record's placeholder domain, not the text saying so."""


_FICTIONAL_WORDS = AhoCorasick(
    [
        "e.g.", "example", "sample", "fictional", "fictitious", "made-up", "made up",
        "placeholder", "dummy", "fake", "mock", "synthetic", "test data", "test number",
        "test value", "test id", "demo", "documentation only",
        "示例", "样例", "范例", "虚构", "假数据", "测试数据", "演示", "举例", "例如",
    ],
    matchkind=MatchKind.Standard,
)  # fmt: skip
"""A literal every `_FICTIONAL` match contains (lower-cased). `_FICTIONAL` is an
alternation behind `\b`, which the regex engine tries at every position (~40 µs
on a paragraph); this automaton rules most paragraphs out in one pass in C."""
_CASE_FOLDS = re.compile("[\u0130\u0131\u017f\u212a]")
"""The only characters that IGNORECASE matches to an ASCII letter but whose
`lower()` is not that letter (İ ı -> i, ſ -> s, K -> k): text holding one skips
the prefilter, so it never hides a match."""


_NAME_BEFORE = re.compile(r"(?:[^\W\d_](?:[\w'’\\-]*[^\W\d_])?|[^\W\d_]\.)[ \t\u00a0]+\Z")
"""The word before a word, with only blanks between them: `Hannah ` in `Hannah Sample`
(`Bj\\u00f6rn ` as JSON escapes it is one word)."""


def _in_name(text: str, start: int, end: int) -> bool:
    """The match is a Capitalised word inside a Capitalised Name sequence: the
    surname of `Jordan Example`, `Lars Placeholder` (a person's name, not the text
    saying its data is an example). A lower-case word (`sample data`), an upper-case
    one (`EXAMPLE ONLY`), a phrase (`for example`, `e.g.`) or a capitalised word
    opening a sentence or a heading (`Example: ...`) is a word about the data."""
    word = text[start:end]
    if not (word[:1].isupper() and word[1:].islower() and word.isalpha()):
        return False
    before = _NAME_BEFORE.search(text, max(0, start - 40), start)
    return before is not None and before.group()[0].isupper()


def is_fictional_context(context: str) -> bool:
    """The text says its data is an example, a sample or made up. E-mail and web
    addresses at `example.com` or `*.example` (RFC 2606 names used in any
    real-looking record) and people named `Example` or `Sample` do not count as
    saying so."""
    if (context.isascii() or not _CASE_FOLDS.search(context)) and not (
        _FICTIONAL_WORDS.find_matches_as_indexes(_utf_safe(context.lower()))
    ):
        return False
    text = _EXAMPLE_DOMAIN.sub(" ", context)
    return any(not _in_name(text, m.start(), m.end()) for m in _FICTIONAL.finditer(text))


def _utf_safe(text: str) -> str:
    """The automaton takes only encodable text: a lone surrogate becomes U+FFFD
    (it cannot be part of a literal, so no match is lost or made)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return text.encode("utf-8", "replace").decode("utf-8")
    return text


_MADE_UP = re.compile(r"012345|123456|234567|345678|456789|987654|876543|(\d)\1{5}")


_RUN_SEPARATORS = str.maketrans("", "", " .-/()")


def _longest_run(text: str) -> int:
    """Digits in the longest run of digits with at most two separators between them
    (a run holds only digits and separators: dropping these leaves its digits).
    A run no longer than the best count so far cannot beat it: most runs are
    skipped on their length, without building their digits."""
    best = 0
    for run in _RUN.findall(text):
        if len(run) > best:
            best = max(best, len(run.translate(_RUN_SEPARATORS)))
    return best


def _checked(checks: Sequence[Check], value: str) -> bool:
    """Any check accepts the value (as written, or without its spaces: not every
    stdnum module drops them), and it is not one digit repeated (`111.111.111-11`)."""
    digits = {c for c in value if c.isdigit()}
    if len(digits) < 3:
        return False
    if not checks:  # a labelled identifier without a check digit: not a made-up one
        run = "".join(c for c in value if c.isdigit())
        return not (run.startswith("000") or _MADE_UP.search(run))
    compact = "".join(value.split())
    return any(check(value) or (compact != value and check(compact)) for check in checks)


def _paragraph(text: str, start: int, end: int) -> str:
    low = max(0, start - PARAGRAPH_CHARS)
    before = text.rfind("\n\n", low, start)
    after = text.find("\n\n", end, end + PARAGRAPH_CHARS)
    return text[before + 2 if before >= 0 else low : after if after >= 0 else end + PARAGRAPH_CHARS]


def _paragraph_start(text: str, start: int) -> int:
    low = max(0, start - PARAGRAPH_CHARS)
    before = text.rfind("\n\n", low, start)
    return before + 2 if before >= 0 else low


# ---------------------------------------------------------------- phones

_SKIP_TYPES = frozenset(
    {
        phonenumbers.PhoneNumberType.TOLL_FREE,
        phonenumbers.PhoneNumberType.PREMIUM_RATE,
        phonenumbers.PhoneNumberType.SHARED_COST,
        phonenumbers.PhoneNumberType.UAN,
    }
)
_DEFAULT_REGIONS = (
    "US", "GB", "CN", "TW", "HK", "JP", "KR", "IN", "DE", "FR", "ES", "IT", "PT", "NL",
    "BE", "CH", "AT", "SE", "NO", "DK", "FI", "PL", "CZ", "TR", "RU", "UA", "AU", "NZ",
    "CA", "BR", "MX", "AR", "CL", "CO", "ZA", "NG", "EG", "SA", "AE", "IL", "TH", "VN",
    "ID", "MY", "SG", "PH", "IE", "GR", "RO", "HU",
)  # fmt: skip
_SCRIPT_REGIONS = (
    (re.compile("[\u3040-\u30ff]"), ("JP",)),
    (re.compile("[\uac00-\ud7af]"), ("KR",)),
    (re.compile("[\u0e00-\u0e7f]"), ("TH",)),
    (re.compile("[\u4e00-\u9fff]"), ("CN", "TW", "HK", "SG")),
    (re.compile("[\u0400-\u04ff]"), ("RU", "UA")),
    (re.compile("[\u0600-\u06ff]"), ("SA", "AE", "EG")),
    (re.compile("[\u0900-\u097f]"), ("IN",)),
    (re.compile("[åäöÅÄÖ]"), ("SE", "FI")),
    (re.compile("[ğışĞİŞ]"), ("TR",)),
    (re.compile("[ąęłńśźżĄĘŁŃŚŹŻ]"), ("PL",)),
)
_CN_MOBILE = re.compile(r"(?:86)?1[3-9]\d{9}")
"""Left to MG-PII-002, which finds Chinese mobiles without a label."""
_FICTIONAL_NUMBER = re.compile(r"^(?:1?\d{3})?55501\d\d$")
"""NANP 555-0100..0199, with or without area code: reserved for fiction and docs."""
_DOC_CONTEXT = re.compile(
    r"(?i)\b(?:reserved|range|tests?|testing|docs?|documentation|readme|fixtures?|format|"
    r"such as|demo|tutorial|specification)\b|文档|测试|示例"
)
_EXTENSION = re.compile(r"(?i)\s*(?:x|ext\.?|#)\s*\d{1,6}$")
_DATE_LIKE = re.compile(
    r"(?:19|20)\d\d[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])"
    r"|(?:0?[1-9]|[12]\d|3[01])[-/.](?:0?[1-9]|1[0-2])[-/.](?:19|20)\d\d"
    r"|(?:19|20)\d\d(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[ T]?\d{4,6})?"
)
_UNICODE_NAME_LOCAL = re.compile(
    r"[^\W\d_]{2,}[._-][^\W\d_]{2,}(?:[._-]?\w{1,10})?|[^\W\d_\x00-\x7f]{2,8}"
)
"""A person's name as an address: `søren.åberg`, `jürgen.müller`, `王芳`."""
_EMAIL_BEFORE = re.compile(r"[\w.+-]@[\w-]+\.\w")
_EXAMPLE_TLD = re.compile(r"(?i)@(?:[\w-]+\.)*(?!example\.)[\w-]+\.example\Z")
"""An address under the reserved `.example` TLD with a name of its own (`@correo.example`)."""


def _regions(text: str) -> tuple[tuple[str, ...], frozenset[str]]:
    """Regions to try a national number in, those the script of the text hints first."""
    hinted: list[str] = []
    if not text.isascii():
        for pattern, regions in _SCRIPT_REGIONS:
            if pattern.search(text):
                hinted.extend(regions)
    return tuple(dict.fromkeys([*hinted, *_DEFAULT_REGIONS])), frozenset(hinted)


def _person_line(number: phonenumbers.PhoneNumber) -> bool:
    return phonenumbers.number_type(number) not in _SKIP_TYPES


def _any_type(number: phonenumbers.PhoneNumber) -> bool:
    return True


def _phone_number(
    value: str,
    regions: tuple[tuple[str, ...], frozenset[str]],
    *,
    possible: bool,
    own: bool = False,
) -> phonenumbers.PhoneNumber | None:
    """A person's number: valid (or, with `possible`, of a possible length) in its
    own country (`+`, `00`) or in the first of `regions` that accepts it as a line
    of a person (a toll-free line in a hinted region is a business: None). With
    `own` (the writer says it is theirs: "my number is"), a line of any type."""
    personal = _any_type if own else _person_line
    number = _EXTENSION.sub("", value).strip()
    digits = "".join(c for c in number if c.isdigit())
    order, hinted = regions
    # NANP 555-01xx is reserved for fiction, so libphonenumber calls it invalid; but
    # writers put it where a person's line goes ("call me at (503) 555-0164"). The
    # caller already dropped it in docs and tests; elsewhere a possible one counts.
    possible = possible or _FICTIONAL_NUMBER.search(digits) is not None
    try:
        if number.startswith("+") or (number.startswith("00") and len(digits) >= 10):
            intl = "+" + (digits[2:] if number.startswith("00") else digits)
            parsed = phonenumbers.parse(intl, None)
            ok = phonenumbers.is_valid_number(parsed) or (
                possible and phonenumbers.is_possible_number(parsed)
            )
            if ok:
                return parsed if personal(parsed) else None
            if not (possible and number.startswith("00")):
                return None
        fallback = None
        business = 0  # regions where it is a toll-free / premium / shared line
        for region in order:
            parsed = phonenumbers.parse(number, region)
            if phonenumbers.is_valid_number(parsed):
                if personal(parsed):
                    return parsed
                if region in hinted and not own:
                    return None
                business += 1
            elif possible and fallback is None and phonenumbers.is_possible_number(parsed):
                fallback = parsed
        # A number some country calls a business line is not made a person's by
        # another country that only finds its length possible (0800 123 4567).
        if fallback is None or (business and not own):
            return None  # a business line somewhere, a person's length elsewhere
        return fallback if personal(fallback) else None
    except phonenumbers.NumberParseException:
        return None


# ---------------------------------------------------------------- compiled rules


@dataclass(frozen=True, slots=True)
class _Spec:
    rule: Rule
    kind: str
    pattern: re.Pattern[str]
    checks: tuple[Check, ...]
    label_required: bool
    near: int
    paragraph: bool
    digits: int
    keywords: tuple[str, ...]
    near_labels: tuple[str, ...]
    keyword_set: frozenset[str]
    near_set: frozenset[str]
    """`keywords` and `near_labels` as sets: what `_Labels` is asked about."""
    own_set: frozenset[str]
    """`params.own_labels` (phones): the writer's own line ("my number is"), which
    counts whatever its type (a UK 03 or a premium line given as one's own)."""
    person_set: frozenset[str]
    """`params.person_labels` (phones): a person named just before (`用户 鄭志賢（…）`,
    `customer: …`): a national number written with its trunk 0, a `+` or a bracket
    counts as near a label."""
    tight: bool
    shape: re.Pattern[str] | None
    """`params.shape`: a regex every match of `regex` contains (with its flags),
    that the engine finds fast (it starts with a digit: skipped to in C). A chunk
    without it cannot match, so `regex`, whose leading lookbehind or case-blind
    letters make the engine try every position (~50 µs per 2 KB), is not run."""
    validators: tuple[Predicate, ...]
    filters: tuple[Predicate, ...]
    kinds: frozenset[ChunkKind]
    countries: dict[str, tuple[Check, ...]] = field(default_factory=dict)
    """`kind = "record"`: per ISO country code, the checks of its personal numbers."""
    documents: frozenset[str] = frozenset()
    """`kind = "record"`: document types (`passport`) that make any ID-shaped number one."""
    columns: frozenset[str] = frozenset()
    """`kind = "record"`: CSV header cells naming an identity number (`id_number`)."""
    after: int = 0
    """`params.after`: a label up to this many characters after the value counts too."""
    qualifiers: re.Pattern[str] | None = None
    """`params.qualifiers`: words that make a generic label another thing's id
    ("order ID number", "ticket document no."): a label right after one does not count."""
    label_checks: tuple[tuple[frozenset[str], tuple[Check, ...]], ...] = ()
    """`params.label_checks` (label words -> checks): a value labelled by one of these
    words must pass that label's checks, not any of the rule's (a `CNP` is Romanian)."""


def _compile(rule: Rule) -> _Spec:
    params = rule.params
    unknown = set(params) - _PARAMS
    if unknown:
        raise ValueError(f"{rule.id}: unknown identifiers params {sorted(unknown)}")
    kind = str(params.get("kind", "checksum"))
    if kind not in _KINDS:
        raise ValueError(f"{rule.id}: params.kind must be one of {sorted(_KINDS)}")
    pattern = rule.compiled()
    if pattern is None:
        raise ValueError(f"{rule.id}: an identifiers rule needs `regex`")
    label = params.get("label", "optional")
    raw_checks = params.get("check", [])
    names = [raw_checks] if isinstance(raw_checks, str) else list(raw_checks)
    if kind == "checksum" and not names and label != "required":
        raise ValueError(f"{rule.id}: a rule without params.check needs label = 'required'")
    if label not in ("required", "optional"):
        raise ValueError(f"{rule.id}: params.label must be 'required' or 'optional'")
    if label == "required" and not rule.keywords:
        raise ValueError(f"{rule.id}: params.label = 'required' needs keywords")
    try:
        validators = tuple(VALIDATORS[name] for name in rule.validators)
        filters = tuple(FILTERS[name] for name in rule.filters)
    except KeyError as exc:
        raise ValueError(f"{rule.id}: unknown filter or validator {exc}") from None
    keywords = _words(rule.keywords)
    near_labels = _words(str(k) for k in params.get("near_labels", []))
    own_labels = _words(str(k) for k in params.get("own_labels", []))
    person_labels = _words(str(k) for k in params.get("person_labels", []))
    raw_countries = params.get("countries", {})
    if kind == "record" and not (isinstance(raw_countries, dict) and raw_countries):
        raise ValueError(f"{rule.id}: a record rule needs params.countries")
    countries = {
        str(code).upper(): tuple(_check(str(n)) for n in checks)
        for code, checks in dict(raw_countries).items()
    }
    return _Spec(
        rule=rule,
        kind=kind,
        pattern=pattern,
        checks=tuple(_check(n) for n in names),
        label_required=label == "required",
        near=int(params.get("near", DEFAULT_NEAR)),
        paragraph=params.get("context", "near") == "paragraph",
        digits=int(params.get("digits", 6)),
        keywords=keywords,
        near_labels=near_labels,
        keyword_set=frozenset(keywords),
        near_set=frozenset(near_labels),
        own_set=frozenset(own_labels),
        person_set=frozenset(person_labels),
        tight=params.get("tight", False) is True,
        shape=re.compile(str(params["shape"]), pattern.flags) if "shape" in params else None,
        validators=validators,
        filters=filters,
        kinds=frozenset(rule.chunks),
        countries=countries,
        documents=frozenset(_key(str(d)) for d in params.get("documents", [])),
        columns=frozenset(_key(str(c)) for c in params.get("columns", [])),
        after=int(params.get("after", DEFAULT_AFTER if label == "required" else 0)),
        label_checks=_label_checks(rule, params.get("label_checks", {})),
        qualifiers=_qualifiers(params.get("qualifiers", [])),
    )


def _qualifiers(words: object) -> re.Pattern[str] | None:
    if not words:
        return None
    alternatives = "|".join(re.escape(str(w)) for w in words)  # type: ignore[attr-defined]
    # the qualifier, then only the generic label's own words up to the label's end
    return re.compile(
        r"(?i)\b(?:" + alternatives + r")(?:[ \t_#-]+(?:id|identity|identification|document"
        r"|number|num|no|nr|card|code|national|personal))+[ \t.#]{0,2}\Z"
    )


def _label_checks(rule: Rule, raw: object) -> tuple[tuple[frozenset[str], tuple[Check, ...]], ...]:
    if not isinstance(raw, dict):
        raise ValueError(f"{rule.id}: params.label_checks must be a table")
    keywords = set(_words(rule.keywords))
    out = []
    for words, checks in raw.items():
        group = frozenset(_words(str(words).split("|")))
        if not group <= keywords:
            unknown = sorted(group - keywords)
            raise ValueError(f"{rule.id}: label_checks words {unknown} are not keywords")
        names = [checks] if isinstance(checks, str) else list(checks)
        out.append((group, tuple(_check(str(n)) for n in names)))
    return tuple(out)


def _key(name: str) -> str:
    """A field name as compared: `ID-Number`, `id_number`, `id number` are one."""
    low = name.strip().strip("\"'").lower()
    if low.isalpha():
        return low
    return " ".join(_KEY_SEPARATORS.split(low)).strip()


_KEY_SEPARATORS = re.compile(r"[\s_\-.]+")


def _header_names(header: str, keywords: frozenset[str]) -> bool:
    """A column header is a label when it is one of the words (`ssn`) or ends in one,
    whole words (`customer national id`, `belgian national number`): the last words of a
    header name what its cells hold. Only for rules with `params.qualifiers`, which
    also say which first words make it another thing's (`order id number`)."""
    if header in keywords:
        return True
    for n in range(1, min(4, header.count(" ") + 1) + 1):
        tail = " ".join(header.split(" ")[-n:])
        if tail != header and tail in keywords:
            return True
    return False


def _words(words: Iterable[str]) -> tuple[str, ...]:
    """Label words as they appear in scanned text: NFKC-normalized (the scanner
    normalizes text first: Thai SARA AM decomposes), lower-cased."""
    return tuple(dict.fromkeys(unicodedata.normalize("NFKC", w).lower() for w in words if w))


def _lower(text: str) -> str:
    """`text.lower()`, one character for one (`İ` lowers to two): label positions
    must index the text. `_` reads as a blank: a field name (`bank_account`,
    `"national_id":`) is the label its words make."""
    lower = text.lower()
    if len(lower) != len(text):
        lower = "".join(c if len(low := c.lower()) != 1 else low for c in text)
    # str.replace, not str.translate: a mapping table costs ~0.5 ms on 2 KB
    return lower.replace("_", " ") if "_" in lower else lower


@dataclass(slots=True)
class _Labels:
    """Where each label word ends in the chunk, by word. Rules ask about a set of
    words (`_Spec.keywords`, `near_labels`) once per candidate: the ends of a set
    are merged and sorted once per chunk, so a question is one bisection instead
    of a loop over every word of the set (40 words for phones)."""

    ends: dict[str, list[int]]
    merged: dict[frozenset[str], list[int]] = field(default_factory=dict)

    def before(self, words: frozenset[str], start: int, low: int) -> bool:
        """Some word ends in [low, start]."""
        return self.last(words, start, low) >= 0

    def last(self, words: frozenset[str], start: int, low: int) -> int:
        """Where the last word ending in [low, start] ends, or -1."""
        ends = self.merged.get(words)
        if ends is None:
            ends = sorted({e for w in words.intersection(self.ends) for e in self.ends[w]})
            self.merged[words] = ends
        i = bisect_right(ends, start) - 1
        return ends[i] if i >= 0 and ends[i] >= low else -1

    def any(self, words: frozenset[str]) -> bool:
        return not words.isdisjoint(self.ends)

    def between(self, words: frozenset[str], low: int, high: int) -> list[int]:
        """Where the words ending in [low, high) end, in order."""
        ends = self.merged.get(words)
        if ends is None:
            ends = sorted({e for w in words.intersection(self.ends) for e in self.ends[w]})
            self.merged[words] = ends
        return ends[bisect_left(ends, low) : bisect_left(ends, high)]


class IdentifierAnalyzer:
    """Runs the identifiers rules (see the module docstring) on one chunk."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._specs = tuple(_compile(r) for r in rules)
        words = list(
            dict.fromkeys(
                w
                for s in self._specs
                for w in (*s.keywords, *s.near_labels, *s.own_set, *s.person_set)
                if w
            )
        )
        self._words = tuple(words)
        # Per word: must the characters before / after it not be a letter? (An
        # ASCII word must stand alone: `sin` is not in `using`, `tc` not in `etc`.)
        # Worked out once here, not once per occurrence in every chunk.
        self._bounds = tuple(
            (w[0].isascii() and w[0].isalnum(), w[-1].isascii() and w[-1].isalnum()) for w in words
        )
        self._automaton = AhoCorasick(words, matchkind=MatchKind.Standard) if words else None
        self._min_digits = min((s.digits for s in self._specs if s.kind != "email"), default=0)
        # the specs of each chunk kind, in rule order (hits keep their order)
        self._by_kind = {
            kind: tuple(s for s in self._specs if kind in s.kinds) for kind in ChunkKind
        }
        # Most specs (the checksummed IDs, `record`) yield nothing unless one of
        # their label words is in the chunk: per kind, the positions of the other
        # specs, and per label word the positions of the gated specs it opens, so
        # a chunk walks the specs its labels open instead of all of them.
        self._open_by_kind: dict[ChunkKind, frozenset[int]] = {}
        self._gated_by_kind: dict[ChunkKind, dict[str, tuple[int, ...]]] = {}
        for kind, specs in self._by_kind.items():
            gated: dict[str, list[int]] = {}
            for n, s in enumerate(specs):
                if s.kind == "record" or (s.kind != "email" and s.label_required):
                    for word in s.keyword_set:
                        gated.setdefault(word, []).append(n)
            self._gated_by_kind[kind] = {w: tuple(ns) for w, ns in gated.items()}
            self._open_by_kind[kind] = frozenset(
                n
                for n, s in enumerate(specs)
                if not (s.kind == "record" or (s.kind != "email" and s.label_required))
            )
        self._has_email = any(s.kind == "email" for s in self._specs)

    def _labels(self, lower: str) -> _Labels:
        ends: dict[str, list[int]] = {}
        if self._automaton is None:
            return _Labels(ends)
        n = len(lower)
        words, bounds = self._words, self._bounds
        for index, start, end in self._automaton.find_matches_as_indexes(lower, overlapping=True):
            left, right = bounds[index]
            # Only an ASCII letter or digit joins a word: `波兰PESEL`, `是CPF` are labels.
            if left and start > 0 and lower[start - 1].isascii() and lower[start - 1].isalnum():
                continue
            if right and end < n and lower[end].isascii() and lower[end].isalpha():
                continue
            ends.setdefault(words[index], []).append(end)
        return _Labels(ends)

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterator[Hit]:
        text = chunk.text
        has_digits = any(d in text for d in "0123456789")  # ten searches in C
        wants_email = self._has_email and "@" in text and not text.isascii()
        if not has_digits and not wants_email:
            return
        digit_count = sum(map(text.count, "0123456789")) if has_digits else 0
        if digit_count < self._min_digits and not wants_email:
            return
        # A rule that needs no label runs only if some run of digits (separators
        # allowed between them) is as long as its `digits`: found once, lazily.
        longest = -1
        labels = self._labels(_lower(text))
        found = labels.ends
        specs = self._by_kind[chunk.kind]
        gated = self._gated_by_kind[chunk.kind]
        opened = self._open_by_kind[chunk.kind].union(*(gated[w] for w in found if w in gated))
        for n in sorted(opened):  # rule order: hits keep it
            spec = specs[n]
            if spec.kind == "email":
                if wants_email:
                    yield from self._emails(spec, text)
                continue
            if digit_count < spec.digits:
                continue
            if spec.kind == "record":
                if not spec.keyword_set.isdisjoint(found):
                    yield from self._records(spec, text, labels)
                continue
            if spec.label_required and spec.keyword_set.isdisjoint(found):
                continue  # a set test before the shape's search (only checksum kinds here)
            if spec.shape is not None and spec.shape.search(text) is None:
                continue  # no match of `regex` can hold no match of its shape
            if spec.kind == "phone":
                if (
                    not spec.keyword_set.isdisjoint(found)
                    or not spec.near_set.isdisjoint(found)
                    or not spec.own_set.isdisjoint(found)
                    or not spec.person_set.isdisjoint(found)
                    or "+" in text
                    or ("00" in text or "@" in text)
                ):
                    yield from self._phones(spec, text, labels)
                continue
            if not spec.label_required:
                if longest < 0:
                    longest = _longest_run(text)
                if longest < spec.digits:
                    continue
            yield from self._checksums(spec, text, labels)

    # -- kinds

    def _accept(
        self, spec: _Spec, value: str, text: str, start: int, end: int, probe: str | None = None
    ) -> bool:
        """`probe`: the value as the validators and filters see it (default: `value`)."""
        if (start > 0 and text[start - 1] in _MASK_CHARS) or (
            end < len(text) and text[end] in _MASK_CHARS
        ):
            return False  # part of a masked value: 171370********9944
        context = text[max(0, start - CONTEXT_CHARS) : end + CONTEXT_CHARS]
        seen = value if probe is None else probe
        if any(not v(seen, context) for v in spec.validators):
            return False
        if any(f(seen, context) for f in spec.filters):
            return False
        return not is_fictional_context(_paragraph(text, start, end))

    def _labelled(
        self, spec: _Spec, text: str, labels: _Labels, start: int, end: int | None = None
    ) -> bool:
        low = _paragraph_start(text, start) if spec.paragraph else max(0, start - spec.near)
        if not spec.tight and spec.qualifiers is None:
            if labels.before(spec.keyword_set, start, low):
                return True
        else:
            last = labels.last(spec.keyword_set, start, low)
            if (
                last >= 0
                and (not spec.tight or _TIGHT_GAP.fullmatch(text, last, start) is not None)
                and (
                    spec.qualifiers is None
                    or spec.qualifiers.search(text, max(0, last - 40), last) is None
                )
            ):
                return True
        if spec.after and end is not None and self._labelled_after(spec, text, labels, end):
            return True
        # A table's header labels every row of its column (`name,ssn` over 40 rows).
        if end is None or not labels.before(spec.keyword_set, start, _paragraph_start(text, start)):
            return False
        if _DECIMAL.fullmatch(text, start, end):
            return False  # a measurement column (`x,sin,cos` / `0.479425538`), not an ID
        header = _column_header(text, start, end)
        if header is None:
            return False
        key = _key(header)
        if spec.qualifiers is None:
            return key in spec.keyword_set
        if spec.qualifiers.search(key):
            return False  # `order_id_number`: another thing's number
        return _header_names(key, spec.keyword_set)

    @staticmethod
    def _labelled_after(spec: _Spec, text: str, labels: _Labels, end: int) -> bool:
        """A label just after the value, joined to it by a copula or a bracket."""
        for label_end in labels.between(spec.keyword_set, end + 1, end + spec.after + 1):
            if _AFTER_GAP.fullmatch(text, end, label_end) is not None and (
                spec.qualifiers is None
                or spec.qualifiers.search(text, max(end, label_end - 40), label_end) is None
            ):
                return True
        return False

    @staticmethod
    def _label_checks(
        spec: _Spec, labels: _Labels, start: int, end: int, low: int
    ) -> tuple[Check, ...]:
        """The checks of the label nearest the value (before it, else after it), when
        that label has its own (`params.label_checks`); else the rule's."""
        best, checks = -1, spec.checks
        for words, own in spec.label_checks:
            at = labels.last(words, start, low)
            if at > best:
                best, checks = at, own
        if best < 0 and spec.after:
            first = high = end + spec.after + 1
            for words, own in spec.label_checks:
                ends = labels.between(words, end + 1, high)
                if ends and ends[0] < first:
                    first, checks = ends[0], own
        return checks

    def _checksums(self, spec: _Spec, text: str, labels: _Labels) -> Iterator[Hit]:
        count = 0
        for m, vstart, vend in _candidates(spec, text):
            # The label test first: a bisection, where the check is a stdnum call.
            if spec.label_required and not self._labelled(spec, text, labels, vstart, vend):
                continue
            value = text[vstart:vend]
            checks = spec.checks
            if spec.label_checks:
                low = (
                    _paragraph_start(text, vstart) if spec.paragraph else max(0, vstart - spec.near)
                )
                checks = self._label_checks(spec, labels, vstart, vend, low)
            if not _checked(checks, value):
                continue
            if not self._accept(spec, value, text, vstart, vend):
                continue
            yield Hit(rule_id=spec.rule.id, start=m.start(), end=m.end(), value=(vstart, vend))
            count += 1
            if count >= MAX_HITS_PER_RULE:
                return

    def _phones(self, spec: _Spec, text: str, labels: _Labels) -> Iterator[Hit]:
        regions: tuple[tuple[str, ...], frozenset[str]] | None = None
        has_at = "@" in text  # `_EMAIL_BEFORE` needs one
        # Without any label word or `@` in the chunk, a national number can never
        # be said to be a phone: only `+` / `00` candidates are worth the checks
        # below (order numbers and ids otherwise cost ~8 µs each).
        labelled = (
            has_at
            or labels.any(spec.keyword_set)
            or labels.any(spec.near_set)
            or labels.any(spec.own_set)
            or labels.any(spec.person_set)
        )
        count = 0
        for m, vstart, vend in _candidates(spec, text):
            value = text[vstart:vend]
            core = _EXTENSION.sub("", value)
            if not labelled and not core.startswith(("+", "00")):
                continue
            digits = core if core.isdigit() else "".join(filter(str.isdigit, core))
            if not 7 <= len(digits) <= 15 or len(set(digits)) < 3:
                continue
            intl = core.startswith("+") or (core.startswith("00") and len(digits) >= 10)
            if _DATE_LIKE.fullmatch(core.strip()):
                continue
            if _FICTIONAL_NUMBER.search(digits) and _DOC_CONTEXT.search(
                _paragraph(text, vstart, vend)
            ):
                continue  # 555-01xx in docs and tests (next to a person, it is their line)
            if _CN_MOBILE.fullmatch(digits) and (not intl or digits.startswith(("86", "0086"))):
                continue
            paragraph = _paragraph_start(text, vstart)
            low = max(paragraph, vstart - PHONE_NEAR)
            own = labels.before(spec.own_set, vstart, low)
            near = (
                own
                or labels.before(spec.near_set, vstart, low)
                or bool(has_at and _EMAIL_BEFORE.search(text, low, vstart))
                or (
                    core[:1] in ("0", "+", "(")
                    # written as a phone (grouped, or in brackets), not a record number
                    # (`MRN 00482913`, `PESEL: 09320541156`) that starts with 0
                    and (not core.isdigit() or text[vstart - 1 : vstart] in ("(", "（", "["))
                    and labels.before(spec.person_set, vstart, low)
                )
            )
            strong = labels.before(spec.keyword_set, vstart, paragraph)
            if not intl and not (near or strong):
                continue
            # A bare 7-8 digit run in a paragraph that says "phone" somewhere is
            # as often a count or an id: it needs its label right before it.
            if (
                not intl
                and core.isdigit()
                and len(digits) < 9
                and not near
                and not labels.before(spec.keyword_set, vstart, low)
            ):
                continue
            if regions is None:
                regions = _regions(text)
            number = _phone_number(core, regions, possible=near or strong, own=own)
            if number is None:
                continue
            if not self._accept(spec, value, text, vstart, vend):
                continue
            yield Hit(rule_id=spec.rule.id, start=m.start(), end=m.end(), value=(vstart, vend))
            count += 1
            if count >= MAX_HITS_PER_RULE:
                return

    def _emails(self, spec: _Spec, text: str) -> Iterator[Hit]:
        count = 0
        for m, vstart, vend in _candidates(spec, text):
            value = text[vstart:vend]
            if value.isascii():
                continue  # the ASCII e-mail rule's
            domain = value.rpartition("@")[2]
            try:
                domain.encode("idna")
            except UnicodeError:
                continue
            # `josé@correo.example`: a made-up record's domain under the reserved
            # `.example` TLD, as the ASCII rule counts it; `@example.org` is a doc's.
            probe = value[: -len(".example")] if _EXAMPLE_TLD.search(value) else value
            if not self._accept(spec, value, text, vstart, vend, probe):
                continue
            context = text[max(0, vstart - CONTEXT_CHARS) : vend + CONTEXT_CHARS]
            local = value.rpartition("@")[0]
            if not (_UNICODE_NAME_LOCAL.fullmatch(local) or email_personal(value, context)):
                continue
            yield Hit(rule_id=spec.rule.id, start=m.start(), end=m.end(), value=(vstart, vend))
            count += 1
            if count >= MAX_HITS_PER_RULE:
                return

    def _records(self, spec: _Spec, text: str, labels: _Labels) -> Iterator[Hit]:
        """`{"country": "SE", "number": "850706-1318"}`, `country: IN` / `id_no: …`,
        and CSV `country,id_number` rows: a number under a generic key whose record
        names a country is checked as that country's personal numbers (or, where the
        record names the document, `"doc_type": "passport"`, taken as one)."""
        count = 0
        for value_span, country, document in _record_values(spec, text, labels):
            vstart, vend = value_span
            value = text[vstart:vend]
            checks = spec.countries.get(country, ()) if country else ()
            ok = bool(checks) and _checked(checks, value)
            if not ok and document():
                ok = sum(c.isdigit() for c in value) >= 3 and _checked((), value)
            if not ok or not self._accept(spec, value, text, vstart, vend):
                continue
            yield Hit(rule_id=spec.rule.id, start=vstart, end=vend, value=(vstart, vend))
            count += 1
            if count >= MAX_HITS_PER_RULE:
                return


# ---------------------------------------------------------------- records and tables

_COUNTRY_ALIASES = {"UK": "GB", "EL": "GR"}
"""Codes records use beside ISO 3166's: `UK` (the UK's own, ISO `GB`), `EL` (the EU's Greece)."""
_COUNTRY_VALUE = re.compile(r"""["']?[ \t]*[:=：][ \t]*["']?([A-Za-z]{2})(?![A-Za-z])""")
"""After a country word (`"country": "SE"`, `nationality=in`): its ISO code."""
_DOCUMENT_FIELD = re.compile(
    r"""(?ix)["']?(?<![\w-])(?:doc(?:ument)?[_ -]?type|id[_ -]?type|type|kind)["']?
    [ \t]*[:=：][ \t]*["']?([A-Za-z][\w' -]{1,30}?)["',}\n]"""
)
RECORD_CHARS = 300
"""How far a record's fields may stand from its number (an object, or lines around)."""


def _record(text: str, start: int, end: int) -> tuple[int, int]:
    """The JSON object holding the value, or the paragraph lines around it."""
    low = max(0, start - RECORD_CHARS)
    high = min(len(text), end + RECORD_CHARS)
    open_ = text.rfind("{", low, start)
    close = text.find("}", end, high)
    if open_ >= 0 and close >= 0 and text.rfind("}", open_, start) < 0:
        return open_, close + 1
    para = _paragraph_start(text, start)
    after = text.find("\n\n", end, high)
    return max(para, low), after if after >= 0 else high


_OBJECT_KEY = re.compile(r"""["']([^"'{}\n]{1,40})["'][ \t]*:[ \t]*\Z""")
_IDENTITY_OBJECT = re.compile(
    r"(?i)ident|(?<![a-z])id(?![a-z])|doc|passport|national|citizen|personal|kyc|证件|身份|證件|身分"
)
"""An object key saying the object is an identity document (`id_document`, `identity`)."""


def _same_record(text: str, start: int, countries: Sequence[tuple[int, str]]) -> bool:
    """The value's own object names a country, or is an identity document inside the
    object that does (`{"country": "IN", "id_document": {"number": …}}`): an order's
    or an invoice's `number` in a record with a country is not a personal number."""
    open_ = text.rfind("{", max(0, start - RECORD_CHARS), start)
    if open_ < 0 or text.rfind("}", open_, start) >= 0:
        return True  # not inside a JSON object: a key-value block, the lines around
    close = text.find("}", start, start + RECORD_CHARS)
    close = len(text) if close < 0 else close
    if any(open_ < place < close for place, _ in countries):
        return True
    key = _OBJECT_KEY.search(text, max(0, open_ - 48), open_)
    return key is not None and _IDENTITY_OBJECT.search(key.group(1)) is not None


def _candidates(spec: _Spec, text: str) -> Iterator[tuple[re.Match[str], int, int]]:
    """The first MAX_CANDIDATES matches of the rule's pattern, each with the span
    of its value group; a match whose group took no part is passed over."""
    group = spec.rule.value_group if spec.rule.value_group is not None else 0
    for m in itertools.islice(spec.pattern.finditer(text), MAX_CANDIDATES):
        try:
            vstart, vend = m.span(group)
        except (IndexError, re.error):
            continue
        if vstart >= 0:
            yield m, vstart, vend


def _record_values(
    spec: _Spec, text: str, labels: _Labels
) -> Iterator[tuple[tuple[int, int], str, Callable[[], bool]]]:
    """(value span, country code, does the record name a document) of each keyed
    value and table cell. Only the records around a country field (a country word
    the automaton found, then its code: one anchored match) are read, and in them
    only what follows a generic key (`near_labels`: `number`, `id_no`): `regex`
    is matched right after the key, never searched."""
    group = spec.rule.value_group if spec.rule.value_group is not None else 0
    places = labels.between(spec.keyword_set, 0, len(text) + 1)
    countries: list[tuple[int, str]] = []
    for place in places[:MAX_CANDIDATES]:
        code = _COUNTRY_VALUE.match(text, place)
        if code is not None:
            iso = code.group(1).upper()
            countries.append((place, _COUNTRY_ALIASES.get(iso, iso)))
    regions: set[tuple[int, int]] = set()
    seen: set[int] = set()
    candidates = 0
    for place, _ in countries:
        low, high = _record(text, place, place)
        if (low, high) in regions:
            continue
        regions.add((low, high))
        inside = [c for c in countries if low <= c[0] < high]

        def document(low: int = low, high: int = high) -> bool:
            return any(
                _key(d.group(1)) in spec.documents
                for d in _DOCUMENT_FIELD.finditer(text, low, high)
            )

        for key_end in labels.between(spec.near_set, low, high):
            m = spec.pattern.match(text, key_end, high)
            if m is None:
                continue
            candidates += 1
            if candidates > MAX_CANDIDATES:
                return
            vstart, vend = m.span(group)
            if vstart < 0 or vstart in seen:
                continue
            seen.add(vstart)
            if not _same_record(text, vstart, inside):
                continue
            country = min(inside, key=lambda c: abs(c[0] - vstart))[1]
            yield (vstart, vend), country, document
    if spec.columns and "\n" in text:
        yield from _table_values(spec, text, places)


def _no_document() -> bool:
    return False


_DELIMITERS = (",", "\t", ";", "|")
_DECIMAL = re.compile(r"-?\d+\.\d+")
TABLE_HEADER_CHARS = 400


def _cells(line: str, delimiter: str) -> list[tuple[int, int]]:
    """Where each cell of a delimited line stands, quotes and blanks stripped."""
    spans: list[tuple[int, int]] = []
    at = 0
    for cell in line.split(delimiter):
        a, b = at, at + len(cell)
        while a < b and line[a] in " \"'":
            a += 1
        while b > a and line[b - 1] in " \"'":
            b -= 1
        spans.append((a, b))
        at += len(cell) + 1
    return spans


def _table_values(
    spec: _Spec, text: str, places: Sequence[int]
) -> Iterator[tuple[tuple[int, int], str, Callable[[], bool]]]:
    """CSV / TSV rows under a header naming a country column and an ID column
    (`places`: where a country word ends)."""
    seen = -1
    for place in places[:MAX_CANDIDATES]:
        line_start = text.rfind("\n", 0, place) + 1
        if line_start == seen:
            continue
        seen = line_start
        line_end = text.find("\n", place)
        if line_end < 0 or line_end - line_start > TABLE_HEADER_CHARS:
            continue  # a header has rows under it, and is a short line
        header = text[line_start:line_end]
        delimiter = max(_DELIMITERS, key=header.count)
        if header.count(delimiter) == 0:
            continue
        names = [_key(header[a:b]) for a, b in _cells(header, delimiter)]
        country_col = next((i for i, v in enumerate(names) if v in _COUNTRY_COLUMNS), -1)
        id_cols = [i for i, v in enumerate(names) if v in spec.columns]
        if country_col < 0 or not id_cols:
            continue
        at = line_end + 1
        for _ in range(MAX_CANDIDATES):
            if at >= len(text):
                break
            end = text.find("\n", at)
            end = len(text) if end < 0 else end
            row = text[at:end]
            if row.count(delimiter) != header.count(delimiter):
                break
            cells = _cells(row, delimiter)
            a, b = cells[country_col]
            country = row[a:b].upper()
            country = _COUNTRY_ALIASES.get(country, country)
            for i in id_cols:
                a, b = cells[i]
                if b > a:
                    yield (at + a, at + b), country, _no_document
            at = end + 1


_COUNTRY_COLUMNS = frozenset({"country", "country code", "nationality", "issuing country"})


def _column_header(text: str, start: int, end: int) -> str | None:
    """The header cell over the table cell `text[start:end]`: the first line of its
    block of lines with as many delimiters (a CSV header), if the value is a cell."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    line = text[line_start:line_end]
    delimiter = max(_DELIMITERS, key=line.count)
    n = line.count(delimiter)
    if n == 0:
        return None
    cells = _cells(line, delimiter)
    index = next(
        (i for i, (a, b) in enumerate(cells) if a == start - line_start and b == end - line_start),
        -1,
    )
    if index < 0:
        return None
    header_start = line_start
    for _ in range(200):
        if header_start == 0:
            break
        prev_start = text.rfind("\n", 0, header_start - 1) + 1
        prev = text[prev_start : header_start - 1]
        if prev.count(delimiter) != n:
            break
        header_start = prev_start
    if header_start == line_start:
        return None
    header_end = text.find("\n", header_start)
    header = text[header_start:header_end]
    a, b = _cells(header, delimiter)[index]
    cell = header[a:b]
    return cell if cell and not any(c.isdigit() for c in cell) else None
