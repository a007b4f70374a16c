//! One chat-completions exchange as events, for a regulator that sees an
//! agent's requests and responses (a gateway, a proxy) rather than its loop.
//!
//! A request re-sends the whole conversation in OpenAI's message format
//! (which most providers and gateways speak; the message mapping is
//! [`crate::replay::openai`]'s). Its messages up to and including the last
//! assistant message are the **history**: answered, and seen by earlier
//! requests. The messages after it are the **news**: the user's new message,
//! or the results of the tool calls the last answer made.
//!
//! * **Spend in the history is estimated**: messages carry no token counts,
//!   so each assistant message is followed by a `Cost` of its own text as
//!   output and everything before it as input, at [`BYTES_PER_TOKEN`]. A
//!   response's `usage` is used as reported.
//! * **Time**: with `end_ms`, the last message is at `end_ms` and each
//!   earlier one [`MS_PER_MESSAGE`] before the next (requests carry no
//!   timestamps); without it, events are untimed.
//! * **Long texts are clipped** to `max_text_bytes` (at a character
//!   boundary): a conversation with a large pasted file is still read.
//! * `usage` numbers may be integers or numeric strings; anything else
//!   counts as absent.

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::event::{Event, describe};
use crate::replay::MS_PER_MESSAGE;
use crate::replay::estimate::text_bytes;
use crate::replay::openai::{content, indexed_events, tool_call};
use crate::replay::time::set_time;

/// Bytes of text per token in estimates (English prose runs at about 4;
/// code and CJK text at fewer, so estimates err low rather than halt early).
pub const BYTES_PER_TOKEN: u64 = 4;

/// Longest request or response body read, as JSON text: a conversation at
/// the longest context windows, with room to spare.
pub const MAX_CHAT_BYTES: usize = 16 << 20;

/// `json` parsed, or an error naming `field`.
pub fn parse(field: &str, json: &str) -> Result<Value> {
    if json.len() > MAX_CHAT_BYTES {
        return Err(Error::range_error(
            field,
            format!(
                "is {} bytes as JSON; the limit is {MAX_CHAT_BYTES} bytes",
                json.len()
            ),
        ));
    }
    serde_json::from_str(json).map_err(|e| {
        Error::type_error(
            field,
            format!("must be JSON: {}", crate::error::json_message(&e)),
        )
    })
}

/// A request's events, split where the news begins.
#[derive(Debug, Clone, PartialEq)]
pub struct ChatRequest {
    /// The conversation so far, with estimated spend after each answer.
    pub history: Vec<Event>,
    /// What this request adds.
    pub news: Vec<Event>,
}

/// Estimated tokens of `bytes` bytes of text.
pub fn estimate_tokens(bytes: usize) -> u64 {
    (bytes as u64).div_ceil(BYTES_PER_TOKEN)
}

/// The events of a request's `messages` (see the module documentation).
pub fn request(
    messages: &Value,
    end_ms: Option<u64>,
    max_text_bytes: usize,
) -> Result<ChatRequest> {
    let indexed = indexed_events(messages, "messages")?;
    let list = messages.as_array().map_or(&[][..], Vec::as_slice);
    let answered = list
        .iter()
        .rposition(|m| m.get("role").and_then(Value::as_str) == Some("assistant"));
    let last = list.len().saturating_sub(1) as u64;
    let time = |i: usize| end_ms.map(|end| end.saturating_sub((last - i as u64) * MS_PER_MESSAGE));
    let mut out = ChatRequest {
        history: Vec::new(),
        news: Vec::new(),
    };
    // Bytes of text before the current message, and of the current answer.
    let (mut before, mut answer) = (0usize, 0usize);
    let mut events = indexed.into_iter().peekable();
    while let Some((i, mut event)) = events.next() {
        set_time(&mut event, time(i));
        clip(&mut event, max_text_bytes);
        let bytes = text_bytes(&event);
        let assistant = list
            .get(i)
            .and_then(|m| m.get("role"))
            .and_then(Value::as_str)
            == Some("assistant");
        let in_history = answered.is_some_and(|a| i <= a);
        if assistant {
            answer += bytes;
        } else {
            before += bytes;
        }
        let target = if in_history {
            &mut out.history
        } else {
            &mut out.news
        };
        target.push(event);
        // After an answer's last event: what it cost, estimated.
        if assistant && events.peek().is_none_or(|(j, _)| *j != i) {
            target.push(Event::Cost {
                tokens_in: estimate_tokens(before),
                tokens_out: estimate_tokens(answer),
                wallclock_ms: 0,
                provider: None,
                usd: None,
                at_ms: time(i),
            });
            before += answer;
            answer = 0;
        }
    }
    Ok(out)
}

