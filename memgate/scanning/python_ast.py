"""The `python_ast` detector: dangerous Python calls judged by what flows into them.

Rules are data (`rules/python_ast.toml`, `rules/obfuscation.toml`); each names a
`params.kind`:

- `call`: calls whose alias-resolved name is in `params.calls`, starts with one
  of `params.prefixes`, or whose method name is in `params.methods`. Optional
  `require_truthy` / `forbid_truthy` (a keyword such as `shell`),
  `unless_keyword` + `safe_values` (yaml's `Loader=SafeLoader`), `arg_kinds`
  (only fire when the judged argument is built by concat / fstring / format),
  `arg` (which positional argument is judged, default 0, or `"any"`).
  `params.levels` maps the judged argument's origin to `[severity, confidence]`:
  `const` (literals only), `local` (unknown local or config data), `external`
  (outside input: request, argv, stdin, socket, chat message, download). A
  level set to `["none", 0]` does not fire. `keyword_values` (`{verify =
  ["False"]}`) fires only when one of those keywords has one of those values;
  `arg_names` only when a positional argument is one of those names or short
  literals (`AutoAddPolicy`, `'md5'`); `context` (a regex) with
  `context_level` overrides the level when the call's line matches it (a weak
  hash or `random` on a line about passwords, tokens, salts).
- `dunder`: access to any name in `params.names`; with `min_distinct`, fires
  once when at least that many distinct names occur (a sandbox-escape chain).
- `reverse_shell`: a call in `params.calls` (os.dup2, pty.spawn) in code that
  also uses one of `params.needs` (socket).
- `obfuscated_call`: a call whose callee name was assembled (concatenation,
  chr(), reversal, rot13, `__import__` of a computed name); levels as `call`.
- `decoded_exec`: a sink in `params.calls` whose argument is assembled or
  decoded from an encoded literal (base64, zlib, rot13, hex, chr()).
- `effect`: what the code does (`memgate.scanning._py_effects`): an effect in
  `params.effects`, optionally only with an origin in `params.origins`
  (`literal`, `file`, `local`, `outside`, `fetched`, `decoded`), data of a kind
  in `params.data` (`secret`, `env`, `file`, `outside`, `local`), a host in
  `params.hosts` (`own`, `foreign`, `unknown`), a scope in `params.scopes`, and
  another effect of `params.with_any` in the same code. `params.levels` maps an
  origin, data kind or scope to `[severity, confidence]`. `params.also` (any
  rule): words one of which must occur besides a keyword (a flow's source).

A `python -c '…'` one-liner inside any chunk is analyzed as Python too.

Lines the parser cannot use (prose, partial snippets) go through a token
fallback for `call` rules, at `params.fallback_confidence` × the level's
confidence (default 0.7). A call left open at the end of a line has an
unknown (local) argument; `exec code in ns` (Python 2) is a call to exec.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memgate.domain import Chunk, ChunkKind, Severity
from memgate.scanning._code_lang import (
    KeywordSet,
    has_any,
    has_python_hint,
    looks_like_javascript,
)
from memgate.scanning._code_py import (
    DECODED,
    EXT,
    FILE,
    INDIRECT_NAMES,
    LOCAL,
    CallFact,
    PyFacts,
    python_facts,
    token_calls,
)
from memgate.scanning._py_effects import Effect, EffectSet, python_effects
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.carriers import BEFORE_LABEL, before_fix_spans
from memgate.scanning.rules import Rule

PYTHON_LANGUAGES = frozenset({"python", "py", "python3", "pycon", "ipython"})
# NOTE: "shell" is accepted too: the chunker labels single Python lines such as
# `x = f('a')` as shell; a real shell line does not parse as Python and only
# reaches the token fallback, whose names (eval(, os.system( ...) are Python's.
ACCEPTED_LANGUAGES = frozenset({*PYTHON_LANGUAGES, "shell", "bash", "sh"})
# A chunk labelled JavaScript is judged too when it shows a Python-only marker
# and no JavaScript one: a sniffer can take a Python line ending in `;` for
# JavaScript.
SNIFFED_LANGUAGES = frozenset({"javascript", "js"})
MAX_HITS_PER_RULE = 16
MAX_INLINE = 8
MAX_INLINE_DEPTH = 3
# `python3 -c "…"` / `python -c '…'` (a shell word: double quotes unescape \" \\ \$)
_PY_C = re.compile(
    r"""(?:(?<![\w$])python[0-9.]*|\$\{?\w{0,30}python\w{0,10}\}?)(?:\.exe)?\s+(?:-[a-zA-Z]+\s+){0,3}-c\s*"""
    r"""(?:"((?:[^"\\]|\\.){4,4000}?)"|'([^']{4,4000}?)')"""
)
_SHELL_ESCAPE = re.compile(r"""\\(["\\$`])""")

