"""Python facts for the code detectors: parse (tolerating prose around code),
resolve import aliases the way bandit does, fold obfuscated constant strings,
and follow simple intra-chunk taint from outside input to each call.

`python_facts(text)` is pure and memoized on the text: the python_ast and exfil
detectors both read the same facts for a chunk.

Taint is a bit set on every value:

- `LOCAL`: unknown local data (a config value, a file read, a function result).
- `EXT`: input from outside (request, argv, stdin, socket, chat message, URL).
- `SENS`: sensitive content (credential files, the whole environment).
- `DECODED`: passed through base64 / zlib / rot13 / hex decoding.
- `FETCHED`: downloaded over the network.
- `ENV`: the whole process environment.
- `FILE`: read from a local file, database or store (with `LOCAL` too when the
  path is not a literal: `open("version.py")` is `FILE` alone).

A value with no bit set is derived from literals only.
"""

from __future__ import annotations

import ast
import base64
import binascii
import codecs
import re
import warnings
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from typing import cast

from memgate.scanning._code_lang import has_any

LOCAL = 1
EXT = 2
SENS = 4
DECODED = 8
FETCHED = 16
ENV = 32
FILE = 64

MAX_PARSE_CHARS = 200_000
MAX_RETRIES = 12
MAX_FOLD = 4096
MAX_DEPTH = 60

SENSITIVE_PATH = re.compile(
    r"(?i)(?:^|[\s'\"/=@:({\[])(?:~/|\$HOME/|\$\{HOME\}/|/root/|/home/\w+/)?"
    r"(?:\.env(?:\.\w+)?\b|\.ssh(?:/|\b)|id_(?:rsa|dsa|ecdsa|ed25519)\b|\.aws(?:/credentials)?\b"
    r"|\.git-credentials\b|\.netrc\b|\.npmrc\b|\.pypirc\b|\.kube/config\b|kubeconfig\b"
    r"|\.docker/config\.json|\.bash_history\b|\.zsh_history\b|\.gnupg\b|\.config/gh\b"
    r"|/etc/(?:passwd|shadow|sudoers)\b|credentials\.json\b|\.pgpass\b"
    r"|\.password-store\b|keychains?\b|\.keychain\b|login data\b|cookies\.sqlite\b"
    r"|(?<=[/\\])cookies\b"
    r"|local state\b|places\.sqlite\b|logins\.json\b|key[34]\.db\b|\.mozilla/firefox\b"
    r"|google/chrome\b|history\.db\b|wallet\.dat\b|\.electrum\b|\.config/gcloud\b"
    r"|\.azure\b|\.terraform\.d/credentials|\.vault-token\b|\.htpasswd\b|\.my\.cnf\b"
    r"|(?:id_\w+|private|server|client|tls)\.(?:pem|key)\b|\*\.(?:pem|key)\b|\.p12\b|\.pfx\b)"
)
"""Paths whose contents are credentials or personal history (shared with exfil)."""

