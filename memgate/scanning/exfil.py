"""The `exfil` detector: data leaving for someone else's host.

Rules name a `params.kind`:

- `python_flow`: a Python network sink (`params.sinks`: requests.post,
  urlopen, smtplib, socket.send, ...) receiving credential-file contents or
  the whole environment (taint from `memgate.scanning._code_py`). Header
  arguments are ignored: a token sent as auth to its own API is not a leak.
- `shell_upload`: curl / wget / nc / scp / rsync sending a sensitive file, or
  piping in the output of env / printenv / cat of a credential file / tar of
  home directories (`params.levels.sensitive`), or of other local data
  (`git diff`, a plain file: `params.levels.data`).
- `secret_in_url`: a command or code putting a secret variable
  (`${{ secrets.X }}`, `$API_TOKEN`) into a URL's query string.
- `dns_exfil`: dig / nslookup / host / ping of a hostname built by command
  substitution or a variable label (`$(whoami).attacker.tld`).
- `url_beacon`: a markdown / HTML image or link whose URL carries data in its
  query: a template (`{{...}}`, `${...}`, `$VAR`, `<the user's key>`), an
  ALL-CAPS placeholder, free text in another script, or base64 that decodes
  to text. `params.images_only` limits it to images.
- `js_beacon`: JavaScript reading document.cookie / localStorage /
  sessionStorage / process.env and calling a network sink (fetch,
  sendBeacon, new Image().src, XMLHttpRequest, https.get) in the same chunk.
- `cooccur`: any language, no parse: a read of a credential store, a secret
  manager or the whole environment (`params` has none: the patterns are
  `_CRED_READ`), and a network send (`_NET_SEND`) to a host that is not the
  user's own, on one line or within `params.window` lines of code. It sees
  what the language-specific kinds cannot parse (Go, PHP, PowerShell,
  pipelines of `kubectl`, `vault`, a cloud CLI); a quoted or warned-against
  line is a mention, and key files used as identities (`ssh -i`, `--cert`,
  `--netrc-file`) are not reads.
- `prose`: an instruction that sends / uploads / forwards credentials,
  secrets, files or the conversation to a URL or an e-mail address
  (English and Chinese keyword windows), not when it speaks of headers or
  says never to.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

from memgate.domain import Chunk, ChunkKind, Severity
from memgate.scanning._code_lang import KeywordSet
from memgate.scanning._code_py import (
    ENV,
    SENS,
    SENSITIVE_PATH,
    may_carry_sensitive,
    python_facts,
)
from memgate.scanning._code_shell import Command, Segment, shell_segments
from memgate.scanning._effects_lexicon import OWN_HOST
from memgate.scanning._literal_gate import LiteralGate
from memgate.scanning.analyzer import Hit, ScanContext
from memgate.scanning.rules import Rule

MAX_HITS_PER_RULE = 8
Level = tuple[Severity, float] | None

_SAME_ORIGIN = re.compile(r"""\s*['"`](?:/(?![/\\])|\.\.?/)""")
"""Right after a request call's parenthesis: a relative URL, the page's own origin."""

_HOME_DIR = re.compile(
    r"^(?:~|\$HOME|\$\{HOME\})(?:/(?:Documents|Desktop|Downloads|\.config\b.*)?)?/?$"
)
_SECRET_VAR = re.compile(
    r"\$\{\{\s*secrets\.\w+\s*\}\}|\$\{?\w*(?:TOKEN|SECRET|PASSWORD|PASSWD|API_?KEY|ACCESS_KEY|CREDENTIALS?)\w*\}?",
    re.IGNORECASE,
)
_QUERY_URL = re.compile(r"""https?://[^\s"'<>?]{1,500}\?[^"'\n<>]{0,500}""")
_DNS_BUILT = re.compile(
    r"(?:^|[\s;&|(])(dig|nslookup|drill|host|ping)\s(?:[^\n;]{0,80}?\s)?\S{0,40}?(?:\$\(|`|\$\{?\w{1,30}\}?\.)"
)
_MD_IMAGE = re.compile(r"!\[[^\]\n]{0,300}\]\(\s{0,3}(<?[^\s)]{1,2000})")
_MD_LINK = re.compile(r"(?<!!)\[[^\]\n]{0,300}\]\(\s{0,3}(<?[^\s)]{1,2000})")
_HTML_IMG = re.compile(r"""(?i)<img\b[^>]{0,300}?\bsrc\s*=\s*["']?([^"'\s>]{1,2000})""")
_TEMPLATE = re.compile(
    r"\{\{.{0,200}?\}\}|\$\{[^}]{0,200}\}|\$[A-Z_][A-Z0-9_]{2,}|%s|<[^<>]{2,80}>"
)
_PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]{3,}$")
_NON_LATIN = re.compile(r"[^\x00-\x7f]")
# `?session=user=alice&pw=...`: a second level of key=value inside one value,
# naming a credential or personal field (the page collects what the memory holds).
_NESTED_SENSITIVE = re.compile(
    r"(?i)(?:^|[^a-z])(?:pw|pwd|pass(?:word|wd)?|token|secret|api_?key|card(?:_?(?:no|number|last4))?|"
    r"cc|cvv|ssn|iban|phone|email|e-mail|user(?:name)?|login|summary|history|memory|chat)=[^&]{2,}"
)
_EMAIL_VALUE = re.compile(r"[\w.+-]{1,64}@[\w-]{1,63}(?:\.[\w-]{1,63})+")
_B64 = re.compile(r"^[A-Za-z0-9+/_-]{24,}={0,2}$")
_DUMPERS = frozenset({"env", "printenv", "set", "export", "history", "declare"})


