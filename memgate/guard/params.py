"""The parameter validator: each argument through the scanner's analyzers
(shell, exfiltration, code execution, secrets), plus SQL injection, path
traversal and typosquatted installs.

SQL is read with sqlparse's tokenizer, not regexes over the text: a tautology
(`OR 1=1`, `OR 'a'='a'`), a comment that cuts off the rest of a query right
after a string, a second stacked statement, `UNION SELECT` smuggled into a
value. A value passed to a SQL tool is also checked as if spliced into a quoted
literal, the way an injection reaches a query.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fnmatch import fnmatchcase
from typing import Any
from urllib.parse import unquote

import sqlparse
from cachetools import LRUCache
from sqlparse import tokens as T

from memgate.domain import Category, Finding, Severity, Source
from memgate.guard.installs import installs, squat
from memgate.guard.policy import ParamsPolicy
from memgate.scanning.scanner import Scanner

SEVERITY_RANK = {s: i for i, s in enumerate(Severity)}
MAX_LEAVES = 500
CACHE_LEAVES = 4096
CACHED_CHARS = 4096
"""Argument strings up to this long have their checks cached."""
MAX_DEPTH = 20
_ENCODED_DOTS = re.compile(r"%(25)*2e%(25)*2e|\.\.%(25)*(2f|5c)|%c0%ae", re.IGNORECASE)
_PATHLIKE = re.compile(r"(?:^|[\s=:'\"])((?:\.\.[/\\])+[^\s'\"]*)")


@dataclass(frozen=True, slots=True)
class Leaf:
    """One string inside the arguments: its top-level argument and its path."""

    arg: str
    path: str
    text: str


@dataclass(slots=True)
class ParamReport:
    deny: list[str] = field(default_factory=list)
    ask: list[str] = field(default_factory=list)
    destructive: bool = False
    secrets: list[tuple[Leaf, Finding]] = field(default_factory=list)
    """Secret findings per leaf (for the flow check; never a verdict here)."""
    personal: list[tuple[Leaf, Finding]] = field(default_factory=list)
    """Personal-data findings per leaf (for the flow check)."""
    redacted: dict[str, str] = field(default_factory=dict)
    """Leaf path -> the scanner's redacted text, where it redacted anything."""

    def merge(self, other: ParamReport) -> None:
        self.deny.extend(other.deny)
        self.ask.extend(other.ask)
        self.destructive = self.destructive or other.destructive
        self.secrets.extend(other.secrets)
        self.personal.extend(other.personal)
        self.redacted.update(other.redacted)


def leaves(arguments: dict[str, Any]) -> list[Leaf]:
    """Every string (and number, as text) in the arguments, bounded in count and depth."""
    out: list[Leaf] = []

    def walk(arg: str, path: str, value: Any, depth: int) -> None:
        if len(out) >= MAX_LEAVES or depth > MAX_DEPTH:
            return
        if isinstance(value, str):
            out.append(Leaf(arg, path, value))
        elif isinstance(value, bool) or value is None:
            return
        elif isinstance(value, int | float):
            out.append(Leaf(arg, path, str(value)))
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(arg, f"{path}.{key}", item, depth + 1)
        elif isinstance(value, list | tuple):
            for index, item in enumerate(value):
                walk(arg, f"{path}[{index}]", item, depth + 1)

    for name, value in arguments.items():
        walk(str(name), str(name), value, 0)
    return out


def at_least(severity: Severity, floor: Severity | None) -> bool:
    return floor is not None and SEVERITY_RANK[severity] >= SEVERITY_RANK[floor]


