"""Cheap language sniffing for text that is not labelled (prose with code lines,
untyped code blocks), so that one snippet is judged by one language's rules."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ahocorasick_rs import AhoCorasick, Implementation, MatchKind

_JS = re.compile(
    r"(?m)^\s*(?:const|let|var|function|async function|export|module\.exports)\b"
    r"|=>|\brequire\(\s*['\"]|\bdocument\.|\bwindow\.|\bconsole\.log\(|<script\b|\bnew Image\(|"
    r"\bnavigator\.|\blocalStorage\b|\bapp\.(?:get|post|put|delete|use)\(\s*['\"]"
)
_PY = re.compile(
    r"(?m)^\s*(?:def |class \w+.*:|import \w|from [\w.]+ import |elif |with .*:\s*$|@\w)"
    r"|\bself\.|\bprint\(|:\s*$"
)


_PY_HINT = re.compile(
    r"(?m)^\s*(?:def |class \w|import \w|from [\w.]+ import )|\bself\.|\b(?:True|False|None)\b"
    r"|\b(?:os|sys|subprocess|pickle|marshal|yaml|hashlib|random|shutil|requests|ssl)\.\w+\("
)


def has_python_hint(text: str) -> bool:
    """A Python-only marker: a def / import line, self., True / False / None, or a
    call into a Python standard module (`os.system(`, `subprocess.run(`)."""
    return _PY_HINT.search(text[:20_000]) is not None


def looks_like_javascript(text: str) -> bool:
    """More JavaScript markers than Python ones (bounded scan of the first 20 KB)."""
    head = text[:20_000]
    js = len(_JS.findall(head))
    if js == 0:
        return False
    return js >= len(_PY.findall(head))


def looks_like_python(text: str) -> bool:
    return not looks_like_javascript(text)


def has_any(text: str, needles: tuple[str, ...]) -> bool:
    """Whether any needle occurs in text (the detectors' cheap gates)."""
    # NOTE: a plain loop, not any() over a generator: this runs once per chunk
    # per detector, and the generator's frame costs more than the scans.
    for needle in needles:  # noqa: SIM110
        if needle in text:
            return True
    return False


class KeywordSet:
    """Which of a fixed set of keywords occur in a text, in one Aho-Corasick pass
    (about 1 µs on a chunk, where a loop of `in` over ~100 words costs ~7 µs)."""

    def __init__(self, keywords: Iterable[str]) -> None:
        self.words = tuple(dict.fromkeys(k for k in keywords if k))
        self._automaton = (
            AhoCorasick(
                list(self.words), matchkind=MatchKind.Standard, implementation=Implementation.DFA
            )
            if self.words
            else None
        )

    def present(self, text: str) -> frozenset[str]:
        if self._automaton is None:
            return frozenset()
        words = self.words
        try:
            found = self._automaton.find_matches_as_indexes(text, overlapping=True)
        except UnicodeError:  # lone surrogates have no UTF-8 form
            return frozenset([w for w in words if w in text])
        return frozenset([words[i] for i, _, _ in found])
