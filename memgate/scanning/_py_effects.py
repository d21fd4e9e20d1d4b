"""Python code reduced to effects: what it does, with its arguments and where their
data came from. The `effect` rules of `rules/python_ast.toml` are data over these.

An effect is one of:

- `exec`: runs dynamic code or a command line (origin of the code: `literal`,
  `file`, `local`, `outside`, `fetched`, `decoded`);
- `fetch`: downloads (requests / httpx / urllib get, urlretrieve);
- `send`: sends data over the network (HTTP post / put with data, files or json,
  socket send, SMTP, FTP upload, SFTP put), with the kinds of data sent
  (`secret`, `env`, `file`, `outside`, `local`) and the host when it is written;
- `dns`: a name lookup whose label is built from data;
- `connect` / `listen`: a socket reaching out, or waiting for a caller;
- `shell`: an interactive shell (pty.spawn, `/bin/sh -i`, `cmd.exe`);
- `fd_dup`: file descriptors duplicated (os.dup2), a socket onto stdio;
- `destroy`: deletes (scope `broad`: `/`, `~`, `/home/*`, system dirs; else `narrow`);
- `deserialize`, `template`, `extract` (an archive without a member filter),
  `persist` (crontab, shell rc files, systemd units, git hooks, Run keys).

A command line given to os.system / subprocess as a literal is read too: `curl
… | sh` is an `exec` of fetched code, `rm -rf ~` a broad `destroy`, `bash -i >&
/dev/tcp/…` a `shell` plus a `connect`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from memgate.scanning._code_py import (
    DECODED,
    ENV,
    EXT,
    FETCHED,
    FILE,
    LOCAL,
    SENS,
    SENSITIVE_PATH,
    CallFact,
    PyFacts,
)

__all__ = [
    "Effect",
    "EffectSet",
    "call_effects",
    "command_effects",
    "data_kinds",
    "host_of",
    "origin_of",
    "python_effects",
]


@dataclass(frozen=True, slots=True)
class Effect:
    kind: str
    start: int
    end: int
    origin: str = "literal"
    data: frozenset[str] = frozenset()
    host: str | None = None
    """`own` (loopback), `foreign` (any other written host) or None (not written)."""
    scope: str = ""
    what: str = ""
    """The call (`requests.post`), for the finding's note."""


def origin_of(bits: int, literal: bool, decoded: bool = False) -> str:
    """Where a value came from, the most dangerous first."""
    if bits & FETCHED:
        return "fetched"
    if decoded or bits & DECODED:
        return "decoded"
    if bits & EXT:
        return "outside"
    if literal:
        return "literal"
    if bits & LOCAL:
        return "local"
    if bits & FILE:
        return "file"
    return "literal"


def data_kinds(bits: int) -> frozenset[str]:
    out: set[str] = set()
    if bits & SENS:
        out.add("secret")
    if bits & ENV:
        out.add("env")
    if bits & FILE:
        out.add("file")
    if bits & FETCHED:
        out.add("fetched")
    elif bits & EXT:
        out.add("outside")
    if bits & LOCAL:
        out.add("local")
    return frozenset(out)


