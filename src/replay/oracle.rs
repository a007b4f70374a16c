//! The replay oracle: which earlier messages each message of a recorded chat
//! needs ([`oracle_demand`]), and how many of those needs an online
//! keep-policy misses compared with a look-ahead oracle under the same token
//! budget ([`oracle_gap`]).
//!
//! The gap is the number that separates a bad context-pruning policy from a
//! budget that is simply too small: a large gap means a better policy would
//! help; a gap near 0 with many faults means the work does not fit the budget.
//!
//! # Demand
//!
//! Message `f` *links* to an earlier message `u` when
//! * `f` is a tool result and `u` is the most recent *preceding* assistant
//!   message with a call of that `tool_call_id` (ids are reused in real
//!   transcripts, so a later call with the same id never owns the result);
//! * or `f` mentions a file path (in its text, its call arguments or its tool
//!   result body) that `u` is the earliest message to mention. Paths match
//!   exactly or by suffix: `/testbed/src/x.py` ≡ `src/x.py`, because one ends
//!   with `/` plus the other (a bare name such as `utils.py` matches only
//!   itself: `ls` listings would otherwise claim every later file so named).
//!
//! `demand[t]` = the sorted messages `u < t` linked from any message of the
//! window `[t, min(t + horizon, n − 1)]`: what must be in context at `t` to
//! serve the next `horizon + 1` messages. `horizon = 0` is message `t` alone;
//! the reference count never falls as the horizon grows.
//!
//! # Paths
//!
//! Text is split on whitespace, `, ; ( ) | { }`, backticks, quotes and any
//! non-ASCII character (so CJK punctuation and words split too). A token is
//! then trimmed of surrounding markup (`*`, `[]`, `<>`, trailing `. : ! ?`),
//! of a `:line[:col]` suffix, a leading `./` and a diff's `a/` or `b/`. It is a
//! path when it has a known source extension (`fields.py`) or has a `/` and is
//! not a bare `word/word` pair (`and/or`, `text/html`). Rejected: HTML tags
//! (`</head>`), anything with `://`, `<`, `>`, `=`, `//` or other punctuation,
//! tokens without a letter (dates such as `2024/05/20`), `Node.js`-style names.
//!
//! # Faults
//!
//! The context is a cache with eviction. Before message `t` a policy keeps a
//! set `K_t` of earlier messages whose tokens fit the budget, chosen from the
//! pool `K_{t−1} ∪ refs(t−1) ∪ {t−1}`: a dropped message is gone unless it is
//! needed again (then it is fetched back, as a fault). `refs(t)` is demand at
//! horizon 0, and the faults at `t` are `refs(t) \ K_t`.
//!
//! * The **oracle** keeps, from the same pool, what is needed soonest within
//!   the next `horizon + 1` messages (Belady), smaller first on ties, then the
//!   most recent messages while room is left.
//! * **Unavoidable** faults at `t` are the refs that do not fit even when the
//!   context holds nothing but `refs(t)`, smallest first.
//! * `gap = online − oracle`. The oracle is greedy (sizes differ, so exact
//!   choice is a knapsack), so a slightly negative gap is possible.
//!
//! A message's size is [`estimate_tokens`] of its text plus call arguments,
//! at least 1 (every message costs its framing).
//!
//! Cost: demand is O(n·h·L) with L ≤ [`MAX_PATHS`] + 1 links a message; the
//! gap sorts the pool each turn it overflows, O(n·|K| log |K|) with |K| ≤ the
//! budget in tokens. Inputs are capped at [`MAX_MESSAGES`] messages.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::chat::estimate_tokens;
use crate::error::{Error, Result};
use crate::event::describe;
use crate::replay::openai::{content, optional_str, required_str};

/// The most messages one call accepts.
pub const MAX_MESSAGES: usize = 100_000;
/// The most distinct paths read from one message.
pub const MAX_PATHS: usize = 256;
/// Tokens longer than this are not paths (and are not looked at closely).
const MAX_PATH_BYTES: usize = 200;
/// Messages always kept by [`Policy::Incremental`], newest first.
const INCREMENTAL_TAIL: usize = 8;

/// Look-ahead demand of one transcript.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Demand {
    pub horizon: usize,
    /// Per message `t`, the sorted earlier messages the window needs.
    pub demand: Vec<Vec<usize>>,
    /// The sum of `demand[t].len()` over all t.
    pub reference_count: usize,
}

/// An online keep-policy to grade.
pub enum Policy {
    /// The last N messages before `t`, newest first, as many as fit.
    Recent(usize),
    /// codetether's incremental policy: everything when it fits; else pinned
    /// system messages, the last 8, then by score against the latest user
    /// message: 4.0·shared paths + 2.5·shared tool names + 3.0·shared error
    /// classes − 0.05·distance from the tail.
    Incremental,
    /// `(t, candidate indices) → kept indices`, in order of preference; the
    /// budget is enforced on the answer, and non-candidates are ignored.
    Custom(Box<Chooser>),
}

/// A custom policy's choice: `(t, candidates) → kept`, most wanted first.
pub type Chooser = dyn FnMut(usize, &[usize]) -> Vec<usize>;

impl fmt::Debug for Policy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Recent(n) => write!(f, "Recent({n})"),
            Self::Incremental => f.write_str("Incremental"),
            Self::Custom(_) => f.write_str("Custom(..)"),
        }
    }
}

