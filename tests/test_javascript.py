"""javascript detector: sinks judged by argument origin, computed eval, robustness."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgate.domain import Chunk, ChunkKind, Severity, Source, Span
from memgate.scanning import load_rules
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.javascript import JavaScriptAnalyzer

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
RULES = load_rules([RULES_DIR / "javascript.toml", RULES_DIR / "obfuscation.toml"])
ANALYZER = JavaScriptAnalyzer([r for r in RULES.rules if r.detector == "javascript"])
CTX = ScanContext(source=Source.WEB, origin="text", hidden=False, depth=0)


def hits(text: str, language: str | None = "javascript") -> list[Hit]:
    return list(ANALYZER.analyze(Chunk(ChunkKind.CODE, Span(0, len(text)), text, language), CTX))


def test_eval_of_fetched_text_is_critical() -> None:
    text = "const r = await fetch(u)\nconst src = await r.text()\neval(src)"
    assert [h.severity for h in hits(text) if h.rule_id == "MG-JS-001"] == [Severity.CRITICAL]


def test_eval_of_literal_is_info() -> None:
    assert [h.severity for h in hits("const b = eval('1 + 2');")] == [Severity.INFO]


def test_exec_on_request_body() -> None:
    text = "app.post('/x', (req, res) => { exec('git clone ' + req.body.repo); });"
    assert any(h.rule_id == "MG-JS-002" and h.severity is Severity.CRITICAL for h in hits(text))


def test_regex_exec_and_exec_file_do_not_fire() -> None:
    assert hits("const m = /(\\d+)/.exec(line);\nexecFileSync('git', ['status']);") == []


def test_computed_eval() -> None:
    text = "const k = 'ev' + 'al';\nwindow[k](atob(location.hash.slice(1)));"
    assert any(h.rule_id == "MG-OBF-004" and h.severity is Severity.CRITICAL for h in hits(text))


def test_python_prose_is_not_judged_as_javascript() -> None:
    assert hits("def f(x):\n    return eval(x)", None) == []


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=300))
def test_never_raises(text: str) -> None:
    hits("eval(" + text)
    hits("const k = " + text + "\nwindow[k](x)")


@pytest.mark.parametrize(
    "text", ["`" * 50_000, "eval(" * 10_000, "/*" * 20_000, "'" + "\\" * 10_000]
)
def test_pathological_inputs(text: str) -> None:
    hits(text)