_EXEC = frozenset(
    {
        *("eval", "exec", "compile", "execfile", "builtins.eval", "builtins.exec"),
        *("builtins.compile", "runpy.run_path", "runpy.run_module", "code.interact"),
        *("types.FunctionType", "__builtins__.eval", "__builtins__.exec"),
    }
)
_COMMAND = frozenset(
    {
        *("os.system", "os.popen", "os.popen2", "os.popen3", "posix.system", "system", "popen"),
        *("subprocess.call", "subprocess.run", "subprocess.Popen", "subprocess.check_call"),
        *("subprocess.check_output", "subprocess.getoutput", "subprocess.getstatusoutput"),
        *("commands.getoutput", "asyncio.create_subprocess_shell"),
        *("asyncio.create_subprocess_exec", "pexpect.spawn", "pexpect.run"),
    }
)
_SHELL_PROGRAM = re.compile(
    r"(?i)^(?:\S*/)?(?:ba|z|k|c|tc|da|fi)?sh(?:\.exe)?$|^cmd(?:\.exe)?$|^(?:\S*[/\\])?powershell(?:\.exe)?$|^pwsh$"
)
_HTTP_SEND = frozenset({"post", "put", "patch"})
_CONNECT = frozenset(
    {
        *("socket.create_connection", "telnetlib.Telnet", "asyncio.open_connection"),
        *("trio.open_tcp_stream", "websocket.create_connection", "websockets.connect"),
        *("ssl.create_connection", "socket.socket.connect"),
    }
)
_UPLOAD_METHODS = frozenset({"upload_file", "upload_fileobj", "put_object", "files_upload"})
_HTTP_LIBS = ("requests", "httpx", "aiohttp", "urllib3", "session", "client", "http")
_URLOPEN = frozenset(
    {
        "urllib.request.urlopen",
        "urllib2.urlopen",
        "urlopen",
        "urllib.urlopen",
        "urllib.request.Request",
    }
)
_FETCH = frozenset(
    {
        *("urllib.request.urlretrieve", "urllib.urlretrieve", "wget.download"),
        *("requests.get", "httpx.get", "requests.request", "httpx.request", "httpx.stream"),
        *("urllib3.request", "pycurl.Curl"),
    }
)
_DNS = frozenset(
    {
        *("socket.gethostbyname", "socket.gethostbyname_ex", "socket.getaddrinfo"),
        *("dns.resolver.resolve", "dns.resolver.query", "dns.resolver.Resolver.resolve"),
        *("socket.gethostbyaddr", "dns.query.udp", "aiodns.DNSResolver.query"),
    }
)
_DELETE = frozenset(
    {
        *("shutil.rmtree", "os.removedirs", "os.rmdir", "os.remove", "os.unlink"),
        *("send2trash.send2trash",),
    }
)
_DESERIALIZE = frozenset(
    {
        *("pickle.loads", "pickle.load", "cPickle.loads", "cPickle.load", "_pickle.loads"),
        *("_pickle.load", "pickle.Unpickler", "marshal.loads", "marshal.load", "dill.loads"),
        *("dill.load", "joblib.load", "jsonpickle.decode", "pandas.read_pickle", "torch.load"),
        *("yaml.unsafe_load", "yaml.unsafe_load_all", "cloudpickle.load", "cloudpickle.loads"),
    }
)
_TEMPLATE = frozenset(
    {
        *("jinja2.Template", "flask.render_template_string", "render_template_string"),
        *("mako.template.Template", "django.template.Template", "jinja2.Environment.from_string"),
        *("tornado.template.Template", "chameleon.PageTemplate"),
    }
)
_PERSIST_PATH = re.compile(
    r"(?i)(?:^|/|~)\.(?:bashrc|bash_profile|bash_login|profile|zshrc|zprofile|zshenv|zlogin"
    r"|cshrc|tcshrc|kshrc|config/fish/config\.fish|xinitrc|xprofile)\b"
    r"|/etc/(?:cron|rc\.local|profile|bash\.bashrc|init\.d|systemd|environment|ld\.so\.preload|sudoers)"
    r"|/var/spool/cron|crontab|systemd/(?:system|user)/|\.service\b|\.timer\b"
    r"|\.git/hooks/|\.config/autostart|LaunchAgents|LaunchDaemons|\.ssh/authorized_keys"
    r"|Start Menu\\\\Programs\\\\Startup|CurrentVersion\\\\Run|sitecustomize\.py|usercustomize\.py"
    r"|\.pth$"
)
_WRITE_MODE = re.compile(r"[wax+]")
_WRITE_METHODS = frozenset({"write_text", "write_bytes", "write", "open"})
_LOOPBACK = re.compile(
    r"(?i)^(?:localhost|127\.\d+\.\d+\.\d+|::1|\[::1\]|0\.0\.0\.0|host\.docker\.internal|[\w.-]+\.local(?:host)?)$"
)

