//! The persisted snapshot: versioned, lossless and mergeable.
//!
//! `memory` is what outlives a task (corrections, per-topic statistics) and
//! merges across copies of one user; `session` is the running task (spend,
//! quality, the current turn), so a Worker can export after one request and
//! import before the next and regulate as if it had never stopped.

use std::collections::VecDeque;

use std::fmt;

use serde::de::{IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::Config;
use crate::detect::budget::Budget;
use crate::detect::confidence::{MAX_NLL, Shape, TokenStats};
use crate::detect::corrections::rules::{Dismissed, MAX_DISMISSED};
use crate::detect::corrections::{MAX_KEY_BYTES, Record, Source, Store, read_store};
use crate::detect::drift::{DriftReport, TaskFacts};
use crate::detect::incidents::Incidents;
use crate::detect::preferences::Preferences;
use crate::detect::tools::{DONE_CALLS, EarlierCalls, MAX_TOOL_NAMES, RECENT_CALLS, ToolTurn};
use crate::error::{Error, Result, json_message};
use crate::event::MAX_NAME_BYTES;
use crate::hash::{combine, hash_bytes};
use crate::json::typed::{self, FromJson, Got};
use crate::json::{Cursor, MAX_NESTING};
use crate::sorted_map::SortedMap;
use crate::text::{KeywordBag, topic_key};

/// Identifies a reins snapshot among other JSON.
pub const FORMAT: &str = "reins.state";
/// The snapshot version this build writes. It reads this one and the
/// reference design's (noos 0.4.1) `RegulatorState`.
pub const VERSION: u32 = 1;
/// Earlier user turns whose keywords anchor a response.
pub const CONTEXT_TURNS: usize = 3;
/// Bytes of tool traffic kept per turn for anchoring.
pub const TOOL_TEXT_BYTES: usize = 8 * 1024;
/// Topics with statistics kept (the most recently active).
pub const MAX_TOPICS: usize = 256;
/// Longest snapshot read, in UTF-8 bytes: a snapshot of the largest state
/// the caps allow (10,000 records of 1,000 escaped characters) fits.
pub const MAX_SNAPSHOT_BYTES: usize = 64 << 20;

/// Learned per-topic statistics.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TopicStats {
    pub turns: u64,
    pub feedback: u64,
    pub quality_sum: f64,
    pub last_at_ms: u64,
}

impl TopicStats {
    /// Of two copies' statistics of one topic, the one active last (then
    /// the one that counted more). Keeping a whole copy, chosen by a total
    /// order led by `last_at_ms` (the order topics are trimmed by), is what
    /// keeps merging associative at the topic cap: a topic trimmed from one
    /// merge and brought back by a newer copy in the next comes back as that
    /// copy, as it would from merging everything at once. (A join of parts
    /// would bring it back without what the trimmed copies had counted.)
    fn merge_key(&self) -> (u64, u64, u64, u64) {
        (
            self.last_at_ms,
            self.turns,
            self.feedback,
            self.quality_sum.to_bits(),
        )
    }

    pub fn mean_quality(&self) -> Option<f64> {
        (self.feedback > 0).then(|| self.quality_sum / self.feedback as f64)
    }
}

/// What outlives a task.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Memory {
    /// Records created so far by this lineage (orders records of one millisecond).
    pub seq: u64,
    pub implicit_corrections: u64,
    pub corrections: Store,
    pub topics: SortedMap<String, TopicStats>,
    /// Standing preferences, user-wide.
    #[serde(default)]
    pub preferences: Preferences,
    /// Learned rules the app dismissed.
    #[serde(default, skip_serializing_if = "is_empty_dismissed")]
    pub dismissed: Dismissed,
}

fn is_quiet_failing(f: &crate::detect::failing::Failing) -> bool {
    *f == crate::detect::failing::Failing::default()
}

fn is_empty_insistence(i: &crate::detect::insist::Insistence) -> bool {
    i.0.is_empty()
}

fn is_empty_dismissed(d: &Dismissed) -> bool {
    d.0.is_empty()
}

