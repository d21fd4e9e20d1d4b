"""Cheap per-line language hints and fence-tag normalization for the chunker.

Every predicate here is a regex over one line; Python candidates are confirmed by
`ast` in the chunker, never here.
"""

from __future__ import annotations

import ast
import re
import warnings
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import repeat

__all__ = [
    "LineKind",
    "classify_line",
    "code_line_hints",
    "fence_language",
    "is_meaningful_python",
    "parse_python",
    "sniff_language",
]

LineKind = str
"""`blank`, `prose`, `python` (confirmed later by ast), `python_repl`, `shell`,
`javascript` or `powershell`."""

_FENCE_ALIASES = {
    "py": "python",
    "py3": "python",
    "python": "python",
    "python3": "python",
    "pycon": "python",
    "ipython": "python",
    "sh": "shell",
    "bash": "shell",
    "zsh": "shell",
    "ksh": "shell",
    "fish": "shell",
    "console": "shell",
    "shell": "shell",
    "shell-session": "shell",
    "shellsession": "shell",
    "terminal": "shell",
    "js": "javascript",
    "javascript": "javascript",
    "node": "javascript",
    "nodejs": "javascript",
    "mjs": "javascript",
    "cjs": "javascript",
    "jsx": "javascript",
    "ts": "javascript",
    "tsx": "javascript",
    "typescript": "javascript",
    "ps1": "powershell",
    "ps": "powershell",
    "pwsh": "powershell",
    "powershell": "powershell",
}

_SHELL_COMMANDS = frozenset(
    [
        "curl",
        "wget",
        "bash",
        "sh",
        "zsh",
        "dash",
        "ksh",
        "sudo",
        "su",
        "apt",
        "apt-get",
        "yum",
        "dnf",
        "apk",
        "brew",
        "pip",
        "pip3",
        "pipx",
        "uv",
        "npm",
        "npx",
        "yarn",
        "pnpm",
        "git",
        "docker",
        "podman",
        "kubectl",
        "helm",
        "chmod",
        "chown",
        "chgrp",
        "rm",
        "cp",
        "mv",
        "mkdir",
        "rmdir",
        "cd",
        "export",
        "echo",
        "printf",
        "cat",
        "nc",
        "ncat",
        "netcat",
        "socat",
        "ssh",
        "scp",
        "rsync",
        "sftp",
        "python",
        "python2",
        "python3",
        "node",
        "deno",
        "perl",
        "ruby",
        "php",
        "powershell",
        "pwsh",
        "iex",
        "base64",
        "openssl",
        "ls",
        "ll",
        "grep",
        "egrep",
        "sed",
        "awk",
        "find",
        "xargs",
        "tar",
        "unzip",
        "zip",
        "gzip",
        "gunzip",
        "touch",
        "ln",
        "kill",
        "pkill",
        "killall",
        "crontab",
        "systemctl",
        "service",
        "nohup",
        "eval",
        "exec",
        "source",
        "env",
        "set",
        "unset",
        "alias",
        "history",
        "dd",
        "mkfifo",
        "telnet",
        "ftp",
        "tftp",
        "nmap",
        "whoami",
        "id",
        "uname",
        "ps",
        "top",
        "chattr",
        "useradd",
        "usermod",
        "passwd",
        "iptables",
        "mount",
        "umount",
        "make",
        "cargo",
        "go",
        "java",
        "javac",
        "gcc",
        "cc",
        "terraform",
        "aws",
        "gcloud",
        "az",
        "head",
        "tail",
        "less",
        "more",
        "tee",
        "sort",
        "uniq",
        "wc",
        "cut",
        "tr",
    ]
)
# Tools whose second word is a subcommand: `git status` is code without any flag.
_SUBCOMMANDS = frozenset(
    [
        "install",
        "uninstall",
        "add",
        "remove",
        "rm",
        "run",
        "exec",
        "start",
        "stop",
        "restart",
        "status",
        "clone",
        "pull",
        "push",
        "fetch",
        "commit",
        "checkout",
        "log",
        "diff",
        "build",
        "init",
        "apply",
        "get",
        "describe",
        "delete",
        "create",
        "update",
        "upgrade",
        "list",
        "ls",
        "show",
        "config",
        "login",
        "logout",
        "cp",
        "logs",
        "ps",
        "images",
        "rmi",
        "tag",
        "merge",
        "rebase",
        "reset",
        "revert",
        "publish",
        "test",
        "audit",
        "ci",
        "up",
        "down",
        "compose",
        "pull-request",
    ]
)
_SUBCOMMAND_TOOLS = frozenset(
    [
        "git",
        "docker",
        "podman",
        "kubectl",
        "helm",
        "npm",
        "npx",
        "yarn",
        "pnpm",
        "pip",
        "pip3",
        "pipx",
        "uv",
        "apt",
        "apt-get",
        "yum",
        "dnf",
        "apk",
        "brew",
        "cargo",
        "go",
        "systemctl",
        "service",
        "terraform",
        "aws",
        "gcloud",
        "az",
        "make",
    ]
)