class ParamValidator:
    def __init__(self, scanner: Scanner, policy: ParamsPolicy) -> None:
        self._scanner = scanner
        self._policy = policy
        self._seen: LRUCache[tuple[str, str, str, bool], ParamReport] = LRUCache(CACHE_LEAVES)
        """Per-leaf results, in memory only (the guard decides one call at a time)."""

    def check(self, tool: str, items: list[Leaf]) -> ParamReport:
        policy = self._policy
        report = ParamReport()
        sql_tool = any(fnmatchcase(tool.lower(), p) for p in policy.sql_tools)
        budget = policy.max_scan_chars
        for leaf in items:
            if budget <= 0:
                report.ask.append(f"arguments past {policy.max_scan_chars} characters not checked")
                break
            text = leaf.text[:budget]
            budget -= len(text)
            if not text.strip():
                continue
            key = (leaf.arg, leaf.path, text, sql_tool)
            found = self._seen.get(key)
            if found is None:
                found = self._leaf(leaf, text, sql_tool)
                if len(text) <= CACHED_CHARS:
                    self._seen[key] = found
            report.merge(found)
        return report

    def _leaf(self, leaf: Leaf, text: str, sql_tool: bool) -> ParamReport:
        """Everything checked on one argument string: a pure function of the leaf,
        its text and the tool's SQL-ness (cached: an agent repeats its calls)."""
        policy = self._policy
        report = ParamReport()
        self._scan(leaf, text, report)
        if sql_tool:
            reason = sql_injection(text, as_value=leaf.arg not in policy.sql_args)
            if reason:
                report.deny.append(f"SQL injection in {leaf.path}: {reason}")
        reason = traversal(
            text,
            whole=leaf.arg in policy.path_args,
            roots=policy.sensitive_roots,
            max_parents=policy.max_parent_segments,
        )
        if reason:
            report.deny.append(f"path traversal in {leaf.path}: {reason}")
        if policy.check_installs:
            for name, ecosystem in installs(text):
                found = squat(name, ecosystem)
                if found is not None:
                    report.deny.append(
                        f"{leaf.path} installs {ecosystem} package {found.name!r}, a near"
                        f" miss of the popular {found.looks_like!r} (typosquat)"
                    )
        return report

    def _scan(self, leaf: Leaf, text: str, report: ParamReport) -> None:
        result = self._scanner.scan(text, Source.AGENT)
        if result.redacted != text:
            report.redacted[leaf.path] = result.redacted
        for finding in result.findings:
            category = finding.category
            if category is Category.SECRET:
                report.secrets.append((leaf, finding))
                continue
            if category is Category.PII:
                report.personal.append((leaf, finding))
            if category is Category.DESTRUCTIVE:
                report.destructive = True
            where = f"{leaf.path}: {finding.rule_id} ({category.value}, {finding.severity.value})"
            if at_least(finding.severity, self._policy.deny.get(category)):
                report.deny.append(where)
            elif at_least(finding.severity, self._policy.ask.get(category)):
                report.ask.append(where)


def _significant(text: str) -> list[Any]:
    return [t for t in sqlparse.parse(text) if str(t).strip(" \t\r\n;")]


def sql_injection(text: str, *, as_value: bool = False) -> str | None:
    """Why `text` looks like SQL injection, or None. `as_value`: a parameter
    value, checked as if spliced into a quoted literal too."""
    try:
        reason = _sql_reason(text, unbalanced=not as_value)
        if reason is None and as_value:
            for quote in ("'", '"'):
                if quote in text:
                    spliced = f"SELECT 1 WHERE x = {quote}{text}{quote}"
                    reason = _sql_reason(spliced, unbalanced=False)
                    if reason:
                        break
            if reason is None and re.search(r"(?i)\bunion\b.*\bselect\b", text):
                reason = "UNION SELECT in a value"
        return reason
    except Exception:  # sqlparse on hostile input: judged unreadable, not crashed
        return None


def _sql_reason(text: str, *, unbalanced: bool) -> str | None:
    statements = _significant(text)
    if len(statements) > 1:
        return "stacked statements"
    flat = [t for s in statements for t in s.flatten()]
    words = [t for t in flat if not t.is_whitespace]
    for i, token in enumerate(words):
        if token.ttype in T.Comment and i > 0 and words[i - 1].ttype in T.String:
            return "a comment cuts off the query after a string"
        if token.ttype in T.Comment and any(w.normalized == "OR" for w in words[:i]):
            return "a comment after an OR condition"
        if token.ttype is T.Keyword and token.normalized == "OR" and i + 3 < len(words):
            left, op, right = words[i + 1], words[i + 2], words[i + 3]
            if (
                op.ttype is T.Operator.Comparison
                and op.value in ("=", "==", "<=>", ">=", "<=", "LIKE")
                and (left.ttype in T.Literal or left.ttype in T.Name)
                and left.value.strip("'\"") == right.value.strip("'\"")
            ):
                return f"tautology OR {left.value}{op.value}{right.value}"
        if unbalanced and token.ttype is T.Error and token.value in ("'", '"'):
            return "an unbalanced quote"
    return None


def traversal(text: str, *, whole: bool, roots: tuple[str, ...], max_parents: int) -> str | None:
    """Why `text` (a path argument if `whole`, else any string with path-like
    words) escapes where it should stay, or None."""
    if whole and "\x00" in text:
        return "a NUL byte in a path"
    if _ENCODED_DOTS.search(text):
        return "percent-encoded parent segments"
    candidates: Iterator[str] = (
        iter((text,)) if whole else (m.group(1) for m in _PATHLIKE.finditer(text))
    )
    for candidate in candidates:
        path = unquote(candidate).replace("\\", "/")
        if path.startswith("/"):
            continue  # an absolute path says where it goes; the matrix judges it
        norm = posixpath.normpath(path)
        parts = norm.split("/")
        ups = 0
        while ups < len(parts) and parts[ups] == "..":
            ups += 1
        if ups > max_parents:
            return f"{ups} parent segments"
        if ups >= 3 and ups < len(parts) and parts[ups] in roots:
            return f"climbs {ups} levels to {parts[ups]}/"
    return None
