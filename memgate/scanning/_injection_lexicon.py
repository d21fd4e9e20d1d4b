"""Feature lexicons for the injection detector: a tiny phrase language compiled
to bounded regexes, with cheap word gates for a prefilter.

A lexicon entry is a phrase of space-separated tokens::

    ignore/disregard/forget * previous/prior/earlier instruction~

- `a/b/c`  alternatives for one word (or one Chinese word);
- `a+b`    inside an alternative: several words (`do+not/don't`);
- `word~`  a prefix: any word continuation (`instruction~` = instruction(s));
- `word?`  an optional token;
- `*`, `*N` a gap of up to 3 (or N) words; in Chinese up to 8 (or N) characters;
- `^`      as the first token: the phrase must start a clause (sentence start,
           or after `:`, a quote, a bracket or a list bullet).

An entry containing Chinese is matched without word boundaries and its tokens
may touch. Every other entry is matched on lower-cased text, whole words only.
Entries are data (in the rules' `params.lexicon`), so they can be reviewed and
extended without touching code; the compiled regexes have only bounded,
disjoint repetitions (no catastrophic backtracking).

Matching is gated so that almost no regex runs on ordinary text (STYLE.md #3):
the gate keys of a text (whole words, word starts for prefixes `word~`,
Chinese runs) are found in one Aho-Corasick pass (`Lexicon.keys`), and an
entry is tried only if every one of its required tokens has an alternative
whose keys are all present (`Entry.gates`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from operator import itemgetter

from ahocorasick_rs import BytesAhoCorasick, Implementation

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+")
_WORD_ANCHOR = re.compile(r"^[a-z0-9]+$")
# What counts as a word for the gates (on lower-cased text): runs of ASCII
# letters and digits (`_WORD_BYTES`); in a text that is not ASCII, also each run
# of other word characters (Cyrillic, Greek, accented letters, Chinese...).
_KEY_RUNS = re.compile(r"[a-z0-9]+|[^\W\x00-\x7f]+")

# Between two English tokens: 1-40 non-word chars that do not end a sentence
# (a dot inside a name, `partner-feed.example`, does not end one).
_EN_SEP = r"(?:[^\w\n.!?;。！？；]|\.(?=\w)){1,40}"
_EN_WORD = r"\w{1,24}"
# Between two Chinese tokens: optional spaces.
_ZH_SEP = r"[ \t]{0,2}"
_ZH_GAP_CHARS = r"[^\n。！？；.!?;]"

DEFAULT_GAP_WORDS = 3
STOP_WORDS = frozenset(
    {
        "a",
        "an",
        "the",
        "in",
        "to",
        "into",
        "of",
        "on",
        "at",
        "for",
        "from",
        "by",
        "with",
        "as",
        "and",
        "or",
        "if",
        "when",
        "once",
        "is",
        "are",
        "was",
        "be",
        "it",
        "this",
        "that",
        "these",
        "you",
        "your",
        "you're",
        "i",
        "i'm",
        "my",
        "our",
        "we",
        "all",
        "every",
        "each",
        "any",
        "do",
        "does",
        "did",
        "not",
        "no",
        "so",
        "now",
        "will",
        "can",
        "may",
        "must",
        "should",
        "shall",
        "have",
        "has",
        "had",
        "been",
        "they",
        "them",
        "their",
    }
)
"""Too frequent to anchor a phrase on: the next token is used instead."""
COMMON_WORDS = frozenset(
    {
        "about",
        "after",
        "again",
        "also",
        "always",
        "answer",
        "any",
        "ask",
        "back",
        "because",
        "before",
        "being",
        "both",
        "but",
        "call",
        "change",
        "check",
        "code",
        "could",
        "data",
        "day",
        "default",
        "done",
        "each",
        "even",
        "file",
        "first",
        "get",
        "give",
        "go",
        "going",
        "good",
        "help",
        "here",
        "how",
        "just",
        "keep",
        "know",
        "last",
        "let",
        "like",
        "list",
        "make",
        "many",
        "me",
        "more",
        "most",
        "much",
        "need",
        "never",
        "new",
        "next",
        "note",
        "only",
        "other",
        "out",
        "over",
        "page",
        "please",
        "point",
        "post",
        "read",
        "remove",
        "request",
        "run",
        "same",
        "say",
        "see",
        "set",
        "show",
        "site",
        "some",
        "still",
        "take",
        "team",
        "tell",
        "than",
        "then",
        "there",
        "time",
        "too",
        "two",
        "under",
        "up",
        "us",
        "use",
        "used",
        "user",
        "users",
        "very",
        "want",
        "way",
        "well",
        "were",
        "what",
        "which",
        "while",
        "who",
        "why",
        "work",
        "would",
        "write",
        "yes",
        "s",
        "t",
        "re",
        "ll",
        "ve",
        "d",
        "m",
    }
)
"""Frequent in ordinary text (including notes about software): a poor gate."""
DEFAULT_GAP_CHARS = 8


Gate = tuple[tuple[str, ...], ...]
"""One required token of an entry: for each alternative, the keys it needs."""


class LexiconError(ValueError):
    """An entry of a lexicon does not parse."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One compiled lexicon entry."""

    feature: str
    phrase: str
    pattern: re.Pattern[str]
    zh: bool
    clause_start: bool
    word_anchors: tuple[str, ...]
    """Whole words: the entry can only match if one of them occurs."""
    text_anchors: tuple[str, ...]
    """Substrings (prefixes, punctuation, Chinese): same, checked with `in`."""
    left_boundary: bool
    """The anchor needs a non-word character (or the start) right before it."""
    in_place: bool
    """The anchor starts the phrase (match there); else search around it."""
    before: int
    after: int
    """Bounds of the text a match may span before and after the anchor."""
    gates: tuple[Gate, ...] = field(default=())
    """For each required token, the keys each of its alternatives needs: whole
    words, a prefix as `stem~`, Chinese runs. The entry can only match if, for
    every gate, some alternative has all its keys in the text."""
    anchor_keys: tuple[tuple[str, str | None], ...] = field(default=())
    """Each anchor with the key that must be present for it to occur (None:
    always try it)."""


