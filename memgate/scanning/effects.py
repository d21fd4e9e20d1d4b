"""The `effects` detector: code judged by what it does, in every carrier and language.

Pipeline, once per scanned text:

1. one Aho-Corasick pass over the text (`GATE_KEYWORDS`): a text that names
   no sink-like capability costs nothing more;
2. `memgate.scanning.carriers.extract` finds every command-like piece;
3. each piece is parsed once with its tree-sitter grammar (bash for shell
   and cmd lines, JavaScript, Ruby, Perl, PHP, Go, PowerShell) to drop
   comments and, for shell, to walk commands, pipelines, substitutions,
   redirects and heredocs; nested scripts (`sh -c`, `python -c`, `node -e`,
   `perl -e`, `ruby -e`, `php -r`, `powershell -c` / `-EncodedCommand`,
   `cmd /c`, heredocs, strings passed to `system(...)`) are analyzed
   recursively up to `MAX_DEPTH`;
4. each statement is reduced to effects (see `_effects_lexicon`) plus the
   hosts it talks to, the files it writes and runs, the variables it sets
   and reads;
5. data flow across statements and blocks of the same memory: a variable or
   a file written by a statement that fetched, decoded or read a secret
   carries those effects into the statement that uses it;
6. rules (`rules/effects.toml`) are data over effects:

   - `kind = "flow"`: a statement whose own effects include `params.sink`
     and whose own or inherited effects include one of `params.sources`;
     `params.foreign = true` requires a host that is not the user's own;
   - `kind = "together"`: within one block, for each list of `params.need`
     at least one of its effects;
   - `kind = "effect"`: a statement with one of `params.effects`, unless it
     also has one of `params.unless`.

A piece quoted in a warning sentence, a documentation template with
`{{placeholders}}`, or code in a comment is a mention: its hits carry
`params.mention` (`[severity, confidence]`), or by default no hit at all.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from ahocorasick_rs import AhoCorasick, MatchKind
from tree_sitter import Node

from memgate.domain import Chunk, Severity
from memgate.scanning import _effects_lexicon as lex
from memgate.scanning._code_lang import KeywordSet, has_any, has_python_hint
from memgate.scanning._code_shell import inert_literal
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.carriers import (
    MAX_DEPTH,
    Carrier,
    extract,
    is_mention,
    is_placeholder_doc,
)
from memgate.scanning.rules import Rule
from memgate.scanning.treesitter import parse, parser_for, strip_comments, walk

MAX_STATEMENTS = 600
MAX_HITS_PER_RULE = 8
MAX_TEXT = 200_000

_API = tuple((tag, re.compile(p, re.IGNORECASE)) for tag, p in lex.API)
_API_BY_TAG = dict(_API)
_API_GATED = tuple(
    (tag, frozenset(words), re.compile(p, re.IGNORECASE)) for tag, words, p in lex.API_GATED
)
_STMT_TYPES = frozenset(
    {
        "pipeline",
        "command",
        "redirected_statement",
        "variable_assignment",
        "declaration_command",
        "negated_command",
    }
)
_ASSIGN = re.compile(
    r"^\s*(?:export\s+|local\s+|readonly\s+|const\s+|let\s+|var\s+|my\s+|our\s+|set\s+)?"
    # a typed declaration (Java, C#, Kotlin): `String env = ...`, `byte[] key = ...`
    r"(?:(?:final\s+)?(?:[A-Z][\w.]{0,40}(?:<[^<>\n]{0,60}>)?(?:\[\])?|byte\[\]|string|int|long|val|auto)\s+)?"
    r"[$@]?([A-Za-z_][\w]{0,60})(?:\s*,\s*[$@]?[A-Za-z_]\w{0,60})*\s*(?::=|=|<-)(?!=)"
)
_REMOTE_ARG = re.compile(r"^(?:[\w.-]+@)?(?:\[[\w:]+\]|[\w.-]{2,}):(?!\\|//)")
_PATHISH = re.compile(
    r"^(?:\.{0,2}/|~/|\$\w+[/\\]|%\w+%\\|[A-Za-z]:\\)|\.(?:exe|sh|ps1|bat|cmd|vbs|hta|dll|msi|elf|bin|py|pl|rb|js)$",
    re.IGNORECASE,
)
_BROAD = re.compile(
    r"""^['"]?(?:/|/\*|~|~/|~/\*|~/\.\*|\$HOME/?\*?|\$HOME/\.\*|\$\{HOME\}/?\*?|\$\{HOME\}/\.\*|/(?:home|root|etc|usr|var|boot|bin|sbin|lib|lib64|opt|srv|sys|dev)(?:/\*?|/\.\*)?|\*|\.\*|[A-Za-z]:\\?\*?|[A-Za-z]:/|%SystemDrive%\\?|%USERPROFILE%\\?|\$env:USERPROFILE\\?\*?|\$env:SystemDrive\\?|C:\\Users\\?\*?|C:\\Windows\\?)['"]?$""",
    re.IGNORECASE,
)
_SEVERITIES = {s.value: s for s in Severity}
_URLISH = re.compile(
    r"://|^[\w-]+(?:\.[\w-]+)+(?::\d+)?/|^\d{1,3}(?:\.\d{1,3}){3}|\$\{?\w|%\w+%|^@?[\w./-]+\.\w+$|^-"
)
_OBF_NAME = re.compile(
    r"^(?:\$\{?\w{1,12}\}?){2,6}$|^\$\(\s*(?:printf|echo)\b[^)]*(?:\\x|\\\d|\|\s*(?:rev|base64|xxd|tr))"
    r"|^`\s*(?:printf|echo)\b[^`]*(?:\\x|\\\d|\|\s*(?:rev|base64|xxd|tr))|^\$'(?:\\x[0-9a-fA-F]{2}|\\[0-7]{3}){2,}"
)
# A command name spliced from variables (`$a$b`, `${x}${y}`) at a word start:
# matched from its `$`, a literal first character the engine skips ahead to
# (a `(?:^|[\s;|&(])` alternation in front costs ~50 µs on 2 KB of prose)
_OBF_TAIL = re.compile(r"\$\{?\w{1,8}\}?\$\{?\w{1,8}")


def _spliced_name(text: str) -> bool:
    """`_OBF_TAIL` at the start of the text or after whitespace or `;|&(`.
    A `$` inside a match follows a word character or `}`, never a boundary, so
    a match rejected for its boundary hides no valid one: resuming one
    character on is exact."""
    pos = 0
    while (m := _OBF_TAIL.search(text, pos)) is not None:
        at = m.start()
        if at == 0 or text[at - 1].isspace() or text[at - 1] in ";|&(":
            return True
        pos = at + 1
    return False


_LANG_SNIFF: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "php",
        re.compile(
            r"<\?php|\$_(?:GET|POST|REQUEST|COOKIE|SERVER)\b|\bfsockopen\s*\(|\bshell_exec\s*\(|\bproc_open\s*\(|\$sock\s*="
        ),
    ),
    (
        "powershell",
        re.compile(
            r"(?i)\$env:|\b(?:Invoke|Get|Set|New|Start|Add|Remove|Out|ConvertTo|ConvertFrom|Register|Test|Copy|"
            r"Compress|Import|Expand|Write|Read)-[A-Za-z]{3,}|\[System\.|\[Convert\]|New-Object\b|\bIEX\b|\$\w+\s*=\s*[\[@(]"
        ),
    ),
    (
        "javascript",
        re.compile(
            r"\brequire\s*\(\s*['\"]|=>|^\s*(?:const|let|var)\s|\bfunction\s*\w*\s*\("
            r"|\.then\s*\(|\bnew Function\b"
            r"|\bdocument\.|\bwindow\.|\bprocess\.|\bnavigator\.|\bawait\s"
        ),
    ),
    (
        "go",
        re.compile(
            r"\bpackage main\b|\bfunc\s+\w*\s*\(|\bexec\.Command\s*\(|\bnet\.Dial\s*\(|\w\s*:=\s*"
            # the standard library's exported calls (Python's `os` names no capitals)
            r"|\b(?:os\.(?:WriteFile|ReadFile|Create|OpenFile|Getenv|RemoveAll|Chmod|UserHomeDir)"
            r"|ioutil\.(?:WriteFile|ReadFile|ReadAll)|io\.(?:ReadAll|Copy)|filepath\.Join)\s*\("
        ),
    ),
    (
        "ruby",
        re.compile(
            r"\brequire\s+['\"]|\bTCPSocket\b|\bTCPServer\b|\bFaraday\b|\bBase64\.decode64\b|\bdo\s*\|\w|\bputs\b|\bIO\.popen\b|\bNet::HTTP\b"
        ),
    ),
    (
        "perl",
        re.compile(
            r"\buse\s+(?:Socket|IO::|MIME|LWP|strict)\b|\bmy\s+[$@%]|\bIO::Socket\b|STDIN->fdopen|\$~->"
        ),
    ),
)
# method calls and statement ends: Java, C#, Kotlin, Go-like code with no grammar here
_GENERIC_CODE = re.compile(
    r"[\w\])]\s*\.\s*[A-Za-z_]\w*\s*\(|\b\w+\s*\([^\n()]*\)\s*;\s*$|^\s*(?:eval|exec|system|assert)\s*\(",
    re.M,
)


# Literal prefilters for the sniff patterns. Python's `re` tries an alternation
# without a literal head at every position (~100 µs for the PowerShell or the
# JavaScript pattern on one long prose line); every match of a pattern contains
# one of its literals, so a text with none of them cannot match and the pattern
# runs only when one is present. The PowerShell pattern is case-insensitive and
# `re` folds a few non-ASCII letters onto ASCII ones (`ı` matches `i`, `K`
# matches `k`): a non-ASCII head runs the pattern unfiltered.
_SNIFF_LITERALS: dict[str, tuple[str, ...]] = {
    "php": ("<?php", "$", "fsockopen", "shell_exec", "proc_open"),
    "javascript": (
        "require",
        "=>",
        "function",
        ".then",
        "new Function",
        "document.",
        "window.",
        "process.",
        "navigator.",
        "await",
    ),
    "go": (
        "package main",
        "func",
        "exec.Command",
        "net.Dial",
        ":=",
        "os.",
        "ioutil.",
        "io.",
        "filepath.Join",
    ),
    "ruby": (
        "require",
        "TCPSocket",
        "TCPServer",
        "Faraday",
        "Base64.decode64",
        "|",
        "puts",
        "IO.popen",
        "Net::HTTP",
    ),
    "perl": ("Socket", "IO::", "MIME", "LWP", "strict", "$", "@", "%", "STDIN"),
}
# the one JavaScript alternative without a literal: a declaration at the start
_JS_DECL = re.compile(r"\s*(?:const|let|var)\s")
_PS_SNIFF = dict(_LANG_SNIFF)["powershell"]
# the longest cmdlet verb of the PowerShell pattern (`ConvertFrom`)
_PS_VERB_MAX = 11
# every `has_python_hint` marker holds one of these (a module call its `(`)
_PY_LITERALS = ("def ", "class ", "import ", "self.", "True", "False", "None", "(")
_SHELL_FIRST = re.compile(
    r"^\s*(?:sudo\s+)?(?:curl|wget|bash|sh|zsh|nc|ncat|socat|perl|ruby|php|node|python[23]?|awk|gawk|"
    r"echo|printf|cat|tar|rm|chmod|crontab|git|scp|rsync|certutil|bitsadmin|mshta|regsvr32|rundll32|"
    r"cmd|reg|schtasks|wmic|vssadmin|bcdedit|msiexec|telnet|openssl|mkfifo|export|eval|exec|"
    r"source|xxd|base64|ping|dig|nslookup|useradd|systemctl|launchctl|lua|busybox|env)(?:\.exe)?(?=\s|$)"
)


def _powershell_marker(head: str) -> bool:
    """`_PS_SNIFF.search(head)`, exactly. Without `$`, `[` or `iex` only the
    `Verb-Noun` alternatives can match, and each holds a `-` with its verb at
    most `_PS_VERB_MAX` characters before: the pattern runs on a window round
    each `-`. A window's end cannot fake a match: `New-Object\\b` cut short
    still holds `New-Obj`, a real `Verb-Noun` match."""
    if not head.isascii() or "$" in head or "[" in head or "iex" in head.lower():
        return _PS_SNIFF.search(head) is not None
    at = head.find("-")
    while at >= 0:
        if _PS_SNIFF.search(head, max(0, at - _PS_VERB_MAX), at + 4) is not None:
            return True
        at = head.find("-", at + 1)
    return False


@lru_cache(maxsize=1)
def _sniff_words() -> KeywordSet:
    """Every literal of the sniff patterns and of the Python markers, for one
    Aho-Corasick pass per carrier instead of an `in` scan per literal."""
    return KeywordSet((*(w for ws in _SNIFF_LITERALS.values() for w in ws), *_PY_LITERALS))


_SNIFF_SETS = {name: frozenset(words) for name, words in _SNIFF_LITERALS.items()}
_PY_SET = frozenset(_PY_LITERALS)


def _sniff_marker(
    name: str, pattern: re.Pattern[str], head: str, present: frozenset[str] | None = None
) -> bool:
    """`pattern.search(head)`, skipped when no literal of the pattern is present
    (`present`: the literals of `_sniff_words` in `head`, when known)."""
    if name == "powershell":
        return _powershell_marker(head)
    if present is None:
        has_literal = any(lit in head for lit in _SNIFF_LITERALS[name])
    else:
        has_literal = not _SNIFF_SETS[name].isdisjoint(present)
    if not has_literal and not (name == "javascript" and _JS_DECL.match(head)):
        return False
    return pattern.search(head) is not None


def sniff(text: str, hint: str | None) -> str:
    """The language of a carrier: the hint when it names one, else by markers."""
    if hint:
        h = hint.lower()
        for name, alts in (
            (
                "shell",
                (
                    "sh",
                    "bash",
                    "shell",
                    "zsh",
                    "console",
                    "shell-session",
                    "dockerfile",
                    "docker",
                    "make",
                    "makefile",
                    "cmd",
                    "bat",
                    "batch",
                    "ksh",
                    "fish",
                    "crontab",
                    "ini",
                ),
            ),
            ("powershell", ("powershell", "ps1", "pwsh", "ps")),
            ("javascript", ("javascript", "js", "node", "jsx", "mjs", "cjs", "html")),
            ("typescript", ("typescript", "ts", "tsx")),
            ("python", ("python", "py", "python3", "py3")),
            ("ruby", ("ruby", "rb")),
            ("perl", ("perl", "pl")),
            ("php", ("php",)),
            ("go", ("go", "golang")),
        ):
            if h in alts:
                return name
        if h in (
            "java",
            "c",
            "cpp",
            "c++",
            "csharp",
            "cs",
            "kotlin",
            "rust",
            "swift",
            "lua",
            "vb",
            "vbscript",
            "applescript",
            "awk",
        ):
            return h
    head = text[:4000]
    first = head.lstrip().split("\n", 1)[0]
    if _SHELL_FIRST.match(first):
        return "shell"
    present = _sniff_words().present(head)
    for name, pattern in _LANG_SNIFF:
        if _sniff_marker(name, pattern, head, present):
            return name
    if not _PY_SET.isdisjoint(present) and has_python_hint(head):
        return "python"
    if "(" in head and _GENERIC_CODE.search(head):
        return "code"
    return "shell"


