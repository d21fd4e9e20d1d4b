"""The carrier extractor: every command-like piece of a memory, wherever it sits.

A memory write carries code in many wrappers: fenced and unfenced blocks,
inline code spans, Dockerfile `RUN` / `CMD` / `ENTRYPOINT`, crontab lines, CI
steps (`run:`, `script:`), Makefile recipes, `package.json` scripts, git
aliases (`!...`), rc-file lines, JSON / YAML string values, and prose that
says "run: <command>". Each is returned as a `Carrier` (its text, where it
starts in the memory, a language hint, its group, whether it is only
mentioned). The chunker's label is not consulted: a command inside prose is
still a command.

Nested carriers (`sh -c '...'`, `python -c '...'`, `powershell
-EncodedCommand ...`, heredocs, `$(...)`) are found by the effects model
while it walks a parsed carrier (see `memgate.scanning.effects`), with
`MAX_DEPTH` as the bound.

Pure functions of the text, bounded, never raise.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

MAX_DEPTH = 3
MAX_CARRIERS = 400
MAX_LINE = 8000

_FENCE = re.compile(r"(?m)^[ \t]{0,3}(```+|~~~+)[ \t]*([\w+#.-]*)[^\n]*\n")
_INLINE = re.compile(r"(?<!`)`([^`\n]{3,1500})`(?!`)")
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_COMMENT_LINE = re.compile(r"^\s*(?:#(?![!{])|//|REM\b|rem\s|::|;;|--\s|<!--)")
_PREFIXES = (
    re.compile(r"^\s*(?:[-*+•]\s+|\d{1,3}[.)]\s+)"),  # list items
    re.compile(r"^\s*(?:[$%❯>]\s+|PS\s?[^>\n]{0,60}>\s*|[A-Za-z]:\\[^>\n]{0,60}>\s*)"),  # prompts
    re.compile(r"^\s*(?:ONBUILD\s+)?(?:RUN|CMD|ENTRYPOINT)\s+(?:--\S+\s+)*"),  # Dockerfile
    re.compile(  # CI / compose / k8s / package scripts as YAML keys
        r"^\s*(?:-\s+)?(?:run|script|command|cmd|entrypoint|args|exec|before_script|"
        r"after_script|shell|inline|pre|post|install|build|test|start|prepare|"
        r"preinstall|postinstall|prestart|ExecStart|ExecStartPre|ExecStop)\s*[:=]\s*[|>]?-?\s*"
    ),
    re.compile(
        r"^\s*(?:@(?:reboot|hourly|daily|weekly|monthly|yearly|annually)|(?:[\d*/,-]+\s+){5})(?:root\s+)?"
    ),
    re.compile(r"^\t[@-]{0,2}"),  # Makefile recipe
    re.compile(r"^\s*[\w.-]{1,40}\s*=\s*[\"']?!"),  # git alias `name = !cmd`
)
# one of `_PREFIXES` matches at the start of a line (one match instead of seven)
_ANY_PREFIX = re.compile("|".join(f"(?:{p.pattern})" for p in _PREFIXES))
_JSON_PAIR = re.compile(r'"(?:[^"\\\n]|\\.){0,200}"\s*:\s*"((?:[^"\\\n]|\\.){4,4000})"')
_JSON_ARRAY = re.compile(
    r'\[\s*("(?:[^"\\\n]|\\.){0,2000}"(?:\s*,\s*"(?:[^"\\\n]|\\.){0,2000}"){0,40})\s*\]'
)
_JSON_ITEM = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_PROSE_COLON = re.compile(
    r"(?:(?<=[^\x00-\x7f])[:：]\s*|(?<=[\w)\]\"'])[:](?!//)\s+|：\s*)(?=[\"'`]?[A-Za-z_./~$\\%\[(@])"
)
_CODE_HEAD = re.compile(r"[(){};=|$<>\[\]]")
_RUN_WORD = re.compile(
    r"(?i)(?:(?<!\S)(?:run|execute|paste|type|enter)(?:\s*[:：]\s*|\s+)|(?:执行|运行|输入|跑一下)\s*[:：]?\s*)"
)
_COMMAND_START = re.compile(
    r"^\s*(?:sudo\s+)?(?:curl|wget|bash|sh|zsh|nc|ncat|socat|perl|ruby|php|node|python[23]?|awk|gawk|"
    r"echo|printf|cat|tar|rm|chmod|crontab|git|scp|rsync|rclone|certutil|bitsadmin|mshta|regsvr32|"
    r"rundll32|cmd|reg|schtasks|wmic|vssadmin|bcdedit|msiexec|telnet|openssl|mkfifo|export|eval|exec|"
    r"source|xxd|base64|ping|dig|nslookup|useradd|systemctl|launchctl|powershell|pwsh|iex|"
    r"Invoke-\w+|Start-\w+|Set-\w+|Add-\w+|New-\w+|\$\w+\s*=)(?:\.exe)?\b",
    re.IGNORECASE,
)
_WORDS = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]")
# Cue words that make a carrier inside a sentence a mention, not a use: a
# warning, a prohibition, a description of a detector or an example of abuse.
_WARN = re.compile(
    r"(?i)\b(?:never(?!\s+mind\b)"
    r"|(?:don'?t|do not)(?!\s+(?:forget|hesitate|worry|wait|stop|skip)\b)|"
    r"avoid|instead of|warn(?:s|ing|ed)?|dangerous|unsafe|risky|"
    r"insecure|malicious|attackers?|block(?:s|ed)?|flag(?:s|ged)?|detect(?:s|ed|ion)?|"
    r"prohibit(?:ed)?|forbid(?:den)?|disallow(?:ed)?|not allowed|anti-?pattern|bad practice|"
    r"red flag|reject(?:s|ed)?|such as|e\.g\.|for example|like|"
    # detection writing: what a SOC watches for is quoted, not run
    r"watch(?:ing)? (?:for|in)|to watch|alerts? (?:on|for)|look(?:ing)? out for|"
    r"indicators? of compromise|IOCs?|hunt(?:ing)? (?:for|quer(?:y|ies))|"
    r"(?:was|were|been) (?:seen|observed))\b"
    r"|不要|禁止|切勿|严禁|避免|危险|不安全|恶意|攻击者|例如|比如|拦截|警告|不允许|别用|监控|告警|狩猎"
)
# A unified diff (`git diff`, `git show`, a patch pasted into a review): its
# added and context lines are the code that will run, with the `+` / ` ` marker
# stripped; its removed lines are code taken out, carried as mentions.
DIFF_MARK = re.compile(
    r"(?m)^(?:diff --git \S|@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@|--- \S[^\n]*\n\+\+\+ \S)"
)
_DIFF_REMOVED = re.compile(r"-(?!--)")
_DIFF_ADDED = re.compile(r"\+(?!\+\+)")


def is_diff(text: str) -> bool:
    """Whether `text` holds a unified diff (a hunk header, a `diff --git` line or
    a `---` / `+++` file pair)."""
    return ("@@ -" in text or "diff --git" in text or "+++ " in text) and (
        DIFF_MARK.search(text) is not None
    )


# A review that quotes the vulnerable code under a label and its fix under
# another ("Before:" / "After:", "修改前：" / "修改后："): the quoted code is a
# mention, the fix is the code.
BEFORE_LABEL = re.compile(
    r"(?im)^[ \t#/*>-]*(?:before|vulnerable|insecure|bad|unsafe|wrong|old|don'?t|"
    r"修改前|有漏洞的写法|错误写法|旧写法)(?:\s+(?:code|version|form))?\s*[:：][ \t]*$"
)
AFTER_LABEL = re.compile(
    r"(?im)^[ \t#/*>-]*(?:after|fixed|secure|good|safe|correct|new|do|"
    r"修改后|修复后|正确写法|新写法)"
    r"(?:\s+(?:code|version|form))?\s*[:：][ \t]*$"
)
# A bare review diff (no hunk header): `- old line` / `+ new line` side by side.
_BARE_DIFF_LINE = re.compile(r"[-+](?![-+])[ \t]?\S")
_CODE_CHAR = re.compile(r"[(){}\[\]=;|$<>]")


def before_fix_spans(text: str) -> list[tuple[int, int]]:
    """Spans of `text` that quote code a fix replaces: a section under a
    "Before:"-style label that an "After:"-style section follows (a label with
    no fix after it quotes nothing), and the removed lines of a bare review diff
    (a run of `-` / `+` lines holding both, the removed ones code-like)."""
    spans: list[tuple[int, int]] = []
    if ":" in text or "：" in text:
        for m in BEFORE_LABEL.finditer(text):
            after = AFTER_LABEL.search(text, m.end())
            if after is not None and text[after.end() :].strip():
                spans.append((m.end(), after.start()))
    if "\n-" in text or text.startswith("-"):
        run: list[tuple[int, int, str]] = []
        pos = 0
        for line in [*text.split("\n"), ""]:
            if _BARE_DIFF_LINE.match(line):
                run.append((pos, pos + len(line), line[0]))
            else:
                marks = {m for _, _, m in run}
                if marks == {"-", "+"}:
                    spans.extend(
                        (lo, hi)
                        for lo, hi, m in run
                        if m == "-" and _CODE_CHAR.search(text, lo, hi)
                    )
                run = []
            pos += len(line) + 1
    return spans


_DOCKER_ADD = re.compile(r"^\s*ADD\s+(?:--\S+\s+)*(https?://\S+)\s+(\S+)\s*$")
_PLACEHOLDER = re.compile(
    r"(?<![$\w])\{\{(?!\s*(?:secrets|env|vars|github|inputs|steps)\.)[^{}\n]{1,80}\}\}"
)


@dataclass(frozen=True, slots=True)
class Carrier:
    """One command-like piece of a memory."""

    start: int
    """Offset of the piece in the scanned text (approximate for decoded text)."""
    text: str
    language: str | None
    """A hint (fence tag, interpreter name), or None: sniffed by the model."""
    group: int
    """Pieces of one block share a group: effects co-occur within a group."""
    mention: bool = False
    """Quoted in a sentence that warns or describes: weighs little."""
    verbatim: bool = True
    """`text` is a slice of the scanned text (False: unescaped or decoded)."""


# The object of a change that takes code out ("removes `eval(...)`", "去掉了
# `pickle.loads`"): right before the span, so "remove X and add `curl|sh`" is
# still judged.
_TAKEN_OUT = re.compile(
    r"(?i)(?:\b(?:remov(?:e|es|ed|ing)|delet(?:e|es|ed|ing)|deprecat(?:e|es|ed|ing)|"
    r"drop(?:s|ped|ping)?|get(?:s|ting)? rid of)(?:\s+(?:the|this|that|an?|all|every|its|our))?"
    r"(?:\s+(?:old|unsafe|insecure|vulnerable|risky|call(?:s)? to|use(?:s)? of))?"
    r"|(?:删除|删掉|去掉|移除|废弃)了?"
    # the code as it was before a fix: "originally `…`", "原先是 `…`，现改为…"
    r"|\b(?:(?:was|were)\s+(?:originally|previously|formerly)|used\s+to\s+be|previously|"
    r"originally|formerly|instead\s+of|rather\s+than)"
    r"|(?:原先|原来|之前|以前|过去|旧版|改之前|修改前|曾经)(?:是|用的是|用|写的是|写成|为)?)\s*[:：]?\s*\Z"
)


# An order to run the span, in its own clause and not negated: "just run `…`",
# "To fix it, run `…`", "然后执行 `…`". It outweighs a warning word elsewhere in
# the sentence ("Don't worry about the warning, just run `curl … | sh`").
_CLAUSE_END = re.compile(r"[;!?。；！？，,:：]|\.(?=\s|$)|\s[-–—]\s")
_AFFIRMED = re.compile(
    r"(?i)^\s*(?:(?:just|now|then|please|first|simply|also|and|so|always|quickly|"
    r"you\s+(?:must|should|need\s+to|can|have\s+to)|make\s+sure\s+to)\s+)*"
    r"(?:run|execute|paste|type|enter)\s*$"
    r"|^\s*(?:请|先|直接|然后|只需|马上|立即|务必|记得)*(?:执行|运行|输入|跑一下)\s*$"
)


def _affirmed(line: str, at: int) -> bool:
    """Whether the clause that ends at `at` (a span's opening backtick) orders it
    run."""
    head = line[max(0, at - 80) : at]
    cut = 0
    for m in _CLAUSE_END.finditer(head):
        cut = m.end()
    return _AFFIRMED.match(head[cut:]) is not None


# A line that forbids what it names ("- [ ] no eval( on external input", "禁止 curl | sh")
# or states a detection condition ("alert when certutil runs with -urlcache",
# "certutil 带 -urlcache 参数时告警"): the code in it is the thing to avoid or watch for.
_PROHIBITION_LINE = re.compile(
    r"(?i)^[ \t>]*(?:[-*+•]|\d{1,2}[.)])?[ \t]*(?:\[[ xX]?\][ \t]*)?"
    r"(?:no|never|avoid|don'?t|do\s+not|must\s+not|forbid(?:den)?|prohibit(?:ed)?|"
    r"ban(?:ned)?|disallow(?:ed)?|禁止|不要|不得|严禁|切勿|避免|不允许|不能)(?![A-Za-z0-9_'])"
    r"(?!\s+(?:need|worries|worry|problem|matter|longer|doubt|way|one|wait|mind|forget|hesitate|"
    r"fear|stop|fail|skip|bother)\b)"
)
_LINE_ORDER = re.compile(
    r"(?i)\b(?:run|execute|paste|install|type|then|afterwards)\b|接着|然后|之后"
    r"|请(?:执行|运行)|(?:然后|再|先|直接|马上|立即)(?:执行|运行)|(?:执行|运行)\s*[:：]"
)
"""An order in the line itself ("no worries, just run …", "告警时请执行 …"): then the
line is not a prohibition or a detection condition, whatever word opens it."""
_NEXT_CLAUSE = re.compile(r"[;:；：]\s*\S|[,，。]\s*(?:just|now|so|but)\b")
"""A prohibition governs its own clause: after a break ("never mind the checks; …")
the rest of the line is not what it forbids."""
_DETECTION_LINE = re.compile(
    r"(?i)\b(?:alert(?:s|ing)?\s+(?:on|when|if|whenever)|detect(?:s|ion)?\s+(?:rule|when|if|any)|"
    r"flag(?:s|ged)?\s+(?:when|if|any)|raise(?:s)?\s+an?\s+alert|sigma\s+rule|yara\s+rule|"
    r"detection\s+rule)\b|告警|报警|检测规则|触发预警|命中规则"
)
_FENCE_LINE = re.compile(r"^[ \t]{0,3}(?:`{3,}|~{3,})")


def mention_spans(text: str) -> list[tuple[int, int]]:
    """Spans of the code that a sentence quotes as a mention: the inline code
    (`...`) of a line of prose that warns against it or describes it ("never run
    `…`", "禁止执行 `…`") or right after words that take it out or say it was the
    old way ("removes `…`", "原先是 `…`"), and whole prose lines (outside code
    fences) that forbid what they name or state a detection condition. The same
    test `extract` applies to the inline carriers it marks `mention`."""
    spans: list[tuple[int, int]] = []
    pos = 0
    fenced = False
    for line in text.split("\n"):
        if _FENCE_LINE.match(line):
            fenced = not fenced
        elif len(line) <= MAX_LINE and not fenced:
            if "`" in line:
                spans.extend(
                    (pos + m.start(1), pos + m.end(1))
                    for m, quoted in _inline_spans(line)[0]
                    if quoted
                )
            prose = _INLINE.sub(" ", line)
            forbids = _PROHIBITION_LINE.match(line)
            if (
                (
                    (forbids and not _NEXT_CLAUSE.search(line, forbids.end()))
                    or _DETECTION_LINE.search(line)
                )
                and _has_words(prose, 4)
                and not _LINE_ORDER.search(prose)
            ):
                spans.append((pos, pos + len(line)))
        pos += len(line) + 1
    return spans


def _inline_spans(line: str) -> tuple[list[tuple[re.Match[str], bool]], str, bool, bool]:
    """The inline code spans of `line`, each with whether it is quoted (a mention
    or code taken out); the line without them; whether that is prose; and whether
    the prose warns or describes."""
    found = list(_INLINE.finditer(line)) if "`" in line else []  # every span is in backticks
    if not found:
        return [], line, False, False
    outside = _INLINE.sub(" ", line)
    prose = _has_words(outside, 3)
    mention = prose and is_mention(outside)
    spans = [
        (
            m,
            _TAKEN_OUT.search(line, max(0, m.start() - 32), m.start()) is not None
            or (mention and not _affirmed(line, m.start())),
        )
        for m in found
    ]
    return spans, outside, prose, mention


def is_placeholder_doc(text: str) -> bool:
    """A documentation template (`scp {{path}} {{host}}:`): not a real command."""
    # every match holds `{{`: the pattern's lookbehind is tried at every position
    return "{{" in text and _PLACEHOLDER.search(text) is not None


def is_mention(sentence: str) -> bool:
    """A carrier quoted in prose that warns against it or describes it."""
    return _WARN.search(sentence) is not None


def extract(text: str) -> list[Carrier]:
    """Every command-like piece of `text`, in order. Never raises."""
    out: list[Carrier] = []
    try:
        _extract(text, out)
    except Exception:
        return out
    return out[:MAX_CARRIERS]


def _extract(text: str, out: list[Carrier]) -> None:
    if is_diff(text):
        _diff(text, out)
        return
    group = 0
    pos = 0
    for m in _FENCE.finditer(text):
        if m.start() < pos:
            continue
        end_m = _closing(m.group(1)).search(text, m.end())
        body_end = end_m.start() if end_m else len(text)
        _lines(text, pos, m.start(), out, group)
        group += 1
        lang = (m.group(2) or "").lower() or None
        body = text[m.end() : body_end]
        if lang in (
            "json",
            "jsonc",
            "yaml",
            "yml",
            "toml",
            "ini",
            "dockerfile",
            "makefile",
            "make",
        ):
            _lines(text, m.end(), body_end, out, group)
        else:
            out.append(Carrier(m.start() + len(m.group(0)), body, lang, group))
            _json_values(body, m.end(), out, group)
        group += 1
        pos = end_m.end() if end_m else len(text)
        if len(out) >= MAX_CARRIERS:
            return
    _lines(text, pos, len(text), out, group + 1)


@lru_cache(maxsize=64)
def _closing(fence: str) -> re.Pattern[str]:
    """The closing line of a fence opened with `fence`: at least as many of its
    characters, then nothing or a trailing remark that cannot be an info string
    (`` ``` #123``, `` ``` // end``), as the chunker reads it. A word after the
    fence (`` ```python``) does not close: that opens the next block."""
    return re.compile(
        r"(?m)^[ \t]{0,3}"
        + re.escape(fence[0])
        + "{"
        + str(len(fence))
        + r",}(?:[ \t]*|[ \t]+[^\w\s{.`~][^\n]*)$"
    )


def _diff(text: str, out: list[Carrier]) -> None:
    """A unified diff, line by line: added and context lines without their marker
    (the post-image, one group per hunk), removed lines as mentions."""
    group = 0
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        if line.startswith("@@") or line.startswith("diff --git"):
            group += 1
            continue
        if line.startswith(("--- ", "+++ ", "index ")):
            continue
        if _DIFF_REMOVED.match(line):
            before = len(out)
            _line(line[1:], start + 1, out, group * 1000 + 1)
            for i in range(before, len(out)):
                c = out[i]
                out[i] = Carrier(c.start, c.text, c.language, c.group, True, c.verbatim)
        elif _DIFF_ADDED.match(line) or line.startswith(" "):
            if line[1:].strip():
                _line(line[1:], start + 1, out, group * 1000)
        elif line.strip():
            _line(line, start, out, group * 1000 + 2)
        if len(out) >= MAX_CARRIERS:
            return


def _lines(text: str, lo: int, hi: int, out: list[Carrier], group: int) -> None:
    """Unfenced text, line by line; a blank line starts a new group."""
    if hi <= lo:
        return
    region = text[lo:hi]
    offset = lo
    # join backslash continuations and `.then(...)`-style chained lines
    lines = region.split("\n")
    i = 0
    g = group * 1000
    while i < len(lines):
        line = lines[i]
        start = offset
        offset += len(line) + 1
        i += 1
        while line.endswith("\\") and i < len(lines) and len(line) < MAX_LINE:
            nxt = lines[i]
            line = line[:-1] + " " + nxt
            offset += len(nxt) + 1
            i += 1
        while (
            i < len(lines)
            and lines[i].lstrip().startswith((".", "|", "&&", "||"))
            and len(line) < MAX_LINE
        ):
            nxt = lines[i]
            line = line + " " + nxt.strip()
            offset += len(nxt) + 1
            i += 1
        if not line.strip():
            continue
        if _HEADING.match(line) or _is_prose(line):
            g += 1  # a heading or a sentence ends a block; blank lines inside code do not
        if len(line) > MAX_LINE:
            continue
        _line(line, start, out, g)
        if len(out) >= MAX_CARRIERS:
            return


def _line(line: str, start: int, out: list[Carrier], group: int) -> None:
    spans, outside, prose, mention = _inline_spans(line)
    if spans:
        for m, quoted in spans:
            out.append(Carrier(start + m.start(1), m.group(1), None, group, mention=quoted))
        if line.count("`") >= 3 and line.count("`") % 2 == 0 and len(spans) < line.count("`") // 2:
            # backticks nested in the code (`php -r '…`cmd`…'`) left some unpaired:
            # the outer span is the command
            first, last = line.index("`"), line.rindex("`")
            out.append(
                Carrier(start + first + 1, line[first + 1 : last], None, group, mention=mention)
            )
        if not prose:
            return
        line = outside
    if _COMMENT_LINE.match(line):
        return
    add = _DOCKER_ADD.match(line)
    if add is not None:
        # Dockerfile `ADD <url> <dest>` downloads to a file, like `curl -o`
        fetch = f"curl -fsSL -o {add.group(2)} {add.group(1)}"
        out.append(Carrier(start, fetch, "shell", group, verbatim=False))
        return
    cut = _prefix_length(line)
    body = line[cut:]
    opener = line[cut - 2 : cut - 1] if cut >= 2 and line[cut - 1 : cut] == "!" else ""
    if opener in ('"', "'"):
        body = body.rstrip().removesuffix(opener)  # git alias written `x = "!cmd"`
    if not body.strip() or _is_prose(body):
        return
    # prose that introduces a command: "On the box run: ncat ...", "执行：curl ..."
    stripped = body.strip()
    if stripped.startswith(("{", "[", '"')) or '": "' in stripped:
        before = len(out)
        _json_values(body, start + cut, out, group)
        if len(out) > before:
            return
    if _has_words(body, 4) and not _COMMAND_START.match(body):
        cm = _run_cue(body)
        if cm is not None and _CODE_HEAD.search(body[: cm.start()]):
            cm = None
        if cm is not None and cm.end() < len(body):
            head = body[: cm.start()]
            mention = is_mention(head)
            # "Dockerfile step: RUN curl … | sh": the introduced command may carry
            # a prefix of its own (a Dockerfile instruction, a prompt, a list mark)
            at = cm.end() + _prefix_length(body[cm.end() :])
            if at < len(body):
                out.append(Carrier(start + cut + at, body[at:], None, group, mention=mention))
                return
    out.append(Carrier(start + cut, body, None, group))


def _prefix_length(line: str) -> int:
    """Length of the carrier prefixes (`_PREFIXES`: list marks, prompts, Dockerfile
    instructions, YAML script keys, cron times, Makefile tabs, git aliases) that
    open `line`, up to three stacked."""
    if _ANY_PREFIX.match(line) is None:
        return 0  # no prefix opens the line: the first round changes nothing
    cut = 0
    for _ in range(3):
        changed = False
        for prefix in _PREFIXES:
            pm = prefix.match(line[cut:])  # `^` anchors at a slice's start, not at pos
            if pm and pm.end() > 0:
                cut += pm.end()
                changed = True
        if not changed:
            break
    return cut


# Literal prefilters: both patterns open with an alternation `re` tries at every
# position (~6 µs each on a 200-character line). Every `_PROSE_COLON` match holds
# a colon, every `_RUN_WORD` match one of its words; `_RUN_WORD` ignores case and
# `re` folds `ſ` onto `s`, so a non-ASCII body runs it unfiltered.
_RUN_WORDS = ("run", "execute", "paste", "type", "enter")


def _run_cue(body: str) -> re.Match[str] | None:
    """`_PROSE_COLON.search(body) or _RUN_WORD.search(body)`, exactly."""
    if ":" in body or "：" in body:
        cm = _PROSE_COLON.search(body)
        if cm is not None:
            return cm
    if body.isascii():
        low = body.lower()
        if not any(w in low for w in _RUN_WORDS):
            return None
    return _RUN_WORD.search(body)


_SHELL_META = re.compile(r"[|;&$<>`(){}=\[\]\\]|\s-{1,2}\w|\s/\w|~/")


def _is_prose(body: str) -> bool:
    """A heading or a sentence, not a command: ends with a colon, or a run of
    words ending in a full stop with no shell punctuation."""
    stripped = body.strip()
    if stripped.endswith((":", "：")):
        return not _SHELL_META.search(stripped)
    # the cheap tests first: most lines do not end in a full stop
    return (
        stripped.endswith((".", "。", "?", "？", "!", "！"))
        and not _SHELL_META.search(stripped)
        and _has_words(stripped, 6)
    )


def _has_words(text: str, n: int) -> bool:
    """`len(_WORDS.findall(text)) >= n`, stopping at the n-th word."""
    return next(islice(_WORDS.finditer(text), n - 1, None), None) is not None


def _json_values(body: str, start: int, out: list[Carrier], group: int) -> None:
    """String values of JSON-ish text (package.json scripts, tool args, tasks)."""
    if '"' not in body:
        return  # both patterns match quoted strings only
    # a pair holds a colon, an array a bracket: the scans are skipped without one
    for m in _JSON_PAIR.finditer(body) if ":" in body else ():
        _json_string(m.group(1), start + m.start(1), out, group)
        if len(out) >= MAX_CARRIERS:
            return
    for m in _JSON_ARRAY.finditer(body) if "[" in body else ():
        # exec form (`CMD ["sh", "-c", "..."]`, task args): the items as one command line
        items = _JSON_ITEM.findall(m.group(1))
        if len(items) >= 2:
            _json_string(
                " ".join(_shell_quote(_unescape(i)) for i in items), start + m.start(1), out, group
            )


def _unescape(raw: str) -> str:
    if "\\" not in raw:
        # no escape: json.loads gives the text back, or rejects a control
        # character and the raw text is kept; either way, `raw`
        return raw
    try:
        value = json.loads(f'"{raw}"')
    except ValueError:
        return raw
    return value if isinstance(value, str) else raw


def _shell_quote(item: str) -> str:
    if item and re.fullmatch(r"[\w@%+=:,./-]+", item):
        return item
    return "'" + item.replace("'", "'\"'\"'") + "'"


def _json_string(raw: str, start: int, out: list[Carrier], group: int) -> None:
    if " " not in raw and "/" not in raw:
        return
    value = _unescape(raw)
    out.append(Carrier(start, value, None, group, verbatim=value == raw))
