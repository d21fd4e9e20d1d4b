r"""The `regex` detector: keyword prefilter, then regex, then entropy, validators,
false-positive filters and allowlists, cheapest first (STYLE.md #3).

Per chunk the work is:

1. One pass over the lower-cased chunk finds its triggers (`RegexAnalyzer`): an
   Aho-Corasick automaton finds every occurrence of every rule keyword and, for
   rules that set `params.digits = N`, one regex finds every start of a run of
   at least N digits (up to two of ` .()/-` allowed between digits). A rule
   runs only if any of its keywords occurs and, with `digits`, such a run
   occurs. A rule with neither runs on every chunk: avoid it, that is the slow
   path.
2. A rule's regex runs over the whole chunk, or, with `params.window`, only
   where a match may start near a trigger: `window = [before, after]` (or one
   number for both) lets a match start from `before` characters before to
   `after` characters after the start of each occurrence of a keyword (of a
   digit run, for rules with `digits`). The match itself may run past that. With
   `window = 0` the regex is tried exactly where each keyword starts, once, so
   a broad keyword in front of an expensive regex costs little.
3. Each candidate value passes the length and entropy floors, validators,
   filters, allowlist and stopwords, in that order. Validators and filters see
   `CONTEXT_CHARS` characters on either side of the value or, with
   `params.context = "paragraph"`, the paragraph around it (up to
   `PARAGRAPH_CHARS` on either side): a contact list says "phone" once, for
   every number in it.

Write rule regexes to start with a literal (`AKIA`, `sk-`): the regex engine then
jumps between occurrences of it, while a leading lookbehind, class or `(?i)`
makes it try every position. Put a boundary check after the literal instead
(`sk-(?<![\w-]sk-)`). Keywords cost little however many there are, but each
occurrence of a rule's keyword runs its regex: avoid keywords that are common
words (`token`, `key`) in front of a regex that scans the whole chunk.
"""

from __future__ import annotations

import re
import re._constants as sre  # type: ignore[import-not-found]  # no stubs
import re._parser as sre_parse  # type: ignore[import-not-found]  # the parser re compiles with
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from ahocorasick_rs import AhoCorasick, BytesAhoCorasick, Implementation, MatchKind

from memgate.domain import Chunk, ChunkKind
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.predicates import FILTERS, VALIDATORS, Predicate, shannon_entropy
from memgate.scanning.rules import Rule

MAX_HITS_PER_RULE = 32
CONTEXT_CHARS = 80
PARAGRAPH_CHARS = 600
"""With `params.context = "paragraph"`: how far a paragraph reaches on either side."""
MAX_WINDOWS = 64
MAX_PREFIX_STARTS = 256
"""More literal-prefix occurrences than this and a rule scans the whole chunk."""
"""More trigger occurrences than this and a windowed rule scans the whole chunk."""

_PARAMS = frozenset({"window", "digits", "context"})
_CONTEXTS = frozenset({"near", "paragraph"})


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
    paragraph: bool
    """Validators and filters see the paragraph around a value, not `CONTEXT_CHARS`."""
    prefixes: tuple[str, ...] | None
    """Lower-cased literals one of which every match starts with, if the regex
    says so (`_prefixes`): a whole-chunk scan then tries the regex only where
    one occurs, instead of at every position."""


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
    context = rule.params.get("context", "near")
    if context not in _CONTEXTS:
        raise ValueError(f"{rule.id}: params.context must be one of {sorted(_CONTEXTS)}")
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
        paragraph=context == "paragraph",
        prefixes=_scan_prefixes(pattern),
    )


# ---------------------------------------------------------------- literal prefixes

_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
MAX_PREFIXES = 32


def _prefixes(items: Sequence[tuple[Any, Any]]) -> set[str] | None:
    """Literals one of which every match of a parsed regex sequence starts with, or
    None if that cannot be told (a class, `.`, an optional part first). Leading
    zero-width assertions are skipped: they constrain, never consume."""
    out = ""
    for op, av in items:
        if op is sre.LITERAL:
            out += chr(av)
            continue
        if out:
            break
        if op in _ZERO_WIDTH:
            continue
        if op is sre.SUBPATTERN:
            return _prefixes(av[3].data)
        if op is sre.ATOMIC_GROUP:
            return _prefixes(av.data)
        if op in _REPEATS:
            low, _, item = av
            return _prefixes(item.data) if low >= 1 else None
        if op is sre.BRANCH:
            found: set[str] = set()
            for alternative in av[1]:
                inner = _prefixes(alternative.data)
                if inner is None:
                    return None
                found |= inner
            return found
        return None
    return {out} if out else None


