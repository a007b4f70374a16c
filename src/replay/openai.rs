//! OpenAI chat transcripts → reins events.
//!
//! The mapping, message by message (`i` is the message's index in the array):
//!
//! | message | events |
//! |---|---|
//! | `system`, `developer` | none (instructions, not the user's task) |
//! | `user` | `TurnStart { message: content }` |
//! | `assistant` | `TurnComplete { response: content }` when the content is not empty (after trimming whitespace), then one `ToolCall` per entry of `tool_calls` (and one for a legacy `function_call`) |
//! | `tool`, `function` | `ToolResult { name, ok, result: content, call_id: tool_call_id }` |
//!
//! * **Time is synthetic**: every event of message `i` has `at_ms = i × 1000`.
//!   Transcripts carry no timestamps, and reins never reads a clock; a fixed
//!   step keeps the order and makes replays reproducible. Anything timed by
//!   `at_ms` (implicit corrections) therefore sees message distance, not time.
//! * **No cost events**: chat transcripts (and tau-bench's) record no token
//!   counts, so the budget rule never sees spend and never fires on a replay.
//! * **Tool arguments**: `function.arguments` is a JSON string; it is parsed,
//!   and kept as a JSON string value when it does not parse. An empty string
//!   or a missing/`null` field means no arguments; an object given directly
//!   (some exporters do this) is kept as it is.
//! * **Tool result name**: the message's `name`, or else the name of the call
//!   it answers. A result answers the most recent preceding call with its
//!   `tool_call_id`: call ids are not unique in real transcripts (49 of
//!   tau-bench's 200 airline trajectories reuse one for a different call).
//! * **Failed results**: `ok` is false when the content, after leading
//!   whitespace, starts with the word `Error` (`Error:`, `Error -`, `Error
//!   executing…`, but not `Errors` or `Erroneous`). tau-bench's tools turn every
//!   exception into `"Error: {exception}"` (73 of the 1164 airline results, all
//!   from booking and update tools); no successful result there starts with
//!   `Error`, and none contains the word elsewhere.
//! * **Content** may be a string, `null`/missing (empty), or an array of
//!   content parts whose `text` fields are joined with newlines.
//! * `duration_ms` is 0: transcripts do not time tool calls.
//!
//! Errors name the offending field as a path, e.g. `messages[3].role`.

use serde_json::{Map, Value};

use crate::error::{Error, Result};
use crate::event::{Event, describe};

/// Milliseconds of synthetic time between consecutive messages.
pub const MS_PER_MESSAGE: u64 = 1000;

/// Converts an OpenAI chat transcript (a JSON array of messages) into events.
/// See the module documentation for the exact mapping.
pub fn events_from_openai(messages: &Value) -> Result<Vec<Event>> {
    events_at(messages, "messages")
}

/// [`events_from_openai`], with error paths rooted at `path`.
pub(crate) fn events_at(messages: &Value, path: &str) -> Result<Vec<Event>> {
    Ok(indexed_events(messages, path)?
        .into_iter()
        .map(|(_, e)| e)
        .collect())
}

