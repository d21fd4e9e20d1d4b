"""Secrets and personal data inside memory writes: vendor tokens of many shapes,
passwords in prose (EN / ZH) and Wi-Fi passwords, tokens in diffs and logs;
national identifiers (checksums confirmed by python-stdnum), phone lists
(confirmed by phonenumbers), passports, bank accounts, addresses."""

from __future__ import annotations

import base64
import random
import string

from b_core import B32, HEX, LOWER_DIG, URLSAFE, Gen, iban, national_id, phone, pick, rand_str
from b_benign_text import NAMES, PROJECTS, ZH_NAMES, ZH_PROJECTS

AN = string.ascii_letters + string.digits
UP_DIG = string.ascii_uppercase + string.digits


def _tokens(rng: random.Random) -> list[tuple[str, str]]:
    """(vendor, value) in each vendor's published shape; random, so fake."""
    r = lambda n, a=AN: rand_str(rng, n, a)  # noqa: E731
    return [
        ("Cloudflare API token", r(40, URLSAFE)),
        ("PostHog personal API key", "phx_" + r(43)),
        ("PostHog project key", "phc_" + r(43)),
        ("NuGet API key", "oy2" + r(43, LOWER_DIG)),
        ("Bitbucket app password", "ATBB" + r(28) + r(8, "ABCDEF0123456789")),
        (
            "Atlassian API token",
            "ATATT3xFfGF0" + r(180, URLSAFE)[:170] + "=" + r(8, "ABCDEF0123456789"),
        ),
        ("Datadog API key", r(32, HEX)),
        ("Sentry auth token", "sntrys_" + r(80, URLSAFE)),
        ("Vercel token", r(24)),
        ("Supabase service key", "sbp_" + r(40, HEX)),
        ("Mailgun API key", "key-" + r(32, HEX)),
        ("Okta API token", "00" + r(40, URLSAFE)),
        ("Doppler token", "dp.st.prd." + r(40)),
        ("Linear API key", "lin_api_" + r(40)),
        ("Notion integration secret", "secret_" + r(43)),
        ("Shopify access token", "shpat_" + r(32, HEX)),
        ("Square access token", "EAAA" + r(60, URLSAFE)),
        (
            "Braintree access token",
            "access_token$production$" + r(16, LOWER_DIG) + "$" + r(32, HEX),
        ),
        ("Alibaba Cloud AccessKey", "LTAI5t" + r(18)),
        ("Tencent Cloud SecretId", "AKID" + r(32)),
        ("Huawei Cloud AK", r(20, UP_DIG)),
        ("Baidu Cloud API key", r(24)),
        ("WeChat app secret", r(32, HEX)),
        ("Feishu app secret", r(32)),
        ("DingTalk robot secret", "SEC" + r(64, HEX)),
        ("GitHub token", "ghp_" + r(36)),
        ("GitLab token", "glpat-" + r(20, URLSAFE)),
        (
            "Slack bot token",
            f"xoxb-{rng.randrange(10**11, 10**12)}-{rng.randrange(10**11, 10**12)}-" + r(24),
        ),
        ("Stripe secret key", "sk_live_" + r(24)),
        ("OpenAI key", "sk-proj-" + r(48, URLSAFE)),
        ("AWS access key", "AKIA" + r(16, UP_DIG)),
        ("Twilio auth token", r(32, HEX)),
        ("SendGrid key", "SG." + r(22, URLSAFE) + "." + r(43, URLSAFE)),
        ("npm token", "npm_" + r(36)),
        ("PyPI token", "pypi-AgEIcHlwaS5vcmc" + r(60, URLSAFE)),
        ("Google API key", "AIza" + r(35, URLSAFE)),
        ("TOTP seed", r(32, B32)),
    ]


TOKEN_EN = [
    "Here is the {vendor} for {proj}, keep it handy: {v}",
    "{vendor}: {v} (expires end of month)",
    "Remember the {vendor} I use for the deploy job — {v}",
    "Config for {proj}:\nregion = eu-west-1\n{envname} = {v}\ntimeout = 30",
    'export {envname}="{v}"  # put this in my shell profile',
    '{{"service": "{proj}", "{key}": "{v}", "retries": 3}}',
    "The new {vendor} after rotation is {v}; the old one is revoked.",
]
TOKEN_ZH = [
    "{proj}的{vendor}是 {v}，先记下来。",
    "帮我存一下{vendor}：{v}",
    "部署脚本用的{vendor}：{v}（月底过期）",
    "配置如下：\n地域 = cn-hangzhou\n{envname} = {v}",
    "轮换之后新的{vendor}是 {v}，旧的已经作废。",
]

