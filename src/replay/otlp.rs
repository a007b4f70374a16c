//! OpenTelemetry GenAI spans → traces.
//!
//! Reads spans as **OTLP/JSON** (an export request,
//! `{resourceSpans: [{scopeSpans: [{spans: [...]}]}]}`; the older
//! `instrumentationLibrarySpans` too; an array of such exports), or in the
//! SDK "dict" form (one span object, or an array of them, with attributes as a
//! plain object and snake_case `start_time_unix_nano`, `trace_id` or
//! `context.trace_id`, `parent_id`). Spans are grouped by `traceId`: one
//! [`Trace`] per trace id, in order of first appearance, with `id` = the trace
//! id (`"untraced"` for spans without one), `source: "otlp"`, no outcome.
//!
//! Within a trace, spans are read in order of start time; ties go to the
//! ancestor first, then to the order in the file. Each span is read once, by
//! the first rule that matches its kind:
//!
//! | span | events |
//! |---|---|
//! | `ai.generateText` / `ai.streamText` (AI SDK run; by `ai.operationId`, else the span name) | `TurnStart(` last message of `ai.prompt` (`{prompt}` or `{messages}`) `)` when it is the user's and new; no usage (its steps carry it) |
//! | `ai.generateText.doGenerate` / `ai.streamText.doStream` (AI SDK step) | `Cost { tokensIn: ai.usage.inputTokens ?? ai.usage.promptTokens ?? gen_ai.usage.input_tokens, tokensOut: ai.usage.outputTokens ?? ai.usage.completionTokens ?? gen_ai.usage.output_tokens, wallclockMs: duration, provider }`; `TurnComplete(ai.response.text)` when the step has no `ai.response.toolCalls` |
//! | `ai.toolCall` (AI SDK tool) | `ToolCall(ai.toolCall.name, ai.toolCall.args, callId: ai.toolCall.id)`, `ToolResult { ok, result: ai.toolCall.result, durationMs }` |
//! | `gen_ai.operation.name` = `chat` / `text_completion` / `generate_content`, or no operation name but `gen_ai.usage.*`, `gen_ai.input.messages`, `gen_ai.prompt`, `gen_ai.*message` events (the older form) | `TurnStart(` last user message `)` when new; one `ToolCall` + `ToolResult` per `gen_ai.tool.message` event naming `gen_ai.tool.name`; `Cost { tokensIn: gen_ai.usage.input_tokens ?? prompt_tokens, tokensOut: gen_ai.usage.output_tokens ?? completion_tokens, wallclockMs, provider }`; `TurnComplete(` last assistant text `)` when it asks for no tool |
//! | `gen_ai.operation.name` = `execute_tool` | `ToolCall(gen_ai.tool.name, gen_ai.tool.call.arguments, callId: gen_ai.tool.call.id)`, `ToolResult { ok, result: gen_ai.tool.call.result, durationMs }` |
//! | anything else (HTTP, database, `invoke_agent`, `embeddings`, other `ai.*` spans) | none: not a record of ours, ignored |
//!
//! * **The user's message** of a model span is the last `user` message of
//!   `gen_ai.input.messages` (JSON `[{role, parts: [{type: "text", content}]}]`)
//!   or else `gen_ai.prompt`; without those attributes, the last
//!   `gen_ai.user.message` span event (attribute `content`) before the answer
//!   event. A turn starts only when that message (its position and text)
//!   differs from the last one heard in the trace: each step re-sends the
//!   history. An AI SDK run opens a turn only when its prompt ends with the
//!   user's message (not a run resumed after tool results).
//! * **The answer** is the last assistant message of `gen_ai.output.messages`
//!   (or `gen_ai.completion`), else the last `gen_ai.choice` event (attribute
//!   `message` or `content`), else the last `gen_ai.assistant.message` event.
//!   It is a `TurnComplete` only when it is not empty and asks for no tool.
//! * **Usage is counted once**: from model and step spans only, never from an
//!   AI SDK run span (its usage is the sum of its steps') nor from
//!   `invoke_agent` spans. A count is a non-negative integer, a float (rounded)
//!   or a numeric string; negative, NaN, infinite or other values are absent
//!   (0 when the other count is present). Counts and times saturate at 2^53−1.
//!   A model or step span with neither count gets its tokens estimated from
//!   its text ([`crate::chat::estimate_tokens`] of the input and output text
//!   bytes), and the trace is flagged `estimated_tokens`.
//! * **Tool spans**: a span with status ERROR (`2`, `"STATUS_CODE_ERROR"`,
//!   `"ERROR"`) or an `error.type` attribute is a failed result, its error the
//!   status message, else `error.type`, else `"error"`; otherwise `ok` with the
//!   result (a string as is, anything else as compact JSON). Arguments given
//!   as a JSON string are parsed (kept as a string when they do not parse).
//!   `durationMs` is the span's. Tool spans under the same parent whose times
//!   overlap are one parallel batch: all their calls, then all their results.
//! * **Time**: events at a span's start (`TurnStart`, `ToolCall`) get its
//!   start, the rest its end, in ms since the epoch (span event times for
//!   `gen_ai.tool.message` events). Timestamps in ns may be integers, floats
//!   or decimal strings; Python's `span.to_json()` ISO 8601 `start_time` /
//!   `end_time` / event `timestamp` are read too (to the ms); 0 or missing
//!   means unknown (such spans sort first). `message_ids` holds, per event,
//!   the id of the span it came from.
//! * **Errors** name the position as a path
//!   (`resourceSpans[0].scopeSpans[1].spans[3].startTimeUnixNano`): a span that
//!   is not an object, a malformed attribute list or value, a bad timestamp or
//!   status, a tool span without a tool name. A file holds at most
//!   [`MAX_SPANS`] spans.
//! * `gen_ai.tool.message` events without `gen_ai.tool.name` are skipped: in
//!   the conventions they are the tool's answer sent back to the model, which
//!   names no tool (the `execute_tool` span records the call).

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::Trace;
use super::openai::required_str;
use super::time::iso_ms;
use crate::chat::estimate_tokens;
use crate::config::MAX_SAFE_INT;
use crate::error::{Error, Result};
use crate::event::{Event, MAX_NAME_BYTES, describe};

/// Most spans read from one file.
pub const MAX_SPANS: usize = 1_000_000;

const NANOS_PER_MS: u64 = 1_000_000;
const MODEL_OPS: [&str; 3] = ["chat", "text_completion", "generate_content"];
/// The trace id of spans without one.
const UNTRACED: &str = "untraced";

/// Whether `v` looks like OTLP/JSON spans or dict-form spans (a cheap check on
/// the top level, for auto-detection).
pub fn is_otlp(v: &Value) -> bool {
    match v {
        Value::Object(o) => o.get("resourceSpans").is_some_and(Value::is_array) || is_span(o),
        Value::Array(list) => list
            .first()
            .and_then(Value::as_object)
            .is_some_and(|o| o.get("resourceSpans").is_some_and(Value::is_array) || is_span(o)),
        _ => false,
    }
}

fn is_span(o: &Map<String, Value>) -> bool {
    o.get("name").is_some_and(Value::is_string)
        && (o.contains_key("attributes") || o.contains_key("events"))
        && [
            "traceId",
            "trace_id",
            "context",
            "spanId",
            "span_id",
            "startTimeUnixNano",
            "start_time_unix_nano",
        ]
        .iter()
        .any(|k| o.contains_key(*k))
}

