"""The `javascript` detector: code execution sinks in JavaScript / TypeScript.

A small tokenizer (strings, template literals, comments, identifiers) feeds a
one-pass taint walk: `const|let|var x = <expr>` marks `x` external when the
expression reads outside input (`params.sources`: req.body, location.hash,
fetch(...).text(), process.argv, event.data, ...) or a tainted variable, and
folds string concatenation so that `const k = "ev" + "al"; window[k](...)`
is seen as eval. Rules name a `params.kind`:

- `sink`: calls to `params.calls` (bare or as a method of `params.receivers`),
  judged on their arguments with `params.levels` (`const` / `local` /
  `external`, each `[severity, confidence]` or `["none", 0]`);
  `require_shell` only fires when the call passes `shell: true`.
- `computed_call`: `window[k](...)` / `globalThis[k](...)` / `this[k](...)`
  where `k` folds to one of `params.calls`; levels as `sink`.

Runs on JavaScript code chunks, and on prose / untyped code that contains
JavaScript-looking lines (the keywords gate it).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from memgate.domain import Chunk, ChunkKind, Severity
from memgate.scanning._code_lang import looks_like_javascript
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.rules import Rule

JS_LANGUAGES = frozenset({"javascript", "js", "typescript", "ts", "jsx", "tsx", "node", "html"})
MAX_CHARS = 200_000
MAX_TOKENS = 50_000
MAX_HITS_PER_RULE = 16

_TOKEN = re.compile(
    r"""(?P<comment>//[^\n]*|/\*[\s\S]{0,20000}?\*/)
    |(?P<str>"(?:[^"\\\n]|\\.){0,2000}"|'(?:[^'\\\n]|\\.){0,2000}'|`(?:[^`\\]|\\.){0,4000}`)
    |(?P<id>[A-Za-z_$][\w$]{0,80}(?:\s{0,2}\??\.\s{0,2}[A-Za-z_$][\w$]{0,80}){0,8})
    |(?P<num>\d[\w.]{0,30})
    |(?P<op>=>|===|!==|==|!=|\+=|&&|\|\||\?\?|[^\s\w])""",
    re.VERBOSE,
)

Level = tuple[Severity, float] | None


@dataclass(frozen=True, slots=True)
class Tok:
    kind: str
    text: str
    start: int
    end: int


@dataclass(slots=True)
class _State:
    tainted: set[str] = field(default_factory=set)
    local: set[str] = field(default_factory=set)
    consts: dict[str, tuple[str, bool]] = field(default_factory=dict)
    """Folded string constants, and whether they were assembled."""


def tokenize(text: str) -> list[Tok]:
    out: list[Tok] = []
    for m in _TOKEN.finditer(text[:MAX_CHARS]):
        kind = m.lastgroup or "op"
        if kind == "comment":
            continue
        out.append(Tok(kind, m.group(), m.start(), m.end()))
        if len(out) >= MAX_TOKENS:
            break
    return out


def _levels(raw: object, default: Level) -> dict[str, Level]:
    out: dict[str, Level] = {"const": default, "local": default, "external": default}
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            if isinstance(value, list | tuple) and len(value) == 2:
                out[str(key)] = (
                    None if value[0] == "none" else (Severity(value[0]), float(value[1]))
                )
    return out


@dataclass(frozen=True, slots=True)
class _Spec:
    rule: Rule
    kind: str
    calls: frozenset[str]
    receivers: frozenset[str]
    require_shell: bool
    levels: dict[str, Level]


class JavaScriptAnalyzer:
    def __init__(self, rules: Sequence[Rule]) -> None:
        self._specs: list[_Spec] = []
        sources: set[str] = set()
        for r in rules:
            p: Mapping[str, Any] = r.params
            sources.update(p.get("sources", ()))
            self._specs.append(
                _Spec(
                    rule=r,
                    kind=str(p.get("kind", "sink")),
                    calls=frozenset(p.get("calls", ())),
                    receivers=frozenset(p.get("receivers", ())),
                    require_shell=bool(p.get("require_shell", False)),
                    levels=_levels(p.get("levels"), (r.severity, r.confidence)),
                )
            )
        alternatives = "|".join(re.escape(s) for s in sorted(sources, key=len, reverse=True))
        self._sources = re.compile(rf"(?<![\w$])(?:{alternatives or '(?!)'})(?![\w$])")
        self._keywords = tuple(sorted({k for r in rules for k in r.keywords}))

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> list[Hit]:
        text = chunk.text
        if chunk.kind is ChunkKind.JSON:
            return []
        if chunk.kind is ChunkKind.CODE and chunk.language not in (None, *JS_LANGUAGES):
            return []
        # NOTE: the family's one cheap prefilter: every sink is a call.
        if "(" not in text:
            return []
        lower = text.lower()
        if not any(k in lower for k in self._keywords):
            return []
        untyped = chunk.kind is not ChunkKind.CODE or chunk.language is None
        if untyped and not looks_like_javascript(text):
            # prose or untyped code: only when it reads as JavaScript, so that a
            # Python `exec(...)` is not judged twice
            return []
        try:
            return self._analyze(text, lower)
        except (RecursionError, MemoryError, ValueError):
            return []

    def _analyze(self, text: str, lower: str) -> list[Hit]:
        toks = tokenize(text)
        state = _State()
        self._assignments(toks, state, text)
        hits: list[Hit] = []
        for spec in self._specs:
            if spec.rule.keywords and not any(k in lower for k in spec.rule.keywords):
                continue
            for count, hit in enumerate(self._sinks(spec, toks, state)):
                if count >= MAX_HITS_PER_RULE:
                    break
                hits.append(hit)
        return hits

    # taint ---------------------------------------------------------------------

    def _assignments(self, toks: list[Tok], state: _State, text: str) -> None:
        n = len(toks)
        for i, tok in enumerate(toks):
            if tok.kind != "op" or tok.text not in ("=", "+="):
                continue
            if i == 0 or toks[i - 1].kind != "id":
                continue
            name = toks[i - 1].text
            if "." in name:
                continue
            end = _expr_end(toks, i + 1, text)
            expr = toks[i + 1 : min(end, n)]
            origin = self._origin(expr, state)
            if origin == "external":
                state.tainted.add(name)
            elif origin == "local":
                state.local.add(name)
            folded = _fold(expr, state)
            if folded is not None:
                state.consts[name] = folded

    def _origin(self, expr: list[Tok], state: _State) -> str:
        if not expr:
            return "const"
        literal = True
        for t in expr:
            if t.kind == "id":
                root = re.split(r"\s*\??\.\s*", t.text)[0]
                if root in state.tainted or self._sources.search(t.text):
                    return "external"
                if root not in state.consts and t.text not in (
                    "true",
                    "false",
                    "null",
                    "undefined",
                ):
                    literal = False
            elif t.kind == "str" and t.text.startswith("`") and "${" in t.text:
                inner = t.text
                if self._sources.search(inner) or any(
                    re.search(r"\$\{\s*" + re.escape(v) + r"\b", inner) for v in state.tainted
                ):
                    return "external"
                literal = False
            elif t.kind == "op" and t.text == "(":
                # a call: fetch(...) is a source; other calls make the value unknown
                literal = False
        return "const" if literal else "local"

    # sinks ---------------------------------------------------------------------

    def _sinks(self, spec: _Spec, toks: list[Tok], state: _State) -> Iterator[Hit]:
        for i, tok in enumerate(toks):
            if i + 1 >= len(toks) or toks[i + 1].text != "(":
                if spec.kind == "computed_call" and tok.text == "[":
                    yield from self._computed(spec, toks, i, state)
                continue
            if spec.kind != "sink" or tok.kind != "id":
                continue
            parts = re.split(r"\s*\??\.\s*", tok.text)
            name = parts[-1]
            if name not in spec.calls:
                continue
            if len(parts) > 1 and spec.receivers and parts[-2] not in spec.receivers:
                continue
            if len(parts) > 1 and not spec.receivers and parts[0] not in ("window", "globalThis"):
                continue
            if i > 0 and toks[i - 1].text == "new" and name != "Function":
                continue
            if i > 0 and toks[i - 1].text in (".", "?."):
                # a method of something the tokenizer did not join (a regex literal, a call result)
                receiver = toks[i - 2].text if i > 1 else ""
                if receiver not in spec.receivers:
                    continue
            end = _close(toks, i + 1)
            args = toks[i + 2 : end]
            if spec.require_shell and not _has_shell(args):
                continue
            level = spec.levels.get(self._origin(_first_arg(args), state))
            if level is None:
                continue
            yield Hit(
                spec.rule.id,
                tok.start,
                toks[min(end, len(toks) - 1)].end,
                severity=level[0],
                confidence=level[1],
                note=f"{name} on {self._origin(_first_arg(args), state)} input",
            )

    def _computed(self, spec: _Spec, toks: list[Tok], i: int, state: _State) -> Iterator[Hit]:
        # window[k](...) / globalThis["ev" + "al"](...)
        if i == 0 or toks[i - 1].kind != "id":
            return
        if toks[i - 1].text not in ("window", "globalThis", "this", "self", "global", "top"):
            return
        close = _close(toks, i, "[", "]")
        if close + 1 >= len(toks) or toks[close + 1].text != "(":
            return
        folded = _fold(toks[i + 1 : close], state)
        if folded is None or folded[0] not in spec.calls:
            return
        end = _close(toks, close + 1)
        args = toks[close + 2 : end]
        origin = self._origin(_first_arg(args), state)
        if any(t.kind == "id" and t.text.endswith("atob") for t in args):
            origin = "external"
        level = spec.levels.get(origin)
        if level is None:
            return
        yield Hit(
            spec.rule.id,
            toks[i - 1].start,
            toks[min(end, len(toks) - 1)].end,
            severity=level[0],
            confidence=level[1],
            note=f"computed call to {folded[0]} on {origin} input",
        )


def _expr_end(toks: list[Tok], i: int, text: str) -> int:
    """End of the expression starting at token i: `;` or `,` at depth 0, a closing
    bracket, or a line break after a complete operand (no semicolon style)."""
    depth = 0
    j = i
    while j < len(toks) and j - i < 400:
        t = toks[j].text
        if (
            depth == 0
            and j > i
            and toks[j - 1].kind != "op"
            and "\n" in text[toks[j - 1].end : toks[j].start]
            and t not in (".", "?.", "+", "-", "*", "/", "?", ":", "&&", "||", "??")
        ):
            return j
        if t in "([{":
            depth += 1
        elif t in ")]}":
            depth -= 1
            if depth < 0:
                return j
        elif t in (";", ",") and depth == 0:
            return j
        j += 1
    return j


def _close(toks: list[Tok], i: int, open_: str = "(", close: str = ")") -> int:
    depth = 0
    j = i
    while j < len(toks) and j - i < 2000:
        if toks[j].text == open_:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return min(j, len(toks) - 1)


def _first_arg(args: list[Tok]) -> list[Tok]:
    depth = 0
    for j, t in enumerate(args):
        if t.text in "([{":
            depth += 1
        elif t.text in ")]}":
            depth -= 1
        elif t.text == "," and depth == 0:
            return args[:j]
    return args


def _has_shell(args: list[Tok]) -> bool:
    for j, t in enumerate(args[:-2]):
        if t.text == "shell" and args[j + 1].text == ":" and args[j + 2].text != "false":
            return True
    return False


def _fold(expr: list[Tok], state: _State) -> tuple[str, bool] | None:
    """Constant string value of a `"a" + "b" + k` expression, and whether it was assembled."""
    if not expr or len(expr) > 64:
        return None
    parts: list[str] = []
    assembled = False
    expect_value = True
    for t in expr:
        if expect_value:
            if t.kind == "str" and not (t.text.startswith("`") and "${" in t.text):
                parts.append(t.text[1:-1])
            elif t.kind == "id" and t.text in state.consts:
                value, was = state.consts[t.text]
                parts.append(value)
                assembled = assembled or was
            else:
                return None
            expect_value = False
        else:
            if t.text != "+":
                return None
            assembled = True
            expect_value = True
    if expect_value:
        return None
    return "".join(parts), assembled
