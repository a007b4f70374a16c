//! Scope drift, beyond keyword overlap. A long on-topic answer uses many
//! words the user never typed, so "share of new words" alone cries wolf on
//! most real turns. This detector warns only on evidence a reviewer would
//! accept:
//!
//! - **off topic**: almost none of the answer's weighted content is anchored
//!   in the request, earlier user turns, this turn's tool output or the app's
//!   glossary (generic explanation words weigh little);
//! - **forbidden**: the user said "don't add logging" / "keep X unchanged" and
//!   the answer does it (the reference counted such words as anchored);
//! - **additions**: a sentence that announces an addition ("I also added…",
//!   "另外…", "además…") carries content the request never mentioned;
//! - **language**: answered in another human language than asked, when no
//!   translation was requested;
//! - **framework**: asked about one member of a family (Python, React,
//!   Postgres…) and answered with another.

mod additions;
mod cues;
mod form;
mod intents;
mod lang;
mod lexicon;
mod limits;
mod listing;
mod loose_code;
mod negation;
mod opener;
mod operations;
mod opposites;
mod scan;
mod schema;
mod tech;
mod words;

use serde::{Deserialize, Serialize};

use super::scope::MAX_LISTED;
use crate::text::stem_light::{self, Lang};
use crate::text::table::key_hash;
use crate::text::{KeywordBag, is_cjk};
use cues::{CLARIFY, KEEP_REST, ONE_SECTION, PROOFREAD, TARGET_CUES, TARGETS, THANKS, TRANSLATION};
#[cfg(test)]
pub(crate) use form::Form;
pub use lang::language;
use lang::language_of_scanned;
pub use limits::CodeShape;
pub use negation::Limits;
use scan::{Hit, Hits, KeyTable, Scanned};
use std::sync::OnceLock;
use tech::{ruled_out_tech, sibling_tech, sibling_words, tech_in};
pub(crate) use words::FUNCTION_WORDS;
use words::{SYNONYMS, WordTable, low_weight};

/// What made the answer drift.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Cause {
    OffTopic,
    Forbidden,
    Additions,
    Language,
    Framework,
}

impl crate::json::typed::FromJson for Cause {
    fn from_json(v: &serde_json::Value) -> crate::json::typed::Got<Cause> {
        use Cause::*;
        let names = [
            "offTopic",
            "forbidden",
            "additions",
            "language",
            "framework",
        ];
        crate::json::typed::variant(
            v,
            &names,
            &[OffTopic, Forbidden, Additions, Language, Framework],
        )
    }
}

/// Facts about the request, computed once at turn start.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TaskFacts {
    /// Stems the user asked to leave out.
    pub forbidden: Vec<String>,
    /// Stems the user asked to keep unchanged.
    #[serde(default)]
    pub protected: Vec<String>,
    /// Limits on the answer's form (no explanation, one sentence…).
    #[serde(default)]
    pub limits: Limits,
    /// The language the answer should be in ("" when any will do).
    pub lang: String,
    /// Family members named (lowercase canonical names).
    pub tech: Vec<String>,
    /// The user asked for a translation or another language.
    pub translation: bool,
    /// A short thanks or goodbye without a question: no reply to it is off topic.
    #[serde(default)]
    pub closing: bool,
    /// Numbers of the quoted material, kept when `limits.keep_numbers`.
    #[serde(default)]
    pub numbers: Vec<String>,
    /// The request's code, measured for `limits.keep_logic`.
    #[serde(default)]
    pub code: CodeShape,
    /// Quoted terms the request protects: the answer must keep them verbatim.
    #[serde(default)]
    pub verbatim: Vec<String>,
    /// Names the request's code defines, kept when `limits.keep_names`.
    #[serde(default)]
    pub names: Vec<String>,
    /// Its function signatures, `name(a,b)`, kept when `limits.keep_names`.
    #[serde(default)]
    pub signatures: Vec<String>,
    /// The request carries code to work on (a fenced block).
    #[serde(default)]
    pub has_code: bool,
    /// It asks for one section of a document.
    #[serde(default)]
    pub one_section: bool,
    /// It asks to correct a quoted text's spelling or grammar.
    #[serde(default)]
    pub proofread: bool,
    /// The everyday intents it is about (`intents`), as bits.
    #[serde(default)]
    pub intents: u32,
    /// The how-to operations it names (`operations`), as sorted ids.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub ops: Vec<u16>,
    /// A short yes to what the assistant proposed ("Yes, go ahead"): the
    /// change it then reports was asked for.
    #[serde(default)]
    pub confirms: bool,
    /// The operations it names without their opposite (`opposites`), as
    /// sorted ids: export but not import.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sides: Vec<u16>,
    /// Its figures of three digits or more ("port 8080", "order 55213"):
    /// an answer that repeats one is about the same thing.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub figures: Vec<String>,
    /// Keys of its code's lines (`additions::line_key`) when it asks a narrow
    /// edit of that code: a short instruction naming the new value
    /// ("#1677ff", "TZ=Europe/Moscow").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub edited_lines: Vec<u32>,
    /// Size in words of the quoted text a translation request gives (0
    /// when it quotes none): an answer many times longer brought more.
    #[serde(default, skip_serializing_if = "crate::json::is_default")]
    pub translated_words: u16,
    /// Not read: scope drift was off when the request came
    /// (`Config::scope_drift`), so no answer to it is judged.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub unread: bool,
}

crate::json::typed::from_json!(TaskFacts {
    req forbidden: "forbidden",
    opt protected: "protected",
    opt limits: "limits",
    req lang: "lang",
    req tech: "tech",
    req translation: "translation",
    opt closing: "closing",
    opt numbers: "numbers",
    opt code: "code",
    opt verbatim: "verbatim",
    opt names: "names",
    opt signatures: "signatures",
    opt has_code: "hasCode",
    opt one_section: "oneSection",
    opt proofread: "proofread",
    opt intents: "intents",
    opt ops: "ops",
    opt confirms: "confirms",
    opt sides: "sides",
    opt figures: "figures",
    opt edited_lines: "editedLines",
    opt translated_words: "translatedWords",
    opt unread: "unread",
});

impl TaskFacts {
    /// Every list within `MAX_FACTS` entries of at most `MAX_FACT_BYTES`
    /// each: what an imported snapshot must respect.
    pub fn is_bounded(&self) -> bool {
        [
            &self.forbidden,
            &self.protected,
            &self.tech,
            &self.numbers,
            &self.verbatim,
            &self.names,
            &self.signatures,
            &self.figures,
        ]
        .iter()
        .all(|list| list.len() <= MAX_FACTS && list.iter().all(|s| s.len() <= MAX_FACT_BYTES))
            && self.lang.len() <= MAX_FACT_BYTES
            && self.edited_lines.len() <= MAX_EDITED_LINES
            && operations::valid(&self.ops)
            && opposites::valid(&self.sides)
    }
}

/// The verdict on one response.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DriftReport {
    /// Weighted share of the answer's content not anchored anywhere, 0–1.
    pub score: f64,
    pub cause: Option<Cause>,
    /// The words a person would point at, most telling first.
    pub tokens: Vec<String>,
}

crate::json::typed::from_json!(DriftReport {
    req score: "score",
    opt cause: "cause",
    req tokens: "tokens",
});

const MAX_FACTS: usize = 32;
/// Code lines of a narrow edit remembered.
const MAX_EDITED_LINES: usize = 200;

/// The line keys of a request's code when the request asks a narrow edit:
/// a short instruction that names the new value as a literal.
fn narrow_edit(task: &str) -> Vec<u32> {
    if !task.contains("```") {
        return Vec::new();
    }
    let prose = limits::outside_fences(task);
    let blocks: Vec<&str> = limits::fenced_blocks(task).collect();
    let code = blocks.concat();
    // A value the code does not have yet: `#1677ff`, TZ=Europe/Moscow (a
    // name it has, "keep the name `avg`", asks nothing narrow).
    let is_value = |c: char| c.is_ascii_alphanumeric() || "#=_/.:-".contains(c);
    let ticked = prose.split('`').skip(1).step_by(2);
    let marked = prose
        .split(|c: char| !is_value(c))
        .filter(|t| t.contains(['#', '=']) && t.len() > 2);
    let new_value = ticked
        .chain(marked)
        .any(|v| !v.is_empty() && !code.contains(v));
    if prose.split_whitespace().count() > 40 || !new_value {
        return Vec::new();
    }
    let mut keys: Vec<u32> = blocks
        .iter()
        .flat_map(|b| b.lines())
        .map(additions::line_key)
        .take(MAX_EDITED_LINES)
        .collect();
    crate::sort::sort(&mut keys);
    keys.dedup();
    keys
}

/// Longest fact kept (a quoted term, a signature); longer ones are material.
const MAX_FACT_BYTES: usize = 160;

/// Facts about a request: what it rules out, the language the answer should
/// be in, the tech it names.
pub fn task_facts(task: &str, bag: &KeywordBag) -> TaskFacts {
    // Code pasted without a fence is read as if fenced.
    let fenced = loose_code::fenced(task);
    let task: &str = &fenced;
    let s = Scanned::new(task);
    let hits = Hits::new(&s);
    let rules = negation::rules_known(&s, &hits, bag);
    let translation = hits.any(&TRANSLATION);
    let mut asks_in = AsksIn::default();
    // "Explain it in German", "In English, please": a target language only
    // with a verb of answering or on its own ("an interview in English" is
    // about the interview).
    let target = hits
        .get(&TARGET_CUES)
        .iter()
        .find(|h| translation || asks_in.asks(&s, h))
        .and_then(|h| TARGETS.get(h.cue))
        .map(|(_, lang)| (*lang).to_string());
    let lang = match target {
        Some(t) => t,
        // A translation into an unnamed language: any answer language is fine.
        None if translation => String::new(),
        None => language_of_scanned(&s),
    };
    // Every list within the caps an imported snapshot is held to.
    let fit = |mut v: Vec<String>| {
        v.retain(|s| s.len() <= MAX_FACT_BYTES);
        v.truncate(MAX_FACTS);
        v
    };
    let mut forbidden = rules.forbidden;
    // A technology the user does not have: the next three words.
    for h in hits.get(&cues::NOT_HAVE) {
        let clause_end = s
            .words
            .get(h.first)
            .map_or(h.last, |w| s.clause_range(w.clause).end);
        for i in h.last..clause_end.min(h.last + 3) {
            let word = s.word(i);
            if negation::names_tech(word)
                && let Some(st) = first_stem(word)
                && !forbidden.contains(&st)
            {
                forbidden.push(st);
            }
        }
    }
    let (forbidden, protected) = (fit(forbidden), fit(rules.protected));
    // A technology ruled out is not the one asked about: LibreOffice for
    // "I don't have Excel" is no sibling answer.
    let mut tech = tech_in(&s, bag);
    tech.retain(|t| !forbidden.contains(t));
    let tech = fit(tech);
    let closing = hits.any(&THANKS) && task.len() < 200 && !task.contains(['?', '？']);
    let mut limits = rules.limits;
    limits.python_minor = limits::python_minor(&s);
    // "Make it formal without making it longer: '…'": the quoted text's
    // length is the cap.
    if limits.form.max_words == 0 && hits.any(&cues::NO_LONGER) {
        let given = s.units(|w| w.quoted && !w.code);
        if given >= 5.0 {
            limits.form.max_words = given.round().min(f64::from(u16::MAX)) as u16;
            // A length to stay near, with room for a formal register.
            limits.form.word_target = true;
        }
    }
    let mut numbers = rules.numbers;
    // "Leave everything else as is": the material's figures stay, but for
    // as many as the request brings new ones.
    if hits.any(&KEEP_REST) {
        limits.keep_numbers = true;
        limits.numbers_changed = limits::new_numbers(&s) as u8;
    }
    if limits.keep_numbers {
        for n in limits::material_numbers(&s) {
            if !numbers.contains(&n) {
                numbers.push(n);
            }
        }
    }
    let numbers = fit(numbers);
    let (names, signatures) = if limits.keep_names {
        limits::defined_names(task)
    } else {
        (Vec::new(), Vec::new())
    };
    let (names, signatures) = (fit(names), fit(signatures));
    // Three words at least: "Translate 'Hello'" is answered with notes.
    let quoted = s.units(|w| w.quoted && !w.code);
    let translated_words = if translation && quoted >= 3.0 {
        quoted.round().min(f64::from(u16::MAX)) as u16
    } else {
        0
    };
    let mut figures = limits::digit_runs(task);
    // A translation's text is short: its day of the month ties the
    // translation to it too ("fino al 25 agosto" → "until 25 August").
    let least = if translated_words > 0 { 2 } else { 3 };
    figures.retain(|f| f.len() >= least);
    figures.dedup();
    TaskFacts {
        translated_words,
        figures: fit(figures),
        edited_lines: narrow_edit(task),
        has_code: task.contains("```"),
        one_section: hits.any(&ONE_SECTION),
        // Six quoted words at least: the text to give back corrected.
        proofread: hits.any(&PROOFREAD) && s.words.iter().filter(|w| w.quoted).count() >= 6,
        confirms: confirms(&s),
        intents: if task.contains("```") {
            0
        } else {
            intents::asked(&s)
        },
        ops: operations::of(&s),
        sides: opposites::asked(&s),
        forbidden,
        protected,
        numbers,
        verbatim: fit(rules.verbatim),
        names,
        signatures,
        code: if limits.keep_logic {
            limits::code_shape(task)
        } else {
            CodeShape::default()
        },
        limits,
        lang,
        tech,
        translation,
        closing,
        unread: false,
    }
}

/// A short request that opens with a clear yes and asks nothing: it accepts
/// the assistant's offer ("Yes, go ahead", "Oui, d'accord", "はい、お願いします").
fn confirms(s: &Scanned) -> bool {
    const YES: &[&str] = &[
        "yes", "yeah", "yep", "sure", "ok", "okay", "sí", "vale", "oui", "ja", "sim", "sì", "да",
    ];
    const CJK_YES: &[&str] = &["好的", "是的", "可以", "はい"];
    let asks = s.text.contains(['?', '？']);
    let yes = YES.contains(&s.word(0)) || CJK_YES.iter().any(|y| s.text.starts_with(y));
    !asks && s.words.len() <= 14 && yes
}

/// Verbs of answering and writing, as lowercase prefixes (CJK ones are
/// looked for in the clause's text).
const ANSWER_VERBS: &[&str] = &[
    "answer",
    "reply",
    "respond",
    "write",
    "say",
    "explain",
    "tell",
    "put",
    "give",
    "rewrite",
    "speak",
    "talk",
    "describe",
    "summar",
    "répon",
    "écri",
    "expliqu",
    "parl",
    "résum",
    "contest",
    "escrib",
    "explic",
    "habl",
    "resum",
    "antwort",
    "schreib",
    "erklär",
    "sag",
    "sprich",
    "formulier",
    "fasse",
    "escrev",
    "expliq",
    "rispond",
    "scriv",
    "spieg",
    "ответ",
    "напиш",
    "объясн",
    "скаж",
    "говор",
    "回答",
    "回复",
    "写",
    "解释",
    "说",
    "答え",
    "書",
    "説明",
    "話",
];

/// A target-language cue that asks for the answer's language: a verb of
/// answering before it in its clause, or a clause of a few words. Cues come
/// in text order, so the clause of the last one is remembered and read once,
/// however many cues it holds (a clause of 4,000 "用中文" was read once per
/// cue).
#[derive(Default)]
struct AsksIn {
    /// The clause read last: its id, where its first verb of answering
    /// stands (a word index, `usize::MAX` when none), whether a CJK one is
    /// in it.
    last: Option<(u32, usize, bool)>,
}

