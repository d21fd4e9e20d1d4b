"""The inspector: scan, then score. The one call the gateway and CLI use."""

from __future__ import annotations

import json
import os
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from memgate.domain import Finding, ScanReport, Source
from memgate.scanning import BUILTIN_ANALYZERS, Scanner, load_rules
from memgate.scanning.rules import RuleSet
from memgate.scanning.scanner import HIDDEN_DETECTOR
from memgate.trust.policy import Policy
from memgate.trust.score import score, weigh_classifier

FINGERPRINT_KEY_ENV = "MEMGATE_FINGERPRINT_KEY"


class LazyScanner:
    """A scanner built on first use. Compiling the analyzers costs about half a
    second, which a command that only reads, verifies or rolls back (`memgate get`,
    `log verify`, `rollback`) never needs; the rule set's version is known without
    it. Thread-safe: the first users wait for one build."""

    def __init__(self, build: Callable[[], Scanner], version: str) -> None:
        self._build: Callable[[], Scanner] | None = build
        self._scanner: Scanner | None = None
        self._lock = threading.Lock()
        self.version = version

    def get(self) -> Scanner:
        scanner = self._scanner
        if scanner is None:
            with self._lock:
                if self._scanner is None:
                    assert self._build is not None  # noqa: S101 - cleared only once built
                    self._scanner = self._build()
                    self._build = None
                scanner = self._scanner
        return scanner


@dataclass(frozen=True, slots=True)
class Recipe:
    """What another process needs to build the same inspector: the loaded rules,
    the fingerprint key and the policy (all picklable). Only `Inspector.default`
    knows its recipe; an inspector over a scanner built by hand has none."""

    rules: RuleSet
    fingerprint_key: bytes
    policy: Policy

    def build(self) -> Inspector:
        rules, key = self.rules, self.fingerprint_key

        def scanner() -> Scanner:
            return Scanner(rules, BUILTIN_ANALYZERS, fingerprint_key=key)

        return Inspector(LazyScanner(scanner, rules.version), self.policy, recipe=self)


KeyedVerdict = tuple[list[str], ScanReport, dict[str, Any]]
"""`Inspector.inspect_keyed`: sensitive rules in the key, the verdict, the metadata
as it may be stored."""


