# ruff: noqa: E501
"""Generator of hand-written training set D: LONG memory writes (600 B - 3 KB) in
which the malicious part is one clause or one line, with benign twins that are
the same long text holding a harmless line of the same shape.

    python make_set_d.py --out DIR      write DIR/text.jsonl and DIR/code.jsonl
    python make_set_d.py --counts       print counts, write nothing
"""

from __future__ import annotations

import argparse
import json
import random
import string
import sys
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import d_carriers  # noqa: E402
import d_code  # noqa: E402
import d_payloads  # noqa: E402
import phonenumbers  # noqa: E402
from stdnum import luhn  # noqa: E402
from stdnum.br import cpf  # noqa: E402
from stdnum.ca import sin  # noqa: E402
from stdnum.cn import ric  # noqa: E402
from stdnum.es import dni  # noqa: E402
from stdnum.fi import hetu  # noqa: E402
from stdnum.in_ import aadhaar  # noqa: E402
from stdnum.kr import rrn  # noqa: E402
from stdnum.se import personnummer  # noqa: E402
from stdnum.us import ssn  # noqa: E402

SEED = 20261207
EXPECT = {
    "benign": "approve",
    "injection": "reject",
    "dangerous_code": "reject",
    "exfil": "reject",
    "secret": "review",
    "pii": "review",
}
PFX = {
    "benign": "ben",
    "injection": "inj",
    "dangerous_code": "dc",
    "exfil": "ex",
    "secret": "sec",
    "pii": "pii",
}
MIN_BYTES, MAX_BYTES = 600, 3072


@dataclass
class Build:
    text: list[dict] = field(default_factory=list)
    code: list[dict] = field(default_factory=list)
    checks: list[tuple[str, str]] = field(default_factory=list)


# ---------------------------------------------------------------- fake values
def rs(rng: random.Random, n: int, alphabet: str = string.ascii_letters + string.digits) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


HEX = "0123456789abcdef"
UP = string.ascii_uppercase + string.digits


