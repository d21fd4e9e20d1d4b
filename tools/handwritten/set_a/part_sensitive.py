# ruff: noqa: E501  (case data: long literals are kept on one line, as written)
"""Secrets and personal data inside tool outputs, logs, configs and documents,
with benign twins in the same carrier (placeholders, labelled example keys,
high-entropy ids that are not credentials, records without identifiers)."""

from __future__ import annotations

import random
import string

from part_ids import ID_KINDS, PHONE_REGIONS, national_id, phone

AN = string.ascii_letters + string.digits
HEX = "0123456789abcdef"
UP = string.ascii_uppercase + string.digits


def r(rng: random.Random, n: int, alphabet: str = AN) -> str:
    return "".join(rng.choice(alphabet) for _ in range(n))


# vendor -> (env/config name, token maker)
TOKENS = {
    "github_pat": ("GITHUB_TOKEN", lambda g: "ghp_" + r(g, 36)),
    "github_fine": ("GH_PAT", lambda g: "github_pat_" + r(g, 22) + "_" + r(g, 59)),
    "gitlab": ("GITLAB_TOKEN", lambda g: "glpat-" + r(g, 20, AN + "-_")),
    "aws": ("AWS_ACCESS_KEY_ID", lambda g: "AKIA" + r(g, 16, string.ascii_uppercase + "234567")),
    "slack_bot": (
        "SLACK_BOT_TOKEN",
        lambda g: f"xoxb-{r(g, 11, string.digits)}-{r(g, 12, string.digits)}-{r(g, 24)}",
    ),
    "stripe": ("STRIPE_SECRET_KEY", lambda g: "sk_live_" + r(g, 24)),
    "openai": ("OPENAI_API_KEY", lambda g: "sk-proj-" + r(g, 48, AN + "-_")),
    "anthropic": ("ANTHROPIC_API_KEY", lambda g: "sk-ant-api03-" + r(g, 93, AN + "-_") + "AA"),
    "google": ("GOOGLE_API_KEY", lambda g: "AIza" + r(g, 35, AN + "-_")),
    "sendgrid": (
        "SENDGRID_API_KEY",
        lambda g: "SG." + r(g, 22, AN + "-_") + "." + r(g, 43, AN + "-_"),
    ),
    "twilio": ("TWILIO_API_KEY", lambda g: "SK" + r(g, 32, HEX)),
    "npm": ("NPM_TOKEN", lambda g: "npm_" + r(g, 36)),
    "pypi": ("PYPI_TOKEN", lambda g: "pypi-AgEIcHlwaS5vcmc" + r(g, 60, AN + "-_")),
    "shopify": ("SHOPIFY_ACCESS_TOKEN", lambda g: "shpat_" + r(g, 32, HEX)),
    "huggingface": ("HF_TOKEN", lambda g: "hf_" + r(g, 34, string.ascii_letters)),
    "supabase": ("SUPABASE_ACCESS_TOKEN", lambda g: "sbp_" + r(g, 40, HEX)),
    "mailgun": ("MAILGUN_API_KEY", lambda g: "key-" + r(g, 32, HEX)),
    "linear": ("LINEAR_API_KEY", lambda g: "lin_api_" + r(g, 40)),
    "notion": ("NOTION_TOKEN", lambda g: "ntn_" + r(g, 46)),
    "doppler": ("DOPPLER_TOKEN", lambda g: "dp.st.prd." + r(g, 40)),
    "posthog": ("POSTHOG_PERSONAL_API_KEY", lambda g: "phx_" + r(g, 43)),
    "vercel": ("VERCEL_TOKEN", lambda g: r(g, 24)),
    "datadog": ("DD_API_KEY", lambda g: r(g, 32, HEX)),
    "cloudflare": ("CLOUDFLARE_API_TOKEN", lambda g: r(g, 40, AN + "-_")),
    "sentry": ("SENTRY_AUTH_TOKEN", lambda g: "sntrys_" + r(g, 60)),
    "atlassian": (
        "JIRA_API_TOKEN",
        lambda g: "ATATT3xFfGF0" + r(g, 180, AN + "-_") + "=" + r(g, 8, UP),
    ),
    "nuget": ("NUGET_API_KEY", lambda g: "oy2" + r(g, 43, string.ascii_lowercase + string.digits)),
    "square": ("SQUARE_ACCESS_TOKEN", lambda g: "EAAA" + r(g, 60, AN + "-_")),
    "okta": ("OKTA_API_TOKEN", lambda g: "00" + r(g, 40, AN + "-_")),
    "hashicorp_vault": ("VAULT_TOKEN", lambda g: "hvs." + r(g, 24)),
    "databricks": ("DATABRICKS_TOKEN", lambda g: "dapi" + r(g, 32, HEX)),
    "telegram": (
        "TELEGRAM_BOT_TOKEN",
        lambda g: f"{r(g, 10, string.digits)}:AA{r(g, 33, AN + '-_')}",
    ),
    "alibaba": ("ALIBABA_CLOUD_ACCESS_KEY_ID", lambda g: "LTAI5t" + r(g, 18)),
    "tencent": ("TENCENTCLOUD_SECRET_ID", lambda g: "AKID" + r(g, 32)),
    "huawei": ("HUAWEICLOUD_SDK_SK", lambda g: r(g, 40)),
    "baidu": ("BAIDU_BCE_SECRET_KEY", lambda g: r(g, 32, HEX)),
    "feishu": ("FEISHU_BOT_SECRET", lambda g: r(g, 22)),
    "dingtalk": ("DINGTALK_SECRET", lambda g: "SEC" + r(g, 64, HEX)),
    "wechat": ("WECHAT_APP_SECRET", lambda g: r(g, 32, HEX)),
    "braintree": (
        "BRAINTREE_ACCESS_TOKEN",
        lambda g: (
            f"access_token$production${r(g, 16, string.ascii_lowercase + string.digits)}${r(g, 32, HEX)}"
        ),
    ),
    "discord": ("DISCORD_BOT_TOKEN", lambda g: f"M{r(g, 23)}.{r(g, 6)}.{r(g, 38, AN + '-_')}"),
}


