"""Findings laid over stored content, as plain segments a template escapes.

Finding spans point into the text the scanner was given. Stored content is the
*redacted* text: every secret value became a `[REDACTED:rule:fp]` tag whose
length differs from the value, so after the first tag the original offsets no
longer fit. Without tags the spans are exact. With tags, a finding is placed
where its evidence (the redacted excerpt of its span, whitespace-collapsed)
occurs nearest to its original offset; a finding that cannot be placed is
still listed, marked "position not shown", rather than highlighted wrongly.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from memgate.domain import Finding

TAG = re.compile(r"\[REDACTED:([A-Za-z0-9_.-]+):([0-9a-f]+)\]")
_NOTE = re.compile(r"\s*\([^()]*\)$")
_EVIDENCE_CHARS = 120


@dataclass(frozen=True, slots=True)
class Mark:
    """One finding as the page shows it."""

    number: int
    finding: Finding
    description: str
    placed: tuple[int, int] | None

    @property
    def title(self) -> str:
        return f"{self.finding.rule_id}: {self.description}"


@dataclass(slots=True)
class Segment:
    """A run of content covered by the same findings (or one redaction tag)."""

    text: str
    marks: list[Mark] = field(default_factory=list)
    tag_rule: str | None = None
    tag_fp: str | None = None

    @property
    def title(self) -> str:
        return "\n".join(m.title for m in self.marks)

    @property
    def severity(self) -> str:
        order = ("info", "low", "medium", "high", "critical")
        worst = max((order.index(m.finding.severity.value) for m in self.marks), default=0)
        return order[worst]


def _evidence_pattern(evidence: str) -> re.Pattern[str] | None:
    words = evidence.split()
    if not words:
        return None
    return re.compile(r"\s+".join(re.escape(w) for w in words))


def _place(content: str, finding: Finding, tagged: bool) -> tuple[int, int] | None:
    if finding.layer.startswith("metadata"):
        return None  # its span points into the metadata, not the content
    start, end = finding.span
    if not tagged:
        if end <= len(content) and start < end:
            return start, end
        return None
    for evidence in (finding.evidence, _NOTE.sub("", finding.evidence)):
        pattern = _evidence_pattern(evidence)
        if pattern is None:
            continue
        found = [m for m in pattern.finditer(content) if m.end() > m.start()]
        if found:
            best = min(found, key=lambda m: abs(m.start() - start))
            stop = best.end()
            if end - start > _EVIDENCE_CHARS:  # evidence was cut: keep the span's length
                stop = min(len(content), best.start() + (end - start))
            return best.start(), stop
    first_tag = TAG.search(content)
    if first_tag is not None and end <= first_tag.start() and start < end:
        return start, end  # before any redaction the offsets still hold
    return None


def marks_for(
    content: str, findings: Sequence[Finding], describe: Callable[[str], str]
) -> list[Mark]:
    """Each finding with its place in `content` (or None when it cannot be placed)."""
    tagged = TAG.search(content) is not None
    return [
        Mark(
            number=n, finding=f, description=describe(f.rule_id), placed=_place(content, f, tagged)
        )
        for n, f in enumerate(findings, start=1)
    ]


def segments(content: str, marks: Sequence[Mark]) -> list[Segment]:
    """Split `content` at every highlight and tag boundary. Text stays text: the
    template escapes each segment, nothing here builds markup."""
    cuts = {0, len(content)}
    for mark in marks:
        if mark.placed is not None:
            cuts.update(mark.placed)
    tags = list(TAG.finditer(content))
    for tag in tags:
        cuts.update((tag.start(), tag.end()))
    bounds = sorted(c for c in cuts if 0 <= c <= len(content))
    tag_at = {t.start(): t for t in tags}
    out: list[Segment] = []
    for lo, hi in itertools.pairwise(bounds):
        if lo == hi:
            continue
        covering = [
            m for m in marks if m.placed is not None and m.placed[0] <= lo and hi <= m.placed[1]
        ]
        found = tag_at.get(lo)
        if found is not None and found.end() == hi:
            out.append(Segment(content[lo:hi], covering, found.group(1), found.group(2)))
        else:
            out.append(Segment(content[lo:hi], covering))
    return out
