"""Trust score and decision from findings, through the public `score` function."""

from __future__ import annotations

from pathlib import Path

import pytest

from memgate.domain import Category, Decision, Finding, Severity, Source
from memgate.errors import PolicyError
from memgate.trust import Policy, score


def finding(
    category: Category,
    severity: Severity = Severity.HIGH,
    confidence: float = 1.0,
    layer: str = "text",
    rule: str = "MG-INJ-999",
) -> Finding:
    return Finding(
        rule_id=rule,
        category=category,
        severity=severity,
        confidence=confidence,
        weight=1.0,
        span=(0, 1),
        layer=layer,
    )


@pytest.fixture(scope="module")
def policy() -> Policy:
    return Policy.load()


def test_no_findings_approves_with_full_trust(policy: Policy) -> None:
    verdict = score([], Source.WEB, policy)
    assert verdict.trust_score == 1.0
    assert verdict.decision is Decision.APPROVE


def test_two_injection_rules_from_web_reject(policy: Policy) -> None:
    verdict = score(
        [
            finding(Category.INJECTION, Severity.CRITICAL),
            finding(Category.INJECTION, rule="MG-INJ-998"),
        ],
        Source.WEB,
        policy,
    )
    assert verdict.decision is Decision.REJECT
    assert verdict.trust_score < policy.thresholds.review


def test_one_injection_rule_alone_holds_for_review_not_reject(policy: Policy) -> None:
    # the same rule twice is one witness; the trust is as low, the decision is review
    same = [finding(Category.INJECTION, Severity.CRITICAL)] * 2
    verdict = score(same, Source.WEB, policy)
    assert verdict.trust_score < policy.thresholds.review
    assert verdict.decision is Decision.REVIEW
    assert any("MG-INJ-999 alone is no quorum" in r for r in verdict.reasons)


def test_a_second_category_is_corroboration(policy: Policy) -> None:
    hidden = finding(Category.HIDDEN_TEXT, Severity.MEDIUM, rule="MG-HID-999")
    verdict = score([finding(Category.INJECTION, Severity.CRITICAL), hidden], Source.WEB, policy)
    assert verdict.decision is Decision.REJECT


def test_a_merely_corroborating_finding_is_no_second_witness(policy: Policy) -> None:
    weak = finding(Category.INJECTION, Severity.INFO, confidence=0.5, rule="MG-INJ-998")
    verdict = score([finding(Category.INJECTION, Severity.CRITICAL), weak], Source.WEB, policy)
    assert verdict.decision is Decision.REVIEW


def test_one_code_capability_alone_still_rejects(policy: Policy) -> None:
    verdict = score([finding(Category.CODE_EXEC, Severity.CRITICAL)], Source.WEB, policy)
    assert verdict.decision is Decision.REJECT


def test_reject_quorum_is_policy_data(tmp_path: Path) -> None:
    text = Path(__file__).parents[1].joinpath("memgate/trust/default_policy.toml").read_text()
    strict = tmp_path / "policy.toml"
    strict.write_text(text.replace("reject_quorum = 2", "reject_quorum = 1"))
    f = finding(Category.INJECTION, Severity.CRITICAL)
    assert score([f], Source.WEB, Policy.load(strict)).decision is Decision.REJECT
    assert score([f], Source.WEB, Policy.load()).decision is Decision.REVIEW


def test_same_injection_weighs_less_from_the_user(policy: Policy) -> None:
    f = finding(Category.INJECTION, Severity.MEDIUM)
    assert score([f], Source.USER, policy).trust_score > score([f], Source.WEB, policy).trust_score


def test_hidden_layer_weighs_more(policy: Policy) -> None:
    plain = score([finding(Category.INJECTION, Severity.MEDIUM)], Source.TOOL, policy)
    hidden = score(
        [finding(Category.INJECTION, Severity.MEDIUM, layer="html_comment")], Source.TOOL, policy
    )
    assert hidden.trust_score < plain.trust_score


