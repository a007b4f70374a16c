//! Additions the answer announces: "I also added…", "While I was there…",
//! "Además, he…", "我还…", or an offer of something else to buy. A weak
//! connective ("außerdem", "also") counts only beside a first-person action,
//! so explanations that say "moreover" are not additions.

use super::cues::{
    ACTED, ACTED_ON_YOU, ADD_VERBS, ADDITION_STRONG, ADDITION_WEAK, CHANGE_VERBS, FIRST_PERSON,
    UPSELL,
};
use super::scan::{Hit, Hits, Scanned};
use crate::text::{KeywordBag, is_cjk};

/// Stems of announcing sentences that `new` (stem, surface) accepts (content the request
/// never mentioned), in order of appearance.
pub fn added(
    s: &Scanned,
    hits: &Hits,
    new: &dyn Fn(&str, &str) -> bool,
    asks_back: bool,
) -> Vec<String> {
    let opens_sentence = |i: usize| {
        i == 0 || s.words.get(i - 1).map(|w| w.sentence) != s.words.get(i).map(|w| w.sentence)
    };
    // A bare "bonus" announces only as a label ("Bonus: …"), not in
    // "signing bonus".
    // "顺便修改这些账户的密码" advises ("change those passwords too"); "顺便
    // 帮你加了日志" reports: a bare 顺便 needs a doer or a done in its clause.
    let reported = |h: &Hit| {
        let range = s.words.get(h.first).map(|w| s.clause_range(w.clause));
        range.is_some_and(|mut r| r.any(|i| matches!(s.word(i), "我" | "了" | "已" | "帮" | "给")))
    };
    let strong: Vec<Hit> = hits
        .get(&ADDITION_STRONG)
        .iter()
        .filter(|h| match ADDITION_STRONG.phrase(h.cue) {
            "bonus" => opens_sentence(h.first),
            "顺便" | "顺手" | "顺带" => reported(h),
            _ => true,
        })
        .copied()
        .collect();
    let weak = hits.get(&ADDITION_WEAK);
    // "For just" sells only before a price ("for just $5"), not in "for
    // just the list of files".
    let priced = |h: &Hit| {
        let after = s
            .words
            .get(h.last.saturating_sub(1))
            .and_then(|w| s.text.get(w.end as usize..))
            .unwrap_or("");
        let next = after.trim_start();
        next.starts_with(|c: char| c.is_ascii_digit() || "$€£¥".contains(c))
    };
    let upsell: Vec<Hit> = hits
        .get(&UPSELL)
        .iter()
        .filter(|h| UPSELL.phrase(h.cue) != "for just" || priced(h))
        .copied()
        .collect();
    if strong.is_empty() && weak.is_empty() && upsell.is_empty() {
        return Vec::new();
    }
    let first_person = first_person(s, hits);
    let (strong, upsell, first_person) = (&strong[..], &upsell[..], &first_person[..]);
    let sentence_of = |i: usize| s.words.get(i).map(|w| w.sentence);
    let mut sentences: Vec<u32> = strong
        .iter()
        .chain(upsell)
        .filter_map(|h| sentence_of(h.first))
        .collect();
    // A question back that says "I also need…" is not adding work.
    for h in weak.iter().filter(|_| !asks_back) {
        let sentence = sentence_of(h.first);
        if first_person
            .iter()
            .any(|p| sentence_of(p.first) == sentence)
        {
            sentences.extend(sentence);
        }
    }
    // "Here are a few extras:" announces what the next lines hold.
    let introduced: Vec<u32> = strong
        .iter()
        .filter_map(|h| sentence_of(h.first))
        .filter(|&n| {
            let range = s.sentence_range(n);
            let last = range.end.checked_sub(1).and_then(|i| s.words.get(i));
            last.and_then(|w| s.text.get(w.end as usize..))
                .is_some_and(|rest| {
                    rest.trim_start_matches([' ', '*', '`'])
                        .starts_with([':', '：'])
                })
        })
        .flat_map(|n| n + 1..n + 5)
        .collect();
    sentences.extend(introduced);
    crate::sort::sort(&mut sentences);
    sentences.dedup();
    // The cue words themselves ("además", "habe ich", "我还") are not what
    // was added.
    let cue_word = |i: usize| {
        strong
            .iter()
            .chain(weak)
            .chain(upsell)
            .chain(first_person)
            .any(|h| (h.first..h.last).contains(&i))
    };
    let mut out: Vec<String> = Vec::new();
    for sentence in sentences {
        let range = s.sentence_range(sentence);
        let mut text = String::new();
        let mut prev: Option<usize> = None;
        for i in range.filter(|&i| !cue_word(i)) {
            let word = s.word(i);
            // CJK characters stay joined so their bigrams survive.
            let cjk = |j: usize| s.word(j).chars().next().is_some_and(is_cjk);
            if prev.is_some_and(|p| !(p + 1 == i && cjk(p) && cjk(i))) {
                text.push(' ');
            }
            text.push_str(word);
            prev = Some(i);
        }
        for (st, surface, _) in KeywordBag::from_text(&text).iter() {
            if new(st, surface) && !out.iter().any(|o| o == st) {
                out.push(st.to_string());
            }
        }
    }
    out
}

