//! One pass over a text for every cue list: the text is lowercased once and
//! cut into words (CJK characters count as one word each), each word knowing
//! its clause, sentence, and whether it is code, quoted or in capitals; the
//! cues of all lists are looked up by their first word in one index, so a
//! text costs a bit test per word, not a substring search per cue.

use std::sync::OnceLock;

use crate::text::is_cjk;

/// A word of the lowercased text, by byte range, with where it sits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Word {
    pub start: u32,
    pub end: u32,
    pub clause: u32,
    pub sentence: u32,
    /// Inside a fenced code block or inline code.
    pub code: bool,
    /// Inside quotation marks: material to work on, not instructions.
    pub quoted: bool,
    /// Written in capitals ("EST", "DEN"): an acronym, not a function word.
    pub caps: bool,
    /// Starts with a capital letter ("WordPress", "Analyst").
    pub initial: bool,
    /// Hash of the word, and of its first three characters (0 when shorter):
    /// cue lookups compare numbers, not strings.
    key: u32,
    key3: u32,
}

/// A text lowercased (curly apostrophes folded) and cut into words.
#[derive(Debug, Default)]
pub struct Scanned {
    pub text: String,
    pub words: Vec<Word>,
    /// Sentences seen (the last sentence index + 1).
    pub sentences: u32,
}

/// Words longer than this are not cue words; they still count as words.
const MAX_WORDS: usize = 4096;

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '\'' || matches!(c as u32, 0x0300..=0x036F)
}

/// Ends a clause: punctuation inside a sentence as well as sentence ends.
fn ends_clause(c: char) -> bool {
    matches!(
        c,
        ',' | ';' | ':' | '(' | ')' | '—' | '–' | '，' | '；' | '：' | '、' | '（' | '）'
    )
}

fn ends_sentence(c: char) -> bool {
    matches!(c, '!' | '?' | '\n' | '。' | '！' | '？')
}

/// The scanner's state while it walks a text once.
#[derive(Default)]
struct Builder {
    out: String,
    words: Vec<Word>,
    clause: u32,
    sentence: u32,
    /// Where the current word starts in `out`, if inside one.
    start: Option<usize>,
    /// Characters in the current (or just ended) word: a dot after a single
    /// letter ("e.g.", "i.e.") is an abbreviation, not a sentence end.
    len: usize,
    letters: u32,
    capitals: u32,
    initial: bool,
    fenced: bool,
    inline: bool,
    ticks: u8,
    quoted: bool,
    /// Inside single quotes ('Our new app…'), told from apostrophes by
    /// where they stand: opening before a word, closing after one.
    single: bool,
    /// Whether the current word began inside quotes: a closing quote right
    /// after it (“Qingning”) must not unquote it.
    word_quoted: bool,
}

impl Builder {
    fn code(&self) -> bool {
        self.fenced || self.inline
    }

    fn push_word(&mut self, start: usize, end: usize, caps: (bool, bool), quoted: bool) {
        if end > start && self.words.len() < MAX_WORDS {
            self.words.push(Word {
                start: start as u32,
                end: end as u32,
                clause: self.clause,
                sentence: self.sentence,
                code: self.code(),
                quoted,
                caps: caps.0,
                initial: caps.1,
                key: 0,
                key3: 0,
            });
        }
    }

    /// Ends the current word, if any.
    fn close(&mut self) {
        if let Some(b) = self.start.take() {
            // A trailing apostrophe is a quote, not part of the word.
            let end = self.out.trim_end_matches('\'').len().max(b);
            let caps = self.letters >= 2 && self.capitals == self.letters;
            self.push_word(b, end, (caps, self.initial), self.word_quoted);
            if end < self.out.len() {
                self.single = false;
            }
        }
    }

    /// Starts a word at the end of the output, unless one is open;
    /// `upper`: its first character is a capital.
    fn begin_word(&mut self, upper: bool) {
        if self.start.is_none() {
            self.start = Some(self.out.len());
            self.word_quoted = self.quoted || self.single;
            self.initial = upper;
            (self.len, self.letters, self.capitals) = (0, 0, 0);
        }
    }

