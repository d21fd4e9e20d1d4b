"""Text views for the injection detector: what of a chunk is natural language,
split into sentences, with quoted stretches marked.

Every view has the same length as the chunk text (code and JSON syntax is
blanked with spaces), so a match position is a chunk position. Sentences and
quotations are computed only when asked for: most chunks never need them.
"""

from __future__ import annotations

import bisect
import itertools
import re

from memgate.chunking.chunker import JSON_STRING, json_value_spans
from memgate.domain import Chunk, ChunkKind

MAX_VIEW_CHARS = 200_000
"""Longer chunks are analyzed on their first this-many characters (bounded time)."""

# Comments and string literals in code (python, shell, javascript, powershell).
_CODE_TEXT = re.compile(
    r'"""[\s\S]{0,20000}?"""|\'\'\'[\s\S]{0,20000}?\'\'\''
    r"|/\*[\s\S]{0,20000}?\*/"
    r"|(?<![:\w])//[^\n]{0,4000}|#[^\n]{0,4000}|<#[\s\S]{0,20000}?#>"
    r'|"(?:[^"\\\n]|\\.){0,4000}"|\'(?:[^\'\\\n]|\\.){0,4000}\''
    r"|`(?:[^`\\]|\\.){0,4000}`"
)
# Sentence ends: . ! ? ; followed by space, a closing quote or bracket, or the
# end; Chinese full stops; newlines. One character class (fast scan), the
# follow-up check in Python on the few candidates.
_SENTENCE_MARK = re.compile(r"[.!?;。！？；\n]")
_AFTER_END = frozenset(" \t\r\n\f\v\"'”’)]")
_NEEDS_FOLLOW = frozenset(".!?;")
# Quoted stretches (not apostrophes): "..." “...” 「...」 『...』 `...`
# A single-quoted span opens after a non-word char and closes before one, so an
# apostrophe (don't, users') neither opens nor closes it.
_QUOTE = re.compile(
    r'"[^"\n]{1,400}"|“[^”\n]{1,400}”|「[^」\n]{1,400}」|『[^』\n]{1,400}』|`[^`\n]{1,400}`'
    r"|(?<!\w)'(?:[^'\n]|'(?=\w)){1,400}'(?!\w)|‘[^’\n]{1,400}’"
)
_QUOTE_CHARS = ('"', "“", "「", "『", "`", "'", "‘")
# A quote right after `](url ` or `(url ` is a markdown link title, not a quotation.
_LINK_TITLE_BEFORE = re.compile(r"\(\S{1,400}\s$")
_NOT_NEWLINE = re.compile(r"[^\n]+")


class View:
    """A lower-cased text (same length as the chunk text; non-language parts
    blanked) with its sentences and quotations, computed on first use."""

    __slots__ = ("_quotes", "_starts", "loose", "text")

    def __init__(self, text: str, *, loose: bool = False) -> None:
        self.text = text
        self.loose = loose
        """Fields glued together: some markers are matched without word boundaries."""
        self._starts: list[int] | None = None
        self._quotes: list[tuple[int, int]] | None = None

    @property
    def starts(self) -> list[int]:
        """Start offset of each sentence."""
        if self._starts is None:
            self._starts = _sentence_starts(self.text)
        return self._starts

    def sentence_of(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos) - 1

    def sentence_span(self, index: int) -> tuple[int, int]:
        starts = self.starts
        start = starts[index]
        end = starts[index + 1] if index + 1 < len(starts) else len(self.text)
        return start, end

    def quoted(self, start: int, end: int) -> int:
        """0: not inside a quotation; 1: inside one; 2: the quotation is exactly
        this one word (a quoted value or name: `the password is "forever"`)."""
        if self._quotes is None:
            self._quotes = _quotes(self.text)
        quotes = self._quotes
        if not quotes:
            return 0
        i = bisect.bisect_right(quotes, (start, len(self.text) + 1)) - 1
        if i < 0:
            return 0
        qs, qe = quotes[i]
        if not (qs <= start and end <= qe):
            return 0
        inner = self.text[qs + 1 : qe - 1].strip(" .,!?;:")
        if inner == self.text[start:end] and " " not in inner:
            return 2
        return 1


