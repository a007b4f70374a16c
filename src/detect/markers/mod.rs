//! Frustration, correction and preference markers in the user's messages.
//!
//! Phrase packs per language (`lexicon.rs`, versioned) are matched on
//! a normalised copy of the text: full Unicode lowercase, curly apostrophes
//! folded to `'`, whitespace runs folded to one space. Phrases of languages
//! written with spaces match at word boundaries; Chinese and Japanese phrases
//! match anywhere. A hit inside an exclusion phrase (`没错了`, "nothing
//! wrong", "I provided the wrong …") does not count. Matching goes through an
//! index keyed by a phrase's first word (or first character for CJK), built
//! once, so a message costs a lookup per word, not a scan per phrase.

use std::collections::HashSet;

use self::groups::Groups;
use super::preferences::MAX_PREFERENCES;
use crate::hash::FastBuild;
use crate::text::{KeywordBag, chars};
use std::sync::OnceLock;

mod absent;
mod accept;
mod doubt;
mod failure;
mod frames;
mod groups;
mod lexicon;
mod redirect;
mod reply;
mod report;
mod request;
mod sarcasm;
mod scan;
mod standing;
mod still;
mod switch;

pub use lexicon::{LEXICON_VERSION, PACKS, Pack};
pub use reply::Previous;
pub use request::asks_for_output;
pub use switch::switches_topic;

/// Which list a phrase came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Kind {
    Exclude,
    Pushback,
    Preference,
}

/// One phrase found in a message; offsets are into the normalised text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Hit {
    pub kind: Kind,
    pub lang: &'static str,
    pub phrase: &'static str,
    pub start: usize,
    pub end: usize,
}

/// What a message says about the previous answer and about the future.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Analysis {
    /// Pushback phrases (frustration or correction) outside any exclusion.
    pub pushback: Vec<Hit>,
    /// Standing preferences: the sentence that carries each opener, as written.
    pub preferences: Vec<String>,
}

/// Half-width katakana U+FF61–U+FF9D in order, as full-width characters.
const HALF_WIDTH_KANA: &str = "。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン";

/// Full-width ASCII as ASCII, half-width katakana as full-width (`ｴﾗｰ` is
/// `エラー`): the forms an IME or an old keyboard setting types.
fn fold_width(c: char) -> char {
    match c as u32 {
        0xFF01..=0xFF5E => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        0xFF61..=0xFF9D => HALF_WIDTH_KANA
            .chars()
            .nth((c as u32 - 0xFF61) as usize)
            .unwrap_or(c),
        _ => c,
    }
}

/// A kana with a half-width voicing mark (`ﾀﾞ`): the voiced full-width kana.
fn voiced(kana: char, mark: char) -> Option<char> {
    let k = kana as u32;
    let step = match (mark, k) {
        ('\u{FF9E}', 0x30AB..=0x30C1) if k % 2 == 1 => 1,
        ('\u{FF9E}', 0x30C4 | 0x30C6 | 0x30C8) => 1,
        ('\u{FF9E}' | '\u{FF9F}', 0x30CF | 0x30D2 | 0x30D5 | 0x30D8 | 0x30DB) => {
            if mark == '\u{FF9E}' { 1 } else { 2 }
        }
        ('\u{FF9E}', 0x30A6) => 0x30F4 - 0x30A6,
        _ => return None,
    };
    char::from_u32(k + step)
}