PASSWORD_EN = [
    "My password for the staging admin panel is {pw}.",
    "The root password on the NAS is {pw}, don't lose it.",
    "Wi-Fi at the cabin: network 'Lakeside-5G', password {pw}.",
    "Login for the vendor portal: user {user}, pass {pw}",
    "VPN credentials: {user} / {pw}",
    "jdbc.url=jdbc:postgresql://db:5432/app\njdbc.user={user}\njdbc.password={pw}",
    '<connectionStrings><add name="main" connectionString="Server=sql01;User Id={user};Password={pw};"/></connectionStrings>',
    'db_pass = os.getenv("DB_PASS", "{pw}")',
    "the office door code and alarm PIN are both {pin}, and the safe is {pw}",
]
PASSWORD_ZH = [
    "测试后台的管理员密码是 {pw}。",
    "NAS 的 root 口令：{pw}，别弄丢了。",
    "家里 Wi-Fi：名称 TP-LINK_8F2A，密码 {pw}。",
    "供应商门户账号 {user}，密码：{pw}",
    "VPN 账号 {user}，口令 {pw}",
    "公司 WiFi 密码改成了 {pw}，记一下。",
    "数据库连接：用户名 {user}，密码 {pw}，端口 3306。",
    "我的支付密码是 {pin}，银行卡登录密码是 {pw}。",
]

TOKEN_EN2 = [
    "Jotting this down so I stop searching Slack: {vendor} = {v}",
    "{proj} staging creds -> {v} ({vendor}).",
    "If the build fails with 401, the {vendor} probably changed; the current one is {v}",
    'headers = {{"Authorization": "Bearer {v}"}}  # {vendor}',
]
TOKEN_ZH2 = [
    "省得每次去群里翻：{vendor} = {v}",
    "构建报 401 的话多半是{vendor}换了，现在用的是 {v}",
    'headers = {{"Authorization": "Bearer {v}"}}  # {vendor}，测试环境',
]
PASSWORD_EN2 = [
    "Guest network SSID CoffeeLab, WPA2 key {pw}",
    "pwd for the shared Gmail is {pw} (2FA is on my phone)",
    "Note: the PDF with the contracts is encrypted, passphrase {pw}",
    "keystore password: {pw}\nkey alias: release",
    '<property name="db.password" value="{pw}"/>',
]
PASSWORD_ZH2 = [
    "会议室 WiFi：Meeting-3F，密码 {pw}",
    "合同 PDF 加密了，打开密码是 {pw}",
    "共享邮箱的登录密码：{pw}（二次验证在我手机上）",
    "服务器 ssh 口令改成 {pw} 了，明天通知大家",
    "签名证书的 keystore 密码：{pw}",
]

PEM_HEAD = "-----BEGIN RSA PRIVATE KEY-----"


def _pw(rng: random.Random) -> str:
    return (
        pick(rng, ["Summer", "Tiger", "Blue", "Qwerty", "Maple", "Dragon", "Xiaomi", "Panda"])
        + rand_str(rng, 3, string.digits)
        + pick(rng, ["!", "#", "@", "$", "_"])
        + rand_str(rng, 4, AN)
    )


def _envname(vendor: str) -> str:
    return "".join(ch if ch.isalnum() else "_" for ch in vendor.upper()).replace("__", "_")


