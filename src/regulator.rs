//! Orchestration: validate an event, route it to the detectors, and rank what
//! they report. No clock, no randomness, no I/O: the same events give the
//! same decisions everywhere.

use serde_json::Value;

use crate::chat;
use crate::config::{Config, CostScope, ToolLoopRule};
use crate::decision::{
    BreakReason, CorrectionPattern, Decision, Verdict, nudge_suggestion, suggestion,
};
use crate::detect::args::{ArgsInfo, inspect_json, inspect_value};
use crate::detect::confidence::Shape;
use crate::detect::corrections::rules::{Dismissal, LearnedRule};
use crate::detect::corrections::{self, MAX_TEXT_CHARS, Record, Source};
use crate::detect::drift;
use crate::detect::incidents;
use crate::detect::insist;
use crate::detect::markers;
use crate::detect::preferences::{MAX_PREFERENCE_CHARS, Preference};
use crate::detect::scope::task_tokens;
use crate::detect::tools;
use crate::detect::tools::Level;
use crate::error::{Error, Result};
use crate::event::{Args, Event, EventRef, MAX_NAME_BYTES};
use crate::hash::{combine, hash_bytes};
use crate::sorted_map::SortedMap;
use crate::state::{
    CONTEXT_TURNS, EPISODE_RECORDS, FORMAT, LastResponse, Memory, RecordId, Response, Session,
    Snapshot, SnapshotRef, TOOL_TEXT_BYTES, TopicStats, VERSION,
};
use crate::text::Scratch;
use crate::text::{KeywordBag, TopicIndex, redact_secrets, topic_key, truncate_chars};

/// A retry in other words comes this soon after the answer it retries: a
/// glance shows the answer missed. A follow-up comes after reading it.
const QUICK_RETRY_MS: u64 = 30_000;
/// A retry in other words is short: a longer message asks something new.
const RETRY_STEMS: usize = 8;
/// Bytes of a request without words that key its topic.
const SYMBOL_KEY_BYTES: usize = 256;

/// What seeds record ids: a value, or a source read once, for the first id.
#[derive(Debug, Clone, Copy)]
enum IdSeed {
    Value(u64),
    Source(fn() -> u64),
}

impl IdSeed {
    fn get(&mut self) -> u64 {
        match *self {
            IdSeed::Value(v) => v,
            IdSeed::Source(read) => {
                let v = read();
                *self = IdSeed::Value(v);
                v
            }
        }
    }
}

/// A regulator for one user. Feed it events, ask it `decide()`.
#[derive(Debug, Clone)]
pub struct Regulator {
    user_id: String,
    config: Config,
    /// The glossary's stems, derived from `config` whenever it is set (not
    /// per turn: up to 256 terms to tokenise).
    glossary: Vec<String>,
    id_seed: IdSeed,
    memory: Memory,
    session: Session,
    scratch: Scratch,
    /// What recent tool names imply (derived, never persisted).
    tool_names: tools::effect::NameMemo,
    /// The stored topic keys by part (derived from `memory`, never persisted).
    topics: TopicIndex,
    /// Rules and the current pattern, derived from the records.
    derived: Derived,
    link_keys: LinkKeys,
    /// See `memory_revision`.
    revision: u64,
    /// Off while `chat_request` catches up on an answer a later user turn
    /// supersedes: its drift verdict would be dropped unread.
    judge_drift: bool,
}

/// What is derived from the correction records on first use after they (or
/// the current topic) change; never persisted. `decide()` asks for the
/// pattern every time, and clustering a topic's records reads their text.
#[derive(Debug, Clone, Default)]
struct Derived {
    /// Standing rules learned across requests.
    rules: std::cell::OnceCell<Vec<LearnedRule>>,
    /// The current topic's pattern.
    pattern: std::cell::OnceCell<Option<CorrectionPattern>>,
}

/// Correction records' link keys (`rules::link_keys`) by record version
/// (id, source and text: an upgrade or a merge may change the last two):
/// read from the text once per version, not once per decision. Never
/// persisted; emptied when it outgrows twice the records kept.
#[derive(Debug, Clone, Default)]
struct LinkKeys(std::cell::RefCell<std::collections::HashMap<u64, std::sync::Arc<[u64]>>>);

impl LinkKeys {
    fn of(&self, r: &Record, cap: usize) -> std::sync::Arc<[u64]> {
        let version = combine(
            hash_bytes(r.id, r.text.as_bytes()),
            u64::from(r.source == Source::Explicit),
        );
        let mut map = self.0.borrow_mut();
        if let Some(k) = map.get(&version) {
            return k.clone();
        }
        if map.len() >= cap {
            map.clear();
        }
        let k = corrections::rules::link_keys(r);
        map.insert(version, k.clone());
        k
    }
}

fn check_user_id(user_id: &str) -> Result<()> {
    if user_id.is_empty() || user_id.len() > MAX_NAME_BYTES {
        return Err(Error::range_error(
            "userId",
            format!("must be 1 to {MAX_NAME_BYTES} bytes"),
        ));
    }
    Ok(())
}

/// The stems of the app-supplied glossary terms, as the drift anchor wants them.
fn glossary_stems(config: &Config) -> Vec<String> {
    config
        .glossary
        .iter()
        .flat_map(|g| KeywordBag::stems(g))
        .collect()
}

impl Regulator {
    /// A fresh regulator for `user_id`.
    pub fn new(user_id: impl Into<String>, config: Config) -> Result<Self> {
        let user_id = user_id.into();
        check_user_id(&user_id)?;
        config.validate()?;
        Ok(Self {
            user_id,
            glossary: glossary_stems(&config),
            config,
            id_seed: IdSeed::Value(0),
            memory: Memory::default(),
            session: Session::default(),
            scratch: Scratch::default(),
            tool_names: tools::effect::NameMemo::default(),
            topics: TopicIndex::default(),
            derived: Derived::default(),
            link_keys: LinkKeys::default(),
            revision: 0,
            judge_drift: true,
        })
    }

    /// Seeds correction-record ids. The core never reads a random source, so
    /// the binding passes random bits here; two regulators of one user that
    /// will be merged should have different seeds.
    pub fn with_id_seed(mut self, seed: u64) -> Self {
        self.id_seed = IdSeed::Value(seed);
        self
    }