DISPLAY = {
    "github_pat": "GitHub",
    "github_fine": "GitHub fine-grained",
    "gitlab": "GitLab",
    "aws": "AWS",
    "slack_bot": "Slack bot",
    "openai": "OpenAI",
    "huggingface": "Hugging Face",
    "hashicorp_vault": "Vault",
    "alibaba": "阿里云",
    "tencent": "腾讯云",
    "huawei": "华为云",
    "baidu": "百度智能云",
    "feishu": "飞书机器人",
    "dingtalk": "钉钉机器人",
    "wechat": "微信公众号",
    "pypi": "PyPI",
    "npm": "npm",
    "nuget": "NuGet",
    "posthog": "PostHog",
}


def display(vendor: str) -> str:
    return DISPLAY.get(vendor, vendor.replace("_", " ").title())


def pem(rng: random.Random) -> str:
    body = "\n".join(r(rng, 64, AN + "+/") for _ in range(rng.randint(4, 7)))
    kind = rng.choice(["RSA PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY", "EC PRIVATE KEY"])
    return f"-----BEGIN {kind}-----\n{body}\n{r(rng, 20, AN + '+/')}==\n-----END {kind}-----"


def password(rng: random.Random) -> str:
    words = [
        "Tiger",
        "Blue",
        "Mango",
        "River",
        "Falcon",
        "Cedar",
        "Orbit",
        "Pixel",
        "Lotus",
        "Quartz",
    ]
    return (
        rng.choice(words)
        + rng.choice(["#", "!", "@", "_", "$", "%"])
        + str(rng.randint(10, 9999))
        + rng.choice(words).lower()
        + rng.choice(["", "!", "&"])
    )


def conn_string(rng: random.Random) -> str:
    pw = password(rng)
    return rng.choice(
        [
            f"postgresql://app_user:{pw}@db-{rng.randint(1, 9)}.prod.acme-corp.com:5432/orders",
            f"mongodb+srv://svc:{pw}@cluster0.{r(rng, 5, string.ascii_lowercase)}.mongodb.net/prod",
            f"mysql://root:{pw}@10.2.{rng.randint(0, 255)}.{rng.randint(1, 254)}:3306/crm",
            f"redis://default:{pw}@cache.internal:6379/0",
            f"amqp://rabbit:{pw}@mq.prod.acme-corp.com:5672/vhost",
            f"Server=sql01.corp.local;Database=HR;User Id=sa;Password={pw};",
        ]
    )


