//! Calls over a whole session: which task a message belongs to, what counts
//! as the user correcting or pushing back, and when corrections make a
//! pattern.

mod common;

use common::*;
use reins::{Config, DecisionKind, Regulator, Verdict};

const MINUTE: u64 = 60_000;

/// Plays (message, answer) turns 40 s apart, each answered 5 s after it.
fn play(r: &mut Regulator, turns: &[(&str, &str)]) {
    for (i, (msg, answer)) in (0u64..).zip(turns) {
        start_at(r, msg, i * 40_000);
        complete_at(r, answer, i * 40_000 + 5_000);
    }
}

/// Plays (time, message, answer) turns, each answered 4 s after it.
fn play_timed(r: &mut Regulator, turns: &[(u64, &str, &str)]) {
    for &(at, msg, answer) in turns {
        start_at(r, msg, at);
        complete_at(r, answer, at + 4_000);
    }
}

fn incident_turns(r: &Regulator) -> Option<Vec<u64>> {
    r.decide().concerns.into_iter().find_map(|c| match c {
        Verdict::Incident { evidence_turns, .. } => Some(evidence_turns),
        _ => None,
    })
}

#[test]
fn pushback_pairs_within_an_episode_of_quick_follow_ups() {
    let run = |second: &str, at: u64| {
        let mut r = reg(Config::default());
        start_at(
            &mut r,
            "hi, what's the status of my refund for order 55190",
            0,
        );
        complete_at(
            &mut r,
            "Your refund of £19.99 was processed on 2 March.",
            1000,
        );
        correction(&mut r, "19.99? I returned both items, it should be 54.98");
        // Nothing shared with the refund request, yet the same piece of work
        // when it follows a minute later.
        start_at(&mut r, "can you check what happened to the kettle", MINUTE);
        complete_at(
            &mut r,
            "The kettle is in inspection for 10 days.",
            MINUTE + 1000,
        );
        start_at(&mut r, second, at);
        incident_turns(&r)
    };
    let again = "inspection for 10 days?? that doesn't answer anything";
    assert_eq!(run(again, MINUTE + 30_000), Some(vec![1, 3]));
    assert_eq!(
        run(again, MINUTE + 20 * MINUTE),
        None,
        "another episode, another topic"
    );
    let announced = "separate thing: that doesn't answer anything about my other order";
    assert_eq!(run(announced, MINUTE + 30_000), None);
}

#[test]
fn an_explicit_correction_is_pushback_once_per_answer() {
    let mut r = reg(Config::default());
    start_at(
        &mut r,
        "cover letter for a data analyst role, max 200 words",
        0,
    );
    complete_at(&mut r, "Here's a draft of about 310 words.", 1000);
    correction(&mut r, "way over the 200 word limit");
    assert_eq!(
        incident_turns(&r),
        None,
        "one unhappy answer is no incident"
    );
    // The same complaint typed as the next message is the same answer's.
    start_at(&mut r, "way over the 200 word limit, it's wrong", 30_000);
    assert_eq!(incident_turns(&r), None, "counted once per answer");
    complete_at(&mut r, "Down to 205 words.", 40_000);
    start_at(&mut r, "still not under 200, that's wrong again", 70_000);
    assert_eq!(incident_turns(&r), Some(vec![1, 3]));
}

#[test]
fn still_the_thing_objected_to_is_pushback() {
    let mut r = reg(Config::default());
    start_at(
        &mut r,
        "write a 4-line poem for my grandma's 90th birthday",
        0,
    );
    complete_at(&mut r, "Here's a draft: six lines about her roses.", 1000);
    start_at(&mut r, "it's 6 lines, I said 4", 60_000);
    complete_at(&mut r, "Tightened it and swapped the rhymes.", 70_000);
    start_at(&mut r, "still 6 lines??", 90_000);
    assert_eq!(incident_turns(&r), Some(vec![2, 3]));
}

