//! Coding-agent runs → traces: mini-swe-agent (the compact one-run-a-line
//! records of `../shared/data`) and SWE-agent `.traj` files.
//!
//! * **mini-swe-agent** `{instanceId, resolved, task, steps}`: the task is
//!   the turn start; each step `{command, returncode, output}` is a `bash`
//!   call with `{command}` and a result that failed when the return code was
//!   not 0. A step the model wrote no command in (`formatError`) has no
//!   call; it is counted in the trace id's record, not replayed.
//! * **SWE-agent** `{trajectory, history, info}`: the first user message of
//!   `history` is the turn start; each trajectory step's `thought` is a turn
//!   complete, its `action` a call named by the action's first word with
//!   `{action}`, and its `observation` the (successful) result.
//!   `info.exit_status` `submitted` is success, any other status failure.
//!   A file with no trajectory is read from its `history` as an OpenAI
//!   transcript (SWE-agent's function-calling demonstrations), with
//!   `tool_call_ids` taken as the call id.
//!
//! Time is synthetic: [`super::MS_PER_MESSAGE`] apart, as for transcripts.

use serde_json::{Value, json};

use super::openai::events_at;
use super::{MS_PER_MESSAGE, Trace};
use crate::error::{Error, Result};
use crate::event::{Event, describe};

/// Whether `v` is one compact mini-swe-agent record.
pub fn is_mini_swe(v: &Value) -> bool {
    v.get("instanceId").is_some() && v.get("steps").is_some_and(Value::is_array)
}

/// Whether `v` is a SWE-agent trajectory file.
pub fn is_swe_agent(v: &Value) -> bool {
    v.get("trajectory").is_some_and(Value::is_array)
        || (v.get("history").is_some_and(Value::is_array) && v.get("info").is_some())
        || v.get("history").and_then(Value::as_array).is_some_and(|h| {
            h.first()
                .is_some_and(|m| m.get("agent").is_some() && m.get("message_type").is_some())
        })
}

/// Synthetic time: a counter a step apart.
struct Clock(u64);
impl Clock {
    fn tick(&mut self) -> Option<u64> {
        self.0 += MS_PER_MESSAGE;
        Some(self.0)
    }
}

fn text<'a>(v: &'a Value, key: &str) -> &'a str {
    v.get(key).and_then(Value::as_str).unwrap_or("")
}

/// One compact mini-swe-agent record; `here` is its position (`line 3`).
pub fn mini_swe_trace(v: &Value, here: &str) -> Result<Trace> {
    let steps = v["steps"]
        .as_array()
        .ok_or_else(|| Error::type_error(format!("{here}.steps"), "must be an array"))?;
    let mut clock = Clock(0);
    let mut events = vec![Event::TurnStart {
        message: text(v, "task").to_string(),
        at_ms: clock.tick(),
    }];
    for (k, step) in steps.iter().enumerate() {
        if step.get("formatError") == Some(&Value::Bool(true)) {
            continue;
        }
        let command = step.get("command").and_then(Value::as_str).ok_or_else(|| {
            Error::type_error(
                format!("{here}.steps[{k}].command"),
                format!(
                    "must be a string, got {}",
                    describe(step.get("command").unwrap_or(&Value::Null))
                ),
            )
        })?;
        events.push(Event::ToolCall {
            name: "bash".into(),
            args: Some(json!({ "command": command })),
            call_id: None,
            side_effect: None,
            read_only: None,
            at_ms: clock.tick(),
        });
        events.push(Event::ToolResult {
            name: "bash".into(),
            ok: step.get("returncode").and_then(Value::as_i64) == Some(0),
            duration_ms: 0,
            error: None,
            result: Some(text(step, "output").to_string()),
            call_id: None,
            at_ms: clock.tick(),
        });
    }
    let success = v.get("resolved").and_then(Value::as_bool);
    Ok(Trace {
        id: format!("mini-swe/{}", text(v, "instanceId")),
        success,
        reward: success.map(|s| if s { 1.0 } else { 0.0 }),
        events,
        source: Some("mini-swe-agent".into()),
        ..Trace::default()
    })
}

