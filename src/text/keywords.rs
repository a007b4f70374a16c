//! A keyword bag: the distinct content words of a text, keyed by stem, with
//! the first surface form seen and an occurrence count. Bounded in entries
//! and in bytes, and immutable once built.

use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::json::typed::{self, Bad, FromJson, Got};

use super::stem_en::stem_into;
use super::stopwords::{is_stop_word_hashed, is_tech_term};
use super::table::{StrTable, key_hash};
use super::tokenize::{Token, TokenKind, for_each_token};

/// Distinct keywords kept per bag; later new words are not added.
pub const MAX_KEYWORDS: usize = 256;
/// Longer tokens are blobs (hashes, base64, URLs), not words.
pub const MAX_KEYWORD_BYTES: usize = 48;
/// Surface forms remembered for the stem cache.
const MAX_SURFACES: usize = 2 * MAX_KEYWORDS;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Span {
    start: u32,
    len: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Entry {
    stem: Span,
    surface: Span,
    count: u32,
}

/// Scratch buffers reused across bags so building one does not allocate per word.
#[derive(Debug, Clone, Default)]
pub struct Scratch {
    token: String,
    stem: String,
}

#[derive(Debug, Clone, Default)]
pub struct KeywordBag {
    arena: String,
    entries: Vec<Entry>,
    by_stem: StrTable,
    /// Surface form → entry index, so each distinct word is stemmed once;
    /// with whether it was stemmed as English (`stems_known` reuses it).
    surfaces: Vec<(Span, u32, bool)>,
    by_surface: StrTable,
}

fn slice(arena: &str, s: Span) -> &str {
    arena
        .get(s.start as usize..(s.start + s.len) as usize)
        .unwrap_or("")
}

fn push(arena: &mut String, s: &str) -> Span {
    let start = arena.len() as u32;
    arena.push_str(s);
    Span {
        start,
        len: s.len() as u32,
    }
}

/// Marks a surface form in the cache as "not a keyword" (a stop word).
const REJECTED: u32 = u32::MAX;

/// Whether a token can be a keyword, and if so whether the English stemmer
/// applies to it. Numbers never are; short words only when tech terms.
fn candidate(t: &Token<'_>) -> Option<bool> {
    match t.kind {
        TokenKind::Number => None,
        TokenKind::Cjk => Some(false),
        TokenKind::Word => {
            let short = if t.ascii_alpha {
                t.text.len() < 3
            } else {
                t.text.chars().nth(2).is_none()
            };
            (t.text.len() <= MAX_KEYWORD_BYTES && (!short || is_tech_term(t.text)))
                .then_some(t.ascii_alpha)
        }
    }
}

/// A candidate's stem (`surface` hashed to `hs`), or "" for a stop word.
fn keyword_stem<'a>(surface: &'a str, hs: u32, stemmable: bool, buf: &'a mut String) -> &'a str {
    keyword_stem_hashed(surface, hs, stemmable, buf).0
}

/// `keyword_stem` with the stem's `key_hash` (meaningless for ""): the
/// stop-word check after stemming hashes it anyway.
fn keyword_stem_hashed<'a>(
    surface: &'a str,
    hs: u32,
    stemmable: bool,
    buf: &'a mut String,
) -> (&'a str, u32) {
    if is_stop_word_hashed(surface, hs) {
        ("", 0)
    } else if stemmable {
        stem_into(surface, buf);
        if buf.len() < 2 {
            return ("", 0);
        }
        let h = if buf.as_str() == surface {
            hs
        } else {
            key_hash(buf)
        };
        if is_stop_word_hashed(buf, h) {
            ("", 0)
        } else {
            (buf, h)
        }
    } else {
        (surface, hs)
    }
}

impl KeywordBag {
    /// Extracts the keywords of `text`.
    pub fn from_text(text: &str) -> Self {
        Self::from_text_with(text, &mut Scratch::default())
    }

    /// Same as `from_text`, reusing caller-owned scratch buffers.
    pub fn from_text_with(text: &str, scratch: &mut Scratch) -> Self {
        // Roughly one distinct keyword per 12 bytes of prose; sizing up front
        // avoids regrowing the tables and arena.
        let guess = (text.len() / 12).clamp(4, MAX_KEYWORDS);
        let mut bag = KeywordBag {
            arena: String::with_capacity((guess * 16).min(text.len() * 2 + 16)),
            entries: Vec::with_capacity(guess),
            by_stem: StrTable::with_capacity(guess),
            surfaces: Vec::with_capacity(guess * 2),
            by_surface: StrTable::with_capacity(guess * 2),
        };
        let Scratch { token, stem } = scratch;
        for_each_token(text, token, |t| {
            if let Some(stemmable) = candidate(&t) {
                bag.add(t.text, stemmable, stem);
            }
        });
        bag
    }