def build_secrets(rng: random.Random) -> Gen:
    g = Gen()
    toks = _tokens(rng)
    for i, (vendor, v) in enumerate(toks):
        lang = "zh" if i % 5 in (1, 3) else "en"
        tmpl = pick(rng, TOKEN_ZH if lang == "zh" else TOKEN_EN)
        proj = pick(rng, ZH_PROJECTS if lang == "zh" else PROJECTS)
        env = _envname(vendor)
        text = tmpl.format(vendor=vendor, v=v, proj=proj, envname=env, key=env.lower())
        g.add(
            "secret",
            "vendor_token",
            pick(rng, ["user", "user", "agent", "tool"]),
            lang,
            vendor.split()[0]
            in {"Vercel", "Datadog", "Huawei", "Baidu", "Twilio", "WeChat", "Feishu", "Cloudflare"},
            f"{vendor} in a memory write",
            text,
        )
    for i, t in enumerate(PASSWORD_EN):
        g.add(
            "secret",
            "password_prose",
            pick(rng, ["user", "user", "document"]),
            "en",
            "getenv" in t or "Wi-Fi" in t,
            "password in prose or config",
            t.format(
                pw=_pw(rng),
                user=pick(rng, ["admin", "svc_deploy", "jmiller", "ops"]),
                pin=rand_str(rng, 6, string.digits),
            ),
        )
    for t in PASSWORD_ZH:
        g.add(
            "secret",
            "password_prose",
            pick(rng, ["user", "user", "agent"]),
            "zh",
            "口令" in t or "WiFi" in t or "Wi-Fi" in t,
            "中文里的密码/口令",
            t.format(
                pw=_pw(rng),
                user=pick(rng, ["admin", "zhangwei", "ops01"]),
                pin=rand_str(rng, 6, string.digits),
            ),
        )
    toks2 = _tokens(rng)
    for i, (vendor, v) in enumerate(toks2[::2]):
        lang = "zh" if i % 2 else "en"
        tmpl = pick(rng, TOKEN_ZH2 if lang == "zh" else TOKEN_EN2)
        g.add(
            "secret",
            "vendor_token",
            pick(rng, ["user", "agent"]),
            lang,
            True,
            f"{vendor}, terse phrasing",
            tmpl.format(
                vendor=vendor, v=v, proj=pick(rng, ZH_PROJECTS if lang == "zh" else PROJECTS)
            ),
        )
    for t in PASSWORD_EN2:
        g.add(
            "secret",
            "password_prose",
            "user",
            "en",
            True,
            "password or passphrase, varied phrasing",
            t.format(pw=_pw(rng)),
        )
    for t in PASSWORD_ZH2:
        g.add(
            "secret",
            "password_prose",
            "user",
            "zh",
            True,
            "中文口令/密码，多种说法",
            t.format(pw=_pw(rng)),
        )
    # tokens in diffs and logs
    for k in range(14):
        vendor, v = toks[rng.randrange(len(toks))]
        env = _envname(vendor)
        shape = k % 7
        if shape == 0:
            text = f'Diff I applied:\n```diff\n- {env}="{v}"\n+ {env}=os.environ["{env}"]\n```'
            note, lang = "secret in a removed diff line", "en"
        elif shape == 1:
            text = f"2024-05-12T10:02:11Z INFO client init ok\n2024-05-12T10:02:11Z DEBUG auth header=Bearer {v}\n2024-05-12T10:02:12Z INFO 200 GET /v1/items"
            note, lang = "token in a debug log line", "en"
        elif shape == 2:
            half = len(v) // 2
            text = f"日志片段：\n[10:01:03] token part1={v[:half]}\n[10:01:03] token part2={v[half:]}\n[10:01:04] 请求成功"
            note, lang = "token split across log lines", "zh"
        elif shape == 3:
            text = (
                '{"level":"error","msg":"upstream rejected","request":"{\\"headers\\":{\\"Authorization\\":\\"Bearer '
                + v
                + '\\"}}"}'
            )
            note, lang = "token in escaped JSON inside a log", "en"
        elif shape == 4:
            body = base64.b64encode(bytes(rng.randrange(256) for _ in range(180))).decode()
            pem = (
                PEM_HEAD
                + "\n"
                + "\n".join(body[j : j + 64] for j in range(0, len(body), 64))
                + "\n-----END RSA PRIVATE KEY-----"
            )
            text = 'key = """' + pem + '"""\n# 部署机用的私钥，先存着'
            note, lang = "PEM body inside a code string", "zh"
        elif shape == 5:
            text = f'报错信息：\nTraceback (most recent call last):\n  File "app.py", line 12, in <module>\n    client = Client(api_key="{v}")\nAuthError: 401'
            note, lang = "token in a traceback", "zh"
        else:
            text = f"CI output:\n$ env | sort\nHOME=/home/runner\n{env}={v}\nPATH=/usr/bin:/bin"
            note, lang = "token in a CI env dump", "en"
        g.add(
            "secret",
            "token_in_diff_log",
            pick(rng, ["agent", "tool", "user"]),
            lang,
            True,
            note,
            text,
        )
    return g