Level = tuple[Severity, float] | None


def parse_levels(raw: object, default: Level) -> dict[str, Level]:
    """`{const = ["info", 0.5], ...}` → per-origin (severity, confidence) or None."""
    out: dict[str, Level] = {"const": default, "local": default, "external": default}
    if not isinstance(raw, Mapping):
        return out
    for key, value in raw.items():
        if isinstance(value, list | tuple) and len(value) == 2:
            sev, conf = value
            out[str(key)] = None if sev == "none" else (Severity(sev), float(conf))
    if "decoded" not in out:
        out["decoded"] = out["external"]
    if "file" not in out:
        out["file"] = out["local"]
    return out


@dataclass(frozen=True, slots=True)
class _Spec:
    rule: Rule
    kind: str
    calls: frozenset[str]
    prefixes: tuple[str, ...]
    methods: frozenset[str]
    arg: int | None
    require_truthy: str | None
    forbid_truthy: str | None
    unless_keyword: str | None
    safe_values: frozenset[str]
    arg_kinds: frozenset[str]
    levels: dict[str, Level]
    names: frozenset[str]
    min_distinct: int
    needs: tuple[str, ...]
    fallback: float
    keywords: frozenset[str]
    keyword_values: dict[str, frozenset[str]]
    arg_names: frozenset[str]
    context: re.Pattern[str] | None
    context_level: Level
    triggers: tuple[str, ...] | None
    """Words one of which is in the text whenever the rule can fire on it, unless
    a name is computed (`indirect`); None: no such words are known."""
    indirect: bool
    params: Mapping[str, Any]
    effect_levels: dict[str, Level]
    also: tuple[str, ...]
    """`params.also`: lower-case words one of which must occur too (a flow needs
    its source as well as its sink)."""

    def matches(self, qual: str) -> bool:
        if qual in self.calls or qual.startswith(self.prefixes):
            return True
        return bool(self.methods) and qual.rsplit(".", 1)[-1] in self.methods


def _spec(rule: Rule) -> _Spec:
    p: Mapping[str, Any] = rule.params
    arg = p.get("arg", 0)
    return _Spec(
        rule=rule,
        kind=str(p.get("kind", "call")),
        calls=frozenset(p.get("calls", ())),
        prefixes=tuple(p.get("prefixes", ())),
        methods=frozenset(p.get("methods", ())),
        arg=None if arg == "any" else int(arg),
        require_truthy=p.get("require_truthy"),
        forbid_truthy=p.get("forbid_truthy"),
        unless_keyword=p.get("unless_keyword"),
        safe_values=frozenset(p.get("safe_values", ())),
        arg_kinds=frozenset(p.get("arg_kinds", ())),
        levels=parse_levels(p.get("levels"), (rule.severity, rule.confidence)),
        names=frozenset(p.get("names", ())),
        min_distinct=int(p.get("min_distinct", 0)),
        needs=tuple(p.get("needs", ())),
        fallback=float(p.get("fallback_confidence", 0.7)),
        keywords=frozenset(rule.keywords),
        keyword_values={
            str(k): frozenset(str(x).lower() for x in v)
            for k, v in dict(p.get("keyword_values", {})).items()
        },
        arg_names=frozenset(str(x).lower() for x in p.get("arg_names", ())),
        context=re.compile(str(p["context"])) if p.get("context") else None,
        context_level=parse_levels({"c": p.get("context_level")}, None).get("c"),
        triggers=_triggers(str(p.get("kind", "call")), p),
        indirect=str(p.get("kind", "call")) in ("call", "decoded_exec", "reverse_shell"),
        params=p,
        effect_levels=_effect_levels(p.get("levels")) if p.get("kind") == "effect" else {},
        also=tuple(str(x).lower() for x in p.get("also", ())),
    )


