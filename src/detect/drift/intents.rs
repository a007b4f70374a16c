//! What a customer-service question is about, from a closed list of
//! everyday intents (cancel, refund, delivery, parking, pets, baggage…) in
//! nine languages. An answer that brings other intents and none of the
//! question's answers another question about the same account, order or
//! stay: "Does the hotel have parking?" answered with breakfast times,
//! "When is my refund?" answered with delivery options.

use super::lexicon::Lexicon;
use super::scan::Scanned;

/// Each intent's terms (see `Lexicon`).
const INTENTS: &[&[&str]] = &[
    &[
        "cancel",
        "annul",
        "storn",
        "kündig",
        "résili",
        "resili",
        "disdett",
        "disdic",
        "отмен",
        "取消",
        "解約",
        "キャンセル",
    ],
    &[
        "refund",
        "reimburs",
        "rembours",
        "reembols",
        "erstatt",
        "rückerstatt",
        "rimbors",
        "возмещ",
        "возврат",
        // "Вернуть деньги": the verb alone also returns goods.
        "~вернуть",
        "退款",
        "返金",
        // Money back for a delay or a loss.
        "compensation",
        "entschädig",
        "indemnis",
        "indemniz",
        "indeniz",
        "risarcim",
        "компенсац",
        "赔偿",
        "补偿",
        "補償",
    ],
    &[
        "deliver",
        "shipping",
        "shipment",
        "courier",
        "tracking",
        "livrais",
        "colis",
        "=envío",
        "=envio",
        "entrega",
        "lieferung",
        "versand",
        "zustell",
        "consegn",
        "spediz",
        "encomend",
        "доставк",
        "посылк",
        "快递",
        "物流",
        "配送",
        "发货",
        "発送",
        "配達",
    ],
    &[
        "invoice",
        "receipt",
        "factur",
        "rechnung",
        "quittung",
        "fattur",
        "recibo",
        "发票",
        "領収",
        "請求書",
    ],
    &[
        "password",
        "passwort",
        "=login",
        "anmeld",
        "contraseñ",
        "senha",
        "пароль",
        "密码",
        "登录",
        "パスワード",
        "ログイン",
    ],
    &[
        "parking",
        "parkplatz",
        "parkhaus",
        "aparcamiento",
        "estacionamient",
        "estacionament",
        "parcheggi",
        "парковк",
        "停车",
        "駐車",
    ],
    &[
        "breakfast",
        "frühstück",
        "déjeuner",
        "desayun",
        "colazion",
        "завтрак",
        "早餐",
        "朝食",
    ],
    &[
        "baggage",
        "luggage",
        "suitcase",
        "=bag",
        "=bags",
        "gepäck",
        "handgepäck",
        "reisegepäck",
        "freigepäck",
        "koffer",
        "bagage",
        "valise",
        "equipaj",
        "maleta",
        "bagagem",
        "bagagl",
        "valigi",
        "багаж",
        "行李",
        "手荷物",
    ],
    &[
        "=pet",
        "=pets",
        "=cat",
        "=cats",
        "=dog",
        "=dogs",
        "animal",
        "haustier",
        "=katze",
        "=hund",
        "chien",
        "mascot",
        "=gato",
        "=perro",
        "cachorr",
        "=gatto",
        "животн",
        "кошк",
        "собак",
        "宠物",
        "ペット",
    ],
    &[
        "boarding",
        "check-in",
        "=checkin",
        "embarque",
        "embarquement",
        "einchecken",
        "imbarco",
        "посадк",
        "值机",
        "登机",
        "チェックイン",
        "搭乗",
    ],
    &["reschedul", "umbuch", "rebook", "remarc", "改签", "改期"],
    &["profil", "perfil", "профил", "プロフィール"],
    &[
        "loyalty",
        "fidélité",
        "fidelidad",
        "fidelidade",
        "fedeltà",
        "treuepunkt",
        "bonuspunkt",
        "=points",
        "=punkte",
        "=puntos",
        "=pontos",
        "=punti",
        "баллы",
        "баллов",
        "积分",
        "ポイント",
    ],
    &[
        "warrant",
        "guarante",
        "garanti",
        "garanz",
        "гаранти",
        "保修",
        "保証",
    ],
    &[
        "=atm",
        "=saque",
        "=saques",
        "=atms",
        "geldautomat",
        "cajero",
        "bancomat",
        "банкомат",
        "取款机",
    ],
    &[
        "überweis",
        "=pix",
        "virement",
        "transferenc",
        "transferênc",
        "bonific",
        "转账",
        "汇款",
        "送金",
        "振込",
    ],
    &["=wifi", "wi-fi", "=wlan", "无线网"],
    &[
        "öffnungszeit",
        "=horario",
        "=horarios",
        "=orario",
        "=orari",
        "营业时间",
        "営業時間",
    ],
    &[
        "=seat",
        "=seats",
        "sitzplatz",
        "=siège",
        "=asiento",
        "=assento",
        "=posto",
        "座位",
        "座席",
    ],
    &["roaming", "роуминг", "漫游", "ローミング"],
    // Sending goods back (a refund is money back, often after one).
    &[
        "~=return",
        "~=returning",
        "=returns",
        "rücksend",
        "retoure",
        "=retour",
        "devoluci",
        "devoluç",
        "=reso",
        "退货",
        "返品",
    ],
    // What is on the menu for a diet.
    &[
        "vegetarian",
        "végétar",
        "vegan",
        "végan",
        "gluten",
        "allerg",
        "=halal",
        "=kosher",
        "вегетариан",
        "веган",
        "аллерг",
        "глютен",
        "素食",
        "过敏",
        "ベジタリアン",
        "ヴィーガン",
        "アレルギー",
    ],
    // A second sign-in factor.
    &[
        "two-factor",
        "=2fa",
        "authenticator",
        "zwei-faktor",
        "двухфактор",
        "双重验证",
        "两步验证",
        "二段階認証",
        "二要素認証",
    ],
    // A card's PIN.
    &["=pin", "pin-code", "пин-код", "暗証番号"],
    // Paying by tapping the card.
    &[
        "contactless",
        "kontaktlos",
        "бесконтакт",
        "闪付",
        "非接触",
        "タッチ決済",
    ],
    // Bills paid by themselves.
    &[
        "autopay",
        "auto-pay",
        "lastschrift",
        "prélève",
        "domiciliaci",
        "автоплат",
        "自动扣款",
        "自动缴费",
        "自動引き落とし",
        "口座振替",
    ],
    &[
        "insur",
        "versicher",
        "=assurance",
        "assicura",
        "страхов",
        "保险",
        "保険",
    ],
    // Vouchers, coupons and gift cards.
    &[
        "voucher",
        "gutschein",
        "coupon",
        "cupon",
        "cupom",
        "giftcard",
        "gift-card",
        "купон",
        "промокод",
        "优惠券",
        "代金券",
        "クーポン",
        "ギフトカード",
    ],
    // Mail nobody wants any more.
    &[
        "unsubscrib",
        "newsletter",
        "=marketing",
        "promotional",
        "werbemail",
        "désabonn",
        "désinscri",
        "desuscrib",
        "отписа",
        "рассылк",
        "退订",
        "配信停止",
        "メルマガ",
    ],
    &["wheelchair", "rollstuhl", "инвалидн", "轮椅", "車椅子"],
    // A lost or stolen card, blocked or frozen.
    &[
        "=lost",
        "stolen",
        "=freeze",
        "=frozen",
        "gestohlen",
        "verloren",
        "sperr",
        "perdu",
        "=volée",
        "perdid",
        "robad",
        "bloque",
        "perdi",
        "roubad",
        "smarrit",
        "rubat",
        "blocc",
        "потерял",
        "украл",
        "заблокир",
        "挂失",
        "冻结",
        "紛失",
        "盗難",
    ],
];

