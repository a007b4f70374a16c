//! A simple loop rule, independent of reins, to count the loops reins
//! misses on real runs: the same call (name and arguments) returning the
//! same output three times within six calls, or the same state-changing call
//! succeeding twice with the same arguments. The state-changing tools are
//! listed by hand for the recorded domains (reins classifies by itself).

use serde_json::Value;

use reins::Event;

/// Tools of the recorded domains that change a booking, order or account.
const CHANGES: &[&str] = &[
    "book_reservation",
    "cancel_reservation",
    "update_reservation_flights",
    "update_reservation_baggages",
    "update_reservation_passengers",
    "send_certificate",
    "transfer_to_human_agents",
    "cancel_pending_order",
    "exchange_delivered_order_items",
    "return_delivered_order_items",
    "modify_pending_order_address",
    "modify_pending_order_items",
    "modify_pending_order_payment",
    "modify_user_address",
];

/// One loop the rule found.
pub struct Loop {
    /// Event index of the call that started it.
    pub from: usize,
    /// Event index of the result that completed it.
    pub at: usize,
    pub tool: String,
    pub rule: &'static str,
}

struct Call {
    event: usize,
    name: String,
    args: String,
    id: Option<String>,
    result: Option<(bool, String)>,
}

/// The first loop of each kind in a run (at most one per rule).
pub fn loops(events: &[Event]) -> Vec<Loop> {
    let mut calls: Vec<Call> = Vec::new();
    let mut found: Vec<Loop> = Vec::new();
    for (i, e) in events.iter().enumerate() {
        match e {
            Event::ToolCall {
                name,
                args,
                call_id,
                ..
            } => calls.push(Call {
                event: i,
                name: name.clone(),
                // serde_json's maps are sorted, so this is canonical.
                args: args.as_ref().map(Value::to_string).unwrap_or_default(),
                id: call_id.clone(),
                result: None,
            }),
            Event::ToolResult {
                name,
                ok,
                result,
                error,
                call_id,
                ..
            } => {
                let k = calls.iter().position(|c| {
                    c.result.is_none()
                        && match call_id {
                            Some(id) => c.id.as_ref() == Some(id),
                            None => &c.name == name,
                        }
                });
                let Some(k) = k else { continue };
                let text = result.clone().or(error.clone()).unwrap_or_default();
                if let Some(c) = calls.get_mut(k) {
                    c.result = Some((*ok, text));
                }
                let Some(c) = calls.get(k) else { continue };
                let same = |d: &&Call| d.name == c.name && d.args == c.args;
                let window = calls.get(k.saturating_sub(5)..=k).unwrap_or(&[]);
                let repeats = window
                    .iter()
                    .filter(same)
                    .filter(|d| d.result == c.result)
                    .count();
                if repeats >= 3 && !found.iter().any(|l| l.rule == "repeat") {
                    let from = window.iter().find(same).map_or(c.event, |d| d.event);
                    found.push(Loop {
                        from,
                        at: i,
                        tool: c.name.clone(),
                        rule: "repeat",
                    });
                }
                let done = |d: &&Call| same(d) && d.result.as_ref().is_some_and(|r| r.0);
                if *ok
                    && CHANGES.contains(&c.name.as_str())
                    && calls.iter().take(k).filter(done).count() >= 1
                    && !found.iter().any(|l| l.rule == "side effect")
                {
                    let from = calls.iter().find(done).map_or(c.event, |d| d.event);
                    found.push(Loop {
                        from,
                        at: i,
                        tool: c.name.clone(),
                        rule: "side effect",
                    });
                }
            }
            _ => {}
        }
    }
    found
}
