"""The `regex` detector's mechanics, through the Scanner, with small rule files:
the keyword prefilter, digit-run triggers, windows, value redaction, entropy,
allowlists and chunk kinds."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgate.domain import Chunk, ChunkKind, Source, Span
from memgate.errors import RulesError
from memgate.scanning import BUILTIN_ANALYZERS, Scanner, default_rules_dir, load_rules
from memgate.scanning.analyzer import ScanContext
from memgate.scanning.regex_rules import RegexAnalyzer

HEADER = '[family]\nname = "test"\ndescription = "rules for one test"\n'


def _rule(rule_id: str, regex: str, extra: str = "") -> str:
    return (
        f'\n[[rules]]\nid = "{rule_id}"\nname = "r"\ndescription = "d"\ncategory = "secret"\n'
        f"severity = \"high\"\nconfidence = 0.9\nregex = '''{regex}'''\n{extra}\n"
        '[rules.examples]\nmatch = ["x"]\nno_match = ["y"]\n'
    )


ScannerFactory = Callable[..., Scanner]


@pytest.fixture
def make(tmp_path: Path) -> ScannerFactory:
    """Build a Scanner from rule blocks written to a TOML file."""

    def build(*rules: str) -> Scanner:
        path = tmp_path / "rules.toml"
        path.write_text(HEADER + "".join(rules), encoding="utf-8")
        return Scanner(load_rules([path]), BUILTIN_ANALYZERS, fingerprint_key=b"k")

    return build


def _fired(scanner: Scanner, text: str) -> list[str]:
    return [f.rule_id for f in scanner.scan(text).findings]


def test_keyword_prefilter_skips_a_rule(make: ScannerFactory) -> None:
    scanner = make(_rule("MG-SEC-901", r"\bv=\d+", 'keywords = ["Marker"]'))
    assert _fired(scanner, "v=12 but no keyword") == []
    assert _fired(scanner, "MARKER: v=12") == ["MG-SEC-901"]  # keywords ignore case
    assert _fired(scanner, "the marker is far away ... " + "x " * 200 + "v=12") == ["MG-SEC-901"]


def test_value_group_alone_is_redacted(make: ScannerFactory) -> None:
    scanner = make(_rule("MG-SEC-902", r"code=(\w{12})", 'keywords = ["code="]\nvalue_group = 1'))
    result = scanner.scan("see code=Zq8vN3xR7tLw and go")
    assert result.redacted.startswith("see code=[REDACTED:MG-SEC-902:")
    assert result.redacted.endswith("] and go")
    [finding] = result.findings
    assert "Zq8vN3xR7tLw" not in finding.evidence
    assert finding.fingerprint is not None


def test_entropy_floor(make: ScannerFactory) -> None:
    scanner = make(
        _rule("MG-SEC-903", r"tok=(\w{16})", 'keywords = ["tok="]\nvalue_group = 1\nentropy = 3.5')
    )
    assert _fired(scanner, "tok=aaaabbbbaaaabbbb") == []
    assert _fired(scanner, "tok=Zq8vN3xR7tLw2PbK") == ["MG-SEC-903"]


def test_allowlist_regex_and_stopwords(make: ScannerFactory) -> None:
    extra = (
        'keywords = ["tok="]\nvalue_group = 1\n'
        '[rules.allowlist]\nregexes = ["^TEST"]\nstopwords = ["demo"]'
    )
    scanner = make(_rule("MG-SEC-904", r"tok=(\w{16})", extra))
    assert _fired(scanner, "tok=TESTq8vN3xR7tLw2") == []
    assert _fired(scanner, "tok=q8vN3xDeMo7tLw2P") == []
    assert _fired(scanner, "tok=q8vN3xR7tLw2PbKz") == ["MG-SEC-904"]


def test_window_bounds_where_a_match_starts(make: ScannerFactory) -> None:
    scanner = make(
        _rule("MG-SEC-905", r"\d{6}", 'keywords = ["pin"]\nparams = { window = [10, 8] }')
    )
    assert _fired(scanner, "pin is 123456") == ["MG-SEC-905"]  # starts 7 after the keyword
    assert _fired(scanner, "123456 pin") == ["MG-SEC-905"]  # starts 7 before it
    assert _fired(scanner, "pin, then 123456") == []  # 10 after
    assert _fired(scanner, "pin " + "x" * 30 + " 123456") == []
    assert _fired(scanner, "123456" + "x" * 30 + " pin") == []
    # the match starts inside the window but ends far past it, and is taken whole
    long_rule = _rule(
        "MG-SEC-906",
        r"pin=(\d{6,200})",
        'keywords = ["pin"]\nvalue_group = 1\nparams = { window = 0 }',
    )
    value = "7" * 150
    result = make(long_rule).scan(f"pin={value}.")
    assert result.redacted.startswith("pin=[REDACTED:MG-SEC-906:")
    assert value not in result.redacted


def test_window_zero_tries_each_keyword_and_never_overlaps(make: ScannerFactory) -> None:
    scanner = make(
        _rule(
            "MG-SEC-907",
            r"key=(\w{8})",
            'keywords = ["key"]\nvalue_group = 1\nparams = { window = 0 }',
        )
    )
    findings = scanner.scan("key=Zq8vN3xR, key=Lw2PbKz9 and monkey business").findings
    assert [f.rule_id for f in findings] == ["MG-SEC-907", "MG-SEC-907"]


def test_many_keyword_occurrences_fall_back_to_the_whole_chunk(make: ScannerFactory) -> None:
    scanner = make(_rule("MG-SEC-908", r"pin=\d{6}", 'keywords = ["pin"]\nparams = { window = 0 }'))
    text = "pin " * 200 + "pin=123456"
    assert _fired(scanner, text) == ["MG-SEC-908"]


def test_lowering_that_changes_length_disables_windows(make: ScannerFactory) -> None:
    # "İ" lower-cases to two code points, so keyword positions no longer index the text.
    scanner = make(_rule("MG-SEC-909", r"pin=\d{6}", 'keywords = ["pin"]\nparams = { window = 0 }'))
    assert _fired(scanner, "İİİİ pin=123456") == ["MG-SEC-909"]


def test_digit_run_trigger(make: ScannerFactory) -> None:
    extra = 'keywords = ["acct"]\nvalue_group = 1\nparams = { digits = 8, window = [6, 0] }'
    scanner = make(_rule("MG-SEC-910", r"acct:? ?(\d{4}[ -]?\d{4})", extra))
    assert _fired(scanner, "acct: 1234 5678") == ["MG-SEC-910"]
    assert _fired(scanner, "acct: 1234-567") == []  # 7 digits: no run of 8
    assert _fired(scanner, "no label 1234 5678") == []  # the keyword is still required


def test_chunk_kind_filter(make: ScannerFactory) -> None:
    scanner = make(
        _rule("MG-SEC-911", r"secret_\d{3}", 'keywords = ["secret_"]\nchunks = ["code"]')
    )
    assert _fired(scanner, "The value secret_123 is mentioned in prose.") == []
    code = "Setup:\n```python\nVALUE = 'secret_123'\nprint(VALUE)\n```\n"
    assert _fired(scanner, code) == ["MG-SEC-911"]


def test_paragraph_context_reaches_across_the_paragraph_only(make: ScannerFactory) -> None:
    extra = 'value_group = 1\nvalidators = ["phone_context"]\nparams = { digits = 8%s }'
    rule = r"(\d{3}-\d{3}-\d{4})"
    near = make(_rule("MG-SEC-913", rule, extra % ""))
    wide = make(_rule("MG-SEC-913", rule, extra % ', context = "paragraph"'))
    text = "Phone list\n" + "".join(
        f"- a volunteer from the north side {n}-555-0100\n" for n in (212, 213, 214)
    )
    assert len(near.scan(text).findings) == 1  # the others are 80+ characters away
    assert len(wide.scan(text).findings) == 3
    assert wide.scan(text + "\n\nbatch 215-555-0100").findings[-1].span[0] < len(text)


def test_triggers_survive_lone_surrogates_and_wide_keywords() -> None:
    # The Scanner replaces lone surrogates before analyzers run; the analyzer
    # must not rely on it. MG-SEC-036 has the keyword `密码` and window 0.
    rules = load_rules([default_rules_dir() / "secrets.toml"])
    analyzer = RegexAnalyzer([r for r in rules.active() if r.detector == "regex"])
    text = "\ud800 数据库密码：Zq8vN3xR7tLw2PbK \udfff"
    piece = Chunk(kind=ChunkKind.PROSE, span=Span(0, len(text)), text=text)
    ctx = ScanContext(source=Source.TOOL, origin="text", hidden=False, depth=0)
    assert "MG-SEC-036" in {h.rule_id for h in analyzer.analyze(piece, ctx)}


@pytest.mark.parametrize(
    "params",
    [
        "params = { window = -1 }",
        "params = { windows = 3 }",
        "params = { window = [1, 2, 3] }",
        'params = { context = "document" }',
    ],
)
def test_bad_params_are_refused(make: ScannerFactory, params: str) -> None:
    with pytest.raises((ValueError, RulesError)):
        make(_rule("MG-SEC-912", r"x", f'keywords = ["x"]\n{params}'))


# Keywords chosen to collide: shared anchors, containment, overlaps, common letters
# (found by `find`), a CJK one, and a digit run.
KEYWORDS = [
    "sk",
    "sk-",
    "sk-ant-",
    "ask",
    "key",
    "monkey",
    "pass",
    "password",
    "ssn",
    "dd ",
    "密码",
]
PIECES = [*KEYWORDS, "SK", "PASS", "a", "d", " ", "-", "k", "1234", "5678", "-", "x"]


@pytest.fixture(scope="module")
def keyword_scanner(tmp_path_factory: pytest.TempPathFactory) -> Scanner:
    rules = [
        _rule(f"MG-SEC-{950 + n}", r"\A", f"keywords = [{kw!r}]".replace("'", '"'))
        for n, kw in enumerate(KEYWORDS)
    ]
    rules.append(_rule("MG-SEC-990", r"\A", "params = { digits = 8 }"))
    path = tmp_path_factory.mktemp("kw") / "rules.toml"
    path.write_text(HEADER + "".join(rules), encoding="utf-8")
    return Scanner(load_rules([path]), BUILTIN_ANALYZERS, fingerprint_key=b"k", cache_size=0)


RUN_OF_8 = re.compile(r"[0-9](?:[ .()/-]{0,2}[0-9]){7}")


@settings(max_examples=300, deadline=None)
@given(pieces=st.lists(st.sampled_from(PIECES), max_size=25))
def test_rules_run_exactly_when_a_trigger_occurs(
    keyword_scanner: Scanner, pieces: list[str]
) -> None:
    text = "".join(pieces)
    expected = {f"MG-SEC-{950 + n}" for n, kw in enumerate(KEYWORDS) if kw in text.lower()}
    if RUN_OF_8.search(text):
        expected.add("MG-SEC-990")
    findings = keyword_scanner.scan(text).findings
    assert {f.rule_id for f in findings if f.layer == "text"} == expected
