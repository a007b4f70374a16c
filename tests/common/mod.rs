//! Helpers shared by the integration tests.
#![allow(dead_code)]

use reins::{BreakReason, Config, Decision, DecisionKind, Event, Regulator, Verdict};

pub fn reg(config: Config) -> Regulator {
    Regulator::new("user_42", config).expect("valid config")
}

pub fn start(r: &mut Regulator, msg: &str) {
    r.turn_start(msg, None).unwrap();
}

pub fn start_at(r: &mut Regulator, msg: &str, at: u64) {
    r.on_event(&Event::TurnStart {
        message: msg.into(),
        at_ms: Some(at),
    })
    .unwrap();
}

pub fn complete(r: &mut Regulator, resp: &str) {
    r.turn_complete(resp, None).unwrap();
}

pub fn complete_at(r: &mut Regulator, resp: &str, at: u64) {
    r.on_event(&Event::TurnComplete {
        response: resp.into(),
        at_ms: Some(at),
    })
    .unwrap();
}

pub fn out_tokens(r: &mut Regulator, n: u64) {
    r.cost(0, n, 0).unwrap();
}

pub fn correction(r: &mut Regulator, msg: &str) {
    r.user_correction(msg).unwrap();
}

pub fn quality(r: &mut Regulator, q: f64) {
    r.quality_feedback(q).unwrap();
}

pub fn procedural_count(d: &Decision) -> Option<u32> {
    d.concerns.iter().find_map(|c| match c {
        Verdict::Procedural { patterns } => patterns.first().map(|p| p.count),
        _ => None,
    })
}

pub fn break_reason(d: &Decision) -> Option<&BreakReason> {
    d.break_reason()
}

pub fn kinds(d: &Decision) -> Vec<DecisionKind> {
    d.concerns.iter().map(Verdict::kind).collect()
}