def _token_regex(token: str, zh: bool) -> tuple[str, bool]:
    """Regex for one token, and whether its last alternative ends in a word char."""
    alts = [a for a in token.split("/") if a]
    if not alts:
        raise LexiconError(f"empty token {token!r}")
    parts: list[str] = []
    ends_word = False
    for alt in alts:
        prefix = alt.endswith("~")
        core = alt[:-1] if prefix else alt
        if not core:
            raise LexiconError(f"empty alternative in {token!r}")
        words = [w for w in core.lower().split("+") if w]
        if not words:
            raise LexiconError(f"empty alternative in {token!r}")
        rx = (_ZH_SEP if zh else _EN_SEP).join(re.escape(w) for w in words)
        if prefix:
            rx += r"\w{0,16}"
        elif not zh and core[-1].isalnum():
            ends_word = True
        parts.append(rx)
    body = parts[0] if len(parts) == 1 else "(?:" + "|".join(parts) + ")"
    return body, ends_word


def _rarity(key: str) -> int:
    """Cost of gating on `key`: frequent words gate poorly."""
    word = key.rstrip("~")
    if word in STOP_WORDS:
        return 100
    if word in COMMON_WORDS or len(word) <= 2:
        return 20
    return 3 if key.endswith("~") else 1


def _alt_keys(alt: str, zh: bool = False) -> tuple[str, ...]:
    """The keys that must all be among a text's keys for an alternative to
    occur: in a Chinese entry its Chinese runs; otherwise its whole
    alphanumeric runs (the last as a prefix `stem~` if the alternative is one).
    Empty if there is nothing to look for (`:`, `&`)."""
    prefix = alt.endswith("~")
    core = (alt[:-1] if prefix else alt).lower()
    if zh:
        cjk = _CJK_RUN.findall(core)
        if cjk:
            return tuple(cjk)
    runs: list[str] = []
    words = [w for w in core.split("+") if w]
    for wi, word in enumerate(words):
        found = _KEY_RUNS.findall(word)
        for ri, run in enumerate(found):
            last = wi == len(words) - 1 and ri == len(found) - 1 and word.endswith(run)
            runs.append(run + "~" if prefix and last else run)
    if zh and runs:
        # ASCII inside a Chinese entry has no word boundaries: only the rarest
        # run is a safe (if weak) condition
        return (min(runs, key=lambda k: (_rarity(k), -len(k))),)
    return tuple(runs)


