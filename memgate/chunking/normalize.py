"""Normalization before scanning: what a model reads, and what a human would not see.

`normalize(text)` returns the main layer (NFKC, invisible characters removed, with an
offset map back into the original) plus one layer per hidden carrier: Unicode tag
characters, HTML comments, markdown link titles and alt text, and base64 / hex /
URL-encoded payloads that decode to text (decoded recursively, bounded). Every
invisible run and every carrier is also reported as a `HiddenMark`. Markup shown
inside inline code or a fenced code block is visible text, not a carrier.

Everything here is bounded: linear scans, regexes without nested ambiguous
quantifiers, a cap on layers, on decoded characters and on marks.

Speed: most texts are ASCII or already NFKC without invisible characters; they take
the identity path (two C-level checks). Otherwise only the characters NFKC can change
are visited, and every carrier search runs behind a substring pre-check.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import functools
import re
import unicodedata
import urllib.parse
from abc import ABC, abstractmethod
from bisect import bisect_left, bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import accumulate, chain, pairwise

__all__ = ["HiddenMark", "Layer", "Normalized", "normalize"]

# NOTE: a cap on reported marks keeps the output bounded on adversarial input
# (one zero-width space between every letter of a 1 MiB text).
_MAX_MARKS = 4096
_MAX_DECODE_ATTEMPTS = 10_000
_URL_LEFT_SCAN = 2048
# How far back a changed character looks for the starter it may compose with.
_MAX_BACKTRACK = 32
# Above this many runs of changed characters (plus one per 16 characters), the dense
# group-by-group pass is faster than visiting each run.
_SPARSE_RUNS = 64

# Characters removed from the main layer. Joiners and variation selectors are removed
# too (they only change rendering) but are reported only when they look like smuggling.
_TAG = "\U000e0000-\U000e007f"
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_VS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
_ZW = "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200d\u2060-\u2064\u3164\ufeff\uffa0"
_INVISIBLE = re.compile(f"[{_TAG}{_BIDI}{_VS}{_ZW}]+")
# NOTE: one character class with no quantifier lets `re` skip ahead with its fast
# character-set scan (a `+` after the class disables it: about twice as slow).
_ANY_INVISIBLE = re.compile(f"[{_BIDI}{_ZW}\ufe00-\ufe0f\U000e0000-\U000e01ef]")
_KIND_RUNS = re.compile(
    f"(?P<tag_chars>[{_TAG}]+)|(?P<bidi>[{_BIDI}]+)|(?P<vs>[{_VS}]+)|(?P<zw>[{_ZW}]+)"
)
_TAG_CHAR = re.compile(f"[{_TAG}]")
_JOINERS_ONLY = re.compile("[\u200c\u200d]+")
_FLAG_TAGS = re.compile("[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,6}\U000e007f")
_BLACK_FLAG = "\U0001f3f4"
_SURROGATE = re.compile("[\ud800-\udfff]")

# Encoded payloads. Base64 runs are found on a one-byte-per-character image of the
# text (latin-1 with "?" for the rest, so positions are the same) translated to
# character classes: "a" for the base64 alphabet, "=" for padding, " " otherwise;
# a run is then a plain substring search for sixteen "a".
_B64_ALPHABET = frozenset(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/_-")
_B64_CLASSES = bytes(
    ord("a") if i in _B64_ALPHABET else ord("=") if i == ord("=") else ord(" ") for i in range(256)
)
_B64_MIN_RUN = b"a" * 16
_B64_CLASS_RUN = re.compile(rb"a{16,}={0,2}")
_HEX_ESCAPE_OPEN = re.compile(rb"\\x")
_DIGIT = re.compile(r"[0-9]")
_HEX_RUN = re.compile(r"(?<![0-9A-Za-z])(?:0x)?([0-9A-Fa-f]{16,})(?![0-9A-Za-z])")
_HEX_ESCAPES = re.compile(r"\\x[0-9A-Fa-f]{2}(?:\\x[0-9A-Fa-f]{2}){7,}")
_HEXISH = re.compile(r"[0-9A-Fa-f\-]+")
_PCT = re.compile(r"%[0-9A-Fa-f]{2}")
_PCT_ALNUM = re.compile(r"%(?:3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa])")
_URL_STOP = frozenset(" \t\r\n\f\v\"'<>()[]{}`")
_URL_TAIL = re.compile(r"[^\s\"'<>()\[\]{}`]*")
_LETTER = re.compile(r"[^\W\d_]")

# Hidden carriers in markdown / HTML. A link is matched from its "[" (a literal first
# character is a fast scan); a "!" just before it makes it an image.
_MD_LINK = re.compile(
    r"\[([^\[\]\n]{0,1000})\]\(\s*(?:<[^<>\n]{0,2000}>|[^\s()]{0,2000})"
    r"(?:\s+(?:\"([^\"\n]{0,1000})\"|'([^'\n]{0,1000})'|\(([^()\n]{0,1000})\)))?\s*\)"
)
_MD_REF_TITLE = re.compile(
    r"^[ \t]{0,3}\[[^\[\]\n]{1,200}\]:[ \t]*\S{1,2000}[ \t]+"
    r"(?:\"([^\"\n]{1,1000})\"|'([^'\n]{1,1000})'|\(([^()\n]{1,1000})\))[ \t]*$",
    re.MULTILINE,
)
# An HTML alt= / title= attribute is found from its "=" (rarer than the letters), then
# matched in full from the attribute name.
_ATTR_EQ = re.compile(r"=[ \t]*[\"']")
_ATTR_EQ_BYTES = re.compile(rb"=[ \t]*[\"']")
# Pre-checks on the one-byte image of a layer. NOTE: a compiled literal pattern is a
# faster substring test on bytes than `in` for needles of two or more bytes.
_COMMENT_OPEN = re.compile(rb"<!--")
_LINK_OPEN = re.compile(rb"\]\(")
_REF_OPEN = re.compile(rb"\]:")
_TILDE_FENCE = re.compile(rb"~~~")
_HTML_ATTR = re.compile(
    r"\b(alt|title)[ \t]*=[ \t]*(?:\"([^\"\n<>]{1,2000})\"|'([^'\n<>]{1,2000})')",
    re.IGNORECASE,
)
# Inline code and fenced code blocks, scanned in document order together with HTML
# comments (whichever starts first wins, as in CommonMark).
_MARKUP_TOKEN = re.compile(r"<!--|``*|~~~~*")
_BACKTICKS = re.compile(r"``*")
_BLANK_LINE = re.compile(r"\n[ \t\r]*\n")
_HTML_LINE = re.compile(r"\n[ \t]{0,3}<")
_HTML_FIRST_LINE = re.compile(r"[ \t]{0,3}<")
_RAW_TAG = re.compile(r"(pre|script|style|textarea)(?=[\s>]|$)", re.IGNORECASE)
_RAW_CLOSE = re.compile(r"</(pre|script|style|textarea)>", re.IGNORECASE)

# Obfuscated text a model reads but a keyword filter does not: leetspeak
# ("1gn0re 4ll pr3v10us"), letters spaced apart ("i g n o r e"), text written
# backwards. Found on the main layer's one-byte image translated to classes
# (letter "a", leet digit "1", spacer "s", other "x"): a pre-check is a few
# substring counts; only a text that passes is tokenized.
_OBF_CLASSES = bytes(
    ord("a")
    if chr(i).isascii() and chr(i).isalpha()
    else ord("1")
    if chr(i) in "013457@$"
    else ord("s")
    if chr(i) in " .*_-"
    else ord("x")
    for i in range(256)
)
_LEET_MAP = str.maketrans("013457@$", "oieastas")
_LEET_TOKEN = re.compile(r"[A-Za-z0-9@$]+")
_HEX_WORD = re.compile(r"[0-9A-Fa-f]+")
_LEET_SEED = (b"a1a", b"x1aa", b"s1aa")
LEET_MIN_TOKENS = 3
"""Words written in leetspeak before the text is read again with them spelled out."""
LEET_MIN_SHARE = 0.15
"""...and their share of the text's words (a hash or an id here and there is not leet)."""
_SPACED_SEED = b"asasasasasa"
_SPACED_RUN = re.compile(r"(?<![^\W\d_])[A-Za-z](?:[ .*_-]{1,3}[A-Za-z]){5,}(?![^\W\d_])")
_REVERSED_WORDS = tuple(
    f" {w} ".encode()
    for w in ("eht", "dna", "uoy", "ruoy", "lla", "siht", "ot", "fo", "erongi", "tpmorp")
)
_WORDS_ONLY = bytes(i if chr(i).isascii() and chr(i).isalpha() else ord(" ") for i in range(256))
_FORWARD_WORDS = tuple(w[::-1] for w in _REVERSED_WORDS)
REVERSED_MIN_WORDS = 3
"""Common words written backwards before the text is read reversed."""
OBFUSCATED_ORIGINS = frozenset({"leetspeak", "spaced_letters", "reversed"})
OBFUSCATED_SCAN_CHARS = 16384
"""Leetspeak and spaced letters are looked for in this many leading characters
(tokenizing is Python; a memory write is rarely longer, an attack text never needs to be)."""

