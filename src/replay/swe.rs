//! Coding-agent runs → traces: mini-swe-agent (the compact one-run-a-line
//! records of `../shared/data`) and SWE-agent `.traj` files.
//!
//! * **mini-swe-agent** `{instanceId, resolved, task, steps}`: the task is
//!   the turn start; each step `{command, returncode, output}` is a `bash`
//!   call with `{command}` and a result that failed when the return code was
//!   not 0. A step the model wrote no command in (`formatError`) has no
//!   call; it is counted in the trace id's record, not replayed.
//! * **mini-swe-agent trajectory files** `{info, messages, trajectory_format}`:
//!   see [`mini_swe_file_trace`].
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

fn bash_call(command: &str, at_ms: Option<u64>) -> Event {
    Event::ToolCall {
        name: "bash".into(),
        args: Some(json!({ "command": command })),
        call_id: None,
        side_effect: None,
        read_only: None,
        at_ms,
    }
}

fn bash_result(ok: bool, output: &str, at_ms: Option<u64>) -> Event {
    Event::ToolResult {
        name: "bash".into(),
        ok,
        duration_ms: 0,
        error: None,
        result: Some(output.to_string()),
        call_id: None,
        at_ms,
    }
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
        events.push(bash_call(command, clock.tick()));
        let ok = step.get("returncode").and_then(Value::as_i64) == Some(0);
        events.push(bash_result(ok, text(step, "output"), clock.tick()));
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

/// Whether `v` is a mini-swe-agent trajectory file (`.traj.json`).
pub fn is_mini_swe_file(v: &Value) -> bool {
    v.get("trajectory_format")
        .and_then(Value::as_str)
        .is_some_and(|f| f.starts_with("mini-swe-agent"))
}

/// The command of an action: the last fenced block tagged `bash`, `sh` or
/// `mswea_bash_command` (mini-swe-agent asks for exactly one).
fn fenced_command(text: &str) -> Option<&str> {
    let mut found = None;
    let mut rest = text;
    while let Some(open) = rest.find("```") {
        let after = &rest[open + 3..];
        let line_end = after.find('\n')?;
        let tag = after[..line_end].trim();
        let body = &after[line_end + 1..];
        let close = body.find("```")?;
        if matches!(tag, "bash" | "sh" | "mswea_bash_command") {
            found = Some(body[..close].trim());
        }
        rest = &body[close + 3..];
    }
    found
}

/// `<returncode>N</returncode>` and the `<output>…</output>` of an observation.
fn observation(text: &str) -> Option<(i64, &str)> {
    let code = text
        .split_once("<returncode>")?
        .1
        .split_once("</returncode>")?
        .0;
    let code = code.trim().parse().ok()?;
    let output = text
        .split_once("<output>")
        .and_then(|(_, o)| o.rsplit_once("</output>"))
        .map_or(text, |(o, _)| o);
    Some((code, output.trim_matches('\n')))
}

/// A mini-swe-agent trajectory file `{info, messages, trajectory_format}`:
/// the first user message is the task; an assistant message's fenced bash
/// block is a `bash` call, answered by the next user message's return code
/// and output. Runs of tool-calling models (`tool_calls`) are read as a chat.
/// `info.exit_status` says how the run ended, not whether the fix was
/// right, so the outcome is left unknown.
pub fn mini_swe_file_trace(v: &Value, name: &str) -> Result<Trace> {
    let list = v
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::type_error("messages", "must be an array of messages"))?;
    let mut trace = Trace {
        id: format!("mini-swe/{name}"),
        source: Some("mini-swe-agent".into()),
        ..Trace::default()
    };
    if list
        .iter()
        .any(|m| m.get("tool_calls").is_some_and(Value::is_array))
    {
        trace.events = events_at(&Value::Array(list.clone()), "messages")?;
        return Ok(trace);
    }
    let mut clock = Clock(0);
    let mut pending = false;
    for (i, m) in list.iter().enumerate() {
        let role = m.get("role").and_then(Value::as_str).unwrap_or("");
        let text = super::openai::content(
            m.as_object()
                .ok_or_else(|| Error::type_error(format!("messages[{i}]"), "must be an object"))?,
            &format!("messages[{i}]"),
        )?;
        match role {
            "user" if pending => {
                pending = false;
                let (code, output) = observation(&text).unwrap_or((-1, text.as_str()));
                trace
                    .events
                    .push(bash_result(code == 0, output, clock.tick()));
            }
            "user"
                if !trace
                    .events
                    .iter()
                    .any(|e| matches!(e, Event::TurnStart { .. })) =>
            {
                trace.events.push(Event::TurnStart {
                    message: text,
                    at_ms: clock.tick(),
                });
            }
            "assistant" => {
                if let Some(command) = fenced_command(&text) {
                    trace.events.push(bash_call(command, clock.tick()));
                    pending = true;
                }
            }
            // The system prompt, and format-error notices after an action-less answer.
            _ => {}
        }
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
    fn mini_swe_agent_files_read_actions_and_observations() {
        let v = json!({"trajectory_format": "mini-swe-agent-1", "info": {"exit_status": "Submitted"}, "messages": [
            {"role": "system", "content": "You are a helpful assistant."},
            {"role": "user", "content": "Please solve this issue: the parser drops the last line."},
            {"role": "assistant", "content": "THOUGHT: look first.\n\n```bash\nls src\n```"},
            {"role": "user", "content": "<returncode>0</returncode>\n<output>\nparser.py\n</output>"},
            {"role": "assistant", "content": "I will run the tests."},
            {"role": "user", "content": "Please always provide EXACTLY ONE action in triple backticks."},
            {"role": "assistant", "content": "```mswea_bash_command\npython -m pytest\n```"},
            {"role": "user", "content": "<returncode>1</returncode>\n<output>\n1 failed\n</output>"}
        ]});
        assert!(is_mini_swe_file(&v) && !is_mini_swe(&v));
        let t = mini_swe_file_trace(&v, "astropy-1").unwrap();
        assert_eq!((t.id.as_str(), t.success), ("mini-swe/astropy-1", None));
        let calls: Vec<(String, bool)> = t
            .events
            .windows(2)
            .filter_map(|w| match w {
                [
                    Event::ToolCall { args: Some(a), .. },
                    Event::ToolResult {
                        ok,
                        result: Some(r),
                        ..
                    },
                ] => Some((
                    format!("{} -> {r}", a["command"].as_str().unwrap_or("")),
                    *ok,
                )),
                _ => None,
            })
            .collect();
        assert_eq!(
            calls,
            [
                ("ls src -> parser.py".to_string(), true),
                ("python -m pytest -> 1 failed".to_string(), false)
            ]
        );
        assert!(
            matches!(&t.events[0], Event::TurnStart { message, .. } if message.starts_with("Please solve"))
        );
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