def _effect_levels(raw: object) -> dict[str, Level]:
    out: dict[str, Level] = {}
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            if isinstance(value, list | tuple) and len(value) == 2:
                sev, conf = value
                out[str(key)] = None if sev == "none" else (Severity(sev), float(conf))
    return out


def _triggers(kind: str, p: Mapping[str, Any]) -> tuple[str, ...] | None:
    """Every component of a resolved name (`os.system`) is written in the code (at
    the call, in an import, in an assignment or as the string given to getattr /
    __import__) unless it is computed, which takes one of `INDIRECT_NAMES`. So a
    call rule needs one of its names' longest components in the text; a dunder
    rule needs one of its names."""
    if kind in ("call", "decoded_exec", "reverse_shell"):
        names = [*p.get("calls", ()), *(x.strip(".") for x in p.get("prefixes", ()))]
        words = {max(n.split("."), key=len) for n in names if n}
        words.update(p.get("methods", ()))
        return tuple(sorted(w for w in words if w))
    if kind == "dunder":
        return tuple(sorted(p.get("names", ())))
    return None


def origin(call: CallFact, arg: int | None) -> str:
    """`const`, `local`, `external` or `decoded`: where the judged argument comes from."""
    if arg is None:
        bits = call.all_taint
        literal = all(call.literal) and not call.keywords
    elif arg < len(call.args):
        bits = call.args[arg]
        literal = call.literal[arg]
    else:
        return "const"
    if bits & EXT:
        return "external"
    if call.obfuscated_arg and arg in (0, None):
        return "decoded"
    if literal:
        return "const"
    if bits & (LOCAL | DECODED):
        return "local"
    if bits & FILE:
        return "file"  # a file named by a literal path: `exec(open("version.py").read())`
    return "const"