/// Lowercase, fold apostrophes, whitespace and character widths. Returns the
/// text and, for each byte of it, the byte offset in the original (to cut
/// sentences out as written).
fn normalize(text: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(text.len());
    let mut map = Vec::with_capacity(text.len());
    // Where a run of whitespace began, until the next character shows
    // whether it stays: none between two CJK characters ("错　了" is "错了").
    let mut space: Option<usize> = None;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if space.is_none() && !out.is_empty() {
                space = Some(i);
            }
            continue;
        }
        if let Some(at) = space.take() {
            let joins = !c.is_ascii()
                && out.chars().next_back().is_some_and(is_cjk)
                && is_cjk(fold_width(c));
            if !joins {
                out.push(' ');
                map.push(at);
            }
        }
        // ASCII (most text): no voicing mark, width or apostrophe to fold.
        if c.is_ascii() {
            out.push(c.to_ascii_lowercase());
            map.push(i);
            continue;
        }
        if let Some(v) = out.chars().next_back().and_then(|k| voiced(k, c)) {
            // Same UTF-8 length, so the offsets map stays as it is.
            out.pop();
            out.push(v);
            continue;
        }
        let c = fold_width(c);
        let folded = matches!(c, '\u{2019}' | '\u{2018}' | '\u{02BC}').then_some('\'');
        for l in folded.into_iter().chain(
            if folded.is_some() { None } else { Some(c) }
                .into_iter()
                .flat_map(char::to_lowercase),
        ) {
            let before = out.len();
            out.push(l);
            map.extend(std::iter::repeat_n(i, out.len() - before));
        }
    }
    (out, map)
}

/// Han characters and kana.
pub(super) fn is_cjk(c: char) -> bool {
    matches!(c as u32, 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF)
}

fn spaced(lang: &str) -> bool {
    !matches!(lang, "zh" | "ja")
}

fn is_word(c: char) -> bool {
    chars::is_alphanumeric(c) || c == '\''
}

/// The index key of a phrase: its first word, or its first character for CJK.
fn key_of<'a>(phrase: &'a str, lang: &str) -> &'a str {
    let len = if spaced(lang) {
        phrase.find(|c: char| !is_word(c)).unwrap_or(phrase.len())
    } else {
        phrase.chars().next().map_or(0, char::len_utf8)
    };
    phrase.get(..len).unwrap_or("")
}

type Entry = (Kind, &'static str, &'static str);

struct Index {
    by_key: Groups<Entry>,
    /// Some CJK phrase starts with an ASCII character; if none does (the
    /// usual case), ASCII characters need no lookup by character.
    ascii_cjk_key: bool,
}

fn build(packs: &'static [Pack]) -> Index {
    let by_key = Groups::new(packs.iter().flat_map(|p| {
        [
            (Kind::Exclude, p.exclude),
            (Kind::Pushback, p.pushback),
            (Kind::Preference, p.preference),
        ]
        .into_iter()
        .flat_map(move |(kind, list)| {
            list.iter()
                .map(move |phrase| (key_of(phrase, p.lang), (kind, p.lang, *phrase)))
        })
    }));
    let ascii_cjk_key = packs.iter().any(|p| {
        !spaced(p.lang)
            && [p.exclude, p.pushback, p.preference]
                .iter()
                .flat_map(|l| l.iter())
                .any(|phrase| phrase.starts_with(|c: char| c.is_ascii()))
    });
    Index {
        by_key,
        ascii_cjk_key,
    }
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| build(PACKS))
}

/// Every phrase occurrence in normalised text `t`, in text order, given to
/// `found`. Phrases of spaced languages are looked up by the word starting
/// at a word boundary and must end at one; CJK phrases are looked up by the
/// character at any position. Linear in `t`: each position costs a lookup
/// and a comparison per phrase of its key (a bounded set).
fn find_all(idx: &Index, t: &str, mut found: impl FnMut(Hit)) {
    let mut prev_word = false;
    for (i, c) in t.char_indices() {
        let word_start = is_word(c) && !prev_word;
        prev_word = is_word(c);
        let by_char = idx.ascii_cjk_key || !c.is_ascii();
        if !word_start && !by_char {
            continue;
        }
        let rest = t.get(i..).unwrap_or("");
        // The word is measured only where a word starts.
        let word = if word_start {
            rest.get(..rest.find(|x: char| !is_word(x)).unwrap_or(rest.len()))
                .unwrap_or("")
        } else {
            ""
        };
        let ch = rest.get(..c.len_utf8()).unwrap_or("");
        let lookups = [(word_start, word, true), (by_char, ch, false)];
        for (active, key, want_spaced) in lookups {
            let Some(entries) = idx.by_key.get(key).filter(|_| active) else {
                continue;
            };
            for &(kind, lang, phrase) in entries {
                if spaced(lang) != want_spaced || !rest.starts_with(phrase) {
                    continue;
                }
                let end = i + phrase.len();
                let open_end = phrase.ends_with(|x: char| !is_word(x));
                let next_is_word = t
                    .get(end..)
                    .and_then(|r| r.chars().next())
                    .is_some_and(is_word);
                if !want_spaced || open_end || !next_is_word {
                    found(Hit {
                        kind,
                        lang,
                        phrase,
                        start: i,
                        end,
                    });
                }
            }
        }
    }
}

