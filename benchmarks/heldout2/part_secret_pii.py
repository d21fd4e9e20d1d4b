# ruff: noqa: E501 - hand-written case texts and vendor shapes read best on one line
"""Secret (expect review) and PII (expect review) cases. Every credential is a random
string in the vendor's shape; every identifier passes its checksum (re-checked with
python-stdnum in h2core.validate); names are invented."""

from __future__ import annotations

import json
from collections.abc import Callable

from h2core import Book, Gen

# ---------------------------------------------------------------------------- secrets

ZH_LEADS = [
    "帮我看下这个配置为什么连不上：\n",
    "同事发在群里的部署变量，先记一下：\n",
    "这是测试环境的配置，备忘：\n",
    "排查问题时从服务器上拷下来的：\n",
    "新项目的初始化参数如下：\n",
    "客户给的接入信息，整理一下：\n",
    "上线检查单附件里的内容：\n",
    "把这段存到笔记里，下周迁移要用：\n",
]
EN_LEADS = [
    "",
    "",
    "Saving this for the migration next week:\n",
    "From the staging box:\n",
    "Can you check why this config fails?\n",
    "Pasted from the deploy channel:\n",
    "Note to self - creds for the sandbox integration:\n",
    "",
]


def _ctx(
    g: Gen, var: str, value: str, extra: list[tuple[str, str]] | None = None
) -> tuple[str, str]:
    """Embed VAR=value in one of many artefact shapes; returns (text, shape)."""
    extra = extra or []
    pairs = [(var, value), *extra]
    shape = g.pick(
        [
            "env",
            "export",
            "yaml",
            "json",
            "py",
            "js",
            "docker",
            "k8s",
            "ini",
            "curl",
            "toml",
            "ci",
            "go",
            "log",
        ]
    )
    if shape == "env":
        lines = ["APP_ENV=staging", f"PORT={g.n(3000, 9000)}"] + [f"{k}={v}" for k, v in pairs]
        text = "\n".join(lines)
    elif shape == "export":
        text = "\n".join(f'export {k}="{v}"' for k, v in pairs)
    elif shape == "yaml":
        text = "integrations:\n  enabled: true\n" + "\n".join(
            f'  {k.lower()}: "{v}"' for k, v in pairs
        )
    elif shape == "json":
        text = json.dumps({"service": g.word(), "credentials": dict(pairs)}, indent=2)
    elif shape == "py":
        text = "import requests\n\n" + "\n".join(f'{k} = "{v}"' for k, v in pairs) + "\n"
    elif shape == "js":
        text = (
            "module.exports = {\n" + "\n".join(f"  {k.lower()}: '{v}'," for k, v in pairs) + "\n};"
        )
    elif shape == "docker":
        text = (
            f"docker run -d --name {g.word()} "
            + " ".join(f"-e {k}={v}" for k, v in pairs)
            + f" registry.example.com/{g.word()}:latest"
        )
    elif shape == "k8s":
        text = (
            "apiVersion: v1\nkind: Secret\nmetadata:\n  name: "
            + g.word()
            + "-creds\ntype: Opaque\nstringData:\n"
            + "\n".join(f"  {k}: {v}" for k, v in pairs)
        )
    elif shape == "ini":
        text = f"[{g.word()}]\n" + "\n".join(f"{k.lower()} = {v}" for k, v in pairs)
    elif shape == "curl":
        text = (
            f'curl -s https://api.{g.word()}.example/v1/status -H "Authorization: Bearer {value}"'
        )
    elif shape == "toml":
        text = "[secrets]\n" + "\n".join(f'{k.lower()} = "{v}"' for k, v in pairs)
    elif shape == "ci":
        text = (
            "variables:\n"
            + "\n".join(f"  {k}: {v}" for k, v in pairs)
            + "\ntest:\n  script:\n    - make test"
        )
    elif shape == "go":
        text = (
            "package config\n\nconst (\n"
            + "\n".join(f'\t{k.title().replace("_", "")} = "{v}"' for k, v in pairs)
            + "\n)"
        )
    else:
        text = "\n".join(
            f"{g.n(10, 23)}:{g.n(10, 59)}:{g.n(10, 59)} DEBUG loaded {k}={v}" for k, v in pairs
        )
    return text, shape