    /// Adds a character to the current word, starting one if needed.
    fn letter(&mut self, c: char) {
        self.begin_word(c.is_uppercase());
        self.len += 1;
        if c.is_alphabetic() {
            self.letters += 1;
            self.capitals += u32::from(c.is_uppercase());
        }
        if c.is_ascii() {
            self.out.push(c.to_ascii_lowercase());
        } else {
            self.out.extend(c.to_lowercase());
        }
    }

    /// `letter` for an ASCII letter, digit or underscore, the common case.
    fn letter_ascii(&mut self, c: u8) {
        self.begin_word(c.is_ascii_uppercase());
        self.len += 1;
        if c.is_ascii_alphabetic() {
            self.letters += 1;
            self.capitals += u32::from(c.is_ascii_uppercase());
        }
        self.out.push(char::from(c.to_ascii_lowercase()));
    }

    /// Backticks: one opens or closes inline code, three a block; quotes
    /// outside code open or close quoted material.
    fn track_marks(&mut self, c: char) {
        if c == '`' {
            self.ticks += 1;
        } else if self.ticks > 0 {
            if self.ticks >= 3 {
                self.fenced = !self.fenced;
            } else if !self.fenced {
                self.inline = !self.inline;
            }
            self.ticks = 0;
        }
        if !self.code() {
            match c {
                '"' => self.quoted = !self.quoted,
                '“' | '«' | '„' | '「' | '『' => self.quoted = c != '“' || !self.quoted,
                '”' | '»' | '」' | '』' => self.quoted = false,
                _ => {}
            }
        }
    }
}

/// Whether a single quote closes within the next stretch of text: an
/// apostrophe or ’ right after a word and not before a letter ("days'"
/// closes, "don't" does not).
fn closes_later(rest: impl Iterator<Item = char>) -> bool {
    let mut prev = ' ';
    let mut rest = rest.take(2000).peekable();
    while let Some(c) = rest.next() {
        if matches!(c, '\'' | '\u{2019}')
            && !prev.is_whitespace()
            && !rest.peek().is_some_and(|n| n.is_alphanumeric())
        {
            return true;
        }
        prev = c;
    }
    false
}

