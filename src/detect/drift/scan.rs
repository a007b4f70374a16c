//! One pass over a text for every cue list: the text is lowercased once and
//! cut into words (CJK characters count as one word each), each word knowing
//! its clause, sentence, and whether it is code, quoted or in capitals; the
//! cues of all lists are looked up by their first word in one index, so a
//! text costs a bit test per word, not a substring search per cue.

use std::sync::OnceLock;

use super::cues::LISTS;
use crate::packed::Words;
use crate::text::chars;
use crate::text::is_cjk;
use crate::text::tokenize::{ALPHA_BYTE, UPPER_BYTE, WORD_BYTE, ascii_class};

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

impl Word {
    /// The word's key: `key` of its text.
    pub fn key(&self) -> u32 {
        self.key
    }

    /// `key` of its first three characters, or of the whole word when it
    /// is shorter (a lookup key for tables of three-character prefixes).
    pub fn key_head3(&self) -> u32 {
        if self.key3 == 0 { self.key } else { self.key3 }
    }
}

/// Static words looked up by a scanned word's key: an open-addressing
/// table of (key, item), so a word costs a probe and, on a key match, one
/// string compare, instead of hashing its text again. Values as a map of the
/// same words would give.
pub struct KeyTable<V> {
    slots: Vec<(u32, u32)>,
    items: Vec<(&'static str, V)>,
}

impl<V: Copy> KeyTable<V> {
    pub fn new(items: Vec<(&'static str, V)>) -> Self {
        Self::keyed(items, key)
    }

    /// Keyed by `key_of` instead of `key`.
    pub fn keyed(items: Vec<(&'static str, V)>, key_of: impl Fn(&str) -> u32) -> Self {
        let size = (items.len() * 2).next_power_of_two().max(16);
        let mut slots = vec![(0u32, u32::MAX); size];
        for (i, (w, _)) in items.iter().enumerate() {
            let k = key_of(w);
            let mut at = k as usize & (size - 1);
            while let Some(slot) = slots.get_mut(at) {
                if slot.1 == u32::MAX {
                    *slot = (k, i as u32);
                    break;
                }
                at = (at + 1) & (size - 1);
            }
        }
        Self { slots, items }
    }

    /// The value of the item whose key is `k` and whose text `is` accepts.
    pub fn get(&self, k: u32, is: impl Fn(&str) -> bool) -> Option<V> {
        let mask = self.slots.len() - 1;
        let mut at = k as usize & mask;
        loop {
            let &(sk, i) = self.slots.get(at)?;
            if i == u32::MAX {
                return None;
            }
            if sk == k
                && let Some(&(w, v)) = self.items.get(i as usize)
                && is(w)
            {
                return Some(v);
            }
            at = (at + 1) & mask;
        }
    }
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
    chars::is_alphanumeric(c) || c == '_' || c == '\'' || matches!(c as u32, 0x0300..=0x036F)
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
            // Keyed here, while the word's bytes are hot.
            let (key, key3) = keys(self.out.get(start..end).unwrap_or(""));
            self.words.push(Word {
                start: start as u32,
                end: end as u32,
                clause: self.clause,
                sentence: self.sentence,
                code: self.code(),
                quoted,
                caps: caps.0,
                initial: caps.1,
                key,
                key3,
            });
        }
    }

