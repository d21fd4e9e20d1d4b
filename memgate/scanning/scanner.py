"""The scanner: normalize, chunk, run every analyzer, map findings back to the
original text, fingerprint and redact sensitive values.

It never raises on content and is bounded in time: input is capped at
`max_chars`, analyzers are bounded, and an analyzer that fails on a chunk is
reported as a finding (`MG-OBF-900`) rather than crashing the write.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

import xxhash
from cachetools import LRUCache

from memgate.chunking import (
    HiddenMark,
    Layer,
    Normalized,
    chunk,
    json_string_chunks,
    normalize,
)
from memgate.domain import Category, Chunk, ChunkKind, ChunkSummary, Finding, Severity, Source, Span
from memgate.scanning.analyzer import Analyzer, AnalyzerFactory, Hit, ScanContext
from memgate.scanning.carriers import before_fix_spans, is_diff, mention_spans
from memgate.scanning.effects import python_carriers
from memgate.scanning.rules import Rule, RuleSet

log = logging.getLogger(__name__)

MAX_CHARS = 1 << 20
EVIDENCE_CHARS = 120
HIDDEN_DETECTOR = "hidden"
ANALYZER_FAILURE = "MG-OBF-900"
VALUE_DETECTORS = frozenset({"exfil", "javascript", "python_ast", "shell"})
PYTHON_DETECTOR = "python_ast"


@dataclass(frozen=True, slots=True)
class ScanResult:
    """Findings on one text, before scoring."""

    findings: tuple[Finding, ...]
    chunks: tuple[ChunkSummary, ...]
    redacted: str
    rules_version: str


@dataclass(frozen=True, slots=True)
class _Located:
    rule: Rule
    span: tuple[int, int]
    value: tuple[int, int] | None
    hit: Hit
    chunk_index: int | None
    layer: Layer


class Scanner:
    """Applies a rule set to text. Build one per process and reuse it: it holds
    compiled analyzers and a findings cache keyed by chunk hash."""

    def __init__(
        self,
        rules: RuleSet,
        analyzers: Mapping[str, AnalyzerFactory],
        *,
        fingerprint_key: bytes,
        cache_size: int = 4096,
        max_chars: int = MAX_CHARS,
    ) -> None:
        self.rules = rules
        self._by_id = rules.by_id()
        self._key = fingerprint_key
        self._max_chars = max_chars
        groups: dict[str, list[Rule]] = {}
        for rule in rules.active():
            groups.setdefault(rule.detector, []).append(rule)
        self._hidden_rules = tuple(groups.pop(HIDDEN_DETECTOR, []))
        unknown = sorted(set(groups) - set(analyzers))
        if unknown:
            raise ValueError(f"rules name unknown detectors: {', '.join(unknown)}")
        built: list[tuple[str, Analyzer]] = [
            (name, analyzers[name](rs)) for name, rs in groups.items()
        ]
        # NOTE: an analyzer with `whole_text = True` (the effects model) reads the
        # whole layer once, carriers and data flow across blocks included, instead
        # of one chunk at a time.
        self._whole = [(n, a) for n, a in built if getattr(a, "whole_text", False)]
        self._analyzers = [(n, a) for n, a in built if not getattr(a, "whole_text", False)]
        self._python = [(n, a) for n, a in self._analyzers if n == PYTHON_DETECTOR]
        # On the string values of a JSON chunk, only the detectors that pass JSON
        # chunks by: the others (regex rules, injection) already read the values
        # in the JSON text itself.
        self._value_analyzers = [(n, a) for n, a in self._analyzers if n in VALUE_DETECTORS]
        self._cache: LRUCache[str, tuple[Hit, ...]] | None = (
            LRUCache(maxsize=cache_size) if cache_size > 0 else None
        )

    @property
    def version(self) -> str:
        return self.rules.version

    def fingerprint(self, value: str) -> str:
        """Keyed fingerprint of a sensitive value: the same value gives the same
        fingerprint under the same key, and the value cannot be recovered."""
        data = value.encode("utf-8", "surrogatepass")
        # `hmac.digest`: the one-shot C path, the same bytes as `hmac.new(...).digest()`
        # at a fifth of the cost (no HMAC object per value)
        return hmac.digest(self._key, data, "sha256").hex()[:16]

    def scan(self, text: str, source: Source = Source.TOOL) -> ScanResult:
        original = text[: self._max_chars]
        norm = normalize(original)
        located: list[_Located] = list(self._hidden_findings(norm))
        summaries: list[ChunkSummary] = []
        for layer in norm.layers:
            chunks = chunk(layer.text)
            if layer.origin == "text":
                summaries = [
                    ChunkSummary(
                        kind=c.kind,
                        language=c.language,
                        span=layer.to_original(c.span.start, c.span.end),
                    )
                    for c in chunks
                ]
            ctx = ScanContext(
                source=source, origin=layer.origin, hidden=layer.hidden, depth=layer.depth
            )
            for index, piece in enumerate(chunks):
                if piece.text.isspace():
                    continue  # nothing any detector could match
                chunk_index = index if layer.origin == "text" else None
                hits = self._hits(piece, ctx)
                for hit in hits:
                    located.append(self._locate(hit, piece, layer, chunk_index))
                if piece.kind is ChunkKind.JSON:
                    # The string values read as text (commands, code, markup in a
                    # tool output's JSON); a rule the JSON chunk already fired on
                    # is not counted twice.
                    fired = {h.rule_id for h in hits}
                    for sub in json_string_chunks(piece):
                        for hit in self._hits(sub, ctx, value=True):
                            if hit.rule_id not in fired:
                                fired.add(hit.rule_id)
                                located.append(self._locate(hit, sub, layer, chunk_index))
            if self._whole:
                located.extend(self._whole_text(layer, ctx, chunks, located))
        located = _dedupe(located)
        return self._result(original, located, summaries)

    def _whole_text(
        self, layer: Layer, ctx: ScanContext, chunks: Sequence[Chunk], located: Sequence[_Located]
    ) -> list[_Located]:
        """The whole-text analyzers on the layer, then the Python pieces they found
        inside other carriers (`python -c '...'`, heredocs) through the Python
        analyzer. A rule already fired on an overlapping span is not counted twice."""
        text = layer.text
        if not text or text.isspace():
            return []
        piece = Chunk(kind=ChunkKind.PROSE, span=Span(0, len(text)), text=text)
        out: list[_Located] = []
        origin = layer.origin == "text"
        for hit in self._run(self._whole, piece, ctx, "whole"):
            out.append(
                self._locate(hit, piece, layer, _chunk_at(chunks, hit.start) if origin else None)
            )
        if not self._python:
            return out
        taken = [(x.rule.id, x.span) for x in located if x.layer is layer]
        for carrier in python_carriers(text):
            end = min(len(text), carrier.start + len(carrier.text))
            sub = Chunk(
                kind=ChunkKind.CODE,
                span=Span(min(carrier.start, end), end),
                text=carrier.text,
                language="python",
            )
            for hit in self._run(self._python, sub, ctx, "py"):
                if not carrier.verbatim and hit.value is not None:
                    # offsets inside unescaped text do not map back: no redaction span
                    hit = Hit(
                        hit.rule_id,
                        hit.start,
                        hit.end,
                        None,
                        hit.confidence,
                        hit.severity,
                        hit.note,
                    )
                item = self._locate(
                    hit, sub, layer, _chunk_at(chunks, sub.span.start) if origin else None
                )
                if any(
                    r == item.rule.id and s[0] < item.span[1] and item.span[0] < s[1]
                    for r, s in taken
                ):
                    continue
                taken.append((item.rule.id, item.span))
                out.append(item)
        return out

    def _run(
        self, analyzers: Sequence[tuple[str, Analyzer]], piece: Chunk, ctx: ScanContext, tag: str
    ) -> tuple[Hit, ...]:
        """The analyzers' hits on one piece, cached by the piece's text, language,
        context and `tag` (which set of analyzers, on what kind of piece)."""
        key = ""
        if self._cache is not None:
            key = xxhash.xxh3_64_hexdigest(
                f"{tag}|{piece.language}|{ctx.cache_key()}|".encode() + _utf8(piece.text)
            )
            cached = self._cache.get(key)
            if cached is not None:
                return cached
        hits: list[Hit] = []
        for name, analyzer in analyzers:
            try:
                hits.extend(analyzer.analyze(piece, ctx))
            except Exception:  # the scanner never raises on content
                log.exception("analyzer %s failed on a piece of text", name)
                hits.append(Hit(rule_id=ANALYZER_FAILURE, start=0, end=len(piece.text)))
        result = tuple(h for h in hits if h.rule_id in self._by_id) if hits else ()
        if self._cache is not None:
            self._cache[key] = result
        return result

    def _hits(self, piece: Chunk, ctx: ScanContext, *, value: bool = False) -> tuple[Hit, ...]:
        analyzers = self._value_analyzers if value else self._analyzers
        return self._run(analyzers, piece, ctx, f"{piece.kind}|{value:d}")

    def _locate(self, hit: Hit, piece: Chunk, layer: Layer, chunk_index: int | None) -> _Located:
        base = piece.span.start
        n = len(piece.text)
        start = base + min(max(hit.start, 0), n)
        end = base + min(max(hit.end, hit.start, 0), n)
        value = None
        if hit.value is not None:
            vs = base + min(max(hit.value[0], 0), n)
            ve = base + min(max(hit.value[1], hit.value[0], 0), n)
            value = layer.to_original(vs, ve)
        return _Located(
            rule=self._by_id[hit.rule_id],
            span=layer.to_original(start, end),
            value=value,
            hit=hit,
            chunk_index=chunk_index,
            layer=layer,
        )

    def _hidden_findings(self, norm: Normalized) -> Iterable[_Located]:
        if not norm.hidden or not self._hidden_rules:
            return
        main = norm.layers[0]
        for mark in norm.hidden:
            for rule in self._hidden_rules:
                if rule.params.get("kind") != mark.kind:
                    continue
                if rule.params.get("inside_word") is True and not mark.inside_word:
                    continue
                if mark.count < int(rule.params.get("min_count", 1)):
                    continue
                yield _Located(
                    rule=rule,
                    span=mark.span,
                    value=None,
                    hit=Hit(rule_id=rule.id, start=0, end=0, note=_mark_note(mark)),
                    chunk_index=None,
                    layer=main,
                )

    def _result(
        self, original: str, located: Sequence[_Located], summaries: list[ChunkSummary]
    ) -> ScanResult:
        values: dict[tuple[int, int], tuple[str, str]] = {}
        for item in located:
            if item.value is not None and item.value[1] > item.value[0]:
                secret = original[item.value[0] : item.value[1]]
                values.setdefault(item.value, (item.rule.id, self.fingerprint(secret)))
        spans = _merge(values)
        redacted = _redact(original, spans)
        located = _quoted_code(original, located)
        findings = tuple(
            Finding(
                rule_id=item.rule.id,
                category=item.rule.category,
                severity=item.hit.severity or item.rule.severity,
                confidence=item.hit.confidence
                if item.hit.confidence is not None
                else item.rule.confidence,
                weight=item.rule.weight,
                chunk_index=item.chunk_index,
                span=item.span,
                evidence=_evidence(original, item, spans),
                fingerprint=values[item.value][1] if item.value in values else None,
                layer=item.layer.origin,
            )
            for item in sorted(located, key=lambda x: (x.span, x.rule.id))
        )
        return ScanResult(
            findings=findings,
            chunks=tuple(summaries),
            redacted=redacted,
            rules_version=self.rules.version,
        )


# What code does, not what it holds: a secret on a removed line is still exposed
# in the text, a call on a removed line no longer runs.
_BEHAVIOUR = frozenset(
    {Category.CODE_EXEC, Category.EXFIL, Category.DESTRUCTIVE, Category.OBFUSCATION}
)


def _quoted_code(original: str, located: Sequence[_Located]) -> list[_Located]:
    """Behaviour findings that lie on code a fix takes out weigh like a quoted
    call: the lines a unified diff removes (a fix under review, a commit that
    drops a risky step), and the code a review quotes before its fix ("Before:"
    ... "After:", a bare `-` / `+` diff), wherever the chunker cut the text.
    Secrets and personal data there keep their weight, and so does whatever the
    fix does. Inline code a sentence warns against or names ("never run `…`",
    "禁止执行 `…`") weighs the same: the effects analyzer reads its carriers as
    mentions already, and the shell and exfiltration rules, which read the
    chunker's pieces, get the same verdict here."""
    if not any(item.rule.category in _BEHAVIOUR for item in located):
        return list(located)  # nothing the spans below could lower: not worth finding them
    removed: list[tuple[int, int]] = before_fix_spans(original)
    if is_diff(original):
        pos = 0
        for line in original.split("\n"):
            if line.startswith("-") and not line.startswith("---"):
                removed.append((pos, pos + len(line)))
            pos += len(line) + 1
    quoted = mention_spans(original)
    if not removed and not quoted:
        return list(located)
    out: list[_Located] = []
    for item in located:
        start, end = item.span
        if item.rule.category not in _BEHAVIOUR:
            out.append(item)
            continue
        why = None
        if any(lo <= start and max(start, end - 1) <= hi for lo, hi in removed):
            why = "on code a fix takes out"
        elif any(lo <= start and max(start, end - 1) <= hi for lo, hi in quoted):
            why = "on code a sentence quotes as a mention"
        if why is not None:
            hit = item.hit
            conf = item.rule.confidence if hit.confidence is None else hit.confidence
            note = f"{hit.note}; {why}" if hit.note else why
            item = _Located(
                rule=item.rule,
                span=item.span,
                value=item.value,
                hit=Hit(
                    hit.rule_id, hit.start, hit.end, hit.value, min(conf, 0.3), Severity.INFO, note
                ),
                chunk_index=item.chunk_index,
                layer=item.layer,
            )
        out.append(item)
    return out


