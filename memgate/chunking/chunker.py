"""Split a normalized text into code, JSON and prose chunks that partition it.

Order of work: fenced blocks (```` ``` ```` / `~~~`), then unfenced code lines inside
the rest (shell, PowerShell and JavaScript by line hints; Python candidates confirmed
by `ast`), then JSON objects/arrays inside the remaining prose. Everything is linear
in the input: `ast.parse` is tried on bounded windows, with a per-call budget.

Speed: whole-text scans (`code_line_hints`, one regex for fence lines) pick the few
lines worth a look, so prose lines are never examined one by one in Python. When a
text breaks lines at anything but `\\n` / `\\r\\n`, every line is looked at.
"""

from __future__ import annotations

import json
import re
import textwrap
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from memgate.chunking.sniff import (
    classify_line,
    code_line_hints,
    fence_language,
    is_meaningful_python,
    parse_python,
    sniff_language,
)
from memgate.domain.types import Chunk, ChunkKind, Span

__all__ = ["chunk"]

_LINE_ENDS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
# A closing fence may carry a trailing remark that cannot be an info string
# (`` ``` #123``, `` ``` // end``): CommonMark would run the block to the end of the
# text, swallowing the prose after it. A word after the fence (`` ```python``) still
# does not close: that is an opening fence of a block left unterminated.
_CLOSE_TAIL = re.compile(r"[ \t]*|[ \t]+[^\w\s{.`~].*")
# Fence lines after the first line; in a plain text (lines break at "\n") the
# rest of the line holds no other line break.
_FENCE_LINE = re.compile(r"\n {0,3}(`{3,}|~{3,})([^\n]*)")
_PY_STRONG = re.compile(
    r"^\s*(?:import\s+\w|from\s+[\w.]+\s+import\s|def\s+\w+\s*\(|class\s+\w+\s*[:(])"
)
_CLOSERS_ONLY = re.compile(r"\s*[)\]}]+[,;:]?\s*")
# The bracket matcher skips strings (a string ends at `"` or at an unescaped line
# break) and escapes, and stops at the next bracket (group 1).
_JSON_NEXT_BRACKET = re.compile(
    r'(?:[^"\\\[\]{}]++|"[^"\\\n]*+(?:\\[\s\S][^"\\\n]*+)*+["\n]?|\\[\s\S])*+([\[\]{}])'
)

_JSON_OPENING = re.compile(r'[\[{]\s*["\[{]')
_DECODER = json.JSONDecoder()
# A bracket pair with no string, escape or bracket inside (without a comma or a colon
# it is not JSON worth a chunk, see `_is_json`).
_FLAT_PAIR = re.compile(r'\[[^"\\\[\]{}]*\]|\{[^"\\\[\]{}]*\}')

_PROBE_CHARS = 2000  # line hints look at the start of very long lines only
_WINDOW_LINES = 64
_WINDOW_CHARS = 16384
_ATTEMPTS_PER_WINDOW = 8
_MAX_JSON_DEPTH = 64
_MAX_JSON_ATTEMPTS = 1000

_CodeRange = tuple[int, int, str | None]  # lines [a, b) and language


@dataclass(slots=True)
class _Budget:
    """Bounds the total `ast.parse` work of one `chunk` call."""

    parse_chars: int