class Inspector:
    """Turns content into a ScanReport. Never raises on content."""

    def __init__(
        self, scanner: Scanner | LazyScanner, policy: Policy, *, recipe: Recipe | None = None
    ) -> None:
        self._scanner = scanner
        self.policy = policy
        self.recipe = recipe
        """How to build this inspector elsewhere (a scan process), or None."""

    @property
    def scanner(self) -> Scanner:
        held = self._scanner
        return held.get() if isinstance(held, LazyScanner) else held

    def with_policy(self, policy: Policy) -> Inspector:
        """The same scanner (built or not yet) under another policy."""
        recipe = replace(self.recipe, policy=policy) if self.recipe is not None else None
        return Inspector(self._scanner, policy, recipe=recipe)

    @classmethod
    def default(
        cls,
        *,
        rules_paths: list[Path] | None = None,
        policy_path: Path | None = None,
        fingerprint_key: bytes | None = None,
    ) -> Inspector:
        """Bundled rules and policy. The fingerprint key comes from the argument,
        else `MEMGATE_FINGERPRINT_KEY`, else a random per-process key (then
        fingerprints are comparable only within this process).

        The rules are read and checked now (a broken rule file fails here); the
        scanner is compiled on its first use (`LazyScanner`)."""
        if fingerprint_key is None:
            env = os.environ.get(FINGERPRINT_KEY_ENV)
            fingerprint_key = env.encode() if env else secrets.token_bytes(32)
        rules = load_rules(rules_paths)
        unknown = sorted(
            {r.detector for r in rules.active()} - set(BUILTIN_ANALYZERS) - {HIDDEN_DETECTOR}
        )
        if unknown:
            raise ValueError(f"rules name unknown detectors: {', '.join(unknown)}")
        return Recipe(rules, fingerprint_key, Policy.load(policy_path)).build()

    @property
    def rules_version(self) -> str:
        return self._scanner.version

    def inspect(self, text: str, source: Source = Source.TOOL) -> ScanReport:
        return self._report(text, source, ())

    def inspect_keyed(
        self, key: str | None, text: str, metadata: dict[str, Any], source: Source
    ) -> KeyedVerdict:
        """What admission needs of a write: the sensitive rules its key trips (a
        write with any is refused; the verdict is then that of empty content), the
        verdict on content and metadata together, and the metadata with its
        secrets and personal data redacted (`inspect_write`)."""
        if key is not None:
            found = self.scanner.scan(key, source).findings
            rules = sorted({f.rule_id for f in found if f.category.sensitive})
            if rules:
                return rules, self.inspect("", source), metadata
        report, stored = self.inspect_write(text, metadata, source)
        return [], report, stored

    def inspect_write(
        self, text: str, metadata: dict[str, Any], source: Source = Source.TOOL
    ) -> tuple[ScanReport, dict[str, Any]]:
        """Content and metadata as one verdict, and the metadata as it may be stored.

        Metadata is scanned like content, as its JSON text: its findings (layer
        `metadata`, or `metadata/<carrier>` for what a hidden carrier in it held)
        count toward the trust score, the decision and so the route, and a secret
        or personal datum in it is redacted the way content is. Their spans point
        into that JSON text, not into the content."""
        if not metadata:
            return self._report(text, source, ()), metadata
        scanned = self.scanner.scan(metadata_text(metadata), source)
        extra = tuple(
            f.model_copy(update={"layer": metadata_layer(f.layer), "chunk_index": None})
            for f in scanned.findings
        )
        stored = metadata
        if any(f.category.sensitive for f in scanned.findings):
            stored = self._redacted_metadata(metadata, scanned.redacted, source)
        return self._report(text, source, extra), stored

    def _redacted_metadata(
        self, metadata: dict[str, Any], redacted_text: str, source: Source
    ) -> dict[str, Any]:
        # The redaction tags replace values inside JSON strings, so the redacted
        # text is JSON of the same shape; when a tag crossed a string's boundary
        # it is not, and each string is redacted on its own instead.
        try:
            parsed = json.loads(redacted_text)
        except ValueError:
            parsed = None
        if isinstance(parsed, dict) and len(parsed) == len(metadata):
            return parsed
        redacted = self._redact_each(metadata, source)
        assert isinstance(redacted, dict)  # noqa: S101 - the walk keeps the shape
        return redacted

    def _redact_each(self, value: Any, source: Source) -> Any:
        if isinstance(value, str):
            result = self.scanner.scan(value, source)
            return result.redacted if any(f.category.sensitive for f in result.findings) else value
        if isinstance(value, dict):
            return {
                self._redact_each(k, source): self._redact_each(v, source) for k, v in value.items()
            }
        if isinstance(value, list):
            return [self._redact_each(v, source) for v in value]
        return value

    def _report(self, text: str, source: Source, extra: tuple[Finding, ...]) -> ScanReport:
        result = self.scanner.scan(text, source)
        findings = weigh_classifier((*result.findings, *extra), source, self.policy)
        verdict = score(findings, source, self.policy)
        return ScanReport(
            decision=verdict.decision,
            trust_score=verdict.trust_score,
            source=source,
            source_prior=self.policy.source(source).prior,
            findings=findings,
            chunks=result.chunks,
            redacted=result.redacted,
            rules_version=result.rules_version,
            reasons=verdict.reasons,
        )


METADATA_LAYER = "metadata"


def metadata_text(metadata: dict[str, Any]) -> str:
    """The text metadata is scanned as: its JSON, one member per line."""
    return json.dumps(metadata, ensure_ascii=False, indent=1, default=str)


def metadata_layer(layer: str) -> str:
    """The layer of a finding seen in metadata (`metadata`, `metadata/base64`, ...)."""
    return METADATA_LAYER if layer == "text" else f"{METADATA_LAYER}/{layer}"
