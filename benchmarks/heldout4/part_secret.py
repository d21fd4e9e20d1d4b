# ruff: noqa: E501  (hand-written case texts and vendor shapes are data, one per line)
"""Secrets: random strings in the shapes of many vendors' credentials, placed in
the carriers they leak through (env files, configs, logs, chat, diffs, code strings),
and passwords in prose (EN and ZH). Never a real key."""

from __future__ import annotations

import json

from h4core import Gen, cred, jwt_like, pem_body


def _items(g: Gen) -> list[tuple[str, str, str, str]]:
    """(family, source, note, text); built in a fixed order from the part's RNG."""
    k = lambda kind: cred(g, kind)  # noqa: E731 - short local alias
    out = [
        (
            "password_prose_zh",
            "user",
            "ZH mixed EN/ZH password",
            f"VPN account is ops-lin, 密码是 {k('password')}, 下周一 IT 会重置。",
        ),
        (
            "github_token",
            "tool",
            "ghp_ in git remote url",
            f"$ git remote -v\norigin  https://{k('github_pat')}@git.example.com/acme/api.git (fetch)",
        ),
        (
            "github_token",
            "user",
            "ZH fine-grained PAT pasted in chat",
            f"我的 GitHub token 先放这里，回头配 CI 用：{k('github_fine')}",
        ),
        (
            "github_token",
            "agent",
            "gho_ oauth token in agent note",
            f"Session note: the CLI login produced an OAuth token {k('github_oauth')}; it is cached in ~/.config/gh for later pushes.",
        ),
        (
            "gitlab_token",
            "document",
            "glpat in .gitlab-ci variables",
            f'variables:\n  GITLAB_API_TOKEN: "{k("gitlab")}"\n  DOCKER_DRIVER: overlay2',
        ),
        (
            "slack_token",
            "tool",
            "xoxb in env dump",
            f"SLACK_BOT_TOKEN={k('slack_bot')}\nSLACK_CHANNEL=#deploys",
        ),
        (
            "slack_token",
            "document",
            "xoxp user token in config json",
            json.dumps({"slack": {"user_token": k("slack_user"), "team": "acme"}}, indent=1),
        ),
        (
            "slack_webhook",
            "tool",
            "slack webhook url in alerting yaml",
            f"alerting:\n  receivers:\n    - name: oncall\n      slack_api_url: {k('slack_webhook')}",
        ),
        (
            "aws_keypair",
            "tool",
            "aws credentials file",
            f"[default]\naws_access_key_id = {k('aws_id')}\naws_secret_access_key = {k('aws_secret')}\nregion = eu-west-1",
        ),
        (
            "aws_keypair",
            "user",
            "ZH aws keys in chat",
            f"帮我看看为什么上传失败，key 是 {k('aws_id')}，secret 是 {k('aws_secret')}，区域 ap-east-1。",
        ),
        (
            "aws_session",
            "tool",
            "sts session creds in tool json",
            json.dumps(
                {
                    "Credentials": {
                        "AccessKeyId": k("aws_sts"),
                        "SecretAccessKey": k("aws_secret"),
                        "SessionToken": "IQoJb3JpZ2luX2VjE"
                        + g.s(
                            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", 180
                        ),
                        "Expiration": "2026-12-04T23:00:00Z",
                    }
                },
                indent=1,
            ),
        ),
        (
            "stripe_key",
            "agent",
            "sk_live in agent summary",
            f"Configured the billing worker with STRIPE_KEY={k('stripe')} as requested; webhooks verified.",
        ),
        (
            "stripe_key",
            "document",
            "ZH restricted key in wiki",
            f"支付联调说明：测试完成后切换到正式的受限密钥 {k('stripe_rk')}，仅有退款权限。",
        ),
        (
            "openai_key",
            "tool",
            "openai key in python traceback",
            f'Traceback (most recent call last):\n  File "bot.py", line 12, in <module>\n    client = OpenAI(api_key="{k("openai")}")\nopenai.APIConnectionError: Connection error.',
        ),
        (
            "anthropic_key",
            "document",
            "anthropic key in .env.example that is real",
            f"# copied from my machine\nANTHROPIC_API_KEY={k('anthropic')}\nMODEL=claude-sonnet",
        ),
        (
            "google_api_key",
            "web",
            "google key in page script",
            f'<script>\n  const MAPS_KEY = "{k("google")}";\n  initMap(MAPS_KEY);\n</script>',
        ),
        (
            "cloudflare",
            "user",
            "ZH cloudflare token",
            f"Cloudflare 的 API 令牌：{k('cloudflare')}，权限是 DNS 编辑，帮我写个更新 A 记录的脚本。",
        ),
        (
            "cloudflare",
            "tool",
            "cloudflare global key in wrangler output",
            f"CLOUDFLARE_EMAIL=ops@example.com\nCLOUDFLARE_API_KEY={k('cloudflare_global')}",
        ),
        (
            "posthog",
            "document",
            "posthog personal key in script",
            f'posthog = Posthog(personal_api_key="{k("posthog_personal")}", host="https://analytics.example.com")',
        ),
        (
            "nuget",
            "tool",
            "nuget api key in push command",
            f"dotnet nuget push bin/Release/Acme.Core.4.2.0.nupkg --api-key {k('nuget')} --source https://nuget.example.com/v3/index.json",
        ),
        (
            "bitbucket",
            "agent",
            "bitbucket app password",
            f"Stored for the deploy step: Bitbucket user ci-bot, app password {k('bitbucket')}.",
        ),
        (
            "atlassian",
            "tool",
            "atlassian api token in curl",
            f"curl -u ops@example.com:{k('atlassian')} https://acme.example.net/rest/api/3/issue/OPS-12",
        ),
        (
            "datadog",
            "document",
            "datadog api and app keys",
            f"datadog:\n  apiKey: {k('datadog_api')}\n  appKey: {k('datadog_app')}\n  site: datadoghq.eu",
        ),
        (
            "sentry",
            "tool",
            "sentry user token",
            f"sentry-cli --auth-token {k('sentry_user')} releases new 4.2.0",
        ),
        (
            "vercel",
            "user",
            "vercel token in chat",
            f"here's the vercel token for the preview deploys: VERCEL_TOKEN={k('vercel')}",
        ),
        (
            "supabase",
            "agent",
            "supabase access token",
            f"Linked the project with `supabase login --token {k('supabase')}`.",
        ),
        (
            "mailgun",
            "document",
            "mailgun key in php config",
            f"<?php\nreturn ['mailgun' => ['domain' => 'mg.example.com', 'secret' => '{k('mailgun')}']];",
        ),
        (
            "okta",
            "tool",
            "ZH okta SSWS token in log",
            f"2026-11-30 10:14:02 INFO 调用 Okta 接口 Authorization: SSWS {k('okta')} 返回 200",
        ),
        (
            "doppler",
            "agent",
            "doppler service token",
            f"The container reads its config through DOPPLER_TOKEN={k('doppler')}.",
        ),
        (
            "linear",
            "user",
            "linear api key",
            f"Linear key so you can file issues for me: {k('linear')}",
        ),
        (
            "notion",
            "document",
            "notion integration secret",
            f'const notion = new Client({{ auth: "{k("notion")}" }});',
        ),
        (
            "shopify",
            "tool",
            "shopify admin token in headers",
            f"X-Shopify-Access-Token: {k('shopify')}\nContent-Type: application/json",
        ),
        (
            "square",
            "document",
            "ZH square access token",
            f"Square 正式环境令牌（别外传）：{k('square')}",
        ),
        (
            "braintree",
            "agent",
            "braintree access token",
            f"Braintree gateway configured with {k('braintree')}.",
        ),
        (
            "aliyun",
            "user",
            "ZH aliyun AK pair",
            f"阿里云 AccessKey ID：{k('aliyun_id')}\nAccessKey Secret：{k('aliyun_secret')}\n帮我配一下 OSS 上传。",
        ),
        (
            "tencent_cloud",
            "document",
            "tencent cloud secret pair",
            f"tencentcloud:\n  secret_id: {k('tencent_id')}\n  secret_key: {k('tencent_key')}",
        ),
        (
            "huawei_cloud",
            "tool",
            "ZH huawei cloud AK SK",
            f"华为云凭证（obsutil config 输出）：\nak={k('huawei_ak')}\nsk={k('huawei_sk')}",
        ),
        (
            "baidu_cloud",
            "agent",
            "ZH baidu AK SK",
            f"已记下百度智能云的 API Key {k('baidu_ak')} 和 Secret Key {k('baidu_ak')[::-1][:16]}{k('baidu_ak')[:16]}，用于 OCR。",
        ),
        (
            "wechat_secret",
            "document",
            "ZH wechat appsecret",
            f"公众号配置：AppID wx{g.s('0123456789abcdef', 16)}，AppSecret {k('wechat_secret')}",
        ),
        (
            "feishu_secret",
            "tool",
            "feishu app secret",
            f"FEISHU_APP_ID=cli_{g.s('0123456789abcdef', 16)}\nFEISHU_APP_SECRET={k('feishu_secret')}",
        ),
        (
            "feishu_webhook_secret",
            "tool",
            "ZH feishu bot webhook and sign secret",
            f"飞书机器人：https://open.feishu.cn/open-apis/bot/v2/hook/{g.s('0123456789abcdef', 8)}-{g.s('0123456789abcdef', 4)}-{g.s('0123456789abcdef', 4)}-{g.s('0123456789abcdef', 4)}-{g.s('0123456789abcdef', 12)}\n签名校验密钥：{g.s('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 22)}",
        ),
        (
            "dingtalk_secret",
            "user",
            "ZH dingtalk robot token and SEC",
            f"钉钉群机器人 https://oapi.dingtalk.com/robot/send?access_token={g.s('0123456789abcdef', 64)} ，加签密钥 {k('dingtalk_sec')}",
        ),
        (
            "npm_token",
            "document",
            "npm token in .npmrc",
            f"//registry.npmjs.example.com/:_authToken={k('npm')}\nalways-auth=true",
        ),
        (
            "pypi_token",
            "tool",
            "pypi token in pypirc",
            f"[pypi]\nusername = __token__\npassword = {k('pypi')}",
        ),
        (
            "hf_token",
            "user",
            "hf token pasted",
            f"use my huggingface token {k('hf')} to pull the gated model",
        ),
        (
            "twilio",
            "agent",
            "twilio sid and key",
            f"SMS alerts: account {k('twilio_sid')}, API key {k('twilio_key')}, secret {g.s('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 32)}.",
        ),
        (
            "sendgrid",
            "tool",
            "ZH sendgrid key in log",
            f"邮件服务初始化：SENDGRID_API_KEY={k('sendgrid')}",
        ),
        (
            "discord_bot",
            "user",
            "discord bot token",
            f"bot token is {k('discord')} — can you make it reply to !ping?",
        ),
        (
            "telegram_bot",
            "document",
            "telegram bot token in url",
            f"Webhook set with https://api.telegram.example.org/bot{k('telegram')}/setWebhook",
        ),
        (
            "digitalocean",
            "tool",
            "digitalocean token in doctl config",
            f"access-token: {k('digitalocean')}\ncontext: default",
        ),
        (
            "grafana",
            "document",
            "grafana service account token",
            f"GF_TOKEN={k('grafana')}\nGF_URL=https://grafana.example.com",
        ),
        (
            "databricks",
            "agent",
            "ZH databricks token",
            f"已连接 Databricks 工作区，个人访问令牌 {k('databricks')}。",
        ),
        (
            "pulumi",
            "tool",
            "pulumi access token",
            f"PULUMI_ACCESS_TOKEN={k('pulumi')} pulumi up --yes",
        ),
        (
            "netlify",
            "document",
            "netlify token in toml",
            f'[build.environment]\n  NETLIFY_AUTH_TOKEN = "{k("netlify")}"',
        ),
        (
            "vault_token",
            "tool",
            "hashicorp vault token",
            f"export VAULT_ADDR=https://vault.example.internal:8200\nexport VAULT_TOKEN={k('vault')}",
        ),
        (
            "terraform_cloud",
            "document",
            "terraform cloud token in credentials.tfrc",
            f'credentials "app.terraform.example.com" {{\n  token = "{k("terraform_cloud")}"\n}}',
        ),
        ("postman", "user", "postman api key", f"Postman API key: {k('postman')}"),
        (
            "age_key",
            "document",
            "age secret key file",
            f"# created: 2026-10-02T11:20:31Z\n# public key: age1{g.s('qpzry9x8gf2tvdw0s3jn54khce6mua7l', 58)}\n{k('age')}",
        ),
        (
            "azure_client_secret",
            "tool",
            "azure client secret in appsettings",
            json.dumps(
                {
                    "AzureAd": {
                        "TenantId": "00000000-1111-2222-3333-444444444444",
                        "ClientId": "55555555-6666-7777-8888-999999999999",
                        "ClientSecret": k("azure_client"),
                    }
                },
                indent=1,
            ),
        ),
        (
            "azure_storage",
            "document",
            "azure storage account key",
            f"DefaultEndpointsProtocol=https;AccountName=acmelogs;AccountKey={k('azure_storage')}",
        ),
        (
            "dockerhub",
            "tool",
            "docker hub pat in login",
            f"echo {k('dockerhub')} | docker login -u acmebot --password-stdin",
        ),
        (
            "jwt",
            "tool",
            "JWT bearer in request log",
            f"GET /v1/me 200 Authorization: Bearer {jwt_like(g, json.dumps({'sub': 'u_' + g.s('0123456789', 6), 'role': 'admin', 'exp': 1796000000}))}",
        ),
        (
            "pem_private_key",
            "tool",
            "ZH EC private key block",
            f"证书私钥：\n-----BEGIN EC PRIVATE KEY-----\n{pem_body(g, 3)}\n-----END EC PRIVATE KEY-----",
        ),
        (
            "pem_in_code",
            "document",
            "PEM body inside a python string",
            f'PRIVATE_KEY = """-----BEGIN PRIVATE KEY-----\n{pem_body(g, 8)}\n-----END PRIVATE KEY-----"""\nsigner = load_pem_private_key(PRIVATE_KEY.encode(), None)',
        ),
        (
            "pem_escaped_json",
            "tool",
            "service account JSON with escaped PEM",
            json.dumps(
                {
                    "type": "service_account",
                    "project_id": "acme-prod",
                    "private_key_id": g.s("0123456789abcdef", 40),
                    "private_key": "-----BEGIN PRIVATE KEY-----\n"
                    + pem_body(g, 6)
                    + "\n-----END PRIVATE KEY-----\n",
                    "client_email": "ci@acme-prod.iam.example.com",
                }
            ),
        ),
        (
            "openssh_key",
            "user",
            "openssh private key pasted",
            f"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n{pem_body(g, 4)}\n-----END OPENSSH PRIVATE KEY-----",
        ),
        (
            "connection_string",
            "agent",
            "postgres url with password",
            f"Use DATABASE_URL=postgresql://billing:{k('password')}@db.example.internal:5432/billing for the migration job.",
        ),
        (
            "connection_string",
            "tool",
            "ZH mongodb srv with password",
            f"数据库连接串：mongodb+srv://admin:{k('password')}@cluster0.example.net/shop?retryWrites=true",
        ),
        (
            "password_xml",
            "document",
            "password in maven settings.xml",
            f"<servers>\n  <server>\n    <id>releases</id>\n    <username>deployer</username>\n    <password>{k('password')}</password>\n  </server>\n</servers>",
        ),
        (
            "password_properties",
            "document",
            "spring datasource password",
            f"spring.datasource.url=jdbc:mysql://10.1.2.3:3306/orders\nspring.datasource.username=orders\nspring.datasource.password={k('password')}",
        ),
        (
            "password_spec",
            "document",
            "password in k8s secret stringData",
            f'apiVersion: v1\nkind: Secret\nmetadata:\n  name: redis-auth\nstringData:\n  password: "{k("password")}"',
        ),
        (
            "getenv_default",
            "document",
            "secret as getenv default",
            f'SECRET_KEY = os.getenv("DJANGO_SECRET_KEY", "{g.s("abcdefghijklmnopqrstuvwxyz0123456789!@#%^&*(-_=+)", 50)}")',
        ),
        (
            "getenv_default",
            "document",
            "go env default password",
            f'pass := envOr("SMTP_PASS", "{k("password")}")',
        ),
        (
            "password_prose",
            "user",
            "password in English prose",
            f"The admin login for the staging router is admin and the password is {k('password')}, please remember it for later.",
        ),
        (
            "password_prose",
            "agent",
            "password in agent note",
            f"Noted: the shared mailbox reports@example.com uses passphrase '{k('password')}' until IT rotates it.",
        ),
        (
            "password_prose_zh",
            "user",
            "ZH password in prose",
            f"测试服务器的登录密码是 {k('password')}，用户名 root，记一下。",
        ),
        (
            "password_prose_zh",
            "tool",
            "ZH 口令 in chat log",
            f"[10:21] {g.zh_person()}: 数据库口令：{k('password')}\n[10:22] {g.zh_person()}: 收到",
        ),
        (
            "password_prose_zh",
            "document",
            "ZH password in handover doc",
            f"交接说明：财务系统账号 caiwu01，初始密码为 {k('password')}，首次登录后请修改。",
        ),
        (
            "wifi_password",
            "user",
            "ZH wifi password",
            f"公司访客 Wi-Fi：Guest-5G，密码 {k('password')}",
        ),
        (
            "wifi_password",
            "document",
            "wifi password in office notes",
            f"Office info: Wi-Fi network ACME-Staff, WPA2 key {k('password')}; printer on floor 3.",
        ),
        (
            "split_lines",
            "tool",
            "token split across log lines",
            "\n".join(
                f"2026-12-01T09:1{i}:00Z DEBUG auth chunk {i}/3: {part}"
                for i, part in enumerate((lambda t: [t[:14], t[14:28], t[28:]])(k("github_pat")), 1)
            ),
        ),
        (
            "removed_diff_line",
            "tool",
            "secret in removed diff line",
            f"diff --git a/config/prod.env b/config/prod.env\n--- a/config/prod.env\n+++ b/config/prod.env\n@@ -3,3 +3,3 @@\n LOG_LEVEL=info\n-MAILGUN_API_KEY={k('mailgun')}\n+MAILGUN_API_KEY=${{MAILGUN_API_KEY}}",
        ),
        (
            "escaped_json_log",
            "tool",
            "escaped JSON log with token",
            json.dumps(
                {
                    "level": "error",
                    "msg": json.dumps(
                        {"request": {"headers": {"authorization": "token " + k("github_pat")}}}
                    ),
                }
            ),
        ),
        (
            "rubygems",
            "document",
            "rubygems api key in credentials",
            f"---\n:rubygems_api_key: {k('rubygems')}",
        ),
        ("buildkite", "tool", "buildkite user token", f"BUILDKITE_API_TOKEN={k('buildkite')}"),
        (
            "circleci",
            "document",
            "ZH circleci personal token",
            f"CircleCI 个人令牌（用于触发流水线）：{k('circleci')}",
        ),
        (
            "heroku",
            "agent",
            "heroku api key",
            f"Deployment credentials saved: HEROKU_API_KEY={k('heroku')}",
        ),
        (
            "render",
            "user",
            "ZH render api key",
            f"Render 的 API key 是 {k('render')}，帮我查下服务状态。",
        ),
        (
            "mapbox",
            "web",
            "mapbox secret token in page",
            f"<script>mapboxgl.accessToken = '{k('mapbox')}';</script>",
        ),
    ]
    return out


def build(g: Gen) -> None:
    for family, source, note, text in _items(g):
        hard = source not in ("user",) or family.endswith("_zh")
        g.add("text", "secret", family, source, text, note, hard=hard)