@dataclass(slots=True)
class Stmt:
    """One statement of one carrier, reduced to effects."""

    start: int
    end: int
    group: int
    mention: bool
    tags: set[str] = field(default_factory=set)
    hosts: list[str] = field(default_factory=list)
    writes: list[str] = field(default_factory=list)
    runs: list[str] = field(default_factory=list)
    """Files it executes (or reads to send)."""
    assigns: list[str] = field(default_factory=list)
    text: str = ""
    inherited: set[str] = field(default_factory=set)
    notes: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Model:
    stmts: list[Stmt] = field(default_factory=list)
    python: list[Carrier] = field(default_factory=list)
    remotes: dict[str, str] = field(default_factory=dict)
    transfer_host: str = ""
    """The host an sftp / ftp session opened above was pointed at (its batch's
    `put` lines upload there)."""
    inert_groups: set[int] = field(default_factory=set)
    """Groups of the carriers left out as inert (see `_inert`)."""
    inert_bound: int = 0
    """A bound on the statements those carriers would yield."""
    shell_vars: dict[str, str] = field(default_factory=dict)
    """Shell variables assigned a literal so far (`IFS` among them): a command
    named by one of them runs its value."""


# --- shell commands -----------------------------------------------------------


def _base(word: str) -> str:
    w = word.strip("'\"").replace("\\", "/").rsplit("/", 1)[-1].lower()
    return w[:-4] if w.endswith(".exe") else w


# A path inside the project: no absolute, home, parent, drive or variable path.
_PROJECT_REL = r"(?![/~\\]|\.\.|\w:|\$|%)(?:\./)?[\w][\w.\-/*]{0,200}"
_PROJECT_ARG = re.compile(_PROJECT_REL)
_SSH_VALUE_FLAGS = frozenset("bcDEeFIiJLlmOopQRSWw")
_TRANSFER_VALUE_FLAGS = frozenset(
    {"-o", "-i", "-P", "-F", "-c", "-l", "-J", "-S", "-e", "--rsh", "--port", "--exclude",
     "--include", "--filter", "--config", "--transfers"}
)  # fmt: skip
"""Flags of scp / rsync / rclone whose value follows as the next word."""


def _ssh_host(args: Sequence[str]) -> str | None:
    """The host of an ssh command line (`user@host`, `host`), skipping flag values."""
    skip = False
    for a in args:
        if skip:
            skip = False
            continue
        if a.startswith("-"):
            skip = len(a) == 2 and a[1] in _SSH_VALUE_FLAGS
            continue
        return a.split("@")[-1].split(":")[0].lower() or None
    return None


_PINNED_RELEASE = re.compile(
    r"(?i)^https://(?:dl\.k8s\.io/release|get\.helm\.sh|releases\.hashicorp\.com"
    r"|nodejs\.org/dist|go\.dev/dl"
    r"|dl\.google\.com/go|download\.docker\.com|static\.rust-lang\.org/dist"
    r"|storage\.googleapis\.com/kubernetes-release/release)/"
    r"[^\s'\"]*?\bv?\d+\.\d+(?:\.\d+)?\b[^\s'\"]*$"
)
"""A versioned artifact on its vendor's own release host (`dl.k8s.io/release/v1.30.0/…`,
`releases.hashicorp.com/terraform/1.9.5/…`): installing a pinned release, not running
whatever a URL serves today. An unpinned script (`get.docker.com`) is not, nor GitHub
release pages (anyone can publish one)."""
_AUTH_FILE = re.compile(r"/etc/(?:shadow|gshadow|passwd|sudoers|sudoers\.d/[\w.-]+)")


def _opens_to_all(mode: str, *, hashes: bool) -> bool:
    """A chmod mode that lets every user write the file (or, for `hashes`: the
    password hashes, the sudo rules, read it too): octal `666`, `0777`, symbolic
    `o+w`, `a+rw`, `+w`."""
    if re.fullmatch(r"[0-7]{3,4}", mode):
        other = int(mode[-1])
        return bool(other & 2) or (hashes and bool(other & 4))
    m = re.fullmatch(r"([ugoa]*)[+=]([rwxXst]+)", mode)
    if m is None:
        return False
    who, what = m.group(1), m.group(2)
    if who and not ({"o", "a"} & set(who)):
        return False
    return "w" in what or (hashes and "r" in what)


_SHORT_CLUSTER = re.compile(r"-[A-Za-z]{2,6}")
"""Short options run together (`-fsSLo`, `-qO`)."""
_PROTECTED_NS = re.compile(
    r"default|kube-system|kube-public|prod\w*|production[\w-]*|live|main|[\w-]*-prod(?:uction)?"
)


def _cluster_wide_delete(n: str, low: Sequence[str]) -> bool:
    """A command that deletes a cluster's, a project's or an account's resources
    wholesale: every namespace or object of a kind, a whole stack, a bucket with its
    contents, a resource group."""
    if n == "kubectl" and low[:1] == ["delete"]:
        kinds = {"namespace", "namespaces", "ns", "all", "pv", "pvc", "nodes", "node"}
        if ("--all" in low or "--all-namespaces" in low or "-a" in low) and bool(
            kinds & set(low) or "--all-namespaces" in low
        ):
            return True
        # a namespace is every object in it: deleted by force (no graceful
        # termination) or one the cluster or production runs in
        if low[1:2] and low[1] in ("namespace", "namespaces", "ns"):
            forced = "--force" in low or "--grace-period=0" in low or "--now" in low
            names = [a for a in low[2:] if not a.startswith("-")]
            return forced or any(_PROTECTED_NS.fullmatch(a) for a in names)
        return False
    if n in ("terraform", "tofu", "pulumi") and "destroy" in low:
        return any(a in ("-auto-approve", "--auto-approve", "--yes", "-y") for a in low)
    if n == "aws" and low[:2] == ["s3", "rb"]:
        return "--force" in low
    if n == "aws" and low[:2] == ["s3", "rm"]:
        return "--recursive" in low and any(re.fullmatch(r"s3://[^/]+/?", a) for a in low)
    if n == "gsutil":
        return "rm" in low and any(a in ("-r", "-ra") for a in low)
    if n == "az" and low[:2] == ["group", "delete"]:
        return any(a in ("--yes", "-y") for a in low)
    return n == "gcloud" and "projects" in low and "delete" in low


_SECRET_CLIS = {
    name: re.compile(pattern)
    for name, pattern in (
        ("gcloud", r"\bprint-(?:access|identity)-token\b|\bsecrets versions access\b"),
        (
            "aws",
            r"\bget-secret-value\b|\bget-session-token\b|\bget-login-password\b"
            r"|\bexport-credentials\b|\bget-parameters?\b.*--with-decryption"
            r"|\bconfigure get aws_secret",
        ),
        ("az", r"\bget-access-token\b|\bkeyvault secret show\b|\bkeys list\b"),
        ("gh", r"^auth token\b"),
        ("kubectl", r"\bget secrets?\b.*(?:-o|--output)|\bconfig view\b.*--raw|\bcreate token\b"),
        # NOTE: not `pass`, `op`, `vault`: words of prose, they would keep prose lines
        # from being left out as inert (`_SPECIAL_NAMES`)
        ("bw", r"^get (?:password|item)\b"),
        ("heroku", r"^auth:token\b"),
        ("doppler", r"^secrets\b"),
    )
}
"""CLIs whose output is a credential, by the words of their arguments."""
_COPIERS = frozenset(
    {"cp", "mv", "copy", "copy-item", "cpi", "move", "move-item", "xcopy", "robocopy"}
    | {"compress-archive", "expand-archive", "start-bitstransfer"}
)
_UNC = re.compile(r"^['\"]?(?:\\\\|//)((?:\d{1,3}\.){3}\d{1,3}|[\w-]+(?:\.[\w-]+)+)[\\/]")
_DEST_FLAGS = frozenset({"-destination", "-destinationpath", "-dest", "/d"})


def _unc_destination(args: Sequence[str]) -> str | None:
    """The host of a copy's UNC destination when it is an address or a dotted
    name (the last positional argument, or the value of -Destination)."""
    dest = None
    positional = []
    for i, a in enumerate(args):
        if a.lower() in _DEST_FLAGS and i + 1 < len(args):
            dest = args[i + 1]
        elif (not a.startswith(("-", "/")) or a.startswith(("//", "/\\"))) and not (
            i and args[i - 1].startswith("-") and args[i - 1].lower() not in _DEST_FLAGS
        ):
            positional.append(a)
    if dest is None and len(positional) >= 2:
        dest = positional[-1]
    m = _UNC.match(dest) if dest else None
    if m is None or lex.OWN_HOST.match(m.group(1)):
        return None
    return m.group(1).lower()


def _file_key(word: str) -> str:
    return word.strip("'\"").replace("\\", "/").lower().rsplit("/", 1)[-1]