/// `"recent:N"` or `"incremental"`.
pub fn parse_policy(s: &str) -> Result<Policy> {
    let s = s.trim();
    if s == "incremental" {
        return Ok(Policy::Incremental);
    }
    if let Some(n) = s.strip_prefix("recent:") {
        return n.trim().parse().map(Policy::Recent).map_err(|_| {
            Error::range_error(
                "policy",
                format!("{s:?}: N in recent:N must be a whole number"),
            )
        });
    }
    Err(Error::type_error(
        "policy",
        format!("{s:?} is not a policy; expected \"recent:N\" or \"incremental\""),
    ))
}

/// One turn with references (turns without any cannot fault).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TurnGap {
    pub t: usize,
    /// refs(t): the earlier messages message `t` needs.
    pub refs: Vec<usize>,
    /// How many messages the online policy kept before `t`.
    pub kept: usize,
    /// refs the online policy had dropped.
    pub missed: Vec<usize>,
    /// refs the oracle had dropped.
    pub oracle_missed: Vec<usize>,
    /// refs that fit no context of this budget.
    pub unavoidable: usize,
}

/// Faults of a policy against the oracle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Gap {
    pub online_faults: usize,
    pub oracle_faults: usize,
    /// online − oracle.
    pub gap: i64,
    pub unavoidable_faults: usize,
    pub per_turn: Vec<TurnGap>,
    pub budget_tokens: u64,
    pub horizon: usize,
}

/// Demand of `messages` (an OpenAI chat array) at `horizon`, capped at the
/// transcript's length. See the module documentation.
pub fn oracle_demand(messages: &Value, horizon: usize) -> Result<Demand> {
    let metas = read_messages(messages)?;
    let links = link(&metas);
    let horizon = horizon.min(metas.len());
    let demand: Vec<Vec<usize>> = (0..links.len())
        .map(|t| window_demand(&links, t, horizon))
        .collect();
    let reference_count = demand.iter().map(Vec::len).sum();
    Ok(Demand {
        horizon,
        demand,
        reference_count,
    })
}

/// Faults of `policy` and of the look-ahead oracle over `messages` under
/// `budget_tokens`. See the module documentation.
pub fn oracle_gap(
    messages: &Value,
    policy: &mut Policy,
    horizon: usize,
    budget_tokens: u64,
) -> Result<Gap> {
    let metas = read_messages(messages)?;
    let links = link(&metas);
    let n = metas.len();
    let horizon = horizon.min(n);
    let tokens: Vec<u64> = metas.iter().map(|m| m.tokens).collect();
    let mut online = Cache::new(n);
    let mut oracle = Cache::new(n);
    // Per message, the turn it is next needed at (valid where stamped with t + 1).
    let mut next_use = vec![(0usize, 0usize); n];
    let mut gap = Gap {
        online_faults: 0,
        oracle_faults: 0,
        gap: 0,
        unavoidable_faults: 0,
        per_turn: Vec::new(),
        budget_tokens,
        horizon,
    };
    let mut last_user = None;
    for t in 0..n {
        if t > 0 {
            online.grow(t, &links[t - 1]);
            oracle.grow(t, &links[t - 1]);
            if metas[t - 1].role == Role::User {
                last_user = Some(t - 1);
            }
        }
        let order = policy_order(policy, t, &online.pool, &metas, last_user, budget_tokens);
        online.pack(t, order, &tokens, budget_tokens);
        let order = oracle_order(t, &oracle.pool, &links, horizon, &tokens, &mut next_use);
        oracle.pack(t, order, &tokens, budget_tokens);

        let refs = &links[t];
        if refs.is_empty() {
            continue;
        }
        let missed = online.missing(refs);
        let oracle_missed = oracle.missing(refs);
        let unavoidable = unfit(refs, &tokens, budget_tokens);
        gap.online_faults += missed.len();
        gap.oracle_faults += oracle_missed.len();
        gap.unavoidable_faults += unavoidable;
        gap.per_turn.push(TurnGap {
            t,
            refs: refs.clone(),
            kept: online.pool.len(),
            missed,
            oracle_missed,
            unavoidable,
        });
    }
    gap.gap = gap.online_faults as i64 - gap.oracle_faults as i64;
    Ok(gap)
}

