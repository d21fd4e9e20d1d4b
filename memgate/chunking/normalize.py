"""Normalization before scanning: what a model reads, and what a human would not see.

`normalize(text)` returns the main layer (NFKC, invisible characters removed, with an
offset map back into the original) plus one layer per hidden carrier: Unicode tag
characters, HTML comments, markdown link titles and alt text, and base64 / hex /
URL-encoded payloads that decode to text (decoded recursively, bounded). Every
invisible run and every carrier is also reported as a `HiddenMark`.

Everything here is bounded: linear scans, regexes without nested ambiguous
quantifiers, a cap on layers, on decoded characters and on marks.
"""

from __future__ import annotations

import base64
import binascii
import re
import unicodedata
import urllib.parse
from dataclasses import dataclass, field
from itertools import chain, pairwise, repeat

__all__ = ["HiddenMark", "Layer", "Normalized", "normalize"]

# NOTE: a cap on reported marks keeps the output bounded on adversarial input
# (one zero-width space between every letter of a 1 MiB text).
_MAX_MARKS = 4096
_MAX_DECODE_ATTEMPTS = 10_000
_URL_LEFT_SCAN = 2048

# Characters removed from the main layer. Joiners and variation selectors are removed
# too (they only change rendering) but are reported only when they look like smuggling.
_TAG = "\U000e0000-\U000e007f"
_BIDI = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
_VS = "\ufe00-\ufe0f\U000e0100-\U000e01ef"
_ZW = "\u00ad\u034f\u115f\u1160\u17b4\u17b5\u180e\u200b-\u200d\u2060-\u2064\u3164\ufeff\uffa0"
_INVISIBLE = re.compile(f"[{_TAG}{_BIDI}{_VS}{_ZW}]+")
_KIND_RUNS = re.compile(
    f"(?P<tag_chars>[{_TAG}]+)|(?P<bidi>[{_BIDI}]+)|(?P<vs>[{_VS}]+)|(?P<zw>[{_ZW}]+)"
)
_TAG_CHAR = re.compile(f"[{_TAG}]")
_JOINERS_ONLY = re.compile("[\u200c\u200d]+")
_FLAG_TAGS = re.compile("[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,6}\U000e007f")
_BLACK_FLAG = "\U0001f3f4"
_SURROGATE = re.compile("[\ud800-\udfff]")

# Encoded payloads. Each pattern is a single character class run with one-character
# lookarounds, so a failed attempt costs O(run) once per run, never per position.
_B64_RUN = re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{16,}={0,2}")
_HEX_RUN = re.compile(r"(?<![0-9A-Za-z])(?:0x)?([0-9A-Fa-f]{16,})(?![0-9A-Za-z])")
_HEX_ESCAPES = re.compile(r"(?:\\x[0-9A-Fa-f]{2}){8,}")
_HEXISH = re.compile(r"[0-9A-Fa-f\-]+")
_PCT = re.compile(r"%[0-9A-Fa-f]{2}")
_PCT_ALNUM = re.compile(r"%(?:3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa])")
_URL_STOP = frozenset(" \t\r\n\f\v\"'<>()[]{}`")
_URL_TAIL = re.compile(r"[^\s\"'<>()\[\]{}`]*")
_LETTER = re.compile(r"[^\W\d_]")

# Hidden carriers in markdown / HTML.
_MD_LINK = re.compile(
    r"(!?)\[([^\[\]\n]{0,1000})\]\(\s*(?:<[^<>\n]{0,2000}>|[^\s()]{0,2000})"
    r"(?:\s+(?:\"([^\"\n]{0,1000})\"|'([^'\n]{0,1000})'|\(([^()\n]{0,1000})\)))?\s*\)"
)
_MD_REF_TITLE = re.compile(
    r"^[ \t]{0,3}\[[^\[\]\n]{1,200}\]:[ \t]*\S{1,2000}[ \t]+"
    r"(?:\"([^\"\n]{1,1000})\"|'([^'\n]{1,1000})'|\(([^()\n]{1,1000})\))[ \t]*$",
    re.MULTILINE,
)
_HTML_ATTR = re.compile(
    r"\b(alt|title)[ \t]*=[ \t]*(?:\"([^\"\n<>]{1,2000})\"|'([^'\n<>]{1,2000})')",
    re.IGNORECASE,
)