def _rarest(keys: Sequence[str]) -> str:
    return min(keys, key=lambda k: (_rarity(k), -len(k)))


def _gates(tokens: Sequence[str], zh: bool) -> tuple[Gate, ...]:
    gates: list[Gate] = []
    for token in tokens:
        if token.startswith("*") or (token.endswith("?") and len(token) > 1):
            continue
        alts: list[tuple[str, ...]] = []
        for alt in token.split("/"):
            if not alt:
                continue
            keys = _alt_keys(alt, zh)
            if not keys:  # e.g. `:` or `&`: no word to look for
                alts = []
                break
            alts.append(keys)
        if alts:
            gates.append(tuple(alts))
    return tuple(gates)


def compile_entry(feature: str, phrase: str) -> Entry:
    tokens = phrase.split()
    if not tokens:
        raise LexiconError(f"{feature}: empty entry")
    clause_start = tokens[0] == "^"
    if clause_start:
        tokens = tokens[1:]
    if not tokens:
        raise LexiconError(f"{feature}: entry {phrase!r} has only `^`")
    zh = bool(_CJK.search(phrase))
    sep = _ZH_SEP if zh else _EN_SEP
    pieces: list[str] = []
    pending_gap: str | None = None
    last_ends_word = False
    optional_first = False
    for index, token in enumerate(tokens):
        if token.startswith("*"):
            n_text = token[1:]
            if n_text and not n_text.isdigit():
                raise LexiconError(f"{feature}: bad gap {token!r} in {phrase!r}")
            if zh:
                n = int(n_text) if n_text else DEFAULT_GAP_CHARS
                pending_gap = f"{_ZH_GAP_CHARS}{{0,{n}}}?"
            else:
                n = int(n_text) if n_text else DEFAULT_GAP_WORDS
                pending_gap = f"(?:{_EN_SEP}{_EN_WORD}){{0,{n}}}?"
            if index == 0 or index == len(tokens) - 1:
                raise LexiconError(f"{feature}: a gap must be between tokens in {phrase!r}")
            continue
        optional = token.endswith("?") and len(token) > 1
        core = token[:-1] if optional else token
        body, ends_word = _token_regex(core, zh)
        if index == 0 and optional:
            optional_first = True
        if not pieces:
            piece = f"(?:{body}{sep})?" if optional else body
            pieces.append(piece)
        else:
            joiner = (pending_gap or "") + sep
            if optional:
                pieces.append(f"(?:{joiner}{body})?")
            else:
                # NOTE: a previous optional token already consumed its own
                # separator when it was first; otherwise separate here.
                prev_optional_first = optional_first and len(pieces) == 1
                pieces.append(body if prev_optional_first else joiner + body)
        pending_gap = None
        if not optional:
            last_ends_word = ends_word
    regex = "".join(pieces)
    if not zh and last_ends_word:
        regex += r"(?!\w)"
    try:
        pattern = re.compile(regex)
    except re.error as exc:
        raise LexiconError(f"{feature}: {phrase!r}: {exc}") from None
    # Anchors: the alternatives of the first token that has no stop word (the
    # first token if every token has one). The matcher finds them with
    # str.find: from the first token it matches in place, from a later one it
    # searches a bounded window around the anchor.
    real = [(i, t) for i, t in enumerate(tokens) if not t.startswith("*")]
    anchor_index, anchor_token = real[0]
    for i, tok in real:
        alts = {a.rstrip("~").lower().split("+")[0] for a in tok.rstrip("?").split("/")}
        if not (alts & STOP_WORDS) and not (tok.endswith("?") and len(tok) > 1):
            anchor_index, anchor_token = i, tok
            break
    anchor_token = anchor_token[:-1] if anchor_token.endswith("?") else anchor_token
    word_anchors: list[str] = []
    text_anchors: list[str] = []
    anchor_keys: list[tuple[str, str | None]] = []
    inside_alt = False
    for alt in anchor_token.split("/"):
        words = [w for w in alt.rstrip("~").lower().split("+") if w]
        if not words:
            continue
        # in a multi-word alternative, anchor on its first non-stop word
        pick = next((w for w in words if w not in STOP_WORDS), words[0])
        inside_alt = inside_alt or pick != words[0]
        whole_word = not alt.endswith("~") or pick != words[-1]
        if not zh and whole_word and _WORD_ANCHOR.match(pick):
            word_anchors.append(pick)
            anchor_keys.append((pick, pick))
        else:
            text_anchors.append(pick)
            anchor_keys.append((pick, _anchor_key(pick, whole_word)))
    first_alts = anchor_token.split("/")
    left_boundary = not zh and all(a[:1].isalnum() for a in first_alts if a)

    # bounds of the text a match can span before and after its anchor
    def span_of(toks: list[str]) -> int:
        total = 0
        for tok in toks:
            if tok.startswith("*"):
                n = (
                    int(tok[1:])
                    if tok[1:].isdigit()
                    else (DEFAULT_GAP_CHARS if zh else DEFAULT_GAP_WORDS)
                )
                total += n if zh else n * 65
            else:
                longest = max(len(a) for a in tok.rstrip("?").split("/"))
                total += longest + 17 + 41 * (1 + tok.count("+"))
        return total

    before = span_of(tokens[:anchor_index]) + (60 if inside_alt else 0)
    after = span_of(tokens[anchor_index:])
    return Entry(
        feature=feature,
        phrase=phrase,
        pattern=pattern,
        zh=zh,
        clause_start=clause_start,
        word_anchors=tuple(word_anchors),
        text_anchors=tuple(text_anchors),
        left_boundary=left_boundary,
        in_place=anchor_index == 0 and not optional_first and not inside_alt,
        before=before,
        after=after,
        gates=_gates(tokens, zh),
        anchor_keys=tuple(anchor_keys),
    )