    /// The stems of `text` in order of first appearance, as a bag of it
    /// would list them, without building the bag: callers ask this of
    /// clauses, where the bag's tables and surface cache cost more than the
    /// stemming.
    pub fn stems(text: &str) -> Vec<String> {
        Self::stems_from(text, None)
    }

    /// `stems(text)`, taking the stems of words `known` met while it was
    /// built from its cache instead of stemming them again (callers pass
    /// the bag of the text `text` is part of).
    pub fn stems_known(text: &str, known: &KeywordBag) -> Vec<String> {
        Self::stems_from(text, Some(known))
    }

    fn stems_from(text: &str, known: Option<&KeywordBag>) -> Vec<String> {
        let (mut token, mut buf) = (String::new(), String::new());
        let mut out: Vec<String> = Vec::new();
        let mut seen = StrTable::with_capacity(8);
        for_each_token(text, &mut token, |t| {
            let Some(stemmable) = candidate(&t) else {
                return;
            };
            let hs = key_hash(t.text);
            let (stem, h) = match known.and_then(|k| k.cached_stem(t.text, hs, stemmable)) {
                Some(stem) => (stem, key_hash(stem)),
                None => keyword_stem_hashed(t.text, hs, stemmable, &mut buf),
            };
            if stem.is_empty() {
                return;
            }
            let dup = seen.find(h, stem, |i| out.get(i as usize).map_or("", String::as_str));
            if dup.is_none() && out.len() < MAX_KEYWORDS {
                seen.insert(h, out.len() as u32);
                out.push(stem.to_string());
            }
        });
        out
    }

    /// The stem of the first keyword of `text`, as a bag of it would list
    /// first, without building the bag (callers ask this of single words).
    pub fn first_stem(text: &str) -> Option<String> {
        let (mut token, mut buf) = (String::new(), String::new());
        let mut first = None;
        for_each_token(text, &mut token, |t| {
            if first.is_some() {
                return;
            }
            if let Some(stemmable) = candidate(&t) {
                let stem = keyword_stem(t.text, key_hash(t.text), stemmable, &mut buf);
                if !stem.is_empty() {
                    first = Some(stem.to_string());
                }
            }
        });
        first
    }

    fn add(&mut self, surface: &str, stemmable: bool, stem_buf: &mut String) {
        let (arena, surfaces) = (&self.arena, &self.surfaces);
        let by_index = |i: u32| {
            surfaces
                .get(i as usize)
                .map_or("", |&(s, _, _)| slice(arena, s))
        };
        let hs = key_hash(surface);
        if let Some(si) = self.by_surface.find(hs, surface, by_index) {
            if let Some(&(_, ei, _)) = self.surfaces.get(si as usize) {
                self.bump(ei);
            }
            return;
        }
        let (stem, ht) = keyword_stem_hashed(surface, hs, stemmable, stem_buf);
        let cache = self.surfaces.len() < MAX_SURFACES;
        if stem.is_empty() {
            if cache {
                let span = push(&mut self.arena, surface);
                self.remember(span, hs, REJECTED, stemmable);
            }
            return;
        }
        let (arena, entries) = (&self.arena, &self.entries);
        let entry_stem = |i: u32| entries.get(i as usize).map_or("", |e| slice(arena, e.stem));
        let found = self.by_stem.find(ht, stem, entry_stem);
        if found.is_none() && self.entries.len() >= MAX_KEYWORDS {
            return;
        }
        // Each new surface is copied once; a stem that is a prefix of it
        // (the usual case: `logging` → `log`) shares its bytes.
        let surface_span = if cache || found.is_none() {
            Some(push(&mut self.arena, surface))
        } else {
            None
        };
        let ei = match (found, surface_span) {
            (Some(ei), _) => {
                self.bump(ei);
                ei
            }
            (None, Some(span)) => {
                let stem_span = if surface.starts_with(stem) {
                    Span {
                        start: span.start,
                        len: stem.len() as u32,
                    }
                } else {
                    push(&mut self.arena, stem)
                };
                let ei = self.entries.len() as u32;
                self.entries.push(Entry {
                    stem: stem_span,
                    surface: span,
                    count: 1,
                });
                self.by_stem.insert(ht, ei);
                ei
            }
            (None, None) => return,
        };
        if let Some(span) = surface_span.filter(|_| cache) {
            self.remember(span, hs, ei, stemmable);
        }
    }

    /// Caches what a surface form maps to, so it is stemmed and stop-checked once.
    fn remember(&mut self, span: Span, hs: u32, ei: u32, stemmable: bool) {
        let si = self.surfaces.len() as u32;
        self.surfaces.push((span, ei, stemmable));
        self.by_surface.insert(hs, si);
    }

