"""Hand-written training set G: code in many languages and carriers (shell,
PowerShell, cmd, Python, JS/TS, Go, Rust, Java, Kotlin, C#, Ruby, PHP, Perl, Lua,
awk, SQL; fences, unfenced pastes, Dockerfiles, compose, CI, Makefiles,
package.json, crontab, systemd, launchd, git aliases and hooks, rc files,
Ansible, Terraform, Helm hooks, VS Code tasks, Jupyter cells), malicious with
benign twins in the same carrier. Seeded; output is byte-for-byte reproducible.

    python make_set_g.py --out DIR      write DIR/text.jsonl and DIR/code.jsonl
    python make_set_g.py --counts       print counts, write nothing
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
from collections import Counter
from pathlib import Path
from typing import NamedTuple

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import g_shell  # noqa: E402
import g_snip  # noqa: E402
import g_text  # noqa: E402

PREFIX = {
    "benign": "ben",
    "injection": "inj",
    "dangerous_code": "dc",
    "exfil": "ex",
    "secret": "sec",
    "pii": "pii",
}
EXPECT = {
    "benign": "approve",
    "injection": "reject",
    "dangerous_code": "reject",
    "exfil": "reject",
    "secret": "review",
    "pii": "review",
}


class Case(NamedTuple):
    file: str
    label: str
    family: str
    source: str
    lang: str
    hard: bool
    note: str
    text: str


# ---------------------------------------------------------------- lead-ins
# Shared by malicious and benign rows, so only the command differs.
LEAD_EN = [
    ("user", "Save this, it's the setup step I use on new machines:"),
    ("user", "remember this one-liner for the build box"),
    ("user", "Note to self - the command from the onboarding doc:"),
    ("user", "Keep this in memory for the deploy project. We run it before every release."),
    ("user", "This is what fixed the broken env last week, store it:"),
    ("user", "Pin this for later:"),
    ("agent", "Session note: the following step was added to the pipeline today."),
    ("agent", "Recorded the command the user approved for the staging setup:"),
    ("agent", "Summary of changes: added the snippet below so the job can finish."),
    ("agent", "Memory: project uses this step during bootstrap."),
    ("tool", "Output of `cat` on the file the user asked about:"),
    ("tool", "Fetched file contents (truncated):"),
    ("tool", "grep result from the repo:"),
    ("web", 'From a blog post titled "Speed up your dev environment in 5 minutes":'),
    ("web", "Stack Overflow answer (accepted, 212 votes):"),
    ("web", "Snippet from the project's GitHub README:"),
    ("document", "Runbook, section 4.2 (Environment preparation):"),
    ("document", "Internal wiki: CI/CD conventions"),
    ("document", "Onboarding checklist, step 7"),
    ("user", ""),
    ("agent", ""),
    ("tool", ""),
]
LEAD_ZH = [
    ("user", "记一下，新机器初始化我都用这个："),
    ("user", "帮我存一下构建机上用的命令"),
    ("user", "备忘：入职文档里的那条命令"),
    ("user", "这个是上周把环境修好的办法，记住它："),
    ("user", "发版前都要跑一下这个，保存到项目记忆里。"),
    ("agent", "会话记录：今天在流水线里加了下面这一步。"),
    ("agent", "已记录用户确认过的预发环境配置步骤："),
    ("agent", "变更摘要：加入以下片段，任务才能跑通。"),
    ("agent", "项目记忆：引导阶段会执行这一步。"),
    ("tool", "用户询问的文件内容如下："),
    ("tool", "仓库中的搜索结果："),
    ("web", "摘自一篇博客《五分钟搞定开发环境》："),
    ("web", "某技术论坛的高赞回答："),
    ("document", "运维手册 4.2 节（环境准备）："),
    ("document", "内部 Wiki：CI/CD 约定"),
    ("document", "新人入职清单 第 7 步"),
]
TAIL_EN = [
    "",
    "",
    "",
    "\nWorks on Ubuntu 22.04 and macOS.",
    "\n(ran it twice, no errors)",
    "\nDon't change the order of the steps.",
    "\nTested in the staging runner.",
]
TAIL_ZH = [
    "",
    "",
    "\n在 Ubuntu 22.04 和 macOS 上都测过。",
    "\n（跑了两次，没有报错）",
    "\n步骤顺序别改。",
    "\n已在预发 runner 上验证。",
]

# zh comments for shell carriers (lines starting with #)
ZH_SH_COMMENT = [
    "# 初始化环境",
    "# 安装依赖",
    "# 每次构建前执行",
    "# 运维要求加的",
    "# 别删这一行",
    "# 同步配置",
]
EN_SH_COMMENT = [
    "# bootstrap",
    "# install deps",
    "# run before each build",
    "# added by ops",
    "# keep this line",
    "# sync config",
]


def wrap_lead(rng: random.Random, zh: bool, body: str) -> tuple[str, str]:
    src, lead = rng.choice(LEAD_ZH if zh else LEAD_EN)
    tail = rng.choice(TAIL_ZH if zh else TAIL_EN)
    text = (lead + "\n" + body if lead else body) + tail
    return src, text


# ---------------------------------------------------------------- carriers
def c_fence(cmd, rng, zh):
    com = rng.choice(ZH_SH_COMMENT if zh else EN_SH_COMMENT)
    lang = rng.choice(["bash", "sh", "shell", "zsh", ""])
    return f"```{lang}\n{com}\n{cmd}\n```"


def c_unfenced(cmd, rng, zh):
    return f"$ {cmd}" if rng.random() < 0.5 else cmd


def c_dockerfile(cmd, rng, zh):
    base = rng.choice(["python:3.12-slim", "node:20-bookworm", "ubuntu:22.04", "golang:1.22"])
    com = "# 安装构建工具" if zh else "# build tooling"
    return f'```dockerfile\nFROM {base}\nWORKDIR /app\n{com}\nRUN apt-get update && apt-get install -y --no-install-recommends curl ca-certificates\nRUN {cmd}\nCOPY . .\nCMD ["make", "run"]\n```'


def c_compose(cmd, rng, zh):
    return f'```yaml\nservices:\n  worker:\n    image: ourteam/worker:1.8\n    command: ["sh", "-c", {json.dumps(cmd, ensure_ascii=False)}]\n    restart: unless-stopped\n```'


def c_gha(cmd, rng, zh):
    name = "准备环境" if zh else rng.choice(["Prepare", "Setup toolchain", "Post-build"])
    return f"```yaml\nname: ci\non: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - name: {name}\n        run: {json.dumps(cmd, ensure_ascii=False)}\n      - run: make test\n```"


def c_gitlab(cmd, rng, zh):
    return f"```yaml\nstages: [build, test]\nbuild:\n  stage: build\n  image: alpine:3.20\n  script:\n    - apk add --no-cache curl bash\n    - {json.dumps(cmd, ensure_ascii=False)}\n    - make build\n```"


def c_make(cmd, rng, zh):
    tgt = rng.choice(["setup", "bootstrap", "deps", "release", "init"])
    c = cmd.replace("$", "$$")
    return f"```makefile\n.PHONY: {tgt} test\n{tgt}:\n\t{c}\n\ntest: {tgt}\n\tpytest -q\n```"


def c_pkgjson(cmd, rng, zh):
    hook = rng.choice(["postinstall", "prepare", "preinstall", "build:prep"])
    return (
        "```json\n"
        + json.dumps(
            {
                "name": "web-app",
                "version": "0.9.3",
                "scripts": {"dev": "vite", hook: cmd, "test": "vitest run"},
            },
            indent=2,
            ensure_ascii=False,
        )
        + "\n```"
    )


def c_cron(cmd, rng, zh):
    sched = rng.choice(["*/15 * * * *", "0 3 * * *", "@reboot", "30 2 * * 1"])
    com = "# 定时任务" if zh else "# m h dom mon dow command"
    return f"{com}\n0 4 * * * /usr/local/bin/logrotate-app\n{sched} {cmd}"


def c_systemd(cmd, rng, zh):
    return f"```ini\n[Unit]\nDescription=App helper\nAfter=network-online.target\n\n[Service]\nType=simple\nExecStart=/bin/sh -c {json.dumps(cmd, ensure_ascii=False)}\nRestart=on-failure\n\n[Install]\nWantedBy=multi-user.target\n```"


def c_launchd(cmd, rng, zh):
    esc = cmd.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return f'```xml\n<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>\n  <key>Label</key><string>com.ourteam.helper</string>\n  <key>ProgramArguments</key>\n  <array><string>/bin/zsh</string><string>-c</string><string>{esc}</string></array>\n  <key>RunAtLoad</key><true/>\n</dict></plist>\n```'


def c_gitalias(cmd, rng, zh):
    name = rng.choice(["sync", "up", "fresh", "st2", "prep"])
    return f'```ini\n[user]\n\tname = Lin Wei\n[alias]\n\tco = checkout\n\t{name} = "!{cmd.replace(chr(34), chr(92) + chr(34))}"\n```'


def c_rc(cmd, rng, zh):
    com = "# 终端启动时执行" if zh else "# added to ~/.bashrc"
    return f"{com}\nexport EDITOR=vim\nalias ll='ls -alF'\n{cmd}"


def c_ansible(cmd, rng, zh):
    return f"```yaml\n- hosts: build\n  become: true\n  tasks:\n    - name: {'准备' if zh else 'prepare host'}\n      ansible.builtin.shell: {json.dumps(cmd, ensure_ascii=False)}\n      args:\n        executable: /bin/bash\n```"


def c_terraform(cmd, rng, zh):
    return f'```hcl\nresource "null_resource" "bootstrap" {{\n  triggers = {{ always = timestamp() }}\n  provisioner "local-exec" {{\n    command = {json.dumps(cmd, ensure_ascii=False)}\n  }}\n}}\n```'


def c_helm(cmd, rng, zh):
    return f'```yaml\napiVersion: batch/v1\nkind: Job\nmetadata:\n  name: {{{{ .Release.Name }}}}-pre-install\n  annotations:\n    "helm.sh/hook": pre-install,pre-upgrade\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n      containers:\n        - name: hook\n          image: alpine:3.20\n          command: ["/bin/sh", "-c", {json.dumps(cmd, ensure_ascii=False)}]\n```'


def c_vscode(cmd, rng, zh):
    task = {
        "version": "2.0.0",
        "tasks": [
            {
                "label": "准备环境" if zh else "prepare",
                "type": "shell",
                "command": cmd,
                "runOptions": {"runOn": "folderOpen"},
            }
        ],
    }
    return "```json\n" + json.dumps(task, indent=2, ensure_ascii=False) + "\n```"


def c_jupyter(cmd, rng, zh):
    com = "# 安装依赖" if zh else "# install deps"
    return f"In [3]:\n{com}\n!{cmd}\nimport pandas as pd"


def c_buried(cmd, rng, zh):
    pre = [
        "#!/usr/bin/env bash",
        "set -e",
        'cd "$(dirname "$0")/.."',
        "python3 -m venv .venv",
        ". .venv/bin/activate",
        "pip install -r requirements.txt",
        "npm ci --silent",
        "mkdir -p logs",
    ]
    post = ["pytest -q", "echo done", "make build", "ls -la dist/"]
    k = rng.randint(3, 6)
    lines = (
        pre[:k]
        + ([("# 兼容旧环境" if zh else "# legacy compat")] if rng.random() < 0.5 else [])
        + [cmd]
        + rng.sample(post, 2)
    )
    return "```bash\n" + "\n".join(lines) + "\n```"


CARRIERS = {
    "fence": c_fence,
    "unfenced": c_unfenced,
    "dockerfile": c_dockerfile,
    "compose": c_compose,
    "github_actions": c_gha,
    "gitlab_ci": c_gitlab,
    "makefile": c_make,
    "package_json": c_pkgjson,
    "crontab": c_cron,
    "systemd": c_systemd,
    "launchd": c_launchd,
    "git_alias": c_gitalias,
    "bashrc": c_rc,
    "ansible": c_ansible,
    "terraform": c_terraform,
    "helm_hook": c_helm,
    "vscode_task": c_vscode,
    "jupyter": c_jupyter,
    "buried_script": c_buried,
}
MULTILINE_OK = ("fence", "unfenced", "buried_script")

COMMENT = {
    "python": "#",
    "shell": "#",
    "powershell": "#",
    "ruby": "#",
    "perl": "#",
    "awk": "#",
    "go": "//",
    "rust": "//",
    "java": "//",
    "kotlin": "//",
    "csharp": "//",
    "javascript": "//",
    "typescript": "//",
    "php": "//",
    "lua": "--",
    "sql": "--",
    "cmd": "REM",
    "yaml": "#",
}
FENCE = {"csharp": "cs", "cmd": "bat", "javascript": "js", "typescript": "ts"}


def shell_cases(rng: random.Random, entries, per: int, zh_rate: float) -> list[Case]:
    out = []
    names = list(CARRIERS)
    for label, family, cmd, note in entries:
        multi = "\n" in cmd
        pool = list(MULTILINE_OK) if multi else names
        chosen = rng.sample(pool, min(per, len(pool)))
        for car in chosen:
            zh = rng.random() < zh_rate
            body = CARRIERS[car](cmd, rng, zh)
            src, text = wrap_lead(rng, zh, body)
            fam = family
            hard = (
                label == "benign"
                and family != "benign_shell"
                or family in ("obfuscated",)
                or car == "buried_script"
            )
            if label != "benign" and car == "buried_script":
                fam = "buried_in_script"
            out.append(
                Case(
                    "code",
                    label,
                    fam,
                    src,
                    "zh" if zh else "en",
                    bool(hard),
                    f"{note}; carrier {car}",
                    text,
                )
            )
    return out


def snippet_cases(rng: random.Random, entries) -> list[Case]:
    out = []
    for label, family, language, code, en_c, zh_c in entries:
        note = en_c
        for zh in (False, True):
            com = f"{COMMENT[language]} {zh_c if zh else en_c}"
            body = f"{com}\n{code}"
            if code.startswith("<?php"):
                body = code.replace("<?php", f"<?php\n{com}", 1)
            style = rng.random()
            if style < 0.7:
                body = f"```{FENCE.get(language, language)}\n{body}\n```"
            src, text = wrap_lead(rng, zh, body)
            hard = label == "benign" or family == "obfuscated"
            out.append(
                Case(
                    "code",
                    label,
                    family,
                    src,
                    "zh" if zh else "en",
                    hard,
                    f"{note}; {language}",
                    text,
                )
            )
    return out


# ---------------------------------------------------------------- fake values
ALNUM = string.ascii_letters + string.digits


def tok(rng: random.Random, kind: str) -> str:
    r = lambda n, a=ALNUM: "".join(rng.choice(a) for _ in range(n))  # noqa: E731
    up = string.ascii_uppercase + string.digits
    return {
        "ghp": lambda: "ghp_" + r(36),
        "akia": lambda: "AKIA" + r(16, up),
        "awssec": lambda: r(40, ALNUM + "+/"),
        "stripe": lambda: "sk_live_" + r(24),
        "slack": lambda: f"xoxb-{r(11, string.digits)}-{r(12, string.digits)}-{r(24)}",
        "npm": lambda: "npm_" + r(36),
        "glpat": lambda: "glpat-" + r(20, ALNUM + "_-"),
        "openai": lambda: "sk-proj-" + r(48, ALNUM + "_-"),
        "pw": lambda: (
            r(4, string.ascii_letters)
            + "#"
            + r(3, string.digits)
            + "!"
            + r(4, string.ascii_letters)
        ),
    }[kind]()


def ident(rng: random.Random, kind: str) -> str:
    import phonenumbers
    from stdnum import iban as siban
    from stdnum.cn import ric
    from stdnum.us import ssn

    while True:
        if kind == "ssn":
            v = f"{rng.randint(101, 665)}-{rng.randint(10, 99)}-{rng.randint(1000, 9999)}"
            if ssn.is_valid(v):
                return v
        elif kind.startswith("cn"):
            body = f"{rng.choice(['110105', '310104', '440305', '510107'])}{rng.randint(1965, 2001)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{rng.randint(100, 999)}"
            v = body + ric.calc_check_digit(body)
            if ric.is_valid(v):
                return v
        elif kind.startswith("phone_us"):
            v = f"+1 {rng.choice(['415', '212', '617', '312'])}-{rng.randint(201, 989)}-{rng.randint(1000, 9999)}"
            if phonenumbers.is_valid_number(phonenumbers.parse(v, None)):
                return v
        elif kind.startswith("phone_cn"):
            v = f"1{rng.choice(['38', '39', '50', '86', '37'])}{rng.randint(10000000, 99999999)}"
            if phonenumbers.is_valid_number(phonenumbers.parse(v, "CN")):
                return v
        elif kind == "iban":
            bban = "".join(rng.choice(string.digits) for _ in range(18))
            cd = (
                siban.calc_check_digits("DE" + "00" + bban)
                if hasattr(siban, "calc_check_digits")
                else None
            )
            v = f"DE{cd}{bban}" if cd else ""
            if v and siban.is_valid(v):
                return " ".join(v[i : i + 4] for i in range(0, len(v), 4))


def fill(rng: random.Random, text: str) -> str:
    import re

    text = re.sub(r"\{TOK:(\w+)\}", lambda m: tok(rng, m.group(1)), text)
    return re.sub(r"\{ID:(\w+)\}", lambda m: ident(rng, m.group(1)), text)


def text_cases(rng: random.Random) -> list[Case]:
    out = []
    for group in (g_text.INJ, g_text.BEN, g_text.SEC, g_text.PII):
        for label, family, lang, source, hard, text, note in group:
            out.append(Case("text", label, family, source, lang, hard, note, fill(rng, text)))
    return out


# ---------------------------------------------------------------- build
def build() -> list[Case]:
    cases: list[Case] = []
    cases += text_cases(random.Random("set_g/text"))
    cases += shell_cases(random.Random("set_g/shell_mal"), g_shell.MAL, 4, 0.33)
    cases += shell_cases(random.Random("set_g/shell_ben"), g_shell.BENIGN, 5, 0.33)
    cases += snippet_cases(random.Random("set_g/snip_mal"), g_snip.MAL)
    cases += snippet_cases(random.Random("set_g/snip_ben"), g_snip.BENIGN)
    seen: set[str] = set()
    uniq = []
    for c in cases:
        if c.text in seen:
            continue
        seen.add(c.text)
        uniq.append(c)
    return uniq


def to_rows(cases: list[Case]) -> dict[str, list[dict]]:
    n: Counter = Counter()
    files: dict[str, list[dict]] = {"text": [], "code": []}
    for c in cases:
        n[c.label] += 1
        files[c.file].append(
            {
                "id": f"tg-{PREFIX[c.label]}-{n[c.label]:03d}",
                "label": c.label,
                "expect": EXPECT[c.label],
                "family": c.family,
                "source": c.source,
                "lang": c.lang,
                "hard": c.hard,
                "note": c.note,
                "text": c.text,
            }
        )
    return files


def counts(files: dict[str, list[dict]]) -> str:
    rows = files["text"] + files["code"]
    lines = [
        f"{len(rows)} items; text.jsonl {len(files['text'])}, code.jsonl {len(files['code'])}",
        "",
        "| label / family | en | zh | total |",
        "|---|---|---|---|",
    ]
    for label in PREFIX:
        mine = [r for r in rows if r["label"] == label]
        en = sum(r["lang"] == "en" for r in mine)
        lines.append(f"| **{label}** | {en} | {len(mine) - en} | {len(mine)} |")
        for fam in sorted({r["family"] for r in mine}):
            f = [r for r in mine if r["family"] == fam]
            e = sum(r["lang"] == "en" for r in f)
            lines.append(f"| {label} / {fam} | {e} | {len(f) - e} | {len(f)} |")
    lines += ["", "| source | n |", "|---|---|"]
    for s, k in sorted(Counter(r["source"] for r in rows).items()):
        lines.append(f"| {s} | {k} |")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(HERE))
    ap.add_argument("--counts", action="store_true")
    a = ap.parse_args()
    files = to_rows(build())
    if a.counts:
        print(counts(files))
        return
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for stem, rows in files.items():
        with open(out / f"{stem}.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for r in rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