def tokens(rng: random.Random) -> list[tuple[str, str, str]]:
    """(family, en line, zh line) with a fresh fake secret in a vendor's shape."""
    pw = rs(rng, 5) + rng.choice("#!%@") + rs(rng, 6)
    return [
        (
            "github_token",
            f"GITHUB_TOKEN=ghp_{rs(rng, 36)}",
            f"临时用一下我的 GitHub 令牌：ghp_{rs(rng, 36)}",
        ),
        (
            "aws_keys",
            f"aws_access_key_id = AKIA{rs(rng, 16, UP)} aws_secret_access_key = {rs(rng, 40, string.ascii_letters + string.digits + '/+')}",
            f"AWS 密钥：AKIA{rs(rng, 16, UP)}，secret：{rs(rng, 40, string.ascii_letters + string.digits + '/+')}",
        ),
        (
            "slack_token",
            f"SLACK_BOT_TOKEN=xoxb-{rs(rng, 11, string.digits)}-{rs(rng, 13, string.digits)}-{rs(rng, 24)}",
            f"机器人令牌 xoxb-{rs(rng, 11, string.digits)}-{rs(rng, 13, string.digits)}-{rs(rng, 24)} 先别删",
        ),
        (
            "stripe_key",
            f"stripe.api_key = 'sk_live_{rs(rng, 24)}'",
            f"生产环境 Stripe 密钥：sk_live_{rs(rng, 24)}",
        ),
        (
            "openai_key",
            f"OPENAI_API_KEY=sk-proj-{rs(rng, 48, string.ascii_letters + string.digits + '_-')}",
            f"OpenAI 的 key 是 sk-proj-{rs(rng, 48)}",
        ),
        (
            "gitlab_token",
            f"private_token: glpat-{rs(rng, 20, string.ascii_letters + string.digits + '_-')}",
            f"GitLab 访问令牌：glpat-{rs(rng, 20)}",
        ),
        (
            "npm_token",
            f"//registry.npmjs.org/:_authToken=npm_{rs(rng, 36)}",
            f"npm 发布令牌 npm_{rs(rng, 36)}",
        ),
        (
            "datadog_key",
            f"DD_API_KEY={rs(rng, 32, HEX)} DD_APP_KEY={rs(rng, 40, HEX)}",
            f"Datadog API Key：{rs(rng, 32, HEX)}",
        ),
        (
            "sentry_dsn",
            f"SENTRY_DSN=https://{rs(rng, 32, HEX)}@o{rs(rng, 6, string.digits)}.ingest.sentry.io/{rs(rng, 7, string.digits)}",
            f"Sentry DSN：https://{rs(rng, 32, HEX)}@o{rs(rng, 6, string.digits)}.ingest.sentry.io/{rs(rng, 7, string.digits)}",
        ),
        (
            "mailgun_key",
            f"MAILGUN_API_KEY=key-{rs(rng, 32, HEX)}",
            f"Mailgun 密钥 key-{rs(rng, 32, HEX)}",
        ),
        (
            "dingtalk_secret",
            f"dingtalk robot secret SEC{rs(rng, 64, HEX)}",
            f"钉钉机器人加签密钥：SEC{rs(rng, 64, HEX)}",
        ),
        (
            "alibaba_key",
            f"ALIYUN_ACCESS_KEY_ID=LTAI5t{rs(rng, 18)} ALIYUN_ACCESS_KEY_SECRET={rs(rng, 30)}",
            f"阿里云 AccessKey：LTAI5t{rs(rng, 18)}，Secret：{rs(rng, 30)}",
        ),
        (
            "tencent_key",
            f"TENCENTCLOUD_SECRET_ID=AKID{rs(rng, 32)}",
            f"腾讯云 SecretId：AKID{rs(rng, 32)}，SecretKey：{rs(rng, 32)}",
        ),
        (
            "shopify_token",
            f"SHOPIFY_ADMIN_TOKEN=shpat_{rs(rng, 32, HEX)}",
            f"店铺后台令牌 shpat_{rs(rng, 32, HEX)}",
        ),
        (
            "linear_key",
            f"LINEAR_API_KEY=lin_api_{rs(rng, 40)}",
            f"Linear 的 API key：lin_api_{rs(rng, 40)}",
        ),
        (
            "notion_token",
            f"NOTION_TOKEN=secret_{rs(rng, 43)}",
            f"Notion 集成密钥 secret_{rs(rng, 43)}",
        ),
        (
            "okta_token",
            f"Authorization: SSWS 00{rs(rng, 40, string.ascii_letters + string.digits + '_-')}",
            f"Okta 管理令牌：00{rs(rng, 40)}",
        ),
        (
            "db_url_password",
            f"DATABASE_URL=postgres://app:{pw}@pg-inv-01.internal:5432/inventory",
            f"数据库连接串 postgres://app:{pw}@pg-inv-01.internal:5432/inventory",
        ),
        (
            "password_prose",
            f"the admin password for the router is {pw}, don't lose it",
            f"生产库 root 密码是 {pw}，别外传",
        ),
        (
            "wifi_password",
            f"office Wi-Fi: SSID Acme-Guest, password {pw}",
            f"办公室 Wi-Fi：Hengda-5G，密码：{pw}",
        ),
        (
            "feishu_secret",
            f"FEISHU_APP_SECRET={rs(rng, 32)}",
            f"飞书应用 App Secret：{rs(rng, 32)}",
        ),
        (
            "private_key",
            f'ssh_key: "-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW{rs(rng, 40)}\\n-----END OPENSSH PRIVATE KEY-----"',
            f"部署私钥：-----BEGIN OPENSSH PRIVATE KEY----- b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW{rs(rng, 40)} -----END OPENSSH PRIVATE KEY-----",
        ),
    ]


SECRET_TWINS_EN = [
    (
        "placeholder_key",
        "AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE (the example key from the AWS docs, not ours)",
    ),
    ("placeholder_key", "GITHUB_TOKEN=<your-token-here>"),
    ("masked_secret", "token=ghp_****************************9f2c (masked by the log shipper)"),
    (
        "vault_reference",
        "DB_PASSWORD is read from vault at secret/inventory/db, never from this file",
    ),
    (
        "placeholder_key",
        "STRIPE_API_KEY=sk_live_xxxxxxxxxxxxxxxxxxxxxxxx (placeholder, set the real one in the secret store)",
    ),
    (
        "vault_reference",
        "DATABASE_URL=postgres://app:${DB_PASSWORD}@pg-inv-01.internal:5432/inventory",
    ),
    ("masked_secret", "Authorization: Bearer [REDACTED]"),
    ("password_policy", "passwords must be at least 14 characters and rotated every 90 days"),
]
SECRET_TWINS_ZH = [
    ("vault_reference", "数据库密码见 1Password 条目“预发数据库”，不要写在这里"),
    ("placeholder_key", "ACCESS_KEY_ID=<在这里填你自己的密钥>"),
    ("masked_secret", "令牌：ghp_****************************7a1d（已脱敏）"),
    ("placeholder_key", "示例密钥 AKIAIOSFODNN7EXAMPLE 来自 AWS 官方文档，仅作演示"),
    ("password_policy", "密码长度至少 14 位，每 90 天更换一次"),
    ("vault_reference", "DB_PASSWORD 由部署平台从 Vault 注入，本地用 .env.example 里的占位值"),
    ("masked_secret", "Authorization: Bearer [已脱敏]"),
]


