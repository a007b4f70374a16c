//! Sarcastic praise (`reply.rs` calls it): a message that opens with
//! praise and goes on with "now" and something that no longer works — "Great,
//! now the login page doesn't load at all", "Ótimo, agora o carrinho esvazia
//! toda vez", "Отлично, теперь вообще все письма уходят в спам", "呵呵，现在连登录
//! 都登录不上了". Praise followed by a request ("Great, now add the tests") or by
//! news that something works ("Perfect, now it compiles") is thanks.

use super::is_cjk;
use super::reply::{is_word, occurrences, skip_interjection};

/// Praise words that open such a message, in the eight languages.
pub(super) const PRAISE: &[&str] = &[
    "great",
    "cool",
    "wow",
    "perfect",
    "awesome",
    "fantastic",
    "brilliant",
    "nice",
    "lovely",
    "wonderful",
    "super",
    "excellent",
    "terrific",
    "genial",
    "fantástico",
    "perfecto",
    "estupendo",
    "maravilloso",
    "toll",
    "prima",
    "klasse",
    "wunderbar",
    "perfekt",
    "génial",
    "parfait",
    "bravo",
    "formidable",
    "ótimo",
    "otimo",
    "perfeito",
    "maravilha",
    "beleza",
    "отлично",
    "прекрасно",
    "супер",
    "замечательно",
    "класс",
    "великолепно",
    "太好了",
    "呵呵",
    "好家伙",
    "很好",
    "真棒",
    "すばらしい",
    "素晴らしい",
    "さすが",
    "最高",
];

/// "Now", which turns the praise to what the change did.
const NOW: &[&str] = &[
    "now",
    "ahora",
    "jetzt",
    "maintenant",
    "agora",
    "теперь",
    "现在",
    "这下",
    "今度は",
    "これで",
];

/// A negation makes the news bad ("doesn't load", "连登录都登录不上").
const NEGATION: &[&str] = &[
    "not",
    "no",
    "nothing",
    "none",
    "never",
    "nicht",
    "nichts",
    "kein",
    "keine",
    "ne",
    "pas",
    "rien",
    "ni",
    "nada",
    "nem",
    "não",
    "nao",
    "не",
    "ничего",
    "нет",
    "aucun",
    "aucune",
];
const NEGATION_CJK: &[&str] = &["不", "没", "沒", "ない", "ません"];

/// So does a sweeping word, unless the news is that something works: "none
/// of the tests even compile", "вообще все письма", "toda vez" — but "now all
/// the tests pass".
const SWEEP: &[&str] = &[
    "ganz",
    "ganze",
    "ganzen",
    "komplett",
    "completely",
    "entirely",
    "even",
    "at all",
    "whole",
    "entire",
    "every",
    "all",
    "gar",
    "überhaupt",
    "sogar",
    "alle",
    "du tout",
    "même",
    "tout",
    "tous",
    "toutes",
    "todo",
    "todos",
    "toda",
    "tudo",
    "вообще",
    "все",
    "всё",
    "даже",
];
const SWEEP_CJK: &[&str] = &["连", "連", "都", "全"];

/// A request after "now": "Great, now add the tests", "Super, jetzt noch…".
const NEXT_STEP: &[&str] = &[
    "add",
    "let's",
    "lets",
    "can",
    "could",
    "please",
    "do",
    "make",
    "write",
    "try",
    "run",
    "show",
    "we",
    "i",
    "what",
    "how",
    "on",
    "let",
    "vamos",
    "puedes",
    "haz",
    "añade",
    "lass",
    "kannst",
    "bitte",
    "noch",
    "on",
    "peux",
    "ajoute",
    "fais",
    "pode",
    "faça",
    "adicione",
    "vamos",
    "давай",
    "добавь",
    "можешь",
    "сделай",
    "我们",
    "请",
    "再",
];

/// News that something works: "now it compiles", "jetzt klappt es".
const WORKS: &[&str] = &[
    "works",
    "worked",
    "working",
    "fixed",
    "passes",
    "pass",
    "compiles",
    "runs",
    "loads",
    "funciona",
    "anda",
    "klappt",
    "funktioniert",
    "läuft",
    "marche",
    "fonctionne",
    "roda",
    "работает",
    "заработало",
    "好了",
    "可以了",
    "成功",
    "正常",
    "動いた",
    "動きました",
    "直った",
    "できた",
];