def _scan_prefixes(pattern: re.Pattern[str]) -> tuple[str, ...] | None:
    """`_prefixes` of a rule's regex, lower-cased, when they are worth looking for
    instead of a plain scan: ASCII (they are found in the ASCII bytes of the
    lower-cased chunk), few, and none a single letter or digit (found everywhere).
    Matching ignores case, so a literal lower-cased is found however it is cased;
    the few characters that IGNORECASE folds to ASCII but `lower()` does not
    (`_CASE_FOLDS`) send the chunk to the plain scan."""
    try:
        parsed = sre_parse.parse(pattern.pattern, pattern.flags)
    except re.error:
        return None
    if parsed.getwidth()[0] == 0:
        return None  # an empty match: finditer's stepping rules, not worth copying
    if not pattern.flags & re.IGNORECASE and parsed.data and parsed.data[0][0] is sre.LITERAL:
        return None  # the engine itself skips ahead to a leading literal, in C
    found = _prefixes(parsed.data)
    if found is None or len(found) > MAX_PREFIXES:
        return None
    lowered = sorted({f.lower() for f in found})
    if any(not f.isascii() or (len(f) == 1 and f.isalnum()) for f in lowered):
        return None
    return tuple(lowered)


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

DIGIT_SEPARATORS = " .()/-"


def _digit_run(n: int) -> str:
    """The n-1 digits after a first one, consecutive digits at most two separators
    apart (`+1 (312) 555-0147`, `4716 2003 8941 0336`, `110105199308170422`)."""
    return f"(?:[{re.escape(DIGIT_SEPARATORS)}]{{0,2}}[0-9]){{{n - 1}}}"


def _run_start(n: int) -> re.Pattern[bytes]:
    """Where a run of at least n digits starts (a digit not right after a digit), in
    the chunk as ASCII bytes with every digit made `0` (`_ZERO_DIGITS`). Starting
    with a literal lets the regex engine skip to the next digit in C, several
    times faster than a class would."""
    return re.compile(f"0(?<!0.)(?={_digit_run(n).replace('[0-9]', '0')})".encode("ascii"))


_ZERO_DIGITS = bytes.maketrans(b"123456789", b"000000000")
_SURROGATE = re.compile("[\ud800-\udfff]")
_CASE_FOLDS = re.compile("[\u0130\u0131\u017f\u212a]")
"""The characters IGNORECASE matches to an ASCII letter while `lower()` does not
give that letter in one character (İ ı -> i, ſ -> s, K -> k): a chunk holding one
is scanned whole (the literal-prefix search could miss a match there)."""


# ---------------------------------------------------------------- the analyzer