/// Reads OTLP/JSON or dict-form spans into traces, one per trace id (see the
/// module documentation for the mapping).
pub fn otlp_traces(v: &Value) -> Result<Vec<Trace>> {
    let spans = collect(v)?;
    // Group by trace id, in order of first appearance.
    let mut order: Vec<String> = Vec::new();
    let mut groups: Vec<Vec<Span>> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for span in spans {
        let g = *index.entry(span.trace.clone()).or_insert_with(|| {
            order.push(span.trace.clone());
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(span);
    }
    let mut traces = Vec::with_capacity(groups.len());
    for (id, spans) in order.into_iter().zip(groups) {
        traces.push(read_trace(id, spans)?);
    }
    Ok(traces)
}

// ---------------------------------------------------------------------------
// Spans, normalised from either form.

struct Span {
    path: String,
    trace: String,
    id: Option<String>,
    parent: Option<String>,
    name: String,
    start_ns: Option<u64>,
    end_ns: Option<u64>,
    error: bool,
    status_message: Option<String>,
    attrs: Map<String, Value>,
    events: Vec<SpanEvent>,
}

struct SpanEvent {
    name: String,
    time_ns: Option<u64>,
    attrs: Map<String, Value>,
}

fn collect(v: &Value) -> Result<Vec<Span>> {
    let mut out = Vec::new();
    match v {
        Value::Object(o) if o.contains_key("resourceSpans") => export(o, "", &mut out)?,
        Value::Object(_) => push(&mut out, span(v, "span")?, "span")?,
        Value::Array(list) => {
            for (i, item) in list.iter().enumerate() {
                match item {
                    Value::Object(o) if o.contains_key("resourceSpans") => {
                        export(o, &format!("[{i}]."), &mut out)?
                    }
                    _ => {
                        let here = format!("spans[{i}]");
                        let s = span(item, &here)?;
                        push(&mut out, s, &here)?;
                    }
                }
            }
        }
        other => {
            return Err(Error::type_error(
                "spans",
                format!(
                    "must be an OTLP/JSON export, a span or an array of spans, got {}",
                    describe(other)
                ),
            ));
        }
    }
    Ok(out)
}

fn push(out: &mut Vec<Span>, s: Span, here: &str) -> Result<()> {
    if out.len() >= MAX_SPANS {
        return Err(Error::range_error(
            here,
            format!("is one span too many: a file holds at most {MAX_SPANS}"),
        ));
    }
    out.push(s);
    Ok(())
}

/// The spans of one export request `{resourceSpans: [...]}`.
fn export(o: &Map<String, Value>, prefix: &str, out: &mut Vec<Span>) -> Result<()> {
    let rs_at = format!("{prefix}resourceSpans");
    for (i, rs) in array(o.get("resourceSpans"), &rs_at)?.iter().enumerate() {
        let here = format!("{rs_at}[{i}]");
        let rs = object(rs, &here)?;
        let key = if rs.contains_key("scopeSpans") {
            "scopeSpans"
        } else {
            "instrumentationLibrarySpans"
        };
        let ss_at = format!("{here}.{key}");
        for (j, ss) in array(rs.get(key), &ss_at)?.iter().enumerate() {
            let here = format!("{ss_at}[{j}]");
            let ss = object(ss, &here)?;
            let spans_at = format!("{here}.spans");
            for (k, s) in array(ss.get("spans"), &spans_at)?.iter().enumerate() {
                let here = format!("{spans_at}[{k}]");
                let s = span(s, &here)?;
                push(out, s, &here)?;
            }
        }
    }
    Ok(())
}

/// One span, OTLP/JSON or dict form.
fn span(v: &Value, here: &str) -> Result<Span> {
    let o = object(v, here)?;
    let context = match o.get("context") {
        None | Some(Value::Null) => None,
        Some(c) => Some(object(c, &format!("{here}.context"))?),
    };
    let pick = |keys: &[&str]| -> Result<Option<String>> {
        for key in keys {
            if let Some(s) = id_field(o, key, here)? {
                return Ok(Some(s));
            }
        }
        Ok(None)
    };
    let from_context = |key: &str| -> Result<Option<String>> {
        match context {
            Some(c) => id_field(c, key, &format!("{here}.context")),
            None => Ok(None),
        }
    };
    let trace = match pick(&["traceId", "trace_id"])? {
        Some(t) => Some(t),
        None => from_context("trace_id")?,
    };
    let id = match pick(&["spanId", "span_id"])? {
        Some(s) => Some(s),
        None => from_context("span_id")?,
    };
    let parent = pick(&["parentSpanId", "parent_span_id", "parent_id"])?;
    let name = required_str(o, "name", here)?;
    let start_ns = time_field(
        o,
        &["startTimeUnixNano", "start_time_unix_nano", "start_time"],
        here,
    )?;
    let end_ns = time_field(
        o,
        &["endTimeUnixNano", "end_time_unix_nano", "end_time"],
        here,
    )?;
    let (error, status_message) = status(o.get("status"), &format!("{here}.status"))?;
    let attrs = attributes(o.get("attributes"), &format!("{here}.attributes"))?;
    let events_at = format!("{here}.events");
    let mut events = Vec::new();
    for (i, e) in array(o.get("events"), &events_at)?.iter().enumerate() {
        let here = format!("{events_at}[{i}]");
        let eo = object(e, &here)?;
        let name = required_str(eo, "name", &here)?;
        events.push(SpanEvent {
            name,
            time_ns: time_field(eo, &["timeUnixNano", "time_unix_nano", "timestamp"], &here)?,
            attrs: attributes(eo.get("attributes"), &format!("{here}.attributes"))?,
        });
    }
    Ok(Span {
        path: here.to_string(),
        trace: trace.unwrap_or_else(|| UNTRACED.to_string()),
        id,
        parent,
        name,
        start_ns,
        end_ns,
        error,
        status_message,
        attrs,
        events,
    })
}

fn object<'a>(v: &'a Value, here: &str) -> Result<&'a Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| Error::type_error(here, format!("must be an object, got {}", describe(v))))
}

/// An optional array: missing or `null` is empty.
fn array<'a>(v: Option<&'a Value>, here: &str) -> Result<&'a [Value]> {
    match v {
        None | Some(Value::Null) => Ok(&[]),
        Some(Value::Array(a)) => Ok(a),
        Some(other) => Err(Error::type_error(
            here,
            format!("must be an array, got {}", describe(other)),
        )),
    }
}

/// A trace or span id: a string (empty means none).
fn id_field(o: &Map<String, Value>, key: &str, here: &str) -> Result<Option<String>> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if s.is_empty() => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(Error::type_error(
            format!("{here}.{key}"),
            format!("must be a string, got {}", describe(other)),
        )),
    }
}

/// A timestamp in ns: the first present of `keys` (ns as a number or a
/// decimal string, or an ISO 8601 string); 0 means unknown.
fn time_field(o: &Map<String, Value>, keys: &[&str], here: &str) -> Result<Option<u64>> {
    for key in keys {
        match o.get(*key) {
            None | Some(Value::Null) => continue,
            Some(v) => return nanos(v, &format!("{here}.{key}")),
        }
    }
    Ok(None)
}

fn nanos(v: &Value, here: &str) -> Result<Option<u64>> {
    let n = match v {
        Value::Number(n) => match (n.as_u64(), n.as_f64()) {
            (Some(u), _) => u,
            (None, Some(f)) if f.is_finite() && f >= 0.0 => f as u64,
            _ => {
                return Err(Error::range_error(
                    here,
                    format!("must be a non-negative time in ns, got {n}"),
                ));
            }
        },
        Value::String(s) => {
            let t = s.trim();
            if t.is_empty() {
                return Ok(None);
            }
            if t.len() > 10 && t.as_bytes()[4] == b'-' {
                // ISO 8601, as Python's `span.to_json()` writes `start_time`.
                return match iso_ms(t) {
                    Some(ms) => Ok(Some(ms.saturating_mul(NANOS_PER_MS)).filter(|&n| n > 0)),
                    None => Err(Error::range_error(
                        here,
                        format!("must be a time in ns or an ISO 8601 time, got {s:?}"),
                    )),
                };
            }
            if t.bytes().all(|b| b.is_ascii_digit()) {
                // Saturates instead of failing on absurd lengths.
                t.parse::<u64>().unwrap_or(u64::MAX)
            } else {
                match t.parse::<f64>() {
                    Ok(f) if f.is_finite() && f >= 0.0 => f as u64,
                    _ => {
                        return Err(Error::range_error(
                            here,
                            format!("must be a non-negative time in ns, got {s:?}"),
                        ));
                    }
                }
            }
        }
        other => {
            return Err(Error::type_error(
                here,
                format!(
                    "must be a time in ns (a number or a decimal string), got {}",
                    describe(other)
                ),
            ));
        }
    };
    Ok((n > 0).then_some(n))
}