/// Whether a message opens by accepting or thanking ("Thanks, …",
/// "Understood. …", "好的，…"): whatever follows, it is no reworded retry of
/// the request before. Reads the first 64 bytes.
pub fn opens_with_thanks(message: &str) -> bool {
    let found = scan::scan_opening(message);
    let first = |_: usize, _: usize| true;
    [scan::fam::YES, scan::fam::GLAD]
        .into_iter()
        .any(|f| found.find(f, first).is_some_and(|(a, _)| a == 0))
}

/// Whether a message says "again" ("uv again please", "wieder du…",
/// "又是英文"): it insists, even when the answer before asked something.
/// Reads the first `REPLY_WINDOW_BYTES`.
pub fn says_again(message: &str) -> bool {
    let head = &message[..message.floor_char_boundary(REPLY_WINDOW_BYTES.min(message.len()))];
    let (t, _) = normalize(head);
    scan::scan(&t).any(scan::fam::AGAIN)
}

/// Analyses one user message on its own (phrases only).
pub fn analyze(text: &str) -> Analysis {
    analyze_with(index(), text, None)
}

/// Analyses a user message that replies to `previous`: besides the phrases,
/// pushback told by the reply itself (`reply.rs`).
pub fn analyze_reply(text: &str, previous: Option<Previous<'_>>) -> Analysis {
    analyze_with(index(), text, previous)
}

/// Analyses a user message that replies to the answer text `answer` (none
/// when empty): for callers that keep the text, not the regulator's bag.
pub fn analyze_after(text: &str, answer: &str) -> Analysis {
    let keywords = KeywordBag::from_text(answer);
    let previous = (!answer.is_empty()).then(|| Previous {
        keywords: &keywords,
        asked: answer.contains(['?', '？']),
        requested: asks_for_output(answer),
        earlier: &[],
    });
    analyze_reply(text, previous)
}

/// Letters typed one by one ("W R O N G", "i t   s t i l l   f a i l s"),
/// joined into words in the text as written: one space between letters,
/// two or more between words. `None` when there is no such run.
fn join_spaced_letters(text: &str) -> Option<String> {
    // A letter alone, perhaps followed by punctuation ("g."), or an apostrophe.
    let letter = |w: &str| {
        let mut cs = w.chars();
        cs.next()
            .is_some_and(|c| c.is_alphabetic() || "'’".contains(c))
            && cs.all(|c| !c.is_alphanumeric())
    };
    // Words with the width of the gap before each.
    let mut words: Vec<(usize, &str)> = Vec::new();
    let mut gap = 0;
    for (i, part) in text.split(char::is_whitespace).enumerate() {
        if part.is_empty() {
            gap += 1;
            continue;
        }
        words.push((if i == 0 { 0 } else { gap + 1 }, part));
        gap = 0;
    }
    let (mut out, mut joined, mut i) = (String::with_capacity(text.len()), false, 0);
    while i < words.len() {
        let run = words[i..].iter().take_while(|(_, w)| letter(w)).count();
        if !out.is_empty() {
            out.push(' ');
        }
        if run >= 3 && words[i + 1..i + run].iter().any(|&(g, _)| g == 1) {
            for (k, &(g, w)) in words[i..i + run].iter().enumerate() {
                if k > 0 && g > 1 {
                    out.push(' ');
                }
                out.push_str(w);
            }
            joined = true;
            i += run;
        } else {
            // No word of a failed run starts a run that passes (it is the
            // same run, shorter): pass them all at once, not one by one,
            // which re-counted the run for each (quadratic in its length).
            let n = run.max(1);
            for (k, &(_, w)) in words[i..i + n].iter().enumerate() {
                if k > 0 {
                    out.push(' ');
                }
                out.push_str(w);
            }
            i += n;
        }
    }
    joined.then_some(out)
}