def test_secret_alone_sends_to_review_never_reject(policy: Policy) -> None:
    many = [finding(Category.SECRET, Severity.CRITICAL) for _ in range(10)]
    verdict = score(many, Source.TOOL, policy)
    assert verdict.decision is Decision.REVIEW


def test_weak_sensitive_finding_still_reviews(policy: Policy) -> None:
    verdict = score([finding(Category.PII, Severity.INFO, 0.1)], Source.USER, policy)
    assert verdict.trust_score >= policy.thresholds.approve
    assert verdict.decision is Decision.REVIEW


def test_secret_plus_injection_still_rejects(policy: Policy) -> None:
    verdict = score(
        [finding(Category.SECRET), finding(Category.INJECTION, Severity.CRITICAL)],
        Source.WEB,
        policy,
    )
    assert verdict.decision is Decision.REJECT


def test_score_is_clamped(policy: Policy) -> None:
    verdict = score([finding(Category.CODE_EXEC, Severity.CRITICAL)] * 20, Source.WEB, policy)
    assert verdict.trust_score == 0.0


def test_policy_errors_name_the_field(tmp_path: Path) -> None:
    bad = tmp_path / "policy.toml"
    bad.write_text("[thresholds]\napprove = 0.5\nreview = 0.8\n[severity]\ninfo = 0.1\n")
    with pytest.raises(PolicyError, match="thresholds"):
        Policy.load(bad)
    bad.write_text("[thresholds\n")
    with pytest.raises(PolicyError, match="not valid TOML"):
        Policy.load(bad)
    with pytest.raises(PolicyError, match="cannot read"):
        Policy.load(tmp_path / "missing.toml")


def test_web_and_document_priors_stay_below_auto_approve(policy: Policy) -> None:
    for source in (Source.WEB, Source.DOCUMENT):
        assert policy.source(source).prior < policy.thresholds.approve


def test_review_at_keeps_a_discounted_injection_out_of_approve(policy: Policy) -> None:
    # the user's multiplier leaves trust above `approve`; the floor still holds it
    f = finding(Category.INJECTION, Severity.MEDIUM, confidence=0.7)
    verdict = score([f], Source.USER, policy)
    assert verdict.trust_score >= policy.thresholds.approve
    assert verdict.decision is Decision.REVIEW
    assert any("never approved" in r for r in verdict.reasons)


def test_below_review_at_a_user_finding_is_still_approved(policy: Policy) -> None:
    verdict = score([finding(Category.INJECTION, Severity.LOW, 0.7)], Source.USER, policy)
    assert verdict.decision is Decision.APPROVE


def test_review_at_is_policy_data(tmp_path: Path) -> None:
    text = Path(__file__).parents[1].joinpath("memgate/trust/default_policy.toml").read_text()
    relaxed = tmp_path / "policy.toml"
    relaxed.write_text(text.replace('review_at = "medium"', 'review_at = "critical"'))
    f = finding(Category.INJECTION, Severity.MEDIUM, confidence=0.7)
    assert score([f], Source.USER, Policy.load(relaxed)).decision is Decision.APPROVE


def test_the_classifier_is_no_witness_of_a_rejection(tmp_path: Path) -> None:
    # one rule and the model's confident finding: held for a person, not refused;
    # a second rule is a quorum; `witness = true` restores the model as a witness
    policy = Policy.load()
    rule = finding(Category.INJECTION, Severity.CRITICAL)
    model = finding(Category.INJECTION, Severity.HIGH, confidence=0.99, rule="MG-CLS-001")
    verdict = score([rule, model], Source.WEB, policy)
    assert verdict.trust_score < policy.thresholds.review
    assert verdict.decision is Decision.REVIEW
    second = finding(Category.INJECTION, rule="MG-INJ-998")
    assert score([rule, model, second], Source.WEB, policy).decision is Decision.REJECT
    text = Path(__file__).parents[1].joinpath("memgate/trust/default_policy.toml").read_text()
    counting = tmp_path / "policy.toml"
    counting.write_text(text.replace("witness = false", "witness = true"))
    assert score([rule, model], Source.WEB, Policy.load(counting)).decision is Decision.REJECT
