//! Standing rules learned from corrections: the same thing corrected under
//! different requests ("we use pnpm here, not npm" while adding zod, again
//! while adding vitest, again at `npx vitest`; "请用中文回答" after three
//! different Kubernetes questions).
//!
//! Derived from the stored records on demand, never stored: a rule is a word
//! (stem) that `pattern_threshold` or more correction texts share, on at
//! least two topics. Greedy and deterministic: the word shared by the most
//! records (then the most topics, then in stem order) takes its records
//! first, so a record backs one rule at most. Export, import and merge stay
//! exactly what they were; what a merge adds, the rules see.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::Serialize;

use super::{Record, Source};
use crate::hash::{FastBuild, hash_bytes};
use crate::text::{KeywordBag, concepts, is_cjk};

/// Bytes of a correction read for its words: a correction says what it
/// corrects early.
const READ_BYTES: usize = 300;
/// Words kept per record.
const MAX_WORDS: usize = 12;
/// Rules kept, most backed first.
pub const MAX_RULES: usize = 16;

/// Rules the app dismissed: ids, newest kept. A set, so merging two copies
/// is their union (then the newest `MAX_DISMISSED` by id order of time).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Dismissed(pub Vec<Dismissal>);

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Dismissal {
    pub at_ms: u64,
    #[serde(with = "crate::hash::hex")]
    pub id: u64,
}

/// Dismissals kept.
pub const MAX_DISMISSED: usize = 64;

impl Dismissed {
    pub fn ids(&self) -> impl Iterator<Item = u64> + '_ {
        self.0.iter().map(|d| d.id)
    }

    /// Adds a dismissal (once per id, the newest time kept), newest kept.
    pub fn add(&mut self, d: Dismissal) {
        self.0.push(d);
        self.normalize();
    }

    /// Union, then the newest `MAX_DISMISSED`: commutative, associative,
    /// idempotent (each id keeps its maximum, and the cut is by a total order).
    pub fn merge(&self, other: &Dismissed) -> Dismissed {
        let mut out = Dismissed(self.0.iter().chain(&other.0).copied().collect());
        out.normalize();
        out
    }

    fn normalize(&mut self) {
        // Each id's greatest dismissal, then all in order.
        let mut all = std::mem::take(&mut self.0);
        crate::sort::sort_by(&mut all, |a, b| a.id.cmp(&b.id).then_with(|| b.cmp(a)));
        all.dedup_by_key(|d| d.id);
        crate::sort::sort_by(&mut all, |a, b| a.cmp(b));
        let cut = all.len().saturating_sub(MAX_DISMISSED);
        all.drain(..cut);
        self.0 = all;
    }

    pub fn is_valid(&self) -> bool {
        let mut copy = self.clone();
        copy.normalize();
        copy == *self
    }
}

/// A standing rule of this user, learned from corrections across requests.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LearnedRule {
    /// Stable for the word, so a dismissal outlives new corrections.
    #[serde(with = "crate::hash::hex")]
    pub id: u64,
    /// The word the corrections share, as the user wrote it, then the others
    /// every one of them holds.
    pub about: Vec<String>,
    /// Correction records behind it.
    pub count: u32,
    /// Distinct topics (requests) they corrected.
    pub topics: u32,
    /// The newest corrections, newest first.
    pub examples: Vec<String>,
}

/// Words a correction uses whatever it corrects ("wrong", "again",
/// "instead", "please"); stemmed as the bags stem them.
const GENERIC: &[&str] = &[
    "wrong",
    "right",
    "correct",
    "again",
    "instead",
    "actually",
    "still",
    "work",
    "works",
    "broken",
    "error",
    "please",
    "answer",
    "said",
    "told",
    "want",
    "like",
    "just",
    "really",
    "already",
    "time",
    "times",
    "thing",
    "need",
    "asked",
    "tell",
    "stop",
    "keep",
    "always",
    "never",
    "mean",
    "meant",
    "sorry",
    "thanks",
    "redo",
    "retry",
    "try",
    "use",
    "using",
    "used",
    "one",
    "way",
    "here",
    "there",
    "that",
    "this",
    "not",
    "no",
    "yes",
    "ok",
    "okay",
    "do",
    "did",
    "done",
    "make",
    "made",
    "get",
    "got",
    "give",
    "write",
    "change",
    "fix",
    "add",
    "put",
    "show",
    "let",
    "look",
    "see",
    "think",
    "know",
    "good",
    "bad",
    "better",
    "same",
    "other",
    "another",
    "different",
    "new",
    "old",
    "falsch",
    "nochmal",
    "bitte",
    "wieder",
    "otra",
    "vez",
    "mal",
    "encore",
    "faux",
    "errado",
    "другой",
    "снова",
    "опять",
    "неправильно",
    // Function words of the other languages that drift's list
    // (`drift::FUNCTION_WORDS`, also generic here) lacks.
    "fois",
    "c'est",
    "jetzt",
    "dos",
    "mas",
    "все",
    "ещё",
    "еще",
];