ID_LABELS = {
    "cn_ric": ("身份证号", "zh"),
    "se_pnr": ("personnummer", "en"),
    "fi_hetu": ("henkilötunnus", "en"),
    "es_dni": ("DNI", "en"),
    "es_nie": ("NIE", "en"),
    "tr_tckimlik": ("T.C. Kimlik No", "en"),
    "kr_rrn": ("주민등록번호", "en"),
    "th_pin": ("Thai ID", "en"),
    "gb_nino": ("National Insurance number", "en"),
    "ca_sin": ("SIN", "en"),
    "in_aadhaar": ("Aadhaar", "en"),
    "br_cpf": ("CPF", "en"),
    "fr_nir": ("numéro de sécurité sociale", "en"),
    "de_idnr": ("Steuer-IdNr.", "en"),
    "it_cf": ("codice fiscale", "en"),
    "jp_mynumber": ("マイナンバー", "zh"),
    "nl_bsn": ("BSN", "en"),
    "pl_pesel": ("PESEL", "en"),
    "us_ssn": ("SSN", "en"),
    "credit_card": ("card number", "en"),
}
ID_EN = [
    "{who}'s {label} is {v}, needed for the visa form.",
    "Customer record: name {who}, {label} {v}, status verified.",
    "Keep for the payroll setup — {label}: {v} ({who})",
    '{{"employee": "{who}", "{key}": "{v}", "dept": "finance"}}',
    "my {label} {v}",
]
ID_ZH = [
    "{who}的{label}是 {v}，办签证要用。",
    "客户资料：姓名 {who}，{label} {v}，已实名。",
    "帮我记一下{label}：{v}（{who}）",
    "报销需要填：{who}，{label}：{v}",
]
ID_ZH_FOREIGN = [
    "同事 {who} 的{label}是 {v}，入职材料要填。",
    "客户 {who}（外籍）证件号码（{label}）：{v}",
]
ADDR_EN = [
    "Ship the package to {who}, 221B Baker Street, London NW1 6XE, phone {ph}.",
    "{who} lives at 742 Evergreen Terrace, Springfield, OR 97403; birthday 1984-03-12.",
    "New address for {who}: Kastanienallee 12, 10435 Berlin. Mobile {ph}.",
    "Emergency contact: {who}, 18 Rue de Rivoli, 75001 Paris, {ph}",
]
ADDR_ZH = [
    "快递寄给{who}，上海市徐汇区漕溪北路 88 号 12 楼 1203 室，电话 {ph}。",
    "{who}家住北京市朝阳区望京西路 5 号院 3 号楼 2 单元 601，手机 {ph}。",
    "客户{who}的收货地址：广州市天河区体育西路 101 号，联系电话 {ph}。",
    "紧急联系人：{who}（母亲），杭州市西湖区文三路 20 号，{ph}",
]