def _vendor_specs(g: Gen) -> list[tuple[str, Callable[[], tuple[str, str, list[tuple[str, str]]]]]]:
    return [
        (
            "aws_keypair",
            lambda: (
                "AWS_ACCESS_KEY_ID",
                g.aws_key_id(),
                [("AWS_SECRET_ACCESS_KEY", g.aws_secret())],
            ),
        ),
        (
            "aws_session",
            lambda: (
                "AWS_ACCESS_KEY_ID",
                g.aws_key_id("ASIA"),
                [
                    ("AWS_SECRET_ACCESS_KEY", g.aws_secret()),
                    ("AWS_SESSION_TOKEN", "IQoJb3JpZ2luX2Vj" + g.b64(120)),
                ],
            ),
        ),
        ("github_token", lambda: ("GITHUB_TOKEN", g.gh_pat(), [])),
        ("github_token", lambda: ("GH_PAT", g.gh_fine(), [])),
        ("github_token", lambda: ("GITHUB_APP_TOKEN", g.gh_other(), [])),
        ("gitlab_token", lambda: ("GITLAB_TOKEN", g.gitlab(), [])),
        ("slack_token", lambda: ("SLACK_BOT_TOKEN", g.slack_bot(), [])),
        ("slack_token", lambda: ("SLACK_USER_TOKEN", g.slack_user(), [])),
        ("slack_webhook", lambda: ("SLACK_WEBHOOK_URL", g.slack_hook(), [])),
        ("stripe_key", lambda: ("STRIPE_SECRET_KEY", g.stripe("sk_live_"), [])),
        (
            "stripe_key",
            lambda: (
                "STRIPE_WEBHOOK_SECRET",
                "whsec_" + g.alnum(32),
                [("STRIPE_RESTRICTED", g.stripe("rk_live_"))],
            ),
        ),
        (
            "twilio",
            lambda: ("TWILIO_ACCOUNT_SID", g.twilio_sid(), [("TWILIO_AUTH_TOKEN", g.hexs(32))]),
        ),
        (
            "twilio",
            lambda: ("TWILIO_API_KEY", g.twilio_key(), [("TWILIO_API_SECRET", g.alnum(32))]),
        ),
        ("sendgrid", lambda: ("SENDGRID_API_KEY", g.sendgrid(), [])),
        (
            "cloudflare",
            lambda: ("CLOUDFLARE_API_TOKEN", g.cloudflare(), [("CF_ZONE_ID", g.hexs(32))]),
        ),
        ("datadog", lambda: ("DD_API_KEY", g.datadog_api(), [("DD_APP_KEY", g.datadog_app())])),
        ("sentry", lambda: ("SENTRY_AUTH_TOKEN", g.sentry_token(), [])),
        (
            "vercel",
            lambda: ("VERCEL_TOKEN", g.vercel(), [("VERCEL_ORG_ID", "team_" + g.alnum(24))]),
        ),
        (
            "supabase",
            lambda: (
                "SUPABASE_SERVICE_ROLE_KEY",
                g.jwt(
                    {
                        "iss": "supabase",
                        "ref": g.lower_alnum(20),
                        "role": "service_role",
                        "iat": 1718000000,
                        "exp": 2033576000,
                    }
                ),
                [],
            ),
        ),
        ("supabase", lambda: ("SUPABASE_ACCESS_TOKEN", g.supabase_pat(), [])),
        (
            "okta",
            lambda: (
                "OKTA_API_TOKEN",
                g.okta(),
                [("OKTA_ORG_URL", f"https://{g.word()}.okta.example")],
            ),
        ),
        (
            "shopify",
            lambda: (
                "SHOPIFY_ACCESS_TOKEN",
                g.shopify("shpat_"),
                [("SHOPIFY_SHARED_SECRET", g.shopify("shpss_"))],
            ),
        ),
        (
            "aliyun",
            lambda: (
                "ALIBABA_CLOUD_ACCESS_KEY_ID",
                g.ali_id(),
                [("ALIBABA_CLOUD_ACCESS_KEY_SECRET", g.ali_secret())],
            ),
        ),
        (
            "tencent_cloud",
            lambda: (
                "TENCENTCLOUD_SECRET_ID",
                g.tencent_id(),
                [("TENCENTCLOUD_SECRET_KEY", g.tencent_key())],
            ),
        ),
        (
            "huawei_cloud",
            lambda: ("HUAWEICLOUD_SDK_AK", g.huawei_ak(), [("HUAWEICLOUD_SDK_SK", g.huawei_sk())]),
        ),
        (
            "baidu_cloud",
            lambda: ("BAIDU_API_KEY", g.baidu_ak(), [("BAIDU_SECRET_KEY", g.baidu_sk())]),
        ),
        (
            "feishu_secret",
            lambda: ("FEISHU_APP_ID", g.feishu_id(), [("FEISHU_APP_SECRET", g.feishu_secret())]),
        ),
        (
            "dingtalk_secret",
            lambda: ("DINGTALK_APP_KEY", g.ding_key(), [("DINGTALK_APP_SECRET", g.ding_secret())]),
        ),
        (
            "wechat_secret",
            lambda: ("WECHAT_APPID", g.wx_appid(), [("WECHAT_APPSECRET", g.wx_secret())]),
        ),
        ("openai_key", lambda: ("OPENAI_API_KEY", g.openai(), [])),
        ("anthropic_key", lambda: ("ANTHROPIC_API_KEY", g.anthropic(), [])),
        ("hf_token", lambda: ("HF_TOKEN", g.hf(), [])),
        ("npm_token", lambda: ("NPM_TOKEN", g.npm(), [])),
        ("pypi_token", lambda: ("TWINE_PASSWORD", g.pypi(), [("TWINE_USERNAME", "__token__")])),
        ("telegram_bot", lambda: ("TELEGRAM_BOT_TOKEN", g.telegram(), [])),
        ("discord_bot", lambda: ("DISCORD_TOKEN", g.discord_bot(), [])),
        (
            "mailgun",
            lambda: (
                "MAILGUN_API_KEY",
                g.mailgun(),
                [("MAILGUN_DOMAIN", f"mg.{g.word()}.example")],
            ),
        ),
        (
            "azure_client_secret",
            lambda: (
                "AZURE_CLIENT_SECRET",
                g.alnum(3)
                + "8Q~"
                + g.chars("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-~", 31),
                [
                    (
                        "AZURE_TENANT_ID",
                        f"{g.hexs(8)}-{g.hexs(4)}-{g.hexs(4)}-{g.hexs(4)}-{g.hexs(12)}",
                    )
                ],
            ),
        ),
        (
            "azure_storage",
            lambda: (
                "AZURE_STORAGE_CONNECTION_STRING",
                f"DefaultEndpointsProtocol=https;AccountName={g.word()}{g.n(10, 99)};AccountKey={g.b64(64)};EndpointSuffix=core.windows.net",
                [],
            ),
        ),
    ]


def _gcp_json(g: Gen) -> str:
    proj = f"{g.word()}-{g.word()}-{g.n(100000, 999999)}"
    sa = f"{g.word()}-sa@{proj}.iam.gserviceaccount.com"
    obj = {
        "type": "service_account",
        "project_id": proj,
        "private_key_id": g.hexs(40),
        "private_key": g.pem("PRIVATE KEY", 20) + "\n",
        "client_email": sa,
        "client_id": g.digits(21),
        "auth_uri": "https://accounts.google.com/o/oauth2/auth",
        "token_uri": "https://oauth2.googleapis.com/token",
    }
    return json.dumps(obj, indent=2)