    /// Ends the current word, if any.
    fn close(&mut self) {
        if let Some(b) = self.start.take() {
            // A trailing apostrophe is a quote, not part of the word.
            let out = self.out.as_bytes();
            let mut end = out.len();
            while end > b && out.get(end - 1) == Some(&b'\'') {
                end -= 1;
            }
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
        if chars::is_alphabetic(c) {
            self.letters += 1;
            self.capitals += u32::from(c.is_uppercase());
        }
        if c.is_ascii() {
            self.out.push(c.to_ascii_lowercase());
        } else {
            self.out.extend(c.to_lowercase());
        }
    }

    /// `letter` for the run of ASCII letters, digits and underscores at
    /// byte `i` of `text`, the common case: classed by table and copied as
    /// a block, not a char at a time. Returns where the run ends.
    fn ascii_run(&mut self, text: &str, i: usize) -> usize {
        let bytes = text.as_bytes();
        let (mut end, mut letters, mut capitals) = (i, 0u32, 0u32);
        while let Some(&c) = bytes.get(end) {
            let class = ascii_class(c);
            if class & WORD_BYTE == 0 {
                break;
            }
            letters += u32::from(class & ALPHA_BYTE != 0);
            capitals += u32::from(class & UPPER_BYTE != 0);
            end += 1;
        }
        let Some(run) = text.get(i..end).filter(|r| !r.is_empty()) else {
            return end.max(i + 1);
        };
        self.begin_word(bytes.get(i).is_some_and(u8::is_ascii_uppercase));
        self.len += run.len();
        self.letters += letters;
        self.capitals += capitals;
        let at = self.out.len();
        self.out.push_str(run);
        if capitals > 0
            && let Some(tail) = self.out.get_mut(at..)
        {
            tail.make_ascii_lowercase();
        }
        end
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

impl Builder {
    /// `other` for an ASCII character that is no word character, backtick
    /// or quote, outside a run of backticks: it can only end a word, a
    /// clause or a sentence. `rest` is what follows.
    fn ascii_mark(&mut self, c: u8, rest: &str) {
        let c = char::from(c);
        let dot_inside =
            c == '.' && (rest.chars().next().is_some_and(char::is_alphanumeric) || self.len == 1);
        self.mark(c, dot_inside);
    }

    /// A character that ends a word: it may end a clause or a sentence too
    /// (a dot `dot_inside` a word or number does not).
    fn mark(&mut self, c: char, dot_inside: bool) {
        self.close();
        self.out.push(if c.is_whitespace() && c != '\n' {
            ' '
        } else {
            c
        });
        if ends_sentence(c) || (c == '.' && !dot_inside) {
            self.sentence += 1;
            self.clause += 1;
        } else if ends_clause(c) {
            self.clause += 1;
        }
    }

    /// Any character off the fast paths; `next` and `rest` are what follows.
    fn other(&mut self, c: char, next: Option<char>, rest: &str) {
        let c = if !c.is_ascii() && matches!(c, '\u{2019}' | '\u{2018}' | '\u{02BC}') {
            '\''
        } else {
            c
        };
        self.track_marks(c);
        if c == '\'' && self.start.is_none() && !self.code() {
            if self.single {
                self.single = false;
            } else if next.is_some_and(|n| n.is_alphanumeric()) {
                self.single = closes_later(rest.chars());
            }
        }
        if !c.is_ascii() && is_cjk(c) {
            // Each CJK character is a word of its own.
            self.close();
            self.len = 2;
            let at = self.out.len();
            self.out.push(c);
            let quoted = self.quoted || self.single;
            self.push_word(at, self.out.len(), (false, false), quoted);
            return;
        }
        if is_word_char(c) && !(c == '\'' && self.start.is_none()) {
            self.letter(c);
            return;
        }
        // A dot inside a word or number ("e.g", "3.11", "file.txt") or
        // opening one (".github", ".env", ".5") is not a sentence end.
        let dot_inside = c == '.' && (next.is_some_and(|n| n.is_alphanumeric()) || self.len == 1);
        self.mark(c, dot_inside);
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

/// A word's key and the key of its first three characters (0 when shorter;
/// the word's own key when it has exactly three).
fn keys(t: &str) -> (u32, u32) {
    if t.is_ascii() {
        // One FNV pass gives both: the prefix key is the hash after 3 bytes.
        let fold = |h: u32, b: &u8| (h ^ u32::from(*b)).wrapping_mul(0x0100_0193);
        let bytes = t.as_bytes();
        let (head, tail) = bytes.split_at(bytes.len().min(3));
        let h3 = head.iter().fold(0x811c_9dc5u32, fold);
        let h = tail.iter().fold(h3, fold);
        return (h.max(1), if head.len() == 3 { h3.max(1) } else { 0 });
    }
    let key_all = key(t);
    let mut key3 = t
        .char_indices()
        .nth(3)
        .map_or(0, |(cut, _)| key(t.get(..cut).unwrap_or("")));
    if key3 == 0 && t.chars().count() == 3 {
        key3 = key_all;
    }
    (key_all, key3)
}

impl Scanned {
    pub fn new(text: &str) -> Self {
        let mut b = Builder {
            out: String::with_capacity(text.len() + 8),
            words: Vec::with_capacity((text.len() / 6).min(MAX_WORDS)),
            ..Builder::default()
        };
        let bytes = text.as_bytes();
        let mut i = 0;
        while let Some(&byte) = bytes.get(i) {
            // Fast paths: runs of ASCII letters and digits, and spaces.
            if b.ticks == 0 && ascii_class(byte) & WORD_BYTE != 0 {
                i = b.ascii_run(text, i);
                continue;
            }
            if b.ticks == 0 && byte == b' ' {
                b.close();
                b.out.push(' ');
                i += 1;
                continue;
            }
            if b.ticks == 0 && byte < 0x80 && !matches!(byte, b'`' | b'"' | b'\'') {
                i += 1;
                b.ascii_mark(byte, text.get(i..).unwrap_or(""));
                continue;
            }
            let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else {
                break;
            };
            i += c.len_utf8();
            // What follows `c`, for the look-aheads below.
            let rest = text.get(i..).unwrap_or("");
            let next = rest.chars().next();
            b.other(c, next, rest);
        }
        b.close();
        let Builder { out, words, .. } = b;
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
pub fn key(text: &str) -> u32 {
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
    List(Words),
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
    pub const fn new(id: usize, list: Words) -> Self {
        Self::from(id, Source::List(list))
    }

    pub const fn from(id: usize, source: Source) -> Self {
        Self { id, source }
    }

    /// The phrase of cue `i`, as listed.
    pub fn phrase(&self, i: usize) -> &'static str {
        let found = match self.source {
            Source::List(list) => list.get(i),
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

/// First-word key of a cue, from its words (split by `cue_words`, without
/// the `*`): the whole first word, or its first three characters for a
/// prefix cue ("kein*"), whether it is a prefix, and the second word's key
/// (0 if none, or if it is a prefix) to reject most near misses without
/// comparing text.
fn cue_key(words: &[&str], prefix: bool) -> Option<(u32, bool, u32)> {
    let (first, second, third) = (words.first()?, words.get(1), words.get(2));
    if prefix && second.is_none() {
        let cut = first.char_indices().nth(3).map_or(first.len(), |(i, _)| i);
        (first.chars().count() >= 3).then(|| (key(first.get(..cut).unwrap_or(first)), true, 0))
    } else {
        let last_is_prefix = prefix && third.is_none();
        let k2 = second.filter(|_| !last_is_prefix).map_or(0, |w| key(w));
        Some((key(first), false, k2))
    }
}

/// (first-word key, prefix, list, cue, second-word key or 0, where the
/// phrase's words are in `Index::words` and how many).
type Entry = (u32, bool, u16, u16, u32, (u32, u32));

/// Every cue list in one sorted table of (first-word key, prefix, list,
/// cue), with a 64 Kbit filter of the keys in front: most words are no cue's
/// first word and cost one bit test; the others a binary search.
struct Index {
    entries: Vec<Entry>,
    filter: Vec<u64>,
    /// (key, prefix) → where its entries start and how many there are, as
    /// open-addressed slots of (`range_key`, start, count; 0 when empty):
    /// one probe past the filter instead of a binary search or a hash.
    ranges: Vec<(u64, u32, u32)>,
    /// The words of every cue phrase, split once (an entry holds where its
    /// phrase's words start here and how many there are).
    words: Vec<&'static str>,
}

impl Index {
    fn may_have(&self, k: u32) -> bool {
        let bit = (k & 0xFFFF) as usize;
        self.filter
            .get(bit / 64)
            .is_some_and(|w| w & (1 << (bit % 64)) != 0)
    }

    /// A phrase's words, split as the scanner splits text.
    fn phrase_words(&self, (from, n): (u32, u32)) -> &[&'static str] {
        self.words
            .get(from as usize..(from + n) as usize)
            .unwrap_or(&[])
    }

    fn lookup(&self, k: u32, prefix: bool) -> &[Entry] {
        if !self.may_have(k) {
            return &[];
        }
        let rk = range_key(k, prefix);
        let mask = self.ranges.len().wrapping_sub(1);
        let mut at = range_slot(rk) & mask;
        while let Some(&(key, from, len)) = self.ranges.get(at) {
            if len == 0 {
                break;
            }
            if key == rk {
                return self
                    .entries
                    .get(from as usize..(from + len) as usize)
                    .unwrap_or(&[]);
            }
            at = (at + 1) & mask;
        }
        &[]
    }
}

/// A (first-word key, prefix) pair as one number.
fn range_key(k: u32, prefix: bool) -> u64 {
    u64::from(k) << 1 | u64::from(prefix)
}

/// Where a `range_key` starts probing (before masking).
fn range_slot(rk: u64) -> usize {
    (rk ^ (rk >> 17)) as usize
}

/// The `ranges` slots for sorted entries: each run of one (key, prefix).
fn range_slots(idx: &[Entry]) -> Vec<(u64, u32, u32)> {
    let mut runs: Vec<(u64, u32, u32)> = Vec::new();
    for (i, e) in idx.iter().enumerate() {
        let rk = range_key(e.0, e.1);
        match runs.last_mut() {
            Some(run) if run.0 == rk => run.2 += 1,
            _ => runs.push((rk, i as u32, 1)),
        }
    }
    let size = (runs.len() * 2).next_power_of_two().max(16);
    let mut slots = vec![(0u64, 0u32, 0u32); size];
    for run in runs {
        let mut at = range_slot(run.0) & (size - 1);
        while let Some(slot) = slots.get_mut(at) {
            if slot.2 == 0 {
                *slot = run;
                break;
            }
            at = (at + 1) & (size - 1);
        }
    }
    slots
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let (mut idx, mut words) = (Vec::new(), Vec::new());
        for (l, list) in super::cues::ALL.iter().enumerate() {
            debug_assert_eq!(list.id, l, "cues::ALL out of order");
            for i in 0..list.len() {
                let phrase = list.phrase(i);
                let (body, prefix) = match phrase.strip_suffix('*') {
                    Some(b) => (b, true),
                    None => (phrase, false),
                };
                // Each phrase is split once, for its key and its words.
                let from = words.len();
                words.extend(cue_words(body));
                match words.get(from..).and_then(|w| cue_key(w, prefix)) {
                    Some((k, prefix, k2)) => {
                        let split = (from as u32, (words.len() - from) as u32);
                        idx.push((k, prefix, l as u16, i as u16, k2, split));
                    }
                    None => words.truncate(from),
                }
            }
        }
        // Entries were pushed in (list, cue) order, which is unique, so the
        // stable sort by (first-word key, prefix) orders them as sorting whole
        // entries would.
        crate::sort::sort_by_key40(&mut idx, |e| u64::from(e.0) << 1 | u64::from(e.1));
        idx.shrink_to_fit();
        let mut filter = vec![0u64; 1024];
        for e in &idx {
            let bit = (e.0 & 0xFFFF) as usize;
            if let Some(w) = filter.get_mut(bit / 64) {
                *w |= 1 << (bit % 64);
            }
        }
        let ranges = range_slots(&idx);
        words.shrink_to_fit();
        Index {
            entries: idx,
            filter,
            ranges,
            words,
        }
    })
}

/// The hits of every cue list in one text.
pub struct Hits {
    /// Every hit kept, grouped by list, each list's in text order: one
    /// allocation, not one per list that has a hit.
    hits: Vec<Hit>,
    /// Where each list's hits start in `hits` (and the next list's end).
    starts: [u32; LISTS + 1],
}

/// Hits kept per cue list, the first in the text. Rules look around each
/// hit (its clause, the words after it), so a text of thousands of one cue
/// would cost thousands of clause reads; the most any list reaches on the
/// recorded real runs in `../shared/data` is 45, on the evaluation sets 16.
pub const MAX_HITS_PER_LIST: usize = 64;

impl Hits {
    pub fn new(s: &Scanned) -> Self {
        let mut counts = [0u32; LISTS];
        let mut found: Vec<(usize, Hit)> = Vec::new();
        for at in 0..s.words.len() {
            hits_at(s, at, |list, hit| {
                if let Some(n) = counts
                    .get_mut(list)
                    .filter(|n| (**n as usize) < MAX_HITS_PER_LIST)
                {
                    *n += 1;
                    found.push((list, hit));
                }
            });
        }
        // A counting sort by list: stable, so each list keeps text order.
        let mut starts = [0u32; LISTS + 1];
        for (l, n) in counts.iter().enumerate() {
            let from = starts.get(l).copied().unwrap_or(0);
            if let Some(next) = starts.get_mut(l + 1) {
                *next = from + n;
            }
        }
        let mut next = starts;
        let empty = Hit {
            cue: 0,
            first: 0,
            last: 0,
        };
        let mut hits = vec![empty; found.len()];
        for (list, hit) in found {
            if let Some(at) = next.get_mut(list)
                && let Some(slot) = hits.get_mut(*at as usize)
            {
                *slot = hit;
                *at += 1;
            }
        }
        Self { hits, starts }
    }

    pub fn get(&self, list: &CueList) -> &[Hit] {
        let from = self.starts.get(list.id).copied().unwrap_or(0);
        let to = self.starts.get(list.id + 1).copied().unwrap_or(from);
        self.hits.get(from as usize..to as usize).unwrap_or(&[])
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
    for &(_, is_prefix, l, c, k2, split) in idx.lookup(w.key, false).iter().chain(prefix) {
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
            matches_at(idx.phrase_words(split), phrase.ends_with('*'), s, at)
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

/// Where the phrase of `words` (the last a prefix when `prefix`) ends, if it
/// starts at word `at`.
fn matches_at(words: &[&str], prefix: bool, s: &Scanned, at: usize) -> Option<usize> {
    for (k, w) in words.iter().enumerate() {
        let got = s.words.get(at + k).map(|x| s.text_of(x))?;
        let ok = if prefix && k + 1 == words.len() {
            got.starts_with(w)
        } else {
            got == *w
        };
        if !ok {
            return None;
        }
    }
    Some(at + words.len())
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

    /// The scanner as it was, a char at a time, keyed in a second pass:
    /// the block-wise one must cut and key every text the same.
    fn scanned_char_by_char(text: &str) -> (String, Vec<Word>, u32) {
        let mut b = Builder::default();
        let mut chars = text.chars().peekable();
        while let Some(c) = chars.next() {
            if b.ticks == 0 && (c.is_ascii_alphanumeric() || c == '_' || c == ' ') {
                if c == ' ' {
                    b.close();
                    b.out.push(' ');
                } else {
                    b.letter(c);
                }
                continue;
            }
            let rest: String = chars.clone().collect();
            b.other(c, chars.peek().copied(), &rest);
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
        (out, words, sentences)
    }

    #[test]
    fn block_scan_matches_char_scan() {
        let texts = [
            include_str!("../../../benches/workload/task.txt"),
            include_str!("../../../benches/workload/response.txt"),
            include_str!("../../../benches/workload/reference-task.txt"),
            include_str!("../../../benches/workload/reference-response.txt"),
            "Don’t add logging, please. Use v3.11 — e.g. here!\n别加日志",
            "Fix this: 'Don't trakc the files', then stop. It's late.",
            "Keep “Qingning” and \"the last word\", not this. ``` JSON `x` ```ABC",
            "ÉCOLE Straße DEN EST dal'Italia naïve cafe\u{301} Ab_C __x__ a.b 3.5 .env",
            "`a`b ``c`` ```rust\nfn X() {}\n``` Über ÄB 'x' 'Hello' y' z'a IO",
            "a.b. c .d e.é x.\t(y); z: w—v, \"q\" r! s? t\r\nu\u{b}v .5 e.g. i.e., 3.11.",
            "`x` ``y`.z ```\nq.\n```\n. ; ' \" ` a' 'b c'",
        ];
        for t in texts {
            let s = Scanned::new(t);
            let (text, words, sentences) = scanned_char_by_char(t);
            assert_eq!(
                (s.text.as_str(), &s.words, s.sentences),
                (text.as_str(), &words, sentences),
                "{t}"
            );
        }
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