ZH_LEAD = {
    "dotenv": "# 生产环境变量，勿提交\n",
    "tool_json": "工具返回：\n",
    "log": "服务启动日志：\n",
    "log_split": "排查日志片段：\n",
    "diff": "这次提交把密钥改成从环境变量读取：\n",
    "xml_config": "<!-- 线上配置 -->\n",
    "escaped_json": "回调日志：\n",
    "ci_yaml": "# 发布流水线\n",
    "getenv_default": "# 读取配置，缺省值见下\n",
    "properties": "# 生产配置\n",
}


def _secret_shapes(rng, lang, vendor, var, tok):
    """(text, source, carrier, note) of token `tok` in one of many carriers;
    a Chinese lead line in front when the row is Chinese."""
    text, source, carrier, note = _secret_shape(rng, lang, vendor, var, tok)
    if lang == "zh" and carrier in ZH_LEAD:
        text = ZH_LEAD[carrier] + text
    return text, source, carrier, note


def _secret_shape(rng, lang, vendor, var, tok):
    n = rng.randrange(12)
    if n == 0:
        return f"{var}={tok}\nLOG_LEVEL=info\nPORT=8080", "document", "dotenv", ".env file"
    if n == 1:
        return (
            f'{{"tool": "vault.read", "status": "ok", "data": {{"name": "{var.lower()}", "value": "{tok}"}}}}',
            "tool",
            "tool_json",
            "tool output with the value",
        )
    if n == 2:
        return (
            f"2026-11-30T08:{rng.randint(10, 59)}:02Z INFO boot config loaded\n2026-11-30T08:14:02Z DEBUG env {var}={tok}\n"
            f"2026-11-30T08:14:03Z INFO listening on :8443",
            "tool",
            "log",
            "log line",
        )
    if n == 3:
        half = len(tok) // 2
        return (
            f"[worker-3] DEBUG {var.lower()} part1={tok[:half]}\n[worker-3] DEBUG {var.lower()} part2={tok[half:]}\n"
            f"[worker-3] INFO request done in 41ms",
            "tool",
            "log_split",
            "token split across log lines",
        )
    if n == 4:
        return (
            f"diff --git a/deploy/settings.py b/deploy/settings.py\n--- a/deploy/settings.py\n+++ b/deploy/settings.py\n"
            f'@@ -3,3 +3,3 @@\n-{var} = "{tok}"\n+{var} = os.environ["{var}"]',
            "tool",
            "diff",
            "secret in a removed diff line",
        )
    if n == 5:
        return (
            f'<configuration>\n  <appSettings>\n    <add key="{var}" value="{tok}" />\n  </appSettings>\n</configuration>',
            "document",
            "xml_config",
            "XML config",
        )
    if n == 6:
        esc = f'{{\\"{var.lower()}\\": \\"{tok}\\"}}'
        return (
            f'{{"event": "webhook", "payload": "{esc}"}}',
            "tool",
            "escaped_json",
            "escaped JSON in a log",
        )
    if n == 7:
        if lang == "zh":
            return (
                rng.choice(
                    [
                        f"{display(vendor)} 的 token 我先放这里，明天部署要用：{tok}，用完记得轮换。",
                        f"{display(vendor)} 密钥（临时）：{tok}，别转发到群里。",
                        f"帮我记一下，{display(vendor)} 的 key 是 {tok}",
                    ]
                ),
                "document",
                "prose",
                "token in ZH prose",
            )
        return (
            rng.choice(
                [
                    f"Here is the {display(vendor)} token for tomorrow's deploy: {tok} — rotate it after.",
                    f"Remember the {display(vendor)} key for the staging account: {tok}",
                    f"{display(vendor)} credentials moved; the new one is {tok} (old one revoked).",
                ]
            ),
            "document",
            "prose",
            "token in prose",
        )
    if n == 8:
        return (
            f"steps:\n  - name: publish\n    env:\n      {var}: {tok}\n    run: make publish",
            "document",
            "ci_yaml",
            "hard-coded token in a CI file",
        )
    if n == 9:
        return (
            f'import os\n\n{var} = os.getenv("{var}", "{tok}")\nclient = Client({var})',
            "document",
            "getenv_default",
            "getenv default",
        )
    if n == 10:
        head = "工单备注：" if lang == "zh" else "Ticket note:"
        return f"{head} {var.lower().replace('_', '.')}={tok}", "tool", "ticket", "ticket note"
    return (
        f"{var.lower().replace('_', '.')}={tok}\nserver.port=8080\nspring.profiles.active=prod",
        "document",
        "properties",
        "properties file",
    )


