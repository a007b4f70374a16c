//! An answer that opens by naming the goal it serves ("To make the navbar
//! sticky, …", "Para crear un usuario, …", "Чтобы защитить аккаунт, …",
//! "…するには、") tells what question it answers. When that goal shares
//! nothing with the request, the answer most likely answers another one,
//! even if it names the same product further on.

use super::scan::Scanned;

/// Goal openers, as word sequences at the very start of the answer.
const OPENERS: &[&[&str]] = &[
    &["to"],
    &["for"],
    &["here", "are", "some"],
    &["here", "are", "the"],
    &["here", "are"],
    &["here", "is", "the"],
    &["here", "is"],
    &["here's", "the"],
    &["here's"],
    &["in", "order", "to"],
    &["if", "you", "want", "to"],
    &["if", "you'd", "like", "to"],
    &["para"],
    &["pour"],
    &["afin", "de"],
    &["si", "vous", "voulez"],
    &["si", "quieres"],
    &["um"],
    &["wenn", "sie"],
    &["per"],
    &["damit"],
    &["чтобы"],
    &["要"],
    &["想", "要"],
    &["想"],
    &["如", "果", "你", "想"],
    &["如", "果", "您", "想"],
];

/// Chinese and Japanese bigrams that say how, not what ("知道" in
/// "如果你想知道…", "if you want to know …"): no goal is made of them.
pub const CJK_FILLER: &[&str] = &[
    "知道", "了解", "到哪", "哪了", "哪里", "哪儿", "什么", "怎么", "怎样", "如何", "可以", "一下",
    "的话", "是否", "能否", "需要", "多少", "たい", "する", "には", "ので", "一个", "这个", "那个",
];

/// The words of the goal clause, after its opener, as a word range.
pub fn goal(s: &Scanned) -> Option<std::ops::Range<usize>> {
    // The goal opens the answer, possibly after an interjection ("Sure!",
    // "¡Claro!", "Glad it's working!"): not after a code block.
    let mut first = 0;
    if s.words.first()?.code {
        return None;
    }
    let opening = s.sentence_range(0);
    let exclaims = s
        .text
        .get(s.words.get(opening.end.checked_sub(1)?)?.end as usize..)
        .is_some_and(|rest| rest.trim_start().starts_with(['!', '！']));
    if opening.end - opening.start <= 4 && exclaims {
        first = opening.end;
    }
    let w = s.words.get(first).filter(|w| !w.code)?;
    let clause = s.clause_range(w.clause);
    // Japanese puts the goal first and "には" (or "たい場合は", "if you want
    // to …") after it. A bare "場合は" ("引っ越す場合は", "when moving")
    // states the asker's situation, not a goal.
    if let Some(at) =
        (clause.start + 2..clause.end).find(|&i| s.word(i - 1) == "に" && s.word(i) == "は")
    {
        return Some(clause.start..at - 1);
    }
    if let Some(at) = (clause.start + 5..clause.end).find(|&i| {
        s.word(i - 4) == "た" && s.word(i - 3) == "い" && s.span(i - 2, i + 1) == "場合は"
    }) {
        return Some(clause.start..at - 2);
    }
    OPENERS.iter().find_map(|opener| {
        let matches = opener
            .iter()
            .enumerate()
            .all(|(k, w)| s.word(first + k) == *w);
        let from = first + opener.len();
        // A goal clause, not the whole answer: it must end before the text does.
        (matches && from < clause.end && clause.end < s.words.len()).then_some(from..clause.end)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn goal_text(text: &str) -> Option<String> {
        let s = Scanned::new(text);
        goal(&s).map(|r| s.span(r.start, r.end).to_string())
    }

    #[test]
    fn goal_clauses_in_several_languages() {
        assert_eq!(
            goal_text("To make the navbar stick, use position: sticky.").as_deref(),
            Some("make the navbar stick")
        );
        assert_eq!(
            goal_text("Para crear un usuario nuevo, ejecuta CREATE USER.").as_deref(),
            Some("crear un usuario nuevo")
        );
        assert_eq!(
            goal_text("Чтобы защитить аккаунт, включите 2FA.").as_deref(),
            Some("защитить аккаунт")
        );
        assert!(goal_text("パスワードを変更するには、設定を開きます。").is_some());
        assert_eq!(
            goal_text("直前のコミットを取り消したい場合は、git revert を使います。").as_deref(),
            Some("直前のコミットを取り消したい")
        );
        // A situation ("when moving to another town") is not a goal.
        assert_eq!(
            goal_text("別の市区町村へ引っ越す場合は、転出届を出します。"),
            None
        );
        assert_eq!(
            goal_text("想提高信用卡额度的话，可以在 App 里申请。").as_deref(),
            Some("提高信用卡额度的话")
        );
        assert_eq!(goal_text("Tomorrow works, see you."), None);
        assert_eq!(goal_text("To be safe, restart."), Some("be safe".into()));
        // The whole answer is not a goal clause.
        assert_eq!(goal_text("To the airport"), None);
    }
}
