//! A failure report tied to the previous answer (`reply.rs` calls
//! it): a failure word with "still", "again", "now" or the assistant's work
//! in the same sentence ("Still getting the 403", "I ran your script and
//! got KeyError", "Опять сломалось после твоего изменения"), or a message
//! that is nothing but one ("DOESNT WORK", "still 500"). Quiet in a question
//! or a request, when supposed ("if it fails"), denied ("not because of your
//! code"), thanked for, said to be gone ("no errors anymore"), on the user's
//! side, or about someone else's work. The failure words and ties are in
//! `reply.rs` with the other word lists.

use super::frames::Found;
use super::frames::listed;
use super::is_cjk;
use super::reply::{LANGS, List, Present, THANKS, is_word, occurrences, sentences};
use super::report::{on_my_side, resolved};

/// Sentence openers of a request or a question: "Add error handling now"
/// asks for work, it does not report a failure.
pub(super) const REQUEST: &[&str] = &[
    "add",
    "write",
    "make",
    "create",
    "implement",
    "show",
    "explain",
    "tell",
    "help",
    "give",
    "generate",
    "build",
    "can",
    "could",
    "would",
    "please",
    "how",
    "what",
    "why",
    "when",
    "where",
    "which",
    "is",
    "are",
    "do",
    "does",
    "añade",
    "agrega",
    "escribe",
    "haz",
    "crea",
    "puedes",
    "podrías",
    "cómo",
    "qué",
    "por",
    "füge",
    "schreib",
    "schreibe",
    "erstelle",
    "kannst",
    "könntest",
    "wie",
    "was",
    "warum",
    "bitte",
    "ajoute",
    "écris",
    "fais",
    "crée",
    "peux",
    "pourrais",
    "comment",
    "pourquoi",
    "quel",
    "quelle",
    "adicione",
    "escreva",
    "faça",
    "crie",
    "pode",
    "poderia",
    "como",
    "qual",
    "добавь",
    "напиши",
    "сделай",
    "создай",
    "можешь",
    "как",
    "почему",
    "что",
];

/// A failure word and a tie to the answer in one sentence that is not a
/// question or a request, or a message of at most four words that is a
/// failure report.
pub(super) fn failure(t: &str, present: &Present<'_>, scanned: &Found) -> Option<(usize, usize)> {
    let lists: Vec<(bool, Vec<&str>, Vec<&str>)> = LANGS
        .iter()
        .map(|l| {
            let failures = present.candidates(l, List::Failure);
            (l.spaced, failures, present.candidates(l, List::Tie))
        })
        .collect();
    if lists.iter().all(|(_, f, _)| f.is_empty()) && !t.bytes().any(|b| b == b'4' || b == b'5') {
        return None;
    }
    // A message of at most four words and no question can be a bare report.
    let short = t
        .split(' ')
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .count()
        <= 4
        && !t.contains(['?', '？']);
    let mut start = 0;
    for sentence in sentences(t) {
        let here = start;
        start += sentence.len();
        let mut words = sentence
            .split(|c: char| !is_word(c))
            .filter(|w| !w.is_empty());
        let (first, second) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
        // "When I run your script it fails" reports; "when does it" asks.
        let reports = first == "when" && matches!(second, "i" | "we");
        // "Now add retries and a timeout": a request after "now", "also".
        let then_asks =
            matches!(first, "now" | "also" | "then" | "next" | "and") && REQUEST.contains(&second);
        if sentence.ends_with(['?', '？']) || (REQUEST.contains(&first) && !reports) || then_asks {
            continue;
        }
        for (spaced, failures, ties) in &lists {
            let spaced = *spaced;
            let found = failures.iter().find_map(|f| {
                occurrences(sentence, f, spaced)
                    .find(|&(a, b)| {
                        !names_a_feature(sentence, b)
                            && !supposed(sentence, a)
                            && !absent_failure(sentence, a)
                    })
                    .map(|(a, b)| (a, b, f.contains(' ')))
            });
            let Some((a, b, phrase)) =
                found.or_else(|| http_error(sentence).map(|(a, b)| (a, b, false)))
            else {
                continue;
            };
            if thanks_for_a_fix(sentence)
                || someone_else(sentence)
                || on_my_side(scanned, here, here + sentence.len())
                || resolved(t, scanned, here, here + sentence.len())
            {
                break;
            }
            // "…not because of your code": a tie the user denies.
            let tied = ties
                .iter()
                .any(|w| occurrences(sentence, w, spaced).any(|(i, _)| !denied(sentence, i)));
            let bare = spaced && short;
            // "Doesn't compile: expected `&str`": a report that opens the message.
            let opens = phrase && here == 0 && a == 0;
            if tied || bare || opens {
                return Some((here + a, here + b));
            }
        }
    }
    None
}