impl Memory {
    /// Union of two memories, trimmed to `cfg`'s caps. Commutative,
    /// associative and idempotent; neither input changes.
    pub fn merge(&self, other: &Memory, cfg: &Config) -> Memory {
        let mut topics = self.topics.clone();
        for (k, v) in &other.topics {
            match topics.get(k) {
                Some(cur) if cur.merge_key() >= v.merge_key() => {}
                _ => {
                    topics.insert(k.clone(), v.clone());
                }
            }
        }
        trim_topics(&mut topics);
        Memory {
            seq: self.seq.max(other.seq),
            implicit_corrections: self.implicit_corrections.max(other.implicit_corrections),
            corrections: self.corrections.merge(&other.corrections, cfg),
            topics,
            preferences: self.preferences.merge(&other.preferences),
            dismissed: self.dismissed.merge(&other.dismissed),
        }
    }

    /// This memory holding none of the user's words: correction records keep
    /// their topic, time and kind but not their text, and standing
    /// preferences (nothing but text) are left out. For apps that must not
    /// store what users typed.
    pub fn without_texts(&self) -> Memory {
        Memory {
            corrections: self.corrections.without_texts(),
            preferences: Preferences::default(),
            ..self.clone()
        }
    }

    pub fn topic_mut(&mut self, topic: &str) -> Option<&mut TopicStats> {
        if topic.is_empty() {
            return None;
        }
        if !self.topics.contains_key(topic) {
            self.topics.insert(topic.to_string(), TopicStats::default());
            trim_topics(&mut self.topics);
        }
        self.topics.get_mut(topic)
    }

    fn validate(&self, cfg: &Config) -> Result<()> {
        self.corrections.validate(cfg)?;
        self.preferences.validate()?;
        if !self.dismissed.is_valid() {
            return Err(Error::range_error(
                "memory.dismissed",
                format!("must hold at most {MAX_DISMISSED} distinct ids, oldest first"),
            ));
        }
        if self.topics.len() > MAX_TOPICS {
            return Err(Error::range_error(
                "memory.topics",
                format!("has more than {MAX_TOPICS} topics"),
            ));
        }
        for (k, t) in &self.topics {
            // Named only for an error: formatting it for every topic was a
            // noticeable part of import.
            let f = || format!("memory.topics[{k:?}]");
            if k.is_empty() || k.len() > MAX_KEY_BYTES {
                return Err(Error::range_error(
                    f(),
                    format!("key must be 1 to {MAX_KEY_BYTES} bytes"),
                ));
            }
            if !t.quality_sum.is_finite()
                || t.quality_sum < 0.0
                || t.quality_sum > t.feedback as f64
            {
                return Err(Error::range_error(
                    f() + ".qualitySum",
                    "must be between 0 and feedback",
                ));
            }
        }
        Ok(())
    }
}

/// Keeps the most recently active topics; ties broken by key for a total order.
fn trim_topics(topics: &mut SortedMap<String, TopicStats>) {
    let Some(excess) = topics.len().checked_sub(MAX_TOPICS).filter(|&n| n > 0) else {
        return;
    };
    let mut by_age: Vec<(u64, &String)> = topics.iter().map(|(k, t)| (t.last_at_ms, k)).collect();
    crate::sort::sort_by(&mut by_age, |a, b| a.cmp(b));
    let oldest: Vec<String> = by_age
        .iter()
        .take(excess)
        .map(|(_, k)| (*k).clone())
        .collect();
    for k in oldest {
        topics.remove(&k);
    }
}

/// The current turn's response, reduced to what the detectors need.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Response {
    pub keywords: KeywordBag,
    pub shape: Shape,
    /// It asked the user for output: a pasted error answers it.
    #[serde(default)]
    pub requested: bool,
    /// It refused or declined something.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub refused: bool,
    /// Quality feedback already counted for this response.
    pub graded: bool,
    /// The house styles it follows (`text::concepts`, a bit set): "km
    /// please" after it insists on nothing if it was in kilometres.
    #[serde(default, skip_serializing_if = "crate::json::is_default")]
    pub concepts: u32,
}

crate::json::typed::from_json!(Response {
    req keywords: "keywords",
    req shape: "shape",
    opt requested: "requested",
    opt refused: "refused",
    req graded: "graded",
    opt concepts: "concepts",
});

impl Response {
    /// Whether it asked the user something: the next message answers it.
    pub fn asked(&self) -> bool {
        self.shape.questions > 0
    }
}

/// The most recent response, kept across the next turn start so a retry or
/// an explicit correction can be filed against it.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct LastResponse {
    pub turn: u64,
    pub topic: String,
    pub at_ms: Option<u64>,
    /// The implicit correction already filed against it (one per response).
    #[serde(with = "crate::hash::hex_opt")]
    pub implicit_id: Option<u64>,
    pub explicit: bool,
}