/// Intents that say what an answer is about but not what a request is:
/// "the card from my profile" is no question about profiles.
pub const ANSWER_ONLY: u32 = 1 << 11;

// Intents are kept as bits of a u32.
const _: () = assert!(INTENTS.len() <= 32);

static LEXICON: Lexicon = Lexicon::new(INTENTS);

/// The intents a request asks about, as bits (weak terms count here).
pub fn asked(s: &Scanned) -> u32 {
    let mut bits = 0u32;
    LEXICON.found(s, false, &mut |i, _, _| bits |= 1 << i);
    bits & !ANSWER_ONLY
}

/// The intents an answer touches, as bits, and how many of its words name
/// them that `fresh` accepts (words not already in the conversation). Weak
/// terms ("return") are too common in answers to count.
pub fn of(s: &Scanned, fresh: &dyn Fn(&str) -> bool) -> (u32, u32) {
    let (mut bits, mut hits) = (0u32, 0u32);
    LEXICON.found(s, false, &mut |i, w, weak| {
        if weak {
            return;
        }
        bits |= 1 << i;
        hits += u32::from(fresh(w));
    });
    (bits, hits)
}

/// The words of a text that name an intent of `bits`, for a warning to list.
pub fn words(s: &Scanned, bits: u32) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    LEXICON.found(s, false, &mut |i, w, weak| {
        if !weak && bits & 1 << i != 0 && out.len() < 8 && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bits(text: &str) -> u32 {
        of(&Scanned::new(text), &|_| true).0
    }

    fn asked_bits(text: &str) -> u32 {
        asked(&Scanned::new(text))
    }

    #[test]
    fn intents_in_several_languages() {
        let parking = bits("Does the hotel have on-site parking?");
        assert_ne!(parking, 0);
        assert_eq!(bits("¿Tiene el hotel estacionamiento?"), parking);
        assert_eq!(bits("ホテルに駐車場はありますか？"), parking);
        assert_ne!(bits("Breakfast is served from 6:30.") & parking, parking);
        // Whole words only where a prefix would mislead: "category" is no cat.
        assert_eq!(bits("Pick a category from the catalog."), 0);
        assert_ne!(bits("Can I bring my cat?"), 0);
        assert_ne!(bits("the card from my profile") & ANSWER_ONLY, 0);
        // Hyphenated terms are found although the scanner splits them.
        assert_ne!(bits("The Wi-Fi password is on your key card."), 0);
        let boarding = bits("Boarding starts at 9.");
        assert_ne!(boarding, 0);
        assert_eq!(bits("Online check-in opens 24 hours before."), boarding);
        // Compensation for a delay is money back, like a refund.
        assert_eq!(
            bits("我的航班延误了，可以申请赔偿吗？"),
            bits("How do I get a refund?")
        );
        assert_eq!(bits("Wie bekomme ich eine Entschädigung?"), bits("refund"));
        // Opening hours, seats and roaming, in other words and scripts.
        // (Terms are single words or CJK: "opening hours" would need two.)
        assert_eq!(
            bits("¿Qué horario tiene la tienda?"),
            bits("Die Öffnungszeiten, bitte.")
        );
        assert_ne!(bits("営業時間は何時までですか？"), 0);
        assert_eq!(
            bits("Can I pick my seat?"),
            bits("¿Puedo elegir el asiento?")
        );
        assert_eq!(
            bits("Как подключить роуминг?"),
            bits("How do I turn on roaming?")
        );
        // The eighth round's intents, each the same across languages.
        for (a, b) in [
            ("Is the pasta vegan?", "¿Tienen opciones sin gluten?"),
            ("How do I turn on two-factor?", "二段階認証を設定したい"),
            ("I forgot my card PIN.", "Я забыл PIN карты."),
            ("Can I pay contactless?", "Geht das kontaktlos?"),
            (
                "How do I switch on autopay?",
                "Wie richte ich eine Lastschrift ein?",
            ),
            (
                "Does my card include travel insurance?",
                "Ist eine Versicherung dabei?",
            ),
            (
                "My voucher code doesn't work.",
                "Mein Gutschein funktioniert nicht.",
            ),
            (
                "How do I unsubscribe from the newsletter?",
                "Как отписаться от рассылки?",
            ),
            (
                "I need a wheelchair at the gate.",
                "Ich brauche einen Rollstuhl.",
            ),
        ] {
            assert_ne!(bits(a), 0, "{a}");
            assert_eq!(bits(a), bits(b), "{a} / {b}");
        }
        // Returns: "return" asks in a request but is every program's word.
        let returns = asked_bits("How do I return these shoes?");
        assert_ne!(returns, 0);
        assert_eq!(bits("The function should return a list."), 0);
        assert_eq!(returns, bits("Start the Rücksendung online."));
        // "Вернуть деньги" and "возврат" are a refund.
        assert_eq!(asked_bits("Хочу вернуть деньги."), bits("refund"));
        assert_eq!(bits("Возврат оформлен."), bits("refund"));
    }
}