@dataclass(frozen=True, slots=True)
class _Spec:
    rule: Rule
    kind: str
    p: Mapping[str, Any]
    levels: dict[str, Level]


def _levels(raw: object, default: Level) -> dict[str, Level]:
    out: dict[str, Level] = {"default": default}
    if isinstance(raw, Mapping):
        for key, value in raw.items():
            if isinstance(value, list | tuple) and len(value) == 2:
                out[str(key)] = (
                    None if value[0] == "none" else (Severity(value[0]), float(value[1]))
                )
    return out


# NOTE: each kind has a structural necessity checked with plain `in` on the raw
# text before anything else, no lowercasing: a single character first (memchr
# speed), then, only when it is present, the longer needles that confirm it.
# Every prose pattern ends in a URL or an address, a DNS exfil host is built
# with `$` or a backtick, a secret in a URL needs `$`, `?` and `://`, an upload
# needs `@`, a pipe, or an upload flag / remote copy with a `host:` or URL. A
# chunk that opens no gate costs well under a microsecond.
_Gate = tuple[str, tuple[str, ...]]
_GATES: dict[str, tuple[_Gate, ...]] = {
    "python_flow": (("(", ()),),
    "shell_upload": (("@", ()), ("|", ()), (":", ("-T", "-file", "scp ", "rsync ", "sftp "))),
    "secret_in_url": (("$", ("://",)),),
    "dns_exfil": (("$", ()), ("`", ())),
    "url_beacon": (("!", ("![",)), ("<", ("<img", "<IMG")), ("]", ("](",))),
    "js_beacon": (("(", ("ookie", "Storage", "process.env")),),
    "prose": (("@", ()), (":", ("://",))),
    "cooccur": (("/", ()), ("\\", ()), ("|", ()), (".", ())),
    "structured_transfer": ((":", ()),),
}
_ALSO: dict[str, tuple[str, ...]] = {"secret_in_url": ("?",)}
"""Further needles that must all be present once a kind's gate opened."""