# Layers that are themselves carriers are not searched for further carriers (an HTML
# comment inside a comment's text would otherwise be surfaced again and again).
_CARRIER_ORIGINS = frozenset({"tag_chars", "html_comment", "link_title", "alt_text"})
# An obfuscated text spelled out is read as it is: its carriers and payloads are
# the main layer's, already surfaced.
_PAYLOAD_ORIGINS = frozenset({"base64", "hex", "url_encoded"})
NESTED_ENCODING = 3
"""Encodings deep from which a payload is marked `nested_encoding`."""


class _SpanMap(ABC):
    """Maps a half-open span of a layer's text to the original text."""

    __slots__ = ()

    @abstractmethod
    def map(self, start: int, end: int) -> tuple[int, int]: ...


class _IdentityMap(_SpanMap):
    __slots__ = ()

    def map(self, start: int, end: int) -> tuple[int, int]:
        return start, end


class _PieceMap(_SpanMap):
    """Piecewise map of the main layer. Piece i starts at normalized position
    `nstarts[i]`; an identity piece (`oends[i] < 0`) maps character k to
    `ostarts[i] + (k - nstarts[i])`; a group piece maps each of its characters to the
    whole original group [ostarts[i], oends[i])."""

    __slots__ = ("_n", "_nstarts", "_oends", "_orig_len", "_ostarts")

    def __init__(
        self, nstarts: list[int], ostarts: list[int], oends: list[int], n: int, orig_len: int
    ) -> None:
        self._nstarts = nstarts
        self._ostarts = ostarts
        self._oends = oends
        self._n = n
        self._orig_len = orig_len

    def _at(self, k: int) -> tuple[int, int]:
        i = bisect_right(self._nstarts, k) - 1
        o = self._ostarts[i]
        e = self._oends[i]
        if e < 0:
            o += k - self._nstarts[i]
            return o, o + 1
        return o, e

    def map(self, start: int, end: int) -> tuple[int, int]:
        if start < end:
            return self._at(start)[0], self._at(end - 1)[1]
        if start < self._n:
            s = self._at(start)[0]
            return s, s
        return self._orig_len, self._orig_len


class _SliceMap(_SpanMap):
    """A layer that is a substring of its parent layer, at `offset`."""

    __slots__ = ("_offset", "_parent")

    def __init__(self, parent: _SpanMap, offset: int) -> None:
        self._parent = parent
        self._offset = offset

    def map(self, start: int, end: int) -> tuple[int, int]:
        return self._parent.map(self._offset + start, self._offset + end)


class _FixedMap(_SpanMap):
    """Decoded text has no character-level correspondence: every span is the whole run."""

    __slots__ = ("_span",)

    def __init__(self, span: tuple[int, int]) -> None:
        self._span = span

    def map(self, start: int, end: int) -> tuple[int, int]:
        return self._span


@dataclass(frozen=True, slots=True)
class Layer:
    """A text to scan and how its positions map back into the original text."""

    text: str
    origin: str
    """`text` for the main layer; else `tag_chars`, `html_comment`, `link_title`,
    `alt_text`, `base64`, `hex`, `url_encoded`, `variation_selectors`, or one of
    `OBFUSCATED_ORIGINS` (`leetspeak`, `spaced_letters`, `reversed`: the main text
    spelled out)."""
    depth: int
    """0 for the main layer and surfaced carriers, +1 per decoding step."""
    hidden: bool
    """True when a human reading the rendered text would not see it."""
    _span_map: _SpanMap | None = field(default=None, repr=False, compare=False)

    def to_original(self, start: int, end: int) -> tuple[int, int]:
        """Map a half-open span of `self.text` to the original text. Never raises;
        out-of-range input is clamped."""
        n = len(self.text)
        s = min(max(start, 0), n)
        e = min(max(end, s), n)
        if self._span_map is None:
            return s, e
        return self._span_map.map(s, e)


