"""Shell command lines: find them in code or prose, tokenize them with shlex
(posix, punctuation_chars) and split them into pipelines of commands.

Shared by the shell and exfil detectors. Pure and memoized on the text.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass
from functools import lru_cache

MAX_LINE = 4000
MAX_LINES = 4000
MAX_TOKENS = 400

SEPARATORS = frozenset({"&&", "||", ";", ";;", "&", "(", ")", "\n", "{", "}", "`"})
PIPES = frozenset({"|", "|&"})
WRAPPERS = frozenset(
    {"sudo", "doas", "nohup", "exec", "time", "command", "nice", "stdbuf", "timeout", "su"}
    | {"do", "then", "else", "elif", "if", "while", "until", "!"}
)

# Where a command may start inside a prose line: line start (after a bullet,
# number, prompt or cron schedule), after a colon, after "run"/"执行", or in backticks.
_PROSE_START = re.compile(
    r"(?:^\s*(?:[-*+>]\s+|\d{1,3}[.)]\s+|[$#%]\s+|PS[^>\n]{0,40}>\s*|(?:[\d*/,-]+\s+){5})?"
    r"|[:：]\s*[\"']?|`|\b(?:run|execute|paste)\s+|(?:执行|运行|输入|跑)\s*)"
    r"(?=[A-Za-z_./~$])"
)
_CUT = re.compile(r"[，。；！？、]|`|\s{2,}#|\s+(?:so|then|and then|to|which)\s+(?=[a-z])")
_CONTINUATION = re.compile(r"\\\n")
# A prose line is only tokenized when it names a command some detector cares about.
_COMMANDISH = re.compile(
    r"(?i)\b(?:curl|wget|fetch|nc|ncat|netcat|socat|telnet|bash|sh|zsh|dash|rm|chmod|base64|xxd|"
    r"openssl|dig|nslookup|drill|host|ping|scp|rsync|sftp|env|printenv|tar|eval|source|"
    r"python3?|perl|ruby|node|php|pwsh|powershell|iex|git|cat)\b|/dev/(?:tcp|udp)/"
)


@dataclass(frozen=True, slots=True)
class Command:
    """One simple command: its name (basename of the program, wrappers skipped) and words."""

    name: str
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Segment:
    """A command line found in the text, split into pipelines of commands."""

    start: int
    end: int
    text: str
    pipelines: tuple[tuple[Command, ...], ...]
    exact: bool
    """Tokenized by shlex (False: regex fallback after unbalanced quotes)."""


def _words(text: str) -> tuple[list[str], bool]:
    try:
        lexer = shlex.shlex(text, posix=True, punctuation_chars=True)
        lexer.whitespace_split = True
        lexer.commenters = ""
        tokens: list[str] = []
        for tok in lexer:
            tokens.append(tok)
            if len(tokens) >= MAX_TOKENS:
                break
        return tokens, True
    except ValueError:
        return re.findall(r"\|\||&&|\|&?|[;&()<>]|[^\s|;&()<>]+", text)[:MAX_TOKENS], False


def _command(words: list[str]) -> Command | None:
    i = 0
    while i < len(words):
        w = words[i]
        base = w.rsplit("/", 1)[-1].lower()
        if re.fullmatch(r"[A-Za-z_]\w*=.*", w) or base in WRAPPERS or (i > 0 and w.startswith("-")):
            i += 1
            continue
        return Command(name=base, words=tuple(words[i:]))
    return None


_SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "ash"})


def _inline_scripts(pipelines: list[tuple[Command, ...]]) -> list[str]:
    """The script argument of `bash -c '...'` style commands: it runs as shell too."""
    scripts: list[str] = []
    for pipeline in pipelines:
        for cmd in pipeline:
            if cmd.name not in _SHELLS:
                continue
            words = cmd.words
            for i, w in enumerate(words[:-1]):
                if w.startswith("-") and not w.startswith("--") and "c" in w[1:]:
                    scripts.append(words[i + 1])
                    break
    return scripts


def split_pipelines(text: str, depth: int = 0) -> tuple[tuple[tuple[Command, ...], ...], bool]:
    """Pipelines of the command line; the script of `sh -c SCRIPT` is split too
    (its pipelines follow), two levels deep."""
    tokens, exact = _words(text)
    pipelines: list[tuple[Command, ...]] = []
    stages: list[Command] = []
    words: list[str] = []

    def close_stage() -> None:
        cmd = _command(words)
        if cmd is not None:
            stages.append(cmd)
        words.clear()

    for tok in tokens:
        if tok in PIPES:
            close_stage()
        elif tok in SEPARATORS or (tok and set(tok) <= set(";&()|")):
            close_stage()
            if stages:
                pipelines.append(tuple(stages))
            stages.clear()
        else:
            words.append(tok)
    close_stage()
    if stages:
        pipelines.append(tuple(stages))
    if depth < 2:
        for script in _inline_scripts(pipelines):
            pipelines.extend(split_pipelines(script, depth + 1)[0])
    return tuple(pipelines), exact


@lru_cache(maxsize=512)
def shell_segments(text: str, prose: bool) -> tuple[Segment, ...]:
    """Command lines in `text`: every line of code, or the command-looking part
    of each prose line. Never raises."""
    out: list[Segment] = []
    try:
        joined = _CONTINUATION.sub("  ", text[:200_000])
        pos = 0
        for count, line in enumerate(joined.split("\n")):
            if count >= MAX_LINES:
                break
            start = pos
            pos += len(line) + 1
            if not line.strip() or len(line) > MAX_LINE:
                continue
            if prose and not _COMMANDISH.search(line):
                continue
            for s, e in _candidates(line, prose):
                piece = line[s:e]
                pipelines, exact = split_pipelines(piece)
                if pipelines:
                    out.append(Segment(start + s, start + e, piece, pipelines, exact))
    except Exception:
        return tuple(out)
    return tuple(out)


def _candidates(line: str, prose: bool) -> list[tuple[int, int]]:
    if not prose:
        stripped = re.match(r"^\s*(?:[$#%]\s+|(?:[\d*/,-]+\s+){5})?", line)
        return [(stripped.end() if stripped else 0, len(line))]
    # Overlapping candidates on purpose: "Note: if it fails, run env | nc ..." holds
    # a command after "run" inside the candidate after the colon. Detectors keep
    # one hit per overlapping group.
    spans: list[tuple[int, int]] = []
    for m in _PROSE_START.finditer(line):
        s = m.end()
        cut = _CUT.search(line, s)
        e = cut.start() if cut else len(line)
        if e > s and (s, e) not in spans:
            spans.append((s, e))
        if len(spans) >= 8:
            break
    return spans


# `NAME = 'literal'` (spaces around `=`: not a shell assignment, a Python / JS /
# Ruby one) holding a command as data, and the lines that run a name.
_LITERAL_ASSIGN = re.compile(
    r"^[ \t]*(?:const\s+|let\s+|var\s+|final\s+)?([A-Za-z_]\w{0,60})(?:\s*:\s*\w+)?"
    r"""\s+=\s+[rbuRBU]?(['"]).*\2[ \t;]*$"""
)
_RUNS_A_NAME = re.compile(
    r"(?i)\b(?:system|popen|Popen|run|call|check_output|check_call|getoutput|exec\w*|eval|spawn\w*|"
    r"shell|Start-Process|Invoke-Expression|iex|child_process|Command|ProcessBuilder|pty)\b|`|\$\("
)


def inert_literal(text: str, at: int) -> bool:
    """Whether the line of `text` holding offset `at` assigns a quoted literal to a
    name (`SAMPLE = "bash -i >& …"`) that the text uses again, and only on lines
    that run nothing: a fixture or a sample kept as data. A literal never used
    again, or passed to anything that runs commands, is not inert."""
    start = text.rfind("\n", 0, at) + 1
    end = text.find("\n", at)
    line = text[start : end if end >= 0 else len(text)]
    m = _LITERAL_ASSIGN.match(line)
    if m is None:
        return False
    name = m.group(1)
    used = False
    word = re.compile(r"(?<![\w$])" + re.escape(name) + r"\b")
    for other in text.split("\n"):
        if other is line or other == line or not word.search(other):
            continue
        if _RUNS_A_NAME.search(other):
            return False
        used = True
    return used
