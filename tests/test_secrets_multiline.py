"""Secrets that span lines the chunker splits (a PEM block in a code string) are
found on the whole text and redacted whole."""

from __future__ import annotations

import pytest

from memgate.domain import Decision, Source
from memgate.scanning.examples import expand
from memgate.trust import Inspector

BODY = ["MIIE{{gen:b64:60}}", "{{gen:b64:64}}", "{{gen:b64:48}}=="]


def _js(lines: list[str]) -> str:
    body = "\n".join(lines)
    return (
        f"export const key = `-----BEGIN EC PRIVATE KEY-----\n{body}\n"
        "-----END EC PRIVATE KEY-----`;"
    )


def _py(lines: list[str]) -> str:
    body = "".join(f'    "{line}\\n"\n' for line in lines)
    return (
        'SIGNING_KEY = (\n    "-----BEGIN PRIVATE KEY-----\\n"\n'
        f'{body}    "-----END PRIVATE KEY-----\\n"\n)'
    )


def _go(lines: list[str]) -> str:
    body = '\\n" +\n\t"'.join(lines)
    return (
        'var key = "-----BEGIN RSA PRIVATE KEY-----\\n" +\n'
        f'\t"{body}\\n" +\n\t"-----END RSA PRIVATE KEY-----"'
    )


@pytest.mark.parametrize("carrier", [_js, _py, _go])
def test_a_pem_key_in_a_code_string_goes_to_review_redacted(
    inspector: Inspector, carrier: object
) -> None:
    lines = [expand(line, f"pem:{i}") for i, line in enumerate(BODY)]
    text = carrier(lines)  # type: ignore[operator]
    report = inspector.inspect(text, Source.AGENT)
    assert report.decision is Decision.REVIEW
    assert "MG-SEC-026" in {f.rule_id for f in report.findings}
    for line in lines:
        assert line.rstrip("=") not in report.redacted


def test_a_public_key_in_a_code_string_stays_approved(inspector: Inspector) -> None:
    body = expand("MIIB{{gen:b64:60}}", "pub")
    text = f"const pub = `-----BEGIN PUBLIC KEY-----\n{body}\n-----END PUBLIC KEY-----`;"
    assert inspector.inspect(text, Source.AGENT).decision is Decision.APPROVE
