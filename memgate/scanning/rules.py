"""Detection rules as data: the pydantic model of `rules/**/*.toml` and its loader.

A rules file holds one family::

    [family]
    name = "secrets"
    description = "..."

    [[rules]]
    id = "MG-SEC-001"            # stable, never renamed or reused (deprecate instead)
    name = "aws-access-key-id"
    description = "AWS access key ID"
    category = "secret"
    severity = "high"
    confidence = 0.9
    detector = "regex"           # or the name of a built-in analyzer ("python_ast", ...)
    keywords = ["akia"]          # cheap prefilter: lower-case substrings, any must occur
    regex = '''\\b(AKIA[0-9A-Z]{16})\\b'''
    value_group = 1              # the sensitive value (redacted, fingerprinted)
    [rules.examples]
    match = ["key AKIA{{gen:upper_digit:16}}"]
    no_match = ["key AKIAEXAMPLE"]

Examples may use generators `{{gen:<charset>:<length>}}` so that no realistic
credential is committed literally; see `memgate.scanning.examples`.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from memgate.domain import Category, ChunkKind, Severity, Source
from memgate.errors import RulesError

RULE_ID = re.compile(r"^MG-(SEC|PII|INJ|EXF|AST|SH|JS|PS|HID|OBF|CLS|EFF|ID)-\d{3}$")


class ExampleCase(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str
    source: Source = Source.TOOL


def _as_cases(value: object) -> object:
    if isinstance(value, list):
        return [{"text": v} if isinstance(v, str) else v for v in value]
    return value


class Examples(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    match: tuple[ExampleCase, ...] = Field(min_length=1)
    no_match: tuple[ExampleCase, ...] = Field(min_length=1)

    _coerce_match = field_validator("match", "no_match", mode="before")(_as_cases)


class Allowlist(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    regexes: tuple[str, ...] = ()
    """A value matching any of these is not a finding."""
    stopwords: tuple[str, ...] = ()
    """A value containing any of these (case-insensitive) is not a finding."""


class Rule(BaseModel):
    """One detection rule. Fields not used by a rule's detector are ignored by it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    id: str
    name: str
    description: str
    category: Category
    severity: Severity
    confidence: float = Field(ge=0.0, le=1.0)
    weight: float = Field(default=1.0, ge=0.0)
    detector: str = "regex"
    keywords: tuple[str, ...] = ()
    regex: str | None = None
    flags: tuple[str, ...] = ()
    """Regex flags by name: `IGNORECASE`, `MULTILINE`, `DOTALL`; `UNICODE` keeps a
    secret rule's classes Unicode (ASCII by default: see `compiled`)."""
    value_group: int | str | None = None
    entropy: float | None = None
    """Minimum Shannon entropy (bits per char) of the value."""
    min_length: int = 0
    validators: tuple[str, ...] = ()
    """Names of validators the value must pass, e.g. `luhn`."""
    filters: tuple[str, ...] = ()
    """Names of false-positive predicates; a value any of them accepts is dropped."""
    allowlist: Allowlist = Allowlist()
    chunks: tuple[ChunkKind, ...] = (ChunkKind.CODE, ChunkKind.JSON, ChunkKind.PROSE)
    languages: tuple[str, ...] = ()
    """For code chunks: only these languages (empty: any)."""
    params: Mapping[str, Any] = Field(default_factory=dict)
    """Detector-specific parameters."""
    deprecated: bool = False
    examples: Examples

    @field_validator("id")
    @classmethod
    def _check_id(cls, value: str) -> str:
        if not RULE_ID.match(value):
            raise ValueError(f"rule id {value!r} does not match {RULE_ID.pattern}")
        return value

    @field_validator("keywords")
    @classmethod
    def _lower_keywords(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(k.lower() for k in value)

    @field_validator("flags")
    @classmethod
    def _check_flags(cls, value: tuple[str, ...]) -> tuple[str, ...]:
        for flag in value:
            if flag not in _FLAGS:
                raise ValueError(f"unknown regex flag {flag!r}; use one of {sorted(_FLAGS)}")
        return value

    def compiled(self) -> re.Pattern[str] | None:
        if self.regex is None:
            return None
        flags = 0
        for name in self.flags:
            flags |= _FLAGS[name]
        if (
            self.category is Category.SECRET
            and "UNICODE" not in self.flags
            and self.regex.isascii()
        ):
            # A credential is ASCII: its boundaries (`\b`, `(?<![\w-])`) are too,
            # or "token是glpat-…", "密钥：sk-…" hide it behind a CJK character
            # (a word character in Unicode). `UNICODE` keeps Unicode classes.
            flags |= re.ASCII
        return re.compile(self.regex, flags)


_FLAGS = {
    "IGNORECASE": re.IGNORECASE,
    "MULTILINE": re.MULTILINE,
    "DOTALL": re.DOTALL,
    "UNICODE": 0,
}


class Family(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str
    description: str


class RulesFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    family: Family
    rules: tuple[Rule, ...]


@dataclass(frozen=True, slots=True)
class RuleSet:
    """All loaded rules, and a version hash over the files that defined them."""

    rules: tuple[Rule, ...]
    version: str

    def by_id(self) -> dict[str, Rule]:
        return {r.id: r for r in self.rules}

    def active(self) -> tuple[Rule, ...]:
        return tuple(r for r in self.rules if not r.deprecated)


def default_rules_dir() -> Path:
    """The bundled rules: `memgate/_rules` in a wheel, `rules/` in a checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_rules", package.parent / "rules"):
        if candidate.is_dir():
            return candidate
    raise RulesError(f"no rules directory found next to {package}")


def rule_files(path: Path) -> list[Path]:
    if path.is_file():
        return [path]
    return sorted(p for p in path.rglob("*.toml") if p.is_file())


def load_rules(paths: Iterable[Path] | None = None) -> RuleSet:
    """Load and validate rules files (default: the bundled rules).

    Raises RulesError naming the file and the problem: TOML syntax, unknown or
    missing fields, a bad regex, or a rule id defined twice.
    """
    files: list[Path] = []
    for path in paths if paths is not None else [default_rules_dir()]:
        files.extend(rule_files(Path(path)))
    if not files:
        raise RulesError("no rules files found")
    digest = hashlib.sha256()
    rules: list[Rule] = []
    seen: dict[str, Path] = {}
    for file in files:
        raw = file.read_bytes()
        digest.update(file.name.encode())
        digest.update(raw)
        try:
            parsed = RulesFile.model_validate(tomllib.loads(raw.decode("utf-8")))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise RulesError(f"{file}: not valid TOML: {exc}") from None
        except ValidationError as exc:
            raise RulesError(f"{file}: {_describe(exc)}") from None
        for rule in parsed.rules:
            if rule.id in seen:
                raise RulesError(f"{file}: rule id {rule.id} already defined in {seen[rule.id]}")
            seen[rule.id] = file
            try:
                rule.compiled()
            except re.error as exc:
                raise RulesError(f"{file}: {rule.id}: bad regex: {exc}") from None
            rules.append(rule)
    return RuleSet(rules=tuple(rules), version=digest.hexdigest()[:12])


def _describe(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err["loc"])
        parts.append(f"{where}: {err['msg']}")
    return "; ".join(parts)
