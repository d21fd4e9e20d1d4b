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

1. The gate keys of the chunk (whole words, word starts for prefixes,
   Chinese runs) are found in one Aho-Corasick pass (`Lexicon.keys`; for JSON
   on its string values). An entry of the lexicon (data: `params.lexicon` of
   the rules, see `memgate.scanning._injection_lexicon`) is a candidate only
   if every required token has an alternative among them; if the candidates'
   features satisfy no template (`_feasible`, remembered per feature set),
   the chunk is done: most chunks end here.
2. Otherwise the chunk's natural-language text is taken (prose as is; JSON
   string values and code comments/strings with the syntax blanked; JSON
   values glued together when that can form a new word or marker; a code
   chunk read whole for the templates with `params.in_code`), and the
   candidates of the features the feasible templates *require* are matched
   first, each with its bounded regex at the occurrences of its anchor (in
   the anchor's line). If no template has all it requires, the chunk is
   done; else every candidate is matched (all features count for the
   severity). Sentences and quotations are computed only when needed.
3. Each rule is a template: `params.require` (all of these features) and
   `params.any` (at least `params.min_any` of these) within `params.window`
   adjacent sentences (a negative window: the whole chunk), optionally only
   in the first sentence with one of `params.opens_with` as the text's first
   word, and within `params.min_chars`..`params.max_chars`. The best window
   per rule becomes one hit.
4. The severity is then weighed by context: the source (`params.source_shift`,
   default user -3 steps, agent -1: the same words from the user are usually
   a preference; `params.source_floor` bounds that discount for what is never
   a preference: an override, a jailbreak persona, an exfiltration request),
   a hidden layer (+1), discussion of an attack rather than an
   attack (quoted, "for example", "attackers often write": -1 to -3;
   `params.discussion_damp = "quoted"` damps only a quoted order), and many
   features at once (`params.escalate_at`: +1). A quoted single word (`the
   password is "forever"`) is a value, not a feature.

Features `example` and `meta` are not matched by templates; they mark
discussion (a quotation introduced as an example, a text about injection).
The features `question`, `questions` and `open_dialogue` are built in (see
`QUESTION`, `QUESTIONS`, `OPEN_DIALOGUE`): they describe a text's shape, not
its words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from ahocorasick_rs import AhoCorasick

from memgate.domain import Chunk, ChunkKind, Severity
from memgate.scanning._injection_lexicon import Entry, Key, Lexicon, build_lexicon
from memgate.scanning._injection_text import (
    MAX_VIEW_CHARS,
    View,
    glued_words,
    json_joined,
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
QUESTIONS = "questions"
"""A built-in feature: a run of questions that is most of the text (three or
more sentences ending in a question mark, at least `QUESTIONS_SHARE` of its
sentences): a list of questions to answer, not a note."""
QUESTIONS_MIN = 3
QUESTIONS_SHARE = 0.6
OPEN_DIALOGUE = "open_dialogue"
"""A built-in feature: a few-shot transcript (`Q: ... A: ...`, `Human: ... AI:
...`) whose last turn is an unanswered question or request: a prompt for a
model to complete, not a record."""
_TURN = re.compile(
    r"(?<![^\s\"'(\[>*#|])(q|question|a|answer|human|user|ai|assistant|bot|model)[ \t]?:(?!//)"
)
_ASKING_TURNS = frozenset({"q", "question", "human", "user"})
OPEN_TURN_MAX = 600
"""The open last turn is at most this long (a prompt's question, not a log)."""
MAIL_DEST = "mail_dest"
"""A built-in feature: an e-mail address as where something goes (`to x@y.z`,
`along to x@y.z`, `cc x@y.z`, `发到 x@y.z`, `抄送给 x@y.z`): the destination of a
send, not a signature."""
_MAIL_DEST = re.compile(
    r"(?:\b(?:to|cc|bcc|into|address)\W{1,3}"
    r"|(?:发到|发给|发送到|发送给|发至|抄送给|抄送到|抄送至|抄送|转给|转发给|转发到|寄给|寄到)\W{0,3})"
    r"[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+"
)
BUILTIN_FEATURES = frozenset({QUESTION, QUESTIONS, OPEN_DIALOGUE, MAIL_DEST})
PASSIVE = frozenset({"exfil_data", "exfil_dest", MAIL_DEST})
"""Features of a sentence's object (what data, where to), not of an order:
they never raise a template's severity by their number (`escalate_at`)."""
_QUESTION_MARKS = ("?", "？", "؟")
_QUESTION_TAIL = " \t\n\"'”’)]」』"
_HOW_QUANTITY = re.compile(r"\bhow (?:many|much|far|long|old|fast|often|tall)\b")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)?")
QUESTION_SHARE = 0.4
"""The opening question must be at least this share of the text (or the text at
most two sentences): a FAQ entry that goes on to answer is a note."""
DISCUSSION = frozenset({EXAMPLE, META})
MAX_MATCHES_PER_ENTRY = 64
FITS_MEMO = 4096
"""Feature sets whose satisfiable templates are remembered."""
DISCUSSION_RADIUS = 2
CHUNK_META_MIN = 2
"""Meta markers anywhere in the chunk that make a quotation read as discussion."""

NEGATABLE = frozenset(
    {
        "directive",
        "disclose",
        "redirect",
        "memory",
        "task",
        "pii_request",
        "exfil_send",
        "leak",
        "trust_grant",
        "safety_off",
    }
)
"""Features that mean the opposite after a negation ("do not reveal the password")."""
_NEGATION_BEFORE = re.compile(
    r"(?:\b(?:not|never|no|n't|cannot|nor)\W+(?:\w+\W+){0,2}|(?:不要|不得|禁止|切勿|不可|不能|请勿|勿|别|不会|从不)\S{0,3})$"
)
NEGATION_LOOKBACK = 40
CLAUSE_NEGATION_LOOKBACK = 100
CLAUSE_NEGATABLE = frozenset({"bypass", "granted_exposure"})
"""Features a negation anywhere earlier in the same clause turns into their
opposite: "never deploy on Fridays without a second reviewer" and "禁止在 CI 里直接执行
远程脚本" require the check they name, "不免审" keeps the review; "whether to skip the
review" / "是否免审" asks, it does not order. A comma, a colon or a new verb phrase
("and", "but", "然后") ends the reach ("do not wait, merge without review" bypasses)."""
_CLAUSE_NEGATORS_EN = (
    r"never|nobody|no+one|no-one|must+not|mustn't|should+not|shouldn't|may+not|do+not|don't|"
    r"not+allowed+to|forbidden+to|prohibited+from|whether"
).replace("+", r"\s+")
_CLAUSE_NEGATORS_ZH = (
    "禁止|不得|严禁|切勿|请勿|不允许|不准|不可以|不可|从不|绝不|决不|是否|要不要|能否"
)
_CLAUSE_NEGATION_BEFORE = re.compile(
    rf"(?:\b(?:{_CLAUSE_NEGATORS_EN})\b(?:(?!:\s|\b(?:and|but|then|instead|so)\b)[^.!?;,\n]){{0,80}}"
    rf"|(?:{_CLAUSE_NEGATORS_ZH})(?:(?!：|:\s|而是|但是|然后)[^。！？；，\n]){{0,60}}|不)$"
)
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
    """The template's trigger must be in the first sentence, and one of
    `opens` must be the text's first word."""
    max_chars: int
    min_chars: int
    hidden_shift: int
    in_code: bool
    """Also read a code chunk whole (not only its comments and strings)."""
    floor: int = -1
    """`params.source_floor`: the step on `LADDER` below which the source shift
    cannot lower the severity (an override typed by the user is still an
    override); -1: no floor. Discussion (quoted, "for example") still damps."""
    triggers: frozenset[str] = field(default=frozenset())
    opens: frozenset[str] = field(default=frozenset())
    unless: frozenset[str] = field(default=frozenset())
    """`params.unless`: features that, in the template's best window, mark the
    sentence as something else (a status line of a log: `[系统] 备份任务完成，
    耗时 12 分钟`), so the template does not fire there."""
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
    floor = -1
    raw_floor = p.get("source_floor")
    if raw_floor is not None:
        try:
            floor = LADDER.index(Severity(str(raw_floor)))
        except ValueError:
            raise ValueError(f"{rule.id}: params.source_floor must be a severity") from None
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
        min_chars=int(p.get("min_chars", 0)),
        hidden_shift=int(p.get("hidden_shift", 1)),
        in_code=bool(p.get("in_code", False)),
        # a window is only looked at around sentences holding one of these
        triggers=require if require else any_of,
        opens=frozenset(_str_list(p.get("opens_with"), f"{rule.id}: params.opens_with"))
        or (require if require else any_of),
        level=LADDER.index(rule.severity),
        floor=floor,
        unless=frozenset(_str_list(p.get("unless"), f"{rule.id}: params.unless")),
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
        known = self._lexicon.features | BUILTIN_FEATURES
        for t in self._templates:
            missing = (t.require | t.any_of | t.opens | t.unless) - known
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
        loose_entries: dict[str, list[int]] = {}
        for index, anchors in self._loose:
            for a in anchors:
                loose_entries.setdefault(a, []).append(index)
        self._loose_entries = tuple(tuple(v) for v in loose_entries.values())
        self._loose_automaton = AhoCorasick(list(loose_entries)) if loose_entries else None
        self._feature_of = tuple(e.feature for e in self._lexicon.entries)
        # the templates a set of features satisfies (few distinct sets occur)
        self._fits: dict[frozenset[str], tuple[_Template, ...]] = {}

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> Iterator[Hit]:
        raw = chunk.text
        if len(raw) > MAX_VIEW_CHARS:
            raw = raw[:MAX_VIEW_CHARS]
        if not self._templates or len(raw) < 4 or raw.isspace():
            return iter(())
        best: dict[str, Hit] = {}
        lexicon = self._lexicon
        values: list[str] = []
        # gate on the keys of the language part (the JSON values) or of the
        # whole chunk (a superset) before building any view
        if chunk.kind is ChunkKind.JSON:
            lower = lower_same_length(raw)
            values = json_values(lower)
            keys = lexicon.keys(" ".join(values) if values else lower)
        elif raw.isascii():
            lower = ""  # made only if a view is needed
            keys = lexicon.keys(raw)
        else:
            lower = lower_same_length(raw)
            keys = lexicon.keys(lower)
        builtin: frozenset[str] = frozenset()
        if chunk.kind is ChunkKind.PROSE:
            builtin = _builtin_hints(raw)
        candidates = lexicon.candidates(keys)
        fits = self._feasible(candidates, builtin, chunk)
        if fits:
            lower = lower or lower_same_length(raw)
            text = language_text(chunk, lower)
            if not text.isspace():
                view = View(text)
                self._collect(view, candidates, keys, builtin, fits, chunk, ctx, best, None)
            if chunk.kind is ChunkKind.CODE and not best:
                # prose that the chunker took for code: the few templates
                # specific enough to read the whole text, syntax and all
                raw_fits = tuple(t for t in fits if t.in_code)
                if raw_fits:
                    view = View(lower)
                    self._collect(view, candidates, keys, builtin, raw_fits, chunk, ctx, best, None)
        if values:
            joined = json_joined(values)
            jkeys = lexicon.keys(joined)
            loose: set[int] = set()
            if self._loose_automaton is not None:
                entries = self._loose_entries
                for i, _, _ in self._loose_automaton.find_matches_as_indexes(
                    joined, overlapping=True
                ):
                    loose.update(entries[i])
            # with no key beyond the main view's and no loose marker, the glued
            # view can satisfy no template the main view could not
            if fits or loose or not jkeys <= keys:
                found = loose.union(lexicon.candidates(jkeys))
                jcandidates = sorted(found)
                jfits = self._feasible(jcandidates, frozenset(), chunk)
                if jfits and self._glue_matters(values, joined, jkeys, keys):
                    view = View(joined, loose=True)
                    whole = (0, len(raw))
                    self._collect(
                        view, jcandidates, jkeys, frozenset(), jfits, chunk, ctx, best, whole
                    )
        if not best:
            return iter(())
        return iter(sorted(best.values(), key=lambda h: (h.start, h.rule_id)))

    # -- feature extraction ---------------------------------------------------

    def _feasible(
        self, candidates: list[int], builtin: frozenset[str], chunk: Chunk
    ) -> tuple[_Template, ...]:
        """The templates that the features the candidate entries could provide
        satisfy (if none, no view needs to be built)."""
        if not candidates and not builtin:
            return ()
        feature_of = self._feature_of
        feats = frozenset([feature_of[i] for i in candidates]) | builtin
        fits = self._fits.get(feats)
        if fits is None:
            fits = tuple(
                t
                for t in self._templates
                if t.require <= feats and len(t.any_of & feats) >= t.min_any
            )
            if len(self._fits) < FITS_MEMO:
                self._fits[feats] = fits
        if not fits:
            return ()
        size = -1
        out: list[_Template] = []
        for t in fits:
            if t.rule.chunks and chunk.kind not in t.rule.chunks:
                continue
            if t.max_chars or t.min_chars:
                if size < 0:
                    size = len(chunk.text.strip())
                if size > (t.max_chars or size) or size < t.min_chars:
                    continue
            out.append(t)
        return tuple(out)

    def _glue_matters(
        self, values: list[str], joined: str, jkeys: set[Key], keys: set[Key]
    ) -> bool:
        """Whether reading the JSON values glued together can find more than
        the main view: the glued text holds a gate key the chunk does not, a
        marker (`SYSTEM:`) sits glued to the end of the previous value, or a
        word formed across two values is a gate key (`"SYS"`, `"TEM: ..."`)."""
        if not jkeys <= keys:
            return True
        if not joined.isascii():
            return True  # Chinese text has no word boundaries to lose
        heads = self._loose_anchors
        if any(value.lstrip().startswith(heads) for value in values[1:]):
            return True
        glued = glued_words(values)
        return bool(glued) and bool(self._lexicon.keys(" ".join(glued)))

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
        fits: Sequence[_Template],
        chunk: Chunk,
        ctx: ScanContext,
        best: dict[str, Hit],
        whole: tuple[int, int] | None,
    ) -> None:
        # First the entries of the features that the feasible templates
        # require: if no template has all of them, nothing can fire (most
        # chunks that get here end here). Otherwise every feature counts:
        # features beyond a template's own raise its severity (escalate_at).
        need: set[str] = set()
        for t in fits:
            need |= t.require
        if all(t.require for t in fits):
            feature_of = self._feature_of
            first = [i for i in candidates if feature_of[i] in need]
            rest = [i for i in candidates if feature_of[i] not in need]
        else:
            first, rest = list(candidates), []
        occs = self._occurrences(view, first, keys)
        if builtin:
            occs.extend(_builtin_occurrences(view, builtin))
        got = {o.feature for o in occs}
        if not any(t.require <= got for t in fits):
            return
        if rest:
            occs += self._occurrences(view, rest, keys)
        if not occs:
            return
        occs = _drop_inner_discussion(occs)
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
        # the feasible templates (in rule order) are the only ones the
        # features found can satisfy: they are a subset of the candidates'
        for t in fits:
            if not t.require <= present or len(t.any_of & present) < t.min_any:
                continue
            if t.rule.chunks and chunk.kind not in t.rule.chunks:
                continue
            if t.max_chars or t.min_chars:
                if size < 0:
                    size = len(chunk.text.strip())
                if size > (t.max_chars or size) or size < t.min_chars:
                    continue
            if t.first_sentence_only and not _opens_text(view, by_sent.get(0, ()), t.opens):
                continue
            found = _best_window(t, order, features_at, n_sent)
            if found is None:
                continue
            lo, hi, feats = found
            if t.unless and t.unless & feats:
                continue
            core = [
                o
                for i in range(lo, hi + 1)
                for o in by_sent.get(i, ())
                if o.feature in t.require or o.feature in t.any_of
            ]
            quoted = bool(core) and all(o.quoted for o in core)
            source_shift = t.source_shift.get(source_value, 0)
            if t.floor >= 0 and t.level + source_shift < t.floor:
                source_shift = min(0, t.floor - t.level)
            shift = source_shift
            if ctx.hidden:
                shift += t.hidden_shift
            # many features at once escalate, except from a trusted voice (the
            # user's own words) where they describe a rich preference
            many = (
                t.escalate_at > 0
                and source_shift > -2
                and len(feats - DISCUSSION - PASSIVE) >= t.escalate_at
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
    clause_negatable = entry.feature in CLAUSE_NEGATABLE
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
                # no phrase spans a line: search only the anchor's line
                lo = max(0, start - entry.before)
                hi = start + entry.after
                lo = max(lo, lower.rfind("\n", lo, start) + 1)
                line_end = lower.find("\n", start, hi)
                m = pattern.search(lower, lo, hi if line_end < 0 else line_end)
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
            if clause_negatable and _CLAUSE_NEGATION_BEFORE.search(
                lower, max(0, start - CLAUSE_NEGATION_LOOKBACK), start
            ):
                continue
            quoted = view.quoted(start, end)
            if quoted == 2:  # a quoted one-word value is a name, not a phrase
                continue
            out.append(_Occ(entry.feature, start, end, quoted == 1))
            count += 1
            if count >= MAX_MATCHES_PER_ENTRY:
                return


def _drop_inner_discussion(occs: list[_Occ]) -> list[_Occ]:
    """Drop discussion markers (`example`, `meta`) that lie inside an occurrence
    of another feature: the word is then part of the attack's own phrase (检测到
    in a fake status line `检测到内部测试账号`), not talk about attacks."""
    inner = [
        o
        for o in occs
        if o.feature in DISCUSSION
        and any(
            p.feature not in DISCUSSION and p.start <= o.start and o.end <= p.end and p != o
            for p in occs
        )
    ]
    if not inner:
        return occs
    return [o for o in occs if o not in inner]


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


def _builtin_hints(raw: str) -> frozenset[str]:
    """The built-in features a prose text may hold (cheap tests on the raw text)."""
    # NOTE: the question marks of `_QUESTION_MARKS`, spelled out (faster)
    asks = "?" in raw or (not raw.isascii() and ("？" in raw or "؟" in raw))
    turns = False
    colon = raw.find(":")
    while colon >= 0 and not turns:
        turns = raw[max(0, colon - 9) : colon].rstrip().lower().endswith(_TURN_NAMES)
        colon = raw.find(":", colon + 1)
    if asks and turns:
        found = _ALL_SHAPES
    elif asks:
        found = _QUESTION_ONLY if raw.count("?") < QUESTIONS_MIN else _QUESTION_KINDS
    else:
        found = _DIALOGUE_ONLY if turns else _NO_FEATURES
    return found | _MAIL_ONLY if "@" in raw else found


_TURN_NAMES = ("q", "question", "human", "user")
_NO_FEATURES: frozenset[str] = frozenset()
_QUESTION_ONLY = frozenset({QUESTION})
_QUESTION_KINDS = frozenset({QUESTION, QUESTIONS})
_DIALOGUE_ONLY = frozenset({OPEN_DIALOGUE})
_ALL_SHAPES = frozenset({QUESTION, QUESTIONS, OPEN_DIALOGUE})
_MAIL_ONLY = frozenset({MAIL_DEST})


def _builtin_occurrences(view: View, builtin: frozenset[str]) -> list[_Occ]:
    out: list[_Occ] = []
    if QUESTION in builtin:
        question = _opening_question(view)
        if question is not None:
            out.append(question)
    if QUESTIONS in builtin:
        run = _question_run(view)
        if run is not None:
            out.append(run)
    if OPEN_DIALOGUE in builtin:
        turn = _open_dialogue(view)
        if turn is not None:
            out.append(turn)
    if MAIL_DEST in builtin:
        for m in _MAIL_DEST.finditer(view.text):
            out.append(_Occ(MAIL_DEST, m.start(), m.end(), False))
            if len(out) >= MAX_MATCHES_PER_ENTRY:
                break
    return out


def _question_run(view: View) -> _Occ | None:
    """The `questions` feature: see `QUESTIONS`."""
    text = view.text
    asked: list[tuple[int, int]] = []
    sentences = 0
    for i in range(len(view.starts)):
        s, e = view.sentence_span(i)
        sentence = text[s:e].strip().rstrip(_QUESTION_TAIL)
        if not sentence:
            continue
        sentences += 1
        if sentence.endswith(_QUESTION_MARKS):
            asked.append((s, e))
    if len(asked) < QUESTIONS_MIN or len(asked) < QUESTIONS_SHARE * sentences:
        return None
    return _Occ(QUESTIONS, asked[-1][0], asked[-1][1], False)


def _open_dialogue(view: View) -> _Occ | None:
    """The `open_dialogue` feature: see `OPEN_DIALOGUE`."""
    text = view.text
    turns = [(m.group(1), m.start()) for m in _TURN.finditer(text)]
    asking = sum(1 for name, _ in turns if name in _ASKING_TURNS)
    if asking < 2 or asking == len(turns):
        return None
    last, start = turns[-1]
    end = len(text.rstrip())
    if last not in _ASKING_TURNS:
        # an answer, then a question of its own: the prompt's open turn
        if not text[:end].endswith(_QUESTION_MARKS):
            return None
        start = view.sentence_span(view.sentence_of(end - 1))[0]
        if start <= turns[-1][1]:
            return None
    if not 4 <= end - start <= OPEN_TURN_MAX:
        return None
    return _Occ(OPEN_DIALOGUE, start, end, False)


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