/// A trace's events as the chat messages the oracle reads: a turn start (or
/// a user correction) is a user message; a turn complete and the tool calls
/// after it are one assistant message; a tool result is a tool message. A
/// call without an id gets one (`call-<event index>`), and a result without
/// one answers the earliest unanswered call of its tool, so traces of any
/// source (mini-swe-agent's bash steps too) can be graded.
pub fn messages_of(events: &[crate::event::Event]) -> Value {
    use crate::event::Event;
    let mut out: Vec<Value> = Vec::new();
    // Calls not answered yet: (tool name, id), oldest first; bounded by the calls.
    let mut pending: std::collections::VecDeque<(String, String)> =
        std::collections::VecDeque::new();
    let mut assistant: Option<(String, Vec<Value>)> = None;
    let flush = |a: &mut Option<(String, Vec<Value>)>, out: &mut Vec<Value>| {
        if let Some((text, calls)) = a.take() {
            let mut m = serde_json::json!({ "role": "assistant", "content": text });
            if !calls.is_empty() {
                m["tool_calls"] = Value::Array(calls);
            }
            out.push(m);
        }
    };
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::TurnStart { message, .. } | Event::UserCorrection { message, .. } => {
                flush(&mut assistant, &mut out);
                out.push(serde_json::json!({ "role": "user", "content": message }));
            }
            Event::TurnComplete { response, .. } => {
                flush(&mut assistant, &mut out);
                assistant = Some((response.clone(), Vec::new()));
            }
            Event::ToolCall {
                name,
                args,
                call_id,
                ..
            } => {
                let id = call_id.clone().unwrap_or_else(|| format!("call-{i}"));
                pending.push_back((name.clone(), id.clone()));
                let arguments = args.as_ref().map_or(String::new(), Value::to_string);
                let call = serde_json::json!({ "id": id, "type": "function", "function": { "name": name, "arguments": arguments } });
                assistant
                    .get_or_insert_with(|| (String::new(), Vec::new()))
                    .1
                    .push(call);
            }
            Event::ToolResult {
                name,
                call_id,
                result,
                error,
                ..
            } => {
                flush(&mut assistant, &mut out);
                let id = match call_id {
                    Some(id) => {
                        pending.retain(|(_, p)| p != id);
                        id.clone()
                    }
                    None => match pending.iter().position(|(n, _)| n == name) {
                        Some(k) => pending.remove(k).map_or_else(String::new, |(_, id)| id),
                        None => format!("result-{i}"),
                    },
                };
                let text = [result.as_deref(), error.as_deref()]
                    .into_iter()
                    .flatten()
                    .collect::<Vec<_>>()
                    .join("\n");
                out.push(serde_json::json!({ "role": "tool", "tool_call_id": id, "name": name, "content": text }));
            }
            _ => {}
        }
    }
    flush(&mut assistant, &mut out);
    Value::Array(out)
}

// ---------------------------------------------------------------- reading

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    System,
    User,
    Assistant,
    Tool,
    Other,
}

/// What the oracle needs of one message.
#[derive(Debug, Clone)]
struct Meta {
    role: Role,
    tokens: u64,
    /// Ids of the calls this (assistant) message makes.
    call_ids: Vec<String>,
    /// The call this (tool) message answers.
    answers: Option<String>,
    /// Names of the tools called, or the `name` of a tool result.
    tools: Vec<String>,
    paths: Vec<String>,
    /// Bit i set: error class i of [`ERROR_MARKERS`] occurs in the text.
    errors: u8,
}

const ERROR_MARKERS: [&str; 6] = [
    "error:",
    "error[e",
    "failed",
    "panicked",
    "traceback",
    "stack trace",
];

fn read_messages(messages: &Value) -> Result<Vec<Meta>> {
    let list = messages.as_array().ok_or_else(|| {
        Error::type_error(
            "messages",
            format!("must be an array of messages, got {}", describe(messages)),
        )
    })?;
    if list.len() > MAX_MESSAGES {
        return Err(Error::range_error(
            "messages",
            format!("has {} messages; at most {MAX_MESSAGES}", list.len()),
        ));
    }
    list.iter()
        .enumerate()
        .map(|(i, m)| read_message(m, &format!("messages[{i}]")))
        .collect()
}

fn read_message(message: &Value, here: &str) -> Result<Meta> {
    let obj = message.as_object().ok_or_else(|| {
        Error::type_error(
            here,
            format!("must be an object, got {}", describe(message)),
        )
    })?;
    let role = match required_str(obj, "role", here)?.as_str() {
        "system" | "developer" => Role::System,
        "user" => Role::User,
        "assistant" => Role::Assistant,
        "tool" | "function" => Role::Tool,
        _ => Role::Other,
    };
    let text = content(obj, here)?;
    let mut bytes = text.len();
    let mut scanned = vec![text];
    let mut call_ids = Vec::new();
    let mut tools = Vec::new();
    for (k, call) in tool_calls(obj, here)?.iter().enumerate() {
        let at = format!("{here}.tool_calls[{k}]");
        let (id, name, args) = read_call(call, &at)?;
        bytes += args.len();
        call_ids.extend(id);
        tools.extend(name);
        scanned.push(argument_text(&args));
    }
    let answers = optional_str(obj, "tool_call_id", here)?;
    if let Some(Value::String(name)) = obj.get("name")
        && role == Role::Tool
    {
        tools.push(name.clone());
    }
    let mut paths = Vec::new();
    for s in &scanned {
        extract_paths(s, &mut paths);
    }
    Ok(Meta {
        role,
        tokens: estimate_tokens(bytes).max(1),
        call_ids,
        answers,
        tools,
        paths,
        errors: error_classes(&scanned[0]),
    })
}

/// `tool_calls` (an array, or absent) plus a legacy `function_call`.
fn tool_calls(obj: &Map<String, Value>, here: &str) -> Result<Vec<Value>> {
    let mut calls = match obj.get("tool_calls") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(list)) => list.clone(),
        Some(other) => {
            return Err(Error::type_error(
                format!("{here}.tool_calls"),
                format!("must be an array, got {}", describe(other)),
            ));
        }
    };
    if let Some(f) = obj.get("function_call").filter(|f| !f.is_null()) {
        calls.push(serde_json::json!({ "function": f }));
    }
    Ok(calls)
}

