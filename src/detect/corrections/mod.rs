//! Correction memory: what this user has corrected, filed by topic.
//!
//! Each record has an id and a timestamp, so two copies of one user's memory
//! (two tabs, two Worker instances) merge by union. Merging and trimming only
//! ever keep the newest records under a total order, which makes merge
//! commutative, associative and idempotent.

use std::cmp::Ordering;

use std::fmt;

use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub mod rules;

use crate::config::Config;
use crate::decision::CorrectionPattern;
use crate::error::{Error, Result};
use crate::json::{self, Cursor};
use crate::sorted_map::SortedMap;

/// Stored correction texts are cut to this many characters (plus `…`).
pub const MAX_TEXT_CHARS: usize = 1000;
/// Longest id or topic key accepted from a snapshot.
pub const MAX_KEY_BYTES: usize = 128;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// Inferred from a quick retry on the same topic.
    Implicit,
    /// Reported by the app (`userCorrection`).
    Explicit,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Record {
    /// Random-seeded, unique per record; 16 hex digits in JSON.
    #[serde(with = "crate::hash::hex")]
    pub id: u64,
    pub topic: String,
    pub at_ms: u64,
    /// Order of creation within one regulator, to order records of one millisecond.
    pub seq: u64,
    pub source: Source,
    pub text: String,
}

impl Record {
    /// Newest-last order; the id makes it total across regulators.
    fn age_cmp(&self, other: &Self) -> Ordering {
        (self.at_ms, self.seq, self.id, &self.topic).cmp(&(
            other.at_ms,
            other.seq,
            other.id,
            &other.topic,
        ))
    }

    /// Which of two versions of one id wins a merge: an explicit upgrade beats
    /// the implicit original; the rest only makes the choice deterministic.
    fn version_cmp(&self, other: &Self) -> Ordering {
        (self.source, &self.text, self.at_ms, self.seq, &self.topic).cmp(&(
            other.source,
            &other.text,
            other.at_ms,
            other.seq,
            &other.topic,
        ))
    }
}

/// Records by topic, each list oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Store {
    topics: SortedMap<String, Vec<Record>>,
    len: usize,
}

impl Store {
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    pub fn count(&self, topic: &str) -> usize {
        self.topics.get(topic).map_or(0, Vec::len)
    }

    pub fn records(&self) -> impl Iterator<Item = &Record> {
        self.topics.values().flatten()
    }

    /// The topics holding records, in key order.
    pub fn topics(&self) -> impl Iterator<Item = &str> {
        self.topics.keys().map(String::as_str)
    }

    /// The same records with empty texts (see `Memory::without_texts`).
    pub fn without_texts(&self) -> Store {
        let mut store = self.clone();
        for r in store.topics.values_mut().flatten() {
            r.text.clear();
        }
        store
    }

    pub fn get(&self, id: u64) -> Option<&Record> {
        self.records().find(|r| r.id == id)
    }

    /// Adds a record (empty topics are ignored) and trims to the caps.
    pub fn add(&mut self, record: Record, cfg: &Config) {
        if record.topic.is_empty() {
            return;
        }
        let list = self.topics.or_default(record.topic.clone());
        let at = list.partition_point(|r| r.age_cmp(&record) == Ordering::Less);
        list.insert(at, record);
        self.len += 1;
        self.trim(cfg);
    }

    /// Turns an implicit record into an explicit one with the user's words.
    pub fn upgrade(&mut self, id: u64, text: String) -> bool {
        for r in self.topics.values_mut().flatten() {
            if r.id == id {
                r.source = Source::Explicit;
                r.text = text;
                return true;
            }
        }
        false
    }

    /// Keeps the newest `max_corrections_per_topic` per topic, then the newest
    /// `max_correction_records` overall.
    fn trim(&mut self, cfg: &Config) {
        let per_topic = cfg.max_corrections_per_topic as usize;
        for list in self.topics.values_mut() {
            if list.len() > per_topic {
                let cut = list.len() - per_topic;
                list.drain(..cut);
            }
        }
        self.topics.retain(|_, l| !l.is_empty());
        self.len = self.topics.values().map(Vec::len).sum();
        let max = cfg.max_correction_records as usize;
        while self.len > max {
            // Drop the globally oldest record: the oldest head among topics.
            let oldest = self
                .topics
                .iter()
                .filter_map(|(k, l)| l.first().map(|r| (k, r)))
                .min_by(|a, b| a.1.age_cmp(b.1))
                .map(|(k, _)| k.clone());
            let Some(key) = oldest else { break };
            if let Some(list) = self.topics.get_mut(&key) {
                list.remove(0);
                if list.is_empty() {
                    self.topics.remove(&key);
                }
            }
            self.len -= 1;
        }
    }

