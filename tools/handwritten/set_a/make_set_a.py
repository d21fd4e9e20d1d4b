# ruff: noqa: E501  (case data: long literals are kept on one line, as written)
"""Hand-written training set A for memgate's text classifier: memory writes as
they arrive from tools, web pages and documents.

    python tools/handwritten/set_a/make_set_a.py [--out DIR] [--counts] [--tables]

writes DIR/text.jsonl and DIR/code.jsonl (DIR defaults to this folder) in the
row schema of tests/heldout_schema.py, ids `ta-<prefix>-NNN`; lang is `en` or
`zh` (code with Chinese comments or prose around it counts as `zh`).
--counts prints the one-line summary kept in README.md and writes nothing;
--tables prints the README's count tables and writes nothing.
Seeded: two runs write the same bytes. Malicious rows are paired with a benign
twin in the same carrier wherever a twin makes sense (same wrapper and filler,
only the clause differs); a twin's note names the row it mirrors."""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import part_benign  # noqa: E402
import part_carriers  # noqa: E402
import part_code  # noqa: E402
import part_injection  # noqa: E402
import part_sensitive  # noqa: E402

SEED = 20261207
LABEL_EXPECT = {
    "benign": "approve",
    "injection": "reject",
    "dangerous_code": "reject",
    "exfil": "reject",
    "secret": "review",
    "pii": "review",
}
PREFIX = {
    "benign": "ben",
    "injection": "inj",
    "dangerous_code": "dc",
    "exfil": "ex",
    "secret": "sec",
    "pii": "pii",
}
ORDER = ("id", "label", "expect", "family", "source", "lang", "hard", "note", "text")

HOSTS = [
    "dl.fastmirror-cdn.xyz",
    "sync.cloudnote-api.top",
    "a.t0ols.cc",
    "collector.devmetrics-hub.io",
    "upd.winsvc-check.net",
    "static.img-proxy.ru",
    "api.free-gpt-tools.site",
    "x7.paste-drop.org",
    "cdn.jsdelivr-mirror.com",
    "relay.secure-login.help",
]
IPS = [
    "203.0.113.47",
    "198.51.100.23",
    "45.77.139.12",
    "185.220.101.8",
    "91.215.85.40",
    "192.0.2.199",
    "103.224.182.9",
    "139.59.12.201",
]
MAILS = [
    "support-intake@helpdesk-relay.net",
    "audit@sec-review.co",
    "ops.backup@proton-mailer.org",
    "data@partner-analytics.io",
    "kefu@vip-fuwu.cn",
    "admin@it-notice.top",
]
URLS = [
    "https://best-deals.shop",
    "https://get-cheap-vpn.net/promo",
    "http://login-verify.help",
    "https://img-track.cc",
    "https://free-credits.site/claim",
    "https://cn-youhui.top",
]
BOTS = ["Claude", "GPT-4", "the assistant", "Copilot", "Gemini", "助手"]


def fill(text: str, rng: random.Random, lang: str) -> str:
    names = part_carriers.NAMES_ZH if lang == "zh" else part_carriers.NAMES_EN
    for key, pool in (
        ("{url}", URLS),
        ("{mail}", MAILS),
        ("{name}", names),
        ("{bot}", BOTS),
        ("{h}", HOSTS),
        ("{ip}", IPS),
    ):
        while key in text:
            text = text.replace(key, rng.choice(pool), 1)
    return text


class Rows:
    def __init__(self) -> None:
        self.text: list[dict] = []
        self.code: list[dict] = []
        self.count = {k: 0 for k in PREFIX}
        self.checks: list[
            tuple[str, str]
        ] = []  # (kind, value) of every identifier and phone number written

    def add(
        self,
        stem: str,
        *,
        label: str,
        family: str,
        source: str,
        lang: str,
        hard: bool,
        note: str,
        text: str,
    ) -> str:
        lang = "zh" if lang == "mixed" else lang
        self.count[label] += 1
        rid = f"ta-{PREFIX[label]}-{self.count[label]:03d}"
        row = dict(
            id=rid,
            label=label,
            expect=LABEL_EXPECT[label],
            family=family,
            source=source,
            lang=lang,
            hard=bool(hard),
            note=note,
            text=text,
        )
        (self.text if stem == "text" else self.code).append({k: row[k] for k in ORDER})
        return rid


WRAPPED = [
    c for c in part_carriers.CARRIERS if c is not part_carriers.plain
]  # a wrapped copy must differ from the bare text

HARD_FAMILIES = {
    "trust_bypass",
    "false_constraint",
    "precedence_claim",
    "decode_and_follow",
    "delayed_trigger",
}
HIDDEN = {"html_comment", "html_hidden", "html_alt", "csv_row", "calendar", "config"}


