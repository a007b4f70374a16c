//! A correction that says a thing the previous answer used does not exist
//! here (`reply.rs` calls it): "there's no `orderlines` table",
//! "`RETURNING` não existe", "apt тут нет", "这个库不存在". Only when the answer
//! asked nothing ("Is there a config file?" — "There's no config file"
//! answers), outside a question and not after an "if" ("even if there's no
//! refund").

use super::failure::supposed;
use super::is_cjk;
use super::reply::{Present, Previous, in_question, occurrences, rejected};
use crate::text::KeywordBag;

/// Before the missing thing: "there's no X".
const BEFORE: &[&str] = &[
    "there's no",
    "there is no",
    "there are no",
    "theres no",
    "no hay",
    "no existe",
    "es gibt kein",
    "es gibt keine",
    "es gibt keinen",
    "il n'y a pas de",
    "il n'y a pas d'",
    "il n'y a aucun",
    "il n'y a aucune",
    "não tem",
    "não há",
    "não existe",
    "нет никакого",
    "нет никакой",
];

/// After it: "X doesn't exist", "X тут нет".
const AFTER: &[&str] = &[
    "doesn't exist",
    "does not exist",
    "isn't a thing",
    "não existe",
    "no existe",
    "n'existe pas",
    "existiert nicht",
    "gibt es nicht",
    "не существует",
    "тут нет",
    "здесь нет",
    "不存在",
    "存在しません",
    "はありません",
];

/// The span of such a correction in normalised message `t`.
pub fn absent(t: &str, prev: Previous<'_>, words: &Present<'_>) -> Option<(usize, usize)> {
    if prev.asked {
        return None;
    }
    for entry in BEFORE.iter().filter(|e| words.may(e, true)) {
        for (i, end) in occurrences(t, entry, true) {
            if !in_question(t, end)
                && !supposed(t, i)
                && let Some(stop) = rejected(t, end, prev.keywords)
            {
                return Some((i, stop));
            }
        }
    }
    for entry in AFTER {
        let spaced = !entry.chars().all(is_cjk);
        if !words.may(entry, spaced) {
            continue;
        }
        for (i, end) in occurrences(t, entry, spaced) {
            if !in_question(t, end) && !supposed(t, i) && word_before(t, i, prev.keywords) {
                return Some((i, end));
            }
        }
    }
    None
}

/// Whether the word just before byte `at` (past quotes and backticks) is one
/// the previous answer used.
fn word_before(t: &str, at: usize, prev: &KeywordBag) -> bool {
    let head = t
        .get(..at)
        .unwrap_or("")
        .trim_end_matches(|c: char| " `'\"»”".contains(c));
    let start = head
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_'))
        .map_or(0, |p| {
            p + head[p..].chars().next().map_or(1, char::len_utf8)
        });
    let word = head.get(start..).unwrap_or("");
    KeywordBag::stems(word)
        .iter()
        .any(|s| prev.contains_stem(s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::markers::analyze_reply;

    fn fires(msg: &str, prev: &str) -> bool {
        let bag = KeywordBag::from_text(prev);
        let p = Previous {
            keywords: &bag,
            asked: prev.contains('?'),
            requested: crate::detect::markers::asks_for_output(prev),
            earlier: &[],
        };
        !analyze_reply(msg, Some(p)).pushback.is_empty()
    }

    #[test]
    fn a_thing_the_answer_used_said_not_to_exist() {
        let sql = "Run `SELECT order_id, COUNT(*) FROM orderlines GROUP BY order_id;`";
        assert!(fires(
            "Actually the table is called `order_items`, there's no `orderlines` table in our schema.",
            sql
        ));
        assert!(fires(
            "Isso é sintaxe de Postgres. `RETURNING` não existe no MySQL.",
            "Use `INSERT INTO clientes (nome) VALUES ('Ana') RETURNING id;`"
        ));
        assert!(!fires(
            "There's no config file in this repo.",
            "Do you have a config file I can read?"
        ));
        assert!(!fires("There's no rush, take your time.", sql));
        assert!(!fires(
            "Cancel the rest as well, even if there's no refund.",
            "Your refund of $120 will arrive in 5 days."
        ));
    }
}
