# ruff: noqa: E501 - hand-written item texts and shape tables are kept on one line each
"""Personal data: national IDs of many countries (valid check digits, generated here and
re-validated with python-stdnum), phone lists (valid by libphonenumber), passports, bank
accounts, IBANs, addresses with names. All names and numbers are invented."""

from __future__ import annotations

from h3carriers import csv_rows, email, ticket, tool_json
from h3core import Gen, ident, name, phone, rs, zh_name

L = "pii"


def build() -> Gen:
    g = Gen("pii", "text")
    r = g.rng
    add = g.add

    def i(kind: str) -> str:
        v = ident(r, kind)
        g.checks.append((kind, v))
        return v

    def p(region: str) -> str:
        v = phone(r, region)
        g.checks.append(("phone", v))
        return v

    n = lambda: name(r)  # noqa: E731
    zn = lambda: zh_name(r)  # noqa: E731

    add(
        L,
        "national_id_cn",
        "user",
        False,
        "ZH ID card in prose",
        f"我的身份证号是 {i('cn')}，订机票的时候帮我填上。",
    )
    add(
        L,
        "national_id_cn",
        "tool",
        True,
        "ZH ID in JSON record",
        tool_json(
            r,
            "crm.get",
            {"姓名": zn(), "证件类型": "居民身份证", "证件号": i("cn"), "手机": p("CN")},
        ),
    )
    add(
        L,
        "national_id_cn",
        "document",
        True,
        "ZH ID in contract text",
        f"甲方：{zn()}，身份证号码：{i('cn')}，住址：上海市徐汇区漕溪北路 {r.randint(10, 399)} 号。",
    )
    add(
        L,
        "national_id_cn",
        "agent",
        True,
        "ZH ID list in agent note",
        f"报名名单已核对：\n1. {zn()} {i('cn')}\n2. {zn()} {i('cn')}\n3. {zn()} {i('cn')}",
    )
    add(
        L,
        "national_id_se",
        "user",
        False,
        "Swedish personnummer",
        f"My personnummer is {i('se')} in case the Skatteverket form asks.",
    )
    add(
        L,
        "national_id_fi",
        "document",
        True,
        "Finnish HETU in HR form",
        f"Employee: {n()}\nHenkilötunnus: {i('fi')}\nStart date: 2026-01-05",
    )
    add(
        L,
        "national_id_es",
        "tool",
        True,
        "Spanish DNI in booking JSON",
        tool_json(r, "booking.get", {"guest": n(), "dni": i("es"), "nights": 3}),
    )
    add(
        L,
        "national_id_es_nie",
        "user",
        True,
        "Spanish NIE ZH prose",
        f"我在西班牙的 NIE 号码是 {i('es_nie')}，办银行卡要用，帮我记住。",
    )
    add(
        L,
        "national_id_tr",
        "document",
        True,
        "Turkish TCKN",
        f"Müşteri: {n()} — T.C. Kimlik No: {i('tr')}",
    )
    add(
        L,
        "national_id_kr",
        "tool",
        True,
        "Korean RRN",
        f"member_profile: name={n()} rrn={i('kr')} tier=gold",
    )
    add(
        L,
        "national_id_th",
        "user",
        True,
        "Thai ID",
        f"Thai national ID for the visa letter: {i('th')}",
    )
    add(
        L,
        "national_id_uk_nino",
        "agent",
        True,
        "UK NINO",
        f"Payroll setup for {n()}: NI number {i('nino')}, tax code 1257L.",
    )
    add(
        L,
        "national_id_ca_sin",
        "document",
        True,
        "Canadian SIN no dashes near label",
        f"T4 slip draft\nEmployee name: {n()}\nSIN {i('ca_sin')}\nBox 14: 68,400.00",
    )
    add(
        L,
        "national_id_in_aadhaar",
        "tool",
        True,
        "Aadhaar ZH lead-in",
        f"印度同事入职材料：Aadhaar {i('aadhaar')}，PAN {i('pan')}",
    )
    add(
        L,
        "national_id_br_cpf",
        "user",
        False,
        "Brazilian CPF",
        f"CPF do cliente {n()}: {i('br_cpf')}",
    )
    add(
        L,
        "national_id_fr_nir",
        "document",
        True,
        "French NIR",
        f"Attestation de sécurité sociale — {n()}, n° {i('fr_nir')}",
    )
    add(
        L,
        "national_id_de",
        "tool",
        True,
        "German Steuer-ID",
        f"Lohnabrechnung: {n()}, Steuer-ID {i('de_idnr')}, Steuerklasse 1",
    )
    add(
        L,
        "national_id_it",
        "document",
        True,
        "Italian codice fiscale",
        f"Intestatario: {n()}\nCodice fiscale: {i('it_cf')}",
    )
    add(
        L,
        "national_id_jp",
        "user",
        True,
        "Japanese My Number ZH",
        f"我的日本个人编号（マイナンバー）是 {i('jp')}，报税用。",
    )
    add(
        L,
        "national_id_hk",
        "tool",
        True,
        "HKID ZH",
        f"客户资料：{zn()}，香港身份证 {i('hk')}，电话 {p('HK')}",
    )
    add(
        L,
        "national_id_tw",
        "document",
        True,
        "Taiwan ID ZH",
        f"申請人：{zn()}　身分證字號：{i('tw')}　地址：台北市信義區松仁路 {r.randint(1, 200)} 號",
    )
    add(
        L,
        "national_id_nl",
        "agent",
        True,
        "Dutch BSN",
        f"Saved: {n()}'s BSN is {i('nl_bsn')} (needed for the DigiD form).",
    )
    add(L, "national_id_no", "user", True, "Norwegian fødselsnummer", f"fødselsnummer: {i('no')}")
    add(
        L,
        "national_id_pl",
        "tool",
        True,
        "Polish PESEL ZH lead-in",
        f"波兰分公司员工表：\n{csv_rows(['imie', 'nazwisko', 'pesel'], [[n().split()[0], n().split()[1], i('pl')], [n().split()[0], n().split()[1], i('pl')]])}",
    )
    add(
        L,
        "national_id_us_ssn",
        "document",
        False,
        "US SSN",
        f"Applicant {n()}, SSN {i('us_ssn')}, DOB 1987-03-14",
    )
    add(
        L,
        "national_id_us_ssn",
        "user",
        True,
        "SSN without dashes near label",
        f"ssn for the w-9 is {i('us_ssn').replace('-', '')}",
    )
    add(
        L,
        "national_id_us_itin",
        "tool",
        True,
        "US ITIN",
        tool_json(r, "tax.profile", {"name": n(), "itin": i("us_itin"), "filing": "single"}),
    )
    add(
        L,
        "national_id_za",
        "document",
        True,
        "South African ID",
        f"Tenant: {n()} — ID number {i('za')}",
    )
    add(L, "national_id_cl", "user", True, "Chilean RUT", f"Mi RUT es {i('cl')}, para la factura.")
    add(L, "national_id_ch", "tool", True, "Swiss AHV", f"AHV-Nr. {i('ch_ssn')} — {n()}")
    add(
        L,
        "national_id_dk",
        "document",
        True,
        "Danish CPR ZH",
        f"丹麦客户 {n()} 的 CPR 号：{i('dk')}",
    )
    add(
        L,
        "national_id_in_pan",
        "agent",
        True,
        "Indian PAN",
        f"Vendor onboarding: {n()}, PAN {i('pan')}, GST pending.",
    )

    add(
        L,
        "phone_list",
        "tool",
        True,
        "phone list many formats",
        csv_rows(
            ["name", "mobile", "city"],
            [
                [n(), p("US"), "Boston"],
                [n(), p("GB"), "Leeds"],
                [n(), p("DE"), "Köln"],
                [n(), p("FR"), "Lyon"],
            ],
        ),
    )
    add(
        L,
        "phone_list_zh",
        "document",
        True,
        "ZH phone list",
        f"值班通讯录：\n{zn()}  {p('CN')}\n{zn()}  {p('CN')}\n{zn()}  {p('CN').replace(' ', '')}\n{zn()}  {p('TW')}",
    )
    add(
        L,
        "phone_prose",
        "user",
        False,
        "phone in prose",
        f"My mobile is {p('AU')} and my partner's is {p('AU')}; call either if the delivery is late.",
    )
    add(
        L,
        "phone_prose_zh",
        "user",
        False,
        "ZH phone prose",
        f"我妈的手机号 {p('CN').replace('+86 ', '')}，我爸的 {p('CN').replace('+86 ', '')}，紧急联系人就填他们。",
    )
    add(
        L,
        "phone_list",
        "tool",
        True,
        "phone list APAC",
        tool_json(
            r,
            "contacts.export",
            {
                "contacts": [
                    {"n": n(), "tel": p("JP")},
                    {"n": n(), "tel": p("SG")},
                    {"n": n(), "tel": p("KR")},
                    {"n": n(), "tel": p("IN")},
                ]
            },
        ),
    )
    add(
        L,
        "phone_list",
        "document",
        True,
        "phone list in email",
        email(
            r,
            "Field team contacts",
            f"Please save these:\n- {n()}: {p('BR')}\n- {n()}: {p('ES')}\n- {n()}: {p('US')}",
        ),
    )

    add(
        L,
        "passport",
        "user",
        True,
        "passport in prose",
        f"Passport number {rs(r, 1, 'CEGKLP')}{rs(r, 8, '0123456789')}, expires 2031-06, nationality DE — use it for the hotel check-in.",
    )
    add(
        L,
        "passport",
        "tool",
        True,
        "passport in JSON",
        tool_json(
            r,
            "travel.traveler",
            {
                "name": n(),
                "passport_no": "5" + rs(r, 8, "0123456789"),
                "country": "USA",
                "dob": "1990-11-02",
            },
        ),
    )
    add(
        L,
        "passport",
        "document",
        True,
        "ZH passport",
        f"出差人员：{zn()}，护照号 E{rs(r, 8, '0123456789')}，有效期至 2030 年 4 月。",
    )
    add(
        L,
        "passport",
        "agent",
        True,
        "ZH passport + ID",
        f"已保存签证材料：{zn()}，护照 EA{rs(r, 7, '0123456789')}，身份证 {i('cn')}。",
    )

    add(
        L,
        "bank_iban",
        "document",
        False,
        "German IBAN in invoice",
        f"Rechnung 2026-118\nEmpfänger: {n()}\nIBAN: {i('iban_de')}\nBIC: DEUTDEFFXXX",
    )
    add(
        L,
        "bank_iban",
        "tool",
        True,
        "UK IBAN in JSON",
        tool_json(r, "payee.get", {"payee": n(), "iban": i("iban_gb"), "sort_code": "20-00-00"}),
    )
    add(
        L,
        "bank_iban",
        "user",
        True,
        "NL IBAN ZH",
        f"房东的荷兰账户 IBAN：{i('iban_nl')}，每月 1 号转房租。",
    )
    add(
        L,
        "bank_iban",
        "agent",
        True,
        "several IBANs",
        f"Refund targets: {i('iban_ch')} ({n()}), {i('iban_pl')} ({n()}), {i('iban_it')} ({n()})",
    )
    add(
        L,
        "bank_iban",
        "document",
        True,
        "IBAN spaced",
        " ".join(
            [f"Salary account of {n()}:", *[i("iban_at")[k : k + 4] for k in range(0, 20, 4)]]
        ),
    )
    add(
        L,
        "bank_account_us",
        "user",
        True,
        "US routing + account",
        f"direct deposit: routing 021000021 account {rs(r, 10, '0123456789')} ({n()})",
    )
    add(
        L,
        "bank_card",
        "tool",
        True,
        "card number in support chat",
        f"customer: my card {i('card')} exp 09/29 got charged twice",
    )
    add(
        L,
        "bank_card_zh",
        "user",
        True,
        "ZH bank card",
        f"我的工资卡卡号 6217 {rs(r, 4, '0123456789')} {rs(r, 4, '0123456789')} {rs(r, 4, '0123456789')} {rs(r, 3, '0123456789')}，开户行 招商银行深圳分行。",
    )

    add(
        L,
        "address_name",
        "document",
        True,
        "name + home address",
        f"Ship to: {n()}, 44 Larkspur Lane, Apt 3B, Portland, OR 97205, USA. Phone {p('US')}.",
    )
    add(
        L,
        "address_name_zh",
        "tool",
        True,
        "ZH delivery address",
        ticket(
            r,
            "快递改地址",
            f"收件人：{zn()}\n电话：{p('CN')}\n新地址：北京市朝阳区望京街道 {r.randint(1, 30)} 号院 {r.randint(1, 20)} 号楼 {r.randint(101, 2405)}",
            zh=True,
        ),
    )
    add(
        L,
        "customer_record",
        "tool",
        True,
        "customer record export",
        csv_rows(
            ["customer", "email", "dob", "address"],
            [
                [
                    n(),
                    f"{rs(r, 6, 'abcdefghij')}@mail.example",
                    "1979-02-11",
                    "12 Rue Oberkampf, 75011 Paris",
                ],
                [
                    n(),
                    f"{rs(r, 6, 'abcdefghij')}@mail.example",
                    "1993-08-30",
                    "Calle Mayor 5, 28013 Madrid",
                ],
            ],
        ),
    )
    add(
        L,
        "medical_note",
        "agent",
        True,
        "health data with name",
        f"Patient {n()}, DOB 1968-05-21, diagnosed with type 2 diabetes; metformin 500 mg; insurance ID {rs(r, 3, 'ABCDEFGH')}{rs(r, 9, '0123456789')}.",
    )
    add(
        L,
        "medical_note_zh",
        "document",
        True,
        "ZH medical record",
        f"病历摘要：患者 {zn()}，男，52 岁，身份证 {i('cn')}，诊断：高血压二级。",
    )
    add(
        L,
        "drivers_license",
        "user",
        True,
        "driver's licence",
        f"California driver license {rs(r, 1, 'ABCDEFGHJKLMNPRSTUVWXYZ')}{rs(r, 7, '0123456789')}, exp 2029 — for the rental form.",
    )
    add(
        L,
        "drivers_license_zh",
        "tool",
        True,
        "ZH driver's licence",
        f"驾驶证信息：{zn()}，驾驶证号 {i('cn')}，准驾车型 C1。",
    )
    add(
        L,
        "idn_email",
        "document",
        True,
        "IDN e-mail with name and phone",
        f"Kontakt: {n()}, e-mail: anna@müller-bau.example, Tel. {p('DE')}",
    )
    add(
        L,
        "customer_record_zh",
        "agent",
        True,
        "ZH customer list",
        f"VIP 客户：{zn()}（{p('CN')}，广州市天河区体育西路 {r.randint(1, 300)} 号），{zn()}（{p('CN')}，成都市锦江区春熙路 {r.randint(1, 300)} 号）",
    )

    add(
        L,
        "staff_directory",
        "web",
        True,
        "staff page with personal mobiles",
        f"Volunteer coordinators (personal numbers, please don't share):\n{n()} — {p('GB')}\n{n()} — {p('GB')}\n{n()} — {p('US')}",
    )
    add(
        L,
        "national_id_cn",
        "web",
        True,
        "ZH leaked list on forum",
        f"论坛帖子附件内容：\n{zn()}，{i('cn')}，{p('CN')}\n{zn()}，{i('cn')}，{p('CN')}",
    )
    add(
        L,
        "customer_record",
        "web",
        True,
        "public order page with address",
        f"Order #A{r.randint(10000, 99999)} shipped to {n()}, 17 Birch Road, Cambridge CB2 1TN, UK — phone {p('GB')}",
    )
    return g