impl Scanned {
    pub fn new(text: &str) -> Self {
        let mut b = Builder {
            out: String::with_capacity(text.len() + 8),
            ..Builder::default()
        };
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            // Fast paths: ASCII letters and digits, and spaces.
            if b.ticks == 0 && (c.is_ascii_alphanumeric() || c == '_') {
                b.letter_ascii(c as u8);
                continue;
            }
            if b.ticks == 0 && c == ' ' {
                b.close();
                b.out.push(' ');
                continue;
            }
            let c = if matches!(c, '\u{2019}' | '\u{2018}' | '\u{02BC}') {
                '\''
            } else {
                c
            };
            b.track_marks(c);
            if c == '\'' && b.start.is_none() && !b.code() {
                if b.single {
                    b.single = false;
                } else if chars.peek().is_some_and(|n| n.is_alphanumeric()) {
                    b.single = closes_later(chars.clone());
                }
            }
            if is_cjk(c) {
                // Each CJK character is a word of its own.
                b.close();
                b.len = 2;
                let at = b.out.len();
                b.out.push(c);
                b.push_word(at, b.out.len(), (false, false), b.quoted || b.single);
                continue;
            }
            if is_word_char(c) && !(c == '\'' && b.start.is_none()) {
                b.letter(c);
                continue;
            }
            // A dot inside a word or number ("e.g", "3.11", "file.txt") or
            // opening one (".github", ".env", ".5") is not a sentence end.
            let dot_inside =
                c == '.' && (chars.peek().is_some_and(|n| n.is_alphanumeric()) || b.len == 1);
            b.close();
            b.out.push(if c.is_whitespace() && c != '\n' {
                ' '
            } else {
                c
            });
            if ends_sentence(c) || (c == '.' && !dot_inside) {
                b.sentence += 1;
                b.clause += 1;
            } else if ends_clause(c) {
                b.clause += 1;
            }
        }
        b.close();
        let Builder { out, mut words, .. } = b;
        for w in &mut words {
            let t = out.get(w.start as usize..w.end as usize).unwrap_or("");
            w.key = key(t);
            w.key3 = t
                .char_indices()
                .nth(3)
                .map_or(0, |(cut, _)| key(t.get(..cut).unwrap_or("")));
            if w.key3 == 0 && t.chars().count() == 3 {
                w.key3 = w.key;
            }
        }
        let sentences = words.last().map_or(0, |w| w.sentence + 1);
        Self {
            text: out,
            words,
            sentences,
        }
    }

    pub fn word(&self, i: usize) -> &str {
        self.words.get(i).map_or("", |w| self.text_of(w))
    }

    /// The text of one word of this scan.
    pub fn text_of(&self, w: &Word) -> &str {
        self.text
            .get(w.start as usize..w.end as usize)
            .unwrap_or("")
    }

    /// The text of words `from..to` (empty when out of range).
    pub fn span(&self, from: usize, to: usize) -> &str {
        let last = to.checked_sub(1).and_then(|l| self.words.get(l));
        match (self.words.get(from), last) {
            (Some(a), Some(b)) if from < to => self
                .text
                .get(a.start as usize..b.end as usize)
                .unwrap_or(""),
            _ => "",
        }
    }

    /// Size in words of the words `pick` accepts; a CJK character counts
    /// half (two make a word, roughly).
    pub fn units(&self, pick: impl Fn(&Word) -> bool) -> f64 {
        self.words
            .iter()
            .filter(|w| pick(w))
            .map(|w| self.unit(w))
            .sum()
    }

    /// The size of one word in `units`.
    pub fn unit(&self, w: &Word) -> f64 {
        let cjk = self.text_of(w).chars().next().is_some_and(is_cjk);
        if cjk { 0.5 } else { 1.0 }
    }

    /// Sentences with prose in them (a list line counts as one).
    pub fn prose_sentences(&self) -> usize {
        let mut n = 0;
        let mut last = None;
        for w in self.words.iter().filter(|w| !w.code) {
            if last != Some(w.sentence) {
                n += 1;
                last = Some(w.sentence);
            }
        }
        n
    }

    /// Word indices of sentence `sentence`, as a range.
    pub fn sentence_range(&self, sentence: u32) -> std::ops::Range<usize> {
        let from = self.words.partition_point(|w| w.sentence < sentence);
        let to = self.words.partition_point(|w| w.sentence <= sentence);
        from..to
    }

    /// Word indices of clause `clause`, as a range.
    pub fn clause_range(&self, clause: u32) -> std::ops::Range<usize> {
        let from = self.words.partition_point(|w| w.clause < clause);
        let to = self.words.partition_point(|w| w.clause <= clause);
        from..to
    }
}

/// FNV-1a: cheap, and good enough for a few hundred cue words.
fn key(text: &str) -> u32 {
    let h = text.bytes().fold(0x811c_9dc5u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    h.max(1)
}

/// A cue found: which one, and the words it covers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Hit {
    pub cue: usize,
    pub first: usize,
    /// One past the last word.
    pub last: usize,
}

/// Where a cue list takes its phrases from.
pub enum Source {
    List(&'static [&'static str]),
    /// The first of each pair (a phrase and what it names).
    Pairs(&'static [(&'static str, &'static str)]),
}

/// One cue list. A cue is a phrase of words written as in the text (CJK
/// characters separated or not); a final `*` makes the last word a prefix
/// ("kein*" matches "keine"). `id` is its slot in `cues::ALL`.
pub struct CueList {
    id: usize,
    source: Source,
}

impl CueList {
    pub const fn new(id: usize, list: &'static [&'static str]) -> Self {
        Self::from(id, Source::List(list))
    }

    pub const fn from(id: usize, source: Source) -> Self {
        Self { id, source }
    }

    /// The phrase of cue `i`, as listed.
    pub fn phrase(&self, i: usize) -> &'static str {
        let found = match self.source {
            Source::List(list) => list.get(i).copied(),
            Source::Pairs(pairs) => pairs.get(i).map(|(p, _)| *p),
        };
        found.unwrap_or("")
    }

    fn len(&self) -> usize {
        match self.source {
            Source::List(list) => list.len(),
            Source::Pairs(pairs) => pairs.len(),
        }
    }

    /// Whether one word is one of this list's one-word cues (exact or prefix).
    pub fn matches_word(&self, word: &str) -> bool {
        let s = Scanned::new(word);
        let mut found = false;
        if s.words.len() == 1 {
            hits_at(&s, 0, |list, _| found |= list == self.id);
        }
        found
    }
}

