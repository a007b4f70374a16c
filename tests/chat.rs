//! A regulator fed chat-completions requests and responses (a gateway's
//! view): the history is caught up without learning twice, the news is
//! learned once, spend is estimated where messages carry none, and a loop
//! is seen the same whether one regulator follows the conversation or a
//! fresh one reads each request.

use reins::chat::{self, estimate_tokens};
use reins::{Config, CostScope, DecisionKind, Event, Regulator};
use serde_json::{Value, json};

const T0: u64 = 1_732_000_000_000;

fn regulator(config: Config) -> Regulator {
    Regulator::new("alice", config).unwrap()
}

fn call(i: usize) -> Value {
    json!({"role": "assistant", "content": null, "tool_calls": [
        {"id": format!("c{i}"), "type": "function", "function": {"name": "search_orders", "arguments": "{\"q\":\"late\"}"}}
    ]})
}

fn result(i: usize) -> Value {
    json!({"role": "tool", "tool_call_id": format!("c{i}"), "content": "[]"})
}

/// A conversation where the agent searched `n` times and found nothing each time.
fn looping(n: usize) -> Vec<Value> {
    let mut m = vec![
        json!({"role": "system", "content": "You are a support agent."}),
        json!({"role": "user", "content": "Find my late orders"}),
    ];
    for i in 1..=n {
        m.push(call(i));
        m.push(result(i));
    }
    m
}

#[test]
fn history_ends_at_the_last_answer_and_carries_estimated_spend() {
    let m = json!([
        {"role": "user", "content": "abcdefgh"},
        {"role": "assistant", "content": "0123456789abcdef"},
        {"role": "user", "content": "again"},
    ]);
    let req = chat::request(&m, Some(T0), 1 << 20).unwrap();
    assert_eq!(req.history.len(), 3, "{:?}", req.history);
    assert!(
        matches!(&req.history[2], Event::Cost { tokens_in: 2, tokens_out: 4, at_ms: Some(t), .. } if *t == T0 - 1000),
        "the answer's cost: {:?}",
        req.history[2]
    );
    assert!(
        matches!(&req.history[0], Event::TurnStart { at_ms: Some(t), .. } if *t == T0 - 2000),
        "{:?}",
        req.history[0]
    );
    assert_eq!(
        req.news,
        vec![Event::TurnStart {
            message: "again".into(),
            at_ms: Some(T0)
        }]
    );
    // No answer yet: everything is news.
    let first = chat::request(&json!([{"role": "user", "content": "hi"}]), None, 1 << 20).unwrap();
    assert!(first.history.is_empty() && first.news.len() == 1);
    assert_eq!(estimate_tokens(9), 3);
}

#[test]
fn a_loop_is_seen_by_a_fresh_regulator_reading_each_request_as_by_one_that_follows() {
    let mut following = regulator(Config::default());
    for n in 0..=5 {
        let m = Value::Array(looping(n));
        let mut fresh = regulator(Config::default());
        fresh
            .chat_request(&m, Some(T0 + n as u64 * 10_000))
            .unwrap();
        following
            .chat_request(&m, Some(T0 + n as u64 * 10_000))
            .unwrap();
        assert_eq!(
            fresh.decide().kind(),
            following.decide().kind(),
            "after {n} searches"
        );
        let expected = match n {
            0..=2 => DecisionKind::Continue,
            3 | 4 => DecisionKind::ToolNudge,
            _ => DecisionKind::CircuitBreak,
        };
        assert_eq!(fresh.decide().kind(), expected, "after {n} searches");
        // The agent's next call, as the response that makes it.
        let body = json!({"choices": [{"message": call(n + 1)}], "usage": {"prompt_tokens": 50, "completion_tokens": 7}});
        following
            .chat_response(&body, Some(T0 + n as u64 * 10_000 + 500), 400)
            .unwrap();
    }
}

#[test]
fn the_history_teaches_the_memory_nothing_and_the_news_teaches_it_once() {
    let convo = |fix: Option<&str>| {
        let mut m = vec![
            json!({"role": "user", "content": "Make my auth module async"}),
            json!({"role": "assistant", "content": "Done: auth is async, with logging added."}),
            json!({"role": "user", "content": "Don't add logging."}),
            json!({"role": "assistant", "content": "Removed the logging."}),
        ];
        if let Some(f) = fix {
            m.push(json!({"role": "user", "content": f}));
        }
        Value::Array(m)
    };
    let mut r = regulator(Config::default());
    let before = r.export_memory(true);
    let revision = r.memory_revision();
    r.chat_request(&convo(None), Some(T0)).unwrap();
    assert_eq!(r.export_memory(true), before, "history learned again");
    assert_eq!(r.memory_revision(), revision);
    // The same conversation with a new correction at its end: that is learned.
    let mut r = regulator(Config::default());
    r.chat_request(&convo(Some("Stop adding logs.")), Some(T0))
        .unwrap();
    let texts: Vec<&str> = r.corrections().map(|c| c.text.as_str()).collect();
    assert_eq!(texts, ["Stop adding logs."], "only the news is filed");
}