/// `status: {code, message}` (dict form: `status_code`, `description`) →
/// whether it is an error, and its message.
fn status(v: Option<&Value>, here: &str) -> Result<(bool, Option<String>)> {
    let o = match v {
        None | Some(Value::Null) => return Ok((false, None)),
        Some(v) => object(v, here)?,
    };
    let (key, code) = match (o.get("code"), o.get("status_code")) {
        (Some(c), _) if !c.is_null() => ("code", c),
        (_, Some(c)) if !c.is_null() => ("status_code", c),
        _ => ("code", &Value::Null),
    };
    let error = match code {
        Value::Null => false,
        Value::Number(n) => match n.as_u64() {
            Some(0 | 1) => false,
            Some(2) => true,
            _ => {
                return Err(Error::range_error(
                    format!("{here}.{key}"),
                    format!("must be 0 (unset), 1 (ok) or 2 (error), got {n}"),
                ));
            }
        },
        Value::String(s) => match s.as_str() {
            "STATUS_CODE_UNSET" | "UNSET" | "STATUS_CODE_OK" | "OK" | "0" | "1" => false,
            "STATUS_CODE_ERROR" | "ERROR" | "2" => true,
            _ => {
                return Err(Error::range_error(
                    format!("{here}.{key}"),
                    format!("{s:?} is not a status code"),
                ));
            }
        },
        other => {
            return Err(Error::type_error(
                format!("{here}.{key}"),
                format!("must be a number or a string, got {}", describe(other)),
            ));
        }
    };
    let message = ["message", "description"]
        .iter()
        .find_map(|k| o.get(*k).and_then(Value::as_str))
        .filter(|s| !s.is_empty())
        .map(str::to_string);
    Ok((error, message))
}

/// Attributes as a plain map: OTLP's `[{key, value: AnyValue}]`, or a plain
/// object (dict form).
fn attributes(v: Option<&Value>, here: &str) -> Result<Map<String, Value>> {
    match v {
        None | Some(Value::Null) => Ok(Map::new()),
        Some(Value::Object(o)) => Ok(o.clone()),
        Some(Value::Array(list)) => key_values(list, here),
        Some(other) => Err(Error::type_error(
            here,
            format!(
                "must be an array of {{key, value}} or an object, got {}",
                describe(other)
            ),
        )),
    }
}

fn key_values(list: &[Value], here: &str) -> Result<Map<String, Value>> {
    let mut map = Map::new();
    for (i, kv) in list.iter().enumerate() {
        let at = format!("{here}[{i}]");
        let o = object(kv, &at)?;
        let key = required_str(o, "key", &at)?;
        let value = match o.get("value") {
            None | Some(Value::Null) => Value::Null,
            Some(v) => any_value(v, &format!("{at}.value"))?,
        };
        map.insert(key, value);
    }
    Ok(map)
}

/// An OTLP `AnyValue` as plain JSON. An `intValue` may be a string or a
/// number; a `doubleValue` that is not finite (`"NaN"`, `"Infinity"`) stays a
/// string, which no count accepts.
fn any_value(v: &Value, here: &str) -> Result<Value> {
    let o = object(v, here)?;
    let Some((key, inner)) = o.iter().next() else {
        return Ok(Value::Null);
    };
    let at = format!("{here}.{key}");
    let wrong = |what: &str| {
        Error::type_error(
            at.as_str(),
            format!("must be {what}, got {}", describe(inner)),
        )
    };
    Ok(match key.as_str() {
        "stringValue" | "bytesValue" => match inner {
            Value::String(_) => inner.clone(),
            _ => return Err(wrong("a string")),
        },
        "boolValue" => match inner {
            Value::Bool(_) => inner.clone(),
            _ => return Err(wrong("a boolean")),
        },
        "intValue" => match inner {
            Value::Number(n) if n.is_i64() || n.is_u64() => inner.clone(),
            Value::String(s) => {
                let t = s.trim();
                if let Ok(i) = t.parse::<i64>() {
                    Value::from(i)
                } else if let Ok(u) = t.parse::<u64>() {
                    Value::from(u)
                } else {
                    return Err(Error::type_error(
                        at.as_str(),
                        format!("must be an integer, got {s:?}"),
                    ));
                }
            }
            _ => return Err(wrong("an integer or a decimal string")),
        },
        "doubleValue" => match inner {
            Value::Number(_) => inner.clone(),
            Value::String(s) => match s.trim().parse::<f64>() {
                Ok(f) if f.is_finite() => serde_json::Number::from_f64(f)
                    .map(Value::Number)
                    .unwrap_or(Value::Null),
                Ok(_) => inner.clone(),
                Err(_) => {
                    return Err(Error::type_error(
                        at.as_str(),
                        format!("must be a number, got {s:?}"),
                    ));
                }
            },
            _ => return Err(wrong("a number")),
        },
        "arrayValue" => {
            let values = match inner {
                Value::Object(a) => array(a.get("values"), &format!("{at}.values"))?,
                Value::Null => &[],
                _ => return Err(wrong("an object {values}")),
            };
            let mut out = Vec::with_capacity(values.len());
            for (i, item) in values.iter().enumerate() {
                out.push(any_value(item, &format!("{at}.values[{i}]"))?);
            }
            Value::Array(out)
        }
        "kvlistValue" => match inner {
            Value::Object(a) => Value::Object(key_values(
                array(a.get("values"), &format!("{at}.values"))?,
                &format!("{at}.values"),
            )?),
            Value::Null => Value::Object(Map::new()),
            _ => return Err(wrong("an object {values}")),
        },
        other => {
            return Err(Error::type_error(
                here,
                format!(
                    "{other:?} is not an AnyValue field; expected stringValue, intValue, doubleValue, boolValue, arrayValue, kvlistValue or bytesValue"
                ),
            ));
        }
    })
}

// ---------------------------------------------------------------------------
// Shared readers (also used by the AI SDK importer).

/// A token count: a non-negative integer, float (rounded) or numeric string,
/// saturated at 2^53−1; anything else (negative, NaN, text) is absent.
pub(crate) fn count(v: Option<&Value>) -> Option<u64> {
    let f = match v? {
        Value::Number(n) => match n.as_u64() {
            Some(u) => return Some(u.min(MAX_SAFE_INT)),
            None => n.as_f64()?,
        },
        Value::String(s) => {
            let t = s.trim();
            if let Ok(u) = t.parse::<u64>() {
                return Some(u.min(MAX_SAFE_INT));
            }
            t.parse::<f64>().ok()?
        }
        _ => return None,
    };
    (f.is_finite() && f >= 0.0).then(|| (f.round() as u64).min(MAX_SAFE_INT))
}

/// A JSON string parsed (kept as the string when it does not parse); any
/// other value as it is.
pub(crate) fn parse_json(v: &Value) -> Value {
    match v {
        Value::String(s) => serde_json::from_str(s).unwrap_or_else(|_| v.clone()),
        _ => v.clone(),
    }
}

/// Tool arguments: `None` for missing, `null` or blank; a JSON string parsed.
pub(crate) fn args(v: Option<&Value>) -> Option<Value> {
    match v? {
        Value::Null => None,
        Value::String(s) if s.trim().is_empty() => None,
        v => Some(parse_json(v)),
    }
}

/// A value as text: a string as it is, anything else as compact JSON.
pub(crate) fn to_text(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        _ => v.to_string(),
    }
}

/// A message's text: `content` (or GenAI `parts`) as a string, or its text
/// parts (`{type: "text", content}` or `{type: "text", text}`) joined by
/// newlines.
pub(crate) fn text_of(message: &Value) -> String {
    let content = message.get("parts").or_else(|| message.get("content"));
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            let mut texts: Vec<&str> = Vec::new();
            for p in parts {
                if p.get("type").and_then(Value::as_str) == Some("text")
                    && let Some(t) = p
                        .get("content")
                        .or_else(|| p.get("text"))
                        .and_then(Value::as_str)
                {
                    texts.push(t);
                }
            }
            texts.join("\n")
        }
        _ => String::new(),
    }
}

/// The last user message of `list` with its position, when it has text.
pub(crate) fn last_user(list: &[Value]) -> Option<(usize, String)> {
    let (i, m) = list
        .iter()
        .enumerate()
        .rev()
        .find(|(_, m)| m.get("role").and_then(Value::as_str) == Some("user"))?;
    let text = text_of(m);
    (!text.is_empty()).then_some((i, text))
}