/// The words of a cue phrase, split as `Scanned` splits text (phrases are
/// written lowercase), so no copy of the lists is kept at run time.
fn cue_words(phrase: &str) -> impl Iterator<Item = &str> {
    // Most phrases are ASCII: split by bytes, as the char path would.
    split_cue(phrase, phrase.is_ascii())
}

fn split_cue(phrase: &str, ascii: bool) -> impl Iterator<Item = &str> {
    let mut rest = phrase;
    let word_byte = |b: &u8| b.is_ascii_alphanumeric() || *b == b'_' || *b == b'\'';
    std::iter::from_fn(move || {
        if ascii {
            let bytes = rest.as_bytes();
            let start = bytes.iter().position(word_byte)?;
            let len = bytes
                .get(start..)?
                .iter()
                .position(|b| !word_byte(b))
                .unwrap_or(bytes.len() - start);
            let word = rest.get(start..start + len)?;
            rest = rest.get(start + len..)?;
            return Some(word.trim_end_matches('\''));
        }
        let start = rest.find(|c: char| is_word_char(c) || is_cjk(c))?;
        rest = rest.get(start..)?;
        let first = rest.chars().next()?;
        let len = if is_cjk(first) {
            first.len_utf8()
        } else {
            rest.find(|c: char| !is_word_char(c) || is_cjk(c))
                .unwrap_or(rest.len())
        };
        let (word, tail) = rest.split_at(len);
        rest = tail;
        Some(word.trim_end_matches('\''))
    })
}

/// First-word key of a cue: the whole word, or its first three characters
/// for a prefix cue ("kein*"), whether it is a prefix, and the second
/// word's key (0 if none, or if it is a prefix) to reject most near misses
/// without comparing text.
fn cue_key(phrase: &str) -> Option<(u32, bool, u32)> {
    let (body, prefix) = match phrase.strip_suffix('*') {
        Some(b) => (b, true),
        None => (phrase, false),
    };
    let mut words = cue_words(body);
    let first = words.next()?;
    let second = words.next();
    let third = words.next();
    if prefix && second.is_none() {
        let cut = first.char_indices().nth(3).map_or(first.len(), |(i, _)| i);
        (first.chars().count() >= 3).then(|| (key(first.get(..cut).unwrap_or(first)), true, 0))
    } else {
        let last_is_prefix = prefix && third.is_none();
        let k2 = second.filter(|_| !last_is_prefix).map_or(0, key);
        Some((key(first), false, k2))
    }
}

/// (first-word key, prefix, list, cue, second-word key or 0).
type Entry = (u32, bool, u16, u16, u32);

/// Every cue list in one sorted table of (first-word key, prefix, list,
/// cue), with a 64 Kbit filter of the keys in front: most words are no cue's
/// first word and cost one bit test; the others a binary search.
struct Index {
    entries: Vec<Entry>,
    filter: Vec<u64>,
    /// (key, prefix) → where its entries start and how many there are: one
    /// hash lookup past the filter instead of a binary search.
    ranges: std::collections::HashMap<(u32, bool), (u32, u32), crate::hash::FastBuild>,
}

impl Index {
    fn may_have(&self, k: u32) -> bool {
        let bit = (k & 0xFFFF) as usize;
        self.filter
            .get(bit / 64)
            .is_some_and(|w| w & (1 << (bit % 64)) != 0)
    }