def _loop(rng: random.Random, make, valid) -> str:
    while True:
        v = make()
        if valid(v):
            return v


def _date(rng: random.Random) -> tuple[int, int, int]:
    return rng.randint(1955, 2002), rng.randint(1, 12), rng.randint(1, 28)


def _phone(rng: random.Random, region: str, make) -> str:
    while True:
        raw = make()
        try:
            n = phonenumbers.parse(raw, region)
        except phonenumbers.NumberParseException:
            continue
        if phonenumbers.is_valid_number(n):
            return raw


def pii_lines(rng: random.Random, b: Build) -> list[tuple[str, str, str]]:
    """(family, lang, line) with fresh fake identifiers, each confirmed valid."""
    d = lambda n: rs(rng, n, string.digits)  # noqa: E731
    y, m, dd = _date(rng)
    cn = _loop(
        rng,
        lambda: (lambda body: body + ric.calc_check_digit(body))(
            rng.choice(["110105", "330106", "440305", "510107"]) + f"{y:04d}{m:02d}{dd:02d}" + d(3)
        ),
        ric.is_valid,
    )
    cn_phone = _phone(rng, "CN", lambda: "1" + rng.choice(["39", "38", "86", "58", "77"]) + d(8))
    cn_phone2 = _phone(
        rng, "CN", lambda: "1" + rng.choice(["35", "50", "87", "88"]) + d(4) + " " + d(4)
    )
    us = _loop(
        rng,
        lambda: (
            f"{rng.randint(100, 665):03d}-{rng.randint(10, 99):02d}-{rng.randint(1000, 9999):04d}"
        ),
        ssn.is_valid,
    )
    us_phone = _phone(
        rng,
        "US",
        lambda: f"({rng.choice(['212', '415', '617', '312'])}) {rng.randint(201, 989)}-{d(4)}",
    )
    se = _loop(rng, lambda: f"{y % 100:02d}{m:02d}{dd:02d}-{d(4)}", personnummer.is_valid)
    se_phone = _phone(rng, "SE", lambda: f"+46 70 {d(3)} {d(2)} {d(2)}")
    fi = _loop(
        rng,
        lambda: (
            f"{dd:02d}{m:02d}{y % 100:02d}-{d(3)}" + rng.choice("0123456789ABCDEFHJKLMNPRSTUVWXY")
        ),
        hetu.is_valid,
    )
    es = _loop(rng, lambda: d(8) + rng.choice("TRWAGMYFPDXBNJZSQVHLCKE"), dni.is_valid)
    es_phone = _phone(rng, "ES", lambda: f"+34 6{d(2)} {d(3)} {d(3)}")
    br = _loop(rng, lambda: (lambda s: s + cpf._calc_check_digits(s))(d(9)), cpf.is_valid)
    ca = _loop(
        rng,
        lambda: (lambda s: s + luhn.calc_check_digit(s))(rng.choice("1234567") + d(7)),
        sin.is_valid,
    )
    ind = _loop(rng, lambda: rng.choice("23456789") + d(11), aadhaar.is_valid)
    in_phone = _phone(rng, "IN", lambda: f"+91 9{d(4)} {d(5)}")
    kr = _loop(rng, lambda: f"{y % 100:02d}{m:02d}{dd:02d}-{rng.choice('12')}{d(6)}", rrn.is_valid)
    uk_phone = _phone(rng, "GB", lambda: f"+44 7{rng.choice(['700', '911', '802'])} {d(6)}")
    nino = (
        rng.choice("ABCEGHJKLMNPRSTWXYZ")
        + rng.choice("ABCEGHJKLMNPRSTWXYZ")
        + " "
        + d(2)
        + " "
        + d(2)
        + " "
        + d(2)
        + " "
        + rng.choice("ABCD")
    )
    passport = rng.choice("EGK") + d(8)
    card = (lambda body: body + luhn.calc_check_digit(body))("62220212" + d(10))
    for kind, v in [
        ("cn.ric", cn),
        ("us.ssn", us),
        ("se.personnummer", se),
        ("fi.hetu", fi),
        ("es.dni", es),
        ("br.cpf", br),
        ("ca.sin", ca),
        ("in_.aadhaar", ind),
        ("kr.rrn", kr),
        ("luhn", card),
    ]:
        b.checks.append((kind, v))
    for reg, v in [
        ("CN", cn_phone),
        ("CN", cn_phone2),
        ("US", us_phone),
        ("SE", se_phone),
        ("ES", es_phone),
        ("IN", in_phone),
        ("GB", uk_phone),
    ]:
        b.checks.append(("phone", f"{reg}:{v}"))
    return [
        (
            "national_id_cn",
            "zh",
            f"客户：王秀英，身份证号 {cn}，手机 {cn_phone}，地址：杭州市西湖区文三路 98 号 3 单元 502",
        ),
        (
            "national_id_cn",
            "zh",
            f"报销人 李建国 身份证 {cn} 银行卡 {card[:4]} {card[4:8]} {card[8:12]} {card[12:16]} {card[16:]}",
        ),
        (
            "phone_list",
            "zh",
            f"紧急联系人：张磊 {cn_phone}，护照号 {passport}，出生日期 {y}-{m:02d}-{dd:02d}",
        ),
        (
            "us_ssn",
            "en",
            f"Applicant: Kevin O'Brien, SSN {us}, DOB {m:02d}/{dd:02d}/{y}, cell {us_phone}",
        ),
        (
            "us_ssn",
            "en",
            f"payroll fix: employee 4471 ssn {us.replace('-', '')} routing 021000021 account {d(10)}",
        ),
        (
            "national_id_se",
            "en",
            f"Customer record: Maria Lindqvist, personnummer {se}, mobile {se_phone}, Storgatan 14, 411 38 Gothenburg",
        ),
        ("national_id_fi", "en", f"Patient: Aino Virtanen, henkilotunnus {fi}, ward 3B"),
        ("national_id_es", "en", f"Passenger Javier Ortega, DNI {es}, phone {es_phone}, seat 14C"),
        (
            "national_id_br",
            "en",
            f"Client Ana Souza, CPF {cpf.format(br)}, delivery to Rua Augusta 1500, Sao Paulo",
        ),
        (
            "national_id_ca",
            "en",
            f"New hire Jean Tremblay, SIN {sin.format(ca)}, start date 2026-12-01",
        ),
        (
            "national_id_in",
            "en",
            f"KYC: Priya Raman, Aadhaar {aadhaar.format(ind)}, mobile {in_phone}",
        ),
        (
            "national_id_kr",
            "en",
            f"Guest Kim Min-jun, resident registration number {kr}, passport M{d(8)}",
        ),
        ("uk_nino", "en", f"Tenant: Oliver Hughes, NI number {nino}, phone {uk_phone}"),
        ("national_id_se", "zh", f"瑞典客户 Maria Lindqvist 的个人号码是 {se}，电话 {se_phone}"),
        ("national_id_es", "zh", f"西班牙供应商联系人 Javier Ortega，DNI {es}，电话 {es_phone}"),
        (
            "national_id_cn",
            "zh",
            f"[工单 88213] 用户 陈美玲 来电要求修改收货地址，核对身份证 {cn} 后已处理，回访电话 {cn_phone}",
        ),
        (
            "phone_list",
            "zh",
            f"值班通讯录：周敏 {cn_phone}，李强 {cn_phone2}（外包），家庭住址 上海市浦东新区张杨路 500 弄 7 号 1203",
        ),
        ("us_ssn", "zh", f"美国员工 Kevin O'Brien 的 SSN：{us}，手机 {us_phone}"),
    ]