/// `{id?, function: {name?, arguments?}}` → (id, name, arguments as text).
fn read_call(call: &Value, here: &str) -> Result<(Option<String>, Option<String>, String)> {
    let obj = call.as_object().ok_or_else(|| {
        Error::type_error(here, format!("must be an object, got {}", describe(call)))
    })?;
    let id = match obj.get("id") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => {
            return Err(Error::type_error(
                format!("{here}.id"),
                format!("must be a string, got {}", describe(other)),
            ));
        }
    };
    let function = obj.get("function").and_then(Value::as_object);
    let name = function
        .and_then(|f| f.get("name"))
        .and_then(Value::as_str)
        .map(str::to_string);
    let args = match function.and_then(|f| f.get("arguments")) {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        // Some exporters give the arguments as an object.
        Some(other) => other.to_string(),
    };
    Ok((id, name, args))
}

/// The string values of JSON arguments (decoded, so `\n` is a newline), or the
/// raw text when it is not JSON.
fn argument_text(args: &str) -> String {
    fn collect(v: &Value, out: &mut String) {
        match v {
            Value::String(s) => {
                out.push_str(s);
                out.push('\n');
            }
            Value::Array(a) => a.iter().for_each(|x| collect(x, out)),
            Value::Object(o) => o.values().for_each(|x| collect(x, out)),
            _ => {}
        }
    }
    match serde_json::from_str::<Value>(args) {
        Ok(v) => {
            let mut out = String::new();
            collect(&v, &mut out);
            out
        }
        Err(_) => args.to_string(),
    }
}

fn error_classes(text: &str) -> u8 {
    let lower = text.to_lowercase();
    ERROR_MARKERS
        .iter()
        .enumerate()
        .filter(|(_, m)| lower.contains(*m))
        .fold(0, |acc, (i, _)| acc | 1 << i)
}

// ---------------------------------------------------------------- paths

/// Extensions that make a slash-less token a file name.
const EXTENSIONS: [&str; 40] = [
    "rs", "ts", "tsx", "js", "jsx", "mjs", "cjs", "py", "pyi", "go", "md", "json", "toml", "yaml",
    "yml", "html", "css", "c", "cc", "cpp", "h", "hpp", "java", "kt", "rb", "php", "sh", "txt",
    "cfg", "ini", "lock", "sql", "rst", "ipynb", "swift", "cs", "vue", "xml", "csv", "log",
];

fn separates(c: char) -> bool {
    c.is_whitespace()
        || !c.is_ascii()
        || matches!(
            c,
            ',' | ';' | '(' | ')' | '|' | '{' | '}' | '`' | '"' | '\''
        )
}

/// Appends the normalised paths of `text` to `out`, deduplicated, at most
/// [`MAX_PATHS`] in all.
fn extract_paths(text: &str, out: &mut Vec<String>) {
    for raw in text.split(separates) {
        if out.len() >= MAX_PATHS {
            return;
        }
        if let Some(p) = normalize_path(raw)
            && !out.iter().any(|q| q == p)
        {
            out.push(p.to_string());
        }
    }
}

/// The path a token names, normalised, or `None` when it is not one.
fn normalize_path(raw: &str) -> Option<&str> {
    if raw.len() < 3 || raw.len() > MAX_PATH_BYTES + 16 {
        return None;
    }
    let core = raw.trim_matches(['*', '[', ']']);
    if core.starts_with("</") || core.ends_with("/>") {
        return None; // an HTML tag
    }
    let mut p = core
        .trim_start_matches('<')
        .trim_end_matches(['>', '.', ':', '!', '?', '/']);
    p = strip_line_suffix(p);
    while let Some(rest) = p.strip_prefix("./") {
        p = rest;
    }
    if let Some(rest) = p.strip_prefix("a/").or_else(|| p.strip_prefix("b/"))
        && !rest.is_empty()
    {
        p = rest;
    }
    is_path(p).then_some(p)
}

/// `x.py:12` and `x.py:12:5` → `x.py`.
fn strip_line_suffix(mut p: &str) -> &str {
    for _ in 0..2 {
        match p.rsplit_once(':') {
            Some((head, tail))
                if !head.is_empty()
                    && !tail.is_empty()
                    && tail.bytes().all(|b| b.is_ascii_digit()) =>
            {
                p = head
            }
            _ => break,
        }
    }
    p
}

fn is_path(p: &str) -> bool {
    if p.len() < 3
        || p.len() > MAX_PATH_BYTES
        || p.contains("//")
        || !p.bytes().any(|b| b.is_ascii_alphabetic())
        || !p.bytes().all(|b| {
            b.is_ascii_alphanumeric() || matches!(b, b'/' | b'_' | b'-' | b'.' | b'~' | b'+' | b'@')
        })
    {
        return false; // also rejects `://`, `<`, `>`, `=`, dates
    }
    let name = p.rsplit('/').next().unwrap_or(p);
    if let Some((stem, ext)) = name.rsplit_once('.')
        && !stem.is_empty()
        && EXTENSIONS.iter().any(|e| e.eq_ignore_ascii_case(ext))
    {
        // `Node.js`, `Vue.js`: product names, not files.
        let product = !p.contains('/') && ext == "js" && stem.starts_with(char::is_uppercase);
        return !product;
    }
    if !p.contains('/') {
        return false;
    }
    let parts: Vec<&str> = p.split('/').filter(|s| !s.is_empty()).collect();
    let rooted = p.starts_with('/') || p.starts_with("~/") || p.starts_with("../");
    // `and/or`, `multipart/form-data`; `it/s` and `MB/s` are rates.
    let word_pair = parts.len() == 2
        && (parts[1].len() == 1
            || parts
                .iter()
                .all(|s| s.bytes().all(|b| b.is_ascii_alphabetic() || b == b'-')));
    // `/def`, `/return`: sed addresses and regexes far more often than files.
    parts.len() >= 3 || (parts.len() == 2 && (rooted || !word_pair))
}

