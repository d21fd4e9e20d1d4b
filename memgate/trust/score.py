"""Trust score and decision: pure functions of findings, source and policy."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from memgate.domain import Category, Decision, Finding, Severity, Source
from memgate.trust.policy import Policy

_RANK = {s: i for i, s in enumerate(Severity)}


@dataclass(frozen=True, slots=True)
class Verdict:
    trust_score: float
    decision: Decision
    reasons: tuple[str, ...]


def weigh_classifier(
    findings: Iterable[Finding], source: Source, policy: Policy
) -> tuple[Finding, ...]:
    """The findings as the policy's `[classifier]` section counts them: the trained
    classifier's below its threshold dropped, the merely corroborating ones at the
    corroborating severity (sensitive ones dropped), the confident ones as they are,
    each scaled by the classifier weight. Other findings pass unchanged."""
    cls = policy.classifier
    out: list[Finding] = []
    for finding in findings:
        if not finding.rule_id.startswith(cls.rule_prefix):
            out.append(finding)
            continue
        p = finding.confidence
        if p < cls.threshold:
            continue
        update: dict[str, object] = {"weight": finding.weight * cls.weight}
        if p < cls.confident_at(finding.category, source):
            if finding.category.sensitive:
                continue
            update["severity"] = cls.corroborating
            update["evidence"] = f"{finding.evidence} (corroborating)"
        out.append(finding.model_copy(update=update))
    return tuple(out)


def deduction(finding: Finding, source: Source, policy: Policy) -> float:
    """How much one finding lowers trust."""
    value = (
        finding.weight
        * policy.severity[finding.severity]
        * finding.confidence
        * policy.category(finding.category).weight
        * policy.source(source).multiplier.get(finding.category, 1.0)
    )
    # Metadata is data the writer sent beside the content, not a hidden carrier:
    # what a hidden carrier inside it held is (`metadata/base64`).
    if finding.layer not in ("text", "metadata"):
        value *= policy.layers.hidden_multiplier
    return value


def score(findings: Iterable[Finding], source: Source, policy: Policy) -> Verdict:
    """Trust = 1 - sum of deductions (each category capped by its `max_deduction`),
    clamped to [0, 1]. Any sensitive finding makes the decision at least `review`,
    and so does a finding at or above its category's `review_at` severity (an
    override or a jailbreak typed by the user is discounted, never approved). A
    rejection needs a quorum: some category whose findings (each deducting at least
    `thresholds.quorum_floor`) come from at least its `reject_quorum` distinct rules;
    without one the write is held for review."""
    by_category: dict[Category, float] = {}
    top: dict[Category, tuple[float, str]] = {}
    witnesses: dict[Category, set[str]] = {}
    sensitive = False
    floored: str | None = None
    for finding in findings:
        d = deduction(finding, source, policy)
        by_category[finding.category] = by_category.get(finding.category, 0.0) + d
        if d > top.get(finding.category, (-1.0, ""))[0]:
            top[finding.category] = (d, finding.rule_id)
        model = finding.rule_id.startswith(policy.classifier.rule_prefix)
        if d >= policy.thresholds.quorum_floor and (policy.classifier.witness or not model):
            witnesses.setdefault(finding.category, set()).add(finding.rule_id)
        sensitive = sensitive or finding.category.sensitive
        if floored is None:
            floor = policy.category(finding.category).review_at
            if floor is not None and _RANK[finding.severity] >= _RANK[floor]:
                floored = finding.rule_id
    total = 0.0
    for category, amount in by_category.items():
        cap = policy.category(category).max_deduction
        total += amount if cap is None else min(amount, cap)
    trust = round(min(1.0, max(0.0, 1.0 - total)), 4)
    thresholds = policy.thresholds
    if trust >= thresholds.approve:
        decision = Decision.APPROVE
    elif trust >= thresholds.review:
        decision = Decision.REVIEW
    else:
        decision = Decision.REJECT
    reasons = [
        f"{category.value}: -{amount:.2f} (top {top[category][1]})"
        for category, amount in sorted(by_category.items(), key=lambda kv: -kv[1])
        if amount > 0
    ]
    if decision is Decision.REJECT and not any(
        len(rules) >= policy.category(category).reject_quorum
        for category, rules in witnesses.items()
    ):
        decision = Decision.REVIEW
        alone = ", ".join(sorted(set().union(*witnesses.values()))) or "no rule"
        reasons.append(f"held for review, not rejected: {alone} alone is no quorum")
    if sensitive and decision is Decision.APPROVE:
        decision = Decision.REVIEW
        reasons.append("sensitive content always goes to human review")
    if floored is not None and decision is Decision.APPROVE:
        decision = Decision.REVIEW
        reasons.append(f"{floored} is never approved from any source")
    return Verdict(trust_score=trust, decision=decision, reasons=tuple(reasons))