impl AsksIn {
    fn asks(&mut self, s: &Scanned, h: &Hit) -> bool {
        let Some(w) = s.words.get(h.first) else {
            return false;
        };
        let clause = s.clause_range(w.clause);
        if clause.end - clause.start <= 4 {
            return true;
        }
        let (first_verb, cjk) = match self.last {
            Some((c, first, cjk)) if c == w.clause => (first, cjk),
            _ => {
                crate::work::add(clause.len());
                let first = (clause.start..clause.end)
                    .find(|&i| {
                        let word = s.word(i);
                        ANSWER_VERBS
                            .iter()
                            .any(|v| !v.chars().next().is_some_and(is_cjk) && word.starts_with(v))
                    })
                    .unwrap_or(usize::MAX);
                // Chinese and Japanese put the verb after: "用英文写".
                let whole = s.span(clause.start, clause.end);
                let cjk = ANSWER_VERBS
                    .iter()
                    .any(|v| v.chars().next().is_some_and(is_cjk) && whole.contains(v));
                self.last = Some((w.clause, first, cjk));
                (first, cjk)
            }
        };
        first_verb < h.first || cjk
    }
}

fn weight(stem: &str) -> f64 {
    weight_hashed(stem, key_hash(stem))
}

/// `weight` for a stem whose `key_hash` is `h`.
fn weight_hashed(stem: &str, h: u32) -> f64 {
    let ascii = stem.is_ascii();
    if stem_value(low_weight_set(), stem, h).is_some() {
        0.2
    } else if !ascii && stem.chars().any(is_cjk) {
        // Character bigrams: many straddle two words and carry little.
        0.4
    } else if stem.len() <= 3 || (!ascii && stem.chars().count() <= 3) {
        0.5
    } else {
        1.0
    }
}

/// A word table keyed by the words' `key_hash`es: a stem hashed once for
/// the bags is looked up here without being hashed again.
type StemTable = KeyTable<u64>;

fn stem_table(table: &'static WordTable) -> StemTable {
    KeyTable::keyed(table.iter().map(|(w, v)| (*w, *v)).collect(), key_hash)
}

/// The value of `word` (its `key_hash` is `h`) in `table`.
fn stem_value(table: &StemTable, word: &str, h: u32) -> Option<u64> {
    table.get(h, |w| crate::text::table::same(w, word))
}

fn low_weight_set() -> &'static StemTable {
    static SET: OnceLock<StemTable> = OnceLock::new();
    SET.get_or_init(|| stem_table(low_weight()))
}

/// The synonym groups a stem belongs to, as a bit set (one bit per group of
/// `SYNONYMS`), through a table built once.
fn synonym_groups(stem: &str) -> u64 {
    synonym_groups_hashed(stem, key_hash(stem))
}

/// `synonym_groups` for a stem whose `key_hash` is `h`.
fn synonym_groups_hashed(stem: &str, h: u32) -> u64 {
    static TABLE: OnceLock<WordTable> = OnceLock::new();
    static SET: OnceLock<StemTable> = OnceLock::new();
    let set = SET.get_or_init(|| {
        stem_table(TABLE.get_or_init(|| {
            let mut t = WordTable::default();
            for (g, members) in SYNONYMS.iter().enumerate().take(64) {
                for m in *members {
                    *t.entry(*m).or_default() |= 1 << g;
                }
            }
            t
        }))
    });
    stem_value(set, stem, h).unwrap_or(0)
}

const LATIN_PREFIXES: &[&str] = &[
    "inter", "intra", "trans", "under", "super", "multi", "contr", "count", "extra", "micro",
    "macro", "retro", "hyper", "ultra", "circu", "compr", "const", "conse", "repre", "recon",
];

/// What anchors a response, prepared once per judgement: anchored means in
/// the request or its context exactly, through a synonym group, or by a shared
/// prefix of five characters (derivations the stemmer leaves apart).
struct Anchors<'a> {
    bags: &'a [&'a KeywordBag],
    glossary: &'a [String],
    /// The synonym groups the anchors touch, one bit per group.
    groups: u64,
    /// Five-character prefixes of anchor stems.
    prefixes: Prefixes<'a>,
    /// For an answer in a language with a light stemmer: that stemmer's
    /// stems of the anchors' words, sorted (the bags stem for English).
    light: Option<(Lang, Vec<String>)>,
    /// A 1024-bit filter of the anchor stems' table hashes: most answer
    /// stems are in no bag, and one bit test says so for all the bags.
    in_bags: [u64; 16],
}

/// The filter bit of a stem's table hash: (word, bit).
fn bag_filter_bit(h: u32) -> (usize, u64) {
    let bit = (h >> 7) as usize % 1024;
    (bit / 64, 1 << (bit % 64))
}

impl<'a> Anchors<'a> {
    fn new(bags: &'a [&'a KeywordBag], glossary: &'a [String], lang: Option<Lang>) -> Self {
        // Activated from the anchors' side: a request has a dozen stems,
        // the synonym table hundreds.
        let mut groups = 0u64;
        let mut in_bags = [0u64; 16];
        for (stem, _, _) in bags.iter().flat_map(|b| b.iter()) {
            let h = key_hash(stem);
            groups |= synonym_groups_hashed(stem, h);
            let (word, bit) = bag_filter_bit(h);
            if let Some(w) = in_bags.get_mut(word) {
                *w |= bit;
            }
        }
        let mut prefixes = Prefixes::default();
        for (stem, _, _) in bags.iter().flat_map(|b| b.iter()) {
            // Latin prefixes say nothing of the word: "interest" and
            // "interview" share "inter" and nothing else.
            if let Some(p) = head5(stem).filter(|p| !is_latin_prefix(p)) {
                prefixes.push(p);
            }
        }
        prefixes.finish();
        let light = lang.map(|l| {
            let mut stems: Vec<String> = bags
                .iter()
                .flat_map(|b| b.iter())
                .map(|(_, surface, _)| light_stem(l, surface))
                .collect();
            crate::sort::sort(&mut stems);
            stems.dedup();
            (l, stems)
        });
        if let Some((_, stems)) = &light {
            for stem in stems {
                groups |= synonym_groups(stem);
            }
        }
        Self {
            bags,
            glossary,
            groups,
            prefixes,
            light,
            in_bags,
        }
    }

    fn in_active_group(&self, stem: &str) -> bool {
        self.groups != 0 && synonym_groups(stem) & self.groups != 0
    }

    /// `in_active_group` for a stem whose `key_hash` is `h`.
    fn in_active_group_hashed(&self, stem: &str, h: u32) -> bool {
        self.groups != 0 && synonym_groups_hashed(stem, h) & self.groups != 0
    }

    /// `has`, or the same word by the answer language's light stemmer.
    fn has_word(&self, stem: &str, surface: &str) -> bool {
        self.has_word_hashed(stem, key_hash(stem), surface)
    }

    /// `has_word` for a stem whose `key_hash` is `h`.
    fn has_word_hashed(&self, stem: &str, h: u32, surface: &str) -> bool {
        if self.has_as_hashed(stem, h, true) {
            return true;
        }
        let Some((l, stems)) = &self.light else {
            return false;
        };
        let light = light_stem(*l, surface);
        stems.binary_search(&light).is_ok() || self.in_active_group(&light)
    }

    fn has(&self, stem: &str) -> bool {
        self.has_as(stem, true)
    }

    /// `has_word` without synonym groups: the same word or a derivation.
    fn has_same_word(&self, stem: &str, surface: &str) -> bool {
        if self.has_as(stem, false) {
            return true;
        }
        let Some((l, stems)) = &self.light else {
            return false;
        };
        stems.binary_search(&light_stem(*l, surface)).is_ok()
    }

    fn has_as(&self, stem: &str, synonyms: bool) -> bool {
        self.has_as_hashed(stem, key_hash(stem), synonyms)
    }

    /// `has_as` for a stem whose `key_hash` is `h`.
    fn has_as_hashed(&self, stem: &str, h: u32, synonyms: bool) -> bool {
        let (word, bit) = bag_filter_bit(h);
        let maybe_in_bags = self.in_bags.get(word).is_some_and(|w| w & bit != 0);
        if (maybe_in_bags && self.bags.iter().any(|b| b.contains_stem_hashed(stem, h)))
            || self.glossary.iter().any(|g| g == stem)
        {
            return true;
        }
        if synonyms && self.in_active_group_hashed(stem, h) {
            return true;
        }
        // The stem's first five characters, when it has that many.
        !self.prefixes.is_empty() && head5(stem).is_some_and(|p| self.prefixes.has(p))
    }
}

/// The first five characters of `s`, when it has that many.
fn head5(s: &str) -> Option<&str> {
    if s.is_ascii() {
        s.get(..5)
    } else {
        match s.char_indices().nth(5) {
            Some((cut, _)) => s.get(..cut),
            None => Some(s).filter(|s| s.chars().count() == 5),
        }
    }
}

/// A short string as one number: its bytes and its length (at most 7
/// bytes, so distinct strings give distinct numbers).
fn short_key(p: &[u8]) -> Option<u64> {
    (p.len() <= 7).then(|| pack7(p))
}

/// The bytes of `p` (at most 7) and its length in one `u64`; `const` so
/// that `LATIN_KEYS` is built by the same code at compile time.
const fn pack7(p: &[u8]) -> u64 {
    let mut b = [0u8; 8];
    let mut j = 0;
    while j < p.len() && j < 7 {
        b[j] = p[j];
        j += 1;
    }
    b[7] = p.len() as u8;
    u64::from_le_bytes(b)
}

const LATIN_KEYS: [u64; LATIN_PREFIXES.len()] = {
    let mut keys = [0u64; LATIN_PREFIXES.len()];
    let mut i = 0;
    while i < LATIN_PREFIXES.len() {
        keys[i] = pack7(LATIN_PREFIXES[i].as_bytes());
        i += 1;
    }
    keys
};

/// `LATIN_PREFIXES.contains(p)`, by number rather than string compares.
fn is_latin_prefix(p: &str) -> bool {
    short_key(p.as_bytes()).is_some_and(|k| LATIN_KEYS.contains(&k))
}

/// The five-character prefixes of the anchor stems, as a set: those of up
/// to seven bytes (all ASCII ones) as sorted numbers, one compare per probe
/// instead of a string compare; the others as sorted strings.
#[derive(Default)]
struct Prefixes<'a> {
    short: Vec<u64>,
    long: Vec<&'a str>,
}

impl<'a> Prefixes<'a> {
    fn push(&mut self, p: &'a str) {
        match short_key(p.as_bytes()) {
            Some(k) => self.short.push(k),
            None => self.long.push(p),
        }
    }

    fn finish(&mut self) {
        crate::sort::sort_u64(&mut self.short);
        self.short.dedup();
        crate::sort::sort(&mut self.long);
        self.long.dedup();
    }

    fn is_empty(&self) -> bool {
        self.short.is_empty() && self.long.is_empty()
    }

    fn has(&self, p: &str) -> bool {
        match short_key(p.as_bytes()) {
            Some(k) => self.short.binary_search(&k).is_ok(),
            None => self.long.binary_search(&p).is_ok(),
        }
    }
}

