"""The `regex` detector: keyword prefilter, then regex, then entropy, validators,
false-positive filters and allowlists, cheapest first (STYLE.md #3)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from memgate.domain import Chunk, ChunkKind
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.predicates import FILTERS, VALIDATORS, Predicate, shannon_entropy
from memgate.scanning.rules import Rule

MAX_HITS_PER_RULE = 32
CONTEXT_CHARS = 80


@dataclass(frozen=True, slots=True)
class _Compiled:
    rule: Rule
    pattern: re.Pattern[str]
    filters: tuple[Predicate, ...]
    validators: tuple[Predicate, ...]
    allow: tuple[re.Pattern[str], ...]
    stopwords: tuple[str, ...]
    kinds: frozenset[ChunkKind]
    languages: frozenset[str]


def _compile(rule: Rule) -> _Compiled:
    pattern = rule.compiled()
    if pattern is None:
        raise ValueError(f"{rule.id}: a regex rule needs `regex`")
    try:
        filters = tuple(FILTERS[name] for name in rule.filters)
        validators = tuple(VALIDATORS[name] for name in rule.validators)
    except KeyError as exc:
        raise ValueError(f"{rule.id}: unknown filter or validator {exc}") from None
    return _Compiled(
        rule=rule,
        pattern=pattern,
        filters=filters,
        validators=validators,
        allow=tuple(re.compile(a) for a in rule.allowlist.regexes),
        stopwords=tuple(s.lower() for s in rule.allowlist.stopwords),
        kinds=frozenset(rule.chunks),
        languages=frozenset(rule.languages),
    )


class RegexAnalyzer:
    """Runs regex rules whose keywords occur in the chunk (rules without keywords always run)."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._compiled = [_compile(r) for r in rules]
        self._always = [c for c in self._compiled if not c.rule.keywords]
        by_keyword: dict[str, list[int]] = {}
        for index, c in enumerate(self._compiled):
            for kw in c.rule.keywords:
                by_keyword.setdefault(kw, []).append(index)
        self._by_keyword = by_keyword

    def _candidates(self, lower: str) -> list[_Compiled]:
        chosen: set[int] = set()
        for kw, indices in self._by_keyword.items():
            if kw in lower:
                chosen.update(indices)
        keyed = [self._compiled[i] for i in sorted(chosen)]
        return self._always + keyed

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterator[Hit]:
        text = chunk.text
        for c in self._candidates(text.lower()):
            if chunk.kind not in c.kinds:
                continue
            if c.languages and chunk.kind is ChunkKind.CODE and chunk.language not in c.languages:
                continue
            yield from self._matches(c, text)

    def _matches(self, c: _Compiled, text: str) -> Iterator[Hit]:
        rule = c.rule
        count = 0
        for m in c.pattern.finditer(text):
            group = rule.value_group
            if group is not None:
                try:
                    vstart, vend = m.span(group)
                except (IndexError, re.error):
                    continue
                if vstart < 0:
                    continue
            else:
                vstart, vend = m.span()
            value = text[vstart:vend]
            if not self._accept(c, value, text, vstart, vend):
                continue
            start, end = m.span()
            yield Hit(
                rule_id=rule.id,
                start=start,
                end=end,
                value=(vstart, vend) if rule.category.sensitive else None,
            )
            count += 1
            if count >= MAX_HITS_PER_RULE:
                return

    @staticmethod
    def _accept(c: _Compiled, value: str, text: str, start: int, end: int) -> bool:
        rule = c.rule
        if len(value) < rule.min_length:
            return False
        if rule.entropy is not None and shannon_entropy(value) < rule.entropy:
            return False
        context = text[max(0, start - CONTEXT_CHARS) : end + CONTEXT_CHARS]
        if any(not v(value, context) for v in c.validators):
            return False
        if any(f(value, context) for f in c.filters):
            return False
        if any(a.search(value) for a in c.allow):
            return False
        lowered = value.lower()
        return not any(s in lowered for s in c.stopwords)