def _anchor_key(anchor: str, whole_word: bool) -> str | None:
    """Key whose presence an anchor implies: for a Chinese anchor its longest
    Chinese run; otherwise its first alphanumeric run (as a prefix `run~` if
    the run ends a prefix anchor). None: nothing to look for."""
    runs: list[str] = _CJK_RUN.findall(anchor)
    if runs:
        return max(runs, key=len)
    m = _KEY_RUNS.search(anchor)
    if m is None:
        return None
    if m.end() == len(anchor) and not whole_word:
        return m.group() + "~"
    return m.group()


_WORD_BYTES = bytes(
    c if 48 <= c <= 57 or 97 <= c <= 122 else c + 32 if 65 <= c <= 90 else 32 for c in range(256)
)
"""Translation table: ASCII letters (lower-cased) and digits stay, every other
byte is a space.
The ASCII words of a text are then exactly the space-delimited runs, so a
word key is found by looking for ` word ` (and a prefix key by ` stem`)."""

Key = int
"""Gate keys are small integers (see `Lexicon.key_names`)."""
_FIRST = itemgetter(0)


def _is_cjk_key(key: str) -> bool:
    return bool(_CJK.search(key))


def _wide_letter_before(data: bytes, pos: int) -> bool:
    """Whether the UTF-8 character ending at `pos` is a non-ASCII word
    character: it continues a non-ASCII word (ASCII letters and digits do
    not, as word keys are runs of one kind)."""
    start = pos - 1
    while start > 0 and data[start] & 0xC0 == 0x80 and pos - start < 4:
        start -= 1
    return data[start:pos].decode("utf-8", "replace").isalnum()


def _wide_letter_at(data: bytes, pos: int) -> bool:
    """Whether the UTF-8 character starting at `pos` is a non-ASCII word character."""
    end = pos + 1
    while end < len(data) and data[end] & 0xC0 == 0x80 and end - pos < 4:
        end += 1
    return data[pos:end].decode("utf-8", "replace").isalnum()


_Gate = tuple[frozenset[Key], frozenset[Key], tuple[frozenset[Key], ...]]
"""A compiled gate: the rarest key of each alternative (a quick test), the keys
of the one-key alternatives, and the key sets of the several-key ones (if
empty, the quick test decides)."""


def _compile_gate(gate: Gate, ids: Mapping[str, Key]) -> _Gate:
    any_of = frozenset(ids[_rarest(alt)] for alt in gate)
    singles = frozenset(ids[alt[0]] for alt in gate if len(alt) == 1)
    multis = tuple(frozenset(ids[k] for k in alt) for alt in gate if len(alt) > 1)
    return any_of, singles, multis