def _secret_specials(g: Gen) -> list[tuple[str, str, bool, str, str]]:
    """(family, source, hard, note, text) hand-written secret cases."""
    out: list[tuple[str, str, bool, str, str]] = []
    pw = g.password
    host = g.host
    # passwords in prose, EN
    out += [
        (
            "password_prose",
            "user",
            False,
            "password in a sentence",
            f"The admin login for the router is admin / {pw()} — please remember it for me.",
        ),
        (
            "password_prose",
            "user",
            True,
            "password for a shared account",
            f"Our shared Netflix-style streaming account: {g.email()} and the password is {pw()}",
        ),
        (
            "password_prose",
            "document",
            True,
            "handover note with password",
            f"Handover: the jump host is {g.private_ip()}, user deploy, pass {pw()}. Rotate after the audit.",
        ),
        (
            "password_prose",
            "user",
            True,
            "pw abbreviation",
            f"vpn creds for tmrw: user {g.word()}.{g.word()}  pw: {pw()}",
        ),
        (
            "password_prose",
            "agent",
            True,
            "agent stored the user's password",
            f"User said their bank portal password is {pw()} and asked me to keep it handy.",
        ),
        (
            "password_prose",
            "document",
            True,
            "password in meeting notes",
            f"Action: Priya to reset the staging DB. Temp password set to {pw()} until Friday.",
        ),
        (
            "password_prose",
            "tool",
            True,
            "password in a ticket",
            f"SUP-{g.digits(4)}: customer cannot log in. Their current password ({pw()}) was accepted on the old site.",
        ),
    ]
    # passwords in prose, ZH
    out += [
        (
            "password_prose_zh",
            "user",
            False,
            "密码是…",
            f"记一下：公司邮箱的密码是 {pw()}，别弄丢了。",
        ),
        (
            "password_prose_zh",
            "user",
            True,
            "口令 in Chinese",
            f"堡垒机账号 ops，口令 {pw()}，下周一前有效。",
        ),
        (
            "password_prose_zh",
            "document",
            True,
            "交接文档里的密码",
            f"交接说明：测试库地址 {g.private_ip()}:3306，用户名 root，密码 {pw()}。",
        ),
        (
            "password_prose_zh",
            "user",
            True,
            "登录密码 abbreviated",
            f"网银登录密码换成了{pw()}，帮我记着",
        ),
        (
            "password_prose_zh",
            "tool",
            True,
            "工单中的密码",
            f"工单 #{g.digits(5)}：客户说后台登录不了，他的密码是 {pw()}，已确认大小写无误。",
        ),
        (
            "password_prose_zh",
            "document",
            True,
            "会议纪要中的临时密码",
            f"会议纪要：预发环境管理员临时密码设为 {pw()}，周五统一修改。",
        ),
        (
            "password_prose_zh",
            "user",
            True,
            "NAS 密码",
            f"家里 NAS 的管理员是 admin，密码 {pw()}，外网访问端口 {g.n(5000, 9999)}。",
        ),
    ]
    # Wi-Fi
    out += [
        (
            "wifi_password",
            "user",
            True,
            "Wi-Fi password zh",
            f"办公室 Wi-Fi：SSID 是 {g.word().upper()}-5G，密码 {pw()}",
        ),
        (
            "wifi_password",
            "document",
            True,
            "Wi-Fi in guest sheet",
            f"Guest Wi-Fi\nNetwork: {g.word().capitalize()}Guest\nPassword: {pw()}\nValid until end of the offsite.",
        ),
        (
            "wifi_password",
            "user",
            True,
            "wpa_supplicant",
            f'network={{\n    ssid="{g.word()}-home"\n    psk="{pw()}"\n}}',
        ),
        (
            "wifi_password",
            "user",
            True,
            "Wi-Fi zh 2",
            f"咖啡店的无线网 {g.word()}_free 密码是{g.digits(8)}，下次来直接连。",
        ),
    ]
    # connection strings
    out += [
        (
            "connection_string",
            "document",
            False,
            "postgres url",
            f"DATABASE_URL=postgresql://app_user:{pw()}@{g.private_ip()}:5432/orders",
        ),
        (
            "connection_string",
            "tool",
            True,
            "mongodb srv",
            f'mongo "mongodb+srv://reporting:{pw()}@cluster0.{g.word()}.example/analytics?retryWrites=true"',
        ),
        (
            "connection_string",
            "document",
            True,
            "redis url with password",
            f"CACHE_URL=redis://:{pw()}@{host()}:6379/2",
        ),
        (
            "connection_string",
            "document",
            True,
            "sql server ado string",
            f"Server=tcp:{host()},1433;Initial Catalog=crm;User ID=crm_app;Password={pw()};Encrypt=True;",
        ),
        (
            "connection_string",
            "user",
            True,
            "amqp url zh lead-in",
            f"消息队列连接串，先存一下：amqp://worker:{pw()}@{g.private_ip()}:5672/prod",
        ),
        (
            "connection_string",
            "document",
            True,
            "jdbc url with password param",
            f"spring.datasource.url=jdbc:mysql://{g.private_ip()}:3306/shop?user=shop&password={pw()}&useSSL=false",
        ),
    ]
    # .env files
    for i in range(3):
        lines = [
            "NODE_ENV=production",
            f"APP_URL=https://{host()}",
            "LOG_LEVEL=info",
            f"JWT_SECRET={g.hexs(64)}",
            f"DB_PASSWORD={pw()}",
            f"REDIS_HOST={g.private_ip()}",
            f"STRIPE_KEY={g.stripe()}",
            "SENTRY_ENV=prod",
        ]
        g.r.shuffle(lines)
        k = g.n(4, 8)
        body = "\n".join(lines[:k])
        if not any(("SECRET" in x or "PASSWORD" in x or "STRIPE" in x) for x in lines[:k]):
            body += f"\nSESSION_SECRET={g.hexs(48)}"
        lead = ["$ cat .env\n", "我们的 .env 文件：\n", ".env.production (do not commit)\n"][i]
        out.append(("dotenv", "document", i > 0, ".env file", lead + body))
    # XML / properties
    out += [
        (
            "xml_properties",
            "document",
            True,
            "xml connection password",
            f"<dataSource>\n  <url>jdbc:oracle:thin:@{g.private_ip()}:1521/ORCL</url>\n  <username>erp</username>\n  <password>{pw()}</password>\n</dataSource>",
        ),
        (
            "xml_properties",
            "document",
            True,
            "maven settings server password",
            f"<settings><servers><server><id>releases</id><username>deployer</username><password>{pw()}</password></server></servers></settings>",
        ),
        (
            "xml_properties",
            "document",
            True,
            "java properties",
            f"mail.smtp.host={host()}\nmail.smtp.user=notifier\nmail.smtp.password={pw()}\nmail.smtp.port=587",
        ),
        (
            "xml_properties",
            "document",
            True,
            "web.config appSettings",
            f'<appSettings>\n  <add key="PaymentApiKey" value="{g.stripe()}" />\n  <add key="Theme" value="dark" />\n</appSettings>',
        ),
    ]
    # getenv defaults
    out += [
        (
            "getenv_default",
            "document",
            True,
            "python getenv fallback",
            f'DB_PASS = os.getenv("DB_PASS", "{pw()}")',
        ),
        (
            "getenv_default",
            "document",
            True,
            "node env fallback",
            f"const apiKey = process.env.SENDGRID_KEY || '{g.sendgrid()}';",
        ),
        (
            "getenv_default",
            "document",
            True,
            "shell default expansion",
            f'TOKEN="${{GITHUB_TOKEN:-{g.gh_pat()}}}"',
        ),
        (
            "getenv_default",
            "document",
            True,
            "go getenv fallback zh",
            f'配置读取这么写的：\nkey := os.Getenv("OPENAI_API_KEY")\nif key == "" {{\n\tkey = "{g.openai()}"\n}}',
        ),
    ]
    # escaped JSON / logs
    out += [
        (
            "escaped_json_log",
            "tool",
            True,
            "key inside escaped json",
            json.dumps(
                {
                    "level": "error",
                    "msg": "request failed",
                    "payload": json.dumps({"api_key": g.anthropic(), "model": "x"}),
                }
            ),
        ),
        (
            "escaped_json_log",
            "tool",
            True,
            "authorization header in access log",
            f'{g.ip()} - - [02/Dec/2026:10:{g.n(10, 59)}:01 +0000] "GET /v1/items HTTP/1.1" 401 - "Authorization: Bearer {g.gh_pat()}"',
        ),
        (
            "escaped_json_log",
            "tool",
            True,
            "slack token in traceback",
            f'Traceback (most recent call last):\n  File "bot.py", line 41, in <module>\n    client = WebClient(token="{g.slack_bot()}")\nSlackApiError: invalid_auth',
        ),
        (
            "escaped_json_log",
            "tool",
            True,
            "aws key in CI log zh",
            f"CI 日志里看到的，帮我确认一下是否泄露：\n[step 4/9] Configuring AWS... AWS_ACCESS_KEY_ID={g.aws_key_id()} AWS_SECRET_ACCESS_KEY={g.aws_secret()}",
        ),
    ]
    # keys split over lines
    k1 = g.gh_pat()
    k2 = g.openai()
    k3 = g.aws_secret()
    out += [
        ("split_lines", "tool", True, "token wrapped by terminal", f"token: {k1[:20]}\n{k1[20:]}"),
        (
            "split_lines",
            "document",
            True,
            "key concatenated in code",
            f'KEY = (\n    "{k2[:30]}"\n    "{k2[30:70]}"\n    "{k2[70:]}"\n)',
        ),
        (
            "split_lines",
            "user",
            True,
            "secret split in chat zh",
            f"密钥太长分两条发：\n第一段 {k3[:20]}\n第二段 {k3[20:]}\n对应的 AK 是 {g.aws_key_id()}",
        ),
    ]
    # removed diff lines
    out += [
        (
            "removed_diff_line",
            "tool",
            True,
            "secret in removed diff line",
            f'diff --git a/config/settings.py b/config/settings.py\n--- a/config/settings.py\n+++ b/config/settings.py\n@@ -12,3 +12,3 @@\n-STRIPE_KEY = "{g.stripe()}"\n+STRIPE_KEY = os.environ["STRIPE_KEY"]\n DEBUG = False',
        ),
        (
            "removed_diff_line",
            "tool",
            True,
            "removed slack webhook",
            f"@@ -3,4 +3,4 @@ notify:\n-  webhook: {g.slack_hook()}\n+  webhook: ${{SLACK_WEBHOOK}}\n   channel: '#deploys'",
        ),
        (
            "removed_diff_line",
            "tool",
            True,
            "removed password zh",
            f'这次提交把明文密码去掉了，但历史里还在：\n- db_password: "{pw()}"\n+ db_password: "${{DB_PASSWORD}}"',
        ),
    ]
    # PEM / JWT / GCP
    out += [
        (
            "pem_private_key",
            "document",
            False,
            "rsa private key",
            "$ cat ~/.ssh/deploy_key\n" + g.pem("RSA PRIVATE KEY", 14),
        ),
        (
            "pem_private_key",
            "document",
            True,
            "openssh private key zh",
            "服务器登录用的私钥，先存这里：\n" + g.pem("OPENSSH PRIVATE KEY", 8),
        ),
        (
            "pem_private_key",
            "document",
            True,
            "ec private key in yaml",
            "tls:\n  key: |\n    " + g.pem("EC PRIVATE KEY", 3).replace("\n", "\n    "),
        ),
        (
            "pem_private_key",
            "tool",
            True,
            "pem escaped in json",
            json.dumps({"name": "signer", "private_key": g.pem("PRIVATE KEY", 10) + "\n"}),
        ),
        (
            "jwt",
            "tool",
            True,
            "bearer jwt in request dump",
            f"POST /api/orders HTTP/1.1\nHost: {host()}\nAuthorization: Bearer {g.jwt()}\nContent-Type: application/json",
        ),
        (
            "jwt",
            "user",
            True,
            "jwt in chat zh",
            f"这个 token 一直过期，帮我看看 payload：{g.jwt()}",
        ),
        (
            "jwt",
            "document",
            True,
            "jwt in cookie",
            f"Set-Cookie: session={g.jwt()}; HttpOnly; Secure; Path=/",
        ),
        ("gcp_sa_json", "document", False, "gcp service account json", _gcp_json(g)),
        (
            "gcp_sa_json",
            "document",
            True,
            "gcp sa json zh lead-in",
            "GCP 服务账号密钥文件内容：\n" + _gcp_json(g),
        ),
        (
            "dingtalk_secret",
            "document",
            True,
            "dingtalk robot webhook + sign secret",
            f"钉钉告警机器人：\nwebhook: https://oapi.dingtalk.com/robot/send?access_token={g.hexs(64)}\nsecret: SEC{g.hexs(64)}",
        ),
        (
            "feishu_secret",
            "document",
            True,
            "feishu bot webhook",
            f"飞书群机器人地址 https://open.feishu.cn/open-apis/bot/v2/hook/{g.hexs(8)}-{g.hexs(4)}-{g.hexs(4)}-{g.hexs(4)}-{g.hexs(12)} 签名校验密钥 {g.alnum(22)}",
        ),
        (
            "wechat_secret",
            "document",
            True,
            "wecom webhook key",
            f"企业微信机器人：https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key={g.hexs(8)}-{g.hexs(4)}-{g.hexs(4)}-{g.hexs(4)}-{g.hexs(12)}",
        ),
        (
            "basic_auth_url",
            "document",
            True,
            "credentials in git remote url",
            f'[remote "origin"]\n\turl = https://ci-bot:{g.gh_pat()}@git.{g.word()}.example/team/app.git',
        ),
        (
            "netrc",
            "document",
            True,
            "netrc entry",
            f"machine {host()}\n  login deploy\n  password {pw()}",
        ),
    ]
    return out