class ExfilAnalyzer:
    def __init__(self, rules: Sequence[Rule]) -> None:
        self._specs = [
            _Spec(r, str(r.params.get("kind", "")), r.params, _levels(r.params.get("levels"), None))
            for r in rules
        ]
        # NOTE: prose patterns run on the lowercased line without IGNORECASE
        # (3-5x faster in `re`) when they hold no upper-case literal.
        self._prose = {
            s.rule.id: [_fold_case(x) for x in s.p.get("patterns", ())]
            for s in self._specs
            if s.kind == "prose"
        }
        self._unless = {
            s.rule.id: _fold_case(s.p.get("unless", "(?!)"))
            for s in self._specs
            if s.kind == "prose"
        }
        self._js = {
            s.rule.id: (
                re.compile(s.p.get("sources_regex", "(?!)")),
                re.compile(s.p.get("sinks_regex", "(?!)")),
            )
            for s in self._specs
            if s.kind == "js_beacon"
        }
        by_char: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for kind in dict.fromkeys(s.kind for s in self._specs):
            for char, confirm in _GATES.get(kind, (("", ()),)):
                by_char.setdefault(char, []).append((confirm, kind))
        self._gates = tuple((c, tuple(v)) for c, v in by_char.items())
        # Per spec its keywords as a set, or None if it has none (or an empty one,
        # which every text holds): which of them a chunk holds is found in one
        # automaton pass, not one `in` scan per keyword per spec (half of this
        # analyzer's time on prose, where nearly every chunk opens some kind).
        self._spec_keywords = [
            (s, frozenset(s.rule.keywords) if all(s.rule.keywords) else None) for s in self._specs
        ]
        self._keywords = KeywordSet(k for s in self._specs for k in s.rule.keywords)

    def analyze(self, chunk: Chunk, ctx: ScanContext) -> list[Hit]:
        text = chunk.text
        json_only = chunk.kind is ChunkKind.JSON and "postinstall" not in text
        # NOTE: plain loops, no helper calls: this runs on every chunk.
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
        present: frozenset[str] | None = None  # the keywords `lower` holds, on first need
        out: list[Hit] = []
        for spec, keywords in self._spec_keywords:
            if spec.kind not in opened:
                continue
            if json_only and spec.kind != "structured_transfer":
                continue
            also = _ALSO.get(spec.kind)
            if also is not None and not all(n in text for n in also):
                continue
            if keywords:
                if present is None:
                    present = self._keywords.present(lower)
                if keywords.isdisjoint(present):
                    continue
            try:
                hits = list(self._run(spec, chunk))
            except (RecursionError, MemoryError, ValueError):
                continue
            out.extend(hits[:MAX_HITS_PER_RULE])
        return out

    def _run(self, spec: _Spec, chunk: Chunk) -> Iterator[Hit]:
        text = chunk.text
        prose = chunk.kind is not ChunkKind.CODE or chunk.language not in (
            "shell",
            "bash",
            "sh",
            "zsh",
            "console",
        )
        kind = spec.kind
        covered: list[tuple[int, int]] = []
        if kind == "python_flow":
            if chunk.language not in (None, "python", "py"):
                return
            if not may_carry_sensitive(text):
                return  # nothing credential-like or environment-wide to send
            sinks = frozenset(spec.p.get("sinks", ()))
            prefixes = tuple(spec.p.get("prefixes", ()))
            typed = chunk.kind is ChunkKind.CODE and chunk.language in ("python", "py")
            for call in python_facts(text, not typed).calls:
                if call.qual not in sinks and not call.qual.startswith(prefixes or ("\0",)):
                    continue
                bits = 0
                for b in call.args:
                    bits |= b
                for key, b in call.keywords.items():
                    if key not in ("headers", "auth", "timeout", "verify", "cert"):
                        bits |= b
                if bits & (SENS | ENV):
                    what = "the environment" if bits & ENV else "credential data"
                    yield Hit(spec.rule.id, call.start, call.end, note=f"{what} → {call.qual}")
        elif kind == "shell_upload":
            covered = []
            for seg in shell_segments(text, prose):
                if any(s < seg.end and seg.start < e for s, e in covered):
                    continue
                hit = _shell_upload(spec, seg)
                if hit is not None:
                    covered.append((seg.start, seg.end))
                    yield hit
        elif kind == "secret_in_url":
            for m in _QUERY_URL.finditer(text):
                url = m.group()
                if _SECRET_VAR.search(url, url.find("?")):
                    yield Hit(spec.rule.id, m.start(), m.end(), note="secret in a URL query")
        elif kind == "dns_exfil":
            for seg in shell_segments(text, prose):
                if any(s < seg.end and seg.start < e for s, e in covered):
                    continue
                built = _DNS_BUILT.search(seg.text)
                if built is None:
                    continue
                sensitive = bool(SENSITIVE_PATH.search(seg.text)) or bool(
                    re.search(r"\b(?:whoami|hostname|id|uname|base64|xxd|cat)\b", seg.text)
                )
                level = spec.levels.get("sensitive" if sensitive else "other")
                if level is not None:
                    covered.append((seg.start, seg.end))
                    yield _hit(
                        spec, seg.start, seg.end, level, f"{built.group(1)} of a built hostname"
                    )
        elif kind == "url_beacon":
            yield from self._beacons(spec, text)
        elif kind == "js_beacon":
            src_re, sink_re = self._js[spec.rule.id]
            src = src_re.search(text)
            # a request to a relative URL (`fetch('/api/me', ...)`) goes back to the
            # page's own origin: a token in it is the app authenticating, not a leak
            sink = (
                next(
                    (m for m in sink_re.finditer(text) if not _SAME_ORIGIN.match(text, m.end())),
                    None,
                )
                if src
                else None
            )
            if src and sink and abs(src.start() - sink.start()) <= int(spec.p.get("window", 800)):
                yield Hit(
                    spec.rule.id,
                    min(src.start(), sink.start()),
                    max(src.end(), sink.end()),
                    note="browser or process secrets sent to a URL",
                )
        elif kind == "prose":
            yield from self._prose_hits(spec, text)
        elif kind == "cooccur":
            yield from _cooccur(spec, text)
        elif kind == "structured_transfer":
            yield from _structured_transfer(spec, text)

    def _prose_hits(self, spec: _Spec, text: str) -> Iterator[Hit]:
        """Every pattern is line-bounded and ends in a destination, so only the
        lines holding a URL or an address are searched."""
        negative = self._unless[spec.rule.id]
        patterns = self._prose.get(spec.rule.id, [])
        done: set[int] = set()
        for start, end in _dest_lines(text):
            line = text[start:end]
            lower = line.lower()
            folded = len(lower) == len(line)
            for index, (exact, fast) in enumerate(patterns):
                if index in done:
                    continue
                if folded and fast is not None:
                    pattern, hay = fast, lower
                else:
                    pattern, hay = exact, line
                for m in pattern.finditer(hay):
                    neg_exact, neg_fast = negative
                    neg, neg_hay = (
                        (neg_fast, lower) if folded and neg_fast is not None else (neg_exact, line)
                    )
                    if neg.search(neg_hay, max(0, m.start() - 40), m.end()):
                        continue
                    done.add(index)
                    yield Hit(
                        spec.rule.id,
                        start + m.start(),
                        start + m.end(),
                        note="instruction to send data out",
                    )
                    break

    def _beacons(self, spec: _Spec, text: str) -> Iterator[Hit]:
        images_only = bool(spec.p.get("images_only", True))
        patterns = [_MD_IMAGE, _HTML_IMG] if images_only else [_MD_LINK]
        for pattern in patterns:
            for m in pattern.finditer(text):
                url = m.group(1).strip("<>")
                reason = carries_data(url)
                if reason is not None:
                    yield Hit(spec.rule.id, m.start(), m.end(), note=reason)