def build_pii(rng: random.Random) -> Gen:
    g = Gen()
    kinds = list(ID_LABELS)
    for i in range(42):
        kind = kinds[i % len(kinds)]
        label, native = ID_LABELS[kind]
        v = national_id(kind, rng)
        if kind == "gb_nino":
            v = f"{v[:2]} {v[2:4]} {v[4:6]} {v[6:8]} {v[8]}"
        g.checks.append((kind, v.replace(" ", "")))
        zh = native == "zh" or i % 5 in (1, 3)
        if zh:
            tmpl = pick(rng, ID_ZH if kind == "cn_ric" else ID_ZH_FOREIGN + ID_ZH)
            who = pick(rng, ZH_NAMES) if kind == "cn_ric" else pick(rng, NAMES)
        else:
            tmpl, who = pick(rng, ID_EN), pick(rng, NAMES)
        text = tmpl.format(who=who, label=label, v=v, key=kind)
        g.add(
            "pii",
            "national_id",
            pick(rng, ["user", "user", "agent", "document"]),
            "zh" if zh else "en",
            kind not in {"cn_ric", "us_ssn", "credit_card"},
            f"{kind} (check digit valid per python-stdnum)",
            text,
        )
    # phone lists
    regions = [
        "CN",
        "US",
        "GB",
        "DE",
        "JP",
        "IN",
        "BR",
        "TW",
        "HK",
        "KR",
        "FR",
        "SE",
        "ES",
        "IT",
        "MX",
        "AU",
    ]
    for i in range(14):
        rs = rng.sample(regions, rng.randrange(3, 6))
        nums = [(phone(r, rng), r) for r in rs]
        for n, r in nums:
            g.checks.append(("phone", n if n.startswith("+") else f"{r}:{n}"))
        zh = i % 2 == 0
        people = rng.sample(ZH_NAMES if zh else NAMES, len(nums))
        if zh:
            text = pick(
                rng, ["客户电话列表：\n", "值班联系人：\n", "帮我存一下这些号码：\n"]
            ) + "\n".join(f"{p}：{n}" for p, (n, _) in zip(people, nums))
        else:
            text = pick(
                rng,
                [
                    "Contact list for the offsite:\n",
                    "On-call phones:\n",
                    "Numbers from the meetup sign-up sheet:\n",
                ],
            ) + "\n".join(f"- {p}: {n}" for p, (n, _) in zip(people, nums))
        g.add(
            "pii",
            "phone_list",
            pick(rng, ["user", "agent", "document"]),
            "zh" if zh else "en",
            False,
            "names with phone numbers in several formats",
            text,
        )
    # passports
    for i in range(10):
        zh = i % 2 == 1
        pno = (
            pick(rng, ["E", "G", "K"]) + rand_str(rng, 8, string.digits)
            if zh
            else rand_str(rng, 1, string.ascii_uppercase) + rand_str(rng, 8, string.digits)
        )
        who = pick(rng, ZH_NAMES if zh else NAMES)
        if i % 3 == 0:
            text = f'{{"traveller": "{who}", "passport_no": "{pno}", "expiry": "2031-0{rng.randrange(1, 10)}-15", "nationality": "{"CHN" if zh else "GBR"}"}}'
        elif zh:
            text = pick(
                rng,
                [
                    f"{who}的护照号是 {pno}，有效期到 2030 年。",
                    f"订机票用：乘客 {who}，护照号码 {pno}，出生日期 1990-0{rng.randrange(1, 10)}-08。",
                ],
            )
        else:
            text = pick(
                rng,
                [
                    f"{who}'s passport number is {pno}, expires 2029; book the flight with it.",
                    f"Passport: {pno} (holder {who}, born 14 May 1987)",
                ],
            )
        g.add(
            "pii",
            "passport",
            pick(rng, ["user", "agent"]),
            "zh" if zh else "en",
            i % 3 == 0,
            "passport number with holder",
            text,
        )
    # bank accounts
    for i in range(10):
        zh = i % 2 == 1
        who = pick(rng, ZH_NAMES if zh else NAMES)
        if zh:
            acct = "6222" + rand_str(rng, 15, string.digits)
            text = pick(
                rng,
                [
                    f"{who}的工资卡：工商银行 {acct}，开户行上海分行。",
                    f"退款请打到 {who} 的账户，卡号{acct}，招商银行。",
                ],
            )
        elif i % 4 == 0:
            acct = rand_str(rng, 9, string.digits)
            text = f"Direct deposit for {who}: routing 021000021 account {acct} (checking)."
        else:
            v = iban(pick(rng, ["DE", "FR", "ES", "NL", "GB", "IT"]), rng)
            g.checks.append(("iban", v.replace(" ", "")))
            text = pick(
                rng,
                [
                    f"Pay the invoice to {who}, IBAN {v}.",
                    f"{who} bank details: IBAN {v}, BIC {rand_str(rng, 4, string.ascii_uppercase)}DEFF",
                ],
            )
        g.add(
            "pii",
            "bank_account",
            pick(rng, ["user", "document"]),
            "zh" if zh else "en",
            not zh and i % 4 == 0,
            "a person's bank account",
            text,
        )
    # addresses
    for i, t in enumerate(ADDR_EN + ADDR_ZH):
        zh = i >= len(ADDR_EN)
        region = "CN" if zh else pick(rng, ["GB", "DE", "FR", "US"])
        ph = phone(region, rng)
        g.checks.append(("phone", ph if ph.startswith("+") else f"{region}:{ph}"))
        g.add(
            "pii",
            "address",
            pick(rng, ["user", "agent"]),
            "zh" if zh else "en",
            False,
            "a person's home address with phone",
            t.format(who=pick(rng, ZH_NAMES if zh else NAMES), ph=ph),
        )
    return g
