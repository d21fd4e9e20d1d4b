"""The guard's policy: roles and their tool rules, call-chain limits, parameter
checks and flow settings, as TOML data (`default_guard.toml` is the bundled one).

A rule names a tool pattern (`db.query`, `db.*`, `mcp__*`, `*`) with an effect and
conditions. Of the rules of a role that match a tool, the most specific wins: the
one with the most literal characters, then the fewest wildcards; on a tie the
stricter effect. No matching rule: the policy's `default_effect` (deny).
"""

from __future__ import annotations

import re
from datetime import timedelta
from enum import StrEnum
from fnmatch import fnmatchcase
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, field_validator

from memgate.domain import Category, Severity
from memgate.trust.policy import load_toml_model

DEFAULT_GUARD_POLICY = Path(__file__).with_name("default_guard.toml")
WILDCARDS = frozenset("*?[")
_DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*(s|m|h|d)\s*$")
_UNIT_SECONDS = {"s": 1, "m": 60, "h": 3600, "d": 86400}


class Effect(StrEnum):
    """What a matrix rule says about a call."""

    ALLOW = "allow"
    ASK = "ask"
    DENY = "deny"


STRICTNESS = {Effect.ALLOW: 0, Effect.ASK: 1, Effect.DENY: 2}


class Rule(BaseModel):
    """One row of the permission matrix."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    tool: str = Field(min_length=1, max_length=200)
    """Tool name or pattern (shell-style wildcards: `db.*`)."""
    effect: Effect
    requires_task: bool = False
    """Deny unless the call names a task context."""
    allowed_keys: frozenset[str] | None = None
    """Deny a call with an argument not named here."""
    max_calls_per_minute: int | None = Field(default=None, ge=1)
    """Deny the agent's calls under this rule past this many in 60 seconds."""
    blocked_patterns: tuple[str, ...] = ()
    """Regexes; deny when any argument value matches one."""
    destructive: bool = False
    """Counts toward the per-task circuit breaker."""
    note: str = ""

    @field_validator("blocked_patterns")
    @classmethod
    def _compiles(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"{pattern!r} is not a valid regex: {exc}") from None
        return patterns

    def matches(self, tool: str) -> bool:
        return fnmatchcase(tool, self.tool)

    def specificity(self) -> tuple[int, int, int]:
        """Higher is more specific: literal characters, then fewer wildcards,
        then stricter effect (a tie never loosens)."""
        literal = sum(1 for ch in self.tool if ch not in WILDCARDS)
        wild = sum(1 for ch in self.tool if ch in WILDCARDS)
        return (literal, -wild, STRICTNESS[self.effect])


class RolePolicy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    rules: tuple[Rule, ...] = ()
    max_calls_per_minute: int | None = Field(default=None, ge=1)
    """Per-agent rate under this role (else the chain section's)."""

    def rule_for(self, tool: str) -> Rule | None:
        """The most specific matching rule, or None."""
        best: Rule | None = None
        for rule in self.rules:
            if rule.matches(tool) and (best is None or rule.specificity() > best.specificity()):
                best = rule
        return best


class MaskingPolicy(BaseModel):
    """A chain where every step is allowed but the whole skips a control: data
    exported, read back, fields cut out of it, written to a new table, with no
    masking step between (regexes over the tool name and its arguments)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = True
    export: tuple[str, ...] = (
        r"(?i)\bto_csv\(|\bcopy\b.+\bto\b|into\s+outfile|export\w*\b.*\.csv|\bdump\b.*\.csv",
    )
    read: tuple[str, ...] = (r"(?i)(^|\W)(read\w*|cat|head|tail|open|load)\b.*\.csv",)
    extract: tuple[str, ...] = (
        r"(?i)\bre\.(findall|search|match|sub|finditer)\b|\bgrep\s+-\w*[oEP]|\b(sed|awk)\s"
        r"|\bregex\w*\b|\bextract\w*\b",
    )
    write: tuple[str, ...] = (
        r"(?i)\bcreate\s+table\b|\binsert\s+into\b|\bto_sql\(|\bdb\.(write|insert|load)\w*",
    )
    mask: tuple[str, ...] = (
        r"(?i)\bmask\w*|\banonymi[sz]\w*|\bpseudonymi[sz]\w*|\bredact\w*|\btokeni[sz]\w*",
    )
    """A masking step between the export and the write: no warning."""

    @field_validator("export", "read", "extract", "write", "mask")
    @classmethod
    def _compiles(cls, patterns: tuple[str, ...]) -> tuple[str, ...]:
        for pattern in patterns:
            try:
                re.compile(pattern)
            except re.error as exc:
                raise ValueError(f"{pattern!r} is not a valid regex: {exc}") from None
        return patterns


class ChainPolicy(BaseModel):
    """Call-chain tracker limits (a hot window in memory)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    max_calls_per_minute: int = Field(default=240, ge=1)
    burst_calls: int = Field(default=20, ge=2)
    """This many calls of the same tool by one agent within `burst_seconds` warn."""
    burst_seconds: float = Field(default=10.0, gt=0)
    max_depth: int = Field(default=8, ge=1)
    """Deny a call nested deeper than this under parent calls."""
    max_destructive_per_task: int = Field(default=3, ge=1)
    """Circuit breaker: destructive calls allowed per task (or session)."""
    destructive_tools: tuple[str, ...] = ()
    masking: MaskingPolicy = MaskingPolicy()