class RegexAnalyzer:
    """Runs the regex rules whose triggers occur in a chunk: any of its keywords and,
    with `params.digits`, a digit run (rules with neither always run).

    The lower-cased chunk is encoded to ASCII bytes, each other code point as one
    `?`, so byte offsets are character offsets. On those bytes one Aho-Corasick
    automaton over every ASCII keyword finds each occurrence of each keyword
    (overlapping ones too: `sk`, `sk-` and `sk-ant-` at one position are three
    occurrences), and one regex finds where digit runs start. The few non-ASCII
    keywords (`密码`) have their own automaton, run only on non-ASCII chunks.
    """

    def __init__(self, rules: Sequence[Rule]) -> None:
        compiled = tuple(_compile(r) for r in rules)
        self._compiled = compiled
        keywords = list(dict.fromkeys(k for c in compiled for k in c.keywords))
        ids = {k: n for n, k in enumerate(keywords)}
        narrow = [k for k in keywords if k.isascii()]
        self._automaton = (
            BytesAhoCorasick(
                [k.encode("ascii") for k in narrow],
                matchkind=MatchKind.Standard,
                implementation=Implementation.DFA,
            )
            if narrow
            else None
        )
        self._automaton_ids = tuple(ids[k] for k in narrow)
        wide = [k for k in keywords if not k.isascii()]
        self._wide_automaton = (
            AhoCorasick(wide, matchkind=MatchKind.Standard, implementation=Implementation.DFA)
            if wide
            else None
        )
        self._wide_ids = tuple(ids[k] for k in wide)
        rules_of: list[list[int]] = [[] for _ in keywords]
        for n, c in enumerate(compiled):
            for kw in c.keywords:
                rules_of[ids[kw]].append(n)
        self._rules_of = tuple(tuple(r) for r in rules_of)
        self._keyword_ids = tuple(tuple(ids[k] for k in c.keywords) for c in compiled)
        self._always = frozenset(
            n for n, c in enumerate(compiled) if not c.keywords and c.digits is None
        )
        # Rules with `digits` and no keywords run wherever a digit run is long
        # enough; the chunk is searched once, for the shortest run they ask for.
        self._run_rules = frozenset(
            n for n, c in enumerate(compiled) if not c.keywords and c.digits is not None
        )
        self._base_run = min((compiled[n].digits or 0 for n in self._run_rules), default=0)
        self._run_start = {c.digits: _run_start(c.digits) for c in compiled if c.digits}
        # The literal prefixes of the rules that scan the whole chunk, in one
        # automaton: run once per chunk, only when such a rule is a candidate.
        prefixes = list(
            dict.fromkeys(
                p for c in compiled if c.window is None and c.prefixes for p in c.prefixes
            )
        )
        self._prefix_ids = {p: n for n, p in enumerate(prefixes)}
        self._prefix_automaton = (
            BytesAhoCorasick(
                [p.encode("ascii") for p in prefixes],
                matchkind=MatchKind.Standard,
                implementation=Implementation.DFA,
            )
            if prefixes
            else None
        )
        self._rule_prefixes = tuple(
            tuple(self._prefix_ids[p] for p in c.prefixes)
            if c.window is None and c.prefixes
            else None
            for c in compiled
        )

    def _keywords(self, lower: str, data: bytes) -> dict[int, list[int]]:
        """Keyword id -> starts of its occurrences."""
        at: dict[int, list[int]] = {}
        if self._automaton is not None:
            ids = self._automaton_ids
            for n, start, _ in self._automaton.find_matches_as_indexes(data, overlapping=True):
                keyword = ids[n]
                if keyword in at:
                    at[keyword].append(start)
                else:
                    at[keyword] = [start]
        if self._wide_automaton is not None and not lower.isascii():
            try:
                found = self._wide_automaton.find_matches_as_indexes(lower, overlapping=True)
            except UnicodeEncodeError:  # a lone surrogate: one code point, like its stand-in
                found = self._wide_automaton.find_matches_as_indexes(
                    _SURROGATE.sub("\ufffd", lower), overlapping=True
                )
            for n, start, _ in found:
                at.setdefault(self._wide_ids[n], []).append(start)
        return at

    def _runs(self, zeroed: bytes, size: int, runs: dict[int, list[int]]) -> list[int]:
        """Starts of the digit runs of at least `size` digits, filtered from a
        shorter size already searched for, if any."""
        shorter = [n for n in runs if n < size]
        if shorter:
            run = self._run_start[size]
            starts = [s for s in runs[max(shorter)] if run.match(zeroed, s)]
        elif zeroed.count(b"0") < size:  # counting is cheaper than searching
            starts = []
        else:
            starts = [m.start() for m in self._run_start[size].finditer(zeroed)]
        runs[size] = starts
        return starts

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterator[Hit]:
        text = chunk.text
        lower = text.lower()
        data = lower.encode("ascii", "replace")  # one byte per code point
        at = self._keywords(lower, data)
        zeroed = data.translate(_ZERO_DIGITS)
        runs: dict[int, list[int]] = {}  # digit-run starts by minimum length
        candidates = self._always
        if self._base_run and self._runs(zeroed, self._base_run, runs):
            candidates = candidates | self._run_rules
        if at:
            rules_of = self._rules_of
            candidates = candidates.union(*(rules_of[k] for k in at))
        if not candidates:
            return
        kind = chunk.kind
        # Positions index `lower`; they index `text` only if lowering kept the length.
        aligned = len(lower) == len(text)
        # Prefix positions, found on first need (None: not searched yet); never
        # used on a chunk where IGNORECASE could match what `lower()` hides.
        prefixed = aligned and (text.isascii() or not _CASE_FOLDS.search(text))
        prefix_at: dict[int, list[int]] | None = None
        for n in sorted(candidates):
            c = self._compiled[n]
            if kind not in c.kinds:
                continue
            if c.languages and kind is ChunkKind.CODE and chunk.language not in c.languages:
                continue
            if c.digits is not None:
                starts = runs.get(c.digits)
                if starts is None:
                    starts = self._runs(zeroed, c.digits, runs)
                if not starts:
                    continue
            else:
                keyword_ids = self._keyword_ids[n]
                if len(keyword_ids) == 1:
                    starts = at[keyword_ids[0]]
                else:
                    starts = [s for k in keyword_ids if k in at for s in at[k]]
            if c.window is None and prefixed and (ids := self._rule_prefixes[n]) is not None:
                if prefix_at is None:
                    prefix_at = self._prefix_starts(data)
                found = sorted({s for i in ids if i in prefix_at for s in prefix_at[i]})
                if len(found) <= MAX_PREFIX_STARTS:
                    yield from self._matches(c, text, found, prefixed=True)
                    continue
            if c.window is None or not aligned or len(starts) > MAX_WINDOWS:
                yield from self._matches(c, text, None)
            else:
                yield from self._matches(c, text, starts)

    def _prefix_starts(self, data: bytes) -> dict[int, list[int]]:
        """Prefix id -> where it occurs in the chunk's lower-cased ASCII bytes."""
        at: dict[int, list[int]] = {}
        if self._prefix_automaton is not None:
            for n, start, _ in self._prefix_automaton.find_matches_as_indexes(
                data, overlapping=True
            ):
                at.setdefault(n, []).append(start)
        return at

    def _matches(
        self, c: _Compiled, text: str, starts: list[int] | None, *, prefixed: bool = False
    ) -> Iterator[Hit]:
        """Hits of one rule: over the whole text, starting near `starts`, or (with
        `prefixed`) starting exactly where one of its literal prefixes does."""
        rule = c.rule
        group = rule.value_group
        sensitive = rule.category.sensitive
        count = 0
        found = _at_prefixes(c.pattern, text, starts or []) if prefixed else _find(c, text, starts)
        for m in found:
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
        if c.paragraph:
            context = _paragraph(text, start, end)
        else:
            context = text[max(0, start - CONTEXT_CHARS) : end + CONTEXT_CHARS]
        if any(not v(value, context) for v in c.validators):
            return False
        if any(f(value, context) for f in c.filters):
            return False
        if any(a.search(value) for a in c.allow):
            return False
        lowered = value.lower()
        return not any(s in lowered for s in c.stopwords)


