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
            let _ = r.apply(EventRef::ToolCall { name: t, args: None, call_id: Some(t), effect: None, at_ms: None });
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

/// Pieces of the structures the drift detector parses (fences, signatures,
/// SQL aliases, versions, quotes, numbers, openers, comments), with
/// multi-byte characters next to them: slicing bugs show up here.
const PIECES: &[&str] = &[
    "git cherry-pick ",
    "撤销",
    "インストール ",
    "squash ",
    "~=size ",
    "```python\n",
    "```\n",
    "```sql\n",
    "```bash\n",
    "def f(a, b=1):\n",
    "def f(İ, ß):\n",
    "function g(x) {\n",
    "    return x\n",
    "    if x:\n",
    "x = 1\n",
    "tmp += 2\n",
    "for v in xs:\n",
    "SELECT a AS İd, b As ß FROM t\n",
    " AS ",
    "import requests\n",
    "from pandas import X\n",
    "require('lodash')\n",
    "import x from 'y'\n",
    "pip install ",
    "python 3.",
    "3.8-compatible",
    "Python 3.8",
    "match p:\n    case 1:\n",
    "list[int]",
    "| None",
    ":=",
    "keep the ",
    "don't ",
    "no ",
    "names",
    "amounts",
    "dates",
    "logic",
    "signature",
    "unchanged",
    "must stay",
    "bleiben",
    "“",
    "”",
    "\"",
    "«",
    "»",
    "„",
    "‚",
    "'",
    "`",
    "€1.240,50",
    "15.03.2024",
    "1,240",
    "12",
    "には",
    "要",
    "如果",
    "To ",
    "For ",
    "Para ",
    "Чтобы ",
    "!",
    "¡Claro! ",
    "Sure! ",
    "-- Also ",
    "# also ",
    "// 另外",
    "sin dependencias",
    "no jargon",
    "OAuth REST HTTP JSON",
    "over (",
    "UTC_TIMESTAMP",
    "useState",
    "apt-get",
    "°F",
    "in Go,",
    "yes or no",
    "no metaphors",
    "is like a",
    "Dear Sir",
    "informal",
    "rename",
    "done",
    "has been",
    "non-stop",
    "İstanbul",
    "ǅ",
    "\u{300}",
    "σς",
    " ",
    "\n",
    ",",
    ".",
    ":",
    "a",
    "ü",
    "日本",
    "é",
];

/// Rules a request can set, so the answer-side checks run.
const RULES: &[&str] = &[
    "Keep the variable names. ",
    "Don't change the logic. ",
    "Standard library only. ",
    "Don't touch the amounts: ",
    "Rename it. ",
    "It must run on Python 3.8. ",
    "No jargon. ",
    "No metaphors. ",
    "Nothing formal. ",
    "Just yes or no: ",
    "Don't use window functions. ",
    "Keep the signature. ",
    "Don't translate “İß”. ",
    "The return on the 22nd must stay. ",
    "In under 99999 words, ",
    "Give me three İ bullet points, top 5, ",
    "In a single paragraph, no bullet points, plain text, no formulas. ",
    "Leave everything else as is: “İ 12.4 % 1,000”. ",
    "Make it #1677ff, TZ=ü/İ. ",
    "Write the ü section. Don't mention prices. ",
    "Is there parking? When is my refund? Wi-Fi 无线网 ",
    "Réponds en anglais. ",
];

/// Code lines, non-ASCII next to what the code checks cut at.
const CODE: &[&str] = &[
    "SELECT İa AS ßb, c AS d FROM t\n",
    "def ǅ(İ, ß=1):\n",
    "    return İ\n",
    "İx = 1\n",
    "for ü in xs:\n",
    "    if ü: pass\n",
    "import requests\n",
    "from ü import x\n",
    "const a = require('ü')\n",
    "match p:\n    case 1:\n",
    "# Also İ ü cache\n",
    "-- also partition\n",
    "x: list[int] | None = None\n",
    "ROW_NUMBER() OVER (PARTITION BY a)\n",
    "\"\"\"doc\n",
    "\"\"\"\n",
    "}\n",
    "## İ heading\n",
    "| a | b |\n|---|---|\n",
    "- ü item\n1. second\n",
    "Var(X) = E[(X − μ)²]\n",
    "I've switched you to ü Plus (+€10/month). 300元 R$ 49,90\n",
];

fn pieced() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(proptest::sample::select(RULES), 0..4),
        proptest::collection::vec(proptest::sample::select(PIECES), 0..20),
        proptest::collection::vec(proptest::sample::select(CODE), 0..10),
        proptest::sample::select(&["", "python", "sql", "bash", "İ"][..]),
    )
        .prop_map(|(rules, prose, code, tag)| {
            format!(
                "{}{}\n```{tag}\n{}```\n{}",
                rules.concat(),
                prose.concat(),
                code.concat(),
                prose.concat()
            )
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn drift_parsing_never_panics(task in pieced(), history in pieced(), response in pieced()) {
        let mut r = Regulator::new("u", Config::default()).unwrap();
        r.turn_start(&history, None).unwrap();
        r.turn_complete("ok", None).unwrap();
        r.turn_start(&task, None).unwrap();
        r.turn_complete(&response, None).unwrap();
        let _ = r.decide();
    }
}

/// Pieces of what the marker rules look for, to reach their code paths with
/// odd neighbours: contrasts, openers, failure words, CJK and width forms,
/// spaced letters, quotes and sentence ends.
fn marker_text() -> impl Strategy<Value = String> {
    const PIECES: &[&str] = &[
        ", not ",
        " instead of ",
        "，不是",
        "ではなく",
        "别用 ",
        "I don't want ",
        "there's no `",
        " não existe",
        "Great, now ",
        "still ",
        " again ",
        "KeyError",
        " the 503 ",
        "Wrong. ",
        "lol no. ",
        "いや　違う",
        "ﾏﾀﾞｴﾗｰ",
        "ＷＲＯＮＧ",
        "w r o n g   a g a i n",
        "Never ",
        "以后都用",
        "?",
        "。",
        "\u{301}",
        "`",
        "  ",
    ];
    let piece = prop_oneof![
        proptest::sample::select(PIECES).prop_map(str::to_string),
        "[a-zA-Zа-яё错了 ’'.,:;!?0-9`*-]{0,12}",
    ];
    proptest::collection::vec(piece, 0..10).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn markers_read_any_reply_to_any_answer(message in marker_text(), answer in marker_text()) {
        use reins::detect::markers::{Previous, analyze_reply};
        let bag = KeywordBag::from_text(&answer);
        for asked in [false, true] {
            let a = analyze_reply(&message, Some(Previous { keywords: &bag, asked, requested: false, earlier: &[] }));
            for h in &a.pushback {
                prop_assert!(h.start <= h.end);
            }
        }
    }
}
