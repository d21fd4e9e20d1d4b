# ruff: noqa: E501  (hand-written case texts and vendor shapes are data, one per line)
"""Secrets in many formats and languages: vendor tokens in the shape of each
format (random, never real), private keys, connection strings, passwords in
config files, code defaults and prose (EN and ZH), tokens split over log lines,
escaped JSON, removed diff lines and chat messages."""

from __future__ import annotations

import base64
import json

import h5carriers as c
from h5core import ALNUM, DIGITS, HEX, Gen, cred, jwt_like, pem_body


def build(g: Gen) -> None:
    def add(family: str, source: str, text: str, note: str, hard: bool = True) -> None:
        g.add("text", "secret", family, source, text, note, hard)

    k = lambda kind: cred(g, kind)  # noqa: E731

    # ---------------- vendor tokens in carriers
    add(
        "github_token",
        "user",
        f"here's my token for the release script, keep it handy: {k('github_pat')}",
        "ghp_ in a user message",
        False,
    )
    add(
        "github_token",
        "tool",
        c.log_lines(
            g,
            [
                f"DEBUG git: remote url https://x-access-token:{k('github_fine')}@git.example.com/org/app.git",
                "INFO git: fetch ok",
            ],
        ),
        "fine-grained PAT in a remote URL log",
    )
    add(
        "gitlab_token",
        "document",
        f'# .gitlab-ci.yml\nvariables:\n  RELEASE_TOKEN: "{k("gitlab")}"\nrelease:\n  script: ./release.sh',
        "glpat in CI variables",
    )
    add(
        "slack_token",
        "agent",
        f"Slack bot for the standup reminders is set up; token {k('slack_bot')} goes in the bot config.",
        "xoxb in an agent note",
    )
    add(
        "slack_webhook",
        "tool",
        c.tool_json(g, "config.read", f"alerts.webhook = {k('slack_webhook')}"),
        "Slack webhook URL in tool output",
    )
    add(
        "aws_keypair",
        "document",
        f"[default]\naws_access_key_id = {k('aws_id')}\naws_secret_access_key = {k('aws_secret')}\nregion = eu-west-1",
        "AWS credentials file",
    )
    add(
        "aws_session",
        "tool",
        json.dumps(
            {
                "Credentials": {
                    "AccessKeyId": k("aws_sts"),
                    "SecretAccessKey": k("aws_secret"),
                    "SessionToken": base64.b64encode(
                        bytes(g.num(0, 255) for _ in range(120))
                    ).decode(),
                    "Expiration": "2026-12-07T18:00:00Z",
                }
            },
            indent=2,
        ),
        "STS assume-role output",
    )
    add(
        "stripe_key",
        "agent",
        f"Payment config for the shop: STRIPE_SECRET_KEY={k('stripe')} (live mode).",
        "Stripe live key",
    )
    add(
        "openai_key", "user", f"用这个 key 跑一下评测脚本：{k('openai')}", "ZH OpenAI key from user"
    )
    add(
        "anthropic_key",
        "document",
        f'client = anthropic.Anthropic(api_key="{k("anthropic")}")',
        "Anthropic key in code",
    )
    add(
        "google_api_key",
        "web",
        f'<script>const MAPS_KEY = "{k("google")}";</script>',
        "Google API key in a page",
    )
    add(
        "groq_key",
        "agent",
        f"Switched the summariser to Groq. Key: {k('groq')}",
        "Groq key in agent note",
    )
    add(
        "replicate_token",
        "tool",
        c.log_lines(g, [f"INFO env REPLICATE_API_TOKEN={k('replicate')}", "INFO model warmed up"]),
        "Replicate token in env dump log",
    )
    add(
        "deepseek_key",
        "user",
        f"DeepSeek 的接口密钥是 {k('deepseek')}，帮我配到 .env 里。",
        "ZH DeepSeek key",
    )
    add(
        "moonshot_key",
        "agent",
        f"记录：Kimi 接口 MOONSHOT_API_KEY={k('moonshot')}，额度每月 500 元。",
        "ZH Moonshot key",
    )
    add(
        "zhipu_key",
        "tool",
        c.tool_json(g, "config.read", f"zhipuai.api_key: {k('zhipu')}"),
        "Zhipu key",
    )
    add(
        "airtable_pat",
        "document",
        f'curl https://api.example.com/v0/base/tbl -H "Authorization: Bearer {k("airtable")}"',
        "Airtable-shaped PAT in a curl example",
    )
    add("asana_pat", "agent", f"Asana PAT for the sync job: {k('asana')}", "Asana PAT")
    add(
        "figma_token",
        "user",
        f"figma token {k('figma')} — use it to export the icons",
        "Figma token",
        False,
    )
    add(
        "hubspot_token",
        "tool",
        c.tool_json(g, "secrets.list", f"HUBSPOT_PRIVATE_APP_TOKEN={k('hubspot')}"),
        "HubSpot token",
    )
    add(
        "sonar_token",
        "document",
        f"sonar.login={k('sonar')}\nsonar.host.url=https://sonar.example.internal",
        "SonarQube token in properties",
    )
    add(
        "new_relic_key",
        "document",
        f"newrelic:\n  license_key: ''\n  api_key: {k('new_relic')}",
        "New Relic key in YAML",
    )
    add(
        "planetscale_password",
        "agent",
        f"DATABASE_URL=mysql://app:{k('planetscale')}@aws.connect.example.internal/shop?sslaccept=strict",
        "PlanetScale-shaped password in URL",
    )
    add("firebase_fcm", "document", f"FCM_SERVER_KEY={k('firebase_fcm')}", "FCM server key")
    add(
        "azure_sas",
        "tool",
        f"https://acmestore.blob.core.example.net/backups?sv=2023-11-03&ss=b&srt=co&sp=rwdl&se=2027-01-01T00:00:00Z&sig={k('sas')}",
        "Azure SAS URL",
    )
    add(
        "azure_client_secret",
        "document",
        f"AZURE_TENANT_ID={g.s(HEX, 8)}-{g.s(HEX, 4)}-{g.s(HEX, 4)}-{g.s(HEX, 4)}-{g.s(HEX, 12)}\nAZURE_CLIENT_SECRET={k('azure_client')}",
        "Azure client secret",
    )
    add(
        "jfrog_token",
        "tool",
        c.log_lines(
            g, [f"npm notice //artifactory.example.internal/api/npm/:_authToken={k('jfrog')}"]
        ),
        "JFrog token in npm notice",
    )
    add(
        "npm_token",
        "document",
        f"# .npmrc\n//registry.example.internal/:_authToken={k('npm')}\nalways-auth=true",
        "npm token in .npmrc",
    )
    add(
        "pypi_token",
        "document",
        f"[pypi]\n  username = __token__\n  password = {k('pypi')}",
        "PyPI token in .pypirc",
    )
    add("hf_token", "user", f"HF token: {k('hf')} (read-only, but still)", "HF token", False)
    add(
        "docker_auth",
        "document",
        json.dumps(
            {
                "auths": {
                    "registry.example.internal": {
                        "auth": base64.b64encode(f"deploy:{k('password')}".encode()).decode()
                    }
                }
            },
            indent=2,
        ),
        "docker config auth base64 user:pass",
    )
    add(
        "vault_token",
        "tool",
        f"$ vault login -method=userpass username=ci\nSuccess! You are now authenticated.\ntoken            {k('vault')}\ntoken_duration   768h",
        "vault login output",
    )
    add(
        "twilio",
        "agent",
        f"Twilio for SMS alerts: account {k('twilio_sid')}, API key {k('twilio_key')}, secret {g.s(ALNUM, 32)}.",
        "Twilio SID, key and secret",
    )
    add("sendgrid", "document", f"SENDGRID_API_KEY='{k('sendgrid')}'", "SendGrid key")
    add(
        "telegram_bot",
        "user",
        f"bot token for the home-automation bot: {k('telegram')}",
        "Telegram bot token",
        False,
    )
    add(
        "digitalocean",
        "tool",
        c.tool_json(g, "shell.history", f"doctl auth init -t {k('digitalocean')}"),
        "DO token in shell history",
    )
    add(
        "databricks",
        "agent",
        f"数据平台访问令牌（个人）：{k('databricks')}，有效期 90 天。",
        "ZH Databricks token",
    )
    add(
        "grafana",
        "document",
        f"GF_SECURITY_ADMIN_PASSWORD=admin\nGRAFANA_SA_TOKEN={k('grafana')}",
        "Grafana SA token",
    )
    add(
        "sentry",
        "tool",
        c.log_lines(g, [f"INFO sentry-cli: using auth token {k('sentry_user')}"]),
        "Sentry user token in log",
    )
    add("linear", "user", f"linear api key {k('linear')} for the triage bot", "Linear key", False)
    add("notion", "agent", f"Notion integration secret: {k('notion')}", "Notion secret")
    add(
        "shopify",
        "tool",
        c.tool_json(g, "env.show", f"SHOPIFY_ADMIN_TOKEN={k('shopify')}"),
        "Shopify token",
    )
    add(
        "aliyun",
        "user",
        f"阿里云 AccessKey ID：{k('aliyun_id')}\nAccessKey Secret：{k('aliyun_secret')}\n这是 OSS 上传用的。",
        "ZH Aliyun AK/SK",
    )
    add(
        "tencent_cloud",
        "document",
        f'SecretId = "{k("tencent_id")}"\nSecretKey = "{k("tencent_key")}"',
        "Tencent SecretId/Key",
    )
    add(
        "qiniu",
        "agent",
        f"七牛云上传凭证：AK={k('qiniu_ak')}，SK={k('qiniu_ak')[::-1]}",
        "ZH Qiniu AK/SK",
    )
    add(
        "wecom_secret",
        "tool",
        c.tool_json(g, "config.read", f"企业微信应用 corpsecret：{k('wecom_secret')}", "text"),
        "ZH WeCom corpsecret",
    )
    add(
        "dingtalk_secret",
        "user",
        f"钉钉机器人加签密钥 {k('dingtalk_sec')}，webhook 我稍后发你。",
        "ZH DingTalk SEC",
    )
    add(
        "totp_seed",
        "user",
        f"otpauth://totp/Acme:ops@example.com?secret={k('totp')}&issuer=Acme",
        "TOTP seed URI",
    )
    add(
        "jwt",
        "tool",
        c.log_lines(
            g,
            [
                f"DEBUG http: Authorization: Bearer {jwt_like(g, json.dumps({'sub': 'svc-billing', 'role': 'admin', 'exp': 1893456000}))}"
            ],
        ),
        "JWT bearer in debug log",
    )
    add(
        "pem_private_key",
        "document",
        f"-----BEGIN OPENSSH PRIVATE KEY-----\n{pem_body(g, 7)}\n-----END OPENSSH PRIVATE KEY-----",
        "OpenSSH private key",
    )
    add(
        "pem_in_code",
        "agent",
        'PRIVATE_KEY = (\n    "-----BEGIN PRIVATE KEY-----\\n"\n'
        + "".join(f'    "{g.s(ALNUM + "+/", 64)}\\n"\n' for _ in range(5))
        + '    "-----END PRIVATE KEY-----\\n"\n)',
        "PEM body in Python string literals",
    )
    add(
        "pem_escaped_json",
        "tool",
        json.dumps(
            {
                "type": "service_account",
                "private_key_id": k("gcp_key_id"),
                "private_key": "-----BEGIN PRIVATE KEY-----\n"
                + pem_body(g, 4)
                + "\n-----END PRIVATE KEY-----\n",
                "client_email": "svc@project.iam.example.internal",
            }
        ),
        "GCP service account JSON",
    )
    add(
        "connection_string",
        "agent",
        f"Reporting DB: postgresql://report_rw:{k('password')}@10.20.1.14:5432/reports",
        "postgres URL with password",
    )
    add(
        "connection_string",
        "document",
        f"spring.datasource.url=jdbc:sqlserver://db.example.internal:1433;databaseName=erp;user=erp_app;password={k('password')}",
        "JDBC with password",
    )
    add(
        "connection_string",
        "tool",
        f"REDIS_URL=rediss://default:{g.s(ALNUM, 32)}@cache.example.internal:6380/0",
        "redis URL with password",
    )
    add(
        "password_xml",
        "document",
        f'<connectionStrings>\n  <add name="Main" connectionString="Server=sql01;Database=Crm;User Id=crm;Password={k("password")};" />\n</connectionStrings>',
        "password in web.config",
    )
    add(
        "password_properties",
        "document",
        f"mail.smtp.host=smtp.example.internal\nmail.smtp.user=noreply\nmail.smtp.password={k('password')}",
        "SMTP password in properties",
    )
    add(
        "password_k8s_spec",
        "document",
        f'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\nstringData:\n  username: app\n  password: "{k("password")}"',
        "k8s Secret stringData",
    )
    add(
        "getenv_default",
        "agent",
        f'DB_PASS = os.getenv("DB_PASS", "{k("password")}")',
        "getenv default password",
    )
    add(
        "getenv_default",
        "document",
        f"const apiKey = process.env.PAYMENTS_KEY ?? '{k('stripe_rk')}';",
        "env fallback to a restricted key",
    )
    add(
        "pgpass",
        "user",
        f"my ~/.pgpass line: db.example.internal:5432:*:analyst:{k('password')}",
        ".pgpass line",
        False,
    )
    add(
        "htpasswd_ldap",
        "document",
        f"ldap:\n  url: ldaps://ldap.example.internal\n  bind_dn: cn=svc-wiki,ou=svc,dc=example,dc=internal\n  bind_password: {k('password')}",
        "LDAP bind password",
    )
    add(
        "split_lines",
        "tool",
        (
            lambda t: c.log_lines(
                g,
                [
                    f"WARN retry auth token part 1/2: {t[:22]}",
                    f"WARN retry auth token part 2/2: {t[22:]}",
                    "INFO giving up after 3 retries",
                ],
            )
        )(k("github_pat")),
        "token split over two log lines",
    )
    add(
        "escaped_json_log",
        "tool",
        '{"level":"debug","msg":"request","body":"{\\"client_id\\":\\"web\\",\\"client_secret\\":\\"'
        + g.s(ALNUM, 40)
        + '\\"}"}',
        "client_secret in escaped JSON",
    )
    add(
        "removed_diff_line",
        "tool",
        f"diff --git a/config/prod.env b/config/prod.env\n@@ -3,3 +3,3 @@\n-MAILGUN_API_KEY={k('mailgun')}\n+MAILGUN_API_KEY=${{MAILGUN_API_KEY}}\n SENDER=noreply@example.com",
        "key in a removed diff line",
    )
    add(
        "basic_auth_header",
        "tool",
        f"curl -s https://api.example.com/v2/export -H 'Authorization: Basic {base64.b64encode(f'export-bot:{k("password")}'.encode()).decode()}'",
        "Basic auth header",
    )
    add(
        "cookie_session",
        "tool",
        f"Set-Cookie: sessionid={g.s(ALNUM, 48)}; Path=/; HttpOnly; Secure\nSet-Cookie: csrftoken={g.s(ALNUM, 32)}",
        "session cookie",
    )
    add(
        "password_prose",
        "user",
        f"The router admin login is admin and the password is {k('password')} — don't lose it again.",
        "password in prose",
        False,
    )
    add(
        "password_prose",
        "agent",
        f"Note for next time: the NAS web UI uses user 'backup' with password {k('password')}.",
        "password in agent note",
    )
    add(
        "password_prose",
        "tool",
        c.chat(
            g,
            [
                ("kira", "what's the staging admin pw again?"),
                ("tomas", f"{k('password')} — rotate it after the demo"),
            ],
        ),
        "password in chat",
    )
    add(
        "password_prose_zh",
        "user",
        f"公司邮箱的密码是 {k('password')}，下次登录帮我填一下。",
        "ZH email password",
        False,
    )
    add(
        "password_prose_zh",
        "agent",
        f"记录：测试服务器 root 口令：{k('password')}，仅限内网使用。",
        "ZH root passphrase",
    )
    add(
        "password_prose_zh",
        "tool",
        c.chat(
            g,
            [
                ("小周", "堡垒机密码多少来着"),
                ("老马", f"账号 ops，密码 {k('password')}，用完记得改"),
            ],
        ),
        "ZH chat password",
    )
    add(
        "password_prose_zh",
        "document",
        c.email_zh(
            g,
            f"您好，贵司的 VPN 账号已开通：\n账号：vendor_li\n初始密码：{k('password')}\n首次登录后请修改。",
            "VPN 账号开通",
        ),
        "ZH e-mail with initial password",
    )
    add(
        "password_prose_zh",
        "user",
        f"银行 App 登录密码改成了 {g.s(DIGITS, 6)}{g.s(ALNUM, 3)}，支付密码还是原来那个，你帮我记一下新的。",
        "ZH bank app password",
    )
    add(
        "wifi_password",
        "user",
        f"家里 Wi-Fi：名称 HOME-5G，密码 {k('password')}",
        "ZH Wi-Fi password",
        False,
    )
    add(
        "wifi_password",
        "document",
        f"Guest Wi-Fi for the offsite: SSID Offsite-2026, WPA2 passphrase {g.s(ALNUM, 12)}.",
        "Wi-Fi passphrase in a doc",
    )
    add(
        "password_prose_zh",
        "tool",
        c.ticket(
            g,
            "数据库账号交接",
            f"生产库只读账号 readonly，密码 {k('password')}；写账号请找 DBA 单独申请。",
            zh=True,
        ),
        "ZH ticket password",
    )
    add(
        "aws_keypair",
        "user",
        f"AWS 的 key：{k('aws_id')} / {k('aws_secret')}，先用着，下周换。",
        "ZH AWS pair from user",
    )
    add(
        "password_prose_zh",
        "agent",
        f"服务器交接说明：跳板机 jump.example.internal，用户名 admin，密码 {k('password')}；数据库密码和这个一样。",
        "ZH handover note with password",
    )
    add(
        "feishu_secret",
        "tool",
        c.tool_json(
            g,
            "config.read",
            f"飞书应用 App ID：cli_{g.s(HEX, 16)}，App Secret：{k('feishu_secret')}",
            "text",
        ),
        "ZH Feishu app secret",
    )
    add(
        "wechat_secret",
        "document",
        f"微信公众号开发配置：AppID wx{g.s(HEX, 16)}，AppSecret {k('wechat_secret')}，请勿外传。",
        "ZH WeChat AppSecret",
    )
    add(
        "huawei_cloud",
        "user",
        f"华为云 AK：{k('huawei_ak')}，SK：{k('huawei_sk')}，OBS 桶上传用。",
        "ZH Huawei AK/SK",
    )
