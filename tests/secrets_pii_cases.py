"""Cases for tests/test_secrets_pii_generalize.py: credentials and personal data in
phrasings and carriers the rule examples do not spell out (EN and ZH), and benign
look-alikes. Every value is generated here from a seeded RNG (check digits computed
with python-stdnum, phones from libphonenumber's example numbers): never anyone's
data, never committed as a literal.

Long lines are left long: each case is one line of data, easier to read whole.

Each case is (label, text, value): `value` is what must be redacted (None for a
benign case, which must be approved with no secret or personal-data finding)."""

# ruff: noqa: E501
from __future__ import annotations

import random
import string
from collections.abc import Callable

import phonenumbers
from stdnum import luhn
from stdnum.br import cpf
from stdnum.ca import sin
from stdnum.de import idnr
from stdnum.es import dni, nie
from stdnum.fi import hetu
from stdnum.fr import nir
from stdnum.in_ import aadhaar, pan
from stdnum.it import codicefiscale
from stdnum.jp import in_ as mynumber
from stdnum.kr import rrn
from stdnum.th import pin
from stdnum.tr import tckimlik
from stdnum.us import itin, ssn

Case = tuple[str, str, str | None]

ALNUM = string.ascii_letters + string.digits
LOWER_DIGIT = string.ascii_lowercase + string.digits
UPPER_DIGIT = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


class Gen:
    """Seeded values: random bodies with the vendor's shape, IDs with valid checks."""

    def __init__(self, seed: str) -> None:
        self.r = random.Random(seed)

    def s(self, n: int, alphabet: str = ALNUM) -> str:
        while True:
            out = "".join(self.r.choice(alphabet) for _ in range(n))
            # a generated token has a digit and both cases where its alphabet has them
            if (
                alphabet == ALNUM
                and n >= 8
                and not (
                    any(c.isdigit() for c in out)
                    and any(c.isupper() for c in out)
                    and any(c.islower() for c in out)
                )
            ):
                continue
            if alphabet in (HEX, LOWER_DIGIT) and n >= 8 and not any(c.isdigit() for c in out):
                continue
            return out

    def digits(self, n: int, first: str = "123456789") -> str:
        return self.r.choice(first) + "".join(self.r.choice(string.digits) for _ in range(n - 1))

    def until(self, make: Callable[[], str], valid: Callable[[str], bool]) -> str:
        for _ in range(100_000):
            value = make()
            if valid(value):
                return value
        raise AssertionError("no valid value generated")

    def password(self) -> str:
        word = self.r.choice(["Tiger", "maple", "Sunny", "harbor", "Qing", "river", "Blue"])
        return f"{word}{self.digits(3, '123456789')}{self.r.choice('!@#$%&*?')}{self.s(3, ALNUM)}"

    def uuid(self) -> str:
        h = self.s(32, HEX)
        return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:]}"

    # ------------------------------------------------------------ identifiers

    def date6(self) -> str:
        return (
            f"{self.r.randrange(50, 99)}{self.r.randrange(1, 13):02d}{self.r.randrange(1, 28):02d}"
        )

    def se(self) -> str:
        body = self.date6() + self.digits(3, string.digits)
        return f"{body[:6]}-{body[6:]}{luhn.calc_check_digit(body)}"

    def fi(self) -> str:
        def make() -> str:
            d = f"{self.r.randrange(1, 28):02d}{self.r.randrange(1, 13):02d}{self.r.randrange(50, 99)}"
            return f"{d}-{self.digits(3, string.digits)}{self.r.choice('0123456789ABCDEFHJKLMNPRSTUVWXY')}"

        return self.until(make, hetu.is_valid)

    def es_dni(self) -> str:
        body = self.digits(8)
        return body + dni.calc_check_digit(body)

    def es_nie(self) -> str:
        return self.until(
            lambda: (
                self.r.choice("XYZ")
                + self.digits(7, string.digits)
                + self.r.choice(string.ascii_uppercase)
            ),
            nie.is_valid,
        )

    def tr(self) -> str:
        body = self.digits(9)
        return body + tckimlik.calc_check_digits(body)

    def kr(self) -> str:
        body = self.date6() + self.r.choice("1234") + self.digits(5, string.digits)
        value = body + rrn.calc_check_digit(body)
        return f"{value[:6]}-{value[6:]}" if rrn.is_valid(value) else self.kr()

    def th(self) -> str:
        body = self.digits(12)
        return body + pin.calc_check_digit(body)

    def nino(self) -> str:
        first = self.r.choice("ABCEGHJKLMNOPRSTWXYZ")
        second = self.r.choice("ABCEGHJKLMNPRSTWXYZ")
        if first + second in ("BG", "GB", "KN", "NK", "NT", "TN", "ZZ"):
            return self.nino()
        d = self.digits(6, string.digits)
        return f"{first}{second} {d[:2]} {d[2:4]} {d[4:]} {self.r.choice('ABCD')}"

    def ca_sin(self) -> str:
        return self.until(lambda: self.digits(9, "1234567"), sin.is_valid)

    def aadhaar(self) -> str:
        return self.until(lambda: self.digits(12, "23456789"), aadhaar.is_valid)

    def pan(self) -> str:
        return self.until(
            lambda: (
                "".join(self.r.choice(string.ascii_uppercase) for _ in range(3))
                + "P"
                + self.r.choice(string.ascii_uppercase)
                + self.digits(4, string.digits)
                + self.r.choice(string.ascii_uppercase)
            ),
            pan.is_valid,
        )

    def cpf(self) -> str:
        v = self.until(lambda: self.digits(11), cpf.is_valid)
        return f"{v[:3]}.{v[3:6]}.{v[6:9]}-{v[9:]}"

    def nir(self) -> str:
        body = (
            self.r.choice("12")
            + f"{self.r.randrange(50, 99)}{self.r.randrange(1, 13):02d}"
            + f"{self.r.randrange(1, 95):02d}"
            + self.digits(6, string.digits)
        )
        value = body + nir.calc_check_digits(body)
        return value if nir.is_valid(value) else self.nir()

    def steuer_id(self) -> str:
        return self.until(lambda: self.digits(11), idnr.is_valid)

    def codice_fiscale(self) -> str:
        letters = "".join(self.r.choice("BCDFGHLMNPRSTVZ") for _ in range(6))
        body = f"{letters}{self.r.randrange(50, 99)}{self.r.choice('ABCDEHLMPRST')}"
        body += f"{self.r.randrange(1, 29):02d}{self.r.choice('FHL')}{self.r.randrange(100, 999)}"
        return body + codicefiscale.calc_check_digit(body)

    def my_number(self) -> str:
        body = self.digits(11)
        return body + mynumber.calc_check_digit(body)

    def hkid(self) -> str:
        letter = self.r.choice("ACDEGHKMPRVYZ")
        digits = self.digits(6, string.digits)
        total = (
            36 * 9
            + (ord(letter) - 55) * 8
            + sum(int(d) * w for d, w in zip(digits, range(7, 1, -1), strict=True))
        )
        check = (11 - total % 11) % 11
        return f"{letter}{digits}({'A' if check == 10 else check})"

    def twid(self) -> str:
        table = dict(zip("ABCDEFGHJKLMNPQRSTUVXYWZIO", range(10, 36), strict=True))
        letter = self.r.choice("ABCDEFGHJKLMNPQRSTUVXYWZIO")
        body = self.r.choice("12") + self.digits(7, string.digits)
        code = table[letter]
        total = (
            code // 10
            + (code % 10) * 9
            + sum(int(d) * w for d, w in zip(body, range(8, 0, -1), strict=True))
        )
        return f"{letter}{body}{(10 - total % 10) % 10}"

    def ssn(self) -> str:
        return self.until(lambda: self.digits(9, "1234578"), ssn.is_valid)

    def itin(self) -> str:
        return self.until(
            lambda: (
                "9"
                + self.digits(2, string.digits)
                + self.r.choice(["70", "78", "81", "88", "90", "94", "99"])
                + self.digits(4, string.digits)
            ),
            itin.is_valid,
        )

    def phone(
        self, region: str, kind: int = phonenumbers.PhoneNumberType.MOBILE
    ) -> phonenumbers.PhoneNumber:
        number = phonenumbers.example_number_for_type(region, kind)
        assert number is not None, region
        # vary the last digits while keeping the number valid
        for _ in range(200):
            national = str(number.national_number)
            tail = self.digits(3, string.digits)
            candidate = phonenumbers.PhoneNumber(
                country_code=number.country_code,
                national_number=int(national[:-3] + tail),
                italian_leading_zero=number.italian_leading_zero,
            )
            if phonenumbers.is_valid_number(candidate):
                return candidate
        return number