/// Pushback hits kept per message: an incident names a few phrases, and a
/// message that repeats one ten thousand times says no more than one that
/// says it sixteen times.
pub const MAX_PUSHBACK_HITS: usize = 16;
/// Standing preferences taken from one message (the store keeps 20).
pub const MAX_MESSAGE_PREFERENCES: usize = MAX_PREFERENCES;
/// Bytes of a message the reply rules read (`reply.rs`): they read a
/// reply against the answer, and replies are short. The phrase packs and
/// standing rules read the whole message.
pub const REPLY_WINDOW_BYTES: usize = 8 * 1024;

/// Sorts hits in text order into excluded and not, in one pass: a hit is
/// excluded when an exclusion hit starts at or before it and ends at or
/// after it. Hits arrive in order of `start`; those sharing a start are held
/// until the next start, since an exclusion may follow its hit there.
#[derive(Default)]
struct Exclusions {
    /// Hits at the current start, not yet judged.
    held: Vec<Hit>,
    /// The furthest end of the exclusions seen so far, with the start from
    /// which it holds: a rising staircase, for the late reply hit.
    reach: Vec<(usize, usize)>,
}

impl Exclusions {
    /// Takes the next hit; passes on to `kept` those now judged outside.
    fn push(&mut self, h: Hit, kept: &mut impl FnMut(Hit)) {
        if self.held.first().is_some_and(|x| x.start != h.start) {
            self.flush(kept);
        }
        self.held.push(h);
    }

    /// Judges the held hits (at the end, call once more).
    fn flush(&mut self, kept: &mut impl FnMut(Hit)) {
        crate::work::add(self.held.len());
        for x in self.held.iter().filter(|x| x.kind == Kind::Exclude) {
            if self.reach.last().is_none_or(|&(_, end)| x.end > end) {
                self.reach.push((x.start, x.end));
            }
        }
        for h in self.held.drain(..) {
            if h.kind != Kind::Exclude && !covered(&self.reach, &h) {
                kept(h);
            }
        }
    }
}

/// Whether an exclusion of the staircase `reach` covers `h`.
fn covered(reach: &[(usize, usize)], h: &Hit) -> bool {
    let before = reach.partition_point(|&(start, _)| start <= h.start);
    before > 0 && reach.get(before - 1).is_some_and(|&(_, end)| end >= h.end)
}

/// The phrase hits of normalised text `t` outside every exclusion, given
/// to `kept` in text order; returns the exclusions' staircase.
fn unexcluded(idx: &Index, t: &str, mut kept: impl FnMut(Hit)) -> Vec<(usize, usize)> {
    let mut ex = Exclusions::default();
    find_all(idx, t, |h| ex.push(h, &mut kept));
    ex.flush(&mut kept);
    ex.reach
}

/// Collects standing preferences: each the sentence, as written, around a
/// byte of the normalised text; once each, and not a question. Offsets
/// arrive in text order within one pass, so the sentence of the previous
/// offset is remembered and not cut out again (a sentence holding ten
/// thousand "以后都" is read once).
struct Preferred<'t> {
    text: &'t str,
    map: &'t [usize],
    seen: HashSet<&'t str, FastBuild>,
    last: Option<(usize, usize)>,
    out: Vec<String>,
}