def command_effects(name: str, args: Sequence[str], stage: int, stmt: Stmt, model: _Model) -> None:
    """Effects of one simple command (shell, cmd, PowerShell cmdlet style)."""
    n = _base(name)
    low = [a.lower() for a in args]
    joined = " ".join(low)
    tags = stmt.tags
    # "://" is in every `lex.URL` match
    urls = (
        [m.group(1).lower() for a in args for m in lex.URL.finditer(a)] if "://" in joined else []
    )
    stmt.hosts.extend(urls)
    if name.startswith(("$", "${")) and urls:
        # a program named by a variable and handed a URL (`$c -s http://… | sh`
        # after `$c` was built from char codes): a hidden downloader
        tags.update({"fetch", "fetcher"})
        stmt.notes.append("a program named by a variable fetches a URL")
    if n in lex.FETCHERS and not any(_URLISH.search(a) for a in args):
        return  # `curl ...|bash` in a sentence names the pattern, it fetches nothing
    if n in lex.FETCHERS:
        tags.add("fetcher")
        upload = any(
            a
            in (
                "-d",
                "-f",
                "-t",
                "--data",
                "--data-binary",
                "--data-raw",
                "--data-urlencode",
                "--form",
                "--upload-file",
                "--post-file",
                "--post-data",
                "--body-file",
                "--body-data",
                "-infile",
                "-body",
            )
            or a.startswith(("--data", "-d@", "--post-", "--form", "-f@", "--upload"))
            for a in low
        ) or (
            any(a in ("post", "put") for a in low)
            and ("-x" in low or "--request" in low or "-method" in low)
        )
        if upload:
            tags.add("send")
            for i, a in enumerate(args):
                la = a.lower()
                target = None
                if la in (
                    "-t",
                    "--upload-file",
                    "--post-file",
                    "--body-file",
                    "-infile",
                ) and i + 1 < len(args):
                    target = args[i + 1]
                elif (
                    "@" in a
                    and (
                        i > 0
                        and low[i - 1]
                        in (
                            "-d",
                            "-f",
                            "--data",
                            "--data-binary",
                            "--form",
                            "--data-urlencode",
                            "--data-raw",
                        )
                    )
                ) or la.startswith(("-d@", "--data-binary=@", "--data=@")):
                    target = a.split("@", 1)[1]
                elif la.startswith(("--post-file=", "--upload-file=", "--body-file=", "-infile:")):
                    target = a.split("=", 1)[-1]
                if target is not None:
                    stmt.runs.append(_file_key(target))
                    if target.strip() in ("-", "@-"):
                        continue
                    tags.add("local_read")
                    if lex.SECRET_PATH.search(target):
                        tags.add("secret")
        else:
            tags.add("fetch")
            if any(lex.URL.search(a) and re.search(r"\$\(|`|\$\{?[A-Za-z_]", a) for a in args):
                tags.add("send")  # data spliced into the URL leaves with the request
                stmt.notes.append("data in the request URL")
            elif any(
                low[i - 1] in ("-h", "--header", "-b", "--cookie", "-a", "--user-agent", "-e")
                and ("$(" in a or "`" in a)
                # a token minted for the request (`Authorization: Bearer $(gcloud auth
                # print-access-token)`) authenticates it
                and not _AUTH_BEFORE.search(re.split(r"\$\(|`", a, maxsplit=1)[0])
                for i, a in enumerate(args)
                if i
            ):
                tags.add("send")  # a command's output spliced into a header leaves too
                stmt.notes.append("command output in a request header")
            elif any(
                (
                    low[i - 1]
                    in ("-h", "--header", "-b", "--cookie", "-u", "--user", "-d", "--data")
                    or low[i].startswith(("--header=", "--post-data=", "--data="))
                    or low[i - 1].startswith(("--header=", "--post-data=", "--data="))
                )
                and _misdirected_secret(a, args)
                for i, a in enumerate(args)
                if i
            ):
                tags.update(("send", "secret"))  # one vendor's token to another's host
                stmt.notes.append("a vendor's token sent to another host")
            out = None
            remote_name = False
            for i, a in enumerate(low):
                flag = a in ("-o", "--output", "-outfile", "--output-document", "-out")
                # short flags run together: curl -fsSLo FILE, wget -qO FILE (the
                # option that takes the value comes last); curl -sO: the URL's name
                cluster = _SHORT_CLUSTER.fullmatch(args[i]) is not None
                if cluster and args[i][-1] == ("O" if n == "wget" else "o"):
                    flag = True
                elif cluster and n == "curl" and args[i][-1] == "O":
                    remote_name = True
                if flag and i + 1 < len(args):
                    out = args[i + 1]
                elif a.startswith("--output-document="):
                    out = a.split("=", 1)[1]
            if out is None and (
                n == "wget" or remote_name or "-o" in args or "-O" in args or "--remote-name" in low
            ):
                for a in args:
                    if lex.URL.search(a):
                        out = a.rstrip("/").rsplit("/", 1)[-1].split("?")[0]
            pinned = any(_PINNED_RELEASE.search(a) for a in args)
            if out is not None and out != "-" and not pinned:
                stmt.writes.append(_file_key(out))
        return
    if n == "certutil":
        if any(a in ("-urlcache", "/urlcache", "-verifyctl", "/verifyctl") for a in low) or urls:
            tags.update({"fetch", "lolbin_fetch"})
            if args:
                stmt.writes.append(_file_key(args[-1]))
        if any(a in ("-decode", "/decode", "-decodehex", "/decodehex") for a in low):
            tags.add("decode")
            if args:
                stmt.writes.append(_file_key(args[-1]))
        return
    if n == "bitsadmin" or n == "start-bitstransfer":
        if urls:
            tags.update({"fetch", "lolbin_fetch"})
            if args:
                stmt.writes.append(_file_key(args[-1]))
        return
    if n in (
        "mshta",
        "regsvr32",
        "rundll32",
        "msiexec",
        "cmstp",
        "installutil",
        "msbuild",
        "regasm",
        "regsvcs",
        "odbcconf",
        "wmic",
        "forfiles",
        "pcalua",
        "msxsl",
        "ieexec",
        "control",
    ):
        if urls or "javascript:" in joined or "vbscript:" in joined:
            tags.update({"fetch", "exec"})
            stmt.notes.append(f"{n} runs remote or inline script")
        elif n == "wmic" and "process" in low and "create" in low:
            tags.add("exec")
        else:
            tags.add("exec")
            stmt.runs.extend(
                _file_key(a.split(",")[0]) for a in args if not a.startswith(("/", "-"))
            )
        return
    if n in lex.INLINE_FLAGS:
        flags, _lang = lex.INLINE_FLAGS[n]
        if any(a in flags or a in lex.ENCODED_FLAGS for a in low):
            pass  # the script itself is analyzed as a nested carrier
        elif stage > 0 and not [a for a in args if not a.startswith("-") and a != "-"]:
            tags.add("exec")
            stmt.notes.append(f"piped into {n}")
        elif n in ("iex", "invoke-expression", "source", "."):
            tags.add("exec")
        elif n in lex.SHELLS and any(a in ("-i", "-il", "-li") for a in low):
            tags.add("shell")
        elif args:
            script = next((a for a in args if not a.startswith("-")), None)
            if script is not None:
                tags.add("exec_file")
                stmt.runs.append(_file_key(script))
        if n in lex.SHELLS and stage > 0:
            tags.add("exec")
        return
    if n in ("eval", "exec") and args:
        if n == "eval" or not re.fullmatch(r"\d*[<>].*", args[0]):
            tags.add("exec")
        return
    if n in ("start-process", "start", "saps", "invoke-item", "ii", "wscript", "cscript"):
        tags.add("exec_file")
        stmt.runs.extend(_file_key(a) for a in args if not a.startswith("-"))
        return
    if n in (
        "nc",
        "ncat",
        "netcat",
        "nc.traditional",
        "nc.openbsd",
        "telnet",
        "socat",
        "openssl",
        "busybox",
    ):
        if n == "openssl" and "s_client" not in low:
            return
        if n == "busybox" and (not low or low[0] not in ("nc", "telnet")):
            return
        listen = any(
            a.startswith("-l") or a.startswith("tcp-listen") or a.startswith("tcp4-listen")
            for a in low
        )
        tags.add("listen" if listen else "connect")
        if n == "socat":
            for a in args:
                m = re.match(r"(?i)(?:file|open|gopen):([^,\s]+)", a.strip("'\""))
                if m and not listen:
                    tags.update({"send", "local_read"})  # a file streamed to the peer
                    stmt.notes.append("socat streams a file to the peer")
                    if lex.SECRET_PATH.search(m.group(1)) or m.group(1).startswith("/etc/"):
                        tags.add("secret")
        if any(
            a in ("-e", "-c") or re.fullmatch(r"-\w*e", a) or a.startswith(("exec:", "system:"))
            for a in low
        ):
            tags.add("shell")
        if stage > 0 or n == "openssl":
            tags.add("send")
        for a in args:
            if re.fullmatch(r"[\w.-]+\.[a-z]{2,}|\d{1,3}(?:\.\d{1,3}){3}", a.lower()):
                stmt.hosts.append(a.lower())
            m = re.search(r"(?:tcp4?|udp|openssl|ssl):([\w.-]+):\d+", a.lower())
            if m:
                stmt.hosts.append(m.group(1))
            m = re.search(r"-connect\s*([\w.-]+):\d+", a.lower())
            if m:
                stmt.hosts.append(m.group(1))
        for i, a in enumerate(low):
            if a == "-connect" and i + 1 < len(args):
                stmt.hosts.append(args[i + 1].split(":")[0].lower())
        return
    if n in ("scp", "rsync", "sftp", "rclone", "lftp", "smbclient", "ftp", "pscp"):
        remotes = [
            a
            for a in args
            if _REMOTE_ARG.match(a)
            and not a.startswith("-")
            and (
                n == "rclone"
                or "@" in a
                or re.match(r"^[\w-]+(?:\.[\w-]+)+:|^\d{1,3}(?:\.\d{1,3}){3}:|^\$\{?\w", a)
            )
        ]
        locals_ = [
            a
            for i, a in enumerate(args)
            if not a.startswith("-")
            and a not in remotes
            and not (i and args[i - 1] in _TRANSFER_VALUE_FLAGS)
        ]
        if n == "rclone" and low and low[0] in ("copy", "sync", "move", "copyto"):
            locals_ = locals_[1:]
            if not any(lex.SECRET_PATH.search(a) or _HOME_OR_SYSTEM.match(a) for a in locals_):
                # `gdrive:` is a remote the user configured: photos to it are a backup,
                # a home directory or keys to it are not
                return
        if (remotes and locals_ and args.index(remotes[-1]) > args.index(locals_[-1])) or (
            n in ("lftp", "ftp") and urls
        ):
            tags.add("send")
            for r in remotes:
                host = r.split(":", 1)[0].split("@")[-1].lower()
                stmt.hosts.append(host)
            if n in ("lftp", "ftp") or not all(_PROJECT_ARG.fullmatch(a) for a in locals_):
                # a project's own build (`./dist`, `site/`) copied to a server is a
                # deploy; absolute, home and parent paths are data leaving
                tags.add("local_read")
            for a in locals_:
                if lex.SECRET_PATH.search(a):
                    tags.update({"secret", "local_read"})
        elif n in ("sftp", "ftp", "lftp") and (peer := _ssh_host(args)):
            model.transfer_host = peer
        return
    if n in ("put", "mput", "reput") and model.transfer_host and args:
        # a batch fed to sftp / ftp (a heredoc, `-b -`): each put uploads
        tags.update({"send", "local_read"})
        stmt.hosts.append(model.transfer_host)
        if any(lex.SECRET_PATH.search(a) or a.startswith("/etc/") for a in args):
            tags.add("secret")
        return
    if n == "ssh" and stage > 0:
        # what is piped into ssh is the remote command's input: it leaves the machine
        peer = _ssh_host(args)
        piped = stmt.text.split("|", 1)[0].split()[1:]
        deploy = "secret" not in tags and all(
            _PROJECT_ARG.fullmatch(w) for w in piped if not w.startswith("-")
        )
        if (
            peer is not None
            and not deploy
            and not (".pub" in stmt.text and "authorized_keys" in stmt.text)
        ):
            # what is piped in leaves the machine, unless it is the project's own
            # files (`tar czf - ./site | ssh web 'tar xzf -'`, a deploy) or a public
            # key installed on a server (what ssh-copy-id does)
            tags.add("send")
            stmt.hosts.append(peer)
    if n == "git" and low:
        if low[0] == "remote" and len(args) >= 4 and low[1] == "add":
            model.remotes[low[2]] = _host_of(args[3])
        elif low[0] == "push":
            names = [a for a in low[1:] if not a.startswith("-")]
            remote = names[0] if names else "origin"
            host = model.remotes.get(remote) or _host_of(remote)
            bulk = any(a in ("--all", "--mirror", "--tags") for a in low)
            if host or (bulk and remote not in ("origin", "upstream")):
                tags.update({"send", "local_read"})
                stmt.hosts.append(host or remote)
        elif low[0] == "bundle":
            tags.add("local_read")
        elif (
            low[0] == "config"
            and any(a.startswith("alias.") for a in low)
            and any(a.lstrip("'\"").startswith("!") for a in args)
        ) or (low[0] == "config" and "core.hookspath" in low):
            tags.add("persist")
        return
    if (
        n == "aws"
        and ("cp" in low or "sync" in low or "mv" in low)
        and "bucket-owner-full-control" in low
    ):
        # the ACL that hands an object to the bucket's owner: a copy into another
        # account's bucket, whatever the source
        tags.update({"send", "local_read"})
        stmt.hosts.append("cross-account-bucket")
        stmt.notes.append("copies into another account's bucket")
        if any(lex.SECRET_PATH.search(a) for a in args):
            tags.add("secret")
        return
    if n in ("aws", "gsutil", "az", "gcloud") and ("cp" in low or "sync" in low or "upload" in low):
        broad = [
            a
            for a in args
            if re.match(
                r"^(?:~|\$HOME|\$\{HOME\}|/home|/etc|/root|/var/lib|\$env:USERPROFILE|C:\\Users)", a
            )
        ]
        to_account = n == "az" and "upload" in low and any(lex.SECRET_PATH.search(a) for a in args)
        buckets = [i for i, a in enumerate(low) if a.startswith(("s3://", "gs://", "https://"))]
        # a copy goes from its first path to its last: a bucket named after the
        # local path is the destination (`s3 cp s3://b/app.env /etc/app/` downloads)
        if broad and (to_account or (buckets and buckets[-1] > args.index(broad[0]))):
            # a build directory synced to a bucket is a deploy; a home directory is not
            tags.update({"send", "local_read"})
            stmt.hosts.append("cloud-storage")
            if any(lex.SECRET_PATH.search(a) for a in broad):
                tags.add("secret")
        return
    if n in ("mail", "mailx", "sendmail", "mutt", "send-mailmessage", "swaks"):
        tags.add("send")
        stmt.hosts.append("mail")
        for a in args:
            if lex.SECRET_PATH.search(a):
                tags.update({"secret", "local_read"})
        return
    if n in ("new-inboxrule", "set-inboxrule", "set-mailbox", "new-transportrule") and any(
        a
        in (
            "-forwardto",
            "-redirectto",
            "-forwardingsmtpaddress",
            "-forwardasattachmentto",
            "-blindcopyto",
        )
        for a in low
    ):
        tags.update({"send", "secret", "persist"})
        stmt.notes.append("mail forwarding rule")
        stmt.hosts.extend(a.rsplit("@", 1)[1] for a in low if "@" in a)
        return
    if n == "msfvenom" and any(re.search(r"reverse|bind|meterpreter|shell", a) for a in low):
        tags.update({"connect", "shell"})
        stmt.notes.append("builds a remote-shell payload")
        return
    if (
        n == "chmod"
        and any(re.fullmatch(r"[ugoa]*\+[rwx]*s[rwx]*|[2467][0-7]{3}", a) for a in low)
        and any(
            re.search(r"/(?:ba|z|da|k)?sh$|/(?:python\d?|perl|ruby|find|vim?|env|awk|nmap|cp)$", a)
            for a in low
        )
    ):
        tags.add("persist")
        stmt.notes.append("setuid shell or interpreter")
        return
    if n == "ping" and "-p" in low:
        tags.add("send")
        return
    if n in ("hping3", "hping", "nping") and (
        sent := [
            args[i + 1]
            for i, a in enumerate(low[:-1])
            if a in ("-e", "--file", "--data-string", "--data")
        ]
    ):
        # a file or a string carried in the packets' payload (ICMP, TCP, UDP)
        tags.update({"send", "local_read"})
        stmt.hosts.extend(a.lower() for a in args[-1:] if _HOST_ARG.fullmatch(a))
        if any(lex.SECRET_PATH.search(a) or "$(" in a for a in sent):
            tags.add("secret")
        return
    if n == "xterm" and (
        peer := next((args[i + 1] for i, a in enumerate(low[:-1]) if a in ("-display", "-d")), None)
    ):
        # a terminal opened on another machine's X server: a shell for whoever runs it
        host = peer.rsplit(":", 1)[0].lower()
        if host and not lex.OWN_HOST.match(host):
            tags.update({"connect", "shell"})
            stmt.hosts.append(host)
        return
    if n in ("dig", "nslookup", "host", "drill", "resolve-dnsname") and any(
        "$(" in a or "`" in a or re.search(r"\$\{?\w+\}?\.", a) for a in args
    ):
        tags.add("send")
        stmt.notes.append("data in a DNS label")
        return
    if n in ("rm", "remove-item", "ri", "del", "erase", "rd", "rmdir", "shred", "srm", "wipe"):
        rec = any(re.fullmatch(r"-[a-z]*r[a-z]*|--recursive|-recurse|/s", a) for a in low)
        force = any(re.fullmatch(r"-[a-z]*f[a-z]*|--force|-force|/q|/f", a) for a in low) or n in (
            "rd",
            "rmdir",
            "del",
        )
        paths = [a for a in args if not a.startswith("-") and not re.fullmatch(r"/[a-zA-Z]", a)]
        if "--no-preserve-root" in low or (rec and force and any(_BROAD.match(p) for p in paths)):
            tags.add("destroy")
            stmt.notes.append("recursive delete of a broad scope")
        elif n in ("shred", "wipe", "srm") and any(
            p.startswith("/dev/") or _BROAD.match(p) for p in paths
        ):
            # a disk or a broad scope overwritten beyond recovery
            tags.add("destroy")
            stmt.notes.append("files wiped beyond recovery")
        return
    if n == "chmod" and any(_AUTH_FILE.fullmatch(a.strip("'\"")) for a in args):
        mode = next((a for a in args if not a.startswith("-")), "")
        files = [a.strip("'\"") for a in args if _AUTH_FILE.fullmatch(a.strip("'\""))]
        if _opens_to_all(mode, hashes=any("shadow" in f or "sudoers" in f for f in files)):
            # the password hashes or sudo rules made readable or writable by anyone
            tags.add("destroy")
            stmt.notes.append("the system's password or sudo files opened to everyone")
            return
    if n in ("chmod", "chown", "chgrp") and any(
        re.fullmatch(r"-[a-z]*r[a-z]*|--recursive", a) for a in low
    ):
        paths = [a for a in args[1:] if not a.startswith("-")]
        mode = next((a for a in args if not a.startswith("-")), "")
        if any(_BROAD.match(p) and p.rstrip("/*") in _SYSTEM_ROOTS for p in paths) and (
            n != "chmod" or re.fullmatch(r"0?[0-7]?(?:000|777|666)|[augo]*[=-]r?w?x?|a?\+rwx", mode)
        ):
            # every file of the system made unreadable, world-writable or someone
            # else's: the machine is broken or open
            tags.add("destroy")
            stmt.notes.append(f"recursive {n} of a system root")
        return
    if (
        n == "find"
        and "-exec" in low
        and any(
            low[i - 1] in ("-name", "-iname", "-path") and lex.SECRET_PATH.search(a.strip("'\"*"))
            for i, a in enumerate(low)
            if i
        )
        and low[low.index("-exec") + 1 : low.index("-exec") + 2]
        and _base(low[low.index("-exec") + 1]) in _COLLECTORS
    ):
        # key files searched for and copied / archived / sent elsewhere: collection
        tags.update({"cred_dump", "secret", "local_read"})
        stmt.notes.append("collects credential files")
        return
    if (
        n == "find"
        and args
        and _BROAD.match(args[0])
        and ("-delete" in low or any(a in ("rm", "/bin/rm", "shred") for a in low))
    ):
        tags.add("destroy")
        stmt.notes.append("find deletes across a broad scope")
        return
    if _cluster_wide_delete(n, low):
        tags.add("destroy")
        stmt.notes.append("deletes a cluster's or an account's resources wholesale")
        return
    if n.startswith("mkfs") or n in ("wipefs", "format-volume", "clear-disk", "diskpart"):
        tags.add("destroy")
        return
    if n == "format" and args and re.fullmatch(r"[a-z]:", low[0]):
        tags.add("destroy")
        return
    if n == "dd" and any(re.match(r"of=/dev/(?:sd|nvme|hd|xvd|vd|disk|mmcblk)", a) for a in low):
        tags.add("destroy")
        return
    if (n == "vssadmin" and "delete" in low) or (n == "wbadmin" and "delete" in low):
        tags.add("destroy")
        return
    if n == "bcdedit" and ("recoveryenabled" in low or "bootstatuspolicy" in low):
        tags.add("destroy")
        return
    if n == "cipher" and any(a.startswith("/w") for a in low):
        tags.add("destroy")
        return
    if n == "crontab" and (stage > 0 or (args and low[-1] not in ("-l", "-e", "-r"))):
        tags.add("persist")
        return
    if n in ("schtasks",) and "/create" in low:
        tags.add("persist")
        return
    if (
        n == "reg"
        and low
        and low[0] == "add"
        and re.search(
            r"\\run(?:once)?\b|winlogon|image file execution|appinit|appcert|\\services\\", joined
        )
    ):
        tags.add("persist")
        return
    if n in ("useradd", "adduser") or (n in ("net", "net1") and "user" in low and "/add" in low):
        tags.add("persist")
        stmt.notes.append("creates an account")
        return
    if n == "systemctl" and low and low[0] == "enable":
        tags.add("persist_unit")
        return
    if n == "launchctl" and low and low[0] in ("load", "bootstrap", "submit"):
        tags.add("persist")
        return
    if n in ("sc",) and low and low[0] in ("create", "config"):
        tags.add("persist")
        return
    if n in _COPIERS and "\\\\" in joined and (share := _unc_destination(args)):
        # a copy onto a share of a remote host (`Copy-Item ... \\203.0.113.9\\in\\`) is
        # an upload over SMB; a single-label server (`\\fileserver\\backup`) is the LAN's
        tags.update({"send", "local_read"})
        stmt.hosts.append(share)
        if any(lex.SECRET_PATH.search(a) for a in args):
            tags.add("secret")
        return
    if n in _SECRET_CLIS and _SECRET_CLIS[n].search(joined):
        # a CLI that prints a credential: its output is the secret
        tags.update({"secret", "local_read"})
        stmt.notes.append(f"{n} prints a credential")
        return
    if n in lex.DUMPERS and (not args or (n == "history" and all(a.isdigit() for a in args))):
        # `history 20` prints the last entries as `history` prints them all
        tags.update({"secret", "local_read"})
        stmt.notes.append(f"{n} dumps the environment")
        return
    if n in (
        "cat",
        "tac",
        "head",
        "tail",
        "less",
        "more",
        "xxd",
        "base64",
        "od",
        "hexdump",
        "type",
        "get-content",
        "gc",
        "strings",
        "tar",
        "zip",
        "7z",
        "gzip",
        "compress-archive",
        "find",
        "cp",
        "copy-item",
        "sqlite3",
        "git",
    ):
        paths = [a for a in args if not a.startswith("-") or a == "-"]
        if paths:
            tags.add("local_read")
        if any(lex.SECRET_PATH.search(a) for a in paths):
            tags.add("secret")
        if n in ("base64", "xxd") and any(
            a in ("-d", "--decode", "-r", "-D") or a.startswith("-r") for a in args
        ):
            tags.add("decode")
        if n in ("tar", "zip", "7z") and any(
            re.match(r"^(?:~|\$HOME|/home|/etc|/root|\$env:USERPROFILE)", a) for a in args
        ):
            tags.add("secret")
        return
    if n in ("tar", "unzip", "7z", "expand-archive", "bsdtar") and (
        n != "tar" or any(re.fullmatch(r"-?[a-z]*x[a-z]*f?", a) for a in low[:2])
    ):
        tags.add("extract")
        stmt.runs.extend(_file_key(a) for a in args if not a.startswith("-"))
        return
    if n in ("printf", "echo") and any(
        re.search(r"(?:\\x[0-9a-f]{2}|\\[0-7]{3}){2,}", a) for a in low
    ):
        tags.add("decode")
        return
    if n in ("rev", "gunzip", "zcat", "uudecode") or (n == "openssl" and "-d" in low):
        tags.add("decode")
        return
    if (
        ("sh" in joined or "cmd" in joined)  # in every `_SHELL_ARG` match
        and any(_SHELL_ARG.fullmatch(a) for a in low)
        and any(_HOST_ARG.fullmatch(a) for a in low)
        and any(_PORT_ARG.fullmatch(a) for a in low)
    ):
        # an unknown tool given a host, a port and a shell: serves the shell there
        tags.update({"connect", "shell"})
    if _PATHISH.search(name):
        tags.add("exec_file")
        stmt.runs.append(_file_key(name))


