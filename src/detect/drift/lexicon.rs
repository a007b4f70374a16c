//! A closed list of concepts, each named by terms in several languages, and
//! the search for them in a scanned text. Everyday intents (`intents`) and
//! how-to operations (`operations`) are two such lists.

use std::sync::OnceLock;

use super::scan::{KeyTable, Scanned};
use super::words::WordTable;
use crate::text::is_cjk;

/// Latin and Cyrillic terms as (first three characters, term, whole word
/// only, weak, concept), sorted by the first; and each first three
/// characters' run of entries, as `start << 32 | end`, so a word costs one
/// hash lookup rather than a binary search of string comparisons.
type Table = (
    Vec<(&'static str, &'static str, bool, bool, usize)>,
    KeyTable<u64>,
);

/// Concepts, each a list of terms: word prefixes (Latin and Cyrillic), whole
/// words (`=`), or terms found in the text (CJK, or with a hyphen). A weak
/// term (`~`, before any `=`) names its concept in a request but is too
/// common elsewhere to show that another text is about it.
pub struct Lexicon {
    concepts: &'static [&'static [&'static str]],
    table: OnceLock<Table>,
}

/// Terms looked for in the text rather than word by word: the scanner
/// splits them into several words.
fn is_text_term(term: &str) -> bool {
    term.contains('-')
        || term
            .trim_start_matches('~')
            .chars()
            .next()
            .is_some_and(is_cjk)
}

/// A term without its marks: (body, whole word only, weak).
fn parse(term: &'static str) -> (&'static str, bool, bool) {
    let (term, weak) = term.strip_prefix('~').map_or((term, false), |t| (t, true));
    let (body, whole) = term.strip_prefix('=').map_or((term, false), |t| (t, true));
    (body, whole, weak)
}

/// The first three characters of a word: the table's key.
fn key(word: &str) -> &str {
    let end = word.char_indices().nth(3).map_or(word.len(), |(i, _)| i);
    word.get(..end).unwrap_or(word)
}

impl Lexicon {
    pub const fn new(concepts: &'static [&'static [&'static str]]) -> Self {
        Self {
            concepts,
            table: OnceLock::new(),
        }
    }

    pub fn len(&self) -> usize {
        self.concepts.len()
    }

    fn table(&self) -> &Table {
        self.table.get_or_init(|| {
            let mut t = Vec::new();
            for (i, terms) in self.concepts.iter().enumerate() {
                for term in terms.iter().filter(|t| !is_text_term(t)) {
                    let (body, whole, weak) = parse(term);
                    t.push((key(body), body, whole, weak, i));
                }
            }
            crate::sort::sort(&mut t);
            let mut runs = WordTable::default();
            for (i, e) in t.iter().enumerate() {
                let run = runs.entry(e.0).or_insert((i as u64) << 32);
                *run = (*run & !0xffff_ffff) | (i as u64 + 1);
            }
            // Looked up by the scan's keys of the words' first characters.
            let runs = KeyTable::new(runs.into_iter().collect());
            (t, runs)
        })
    }

    /// Every term of a text, as (concept, the word or term found, weak);
    /// words in code count only when `code` is set. One body for every
    /// caller (`dyn`): a copy per closure cost kilobytes of wasm.
    pub fn found(&self, s: &Scanned, code: bool, f: &mut dyn FnMut(usize, &str, bool)) {
        let (t, runs) = self.table();
        for w in s.words.iter().filter(|w| code || !w.code) {
            let word = s.text_of(w);
            let Some(run) = runs.get(w.key_head3(), |k| k == key(word)) else {
                continue;
            };
            let entries = t
                .get((run >> 32) as usize..(run & 0xffff_ffff) as usize)
                .unwrap_or(&[]);
            for (_, term, whole, weak, i) in entries {
                if (*whole && word == *term) || (!*whole && word.starts_with(term)) {
                    f(*i, word, *weak);
                }
            }
        }
        // Most texts have neither CJK nor a hyphen.
        let cjk = !s.text.is_ascii() && s.text.chars().any(is_cjk);
        let hyphen = s.text.contains('-');
        if !(cjk || hyphen) {
            return;
        }
        for (i, terms) in self.concepts.iter().enumerate() {
            for term in terms.iter().filter(|t| is_text_term(t)) {
                let (body, _, weak) = parse(term);
                let possible = if body.contains('-') { hyphen } else { cjk };
                if !possible {
                    continue;
                }
                for _ in s.text.matches(body) {
                    f(i, body, weak);
                }
            }
        }
    }
}