def fmt(number: phonenumbers.PhoneNumber, style: str) -> str:
    f = phonenumbers.PhoneNumberFormat
    if style == "e164":
        return phonenumbers.format_number(number, f.E164)
    if style == "intl":
        return phonenumbers.format_number(number, f.INTERNATIONAL)
    if style == "national":
        return phonenumbers.format_number(number, f.NATIONAL)
    if style == "rfc3966":
        return phonenumbers.format_number(number, f.RFC3966)
    if style == "00":
        return "00" + phonenumbers.format_number(number, f.E164)[1:]
    if style == "dots":
        return (
            phonenumbers.format_number(number, f.INTERNATIONAL).replace(" ", ".").replace("-", ".")
        )
    raise ValueError(style)


# ---------------------------------------------------------------- vendor tokens


def vendor_tokens(g: Gen) -> list[tuple[str, str, str]]:
    """(vendor, environment-variable name, token) in the vendor's issued shape."""
    return [
        ("cloudflare", "CLOUDFLARE_API_TOKEN", g.s(40, B64URL)),
        ("cloudflare", "CF_API_KEY", g.s(37, HEX)),
        ("posthog", "POSTHOG_PERSONAL_API_KEY", "phx_" + g.s(43)),
        ("nuget", "NUGET_API_KEY", "oy2" + g.s(43, LOWER_DIGIT)),
        ("bitbucket", "BITBUCKET_APP_PASSWORD", "ATBB" + g.s(32) + g.s(8, HEX).upper()),
        (
            "atlassian",
            "JIRA_API_TOKEN",
            "ATATT3xFfGF0" + g.s(170, B64URL) + "=" + g.s(8, HEX).upper(),
        ),
        ("datadog", "DD_API_KEY", g.s(32, HEX)),
        ("datadog", "DATADOG_APP_KEY", g.s(40, HEX)),
        (
            "sentry",
            "SENTRY_AUTH_TOKEN",
            "sntrys_eyJpYXQiOjE3" + g.s(120, B64URL) + "_" + g.s(43, B64URL),
        ),
        ("sentry", "SENTRY_TOKEN", "sntryu_" + g.s(64, HEX)),
        ("vercel", "VERCEL_TOKEN", "vcp_" + g.s(56)),
        ("supabase", "SUPABASE_ACCESS_TOKEN", "sbp_" + g.s(40, HEX)),
        ("supabase", "SUPABASE_SECRET_KEY", "sb_secret_" + g.s(32, B64URL)),
        ("mailgun", "MAILGUN_API_KEY", "key-" + g.s(32, HEX)),
        ("mailgun", "MAILGUN_API_KEY", g.s(32, HEX) + "-" + g.s(8, HEX) + "-" + g.s(8, HEX)),
        ("okta", "OKTA_API_TOKEN", "00" + g.s(40, B64URL)),
        ("doppler", "DOPPLER_TOKEN", "dp.st.prd." + g.s(43)),
        ("linear", "LINEAR_API_KEY", "lin_api_" + g.s(40)),
        ("notion", "NOTION_TOKEN", "ntn_" + g.digits(11) + g.s(35)),
        ("notion", "NOTION_API_KEY", "secret_" + g.s(43)),
        ("shopify", "SHOPIFY_ACCESS_TOKEN", "shpat_" + g.s(32, HEX)),
        ("square", "SQUARE_ACCESS_TOKEN", "EAAA" + g.s(60, B64URL)),
        (
            "paypal",
            "BRAINTREE_ACCESS_TOKEN",
            f"access_token$production${g.s(16, LOWER_DIGIT)}${g.s(32, HEX)}",
        ),
        ("paypal", "PAYPAL_CLIENT_SECRET", "E" + g.s(79, B64URL)),
        ("alibaba", "ALIBABA_CLOUD_ACCESS_KEY_ID", "LTAI5t" + g.s(18)),
        ("alibaba", "ALIBABA_CLOUD_ACCESS_KEY_SECRET", g.s(30)),
        ("tencent", "TENCENTCLOUD_SECRET_ID", "AKID" + g.s(32)),
        ("tencent", "TENCENTCLOUD_SECRET_KEY", g.s(32)),
        ("huawei", "HUAWEICLOUD_SDK_SK", g.s(40)),
        ("baidu", "QIANFAN_ACCESS_KEY", "ALTAK" + g.s(21)),
        ("baidu", "BAIDU_SECRET_KEY", g.s(32, LOWER_DIGIT)),
        ("wechat", "WECHAT_APP_SECRET", g.s(32, HEX)),
        ("wechat", "WX_PAY_API_V3_KEY", g.s(32)),
        ("feishu", "FEISHU_APP_SECRET", g.s(32)),
        ("dingtalk", "DINGTALK_ROBOT_SECRET", "SEC" + g.s(64, HEX)),
        ("dingtalk", "DINGTALK_APP_SECRET", g.s(64, B64URL)),
    ]