# Every alternative of SENSITIVE_PATH holds one of these (lowercased).
_SENSITIVE_NEEDLES = (
    *(".env", ".ssh", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519", ".aws", ".netrc"),
    *(".git-credentials", ".npmrc", ".pypirc", ".kube/config", "kubeconfig", ".gnupg"),
    *(".docker/config.json", "_history", ".config/gh", "/etc/passwd", "/etc/shadow"),
    *("credentials.json", ".pgpass", "/etc/sudoers", ".password-store", "keychain"),
    *("login data", "cookies", "local state", "places.sqlite", "logins.json", "key3.db"),
    *("key4.db", ".mozilla/firefox", "google/chrome", "history.db", "wallet.dat"),
    *(".electrum", ".config/gcloud", ".azure", ".terraform.d/credentials", ".vault-token"),
    *(".htpasswd", ".my.cnf", ".pem", ".key", ".p12", ".pfx"),
)
# Names through which a callee or attribute name can be computed rather than written.
INDIRECT_NAMES = (
    *("getattr", "__import__", "import_module", "globals", "vars", "locals"),
    *("__builtins__", "__globals__"),
)
# Adjacent string literals are joined by the parser (`'~/.s' 'sh'`).
_ADJACENT_LITERALS = re.compile(r"""['"]\s*[rRbBuUfF]{0,2}['"]""")


def may_carry_sensitive(text: str) -> bool:
    """Whether `python_facts(text)` may give some value the `SENS` or `ENV` bit: false
    only when the text holds no credential path, no `environ`, no escape sequence, no
    adjacent string literals and no computed name (a cheap gate before parsing)."""
    if "\\" in text or has_any(text, INDIRECT_NAMES):
        return True
    lower = text.lower()
    if "environ" in lower or has_any(lower, _SENSITIVE_NEEDLES):
        return True
    return _ADJACENT_LITERALS.search(text) is not None


_SECRETISH = re.compile(r"(?i)key|token|secret|passw|pwd|cred|auth")

# Names that hold outside input when they are not assigned in the chunk.
EXTERNAL_NAMES = frozenset(
    {
        "request",
        "req",
        "msg",
        "message",
        "user_input",
        "userinput",
        "payload",
        "upload",
        "user_message",
        "chat_message",
        "incoming",
        "untrusted",
        "query_params",
        "form_data",
    }
)
_HANDLER_NAME = re.compile(
    r"(?i)handler|handle_|^on_|webhook|endpoint|view$|^api_|callback|lambda_handler|route"
)
_HANDLER_DECORATOR = re.compile(
    r"(?i)\.(?:route|get|post|put|patch|delete|websocket|message|command|event|on|handler)$|^(?:route|on|command|event)$"
)
_NETWORKISH = re.compile(r"(?i)redis|client|conn|sock|http|remote|peer|queue|kafka|mq|ws\b|channel")

SOURCE_CALLS = frozenset(
    {
        "input",
        "raw_input",
        "sys.stdin.read",
        "sys.stdin.readline",
        "sys.stdin.readlines",
        "os.getenv",
        "os.environ.get",
        "flask.request.get_json",
        "request.get_json",
        "fileinput.input",
    }
)
FETCH_PREFIXES = (
    "requests.",
    "httpx.",
    "urllib.request.urlopen",
    "urllib.request.urlretrieve",
    "urllib.urlretrieve",
    "wget.download",
    "urllib.urlopen",
    "urllib2.urlopen",
    "urlopen",
    "aiohttp.",
    "http.client.",
    "urllib3.",
    "pycurl.",
)
RECV_METHODS = frozenset({"recv", "recvfrom", "recv_into", "recvmsg", "makefile"})
NET_GET_METHODS = frozenset(
    {
        "get",
        "recv",
        "read",
        "fetch",
        "hget",
        "lpop",
        "rpop",
        "brpop",
        "blpop",
        "receive",
        "getvalue",
    }
)
DECODE_CALLS = frozenset(
    {
        "base64.b64decode",
        "base64.b32decode",
        "base64.b16decode",
        "base64.a85decode",
        "base64.b85decode",
        "base64.urlsafe_b64decode",
        "base64.standard_b64decode",
        "base64.decodebytes",
        "base64.decodestring",
        "zlib.decompress",
        "gzip.decompress",
        "bz2.decompress",
        "lzma.decompress",
        "codecs.decode",
        "binascii.unhexlify",
        "binascii.a2b_hex",
        "binascii.a2b_base64",
        "bytes.fromhex",
        "marshal.loads",
    }
)
PURE_CALLS = frozenset(
    {
        "str",
        "int",
        "float",
        "bool",
        "bytes",
        "len",
        "repr",
        "list",
        "tuple",
        "dict",
        "set",
        "sorted",
        "reversed",
        "format",
        "range",
        "min",
        "max",
        "sum",
        "abs",
        "round",
        "chr",
        "ord",
        "print",
        "pickle.dumps",
        "json.dumps",
        "json.loads",
        "marshal.dumps",
        "enumerate",
        "zip",
        "map",
        "filter",
        "hex",
        "bin",
        "oct",
        "isinstance",
        "type",
        "id",
        "hash",
    }
)
BUILTIN_NAMES = frozenset(
    PURE_CALLS
    | {
        "eval",
        "exec",
        "compile",
        "open",
        "getattr",
        "setattr",
        "globals",
        "locals",
        "vars",
        "__import__",
        "object",
        "super",
        "True",
        "False",
        "None",
        "Exception",
        "ValueError",
        "KeyError",
        "TypeError",
        "any",
        "all",
        "iter",
        "next",
        "callable",
        "frozenset",
        "bytearray",
        "memoryview",
        "slice",
        "property",
        "staticmethod",
        "classmethod",
        "NotImplemented",
        "__name__",
        "__file__",
    }
)
_ENV_ATTRS = ("os.environ", "os.environb")
_OPEN_CALLS = frozenset({"open", "io.open", "codecs.open", "builtins.open", "os.open"})
_PATH_CTORS = frozenset({"pathlib.Path", "Path", "pathlib.PurePath", "pathlib.PosixPath"})
_READ_METHODS = frozenset({"read_text", "read_bytes", "read", "readlines", "readline", "open"})
_PATH_CALLS = frozenset(
    {
        *("os.path.expanduser", "os.path.expandvars", "os.path.abspath", "os.path.normpath"),
        *("os.path.realpath", "str", "pathlib.Path", "Path", "pathlib.PurePath", "os.fsencode"),
        *("pathlib.Path.expanduser", "Path.expanduser"),
    }
)
_DROP_DIR = re.compile(
    r"(?i)(?:^|[/\\])(?:uploads?|incoming|inbox|attachments?|downloads?|received|user_?files|"
    r"submissions?|dropbox|spool)(?:[/\\]|$)"
)
_LISTING_CALLS = frozenset(
    {"glob.glob", "glob.iglob", "os.listdir", "os.scandir", "pathlib.Path.glob", "Path.glob"}
)
_WALK_CALLS = frozenset({"os.walk", "os.fwalk"})
_TREE_METHODS = frozenset({"rglob", "glob", "iterdir", "walk"})
# Methods whose receiver's folded path matters (`Path("~/.bashrc").write_text`).
_CONST_RECEIVER_METHODS = frozenset(
    {"write_text", "write_bytes", "write", "open", "unlink", "rmdir", "touch", "symlink_to"}
)
_MUTATORS = frozenset(
    {
        *("attach", "add_attachment", "set_content", "set_payload", "append", "extend"),
        *("update", "add", "write", "writestr", "insert", "put"),
    }
)
_HOME_CALLS = frozenset({"pathlib.Path.home", "Path.home", "os.path.expanduser"})
# Reading these hands over a credential (clipboard, keyring, browser cookies, passwords).
SECRET_CALLS = frozenset(
    {
        *("pyperclip.paste", "keyring.get_password", "keyring.get_credential", "getpass.getpass"),
        *("win32clipboard.GetClipboardData", "clipboard.paste", "pyclip.paste"),
        *("win32crypt.CryptUnprotectData", "ImageGrab.grab", "PIL.ImageGrab.grab"),
        *("PIL.ImageGrab.grabclipboard", "pyautogui.screenshot"),
    }
)
SECRET_PREFIXES = ("browser_cookie3.", "keyring.get_", "secretstorage.")
SECRET_METHODS = frozenset({"clipboard_get", "get_secret", "GetClipboardData", "get_cookies"})
_DUMP_METHODS = frozenset(
    {
        *("search", "all", "dump", "export", "list", "find", "get_all", "items", "scan"),
        *("fetchall", "iterdump", "values", "list_memories", "export_all", "dump_all"),
    }
)
_STOREISH = re.compile(r"(?i)memor|store|vault|history|\bdb\b|database|cursor|cur\b|conn\b")


@dataclass(frozen=True, slots=True)
class CallFact:
    """One call site, with what flows into it."""

    qual: str
    """Alias-resolved qualified name (`os.system`), or the dotted text when unresolved."""
    start: int
    end: int
    args: tuple[int, ...]
    """Taint bits of each positional argument."""
    literal: tuple[bool, ...]
    """Whether each positional argument is a plain literal (or folds to one)."""
    arg_kinds: tuple[str, ...]
    """Shape of each positional argument: literal, concat, fstring, format, name, other."""
    keywords: dict[str, int]
    """Taint bits per keyword argument (`**kw` under the key `**`)."""
    keyword_quals: dict[str, str]
    """Qualified name or folded string of each keyword value, when known."""
    truthy: frozenset[str]
    """Keywords given a literal true value (`shell=True`)."""
    obfuscated_name: bool
    """The callee's name was assembled (concatenation, chr(), reversal, rot13, ...)."""
    obfuscated_arg: bool
    """The first argument is assembled or decoded from an encoded literal."""
    arg_names: tuple[str | None, ...] = ()
    """Per positional argument: the qualified name of a name / attribute / call
    (`ssl.PROTOCOL_SSLv2`, `paramiko.AutoAddPolicy`) or a short string literal."""
    approx: bool = False
    """Found by the token fallback, not the parser."""
    quoted: bool = False
    """Inside an inline `code span` of a prose line: code being discussed, not run."""
    arg_consts: tuple[str | None, ...] = ()
    """Per positional argument: its folded string value (a list or tuple of strings
    joined by spaces: `["/bin/sh", "-i"]` is `/bin/sh -i`), or None."""
    receiver: str | None = None
    """For a method call: the qualified name of the call that made the receiver
    (`s.sendall` on `s = socket.socket()` has `socket.socket`)."""
    receiver_taint: int = 0
    """For a method call: the taint bits of the receiver."""
    receiver_const: str | None = None
    """For a method call: the receiver's folded string (`Path("~/.bashrc").write_text`)."""

    @property
    def all_taint(self) -> int:
        bits = 0
        for b in self.args:
            bits |= b
        for b in self.keywords.values():
            bits |= b
        return bits


@dataclass(frozen=True, slots=True)
class AttrFact:
    name: str
    start: int
    end: int


@dataclass(slots=True)
class PyFacts:
    calls: list[CallFact] = field(default_factory=list)
    attrs: list[AttrFact] = field(default_factory=list)
    imports: set[str] = field(default_factory=set)
    parsed: bool = False
    leftover: list[tuple[int, str]] = field(default_factory=list)
    """(offset, line) of lines the parser could not use, for the token fallback."""


@dataclass(slots=True)
class _Val:
    taint: int = 0
    const: str | None = None
    qual: str | None = None
    obf: int = 0
    """0 written, 1 assembled from literal pieces, 2 encoded (chr, reversed, decoded)."""
    ctor: str | None = None
    """Qualified name of the call that made the value (`socket.socket`, `tarfile.open`)."""


# Fields of expression nodes that never hold a node worth a visit: names, flags,
# contexts and operators (a constant's value is not visited either).
_LEAF_FIELDS = frozenset(
    {"ctx", "op", "ops", "id", "attr", "arg", "kind", "conversion", "is_async", "type_comment"}
)
_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of an expression node class that may hold child nodes."""
    fields = _CHILD_FIELDS.get(cls)
    if fields is None:
        fields = tuple(f for f in getattr(cls, "_fields", ()) if f not in _LEAF_FIELDS)
        _CHILD_FIELDS[cls] = fields
    return fields


class _Lines:
    """Maps (lineno, utf-8 column) of the parsed text back to chunk offsets."""

    def __init__(self, starts: list[int], shifts: list[int], lines: list[str]) -> None:
        self.starts = starts
        self.shifts = shifts
        self.lines = lines

    def offset(self, lineno: int, col: int) -> int:
        i = max(0, min(lineno - 1, len(self.starts) - 1))
        line = self.lines[i]
        if line.isascii():
            chars = min(col, len(line))
        else:
            chars = len(line.encode("utf-8", "surrogatepass")[:col].decode("utf-8", "ignore"))
        return self.starts[i] + self.shifts[i] + chars


_PROMPT = re.compile(r"^(?:>>> |\.\.\. |>>>$)")
_PROSE_LINE = re.compile(r"^[^\W\d_][\w'’,-]*(?: +[\w'’,.()/-]+){2,}[.!?:：。]?\s*$")
_CODE_START = re.compile(
    r"^\s*(?:import|from|def|class|if|elif|else|for|while|with|try|except|finally|return|"
    r"async|await|raise|assert|del|global|nonlocal|pass|break|continue|lambda|yield|@)\b"
)
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")
_FENCE = re.compile(r"^\s*(?:```|~~~)")


def _prepare(text: str, strict: bool) -> tuple[list[str], list[int], list[int]]:
    """Lines to parse (prose blanked, prompts stripped), their offsets and shifts.

    With `strict`, only lines that read as Python statements are kept (plus the
    continuation lines of an open bracket or an indented block), so that prose
    around code costs one parse, not one retry per prose line.
    """
    lines = text.split("\n")
    starts: list[int] = []
    shifts: list[int] = []
    out: list[str] = []
    pos = 0
    depth = 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
        shift = 0
        m = _PROMPT.match(line)
        if m:
            shift = m.end()
            line = line[shift:]
        stripped = line.strip()
        keep = bool(stripped) and not _FENCE.match(line)
        if keep and depth <= 0 and not _CODE_START.match(line):
            keep = not _is_prose(line, stripped, strict)
        if keep:
            depth = max(0, depth + _bracket_delta(line))
        else:
            line = ""
        out.append(line)
        shifts.append(shift)
    return out, starts, shifts


_PY_STATEMENT = re.compile(
    r"""^(?:[\w.]+(?:\[[^\]\n]{0,80}\])*(?:\s*,\s*[\w.]+){0,6}\s*(?:[-+*/%|&^]|//|\*\*|>>|<<)?=(?!=)"""
    r"""|[\w.]+(?:\[[^\]\n]{0,80}\])*\s*\(|[)\]}]|["'#]|[\w.]+\s*$|\([^\n]{1,200}\)\.\w+\()"""
)


def _is_prose(line: str, stripped: str, strict: bool) -> bool:
    if _CJK.search(line) and not re.search(r"""['"#]""", line):
        return True
    if _PROSE_LINE.match(stripped) and not re.search(r"[=(\[{]", stripped):
        return True
    return strict and not (line[:1] in (" ", "\t") or _PY_STATEMENT.match(line))


def _bracket_delta(line: str) -> int:
    c = line.count
    return c("(") + c("[") + c("{") - c(")") - c("]") - c("}")


_HEADER_LINE = re.compile(r"on line (\d+)")


def _parse(lines: list[str], shifts: list[int], leftover: list[int]) -> ast.Module | None:
    """Parse, blanking the offending line and dedenting orphaned blocks on each
    error, a bounded number of times."""
    for _ in range(MAX_RETRIES):
        try:
            with warnings.catch_warnings():
                # NOTE: `"\("` in pasted code is a SyntaxWarning, an error under -W error
                warnings.simplefilter("ignore", SyntaxWarning)
                return ast.parse("\n".join(lines))
        except SyntaxError as exc:  # IndentationError included
            i = (exc.lineno or 1) - 1
            msg = str(exc.msg)
            if isinstance(exc, IndentationError):
                if "unexpected indent" in msg and 0 <= i < len(lines) and lines[i]:
                    _dedent_block(lines, shifts, i)
                    continue
                if "expected an indented block" in msg:
                    # The header's body was blanked (or never written): drop the
                    # header, not the statement after it.
                    header = _HEADER_LINE.search(msg)
                    h = int(header.group(1)) - 1 if header else -1
                    if 0 <= h < len(lines) and lines[h]:
                        i = h
            if not 0 <= i < len(lines) or not lines[i]:
                # Reported past the end or on a blank line: drop the last non-blank
                # line before it (without a change the retry would fail the same way).
                j = next((k for k in range(min(i, len(lines) - 1), -1, -1) if lines[k]), -1)
                if j < 0:
                    return None
                i = j
            leftover.append(i)
            lines[i] = ""
        except (RecursionError, MemoryError, ValueError, OverflowError):
            return None
    return None


def _dedent_block(lines: list[str], shifts: list[int], i: int) -> None:
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i
    while j < len(lines):
        line = lines[j]
        if line.strip() and len(line) - len(line.lstrip()) < indent:
            break
        if line.strip():
            lines[j] = line[indent:]
            shifts[j] += indent
        j += 1


@lru_cache(maxsize=512)
def python_facts(text: str, strict: bool = True) -> PyFacts:
    """Facts of the Python code in `text` (never raises; bounded). `strict`
    keeps only lines that read as Python statements (for prose and untyped
    chunks); a chunk known to be Python is parsed as it is."""
    facts = PyFacts()
    try:
        _collect(text[:MAX_PARSE_CHARS], facts, strict)
    except Exception:
        facts.parsed = False
    return facts


def _collect(text: str, facts: PyFacts, strict: bool) -> None:
    lines, starts, shifts = _prepare(text, strict)
    original = text.split("\n")
    leftover: list[int] = []
    blanked = [i for i, (a, b) in enumerate(zip(lines, original, strict=True)) if not a and b]
    tree = _parse(lines, shifts, leftover)
    for i in sorted(set(leftover) | set(blanked)):
        facts.leftover.append((starts[i], original[i]))
    if tree is None:
        facts.leftover = [(starts[i], original[i]) for i in range(len(original))]
        return
    facts.parsed = True
    walker = _Walker(_Lines(starts, shifts, lines), facts, text)
    walker.block(tree.body, {})


class _Walker:
    def __init__(self, lines: _Lines, facts: PyFacts, text: str) -> None:
        self.lines = lines
        self.facts = facts
        self.text = text
        self._sensitive: bool | None = None
        """Whether a string constant may name a credential path (known once asked)."""
        self.aliases: dict[str, str] = {}
        self.functions: set[str] = set()
        self.depth = 0

    def sensitive(self) -> bool:
        """Whether some string constant may name a credential path (else none is
        searched: most code names none)."""
        if self._sensitive is None:
            self._sensitive = may_carry_sensitive(self.text)
        return self._sensitive

    # statements -------------------------------------------------------------

    def block(self, body: list[ast.stmt], env: dict[str, _Val]) -> None:
        for stmt in body:
            self.stmt(stmt, env)

    def stmt(self, node: ast.stmt, env: dict[str, _Val]) -> None:
        self.depth += 1
        try:
            if self.depth > MAX_DEPTH:
                return
            self._stmt(node, env)
        finally:
            self.depth -= 1

    def _stmt(self, node: ast.stmt, env: dict[str, _Val]) -> None:
        if isinstance(node, ast.Import):
            for a in node.names:
                self.facts.imports.add(a.name)
                if a.asname:
                    self.aliases[a.asname] = a.name
                else:
                    self.aliases.setdefault(a.name.split(".")[0], a.name.split(".")[0])
            return
        if isinstance(node, ast.ImportFrom):
            mod = node.module or ""
            self.facts.imports.add(mod)
            for a in node.names:
                self.aliases[a.asname or a.name] = f"{mod}.{a.name}" if mod else a.name
            return
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            self.functions.add(node.name)
            for d in node.decorator_list:
                self.scan_expr(d, env)
            inner = dict(env)
            handler = bool(_HANDLER_NAME.search(node.name)) or any(
                _HANDLER_DECORATOR.search(self.dotted(d.func if isinstance(d, ast.Call) else d))
                for d in node.decorator_list
            )
            sig = node.args
            for arg in [*sig.posonlyargs, *sig.args, *sig.kwonlyargs, sig.vararg, sig.kwarg]:
                if arg is None or arg.arg in ("self", "cls"):
                    continue
                name = arg.arg
                ext = handler or name in EXTERNAL_NAMES
                inner[name] = _Val(taint=EXT if ext else LOCAL)
            self.block(node.body, inner)
            return
        if isinstance(node, ast.ClassDef):
            self.block(node.body, env)
            return
        if isinstance(node, ast.Assign):
            val = self.value(node.value, env)
            for t in node.targets:
                self.bind(t, val, env)
            return
        if isinstance(node, ast.AnnAssign):
            if node.value is not None:
                self.bind(node.target, self.value(node.value, env), env)
            return
        if isinstance(node, ast.AugAssign):
            val = self.value(node.value, env)
            if isinstance(node.target, ast.Name):
                old = env.get(node.target.id, _Val(taint=LOCAL))
                env[node.target.id] = _Val(
                    taint=old.taint | val.taint, obf=max(old.obf, val.obf), ctor=old.ctor
                )
            return
        if isinstance(node, ast.For | ast.AsyncFor):
            val = self.value(node.iter, env)
            # `for d in glob.glob("/home/*")`: each item is known by its pattern
            pattern = None
            it = node.iter
            taint = val.taint
            if isinstance(it, ast.Call) and it.args and val.ctor in _LISTING_CALLS:
                f = self.fold(it.args[0], env)
                pattern = f[0] if f is not None else None
                if pattern is not None and _DROP_DIR.search(pattern):
                    # names listed from an upload / inbox directory were chosen by
                    # whoever sent the files: outside input
                    taint |= EXT
            elif isinstance(it, ast.Call):
                pattern = self._tree_pattern(it, val, env)
            elif isinstance(it, ast.List | ast.Tuple | ast.Set) and it.elts:
                # `for d in ['/etc', '/var']`: each item in turn; the widest path
                # stands for them (a root or home before a relative name)
                items = [self.fold(e, env) for e in it.elts[:32]]
                paths = [f[0] for f in items if f is not None]
                rooted = [p for p in paths if p[:1] in ("/", "~", "\\") or p[1:3] == ":\\"]
                pattern = min(rooted or paths, key=len) if paths else None
            elif val.const == "*":
                pattern = "*"  # the names of a directory listed above, one by one
            walk = val.ctor in _WALK_CALLS and isinstance(node.target, ast.Tuple)
            if walk and pattern is not None and isinstance(node.target, ast.Tuple):
                # `for root, dirs, files in os.walk("/")`: every directory under the
                # root, and the names in each
                for i, elt in enumerate(node.target.elts):
                    self.bind(elt, _Val(taint=taint, const=pattern if i == 0 else "*"), env)
            else:
                self.bind(node.target, _Val(taint=taint, const=pattern), env)
            self.block(node.body, env)
            self.block(node.orelse, env)
            return
        if isinstance(node, ast.With | ast.AsyncWith):
            for item in node.items:
                val = self.value(item.context_expr, env)
                if item.optional_vars is not None:
                    self.bind(item.optional_vars, _Val(taint=val.taint, ctor=val.ctor), env)
            self.block(node.body, env)
            return
        for _name, value in ast.iter_fields(node):
            if isinstance(value, ast.expr):
                self.scan_expr(value, env)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, ast.stmt):
                        self.stmt(item, env)
                    elif isinstance(item, ast.expr):
                        self.scan_expr(item, env)
                    elif isinstance(item, ast.ExceptHandler):
                        if item.name:
                            env[item.name] = _Val(taint=LOCAL)
                        self.block(item.body, env)
                    elif isinstance(item, ast.match_case):
                        self.block(item.body, env)

    def _tree_pattern(self, it: ast.Call, val: _Val, env: dict[str, _Val]) -> str | None:
        """The folded root of a directory walk (`os.walk(ROOT)`, `Path(ROOT).rglob(..)`,
        `.iterdir()`), as a pattern of what it yields (`ROOT/*`), or None."""
        if val.ctor in _WALK_CALLS and it.args:
            f = self.fold(it.args[0], env)
            return f[0] if f is not None else None
        func = it.func
        if isinstance(func, ast.Attribute) and func.attr in _TREE_METHODS:
            f = self.fold(func.value, env)
            if f is None:
                return None
            # `.rglob("*.pyc")` picks files by name: the pattern says which
            g = self.fold(it.args[0], env) if it.args else None
            tail = g[0] if g is not None and g[0].strip("*/") else "*"
            return f"{f[0]}/{tail}"
        return None

    def bind(self, target: ast.expr, val: _Val, env: dict[str, _Val]) -> None:
        if isinstance(target, ast.Name):
            env[target.id] = val
            if val.qual is not None:
                self.aliases[target.id] = val.qual
            else:
                self.aliases.pop(target.id, None)
        elif isinstance(target, ast.Tuple | ast.List):
            for elt in target.elts:
                self.bind(elt, _Val(taint=val.taint), env)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, _Val(taint=val.taint), env)
        elif isinstance(target, ast.Subscript | ast.Attribute):
            root = target.value
            while isinstance(root, ast.Subscript | ast.Attribute):
                root = root.value
            if isinstance(root, ast.Name) and val.taint:
                old = env.get(root.id, _Val())
                env[root.id] = _Val(taint=old.taint | val.taint, qual=old.qual)

    # expressions --------------------------------------------------------------

    def value(self, node: ast.expr, env: dict[str, _Val]) -> _Val:
        """Record the calls inside `node` and return what it evaluates to."""
        self.scan_expr(node, env)
        folded = self.fold(node, env)
        obf = folded[1] if folded else int(self.is_obf_qual(node, env))
        ctor = None
        if isinstance(node, ast.Call):
            ctor = self.qual(node.func, env) or self.dotted(node.func)
        return _Val(
            taint=self.taint(node, env),
            const=folded[0] if folded else None,
            qual=self.qual(node, env),
            obf=obf,
            ctor=ctor,
        )

    def scan_expr(self, node: ast.expr, env: dict[str, _Val]) -> None:
        """Record every call inside `node` (not inside nested lambdas' bodies twice)."""
        stack: list[ast.AST] = [node]
        seen = 0
        while stack and seen < 20_000:
            seen += 1
            n = stack.pop()
            if isinstance(n, ast.Name):
                if n.id in ("__builtins__", "__globals__"):
                    self.record_attr(n.id, n)
                continue  # no child worth a look
            if isinstance(n, ast.Constant):
                if _is_dunder_literal(n):
                    self.record_attr(str(n.value), n)
                continue
            if isinstance(n, ast.NamedExpr) and isinstance(n.target, ast.Name):
                env[n.target.id] = _Val(taint=self.taint(n.value, env))
            if isinstance(n, ast.Call):
                self.record_call(n, env)
            elif isinstance(n, ast.Attribute) and n.attr.startswith("__") and n.attr.endswith("__"):
                self.record_attr(n.attr, n)
            # NOTE: what `ast.iter_child_nodes` yields, minus the contexts and
            # operators (leaves with nothing to record), without its generator.
            children: list[ast.AST] = []
            for name in _child_fields(type(n)):
                value = getattr(n, name, None)
                if value is None:
                    continue
                if type(value) is list:
                    children.extend(v for v in value if v is not None)
                else:
                    children.append(value)
            children.reverse()
            stack.extend(children)

    def record_attr(self, name: str, node: ast.expr) -> None:
        start = self.lines.offset(node.lineno, node.col_offset)
        end = self.lines.offset(node.end_lineno or node.lineno, node.end_col_offset or 0)
        self.facts.attrs.append(AttrFact(name, start, max(start, end)))

    def record_call(self, node: ast.Call, env: dict[str, _Val]) -> None:
        qual = self.qual(node.func, env) or self.dotted(node.func)
        args = [a.value if isinstance(a, ast.Starred) else a for a in node.args]
        keywords: dict[str, int] = {}
        kquals: dict[str, str] = {}
        truthy: set[str] = set()
        for kw in node.keywords:
            key = kw.arg or "**"
            keywords[key] = self.taint(kw.value, env)
            q = self.qual(kw.value, env)
            folded = self.fold(kw.value, env)
            if q is not None:
                kquals[key] = q
            elif folded is not None:
                kquals[key] = folded[0]
            elif isinstance(kw.value, ast.Constant):
                kquals[key] = str(kw.value.value)
            if isinstance(kw.value, ast.Constant) and kw.value.value:
                truthy.add(key)
        folds = [self.fold(a, env) for a in args]
        taints = tuple(self.taint(a, env) for a in args)
        literal = tuple(f is not None and f[1] <= 1 for f in folds)
        obf_arg = bool(folds and folds[0] is not None and folds[0][1] == 2) or bool(
            args and _char_built(args[0])
        )
        receiver: str | None = None
        receiver_taint = 0
        receiver_const: str | None = None
        if isinstance(node.func, ast.Attribute):
            base = node.func.value
            if isinstance(base, ast.Name) and base.id in env:
                receiver = env[base.id].ctor
            elif isinstance(base, ast.Call):
                receiver = self.qual(base.func, env) or self.dotted(base.func)
            if not (isinstance(base, ast.Name) and base.id in self.aliases):
                receiver_taint = self.taint(base, env)  # not a module (`os.path`)
            if node.func.attr in _CONST_RECEIVER_METHODS:
                rf = self.fold(base, env)
                receiver_const = rf[0] if rf is not None else None
            if node.func.attr in _MUTATORS and isinstance(base, ast.Name):
                # `msg.add_attachment(key)`: the object now holds what was put in
                added = 0
                for b in taints:
                    added |= b
                for b in keywords.values():
                    added |= b
                old = env.get(base.id)
                if added and old is not None:
                    env[base.id] = _Val(
                        taint=old.taint | added, qual=old.qual, obf=old.obf, ctor=old.ctor
                    )
        start = self.lines.offset(node.lineno, node.col_offset)
        end = self.lines.offset(node.end_lineno or node.lineno, node.end_col_offset or 0)
        self.facts.calls.append(
            CallFact(
                qual=qual,
                start=start,
                end=max(start, end),
                args=taints,
                literal=literal,
                arg_kinds=tuple(_kind(a) for a in args),
                keywords=keywords,
                keyword_quals=kquals,
                truthy=frozenset(truthy),
                obfuscated_name=self.is_obf_qual(node.func, env),
                obfuscated_arg=obf_arg or bool(taints and taints[0] & DECODED),
                arg_names=tuple(self._arg_name(a, env) for a in args[:8]),
                arg_consts=tuple(
                    f[0] if f is not None else self._seq_text(a, env)
                    for f, a in zip(folds[:8], args[:8], strict=False)
                ),
                receiver=receiver,
                receiver_taint=receiver_taint,
                receiver_const=receiver_const,
            )
        )

    def _seq_text(self, node: ast.expr, env: dict[str, _Val]) -> str | None:
        """A list or tuple argument as text: folded items joined by spaces, `?` for
        an item not known (`["rm", "-rf", path]` is `rm -rf ?`)."""
        if not isinstance(node, ast.List | ast.Tuple) or not node.elts:
            return None
        parts: list[str] = []
        for elt in node.elts[:40]:
            if isinstance(elt, ast.Constant) and isinstance(elt.value, int | float):
                parts.append(str(elt.value))
                continue
            f = self.fold(elt, env)
            parts.append(f[0] if f is not None else "?")
        return " ".join(parts)[:MAX_FOLD]

    def _arg_name(self, node: ast.expr, env: dict[str, _Val]) -> str | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return node.value[:40]
        if isinstance(node, ast.Call):
            node = node.func
        if isinstance(node, ast.Name | ast.Attribute):
            return self.qual(node, env) or self.dotted(node)
        return None

    def dotted(self, node: ast.expr) -> str:
        parts: list[str] = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if isinstance(node, ast.Name):
            parts.append(node.id)
        elif isinstance(node, ast.Call):
            parts.append(self.dotted(node.func) + "()")
        else:
            parts.append("?")
        return ".".join(reversed(parts))

    def qual(self, node: ast.expr, env: dict[str, _Val]) -> str | None:
        """Alias-resolved qualified name of a callee or module expression."""
        if isinstance(node, ast.Name):
            if node.id in self.aliases:
                return self.aliases[node.id]
            if node.id in env and env[node.id].qual is None:
                return None
            return node.id
        if isinstance(node, ast.Attribute):
            base = self.qual(node.value, env)
            return f"{base}.{node.attr}" if base else None
        if isinstance(node, ast.Call):
            fq = self.qual(node.func, env)
            if fq in ("__import__", "importlib.import_module") and node.args:
                f = self.fold(node.args[0], env)
                return f[0] if f else None
            if fq == "getattr" and len(node.args) >= 2:
                f = self.fold(node.args[1], env)
                if f is None:
                    return None
                base = self.qual(node.args[0], env)
                if base in ("__builtins__", "builtins"):
                    return f[0]
                return f"{base}.{f[0]}" if base else None
            if fq in ("globals", "vars", "locals"):
                return "__globals__"
            return None
        if isinstance(node, ast.Subscript):
            base = self.qual(node.value, env)
            if base and (base.endswith("__globals__") or base.endswith("__builtins__")):
                f = self.fold(node.slice, env)
                return f[0] if f else None
        return None

    def is_obf_qual(self, node: ast.expr, env: dict[str, _Val]) -> bool:
        """The callee's name is assembled rather than written."""
        if isinstance(node, ast.Name):
            v = env.get(node.id)
            return bool(v and v.obf and v.qual)
        if isinstance(node, ast.Attribute):
            return self.is_obf_qual(node.value, env)
        if isinstance(node, ast.Call):
            fq = self.qual(node.func, env)
            if fq in ("__import__", "importlib.import_module", "getattr") and node.args:
                idx = 1 if fq == "getattr" else 0
                if len(node.args) > idx:
                    f = self.fold(node.args[idx], env)
                    if f is not None and f[1]:
                        return True
                return self.is_obf_qual(node.args[0], env)
        if isinstance(node, ast.Subscript):
            f = self.fold(node.slice, env)
            return bool(f and f[1]) or self.is_obf_qual(node.value, env)
        return False

    def fold(self, node: ast.expr, env: dict[str, _Val], depth: int = 0) -> tuple[str, int] | None:
        """Constant string value of `node`, and how it was made: 0 written, 1 assembled
        from literal pieces, 2 encoded (chr codes, reversed, rot13, base64, zlib)."""
        if depth > 20:
            return None
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return node.value[:MAX_FOLD], 0
            if isinstance(node.value, bytes):
                return node.value[:MAX_FOLD].decode("latin-1"), 0
            return None
        if isinstance(node, ast.Name):
            v = env.get(node.id)
            return (v.const, v.obf) if v and v.const is not None else None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            a = self.fold(node.left, env, depth + 1)
            b = self.fold(node.right, env, depth + 1)
            if a is None or b is None:
                return None
            return (a[0].rstrip("/") + "/" + b[0].lstrip("/"))[:MAX_FOLD], max(a[1], b[1])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a = self.fold(node.left, env, depth + 1)
            b = self.fold(node.right, env, depth + 1)
            if a is None or b is None:
                return None
            return (a[0] + b[0])[:MAX_FOLD], max(1, a[1], b[1])
        if isinstance(node, ast.JoinedStr):
            parts: list[str] = []
            level = 0
            for piece in node.values:
                inner = piece.value if isinstance(piece, ast.FormattedValue) else piece
                f = self.fold(inner, env, depth + 1)
                if f is None:
                    return None
                parts.append(f[0])
                level = max(level, f[1])
            return "".join(parts)[:MAX_FOLD], level
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Slice):
            s = node.slice
            if (
                s.lower is None
                and s.upper is None
                and isinstance(s.step, ast.UnaryOp)
                and isinstance(s.step.op, ast.USub)
            ):
                f = self.fold(node.value, env, depth + 1)
                return (f[0][::-1], 2) if f else None
            return None
        if isinstance(node, ast.Call):
            return self._fold_call(node, env, depth)
        return None

    def _fold_call(
        self, node: ast.Call, env: dict[str, _Val], depth: int
    ) -> tuple[str, int] | None:
        func = node.func
        args = node.args
        if isinstance(func, ast.Attribute) and func.attr in ("decode", "encode") and not args:
            return self.fold(func.value, env, depth + 1)
        if isinstance(func, ast.Attribute) and func.attr == "join" and len(args) == 1:
            sep = self.fold(func.value, env, depth + 1)
            items = self._fold_items(args[0], env, depth)
            if sep is None or items is None:
                return None
            return sep[0].join(items[0])[:MAX_FOLD], max(1, items[1])
        q = self.qual(func, env)
        if q in _PATH_CALLS and len(args) == 1 and not node.keywords:
            return self.fold(args[0], env, depth + 1)
        if q in _HOME_CALLS and not args:
            return "~", 0
        if q == "os.path.join" and args:
            parts = [self.fold(a, env, depth + 1) for a in args[:12]]
            if any(p is None for p in parts):
                return None
            folded = [p for p in parts if p is not None]
            joined = "/".join(p[0] for p in folded)
            return joined[:MAX_FOLD], max(p[1] for p in folded)
        if q == "os.getenv" and len(args) == 1:
            f = self.fold(args[0], env, depth + 1)
            return ("~", 0) if f is not None and f[0] in ("HOME", "USERPROFILE") else None
        if q == "chr" and len(args) == 1:
            n = _int(args[0])
            return (chr(n), 2) if n is not None and 0 <= n < 0x110000 else None
        if q in DECODE_CALLS and args:
            inner = self.fold(args[0], env, depth + 1)
            if inner is None:
                return None
            decoded = _decode(q, inner[0], [self.fold(a, env, depth + 1) for a in args[1:]])
            return (decoded, 2) if decoded is not None else None
        return None

    def _fold_items(
        self, node: ast.expr, env: dict[str, _Val], depth: int
    ) -> tuple[list[str], int] | None:
        if isinstance(node, ast.List | ast.Tuple):
            out: list[str] = []
            level = 0
            for elt in node.elts[:MAX_FOLD]:
                f = self.fold(elt, env, depth + 1)
                if f is None:
                    return None
                out.append(f[0])
                level = max(level, f[1])
            return out, level
        if isinstance(node, ast.Call) and len(node.args) == 2 and not node.keywords:
            # `map(chr, [114, 109])`
            q = self.qual(node.func, env)
            if q == "map" and self.qual(node.args[0], env) == "chr":
                seq = node.args[1]
                if not isinstance(seq, ast.List | ast.Tuple):
                    return None
                codes: list[str] = []
                for elt in seq.elts[:MAX_FOLD]:
                    n = _int(elt)
                    if n is None or not 0 <= n < 0x110000:
                        return None
                    codes.append(chr(n))
                return codes, 2
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords:
            # `reversed("metsys")`
            q = self.qual(node.func, env)
            if q == "reversed":
                f = self.fold(node.args[0], env, depth + 1)
                return (list(f[0])[::-1], 2) if f is not None else None
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            return list(node.value), 0
        if isinstance(node, ast.GeneratorExp | ast.ListComp) and len(node.generators) == 1:
            gen = node.generators[0]
            if not isinstance(gen.target, ast.Name) or not isinstance(
                gen.iter, ast.List | ast.Tuple
            ):
                return None
            call = node.elt
            if not (
                isinstance(call, ast.Call)
                and self.qual(call.func, env) == "chr"
                and len(call.args) == 1
                and isinstance(call.args[0], ast.Name)
                and call.args[0].id == gen.target.id
            ):
                return None
            chars: list[str] = []
            for elt in gen.iter.elts[:MAX_FOLD]:
                n = _int(elt)
                if n is None or not 0 <= n < 0x110000:
                    return None
                chars.append(chr(n))
            return chars, 2
        return None

    def taint(self, node: ast.expr, env: dict[str, _Val], depth: int = 0) -> int:
        """Taint bits of the value of `node`."""
        if depth > 40:
            return LOCAL
        d = depth + 1
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str) and self.sensitive():
                return SENS if SENSITIVE_PATH.search(node.value[:300]) else 0
            return 0
        if isinstance(node, ast.Name):
            if node.id in env:
                return env[node.id].taint
            if node.id in EXTERNAL_NAMES:
                return EXT
            if node.id in self.aliases or node.id in BUILTIN_NAMES or node.id in self.functions:
                return 0
            return LOCAL
        if isinstance(node, ast.Attribute):
            q = self.qual(node, env)
            if q in _ENV_ATTRS:
                return EXT | ENV | SENS
            if q in ("sys.argv", "sys.stdin"):
                return EXT
            return self.taint(node.value, env, d)
        if isinstance(node, ast.Subscript):
            base = node.value
            bq = self.qual(base, env)
            if bq in _ENV_ATTRS:
                key = self.fold(node.slice, env)
                return EXT | (SENS if key and _SECRETISH.search(key[0]) else 0)
            return self.taint(base, env, d) | self.taint(node.slice, env, d)
        if isinstance(node, ast.Call):
            return self._taint_call(node, env, d)
        if isinstance(node, ast.Lambda):
            return 0
        if isinstance(node, ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp):
            inner = dict(env)
            bits = 0
            for gen in node.generators:
                t = self.taint(gen.iter, inner, d)
                bits |= t
                for name in ast.walk(gen.target):
                    if isinstance(name, ast.Name):
                        inner[name.id] = _Val(taint=t)
            if isinstance(node, ast.DictComp):
                return bits | self.taint(node.key, inner, d) | self.taint(node.value, inner, d)
            return bits | self.taint(node.elt, inner, d)
        bits = 0
        for field_name in node._fields:  # `ast.iter_child_nodes`, without its generator
            value = getattr(node, field_name, None)
            if isinstance(value, ast.expr):
                bits |= self.taint(value, env, d)
            elif isinstance(value, list):
                for child in value:
                    if isinstance(child, ast.expr):
                        bits |= self.taint(child, env, d)
        return bits

    def _taint_call(self, node: ast.Call, env: dict[str, _Val], d: int) -> int:
        q = self.qual(node.func, env) or ""
        args = 0
        for a in node.args:
            args |= self.taint(a, env, d)
        for kw in node.keywords:
            args |= self.taint(kw.value, env, d)
        receiver = 0
        method = ""
        if isinstance(node.func, ast.Attribute):
            method = node.func.attr
            receiver = self.taint(node.func.value, env, d)
        if q in ("os.getenv", "os.environ.get") and node.args:
            key = self.fold(node.args[0], env)
            return EXT | (SENS if key and _SECRETISH.search(key[0]) else 0)
        if q in SOURCE_CALLS or q.endswith(".get_json"):
            return EXT
        if q in SECRET_CALLS or q.startswith(SECRET_PREFIXES) or method in SECRET_METHODS:
            return SENS | FILE | args
        if q.startswith(_ENV_ATTRS) and method in ("get", "copy", "items", "keys", "values"):
            return EXT | (ENV | SENS if method != "get" else 0)
        if q.startswith(FETCH_PREFIXES):
            return EXT | FETCHED
        if method in RECV_METHODS:
            return EXT | receiver
        if method in NET_GET_METHODS and isinstance(node.func, ast.Attribute):
            root = node.func.value
            name = root.id if isinstance(root, ast.Name) else self.dotted(root)
            if _NETWORKISH.search(name) and not name.startswith("os."):
                return EXT | receiver | args
        if q in DECODE_CALLS or q.endswith(("b64decode", "decompress", "unhexlify")):
            return args | receiver | DECODED
        file_open = q in _OPEN_CALLS
        if file_open or q in _PATH_CTORS or method in _READ_METHODS:
            if receiver & EXT and not file_open:
                return receiver | args  # reading a response or a socket: not a file
            bits = args | receiver
            if file_open or method in _READ_METHODS:
                bits |= FILE  # with LOCAL only when the path is not a literal
            return bits if bits & FILE else bits | LOCAL
        if q.startswith(("sqlite3.connect", "shelve.open", "dbm.open")):
            return FILE | args
        if method in _DUMP_METHODS and isinstance(node.func, ast.Attribute):
            root = node.func.value
            name = root.id if isinstance(root, ast.Name) else self.dotted(root)
            if _STOREISH.search(name):
                return FILE | receiver | args
        if q in PURE_CALLS:
            return args if "." in q else args | receiver
        if isinstance(node.func, ast.Attribute) and receiver == 0 and args == 0:
            # a method on a literal ("x".upper()) stays literal; on a module it is unknown
            base = node.func.value
            if isinstance(base, ast.Constant | ast.JoinedStr | ast.List | ast.Tuple | ast.Dict):
                return 0
        return LOCAL | args | receiver