crate::json::typed::from_json!(LastResponse {
    req turn: "turn",
    req topic: "topic",
    opt at_ms: "atMs",
    hex_opt implicit_id: "implicitId",
    req explicit: "explicit",
});

/// The running task.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Session {
    pub turns: u64,
    pub last_at_ms: Option<u64>,
    pub topic: String,
    pub task: KeywordBag,
    pub response: Option<Response>,
    pub tools: ToolTurn,
    pub tokens: TokenStats,
    pub budget: Budget,
    pub last_response: Option<LastResponse>,
    pub tool_calls_total: u64,
    /// Calls of this session that returned, for repeats across turns.
    #[serde(default)]
    pub earlier_calls: EarlierCalls,
    /// Pushback turns and incidents of this session.
    #[serde(default)]
    pub incidents: Incidents,
    /// Counts episodes of work: a new one starts with a message that came
    /// long after the answer before it, or announced another subject.
    #[serde(default)]
    pub episode: u64,
    /// The correction records filed in this episode, oldest first: one
    /// piece of work corrected under several follow-up requests.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub episode_records: Vec<RecordId>,
    /// The agent's current streak of turns failing on one obstacle.
    #[serde(default, skip_serializing_if = "is_quiet_failing")]
    pub failing: crate::detect::failing::Failing,
    /// Words the user raised again after answers that left them out.
    #[serde(default, skip_serializing_if = "is_empty_insistence")]
    pub insistence: crate::detect::insist::Insistence,
    /// What the current request rules out, its language and named tech.
    #[serde(default)]
    pub facts: TaskFacts,
    /// The previous user turns' keywords (newest last), for anchoring.
    #[serde(default)]
    pub context: VecDeque<KeywordBag>,
    /// This turn's tool names, arguments and results, bounded, for anchoring.
    #[serde(default)]
    pub tool_text: String,
    /// The drift verdict on the current response.
    #[serde(default)]
    pub drift: Option<DriftReport>,
}

crate::json::typed::from_json!(Session {
    req turns: "turns",
    opt last_at_ms: "lastAtMs",
    req topic: "topic",
    req task: "task",
    opt response: "response",
    req tools: "tools",
    req tokens: "tokens",
    req budget: "budget",
    opt last_response: "lastResponse",
    req tool_calls_total: "toolCallsTotal",
    opt earlier_calls: "earlierCalls",
    opt incidents: "incidents",
    opt episode: "episode",
    opt episode_records: "episodeRecords",
    opt failing: "failing",
    opt insistence: "insistence",
    opt facts: "facts",
    opt context: "context",
    opt tool_text: "toolText",
    opt drift: "drift",
});

/// Record ids followed per episode (the newest kept).
pub const EPISODE_RECORDS: usize = 32;

/// A correction record's id, kept as 16 hex digits like the record's own.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct RecordId(#[serde(with = "crate::hash::hex")] pub u64);

impl FromJson for RecordId {
    fn from_json(v: &Value) -> Got<RecordId> {
        typed::hex(v).map(RecordId)
    }
}