def _pascal(env: str) -> str:
    return "".join(w.capitalize() for w in env.lower().split("_"))


def _camel(env: str) -> str:
    p = _pascal(env)
    return p[0].lower() + p[1:]


def _dotted(env: str) -> str:
    return env.lower().replace("_", ".")


def carriers(name: str, value: str) -> list[tuple[str, str]]:
    """One (carrier, text) per place a secret is written down."""
    camel, dotted = _camel(name), _dotted(name)
    return [
        ("dotenv", f"{name}={value}"),
        ("export", f'export {name}="{value}"'),
        ("json", f'{{"{camel}": "{value}", "region": "eu-west-1"}}'),
        (
            "escaped-json-log",
            f'{{"ts":"2025-03-02T10:11:12Z","level":"debug","msg":"loaded config","payload":"{{\\"{camel}\\":\\"{value}\\",\\"retries\\":3}}"}}',
        ),
        (
            "xml",
            f'<configuration>\n  <appSettings>\n    <add key="{_pascal(name)}" value="{value}" />\n  </appSettings>\n</configuration>',
        ),
        ("xml-element", f"<settings>\n  <{camel}>{value}</{camel}>\n</settings>"),
        ("properties", f"# service config\n{dotted}={value}\nserver.port=8080"),
        ("yaml", f"service:\n  auth:\n    {name.lower()}: {value}\n  timeout: 30"),
        (
            "k8s-spec",
            f'apiVersion: v1\nkind: Secret\nmetadata:\n  name: app\nstringData:\n  {name}: "{value}"',
        ),
        ("python-getenv", f'TOKEN = os.getenv("{name}", "{value}")'),
        ("go-getenv", f'key := envOr("{name}", "{value}")'),
        ("node-default", f'const key = process.env.{name} || "{value}";'),
        ("shell-default", f'curl -H "X-Key: ${{{name}:-{value}}}" https://api.internal.test/v1'),
        (
            "diff-removed",
            f"diff --git a/.env b/.env\n--- a/.env\n+++ b/.env\n@@ -1,2 +1,2 @@\n-{name}={value}\n+{name}=${{{name}}}",
        ),
        ("prose-en", f"FYI the {name} for prod is {value} (rotate after the demo)"),
        ("prose-zh", f"记一下：{name} 是 {value}，别发群里"),
    ]


def vendor_cases(g: Gen) -> list[Case]:
    out: list[Case] = []
    for vendor, name, token in vendor_tokens(g):
        for carrier, text in carriers(name, token):
            out.append((f"{vendor}:{name}:{carrier}", text, token))
        # the bare token said to be the vendor's, no assignment
        out.append(
            (f"{vendor}:{name}:bare-en", f"{vendor} token for the staging account: {token}", token)
        )
        out.append((f"{vendor}:{name}:bare-zh", f"{vendor} 的密钥 {token} 先存一下", token))
    return out


# ---------------------------------------------------------------- PEM, split, removed lines


def structural_secret_cases(g: Gen) -> list[Case]:
    lines = [g.s(64, B64) for _ in range(6)]
    body = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASC" + lines[0][:32]
    pem_lines = [body, *lines[1:]]
    pem = "\n".join(pem_lines)
    esc = "\\n".join(pem_lines)
    key = pem_lines[2]
    gh = "ghp_" + g.s(36)
    sk = "sk_live_" + g.s(24)
    xoxb = f"xoxb-{g.digits(11)}-{g.digits(13)}-{g.s(24)}"
    return [
        (
            "pem:js-template",
            f"const privateKey = `-----BEGIN PRIVATE KEY-----\n{pem}\n-----END PRIVATE KEY-----`;",
            key,
        ),
        (
            "pem:py-triple",
            f'SIGNING_KEY = """-----BEGIN RSA PRIVATE KEY-----\n{pem}\n-----END RSA PRIVATE KEY-----\n"""',
            key,
        ),
        (
            "pem:go-raw",
            f"var key = []byte(`-----BEGIN EC PRIVATE KEY-----\n{pem}\n-----END EC PRIVATE KEY-----`)",
            key,
        ),
        (
            "pem:java-concat",
            'String key = "-----BEGIN PRIVATE KEY-----\\n" +\n'
            + "\n".join(f'    "{ln}\\n" +' for ln in pem_lines)
            + '\n    "-----END PRIVATE KEY-----";',
            key,
        ),
        (
            "pem:json-escaped",
            f'{{"type": "service_account", "private_key": "-----BEGIN PRIVATE KEY-----\\n{esc}\\n-----END PRIVATE KEY-----\\n", "client_email": "svc@proj.iam.gserviceaccount.com"}}',
            key,
        ),
        (
            "pem:log-double-escaped",
            f'{{"msg": "{{\\"key\\": \\"-----BEGIN PRIVATE KEY-----\\\\n{esc.replace(chr(92) + "n", chr(92) * 2 + "n")}\\\\n-----END PRIVATE KEY-----\\"}}"}}',
            key,
        ),
        (
            "pem:yaml-block",
            "tls:\n  key: |\n    -----BEGIN PRIVATE KEY-----\n"
            + "\n".join(f"    {ln}" for ln in pem_lines)
            + "\n    -----END PRIVATE KEY-----",
            key,
        ),
        (
            "pem:openssh-in-string",
            "const k = '-----BEGIN OPENSSH PRIVATE KEY-----\\n' +\n  'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\\n' +\n"
            + "\n".join(f"  '{ln}\\n' +" for ln in pem_lines[1:4])
            + "\n  '-----END OPENSSH PRIVATE KEY-----';",
            pem_lines[2],
        ),
        (
            "split:log-wrapped",
            f"2025-03-02 10:11:12 INFO  auth: using token {gh[:20]}\n2025-03-02 10:11:12 INFO  auth: (cont.) {gh[20:]}",
            gh[20:],
        ),
        (
            "split:two-lines-zh",
            f"token 太长分两行发：\n第一段 {gh[:18]}\n第二段 {gh[18:]}",
            gh[18:],
        ),
        (
            "split:concat-js",
            f"const STRIPE_SECRET = '{sk[:12]}' + '{sk[12:24]}' + '{sk[24:]}';",
            sk[12:24],
        ),
        (
            "split:python-join",
            f"SLACK_BOT_TOKEN = ''.join(['{xoxb[:15]}', '{xoxb[15:35]}', '{xoxb[35:]}'])",
            xoxb[15:35],
        ),
        (
            "diff:removed-line-only",
            f'@@ -3,4 +3,3 @@ def connect():\n-    api_key = "{sk}"\n+    api_key = os.environ["STRIPE_KEY"]\n     return Client(api_key)',
            sk,
        ),
        (
            "diff:removed-json",
            f'-  "githubToken": "{gh}",\n+  "githubToken": "${{GITHUB_TOKEN}}",',
            gh,
        ),
        (
            "diff:commit-message",
            f"commit 3f1e2a9\n    remove leaked key\n\n-SLACK_BOT_TOKEN={xoxb}\n+SLACK_BOT_TOKEN=",
            xoxb,
        ),
    ]


