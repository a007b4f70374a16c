//! Cue phrases, per language, in the `CueSet` syntax: words as written, a
//! final `*` for a prefix. Lists are small and general; each says why it exists.

use super::scan::{CueList, Source};

/// Every list, in `id` order: the scanner indexes them together.
pub static ALL: [&CueList; 19] = [
    &ADDITION_STRONG,
    &ADDITION_WEAK,
    &FIRST_PERSON,
    &UPSELL,
    &NEGATION,
    &NEGATION_NOT,
    &CHANGE_VERBS,
    &KEEP,
    &NO_EXPLANATION,
    &NO_EXAMPLES,
    &EXAMPLE_GIVEN,
    &ONE_SENTENCE,
    &NO_NEW_CONTENT,
    &TRANSLATION,
    &TARGET_CUES,
    &KEPT,
    &ADD_VERBS,
    &THANKS,
    &LEFT_OUT,
];

/// Announces an addition outright, whoever reads it.
pub static ADDITION_STRONG: CueList = CueList::new(
    0,
    &[
        "i also",
        "i've also",
        "i have also",
        "also added",
        "also updated",
        "also changed",
        "also rewrote",
        "as a bonus",
        "bonus",
        "while i was at it",
        "while i was in there",
        "while i was there",
        "while i'm at it",
        "went ahead and",
        "gone ahead and",
        "i added",
        "i've added",
        "i have added",
        "plus i",
        "i took the liberty",
        "we've also",
        "我还",
        "我也",
        "还添加",
        "还加了",
        "还扩展",
        "顺便",
        "也加了",
        "另外加",
        "de paso",
        "ya que estaba",
        "aproveché para",
        "también añadí",
        "también agregué",
        "también he",
        "además he",
        "habe ich auch",
        "habe ich außerdem",
        "habe ich zusätzlich",
        "bei der gelegenheit",
        "nebenbei",
        "j'ai aussi",
        "j'ai également",
        "j'en ai profité",
        "au passage",
        "também adicionei",
        "também coloquei",
        "também incluí",
        "aproveitei para",
        "ついでに",
        "также добавил",
        "заодно",
        "я также",
    ],
);

/// Connectives that announce an addition only in a sentence that also says
/// "I did" (a first-person action): "Außerdem darf keine Referenz…" explains,
/// "Außerdem habe ich…" adds.
pub static ADDITION_WEAK: CueList = CueList::new(
    1,
    &[
        "additionally",
        "in addition",
        "on top of that",
        "also",
        "另外",
        "此外",
        "还",
        "además",
        "también",
        "zusätzlich",
        "außerdem",
        "auch",
        "en plus",
        "de plus",
        "également",
        "aussi",
        "além disso",
        "também",
        "さらに",
        "また",
        "кроме того",
        "также",
    ],
);

/// First-person action markers for `ADDITION_WEAK`.
pub static FIRST_PERSON: CueList = CueList::new(
    2,
    &[
        "i",
        "i've",
        "i'd",
        "we've",
        "我",
        "he",
        "hemos",
        "añadí",
        "agregué",
        "incluí",
        "implementé",
        "configuré",
        "ich",
        "habe",
        "j'ai",
        "nous avons",
        "adicionei",
        "coloquei",
        "implementei",
        "configurei",
        "incluí",
        "ました",
        "я",
        "добавил",
    ],
);

/// Offers of something else to buy or join, in an answer to another request.
pub static UPSELL: CueList = CueList::new(
    3,
    &[
        "you might love",
        "you might also like",
        "you may also like",
        "you might want to add",
        "you could also join",
        "you could also add",
        "upgrade to",
        "consider upgrading",
        "for just",
        "te podría interesar",
        "também pode gostar",
        "könnte ihnen auch gefallen",
        "pourrait aussi vous plaire",
    ],
);

/// Negations that rule something out for the rest of the clause.
pub static NEGATION: CueList = CueList::new(
    4,
    &[
        "don't",
        "do not",
        "dont",
        "never",
        "without",
        "avoid",
        "no",
        "not use",
        "not add",
        "not include",
        "not change",
        "not modify",
        "not touch",
        "not to",
        "不要",
        "别",
        "不用",
        "不需要",
        "无需",
        "sin",
        "nicht",
        "kein*",
        "ohne",
        "ne",
        "pas",
        "pas de",
        "sans",
        "não",
        "sem",
        "しないで",
        "ないで",
        "не",
        "без",
    ],
);

/// Where a negation cue is a statement, not an instruction: "I never got
/// it", "there is no output", "区别" (别 inside a word).
pub static NEGATION_NOT: CueList = CueList::new(
    5,
    &[
        "i never",
        "i don't know",
        "i don't understand",
        "i don't see",
        "i don't get",
        "i don't have",
        "i don't think",
        "i do not know",
        "i do not understand",
        "we never",
        "it never",
        "is no",
        "are no",
        "there's no",
        "has no",
        "have no",
        "got no",
        "no one",
        "no matter",
        "区别",
        "特别",
        "分别",
        "类别",
        "级别",
        "差别",
        "告别",
        "识别",
        "别人",
        "别的",
        "个别",
        "性别",
        "不要紧",
        "ne marche",
        "ne fonctionne",
        "no funciona",
        "no puedo",
        "no sé",
        "não funciona",
        "não consigo",
        "не работает",
    ],
);

