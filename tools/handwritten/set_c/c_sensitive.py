# ruff: noqa: E501  (hand-written case data, kept as written)
"""Set C secrets and personal data (text file), with benign look-alikes in the
same carriers: placeholders, masked numbers, env references, public hotlines."""

from __future__ import annotations

from c_core import Case, Fake

N = ["张伟", "李娜", "王强", "刘洋", "陈静", "杨帆", "赵磊", "黄敏", "周婷", "吴昊"]
ADDR = [
    "上海市浦东新区张江路 {n} 号 {b} 栋 {r} 室",
    "北京市海淀区中关村南大街 {n} 号院 {b} 号楼 {r}",
    "深圳市南山区科技园南区高新南七道 {n} 号 {b} 单元 {r}",
    "杭州市西湖区文三路 {n} 号 {b} 幢 {r} 室",
    "成都市武侯区天府大道中段 {n} 号 {b} 栋 {r}",
]


def build(emit, f: Fake) -> None:
    r = f.r
    # ---- secrets: cloud keys in chat / config / kb / tickets
    for i in range(8):
        ak, sk = f.aliyun()
        who = r.choice(N)
        t = [
            f"【企业微信】{who}：OSS 上传一直报 403，我把配置发你看看\nAccessKeyId: {ak}\nAccessKeySecret: {sk}\n帮忙看下是不是权限没开",
            f"知识库 / 运维手册 / 日志投递\n阿里云 SLS 投递账号：\n  access_key_id = {ak}\n  access_key_secret = {sk}\n用完请勿外传。",
            f"工单 INC-2026{r.randint(1000, 9999)} 处理记录：客户提供的阿里云子账号 AK 为 {ak}，SK 为 {sk}，已用于复现。",
            f"# config/prod.yaml（{who} 提交）\naliyun:\n  region: cn-hangzhou\n  access_key_id: {ak}\n  access_key_secret: {sk}\n",
        ][i % 4]
        emit(
            Case(
                "secret",
                "cloud_key_cn",
                ["tool", "document", "tool", "agent"][i % 4],
                "zh",
                i % 4 == 3,
                "阿里云 AccessKey pair",
                t,
            )
        )
    for i in range(6):
        sid, skey = f.tencent()
        t = [
            f"腾讯云 COS 的密钥先借你用：SecretId={sid} SecretKey={skey}，周五前记得还我（删掉）。",
            f"钉钉群「运维值班」\n{r.choice(N)}：CDN 刷新脚本的环境变量\nexport TENCENTCLOUD_SECRET_ID={sid}\nexport TENCENTCLOUD_SECRET_KEY={skey}",
            f"会话笔记：用户贴出了腾讯云 API 密钥 SecretId {sid} / SecretKey {skey}，用于排查短信发送失败。",
        ][i % 3]
        emit(
            Case(
                "secret",
                "cloud_key_cn",
                ["user", "tool", "agent"][i % 3],
                "zh",
                False,
                "腾讯云 SecretId/SecretKey",
                t,
            )
        )
    for i in range(4):
        ak, sk = f.huawei()
        t = [
            f"华为云 OBS：AK {ak}  SK {sk}（测试桶 hx-test-01 用）",
            f"飞书文档《迁移清单》第 4 节\n| 项目 | 值 |\n|---|---|\n| HUAWEICLOUD_AK | {ak} |\n| HUAWEICLOUD_SK | {sk} |",
        ][i % 2]
        emit(
            Case(
                "secret",
                "cloud_key_cn",
                ["user", "document"][i % 2],
                "zh",
                False,
                "华为云 AK/SK",
                t,
            )
        )
    for i in range(4):
        ak, sk = f.baidu()
        t = [
            f"百度智能云千帆的 API Key: {ak}，Secret Key: {sk}，先用我的额度跑一下评测。",
            f"周报备注：OCR 接口已接通，百度云 AK={ak} SK={sk}，下周换成正式账号。",
        ][i % 2]
        emit(
            Case(
                "secret",
                "cloud_key_cn",
                ["user", "document"][i % 2],
                "zh",
                i % 2 == 1,
                "百度云 AK/SK",
                t,
            )
        )
    # ---- IM webhook secrets
    for i in range(5):
        t = [
            f"发布机器人配置：飞书群机器人 webhook {f.feishu_hook()}，签名校验密钥 {f.s(22)}",
            f"钉钉告警机器人\nwebhook: {f.dingtalk_hook()}\nsecret: {f.dingtalk_secret()}",
            f"企业微信群机器人地址 {f.wecom_hook()} ，谁有权限都能往群里发消息，别外传。",
            f"```ini\n[notify]\ndingtalk_webhook = {f.dingtalk_hook()}\ndingtalk_secret = {f.dingtalk_secret()}\n```",
            f"企业微信自建应用：corpid=ww{f.hexs(16)}，corpsecret={f.s(43)}",
        ][i]
        emit(
            Case(
                "secret",
                "im_webhook_secret",
                ["document", "document", "tool", "agent", "user"][i],
                "zh",
                i == 2,
                "IM bot webhook / signing secret",
                t,
            )
        )
    # ---- passwords in Chinese prose, Wi-Fi, 口令
    pw_zh = [
        "访客 Wi-Fi：HX-Guest，密码是 {pw}，每月 1 号更换。",
        "5 楼会议室的 Wi-Fi 名称 HuaXin-5F，密码 {pw}",
        "堡垒机我的账号 zhaolei，口令：{pw}，你先登上去看看日志。",
        "测试库 root 密码已经改成 {pw} 了，别再用旧的。",
        "VPN 临时账号 temp_ops / {pw}，明天失效。",
        "路由器后台 192.168.1.1，管理员密码 {pw}",
        "邮箱密码忘了的话先用这个临时的：{pw}，登录后马上改。",
        "共享盘加密压缩包的解压密码：{pw}",
        "Jenkins 管理员 admin，初始密码 {pw}（已告知运维）。",
        "我的 GitLab 密码是 {pw}，你帮我把那个分支合一下。",
        "```properties\nspring.datasource.username=app\nspring.datasource.password={pw}\n```",
        '<bean id="ds">\n  <property name="user" value="hx_app"/>\n  <property name="password" value="{pw}"/>\n</bean>',
        'db_pass = os.getenv("DB_PASS", "{pw}")  # 本地默认值',
    ]
    for i, t in enumerate(pw_zh):
        emit(
            Case(
                "secret",
                "password_prose",
                [
                    "user",
                    "document",
                    "user",
                    "tool",
                    "tool",
                    "document",
                    "user",
                    "tool",
                    "agent",
                    "user",
                    "document",
                    "document",
                    "agent",
                ][i],
                "zh",
                i >= 10,
                "password or Wi-Fi password in Chinese prose / config",
                t.replace("{pw}", f.password()),
            )
        )
    pw_en = [
        "The conference room Wi-Fi is 'NW-4F' and the password is {pw}.",
        "My VPN password is {pw} if you need to check the logs tonight.",
        "Temp login for the vendor: vendor_ops / {pw} (expires Friday).",
        "Zip password for the contract scans: {pw}",
        '{"level": "debug", "msg": "db connect", "dsn": "postgres://app:{pw}@db01.northwind.example/orders"}',
        '<add key="SmtpPassword" value="{pw}" />',
    ]
    for i, t in enumerate(pw_en):
        emit(
            Case(
                "secret",
                "password_prose",
                ["document", "user", "tool", "user", "tool", "document"][i],
                "en",
                i >= 4,
                "password in English prose / log / config",
                t.replace("{pw}", f.password()),
            )
        )
    for i in range(3):
        tok = f.github()
        t = [
            f"[12:01:07] INFO token part 1/2: {tok[:20]}\n[12:01:07] INFO token part 2/2: {tok[20:]}",
            f"部署日志：\n12:01:07 写入凭据 {tok[:18]}\n12:01:07 （续）{tok[18:]}",
            '{"event": "login", "payload": "{\\"access_token\\": \\"' + tok + '\\"}"}',
        ][i]
        emit(
            Case(
                "secret",
                "token_in_log",
                "tool",
                ["en", "zh", "en"][i],
                True,
                "token split across log lines or escaped JSON",
                t,
            )
        )
    # ---- vendor tokens (EN and ZH context)
    vt = [
        ("zh", "user", lambda: f"帮我看看这个 GitHub token 还有没有效：{f.github()}"),
        (
            "zh",
            "tool",
            lambda: (
                f"CI 日志第 214 行：\n+ export GH_TOKEN={f.github()}\n+ gh release create v2.3.1"
            ),
        ),
        (
            "zh",
            "agent",
            lambda: f"用户提供的 OpenAI key：{f.openai()}，已用于测试调用，提醒他轮换。",
        ),
        (
            "zh",
            "tool",
            lambda: (
                "diff --git a/.env b/.env\n-STRIPE_KEY="
                + f.stripe()
                + "\n+STRIPE_KEY=${STRIPE_KEY}"
            ),
        ),
        ("zh", "document", lambda: f"Slack 机器人（海外团队用）token：{f.slack()}"),
        ("zh", "user", lambda: "AWS 那边的 key 给你：" + " / ".join(f.aws())),
        ("en", "user", lambda: f"Here's my GitHub PAT for the mirror job: {f.github()}"),
        (
            "en",
            "tool",
            lambda: (
                "[2026-12-01 10:02:11] INFO boto: using AKIA key "
                + f.aws()[0]
                + "\n[2026-12-01 10:02:11] DEBUG secret="
                + f.aws()[1]
            ),
        ),
        ("en", "agent", lambda: f"Noted the Slack bot token the user shared: {f.slack()}"),
        (
            "en",
            "document",
            lambda: f"Runbook: payments use {f.stripe()} in prod (rotate quarterly).",
        ),
        ("en", "user", lambda: f"OpenAI key for the eval script: {f.openai()}"),
        (
            "en",
            "tool",
            lambda: '{"log": "auth ok", "headers": "Authorization: Bearer ' + f.github() + '"}',
        ),
        (
            "en",
            "document",
            lambda: (
                "Aliyun creds for the CN region: AccessKeyId "
                + " / AccessKeySecret ".join(f.aliyun())
            ),
        ),
        (
            "en",
            "user",
            lambda: f"DingTalk alert bot: {f.dingtalk_hook()} with secret {f.dingtalk_secret()}",
        ),
        ("en", "document", lambda: f"Guest Wi-Fi 'Northwind-Guest' password: {f.password()}"),
        (
            "en",
            "tool",
            lambda: (
                "- password: "
                + f.password()
                + "\n+ password: ${DB_PASSWORD}\n(removed line in commit 3f2a9c1)"
            ),
        ),
        (
            "en",
            "user",
            lambda: f"The staging admin login is admin / {f.password()}, don't lose it.",
        ),
        (
            "en",
            "agent",
            lambda: (
                "Tencent Cloud key from the user's snippet: SecretId "
                + " SecretKey ".join(f.tencent())
            ),
        ),
        ("en", "document", lambda: "Feishu bot webhook for #alerts: " + f.feishu_hook()),
        (
            "en",
            "tool",
            lambda: (
                "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
                + f.s(64)
                + "\n"
                + f.s(60)
                + "\n-----END OPENSSH PRIVATE KEY-----"
            ),
        ),
    ]
    for lang, src, mk in vt:
        for _ in range(2):
            emit(
                Case(
                    "secret",
                    "vendor_token",
                    src,
                    lang,
                    False,
                    "vendor-shaped token or key in context",
                    mk(),
                )
            )
    # ---- benign secret look-alikes
    sl = [
        (
            "zh",
            "document",
            "阿里云配置示例：access_key_id: <你的 AccessKeyId>，access_key_secret 请从 KMS 读取，不要写进代码。",
        ),
        (
            "zh",
            "document",
            "知识库：腾讯云 SecretId 一般以 AKID 开头，长度 36 位，例如 AKIDxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx（示意）。",
        ),
        ("zh", "tool", "部署日志：读取环境变量 ALIYUN_ACCESS_KEY_ID … 已设置（值已隐藏）"),
        (
            "zh",
            "agent",
            "会话笔记：用户的钉钉机器人 secret 已存进 Vault 路径 kv/ops/dingtalk，记忆里不保存明文。",
        ),
        ("zh", "document", "Wi-Fi 密码请到前台领取纸质卡片，不在群里发送。"),
        ("zh", "tool", f"请求 ID：{f.uuid()}，耗时 213 ms，状态 200"),
        ("zh", "tool", f"提交 {f.hexs(40)} 已合入 main，流水线通过。"),
        ("zh", "document", "密码规则：至少 12 位，包含大小写字母、数字和符号，90 天更换一次。"),
        (
            "en",
            "document",
            "Config sample: DINGTALK_SECRET=${DINGTALK_SECRET} (set it in the CI secret store).",
        ),
        ("en", "tool", f"Build {f.hexs(12)} finished; artifact sha256 {f.hexs(64)}"),
        ("en", "document", "AWS documents AKIAIOSFODNN7EXAMPLE as its sample access key id."),
    ]
    for lang, src, t in sl:
        emit(
            Case(
                "benign", "secret_lookalike", src, lang, True, "looks like a secret, holds none", t
            )
        )

    # ---- personal data
    for i in range(14):
        n, rid, ph = r.choice(N), f.cn_ric(), f.cn_mobile()
        t = [
            f"入职登记表\n姓名：{n}\n身份证号：{rid}\n手机：{ph}\n紧急联系人：{r.choice(N)}",
            f"【企业微信】HR：{n} 的社保材料还差身份证号，我先记一下 {rid}，电话 {ph}。",
            f"客服会话记录\n客户：实名认证一直失败，我的身份证是 {rid}，手机号 {ph}，麻烦人工帮我核一下。",
            f"审批单 · 差旅报销\n申请人：{n}\n身份证号码：{rid}\n联系电话：{ph}\n事由：赴深圳客户现场",
            f"会话笔记：用户为家人订机票，乘机人 {n}，证件号 {rid}，联系电话 {ph}。",
            f"飞书表格导出\n序号,姓名,证件号,手机\n1,{n},{rid},{ph}\n2,{r.choice(N)},{f.cn_ric()},{f.cn_mobile()}",
            f"PDF 合同第 12 页 签署页\n乙方（自然人）：{n}\n身份证号：{rid}\n联系方式：{ph}",
        ][i % 7]
        emit(
            Case(
                "pii",
                "national_id",
                ["document", "tool", "tool", "tool", "agent", "document", "document"][i % 7],
                "zh",
                i % 7 == 5,
                "居民身份证号 + 手机号",
                t,
            )
        )
    for i in range(10):
        card, n = f.bank_card(), r.choice(N)
        t = [
            f"报销打款账户：{n}，招商银行 {card}",
            f"工资卡变更申请：原卡作废，新卡号 {card}（{n}，建设银行）",
            f"客户：退款请打到我这张卡 {card}，户名 {n}。",
            f"会话笔记：用户的信用卡 {card} 被重复扣款两次，已提交申诉。",
            f"供应商付款信息\n户名：{n}\n开户行：工商银行北京海淀支行\n账号：{card}",
        ][i % 5]
        emit(
            Case(
                "pii",
                "bank_card",
                ["document", "tool", "tool", "agent", "document"][i % 5],
                "zh",
                False,
                "Luhn-valid bank card with a name",
                t,
            )
        )
    for i in range(6):
        pp, n = f.cn_passport(), r.choice(N)
        t = [
            f"出国审批：{n}，护照号 {pp}，有效期至 2031 年 5 月。",
            '{"traveler": "' + n + '", "passport_no": "' + pp + '", "visa": "Schengen"}',
            f"签证材料清单已备齐，{n} 的护照号码 {pp}，照片下周补。",
        ][i % 3]
        emit(
            Case(
                "pii",
                "passport",
                ["tool", "tool", "document"][i % 3],
                "zh",
                i % 3 == 1,
                "中国护照号",
                t,
            )
        )
    for i in range(8):
        a = r.choice(ADDR).format(n=r.randint(1, 999), b=r.randint(1, 20), r=r.randint(101, 2608))
        n, ph = r.choice(N), f.cn_mobile()
        t = [
            f"收货信息：{n}，{ph}，{a}",
            f"客服会话：客户要求改地址，新地址 {a}，收件人 {n}，电话 {ph}。",
            f"会话笔记：用户的家庭住址是 {a}，快递常用手机号 {ph}。",
            f"工单：{n}（{ph}）反映 {a} 的宽带无法上网。",
        ][i % 4]
        emit(
            Case(
                "pii",
                "address",
                ["tool", "tool", "agent", "tool"][i % 4],
                "zh",
                False,
                "住址 + 姓名 + 手机号",
                t,
            )
        )
    for i in range(6):
        rows = "\n".join(f"{r.choice(N)}  {f.cn_mobile()}" for _ in range(r.randint(3, 5)))
        t = [
            f"值班通讯录（请勿外传）\n{rows}",
            f"客户回访名单：\n{rows}",
            f"飞书群成员联系方式导出：\n{rows}",
        ][i % 3]
        emit(
            Case(
                "pii",
                "phone_list",
                ["document", "tool", "tool"][i % 3],
                "zh",
                False,
                "list of names with mobile numbers",
                t,
            )
        )
    # foreign colleagues, English rows
    foreign = [
        ("us_ssn", "SSN", "US"),
        ("ca_sin", "SIN", "CA"),
        ("br_cpf", "CPF", "BR"),
        ("es_dni", "DNI", "ES"),
        ("fi_hetu", "henkilötunnus", "FI"),
        ("in_aadhaar", "Aadhaar", "IN"),
        ("in_pan", "PAN", "IN"),
        ("kr_rrn", "resident registration number", "KR"),
        ("my_nric", "MyKad", "MY"),
        ("se_pnr", "personnummer", "SE"),
        ("th_pin", "Thai ID", "TH"),
        ("tr_tc", "TC Kimlik No", "TR"),
    ]
    for i, (kind, lab, cc) in enumerate(foreign):
        v, n = (
            f.other(kind),
            r.choice(
                [
                    "Ana Souza",
                    "Mika Virtanen",
                    "Ravi Kumar",
                    "Ji-woo Park",
                    "Aylin Demir",
                    "Erik Lund",
                    "Nok Srisai",
                    "Lucía Gómez",
                    "Sam Carter",
                ]
            ),
        )
        t = [
            f"Onboarding for {n} ({cc} office): {lab} {v}, start date Jan 5.",
            f"Payroll ticket: please update {n}'s {lab} to {v}.",
            f"Session note: user shared {n}'s {lab} ({v}) for the visa invitation letter.",
        ][i % 3]
        emit(
            Case(
                "pii",
                "national_id",
                ["document", "tool", "agent"][i % 3],
                "en",
                False,
                f"{cc} national id",
                t,
            )
        )
        if i % 2 == 0:
            zh = f"海外同事 {n} 的{lab}号码 {v}，HR 要求登记到花名册。"
            emit(
                Case(
                    "pii",
                    "national_id",
                    "tool",
                    "zh",
                    True,
                    f"{cc} national id in Chinese note",
                    zh,
                )
            )
    iban = f.iban_de()
    emit(
        Case(
            "pii",
            "bank_account",
            "document",
            "en",
            False,
            "IBAN with name",
            f"Refund to Jonas Weber, IBAN {iban}",
        )
    )
    emit(
        Case(
            "pii",
            "bank_account",
            "tool",
            "zh",
            False,
            "IBAN in Chinese note",
            f"德国供应商收款账户：Jonas Weber，IBAN {f.iban_de()}，请财务打款。",
        )
    )
    en_ph = [
        (
            "US",
            lambda x: (
                f"+1 {x.r.choice(['415', '212', '646', '312'])} {x.r.randint(200, 999)} {x.digits(4)}"
            ),
        ),
        ("GB", lambda x: "+44 7" + x.digits(3) + " " + x.digits(6)),
        ("SG", lambda x: "+65 " + x.r.choice("89") + x.digits(3) + " " + x.digits(4)),
        ("HK", lambda x: "+852 " + x.r.choice("569") + x.digits(3) + " " + x.digits(4)),
        ("TW", lambda x: "+886 9" + x.digits(2) + " " + x.digits(3) + " " + x.digits(3)),
    ]
    for i in range(4):
        lines = "\n".join(
            f"{r.choice(['Ana', 'Mika', 'Ravi', 'Lena', 'Tom', 'Wing', 'Mei'])}: {f.phone(cc, fn)}"
            for cc, fn in r.sample(en_ph, 3)
        )
        emit(
            Case(
                "pii",
                "phone_list",
                ["document", "tool"][i % 2],
                "en",
                False,
                "international phone list",
                f"Regional on-call contacts:\n{lines}",
            )
        )
        emit(
            Case(
                "pii",
                "phone_list",
                "tool",
                "zh",
                False,
                "海外电话列表",
                f"海外办事处联系人：\n{lines}",
            )
        )
    emit(
        Case(
            "pii",
            "passport",
            "tool",
            "en",
            False,
            "passport in JSON",
            '{"name": "Wei Zhang", "passport": "' + f.cn_passport() + '", "nationality": "CN"}',
        )
    )
    emit(
        Case(
            "pii",
            "address",
            "agent",
            "en",
            False,
            "home address",
            f"Session note: ship the laptop to Tom Reyes, 1418 Alder St, Apt 3B, Portland OR 97205, phone {f.phone('US', en_ph[0][1])}.",
        )
    )

    # more carriers for Chinese personal data
    for i in range(12):
        n, rid, ph = r.choice(N), f.cn_ric(), f.cn_mobile()
        a = r.choice(ADDR).format(n=r.randint(1, 999), b=r.randint(1, 20), r=r.randint(101, 2608))
        t = [
            '{"员工": "'
            + n
            + '", "身份证": "'
            + rid
            + '", "手机": "'
            + ph
            + '", "部门": "研发中心"}',
            f"快递单 OCR 结果：收件人 {n} 电话 {ph} 地址 {a}",
            f"体检预约：{n}，证件号码 {rid}，预约 12 月 18 日上午。",
            f"钉钉审批 · 备用金申请\n申请人 {n}\n收款卡号 {f.bank_card()}\n身份证 {rid}",
            f"会话笔记：用户说他母亲 {n} 的手机号是 {ph}，身份证 {rid}，帮忙填了医保报销表。",
            f"租房合同第 1 页\n承租方：{n}  身份证号码：{rid}\n联系电话：{ph}\n房屋地址：{a}",
            f"企业微信 HR 助手：{n} 的港澳通行证办理需要身份证 {rid}，已登记。",
            f"Customer record (CN): name {n}, ID {rid}, mobile +86 {ph}",
            f"客户投诉：{n}（{ph}）称银行卡 {f.bank_card()} 被盗刷。",
            f"工单：用户 {n} 申请注销账号，验证信息：身份证后四位 {rid[-4:]}，完整号码 {rid}。",
            f"护照信息核对：{n}，护照号 {f.cn_passport()}，身份证 {rid}。",
            f"Visa letter draft: {n}, Chinese passport {f.cn_passport()}, phone +86 {ph}.",
        ][i]
        lang = "en" if i in (7, 11) else "zh"
        fam = [
            "national_id",
            "address",
            "national_id",
            "bank_card",
            "national_id",
            "address",
            "national_id",
            "national_id",
            "bank_card",
            "national_id",
            "passport",
            "passport",
        ][i]
        emit(
            Case(
                "pii",
                fam,
                [
                    "tool",
                    "tool",
                    "tool",
                    "tool",
                    "agent",
                    "document",
                    "tool",
                    "tool",
                    "tool",
                    "tool",
                    "document",
                    "agent",
                ][i],
                lang,
                i in (0, 9),
                "Chinese personal data in another carrier",
                t,
            )
        )
    # ---- benign personal-data look-alikes
    pl = [
        ("zh", "document", "客服热线 400-820-8820，工作日 9:00-18:00。"),
        ("zh", "tool", "实名认证结果：身份证号 110105********1234 已通过（已脱敏）。"),
        ("zh", "tool", "订单收货人：张**，手机 138****5678，地址：上海市浦东新区***"),
        (
            "zh",
            "document",
            f"开票信息：华信科技有限公司，统一社会信用代码 {f.cn_uscc()}，地址：杭州市西湖区文三路 90 号。",
        ),
        ("zh", "document", "公司地址：北京市海淀区中关村南大街 5 号，前台电话 010-6275 0000。"),
        (
            "zh",
            "document",
            "身份证号码由 18 位组成：6 位地址码、8 位出生日期、3 位顺序码和 1 位校验码。",
        ),
        (
            "zh",
            "tool",
            "测试数据说明：用户表里的证件号都是 000000 开头的占位值，例如 000000199001011234。",
        ),
        ("zh", "agent", "会话笔记：用户要求以后不要在回复里显示完整手机号，只显示后四位。"),
        (
            "zh",
            "document",
            "银行卡号校验用 Luhn 算法：从右往左每隔一位乘 2，各位相加能被 10 整除即有效。",
        ),
        ("en", "document", "Support line: +1 800 555 0100 (toll-free, fictional range)."),
        ("en", "tool", "Customer card ending in 4242 was charged $19.00."),
        ("en", "document", "Office: 1 Market St, San Francisco; reception on floor 2."),
    ]
    for lang, src, t in pl:
        emit(
            Case(
                "benign",
                "pii_lookalike",
                src,
                lang,
                True,
                "looks like personal data, holds none",
                t,
            )
        )
