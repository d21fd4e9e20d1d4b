"""The rules loader: malformed rules files fail loudly, naming file and rule."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from memgate.errors import RulesError
from memgate.scanning import load_rules
from memgate.scanning.examples import expand

GOOD = """
[family]
name = "t"
description = "test"

[[rules]]
id = "MG-SEC-999"
name = "t"
description = "test rule"
category = "secret"
severity = "high"
confidence = 0.9
regex = 'tok_([a-z0-9]{12})'
value_group = 1
[rules.examples]
match = ["tok_{{gen:lower_digit:12}}"]
no_match = ["nothing"]
"""


def write(tmp_path: Path, text: str, name: str = "r.toml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_loads_a_valid_file_and_versions_it(tmp_path: Path) -> None:
    rules = load_rules([write(tmp_path, GOOD)])
    assert [r.id for r in rules.rules] == ["MG-SEC-999"]
    changed = load_rules([write(tmp_path, GOOD.replace("0.9", "0.8"))])
    assert rules.version != changed.version


@pytest.mark.parametrize(
    ("mutation", "message"),
    [
        (lambda s: s.replace('id = "MG-SEC-999"', 'id = "SEC-1"'), "does not match"),
        (lambda s: s.replace("confidence = 0.9", "confidence = 0.9\nbogus = 1"), "bogus"),
        (lambda s: s.replace("tok_([a-z0-9]{12})", "tok_([a-z"), "bad regex"),
        (lambda s: s.replace('no_match = ["nothing"]', "no_match = []"), "no_match"),
        (lambda s: s.replace("[family]", "[family"), "not valid TOML"),
        (lambda s: s.replace('severity = "high"', 'severity = "extreme"'), "severity"),
    ],
)
def test_malformed_rules_name_the_problem(
    tmp_path: Path, mutation: Callable[[str], str], message: str
) -> None:
    path = write(tmp_path, mutation(GOOD))
    with pytest.raises(RulesError, match=message) as info:
        load_rules([path])
    assert str(path) in str(info.value)


def test_duplicate_rule_ids_are_refused(tmp_path: Path) -> None:
    write(tmp_path, GOOD, "a.toml")
    write(tmp_path, GOOD, "b.toml")
    with pytest.raises(RulesError, match="already defined"):
        load_rules([tmp_path])


def test_bundled_rules_load() -> None:
    rules = load_rules()
    assert len(rules.rules) > 50
    assert len(rules.version) == 12


def test_generators_are_deterministic_and_fill_charset() -> None:
    a = expand("k={{gen:upper_digit:16}} {{gen:hex:8}}", "seed")
    assert a == expand("k={{gen:upper_digit:16}} {{gen:hex:8}}", "seed")
    assert a != expand("k={{gen:upper_digit:16}} {{gen:hex:8}}", "other")
    key, hexpart = a[2:].split(" ")
    assert len(key) == 16
    assert all(c.isupper() or c.isdigit() for c in key)
    assert all(c in "0123456789abcdef" for c in hexpart)
    with pytest.raises(ValueError, match="unknown generator"):
        expand("{{gen:nope:3}}", "s")
