//! The topic key that correction records are filed under.
//!
//! Reference behaviour: the two smallest keywords of the user's message, joined
//! with `+`. Improved here: keywords are stems (so inflections agree), numbers
//! never take part (an issue number is not a topic), two-letter terms do not
//! crowd out real words, and `+` cannot occur inside a part.

use super::keywords::KeywordBag;

/// Parts in a key.
const KEY_PARTS: usize = 2;

/// The topic key of a message's keyword bag; empty when it has no topic.
pub fn topic_key(task: &KeywordBag) -> String {
    let mut best: [Option<&str>; KEY_PARTS] = [None; KEY_PARTS];
    for (stem, _, _) in task.iter() {
        if stem.chars().count() < 3 && !stem.chars().all(super::is_cjk) {
            continue;
        }
        let mut cand = stem;
        for slot in best.iter_mut() {
            match slot {
                None => {
                    *slot = Some(cand);
                    break;
                }
                Some(cur) if cand < *cur => {
                    let prev = *cur;
                    *slot = Some(cand);
                    cand = prev;
                }
                Some(_) => {}
            }
        }
    }
    let parts: Vec<&str> = best.iter().flatten().copied().collect();
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
    fn inflections_and_single_topics() {
        assert_eq!(key("refactoring the parser"), key("refactored parsers"));
        assert_eq!(key("databases"), "databas");
        assert_eq!(key("异步编程"), "异步+步编");
    }
}
