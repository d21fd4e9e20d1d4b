"""Trust: the policy, the score, and the inspector that composes scan + score."""

from memgate.trust.inspector import Inspector
from memgate.trust.policy import Policy, ProvenancePolicy, RoutingPolicy
from memgate.trust.score import Verdict, deduction, score

__all__ = [
    "Inspector",
    "Policy",
    "ProvenancePolicy",
    "RoutingPolicy",
    "Verdict",
    "deduction",
    "score",
]