    /// The pattern for a topic once `pattern_threshold` of its records, with
    /// those filed under other topics in the current episode (`episode`:
    /// ids; not those `elsewhere` says a learned or dismissed rule covers),
    /// correct one thing (`rules::cluster`, linking by `keys`): their count
    /// and the newest of them as examples.
    pub fn pattern(
        &self,
        topic: &str,
        episode: &[u64],
        elsewhere: &dyn Fn(&Record) -> bool,
        keys: &dyn Fn(&Record) -> std::sync::Arc<[u64]>,
        cfg: &Config,
    ) -> Option<CorrectionPattern> {
        let own = self.topics.get(topic).map_or(&[][..], Vec::as_slice);
        let threshold = cfg.pattern_threshold as usize;
        if topic.is_empty() || own.len() + episode.len() < threshold {
            return None;
        }
        let mut list: Vec<&Record> = own.iter().collect();
        for &id in episode {
            if let Some(r) = self.get(id).filter(|r| r.topic != topic && !elsewhere(r)) {
                list.push(r);
            }
        }
        if list.len() < threshold {
            return None;
        }
        crate::sort::sort_by(&mut list, |a, b| a.age_cmp(b));
        let one_thing = rules::cluster(&list, keys, threshold)?;
        let count = one_thing.len() as u32;
        Some(CorrectionPattern {
            topic: topic.to_string(),
            count,
            confidence: (f64::from(count) / f64::from(cfg.max_corrections_per_topic)).min(1.0),
            examples: one_thing
                .iter()
                .rev()
                .take(cfg.max_examples as usize)
                .map(|&i| list[i].text.clone())
                .collect(),
        })
    }

    /// Union by id, then trim. Pure: neither input changes.
    pub fn merge(&self, other: &Store, cfg: &Config) -> Store {
        // By id (stably), then each id's first greatest version: what
        // keeping a record per id and replacing it only by a newer version
        // keeps, in id order.
        let mut all: Vec<&Record> = self.records().chain(other.records()).collect();
        crate::sort::sort_by(&mut all, |a, b| a.id.cmp(&b.id));
        let mut kept: Vec<&Record> = Vec::with_capacity(all.len());
        for r in all {
            match kept.last_mut() {
                Some(cur) if cur.id == r.id => {
                    if cur.version_cmp(r) == Ordering::Less {
                        *cur = r;
                    }
                }
                _ => kept.push(r),
            }
        }
        Store::from_records(kept.into_iter().cloned().collect(), cfg)
    }

    /// A store of records grouped by topic, as a snapshot lists them: each
    /// topic's records in any order (sorted here by age, stably), empty
    /// topics dropped; `Err` names a topic given twice. Not trimmed: a
    /// snapshot's `validate` judges it against the caps.
    fn from_topics(mut topics: Vec<(String, Vec<Record>)>) -> std::result::Result<Store, String> {
        topics.retain(|(_, list)| !list.is_empty());
        for (_, list) in &mut topics {
            if !list.is_sorted_by(|a, b| a.age_cmp(b) != Ordering::Greater) {
                crate::sort::sort_by(list, Record::age_cmp);
            }
        }
        let len = topics.iter().map(|(_, list)| list.len()).sum();
        let topics = SortedMap::from_unique_pairs(topics)?;
        Ok(Store { topics, len })
    }