/// The events of a chat-completions response body: its first choice's
/// message (text, tool calls), then its cost (`usage`, or estimated output
/// when absent), `duration_ms` as its wall-clock time.
pub fn response(
    body: &Value,
    at_ms: Option<u64>,
    duration_ms: u64,
    max_text_bytes: usize,
) -> Result<Vec<Event>> {
    let obj = body.as_object().ok_or_else(|| {
        Error::type_error(
            "response",
            format!("must be an object, got {}", describe(body)),
        )
    })?;
    let message = match obj.get("choices") {
        Some(Value::Array(choices)) => match choices.first() {
            None => None,
            Some(Value::Object(c)) => match c.get("message") {
                Some(Value::Object(m)) => Some(m),
                None | Some(Value::Null) => None,
                Some(other) => {
                    return Err(Error::type_error(
                        "response.choices[0].message",
                        format!("must be an object, got {}", describe(other)),
                    ));
                }
            },
            Some(other) => {
                return Err(Error::type_error(
                    "response.choices[0]",
                    format!("must be an object, got {}", describe(other)),
                ));
            }
        },
        None | Some(Value::Null) => None,
        Some(other) => {
            return Err(Error::type_error(
                "response.choices",
                format!("must be an array, got {}", describe(other)),
            ));
        }
    };
    let mut events = Vec::new();
    if let Some(m) = message {
        assistant_events(m, at_ms, &mut events)?;
    }
    for e in &mut events {
        clip(e, max_text_bytes);
    }
    let written: usize = events.iter().map(text_bytes).sum();
    let usage = obj.get("usage").and_then(Value::as_object);
    let count = |keys: &[&str]| usage.and_then(|u| keys.iter().find_map(|k| number(u.get(*k)?)));
    events.push(Event::Cost {
        tokens_in: count(&["prompt_tokens", "input_tokens"]).unwrap_or(0),
        tokens_out: count(&["completion_tokens", "output_tokens"])
            .unwrap_or_else(|| estimate_tokens(written)),
        wallclock_ms: duration_ms,
        provider: None,
        usd: None,
        at_ms,
    });
    Ok(events)
}

/// An assistant message's text and tool calls.
fn assistant_events(
    m: &Map<String, Value>,
    at_ms: Option<u64>,
    out: &mut Vec<Event>,
) -> Result<()> {
    let here = "response.choices[0].message";
    let text = content(m, here)?;
    if !text.trim().is_empty() {
        out.push(Event::TurnComplete {
            response: text,
            at_ms,
        });
    }
    match m.get("tool_calls") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::Array(calls)) => {
            for (j, call) in calls.iter().enumerate() {
                out.push(tool_call(call, &format!("{here}.tool_calls[{j}]"), at_ms)?);
            }
            Ok(())
        }
        Some(other) => Err(Error::type_error(
            format!("{here}.tool_calls"),
            format!("must be an array, got {}", describe(other)),
        )),
    }
}

/// A token count: a non-negative integer, or a string of one.
fn number(v: &Value) -> Option<u64> {
    match v {
        Value::Number(n) => n.as_u64(),
        Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The event's text, cut to at most `max` bytes at a character boundary.
fn clip(event: &mut Event, max: usize) {
    let text = match event {
        Event::TurnStart { message: t, .. } | Event::TurnComplete { response: t, .. } => t,
        Event::ToolResult {
            result: Some(t), ..
        } => t,
        _ => return,
    };
    if text.len() > max {
        let mut end = max;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
    }
}
