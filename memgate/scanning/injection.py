"""The `injection` detector: prompt injection and memory poisoning, English and Chinese.

In memory, injection is rarely the textbook phrase. What marks a poisoned
write is a *combination* of features in one sentence or a few adjacent ones:
a directive addressed to the assistant, a persistence marker, a memory write,
an authority claim, an override, a claim about the user's wishes made by a
third party, a redirection of tools or data, a trigger, secrecy, a safety
bypass, decode-and-follow, role-play framing.

How it works, cheapest first (STYLE.md #3):

1. The chunk's natural-language text is taken (prose as is; JSON string values
   and code comments/strings with the syntax blanked), lower-cased and split
   into sentences.
2. Lexicon entries (data: `params.lexicon` of the rules, see
   `memgate.scanning._injection_lexicon`) whose anchor word occurs in the text
   are run, each once over the whole text; matches are bucketed into
   sentences by bisection.
3. Each rule is a template: `params.require` (all of these features) and
   `params.any` (at least `params.min_any` of these) within `params.window`
   adjacent sentences. The best window per rule becomes one hit.
4. The severity is then weighed by context: the source (`params.source_shift`,
   default user -3 steps, agent -1: the same words from the user are usually
   a preference), a hidden layer (+1), discussion of an attack rather than an
   attack (quoted, "for example", "attackers often write": -1 to -3), and
   many features at once (`params.escalate_at`: +1).

Features `example` and `meta` are not matched by templates; they mark
discussion (a quotation introduced as an example, a text about injection).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from memgate.domain import Chunk, Severity
from memgate.scanning._injection_lexicon import Entry, Lexicon, build_lexicon
from memgate.scanning._injection_text import View, json_joined, language_text, make_view
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.rules import Rule

LADDER: tuple[Severity, ...] = (
    Severity.INFO,
    Severity.LOW,
    Severity.MEDIUM,
    Severity.HIGH,
    Severity.CRITICAL,
)
DEFAULT_SOURCE_SHIFT: Mapping[str, int] = {"user": -3, "agent": -1}
EXAMPLE = "example"
META = "meta"
DISCUSSION = frozenset({EXAMPLE, META})
MAX_MATCHES_PER_ENTRY = 64
DISCUSSION_RADIUS = 2
CHUNK_META_MIN = 2
"""Meta markers anywhere in the chunk that make a quotation read as discussion."""

_WORDS = re.compile(r"[a-z0-9]+")
NEGATABLE = frozenset({"directive", "disclose", "redirect", "memory", "task"})
"""Features that mean the opposite after a negation ("do not reveal the password")."""
_NEGATION_BEFORE = re.compile(
    r"(?:\b(?:not|never|no|n't|cannot|nor)\W+(?:\w+\W+){0,2}|(?:不要|不得|禁止|切勿|不可|不能|请勿|勿|别|不会|从不)\S{0,3})$"
)
NEGATION_LOOKBACK = 40
LOOSE = frozenset({"authority"})
"""Markers found without word boundaries in JSON values glued together
(`"SYS"`, `"TEM: ..."`): a marker split across fields."""
_CLAUSE_BEFORE = frozenset('.!?;:\n"“”‘’(（[【「『<>#|。！？；：…')
_BULLETS = frozenset("-*•+")


@dataclass(frozen=True, slots=True)
class _Template:
    rule: Rule
    require: frozenset[str]
    any_of: frozenset[str]
    min_any: int
    window: int
    escalate_at: int
    source_shift: Mapping[str, int]
    discussion_damp: bool
    first_sentence_only: bool
    max_chars: int
    hidden_shift: int
    triggers: frozenset[str] = field(default=frozenset())


@dataclass(frozen=True, slots=True)
class _Occ:
    feature: str
    start: int
    end: int
    quoted: bool


def _str_list(value: object, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise ValueError(f"{where} must be a list of strings")
    return tuple(str(v) for v in value)


def _template(rule: Rule) -> _Template:
    p = rule.params
    require = frozenset(_str_list(p.get("require"), f"{rule.id}: params.require"))
    any_of = frozenset(_str_list(p.get("any"), f"{rule.id}: params.any"))
    if not require and not any_of:
        raise ValueError(f"{rule.id}: an injection rule needs params.require or params.any")
    shift = dict(DEFAULT_SOURCE_SHIFT)
    raw_shift = p.get("source_shift", {})
    if not isinstance(raw_shift, Mapping):
        raise ValueError(f"{rule.id}: params.source_shift must be a table")
    for key, value in raw_shift.items():
        shift[str(key)] = int(value)
    min_any = int(p.get("min_any", 1 if any_of else 0))
    return _Template(
        rule=rule,
        require=require,
        any_of=any_of,
        min_any=min_any,
        window=max(0, int(p.get("window", 1))),
        escalate_at=int(p.get("escalate_at", 0)),
        source_shift=shift,
        discussion_damp=bool(p.get("discussion_damp", True)),
        first_sentence_only=bool(p.get("first_sentence_only", False)),
        max_chars=int(p.get("max_chars", 0)),
        hidden_shift=int(p.get("hidden_shift", 1)),
        # a window is only looked at around sentences holding one of these
        triggers=require if require else any_of,
    )


class InjectionAnalyzer:
    """Feature co-occurrence templates over sentences, weighed by source and context."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        tables = []
        for rule in rules:
            table = rule.params.get("lexicon")
            if table is not None:
                if not isinstance(table, Mapping):
                    raise ValueError(f"{rule.id}: params.lexicon must be a table")
                tables.append(table)
        self._lexicon: Lexicon = build_lexicon(tables)
        self._templates = tuple(_template(r) for r in rules)
        self._word_anchors = frozenset(self._lexicon.by_word)
        known = self._lexicon.features
        for t in self._templates:
            missing = (t.require | t.any_of) - known
            if missing:
                raise ValueError(f"{t.rule.id}: no lexicon for features {sorted(missing)}")

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterator[Hit]:
        if not self._templates or not chunk.text.strip():
            return iter(())
        best: dict[str, Hit] = {}
        text = language_text(chunk)
        if text.strip():
            self._collect(make_view(text), chunk, ctx, best, whole=None)
        joined = json_joined(chunk)
        if joined:
            self._collect(
                make_view(joined, loose=True), chunk, ctx, best, whole=(0, len(chunk.text))
            )
        return iter(sorted(best.values(), key=lambda h: (h.start, h.rule_id)))

    # -- feature extraction ---------------------------------------------------

    def _occurrences(self, view: View) -> list[_Occ]:
        lower = view.text
        words = set(_WORDS.findall(lower))
        out: list[_Occ] = []
        entries = self._lexicon.entries
        chosen = self._lexicon.candidates(words, lower, view.has_cjk)
        if view.loose:  # glued fields: a marker may sit inside a longer "word"
            for anchor, indices in self._lexicon.by_text.items():
                if anchor in lower:
                    for index in indices:
                        if entries[index].feature in LOOSE:
                            chosen.setdefault(index, []).append(anchor)
        for index, anchors in chosen.items():
            out.extend(self._matches(entries[index], anchors, view, self._word_anchors))
        return out

    @staticmethod
    def _matches(
        entry: Entry, anchors: Sequence[str], view: View, words: frozenset[str]
    ) -> Iterator[_Occ]:
        """Match the entry at each occurrence of its anchors (str.find is far
        cheaper than scanning the whole text with a many-branch regex)."""
        lower = view.text
        loose = view.loose and entry.feature in LOOSE
        seen: set[int] = set()
        seen_starts: set[int] = set()
        count = 0
        for anchor in anchors:
            pos = lower.find(anchor)
            finds = 0
            while pos >= 0 and finds < MAX_MATCHES_PER_ENTRY:
                finds += 1
                start = pos
                pos = lower.find(anchor, pos + 1)
                if start in seen:
                    continue
                seen.add(start)
                if entry.left_boundary and start > 0 and not loose:
                    prev = lower[start - 1]
                    if prev.isalnum() or prev == "_":
                        continue
                    if anchor in words:
                        nxt = start + len(anchor)
                        if nxt < len(lower) and (lower[nxt].isalnum() or lower[nxt] == "_"):
                            continue
                if entry.in_place:
                    m = entry.pattern.match(lower, start)
                else:
                    m = entry.pattern.search(
                        lower, max(0, start - entry.before), start + entry.after
                    )
                    if m is not None and not m.start() <= start < m.end():
                        m = None
                if m is None or m.end() == m.start() or m.start() in seen_starts:
                    continue
                seen_starts.add(m.start())
                start = m.start()
                if entry.left_boundary and start > 0 and not loose:
                    prev = lower[start - 1]
                    if prev.isalnum() or prev == "_":
                        continue
                if entry.clause_start and not loose and not _at_clause_start(lower, start):
                    continue
                if entry.feature in NEGATABLE and _NEGATION_BEFORE.search(
                    lower, max(0, start - NEGATION_LOOKBACK), start
                ):
                    continue
                yield _Occ(entry.feature, start, m.end(), view.quoted(start, m.end()))
                count += 1
                if count >= MAX_MATCHES_PER_ENTRY:
                    return

    # -- templates ------------------------------------------------------------

    def _collect(
        self,
        view: View,
        chunk: Chunk,
        ctx: ScanContext,
        best: dict[str, Hit],
        whole: tuple[int, int] | None,
    ) -> None:
        occs = self._occurrences(view)
        if not occs:
            return
        n_sent = len(view.starts)
        by_sent: dict[int, list[_Occ]] = {}
        for occ in occs:
            by_sent.setdefault(view.sentence_of(occ.start), []).append(occ)
        meta_total = sum(1 for o in occs if o.feature == META)
        discussion_sents = {
            i for i, lst in by_sent.items() if any(o.feature in DISCUSSION for o in lst)
        }
        meta_sents = {i for i, lst in by_sent.items() if any(o.feature == META for o in lst)}
        features_at = {i: {o.feature for o in lst} for i, lst in by_sent.items()}
        for t in self._templates:
            if t.max_chars and len(chunk.text.strip()) > t.max_chars:
                continue
            if t.rule.chunks and chunk.kind not in t.rule.chunks:
                continue
            if t.first_sentence_only and not _opens_text(view, by_sent.get(0, ()), t.triggers):
                continue
            found = self._best_window(t, by_sent, features_at, n_sent)
            if found is None:
                continue
            lo, hi, feats = found
            core = [
                o
                for i in range(lo, hi + 1)
                for o in by_sent.get(i, ())
                if o.feature in t.require or o.feature in t.any_of
            ]
            quoted = bool(core) and all(o.quoted for o in core)
            source_shift = t.source_shift.get(ctx.source.value, 0)
            shift = source_shift
            if ctx.hidden:
                shift += t.hidden_shift
            # many features at once escalate, except from a trusted voice (the
            # user's own words) where they describe a rich preference
            if t.escalate_at and source_shift > -2 and len(feats - DISCUSSION) >= t.escalate_at:
                shift += 1
            damp = 0
            if t.discussion_damp:
                near = range(lo - DISCUSSION_RADIUS, hi + DISCUSSION_RADIUS + 1)
                meta_near = any(i in meta_sents for i in near)
                disc_near = any(i in discussion_sents for i in near)
                if quoted and (disc_near or meta_total >= CHUNK_META_MIN):
                    damp = 4
                elif meta_near or meta_total >= CHUNK_META_MIN:
                    damp = 3
                elif disc_near:
                    damp = 1
            if (
                damp
                and t.escalate_at
                and source_shift > -2
                and len(feats - DISCUSSION) >= t.escalate_at
            ):
                shift -= 1  # no escalation for a discussed attack
            level = LADDER.index(t.rule.severity) + shift - damp
            if level < 0 or (level == 0 and (damp or source_shift < 0)):
                # discussion of an attack, or a trusted voice's preference, that ends
                # up informational is no finding: several templates would add up
                continue
            severity = LADDER[min(level, len(LADDER) - 1)]
            if whole is not None:
                start, end = whole
            else:
                start = min(o.start for o in core) if core else view.sentence_span(lo)[0]
                end = max(o.end for o in core) if core else view.sentence_span(hi)[1]
            note = "+".join(sorted(feats - DISCUSSION))
            if quoted:
                note += " (quoted)"
            hit = Hit(rule_id=t.rule.id, start=start, end=end, severity=severity, note=note)
            current = best.get(t.rule.id)
            if current is None or _rank(hit) > _rank(current):
                best[t.rule.id] = hit

    @staticmethod
    def _best_window(
        t: _Template,
        by_sent: Mapping[int, list[_Occ]],
        features_at: Mapping[int, set[str]],
        n_sent: int,
    ) -> tuple[int, int, frozenset[str]] | None:
        found: tuple[int, int, frozenset[str]] | None = None
        for i in sorted(by_sent):
            if not (features_at[i] & t.triggers):
                continue
            if t.first_sentence_only and i != 0:
                continue
            lo = max(0, i - t.window)
            hi = min(n_sent - 1, i + t.window)
            feats: set[str] = set()
            for j in range(lo, hi + 1):
                feats |= features_at.get(j, set())
            if not t.require <= feats:
                continue
            if len(t.any_of & feats) < t.min_any:
                continue
            frozen = frozenset(feats)
            if found is None or len(frozen) > len(found[2]):
                found = (lo, hi, frozen)
        if found is None:
            return None
        # narrow the window to the sentences that hold the template's features
        lo, hi, best_feats = found
        wanted = t.require | t.any_of
        holding = [j for j in range(lo, hi + 1) if features_at.get(j, set()) & wanted]
        return (holding[0], holding[-1], best_feats) if holding else found