    /// Builds a trimmed store from records in any order.
    pub fn from_records(records: Vec<Record>, cfg: &Config) -> Store {
        // Grouped by one stable sort by topic, then each topic sorted by age
        // (stably, as one sort by topic then age would).
        let mut records: Vec<Record> = records
            .into_iter()
            .filter(|r| !r.topic.is_empty())
            .collect();
        crate::sort::sort_by(&mut records, |a, b| a.topic.cmp(&b.topic));
        let mut groups: Vec<(String, Vec<Record>)> = Vec::new();
        for r in records {
            match groups.last_mut() {
                Some((topic, list)) if *topic == r.topic => list.push(r),
                _ => groups.push((r.topic.clone(), vec![r])),
            }
        }
        // The groups' topics differ (one sort made them), so this cannot fail.
        let mut store = Store::from_topics(groups).unwrap_or_default();
        store.trim(cfg);
        store
    }

    /// Checks records restored from a snapshot: bounded, unique ids, within caps.
    pub fn validate(&self, cfg: &Config) -> Result<()> {
        let field = "memory.corrections";
        if self.len > cfg.max_correction_records as usize {
            return Err(Error::range_error(
                field,
                format!(
                    "has {} records; maxCorrectionRecords is {}",
                    self.len, cfg.max_correction_records
                ),
            ));
        }
        for (topic, list) in &self.topics {
            let f = |i: usize, name: &str| format!("{field}[{topic:?}][{i}].{name}");
            if topic.is_empty() || topic.len() > MAX_KEY_BYTES {
                return Err(Error::range_error(
                    format!("{field}[{topic:?}]"),
                    format!("topic must be 1 to {MAX_KEY_BYTES} bytes"),
                ));
            }
            if list.len() > cfg.max_corrections_per_topic as usize {
                return Err(Error::range_error(
                    format!("{field}[{topic:?}]"),
                    format!(
                        "has {} records; maxCorrectionsPerTopic is {}",
                        list.len(),
                        cfg.max_corrections_per_topic
                    ),
                ));
            }
            for (i, r) in list.iter().enumerate() {
                // Characters are counted only past the limit in bytes (a
                // character is at least one byte): most texts are short.
                if r.text.len() > MAX_TEXT_CHARS + 1
                    && (r.text.len() > 4 * (MAX_TEXT_CHARS + 1)
                        || r.text.chars().count() > MAX_TEXT_CHARS + 1)
                {
                    return Err(Error::range_error(
                        f(i, "text"),
                        format!("is longer than {MAX_TEXT_CHARS} characters"),
                    ));
                }
            }
        }
        let mut ids: Vec<u64> = self.records().map(|r| r.id).collect();
        crate::sort::sort_u64(&mut ids);
        if let Some(w) = ids.windows(2).find(|w| w[0] == w[1]) {
            return Err(Error::range_error(
                format!("{field}.id"),
                format!("{:016x} appears twice", w[0]),
            ));
        }
        Ok(())
    }
}

/// The snapshot form: records grouped by topic, each a compact tuple
/// `[id, atMs, seq, "e" | "i", text]`, so a mature memory stays small in
/// localStorage and fast to parse.
impl Serialize for Store {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.topics.len()))?;
        for (topic, list) in &self.topics {
            map.serialize_entry(topic, &Rows(list))?;
        }
        map.end()
    }
}

impl Store {
    /// Writes what `Serialize` writes, byte for byte (a test holds them
    /// equal), straight into `out`: serde_json's per-value calls and
    /// per-byte escaping were most of export.
    pub(crate) fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.push(b'{');
        for (i, (topic, list)) in self.topics.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json::write_str(out, topic)?;
            out.push(b':');
            out.push(b'[');
            for (j, r) in list.iter().enumerate() {
                if j > 0 {
                    out.push(b',');
                }
                write_row(out, r)?;
            }
            out.push(b']');
        }
        out.push(b'}');
        Ok(())
    }
}

/// One `[id, atMs, seq, "e" | "i", text]` row. Everything before the text
/// is written byte by byte into a buffer on the stack and copied once: in
/// the size-optimised wasm build each slice copy is a call, and they were
/// most of export.
fn write_row(out: &mut Vec<u8>, r: &Record) -> serde_json::Result<()> {
    // `["` 16 hex digits `",` ≤ 20 digits `,` ≤ 20 digits `,"e",`: 66 bytes.
    let mut head = [0u8; 66];
    head[0] = b'[';
    head[1] = b'"';
    for (i, d) in crate::hash::hex_digits(r.id).into_iter().enumerate() {
        head[2 + i] = d;
    }
    head[18] = b'"';
    head[19] = b',';
    let at = json::put_u64(&mut head, 20, r.at_ms);
    head[at] = b',';
    let at = json::put_u64(&mut head, at + 1, r.seq);
    let tag = match r.source {
        Source::Explicit => b'e',
        Source::Implicit => b'i',
    };
    for (i, b) in [b',', b'"', tag, b'"', b','].into_iter().enumerate() {
        head[at + i] = b;
    }
    out.extend_from_slice(&head[..at + 5]);
    json::write_str(out, &r.text)?;
    out.push(b']');
    Ok(())
}

