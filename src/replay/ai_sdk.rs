//! Vercel AI SDK `generateText` / `streamText` results → traces.
//!
//! Reads results saved as JSON: an object with `steps: [...]` (a
//! `GenerateTextResult`, or anything holding its steps), an array of such
//! results (one trace each), a bare array of steps, or one step. A step is a
//! `StepResult` as `JSON.stringify` writes it: in AI SDK 5 and 6 its `text`,
//! `toolCalls` and `toolResults` are getters and are **not** saved; what is
//! saved is `content` (parts), `usage`, `finishReason`, `model`, `request`
//! and `response`. Older results with `text` / `toolCalls` / `toolResults`
//! fields (and no `content`) are read too.
//!
//! | source | events |
//! |---|---|
//! | the result's `prompt` (a string, or messages), else its `messages`, else the first step's `request.body` (object or JSON text) `.messages` | `TurnStart(` the last user message's text `)` |
//! | each step, first | `Cost { tokensIn, tokensOut, provider: model.provider }` |
//! | `content[]` `{type: "text", text}` (or `text`) | joined by newlines: `TurnComplete(text)` when the step calls no tool and the text is not blank |
//! | `content[]` `{type: "tool-call", toolCallId, toolName, input}` (or `toolCalls[]` with `input` or `args`) | `ToolCall { name: toolName, args: input, callId: toolCallId }`, all of the step's calls first (one parallel batch) |
//! | `content[]` `{type: "tool-result", toolCallId, toolName, output}` (or `toolResults[]` with `output` or `result`) | then `ToolResult { ok: true, result: output }` |
//! | `content[]` `{type: "tool-error", toolCallId, toolName, error}` | `ToolResult { ok: false, error }` (a string, an error's `message`, else compact JSON; an empty object, as `JSON.stringify` writes an `Error`, gives no text) |
//! | other parts (`reasoning`, `source`, `file`, tool approvals) | none |
//!
//! * **Usage**: `usage.inputTokens` (a number, or v6's provider form
//!   `{total}`), else `usage.promptTokens`; `usage.outputTokens` (or
//!   `{total}`), else `usage.completionTokens`. A count is a non-negative
//!   number or numeric string (rounded, saturated at 2^53−1); anything else is
//!   absent (0 when the other is present). A step with neither count gets
//!   both estimated ([`crate::chat::estimate_tokens`]: input from the prompt
//!   or `request.body` messages, output from its text and tool arguments), and
//!   the trace is flagged `estimated_tokens`.
//! * **Time**: a step's events get its `response.timestamp` (ISO 8601, as
//!   `JSON.stringify` writes a `Date`) in ms since the epoch; none when
//!   absent. `wallclockMs` is 0: results do not time model calls. Durations
//!   of tool calls are 0 for the same reason.
//! * **Ids**: a trace's id is the result's `id`, else its first step's
//!   `response.id`, else its position (`"0"`); `message_ids` holds per event
//!   the step's `response.id`. `source: "ai-sdk"`, no outcome.
//! * A tool result without `toolName` takes the name of the step's call with
//!   its `toolCallId`; with neither it is an error.
//! * Errors name the position as a path (`steps[2].content[1].toolName`).
//!   A file holds at most [`MAX_STEPS`] steps.

use serde_json::{Map, Value};

use super::Trace;
use super::otlp::{args, clip, count, last_user, parse_json, text_of, to_text};
use super::time::iso_ms;
use crate::chat::estimate_tokens;
use crate::error::{Error, Result};
use crate::event::{Event, MAX_NAME_BYTES, describe};

/// Most steps (and results) read from one file.
pub const MAX_STEPS: usize = 1_000_000;

/// Whether `v` looks like AI SDK results or steps (a cheap check on the top
/// level, for auto-detection).
pub fn is_ai_sdk(v: &Value) -> bool {
    match v {
        Value::Object(o) => has_steps(o) || is_step(o),
        Value::Array(list) => list
            .first()
            .and_then(Value::as_object)
            .is_some_and(|o| has_steps(o) || is_step(o)),
        _ => false,
    }
}

fn has_steps(o: &Map<String, Value>) -> bool {
    o.get("steps").is_some_and(Value::is_array)
}

fn is_step(o: &Map<String, Value>) -> bool {
    !o.contains_key("role")
        && (o.get("content").is_some_and(Value::is_array)
            || o.get("toolCalls").is_some_and(Value::is_array))
        && ["finishReason", "usage", "stepNumber", "toolResults"]
            .iter()
            .any(|k| o.contains_key(*k))
}