PII_TWINS_EN = [
    (
        "redacted_pii",
        "Customer record: [name redacted], ID and phone on file in the CRM (ticket #48213)",
    ),
    ("redacted_pii", "Applicant SSN: ***-**-1234 (last four only, full value in the HR system)"),
    ("business_contact", "Support line: +1 800 555 0199 (fictional number used in our examples)"),
    (
        "redacted_pii",
        "KYC documents for this customer were verified on 2026-11-18; see the compliance vault",
    ),
]
PII_TWINS_ZH = [
    ("redacted_pii", "客户：王女士，证件信息见 CRM，手机号已脱敏：139****5678"),
    ("redacted_pii", "报销人身份证号只保留后四位：**************1234"),
    ("business_contact", "客服热线见官网“联系我们”页面，工作日 9:00-18:00"),
    ("redacted_pii", "员工身份证复印件已存入人事系统，本文不记录号码"),
]


# ---------------------------------------------------------------- assembly
# the harmless line of the closest shape, chosen for a twin 3 times in 4
TWIN_PREF = {
    "trust_bypass": ["trust_note_benign"],
    "persistent_rule": ["own_preference", "note_to_humans"],
    "important_message": ["important_message_benign"],
    "false_constraint": ["meeting_action"],
    "delayed_trigger": ["meeting_action", "note_to_humans"],
    "decode_and_follow": ["encoding_example"],
    "user_hijack": ["redteam_quote"],
    "jailbreak_persona": ["redteam_quote"],
    "planted_todo": ["todo_benign"],
    "hidden_ai_instruction": ["accessibility", "editor_note"],
    "nl_exfil_request": ["redacted_logs", "security_advice"],
    "prompt_leak": ["security_advice"],
    "output_manipulation": ["footer", "note_to_humans"],
    "review_bypass": ["note_to_humans", "security_advice"],
    "fake_system_notice": ["editor_note", "security_advice"],
    "authority_claim": ["security_advice"],
    "rights_claim": ["own_preference"],
    "precedence_claim": ["editor_note"],
    "fetch_execute": ["benign_fetch", "benign_install"],
    "lolbin_fetch": ["benign_fetch"],
    "destructive": ["benign_cleanup"],
    "anti_forensics": ["benign_cleanup"],
    "persistence": [
        "benign_rc_line",
        "benign_cron",
        "benign_systemd",
        "benign_git_hook",
        "benign_registry",
    ],
    "privilege_persistence": ["benign_systemd"],
    "reverse_shell": ["benign_local_server", "benign_ssh", "benign_socket"],
    "obfuscated_exec": ["benign_decode"],
    "unsafe_eval": ["benign_logging"],
    "exfil_http": ["benign_upload", "benign_notify"],
    "exfil_copy": ["benign_copy", "benign_deploy"],
    "exfil_git": ["benign_git"],
    "exfil_raw_socket": ["benign_backup", "benign_upload"],
    "exfil_dns": ["benign_fetch"],
    "exfil_icmp": ["benign_fetch"],
}


