//! A closed list of concepts, each named by terms in several languages, and
//! the search for them in a scanned text. Everyday intents (`intents`) and
//! how-to operations (`operations`) are two such lists.

use std::sync::OnceLock;

use super::scan::Scanned;
use crate::text::is_cjk;

/// Latin and Cyrillic terms as (first three characters, term, whole word
/// only, weak, concept), sorted by the first.
type Table = Vec<(&'static str, &'static str, bool, bool, usize)>;

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
            let mut t: Table = Vec::new();
            for (i, terms) in self.concepts.iter().enumerate() {
                for term in terms.iter().filter(|t| !is_text_term(t)) {
                    let (body, whole, weak) = parse(term);
                    t.push((key(body), body, whole, weak, i));
                }
            }
            crate::sort::sort(&mut t);
            t
        })
    }

    /// Every term of a text, as (concept, the word or term found, weak);
    /// words in code count only when `code` is set.
    pub fn found(&self, s: &Scanned, code: bool, mut f: impl FnMut(usize, &str, bool)) {
        let t = self.table();
        for w in s.words.iter().filter(|w| code || !w.code) {
            let word = s.text_of(w);
            let k = key(word);
            let from = t.partition_point(|e| e.0 < k);
            for (_, term, whole, weak, i) in t[from..].iter().take_while(|e| e.0 == k) {
                if (*whole && word == *term) || (!*whole && word.starts_with(term)) {
                    f(*i, word, *weak);
                }
            }
        }
        // Most texts have neither CJK nor a hyphen.
        let (cjk, hyphen) = (s.text.chars().any(is_cjk), s.text.contains('-'));
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
