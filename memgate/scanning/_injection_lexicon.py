"""Feature lexicons for the injection detector: a tiny phrase language compiled
to bounded regexes, with cheap anchors for a prefilter.

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
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]")
_WORD_ANCHOR = re.compile(r"^[a-z0-9]+$")
_ALNUM_STEM = re.compile(r"[a-z0-9]+")

# Between two English tokens: 1-6 non-word chars that do not end a sentence.
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
DEFAULT_GAP_CHARS = 8


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
        else:
            text_anchors.append(pick)
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
    )


@dataclass(frozen=True, slots=True)
class Lexicon:
    """All entries, indexed by anchor for the prefilter."""

    entries: tuple[Entry, ...]
    by_word: Mapping[str, tuple[int, ...]]
    by_text: Mapping[str, tuple[int, ...]]
    by_stem: Mapping[str, tuple[tuple[str, str], ...]]
    """First three letters -> (alphanumeric stem, anchor) of prefix anchors."""
    punct: tuple[str, ...]
    cjk_pattern: re.Pattern[str] | None
    cjk_inside: Mapping[str, tuple[str, ...]]
    """A Chinese anchor -> the shorter anchors inside it (findall does not overlap)."""
    features: frozenset[str]

    def candidates(self, words: set[str], lower: str, cjk: bool) -> dict[int, list[str]]:
        """Entries whose anchor occurs in the text, with the anchors that occur.

        Cheap: a set intersection for whole-word anchors, a dict lookup by the
        first three letters for prefix anchors, one literal-alternation regex
        for Chinese anchors, and `in` for the few punctuation anchors."""
        chosen: dict[int, list[str]] = {}
        for word in words.intersection(self.by_word):
            for index in self.by_word[word]:
                chosen.setdefault(index, []).append(word)
        found: set[str] = set()
        for word in words:
            for stem, prefixed in self.by_stem.get(word[:3], ()):
                if word.startswith(stem):
                    found.add(prefixed)
        for mark in self.punct:
            if mark in lower:
                found.add(mark)
        if cjk and self.cjk_pattern is not None:
            for hit in set(self.cjk_pattern.findall(lower)):
                found.add(hit)
                found.update(self.cjk_inside.get(hit, ()))
        for text_anchor in found:
            for index in self.by_text[text_anchor]:
                chosen.setdefault(index, []).append(text_anchor)
        return chosen


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
    by_word: dict[str, list[int]] = {}
    by_text: dict[str, list[int]] = {}
    for index, entry in enumerate(entries):
        for w in entry.word_anchors:
            by_word.setdefault(w, []).append(index)
        for t in entry.text_anchors:
            by_text.setdefault(t, []).append(index)
    by_stem: dict[str, list[tuple[str, str]]] = {}
    punct: list[str] = []
    cjk: list[str] = []
    for anchor in by_text:
        if _CJK.search(anchor):
            cjk.append(anchor)
            continue
        stem = _ALNUM_STEM.match(anchor)
        if stem and len(stem.group()) >= 3:
            by_stem.setdefault(stem.group()[:3], []).append((stem.group(), anchor))
        else:
            punct.append(anchor)
    cjk.sort(key=lambda a: (-len(a), a))
    cjk_pattern = re.compile("|".join(re.escape(a) for a in cjk)) if cjk else None
    cjk_inside = {a: tuple(b for b in cjk if b != a and b in a) for a in cjk}
    return Lexicon(
        entries=tuple(entries),
        by_word={k: tuple(v) for k, v in by_word.items()},
        by_text={k: tuple(v) for k, v in by_text.items()},
        by_stem={k: tuple(v) for k, v in by_stem.items()},
        punct=tuple(sorted(punct)),
        cjk_pattern=cjk_pattern,
        cjk_inside={k: v for k, v in cjk_inside.items() if v},
        features=frozenset(e.feature for e in entries),
    )