impl Session {
    fn validate(&self, cfg: &Config) -> Result<()> {
        let bad = |f: &str, m: &str| Err(Error::range_error(format!("session.{f}"), m.to_string()));
        if self.topic.len() > MAX_KEY_BYTES {
            return bad("topic", "is too long");
        }
        let b = &self.budget;
        if b.quality.len() > cfg.quality_history as usize {
            return bad("budget.quality", "has more samples than qualityHistory");
        }
        if b.quality.iter().any(|q| !(0.0..=1.0).contains(q)) {
            return bad("budget.quality", "samples must be between 0 and 1");
        }
        if !b.usd.is_finite() || b.usd < 0.0 {
            return bad("budget.usd", "must be a finite amount of at least 0");
        }
        let t = &self.tokens;
        if t.window.len() > cfg.logprob_window as usize {
            return bad("tokens.window", "is longer than logprobWindow");
        }
        if t.window.iter().any(|v| !(0.0..=MAX_NLL).contains(v)) {
            return bad("tokens.window", "values must be between 0 and 30");
        }
        if t.unavailable > t.total {
            return bad("tokens.unavailable", "exceeds tokens.total");
        }
        let tools = &self.tools;
        if tools.recent.len() > RECENT_CALLS || tools.counts.len() > MAX_TOOL_NAMES + 1 {
            return bad("tools", "holds more calls or names than the caps");
        }
        let names = tools
            .recent
            .iter()
            .map(|c| &c.name)
            .chain(tools.counts.keys());
        if names
            .clone()
            .any(|n| n.is_empty() || n.len() > MAX_NAME_BYTES)
        {
            return bad("tools", "has an empty or over-long tool name");
        }
        if tools
            .recent
            .iter()
            .filter_map(|c| c.call_id.as_ref())
            .any(|id| id.len() > MAX_NAME_BYTES)
        {
            return bad("tools.recent", "has an over-long call id");
        }
        if !tools.listed.is_valid() {
            return bad("tools.listed", "is unsorted or holds more than the caps");
        }
        if tools.run_len > tools.calls || (tools.run_len == 0) != tools.recent.is_empty() {
            return bad("tools.runLen", "does not match the recorded calls");
        }
        if self.context.len() > CONTEXT_TURNS || self.tool_text.len() > TOOL_TEXT_BYTES {
            return bad("context", "holds more than the caps");
        }
        if !self.facts.is_bounded() {
            return bad("facts", "holds more than the caps");
        }
        if let Some(d) = &self.drift
            && (!(0.0..=1.0).contains(&d.score) || d.tokens.len() > 64)
        {
            return bad("drift", "is out of range");
        }
        if !self.failing.is_bounded() {
            return bad("failing", "is over its bounds");
        }
        if !self.insistence.is_bounded() {
            return bad("insistence", "is over its bounds");
        }
        if !self.incidents.is_bounded() {
            return bad("incidents", "holds more than the caps");
        }
        if self.episode_records.len() > EPISODE_RECORDS {
            return bad("episodeRecords", "holds more ids than the cap");
        }
        if self.earlier_calls.0.len() > DONE_CALLS {
            return bad("earlierCalls", "holds more calls than the cap");
        }
        if let Some(l) = &self.last_response
            && l.topic.len() > MAX_KEY_BYTES
        {
            return bad("lastResponse", "has an over-long topic");
        }
        Ok(())
    }
}

/// Everything a regulator needs to carry on elsewhere.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Snapshot {
    pub format: String,
    pub version: u32,
    pub user_id: String,
    pub config: Config,
    pub memory: Memory,
    #[serde(default)]
    pub session: Session,
}

/// A snapshot as serde_json reads it: the session is left as a JSON value
/// for `Session::from_json` (see `json::typed`).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SnapshotIn {
    format: String,
    version: u32,
    user_id: String,
    config: Config,
    memory: Memory,
    #[serde(default)]
    session: Value,
}

impl SnapshotIn {
    fn read(self) -> Result<Snapshot> {
        Ok(Snapshot {
            session: read_session(&self.session)?,
            format: self.format,
            version: self.version,
            user_id: self.user_id,
            config: self.config,
            memory: self.memory,
        })
    }
}

/// The session a snapshot holds (none: a fresh one), its errors named
/// under `session`, as `Session::validate` names them.
fn read_session(v: &Value) -> Result<Session> {
    if v.is_null() {
        return Ok(Session::default());
    }
    Session::from_json(v).map_err(|bad| {
        let bad = bad.within("session");
        Error::type_error(bad.path, bad.message)
    })
}

/// A snapshot made of borrowed parts, so exporting never clones the state.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct SnapshotRef<'a> {
    pub format: &'a str,
    pub version: u32,
    pub user_id: &'a str,
    pub config: &'a Config,
    pub memory: &'a Memory,
    /// `None` writes the memory alone: it imports with a fresh session.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub session: Option<&'a Session>,
}