    fn lookup(&self, k: u32, prefix: bool) -> &[Entry] {
        if !self.may_have(k) {
            return &[];
        }
        match self.ranges.get(&(k, prefix)) {
            Some(&(from, len)) => self
                .entries
                .get(from as usize..(from + len) as usize)
                .unwrap_or(&[]),
            None => &[],
        }
    }
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut idx = Vec::new();
        for (l, list) in super::cues::ALL.iter().enumerate() {
            debug_assert_eq!(list.id, l, "cues::ALL out of order");
            for i in 0..list.len() {
                if let Some((k, prefix, k2)) = cue_key(list.phrase(i)) {
                    idx.push((k, prefix, l as u16, i as u16, k2));
                }
            }
        }
        crate::sort::sort(&mut idx);
        idx.shrink_to_fit();
        let mut filter = vec![0u64; 1024];
        for e in &idx {
            let bit = (e.0 & 0xFFFF) as usize;
            if let Some(w) = filter.get_mut(bit / 64) {
                *w |= 1 << (bit % 64);
            }
        }
        let mut ranges = std::collections::HashMap::default();
        for (i, e) in idx.iter().enumerate() {
            let range: &mut (u32, u32) = ranges.entry((e.0, e.1)).or_insert((i as u32, 0));
            range.1 += 1;
        }
        Index {
            entries: idx,
            filter,
            ranges,
        }
    })
}

/// The hits of every cue list in one text.
pub struct Hits {
    by_list: Vec<Vec<Hit>>,
}

/// Hits kept per cue list, the first in the text. Rules look around each
/// hit (its clause, the words after it), so a text of thousands of one cue
/// would cost thousands of clause reads; the most any list reaches on the
/// recorded real runs in `../shared/data` is 45, on the evaluation sets 16.
pub const MAX_HITS_PER_LIST: usize = 64;

impl Hits {
    pub fn new(s: &Scanned) -> Self {
        let mut by_list: Vec<Vec<Hit>> = vec![Vec::new(); super::cues::ALL.len()];
        for at in 0..s.words.len() {
            hits_at(s, at, |list, hit| {
                if let Some(hits) = by_list
                    .get_mut(list)
                    .filter(|h| h.len() < MAX_HITS_PER_LIST)
                {
                    hits.push(hit);
                }
            });
        }
        Self { by_list }
    }

    pub fn get(&self, list: &CueList) -> &[Hit] {
        self.by_list.get(list.id).map_or(&[], Vec::as_slice)
    }

    pub fn any(&self, list: &CueList) -> bool {
        !self.get(list).is_empty()
    }
}

/// Every cue (of any list) that starts at word `at`, as (list id, hit).
fn hits_at(s: &Scanned, at: usize, mut found: impl FnMut(usize, Hit)) {
    let idx = index();
    let Some(w) = s.words.get(at) else {
        return;
    };
    let prefix = if w.key3 == 0 {
        &[][..]
    } else {
        idx.lookup(w.key3, true)
    };
    let next = s.words.get(at + 1).map_or(0, |n| n.key);
    for &(_, is_prefix, l, c, k2) in idx.lookup(w.key, false).iter().chain(prefix) {
        if k2 != 0 && k2 != next {
            continue;
        }
        let phrase = super::cues::ALL
            .get(l as usize)
            .map_or("", |list| list.phrase(c as usize));
        // One-word cues (most of them) need no splitting.
        let last = if is_prefix {
            let body = phrase.trim_end_matches('*');
            s.word(at).starts_with(body).then_some(at + 1)
        } else if s.word(at) == phrase {
            Some(at + 1)
        } else {
            matches_at(phrase, s, at)
        };
        if let Some(last) = last {
            found(
                l as usize,
                Hit {
                    cue: c as usize,
                    first: at,
                    last,
                },
            );
        }
    }
}

