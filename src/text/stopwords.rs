//! English function words and request filler that carry no topic, and the
//! short technical terms that do despite being two letters long.

/// Sorted (checked by a test) so the list reads well; lookup goes through a hash table. Apostrophes are ASCII (the tokenizer
/// folds U+2019 to `'`).
use std::sync::OnceLock;

use super::table::{StrTable, key_hash};

const STOP_WORDS: &[&str] = &[
    "a",
    "about",
    "above",
    "actually",
    "add",
    "added",
    "adding",
    "adds",
    "after",
    "again",
    "against",
    "ago",
    "all",
    "already",
    "also",
    "although",
    "always",
    "am",
    "an",
    "and",
    "another",
    "any",
    "anything",
    "are",
    "aren't",
    "around",
    "as",
    "ask",
    "at",
    "away",
    "back",
    "be",
    "because",
    "been",
    "before",
    "being",
    "below",
    "best",
    "better",
    "between",
    "big",
    "both",
    "but",
    "by",
    "can",
    "can't",
    "cannot",
    "could",
    "couldn't",
    "did",
    "didn't",
    "do",
    "does",
    "doesn't",
    "doing",
    "don't",
    "done",
    "down",
    "during",
    "each",
    "either",
    "else",
    "end",
    "enough",
    "etc",
    "even",
    "ever",
    "every",
    "everything",
    "far",
    "few",
    "first",
    "for",
    "from",
    "further",
    "get",
    "gets",
    "getting",
    "give",
    "given",
    "going",
    "good",
    "got",
    "great",
    "had",
    "hadn't",
    "has",
    "hasn't",
    "have",
    "haven't",
    "having",
    "he",
    "he's",
    "hello",
    "help",
    "her",
    "here",
    "here's",
    "hers",
    "herself",
    "hey",
    "hi",
    "him",
    "himself",
    "his",
    "hope",
    "how",
    "however",
    "i",
    "i'd",
    "i'll",
    "i'm",
    "i've",
    "if",
    "in",
    "instead",
    "into",
    "is",
    "isn't",
    "it",
    "it'll",
    "it's",
    "its",
    "itself",
    "just",
    "keep",
    "know",
    "last",
    "least",
    "less",
    "let",
    "let's",
    "like",
    "look",
    "made",
    "make",
    "makes",
    "making",
    "many",
    "may",
    "maybe",
    "me",
    "men",
    "might",
    "mine",
    "more",
    "most",
    "much",
    "must",
    "my",
    "myself",
    "need",
    "needs",
    "never",
    "new",
    "next",
    "no",
    "nor",
    "not",
    "note",
    "now",
    "of",
    "off",
    "often",
    "ok",
    "okay",
    "old",
    "on",
    "once",
    "one",
    "only",
    "or",
    "other",
    "others",
    "our",
    "ours",
    "ourselves",
    "out",
    "over",
    "own",
    "per",
    "perhaps",
    "please",
    "plus",
    "put",
    "quite",
    "ran",
    "rather",
    "really",
    "right",
    "run",
    "said",
    "same",
    "saw",
    "say",
    "see",
    "seem",
    "set",
    "shall",
    "she",
    "she's",
    "should",
    "shouldn't",
    "show",
    "since",
    "so",
    "some",
    "something",
    "still",
    "such",
    "sure",
    "take",
    "than",
    "thank",
    "thanks",
    "that",
    "that's",
    "the",
    "their",
    "theirs",
    "them",
    "themselves",
    "then",
    "there",
    "there's",
    "these",
    "they",
    "they'll",
    "they're",
    "thing",
    "things",
    "this",
    "those",
    "though",
    "through",
    "thus",
    "to",
    "too",
    "try",
    "two",
    "under",
    "until",
    "up",
    "upon",
    "us",
    "use",
    "used",
    "using",
    "very",
    "via",
    "want",
    "wants",
    "was",
    "wasn't",
    "way",
    "we",
    "we'll",
    "we're",
    "we've",
    "well",
    "were",
    "weren't",
    "what",
    "what's",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "within",
    "without",
    "won't",
    "would",
    "wouldn't",
    "yes",
    "yet",
    "you",
    "you'd",
    "you'll",
    "you're",
    "you've",
    "your",
    "yours",
    "yourself",
    "yourselves",
];

/// Two-letter terms that name a technology and so carry topic.
const TECH_TERMS: &[&str] = &[
    "ai", "cd", "ci", "db", "dl", "go", "io", "ip", "js", "ml", "os", "py", "qa", "rx", "s3", "ts",
    "ui", "ux", "vm",
];

/// A hash table over the stop list, built once: lookup is one probe and one
/// compare, where a binary search over strings cost a dozen `memcmp` calls.
fn stop_table() -> &'static StrTable {
    static TABLE: OnceLock<StrTable> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = StrTable::with_capacity(STOP_WORDS.len());
        for (i, w) in (0u32..).zip(STOP_WORDS) {
            t.insert(key_hash(w), i);
        }
        t
    })
}

pub fn is_stop_word(word: &str) -> bool {
    is_stop_word_hashed(word, key_hash(word))
}

/// `is_stop_word` for a caller that already has the word's `key_hash`.
pub fn is_stop_word_hashed(word: &str, h: u32) -> bool {
    stop_table()
        .find(h, word, |i| {
            STOP_WORDS.get(i as usize).copied().unwrap_or("")
        })
        .is_some()
}

/// Every tech term is two ASCII bytes, so this compares two bytes, not strings.
pub fn is_tech_term(word: &str) -> bool {
    let &[a, b] = word.as_bytes() else {
        return false;
    };
    TECH_TERMS
        .iter()
        .any(|t| matches!(t.as_bytes(), &[x, y] if x == a && y == b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_are_sorted_so_binary_search_works() {
        assert!(
            STOP_WORDS.windows(2).all(|w| w[0] < w[1]),
            "STOP_WORDS not sorted"
        );
        assert!(
            TECH_TERMS.windows(2).all(|w| w[0] < w[1]),
            "TECH_TERMS not sorted"
        );
        assert!(
            TECH_TERMS.iter().all(|t| t.len() == 2),
            "is_tech_term compares two bytes"
        );
    }

    #[test]
    fn lookups() {
        assert!(is_stop_word("the") && is_stop_word("don't") && is_stop_word("please"));
        assert!(!is_stop_word("logging") && !is_stop_word("async"));
        assert!(is_tech_term("db") && is_tech_term("ui") && !is_tech_term("ok"));
    }
}
