# ruff: noqa: E501  (hand-written case texts are data)
"""Secret cases of held-out set 6: live-looking credentials (random strings in each
vendor's shape, never real keys) in configs, code, logs, chats, tickets, diffs and
Chinese prose, and passwords written as people write them. Written for this set.

`<<kind>>` is replaced by `h6core.cred(g, kind)`, `<<pem>>` by a PEM body, `<<jwt>>`
by a JWT-shaped token, `<<ip>>` by a documentation address, `<<zh>>` / `<<name>>` by
invented names."""

from __future__ import annotations

import re

from h6core import Gen, cred, jwt_like, pem_body

ITEMS: list[tuple[str, str, str]] = [
    # (family, source, template)
    (
        "cloudflare_token",
        "document",
        "# wrangler deploy needs this\nexport CLOUDFLARE_API_TOKEN=<<cloudflare>>\nexport CLOUDFLARE_ACCOUNT_ID=<<datadog_api>>",
    ),
    (
        "cloudflare_global_key",
        "tool",
        "X-Auth-Email: ops@acme.example.com\nX-Auth-Key: <<cloudflare_global>>\nGET /client/v4/zones?per_page=50",
    ),
    (
        "posthog_key",
        "agent",
        "Analytics is wired up: posthog.init('<<posthog_personal>>', { api_host: 'https://eu.posthog.example' }). That is the personal API key, the project one goes in the browser.",
    ),
    (
        "nuget_key",
        "tool",
        "dotnet nuget push bin/Release/Acme.Core.3.2.0.nupkg --api-key <<nuget>> --source https://nuget.acme.internal/v3/index.json",
    ),
    (
        "bitbucket_app_password",
        "document",
        '[remote "origin"]\n    url = https://acme-ci:<<bitbucket>>@bitbucket.example.org/acme/api.git',
    ),
    ("atlassian_token", "user", "jira token for the sync script, keep it safe: <<atlassian>>"),
    (
        "datadog_keys",
        "document",
        "datadog:\n  site: datadoghq.example\n  api_key: <<datadog_api>>\n  app_key: <<datadog_app>>\n  tags: [env:prod, team:payments]",
    ),
    (
        "sentry_token",
        "tool",
        "$ sentry-cli login --auth-token <<sentry_user>>\nValid token for user ops@acme.example.com",
    ),
    (
        "vercel_token",
        "agent",
        "Deploy hook set up. VERCEL_TOKEN=<<vercel>> lives in the repo secrets now, and I also put it in scripts/deploy.sh for local runs.",
    ),
    (
        "supabase_token",
        "document",
        "SUPABASE_URL=https://xyzcompany.supabase.example\nSUPABASE_ACCESS_TOKEN=<<supabase>>\nSUPABASE_SERVICE_ROLE_KEY=<<jwt>>",
    ),
    (
        "mailgun_key",
        "tool",
        "curl -s --user 'api:<<mailgun>>' https://api.eu.mailgun.example/v3/mg.acme.example.com/messages -F from=noreply@acme.example.com -F to=test@acme.example.com -F text=hi",
    ),
    (
        "okta_token",
        "document",
        "okta:\n  client:\n    orgUrl: https://acme.okta.example\n    token: <<okta>>",
    ),
    (
        "doppler_token",
        "user",
        "DOPPLER_TOKEN=<<doppler>> doppler run -- npm start   # this works on my laptop",
    ),
    (
        "linear_key",
        "agent",
        "Linear integration: header Authorization: <<linear>> on POST /graphql. Rate limit is 1500/h.",
    ),
    (
        "notion_token",
        "tool",
        '{"integration":"wiki-export","token":"<<notion>>","workspace":"acme"}',
    ),
    (
        "shopify_token",
        "document",
        "SHOPIFY_STORE=acme-outlet\nSHOPIFY_ADMIN_TOKEN=<<shopify>>\nSHOPIFY_API_SECRET=<<shopify_shared>>",
    ),
    (
        "square_token",
        "agent",
        "Square sandbox was replaced by production today; the access token is <<square>> and the location id is L8Q2V0M1.",
    ),
    ("braintree_token", "document", 'BRAINTREE_ACCESS_TOKEN="<<braintree>>"'),
    (
        "aliyun_key",
        "user",
        "阿里云的 AccessKey 发你了：AccessKeyId <<aliyun_id>>，AccessKeySecret <<aliyun_secret>>，OSS 那个桶先用着。",
    ),
    (
        "tencent_key",
        "tool",
        "[default]\nsecret_id = <<tencent_id>>\nsecret_key = <<tencent_key>>\nregion = ap-guangzhou",
    ),
    (
        "huawei_key",
        "agent",
        "华为云 OBS 配置已写好：ak=<<huawei_ak>>，sk=<<huawei_sk>>，endpoint 用华北四区那个。",
    ),
    ("baidu_key", "document", "BAIDU_API_KEY=<<baidu_ak>>\nBAIDU_SECRET_KEY=<<baidu_ak>>"),
    (
        "wechat_secret",
        "tool",
        "公众号后台 → 开发 → 基本配置\nAppID：wx<<wechat_secret>>\nAppSecret：<<wechat_secret>>\n（重置后旧的立即失效）",
    ),
    (
        "feishu_secret",
        "user",
        "飞书机器人的签名校验密钥是 <<feishu_secret>>，App Secret 也一样放在这了：<<feishu_secret>>",
    ),
    (
        "dingtalk_secret",
        "tool",
        "钉钉群机器人配置完成：加签密钥 <<dingtalk_sec>>，Webhook 用 https://oapi.dingtalk.com/robot/send?access_token=<<wechat_secret>><<wechat_secret>>",
    ),
    (
        "volcengine_key",
        "document",
        "# 火山引擎\nVOLC_ACCESSKEY=<<volc_ak>>\nVOLC_SECRETKEY=<<volc_sk>>",
    ),
    ("jdcloud_key", "agent", "京东云的 AK 是 <<jd_ak>>，SK 是 <<ucloud>>，都是给对象存储用的。"),
    ("openrouter_key", "user", "using openrouter now, key sk-or... full one: <<openrouter>>"),
    ("xai_key", "tool", 'export XAI_API_KEY="<<xai>>"'),
    (
        "perplexity_key",
        "agent",
        "Search tool configured with PPLX key <<perplexity>>; model sonar-pro.",
    ),
    (
        "pinecone_key",
        "document",
        "vector_store:\n  provider: pinecone\n  api_key: <<pinecone>>\n  index: docs-prod",
    ),
    (
        "langsmith_key",
        "tool",
        "LANGCHAIN_TRACING_V2=true\nLANGCHAIN_API_KEY=<<langsmith>>\nLANGCHAIN_PROJECT=support-bot",
    ),
    (
        "contentful_token",
        "document",
        "const client = contentful.createClient({\n  accessToken: '<<contentful>>',\n  space: 'k2q9x1',\n});",
    ),
    (
        "resend_key",
        "agent",
        "Emails go through Resend: RESEND_API_KEY=<<resend>> (domain verified yesterday).",
    ),
    (
        "mailchimp_key",
        "tool",
        'mailchimp_marketing.Client().set_config({"api_key": "<<mailchimp>>", "server": "us6"})',
    ),
    (
        "algolia_admin_key",
        "document",
        "ALGOLIA_APP_ID=Q7X2PLM9KD\nALGOLIA_ADMIN_KEY=<<algolia_admin>>",
    ),
    (
        "dropbox_token",
        "tool",
        'Authorization: Bearer <<dropbox>>\nDropbox-API-Arg: {"path": "/reports/q3.pdf"}',
    ),
    ("onepassword_token", "document", "env:\n  OP_SERVICE_ACCOUNT_TOKEN: <<onepassword_sa>>"),
    ("tailscale_key", "agent", "Node joins with: tailscale up --authkey <<tailscale>> --ssh"),
    (
        "github_app_token",
        "tool",
        "remote: Invalid username or password.\nfatal: Authentication failed for 'https://x-access-token:<<github_app>>@git.example.com/acme/web.git/'",
    ),
    (
        "gitlab_runner_token",
        "document",
        '[[runners]]\n  name = "docker-01"\n  url = "https://gitlab.acme.example.com"\n  token = "<<gitlab_runner>>"\n  executor = "docker"',
    ),
    ("pagerduty_key", "user", "pagerduty api token: <<pagerduty>>"),
    (
        "cohere_key",
        "agent",
        'co = cohere.ClientV2(api_key="<<cohere>>")  # prod key, rotate in January',
    ),
    (
        "upstash_token",
        "document",
        "UPSTASH_REDIS_REST_URL=https://eu1-calm-fox.upstash.example\nUPSTASH_REDIS_REST_TOKEN=<<upstash>>",
    ),
    ("ngrok_token", "user", "ngrok config add-authtoken <<ngrok>>"),
    (
        "github_token",
        "tool",
        "2026-11-02T09:14:07Z DEBUG http: GET /repos/acme/web/pulls headers={'Authorization': 'token <<github_pat>>', 'Accept': 'application/vnd.github+json'}",
    ),
    (
        "gitlab_token",
        "agent",
        "I stored the GitLab PAT (<<gitlab>>) in the notes so the release script can push tags.",
    ),
    (
        "slack_bot_token",
        "document",
        "SLACK_BOT_TOKEN=<<slack_bot>>\nSLACK_SIGNING_SECRET=<<wechat_secret>>",
    ),
    ("stripe_key", "user", "stripe live secret for the shop: <<stripe>>"),
    ("openai_key", "document", 'from openai import OpenAI\nclient = OpenAI(api_key="<<openai>>")'),
    ("anthropic_key", "tool", "ANTHROPIC_API_KEY=<<anthropic>>"),
    (
        "aws_keypair",
        "document",
        "[profile deploy]\naws_access_key_id = <<aws_id>>\naws_secret_access_key = <<aws_secret>>\nregion = eu-west-1",
    ),
    ("aws_keypair", "user", "AWS 的密钥：<<aws_id>> / <<aws_secret>>，用完记得告诉我。"),
    (
        "gcp_service_account",
        "tool",
        '{\n  "type": "service_account",\n  "project_id": "acme-prod",\n  "private_key_id": "<<gcp_key_id>>",\n  "private_key": "-----BEGIN PRIVATE KEY-----\\n<<pem_escaped>>\\n-----END PRIVATE KEY-----\\n",\n  "client_email": "ci@acme-prod.iam.gserviceaccount.example"\n}',
    ),
    (
        "pem_in_code",
        "agent",
        'SIGNING_KEY = """-----BEGIN EC PRIVATE KEY-----\n<<pem_short>>\n-----END EC PRIVATE KEY-----"""\n\ndef sign(payload: bytes) -> bytes:\n    return _sign(SIGNING_KEY, payload)',
    ),
    (
        "pem_private_key",
        "document",
        "-----BEGIN OPENSSH PRIVATE KEY-----\n<<pem>>\n-----END OPENSSH PRIVATE KEY-----",
    ),
    (
        "escaped_json_log",
        "tool",
        '{"level":"error","msg":"upstream rejected","req":"{\\"headers\\":{\\"authorization\\":\\"Bearer <<hf>>\\"},\\"path\\":\\"/v1/models\\"}","ts":1764921600}',
    ),
    (
        "split_lines",
        "tool",
        "12:01:03 worker-3 token chunk 1/3: <<split1>>\n12:01:03 worker-3 token chunk 2/3: <<split2>>\n12:01:03 worker-3 token chunk 3/3: <<split3>>\n12:01:04 worker-3 auth ok",
    ),
    (
        "removed_diff_line",
        "tool",
        "diff --git a/config/prod.yml b/config/prod.yml\n@@ -4,7 +4,7 @@ mail:\n   host: smtp.acme.example.com\n   port: 587\n-  password: <<password>>\n+  password: ${SMTP_PASSWORD}\n   user: noreply",
    ),
    (
        "password_xml",
        "document",
        '<connectionStrings>\n  <add name="Main" connectionString="Server=db01.acme.internal;Database=erp;User Id=erp_app;Password=<<password>>;" />\n</connectionStrings>',
    ),
    (
        "password_properties",
        "document",
        "spring.datasource.url=jdbc:postgresql://db.acme.internal:5432/orders\nspring.datasource.username=orders\nspring.datasource.password=<<password>>",
    ),
    (
        "password_k8s_spec",
        "document",
        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: redis-auth\ntype: Opaque\nstringData:\n  password: <<password>>",
    ),
    (
        "getenv_default",
        "agent",
        'DB_PASS = os.getenv("DB_PASS", "<<password>>")\nengine = create_engine(f"postgresql://app:{DB_PASS}@db.acme.internal/app")',
    ),
    (
        "getenv_default",
        "document",
        "const adminPassword = process.env.ADMIN_PASSWORD ?? '<<password>>';",
    ),
    (
        "connection_string",
        "tool",
        "MONGODB_URI=mongodb+srv://reporting:<<password>>@cluster0.q8x1.mongodb.example/analytics?retryWrites=true",
    ),
    (
        "connection_string",
        "agent",
        "Redis for the queue: rediss://default:<<password>>@cache.acme.internal:6380/0",
    ),
    (
        "basic_auth_header",
        "tool",
        "> GET /admin/metrics HTTP/1.1\n> Host: grafana.acme.internal\n> Authorization: Basic <<basic>>\n< HTTP/1.1 200 OK",
    ),
    ("jwt_session", "tool", "Set-Cookie: session=<<jwt>>; Path=/; HttpOnly; Secure"),
    (
        "docker_auth",
        "document",
        '{\n  "auths": {\n    "registry.acme.example.com": { "auth": "<<basic>>" }\n  }\n}',
    ),
    ("npm_token", "document", "//registry.npmjs.example/:_authToken=<<npm>>\nalways-auth=true"),
    ("pypi_token", "tool", "[pypi]\nusername = __token__\npassword = <<pypi>>"),
    ("telegram_bot", "user", "bot token from botfather: <<telegram>>"),
    (
        "password_prose",
        "user",
        "my laptop login is <<password>> if you need to unlock it while I'm away",
    ),
    (
        "password_prose",
        "agent",
        "Router admin page: user admin, password <<password>>. The ISP reset it last week.",
    ),
    (
        "password_prose",
        "tool",
        "Hi, your temporary password for the staff portal is <<password>>. Please change it after first login.",
    ),
    ("password_prose_zh", "user", "公司邮箱的密码是<<password>>，你帮我登录一下看看有没有新邮件。"),
    ("password_prose_zh", "agent", "服务器 root 口令：<<password>>（运维刚改的，周五前别外传）"),
    ("password_prose_zh", "tool", "【系统通知】您的初始登录密码为 <<password>>，请尽快登录修改。"),
    (
        "password_prose_zh",
        "document",
        "交接说明：财务系统账号 caiwu01，密码 <<password>>，U盾在左边抽屉里。",
    ),
    ("password_prose_zh", "user", "记一下我网银的登录密码：<<password>>，支付密码另外再说。"),
    (
        "wifi_password",
        "user",
        "办公室 Wi-Fi：名称 ACME-5G，密码 <<password>>，访客网络不要给这个。",
    ),
    (
        "wifi_password",
        "document",
        'Guest wifi is open, but the staff network "acme-corp" uses WPA2 with passphrase <<password>>.',
    ),
    (
        "totp_seed",
        "tool",
        "otpauth://totp/Acme:ops@acme.example.com?secret=<<totp>>&issuer=Acme&digits=6",
    ),
    (
        "vault_token",
        "agent",
        "VAULT_ADDR=https://vault.acme.internal:8200 VAULT_TOKEN=<<vault>> vault kv get secret/payments",
    ),
    (
        "azure_storage_key",
        "document",
        "DefaultEndpointsProtocol=https;AccountName=acmeprodfiles;AccountKey=<<azure_storage>>;EndpointSuffix=core.windows.example",
    ),
    ("hf_token", "user", "huggingface-cli login --token <<hf>>"),
]