#[test]
fn a_long_message_repeating_a_short_requests_words_is_no_retry() {
    let mut r = reg(Config::default());
    start_at(&mut r, "cancel my upcoming flights", 0);
    complete_at(
        &mut r,
        "I can cancel them once I have the reservation IDs.",
        1000,
    );
    start_at(
        &mut r,
        "I understand. In the meantime, is there any way to start the cancellation \
         for flights that have only one passenger on the reservation?",
        5000,
    );
    assert_eq!(r.corrections().count(), 0);

    let mut r = reg(Config::default());
    start_at(&mut r, "nginx: redirect all http to https", 0);
    complete_at(
        &mut r,
        "First you'll need a certificate from certbot.",
        1000,
    );
    start_at(
        &mut r,
        "nginx config to force https redirect port 80",
        10_000,
    );
    complete_at(
        &mut r,
        "Use `rewrite ^ https://$host$request_uri? permanent;`.",
        11_000,
    );
    // The third wording echoes the first two more than the second alone.
    start_at(
        &mut r,
        "just the server block for port 80 that sends everything to https",
        20_000,
    );
    assert_eq!(r.corrections().count(), 2, "two retries, each filed");
}

#[test]
fn thanks_insists_on_nothing() {
    let run = |third: &str| {
        let mut r = reg(Config::default());
        start_at(&mut r, "add zod to the project", 0);
        complete_at(&mut r, "Installed zod with npm install zod.", 1000);
        start_at(&mut r, "add vitest too, with pnpm", 30_000);
        complete_at(&mut r, "Installed vitest as a dev dependency.", 40_000);
        start_at(&mut r, third, 60_000);
        r.corrections().count()
    };
    assert_eq!(run("pnpm please. it has to land in the pnpm lockfile"), 2);
    assert_eq!(run("thanks! I'll redo both with pnpm myself"), 0);
}

#[test]
fn inferred_corrections_of_different_things_make_no_pattern() {
    let mut r = reg(Config::default());
    let turns = [
        (
            "write the notice for Friday's outing, meet at two",
            "Meet at three at the south gate. Signed: the HR team",
        ),
        (
            "that's wrong, it's two o'clock, not three",
            "Fixed: meet at two. Signed: the HR team",
        ),
        (
            "signed by the admin office, not the HR team",
            "Signed by the admin office now.",
        ),
        (
            "wrong title, too long. just 'Friday outing'",
            "Title changed.",
        ),
    ];
    for (i, (ask, answer)) in turns.iter().enumerate() {
        let t = i as u64 * MINUTE;
        start_at(&mut r, ask, t);
        complete_at(&mut r, answer, t + 1000);
    }
    let heard: Vec<String> = r.corrections().map(|c| c.text.clone()).collect();
    assert!(heard.len() >= 3, "each fix is heard: {heard:?}");
    assert!(
        !r.decide().has(DecisionKind::Procedural),
        "three things, once each"
    );
}

#[test]
fn corrections_under_follow_up_requests_of_one_episode_make_a_pattern() {
    // Three follow-up requests of one piece of work, each answer corrected
    // through the app's control: one task corrected three times.
    let run = |gap: u64| {
        let mut r = reg(Config::default());
        let turns = [
            (
                "bar chart of monthly signups from signups.csv",
                "y axis should start at zero",
            ),
            (
                "and put the value on top of each bar",
                "labels overlap the title",
            ),
            (
                "add 2023 next to it as a second series",
                "use our brand colours",
            ),
        ];
        let mut t = 0;
        for (ask, fix) in turns {
            start_at(&mut r, ask, t);
            complete_at(&mut r, "Saved signups.png.", t + 1000);
            correction(&mut r, fix);
            t += gap;
        }
        let topics: std::collections::BTreeSet<String> =
            r.corrections().map(|c| c.topic.clone()).collect();
        assert_eq!(topics.len(), 3, "filed under three requests");
        procedural_count(&r.decide())
    };
    assert_eq!(run(MINUTE), Some(3));
    assert_eq!(
        run(60 * MINUTE),
        None,
        "hours apart, each request is its own"
    );
}

