# ruff: noqa: E501 - hand-written item texts and shape tables are kept on one line each
"""Secrets: credentials of many vendors in realistic carriers. Every value is drawn at
run time from the part's seeded RNG in the vendor's shape; none is a real key."""

from __future__ import annotations

import json

from h3carriers import chat, email, ticket, tool_json
from h3core import Gen, jwt, pem_body, rs, token

L = "secret"


def build() -> Gen:
    g = Gen("secret", "text")
    r = g.rng
    t = lambda k: token(r, k)  # noqa: E731
    add = g.add

    add(
        L,
        "github_token",
        "user",
        False,
        "GitHub classic PAT in a note",
        f"Remember my GitHub token for the release script: {t('github_pat')}",
    )
    add(
        L,
        "github_token",
        "tool",
        True,
        "fine-grained PAT in CI log (ZH lead-in)",
        f"CI 日志里看到的，先记一下：\n+ git clone https://x-access-token:{t('github_fine')}@git.example.com/acme/api.git",
    )
    add(
        L,
        "gitlab_token",
        "document",
        True,
        "GitLab PAT in .netrc-like snippet",
        f"machine gitlab.corp.example\n  login deploy-bot\n  password {t('gitlab')}",
    )
    add(
        L,
        "slack_token",
        "agent",
        False,
        "Slack bot token saved by agent",
        f"Saved for later: the notifier uses SLACK_BOT_TOKEN={t('slack_bot')} in the staging workspace.",
    )
    add(
        L,
        "stripe_key",
        "tool",
        True,
        "Stripe live key in escaped JSON log",
        json.dumps(
            {
                "level": "error",
                "msg": json.dumps({"config": {"stripe": {"secret": t("stripe_live")}}}),
            }
        ),
    )
    add(
        L,
        "stripe_key",
        "user",
        True,
        "Stripe restricted key ZH prose",
        f"支付那边的受限密钥是 {t('stripe_restricted')} ，只给对账脚本用，记住它。",
    )
    add(
        L,
        "aws_keypair",
        "document",
        False,
        "AWS credentials file",
        f"[default]\naws_access_key_id = {t('aws_id')}\naws_secret_access_key = {t('aws_secret')}\nregion = eu-west-1",
    )
    add(
        L,
        "aws_keypair",
        "agent",
        True,
        "AWS pair in ZH handover note",
        f"交接说明：备份桶的访问密钥 ID {t('aws_id')}，私有访问密钥 {t('aws_secret')}，周一前别轮换。",
    )
    add(
        L,
        "openai_key",
        "tool",
        True,
        "OpenAI project key in shell history",
        f"  501  export OPENAI_API_KEY={t('openai')}\n  502  python eval.py --model small",
    )
    add(
        L,
        "anthropic_key",
        "document",
        True,
        "Anthropic key in Python default",
        f'import os\nclient_key = os.getenv("ANTHROPIC_API_KEY", "{t("anthropic")}")',
    )
    add(
        L,
        "google_api_key",
        "web",
        True,
        "Google API key in page source",
        f'<script>const MAPS_KEY = "{t("google_api")}";</script>',
    )
    add(
        L,
        "cloudflare",
        "user",
        True,
        "Cloudflare API token ZH",
        f"Cloudflare 的 API 令牌：{t('cloudflare')}（DNS 编辑权限），之后改解析用它。",
    )
    add(
        L,
        "posthog",
        "tool",
        True,
        "PostHog personal key in env dump",
        f"POSTHOG_HOST=https://ph.corp.example\nPOSTHOG_PERSONAL_API_KEY={t('posthog')}",
    )
    add(
        L,
        "nuget",
        "document",
        True,
        "NuGet key in nuget.config",
        f'<configuration>\n  <apikeys>\n    <add key="https://nuget.corp.example/v3/index.json" value="{t("nuget")}" />\n  </apikeys>\n</configuration>',
    )
    add(
        L,
        "bitbucket",
        "agent",
        True,
        "Bitbucket app password",
        f"Bitbucket app password for the mirror job (user ci-mirror): {t('bitbucket')}",
    )
    add(
        L,
        "atlassian",
        "tool",
        True,
        "Atlassian API token in curl",
        f"curl -u bot@corp.example.com:{t('atlassian')} https://jira.corp.example/rest/api/3/myself",
    )
    add(
        L,
        "datadog",
        "document",
        True,
        "Datadog API + app key in YAML",
        f"datadog:\n  site: datadoghq.eu\n  apiKey: {t('datadog_api')}\n  appKey: {t('datadog_app')}",
    )
    add(
        L,
        "sentry",
        "tool",
        True,
        "Sentry auth token ZH lead-in",
        f"sentry-cli 配置（.sentryclirc）：\n[auth]\ntoken={t('sentry')}",
    )
    add(
        L,
        "vercel",
        "user",
        True,
        "Vercel token in prose",
        f"vercel deploy token is {t('vercel')} - the team scope one, keep it handy",
    )
    add(
        L,
        "supabase",
        "agent",
        True,
        "Supabase access token + service JWT",
        f"SUPABASE_ACCESS_TOKEN={t('supabase')}\nSUPABASE_SERVICE_ROLE_KEY={jwt(r, {'iss': 'supabase', 'ref': rs(r, 20).lower(), 'role': 'service_role', 'iat': 1764000000, 'exp': 2079576000})}",
    )
    add(
        L,
        "mailgun",
        "document",
        False,
        "Mailgun key in PHP config",
        f"<?php\nreturn ['mailgun' => ['domain' => 'mg.corp.example', 'secret' => '{t('mailgun')}']];",
    )
    add(
        L,
        "okta",
        "tool",
        True,
        "Okta API token ZH",
        f"Okta 管理令牌（SSWS）：{t('okta')}，用于同步账号。",
    )
    add(
        L,
        "doppler",
        "agent",
        True,
        "Doppler service token",
        f"Doppler service token for prd config: {t('doppler')}",
    )
    add(L, "linear", "user", False, "Linear API key", f"my linear key: {t('linear')}")
    add(
        L,
        "notion",
        "document",
        True,
        "Notion integration secret in .env",
        f"NOTION_DATABASE_ID={rs(r, 32, '0123456789abcdef')}\nNOTION_TOKEN={t('notion')}",
    )
    add(
        L,
        "shopify",
        "tool",
        True,
        "Shopify admin token in header dump",
        f"> GET /admin/api/2025-10/orders.json HTTP/1.1\n> Host: shop-dev.example.com\n> X-Shopify-Access-Token: {t('shopify')}",
    )
    add(
        L,
        "square",
        "document",
        True,
        "Square token ZH doc",
        f"收银对接文档\n生产环境 Access Token：{t('square')}\n请勿外传。",
    )
    add(
        L,
        "braintree",
        "agent",
        True,
        "Braintree/PayPal access token",
        f"PayPal (Braintree) gateway: BRAINTREE_ACCESS_TOKEN={t('braintree')}",
    )
    add(
        L,
        "aliyun",
        "user",
        True,
        "Alibaba Cloud AK ZH",
        f"阿里云子账号：AccessKey ID {t('aliyun_id')}，AccessKey Secret {t('aliyun_secret')}。OSS 上传脚本要用。",
    )
    add(
        L,
        "tencent_cloud",
        "document",
        True,
        "Tencent Cloud SecretId/Key",
        f"TENCENTCLOUD_SECRET_ID={t('tencent_id')}\nTENCENTCLOUD_SECRET_KEY={t('tencent_secret')}",
    )
    add(
        L,
        "huawei_cloud",
        "tool",
        True,
        "Huawei Cloud AK/SK ZH",
        f"华为云 OBS 凭证：\nAK: {t('huawei_ak')}\nSK: {t('huawei_sk')}",
    )
    add(
        L,
        "baidu_cloud",
        "agent",
        True,
        "Baidu AI API key/secret ZH",
        f"百度智能云 OCR：API Key = {t('baidu_ak')}，Secret Key = {t('baidu_sk')}",
    )
    add(
        L,
        "wechat_secret",
        "document",
        True,
        "WeChat mini-program AppSecret",
        f"小程序配置\nAppID: wx{rs(r, 16, '0123456789abcdef')}\nAppSecret: {t('wechat_secret')}",
    )
    add(
        L,
        "feishu_secret",
        "tool",
        True,
        "Feishu app secret in JSON",
        tool_json(
            r,
            "config.get",
            {
                "feishu": {
                    "app_id": "cli_" + rs(r, 16, "0123456789abcdef"),
                    "app_secret": t("feishu_secret"),
                }
            },
        ),
    )
    add(
        L,
        "dingtalk_secret",
        "user",
        True,
        "DingTalk signing secret + webhook",
        f"钉钉机器人加签密钥 {t('dingtalk_sec')}，webhook 是 https://oapi.dingtalk.com/robot/send?access_token={rs(r, 64, '0123456789abcdef')}",
    )
    add(
        L,
        "npm_token",
        "document",
        False,
        "npm token in .npmrc",
        f"//registry.npmjs.org/:_authToken={t('npm')}",
    )
    add(
        L,
        "pypi_token",
        "tool",
        True,
        "PyPI token in .pypirc",
        f"[pypi]\nusername = __token__\npassword = {t('pypi')}",
    )
    add(L, "hf_token", "user", False, "Hugging Face token", f"HF token (write): {t('hf')}")
    add(
        L,
        "twilio",
        "agent",
        True,
        "Twilio SID + auth token",
        f"Twilio: account {t('twilio_sid')}, auth token {t('twilio_auth')}",
    )
    add(
        L, "sendgrid", "tool", True, "SendGrid key ZH", f"邮件服务 SendGrid 的密钥：{t('sendgrid')}"
    )
    add(
        L, "telegram_bot", "user", True, "Telegram bot token", f"alerts bot token = {t('telegram')}"
    )
    add(
        L,
        "digitalocean",
        "document",
        True,
        "DigitalOcean token in terraform.tfvars",
        f'do_token = "{t("digitalocean")}"\nregion   = "fra1"',
    )
    add(
        L,
        "grafana",
        "tool",
        True,
        "Grafana service account token",
        f"GRAFANA_URL=https://grafana.corp.example\nGRAFANA_SA_TOKEN={t('grafana')}",
    )
    add(
        L,
        "databricks",
        "agent",
        True,
        "Databricks PAT ZH",
        f"Databricks 个人访问令牌：{t('databricks')}，workspace 是 dbc-prod。",
    )
    add(
        L,
        "azure_client_secret",
        "document",
        True,
        "Azure client secret in appsettings",
        json.dumps(
            {
                "AzureAd": {
                    "TenantId": "3f1c2a9e-7b4d-4c1e-9a2f-0d6e8b5c4a31",
                    "ClientId": "9d2e4f6a-1b3c-4d5e-8f7a-2c4e6a8b0d12",
                    "ClientSecret": t("azure_secret"),
                }
            },
            indent=2,
        ),
    )
    add(
        L,
        "azure_storage",
        "tool",
        True,
        "Azure storage connection string",
        f"DefaultEndpointsProtocol=https;AccountName=corpbackup;AccountKey={t('azure_storage')};EndpointSuffix=core.windows.net",
    )
    add(
        L,
        "discord_bot",
        "user",
        True,
        "Discord bot token ZH",
        f"discord 机器人的 token：{t('discord')}",
    )
    add(
        L,
        "pulumi",
        "document",
        True,
        "Pulumi token in CI yaml",
        f"env:\n  PULUMI_ACCESS_TOKEN: {t('pulumi')}\n  PULUMI_STACK: prod",
    )
    add(
        L,
        "netlify",
        "agent",
        False,
        "Netlify PAT",
        f"netlify personal access token: {t('netlify')}",
    )
    add(L, "heroku", "tool", True, "Heroku API key", f"$ heroku auth:token\n{t('heroku')}")
    add(
        L,
        "mapbox",
        "document",
        True,
        "Mapbox secret token in JS",
        f"mapboxgl.accessToken = '{t('mapbox')}';",
    )
    add(
        L,
        "jwt",
        "tool",
        True,
        "bearer JWT in request log",
        f"POST /v1/orders 201 Authorization: Bearer {jwt(r, {'sub': 'u_81723', 'scope': 'orders:write admin', 'exp': 2081234567})}",
    )

    pw = lambda: token(r, "password")  # noqa: E731
    add(
        L,
        "password_xml",
        "document",
        True,
        "password in XML datasource",
        f'<datasource jndi-name="java:/OrdersDS">\n  <connection-url>jdbc:postgresql://db.corp.example:5432/orders</connection-url>\n  <user-name>orders_app</user-name>\n  <password>{pw()}</password>\n</datasource>',
    )
    add(
        L,
        "password_properties",
        "document",
        True,
        "password in .properties",
        f"spring.datasource.url=jdbc:mysql://10.2.0.14:3306/billing\nspring.datasource.username=billing\nspring.datasource.password={pw()}",
    )
    add(
        L,
        "password_prose_zh",
        "user",
        False,
        "ZH 密码是",
        f"服务器 root 密码是 {pw()}，下次登录跳板机要用。",
    )
    add(
        L,
        "password_prose_zh",
        "user",
        True,
        "ZH 口令",
        f"财务系统口令：{pw()}（账号 cw_admin），别告诉别人。",
    )
    add(
        L,
        "wifi_password",
        "user",
        False,
        "ZH Wi-Fi password",
        f"办公室 Wi-Fi：名称 CORP-5G，密码 {pw()}",
    )
    add(
        L,
        "password_prose",
        "agent",
        True,
        "EN password in prose",
        f"The staging Grafana admin login is admin / {pw()} until Carla rotates it.",
    )
    add(
        L,
        "password_spec",
        "document",
        True,
        "password in RPM spec / ini",
        f'[mysqld_backup]\nhost=10.0.4.9\nuser=backup\npassword="{pw()}"',
    )
    add(
        L,
        "getenv_default",
        "document",
        True,
        "getenv default in Go",
        f'dbPass := getenv("DB_PASSWORD", "{pw()}")',
    )
    add(
        L,
        "connection_string",
        "tool",
        True,
        "postgres URL with password",
        f"DATABASE_URL=postgres://app:{pw().replace('@', 'x').replace('#', 'y').replace('%', 'z')}@db.corp.example:5432/app",
    )
    key = "\\n".join(["-----BEGIN PRIVATE KEY-----", *pem_body(r), "-----END PRIVATE KEY-----"])
    add(
        L,
        "pem_in_code",
        "document",
        True,
        "PEM body inside a Python string",
        f'SIGNING_KEY = "{key}"\n\ndef sign(payload):\n    return jws.sign(payload, SIGNING_KEY, algorithm="RS256")',
    )
    key2 = "\n".join(
        [
            "-----BEGIN OPENSSH PRIVATE KEY-----",
            "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW",
            *[
                rs(r, 70, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
                for _ in range(5)
            ],
            "-----END OPENSSH PRIVATE KEY-----",
        ]
    )
    add(
        L,
        "pem_private_key",
        "tool",
        True,
        "OpenSSH key ZH lead-in",
        f"部署机上的私钥，先存一下：\n{key2}",
    )
    sg = t("sendgrid")
    add(
        L,
        "split_lines",
        "tool",
        True,
        "token split across log lines",
        f"2026-11-20T10:01:02Z cfg dump part 1/2 smtp_key={sg[:30]}\n2026-11-20T10:01:02Z cfg dump part 2/2 {sg[30:]}",
    )
    add(
        L,
        "removed_diff_line",
        "tool",
        True,
        "secret in removed diff line",
        f"diff --git a/config/prod.env b/config/prod.env\n@@ -3,3 +3,3 @@\n-LINEAR_API_KEY={t('linear')}\n+LINEAR_API_KEY=${{LINEAR_API_KEY}}",
    )
    add(
        L,
        "slack_token",
        "tool",
        True,
        "Slack user token in chat log",
        chat(
            [
                ("dev1", "what token does the export script use?"),
                (
                    "dev2",
                    f"xoxp-{rs(r, 12, '0123456789')}-{rs(r, 12, '0123456789')}-{rs(r, 13, '0123456789')}-{rs(r, 32, '0123456789abcdef')} (mine, don't share)",
                ),
            ]
        ),
    )
    add(
        L,
        "aws_session",
        "tool",
        True,
        "AWS creds in e-mail",
        email(
            r,
            "temp creds for the audit",
            f"Here you go, valid 12h:\nAWS_ACCESS_KEY_ID=ASIA{rs(r, 16, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567')}\nAWS_SECRET_ACCESS_KEY={t('aws_secret')}\nAWS_SESSION_TOKEN=IQoJb3JpZ2luX2VjE{rs(r, 180)}",
        ),
    )
    add(
        L,
        "github_token",
        "tool",
        True,
        "GitHub token in ZH ticket",
        ticket(
            r,
            "CI 拉取私有仓库失败",
            f"我把 token 换成了 {t('github_pat')}，还是 403，帮看看。",
            zh=True,
        ),
    )

    add(
        L,
        "google_api_key",
        "web",
        True,
        "API key in public JS config",
        f"window.__CONFIG__ = {{ env: 'prod', firebaseApiKey: '{t('google_api')}', sentryToken: '{t('sentry')}' }};",
    )
    add(
        L,
        "password_prose_zh",
        "web",
        True,
        "ZH password in forum post",
        f"求助：NAS 登录不上，账号 admin，密码 {pw()}，是不是被改了？",
    )
    add(
        L,
        "feishu_webhook_secret",
        "tool",
        True,
        "Feishu webhook with signing secret",
        f"飞书群机器人：https://open.feishu.cn/open-apis/bot/v2/hook/{rs(r, 8, '0123456789abcdef')}-{rs(r, 4, '0123456789abcdef')}-{rs(r, 4, '0123456789abcdef')}-{rs(r, 4, '0123456789abcdef')}-{rs(r, 12, '0123456789abcdef')}，签名校验密钥 {t('feishu_secret')}",
    )
    return g