class ParamsPolicy(BaseModel):
    """The parameter validator: the scanner on each argument, SQL, paths, installs."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    deny: dict[Category, Severity] = Field(default_factory=dict)
    """Deny when a finding of this category reaches this severity."""
    ask: dict[Category, Severity] = Field(default_factory=dict)
    """Ask when a finding of this category reaches this severity."""
    sql_tools: tuple[str, ...] = ("db.*", "*sql*", "*query*")
    sql_args: frozenset[str] = frozenset({"sql", "query", "statement"})
    allow_stacked_sql: bool = False
    path_args: frozenset[str] = frozenset(
        {"path", "file_path", "file", "filename", "dir", "directory", "notebook_path", "cwd"}
    )
    sensitive_roots: tuple[str, ...] = ("etc", "proc", "root", "sys", "var", "home", ".ssh")
    max_parent_segments: int = Field(default=5, ge=1)
    """`..` segments past this deny whatever the target."""
    check_installs: bool = True
    max_scan_chars: int = Field(default=200_000, ge=100)
    """Characters of one call's arguments the scanner reads; past it the call is
    asked about (it could not be checked whole)."""


class FlowPolicy(BaseModel):
    """Values, not strings: how sensitive values read earlier are matched in
    later arguments, and the min-cut capacities."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    destination_args: frozenset[str] = frozenset(
        {"url", "uri", "host", "hostname", "endpoint", "to", "recipient", "webhook", "address"}
    )
    """Arguments that choose where data goes, or what runs: redacting them changes
    the action, so a tainted one means deny (infinite capacity)."""
    min_token: int = Field(default=8, ge=4)
    split_min_length: int = Field(default=16, ge=8)
    """Values at least this long are also fingerprinted by halves."""
    max_tokens: int = Field(default=4000, ge=10)
    """Words of one call's arguments looked up; past it the call is asked about."""
    unknown_secret: Effect = Effect.ASK
    """A secret in an argument that no earlier result showed: what to say."""
    max_reads_per_value: int = Field(default=5, ge=1)
    enabled: bool = True
    """Off: the flow check is cut off (no values looked up, no min cut); a call
    carrying a secret or naming a destination is asked about, since the guard
    cannot judge where its data goes (the ablation)."""
    track_pii: bool = True
    """Fingerprint personal data (e-mail addresses, phone numbers, ...) in results
    too, and e-mail addresses also by their alias form (lower case, no `+tag`)."""
    engine: str = Field(default="closed", pattern=r"^(auto|closed|networkx|falkordb)$")
    """Where the min cut runs: `closed` (in memory, the cut of these two-layer
    networks in closed form), `networkx` (in memory, Edmonds-Karp), `falkordb`
    (`algo.maxFlow` on the graph), `auto` (FalkorDB when the service has a graph,
    else closed). All give the same cuts."""


class TrustPolicy(BaseModel):
    """Trust earned by routine calls, and pinned tool descriptions."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    enabled: bool = True
    min_results: int = Field(default=3, ge=1)
    """Results of a (tool, argument shape) before its matrix `ask` becomes `allow`."""
    tools: tuple[str, ...] = ("*",)
    """Tool patterns whose matrix `ask` accumulated trust may turn into `allow`."""
    changed_tool: Effect = Effect.ASK
    """A tool whose description changed since it was pinned (a rug pull)."""


class AsksPolicy(BaseModel):
    """The review queue's asks."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    expire_after: timedelta | None = timedelta(hours=24)
    """A pending ask no one answered for this long is `expired`, and the same call
    decided again asks anew: `"24h"`, `"30m"`, `"90s"`, `"7d"`, or `"never"`."""

    @field_validator("expire_after", mode="before")
    @classmethod
    def _duration(cls, value: object) -> object:
        if isinstance(value, str):
            if value.strip() == "never":
                return None
            found = _DURATION.match(value)
            if found is None:
                raise ValueError('a duration like "24h", "30m", "90s", "7d", or "never"')
            return timedelta(seconds=float(found[1]) * _UNIT_SECONDS[found[2]])
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError('a duration like "24h", "30m", "90s", "7d", or "never"')
        return timedelta(seconds=value)

    @field_validator("expire_after")
    @classmethod
    def _positive(cls, value: timedelta | None) -> timedelta | None:
        if value is not None and value <= timedelta(0):
            raise ValueError('must be positive (or "never")')
        return value


class GuardPolicy(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    default_role: str = "default"
    default_effect: Effect = Effect.DENY
    roles: dict[str, RolePolicy] = Field(default_factory=dict)
    chain: ChainPolicy = ChainPolicy()
    params: ParamsPolicy = ParamsPolicy()
    flow: FlowPolicy = FlowPolicy()
    trust: TrustPolicy = TrustPolicy()
    asks: AsksPolicy = AsksPolicy()

    @classmethod
    def load(cls, path: Path | None = None) -> GuardPolicy:
        """Load a guard policy file (default: the bundled one). Raises PolicyError
        naming the file and field."""
        return load_toml_model(cls, path or DEFAULT_GUARD_POLICY)

    def role(self, name: str | None) -> tuple[str, RolePolicy]:
        """The named role, or the default role; an unknown role has no rules."""
        chosen = name or self.default_role
        return chosen, self.roles.get(chosen, RolePolicy())