    /// What `keyword_stem(surface, hs, stemmable, _)` gives, when this bag
    /// cached it while being built: `Some("")` for a stop word, `None`
    /// when not cached (or cached for the other `stemmable`).
    fn cached_stem(&self, surface: &str, hs: u32, stemmable: bool) -> Option<&str> {
        let (arena, surfaces) = (&self.arena, &self.surfaces);
        let by_index = |i: u32| {
            surfaces
                .get(i as usize)
                .map_or("", |&(s, _, _)| slice(arena, s))
        };
        let si = self.by_surface.find(hs, surface, by_index)?;
        let &(_, ei, was) = surfaces.get(si as usize)?;
        if was != stemmable {
            return None;
        }
        if ei == REJECTED {
            return Some("");
        }
        self.entries.get(ei as usize).map(|e| slice(arena, e.stem))
    }

    fn bump(&mut self, ei: u32) {
        if ei == REJECTED {
            return;
        }
        if let Some(e) = self.entries.get_mut(ei as usize) {
            e.count = e.count.saturating_add(1);
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn contains_stem(&self, stem: &str) -> bool {
        self.contains_stem_hashed(stem, key_hash(stem))
    }

    /// `contains_stem` for a caller that asks several bags: `h` is the
    /// stem's `text::table::key_hash`, computed once.
    pub fn contains_stem_hashed(&self, stem: &str, h: u32) -> bool {
        let (arena, entries) = (&self.arena, &self.entries);
        self.by_stem
            .find(h, stem, |i| {
                entries.get(i as usize).map_or("", |e| slice(arena, e.stem))
            })
            .is_some()
    }

    /// `(stem, first surface form, count)` in order of first appearance.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str, u32)> + '_ {
        self.entries.iter().map(|e| {
            (
                slice(&self.arena, e.stem),
                slice(&self.arena, e.surface),
                e.count,
            )
        })
    }

    /// Rebuilds a bag from its entries (used when restoring a snapshot).
    fn from_entries(items: &[(&str, &str, u32)]) -> Result<Self, String> {
        if items.len() > MAX_KEYWORDS {
            return Err(format!(
                "has {} keywords; the limit is {MAX_KEYWORDS}",
                items.len()
            ));
        }
        let mut bag = KeywordBag::default();
        for (stem, surface, count) in items {
            if stem.is_empty()
                || stem.len() > MAX_KEYWORD_BYTES
                || surface.len() > MAX_KEYWORD_BYTES
            {
                return Err(format!(
                    "keyword {stem:?} is empty or longer than {MAX_KEYWORD_BYTES} bytes"
                ));
            }
            if *count == 0 {
                return Err(format!("keyword {stem:?} has count 0"));
            }
            if bag.contains_stem(stem) {
                return Err(format!("keyword {stem:?} appears twice"));
            }
            let s = push(&mut bag.arena, stem);
            let f = push(&mut bag.arena, surface);
            let ei = bag.entries.len() as u32;
            bag.entries.push(Entry {
                stem: s,
                surface: f,
                count: *count,
            });
            bag.by_stem.insert(key_hash(stem), ei);
        }
        Ok(bag)
    }
}

impl PartialEq for KeywordBag {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl Serialize for KeywordBag {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.iter())
    }
}

impl FromJson for KeywordBag {
    fn from_json(v: &Value) -> Got<KeywordBag> {
        fn entry(e: &Value) -> Got<(&str, &str, u32)> {
            let bad = || Bad::new("must be [stem, word, count]");
            let Some([s, f, n]) = e.as_array().map(Vec::as_slice) else {
                return Err(bad());
            };
            let n = n.as_u64().and_then(|n| u32::try_from(n).ok());
            match (s.as_str(), f.as_str(), n) {
                (Some(s), Some(f), Some(n)) => Ok((s, f, n)),
                _ => Err(bad()),
            }
        }
        let items: Vec<(&str, &str, u32)> = typed::items(v, entry)?;
        KeywordBag::from_entries(&items).map_err(Bad::new)
    }
}