# ---------------------------------------------------------------- passwords in prose and config


def password_cases(g: Gen) -> list[Case]:
    out: list[Case] = []
    en = [
        "The root password for the NAS is {v}",
        "wifi: HomeNet-5G / password {v}",
        "Guest Wi-Fi password: {v}",
        "my bank login password is {v}, don't forget",
        "Remember: the VPN passphrase is {v}",
        "Login for the router -> admin / {v}",
        "The new password for jenkins is now {v} (changed today)",
        "pwd={v}",
        "credentials: user=deploy pass={v}",
        "I set the database password to {v}",
        "Password changed to {v} as requested",
    ]
    zh = [
        "密码是{v}",
        "家里 WiFi 密码：{v}",
        "Wi-Fi 名称 TP-LINK_5G，密码 {v}",
        "口令：{v}",
        "服务器 root 口令 {v}，别外传",
        "邮箱登录密码改成了 {v}",
        "管理员账号 admin，密码为 {v}",
        "数据库密码设置为{v}，下周轮换",
        "帮我记住：网银密码 {v}",
        "跳板机的密码：{v}（临时）",
        "新密码 → {v}",
        "路由器后台 admin/{v}",
        "VPN 账号是 zhangwei，密码是 {v}。",
        "无线网密码:{v}",
        "测试环境 MySQL 的密码是「{v}」",
    ]
    for i, t in enumerate(en):
        v = g.password()
        out.append((f"pw-en:{i}", t.format(v=v), v))
    for i, t in enumerate(zh):
        v = g.password()
        out.append((f"pw-zh:{i}", t.format(v=v), v))
    config = [
        ("xml-attr", '<dataSource url="jdbc:mysql://db:3306/app" username="app" password="{v}"/>'),
        ("xml-property", '<property name="hibernate.connection.password" value="{v}"/>'),
        (
            "xml-element",
            "<smtp>\n  <host>mail.internal</host>\n  <password>{v}</password>\n</smtp>",
        ),
        ("xml-cdata", "<credentials><pass><![CDATA[{v}]]></pass></credentials>"),
        ("properties", "spring.datasource.username=app\nspring.datasource.password={v}"),
        ("properties-colon", "mail.smtp.password: {v}"),
        ("ini", "[database]\nuser = app\npassword = {v}"),
        ("yaml", 'db:\n  user: app\n  password: "{v}"'),
        ("spec-rpm", "%global db_pass {v}\nName: app\nVersion: 1.0"),
        (
            "spec-jest",
            "it('logs in', async () => {{\n  await login({{ username: 'qa', password: '{v}' }});\n}});",
        ),
        ("spec-rspec", "let(:admin_password) {{ '{v}' }}"),
        ("getenv-py", 'DB_PASSWORD = os.environ.get("DB_PASSWORD", "{v}")'),
        ("getenv-java", 'String pw = System.getProperty("db.password", "{v}");'),
        ("getenv-rust", 'let pw = env::var("SMTP_PASSWORD").unwrap_or("{v}".to_string());'),
        ("getenv-ruby", 'password = ENV.fetch("REDIS_PASSWORD", "{v}")'),
        ("getenv-php", "$pass = getenv('MYSQL_PASSWORD') ?: '{v}';"),
        ("getenv-csharp", 'var pw = Environment.GetEnvironmentVariable("SA_PASSWORD") ?? "{v}";'),
        ("docker-compose", "environment:\n  - POSTGRES_PASSWORD={v}"),
        ("cli-flag", "mysql -h db -u root --password={v} app"),
        ("url", "redis://:{v}@cache.internal:6379/0"),
        (
            "diff-removed",
            "-spring.datasource.password={v}\n+spring.datasource.password=${{DB_PASSWORD}}",
        ),
    ]
    for label, t in config:
        v = g.password()
        if label == "url":  # a URL's user-info holds no raw `@`, `#` or `?`
            v = v.translate(str.maketrans("@#?", "!$*"))
        out.append((f"pw-config:{label}", t.format(v=v), v))
    return out


# ---------------------------------------------------------------- personal identifiers