/// Reads AI SDK results or steps into traces (see the module documentation).
pub fn ai_sdk_traces(v: &Value) -> Result<Vec<Trace>> {
    let mut budget = MAX_STEPS;
    match v {
        Value::Object(o) if o.contains_key("steps") => Ok(vec![result(o, "", 0, &mut budget)?]),
        Value::Object(_) => Ok(vec![trace(
            None,
            std::slice::from_ref(v),
            "step",
            0,
            &mut budget,
        )?]),
        Value::Array(list)
            if list
                .first()
                .and_then(Value::as_object)
                .is_some_and(has_steps) =>
        {
            let mut traces = Vec::with_capacity(list.len().min(MAX_STEPS));
            for (i, r) in list.iter().enumerate() {
                let here = format!("[{i}]");
                take(&mut budget, &here)?;
                let o = object(r, &here)?;
                traces.push(result(o, &format!("{here}."), i, &mut budget)?);
            }
            Ok(traces)
        }
        Value::Array(list) => Ok(vec![trace(None, list, "steps", 0, &mut budget)?]),
        other => Err(Error::type_error(
            "steps",
            format!(
                "must be an AI SDK result {{steps}}, an array of results or an array of steps, got {}",
                describe(other)
            ),
        )),
    }
}

fn take(budget: &mut usize, here: &str) -> Result<()> {
    if *budget == 0 {
        return Err(Error::range_error(
            here,
            format!("is one too many: a file holds at most {MAX_STEPS} steps and results"),
        ));
    }
    *budget -= 1;
    Ok(())
}

fn object<'a>(v: &'a Value, here: &str) -> Result<&'a Map<String, Value>> {
    v.as_object()
        .ok_or_else(|| Error::type_error(here, format!("must be an object, got {}", describe(v))))
}

/// One result `{steps, prompt?, messages?, id?}`.
fn result(o: &Map<String, Value>, prefix: &str, index: usize, budget: &mut usize) -> Result<Trace> {
    let steps_at = format!("{prefix}steps");
    let steps = match o.get("steps") {
        Some(Value::Array(s)) => s,
        Some(other) => {
            return Err(Error::type_error(
                steps_at,
                format!("must be an array, got {}", describe(other)),
            ));
        }
        None => return Err(Error::type_error(steps_at, "is missing")),
    };
    let mut trace = trace(Some(o), steps, &steps_at, index, budget)?;
    if let Some(Value::String(id)) = o.get("id") {
        trace.id = id.clone();
    }
    Ok(trace)
}

/// The user's prompt: `prompt`, else `messages` → (text, bytes of all text).
fn prompt(o: &Map<String, Value>) -> Option<(String, usize)> {
    match o.get("prompt") {
        Some(Value::String(s)) if !s.is_empty() => return Some((s.clone(), s.len())),
        Some(Value::Array(list)) => return from_messages(list),
        _ => {}
    }
    match o.get("messages") {
        Some(Value::Array(list)) => from_messages(list),
        _ => None,
    }
}

fn from_messages(list: &[Value]) -> Option<(String, usize)> {
    let bytes = list.iter().map(|m| text_of(m).len()).sum();
    last_user(list).map(|(_, text)| (text, bytes))
}

/// A step's `request.body` messages (the body may be JSON text).
fn body_messages(step: &Value) -> Option<(String, usize)> {
    let body = parse_json(step.get("request")?.get("body")?);
    match body.get("messages") {
        Some(Value::Array(list)) => from_messages(list),
        _ => None,
    }
}

