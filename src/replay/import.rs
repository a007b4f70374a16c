//! Reading recorded runs of any supported kind, told apart by their shape.
//!
//! A file is JSON or JSON lines. Recognised, in this order:
//!
//! | shape | read as |
//! |---|---|
//! | `{"format": "reins.trace", …}` (or an array, or a line, of them) | [`super::format`] |
//! | `{simulations: [{messages, reward_info}]}` | tau2-bench ([`super::tau2`]) |
//! | `[{task_id, trial, reward, traj}]` | tau-bench ([`super::tau`]) |
//! | `{instanceId, steps}` (a line each) | mini-swe-agent, compact ([`super::swe`]) |
//! | `{messages, info, trajectory_format: "mini-swe-agent…"}` | a mini-swe-agent `.traj.json` ([`super::swe`]) |
//! | `{trajectory, history, info}` | SWE-agent ([`super::swe`]) |
//! | `{resourceSpans: …}`, spans | OpenTelemetry GenAI spans ([`super::otlp`]) |
//! | `{steps: […]}` of AI SDK step results | Vercel AI SDK ([`super::ai_sdk`]) |
//! | `[{role, content, …}]` or `{messages: [{role, …}]}` | an OpenAI chat transcript ([`super::openai`]) |
//!
//! Nothing is skipped in silence: a record that cannot be read (a bad line,
//! a simulation with a malformed message, a file of no known shape) is a
//! [`Problem`] naming its position, and the other records are still read.

use serde::Serialize;
use serde_json::Value;

use super::{Trace, ai_sdk, estimate, format, openai, otlp, swe, tau, tau2};
use crate::error::Result;

/// What could not be read, and where.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    /// `name`, then the line or the path within the file.
    pub at: String,
    pub message: String,
}

/// The traces read from one file, and what could not be read.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
pub struct Import {
    pub traces: Vec<Trace>,
    pub problems: Vec<Problem>,
}

impl Import {
    fn record(&mut self, at: String, r: Result<Trace>) {
        match r {
            Ok(t) => self.traces.push(t),
            Err(e) => self.problems.push(Problem {
                at,
                message: e.to_string(),
            }),
        }
    }
    fn many(&mut self, at: String, r: Result<Vec<Trace>>) {
        match r {
            Ok(ts) => self.traces.extend(ts),
            Err(e) => self.problems.push(Problem {
                at,
                message: e.to_string(),
            }),
        }
    }
}

/// Reads the file `text` called `name` (its traces' ids start with it).
/// With `estimate`, traces that recorded no spend get costs estimated from
/// their text ([`estimate::estimate_costs`]).
pub fn import(text: &str, name: &str, estimate: bool) -> Import {
    let mut out = Import::default();
    match serde_json::from_str::<Value>(text) {
        Ok(v) => read_value(&v, name, name.to_string(), &mut out),
        Err(whole) if text.lines().filter(|l| !l.trim().is_empty()).count() <= 1 => {
            out.problems.push(Problem {
                at: name.to_string(),
                message: format!("is not JSON: {whole}"),
            });
        }
        Err(_) => {
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                let at = format!("{name}: line {}", i + 1);
                match serde_json::from_str::<Value>(line) {
                    Ok(v) => read_value(&v, &format!("{name}#{}", i + 1), at, &mut out),
                    Err(e) => out.problems.push(Problem {
                        at,
                        message: format!("is not JSON: {e}"),
                    }),
                }
            }
        }
    }
    if estimate {
        out.traces.iter_mut().for_each(estimate::estimate_costs);
    }
    out
}

/// Reads one JSON value (a whole file or one line); `id` names a single
/// trace, `at` is where the value is.
fn read_value(v: &Value, id: &str, at: String, out: &mut Import) {
    if format::is_trace(v) {
        out.record(at.clone(), format::read(v, &at, id));
    } else if let Some(list) = v
        .as_array()
        .filter(|l| l.first().is_some_and(format::is_trace))
    {
        for (i, t) in list.iter().enumerate() {
            let here = format!("{at}[{i}]");
            out.record(here.clone(), format::read(t, &here, &format!("{id}#{i}")));
        }
    } else if tau2::is_tau2(v) {
        for (k, sim) in tau2::simulations(v).into_iter().flatten().enumerate() {
            let here = format!("simulations[{k}]");
            out.record(
                format!("{at}: {here}"),
                tau2::tau2_simulation(sim, &here, id),
            );
        }
    } else if tau::is_tau_bench(v) {
        for (i, r) in v.as_array().into_iter().flatten().enumerate() {
            let here = format!("records[{i}]");
            out.record(
                format!("{at}: {here}"),
                tau::tau_record(r, &here).map(|mut t| {
                    t.id = format!("{id}/{}", t.id);
                    t
                }),
            );
        }
    } else if swe::is_mini_swe(v) {
        out.record(at.clone(), swe::mini_swe_trace(v, &at));
    } else if swe::is_mini_swe_file(v) {
        out.record(at, swe::mini_swe_file_trace(v, id));
    } else if swe::is_swe_agent(v) {
        out.record(at, swe::swe_agent_trace(v, id));
    } else if otlp::is_otlp(v) {
        out.many(at, otlp::otlp_traces(v).map(|ts| named(ts, id)));
    } else if ai_sdk::is_ai_sdk(v) {
        out.many(at, ai_sdk::ai_sdk_traces(v).map(|ts| named(ts, id)));
    } else if let Some(messages) = transcript(v) {
        out.record(
            at,
            openai::events_at(messages, "messages").map(|events| Trace {
                id: id.to_string(),
                events,
                source: Some("openai".into()),
                ..Trace::default()
            }),
        );
    } else {
        out.problems.push(Problem {
            at,
            message: "is not a run reins can read: expected a reins trace, a tau-bench or tau2-bench file, OpenTelemetry spans, AI SDK steps, a SWE-agent or mini-swe-agent run, or an OpenAI chat transcript".into(),
        });
    }
}