@dataclass(frozen=True, slots=True)
class Lexicon:
    """All entries, indexed by gate key for the prefilter.

    The keys present in a text are found in one pass of an Aho-Corasick
    automaton (`keys`): ASCII keys on the text's bytes with everything but
    ASCII letters and digits made a space (so ` word ` is a whole word and
    ` stem` a word start); in a text that is not ASCII, a second automaton
    finds the other keys (Chinese anywhere, other scripts as whole words or
    word starts, boundaries checked on the few hits)."""

    entries: tuple[Entry, ...]
    key_names: tuple[str, ...]
    """Key id -> its text (`word`, `stem~`, a Chinese run)."""
    by_key: Mapping[Key, tuple[tuple[int, frozenset[Key], tuple[_Gate, ...]], ...]]
    """Primary gate key -> the entries indexed under it (each entry under the
    keys of its rarest gate), each with what else it needs: the keys of its
    one-word gates (all must be present, one subset test) and its other
    compiled gates, rarest first."""
    primary_keys: frozenset[Key]
    anchor_keys: tuple[tuple[tuple[str, Key | None], ...], ...]
    """Per entry, each anchor with the key whose presence it implies."""
    features: frozenset[str]
    ascii_automaton: BytesAhoCorasick
    """Its pattern `i` is the ASCII key `i`."""
    wide_automaton: BytesAhoCorasick | None
    wide_ids: tuple[Key, ...]
    wide_bounds: tuple[tuple[bool, bool], ...]
    """Per pattern of `wide_automaton`: needs a word start, needs a word end."""

    def keys(self, lower: str) -> set[Key]:
        """The gate keys present in a lower-cased text (an ASCII text need not
        be: its letters are lower-cased on the way)."""
        raw = lower.encode("utf-8", "surrogatepass")
        # the id of an ASCII key is its pattern's index
        found = set(
            map(
                _FIRST,
                self.ascii_automaton.find_matches_as_indexes(
                    b" " + raw.translate(_WORD_BYTES) + b" ", overlapping=True
                ),
            )
        )
        if self.wide_automaton is not None and len(raw) != len(lower):
            wide_ids = self.wide_ids
            bounds = self.wide_bounds
            n = len(raw)
            for i, s, e in self.wide_automaton.find_matches_as_indexes(raw, overlapping=True):
                start, end = bounds[i]
                if start and s > 0 and raw[s - 1] >= 0x80 and _wide_letter_before(raw, s):
                    continue
                if end and e < n and raw[e] >= 0x80 and _wide_letter_at(raw, e):
                    continue
                found.add(wide_ids[i])
        return found

    def candidates(self, keys: set[Key]) -> list[int]:
        """Entries all of whose gates are open for the keys of a text, in order."""
        hits = self.primary_keys.intersection(keys)
        if not hits:
            return []
        by_key = self.by_key
        # `keys.issuperset` mapped over the several-key alternatives: the subset
        # tests run in C, without a generator frame per alternative (this loop
        # runs on nearly every chunk: common words are gate keys).
        superset = keys.issuperset
        out: list[int] = []
        for key in hits:
            for index, must, rest in by_key[key]:
                if must and not superset(must):
                    continue
                for any_of, singles, multis in rest:
                    if any_of.isdisjoint(keys):
                        break
                    if multis and singles.isdisjoint(keys) and not any(map(superset, multis)):
                        break
                else:
                    out.append(index)
        # an entry indexed under several keys of the text is found once per key
        return sorted(set(out)) if len(out) > 1 else out


EVERYWHERE = frozenset(
    {
        "the",
        "to",
        "on",
        "in",
        "at",
        "as",
        "and",
        "for",
        "are",
        "a",
        "of",
        "is",
        "with",
        "from",
        "it",
        "be",
        "by",
        "or",
        "if",
        "was",
        "we",
        "i",
        "my",
        "our",
    }
)
"""Keys in nearly every text: not looked for (the automaton would report them
at every turn), taken as present. A gate with such an alternative is open."""


def _open_gates(gates: Sequence[Gate]) -> tuple[Gate, ...]:
    """The gates that can be closed: those with no alternative made only of
    `EVERYWHERE` keys; from the others, those keys are dropped."""
    out: list[Gate] = []
    for gate in gates:
        alts = tuple(tuple(k for k in alt if k not in EVERYWHERE) for alt in gate)
        if all(alts):
            out.append(alts)
    return tuple(out)