/// Whether a message asks for tools.
fn asks_for_tools(m: &Value) -> bool {
    let parts = m
        .get("parts")
        .or_else(|| m.get("content"))
        .and_then(Value::as_array);
    parts.is_some_and(|ps| {
        ps.iter().any(|p| {
            matches!(
                p.get("type").and_then(Value::as_str),
                Some("tool_call" | "tool-call")
            )
        })
    }) || m
        .get("tool_calls")
        .and_then(Value::as_array)
        .is_some_and(|c| !c.is_empty())
}

/// A messages attribute as a list: JSON (an array or one message), or plain
/// text as one message of `role`.
fn messages(raw: Option<&Value>, role: &str) -> Vec<Value> {
    let Some(raw) = raw else { return Vec::new() };
    match parse_json(raw) {
        Value::Array(list) => list,
        v @ Value::Object(_) => vec![v],
        Value::String(s) if !s.is_empty() => {
            vec![serde_json::json!({"role": role, "content": s})]
        }
        _ => Vec::new(),
    }
}

fn text_bytes(list: &[Value]) -> usize {
    list.iter().map(|m| text_of(m).len()).sum()
}

/// `s` cut to at most `max` bytes, on a character boundary.
pub(crate) fn clip(s: &str, max: usize) -> String {
    let mut end = s.len().min(max);
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    s[..end].to_string()
}

// ---------------------------------------------------------------------------
// Spans → events.

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Run,
    Step,
    AiTool,
    Model,
    Tool,
}

fn str_attr<'a>(a: &'a Map<String, Value>, key: &str) -> Option<&'a str> {
    a.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
}

/// Which reader a span gets; an AI SDK span is read as such only.
fn kind_of(s: &Span) -> Option<Kind> {
    let a = &s.attrs;
    let ai =
        str_attr(a, "ai.operationId").or_else(|| s.name.starts_with("ai.").then_some(&*s.name));
    if let Some(ai) = ai {
        return match ai {
            "ai.generateText" | "ai.streamText" => Some(Kind::Run),
            "ai.generateText.doGenerate" | "ai.streamText.doStream" => Some(Kind::Step),
            "ai.toolCall" => Some(Kind::AiTool),
            _ => None,
        };
    }
    match str_attr(a, "gen_ai.operation.name") {
        Some(op) if MODEL_OPS.contains(&op) => Some(Kind::Model),
        Some("execute_tool") => Some(Kind::Tool),
        Some(_) => None,
        None => {
            let legacy = [
                "gen_ai.usage.input_tokens",
                "gen_ai.usage.output_tokens",
                "gen_ai.usage.prompt_tokens",
                "gen_ai.usage.completion_tokens",
                "gen_ai.input.messages",
                "gen_ai.output.messages",
                "gen_ai.prompt",
                "gen_ai.completion",
            ]
            .iter()
            .any(|k| a.contains_key(*k))
                || s.events.iter().any(|e| message_role(&e.name).is_some());
            legacy.then_some(Kind::Model)
        }
    }
}

/// The role of a `gen_ai.*` message span event.
fn message_role(name: &str) -> Option<&'static str> {
    match name {
        "gen_ai.system.message" => Some("system"),
        "gen_ai.user.message" => Some("user"),
        "gen_ai.assistant.message" => Some("assistant"),
        "gen_ai.tool.message" => Some("tool"),
        "gen_ai.choice" => Some("choice"),
        _ => None,
    }
}

fn ms(ns: Option<u64>) -> Option<u64> {
    ns.map(|n| (n / NANOS_PER_MS).min(MAX_SAFE_INT))
}

fn duration_ms(s: &Span) -> u64 {
    match (s.start_ns, s.end_ns) {
        (Some(a), Some(b)) => (b.saturating_sub(a) / NANOS_PER_MS).min(MAX_SAFE_INT),
        _ => 0,
    }
}

fn provider(a: &Map<String, Value>) -> Option<String> {
    str_attr(a, "gen_ai.provider.name")
        .or_else(|| str_attr(a, "gen_ai.system"))
        .or_else(|| str_attr(a, "ai.model.provider"))
        .map(|p| clip(p, MAX_NAME_BYTES))
}

/// Events of one trace, with the span id each came from.
struct Out {
    events: Vec<Event>,
    ids: Vec<Option<String>>,
    estimated: bool,
    /// The last user message heard (position, text).
    heard: Option<(usize, String)>,
}

impl Out {
    fn push(&mut self, event: Event, span: &Span) {
        self.events.push(event);
        self.ids.push(span.id.clone());
    }

    /// A `TurnStart` for `user`, unless it was the last one heard.
    fn user(&mut self, user: Option<(usize, String)>, span: &Span) {
        let Some(user) = user else { return };
        if self.heard.as_ref() == Some(&user) {
            return;
        }
        let message = user.1.clone();
        self.heard = Some(user);
        self.push(
            Event::TurnStart {
                message,
                at_ms: ms(span.start_ns),
            },
            span,
        );
    }

    /// A `Cost` from counts, or estimated from text bytes when both are absent.
    fn cost(
        &mut self,
        span: &Span,
        counts: (Option<u64>, Option<u64>),
        text_bytes: (usize, usize),
    ) {
        let (tokens_in, tokens_out) = match counts {
            (None, None) => {
                self.estimated = true;
                (estimate_tokens(text_bytes.0), estimate_tokens(text_bytes.1))
            }
            (i, o) => (i.unwrap_or(0), o.unwrap_or(0)),
        };
        self.push(
            Event::Cost {
                tokens_in,
                tokens_out,
                wallclock_ms: duration_ms(span),
                provider: provider(&span.attrs),
                usd: None,
                at_ms: ms(span.end_ns),
            },
            span,
        );
    }
}

fn read_trace(id: String, spans: Vec<Span>) -> Result<Trace> {
    // Depth of each span (ancestors first on equal start times), linear with a memo.
    let by_id: HashMap<&str, usize> = spans
        .iter()
        .enumerate()
        .filter_map(|(i, s)| s.id.as_deref().map(|id| (id, i)))
        .collect();
    let parent_of: Vec<Option<usize>> = spans
        .iter()
        .enumerate()
        .map(|(i, s)| {
            s.parent
                .as_deref()
                .and_then(|p| by_id.get(p).copied())
                .filter(|&p| p != i)
        })
        .collect();
    let depth = depths(&parent_of);
    let mut order: Vec<usize> = (0..spans.len()).collect();
    order.sort_by_key(|&i| (spans[i].start_ns.unwrap_or(0), depth[i], i));
    let kinds: Vec<Option<Kind>> = spans.iter().map(kind_of).collect();
    let mut out = Out {
        events: Vec::new(),
        ids: Vec::new(),
        estimated: false,
        heard: None,
    };
    let mut k = 0;
    while k < order.len() {
        let i = order[k];
        match kinds[i] {
            None => k += 1,
            Some(Kind::Run) => {
                run(&spans[i], &mut out);
                k += 1;
            }
            Some(Kind::Step) => {
                step(&spans[i], &mut out);
                k += 1;
            }
            Some(Kind::Model) => {
                model(&spans[i], &mut out)?;
                k += 1;
            }
            Some(Kind::Tool | Kind::AiTool) => {
                // A parallel batch: the following tool spans under the same
                // parent that start before the batch's last end (or with it).
                let first = &spans[i];
                let mut end = k + 1;
                if let Some(first_start) = first.start_ns {
                    let mut last_end = first.end_ns.unwrap_or(first_start);
                    while end < order.len() {
                        let j = order[end];
                        let s = &spans[j];
                        let joins = matches!(kinds[j], Some(Kind::Tool | Kind::AiTool))
                            && s.parent == first.parent
                            && s.start_ns.is_some_and(|t| t < last_end || t == first_start);
                        if !joins {
                            break;
                        }
                        last_end = last_end.max(s.end_ns.unwrap_or(0));
                        end += 1;
                    }
                }
                let batch = &order[k..end];
                let mut tools = Vec::with_capacity(batch.len());
                for &j in batch {
                    tools.push(tool(&spans[j], kinds[j] == Some(Kind::AiTool))?);
                }
                for (&j, (call, _)) in batch.iter().zip(&tools) {
                    out.push(call.clone(), &spans[j]);
                }
                for (&j, (_, result)) in batch.iter().zip(tools) {
                    out.push(result, &spans[j]);
                }
                k = end;
            }
        }
    }
    Ok(Trace {
        id,
        success: None,
        events: out.events,
        source: Some("otlp".into()),
        reward: None,
        estimated_tokens: out.estimated,
        message_ids: out.ids,
    })
}