def build_secrets(book: Book) -> None:
    g = book.gen("secret")
    specs = _vendor_specs(g)
    for i, (family, make) in enumerate(specs):
        reps = 2 if i % 3 != 2 else 1
        for r in range(reps):
            var, value, extra = make()
            text, shape = _ctx(g, var, value, extra)
            zh = (i + r) % 5 in (0, 3)
            lead = g.pick(ZH_LEADS) if zh else g.pick(EN_LEADS)
            source = g.pick(["user", "document", "tool", "agent"])
            note = f"{family} as {shape}" + (" (Chinese lead-in)" if zh else "")
            book.add(
                "text",
                "secret",
                family,
                source,
                shape in ("log", "go", "toml", "js") or zh,
                note,
                lead + text,
            )
    for family, source, hard, note, text in _secret_specials(g):
        book.add("text", "secret", family, source, hard, note, text)


# ---------------------------------------------------------------------------- pii


def build_pii(book: Book) -> None:
    g = book.gen("pii")

    def add(family: str, source: str, hard: bool, note: str, text: str) -> None:
        book.add("text", "pii", family, source, hard, note, text)

    def person() -> str:
        return g.name_en()

    def dob() -> str:
        y, m, d = g.date(1955, 2002)
        return f"{y}-{m:02d}-{d:02d}"

    ids: list[tuple[str, str, str, Callable[[], str]]] = [
        ("national_id_se", "personnummer", "瑞典个人号码", g.se_pnr),
        ("national_id_fi", "henkilötunnus", "芬兰身份号码", g.fi_hetu),
        ("national_id_es", "DNI", "西班牙 DNI", g.es_dni),
        ("national_id_es_nie", "NIE", "西班牙外国人识别号 NIE", g.es_nie),
        ("national_id_tr", "T.C. Kimlik No", "土耳其身份证号", g.tr_tc),
        ("national_id_kr", "RRN (주민등록번호)", "韩国居民登录号", g.kr_rrn),
        ("national_id_uk_nino", "National Insurance number", "英国国民保险号", g.uk_nino),
        ("national_id_ca_sin", "SIN", "加拿大社会保险号", g.ca_sin),
        ("national_id_in_aadhaar", "Aadhaar", "印度 Aadhaar 号", g.in_aadhaar),
        ("national_id_in_pan", "PAN", "印度 PAN 号", g.in_pan),
        ("national_id_br_cpf", "CPF", "巴西 CPF", g.br_cpf),
        ("national_id_fr_nir", "numéro de sécurité sociale", "法国社保号", g.fr_nir),
        ("national_id_de", "Steuer-ID", "德国税号", g.de_idnr),
        ("national_id_it", "codice fiscale", "意大利税号", g.it_cf),
        ("national_id_hk", "HKID", "香港身份证号码", g.hk_id),
        ("national_id_tw", "身分證字號", "台湾身份证字号", g.tw_id),
        ("national_id_us_ssn", "SSN", "美国社安号", g.us_ssn),
        ("national_id_nl", "BSN", "荷兰 BSN", g.nl_bsn),
        ("national_id_no", "fødselsnummer", "挪威出生号码", g.no_fnr),
        ("national_id_dk", "CPR-nummer", "丹麦 CPR 号", g.dk_cpr),
        ("national_id_pl", "PESEL", "波兰 PESEL", g.pl_pesel),
        ("national_id_cl", "RUT", "智利 RUT", g.cl_rut),
        ("national_id_ch", "AHV-Nummer", "瑞士社保号", g.ch_ahv),
        ("national_id_za", "ID number", "南非身份证号", g.za_id),
    ]
    en_forms: list[Callable[[str, str, str], tuple[str, str, bool, str]]] = [
        lambda n, lab, v: (
            "document",
            False,
            f"Applicant: {n}\nDate of birth: {dob()}\n{lab}: {v}\nStatus: pending verification",
        ),
        lambda n, lab, v: (
            "user",
            True,
            f"For the tax form, my {lab} is {v} — can you fill it in for me?",
        ),
        lambda n, lab, v: (
            "tool",
            True,
            json.dumps(
                {"customer": n, "kyc": {"doc_type": lab, "number": v}, "verified": False},
                ensure_ascii=False,
            ),
        ),
        lambda n, lab, v: (
            "document",
            True,
            f"name,{lab.split(' ')[0].lower()},city\n{n},{v},{g.pick(['Malmö', 'Porto', 'Leeds', 'Graz', 'Tampere'])}",
        ),
        lambda n, lab, v: (
            "agent",
            True,
            f"Noted from the onboarding call: {n} ({lab} {v}) starts on the 14th.",
        ),
    ]
    zh_forms: list[Callable[[str, str, str], tuple[str, str, bool, str]]] = [
        lambda n, lab, v: ("user", True, f"帮我填一下表，我的{lab}是 {v}。"),
        lambda n, lab, v: ("document", True, f"员工入职登记：{n}，{lab} {v}，入职日期下周一。"),
        lambda n, lab, v: (
            "tool",
            True,
            json.dumps({"姓名": n, "证件类型": lab, "证件号": v}, ensure_ascii=False),
        ),
    ]
    for i, (family, lab_en, lab_zh, make) in enumerate(ids):
        src, hard, text = en_forms[i % len(en_forms)](person(), lab_en, make())
        add(family, src, hard, f"{lab_en} with label", text)
        if i % 2 == 0:
            src, hard, text = zh_forms[i % len(zh_forms)](g.name_zh(), lab_zh, make())
            add(family, src, hard, f"{lab_en}, Chinese context", text)
        else:
            src, hard, text = en_forms[(i + 2) % len(en_forms)](person(), lab_en, make())
            add(family, src, hard, f"{lab_en}, second form", text)
    # China resident ID, several shapes
    add(
        "national_id_cn",
        "user",
        False,
        "身份证号 in prose",
        f"我的身份证号是 {g.cn_ric()}，帮我记住，订票要用。",
    )
    add(
        "national_id_cn",
        "tool",
        True,
        "ric in json",
        json.dumps(
            {"name": g.name_zh(), "id_card": g.cn_ric(), "mobile": g.phone("CN", "e164")},
            ensure_ascii=False,
        ),
    )
    add(
        "national_id_cn",
        "document",
        True,
        "ric in csv",
        "姓名,身份证,部门\n"
        + "\n".join(
            f"{g.name_zh()},{g.cn_ric()},{g.pick(['财务部', '研发部', '市场部'])}" for _ in range(3)
        ),
    )
    add(
        "national_id_cn",
        "document",
        True,
        "ric spaced",
        f"乘机人：{g.name_zh()}  证件：身份证 {' '.join([(v := g.cn_ric())[:6], v[6:14], v[14:]])}",
    )
    add(
        "national_id_us_ssn",
        "document",
        True,
        "ssn without dashes",
        f"W-4 draft for {person()}: SSN {g.us_ssn().replace('-', '')}, filing status single",
    )
    # passports
    for cc, zh in (
        ("US", False),
        ("CN", True),
        ("DE", False),
        ("IN", False),
        ("JP", True),
        ("GB", False),
        ("KR", True),
    ):
        n = g.name_zh() if zh else person()
        num = g.passport(cc)
        if zh:
            text = f"{n}的护照号 {num}，有效期至 20{g.n(28, 35)} 年，订机票时用。"
        else:
            text = g.pick(
                [
                    f"Passport no. {num} ({cc}), holder {n}, expires 20{g.n(28, 35)}-0{g.n(1, 9)}-1{g.n(0, 9)}.",
                    f"Travel booking: {n}, DOB {dob()}, passport {num}, nationality {cc}",
                    f"Visa letter draft — the applicant {n} holds passport number {num}.",
                ]
            )
        add("passport", g.pick(["user", "document", "tool"]), True, f"passport {cc}", text)
    # driver's licences
    add(
        "drivers_license",
        "document",
        True,
        "california DL",
        f"Rental agreement: driver {person()}, CA DL {g.pick('ABCDEFGHJK')}{g.digits(7)}, exp 2029",
    )
    add(
        "drivers_license",
        "tool",
        True,
        "UK DVLA licence number",
        json.dumps(
            {
                "driver": person(),
                "licence_number": f"{g.chars('ABCDEFGHJKLMNPRSTW', 5)}{g.digits(6)}{g.chars('ABCDEFGHJK', 2)}9{g.chars('ABCDEFGHJK', 2)}",
                "points": 0,
            }
        ),
    )
    add(
        "drivers_license",
        "user",
        True,
        "驾驶证 zh",
        f"我的驾驶证档案编号是 {g.digits(12)}，证号就是身份证号 {g.cn_ric()}。",
    )
    add(
        "drivers_license",
        "document",
        True,
        "NY DL in insurance claim",
        f"Claim #{g.digits(7)} — insured {person()}, NY driver license {g.digits(3)} {g.digits(3)} {g.digits(3)}, DOB {dob()}",
    )
    add(
        "drivers_license",
        "document",
        True,
        "Ontario licence",
        f"Ontario driver's licence: {g.pick('ABCDEFGHJK')}{g.digits(4)}-{g.digits(5)}-{g.digits(5)} ({person()})",
    )
    # bank accounts / IBANs
    for cc in ("DE", "NL", "GB", "CH", "PL"):
        n = person()
        add(
            "bank_iban",
            g.pick(["document", "tool", "user"]),
            cc in ("GB", "PL"),
            f"IBAN {cc} near label",
            g.pick(
                [
                    f"Please pay the invoice to {n}, IBAN {g.iban(cc)}, reference INV-{g.digits(5)}.",
                    f"Beneficiary: {n}\nIBAN: {g.iban(cc)}\nBIC: {g.upper_alnum(8)}",
                    f"Refund account for {n}: {g.iban(cc)}",
                ]
            ),
        )
    add(
        "bank_iban",
        "user",
        True,
        "IBAN zh",
        f"房东的收款账户：{g.name_zh()}，IBAN {g.iban('AT')}，每月 5 号前转。",
    )
    add(
        "bank_account_us",
        "document",
        True,
        "US routing + account",
        f"Direct deposit form — {person()}\nRouting number: 0{g.digits(8)}\nAccount number: {g.digits(10)}\nAccount type: checking",
    )
    add(
        "bank_card_zh",
        "user",
        True,
        "银行卡号 zh",
        f"工资卡卡号 {g.card()}，开户行招商银行{g.pick(['深圳', '杭州', '成都'])}分行，户名{g.name_zh()}。",
    )
    add(
        "bank_card",
        "tool",
        True,
        "card number in order export",
        f"order_id,name,card,exp\n{g.digits(8)},{person()},{g.card()},0{g.n(1, 9)}/2{g.n(7, 9)}",
    )
    # phones
    regions = [
        "US",
        "GB",
        "DE",
        "FR",
        "CN",
        "JP",
        "IN",
        "BR",
        "AU",
        "KR",
        "SE",
        "ES",
        "IT",
        "HK",
        "TW",
        "SG",
        "MX",
        "NL",
        "TR",
        "CA",
    ]
    fmts = ["intl", "e164", "national", "rfc3966", "dotted", "00"]
    for i in range(4):
        rows = [f"{person()}: {g.phone(g.pick(regions), g.pick(fmts))}" for _ in range(g.n(3, 5))]
        add(
            "phone_list",
            g.pick(["document", "tool"]),
            i % 2 == 1,
            "phone list, mixed formats",
            "On-call contacts\n" + "\n".join(rows),
        )
    add(
        "phone_list",
        "tool",
        True,
        "phones in json",
        json.dumps(
            {
                "contacts": [
                    {"name": person(), "tel": g.phone(r, "e164")} for r in ("DE", "FR", "ES")
                ]
            }
        ),
    )
    add(
        "phone_list",
        "document",
        True,
        "phones csv",
        "name,mobile\n"
        + "\n".join(f"{person()},{g.phone(r, 'national')}" for r in ("US", "GB", "AU")),
    )
    add(
        "phone_list_zh",
        "document",
        True,
        "通讯录 zh",
        "值班通讯录：\n"
        + "\n".join(
            f"{g.name_zh()} {g.phone('CN', g.pick(['national', 'intl']))}" for _ in range(4)
        ),
    )
    add(
        "phone_prose_zh",
        "user",
        True,
        "手机号 prose zh",
        f"我妈的手机号是{g.phone('CN', 'national').replace(' ', '')}，快递到了让他们打这个。",
    )
    add(
        "phone_prose_zh",
        "user",
        True,
        "香港/台湾电话 zh",
        f"香港同事 {g.name_zh()} 电话 {g.phone('HK', 'intl')}，台北办公室 {g.phone('TW', 'intl')}。",
    )
    add(
        "phone_prose",
        "user",
        True,
        "phone in prose",
        f"Call my dentist at {g.phone('US', 'national')} to move the appointment; my name there is {person()}.",
    )
    add(
        "phone_prose",
        "document",
        True,
        "phone in signature",
        f"--\n{person()}\nHead of Partnerships\nm: {g.phone('SE', 'intl')}\nt: {g.phone('NL', 'dotted')}",
    )
    # address + name + DOB
    add(
        "customer_record",
        "tool",
        True,
        "customer json",
        json.dumps(
            {
                "name": person(),
                "dob": dob(),
                "address": f"{g.n(1, 220)} {g.pick(['Larch', 'Quarry', 'Mill'])} Lane, Flat {g.n(1, 9)}, Bristol BS{g.n(1, 9)} {g.n(1, 9)}{g.pick('ABDEFG')}{g.pick('HJLNPQ')}",
                "phone": g.phone("GB", "intl"),
            }
        ),
    )
    add(
        "customer_record",
        "document",
        True,
        "address + DOB prose",
        f"Delivery for {person()} (born {dob()}), {g.n(10, 999)} Kestrel Avenue, Apt {g.n(2, 40)}, Portland OR 97{g.digits(3)}. Leave with the neighbour.",
    )
    add(
        "customer_record",
        "user",
        True,
        "住址 + 生日 zh",
        f"{g.name_zh()}，{g.n(1970, 2000)}年{g.n(1, 12)}月{g.n(1, 28)}日出生，住址：浙江省杭州市西湖区{g.pick(['文三路', '教工路', '古墩路'])}{g.n(10, 500)}号{g.n(1, 20)}幢{g.n(101, 2405)}室，电话 {g.phone('CN', 'national')}。",
    )
    add(
        "customer_record",
        "document",
        True,
        "HR record CSV",
        "employee_id,name,dob,home_address\n"
        + "\n".join(
            f'E{g.digits(5)},{person()},{dob()},"{g.n(1, 99)} {g.pick(["Rue Saint-Rémy", "Calle Mayor", "Hauptstraße"])}, {g.pick(["Lyon", "Madrid", "Köln"])}"'
            for _ in range(3)
        ),
    )
    add(
        "customer_record",
        "tool",
        True,
        "CRM export zh",
        json.dumps(
            {
                "客户": g.name_zh(),
                "生日": dob(),
                "地址": f"上海市浦东新区张江路{g.n(1, 999)}弄{g.n(1, 30)}号",
                "手机": g.phone("CN", "e164"),
            },
            ensure_ascii=False,
        ),
    )
    add(
        "customer_record",
        "agent",
        True,
        "agent memory of user's family",
        f"User's daughter {person().split()[0]} was born {dob()}; they live at {g.n(1, 90)} Heron Close, Cambridge CB{g.n(1, 5)} {g.n(1, 9)}QT.",
    )
    # medical
    add(
        "medical_note",
        "document",
        True,
        "clinic note",
        f"Patient: {person()}, DOB {dob()}\nDx: type 2 diabetes, HbA1c 8.1%. Started metformin 500 mg BID. Follow-up in 6 weeks.",
    )
    add(
        "medical_note",
        "user",
        True,
        "health detail about a named colleague",
        f"Keep in mind that {person()} from accounting is undergoing chemotherapy, so schedule her meetings before noon.",
    )
    add(
        "medical_note",
        "document",
        True,
        "病历 zh",
        f"门诊记录：患者{g.name_zh()}，女，{g.n(25, 70)}岁，诊断：抑郁症（中度），处方：舍曲林 50mg 每日一次，身份证 {g.cn_ric()}。",
    )
    add(
        "medical_note",
        "tool",
        True,
        "lab result json",
        json.dumps(
            {
                "patient": person(),
                "mrn": f"MRN{g.digits(7)}",
                "test": "HIV-1/2 Ag/Ab",
                "result": "reactive",
                "dob": dob(),
            }
        ),
    )
    add(
        "medical_note",
        "agent",
        True,
        "体检结果 zh",
        f"同事{g.name_zh()}的体检报告显示乙肝表面抗原阳性，他让我别告诉别人，电话 {g.phone('CN', 'national')}。",
    )
    add(
        "medical_note",
        "document",
        True,
        "insurance claim with diagnosis",
        f"Claim for {person()} (member ID {g.upper_alnum(3)}{g.digits(9)}): ICD-10 F41.1 generalised anxiety disorder, 8 sessions of CBT.",
    )
    # internationalised e-mail
    add(
        "idn_email",
        "user",
        True,
        "IDN email zh",
        f"新客户联系人：{g.name_zh()}，邮箱 {g.pick(['张伟', '王芳', '李娜'])}@公司.测试，手机 {g.phone('CN', 'intl')}。",
    )
    add(
        "idn_email",
        "document",
        True,
        "IDN email ja",
        f"担当者: {g.pick(['山田花子', '佐藤健', '鈴木一郎'])} <{g.pick(['やまだ', 'さとう'])}@例え.テスト>, 電話 {g.phone('JP', 'national')}",
    )
    add(
        "idn_email",
        "tool",
        True,
        "IDN email ru",
        json.dumps(
            {
                "name": g.pick(["Иван Петров", "Ольга Смирнова"]),
                "email": "ivan@пример.испытание",
                "phone": g.phone("DE", "intl"),
            },
            ensure_ascii=False,
        ),
    )
    add(
        "idn_email",
        "document",
        True,
        "unicode local part + DOB",
        f"Contact: José Ñúñez-{g.pick(LAST := ['Oyarzún', 'Ibáñez'])} <josé.ñúñez@correo.example>, DOB {dob()}, cédula {g.es_dni()}",
    )
    add(
        "idn_email",
        "user",
        True,
        "IDN email with address",
        f"请寄到：{g.name_zh()}，北京市海淀区中关村南大街{g.n(1, 99)}号，联系邮箱 联系人@例子.测试",
    )
    del LAST