/// Whether `w` occurs in `s` as whole words (a CJK entry anywhere).
fn has(s: &str, w: &str) -> bool {
    occurrences(s, w, !w.chars().all(is_cjk)).next().is_some()
}

/// Praise at the start of normalised message `t` and, within the next few
/// words, "now" opening bad news. Returns the span from the praise to "now".
pub fn sarcasm(t: &str) -> Option<(usize, usize)> {
    if t.contains(['?', '？']) {
        return None;
    }
    let t0 = skip_interjection(t.trim_start_matches(|c: char| !c.is_alphanumeric()));
    let off = t.len() - t0.len();
    let praise = PRAISE.iter().find(|p| {
        t0.starts_with(**p)
            && (p.chars().all(is_cjk)
                || t0
                    .get(p.len()..)
                    .and_then(|r| r.chars().next())
                    .is_none_or(|c| !is_word(c)))
    })?;
    // "Now" within the next five words (or twelve characters).
    let head: String = t0.get(praise.len()..)?.chars().take(40).collect();
    let (at, now) = NOW
        .iter()
        .filter_map(|n| {
            let (i, _) = occurrences(&head, n, !n.chars().all(is_cjk)).next()?;
            Some((i, *n))
        })
        .min_by_key(|&(i, _)| i)?;
    let words_before = head.get(..at)?.split_whitespace().count();
    if words_before > 5 || head.get(..at)?.chars().count() > 24 {
        return None;
    }
    let after = t0.get(praise.len() + at + now.len()..)?;
    let clause = after.get(
        ..after
            .find(['.', '!', '。', '！', ';', '；'])
            .unwrap_or(after.len()),
    )?;
    bad_news(clause).then_some((off, off + praise.len() + at + now.len()))
}

/// Whether the clause after "now" (or after a "but") tells of something
/// broken: a negation or a sweeping word ("none of the tests even compile",
/// "on every page"), and not a request ("now add the tests") or news that
/// something works ("now all the tests pass").
pub(super) fn bad_news(clause: &str) -> bool {
    let first = clause
        .split(|c: char| !is_word(c))
        .find(|w| !w.is_empty())
        .unwrap_or("");
    let opens_request = NEXT_STEP.contains(&first)
        || NEXT_STEP
            .iter()
            .any(|w| w.chars().all(is_cjk) && clause.trim_start_matches([',', ' ']).starts_with(w));
    let any = |words: &[&str], cjk: &[&str]| {
        words.iter().any(|w| has(clause, w)) || cjk.iter().any(|w| clause.contains(w))
    };
    // "n'arrive", "n'est": French negation joined to its verb.
    let elided = clause
        .split(|c: char| !is_word(c))
        .any(|w| w.starts_with("n'"));
    let negated = any(NEGATION, NEGATION_CJK) || clause.contains("n't") || elided;
    let swept = any(SWEEP, SWEEP_CJK) && !WORKS.iter().any(|w| has(clause, w));
    !opens_request && (negated || swept)
}

#[cfg(test)]
mod tests {
    use super::sarcasm;

    #[test]
    fn praise_then_bad_news_is_sarcasm() {
        for t in [
            "great, now the login page doesn't load at all.",
            "wow, great. now none of the tests even compile.",
            "super, maintenant le bouton ne fait plus rien du tout.",
            "отлично, теперь у меня вообще все письма уходят в спам.",
            "呵呵，现在连登录都登录不上了。",
        ] {
            assert!(sarcasm(t).is_some(), "{t}");
        }
    }

    #[test]
    fn praise_then_a_request_or_good_news_is_thanks() {
        for t in [
            "great, now add the tests.",
            "perfect, now it compiles.",
            "great, now all the tests pass!",
            "nice, now can you do the same for orders?",
            "great work. the next step is the api, it has no auth yet and we need it now",
            "super, jetzt noch die tests bitte",
            "太好了，现在可以了",
        ] {
            assert!(sarcasm(t).is_none(), "{t}");
        }
    }
}