impl SnapshotRef<'_> {
    pub fn to_json(&self) -> String {
        // Sized up front: growing the buffer by doubling is a large share of export.
        let estimate = 1024
            + self
                .memory
                .corrections
                .records()
                .map(|r| r.text.len() + 64)
                .sum::<usize>();
        let mut out = Vec::with_capacity(estimate);
        // Serialising plain data with string keys into memory cannot fail, and
        // serde_json writes only valid UTF-8.
        if self.write(&mut out).is_err() {
            return String::new();
        }
        String::from_utf8(out).unwrap_or_default()
    }

    /// Writes what the derived `Serialize` writes, byte for byte (a test
    /// holds them equal), but the correction rows by `Store::write_json`.
    fn write(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        let m = self.memory;
        field(out, "{\"format\":", self.format)?;
        field(out, ",\"version\":", &self.version)?;
        field(out, ",\"userId\":", self.user_id)?;
        field(out, ",\"config\":", self.config)?;
        field(out, ",\"memory\":{\"seq\":", &m.seq)?;
        field(out, ",\"implicitCorrections\":", &m.implicit_corrections)?;
        out.extend_from_slice(b",\"corrections\":");
        m.corrections.write_json(out)?;
        field(out, ",\"topics\":", &m.topics)?;
        field(out, ",\"preferences\":", &m.preferences)?;
        if !is_empty_dismissed(&m.dismissed) {
            field(out, ",\"dismissed\":", &m.dismissed)?;
        }
        out.push(b'}');
        if let Some(session) = self.session {
            field(out, ",\"session\":", session)?;
        }
        out.push(b'}');
        Ok(())
    }
}

/// `prefix` (punctuation and a key) and then `value` in JSON.
fn field<T: Serialize + ?Sized>(
    out: &mut Vec<u8>,
    prefix: &str,
    value: &T,
) -> serde_json::Result<()> {
    out.extend_from_slice(prefix.as_bytes());
    serde_json::to_writer(out, value)
}

impl Snapshot {
    pub fn to_json(&self) -> String {
        SnapshotRef {
            format: &self.format,
            version: self.version,
            user_id: &self.user_id,
            config: &self.config,
            memory: &self.memory,
            session: Some(&self.session),
        }
        .to_json()
    }

    /// Parses any snapshot this build reads: the current version, or a noos
    /// 0.4.1 `RegulatorState` (its correction examples become records).
    pub fn from_json(text: &str) -> Result<Snapshot> {
        if text.len() > MAX_SNAPSHOT_BYTES {
            return Err(Error::range_error(
                "snapshot",
                format!(
                    "is {} bytes long; the limit is {MAX_SNAPSHOT_BYTES} bytes",
                    text.len()
                ),
            ));
        }
        // The common case is read by the fast path, or else parsed once,
        // straight into the typed structs.
        if let Some(snap) = read_plain(text) {
            snap.validate()?;
            return Ok(snap);
        }
        if let Ok(snap) = serde_json::from_str::<SnapshotIn>(text)
            && snap.format == FORMAT
            && snap.version == VERSION
        {
            let snap = snap.read()?;
            snap.validate()?;
            return Ok(snap);
        }
        // Otherwise read only the identifying fields (the rest is skipped, not
        // built) to say precisely what is wrong, or to read an older format.
        let head: Header = serde_json::from_str(text).map_err(|e| {
            Error::type_error(
                "snapshot",
                format!("is not a JSON object: {}", json_message(&e)),
            )
        })?;
        let snap = match head.format {
            Some(Scalar::Str(f)) if f == FORMAT => {
                let Some(Scalar::Int(version)) = head.version else {
                    return Err(Error::type_error(
                        "snapshot.version",
                        "must be a whole number",
                    ));
                };
                if version > u64::from(VERSION) {
                    return Err(Error::range_error(
                        "snapshot.version",
                        format!(
                            "is {version}, newer than this reins reads (up to {VERSION}); upgrade reins"
                        ),
                    ));
                }
                if version < 1 {
                    return Err(Error::range_error(
                        "snapshot.version",
                        format!("{version} was never written"),
                    ));
                }
                serde_json::from_str::<SnapshotIn>(text)
                    .map_err(|e| Error::type_error("snapshot", json_message(&e)))?
                    .read()?
            }
            Some(other) => {
                return Err(Error::type_error(
                    "snapshot.format",
                    format!("is {other}, not {FORMAT:?}"),
                ));
            }
            None if head.user_id.is_some() && head.learned.is_some() => {
                let noos: Noos = serde_json::from_str(text).map_err(|e| {
                    Error::type_error(
                        "snapshot",
                        format!("is not a noos state: {}", json_message(&e)),
                    )
                })?;
                from_noos(noos)
            }
            None => {
                return Err(Error::type_error(
                    "snapshot",
                    "is not a reins snapshot (no \"format\" field)",
                ));
            }
        };
        snap.validate()?;
        Ok(snap)
    }

