//! The trace format: the live event vocabulary with times, ids and outcome.
//!
//! ```json
//! {"format": "reins.trace", "version": 1, "id": "run-17", "source": "my-agent",
//!  "outcome": {"success": false, "reward": 0}, "estimatedTokens": false,
//!  "events": [
//!    {"type": "turnStart", "message": "Find my late orders", "atMs": 0, "messageId": "m1"},
//!    {"type": "toolCall", "name": "search_orders", "args": {"q": "late"}, "callId": "c1", "atMs": 900},
//!    {"type": "toolResult", "name": "search_orders", "ok": true, "result": "[]", "callId": "c1", "atMs": 1000},
//!    {"type": "cost", "tokensIn": 812, "tokensOut": 40, "atMs": 1000}
//!  ]}
//! ```
//!
//! Each event is exactly what `Regulator.event()` takes, plus an optional
//! `messageId`. Everything but `format` and `events` is optional. A file is
//! one trace, a JSON array of traces, or JSON lines with one trace a line.
//! [`to_json`] writes a trace back byte-stably (fields in this order).

use serde_json::{Map, Value};

use super::Trace;
use crate::error::{Error, Result};
use crate::event::{Event, describe};

pub const FORMAT: &str = "reins.trace";
pub const VERSION: u64 = 1;

/// Whether `v` is a trace in this format.
pub fn is_trace(v: &Value) -> bool {
    v.get("format").and_then(Value::as_str) == Some(FORMAT)
}

/// Reads one trace; `here` is its position, `name` its id when it has none.
pub fn read(v: &Value, here: &str, name: &str) -> Result<Trace> {
    let obj = v.as_object().ok_or_else(|| {
        Error::type_error(here, format!("must be an object, got {}", describe(v)))
    })?;
    match obj.get("version").and_then(Value::as_u64) {
        Some(VERSION) | None => {}
        Some(other) => {
            return Err(Error::range_error(
                format!("{here}.version"),
                format!("{other} is newer than this reins reads ({VERSION})"),
            ));
        }
    }
    let string = |key: &str| obj.get(key).and_then(Value::as_str).map(str::to_string);
    let outcome = obj.get("outcome").and_then(Value::as_object);
    let list = obj
        .get("events")
        .and_then(Value::as_array)
        .ok_or_else(|| Error::type_error(format!("{here}.events"), "must be an array of events"))?;
    let mut trace = Trace {
        id: string("id").unwrap_or_else(|| name.to_string()),
        success: outcome
            .and_then(|o| o.get("success"))
            .and_then(Value::as_bool),
        reward: outcome
            .and_then(|o| o.get("reward"))
            .and_then(Value::as_f64),
        source: string("source"),
        estimated_tokens: obj.get("estimatedTokens") == Some(&Value::Bool(true)),
        ..Trace::default()
    };
    let mut ids = Vec::with_capacity(list.len());
    for (i, e) in list.iter().enumerate() {
        let mut e = e.clone();
        let id = match e.as_object_mut().and_then(|o| o.remove("messageId")) {
            None | Some(Value::Null) => None,
            Some(Value::String(s)) => Some(s),
            Some(other) => {
                return Err(Error::type_error(
                    format!("{here}.events[{i}].messageId"),
                    format!("must be a string, got {}", describe(&other)),
                ));
            }
        };
        let event = Event::from_value(e)
            .map_err(|err| Error::type_error(format!("{here}.events[{i}]"), err.to_string()))?;
        trace.events.push(event);
        ids.push(id);
    }
    if ids.iter().any(Option::is_some) {
        trace.message_ids = ids;
    }
    Ok(trace)
}

/// `trace` in the trace format, as one line of JSON.
pub fn to_json(trace: &Trace) -> String {
    let mut obj = Map::new();
    obj.insert("format".into(), FORMAT.into());
    obj.insert("version".into(), VERSION.into());
    obj.insert("id".into(), trace.id.clone().into());
    if let Some(s) = &trace.source {
        obj.insert("source".into(), s.clone().into());
    }
    if trace.success.is_some() || trace.reward.is_some() {
        let mut o = Map::new();
        if let Some(s) = trace.success {
            o.insert("success".into(), s.into());
        }
        if let Some(r) = trace.reward {
            o.insert("reward".into(), r.into());
        }
        obj.insert("outcome".into(), Value::Object(o));
    }
    if trace.estimated_tokens {
        obj.insert("estimatedTokens".into(), true.into());
    }
    let events = trace
        .events
        .iter()
        .enumerate()
        .map(|(i, e)| {
            let mut v = serde_json::to_value(e).unwrap_or(Value::Null);
            if let (Some(Some(id)), Some(o)) = (trace.message_ids.get(i), v.as_object_mut()) {
                o.insert("messageId".into(), id.clone().into());
            }
            v
        })
        .collect();
    obj.insert("events".into(), Value::Array(events));
    Value::Object(obj).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn write_then_read_is_the_same_trace() {
        let text = r#"{"format":"reins.trace","version":1,"id":"r1","source":"app","outcome":{"success":false,"reward":0.5},
            "events":[{"type":"turnStart","message":"Find my late orders","atMs":0,"messageId":"m1"},
                      {"type":"toolCall","name":"search","args":{"q":"late"},"callId":"c1","atMs":900},
                      {"type":"cost","tokensIn":812,"tokensOut":40,"atMs":1000}]}"#;
        let v: Value = serde_json::from_str(text).unwrap();
        assert!(is_trace(&v));
        let t = read(&v, "trace", "file").unwrap();
        assert_eq!(
            (t.id.as_str(), t.success, t.reward),
            ("r1", Some(false), Some(0.5))
        );
        assert_eq!(t.message_ids, [Some("m1".to_string()), None, None]);
        let again = read(
            &serde_json::from_str(&to_json(&t)).unwrap(),
            "trace",
            "file",
        )
        .unwrap();
        assert_eq!(again, t);
        assert_eq!(to_json(&again), to_json(&t));
    }

    #[test]
    fn errors_name_the_event() {
        let v = serde_json::json!({"format": "reins.trace", "events": [{"type": "turnStart", "message": "hi"}, {"type": "cost", "tokens_out": 5}]});
        let e = read(&v, "line 3", "f").unwrap_err().to_string();
        assert!(e.starts_with("line 3.events[1]"), "{e}");
        assert!(e.contains("tokens_out"), "{e}");
        let v = serde_json::json!({"format": "reins.trace", "version": 9, "events": []});
        assert!(
            read(&v, "t", "f")
                .unwrap_err()
                .to_string()
                .contains("newer")
        );
    }
}
