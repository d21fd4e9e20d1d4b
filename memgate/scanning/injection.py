"""The `injection` detector: prompt injection and memory poisoning, English and Chinese.

In memory, injection is rarely the textbook phrase. What marks a poisoned
write is a *combination* of features in one sentence or a few adjacent ones:
a directive addressed to the assistant, a persistence marker, a memory write,
an authority claim, an override, a claim about the user's wishes made by a
third party, a redirection of tools or data, a trigger, secrecy, a safety
bypass, decode-and-follow, role-play framing. A memory holds facts, notes and
preferences: text from a non-user source that addresses the assistant with a
task, a question or standing orders is data pretending to be a command, weak
alone (review) and strong with the features above (reject).

How it works, cheapest first (STYLE.md #3):

1. The words of the chunk are collected once (`Lexicon.keys`: a byte
   translate and split, prefixes resolved through a memo, Chinese keys by
   substring). An entry of the lexicon (data: `params.lexicon` of the rules,
   see `memgate.scanning._injection_lexicon`) is a candidate only if every
   required token has an alternative among them; if the candidates cannot
   satisfy any template, the chunk is done (most chunks end here).
2. Otherwise the chunk's natural-language text is taken (prose as is; JSON
   string values and code comments/strings with the syntax blanked, and JSON
   values glued together when that can form a new word), and each candidate
   is matched with its bounded regex at the occurrences of its anchor.
   Sentences and quotations are computed only then.
3. Each rule is a template: `params.require` (all of these features) and
   `params.any` (at least `params.min_any` of these) within `params.window`
   adjacent sentences (a negative window: the whole chunk). The best window
   per rule becomes one hit.
4. The severity is then weighed by context: the source (`params.source_shift`,
   default user -3 steps, agent -1: the same words from the user are usually
   a preference), a hidden layer (+1), discussion of an attack rather than an
   attack (quoted, "for example", "attackers often write": -1 to -3;
   `params.discussion_damp = "quoted"` damps only a quoted order), and many
   features at once (`params.escalate_at`: +1). A quoted single word (`the
   password is "forever"`) is a value, not a feature.

Features `example` and `meta` are not matched by templates; they mark
discussion (a quotation introduced as an example, a text about injection).
The feature `question` is built in (see `QUESTION`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from memgate.domain import Chunk, ChunkKind, Severity
from memgate.scanning._injection_lexicon import Entry, Key, Lexicon, build_lexicon
from memgate.scanning._injection_text import (
    MAX_VIEW_CHARS,
    View,
    glued_words,
    json_joined,
    json_value_spans,
    json_values,
    language_text,
    lower_same_length,
)
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
QUESTION = "question"
"""A built-in feature (no lexicon): the text opens with a question that is most
of it (`What movies are playing this weekend?`), other than a quantity problem
about numbers the text itself gives (a math exercise)."""
BUILTIN_FEATURES = frozenset({QUESTION})
_QUESTION_MARKS = ("?", "？", "؟")
_QUESTION_TAIL = " \t\n\"'”’)]」』"
_HOW_QUANTITY = re.compile(r"\bhow (?:many|much|far|long|old|fast|often|tall)\b")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
QUESTION_SHARE = 0.4
"""The opening question must be at least this share of the text (or the text at
most two sentences): a FAQ entry that goes on to answer is a note."""
DISCUSSION = frozenset({EXAMPLE, META})
MAX_MATCHES_PER_ENTRY = 64
DISCUSSION_RADIUS = 2
CHUNK_META_MIN = 2
"""Meta markers anywhere in the chunk that make a quotation read as discussion."""

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
    discussion_damp: str
    """`all` (attack vocabulary or examples nearby lower the severity), `quoted`
    (only a quoted example of the template's features is lowered), `none`."""
    first_sentence_only: bool
    max_chars: int
    hidden_shift: int
    triggers: frozenset[str] = field(default=frozenset())
    level: int = 0
    """The rule's severity as a step on `LADDER`."""


class _Occ(NamedTuple):
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


def _damp_mode(value: object, rule_id: str) -> str:
    if value is True or value == "all":
        return "all"
    if value is False or value == "none":
        return "none"
    if value == "quoted":
        return "quoted"
    raise ValueError(f'{rule_id}: params.discussion_damp must be true, false or "quoted"')


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
        # a negative window is the whole chunk
        window=int(p.get("window", 1)),
        escalate_at=int(p.get("escalate_at", 0)),
        source_shift=shift,
        discussion_damp=_damp_mode(p.get("discussion_damp", True), rule.id),
        first_sentence_only=bool(p.get("first_sentence_only", False)),
        max_chars=int(p.get("max_chars", 0)),
        hidden_shift=int(p.get("hidden_shift", 1)),
        # a window is only looked at around sentences holding one of these
        triggers=require if require else any_of,
        level=LADDER.index(rule.severity),
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
        # templates by the features that can trigger them (a window is only
        # looked at around a sentence holding one)
        by_trigger: dict[str, list[int]] = {}
        for index, t in enumerate(self._templates):
            for feature in t.triggers:
                by_trigger.setdefault(feature, []).append(index)
        self._by_trigger = {k: tuple(v) for k, v in by_trigger.items()}
        known = self._lexicon.features | BUILTIN_FEATURES
        for t in self._templates:
            missing = (t.require | t.any_of) - known
            if missing:
                raise ValueError(f"{t.rule.id}: no lexicon for features {sorted(missing)}")
        # markers glued to the previous JSON field ("...noteSYSTEM: ..."):
        # only those with punctuation or at a clause start are looked for loosely
        self._loose = tuple(
            (i, tuple(a for a, _ in e.anchor_keys))
            for i, e in enumerate(self._lexicon.entries)
            if e.feature in LOOSE
            and (e.clause_start or any(not a.isalnum() for a, _ in e.anchor_keys))
        )
        self._loose_anchors = tuple(sorted({a for _, anchors in self._loose for a in anchors}))

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterator[Hit]:
        raw = chunk.text
        if len(raw) > MAX_VIEW_CHARS:
            raw = raw[:MAX_VIEW_CHARS]
        if not self._templates or len(raw) < 4 or raw.isspace():
            return iter(())
        best: dict[str, Hit] = {}
        lower = lower_same_length(raw)
        # the words of the whole chunk are a superset of those of its language
        # part: gate on them before building any view
        keys = self._lexicon.keys(lower)
        builtin: frozenset[str] = frozenset()
        if chunk.kind is ChunkKind.PROSE and any(q in raw for q in _QUESTION_MARKS):
            builtin = BUILTIN_FEATURES
        candidates = self._lexicon.candidates(keys)
        spans = json_value_spans(lower) if chunk.kind is ChunkKind.JSON else None
        if self._possible(candidates, builtin, chunk):
            text = language_text(chunk, lower, spans)
            if not text.isspace():
                view = View(text)
                self._collect(view, candidates, keys, builtin, chunk, ctx, best, None)
        values = json_values(lower, spans) if spans else []
        if values and self._glue_matters(values):
            joined = json_joined(values)
            jkeys = self._lexicon.keys(joined)
            found = set(self._lexicon.candidates(jkeys))
            for index, anchors in self._loose:
                if index not in found and any(a in joined for a in anchors):
                    found.add(index)
            jcandidates = sorted(found)
            if self._possible(jcandidates, frozenset(), chunk):
                view = View(joined, loose=True)
                whole = (0, len(raw))
                self._collect(view, jcandidates, jkeys, frozenset(), chunk, ctx, best, whole)
        if not best:
            return iter(())
        return iter(sorted(best.values(), key=lambda h: (h.start, h.rule_id)))

    # -- feature extraction ---------------------------------------------------

    def _possible(self, candidates: list[int], builtin: frozenset[str], chunk: Chunk) -> bool:
        """Whether the features the candidate entries could provide satisfy some
        template (else no view needs to be built)."""
        if not candidates and not builtin:
            return False
        entries = self._lexicon.entries
        feats = {entries[i].feature for i in candidates}
        feats |= builtin
        size = -1
        for t in self._templates:
            if not t.require <= feats or len(t.any_of & feats) < t.min_any:
                continue
            if t.rule.chunks and chunk.kind not in t.rule.chunks:
                continue
            if t.max_chars:
                if size < 0:
                    size = len(chunk.text.strip())
                if size > t.max_chars:
                    continue
            return True
        return False

    def _glue_matters(self, values: list[str]) -> bool:
        """Whether reading the JSON values glued together can find more than
        the main view: a word formed across two values is a gate key, or a
        marker (`SYSTEM:`) sits glued to the end of the previous value."""
        heads = self._loose_anchors
        for value in values[1:]:
            if value.lstrip().startswith(heads):
                return True
            if not value.isascii():
                return True  # Chinese text has no word boundaries to lose
        glued = glued_words(values)
        return bool(glued) and bool(self._lexicon.keys_of(glued) & self._lexicon.all_keys)

    def _occurrences(self, view: View, chosen: Sequence[int], keys: set[Key]) -> list[_Occ]:
        out: list[_Occ] = []
        entries = self._lexicon.entries
        anchor_keys = self._lexicon.anchor_keys
        loose = view.loose
        text = view.text
        for index in chosen:
            entry = entries[index]
            if loose and entry.feature in LOOSE:
                anchors = [a for a, _ in anchor_keys[index] if a in text]
            else:
                anchors = [a for a, k in anchor_keys[index] if k is None or k in keys]
            if anchors:
                _match_entry(entry, anchors, view, out)
        return out

    # -- templates ------------------------------------------------------------

    def _collect(
        self,
        view: View,
        candidates: Sequence[int],
        keys: set[Key],
        builtin: frozenset[str],
        chunk: Chunk,
        ctx: ScanContext,
        best: dict[str, Hit],
        whole: tuple[int, int] | None,
    ) -> None:
        # every feature counts once a template may fire: features beyond a
        # template's own raise its severity (escalate_at)
        occs = self._occurrences(view, candidates, keys)
        if QUESTION in builtin:
            question = _opening_question(view)
            if question is not None:
                occs.append(question)
        if not occs:
            return
        n_sent = len(view.starts)
        by_sent: dict[int, list[_Occ]] = {}
        for occ in occs:
            by_sent.setdefault(view.sentence_of(occ.start), []).append(occ)
        order = sorted(by_sent)
        features_at = {i: {o.feature for o in lst} for i, lst in by_sent.items()}
        present: set[str] = set()
        for fs in features_at.values():
            present |= fs
        meta_total = sum(1 for o in occs if o.feature == META)
        discussion_sents = {i for i, fs in features_at.items() if fs & DISCUSSION}
        meta_sents = {i for i, fs in features_at.items() if META in fs}
        size = -1
        source_value = ctx.source.value
        by_trigger = self._by_trigger
        indices: set[int] = set()
        for feature in present:
            indices.update(by_trigger.get(feature, ()))
        templates = self._templates
        for index in sorted(indices):
            t = templates[index]
            if not t.require <= present or len(t.any_of & present) < t.min_any:
                continue
            if t.rule.chunks and chunk.kind not in t.rule.chunks:
                continue
            if t.max_chars:
                if size < 0:
                    size = len(chunk.text.strip())
                if size > t.max_chars:
                    continue
            if t.first_sentence_only and not _opens_text(view, by_sent.get(0, ()), t.triggers):
                continue
            found = _best_window(t, order, features_at, n_sent)
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
            source_shift = t.source_shift.get(source_value, 0)
            shift = source_shift
            if ctx.hidden:
                shift += t.hidden_shift
            # many features at once escalate, except from a trusted voice (the
            # user's own words) where they describe a rich preference
            many = (
                t.escalate_at > 0 and source_shift > -2 and len(feats - DISCUSSION) >= t.escalate_at
            )
            if many:
                shift += 1
            damp = 0
            if t.discussion_damp == "quoted":
                # the order itself (the required features) only quoted: an example
                ordered = [o for o in core if o.feature in t.require]
                if ordered and all(o.quoted for o in ordered):
                    damp = 4
            elif t.discussion_damp == "all" and (discussion_sents or meta_total):
                near = range(lo - DISCUSSION_RADIUS, hi + DISCUSSION_RADIUS + 1)
                meta_near = any(i in meta_sents for i in near)
                disc_near = any(i in discussion_sents for i in near)
                if quoted and (disc_near or meta_total >= CHUNK_META_MIN):
                    damp = 4
                elif meta_near or meta_total >= CHUNK_META_MIN:
                    damp = 3
                elif disc_near:
                    damp = 1
            if damp and many:
                shift -= 1  # no escalation for a discussed attack
            level = t.level + shift - damp
            if level < 0 or (level == 0 and (damp or source_shift < 0)):
                # discussion of an attack, or a trusted voice's preference, that ends
                # up informational is no finding: several templates would add up
                continue
            level = min(level, len(LADDER) - 1)
            current = best.get(t.rule.id)
            if current is not None and level <= _rank(current):
                continue
            if whole is not None:
                start, end = whole
            elif core:
                start, end = core[0].start, core[0].end
                for o in core:
                    if o.start < start:
                        start = o.start
                    if o.end > end:
                        end = o.end
            else:
                start, end = view.sentence_span(lo)[0], view.sentence_span(hi)[1]
            note = "+".join(sorted(feats - DISCUSSION))
            if quoted:
                note += " (quoted)"
            best[t.rule.id] = Hit(
                rule_id=t.rule.id, start=start, end=end, severity=LADDER[level], note=note
            )


def _match_entry(entry: Entry, anchors: Sequence[str], view: View, out: list[_Occ]) -> None:
    """Match the entry at each occurrence of its anchors (str.find is far cheaper
    than scanning the whole text with a many-branch regex); append what holds."""
    lower = view.text
    n = len(lower)
    loose = view.loose and entry.feature in LOOSE
    bounded = entry.left_boundary and not loose
    clause = entry.clause_start and not loose
    in_place = entry.in_place
    pattern = entry.pattern
    negatable = entry.feature in NEGATABLE
    seen: set[int] = set()
    seen_starts: set[int] = set()
    count = 0
    for anchor in anchors:
        whole = anchor in entry.word_anchors
        pos = lower.find(anchor)
        finds = 0
        while pos >= 0 and finds < MAX_MATCHES_PER_ENTRY:
            finds += 1
            start = pos
            pos = lower.find(anchor, pos + 1)
            if start in seen:
                continue
            if bounded and start > 0:
                prev = lower[start - 1]
                if prev.isalnum() or prev == "_":
                    continue
                if whole:
                    nxt = start + len(anchor)
                    if nxt < n and (lower[nxt].isalnum() or lower[nxt] == "_"):
                        continue  # another anchor may be the whole word here
            seen.add(start)
            if in_place:
                if clause and not _at_clause_start(lower, start):
                    continue  # cheap check before the regex
                m = pattern.match(lower, start)
            else:
                m = pattern.search(lower, max(0, start - entry.before), start + entry.after)
                if m is not None and not m.start() <= start < m.end():
                    m = None
            if m is None:
                continue
            start, end = m.span()
            if end == start or start in seen_starts:
                continue
            seen_starts.add(start)
            if not in_place:
                if bounded and start > 0:
                    prev = lower[start - 1]
                    if prev.isalnum() or prev == "_":
                        continue
                if clause and not _at_clause_start(lower, start):
                    continue
            if negatable and _NEGATION_BEFORE.search(
                lower, max(0, start - NEGATION_LOOKBACK), start
            ):
                continue
            quoted = view.quoted(start, end)
            if quoted == 2:  # a quoted one-word value is a name, not a phrase
                continue
            out.append(_Occ(entry.feature, start, end, quoted == 1))
            count += 1
            if count >= MAX_MATCHES_PER_ENTRY:
                return


def _best_window(
    t: _Template,
    order: Sequence[int],
    features_at: Mapping[int, set[str]],
    n_sent: int,
) -> tuple[int, int, frozenset[str]] | None:
    """The window of sentences (around a sentence holding a trigger feature)
    that satisfies the template with the most features, narrowed to the
    sentences that hold the template's features."""
    found: tuple[int, int, frozenset[str]] | None = None
    empty: set[str] = set()
    for i in order:
        if not (features_at[i] & t.triggers):
            continue
        if t.first_sentence_only and i != 0:
            continue
        if t.window < 0:
            lo, hi = 0, n_sent - 1
            feats: set[str] = set()
            for fs in features_at.values():
                feats |= fs
        else:
            lo = max(0, i - t.window)
            hi = min(n_sent - 1, i + t.window)
            feats = set()
            for j in range(lo, hi + 1):
                feats |= features_at.get(j, empty)
        if not t.require <= feats or len(t.any_of & feats) < t.min_any:
            continue
        if found is None or len(feats) > len(found[2]):
            found = (lo, hi, frozenset(feats))
        if t.window < 0:
            break
    if found is None:
        return None
    lo, hi, best_feats = found
    wanted = t.require | t.any_of
    holding = [j for j in order if lo <= j <= hi and features_at[j] & wanted]
    return (holding[0], holding[-1], best_feats) if holding else found


def _opening_question(view: View) -> _Occ | None:
    """The `question` feature: see `QUESTION`."""
    text = view.text
    body = text.strip()
    if not body:
        return None
    lead = len(text) - len(text.lstrip(" \t\n#>*-•"))
    first = view.sentence_of(lead)
    e = view.sentence_span(first)[1]
    sentence = text[lead:e].rstrip(_QUESTION_TAIL)
    if not sentence.endswith(_QUESTION_MARKS):
        return None
    sentences = sum(
        1 for i in range(len(view.starts)) if text[slice(*view.sentence_span(i))].strip()
    )
    if sentences > 2 and len(sentence) < QUESTION_SHARE * len(body):
        return None
    if (_HOW_QUANTITY.search(text) and _NUMBER.search(text)) or len(_NUMBER.findall(text)) >= 2:
        return None  # a quantity problem about numbers the text gives
    return _Occ(QUESTION, lead, lead + len(sentence), False)


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