impl<'t> Preferred<'t> {
    fn new(text: &'t str, map: &'t [usize]) -> Self {
        Preferred {
            text,
            map,
            seen: HashSet::default(),
            last: None,
            out: Vec::new(),
        }
    }

    /// A new pass over the text, from its start.
    fn restart(&mut self) {
        self.last = None;
    }

    fn add(&mut self, at: usize) {
        let at = self.map.get(at).copied().unwrap_or(0);
        if self.out.len() >= MAX_MESSAGE_PREFERENCES
            || self.last.is_some_and(|(a, b)| a <= at && at < b)
        {
            return;
        }
        let (a, b) = sentence_span(self.text, at);
        self.last = Some((a, b));
        let s = self.text.get(a..b).unwrap_or("").trim();
        if !s.is_empty() && !asks(s) && self.seen.insert(s) {
            self.out.push(s.to_string());
        }
    }
}

/// Linear in the message: the phrase pass and the standing-rule pass are
/// each one walk over it, every sentence is cut out once per pass, and the
/// reply rules read at most `REPLY_WINDOW_BYTES`.
fn analyze_with(idx: &Index, text: &str, previous: Option<Previous<'_>>) -> Analysis {
    let (t, map) = normalize(text);
    let mut out = Analysis::default();
    let mut preferred = Preferred::new(text, &map);
    let reach = unexcluded(idx, &t, |h| match h.kind {
        Kind::Pushback if out.pushback.len() < MAX_PUSHBACK_HITS => out.pushback.push(h),
        Kind::Preference => preferred.add(h.start),
        _ => {}
    });
    preferred.restart();
    for at in standing::standing_orders(&t) {
        preferred.add(at);
    }
    out.preferences = preferred.out;
    let joined = join_spaced_letters(text).map(|j| normalize(&j).0);
    if out.pushback.is_empty()
        && let Some(joined) = &joined
    {
        unexcluded(idx, joined, |h| {
            if h.kind == Kind::Pushback && out.pushback.len() < MAX_PUSHBACK_HITS {
                out.pushback.push(h);
            }
        });
    }
    // A standing rule is what to act on ("Wrong again. From now on run the
    // tests first"): the rule is kept, the complaint around it is not
    // counted twice. A user who owns the mistake ("上次是我把订单号发错了")
    // pushes back on nothing.
    if !out.preferences.is_empty()
        || (!out.pushback.is_empty()
            && reply::owns_the_mistake(reply_window(joined.as_deref().unwrap_or(&t))))
    {
        out.pushback.clear();
    }
    if out.pushback.is_empty()
        && out.preferences.is_empty()
        && let Some((phrase, start, end)) =
            reply::find(reply_window(joined.as_deref().unwrap_or(&t)), previous)
    {
        let h = Hit {
            kind: Kind::Pushback,
            lang: "",
            phrase,
            start,
            end,
        };
        if !covered(&reach, &h) {
            out.pushback.push(h);
        }
    }
    out
}

/// The start of `t` the reply rules read: `REPLY_WINDOW_BYTES`, cut at a
/// character boundary.
fn reply_window(t: &str) -> &str {
    t.get(..t.floor_char_boundary(REPLY_WINDOW_BYTES))
        .unwrap_or(t)
}