def build_lexicon(tables: Iterable[Mapping[str, Sequence[str]]]) -> Lexicon:
    """Merge lexicon tables (feature -> entries) into one indexed lexicon."""
    entries: list[Entry] = []
    seen: set[tuple[str, str]] = set()
    for table in tables:
        for feature, phrases in table.items():
            if isinstance(phrases, str) or not isinstance(phrases, Sequence):
                raise LexiconError(f"lexicon.{feature} must be a list of phrases")
            for phrase in phrases:
                if not isinstance(phrase, str):
                    raise LexiconError(f"lexicon.{feature}: {phrase!r} is not a string")
                key = (feature, phrase)
                if key in seen:
                    continue
                seen.add(key)
                entries.append(compile_entry(feature, phrase))
    ids: dict[str, Key] = {}

    def key_id(key: str) -> Key:
        return ids.setdefault(key, len(ids))

    entry_gates: list[tuple[Gate, ...]] = []
    unbounded: set[str] = set()  # keys of Chinese entries: found inside words too
    for entry in entries:
        if not entry.gates:
            raise LexiconError(
                f"{entry.feature}: {entry.phrase!r} has no word to look for; add one"
            )
        gates = _open_gates(entry.gates)
        if not gates:
            raise LexiconError(
                f"{entry.feature}: {entry.phrase!r} has only words found everywhere; add one"
            )
        entry_gates.append(gates)
        for gate in gates:
            for alt in gate:
                for k in alt:
                    key_id(k)
                    if entry.zh:
                        unbounded.add(k)
        for _, ak in entry.anchor_keys:
            if ak is not None and ak not in EVERYWHERE:
                key_id(ak)
    # ASCII keys first: a key's id is then its pattern's index in the automaton
    ids = {k: i for i, k in enumerate(sorted(ids, key=lambda k: (not k.isascii(), ids[k])))}
    by_key: dict[Key, list[tuple[int, frozenset[Key], tuple[_Gate, ...]]]] = {}
    for index, gates in enumerate(entry_gates):
        # the rarest gate indexes the entry; gates are tested rarest first
        order = sorted(
            gates,
            key=lambda g: (sum(_rarity(_rarest(alt)) for alt in g), len(g)),
        )
        primary = _compile_gate(order[0], ids)
        must = frozenset(ids[g[0][0]] for g in order if len(g) == 1 and len(g[0]) == 1)
        rest = tuple(
            _compile_gate(g, ids)
            for i, g in enumerate(order)
            # the primary gate is open when one of its keys is found, unless
            # that key's alternative needs more keys
            if not (len(g) == 1 and len(g[0]) == 1) and (i > 0 or primary[2])
        )
        for kid in primary[0]:
            by_key.setdefault(kid, []).append((index, must, rest))
    names = tuple(sorted(ids, key=ids.__getitem__))
    ascii_patterns: list[bytes] = []
    wide_patterns: list[str] = []
    wide_ids: list[Key] = []
    wide_bounds: list[tuple[bool, bool]] = []
    for kid, name in enumerate(names):
        stem = name.endswith("~")
        word = name[:-1] if stem else name
        if name.isascii():
            ascii_patterns.append(b" " + word.encode() + (b"" if stem else b" "))
        else:
            free = _is_cjk_key(word) or name in unbounded
            wide_patterns.append(word)
            wide_ids.append(kid)
            wide_bounds.append((not free, not free and not stem))
    return Lexicon(
        entries=tuple(entries),
        key_names=names,
        by_key={k: tuple(v) for k, v in by_key.items()},
        primary_keys=frozenset(by_key),
        anchor_keys=tuple(
            tuple((a, ids.get(k) if k is not None else None) for a, k in e.anchor_keys)
            for e in entries
        ),
        features=frozenset(e.feature for e in entries),
        ascii_automaton=BytesAhoCorasick(ascii_patterns, implementation=Implementation.DFA),
        wide_automaton=BytesAhoCorasick(
            [w.encode("utf-8") for w in wide_patterns], implementation=Implementation.DFA
        )
        if wide_patterns
        else None,
        wide_ids=tuple(wide_ids),
        wide_bounds=tuple(wide_bounds),
    )