def injections(rng: random.Random, out: Rows) -> None:
    prng = random.Random(
        SEED + 1
    )  # placeholders: kept apart so a twin's carrier draws match its attack's
    # (family, uses, phrasing): every other first-round attack also goes in a second carrier
    table = [
        (f, 2 if i % 2 == 0 else 1, item)
        for f in sorted(part_injection.INJ)
        for i, item in enumerate(part_injection.INJ[f])
    ]
    table += [(f, 1, item) for f in sorted(part_injection.MORE) for item in part_injection.MORE[f]]
    for family, uses, (lang, attack, twin) in table:
        for use in range(uses):
            a = fill(attack, prng, lang)
            b = fill(twin, prng, lang)
            state = rng.getstate()
            text, source, carrier = part_carriers.wrap(rng, lang, a)
            rid = out.add(
                "text",
                label="injection",
                family=family,
                source=source,
                lang=lang,
                hard=family in HARD_FAMILIES or carrier in HIDDEN,
                note=f"{family} in {carrier}",
                text=text,
            )
            if use == 0:
                rng.setstate(state)
                text, source, carrier = part_carriers.wrap(rng, lang, b)
                out.add(
                    "text",
                    label="benign",
                    family=f"twin_{family}",
                    source=source,
                    lang=lang,
                    hard=True,
                    note=f"benign twin of {rid}, same {carrier} carrier",
                    text=text,
                )
    for lang, attack, twin in part_injection.USER_HIJACK:
        rid = out.add(
            "text",
            label="injection",
            family="user_hijack",
            source="user",
            lang=lang,
            hard=True,
            note="override or jailbreak persona typed by the user",
            text=attack,
        )
        out.add(
            "text",
            label="benign",
            family="user_preference",
            source="user",
            lang=lang,
            hard=False,
            note=f"a preference the user may set, twin of {rid}",
            text=twin,
        )


def benign_text(rng: random.Random, out: Rows) -> None:
    for family in sorted(part_benign.LOOKALIKE):
        for lang, text in part_benign.LOOKALIKE[family]:
            out.add(
                "text",
                label="benign",
                family=family,
                source=rng.choice(["document", "web", "tool"]),
                lang=lang,
                hard=True,
                note=f"{family}, as written",
                text=text,
            )
            if rng.random() < 0.45:
                wrapped, source, carrier = part_carriers.wrap(rng, lang, text, rng.choice(WRAPPED))
                out.add(
                    "text",
                    label="benign",
                    family=family,
                    source=source,
                    lang=lang,
                    hard=True,
                    note=f"{family} in {carrier}",
                    text=wrapped,
                )
    for i, (lang, text) in enumerate(part_benign.ORDINARY):
        if i % 2 == 0:
            out.add(
                "text",
                label="benign",
                family="ordinary",
                source=rng.choice(["tool", "web", "document", "agent"]),
                lang=lang,
                hard=False,
                note="ordinary memory",
                text=text,
            )
        wrapped, source, carrier = part_carriers.wrap(rng, lang, text, rng.choice(WRAPPED))
        out.add(
            "text",
            label="benign",
            family="ordinary",
            source=source,
            lang=lang,
            hard=False,
            note=f"ordinary memory in {carrier}",
            text=wrapped,
        )


def sensitive(rng: random.Random, out: Rows) -> None:
    for row in part_sensitive.secrets(rng) + part_sensitive.pii(rng, out.checks):
        out.add("text", **row)


def code_carrier(rng: random.Random, code: str, zh: bool, raw: bool = True) -> tuple[str, str, str]:
    """(text, source, carrier) of a code snippet in one of the carriers code arrives in
    (never bare when `raw` is false)."""
    intro = rng.choice(part_code.CODE_INTROS_ZH if zh else part_code.CODE_INTROS_EN)
    k = rng.randrange(0 if raw else 1, 7)
    if k == 0:
        return code, rng.choice(["tool", "document"]), "raw"
    if k == 1:
        return (intro + "\n\n" if intro else "") + f"```\n{code}\n```", "document", "fenced"
    if k == 2:
        path = rng.choice(
            [
                "scripts/setup.sh",
                "deploy/run.py",
                "Dockerfile",
                "ci.yml",
                "Makefile",
                "tools/sync.ps1",
            ]
        )
        return (
            json.dumps({"tool": "fs.read", "path": path, "content": code}, ensure_ascii=False),
            "tool",
            "tool_json",
        )
    if k == 3:
        lines = "\n".join("+" + ln for ln in code.splitlines())
        head = "评审：这段改动请再看一下" if zh else "Review comment on the diff below"
        return f"{head}\n```diff\n{lines}\n```", "tool", "pr_diff"
    if k == 4:
        who = rng.choice(part_carriers.NAMES_ZH if zh else part_carriers.NAMES_EN)
        return (
            f"[14:{rng.randint(10, 59)}] {who}: {intro or ('跑一下这个' if zh else 'run this')}\n{code}",
            "tool",
            "chat",
        )
    if k == 5:
        sec = "## 快速开始" if zh else "## Quick start"
        return (
            f"# tool\n\n{intro}\n\n{sec}\n\n    " + code.replace("\n", "\n    "),
            "document",
            "readme_indented",
        )
    title = "运维手册" if zh else "Ops runbook"
    return f"<h2>{title}</h2>\n<pre><code>{code}</code></pre>", "web", "html_pre"


