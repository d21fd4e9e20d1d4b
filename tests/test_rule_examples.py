"""Every rule proves itself: each `examples.match` case fires the rule through the
full pipeline, each `examples.no_match` case does not (STYLE.md #1)."""

from __future__ import annotations

import pytest

from memgate.domain import Category, Source
from memgate.scanning import load_rules
from memgate.scanning.examples import expand
from memgate.trust import Inspector

RULES = load_rules()
CASES = [
    pytest.param(rule.id, kind, index, case.text, case.source, id=f"{rule.id}-{kind}-{index}")
    for rule in RULES.active()
    for kind, cases in (("match", rule.examples.match), ("no_match", rule.examples.no_match))
    for index, case in enumerate(cases)
]


@pytest.mark.parametrize(("rule_id", "kind", "index", "text", "source"), CASES)
def test_rule_example(
    inspector: Inspector, rule_id: str, kind: str, index: int, text: str, source: Source
) -> None:
    content = expand(text, f"{rule_id}:{kind}:{index}")
    report = inspector.inspect(content, source)
    fired = [f.rule_id for f in report.findings]
    if kind == "match":
        assert rule_id in fired, f"{rule_id} did not fire on {content!r}; fired: {fired}"
    else:
        assert rule_id not in fired, f"{rule_id} fired on its no_match example {content!r}"


def test_rule_ids_are_unique_and_well_formed() -> None:
    ids = [r.id for r in RULES.rules]
    assert len(ids) == len(set(ids))


def test_examples_do_not_commit_realistic_secrets() -> None:
    """Sensitive rules' match examples must build their values from generators,
    so no credential-looking literal lives in the repository."""
    for rule in RULES.rules:
        if rule.category is not Category.SECRET:
            continue
        for case in rule.examples.match:
            assert "{{gen:" in case.text or "PRIVATE KEY" in case.text, (
                f"{rule.id}: match example without a generator: {case.text[:60]!r}"
            )