@dataclass(frozen=True, slots=True)
class HiddenMark:
    """A run of text a human reader would not see, located in the original text."""

    kind: str
    """`zero_width`, `bidi_control`, `tag_chars`, `html_comment`, `encoded_payload`,
    `nested_encoding` (count: how many encodings deep) or `obfuscated_text`
    (leetspeak, spaced letters or backwards text, spelled out in its own layer)."""
    span: tuple[int, int]
    count: int
    inside_word: bool
    """The run sits between two letters or digits (a smuggling sign)."""


@dataclass(frozen=True, slots=True)
class Normalized:
    """The result of `normalize`: layers[0] is the main normalized text."""

    original: str
    layers: tuple[Layer, ...]
    hidden: tuple[HiddenMark, ...]

    @property
    def text(self) -> str:
        """The main normalized text."""
        return self.layers[0].text


@dataclass(slots=True)
class _Cleaned:
    text: str
    span_map: _SpanMap | None  # None: identity mapping
    marks: list[tuple[str, int, int, bool]] = field(default_factory=list)
    smuggled: list[tuple[str, str, int, int]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _NFKCTables:
    special: re.Pattern[str]
    """One character that is invisible, or that NFKC may change alone or together
    with its neighbour, or any astral character (one range keeps the class fast)."""
    run: re.Pattern[str]
    """A run of such characters."""
    simple: dict[str, str]
    """Changed characters that map one-to-one onto a character that composes with
    nothing: replaced in place, positions unchanged."""
    unstable: frozenset[str]
    invisible: frozenset[str]


# Every character with a decomposition mapping lies in this range (Unicode 15; a test
# checks it against the running interpreter's database).
_DECOMPOSABLE = range(0xA0, 0x2FA20)


@functools.cache
def _nfkc_tables() -> _NFKCTables:
    """Derived from the interpreter's Unicode database on first use (~25 ms) and kept:
    it is a pure function of that database."""
    decomposition = unicodedata.decomposition
    changed: dict[str, str] = {}
    # Hangul vowel and trailing consonant jamo compose with the syllable before them.
    seconds = set(map(chr, chain(range(0x1161, 0x1176), range(0x11A8, 0x11C3))))
    for c in [c for c in map(chr, _DECOMPOSABLE) if decomposition(c)]:
        value = unicodedata.normalize("NFKC", c)
        if value != c:
            changed[c] = value
        mapping = decomposition(c)
        if not mapping.startswith("<"):
            parts = mapping.split()
            if len(parts) == 2:
                seconds.add(chr(int(parts[1], 16)))
    combining = unicodedata.combining
    simple = {
        c: v
        for c, v in changed.items()
        if len(v) == 1
        and c not in seconds
        and v not in seconds
        and not combining(c)
        and not combining(v)
    }
    invisible = frozenset(
        filter(
            _INVISIBLE.fullmatch,
            map(chr, chain(range(0xAD, 0x3165), range(0xFE00, 0xFFA1), range(0xE0000, 0xE01F0))),
        )
    )
    bmp = sorted(ord(c) for c in set(changed) | seconds | invisible if ord(c) <= 0xFFFF)
    ranges: list[list[int]] = []
    for cp in bmp:
        if ranges and ranges[-1][1] == cp - 1:
            ranges[-1][1] = cp
        else:
            ranges.append([cp, cp])
    cls = "".join(f"\\u{a:04x}-\\u{b:04x}" for a, b in ranges)
    cls += "\\U00010000-\\U0010ffff"
    return _NFKCTables(
        special=re.compile(f"[{cls}]"),
        run=re.compile(f"[{cls}]*"),
        simple=simple,
        unstable=frozenset(changed) | frozenset(seconds),
        invisible=invisible,
    )


class _Out:
    """The main layer under construction and its piecewise map (see `_PieceMap`)."""

    __slots__ = ("delta", "n", "nstarts", "oends", "ostarts", "pieces")

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.n = 0
        self.nstarts: list[int] = []
        self.ostarts: list[int] = []
        self.oends: list[int] = []
        self.delta: int | None = None  # offset of the current identity piece

    def same(self, piece: str, a: int) -> None:
        """`piece` stands for text[a:a + len(piece)] character by character."""
        if not piece:
            return
        if self.delta != a - self.n:
            self.nstarts.append(self.n)
            self.ostarts.append(a)
            self.oends.append(-1)
            self.delta = a - self.n
        self.pieces.append(piece)
        self.n += len(piece)

    def groups(self, norms: list[str], bounds: list[int]) -> None:
        """norms[i] stands for the original group [bounds[i], bounds[i + 1])."""
        self.nstarts.extend(accumulate(map(len, norms[:-1]), initial=self.n))
        self.ostarts.extend(bounds[:-1])
        self.oends.extend(bounds[1:])
        self.pieces.extend(norms)
        self.n += sum(map(len, norms))
        self.delta = None

    def result(self, orig_len: int, cleaned: _Cleaned) -> _Cleaned:
        cleaned.text = "".join(self.pieces)
        if self.n == orig_len and self.nstarts == [0] and self.oends == [-1]:
            cleaned.span_map = _IdentityMap()
        else:
            cleaned.span_map = _PieceMap(self.nstarts, self.ostarts, self.oends, self.n, orig_len)
        return cleaned


def _is_latin_alnum(ch: str) -> bool:
    return ch.isalnum() and ord(ch) < 0x250


def _clean(raw: str) -> _Cleaned:
    """NFKC and removal of invisible characters, with an offset map into `raw`."""
    if raw.isascii():
        return _Cleaned(raw, None)
    try:
        raw.encode("utf-8")
        text = raw
    except UnicodeEncodeError:
        # Same length: positions in `text` are positions in `raw`.
        text = _SURROGATE.sub("\ufffd", raw)
    tables = _nfkc_tables()
    if unicodedata.is_normalized("NFKC", text):
        if _ANY_INVISIBLE.search(text) is None:
            return _Cleaned(text, None)
    else:
        # Most often every changed character maps one-to-one (fullwidth punctuation,
        # no-break spaces): replace them in place and keep the identity map.
        hard = False

        def one_to_one(m: re.Match[str]) -> str:
            nonlocal hard
            c = m.group()
            value = tables.simple.get(c)
            if value is None:
                hard = True
                return c
            return value

        same_length = tables.special.sub(one_to_one, text)
        if not hard and unicodedata.is_normalized("NFKC", same_length):
            return _Cleaned(same_length, None)
    cleaned = _clean_sparse(text, tables)
    # NOTE: the sparse pass normalizes only around the characters NFKC can change. If
    # its output is normalized it equals NFKC of the text (normalizing a part of a
    # string never changes the NFKC of the whole); if not (marks out of canonical
    # order, or text the sparse pass cannot see), redo everything group by group. The
    # dense pass is also faster when changed characters are everywhere.
    if cleaned is not None and unicodedata.is_normalized("NFKC", cleaned.text):
        return cleaned
    return _clean_dense(text)


def _clean_sparse(text: str, tables: _NFKCTables) -> _Cleaned | None:
    """Visit only the characters NFKC may change and the invisible ones; None when
    they are too many for this to pay off."""
    out = _Out()
    cleaned = _Cleaned("", None)
    simple = tables.simple
    unstable = tables.unstable
    invisible = tables.invisible
    pos = 0  # text[:pos] is emitted
    n_marks = 0

    def visible(a: int, b: int) -> None:
        nonlocal pos
        run = text[a:b]
        if unstable.isdisjoint(run):
            return  # stable astral characters (emoji): identity
        if b - a == 1 and run in simple:
            out.same(text[pos:a], pos)
            out.same(simple[run], a)
            pos = b
            return
        if all(map(simple.__contains__, run)):
            out.same(text[pos:a], pos)
            out.same("".join(map(simple.__getitem__, run)), a)
            pos = b
            return
        # Start at the starter before the run: a mark or jamo composes with it.
        g0 = a
        while g0 > pos and a - g0 < _MAX_BACKTRACK:
            g0 -= 1
            if not unicodedata.combining(text[g0]):
                break
        out.same(text[pos:g0], pos)
        _emit_groups(text, g0, b, out, whole=True)
        pos = b

    done = 0
    budget = _SPARSE_RUNS + len(text) // 16
    for m in tables.special.finditer(text):
        a = m.start()
        if a < done:
            continue  # inside a run already handled
        budget -= 1
        if budget < 0:
            return None
        # Extend to a maximal run of special characters (they rarely come in runs).
        run = tables.run.match(text, a)
        b = done = run.end() if run is not None else a + 1
        if invisible.isdisjoint(text[a:b]):
            visible(a, b)
            continue
        for inv in _INVISIBLE.finditer(text, a, b):
            s, e = inv.span()
            if s > a:
                visible(a, s)
            out.same(text[pos:s], pos)
            # NOTE: past the mark cap only smuggled text still needs classifying.
            if n_marks < _MAX_MARKS or _TAG_CHAR.search(text, s, e):
                _classify_run(text, s, e, cleaned)
                n_marks = len(cleaned.marks)
            pos = a = e
        if a < b:
            visible(a, b)
    out.same(text[pos:], pos)
    return out.result(len(text), cleaned)


def _clean_dense(text: str) -> _Cleaned:
    """Every stretch between invisible runs, NFKC group by group."""
    out = _Out()
    cleaned = _Cleaned("", None)
    pos = 0
    n_marks = 0
    for m in _INVISIBLE.finditer(text):
        a, b = m.span()
        if a > pos:
            _emit(text, pos, a, out)
        # NOTE: past the mark cap only smuggled text still needs classifying.
        if n_marks < _MAX_MARKS or _TAG_CHAR.search(text, a, b):
            _classify_run(text, a, b, cleaned)
            n_marks = len(cleaned.marks)
        pos = b
    if pos < len(text):
        _emit(text, pos, len(text), out)
    return out.result(len(text), cleaned)


def _emit(text: str, a: int, b: int, out: _Out) -> None:
    """Append NFKC(text[a:b]) to `out`."""
    seg = text[a:b]
    if unicodedata.is_normalized("NFKC", seg):
        out.same(seg, a)
    else:
        _emit_groups(text, a, b, out, whole=False)


def _emit_groups(text: str, a: int, b: int, out: _Out, *, whole: bool) -> None:
    """NFKC per character, or per group (a starter and its combining marks) when the
    region has combining marks. With `whole`, a region whose groups normalize
    differently together than apart (Hangul jamo) becomes one group."""
    # NOTE: comprehensions and C-level map only: in the dense pass this runs per character.
    nfkc = functools.partial(unicodedata.normalize, "NFKC")
    region = text[a:b]
    if not any(map(unicodedata.combining, region)):
        bounds = list(range(a, b + 1))
        groups: list[str] = list(region)
    else:
        bounds = [i for i, c in enumerate(region, a) if not unicodedata.combining(c)]
        if not bounds or bounds[0] != a:
            bounds.insert(0, a)
        bounds.append(b)
        groups = [text[s:e] for s, e in pairwise(bounds)]
    norms = list(map(nfkc, groups))
    if whole and len(groups) > 1 and nfkc(region) != "".join(norms):
        bounds, norms = _merge_composing(text, bounds, norms)
    if len(norms) == b - a and all(len(x) == 1 for x in norms):
        out.same("".join(norms), a)
        return
    out.groups(norms, bounds)


def _merge_composing(text: str, bounds: list[int], norms: list[str]) -> tuple[list[int], list[str]]:
    """Merge neighbouring groups that normalize differently together than apart
    (halfwidth kana and their voiced marks, Hangul jamo). Runs only on short stretches
    around changed characters; a merged group is capped at `_MAX_BACKTRACK` characters."""
    out_bounds = [bounds[0]]
    out_norms: list[str] = []
    start, current = bounds[0], norms[0]
    for i in range(1, len(norms)):
        s, e = bounds[i], bounds[i + 1]
        together = unicodedata.normalize("NFKC", text[start:e])
        if together != current + norms[i] and e - start <= _MAX_BACKTRACK:
            current = together
            continue
        out_bounds.append(s)
        out_norms.append(current)
        start, current = s, norms[i]
    out_bounds.append(bounds[-1])
    out_norms.append(current)
    return out_bounds, out_norms


def _classify_run(text: str, a: int, b: int, out: _Cleaned) -> None:
    """Report the invisible run text[a:b] as marks (and decode smuggled text)."""
    prev = text[a - 1] if a > 0 else ""
    nxt = text[b] if b < len(text) else ""
    inside = prev.isalnum() and nxt.isalnum()
    for m in _KIND_RUNS.finditer(text, a, b):
        kind = m.lastgroup or "zw"
        s, e = m.span()
        run = m.group()
        if kind == "zw":
            # ZWJ in emoji sequences, ZWJ/ZWNJ in Indic and Arabic scripts: benign.
            benign = _JOINERS_ONLY.fullmatch(run) is not None and not (
                _is_latin_alnum(prev) and _is_latin_alnum(nxt)
            )
            if not benign:
                out.marks.append(("zero_width", s, e, inside))
        elif kind == "bidi":
            out.marks.append(("bidi_control", s, e, inside))
        elif kind == "tag_chars":
            if prev == _BLACK_FLAG and s == a and _FLAG_TAGS.fullmatch(run):
                continue  # subdivision flag emoji such as England's
            out.marks.append(("tag_chars", s, e, inside))
            decoded = "".join(chr(ord(c) - 0xE0000) for c in run if 0xE0020 <= ord(c) <= 0xE007E)
            if decoded.strip():
                out.smuggled.append(("tag_chars", decoded, s, e))
        elif e - s >= 2:
            # Runs of variation selectors can carry one byte each ("emoji smuggling").
            out.marks.append(("zero_width", s, e, inside))
            data = bytes(
                ord(c) - 0xFE00 if ord(c) <= 0xFE0F else ord(c) - 0xE0100 + 16 for c in run
            )
            try:
                decoded = data.decode("utf-8")
            except UnicodeDecodeError:
                continue
            if _mostly_printable(decoded, min_len=4):
                out.smuggled.append(("variation_selectors", decoded, s, e))


def _mostly_printable(s: str, *, min_len: int = 8) -> bool:
    if len(s.strip()) < min_len or _LETTER.search(s) is None:
        return False
    if s.isprintable():
        return True
    bad = sum(1 for c in s if not c.isprintable() and c not in "\t\n\r")
    return bad * 5 <= len(s)


def _utf8(data: bytes, truncated: bool) -> str | None:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        # A prefix cut for the budget may end inside a multi-byte character.
        if truncated and err.start >= len(data) - 3:
            return data[: err.start].decode("utf-8", "ignore")
        return None


def _decode_base64(run: str, budget: int) -> str | None:
    body = run.rstrip("=")
    pad = len(run) - len(body)
    if len(body) % 4 == 1 or (pad and (len(body) + pad) % 4):
        return None
    if not pad:
        # Ordinary words, identifiers and lowercase paths are in the alphabet too:
        # require what encoded text nearly always has (mixed case or digits) or
        # explicit padding.
        has_upper = body.lower() != body
        has_lower = body.upper() != body
        if not (has_upper and has_lower) and not (
            (has_upper or has_lower) and _DIGIT.search(body) is not None
        ):
            return None
    if _HEXISH.fullmatch(body):
        return None  # hex digests and UUIDs are handled (and rejected) as hex
    urlsafe = "-" in body or "_" in body
    if urlsafe and ("+" in body or "/" in body):
        return None
    limit = (budget // 3 + 1) * 4
    truncated = len(body) > limit
    if truncated:
        body = body[:limit]
    if urlsafe:
        body = body.replace("-", "+").replace("_", "/")
    try:
        data = base64.b64decode(body + "=" * (-len(body) % 4), validate=True)
    except (binascii.Error, ValueError):
        return None
    return _utf8(data, truncated)


def _decode_hex(digits: str, budget: int) -> str | None:
    if len(digits) % 2:
        return None
    truncated = len(digits) > 2 * budget + 2
    if truncated:
        digits = digits[: 2 * budget + 2]
    try:
        data = bytes.fromhex(digits)
    except ValueError:
        return None
    return _utf8(data, truncated)


def _decode_url(token: str) -> str | None:
    if len(_PCT.findall(token)) < 2 and _PCT_ALNUM.search(token) is None:
        return None
    try:
        decoded = urllib.parse.unquote(token, errors="strict")
    except UnicodeDecodeError:
        return None
    return decoded if decoded != token else None


def _url_tokens(text: str) -> list[tuple[int, int]]:
    """Whitespace/quote-delimited tokens that contain a %XX escape. Linear."""
    out: list[tuple[int, int]] = []
    end = 0
    for m in _PCT.finditer(text):
        p = m.start()
        if p < end:
            continue
        a = p
        lo = max(end, p - _URL_LEFT_SCAN)
        while a > lo and text[a - 1] not in _URL_STOP:
            a -= 1
        tail = _URL_TAIL.match(text, m.end())
        b = tail.end() if tail else m.end()
        out.append((a, b))
        end = b
    return out


def _image(text: str) -> bytes:
    """One byte per character (latin-1, "?" for the rest): the same positions as
    `text`, and substring checks on bytes are much faster than on wide strings."""
    return text.encode("latin-1", "replace")


def _payload_candidates(text: str, image: bytes) -> list[tuple[int, int, str, str]]:
    """(start, end, origin, payload) for every run that might decode, sorted."""
    cands: list[tuple[int, int, str, str]] = []
    classes = image.translate(_B64_CLASSES)
    # NOTE: bytes.find skips ahead by the needle's length on a miss: faster than re.
    a = classes.find(_B64_MIN_RUN)
    while a >= 0:
        m = _B64_CLASS_RUN.match(classes, a)
        b = m.end() if m is not None else a + len(_B64_MIN_RUN)
        cands.append((a, b, "base64", text[a:b]))
        # Hex digits are in the base64 alphabet: every hex run lies in a base64 run.
        for h in _HEX_RUN.finditer(text, a, b):
            cands.append((h.start(), h.end(), "hex", h.group(1)))
        a = classes.find(_B64_MIN_RUN, b)
    if _HEX_ESCAPE_OPEN.search(image) is not None:
        for e in _HEX_ESCAPES.finditer(text):
            cands.append((e.start(), e.end(), "hex", e.group().replace("\\x", "")))
    if b"%" in image:
        for a, b in _url_tokens(text):
            cands.append((a, b, "url_encoded", text[a:b]))
    cands.sort()
    return cands


def _comment_bounds(text: str, a: int) -> tuple[int, int, int]:
    """For an HTML comment opening at `a`: content start, content end, comment end."""
    c0 = a + 4
    if text.startswith(">", c0) or text.startswith("->", c0):
        return c0, c0, text.index(">", c0) + 1  # "<!-->" and "<!--->" close at once
    b = text.find("-->", c0)
    return (c0, len(text), len(text)) if b < 0 else (c0, b, b + 3)


def _line_start(text: str, pos: int, limit: int) -> int | None:
    """Start of the line holding `pos` if it lies at most `limit` characters back."""
    nl = text.rfind("\n", max(0, pos - limit - 1), pos)
    if nl >= 0:
        return nl + 1
    return 0 if pos <= limit else None


def _fence_at(text: str, a: int) -> bool:
    """A run of three or more backticks or tildes at `a` has at most three spaces
    before it on its line (so it may open or close a fenced code block)."""
    k = a
    while k > 0 and a - k < 3 and text[k - 1] == " ":
        k -= 1
    return k == 0 or text[k - 1] == "\n"


def _fence_end(text: str, start: int, fence: str) -> int:
    """End of the line that closes a fence opened with `fence`, or the end of the text
    (an unclosed fence runs to the end of the document)."""
    probe = fence[0] * 3
    i = start
    while (j := text.find(probe, i)) >= 0:
        eol = text.find("\n", j)
        eol = len(text) if eol < 0 else eol
        if _fence_at(text, j):
            run = text[j:eol].rstrip(" \t\r")
            if len(run) >= len(fence) and not run.strip(fence[0]):
                return eol
        i = eol
    return len(text)


class _RawHtml:
    """Where markdown is not parsed: inside HTML blocks. Conservative on purpose: a
    code span or fence in doubt is not treated as code, so what it holds is surfaced
    (an attacker gains nothing by confusing this parser)."""

    def __init__(self, text: str) -> None:
        first = _HTML_FIRST_LINE.match(text)
        self.html_lines = ([first.end() - 1] if first else []) + [
            m.end() - 1 for m in _HTML_LINE.finditer(text)
        ]
        self.blank_ends = [m.end() for m in _BLANK_LINE.finditer(text)]
        # <pre>, <script>, <style> and <textarea> blocks run to their closing tag,
        # across blank lines. Kept as sorted, disjoint (start, end) intervals.
        self.raw_starts: list[int] = []
        self.raw_ends: list[int] = []
        closes: dict[str, list[int]] | None = None
        for lt in self.html_lines:
            tag = _RAW_TAG.match(text, lt + 1)
            if tag is None:
                continue
            if closes is None:
                closes = {}
                for c in _RAW_CLOSE.finditer(text):
                    closes.setdefault(c.group(1).lower(), []).append(c.end())
            ends = closes.get(tag.group(1).lower(), [])
            k = bisect_left(ends, tag.end())
            end = ends[k] if k < len(ends) else len(text)
            if self.raw_ends and lt <= self.raw_ends[-1]:
                self.raw_ends[-1] = max(self.raw_ends[-1], end)
            else:
                self.raw_starts.append(lt)
                self.raw_ends.append(end)

    def holds(self, pos: int, block_start: int) -> bool:
        """`pos` may be inside an HTML block: a line starting with "<" earlier in the
        same paragraph, or an open <pre>, <script>, <style> or <textarea> block."""
        i = bisect_right(self.blank_ends, pos) - 1
        para = max(block_start, self.blank_ends[i] if i >= 0 else 0)
        k = bisect_left(self.html_lines, para)
        if k < len(self.html_lines) and self.html_lines[k] <= pos:
            return True
        r = bisect_right(self.raw_starts, pos) - 1
        return r >= 0 and pos < self.raw_ends[r]


def _code_span_ok(text: str, opener: int, close: int) -> bool:
    """A code span markdown renders for sure: on one line, not in a table row, not
    opened inside an HTML tag, autolink or link destination (those take precedence)."""
    if "\n" in text[opener:close] or "|" in text[opener:close]:
        return False
    line_start = _line_start(text, opener, 1000)
    if line_start is None:
        return False
    lt = text.rfind("<", line_start, opener)
    if lt >= 0 and text.find(">", lt, opener) < 0:
        after = text[lt + 1 : lt + 2]
        if after.isalpha() or after in ("/", "!", "?"):
            return False
    dest = text.rfind("](", line_start, opener)
    return dest < 0 or text.find(")", dest, opener) >= 0


def _code_regions(text: str, limit: int) -> tuple[list[int], list[int]]:
    """Spans of inline code and fenced code blocks, as (starts, ends). Markup inside
    them is shown literally. Scanned in order with HTML comments: a comment that opens
    first hides the backticks in it, and a code span that opens first shows a comment
    start in it. Linear apart from one bisect per code span. Stops after `limit`
    (the last position a caller will ask about)."""
    starts: list[int] = []
    ends: list[int] = []
    runs: dict[int, list[int]] | None = None
    html: _RawHtml | None = None
    has_html = "<" in text
    pos = 0
    eol = -1  # end of the line of the current token (cached: tokens come in order)
    while (m := _MARKUP_TOKEN.search(text, pos)) is not None and m.start() <= limit:
        a, b = m.span()
        if text[a] == "<":
            pos = _comment_bounds(text, a)[2]
            continue
        pos = b
        block_start = ends[-1] if ends else 0
        if has_html:
            html = html or _RawHtml(text)
            if html.holds(a, block_start):
                continue
        if b > eol:
            eol = text.find("\n", b)
            eol = len(text) if eol < 0 else eol
        if b - a >= 3 and _fence_at(text, a) and (text[a] == "~" or "`" not in text[b:eol]):
            end = _fence_end(text, eol + 1, text[a:b]) if eol < len(text) else eol
            starts.append(a)
            ends.append(end)
            pos = end
            continue
        if text[a] == "~":
            continue
        # A backslash escapes the first backtick of a run (not a closing one).
        escaped = False
        i = a
        while i > 0 and text[i - 1] == "\\":
            escaped = not escaped
            i -= 1
        opener = a + int(escaped)
        size = b - opener
        if size == 0:
            continue
        if runs is None:
            runs = {}
            for r in _BACKTICKS.finditer(text):
                runs.setdefault(r.end() - r.start(), []).append(r.start())
        same = runs.get(size, [])
        k = bisect_left(same, b)
        if k == len(same) or same[k] > eol:
            continue  # no closing run on this line: literal backticks
        close = same[k]
        if not _code_span_ok(text, opener, close):
            continue
        starts.append(opener)
        ends.append(close + size)
        pos = close + size
    return starts, ends


def _inside(regions: tuple[list[int], list[int]] | None, pos: int) -> bool:
    if regions is None:
        return False
    starts, ends = regions
    i = bisect_right(starts, pos) - 1
    return i >= 0 and pos < ends[i]


class _Builder:
    """Accumulates layers and marks under the caller's bounds."""

    def __init__(self, max_depth: int, max_layers: int, max_decode_chars: int) -> None:
        self.max_depth = max_depth
        self.max_layers = max(1, max_layers)
        self.budget = max(0, max_decode_chars)
        self.attempts = 0
        self.layers: list[Layer] = []
        self.marks: list[HiddenMark] = []
        self._nested: dict[tuple[int, int], int] = {}

    def room(self) -> bool:
        return len(self.layers) < self.max_layers

    def mark(self, kind: str, span: tuple[int, int], count: int, inside: bool) -> None:
        if len(self.marks) < _MAX_MARKS:
            self.marks.append(HiddenMark(kind, span, count, inside))

    def nested(self, span: tuple[int, int], layers: int) -> None:
        """A payload `layers` encodings deep at `span` (the outermost payload): one
        mark per span, with the deepest nesting seen there."""
        at = self._nested.get(span)
        if at is None:
            if len(self.marks) < _MAX_MARKS:
                self._nested[span] = len(self.marks)
                self.marks.append(HiddenMark("nested_encoding", span, layers, False))
        elif self.marks[at].count < layers:
            self.marks[at] = HiddenMark("nested_encoding", span, layers, False)

    def add_cleaned(self, cleaned: _Cleaned, depth: int, lift: _SpanMap) -> None:
        """Marks and smuggled-text layers found while cleaning one text."""
        for kind, s, e, inside in cleaned.marks:
            self.mark(kind, lift.map(s, e), e - s, inside)
        for origin, decoded, s, e in cleaned.smuggled:
            if not self.room():
                break
            inner = _clean(decoded)
            self.layers.append(Layer(inner.text, origin, depth, True, _FixedMap(lift.map(s, e))))

    def surface_carriers(self, layer: Layer, image: bytes) -> None:
        """`image` is `_image(layer.text)`: the substring pre-checks run on it."""
        text = layer.text
        has_lt = b"<" in image
        comments = has_lt and _COMMENT_OPEN.search(image) is not None
        links = _LINK_OPEN.search(image) is not None
        refs = _REF_OPEN.search(image) is not None
        attrs = has_lt and b"=" in image and _ATTR_EQ_BYTES.search(image) is not None
        if not (comments or links or refs or attrs):
            return
        code = None
        if b"`" in image or _TILDE_FENCE.search(image) is not None:
            last = max(
                text.rfind("<!--") if comments else -1,
                text.rfind("](") if links else -1,
                text.rfind("]:") if refs else -1,
                text.rfind("=") if attrs else -1,
            )
            code = _code_regions(text, last)
        parent = layer._span_map or _IdentityMap()
        if comments:
            self._html_comments(layer, parent, code)
        if links:
            for m in _MD_LINK.finditer(text):
                a = m.start()
                if _inside(code, a):
                    continue
                if a > 0 and text[a - 1] == "!" and m.group(1).strip():
                    self._carrier(layer, parent, "alt_text", m.start(1), m.group(1))
                for g in (2, 3, 4):
                    if m.group(g) and m.group(g).strip():
                        self._carrier(layer, parent, "link_title", m.start(g), m.group(g))
        if refs:
            for m in _MD_REF_TITLE.finditer(text):
                if _inside(code, m.start()):
                    continue
                for g in (1, 2, 3):
                    if m.group(g) and m.group(g).strip():
                        self._carrier(layer, parent, "link_title", m.start(g), m.group(g))
        if attrs:
            for origin, offset, content in _html_attrs(text):
                if not _inside(code, offset):
                    self._carrier(layer, parent, origin, offset, content)

    def _carrier(
        self, layer: Layer, parent: _SpanMap, origin: str, offset: int, content: str
    ) -> None:
        if self.room():
            self.layers.append(Layer(content, origin, layer.depth, True, _SliceMap(parent, offset)))

    def _html_comments(
        self, layer: Layer, parent: _SpanMap, code: tuple[list[int], list[int]] | None
    ) -> None:
        text = layer.text
        pos = 0
        while (a := text.find("<!--", pos)) >= 0:
            if _inside(code, a):
                pos = a + 4  # shown as code, not a comment
                continue
            c0, c1, end = _comment_bounds(text, a)
            self.mark("html_comment", layer.to_original(a, end), end - a, False)
            content = text[c0:c1]
            if content.strip() and self.room():
                self.layers.append(
                    Layer(content, "html_comment", layer.depth, True, _SliceMap(parent, c0))
                )
            if len(self.marks) >= _MAX_MARKS and not self.room():
                break
            pos = end

    def _decoded(self, text: str, image: bytes) -> Iterable[tuple[int, int, str, str]]:
        """(start, end, origin, decoded text) of each payload of `text` that decodes
        to mostly printable text, within the attempt and character budgets."""
        last_end = -1
        for start, end, origin, payload in _payload_candidates(text, image):
            if start < last_end:
                continue
            if self.budget <= 0 or self.attempts >= _MAX_DECODE_ATTEMPTS:
                return
            self.attempts += 1
            if origin == "hex":
                decoded = _decode_hex(payload, self.budget)
                ok = decoded is not None and _mostly_printable(decoded)
            elif origin == "base64":
                decoded = _decode_base64(payload, self.budget)
                ok = decoded is not None and _mostly_printable(decoded)
            else:
                decoded = _decode_url(payload[: self.budget * 3])
                ok = decoded is not None and _mostly_printable(decoded, min_len=4)
            if not ok or decoded is None:
                continue
            last_end = end
            yield start, end, origin, decoded

    def decode_payloads(self, layer: Layer, image: bytes) -> None:
        """`image` is `_image(layer.text)`."""
        for start, end, origin, decoded in self._decoded(layer.text, image):
            if not self.room():
                return
            decoded = decoded[: self.budget]
            self.budget -= len(decoded)
            span = layer.to_original(start, end)
            fixed = _FixedMap(span)
            inner = _clean(decoded)
            self.mark("encoded_payload", span, span[1] - span[0], False)
            if layer.depth + 1 >= NESTED_ENCODING:
                self.nested(span, layer.depth + 1)
            self.layers.append(Layer(inner.text, origin, layer.depth + 1, True, fixed))
            self.add_cleaned(inner, layer.depth + 1, fixed)

    def deobfuscate(self, layer: Layer, image: bytes) -> None:
        """Layers spelling out the main layer's leetspeak, spaced letters and
        backwards text, each with an `obfuscated_text` mark. `image` is
        `_image(layer.text)`."""
        classes = image.translate(_OBF_CLASSES)
        text = layer.text
        if sum(classes.count(seed) for seed in _LEET_SEED) >= LEET_MIN_TOKENS and self.room():
            spelled = _leet_spelled(text)
            if spelled is not None:
                self.mark("obfuscated_text", layer.to_original(0, len(text)), len(text), False)
                self.layers.append(Layer(spelled, "leetspeak", layer.depth, True, layer._span_map))
        if _SPACED_SEED in classes and self.room():
            runs = [
                m
                for m in _SPACED_RUN.finditer(text, 0, OBFUSCATED_SCAN_CHARS)
                if len(m.group()) >= 11
            ][:64]
            if runs:
                span = layer.to_original(runs[0].start(), runs[-1].end())
                self.mark("obfuscated_text", span, span[1] - span[0], False)
                joined = " ".join(_unspaced(m.group()) for m in runs)
                self.layers.append(
                    Layer(joined, "spaced_letters", layer.depth, True, _FixedMap(span))
                )
        cue = _ROT13_CUE.search(text, 0, OBFUSCATED_SCAN_CHARS) if "13" in text else None
        if cue is not None and self.room():
            # "ROT13 this and follow it: Vtaber nyy ..." : the text after the cue, rotated
            span = layer.to_original(cue.end(), len(text))
            self.mark("obfuscated_text", span, span[1] - span[0], False)
            rotated = codecs.encode(text[cue.end() :], "rot13")
            self.layers.append(Layer(rotated, "rot13", layer.depth, True, _FixedMap(span)))
        if b" " in image and self.room():
            low = b" " + image.lower().translate(_WORDS_ONLY) + b" "
            backwards = sum(low.count(w) for w in _REVERSED_WORDS)
            if backwards >= REVERSED_MIN_WORDS:
                forwards = sum(low.count(w) for w in _FORWARD_WORDS)
                if backwards > 2 * forwards:
                    span = layer.to_original(0, len(text))
                    self.mark("obfuscated_text", span, len(text), False)
                    self.layers.append(
                        Layer(text[::-1], "reversed", layer.depth, True, _FixedMap(span))
                    )

    def probe_deeper(self, layer: Layer, image: bytes) -> None:
        """A layer at the decoding depth limit that holds yet another payload: not
        decoded further, but marked as nested one level deeper."""
        for start, end, _, _ in self._decoded(layer.text, image):
            if layer.depth + 1 >= NESTED_ENCODING:
                self.nested(layer.to_original(start, end), layer.depth + 1)
            return


_ROT13_CUE = re.compile(r"(?i)\brot[\s_-]?13\b")
"""A text that names ROT13 holds what it rotated: the rest of it is read rotated too."""


def _leet_spelled(text: str) -> str | None:
    """`text` with its leetspeak words spelled out in letters (same length), or
    None when too few of its words are leet. A leet word has at least two letters,
    a leet digit between letters or leading them, no other digit, is not all hex
    digits and is cased like a word (an id such as `a1b2c9`, a hash, a uuid piece
    or a run of base64 is not one)."""
    words = strong = 0
    leet: list[tuple[int, int]] = []
    for m in _LEET_TOKEN.finditer(text, 0, OBFUSCATED_SCAN_CHARS):
        words += 1
        w = m.group()
        if len(w) < 3 or len(w) > 24:
            continue
        if not any(c in "013457" for c in w) or any(c in "2689" for c in w):
            continue  # @ and $ alone are an address or a variable, not leet
        if _HEX_WORD.fullmatch(w) or not (w[1:].islower() or w.isupper()):
            continue  # a hash or uuid piece, or mixed case: random, not a word
        letters = sum(c.isalpha() for c in w)
        if letters < 2 or letters == len(w):
            continue
        classes = "".join("a" if c.isalpha() else "1" for c in w)
        if "a1a" in classes or (classes.startswith("1aa") and w[0].isdigit()):
            strong += 1
            leet.append(m.span())
        elif classes.endswith("aa1"):
            leet.append(m.span())  # spelled out too, but no evidence alone (ipv4, mp3)
    if strong < LEET_MIN_TOKENS or strong < LEET_MIN_SHARE * words:
        return None
    out = list(text)
    for a, b in leet:
        out[a:b] = text[a:b].translate(_LEET_MAP)
    return "".join(out)


def _unspaced(run: str) -> str:
    """`i g n o r e   a l l` -> `ignore all`: the narrowest gap joins letters, a
    wider one separates words."""
    gaps = re.findall(r"[ .*_-]+", run)
    narrow = min(len(g) for g in gaps)
    wide = "[ .*_-]{" + str(narrow + 1) + ",}"
    words = re.split(wide, run) if narrow < 3 else [run]
    return " ".join(re.sub(r"[ .*_-]", "", w) for w in words)


def _html_attrs(text: str) -> list[tuple[str, int, str]]:
    """(origin, offset, content) of each non-empty alt= / title= attribute value."""
    out: list[tuple[str, int, str]] = []
    last_end = 0
    for eq in _ATTR_EQ.finditer(text):
        name_end = eq.start()
        while name_end > last_end and text[name_end - 1] in " \t":
            name_end -= 1
        m = None
        for start in (name_end - 3, name_end - 5):  # "alt", "title"
            if start >= last_end and (m := _HTML_ATTR.match(text, start)) is not None:
                break
        if m is None:
            continue
        last_end = m.end()
        g = 2 if m.group(2) is not None else 3
        if m.group(g).strip():
            origin = "alt_text" if m.group(1).lower() == "alt" else "link_title"
            out.append((origin, m.start(g), m.group(g)))
    return out


def normalize(
    text: str, *, max_depth: int = 4, max_layers: int = 16, max_decode_chars: int = 65536
) -> Normalized:
    """Normalize `text` for scanning and surface every hidden carrier as its own layer.

    Encoded payloads are decoded up to `max_depth` encodings deep (base64 of
    base64 of ...); a payload `NESTED_ENCODING` (3) or more encodings deep is
    also reported as a `nested_encoding` mark whose count is the depth (one past
    `max_depth` when the deepest layer holds a payload still), since benign text
    rarely encodes anything three times.

    Never raises on any `str` (lone surrogates become U+FFFD in the layers; the
    original is kept as given). Time is linear in `len(text)`.

    >>> n = normalize("pass\\u200bword")
    >>> n.text, n.hidden[0].kind, n.hidden[0].inside_word
    ('password', 'zero_width', True)
    """
    cleaned = _clean(text)
    main_map = cleaned.span_map or _IdentityMap()
    builder = _Builder(max_depth, max_layers, max_decode_chars)
    builder.layers.append(Layer(cleaned.text, "text", 0, False, main_map))
    builder.add_cleaned(cleaned, 0, _IdentityMap())
    i = 0
    while i < len(builder.layers):
        layer = builder.layers[i]
        i += 1
        if layer.origin in OBFUSCATED_ORIGINS:
            continue
        carriers = layer.origin not in _CARRIER_ORIGINS
        payloads = layer.depth < max_depth
        probe = not payloads and layer.origin in _PAYLOAD_ORIGINS
        if not (carriers or payloads or probe):
            continue
        image = _image(layer.text)
        if carriers:
            builder.surface_carriers(layer, image)
        if payloads:
            builder.decode_payloads(layer, image)
        elif probe:
            builder.probe_deeper(layer, image)
        if layer.origin == "text":
            builder.deobfuscate(layer, image)
    return Normalized(text, tuple(builder.layers), tuple(builder.marks))