/// [`events_at`], each event with the index of the message it came from.
pub(crate) fn indexed_events(messages: &Value, path: &str) -> Result<Vec<(usize, Event)>> {
    let list = messages.as_array().ok_or_else(|| {
        Error::type_error(
            path,
            format!("must be an array of messages, got {}", describe(messages)),
        )
    })?;
    let mut events = Vec::with_capacity(list.len() + list.len() / 2);
    // (call id, tool name) of every call so far, newest last.
    let mut calls: Vec<(String, String)> = Vec::new();
    for (i, message) in list.iter().enumerate() {
        let here = format!("{path}[{i}]");
        let at_ms = Some((i as u64).saturating_mul(MS_PER_MESSAGE));
        let obj = message.as_object().ok_or_else(|| {
            Error::type_error(
                here.as_str(),
                format!("must be an object, got {}", describe(message)),
            )
        })?;
        let role = required_str(obj, "role", &here)?;
        match role.as_str() {
            "system" | "developer" => {}
            "user" => events.push((
                i,
                Event::TurnStart {
                    message: content(obj, &here)?,
                    at_ms,
                },
            )),
            "assistant" => {
                let text = content(obj, &here)?;
                if !text.trim().is_empty() {
                    events.push((
                        i,
                        Event::TurnComplete {
                            response: text,
                            at_ms,
                        },
                    ));
                }
                match obj.get("tool_calls") {
                    None | Some(Value::Null) => {}
                    Some(Value::Array(list)) => {
                        for (j, call) in list.iter().enumerate() {
                            let at = format!("{here}.tool_calls[{j}]");
                            let event = tool_call(call, &at, at_ms)?;
                            if let Event::ToolCall {
                                name,
                                call_id: Some(id),
                                ..
                            } = &event
                            {
                                calls.push((id.clone(), name.clone()));
                            }
                            events.push((i, event));
                        }
                    }
                    Some(other) => {
                        return Err(Error::type_error(
                            format!("{here}.tool_calls"),
                            format!("must be an array, got {}", describe(other)),
                        ));
                    }
                }
                match obj.get("function_call") {
                    None | Some(Value::Null) => {}
                    Some(f) => {
                        let at = format!("{here}.function_call");
                        let (name, args) = function(f, &at)?;
                        events.push((
                            i,
                            Event::ToolCall {
                                name,
                                args,
                                call_id: None,
                                side_effect: None,
                                read_only: None,
                                at_ms,
                            },
                        ));
                    }
                }
            }
            "tool" | "function" => {
                let call_id = optional_str(obj, "tool_call_id", &here)?;
                let answered = call_id.as_deref().and_then(|id| {
                    calls
                        .iter()
                        .rev()
                        .find(|(c, _)| c == id)
                        .map(|(_, n)| n.clone())
                });
                let name = match (optional_str(obj, "name", &here)?, answered) {
                    (Some(n), _) | (None, Some(n)) => n,
                    (None, None) => {
                        return Err(Error::type_error(
                            format!("{here}.name"),
                            "is missing, and no earlier tool call has this message's tool_call_id",
                        ));
                    }
                };
                let result = content(obj, &here)?;
                events.push((
                    i,
                    Event::ToolResult {
                        name,
                        ok: !looks_like_error(&result),
                        duration_ms: 0,
                        error: None,
                        result: Some(result),
                        call_id,
                        at_ms,
                    },
                ));
            }
            other => {
                return Err(Error::type_error(
                    format!("{here}.role"),
                    format!(
                        "{other:?} is not a role; expected system, developer, user, assistant, tool or function"
                    ),
                ));
            }
        }
    }
    Ok(events)
}

/// Whether a tool result reads as a failure: it starts with the word `Error`.
pub fn looks_like_error(content: &str) -> bool {
    content
        .trim_start()
        .strip_prefix("Error")
        .is_some_and(|rest| !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_'))
}

/// One entry of `tool_calls`: `{id?, type?, function: {name, arguments?}}`.
pub(crate) fn tool_call(call: &Value, here: &str, at_ms: Option<u64>) -> Result<Event> {
    let obj = call.as_object().ok_or_else(|| {
        Error::type_error(here, format!("must be an object, got {}", describe(call)))
    })?;
    let call_id = optional_str(obj, "id", here)?;
    let function_at = format!("{here}.function");
    let (name, args) = match (obj.get("function"), obj.get("custom")) {
        (Some(f), _) => function(f, &function_at)?,
        // A custom tool's input is free text: `{name, input}`.
        (None, Some(c)) => custom(c, &format!("{here}.custom"))?,
        (None, None) => return Err(Error::type_error(function_at.as_str(), "is missing")),
    };
    Ok(Event::ToolCall {
        name,
        args,
        call_id,
        side_effect: None,
        read_only: None,
        at_ms,
    })
}

/// `{name, arguments?}` → the tool name and its parsed arguments.
fn function(f: &Value, here: &str) -> Result<(String, Option<Value>)> {
    let obj = f.as_object().ok_or_else(|| {
        Error::type_error(here, format!("must be an object, got {}", describe(f)))
    })?;
    let name = optional_str(obj, "name", here)?
        .ok_or_else(|| Error::type_error(format!("{here}.name"), "is missing"))?;
    let args = match obj.get("arguments") {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) if s.trim().is_empty() => None,
        Some(Value::String(s)) => {
            Some(serde_json::from_str::<Value>(s).unwrap_or_else(|_| Value::String(s.clone())))
        }
        Some(other) => Some(other.clone()),
    };
    Ok((name, args))
}