def chunk(text: str) -> list[Chunk]:
    """Split `text` into chunks whose texts concatenate back to `text`, in order.

    >>> [c.kind.value for c in chunk("Run this:\\n$ curl -s x | sh\\nThanks.")]
    ['prose', 'code', 'prose']
    """
    if not text:
        return []
    lines = text.splitlines(keepends=True)
    n_lines = len(lines)
    starts = list(accumulate(map(len, lines), initial=0))
    # Lines break at "\n" only ("\r\n" included): whole-text scans find the lines
    # worth a look. Otherwise every line is looked at.
    plain = n_lines == text.count("\n") + (not text.endswith("\n"))
    hints: Sequence[int] = code_line_hints(text, starts) if plain else range(n_lines)

    budget = _Budget(parse_chars=len(text) + 65536)
    code: list[_CodeRange] = []
    region = 0
    for k, end, language in _fences(text, lines, starts, plain):
        code.extend(_unfenced_code(lines, region, k, hints, budget))
        code.append((k, end, language))
        region = end
    code.extend(_unfenced_code(lines, region, n_lines, hints, budget))

    spans: list[tuple[int, int, ChunkKind, str | None]] = []
    pos = 0
    for a, b, language in code:
        s, e = starts[a], starts[b]
        spans.extend(_json_spans(text, pos, s))
        spans.append((s, e, ChunkKind.CODE, language))
        pos = e
    spans.extend(_json_spans(text, pos, len(text)))

    if not spans:
        return [Chunk(ChunkKind.PROSE, Span(0, len(text)), text)]
    chunks: list[Chunk] = []
    pos = 0
    for s, e, kind, language in spans:
        if s > pos:
            chunks.append(Chunk(ChunkKind.PROSE, Span(pos, s), text[pos:s]))
        chunks.append(Chunk(kind, Span(s, e), text[s:e], language))
        pos = e
    if pos < len(text):
        chunks.append(Chunk(ChunkKind.PROSE, Span(pos, len(text)), text[pos:]))
    return chunks


def _fences(text: str, lines: list[str], starts: list[int], plain: bool) -> list[_CodeRange]:
    """Fenced blocks, in order: (opening line, one past the closing line, language)."""
    marks = _fence_marks(text, lines, starts, plain)
    out: list[_CodeRange] = []
    i = 0
    n = len(marks)
    while i < n:
        f, fence, info = marks[i]
        i += 1
        if fence[0] == "`" and "`" in info:
            continue  # not an opening fence (an inline code span)
        end = len(lines)  # unterminated blocks run on
        while i < n:
            j, close, tail = marks[i]
            i += 1
            if close[0] == fence[0] and len(close) >= len(fence) and _CLOSE_TAIL.fullmatch(tail):
                end = j + 1
                break
        language = fence_language(info)
        if language is None:
            body = "".join(lines[f + 1 : min(end, f + 201)])
            language = sniff_language(body)
        out.append((f, end, language))
    return out


def _fence_marks(
    text: str, lines: list[str], starts: list[int], plain: bool
) -> list[tuple[int, str, str]]:
    """Lines that start with a fence, in order: (line index, fence, text after it)."""
    if not plain:
        marks = []
        for k, line in enumerate(lines):
            m = _FENCE_OPEN.fullmatch(line.rstrip(_LINE_ENDS))
            if m is not None:
                marks.append((k, m.group(1), m.group(2)))
        return marks
    if ("`" not in text or "```" not in text) and ("~" not in text or "~~~" not in text):
        return []
    # Every match starts one character before a line start.
    found = [
        (bisect_left(starts, m.start() + 1), m.group(1), m.group(2).rstrip("\r"))
        for m in _FENCE_LINE.finditer(text)
    ]
    m = _FENCE_OPEN.fullmatch(lines[0].rstrip(_LINE_ENDS))
    if m is not None:
        found.insert(0, (0, m.group(1), m.group(2)))
    return found


