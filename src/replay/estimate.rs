//! Spend for traces that recorded none: each model call's tokens estimated
//! from text, so the budget rules see what a live app would have sent.
//!
//! A model call is a run of the agent's own events: a `TurnComplete` and the
//! `ToolCall`s that follow it (one parallel batch), or tool calls alone. After
//! each such run with no `Cost` recorded before the agent's next one (right
//! after the call, or after its tool results), one is inserted: its text as output, and everything
//! before it in the trace (the context it was sent) as input, at
//! [`crate::chat::BYTES_PER_TOKEN`] bytes a token. The trace is flagged
//! `estimated_tokens`.

use super::Trace;
use crate::chat::estimate_tokens;
use crate::event::Event;

/// Bytes of text an event puts in the context.
pub(crate) fn text_bytes(event: &Event) -> usize {
    match event {
        Event::TurnStart { message: t, .. } | Event::TurnComplete { response: t, .. } => t.len(),
        Event::ToolResult { result, error, .. } => {
            result.as_ref().map_or(0, String::len) + error.as_ref().map_or(0, String::len)
        }
        Event::ToolCall { name, args, .. } => {
            name.len()
                + args
                    .as_ref()
                    .map_or(0, |a| serde_json::to_string(a).map_or(0, |s| s.len()))
        }
        Event::UserCorrection { message, .. } => message.len(),
        _ => 0,
    }
}

fn is_agent(event: &Event) -> bool {
    matches!(event, Event::TurnComplete { .. } | Event::ToolCall { .. })
}

fn at(event: &Event) -> Option<u64> {
    match event {
        Event::TurnComplete { at_ms, .. } | Event::ToolCall { at_ms, .. } => *at_ms,
        _ => None,
    }
}

/// Inserts an estimated `Cost` after each model call whose spend was not
/// recorded (no `Cost` between it and the agent's next call; see the module
/// documentation). Recorded spend is left as it is.
pub fn estimate_costs(trace: &mut Trace) {
    let ids = std::mem::take(&mut trace.message_ids);
    let keep_ids = ids.len() == trace.events.len();
    let events = std::mem::take(&mut trace.events);
    // recorded[i]: a `Cost` comes after event i before the agent's next event.
    let mut recorded = vec![false; events.len()];
    let mut seen = false;
    for (i, e) in events.iter().enumerate().rev() {
        recorded[i] = seen;
        if is_agent(e) {
            seen = false;
        } else if matches!(e, Event::Cost { .. }) {
            seen = true;
        }
    }
    let mut out = Vec::with_capacity(events.len() + events.len() / 2);
    let mut out_ids = Vec::new();
    let (mut before, mut call) = (0usize, 0usize);
    let mut any = false;
    let mut events = events.into_iter().enumerate().peekable();
    while let Some((i, event)) = events.next() {
        let bytes = text_bytes(&event);
        let agent = is_agent(&event);
        let time = at(&event);
        if agent {
            call += bytes;
        } else {
            before += bytes;
        }
        let id = if keep_ids { ids[i].clone() } else { None };
        out.push(event);
        if keep_ids {
            out_ids.push(id.clone());
        }
        // The call ends where the next event is not the agent's own.
        if !agent || events.peek().is_some_and(|(_, e)| is_agent(e)) {
            continue;
        }
        if !recorded[i] {
            out.push(Event::Cost {
                tokens_in: estimate_tokens(before),
                tokens_out: estimate_tokens(call),
                wallclock_ms: 0,
                provider: None,
                usd: None,
                at_ms: time,
            });
            if keep_ids {
                out_ids.push(id);
            }
            any = true;
        }
        before += call;
        call = 0;
    }
    trace.events = out;
    trace.message_ids = out_ids;
    trace.estimated_tokens |= any;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(t: u64) -> Option<u64> {
        Some(t)
    }

    #[test]
    fn each_model_call_gets_its_estimated_cost_once() {
        let mut trace = Trace {
            events: vec![
                Event::TurnStart {
                    message: "x".repeat(40),
                    at_ms: at(1),
                },
                Event::TurnComplete {
                    response: "y".repeat(8),
                    at_ms: at(2),
                },
                Event::ToolCall {
                    name: "ab".into(),
                    args: None,
                    call_id: None,
                    side_effect: None,
                    read_only: None,
                    at_ms: at(2),
                },
                Event::ToolResult {
                    name: "ab".into(),
                    ok: true,
                    duration_ms: 0,
                    error: None,
                    result: Some("z".repeat(20)),
                    call_id: None,
                    at_ms: at(3),
                },
                Event::TurnComplete {
                    response: "w".repeat(4),
                    at_ms: at(4),
                },
            ],
            ..Trace::default()
        };
        estimate_costs(&mut trace);
        let costs: Vec<(u64, u64, Option<u64>)> = trace
            .events
            .iter()
            .filter_map(|e| match e {
                Event::Cost {
                    tokens_in,
                    tokens_out,
                    at_ms,
                    ..
                } => Some((*tokens_in, *tokens_out, *at_ms)),
                _ => None,
            })
            .collect();
        // 40 bytes in, 10 out (8 + "ab"); then 40 + 10 + 20 in, 4 out.
        assert_eq!(costs, [(10, 3, at(2)), (18, 1, at(4))]);
        assert!(trace.estimated_tokens);
        assert_eq!(trace.events.len(), 7);
        // A cost recorded after the call's results is that call's.
        let mut recorded = Trace {
            events: vec![
                Event::TurnStart {
                    message: "x".repeat(40),
                    at_ms: at(1),
                },
                Event::ToolCall {
                    name: "ab".into(),
                    args: None,
                    call_id: None,
                    side_effect: None,
                    read_only: None,
                    at_ms: at(2),
                },
                Event::ToolResult {
                    name: "ab".into(),
                    ok: true,
                    duration_ms: 0,
                    error: None,
                    result: None,
                    call_id: None,
                    at_ms: at(3),
                },
                Event::Cost {
                    tokens_in: 9,
                    tokens_out: 9,
                    wallclock_ms: 0,
                    provider: None,
                    usd: None,
                    at_ms: at(3),
                },
                Event::ToolCall {
                    name: "ab".into(),
                    args: None,
                    call_id: None,
                    side_effect: None,
                    read_only: None,
                    at_ms: at(4),
                },
            ],
            ..Trace::default()
        };
        estimate_costs(&mut recorded);
        assert_eq!(
            recorded.events.len(),
            6,
            "only the last call was not recorded"
        );
        assert!(matches!(
            recorded.events[5],
            Event::Cost {
                tokens_in: 11,
                tokens_out: 1,
                ..
            }
        ));
        // Estimated once: the second pass finds each call's cost after it.
        let before = trace.clone();
        estimate_costs(&mut trace);
        assert_eq!(trace, before);
    }
}