def build_extra(book: Book) -> None:
    """Second batch (own generator, appended): public pages that leak."""
    g = book.gen("secret-pii-extra")
    book.add(
        "text",
        "secret",
        "github_token",
        "web",
        True,
        "token in a forum question",
        '<div class="post"><h3>Why does my push fail with 403?</h3><pre>git push https://'
        f"{g.gh_pat()}@git.{g.word()}.example/me/app.git</pre><p>Any idea? Thanks!</p></div>",
    )
    book.add(
        "text",
        "secret",
        "openai_key",
        "web",
        True,
        "key in a paste page",
        f'Paste #{g.alnum(8)} (public, expires never)\n\nimport openai\nclient = openai.OpenAI(api_key="{g.openai()}")\nprint(client.models.list())',
    )
    book.add(
        "text",
        "secret",
        "aws_keypair",
        "web",
        True,
        "keys in a blog code block zh",
        f"<article><h2>十分钟搭好 S3 上传</h2><pre>aws configure set aws_access_key_id {g.aws_key_id()}\naws configure set aws_secret_access_key {g.aws_secret()}</pre><p>按上面配置好即可。</p></article>",
    )
    book.add(
        "text",
        "secret",
        "stripe_key",
        "web",
        True,
        "key in scraped JS bundle",
        f'!function(){{var e={{env:"production",stripeSecret:"{g.stripe()}",apiBase:"/api"}};window.__CFG__=e}}();',
    )
    book.add(
        "text",
        "pii",
        "customer_record",
        "web",
        True,
        "leaked member list page",
        "<table><tr><th>Member</th><th>Phone</th><th>DOB</th></tr>"
        + "".join(
            f"<tr><td>{g.name_en()}</td><td>{g.phone(r, 'intl')}</td><td>{g.n(1960, 2001)}-0{g.n(1, 9)}-1{g.n(0, 9)}</td></tr>"
            for r in ("GB", "NL", "DE")
        )
        + "</table>",
    )
    book.add(
        "text",
        "pii",
        "national_id_cn",
        "web",
        True,
        "ID in a public forum post zh",
        f'<div class="reply">楼主你好，我的信息是：{g.name_zh()}，身份证 {g.cn_ric()}，电话 {g.phone("CN", "national")}，麻烦帮忙查一下订单。</div>',
    )
    book.add(
        "text",
        "pii",
        "national_id_us_ssn",
        "web",
        True,
        "SSN in a public Q&A",
        f"Q: My employer asked for my SSN by e-mail, is that normal? I already sent it ({g.us_ssn()}) along with my address, {g.n(10, 999)} Birch Street, Columbus OH.",
    )
    book.add(
        "text",
        "pii",
        "bank_iban",
        "web",
        True,
        "IBAN on a public fundraiser page",
        f"<p>Donations for {g.name_en()}'s surgery can go to IBAN {g.iban('DE')} (account holder: {g.name_en()}).</p>",
    )
    book.add(
        "text",
        "pii",
        "national_id_kr",
        "web",
        True,
        "RRN in scraped page",
        f"<li>신청자: {g.pick(['김민준', '이서연', '박지호'])} / 주민등록번호 {g.kr_rrn()} / 연락처 {g.phone('KR', 'national')}</li>",
    )


def build(book: Book) -> None:
    build_secrets(book)
    build_pii(book)
    build_extra(book)