_HOME_OR_SYSTEM = re.compile(
    r"^['\"]?(?:~|\$HOME|\$\{HOME\}|/home|/root|/etc|/Users|\$env:USERPROFILE|%USERPROFILE%|C:\\Users)",
    re.IGNORECASE,
)
_COLLECTORS = frozenset(
    {
        "cp",
        "rsync",
        "tar",
        "scp",
        "mv",
        "cat",
        "zip",
        "7z",
        "curl",
        "nc",
        "base64",
        "gzip",
        "install",
    }
)

_SHELL_ARG = re.compile(
    r"(?:/bin/|/usr/bin/)?(?:ba|z|da)?sh|cmd(?:\.exe)?|powershell(?:\.exe)?|/bin/\w+sh"
)
_HOST_ARG = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}|[\w-]+(?:\.[\w-]+)+")
_PORT_ARG = re.compile(r"\d{2,5}")


def _host_of(word: str) -> str:
    m = lex.URL.search(word)
    if m:
        return m.group(1).lower()
    m = re.match(r"^(?:[\w.-]+@)?([\w.-]+\.[a-z]{2,}|\d{1,3}(?:\.\d{1,3}){3}):", word.lower())
    return m.group(1) if m else ""


# --- parsing carriers ---------------------------------------------------------


def _unquote(node: Node, src: bytes) -> str:
    raw = src[node.start_byte : node.end_byte].decode("utf-8", "replace")
    t = node.type
    if t == "raw_string" and len(raw) >= 2:
        return raw[1:-1]
    if t == "string" and len(raw) >= 2:
        return raw[1:-1].replace('\\"', '"')
    if t == "ansi_c_string":
        try:
            return raw[2:-1].encode("latin-1", "replace").decode("unicode_escape")
        except (UnicodeDecodeError, ValueError, Warning):
            return raw
    if t == "concatenation":
        return "".join(_unquote(c, src) for c in node.children)
    return raw


def _shell(carrier: Carrier, text: str, base: int, depth: int, model: _Model) -> None:
    tree = parse("shell", text)
    if tree is None:
        _token_statements(carrier, text, base, depth, model)
        return
    src = text.encode("utf-8", "surrogatepass")
    # byte -> char offsets only matter for ASCII-free text; approximate with a ratio
    ratio = len(text) / max(len(src), 1)
    among = tag_words_in(text)

    def visit(node: Node, budget: list[int]) -> None:
        if budget[0] <= 0:
            return
        if node.type in _STMT_TYPES:
            budget[0] -= 1
            _shell_stmt(node, src, carrier, base, ratio, depth, model, among)
            return
        for c in node.children:
            visit(c, budget)

    visit(tree.root_node, [MAX_STATEMENTS])


def _shell_stmt(
    node: Node,
    src: bytes,
    carrier: Carrier,
    base: int,
    ratio: float,
    depth: int,
    model: _Model,
    among: frozenset[str] | None = None,
) -> None:
    s_start = base + int(node.start_byte * ratio)
    s_end = base + int(node.end_byte * ratio)
    stmt = Stmt(s_start, s_end, carrier.group, carrier.mention)
    stmt.text = src[node.start_byte : node.end_byte].decode("utf-8", "replace")
    nested: list[tuple[str, str]] = []
    for sub in walk(node, max_nodes=4000):
        t = sub.type
        if t == "variable_assignment":
            name = sub.child_by_field_name("name")
            if name is not None:
                var = src[name.start_byte : name.end_byte].decode("utf-8", "replace")
                stmt.assigns.append(var)
                value = sub.child_by_field_name("value")
                if value is not None and len(model.shell_vars) < 200:
                    model.shell_vars[var] = _unquote(value, src)[:2000]
        elif t == "command":
            _shell_command(sub, src, stmt, model, nested)
        elif t == "file_redirect":
            op = sub.children[0].type if sub.children else ""
            dest = sub.child_by_field_name("destination")
            if dest is not None and op in (">", ">>", ">|", "&>", "&>>"):
                target = _unquote(dest, src)
                stmt.writes.append(_file_key(target))
                _write_target(target, stmt)
            elif dest is not None and op == "<":
                target = _unquote(dest, src)
                stmt.runs.append(_file_key(target))
                stmt.tags.add("local_read")
                if lex.SECRET_PATH.search(target):
                    stmt.tags.add("secret")
        elif t == "heredoc_body":
            parent = sub.parent
            cmd = None
            while parent is not None and cmd is None:
                if parent.type == "redirected_statement":
                    body = parent.child_by_field_name("body")
                    if body is not None and body.type == "command":
                        nm = body.child_by_field_name("name")
                        cmd = (
                            _base(src[nm.start_byte : nm.end_byte].decode())
                            if nm is not None
                            else None
                        )
                    break
                parent = parent.parent
            lang = _lang_of_interpreter(cmd or "")
            if lang:
                nested.append((lang, src[sub.start_byte : sub.end_byte].decode("utf-8", "replace")))
        elif t == "process_substitution" and sub.parent is not None:
            stmt.tags.add("procsub")
        elif t == "command_name":
            raw = src[sub.start_byte : sub.end_byte].decode("utf-8", "replace")
            if raw.startswith(("$(", "`", "<(")) and not _OBF_NAME.match(raw):
                stmt.tags.add("exec")
                stmt.notes.append("runs the output of a command")
            elif _OBF_NAME.match(raw):
                stmt.tags.update({"obfuscated", "exec"})
                stmt.notes.append("command name built at run time")
            if ("'" in raw or '"' in raw or "IFS" in raw) and (
                plain := _dequoted(stmt.text, model.shell_vars)
            ):
                # `c'u'r"l"${IFS}-s${IFS}…|b'a's"h"`: quotes inside a word and IFS
                # for spaces hide the command from a reader, not from the shell
                stmt.tags.add("obfuscated")
                stmt.notes.append("command name hidden by quotes or IFS")
                nested.append(("shell", plain))
            if "$" in raw and model.shell_vars and _VAR_REF.search(raw):
                expanded = _expand(stmt.text, model.shell_vars)
                if expanded != stmt.text:
                    nested.append(("shell", expanded))
    text_effects(stmt.text, stmt, among)
    if ("(" in stmt.text or '"' in stmt.text) and any(w in stmt.text for w in _SINK_LITERALS):
        for sm in _SINK_STRING.finditer(stmt.text):
            inner = sm.group("s")
            if sm.group(0)[0] != "`" and " " in inner:
                nested.append(("shell", inner))
    if "'" in stmt.text or '"' in stmt.text or "$(shell" in stmt.text:
        seen = {script for _, script in nested}
        for script in _command_strings(stmt.text):
            if script not in seen:
                seen.add(script)
                nested.append(("shell", script))
    if stmt.writes or stmt.tags & {"persist", "persist_rc", "persist_unit"}:
        # what is written into a cron table, an rc file or a unit runs later
        for lang, script in _echoed(node, src):
            nested.append((lang, script))
    if "fetcher" in stmt.tags and stmt.writes:
        stmt.tags.add("fetch")  # whatever the method, the response lands in a file
    if "procsub" in stmt.tags and "fetch" in stmt.tags:
        stmt.tags.add("exec")
    model.stmts.append(stmt)
    for lang, script in nested:
        _nested(lang, script, stmt, carrier, depth, model)


def _echoed(node: Node, src: bytes) -> list[tuple[str, str]]:
    """The strings echoed / printed in a statement, each as a carrier line
    (cron schedules and rc-file syntax stripped by the carrier extractor)."""
    out: list[tuple[str, str]] = []
    for sub in walk(node, max_nodes=2000):
        if sub.type != "command":
            continue
        nm = sub.child_by_field_name("name")
        if nm is None or _base(src[nm.start_byte : nm.end_byte].decode("utf-8", "replace")) not in (
            "echo",
            "printf",
            "print",
            "cat",
            "tee",
        ):
            continue
        for arg in sub.children_by_field_name("argument"):
            value = _unquote(arg, src)
            if " " in value:
                for c in extract(value):
                    out.append(("shell", c.text))
    return out


def _write_target(target: str, stmt: Stmt) -> None:
    """A redirect into an rc file, a cron table, a unit or a hook persists."""
    if lex.PERSIST_TARGET.search(target):
        stmt.tags.add("persist")
    if _API_BY_TAG["persist_rc"].search(target):
        stmt.tags.add("persist_rc")


def _lang_of_interpreter(name: str) -> str | None:
    if name in lex.SHELLS or name in ("cmd", "su"):
        return "shell"
    spec = lex.INLINE_FLAGS.get(name)
    return spec[1] if spec else None


def _shell_command(
    node: Node, src: bytes, stmt: Stmt, model: _Model, nested: list[tuple[str, str]]
) -> None:
    name_node = node.child_by_field_name("name")
    if name_node is None:
        return
    name = src[name_node.start_byte : name_node.end_byte].decode("utf-8", "replace")
    if ("$" in name or "''" in name or '""' in name or "\\" in name) and not name.startswith(
        ("$(", "`")
    ):
        plain = _SPLICE.sub("", name)
        if (
            plain != name
            and len(plain) >= 2
            and plain[0].isalpha()
            and (_base(plain) in lex.INTERPRETERS or _base(plain) in lex.FETCHERS)
        ):
            # an empty variable or empty quotes spliced into a known name hide it
            stmt.tags.update({"obfuscated", "exec"})
            stmt.notes.append(f"obfuscated name of {_base(plain)}")
            name = plain
    args: list[str] = []
    for c in node.children_by_field_name("argument"):
        args.append(_unquote(c, src))
    # wrappers: sudo, nohup, env VAR=x, timeout 5, xargs, exec
    while (
        _base(name)
        in (
            "sudo",
            "doas",
            "nohup",
            "time",
            "nice",
            "timeout",
            "stdbuf",
            "xargs",
            "command",
            "env",
            "setsid",
            "busybox",
            "toybox",
        )
        and args
    ):
        while args and (args[0].startswith("-") or _WRAPPER_ARG.fullmatch(args[0])):
            args = args[1:]
        if not args:
            break
        name, args = args[0], args[1:]
    stage = 0
    parent = node.parent
    if parent is not None and parent.type == "redirected_statement":
        parent = parent.parent
    if parent is not None and parent.type == "pipeline":
        named = [c for c in parent.children if c.is_named]
        for i, c in enumerate(named):
            if c.start_byte <= node.start_byte < c.end_byte:
                stage = i
    command_effects(name, args, stage, stmt, model)
    n = _base(name)
    if n in ("sh", "bat", "bash") and args and " " in args[0]:
        first = node.children_by_field_name("argument")[0]
        if first.type in ("raw_string", "string"):
            # a pipeline step (`sh 'curl …'` in a Jenkinsfile): the string is the script
            nested.append(("shell", args[0]))
    spec = lex.INLINE_FLAGS.get(n)
    low = [a.lower() for a in args]
    if spec is not None:
        flags, lang = spec
        for i, a in enumerate(low):
            if a in flags and i + 1 < len(args):
                nested.append((lang, args[i + 1]))
                break
            if n in ("pwsh", "powershell") and a in lex.ENCODED_FLAGS and i + 1 < len(args):
                decoded = _utf16_b64(args[i + 1])
                if decoded:
                    stmt.tags.add("decode")
                    stmt.notes.append("-EncodedCommand")
                    nested.append(("powershell", decoded))
                elif _RUNTIME_VALUE.match(args[i + 1]):
                    # `-EncodedCommand $e`: code kept out of sight until it runs
                    stmt.tags.update({"decode", "exec"})
                    stmt.notes.append("-EncodedCommand of a value built elsewhere")
                break
            if n in ("pwsh", "powershell") and a in lex.ENCODED_FLAGS and i + 1 == len(args):
                # the command line ends at the flag: the payload is appended at run
                # time (`s.Run "powershell -w hidden -e " & enc`)
                stmt.tags.update({"decode", "exec"})
                stmt.notes.append("-EncodedCommand appended at run time")
                break
        else:
            if n in ("pwsh", "powershell") and args and not args[-1].startswith("-"):
                nested.append(("powershell", args[-1]))
            if n == "cmd" and args:
                nested.append(("shell", " ".join(args)))
    elif n in ("awk", "gawk", "mawk", "nawk") and args:
        prog = next((a for a in args if not a.startswith("-")), "")
        if "/inet/" in prog:
            nested.append(("awk", prog))
    elif any(a.startswith((".shell ", ".system ", "!")) and " " in a for a in args):
        for a in args:
            if a.startswith((".shell ", ".system ")):
                nested.append(("shell", a.split(" ", 1)[1]))
            elif a.startswith("!") and " " in a:
                nested.append(("shell", a[1:]))
    elif n in ("ssh",) and len(args) >= 2:
        # the remote shell parses the command again: `\\$(...)` and `\\"` are live there
        nested.append(("shell", _SHELL_UNESCAPE.sub(r"\1", args[-1])))
    elif n in ("git",) and low and low[0] == "config":
        for a in args:
            if a.lstrip().startswith("!"):
                nested.append(("shell", a.lstrip()[1:]))