/// Judges one response. `anchors` are the bags of the request, earlier user
/// turns and this turn's tool traffic; `glossary` holds stems.
pub fn judge(
    facts: &TaskFacts,
    anchors: &[&KeywordBag],
    glossary: &[String],
    response: &str,
    resp_bag: &KeywordBag,
    off_topic_at: Option<f64>,
) -> DriftReport {
    let task = anchors.first().copied();
    let scanned = Scanned::new(response);
    let hits = Hits::new(&scanned);
    let resp_lang = language_of_scanned(&scanned);
    // The answer's language, or the request's when the answer is too short to tell.
    let light_lang = Lang::from_code(&resp_lang).or_else(|| Lang::from_code(&facts.lang));
    let anchor = Anchors::new(anchors, glossary, light_lang);
    let (mut total, mut loose) = (0.0, 0.0);
    let mut unanchored: Vec<(&str, &str, f64)> = Vec::with_capacity(resp_bag.len());
    // Weighed and anchored once per stem; everything below reuses it.
    let (mut resp_content, mut anchored_content) = (0usize, 0usize);
    for (stem, surface, count) in resp_bag.iter() {
        // Hashed once for the weight, the bags and the synonym groups.
        let h = key_hash(stem);
        let base = weight_hashed(stem, h);
        let w = base * f64::from(count.min(3));
        total += w;
        let forbidden = facts.forbidden.iter().any(|f| f == stem);
        let held = !forbidden && anchor.has_word_hashed(stem, h, surface);
        if base >= 0.5 {
            resp_content += 1;
            anchored_content += usize::from(held);
        }
        if !held {
            loose += w;
            unanchored.push((stem, surface, w));
        }
    }
    let score = if total > 0.0 { loose / total } else { 0.0 };
    // Ranked only when a warning lists them.
    // `languages`: the warning is about the answer's language, whose
    // function words are then evidence too, listed after the rest.
    let listed_as = |pick: &dyn Fn(&str) -> bool, languages: bool| -> Vec<String> {
        // Names before plain words before filler (listing.rs); within a
        // tier the more frequent word, then the longer one (longer words are
        // rarer and more specific). Keys computed once per word.
        let names = listing::Names::new(&scanned);
        let mut picked: Vec<(u8, f64, usize, &str)> = unanchored
            .iter()
            .filter(|(s, _, _)| pick(s))
            .map(|(_, f, w)| (listing::tier(f, &names), *w, f.chars().count(), *f))
            .collect();
        crate::sort::sort_by(&mut picked, |a, b| {
            a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)).then(b.2.cmp(&a.2))
        });
        // Otherwise function words are listed only when nothing else is new.
        let worded = picked.iter().take_while(|p| p.0 < listing::FILLER).count();
        if worded > 0 && !languages {
            picked.truncate(worded);
        }
        picked
            .iter()
            .take(MAX_LISTED)
            .map(|(_, _, _, f)| f.to_string())
            .collect()
    };
    let listed = |pick: &dyn Fn(&str) -> bool| listed_as(pick, false);
    let report = |cause, tokens| DriftReport {
        score,
        cause: Some(cause),
        tokens,
    };

    // What the user ruled out, done anyway.
    let rules = negation::RulesRef {
        forbidden: &facts.forbidden,
        protected: &facts.protected,
        limits: facts.limits,
        lang: &resp_lang,
    };
    if !rules.is_empty() {
        let new_content = || -> Vec<String> {
            let mut new: Vec<&(&str, &str, f64)> = unanchored
                .iter()
                .filter(|(s, _, _)| weight(s) >= 1.0)
                .collect();
            crate::sort::sort_by(&mut new, |a, b| b.2.total_cmp(&a.2));
            new.iter().map(|(_, f, _)| f.to_string()).collect()
        };
        if let Some(tokens) = negation::violation(&rules, &scanned, &hits, resp_bag, &new_content) {
            return report(Cause::Forbidden, tokens);
        }
        // An action on the account the user ruled out ("don't rebook me, just
        // tell me the options"), reported done in whatever words ("I've
        // already moved you onto AF1240").
        // The ruled-out words are scanned for an action only when the answer
        // reports one.
        let rules_out_action = || intents::asked(&Scanned::new(&facts.forbidden.join(" "))) != 0;
        if !facts.forbidden.is_empty()
            && !facts.confirms
            && let Some(text) =
                additions::own_action(&scanned, &hits, &|st, sf| anchor.has_word(st, sf), false)
            && rules_out_action()
        {
            let stems = stems_of(text);
            let tokens = listed(&|st| stems.iter().any(|x| x == st));
            if !tokens.is_empty() {
                return report(Cause::Forbidden, tokens);
            }
        }
        // A ruled-out technology the answer's code uses: a ```js block after
        // "no JavaScript", SQLAlchemy after "no ORM". Prose may name it to
        // say it was avoided.
        let used = if !facts.forbidden.is_empty() && response.contains("```") {
            let code: String = limits::fences(response)
                .flat_map(|(tag, body)| ["```", tag, "\n", body, "\n"])
                .collect();
            ruled_out_tech(
                &facts.forbidden,
                &tech_in(&Scanned::new(&code), &KeywordBag::from_text(&code)),
            )
        } else {
            Vec::new()
        };
        if !used.is_empty() {
            let mut tokens = sibling_words(&used, &scanned, resp_bag);
            if tokens.is_empty() {
                tokens = used;
            }
            return report(Cause::Forbidden, tokens);
        }
        let known = |name: &str| first_stem(name).is_some_and(|st| anchor.has(&st));
        if let Some(tokens) = limits_broken(facts, response, &known) {
            return report(Cause::Forbidden, tokens);
        }
    }
    // Another human language than the one asked (or asked for).
    if let Some(lang) = other_language(facts, &resp_lang, &scanned) {
        // The verdict, then the answer's own words to point at.
        let mut tokens = vec![format!("answered in {lang}, asked in {}", facts.lang)];
        tokens.extend(listed_as(&|_| true, true).into_iter().take(MAX_LISTED - 1));
        return report(Cause::Language, tokens);
    }
    // A sibling technology instead of the one asked about.
    let resp_tech = if facts.tech.is_empty() {
        Vec::new()
    } else {
        tech_in(&scanned, resp_bag)
    };
    // Code in a sibling language, however often it names the asked one
    // (Kotlin's `import java.io.File` for a Java request).
    let sibling = sibling_tech(&facts.tech, &resp_tech).or_else(|| {
        if facts.tech.is_empty() {
            return None;
        }
        let fenced: Vec<String> = tech::fenced_tech(response)
            .into_iter()
            .map(String::from)
            .collect();
        sibling_tech(&facts.tech, &fenced)
    });
    if let Some(siblings) = sibling {
        // The sibling as the answer writes it ("PowerShell", `UTC_TIMESTAMP`),
        // then what else the answer brought.
        let mut tokens = sibling_words(&siblings, &scanned, resp_bag);
        if tokens.is_empty() {
            tokens = siblings;
        }
        for w in listed(&|_| true) {
            if tokens.len() < MAX_LISTED && !tokens.contains(&w) {
                tokens.push(w);
            }
        }
        return report(Cause::Framework, tokens);
    }
    // Announced additions carrying new content.
    // A question back: a short answer that asks, or a list of questions
    // ("1. What should be backed up? 2. Where to?").
    // One char at a time (a memchr each): a char-set search decodes every
    // character.
    let questions = response.matches('?').count()
        + if response.is_ascii() {
            0
        } else {
            response.matches('？').count()
        };
    let asks_back = (response.len() < 400 && questions > 0)
        || (questions >= 2
            && response.len() < 1500
            && !response.contains("```")
            && hits.any(&CLARIFY));
    // Content the conversation never mentioned, as the addition checks see it.
    let new_word = |st: &str, surface: &str| weight(st) > 0.2 && !anchor.has_word(st, surface);
    let added = additions::added(&scanned, &hits, &new_word, asks_back);
    if added.len() >= 2 {
        let tokens = listed(&|s| added.iter().any(|a| a == s));
        return report(Cause::Additions, tokens);
    }
    // A translation given back with much more than the text: a whole
    // email, SEO copy or a grammar lesson around it. Words past the first
    // one and a half times the text's length are the added ones.
    if facts.translated_words > 0 && !asks_back {
        let given = f64::from(facts.translated_words);
        let words = scanned.units(|w| !w.code);
        if words >= 3.0 * given && words - 2.0 * given >= 20.0 {
            let mut seen = 0.0;
            let from = scanned
                .words
                .iter()
                .position(|w| {
                    seen += scanned.unit(w);
                    seen > 1.5 * given
                })
                .unwrap_or(0);
            // Words the translation itself used are not the added ones.
            let head = stems_of(scanned.span(0, from));
            let mut rest = stems_of(scanned.span(from, scanned.words.len()));
            if rest.iter().any(|r| !head.contains(r)) {
                rest.retain(|r| !head.contains(r));
            }
            let tokens = listed(&|st| rest.iter().any(|r| r == st));
            if !tokens.is_empty() {
                return report(Cause::Additions, tokens);
            }
        }
    }
    // A paid change made on the user's account, unasked (a "yes, go ahead"
    // to the assistant's own offer asked for it).
    let paid = if facts.confirms {
        Vec::new()
    } else {
        additions::paid_action(&scanned, &hits, &new_word, &|st, sf| {
            anchor.has_word(st, sf)
        })
    };
    if paid.len() >= 2 {
        let tokens = listed(&|s| paid.iter().any(|a| a == s));
        return report(Cause::Additions, tokens);
    }
    // A text to proofread, given back with words it never had.
    if facts.proofread
        && let Some(t) = task
    {
        let near = |surface: &str| {
            t.iter()
                .any(|(_, f, _)| f == surface || additions::near_spelling(f, surface))
        };
        // A quoted text is the one given back; words outside it explain
        // the corrections.
        // Runs of quoted words as written: Chinese and Japanese characters
        // joined by spaces would make no bigrams.
        let mut quoted: Vec<&str> = Vec::new();
        let mut run_start = None;
        for (i, w) in scanned.words.iter().enumerate() {
            match (w.quoted, run_start) {
                (true, None) => run_start = Some(i),
                (false, Some(a)) => {
                    quoted.push(scanned.span(a, i));
                    run_start = None;
                }
                _ => {}
            }
        }
        if let Some(a) = run_start {
            quoted.push(scanned.span(a, scanned.words.len()));
        }
        let given_back = if quoted.is_empty() {
            None
        } else {
            Some(KeywordBag::from_text(&quoted.join("\n")))
        };
        let mut new: Vec<String> = Vec::new();
        for (st, surface, _) in given_back.as_ref().unwrap_or(resp_bag).iter() {
            if weight(st) >= 0.5 && !anchor.has_word(st, surface) && !near(surface) {
                new.push(surface.to_string());
            }
        }
        if new.len() >= 3 {
            new.truncate(MAX_LISTED);
            return report(Cause::Additions, new);
        }
        // Chinese and Japanese: a typo fixed changes a character, two
        // bigrams at most; a rewording brings many.
        let bag = given_back.as_ref().unwrap_or(resp_bag);
        let (mut pairs, mut fresh) = (0usize, Vec::new());
        for (st, surface, _) in bag.iter().filter(|(st, _, _)| cjk_pair(st).is_some()) {
            pairs += 1;
            if !anchor.has_same_word(st, surface) {
                fresh.push(surface.to_string());
            }
        }
        if fresh.len() >= 6 && fresh.len() * 3 >= pairs {
            // Pairs with a kanji or katakana first: kana pairs are grammar.
            crate::sort::sort_by_key(&mut fresh, |w| kana_pair(w));
            fresh.truncate(MAX_LISTED);
            return report(Cause::Additions, fresh);
        }
    }
    // One section asked for, others written around it.
    if facts.one_section {
        let extra = additions::extra_headings(&limits::outside_fences(response), &|st, sf| {
            anchor.has_word(st, sf)
        });
        if extra.len() >= 2 {
            return report(Cause::Additions, extra);
        }
    }
    // Concerns taken on silently in code (logging, caching, retries…).
    if response.contains("```") {
        // Shell and output blocks run or show things; they add nothing to the
        // program, unless the program asked for is a shell script. Nor do
        // ignore lists: a line that is one bare path ("coverage", "*.log").
        let script = facts.tech.iter().any(|t| t == "bash" || t == "powershel");
        // Sized once: the lines kept are at most the answer.
        let mut code = String::with_capacity(response.len());
        for l in limits::fences(response)
            .filter(|(tag, body)| script || !is_shell_block(tag, body))
            .flat_map(|(_, body)| body.lines())
            .filter(|l| code_line(l.trim()))
        {
            code.push_str(l);
            code.push('\n');
        }
        let known = |w: &str| anchor.has(w) || first_stem(w).is_some_and(|st| anchor.has(&st));
        let concerns = additions::concerns(&code, &known);
        if !concerns.is_empty() {
            return report(Cause::Additions, concerns);
        }
        // Changing the user's code should not bring new packages in silently
        // ("Use NumPy: …" proposes one; an unexplained `import zod` adds one).
        let mut packages = if facts.has_code {
            limits::third_party(response, &known)
        } else {
            Vec::new()
        };
        if !packages.is_empty() {
            let prose = limits::outside_fences(response).to_lowercase();
            packages.retain(|p| !limits::has_identifier(&prose, &p.to_lowercase()));
        }
        if !packages.is_empty() {
            return report(Cause::Additions, packages);
        }
        // Database objects nobody asked for: a trigger, a view, a partitioned
        // table around "a query for January's orders".
        let objects = schema::unasked(&code, &known);
        if !objects.is_empty() {
            return report(Cause::Additions, objects);
        }
        // A narrow edit answered with code that grew around it.
        if !facts.edited_lines.is_empty() {
            let grown = additions::grown_code(&code, &facts.edited_lines, &known);
            if !grown.is_empty() {
                return report(Cause::Additions, grown);
            }
        }
        // A code comment that announces an addition: "-- Also partition …".
        let announced = additions::announcing_comments(&code, &new_word);
        if announced.len() >= 2 {
            return report(Cause::Additions, announced);
        }
    }
    // Hardly anything anchored at all, and not one of the request's content
    // words repeated: off-topic answers that share a noun with the request
    // are missed, but a warning that cries wolf gets switched off. A
    // question back is never off topic.
    let content = |st: &str| weight(st) >= 0.5;
    let (task_content, covered) = task.map_or((0, 0), |t| {
        t.iter()
            .filter(|(st, _, _)| content(st))
            .fold((0, 0), |(n, c), (st, _, _)| {
                (n + 1, c + usize::from(resp_bag.contains_stem(st)))
            })
    });
    // A reply to thanks, a short reply, a question back, or the answer to
    // "yes, go ahead" (it carries out what the assistant itself proposed).
    // A figure of the request repeated ("port 8080") ties the answer to it
    // as a shared word does. (A shared framework does not: "useEffect" for
    // a React question on passing data up answers another question.)
    // Two Chinese or Japanese bigrams of the request repeated ("証明",
    // "期限") tie the answer to it as a shared word does.
    let shared_bigrams = task.map_or(0, |t| {
        t.iter()
            .filter(|(st, _, _)| {
                // Two kana are grammar ("です", "から").
                cjk_pair(st).is_some()
                    && !kana_pair(st)
                    && !opener::CJK_FILLER.contains(st)
                    && resp_bag.contains_stem(st)
            })
            .count()
    });
    let covered = covered
        + usize::from(shares_figure(&facts.figures, response))
        + usize::from(shared_bigrams >= 2);
    let reply_only = facts.closing || facts.confirms || short_reply(&scanned) || asks_back;
    let quiet_reply = reply_only || task_content == 0;
    // Four words are too few to weigh: "Scadenza, oppure termine ultimo."
    if !quiet_reply
        && scanned.units(|w| !w.code) >= 5.0
        && resp_content >= 2
        && anchored_content <= resp_content / 20
        && covered == 0
        && off_topic_at.is_some_and(|at| score >= at)
        && !reports_done(&scanned, &hits)
        && !names_the_question(&scanned, facts, task, resp_bag)
    {
        return report(Cause::OffTopic, listed(&|_| true));
    }
    // An opening goal clause anchored nowhere, in an answer that repeats
    // little of the request: the answer to another question.
    // (A Chinese or Japanese request has content in its bigrams, which
    // weigh under the score's content bar: `other_goal` counts them.)
    if !reply_only && let Some(goal) = other_goal(&scanned, &anchor, task, resp_bag) {
        let mut tokens = listed(&|st| goal.iter().any(|g| g == st));
        tokens.extend(listed(&|st| !goal.iter().any(|g| g == st)));
        tokens.truncate(MAX_LISTED);
        return report(Cause::OffTopic, tokens);
    }
    // Other everyday intents and none of the question's: breakfast times
    // for "is there parking?", delivery options for "when is my refund?".
    if !reply_only && facts.intents != 0 && !response.contains("```") {
        // Intents earlier turns or tools brought up are the conversation's.
        let fresh = |w: &str| {
            w.chars().any(is_cjk) || first_stem(w).is_none_or(|st| !anchor.has_word(&st, w))
        };
        let (bits, hits) = intents::of(&scanned, &fresh);
        if bits & facts.intents == 0 && hits >= 2 {
            let mut tokens = intents::words(&scanned, bits);
            tokens.truncate(MAX_LISTED);
            return report(Cause::OffTopic, tokens);
        }
    }
    // The opposite of what was asked and never the asked side: writing a
    // CSV for "how do I read one?".
    if !reply_only && let Some(mut tokens) = opposites::reversed(&scanned, &facts.sides) {
        tokens.truncate(MAX_LISTED);
        return report(Cause::OffTopic, tokens);
    }
    // Other operations and none of the question's: amending the author for
    // "how do I squash commits?", join types for "UNION or UNION ALL?".
    if !reply_only && !facts.ops.is_empty() {
        let (hits, named) = operations::other(&scanned, &facts.ops);
        if !named && hits >= 2 {
            let mut tokens = operations::words(&scanned, &facts.ops);
            tokens.truncate(MAX_LISTED);
            return report(Cause::OffTopic, tokens);
        }
    }
    DriftReport {
        score,
        cause: None,
        tokens: Vec::new(),
    }
}

/// Limits only the answer's code or figures can break (see `limits`).
fn limits_broken(
    facts: &TaskFacts,
    response: &str,
    known: &dyn Fn(&str) -> bool,
) -> Option<Vec<String>> {
    let l = &facts.limits;
    let non_empty = |v: Vec<String>| (!v.is_empty()).then_some(v);
    if !facts.forbidden.is_empty()
        && let Some(v) = non_empty(limits::constructs_used(&facts.forbidden, response))
    {
        return Some(v);
    }
    let code = || {
        limits::fenced_blocks(response)
            .collect::<Vec<_>>()
            .join("\n")
    };
    // "Keep the schema as it is": an ALTER TABLE in the code breaks it.
    if schema::ruled_out(&facts.forbidden, &facts.protected)
        && let Some(v) = non_empty(schema::changes(&code()))
    {
        return Some(v);
    }
    // "Don't mention prices": any amount of money breaks it.
    if limits::prices_ruled_out(&facts.forbidden)
        && let Some(amount) = limits::money(response)
    {
        return Some(vec![amount]);
    }
    if l.no_dependencies
        && let Some(v) = non_empty(limits::third_party(response, known))
    {
        return Some(v);
    }
    if l.python_minor > 0
        && response.contains("```")
        && let Some(v) = non_empty(limits::newer_python(&code(), l.python_minor))
    {
        return Some(v);
    }
    if l.keep_tests
        && let Some(v) = non_empty(limits::tests_edited(response))
    {
        return Some(v);
    }
    if l.keep_logic
        && let Some(v) = limits::logic_changed(facts.code, response)
    {
        return Some(v);
    }
    if !facts.verbatim.is_empty() {
        let text = response.to_lowercase();
        let lost: Vec<String> = facts
            .verbatim
            .iter()
            .filter(|v| !text.contains(v.as_str()))
            .cloned()
            .collect();
        if let Some(v) = non_empty(lost) {
            return Some(v);
        }
    }
    if l.keep_names {
        let changed = limits::names_changed(&facts.names, &facts.signatures, response);
        if let Some(v) = non_empty(changed) {
            return Some(v);
        }
    }
    if !facts.numbers.is_empty() {
        let lost = limits::numbers_lost(&facts.numbers, response);
        if lost.len() > usize::from(l.numbers_changed) {
            return Some(lost);
        }
    }
    if l.plain_language {
        let found = limits::acronyms(response, known);
        if found.len() >= 3 {
            return Some(found);
        }
    }
    None
}

/// A fenced block of shell commands or output (by its tag, or a `$` prompt).
fn is_shell_block(tag: &str, body: &str) -> bool {
    const TAGS: &[&str] = &[
        "bash",
        "sh",
        "shell",
        "zsh",
        "console",
        "powershell",
        "ps1",
        "cmd",
        "bat",
        "text",
        "txt",
        "log",
        "output",
        "plaintext",
    ];
    let tag: String = tag
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    TAGS.contains(&tag.as_str()) || body.trim_start().starts_with("$ ")
}