_FIRST_WORD = re.compile(r"^\s*(?:sudo\s+(?:-\S+\s+)*)?([A-Za-z][\w.+-]*)(?:\s+(.*))?$")
_ARGLIKE = re.compile(r"(?:^|\s)-{1,2}[A-Za-z0-9]|[/|><&;$=~`\\*]|\.\w|\"|'")
_POWERSHELL = re.compile(
    r"\b(?:iex|IEX|Invoke-Expression|Invoke-WebRequest|Invoke-RestMethod|"
    r"New-Object|Start-Process|Set-ExecutionPolicy|Add-MpPreference|"
    r"(?:Get|Set|New|Remove|Invoke|Start|Stop|Add|Out|Write|Import|Export|Test|Copy|Move)"
    r"-[A-Z][A-Za-z]+)\b|^\s*\$\w+\s*=\s*(?:New-Object|\[)|\[System\.[A-Z]|"
    r"\b(?:powershell|pwsh)(?:\.exe)?\s+-"
)
# Prompts at the start of a line, tried in this order: Python REPL, PowerShell, shell
# (`$ `, `❯ `, `➜ `), and `# ` (a root shell prompt or a markdown heading).
_PROMPTS = re.compile(
    r"\s*(?:(?P<repl>(?:>>>|\.\.\.)(?:\s|$))|(?P<ps>PS(?:\s+[A-Za-z]:[^>\n]{0,200})?>\s*\S)|"
    r"(?P<sh>(?:\$|❯|➜)\s+\S)|(?P<root>#\s+(?=\S)))"
)
_PROMPT_KINDS = {"repl": "python_repl", "ps": "powershell", "sh": "shell"}
_PS_HINT = re.compile(r"-[A-Z]|iex|IEX|\[System\.|\$\w+\s*=|(?:powershell|pwsh)\b")
_JS_START = re.compile(
    r"\s*(?:(?:const|let|var)\s+(?:[\w$]+\s*=|[{\[])|(?:import|export)\s+.*\bfrom\s+['\"]|"
    r"(?:async\s+)?function\b|[}\])]+;?\s*$)"
)
_JS_FUNCTION = re.compile(r"function\s*\w*\s*\(")
_JS_REQUIRE = re.compile(r"require\(\s*['\"]")
_JS_GLOBALS = re.compile(r"(?:console\.\w+\(|document\.\w|window\.\w|module\.exports)")
_PY_START = re.compile(
    r"\s*(?:import\s+\w|from\s+[\w.]+\s+import\s|def\s+\w|class\s+\w|async\s+(?:def|for|with)\s|"
    r"await\s|for\s+\w.*\bin\b|while\s|if\s|elif\s|else\s*:|try\s*:|except\b|finally\s*:|"
    r"with\s|return\b|raise\b|yield\b|assert\s|del\s|pass\s*$|break\s*$|continue\s*$|"
    r"global\s|nonlocal\s|match\s|case\s|@\w)"
)
_PY_ASSIGN = re.compile(r"[\w\])]\s*(?:[-+*/%|&^]|//|\*\*|<<|>>)?=(?!=)")
_CALL_NO_SPACE = re.compile(r"[\w)\]]\(")
_PY_ONLY = re.compile(
    r"\b(?:True|False|None)\b|\bself\.|\bprint\(|\bf['\"]|"
    r"\b(?:os|sys|subprocess|pickle|marshal|shutil|yaml)\.\w+\("
)


def _trie(words: Iterable[str]) -> str:
    """A regex alternation of `words` shaped as a trie: the engine rejects a branch on
    its first character instead of trying every word in turn."""

    def emit(suffixes: set[str]) -> str:
        heads = sorted({w[0] for w in suffixes if w})
        alts = [re.escape(h) + emit({w[1:] for w in suffixes if w[:1] == h}) for h in heads]
        if not alts:
            return ""
        body = alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"
        return f"(?:{body})?" if "" in suffixes else body

    return emit(set(words))


