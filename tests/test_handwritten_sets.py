"""The hand-written training sets (tools/handwritten/set_*/) keep the held-out row
schema (tests/heldout_schema.py), have unique ids and texts, and are reproduced
byte for byte by their generators. Failures name ids, labels and digests only,
never a case's text. Another set joins by adding a HandSet to SETS."""

from __future__ import annotations

import hashlib
import re
import subprocess
import sys
from pathlib import Path
from typing import NamedTuple

import pytest
from heldout_schema import FIELDS, FILE_LABELS, LABEL_EXPECT, PREFIX, digest, rows, set_modules

ROOT = Path(__file__).resolve().parents[1]
HAND = ROOT / "tools" / "handwritten"


class HandSet(NamedTuple):
    path: Path
    make: str  # generator module (and script) name
    core: str  # module with check_ident / phone_ok, "" when the set has no identifiers
    prefix: str
    zh_max: float = 0.5  # set C is Chinese first (about 65 % zh)


SETS = [
    pytest.param(HandSet(HAND / "set_a", "make_set_a", "part_ids", "ta"), id="set_a"),
    pytest.param(HandSet(HAND / "set_b", "make_set_b", "b_core", "tb"), id="set_b"),
    pytest.param(HandSet(HAND / "set_c", "make_set_c", "c_core", "tc", 0.7), id="set_c"),
    pytest.param(HandSet(HAND / "set_d", "make_set_d", "", "td"), id="set_d"),
    pytest.param(HandSet(HAND / "set_e", "make_set_e", "", "te"), id="set_e"),
    pytest.param(HandSet(HAND / "set_g", "make_set_g", "", "tg"), id="set_g"),
    pytest.param(HandSet(HAND / "set_f", "make_set_f", "", "tf"), id="set_f"),
    pytest.param(HandSet(HAND / "set_j", "make_set_j", "", "tj"), id="set_j"),
]


@pytest.mark.parametrize("hs", SETS)
def test_generator_reproduces_committed_files_byte_for_byte(hs: HandSet, tmp_path: Path) -> None:
    for run in ("a", "b"):
        out = tmp_path / run
        proc = subprocess.run(
            [sys.executable, str(hs.path / f"{hs.make}.py"), "--out", str(out)],
            capture_output=True,
            text=True,
            timeout=300,
            check=False,
        )
        assert proc.returncode == 0, proc.stderr[-2000:]
        for stem in ("text", "code"):
            assert digest(out / f"{stem}.jsonl") == digest(hs.path / f"{stem}.jsonl"), (run, stem)


@pytest.mark.parametrize("hs", SETS)
def test_rows_keep_the_schema_and_ids_and_texts_are_unique(hs: HandSet) -> None:
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
        assert label in FILE_LABELS[stem], (rid, stem)
        assert row["source"] in ("user", "agent", "tool", "web", "document"), rid
        assert row["lang"] in ("en", "zh"), rid
        assert isinstance(row["hard"], bool), rid
        assert re.fullmatch(r"[a-z][a-z0-9_]*", str(row["family"])), rid
        text = str(row["text"])
        assert text.strip() and str(row["note"]).strip(), rid
        assert not re.search(r"\{(name|proj|host|mail|brand|atk|port|own|v|pw|user|who)\}", text), (
            rid
        )  # unfilled slot
        h = hashlib.sha256(text.encode()).hexdigest()
        assert h not in texts, rid
        texts.add(h)


@pytest.mark.parametrize("hs", SETS)
def test_every_label_has_both_languages_and_several_sources(hs: HandSet) -> None:
    all_rows = [r for _, r in rows(hs.path)]
    for label in LABEL_EXPECT:
        mine = [r for r in all_rows if r["label"] == label]
        assert mine, label
        assert {r["lang"] for r in mine} == {"en", "zh"}, label
        assert len({r["source"] for r in mine}) >= 2, label
    zh = sum(r["lang"] == "zh" for r in all_rows) / len(all_rows)
    assert 0.3 <= zh <= hs.zh_max, round(zh, 3)


@pytest.mark.parametrize("hs", [p for p in SETS if p.values[0].core])
def test_identifiers_pass_their_checks(hs: HandSet) -> None:
    core, make = set_modules(hs.path, hs.core, hs.make)
    checks = make.build().checks
    assert len({kind for kind, _ in checks}) >= 15
    for kind, value in checks:
        if kind == "phone":
            region, _, number = value.rpartition(":")
            ok = core.phone_ok(number, region or None)
        else:
            ok = core.check_ident(kind, value)
        assert ok, kind  # the value itself is never printed


@pytest.mark.parametrize("hs", SETS)
def test_counts_mode_writes_nothing_and_matches_the_readme(hs: HandSet, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, str(hs.path / f"{hs.make}.py"), "--counts", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.startswith(f"{len(rows(hs.path))} items;")
    assert list(tmp_path.iterdir()) == []
    readme = (hs.path / "README.md").read_text(encoding="utf-8")
    assert proc.stdout.strip() in readme
