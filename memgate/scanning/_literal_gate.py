"""Literal prefilters for regexes that cannot skip ahead on their own.

A regex led by an alternation of words behind `\\b` or a class, under `(?i)`, is
tried by the engine at every position of the text: 2 KB through such a pattern
costs tens of microseconds. `LiteralGate` reads the pattern once (with the
parser `re` compiles with) and takes a set of literals one of which every match
must contain, the way Hyperscan's prefilter mode or RE2's required-atoms do; one
Aho-Corasick pass over the lower-cased text then tells whether the regex can
match at all. The gate is exact in one direction only: `may_match` False means
the regex has no match in that text; True means it should be run.

Literals are lower-cased and looked for in the lower-cased text, so case-flags
do not matter. The few characters that IGNORECASE matches to an ASCII letter but
`str.lower` does not turn into that letter alone (`İ ı ſ`; see `CASE_FOLDS`)
open the gate outright. Patterns holding a non-ASCII literal (whose case folds
are many) get no gate.
"""

from __future__ import annotations

import re
import re._constants as sre  # type: ignore[import-not-found]  # no stubs
import re._parser as sre_parse  # type: ignore[import-not-found]  # the parser re compiles with
from collections.abc import Sequence
from typing import Any

from ahocorasick_rs import AhoCorasick, MatchKind

__all__ = ["CASE_FOLDS", "LiteralGate", "required_literals"]

CASE_FOLDS = re.compile("[\u0130\u0131\u017f\u212a]")
"""Characters IGNORECASE matches to an ASCII letter while `lower()` does not give
that letter in one character (İ ı -> i, ſ -> s; K lowers to k but is kept for
the same test in `regex_rules`)."""

_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
MAX_LITERALS = 256


def _weight(literal: str) -> int:
    """How rare a literal is likely to be in text: its length, each character
    that is not a letter, digit or space counting three (`.kube` is rarer in a
    memory than `config`)."""
    return sum(1 if ch.isalnum() or ch == " " else 3 for ch in literal)


def _better(a: frozenset[str], b: frozenset[str] | None) -> bool:
    """Whether factor set `a` is a sharper gate than `b`: a rarer least rare
    literal, then fewer literals."""
    if b is None:
        return True
    return (min(map(_weight, a)), -len(a)) > (min(map(_weight, b)), -len(b))


MAX_RUN_STRINGS = 64
"""A run of literals and small classes spells at most this many strings."""
MAX_CLASS = 4


def _spelled(op: Any, av: Any) -> set[str] | None:
    """The strings one item matches, if it matches only a few fixed ones: a
    literal, a small class of literals (`[34]`, `[/\\]`), a group of
    alternatives made of those (`(?:rsa|dsa)`); else None."""
    if op is sre.LITERAL:
        return {chr(av)}
    if op is sre.IN:
        if len(av) > MAX_CLASS or any(o is not sre.LITERAL for o, _ in av):
            return None  # a negation, a range or a category
        return {chr(v) for _, v in av}
    if op is sre.SUBPATTERN:
        return _spelled_seq(av[3].data)
    if op is sre.BRANCH:
        out: set[str] = set()
        for alternative in av[1]:
            inner = _spelled_seq(alternative.data)
            if inner is None:
                return None
            out |= inner
        return out if len(out) <= MAX_RUN_STRINGS else None
    return None


def _spelled_seq(items: Sequence[tuple[Any, Any]]) -> set[str] | None:
    out = {""}
    for op, av in items:
        one = _spelled(op, av)
        if one is None or len(out) * len(one) > MAX_RUN_STRINGS:
            return None
        out = {a + b for a in out for b in one}
    return out


def _factors(items: Sequence[tuple[Any, Any]]) -> frozenset[str] | None:
    """A set of literals one of which every match of a parsed sequence contains,
    or None if none can be told. Of the several a sequence has (each run of
    items that spell a few fixed strings, each group's own set), the sharpest."""
    best: frozenset[str] | None = None
    run: set[str] = {""}

    def close(best: frozenset[str] | None) -> frozenset[str] | None:
        if "" not in run and _better(frozenset(run), best):
            return frozenset(run)
        return best

    for op, av in items:
        one = _spelled(op, av)
        if one is not None and len(run) * len(one) <= MAX_RUN_STRINGS:
            run = {a + b for a in run for b in one}
            continue
        best = close(best)
        run = {""}
        if one is not None:  # spells too many strings to join the run: its own set
            if "" not in one and _better(frozenset(one), best):
                best = frozenset(one)
            continue
        found: frozenset[str] | None = None
        if op is sre.SUBPATTERN:
            found = _factors(av[3].data)
        elif op is sre.ATOMIC_GROUP:
            found = _factors(av.data)
        elif op in _REPEATS:
            low, _, item = av
            found = _factors(item.data) if low >= 1 else None
        elif op is sre.BRANCH:
            union: set[str] = set()
            for alternative in av[1]:
                inner = _factors(alternative.data)
                if inner is None:
                    union = set()
                    break
                union |= inner
            found = frozenset(union) if union else None
        # anything else (large classes, `.`, assertions, backreferences) holds no
        # literal every match contains: it only ends the current run
        if found is not None and _better(found, best):
            best = found
    return close(best)


def required_literals(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """Lower-cased literals one of which every match of `pattern` contains, or
    None when the pattern gives none worth a gate (a non-ASCII literal, too many,
    or an empty one)."""
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    except re.error:
        return None
    found = _factors(parsed.data)
    if not found or len(found) > MAX_LITERALS:
        return None
    lowered = {f.lower() for f in found}
    if any(not f or not f.isascii() for f in lowered):
        return None
    # a literal holding another is found whenever that one is: the shorter suffices
    return tuple(sorted(f for f in lowered if not any(o != f and o in f for o in lowered)))


class LiteralGate:
    """Whether a regex can match a text, from its required literals (see the
    module's docstring). A pattern without them gets a gate that always opens."""

    def __init__(self, pattern: re.Pattern[str]) -> None:
        self.pattern = pattern
        self.literals = required_literals(pattern)
        self._automaton = (
            AhoCorasick(list(self.literals), matchkind=MatchKind.LeftmostFirst)
            if self.literals
            else None
        )

    def may_match(self, text: str) -> bool:
        """False only if `pattern` has no match anywhere in `text`."""
        automaton = self._automaton
        if automaton is None:
            return True
        if not text.isascii() and CASE_FOLDS.search(text):
            return True
        try:
            return bool(automaton.find_matches_as_indexes(text.lower()))
        except UnicodeError:  # a lone surrogate: let the regex decide
            return True