_Folded = tuple[re.Pattern[str], re.Pattern[str] | None]


def _fold_case(pattern: str) -> _Folded:
    """The pattern with IGNORECASE, and without it for lowercased text when it
    holds no upper-case literal (None otherwise)."""
    literal = re.sub(r"\\.", "", pattern)
    fast = None if any(c.isupper() for c in literal) else re.compile(pattern)
    return re.compile(pattern, re.IGNORECASE), fast


def _dest_lines(text: str) -> list[tuple[int, int]]:
    """(start, end) of each line holding `://` or `@` (a URL or an address), in order."""
    lines: set[tuple[int, int]] = set()
    for needle in ("://", "@"):
        i = text.find(needle)
        while i >= 0:
            start = text.rfind("\n", 0, i) + 1
            end = text.find("\n", i)
            end = len(text) if end < 0 else end
            lines.add((start, end))
            i = text.find(needle, end)
    return sorted(lines)


def carries_data(url: str) -> str | None:
    """Why a URL looks like it carries data out, or None."""
    if not url.lower().startswith(("http://", "https://", "//")):
        return None
    q = url.find("?")
    if q < 0:
        path = url.split("/", 3)[-1] if url.count("/") >= 3 else ""
        if _TEMPLATE.search(path):
            return "template in the path"
        return None
    for part in re.split(r"[&;]", url[q + 1 :])[:20]:
        value = unquote(part.partition("=")[2])
        if not value:
            continue
        if _TEMPLATE.search(value):
            return "template in the query"
        if _PLACEHOLDER.match(value):
            return "placeholder in the query"
        if _NON_LATIN.search(value) and len(value) >= 4:
            return "free text in the query"
        if _B64.match(value) and _decodes_to_text(value):
            return "base64 text in the query"
        if _NESTED_SENSITIVE.search(value):
            return "credentials or personal data packed in the query"
        if _EMAIL_VALUE.search(value):
            return "an e-mail address in the query"
        if value.count(" ") >= 5 and len(value) >= 40:
            return "free text in the query"
    return None


def _decodes_to_text(value: str) -> bool:
    try:
        raw = base64.b64decode(value + "=" * (-len(value) % 4), altchars=b"-_")
    except (binascii.Error, ValueError):
        return False
    if len(raw) < 12:
        return False
    printable = sum(32 <= b < 127 for b in raw)
    return printable / len(raw) > 0.9


def _hit(spec: _Spec, start: int, end: int, level: tuple[Severity, float], note: str) -> Hit:
    return Hit(spec.rule.id, start, end, severity=level[0], confidence=level[1], note=note)


def _is_sensitive_arg(word: str) -> bool:
    w = word.strip("'\"")
    return bool(SENSITIVE_PATH.search(" " + w)) or bool(_HOME_DIR.match(w))


def _stage_source(cmd: Command) -> str | None:
    """What an upstream pipeline stage emits: `sensitive`, `data`, or None."""
    args = cmd.words[1:]
    if cmd.name in _DUMPERS:
        return "sensitive"
    if cmd.name in ("cat", "tar", "zip", "gzip", "base64", "xxd", "head", "tail", "grep", "find"):
        if any(_is_sensitive_arg(a) for a in args):
            return "sensitive"
        return "data" if cmd.name != "grep" else None
    if cmd.name == "git" and args[:1] and args[0] in ("diff", "show", "log", "format-patch"):
        return "data"
    return None