# Line starts that may make a line code (see `code_line_hints`): every regex in
# `classify_line` that is anchored at the start of the line, as a prefix.
_KEYWORDS = frozenset(
    [
        *("import", "from", "def", "class", "async", "await", "for", "while", "if", "elif"),
        *("else", "try", "except", "finally", "with", "return", "raise", "yield", "assert"),
        *("del", "pass", "break", "continue", "global", "nonlocal", "match", "case", "const"),
        *("let", "var", "export", "function"),
    ]
)
_LINE_START_WORDS = sorted(_SHELL_COMMANDS | _KEYWORDS)
_HINT_LINE_START = (
    r"[^\S\n]*(?:(?:" + _trie(_LINE_START_WORDS) + r")(?!\w)|[#$❯➜@}\])]|>>>|\.\.\.|PS)"
)
_HINT_FIRST_LINE = re.compile(_HINT_LINE_START)
# Hints anywhere in a line, as (gate, pattern): the pattern runs only when the gate
# character is in the text. Each pattern starts with a single literal character
# (the engine scans for it quickly; a class or a longer literal is several times
# slower); `[^\n]*` makes at most one match per line.
_HINTS_ANYWHERE: tuple[tuple[str, re.Pattern[str]], ...] = tuple(
    (gate, re.compile(pattern + r"[^\n]*"))
    for gate, pattern in (
        ("=", r"="),  # assignments, `=>`
        ("(", r"\((?<=[\w)\]]\()"),  # calls: `_has_call`
        ("\n", r"\n" + _HINT_LINE_START),
        ("-", r"-[A-Z]"),  # PowerShell cmdlets
        ("[", r"\[(?=System\.)"),
        ("x", r"x(?:(?<=iex)|(?<=module\.ex)(?=ports))"),
        ("X", r"X(?<=IEX)"),
        ("w", r"w(?:(?<=pow)(?=ershell)|(?<=pw)(?=sh)|(?=indow\.))"),
        ("u", r"u(?:(?<=fu)(?=nction)|(?<=docu)(?=ment\.))"),
    )
)


def code_line_hints(text: str, starts: Sequence[int]) -> Sequence[int]:
    """Ascending indices of the lines that may be code: `classify_line(line)` (without
    a shell continuation) is `prose` or `blank` for every line not listed.

    Each regex of `classify_line` needs a line start or a character sequence that
    one of the hint patterns finds. `text` must break lines at `\\n` only (a `\\r`
    before it is fine); `starts` are the offsets where its lines start, ascending
    from 0, then `len(text)`. Code-dense texts get every line (hints would not pay).
    """
    n_lines = len(starts) - 1
    # The character before a match's end lies on the hinted line.
    ends = [1] if _HINT_FIRST_LINE.match(text) else []
    for i, (gate, pattern) in enumerate(_HINTS_ANYWHERE):
        if gate in text:
            ends += [m.end() for m in pattern.finditer(text)]
        if i == _DENSE_AFTER and 3 * len(ends) > n_lines:
            return range(n_lines)
    if not ends:
        return []
    return [k - 1 for k in sorted(set(map(bisect_left, repeat(starts), ends)))]


_DENSE_AFTER = 1  # after the `=` and call hints


_STRONG_NODES: tuple[type[ast.AST], ...] = (
    ast.Assign,
    ast.AugAssign,
    ast.Import,
    ast.ImportFrom,
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.For,
    ast.AsyncFor,
    ast.While,
    ast.If,
    ast.With,
    ast.AsyncWith,
    ast.Try,
    ast.TryStar,
    ast.Return,
    ast.Raise,
    ast.Delete,
    ast.Global,
    ast.Nonlocal,
    ast.Lambda,
    ast.Match,
)


def fence_language(tag: str) -> str | None:
    """Normalize a code fence info string (`py`, `{.bash}`, `python title="x"`)."""
    if len(tag) <= 64:
        try:
            return _FENCE_CACHE[tag]
        except KeyError:
            pass
    language = _fence_language(tag)
    if len(tag) <= 64 and len(_FENCE_CACHE) < 1024:
        _FENCE_CACHE[tag] = language
    return language


_FENCE_CACHE: dict[str, str | None] = {}


def _fence_language(tag: str) -> str | None:
    word = tag.strip().split(maxsplit=1)[0] if tag.strip() else ""
    word = word.strip("{}.").lower()
    if word.startswith("language-"):
        word = word[len("language-") :]
    if not word:
        return None
    return _FENCE_ALIASES.get(word, word)


