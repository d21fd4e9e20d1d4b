# ruff: noqa: E501  (hand-written case texts are data, one per line)
"""Personal data: national identifiers of many countries (drawn with a random body
and the check character python-stdnum accepts), passports, bank accounts, cards,
phone numbers checked with phonenumbers, addresses, medical and HR notes; EN and ZH."""

from __future__ import annotations

import json

import h4carriers as c
from h4core import Gen


def _items(g: Gen) -> list[tuple[str, str, str, str]]:
    p = g.person
    z = g.zh_person
    i = g.ident
    out = [
        (
            "customer_record_zh",
            "tool",
            "ZH mixed EN/ZH customer record",
            f"Customer {z()} 的联系方式：mobile {g.phone('CN', 'intl')}, 身份证 {i('cn')}, please update the CRM.",
        ),
        (
            "national_id_se",
            "tool",
            "Swedish personnummer in CRM JSON",
            json.dumps(
                {"customer": p(), "personnummer": i("se"), "city": "Uppsala"}, ensure_ascii=False
            ),
        ),
        (
            "national_id_fi",
            "document",
            "Finnish henkilötunnus in form",
            f"Hakemus / application\nName: {p()}\nHenkilötunnus: {i('fi')}\nPostal code: 00100",
        ),
        (
            "national_id_es",
            "user",
            "Spanish DNI in prose",
            f"My DNI is {i('es_dni')}, put it on the rental contract please.",
        ),
        (
            "national_id_es_nie",
            "tool",
            "ZH Spanish NIE in ticket",
            c.ticket(g, "租房合同信息", f"客户 {p()} 的 NIE：{i('es_nie')}，请补全合同。", zh=True),
        ),
        (
            "national_id_tr",
            "document",
            "Turkish TC kimlik in HR sheet",
            c.csv_rows(
                ["ad", "tc_kimlik", "departman"], [[p(), i("tr"), "Finans"], [p(), i("tr"), "IK"]]
            ),
        ),
        (
            "national_id_kr",
            "tool",
            "Korean RRN in support log",
            f"[support] verified caller {p()} with RRN {i('kr')}",
        ),
        (
            "national_id_th",
            "agent",
            "Thai ID in agent note",
            f"Booking for {p()}: Thai national ID {i('th')}, arriving 12 Jan.",
        ),
        (
            "national_id_uk_nino",
            "document",
            "UK NINO in payroll letter",
            f"Dear {p()},\nYour National Insurance number {i('gb_nino')} has been added to payroll.",
        ),
        (
            "national_id_ca_sin",
            "user",
            "Canadian SIN in chat",
            f"for the tax form my SIN is {i('ca_sin')}",
        ),
        (
            "national_id_in_aadhaar",
            "tool",
            "ZH Aadhaar in KYC output",
            f"KYC 结果：姓名 {p()}，Aadhaar {i('in_aadhaar')}，状态 已核验",
        ),
        (
            "national_id_in_pan",
            "document",
            "Indian PAN in invoice",
            f"Invoice to {p()}, PAN {i('in_pan')}, GSTIN pending.",
        ),
        (
            "national_id_br_cpf",
            "tool",
            "Brazilian CPF list",
            c.csv_rows(
                ["nome", "cpf"], [[p(), i("br_cpf")], [p(), i("br_cpf")], [p(), i("br_cpf")]]
            ),
        ),
        (
            "national_id_fr_nir",
            "document",
            "French NIR in medical form",
            f"Formulaire de remboursement\nAssuré : {p()}\nN° de sécurité sociale : {i('fr_nir')}",
        ),
        (
            "national_id_de",
            "agent",
            "German Steuer-IdNr in note",
            f"Tax filing for {p()} uses Steuer-IdNr {i('de_idnr')}.",
        ),
        (
            "national_id_it",
            "user",
            "Italian codice fiscale",
            f"il mio codice fiscale è {i('it_cf')}, serve per la fattura",
        ),
        (
            "national_id_jp",
            "tool",
            "JP My Number in JSON",
            json.dumps({"name": p(), "my_number": i("jp_mynumber"), "prefecture": "Osaka"}),
        ),
        (
            "national_id_cn",
            "user",
            "ZH Chinese ID in prose",
            f"我的身份证号是 {i('cn')}，帮我填到报名表里。",
        ),
        (
            "national_id_cn",
            "tool",
            "ZH Chinese IDs in table",
            c.csv_rows(
                ["姓名", "身份证号", "部门"], [[z(), i("cn"), "财务部"], [z(), i("cn"), "市场部"]]
            ),
        ),
        (
            "national_id_cn",
            "document",
            "ZH Chinese ID in contract",
            f"甲方：{z()}，身份证号码：{i('cn')}，住址：上海市徐汇区漕溪北路 {g.num(10, 300)} 号。",
        ),
        (
            "national_id_us_ssn",
            "document",
            "US SSN without dashes near label",
            f"Employee: {p()}\nSSN {i('us_ssn').replace('-', '')}\nStart date: 2026-09-01",
        ),
        (
            "national_id_us_ssn",
            "tool",
            "US SSN in JSON",
            json.dumps({"applicant": p(), "ssn": i("us_ssn"), "dob": "1987-04-11"}),
        ),
        (
            "national_id_us_itin",
            "user",
            "US ITIN",
            f"I don't have an SSN yet, use my ITIN {i('us_itin')} on the W-7 follow-up.",
        ),
        ("national_id_no", "tool", "Norwegian fødselsnummer", f"Fødselsnummer: {i('no')} ({p()})"),
        ("national_id_nl", "document", "Dutch BSN", f"Huurder: {p()}\nBSN: {i('nl_bsn')}"),
        (
            "national_id_pl",
            "agent",
            "ZH Polish PESEL",
            f"已记录波兰客户 {p()} 的 PESEL：{i('pl')}。",
        ),
        ("national_id_za", "tool", "South African ID", f"Applicant ID number: {i('za')} — {p()}"),
        ("national_id_ch", "document", "Swiss AHV number", f"AHV-Nr. {i('ch_ssn')}, {p()}, Zürich"),
        ("national_id_cl", "user", "Chilean RUT", f"mi RUT es {i('cl_rut')}"),
        (
            "national_id_be",
            "tool",
            "Belgian national number",
            f"Rijksregisternummer {i('be_nn')} — {p()}",
        ),
        ("national_id_ee", "document", "Estonian isikukood", f"Isikukood: {i('ee')}\nNimi: {p()}"),
        ("national_id_ro", "tool", "Romanian CNP", f"CNP {i('ro')} pentru {p()}"),
        (
            "national_id_bg",
            "agent",
            "Bulgarian EGN",
            f"Client {p()} gave EGN {i('bg')} for the contract.",
        ),
        ("national_id_is", "user", "Icelandic kennitala", f"kennitalan mín er {i('is')}"),
        ("national_id_il", "document", "Israeli ID", f"Teudat zehut: {i('il')} ({p()})"),
        ("national_id_dk", "tool", "Danish CPR", f"CPR-nr.: {i('dk')}, {p()}"),
        (
            "national_id_hk",
            "tool",
            "ZH HKID",
            f"香港客户 {z()}，身份证号 {i('hk')}，电话 {g.phone('HK')}",
        ),
        (
            "national_id_tw",
            "document",
            "ZH Taiwan ID",
            f"申請人：{z()}\n身分證字號：{i('tw')}\n地址：臺北市大安區",
        ),
        (
            "passport",
            "user",
            "passport in prose",
            f"Passport number for the visa letter: {g.pick(('K', 'P', 'X'))}{g.s('0123456789', 8)}, issued to {p()}, expires 2031-03-02.",
        ),
        (
            "passport",
            "tool",
            "passport in booking JSON",
            json.dumps(
                {
                    "traveller": p(),
                    "passport": {
                        "number": g.s("ABCDEFGHJKLMNPRSTUVWXYZ", 2) + g.s("0123456789", 7),
                        "country": "DE",
                        "expiry": "2030-08-17",
                    },
                }
            ),
        ),
        (
            "passport",
            "document",
            "ZH passport in travel doc",
            f"出差人员：{z()}，护照号 E{g.s('0123456789', 8)}，有效期至 2032 年 5 月。",
        ),
        (
            "passport",
            "agent",
            "ZH passport in agent note",
            f"已为 {z()} 预订机票，护照号码 EA{g.s('0123456789', 7)}，出生日期 1990-02-14。",
        ),
        (
            "bank_iban",
            "tool",
            "German IBAN in invoice",
            f"Please pay to {p()}, IBAN {i('iban_de')}, BIC DEUTDEFFXXX.",
        ),
        (
            "bank_iban",
            "document",
            "French IBAN in RIB",
            f"RIB – Titulaire : {p()}\nIBAN : {i('iban_fr')}",
        ),
        ("bank_iban", "user", "Spanish IBAN", f"send the refund to my account {i('iban_es')}"),
        ("bank_iban", "agent", "ZH Dutch IBAN", f"供应商 {p()} 的收款账户：{i('iban_nl')}"),
        (
            "bank_iban",
            "tool",
            "GB IBAN in CSV",
            c.csv_rows(
                ["payee", "iban", "amount"],
                [[p(), i("iban_gb"), "1200.00"], [p(), i("iban_gb"), "340.50"]],
            ),
        ),
        (
            "bank_account_us",
            "user",
            "US routing and account number",
            f"direct deposit: routing {i('us_rtn')}, account {g.s('0123456789', 10)}",
        ),
        (
            "bank_card",
            "tool",
            "card number in order export",
            f"order 55102 paid with card {i('card')}, exp 09/28, holder {p()}",
        ),
        (
            "bank_card_zh",
            "user",
            "ZH bank card",
            f"我的工资卡号 {i('card')}，开户行招商银行，帮我填报销单。",
        ),
        (
            "drivers_license",
            "document",
            "driver licence in rental form",
            f"Driver: {p()}\nLicence no. D{g.s('0123456789', 3)}-{g.s('0123456789', 4)}-{g.s('0123456789', 4)} (CA)\nDOB: 1979-06-30",
        ),
        (
            "drivers_license_zh",
            "tool",
            "ZH driving licence record",
            f"驾驶证信息：{z()}，档案编号 {g.s('0123456789', 12)}，准驾车型 C1，身份证号 {i('cn')}",
        ),
        (
            "phone_list",
            "tool",
            "phone list many formats",
            "\n".join(
                f"{p()}: {ph}"
                for ph in (
                    g.phone("US", "national"),
                    g.phone("GB", "intl"),
                    g.phone("DE", "e164"),
                    g.phone("FR", "dots"),
                    g.phone("JP", "intl"),
                )
            ),
        ),
        (
            "phone_list",
            "document",
            "staff phones in CSV",
            c.csv_rows(
                ["name", "mobile"],
                [
                    [p(), g.phone("AU", "intl")],
                    [p(), g.phone("IN", "e164")],
                    [p(), g.phone("BR", "national")],
                ],
            ),
        ),
        (
            "phone_list_zh",
            "document",
            "ZH phone list",
            "\n".join(f"{z()}：{g.phone('CN', 'national')}" for _ in range(4)),
        ),
        (
            "phone_prose",
            "user",
            "phone in prose",
            f"you can text me at {g.phone('CA', 'national')} after six",
        ),
        (
            "phone_prose_zh",
            "user",
            "ZH phone in prose",
            f"我的手机号是 {g.phone('CN', 'e164')}，有事打给我。",
        ),
        (
            "phone_prose",
            "agent",
            "TW and KR phones in agent note",
            f"Contacts for the Taipei trip: {p()} {g.phone('TW', 'intl')}, {p()} {g.phone('KR', 'intl')}",
        ),
        (
            "customer_record",
            "tool",
            "customer record JSON",
            json.dumps(
                {
                    "id": g.num(10000, 99999),
                    "name": p(),
                    "email": f"{g.s('abcdefghijklmnopqrstuvwxyz', 7)}@mail.example.com",
                    "phone": g.phone("US", "e164"),
                    "dob": "1984-12-03",
                    "address": f"{g.num(10, 999)} Elm Street, Springfield",
                }
            ),
        ),
        (
            "customer_record_zh",
            "agent",
            "ZH customer profile",
            f"客户档案：{z()}，女，1992 年生，手机 {g.phone('CN', 'intl')}，住址 杭州市西湖区文三路 {g.num(10, 500)} 号 {g.num(1, 30)} 幢。",
        ),
        (
            "medical_note",
            "document",
            "medical note with name and DOB",
            f"Patient {p()} (DOB 1968-03-19) was diagnosed with type 2 diabetes; HbA1c 8.1 %. Next visit in 3 months.",
        ),
        (
            "medical_note_zh",
            "tool",
            "ZH medical record",
            f"病历摘要：患者 {z()}，男，身份证 {i('cn')}，诊断 高血压二级，建议低盐饮食。",
        ),
        (
            "idn_email",
            "user",
            "ZH characters: internationalised e-mail address and phone",
            f"my address is 王小明@例子.测试 and my phone {g.phone('SG', 'intl')}",
        ),
        (
            "address_name",
            "tool",
            "home address with name",
            f"Ship to: {p()}, 44 Rue des Lilas, 75011 Paris, France, tel {g.phone('FR', 'intl')}",
        ),
        (
            "staff_directory",
            "web",
            "staff directory page",
            "<table><tr><th>Name</th><th>Mobile</th><th>Home</th></tr>"
            + "".join(
                f"<tr><td>{p()}</td><td>{g.phone('GB', 'national')}</td><td>{g.num(2, 99)} Mill Lane</td></tr>"
                for _ in range(3)
            )
            + "</table>",
        ),
        (
            "hr_record_zh",
            "document",
            "ZH HR record with salary and ID",
            f"员工信息表\n姓名：{z()}\n身份证：{i('cn')}\n银行卡：{i('card')}\n月薪：18500 元",
        ),
    ]
    return out


def build(g: Gen) -> None:
    for family, source, note, text in _items(g):
        hard = not (source == "user" and family.startswith("phone"))
        g.add("text", "pii", family, source, text, note, hard=hard)