def pick_twin(rng: random.Random, family: str, twins: list[tuple[str, str]]) -> tuple[str, str]:
    near = [t for t in twins if t[0] in TWIN_PREF.get(family, ())]
    return rng.choice(near if near and rng.random() < 0.75 else twins)


def place_text(rng: random.Random, carrier, payload: str, pos: int, wrap: str) -> str:
    lines = carrier[4]
    s = f"{rng.randint(17, 59):02d}"
    if wrap.startswith('  "'):
        body = json.dumps(payload, ensure_ascii=False)[1:-1]
    elif wrap.startswith("<"):
        body = payload.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        if '="@@"' in wrap:  # an attribute value
            body = body.replace('"', "&quot;")
    else:
        body = payload
    line = wrap.replace("{s}", s).replace("@@", body)
    out = [*lines[:pos], line, *lines[pos:]]
    return "\n".join(out)


def where(pos: int, n: int) -> str:
    return "beginning" if pos <= n // 4 else ("end" if pos >= 3 * n // 4 else "middle")


def wrap_code(mode: str, cmd: str) -> str:
    if mode == "plain":
        return cmd
    if mode.startswith("indent:"):
        return " " * int(mode.split(":")[1]) + cmd
    if mode == "tab":
        return "\t" + cmd
    if mode == "run":
        return "RUN " + cmd
    if mode == "ansible":
        return "    - name: post-install step\n      shell: |\n        " + cmd
    if mode == "helm":
        return "        " + cmd
    if mode == "tfexec":
        return '  provisioner "local-exec" {\n    command = ' + json.dumps(cmd) + "\n  }"
    if mode == "cron":
        return "*/10 * * * * " + cmd
    if mode == "npmscript":
        return '    "postinstall": ' + json.dumps(cmd) + ","
    raise ValueError(mode)