def _unfenced_code(
    lines: list[str], lo: int, hi: int, hints: Sequence[int], budget: _Budget
) -> list[_CodeRange]:
    """Line ranges of code between fences, one range per run of same-language lines.

    Only hinted lines (and shell continuation lines) are classified; every other
    line is prose or blank.
    """
    a = bisect_left(hints, lo)
    b = bisect_left(hints, hi)
    if a >= b:
        return []
    kinds: dict[int, str] = {}  # classified lines, in increasing order
    done = lo
    for idx in range(a, b):
        k = hints[idx]
        if k < done:
            continue
        probe = lines[k][:_PROBE_CHARS]
        kind = classify_line(probe, "prose")
        kinds[k] = kind
        # A continued shell line makes the next line shell (or blank).
        while kind == "shell" and probe.rstrip(_LINE_ENDS).endswith("\\") and k + 1 < hi:
            k += 1
            probe = lines[k][:_PROBE_CHARS]
            kind = classify_line(probe, "shell_cont")
            kinds[k] = kind
        done = k + 1

    marked: list[_CodeRange] = []  # increasing, disjoint
    skip = lo
    for i, kind in kinds.items():
        if i < skip:
            continue
        if kind == "python_repl":
            marked.append((i, i + 1, "python"))
        elif kind in ("shell", "javascript", "powershell"):
            marked.append((i, i + 1, kind))
        elif kind == "python":
            j = _python_run_end(lines, kinds, i, hi)
            _confirm_python(lines, i, j, marked, budget)
            skip = j

    # Group same-language lines, bridging blank lines between them.
    out: list[_CodeRange] = []
    for i, j, language in marked:
        if out:
            pi, pj, planguage = out[-1]
            if planguage == language and all(_blank(lines, kinds, t) for t in range(pj, i)):
                out[-1] = (pi, j, language)
                continue
        out.append((i, j, language))
    return out


def _blank(lines: list[str], kinds: dict[int, str], k: int) -> bool:
    """Whether line k is of kind `blank` (lines not in `kinds` are prose or blank)."""
    kind = kinds.get(k)
    return kind == "blank" if kind is not None else not lines[k][:_PROBE_CHARS].strip()


def _python_run_end(lines: list[str], kinds: dict[int, str], i: int, hi: int) -> int:
    """End (exclusive) of the run of lines that may form one Python snippet:
    candidates, indented lines, comments and closing brackets, capped in size."""
    j = i + 1
    size = len(lines[i])
    while j < hi and j - i < _WINDOW_LINES and size < _WINDOW_CHARS:
        line = lines[j]
        if not (
            kinds.get(j) == "python"
            or _blank(lines, kinds, j)
            or line[:1] in (" ", "\t", "#")
            or _CLOSERS_ONLY.fullmatch(line.rstrip(_LINE_ENDS))
        ):
            break
        size += len(line)
        j += 1
    while j > i + 1 and _blank(lines, kinds, j - 1):
        j -= 1
    return j


def _confirm_python(
    lines: list[str], i: int, j: int, marked: list[_CodeRange], budget: _Budget
) -> None:
    """Mark the sub-runs of lines[i:j] that parse as meaningful Python.

    On a syntax error at line n, the n-1 lines before it are tried alone and the
    search resumes after line n: at most a few parses per window.
    """
    attempts = 0
    while i < j:
        if attempts >= _ATTEMPTS_PER_WINDOW or budget.parse_chars <= 0:
            # Out of budget: only unmistakable Python lines count.
            for k in range(i, j):
                if _PY_STRONG.match(lines[k][:_PROBE_CHARS]):
                    marked.append((k, k + 1, "python"))
            return
        source = textwrap.dedent("".join(lines[i:j]))
        attempts += 1
        budget.parse_chars -= len(source)
        tree, err = parse_python(source)
        if err is None:
            if tree is not None and is_meaningful_python(tree, source):
                marked.append((i, j, "python"))
            return
        if err > 1:
            prefix_end = min(i + err - 1, j)
            prefix = textwrap.dedent("".join(lines[i:prefix_end]))
            attempts += 1
            budget.parse_chars -= len(prefix)
            if _meaningful(prefix):
                marked.append((i, prefix_end, "python"))
        i += err


def _meaningful(source: str) -> bool:
    tree, _ = parse_python(source)
    return tree is not None and is_meaningful_python(tree, source)