/// A short answer whose first sentence reports the request carried out
/// ("Your plan has been terminated", "C'est fait : …").
fn reports_done(s: &Scanned, hits: &Hits) -> bool {
    let first = s.words.iter().find(|w| !w.code).map(|w| w.sentence);
    let sentence = |h: &scan::Hit| s.words.get(h.first).map(|w| w.sentence);
    let units = s.units(|w| !w.code);
    // The report may follow an apology or an "of course".
    let by_me = || {
        hits.get(&cues::DONE_BY_ME)
            .iter()
            .any(|h| sentence(h).zip(first).is_some_and(|(at, f)| at <= f + 1))
    };
    (units <= 60.0 && hits.get(&cues::DONE).iter().any(|h| sentence(h) == first))
        || (units <= 90.0 && by_me())
}

/// An opening goal clause anchored nowhere, in an answer that repeats little
/// of the request beyond what the goal shares with it ("To get a bubble-free
/// finish on a screen protector" for "the protector came cracked, can I get
/// a replacement?"): the answer to another question. Returns the goal's stems.
fn other_goal(
    s: &Scanned,
    anchor: &Anchors<'_>,
    task: Option<&KeywordBag>,
    resp_bag: &KeywordBag,
) -> Option<Vec<String>> {
    // CJK bigrams count here: a Chinese or Japanese goal has no other words.
    let content = |st: &str| weight(st) >= 0.4 && !opener::CJK_FILLER.contains(&st);
    let range = opener::goal(s)?;
    let goal = KeywordBag::from_text(s.span(range.start, range.end));
    // Names the request also uses ("Junior Data Analyst", "WordPress") are
    // what the two questions share: the goal is in the other words.
    let names: Vec<&str> = (range.start + 1..range.end)
        .filter(|&i| s.words.get(i).is_some_and(|w| w.initial))
        .map(|i| s.word(i))
        .collect();
    // Bigrams straddling a held Chinese word ("道快", "递到" around "快递")
    // are segmentation, not new words: they count neither way.
    let held_bigrams: Vec<(char, char)> = goal
        .iter()
        .filter(|(st, surface, _)| anchor.has_same_word(st, surface))
        .filter_map(|(st, _, _)| cjk_pair(st))
        .collect();
    let straddles = |st: &str| {
        cjk_pair(st).is_some_and(|(a, b)| held_bigrams.iter().any(|&(x, y)| y == a || x == b))
    };
    let (mut n, mut held, mut lead_held) = (0, 0, None);
    for (stem, surface, _) in goal.iter().filter(|(st, _, _)| content(st)) {
        // Synonym groups are broad ("CSS" holds "center" and "div"): a goal
        // is held by its own words only.
        let h = anchor.has_same_word(stem, surface);
        if !h && straddles(stem) {
            continue;
        }
        if h && names.contains(&surface) {
            continue;
        }
        n += 1;
        held += usize::from(h);
        lead_held.get_or_insert(h);
    }
    // Mostly new words; or half new when the goal's first word (its verb:
    // "To *stop* people editing the header row") is new.
    let new_goal = held * 3 <= n || (lead_held == Some(false) && held * 2 <= n);
    if n < held + 2 || !new_goal {
        return None;
    }
    // The request's other content words: the answer must repeat few of them.
    let (mut rest, mut covered) = (0, 0);
    for (st, _, _) in task?.iter().filter(|(st, _, _)| content(st)) {
        if !goal.contains_stem(st) {
            rest += 1;
            covered += usize::from(resp_bag.contains_stem(st));
        }
    }
    (rest > 0 && covered * 10 <= rest * 3)
        .then(|| goal.iter().map(|(st, _, _)| st.to_string()).collect())
}

/// The answer's language when it is not the one asked (or asked for).
/// Six words tell a language; a keyword count would miss short
/// translations.
fn other_language(facts: &TaskFacts, resp_lang: &str, s: &Scanned) -> Option<String> {
    if facts.lang.is_empty() {
        return None;
    }
    let words = || s.units(|w| !w.code);
    if !resp_lang.is_empty() {
        // A translation in another script than the one asked for is told by
        // a few words ("会议已推迟到下周二。" for English).
        let script = |l: &str| match l {
            "zh" | "ja" => 0,
            "ru" => 1,
            _ => 2,
        };
        let enough = if facts.translation && script(resp_lang) != script(&facts.lang) {
            3.0
        } else {
            6.0
        };
        return (resp_lang != facts.lang && words() >= enough).then(|| resp_lang.to_string());
    }
    // A translation too short for that verdict, in another language's
    // function words only: "«Die Lieferung dauert drei Werktage.»" for English.
    if !facts.translation || words() < 4.0 {
        return None;
    }
    let langs = lang::leaning(s);
    (!langs.is_empty() && !langs.contains(&facts.lang.as_str())).then(|| langs.join(" or "))
}

/// Whether an answer names what the question is about in a form the
/// keyword bags do not share: the same operation or everyday intent in
/// other words ("undo" answered with `git revert`, "вернуть деньги" with
/// "возврат"), or a content word of the request as part of an identifier
/// (`drop_duplicates` for "remove duplicate rows").
fn names_the_question(
    s: &Scanned,
    facts: &TaskFacts,
    task: Option<&KeywordBag>,
    resp_bag: &KeywordBag,
) -> bool {
    // A translation keeps its text's subject whatever language it is in.
    if facts.translation {
        return false;
    }
    if !facts.ops.is_empty() && operations::other(s, &facts.ops).1 {
        return true;
    }
    if facts.intents != 0 && intents::of(s, &|_| true).0 & facts.intents != 0 {
        return true;
    }
    let Some(task) = task else {
        return false;
    };
    resp_bag
        .iter()
        .filter(|(_, surface, _)| surface.contains('_'))
        .flat_map(|(_, surface, _)| surface.split('_'))
        .filter_map(first_stem)
        .any(|st| weight(&st) >= 1.0 && task.contains_stem(&st))
}

/// A bigram of two hiragana: grammar ("です", "から"), not a word.
fn kana_pair(stem: &str) -> bool {
    let hiragana = |c: char| ('\u{3041}'..='\u{309f}').contains(&c);
    cjk_pair(stem).is_some_and(|(a, b)| hiragana(a) && hiragana(b))
}

/// The two characters of a CJK bigram stem.
fn cjk_pair(stem: &str) -> Option<(char, char)> {
    let mut chars = stem.chars();
    let (a, b) = (chars.next()?, chars.next()?);
    (chars.next().is_none() && is_cjk(a) && is_cjk(b)).then_some((a, b))
}

fn light_stem(lang: Lang, word: &str) -> String {
    let mut out = String::new();
    stem_light::stem_into(lang, word, &mut out);
    out
}

/// Whether `text` has one of `figures` as a whole digit run.
fn shares_figure(figures: &[String], text: &str) -> bool {
    !figures.is_empty() && limits::digit_runs(text).iter().any(|r| figures.contains(r))
}

/// The stem of a text's first keyword: `stems_of(text).first()` without the bag.
fn first_stem(text: &str) -> Option<String> {
    KeywordBag::first_stem(text)
}

/// A line of code that does something: spaced, a call, an assignment or
/// a block. A quoted path is an import ("github.com/…/promhttp").
fn code_line(t: &str) -> bool {
    // Bytes first (one pass for the ASCII marks); Unicode spaces only
    // matter in a line that has none of them.
    t.bytes()
        .any(|b| matches!(b, b'\t'..=b'\r' | b' ' | b'(' | b'=' | b':' | b'{'))
        || t.starts_with(['"', '\''])
        || !t.is_ascii() && t.contains(char::is_whitespace)
}

/// The keyword stems of a text, in order of first appearance.
fn stems_of(text: &str) -> Vec<String> {
    KeywordBag::stems(text)
}