/// One tool call or result read from a part.
struct Part {
    at: String,
    kind: PartKind,
    name: Option<String>,
    call_id: Option<String>,
    value: Option<Value>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum PartKind {
    Call,
    Result,
    Error,
}

fn trace(
    result: Option<&Map<String, Value>>,
    steps: &[Value],
    path: &str,
    index: usize,
    budget: &mut usize,
) -> Result<Trace> {
    let mut events = Vec::new();
    let mut ids: Vec<Option<String>> = Vec::new();
    let mut estimated = false;
    let user = result
        .and_then(prompt)
        .or_else(|| steps.first().and_then(body_messages));
    let mut input_bytes = user.as_ref().map_or(0, |(_, b)| *b);
    if let Some((message, _)) = user {
        events.push(Event::TurnStart {
            message,
            at_ms: None,
        });
        ids.push(None);
    }
    let mut first_id: Option<String> = None;
    for (j, step) in steps.iter().enumerate() {
        let here = format!("{path}[{j}]");
        take(budget, &here)?;
        let o = object(step, &here)?;
        let response = match o.get("response") {
            None | Some(Value::Null) => None,
            Some(r) => Some(object(r, &format!("{here}.response"))?),
        };
        let step_id = response
            .and_then(|r| r.get("id"))
            .and_then(Value::as_str)
            .map(str::to_string);
        if first_id.is_none() {
            first_id = step_id.clone();
        }
        let at_ms = match response.and_then(|r| r.get("timestamp")) {
            None | Some(Value::Null) => None,
            Some(Value::String(t)) => Some(iso_ms(t).ok_or_else(|| {
                Error::range_error(
                    format!("{here}.response.timestamp"),
                    format!("must be an ISO 8601 time, got {t:?}"),
                )
            })?),
            Some(Value::Number(n)) => count(Some(&Value::Number(n.clone()))),
            Some(other) => {
                return Err(Error::type_error(
                    format!("{here}.response.timestamp"),
                    format!("must be a string, got {}", describe(other)),
                ));
            }
        };
        let (text, parts) = step_parts(o, &here)?;
        // Results name their tool, or take the name of the call they answer.
        let mut calls: Vec<Event> = Vec::new();
        let mut results: Vec<Event> = Vec::new();
        let mut out_bytes = text.len();
        for p in &parts {
            let name = match (&p.name, &p.kind) {
                (Some(n), _) => n.clone(),
                (None, _) => parts
                    .iter()
                    .find(|c| {
                        c.kind == PartKind::Call && c.call_id.is_some() && c.call_id == p.call_id
                    })
                    .and_then(|c| c.name.clone())
                    .ok_or_else(|| {
                        Error::type_error(
                            format!("{}.toolName", p.at),
                            "is missing, and no call of this step has its toolCallId",
                        )
                    })?,
            };
            match p.kind {
                PartKind::Call => {
                    let args = args(p.value.as_ref());
                    out_bytes += args.as_ref().map_or(0, |a| to_text(a).len());
                    calls.push(Event::ToolCall {
                        name,
                        args,
                        call_id: p.call_id.clone(),
                        side_effect: None,
                        read_only: None,
                        at_ms,
                    });
                }
                PartKind::Result => results.push(Event::ToolResult {
                    name,
                    ok: true,
                    duration_ms: 0,
                    error: None,
                    result: p.value.as_ref().filter(|v| !v.is_null()).map(to_text),
                    call_id: p.call_id.clone(),
                    at_ms,
                }),
                PartKind::Error => results.push(Event::ToolResult {
                    name,
                    ok: false,
                    duration_ms: 0,
                    error: p.value.as_ref().and_then(error_text),
                    result: None,
                    call_id: p.call_id.clone(),
                    at_ms,
                }),
            }
        }
        let usage = match o.get("usage") {
            None | Some(Value::Null) => None,
            Some(u) => Some(object(u, &format!("{here}.usage"))?),
        };
        let tokens = |keys: [&str; 2]| {
            let u = usage?;
            keys.iter().find_map(|k| match u.get(*k) {
                Some(Value::Object(t)) => count(t.get("total")),
                v => count(v),
            })
        };
        let counts = (
            tokens(["inputTokens", "promptTokens"]),
            tokens(["outputTokens", "completionTokens"]),
        );
        let (tokens_in, tokens_out) = match counts {
            (None, None) => {
                estimated = true;
                let body = if j == 0 {
                    input_bytes
                } else {
                    body_messages(step).map_or(0, |(_, b)| b)
                };
                (estimate_tokens(body), estimate_tokens(out_bytes))
            }
            (i, o) => (i.unwrap_or(0), o.unwrap_or(0)),
        };
        input_bytes = 0;
        let provider = o
            .get("model")
            .and_then(|m| m.get("provider"))
            .and_then(Value::as_str)
            .filter(|p| !p.is_empty())
            .map(|p| clip(p, MAX_NAME_BYTES));
        events.push(Event::Cost {
            tokens_in,
            tokens_out,
            wallclock_ms: 0,
            provider,
            usd: None,
            at_ms,
        });
        let answer = calls.is_empty() && !text.trim().is_empty();
        if answer {
            events.push(Event::TurnComplete {
                response: text,
                at_ms,
            });
        }
        let n = 1 + usize::from(answer) + calls.len() + results.len();
        events.extend(calls);
        events.extend(results);
        ids.extend(std::iter::repeat_n(step_id, n));
    }
    Ok(Trace {
        id: first_id.unwrap_or_else(|| index.to_string()),
        success: None,
        events,
        source: Some("ai-sdk".into()),
        reward: None,
        estimated_tokens: estimated,
        message_ids: ids,
    })
}

/// A tool error as text: a string, an error's `message`, else compact JSON;
/// nothing for `null` or an empty object.
fn error_text(v: &Value) -> Option<String> {
    match v {
        Value::Null => None,
        Value::String(s) => Some(s.clone()),
        Value::Object(o) if o.is_empty() => None,
        Value::Object(o) => Some(
            o.get("message")
                .and_then(Value::as_str)
                .map_or_else(|| v.to_string(), str::to_string),
        ),
        _ => Some(v.to_string()),
    }
}

/// A step's text and tool parts, from `content` or the older fields.
fn step_parts(o: &Map<String, Value>, here: &str) -> Result<(String, Vec<Part>)> {
    let mut texts: Vec<String> = Vec::new();
    let mut parts = Vec::new();
    match o.get("content") {
        None | Some(Value::Null) => {
            match o.get("text") {
                None | Some(Value::Null) => {}
                Some(Value::String(s)) => texts.push(s.clone()),
                Some(other) => {
                    return Err(Error::type_error(
                        format!("{here}.text"),
                        format!("must be a string, got {}", describe(other)),
                    ));
                }
            }
            for (key, kind, value_keys) in [
                ("toolCalls", PartKind::Call, ["input", "args"]),
                ("toolResults", PartKind::Result, ["output", "result"]),
            ] {
                let list = match o.get(key) {
                    None | Some(Value::Null) => continue,
                    Some(Value::Array(l)) => l,
                    Some(other) => {
                        return Err(Error::type_error(
                            format!("{here}.{key}"),
                            format!("must be an array, got {}", describe(other)),
                        ));
                    }
                };
                for (k, item) in list.iter().enumerate() {
                    let at = format!("{here}.{key}[{k}]");
                    let p = object(item, &at)?;
                    parts.push(tool_part(p, &at, kind, &value_keys)?);
                }
            }
        }
        Some(Value::Array(content)) => {
            for (k, item) in content.iter().enumerate() {
                let at = format!("{here}.content[{k}]");
                let p = object(item, &at)?;
                let ty = match p.get("type") {
                    Some(Value::String(t)) => t.as_str(),
                    Some(other) => {
                        return Err(Error::type_error(
                            format!("{at}.type"),
                            format!("must be a string, got {}", describe(other)),
                        ));
                    }
                    None => return Err(Error::type_error(format!("{at}.type"), "is missing")),
                };
                match ty {
                    "text" => match p.get("text") {
                        Some(Value::String(s)) => texts.push(s.clone()),
                        Some(other) => {
                            return Err(Error::type_error(
                                format!("{at}.text"),
                                format!("must be a string, got {}", describe(other)),
                            ));
                        }
                        None => return Err(Error::type_error(format!("{at}.text"), "is missing")),
                    },
                    "tool-call" => {
                        parts.push(tool_part(p, &at, PartKind::Call, &["input", "args"])?)
                    }
                    "tool-result" => {
                        parts.push(tool_part(p, &at, PartKind::Result, &["output", "result"])?)
                    }
                    "tool-error" => parts.push(tool_part(p, &at, PartKind::Error, &["error"])?),
                    _ => {}
                }
            }
        }
        Some(other) => {
            return Err(Error::type_error(
                format!("{here}.content"),
                format!("must be an array of parts, got {}", describe(other)),
            ));
        }
    }
    Ok((texts.join("\n"), parts))
}

/// `{toolCallId?, toolName, <value>}`; a call must name its tool.
fn tool_part(
    p: &Map<String, Value>,
    at: &str,
    kind: PartKind,
    value_keys: &[&str],
) -> Result<Part> {
    let name = match p.get("toolName") {
        None | Some(Value::Null) => None,
        Some(Value::String(n)) if !n.is_empty() => Some(n.clone()),
        Some(other) => {
            return Err(Error::type_error(
                format!("{at}.toolName"),
                format!("must be a non-empty string, got {}", describe(other)),
            ));
        }
    };
    if name.is_none() && kind == PartKind::Call {
        return Err(Error::type_error(format!("{at}.toolName"), "is missing"));
    }
    let call_id = match p.get("toolCallId") {
        None | Some(Value::Null) => None,
        Some(Value::String(id)) => Some(id.clone()),
        Some(Value::Number(id)) => Some(id.to_string()),
        Some(other) => {
            return Err(Error::type_error(
                format!("{at}.toolCallId"),
                format!("must be a string, got {}", describe(other)),
            ));
        }
    };
    let value = value_keys.iter().find_map(|k| p.get(*k)).cloned();
    Ok(Part {
        at: at.to_string(),
        kind,
        name,
        call_id,
        value,
    })
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    /// A compact picture of a trace's events.
    fn seq(t: &Trace) -> Vec<String> {
        t.events
            .iter()
            .map(|e| match e {
                Event::TurnStart { message, .. } => format!("start {message}"),
                Event::TurnComplete { response, .. } => format!("complete {response}"),
                Event::Cost {
                    tokens_in,
                    tokens_out,
                    ..
                } => format!("cost {tokens_in}/{tokens_out}"),
                Event::ToolCall {
                    name,
                    call_id,
                    args,
                    ..
                } => format!(
                    "call {name} {} {}",
                    call_id.as_deref().unwrap_or("-"),
                    args.as_ref().map_or("-".into(), Value::to_string)
                ),
                Event::ToolResult {
                    name,
                    ok,
                    call_id,
                    error,
                    result,
                    ..
                } => format!(
                    "result {name} {} {ok} {}",
                    call_id.as_deref().unwrap_or("-"),
                    error.as_deref().or(result.as_deref()).unwrap_or("-")
                ),
                _ => "other".into(),
            })
            .collect()
    }

    #[test]
    fn parallel_calls_tool_errors_nested_usage_and_estimates() {
        let v = json!({
            "prompt": "Weather in Paris and Oslo?",
            "steps": [
                {"content": [
                    {"type": "tool-call", "toolCallId": "c1", "toolName": "get_weather", "input": {"city": "Paris"}},
                    {"type": "tool-call", "toolCallId": "c2", "toolName": "get_weather", "input": {"city": "Oslo"}},
                    {"type": "tool-result", "toolCallId": "c1", "toolName": "get_weather", "output": {"tempC": 15}},
                    {"type": "tool-error", "toolCallId": "c2", "toolName": "get_weather", "error": {"message": "503"}}],
                 "finishReason": "tool-calls",
                 "usage": {"inputTokens": {"total": 30, "noCache": 30}, "outputTokens": {"total": 10}},
                 "model": {"provider": "openai.chat", "modelId": "gpt-4o"},
                 "response": {"id": "r1", "timestamp": "2025-01-02T03:04:05.678Z"}},
                {"content": [{"type": "reasoning", "text": "hm"}, {"type": "text", "text": "Paris is 15 °C."}],
                 "finishReason": "stop",
                 "response": {"id": "r2", "timestamp": "2025-01-02T03:04:06Z"}}
            ]
        });
        assert!(is_ai_sdk(&v));
        let traces = ai_sdk_traces(&v).unwrap();
        assert_eq!(traces.len(), 1);
        let t = &traces[0];
        assert_eq!(t.id, "r1");
        assert_eq!(t.source.as_deref(), Some("ai-sdk"));
        assert!(t.estimated_tokens);
        let answer = "Paris is 15 °C.";
        assert_eq!(
            seq(t),
            [
                "start Weather in Paris and Oslo?".to_string(),
                "cost 30/10".into(),
                r#"call get_weather c1 {"city":"Paris"}"#.into(),
                r#"call get_weather c2 {"city":"Oslo"}"#.into(),
                r#"result get_weather c1 true {"tempC":15}"#.into(),
                "result get_weather c2 false 503".into(),
                format!("cost 0/{}", estimate_tokens(answer.len())),
                format!("complete {answer}"),
            ]
        );
        assert!(
            matches!(t.events[1], Event::Cost { provider: Some(ref p), at_ms: Some(1_735_787_045_678), .. } if p == "openai.chat")
        );
        assert_eq!(t.events[7].as_ref().at_ms(), Some(1_735_787_046_000));
        assert_eq!(t.message_ids.len(), t.events.len());
        assert_eq!(t.message_ids[0], None);
        assert_eq!(t.message_ids[7].as_deref(), Some("r2"));
    }

    #[test]
    fn older_fields_arrays_of_results_and_request_bodies() {
        let step = |n: u32| {
            json!({
                "text": "",
                "toolCalls": [{"toolCallId": format!("c{n}"), "toolName": "search", "args": {"q": n}}],
                "toolResults": [{"toolCallId": format!("c{n}"), "result": "none"}],
                "usage": {"promptTokens": 20, "completionTokens": "5"},
                "finishReason": "tool-calls",
                "request": {"body": json!({"messages": [{"role": "system", "content": "be brief"}, {"role": "user", "content": "find it"}]}).to_string()}
            })
        };
        let v = json!([{"steps": [step(1)]}, {"steps": [step(2), {"text": "Found.", "toolCalls": [], "toolResults": [], "finishReason": "stop", "usage": {"promptTokens": 30, "completionTokens": 3}}]}]);
        assert!(is_ai_sdk(&v));
        let traces = ai_sdk_traces(&v).unwrap();
        assert_eq!(
            traces.iter().map(|t| t.id.as_str()).collect::<Vec<_>>(),
            ["0", "1"]
        );
        assert_eq!(
            seq(&traces[1]),
            [
                "start find it",
                "cost 20/5",
                r#"call search c2 {"q":2}"#,
                "result search c2 true none",
                "cost 30/3",
                "complete Found.",
            ]
        );
        assert!(!traces[1].estimated_tokens);
        // A bare array of steps is one trace.
        let bare = json!([step(3)]);
        assert!(is_ai_sdk(&bare));
        assert_eq!(ai_sdk_traces(&bare).unwrap().len(), 1);
    }

    #[test]
    fn malformed_steps_are_errors_with_their_position() {
        let err = |v: Value| ai_sdk_traces(&v).unwrap_err().to_string();
        let v = json!({"steps": [{"content": []}, {"content": [{"type": "text", "text": "a"}, {"type": "tool-call", "toolCallId": "x", "input": {}}]}]});
        assert!(
            err(v.clone()).contains("steps[1].content[1].toolName"),
            "{}",
            err(v)
        );
        let v = json!({"steps": [{"content": [{"type": "tool-result", "toolCallId": "zz", "output": 1}]}]});
        assert!(
            err(v.clone()).contains("steps[0].content[0].toolName"),
            "{}",
            err(v)
        );
        let v = json!([{"steps": []}, {"steps": [{"content": "text"}]}]);
        assert!(
            err(v.clone()).contains("[1].steps[0].content"),
            "{}",
            err(v)
        );
        let v = json!({"steps": [{"content": [], "response": {"timestamp": "yesterday"}}]});
        assert!(
            err(v.clone()).contains("steps[0].response.timestamp"),
            "{}",
            err(v)
        );
        assert!(err(json!("x")).contains("steps"));
        assert!(!is_ai_sdk(&json!([{"role": "assistant", "content": []}])));
        assert!(!is_ai_sdk(&json!({"resourceSpans": []})));
    }

    #[test]
    fn real_steps_from_the_sdk() {
        let v: Value = serde_json::from_str(include_str!(
            "../../tests/fixtures/replay/ai_sdk_steps.json"
        ))
        .unwrap();
        assert!(is_ai_sdk(&v));
        let traces = ai_sdk_traces(&v).unwrap();
        assert_eq!(traces.len(), 1);
        let t = &traces[0];
        assert_eq!(
            seq(t),
            [
                "cost 30/10",
                r#"call get_weather call_1 {"city":"Paris"}"#,
                r#"call get_weather call_2 {"city":"Oslo"}"#,
                r#"result get_weather call_1 true {"city":"Paris","tempC":15}"#,
                r#"result get_weather call_2 true {"city":"Oslo","tempC":14}"#,
                "cost 45/12",
                r#"call get_time call_3 {"city":"Oslo"}"#,
                "result get_time call_3 false -",
                "cost 60/20",
                "complete Paris 15 °C, Oslo 14 °C; the clock service is down.",
            ]
        );
        let (tin, tout) = t.events.iter().fold((0, 0), |(a, b), e| match e {
            Event::Cost {
                tokens_in,
                tokens_out,
                ..
            } => (a + tokens_in, b + tokens_out),
            _ => (a, b),
        });
        assert_eq!((tin, tout), (135, 42));
        assert!(!t.estimated_tokens);
        assert!(t.events.iter().all(|e| e.as_ref().at_ms().is_some()));
    }
}