    pub fn validate(&self) -> Result<()> {
        if self.user_id.is_empty() || self.user_id.len() > MAX_NAME_BYTES {
            return Err(Error::range_error(
                "snapshot.userId",
                format!("must be 1 to {MAX_NAME_BYTES} bytes"),
            ));
        }
        self.config
            .validate()
            .map_err(|e| Error::range_error(format!("snapshot.{}", e.field()), e.message()))?;
        self.memory.validate(&self.config)?;
        self.session.validate(&self.config)
    }
}

/// The fast path of `Snapshot::from_json`: a current snapshot in the plain
/// form reins writes, its correction rows read by `corrections::read_store`
/// and the other fields by serde_json. `None` for anything else (an unknown
/// or repeated field, an escaped key, another format or version, an error):
/// the full parse then gives the same snapshot or the exact error.
fn read_plain(text: &str) -> Option<Snapshot> {
    let mut c = Cursor::new(text);
    c.expect(b'{')?;
    let (mut format, mut version, mut user_id) = (None, None, None);
    let (mut config, mut memory, mut session) = (None, None, None);
    // Values one level down: what serde_json allows them to nest.
    let depth = MAX_NESTING - 1;
    c.items(b'}', |c| match c.key()? {
        "format" => once(&mut format, c.value::<String>(depth)?),
        "version" => once(&mut version, c.value::<u32>(depth)?),
        "userId" => once(&mut user_id, c.value::<String>(depth)?),
        "config" => once(&mut config, c.value::<Config>(depth)?),
        "memory" => once(&mut memory, read_memory(c)?),
        "session" => once(&mut session, read_session(&c.value(depth)?).ok()?),
        _ => None,
    })?;
    c.end()?;
    let snap = Snapshot {
        format: format?,
        version: version?,
        user_id: user_id?,
        config: config?,
        memory: memory?,
        session: session.unwrap_or_default(),
    };
    (snap.format == FORMAT && snap.version == VERSION).then_some(snap)
}

/// The memory object, as `read_plain` reads the snapshot around it.
fn read_memory(c: &mut Cursor<'_>) -> Option<Memory> {
    c.expect(b'{')?;
    let (mut seq, mut implicit, mut corrections) = (None, None, None);
    let (mut topics, mut preferences, mut dismissed) = (None, None, None);
    let depth = MAX_NESTING - 2;
    c.items(b'}', |c| match c.key()? {
        "seq" => once(&mut seq, c.u64()?),
        "implicitCorrections" => once(&mut implicit, c.u64()?),
        "corrections" => once(&mut corrections, read_store(c)?),
        "topics" => once(&mut topics, c.value(depth)?),
        "preferences" => once(&mut preferences, c.value(depth)?),
        "dismissed" => once(&mut dismissed, c.value(depth)?),
        _ => None,
    })?;
    Some(Memory {
        seq: seq?,
        implicit_corrections: implicit?,
        corrections: corrections?,
        topics: topics?,
        preferences: preferences.unwrap_or_default(),
        dismissed: dismissed.unwrap_or_default(),
    })
}

/// Fills a field read once; a field repeated is an error serde reports.
fn once<T>(slot: &mut Option<T>, value: T) -> Option<()> {
    slot.is_none().then(|| *slot = Some(value))
}

/// The fields that tell which kind of snapshot a text is.
#[derive(Deserialize)]
struct Header {
    format: Option<Scalar>,
    version: Option<Scalar>,
    user_id: Option<IgnoredAny>,
    learned: Option<IgnoredAny>,
}

/// Any JSON value, kept only as far as an error message needs it (a typed
/// visitor instead of `serde_json::Value` keeps the wasm module small).
enum Scalar {
    Str(String),
    Int(u64),
    Other(String),
}

impl fmt::Display for Scalar {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Scalar::Str(s) => write!(f, "{s:?}"),
            Scalar::Int(n) => write!(f, "{n}"),
            Scalar::Other(what) => f.write_str(what),
        }
    }
}

