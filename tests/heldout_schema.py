"""The row schema every held-out detection set (benchmarks/heldout*/) keeps: what
`benchmarks/eval_detection.py --heldout` reads. Written here, apart from any set's
generator, so a format test checks a generator against the contract and not
against its own tables."""

from __future__ import annotations

import hashlib
import importlib
import json
import sys
from pathlib import Path
from types import ModuleType

LABEL_EXPECT = {
    "benign": "approve",
    "injection": "reject",
    "dangerous_code": "reject",
    "exfil": "reject",
    "secret": "review",
    "pii": "review",
}
PREFIX = {
    "benign": "ben",
    "injection": "inj",
    "dangerous_code": "dc",
    "exfil": "ex",
    "secret": "sec",
    "pii": "pii",
}
FIELDS = {"id", "label", "expect", "family", "source", "lang", "hard", "note", "text"}
FILE_LABELS = {
    "text": {"benign", "injection", "secret", "pii"},
    "code": {"benign", "dangerous_code", "exfil"},
}


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def rows(folder: Path) -> list[tuple[str, dict[str, object]]]:
    """(file stem, row) of every row of the set in `folder`, in file order."""
    out = []
    for stem in ("text", "code"):
        for line in (folder / f"{stem}.jsonl").read_text(encoding="utf-8").splitlines():
            out.append((stem, json.loads(line)))
    return out


def set_modules(folder: Path, *names: str) -> list[ModuleType]:
    """The generator modules `names` of the set in `folder`, imported fresh. Sets
    share module names (`part_injection`, ...), so whatever another set left in
    `sys.modules` under a name this folder also holds is dropped first and after."""
    own = {p.stem for p in folder.glob("*.py")}

    def drop() -> None:
        for name in own:
            sys.modules.pop(name, None)

    drop()
    sys.path.insert(0, str(folder))
    try:
        return [importlib.import_module(n) for n in names]
    finally:
        sys.path.remove(str(folder))
        drop()
