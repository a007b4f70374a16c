//! Tool calls judged the way agents make them, through the public API:
//! steps, writes, repeated actions, and a finding that stays right across
//! export/import and `set_config`.

use serde_json::json;

use reins::{Config, DecisionKind, Event, LoopPattern, Regulator, Verdict};

fn reg() -> Regulator {
    let mut r = Regulator::new("u", Config::default()).unwrap();
    r.turn_start("fix the failing test", Some(1)).unwrap();
    r
}

fn call(r: &mut Regulator, name: &str, args: serde_json::Value, id: &str) {
    r.on_event(
        &Event::from_value(json!({"type": "toolCall", "name": name, "args": args, "callId": id}))
            .unwrap(),
    )
    .unwrap();
}

fn result(r: &mut Regulator, name: &str, ok: bool, text: &str, id: &str) {
    r.on_event(
        &Event::from_value(
            json!({"type": "toolResult", "name": name, "ok": ok, "result": text, "callId": id}),
        )
        .unwrap(),
    )
    .unwrap();
}

fn loop_pattern(r: &Regulator) -> Option<(bool, LoopPattern)> {
    r.decide().concerns.into_iter().find_map(|v| match v {
        Verdict::CircuitBreak {
            reason: reins::BreakReason::ToolLoop { pattern, .. },
            ..
        } => Some((true, pattern)),
        Verdict::ToolNudge { pattern, .. } => Some((false, pattern)),
        _ => None,
    })
}

#[test]
fn silent_shell_writes_are_progress_and_new_errors_are_learning() {
    let mut r = reg();
    for (i, cmd) in [
        "cat > repro.py <<'EOF'\nprint(1)\nEOF",
        "sed -i 's/a/b/' src/lib.py",
        "echo 'x = 1' >> settings.py",
        "cat <<'EOF' > repro.py\nprint(2)\nEOF",
        "sed -i 's/b/c/' src/lib.py",
        "printf 'y\\n' >> settings.py",
    ]
    .iter()
    .enumerate()
    {
        call(&mut r, "bash", json!({ "command": cmd }), &format!("w{i}"));
        result(&mut r, "bash", true, "", &format!("w{i}"));
    }
    assert_eq!(loop_pattern(&r), None, "six silent writes");
    for (i, err) in ["NameError: x", "ImportError: y", "KeyError: 'z'"]
        .iter()
        .enumerate()
    {
        call(
            &mut r,
            "bash",
            json!({ "command": format!("python repro{i}.py") }),
            &format!("e{i}"),
        );
        result(&mut r, "bash", false, err, &format!("e{i}"));
    }
    assert_eq!(loop_pattern(&r), None, "three different errors");
    for i in 0..3 {
        call(
            &mut r,
            "bash",
            json!({ "command": "python repro.py" }),
            &format!("s{i}"),
        );
        result(&mut r, "bash", false, "KeyError: 'z'", &format!("s{i}"));
    }
    // The same error four times (the last three from the same call): a nudge.
    assert_eq!(loop_pattern(&r), Some((false, LoopPattern::FailureStreak)));
}

#[test]
fn a_nudge_survives_export_and_import_and_follows_set_config() {
    let mut r = reg();
    for i in 0..3 {
        call(
            &mut r,
            "search_orders",
            json!({ "q": format!("late {i}") }),
            &format!("c{i}"),
        );
        result(&mut r, "search_orders", true, "[]", &format!("c{i}"));
    }
    assert_eq!(loop_pattern(&r), Some((false, LoopPattern::NoProgress)));
    let back = Regulator::import(&r.export()).unwrap();
    assert_eq!(back.decide(), r.decide());
    assert_eq!(back.export(), r.export());
    let mut patient = r.config().clone();
    patient.tool_nudge_threshold = 4;
    r.set_config(patient).unwrap();
    assert!(
        !r.decide().has(DecisionKind::ToolNudge),
        "the new threshold applies at once"
    );
}

#[test]
fn a_batch_waits_for_its_results_and_an_action_repeats_once_at_most() {
    let mut r = reg();
    for i in 0..6 {
        call(
            &mut r,
            "get_order_details",
            json!({ "order_id": format!("#W{i}") }),
            &format!("b{i}"),
        );
    }
    for i in 0..6 {
        assert_eq!(loop_pattern(&r), None);
        result(
            &mut r,
            "get_order_details",
            true,
            "{\"status\": \"delivered\"}",
            &format!("b{i}"),
        );
    }
    assert_eq!(loop_pattern(&r), None, "six orders, all delivered");
    call(
        &mut r,
        "send_certificate",
        json!({ "user_id": "u1", "amount": 50 }),
        "a1",
    );
    result(
        &mut r,
        "send_certificate",
        true,
        "{\"certificate_id\": \"cert_9f3k21\"}",
        "a1",
    );
    assert_eq!(loop_pattern(&r), None);
    r.turn_start("and the other thing", Some(2)).unwrap();
    call(
        &mut r,
        "send_certificate",
        json!({ "amount": 50, "user_id": "u1" }),
        "a2",
    );
    result(
        &mut r,
        "send_certificate",
        true,
        "{\"certificate_id\": \"cert_0x7p55\"}",
        "a2",
    );
    assert_eq!(
        loop_pattern(&r),
        Some((true, LoopPattern::RepeatedSideEffect)),
        "the same certificate again, in a later turn"
    );
}