def _upload_file(cmd: Command) -> str | None:
    """The file a curl / wget / scp / rsync command sends, if any."""
    words = cmd.words
    if cmd.name == "curl":
        for i, w in enumerate(words[1:], start=1):
            nxt = words[i + 1] if i + 1 < len(words) else ""
            if w in ("-d", "--data", "--data-binary", "--data-urlencode", "--json") and "@" in nxt:
                return nxt.split("@", 1)[1]
            if w.startswith(("--data-binary=@", "--data=@", "-d@")):
                return w.split("@", 1)[1]
            if w in ("-F", "--form") and "@" in nxt:
                return nxt.split("@", 1)[1].split(";")[0]
            if w in ("-T", "--upload-file") and nxt:
                return nxt
        return None
    if cmd.name == "wget":
        for i, w in enumerate(words):
            if w.startswith(("--post-file=", "--body-file=")):
                return w.split("=", 1)[1]
            if w in ("--post-file", "--body-file") and i + 1 < len(words):
                return words[i + 1]
        return None
    if cmd.name in ("scp", "rsync", "sftp"):
        paths = [w for w in words[1:] if not w.startswith("-")]
        remote = [
            p
            for p in paths
            if re.match(r"^[\w.-]+@[\w.-]+:|^[\w.-]+\.[\w.-]+:|^\d{1,3}(?:\.\d{1,3}){3}:", p)
        ]
        if remote and paths and paths[-1] in remote and not OWN_HOST.match(_remote_host(paths[-1])):
            for p in paths[:-1]:
                if _is_sensitive_arg(p) or p.startswith("/etc/"):
                    return p
        return None
    return None


def _remote_host(target: str) -> str:
    """The host of an scp / rsync target (`user@host:path`, `host:path`)."""
    return target.split(":", 1)[0].rsplit("@", 1)[-1]


def _sends_stdin(cmd: Command) -> bool:
    """A network command that sends what is piped into it."""
    if cmd.name in ("nc", "ncat", "netcat", "socat", "telnet"):
        return True
    upload_flags = ("-d", "--data", "--data-binary", "-T", "--upload-file", "-F")
    return cmd.name in ("curl", "wget") and any(w in upload_flags for w in cmd.words)


def _shell_upload(spec: _Spec, seg: Segment) -> Hit | None:
    for pipeline in seg.pipelines:
        upstream: str | None = None
        for cmd in pipeline:
            sent = _upload_file(cmd)
            if sent is not None:
                if sent in ("-", "") and upstream is not None:
                    kind = upstream
                elif sent not in ("-", ""):
                    kind = (
                        "sensitive"
                        if _is_sensitive_arg(sent) or sent.startswith("/etc/")
                        else "file"
                    )
                else:
                    kind = "file"
                level = spec.levels.get(kind)
                if level is not None:
                    return _hit(spec, seg.start, seg.end, level, f"{cmd.name} sends {kind} data")
            elif upstream is not None and _sends_stdin(cmd):
                level = spec.levels.get(upstream)
                if level is not None:
                    return _hit(
                        spec, seg.start, seg.end, level, f"{upstream} data piped to {cmd.name}"
                    )
            src = _stage_source(cmd)
            if src == "sensitive" or (src == "data" and upstream is None):
                upstream = src
    return None


# --- cooccur: a credential read beside a network send, any language ----------