/// One topic's records as rows, written straight from the records.
struct Rows<'a>(&'a [Record]);

impl Serialize for Rows<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|r| {
            (
                Hex(r.id),
                r.at_ms,
                r.seq,
                source_tag(r.source),
                r.text.as_str(),
            )
        }))
    }
}

/// An id in a row, as `hash::hex` writes ids.
struct Hex(u64);

impl Serialize for Hex {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        crate::hash::hex::serialize(&self.0, s)
    }
}

fn source_tag(s: Source) -> char {
    match s {
        Source::Explicit => 'e',
        Source::Implicit => 'i',
    }
}

/// Restores without trimming: over-cap snapshots are rejected by `validate`.
/// Rows are read straight into records (no intermediate tuples), since import
/// time is mostly allocation.
impl<'de> Deserialize<'de> for Store {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct Topics;
        impl<'de> Visitor<'de> for Topics {
            type Value = Store;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object of topic → [id, atMs, seq, \"e\" | \"i\", text] rows")
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<Store, A::Error> {
                let mut topics = Vec::new();
                while let Some(topic) = map.next_key::<String>()? {
                    let list = map.next_value_seed(TopicRows(&topic))?;
                    topics.push((topic, list));
                }
                Store::from_topics(topics)
                    .map_err(|topic| A::Error::custom(format!("topic {topic:?} appears twice")))
            }
        }
        d.deserialize_map(Topics)
    }
}

/// The rows of one topic.
struct TopicRows<'a>(&'a str);

impl<'de> DeserializeSeed<'de> for TopicRows<'_> {
    type Value = Vec<Record>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Vec<Record>, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for TopicRows<'_> {
    type Value = Vec<Record>;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("an array of rows")
    }
    fn visit_seq<A: SeqAccess<'de>>(
        self,
        mut seq: A,
    ) -> std::result::Result<Vec<Record>, A::Error> {
        let mut list = Vec::with_capacity(seq.size_hint().unwrap_or(8).min(64));
        while let Some(r) = seq.next_element_seed(RowSeed(self.0))? {
            list.push(r);
        }
        Ok(list)
    }
}

/// One `[id, atMs, seq, "e" | "i", text]` row of a topic.
struct RowSeed<'a>(&'a str);

impl<'de> DeserializeSeed<'de> for RowSeed<'_> {
    type Value = Record;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<Record, D::Error> {
        d.deserialize_tuple(5, self)
    }
}

impl<'de> Visitor<'de> for RowSeed<'_> {
    type Value = Record;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a row [id, atMs, seq, \"e\" | \"i\", text]")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Record, A::Error> {
        let missing = || {
            A::Error::custom("a correction row needs 5 items: [id, atMs, seq, \"e\" | \"i\", text]")
        };
        let id = seq.next_element_seed(HexSeed)?.ok_or_else(missing)?;
        let at_ms = seq.next_element::<u64>()?.ok_or_else(missing)?;
        let seq_no = seq.next_element::<u64>()?.ok_or_else(missing)?;
        let source = match seq.next_element::<char>()?.ok_or_else(missing)? {
            'e' => Source::Explicit,
            'i' => Source::Implicit,
            other => {
                return Err(A::Error::custom(format!(
                    "correction source must be \"e\" or \"i\", got {other:?}"
                )));
            }
        };
        let text = seq.next_element::<String>()?.ok_or_else(missing)?;
        if seq.next_element::<IgnoredAny>()?.is_some() {
            return Err(A::Error::custom("a correction row has more than 5 items"));
        }
        Ok(Record {
            id,
            topic: self.0.to_string(),
            at_ms,
            seq: seq_no,
            source,
            text,
        })
    }
}

