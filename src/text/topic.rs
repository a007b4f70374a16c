//! The topic key that correction records are filed under.
//!
//! Reference behaviour: the two alphabetically smallest keywords of the
//! user's message, joined with `+`, so "issue 999" made the number half the
//! topic and rewording changed the key. Here the key is the two most salient
//! stems: request verbs ("make", "refactor", "change") and names of code
//! structure ("function", "module") never count, numbers and two-letter terms
//! never count, repeated and longer (more specific) stems rank first; the two
//! chosen are then sorted so the key does not depend on word order.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::keywords::KeywordBag;
use super::table::{StrTable, key_hash};
use crate::hash::FastBuild;

/// Parts in a key.
const KEY_PARTS: usize = 2;

/// Stems that say what to do or where, not what about.
pub(crate) const NOT_TOPICS: &[&str] = &[
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
    let mut parts = salient(task, KEY_PARTS);
    crate::sort::sort(&mut parts);
    parts.join("+")
}

/// `NOT_TOPICS.contains(stem)`, by one table probe instead of a scan.
fn is_not_topic(stem: &str) -> bool {
    static TABLE: OnceLock<StrTable> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = StrTable::with_capacity(NOT_TOPICS.len());
        for (i, w) in (0u32..).zip(NOT_TOPICS) {
            t.insert(key_hash(w), i);
        }
        t
    });
    let word = |i: u32| NOT_TOPICS.get(i as usize).copied().unwrap_or("");
    table.find(key_hash(stem), stem, word).is_some()
}

/// The `n` most salient topic stems of a bag, most salient first.
pub fn salient(task: &KeywordBag, n: usize) -> Vec<&str> {
    let mut cands: Vec<(&str, u32)> = task
        .iter()
        .filter(|(stem, _, _)| stem.chars().count() >= 3 || stem.chars().all(super::is_cjk))
        .filter(|(stem, _, _)| !is_not_topic(stem))
        .map(|(stem, _, count)| (stem, count))
        .collect();
    // Salience: repeated first, then longer (more specific), then text order
    // (the sort is stable) for a deterministic choice.
    crate::sort::sort_by(&mut cands, |a, b| {
        b.1.cmp(&a.1)
            .then_with(|| b.0.chars().count().cmp(&a.0.chars().count()))
    });
    cands.iter().take(n).map(|(s, _)| *s).collect()
}

/// Whether a key part names one specific thing, enough to carry a topic
/// alone: `fetch_user`, `auth.py`, `v2`, `s3`.
fn is_identifier(part: &str) -> bool {
    let digit = part.bytes().any(|b| b.is_ascii_digit());
    let letter = part.chars().any(char::is_alphabetic);
    part.contains(['_', '.']) || (digit && letter)
}

/// Stems a request must hold among its most salient to land on a known
/// topic (beyond its key's two).
const SALIENT_FOR_MATCH: usize = 4;
/// Keys kept in the index; past this it is rebuilt from the live keys.
const MAX_INDEXED: usize = 4096;

/// Known topic keys by their parts, to land a request on the topic it is
/// about rather than on the exact key its words make: "Refactor auth to
/// async" and "make my auth module async" share `async+auth`, and "rewrite
/// fetch_user with aiohttp" lands on `async+fetch_user` by its identifier.
/// Derived from the stored keys, never persisted.
#[derive(Debug, Clone, Default)]
pub struct TopicIndex {
    by_part: HashMap<String, Vec<String>, FastBuild>,
    keys: usize,
}

impl TopicIndex {
    /// An index of `keys`.
    pub fn of<'a>(keys: impl IntoIterator<Item = &'a str>) -> Self {
        let mut index = TopicIndex::default();
        for k in keys {
            index.insert(k);
        }
        index
    }

    /// Adds a key (once).
    pub fn insert(&mut self, key: &str) {
        if key.is_empty() {
            return;
        }
        for part in key.split('+') {
            let list = self.by_part.entry(part.to_string()).or_default();
            if list.iter().any(|k| k == key) {
                return;
            }
            list.push(key.to_string());
        }
        self.keys += 1;
    }

    /// Whether the index has outgrown its bound and should be rebuilt.
    pub fn is_full(&self) -> bool {
        self.keys > MAX_INDEXED
    }

    /// The known topic `task` is about, if any: a key all of whose parts the
    /// request holds, one of them among its most salient stems; or a key
    /// with an identifier part the request names. `live` says whether a key
    /// is still stored and how recent it is (larger is newer). Best: more
    /// parts held, then an identifier, then the newest, then key order.
    pub fn find(&self, task: &KeywordBag, live: impl Fn(&str) -> Option<u64>) -> Option<String> {
        let top = salient(task, SALIENT_FOR_MATCH);
        let mut best: Option<((usize, bool, u64), &str)> = None;
        for (stem, _, _) in task.iter() {
            let Some(keys) = self.by_part.get(stem) else {
                continue;
            };
            crate::work::add(keys.len());
            for key in keys.iter().take(64) {
                let Some(recent) = live(key) else { continue };
                let parts = key.split('+');
                let (mut held, mut all, mut named, mut prominent) = (0, true, false, false);
                for p in parts {
                    if task.contains_stem(p) {
                        held += 1;
                        named |= is_identifier(p);
                        prominent |= top.contains(&p);
                    } else {
                        all = false;
                    }
                }
                if !(all && prominent || named) {
                    continue;
                }
                let score = (held, named, recent);
                let better = best.is_none_or(|(b, k)| score > b || score == b && key.as_str() < k);
                if better {
                    best = Some((score, key));
                }
            }
        }
        best.map(|(_, k)| k.to_string())
    }
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
    fn a_request_lands_on_the_known_topic_it_is_about() {
        let known = [
            key("Make my auth module async"),
            key("fetch_user should use async def"),
            key("Add zod to the project"),
        ];
        let index = TopicIndex::of(known.iter().map(String::as_str));
        let find = |text: &str| index.find(&KeywordBag::from_text(text), |_| Some(0));
        assert_eq!(
            find("Could you refactor the auth code to be async?"),
            Some(key("auth async"))
        );
        assert_eq!(
            find("rewrite fetch_user with aiohttp"),
            Some(known[1].clone())
        );
        assert_eq!(
            find("add zod schemas for the signup form"),
            Some("zod".into())
        );
        // Sharing a word that is not what the request is about is not enough.
        assert_eq!(
            find("Write the release notes for the async runtime upgrade"),
            None
        );
        assert_eq!(find("What is the capital of France?"), None);
        // A key no longer stored is not a topic.
        assert_eq!(
            index.find(&KeywordBag::from_text("zod schemas"), |_| None),
            None
        );
    }

    #[test]
    fn inflections_and_single_topics() {
        assert_eq!(key("refactoring the parser"), key("refactored parsers"));
        assert_eq!(key("databases"), "databas");
        assert_eq!(key("异步编程"), "异步+步编");
    }
}
