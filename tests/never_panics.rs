//! Arbitrary input never panics the core (a panic in wasm kills the instance):
//! every call either succeeds or returns an error, and the regulator keeps working.

use proptest::prelude::*;
use reins::{Config, Event, EventRef, Regulator, text::KeywordBag};

fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z' ’_.,0-9-]{0,80}",
        "[\\p{Han}\\p{Hiragana}\\p{Hangul}a-z ，。]{0,40}",
        "[\\u{300}-\\u{36f}a-zσςΣİı ]{0,30}",
    ]
}

fn any_f64() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>(),
        -20.0f64..1.5,
        Just(f64::NAN),
        Just(f64::NEG_INFINITY),
        Just(-0.0)
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_calls_never_panic(
        texts in proptest::collection::vec(any_text(), 1..12),
        nums in proptest::collection::vec(any_f64(), 1..12),
        ints in proptest::collection::vec(any::<u64>(), 1..12),
    ) {
        let mut r = Regulator::new("u", Config { implicit_correction_window_ms: Some(1000), ..Config::default() }).unwrap();
        for (i, t) in texts.iter().enumerate() {
            let n = nums[i % nums.len()];
            let k = ints[i % ints.len()];
            let at = Some(k % 10_000);
            let _ = r.apply(EventRef::TurnStart { message: t, at_ms: at });
            let _ = r.apply(EventRef::Token { logprob: Some(n), at_ms: None });
            let _ = r.apply(EventRef::Tokens { logprobs: &nums, unavailable: k, at_ms: None });
            let _ = r.apply(EventRef::TurnComplete { response: t, at_ms: Some(k) });
            let _ = r.apply(EventRef::Cost { tokens_in: k, tokens_out: k, wallclock_ms: k, provider: Some(t), usd: Some(n), at_ms: None });
            let _ = r.apply(EventRef::QualityFeedback { quality: n, at_ms: None });
            let _ = r.apply(EventRef::UserCorrection { message: t, corrects_last: k % 2 == 0, at_ms: at });
            let _ = r.apply(EventRef::ToolCall { name: t, args: None, call_id: Some(t), at_ms: None });
            let _ = r.apply(EventRef::ToolResult { name: t, ok: k % 3 == 0, duration_ms: k, error: Some(t), result: Some(t), call_id: None, at_ms: None });
            let _ = r.decide();
            let _ = r.inject_corrections(t);
            let _ = KeywordBag::from_text(t);
            let _ = Event::from_json(t);
            let _ = Regulator::import(t);
            let _ = r.merge(t);
        }
        let back = Regulator::import(&r.export()).unwrap();
        prop_assert_eq!(back.decide(), r.decide());
        r.turn_start("still alive", None).unwrap();
    }
}