#[test]
fn one_house_style_corrected_under_three_requests_in_three_words_is_a_rule() {
    // "km", "km/h", "metric": three words, one thing the user keeps asking for.
    let mut r = reg(Config::default());
    let turns = [
        (
            "average trip distance per city from rides.csv",
            "Berlin 2.31 mi, Hamburg 2.87 mi.",
        ),
        (
            "miles? we're in germany lol. km please",
            "Berlin 3.72 km, Hamburg 4.62 km.",
        ),
        (
            "now top speed per vehicle type",
            "moped 31.1 mph, bike 28.6 mph.",
        ),
        ("km/h like before pls", "moped 50.1 km/h, bike 46.0 km/h."),
        ("plot total distance per week", "Saved the chart, in miles."),
        ("metric. redo the axis", "Redrew it in kilometres."),
    ];
    play(&mut r, &turns);
    let rules: Vec<_> = r.learned_rules().collect();
    assert_eq!(rules.len(), 1, "{rules:?}");
    assert_eq!(rules[0].about[0], "metric");
    assert_eq!(rules[0].examples.len(), 3);

    // The same requests with answers that already follow the style insist
    // on nothing.
    let mut r = reg(Config::default());
    let followed = turns.map(|(msg, _)| (msg, "Done, in km and km/h as always."));
    play(&mut r, &followed);
    assert_eq!(r.learned_rules().count(), 0);
}

#[test]
fn again_insists_even_after_an_answer_that_asked_something() {
    let mut r = reg(Config::default());
    let turns = [
        ("add httpx to the project pls", "Installed httpx with pip."),
        (
            "we manage deps with uv, not pip. uv add",
            "Ran uv add httpx.",
        ),
        (
            "next: pytest and pytest-asyncio",
            "Installed both. Want me to add a conftest.py?",
        ),
        (
            "uv again please... uv add --dev",
            "Added both with uv add --dev.",
        ),
        (
            "write a test for fetch_status and run it",
            "It passes (1 passed).",
        ),
        (
            "run it via uv run so it uses the locked env",
            "Ran uv run pytest: 1 passed.",
        ),
    ];
    play(&mut r, &turns);
    let rules: Vec<_> = r.learned_rules().collect();
    assert!(
        rules.iter().any(|l| l.about.iter().any(|w| w == "uv")),
        "{rules:?}"
    );
}

#[test]
fn quick_retries_in_other_words_are_corrections() {
    let run = |third_at: u64| {
        let mut r = reg(Config::default());
        start_at(
            &mut r,
            "how do i undo my last git commit but keep my changes",
            0,
        );
        complete_at(&mut r, "Run `git reset --hard HEAD~1` to drop it.", 3_000);
        start_at(
            &mut r,
            "undo last commit but keep the changes in my working dir?",
            13_000,
        );
        complete_at(&mut r, "Use `git revert HEAD`, which is safe.", 16_000);
        // Hardly a word of the earlier requests, nothing from the answer.
        start_at(
            &mut r,
            "i want to uncommit the last commit and keep my edits",
            third_at,
        );
        r.corrections().count()
    };
    assert_eq!(run(33_000), 2, "a glance, and the same question again");
    assert_eq!(run(16_000 + 5 * MINUTE), 1, "minutes later: a new question");
}

#[test]
fn a_follow_up_that_builds_on_the_answer_is_no_retry() {
    let mut r = reg(Config::default());
    start_at(
        &mut r,
        "how do i undo my last git commit but keep my changes",
        0,
    );
    complete_at(
        &mut r,
        "`git reset --soft HEAD~1` moves the branch back and keeps your changes staged.",
        3_000,
    );
    start_at(
        &mut r,
        "and if that commit was already pushed to the branch?",
        12_000,
    );
    assert_eq!(r.corrections().count(), 0);
}