impl<'de> Deserialize<'de> for Scalar {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> std::result::Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Scalar;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_str<E>(self, s: &str) -> std::result::Result<Scalar, E> {
                Ok(Scalar::Str(s.to_string()))
            }
            fn visit_u64<E>(self, n: u64) -> std::result::Result<Scalar, E> {
                Ok(Scalar::Int(n))
            }
            fn visit_i64<E>(self, n: i64) -> std::result::Result<Scalar, E> {
                Ok(Scalar::Other(format!("{n}")))
            }
            fn visit_f64<E>(self, _: f64) -> std::result::Result<Scalar, E> {
                Ok(Scalar::Other("a fractional number".into()))
            }
            fn visit_bool<E>(self, b: bool) -> std::result::Result<Scalar, E> {
                Ok(Scalar::Other(format!("{b}")))
            }
            fn visit_unit<E>(self) -> std::result::Result<Scalar, E> {
                Ok(Scalar::Other("null".into()))
            }
            fn visit_seq<A: SeqAccess<'de>>(
                self,
                mut a: A,
            ) -> std::result::Result<Scalar, A::Error> {
                while a.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other("an array".into()))
            }
            fn visit_map<A: MapAccess<'de>>(
                self,
                mut a: A,
            ) -> std::result::Result<Scalar, A::Error> {
                while a.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Scalar::Other("an object".into()))
            }
        }
        d.deserialize_any(V)
    }
}

/// The parts of a noos 0.4.1 `RegulatorState` that carry over.
#[derive(Deserialize)]
struct Noos {
    user_id: String,
    #[serde(default)]
    correction_patterns: Option<SortedMap<String, NoosPattern>>,
}

#[derive(Deserialize)]
struct NoosPattern {
    #[serde(default)]
    example_corrections: Vec<String>,
}

/// The reference design's snapshot: each pattern's example corrections
/// (stored newest first) become records under our topic key for the same words.
fn from_noos(noos: Noos) -> Snapshot {
    let user_id = noos.user_id;
    let cfg = Config::default();
    let mut records = Vec::new();
    let mut seq = 0u64;
    for (key, pattern) in noos.correction_patterns.unwrap_or_default() {
        {
            let topic = topic_key(&KeywordBag::from_text(&key.replace('+', " ")));
            for text in pattern.example_corrections.iter().rev() {
                let text = crate::text::truncate_chars(&crate::text::redact_secrets(text), 1000);
                let id = combine(
                    hash_bytes(seq, key.as_bytes()),
                    hash_bytes(0, text.as_bytes()),
                );
                records.push(Record {
                    id,
                    topic: topic.clone(),
                    at_ms: 0,
                    seq,
                    source: Source::Explicit,
                    text,
                });
                seq += 1;
            }
        }
    }
    Snapshot {
        format: FORMAT.into(),
        version: VERSION,
        user_id,
        config: cfg.clone(),
        memory: Memory {
            seq,
            corrections: Store::from_records(records, &cfg),
            ..Memory::default()
        },
        session: Session::default(),
    }
}

