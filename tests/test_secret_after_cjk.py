"""A credential written right after a Chinese character ("token是glpat-…", "密钥：sk-…"
without a space) is still found: secret rules' classes and boundaries are ASCII (a CJK
character is a word character in Unicode, so `\\b` and `(?<![\\w-])` hid the value).
Checked over every secret rule's own match examples through the public Inspector: the
character before the value is replaced by 是 and the rule must still fire."""

from __future__ import annotations

import pytest

from memgate.domain import Source
from memgate.scanning import load_rules
from memgate.scanning.examples import expand
from memgate.trust.inspector import Inspector

# the mutation breaks the carrier's own syntax there (a YAML list mark, a TSV cell,
# an arrow, a `pw:` label), so the value is no longer what the rule reads
MUTATION_BREAKS_CARRIER = {"MG-SEC-047", "MG-SEC-049", "MG-SEC-104", "MG-SEC-106"}


def cases() -> list[tuple[str, str]]:
    out = []
    for rule in load_rules().active():
        if rule.category.value != "secret" or rule.id in MUTATION_BREAKS_CARRIER:
            continue
        for k, ex in enumerate(rule.examples.match):
            text = ex if isinstance(ex, str) else ex.text
            out.append((rule.id, expand(text, f"{rule.id}:match:{k}")))
    return out


@pytest.fixture(scope="module")
def inspector() -> Inspector:
    return Inspector.default()


def test_a_secret_after_a_chinese_character_is_found(inspector: Inspector) -> None:
    checked, missed = 0, []
    for rule_id, text in cases():
        found = [f for f in inspector.inspect(text, Source.USER).findings if f.rule_id == rule_id]
        if not found:
            continue  # an example another rule owns (dedup): nothing to mutate
        start = found[0].span[0]
        if start == 0 or text[start - 1] not in " :=\t：":
            continue
        mutated = text[: start - 1] + "是" + text[start:]
        checked += 1
        fired = {f.rule_id for f in inspector.inspect(mutated, Source.USER).findings}
        if rule_id not in fired:
            missed.append((rule_id, mutated[:80]))
    assert checked >= 100
    assert missed == []