/// The snapshot form read by `json::Cursor`: the same store the
/// `Deserialize` impl builds, about five times faster, or `None` where that
/// impl fails or the text is not in the plain form (then it decides).
pub(crate) fn read_store(c: &mut Cursor<'_>) -> Option<Store> {
    c.expect(b'{')?;
    let mut topics = Vec::new();
    // One buffer for every topic's rows: each list is then allocated once,
    // at its size.
    let mut rows = Vec::new();
    c.items(b'}', |c| {
        let topic = c.string()?;
        c.expect(b':')?;
        c.expect(b'[')?;
        c.items(b']', |c| {
            rows.push(read_row(c, &topic)?);
            Some(())
        })?;
        let mut list = Vec::with_capacity(rows.len());
        list.append(&mut rows);
        topics.push((topic, list));
        Some(())
    })?;
    // A topic twice is an error the fallback reports.
    Store::from_topics(topics).ok()
}

/// One `[id, atMs, seq, "e" | "i", text]` row, after its topic's `[`.
fn read_row(c: &mut Cursor<'_>, topic: &str) -> Option<Record> {
    c.expect(b'[')?;
    let id = crate::hash::parse_hex(c.quoted(16)?)?;
    c.expect(b',')?;
    let at_ms = c.u64()?;
    c.expect(b',')?;
    let seq = c.u64()?;
    c.expect(b',')?;
    let source = match c.quoted(1)? {
        "e" => Source::Explicit,
        "i" => Source::Implicit,
        _ => return None,
    };
    c.expect(b',')?;
    let text = c.string()?;
    c.expect(b']')?;
    Some(Record {
        id,
        topic: topic.to_string(),
        at_ms,
        seq,
        source,
        text,
    })
}

struct HexSeed;

impl<'de> DeserializeSeed<'de> for HexSeed {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> std::result::Result<u64, D::Error> {
        crate::hash::hex::deserialize(d)
    }
}

/// The block placed before a prompt: the user's standing preferences, then
/// past corrections on this topic; `None` when there is neither.
pub fn prelude<'a>(
    pattern: Option<&CorrectionPattern>,
    preferences: impl IntoIterator<Item = &'a str>,
    rules: &[&rules::LearnedRule],
) -> Option<String> {
    let mut out = String::new();
    let mut prefs = preferences.into_iter().peekable();
    if prefs.peek().is_some() {
        out.push_str("The user's standing preferences:");
        for p in prefs {
            out.push_str("\n- ");
            out.push_str(&p.replace('\n', "\n  "));
        }
    }
    if !rules.is_empty() {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str("The user keeps correcting these across requests (most recent first):");
        for r in rules {
            out.push_str(&format!("\n- {}:", r.about.join(", ")));
            for ex in &r.examples {
                out.push_str("\n  - ");
                out.push_str(&ex.replace('\n', "\n    "));
            }
        }
    }
    if let Some(p) = pattern {
        if !out.is_empty() {
            out.push_str("\n\n");
        }
        out.push_str("The user has corrected earlier answers on this topic (most recent first):");
        for ex in &p.examples {
            out.push_str("\n- ");
            // Indent continuation lines so a multi-line correction stays one item.
            out.push_str(&ex.replace('\n', "\n  "));
        }
    }
    (!out.is_empty()).then_some(out)
}

/// The prompt with the prelude in front, or the prompt unchanged.
pub fn inject(prelude: Option<String>, prompt: &str) -> String {
    match head(prelude) {
        Some(h) => h + prompt,
        None => prompt.to_string(),
    }
}