#[test]
fn a_response_is_its_answer_tool_calls_and_reported_usage() {
    let mut r = regulator(Config::default());
    r.chat_request(
        &json!([{"role": "user", "content": "Find my late orders"}]),
        Some(T0),
    )
    .unwrap();
    let body = json!({"choices": [{"message": {"role": "assistant", "content": "Looking.", "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "search_orders", "arguments": "{}"}}
    ]}}], "usage": {"prompt_tokens": "120", "completion_tokens": 30}});
    r.chat_response(&body, Some(T0 + 900), 850).unwrap();
    let m = r.metrics();
    assert_eq!(m["reins.total_tokens_in"], 120.0, "a numeric string counts");
    assert_eq!(m["reins.total_tokens_out"], 30.0);
    assert_eq!(m["reins.total_wallclock_ms"], 850.0);
    assert_eq!(m["reins.tool_total_calls"], 1.0);
    // Without usage, the output is estimated from the text.
    r.chat_response(
        &json!({"choices": [{"message": {"content": "x".repeat(40)}}]}),
        None,
        0,
    )
    .unwrap();
    assert_eq!(r.metrics()["reins.total_tokens_out"], 40.0);
}

#[test]
fn bad_input_names_the_field_and_changes_nothing() {
    let mut r = regulator(Config::default());
    r.chat_request(&Value::Array(looping(2)), Some(T0)).unwrap();
    let before = r.export();
    let mut bad = looping(3);
    bad.push(json!({"role": "robot", "content": "beep"}));
    let e = r
        .chat_request(&Value::Array(bad), Some(T0 + 1))
        .unwrap_err();
    assert!(e.to_string().starts_with("messages[8].role"), "{e}");
    let e = r
        .chat_response(&json!({"choices": [{"message": "hi"}]}), None, 0)
        .unwrap_err();
    assert!(
        e.to_string().starts_with("response.choices[0].message"),
        "{e}"
    );
    assert_eq!(r.export(), before);
    assert!(
        chat::parse("messages", "[")
            .unwrap_err()
            .to_string()
            .starts_with("messages: must be JSON")
    );
}

#[test]
fn long_texts_are_clipped_not_refused() {
    let config = Config {
        max_text_bytes: 64,
        ..Config::default()
    };
    let mut r = regulator(config);
    let long = "é".repeat(100);
    r.chat_request(&json!([{"role": "user", "content": long}]), Some(T0))
        .unwrap();
    assert_eq!(r.metrics()["reins.turns"], 1.0);
}

#[test]
fn a_turn_scoped_budget_starts_over_with_each_user_turn() {
    let chat_turns = |scope| {
        let mut r = regulator(Config {
            cost_cap_tokens: 1_000,
            cost_cap_scope: scope,
            ..Config::default()
        });
        let mut kinds = Vec::new();
        for i in 0..4u64 {
            r.on_event(&Event::TurnStart {
                message: format!("Tell me about planet {i}"),
                at_ms: Some(T0 + i * 60_000),
            })
            .unwrap();
            r.on_event(&Event::Cost {
                tokens_in: 100,
                tokens_out: 400,
                wallclock_ms: 0,
                provider: None,
                usd: None,
                at_ms: Some(T0 + i * 60_000 + 1),
            })
            .unwrap();
            kinds.push(r.decide().kind());
        }
        kinds
    };
    use DecisionKind::{CircuitBreak as Break, Continue as Go};
    assert_eq!(chat_turns(CostScope::Session), [Go, Go, Break, Break]);
    assert_eq!(chat_turns(CostScope::Turn), [Go, Go, Go, Go]);
}

/// A request for no pandas, answered with pandas, then a tool result.
fn drifting_run() -> Vec<Value> {
    vec![
        json!({"role": "user", "content": "Parse orders.csv without pandas, only the csv module."}),
        json!({"role": "assistant", "content": "Here it is:\n```python\nimport pandas as pd\ndf = pd.read_csv('orders.csv')\n```", "tool_calls": [
            {"id": "r1", "type": "function", "function": {"name": "run_python", "arguments": "{\"file\":\"parse.py\"}"}}
        ]}),
        json!({"role": "tool", "tool_call_id": "r1", "content": "ok"}),
    ]
}

/// The decision after catching up equals the one a regulator that saw each
/// event as it happened gives, whether the last answer still stands (tool
/// results follow it) or a new user turn replaced it.
#[test]
fn catching_up_decides_as_following_every_event_did() {
    let mut then_user = drifting_run();
    then_user.push(json!({"role": "assistant", "content": "Parsed."}));
    then_user.push(json!({"role": "user", "content": "Now count the orders per country."}));
    for (name, messages) in [("answer stands", drifting_run()), ("new turn", then_user)] {
        let m = Value::Array(messages);
        let mut fresh = regulator(Config::default());
        fresh.chat_request(&m, Some(T0)).unwrap();
        let req = chat::request(&m, Some(T0), 1 << 20).unwrap();
        let mut direct = regulator(Config::default());
        for e in req.history.iter().chain(&req.news) {
            direct.on_event(e).unwrap();
        }
        assert_eq!(fresh.decide(), direct.decide(), "{name}");
        assert_eq!(fresh.drift_score(), direct.drift_score(), "{name}");
        if name == "answer stands" {
            assert_eq!(
                fresh.decide().kind(),
                DecisionKind::ScopeDrift,
                "{:?}",
                fresh.decide()
            );
        }
    }
}