def national_id_cases(g: Gen) -> list[Case]:
    ids = [
        (
            "SE",
            g.se(),
            [
                "personnummer {v}",
                "Swedish personal identity number: {v}",
                "瑞典客户，personnummer：{v}",
            ],
        ),
        ("FI", g.fi(), ["henkilötunnus {v}", "Finnish hetu: {v}", "芬兰员工 hetu {v}"]),
        ("ES-DNI", g.es_dni(), ["DNI: {v}", "Spanish national ID {v}", "西班牙客户 DNI {v}"]),
        ("ES-NIE", g.es_nie(), ["NIE {v}", "su NIE es {v}"]),
        (
            "TR",
            g.tr(),
            ["T.C. Kimlik No: {v}", "Turkish ID number {v}", "土耳其客户 TC kimlik：{v}"],
        ),
        ("KR", g.kr(), ["주민등록번호: {v}", "Korean RRN {v}", "韩国员工 居民登录号 {v}"]),
        ("TH", g.th(), ["เลขประจำตัวประชาชน {v}", "Thai national ID: {v}", "泰国客户 身份证号 {v}"]),
        (
            "UK-NINO",
            g.nino(),
            ["National Insurance number: {v}", "NINO {v}", "英国国民保险号 NI number {v}"],
        ),
        (
            "CA-SIN",
            g.ca_sin(),
            ["SIN: {v}", "Social Insurance Number {v}", "加拿大社会保险号 SIN {v}"],
        ),
        ("IN-AADHAAR", g.aadhaar(), ["Aadhaar: {v}", "aadhaar no {v}", "印度员工 Aadhaar 号 {v}"]),
        ("IN-PAN", g.pan(), ["PAN: {v}", "PAN card number {v}"]),
        ("BR-CPF", g.cpf(), ["CPF: {v}", "meu CPF é {v}", "巴西客户 CPF {v}"]),
        ("FR-NIR", g.nir(), ["numéro de sécurité sociale : {v}", "NIR {v}", "法国员工 NIR：{v}"]),
        (
            "DE-STEUER",
            g.steuer_id(),
            ["Steuer-ID: {v}", "steuerliche Identifikationsnummer {v}", "德国税号 Steuer-ID {v}"],
        ),
        (
            "IT-CF",
            g.codice_fiscale(),
            ["codice fiscale: {v}", "C.F. {v}", "意大利客户 codice fiscale {v}"],
        ),
        (
            "JP-MYNUMBER",
            g.my_number(),
            ["マイナンバー: {v}", "個人番号 {v}", "日本员工 My Number {v}"],
        ),
        ("HK", g.hkid(), ["HKID: {v}", "香港身份證號碼：{v}", "身份证 {v}（香港）"]),
        ("TW", g.twid(), ["身分證字號：{v}", "Taiwan ID {v}", "台湾客户身份证号 {v}"]),
    ]
    out: list[Case] = []
    for country, value, templates in ids:
        for i, t in enumerate(templates):
            out.append((f"id:{country}:{i}", "Customer record. " + t.format(v=value), value))
        out.append(
            (
                f"id:{country}:json",
                f'{{"name": "A. Client", "national_id": "{value}", "country": "{country[:2]}"}}',
                value,
            )
        )
    # SSN / ITIN / bank accounts without dashes, near a label
    s, t = g.ssn(), g.itin()
    acct = g.digits(12, "123456789")
    out += [
        ("ssn:plain", f"SSN {s} on file for payroll", s),
        ("ssn:json", f'{{"employee": "R. Ortiz", "ssn": "{s}"}}', s),
        ("ssn:prose", f"Her social security number is {s}.", s),
        ("ssn:zh", f"美国员工社会安全号：{s}", s),
        ("ssn:csv", f"name,ssn,dept\nR. Ortiz,{s},ENG", s),
        ("itin:plain", f"ITIN {t} for the W-7", t),
        ("itin:json", f'{{"itin": "{t}"}}', t),
        ("bank:en", f"Direct deposit: routing 021000021, account number {acct}", acct),
        ("bank:acct-no", f"acct no. {acct} (checking)", acct),
        ("bank:zh", f"收款银行账号：{acct}", acct),
        ("bank:json", f'{{"bank_account": "{acct}", "routing_number": "021000021"}}', acct),
    ]
    return out


def document_cases(g: Gen) -> list[Case]:
    us_passport = g.digits(9)
    cn_passport = "E" + g.digits(8)
    gb_passport = g.digits(9)
    de_passport = "C" + "".join(g.r.choice("CFGHJKLMNPRTVWXYZ0123456789") for _ in range(8))
    uk_dl = "MORGA" + g.digits(6, string.digits) + "SM9IJ"
    ca_dl = "D" + g.digits(7)
    ny_dl = g.digits(9)
    return [
        ("passport:en", f"Traveller passport number {us_passport}, expires 2031", us_passport),
        ("passport:en-prose", f"My passport is {gb_passport} if the hotel asks.", gb_passport),
        ("passport:zh", f"我的护照号码是{cn_passport}，下周去东京", cn_passport),
        (
            "passport:json",
            f'{{"traveller": "L. Vogt", "passport_no": "{de_passport}", "nationality": "DE"}}',
            de_passport,
        ),
        ("passport:json-zh", f'{{"姓名": "王芳", "护照号": "{cn_passport}"}}', cn_passport),
        ("passport:yaml", f"traveller:\n  name: Jo Park\n  passport: {us_passport}", us_passport),
        ("dl:uk", f"UK driving licence number: {uk_dl}", uk_dl),
        ("dl:ca", f"California driver's license {ca_dl}, exp 2027", ca_dl),
        ("dl:ny-json", f'{{"drivers_license": "{ny_dl}", "state": "NY"}}', ny_dl),
        ("dl:zh", f"驾驶证号：{ca_dl}", ca_dl),
        ("dl:prose", f"his DL# is {ca_dl}", ca_dl),
    ]


def phone_cases(g: Gen) -> list[Case]:
    out: list[Case] = []
    regions = [
        "US",
        "GB",
        "DE",
        "FR",
        "JP",
        "KR",
        "IN",
        "BR",
        "AU",
        "SG",
        "HK",
        "TW",
        "ES",
        "IT",
        "SE",
        "MX",
        "NL",
        "CH",
    ]
    styles = ["e164", "intl", "rfc3966", "00", "dots"]
    for i, region in enumerate(regions):
        n = g.phone(region)
        style = styles[i % len(styles)]
        v = fmt(n, style)
        out.append((f"phone:{region}:{style}", f"Contact: Mira Holm, {v}", v))
        nat = fmt(n, "national")
        out.append((f"phone:{region}:national", f"mobile: {nat}", nat))
    # lists in many formats
    a, b, c = (fmt(g.phone(r), "intl") for r in ("DE", "GB", "FR"))
    out += [
        ("phone-list:csv", f"name,phone\nAnna,{a}\nBen,{b}\nChloé,{c}", b),
        ("phone-list:semicolon", f"Emergency numbers: {a}; {b}; {c}", c),
        ("phone-list:zh", f"联系人电话：\n张三 {a}\n李四 {b}", b),
        ("phone-list:vcard", f"BEGIN:VCARD\nFN:Anna Berg\nTEL;TYPE=cell:{a}\nEND:VCARD", a),
        (
            "phone-list:json",
            f'{{"contacts": [{{"name": "Anna", "tel": "{a}"}}, {{"name": "Ben", "tel": "{b}"}}]}}',
            b,
        ),
        ("phone:whatsapp", f"WhatsApp me at {c}", c),
        (
            "phone:us-paren",
            f"Call Dana at ({g.r.choice(['312', '415', '617'])}) {g.digits(3, '23456789')}-{g.digits(4, '123456789')} after 6pm",
            None,
        ),
    ]
    # the last one: fill its value from the text (an NANP number with a valid exchange)
    label, text, _ = out[-1]
    out[-1] = (label, text, text.split("at ", 1)[1].split(" after")[0])
    return out