def _opens_text(view: View, occs: Sequence[_Occ], features: frozenset[str]) -> bool:
    """Whether one of `features` is the first word of the text (after markup)."""
    text = view.text
    lead = len(text) - len(text.lstrip(" \t\n#>*-•"))
    return any(o.start == lead and o.feature in features for o in occs)


def _rank(hit: Hit) -> int:
    return LADDER.index(hit.severity) if hit.severity is not None else 0


def _at_clause_start(text: str, pos: int) -> bool:
    """Whether `pos` starts a clause: nothing but spaces, bullets or list numbers
    between it and the previous clause boundary."""
    i = pos - 1
    steps = 0
    while i >= 0 and steps < 12:
        c = text[i]
        if c in _CLAUSE_BEFORE:
            return True
        if c in _BULLETS and i + 1 < pos and text[i + 1] in " \t":
            return True
        if c in " \t" or c.isdigit():
            i -= 1
            steps += 1
            continue
        # "please tell", "and then send": a few softeners are still a clause start
        j = i
        while j >= 0 and text[j].isalpha():
            j -= 1
        word = text[j + 1 : i + 1]
        if word in _SOFTENERS:
            i = j
            steps += 1
            continue
        return False
    return i < 0


_SOFTENERS = frozenset({"please", "kindly", "then", "and", "also", "just", "simply", "now", "so"})


__all__ = ["InjectionAnalyzer"]
