//! `scope_drift: false`: no answer is judged for drift, a pending warning
//! goes when the option is switched off, and an answer to a request read
//! while it was off is not judged after it is switched back on.

mod common;

use common::*;
use reins::{Config, DecisionKind, Regulator};

/// Warns by default: the answer uses what the request ruled out.
const TASK: &str = "Rewrite this loop in Python. Don't use numpy.";
const ANSWER: &str = "import numpy as np\nx = np.arange(10)\nprint(x.sum())";

fn off() -> Config {
    Config {
        scope_drift: false,
        ..Config::default()
    }
}

fn turn(r: &mut Regulator, task: &str, answer: &str) -> bool {
    start(r, task);
    complete(r, answer);
    r.decide().has(DecisionKind::ScopeDrift)
}

#[test]
fn off_no_answer_is_judged() {
    assert!(
        turn(&mut reg(Config::default()), TASK, ANSWER),
        "on, it warns"
    );
    let mut r = reg(off());
    assert!(!turn(&mut r, TASK, ANSWER));
    assert_eq!(r.drift_score(), None);
    // The rest of the regulator still works: a repeated request is still
    // filed as an implicit correction.
    start(&mut r, TASK);
    assert_eq!(r.corrections().count(), 1);
}

#[test]
fn off_no_tool_text_is_kept_for_anchoring() {
    let with_tools = |config: Config| {
        let mut r = reg(config);
        start(&mut r, "Find my late orders");
        r.tool_call("search_orders", None).unwrap();
        r.apply(reins::EventRef::ToolResult {
            name: "search_orders",
            ok: true,
            duration_ms: 5,
            result: Some("order 4821: late"),
            error: None,
            call_id: None,
            at_ms: None,
        })
        .unwrap();
        r.export()
    };
    assert!(with_tools(Config::default()).contains("order 4821: late"));
    assert!(!with_tools(off()).contains("order 4821"));
}

#[test]
fn switched_off_the_pending_warning_goes() {
    let mut r = reg(Config::default());
    assert!(turn(&mut r, TASK, ANSWER));
    r.set_config(off()).unwrap();
    assert!(r.decide().is_continue());
    assert_eq!(r.drift_score(), None);
}

#[test]
fn switched_on_mid_turn_it_judges_from_the_next_request() {
    // Judged without what the request says, the answer to a plain yes
    // reports a change nobody asked for: that must not warn.
    let (yes, done) = (
        "Yes, go ahead",
        "Done: I've moved you onto flight AF1240 tomorrow at 9:40 and \
         refunded the difference of $42.",
    );
    let mut r = reg(off());
    start(&mut r, yes);
    r.set_config(Config::default()).unwrap();
    complete(&mut r, done);
    assert!(r.decide().is_continue());
    assert_eq!(r.drift_score(), None, "not judged at all");
    // From the next request on, answers are judged again.
    assert!(turn(&mut r, TASK, ANSWER));
}

#[test]
fn the_option_and_the_unread_request_survive_export_and_import() {
    let mut r = reg(off());
    start(&mut r, TASK);
    let text = r.export();
    assert!(text.contains("\"scopeDrift\":false"));
    let mut back = Regulator::import(&text).unwrap();
    assert!(!back.config().scope_drift);
    assert_eq!(back.export(), text, "lossless");
    // Imported under drift switched on, the request read while it was off
    // is still not judged.
    back.set_config(Config::default()).unwrap();
    complete(&mut back, ANSWER);
    assert!(back.decide().is_continue());
    assert!(turn(&mut back, TASK, ANSWER));
}

#[test]
fn the_option_is_read_from_json_with_errors_that_name_it() {
    let c = Config::from_json(r#"{"scopeDrift":false}"#).unwrap();
    assert!(!c.scope_drift);
    assert!(
        Config::from_json("{}").unwrap().scope_drift,
        "on by default"
    );
    let e = Config::from_json(r#"{"scopeDrift":"no"}"#).unwrap_err();
    assert!(e.to_string().contains("scopeDrift"), "{e}");
    let e = Config::from_json(r#"{"scopedrift":false}"#).unwrap_err();
    assert!(e.to_string().contains("did you mean scopeDrift?"), "{e}");
}
