"""python_ast detector: alias resolution, taint levels, obfuscation, robustness."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memgate.domain import Chunk, ChunkKind, Decision, Severity, Source, Span
from memgate.scanning import load_rules
from memgate.scanning._code_py import python_facts
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.python_ast import PythonAstAnalyzer
from memgate.trust import Inspector

RULES_DIR = Path(__file__).resolve().parent.parent / "rules"
RULES = load_rules([RULES_DIR / "python_ast.toml", RULES_DIR / "obfuscation.toml"])
ANALYZER = PythonAstAnalyzer([r for r in RULES.rules if r.detector == "python_ast"])
CTX = ScanContext(source=Source.TOOL, origin="text", hidden=False, depth=0)


def hits(text: str, kind: ChunkKind = ChunkKind.CODE, language: str | None = "python") -> list[Hit]:
    return list(ANALYZER.analyze(Chunk(kind, Span(0, len(text)), text, language), CTX))


def levels(text: str) -> dict[str, Severity | None]:
    return {h.rule_id: h.severity for h in hits(text)}


@pytest.mark.parametrize(
    ("text", "rule", "severity"),
    [
        ("from os import system as s\ns(input())", "MG-AST-002", Severity.CRITICAL),
        (
            "import subprocess as sp\nsp.run(sys.argv[1], shell=True)",
            "MG-AST-004",
            Severity.CRITICAL,
        ),
        ("cmd = cfg['cmd']\nsubprocess.run(cmd, shell=True)", "MG-AST-004", Severity.MEDIUM),
        ("subprocess.run('ls -la', shell=True)", "MG-AST-004", Severity.INFO),
        ("exec('x = 5')", "MG-AST-001", Severity.INFO),
        ("def handler(event):\n    eval(event['q'])", "MG-AST-001", Severity.CRITICAL),
        (
            "import requests\ncode = requests.get(u).text\nexec(code)",
            "MG-AST-001",
            Severity.CRITICAL,
        ),
        ("data = pickle.dumps({'a': 1})\npickle.loads(data)", "MG-AST-006", Severity.INFO),
        ("with open(path, 'rb') as f:\n    pickle.load(f)", "MG-AST-006", Severity.MEDIUM),
        ("with open('c.pkl', 'rb') as f:\n    pickle.load(f)", "MG-AST-006", Severity.MEDIUM),
        ("import yaml\nyaml.load(open('x.yml'))", "MG-AST-007", Severity.MEDIUM),
    ],
)
def test_taint_levels(text: str, rule: str, severity: Severity) -> None:
    assert levels(text).get(rule) == severity


def test_safe_yaml_and_literal_list_subprocess_do_not_fire() -> None:
    assert "MG-AST-007" not in levels("import yaml\nyaml.load(f, Loader=yaml.SafeLoader)")
    assert levels("import subprocess\nsubprocess.run(['git', 'status'])") == {}


def test_obfuscated_names_are_resolved() -> None:
    found = levels("m = __import__('so'[::-1])\ngetattr(m, 'metsys'[::-1])(input())")
    assert found.get("MG-OBF-002") == Severity.CRITICAL
    chr_built = "s = ''.join(chr(c) for c in [101, 118, 97, 108])\ngetattr(__builtins__, s)(x)"
    assert "MG-OBF-002" in levels(chr_built)


def test_decoded_payload_exec_is_critical() -> None:
    text = "import base64, zlib\nexec(zlib.decompress(base64.b64decode(blob)))"
    assert "MG-OBF-001" in levels(text)


def test_reverse_shell_and_sandbox_chain() -> None:
    rs = "import socket, os\ns = socket.socket()\ns.connect((h, 1))\nos.dup2(s.fileno(), 0)"
    assert "MG-AST-013" in levels(rs)
    assert "MG-AST-012" in levels("().__class__.__bases__[0].__subclasses__()")


def test_prose_with_code_lines_and_inline_code() -> None:
    prose = (
        "Debug helper left in the bot:\nif msg.startswith('!'):\n    os.system(msg[1:])\nRemove it."
    )
    assert levels_of(prose, ChunkKind.PROSE).get("MG-AST-002") == Severity.CRITICAL
    quoted = "Review: the old `eval(request.args['e'])` was replaced by a safe parser."
    assert all(h.severity in (Severity.INFO, None) for h in hits(quoted, ChunkKind.PROSE, None))


def levels_of(text: str, kind: ChunkKind) -> dict[str, Severity | None]:
    return {h.rule_id: h.severity for h in hits(text, kind, None)}


def test_javascript_chunks_are_left_to_the_javascript_detector() -> None:
    assert hits("eval(code);", ChunkKind.CODE, "javascript") == []


@pytest.mark.parametrize(
    "text",
    ["(" * 100_000, "a=" + "[" * 5000, "eval(" * 3000, "x = 1\n" * 20_000, "\ud800eval(", ""],
)
def test_pathological_inputs_do_not_raise(text: str) -> None:
    hits(text)
    hits(text, ChunkKind.PROSE, None)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=400))
def test_never_raises_on_arbitrary_text(text: str) -> None:
    hits("eval(" + text)
    hits("import os\n" + text, ChunkKind.PROSE, None)


@pytest.mark.parametrize(
    ("text", "decision"),
    [
        ("Lesson:\n```python\nns = {}\nexec('x = 5', ns)\nprint(ns['x'])\n```", Decision.APPROVE),
        ("import subprocess\nsubprocess.check_call(['npm', 'ci'])", Decision.APPROVE),
        ("cmd = settings.BACKUP_CMD\nsubprocess.run(cmd, shell=True)", Decision.REVIEW),
        (
            "import subprocess, sys\nsubprocess.run(f'tar xf {sys.argv[1]}', shell=True)",
            Decision.REJECT,
        ),
    ],
)
def test_decisions_through_inspector(inspector: Inspector, text: str, decision: Decision) -> None:
    assert inspector.inspect(text, Source.AGENT).decision is decision


@pytest.mark.parametrize(
    ("text", "rule", "severity"),
    [
        # a weak primitive is judged by what its line is about
        ("import hashlib\npw_hash = hashlib.md5(pw.encode()).hexdigest()", "MG-AST-016", "medium"),
        ("import hashlib\netag = hashlib.md5(body).hexdigest()", "MG-AST-016", "low"),
        ("import random\nreset_token = str(random.getrandbits(64))", "MG-AST-019", "medium"),
        ("import random\nrandom.shuffle(deck)", "MG-AST-019", "info"),
        # keyword values and argument names
        ("import requests\nrequests.post(u, data=d, verify=False)", "MG-AST-020", "medium"),
        (
            "import ssl\nctx = ssl.wrap_socket(s, ssl_version=ssl.PROTOCOL_SSLv2)",
            "MG-AST-022",
            "medium",
        ),
        ("import hashlib\nh = hashlib.new('MD5')", "MG-AST-018", "low"),
        ("client.set_missing_host_key_policy(paramiko.AutoAddPolicy)", "MG-AST-023", "low"),
        # fragments: an open call, a Python 2 exec statement, a bare `system`
        ("rc = os.system(", "MG-AST-002", "medium"),
        ("exec code in namespace", "MG-AST-001", "medium"),
        ("system(cmd)", "MG-AST-002", "medium"),
    ],
)
def test_context_values_and_fragments(text: str, rule: str, severity: str) -> None:
    found = {h.rule_id: h.severity for h in hits(text, ChunkKind.PROSE, None)}
    assert found.get(rule) == Severity(severity)


@pytest.mark.parametrize(
    "text",
    [
        "import requests\nrequests.get(u, verify=True)",
        "app.run(debug=False)",
        "import hashlib\nh = hashlib.new('sha256')",
        "exec bash",
        "Run exec into the pod to inspect it.",
        "org.slf4j:slf4j-api:jar:1.7.8:compile (version managed from default)",
    ],
)
def test_values_and_prose_do_not_fire(text: str) -> None:
    assert hits(text, ChunkKind.PROSE, None) == []


def test_python_line_sniffed_as_javascript_is_judged() -> None:
    text = "status = subprocess.call(cmd, shell=True);"
    assert "MG-AST-004" in {h.rule_id for h in hits(text, ChunkKind.CODE, "javascript")}
    assert hits("const out = eval(userCode);", ChunkKind.CODE, "javascript") == []


def test_block_with_broken_body_still_parses() -> None:
    # A header whose body lines are not Python: the header is dropped, the rest
    # of the chunk is still parsed (not left to the token fallback).
    text = (
        "```python\ndef load(p):\n    stores open(p) as fh:\n        branch json.load(fh)\n```\n"
        "```python\nimport os, sys\nos.system(sys.argv[1])\n```\n"
    )
    facts = python_facts(text, False)
    assert facts.parsed
    assert [c.qual for c in facts.calls if not c.approx] == ["os.system"]


@pytest.mark.parametrize(
    "text",
    [
        "from os import system as run_it\nrun_it(input())",
        "import subprocess as sp\nsp.Popen(request.args['c'], shell=True)",
        "f = getattr(__import__('o' + 's'), 'sys' + 'tem')\nf(input())",
    ],
)
def test_aliased_and_computed_names_still_fire(text: str) -> None:
    assert hits(text)


def test_prose_naming_no_rule_call_is_not_parsed() -> None:
    # "system" and "eval" are keywords, but no rule's name is written as code.
    text = "The SYSTEM (legacy) needs an Evaluation (Q3) of its design."
    assert ANALYZER._live(text, text.lower(), ANALYZER._keywords.present(text.lower())) == []