/// One SWE-agent trajectory file; `name` is its id.
pub fn swe_agent_trace(v: &Value, name: &str) -> Result<Trace> {
    let status = v
        .get("info")
        .and_then(|i| i.get("exit_status"))
        .and_then(Value::as_str);
    let mut trace = Trace {
        id: format!("swe-agent/{name}"),
        success: status.map(|s| s == "submitted"),
        source: Some("swe-agent".into()),
        ..Trace::default()
    };
    trace.reward = trace.success.map(|s| if s { 1.0 } else { 0.0 });
    let history = v.get("history").and_then(Value::as_array);
    let steps = v
        .get("trajectory")
        .and_then(Value::as_array)
        .filter(|t| !t.is_empty());
    let Some(steps) = steps else {
        let history = history
            .ok_or_else(|| Error::type_error("trajectory", "is missing, and so is history"))?;
        let messages: Vec<Value> = history.iter().map(with_call_id).collect();
        trace.events = events_at(&Value::Array(messages), "history")?;
        return Ok(trace);
    };
    let task = history
        .into_iter()
        .flatten()
        .find(|m| m["role"] == "user")
        .map_or("", |m| text(m, "content"));
    let mut clock = Clock(0);
    trace.events.push(Event::TurnStart {
        message: task.to_string(),
        at_ms: clock.tick(),
    });
    for (k, step) in steps.iter().enumerate() {
        let action = step.get("action").and_then(Value::as_str).ok_or_else(|| {
            Error::type_error(format!("trajectory[{k}].action"), "must be a string")
        })?;
        let action = action.trim();
        let name = action
            .split_whitespace()
            .next()
            .unwrap_or("noop")
            .to_string();
        let thought = text(step, "thought");
        if !thought.trim().is_empty() {
            trace.events.push(Event::TurnComplete {
                response: thought.to_string(),
                at_ms: clock.tick(),
            });
        }
        trace.events.push(Event::ToolCall {
            name: name.clone(),
            args: Some(json!({ "action": action })),
            call_id: None,
            side_effect: None,
            read_only: None,
            at_ms: clock.tick(),
        });
        trace.events.push(Event::ToolResult {
            name,
            ok: true,
            duration_ms: 0,
            error: None,
            result: Some(text(step, "observation").to_string()),
            call_id: None,
            at_ms: clock.tick(),
        });
    }
    Ok(trace)
}

/// A history message with SWE-agent's `tool_call_ids` as OpenAI's `tool_call_id`.
fn with_call_id(m: &Value) -> Value {
    let mut m = m.clone();
    if m.get("tool_call_id").is_none()
        && let Some(id) = m.get("tool_call_ids").and_then(|ids| ids.get(0)).cloned()
    {
        m["tool_call_id"] = id;
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mini_swe_steps_are_bash_calls_judged_by_return_code() {
        let v = json!({"instanceId": "a__b-1", "resolved": false, "task": "Fix it", "steps": [
            {"command": "ls", "returncode": 0, "output": "a.py"},
            {"formatError": true},
            {"command": "python a.py", "returncode": 1, "output": "Traceback"}
        ]});
        assert!(is_mini_swe(&v) && !is_swe_agent(&v));
        let t = mini_swe_trace(&v, "line 1").unwrap();
        assert_eq!((t.id.as_str(), t.success), ("mini-swe/a__b-1", Some(false)));
        assert_eq!(t.events.len(), 5);
        assert!(matches!(&t.events[4], Event::ToolResult { ok: false, .. }));
        let bad = json!({"instanceId": "x", "steps": [{"returncode": 0}]});
        let e = mini_swe_trace(&bad, "line 4").unwrap_err();
        assert!(e.to_string().starts_with("line 4.steps[0].command"), "{e}");
    }

    #[test]
    fn swe_agent_steps_and_history_files() {
        let v = json!({"info": {"exit_status": "submitted"}, "history": [{"role": "system", "content": "s"}, {"role": "user", "content": "Fix the bug"}],
            "trajectory": [{"thought": "Look first.", "action": "find_file a.py", "observation": "Found a.py"}]});
        assert!(is_swe_agent(&v));
        let t = swe_agent_trace(&v, "demo").unwrap();
        assert_eq!(t.success, Some(true));
        assert_eq!(t.events.len(), 4);
        assert!(matches!(&t.events[2], Event::ToolCall { name, .. } if name == "find_file"));
        let h = json!({"history": [
            {"role": "user", "content": "Fix missing_colon.py", "agent": "main", "message_type": "observation"},
            {"role": "assistant", "content": "Find it.", "agent": "main", "message_type": "action", "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "find_file", "arguments": "{\"file_name\":\"missing_colon.py\"}"}}]},
            {"role": "tool", "content": "Found 1 match", "agent": "main", "message_type": "observation", "tool_call_ids": ["c1"]}
        ]});
        assert!(is_swe_agent(&h));
        let t = swe_agent_trace(&h, "fc").unwrap();
        assert_eq!(t.success, None);
        assert!(
            matches!(&t.events[3], Event::ToolResult { name, call_id: Some(c), .. } if name == "find_file" && c == "c1"),
            "{:?}",
            t.events
        );
    }
}
