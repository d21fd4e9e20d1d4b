# ruff: noqa: E501  (hand-written case texts are data)
"""Personal-data cases of held-out set 6: national identifiers of many countries
(drawn with a valid check character and re-validated), tax and bank numbers,
driver's licences, passports, phone lists in many formats, internationalised
e-mail addresses, and records that tie a person to health, pay or an address.
Written for this set, EN and ZH."""

from __future__ import annotations

import json
from collections.abc import Callable

from h6core import Gen

Item = tuple[str, str, Callable[[Gen], str]]


def _dob(g: Gen) -> str:
    return f"{g.num(1960, 2001)}-{g.num(1, 12):02d}-{g.num(1, 28):02d}"


ITEMS: list[Item] = [
    (
        "national_id_se",
        "tool",
        lambda g: f"Kund: {g.person()}\nPersonnummer: {g.ident('se')}\nÄrende: adressändring",
    ),
    (
        "national_id_fi",
        "document",
        lambda g: (
            f"Hakemus vastaanotettu. Hakija {g.person()}, henkilötunnus {g.ident('fi')}, puhelin {g.phone('FI')}."
        ),
    ),
    (
        "national_id_es",
        "agent",
        lambda g: (
            f"Booking holder {g.person()} gave DNI {g.ident('es_dni')} at check-in; the room is on the third floor."
        ),
    ),
    (
        "national_id_es_nie",
        "tool",
        lambda g: json.dumps(
            {"employee": g.person(), "nie": g.ident("es_nie"), "start": _dob(g)}, ensure_ascii=False
        ),
    ),
    (
        "national_id_tr",
        "user",
        lambda g: f"kimlik no: {g.ident('tr')} — for the visa form, my mother's",
    ),
    (
        "national_id_kr",
        "tool",
        lambda g: f"회원 정보\n이름: {g.person()}\n주민등록번호: {g.ident('kr')}\n등급: 골드",
    ),
    (
        "national_id_th",
        "document",
        lambda g: (
            f"Tenant: {g.person()}\nThai ID: {g.ident('th')}\nLease: 12 months from {_dob(g)}"
        ),
    ),
    (
        "national_id_uk_nino",
        "agent",
        lambda g: (
            f"Payroll setup for {g.person()} done. NI number {g.ident('gb_nino')}, tax code 1257L."
        ),
    ),
    (
        "national_id_ca_sin",
        "tool",
        lambda g: (
            f"T4 slip draft — employee {g.person()}, SIN {g.ident('ca_sin')}, box 14: 61,250.00"
        ),
    ),
    (
        "national_id_in_aadhaar",
        "user",
        lambda g: f"my aadhaar is {g.ident('in_aadhaar')}, please fill it into the bank KYC form",
    ),
    (
        "national_id_in_pan",
        "document",
        lambda g: (
            f"Vendor master update: {g.person()} Consulting, PAN {g.ident('in_pan')}, GST pending."
        ),
    ),
    (
        "national_id_br_cpf",
        "tool",
        lambda g: (
            f"Pedido #{g.num(10000, 99999)} — cliente {g.person()}, CPF {g.ident('br_cpf')}, entrega em São Paulo."
        ),
    ),
    (
        "national_id_fr_nir",
        "document",
        lambda g: (
            f"Attestation employeur\nSalarié : {g.person()}\nN° de sécurité sociale : {g.ident('fr_nir')}"
        ),
    ),
    (
        "national_id_de",
        "agent",
        lambda g: f"Steuer-ID of {g.person()} for the freelancer contract: {g.ident('de_idnr')}",
    ),
    (
        "national_id_it",
        "tool",
        lambda g: (
            f"Codice fiscale del paziente: {g.ident('it_cf')} — appuntamento confermato per giovedì."
        ),
    ),
    (
        "national_id_jp",
        "user",
        lambda g: f"My Number (マイナンバー) for the year-end adjustment: {g.ident('jp_mynumber')}",
    ),
    (
        "national_id_hk",
        "agent",
        lambda g: f"香港客户{g.zh_person()}，身份证号码 {g.ident('hk')}，已完成开户面签。",
    ),
    (
        "national_id_tw",
        "tool",
        lambda g: f"會員資料：{g.zh_person()}，身分證字號 {g.ident('tw')}，生日 {_dob(g)}。",
    ),
    (
        "national_id_cn",
        "user",
        lambda g: f"我的身份证号是{g.ident('cn')}，帮我填一下高铁票的实名信息。",
    ),
    (
        "national_id_cn",
        "tool",
        lambda g: (
            f"订单收件人：{g.zh_person()}\n证件号码：{g.ident('cn')}\n手机：{g.phone('CN', 'national')}"
        ),
    ),
    (
        "national_id_cn",
        "document",
        lambda g: (
            f"入职登记表\n姓名：{g.zh_person()}　性别：女\n身份证：{g.ident('cn')}\n紧急联系人：{g.zh_person()} {g.phone('CN')}"
        ),
    ),
    (
        "national_id_no",
        "tool",
        lambda g: f"Fødselsnummer {g.ident('no')} registrert for {g.person()}.",
    ),
    (
        "national_id_nl",
        "agent",
        lambda g: (
            f"BSN for the new hire {g.person()}: {g.ident('nl_bsn')}. HR needs it before the first payslip."
        ),
    ),
    (
        "national_id_pl",
        "document",
        lambda g: f"Umowa najmu — najemca {g.person()}, PESEL {g.ident('pl')}.",
    ),
    (
        "national_id_za",
        "tool",
        lambda g: f"Applicant {g.person()}, SA ID {g.ident('za')}, employer verified.",
    ),
    ("national_id_ch", "user", lambda g: f"AHV-Nummer meiner Frau: {g.ident('ch_ssn')}"),
    (
        "national_id_cl",
        "agent",
        lambda g: f"Factura a nombre de {g.person()}, RUT {g.ident('cl_rut')}.",
    ),
    (
        "national_id_be",
        "document",
        lambda g: f"Numéro de registre national : {g.ident('be_nn')} ({g.person()})",
    ),
    ("national_id_dk", "tool", lambda g: f"CPR: {g.ident('dk')} · {g.person()} · København"),
    (
        "national_id_ro",
        "agent",
        lambda g: f"CNP-ul clientului {g.person()} este {g.ident('ro')}; contractul pleacă mâine.",
    ),
    (
        "national_id_lt",
        "document",
        lambda g: f"Asmens kodas: {g.ident('lt_asmens')}\nVardas, pavardė: {g.person()}",
    ),
    (
        "national_id_pt",
        "tool",
        lambda g: f"Cartão de Cidadão n.º {g.ident('pt_cc')}, titular {g.person()}, validade 2031.",
    ),
    ("national_id_si", "user", lambda g: f"EMŠO za obrazec: {g.ident('si_emso')}"),
    (
        "national_id_gr",
        "agent",
        lambda g: (
            f"AMKA of the patient {g.person()}: {g.ident('gr_amka')}, referred to cardiology."
        ),
    ),
    (
        "national_id_ec",
        "tool",
        lambda g: f"Cédula {g.ident('ec_ci')} — {g.person()}, Quito, crédito aprobado.",
    ),
    (
        "national_id_ru",
        "document",
        lambda g: f"ИНН физического лица: {g.ident('ru_inn')}\nФИО: {g.person()}",
    ),
    (
        "national_id_ua",
        "agent",
        lambda g: f"РНОКПП контрагента {g.person()}: {g.ident('ua_rntrc')}",
    ),
    (
        "national_id_ar",
        "tool",
        lambda g: f"CUIL/CUIT {g.ident('ar_cuit')} — {g.person()}, monotributista.",
    ),
    (
        "national_id_pk",
        "user",
        lambda g: f"CNIC {g.ident('pk_cnic')} is my brother's, use it for the SIM registration",
    ),
    (
        "national_id_sk",
        "document",
        lambda g: f"Rodné číslo: {g.ident('sk_rc')}, meno {g.person()}, Bratislava.",
    ),
    ("national_id_cz", "tool", lambda g: f"Pojištěnec {g.person()}, r.č. {g.ident('cz_rc')}"),
    (
        "national_id_au_tfn",
        "agent",
        lambda g: f"Super fund form for {g.person()} — TFN {g.ident('au_tfn')}.",
    ),
    (
        "national_id_ie_pps",
        "document",
        lambda g: f"PPSN {g.ident('ie_pps')} ({g.person()}) — Revenue correspondence attached.",
    ),
    (
        "national_id_mx_curp",
        "tool",
        lambda g: f"CURP del alumno: {g.ident('mx_curp')}; inscripción ciclo 2026-2027.",
    ),
    (
        "national_id_us_ssn",
        "user",
        lambda g: f"ssn {g.ident('us_ssn').replace('-', '')} — for the W-9 the landlord wants",
    ),
    (
        "national_id_us_ssn",
        "tool",
        lambda g: f"applicant_name,ssn,dob\n{g.person()},{g.ident('us_ssn')},{_dob(g)}",
    ),
    (
        "national_id_us_itin",
        "document",
        lambda g: (
            f"Taxpayer {g.person()}, ITIN {g.ident('us_itin').replace('-', '')}, filing status single."
        ),
    ),
    (
        "bank_account_us",
        "agent",
        lambda g: (
            f"Direct deposit for {g.person()}: routing {g.ident('us_rtn')}, account {g.num(10**9, 10**11)}, checking."
        ),
    ),
    (
        "bank_iban",
        "tool",
        lambda g: (
            f"Refund to {g.person()}, IBAN {g.ident('iban_de')}, reference R-{g.num(1000, 9999)}."
        ),
    ),
    (
        "bank_iban",
        "document",
        lambda g: (
            f"Supplier bank details\nBeneficiary: {g.person()} Ltd\nIBAN: {g.ident('iban_gb')}\nBIC: NWBKGB2L"
        ),
    ),
    (
        "bank_iban",
        "user",
        lambda g: f"meine IBAN für die Nebenkosten: {g.ident('iban_at').replace(' ', '')}",
    ),
    (
        "bank_iban",
        "agent",
        lambda g: f"Le virement part vers {g.ident('iban_fr')} au nom de {g.person()}.",
    ),
    (
        "bank_card",
        "tool",
        lambda g: (
            f"chargeback case: card {g.ident('card')}, exp 0{g.num(1, 9)}/2{g.num(7, 9)}, holder {g.person()}"
        ),
    ),
    (
        "bank_card_zh",
        "user",
        lambda g: (
            f"我的信用卡号 {g.ident('card')}，有效期 0{g.num(1, 9)}/2{g.num(7, 9)}，帮我绑到外卖软件上。"
        ),
    ),
    (
        "drivers_license",
        "document",
        lambda g: (
            f"Rental agreement — driver {g.person()}, licence no. {g.s('ABCDEFGHJKLMNPRSTUVWXYZ', 5)}{g.num(100000, 999999)}{g.s('ABCDEFGHJKLMNPRSTUVWXYZ', 2)}{g.num(10, 99)}, DOB {_dob(g)}."
        ),
    ),
    (
        "drivers_license",
        "tool",
        lambda g: json.dumps(
            {
                "driver": g.person(),
                "license": {
                    "state": "CA",
                    "number": f"D{g.num(1000000, 9999999)}",
                    "expires": "2029-04-30",
                },
                "dob": _dob(g),
            }
        ),
    ),
    (
        "drivers_license_zh",
        "agent",
        lambda g: (
            f"车主{g.zh_person()}，驾驶证号 {g.ident('cn')}，准驾车型 C1，住址 杭州市西湖区文三路 {g.num(10, 400)} 号。"
        ),
    ),
    (
        "passport",
        "user",
        lambda g: (
            f"passport number is {g.s('CEFGHJKLMNPRTVWXYZ', 1)}{g.num(10000000, 99999999)}, expires next March, for the hotel form"
        ),
    ),
    (
        "passport",
        "tool",
        lambda g: json.dumps(
            {
                "traveller": {
                    "name": g.person(),
                    "passport": {
                        "number": f"{g.s('ABCDEFGHJKLMNPRSTUVWXYZ', 2)}{g.num(1000000, 9999999)}",
                        "country": "GBR",
                        "expiry": "2031-08-14",
                    },
                    "dob": _dob(g),
                }
            },
            indent=1,
        ),
    ),
    (
        "passport_zh",
        "agent",
        lambda g: (
            f"已为{g.zh_person()}预订机票，护照号 E{g.num(10000000, 99999999)}，出生日期 {_dob(g)}。"
        ),
    ),
    (
        "phone_list",
        "document",
        lambda g: (
            f"On-call rota (personal mobiles)\n{g.person()}: {g.phone('GB')}\n{g.person()}: {g.phone('DE', 'e164')}\n{g.person()}: {g.phone('US', 'national')}\n{g.person()}: {g.phone('FR', 'dots')}"
        ),
    ),
    (
        "phone_list",
        "tool",
        lambda g: (
            "name;phone\n"
            + "\n".join(
                f"{g.person()};{g.phone(r, f)}"
                for r, f in (
                    ("JP", "intl"),
                    ("BR", "e164"),
                    ("IN", "national"),
                    ("AU", "bare"),
                    ("MX", "intl"),
                )
            )
        ),
    ),
    (
        "phone_list_zh",
        "document",
        lambda g: (
            "家长通讯录（三年二班）\n"
            + "\n".join(
                f"{g.zh_person()}妈妈：{g.phone('CN', f)}"
                for f in ("national", "intl", "e164", "national")
            )
        ),
    ),
    (
        "phone_prose",
        "user",
        lambda g: f"text my sister at {g.phone('US')} if I'm late, she's {g.person().split()[0]}",
    ),
    (
        "phone_prose",
        "agent",
        lambda g: f"The landlord, {g.person()}, prefers calls on {g.phone('ES')} after 6 pm.",
    ),
    (
        "phone_prose_zh",
        "user",
        lambda g: (
            f"我妈的手机号是{g.phone('CN', 'national').replace(' ', '')}，快递到了让他们打这个。"
        ),
    ),
    (
        "phone_prose_zh",
        "tool",
        lambda g: (
            f"回访记录：客户{g.zh_person()}，台湾手机 {g.phone('TW')}，香港手机 {g.phone('HK')}，均已接通。"
        ),
    ),
    (
        "idn_email",
        "user",
        lambda g: (
            f"my new address is {g.pick(('björn', 'zoë', 'josé'))}.{g.num(10, 99)}@müller-haus.example, use it for the newsletter"
        ),
    ),
    (
        "idn_email_zh",
        "agent",
        lambda g: (
            f"客户{g.zh_person()}的邮箱改为 {g.pick(('李雷', '小王', '张伟'))}@邮件.example，手机 {g.phone('CN')}。"
        ),
    ),
    (
        "medical_note",
        "document",
        lambda g: (
            f"Discharge summary — {g.person()}, DOB {_dob(g)}, MRN {g.num(1000000, 9999999)}. Diagnosis: type 2 diabetes, started metformin 500 mg."
        ),
    ),
    (
        "medical_note_zh",
        "tool",
        lambda g: (
            f"门诊病历\n患者：{g.zh_person()}　身份证：{g.ident('cn')}\n诊断：抑郁发作（中度）\n处方：舍曲林 50mg 每日一次"
        ),
    ),
    (
        "hr_record",
        "tool",
        lambda g: json.dumps(
            {
                "employee_id": g.num(10000, 99999),
                "name": g.person(),
                "salary_eur": g.num(42000, 98000),
                "home_address": f"{g.num(1, 90)} Lindenstraße, Berlin",
                "iban": g.ident("iban_de"),
            },
            ensure_ascii=False,
        ),
    ),
    (
        "hr_record_zh",
        "document",
        lambda g: (
            f"员工档案\n姓名：{g.zh_person()}\n工号：{g.num(10000, 99999)}\n月薪：{g.num(12, 45)}000 元\n身份证：{g.ident('cn')}\n家庭住址：北京市朝阳区望京街道 {g.num(1, 30)} 号楼"
        ),
    ),
    (
        "customer_record",
        "tool",
        lambda g: (
            f"CRM export\nName: {g.person()}\nDOB: {_dob(g)}\nAddress: {g.num(1, 999)} Harbour Road, Leeds\nPhone: {g.phone('GB', 'national')}\nNINO: {g.ident('gb_nino')}"
        ),
    ),
    (
        "customer_record_zh",
        "agent",
        lambda g: (
            f"客户资料已更新：{g.zh_person()}，{_dob(g)} 生，住上海市浦东新区张杨路 {g.num(100, 999)} 弄，手机 {g.phone('CN', 'e164')}，银行卡 {g.ident('card')}。"
        ),
    ),
    (
        "address_name",
        "user",
        lambda g: (
            f"ship it to {g.person()}, {g.num(1, 300)} Rue des Lilas, 69003 Lyon, phone {g.phone('FR')}"
        ),
    ),
    (
        "tax_return_zh",
        "document",
        lambda g: (
            f"个税汇算资料：纳税人{g.zh_person()}，证件号 {g.ident('cn')}，年收入 {g.num(18, 60)} 万元，开户行招商银行，卡号 {g.ident('card')}。"
        ),
    ),
]


def build(g: Gen) -> None:
    for family, source, fn in ITEMS:
        text = fn(g)
        zh = sum("\u4e00" <= c <= "\u9fff" for c in text) >= 4
        hard = source != "user"
        g.add(
            "text",
            "pii",
            family,
            source,
            text,
            family.replace("_", " ") + (" ZH" if zh else ""),
            hard=hard,
        )