_CRED_PATH = (
    r"(?:\.ssh[/\\](?:id_[\w-]+|[\w.-]+\.pem)(?!\.pub)|\.aws[/\\]credentials|\.aws\b(?![/\\]config)"
    r"|\.kube[/\\]config|kubeconfig|\.docker[/\\]config\.json|\.netrc|\.pgpass|\.my\.cnf"
    r"|\.git-credentials|\.npmrc|\.pypirc|\.gnupg|\.vault-token|/etc/shadow|/etc/sudoers"
    r"|Login Data|Local State|logins\.json|key[34]\.db|cookies\.sqlite|wallet\.dat|keychain"
    r"|(?<![\w.-])\.env(?![\w.-])|wp-config\.php|config[/\\]database\.(?:php|yml)"
    r"|credentials\.(?:json|db|csv)|accessTokens\.json|NTDS\.dit|[/\\]SAM\b|lsass\.dmp"
    r"|id_(?:rsa|ed25519|ecdsa|dsa)\b(?!\.pub)|/etc/kubernetes/[\w.-]+\.conf)"
)
_CRED_READ = re.compile(
    r"(?i)(?:"
    # a reading command or API, then (soon) a credential store
    r"(?:\b(?:cat|base64|xxd|od|strings|head|tail|tar|zip|7z|gzip|sqlite3|type|gc|Get-Content|"
    r"Compress-Archive|Copy-Item|open|read_text|read_bytes|readFile(?:Sync)?|ReadFile|ReadAll(?:Text|Bytes)|"
    r"file_get_contents|fopen|File\.(?:read|open|binread)|IO\.read|slurp)\b|[@<])"
    r"[^\n|;]{0,120}?" + _CRED_PATH + r""
    # secret managers and credential stores read by their own tools
    r"|\bkubectl\s+get\s+secrets?\b|\bvault\s+(?:kv\s+)?(?:get|read)\b"
    r"|\baws\s+secretsmanager\s+get-secret-value|\baws\s+ssm\s+get-parameters?\b[^\n]*--with-decryption"
    r"|\bgcloud\s+secrets\s+versions\s+access|\baz\s+keyvault\s+secret\s+show"
    r"|\bsecurity\s+(?:find-(?:generic|internet)-password|dump-keychain)"
    r"|\bnetsh\s+wlan\s+show\s+profiles?\b[^\n]*\bkey=clear"
    # the whole environment
    r"|\bprintenv\b|(?:^|[|;&(`]\s*|\$\()env\s*(?:$|[|;)`])|/proc/[\w$]+/environ"
    r"|\bos\.Environ\(\)|\bSystem\.getenv\(\)|Environment\.GetEnvironmentVariables\(\)"
    r"|\bENV\.(?:to_h|to_a|each|map)\b|%ENV\b|\$_ENV\b|\bgetenv\(\s*\)|Get-ChildItem\s+env:|\bgci\s+env:"
    r"|\bdict\(\s*os\.environ\s*\)|json\.dumps\(\s*(?:dict\()?os\.environ|JSON\.stringify\(\s*process\.env\s*\))"
)
# a key file used to log in, not read out
_CRED_AS_IDENTITY = re.compile(
    r"(?i)(?:\s-i|--identity(?:-file)?|--key|--cert|--cacert|--netrc-file|--kubeconfig|IdentityFile|"
    r"KUBECONFIG=|ssh-add|ssh-keygen|chmod\s+\d{3}|--env-file|env_file|load_dotenv|dotenv)[\s=:\"']{0,3}\S{0,80}$"
)
_NET_SEND = re.compile(
    r"(?i)\b(?:curl|wget|nc|ncat|netcat|socat|telnet|scp|sftp|rsync|rclone|ossutil|azcopy|ftp|tftp|"
    r"openssl\s+s_client|gsutil\s+(?:cp|rsync)|aws\s+s3\s+(?:cp|sync|mv)|"
    r"net\.Dial|http\.(?:Post|PostForm|NewRequest)|Upload(?:File|String|Data)|Invoke-(?:RestMethod|WebRequest)|"
    r"iwr|irm|fsockopen|curl_exec|stream_context_create|(?:file_get_contents|fopen)\(\s*['\"]https?|"
    r"requests\.(?:post|put)|urlopen|fetch|XMLHttpRequest|sendBeacon|axios|socket|sendall|smtplib|"
    r"sendmail|Net::HTTP|Faraday|HTTParty|RestClient|TCPClient|WebClient|HttpClient|dns\.resolve|"
    r"getaddrinfo|gethostbyname|nslookup|dig|ping|LWP::UserAgent|LWP::Simple|HTTP::Tiny|"
    r"Mojo::UserAgent|http\.request|socket\.http|ltn12|HttpURLConnection|OkHttpClient)\b"
)
# A whole database dumped: data, not a credential, so it counts only when it goes
# to a web or raw-IP destination (a dump copied to the team's bucket is a backup).
_DATA_DUMP = re.compile(
    r"(?i)\b(?:mysqldump|mariadb-dump|pg_dump|pg_dumpall|mongodump|mongoexport)\b"
    r"|\bsqlite3\s+\S+\s+[\"']?\.dump\b"
)
_DEST = re.compile(
    r"(?i)(?:https?|ftp|wss?|s3|oss|gs)://([^/\s'\"`<>)]+)|\b(\d{1,3}(?:\.\d{1,3}){3})\b"
    r"|(?<![\w.-])((?:[a-z0-9-]+\.)+[a-z]{2,})(?::\d{2,5}|:[~/])"
)