/// Whether the failure word at byte `at` is said to be absent: "no errors
/// anymore", "sin errores", "keine Fehler mehr", "没报错".
fn absent_failure(sentence: &str, at: usize) -> bool {
    const NONE: &str = "no|zero|without|sin|ningún|ningun|kein|keine|keinen|ohne|aucun|aucune|\
                        sans|nenhum|nenhuma|sem|никаких|без|нет";
    const NONE_CJK: &[&str] = &["没", "沒", "不", "无", "無"];
    let head = sentence.get(..at).unwrap_or("");
    let mut before = head
        .split(|c: char| !is_word(c))
        .filter(|w| !w.is_empty())
        .rev();
    let last = before.next().unwrap_or("");
    // "no more crashes", "keine Fehler mehr"
    let no_more = matches!(last, "more" | "longer") && before.next() == Some("no");
    listed(NONE, last) || no_more || NONE_CJK.iter().any(|w| head.ends_with(w))
}

/// A sentence that thanks without a "but": "That error is gone now, thanks".
fn thanks_for_a_fix(sentence: &str) -> bool {
    const BUT: &[&str] = &[
        "but", "aber", "mais", "pero", "mas", "но", "但", "可是", "でも", "けど", "still",
    ];
    THANKS.iter().any(|w| sentence.contains(w))
        && !BUT.iter().any(|w| {
            occurrences(sentence, w, !w.chars().all(is_cjk))
                .next()
                .is_some()
        })
}

/// A sentence about someone else's work: "My coworker pushed a broken
/// migration", "同事把配置改坏了".
fn someone_else(sentence: &str) -> bool {
    const OTHERS: &[&str] = &[
        "coworker",
        "co-worker",
        "colleague",
        "boss",
        "teammate",
        "intern",
        "manager",
        "someone",
        "somebody",
        "compañero",
        "compañera",
        "colega",
        "jefe",
        "alguien",
        "kollege",
        "kollegin",
        "chef",
        "jemand",
        "collègue",
        "patron",
        "quelqu'un",
        "chefe",
        "alguém",
        "коллега",
        "начальник",
        "кто-то",
    ];
    const OTHERS_CJK: &[&str] = &["同事", "老板", "别人", "同僚", "上司", "誰か"];
    let opening: String = sentence.chars().take(8).collect();
    let head: Vec<&str> = sentence
        .split(|c: char| !(is_word(c) || c == '-'))
        .filter(|w| !w.is_empty())
        .take(3)
        .collect();
    head.iter().any(|w| OTHERS.contains(w)) || OTHERS_CJK.iter().any(|w| opening.contains(w))
}

/// Whether the failure word at byte `at` is only supposed: "if it fails",
/// "what if the call fails", "falls es fehlschlägt", "如果失败".
pub(super) fn supposed(sentence: &str, at: usize) -> bool {
    // Not "when", "wenn", "たら": "when I run your script it fails" reports.
    const IF: &[&str] = &[
        "if", "unless", "in case", "what if", "si", "falls", "caso", "если",
    ];
    const IF_CJK: &[&str] = &["如果", "万一", "要是", "的话", "なら", "場合"];
    let head = sentence.get(..at).unwrap_or("");
    IF.iter()
        .any(|w| occurrences(head, w, true).next().is_some())
        || IF_CJK.iter().any(|w| sentence.contains(w))
}

/// Whether a tie at byte `at` is denied: "not because of your code", "nicht
/// an deinem Skript".
fn denied(sentence: &str, at: usize) -> bool {
    const NOT: &[&str] = &[
        "not", "wasn't", "wasnt", "isn't", "isnt", "weren't", "aren't", "nicht", "pas", "no",
        "não", "nao", "не", "不是",
    ];
    let head = sentence.get(..at).unwrap_or("");
    let near: Vec<&str> = head
        .split(' ')
        .rev()
        .filter(|w| !w.is_empty())
        .take(4)
        .collect();
    near.iter().any(|w| NOT.contains(w))
}

/// Whether the failure word ending at `end` names a feature rather than a
/// failure: "error handling", "error messages", "Fehlerbehandlung".
fn names_a_feature(s: &str, end: usize) -> bool {
    const NEXT: &[&str] = &[
        "handling",
        "handler",
        "handlers",
        "message",
        "messages",
        "page",
        "pages",
        "code",
        "codes",
        "logging",
        "log",
        "logs",
        "boundary",
        "boundaries",
        "rate",
        "budget",
        "budgets",
        "tracking",
        "reporting",
        "states",
        "state",
    ];
    const COMPOUND: &[&str] = &["behandlung", "meldung", "seite", "protokoll"];
    let word_start = s
        .get(..end)
        .and_then(|h| h.rfind(|c: char| !is_word(c)))
        .map_or(0, |p| p + 1);
    let word = s.get(word_start..end).unwrap_or("");
    let next = s.get(end..).unwrap_or("").trim_start();
    let next = next
        .get(..next.find(|c: char| !is_word(c)).unwrap_or(next.len()))
        .unwrap_or("");
    NEXT.contains(&next) || COMPOUND.iter().any(|c| word.ends_with(c))
}