fn matches_at(phrase: &str, s: &Scanned, at: usize) -> Option<usize> {
    let (body, prefix) = match phrase.strip_suffix('*') {
        Some(b) => (b, true),
        None => (phrase, false),
    };
    // One pass over the phrase's words: splitting it is the cost here.
    let mut words = cue_words(body).peekable();
    let mut k = 0;
    while let Some(w) = words.next() {
        let got = s.words.get(at + k).map(|x| s.text_of(x))?;
        let ok = if prefix && words.peek().is_none() {
            got.starts_with(w)
        } else {
            got == w
        };
        if !ok {
            return None;
        }
        k += 1;
    }
    Some(at + k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_cue_phrases_split_by_bytes_as_by_chars() {
        let mut checked = 0;
        for list in super::super::cues::ALL {
            for i in 0..list.len() {
                let p = list.phrase(i);
                if p.is_ascii() {
                    let bytes: Vec<&str> = split_cue(p, true).collect();
                    let chars: Vec<&str> = split_cue(p, false).collect();
                    assert_eq!(bytes, chars, "{p}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 500, "{checked}");
        let odd = "don't -- 'quoted' snake_case, x2 ...";
        assert_eq!(
            split_cue(odd, true).collect::<Vec<_>>(),
            split_cue(odd, false).collect::<Vec<_>>()
        );
    }

    #[test]
    fn words_know_their_clause_and_sentence() {
        let s = Scanned::new("Don’t add logging, please. Use v3.11 — e.g. here!\n别加日志");
        let words: Vec<&str> = (0..s.words.len()).map(|i| s.word(i)).collect();
        assert_eq!(
            words,
            [
                "don't", "add", "logging", "please", "use", "v3", "11", "e", "g", "here", "别",
                "加", "日", "志"
            ]
        );
        assert_eq!(s.words[2].clause, 0);
        assert_eq!(s.words[3].clause, 1);
        assert_eq!(s.words[3].sentence, 0);
        assert_eq!(s.words[4].sentence, 1);
        // The dash ends a clause, the dot inside "e.g" does not end a sentence.
        assert!(s.words[7].clause > s.words[4].clause);
        assert_eq!(s.words[9].sentence, 1);
        assert!(s.words[10].sentence > s.words[9].sentence);
        assert_eq!(s.sentences, s.words[10].sentence + 1);
        // A dot opening a file name is no sentence end either.
        let s = Scanned::new("I also added .github/workflows/ci.yml and a .env file. Done.");
        let last = s.words.len() - 1;
        assert_eq!(s.words[last - 1].sentence, 0, "{}", s.word(last - 1));
        assert_eq!(s.words[last].sentence, 1);
    }

    #[test]
    fn a_word_right_before_its_closing_quote_is_quoted() {
        let s = Scanned::new("Keep “Qingning” and \"the last word\", not this.");
        let quoted: Vec<(&str, bool)> = s.words.iter().map(|w| (s.text_of(w), w.quoted)).collect();
        assert_eq!(
            quoted,
            [
                ("keep", false),
                ("qingning", true),
                ("and", false),
                ("the", true),
                ("last", true),
                ("word", true),
                ("not", false),
                ("this", false)
            ]
        );
        // Single quotes quote; apostrophes inside or after a word do not.
        let s = Scanned::new("Fix this: 'Don't trakc the files', then stop. It's late.");
        let quoted: Vec<&str> = s
            .words
            .iter()
            .filter(|w| w.quoted)
            .map(|w| s.text_of(w))
            .collect();
        assert_eq!(quoted, ["don't", "trakc", "the", "files"]);
        let s = Scanned::new("The users' files and the '90s.");
        assert!(s.words.iter().all(|w| !w.quoted));
    }

    #[test]
    fn cues_match_whole_words_prefixes_and_cjk() {
        use crate::detect::drift::cues::{ADDITION_STRONG, NEGATION};
        let hits = |t: &str, l: &CueList| -> Vec<&'static str> {
            Hits::new(&Scanned::new(t))
                .get(l)
                .iter()
                .map(|h| l.phrase(h.cue))
                .collect()
        };
        assert_eq!(
            hits("Wi also fine. I also added tests", &ADDITION_STRONG),
            ["i also", "also added"]
        );
        assert_eq!(
            hits("Bitte keine Logs, kein Cache", &NEGATION),
            ["kein*", "kein*"]
        );
        assert_eq!(hits("请不要加日志", &NEGATION), ["不要"]);
        assert!(hits("keynote", &NEGATION).is_empty());
    }

    #[test]
    fn odd_input_never_panics() {
        for t in [
            "",
            "'",
            "''x''",
            "\u{301}",
            "a\u{301}'",
            "。。",
            "*",
            "x*",
            "日本語'",
        ] {
            let s = Scanned::new(t);
            let _ = Hits::new(&s);
            for i in 0..s.words.len() + 2 {
                let _ = s.word(i);
            }
        }
    }
}