def _foreign_dests(line: str, *, web_only: bool = False) -> list[str]:
    """Hosts on the line that are not the user's own; `web_only`: only those of an
    http(s)/ftp URL or a raw IP address (no bucket of s3://, gs://, oss://)."""
    hosts: list[str] = []
    for m in _DEST.finditer(line):
        if web_only and m.group(1) and not m.group(0).lower().startswith(("http", "ftp")):
            continue
        host = (m.group(1) or m.group(2) or m.group(3) or "").lower()
        host = host.rsplit("@", 1)[-1].split(":", 1)[0]
        if host and not OWN_HOST.match(host):
            hosts.append(host)
    return hosts


# `_CRED_READ` starts with `\b`, a class or `^` under (?i): the engine tries it
# at every position (~60 us on a 250-character line); its required literals
# (`.ssh`, `vault`, `printenv`, ...) in one automaton pass say where it cannot match
_CRED_READ_GATE = LiteralGate(_CRED_READ)
_DATA_DUMP_GATE = LiteralGate(_DATA_DUMP)


def _cred_reads(line: str) -> bool:
    if not _CRED_READ_GATE.may_match(line):
        return False
    for m in _CRED_READ.finditer(line):
        if not _CRED_AS_IDENTITY.search(line, max(0, m.start() - 40), m.end()):
            return True
    return False


def _line_offsets(text: str) -> tuple[list[str], list[int]]:
    """The lines of `text` and where each starts."""
    lines = text.split("\n")
    offsets: list[int] = []
    pos = 0
    for line in lines:
        offsets.append(pos)
        pos += len(line) + 1
    return lines, offsets


def _cooccur(spec: _Spec, text: str) -> Iterator[Hit]:
    # NOTE: carriers imports nothing from here; imported late to keep this
    # module's import light for the analyzers that never reach this kind.
    from memgate.scanning.carriers import is_mention

    if not (_CRED_READ_GATE.may_match(text) or _DATA_DUMP_GATE.may_match(text)):
        return  # no line can hold a read or a dump
    window = int(spec.p.get("window", 3))
    lines, offsets = _line_offsets(text)
    reads = [i for i, line in enumerate(lines) if len(line) <= 4000 and _cred_reads(line)]
    dumps = {
        i
        for i, line in enumerate(lines)
        if len(line) <= 4000
        and i not in reads
        and _DATA_DUMP_GATE.may_match(line)
        and _DATA_DUMP.search(line)
    }
    reads = sorted({*reads, *dumps})
    if not reads:
        return
    sends: dict[int, list[str]] = {}
    for lo in {max(0, i - window) for i in reads}:
        for j in range(lo, min(len(lines), lo + 2 * window + 1)):
            if j not in sends and len(lines[j]) <= 4000:
                line = lines[j]
                sends[j] = _foreign_dests(line) if _NET_SEND.search(line) else []
    count = 0
    for i in reads:
        for j in range(max(0, i - window), min(len(lines), i + window + 1)):
            hosts = sends.get(j) or []
            if hosts and i in dumps:
                hosts = _foreign_dests(lines[j], web_only=True)
            if not hosts:
                continue
            # the destination may sit on the send's line or the read's
            first, last = min(i, j), max(i, j)
            if any(is_mention(lines[k]) for k in (i, j)):
                continue
            start = offsets[first]
            end = offsets[last] + len(lines[last])
            yield Hit(
                spec.rule.id,
                start,
                end,
                note=f"credentials read and sent to {hosts[0]}",
            )
            count += 1
            break
        if count >= MAX_HITS_PER_RULE:
            return


# ---------------------------------------------------------------- structured transfer

_TRANSFER_WORD = re.compile(
    r"(?i)(?:upload|send|post|put|push|share|transfer|forward|e-?mail|mail|attach|export|sync|"
    r"copy|backup|publish|submit|webhook|destination|recipient|endpoint)"
)
_INBOUND_WORD = re.compile(r"(?i)\b(?:download|fetch|get|pull|read|clone|import|restore)\w*")
_IDENTITY_KEY = re.compile(
    r"(?i)identity|key_?file|keyfile|private_?key|ssh_?key|cert|ca_?file|tls|ssl|auth|"
    r"credential|login|password|token|secret|kube_?config|netrc|known_hosts"
)
"""A field naming the file a tool authenticates with, not the data it sends."""
_PUBLIC_KEY = re.compile(r"(?i)\.pub\b|\bpublic[_ -]?key\b|authorized_keys")
_MAIL_TO = re.compile(r"^[\w.+-]{1,64}@((?:[\w-]{1,63}\.){1,5}[a-z]{2,24})$", re.IGNORECASE)
_KV_LINE = re.compile(r"^\s*(?:-\s+)?([\w.$@-]{1,60})\s*[:=]\s*(.*)$")
MAX_STRUCTURED_CHARS = 50_000
MAX_JSON_NODES = 5_000
KV_BLOCK_LINES = 8
"""Key/value lines this near each other are one block (a YAML step, a config section)."""


