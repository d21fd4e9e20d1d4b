"""The held-out detection sets 3 to 6 (benchmarks/heldout3/ .. heldout6/) are
reproducible and well-formed: the checks the sets share, run on each. Each
set's own module keeps what differs (its validator's broken books, its extra
modes). These tests never print a case's text: failures name ids, labels and
digests only, so running them does not burn a set."""

from __future__ import annotations

import hashlib
import importlib
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from heldout_schema import FIELDS, FILE_LABELS, LABEL_EXPECT, PREFIX, digest, rows, set_modules

ROOT = Path(__file__).resolve().parents[1]
MINIMUM = {
    "benign": 220,
    "injection": 130,
    "dangerous_code": 90,
    "exfil": 65,
    "secret": 60,
    "pii": 55,
}


class HeldoutSet(NamedTuple):
    path: Path
    core: str
    make: str
    prefix: str


SETS = [
    pytest.param(
        HeldoutSet(ROOT / "benchmarks" / f"heldout{n}", f"h{n}core", f"make_heldout{n}", f"h{n}"),
        id=f"heldout{n}",
    )
    for n in (3, 4, 5, 6)
]


@pytest.mark.parametrize("hs", SETS)
def test_generator_reproduces_committed_files_byte_for_byte(hs: HeldoutSet, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(hs.path / f"{hs.make}.py"), "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    # stderr holds only ids and check names (the generator never prints texts)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for stem in ("text", "code"):
        assert digest(tmp_path / f"{stem}.jsonl") == digest(hs.path / f"{stem}.jsonl"), stem


@pytest.mark.parametrize("hs", SETS)
def test_schema_labels_expects_ids_and_texts(hs: HeldoutSet) -> None:
    ids: set[str] = set()
    texts: set[str] = set()
    for stem, row in rows(hs.path):
        rid = str(row.get("id"))
        assert set(row) == FIELDS, rid
        assert re.fullmatch(rf"{hs.prefix}-(ben|inj|dc|ex|sec|pii)-\d{{3}}", rid), rid
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


@pytest.mark.parametrize("hs", SETS)
def test_mix_per_label_language_sources_and_halves(hs: HeldoutSet) -> None:
    pairs = rows(hs.path)
    all_rows = [r for _, r in pairs]
    by_label: dict[str, int] = {}
    for r in all_rows:
        by_label[str(r["label"])] = by_label.get(str(r["label"]), 0) + 1
    for label, low in MINIMUM.items():
        assert by_label.get(label, 0) >= low, (label, by_label.get(label, 0))
    text_rows = [r for stem, r in pairs if stem == "text"]
    zh = sum(r["lang"] == "zh" for r in text_rows) / len(text_rows)
    assert 0.38 <= zh <= 0.47, round(zh, 3)
    # every label comes from at least three sources, and both languages
    for label in MINIMUM:
        assert len({r["source"] for r in all_rows if r["label"] == label}) >= 3, label
        assert {r["lang"] for r in all_rows if r["label"] == label} == {"en", "zh"}, label
    # both halves of the diag/final split hold every label
    for label in MINIMUM:
        halves = {
            hashlib.sha256(str(r["id"]).encode()).digest()[0] % 2
            for r in all_rows
            if r["label"] == label
        }
        assert halves == {0, 1}, label


@pytest.mark.parametrize("hs", SETS)
def test_checksummed_identifiers_pass_their_checks(hs: HeldoutSet) -> None:
    core, make = set_modules(hs.path, hs.core, hs.make)
    book = make.build()
    checks = [c for gen in book.gens for c in gen.checks]
    assert len({kind for kind, _ in checks}) >= 25
    for kind, value in checks:
        ok = core.phone_ok(value) if kind == "phone" else core.check_ident(kind, value)
        assert ok, kind  # the value itself is never printed


@pytest.mark.parametrize("split", ["diag", "final"])
@pytest.mark.parametrize("hs", SETS)
def test_eval_detection_loader_reads_the_set(hs: HeldoutSet, split: str) -> None:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        ev = importlib.import_module("eval_detection")
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    cases = ev.heldout_cases(hs.path, split)
    want = {str(r["id"]) for _, r in rows(hs.path) if ev.heldout_split(str(r["id"])) == split}
    assert {c.ident for c in cases} == want


# Sets from 4 on also say which file each label belongs in, and print their README's
# count tables with --counts.
COUNTED = [p for p in SETS if p.id != "heldout3"]


@pytest.mark.parametrize("hs", COUNTED)
def test_every_row_sits_in_the_file_its_label_allows(hs: HeldoutSet) -> None:
    (make,) = set_modules(hs.path, hs.make)
    book = make.build()
    assert make.file_problems(book) == []
    on_disk = {str(r["id"]): stem for stem, r in rows(hs.path)}
    assert on_disk == book.files


@pytest.mark.parametrize("hs", COUNTED)
def test_counts_mode_prints_tables_and_writes_nothing(hs: HeldoutSet, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(hs.path / f"{hs.make}.py"), "--counts", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith(f"{len(rows(hs.path))} items;")
    assert "| label / family |" in proc.stdout
    assert list(tmp_path.iterdir()) == []
    texts = {str(r["text"]) for _, r in rows(hs.path)}
    assert not any(len(t) > 40 and t in proc.stdout for t in texts)
    readme = (hs.path / "README.md").read_text(encoding="utf-8")
    assert proc.stdout.strip() in readme  # the README's counts are the generator's