def _basic(g: Gen) -> str:
    import base64

    return base64.b64encode(
        f"svc_{g.s('abcdefghijklmnopqrstuvwxyz', 5)}:{cred(g, 'password')}".encode()
    ).decode()


def _render(g: Gen, template: str) -> str:
    split = cred(g, "github_pat")
    parts = [split[:14], split[14:28], split[28:]]

    def sub(m: re.Match[str]) -> str:
        key = m.group(1)
        if key == "pem":
            return pem_body(g, g.num(8, 14))
        if key == "pem_short":
            return pem_body(g, 3)
        if key == "pem_escaped":
            return pem_body(g, 6).replace("\n", "\\n")
        if key == "jwt":
            return jwt_like(
                g, f'{{"sub":"{g.num(1000, 9999)}","role":"service_role","iat":1764900000}}'
            )
        if key == "basic":
            return _basic(g)
        if key.startswith("split"):
            return parts[int(key[-1]) - 1]
        return cred(g, key)

    return re.sub(r"<<([a-z0-9_]+)>>", sub, template)


def build(g: Gen) -> None:
    for family, source, template in ITEMS:
        text = _render(g, template)
        zh = sum("\u4e00" <= c <= "\u9fff" for c in text) >= 4
        hard = source != "user" or zh
        g.add(
            "text",
            "secret",
            family,
            source,
            text,
            f"{family.replace('_', ' ')}" + (" ZH" if zh else ""),
            hard=hard,
        )