def code_lang(text: str) -> str:
    """Code rows are 'zh' when Chinese prose or comments sit around the code."""
    return "zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en"


def code_rows(rng: random.Random, out: Rows) -> None:
    prng = random.Random(SEED + 2)
    seen: set[str] = set()
    for label, table, reps in (
        ("dangerous_code", part_code.DC, (1, 2)),
        ("exfil", part_code.EX, (2,)),
    ):
        for family in sorted(table):
            for i, (attack, twin, note) in enumerate(table[family]):
                n_uses = reps[i % len(reps)]
                for use in range(n_uses):
                    zh = rng.random() < 0.5
                    code = fill(attack, prng, "en").replace("{{", "{").replace("}}", "}")
                    tcode = fill(twin or "", prng, "en").replace("{{", "{").replace("}}", "}")
                    state = rng.getstate()
                    text, source, carrier = code_carrier(rng, code, zh)
                    while (
                        text in seen
                    ):  # a second use with no host to vary must sit in another carrier
                        text, source, carrier = code_carrier(rng, code, zh)
                    seen.add(text)
                    rid = out.add(
                        "code",
                        label=label,
                        family=family,
                        source=source,
                        lang=code_lang(text),
                        hard=carrier in ("tool_json", "html_pre", "readme_indented"),
                        note=f"{note}, {carrier}",
                        text=text,
                    )
                    if use == 0 and twin is not None:
                        rng.setstate(state)
                        text, source, carrier = code_carrier(rng, tcode, zh)
                        out.add(
                            "code",
                            label="benign",
                            family=f"twin_{family}",
                            source=source,
                            lang=code_lang(text),
                            hard=True,
                            note=f"benign twin of {rid} ({note}), same {carrier} carrier",
                            text=text,
                        )
    for family, lang, code in part_code.BENIGN_CODE:
        for use in range(2):
            zh = lang == "zh" or rng.random() < 0.3
            text, source, carrier = (
                (code, "document", "raw") if use == 0 else code_carrier(rng, code, zh, raw=False)
            )
            out.add(
                "code",
                label="benign",
                family=family,
                source=source,
                lang=code_lang(text),
                hard=True,
                note=f"benign code that a phrase matcher may flag, {carrier}",
                text=text,
            )


def build() -> Rows:
    rng = random.Random(SEED)
    out = Rows()
    injections(rng, out)
    benign_text(rng, out)
    sensitive(rng, out)
    code_rows(rng, out)
    return out


def counts_line(out: Rows) -> str:
    allr = out.text + out.code
    zh = sum(r["lang"] == "zh" for r in allr) / len(allr)
    labels = ", ".join(f"{k} {out.count[k]}" for k in PREFIX)
    return (
        f"{len(allr)} items; {labels}; text.jsonl {len(out.text)}, code.jsonl {len(out.code)}; "
        f"benign {100 * out.count['benign'] / len(allr):.1f} %, zh {100 * zh:.1f} %"
    )


def tables(out: Rows) -> str:
    allr = out.text + out.code
    lines = ["| label | family | en | zh | n |", "|---|---|---|---|---|"]
    keys = sorted(
        {(r["label"], r["family"]) for r in allr}, key=lambda k: (list(PREFIX).index(k[0]), k[1])
    )
    for label, family in keys:
        mine = [r for r in allr if r["label"] == label and r["family"] == family]
        en = sum(r["lang"] == "en" for r in mine)
        lines.append(f"| {label} | {family} | {en} | {len(mine) - en} | {len(mine)} |")
    lines += ["", "| source | n |", "|---|---|"]
    for src in ("user", "agent", "tool", "web", "document"):
        lines.append(f"| {src} | {sum(r['source'] == src for r in allr)} |")
    return "\n".join(lines)


def write(folder: Path, out: Rows) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for stem, rows in (("text", out.text), ("code", out.code)):
        with open(folder / f"{stem}.jsonl", "w", encoding="utf-8", newline="\n") as f:
            for row in rows:
                f.write(json.dumps(row, ensure_ascii=False) + "\n")


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument(
        "--out",
        type=Path,
        default=HERE,
        help="folder for text.jsonl and code.jsonl (default: this folder)",
    )
    ap.add_argument(
        "--counts", action="store_true", help="print the summary line and write nothing"
    )
    ap.add_argument(
        "--tables",
        action="store_true",
        help="print per-family and per-source tables and write nothing",
    )
    args = ap.parse_args(argv)
    out = build()
    if args.counts or args.tables:
        print(counts_line(out) if args.counts else tables(out))
        return 0
    write(args.out, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