# Layers that are themselves carriers are not searched for further carriers (an HTML
# comment inside a comment's text would otherwise be surfaced again and again).
_CARRIER_ORIGINS = frozenset({"tag_chars", "html_comment", "link_title", "alt_text"})


class _SpanMap:
    """Maps a half-open span of a layer's text to the original text."""

    __slots__ = ()

    def map(self, start: int, end: int) -> tuple[int, int]:
        raise NotImplementedError


class _IdentityMap(_SpanMap):
    __slots__ = ()

    def map(self, start: int, end: int) -> tuple[int, int]:
        return start, end


class _OffsetMap(_SpanMap):
    """Per normalized character: the original group [starts[i], ends[i]) it came from."""

    __slots__ = ("_ends", "_orig_len", "_starts")

    def __init__(self, starts: list[int], ends: list[int], orig_len: int) -> None:
        self._starts = starts
        self._ends = ends
        self._orig_len = orig_len

    def map(self, start: int, end: int) -> tuple[int, int]:
        if start < end:
            return self._starts[start], self._ends[end - 1]
        if start < len(self._starts):
            s = self._starts[start]
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
    `alt_text`, `base64`, `hex`, `url_encoded` or `variation_selectors`."""
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
    """`zero_width`, `bidi_control`, `tag_chars`, `html_comment` or `encoded_payload`."""
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
    starts: list[int] | None  # None: identity mapping
    ends: list[int] | None
    marks: list[tuple[str, int, int, bool]] = field(default_factory=list)
    smuggled: list[tuple[str, str, int, int]] = field(default_factory=list)


class _NFKCCache(dict[str, str]):
    """Per-call memo of NFKC results (text repeats the same few characters)."""

    def __missing__(self, key: str) -> str:
        value = unicodedata.normalize("NFKC", key)
        self[key] = value
        return value


def _is_latin_alnum(ch: str) -> bool:
    return ch.isalnum() and ord(ch) < 0x250


def _clean(raw: str) -> _Cleaned:
    """NFKC and removal of invisible characters, with an offset map into `raw`."""
    if raw.isascii():
        return _Cleaned(raw, None, None)
    try:
        raw.encode("utf-8")
        text = raw
    except UnicodeEncodeError:
        # Same length: positions in `text` are positions in `raw`.
        text = _SURROGATE.sub("\ufffd", raw)
    if _INVISIBLE.search(text) is None and unicodedata.is_normalized("NFKC", text):
        return _Cleaned(text, None, None)
    starts: list[int] = []
    ends: list[int] = []
    out = _Cleaned("", starts, ends)
    pieces: list[str] = []
    cache = _NFKCCache()
    pos = 0
    n_marks = 0
    for m in _INVISIBLE.finditer(text):
        a, b = m.span()
        if a > pos:
            if text[pos:a].isascii():
                pieces.append(text[pos:a])
                starts.extend(range(pos, a))
                ends.extend(range(pos + 1, a + 1))
            else:
                _emit(text, pos, a, pieces, starts, ends, cache)
        # NOTE: past the mark cap only smuggled text still needs classifying.
        if n_marks < _MAX_MARKS or _TAG_CHAR.search(text, a, b):
            _classify_run(text, a, b, out)
            n_marks = len(out.marks)
        pos = b
    if pos < len(text):
        _emit(text, pos, len(text), pieces, starts, ends, cache)
    out.text = "".join(pieces)
    return out


def _emit(
    text: str,
    a: int,
    b: int,
    pieces: list[str],
    starts: list[int],
    ends: list[int],
    cache: _NFKCCache,
) -> None:
    """Append NFKC(text[a:b]) to `pieces` and its per-character origins to starts/ends."""
    seg = text[a:b]
    if unicodedata.is_normalized("NFKC", seg):
        pieces.append(seg)
        starts.extend(range(a, b))
        ends.extend(range(a + 1, b + 1))
        return
    _emit_groups(text, a, b, pieces, starts, ends, cache)


def _emit_groups(
    text: str,
    a: int,
    b: int,
    pieces: list[str],
    starts: list[int],
    ends: list[int],
    cache: _NFKCCache,
) -> None:
    """NFKC per character, or per group (a starter and its combining marks) when the
    region has combining marks."""
    # NOTE: comprehensions and C-level map/chain only: this runs per character.
    region = text[a:b]
    comb = list(map(unicodedata.combining, region))
    if not any(comb):
        bounds = list(range(a, b + 1))
        groups: list[str] = list(region)
    else:
        bounds = [i for i, c in enumerate(comb, a) if not c]
        if not bounds or bounds[0] != a:
            bounds.insert(0, a)
        bounds.append(b)
        groups = [text[s:e] for s, e in pairwise(bounds)]
    norms = [cache[g] for g in groups]
    pieces.extend(norms)
    lens = list(map(len, norms))
    if lens.count(1) == len(lens) and len(groups) == b - a:
        starts.extend(range(a, b))
        ends.extend(range(a + 1, b + 1))
        return
    starts.extend(chain.from_iterable(map(repeat, bounds, lens)))
    ends.extend(chain.from_iterable(map(repeat, bounds[1:], lens)))


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
    if _HEXISH.fullmatch(body):
        return None  # hex digests and UUIDs are handled (and rejected) as hex
    urlsafe = "-" in body or "_" in body
    if urlsafe and ("+" in body or "/" in body):
        return None
    # Ordinary words, identifiers and lowercase paths are in the alphabet too: require
    # what encoded text nearly always has (mixed case or digits) or explicit padding.
    has_upper = any(c.isupper() for c in body)
    has_lower = any(c.islower() for c in body)
    has_digit = any(c.isdigit() for c in body)
    if not pad and not ((has_upper and has_lower) or (has_digit and (has_upper or has_lower))):
        return None
    if len(body) % 4 == 1 or (pad and (len(body) + pad) % 4):
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


class _Builder:
    """Accumulates layers and marks under the caller's bounds."""

    def __init__(self, max_depth: int, max_layers: int, max_decode_chars: int) -> None:
        self.max_depth = max_depth
        self.max_layers = max(1, max_layers)
        self.budget = max(0, max_decode_chars)
        self.attempts = 0
        self.layers: list[Layer] = []
        self.marks: list[HiddenMark] = []

    def room(self) -> bool:
        return len(self.layers) < self.max_layers

    def mark(self, kind: str, span: tuple[int, int], count: int, inside: bool) -> None:
        if len(self.marks) < _MAX_MARKS:
            self.marks.append(HiddenMark(kind, span, count, inside))

    def add_cleaned(self, cleaned: _Cleaned, depth: int, lift: _SpanMap) -> None:
        """Marks and smuggled-text layers found while cleaning one text."""
        for kind, s, e, inside in cleaned.marks:
            self.mark(kind, lift.map(s, e), e - s, inside)
        for origin, decoded, s, e in cleaned.smuggled:
            if not self.room():
                break
            inner = _clean(decoded)
            self.layers.append(Layer(inner.text, origin, depth, True, _FixedMap(lift.map(s, e))))

    def surface_carriers(self, layer: Layer) -> None:
        text = layer.text
        parent = layer._span_map or _IdentityMap()
        if "<!--" in text:
            self._html_comments(layer, parent)
        if "[" in text and "]" in text:
            for m in _MD_LINK.finditer(text):
                if m.group(1) and m.group(2).strip():
                    self._carrier(layer, parent, "alt_text", m.start(2), m.group(2))
                for g in (3, 4, 5):
                    if m.group(g) and m.group(g).strip():
                        self._carrier(layer, parent, "link_title", m.start(g), m.group(g))
            for m in _MD_REF_TITLE.finditer(text):
                for g in (1, 2, 3):
                    if m.group(g) and m.group(g).strip():
                        self._carrier(layer, parent, "link_title", m.start(g), m.group(g))
        if "<" in text and "=" in text:
            for m in _HTML_ATTR.finditer(text):
                origin = "alt_text" if m.group(1).lower() == "alt" else "link_title"
                g = 2 if m.group(2) is not None else 3
                if m.group(g).strip():
                    self._carrier(layer, parent, origin, m.start(g), m.group(g))

    def _carrier(
        self, layer: Layer, parent: _SpanMap, origin: str, offset: int, content: str
    ) -> None:
        if self.room():
            self.layers.append(Layer(content, origin, layer.depth, True, _SliceMap(parent, offset)))

    def _html_comments(self, layer: Layer, parent: _SpanMap) -> None:
        text = layer.text
        n = len(text)
        pos = 0
        while pos < n:
            a = text.find("<!--", pos)
            if a < 0:
                break
            c0 = a + 4
            if text.startswith(">", c0) or text.startswith("->", c0):
                end = text.index(">", c0) + 1  # "<!-->" and "<!--->" close at once
                c1 = c0
            else:
                b = text.find("-->", c0)
                c1, end = (n, n) if b < 0 else (b, b + 3)
            self.mark("html_comment", layer.to_original(a, end), end - a, False)
            content = text[c0:c1]
            if content.strip() and self.room():
                self.layers.append(
                    Layer(content, "html_comment", layer.depth, True, _SliceMap(parent, c0))
                )
            if len(self.marks) >= _MAX_MARKS and not self.room():
                break
            pos = end

    def decode_payloads(self, layer: Layer) -> None:
        text = layer.text
        cands: list[tuple[int, int, str, str]] = []
        for m in _HEX_RUN.finditer(text):
            cands.append((m.start(), m.end(), "hex", m.group(1)))
        if "\\x" in text:
            for m in _HEX_ESCAPES.finditer(text):
                cands.append((m.start(), m.end(), "hex", m.group().replace("\\x", "")))
        for m in _B64_RUN.finditer(text):
            cands.append((m.start(), m.end(), "base64", m.group()))
        if "%" in text:
            for a, b in _url_tokens(text):
                cands.append((a, b, "url_encoded", text[a:b]))
        cands.sort()
        last_end = -1
        for start, end, origin, payload in cands:
            if start < last_end:
                continue
            if not self.room() or self.budget <= 0 or self.attempts >= _MAX_DECODE_ATTEMPTS:
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
            decoded = decoded[: self.budget]
            self.budget -= len(decoded)
            last_end = end
            span = layer.to_original(start, end)
            fixed = _FixedMap(span)
            inner = _clean(decoded)
            self.mark("encoded_payload", span, span[1] - span[0], False)
            self.layers.append(Layer(inner.text, origin, layer.depth + 1, True, fixed))
            self.add_cleaned(inner, layer.depth + 1, fixed)