def phone_region_cases(g: Gen) -> list[Case]:
    """A person's number from thirty regions, each written five ways: in a list with
    names and no phone word, after 电话 in its national form, in a sentence, as JSON,
    as a `tel:` link, with an extension, and a landline after "home phone"."""
    out: list[Case] = []
    regions = ["CN", "HK", "TW", "JP", "KR", "IN", "BR", "DE", "GB", "FR", "AU", "SG", "US", "CA",
               "MX", "ES", "IT", "NL", "SE", "PL", "TR", "RU", "ZA", "NG", "TH", "VN", "ID", "MY", "PH"]  # fmt: skip
    for region in regions:
        n = g.phone(region)
        nat, intl, e164 = fmt(n, "national"), fmt(n, "intl"), fmt(n, "e164")
        other = fmt(g.phone(region), "intl")
        out += [
            (f"phone:{region}:list", f"Anna Berg: {intl}\nBen Ode: {other}", intl),
            (f"phone:{region}:zh-national", f"客户电话 {nat}", nat),
            (f"phone:{region}:call", f"call me on {nat} tonight", nat),
            (f"phone:{region}:json", f'{{"name": "Mia", "phone": "{e164}"}}', e164),
            (f"phone:{region}:tel-link", f'<a href="tel:{e164}">Call Mia</a>', e164),
            (f"phone:{region}:ext", f"Office: {intl} ext. 204", intl),
        ]
        fixed = fmt(g.phone(region, phonenumbers.PhoneNumberType.FIXED_LINE), "national")
        out.append((f"phone:{region}:landline", f"Home phone: {fixed}", fixed))
    acct = g.digits(8, "13579")
    out += [
        ("bank:uk-sort-code", f"Pay to sort code 20-00-00, account number {acct}", acct),
        ("bank:de-konto", f"Kontonummer {g.digits(10, '13579')}, BLZ 37040044", None),
        ("ssn:colloquial", f"my social is {(s := g.ssn())}, don't lose it", s),
    ]
    label, text, _ = out[-2]
    out[-2] = (label, text, text.split("Kontonummer ", 1)[1].split(",", 1)[0])
    return out


def email_cases(g: Gen) -> list[Case]:
    return [
        (
            "idn:de",
            "Kontakt: Jürgen Müller, jürgen.müller@müller-bau.de",
            "jürgen.müller@müller-bau.de",
        ),
        ("idn:zh", "客户邮箱：张伟@公司.中国", "张伟@公司.中国"),
        ("idn:ru", "Пишите Ивану: иван.петров@почта.рф", "иван.петров@почта.рф"),
        (
            "idn:ascii-local",
            "Reach Zoë at zoe.lambert@bücherwurm.de for the order",
            "zoe.lambert@bücherwurm.de",
        ),
        (
            "idn:punycode",
            "customer email: li.na@xn--fiqs8s.xn--fiqz9s",
            "li.na@xn--fiqs8s.xn--fiqz9s",
        ),
        ("idn:jp", "連絡先: 田中さん たなか@例え.jp", "たなか@例え.jp"),
        (
            "idn:json",
            '{"name": "José Núñez", "email": "josé.núñez@correo.es"}',
            "josé.núñez@correo.es",
        ),
    ]


# ---------------------------------------------------------------- benign look-alikes


def benign_cases(g: Gen) -> list[Case]:
    sha = g.s(40, HEX)
    sha256 = g.s(64, HEX)
    return [
        ("hash:git", f"Merged in commit {sha}; see CI run 48213.", None),
        ("hash:short-git", f"fix: bump deps ({sha[:12]})", None),
        ("hash:sha256sum", f"{sha256}  dist/app-1.4.2.tar.gz", None),
        ("hash:docker", f"image: registry.example.com/app@sha256:{sha256}", None),
        ("hash:npm-integrity", f'"integrity": "sha512-{g.s(86, B64)}=="', None),
        ("hash:md5-zh", f"文件校验 md5：{g.s(32, HEX)}", None),
        ("hash:etag", f'ETag: "{g.s(32, HEX)}"', None),
        ("uuid:request", f"request_id={g.uuid()} status=200 latency=41ms", None),
        ("uuid:json", f'{{"id": "{g.uuid()}", "type": "invoice", "amount": 1200}}', None),
        ("uuid:zh", f"工单 {g.uuid()} 已关闭", None),
        ("build:id", f"Build 2025.03.02-{g.digits(5)} (run {g.s(20, LOWER_DIGIT)}) passed", None),
        (
            "build:gradle",
            f"BUILD SUCCESSFUL in 42s, build scan: https://gradle.com/s/{g.s(13, LOWER_DIGIT)}",
            None,
        ),
        ("build:trace", f"traceparent: 00-{g.s(32, HEX)}-{g.s(16, HEX)}-01", None),
        (
            "example:aws-docs",
            "Example from the AWS docs: AKIAIOSFODNN7EXAMPLE / wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
            None,
        ),
        (
            "example:stripe-docs",
            "In the docs, e.g. `sk_test_"
            + "4eC39HqLyjWDarjtT1zdp7dc`, is Stripe's published example key.",
            None,
        ),
        (
            "example:placeholder-zh",
            "示例配置：API_KEY=your-api-key-here，把它换成你自己的 key",
            None,
        ),
        (
            "example:readme",
            "Set `OPENAI_API_KEY=sk-...` in `.env` (see the example file `.env.example`).",
            None,
        ),
        (
            "example:jwt-io",
            "The example token on jwt.io starts with eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9 and is public.",
            None,
        ),
        ("order:en", f"Order #{g.digits(12)} shipped, tracking 1Z{g.s(16, UPPER_DIGIT)}", None),
        ("order:zh", f"订单号：{g.digits(18)}，已发货", None),
        ("order:invoice", f"Invoice INV-{g.digits(8)} paid on 2025-02-11", None),
        (
            "version:semver",
            "Upgraded to 10.24.1-rc.3+build.20250302 and pinned numpy==1.26.4",
            None,
        ),
        ("version:zh", "版本 v3.2.1.20250302 已发布", None),
        ("number:isbn", "ISBN 978-3-16-148410-0, 2nd edition", None),
        ("number:timestamp", f"epoch 17{g.digits(8, string.digits)} ms, offset 3600", None),
        ("number:coords", "Meet at 52.520008, 13.404954 near the gate", None),
        ("number:ip", "The staging host is 10.24.18.201 on port 8443", None),
        ("number:money", "Revenue grew to 1,234,567,890 yen in FY2024", None),
        ("number:jira", "Tracked in PROJ-48213 and OPS-1182", None),
        (
            "word:password-policy",
            "Passwords must be at least 12 characters and rotate every 90 days.",
            None,
        ),
        ("word:password-policy-zh", "密码长度至少 12 位，必须包含大小写字母和数字。", None),
        ("word:token-count", "The prompt used 48213 tokens; max_tokens=4096.", None),
        (
            "word:secret-manager",
            "The API key lives in AWS Secrets Manager under prod/stripe/api-key.",
            None,
        ),
        ("word:password-reset-zh", "用户说忘记密码了，已发送重置链接。", None),
        ("word:wifi-ask", "What is the Wi-Fi password here? Ask the front desk.", None),
        ("word:csrf", f'<input type="hidden" name="csrf_token" value="{g.s(43, B64URL)}">', None),
        ("word:pagination", f'{{"next_page_token": "{g.s(40, B64URL)}"}}', None),
        ("word:base64-image", f"![logo](data:image/png;base64,iVBORw0KGgo{g.s(60, B64)})", None),
        ("phone:support-tollfree", "Support hotline: 1-800-555-0199 (toll-free)", None),
        ("phone:fiction", "In the film she dials 555-0142 and hangs up.", None),
        (
            "email:role",
            "Send invoices to billing@acme-corp.com; questions to support@acme-corp.com.",
            None,
        ),
        ("email:idn-role", "Anfragen an info@bücher.de", None),
        ("id:example-ssn", "The SSN format is 123-45-6789 (example only).", None),
        ("id:masked", "SSN ***-**-4821 on file (masked)", None),
        ("id:masked-zh", "身份证号 110105********0422 已脱敏", None),
    ]


