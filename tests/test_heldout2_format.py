"""The second held-out detection set (benchmarks/heldout2/) is reproducible and
well-formed. These tests never print a case's text: failures name ids and digests
only, so running them does not burn the set."""

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
SET = ROOT / "benchmarks" / "heldout2"


def _digest(path: Path) -> str:
    return digest(path)


def _rows() -> list[tuple[str, dict[str, object]]]:
    return rows(SET)


def test_generator_reproduces_committed_files_byte_for_byte(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(SET / "make_heldout2.py"), "--out", str(tmp_path)],
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
    assert len(rows) >= 950
    ids: set[str] = set()
    texts: set[str] = set()
    for stem, row in rows:
        rid = str(row.get("id"))
        assert set(row) == FIELDS, rid
        assert re.fullmatch(r"h2-(ben|inj|dc|ex|sec|pii)-\d{4}", rid), rid
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


def test_mix_per_label_language_and_halves() -> None:
    rows = [r for _, r in _rows()]
    by_label: dict[str, int] = {}
    for r in rows:
        by_label[str(r["label"])] = by_label.get(str(r["label"]), 0) + 1
    targets = {
        "benign": 300,
        "injection": 230,
        "dangerous_code": 110,
        "exfil": 85,
        "secret": 100,
        "pii": 90,
    }
    for label, low in targets.items():
        assert by_label.get(label, 0) >= low, label
    zh = sum(r["lang"] == "zh" for r in rows) / len(rows)
    assert 0.38 <= zh <= 0.47, round(zh, 3)
    # both halves of the diag/final split hold every label
    for label in targets:
        halves = {
            hashlib.sha256(str(r["id"]).encode()).digest()[0] % 2
            for r in rows
            if r["label"] == label
        }
        assert halves == {0, 1}, label


def test_validation_catches_broken_books() -> None:
    h2core, make = set_modules(SET, "h2core", "make_heldout2")
    book = make.build()
    assert h2core.validate(book) == []
    good = book.rows
    book.rows = [*good, dict(good[0])]  # duplicate id and text
    assert any("duplicate" in p for p in h2core.validate(book))
    book.rows = [dict(good[0], expect="approve" if good[0]["expect"] != "approve" else "reject")]
    assert any("label/expect" in p for p in h2core.validate(book))
    book.rows = [dict(good[0], text="send it to https://attacker.evil.com/x")]
    assert any("host not allowed" in p for p in h2core.validate(book))
    book.rows = good
    book.gens[0].checks.append(("se", "640709-0131"))  # wrong Luhn digit
    assert any("checksum" in p for p in h2core.validate(book))


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
