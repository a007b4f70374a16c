//! A standing rule told by its form rather than a phrase of the packs: a
//! sentence that opens with "always" or "never" and goes on as an order
//! ("Never touch the lockfile again unless I ask", "Always run the tests
//! first", "Nunca uses var", "Всегда отвечай кратко"). Statements ("Always
//! the same error", "Never works on Safari", "Immer noch kaputt") and
//! "never mind" are not rules. So are sentences opening with "every time
//! you" or "going forward" ("It crashes every time you click save" is not).

use super::is_cjk;

/// Sentence openers of a standing order, in the eight languages.
const OPENERS: &[&str] = &[
    "always",
    "never",
    "don't ever",
    "do not ever",
    "every time you",
    "whenever you",
    "going forward",
    "siempre",
    "nunca",
    "sempre",
    "immer",
    "nie",
    "niemals",
    "jamais",
    "всегда",
    "никогда",
    "永远",
    "一律",
    "以后",
    "今后",
    "每次",
    "毎回",
    "for every",
    "必ず",
    "常に",
];

/// Words after an opener that make the sentence a statement or an idiom.
const NOT_AN_ORDER: &[&str] = &[
    "mind", "again", "with", "the", "a", "same", "that", "this", "it", "ever", "noch", "wieder",
    "das", "der", "die", "lo", "la", "el", "o", "mesmo", "mesma", "mismo", "misma", "так", "одно",
    "то", "же", "would", "would've", "wouldve", "could", "could've", "should", "will", "have",
    "had", "been", "was", "were", "knew", "thought", "i", "we", "they", "he", "she", "que",
];

/// Byte offsets, in normalised text `t`, of the sentences that state a
/// standing order this way: an opener at the start of a sentence or of a
/// clause ("我偏好用 pnpm，以后安装依赖都用 pnpm"), or a taste stated as a
/// comparison ("I prefer pytest over unittest"; "I'd prefer to pay with a
/// gift card" is about this booking).
pub fn standing_orders(t: &str) -> Vec<usize> {
    let mut found = Vec::new();
    let mut start = 0;
    for sentence in t.split_inclusive(['.', '!', '?', ';', '\n', '。', '！', '？', '；']) {
        let here = start;
        start += sentence.len();
        crate::work::add(sentence.len());
        if sentence.ends_with(['?', '？']) {
            continue;
        }
        let ordered = sentence.split_inclusive(',').any(orders);
        if ordered || prefers_over(sentence) {
            found.push(here + sentence.len() - sentence.trim_start().len());
        }
    }
    found
}

/// Whether a clause opens with a standing order.
fn orders(clause: &str) -> bool {
    let s = clause.trim_start_matches(|c: char| !c.is_alphanumeric());
    // "please never touch the migrations folder": a polite order still is one.
    let s = [
        "please ",
        "pls ",
        "bitte ",
        "por favor, ",
        "por favor ",
        "пожалуйста, ",
        "пожалуйста ",
    ]
    .iter()
    .find_map(|p| s.strip_prefix(p))
    .unwrap_or(s);
    let Some(opener) = OPENERS.iter().find(|o| s.starts_with(**o)) else {
        return false;
    };
    let rest = s.get(opener.len()..).unwrap_or("");
    let cjk = opener.chars().all(is_cjk);
    if !cjk && !rest.starts_with([' ', ',']) {
        return false;
    }
    // A Chinese or Japanese order asks for something ("以后写代码都用
    // TypeScript", "毎回…してください"); "以后再说" is later, "每次都报错" a
    // complaint.
    const ASKS: &[&str] = &[
        "请",
        "請",
        "别",
        "別",
        "不要",
        "记得",
        "必须",
        "务必",
        "一律",
        "都用",
        "都要",
        "都先",
        "都给",
        "先给",
        "ください",
        "してね",
        "しないで",
        "すること",
    ];
    if cjk && (rest.starts_with(['再', '的']) || !ASKS.iter().any(|w| rest.contains(w))) {
        return false;
    }
    // "For every PR you open, tag Maria": a rule for the user's requests.
    if *opener == "for every" && !rest.contains(" you ") {
        return false;
    }
    let next = rest
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .find(|w| !w.is_empty())
        .unwrap_or("");
    // "Never works on Safari": an English verb with -s states a fact.
    let english = matches!(*opener, "always" | "never");
    let third_person = english && next.ends_with('s') && !next.ends_with("ss");
    !(next.is_empty() || NOT_AN_ORDER.contains(&next) || third_person)
}

/// "I prefer X over Y", "I'd prefer X rather than Y".
fn prefers_over(sentence: &str) -> bool {
    ["i prefer ", "i'd prefer ", "i always prefer "]
        .iter()
        .filter_map(|p| sentence.find(p).map(|i| i + p.len()))
        .any(|after| {
            let rest = sentence.get(after..).unwrap_or("");
            [" over ", " rather than ", " instead of "]
                .iter()
                .any(|w| rest.contains(w))
        })
}

#[cfg(test)]
mod tests {
    use super::standing_orders;

    #[test]
    fn orders_opening_with_always_or_never_are_standing_rules() {
        for t in [
            "never touch the lockfile again unless i explicitly ask.",
            "thanks. always run the tests before you answer.",
            "nunca uses var en mis scripts.",
            "всегда отвечай кратко.",
            "永远不要提交 .env 文件。",
            "every time you write a migration, include the down step.",
            "going forward please run mypy first.",
            "我偏好用 pnpm,以后安装依赖都用 pnpm。",
            "i prefer pytest over unittest, use it for all tests.",
            "每次改代码之前先给我看diff,别直接commit",
            "for every pr you open in this repo, tag @maria as reviewer",
            "please never touch the migrations folder without asking me first",
        ] {
            assert_eq!(standing_orders(t).len(), 1, "{t}");
        }
    }

    #[test]
    fn statements_questions_and_idioms_are_not() {
        for t in [
            "never mind, that works now.",
            "always the same error!",
            "never works on safari.",
            "immer noch kaputt.",
            "always use tabs?",
            "i never said that.",
            "nie wieder diese firma.",
            "it crashes every time you click save.",
            "升级以后都报错了。",
            "这个以后再说。",
            "i'd prefer to pay with a gift card.",
            "每次都报错。",
            "for every row, compute the total.",
            "never would've spotted that missing await.",
        ] {
            assert!(standing_orders(t).is_empty(), "{t}");
        }
    }
}
