"""Hand-written training set J: planted instructions and their benign twins.

Every attack phrasing was written by hand with a twin that uses the same words
legitimately (a policy for people, the user's own preference, a report or
discussion of the attack, a quoted training example, a bug ticket, an
instruction to a human colleague). Attack and twin share the same carrier and
filler, chosen by a seeded RNG, so only the clause differs.

Usage: python make_set_j.py --out DIR      (writes DIR/text.jsonl, DIR/code.jsonl)
       python make_set_j.py --counts       (prints counts, writes nothing)
Output is byte-for-byte reproducible."""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import j_data1  # noqa: E402
import j_data2  # noqa: E402
import j_data3  # noqa: E402
import j_data4  # noqa: E402
import j_data5  # noqa: E402
import j_data6  # noqa: E402
import j_data7  # noqa: E402
import j_extra  # noqa: E402

FAMILIES = [
    ("persistent_rule", j_data1.PERSISTENT_RULE),
    ("important_message", j_data1.IMPORTANT_MESSAGE),
    ("todo_planted", j_data1.TODO_PLANTED),
    ("fake_notice", j_data1.FAKE_NOTICE),
    ("precedence_claim", j_data2.PRECEDENCE_CLAIM),
    ("trust_bypass", j_data2.TRUST_BYPASS),
    ("false_constraint", j_data2.FALSE_CONSTRAINT),
    ("rights_claim", j_data2.RIGHTS_CLAIM),
    ("delayed_trigger", j_data2.DELAYED_TRIGGER),
    ("output_manipulation", j_data3.OUTPUT_MANIPULATION),
    ("prompt_leak", j_data3.PROMPT_LEAK),
    ("dos_bait", j_data3.DOS_BAIT),
    ("decode_and_follow", j_data3.DECODE_AND_FOLLOW),
    ("tool_redirect", j_data3.TOOL_REDIRECT),
    ("user_hijack", j_data3.USER_HIJACK),
    ("nl_exfil_request", j_data3.NL_EXFIL),
]
FAMILIES = [
    (
        fam,
        pairs + j_data4.MORE[fam] + j_data5.MORE_ZH[fam] + j_data6.MORE6[fam] + j_data7.MORE7[fam],
    )
    for fam, pairs in FAMILIES
]
assert (
    set(j_data4.MORE)
    == set(j_data5.MORE_ZH)
    == set(j_data6.MORE6)
    == set(j_data7.MORE7)
    == {fam for fam, _ in FAMILIES}
)

# Carriers: (name, en template, zh template); %s is the clause. Filler is shared by
# attack and twin, so only the clause differs.
CARRIERS = [
    ("plain", "%s", "%s"),
    (
        "meeting_notes",
        "Weekly sync, notes by Oren\n- Attendees: Oren, Mei, Patrick\n- Release train on track\n- %s\n- Next sync Tuesday",
        "周会纪要（记录：周敏）\n- 参会：周敏、刘洋、Patrick\n- 发版进度正常\n- %s\n- 下次周二开会",
    ),
    (
        "email_quote",
        "From: ops-digest@lists.acme.test\nSubject: Re: weekly digest\n\n> %s\n\nThanks, filing this under the digest.",
        "发件人：ops-digest@lists.acme.test\n主题：回复：每周摘要\n\n> %s\n\n收到，已归档到摘要。",
    ),
    (
        "json_memory",
        '{"kind": "note", "title": "saved from session", "body": %s}',
        '{"kind": "note", "title": "会话中保存", "body": %s}',
    ),
    (
        "chat_log",
        "[14:02] mei: did the build pass?\n[14:03] bot: yes, green\n[14:05] mei: %s",
        "[14:02] 刘洋：构建过了吗？\n[14:03] bot：过了\n[14:05] 刘洋：%s",
    ),
    (
        "web_summary",
        "Summary of the page 'Getting started with the billing API': it explains keys, rate limits and webhooks. It also says: %s",
        "网页《计费 API 入门》摘要：介绍了密钥、限流和回调。页面还写道：%s",
    ),
    (
        "markdown_doc",
        "## Notes\n\nThe parser handles CSV and TSV. Large files are streamed.\n\n%s\n\nSee also: docs/parser.md",
        "## 备注\n\n解析器支持 CSV 和 TSV，大文件流式处理。\n\n%s\n\n另见：docs/parser.md",
    ),
    (
        "long_note",
        "Project log, week 49. Moved the cron jobs to the new runner, fixed the flaky upload test (timeouts were 2 s, now 10 s), "
        "and updated the README screenshots. Customer call on Wednesday went fine; they want CSV export by January. %s "
        "Otherwise nothing blocking; Patrick is out Friday.",
        "项目日志第 49 周。定时任务迁到了新执行器，修好了不稳定的上传测试（超时从 2 秒改成 10 秒），更新了 README 截图。"
        "周三客户电话顺利，他们希望一月前支持 CSV 导出。%s 其他没有阻塞项，Patrick 周五请假。",
    ),
]
# Carriers that fit each source: user-typed writes mostly arrive bare, an agent
# writes session notes and page summaries, a tool returns JSON, mail or chat,
# a web page is markdown or prose, a document is minutes, docs, mail or a log.
SOURCE_CARRIERS = {
    "user": ["plain", "plain", "chat_log", "json_memory"],
    "agent": ["plain", "web_summary", "long_note", "json_memory", "chat_log"],
    "tool": ["plain", "json_memory", "email_quote", "chat_log", "markdown_doc"],
    "web": ["plain", "markdown_doc", "long_note", "email_quote"],
    "document": ["plain", "meeting_notes", "markdown_doc", "long_note", "email_quote"],
}


