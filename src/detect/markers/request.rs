//! Whether an answer asks the user for output ("Can you paste the worker's
//! log when the job runs?", "Kannst du mir die Ausgabe schicken?",
//! "把完整的报错贴一下"). An error the user pastes next answers that
//! request; it reports no failure of the answer. Not when the request is
//! conditional ("if it still fails, send me the traceback") or the answer
//! carries code: then it proposed a change, and a pasted error may be that
//! change failing.

use std::collections::HashSet;
use std::sync::OnceLock;

use super::is_cjk;
use super::reply::is_word;
use crate::hash::FastBuild;

/// The end of an answer read: requests for output close an answer.
const WINDOW_BYTES: usize = 600;

/// Verbs that ask for something to be sent or shown, in the spaced
/// languages.
const VERBS: &[&str] = &[
    "paste",
    "send",
    "share",
    "post",
    "show",
    "provide",
    "attach",
    "copy",
    "upload",
    "include",
    "schick",
    "schicke",
    "schicken",
    "schickst",
    "poste",
    "posten",
    "zeig",
    "zeige",
    "zeigen",
    "kopier",
    "kopiere",
    "einfügen",
    "pega",
    "pegar",
    "pégame",
    "pegame",
    "envía",
    "envia",
    "enviar",
    "envíame",
    "enviame",
    "manda",
    "mándame",
    "mandame",
    "comparte",
    "compartir",
    "muéstrame",
    "muestrame",
    "muestra",
    "pásame",
    "pasame",
    "colle",
    "coller",
    "collez",
    "envoie",
    "envoyer",
    "envoyez",
    "partage",
    "partager",
    "montre",
    "montrez",
    "copie",
    "copier",
    "cola",
    "colar",
    "cole",
    "envie",
    "mande",
    "mandar",
    "compartilha",
    "compartilhe",
    "mostra",
    "mostre",
    "пришли",
    "пришлите",
    "скинь",
    "скиньте",
    "покажи",
    "покажите",
    "вставь",
    "вставьте",
    "отправь",
    "отправьте",
    "скопируй",
    "кинь",
];

/// What is asked for: output, logs, errors.
const NOUNS: &[&str] = &[
    "output",
    "log",
    "logs",
    "error",
    "errors",
    "traceback",
    "trace",
    "stacktrace",
    "message",
    "result",
    "results",
    "screenshot",
    "response",
    "console",
    "ausgabe",
    "fehlermeldung",
    "fehler",
    "meldung",
    "konsole",
    "salida",
    "errores",
    "mensaje",
    "traza",
    "resultado",
    "consola",
    "captura",
    "sortie",
    "erreur",
    "erreurs",
    "résultat",
    "capture",
    "saída",
    "saida",
    "erro",
    "erros",
    "mensagem",
    "вывод",
    "лог",
    "логи",
    "логов",
    "ошибку",
    "ошибки",
    "ошибка",
    "сообщение",
    "трейс",
    "результат",
    "консоль",
    "скрин",
];

/// Openers of a conditional request: "if it still fails, send…".
const IF: &[&str] = &[
    "if",
    "when",
    "once",
    "wenn",
    "falls",
    "sobald",
    "si",
    "cuando",
    "quand",
    "se",
    "quando",
    "если",
    "когда",
];

/// The same, for Chinese and Japanese: request verbs, nouns, conditionals.
const CJK_VERBS: &[&str] = &[
    "发一下",
    "发给我",
    "发我",
    "贴一下",
    "贴出来",
    "贴上来",
    "贴给我",
    "提供",
    "貼って",
    "貼り付けて",
    "送って",
    "見せて",
    "共有して",
    "教えて",
];
const CJK_NOUNS: &[&str] = &[
    "输出",
    "日志",
    "报错",
    "错误",
    "信息",
    "截图",
    "出力",
    "ログ",
    "エラー",
    "メッセージ",
    "結果",
];
const CJK_IF: &[&str] = &["如果", "要是", "もし", "場合"];

/// Whether `answer` closes by asking the user for output, unconditionally
/// and without proposing code. Reads the last `WINDOW_BYTES` only.
pub fn asks_for_output(answer: &str) -> bool {
    if answer.contains("```") {
        return false;
    }
    let from = answer.floor_char_boundary(answer.len().saturating_sub(WINDOW_BYTES));
    let window = answer[from..].to_lowercase();
    crate::work::add(window.len());
    window
        .split(['.', '?', '!', '\n', '。', '？', '！'])
        .any(sentence_asks)
}

/// Verbs and nouns as sets, for one lookup per word.
type Sets = (
    HashSet<&'static str, FastBuild>,
    HashSet<&'static str, FastBuild>,
);

fn sets() -> &'static Sets {
    static SETS: OnceLock<Sets> = OnceLock::new();
    SETS.get_or_init(|| {
        (
            VERBS.iter().copied().collect(),
            NOUNS.iter().copied().collect(),
        )
    })
}

fn sentence_asks(sentence: &str) -> bool {
    let (verbs, nouns) = sets();
    let mut words = sentence
        .split(|c: char| !is_word(c))
        .filter(|w| !w.is_empty());
    let first = words.next().unwrap_or("");
    let cjk = !sentence.is_ascii() && sentence.chars().any(is_cjk);
    if IF.contains(&first) || cjk && CJK_IF.iter().any(|w| sentence.contains(w)) {
        return false;
    }
    let (mut verb, mut noun) = (verbs.contains(first), nouns.contains(first));
    for w in words {
        verb |= verbs.contains(w);
        noun |= nouns.contains(w);
    }
    if cjk {
        verb |= CJK_VERBS.iter().any(|w| sentence.contains(w));
        noun |= CJK_NOUNS.iter().any(|w| sentence.contains(w));
    }
    verb && noun
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_request_for_output_is_told_from_a_proposed_change() {
        for asks in [
            "That log only shows the job being scheduled. Can you paste the output from the worker when the job actually runs?",
            "In dem Log sehe ich nur den normalen Start. Kannst du mir die Ausgabe schicken, wenn die App sich verbindet?",
            "¿Me puedes pegar el error completo?",
            "Пришли, пожалуйста, полный лог.",
            "请把完整的报错贴一下。",
            "エラーメッセージを全部貼ってください。",
        ] {
            assert!(asks_for_output(asks), "{asks}");
        }
        for proposes in [
            "I updated the Dockerfile to cache the pip layer separately.",
            "Change the import to `from x import y`. If it still fails, paste the traceback.",
            "Run this:\n```\nnpm ci\n```\nthen send me the output.",
            "如果还报错，把日志发给我。",
            "Can you share which plan you prefer?",
        ] {
            assert!(!asks_for_output(proposes), "{proposes}");
        }
    }

    #[test]
    fn only_the_end_of_a_long_answer_is_read() {
        let long = format!("Paste the output. {}", "The cache is warm. ".repeat(100));
        assert!(!asks_for_output(&long));
        assert!(asks_for_output(&format!("{long} Paste the output.")));
    }
}