class PythonAstAnalyzer:
    """Runs python_ast rules on Python code chunks and on prose with code lines."""

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._specs = [_spec(r) for r in rules]
        self._keywords = KeywordSet(sorted({k for r in rules for k in r.keywords}))
        names: set[str] = set()
        for s in self._specs:
            if s.kind == "call":
                names.update(s.calls)
                names.update(q.rsplit(".", 1)[-1] for q in s.calls if "." in q)
                names.update(s.methods)
        self._fallback_names = frozenset(names)

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> list[Hit]:
        if chunk.kind is ChunkKind.JSON:
            return []
        text = chunk.text
        inline: list[Hit] = []
        pieces = _one_liners(text) if ctx.depth < MAX_INLINE_DEPTH else []
        if pieces:
            # `python3 -c '…'` in a shell line, a hook, prose: its argument is Python
            for m in pieces:
                group = 1 if m.group(1) is not None else 2
                code = m.group(group)
                if group == 1:
                    code = _SHELL_ESCAPE.sub(r"\1", code)
                sub = Chunk(ChunkKind.CODE, chunk.span, code, "python")
                deeper = ScanContext(ctx.source, ctx.origin, ctx.hidden, ctx.depth + 1)
                base = m.start(group)
                for h in self.analyze(sub, deeper):
                    inline.append(_shift(h, base))
            blanked = list(text)
            for m in pieces:
                blanked[m.start() : m.end()] = " " * (m.end() - m.start())
            text = "".join(blanked)
            chunk = Chunk(chunk.kind, chunk.span, text, chunk.language)
        hits = inline + self._analyze(chunk, text)
        if hits and ":" in text and BEFORE_LABEL.search(text):
            hits = _quoted_before_fix(chunk.text, hits)
        return hits

    def _analyze(self, chunk: Chunk, text: str) -> list[Hit]:
        sniffed = chunk.language in SNIFFED_LANGUAGES
        if (
            chunk.kind is ChunkKind.CODE
            and chunk.language not in (None, *ACCEPTED_LANGUAGES)
            and not sniffed
        ):
            return []
        # NOTE: the family's one cheap prefilter: every rule needs a call, a
        # dunder name or a Python 2 exec statement (memchr-speed `in`).
        if "(" not in text and "__" not in text and "exec " not in text:
            return []
        lower = text.lower()
        present = self._keywords.present(lower)
        if self._keywords.words and not present:
            return []
        live = self._live(text, lower, present)
        if not live:
            return []  # no rule's name is written: nothing to parse for
        if sniffed and not has_python_hint(text):
            return []  # JavaScript: judged by the javascript detector
        if (chunk.language is None or sniffed) and looks_like_javascript(text):
            return []  # judged by the javascript detector
        typed = chunk.kind is ChunkKind.CODE and chunk.language in PYTHON_LANGUAGES
        facts = python_facts(text, not typed)
        if typed and not facts.parsed:
            facts = python_facts(text, True)
        fallback: list[CallFact] = []
        for offset, line in facts.leftover:
            line_lower = line.lower()
            if any(k in line_lower for k in present):
                fallback.extend(token_calls(line, offset, self._fallback_names))
        out: list[Hit] = []
        effects: EffectSet | None = None
        for spec in live:
            if spec.kind == "effect":
                if not facts.parsed:
                    continue
                if effects is None:
                    effects = python_effects(facts)
                out.extend(_limit(_effect_hits(spec, effects)))
                continue
            hits = _limit(self._run(spec, facts, fallback, text))
            if spec.kind == "call" and _is_review(text):
                out.extend(_as_quoted(hits))
            else:
                out.extend(hits)
        return out

    def _live(self, text: str, lower: str, present: frozenset[str]) -> list[_Spec]:
        """The rules whose keywords are present and that can fire on `text`."""
        live: list[_Spec] = []
        indirect: bool | None = None
        for spec in self._specs:
            if spec.keywords and spec.keywords.isdisjoint(present):
                continue
            if spec.also and not has_any(lower, spec.also):
                continue  # a second necessary word (the data source of a flow) is absent
            if spec.triggers is None or has_any(text, spec.triggers):
                live.append(spec)
            elif spec.indirect:
                if indirect is None:
                    indirect = has_any(text, INDIRECT_NAMES)
                if indirect:
                    live.append(spec)
        return live

    def _run(
        self, spec: _Spec, facts: PyFacts, fallback: list[CallFact], text: str
    ) -> Iterator[Hit]:
        if spec.kind == "call":
            for call in [*facts.calls, *fallback]:
                hit = _call_hit(spec, call, text)
                if hit is not None:
                    yield hit
        elif spec.kind == "dunder":
            yield from _dunder_hits(spec, facts)
        elif spec.kind == "reverse_shell":
            uses = facts.imports | {c.qual.split(".")[0] for c in facts.calls}
            if any(n in uses for n in spec.needs):
                for call in facts.calls:
                    if call.qual in spec.calls:
                        yield Hit(spec.rule.id, call.start, call.end, note="socket + fd redirect")
                        return
        elif spec.kind == "obfuscated_call":
            for call in facts.calls:
                if call.obfuscated_name:
                    level = spec.levels.get(origin(call, None))
                    if level is not None:
                        yield _hit(spec, call, level, f"assembled name → {call.qual}")
        elif spec.kind == "decoded_exec":
            for call in [*facts.calls, *fallback]:
                if spec.matches(call.qual) and call.obfuscated_arg:
                    level = spec.levels["external"]
                    if level is not None:
                        yield _hit(spec, call, level, "runs a decoded or assembled payload")


def _call_hit(spec: _Spec, call: CallFact, text: str) -> Hit | None:
    if not spec.matches(call.qual):
        return None
    if spec.keyword_values and not any(
        call.keyword_quals.get(k, "").rsplit(".", 1)[-1].lower() in values
        for k, values in spec.keyword_values.items()
    ):
        return None
    if spec.arg_names and not any(
        name is not None and name.rsplit(".", 1)[-1].lower() in spec.arg_names
        for name in call.arg_names
    ):
        return None
    if spec.require_truthy and spec.require_truthy not in call.truthy:
        return None
    if spec.forbid_truthy and spec.forbid_truthy in call.truthy:
        return None
    if spec.unless_keyword:
        value = call.keyword_quals.get(spec.unless_keyword)
        if value is not None and value.rsplit(".", 1)[-1] in spec.safe_values:
            return None
    if spec.arg_kinds:
        idx = spec.arg or 0
        if idx >= len(call.arg_kinds) or call.arg_kinds[idx] not in spec.arg_kinds:
            return None
    where = origin(call, spec.arg)
    level = spec.levels.get(where)
    if spec.context is not None and spec.context_level is not None:
        line_start = text.rfind("\n", 0, call.start) + 1
        line_end = text.find("\n", call.end)
        if spec.context.search(text, line_start, len(text) if line_end < 0 else line_end):
            where = "a security context"
            level = spec.context_level
    if level is None:
        return None
    if call.quoted or (call.approx and _in_sentence(text, call.start, call.end)):
        level = (Severity.INFO, 0.3)
    elif call.approx:
        level = (level[0], round(level[1] * spec.fallback, 3))
    return _hit(spec, call, level, f"{call.qual} on {where} input")