def normalize(
    text: str, *, max_depth: int = 2, max_layers: int = 16, max_decode_chars: int = 65536
) -> Normalized:
    """Normalize `text` for scanning and surface every hidden carrier as its own layer.

    Never raises on any `str` (lone surrogates become U+FFFD in the layers; the
    original is kept as given). Time is linear in `len(text)`.

    >>> n = normalize("pass\\u200bword")
    >>> n.text, n.hidden[0].kind, n.hidden[0].inside_word
    ('password', 'zero_width', True)
    """
    cleaned = _clean(text)
    if cleaned.starts is None or cleaned.ends is None:
        main_map: _SpanMap = _IdentityMap()
    else:
        main_map = _OffsetMap(cleaned.starts, cleaned.ends, len(text))
    builder = _Builder(max_depth, max_layers, max_decode_chars)
    builder.layers.append(Layer(cleaned.text, "text", 0, False, main_map))
    builder.add_cleaned(cleaned, 0, _IdentityMap())
    i = 0
    while i < len(builder.layers):
        layer = builder.layers[i]
        i += 1
        if layer.origin not in _CARRIER_ORIGINS:
            builder.surface_carriers(layer)
        if layer.depth < max_depth:
            builder.decode_payloads(layer)
    return Normalized(text, tuple(builder.layers), tuple(builder.marks))