/// Negations written after what they rule out ("ändere das nicht",
/// "追加しないで"): their scope is the clause before them.
pub const POSTPOSED: &[&str] = &["nicht", "しないで", "ないで"];

/// Verbs of changing something: under a negation they protect ("don't touch
/// the CSS"), in an answer they report a change ("I changed the signature").
pub static CHANGE_VERBS: CueList = CueList::new(
    6,
    &[
        "touch*",
        "modif*",
        "chang*",
        "alter*",
        "edit*",
        "renam*",
        "rewr*",
        "replac*",
        "updat*",
        "remov*",
        "delet*",
        "refactor*",
        "改",
        "动",
        "删",
        "cambi*",
        "toqu*",
        "toca*",
        "sustitu*",
        "reescri*",
        "renombr*",
        "elimin*",
        "änder*",
        "geänder*",
        "anfass*",
        "umbenann*",
        "umgeschrieben",
        "ersetz*",
        "gelöscht",
        "entfern*",
        "touche*",
        "supprim*",
        "renomm*",
        "réécri*",
        "remplac*",
        "mud*",
        "alter*",
        "mexa*",
        "renome*",
        "reescrev*",
        "substitu*",
        "exclu*",
        "измен*",
        "трога*",
        "перепис*",
        "удал*",
        "変更",
        "書き換え",
    ],
);

/// Verbs of adding or using: under a negation they are the action, not the
/// thing ruled out ("don't add logging", "Kommentare nicht hinzufügen").
pub static ADD_VERBS: CueList = CueList::new(
    16,
    &[
        "add*",
        "use",
        "using",
        "includ*",
        "put",
        "insert*",
        "write",
        "añad*",
        "agreg*",
        "usa*",
        "incluy*",
        "pong*",
        "hinzu*",
        "füg*",
        "verwend*",
        "benutz*",
        "schreib*",
        "ajout*",
        "utilis*",
        "mets",
        "mettez",
        "adicion*",
        "inclu*",
        "coloqu*",
        "добав*",
        "использ*",
        "пиши",
        "加",
        "添加",
        "用",
        "写",
        "追加",
        "使",
    ],
);

/// "Keep X as it is": what follows is protected.
pub static KEEP: CueList = CueList::new(
    7,
    &[
        "keep",
        "leave",
        "preserve",
        "保持",
        "保留",
        "mantén",
        "mantener",
        "conserva",
        "lass",
        "behalte",
        "garde",
        "gardez",
        "conserve",
        "conservez",
        "mantenha",
        "manter",
        "сохрани",
        "оставь",
        "そのまま",
    ],
);

/// No explanation wanted: "only the SQL", "no explanation", "不要解释".
pub static NO_EXPLANATION: CueList = CueList::new(
    8,
    &[
        "no explanation*",
        "without explanation*",
        "don't explain",
        "do not explain",
        "only the code",
        "only the sql",
        "only the query",
        "only the command",
        "just the code",
        "just the sql",
        "just the query",
        "just the command",
        "code only",
        "不要解释",
        "不用解释",
        "别解释",
        "无需解释",
        "只要代码",
        "sin explicaci*",
        "no expliques",
        "solo el código",
        "ohne erklärung*",
        "nur den code",
        "sans explication*",
        "n'explique pas",
        "seulement le code",
        "sem explicaç*",
        "não explique",
        "apenas o código",
        "без объяснени*",
        "только код",
        "説明は不要",
        "説明不要",
    ],
);

/// No examples wanted.
pub static NO_EXAMPLES: CueList = CueList::new(
    9,
    &[
        "no example*",
        "without example*",
        "不要举例",
        "不要例子",
        "sin ejemplo*",
        "ohne beispiel*",
        "sans exemple*",
        "sem exemplo*",
        "без пример*",
    ],
);

/// An example given anyway.
pub static EXAMPLE_GIVEN: CueList = CueList::new(
    10,
    &[
        "for example",
        "for instance",
        "e.g",
        "another example",
        "例如",
        "比如",
        "举个例子",
        "por ejemplo",
        "zum beispiel",
        "z.b",
        "par exemple",
        "por exemplo",
        "например",
        "例えば",
    ],
);

/// One sentence wanted.
pub static ONE_SENTENCE: CueList = CueList::new(
    11,
    &[
        "in one sentence",
        "one sentence",
        "a single sentence",
        "in one line",
        "一句话",
        "en una frase",
        "en una sola frase",
        "in einem satz",
        "en une phrase",
        "en une seule phrase",
        "em uma frase",
        "numa frase",
        "одним предложением",
        "一文で",
    ],
);