_WORDS = re.compile(r"[^\W\d_]{2,}(?:\s+[^\W\d_]{2,}){3,}|[\u4e00-\u9fff]{4,}")


def _in_sentence(text: str, start: int, end: int) -> bool:
    """A call the token fallback found inside a sentence ("eval(expr) evaluates a
    single expression and returns its value"): code named in prose, not run. A
    line that opens with the call or an assignment to it is code."""
    line_start = text.rfind("\n", 0, start) + 1
    line_end = text.find("\n", end)
    line_end = len(text) if line_end < 0 else line_end
    before = text[line_start:start].strip()
    if not before or before.endswith("=") or before in ("return", "await", "yield"):
        after = text[end:line_end]
        return _WORDS.search(after) is not None
    return _WORDS.search(before) is not None or _WORDS.search(text[end:line_end]) is not None


def _hit(spec: _Spec, call: CallFact, level: tuple[Severity, float], note: str) -> Hit:
    return Hit(
        rule_id=spec.rule.id,
        start=call.start,
        end=call.end,
        severity=level[0],
        confidence=level[1],
        note=note,
    )


def _dunder_hits(spec: _Spec, facts: PyFacts) -> Iterator[Hit]:
    found = [a for a in facts.attrs if a.name in spec.names]
    if spec.min_distinct:
        if len({a.name for a in found}) >= spec.min_distinct:
            first, last = found[0], found[-1]
            yield Hit(
                spec.rule.id,
                min(first.start, last.start),
                max(first.end, last.end),
                note=" → ".join(dict.fromkeys(a.name for a in found)),
            )
        return
    named: set[str] = set()
    for a in found:
        if a.name not in named:  # one finding per name: `__mro__` twice is one fact
            named.add(a.name)
            yield Hit(spec.rule.id, a.start, a.end, note=a.name)


# A review that quotes the bad line beside its fix: "# Bad:" / "# vulnerable" /
# "❌" above or on the line, and a "# Good:" / "# fixed" / "✅" elsewhere.
_BAD_MARK = re.compile(
    r"(?im)^\s*#\s*(?:bad|wrong|vulnerable|insecure|unsafe|noncompliant|non-compliant|"
    r"anti-?pattern|before(?: the fix)?\s*:)|❌|✗"
    r"|#\s*(?:不安全|错误(?:示例|写法)|有漏洞|漏洞代码|反例)"
)
_FIX_MARK = re.compile(
    r"(?im)^\s*#\s*(?:good|fixed|fix\s*:|safe|secure|correct|compliant|better|"
    r"after(?: the fix)?\s*:)|✅|✓|#\s*(?:安全写法|正确(?:示例|写法)|修复后|正例)"
)


def _is_review(text: str) -> bool:
    """Code that marks one version bad and another good: a review or a lesson
    whose calls are quoted, not run (the call rules weigh little there; the
    effect rules, payload capabilities, keep their weight)."""
    bad = _BAD_MARK.search(text)
    if bad is None:
        return False
    fix = _FIX_MARK.search(text)
    while (
        fix is not None
        and text.count("\n", min(bad.start(), fix.start()), max(bad.start(), fix.start())) == 0
    ):
        fix = _FIX_MARK.search(text, fix.end())  # one comment saying both is not a comparison
    return fix is not None


def _as_quoted(hits: Iterator[Hit]) -> Iterator[Hit]:
    for hit in hits:
        yield Hit(
            rule_id=hit.rule_id,
            start=hit.start,
            end=hit.end,
            value=hit.value,
            severity=Severity.INFO,
            confidence=0.3,
            note=f"{hit.note} (quoted in a bad / good comparison)",
        )


