"""Scanning: rules as data, detectors, and the scanner that applies them. No I/O
besides reading rules files."""

from memgate.scanning.analyzer import Analyzer, AnalyzerFactory, Hit, ScanContext
from memgate.scanning.registry import BUILTIN_ANALYZERS
from memgate.scanning.rules import Rule, RuleSet, default_rules_dir, load_rules
from memgate.scanning.scanner import Scanner, ScanResult

__all__ = [
    "BUILTIN_ANALYZERS",
    "Analyzer",
    "AnalyzerFactory",
    "Hit",
    "Rule",
    "RuleSet",
    "ScanContext",
    "ScanResult",
    "Scanner",
    "default_rules_dir",
    "load_rules",
]
