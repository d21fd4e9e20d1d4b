"""The `shell` detector: dangerous command lines, found with a real tokenizer.

Command lines come from code chunks (every line) and from prose (the part of
a line that starts like a command: line start, after a colon, after "run" /
"执行", inside backticks); see `memgate.scanning._code_shell`. Each rule names
a `params.kind`:

- `fetch_exec`: a downloader (`params.fetchers`) piped into an interpreter
  (`params.interpreters`), or an interpreter / `eval` running `$(curl ...)`
  or `<(curl ...)`.
- `decode_exec`: a decoder stage (`base64 -d`, `xxd -r`, ...) piped into an
  interpreter.
- `reverse_shell`: `/dev/tcp/host/port` redirects, `nc -e` / `ncat -c`,
  `socat ... exec:`.
- `rm_root`: `rm` with recursive + force flags on one of `params.targets`.
- `chmod_world`: `chmod` to a world-writable mode; `params.levels` gives
  `[severity, confidence]` for `root` targets (`params.targets`) and `other`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from memgate.domain import Chunk, ChunkKind, Severity
from memgate.scanning._code_lang import has_any
from memgate.scanning._code_shell import Command, Segment, inert_literal, shell_segments
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.carriers import is_mention
from memgate.scanning.rules import Rule

SKIP_LANGUAGES = frozenset({"json", "yaml", "toml", "sql", "css", "html"})
MAX_HITS_PER_RULE = 16

_DEV_TCP = re.compile(r"/dev/(?:tcp|udp)/[\w.\-\[\]:$]+/\d+|/dev/(?:tcp|udp)/\$")
_SUBST = re.compile(r"\$\(|`|<\(")
_SUBST_FETCH = re.compile(
    r"(?:\b(?:ba|z|k|da)?sh|\bsource|\.)\s{1,3}<\(\s{0,3}(?:curl|wget)\b"
    r"|(?:\beval|\bsource|\b(?:ba|z|k|da)?sh\s{1,3}-c)\s{1,3}[\"']?(?:\$\(|`)\s{0,3}(?:curl|wget)\b"
)


@dataclass(frozen=True, slots=True)
class _Spec:
    rule: Rule
    kind: str
    p: Mapping[str, Any]
    lists: dict[str, frozenset[str]]

    def names(self, key: str) -> frozenset[str]:
        return self.lists.get(key, frozenset())


def _spec(rule: Rule) -> _Spec:
    lists = {
        key: frozenset(str(v).lower() for v in value)
        for key, value in rule.params.items()
        if isinstance(value, list | tuple)
    }
    return _Spec(rule, str(rule.params.get("kind", "")), rule.params, lists)


def is_decoder(cmd: Command) -> bool:
    flags = set(cmd.words[1:])
    if cmd.name in ("base64", "base32", "basenc"):
        return bool(flags & {"-d", "--decode", "-D", "-di", "-id"})
    if cmd.name == "xxd":
        return any(f.startswith("-r") for f in flags)
    if cmd.name == "openssl":
        return "-d" in flags or ("base64" in flags and "-d" in flags)
    return cmd.name in ("gunzip", "zcat", "bunzip2", "xz", "rev", "uudecode")


# NOTE: each kind's structural necessity, checked with `in` on the raw text
# before any tokenizing: a single character first (memchr speed), then the
# longer needles that confirm it. A download or a decoded payload reaches an
# interpreter through a pipe or a substitution; a reverse shell needs /dev/tcp,
# or nc / socat with an exec flag; rm and chmod need their flags or modes.
_Gate = tuple[str, tuple[str, ...]]
_GATES: dict[str, tuple[_Gate, ...]] = {
    "fetch_exec": (("|", ()), ("$", ("$(",)), ("`", ()), ("<", ("<(",))),
    "decode_exec": (("|", ()),),
    "reverse_shell": (
        ("/", ("/dev/tcp", "/dev/udp")),
        ("-", ("nc ", "ncat", "netcat")),
        (":", ("socat",)),
    ),
    "rm_root": (("-", ("rm -",)),),
    "chmod_world": (("7", ("chmod",)), ("+", ("chmod",))),
}


class ShellAnalyzer:
    def __init__(self, rules: Sequence[Rule]) -> None:
        self._specs = [(_spec(r), tuple(r.keywords)) for r in rules]
        by_char: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for spec, _ in self._specs:
            for char, confirm in _GATES.get(spec.kind, (("", ()),)):
                by_char.setdefault(char, []).append((confirm, spec.kind))
        self._gates = tuple((c, tuple(v)) for c, v in by_char.items())

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> list[Hit]:
        text = chunk.text
        if chunk.kind is ChunkKind.JSON or (chunk.language or "") in SKIP_LANGUAGES:
            return []
        opened: set[str] = set()
        for char, entries in self._gates:
            if char in text:
                for confirm, kind in entries:
                    if kind in opened:
                        continue
                    if not confirm:
                        opened.add(kind)
                        continue
                    for needle in confirm:
                        if needle in text:
                            opened.add(kind)
                            break
        if not opened:
            return []
        lower = text.lower()
        active = [
            spec
            for spec, keywords in self._specs
            if spec.kind in opened and (not keywords or has_any(lower, keywords))
        ]
        if not active:
            return []
        prose = chunk.kind is ChunkKind.PROSE or chunk.language not in (
            "shell",
            "bash",
            "sh",
            "zsh",
            "console",
            "powershell",
        )
        segments = shell_segments(text, prose)
        out: list[Hit] = []
        for spec in active:
            count = 0
            covered: list[tuple[int, int]] = []
            for seg in segments:
                if any(s < seg.end and seg.start < e for s, e in covered):
                    continue  # overlapping prose candidates: one hit per command
                hit = self._check(spec, seg)
                if hit is not None and (
                    _mentioned(text, seg.start) or inert_literal(text, seg.start)
                ):
                    continue  # mention is not use: a comment, a warning, a fixture kept as data
                if hit is not None:
                    covered.append((seg.start, seg.end))
                    out.append(hit)
                    count += 1
                    if count >= MAX_HITS_PER_RULE:
                        break
        return out

    def _check(self, spec: _Spec, seg: Segment) -> Hit | None:
        rid = spec.rule.id
        if spec.kind == "fetch_exec":
            fetchers = spec.names("fetchers")
            interpreters = spec.names("interpreters")
            for pipeline in seg.pipelines:
                fetched = False
                for cmd in pipeline:
                    if cmd.name in fetchers and any(_URLISH.search(w) for w in cmd.words[1:]):
                        # `curl ...|bash` in a sentence names the pattern; it fetches nothing
                        fetched = True
                    elif fetched and cmd.name in interpreters:
                        return Hit(rid, seg.start, seg.end, note=f"download piped to {cmd.name}")
                    runner = cmd.name in interpreters or cmd.name in ("eval", "source", ".")
                    if runner and any(_runs_fetch(w, fetchers) for w in cmd.words[1:]):
                        return Hit(rid, seg.start, seg.end, note=f"{cmd.name} runs a download")
            if _SUBST_FETCH.search(seg.text):
                return Hit(rid, seg.start, seg.end, note="process substitution of a download")
            return None
        if spec.kind == "decode_exec":
            interpreters = spec.names("interpreters")
            for pipeline in seg.pipelines:
                decoded = False
                for cmd in pipeline:
                    if is_decoder(cmd):
                        decoded = True
                    elif decoded and cmd.name in interpreters:
                        return Hit(
                            rid, seg.start, seg.end, note=f"decoded payload piped to {cmd.name}"
                        )
            return None
        if spec.kind == "reverse_shell":
            if _DEV_TCP.search(seg.text):
                return Hit(rid, seg.start, seg.end, note="/dev/tcp redirect")
            for pipeline in seg.pipelines:
                for cmd in pipeline:
                    args = cmd.words[1:]
                    if cmd.name in ("nc", "ncat", "netcat", "nc.traditional") and any(
                        a in ("-e", "-c") or re.fullmatch(r"-\w*e", a) for a in args
                    ):
                        return Hit(rid, seg.start, seg.end, note=f"{cmd.name} -e")
                    if cmd.name == "socat" and any(
                        re.match(r"(?i)(?:exec|system):", a) for a in args
                    ):
                        return Hit(rid, seg.start, seg.end, note="socat exec")
            return None
        if spec.kind == "rm_root":
            targets = frozenset(spec.p.get("targets", ()))
            for pipeline in seg.pipelines:
                for cmd in pipeline:
                    if cmd.name != "rm":
                        continue
                    flags = "".join(w[1:] for w in cmd.words[1:] if re.fullmatch(r"-[A-Za-z]+", w))
                    longs = {w for w in cmd.words[1:] if w.startswith("--")}
                    recursive = "r" in flags.lower() or "--recursive" in longs
                    force = "f" in flags or "--force" in longs
                    paths = [w for w in cmd.words[1:] if not w.startswith("-")]
                    if (
                        recursive
                        and force
                        and (
                            "--no-preserve-root" in longs or any(_norm(p) in targets for p in paths)
                        )
                    ):
                        return Hit(
                            rid, seg.start, seg.end, note="recursive forced delete of a root"
                        )
            return None
        if spec.kind == "chmod_world":
            targets = frozenset(spec.p.get("targets", ()))
            levels = spec.p.get("levels", {})
            for pipeline in seg.pipelines:
                for cmd in pipeline:
                    if cmd.name != "chmod":
                        continue
                    args = cmd.words[1:]
                    if not any(re.fullmatch(r"0?[0-7]?7[0-7]7|a\+rwx|o\+w|777", a) for a in args):
                        continue
                    paths = [a for a in args if a.startswith(("/", "~", "$"))]
                    root = any(_norm(p) in targets for p in paths)
                    level = levels.get("root" if root else "other")
                    if not level or level[0] == "none":
                        continue
                    return Hit(
                        rid,
                        seg.start,
                        seg.end,
                        severity=Severity(level[0]),
                        confidence=float(level[1]),
                        note="world-writable" + (" root" if root else ""),
                    )
            return None
        return None


_URLISH = re.compile(
    r"://|^[\w-]+(?:\.[\w-]+)+(?::\d+)?/|^\d{1,3}(?:\.\d{1,3}){3}|\$\{?\w|%\w+%|^[\w./-]+\.\w+$"
)
_COMMENT = re.compile(r"^\s*(?:#|//|REM\b|::)")


def _mentioned(text: str, pos: int) -> bool:
    """The command sits in a comment line, or in inline code inside a sentence
    that warns against it or describes it (see `carriers.is_mention`)."""
    line_start = text.rfind("\n", 0, pos) + 1
    line_end = text.find("\n", pos)
    line = text[line_start : line_end if line_end >= 0 else len(text)]
    if _COMMENT.match(line) and not line.lstrip().startswith("#!"):
        return True
    if "`" not in line:
        return False
    outside = re.sub(r"`[^`\n]*`", " ", line)
    return len(re.findall(r"[A-Za-z]{2,}|[\u4e00-\u9fff]", outside)) >= 3 and is_mention(outside)


def _runs_fetch(word: str, fetchers: frozenset[str]) -> bool:
    m = _SUBST.search(word)
    if not m:
        return False
    inner = word[m.end() :].lstrip()
    name = re.match(r"[\w./-]+", inner)
    return bool(name and name.group(0).rsplit("/", 1)[-1].lower() in fetchers)


def _norm(path: str) -> str:
    p = path.strip("'\"")
    p = p.replace("${HOME}", "$HOME")
    if len(p) > 1:
        p = p.rstrip("/") or "/"
    return p
