//! tau2-bench submissions → traces.
//!
//! A submission is `{simulations: [...]}` (or, in newer ones, the bare list).
//! Each simulation's `messages` are OpenAI-like, with differences the
//! mapping absorbs:
//!
//! * `tool_calls: [{id, name, arguments}]`, `arguments` an object (OpenAI
//!   nests `{name, arguments}` under `function`, as a string);
//! * a `tool` message names its call by `id`, and `error: true` marks a
//!   failed call (else the "starts with `Error`" rule of [`super::openai`]);
//! * `timestamp` (ISO 8601, UTC when no offset is given) is the event time
//!   when present; messages without one follow the previous one by
//!   [`super::MS_PER_MESSAGE`];
//! * an assistant message's `usage` (`prompt_tokens`, `completion_tokens`)
//!   and `cost` (dollars) become a `Cost` after it (answers without usage
//!   get an estimate when the import asks for one: [`super::estimate`]).
//!
//! The trace id is `{name}/{task_id}-{trial}`; `success` is `reward ≥ 1`.

use serde_json::{Value, json};

use super::openai::indexed_events;
use super::time::{iso_ms, set_time};
use super::{MS_PER_MESSAGE, Trace};
use crate::error::{Error, Result};
use crate::event::{Event, describe};

/// A submission's simulations: `simulations`, or the bare list.
pub fn simulations(v: &Value) -> Option<&Vec<Value>> {
    v.get("simulations")
        .and_then(Value::as_array)
        .or(v.as_array())
}

/// Whether `v` looks like a tau2-bench submission.
pub fn is_tau2(v: &Value) -> bool {
    simulations(v)
        .and_then(|s| s.first())
        .is_some_and(|s| s.get("messages").is_some() && s.get("reward_info").is_some())
}

/// One simulation; `here` is its position, `name` prefixes its id.
pub fn tau2_simulation(sim: &Value, here: &str, name: &str) -> Result<Trace> {
    let obj = sim.as_object().ok_or_else(|| {
        Error::type_error(here, format!("must be an object, got {}", describe(sim)))
    })?;
    let list_at = format!("{here}.messages");
    let list = obj
        .get("messages")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::type_error(list_at.as_str(), "must be an array of messages"))?;
    let openai: Vec<Value> = list.iter().map(to_openai).collect();
    let events = indexed_events(&Value::Array(openai), &list_at)?;
    let times = times(list);
    let mut trace = Trace {
        id: format!(
            "{name}/{}-{}",
            id_part(obj.get("task_id")),
            id_part(obj.get("trial"))
        ),
        source: Some("tau2-bench".into()),
        ..Trace::default()
    };
    let mut events = events.into_iter().peekable();
    while let Some((i, mut event)) = events.next() {
        set_time(&mut event, times[i]);
        let message_id = list[i]
            .get("id")
            .and_then(Value::as_str)
            .map(str::to_string);
        trace.events.push(event);
        trace.message_ids.push(message_id.clone());
        let last_of_answer =
            list[i]["role"] == "assistant" && events.peek().is_none_or(|(j, _)| *j != i);
        if let Some(cost) = last_of_answer
            .then(|| cost_of(&list[i], times[i]))
            .flatten()
        {
            trace.events.push(cost);
            trace.message_ids.push(message_id);
        }
    }
    trace.reward = obj
        .get("reward_info")
        .and_then(|r| r.get("reward"))
        .and_then(Value::as_f64);
    trace.success = trace.reward.map(|r| r >= 1.0);
    Ok(trace)
}

/// A tau2 message in OpenAI's form.
fn to_openai(m: &Value) -> Value {
    let mut m = m.clone();
    if let Some(calls) = m.get("tool_calls").and_then(Value::as_array) {
        let calls: Vec<Value> = calls
            .iter()
            .map(|c| {
                let arguments = match &c["arguments"] {
                    Value::String(s) => s.clone(),
                    Value::Null => String::new(),
                    other => other.to_string(),
                };
                json!({"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": arguments}})
            })
            .collect();
        m["tool_calls"] = Value::Array(calls);
    }
    if m["role"] == "tool" {
        if m.get("tool_call_id").is_none() {
            m["tool_call_id"] = m["id"].clone();
        }
        // A flagged failure that does not say so in its text still failed.
        if m["error"] == true {
            let text = m["content"].as_str().unwrap_or("");
            if !super::openai::looks_like_error(text) {
                m["content"] = Value::String(format!("Error: {text}"));
            }
        }
    }
    m
}