    /// As `with_id_seed`, with the seed read from `source` when the first
    /// id is made: in wasm the random source costs milliseconds on its first
    /// use in Node, which a regulator that never files a record never pays.
    pub fn with_id_source(mut self, source: fn() -> u64) -> Self {
        self.id_seed = IdSeed::Source(source);
        self
    }

    pub fn user_id(&self) -> &str {
        &self.user_id
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Replaces the thresholds, keeping every counter; shrunk caps trim.
    pub fn set_config(&mut self, config: Config) -> Result<()> {
        config.validate()?;
        let records: Vec<Record> = self.memory.corrections.records().cloned().collect();
        self.memory.corrections = corrections::Store::from_records(records, &config);
        self.memory_changed();
        self.derived = Derived::default();
        let budget = &mut self.session.budget;
        while budget.quality.len() > config.quality_history as usize {
            budget.quality.pop_front();
        }
        let window = &mut self.session.tokens.window;
        while window.len() > config.logprob_window as usize {
            window.pop_front();
        }
        self.glossary = glossary_stems(&config);
        if !config.scope_drift {
            self.session.drift = None;
        }
        self.config = config;
        self.refresh_tool_finding(false);
        Ok(())
    }

    /// Starts a new task: spend, quality and the current turn reset; memory
    /// (corrections, topic statistics) stays.
    pub fn reset_session(&mut self) {
        self.session = Session::default();
        self.derived.pattern.take();
    }

    /// Reads one chat-completions request's `messages` (see [`crate::chat`]).
    /// A regulator that has seen nothing of this session yet (new, restored
    /// or reset) first catches up on the history without learning from it
    /// again: the memory learned from those messages when they were news,
    /// and is left exactly as it was. One that followed the conversation
    /// skips the history. Then the news is fed. On error nothing has changed.
    pub fn chat_request(
        &mut self,
        messages: &serde_json::Value,
        end_ms: Option<u64>,
    ) -> Result<()> {
        let chat = chat::request(messages, end_ms, self.config.max_text_bytes as usize)?;
        let mut next = self.clone();
        let s = &next.session;
        if s.turns == 0 && s.tool_calls_total == 0 && s.budget.cost_events == 0 {
            let (memory, revision) = (next.memory.clone(), next.revision);
            // An answer's drift verdict lasts until the next user turn.
            let is_turn = |e: &Event| matches!(e, Event::TurnStart { .. });
            let last_turn = match chat.news.iter().any(is_turn) {
                true => Some(chat.history.len()),
                false => chat.history.iter().rposition(is_turn),
            };
            for (k, e) in chat.history.iter().enumerate() {
                next.judge_drift = last_turn.is_none_or(|t| k > t);
                let applied = next.on_event(e);
                next.judge_drift = true;
                applied?;
            }
            next.memory = memory;
            next.revision = revision;
            // Records filed during the catch-up are gone with it.
            next.session.episode_records.clear();
            if let Some(last) = next.session.last_response.as_mut() {
                last.implicit_id = None;
            }
            next.derived = Derived::default();
            next.reindex_topics();
        }
        for e in &chat.news {
            next.on_event(e)?;
        }
        *self = next;
        Ok(())
    }

    /// Reads one chat-completions response body: the answer, its tool calls
    /// and its cost (see [`crate::chat::response`]). On error nothing has changed.
    pub fn chat_response(
        &mut self,
        body: &serde_json::Value,
        at_ms: Option<u64>,
        duration_ms: u64,
    ) -> Result<()> {
        let events = chat::response(
            body,
            at_ms,
            duration_ms,
            self.config.max_text_bytes as usize,
        )?;
        let mut next = self.clone();
        for e in &events {
            next.on_event(e)?;
        }
        *self = next;
        Ok(())
    }

    /// Ingests one owned event.
    pub fn on_event(&mut self, event: &Event) -> Result<()> {
        self.apply(event.as_ref())
    }

    /// Ingests one event. On error nothing has changed.
    pub fn apply(&mut self, event: EventRef<'_>) -> Result<()> {
        event.validate(&self.config)?;
        // A tool call's name: whether it is a shell tool, and the effect its
        // words imply (remembered, so looked up once per call).
        let (shell, by_name) = match event {
            EventRef::ToolCall { name, .. } => self.tool_names.get(name),
            _ => (false, tools::effect::Effect::Read),
        };
        // The last fallible step: everything after it mutates and cannot fail.
        let args = match event {
            EventRef::ToolCall { args: Some(a), .. } => Some(inspect_args(a, shell)?),
            _ => None,
        };
        if let Some(at) = event.at_ms() {
            self.session.last_at_ms = Some(self.session.last_at_ms.map_or(at, |t| t.max(at)));
        }
        match event {
            EventRef::TurnStart { message, at_ms } => self.on_turn_start(message, at_ms),
            EventRef::Token { logprob, .. } => {
                self.session
                    .tokens
                    .record(logprob, self.config.logprob_window as usize);
            }
            EventRef::Tokens {
                logprobs,
                unavailable,
                ..
            } => {
                let keep = self.config.logprob_window as usize;
                // Only the newest `keep` can stay in the window; count the rest.
                let skip = logprobs.len().saturating_sub(keep);
                self.session.tokens.total = self.session.tokens.total.saturating_add(skip as u64);
                for &lp in logprobs.iter().skip(skip) {
                    self.session.tokens.record(Some(lp), keep);
                }
                self.session.tokens.record_unavailable(unavailable);
            }
            EventRef::TurnComplete { response, at_ms } => self.on_turn_complete(response, at_ms),
            EventRef::Cost {
                tokens_in,
                tokens_out,
                wallclock_ms,
                usd,
                ..
            } => {
                self.session
                    .budget
                    .record_cost(tokens_in, tokens_out, wallclock_ms, usd);
            }
            EventRef::QualityFeedback { quality, .. } => self.on_quality(quality),
            EventRef::UserCorrection {
                message,
                corrects_last,
                at_ms,
            } => {
                self.on_correction(message, corrects_last, at_ms);
            }
            EventRef::ToolCall {
                name,
                call_id,
                effect,
                ..
            } => {
                // Tool names and results anchor the response; the arguments
                // mostly repeat the request.
                let s = &mut self.session;
                push_tool_text(&mut s.tool_text, &s.facts, name);
                let given = args.is_some();
                let info = args.unwrap_or_default();
                s.tools.record_call(tools::NewCall {
                    name,
                    args: given.then_some(info.fingerprint),
                    call_id,
                    effect: tools::effect::of_call(effect, info.shell_writes, by_name),
                    names: &info.names,
                });
                s.tool_calls_total = s.tool_calls_total.saturating_add(1);
            }
            EventRef::ToolResult {
                name,
                ok,
                duration_ms,
                error,
                result,
                call_id,
                ..
            } => {
                let text = result.or(error).unwrap_or("");
                let s = &mut self.session;
                push_tool_text(&mut s.tool_text, &s.facts, text);
                let first = !s.tools.reports_results;
                let call = s.tools.record_result(name, ok, duration_ms, text, call_id);
                s.failing.tool_result(ok, text, call.map(|c| c.key));
                let step = call.map(|c| c.step);
                if let Some(c) = call {
                    s.earlier_calls.remember(c, s.turns);
                }
                // Once a step has all its results in, judge it (the first
                // result also starts the cache: until then decide() judges
                // the calls itself).
                let settled = step.is_some_and(|n| s.tools.step_done(n));
                if settled || first {
                    self.refresh_tool_finding(settled);
                }
            }
        }
        Ok(())
    }

    /// Rebuilds the topic index from the stored keys.
    fn reindex_topics(&mut self) {
        let m = &self.memory;
        // Each topic once, not once per record nor again when it has
        // statistics: the index ignores repeats, but finding them out cost a
        // sixth of import.
        let correction_topics = m
            .corrections
            .topics()
            .filter(|k| !m.topics.contains_key(*k));
        self.topics = TopicIndex::of(m.topics.keys().map(String::as_str).chain(correction_topics));
    }

    /// The topic of a request: the last answer's when it goes on with what
    /// was just said (one of its own key stems is in the last request or
    /// answer: "No, I don't want to be transferred" after "…a human agent
    /// can transfer you"), else the stored topic it is about, else the key
    /// its own words make. An unrelated question ("how do I join two SQL
    /// tables?" after a CSS fix) starts its own.
    fn topic_of(&self, task: &KeywordBag) -> String {
        let s = &self.session;
        let own = topic_key(task);
        let said = |stem: &str| {
            s.task.contains_stem(stem)
                || s.response
                    .as_ref()
                    .is_some_and(|r| r.keywords.contains_stem(stem))
        };
        let last = s.last_response.as_ref().filter(|l| !l.topic.is_empty());
        if let Some(last) = last
            && (own.is_empty() || own.split('+').any(said))
        {
            return last.topic.clone();
        }
        let m = &self.memory;
        let live = |k: &str| {
            m.topics
                .get(k)
                .map(|t| t.last_at_ms)
                .or_else(|| (m.corrections.count(k) > 0).then_some(0))
        };
        self.topics.find(task, live).unwrap_or(own)
    }

    fn on_turn_start(&mut self, message: &str, at_ms: Option<u64>) {
        let task = KeywordBag::from_text_with(message, &mut self.scratch);
        let mut topic = self.topic_of(&task);
        // A request of symbols and numbers ("∫ x·e^x dx", "whats 3/4 + 1/6")
        // has no words to key it, but is a request all the same: keyed by
        // its text, so its corrections are filed.
        if topic.is_empty() {
            topic = symbol_key(message);
        }
        // A message soon after the answer, announcing no other subject,
        // goes on with the same episode of work ("can you check what
        // happened to the kettle" a minute after the refund's answer).
        let quick = self.soon_after_answer(at_ms);
        // (On the last answer's own topic the episode cannot matter: pushback
        // pairs by topic there anyway.)
        let elsewhere = self
            .session
            .last_response
            .as_ref()
            .is_none_or(|l| l.topic != topic);
        if !quick || elsewhere && markers::switches_topic(message) {
            self.session.episode = self.session.episode.wrapping_add(1);
            self.session.episode_records.clear();
            self.derived.pattern.take();
        }
        // A reworded retry continues the request it retries.
        let retry =
            self.is_implicit_correction(&task, at_ms) && !markers::opens_with_thanks(message);
        if retry {
            self.file_implicit(message, at_ms);
        }
        self.session.incidents.start_turn();
        let pushback = self.config.markers && self.on_markers(message, at_ms);
        self.on_insistence(&task, message, at_ms);
        if pushback {
            self.user_says_failed(crate::detect::failing::read_reply(message).failure);
        }
        // Pushing back on an answer continues its task: keep that topic rather
        // than one made of the complaint's own words.
        let inherited = self
            .session
            .last_response
            .as_ref()
            .map(|l| l.topic.clone())
            .filter(|t| !t.is_empty());
        let topic = match inherited {
            Some(t) if pushback || retry => t,
            _ => topic,
        };
        // What the request asks and rules out is read for drift alone.
        let facts = if self.config.scope_drift {
            drift::task_facts(message, &task)
        } else {
            drift::TaskFacts {
                unread: true,
                ..Default::default()
            }
        };
        let s = &mut self.session;
        s.turns = s.turns.saturating_add(1);
        if self.config.cost_cap_scope == CostScope::Turn {
            s.budget.reset_spend();
        }
        let previous = std::mem::replace(&mut s.task, task);
        if !previous.is_empty() {
            s.context.push_back(previous);
            while s.context.len() > CONTEXT_TURNS {
                s.context.pop_front();
            }
        }
        s.facts = facts;
        s.tool_text.clear();
        s.drift = None;
        s.response = None;
        s.tools = s.tools.next_turn();
        s.tokens = Default::default();
        let at = at_ms.or(s.last_at_ms).unwrap_or(0);
        if let Some(stats) = self.memory.topic_mut(&topic) {
            stats.turns = stats.turns.saturating_add(1);
            stats.last_at_ms = stats.last_at_ms.max(at);
            self.memory_changed();
        }
        self.topics.insert(&topic);
        if self.topics.is_full() {
            self.reindex_topics();
        }
        if topic != self.session.topic {
            self.derived.pattern.take();
        }
        self.session.topic = topic;
    }

    /// A message that names again what earlier answers left out corrects the
    /// last answer, and the first such message corrected its own.
    fn on_insistence(&mut self, task: &KeywordBag, message: &str, at_ms: Option<u64>) {
        // A reaction comes within the implicit-correction window (or
        // untimed); a new request minutes later is no correction.
        let since = self.since_answer(at_ms);
        let reacts = self
            .config
            .implicit_correction_window_ms
            .is_some_and(|w| since.is_none_or(|dt| dt <= w));
        let s = &mut self.session;
        let (Some(r), Some(l)) = (&s.response, &s.last_response) else {
            return;
        };
        // Details given because the answer asked for them, or arguing with a
        // refusal, are no correction of the answer; "uv again please" after
        // "Want me to add a conftest.py?" insists all the same.
        if (r.asked() && !markers::says_again(message)) || r.refused {
            return;
        }
        let turn = s.turns.saturating_add(1);
        let answer = insist::Answer {
            keywords: &r.keywords,
            concepts: r.concepts,
        };
        let Some(found) = s
            .insistence
            .read(task, message, answer, &l.topic, turn, reacts)
        else {
            return;
        };
        // Thanks or an acceptance insists on nothing ("Thank you. I'll
        // reach out if needed. Appreciate your help.").
        if markers::opens_with_thanks(message) {
            return;
        }
        // A new request minutes later names its subject again; it corrects
        // no answer.
        if reacts {
            self.file_implicit(message, at_ms);
        }
        // The earlier message, unless it was filed already (as a retry).
        if let Some((text, topic)) = found.earlier {
            let text = clean_text(&text);
            let filed = self
                .memory
                .corrections
                .records()
                .any(|r| r.topic == topic && r.text == text);
            if !filed {
                self.add_record(&topic, &text, Source::Implicit, at_ms);
            }
        }
    }

    /// The user says the last turn failed (pushback, or a correction of its
    /// answer), maybe naming the error (`failure`: "still 401 Unauthorized").
    fn user_says_failed(&mut self, failure: Option<&str>) {
        let Some(last) = self.session.last_response.as_ref() else {
            return;
        };
        let (turn, topic) = (last.turn, last.topic.clone());
        self.session.failing.user_says_failed(turn, &topic, failure);
    }

    /// Files `message` as the implicit correction of the last response (once).
    fn file_implicit(&mut self, message: &str, at_ms: Option<u64>) {
        let Some(last) = self.session.last_response.as_ref() else {
            return;
        };
        if last.implicit_id.is_some() || last.explicit || last.topic.is_empty() {
            return;
        }
        let topic = last.topic.clone();
        let id = self.add_record(&topic, message, Source::Implicit, at_ms);
        self.memory.implicit_corrections = self.memory.implicit_corrections.saturating_add(1);
        self.memory_changed();
        if let Some(last) = self.session.last_response.as_mut() {
            last.implicit_id = id;
        }
    }

    /// Pushback on the previous answer counts as its implicit correction and
    /// towards an incident; "from now on …" becomes a standing preference.
    /// Returns whether the message pushed back.
    fn on_markers(&mut self, message: &str, at_ms: Option<u64>) -> bool {
        // The answer this message replies to, while it is still the turn's.
        let s = &self.session;
        let earlier: Vec<&KeywordBag> = std::iter::once(&s.task)
            .chain(s.context.iter().rev())
            .collect();
        let previous = s.response.as_ref().map(|r| markers::Previous {
            keywords: &r.keywords,
            asked: r.asked(),
            requested: r.requested,
            earlier: &earlier,
        });
        let found = markers::analyze_reply(message, previous);
        for text in &found.preferences {
            let text = truncate_chars(&redact_secrets(text), MAX_PREFERENCE_CHARS);
            let at = at_ms.or(self.session.last_at_ms).unwrap_or(0);
            let seq = self.memory.seq;
            self.memory.seq = seq.saturating_add(1);
            let id = combine(
                combine(hash_bytes(self.id_seed.get(), b"preference"), seq),
                hash_bytes(0, text.as_bytes()),
            );
            self.memory.preferences.add(Preference {
                id,
                at_ms: at,
                seq,
                text,
            });
            self.memory_changed();
        }
        if found.pushback.is_empty() {
            return false;
        }
        self.file_implicit(message, at_ms);
        let topic = self
            .session
            .last_response
            .as_ref()
            .map_or_else(|| self.session.topic.clone(), |l| l.topic.clone());
        let phrases: Vec<String> = found
            .pushback
            .iter()
            .map(|h| h.phrase.to_string())
            .collect();
        // An answer the app's correction control already counted.
        let counted = self
            .session
            .last_response
            .as_ref()
            .is_some_and(|l| l.explicit);
        if !counted {
            let turn = self.session.turns.saturating_add(1);
            self.count_pushback(turn, phrases, message, &topic);
        }
        true
    }

    /// One turn of pushback on `topic`, towards an incident.
    fn count_pushback(&mut self, turn: u64, markers: Vec<String>, message: &str, topic: &str) {
        let cfg = &self.config;
        let s = &mut self.session;
        s.incidents.pushback(
            incidents::Hit {
                turn,
                markers,
                topic,
                episode: s.episode,
            },
            truncate_chars(&redact_secrets(message.trim()), incidents::SUMMARY_CHARS),
            cfg.incident_window_turns.into(),
            cfg.incident_min_hits as usize,
        );
    }

    /// A quick retry of the last request, reworded, after an answer that
    /// asked nothing and is not yet corrected.
    fn is_implicit_correction(&self, task: &KeywordBag, at_ms: Option<u64>) -> bool {
        let Some(last) = self.session.last_response.as_ref() else {
            return false;
        };
        let answered_a_question = self.session.response.as_ref().is_some_and(Response::asked);
        self.soon_after_answer(at_ms)
            && !last.topic.is_empty()
            && last.implicit_id.is_none()
            && !last.explicit
            && !answered_a_question
            && self.rewords_a_recent_request(task, at_ms)
    }

    /// Whether `task` rewords the last request or one of the few before it
    /// (a fourth wording may echo the first more than the third), adding
    /// little: at least half of its own stems were in those requests. A
    /// long message that repeats a short request's words and goes on ("I
    /// understand. In the meantime, can I cancel the flights that have only
    /// one passenger?") asks something new. Or, soon after the answer, it
    /// asks about the same thing in other words.
    fn rewords_a_recent_request(&self, task: &KeywordBag, at_ms: Option<u64>) -> bool {
        let s = &self.session;
        let recent = || std::iter::once(&s.task).chain(s.context.iter());
        let known = task
            .iter()
            .filter(|(st, _, _)| recent().any(|old| old.contains_stem(st)))
            .count();
        if 2 * known >= task.len() && recent().any(|old| rephrases(task, old)) {
            return true;
        }
        // Or asks about the last request's thing again in other words
        // ("i want to uncommit the last commit and keep my edits" after
        // "undo last commit but keep the changes"), quickly, taking nothing
        // from the answer: a follow-up builds on what the answer said. After
        // a refusal, asking again argues with a decision instead.
        let Some(answer) = s.response.as_ref().filter(|r| !r.refused) else {
            return false;
        };
        let quick = self
            .since_answer(at_ms)
            .is_some_and(|dt| dt <= QUICK_RETRY_MS);
        let object = s.topic.split('+').any(|st| task.contains_stem(st));
        let builds = task.iter().any(|(st, _, _)| {
            answer.keywords.contains_stem(st) && !recent().any(|o| o.contains_stem(st))
        });
        // Asking again repeats about as much as it adds; "now add retries
        // and a timeout to fetch_user and write tests" adds more.
        let added = task.len() - known;
        quick && object && !builds && added <= known + 1 && task.len() <= RETRY_STEMS
    }

    /// Whether `at_ms` is within the implicit-correction window of the last
    /// answer (both timed, the window on).
    fn soon_after_answer(&self, at_ms: Option<u64>) -> bool {
        self.since_answer(at_ms)
            .zip(self.config.implicit_correction_window_ms)
            .is_some_and(|(dt, window)| dt <= window)
    }

    /// Milliseconds from the last answer to `at_ms`, when both are timed and
    /// in order.
    fn since_answer(&self, at_ms: Option<u64>) -> Option<u64> {
        let then = self.session.last_response.as_ref()?.at_ms?;
        at_ms?.checked_sub(then)
    }

    fn on_turn_complete(&mut self, response: &str, at_ms: Option<u64>) {
        let keywords = KeywordBag::from_text_with(response, &mut self.scratch);
        let read = crate::detect::failing::read_reply(response);
        let s = &mut self.session;
        s.failing.turn_complete(s.turns, &s.topic, read.failure);
        // An answer to a request whose facts were not read (drift was off
        // then) is not judged: without them, the answer to a plain "Yes, go
        // ahead" reports a change nobody asked for.
        let judge = self.judge_drift && self.config.scope_drift && !s.facts.unread;
        s.drift = judge.then(|| {
            // Most turns call no tool: an empty bag without the tables.
            let tools_bag = if s.tool_text.is_empty() {
                KeywordBag::default()
            } else {
                KeywordBag::from_text_with(&s.tool_text, &mut self.scratch)
            };
            let mut anchors: Vec<&KeywordBag> = vec![&s.task];
            anchors.extend(s.context.iter());
            anchors.push(&tools_bag);
            drift::judge(
                &s.facts,
                &anchors,
                &self.glossary,
                response,
                &keywords,
                self.config.drift_warn_threshold,
            )
        });
        s.response = Some(Response {
            keywords,
            shape: Shape::of(response),
            requested: markers::asks_for_output(response),
            refused: read.refused,
            graded: false,
            concepts: crate::text::concepts::concepts_in(response),
        });
        s.last_response = Some(LastResponse {
            turn: s.turns,
            topic: s.topic.clone(),
            at_ms,
            implicit_id: None,
            explicit: false,
        });
    }

    fn on_quality(&mut self, quality: f64) {
        self.session
            .budget
            .record_quality(quality, self.config.quality_history as usize);
        // Only this turn's response learns from it, and only once.
        let Some(resp) = self.session.response.as_mut().filter(|r| !r.graded) else {
            return;
        };
        resp.graded = true;
        if let Some(stats) = self.memory.topic_mut(&self.session.topic) {
            stats.feedback = stats.feedback.saturating_add(1);
            stats.quality_sum += quality;
            self.memory_changed();
        }
    }

    fn on_correction(&mut self, message: &str, corrects_last: bool, at_ms: Option<u64>) {
        let last = if corrects_last {
            self.session.last_response.as_mut()
        } else {
            None
        };
        let Some(last) = last else {
            let topic = self.session.topic.clone();
            self.add_record(&topic, message, Source::Explicit, at_ms);
            return;
        };
        let topic = last.topic.clone();
        let was_explicit = std::mem::replace(&mut last.explicit, true);
        let implicit = last.implicit_id.take().filter(|_| !was_explicit);
        // Only a correction that names a failure says the turn failed.
        let failure = crate::detect::failing::read_reply(message).failure;
        if failure.is_some() {
            self.user_says_failed(failure);
        }
        // The user said this answer was wrong: pushback towards an incident,
        // once per answer.
        if !was_explicit {
            let turn = self.session.turns;
            self.count_pushback(turn, vec![incidents::EXPLICIT.into()], message, &topic);
        }
        // The user's own words replace the retry text we inferred for this response.
        if let Some(id) = implicit
            && self.memory.corrections.upgrade(id, clean_text(message))
        {
            self.memory_changed();
            self.derived = Derived::default();
            return;
        }
        self.add_record(&topic, message, Source::Explicit, at_ms);
    }

    /// Files a correction; returns its id, or `None` when there is no topic.
    fn add_record(
        &mut self,
        topic: &str,
        text: &str,
        source: Source,
        at_ms: Option<u64>,
    ) -> Option<u64> {
        if topic.is_empty() {
            return None;
        }
        let text = clean_text(text);
        let at_ms = at_ms.or(self.session.last_at_ms).unwrap_or(0);
        let seq = self.memory.seq;
        self.memory.seq = seq.saturating_add(1);
        let h = combine(hash_bytes(self.id_seed.get(), topic.as_bytes()), seq);
        let id = combine(combine(h, hash_bytes(0, text.as_bytes())), at_ms);
        let record = Record {
            id,
            topic: topic.to_string(),
            at_ms,
            seq,
            source,
            text,
        };
        self.memory.corrections.add(record, &self.config);
        self.memory_changed();
        let ids = &mut self.session.episode_records;
        ids.push(RecordId(id));
        if ids.len() > EPISODE_RECORDS {
            ids.remove(0);
        }
        self.derived = Derived::default();
        Some(id)
    }

    /// The decision for the current state. Pure: asking twice gives the same answer.
    pub fn decide(&self) -> Decision {
        let cfg = &self.config;
        let s = &self.session;
        let mut concerns = Vec::new();
        let tool = match cfg.tool_loop_rule {
            // Computed when the last step settled; only escalation is left.
            ToolLoopRule::Fingerprint if s.tools.reports_results => s
                .tools
                .finding
                .clone()
                .and_then(|f| tools::Fingerprint { cfg, turn: s.turns }.escalate(&s.tools, f)),
            // Until the app reports results, every call is judged as it
            // comes: on demand, so a burst of calls costs nothing until asked.
            _ => tools::detect_loop(cfg, &s.tools, &s.earlier_calls, s.turns),
        };
        let (halt, nudge) = match tool {
            Some(f) if f.level == Level::Halt => (Some(f), None),
            other => (None, other),
        };
        let loop_break = halt.map(|f| BreakReason::ToolLoop {
            tool_name: f.tool_name,
            count: f.count,
            pattern: f.pattern,
        });
        let incident = s.incidents.current.as_ref();
        // A second incident on one topic is no longer advice: stop retrying.
        let stuck = s
            .failing
            .repeated(cfg.repeated_failure_turns as usize)
            .map(|turns| BreakReason::RepeatedFailure {
                topic: s.failing.topic.clone(),
                failure_count: turns.len() as u32,
                evidence_turns: turns.to_vec(),
                obstacle: s.failing.obstacle.clone(),
            });
        let repeated = incident
            .filter(|i| i.count >= 2)
            .map(|i| BreakReason::RepeatedFailure {
                topic: i.topic.clone(),
                failure_count: i.count,
                evidence_turns: Vec::new(),
                obstacle: Vec::new(),
            })
            .or(stuck);
        let breaks = [
            s.budget.cost_break(cfg),
            s.budget.decline_break(cfg),
            loop_break,
            repeated,
        ];
        for reason in breaks.into_iter().flatten() {
            concerns.push(Verdict::CircuitBreak {
                suggestion: suggestion(&reason),
                reason,
            });
        }
        if let Some(i) = incident.filter(|i| i.count < 2) {
            concerns.push(Verdict::Incident {
                evidence_turns: i.evidence_turns.clone(),
                markers: i.markers.clone(),
                summary: i.summary.clone(),
                topic: i.topic.clone(),
                lexicon_version: markers::LEXICON_VERSION.to_string(),
            });
        }
        if let Some(f) = nudge {
            concerns.push(Verdict::ToolNudge {
                suggestion: nudge_suggestion(&f.tool_name, f.count, f.pattern),
                tool_name: f.tool_name,
                count: f.count,
                pattern: f.pattern,
            });
        }
        if let (Some(report), Some(_)) = (&s.drift, &s.response)
            && let Some(cause) = report.cause
        {
            concerns.push(Verdict::ScopeDrift {
                cause,
                drift_score: report.score,
                drift_tokens: report.tokens.clone(),
                task_tokens: task_tokens(&s.task),
            });
        }
        if let Some(p) = self.pattern() {
            concerns.push(Verdict::Procedural {
                patterns: vec![p.clone()],
            });
        }
        Decision::from_concerns(concerns)
    }

    /// Confidence in the current response: logprobs, else its shape, else 0.5.
    pub fn confidence(&self) -> f64 {
        self.session
            .tokens
            .confidence(self.session.response.as_ref().map(|r| r.shape))
    }

    pub fn logprob_coverage(&self) -> f64 {
        self.session.tokens.coverage()
    }

    /// Drift score of the current response, when both sides have keywords.
    pub fn drift_score(&self) -> Option<f64> {
        self.session.drift.as_ref().map(|d| d.score)
    }

    /// The current turn's topic key (empty when it has none).
    pub fn topic(&self) -> &str {
        &self.session.topic
    }

    /// The user's standing preferences and the past corrections for the
    /// current topic, whatever else the decision says (a drift warning no
    /// longer hides them).
    pub fn corrections_prelude(&self) -> Option<String> {
        let rules: Vec<&LearnedRule> = self.learned_rules().collect();
        corrections::prelude(self.pattern(), self.memory.preferences.texts(), &rules)
    }

    /// The current topic's correction pattern, derived once per change.
    fn pattern(&self) -> Option<&CorrectionPattern> {
        self.derived
            .pattern
            .get_or_init(|| {
                let s = &self.session;
                let episode: Vec<u64> = s.episode_records.iter().map(|r| r.0).collect();
                // What a learned rule already says, or a dismissed one
                // said, is not brought in from the episode's other requests
                // (the rules are read only when there are such requests).
                let ruled = std::cell::OnceCell::new();
                let elsewhere = |r: &Record| {
                    let ids = ruled.get_or_init(|| {
                        let learned = self.learned_rules().map(|r| r.id);
                        self.memory.dismissed.ids().chain(learned).collect()
                    });
                    corrections::rules::names_a_rule(&r.text, ids)
                };
                let cap = 2 * self.config.max_correction_records as usize;
                let keys = |r: &Record| self.link_keys.of(r, cap);
                let c = &self.memory.corrections;
                c.pattern(&s.topic, &episode, &elsewhere, &keys, &self.config)
            })
            .as_ref()
    }

    /// Standing preferences, oldest first.
    pub fn preferences(&self) -> impl Iterator<Item = &str> {
        self.memory.preferences.texts()
    }

    /// Standing rules learned from corrections of one thing across
    /// different requests, most backed first; injected on every request
    /// until dismissed.
    pub fn learned_rules(&self) -> impl Iterator<Item = &LearnedRule> {
        self.derived
            .rules
            .get_or_init(|| {
                let records: Vec<&Record> = self.memory.corrections.records().collect();
                corrections::rules::learn(
                    &records,
                    self.config.pattern_threshold as usize,
                    self.config.max_examples as usize,
                    &self.memory.dismissed.ids().collect(),
                )
            })
            .iter()
    }

    /// Stops injecting the learned rule `id` (from `learned_rules`), now and
    /// when the same word is corrected again; returns whether it was shown.
    pub fn dismiss_rule(&mut self, id: u64, at_ms: Option<u64>) -> bool {
        let shown = self.learned_rules().any(|r| r.id == id);
        let at_ms = at_ms.or(self.session.last_at_ms).unwrap_or(0);
        self.memory.dismissed.add(Dismissal { at_ms, id });
        self.memory_changed();
        self.derived = Derived::default();
        shown
    }

    /// `prompt` with the corrections prelude in front, or unchanged.
    pub fn inject_corrections(&self, prompt: &str) -> String {
        corrections::inject(self.corrections_prelude(), prompt)
    }

    /// The text `inject_corrections` puts in front of a prompt, if any.
    pub fn injection_head(&self) -> Option<String> {
        corrections::head(self.corrections_prelude())
    }

    /// Correction records, by topic then age.
    pub fn corrections(&self) -> impl Iterator<Item = &Record> {
        self.memory.corrections.records()
    }

    pub fn topic_stats(&self, topic: &str) -> Option<&TopicStats> {
        self.memory.topics.get(topic)
    }

    /// Calls per tool name this turn.
    pub fn tool_counts(&self) -> &SortedMap<String, u64> {
        &self.session.tools.counts
    }

    /// Numeric metrics under stable `reins.` keys; every value is finite.
    pub fn metrics(&self) -> SortedMap<&'static str, f64> {
        let s = &self.session;
        let b = &s.budget;
        let t = &s.tools;
        let n = |v: u64| v as f64;
        SortedMap::from([
            ("reins.confidence", self.confidence()),
            ("reins.logprob_coverage", self.logprob_coverage()),
            ("reins.total_tokens_in", n(b.tokens_in)),
            ("reins.total_tokens_out", n(b.tokens_out)),
            ("reins.total_wallclock_ms", n(b.wallclock_ms)),
            ("reins.total_usd", b.usd),
            ("reins.cost_events", n(b.cost_events)),
            ("reins.cost_cap_tokens", n(self.config.cost_cap_tokens)),
            ("reins.quality_samples", n(b.quality.len() as u64)),
            ("reins.turns", n(s.turns)),
            ("reins.tool_total_calls", n(t.calls)),
            ("reins.tool_total_duration_ms", n(t.duration_ms)),
            ("reins.tool_failure_count", n(t.failures)),
            ("reins.tool_calls_all_turns", n(s.tool_calls_total)),
            (
                "reins.implicit_corrections_count",
                n(self.memory.implicit_corrections),
            ),
            (
                "reins.correction_records",
                n(self.memory.corrections.len() as u64),
            ),
        ])
    }