/// Each span's number of ancestors in the file (a cycle counts as a root).
fn depths(parent_of: &[Option<usize>]) -> Vec<usize> {
    const UNKNOWN: usize = usize::MAX;
    const VISITING: usize = usize::MAX - 1;
    let mut depth = vec![UNKNOWN; parent_of.len()];
    let mut path = Vec::new();
    for start in 0..parent_of.len() {
        let mut at = start;
        // Walk up to a known depth or a root; each span is walked once.
        let base = loop {
            match depth[at] {
                UNKNOWN => {
                    depth[at] = VISITING;
                    path.push(at);
                    match parent_of[at] {
                        Some(p) => at = p,
                        None => break 0,
                    }
                }
                VISITING => break 0,
                d => break d + 1,
            }
        };
        // `path` runs from `start` up; its top gets `base`.
        for (n, &s) in path.iter().rev().enumerate() {
            depth[s] = base + n;
        }
        path.clear();
    }
    depth
}

/// An AI SDK run: the prompt's last message, when it is the user's.
fn run(s: &Span, out: &mut Out) {
    let p = s.attrs.get("ai.prompt").map(parse_json);
    let list = match &p {
        Some(Value::Object(o)) => match (o.get("messages"), o.get("prompt")) {
            (Some(Value::Array(m)), _) => m.clone(),
            (_, Some(Value::Array(m))) => m.clone(),
            (_, prompt) => messages(prompt, "user"),
        },
        _ => Vec::new(),
    };
    let user = last_user(&list).filter(|(i, _)| *i + 1 == list.len());
    out.user(user, s);
}

/// An AI SDK step: its cost, and its text when it calls no tool.
fn step(s: &Span, out: &mut Out) {
    let a = &s.attrs;
    let first = |keys: &[&str]| keys.iter().find_map(|k| count(a.get(*k)));
    let counts = (
        first(&[
            "ai.usage.inputTokens",
            "ai.usage.promptTokens",
            "gen_ai.usage.input_tokens",
        ]),
        first(&[
            "ai.usage.outputTokens",
            "ai.usage.completionTokens",
            "gen_ai.usage.output_tokens",
        ]),
    );
    let text = str_attr(a, "ai.response.text").unwrap_or("");
    let calls = a.get("ai.response.toolCalls");
    let input = text_bytes(&messages(a.get("ai.prompt.messages"), "user"));
    let output = text.len() + calls.and_then(Value::as_str).map_or(0, str::len);
    out.cost(s, counts, (input, output));
    if !text.is_empty() && calls.is_none() {
        out.push(
            Event::TurnComplete {
                response: text.to_string(),
                at_ms: ms(s.end_ns),
            },
            s,
        );
    }
}

/// A GenAI model span (or the older form with message events).
fn model(s: &Span, out: &mut Out) -> Result<()> {
    let a = &s.attrs;
    let input_attr = a
        .get("gen_ai.input.messages")
        .or_else(|| a.get("gen_ai.prompt"));
    let output_attr = a
        .get("gen_ai.output.messages")
        .or_else(|| a.get("gen_ai.completion"));
    // Message span events, in order; the answer is the last `gen_ai.choice`,
    // else the last assistant message, and only what precedes an assistant
    // answer is its input.
    let mut msgs: Vec<(&str, Value)> = Vec::new();
    for e in &s.events {
        let Some(role) = message_role(&e.name) else {
            continue;
        };
        let content = e
            .attrs
            .get("content")
            .map(parse_json)
            .unwrap_or(Value::Null);
        let m = match (role, e.attrs.get("message")) {
            ("choice", Some(m)) => parse_json(m),
            ("choice", None) => serde_json::json!({"role": "assistant", "content": content}),
            _ => serde_json::json!({"role": role, "content": content}),
        };
        msgs.push((role, m));
    }
    let answer_at = msgs
        .iter()
        .rposition(|(r, _)| *r == "choice")
        .or_else(|| msgs.iter().rposition(|(r, _)| *r == "assistant"));
    let answer = answer_at.map(|i| msgs[i].1.clone());
    let input: Vec<Value> = match answer_at {
        Some(i) if msgs[i].0 == "assistant" => msgs.drain(..i).map(|(_, m)| m).collect(),
        _ => msgs
            .into_iter()
            .filter(|(r, _)| *r != "choice")
            .map(|(_, m)| m)
            .collect(),
    };
    let (user, in_bytes) = match input_attr {
        Some(raw) => {
            let list = messages(Some(raw), "user");
            (last_user(&list), text_bytes(&list))
        }
        None => (last_user(&input), text_bytes(&input)),
    };
    let (text, tools) = match output_attr {
        Some(raw) => {
            let list = messages(Some(raw), "assistant");
            match list.iter().rev().find(|m| {
                m.is_object()
                    && matches!(
                        m.get("role").and_then(Value::as_str),
                        Some("assistant") | None
                    )
            }) {
                Some(m) => (text_of(m), asks_for_tools(m)),
                None => (String::new(), false),
            }
        }
        None => match &answer {
            Some(m) => (text_of(m), asks_for_tools(m)),
            None => (String::new(), false),
        },
    };
    out.user(user, s);
    // Tool calls recorded as span events (`gen_ai.tool.message` naming a tool).
    for (n, e) in s.events.iter().enumerate() {
        if e.name != "gen_ai.tool.message" {
            continue;
        }
        let ea = &e.attrs;
        let Some(name) = str_attr(ea, "gen_ai.tool.name") else {
            continue;
        };
        let at_ms = ms(e.time_ns.or(s.start_ns));
        let call_id = match ea.get("gen_ai.tool.call.id").or_else(|| ea.get("id")) {
            Some(Value::String(id)) if !id.is_empty() => Some(id.clone()),
            Some(Value::Number(id)) => Some(id.to_string()),
            _ => None,
        };
        let duration = match ea.get("gen_ai.tool.duration_ms") {
            None | Some(Value::Null) => 0,
            v => count(v).ok_or_else(|| {
                Error::range_error(
                    format!("{}.events[{n}].attributes.gen_ai.tool.duration_ms", s.path),
                    "must be a non-negative number",
                )
            })?,
        };
        let error = [ea.get("error.type"), ea.get("gen_ai.tool.error")]
            .into_iter()
            .flatten()
            .find(|v| !v.is_null())
            .map(to_text);
        out.push(
            Event::ToolCall {
                name: name.to_string(),
                args: args(
                    ea.get("gen_ai.tool.arguments")
                        .or_else(|| ea.get("gen_ai.tool.call.arguments")),
                ),
                call_id: call_id.clone(),
                side_effect: None,
                read_only: None,
                at_ms,
            },
            s,
        );
        let result = match (&error, ea.get("gen_ai.tool.call.result")) {
            (None, Some(r)) if !r.is_null() => Some(to_text(r)),
            _ => None,
        };
        out.push(
            Event::ToolResult {
                name: name.to_string(),
                ok: error.is_none(),
                duration_ms: duration,
                error,
                result,
                call_id,
                at_ms,
            },
            s,
        );
    }
    let a = &s.attrs;
    let first = |keys: &[&str]| keys.iter().find_map(|k| count(a.get(*k)));
    let counts = (
        first(&["gen_ai.usage.input_tokens", "gen_ai.usage.prompt_tokens"]),
        first(&[
            "gen_ai.usage.output_tokens",
            "gen_ai.usage.completion_tokens",
        ]),
    );
    out.cost(s, counts, (in_bytes, text.len()));
    if !text.trim().is_empty() && !tools {
        out.push(
            Event::TurnComplete {
                response: text,
                at_ms: ms(s.end_ns),
            },
            s,
        );
    }
    Ok(())
}