def wrap(carrier: str, lang: str, clause: str) -> str:
    for name, en, zh in CARRIERS:
        if name == carrier:
            tpl = en if lang == "en" else zh
            if name == "json_memory":
                return tpl % json.dumps(clause, ensure_ascii=False)
            return tpl % clause
    raise KeyError(carrier)


def build_rows() -> list[dict[str, object]]:
    text_rows: list[dict[str, object]] = []
    code_rows: list[dict[str, object]] = []
    for fam, pairs in FAMILIES:
        rng = random.Random("set_j:" + fam)
        for i, (lang, source, attack, twin, kind) in enumerate(pairs):
            assert lang in ("en", "zh") and source in (
                "user",
                "agent",
                "tool",
                "web",
                "document",
            ), (fam, i)
            carrier = rng.choice(SOURCE_CARRIERS[source])
            text_rows.append(
                {
                    "label": "injection",
                    "family": fam,
                    "source": source,
                    "lang": lang,
                    "hard": carrier != "plain"
                    or fam in ("decode_and_follow", "rights_claim", "false_constraint"),
                    "note": f"{fam} attack, carrier {carrier}; twin is {kind}",
                    "text": wrap(carrier, lang, attack),
                }
            )
            text_rows.append(
                {
                    "label": "benign",
                    "family": kind,
                    "source": source,
                    "lang": lang,
                    "hard": True,
                    "note": f"twin of a {fam} attack (same carrier {carrier}): {kind.replace('_', ' ')}",
                    "text": wrap(carrier, lang, twin),
                }
            )
    for row in j_extra.text_rows():
        text_rows.append(row)
    for row in j_extra.code_rows():
        code_rows.append(row)
    return number(text_rows), number(code_rows)


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
_counter: Counter[str] = Counter()


def number(rows: list[dict[str, object]]) -> list[dict[str, object]]:
    out = []
    for r in rows:
        label = str(r["label"])
        _counter[label] += 1
        out.append(
            {
                "id": f"tj-{PREFIX[label]}-{_counter[label]:03d}",
                "label": label,
                "expect": EXPECT[label],
                "family": r["family"],
                "source": r["source"],
                "lang": r["lang"],
                "hard": r["hard"],
                "note": r["note"],
                "text": r["text"],
            }
        )
    return out


def counts(text_rows, code_rows) -> str:
    rows = text_rows + code_rows
    lines = [
        f"{len(rows)} items; text.jsonl {len(text_rows)}, code.jsonl {len(code_rows)}",
        "",
        "| label / family | en | zh | total |",
        "|---|---|---|---|",
    ]
    for label in EXPECT:
        mine = [r for r in rows if r["label"] == label]
        if not mine:
            continue
        en = sum(r["lang"] == "en" for r in mine)
        lines.append(f"| **{label}** | {en} | {len(mine) - en} | {len(mine)} |")
        for fam in sorted({str(r["family"]) for r in mine}):
            f = [r for r in mine if r["family"] == fam]
            fe = sum(r["lang"] == "en" for r in f)
            lines.append(f"| {label} / {fam} | {fe} | {len(f) - fe} | {len(f)} |")
    lines += ["", "| source | n |", "|---|---|"]
    for src, n in sorted(Counter(str(r["source"]) for r in rows).items()):
        lines.append(f"| {src} | {n} |")
    kinds = sorted({k for _, pairs in FAMILIES for *_, k in pairs})
    lines += [
        "",
        "Twins per attack family (benign family of each attack's twin):",
        "",
        "| attack family | " + " | ".join(kinds) + " |",
        "|---|" + "---|" * len(kinds),
    ]
    for fam, pairs in FAMILIES:
        c = Counter(k for *_, k in pairs)
        lines.append(f"| {fam} | " + " | ".join(str(c[k]) for k in kinds) + " |")
    hard = sum(bool(r["hard"]) for r in rows)
    lines += ["", f"hard: {hard}/{len(rows)}"]
    zh = sum(r["lang"] == "zh" for r in rows)
    lines += ["", f"zh share: {zh}/{len(rows)} = {zh / len(rows):.3f}"]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(HERE))
    ap.add_argument("--counts", action="store_true")
    a = ap.parse_args()
    text_rows, code_rows = build_rows()
    if a.counts:
        print(counts(text_rows, code_rows))
        return
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for stem, rows in (("text", text_rows), ("code", code_rows)):
        with open(out / f"{stem}.jsonl", "w", encoding="utf-8", newline="\n") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False, sort_keys=False) + "\n")


if __name__ == "__main__":
    main()