def _chunk_at(chunks: Sequence[Chunk], pos: int) -> int | None:
    for index, piece in enumerate(chunks):
        if piece.span.start <= pos < piece.span.end:
            return index
    return None


def _utf8(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def _dedupe(located: list[_Located]) -> list[_Located]:
    """One finding per rule and original span; overlapping duplicates from a
    surfaced layer (an HTML comment is also in the main text) collapse."""
    best: dict[tuple[str, tuple[int, int]], _Located] = {}
    for item in located:
        key = (item.rule.id, item.span)
        current = best.get(key)
        if current is None or (item.layer.hidden and not current.layer.hidden):
            best[key] = item
    return list(best.values())


def _merge(values: Mapping[tuple[int, int], tuple[str, str]]) -> list[tuple[int, int, str]]:
    """Non-overlapping redaction spans with their replacement tags, in order."""
    merged: list[tuple[int, int, str]] = []
    for (start, end), (rule_id, fp) in sorted(values.items()):
        tag = f"[REDACTED:{rule_id}:{fp}]"
        if merged and start < merged[-1][1]:
            prev_start, prev_end, prev_tag = merged[-1]
            merged[-1] = (prev_start, max(prev_end, end), prev_tag)
        else:
            merged.append((start, end, tag))
    return merged


def _redact(text: str, spans: Sequence[tuple[int, int, str]]) -> str:
    out: list[str] = []
    pos = 0
    for start, end, tag in spans:
        out.append(text[pos:start])
        out.append(tag)
        pos = end
    out.append(text[pos:])
    return "".join(out)


def _evidence(original: str, item: _Located, spans: Sequence[tuple[int, int, str]]) -> str:
    """A short excerpt of what fired, with every sensitive value replaced by its tag."""
    start, end = item.span
    end = min(end, start + EVIDENCE_CHARS)
    inside = [
        (max(s, start) - start, min(e, end) - start, t)
        for s, e, t in spans
        if s < end and e > start
    ]
    excerpt = _redact(original[start:end], inside)
    # NOTE: a secret straddling the excerpt's end is cut by the slice above and
    # fully replaced by its tag, so no partial value leaks either.
    excerpt = " ".join(excerpt.split())
    if item.hit.note:
        excerpt = f"{excerpt} ({item.hit.note})" if excerpt else item.hit.note
    return excerpt


def _mark_note(mark: HiddenMark) -> str:
    if mark.kind == "nested_encoding":
        return f"{mark.count} encodings deep"
    return f"{mark.count} chars"