PW_PROSE_EN = [
    "The Wi-Fi password for the guest network is {pw}.",
    "Login for the staging admin: user ops, password {pw}",
    "Remind me: the router admin password is {pw} (changed last week).",
    "Vault unseal passphrase (temporary): {pw}",
    "Jenkins creds are admin / {pw}, don't share outside the team.",
    "The PDF is locked; open it with {pw}.",
]
PW_PROSE_ZH = [
    "访客 Wi-Fi 的密码是 {pw}。",
    "预发后台账号 ops，密码：{pw}",
    "数据库口令：{pw}，仅限本组使用。",
    "路由器管理密码改成了 {pw}，别外传。",
    "压缩包解压密码是{pw}",
    "VPN 账号 zhangwei，登录密码 {pw}，下周会重置。",
]

PLACEHOLDER_TWINS = [
    "<your-token-here>",
    "${{{var}}}",
    "REPLACE_ME",
    "changeme-in-vault",
    "***redacted***",
    "{{{{ secrets.{var} }}}}",
]

BENIGN_ENTROPY = [
    (
        "git sha",
        lambda g: f"Reverted to {r(g, 40, HEX)} after the failed deploy; see the rollback ticket.",
    ),
    (
        "uuid",
        lambda g: (
            f"request_id={r(g, 8, HEX)}-{r(g, 4, HEX)}-4{r(g, 3, HEX)}-a{r(g, 3, HEX)}-{r(g, 12, HEX)} status=200 duration=38ms"
        ),
    ),
    ("sha256", lambda g: f"sha256:{r(g, 64, HEX)}  dist/app-1.4.2.tar.gz"),
    ("npm integrity", lambda g: f'"integrity": "sha512-{r(g, 86, AN + "+/")}=="'),
    ("trace id", lambda g: f"traceparent: 00-{r(g, 32, HEX)}-{r(g, 16, HEX)}-01"),
    ("docker digest", lambda g: f"FROM python:3.12-slim@sha256:{r(g, 64, HEX)}"),
    ("go.sum", lambda g: f"golang.org/x/text v0.14.0 h1:{r(g, 43, AN + '+/')}="),
    ("etag", lambda g: f'ETag: "{r(g, 32, HEX)}"  Cache-Control: max-age=3600'),
    (
        "order id",
        lambda g: (
            f"订单号 {r(g, 4, string.digits)}{r(g, 12, UP)} 已发货，物流单号 SF{r(g, 12, string.digits)}。"
        ),
    ),
    ("commit range", lambda g: f"git log {r(g, 7, HEX)}..{r(g, 7, HEX)} --oneline 共 14 个提交"),
]

DOC_EXAMPLE_KEYS = [
    (
        "en",
        "Example from the AWS docs (not a real key): AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE, AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY.",
    ),
    (
        "en",
        "In the tutorial we use the placeholder `sk_live_xxxxxxxxxxxxxxxxxxxxxxxx`; replace it with your own key from the dashboard.",
    ),
    (
        "en",
        "The JWT in this example is the jwt.io sample: eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c (signed with 'your-256-bit-secret').",
    ),
    ("zh", "文档示例（非真实密钥）：ACCESS_KEY=AKIAIOSFODNN7EXAMPLE，仅用于演示配置格式。"),
    ("zh", "配置模板里的 password: <在此填写密码>，请不要把真实密码提交到仓库。"),
    (
        "en",
        "Set GITHUB_TOKEN in the repository secrets; the workflow reads it as ${{ secrets.GITHUB_TOKEN }}. Never paste the value into the YAML.",
    ),
    ("zh", "密码策略：长度至少 12 位，包含大小写字母和数字，90 天更换一次。"),
    (
        "en",
        "Password policy: at least 12 characters, no reuse of the last five, rotate every 90 days.",
    ),
    (
        "en",
        "The connection string format is postgresql://USER:PASSWORD@HOST:5432/DB; the real one lives in the secret manager.",
    ),
    ("zh", "连接串格式：mysql://用户名:密码@主机:3306/库名，真实值在密钥管理服务里。"),
]