/// Nothing new wanted: shorten or correct, do not reword or add.
pub static NO_NEW_CONTENT: CueList = CueList::new(
    12,
    &[
        "without adding anything",
        "don't add anything",
        "do not add anything",
        "nothing new",
        "without rewording",
        "without rephrasing",
        "don't reword",
        "don't rephrase",
        "不要改写",
        "不要添加",
        "sin añadir nada",
        "sin reformular",
        "ohne etwas hinzuzufügen",
        "ohne umzuformulieren",
        "sans reformuler",
        "sans rien ajouter",
        "sem reformular",
        "sem acrescentar",
        "ничего не добавляя",
        "не перефразируя",
    ],
);

/// A translation or another language asked for, with the language if named.
pub static TRANSLATION: CueList = CueList::new(
    13,
    &[
        "translat*",
        "翻译",
        "翻訳",
        "traduc*",
        "traduz*",
        "tradui*",
        "übersetz*",
        "перевед*",
        "перевод*",
    ],
);

/// Target-language phrases and the language each names, in one table so
/// the two cannot drift apart.
pub const TARGETS: &[(&str, &str)] = &[
    ("in english", "en"),
    ("into english", "en"),
    ("to english", "en"),
    ("in spanish", "es"),
    ("into spanish", "es"),
    ("in german", "de"),
    ("into german", "de"),
    ("in french", "fr"),
    ("into french", "fr"),
    ("in portuguese", "pt"),
    ("in chinese", "zh"),
    ("into chinese", "zh"),
    ("in japanese", "ja"),
    ("in russian", "ru"),
    ("用英文", "en"),
    ("用英语", "en"),
    ("成英文", "en"),
    ("成英语", "en"),
    ("用中文", "zh"),
    ("成中文", "zh"),
    ("英語で", "en"),
    ("日本語で", "ja"),
    ("al inglés", "en"),
    ("en inglés", "en"),
    ("al español", "es"),
    ("en español", "es"),
    ("ins englische", "en"),
    ("auf englisch", "en"),
    ("auf deutsch", "de"),
    ("ins deutsche", "de"),
    ("en anglais", "en"),
    ("en français", "fr"),
    ("para o inglês", "en"),
    ("em inglês", "en"),
    ("em português", "pt"),
    ("на английский", "en"),
    ("по-английски", "en"),
    ("на русском", "ru"),
];

/// The phrases of `TARGETS`, as a cue set (hit `cue` indexes `TARGETS`).
pub static TARGET_CUES: CueList = CueList::from(14, Source::Pairs(TARGETS));

/// In an answer, marks a clause that keeps or did not change something
/// ("the signature is unchanged", "I didn't touch the CSS").
pub static KEPT: CueList = CueList::new(
    15,
    &[
        "doesn't",
        "does not",
        "didn't",
        "did not",
        "won't",
        "isn't",
        "unchanged",
        "untouched",
        "intact",
        "as is",
        "kept",
        "preserved",
        "sin cambios",
        "igual",
        "unverändert",
        "inchangé*",
        "inalterad*",
        "sem alteraç*",
        "没有改",
        "没改",
        "不变",
        "未改",
        "не изменил*",
        "без изменений",
        "変更していません",
    ],
);

/// Thanks and goodbyes: a closing message, to which any courteous reply fits.
pub static THANKS: CueList = CueList::new(
    17,
    &[
        "thank*",
        "thanks",
        "appreciate*",
        "bye",
        "goodbye",
        "gracias",
        "danke",
        "merci",
        "obrigad*",
        "спасибо",
        "谢谢",
        "多谢",
        "ありがとう",
    ],
);

/// In an answer, marks a clause that reports leaving something out ("with
/// the travel insurance removed").
pub static LEFT_OUT: CueList = CueList::new(
    18,
    &[
        "removed",
        "excluded",
        "declined",
        "omitted",
        "skipped",
        "dropped",
        "waived",
        "quitado",
        "quitada",
        "eliminado",
        "entfernt",
        "weggelassen",
        "supprimé",
        "supprimée",
        "retiré",
        "removido",
        "removida",
        "удален*",
        "убран*",
        "去掉",
        "已删除",
    ],
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::drift::scan::{Hits, Scanned};

    #[test]
    fn every_cue_is_written_as_the_scanner_reads_and_finds_itself() {
        for (l, list) in ALL.iter().enumerate() {
            let mut i = 0;
            loop {
                let phrase = list.phrase(i);
                if phrase.is_empty() {
                    break;
                }
                let body = phrase.trim_end_matches('*');
                assert_eq!(body, body.to_lowercase(), "list {l}: {phrase}");
                assert!(!body.contains('\u{2019}'), "list {l}: {phrase}");
                let s = Scanned::new(body);
                assert!(
                    Hits::new(&s).get(list).iter().any(|h| h.cue == i),
                    "list {l}: {phrase} does not find itself"
                );
                i += 1;
            }
        }
    }
}