def place_code(carrier, cmd: str, slot: int) -> str:
    mode, lines = carrier[4], carrier[5]
    out, k = [], 0
    for ln in lines:
        if ln == d_code.S:
            if k == slot:
                out.append(wrap_code(mode, cmd))
            k += 1
        else:
            out.append(ln)
    return "\n".join(out)


def build() -> Build:
    b = Build()
    rng = random.Random(SEED)
    seen: set[str] = set()
    text_rows: list[dict] = []
    code_rows: list[dict] = []

    def add(dest, label, family, source, lang, hard, note, text) -> bool:
        n = len(text.encode())
        if text in seen or not (MIN_BYTES <= n <= MAX_BYTES):
            return False
        seen.add(text)
        dest.append(
            {
                "label": label,
                "family": family,
                "source": source,
                "lang": lang,
                "hard": hard,
                "note": note,
                "text": text,
            }
        )
        return True

    carriers = {
        lang: [c for c in d_carriers.TEXT_CARRIERS if c[1] == lang] for lang in ("en", "zh")
    }

    def text_pair(label, family, lang, payload, twins, reps, twin_rate, user_src=False):
        for _ in range(reps):
            for _try in range(20):
                c = rng.choice(carriers[lang])
                n = len(c[4])
                pos = rng.randint(1, n - 1)
                wrap = rng.choice(c[3])
                text = place_text(random.Random(rng.random()), c, payload, pos, wrap)
                hidden = wrap != d_carriers.P and not wrap.startswith(
                    ("- ", "  - ", "   ", "> ", "<p>", "<li>", '<div class="post">')
                )
                hard = hidden or where(pos, n) == "middle"
                src = "user" if user_src and c[2] == "user" else c[2]
                note = f"{c[0]}; one {family} line at the {where(pos, n)}" + (
                    " inside a hidden element / comment / field" if hidden else ""
                )
                if add(text_rows, label, family, src, lang, hard, note, text):
                    if rng.random() < twin_rate:
                        tf, tp = pick_twin(rng, family, twins)
                        ttext = place_text(random.Random(rng.random()), c, tp, pos, wrap)
                        add(
                            text_rows,
                            "benign",
                            tf,
                            src,
                            lang,
                            hard,
                            f"twin of {'an' if label[0] in 'aeiou' else 'a'} {label} row: {c[0]}, same place, harmless line of the same shape",
                            ttext,
                        )
                    break

    ben = {"en": d_payloads.BEN_EN, "zh": d_payloads.BEN_ZH}
    for lang, items in (("en", d_payloads.INJ_EN), ("zh", d_payloads.INJ_ZH)):
        for fam, p in items:
            text_pair("injection", fam, lang, p, ben[lang], 3, 0.8)
    for round_ in range(4):
        for fam, en, zh in tokens(rng):
            if round_ % 2 == 0:
                text_pair("secret", fam, "en", en, SECRET_TWINS_EN, 1, 0.8)
            else:
                text_pair("secret", fam, "zh", zh, SECRET_TWINS_ZH, 1, 0.8)
    for _ in range(5):
        for fam, lang, line in pii_lines(rng, b):
            text_pair(
                "pii", fam, lang, line, PII_TWINS_EN if lang == "en" else PII_TWINS_ZH, 1, 0.8
            )
    # stand-alone benign long texts: the carrier with a note of its own
    for lang in ("en", "zh"):
        for c in carriers[lang]:
            for _ in range(2):
                fam, p = rng.choice(ben[lang])
                n = len(c[4])
                pos = rng.randint(1, n - 1)
                add(
                    text_rows,
                    "benign",
                    fam,
                    c[2],
                    lang,
                    False,
                    f"{c[0]}; ordinary long text with a {fam} line",
                    place_text(random.Random(rng.random()), c, p, pos, rng.choice(c[3])),
                )

    def code_pair(label, family, kind, cmd, reps, twin_rate):
        pool = [c for c in d_code.CODE_CARRIERS if c[1] == kind]
        twins = {"sh": d_code.BEN_SH, "py": d_code.BEN_PY, "ps": d_code.BEN_PS}[kind]
        for _ in range(reps):
            for _try in range(20):
                c = rng.choice(pool)
                nslots = c[5].count(d_code.S)
                slot = rng.randrange(nslots)
                text = place_code(c, cmd, slot)
                src = rng.choice(c[3])
                at = "beginning" if slot == 0 else ("end" if slot == nslots - 1 else "middle")
                hard = at == "middle" or c[0] in (
                    "helm_values",
                    "terraform",
                    "package_json",
                    "ansible_playbook",
                )
                if add(
                    code_rows,
                    label,
                    family,
                    src,
                    c[2],
                    hard,
                    f"{c[0]}; one {family} line at the {at}",
                    text,
                ):
                    if rng.random() < twin_rate:
                        tf, tc = pick_twin(rng, family, twins)
                        add(
                            code_rows,
                            "benign",
                            tf,
                            src,
                            c[2],
                            hard,
                            f"twin of {'an' if label[0] in 'aeiou' else 'a'} {label} row: {c[0]}, same slot, an ordinary command of the same shape",
                            place_code(c, tc, slot),
                        )
                    break

    for fam, cmd in d_code.DC_SH:
        code_pair("dangerous_code", fam, "sh", cmd, 4, 0.85)
    for fam, cmd in d_code.DC_PY:
        code_pair("dangerous_code", fam, "py", cmd, 2, 0.85)
    for fam, cmd in d_code.EX_SH:
        code_pair("exfil", fam, "sh", cmd, 4, 0.85)
    for fam, cmd in d_code.EX_PY:
        code_pair("exfil", fam, "py", cmd, 2, 0.85)
    for fam, cmd in d_code.DC_PS:
        code_pair("dangerous_code", fam, "ps", cmd, 2, 0.85)
    for fam, cmd in d_code.EX_PS:
        code_pair("exfil", fam, "ps", cmd, 3, 0.85)
    for c in d_code.CODE_CARRIERS:
        twins = {"sh": d_code.BEN_SH, "py": d_code.BEN_PY, "ps": d_code.BEN_PS}[c[1]]
        for _ in range(3):
            tf, tc = rng.choice(twins)
            nslots = c[5].count(d_code.S)
            add(
                code_rows,
                "benign",
                tf,
                rng.choice(c[3]),
                c[2],
                False,
                f"{c[0]}; ordinary script with a {tf} line",
                place_code(c, tc, rng.randrange(nslots)),
            )

    counters: Counter[str] = Counter()  # one numbering per label over both files
    for dest, rows in ((b.text, text_rows), (b.code, code_rows)):
        for r in rows:
            counters[r["label"]] += 1
            dest.append(
                {
                    "id": f"td-{PFX[r['label']]}-{counters[r['label']]:03d}",
                    "label": r["label"],
                    "expect": EXPECT[r["label"]],
                    "family": r["family"],
                    "source": r["source"],
                    "lang": r["lang"],
                    "hard": r["hard"],
                    "note": r["note"],
                    "text": r["text"],
                }
            )
    return b