def more_secret_cases(g: Gen) -> list[Case]:
    pw = g.password
    out: list[Case] = []

    def add(label: str, template: str, value: str) -> None:
        out.append((label, template.format(v=value), value))

    add("pin:alarm", "Door code and alarm PIN: {v}", g.digits(4, "2468"))
    add("pin:bank", "my debit card PIN is {v}", g.digits(4, "1379"))
    add("pin:zh", "门禁码是 {v}#", g.digits(6, "2468"))
    add("pin:gate", "Gate code for the building: {v}", g.digits(5, "13579"))
    add("cli:curl-u", "curl -u admin:{v} https://jenkins.internal.test/api/json", pw())
    add("cli:docker-login", "docker login registry.internal.test -u ci -p {v}", pw())
    add("cli:kubectl-literal", "kubectl create secret generic db --from-literal=password={v}", pw())
    add("cli:psql-env", "PGPASSWORD={v} psql -h db.internal.test -U app", pw())
    add("url:mongodb", "MONGO_URL=mongodb+srv://app:{v}@cluster0.ab12c.mongodb.net/prod", pw())
    add(
        "url:git-oauth",
        "git clone https://oauth2:{v}@gitlab.com/acme/infra.git",
        "glpat-" + g.s(20, B64URL),
    )
    add("npmrc", "//registry.npmjs.org/:_authToken={v}", "npm_" + g.s(36))
    add("pgpass", "db.internal.test:5432:app:app:{v}", pw())
    add("netrc", "machine api.heroku.com\n  login ops@acme.test\n  password {v}", g.uuid())
    add("header:x-api-key", "> GET /v1/items HTTP/1.1\n> X-Api-Key: {v}\n> Accept: */*", g.s(40))
    add(
        "header:basic",
        'headers = {{"Authorization": "Basic {v}"}}',
        "YWRtaW46" + g.s(20, B64) + "==",
    )
    add("terraform", 'provider "cloudflare" {{\n  api_token = "{v}"\n}}', g.s(40, B64URL))
    add("jwt-secret-prop", "jwt.secret={v}", g.s(48, B64))
    add("aliyun-zh", "阿里云 AccessKey ID：LTAI5t" + g.s(18) + "，AccessKey Secret：{v}", g.s(30))
    add("tencent-zh", "腾讯云 SecretId AKID" + g.s(32) + "，SecretKey {v}", g.s(32))
    add("huawei-zh", "华为云 AK：" + g.s(20, UPPER_DIGIT) + "，SK：{v}", g.s(40))
    add("qianfan-zh", "百度千帆 API Key：" + g.s(24) + "，Secret Key：{v}", g.s(32))
    add("wecom-zh", "企业微信 corpid=ww" + g.s(16, HEX) + " corpsecret={v}", g.s(43, B64URL))
    add(
        "dingtalk-webhook",
        "钉钉机器人：https://oapi.dingtalk.com/robot/send?access_token={v}",
        g.s(64, HEX),
    )
    add("feishu-sign-zh", "飞书机器人的签名校验密钥是 {v}", g.s(22))
    add("wxpay-zh", "微信支付 APIv3 密钥：{v}", g.s(32))
    add("wechat-mp-zh", "公众号 AppID wx" + g.s(16, HEX) + "，AppSecret {v}", g.s(32, HEX))
    add(
        "chat-en",
        "hey, here's the staging key, don't share: {v}",
        "sk-proj-" + g.s(48, B64URL) + "T3BlbkFJ" + g.s(48, B64URL),
    )
    add("chat-zh", "给你 token：{v}，用完记得删", "ghp_" + g.s(36))
    add("yaml-anchor", "defaults: &auth\n  client_secret: {v}\nprod:\n  <<: *auth", g.s(40, B64URL))
    add("toml", '[tool.poetry.http-basic.private]\nusername = "ci"\npassword = "{v}"', pw())
    add("powershell", '$env:AZURE_CLIENT_SECRET = "{v}"', g.s(8) + "~" + g.s(31, B64URL))
    add("ps-securestring", 'ConvertTo-SecureString "{v}" -AsPlainText -Force', pw())
    add("c-define", '#define WIFI_PASSWORD "{v}"', pw())
    add("arduino", 'const char* password = "{v}";', pw())
    add("swift", 'let apiSecret = "{v}"', g.s(32))
    add("go-struct", 'cfg := Config{{Password: "{v}", Host: "db"}}', pw())
    add("sql", "CREATE USER app WITH PASSWORD '{v}';", pw())
    add("sql-identified", "ALTER USER 'app'@'%' IDENTIFIED BY '{v}';", pw())
    add("ansible", "ansible_become_password: {v}", pw())
    add("htpasswd-cli", "htpasswd -b -c .htpasswd admin {v}", pw())
    add("env-inline-zh", "部署命令：DB_PASSWORD={v} ./deploy.sh", pw())
    add("ruby-hash", "Client.new(:username => 'svc', :password => '{v}')", pw())
    add("python-kwarg", 'connect(host="db", user="app", password="{v}")', pw())
    add("csv-creds", "service,user,password\nmailer,smtp,{v}", pw())
    add("markdown-table", "| host | user | password |\n|---|---|---|\n| db1 | root | {v} |", pw())
    return out