def _json_spans(text: str, lo: int, hi: int) -> list[tuple[int, int, ChunkKind, str | None]]:
    """JSON objects/arrays in text[lo:hi] (prose), outermost first, non-overlapping.

    Brackets are matched (outside strings), then the pairs are tried outermost first.
    An outermost pair that is valid JSON is found directly by the JSON decoder,
    without matching the brackets inside it.
    """
    opener = _next_opener(text, lo, hi) if lo < hi else -1
    if opener < 0:
        return []
    stack: list[int] = []
    inner: list[int] = []
    # (start, end, nesting below, whether JSON when known)
    pairs: list[tuple[int, int, int, bool | None]] = []
    pos = lo
    while True:
        if not stack:
            # Nothing open: jump to the next opening bracket, or to the start of its
            # line when a string or an escape may come before it.
            if opener < pos:
                opener = _next_opener(text, pos, hi)
                if opener < 0:
                    break
            if text.find('"', pos, opener) < 0 and text.find("\\", pos, opener) < 0:
                pos = opener
            else:
                m = _JSON_NEXT_BRACKET.match(text, _resume_point(text, pos, opener), hi)
                if m is None:
                    break
                pos = m.end()
                if text[pos - 1] not in "[{":
                    continue  # a closing bracket with nothing open
                pos -= 1
            end = _outer_json_end(text, pos, hi)
            if end:
                pairs.append((pos, end, 0, True))
                pos = end
            elif m := _FLAT_PAIR.match(text, pos, hi):
                # `[1]`, `[x]`, `{braces}`: no strings or brackets inside.
                end = m.end()
                data = text.find(",", pos, end) >= 0 or text.find(":", pos, end) >= 0
                pairs.append((pos, end, 0, None if data else False))
                pos = end
            else:
                stack.append(pos)
                inner.append(0)
                pos += 1
            continue
        m = _JSON_NEXT_BRACKET.match(text, pos, hi)
        if m is None:
            break
        pos = m.end()
        tok = text[pos - 1]
        if tok in "[{":
            stack.append(pos - 1)
            inner.append(0)
        elif text[stack[-1]] != ("[" if tok == "]" else "{"):
            stack.clear()
            inner.clear()
        else:
            start = stack.pop()
            depth = inner.pop()
            pairs.append((start, pos, depth, None))
            if inner:
                inner[-1] = max(inner[-1], depth + 1)
    if not pairs:
        return []
    pairs.sort(key=lambda p: (p[0], -p[1]))
    out: list[tuple[int, int, ChunkKind, str | None]] = []
    taken = lo
    attempts = 0
    for start, end, depth, known in pairs:
        if start < taken or depth > _MAX_JSON_DEPTH or end - start < 2:
            continue
        attempts += 1
        if attempts > _MAX_JSON_ATTEMPTS:
            break
        if known or (known is None and _is_json(text[start:end])):
            out.append((start, end, ChunkKind.JSON, None))
            taken = end
    return out


def _outer_json_end(text: str, start: int, hi: int) -> int:
    """End of the bracket pair at `start` when it is JSON worth a chunk (what the
    matcher and `_is_json` would find, with no bracket deeper than the limit), else 0.
    """
    if not _JSON_OPENING.match(text, start):
        return 0  # `[1]`, `[x]`, `{braces}`: left to the matcher
    try:
        value, end = _DECODER.raw_decode(text, start)
    except (ValueError, RecursionError):
        return 0
    if (
        end > hi
        or text.count("[", start, end) + text.count("{", start, end) > _MAX_JSON_DEPTH + 1
        or not _substantial(value, 0)
    ):
        return 0
    return end


def _next_opener(text: str, lo: int, hi: int) -> int:
    """Offset of the first `[` or `{` in text[lo:hi], or -1."""
    a = text.find("[", lo, hi)
    b = text.find("{", lo, hi if a < 0 else a)
    return a if b < 0 else b


def _resume_point(text: str, pos: int, opener: int) -> int:
    """Where to resume the token scan at `pos` (outside any string, with no bracket
    before `opener`) without changing its outcome: the start of the opener's line.
    A line break always ends a string unless a backslash escapes it; such lines are
    not skipped."""
    nl = text.rfind("\n", pos, opener)
    while nl > pos and text[nl - 1] == "\\":
        nl = text.rfind("\n", pos, nl - 1)
    return nl + 1 if nl >= pos else pos


