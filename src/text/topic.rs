//! The topic key that correction records are filed under.
//!
//! Reference behaviour: the two alphabetically smallest keywords of the
//! user's message, joined with `+`, so "issue 999" made the number half the
//! topic and rewording changed the key. Here the key is the two most salient
//! stems: request verbs ("make", "refactor", "change") and names of code
//! structure ("function", "module") never count, numbers and two-letter terms
//! never count, repeated and longer (more specific) stems rank first; the two
//! chosen are then sorted so the key does not depend on word order.

use super::keywords::KeywordBag;

/// Parts in a key.
const KEY_PARTS: usize = 2;

/// Stems that say what to do or where, not what about.
const NOT_TOPICS: &[&str] = &[
    "add",
    "appli",
    "ask",
    "build",
    "chang",
    "check",
    "convert",
    "creat",
    "current",
    "debug",
    "delet",
    "explain",
    "find",
    "fix",
    "get",
    "give",
    "handl",
    "help",
    "implement",
    "improv",
    "make",
    "modifi",
    "move",
    "need",
    "pleas",
    "refactor",
    "remov",
    "renam",
    "rewrit",
    "set",
    "show",
    "support",
    "tell",
    "turn",
    "updat",
    "use",
    "want",
    "write",
    "class",
    "code",
    "compon",
    "file",
    "function",
    "method",
    "modul",
    "page",
    "part",
    "program",
    "project",
    "script",
    "servic",
    "snippet",
    "system",
    "thing",
    "way",
];

/// The topic key of a message's keyword bag; empty when it has no topic.
pub fn topic_key(task: &KeywordBag) -> String {
    let mut cands: Vec<(&str, u32)> = task
        .iter()
        .filter(|(stem, _, _)| stem.chars().count() >= 3 || stem.chars().all(super::is_cjk))
        .filter(|(stem, _, _)| !NOT_TOPICS.contains(stem))
        .map(|(stem, _, count)| (stem, count))
        .collect();
    // Salience: repeated first, then longer (more specific), then text order
    // (the sort is stable) for a deterministic choice.
    crate::sort::sort_by(&mut cands, |a, b| {
        b.1.cmp(&a.1)
            .then_with(|| b.0.chars().count().cmp(&a.0.chars().count()))
    });
    let mut parts: Vec<&str> = cands.iter().take(KEY_PARTS).map(|(s, _)| *s).collect();
    crate::sort::sort(&mut parts);
    parts.join("+")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> String {
        topic_key(&KeywordBag::from_text(text))
    }

    #[test]
    fn rephrasings_from_the_reference_demo_share_a_key() {
        let k = key("Make my auth module async");
        assert_eq!(k, "async+auth");
        assert_eq!(key("Refactor auth to support async"), k);
        assert_eq!(key("Change my auth function to async"), k);
        assert_eq!(key("Add async handling to my auth"), k);
    }

    #[test]
    fn numbers_and_short_terms_do_not_hijack_the_key() {
        assert_eq!(key("Help me debug issue 999"), key("Help me debug issue 0"));
        assert_eq!(key("ai cd ci db dl go io ip ml zebra yak"), "yak+zebra");
        assert_eq!(key("a+b c+d"), "");
        assert_eq!(key("is it ok?"), "");
    }

    #[test]
    fn salient_stems_beat_the_alphabetically_first() {
        assert_eq!(
            key("Help me debug issue 999 in the payment webhook"),
            "payment+webhook"
        );
        assert_eq!(key("Refactor this function to be async"), "async");
        assert_eq!(
            key("async auth"),
            key("auth async"),
            "word order does not matter"
        );
        assert_eq!(
            key("logging logging zebra aardvark"),
            "aardvark+log",
            "repeated words rank first"
        );
    }

    #[test]
    fn inflections_and_single_topics() {
        assert_eq!(key("refactoring the parser"), key("refactored parsers"));
        assert_eq!(key("databases"), "databas");
        assert_eq!(key("异步编程"), "异步+步编");
    }
}