#[cfg(test)]
mod session_tests;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{MAX_CORRECTION_RECORDS, MAX_GLOSSARY, MAX_GLOSSARY_BYTES};
    use crate::detect::preferences::{MAX_PREFERENCE_CHARS, Preference};

    /// The longest text each field takes: control characters, which JSON
    /// writes as six bytes each (`\u0001`).
    fn worst(chars: usize) -> String {
        "\u{1}".repeat(chars)
    }

    fn record(i: u64) -> Record {
        Record {
            id: u64::MAX - i,
            topic: format!("{i:0>128}").chars().take(MAX_KEY_BYTES).collect(),
            at_ms: u64::MAX >> 11,
            seq: u64::MAX >> 11,
            source: Source::Explicit,
            text: worst(crate::detect::corrections::MAX_TEXT_CHARS + 1),
        }
    }

    /// Everything at its cap but the correction records, which number `n`.
    fn largest(n: u64) -> Snapshot {
        let config = Config {
            max_correction_records: MAX_CORRECTION_RECORDS as u32,
            max_corrections_per_topic: 200,
            glossary: vec![worst(MAX_GLOSSARY_BYTES); MAX_GLOSSARY],
            ..Config::default()
        };
        let mut memory = Memory {
            seq: u64::MAX >> 11,
            corrections: Store::from_records((0..n).map(record).collect(), &config),
            ..Memory::default()
        };
        for i in 0..MAX_TOPICS as u64 {
            let t = memory.topic_mut(&record(i).topic).unwrap();
            *t = TopicStats {
                turns: u64::MAX >> 11,
                feedback: u64::MAX >> 11,
                quality_sum: 1e15,
                last_at_ms: u64::MAX >> 11,
            };
        }
        for i in 0..crate::detect::preferences::MAX_PREFERENCES as u64 {
            memory.preferences.add(Preference {
                id: i,
                at_ms: i,
                seq: i,
                text: format!(
                    "{}{}",
                    char::from(b'a' + i as u8),
                    worst(MAX_PREFERENCE_CHARS)
                ),
            });
        }
        let session = Session {
            tool_text: worst(TOOL_TEXT_BYTES),
            ..Session::default()
        };
        Snapshot {
            format: FORMAT.into(),
            version: VERSION,
            user_id: worst(crate::event::MAX_NAME_BYTES),
            config,
            memory,
            session,
        }
    }

    /// Whatever the caps allow exports to a snapshot `import` accepts: one
    /// record more adds a fixed number of bytes, so the largest state is
    /// measured from two small ones.
    #[test]
    fn the_largest_state_the_caps_allow_fits_the_snapshot_limit() {
        let one = largest(1).to_json().len();
        let two = largest(2).to_json().len();
        let per_record = two - one;
        assert!(per_record > 6 * 1001, "{per_record}");
        let most = one + per_record * (MAX_CORRECTION_RECORDS as usize - 1);
        assert!(
            most <= MAX_SNAPSHOT_BYTES,
            "{most} bytes > {MAX_SNAPSHOT_BYTES}"
        );
        // And the measured form is one that imports.
        let snap = largest(3);
        snap.validate().unwrap();
        assert_eq!(Snapshot::from_json(&snap.to_json()).unwrap(), snap);
    }

    /// The hand-written export is the derived one, byte for byte, with and
    /// without the optional parts.
    #[test]
    fn export_writes_what_serde_writes() {
        let mut snap = largest(3);
        snap.memory
            .dismissed
            .add(crate::detect::corrections::rules::Dismissal { at_ms: 1, id: 2 });
        for (snap, session) in [(&snap, true), (&largest(0), false)] {
            let r = SnapshotRef {
                format: &snap.format,
                version: snap.version,
                user_id: &snap.user_id,
                config: &snap.config,
                memory: &snap.memory,
                session: session.then_some(&snap.session),
            };
            assert_eq!(r.to_json(), serde_json::to_string(&r).unwrap());
        }
    }

    /// The fast path reads what serde_json reads, or leaves the text to it.
    #[test]
    fn the_fast_path_reads_what_serde_reads() {
        let mut snap = largest(3);
        snap.memory.corrections = Store::from_records(
            vec![
                Record {
                    text: "a \"quoted\"\nline\\ é \u{1}".into(),
                    ..record(7)
                },
                record(8),
            ],
            &snap.config,
        );
        let json = snap.to_json();
        let pretty = serde_json::to_string_pretty(&snap).unwrap();
        for text in [&json, &pretty] {
            assert_eq!(read_plain(text).as_ref(), Some(&snap));
        }
        let odd = [
            json.replacen("\"format\"", "\"\\u0066ormat\"", 1),
            json.replacen("\"seq\":", "\"seq\":1,\"seq\":", 1),
            json.replacen("{\"format\"", "{\"extra\":1,\"format\"", 1),
            json.replacen(",\"session\":", ",\"session\":null,\"x\":", 1),
            json.replacen(",\"e\",", ",\"\\u0065\",", 1),
            json.replacen(",\"e\",", ",\"x\",", 1),
            json.replacen("\"version\":1", "\"version\":2", 1),
            json.replacen("\"version\":1", "\"version\":1.0", 1),
            json.replace(",\"session\":", ",\"sessions\":"),
            format!("{json} x"),
            format!(" \n{json}\t"),
            "{}".to_string(),
        ];
        for text in &odd {
            let serde = serde_json::from_str::<Snapshot>(text)
                .ok()
                .filter(|s| s.format == FORMAT && s.version == VERSION);
            if let Some(fast) = read_plain(text) {
                assert_eq!(Some(fast), serde, "{text}");
            }
        }
    }

    #[test]
    fn an_over_long_snapshot_is_refused_before_it_is_parsed() {
        let text = " ".repeat(MAX_SNAPSHOT_BYTES + 1);
        let err = Snapshot::from_json(&text).unwrap_err();
        assert_eq!(err.field(), "snapshot");
        assert!(err.message().contains("limit"), "{err}");
    }

    #[test]
    fn snapshot_errors_name_no_parser_position() {
        for bad in [
            "{",
            "{\"format\":\"reins.state\",\"version\":1,\"userId\":5}",
            "[1,",
        ] {
            let err = Snapshot::from_json(bad).unwrap_err();
            assert!(!err.to_string().contains("line 1"), "{err}");
        }
    }
}
