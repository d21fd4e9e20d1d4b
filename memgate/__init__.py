"""memgate: customs for agent memory."""

from memgate.domain import Category, Decision, Finding, ScanReport, Severity, Source
from memgate.trust import Inspector, Policy

__all__ = [
    "Category",
    "Decision",
    "Finding",
    "Inspector",
    "Policy",
    "ScanReport",
    "Severity",
    "Source",
]
__version__ = "0.1.0"