    /// The full state as a snapshot value.
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            format: FORMAT.into(),
            version: VERSION,
            user_id: self.user_id.clone(),
            config: self.config.clone(),
            memory: self.memory.clone(),
            session: self.session.clone(),
        }
    }

    /// The snapshot as JSON. `import(export())` behaves exactly like `self`,
    /// and exporting it again gives the same bytes.
    pub fn export(&self) -> String {
        SnapshotRef {
            format: FORMAT,
            version: VERSION,
            user_id: &self.user_id,
            config: &self.config,
            memory: &self.memory,
            session: Some(&self.session),
        }
        .to_json()
    }

    /// The user's memory alone (corrections, standing preferences, topic
    /// statistics, dismissed rules) as a snapshot without the running task:
    /// what an app persists. `texts: false` leaves out every text the user
    /// typed (see `Memory::without_texts`). Load it with `restore`.
    pub fn export_memory(&self, texts: bool) -> String {
        let stripped;
        let memory = if texts {
            &self.memory
        } else {
            stripped = self.memory.without_texts();
            &stripped
        };
        SnapshotRef {
            format: FORMAT,
            version: VERSION,
            user_id: &self.user_id,
            config: &self.config,
            memory,
            session: None,
        }
        .to_json()
    }

    /// A regulator for `user_id` under `config` (the app's current options,
    /// not the snapshot's), with a fresh session and the memory held in
    /// `json` (from `export_memory` or `export`), trimmed to `config`'s caps.
    /// The snapshot must be this user's.
    pub fn restore(user_id: impl Into<String>, config: Config, json: &str) -> Result<Self> {
        let mut r = Self::new(user_id, config)?;
        r.merge(json)?;
        Ok(r)
    }

    /// Forgets everything learned about this user (corrections, standing
    /// preferences, topic statistics, dismissed rules); the session stays.
    pub fn forget_memory(&mut self) {
        self.memory = Memory::default();
        self.session.episode_records.clear();
        self.reindex_topics();
        self.derived = Derived::default();
        self.memory_changed();
    }

    /// Counts changes to the memory (what `export_memory` writes) since this
    /// regulator was made: an app saves when it moves. Never persisted.
    pub fn memory_revision(&self) -> u64 {
        self.revision
    }

    fn memory_changed(&mut self) {
        self.revision = self.revision.wrapping_add(1);
    }

    /// Recomputes the loop finding on the settled steps; `settled`: a step
    /// just settled, so count whether a nudge stood after it.
    fn refresh_tool_finding(&mut self, settled: bool) {
        let s = &mut self.session;
        if self.config.tool_loop_rule != ToolLoopRule::Fingerprint {
            s.tools.finding = None;
            return;
        }
        let rule = tools::Fingerprint {
            cfg: &self.config,
            turn: s.turns,
        };
        let found = rule.raw(&s.tools, &s.earlier_calls);
        if settled {
            s.tools.note_step(found.as_ref().map(|f| f.level));
        }
        s.tools.finding = found;
    }

    /// A regulator restored from `export()` output (or a noos 0.4.1 state).
    pub fn import(json: &str) -> Result<Self> {
        Ok(Self::from_valid(Snapshot::from_json(json)?))
    }

    /// A regulator restored from a snapshot value (validated here).
    pub fn from_snapshot(snap: Snapshot) -> Result<Self> {
        snap.validate()?;
        Ok(Self::from_valid(snap))
    }

    fn from_valid(snap: Snapshot) -> Self {
        let mut r = Self {
            user_id: snap.user_id,
            glossary: glossary_stems(&snap.config),
            config: snap.config,
            id_seed: IdSeed::Value(0),
            memory: snap.memory,
            session: snap.session,
            scratch: Scratch::default(),
            tool_names: tools::effect::NameMemo::default(),
            topics: TopicIndex::default(),
            derived: Derived::default(),
            link_keys: LinkKeys::default(),
            revision: 0,
            judge_drift: true,
        };
        r.reindex_topics();
        r.refresh_tool_finding(false);
        r
    }

    /// Merges another copy of this user's memory (e.g. from another tab) into
    /// this one. Config and session stay this regulator's own.
    pub fn merge(&mut self, json: &str) -> Result<()> {
        let other = Snapshot::from_json(json)?;
        self.merge_snapshot(&other)
    }

    /// Merges another copy of this user's memory, as `merge`, and returns
    /// whether that copy lacks part of the merged memory (under this
    /// regulator's caps). A store holding that copy is behind: this
    /// regulator should save. `texts: false` compares the memories without
    /// texts, as `export_memory(false)` writes them.
    pub fn merge_behind(&mut self, json: &str, texts: bool) -> Result<bool> {
        let other = Snapshot::from_json(json)?;
        self.merge_snapshot(&other)?;
        let theirs = Memory::default().merge(&other.memory, &self.config);
        Ok(if texts {
            theirs != self.memory
        } else {
            theirs.without_texts() != self.memory.without_texts()
        })
    }

    pub fn merge_snapshot(&mut self, other: &Snapshot) -> Result<()> {
        if other.user_id != self.user_id {
            return Err(Error::range_error(
                "snapshot.userId",
                format!(
                    "is {:?}, but this regulator belongs to {:?}; users never mix",
                    other.user_id, self.user_id
                ),
            ));
        }
        let merged = self.memory.merge(&other.memory, &self.config);
        if merged != self.memory {
            self.memory = merged;
            self.memory_changed();
        }
        self.reindex_topics();
        self.derived = Derived::default();
        Ok(())
    }

    // Convenience calls for Rust users; each builds an `EventRef`.

    pub fn turn_start(&mut self, message: &str, at_ms: Option<u64>) -> Result<()> {
        self.apply(EventRef::TurnStart { message, at_ms })
    }

    pub fn turn_complete(&mut self, response: &str, at_ms: Option<u64>) -> Result<()> {
        self.apply(EventRef::TurnComplete { response, at_ms })
    }

    pub fn cost(&mut self, tokens_in: u64, tokens_out: u64, wallclock_ms: u64) -> Result<()> {
        self.apply(EventRef::Cost {
            tokens_in,
            tokens_out,
            wallclock_ms,
            provider: None,
            usd: None,
            at_ms: None,
        })
    }

    pub fn quality_feedback(&mut self, quality: f64) -> Result<()> {
        self.apply(EventRef::QualityFeedback {
            quality,
            at_ms: None,
        })
    }

    pub fn user_correction(&mut self, message: &str) -> Result<()> {
        self.apply(EventRef::UserCorrection {
            message,
            corrects_last: true,
            at_ms: None,
        })
    }

    pub fn tool_call(&mut self, name: &str, args: Option<&Value>) -> Result<()> {
        self.apply(EventRef::ToolCall {
            name,
            args: args.map(Args::Value),
            call_id: None,
            effect: None,
            at_ms: None,
        })
    }

    pub fn tool_result(&mut self, name: &str, ok: bool, duration_ms: u64) -> Result<()> {
        self.apply(EventRef::ToolResult {
            name,
            ok,
            duration_ms,
            error: None,
            result: None,
            call_id: None,
            at_ms: None,
        })
    }
}

