"""The built-in detectors, by the name rules use in their `detector` field."""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from memgate.scanning.analyzer import AnalyzerFactory
from memgate.scanning.classifier import ClassifierAnalyzer
from memgate.scanning.effects import EffectsAnalyzer
from memgate.scanning.exfil import ExfilAnalyzer
from memgate.scanning.identifiers import IdentifierAnalyzer
from memgate.scanning.injection import InjectionAnalyzer
from memgate.scanning.javascript import JavaScriptAnalyzer
from memgate.scanning.python_ast import PythonAstAnalyzer, PythonFlowAnalyzer
from memgate.scanning.regex_rules import RegexAnalyzer, WholeTextRegexAnalyzer
from memgate.scanning.secret_context import SecretContextAnalyzer
from memgate.scanning.shell import ShellAnalyzer

BUILTIN_ANALYZERS: Mapping[str, AnalyzerFactory] = MappingProxyType(
    {
        "classifier": ClassifierAnalyzer,
        "effects": EffectsAnalyzer,
        "exfil": ExfilAnalyzer,
        "identifiers": IdentifierAnalyzer,
        "injection": InjectionAnalyzer,
        "javascript": JavaScriptAnalyzer,
        "python_ast": PythonAstAnalyzer,
        "python_flow": PythonFlowAnalyzer,
        "regex": RegexAnalyzer,
        "regex_text": WholeTextRegexAnalyzer,
        "secret_context": SecretContextAnalyzer,
        "shell": ShellAnalyzer,
    }
)
"""Read-only: a detector is added by writing its module and naming it here."""