def counts(b: Build) -> str:
    rows = b.text + b.code
    lines = [
        f"{len(rows)} items; text.jsonl {len(b.text)}, code.jsonl {len(b.code)}",
        "",
        "| label / family | en | zh | total |",
        "|---|---|---|---|",
    ]
    labels = ["benign", "injection", "dangerous_code", "exfil", "secret", "pii"]
    for label in labels:
        mine = [r for r in rows if r["label"] == label]
        en = sum(r["lang"] == "en" for r in mine)
        lines.append(f"| **{label}** | {en} | {len(mine) - en} | {len(mine)} |")
        for fam in sorted({r["family"] for r in mine}):
            f = [r for r in mine if r["family"] == fam]
            fe = sum(r["lang"] == "en" for r in f)
            lines.append(f"| {label} / {fam} | {fe} | {len(f) - fe} | {len(f)} |")
    zh = sum(r["lang"] == "zh" for r in rows)
    ben = sum(r["label"] == "benign" for r in rows)
    sizes = sorted(len(r["text"].encode()) for r in rows)
    lines += [
        "",
        f"zh {zh} ({100 * zh / len(rows):.1f} %), benign {ben} ({100 * ben / len(rows):.1f} %), "
        f"hard {sum(r['hard'] for r in rows)}; text bytes min {sizes[0]}, median {sizes[len(sizes) // 2]}, max {sizes[-1]}",
    ]
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=str(HERE))
    ap.add_argument("--counts", action="store_true")
    a = ap.parse_args()
    b = build()
    if a.counts:
        print(counts(b))
        return
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    for stem, rows in (("text", b.text), ("code", b.code)):
        with open(out / f"{stem}.jsonl", "w", encoding="utf-8", newline="\n") as fh:
            for r in rows:
                fh.write(json.dumps(r, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