/// A custom tool call, `{name, input?}`: its input is kept as text.
fn custom(c: &Value, here: &str) -> Result<(String, Option<Value>)> {
    let obj = c.as_object().ok_or_else(|| {
        Error::type_error(here, format!("must be an object, got {}", describe(c)))
    })?;
    let name = optional_str(obj, "name", here)?
        .ok_or_else(|| Error::type_error(format!("{here}.name"), "is missing"))?;
    let input = optional_str(obj, "input", here)?.filter(|s| !s.trim().is_empty());
    Ok((name, input.map(Value::String)))
}

/// A message's `content` as text: a string, nothing, or text parts.
pub(crate) fn content(obj: &Map<String, Value>, here: &str) -> Result<String> {
    match obj.get("content") {
        None | Some(Value::Null) => Ok(String::new()),
        Some(Value::String(s)) => Ok(s.clone()),
        Some(Value::Array(parts)) => {
            let mut texts = Vec::with_capacity(parts.len());
            for (k, part) in parts.iter().enumerate() {
                match part {
                    Value::String(s) => texts.push(s.as_str()),
                    Value::Object(p) => match p.get("text") {
                        Some(Value::String(s)) => texts.push(s.as_str()),
                        // Images, audio and other non-text parts carry no words.
                        None | Some(Value::Null) => {}
                        Some(other) => {
                            return Err(Error::type_error(
                                format!("{here}.content[{k}].text"),
                                format!("must be a string, got {}", describe(other)),
                            ));
                        }
                    },
                    other => {
                        return Err(Error::type_error(
                            format!("{here}.content[{k}]"),
                            format!("must be a string or an object, got {}", describe(other)),
                        ));
                    }
                }
            }
            Ok(texts.join("\n"))
        }
        Some(other) => Err(Error::type_error(
            format!("{here}.content"),
            format!(
                "must be a string, null or an array of parts, got {}",
                describe(other)
            ),
        )),
    }
}

pub(crate) fn optional_str(
    obj: &Map<String, Value>,
    key: &str,
    here: &str,
) -> Result<Option<String>> {
    match obj.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(Error::type_error(
            format!("{here}.{key}"),
            format!("must be a string, got {}", describe(other)),
        )),
    }
}

/// A string field that must be there.
pub(crate) fn required_str(obj: &Map<String, Value>, key: &str, here: &str) -> Result<String> {
    optional_str(obj, key, here)?
        .ok_or_else(|| Error::type_error(format!("{here}.{key}"), "is missing"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn error_rule_matches_the_word_error_only() {
        assert!(looks_like_error("Error: flight HAT030 not available"));
        assert!(looks_like_error("  Error - boom"));
        assert!(looks_like_error("Error"));
        assert!(looks_like_error("Error executing tool"));
        assert!(!looks_like_error("Errors: none"));
        assert!(!looks_like_error("Erroneous"));
        assert!(!looks_like_error("error: lower case is a result"));
        assert!(!looks_like_error("{\"error\": null}"));
        assert!(!looks_like_error(""));
    }

    #[test]
    fn unparsable_arguments_stay_a_string() {
        let m: Value = serde_json::json!([
            {"role": "assistant", "content": null, "tool_calls": [
                {"id": "a", "type": "function", "function": {"name": "f", "arguments": "{oops"}},
                {"id": "b", "type": "function", "function": {"name": "g", "arguments": ""}}
            ]}
        ]);
        let events = events_from_openai(&m).unwrap();
        assert_eq!(
            events,
            vec![
                Event::ToolCall {
                    name: "f".into(),
                    args: Some(Value::String("{oops".into())),
                    call_id: Some("a".into()),
                    side_effect: None,
                    read_only: None,
                    at_ms: Some(0),
                },
                Event::ToolCall {
                    name: "g".into(),
                    args: None,
                    call_id: Some("b".into()),
                    side_effect: None,
                    read_only: None,
                    at_ms: Some(0),
                },
            ]
        );
    }
}
