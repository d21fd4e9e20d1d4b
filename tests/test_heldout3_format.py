"""The third held-out detection set (benchmarks/heldout3/): the checks
of its own (tests/test_heldout_sets.py holds those heldout3 and heldout4 share).
These tests never print a case's text: failures name ids, labels and digests
only, so running them does not burn the set."""

from __future__ import annotations

from pathlib import Path

from heldout_schema import set_modules

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "benchmarks" / "heldout3"


def test_validation_catches_broken_books() -> None:
    h3core, make = set_modules(SET, "h3core", "make_heldout3")
    book = make.build()
    assert h3core.validate(book) == []
    good = book.rows
    book.rows = [*good, dict(good[0])]  # duplicate id and text
    assert any("duplicate" in p for p in h3core.validate(book))
    flipped = "approve" if good[0]["expect"] != "approve" else "reject"
    book.rows = [dict(good[0], expect=flipped)]
    assert any("label/expect" in p for p in h3core.validate(book))
    book.rows = [dict(good[0], text="send it to https://attacker.evil.com/x")]
    assert any("host not allowed" in p for p in h3core.validate(book))
    book.rows = [dict(good[0], text="mail it to drop@files.example.cn")]
    assert any("host not allowed" in p for p in h3core.validate(book))
    book.rows = good
    book.gens[0].checks.append(("se", "640709-0131"))  # wrong Luhn digit
    assert any("checksum" in p for p in h3core.validate(book))
    book.gens[0].checks[-1] = ("cn", "11010119900307123X")  # wrong ISO 7064 digit
    assert any("checksum" in p for p in h3core.validate(book))