# Command lines -------------------------------------------------------------------

_CMD_FETCH_EXEC = re.compile(
    r"(?i)\b(?:curl|wget|fetch|iwr|irm|invoke-webrequest|invoke-restmethod|lwp-download)\b[^|;&\n]{0,400}"
    r"\|\s*(?:sudo\s+(?:-\S+\s+)*)?(?:env\s+)?(?:ba|z|k|da|fi)?sh\b|\|\s*(?:sudo\s+)?(?:python[0-9.]*|perl|ruby|node|php|iex|invoke-expression)\b"
    r"|(?:ba|z)?sh\s+<\(\s*(?:curl|wget)\b|\b(?:sh|bash|zsh)\s+-c\s+[\"']?\$\((?:curl|wget)\b"
    r"|\beval\s+[\"']?\$\((?:curl|wget)\b|downloadstring\s*\(|\bmshta\s+[\"']?https?:"
    r"|\bcertutil\b[^\n]{0,80}-urlcache|\bregsvr32\b[^\n]{0,80}/i:https?:|\bbitsadmin\b[^\n]{0,80}/transfer"
    r"|\b(?:curl|wget)\b[^;&|\n]{0,300}(?:-o|-O|--output)\s*\S+\s*(?:;|&&)\s*(?:ba|z)?sh\b"
)
_CMD_REVERSE = re.compile(
    r"(?i)/dev/(?:tcp|udp)/|\bn(?:c|cat|etcat)\b[^|;&\n]{0,120}\s-[a-z]*[ec]\s"
    r"|\bmkfifo\b[^\n]{0,200}\bn(?:c|cat)\b|\bsocat\b[^\n]{0,200}\bexec:|\btelnet\b[^\n]{0,120}\|\s*(?:ba)?sh\b"
    r"|\b(?:ba|z)?sh\s+-i\b[^\n]{0,40}[<>]&"
)
_CMD_SHELL = re.compile(
    r"(?i)(?:^|[\s;&|'\"(])(?:/bin/|/usr/bin/)?(?:ba|z|k|da)?sh\s+-i\b"
    r"|\bcmd\.exe\b|\bpowershell\b"
)
_RM = re.compile(r"(?i)\brm\s+((?:-{1,2}[\w-]+\s+)+)([^;&|\n]{1,300})")
_CMD_WIPE = re.compile(
    r"(?i)\bmkfs(?:\.\w+)?\s+/dev/|\bdd\b[^\n]{0,120}\bof=/dev/(?:sd|hd|nvme|vd|xvd|disk|mmcblk)"
    r"|:\(\)\s*\{\s*:\s*\|\s*:\s*&\s*\}\s*;\s*:|\bshred\b[^\n]{0,80}/dev/|\bwipefs\b"
    r"|\bdel\s+/[fsq]\b[^\n]{0,40}[a-z]:\\|\bformat\s+[a-z]:|\brd\s+/s\s+/q\s+[a-z]:\\"
    r"|--no-preserve-root|\bchmod\s+-R\s+0?777\s+/(?:\s|$)|>\s*/dev/sd[a-z]\b"
)
_BROAD_TARGET = re.compile(
    r"""^["']?(?:/|/\*|~/?|~/\*|~/\.\*|\$HOME/?\*?|\$\{HOME\}/?\*?|/home(?:/[^/\s]*)?/?\*?|/root/?\*?"""
    r"""|/(?:etc|usr|var|bin|sbin|boot|opt|srv|lib|lib64|dev|mnt|media)/?\*?|[A-Za-z]:\\?\\?\*?"""
    r"""|/Users(?:/[^/\s]*)?/?\*?|%USERPROFILE%\\?|\$\{?HOME\}?)["']?$"""
)
_CMD_SEND = re.compile(
    r"(?i)\b(?:curl|wget|nc|ncat|netcat|scp|rsync|sftp|ftp|socat|openssl\s+s_client|rclone|smbclient)\b"
)
_CMD_UPLOAD = re.compile(
    r"(?i)\bcurl\b[^\n]{0,300}(?:\s-(?:d|F|T)\s*|--data[\w-]*[\s=]|--upload-file[\s=]|--form[\s=])"
    r"|\bwget\b[^\n]{0,300}--post-(?:file|data)|\|\s*(?:nc|ncat|netcat|socat)\b|\bscp\b|\brsync\b"
    r"|\brclone\s+(?:copy|sync)\b"
)
_CMD_PERSIST = re.compile(
    r"(?i)\bcrontab\b|>>?\s*~?/?\S*\.(?:bashrc|bash_profile|profile|zshrc|zprofile)\b|/etc/cron"
    r"|\bsystemctl\s+(?:--user\s+)?enable\b|\bschtasks\b[^\n]{0,40}/create|\breg\s+add\b[^\n]{0,120}\\run\b"
    r"|\blaunchctl\s+load\b|\.git/hooks/|authorized_keys"
)