def _paragraph(text: str, start: int, end: int) -> str:
    """The paragraph (between blank lines) holding text[start:end], at most
    `PARAGRAPH_CHARS` on either side."""
    low = max(0, start - PARAGRAPH_CHARS)
    before = text.rfind("\n\n", low, start)
    after = text.find("\n\n", end, end + PARAGRAPH_CHARS)
    return text[before + 2 if before >= 0 else low : after if after >= 0 else end + PARAGRAPH_CHARS]


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


def _at_prefixes(pattern: re.Pattern[str], text: str, starts: list[int]) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, for a regex whose every match starts at one of the
    sorted `starts` (its literal prefixes) and is never empty: finditer's search is
    a match tried at each position left to right, resuming after each match, and
    elsewhere no match can start. Lookbehinds and `\\b` still see the text before."""
    resume = 0
    for at in starts:
        if at >= resume and (m := pattern.match(text, at)) is not None:
            yield m
            resume = m.end()


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


class WholeTextRegexAnalyzer(RegexAnalyzer):
    """The regex rules of detector `regex_text`, run on each layer's whole text
    instead of chunk by chunk (the scanner's `whole_text` protocol): for values
    that span lines the chunker may put in different chunks, such as a PEM block
    in a JavaScript template literal, whose first line reads as code and whose
    body reads as prose."""

    whole_text = True