#[test]
fn a_new_request_minutes_later_naming_its_subject_again_corrects_nothing() {
    let mut r = reg(Config::default());
    let turns = [
        (
            0,
            "chart weekly revenue for Q1",
            "Saved q1_weekly_revenue.png.",
        ),
        (
            35_000,
            "axis labels -> 2024-01-01 style",
            "Updated: the labels read 2024-01-01 on.",
        ),
        // Twelve minutes on, "revenue" again: the subject, not an insistence.
        (
            12 * MINUTE,
            "now a summary table for the board deck: month end, revenue, growth",
            "Here is the table.",
        ),
    ];
    play_timed(&mut r, &turns);
    let heard: Vec<String> = r.corrections().map(|c| c.text.clone()).collect();
    assert!(
        heard.iter().all(|t| !t.contains("summary table")),
        "{heard:?}"
    );
}

#[test]
fn a_word_named_again_late_in_a_cjk_message_insists() {
    // Six character pairs come before 人民币: each message is read far enough.
    let mut r = reg(Config::default());
    let turns = [
        (
            0,
            "帮我估一下东京5天自由行的预算，两个人",
            "两人大约需要 $2,400。",
        ),
        (30_000, "换成人民币", "约合人民币 17,300 元。"),
        (
            5 * MINUTE,
            "7天的JR Pass值不值得买？",
            "JR Pass 现在是 50,000 日元，不太划算。",
        ),
    ];
    play_timed(&mut r, &turns);
    start_at(&mut r, "日元我看不懂，说人民币！", 5 * MINUTE + 40_000);
    let heard: Vec<String> = r.corrections().map(|c| c.text.clone()).collect();
    assert!(
        heard.iter().any(|t| t.contains("日元我看不懂")),
        "{heard:?}"
    );
}

#[test]
fn the_user_naming_the_same_error_makes_turns_fail() {
    let mut r = reg(Config::default());
    start_at(&mut r, "the payments sandbox client returns 401, fix it", 0);
    complete_at(
        &mut r,
        "I switched the key to a Bearer header, which should fix the 401.",
        4_000,
    );
    start_at(
        &mut r,
        "still 401 Unauthorized when i run npm run sandbox",
        60_000,
    );
    complete_at(
        &mut r,
        "It read the live key; I fixed the variable name, so the 401 should be gone.",
        64_000,
    );
    start_at(&mut r, "nope. 401 again, same thing", 90_000);
    assert!(break_reason(&r.decide()).is_none(), "two turns so far");
    for event in [
        r#"{"type":"toolCall","name":"bash","args":{"command":"npm run sandbox -- --ping"},"callId":"c1"}"#,
        r#"{"type":"toolResult","name":"bash","ok":false,"callId":"c1",
            "result":"POST https://sandbox.pay.example/v1/ping -> HTTP 401 Unauthorized"}"#,
    ] {
        r.on_event(&reins::Event::from_json(event).unwrap())
            .unwrap();
    }
    complete_at(
        &mut r,
        "Both the client and curl get 401 Unauthorized; the key looks revoked.",
        96_000,
    );
    assert!(
        matches!(
            break_reason(&r.decide()),
            Some(reins::BreakReason::RepeatedFailure { evidence_turns, .. }) if evidence_turns == &[1, 2, 3]
        ),
        "{:?}",
        r.decide()
    );
}

#[test]
fn a_request_without_words_still_has_a_topic() {
    let mut r = reg(Config::default());
    start_at(&mut r, "∫ x·e^x dx", 0);
    assert!(r.topic().starts_with('#'), "{}", r.topic());
    complete_at(&mut r, "x·e^x − e^x + C", 4_000);
    correction(&mut r, "just a hint please, I have to solve these myself");
    assert_eq!(r.corrections().count(), 1, "filed under that request");
    // Another such request is another topic; the same one again is the same.
    let first = r.topic().to_string();
    start_at(&mut r, "lim x→0 sin(3x)/x", 60_000);
    assert_ne!(r.topic(), first);
    start_at(&mut r, "∫ x·e^x   dx", 10 * MINUTE);
    assert_eq!(r.topic(), first);
}