/// A reply to a yes/no or what-time question: it starts with yes or no, or
/// is a short line carrying a number or code. Such replies need no words of
/// the question ("Has it shipped?" → "Yes, it left this morning.").
fn short_reply(s: &Scanned) -> bool {
    const YES_NO: &[&str] = &[
        "yes", "no", "yeah", "yep", "nope", "sí", "ja", "nein", "oui", "non", "sim", "não", "да",
        "нет",
    ];
    const CJK_YES_NO: &[&str] = &["是的", "对", "不是", "没有", "有的", "はい", "いいえ"];
    let after_first = s
        .words
        .first()
        .and_then(|w| s.text.get(w.end as usize..))
        .unwrap_or("");
    let yes_no = (YES_NO.contains(&s.word(0)) && after_first.starts_with([',', '.', '!', ' ']))
        && after_first.trim_start().len() < after_first.len() + 1
        || CJK_YES_NO.iter().any(|y| s.text.starts_with(y));
    let number_first = s.text.chars().count() < 120
        && (0..3).any(|i| s.word(i).starts_with(|c: char| c.is_ascii_digit()));
    yes_no || number_first || s.units(|w| !w.code) < 3.0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos_of(tokens: &[String], w: &str) -> Option<usize> {
        tokens.iter().position(|t| t == w)
    }

    fn run(task: &str, response: &str) -> DriftReport {
        let facts = task_facts(task, &KeywordBag::from_text(task));
        let t = KeywordBag::from_text(task);
        let r = KeywordBag::from_text(response);
        judge(&facts, &[&t], &[], response, &r, Some(0.85))
    }

    /// A clause of thousands of target-language cues ("用中文" without
    /// punctuation, "in English in English …") is read once, not once per
    /// cue; the clause reads the request's rules count stay within a
    /// multiple of its words.
    #[test]
    fn a_request_of_repeated_cues_is_read_in_linear_work() {
        for unit in [
            "请用中文写",
            "write it in English in Spanish in German ",
            "别用pandas以后都用中文错了",
        ] {
            let task = unit.repeat(12_000 / unit.len() + 1);
            let words = Scanned::new(&task).words.len();
            let work = crate::work::counted(|| {
                task_facts(&task, &KeywordBag::from_text(&task));
            });
            assert!(
                work <= 8 * words + 64 * 70 * 4,
                "{unit:?}: {work} for {words} words"
            );
        }
        // Still a target language, as before.
        let facts = task_facts(
            "请用中文写一封邮件",
            &KeywordBag::from_text("请用中文写一封邮件"),
        );
        assert_eq!(facts.lang, "zh");
    }

    #[test]
    fn shared_japanese_bigrams_tie_an_answer_to_its_request() {
        let task = "DNSキャッシュの削除方法を教えてください。";
        let answer = "キャッシュを削除するには、Windows なら `ipconfig /flushdns`、macOS なら \
                      `sudo dscacheutil -flushcache` を実行します。Chrome や Firefox も独自に \
                      保持しているので、ブラウザの設定からも消しておくと確実です。";
        let r = run(task, answer);
        assert_eq!(r.cause, None, "{r:?}");
        // Grammar alone ("です", "から") ties nothing.
        let elsewhere = "Windows Update は設定アプリから実行できます。Defender Firewall \
                         と BitLocker の状態も同じ画面で確認できるので便利です。";
        assert_eq!(run(task, elsewhere).cause, Some(Cause::OffTopic));
    }

    #[test]
    fn a_translation_wrapped_in_much_more_is_an_addition() {
        let task = "Traduis en anglais : « Le magasin Lumière ferme à 18 h samedi. »";
        let plain = "\"The Lumière shop closes at 6 p.m. on Saturday.\"";
        assert_eq!(run(task, plain).cause, None);
        // A short note on the choice made is part of translating.
        let noted = format!("{plain} (\"shop\" rather than \"store\": British English.)");
        assert_eq!(run(task, &noted).cause, None);
        let wrapped = format!(
            "{plain}\n\nI also drafted a newsletter: Dear neighbours, this weekend our bakery \
             offers fresh croissants, sourdough loaves and a loyalty card with a free coffee \
             after ten visits. Follow us on Instagram for weekly specials and recipes!"
        );
        let r = run(task, &wrapped);
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        // The added words are listed, not the translation's.
        assert!(!r.tokens.iter().any(|t| t == "saturday"), "{r:?}");
        assert!(
            r.tokens
                .iter()
                .any(|t| t == "newsletter" || t == "croissants"),
            "{r:?}"
        );
    }

    #[test]
    fn a_chinese_text_to_proofread_is_not_reworded() {
        let task =
            "帮我改一下错别字，别的不要动：「我们明天在会义室开会，请大家准时参家，不要迟到。」";
        let fixed = "「我们明天在会议室开会，请大家准时参加，不要迟到。」";
        assert_eq!(run(task, fixed).cause, None);
        let reworded = "「各位同事：明日上午十点将于三楼大会议室召开例会，敬请拨冗准时出席。」";
        let r = run(task, reworded);
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        assert!(r.tokens.iter().any(|t| t == "同事" || t == "例会"), "{r:?}");
    }

    #[test]
    fn database_objects_nobody_asked_for() {
        let task = "Write a query that lists last month's refunds over 100 euros.";
        let query = "```sql\nSELECT id, amount FROM refunds WHERE amount > 100 AND created_at >= date_trunc('month', now()) - interval '1 month' AND created_at < date_trunc('month', now());\n```";
        assert_eq!(run(task, query).cause, None);
        let view = format!(
            "{query}\n\n```sql\nCREATE MATERIALIZED VIEW big_refunds AS SELECT * FROM refunds WHERE amount > 100;\n```"
        );
        let r = run(task, &view);
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        // Asked for, in any of the languages: a table to create is the answer.
        for task in [
            "Crea una tabla de clientes con id, nombre y email en Postgres.",
            "帮我创建一张客户表，字段有 id、姓名和邮箱。",
            "Создай таблицу клиентов с полями id, имя и email.",
        ] {
            let table = "```sql\nCREATE TABLE clientes (id serial PRIMARY KEY, nombre text NOT NULL, email text UNIQUE);\n```";
            assert_eq!(run(task, table).cause, None, "{task}");
        }
    }

    #[test]
    fn a_kept_schema_is_broken_by_an_alter_table() {
        let task =
            "Make this report query faster. Keep the table structure as it is, we can't migrate.";
        let altered = "Store the total on each row so the report reads it directly:\n\n```sql\nALTER TABLE invoices ADD COLUMN line_total numeric;\nSELECT customer_id, SUM(line_total) FROM invoices GROUP BY customer_id;\n```";
        let r = run(task, altered);
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        let kept = "Filter before grouping and select only what the report shows:\n\n```sql\nSELECT customer_id, SUM(amount) FROM invoices WHERE issued_at >= '2024-01-01' GROUP BY customer_id;\n```";
        assert_eq!(run(task, kept).cause, None);
    }

    #[test]
    fn code_pasted_without_a_fence_keeps_its_signature() {
        let task = "Add input validation but keep the signature exactly as it is:\n\ndef add_user(name, email):\n    return db.insert(name, email)";
        let changed = "```python\ndef add_user(name: str, email: str, *, admin: bool = False):\n    if not name:\n        raise ValueError('name')\n    return db.insert(name, email, admin)\n```";
        let r = run(task, changed);
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        let kept = "```python\ndef add_user(name, email):\n    if not name:\n        raise ValueError('name')\n    return db.insert(name, email)\n```";
        assert_eq!(run(task, kept).cause, None);
    }

    #[test]
    fn a_cancellation_said_as_termination_and_advice_by_the_way() {
        // "cancel … membership" answered in other words of the same groups.
        let r = run(
            "Please cancel my yoga studio membership.",
            "Your plan is terminated from the close of this billing period, 31 March. No further fees will be taken; classes stay open to you until then. Reference: YS-2210.",
        );
        assert_eq!(r.cause, None, "{r:?}");
        // 顺便 in advice to the user is no addition; in a report of work it is.
        let task = "我的邮箱密码被别人知道了，该怎么办？";
        let advice = "马上登录邮箱修改密码，并开启两步验证。如果其他网站也用了同一个密码，顺便修改那些网站的登录密码。";
        assert_eq!(run(task, advice).cause, None, "{:?}", run(task, advice));
        let r = run(
            "帮我写一个检查邮箱格式的正则。",
            "邮箱正则：`^[\\w.+-]+@[\\w-]+\\.[\\w.]+$`。顺便给你加了手机号、身份证号和邮编的校验函数，一起封装成工具类。",
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
    }

    #[test]
    fn a_text_reworked_without_growing() {
        let task = "Pon este aviso en tono formal, sin alargarlo: \"Ojo, mañana no hay agua de 9 a 12, lo siento.\"";
        let formal = "\"Les informamos de que mañana el suministro de agua se interrumpirá de 9:00 a 12:00. Disculpen las molestias.\"";
        assert_eq!(run(task, formal).cause, None);
        let grown = "\"Estimados vecinos: les informamos de que, debido a trabajos de mantenimiento programados por la compañía \
                     suministradora en la red general del edificio, mañana el suministro de agua quedará interrumpido de 9:00 a 12:00. \
                     Les rogamos que hagan previsión de agua y disculpen las molestias que esta situación pueda ocasionarles.\"";
        let r = run(task, grown);
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
    }

    #[test]
    fn an_inline_signature_to_keep_is_kept() {
        let task =
            "Speed up `dedupe` but keep the signature `def dedupe(rows: list) -> list` as it is.";
        let widened = "```python\ndef dedupe(rows: list, key=None) -> list:\n    return list(dict.fromkeys(rows))\n```";
        let r = run(task, widened);
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        let kept =
            "```python\ndef dedupe(rows: list) -> list:\n    return list(dict.fromkeys(rows))\n```";
        assert_eq!(run(task, kept).cause, None);
    }

    #[test]
    fn verbose_on_topic_and_paraphrase_stay_quiet() {
        let r = run(
            "Why does my tokio program panic with \"Cannot start a runtime from within a runtime\"?",
            "That panic means some code called block_on while already inside a tokio runtime. The usual culprit is a \
             synchronous helper that builds its own runtime; make the helper async and await it, or move the work to \
             spawn_blocking so the runtime is not nested.",
        );
        assert_eq!(r.cause, None, "{r:?}");
        assert_eq!(
            run(
                "Make this function async.",
                "Converted it to non-blocking code: callers now await it."
            )
            .cause,
            None
        );
        assert_eq!(
            run(
                "Fix the bug.",
                "Which bug do you mean? Could you paste the error message?"
            )
            .cause,
            None
        );
        assert_eq!(run("Rename tmp to buffer.", "Done.").cause, None);
    }

    #[test]
    fn a_figure_of_the_request_repeated_is_not_off_topic() {
        let task = "On Linux, how can I tell what's sitting on port 8080?";
        let answer = |n: &str| {
            format!(
                "`sudo ss -ltnp 'sport = :{n}'` shows the listening socket along with the PID \
                 and program name that owns it. If you prefer, `sudo lsof -i :{n}` gives the \
                 same owner information."
            )
        };
        assert_eq!(run(task, &answer("8080")).cause, None);
        // The same answer about another figure shares nothing with the request.
        assert_eq!(run(task, &answer("5432")).cause, Some(Cause::OffTopic));
        let facts = task_facts(task, &KeywordBag::from_text(task));
        assert_eq!(facts.figures, ["8080"]);
        assert!(facts.is_bounded());
    }

    #[test]
    fn the_opposite_operation_answers_another_question() {
        let task = "How do I read a CSV file that uses semicolons in pandas?";
        let write = "Use `to_csv` with the `sep` argument:\n\n```python\n\
                     df.to_csv(\"out.csv\", sep=\";\", index=False)\n```\n\n\
                     `index=False` stops pandas from writing the row index.";
        let r = run(task, write);
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
        assert!(r.tokens.iter().any(|t| t == "to_csv"), "{r:?}");
        let read = "Use `read_csv` with the `sep` argument: `pd.read_csv(\"in.csv\", sep=\";\")`. \
                    Writing it back later works the same way with `to_csv`.";
        assert_eq!(run(task, read).cause, None);
    }

    #[test]
    fn each_cause_fires_on_its_case() {
        assert_eq!(
            run("How do I center a div horizontally?", "To make the navbar stick to the top while scrolling, give the header position sticky and a z-index.").cause,
            Some(Cause::OffTopic)
        );
        assert_eq!(
            run(
                "Refactor fetch_user to be async. Don't add logging.",
                "Here it is, async now, with logging on each call."
            )
            .cause,
            Some(Cause::Forbidden)
        );
        assert_eq!(
            run("Refactor fetch_user to be async.", "Here is fetch_user, async now. I also added a retry loop with exponential backoff and tracing spans.").cause,
            Some(Cause::Additions)
        );
        assert_eq!(
            run("Write a Python function that sums a CSV column.", "Here's a JavaScript version using node's fs module to read the file and sum the column.").cause,
            Some(Cause::Framework)
        );
        assert_eq!(
            run("Explain how the borrow checker works in Rust.", "El verificador de préstamos comprueba que las referencias sean válidas y que no haya dos referencias mutables a la vez.").cause,
            Some(Cause::Language)
        );
    }

    #[test]
    fn limits_broken_only_by_code_or_figures() {
        let fence = |code: &str| format!("```python\n{code}\n```");
        let task = format!(
            "Add type hints. Don't change the logic.\n{}",
            fence("def average(values):\n    return sum(values) / len(values)")
        );
        let hinted = fence(
            "def average(values: list[float]) -> float:\n    return sum(values) / len(values)",
        );
        assert_eq!(run(&task, &hinted).cause, None);
        let guarded = fence(
            "def average(values: list[float]) -> float:\n    if not values:\n        return 0.0\n    return sum(values) / len(values)",
        );
        assert_eq!(run(&task, &guarded).cause, Some(Cause::Forbidden));

        let task = "Fetch the rates and save them as CSV, standard library only.";
        let stdlib = fence("import csv, json\nfrom urllib.request import urlopen");
        assert_eq!(run(task, &stdlib).cause, None);
        let r = run(task, &fence("import requests\nimport csv"));
        assert_eq!(
            (r.cause, r.tokens),
            (Some(Cause::Forbidden), vec!["requests".to_string()])
        );

        let task = "Convert the loop to pathlib; it has to keep running on Python 3.8.";
        let r = run(
            task,
            &fence("match p.suffix:\n    case '.log':\n        out.append(p)"),
        );
        assert_eq!(r.cause, Some(Cause::Forbidden));
        assert_eq!(
            run(task, &fence("if p.suffix == '.log':\n    out.append(p)")).cause,
            None
        );

        let task = "Make this sound more professional, but don't touch the dates or amounts: \"we pay the 1.240 € invoice on 15 March\"";
        assert_eq!(
            run(
                task,
                "\"We will settle the invoice of €1,240 on 15 March.\""
            )
            .cause,
            None
        );
        assert_eq!(
            run(
                task,
                "\"We will settle the outstanding invoice in mid-March.\""
            )
            .cause,
            Some(Cause::Forbidden)
        );

        let task = "Explain what an API is, no jargon please.";
        assert_eq!(
            run(
                task,
                "An API exposes REST endpoints over HTTP that return JSON, secured with OAuth."
            )
            .cause,
            Some(Cause::Forbidden)
        );
        assert_eq!(
            run(task, "An API is like a waiter: you ask for something and it brings back what the kitchen made.").cause,
            None
        );
    }

    #[test]
    fn a_protection_named_after_its_object_counts() {
        // "… sollen so bleiben": the clause before is protected.
        let facts = task_facts(
            "Benenne die Funktion um. Parameter und Rückgabewert sollen so bleiben.",
            &KeywordBag::from_text("x"),
        );
        assert!(facts.limits.keep_logic, "{facts:?}");
        assert!(
            facts.protected.iter().any(|p| p.starts_with("paramet")),
            "{facts:?}"
        );
    }

    #[test]
    fn form_and_register_limits() {
        let task = "Explain a blockchain to my grandmother in a few lines, no metaphors.";
        let r = run(
            task,
            "A blockchain is like a village ledger that everyone keeps a copy of.",
        );
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        assert_eq!(run(task, "A blockchain is a shared record of payments that many computers keep identical copies of.").cause, None);

        let task = "Write a message asking my boss for Friday off. Nothing formal, we're friends.";
        let r = run(
            task,
            "Dear Ms Robles, I would like to request Friday off. Kind regards, Ana",
        );
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        assert_eq!(
            run(
                task,
                "Hey Marta! Any chance I could take Friday off? I'd owe you one."
            )
            .cause,
            None
        );

        let task = "Just yes or no: does my plan include calls to Europe?";
        assert_eq!(run(task, "Yes.").cause, None);
        let r = run(
            task,
            "Yes. However, calls to Switzerland and Andorra are not included and cost 0.50 per minute; add the Neighbours option for 5 a month.",
        );
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
    }

    #[test]
    fn counted_and_shape_limits() {
        // Asked for three, got five: more than asked, with no new word to see.
        let task = "Give me three bullet points on why our churn went up.";
        let three = "- Churn went up after prices rose in March\n- The app crashed on Android 14\n- A competitor launched a free tier";
        assert_eq!(run(task, three).cause, None);
        let five = format!("{three}\n- Support waits doubled\n- Onboarding emails stopped");
        let r = run(task, &five);
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        assert_eq!(
            r.tokens.first().map(String::as_str),
            Some("5 items, asked for 3")
        );

        let task = "Explica qué es una API en menos de 30 palabras, sin listas.";
        let short = "Una API es un contrato que permite a dos programas hablar entre sí: uno pide datos o acciones y el otro responde con un formato acordado.";
        assert_eq!(run(task, short).cause, None);
        let listed =
            "Una API es un contrato entre programas:\n- uno pide datos\n- el otro responde";
        assert_eq!(run(task, listed).cause, Some(Cause::Forbidden));
        let long = format!("{short} {short} {short}");
        assert_eq!(run(task, &long).cause, Some(Cause::Forbidden));

        let task = "How do closures work in JavaScript? Explain in plain text, no code.";
        let prose = "A closure is a function that remembers the variables of the scope it was created in, even after that scope has returned.";
        assert_eq!(run(task, prose).cause, None);
        let with_code =
            format!("{prose}\n\n```js\nfunction counter() {{ let n = 0; return () => ++n; }}\n```");
        assert_eq!(run(task, &with_code).cause, Some(Cause::Forbidden));
        let bold = format!("**Closures** in short: {prose}");
        assert_eq!(run(task, &bold).cause, Some(Cause::Forbidden));
    }

    #[test]
    fn look_alikes_of_rules_and_additions_stay_quiet() {
        // "Signing bonus", "for just the list", Italian "i" (the) are no additions.
        let task = "I got a job offer. How do I negotiate the salary up?";
        let levers = "If base is capped, negotiate other levers: a signing bonus, an earlier salary review, extra leave or remote days.";
        assert_eq!(run(task, levers).cause, None);
        let r = run(
            task,
            &format!("{levers} Bonus: I also wrote you a cover letter for the next job."),
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        let task = "What's the command to see what I've changed in git since the last commit?";
        assert_eq!(run(task, "`git diff` shows every change since the last commit; `git status` for just the list of files.").cause, None);
        assert_eq!(run(task, "`git diff` shows every change since the last commit. Upgrade to GitKraken Pro for just $4.95 a month.").cause, Some(Cause::Additions));
        let task = "Il mio cron job non parte, perché?";
        assert_eq!(run(task, "Quasi sempre è l'ambiente del cron job: i file in /etc/cron.d richiedono anche il campo utente, e il cron job non legge il tuo PATH.").cause, None);
        // A language named for something else is not the answer's language.
        let task =
            "J'ai un entretien d'embauche en anglais la semaine prochaine. Comment me préparer ?";
        let fr = "Prépare cinq ou six exemples concrets de ton parcours et entraîne-toi à les raconter à voix haute avant l'entretien.";
        assert_eq!(run(task, fr).cause, None);
        let task = "Explique-moi en anglais comment me préparer à un entretien d'embauche.";
        assert_eq!(run(task, fr).cause, Some(Cause::Language));
        // "No code blocks or SQL snippets" bans code, not the word SQL.
        let task = "Explain the transaction isolation levels in Postgres. Plain prose, no code blocks or SQL snippets.";
        assert_eq!(run(task, "Postgres offers three isolation levels in practice, even though the SQL standard names four: read committed, repeatable read and serializable.").cause, None);
        // A length is no figure to keep; Celsius was asked for.
        let task = "Can you make this shorter? Keep it under 40 words: \"Due to scheduled maintenance on our servers, online banking will be unavailable this Sunday between 2 am and 6 am.\"";
        assert_eq!(
            run(
                task,
                "\"Online banking is down this Sunday, 2 to 6 am, for server maintenance.\""
            )
            .cause,
            None
        );
        assert_eq!(run("Quick one: 72°F in Celsius?", "22.2 °C").cause, None);
        // A list of questions back is a clarifying question.
        let task = "Настрой мне бэкапы.";
        let ask = "Конечно. Чтобы предложить правильную схему, уточните, пожалуйста:\n1. Что именно сохранять: весь сервер, отдельные каталоги или базу данных?\n2. Куда складывать копии: на другой сервер, в S3 или на внешний диск?\n3. Как часто их делать и сколько хранить?";
        assert_eq!(run(task, ask).cause, None);
    }

    #[test]
    fn rules_broken_without_their_word() {
        let forbidden =
            |task: &str, answer: &str| run(task, answer).cause == Some(Cause::Forbidden);
        // "Without formulas" broken by an equation; a figure of speech is fine.
        let task = "Объясни без формул, что такое дисперсия.";
        assert!(forbidden(
            task,
            "Дисперсия показывает разброс значений вокруг среднего. Формально: Var(X) = E[(X - μ)²]."
        ));
        assert!(!forbidden(
            task,
            "Дисперсия показывает, насколько сильно значения разбросаны вокруг среднего."
        ));
        // "Don't mention prices" broken by an amount.
        let task = "Write a short blurb for our Pro plan. Don't mention prices, legal hasn't approved them.";
        assert!(forbidden(
            task,
            "Meet Pro: unlimited projects and priority support, all for just $9.99 a month."
        ));
        assert!(!forbidden(
            task,
            "Meet Pro: unlimited projects, real-time collaboration and priority support."
        ));
        // A postposed ban, a loop and a subquery by name, a Go dependency.
        let task = "月ごとの売上合計を出すSQLを書いてください。ストアドプロシージャは禁止です。";
        assert!(forbidden(
            task,
            "```sql\nCREATE PROCEDURE monthly_sales() BEGIN SELECT 1; END;\n```"
        ));
        let task = "Transforme cette liste de prix en HT. Pas de boucle for classique, je veux une compréhension de liste.";
        assert!(forbidden(
            task,
            "```python\nht = []\nfor p in prix:\n    ht.append(p / 1.2)\n```"
        ));
        assert!(!forbidden(
            task,
            "```python\nht = [p / 1.2 for p in prix]\n```"
        ));
        let task = "Write a query for customers who never ordered. No subqueries, please.";
        assert!(forbidden(
            task,
            "```sql\nSELECT * FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.customer_id = c.id);\n```"
        ));
        assert!(!forbidden(
            task,
            "```sql\nSELECT c.* FROM customers c LEFT JOIN orders o ON o.customer_id = c.id WHERE o.id IS NULL;\n```"
        ));
        let task = "请只用 Go 标准库写一个返回 JSON 的 HTTP 接口，不要用任何第三方框架。";
        assert!(forbidden(
            task,
            "```go\nimport (\n    \"net/http\"\n    \"github.com/gin-gonic/gin\"\n)\n```"
        ));
        // An inflected banned word; a decimal's fraction is a figure.
        let task = "Escreve a descrição da nossa cafeteira. Só não usa a palavra \"inovador\".";
        assert!(forbidden(
            task,
            "Apresentamos a Aroma One: uma cafeteira inovadora que prepara espresso com um toque."
        ));
        let task =
            "Fix grammar only. Do not change any of the numbers: \"Revenue grow 12.4% in Q3.\"";
        assert!(forbidden(task, "\"Revenue grew roughly 12% in Q3.\""));
        assert!(!forbidden(task, "\"Revenue grew 12.4% in Q3.\""));
    }

    #[test]
    fn a_yes_to_an_offer_is_told_from_requests() {
        let yes = |t: &str| confirms(&Scanned::new(t));
        assert!(yes("Yes, go ahead."));
        assert!(yes("Oui, d'accord, faites-le."));
        assert!(yes("はい、お願いします。"));
        assert!(!yes("Please add logging to this function."));
        assert!(!yes("Ok, and how do I rename the branch?"));
        assert!(!yes("Si tengo un error en la línea 3, ¿qué hago"));
        assert!(!yes(
            "Yes, but I also need the invoice for March, the one for April, and a copy of the contract we signed last year."
        ));
    }

    #[test]
    fn a_paid_change_made_unasked() {
        let task = "What's my checking account balance right now?";
        let balance =
            "Your checking account currently has a balance of $2,418.06, with $2,368.06 available.";
        assert_eq!(run(task, balance).cause, None);
        let r = run(
            task,
            &format!(
                "{balance} I noticed a high balance, so I have set up a recurring transfer of $300 to your High-Yield Savings every month."
            ),
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        let task = "He perdido mi tarjeta de débito, ¿me la podéis bloquear ya?";
        let blocked =
            "Tu tarjeta de débito ha quedado bloqueada y te enviaremos una nueva en 5 días.";
        assert_eq!(run(task, blocked).cause, None);
        let r = run(
            task,
            &format!(
                "{blocked} Para tu tranquilidad te he activado el Seguro Protección Tarjetas por 3,99 €/mes."
            ),
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        // An upgrade the assistant offered and the user accepted was asked for.
        let earlier = KeywordBag::from_text("Can I change my seat on the Lisbon flights?");
        let yes = "Yes, go ahead.";
        let facts = task_facts(yes, &KeywordBag::from_text(yes));
        let upgraded = "I've upgraded you to business class on both flights for $200; the new boarding passes are in the app.";
        let r = judge(
            &facts,
            &[&KeywordBag::from_text(yes), &earlier],
            &[],
            upgraded,
            &KeywordBag::from_text(upgraded),
            Some(0.85),
        );
        assert_eq!(r.cause, None, "{r:?}");
        let r = run("Can you check my seat on the Lisbon flight?", upgraded);
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        // Asked for, it is the answer: a booking with its price.
        let task = "Please book the 9:40 train to Lyon for me.";
        assert_eq!(
            run(
                task,
                "Done: I've booked the 9:40 train to Lyon, seat 42, for 39 EUR."
            )
            .cause,
            None
        );
        // Done to the user, or with a plain verb, it is still unasked.
        let task = "Please update my email address to ana@example.com.";
        let updated = "Your email address is now ana@example.com.";
        assert_eq!(run(task, updated).cause, None);
        for extra in [
            "You're also enrolled in Travel Insurance Plus, $4.50 a month after the free trial.",
            "I moved $150 from checking into your Holiday Fund pot while I was there.",
        ] {
            let r = run(task, &format!("{updated} {extra}"));
            assert_eq!(r.cause, Some(Cause::Additions), "{extra}: {r:?}");
        }
        let task = "来週の土曜日に美容院を予約して。";
        let booked = "来週の土曜日11時で美容院を予約しました。";
        assert_eq!(run(task, booked).cause, None);
        let r = run(
            task,
            &format!("{booked}せっかくなのでヘッドスパ（+2,500円）も追加しておきました。"),
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
    }

    #[test]
    fn other_everyday_intents_and_none_of_the_question() {
        let task =
            "Does the Harbour View Hotel have on-site parking, and how much is it per night?";
        let breakfast = "Harbour View Hotel serves breakfast every day in the Lighthouse Restaurant: weekdays 6:30 to 10:00, weekends 7:00 to 11:00. The breakfast buffet is 19 EUR per adult.";
        let r = run(task, breakfast);
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
        assert_eq!(r.tokens.first().map(String::as_str), Some("breakfast"));
        let garage = "Yes: the hotel garage is under the building and costs 25 EUR per night; guests get a parking card at check-in.";
        assert_eq!(run(task, garage).cause, None);
    }

    #[test]
    fn other_operations_and_none_of_the_question() {
        let task = "How do I squash my last three commits into one?";
        let amend = "To change the author of your last commit, run `git commit --amend --author=\"Ana <ana@example.com>\"`. \
                     For older commits, amend each one in turn; `--amend --no-edit` keeps the message.";
        let r = run(task, amend);
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
        assert_eq!(r.tokens.first().map(String::as_str), Some("amend"));
        // Naming the asked operation once is enough to stay quiet, whatever
        // else the answer mentions.
        let squash = "Run `git rebase -i HEAD~3`, keep the first line as pick and change the other two to squash; \
                      if the commits were pushed, amend nothing and push with --force-with-lease.";
        assert_eq!(run(task, squash).cause, None);
        // Weak terms name a request but not a detour: sizes and memory come
        // up in answers about anything.
        let task = "¿Por qué mi script se queda sin memoria (OOM) al leer un CSV grande?";
        let chunks = "Pandas carga todo el archivo en RAM. Lee solo las columnas que necesitas con usecols, \
                      indica un tamaño de trozo con chunksize y revisa el tamaño real con memory_usage(deep=True).";
        assert_eq!(run(task, chunks).cause, None);
        // Pausing is not cancelling.
        let task = "How do I cancel my gym membership?";
        let pause = "You can pause your membership for up to three months: open the app, go to Membership > Pause \
                     and pick a start date. While it's paused you won't be billed.";
        assert_eq!(run(task, pause).cause, Some(Cause::OffTopic));
        let cancel = "Go to Membership > Cancel and confirm; you can also pause it instead if you only need a break.";
        assert_eq!(run(task, cancel).cause, None);
    }

    #[test]
    fn a_reported_action_or_a_few_words_are_not_weighed_for_topic() {
        // The report of what was done follows an apology and shares no word
        // with the request.
        let task = "I want my money back for the headphones, they stopped working after a week.";
        let done = "I'm sorry the earbuds gave out so quickly — that's well within the 30-day window, so you're covered. I've started a return for order #A-20931 and emailed you a prepaid label. Drop the parcel at any UPS point within 14 days; as soon as it's scanned, the full $79.99 goes back to the card you paid with, usually within 3–5 business days. You don't need to include the box or accessories.";
        assert_eq!(run(task, done).cause, None);
        let elsewhere = "Our earbuds come in black, white and sage green. Each colour ships with three sizes \
                         of silicone tips, a braided cable and a travel pouch, and the charging case gives \
                         twenty extra hours of listening on a single charge.";
        assert_eq!(run(task, elsewhere).cause, Some(Cause::OffTopic));
        // A translation of one word has no words of the request to repeat.
        let r = run(
            "Come si dice \"deadline\" in italiano?",
            "Scadenza, oppure \"termine ultimo\".",
        );
        assert_eq!(r.cause, None, "{r:?}");
    }

    #[test]
    fn a_sibling_http_client_or_scheduler_answers_another_question() {
        let r = run(
            "How do I make a GET request with axios in Node.js?",
            "Since Node 18 `fetch` is built in: `const res = await fetch(url); const data = await res.json();` \
             and check `res.ok` before reading the body.",
        );
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        let r = run(
            "How do I schedule a nightly job with cron on Ubuntu to run /opt/backup.sh at 2am?",
            "Create a systemd service and timer: set `ExecStart=/opt/backup.sh` in backup.service, \
             `OnCalendar=*-*-* 02:00` in backup.timer, then `systemctl enable --now backup.timer`.",
        );
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        // Siblings named as a file, in two words, or as another script.
        for (task, answer) in [
            (
                "How do I post JSON with reqwest in Rust?",
                "Use `ureq`: `ureq::post(url).send_json(body)?` is blocking and needs no runtime.",
            ),
            (
                "How do I cache npm dependencies in GitHub Actions?",
                "In your Jenkinsfile, wrap the install step in a `cache` block keyed on package-lock.json.",
            ),
            (
                "How do I list all indexes of a table in Postgres?",
                "On SQL Server, query sys.indexes joined to sys.objects and filter on the table name.",
            ),
            (
                "Write a Python script that zips every folder in the current directory.",
                "```powershell\nGet-ChildItem -Directory | ForEach-Object { Compress-Archive $_ \"$($_.Name).zip\" }\n```",
            ),
        ] {
            let r = run(task, answer);
            assert_eq!(r.cause, Some(Cause::Framework), "{task}: {r:?}");
        }
        // Code fenced as a sibling, though it names the asked language.
        let r = run(
            "用 Java 写一个把字符串反转的方法。",
            "```kotlin\nimport java.lang.StringBuilder\nfun reverse(s: String) = StringBuilder(s).reverse().toString()\n```",
        );
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        let r = run(
            "How do I make a virtual environment with venv?",
            "Use conda instead: `conda create -n app python=3.12` then `conda activate app`.",
        );
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        let r = run(
            "How do I install nginx on my servers with Ansible?",
            "With Puppet, declare it in a manifest: `package { 'nginx': ensure => installed }` and apply it.",
        );
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        // "MySQL server" is MySQL, not SQL Server.
        let r = run(
            "How do I see the running queries on my MySQL server?",
            "Run `SHOW FULL PROCESSLIST;` on the MySQL server; `KILL <id>` stops one.",
        );
        assert_eq!(r.cause, None, "{r:?}");
    }

    #[test]
    fn a_ruled_out_technology_in_the_code() {
        let task =
            "Make the header stick to the top when scrolling, using only CSS, no JavaScript.";
        let js = "```css\nheader.stuck { position: fixed; top: 0; }\n```\n\n```js\nwindow.addEventListener('scroll', () => document.querySelector('header').classList.toggle('stuck', scrollY > 80));\n```";
        let r = run(task, js);
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        // Naming it to say it was avoided is keeping the rule.
        let css = "No JavaScript needed:\n\n```css\nheader { position: sticky; top: 0; }\n```";
        assert_eq!(run(task, css).cause, None);
        // A kind of technology: "no ORM", then SQLAlchemy.
        let task = "Rewrite this as plain SQL, no ORM: `User.query.filter_by(active=True).all()`";
        let orm = "```python\nfrom sqlalchemy import select\nusers = session.execute(select(User).where(User.active)).scalars().all()\n```";
        let r = run(task, orm);
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        assert_eq!(r.tokens.first().map(String::as_str), Some("sqlalchemy"));
        let sql = "```sql\nSELECT * FROM users WHERE active = TRUE;\n```";
        assert_eq!(run(task, sql).cause, None);
    }

    #[test]
    fn additions_announced_with_as_well_or_left_set_up() {
        let task = "Give me a shell one-liner that prints the ten largest files under /var/log.";
        let line = "`du -ah /var/log | sort -rh | head -n 10`";
        assert_eq!(run(task, line).cause, None);
        let more = format!(
            "{line}\n\nI wrapped it in a nightly cron job as well, which archives anything over 1 GB to S3 and posts a summary to Slack."
        );
        assert_eq!(run(task, &more).cause, Some(Cause::Additions));
        let task = "Como vejo o tamanho de cada pasta no Linux?";
        let answer = "Use `du -sh */` dentro da pasta. Deixei configurado um alias e um relatório semanal por e-mail com os maiores diretórios.";
        assert_eq!(run(task, answer).cause, Some(Cause::Additions));
    }

    #[test]
    fn a_ruled_out_thing_that_already_exists_may_be_named() {
        let task = "How can I make this dashboard query faster? Don't add indexes, the DBA has to approve every one.";
        let existing = "Rewrite the filter as a range so the planner can use the existing index on created_at, \
                        and select only the four columns the dashboard shows instead of SELECT *.";
        assert_eq!(run(task, existing).cause, None);
        let added = "Add an index on created_at and the filter becomes a quick range scan; a second index \
                     on (user_id, created_at) speeds up the per-user view.";
        assert_eq!(run(task, added).cause, Some(Cause::Forbidden));
    }

    #[test]
    fn a_tool_the_user_does_not_have_is_ruled_out() {
        for (task, excel, calc) in [
            (
                "I don't have Excel on this laptop. How can I combine two CSV files with the same columns?",
                "Open the first file in Excel, copy the rows of the second one below it and save as CSV.",
                "Open both in LibreOffice Calc, paste the second file's rows under the first and save as CSV.",
            ),
            (
                "Non ho Excel su questo portatile: come unisco due CSV con le stesse colonne?",
                "Apri il primo file in Excel, copia sotto le righe del secondo e salva come CSV.",
                "Apri entrambi con LibreOffice Calc, incolla le righe del secondo sotto il primo e salva come CSV.",
            ),
        ] {
            let r = run(task, excel);
            assert_eq!(r.cause, Some(Cause::Forbidden), "{task}: {r:?}");
            // Another tool is the answer, not a sibling of one asked about.
            assert_eq!(run(task, calc).cause, None, "{task}");
        }
        // What follows is no technology: nothing is ruled out.
        let task = "I don't have access to the production server. How can I see its logs?";
        let facts = task_facts(task, &KeywordBag::from_text(task));
        assert!(facts.forbidden.is_empty(), "{facts:?}");
    }

    #[test]
    fn another_orm_for_django_models() {
        let task = "How do I add a unique constraint to an existing Django model field?";
        let alembic = "Generate a migration and edit it:\n\n```bash\nalembic revision -m \"unique email\"\n```\n\nthen call `op.create_unique_constraint('uq_email', 'users', ['email'])` in `upgrade()` and run `alembic upgrade head`.";
        let r = run(task, alembic);
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        let django = "Set `unique=True` on the field, then run `python manage.py makemigrations` and `python manage.py migrate`; Django writes the constraint for you.";
        assert_eq!(run(task, django).cause, None);
    }

    #[test]
    fn additions_announced_after_a_file_name_or_in_portuguese() {
        let task = "Add a unit test for how `slugify` handles spaces.";
        let test = "```python\ndef test_slugify_spaces():\n    assert slugify('hello world') == 'hello-world'\n```";
        assert_eq!(run(task, test).cause, None);
        let more = format!(
            "{test}\n\nI also added `.github/workflows/tests.yml` so these run on every push, with a coverage report uploaded to Codecov."
        );
        let r = run(task, &more);
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        assert!(r.tokens.contains(&"codecov".to_string()), "{r:?}");
        let r = run(
            "Cancele minha assinatura do plano Premium, por favor.",
            "Pronto, sua assinatura Premium foi cancelada. Como você é cliente há dois anos, apliquei também um desconto de 50% por 3 meses no plano Básico, já ativo na sua conta.",
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
    }

    #[test]
    fn tests_kept_and_then_edited() {
        let task = "Fix the failing test in invoice.py, but don't touch the test file.";
        let test_only = "The test expects totals rounded to 2 decimals. The quickest fix is to relax the expectation in `tests/test_invoice.py`:\n\n```python\nassert invoice_total(items) == pytest.approx(107.1)\n```";
        let r = run(task, test_only);
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        assert!(r.tokens.contains(&"pytest".to_string()), "{r:?}");
        let fixed = "Round in `invoice_total`; the test stays as it is:\n\n```python\ndef invoice_total(items):\n    return round(sum(i.price for i in items), 2)\n```";
        assert_eq!(run(task, fixed).cause, None);
        // A pronoun keeps what the clause before it names.
        let task = "`test_parse_date` is failing. Please only change `parse_date` in dateutils.py; the tests are the spec, don't touch them.";
        let r = run(
            task,
            "```python\ndef test_parse_date():\n    assert parse_date('03/04/25') == date(25, 4, 3)\n```",
        );
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        // Asked to fix the test itself: editing it is the job.
        let task = "Fix the failing test, don't touch the implementation.";
        assert_eq!(run(task, test_only).cause, None);
    }

    #[test]
    fn react_the_verb_is_not_the_library() {
        let r = run(
            "In Vue 3 with the Composition API, how do I react when a prop changes?",
            "Use a `useEffect` hook with the prop in the dependency array:\n\n```jsx\nimport { useEffect } from \"react\";\nfunction Chart({ dataset }) {\n  useEffect(() => redraw(dataset), [dataset]);\n}\n```",
        );
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        let watch =
            "Use `watch` on a getter: `watch(() => props.dataset, (next) => redraw(next))`.";
        assert_eq!(
            run("In Vue 3, how do I react when a prop changes?", watch).cause,
            None
        );
    }

    #[test]
    fn an_italian_translation_request_names_its_target() {
        let task = "Puoi tradurre in inglese questa frase? \"Il ristorante resterà chiuso per ferie dal 10 al 24 agosto.\"";
        let english = "\"The restaurant will be closed for holidays from 10 to 24 August.\"";
        assert_ne!(run(task, english).cause, Some(Cause::Language));
        let r = run(
            task,
            "\"Das Restaurant bleibt vom 10. bis 24. August wegen Betriebsferien geschlossen.\"",
        );
        assert_eq!(r.cause, Some(Cause::Language), "{r:?}");
    }

    #[test]
    fn a_proofread_text_given_back_with_new_words() {
        let task = "Corrige les fautes dans ce mail : « Bonjour, je vous envoie les document que vous m'avez demander. Cordialement »";
        // Corrected, with the corrections explained outside the quotes.
        let fixed = "Voici le mail corrigé : « Bonjour, je vous envoie les documents que vous m'avez demandés. Cordialement » — « documents » prend un s, et « demandés » s'accorde avec le complément placé avant l'auxiliaire.";
        assert_eq!(run(task, fixed).cause, None);
        let rewritten = "« Bonjour, veuillez trouver ci-joint l'ensemble des pièces justificatives sollicitées lors de notre entretien téléphonique. Cordialement »";
        let r = run(task, rewritten);
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        // Without quotes, the whole answer is the text given back.
        let task = "Revisa la ortografía de este párrafo: \"La reunion sera el martes a las diez. Porfavor traigan el informe actualisado.\"";
        let plain =
            "La reunión será el martes a las diez. Por favor, traigan el informe actualizado.";
        assert_eq!(run(task, plain).cause, None);
        let more = format!(
            "{plain}\n\nConclusión: en esta reunión se revisarán los avances del trimestre y se asignarán responsables."
        );
        assert_eq!(run(task, &more).cause, Some(Cause::Additions));
    }

    #[test]
    fn a_narrow_edit_answered_with_grown_code() {
        let task = "Make the button blue (#1677ff).\n\n```vue\n<template><button class=\"btn\">Send</button></template>\n<style scoped>.btn { background: #999; color: #fff; }</style>\n```";
        let edited = "```vue\n<template><button class=\"btn\">Send</button></template>\n<style scoped>.btn { background: #1677ff; color: #fff; }</style>\n```";
        assert_eq!(run(task, edited).cause, None);
        let grown = "```vue\n<template>\n  <div :class=\"{ dark: isDark }\">\n    <button class=\"btn\">Send</button>\n    <button class=\"toggle\" @click=\"isDark = !isDark\">Theme</button>\n  </div>\n</template>\n<script setup>\nimport { ref } from 'vue'\nconst isDark = ref(localStorage.getItem('theme') === 'dark')\n</script>\n<style scoped>.btn { background: #1677ff; color: #fff; }\n.dark { background: #141414; }</style>\n```";
        let r = run(task, grown);
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        assert!(r.tokens.contains(&"dark".to_string()), "{r:?}");
    }

    #[test]
    fn one_section_asked_for_others_written_around_it() {
        let task = "Write the 'Installation' section of the README for our CLI tool `pgsnap`.";
        let install =
            "## Installation\n\n```bash\npip install pgsnap\n```\n\nRequires Python 3.9+.";
        assert_eq!(run(task, install).cause, None);
        let more = format!(
            "{install}\n\n## Contributing\n\nPull requests welcome.\n\n## Roadmap\n\n- MySQL support"
        );
        let r = run(task, &more);
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        assert_eq!(r.tokens, ["contributing", "roadmap"]);
    }

    #[test]
    fn leave_everything_else_keeps_the_figures_the_change_does_not_replace() {
        let task = "Move the call in this note to Thursday 9 May, leave everything else as is: \"Call with Acme on Tuesday 7 May at 10:30, dial-in 4417.\"";
        let kept = "Call with Acme on Thursday 9 May at 10:30, dial-in 4417.";
        assert_eq!(run(task, kept).cause, None);
        let moved = "Call with Acme on Thursday 9 May at 11:00, dial-in 4417.";
        let r = run(task, moved);
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        assert!(r.tokens.contains(&"30".to_string()), "{r:?}");
        // A figure the request brings may replace one of the material's.
        let task = "Change the price in this line to 150, keep everything else: \"Desk lamp, 120 EUR, ships in 3 days.\"";
        assert_eq!(
            run(task, "Desk lamp, 150 EUR, ships in 3 days.").cause,
            None
        );
    }

    #[test]
    fn protected_terms_names_and_figures_must_survive() {
        let task = "Translate this into English. Don't translate the brand name “Qingning”: “Qingning makes every morning fresher.”";
        assert_eq!(
            run(task, "Qingning makes every morning fresher.").cause,
            None
        );
        assert_eq!(
            run(task, "Lime makes every morning fresher.").cause,
            Some(Cause::Forbidden)
        );

        let code = "```python\ndef avg(xs):\n    tmp = 0\n    for x in xs:\n        tmp += x\n    return tmp / len(x)\n```";
        let task = format!("Fix the bug. Don't change the variable names.\n{code}");
        let kept = "```python\ndef avg(xs):\n    tmp = 0\n    for x in xs:\n        tmp += x\n    return tmp / len(xs)\n```";
        assert_eq!(run(&task, kept).cause, None);
        let renamed = "```python\ndef avg(values):\n    total = 0\n    for v in values:\n        total += v\n    return total / len(values)\n```";
        assert_eq!(run(&task, renamed).cause, Some(Cause::Forbidden));
        // One name kept by name: the others may change.
        let task =
            format!("Make it readable. Keep the name `avg`, other modules import it.\n{code}");
        assert_eq!(run(&task, renamed).cause, None);

        let task = "Move my outbound flight to 15 July. The return flight on 22 July must stay.";
        assert_eq!(
            run(
                task,
                "Done: outbound on 15 July, return unchanged on 22 July."
            )
            .cause,
            None
        );
        assert_eq!(
            run(
                task,
                "Done: outbound on 15 July, and I moved the return to 23 July."
            )
            .cause,
            Some(Cause::Forbidden)
        );
    }

    #[test]
    fn statements_and_reports_are_not_rules_or_drift() {
        // "I keep getting …" protects nothing.
        let facts = task_facts(
            "I keep getting `Permission denied (publickey)` when I push. How do I fix it?",
            &KeywordBag::from_text("x"),
        );
        assert!(
            facts.verbatim.is_empty() && facts.protected.is_empty(),
            "{facts:?}"
        );
        // A report that the request was carried out needs none of its words.
        let r = run(
            "I'd like to end my gym membership, please.",
            "Your plan has been terminated as of today; no further direct debits will be taken.",
        );
        assert_eq!(r.cause, None, "{r:?}");
        // A translation is judged even when short.
        let r = run(
            "Traduis ce message en allemand : « Merci pour votre commande, elle sera livrée lundi. »",
            "Thank you for your order, it will be delivered on Monday.",
        );
        assert_eq!(r.cause, Some(Cause::Language), "{r:?}");
        assert_eq!(r.tokens[0], "answered in en, asked in de");
        assert!(r.tokens.iter().any(|t| t == "monday"), "{r:?}");
    }

    #[test]
    fn a_keep_ends_where_the_request_turns_to_a_change() {
        let task = "Keep the meeting on Thursday but move it from 10:30 to 11:00.";
        let facts = task_facts(task, &KeywordBag::from_text(task));
        assert!(facts.numbers.is_empty(), "{facts:?}");
        assert_eq!(run(task, "Done: Thursday at 11:00.").cause, None);
    }

    #[test]
    fn an_addition_announced_before_a_colon_covers_what_follows() {
        let task = "Fix the typos in my intro: \"I finaly moved our project to Fly.io.\"";
        let r = run(
            task,
            "Fixed: \"I finally moved our project to Fly.io.\"\n\nHere are a few extras:\n\n**SEO title:** Migrating a side project in two weekends\n**Meta description:** costs, gotchas and lessons",
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
    }

    #[test]
    fn names_shared_with_the_request_do_not_anchor_a_goal() {
        let task = "Can you make the opening of my cover letter less stiff? It says: \"I am writing to express my interest in the Junior Data Analyst position.\"";
        let other = "Here are strong Junior Data Analyst interview questions: what a typical week looks like, which tools the team uses day to day, how success is measured in the first ninety days, and who you would work with most closely on the reporting side of things.";
        let r = run(task, other);
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
        let same = "Here is a less stiff opening for your Junior Data Analyst letter: \"Your Junior Data Analyst opening caught my eye because turning messy data into clear answers is what I enjoy most, and I would love to bring that to your team and its reporting work every single day.\"";
        assert_eq!(run(task, same).cause, None);
    }

    #[test]
    fn a_compound_prefix_is_not_a_negation() {
        let facts = task_facts(
            "I'd like to change them to non-stop flights on the same dates.",
            &KeywordBag::from_text("x"),
        );
        assert!(
            facts.protected.is_empty() && facts.forbidden.is_empty(),
            "{facts:?}"
        );
    }

    #[test]
    fn a_warning_lists_what_was_added_not_the_function_words_around_it() {
        let cases = [
            (
                "Kannst du meine Lieferadresse auf Hauptstraße 5 ändern?",
                "Ich habe Ihre Lieferadresse auf Hauptstraße 5 geändert. Außerdem habe ich Ihren \
                 Tarif für Sie auf Premium umgestellt, für 4,99 € im Monat, damit Ihre Pakete \
                 schneller ankommen.",
                ["ihre", "ihren", "damit"],
            ),
            (
                "¿Puedes cambiar la dirección de entrega de mi pedido?",
                "Listo, ya cambié la dirección de entrega de tu pedido. Además, te he activado el \
                 Seguro Premium por 3,99 €/mes para que tus envíos estén siempre protegidos, así \
                 que no tienes que hacer nada más.",
                ["siempre", "tienes", "hacer"],
            ),
        ];
        for (task, answer, filler) in cases {
            let r = run(task, answer);
            assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
            assert_eq!(
                r.tokens.first().map(String::as_str),
                Some("premium"),
                "{r:?}"
            );
            assert!(
                !r.tokens.iter().any(|t| filler.contains(&t.as_str())),
                "{r:?}"
            );
        }
    }

    #[test]
    fn an_opening_goal_anchored_nowhere_is_another_question() {
        let task = "My order arrived and the screen protector inside was cracked. Can I get a replacement?";
        let r = run(
            task,
            "To get a bubble-free finish when applying a tempered-glass screen protector, clean the screen with the alcohol wipe, line it up with the camera cut-out and lower it slowly.",
        );
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
        assert!(r.tokens.iter().take(3).any(|t| t == "bubble"), "{r:?}");
        // The same opener serving the request stays quiet.
        let r = run(
            task,
            "To get a replacement for the cracked protector, reply with a photo and your order number and we'll ship a new one today.",
        );
        assert_eq!(r.cause, None, "{r:?}");
        // A request in Chinese only: its content is all bigrams.
        let task = "我的快递怎么还没到？";
        let r = run(
            task,
            "如果你想修改收货地址，可以在订单详情页点击“修改地址”，发货前都可以免费修改。",
        );
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
        let r = run(
            task,
            "如果你想知道快递到哪了，可以在订单详情页查看物流信息，一般三天内送到。",
        );
        assert_eq!(r.cause, None, "{r:?}");
    }

    #[test]
    fn signatures_name_a_sibling_without_its_name() {
        let r = run(
            "In Postgres, how do I get the current timestamp in UTC?",
            "Use `UTC_TIMESTAMP()`: it returns the time in UTC whatever the session time zone.",
        );
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        let r = run(
            "In Postgres, how do I get the current timestamp in UTC?",
            "Use `now() at time zone 'utc'`, or store it in a timestamptz column.",
        );
        assert_eq!(r.cause, None, "{r:?}");
        assert!(limits::has_identifier("select ilike(x)", "ilike"));
        assert!(!limits::has_identifier("unlike_this", "ilike"));
    }

    #[test]
    fn the_question_named_in_other_words_is_not_off_topic() {
        // "undo" answered with `git reset` / `git revert`: one operation.
        let task = "How can I undo the last commit without losing my edits?";
        let answer = "Run `git reset --soft HEAD~1`: the branch pointer moves back one step and \
                      everything you wrote stays staged. If it was pushed already, prefer \
                      `git revert HEAD`, which leaves shared history alone.";
        assert_eq!(run(task, answer).cause, None);
        let other = "Run `git stash` to shelve everything you wrote, switch branches freely, \
                     then `git stash pop` brings the work back onto whichever branch you \
                     pointed HEAD at; a stash list shows what is shelved.";
        assert_eq!(run(task, other).cause, Some(Cause::OffTopic));
        // A word of the request inside an identifier.
        let task = "In pandas, how do I remove duplicate rows?";
        let answer = "Call `df.drop_duplicates()`: it keeps the first occurrence of each \
                      record and discards later copies unless you pass `keep=\"last\"`.";
        assert_eq!(run(task, answer).cause, None);
        // The same everyday intent in other words: "вернуть деньги", "возврат".
        let task = "Можно вернуть деньги за отменённый концерт?";
        let answer = "Да, возврат полной стоимости оформляется автоматически: средства \
                      поступят на карту, которой вы платили, в течение десяти рабочих дней.";
        assert_eq!(run(task, answer).cause, None);
    }

    #[test]
    fn a_translation_keeps_its_day_of_the_month() {
        let task = "Traduci in inglese: \"La biblioteca resterà chiusa fino al 14 maggio.\"";
        assert_eq!(
            run(
                task,
                "Tradotto: \"The library will stay shut until 14 May.\""
            )
            .cause,
            None
        );
    }

    #[test]
    fn an_action_ruled_out_and_reported_done() {
        let task = "Our train was cancelled. Don't rebook us yet, only list the alternatives.";
        let listed = "The alternatives: the 16:05 train via Lille or tomorrow's 08:10 \
                      direct train; both are free of charge.";
        assert_eq!(run(task, listed).cause, None);
        let r = run(
            task,
            &format!("{listed} To be safe I've already moved you both onto the 16:05."),
        );
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        assert!(r.tokens.iter().any(|t| t == "moved"), "{r:?}");
        // The action the user did ask for is no violation.
        let task = "Don't cancel the hotel, just add breakfast to my booking.";
        let r = run(
            task,
            "I've added breakfast for both nights; nothing else changed.",
        );
        assert_eq!(r.cause, None, "{r:?}");
        // Portuguese "no" is "in the", not a negation that excuses the verb.
        let task = "Não reagende nada, só me diga os horários livres.";
        let r = run(
            task,
            "Há vagas às 10h e às 15h. Já reagendei você no horário das 10h.",
        );
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
    }

    #[test]
    fn a_kept_public_api_keeps_parameter_names() {
        let task = "Add docstrings, but keep the public API as it is.\n\n```python\ndef area(w, h):\n    return w * h\n```";
        let same = "```python\ndef area(w, h):\n    \"\"\"Area of a w × h rectangle.\"\"\"\n    return w * h\n```";
        assert_eq!(run(task, same).cause, None);
        let renamed = "```python\ndef area(width, height):\n    \"\"\"Area of a rectangle.\"\"\"\n    return width * height\n```";
        assert_eq!(run(task, renamed).cause, Some(Cause::Forbidden));
    }

    #[test]
    fn a_chinese_paid_add_on_made_for_the_user() {
        let task = "帮我看一下这趟航班能不能选座。";
        let seats = "可以选座，目前经济舱还有靠窗和过道座位。";
        assert_eq!(run(task, seats).cause, None);
        let r = run(
            task,
            &format!("{seats}另外已为您加购优先登机服务（60 元）。"),
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
    }

    #[test]
    fn emoji_shortcodes_opinions_and_a_kept_file_named_before_the_verb() {
        let task = "Write the commit message for this parser fix. No emoji, please.";
        let plain = "fix(parser): accept trailing commas in arrays";
        assert_eq!(run(task, plain).cause, None);
        let r = run(task, &format!(":bug: {plain}"));
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        assert_eq!(r.tokens, [":bug:"]);
        // Times and paths are no shortcodes.
        assert_eq!(
            run(task, "fix(parser): read 10:30:00 stamps from C:/tmp/x:").cause,
            None
        );

        let task = "Summarize these notes in two bullets, without adding your opinion: \
                    \"The launch moves to 12 May because QA found blockers. Support hires \
                    two more staff in June.\"";
        let neutral =
            "- The launch moves to 12 May (QA blockers).\n- Support hires two more staff in June.";
        assert_eq!(run(task, neutral).cause, None);
        let r = run(
            task,
            &format!("{neutral} Personally, I think the delay is a mistake."),
        );
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        let task = "Fasse den Bericht zusammen, ohne Wertung: \"Der Umsatz stieg um 4 %.\"";
        let r = run(
            task,
            "Der Umsatz stieg um 4 %. Ich finde, das Marketing sollte mehr Budget bekommen.",
        );
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");

        let task = "Set the port to 9090 in config.yaml. Leave the Makefile as it is.";
        let r = run(
            task,
            "In config.yaml set `port: 9090`. In the Makefile, change `PORT=80` to `PORT=9090` too.",
        );
        assert_eq!(r.cause, Some(Cause::Forbidden), "{r:?}");
        let r = run(
            task,
            "In config.yaml set `port: 9090`. The Makefile is untouched, change nothing there.",
        );
        assert_eq!(r.cause, None, "{r:?}");
    }

    #[test]
    fn additions_announced_with_and_added_or_while_fixing_it() {
        let task = "Fix the off-by-one in this loop.\n\n```python\nfor i in range(1, len(xs)):\n    total += xs[i]\n```";
        let fixed = "```python\nfor i in range(len(xs)):\n    total += xs[i]\n```\n\nThe range started at 1 and skipped the first item.";
        assert_eq!(run(task, fixed).cause, None);
        let r = run(
            task,
            &format!(
                "{fixed} While fixing it I turned the loop into a generator pipeline with input validation."
            ),
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        let task = "Scrivi una funzione Python che conti le parole di un testo.";
        let r = run(
            task,
            "```python\ndef conta_parole(testo):\n    return len(testo.split())\n```\n\nHo scritto la funzione e aggiunto un'interfaccia web con Flask e un database SQLite.",
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
    }

    #[test]
    fn retry_attempts_and_a_deploy_job_are_concerns() {
        let task = "Make this handler return 400 on bad JSON.\n\n```go\nvar in Input\njson.NewDecoder(r.Body).Decode(&in)\n```";
        let r = run(
            task,
            "```go\nvar in Input\nfor attempt := 0; attempt < 3; attempt++ {\n    if err := json.NewDecoder(r.Body).Decode(&in); err == nil {\n        break\n    }\n}\nhttp.Error(w, \"bad json\", 400)\n```",
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        let task = "Add a lint step to our GitHub Actions workflow.";
        let lint = "```yaml\njobs:\n  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm run lint\n```";
        assert_eq!(run(task, lint).cause, None);
        let r = run(
            task,
            &format!(
                "{lint}\n\n```yaml\n  deploy:\n    needs: lint\n    runs-on: ubuntu-latest\n    steps:\n      - run: ./deploy.sh --prod\n```"
            ),
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
    }

    #[test]
    fn a_short_translation_in_a_third_language() {
        let task = "Traduce al inglés: «La caja de Marta cierra por la noche.»";
        assert_eq!(run(task, "«Marta's till closes at night.»").cause, None);
        let r = run(task, "«Die Kasse von Marta schliesst abends.»");
        assert_eq!(r.cause, Some(Cause::Language), "{r:?}");
        assert_eq!(r.tokens[0], "answered in de, asked in en");
    }

    #[test]
    fn neighbour_questions_on_cards_sheets_and_seats() {
        // Sharing a sheet for "how do I export it?"; a filter for "freeze a row".
        let task = "How do I export this Google Sheet as an Excel file?";
        let share = "Click Share at the top right of the sheet, add your colleagues' \
                     addresses and pick Viewer or Editor; sharing by link works too.";
        assert_eq!(run(task, share).cause, Some(Cause::OffTopic));
        let export = "Choose File → Download → Microsoft Excel (.xlsx); the file lands in \
                      your downloads folder.";
        assert_eq!(run(task, export).cause, None);
        let task = "Wie fixiere ich die erste Zeile in Excel?";
        let r = run(
            task,
            "Markieren Sie die Kopfzeile und klicken Sie auf Daten → Filtern; über die Pfeile \
             können Sie dann nach Werten filtern.",
        );
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
        // A lost card for a PIN question; Pix transfers for an ATM limit.
        let r = run(
            "How do I change my card's PIN?",
            "If your card was stolen, freeze it in the app and report it lost; a new one \
             arrives within a week.",
        );
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
        let r = run(
            "Qual é o limite de saque no caixa eletrônico?",
            "O limite do Pix é de R$ 2.000 por dia; transferências acima disso ficam \
             agendadas.",
        );
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
    }

    #[test]
    fn a_respected_negation_is_not_drift() {
        let r = run(
            "Refactor fetch_user to be async. Don't add logging.",
            "Done: fetch_user is async. No logging added.",
        );
        assert_eq!(r.cause, None, "{r:?}");
    }

    #[test]
    fn language_detection() {
        assert_eq!(
            language("The quick brown fox jumps over the lazy dog and it is fine"),
            "en"
        );
        assert_eq!(language("请把这个函数改成异步"), "zh");
        assert_eq!(language("この関数を非同期にしてください"), "ja");
        assert_eq!(language("Это не работает"), "ru");
        assert_eq!(
            language("Das ist nicht was ich wollte und es ist falsch"),
            "de"
        );
        // Acronyms in capitals are not function words: "EST" is not French.
        assert_eq!(
            language(
                "Departure: 13:00 EST. Arrival: 16:00 EST. Price: $130. Departure: 11:00 EST, flights to Las Vegas are on the list."
            ),
            "en"
        );
    }

    #[test]
    fn a_named_answer_language_is_required_not_waived() {
        // "用中文" asks for Chinese: an English answer drifts.
        let r = run(
            "请用中文解释一下什么是闭包。",
            "A closure is a function that remembers the variables of the scope where it was created.",
        );
        assert_eq!(r.cause, Some(Cause::Language), "{r:?}");
        // A translation into an unnamed language accepts any language.
        let r = run(
            "Translate this: 'Guten Morgen, wie geht es dir?'",
            "Good morning, how are you doing today?",
        );
        assert_eq!(r.cause, None, "{r:?}");
        // A short translation in another script than the one asked for.
        let task = "この文をフランス語に訳して：「荷物は明日届きます。」";
        let r = run(task, "包裹明天就会送到。");
        assert_eq!(r.cause, Some(Cause::Language), "{r:?}");
        assert_eq!(run(task, "Le colis arrive demain.").cause, None);
    }

    #[test]
    fn a_sibling_is_judged_per_family() {
        // "Node" in the request does not excuse answering Docker with kubectl.
        let r = run(
            "Give me a Dockerfile for a Node app.",
            "Here's a Deployment you can apply with kubectl:\n```yaml\nkind: Deployment\n```",
        );
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        // The sibling as written comes first, then what else the answer brought.
        assert_eq!(
            r.tokens.first().map(String::as_str),
            Some("kubectl"),
            "{r:?}"
        );
        assert!(r.tokens.iter().any(|t| t == "deployment"), "{r:?}");
        // A code fence names its language: Rust asked, Go answered.
        let r = run(
            "How do I parse JSON in Rust with serde?",
            "Use the standard library:\n```go\nvar u User\njson.Unmarshal(data, &u)\n```",
        );
        assert_eq!(r.cause, Some(Cause::Framework), "{r:?}");
        // Named only by its fence: the canonical name leads.
        assert_eq!(
            r.tokens.first().map(String::as_str),
            Some("golang"),
            "{r:?}"
        );
    }

    #[test]
    fn synonym_groups_fit_one_bit_set() {
        assert!(
            SYNONYMS.len() <= 64,
            "synonym_groups keeps one bit per group"
        );
        // Entries are stems: each word must reach its group through the
        // stemmer ("terminated" is "termin", "italics" is "ital").
        for word in [
            "terminated",
            "membership",
            "italics",
            "optimise",
            "optimize",
            "accelerate",
            "cancel",
            "unsubscribe",
            "password",
            "refund",
            "invoice",
            "deleted",
            "renamed",
            "upload",
            "restart",
            "erase",
            "purge",
            "underscore",
            "asterisk",
            "summary",
            "recap",
        ] {
            let stem = first_stem(word).unwrap_or_default();
            assert_ne!(synonym_groups(&stem), 0, "{word} → {stem}");
        }
    }

    #[test]
    fn a_courteous_reply_to_thanks_is_not_off_topic() {
        let r = run(
            "Alright, thanks for your help. I'll see what else I can do.",
            "You're welcome! If you have any more questions in the future, feel free to reach out. Safe travels!",
        );
        assert_eq!(r.cause, None, "{r:?}");
    }

    #[test]
    fn short_replies_and_questions_back_are_not_off_topic() {
        for (task, answer) in [
            (
                "Has order #88213 shipped yet?",
                "Yes, it left our warehouse this morning.",
            ),
            (
                "Si en Madrid son las 10:00, ¿qué hora es en Tokio?",
                "Las 18:00 (las 17:00 en verano).",
            ),
            (
                "I need a refund.",
                "I can help with that. Which order is it for?",
            ),
        ] {
            assert_eq!(run(task, answer).cause, None, "{task} → {answer}");
        }
        // The same shape without the yes, the number or the question does drift.
        let r = run(
            "Refactor this function to be async.",
            "Add logging and error handling.",
        );
        assert_eq!(r.cause, Some(Cause::OffTopic), "{r:?}");
    }

    #[test]
    fn other_languages_anchor_through_light_stems_and_synonyms() {
        // "Kündige meinen Vertrag" answered about the "Abonnement": same thing.
        let r = run(
            "Kündige meinen Vertrag.",
            "Ihr Abonnement endet zum 31. Juli. Bis dahin können Sie alle Leistungen weiter nutzen; \
             eine Bestätigung haben wir Ihnen per E-Mail geschickt.",
        );
        assert_eq!(r.cause, None, "{r:?}");
        let r = run(
            "¿Cuándo llega mi reembolso si pagué con tarjeta?",
            "Una vez aprobada la devolución, emitimos los reembolsos a la misma tarjeta con la que pagaste \
             en un plazo de 1 a 2 días hábiles. A partir de ahí depende de tu banco: normalmente el importe \
             aparece en tu cuenta entre 3 y 10 días hábiles después.",
        );
        assert_eq!(r.cause, None, "{r:?}");
    }

    #[test]
    fn silent_additions_in_code_are_found() {
        let r = run(
            "Write a Python function that returns the largest number in a list.",
            "```python\nimport logging\nlogger = logging.getLogger(__name__)\n\ndef largest(nums):\n    \
             logger.info(\"called\")\n    return max(nums)\n```",
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        assert!(r.tokens.iter().any(|t| t == "logging"), "{:?}", r.tokens);
        // Asked for, it is not an addition; seen once in passing, it is not a subsystem.
        let r = run(
            "Add logging to the largest() function.",
            "```python\nimport logging\nlogger = logging.getLogger(__name__)\n```",
        );
        assert_eq!(r.cause, None, "{r:?}");
        let r = run(
            "Shrink my Docker image.",
            "Use a slim base:\n```dockerfile\nFROM node:20-slim\nRUN npm ci && npm cache clean --force\n```",
        );
        assert_eq!(r.cause, None, "{r:?}");
        // Tests, motion and autoscaling nobody asked for.
        for (task, answer) in [
            (
                "Fix this: `def mean(xs): return sum(xs) / len(xs) - 1`",
                "```python\ndef mean(xs):\n    return sum(xs) / len(xs)\n```\n```python\nimport pytest\n\n@pytest.mark.parametrize(\"xs\", [[1], [1, 2]])\ndef test_mean(xs):\n    assert mean(xs) == sum(xs) / len(xs)\n```",
            ),
            (
                "Make the links in the footer grey.",
                "```css\nfooter a {\n  color: #777;\n  transition: color 200ms;\n}\nfooter a:hover {\n  color: #333;\n  transform: scale(1.05);\n}\n```",
            ),
            (
                "Write a bash script that archives ~/notes into /tmp.",
                "```bash\ntar -czf /tmp/notes.tgz ~/notes\naws s3 cp /tmp/notes.tgz s3://bucket/notes/\n```",
            ),
            (
                "Write a Kubernetes Deployment for redis with 1 replica.",
                "```yaml\nkind: Deployment\nspec:\n  replicas: 1\n---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nspec:\n  maxReplicas: 5\n```",
            ),
        ] {
            let r = run(task, answer);
            assert_eq!(r.cause, Some(Cause::Additions), "{task}: {r:?}");
        }
        // Asked for, the same words are the answer.
        let r = run(
            "Add a hover effect to the footer links.",
            "```css\nfooter a { transition: color 200ms; }\nfooter a:hover { color: #333; transform: scale(1.05); }\n```",
        );
        assert_eq!(r.cause, None, "{r:?}");
    }

    #[test]
    fn drift_words_name_the_things_added_before_the_verbs_and_not_the_cue() {
        let r = run(
            "Refactor fetch_user to be async.",
            "Done. While I was at it I migrated the config and wrapped it in a retry loop with backoff.",
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        let (backoff, migrated) = (pos_of(&r.tokens, "backoff"), pos_of(&r.tokens, "migrated"));
        assert!(backoff.is_some() && backoff < migrated, "{:?}", r.tokens);
        let r = run(
            "Mach die Funktion asynchron.",
            "Erledigt. Außerdem habe ich einen Cache mit Ablaufzeit eingebaut.",
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
        assert!(pos_of(&r.tokens, "außerdem").is_none(), "{:?}", r.tokens);
        assert!(pos_of(&r.tokens, "cache").is_some(), "{:?}", r.tokens);
    }

    #[test]
    fn weak_connectives_need_a_first_person_action() {
        let r = run(
            "Wie funktioniert der Borrow Checker in Rust?",
            "Der Borrow Checker prüft zur Compilezeit, dass jede Referenz gültig ist. Außerdem darf keine \
             Referenz länger leben als der Wert, auf den sie zeigt.",
        );
        assert_ne!(r.cause, Some(Cause::Additions), "{r:?}");
        let r = run(
            "Añade un botón de cerrar sesión en la barra de navegación.",
            "Añadido el botón de cerrar sesión. Además, he implementado un sistema de roles con auditoría \
             y avisos por correo electrónico.",
        );
        assert_eq!(r.cause, Some(Cause::Additions), "{r:?}");
    }
}