def command_effects(cmd: str, start: int, end: int, what: str) -> list[Effect]:
    """Effects of a command line run by the shell (bounded: the first 2 KB)."""
    cmd = cmd[:2000]
    out: list[Effect] = []
    if _CMD_FETCH_EXEC.search(cmd):
        out.append(Effect("exec", start, end, origin="fetched", what=what))
        out.append(Effect("fetch", start, end, what=what))
    if _CMD_REVERSE.search(cmd):
        out.append(Effect("shell", start, end, what=what))
        out.append(Effect("connect", start, end, host="foreign", what=what))
    elif _CMD_SHELL.search(cmd):
        out.append(Effect("shell", start, end, what=what))
    scope = _rm_scope(cmd)
    if scope or _CMD_WIPE.search(cmd):
        out.append(Effect("destroy", start, end, scope=scope or "broad", what=what))
    if _CMD_SEND.search(cmd) and _CMD_UPLOAD.search(cmd):
        data = {"local"}
        if SENSITIVE_PATH.search(cmd) or re.search(r"(?i)\b(?:env|printenv)\b\s*\|", cmd):
            data.add("secret")
        out.append(Effect("send", start, end, data=frozenset(data), host="foreign", what=what))
    if _CMD_PERSIST.search(cmd):
        out.append(Effect("persist", start, end, what=what))
    return out


def _rm_scope(cmd: str) -> str:
    scope = ""
    for m in _RM.finditer(cmd):
        flags = m.group(1).lower()
        if "r" not in flags and "recursive" not in flags:
            continue
        for target in m.group(2).split():
            if target.startswith("-"):
                continue
            if _BROAD_TARGET.match(target):
                return "broad"
            scope = "narrow"
    return scope


# Python calls ---------------------------------------------------------------------


def host_of(text: str | None) -> str | None:
    """`own` or `foreign` for a written URL / host, None when it is not written."""
    if not text:
        return None
    value = text.strip().strip("'\"")
    if "://" in value:
        try:
            host = urlsplit(value).hostname or ""
        except ValueError:
            return None
    else:
        host = value.split()[0].split(":")[0] if value.split() else ""
    if not host or host == "?":
        return None
    return "own" if _LOOPBACK.match(host) else "foreign"


def _method(call: CallFact) -> str:
    return call.qual.rsplit(".", 1)[-1]


def _bits(call: CallFact, skip: frozenset[str] = frozenset()) -> int:
    bits = 0
    for b in call.args:
        bits |= b
    for key, b in call.keywords.items():
        if key not in skip:
            bits |= b
    return bits


_NOT_DATA = frozenset({"headers", "auth", "timeout", "verify", "cert", "proxies", "url"})