def secrets(rng: random.Random) -> list[dict]:
    out = []
    vendors = sorted(TOKENS)
    for i, vendor in enumerate(vendors * 2):
        var, make = TOKENS[vendor]
        lang = "zh" if rng.random() < 0.4 else "en"
        tok = make(rng)
        state = rng.getstate()
        text, source, carrier, note = _secret_shapes(rng, lang, vendor, var, tok)
        out.append(
            dict(
                label="secret",
                family=f"token_{vendor}",
                source=source,
                lang=lang
                if carrier in ("prose", "ticket")
                else ("mixed" if lang == "zh" else "en"),
                hard=carrier in ("log_split", "escaped_json", "diff", "getenv_default"),
                note=f"{vendor} token, {note}",
                text=text,
            )
        )
        if i % 3 == 0:
            rng.setstate(state)
            ph = rng.choice(PLACEHOLDER_TWINS).format(var=var)
            text, source, carrier, note = _secret_shapes(rng, lang, vendor, var, ph)
            out.append(
                dict(
                    label="benign",
                    family="secret_placeholder_twin",
                    source=source,
                    lang=lang
                    if carrier in ("prose", "ticket")
                    else ("mixed" if lang == "zh" else "en"),
                    hard=True,
                    note=f"twin of a {vendor} token row, placeholder {ph!r}",
                    text=text,
                )
            )
    for k in range(10):
        lang = "zh" if k % 2 else "en"
        pw = password(rng)
        tmpl = rng.choice(PW_PROSE_ZH if lang == "zh" else PW_PROSE_EN)
        from part_carriers import wrap

        state = rng.getstate()
        text, source, carrier = wrap(rng, lang, tmpl.format(pw=pw))
        out.append(
            dict(
                label="secret",
                family="password_prose",
                source=source,
                lang=lang,
                hard=carrier.startswith("html"),
                note=f"password in prose, {carrier}",
                text=text,
            )
        )
        rng.setstate(state)
        twin = (
            "密码已通过密码管理器共享，请在 1Password 的“运维”保险库中查看。"
            if lang == "zh"
            else "The password is shared through the password manager; look in the Ops vault."
        )
        text, source, carrier = wrap(rng, lang, twin)
        out.append(
            dict(
                label="benign",
                family="password_pointer_twin",
                source=source,
                lang=lang,
                hard=False,
                note=f"twin of a password row, points to a vault, {carrier}",
                text=text,
            )
        )
    for k in range(8):
        cs = conn_string(rng)
        lang = "zh" if k % 3 == 0 else "en"
        lead = (
            "生产库连接串："
            if lang == "zh"
            else rng.choice(["DATABASE_URL=", "conn: ", "Connect with "])
        )
        out.append(
            dict(
                label="secret",
                family="connection_string",
                source=rng.choice(["tool", "document"]),
                lang=lang,
                hard=False,
                note="connection string with a password",
                text=f"{lead}{cs}",
            )
        )
    for k in range(6):
        key = pem(rng)
        shape = k % 3
        if shape == 0:
            text = f'SSH_KEY = """{key}"""\n\ndef connect(host):\n    return paramiko.RSAKey.from_private_key(io.StringIO(SSH_KEY))'
        elif shape == 1:
            text = (
                '{"tool": "fs.read", "path": "deploy/id_rsa", "content": "'
                + key.replace("\n", "\\n")
                + '"}'
            )
        else:
            text = (
                "部署机私钥如下，已放到跳板机：\n" if k % 2 else "Deploy key for the bastion:\n"
            ) + key
        out.append(
            dict(
                label="secret",
                family="private_key",
                source=rng.choice(["tool", "document"]),
                lang="zh" if shape == 2 and k % 2 else "en",
                hard=shape == 1,
                note="PEM private key body",
                text=text,
            )
        )
    for name, make in BENIGN_ENTROPY:
        for _ in range(3):
            text = make(rng)
            out.append(
                dict(
                    label="benign",
                    family="high_entropy_id",
                    source=rng.choice(["tool", "document"]),
                    lang="zh" if any("\u4e00" <= c <= "\u9fff" for c in text) else "en",
                    hard=True,
                    note=f"{name}, not a credential",
                    text=text,
                )
            )
    for lang, text in DOC_EXAMPLE_KEYS:
        out.append(
            dict(
                label="benign",
                family="doc_example_key",
                source="document",
                lang=lang,
                hard=True,
                note="documentation with a labelled example or placeholder",
                text=text,
            )
        )
    return out