_WRAPPER_ARG = re.compile(r"\w+=.*|\d+[smh]?")
_SHELL_UNESCAPE = re.compile(r"\\([\\\"$`])")
_SPLICE = re.compile(r"\$\{\w{0,12}\}|\$\w+|''|\"\"|\\(?=\w)")
_VAR_REF = re.compile(
    r"(?:^|[\s;|&(])\$\{?[A-Za-z_]\w{0,30}\}?(?:\s|$|\|)|^\$\{?[A-Za-z_]\w{0,30}\}?$"
)


_IFS_REF = re.compile(r"\$\{IFS(?:[%#][^}]{0,8})?\}|\$IFS\b")
_QUOTED_PIECE = re.compile(r"'([^'\s]*)'|\"([^\"\s$`\\]*)\"")


def _dequoted(text: str, values: dict[str, str]) -> str | None:
    """`text` as the shell reads it when quotes split a command's letters and an
    unset `IFS` stands for spaces, or None if its first word is then no known
    interpreter, downloader or system binary (a quoted path is just a path)."""
    plain = text if "IFS" in values else _IFS_REF.sub(" ", text)
    plain = _QUOTED_PIECE.sub(lambda m: m.group(1) or m.group(2) or "", plain)
    if plain == text:
        return None
    first = plain.strip().split(None, 1)[0] if plain.strip() else ""
    name = _base(first)
    if name in lex.INTERPRETERS or name in lex.FETCHERS or name in lex.LOLBINS:
        return plain
    return None


def _expand(text: str, values: dict[str, str]) -> str:
    """`text` with the known variables replaced by their values, the unquoted
    ones split on `IFS` as the shell splits them."""
    ifs = values.get("IFS", "")
    ifs = "".join(ch for ch in ifs if not ch.isspace())[:4]

    def one(m: re.Match[str]) -> str:
        value = values.get(m.group(1))
        if value is None:
            return m.group(0)
        for ch in ifs:
            value = value.replace(ch, " ")
        return value

    return re.sub(r"\$\{?([A-Za-z_]\w{0,30})\}?", one, text)


_SYSTEM_ROOTS = frozenset(
    {"", "/etc", "/usr", "/bin", "/sbin", "/lib", "/var", "/boot", "/home", "~"}
)
_RUNTIME_VALUE = re.compile(r"^['\"]?(?:\$[\w:{]|%\w+%|\$\()")


def _utf16_b64(value: str) -> str | None:
    v = value.strip("'\"")
    if len(v) < 8 or not re.fullmatch(r"[A-Za-z0-9+/=]+", v):
        return None
    try:
        raw = base64.b64decode(v + "=" * (-len(v) % 4), validate=False)
    except (binascii.Error, ValueError):
        return None
    for enc in ("utf-16-le", "utf-8"):
        try:
            out = raw.decode(enc)
        except UnicodeDecodeError:
            continue
        if out and sum(ch.isprintable() or ch.isspace() for ch in out) / len(out) > 0.9:
            return out
    return None


def _nested(
    lang: str, script: str, outer: Stmt, carrier: Carrier, depth: int, model: _Model
) -> None:
    """A script inside a command: its effects are the outer statement's too."""
    if depth >= MAX_DEPTH or not script.strip():
        return
    before = len(model.stmts)
    inner = Carrier(outer.start, script, lang, carrier.group, carrier.mention, verbatim=False)
    _analyze_carrier(inner, model, depth + 1, base=outer.start)
    added = model.stmts[before:]
    for s in added:
        s.start, s.end = outer.start, outer.end
        outer.tags |= s.tags
        outer.hosts.extend(s.hosts)
        outer.notes.extend(s.notes)
        outer.writes.extend(s.writes)
        outer.runs.extend(s.runs)
    del model.stmts[before:]


_STMT_SPLIT = re.compile(r";\s*(?=\S)|\n")