/// The proper suffixes of a path at `/` boundaries that still hold a `/`:
/// `/a/b/c.py` → `a/b/c.py`, `b/c.py`. A bare name never matches by suffix:
/// `__init__.py` or `utils.py` in an `ls` listing would otherwise claim every
/// later file of that name.
fn suffixes(p: &str) -> impl Iterator<Item = &str> {
    p.match_indices('/')
        .map(move |(i, _)| &p[i + 1..])
        .filter(|s| s.contains('/'))
}

// ---------------------------------------------------------------- links

/// Per message, the sorted earlier messages it refers to (demand at h = 0).
fn link(metas: &[Meta]) -> Vec<Vec<usize>> {
    // Latest call per id so far: a result binds to the most recent preceding call.
    let mut calls: HashMap<&str, usize> = HashMap::new();
    // Earliest message mentioning exactly this path.
    let mut exact: HashMap<&str, usize> = HashMap::new();
    // Earliest message mentioning this path or one ending in `/` + it.
    let mut ending: HashMap<&str, usize> = HashMap::new();
    let mut links = Vec::with_capacity(metas.len());
    for (f, m) in metas.iter().enumerate() {
        let mut out: Vec<usize> = Vec::new();
        if let Some(u) = m.answers.as_deref().and_then(|id| calls.get(id)) {
            out.push(*u);
        }
        for p in &m.paths {
            let by_suffix = suffixes(p).filter_map(|s| exact.get(s)).min();
            if let Some(u) = ending.get(p.as_str()).into_iter().chain(by_suffix).min() {
                out.push(*u);
            }
        }
        out.sort_unstable();
        out.dedup();
        links.push(out);
        for p in &m.paths {
            exact.entry(p).or_insert(f);
            ending.entry(p).or_insert(f);
            for s in suffixes(p) {
                ending.entry(s).or_insert(f);
            }
        }
        for id in &m.call_ids {
            calls.insert(id, f);
        }
    }
    links
}

/// Earlier-than-`t` links of the window `[t, t + horizon]`, sorted.
fn window_demand(links: &[Vec<usize>], t: usize, horizon: usize) -> Vec<usize> {
    let end = (t + horizon).min(links.len().saturating_sub(1));
    let mut out: Vec<usize> = links[t..=end]
        .iter()
        .flatten()
        .copied()
        .filter(|&u| u < t)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

// ---------------------------------------------------------------- policies

/// The kept set of one policy, carried from turn to turn.
struct Cache {
    /// Sorted: the pool before packing, the kept set after.
    pool: Vec<usize>,
    /// `taken[u] == t + 1`: u was taken at turn t (avoids clearing per turn).
    taken: Vec<usize>,
}

impl Cache {
    fn new(n: usize) -> Self {
        Self {
            pool: Vec::new(),
            taken: vec![0; n],
        }
    }

    /// Pool for turn t: what was kept, plus refs(t − 1) fetched back, plus t − 1.
    fn grow(&mut self, t: usize, fetched: &[usize]) {
        self.pool.extend_from_slice(fetched);
        self.pool.push(t - 1);
        self.pool.sort_unstable();
        self.pool.dedup();
    }

    /// Keeps pool members in `order` while they fit (misfits are skipped).
    fn pack(&mut self, t: usize, order: Vec<usize>, tokens: &[u64], budget: u64) {
        let mut used = 0u64;
        let mut kept = Vec::with_capacity(self.pool.len());
        for u in order {
            // A custom policy may name anything: only pool members count.
            if self.pool.binary_search(&u).is_err() || self.taken[u] == t + 1 {
                continue;
            }
            if used + tokens[u] <= budget {
                self.taken[u] = t + 1;
                used += tokens[u];
                kept.push(u);
            }
        }
        kept.sort_unstable();
        self.pool = kept;
    }

    fn missing(&self, refs: &[usize]) -> Vec<usize> {
        refs.iter()
            .copied()
            .filter(|u| self.pool.binary_search(u).is_err())
            .collect()
    }
}

/// The policy's preference over the pool, most wanted first.
fn policy_order(
    policy: &mut Policy,
    t: usize,
    pool: &[usize],
    metas: &[Meta],
    last_user: Option<usize>,
    budget: u64,
) -> Vec<usize> {
    match policy {
        Policy::Recent(n) => {
            let from = t.saturating_sub(*n);
            pool.iter().rev().copied().filter(|&u| u >= from).collect()
        }
        Policy::Incremental => incremental_order(t, pool, metas, last_user, budget),
        Policy::Custom(choose) => choose(t, pool),
    }
}

fn incremental_order(
    t: usize,
    pool: &[usize],
    metas: &[Meta],
    last_user: Option<usize>,
    budget: u64,
) -> Vec<usize> {
    let total: u64 = pool.iter().map(|&u| metas[u].tokens).sum();
    if total <= budget {
        return pool.to_vec();
    }
    let tail_from = t.saturating_sub(INCREMENTAL_TAIL);
    let query = last_user.map(|q| &metas[q]);
    let query_paths: HashSet<&str> = query
        .map(|q| q.paths.iter().map(String::as_str).collect())
        .unwrap_or_default();
    let score = |u: usize| -> f64 {
        let distance = 0.05 * (t - 1 - u) as f64;
        let Some(q) = query else {
            return -distance;
        };
        let m = &metas[u];
        let files = m
            .paths
            .iter()
            .filter(|p| query_paths.contains(p.as_str()))
            .count();
        let tools = m.tools.iter().filter(|x| q.tools.contains(x)).count();
        let errors = (m.errors & q.errors).count_ones();
        4.0 * files as f64 + 2.5 * tools as f64 + 3.0 * f64::from(errors) - distance
    };
    // Pinned, then the tail newest first, then by score (newest on ties).
    let mut keyed: Vec<(u8, f64, usize)> = pool
        .iter()
        .map(|&u| match (metas[u].role == Role::System, u >= tail_from) {
            (true, _) => (0, 0.0, u),
            (false, true) => (1, 0.0, u),
            (false, false) => (2, score(u), u),
        })
        .collect();
    keyed.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.total_cmp(&a.1)).then(b.2.cmp(&a.2)));
    keyed.into_iter().map(|(_, _, u)| u).collect()
}