/// The arguments' fingerprint and what the loop rules need from their values.
fn inspect_args(args: Args<'_>, shell: bool) -> Result<ArgsInfo> {
    match args {
        Args::Value(v) => Ok(inspect_value(v, shell)),
        Args::Json(text) => inspect_json(text, shell).map_err(|m| {
            if m.contains("deeper") {
                Error::range_error("toolCall.args", m)
            } else {
                Error::type_error("toolCall.args", format!("is not JSON: {m}"))
            }
        }),
    }
}

/// Whether request `new` rewords request `old`: at least half of the
/// smaller one's stems are in both ("convert this csv to json" → "i need the
/// csv as json please"), not a follow-up that adds scope.
fn rephrases(new: &KeywordBag, old: &KeywordBag) -> bool {
    let smaller = new.len().min(old.len());
    let shared = new.iter().filter(|(s, _, _)| old.contains_stem(s)).count();
    smaller > 0 && 2 * shared >= smaller
}

/// The topic key of a request without words: `#` and a hash of its
/// characters but spaces (of a bounded prefix), when it holds numbers or
/// symbols ("∫ x·e^x dx", "whats 3/4 + 1/6"); empty for one of only small
/// words ("is it ok?"), which names nothing.
fn symbol_key(message: &str) -> String {
    let head = &message[..message.floor_char_boundary(SYMBOL_KEY_BYTES.min(message.len()))];
    let names = |c: char| {
        c.is_ascii_digit()
            || !c.is_alphanumeric() && !c.is_whitespace() && !".,;:!?'\"()-¿¡…".contains(c)
    };
    if !head.chars().any(names) {
        return String::new();
    }
    let text: String = head
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    format!("#{:08x}", hash_bytes(0, text.as_bytes()) as u32)
}

/// Appends to the per-turn tool text, which anchors this turn's answer,
/// cutting at `TOOL_TEXT_BYTES` on a char boundary. Nothing is kept when no
/// answer to the request will be judged (it was read with scope drift off).
fn push_tool_text(buf: &mut String, facts: &drift::TaskFacts, text: &str) {
    let room = TOOL_TEXT_BYTES.saturating_sub(buf.len() + 1);
    if room == 0 || facts.unread {
        return;
    }
    let mut cut = text.len().min(room);
    while !text.is_char_boundary(cut) {
        cut -= 1;
    }
    buf.push(' ');
    buf.push_str(text.get(..cut).unwrap_or(""));
}

/// What is stored of a user's words: secrets removed, length capped.
fn clean_text(text: &str) -> String {
    truncate_chars(&redact_secrets(text), MAX_TEXT_CHARS)
}