def _one_liners(text: str) -> list[re.Match[str]]:
    """`python -c '…'` commands in `text`. NOTE: found from each `python` by
    str.find and matched there, not by a regex search over the whole text (an
    alternation with no literal prefix costs tens of µs on 2 KB of prose)."""
    if "-c" not in text:
        return []
    out: list[re.Match[str]] = []
    pos = text.find("python")
    while pos >= 0 and len(out) < MAX_INLINE:
        start = pos
        while (
            start > 0
            and pos - start < 40
            and (text[start - 1].isalnum() or text[start - 1] in "_${")
        ):
            start -= 1
        m = _PY_C.match(text, start)
        if m is not None:
            out.append(m)
            pos = text.find("python", m.end())
        else:
            pos = text.find("python", pos + 6)
    return out


def _effect_hits(spec: _Spec, found: EffectSet) -> Iterator[Hit]:
    p = spec.params
    kinds = frozenset(_strs(p.get("effects")))
    origins = frozenset(_strs(p.get("origins")))
    data = frozenset(_strs(p.get("data")))
    hosts = frozenset(_strs(p.get("hosts")))
    scopes = frozenset(_strs(p.get("scopes")))
    with_any = frozenset(_strs(p.get("with_any")))
    if with_any and with_any.isdisjoint(found.kinds):
        return
    if kinds.isdisjoint(found.kinds):
        return
    seen: set[tuple[int, int]] = set()
    for eff in found.effects:
        if eff.kind not in kinds:
            continue
        if origins and eff.origin not in origins:
            continue
        if data and data.isdisjoint(eff.data):
            continue
        if hosts and (eff.host or "unknown") not in hosts:
            continue
        if scopes and eff.scope not in scopes:
            continue
        level = _effect_level(spec, eff)
        if level is None or (eff.start, eff.end) in seen:
            continue
        seen.add((eff.start, eff.end))
        yield Hit(
            rule_id=spec.rule.id,
            start=eff.start,
            end=eff.end,
            severity=level[0],
            confidence=level[1],
            note=_effect_note(eff),
        )


def _effect_level(spec: _Spec, eff: Effect) -> Level:
    levels = spec.effect_levels
    for key in (eff.origin, *_DATA_ORDER, eff.scope):
        if key in levels and (key == eff.origin or key == eff.scope or key in eff.data):
            return levels[key]
    return (spec.rule.severity, spec.rule.confidence)


_DATA_ORDER = ("secret", "env", "file", "fetched", "outside", "local")


def _effect_note(eff: Effect) -> str:
    parts = [eff.what or eff.kind, eff.kind]
    if eff.kind in ("exec", "template", "deserialize", "extract"):
        parts.append(f"of {eff.origin} data")
    if eff.data:
        parts.append("sends " + "+".join(sorted(eff.data)))
    if eff.host:
        parts.append(f"to {eff.host} host")
    if eff.scope:
        parts.append(eff.scope)
    return " ".join(parts)


def _strs(value: object) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple):
        return tuple(str(v) for v in value)
    return ()


def _quoted_before_fix(text: str, hits: list[Hit]) -> list[Hit]:
    """Hits inside a "Before:" section that an "After:" section follows weigh as
    mentions (info). A "Before:" with no fix after it quotes nothing."""
    spans = before_fix_spans(text)
    if not spans:
        return hits
    return [
        Hit(
            h.rule_id,
            h.start,
            h.end,
            h.value,
            0.5,
            Severity.INFO,
            f"quoted before its fix: {h.note}",
        )
        if any(a <= h.start < b for a, b in spans)
        else h
        for h in hits
    ]


def _shift(hit: Hit, base: int) -> Hit:
    value = (hit.value[0] + base, hit.value[1] + base) if hit.value else None
    return Hit(
        rule_id=hit.rule_id,
        start=hit.start + base,
        end=hit.end + base,
        value=value,
        confidence=hit.confidence,
        severity=hit.severity,
        note=hit.note,
    )


def _limit(hits: Iterator[Hit]) -> Iterator[Hit]:
    for count, hit in enumerate(hits):
        if count >= MAX_HITS_PER_RULE:
            return
        yield hit


# Flow across the blocks of one memory -------------------------------------------