/// Whether a sentence is a wh-question ("What port does Postgres use by
/// default?"), which states no rule; "From now on, can you answer in
/// French?" asks for one.
fn asks(sentence: &str) -> bool {
    const WH: &[&str] = &[
        "what",
        "what's",
        "how",
        "why",
        "which",
        "where",
        "when",
        "who",
        "does",
        "is",
        "are",
        "qué",
        "cómo",
        "por",
        "cuál",
        "was",
        "wie",
        "warum",
        "welche",
        "welcher",
        "quel",
        "quelle",
        "pourquoi",
        "comment",
        "que",
        "qual",
        "como",
        "какой",
        "какая",
        "почему",
        "как",
        "что",
        "зачем",
    ];
    const WH_CJK: &[&str] = &["什么", "为什么", "怎么", "哪", "なぜ", "どう", "何"];
    if !sentence.ends_with(['?', '？']) {
        return false;
    }
    if WH_CJK.iter().any(|w| sentence.starts_with(w)) {
        return true;
    }
    // Only a short first word can be one of these (no lowercasing of a
    // sentence-long run of letters).
    let first = sentence
        .split(|c: char| !is_word(c))
        .find(|w| !w.is_empty())
        .unwrap_or("");
    first.len() <= 16 && WH.contains(&first.to_lowercase().as_str())
}