/// The stems of `GENERIC` and of the other languages' function words
/// (the stop list is English: "pour" is in every French correction and
/// names nothing), as the bags make them.
pub(crate) fn generic() -> &'static HashSet<String, FastBuild> {
    static SET: OnceLock<HashSet<String, FastBuild>> = OnceLock::new();
    SET.get_or_init(|| {
        GENERIC
            .iter()
            .chain(crate::detect::drift::FUNCTION_WORDS)
            .flat_map(|w| KeywordBag::stems(w))
            .collect()
    })
}

/// The words of a correction that may name what it corrects: stems of at
/// least three letters (or a CJK pair), not generic, with their first
/// surface form.
fn words(text: &str) -> Vec<(String, String)> {
    let head = &text[..text.floor_char_boundary(READ_BYTES.min(text.len()))];
    let bag = KeywordBag::from_text(head);
    let generic = generic();
    let mut out: Vec<(String, String)> = bag
        .iter()
        .filter(|(s, _, _)| s.chars().count() >= 3 || s.chars().all(is_cjk))
        .filter(|(s, _, _)| !generic.contains(*s))
        .take(MAX_WORDS)
        .map(|(s, surface, _)| (s.to_string(), surface.to_lowercase()))
        .collect();
    // The house style it names, whatever word it used ("km", "metric").
    out.extend(
        concepts::names(concepts::concepts_in(head)).map(|n| (concept_word(n), n.to_string())),
    );
    out
}

/// The word that stands for a concept among a record's words: no stem
/// starts with `~`.
pub(crate) fn concept_word(name: &str) -> String {
    format!("~{name}")
}

/// The key that links a topic's explicit corrections (no word has it).
const EXPLICIT_KEY: &str = "\u{0}explicit";

/// What links a record to others in `cluster`: its words' first
/// `ROOT_CHARS` letters, hashed, and whether the correction control sent
/// it.
pub fn link_keys(r: &Record) -> std::sync::Arc<[u64]> {
    // What the app's correction control sent is a correction of this task
    // by the user's own hand: those go together whatever they say ("Don't
    // add logging." … "No tracing, please." … "Stop adding logs.").
    let explicit = (r.source == Source::Explicit).then(|| hash_bytes(0, EXPLICIT_KEY.as_bytes()));
    words(&r.text)
        .into_iter()
        .map(|(stem, _)| {
            let root: String = stem.chars().take(ROOT_CHARS).collect();
            hash_bytes(0, root.as_bytes())
        })
        .chain(explicit)
        .collect()
}

/// Letters of a stem that name one thing within a topic: "формул" and
/// "формула", "thread" and "threading" are one correction.
const ROOT_CHARS: usize = 5;

/// The records of one topic that correct one thing: the largest group
/// linked by shared words (compared by their first `ROOT_CHARS` letters;
/// "nginx https redirect" → "redirect port 80 server block" → "the server
/// block that sends everything to https" is one request asked three ways),
/// when it holds at least `threshold` records; indices ascending. Three
/// fixes of three different things on one notice are no pattern, unless
/// the app's correction control sent them.
pub fn cluster(
    records: &[&Record],
    keys: &dyn Fn(&Record) -> std::sync::Arc<[u64]>,
    threshold: usize,
) -> Option<Vec<usize>> {
    // Union-find over records; a word joins every record holding it.
    let mut parent: Vec<usize> = (0..records.len()).collect();
    fn root(parent: &mut [usize], mut i: usize) -> usize {
        while parent[i] != i {
            parent[i] = parent[parent[i]];
            i = parent[i];
        }
        i
    }
    let mut first_holder: std::collections::HashMap<u64, usize, FastBuild> = Default::default();
    for (i, r) in records.iter().enumerate() {
        for &key in keys(r).iter() {
            let j = *first_holder.entry(key).or_insert(i);
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a.max(b)] = a.min(b);
        }
    }
    crate::work::add(records.len());
    // Group sizes by root, then the largest group; among equals, the one
    // holding the newest record (the latest index).
    let roots: Vec<usize> = (0..records.len()).map(|i| root(&mut parent, i)).collect();
    let mut size = vec![0usize; records.len()];
    let mut newest = vec![0usize; records.len()];
    for (i, &r) in roots.iter().enumerate() {
        size[r] += 1;
        newest[r] = i;
    }
    let best = (0..records.len())
        .filter(|&r| size[r] > 0)
        .max_by_key(|&r| (size[r], newest[r]))?;
    (size[best] >= threshold.max(1))
        .then(|| (0..records.len()).filter(|&i| roots[i] == best).collect())
}