def _origin(call: CallFact, index: int = 0) -> str:
    if index >= len(call.args):
        return "literal"
    decoded = call.obfuscated_arg and index == 0
    return origin_of(call.args[index], call.literal[index], decoded)


def _socketish(call: CallFact, imports: set[str]) -> bool:
    recv = call.receiver or ""
    if recv.startswith(("socket.", "ssl.")) or recv.endswith((".accept", ".wrap_socket")):
        return True
    base = call.qual.rsplit(".", 1)[0].rsplit(".", 1)[-1].lower()
    return "socket" in imports and bool(
        re.match(r"^(?:s|sock\w*|conn\w*|client\w*|c|so|sk|tcp\w*|udp\w*|peer|remote)$", base)
    )


def call_effects(call: CallFact, imports: set[str]) -> Iterable[Effect]:
    q = call.qual
    m = _method(call)
    s, e = call.start, call.end
    first = call.arg_consts[0] if call.arg_consts else None
    if q in _EXEC:
        yield Effect("exec", s, e, origin=_origin(call), what=q)
        return
    if q in _COMMAND or q.startswith(("os.exec", "os.spawn", "os.posix_spawn")) or q == "pty.spawn":
        if q == "pty.spawn":
            yield Effect("shell", s, e, what=q)
        argv = " ".join(c for c in call.arg_consts if c) if q.startswith("os.") else first
        fed = call.keyword_quals.get("input")
        if fed:  # `subprocess.run(["crontab", "-"], input=b"@reboot curl … | sh")`
            yield from command_effects(fed, s, e, q)
        if argv:
            yield from command_effects(argv, s, e, q)
            words = argv.split()
            prog = words[0] if words else ""
            if q.startswith(("os.exec", "os.spawn")) and len(words) > 1:
                prog = words[1] if words[0] in ("0", "1", "os.P_WAIT") else words[0]
            if _SHELL_PROGRAM.match(prog) and (
                len(words) == 1 or "-i" in words or call.keywords.keys() & {"stdin", "stdout"}
            ):
                yield Effect("shell", s, e, what=q)
        bits = call.args[0] if call.args else 0
        if bits & (FETCHED | DECODED) or call.obfuscated_arg:
            yield Effect("exec", s, e, origin=_origin(call), what=q)
        return
    if _stages_secret(call, q, m):
        yield Effect("stage", s, e, data=frozenset({"secret"}), what=q)
        return
    if q in ("os.dup2", "os.dup"):
        yield Effect("fd_dup", s, e, what=q)
        return
    if q in _DNS or (m in ("resolve", "query") and "dns" in (call.receiver or q)):
        bits = call.args[0] if call.args else 0
        kind = call.arg_kinds[0] if call.arg_kinds else "literal"
        if bits and kind in ("fstring", "concat", "format", "other", "name"):
            yield Effect("dns", s, e, data=data_kinds(bits), host="foreign", what=q)
        return
    if q in _CONNECT or (m in ("connect", "connect_ex") and _socketish(call, imports)):
        yield Effect("connect", s, e, host=host_of(first), what=q)
        return
    if m in ("bind", "listen", "accept") and _socketish(call, imports):
        yield Effect("listen", s, e, what=q)
        return
    recv_name = (call.receiver or "").lower()
    if m in ("send", "sendall", "sendto", "sendfile", "sendmsg", "write") and (
        _socketish(call, imports)
        or recv_name.startswith(("websocket", "websockets", "asyncio.open_connection"))
    ):
        yield Effect("send", s, e, data=data_kinds(_bits(call)), what=q)
        return
    if m in ("sendmail", "send_message") or (
        m == "send" and "smtp" in (call.receiver or "").lower()
    ):
        yield Effect("send", s, e, data=data_kinds(_bits(call)), host="foreign", what=q)
        return
    if m == "request" and recv_name.startswith("http.client"):
        yield Effect("send", s, e, data=data_kinds(_bits(call)), what=q)
        return
    if m in _UPLOAD_METHODS:
        yield Effect("send", s, e, data=data_kinds(_bits(call)), what=q)
        return
    if m in ("storbinary", "storlines") or (
        m in ("put", "putfo") and re.search(r"(?i)sftp|scp|ftp|paramiko", call.receiver or q)
    ):
        yield Effect("send", s, e, data=data_kinds(_bits(call)), what=q)
        return
    lib = q.split(".", 1)[0].lower()
    recv = (call.receiver or "").lower()
    http = lib in ("requests", "httpx", "aiohttp", "urllib3") or recv.startswith(
        ("requests.", "httpx.", "aiohttp.", "urllib3.")
    )
    if m in _HTTP_SEND and (http or any(x in q.lower() for x in _HTTP_LIBS)):
        host = host_of(first) or host_of(call.keyword_quals.get("url"))
        yield Effect("send", s, e, data=data_kinds(_bits(call, _NOT_DATA)), host=host, what=q)
        return
    if m == "request" and http and first and first.upper() in ("POST", "PUT", "PATCH"):
        host = host_of(call.arg_consts[1] if len(call.arg_consts) > 1 else None)
        yield Effect("send", s, e, data=data_kinds(_bits(call, _NOT_DATA)), host=host, what=q)
        return
    if q in _URLOPEN:
        sent = 0
        for b in call.args[1:]:
            sent |= b
        sent |= call.keywords.get("data", 0)
        if sent:
            yield Effect("send", s, e, data=data_kinds(sent), host=host_of(first), what=q)
        else:
            yield Effect("fetch", s, e, host=host_of(first), what=q)
        return
    if q in _FETCH or (m in ("get", "stream") and http):
        yield Effect("fetch", s, e, host=host_of(first), what=q)
        return
    if q in _DELETE or (m in ("unlink", "rmdir") and call.receiver_const is not None):
        target = first if q in _DELETE else call.receiver_const
        if target is not None:
            # `os.path.join(root, name)` under `os.walk("/")` folds to `//*`
            target = re.sub(r"/{2,}", "/", target.strip())
            scope = "broad" if _BROAD_TARGET.match(target) else "narrow"
            yield Effect("destroy", s, e, scope=scope, what=q)
        return
    if q in _DESERIALIZE or (q == "yaml.load" and "Loader" not in call.keyword_quals):
        safe = call.keyword_quals.get("weights_only", "").lower() == "true"
        if not safe:
            yield Effect("deserialize", s, e, origin=_origin(call), what=q)
        return
    if q in _TEMPLATE or m == "from_string" or (q == "Template" and "jinja2" in imports):
        yield Effect("template", s, e, origin=_origin(call), what=q)
        return
    if m in ("extractall", "extract") or q == "shutil.unpack_archive":
        tar = "tar" in recv or "tarfile" in imports or q.startswith("tarfile")
        filt = call.keyword_quals.get("filter", "")
        if q == "shutil.unpack_archive" or tar:
            if filt in ("", "fully_trusted", "None"):
                yield Effect("extract", s, e, origin=origin_of(call.receiver_taint, False), what=q)
        elif call.receiver_taint & (FETCHED | EXT):
            yield Effect("extract", s, e, origin=origin_of(call.receiver_taint, False), what=q)
        return
    if q in ("open", "io.open", "builtins.open", "codecs.open") and first:
        mode = call.arg_consts[1] if len(call.arg_consts) > 1 else call.keyword_quals.get("mode")
        if mode and _WRITE_MODE.search(mode) and _PERSIST_PATH.search(first):
            yield Effect("persist", s, e, what=f"open({first[:60]!r})")
        return
    if m in _WRITE_METHODS and call.receiver_const and _PERSIST_PATH.search(call.receiver_const):
        if m != "open" or (first and _WRITE_MODE.search(first)):
            yield Effect("persist", s, e, what=m)
        return
    if q.startswith(("winreg.SetValue", "_winreg.SetValue", "crontab.CronTab")):
        yield Effect("persist", s, e, what=q)