/// Trace ids under the file's `name`: `name/<own id>`, or `name#1`, `name#2`… for runs without one.
fn named(mut traces: Vec<Trace>, name: &str) -> Vec<Trace> {
    let many = traces.len() > 1;
    for (i, t) in traces.iter_mut().enumerate() {
        t.id = match (t.id.is_empty(), many) {
            (false, _) => format!("{name}/{}", t.id),
            (true, true) => format!("{name}#{}", i + 1),
            (true, false) => name.to_string(),
        };
    }
    traces
}

/// The messages of an OpenAI chat transcript: an array of role messages,
/// or an object whose `messages` is one (a request body, a saved chat).
fn transcript(v: &Value) -> Option<&Value> {
    let is_messages = |m: &Value| {
        m.as_array().is_some_and(|l| {
            !l.is_empty()
                && l.iter()
                    .all(|x| x.get("role").is_some_and(Value::is_string))
        })
    };
    if is_messages(v) {
        return Some(v);
    }
    v.get("messages").filter(|m| is_messages(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_read_one_by_one_and_bad_ones_named() {
        let text = concat!(
            r#"{"instanceId": "a-1", "resolved": true, "task": "Fix", "steps": [{"command": "ls", "returncode": 0, "output": "x"}]}"#,
            "\n",
            "{oops\n",
            "\n",
            r#"{"format": "reins.trace", "id": "t", "events": [{"type": "turnStart", "message": "hi"}]}"#,
            "\n",
            r#"{"what": 1}"#,
            "\n",
        );
        let got = import(text, "runs.jsonl", false);
        let ids: Vec<&str> = got.traces.iter().map(|t| t.id.as_str()).collect();
        assert_eq!(ids, ["mini-swe/a-1", "t"]);
        let at: Vec<&str> = got.problems.iter().map(|p| p.at.as_str()).collect();
        assert_eq!(at, ["runs.jsonl: line 2", "runs.jsonl: line 5"]);
        assert!(got.problems[0].message.starts_with("is not JSON"));
        assert!(
            got.problems[1]
                .message
                .starts_with("is not a run reins can read")
        );
    }

    #[test]
    fn a_transcript_gets_estimated_spend_when_asked() {
        let text = r#"[{"role": "user", "content": "Where is order 4821?"}, {"role": "assistant", "content": "It shipped yesterday."}]"#;
        let plain = import(text, "chat", false);
        assert_eq!(plain.traces[0].events.len(), 2);
        let est = import(text, "chat", true);
        let t = &est.traces[0];
        assert!(
            t.estimated_tokens
                && t.events.len() == 3
                && t.id == "chat"
                && t.source.as_deref() == Some("openai")
        );
        let bad = import("not json at all", "x.json", true);
        assert_eq!(bad.problems.len(), 1);
        assert!(bad.traces.is_empty() && bad.problems[0].at == "x.json");
    }

    #[test]
    fn one_bad_record_does_not_lose_the_others() {
        let text = r#"[{"task_id": 1, "trial": 0, "reward": 1, "traj": [{"role": "user", "content": "hi"}]},
                       {"task_id": 2, "trial": 0, "reward": 0, "traj": [{"role": "robot"}]}]"#;
        let got = import(text, "tau.json", false);
        assert_eq!(got.traces.len(), 1);
        assert_eq!(got.traces[0].id, "tau.json/1-0");
        assert_eq!(got.problems[0].at, "tau.json: records[1]");
        assert!(
            got.problems[0]
                .message
                .starts_with("records[1].traj[0].role"),
            "{}",
            got.problems[0].message
        );
    }
}
