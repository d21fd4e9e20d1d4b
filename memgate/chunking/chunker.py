"""Split a normalized text into code, JSON and prose chunks that partition it.

Order of work: fenced blocks (```` ``` ```` / `~~~`), then unfenced code lines inside
the rest (shell, PowerShell and JavaScript by line hints; Python candidates confirmed
by `ast`), then JSON objects/arrays inside the remaining prose. Everything is linear
in the input: `ast.parse` is tried on bounded windows, with a per-call budget.
"""

from __future__ import annotations

import json
import re
import textwrap
from dataclasses import dataclass
from itertools import accumulate

from memgate.chunking.sniff import (
    classify_line,
    fence_language,
    is_meaningful_python,
    parse_python,
    sniff_language,
)
from memgate.domain.types import Chunk, ChunkKind, Span

__all__ = ["chunk"]

_LINE_ENDS = "\r\n\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_FENCE_OPEN = re.compile(r" {0,3}(`{3,}|~{3,})(.*)")
_FENCE_CLOSE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*")
_PY_STRONG = re.compile(
    r"^\s*(?:import\s+\w|from\s+[\w.]+\s+import\s|def\s+\w+\s*\(|class\s+\w+\s*[:(])"
)
_CLOSERS_ONLY = re.compile(r"\s*[)\]}]+[,;:]?\s*")
_JSON_TOKENS = re.compile(r'\\[\s\S]|["\[\]{}\n]')

_PROBE_CHARS = 2000  # line hints look at the start of very long lines only
_WINDOW_LINES = 64
_WINDOW_CHARS = 16384
_ATTEMPTS_PER_WINDOW = 8
_MAX_JSON_DEPTH = 64
_MAX_JSON_ATTEMPTS = 1000


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
    starts = list(accumulate(map(len, lines), initial=0))
    budget = _Budget(parse_chars=len(text) + 65536)
    code: list[tuple[int, int, str | None]] = []  # line ranges [a, b) and language

    region = 0
    k = 0
    n_lines = len(lines)
    while k < n_lines:
        m = _FENCE_OPEN.fullmatch(lines[k].rstrip(_LINE_ENDS))
        if m is None or (m.group(1)[0] == "`" and "`" in m.group(2)):
            k += 1
            continue
        code.extend(_unfenced_code(lines, region, k, budget))
        end = _fence_end(lines, k + 1, m.group(1))
        language = fence_language(m.group(2))
        if language is None:
            body = "".join(lines[k + 1 : min(end, k + 201)])
            language = sniff_language(body)
        code.append((k, end, language))
        k = region = end
    code.extend(_unfenced_code(lines, region, n_lines, budget))

    spans: list[tuple[int, int, ChunkKind, str | None]] = []
    pos = 0
    for a, b, language in code:
        s, e = starts[a], starts[b]
        spans.extend(_json_spans(text, pos, s))
        spans.append((s, e, ChunkKind.CODE, language))
        pos = e
    spans.extend(_json_spans(text, pos, len(text)))

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


def _fence_end(lines: list[str], k: int, fence: str) -> int:
    """Index one past the closing fence line (or the end: unterminated blocks run on)."""
    for j in range(k, len(lines)):
        m = _FENCE_CLOSE.fullmatch(lines[j].rstrip(_LINE_ENDS))
        if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
            return j + 1
    return len(lines)


def _unfenced_code(
    lines: list[str], lo: int, hi: int, budget: _Budget
) -> list[tuple[int, int, str | None]]:
    """Line ranges of code between fences, one range per run of same-language lines."""
    if lo >= hi:
        return []
    kinds: list[str] = []
    prev = "prose"
    for k in range(lo, hi):
        probe = lines[k][:_PROBE_CHARS]
        kind = classify_line(probe, prev)
        kinds.append(kind)
        continued = kind == "shell" and probe.rstrip(_LINE_ENDS).endswith("\\")
        prev = "shell_cont" if continued else kind

    langs: list[str | None] = [None] * (hi - lo)
    i = 0
    while i < len(kinds):
        kind = kinds[i]
        if kind == "python_repl":
            langs[i] = "python"
        elif kind in ("shell", "javascript", "powershell"):
            langs[i] = kind
        elif kind == "python":
            j = _python_run_end(lines, kinds, lo, i)
            _confirm_python(lines, lo, i, j, langs, budget)
            i = j
            continue
        i += 1

    # Group same-language lines, bridging blank lines between them.
    out: list[tuple[int, int, str | None]] = []
    i = 0
    while i < len(langs):
        language = langs[i]
        if language is None:
            i += 1
            continue
        j = i + 1
        while True:
            while j < len(langs) and langs[j] == language:
                j += 1
            t = j
            while t < len(langs) and kinds[t] == "blank":
                t += 1
            if t < len(langs) and t > j and langs[t] == language:
                j = t
                continue
            break
        out.append((lo + i, lo + j, language))
        i = j
    return out


def _python_run_end(lines: list[str], kinds: list[str], lo: int, i: int) -> int:
    """End (exclusive, relative) of the run of lines that may form one Python snippet:
    candidates, indented lines, comments and closing brackets, capped in size."""
    j = i + 1
    size = len(lines[lo + i])
    while j < len(kinds) and j - i < _WINDOW_LINES and size < _WINDOW_CHARS:
        line = lines[lo + j]
        kind = kinds[j]
        if not (
            kind in ("python", "blank")
            or line[:1] in (" ", "\t", "#")
            or _CLOSERS_ONLY.fullmatch(line.rstrip(_LINE_ENDS))
        ):
            break
        size += len(line)
        j += 1
    while j > i + 1 and kinds[j - 1] == "blank":
        j -= 1
    return j


def _confirm_python(
    lines: list[str], lo: int, i: int, j: int, langs: list[str | None], budget: _Budget
) -> None:
    """Mark the sub-runs of lines[lo+i : lo+j] that parse as meaningful Python.

    On a syntax error at line n, the n-1 lines before it are tried alone and the
    search resumes after line n: at most a few parses per window.
    """
    attempts = 0
    while i < j:
        if attempts >= _ATTEMPTS_PER_WINDOW or budget.parse_chars <= 0:
            # Out of budget: only unmistakable Python lines count.
            for k in range(i, j):
                if _PY_STRONG.match(lines[lo + k][:_PROBE_CHARS]):
                    langs[k] = "python"
            return
        source = textwrap.dedent("".join(lines[lo + i : lo + j]))
        attempts += 1
        budget.parse_chars -= len(source)
        tree, err = parse_python(source)
        if err is None:
            if tree is not None and is_meaningful_python(tree, source):
                langs[i:j] = ["python"] * (j - i)
            return
        if err > 1:
            prefix_end = min(i + err - 1, j)
            prefix = textwrap.dedent("".join(lines[lo + i : lo + prefix_end]))
            attempts += 1
            budget.parse_chars -= len(prefix)
            if _meaningful(prefix):
                langs[i:prefix_end] = ["python"] * (prefix_end - i)
        i += err


def _meaningful(source: str) -> bool:
    tree, _ = parse_python(source)
    return tree is not None and is_meaningful_python(tree, source)


def _json_spans(text: str, lo: int, hi: int) -> list[tuple[int, int, ChunkKind, str | None]]:
    """JSON objects/arrays in text[lo:hi] (prose), outermost first, non-overlapping."""
    if lo >= hi or ("{" not in text[lo:hi] and "[" not in text[lo:hi]):
        return []
    stack: list[int] = []
    inner: list[int] = []
    pairs: list[tuple[int, int, int]] = []  # (start, end, nesting below)
    in_string = False
    for m in _JSON_TOKENS.finditer(text, lo, hi):
        tok = m.group()
        if in_string:
            if tok == '"' or tok == "\n":
                in_string = False
            continue
        if tok == '"':
            in_string = True
        elif tok in "[{":
            stack.append(m.start())
            inner.append(0)
        elif tok in "]}":
            if not stack:
                continue
            if text[stack[-1]] != ("[" if tok == "]" else "{"):
                stack.clear()
                inner.clear()
                continue
            start = stack.pop()
            depth = inner.pop()
            pairs.append((start, m.end(), depth))
            if inner:
                inner[-1] = max(inner[-1], depth + 1)
    if not pairs:
        return []
    pairs.sort(key=lambda p: (p[0], -p[1]))
    out: list[tuple[int, int, ChunkKind, str | None]] = []
    taken = lo
    attempts = 0
    for start, end, depth in pairs:
        if start < taken or depth > _MAX_JSON_DEPTH or end - start < 2:
            continue
        attempts += 1
        if attempts > _MAX_JSON_ATTEMPTS:
            break
        if _is_json(text[start:end]):
            out.append((start, end, ChunkKind.JSON, None))
            taken = end
    return out


def _is_json(candidate: str) -> bool:
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