/// Rule ids, sorted, for lookups.
#[derive(Debug, Clone, Default)]
pub struct IdSet(Vec<u64>);

impl IdSet {
    pub fn contains(&self, id: u64) -> bool {
        self.0.binary_search(&id).is_ok()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<u64> for IdSet {
    fn from_iter<I: IntoIterator<Item = u64>>(iter: I) -> Self {
        let mut ids: Vec<u64> = iter.into_iter().collect();
        crate::sort::sort_u64(&mut ids);
        ids.dedup();
        Self(ids)
    }
}

/// Whether a correction names the word of one of the rules `ids`.
pub fn names_a_rule(text: &str, ids: &IdSet) -> bool {
    !ids.is_empty()
        && words(text)
            .iter()
            .any(|(stem, _)| ids.contains(rule_id(stem)))
}

/// The rules `records` make at `threshold`, without the `dismissed` ones.
pub fn learn(
    records: &[&Record],
    threshold: usize,
    max_examples: usize,
    dismissed: &IdSet,
) -> Vec<LearnedRule> {
    let threshold = threshold.max(2);
    let words: Vec<Vec<(String, String)>> = records.iter().map(|r| words(&r.text)).collect();
    crate::work::add(words.len());
    // Word → the records holding it (indices, ascending).
    // (word, record) pairs sorted by word, stably: each word's records
    // come out ascending, and the words in order.
    let mut pairs: Vec<(&str, usize)> = (0..)
        .zip(&words)
        .flat_map(|(i, ws)| ws.iter().map(move |(stem, _)| (stem.as_str(), i)))
        .collect();
    crate::sort::sort_by(&mut pairs, |a, b| a.0.cmp(b.0));
    let mut holders: Vec<(&str, Vec<usize>)> = Vec::new();
    for (stem, i) in pairs {
        match holders.last_mut() {
            Some((w, list)) if *w == stem => {
                if list.last() != Some(&i) {
                    list.push(i);
                }
            }
            _ => holders.push((stem, vec![i])),
        }
    }
    // Only a word enough records hold can make a rule.
    holders.retain(|(_, idx)| idx.len() >= threshold);
    let topics_of = |idx: &[usize]| -> usize {
        let mut topics: Vec<&str> = idx.iter().map(|&i| records[i].topic.as_str()).collect();
        crate::sort::sort(&mut topics);
        topics.dedup();
        topics.len()
    };
    let mut used = vec![false; records.len()];
    let mut rules = Vec::new();
    loop {
        // The best word among the records still free.
        let best = holders
            .iter()
            .map(|(w, idx)| {
                let free: Vec<usize> = idx.iter().copied().filter(|&i| !used[i]).collect();
                let topics = topics_of(&free);
                (free.len(), topics, *w, free)
            })
            .filter(|(n, topics, w, _)| {
                *n >= threshold && *topics >= 2 && !dismissed.contains(rule_id(w))
            })
            .max_by(|a, b| (a.0, a.1).cmp(&(b.0, b.1)).then_with(|| b.2.cmp(a.2)));
        let Some((n, topics, word, free)) = best else {
            break;
        };
        for &i in &free {
            used[i] = true;
        }
        rules.push(rule(word, &free, &words, records, n, topics, max_examples));
        if rules.len() == MAX_RULES {
            break;
        }
    }
    rules
}

/// A rule id as `learnedRules()` gives it: 16 hex digits.
pub fn parse_id(id: &str) -> crate::error::Result<u64> {
    crate::hash::parse_hex(id).ok_or_else(|| {
        crate::error::Error::type_error(
            "id",
            format!(
                "must be a learned rule's id (16 hex digits), got {:?}",
                crate::text::truncate_chars(id, 40)
            ),
        )
    })
}

/// The id of the rule about stem `word`.
pub fn rule_id(word: &str) -> u64 {
    hash_bytes(0x7275_6c65, word.as_bytes())
}

fn rule(
    word: &str,
    free: &[usize],
    words: &[Vec<(String, String)>],
    records: &[&Record],
    n: usize,
    topics: usize,
    max_examples: usize,
) -> LearnedRule {
    // The word first, as written, then the others all its records hold.
    let surface = |i: usize, stem: &str| {
        words[i]
            .iter()
            .find(|(s, _)| s == stem)
            .map(|(_, f)| f.clone())
    };
    let mut about: Vec<String> = free
        .first()
        .and_then(|&i| surface(i, word))
        .into_iter()
        .collect();
    if let Some(&first) = free.first() {
        for (stem, form) in &words[first] {
            let everywhere = free
                .iter()
                .all(|&i| words[i].iter().any(|(s, _)| s == stem));
            if stem != word && everywhere && about.len() < 3 {
                about.push(form.clone());
            }
        }
    }
    let mut newest: Vec<&Record> = free.iter().map(|&i| records[i]).collect();
    crate::sort::sort_by(&mut newest, |a, b| b.age_cmp(a));
    LearnedRule {
        id: rule_id(word),
        about,
        count: n as u32,
        topics: topics as u32,
        examples: newest
            .iter()
            .take(max_examples)
            .map(|r| r.text.clone())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::corrections::Source;

    fn rec(i: u64, topic: &str, text: &str) -> Record {
        Record {
            id: i,
            topic: topic.into(),
            at_ms: i * 1000,
            seq: i,
            source: Source::Implicit,
            text: text.into(),
        }
    }

    fn learned(records: &[Record]) -> Vec<LearnedRule> {
        let refs: Vec<&Record> = records.iter().collect();
        learn(&refs, 3, 3, &IdSet::default())
    }

    #[test]
    fn the_same_thing_corrected_under_three_requests_is_a_rule() {
        let records = [
            rec(1, "zod", "we use pnpm here, not npm. redo it"),
            rec(2, "vitest", "pnpm please, not npm"),
            rec(
                3,
                "test+vitest",
                "again: it's pnpm, so `pnpm exec vitest`, not npx",
            ),
        ];
        let rules = learned(&records);
        assert_eq!(rules.len(), 1, "{rules:?}");
        assert_eq!(rules[0].about[0], "pnpm");
        assert_eq!((rules[0].count, rules[0].topics), (3, 3));
        assert_eq!(rules[0].examples[0], records[2].text, "newest first");

        let zh = [
            rec(1, "deploy+kubernet", "请用中文回答"),
            rec(2, "pod+restart", "用中文回答我"),
            rec(3, "ingress", "中文！请用中文"),
        ];
        assert_eq!(learned(&zh).len(), 1);
    }

    #[test]
    fn unrelated_one_offs_and_one_topic_make_no_rule() {
        let one_offs = [
            rec(1, "a", "the invoice total should include tax"),
            rec(2, "b", "no, the meeting is on Tuesday"),
            rec(3, "c", "wrong again, use the staging database"),
        ];
        assert!(learned(&one_offs).is_empty());
        // Three on one request is that topic's pattern, not a standing rule.
        let one_topic = [
            rec(1, "t", "use pnpm"),
            rec(2, "t", "pnpm!"),
            rec(3, "t", "i said pnpm"),
        ];
        assert!(learned(&one_topic).is_empty());
        // Function words of other languages name nothing: "pour" in three
        // French follow-ups is no rule.
        let french = [
            rec(1, "a", "et ajoute un cas pour '1 234,50 €'"),
            rec(2, "b", "Maintenant des tests pour convertir_devise"),
            rec(3, "c", "Ajoute un test d'intégration pour l'export CSV"),
        ];
        assert!(learned(&french).is_empty());
    }

    #[test]
    fn a_dismissed_rule_stays_dismissed() {
        let records = [
            rec(1, "zod", "we use pnpm, not npm"),
            rec(2, "vitest", "pnpm please"),
            rec(3, "eslint", "pnpm again"),
        ];
        let refs: Vec<&Record> = records.iter().collect();
        let id = learned(&records)[0].id;
        let dismissed = IdSet::from_iter([id]);
        assert!(learn(&refs, 3, 3, &dismissed).is_empty());
    }
}
