"""The graph schema and Cypher templates, loaded from `schema/graph/` (data, not
code). Investigations are fixed templates with `$parameters`; nothing is inlined (the
blast radius walks one level per query, so its depth is a loop bound in Python,
checked here to be an integer 1..6). No caller text ever becomes Cypher."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from memgate.domain.graph import MAX_DEPTH, MIN_DEPTH

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
TEMPLATES = (
    "project_reads",
    "project_memories",
    "project_writes",
    "project_flows",
    "project_reflows",
    "project_derived",
    "project_sources",
    "project_values",
    "project_decisions",
    "project_decided_memories",
    "project_decided_values",
    "project_mark",
    "marks",
    "readers",
    "readers_many",
    "blast_radius",
    "blast_memories",
    "blast_last",
    "known",
    "provenance",
    "exposure",
    "decisions",
)


def schema_dir() -> Path:
    """`memgate/_schema/graph` in a wheel, `schema/graph` in a checkout."""
    package = Path(__file__).resolve().parent.parent
    for candidate in (package / "_schema" / "graph", package.parent / "schema" / "graph"):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"no graph schema directory found next to {package}")


def _strip_comments(text: str) -> str:
    lines = [line for line in text.splitlines() if not line.lstrip().startswith("//")]
    return "\n".join(lines).strip()


@dataclass(frozen=True)
class Schema:
    labels: dict[str, dict[str, Any]]
    edges: dict[str, dict[str, Any]]
    index_statements: tuple[str, ...]
    queries: dict[str, str]

    def blast_radius(self, depth: int) -> str:
        """The one-level template of the blast radius walk, for a walk of `depth`
        levels; anything but an int 1..6 is refused."""
        check_depth(depth)
        return self.queries["blast_radius"]


def check_depth(depth: object) -> int:
    """`depth` if it is an int 1..6 (not a bool, not a float); ValueError otherwise."""
    if type(depth) is not int or not MIN_DEPTH <= depth <= MAX_DEPTH:
        raise ValueError(f"depth must be an integer {MIN_DEPTH}..{MAX_DEPTH}")
    return depth


@cache
def load_schema(directory: Path | None = None) -> Schema:
    root = directory or schema_dir()
    data = tomllib.loads((root / "schema.toml").read_text(encoding="utf-8"))
    statements = []
    for index in data.get("indexes", []):
        label, prop = index["label"], index["property"]
        # Names come from our own schema file; still, only identifiers pass.
        if not (_IDENT.match(label) and _IDENT.match(prop)) or label not in data["labels"]:
            raise ValueError(f"bad index in schema.toml: {index}")
        statements.append(f"CREATE INDEX FOR (n:{label}) ON (n.{prop})")
    queries = {
        name: _strip_comments((root / f"{name}.cypher").read_text(encoding="utf-8"))
        for name in TEMPLATES
    }
    return Schema(
        labels=dict(data["labels"]),
        edges=dict(data["edges"]),
        index_statements=tuple(statements),
        queries=queries,
    )