def _token_statements(carrier: Carrier, text: str, base: int, depth: int, model: _Model) -> None:
    """Languages without a command grammar (PowerShell statements, cmd): split into
    statements, words by a quote-aware regex, judged as commands and as API text."""
    among = tag_words_in(text)
    pos = 0
    count = 0
    for piece in _split_statements(text):
        start = text.find(piece, pos)
        if start < 0:
            start = pos
        pos = start + len(piece)
        if not piece.strip():
            continue
        count += 1
        if count > MAX_STATEMENTS:
            break
        stmt = Stmt(
            base + start, base + start + len(piece), carrier.group, carrier.mention, text=piece
        )
        m = _ASSIGN.match(piece)
        if m:
            stmt.assigns.append(m.group(1))
        stages = re.split(r"(?<![|])\|(?![|])", piece)
        for si, stage in enumerate(stages):
            words = re.findall(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|[^\s|;()]+", stage)
            if m and si == 0:
                words = re.findall(r"\"(?:[^\"\\]|\\.)*\"|'[^']*'|[^\s|;()]+", stage[m.end() :])
            words = [w for w in words if w not in ("&", "{", "}")]
            if words:
                name = words[0].strip("'\"")
                args = [
                    w.strip("'\"") if len(w) >= 2 and w[0] == w[-1] and w[0] in "'\"" else w
                    for w in words[1:]
                ]
                command_effects(name, args, si, stmt, model)
                if _base(name) in ("start-process", "saps", "start") and args:
                    _started_interpreter(args, stmt, carrier, depth, model)
                if _base(name) in ("pwsh", "powershell"):
                    for i, a in enumerate(args):
                        if a.lower() in lex.ENCODED_FLAGS and i + 1 < len(args):
                            decoded = _utf16_b64(args[i + 1])
                            if decoded:
                                stmt.tags.add("decode")
                                _nested("powershell", decoded, stmt, carrier, depth, model)
        for m2 in re.finditer(
            r"-(?:OutFile|DestinationPath|o)\s+(\"[^\"]+\"|'[^']+'|\S+)", piece, re.IGNORECASE
        ):
            stmt.writes.append(_file_key(m2.group(1)))
        for m2 in re.finditer(
            r"DownloadFile\s*\(\s*[^,]+,\s*(\"[^\"]+\"|'[^']+'|[^)\s]+)", piece, re.IGNORECASE
        ):
            stmt.writes.append(_file_key(m2.group(1)))
        for m2 in re.finditer(
            r"(?:Start-Process|&|\.\\|Invoke-Item|msiexec\s+/i)\s+(?:-FilePath\s+)?(\"[^\"]+\"|'[^']+'|\S+)",
            piece,
            re.IGNORECASE,
        ):
            stmt.runs.append(_file_key(m2.group(1)))
            stmt.tags.add("exec_file")
        text_effects(piece, stmt, among)
        model.stmts.append(stmt)


def _started_interpreter(
    args: Sequence[str], stmt: Stmt, carrier: Carrier, depth: int, model: _Model
) -> None:
    """`Start-Process powershell -ArgumentList '-enc …'`: the argument list is the
    started interpreter's command line."""
    low = [a.lower() for a in args]
    program = ""
    for i, a in enumerate(low):
        if a == "-filepath" and i + 1 < len(args):
            program = args[i + 1]
            break
        if not a.startswith("-"):
            program = args[i]
            break
    interp = _base(program).removesuffix(".exe")
    if interp not in ("powershell", "pwsh", "cmd", "bash", "sh"):
        return
    for i, a in enumerate(low):
        if a in ("-argumentlist", "-args", "-argument") and i + 1 < len(args):
            line = " ".join(x.strip("'\",") for x in args[i + 1 :] if not x.startswith("-W"))
            lang = "powershell" if interp in ("powershell", "pwsh") else "shell"
            _nested(lang, f"{interp} {line}", stmt, carrier, depth, model)
            return


def _split_statements(text: str) -> list[str]:
    """Split on newlines and on `;` outside quotes, parentheses and braces."""
    out: list[str] = []
    depth = 0
    quote = ""
    cur: list[str] = []
    for ch in text[:MAX_TEXT]:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = ""
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth = max(0, depth - 1)
        elif (ch == ";" and depth == 0) or (ch == "\n" and depth == 0):
            out.append("".join(cur))
            cur = []
            continue
        elif ch == "\n":
            quote = ""
        cur.append(ch)
    out.append("".join(cur))
    return out


_SINK_STRING = re.compile(
    r"(?:\b\w{0,20}(?:system|popen|passthru|shell_?exec|exec\w{0,8}|spawn\w{0,5}|[Cc]ommand|check_output|"
    r"check_call|getoutput|getstatusoutput|[Ss]hell\w{0,8}|Start|Run)\s*(?:\(\s*(?:\[\s*)?|\s(?=['\"]))"
    r"|(?<![\w.])(?:system|exec)\s+|%x\{|\bqx\{|`)"
    r"(?:(?:['\"](?:/bin/)?(?:ba|z)?sh['\"]|['\"]cmd(?:\.exe)?['\"])\s*,\s*['\"](?:-c|/c)['\"]\s*,\s*)?"
    r"(?P<q>['\"`])(?P<s>(?:(?!(?P=q))[^\\\n]|\\.){4,2000})(?P=q)"
)


# Every `_SINK_STRING` match holds one of these (case as written: the pattern is
# case-sensitive; `shell_?exec` holds `exec`, the `output` calls `output`,
# `[Cc]ommand` `ommand`, `[Ss]hell` `hell`, a backtick opens the last alternative).
_SINK_LITERALS = (
    *("system", "popen", "passthru", "exec", "spawn", "ommand", "output", "check_call"),
    *("hell", "Start", "Run", "%x{", "qx{", "`"),
)


# A quoted string that is itself a composed command line (`curl … | sh`,
# `cd x && make`, `a; b`): the argument of a DSL step (`sh '…'` in a
# Jenkinsfile, `inline: "…"` in a Vagrantfile, `commandLine '…'` in Gradle,
# `os.execute("…")` in Lua), of a shell builtin that runs a string later (`trap`,
# `alias`, `eval`, `watch`, `PROMPT_COMMAND=`), or of a Make `$(shell …)`.
# Which call runs it differs per language and DSL; that the string is a
# command line does not, so the string is analyzed as shell wherever it sits,
# except where the text before it prints, describes or warns against it
# (`echo "…"`, `description: "…"`, `never paste things like "…"`).
# NOTE: strings of any length are matched and the short ones dropped after: a
# minimum length here would pair the closing quote of `"shell"` with the opening
# one of the next string (`"shell", inline: "curl … | bash"`)
_CMD_STRING = re.compile(r"(?P<q>['\"])(?P<s>(?:(?!(?P=q))[^\\\n]|\\.){0,2000})(?P=q)")
_CMD_COMPOSED = re.compile(r"\|(?!\|)|\|\||&&|;\s*\S|\$\(|`")
_CMD_PRINTED = re.compile(
    r"(?i)(?:\b(?:echo|printf|print|println|puts|say|warn|log\w*|logger|console\.\w+|"
    r"comment|description|desc|help|title|label|message|msg|text|summary|note|hint|"
    r"example|doc|tooltip|placeholder|caption|alt|grep|egrep|rg|sed|awk|match|search|"
    r"contains|startswith|endswith|includes|test|it|describe|assert\w*|expect|pattern)\b"
    r"[\s:=(,\[{]*(?:[\w.-]+\s*)?[\s:=(,\[{]*|#.*|//.*)$"
)
# command words that open a quoted command line besides `_SHELL_FIRST`'s
_CMD_FIRST = re.compile(
    r"\s*(?:history|printenv|set|declare|compgen|find|zip|gpg|ssh|docker|kubectl|aws|gcloud|"
    r"az|npm|pip3?|apt-get|apk|yum|dnf|brew|make|cd|ls|mkdir|cp|mv|tee|head|tail|grep|sed|jq|"
    r"xargs|sudo|nohup|timeout|iwr|irm|Invoke-\w+)(?=\s|$)"
)
_MAKE_SHELL = re.compile(r"\$\(shell\s+([^()\n]*(?:\([^()\n]*\)[^()\n]*)*)\)")


def _command_strings(line: str) -> list[str]:
    """The composed command lines quoted in `line` (see `_CMD_STRING`), unescaped,
    and the bodies of Make `$(shell …)` calls. Never raises."""
    out: list[str] = []
    if "$(shell" in line:
        out.extend(m.group(1) for m in _MAKE_SHELL.finditer(line))
    if ("'" not in line and '"' not in line) or not _CMD_COMPOSED.search(line):
        return out
    for m in _CMD_STRING.finditer(line):
        s = m.group("s")
        if len(s) < 6:
            continue
        if "\\" in s:
            s = _unescape_code(s)
        if not (_SHELL_FIRST.match(s) or _CMD_FIRST.match(s)) or not _CMD_COMPOSED.search(s):
            continue
        before = line[: m.start()]
        if _CMD_PRINTED.search(before[-60:]) or is_mention(before):
            continue  # printed, described or warned against: not run here
        out.append(s)
    return out


def _sink_strings(line: str) -> list[re.Match[str]]:
    """`_SINK_STRING` matches of a line. Each ends in a quoted string and holds a
    sink literal, so a line without both has none (the pattern's alternation is
    tried at every position: several µs a line)."""
    if "'" not in line and '"' not in line and "`" not in line:
        return []
    if not any(w in line for w in _SINK_LITERALS):
        return []
    return list(_SINK_STRING.finditer(line))


def _code(carrier: Carrier, lang: str, text: str, base: int, depth: int, model: _Model) -> None:
    """A program in a non-shell language: comments dropped by the grammar, one
    statement per logical line, API evidence, and command strings passed to
    process sinks analyzed as shell."""
    gl = {
        "javascript": "javascript",
        "typescript": "typescript",
        "ruby": "ruby",
        "perl": "perl",
        "php": "php",
        "go": "go",
        "powershell": "powershell",
    }.get(lang)
    code = strip_comments(gl, text).text if gl else text
    if lang == "powershell":
        _token_statements(carrier, code, base, depth, model)
        return
    among = tag_words_in(code)
    pos = 0
    count = 0
    for line in code.split("\n"):
        start = pos
        pos += len(line) + 1
        if not line.strip():
            continue
        count += 1
        if count > MAX_STATEMENTS:
            break
        stmt = Stmt(
            base + start, base + start + len(line), carrier.group, carrier.mention, text=line
        )
        m = _ASSIGN.match(line)
        if m:
            stmt.assigns.append(m.group(1))
        text_effects(line, stmt, among)
        if "(" in line or "-" in line:  # in every `_API_WRITE` match
            # a file written by an API call (`os.WriteFile("/tmp/.u", body, 0755)`):
            # what the statement carries (a download, decoded bytes) is that file's
            # content when a later statement runs it
            stmt.writes.extend(_file_key(w.group(1)) for w in _API_WRITE.finditer(line))
        if "include" in line or "require" in line or "do " in line:
            # a source file loaded and run by path (PHP include, Ruby / Perl require)
            for m in _LOAD_PATH.finditer(line):
                stmt.tags.add("exec_file")
                stmt.runs.append(_file_key(m.group(1)))
        if "local_read" in stmt.tags and "secret" not in stmt.tags and _project_read(line):
            # one file of the project (a template, a config) read by name is how
            # programs work; what leaves is judged by its name (`secret`) and by
            # bulk reads (archives, home directories, system paths)
            stmt.tags.discard("local_read")
        model.stmts.append(stmt)
        # command strings passed to a process sink run as shell
        done: set[str] = set()
        for sm in _sink_strings(line):
            s = sm.group("s")
            if any(k in s for k in (" ", "/", "|")):
                script = _unescape_code(s) if "\\" in s else s
                done.add(script)
                _nested("shell", script, stmt, carrier, depth, model)
        for script in _command_strings(line):
            if script not in done:
                done.add(script)
                _nested("shell", script, stmt, carrier, depth, model)


_LOAD_PATH = re.compile(
    r"\b(?:include|require|include_once|require_once|require_relative|do)\s*\(?\s*['\"]"
    r"((?:/|\.{1,2}/|[A-Za-z]:\\)[^'\"\n]{1,200}\.(?:php|inc|rb|pl|pm|phtml))['\"]"
)
_API_WRITE = re.compile(
    # Go, Node, Ruby, PHP, C#, Java, Perl and PowerShell calls that create or write
    # a file named by a literal: group 1 is the path
    r"(?:\b(?:os\.WriteFile|ioutil\.WriteFile|os\.Create|os\.OpenFile|(?:fs\.)?writeFileSync"
    r"|fs\.writeFile|(?:fs\.)?createWriteStream|File\.(?:write|binwrite|open|new|WriteAll(?:Bytes|Text|Lines)"
    r"(?:Async)?|Create|OpenWrite)|IO\.(?:write|binwrite)|file_put_contents|fopen"
    r"|Files\.(?:write(?:String)?|copy)|new\s+FileOutputStream|\[(?:System\.)?IO\.File\]::(?:WriteAll\w+|Create))"
    r"\s*\(\s*(?:Paths\.get\s*\(\s*|Path\.of\s*\(\s*)?|\bopen\s*\(?\s*(?:my\s+)?\$?\w+\s*,\s*['\"]>>?['\"]\s*,\s*"
    r"|\b(?:Set-Content|Add-Content|Out-File)\b[^|;\n]{0,80}?(?:-(?:Path|FilePath|LiteralPath)\s+)?)"
    r"['\"`]([^'\"`\n$]{1,200})['\"`]"
)
_REMOTE_CODE = re.compile(
    r"(?<![\w.])import\s*\(\s*['\"`]https?://|\$\.getScript\s*\(\s*['\"`]https?://"
    r"|\bimportScripts\s*\(\s*['\"`]https?://|\bloadScript\s*\(\s*['\"`]https?://"
)
_REMOTE_CODE_WORDS = frozenset({"import", "getscript", "importscripts", "loadscript"})
_SCRIPT_ELEMENT = re.compile(r"createElement\s*\(\s*['\"]script['\"]\s*\)")
_SCRIPT_SRC = re.compile(r"\.src\s*=\s*['\"`]https?://")
_READ_CALL = re.compile(
    r"\b(?:readFileSync|readFile|File\.read|IO\.read|os\.ReadFile|ioutil\.ReadFile|"
    r"file_get_contents|Get-Content)\s*\(?\s*(?P<arg>['\"`][^'\"`\n]{0,200}['\"`]|[\w.$]+)"
)
_PROJECT_PATH = re.compile(f"['\"`]{_PROJECT_REL}['\"`]")


def _project_read(line: str) -> bool:
    """Every file read on the line is named by a literal path inside the project
    (`'templates/mail.html'`, `"config.json"`): no absolute, home, parent or
    variable path."""
    reads = list(_READ_CALL.finditer(line))
    return bool(reads) and all(_PROJECT_PATH.fullmatch(m.group("arg")) for m in reads)


def _unescape_code(s: str) -> str:
    try:
        return s.encode("latin-1", "backslashreplace").decode("unicode_escape")
    except (UnicodeDecodeError, ValueError, Warning):
        # an invalid escape (`\d`) warns, and a warning filter may make it raise
        return s


def tag_words_in(text: str) -> frozenset[str]:
    """The gate words of `text`: what `text_effects` may pass as `among` for
    any piece of it (a word in a piece is a word in the whole)."""
    return _tag_words().present(text.lower())


def text_effects(text: str, stmt: Stmt, among: frozenset[str] | None = None) -> None:
    """API evidence and sensitive names in a statement's text (any language).
    `among`: the gate words of a text this one is a slice of (`tag_words_in`),
    to test a few words here instead of a pass of the automaton per statement."""
    if len(text) > 20_000:
        text = text[:20_000]
    if among is None:
        present = _tag_words().present(text.lower())
    elif among:
        low = text.lower()
        present = frozenset([w for w in among if w in low])
    else:
        present = among
    if present:
        for tag, pattern in _API:
            if tag in stmt.tags or present.isdisjoint(lex.TAG_WORDS[tag]):
                continue
            if pattern.search(text):
                stmt.tags.add(tag)
        for tag, words, pattern in _API_GATED:
            if tag not in stmt.tags and not present.isdisjoint(words) and pattern.search(text):
                stmt.tags.add(tag)
    if (
        "secret" not in stmt.tags
        and not present.isdisjoint(lex.SECRET_WORDS)
        and (
            _has_match(lex.SECRET_API, lex.SECRET_API_LITERALS, text)
            or _secret_var_as_data(text)
            or _reads_secret_path(text)
        )
    ):
        stmt.tags.add("secret")
    if "://" in text:  # in every `lex.URL` match
        stmt.hosts.extend(m.group(1).lower() for m in lex.URL.finditer(text))
        if not present.isdisjoint(_REMOTE_CODE_WORDS) and _REMOTE_CODE.search(text):
            # code loaded from a URL and run: dynamic import, $.getScript, importScripts
            stmt.tags.update({"fetch", "exec"})
            stmt.notes.append("loads and runs remote code")


def _reads_secret_path(text: str) -> bool:
    return _has_match(lex.SECRET_PATH, lex.SECRET_PATH_LITERALS, text)


def _has_match(pattern: re.Pattern[str], literals: tuple[str, ...], text: str) -> bool:
    """`pattern.search(text) is not None`, skipped when the text holds none of the
    pattern's lower-case literals. The two patterns ignore case and have no literal
    head, so `re` tries them at every position: ~100 µs on a long statement."""
    folds = not text.isascii() and has_any(text, lex.FOLDS_TO_ASCII)
    if not folds and not has_any(text.lower(), literals):
        return False
    return pattern.search(text) is not None


def _analyze_carrier(
    carrier: Carrier, model: _Model, depth: int, base: int | None = None, lang: str | None = None
) -> None:
    text = carrier.text
    start = carrier.start if base is None else base
    if lang is None:
        lang = sniff(text, carrier.language)
    if lang == "python":
        model.python.append(carrier)
        low = text.lower()
        destroys = any(w in low for w in lex.TAG_WORDS["destroy"])
        loads = "//" in text and any(w in low for w in _REMOTE_CODE_WORDS)
        for line_start, line in _lines_with_offsets(text):
            # another language's recursive delete or remote code load on a line
            # sniffed as Python (`fs.rmSync(os.homedir(), …)`,
            # `self.importScripts('https://…')`): the Python analyzer has no rule
            tags = set()
            if destroys and _API_BY_TAG["destroy"].search(line):
                tags.add("destroy")
            if loads and _REMOTE_CODE.search(line):
                tags.update({"fetch", "exec"})
            if tags:
                model.stmts.append(
                    Stmt(
                        start + line_start,
                        start + line_start + len(line),
                        carrier.group,
                        carrier.mention,
                        tags=tags,
                        text=line,
                    )
                )
            for sm in _sink_strings(line):
                s = sm.group("s")
                if any(k in s for k in (" ", "/", "|")):
                    stmt = Stmt(
                        start + line_start,
                        start + line_start + len(line),
                        carrier.group,
                        carrier.mention,
                        text=line,
                    )
                    model.stmts.append(stmt)
                    _nested("shell", s, stmt, carrier, depth, model)
        return
    if lang == "shell":
        _shell(carrier, text, start, depth, model)
    elif lang == "awk":
        stmt = Stmt(start, start + len(text), carrier.group, carrier.mention, text=text)
        text_effects(text, stmt)
        if "/inet/" in text:
            stmt.tags.add("connect")
            if re.search(r"\|\s*&|getline|\bsh\b|/bin/", text):
                stmt.tags.add("shell")
        model.stmts.append(stmt)
    else:
        _code(carrier, lang, text, start, depth, model)


def _lines_with_offsets(text: str) -> list[tuple[int, str]]:
    out = []
    pos = 0
    for line in text.split("\n"):
        out.append((pos, line))
        pos += len(line) + 1
    return out


# --- the model over a whole memory ----------------------------------------------

_FLOW_TAGS = frozenset(
    {"fetch", "decode", "secret", "local_read", "outside", "connect", "lolbin_fetch"}
    # a server socket and its accepted clients; an unsafe deserializer's instance
    | {"listen", "deserialize"}
)
_NET_READ = re.compile(
    r"\.(?:gets|recv|recvfrom|readline|readlines|read|ReadString|ReadLine|ReadBytes|Read|ReadToEnd)\b"
    r"|<\$\w+>|\bfgets\s*\(\s*\$\w+|\bsysread\s*\(|\.on\s*\(\s*['\"]data['\"]"
)
"""A read on a connection: what it yields came from the peer."""
_CONNECT_CALL = re.compile(r"\s*\$?([A-Za-z_][\w]*)\s*\.\s*(?:connect|Connect|open)\w*\s*\(")
_DESER_CALL = re.compile(r"\.(?:Deserialize|ReadObject|readObject|load|loads|Load)\s*\(")


def _first_word(low: str) -> str:
    """The command word of a carrier (after `sudo` / `exec`), lower case."""
    words = low.split(None, 2)
    if len(words) > 1 and words[0] in ("sudo", "exec"):
        return words[1]
    return words[0] if words else ""


_BIN_WRITE = re.compile(
    r"(?:/usr/local/s?bin|/usr/s?bin|(?<![\w.])/s?bin|~/bin|~/\.local/bin|/opt/[\w.-]+/bin)"
    r"/([\w.-]+)"
)


_CHANNEL_WRITE = re.compile(
    r"\.(?:Write|WriteAsync|Send|SendAsync|UploadFile|UploadData|UploadString)\s*\("
    # a socket's own writes (Node, Go, Ruby, Perl, Python-like): on a connection only
    r"|\.(?:write|end|send|sendall|puts|print|syswrite|WriteString)\s*\(\s*[^\s)]"
)
_URL_BUILT = re.compile(r"https?://[^'\"`\s]*(?:['\"]\s*(?:\+|\.|,\s*\w)|\$\{|#\{|%s|\{\})")
"""A URL literal with data spliced after it (`'https://h/c?d=' + env`, a template)."""
_CONNECT_HOST = re.compile(
    r"['\"`]((?:\d{1,3}\.){3}\d{1,3}|localhost|[A-Za-z][\w-]*(?:\.[\w-]+)+)(?::\d{1,5})?['\"`]"
)


def _flow(model: _Model) -> None:
    """Carry fetched / decoded / secret origins through variables and files."""
    var_tags: dict[str, set[str]] = {}
    var_hosts: dict[str, list[str]] = {}
    file_tags: dict[str, set[str]] = {}
    bin_names: dict[str, set[str]] = {}
    var_files: dict[str, list[str]] = {}
    """A handle assigned by a statement that opened a file for writing (`f, _ :=
    os.Create("/tmp/x")`): data later copied into the handle is that file's."""
    extracted = False
    for stmt in model.stmts:
        inherited: set[str] = set()
        if bin_names:
            # a file written into a directory on PATH runs by its bare name
            name = _first_word(stmt.text.lower())
            if name in bin_names:
                inherited |= bin_names[name]
                stmt.tags.add("exec_file")
        used_hosts: list[str] = []
        if var_tags:
            for name, tags in var_tags.items():
                if name in stmt.assigns and stmt.text.count(name) <= 1:
                    continue
                if re.search(r"(?<![\w])\$?\{?" + re.escape(name) + r"\b", stmt.text):
                    inherited |= tags
                    used_hosts.extend(var_hosts.get(name, ()))
                    if tags & {"connect", "listen"} and _NET_READ.search(stmt.text):
                        stmt.tags.add("net_read")
                    if "deserialize" in tags and _DESER_CALL.search(stmt.text):
                        stmt.tags.add("deserialize")  # the formatter built above, used
                    if tags & {"channel", "connect"} and _CHANNEL_WRITE.search(stmt.text):
                        # data written into an upload stream opened earlier leaves
                        stmt.tags.add("send")
        if used_hosts and not stmt.hosts and stmt.tags & {"send", "fetch", "connect"}:
            stmt.hosts.extend(used_hosts)
        for key in stmt.runs:
            if key in file_tags:
                inherited |= file_tags[key]
        if file_tags and "exec_file" in stmt.tags:
            # the program or the script it is given is what runs: a downloaded
            # file named further on is data handed to it (`python3 process.py
            # data.json`), not code
            low = " ".join(
                [w for w in stmt.text.lower().replace("\\", "/").split() if w[:1] != "-"][:2]
            )
            for key, tags in file_tags.items():
                if key and len(key) > 2 and key in low:
                    inherited |= tags
        stmt.inherited = inherited
        if "connect" in stmt.tags and (rm := _CONNECT_CALL.match(stmt.text)):
            # `sock.connect(4444, host)`: the receiver is a connection from here on
            var_tags.setdefault(rm.group(1), set()).add("connect")
        if stmt.tags & {"connect", "listen"} and _NET_READ.search(stmt.text):
            stmt.tags.add("net_read")
        if "connect" in stmt.tags and not stmt.hosts:
            # the peer of a socket API call (`net.connect(9999, '203.0.113.5')`)
            stmt.hosts.extend(m.group(1).lower() for m in _CONNECT_HOST.finditer(stmt.text))
        if "send" not in stmt.tags and (stmt.tags | inherited) & {"secret", "local_read"}:
            if "connect" in stmt.tags and _CHANNEL_WRITE.search(stmt.text):
                stmt.tags.add("send")  # connects and writes what it read, at once
            elif "fetch" in stmt.tags and _URL_BUILT.search(stmt.text):
                stmt.tags.add("send")  # a request whose URL carries the data
        carried = (stmt.tags | inherited) & _FLOW_TAGS
        if var_files and carried:
            for name, keys in var_files.items():
                if name not in stmt.assigns and re.search(
                    r"(?<![\w$])" + re.escape(name) + r"\b", stmt.text
                ):
                    for key in keys:
                        file_tags.setdefault(key, set()).update(carried)
        if stmt.writes and stmt.assigns:
            for name in stmt.assigns:
                var_files[name] = [k for k in stmt.writes if k]
        if "send" in stmt.tags and stmt.assigns:
            carried = carried | {"channel"}
        if carried:
            for name in stmt.assigns:
                var_tags[name] = set(carried)
                if stmt.hosts:
                    var_hosts[name] = stmt.hosts[:8]
            for key in stmt.writes:
                if key:
                    file_tags[key] = set(carried)
            if "exec_file" in stmt.tags and set(stmt.runs) & set(stmt.writes):
                # written and run in one statement (`file_put_contents(p, $d); include p`)
                stmt.inherited |= carried
                inherited |= carried
            if stmt.writes and "bin/" in stmt.text:
                for m in _BIN_WRITE.finditer(stmt.text):
                    bin_names[m.group(1).lower()] = set(carried)
        if "extract" in stmt.tags and inherited & {"fetch", "lolbin_fetch"}:
            extracted = True  # files unpacked from a download are downloads
        if extracted and "exec_file" in stmt.tags and re.search(r"(?:^|\s)\./", stmt.text):
            stmt.inherited.add("fetch")
            inherited.add("fetch")
        if "exec_file" in stmt.tags and inherited & {"fetch", "decode", "lolbin_fetch"}:
            stmt.tags.add("exec")


_VENDOR_SECRET_VAR = re.compile(
    r"\$\{?(?:env:)?([A-Za-z][A-Za-z0-9]{2,})_\w*?(?:TOKEN|API_?KEY|SECRET|PASSWORD|PAT)\w*",
    re.IGNORECASE,
)
_NOT_A_VENDOR = frozenset(
    {
        "api",
        "app",
        "my",
        "the",
        "access",
        "secret",
        "auth",
        "bot",
        "prod",
        "dev",
        "test",
        "staging",
        "service",
        "client",
        "user",
        "admin",
        "deploy",
        "ci",
        "build",
        "release",
        "read",
        "write",
        "personal",
        "private",
        "public",
        "bearer",
        "session",
        "refresh",
        "master",
        "root",
    }
)


_KNOWN_VENDORS = frozenset(
    [
        "github",
        "gh",
        "gitlab",
        "glpat",
        "bitbucket",
        "atlassian",
        "jira",
        "confluence",
        "stripe",
        "openai",
        "anthropic",
        "claude",
        "slack",
        "twilio",
        "sendgrid",
        "mailgun",
        "mailchimp",
        "postmark",
        "aws",
        "amazon",
        "azure",
        "gcp",
        "gcloud",
        "google",
        "firebase",
        "npm",
        "pypi",
        "docker",
        "dockerhub",
        "heroku",
        "vercel",
        "netlify",
        "cloudflare",
        "cf",
        "datadog",
        "dd",
        "sentry",
        "shopify",
        "okta",
        "auth0",
        "notion",
        "linear",
        "digitalocean",
        "do",
        "huggingface",
        "hf",
        "discord",
        "telegram",
        "paypal",
        "square",
        "braintree",
        "supabase",
        "posthog",
        "doppler",
        "vault",
        "circleci",
        "travis",
        "codecov",
        "snyk",
        "sonar",
        "sonarqube",
        "newrelic",
        "pagerduty",
        "algolia",
        "mapbox",
        "twitch",
        "dropbox",
        "zoom",
        "hubspot",
        "salesforce",
        "airtable",
        "asana",
        "figma",
        "replicate",
        "groq",
        "deepseek",
        "mistral",
        "cohere",
        "gemini",
        "nuget",
        "rubygems",
        "terraform",
        "tfc",
        "grafana",
        "elastic",
        "pinecone",
        "planetscale",
        "neon",
        "render",
        "fly",
        "railway",
        "browserstack",
        "sauce",
        "jfrog",
        "artifactory",
        "segment",
        "mixpanel",
        "amplitude",
        "intercom",
        "zendesk",
        "freshdesk",
        "aliyun",
        "alibaba",
        "tencent",
        "huawei",
        "baidu",
        "wechat",
        "weixin",
        "feishu",
        "lark",
        "dingtalk",
        "qiniu",
        "wecom",
    ]
)
"""Vendors whose tokens have one home: `$GITHUB_TOKEN` belongs at GitHub's API. Any
other prefix (`$ACME_TOKEN`, the organisation's own name) says nothing about where its
token belongs."""


def _misdirected_secret(arg: str, args: Sequence[str]) -> bool:
    """A secret variable named after a vendor (`$GITHUB_TOKEN`, `$STRIPE_SECRET_KEY`)
    sent to a host that is not that vendor's: a token goes to its own API in normal
    use (`-H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com`), to a
    paste site only when it leaks. A generic name (`$API_TOKEN`) or one that is not a
    known vendor's (`$ACME_TOKEN`: the organisation's own) says nothing."""
    hosts = [m.group(1).lower() for a in args for m in lex.URL.finditer(a)]
    if not hosts:
        return False
    for m in _VENDOR_SECRET_VAR.finditer(arg):
        vendor = m.group(1).lower()
        if vendor in _NOT_A_VENDOR or vendor not in _KNOWN_VENDORS:
            continue
        if not any(vendor in h for h in hosts) and foreign(hosts):
            return True
    return False


_DESTINATION_NAME = re.compile(r"(?i)(?:URL|URI|WEBHOOK|HOOK|ENDPOINT)\W*\Z")
_DATA_BEFORE = re.compile(
    r"(?:=|-d|--data[\w-]*|-F|--form[\w-]*|-H|--header|-T|--upload-file|-b|--cookie"
    r"|-u|--user|--body|-Body|-InFile|--post-data|--post-file)[\s\"'=]*\Z"
)


_AUTH_BEFORE = re.compile(
    r"(?i)(?:\bauthorization|\bx-api-key|\bapi-key|\bx-auth-token|\bprivate-token|\bx-access-token"
    r"|\bx-[\w-]*-token)[\"']?\s*[:=]\s*[\"']?(?:(?:bearer|token|basic|bot)\s+)?[\"']?\Z"
)
"""A header that authenticates the request, just before a secret variable."""


def _secret_var_as_data(text: str) -> bool:
    """A secret variable in the statement that is data, not the destination: a
    webhook's address kept as a CI secret (`curl -d '{"text":"failed"}'
    "${{ secrets.SLACK_WEBHOOK_URL }}"`) is where the message goes, not what it
    carries; the same variable after `-d`, in a header or in an assignment is data."""
    for m in lex.SECRET_VAR.finditer(text):
        if _AUTH_BEFORE.search(text, max(0, m.start() - 48), m.start()):
            continue  # the credential of the request (`-H "Authorization: Bearer $T"`)
        if not _DESTINATION_NAME.search(m.group(0)):
            return True
        if _DATA_BEFORE.search(text, max(0, m.start() - 24), m.start()):
            return True
    return False


_ORG_LABEL = re.compile(
    r"(?i)^(?:[\w-]+\.)*(?:corp|internal|intranet|intra|lan|office)\.[\w-]+\.[a-z]{2,}$"
)


def foreign(hosts: Sequence[str], *, org_own: bool = False) -> bool:
    """Whether any host is not the user's own (no host known: assume foreign).
    `org_own`: a host under an internal label of an organisation's domain
    (`backup.corp.example.com`) is the user's own too."""
    real = [h for h in hosts if h]
    if not real:
        return True
    return any(
        not lex.OWN_HOST.match(h.strip("[]")) and not (org_own and _ORG_LABEL.match(h))
        for h in real
    )


@lru_cache(maxsize=1)
def _tag_words() -> KeywordSet:
    """Gate words of every API pattern and of secret names (built once)."""
    words = [w for ws in lex.TAG_WORDS.values() for w in ws]
    gated = [w for _, ws, _ in lex.API_GATED for w in ws]
    return KeywordSet((*words, *gated, *lex.SECRET_WORDS))


@lru_cache(maxsize=1)
def _gate() -> KeywordSet:
    """The text-level gate words (built once, on first use)."""
    return KeywordSet(lex.GATE_KEYWORDS)


# memoized: the scanner asks for one text twice (`EffectsAnalyzer.analyze`, then
# `python_carriers`), and the answer is a pure function of the text; the last
# text only, as for `build_model`
@lru_cache(maxsize=1)
def may_fire(text: str) -> bool:
    """Whether any rule can fire on `text`: a sink-like word, a command name
    spliced from variables, or a tool call in JSON. One Aho-Corasick pass on
    most texts."""
    return bool(
        _gate().present(text.lower())
        or ("$" in text and _spliced_name(text))
        or ('"' in text and _TOOL_CALL.search(text))
        # a fenced block is code by its writer's word: its carriers' own keywords
        # decide (`_carrier_keywords`), not this list of sink words
        or ("```" in text and _FENCE_OPEN.search(text) is not None)
    )


_FENCE_OPEN = re.compile(r"(?m)^[ \t]{0,3}```[ \t]*[\w+#.-]{0,20}[ \t]*$")


@lru_cache(maxsize=1)
def _carrier_keywords() -> KeywordSet:
    """Words that make a carrier worth parsing (built once, on first use)."""
    return KeywordSet(lex.API_KEYWORDS + lex.GATE_KEYWORDS)


# Inert carriers. A prose line that passes the carrier gate on a weak word
# ("pipeline" holds "pipe") is parsed and walked only to yield statements without
# effects. Such statements change no hit and no flow (rules and flow read tags;
# without an assignment or a write nothing is passed on) except two ways: they
# count toward `MAX_STATEMENTS`, and a "together" hit of their group ends at the
# last statement of the group. So `build_model` first leaves out carriers that
# provably yield only such statements, and builds again with every carrier when
# a tagged statement shares a group with one left out or the statements could
# reach the cap.
#
# A carrier is inert when its text has no quote, substitution, redirect,
# grouping, assignment or escape (`_NOT_INERT`; separators `;&|` and newlines
# only split it into more statements, counted by `_stmt_bound`), no gate word
# of `text_effects` (secret names allowed in shell when no secret pattern
# matches: `_only_unmatched_secret_words`), no `/bin/`, no word `command_effects`
# or `_shell_command` treat apart (`_SPECIAL_NAMES`; `mkfs*` and `*.exe` refused outright) and no
# word `_PATHISH` takes for a path to run (`_PATH_WORD`), and it does not sniff
# as Python, PowerShell or awk (those paths read other markers). Then every
# shell command is an unknown tool with plain words, and every other language's
# line has no assignment and no string for a process sink. U+FEFF is whitespace
# to the grammar and not to `str.split`: refused, so words here are never coarser.
_NOT_INERT = re.compile(r"[$`'\"=<>(){}\[\]\\\ufeff]")
# `_PATHISH` on some whitespace-separated word, given no `$`, `%...%\` or `C:\`
_PATH_WORD = re.compile(
    r"(?:^|(?<=\s))(?:\.{0,2}/|~/)|\.(?:exe|sh|ps1|bat|cmd|vbs|hta|dll|msi|elf|bin|py|pl|rb|js)(?=\s|\Z)",
    re.IGNORECASE,
)
_RUN = re.compile(r"[\w.+-]+")
# A shell carrier's words as tree-sitter-bash reads them, at least as finely:
# outside ASCII, only whitespace ends a word (`Python。` and `使用，python` are one
# word each; tree-sitter does not split them at all), so a special name glued to
# such a mark is no command or argument `_base` or an exact comparison could
# name. Every special name is ASCII `[\w.+-]`: a word (or the last `/` part of
# one) that equals one is one of these runs. Other languages keep `_RUN`: their
# identifiers end at `。`.
_SHELL_RUN = re.compile(r"(?:[\w.+-]|[^\x00-\x7f\s])+")
_SPECIAL_NAMES = frozenset(
    {
        *lex.FETCHERS,
        *lex.INLINE_FLAGS,
        *lex.SHELLS,
        *lex.DUMPERS,
        # command_effects
        *("certutil", "bitsadmin", "start-bitstransfer", "mshta", "regsvr32", "rundll32"),
        *("msiexec", "cmstp", "installutil", "msbuild", "regasm", "regsvcs", "odbcconf"),
        *("wmic", "forfiles", "pcalua", "msxsl", "ieexec", "control"),
        *("iex", "invoke-expression", "source", ".", "eval", "exec"),
        *("start-process", "start", "saps", "invoke-item", "ii", "wscript", "cscript"),
        *("nc", "ncat", "netcat", "nc.traditional", "nc.openbsd", "telnet", "socat"),
        *("openssl", "busybox", "scp", "rsync", "sftp", "rclone", "lftp", "smbclient"),
        *("ftp", "pscp", "git", "aws", "gsutil", "az", "gcloud"),
        *("kubectl", "terraform", "tofu", "pulumi", "put", "mput", "reput"),
        *("mail", "mailx", "sendmail", "mutt", "send-mailmessage", "swaks"),
        *("new-inboxrule", "set-inboxrule", "set-mailbox", "new-transportrule"),
        *("msfvenom", "chmod", "ping", "dig", "nslookup", "host", "drill", "resolve-dnsname"),
        *("rm", "remove-item", "ri", "del", "erase", "rd", "rmdir", "shred", "srm", "wipe"),
        *("wipefs", "format-volume", "clear-disk", "diskpart", "format", "dd"),
        *("vssadmin", "wbadmin", "bcdedit", "cipher", "crontab", "schtasks", "reg"),
        *("useradd", "adduser", "net", "net1", "systemctl", "launchctl", "sc"),
        *("cat", "tac", "head", "tail", "less", "more", "xxd", "base64", "od", "hexdump"),
        *("type", "get-content", "gc", "strings", "tar", "zip", "7z", "gzip"),
        *("compress-archive", "find", "cp", "copy-item", "sqlite3"),
        *("unzip", "expand-archive", "bsdtar", "printf", "echo"),
        *("rev", "gunzip", "zcat", "uudecode", "hping3", "hping", "nping", "xterm"),
        *("mv", "copy", "cpi", "move", "move-item", "xcopy", "robocopy", "start-bitstransfer"),
        *("gh", "bw", "heroku", "doppler"),
        # shell arguments of the unknown-tool check
        *("cmd", "cmd.exe", "powershell", "powershell.exe"),
        # _shell_command: wrappers and nested scripts
        *("sudo", "doas", "nohup", "time", "nice", "timeout", "stdbuf", "xargs", "command"),
        *("env", "setsid", "toybox", "pwsh", "awk", "gawk", "mawk", "nawk", "ssh"),
    }
)


def _inert(text: str, lang: str) -> bool:
    """Whether a top-level carrier yields only statements without effects (see above)."""
    if lang in ("python", "powershell", "awk") or _NOT_INERT.search(text):
        return False
    low = text.lower()
    if "/bin/" in low or "mkfs" in low or ".exe" in low:
        return False
    words = _tag_words().present(low)
    if words and not _only_unmatched_secret_words(text, lang, words):
        return False
    # (on ASCII text both read the same words; `_RUN` is the cheaper)
    run = _SHELL_RUN if lang == "shell" and not low.isascii() else _RUN
    if not _SPECIAL_NAMES.isdisjoint(run.findall(low)) or _PATH_WORD.search(text):
        return False
    return parser_for("shell") is not None


@lru_cache(maxsize=1)
def _api_words() -> frozenset[str]:
    return frozenset(
        [w for ws in lex.TAG_WORDS.values() for w in ws]
        + [w for _, ws, _ in lex.API_GATED for w in ws]
    )


def _only_unmatched_secret_words(text: str, lang: str, words: frozenset[str]) -> bool:
    """A shell carrier whose gate words are secret names only (`token`, `_pat` in
    `_path`), none of the secret patterns matching its text: `text_effects` looks
    for no API pattern in its statements and finds no secret. A statement is a
    slice of the carrier cut at whitespace or `;&|` (no quote, `$` or bracket
    here), where the patterns' word boundaries and lookarounds see what they see
    in the whole text, so a match in a statement is a match in the carrier."""
    if lang != "shell" or len(text) > 20_000 or not words.isdisjoint(_api_words()):
        return False
    return not (
        _has_match(lex.SECRET_API, lex.SECRET_API_LITERALS, text)
        or lex.SECRET_VAR.search(text)
        or _reads_secret_path(text)
    )


@lru_cache(maxsize=1)
def build_model(text: str) -> _Model:
    """Carriers, statements and flow of one text. Memoized for the last text only:
    the scanner asks for the same text twice in a row (the analyzer, then its
    Python pieces); a larger memo would make a benchmark's repeated inputs free
    and keep memory texts in a module-level cache."""
    carriers = extract(text[:MAX_TEXT])
    model = _build(text, carriers, skip_inert=True)
    if model.inert_groups:
        tagged = {s.group for s in model.stmts if s.tags}
        if model.inert_bound + len(model.stmts) >= MAX_STATEMENTS or (tagged & model.inert_groups):
            model = _build(text, carriers, skip_inert=False)
    return model


def _uses(text: str, names: set[str]) -> bool:
    """Whether `text` names one of `names` as a whole word."""
    return bool(names) and any(
        n in text and re.search(r"(?<![\w$])\$?\{?" + re.escape(n) + r"\b", text) for n in names
    )


def _build(text: str, carriers: Sequence[Carrier], *, skip_inert: bool) -> _Model:
    model = _Model()
    full = _carrier_keywords()
    # names of files written into a directory on PATH: a carrier that runs one by
    # its bare name holds no keyword of its own
    bins = {m.group(1).lower() for m in _BIN_WRITE.finditer(text)} if "bin/" in text else set()
    flowing: set[str] = set()
    """Names assigned by a statement with a flowing effect so far: a line that uses
    one (`load(body)()`, `s.write(key)`) is analyzed even without a keyword."""
    for carrier in carriers:
        low = carrier.text.lower()
        runs_bin = bool(bins) and _first_word(low) in bins
        by_flow = False
        if not runs_bin and not full.present(low):
            if not _uses(carrier.text, flowing):
                continue
            by_flow = True
        seen = len(model.stmts)
        if is_placeholder_doc(carrier.text):
            carrier = Carrier(
                carrier.start, carrier.text, carrier.language, carrier.group, True, carrier.verbatim
            )
        try:
            lang = sniff(carrier.text, carrier.language)
            if skip_inert and not runs_bin and _inert(carrier.text, lang):
                model.inert_groups.add(carrier.group)
                model.inert_bound += _stmt_bound(carrier.text)
                continue
            if by_flow and lang in ("shell", "python"):
                # a call with no keyword, kept for the value it uses: what another
                # language's line fetched or read (`load(body)()` after a download)
                _code(carrier, "code", carrier.text, carrier.start, 0, model)
            else:
                _analyze_carrier(carrier, model, 0, lang=lang)
                if lang == "python" and _uses(carrier.text, flowing):
                    _code(carrier, "code", carrier.text, carrier.start, 0, model)
        except (RecursionError, ValueError, UnicodeError, IndexError):
            continue
        for stmt in model.stmts[seen:]:
            if not stmt.assigns and " = " in stmt.text and (m := _ASSIGN.match(stmt.text)):
                # `client = server.accept` on a line of its own parses as a shell
                # command; its assignment still carries what it uses
                stmt.assigns.append(m.group(1))
            if (
                stmt.assigns
                and len(flowing) < 64
                and (stmt.tags & _FLOW_TAGS or _uses(stmt.text, flowing))
            ):
                flowing.update(stmt.assigns)
        if len(model.stmts) >= MAX_STATEMENTS:
            break
    _tool_calls(text[:MAX_TEXT], model)
    if " = " in text:
        for stmt in model.stmts:
            if not stmt.mention and stmt.tags and inert_literal(text, stmt.start):
                stmt.mention = True  # `SAMPLE = "…"` used only as data: a fixture
    if "withCredentials" in text:
        _bound_credentials(text, model)
    if "createElement" in text and _SCRIPT_ELEMENT.search(text):
        # a script element given a remote src runs what the URL serves
        for stmt in model.stmts:
            if _SCRIPT_SRC.search(stmt.text):
                stmt.tags.update({"fetch", "exec"})
                stmt.notes.append("a script element loads remote code")
    _flow(model)
    for stmt in model.stmts:
        if (
            stmt.tags & {"fetch", "lolbin_fetch"}
            and foreign(stmt.hosts)
            and any(_PAYLOAD_FILE.search(w) for w in stmt.writes)
        ):
            stmt.tags.add("payload_drop")
    return model


_CRED_BINDING = re.compile(
    r"\b(?:variable|usernameVariable|passwordVariable|keyFileVariable|passphraseVariable|tokenVariable)"
    r"\s*:\s*['\"]([A-Za-z_]\w{0,40})['\"]"
)


def _bound_credentials(text: str, model: _Model) -> None:
    """Jenkins `withCredentials` binds a credential to a variable: a statement
    that uses the variable holds the secret."""
    names = set(_CRED_BINDING.findall(text[:MAX_TEXT]))
    if not names:
        return
    used = re.compile(r"\$\{?(?:env\.)?(?:" + "|".join(map(re.escape, sorted(names))) + r")\b")
    for stmt in model.stmts:
        if used.search(stmt.text):
            stmt.tags.add("secret")


_PAYLOAD_FILE = re.compile(
    r"\.(?:exe|dll|scr|sct|hta|msi|ps1|psm1|vbs|vbe|jse?|wsf|bat|cmd|jar|lnk|inf|xsl|cpl|ocx|sys)$",
    re.IGNORECASE,
)


_TOOL_CALL = re.compile(
    r'"(?:tool|name|function|action|tool_name)"\s*:\s*"[\w.-]{0,30}(?:post|send|upload|webhook|e?mail|http|forward)[\w.-]{0,30}"',
    re.IGNORECASE,
)
_SENSITIVE_BODY = re.compile(
    r"(?i)conversation|memor(?:y|ies)|chat history|transcript|credentials?|api[ _-]?keys?"
    r"|passwords?|secrets?|tokens?"
    r"|private key|cookies?|对话|记忆|聊天记录|密码|密钥|凭据|令牌"
)


def _tool_calls(text: str, model: _Model) -> None:
    """A tool call in JSON that posts the conversation or credentials somewhere."""
    if '"' not in text:
        return
    for m in _TOOL_CALL.finditer(text):
        window = text[m.start() : m.start() + 1500]
        if not _SENSITIVE_BODY.search(window):
            continue
        stmt = Stmt(m.start(), min(len(text), m.start() + len(window)), -1, False, text=window)
        stmt.tags.update({"send", "secret"})
        stmt.hosts.extend(h.group(1).lower() for h in lex.URL.finditer(window))
        stmt.notes.append("tool call sends sensitive data")
        model.stmts.append(stmt)


# --- rules ----------------------------------------------------------------------

Level = tuple[Severity, float] | None


@dataclass(frozen=True, slots=True)
class _Spec:
    rule: Rule
    kind: str
    sink: frozenset[str]
    sources: frozenset[str]
    need: tuple[frozenset[str], ...]
    unless: frozenset[str]
    foreign: bool
    mention: Level
    org_own: bool = False
    """Hosts under an organisation's internal name (`git.corp.example.com`) count
    as the user's own: for local data, not for secrets."""


def _level(raw: object, default: Level) -> Level:
    if isinstance(raw, list | tuple) and len(raw) == 2:
        if raw[0] == "none":
            return None
        return (_SEVERITIES[str(raw[0])], float(raw[1]))
    return default


def _set(p: Mapping[str, Any], key: str) -> frozenset[str]:
    v = p.get(key, ())
    return frozenset([v] if isinstance(v, str) else v)


class EffectsAnalyzer:
    """Runs once per scanned text (the scanner passes the whole layer)."""

    whole_text = True

    def __init__(self, rules: Sequence[Rule]) -> None:
        self._specs = [
            _Spec(
                rule=r,
                kind=str(r.params.get("kind", "effect")),
                sink=_set(r.params, "sink"),
                sources=_set(r.params, "sources"),
                need=tuple(frozenset(x) for x in r.params.get("need", ())),
                unless=_set(r.params, "unless"),
                foreign=bool(r.params.get("foreign", False)),
                org_own=bool(r.params.get("org_own", False)),
                mention=_level(r.params.get("mention"), None),
            )
            for r in rules
        ]

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> list[Hit]:
        text = chunk.text
        try:
            if not may_fire(text):
                return []
            model = build_model(text)
            return self._hits(model)
        except (RecursionError, MemoryError, ValueError):
            return []

    def _hits(self, model: _Model) -> list[Hit]:
        out: list[Hit] = []
        for spec in self._specs:
            count = 0
            seen: set[tuple[int, int]] = set()
            for start, end, mention, note in self._matches(spec, model):
                if (start, end) in seen:
                    continue
                seen.add((start, end))
                if mention:
                    if spec.mention is None:
                        continue
                    out.append(
                        Hit(
                            spec.rule.id,
                            start,
                            end,
                            severity=spec.mention[0],
                            confidence=spec.mention[1],
                            note=f"mention: {note}",
                        )
                    )
                else:
                    out.append(Hit(spec.rule.id, start, end, note=note))
                count += 1
                if count >= MAX_HITS_PER_RULE:
                    break
        return out

    @staticmethod
    def _needs_met(spec: _Spec, stmts: Sequence[Stmt]) -> bool:
        tags: set[str] = set()
        for s in stmts:
            tags |= s.tags
        return bool(spec.need) and all(tags & need for need in spec.need) and not tags & spec.unless

    def _matches(self, spec: _Spec, model: _Model) -> list[tuple[int, int, bool, str]]:
        found: list[tuple[int, int, bool, str]] = []
        if spec.kind == "flow":
            for s in model.stmts:
                if not s.tags & spec.sink or s.tags & spec.unless:
                    continue
                origin = (s.tags | s.inherited) & spec.sources
                if not origin:
                    continue
                if spec.foreign and not foreign(s.hosts, org_own=spec.org_own):
                    continue
                found.append((s.start, s.end, s.mention, _note(s, origin)))
        elif spec.kind == "effect":
            for s in model.stmts:
                if s.tags & spec.sink and not s.tags & spec.unless:
                    mention = s.mention or _is_lookup(s.text)
                    found.append((s.start, s.end, mention, _note(s, s.tags & spec.sink)))
        elif spec.kind == "together":
            groups: dict[int, list[Stmt]] = {}
            for s in model.stmts:
                groups.setdefault(s.group, []).append(s)
            for stmts in groups.values():
                used = [s for s in stmts if not s.mention and not _is_lookup(s.text)]
                mention = not self._needs_met(spec, used)
                if mention and not self._needs_met(spec, stmts):
                    continue
                pool = stmts if mention else used
                tags: set[str] = set()
                for s in pool:
                    tags |= s.tags
                wanted = frozenset().union(*spec.need)
                first = next(s for s in pool if s.tags & wanted)
                last = max(s.end for s in pool)
                found.append(
                    (
                        first.start,
                        min(last, first.start + 4000),
                        mention,
                        "effects: " + "+".join(sorted(wanted & tags)),
                    )
                )
        return found


_LOOKUP = re.compile(
    r"^\s*(?:tldr|man|which|whatis|apropos|help|info|type|whereis|Get-Help)\s+\S+\s*$|^\s*[\w.-]+\s*$",
    re.I,
)


def _is_lookup(text: str) -> bool:
    """A bare tool name or a documentation lookup (`tldr x`, `man x`): it names
    the tool, it does not run it on anything."""
    return len(text) < 120 and _LOOKUP.match(text) is not None


def _note(s: Stmt, tags: set[str] | frozenset[str]) -> str:
    extra = f"; {s.notes[0]}" if s.notes else ""
    return "effects: " + "+".join(sorted(tags)) + extra


def python_carriers(text: str) -> list[Carrier]:
    """Python pieces found inside other carriers (`python -c`, heredocs, fences
    without a tag), for the scanner to route to the Python analyzer."""
    try:
        if "python" not in text.lower() and "import " not in text:
            return []
        if not may_fire(text):
            # prose that names Python: the model would be built only for this
            # list, so find its Python pieces without analyzing every carrier
            found = _python_pieces(text)
            if found is not None:
                return found
        return [c for c in build_model(text).python if not c.verbatim or c.language is None]
    except (RecursionError, MemoryError, ValueError):
        return []


# Characters at which one whitespace-free run of a carrier can hold a second
# statement (operators, quotes, substitutions, grouping): with the run count,
# a bound on the statements any parse of the carrier yields.
_STMT_BREAKS = ";&|()`{}<>\n$'\"="


# A word that unquotes to `-c` (`-c`, `"-c"`, `-'c'`): not the `-c` of "on-call"
_INLINE_C = re.compile(r"(?<![\w-])['\"$]*-['\"]*c(?![\w-])")


# Text-level form of `has_python_hint`: a carrier is a slice of the text, or
# slices joined by spaces and quotes (inline code cut out, JSON exec arrays),
# or unescaped (a backslash in the text), so a carrier's marker shows here
# without its anchors
# without its anchors. One automaton pass for the words, then a look at what
# follows each (a regex alternation without a literal head costs ~100 µs on
# 2 KB of prose).
_PY_WORDS = (
    "def",
    "class",
    "import",
    "self.",
    "True",
    "False",
    "None",
    *(
        f"{m}."
        for m in [
            "os",
            "sys",
            "subprocess",
            "pickle",
            "marshal",
            "yaml",
            "hashlib",
            "random",
            "shutil",
            "requests",
            "ssl",
        ]
    ),
)
_PY_KEYWORDS = frozenset({"def", "class", "import"})
_CALL_TAIL = re.compile(r"\w+\(")


@lru_cache(maxsize=1)
def _py_automaton() -> AhoCorasick:
    return AhoCorasick(list(_PY_WORDS), matchkind=MatchKind.Standard)


def _python_marker(text: str) -> bool:
    """Whether a carrier of `text` could hold a `has_python_hint` marker: a
    keyword followed by whitespace or a quote, `self.`, True / False / None, or
    a call into a standard module (`os.system(`)."""
    try:
        found = _py_automaton().find_matches_as_indexes(text, overlapping=True)
    except UnicodeError:
        return True  # lone surrogates: let the full path decide
    for index, _start, end in found:
        word = _PY_WORDS[index]
        if word in _PY_KEYWORDS:
            nxt = text[end : end + 1]
            if nxt and (nxt.isspace() or nxt in "\"'`"):
                return True
        elif word.endswith(".") and word != "self.":
            if _CALL_TAIL.match(text, end):
                return True
        else:
            return True
    return False


def _stmt_bound(text: str) -> int:
    return len(text.split()) + sum(map(text.count, _STMT_BREAKS)) + 1


def _python_pieces(text: str) -> list[Carrier] | None:
    """What `build_model(text).python` would hold, filtered as `python_carriers`
    returns it, without parsing: or None when only the full model can tell.

    A top-level carrier lands there when it passes the carrier gate and sniffs as
    Python; a nested one only from a shell command `python* -c` or a heredoc
    (`<<`), possibly escaped (`\\`). A carrier with none of those cannot add
    one. The model stops at `MAX_STATEMENTS`, so texts that might reach it take
    the full path."""
    low = text.lower()
    if (
        "\\" not in text
        and not _python_marker(text)
        and not ("python" in low and ("<<" in low or _INLINE_C.search(low)))
    ):
        return []  # no piece can sniff as Python, none can start it: no extraction
    carriers = extract(text[:MAX_TEXT])
    if sum(_stmt_bound(c.text) for c in carriers) >= MAX_STATEMENTS:
        return None
    full = _carrier_keywords()
    out: list[Carrier] = []
    for carrier in carriers:
        low = carrier.text.lower()
        if not full.present(low):
            continue
        if ("python" in low and ("<<" in low or _INLINE_C.search(low))) or "\\" in low:
            return None
        if carrier.verbatim and carrier.language is not None:
            continue  # a tagged fence: the Python analyzer reads it as a chunk
        if not has_python_hint(carrier.text[:4000]):
            continue  # sniff() says "python" only with a Python marker
        if sniff(carrier.text, carrier.language) != "python":
            continue
        if is_placeholder_doc(carrier.text):
            carrier = Carrier(
                carrier.start, carrier.text, carrier.language, carrier.group, True, carrier.verbatim
            )
        out.append(carrier)
    return out
