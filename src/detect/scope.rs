//! Scope drift: how much of the response's content is not anchored in what
//! the user asked.
//!
//! Reference behaviour (share of response keywords absent from the task), with
//! the fixes that need no extra model: both sides are stemmed, so inflections
//! anchor each other; every keyword counts, not only the alphabetically first
//! ten; CJK text is compared by bigrams instead of as one giant token.

use crate::text::KeywordBag;

/// Tokens listed in a drift warning.
pub const MAX_LISTED: usize = 20;

/// Share of the response's distinct keywords whose stem is not in the task;
/// `None` when either side has no keywords (nothing to judge).
pub fn drift_score(task: &KeywordBag, response: &KeywordBag) -> Option<f64> {
    if task.is_empty() || response.is_empty() {
        return None;
    }
    let unanchored = response
        .iter()
        .filter(|(stem, _, _)| !task.contains_stem(stem))
        .count();
    Some(unanchored as f64 / response.len() as f64)
}

/// The unanchored words, most frequent first (ties keep text order).
pub fn drift_tokens(task: &KeywordBag, response: &KeywordBag) -> Vec<String> {
    let mut items: Vec<(&str, u32)> = response
        .iter()
        .filter(|(stem, _, _)| !task.contains_stem(stem))
        .map(|(_, surface, count)| (surface, count))
        .collect();
    crate::sort::sort_by_key(&mut items, |&(_, count)| std::cmp::Reverse(count));
    items
        .into_iter()
        .take(MAX_LISTED)
        .map(|(s, _)| s.to_string())
        .collect()
}

/// The task's keywords in the order the user wrote them.
pub fn task_tokens(task: &KeywordBag) -> Vec<String> {
    task.iter()
        .take(MAX_LISTED)
        .map(|(_, surface, _)| surface.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(task: &str, response: &str) -> Option<f64> {
        drift_score(
            &KeywordBag::from_text(task),
            &KeywordBag::from_text(response),
        )
    }

    #[test]
    fn undefined_without_both_sides() {
        assert_eq!(score("", "add logging"), None);
        assert_eq!(score("refactor async", ""), None);
        assert_eq!(score("is it ok?", "yes"), None);
    }

    #[test]
    fn reference_examples() {
        assert_eq!(
            score(
                "refactor this function to be async",
                "add logging and error handling"
            ),
            Some(1.0)
        );
        assert_eq!(
            score(
                "refactor the async function",
                "add logging telemetry for the async function"
            ),
            Some(0.5)
        );
        assert_eq!(
            score("Refactor this to be async", "REFACTOR THIS TO BE ASYNC"),
            Some(0.0)
        );
    }

    #[test]
    fn stemming_fixes_the_reference_false_positive() {
        // The reference scored this 0.5 (a warning) because `refactored` ≠ `refactor`.
        let s = score(
            "refactor the async function",
            "refactored async function returned",
        )
        .unwrap();
        assert!(s < 0.5, "{s}");
        assert_eq!(
            score("explain the users table", "The user table explained"),
            Some(0.0)
        );
    }

    #[test]
    fn long_answers_are_judged_on_all_words_not_the_alphabetical_first_ten() {
        let task = "refactor fetch_user to be async";
        let resp = "aardvark abacus abbey abbot abdomen abduct abide ability ablaze aboard \
                    refactor fetch_user async refactor fetch_user async zebra";
        let s = score(task, resp).unwrap();
        assert!((s - 11.0 / 14.0).abs() < 1e-12, "{s}");
    }

    #[test]
    fn cjk_is_compared_by_bigrams() {
        let s = score("请解释异步编程", "异步编程就是不阻塞线程").unwrap();
        assert!(s < 1.0, "shared bigrams must anchor: {s}");
    }

    #[test]
    fn drift_tokens_rank_by_frequency_and_exclude_task_words() {
        let task = KeywordBag::from_text("refactor fetch_user to be async");
        let resp = KeywordBag::from_text(
            "async fetch_user with logging, more logging, metrics and logging",
        );
        let toks = drift_tokens(&task, &resp);
        assert_eq!(toks, ["logging", "metrics"]);
        assert_eq!(task_tokens(&task), ["refactor", "fetch_user", "async"]);
    }
}
