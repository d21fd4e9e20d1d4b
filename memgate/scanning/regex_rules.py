r"""The `regex` detector: keyword prefilter, then regex, then entropy, validators,
false-positive filters and allowlists, cheapest first (STYLE.md #3).

Per chunk the work is:

1. One regex pass over the lower-cased chunk finds its triggers
   (`_TriggerIndex`): every occurrence of a rule keyword and, for rules that set
   `params.digits = N`, every start of a run of at least N digits (up to two of
   ` .()/-` allowed between digits). A rule runs only if any of its keywords
   occurs and, with `digits`, such a run occurs. A rule with neither runs on
   every chunk: avoid it, that is the slow path.
2. A rule's regex runs over the whole chunk, or, with `params.window`, only
   where a match may start near a trigger: `window = [before, after]` (or one
   number for both) lets a match start from `before` characters before to
   `after` characters after the start of each occurrence of a keyword (of a
   digit run, for rules with `digits`). The match itself may run past that. With
   `window = 0` the regex is tried exactly where each keyword starts, once, so
   a broad keyword in front of an expensive regex costs little.
3. Each candidate value passes the length and entropy floors, validators,
   filters, allowlist and stopwords, in that order.

Write rule regexes to start with a literal (`AKIA`, `sk-`): the regex engine then
jumps between occurrences of it, while a leading lookbehind, class or `(?i)`
makes it try every position. Put a boundary check after the literal instead
(`sk-(?<![\w-]sk-)`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from memgate.domain import Chunk, ChunkKind
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.predicates import FILTERS, VALIDATORS, Predicate, shannon_entropy
from memgate.scanning.rules import Rule

MAX_HITS_PER_RULE = 32
CONTEXT_CHARS = 80
MAX_WINDOWS = 64
"""More trigger occurrences than this and a windowed rule scans the whole chunk."""

_PARAMS = frozenset({"window", "digits"})


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
    keywords: tuple[str, ...]
    digits: int | None
    window: tuple[int, int] | None
    """(before, after): where a match may start around a trigger."""
    starter: re.Pattern[str] | None
    """For a window wider than one position: finds where the next match starts."""


def _int_param(rule: Rule, name: str, low: int) -> int | None:
    value = rule.params.get(name)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise ValueError(f"{rule.id}: params.{name} must be an integer >= {low}")
    return value


def _window_param(rule: Rule) -> tuple[int, int] | None:
    value = rule.params.get("window")
    if value is None:
        return None
    pair = (value, value) if isinstance(value, int) else tuple(value)
    if len(pair) != 2 or any(not isinstance(v, int) or isinstance(v, bool) or v < 0 for v in pair):
        raise ValueError(f"{rule.id}: params.window must be N or [before, after], N >= 0")
    if not rule.keywords and "digits" not in rule.params:
        raise ValueError(f"{rule.id}: params.window needs keywords or params.digits")
    return pair[0], pair[1]


def _compile(rule: Rule) -> _Compiled:
    pattern = rule.compiled()
    if pattern is None:
        raise ValueError(f"{rule.id}: a regex rule needs `regex`")
    try:
        filters = tuple(FILTERS[name] for name in rule.filters)
        validators = tuple(VALIDATORS[name] for name in rule.validators)
    except KeyError as exc:
        raise ValueError(f"{rule.id}: unknown filter or validator {exc}") from None
    unknown = set(rule.params) - _PARAMS
    if unknown:
        raise ValueError(f"{rule.id}: unknown regex params {sorted(unknown)}")
    window = _window_param(rule)
    reach = 0 if window is None else window[0] + window[1]
    return _Compiled(
        rule=rule,
        pattern=pattern,
        filters=filters,
        validators=validators,
        allow=tuple(re.compile(a) for a in rule.allowlist.regexes),
        stopwords=tuple(s.lower() for s in rule.allowlist.stopwords),
        kinds=frozenset(rule.chunks),
        languages=frozenset(rule.languages),
        keywords=tuple(dict.fromkeys(rule.keywords)),
        digits=_int_param(rule, "digits", 2),
        window=window,
        starter=_starter(rule.regex or "", pattern, reach) if reach else None,
    )


_GLOBAL_FLAGS = re.compile(r"^\(\?[aiLmsux]+\)")


def _starter(regex: str, pattern: re.Pattern[str], reach: int) -> re.Pattern[str]:
    """`regex` in a lookahead behind a lazy run of up to `reach` characters: its
    `match(text, pos)` ends where the first match starting in pos..pos+reach starts.
    A search bounded in where a match starts, not (as `endpos` would) in where it
    ends."""
    body = regex
    while flags := _GLOBAL_FLAGS.match(body):  # already in pattern.flags
        body = body[flags.end() :]
    close = "\n))" if pattern.flags & re.VERBOSE else "))"  # after a trailing `# comment`
    return re.compile(f"(?s:.{{0,{reach}}}?)(?=(?:{body}{close}", pattern.flags)


# ---------------------------------------------------------------- triggers

# Rough share (percent) of each character in what agents store (English prose,
# code, JSON), to choose how to find each keyword cheaply (see `_anchors`).
# fmt: off
_SHARE: dict[str, float] = {
    " ": 15, "e": 12, "t": 9, "a": 8, "o": 7.5, "i": 7, "n": 6.7, "s": 6.3, "r": 6, "h": 5,
    "l": 4, "d": 4, "c": 3, "u": 2.8, "m": 2.4, "p": 2, "f": 2, "g": 2, "y": 2, "\n": 2,
    "w": 1.8, "b": 1.5, ".": 1.5, '"': 1.5, ":": 2, "v": 1, ",": 1, "k": 0.8, "_": 0.8,
    "-": 0.8, "/": 0.6, "=": 0.6, "(": 0.5, ")": 0.5, "'": 0.5, "{": 0.4, "}": 0.4,
    "x": 0.3, "\t": 0.3, "j": 0.2, "q": 0.15, "z": 0.1,
}
# fmt: on
_DIGIT_SHARE = 3.0  # JSON and logs are full of digits


def _share(ch: str) -> float:
    if ch in _SHARE:
        return _SHARE[ch]
    if ch.isdigit():
        return _DIGIT_SHARE
    return 0.1 if ch.isascii() else 0.05


def _compatible(a: str, i: int, b: str, j: int) -> bool:
    """Could `a` anchored at `a[i]` and `b` anchored at `b[j]` sit on one text position?"""
    left_a, left_b, right_a, right_b = a[: i + 1], b[: j + 1], a[i + 1 :], b[j + 1 :]
    left = left_a.endswith(left_b) or left_b.endswith(left_a)
    right = right_a.startswith(right_b) or right_b.startswith(right_a)
    return left and right


DIGIT_SEPARATORS = " .()/-"


def _digit_run(n: int) -> str:
    """The n-1 digits after a first one, consecutive digits at most two separators
    apart (`+1 (312) 555-0147`, `4716 2003 8941 0336`, `110105199308170422`)."""
    return f"(?:[{re.escape(DIGIT_SEPARATORS)}]{{0,2}}[0-9]){{{n - 1}}}"


@dataclass(frozen=True, slots=True)
class _Alternative:
    trigger: int
    anchor: int
    """Offset of the anchor character inside the keyword (0 for a digit run)."""
    shadowed: tuple[tuple[int, int, re.Pattern[str]], ...]
    """Later alternatives of the same anchor character that may match on the same
    position (the regex reports only the first): (trigger, anchor, check)."""


class _TriggerIndex:
    """Finds, in one regex pass over a lower-cased chunk, every rule keyword that
    occurs and every start of a digit run of the lengths rules ask for.

    Each keyword is anchored on a rare character of it. The combined pattern has
    one branch per anchor character, `c(?=<rest>(?<=<keyword>)())`: the regex
    engine skips, in C, every position whose character anchors nothing; after an
    anchor it matches the rest of each keyword as a trie of literals, then the
    whole keyword by lookbehind; it consumes one character per hit, so
    overlapping keywords are all found. A digit run is anchored on its first
    digit. The empty group tells which keyword matched; keywords of one anchor
    that can match on the same position are re-checked after the first one
    matched. Keywords made only of common letters are found with `str.find`,
    which is cheaper for them.
    """

    def __init__(self, keywords: Iterable[str], digit_runs: Iterable[int]) -> None:
        words = sorted(set(keywords), key=lambda k: (-len(k), k))
        runs = sorted(set(digit_runs), reverse=True)
        self.triggers: tuple[str | int, ...] = (*words, *runs[-1:])
        self._runs = {n: re.compile(f"[0-9]{_digit_run(n)}") for n in runs}
        anchors = self._anchors(words, digits=bool(runs))
        self._plain = tuple((words[n], n) for n in range(len(words)) if n not in anchors)
        groups: dict[str, list[tuple[int, int]]] = {}  # anchor character -> (id, offset)
        for n, i in anchors.items():
            groups.setdefault(words[n][i], []).append((n, i))
        if runs:  # the shortest run; rules wanting longer ones check with `long_enough`
            for d in "0123456789":
                groups.setdefault(d, [])
        run_id = len(words)
        alternatives: list[str] = []
        table: list[_Alternative | None] = [None]  # regex group number -> alternative

        def leaf(n: int, i: int, members: list[tuple[int, int]]) -> str:
            word = words[n]
            shadowed = tuple(
                (o, j, self._check(o))
                for o, j in members
                if o != n and _compatible(word, i, words[o], j)
            ) + (((run_id, 0, self._check(run_id)),) if runs and word[i].isdigit() else ())
            table.append(_Alternative(trigger=n, anchor=i, shadowed=shadowed))
            return f"(?<={re.escape(word)})()" if len(word) > 1 else "()"

        def trie(node: dict[str, Any], members: list[tuple[int, int]]) -> str:
            # The text after the anchor, as nested literal branches (cheap to reject);
            # a keyword's lookbehind is checked only once all of it after the anchor matched.
            parts = [f"{re.escape(c)}{trie(node[c], members)}" for c in sorted(node) if c]
            parts += [leaf(n, i, members) for n, i in node.get("", [])]
            return parts[0] if len(parts) == 1 else f"(?:{'|'.join(parts)})"

        for ch in sorted(groups, key=_share, reverse=True):
            members = groups[ch]
            root: dict[str, Any] = {}
            for n, i in members:
                node = root
                for c in words[n][i + 1 :]:
                    node = node.setdefault(c, {})
                node.setdefault("", []).append((n, i))  # "" holds the keywords ending here
            inner = [f"(?={trie(root, members)})"] if members else []
            if runs and ch.isdigit():
                table.append(_Alternative(trigger=run_id, anchor=0, shadowed=()))
                inner.append(f"(?<![0-9].)(?={_digit_run(runs[-1])})()")  # where a run starts
            alternatives.append(
                f"{re.escape(ch)}{inner[0] if len(inner) == 1 else '(?:' + '|'.join(inner) + ')'}"
            )
        self._pattern = re.compile("|".join(alternatives)) if alternatives else None
        self._table = tuple(table)

    @staticmethod
    def _anchors(words: Sequence[str], *, digits: bool) -> dict[int, int]:
        """Anchor offset per keyword id; keywords left out are cheaper as `find`.

        Costs in ns per character of text, measured roughly: an anchor character
        stops the regex `share` times per 100 characters (~70 ns per stop, ~10 more
        per keyword sharing it); a `find` costs ~1 ns per character.
        """
        hit, member, plain = 0.7, 0.1, 1.0
        used = set("0123456789") if digits else set()  # digit runs stop on digits anyway

        def cost(ch: str) -> float:
            return _share(ch) * (member if ch in used else hit)

        anchors: dict[int, int] = {}
        for n in sorted(range(len(words)), key=lambda n: min(map(_share, words[n]))):
            k = words[n]
            anchors[n] = min(range(len(k)), key=lambda j: (cost(k[j]), -j))
            used.add(k[anchors[n]])
        # Second pass: a keyword that opened a group early may join a later one.
        for n, i in list(anchors.items()):
            k = words[n]
            sizes = Counter(words[o][j] for o, j in anchors.items() if o != n)
            used = set(sizes) | (set("0123456789") if digits else set())
            anchors[n] = min(range(len(k)), key=lambda j: (cost(k[j]), j != i, -j))
        sizes = Counter(words[n][i] for n, i in anchors.items())
        for n, i in list(anchors.items()):
            ch = words[n][i]
            base = 0.0 if digits and ch.isdigit() else hit
            if _share(ch) * (base + member * sizes[ch]) > plain * sizes[ch]:
                del anchors[n]
        return anchors

    def _check(self, n: int) -> re.Pattern[str]:
        trigger = self.triggers[n]
        if isinstance(trigger, str):
            return re.compile(re.escape(trigger))
        return re.compile(f"[0-9](?<![0-9].)(?={_digit_run(trigger)})")

    def long_enough(self, lower: str, starts: list[int], size: int) -> list[int]:
        """The digit runs, among those found, with at least `size` digits."""
        run = self._runs[size]
        return [s for s in starts if run.match(lower, s)]

    def find(self, lower: str) -> list[tuple[int, int]]:
        """(trigger id, start) of each occurrence (at most MAX_WINDOWS + 1 of a
        keyword found by `find`)."""
        found: list[tuple[int, int]] = []
        for word, n in self._plain:
            at = lower.find(word)
            count = 0
            while at >= 0 and count <= MAX_WINDOWS:
                found.append((n, at))
                at = lower.find(word, at + 1)
                count += 1
        if self._pattern is None:
            return found
        table = self._table
        for m in self._pattern.finditer(lower):
            alt = table[m.lastindex or 0]
            if alt is None:
                continue
            at = m.start()
            found.append((alt.trigger, at - alt.anchor))
            for other, anchor, check in alt.shadowed:
                if at >= anchor and check.match(lower, at - anchor):
                    found.append((other, at - anchor))
        return found


# ---------------------------------------------------------------- the analyzer


class RegexAnalyzer:
    """Runs the regex rules whose triggers occur in a chunk: any of its keywords and,
    with `params.digits`, a digit run (rules with neither always run)."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._compiled = tuple(_compile(r) for r in rules)
        # The keywords of a rule with `digits` are tested with `in` once a digit run
        # is found, rather than looked for in every chunk.
        self._index = _TriggerIndex(
            (k for c in self._compiled if c.digits is None for k in c.keywords),
            (c.digits for c in self._compiled if c.digits is not None),
        )
        triggers = self._index.triggers
        ids = {t: n for n, t in enumerate(triggers) if isinstance(t, str)}
        self._run_id = len(triggers) - 1 if triggers and isinstance(triggers[-1], int) else -1
        shortest = triggers[self._run_id]
        self._shortest_run = shortest if isinstance(shortest, int) else 0
        rules_of: list[list[int]] = [[] for _ in triggers]
        for n, c in enumerate(self._compiled):
            if c.digits is not None:
                rules_of[self._run_id].append(n)
            else:
                for kw in c.keywords:
                    rules_of[ids[kw]].append(n)
        self._rules_of = tuple(tuple(r) for r in rules_of)
        self._keyword_ids = tuple(
            () if c.digits is not None else tuple(ids[k] for k in c.keywords)
            for c in self._compiled
        )
        self._always = frozenset(
            n for n, c in enumerate(self._compiled) if not c.keywords and c.digits is None
        )

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterator[Hit]:
        text = chunk.text
        lower = text.lower()
        found = self._index.find(lower)
        if not found and not self._always:
            return
        at: dict[int, list[int]] = {}
        for trigger, start in found:
            at.setdefault(trigger, []).append(start)
        candidates = set(self._always)
        for trigger in at:
            candidates.update(self._rules_of[trigger])
        # Positions index `lower`; they index `text` only if lowering kept the length.
        aligned = len(lower) == len(text)
        runs: dict[int, list[int]] = {}  # digit-run starts by minimum length
        for n in sorted(candidates):
            c = self._compiled[n]
            if chunk.kind not in c.kinds:
                continue
            if c.languages and chunk.kind is ChunkKind.CODE and chunk.language not in c.languages:
                continue
            keyword_ids = self._keyword_ids[n]
            if c.digits is not None:
                starts = runs.get(c.digits)
                if starts is None:
                    starts = at[self._run_id]
                    if c.digits > self._shortest_run:
                        starts = self._index.long_enough(lower, starts, c.digits)
                    runs[c.digits] = starts
                if not starts or (c.keywords and not any(k in lower for k in c.keywords)):
                    continue
            elif keyword_ids and not any(k in at for k in keyword_ids):
                continue
            else:
                starts = [s for k in keyword_ids for s in at.get(k, ())]
            if c.window is None or not aligned or len(starts) > MAX_WINDOWS:
                yield from self._matches(c, text, None)
            else:
                yield from self._matches(c, text, starts)

    def _matches(self, c: _Compiled, text: str, starts: list[int] | None) -> Iterator[Hit]:
        """Hits of one rule: over the whole text, or starting near `starts`."""
        rule = c.rule
        group = rule.value_group
        sensitive = rule.category.sensitive
        count = 0
        for m in _find(c, text, starts):
            if group is not None:
                try:
                    vstart, vend = m.span(group)
                except (IndexError, re.error):
                    continue
                if vstart < 0:
                    continue
            else:
                vstart, vend = m.span()
            if not self._accept(c, text[vstart:vend], text, vstart, vend):
                continue
            start, end = m.span()
            yield Hit(
                rule_id=rule.id,
                start=start,
                end=end,
                value=(vstart, vend) if sensitive else None,
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


def _find(c: _Compiled, text: str, starts: list[int] | None) -> Iterator[re.Match[str]]:
    """Non-overlapping matches of the rule's regex, left to right like `finditer`;
    with `starts`, only those starting inside the rule's window around one."""
    pattern = c.pattern
    if starts is None or c.window is None:
        yield from pattern.finditer(text)
        return
    resume = 0
    if c.starter is None:  # window 0: exactly at each trigger
        for at in sorted(set(starts)):
            if at >= resume and (m := pattern.match(text, at)) is not None:
                yield m
                resume = max(m.end(), at + 1)
        return
    before, after = c.window
    reach = before + after
    starter = c.starter
    for wstart, wend in _windows(starts, before, after + 1, len(text)):
        pos = max(wstart, resume)
        while pos < wend:
            found = starter.match(text, pos)
            if found is None:
                pos += reach + 1
                continue
            at = found.end()
            if at >= wend:
                break
            m = pattern.match(text, at)
            if m is None:  # cannot happen: the same regex matched at `at`
                break
            yield m
            pos = resume = max(m.end(), at + 1)


def _windows(starts: list[int], before: int, after: int, n: int) -> list[tuple[int, int]]:
    """Merged [start, end) spans from `before` characters before to `after` after each start."""
    merged: list[tuple[int, int]] = []
    for at in sorted(starts):
        start, end = max(0, at - before), min(n, at + after)
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged
