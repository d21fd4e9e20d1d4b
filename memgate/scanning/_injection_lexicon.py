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
the words of a text are collected once (one `findall`), and an English entry
is tried only if every one of its required tokens has an alternative among
them (`Entry.gates`); prefixes (`word~`) are resolved against the words once
and memoized. Chinese anchors are looked up only in the Chinese runs of a text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_CJK_RUN = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+")
_WORD_ANCHOR = re.compile(r"^[a-z0-9]+$")
# What counts as a word for the gates (on lower-cased text): runs of ASCII
# letters and digits (`_WORD_BYTES`); in a text that is not ASCII, also each run
# of other word characters (Cyrillic, Greek, accented letters, Chinese...).
NON_ASCII_WORDS = re.compile(r"[^\W\x00-\x7f]+")
_KEY_RUNS = re.compile(r"[a-z0-9]+|[^\W\x00-\x7f]+")

# Between two English tokens: 1-40 non-word chars that do not end a sentence.
_EN_SEP = r"[^\w\n.!?;。！？；]{1,40}"
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
MEMO_LIMIT = 200_000
"""Words remembered by the prefix resolver; beyond it, words are resolved afresh."""


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


_WORD_BYTES = bytes(c if 48 <= c <= 57 or 97 <= c <= 122 else 32 for c in range(256))
"""Translation table: ASCII letters and digits stay, every other byte is a space
(tokenizing UTF-8 this way is several times cheaper than a regex `findall`)."""

Key = bytes
"""Gate keys are UTF-8 bytes: a text's words come from its encoded form."""


def _k(key: str) -> Key:
    return key.encode("utf-8")


_Gate = tuple[frozenset[Key], frozenset[Key], tuple[frozenset[Key], ...]]
"""A compiled gate: the rarest key of each alternative (a quick test), the keys
of the one-key alternatives, and the key sets of the several-key ones (if
empty, the quick test decides)."""


def _compile_gate(gate: Gate) -> _Gate:
    any_of = frozenset(_k(_rarest(alt)) for alt in gate)
    singles = frozenset(_k(alt[0]) for alt in gate if len(alt) == 1)
    multis = tuple(frozenset(_k(k) for k in alt) for alt in gate if len(alt) > 1)
    return any_of, singles, multis


@dataclass(frozen=True, slots=True)
class Lexicon:
    """All entries, indexed by gate key for the prefilter."""

    entries: tuple[Entry, ...]
    by_key: Mapping[Key, tuple[int, ...]]
    """Primary gate key -> entries (each entry under the keys of its rarest gate)."""
    primary_keys: frozenset[Key]
    all_keys: frozenset[Key]
    """Every key of every gate."""
    gates: tuple[tuple[_Gate, ...], ...]
    """Per entry, its compiled gates, the primary (rarest) one first."""
    anchor_keys: tuple[tuple[tuple[str, Key | None], ...], ...]
    """Per entry, each anchor with the key whose presence it implies."""
    stems: Mapping[Key, tuple[Key, ...]]
    """First two bytes (one for a one-letter stem) -> prefix keys (`stem~`)."""
    cjk_first: Mapping[str, tuple[tuple[str, Key], ...]]
    """First character -> the Chinese keys starting with it."""
    cjk_chars: frozenset[str]
    """The first characters of Chinese keys."""
    features: frozenset[str]
    _stem_memo: dict[Key, tuple[Key, ...]] = field(default_factory=dict)
    _stem_hits: set[Key] = field(default_factory=set)
    _stem_misses: set[Key] = field(default_factory=set)

    def keys(self, lower: str) -> set[Key]:
        """The gate keys of a lower-cased text: its words, the prefixes they
        start with (`stem~`) and the Chinese keys found in it."""
        words = set(lower.encode("utf-8", "surrogatepass").translate(_WORD_BYTES).split())
        runs: list[str] = []
        if not lower.isascii():
            runs = NON_ASCII_WORDS.findall(lower)
            words.update(r.encode("utf-8", "surrogatepass") for r in runs)
        hits = words & self._stem_hits
        unknown = words.difference(self._stem_hits, self._stem_misses)
        for word in unknown:
            if self._resolve_stems(word):
                hits.add(word)
        keys = words
        if hits:
            memo = self._stem_memo
            for word in hits:
                keys.update(memo.get(word) or self._resolve_stems(word))
        if runs and self.cjk_first:
            first = self.cjk_first
            text = "\n".join(runs)
            for ch in self.cjk_chars.intersection(text):
                for key, kb in first[ch]:
                    if key in text:
                        keys.add(kb)
        return keys

    def keys_of(self, words: Iterable[str]) -> set[Key]:
        """Gate keys of a few words (whole words and the prefixes they start with)."""
        keys: set[Key] = set()
        for text in words:
            word = text.encode("utf-8", "surrogatepass")
            keys.add(word)
            if word not in self._stem_misses:
                keys.update(self._stem_memo.get(word) or self._resolve_stems(word))
        return keys

    def _resolve_stems(self, word: Key) -> tuple[Key, ...]:
        found = tuple(
            s
            for head in (word[:2], word[:1])
            for s in self.stems.get(head, ())
            if word.startswith(s[:-1])
        )
        if len(self._stem_misses) + len(self._stem_hits) < MEMO_LIMIT:
            if found:
                self._stem_memo[word] = found
                self._stem_hits.add(word)
            else:
                self._stem_misses.add(word)
        return found

    def candidates(self, keys: set[Key]) -> list[int]:
        """Entries all of whose gates are open for the keys of a text, in order."""
        by_key = self.by_key
        chosen: set[int] = set()
        for key in keys & self.primary_keys:
            chosen.update(by_key[key])
        if not chosen:
            return []
        out: list[int] = []
        gates = self.gates
        for index in sorted(chosen):
            for any_of, singles, multis in gates[index]:
                if any_of.isdisjoint(keys):
                    break
                if multis and singles.isdisjoint(keys) and not any(m <= keys for m in multis):
                    break
            else:
                out.append(index)
        return out


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
    by_key: dict[Key, list[int]] = {}
    gates: list[tuple[_Gate, ...]] = []
    stems: set[str] = set()
    cjk: set[str] = set()
    for index, entry in enumerate(entries):
        if not entry.gates:
            raise LexiconError(
                f"{entry.feature}: {entry.phrase!r} has no word to look for; add one"
            )
        compiled = [_compile_gate(g) for g in entry.gates]
        # the rarest gate indexes the entry; it is tested first
        order = sorted(
            range(len(compiled)),
            key=lambda i: (
                sum(_rarity(_rarest(alt)) for alt in entry.gates[i]),
                len(entry.gates[i]),
            ),
        )
        compiled = [compiled[i] for i in order]
        gates.append(tuple(compiled))
        for k in compiled[0][0]:
            by_key.setdefault(k, []).append(index)
        for gate in entry.gates:
            for alt in gate:
                stems.update(k for k in alt if k.endswith("~"))
                cjk.update(k for k in alt if _CJK.search(k))
        for _, ak in entry.anchor_keys:
            if ak is not None and ak.endswith("~"):
                stems.add(ak)
    by_stem: dict[Key, list[Key]] = {}
    for stem in sorted(stems):
        kb = _k(stem)
        by_stem.setdefault(kb[:-1][:2], []).append(kb)
    cjk_first: dict[str, list[tuple[str, Key]]] = {}
    for run in sorted(cjk):
        cjk_first.setdefault(run[0], []).append((run, _k(run)))
    return Lexicon(
        entries=tuple(entries),
        by_key={k: tuple(v) for k, v in by_key.items()},
        primary_keys=frozenset(by_key),
        all_keys=frozenset(k for g in gates for gate in g for k in gate[0]),
        gates=tuple(gates),
        anchor_keys=tuple(
            tuple((a, None if k is None else _k(k)) for a, k in e.anchor_keys) for e in entries
        ),
        stems={k: tuple(v) for k, v in by_stem.items()},
        cjk_first={k: tuple(v) for k, v in cjk_first.items()},
        cjk_chars=frozenset(cjk_first),
        features=frozenset(e.feature for e in entries),
    )