/// Words that may follow an HTTP status in a report: "500 error", "403
/// forbidden", "the 502 again".
const AFTER_STATUS: &[&str] = &[
    "error",
    "errors",
    "status",
    "response",
    "responses",
    "code",
    "internal",
    "server",
    "bad",
    "page",
    "again",
    "when",
    "on",
    "from",
    "for",
    "in",
    "with",
    "back",
    "now",
    "still",
    "every",
    "after",
    "and",
    "but",
    "not",
    "too",
    "gateway",
    "forbidden",
    "unauthorized",
    "timeout",
    "service",
    "even",
    "instead",
];

/// An HTTP error status named as one: "the 403", "still 500", "502 error"
/// (not "500 users").
fn http_error(s: &str) -> Option<(usize, usize)> {
    const BEFORE: &[&str] = &[
        "the",
        "a",
        "an",
        "got",
        "get",
        "getting",
        "still",
        "http",
        "error",
        "status",
        "code",
        "returns",
        "returned",
        "erro",
        "fehler",
        "erreur",
        "ошибка",
        "el",
        "un",
        "le",
        "une",
        "o",
        "um",
        "der",
        "einen",
        "ein",
    ];
    let b = s.as_bytes();
    (0..b.len().saturating_sub(2)).find_map(|i| {
        let code = b.get(i..i + 3)?;
        let edge = |j: Option<&u8>| j.is_none_or(|c| !c.is_ascii_alphanumeric());
        let word = matches!(code[0], b'4' | b'5')
            && code.iter().all(u8::is_ascii_digit)
            && edge(i.checked_sub(1).and_then(|j| b.get(j)))
            && edge(b.get(i + 3));
        if !word {
            return None;
        }
        let head = s.get(..i)?.trim_end();
        let prev = head.rsplit(' ').next().unwrap_or("");
        let next = s.get(i + 3..)?.trim_start();
        // "the 500 ml bottle", "the 404 users": a quantity, not a status.
        let word = next.get(
            ..next
                .find(|c: char| !c.is_alphabetic())
                .unwrap_or(next.len()),
        )?;
        let quantity = !word.is_empty() && !AFTER_STATUS.contains(&word);
        // "401 Unauthorized": the status with its reason phrase.
        let reason = [
            "unauthorized",
            "forbidden",
            "not found",
            "internal server error",
            "bad gateway",
            "bad request",
            "service unavailable",
            "gateway timeout",
            "too many requests",
        ]
        .iter()
        .any(|r| next.starts_with(r));
        let named = BEFORE.contains(&prev) || next.starts_with("error") || reason;
        (!quantity && named).then_some((i, i + 3))
    })
}

#[cfg(test)]
mod tests {
    use super::super::reply::FAILURE;
    use super::super::reply::tests::rule;

    #[test]
    fn a_failure_report_needs_a_tie_to_the_answer_and_no_question() {
        let fix = "Add the token to the Authorization header.";
        assert_eq!(rule("Ugh. Still getting the 403.", fix), Some(FAILURE));
        assert_eq!(
            rule("I ran your script and got KeyError: 'user_id'.", fix),
            Some(FAILURE)
        );
        assert_eq!(
            rule("Doesn't compile: expected `&str`, found `String`.", fix),
            Some(FAILURE)
        );
        assert_eq!(rule("DOESNT WORK", fix), Some(FAILURE));
        assert_eq!(
            rule("Jetzt schlagen sogar zwei Tests fehl.", fix),
            Some(FAILURE)
        );
        assert_eq!(
            rule("ﾀﾞﾒです、まだｴﾗｰが出ます", fix),
            Some("まだエラー"),
            "half-width kana read as full-width"
        );
        assert_eq!(rule("相変わらずｿﾌﾄが起動しないです", fix), Some(FAILURE));
        assert_eq!(rule("We now have 500 users on the new plan.", fix), None);
        assert_eq!(rule("Add error handling to the upload now.", fix), None);
        assert_eq!(rule("I now want error messages in German.", fix), None);
        assert_eq!(rule("Jetzt bitte noch Fehlerbehandlung.", fix), None);
        assert_eq!(rule("Why does my own build still fail?", fix), None);
    }

    #[test]
    fn failures_that_are_thanked_supposed_denied_or_someone_elses_are_quiet() {
        let prev = "The issue was a missing `await` before fetchUser(); I've added it.";
        for msg in [
            "That error is gone now, thanks a ton.",
            "Right now if it fails once the whole job dies.",
            "My test was failing because of the timezone, not because of your code.",
            "My coworker pushed a broken migration and now nobody can deploy.",
        ] {
            assert_eq!(rule(msg, prev), None, "{msg}");
        }
        assert_eq!(
            rule("Thanks, but now the page is blank.", prev),
            Some(FAILURE)
        );
        assert_eq!(
            rule("When I run your script it fails with KeyError.", prev),
            Some(FAILURE),
            "'when' reports, it does not suppose"
        );
    }

    #[test]
    fn a_status_code_before_a_unit_is_a_quantity() {
        let fix = "I swapped the bottle in your order.";
        assert_eq!(rule("Recap: now the 500 ml one replaces it.", fix), None);
        assert_eq!(
            rule("Ugh. Still getting the 500 on that page.", fix),
            Some(FAILURE)
        );
    }
}
