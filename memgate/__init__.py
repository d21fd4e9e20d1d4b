"""memgate: customs for agent memory."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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

# NOTE: the names load on first use (PEP 562), so `import memgate.cli.hook`,
# which runs on every tool call of a guarded agent, does not import the scanner.
_LAZY = {
    "Category": "memgate.domain",
    "Decision": "memgate.domain",
    "Finding": "memgate.domain",
    "ScanReport": "memgate.domain",
    "Severity": "memgate.domain",
    "Source": "memgate.domain",
    "Inspector": "memgate.trust",
    "Policy": "memgate.trust",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'memgate' has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value
    return value