/// A tool span → its call and its result.
fn tool(s: &Span, ai: bool) -> Result<(Event, Event)> {
    let a = &s.attrs;
    let [name_key, id_key, args_key, result_key] = if ai {
        [
            "ai.toolCall.name",
            "ai.toolCall.id",
            "ai.toolCall.args",
            "ai.toolCall.result",
        ]
    } else {
        [
            "gen_ai.tool.name",
            "gen_ai.tool.call.id",
            "gen_ai.tool.call.arguments",
            "gen_ai.tool.call.result",
        ]
    };
    let name = match a.get(name_key) {
        Some(Value::String(n)) if !n.is_empty() => n.clone(),
        Some(other) if !other.is_null() => {
            return Err(Error::type_error(
                format!("{}.attributes.{name_key}", s.path),
                format!("must be a non-empty string, got {}", describe(other)),
            ));
        }
        _ => {
            return Err(Error::type_error(
                format!("{}.attributes.{name_key}", s.path),
                "is missing: a tool span must name its tool",
            ));
        }
    };
    let call_id = match a.get(id_key) {
        Some(Value::String(id)) if !id.is_empty() => Some(id.clone()),
        Some(Value::Number(id)) => Some(id.to_string()),
        _ => None,
    };
    let error_type = a.get("error.type").filter(|v| !v.is_null());
    let failed = s.error || error_type.is_some();
    let (error, result) = if failed {
        let e = s
            .status_message
            .clone()
            .or_else(|| error_type.map(to_text))
            .unwrap_or_else(|| "error".into());
        (Some(e), None)
    } else {
        (
            None,
            a.get(result_key).filter(|v| !v.is_null()).map(to_text),
        )
    };
    Ok((
        Event::ToolCall {
            name: name.clone(),
            args: args(a.get(args_key)),
            call_id: call_id.clone(),
            side_effect: None,
            read_only: None,
            at_ms: ms(s.start_ns),
        },
        Event::ToolResult {
            name,
            ok: !failed,
            duration_ms: duration_ms(s),
            error,
            result,
            call_id,
            at_ms: ms(s.end_ns.or(s.start_ns)),
        },
    ))
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn call(name: &str, args: Option<Value>, id: Option<&str>, at: Option<u64>) -> Event {
        Event::ToolCall {
            name: name.into(),
            args,
            call_id: id.map(Into::into),
            side_effect: None,
            read_only: None,
            at_ms: at,
        }
    }

    fn result(name: &str, ok: bool, ms: u64, error: Option<&str>, res: Option<&str>) -> Event {
        Event::ToolResult {
            name: name.into(),
            ok,
            duration_ms: ms,
            error: error.map(Into::into),
            result: res.map(Into::into),
            call_id: None,
            at_ms: None,
        }
    }

    /// Events with times and call ids cleared, for comparing shapes.
    fn bare(events: &[Event]) -> Vec<Event> {
        events
            .iter()
            .cloned()
            .map(|mut e| {
                match &mut e {
                    Event::ToolCall { at_ms, call_id, .. } => {
                        *at_ms = None;
                        *call_id = None;
                    }
                    Event::ToolResult { at_ms, call_id, .. } => {
                        *at_ms = None;
                        *call_id = None;
                    }
                    Event::TurnStart { at_ms, .. }
                    | Event::TurnComplete { at_ms, .. }
                    | Event::Cost { at_ms, .. } => *at_ms = None,
                    _ => {}
                }
                e
            })
            .collect()
    }

    fn cost(tokens_in: u64, tokens_out: u64, wallclock_ms: u64, provider: Option<&str>) -> Event {
        Event::Cost {
            tokens_in,
            tokens_out,
            wallclock_ms,
            provider: provider.map(Into::into),
            usd: None,
            at_ms: None,
        }
    }

    fn noos_sample() -> Value {
        json!({"name":"agent.turn",
         "attributes":{"gen_ai.system":"openai","gen_ai.usage.input_tokens":50,"gen_ai.usage.output_tokens":400},
         "events":[
          {"name":"gen_ai.system.message","attributes":{"content":"You are helpful"}},
          {"name":"gen_ai.user.message","attributes":{"content":"find order 42"}},
          {"name":"gen_ai.tool.message","attributes":{"gen_ai.tool.name":"search_orders","gen_ai.tool.arguments":{"id":42},"gen_ai.tool.duration_ms":80}},
          {"name":"gen_ai.tool.message","attributes":{"gen_ai.tool.name":"db.query","gen_ai.tool.arguments":null,"gen_ai.tool.duration_ms":250,"error.type":"timeout"}},
          {"name":"gen_ai.tool.message","attributes":{"gen_ai.tool.name":"cache.get","gen_ai.tool.duration_ms":3,"gen_ai.tool.error":"miss"}},
          {"name":"gen_ai.tool.message","attributes":{"gen_ai.tool.arguments":"{}"}},
          {"name":"gen_ai.assistant.message","attributes":{"content":"order found"}},
          {"name":"gen_ai.user.message","attributes":{"content":"second user message is ignored"}}],
         "start_time_unix_nano":2000000000u64,"end_time_unix_nano":2750000000u64})
    }

    #[test]
    fn noos_sample_gives_its_events_with_the_flaws_fixed() {
        assert!(is_otlp(&noos_sample()));
        let traces = otlp_traces(&noos_sample()).unwrap();
        assert_eq!(traces.len(), 1);
        let t = &traces[0];
        assert_eq!(t.id, "untraced");
        assert_eq!(t.source.as_deref(), Some("otlp"));
        assert!(!t.estimated_tokens);
        // Tools before the answer; a named tool event always gives a call and a result.
        assert_eq!(
            bare(&t.events),
            vec![
                Event::TurnStart {
                    message: "find order 42".into(),
                    at_ms: None
                },
                call("search_orders", Some(json!({"id": 42})), None, None),
                result("search_orders", true, 80, None, None),
                call("db.query", None, None, None),
                result("db.query", false, 250, Some("timeout"), None),
                call("cache.get", None, None, None),
                result("cache.get", false, 3, Some("miss"), None),
                cost(50, 400, 750, Some("openai")),
                Event::TurnComplete {
                    response: "order found".into(),
                    at_ms: None
                },
            ]
        );
        assert_eq!(t.events[0].as_ref().at_ms(), Some(2000));
        assert_eq!(t.events[7].as_ref().at_ms(), Some(2750));
        assert_eq!(t.message_ids.len(), t.events.len());
    }

    #[test]
    fn counts_saturate_and_accept_floats_and_strings() {
        let mut span = noos_sample();
        span["attributes"]["gen_ai.usage.input_tokens"] = json!(4_294_967_297u64);
        span["attributes"]["gen_ai.usage.output_tokens"] = json!(800.0);
        let t = &otlp_traces(&span).unwrap()[0];
        assert!(matches!(
            t.events[7],
            Event::Cost {
                tokens_in: 4_294_967_297,
                tokens_out: 800,
                ..
            }
        ));
        span["attributes"]["gen_ai.usage.input_tokens"] = json!("800");
        span["attributes"]["gen_ai.usage.output_tokens"] = json!(-5);
        let t = &otlp_traces(&span).unwrap()[0];
        assert!(matches!(
            t.events[7],
            Event::Cost {
                tokens_in: 800,
                tokens_out: 0,
                ..
            }
        ));
        span["attributes"]["gen_ai.usage.input_tokens"] = json!(u64::MAX);
        span["attributes"]["gen_ai.usage.output_tokens"] = json!("NaN");
        let t = &otlp_traces(&span).unwrap()[0];
        assert!(matches!(
            t.events[7],
            Event::Cost {
                tokens_in: MAX_SAFE_INT,
                tokens_out: 0,
                ..
            }
        ));
        assert_eq!(count(Some(&json!(1e300))), Some(MAX_SAFE_INT));
        assert_eq!(count(Some(&json!("12.6"))), Some(13));
        assert_eq!(count(Some(&json!(true))), None);
        // String timestamps.
        span["start_time_unix_nano"] = json!("2000000000");
        span["end_time_unix_nano"] = json!("3500000000");
        let t = &otlp_traces(&span).unwrap()[0];
        assert!(matches!(
            t.events[7],
            Event::Cost {
                wallclock_ms: 1500,
                at_ms: Some(3500),
                ..
            }
        ));
    }

    fn kv(key: &str, value: Value) -> Value {
        json!({"key": key, "value": value})
    }

    fn otlp_span(
        trace: &str,
        id: &str,
        parent: Option<&str>,
        name: &str,
        start: u64,
        end: u64,
        attrs: Vec<Value>,
    ) -> Value {
        let mut s = json!({
            "traceId": trace, "spanId": id, "name": name, "kind": 3,
            "startTimeUnixNano": start.to_string(), "endTimeUnixNano": end.to_string(),
            "attributes": attrs, "status": {}
        });
        if let Some(p) = parent {
            s["parentSpanId"] = json!(p);
        }
        s
    }

    fn export(spans: Vec<Value>) -> Value {
        json!({"resourceSpans": [{"resource": {"attributes": []},
            "scopeSpans": [{"scope": {"name": "x"}, "spans": spans}]}]})
    }

    const MS: u64 = 1_000_000;

    #[test]
    fn otlp_array_attributes_and_grouping_by_trace() {
        let user = |text: &str| {
            json!([{"role": "user", "parts": [{"type": "text", "content": text}]}]).to_string()
        };
        let chat = |trace: &str, id: &str, start: u64, text: &str, answer: &str, tin: Value| {
            otlp_span(
                trace,
                id,
                None,
                "chat gpt-4o",
                start * MS,
                (start + 40) * MS,
                vec![
                    kv("gen_ai.operation.name", json!({"stringValue": "chat"})),
                    kv("gen_ai.provider.name", json!({"stringValue": "openai"})),
                    kv("gen_ai.usage.input_tokens", tin),
                    kv("gen_ai.usage.output_tokens", json!({"intValue": 7})),
                    kv("gen_ai.input.messages", json!({"stringValue": user(text)})),
                    kv(
                        "gen_ai.output.messages",
                        json!({"stringValue": json!([{"role": "assistant", "parts": [{"type": "text", "content": answer}], "finish_reason": "stop"}]).to_string()}),
                    ),
                    kv(
                        "gen_ai.request.stop_sequences",
                        json!({"arrayValue": {"values": [{"stringValue": "END"}]}}),
                    ),
                    kv("gen_ai.request.temperature", json!({"doubleValue": 0.2})),
                ],
            )
        };
        // Two traces, interleaved; the second's span comes first in the file
        // but the traces keep the order of first appearance.
        let v = export(vec![
            chat(
                "aa",
                "1",
                100,
                "hello",
                "hi there",
                json!({"intValue": "12"}),
            ),
            chat("bb", "2", 50, "other", "sure", json!({"intValue": "3"})),
            chat("aa", "3", 10, "earlier", "ok", json!({"doubleValue": 5.0})),
        ]);
        assert!(is_otlp(&v));
        let traces = otlp_traces(&v).unwrap();
        assert_eq!(
            traces.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
            ["aa", "bb"]
        );
        let a = &traces[0];
        assert_eq!(
            bare(&a.events),
            vec![
                Event::TurnStart {
                    message: "earlier".into(),
                    at_ms: None
                },
                cost(5, 7, 40, Some("openai")),
                Event::TurnComplete {
                    response: "ok".into(),
                    at_ms: None
                },
                Event::TurnStart {
                    message: "hello".into(),
                    at_ms: None
                },
                cost(12, 7, 40, Some("openai")),
                Event::TurnComplete {
                    response: "hi there".into(),
                    at_ms: None
                },
            ]
        );
        assert_eq!(a.events[0].as_ref().at_ms(), Some(10));
        assert_eq!(a.events[1].as_ref().at_ms(), Some(50));
        assert_eq!(a.message_ids[0].as_deref(), Some("3"));
        assert_eq!(traces[1].events.len(), 3);
    }

    #[test]
    fn a_history_resent_each_step_opens_one_turn() {
        let input = json!([{"role": "user", "content": "find order 42"}]).to_string();
        let input2 = json!([
            {"role": "user", "content": "find order 42"},
            {"role": "assistant", "tool_calls": [{"id": "c1", "function": {"name": "search"}}]},
            {"role": "tool", "content": "[]"}
        ])
        .to_string();
        let span = |id: &str, start: u64, input: &str, out: Value| {
            json!({
                "name": "chat", "trace_id": "t", "span_id": id,
                "start_time_unix_nano": start * MS, "end_time_unix_nano": (start + 5) * MS,
                "attributes": {"gen_ai.operation.name": "chat", "gen_ai.prompt": input,
                    "gen_ai.completion": out.to_string(),
                    "gen_ai.usage.input_tokens": 10, "gen_ai.usage.output_tokens": 2}
            })
        };
        let v = json!([
            span("a", 1, &input, json!([{"role": "assistant", "content": "", "tool_calls": [{"id": "c1"}]}])),
            {"name": "execute_tool search", "trace_id": "t", "span_id": "b", "parent_id": null,
             "start_time_unix_nano": 7 * MS, "end_time_unix_nano": 9 * MS,
             "attributes": {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "search",
                 "gen_ai.tool.call.id": "c1", "gen_ai.tool.call.arguments": "{\"q\":\"42\"}",
                 "gen_ai.tool.call.result": "[]"}},
            span("c", 10, &input2, json!([{"role": "assistant", "content": "Nothing found."}])),
        ]);
        let t = &otlp_traces(&v).unwrap()[0];
        assert_eq!(
            bare(&t.events),
            vec![
                Event::TurnStart {
                    message: "find order 42".into(),
                    at_ms: None
                },
                cost(10, 2, 5, None),
                call("search", Some(json!({"q": "42"})), None, None),
                result("search", true, 2, None, Some("[]")),
                cost(10, 2, 5, None),
                Event::TurnComplete {
                    response: "Nothing found.".into(),
                    at_ms: None
                },
            ]
        );
        assert!(
            matches!(&t.events[2], Event::ToolCall { call_id: Some(c), at_ms: Some(7), .. } if c == "c1")
        );
    }

    #[test]
    fn ai_sdk_spans_count_usage_once_and_batch_parallel_tools() {
        let s = |v: &str| json!({"stringValue": v});
        let i = |v: u64| json!({"intValue": v.to_string()});
        let usage = |a: u64, b: u64| {
            vec![
                kv("ai.usage.inputTokens", i(a)),
                kv("ai.usage.outputTokens", i(b)),
                kv("gen_ai.usage.input_tokens", i(a)),
                kv("gen_ai.usage.output_tokens", i(b)),
                kv("gen_ai.system", s("openai.chat")),
            ]
        };
        let mut run = usage(70, 25);
        run.push(kv("ai.operationId", s("ai.generateText")));
        run.push(kv(
            "ai.prompt",
            s(r#"{"prompt":"Weather in Paris and Oslo?"}"#),
        ));
        let mut step1 = usage(30, 10);
        step1.push(kv("ai.operationId", s("ai.generateText.doGenerate")));
        step1.push(kv("ai.response.toolCalls", s("[]")));
        let mut step2 = usage(40, 15);
        step2.push(kv("ai.operationId", s("ai.generateText.doGenerate")));
        step2.push(kv("ai.response.text", s("Paris 15, Oslo 14.")));
        let tool = |city: &str, id: &str| {
            vec![
                kv("ai.operationId", s("ai.toolCall")),
                kv("ai.toolCall.name", s("get_weather")),
                kv("ai.toolCall.id", s(id)),
                kv("ai.toolCall.args", s(&format!(r#"{{"city":"{city}"}}"#))),
                kv("ai.toolCall.result", s("15")),
            ]
        };
        // File order is end order, as exporters write it; the run ends last.
        let mut failed = otlp_span(
            "t",
            "t2",
            Some("r"),
            "ai.toolCall",
            12 * MS,
            15 * MS,
            tool("Oslo", "c2"),
        );
        failed["status"] = json!({"code": "STATUS_CODE_ERROR", "message": "timeout"});
        let v = export(vec![
            otlp_span(
                "t",
                "s1",
                Some("r"),
                "ai.generateText.doGenerate",
                10 * MS,
                12 * MS,
                step1,
            ),
            otlp_span(
                "t",
                "t1",
                Some("r"),
                "ai.toolCall",
                12 * MS,
                14 * MS,
                tool("Paris", "c1"),
            ),
            failed,
            otlp_span(
                "t",
                "s2",
                Some("r"),
                "ai.generateText.doGenerate",
                16 * MS,
                20 * MS,
                step2,
            ),
            otlp_span("t", "r", None, "ai.generateText", 10 * MS, 21 * MS, run),
        ]);
        let t = &otlp_traces(&v).unwrap()[0];
        assert_eq!(
            bare(&t.events),
            vec![
                Event::TurnStart {
                    message: "Weather in Paris and Oslo?".into(),
                    at_ms: None
                },
                cost(30, 10, 2, Some("openai.chat")),
                call("get_weather", Some(json!({"city": "Paris"})), None, None),
                call("get_weather", Some(json!({"city": "Oslo"})), None, None),
                result("get_weather", true, 2, None, Some("15")),
                result("get_weather", false, 3, Some("timeout"), None),
                cost(40, 15, 4, Some("openai.chat")),
                Event::TurnComplete {
                    response: "Paris 15, Oslo 14.".into(),
                    at_ms: None
                },
            ]
        );
        let total: u64 = t
            .events
            .iter()
            .map(|e| match e {
                Event::Cost { tokens_in, .. } => *tokens_in,
                _ => 0,
            })
            .sum();
        assert_eq!(
            total, 70,
            "usage from the steps only, not again from the run"
        );
    }

    #[test]
    fn execute_tool_errors_and_estimates() {
        let v = json!([
            {"name": "execute_tool db", "traceId": "t", "spanId": "a",
             "startTimeUnixNano": 1000 * MS, "endTimeUnixNano": 1250 * MS,
             "status": {"status_code": "ERROR"},
             "attributes": {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "db",
                 "error.type": "TimeoutError", "gen_ai.tool.call.result": "ignored"}},
            {"name": "GET /", "traceId": "t", "spanId": "h", "attributes": {"http.method": "GET"}},
            {"name": "chat", "traceId": "t", "spanId": "b",
             "startTimeUnixNano": 2000 * MS, "endTimeUnixNano": 2100 * MS,
             "attributes": {"gen_ai.operation.name": "chat",
                 "gen_ai.input.messages": "[{\"role\":\"user\",\"content\":\"12345678\"}]",
                 "gen_ai.output.messages": "not json but an answer"}},
        ]);
        let t = &otlp_traces(&v).unwrap()[0];
        assert!(t.estimated_tokens);
        assert_eq!(
            bare(&t.events),
            vec![
                call("db", None, None, None),
                result("db", false, 250, Some("TimeoutError"), None),
                Event::TurnStart {
                    message: "12345678".into(),
                    at_ms: None
                },
                cost(estimate_tokens(8), estimate_tokens(22), 100, None),
                Event::TurnComplete {
                    response: "not json but an answer".into(),
                    at_ms: None
                },
            ]
        );
    }

    #[test]
    fn malformed_records_are_errors_with_their_position() {
        let err = |v: Value| otlp_traces(&v).unwrap_err().to_string();
        let mut bad = otlp_span("t", "a", None, "chat", 1, 2, vec![]);
        bad["startTimeUnixNano"] = json!("soon");
        let v = json!({"resourceSpans": [{"scopeSpans": [{"spans": []}, {"spans": [{}, {}, {}, bad]}]}]});
        // The first error wins: span 0 of scope 1 has no name.
        assert!(
            err(v.clone()).contains("resourceSpans[0].scopeSpans[1].spans[0].name"),
            "{}",
            err(v)
        );
        let v = json!({"resourceSpans": [{"scopeSpans": [{"spans": [bad]}]}]});
        assert!(
            err(v.clone()).contains("resourceSpans[0].scopeSpans[0].spans[0].startTimeUnixNano"),
            "{}",
            err(v)
        );
        let v = export(vec![otlp_span(
            "t",
            "a",
            None,
            "x",
            1,
            2,
            vec![kv("n", json!({"intValue": "12x"}))],
        )]);
        assert!(
            err(v.clone()).contains("spans[0].attributes[0].value.intValue"),
            "{}",
            err(v)
        );
        let v = json!([{"name": "t", "traceId": "t", "attributes": {"gen_ai.operation.name": "execute_tool"}}]);
        assert!(
            err(v.clone()).contains("spans[0].attributes.gen_ai.tool.name"),
            "{}",
            err(v)
        );
        let v = json!([{"name": "t", "traceId": "t", "attributes": {}, "status": {"code": 7}}]);
        assert!(
            err(v.clone()).contains("spans[0].status.code"),
            "{}",
            err(v)
        );
        assert!(err(json!(5)).contains("spans"));
        assert!(!is_otlp(&json!({"steps": []})));
        assert!(!is_otlp(&json!([{"role": "user", "content": "hi"}])));
    }

    #[test]
    fn python_to_json_dict_form() {
        let v = json!({
            "name": "execute_tool lookup",
            "context": {"trace_id": "0xabc", "span_id": "0x1", "trace_state": "[]"},
            "kind": "SpanKind.INTERNAL", "parent_id": null,
            "start_time": "2025-01-02T03:04:05.100000Z", "end_time": "2025-01-02T03:04:05.350000Z",
            "status": {"status_code": "UNSET"},
            "attributes": {"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "lookup",
                "gen_ai.tool.call.id": 7, "gen_ai.tool.call.result": {"rows": 2}},
            "events": [], "links": [], "resource": {"attributes": {}, "schema_url": ""}
        });
        assert!(is_otlp(&v));
        let t = &otlp_traces(&v).unwrap()[0];
        assert_eq!(t.id, "0xabc");
        assert_eq!(
            t.events,
            vec![
                call("lookup", None, Some("7"), Some(1_735_787_045_100)),
                Event::ToolResult {
                    name: "lookup".into(),
                    ok: true,
                    duration_ms: 250,
                    error: None,
                    result: Some(r#"{"rows":2}"#.into()),
                    call_id: Some("7".into()),
                    at_ms: Some(1_735_787_045_350),
                },
            ]
        );
    }

    #[test]
    fn depths_survive_cycles() {
        assert_eq!(depths(&[None, Some(0), Some(1)]), vec![0, 1, 2]);
        assert_eq!(depths(&[Some(2), None, Some(1)]), vec![2, 0, 1]);
        let d = depths(&[Some(1), Some(0)]);
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn real_ai_sdk_spans_from_the_sdk() {
        let v: Value = serde_json::from_str(include_str!(
            "../../tests/fixtures/replay/ai_sdk_otel_spans.json"
        ))
        .unwrap();
        assert!(is_otlp(&v));
        let traces = otlp_traces(&v).unwrap();
        assert_eq!(traces.len(), 1);
        let t = &traces[0];
        let seq: Vec<String> = t
            .events
            .iter()
            .map(|e| match e {
                Event::TurnStart { .. } => "start".into(),
                Event::TurnComplete { .. } => "complete".into(),
                Event::Cost {
                    tokens_in,
                    tokens_out,
                    ..
                } => format!("cost {tokens_in}/{tokens_out}"),
                Event::ToolCall { name, call_id, .. } => {
                    format!("call {name} {}", call_id.as_deref().unwrap_or(""))
                }
                Event::ToolResult {
                    name, ok, call_id, ..
                } => format!("result {name} {} {ok}", call_id.as_deref().unwrap_or("")),
                _ => "other".into(),
            })
            .collect();
        assert_eq!(
            seq,
            [
                "start",
                "cost 30/10",
                "call get_weather call_1",
                "call get_weather call_2",
                "result get_weather call_1 true",
                "result get_weather call_2 true",
                "cost 45/12",
                "call get_time call_3",
                "result get_time call_3 false",
                "cost 60/20",
                "complete",
            ]
        );
        assert!(!t.estimated_tokens);
        assert!(
            matches!(&t.events[0], Event::TurnStart { message, .. } if message == "Weather in Paris and Oslo, and the time in Oslo?")
        );
        assert!(
            matches!(&t.events[8], Event::ToolResult { error: Some(e), .. } if e == "clock service 503")
        );
        assert!(
            matches!(&t.events[2], Event::ToolCall { args: Some(a), .. } if *a == json!({"city": "Paris"}))
        );
    }
}