/// The byte span of the sentence of `text` around byte `at` (untrimmed):
/// from after the previous sentence mark to after the next one.
fn sentence_span(text: &str, at: usize) -> (usize, usize) {
    let is_end = |c: char| matches!(c, '.' | '!' | '?' | '\n' | '。' | '！' | '？' | '；' | ';');
    let head = text.get(..at).unwrap_or("");
    let start = head.rfind(is_end).map_or(0, |i| {
        i + head[i..].chars().next().map_or(1, char::len_utf8)
    });
    let tail = text.get(at..).unwrap_or("");
    let end = tail.find(is_end).map_or(text.len(), |i| {
        at + i + tail[i..].chars().next().map_or(0, char::len_utf8)
    });
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    static TEST_PACKS: &[Pack] = &[
        Pack {
            lang: "en",
            pushback: &[
                "that's wrong",
                "wrong again",
                "doesn't work",
                "not what i asked",
            ],
            preference: &["from now on", "always answer in"],
            exclude: &["nothing wrong", "what's wrong with"],
        },
        Pack {
            lang: "zh",
            pushback: &["错了", "不对"],
            preference: &["以后都"],
            exclude: &["没错了", "对不对"],
        },
    ];

    fn run(text: &str) -> Analysis {
        static IDX: OnceLock<Index> = OnceLock::new();
        analyze_with(IDX.get_or_init(|| build(TEST_PACKS)), text, None)
    }

    fn pushes(text: &str) -> Vec<&'static str> {
        run(text).pushback.iter().map(|h| h.phrase).collect()
    }

    #[test]
    fn a_standing_rule_is_kept_and_the_complaint_around_it_not_counted() {
        let a = analyze_after(
            "Wrong again. From now on run the tests before you tell me something is fixed.",
            "Fixed! The pagination bug is resolved.",
        );
        assert!(a.pushback.is_empty());
        assert_eq!(
            a.preferences,
            ["From now on run the tests before you tell me something is fixed."]
        );
        assert!(!analyze("Wrong again.").pushback.is_empty());
    }

    #[test]
    fn an_answer_that_misses_the_question_is_pushback_in_each_language() {
        for msg in [
            "That doesn't answer my question.",
            "Das hat mit meiner Frage überhaupt nichts zu tun.",
            "Ça ne répond pas du tout à ma question.",
            "質問の答えになっていません。",
            "你没回答我的问题",
        ] {
            assert!(!analyze(msg).pushback.is_empty(), "{msg}");
        }
    }

    #[test]
    fn phrases_match_at_word_boundaries_with_folding() {
        assert_eq!(pushes("That’s   WRONG, again"), ["that's wrong"]);
        assert_eq!(pushes("It doesn't work."), ["doesn't work"]);
        assert_eq!(
            pushes("wrong against"),
            Vec::<&str>::new(),
            "no partial word"
        );
        assert_eq!(pushes("Not what I asked!"), ["not what i asked"]);
    }

    #[test]
    fn cjk_matches_anywhere_but_exclusions_win() {
        assert_eq!(pushes("你又错了"), ["错了"]);
        assert!(pushes("没错了，就是这样").is_empty());
        assert!(pushes("这样对不对").is_empty());
        assert_eq!(pushes("不对，重新来"), ["不对"]);
    }

    #[test]
    fn a_cjk_phrase_may_start_with_an_ascii_character() {
        static PACKS: &[Pack] = &[Pack {
            lang: "zh",
            pushback: &["bug还在"],
            preference: &[],
            exclude: &[],
        }];
        let idx = build(PACKS);
        assert!(idx.ascii_cjk_key);
        let hits = analyze_with(&idx, "这个bug还在", None);
        assert_eq!(hits.pushback.len(), 1);
        assert!(!build(TEST_PACKS).ascii_cjk_key);
    }

    #[test]
    fn exclusions_in_english() {
        assert!(pushes("what's wrong with my regex?").is_empty());
        assert!(pushes("there is nothing wrong here").is_empty());
    }

    #[test]
    fn preferences_keep_the_sentence_as_written() {
        let a = run("Thanks. From now on, use tabs for indentation! And fix the bug.");
        assert_eq!(a.preferences, ["From now on, use tabs for indentation!"]);
        let z = run("记一下：以后都用中文回答。");
        assert_eq!(z.preferences, ["记一下：以后都用中文回答。"]);
    }

    #[test]
    fn widths_and_spaced_letters_are_folded() {
        assert_eq!(normalize("ﾀﾞﾒです ｴﾗｰ ﾊﾟｽ ｳﾞ").0, "ダメですエラーパスヴ");
        assert_eq!(normalize("ＷＲＯＮＧ ＡＧＡＩＮ！").0, "wrong again!");
        assert_eq!(normalize("错　了，要 json 格式 ").0, "错了,要 json 格式");
        assert_eq!(pushes("ＷＲＯＮＧ　ＡＧＡＩＮ"), ["wrong again"]);
        assert_eq!(pushes("W R O N G again."), ["wrong again"]);
        assert_eq!(
            join_spaced_letters("a b c d and i am"),
            Some("abcd and i am".into())
        );
        assert_eq!(join_spaced_letters("i am a dev"), None);
        assert_eq!(
            join_spaced_letters("i t   s t i l l   f a i l s"),
            Some("it still fails".into())
        );
        assert_eq!(join_spaced_letters("a  b  c"), None);
    }

    #[test]
    fn builtin_phrases_are_written_as_text_is_normalised() {
        // A phrase with a full-width colon or a capital could never match.
        for p in PACKS {
            for phrase in p.pushback.iter().chain(p.preference).chain(p.exclude) {
                assert_eq!(normalize(phrase).0, *phrase, "{}: {phrase:?}", p.lang);
            }
        }
    }

    #[test]
    fn one_off_wishes_and_questions_are_not_standing_rules() {
        for t in [
            "I'd prefer to pay with a gift card.",
            "What port does PostgreSQL listen on by default?",
            "It crashes every time you click save.",
            "Never mind, that works now.",
        ] {
            assert!(analyze(t).preferences.is_empty(), "{t}");
        }
        for t in [
            "I prefer pytest over unittest, use it for all tests.",
            "Never touch the lockfile again unless I ask.",
            "By default use metric units.",
            "我偏好用 pnpm，以后安装依赖都用 pnpm。",
        ] {
            assert_eq!(analyze(t).preferences.len(), 1, "{t}");
        }
    }

    #[test]
    fn a_reply_is_read_against_the_answer_text() {
        let said = "The meeting is on Thursday at 10:00.";
        let a = analyze_after("It has to be Friday, not Thursday.", said);
        assert_eq!(a.pushback.len(), 1);
        assert!(
            analyze_after("It has to be Friday, not Thursday.", "")
                .pushback
                .is_empty()
        );
        // An answer that asked: a bare "no" answers it.
        assert!(
            analyze_after("No.", "Shall I delete the branch?")
                .pushback
                .is_empty()
        );
        assert_eq!(
            analyze_after("No.", "I deleted the branch.").pushback.len(),
            1
        );
    }

    /// Messages that repeat what the rules look for, and prose, at two
    /// sizes: the work counted (bytes of sentences cut out, spaced-letter
    /// runs walked, phrase entries compared, bytes the reply rules read)
    /// stays under a fixed multiple of the length. Before, every hit cut its
    /// whole sentence out again and was checked against every other hit.
    #[test]
    fn analysis_work_is_linear_in_the_message() {
        let answer = KeywordBag::from_text("Use pandas and npm with spaces. It works now.");
        let units = [
            "以后都",
            "别用pandas以后都用中文错了",
            "always use tabs, never use spaces, ",
            "From now on, always use tabs. ",
            "a  b  c  d  ",
            "W R O N G ",
            "That's wrong again. 错了！No funciona. Das ist falsch. ",
            "这个函数还是不对你再改一下",
            "没错了你又错了",
            "use yarn, not npm, instead of pandas ",
            "The function reads the file and returns the rows it found. ",
            "are you sure? really? isn't it? ",
            "still the same still getting it, still 404 ",
            "it works but now none of it loads, same as before again ",
            "error: npm ERR! TypeError: x i get this error ",
            "you're going in circles, i meant the other not that ",
            "还是乱码不了了你确定吗",
            "nothing changed on my side no luck ",
        ];
        for unit in units {
            let mut per_byte = Vec::new();
            for n in [4 * 1024, 64 * 1024] {
                let text = unit.repeat(n / unit.len() + 1);
                let previous = Some(Previous {
                    keywords: &answer,
                    asked: false,
                    requested: false,
                    earlier: &[],
                });
                let work = crate::work::counted(|| {
                    analyze_reply(&text, previous);
                });
                per_byte.push(work as f64 / text.len() as f64);
            }
            assert!(
                per_byte.iter().all(|&w| w <= 12.0),
                "{unit:?}: {per_byte:?} units of work per byte"
            );
        }
    }

    #[test]
    fn hits_and_preferences_are_capped_and_exclusions_still_hold() {
        let a = run(&"wrong again. ".repeat(500));
        assert_eq!(a.pushback.len(), MAX_PUSHBACK_HITS);
        let rules: String = (0..40)
            .map(|i| format!("From now on, use style {i}. "))
            .collect();
        let a = run(&rules);
        assert_eq!(a.preferences.len(), MAX_MESSAGE_PREFERENCES);
        assert_eq!(a.preferences[0], "From now on, use style 0.");
        // One sentence holding the opener ten thousand times is one preference.
        assert_eq!(run(&"以后都".repeat(10_000)).preferences.len(), 1);
        // Exclusions cover hits wherever they are, however many there are.
        assert!(run(&"没错了，".repeat(2_000)).pushback.is_empty());
        assert_eq!(
            run(&"没错了，你又错了。".repeat(100)).pushback.len(),
            MAX_PUSHBACK_HITS
        );
    }

    #[test]
    fn spaced_letters_join_as_before_without_recounting_runs() {
        // Runs that fail (no single gap) pass through whole.
        assert_eq!(join_spaced_letters("a  b  c  d"), None);
        assert_eq!(
            join_spaced_letters("a  b  c  so W R O N G"),
            Some("a b c so WRONG".into())
        );
        let wide = "a  b  ".repeat(20_000);
        let work = crate::work::counted(|| {
            join_spaced_letters(&wide);
        });
        assert!(work <= 2 * wide.len(), "{work} for {} bytes", wide.len());
    }

    #[test]
    fn never_panics_on_odd_text() {
        for s in [
            "",
            "’",
            "İİİ",
            "ς",
            "\u{301}错",
            "wrong",
            "以后都",
            "a\u{2028}b",
            "\u{FF9E}\u{FF9F}ﾞ",
            "a b c",
            " ",
        ] {
            let _ = run(s);
        }
    }
}