/// What `inject` puts in front of the prompt, if anything: callers that hold
/// the prompt elsewhere (the JS layer) join the two without copying it.
pub fn head(prelude: Option<String>) -> Option<String> {
    prelude.map(|p| format!("{p}\n\nCurrent request: "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rec(id: &str, topic: &str, at: u64, text: &str) -> Record {
        Record {
            id: crate::hash::hash_bytes(0, id.as_bytes()),
            topic: topic.into(),
            at_ms: at,
            seq: 0,
            source: Source::Explicit,
            text: text.into(),
        }
    }

    #[test]
    fn pattern_at_threshold_with_newest_first_examples() {
        let cfg = Config::default();
        let mut s = Store::default();
        s.add(rec("a", "async+auth", 1, "don't add logging"), &cfg);
        s.add(
            rec("b", "async+auth", 2, "stop adding logging please"),
            &cfg,
        );
        assert!(
            s.pattern("async+auth", &[], &|_| false, &rules::link_keys, &cfg)
                .is_none()
        );
        s.add(rec("c", "async+auth", 3, "no more logs"), &cfg);
        let p = s
            .pattern("async+auth", &[], &|_| false, &rules::link_keys, &cfg)
            .unwrap();
        assert_eq!(p.count, 3);
        assert_eq!(p.confidence, 0.15);
        assert_eq!(
            p.examples,
            [
                "no more logs",
                "stop adding logging please",
                "don't add logging"
            ]
        );
        assert!(
            s.pattern("other", &[], &|_| false, &rules::link_keys, &cfg)
                .is_none()
        );
    }

    /// A correction inferred from the user's messages.
    fn inferred(id: &str, at: u64, text: &str) -> Record {
        Record {
            source: Source::Implicit,
            ..rec(id, "t", at, text)
        }
    }

    #[test]
    fn a_pattern_is_corrections_of_one_thing() {
        let cfg = Config::default();
        let mut s = Store::default();
        for (i, text) in [
            "the time is wrong, it's two o'clock",
            "sign it from the admin office, not HR",
            "the title is too long",
        ]
        .iter()
        .enumerate()
        {
            s.add(inferred(&format!("r{i}"), i as u64, text), &cfg);
        }
        assert!(
            s.pattern("t", &[], &|_| false, &rules::link_keys, &cfg)
                .is_none(),
            "three fixes of three things"
        );
        s.add(inferred("r3", 3, "still too long, shorten the title"), &cfg);
        assert!(
            s.pattern("t", &[], &|_| false, &rules::link_keys, &cfg)
                .is_none(),
            "two about the title"
        );
        s.add(inferred("r4", 4, "a title of four words"), &cfg);
        let p = s
            .pattern("t", &[], &|_| false, &rules::link_keys, &cfg)
            .unwrap();
        assert_eq!(p.count, 3);
        assert_eq!(
            p.examples,
            [
                "a title of four words",
                "still too long, shorten the title",
                "the title is too long"
            ]
        );
        // Sent through the app's correction control, three are a pattern
        // whatever each is about.
        let mut s = Store::default();
        for (i, text) in ["the time is wrong", "not from HR", "shorter title"]
            .iter()
            .enumerate()
        {
            s.add(rec(&format!("e{i}"), "t", i as u64, text), &cfg);
        }
        assert_eq!(
            s.pattern("t", &[], &|_| false, &rules::link_keys, &cfg)
                .map(|p| p.count),
            Some(3)
        );
    }

    #[test]
    fn caps_keep_the_newest() {
        let cfg = Config {
            max_correction_records: 30,
            ..Config::default()
        };
        let mut s = Store::default();
        for i in 0..40 {
            s.add(
                rec(
                    &format!("r{i}"),
                    "t",
                    i,
                    &format!("use pnpm, correction {i}"),
                ),
                &cfg,
            );
        }
        let p = s
            .pattern("t", &[], &|_| false, &rules::link_keys, &cfg)
            .unwrap();
        assert_eq!(p.count, 20);
        assert_eq!(p.confidence, 1.0);
        assert_eq!(p.examples[0], "use pnpm, correction 39");
        for i in 0..20 {
            s.add(rec(&format!("x{i}"), "u", 100 + i, "x"), &cfg);
        }
        assert_eq!(s.len(), 30);
        assert_eq!(s.count("u"), 20);
        assert_eq!(s.count("t"), 10, "the oldest went first");
    }

    #[test]
    fn empty_topic_is_dropped() {
        let mut s = Store::default();
        s.add(rec("a", "", 1, "x"), &Config::default());
        assert!(s.is_empty());
    }

    #[test]
    fn prelude_and_inject_format() {
        assert_eq!(prelude(None, [], &[]), None);
        assert_eq!(inject(None, "hi"), "hi");
        let p = CorrectionPattern {
            topic: "t".into(),
            count: 3,
            confidence: 0.15,
            examples: vec![
                "fourth: multi\nline".into(),
                "no more logs".into(),
                "".into(),
            ],
        };
        let pre = prelude(Some(&p), [], &[]).unwrap();
        assert_eq!(
            pre,
            "The user has corrected earlier answers on this topic (most recent first):\n- fourth: multi\n  line\n- no more logs\n- "
        );
        assert_eq!(
            inject(Some(pre.clone()), "do it"),
            format!("{pre}\n\nCurrent request: do it")
        );
        let both = prelude(Some(&p), ["From now on, use tabs."], &[]).unwrap();
        assert!(both.starts_with(
            "The user's standing preferences:\n- From now on, use tabs.\n\nThe user has corrected"
        ));
        assert_eq!(
            prelude(None, ["Always answer in Spanish."], &[]).unwrap(),
            "The user's standing preferences:\n- Always answer in Spanish."
        );
    }

    #[test]
    fn merge_prefers_the_explicit_version_of_one_id() {
        let cfg = Config::default();
        let mut a = Store::default();
        let mut implicit = rec("x", "t", 5, "retry text");
        implicit.source = Source::Implicit;
        a.add(implicit, &cfg);
        let mut b = a.clone();
        assert!(b.upgrade(
            crate::hash::hash_bytes(0, b"x"),
            "no, without logging".into()
        ));
        let m1 = a.merge(&b, &cfg);
        let m2 = b.merge(&a, &cfg);
        assert_eq!(m1, m2);
        assert_eq!(m1.len(), 1);
        assert_eq!(
            m1.get(crate::hash::hash_bytes(0, b"x")).unwrap().text,
            "no, without logging"
        );
    }

    fn check(records: Vec<Record>) -> Result<()> {
        let mut s = Store::default();
        for r in records {
            s.topics.or_default(r.topic.clone()).push(r);
        }
        s.len = s.topics.values().map(Vec::len).sum();
        s.validate(&Config::default())
    }

    #[test]
    fn validation_rejects_tampering() {
        assert!(check(vec![rec("a", "t", 1, "x"), rec("a", "u", 2, "y")]).is_err());
        assert!(check(vec![rec("a", "", 1, "x")]).is_err());
        assert!(check(vec![rec("a", "t", 1, &"x".repeat(5000))]).is_err());
        let many: Vec<Record> = (0..21)
            .map(|i| rec(&format!("r{i}"), "t", i, "x"))
            .collect();
        assert!(check(many.clone()).is_err());
        assert!(check(many[..20].to_vec()).is_ok());
    }

    #[test]
    fn snapshot_form_is_grouped_compact_and_round_trips() {
        let cfg = Config::default();
        let mut s = Store::default();
        s.add(rec("b", "t", 2, "second"), &cfg);
        let mut i = rec("a", "t", 1, "first");
        i.source = Source::Implicit;
        s.add(i, &cfg);
        let json = serde_json::to_string(&s).unwrap();
        let (a, b) = (
            crate::hash::hash_bytes(0, b"a"),
            crate::hash::hash_bytes(0, b"b"),
        );
        assert_eq!(
            json,
            format!(r#"{{"t":[["{a:016x}",1,0,"i","first"],["{b:016x}",2,0,"e","second"]]}}"#)
        );
        assert_eq!(serde_json::from_str::<Store>(&json).unwrap(), s);
        let mut written = Vec::new();
        s.write_json(&mut written).unwrap();
        assert_eq!(String::from_utf8(written).unwrap(), json);
        for bad in [
            r#"{"t":[["0000000000000001",1,0,"?","x"]]}"#,
            r#"{"t":[["1",1,0,"e","x"]]}"#,
            r#"{"t":[["000000000000000g",1,0,"e","x"]]}"#,
            r#"{"t":[["0000000000000001",1,0,"e"]]}"#,
            r#"{"t":[["0000000000000001",1,0,"e","x",5]]}"#,
            r#"{"t":[["0000000000000002",1,0,"e","y"]],"t":[["0000000000000001",1,0,"e","x"]]}"#,
        ] {
            assert!(serde_json::from_str::<Store>(bad).is_err(), "{bad}");
        }
    }
}
