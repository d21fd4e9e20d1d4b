"""Tree-sitter parsers for the languages agents paste, built once per process.

The grammars come from the per-language wheels (`tree_sitter_bash`, ...). A
parser is created lazily the first time a language is asked for and reused;
the scanner holds no other state here. Everything degrades to `None` when a
grammar is missing or a parse fails, so callers keep a token-level fallback.
"""

from __future__ import annotations

import importlib
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from tree_sitter import Language, Node, Parser, Tree

MAX_BYTES = 200_000

# language -> (module, attribute holding the `language()` capsule factory)
_GRAMMARS: dict[str, tuple[str, str]] = {
    "shell": ("tree_sitter_bash", "language"),
    "javascript": ("tree_sitter_javascript", "language"),
    "typescript": ("tree_sitter_typescript", "language_typescript"),
    "go": ("tree_sitter_go", "language"),
    "ruby": ("tree_sitter_ruby", "language"),
    "php": ("tree_sitter_php", "language_php"),
    "perl": ("tree_sitter_perl", "language"),
    "powershell": ("tree_sitter_powershell", "language"),
}

COMMENT_TYPES = frozenset({"comment", "line_comment", "block_comment", "pod"})

_lock = threading.Lock()
_parsers: dict[str, Parser | None] = {}


def parser_for(language: str) -> Parser | None:
    """The shared parser of a language (`None`: no grammar installed)."""
    found = _parsers.get(language, False)
    if found is not False:
        return found  # type: ignore[return-value]
    with _lock:
        if language in _parsers:
            return _parsers[language]
        made: Parser | None = None
        spec = _GRAMMARS.get(language)
        if spec is not None:
            try:
                module = importlib.import_module(spec[0])
                factory: Callable[[], object] = getattr(module, spec[1])
                made = Parser(Language(factory()))
            except Exception:  # a broken or missing grammar wheel: token fallback
                made = None
        _parsers[language] = made
        return made


def parse(language: str, source: str) -> Tree | None:
    """Parse `source` (its UTF-8 form, bounded); `None` when no parser applies."""
    p = parser_for(language)
    if p is None:
        return None
    try:
        return p.parse(source.encode("utf-8", "surrogatepass")[:MAX_BYTES])
    except Exception:
        return None


@dataclass(frozen=True, slots=True)
class Stripped:
    """Code with its comments blanked (same length, same offsets)."""

    text: str
    comments: int


def strip_comments(language: str, source: str) -> Stripped:
    """Replace every comment by spaces, keeping offsets, using the grammar.

    Mention is not use: code that only sits in a comment does nothing. Falls
    back to the source unchanged when the language has no parser.
    """
    tree = parse(language, source)
    if tree is None:
        return Stripped(source, 0)
    data = bytearray(source.encode("utf-8", "surrogatepass")[:MAX_BYTES])
    count = 0
    for node in walk(tree.root_node, max_nodes=50_000):
        if node.type in COMMENT_TYPES:
            count += 1
            for i in range(node.start_byte, min(node.end_byte, len(data))):
                if data[i] not in (0x0A, 0x0D):
                    data[i] = 0x20
    if not count:
        return Stripped(source, 0)
    return Stripped(data.decode("utf-8", "replace"), count)


def walk(root: Node, *, max_nodes: int = 20_000) -> Iterator[Node]:
    """Pre-order walk with a node budget (a cursor, no recursion)."""
    cursor = root.walk()
    seen = 0
    while True:
        node = cursor.node
        if node is None:
            return
        yield node
        seen += 1
        if seen >= max_nodes:
            return
        if cursor.goto_first_child():
            continue
        while not cursor.goto_next_sibling():
            if not cursor.goto_parent():
                return