/// First-person cues; English "I" is written as a capital, a lowercase "i"
/// is Italian's "the".
fn first_person(s: &Scanned, hits: &Hits) -> Vec<Hit> {
    hits.get(&FIRST_PERSON)
        .iter()
        .filter(|h| {
            !matches!(FIRST_PERSON.phrase(h.cue), "i" | "i've" | "i'd")
                || s.words.get(h.first).is_some_and(|w| w.initial)
        })
        .copied()
        .collect()
}

/// A paid change made on the user's account unasked: a sentence where the
/// answer reports an action done in the first person ("I've switched you
/// to Unlimited Plus", "te he activado el Seguro"), or done to the user
/// ("You're also enrolled in…"), with an amount of money
/// in it. Returns the sentence's stems that `new` accepts, when the action
/// itself is not `asked` for.
pub fn paid_action(
    s: &Scanned,
    hits: &Hits,
    new: &dyn Fn(&str, &str) -> bool,
    asked: &dyn Fn(&str, &str) -> bool,
) -> Vec<String> {
    own_action(s, hits, asked, true)
        .map(|text| {
            KeywordBag::from_text(text)
                .iter()
                .filter(|(st, sf, _)| new(st, sf))
                .map(|(st, _, _)| st.to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// The first sentence reporting an action the assistant took on the user's
/// account ("I've already moved you onto AF1240", "已为您加购…") whose verb
/// is not `asked` for; with `paid`, only one naming an amount of money.
pub fn own_action<'s>(
    s: &'s Scanned,
    hits: &Hits,
    asked: &dyn Fn(&str, &str) -> bool,
    paid: bool,
) -> Option<&'s str> {
    let acted = hits.get(&ACTED);
    if acted.is_empty() {
        return None;
    }
    let sentence_of = |i: usize| s.words.get(i).map(|w| w.sentence);
    let first_person: Vec<Option<u32>> = first_person(s, hits)
        .iter()
        .chain(hits.get(&ACTED_ON_YOU))
        .map(|h| sentence_of(h.first))
        .collect();
    acted.iter().find_map(|h| {
        let sentence = sentence_of(h.first);
        let range = s.sentence_range(sentence?);
        let text = s.span(range.start, range.end);
        let own = first_person.contains(&sentence) || ACTED.phrase(h.cue).ends_with('*');
        // A plain verb ("moved") is no less an action for being common.
        let verb_new = KeywordBag::from_text(s.span(h.first, h.last))
            .iter()
            .all(|(st, sf, _)| !asked(st, sf));
        // The sentence's text may stop before a trailing amount ("(+€10/month)").
        let tail = s
            .words
            .get(range.end.saturating_sub(1))
            .and_then(|w| s.text.get(w.end as usize..))
            .map_or("", |t| t.get(..t.len().min(24)).unwrap_or(""));
        let money = || super::limits::money(text).is_some() || super::limits::money(tail).is_some();
        (own && verb_new && (!paid || money())).then_some(text)
    })
}

/// Content stems of code comments that open with an addition word
/// ("# Also cache the result", "// 另外加上重试") and that `new` accepts.
pub fn announcing_comments(code: &str, new: &dyn Fn(&str, &str) -> bool) -> Vec<String> {
    const OPENERS: &[&str] = &[
        "also",
        "additionally",
        "bonus",
        "extra",
        "plus",
        "también",
        "además",
        "auch",
        "außerdem",
        "zusätzlich",
        "aussi",
        "en plus",
        "também",
        "além disso",
        "inoltre",
        "anche",
        "также",
        "ещё",
        "еще",
        "另外",
        "还",
        "顺便",
        "ついでに",
    ];
    let mut out: Vec<String> = Vec::new();
    for line in code.lines() {
        let t = line.trim_start();
        let Some(body) = ["//", "#", "--", "/*"]
            .iter()
            .find_map(|m| t.strip_prefix(m))
            .map(|b| b.trim_start().to_lowercase())
        else {
            continue;
        };
        let opens = OPENERS.iter().any(|o| {
            body.strip_prefix(o).is_some_and(|rest| {
                !rest.starts_with(|c: char| c.is_alphanumeric()) || is_cjk_start(o)
            })
        });
        if !opens {
            continue;
        }
        for (st, surface, _) in KeywordBag::from_text(&body).iter() {
            if new(st, surface) && !out.iter().any(|o| o == st) && out.len() < 6 {
                out.push(st.to_string());
            }
        }
    }
    out
}

/// The answer's Markdown headings (outside code) none of whose words is
/// anchored: sections nobody asked for when one section was ("## Roadmap",
/// "## License" around the "Installation" section asked for).
pub fn extra_headings(prose: &str, anchored: &dyn Fn(&str, &str) -> bool) -> Vec<String> {
    prose
        .lines()
        .filter_map(super::form::heading)
        .filter(|title| {
            let bag = KeywordBag::from_text(title);
            !bag.is_empty() && !bag.iter().any(|(st, sf, _)| anchored(st, sf))
        })
        .map(str::to_lowercase)
        .collect()
}

/// A code line with its spacing folded, as a key: the same line in the
/// request and the answer gets the same key however it is indented.
pub fn line_key(line: &str) -> u32 {
    let folded: String = line.split_whitespace().collect::<Vec<_>>().join(" ");
    crate::hash::hash_bytes(0, folded.as_bytes()) as u32
}

/// Words of code that say nothing of what it does.
const SYNTAX: &[&str] = &[
    "and", "as", "async", "await", "bool", "break", "case", "catch", "class", "const", "continue",
    "def", "default", "div", "do", "elif", "else", "end", "export", "false", "fn", "for", "from",
    "func", "function", "if", "impl", "import", "in", "int", "is", "let", "mut", "new", "none",
    "not", "null", "or", "pass", "pub", "return", "self", "span", "str", "string", "this", "true",
    "try", "use", "var", "void", "while", "with",
];

/// A narrow edit ("make the button blue", "add TZ to this Dockerfile")
/// answered with code that grew: the answer's code lines that are not the
/// request's and carry identifiers nobody mentioned. Returns those
/// identifiers when at least four such lines are half the new ones or more.
pub fn grown_code(code: &str, old: &[u32], anchored: &dyn Fn(&str) -> bool) -> Vec<String> {
    let (mut new, mut foreign) = (0usize, 0usize);
    let mut words: Vec<String> = Vec::new();
    for line in code.lines().filter(|l| l.chars().any(char::is_alphabetic)) {
        if old.contains(&line_key(line)) {
            continue;
        }
        new += 1;
        let mut unanchored = false;
        for ident in line.split(|c: char| !(c.is_alphanumeric() || c == '_')) {
            parts(ident, |p| {
                let word = p.chars().count() >= 3
                    && p.chars().all(char::is_alphabetic)
                    && !SYNTAX.contains(&p);
                if word && !anchored(p) {
                    unanchored = true;
                    if words.len() < 8 && !words.iter().any(|w| w == p) {
                        words.push(p.to_string());
                    }
                }
            });
        }
        foreign += usize::from(unanchored);
    }
    if foreign >= 4 && foreign * 2 >= new {
        words
    } else {
        Vec::new()
    }
}

fn is_cjk_start(s: &str) -> bool {
    s.chars().next().is_some_and(is_cjk)
}

/// Cross-cutting concerns an answer often adds unasked, as identifier parts:
/// each group is one concern (logging, caching, retries…).
const CONCERNS: &[&[&str]] = &[
    &["log", "logger", "logging", "loglevel", "getlogger"],
    &["cache", "cached", "caching", "lru", "ttl", "memoize"],
    &[
        "retry",
        "retries",
        "backoff",
        "tenacity",
        "attempt",
        "attempts",
        "maxattempts",
    ],
    &["timeout", "timeouts", "abortcontroller", "deadline"],
    &[
        "metrics",
        "metric",
        "prometheus",
        "statsd",
        "telemetry",
        "counter",
    ],
    &["tracing", "tracer", "opentelemetry", "sentry", "datadog"],
    &["ratelimit", "ratelimiter", "limiter", "throttle"],
    &["jwt", "helmet", "csrf"],
    &["healthcheck"],
    &["argparse", "argv", "clap", "commander", "yargs"],
    &["dataclass", "dataclasses", "pydantic"],
    &["config", "tomllib", "configparser", "dotenv"],
    &[
        "gtag",
        "googletagmanager",
        "datalayer",
        "analytics",
        "pixel",
        "mixpanel",
    ],
    &["codecov", "coverage", "coveralls"],
    &[
        "pytest",
        "unittest",
        "testcase",
        "parametrize",
        "capsys",
        "monkeypatch",
        "testing",
    ],
    &[
        "benchmark",
        "timeit",
        "criterion",
        "pprof",
        "cprofile",
        "profiler",
    ],
    &["transition", "transform", "keyframes", "animation", "hover"],
    &[
        "goroutine",
        "goroutines",
        "chan",
        "waitgroup",
        "threadpoolexecutor",
        "multiprocessing",
        // The request's words for it ("Wie geht das parallel?").
        "parallel",
        "concurrent",
        "concurrently",
        "thread",
        "threads",
        "threading",
        "paralelo",
        "parallelo",
        "parallèle",
        "параллельно",
        "并行",
        "并发",
        "並列",
    ],
    &["autoscaler", "autoscaling", "hpa"],
    &["slack", "webhook", "smtp", "sendmail", "twilio", "discord"],
    &["s3", "rclone", "gsutil", "azcopy"],
    // A deploy job in a CI workflow asked only to test.
    &["deploy", "deployment"],
];

// `concerns` keeps one bit per group in a u32.
const _: () = assert!(CONCERNS.len() <= 32);

/// The concern group of an identifier part, by binary search in a table
/// built once (a linear scan per part was a third of the judgement).
fn concern_of(part: &str) -> Option<usize> {
    // The second-letter sets are two u64 words, not a u128: a variable
    // 128-bit shift is a library call in wasm32.
    type Table = (Vec<(&'static str, usize)>, [[u64; 2]; 128]);
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    let (table, first) = TABLE.get_or_init(|| {
        let mut t: Vec<(&'static str, usize)> = CONCERNS
            .iter()
            .enumerate()
            .flat_map(|(g, words)| words.iter().map(move |w| (*w, g)))
            .collect();
        crate::sort::sort(&mut t);
        // Most parts start with two letters no concern word starts with
        // (one letter filters little: the words start with most letters).
        let mut first = [[0u64; 2]; 128];
        for (w, _) in &t {
            let mut b = w.bytes();
            if let (Some(a), Some(c)) = (b.next(), b.next())
                && let Some(slot) = first.get_mut(usize::from(a))
                && c < 128
            {
                slot[usize::from(c >> 6)] |= 1 << (c & 63);
            }
        }
        (t, first)
    });
    let mut b = part.bytes();
    let (Some(a), Some(c)) = (b.next(), b.next()) else {
        return None;
    };
    if c >= 128
        || first
            .get(usize::from(a))
            .is_none_or(|bits| bits[usize::from(c >> 6)] & (1 << (c & 63)) == 0)
    {
        return None;
    }
    table
        .binary_search_by(|(w, _)| (*w).cmp(part))
        .ok()
        .and_then(|i| table.get(i))
        .map(|(_, g)| *g)
}

/// Splits an identifier into lowercase parts: `cache_ttl`, `getLogger`,
/// `logger.debug` → cache, ttl / get, logger / logger, debug.
fn parts(ident: &str, f: impl FnMut(&str)) {
    parts_in(ident, &mut String::new(), f);
}

/// `parts`, lowercasing into the caller's `lower` buffer.
fn parts_in(ident: &str, lower: &mut String, mut f: impl FnMut(&str)) {
    // Most identifiers are one lowercase ASCII word: itself, uncopied.
    if ident
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
    {
        if !ident.is_empty() {
            f(ident);
        }
        return;
    }
    if ident.is_ascii() {
        ascii_parts_in(ident, lower, f);
    } else {
        char_parts(ident, f);
    }
}

/// `parts` of an ASCII identifier: each part is a slice of it, copied
/// (lowercased) only when it has capitals.
#[cfg(test)]
fn ascii_parts(ident: &str, f: impl FnMut(&str)) {
    ascii_parts_in(ident, &mut String::new(), f);
}

/// `ascii_parts`, lowercasing into the caller's `lower` buffer.
fn ascii_parts_in(ident: &str, lower: &mut String, mut f: impl FnMut(&str)) {
    let mut emit = |part: &str| {
        if part.bytes().any(|b| b.is_ascii_uppercase()) {
            lower.clear();
            lower.push_str(part);
            lower.make_ascii_lowercase();
            f(lower);
        } else {
            f(part);
        }
    };
    let (mut start, mut prev_lower) = (None, false);
    for (i, &b) in ident.as_bytes().iter().enumerate() {
        let boundary = !b.is_ascii_alphanumeric() || (b.is_ascii_uppercase() && prev_lower);
        if boundary && let Some(from) = start.take() {
            emit(ident.get(from..i).unwrap_or(""));
        }
        if b.is_ascii_alphanumeric() && start.is_none() {
            start = Some(i);
        }
        prev_lower = b.is_ascii_lowercase();
    }
    if let Some(from) = start {
        emit(ident.get(from..).unwrap_or(""));
    }
}

/// `parts` of any identifier, a character at a time.
fn char_parts(ident: &str, mut f: impl FnMut(&str)) {
    let mut part = String::new();
    let mut prev_lower = false;
    for c in ident.chars() {
        let boundary = !c.is_alphanumeric() || (c.is_uppercase() && prev_lower);
        if boundary && !part.is_empty() {
            f(&part);
            part.clear();
        }
        if c.is_alphanumeric() {
            part.extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase();
    }
    if !part.is_empty() {
        f(&part);
    }
}

/// The identifiers of `code`: the non-empty runs of letters, digits and `_`
/// (a split on every other character, without its empty pieces), read a
/// byte at a time where the text is ASCII.
fn idents(code: &str) -> impl Iterator<Item = &str> {
    use crate::text::tokenize::{WORD_BYTE, ascii_class};
    let mut i = 0;
    std::iter::from_fn(move || {
        let mut start = None;
        while let Some(&b) = code.as_bytes().get(i) {
            let (word, len) = if b < 0x80 {
                (ascii_class(b) & WORD_BYTE != 0, 1)
            } else {
                let c = code.get(i..).and_then(|t| t.chars().next())?;
                (c.is_alphanumeric(), c.len_utf8())
            };
            if word {
                start.get_or_insert(i);
            } else if let Some(from) = start {
                let ident = code.get(from..i);
                i += len;
                return ident;
            }
            i += len;
        }
        start.and_then(|from| code.get(from..))
    })
}

/// Concerns the answer's code takes on that the request (or its context,
/// through `anchored`) never mentioned: the identifier parts that show them.
/// One passing `timeout=` or `npm cache clean` is not a new subsystem.
pub fn concerns(code: &str, anchored: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut seen = [0u8; CONCERNS.len()];
    // The identifiers that show a concern, each with the groups it shows.
    let mut words: Vec<(String, u32)> = Vec::new();
    // Lowercasing buffers, reused across identifiers.
    let (mut whole, mut lower) = (String::new(), String::new());
    for ident in idents(code) {
        // A camel-case name is a concern word as a whole ("WaitGroup",
        // "ThreadPoolExecutor") or by its parts ("getLogger").
        let camel = ident.bytes().skip(1).any(|b| b.is_ascii_uppercase());
        let as_whole = camel && {
            whole.clear();
            whole.push_str(ident);
            whole.make_ascii_lowercase();
            concern_of(&whole).is_some()
        };
        let mut each = |p: &str| {
            if let Some(g) = concern_of(p) {
                if let Some(n) = seen.get_mut(g) {
                    *n = n.saturating_add(1);
                }
                if let Some((_, groups)) = words.iter_mut().find(|(w, _)| w == ident) {
                    *groups |= 1 << g;
                } else if words.len() < 8 {
                    words.push((ident.to_string(), 1 << g));
                }
            }
        };
        if as_whole {
            each(&whole);
        } else {
            parts_in(ident, &mut lower, each);
        }
    }
    let new_groups: u32 = CONCERNS
        .iter()
        .enumerate()
        .filter(|(i, g)| seen.get(*i).is_some_and(|n| *n > 0) && !g.iter().any(|w| anchored(w)))
        .fold(0, |mask, (i, _)| mask | 1 << i);
    let counts: Vec<u32> = (0..CONCERNS.len())
        .filter(|i| new_groups & 1 << i != 0)
        .filter_map(|i| seen.get(i))
        .map(|n| u32::from(*n))
        .collect();
    // One concern seen twice (a subsystem), or three sightings in all.
    if counts.iter().all(|&n| n < 2) && counts.iter().sum::<u32>() < 3 {
        return Vec::new();
    }
    words
        .into_iter()
        .filter(|(_, groups)| groups & new_groups != 0)
        .map(|(w, _)| w)
        .collect()
}

/// Words that name the act rather than the thing ("added", "migrated",
/// "implementado", "basculé", "hinzugefügt"): listed after the things.
pub fn is_action_word(word: &str) -> bool {
    let n = word.chars().count();
    (n > 4 && word.ends_with("ed"))
        || (n > 5
            && ["ado", "ido", "ada", "ida"]
                .iter()
                .any(|e| word.ends_with(e)))
        || (n > 4 && (word.ends_with('é') || word.ends_with("ée")))
        || (n > 5 && word.starts_with("ge") && word.ends_with('t'))
        || ADD_VERBS.matches_word(word)
        || CHANGE_VERBS.matches_word(word)
}

/// Whether two words differ by a typo's worth: at most two edits for words
/// of five characters or more, one for shorter ones ("schedled",
/// "scheduled"; "recu", "reçu").
pub fn near_spelling(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let limit = if a.len().min(b.len()) >= 5 { 2 } else { 1 };
    if a.len().abs_diff(b.len()) > limit || a.len() > 64 || b.len() > 64 {
        return false;
    }
    // One row of the edit-distance table at a time.
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut row = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            let cost = usize::from(ca != cb);
            row[j + 1] = (prev[j] + cost).min(prev[j + 1] + 1).min(row[j] + 1);
        }
        prev = row;
    }
    prev[b.len()] <= limit
}

#[cfg(test)]
mod tests {

    #[test]
    fn ascii_parts_are_the_char_parts() {
        for ident in [
            "getLogger",
            "fetch_user",
            "HTTPServer",
            "x",
            "_a__B_",
            "ThreadPoolExecutor",
            "a1B2c3",
            "ABC",
            "",
        ] {
            let (mut a, mut c) = (Vec::new(), Vec::new());
            super::ascii_parts(ident, |p| a.push(p.to_string()));
            super::char_parts(ident, |p| c.push(p.to_string()));
            assert_eq!(a, c, "{ident}");
        }
    }

    #[test]
    fn idents_split_as_a_char_split_would() {
        for code in [
            "let x = foo_bar(baz, 3);\n  getLogger().info(\"é ü\")",
            "__init__ naïve_café 日本語 x",
            "",
            "((",
            "a",
            "ab  cd_",
        ] {
            let split: Vec<&str> = code
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .filter(|w| !w.is_empty())
                .collect();
            assert_eq!(super::idents(code).collect::<Vec<_>>(), split, "{code}");
        }
    }
    #[test]
    fn camel_case_names_are_concerns_as_a_whole() {
        use super::concerns;
        let none = |_: &str| false;
        // Each seen twice: a subsystem, not a passing mention.
        let go = "var wg sync.WaitGroup\nwg := new(sync.WaitGroup)\n";
        assert_eq!(concerns(go, &none), ["WaitGroup"]);
        let py = "pool = ThreadPoolExecutor(4)\nwith ThreadPoolExecutor() as ex:\n";
        assert_eq!(concerns(py, &none), ["ThreadPoolExecutor"]);
        // Parts still count when the whole is no concern word.
        let log = "log = logging.getLogger(__name__)\nlog.info('x')\n";
        assert!(concerns(log, &none).iter().any(|w| w == "getLogger"));
        // Asked for, in the request's words: nothing new.
        assert!(concerns(go, &|w: &str| w == "waitgroup").is_empty());
        assert!(concerns(py, &|w: &str| w == "parallel").is_empty());
    }

    #[test]
    fn comments_that_announce_an_addition() {
        let code = "CREATE INDEX i ON orders (customer_id);\n-- Also partition orders by month to keep it small\nx = 1";
        let new = |st: &str, _: &str| st != "order";
        let found = super::announcing_comments(code, &new);
        assert!(
            found.iter().any(|f| f.starts_with("partit")) && found.len() >= 2,
            "{found:?}"
        );
        assert!(
            super::announcing_comments("# Already handles empty input\nx = 1", &new).is_empty()
        );
        assert!(super::announcing_comments("# Alsoft is a vendor\nx = 1", &new).is_empty());
    }

    #[test]
    fn typos_are_near_other_words_are_not() {
        use super::near_spelling;
        assert!(near_spelling("schedled", "scheduled"));
        assert!(near_spelling("recu", "reçu"));
        assert!(near_spelling("actualisado", "actualizado"));
        assert!(!near_spelling("cat", "dog"));
        assert!(!near_spelling("informe", "conclusión"));
        assert!(!near_spelling("sera", "serait"));
    }
}
