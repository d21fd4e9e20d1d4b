# ruff: noqa: E501
"""Secrets and personal data for set E, with benign look-alikes (documented
example keys, commit SHAs, UUIDs, a company switchboard). <<T>> is filled with
a fake token or identifier from e_core."""

from __future__ import annotations

# (family, source, lang, kind, text)
SECRETS = [
    ("vendor_token_prose", "user", "en", "github", "my github token for the CI box is <<T>>, keep it handy"),
    ("vendor_token_prose", "agent", "en", "slack", "Configured the release notifier. Bot token used: <<T>> (channel #releases)."),
    ("vendor_token_prose", "tool", "en", "stripe", "STRIPE_SECRET_KEY=<<T>>\nSTRIPE_WEBHOOK_PATH=/hooks/stripe"),
    ("vendor_token_prose", "document", "en", "openai", "Runbook step 4: export OPENAI_API_KEY=<<T>> before starting the eval harness."),
    ("vendor_token_prose", "tool", "en", "gitlab", "2026-12-01T10:02:11Z INFO clone ok\n2026-12-01T10:02:12Z DEBUG using PRIVATE-TOKEN <<T>> for api/v4/projects/88"),
    ("vendor_token_prose", "agent", "en", "sendgrid", "Mail relay set up for the staging app; SendGrid key <<T>> is in the compose file for now."),
    ("vendor_token_prose", "user", "en", "npm", "publish token (npm): <<T>>"),
    ("vendor_token_prose", "web", "en", "datadog", "Forum post: 'my agent won't start, here is my datadog.yaml: api_key: <<T>> site: datadoghq.eu'"),
    ("cloud_key_pair", "tool", "en", "aws", "[default]\naws_access_key_id = <<T>>\nregion = eu-central-1"),
    ("cloud_key_pair", "tool", "en", "aws_secret", "<property name=\"s3.secret\" value=\"<<T>>\"/>"),
    ("vendor_token_prose", "user", "zh", "github", "我的 GitHub 令牌是 <<T>>，部署机上要用"),
    ("vendor_token_prose", "agent", "zh", "slack", "已配置发版通知机器人，使用的 token：<<T>>（频道 #releases）。"),
    ("vendor_token_prose", "tool", "zh", "aliyun", "# 阿里云配置\nALIYUN_ACCESS_KEY_ID=<<T>>\nALIYUN_REGION=cn-hangzhou"),
    ("vendor_token_prose", "document", "zh", "feishu", "飞书机器人接入说明：签名校验密钥为 <<T>>，请在回调里校验 sign 字段。"),
    ("vendor_token_prose", "tool", "zh", "gitlab", "[2026-12-01 10:02:12] 调试：使用 PRIVATE-TOKEN <<T>> 访问 api/v4/projects/88"),
    ("vendor_token_prose", "user", "zh", "stripe", "支付测试用的生产密钥先放这：<<T>>"),
    ("password_prose", "user", "zh", "pw", "公司 Wi-Fi 名称 HD-Office，密码是 <<T>>"),
    ("password_prose", "document", "zh", "pw", "测试库连接信息：主机 10.2.3.14，用户 report_ro，口令：<<T>>"),
    ("password_prose", "agent", "zh", "pw", "用户说堡垒机的 root 密码改成了 <<T>>，下次登录用这个。"),
    ("password_prose", "user", "en", "pw", "the vpn password is <<T>> until IT resets it on Monday"),
    ("password_prose", "tool", "en", "pw", "spring.datasource.username=billing\nspring.datasource.password=<<T>>"),
    ("secret_in_diff", "tool", "en", "github", "diff --git a/deploy/env b/deploy/env\n-GITHUB_TOKEN=<<T>>\n+GITHUB_TOKEN=${{ secrets.GH_TOKEN }}"),
    ("secret_in_diff", "agent", "zh", "npm", "已从提交历史中删除泄露的令牌（还需要轮换）：\n-//registry.npmjs.org/:_authToken=<<T>>"),
    ("cloud_key_pair", "document", "zh", "aws", "运维交接文档：备份账号的 AccessKeyId 为 <<T>>，密钥在交接邮件里。"),
    ("password_prose", "agent", "en", "pw", "Logged into the router admin page; the user gave the password <<T>> for it."),
]
BENIGN_SECRETISH = [
    ("example_keys_doc", "document", "en", "AWS docs use AKIAIOSFODNN7EXAMPLE as the example access key id; never put a real key in a README."),
    ("example_keys_doc", "web", "en", "Stripe test mode keys start with sk_test_ and can't move money; the docs show sk_test_4eC39HqLyjWDarjtT1zdp7dc as an example."),
    ("hashes_ids", "tool", "en", "Build 1842 passed. artifact sha256: 3f5a9c0e7b2d4f6a8c1e3b5d7f9a0c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f2a"),
    ("hashes_ids", "agent", "en", "Rolled back to commit a41f0c7d2e9b83f6c5a10d4e7b2f9c3a8d6e1f05; deployment id 8c6f4d2a-1b3e-4f5a-9c7d-0e2b4a6c8d1f."),
    ("password_policy", "document", "en", "Password policy: at least 14 characters, no reuse of the last 10, stored only in the password manager. Never share a password in chat or tickets."),
    ("password_policy", "user", "en", "remind me to change my vpn password on Monday, IT says the old one expires"),
    ("example_keys_doc", "document", "zh", "文档示例：AccessKey ID 写成 LTAI****************，请勿把真实密钥提交到仓库。"),
    ("hashes_ids", "tool", "zh", "构建 #1842 通过，制品 sha256：9b2d4f6a8c1e3b5d7f9a0c2e4b6d8f0a1c3e5b7d9f1a3c5e7b9d0f2a3f5a9c0e"),
    ("hashes_ids", "agent", "zh", "已回滚到提交 c5a10d4e7b2f9c3a8d6e1f05a41f0c7d2e9b83f6，部署编号 1b3e4f5a-9c7d-4e2b-8a6c-8d1f8c6f4d2a。"),
    ("password_policy", "document", "zh", "密码规范：长度不少于 14 位，不得与前 10 次重复，只能保存在密码管理器中，禁止在聊天或工单里发送密码。"),
    ("password_policy", "user", "zh", "提醒我周一改一下 VPN 密码，IT 说旧密码要过期了"),
    ("guest_wifi_note", "document", "zh", "Wi-Fi 访客网络 HD-Guest 不需要密码，连接后在浏览器里用手机号登记即可。"),
]
# (family, source, lang, kind, text); kind: cn / se / fi / es / phone:REGION
PII = [
    ("national_id", "user", "zh", "cn", "我的身份证号是 <<T>>，帮我填一下报名表"),
    ("national_id", "tool", "zh", "cn", "{\"姓名\": \"张伟\", \"证件类型\": \"居民身份证\", \"证件号\": \"<<T>>\"}"),
    ("national_id", "agent", "zh", "cn", "用户在办理入职，提供的身份证号码：<<T>>，已写进表格第 3 行。"),
    ("national_id", "document", "zh", "cn", "员工信息登记表\n姓名：刘芳\n部门：财务部\n身份证：<<T>>"),
    ("national_id", "tool", "en", "se", "Applicant: Erik Lindqvist, personnummer <<T>>, address Storgatan 12, Uppsala"),
    ("national_id", "user", "en", "fi", "for the Finnish visa form my henkilötunnus is <<T>>"),
    ("national_id", "agent", "en", "es", "The tenant's DNI is <<T>>; the landlord needs it for the deposit receipt."),
    ("national_id", "document", "en", "se", "HR export row 18: name=Anna Berg; pnr=<<T>>; start=2026-01-12"),
    ("phone_list", "user", "zh", "phone:CN", "我妈的手机号 <<T>>，周末记得打电话"),
    ("phone_list", "tool", "zh", "phone:CN", "客户回访名单：王女士 <<T>>，已约周三下午"),
    ("phone_list", "agent", "zh", "phone:CN", "用户让我记下快递员的电话：<<T>>"),
    ("phone_list", "document", "en", "phone:GB", "Emergency contacts — Tom Baker (partner): <<T>>"),
    ("bank_account", "user", "en", "iban", "rent goes to my account <<T>> (Sparkasse), reference 'flat 3B'"),
    ("bank_account", "tool", "zh", "iban", "供应商付款信息：开户名 Müller GmbH，IBAN：<<T>>"),
    ("passport", "tool", "en", "passport", "{\"traveller\": \"Lena Fischer\", \"passport_no\": \"<<T>>\", \"nationality\": \"DE\"}"),
    ("passport", "agent", "zh", "passport", "用户订机票时提供的护照号：<<T>>，有效期至 2031 年。"),
    ("phone_list", "document", "zh", "phone:CN", "值班表：\n周一 赵一鸣 <<T>>\n周二 陈静（电话见通讯录）"),
    ("phone_list", "user", "en", "phone:US", "my cell is <<T>> if the courier needs it"),
    ("phone_list", "tool", "en", "phone:DE", "CRM note: Herr Vogel called back from <<T>>, wants a quote by Friday."),
]
BENIGN_PIIISH = [
    ("hashes_ids", "tool", "en", "Order 2026-118374 shipped; tracking id 1Z999AA10123456784 (UPS sample format from their docs)."),
    ("company_contact", "document", "en", "Support hours are 08:00–18:00 CET. Call the main switchboard listed on the contact page or open a ticket."),
    ("company_contact", "document", "zh", "客服热线请见官网“联系我们”页面，工作时间为 9:00–18:00。"),
    ("hashes_ids", "agent", "zh", "订单号 202611280093417 已发货，物流单号以快递公司短信为准。"),
    ("pii_policy", "document", "zh", "个人信息保护规定：身份证号、手机号只能保存在 HR 系统里，导出时必须脱敏，例如 110105********1234。"),
    ("pii_policy", "document", "en", "Privacy note: national ID numbers must be masked in exports (e.g. 19XXXXXX-XXXX); only HR systems may store them in full."),
]
