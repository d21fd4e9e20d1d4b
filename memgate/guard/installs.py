"""Package installs in shell commands, and names that are a near miss of a
popular package (typosquats: `pip install reqeusts`).

The popular names are data (`popular/pypi.txt`, `popular/npm.txt`).
A name is flagged when it is not listed and is one edit (insertion, deletion,
substitution or swap of neighbours, as Damerau-Levenshtein counts) from a listed
name of at least `MIN_LENGTH` characters.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from rapidfuzz.distance import DamerauLevenshtein
from rapidfuzz.process import extractOne

DATA = Path(__file__).with_name("popular")
MIN_LENGTH = 5
OPERATORS = frozenset({"&&", "||", ";", "|", "&", "(", ")"})
# (command words, ecosystem). Longest first, so `python -m pip install` wins.
INSTALLERS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("python", "-m", "pip", "install"), "pypi"),
    (("python3", "-m", "pip", "install"), "pypi"),
    (("uv", "pip", "install"), "pypi"),
    (("pip", "install"), "pypi"),
    (("pip3", "install"), "pypi"),
    (("pipx", "install"), "pypi"),
    (("uv", "add"), "pypi"),
    (("poetry", "add"), "pypi"),
    (("pdm", "add"), "pypi"),
    (("npm", "install"), "npm"),
    (("npm", "i"), "npm"),
    (("npm", "add"), "npm"),
    (("yarn", "add"), "npm"),
    (("pnpm", "add"), "npm"),
    (("pnpm", "install"), "npm"),
    (("pnpm", "i"), "npm"),
    (("bun", "add"), "npm"),
)
# Options whose next word is a value, not a package.
VALUE_OPTIONS = frozenset(
    {"-r", "-c", "-e", "-i", "-f", "--requirement", "--constraint", "--editable",
     "--index-url", "--extra-index-url", "--find-links", "--target", "-t", "--prefix",
     "--python", "-p", "--group", "--registry", "--save-prefix", "--tag"}
)  # fmt: skip
NOT_NAMES = (".", "git+", "http://", "https://", "file:")
_SPLIT = re.compile(r"[<>=!~;\[ ]")


@dataclass(frozen=True, slots=True)
class Squat:
    name: str
    looks_like: str
    ecosystem: str


@cache
def popular(ecosystem: str) -> frozenset[str]:
    text = (DATA / f"{ecosystem}.txt").read_text(encoding="utf-8")
    return frozenset(
        normalize(line, ecosystem)
        for line in text.splitlines()
        if line.strip() and not line.startswith("#")
    )


def normalize(name: str, ecosystem: str) -> str:
    name = name.strip().lower()
    return re.sub(r"[-_.]+", "-", name) if ecosystem == "pypi" else name


def _words(command: str) -> list[str]:
    try:
        lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        return list(lexer)
    except ValueError:
        return command.split()


_QUOTING = re.compile(r"['\"\\]")
_SPLITS = r"\s;&|()<>"
_INSTALLER = re.compile(
    rf"(?<![^{_SPLITS}])(?:{'|'.join(sorted({re.escape(p[0]) for p, _ in INSTALLERS}))})"
    rf"(?![^{_SPLITS}])"
)


def may_install(command: str) -> bool:
    """The cheap check first: without quotes or backslashes, shlex's words are the
    text's runs between whitespace and punctuation, so a command none of whose
    runs is an installer's first word installs nothing. With quoting (`p''ip`
    is `pip` to a shell) the full tokenizer decides."""
    return _QUOTING.search(command) is not None or _INSTALLER.search(command) is not None


def installs(command: str) -> Iterator[tuple[str, str]]:
    """(package name, ecosystem) for each package a shell command installs."""
    if not may_install(command):
        return
    words = _words(command)
    i = 0
    while i < len(words):
        found = None
        for prefix, ecosystem in INSTALLERS:
            if tuple(words[i : i + len(prefix)]) == prefix:
                found = (prefix, ecosystem)
                break
        if found is None:
            i += 1
            continue
        i += len(found[0])
        while i < len(words) and words[i] not in OPERATORS:
            word = words[i]
            i += 1
            if word.startswith("-"):
                if word in VALUE_OPTIONS:
                    i += 1
                continue
            name = _package_name(word, found[1])
            if name:
                yield name, found[1]


def _package_name(spec: str, ecosystem: str) -> str | None:
    if ("/" in spec and not spec.startswith("@")) or spec.startswith(
        (".", "git+", "http://", "https://", "file:")
    ):
        return None  # a path, a URL, a VCS reference
    if ecosystem == "npm":
        if spec.startswith("@"):
            scope, _, rest = spec.partition("/")
            return f"{scope}/{rest.split('@')[0]}" if rest else None
        return spec.split("@")[0] or None
    return _SPLIT.split(spec, maxsplit=1)[0] or None


def squat(name: str, ecosystem: str) -> Squat | None:
    """The popular name `name` is a near miss of, if it is one."""
    known = popular(ecosystem)
    key = normalize(name, ecosystem)
    if key in known or len(key) < MIN_LENGTH:
        return None
    best = extractOne(
        key,
        [k for k in known if len(k) >= MIN_LENGTH],
        scorer=DamerauLevenshtein.distance,
        score_cutoff=1,
    )
    if best is None:
        return None
    return Squat(name=name, looks_like=best[0], ecosystem=ecosystem)
