//! The reference design's rules (noos 0.4.1), re-implemented from its
//! behaviour document as the baseline the harness compares against. Not used
//! by reins itself.

/// noos `extract_topics`: lowercase, split on whitespace and `,;:!?.()[]{}/\`,
/// trim non-alphanumerics, drop its stop words, keep ≥ 3 UTF-8 bytes or a
/// tech term, dedupe, sort by code point, keep the first 10.
pub fn noos_keywords(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut words: Vec<String> = lower
        .split(|c: char| c.is_whitespace() || ",;:!?.()[]{}/\\".contains(c))
        .map(|t| t.trim_matches(|c: char| !c.is_alphanumeric()))
        .filter(|t| !t.is_empty() && !NOOS_STOP.contains(t))
        .filter(|t| t.len() >= 3 || NOOS_TECH.contains(t))
        .map(str::to_string)
        .collect();
    words.sort();
    words.dedup();
    words.truncate(10);
    words
}

/// noos scope drift: share of response keywords absent from the task, warning at ≥ 0.5.
pub fn noos_drifts(task: &str, response: &str) -> bool {
    let (t, r) = (noos_keywords(task), noos_keywords(response));
    if t.is_empty() || r.is_empty() {
        return false;
    }
    let unanchored = r.iter().filter(|w| !t.contains(w)).count();
    unanchored as f64 / r.len() as f64 >= 0.5
}

/// spool's frustration phrases, the reference lexicon for pushback.
pub fn spool_pushback(text: &str) -> bool {
    const PHRASES: [&str; 16] = [
        "错了",
        "不对",
        "不行",
        "失败了",
        "又失败",
        "不工作",
        "崩了",
        "出错了",
        "wrong",
        "not working",
        "doesn't work",
        "didn't work",
        "still broken",
        "broke again",
        "still not",
        "not fixed",
    ];
    spool_contains(text, &PHRASES)
}

/// spool's self-tag markers for explicit preferences and decisions.
pub fn spool_preference(text: &str) -> bool {
    const MARKERS: [&str; 17] = [
        "以后都这样",
        "以后都用",
        "以后都",
        "我偏好",
        "我决定",
        "决定用",
        "决定",
        "记下来",
        "记一下",
        "remember this",
        "remember:",
        "from now on",
        "going forward",
        "we decided",
        "i decided",
        "decision:",
        "i prefer",
    ];
    spool_contains(text, &MARKERS)
}

/// spool's matching: ASCII phrases case-insensitively, the others exactly.
fn spool_contains(text: &str, phrases: &[&str]) -> bool {
    let lower = text.to_lowercase();
    phrases.iter().any(|p| {
        if p.is_ascii() {
            lower.contains(p)
        } else {
            text.contains(p)
        }
    })
}

const NOOS_TECH: [&str; 19] = [
    "ai", "ml", "go", "ci", "cd", "k8s", "s3", "ec2", "ui", "ux", "db", "os", "ip", "vm", "io",
    "rx", "dl", "lr", "qa",
];

const NOOS_STOP: [&str; 106] = [
    "about", "above", "add", "after", "again", "ago", "all", "also", "and", "any", "are", "ask",
    "been", "before", "being", "below", "between", "big", "both", "but", "can", "could", "did",
    "does", "during", "each", "end", "far", "few", "for", "from", "further", "get", "got", "had",
    "has", "have", "her", "here", "him", "his", "how", "into", "its", "just", "let", "may", "men",
    "more", "most", "new", "not", "now", "old", "once", "one", "only", "other", "our", "out",
    "over", "own", "per", "put", "ran", "run", "saw", "say", "see", "set", "she", "should", "some",
    "such", "than", "that", "the", "their", "them", "then", "there", "these", "they", "this",
    "those", "through", "too", "try", "two", "under", "use", "very", "was", "way", "were", "what",
    "when", "where", "which", "who", "why", "will", "with", "would", "yet", "you",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_the_behaviour_document() {
        assert_eq!(
            noos_keywords("Refactor fetch_user to be async"),
            ["async", "fetch_user", "refactor"]
        );
        assert!(noos_drifts(
            "refactor this function to be async",
            "add logging and error handling"
        ));
        assert!(
            spool_pushback("没错了"),
            "the known false positive is reproduced"
        );
    }
}