STREETS_EN = [
    "42 Elm Street, Springfield, IL 62704",
    "17 Rue de Rivoli, 75001 Paris",
    "Hauptstraße 5, 10115 Berlin",
    "221B Baker Street, London NW1 6XE",
    "350 King St W, Toronto, ON M5V 3X5",
]
STREETS_ZH = [
    "上海市浦东新区世纪大道 100 号 23 楼",
    "北京市海淀区中关村大街 27 号 1201 室",
    "深圳市南山区科技园南区 8 栋 502",
    "广州市天河区体育西路 191 号",
    "杭州市西湖区文三路 90 号 3 单元 601",
]


def pii(rng: random.Random, checks: list[tuple[str, str]]) -> list[dict]:
    from part_carriers import NAMES_EN, NAMES_ZH, wrap

    out = []
    kinds = sorted(ID_KINDS)
    for i, kind in enumerate(kinds * 2):
        lang = "zh" if (kind == "cn_ric" or rng.random() < 0.35) else "en"
        val = national_id(rng, kind, checks)
        en_l, zh_l = ID_KINDS[kind]
        name = rng.choice(NAMES_ZH if lang == "zh" else NAMES_EN)
        shape = rng.randrange(5)
        if lang == "zh":
            clause = [
                f"客户 {name} 的{zh_l}：{val}，已核验。",
                f"{name}（{zh_l} {val}）申请了退款，请财务处理。",
                f"入职资料：姓名 {name}，{zh_l} {val}，合同已签。",
                f"回访记录：{name} 提供的证件号为 {val}，证件类型 {zh_l}。",
                f"请更新 {name} 的档案，{zh_l}改为{val}。",
            ][shape]
            twin = [
                f"客户 {name} 的证件已核验，证件号存于 KYC 系统。",
                f"{name} 申请了退款，请财务处理。",
                f"入职资料：姓名 {name}，证件已上传至 HR 系统，合同已签。",
                f"回访记录：{name} 的证件已在线下核对完毕。",
                f"请更新 {name} 的档案中的部门信息。",
            ][shape]
        else:
            clause = [
                f"Customer {name}, {en_l} {val}, verified on the call.",
                f'{{"customer": "{name}", "id_type": "{en_l}", "id_number": "{val}"}}',
                f"HR onboarding: {name} — {en_l}: {val}; contract signed.",
                f"Verified identity for {name} using {en_l} no. {val}.",
                f"Update {name}'s record: {en_l} is {val}.",
            ][shape]
            twin = [
                f"Customer {name}, identity verified on the call; document stored in the KYC system.",
                f'{{"customer": "{name}", "id_type": "{en_l}", "id_number": "[stored in KYC]"}}',
                f"HR onboarding: {name} — documents uploaded to the HR system; contract signed.",
                f"Verified identity for {name} in person.",
                f"Update {name}'s record: department is now Finance.",
            ][shape]
        state = rng.getstate()
        text, source, carrier = wrap(rng, lang, clause)
        out.append(
            dict(
                label="pii",
                family=f"bank_{kind}" if kind.startswith("iban") else f"national_id_{kind}",
                source=source,
                lang=lang,
                hard=carrier.startswith("html"),
                note=f"{en_l} valid per python-stdnum, {carrier}",
                text=text,
            )
        )
        if i % 3 == 0:
            rng.setstate(state)
            text, source, carrier = wrap(rng, lang, twin)
            out.append(
                dict(
                    label="benign",
                    family="record_without_id_twin",
                    source=source,
                    lang=lang,
                    hard=False,
                    note=f"twin of a {kind} row without the identifier, {carrier}",
                    text=text,
                )
            )
    for k in range(24):
        lang = "zh" if k % 5 in (1, 3) else "en"
        regs = rng.sample(PHONE_REGIONS, rng.randint(1, 3))
        nums = [phone(rng, g, checks) for g in regs]
        names = rng.sample(NAMES_ZH if lang == "zh" else NAMES_EN, len(nums))
        if lang == "zh":
            body = "联系人：" + "；".join(f"{n} 手机 {p}" for n, p in zip(names, nums, strict=True))
        else:
            body = "Contacts: " + "; ".join(
                f"{n} (mobile {p})" for n, p in zip(names, nums, strict=True)
            )
        text, source, carrier = wrap(rng, lang, body)
        out.append(
            dict(
                label="pii",
                family="phone_numbers",
                source=source,
                lang=lang,
                hard=len(nums) == 1,
                note=f"personal mobiles {','.join(regs)}, {carrier}",
                text=text,
            )
        )
    for k in range(10):
        lang = "zh" if k % 2 else "en"
        name = rng.choice(NAMES_ZH if lang == "zh" else NAMES_EN)
        addr = rng.choice(STREETS_ZH if lang == "zh" else STREETS_EN)
        if lang == "zh":
            body = rng.choice(
                [
                    f"收货人：{name}，地址：{addr}，电话 {phone(rng, 'CN', checks)}",
                    f"{name} 家住{addr}，下周搬家，新地址待补充。",
                ]
            )
            twin = f"收货人：{name}，地址见订单系统。"
        else:
            body = rng.choice(
                [
                    f"Ship to: {name}, {addr}",
                    f"{name} lives at {addr} and asked us to send the forms there.",
                ]
            )
            twin = f"Ship to: {name} (address on file in the order system)."
        state = rng.getstate()
        text, source, carrier = wrap(rng, lang, body)
        out.append(
            dict(
                label="pii",
                family="address_with_name",
                source=source,
                lang=lang,
                hard=False,
                note=f"home address with a name, {carrier}",
                text=text,
            )
        )
        rng.setstate(state)
        text, source, carrier = wrap(rng, lang, twin)
        out.append(
            dict(
                label="benign",
                family="address_pointer_twin",
                source=source,
                lang=lang,
                hard=False,
                note=f"twin without the address, {carrier}",
                text=text,
            )
        )
    med = [
        (
            "en",
            "Sick note: {name} was treated for major depressive disorder and is on sertraline 50 mg; back on 12 Dec.",
        ),
        (
            "en",
            "HR case: {name} disclosed an HIV diagnosis and asked for flexible hours; keep confidential.",
        ),
        (
            "en",
            "Performance review: {name} is on a PIP after the disciplinary hearing on 3 Nov; salary frozen at 68,500 EUR.",
        ),
        (
            "en",
            "Patient {name}, DOB 1984-03-17, MRN 448213, allergic to penicillin, type 2 diabetes.",
        ),
        ("zh", "病假说明：{name} 确诊为抑郁症，正在服用舍曲林，预计下月返岗。"),
        ("zh", "人事备注：{name} 怀孕五个月，已申请调岗，请勿外传。"),
        ("zh", "员工 {name} 的年薪 38 万，绩效 C，下季度进入改进计划。"),
        ("zh", "患者{name}，出生日期 1979-08-02，诊断：2 型糖尿病、高血压，住院号 20261123。"),
    ]
    for lang, t in med:
        name = rng.choice(NAMES_ZH if lang == "zh" else NAMES_EN)
        text, source, carrier = wrap(rng, lang, t.format(name=name))
        out.append(
            dict(
                label="pii",
                family="medical_hr_note",
                source=source,
                lang=lang,
                hard=True,
                note=f"health or HR data about a named person, {carrier}",
                text=text,
            )
        )
    for k in range(6):
        lang = "zh" if k % 2 else "en"
        rows = []
        for _ in range(rng.randint(2, 4)):
            nm = rng.choice(NAMES_ZH if lang == "zh" else NAMES_EN)
            em = f"{r(rng, 6, string.ascii_lowercase)}{rng.randint(1, 99)}@{rng.choice(['gmail.com', 'qq.com', '163.com', 'outlook.com', 'bücher.de'])}"
            rows.append(
                f"{rng.randint(1000, 9999)},{nm},{em},{phone(rng, 'CN' if lang == 'zh' else rng.choice(PHONE_REGIONS), checks)}"
            )
        head = "客户编号,姓名,邮箱,手机" if lang == "zh" else "customer_id,name,email,phone"
        out.append(
            dict(
                label="pii",
                family="customer_records",
                source="tool",
                lang=lang,
                hard=False,
                note="CSV export of customer records",
                text=head + "\n" + "\n".join(rows),
            )
        )
        agg = (
            "客户编号,城市,订单数\n"
            + "\n".join(
                f"{rng.randint(1000, 9999)},{c},{rng.randint(1, 40)}"
                for c in ["上海", "北京", "成都"]
            )
            if lang == "zh"
            else "customer_id,country,orders\n"
            + "\n".join(
                f"{rng.randint(1000, 9999)},{c},{rng.randint(1, 40)}" for c in ["DE", "FR", "US"]
            )
        )
        out.append(
            dict(
                label="benign",
                family="customer_aggregate_twin",
                source="tool",
                lang=lang,
                hard=False,
                note="customer export without personal fields",
                text=agg,
            )
        )
    return out