def _sentence_starts(text: str) -> list[int]:
    starts = [0]
    n = len(text)
    for m in _SENTENCE_MARK.finditer(text):
        end = m.end()
        if end >= n:
            break
        if text[end - 1] in _NEEDS_FOLLOW and text[end] not in _AFTER_END:
            continue
        starts.append(end)
    return starts


def _quotes(text: str) -> list[tuple[int, int]]:
    if not any(q in text for q in _QUOTE_CHARS):
        return []
    quotes: list[tuple[int, int]] = []
    for m in _QUOTE.finditer(text):
        s, e = m.span()
        if text[s] == '"' and _LINK_TITLE_BEFORE.search(text, max(0, s - 400), s):
            continue
        quotes.append((s, e))
    return quotes


def lower_same_length(text: str) -> str:
    """Lower-cased text of the same length (a few characters lower-case to two)."""
    lower = text.lower()
    if len(lower) != len(text):
        lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in text)
    return lower


def _gap(text: str) -> str:
    # keep newlines: they end sentences
    if "\n" not in text:
        return " " * len(text)
    return _NOT_NEWLINE.sub(lambda m: " " * len(m.group()), text)


def _blank(text: str, keep: list[tuple[int, int]]) -> str:
    out: list[str] = []
    pos = 0
    for start, end in keep:
        if start > pos:
            out.append(_gap(text[pos:start]))
        out.append(text[start:end])
        pos = end
    if pos < len(text):
        out.append(_gap(text[pos:]))
    return "".join(out)


def _code_keep(text: str) -> list[tuple[int, int]]:
    keep: list[tuple[int, int]] = []
    for m in _CODE_TEXT.finditer(text):
        s, e = m.span()
        token = m.group()
        if token.startswith(('"""', "'''")):
            keep.append((s + 3, max(s + 3, e - 3)))
        elif token.startswith(("/*", "<#")):
            keep.append((s + 2, max(s + 2, e - 2)))
        elif token.startswith("//"):
            keep.append((s + 2, e))
        elif token.startswith("#"):
            keep.append((s + 1, e))
        else:
            keep.append((s + 1, max(s + 1, e - 1)))
    return keep


def language_text(chunk: Chunk, lower: str) -> str:
    """The natural-language part of a chunk's lower-cased text (`lower`),
    blanked elsewhere, same length; typographic apostrophes made plain."""
    if chunk.kind is ChunkKind.JSON:
        lower = _blank(lower, json_value_spans(lower))
    elif chunk.kind is ChunkKind.CODE:
        lower = _blank(lower, _code_keep(lower))
    return lower.replace("’", "'") if "’" in lower else lower


def json_values(lower: str) -> list[str]:
    """The JSON string values (lower-cased), in order; none if the text is long
    or has fewer than two (nothing to glue)."""
    if len(lower) > 8000:
        return []
    values = [value for value, colon in JSON_STRING.findall(lower) if not colon]
    return values if len(values) >= 2 else []


_LEADING_WORD = re.compile(r"[^\W_]+")
_TRAILING_WORD = re.compile(r"[^\W_]+$")


def glued_words(values: list[str]) -> set[str]:
    """Words that exist only when the values are glued together: the last word
    of a value joined with the first word of the next (`"SYS"`, `"TEM: ..."`)."""
    out: set[str] = set()
    for a, b in itertools.pairwise(values):
        if a and b and a[-1].isalnum() and b[0].isalnum():
            tail = _TRAILING_WORD.search(a)
            head = _LEADING_WORD.match(b)
            if tail and head:
                out.add(tail.group() + head.group())
    return out


def json_joined(values: list[str]) -> str:
    """JSON string values concatenated without separators: catches a marker
    split across fields."""
    joined = "".join(values)
    return joined.replace("’", "'") if "’" in joined else joined