_FENCE_LINE = re.compile(r" {0,3}(`{3,}|~{3,})[ \t]*([\w+.-]*)")
_BLOCK_LANGUAGES = frozenset({"", *PYTHON_LANGUAGES})
MAX_BLOCKS = 16
_NOT_NEWLINE = re.compile(r"[^\n]")


def _fenced_blocks(text: str) -> list[tuple[int, int, str]]:
    """(body start, body end, language) of the fenced blocks, in one pass over the
    lines (linear: no regex spans a block)."""
    out: list[tuple[int, int, str]] = []
    pos = 0
    fence = ""
    lang = ""
    body = 0
    for line in text.split("\n"):
        nxt = pos + len(line) + 1
        m = _FENCE_LINE.match(line)
        if m is not None:
            if not fence:
                fence, lang, body = m.group(1), m.group(2).lower(), nxt
            elif m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2):
                out.append((body, pos, lang))
                fence = ""
                if len(out) >= MAX_BLOCKS:
                    break
        pos = nxt
    return out


class PythonFlowAnalyzer:
    """Effect rules over the Python of a whole memory: a value assigned in one
    fenced block and used in the next (the key read in block 1, posted in block
    2). The scanner hands it the whole text (`whole_text`). It fires only when no
    single block shows the combination on its own: a block that does is judged
    by the same rule's per-block twin of the `python_ast` detector."""

    whole_text = True

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._specs = [_spec(r) for r in rules if r.params.get("kind") == "effect"]
        self._keywords = KeywordSet(sorted({k for r in rules for k in r.keywords}))

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> list[Hit]:
        text = chunk.text
        if not self._specs or (text.count("```") + text.count("~~~")) < 4:
            return []  # fewer than two fenced blocks: nothing flows between blocks
        lower = text.lower()
        present = self._keywords.present(lower)
        live = [
            s
            for s in self._specs
            if not s.keywords.isdisjoint(present) and (not s.also or has_any(lower, s.also))
        ]
        if not live:
            return []
        blocks = [(a, b) for a, b, lang in _fenced_blocks(text) if lang in _BLOCK_LANGUAGES]
        lowers = [lower[a:b] for a, b in blocks if "(" in text[a:b]]
        blocks = [(a, b) for a, b in blocks if "(" in text[a:b]]
        if len(blocks) < 2:
            return []
        # NOTE: a flow across blocks needs a sink word in one block and a source
        # word in another; only a block holding both can show the flow alone.
        both: dict[int, list[_Spec]] = {}
        crossing: list[_Spec] = []
        relevant: set[int] = set()
        for spec in live:
            sinks = [i for i, x in enumerate(lowers) if has_any(x, tuple(spec.keywords))]
            sources = [i for i, x in enumerate(lowers) if not spec.also or has_any(x, spec.also)]
            if any(i != j for i in sinks for j in sources):
                crossing.append(spec)
                relevant.update(sinks, sources)
                for i in set(sinks) & set(sources):
                    both.setdefault(i, []).append(spec)
        if not crossing:
            return []
        alone: set[str] = set()
        for i, specs in both.items():
            a, b = blocks[i]
            one = python_effects(python_facts(text[a:b], False))
            alone.update(s.rule.id for s in specs if next(_effect_hits(s, one), None) is not None)
        live = [s for s in crossing if s.rule.id not in alone]
        if not live:
            return []
        # One module of the blocks holding a source or a sink word, at their own
        # offsets (everything else blanked, line breaks kept): a hit's span is a
        # span of the memory.
        parts: list[str] = []
        pos = 0
        for i in sorted(relevant):
            a, b = blocks[i]
            parts.append(_NOT_NEWLINE.sub(" ", text[pos:a]))
            parts.append(text[a:b])
            pos = b
        parts.append(_NOT_NEWLINE.sub(" ", text[pos:]))
        joined_facts = python_facts("".join(parts), False)
        if not joined_facts.parsed:
            return []
        joined = python_effects(joined_facts)
        out: list[Hit] = []
        for spec in live:  # none of them shown by one block alone: judged there
            for hit in _limit(_effect_hits(spec, joined)):
                out.append(
                    Hit(
                        rule_id=hit.rule_id,
                        start=hit.start,
                        end=hit.end,
                        severity=hit.severity,
                        confidence=hit.confidence,
                        note=f"{hit.note} (across blocks)",
                    )
                )
        return out