def _char_built(node: ast.expr) -> bool:
    """`''.join(chr(int(x, 16)) for x in ...)`, `''.join(map(chr, codes))`: a
    string assembled from character codes, whatever computes them."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "join"
        and len(node.args) == 1
    ):
        return False
    arg = node.args[0]
    if isinstance(arg, ast.Call) and isinstance(arg.func, ast.Name) and arg.func.id == "map":
        return bool(arg.args) and isinstance(arg.args[0], ast.Name) and arg.args[0].id == "chr"
    if isinstance(arg, ast.GeneratorExp | ast.ListComp):
        return any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "chr"
            for n in ast.walk(arg.elt)
        )
    return False


def _is_dunder_literal(node: ast.AST) -> bool:
    """`'__globals__'` as a string: getattr(fn, "__globals__") reaches the same thing."""
    if not isinstance(node, ast.Constant) or not isinstance(node.value, str):
        return False
    v = node.value
    return v.startswith("__") and v.endswith("__") and len(v) < 20


def _kind(node: ast.expr) -> str:
    if isinstance(node, ast.Constant):
        return "literal"
    if isinstance(node, ast.JoinedStr):
        return "fstring"
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Mod):
            return "format"
        if isinstance(node.op, ast.Add):
            return "concat"
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        return "format"
    if isinstance(node, ast.Name):
        return "name"
    return "other"


def _int(node: ast.expr) -> int | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int):
        return int(node.value)
    return None


def _decode(q: str, data: str, extra: list[tuple[str, int] | None]) -> str | None:
    """Decode a literal the way the call would, bounded; None when it fails."""
    raw = data.encode("latin-1", "ignore")
    try:
        if q == "codecs.decode":
            enc = extra[0][0].lower().replace("-", "_") if extra and extra[0] else "utf_8"
            if enc in ("rot13", "rot_13"):
                return str(codecs.decode(data, "rot_13"))[:MAX_FOLD]
            if enc in ("base64", "base_64", "hex"):
                out = cast(bytes, codecs.decode(raw, enc))
                return out.decode("latin-1")[:MAX_FOLD]
            return None
        if "b64" in q or q.endswith(("decodebytes", "decodestring", "a2b_base64")):
            return base64.b64decode(raw + b"==", altchars=b"-_" if "urlsafe" in q else None)[
                :MAX_FOLD
            ].decode("latin-1")
        if q in ("binascii.unhexlify", "binascii.a2b_hex", "bytes.fromhex", "base64.b16decode"):
            return binascii.unhexlify(raw.strip())[:MAX_FOLD].decode("latin-1")
        if q == "zlib.decompress":
            out = zlib.decompressobj().decompress(raw, MAX_FOLD)
            return out.decode("latin-1")
    except (ValueError, binascii.Error, zlib.error, LookupError, TypeError, UnicodeError):
        return None
    return None


# NOTE: no space before the parenthesis: in prose, "compile (version ...)" is a word.
_TOKEN_CALL = re.compile(r"(?<![\w.])((?:[A-Za-z_]\w{0,40}\.){0,3}[A-Za-z_]\w{0,40})\(")
_ARG_SOURCE = re.compile(
    r"(?i)\b(?:request|req|input|sys\.argv|sys\.stdin|environ|getenv|msg|message|payload|recv|"
    r"urlopen|requests\.get|\.text|\.json\(\)|upload)\b"
)


def token_calls(text: str, offset: int, names: frozenset[str]) -> Iterator[CallFact]:
    """Token-level fallback for lines the parser could not use: calls to known
    names, with the argument judged from its text (lower confidence). A call
    left open at the end of the line (a fragment) has an unknown argument, and
    a Python 2 `exec code in ns` statement counts as a call to exec."""
    py2 = _PY2_EXEC.match(text)
    if py2 is not None and "exec" in names:
        arg = py2.group(1)
        yield _token_fact("exec", text, offset, py2.start(1), py2.end(), arg, closed=True)
    for m in _TOKEN_CALL.finditer(text):
        name = m.group(1)
        if name not in names and name.rsplit(".", 1)[-1] not in names:
            continue
        rest = text[m.end() : m.end() + 200]
        arg, closed = _balanced(rest)
        yield _token_fact(name, text, offset, m.start(), m.end() + len(arg) + 1, arg, closed)


_PLACEHOLDER = re.compile(r"%[-+ #0-9.]{0,6}[sdrifx]|\{\w{0,30}\}")
_APPROX_FORMAT = re.compile(
    r"""^[rbuRBU]{0,2}(?:"[^"\n]{0,400}"|'[^'\n]{0,400}')\s{0,4}(%|\.format\()"""
)