def more_benign_cases(g: Gen) -> list[Case]:
    return [
        ("word:max-tokens", "max_tokens: 4096\ntemperature: 0.2", None),
        ("word:passwordless", "We moved to passwordless login with passkeys last quarter.", None),
        (
            "word:key-insight",
            "The key insight is that caching the token list halves latency.",
            None,
        ),
        ("word:secret-sauce", "Their secret sauce is a 3-stage retriever.", None),
        ("word:kms-zh", "密钥管理统一走 KMS，不要在代码里写死密钥。", None),
        ("word:password-env", "password: ${DB_PASSWORD}", None),
        ("word:password-vault", "password: !vault |\n  $ANSIBLE_VAULT;1.1;AES256", None),
        ("word:password-redacted", "password: <redacted>", None),
        ("word:getpass", "password = getpass.getpass('DB password: ')", None),
        ("word:password-input-zh", "请输入 6 位数字密码后点击确认。", None),
        ("word:password-errors-zh", "密码错误次数过多，账号已锁定 30 分钟。", None),
        ("word:wifi-desk-zh", "Wi-Fi 密码在前台，问服务员就行。", None),
        ("word:pin-sequential", "Default PIN is 1234 until you change it.", None),
        ("word:gpio-pin", "LED on GPIO pin 13, button on pin 2.", None),
        (
            "word:hello-b64",
            "Security wiki: aGVsbG8gd29ybGQ= is just base64 for 'hello world'.",
            None,
        ),
        ("id:session", f'{{"session_id": "{g.uuid()}", "user_id": 4821}}', None),
        (
            "id:google-client",
            "OAuth client ID: 1234567890-abcdefghijklmnopqrstuvwxyz012345.apps.googleusercontent.com",
            None,
        ),
        (
            "id:posthog-project",
            "posthog.init('phc_" + g.s(43) + "', {api_host: 'https://eu.posthog.com'})",
            None,
        ),
        ("id:stripe-publishable", "Stripe.setPublishableKey('pk_live_" + g.s(24) + "')", None),
        ("id:feishu-app-id", "飞书应用 App ID：cli_" + g.s(16, HEX) + "（公开信息）", None),
        ("id:wechat-appid", "小程序 AppID：wx" + g.s(16, HEX), None),
        (
            "id:stripe-objects",
            "Refunded ch_" + g.s(24) + " for cus_" + g.s(14) + " (request req_" + g.s(14) + ")",
            None,
        ),
        (
            "id:ssh-public",
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI" + g.s(43, B64) + " deploy@ci",
            None,
        ),
        (
            "id:certificate",
            "-----BEGIN CERTIFICATE-----\nMIID"
            + g.s(60, B64)
            + "\n"
            + g.s(64, B64)
            + "\n-----END CERTIFICATE-----",
            None,
        ),
        (
            "id:lfs-pointer",
            "version https://git-lfs.github.com/spec/v1\noid sha256:"
            + g.s(64, HEX)
            + "\nsize 48213",
            None,
        ),
        (
            "id:oauth-state",
            "https://auth.example.com/callback?code_challenge="
            + g.s(43, B64URL)
            + "&state="
            + g.s(22, B64URL),
            None,
        ),
        ("id:cache-key", 'cache_key = f"user:{uid}:profile:v2"', None),
        ("id:idempotency", "Idempotency-Key: " + g.uuid(), None),
        ("number:ean", "GTIN 4006381333931, case of 12", None),
        ("number:ua", "User-Agent: Mozilla/5.0 Chrome/123.0.6312.86 Safari/537.36", None),
        (
            "number:order-json",
            f'{{"order_no": "{g.digits(16)}", "tracking_number": "{g.digits(12)}"}}',
            None,
        ),
        ("number:tin-can", "Bought a tin can of 400 g, lot 123456789.", None),
        ("number:ssn-required", "The SSN field is required (9 digits).", None),
        ("number:iban-example", "IBAN format example: GB82 WEST 1234 5698 7654 32", None),
        ("number:build-date", "Build 20250302.4812 deployed to staging", None),
        ("number:price-list", "Prices: 1 299,00 kr; 2 499,00 kr; 3 999,00 kr", None),
        ("number:stats", "Visitors per day: 48213, 51022, 49877, 50310", None),
        ("number:phone-shaped-id", "Ticket #2025030214 closed, see run 3141592653.", None),
        ("hash:cache-key", f"cache key: {g.s(40, HEX)}", None),
        ("hash:cache-key-zh", f"缓存 cache key：{g.s(40, HEX)}", None),
        ("hash:random-hex-artifact", f"Artifact {g.s(40, HEX)} uploaded to the cache.", None),
        (
            "hash:subresource",
            f'"integrity": "sha384-{g.s(64, B64)}", "resolved": "https://registry.npmjs.org/a/-/a-1.0.0.tgz"',
            None,
        ),
        ("hash:content-hash-file", f"dist/main.{g.s(20, HEX)}.js  142 kB", None),
        ("email:git-trailer", "Co-authored-by: Dana Li <dana.li@acme.test>", None),
        ("email:noreply-zh", "系统邮件由 noreply@公司.中国 发出，请勿回复", None),
        (
            "example:docs-password",
            "Example: `mysql -u root -pMyS3cretPass` (replace with your own).",
            None,
        ),
        ("example:docs-zh", "例如：DB_PASSWORD=Example123!（示例值，请替换）", None),
    ]


def all_cases() -> dict[str, list[Case]]:
    g = Gen("secrets-pii-generalize")
    return {
        "secret": vendor_cases(g)
        + structural_secret_cases(g)
        + password_cases(g)
        + more_secret_cases(g),
        "pii": national_id_cases(g)
        + document_cases(g)
        + phone_cases(g)
        + phone_region_cases(g)
        + email_cases(g),
        "benign": benign_cases(g) + more_benign_cases(g),
    }