def classify_line(line: str, prev_kind: LineKind = "prose") -> LineKind:
    """The kind of one line, by cheap hints only."""
    stripped = line.strip()
    if not stripped:
        return "blank"
    if prev_kind == "shell_cont":
        return "shell"
    m = _PROMPTS.match(line)
    if m:
        kind = _PROMPT_KINDS.get(m.lastgroup or "")
        if kind is not None:
            return kind
        # `# curl -s x | sh` is a root prompt; `# Install notes` is a heading.
        return "shell" if _is_shell_command(line[m.end() :].strip()) else "prose"
    if _PS_HINT.search(line) and _POWERSHELL.search(line):
        return "powershell"
    if _is_shell_command(stripped):
        return "shell"
    if _is_javascript(line):
        return "javascript"
    if _PY_START.match(line) or ("=" in line and _PY_ASSIGN.search(line)) or _has_call(line):
        return "python"
    return "prose"


def _is_javascript(line: str) -> bool:
    # NOTE: literal checks first; the regexes below start with a literal (fast search).
    if "=>" in line or _JS_START.match(line):
        return True
    if "function" in line and _JS_FUNCTION.search(line):
        return True
    if "require(" in line and _JS_REQUIRE.search(line):
        return True
    if "." in line and _JS_GLOBALS.search(line):
        return True
    # Python allows the semicolon too (`os.system('id');`): a Python-only marker wins.
    return line.rstrip().endswith(");") and _has_call(line) and not _PY_ONLY.search(line)


def _has_call(line: str) -> bool:
    """`name(` with no space before the parenthesis."""
    i = line.find("(")
    while i > 0:
        prev = line[i - 1]
        if prev.isalnum() or prev in "_)]":
            return True
        i = line.find("(", i + 1)
    return False


def _is_shell_command(stripped: str) -> bool:
    """A known command followed by something that looks like arguments."""
    m = _FIRST_WORD.match(stripped)
    if m is None or m.group(1) not in _SHELL_COMMANDS:
        return False
    rest = m.group(2) or ""
    if not rest:
        return m.group(1) in ("ls", "ll", "whoami", "id", "env", "history", "top")
    if _ARGLIKE.search(rest) and not _looks_like_sentence(rest):
        return True
    if m.group(1) in _SUBCOMMAND_TOOLS:
        sub = rest.split(maxsplit=1)[0]
        return sub in _SUBCOMMANDS and not stripped.endswith((".", "?", "!"))
    return False


def _looks_like_sentence(rest: str) -> bool:
    """`cat is a small pet.`: words, no flags, sentence punctuation at the end."""
    return (
        rest.endswith((".", "?", "!"))
        and not rest.startswith("-")
        and not any(c in rest for c in "/|><&;$=~`\\*")
    )


def parse_python(source: str) -> tuple[ast.Module | None, int | None]:
    """`ast.parse` that never raises and never warns: (tree, None) on success, else
    (None, 1-based line of the syntax error)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source), None
        except SyntaxError as err:
            return None, max(err.lineno or 1, 1)
        except (ValueError, RecursionError, MemoryError, OverflowError):
            return None, 1


def is_meaningful_python(tree: ast.Module, source: str) -> bool:
    """Code, not a bare name or a sentence that happens to parse (`Summary`,
    `Note: important`, `Paris (France)`)."""
    # Any node will do, so the order of the visit is free: depth first, from the
    # statements (cheaper than `ast.walk`).
    todo: list[ast.AST] = list(tree.body)
    calls = None
    while todo:
        node = todo.pop()
        if isinstance(node, _STRONG_NODES):
            return True
        if isinstance(node, ast.AnnAssign) and node.value is not None:
            return True
        if isinstance(node, ast.Call):
            if calls is None:
                calls = _CALL_NO_SPACE.search(source) is not None
            if calls:
                return True
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                todo.append(value)
            elif isinstance(value, list):
                todo.extend(item for item in value if isinstance(item, ast.AST))
    return False


def sniff_language(code: str) -> str | None:
    """python / shell / javascript / powershell, or None when nothing stands out."""
    lines = code.splitlines()[:200]
    counts = {"python": 0, "shell": 0, "javascript": 0, "powershell": 0}
    prev = "prose"
    for line in lines:
        kind = classify_line(line, prev)
        prev = "shell_cont" if kind == "shell" and line.rstrip().endswith("\\") else kind
        if kind == "python_repl":
            return "python"
        if kind in counts:
            counts[kind] += 1
    if counts["powershell"] and counts["powershell"] >= counts["shell"]:
        return "powershell"
    head = "\n".join(lines)
    if counts["python"] and len(head) <= 65536:
        tree, _ = parse_python(head)
        if tree is not None and is_meaningful_python(tree, head):
            return "python"
    best = max(counts, key=lambda k: counts[k])
    return best if counts[best] else None