_COPY = frozenset(
    {"shutil.copy", "shutil.copy2", "shutil.copyfile", "shutil.copytree", "shutil.make_archive"}
)
_ARCHIVE_WRITERS = (
    *("tarfile.open", "zipfile.ZipFile", "ZipFile", "gzip.GzipFile", "gzip.open", "bz2.open"),
    *("bz2.BZ2File", "lzma.open", "open", "io.open", "tarfile.TarFile"),
)


def _stages_secret(call: CallFact, q: str, m: str) -> bool:
    """A credential file copied, archived or written into another file (collection
    before a send): `tar.add("/etc/shadow")`, `gz.write(open(key).read())`."""
    if not _bits(call) & SENS:
        return False
    if q in _COPY:
        return True
    return m in ("add", "write", "writestr") and (call.receiver or "").startswith(_ARCHIVE_WRITERS)


@dataclass(frozen=True, slots=True)
class EffectSet:
    effects: tuple[Effect, ...]
    kinds: frozenset[str]


def python_effects(facts: PyFacts) -> EffectSet:
    """Every effect of the parsed calls, with sends to an unwritten host given the
    host of the code's socket connection, and runs of a downloaded file marked
    as fetched."""
    found: list[Effect] = []
    for call in facts.calls:
        found.extend(call_effects(call, facts.imports))
    connect_hosts = {x.host for x in found if x.kind == "connect"}
    if connect_hosts:
        own = connect_hosts == {"own"}
        found = [
            Effect(
                x.kind,
                x.start,
                x.end,
                x.origin,
                x.data,
                "own" if own else "foreign",
                x.scope,
                x.what,
            )
            if x.kind == "send" and x.host is None and x.what.rsplit(".", 1)[-1].startswith("send")
            else x
            for x in found
        ]
    if any(x.kind == "fetch" for x in found):
        targets = _download_targets(facts)
        if targets:
            marked: list[Effect] = []
            for x in found:
                site = _call_at(facts, x.start)
                if x.kind == "exec" or (site is not None and site.qual in _COMMAND):
                    text = " ".join(c for c in (site.arg_consts if site else ()) if c)
                    if any(t in text for t in targets):
                        x = Effect("exec", x.start, x.end, "fetched", what=x.what)
                marked.append(x)
            found = marked
            for call in facts.calls:
                if call.qual in _COMMAND or call.qual.startswith(("os.exec", "os.spawn")):
                    text = " ".join(c for c in call.arg_consts if c)
                    if text and any(t in text for t in targets):
                        found.append(
                            Effect("exec", call.start, call.end, "fetched", what=call.qual)
                        )
    return EffectSet(tuple(found), frozenset(x.kind for x in found))


def _call_at(facts: PyFacts, start: int) -> CallFact | None:
    for call in facts.calls:
        if call.start == start:
            return call
    return None


def _download_targets(facts: PyFacts) -> set[str]:
    """Paths a download was written to: urlretrieve's second argument, or a file
    opened for writing in code that writes fetched data."""
    targets: set[str] = set()
    writes_fetched = any(
        c.qual.rsplit(".", 1)[-1] in ("write", "write_bytes", "write_text") and _bits(c) & FETCHED
        for c in facts.calls
    )
    for c in facts.calls:
        if c.qual in ("urllib.request.urlretrieve", "urllib.urlretrieve", "wget.download"):
            if len(c.arg_consts) > 1 and c.arg_consts[1]:
                targets.add(c.arg_consts[1])
        elif writes_fetched and c.qual in ("open", "io.open") and len(c.arg_consts) > 1:
            path, mode = c.arg_consts[0], c.arg_consts[1]
            if path and mode and "w" in mode:
                targets.add(path)
        elif writes_fetched and c.qual.endswith(("write_bytes", "write_text")) and c.receiver_const:
            targets.add(c.receiver_const)
    return {t for t in targets if len(t) >= 3}