/// The cost an answer recorded (`usage`, `cost`), if any.
fn cost_of(m: &Value, at_ms: Option<u64>) -> Option<Event> {
    let usage = m.get("usage").and_then(Value::as_object)?;
    let count = |k: &str| usage.get(k).and_then(Value::as_u64);
    Some(Event::Cost {
        tokens_in: count("prompt_tokens").unwrap_or(0),
        tokens_out: count("completion_tokens")?,
        wallclock_ms: 0,
        provider: None,
        usd: m
            .get("cost")
            .and_then(Value::as_f64)
            .filter(|c| c.is_finite() && *c >= 0.0),
        at_ms,
    })
}

/// Each message's time: its timestamp, or the previous one's plus a step.
fn times(list: &[Value]) -> Vec<Option<u64>> {
    let mut last: Option<u64> = None;
    list.iter()
        .enumerate()
        .map(|(i, m)| {
            let t = m
                .get("timestamp")
                .and_then(Value::as_str)
                .and_then(iso_ms)
                .map(|t| last.map_or(t, |l| t.max(l)))
                .unwrap_or_else(|| last.map_or(i as u64 * MS_PER_MESSAGE, |l| l + MS_PER_MESSAGE));
            last = Some(t);
            Some(t)
        })
        .collect()
}

fn id_part(v: Option<&Value>) -> String {
    match v {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Number(n)) => n.to_string(),
        _ => "?".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_simulation_maps_calls_failures_usage_and_times() {
        let sub = json!({"simulations": [{
            "task_id": 7, "trial": 0, "reward_info": {"reward": 0.0},
            "messages": [
                {"role": "user", "content": "Cancel EHGLP3", "timestamp": "2025-11-26T01:12:49"},
                {"role": "assistant", "content": null, "timestamp": "2025-11-26T01:12:50",
                 "usage": {"prompt_tokens": 481, "completion_tokens": 103}, "cost": 0.002,
                 "tool_calls": [{"id": "t1", "name": "get_reservation_details", "arguments": {"reservation_id": "EHGLP3"}},
                                {"id": "t2", "name": "cancel_reservation", "arguments": {"reservation_id": "EHGLP3"}}]},
                {"role": "tool", "id": "t1", "content": "{\"status\": \"active\"}", "timestamp": "2025-11-26T01:12:51"},
                {"role": "tool", "id": "t2", "content": "not allowed", "error": true},
                {"role": "assistant", "content": "It cannot be cancelled."}
            ]
        }]});
        assert!(is_tau2(&sub));
        let sims = simulations(&sub).unwrap();
        let t = &tau2_simulation(&sims[0], "simulations[0]", "sub").unwrap();
        assert_eq!(
            (t.id.as_str(), t.success, t.reward),
            ("sub/7-0", Some(false), Some(0.0))
        );
        let kinds: Vec<String> = t
            .events
            .iter()
            .map(|e| format!("{e:?}").split(' ').next().unwrap_or("").to_string())
            .collect();
        assert_eq!(
            kinds,
            [
                "TurnStart",
                "ToolCall",
                "ToolCall",
                "Cost",
                "ToolResult",
                "ToolResult",
                "TurnComplete"
            ]
        );
        assert!(
            matches!(&t.events[3], Event::Cost { tokens_in: 481, tokens_out: 103, usd: Some(u), at_ms: Some(1_764_119_570_000), .. } if (*u - 0.002).abs() < 1e-12)
        );
        assert!(
            matches!(&t.events[4], Event::ToolResult { ok: true, call_id: Some(c), .. } if c == "t1")
        );
        assert!(
            matches!(
                &t.events[5],
                Event::ToolResult {
                    ok: false,
                    at_ms: Some(1_764_119_572_000),
                    ..
                }
            ),
            "{:?}",
            t.events[5]
        );
        // The last answer recorded no usage: its cost is the import's to estimate.
        assert!(!t.estimated_tokens);
        assert_eq!(t.message_ids.len(), t.events.len());
        let mut t = t.clone();
        crate::replay::estimate::estimate_costs(&mut t);
        assert!(t.estimated_tokens && t.events.len() == 8);
        assert!(matches!(t.events[7], Event::Cost { .. }));
        assert_eq!(t.message_ids[4].as_deref(), Some("t1"));
    }
}