/// Belady over the look-ahead window: soonest next use first, smaller first
/// on ties; then messages with no known use, newest first.
fn oracle_order(
    t: usize,
    pool: &[usize],
    links: &[Vec<usize>],
    horizon: usize,
    tokens: &[u64],
    next_use: &mut [(usize, usize)],
) -> Vec<usize> {
    let end = (t + horizon).min(links.len() - 1);
    for (f, refs) in links.iter().enumerate().take(end + 1).skip(t) {
        for &u in refs.iter().filter(|&&u| u < t) {
            if next_use[u].0 != t + 1 {
                next_use[u] = (t + 1, f);
            }
        }
    }
    let mut order = pool.to_vec();
    order.sort_by_key(|&u| {
        let (stamp, f) = next_use[u];
        if stamp == t + 1 {
            (f, tokens[u], Reverse(u))
        } else {
            (usize::MAX, 0, Reverse(u))
        }
    });
    order
}

/// How many of `refs` fit no context of `budget`: smallest first.
fn unfit(refs: &[usize], tokens: &[u64], budget: u64) -> usize {
    let mut sizes: Vec<u64> = refs.iter().map(|&u| tokens[u]).collect();
    sizes.sort_unstable();
    let mut used = 0u64;
    let fitting = sizes
        .iter()
        .take_while(|&&s| {
            used += s;
            used <= budget
        })
        .count();
    refs.len() - fitting
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn traces_of_any_source_become_messages_with_results_bound_to_calls() {
        use crate::event::Event;
        let call = |cmd: &str| Event::ToolCall {
            name: "bash".into(),
            args: Some(json!({"command": cmd})),
            call_id: None,
            side_effect: None,
            read_only: None,
            at_ms: None,
        };
        let result = |out: &str| Event::ToolResult {
            name: "bash".into(),
            ok: true,
            duration_ms: 0,
            error: None,
            result: Some(out.into()),
            call_id: None,
            at_ms: None,
        };
        let events = vec![
            Event::TurnStart {
                message: "Fix src/app.py".into(),
                at_ms: None,
            },
            Event::TurnComplete {
                response: "Looking.".into(),
                at_ms: None,
            },
            call("cat src/app.py"),
            result("def main(): ..."),
            call("python -m pytest"),
            result("1 failed: src/app.py:3"),
        ];
        let m = messages_of(&events);
        let roles: Vec<&str> = m
            .as_array()
            .unwrap()
            .iter()
            .map(|x| x["role"].as_str().unwrap())
            .collect();
        assert_eq!(roles, ["user", "assistant", "tool", "assistant", "tool"]);
        assert_eq!(m[2]["tool_call_id"], m[1]["tool_calls"][0]["id"]);
        assert_eq!(m[4]["tool_call_id"], m[3]["tool_calls"][0]["id"]);
        let d = oracle_demand(&m, 0).unwrap();
        // Each result needs its call; the failing test names the file the user named.
        assert_eq!(d.demand[2], [1]);
        assert_eq!(d.demand[4], [0, 3]);
    }

    fn paths(text: &str) -> Vec<String> {
        let mut out = Vec::new();
        extract_paths(text, &mut out);
        out
    }

    fn user(text: &str) -> Value {
        json!({"role": "user", "content": text})
    }

    fn call(id: &str, args: &str) -> Value {
        json!({"role": "assistant", "content": null,
               "tool_calls": [{"id": id, "type": "function",
                               "function": {"name": "run", "arguments": args}}]})
    }

    fn result(id: &str, text: &str) -> Value {
        json!({"role": "tool", "tool_call_id": id, "content": text})
    }

    #[test]
    fn plain_paths_and_extensions_are_found() {
        assert_eq!(
            paths("see src/lib.rs and fields.py then /testbed/setup.cfg"),
            ["src/lib.rs", "fields.py", "/testbed/setup.cfg"]
        );
        assert_eq!(paths("cd /usr/local/bin"), ["/usr/local/bin"]);
        assert_eq!(paths("/testbed/django ~/x/y"), ["/testbed/django", "~/x/y"]);
        assert_eq!(paths("tests/unit/models"), ["tests/unit/models"]);
    }

    #[test]
    fn paths_are_normalised() {
        assert_eq!(paths("fields.py:1472"), ["fields.py"]);
        assert_eq!(paths("src/x.rs:12:5"), ["src/x.rs"]);
        assert_eq!(paths("./src/lib.rs"), ["src/lib.rs"]);
        assert_eq!(paths("--- a/src/x.rs\n+++ b/src/x.rs"), ["src/x.rs"]);
        assert_eq!(
            paths("**src/a.rs** [docs/b.md] <c/d.py>"),
            ["src/a.rs", "docs/b.md", "c/d.py"]
        );
        assert_eq!(paths("open `src/main.rs`."), ["src/main.rs"]);
        assert_eq!(paths("\"tests/x.py\", 'y.py'"), ["tests/x.py", "y.py"]);
        assert_eq!(
            paths("修改src/lib.rs，然后运行tests/a.py。"),
            ["src/lib.rs", "tests/a.py"]
        );
        assert_eq!(paths("../x.rs"), ["../x.rs"]);
    }

    #[test]
    fn non_paths_are_rejected() {
        for text in [
            "and/or",
            "start/end",
            "text/html",
            "multipart/form-data",
            "147315.63it/s",
            "12MB/s",
            "2024/05/20",
            "</head>",
            "</command>",
            "<br/>",
            "https://example.com/a/b.py",
            "-//W3C//DTD",
            "content=\"text/html",
            "a=b/c.py",
            "Node.js",
            "os.path",
            "e.g.",
            "3/4",
            "x/",
            "/testbed",
            "sed -n '/def foo/,/return/'",
        ] {
            assert_eq!(paths(text), Vec::<String>::new(), "{text}");
        }
    }

    #[test]
    fn paths_per_message_are_capped() {
        let text: String = (0..1000).map(|i| format!("f{i}.py ")).collect();
        assert_eq!(paths(&text).len(), MAX_PATHS);
        assert_eq!(paths("x.py x.py ./x.py"), ["x.py"]);
    }

    #[test]
    fn a_result_binds_to_the_preceding_call_with_its_id() {
        // The id is reused: the second result belongs to the second call.
        let m = json!([
            user("go"),
            call("c1", "{}"),
            result("c1", "one"),
            call("c1", "{}"),
            result("c1", "two"),
            result("nobody", "orphan"),
        ]);
        let d = oracle_demand(&m, 0).unwrap();
        assert_eq!(d.demand, [vec![], vec![], vec![1], vec![], vec![3], vec![]]);
        assert_eq!(d.reference_count, 2);
    }

    #[test]
    fn paths_in_arguments_and_results_link_to_the_first_mention() {
        let m = json!([
            user("fix fields.py please"),
            call("c1", r#"{"cmd": "cat src/marshmallow/fields.py\nls"}"#),
            result("c1", "/testbed/src/marshmallow/fields.py: 1472 lines"),
            user("and src/marshmallow/fields.py:10 again"),
        ]);
        let d = oracle_demand(&m, 0).unwrap();
        // A bare `fields.py` matches only itself; the rest match by suffix
        // (2 ends with /src/marshmallow/fields.py) and 2 answers 1's call.
        assert_eq!(d.demand[1], [] as [usize; 0]);
        assert_eq!(d.demand[2], [1]);
        assert_eq!(d.demand[3], [1]);
        let m = json!([
            user("fields.py"),
            user("see fields.py:3"),
            user("/a/fields.py")
        ]);
        assert_eq!(oracle_demand(&m, 0).unwrap().reference_count, 1);
        let m = json!([user("src/a.py"), user("/x/src/a.py"), user("/y/src/a.py")]);
        // `/x/src/a.py` and `/y/src/a.py` differ, but both end with src/a.py.
        assert_eq!(
            oracle_demand(&m, 0).unwrap().demand,
            [vec![], vec![0], vec![0]]
        );
        let m = json!([user("/x/src/a.py"), user("/y/src/a.py")]);
        assert_eq!(oracle_demand(&m, 0).unwrap().reference_count, 0);
    }

    #[test]
    fn horizon_widens_demand_monotonically() {
        let m = json!([
            user("edit src/a.rs"),
            user("hello"),
            user("world"),
            user("now src/a.rs"),
            user("and src/b.rs"),
            user("src/b.rs"),
        ]);
        let counts: Vec<usize> = (0..8)
            .map(|h| oracle_demand(&m, h).unwrap().reference_count)
            .collect();
        assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
        let d0 = oracle_demand(&m, 0).unwrap();
        assert_eq!(
            d0.demand,
            [vec![], vec![], vec![], vec![0], vec![], vec![4]]
        );
        let d2 = oracle_demand(&m, 2).unwrap();
        assert_eq!(d2.demand[1], [0]); // message 3 is in 1's window
        assert_eq!(d2.demand[3], [0]);
        assert_eq!(oracle_demand(&m, 100).unwrap().horizon, 6);
    }

    #[test]
    fn empty_trace_has_no_demand_and_no_faults() {
        let d = oracle_demand(&json!([]), 3).unwrap();
        assert!(d.demand.is_empty());
        assert_eq!(d.reference_count, 0);
        let g = oracle_gap(&json!([]), &mut Policy::Recent(4), 3, 100).unwrap();
        assert_eq!((g.online_faults, g.oracle_faults, g.gap), (0, 0, 0));
    }

    #[test]
    fn bad_input_names_the_field() {
        let e = oracle_demand(&json!({}), 0).unwrap_err();
        assert!(e.to_string().contains("messages"), "{e}");
        let e = oracle_demand(&json!([user("x"), {"content": "y"}]), 0).unwrap_err();
        assert!(e.to_string().contains("messages[1].role"), "{e}");
        let e = oracle_demand(&json!([{"role": "tool", "tool_call_id": 3}]), 0).unwrap_err();
        assert!(e.to_string().contains("messages[0].tool_call_id"), "{e}");
        let e = oracle_demand(&json!([{"role": "assistant", "tool_calls": {}}]), 0).unwrap_err();
        assert!(e.to_string().contains("messages[0].tool_calls"), "{e}");
    }

    #[test]
    fn too_many_messages_is_a_range_error() {
        let m = Value::Array(vec![json!({"role": "user"}); MAX_MESSAGES + 1]);
        let e = oracle_demand(&m, 0).unwrap_err();
        assert_eq!(e.kind(), crate::error::ErrorKind::Range);
    }

    #[test]
    fn policies_parse() {
        assert!(matches!(
            parse_policy("recent:8").unwrap(),
            Policy::Recent(8)
        ));
        assert!(matches!(
            parse_policy(" incremental ").unwrap(),
            Policy::Incremental
        ));
        assert!(parse_policy("recent:x").is_err());
        assert!(parse_policy("lru").is_err());
    }

    /// Message 0 mentions a file that message 6 needs again.
    fn far_reference() -> Value {
        let mut m = vec![user("look at src/lib.rs")];
        m.extend((1..6).map(|i| user(&format!("filler {i}"))));
        m.push(user("now change src/lib.rs"));
        Value::Array(m)
    }

    #[test]
    fn a_budget_that_fits_everything_has_no_faults() {
        let m = far_reference();
        for mut p in [Policy::Incremental, Policy::Recent(100)] {
            let g = oracle_gap(&m, &mut p, 3, 1_000_000).unwrap();
            assert_eq!((g.online_faults, g.oracle_faults, g.gap), (0, 0, 0));
            assert_eq!(g.unavoidable_faults, 0);
            assert_eq!(g.per_turn.len(), 1);
        }
    }

    #[test]
    fn a_short_recency_window_misses_far_references() {
        let m = far_reference();
        let g = oracle_gap(&m, &mut Policy::Recent(1), 0, 1_000_000).unwrap();
        assert_eq!((g.online_faults, g.oracle_faults, g.gap), (1, 0, 1));
        let turn = &g.per_turn[0];
        assert_eq!(
            (turn.t, turn.missed.as_slice(), turn.kept),
            (6, &[0][..], 1)
        );
    }

    #[test]
    fn the_oracle_keeps_what_is_needed_soonest() {
        // Budget for two small messages: recency keeps the fillers, the
        // oracle (seeing 6 needs 0 within the horizon) keeps message 0.
        let m = far_reference();
        let g = oracle_gap(&m, &mut Policy::Recent(2), 6, 10).unwrap();
        assert_eq!((g.online_faults, g.oracle_faults), (1, 0));
        // Without look-ahead the oracle cannot know to keep message 0.
        let g0 = oracle_gap(&m, &mut Policy::Recent(2), 0, 10).unwrap();
        assert_eq!(g0.oracle_faults, 1);
    }

    #[test]
    fn a_budget_too_small_gives_unavoidable_faults_and_no_gap() {
        let big = format!("{} src/lib.rs", "x".repeat(4000));
        let m = json!([user(&big), user("filler"), user("edit src/lib.rs")]);
        let g = oracle_gap(&m, &mut Policy::Recent(8), 3, 100).unwrap();
        assert_eq!((g.online_faults, g.oracle_faults, g.gap), (1, 1, 0));
        assert_eq!(g.unavoidable_faults, 1);
        assert_eq!(g.per_turn[0].unavoidable, 1);
    }

    #[test]
    fn a_custom_policy_is_held_to_the_budget() {
        let m = far_reference();
        let mut keep_all = Policy::Custom(Box::new(|_, pool: &[usize]| pool.to_vec()));
        let g = oracle_gap(&m, &mut keep_all, 3, 1_000_000).unwrap();
        assert_eq!(g.online_faults, 0);
        // Unknown indices are ignored; keeping message 0 alone is enough.
        let mut first = Policy::Custom(Box::new(|_, _: &[usize]| vec![99, 0]));
        assert_eq!(
            oracle_gap(&m, &mut first, 3, 1_000_000)
                .unwrap()
                .online_faults,
            0
        );
        let mut none = Policy::Custom(Box::new(|_, _: &[usize]| vec![99]));
        assert_eq!(
            oracle_gap(&m, &mut none, 3, 1_000_000)
                .unwrap()
                .online_faults,
            1
        );
        // Over budget: message 0 (5 tokens) does not fit in 4.
        let mut all = Policy::Custom(Box::new(|_, pool: &[usize]| pool.to_vec()));
        assert_eq!(oracle_gap(&m, &mut all, 3, 4).unwrap().online_faults, 1);
    }

    #[test]
    fn the_gap_is_deterministic_and_serialises_in_camel_case() {
        let m = far_reference();
        let a = oracle_gap(&m, &mut Policy::Incremental, 3, 5).unwrap();
        let b = oracle_gap(&m, &mut Policy::Incremental, 3, 5).unwrap();
        assert_eq!(a, b);
        let v = serde_json::to_value(&a).unwrap();
        assert!(v.get("onlineFaults").is_some() && v.get("unavoidableFaults").is_some());
        assert!(v["perTurn"][0].get("oracleMissed").is_some());
        let d = serde_json::to_value(oracle_demand(&m, 1).unwrap()).unwrap();
        assert!(d.get("referenceCount").is_some());
    }
}
