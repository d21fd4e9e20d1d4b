"""The inspector: scan, then score. The one call the gateway and CLI use."""

from __future__ import annotations

import os
import secrets
from pathlib import Path

from memgate.domain import ScanReport, Source
from memgate.scanning import BUILTIN_ANALYZERS, Scanner, load_rules
from memgate.trust.policy import Policy
from memgate.trust.score import score, weigh_classifier

FINGERPRINT_KEY_ENV = "MEMGATE_FINGERPRINT_KEY"


class Inspector:
    """Turns content into a ScanReport. Never raises on content."""

    def __init__(self, scanner: Scanner, policy: Policy) -> None:
        self.scanner = scanner
        self.policy = policy

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
        fingerprints are comparable only within this process)."""
        if fingerprint_key is None:
            env = os.environ.get(FINGERPRINT_KEY_ENV)
            fingerprint_key = env.encode() if env else secrets.token_bytes(32)
        scanner = Scanner(
            load_rules(rules_paths), BUILTIN_ANALYZERS, fingerprint_key=fingerprint_key
        )
        return cls(scanner, Policy.load(policy_path))

    @property
    def rules_version(self) -> str:
        return self.scanner.version

    def inspect(self, text: str, source: Source = Source.TOOL) -> ScanReport:
        result = self.scanner.scan(text, source)
        findings = weigh_classifier(result.findings, source, self.policy)
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
