"""Text views for the injection detector: what of a chunk is natural language,
split into sentences, with quoted stretches marked.

Every view has the same length as the chunk text (code and JSON syntax is
blanked with spaces), so a match position is a chunk position.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from memgate.domain import Chunk, ChunkKind

MAX_VIEW_CHARS = 200_000
"""Longer chunks are analyzed on their first this-many characters (bounded time)."""

# JSON string literals; a key is a string followed by a colon.
_JSON_STRING = re.compile(r'"((?:[^"\\\n]|\\.){0,4000})"(\s*:)?')
# Comments and string literals in code (python, shell, javascript, powershell).
_CODE_TEXT = re.compile(
    r'"""[\s\S]{0,20000}?"""|\'\'\'[\s\S]{0,20000}?\'\'\''
    r"|/\*[\s\S]{0,20000}?\*/"
    r"|(?<![:\w])//[^\n]{0,4000}|#[^\n]{0,4000}|<#[\s\S]{0,20000}?#>"
    r'|"(?:[^"\\\n]|\\.){0,4000}"|\'(?:[^\'\\\n]|\\.){0,4000}\''
    r"|`(?:[^`\\]|\\.){0,4000}`"
)
# Sentence ends: . ! ? ; followed by space/end, Chinese full stops, newlines.
_SENTENCE_END = re.compile(r"[.!?;](?=[\s\"'”’)\]]|$)|[。！？；\n]")
# Quoted stretches (not apostrophes): "..." “...” 「...」 『...』 `...`
_QUOTE = re.compile(
    r'"[^"\n]{1,400}"|“[^”\n]{1,400}”|「[^」\n]{1,400}」|『[^』\n]{1,400}』|`[^`\n]{1,400}`'
)
# A quote right after `](url ` or `(url ` is a markdown link title, not a quotation.
_LINK_TITLE_BEFORE = re.compile(r"\(\S{1,400}\s$")
_CJK = re.compile(r"[\u3400-\u9fff]")


@dataclass(frozen=True, slots=True)
class View:
    text: str
    """Lower-cased, same length as the chunk text; non-language parts blanked."""
    starts: tuple[int, ...]
    """Start offset of each sentence."""
    quotes: tuple[tuple[int, int], ...]
    has_cjk: bool
    loose: bool = False
    """Fields glued together: some markers are matched without word boundaries."""

    def sentence_of(self, pos: int) -> int:
        return bisect.bisect_right(self.starts, pos) - 1

    def sentence_span(self, index: int) -> tuple[int, int]:
        start = self.starts[index]
        end = self.starts[index + 1] if index + 1 < len(self.starts) else len(self.text)
        return start, end

    def quoted(self, start: int, end: int) -> bool:
        i = bisect.bisect_right(self.quotes, (start, len(self.text) + 1)) - 1
        return i >= 0 and self.quotes[i][0] <= start and end <= self.quotes[i][1]


def _blank(text: str, keep: list[tuple[int, int]]) -> str:
    out: list[str] = []
    pos = 0
    for start, end in keep:
        if start > pos:
            gap = text[pos:start]
            # keep newlines: they end sentences
            out.append("".join("\n" if c == "\n" else " " for c in gap))
        out.append(text[start:end])
        pos = end
    if pos < len(text):
        out.append("".join("\n" if c == "\n" else " " for c in text[pos:]))
    return "".join(out)


def _json_keep(text: str) -> list[tuple[int, int]]:
    keep: list[tuple[int, int]] = []
    for m in _JSON_STRING.finditer(text):
        if m.group(2):  # a key
            continue
        keep.append(m.span(1))
    return keep


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


def language_text(chunk: Chunk) -> str:
    """The natural-language part of a chunk, blanked elsewhere, same length."""
    text = chunk.text[:MAX_VIEW_CHARS]
    if chunk.kind is ChunkKind.JSON:
        return _blank(text, _json_keep(text))
    if chunk.kind is ChunkKind.CODE:
        return _blank(text, _code_keep(text))
    return text


def json_joined(chunk: Chunk) -> str | None:
    """JSON string values concatenated without separators: catches a marker
    split across fields (`"SYS"`, `"TEM: ..."`). None if not worth it."""
    if chunk.kind is not ChunkKind.JSON or len(chunk.text) > 8000:
        return None
    values = [m.group(1) for m in _JSON_STRING.finditer(chunk.text) if not m.group(2)]
    if len(values) < 2:
        return None
    return "".join(values)


def make_view(text: str, *, loose: bool = False) -> View:
    lower = text.lower().replace("’", "'")
    if len(lower) != len(text):  # a few characters lower-case to two
        lower = "".join(c if len(c.lower()) != 1 else c.lower() for c in text).replace("’", "'")
    starts = [0]
    for m in _SENTENCE_END.finditer(lower):
        end = m.end()
        if end < len(lower) and end != starts[-1]:
            starts.append(end)
    quotes: list[tuple[int, int]] = []
    for m in _QUOTE.finditer(lower):
        s, e = m.span()
        if lower[s] == '"' and _LINK_TITLE_BEFORE.search(lower, max(0, s - 400), s):
            continue
        quotes.append((s, e))
    return View(
        text=lower,
        starts=tuple(starts),
        quotes=tuple(quotes),
        has_cjk=bool(_CJK.search(lower)),
        loose=loose,
    )