#[cfg(test)]
impl<'de> serde::Deserialize<'de> for KeywordBag {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let items = Vec::<(String, String, u32)>::deserialize(d)?;
        let items: Vec<_> = items
            .iter()
            .map(|(s, f, n)| (s.as_str(), f.as_str(), *n))
            .collect();
        KeywordBag::from_entries(&items).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stems_are_what_the_bag_lists() {
        // Past the keyword cap too: 300 distinct words, each twice.
        let many: String = (0..600).map(|i| format!("word{}x ", i % 300)).collect();
        for text in [
            "Don't add logging; the logger logs LOGS twice, logging again.",
            "keep the database lookup unchanged, thanks",
            "用户登录失败后重试三次 retry 重试",
            "Ihre Lieferung ändert sich: die Lieferungen kommen später.",
            "",
            many.as_str(),
        ] {
            let bag: Vec<String> = KeywordBag::from_text(text)
                .iter()
                .map(|(st, _, _)| st.to_string())
                .collect();
            assert_eq!(KeywordBag::stems(text), bag, "{text}");
        }
        assert_eq!(KeywordBag::stems(&many).len(), MAX_KEYWORDS);
    }

    #[test]
    fn stems_known_are_the_stems() {
        // U+212A (Kelvin) lowercases to an ASCII k without being stemmable:
        // the cache must not answer for the plain word.
        let whole = "Don't add logging; the logger logs LOGS twice. \u{212A}elvins \
                     kelvins café CAFÉS 3.14 v2 数据库连接 fetch_user the of";
        let bag = KeywordBag::from_text(whole);
        for text in [
            whole,
            "logging again",
            "the logger",
            "KELVINS kelvins \u{212A}elvins",
            "",
            "unseen words here",
        ] {
            assert_eq!(
                KeywordBag::stems_known(text, &bag),
                KeywordBag::stems(text),
                "{text}"
            );
            assert_eq!(
                KeywordBag::stems_known(text, &KeywordBag::default()),
                KeywordBag::stems(text)
            );
        }
    }

    #[test]
    fn first_stem_is_what_the_bag_lists_first() {
        for text in [
            "logging",
            "The retries",
            "a b DB",
            "  42 is Refactoring",
            "don't",
            "the of and",
            "",
            "数据库连接",
            "Überprüfung der Daten",
            "fetch_many(ids)",
            "`UTC_TIMESTAMP()`",
            "ui",
        ] {
            let bag = KeywordBag::from_text(text);
            assert_eq!(
                KeywordBag::first_stem(text).as_deref(),
                bag.iter().next().map(|(s, _, _)| s),
                "{text:?}"
            );
        }
        assert_eq!(KeywordBag::first_stem("Logging").as_deref(), Some("log"));
        assert_eq!(KeywordBag::first_stem("the of"), None);
    }

    fn stems(text: &str) -> Vec<String> {
        KeywordBag::from_text(text)
            .iter()
            .map(|(s, _, _)| s.to_string())
            .collect()
    }

    #[test]
    fn stop_words_numbers_and_short_words_are_dropped() {
        assert_eq!(
            stems("Refactor fetch_user to be async"),
            ["refactor", "fetch_user", "async"]
        );
        assert_eq!(stems("is it ok? 42 3.14 ab"), Vec::<String>::new());
        assert_eq!(
            stems("use AI and ML on k8s with S3 in Go"),
            ["ai", "ml", "k8s", "s3", "go"]
        );
    }

    #[test]
    fn inflections_share_one_entry_with_the_first_surface() {
        let bag = KeywordBag::from_text("refactor refactored refactoring Refactors");
        let items: Vec<_> = bag.iter().collect();
        assert_eq!(items, [("refactor", "refactor", 4)]);
        assert!(bag.contains_stem("refactor"));
        assert!(!bag.contains_stem("refactored"));
    }

    #[test]
    fn cjk_text_yields_bigram_keywords() {
        let bag = KeywordBag::from_text("请解释异步编程");
        assert!(bag.contains_stem("异步") && bag.contains_stem("编程"));
        assert_eq!(bag.len(), 6, "7 characters, 6 bigrams");
    }

    #[test]
    fn bag_is_bounded() {
        let text: String = (0..2000).map(|i| format!("word{i}x ")).collect();
        let bag = KeywordBag::from_text(&text);
        assert_eq!(bag.len(), MAX_KEYWORDS);
        let long = "a".repeat(MAX_KEYWORD_BYTES + 1);
        assert!(KeywordBag::from_text(&long).is_empty());
    }

    #[test]
    fn serde_round_trip_and_validation() {
        let bag = KeywordBag::from_text("Logging telemetry logging metrics");
        let json = serde_json::to_string(&bag).unwrap();
        assert_eq!(
            json,
            r#"[["log","logging",2],["telemetri","telemetry",1],["metric","metrics",1]]"#
        );
        let back: KeywordBag = serde_json::from_str(&json).unwrap();
        assert_eq!(back, bag);
        assert!(back.contains_stem("metric"));
        assert!(serde_json::from_str::<KeywordBag>(r#"[["a","a",1],["a","b",1]]"#).is_err());
        assert!(serde_json::from_str::<KeywordBag>(r#"[["a","a",0]]"#).is_err());
    }
}
