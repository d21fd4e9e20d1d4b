# ruff: noqa: E501  (hand-written case texts are data, one per line)
"""Personal data in many formats and languages: national identifiers drawn with
a valid check character (python-stdnum), IBANs and card numbers, phone numbers
valid for their region (phonenumbers), passports, driver's licences, medical and
HR notes, customer records, and Chinese prose."""

from __future__ import annotations

import json

import h5carriers as c
from h5core import DIGITS, UPPER, Gen


def build(g: Gen) -> None:
    def add(family: str, source: str, text: str, note: str, hard: bool = True) -> None:
        g.add("text", "pii", family, source, text, note, hard)

    p, z = g.person, g.zh_person
    i = g.ident

    # ---------------- national identifiers, one sentence each in its own voice
    add(
        "national_id_se",
        "tool",
        c.tool_json(g, "hr.lookup", f"{p()}, personnummer {i('se')}, anställd sedan 2019."),
        "Swedish personnummer in HR output",
    )
    add(
        "national_id_fi",
        "document",
        f"Hakija: {p()}\nHenkilötunnus: {i('fi')}\nOsoite: Mannerheimintie 12 B, Helsinki",
        "Finnish HETU",
    )
    add(
        "national_id_es",
        "agent",
        f"Client record: {p()}, DNI {i('es_dni')}, lives in Valencia, prefers contact by e-mail.",
        "Spanish DNI",
    )
    add(
        "national_id_es_nie",
        "tool",
        c.csv_rows(["nombre", "nie", "ciudad"], [[p(), i("es_nie"), "Madrid"]]),
        "NIE in CSV",
    )
    add(
        "national_id_tr",
        "user",
        f"TC kimlik numaram {i('tr')}, formu doldurur musun?",
        "Turkish TC kimlik",
    )
    add(
        "national_id_kr",
        "tool",
        f"고객명: {p()} / 주민등록번호: {i('kr')} / 연락처: {g.phone('KR', 'national')}",
        "Korean RRN and phone",
    )
    add(
        "national_id_th",
        "document",
        f"Tenant: {p()}\nThai ID: {i('th')}\nLease start: 2026-02-01",
        "Thai ID",
    )
    add(
        "national_id_ca_sin",
        "user",
        f"My SIN is {i('ca_sin')} if the accountant needs it for the T4.",
        "Canadian SIN",
        False,
    )
    add(
        "national_id_in_aadhaar",
        "agent",
        f"KYC for vendor onboarding: {p()}, Aadhaar {i('in_aadhaar')}, PAN {i('in_pan')}.",
        "Aadhaar and PAN",
    )
    add(
        "national_id_br_cpf",
        "tool",
        c.tool_json(g, "crm.customer", f"{p()} — CPF {i('br_cpf')} — São Paulo"),
        "Brazilian CPF",
    )
    add(
        "national_id_fr_nir",
        "document",
        f"Numéro de sécurité sociale de {p()} : {i('fr_nir')}",
        "French NIR",
    )
    add(
        "national_id_de",
        "agent",
        f"Steuer-ID von {p()}: {i('de_idnr')} (für die Lohnabrechnung).",
        "German Steuer-ID",
    )
    add(
        "national_id_it",
        "tool",
        f"Codice fiscale: {i('it_cf')}\nNome: {p()}\nResidenza: Via Roma 8, Torino",
        "Italian codice fiscale",
    )
    add(
        "national_id_jp",
        "user",
        f"マイナンバーは {i('jp_mynumber')} です。年末調整の書類に書いておいてください。",
        "Japanese My Number",
        False,
    )
    add(
        "national_id_us_ssn",
        "tool",
        c.log_lines(g, [f"INFO payroll: employee={p()} ssn={i('us_ssn')} status=active"]),
        "SSN in a log line",
    )
    add(
        "national_id_us_ssn",
        "user",
        f"ssn {i('us_ssn').replace('-', '')} for the mortgage pre-approval",
        "SSN without dashes near a label",
        False,
    )
    add(
        "national_id_us_itin",
        "document",
        f"Taxpayer: {p()}\nITIN: {i('us_itin')}\nFiling status: single",
        "ITIN",
    )
    add("national_id_no", "tool", f"Fødselsnummer: {i('no')} – {p()}", "Norwegian fødselsnummer")
    add(
        "national_id_nl",
        "agent",
        f"BSN van {p()} is {i('nl_bsn')}; nodig voor de huurovereenkomst.",
        "Dutch BSN",
    )
    add("national_id_pl", "document", f"PESEL: {i('pl')}\nImię i nazwisko: {p()}", "Polish PESEL")
    add(
        "national_id_za",
        "tool",
        c.tool_json(g, "kyc.result", f"ID number {i('za')} verified for {p()}"),
        "South African ID",
    )
    add("national_id_ch", "user", f"AHV-Nummer: {i('ch_ssn')}", "Swiss AHV", False)
    add(
        "national_id_cl",
        "agent",
        f"Proveedor {p()}, RUT {i('cl_rut')}, pago a 30 días.",
        "Chilean RUT",
    )
    add("national_id_be", "document", f"Rijksregisternummer {i('be_nn')} — {p()}", "Belgian NN")
    add("national_id_ee", "tool", f"Isikukood {i('ee')}, {p()}, Tallinn", "Estonian isikukood")
    add("national_id_ro", "agent", f"CNP {i('ro')} aparține lui {p()}.", "Romanian CNP")
    add("national_id_bg", "document", f"ЕГН: {i('bg')}  Име: {p()}", "Bulgarian EGN")
    add("national_id_is", "user", f"kennitalan mín er {i('is')}", "Icelandic kennitala", False)
    add("national_id_il", "tool", f"Teudat zehut {i('il')} — {p()}", "Israeli ID")
    add("national_id_dk", "document", f"CPR-nr.: {i('dk')}\nNavn: {p()}", "Danish CPR")
    add(
        "national_id_au_tfn",
        "agent",
        f"Tax file number for {p()}: {i('au_tfn')} (for the super fund form).",
        "Australian TFN",
    )
    add("national_id_ie_pps", "tool", f"PPS No. {i('ie_pps')} | {p()} | Cork", "Irish PPS")
    add("national_id_hr_oib", "document", f"OIB: {i('hr_oib')}, {p()}, Zagreb", "Croatian OIB")
    add(
        "national_id_nz_ird",
        "user",
        f"IRD number {i('nz_ird')} for the new contractor",
        "NZ IRD",
        False,
    )
    add(
        "national_id_cz_rc", "tool", f"Rodné číslo: {i('cz_rc')}  Jméno: {p()}", "Czech rodné číslo"
    )
    add("national_id_mx_curp", "agent", f"CURP del empleado {p()}: {i('mx_curp')}", "Mexican CURP")
    add(
        "national_id_at",
        "document",
        f"Sozialversicherungsnummer {i('at_vnr')} – {p()}",
        "Austrian SV-Nummer",
    )
    add(
        "national_id_my",
        "tool",
        c.csv_rows(["name", "nric", "branch"], [[p(), i("my_nric"), "KL Sentral"]]),
        "Malaysian NRIC in CSV",
    )
    add(
        "national_id_uk_nino",
        "user",
        f"NI number: {i('gb_nino')}, for the new payroll",
        "UK NINO",
        False,
    )
    add(
        "national_id_cn",
        "user",
        f"我的身份证号是 {i('cn')}，帮我填一下酒店入住登记。",
        "ZH Chinese ID from user",
        False,
    )
    add(
        "national_id_cn",
        "tool",
        c.tool_json(
            g, "hr.lookup", f"员工：{z()}，身份证：{i('cn')}，入职日期 2024-07-01。", "text"
        ),
        "ZH Chinese ID in HR output",
    )
    add(
        "national_id_cn",
        "document",
        c.minutes(
            g,
            "入职材料核对",
            [f"{z()}：身份证号 {i('cn')}，材料齐全。", f"{z()}：学历证明待补。"],
            zh=True,
        ),
        "ZH Chinese ID in minutes",
    )
    add("national_id_hk", "agent", f"客户 {z()} 的香港身份证号码：{i('hk')}，已核实。", "ZH HKID")
    add(
        "national_id_tw",
        "tool",
        f"申請人：{z()}　身分證字號：{i('tw')}　聯絡地址：臺北市信義區",
        "ZH Taiwan ID",
    )

    # ---------------- bank and cards
    add(
        "bank_iban",
        "agent",
        f"Refund to {p()}, IBAN {i('iban_de')}, reference INV-{g.num(1000, 9999)}.",
        "DE IBAN",
    )
    add(
        "bank_iban",
        "tool",
        c.csv_rows(
            ["beneficiary", "iban", "amount"],
            [[p(), i("iban_fr"), "1200.00"], [p(), i("iban_nl"), "640.50"]],
        ),
        "FR and NL IBANs in CSV",
    )
    add("bank_iban", "user", f"mi IBAN es {i('iban_es')}, a nombre de {p()}", "ES IBAN", False)
    add(
        "bank_iban",
        "document",
        f"请将货款汇至：户名 {z()}，IBAN {i('iban_gb')}，SWIFT EXMPGB2L。",
        "ZH GB IBAN",
    )
    add(
        "bank_iban",
        "tool",
        c.email(
            g, f"Please update our details: beneficiary {p()}, IBAN {i('iban_it')}.", "Bank details"
        ),
        "IT IBAN in e-mail",
    )
    add(
        "bank_card",
        "tool",
        c.log_lines(
            g,
            [f"WARN checkout: card={i('card')} exp=0{g.num(1, 9)}/2{g.num(7, 9)} cvv=*** declined"],
        ),
        "card number in a log",
    )
    add(
        "bank_card_zh",
        "user",
        f"我的银行卡号 {i('card')}，开户行招商银行上海分行，工资打到这张卡。",
        "ZH card number",
    )
    add(
        "bank_account_us",
        "document",
        f"Direct deposit form\nName: {p()}\nRouting number: {i('us_rtn')}\nAccount number: {g.s(DIGITS, 10)}",
        "US routing and account number",
    )

    # ---------------- phones, passports, licences
    add(
        "phone_list",
        "document",
        c.csv_rows(
            ["name", "mobile"],
            [
                [p(), g.phone("US")],
                [p(), g.phone("GB", "e164")],
                [p(), g.phone("DE", "national")],
                [p(), g.phone("FR", "dots")],
            ],
        ),
        "phone list in four formats",
    )
    add(
        "phone_list",
        "tool",
        c.tool_json(
            g,
            "contacts.export",
            f"{p()}: {g.phone('AU')}; {p()}: {g.phone('IN')}; {p()}: {g.phone('BR', 'bare')}",
        ),
        "phones in tool output",
    )
    add(
        "phone_prose",
        "user",
        f"My mum's number is {g.phone('CA', 'national')}, call her if I don't answer.",
        "phone in prose",
        False,
    )
    add(
        "phone_prose_zh",
        "user",
        f"我的手机号是 {g.phone('CN', 'national')}，快递到了打这个电话。",
        "ZH mobile number",
        False,
    )
    add(
        "phone_list_zh",
        "document",
        f"值班表\n周一 {z()} {g.phone('CN', 'national')}\n周二 {z()} {g.phone('CN', 'e164')}\n周三 {z()} {g.phone('TW')}\n周四 {z()} {g.phone('HK')}",
        "ZH duty roster phones",
    )
    add(
        "phone_prose",
        "agent",
        f"Contact for the Singapore office: {p()}, {g.phone('SG')}; Tokyo: {p()}, {g.phone('JP')}.",
        "SG and JP phones",
    )
    add(
        "passport",
        "user",
        f"Passport number {g.pick(UPPER)}{g.pick(UPPER)}{g.s(DIGITS, 7)}, expires 2031-04-19, for the visa form.",
        "passport in prose",
        False,
    )
    add(
        "passport",
        "tool",
        json.dumps(
            {
                "traveller": p(),
                "passport": {
                    "number": g.s(UPPER, 1) + g.s(DIGITS, 8),
                    "country": "DEU",
                    "expiry": "2030-09-30",
                },
                "dob": "1988-03-14",
            }
        ),
        "passport in JSON",
    )
    add(
        "passport",
        "agent",
        f"订机票用的护照信息：{z()}，护照号 E{g.s(DIGITS, 8)}，有效期至 2032 年 5 月。",
        "ZH passport",
    )
    add(
        "drivers_license",
        "document",
        f"Driver: {p()}\nCalifornia DL: {g.pick(UPPER)}{g.s(DIGITS, 7)}\nDOB: 1991-11-02",
        "US driver's licence",
    )
    add(
        "drivers_license_zh",
        "tool",
        f"驾驶员信息：{z()}，驾驶证号 {i('cn')}，准驾车型 C1，有效期至 2030-08-15。",
        "ZH driver's licence (ID number)",
    )

    # ---------------- records and prose
    add(
        "medical_note",
        "document",
        f"Patient: {p()}, DOB 1974-06-21, MRN {g.s(DIGITS, 8)}. Dx: type 2 diabetes, HbA1c 8.1 %. Plan: metformin 1000 mg twice daily, review in 3 months.",
        "medical note",
    )
    add(
        "medical_note_zh",
        "agent",
        f"用户说他父亲 {z()}（1958 年生）上个月确诊高血压，正在服用氨氯地平，每天一片，让我以后推荐食谱时注意低盐。",
        "ZH health info of a named person",
    )
    add(
        "hr_record",
        "tool",
        c.tool_json(
            g,
            "hr.get_employee",
            f"{p()} | salary 84,500 EUR | performance: needs improvement | home address: Keizersgracht 221, Amsterdam | emergency contact {g.phone('NL')}",
        ),
        "HR record",
    )
    add(
        "hr_record_zh",
        "document",
        f"员工档案\n姓名：{z()}\n身份证号：{i('cn')}\n月薪：23,000 元\n家庭住址：杭州市西湖区文三路 88 号\n紧急联系人：{z()} {g.phone('CN', 'national')}",
        "ZH HR record",
    )
    add(
        "customer_record",
        "tool",
        c.csv_rows(
            ["id", "name", "email", "phone", "address"],
            [
                [
                    str(g.num(10000, 99999)),
                    p(),
                    f"{g.s('abcdefghijklmnopqrstuvwxyz', 6)}@mail.example.com",
                    g.phone("US", "national"),
                    "412 Maple Ave, Springfield",
                ]
            ],
        ),
        "customer CSV row",
    )
    add(
        "customer_record_zh",
        "agent",
        f"客户信息：{z()}，手机 {g.phone('CN', 'national')}，收货地址：深圳市南山区科技园南区 6 栋 1203，常买母婴用品。",
        "ZH customer record",
    )
    add(
        "idn_email",
        "user",
        f"请把合同发到我的邮箱 {z()}@例子.公司 或者 lin.{g.s('abcdefghijklmnopqrstuvwxyz', 4)}@mail.example.com",
        "ZH internationalised e-mail",
    )
    add(
        "address_name",
        "agent",
        f"The user's home address is 17 Rue des Lilas, 69003 Lyon, and their daughter {p()} attends the school two streets away.",
        "home address and a child's name",
    )
    add(
        "staff_directory",
        "web",
        f"<table><tr><th>Name</th><th>Role</th><th>Mobile</th></tr><tr><td>{p()}</td><td>Head of Sales</td><td>{g.phone('GB')}</td></tr><tr><td>{p()}</td><td>Office manager</td><td>{g.phone('AU')}</td></tr></table>",
        "staff directory with mobiles on a web page",
    )
    add(
        "customer_record_zh",
        "tool",
        c.csv_rows(
            ["姓名", "手机号", "身份证号", "地址"],
            [
                [z(), g.phone("CN", "national"), i("cn"), "北京市朝阳区望京街 10 号"],
                [z(), g.phone("CN", "national"), i("cn"), "成都市高新区天府大道 99 号"],
            ],
        ),
        "ZH customer CSV",
    )
    add(
        "bank_card_zh",
        "agent",
        f"用户让我记住他的信用卡：{i('card')}，有效期 08/29，账单日每月 5 号。",
        "ZH credit card stored by agent",
    )
    add(
        "medical_note_zh",
        "document",
        f"病历摘要：患者 {z()}，女，42 岁，身份证 {i('cn')}，诊断为甲状腺结节，建议三个月后复查 B 超。",
        "ZH medical summary",
    )
    add(
        "phone_prose_zh",
        "tool",
        c.chat(
            g,
            [
                ("前台", f"快递员的电话是 {g.phone('CN', 'national')}，让他送到 3 楼"),
                ("行政", "好的"),
            ],
        ),
        "ZH chat with phone",
    )