def _approx_kind(arg: str) -> str:
    """Shape of a first argument seen only as text: format, fstring, concat or other."""
    m = _APPROX_FORMAT.match(arg)
    if m is not None:
        return "format"
    if arg[:2].lower() in ('f"', "f'"):
        return "fstring"
    first = arg.split(",", 1)[0]
    if re.search(r"""["']\s{0,4}\+|\+\s{0,4}["']""", first):
        return "concat"
    return "other"


# `exec code in ns[, locals]` (the namespace makes it Python, not the shell builtin)
_PY2_EXEC = re.compile(
    r"^\s{0,40}exec\s+([A-Za-z_][\w.]{0,60}(?:\(\))?|\"[^\"\n]{0,200}\"|'[^'\n]{0,200}')"
    r"\s+in\s+[A-Za-z_][\w.]{0,60}(?:\(\))?(?:\s*,\s*[A-Za-z_][\w.]{0,60}(?:\(\))?)?\s*(?:#.*)?$"
)
_ARG_NAME = re.compile(r"""\s*(?:([A-Za-z_][\w.]{0,80})|[rbuRBU]{0,2}["']([^"'\n]{1,40})["'])""")


def _token_fact(
    name: str, text: str, offset: int, start: int, end: int, arg: str, closed: bool
) -> CallFact:
    stripped = arg.strip()
    literal = bool(stripped) and bool(_LITERAL_ARGS.fullmatch(stripped))
    if literal and not closed and _PLACEHOLDER.search(stripped):
        literal = False  # `os.popen('cd %s; make' ` continues with `% (...)` below
    if not stripped and not closed:
        taint = LOCAL  # `os.system(` with its argument on lines we do not have
    else:
        taint = 0 if literal else (EXT if _ARG_SOURCE.search(arg) else LOCAL)
    kind = "literal" if literal else _approx_kind(stripped)
    present = bool(stripped) or not closed
    truthy = frozenset({"shell"}) if re.search(r"shell\s*=\s*True", arg) else frozenset()
    names: list[str | None] = []
    for piece in stripped.split(",")[:8] if stripped else ():
        m = _ARG_NAME.match(piece)
        names.append((m.group(1) or m.group(2)) if m else None)
    keyword_quals = {
        k: v.strip("'\"") for k, v in re.findall(r"(\w{1,30})\s?=\s?([\w.'\"]{1,60})", arg)
    }
    return CallFact(
        qual=name,
        start=offset + start,
        end=offset + min(len(text), end),
        args=(taint,) if present else (),
        literal=(literal,) if present else (),
        arg_kinds=(kind,) if present else (),
        keywords={},
        keyword_quals=keyword_quals,
        truthy=truthy,
        obfuscated_name=False,
        obfuscated_arg=bool(re.search(r"b64decode|decompress|rot_?13|\[::-1\]|chr\(", arg)),
        arg_names=tuple(names),
        approx=True,
        quoted=text.count("`", 0, start) % 2 == 1,
    )


_LITERAL_ARGS = re.compile(
    r"""(?:(?:\w{1,30}\s?=\s?)?(?:[rbuRBU]{0,2}(?:"[^"\n]{0,200}"|'[^'\n]{0,200}')|\d{1,20}|True|False|None)"""
    r"""\s{0,4}(?:[,+]\s{0,4})?){0,12}"""
)


def _balanced(rest: str) -> tuple[str, bool]:
    """The argument text up to the matching `)`, and whether it was closed."""
    depth = 1
    for i, ch in enumerate(rest):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return rest[:i], True
    return rest, False