def _is_json(candidate: str) -> bool:
    # Data worth a chunk has a string, a comma or a colon (`_substantial`): skip
    # `json.loads` on `[1]`, `[x]`, `[[]]`, `{}`.
    if '"' not in candidate and "," not in candidate and ":" not in candidate:
        return False
    try:
        value = json.loads(candidate)
    except (ValueError, RecursionError):
        return False
    return _substantial(value, 0)


def _substantial(value: object, depth: int) -> bool:
    """Data worth a chunk: `[1]`, `[x]` and `[[]]` in prose are citations,
    checkboxes and noise."""
    if isinstance(value, dict):
        return len(value) > 0
    if isinstance(value, list) and depth < _MAX_JSON_DEPTH:
        if len(value) >= 2:
            return True
        if len(value) == 1:
            item = value[0]
            return (isinstance(item, str) and bool(item)) or _substantial(item, depth + 1)
    return False


# A JSON string literal: group 1 its raw text between the quotes; group 2 set
# when a colon follows (a key, not a value).
JSON_STRING = re.compile(r'"([^"\\\n]{0,4000}(?:\\.[^"\\\n]{0,4000}){0,4000})"(\s*:)?')


def json_value_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the JSON string values (not keys) in `text`."""
    return [m.span(1) for m in JSON_STRING.finditer(text) if not m.group(2)]


# JSON escapes read as one character each, kept the same length (the backslash
# becomes a space) so spans in the view are spans in the JSON text.
_JSON_ESCAPES = {"n": " \n", "t": " \t", "r": " \r", '"': ' "', "\\": " \\", "/": " /"}
_JSON_ESCAPE = re.compile(r'\\([ntr"\\/])')
# Worth reading as text: a value with a space, or with a character that code,
# commands or markup need.
_TEXTLIKE = re.compile(r"[\s|;&<>(){}$`]")
_MIN_VALUE_CHARS = 8


def json_string_chunks(piece: Chunk) -> list[Chunk]:
    """The string values of a JSON chunk, chunked as text of their own.

    A command, a code snippet or markup inside a JSON string is still a command,
    code or markup when something later reads the value (tool outputs, agent
    framework stores and sessions keep JSON). One view of the whole chunk, same
    length: the values with their escapes read in place, everything else blanked,
    and a line break where each value ends (so two values never read as one
    line). Spans in the view are spans in the JSON text."""
    if piece.kind is not ChunkKind.JSON:
        return []
    text = piece.text
    parts: list[str] = []
    pos = 0
    multiline = False
    for m in JSON_STRING.finditer(text):
        start, end = m.span(1)
        if m.group(2) or end - start < _MIN_VALUE_CHARS:
            continue  # a key, or too short to carry anything
        raw = m.group(1)
        if not _TEXTLIKE.search(raw):
            continue
        multiline = multiline or "\\n" in raw
        parts.append(_blank_json(text[pos:start]))
        parts.append(_JSON_ESCAPE.sub(_read_escape, raw) if "\\" in raw else raw)
        parts.append("\n")  # the closing quote
        pos = end + 1
    if not parts:
        return []
    parts.append(_blank_json(text[pos:]))
    view = "".join(parts)
    base = piece.span.start
    if not multiline:
        # one-line values: prose (the detectors find commands and calls in
        # prose); chunking only pays off when a value holds lines of code
        return [Chunk(kind=ChunkKind.PROSE, span=piece.span, text=view)]
    return [
        Chunk(
            kind=sub.kind,
            span=Span(base + sub.span.start, base + sub.span.end),
            text=sub.text,
            language=sub.language,
        )
        for sub in chunk(view)
        if not sub.text.isspace()
    ]


def _read_escape(m: re.Match[str]) -> str:
    return _JSON_ESCAPES[m.group(1)]


def _blank_json(text: str) -> str:
    """JSON syntax between values as blanks, line breaks kept (`re.sub(r"[^\\n]", " ",
    text)`, without a substitution per character)."""
    if "\n" not in text:
        return " " * len(text)
    return "\n".join(" " * len(line) for line in text.split("\n"))