def _payload_file(key: str, value: str) -> bool:
    """The value names a credential file and its field is not an identity one."""
    return (
        len(value) <= 500
        and ("/" in value or "\\" in value or value.startswith((".", "~")))
        and not _IDENTITY_KEY.search(key)
        and bool(SENSITIVE_PATH.search(" " + value))
        and not _PUBLIC_KEY.search(value)
    )


def _value_hosts(value: str) -> list[str]:
    mail = _MAIL_TO.match(value.strip())
    if mail:
        domain = mail.group(1).lower()
        return [] if OWN_HOST.match(domain) else [domain]
    return _foreign_dests(value)


def _json_objects(text: str) -> list[dict[str, Any]]:
    """Every object of the JSON document the text holds (whole, or from its first
    `{` to its last `}`), at most MAX_JSON_NODES nodes walked."""
    import json

    start, end = text.find("{"), text.rfind("}")
    if start < 0 or end <= start:
        return []
    try:
        doc = json.loads(text[start : end + 1])
    except (ValueError, RecursionError):
        return []
    out: list[dict[str, Any]] = []
    stack: list[Any] = [doc]
    seen = 0
    while stack and seen < MAX_JSON_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, dict):
            out.append(node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return out


def _string_fields(node: dict[str, Any], limit: int = 200) -> list[tuple[str, str]]:
    """(key, string) of an object and of the objects and lists inside it."""
    pairs: list[tuple[str, str]] = []
    stack: list[tuple[str, Any]] = [(str(k), v) for k, v in node.items()]
    while stack and len(pairs) < limit:
        key, value = stack.pop()
        if isinstance(value, dict):
            stack.extend((str(k), v) for k, v in value.items())
        elif isinstance(value, list):
            stack.extend((key, v) for v in value)
        elif isinstance(value, str):
            pairs.append((key, value))
    return pairs


def _transfer_host(pairs: Sequence[tuple[str, str]]) -> str | None:
    """The foreign host a block of fields sends a credential file to: a field
    naming a credential file (not as the tool's own identity), another naming a
    host or address that is not the user's own, and a key or short value saying
    the data goes out (upload, destination, webhook, send...) with none saying it
    comes in (download, fetch, restore)."""
    if not any(_payload_file(k, v) for k, v in pairs):
        return None
    hosts = [h for k, v in pairs if not _payload_file(k, v) for h in _value_hosts(v)]
    if not hosts:
        return None
    words = " ".join([k for k, _ in pairs] + [v for _, v in pairs if len(v) <= 60 and "/" not in v])
    if not _TRANSFER_WORD.search(words) or _INBOUND_WORD.search(words):
        return None
    return hosts[0]


def _structured_transfer(spec: _Spec, text: str) -> Iterator[Hit]:
    """A tool call, a workflow step or a config block (JSON, YAML, key = value)
    whose fields name a credential file and a foreign destination and say it is
    sent: `{"tool": "upload_file", "path": "~/.ssh/id_rsa", "destination":
    "https://x.example"}`, an Ansible `uri` step posting `lookup('file',
    '/etc/shadow')`. Code and shell lines are the other kinds'; this one reads
    what has no verb to parse, only fields."""
    from memgate.scanning.carriers import is_mention

    if len(text) > MAX_STRUCTURED_CHARS or not SENSITIVE_PATH.search(text):
        return
    for obj in _json_objects(text):
        host = _transfer_host(_string_fields(obj))
        if host is not None:
            yield Hit(spec.rule.id, 0, len(text), note=f"a credential file sent to {host}")
            return
    lines, offsets = _line_offsets(text)
    fields: list[tuple[int, str, str]] = []
    for i, line in enumerate(lines):
        m = _KV_LINE.match(line) if len(line) <= 2000 else None
        if m is not None:
            fields.append((i, m.group(1), m.group(2).strip().strip("'\"")))
    for n, (i, _, _) in enumerate(fields):
        block = [
            f for f in fields[max(0, n - KV_BLOCK_LINES + 1) : n + 1] if i - f[0] < KV_BLOCK_LINES
        ]
        if len(block) < 2:
            continue
        host = _transfer_host([(k, v) for _, k, v in block])
        if host is None or any(is_mention(lines[j]) for j, _, _ in block):
            continue
        yield Hit(
            spec.rule.id,
            offsets[block[0][0]],
            offsets[i] + len(lines[i]),
            note=f"a credential file sent to {host}",
        )
        return
