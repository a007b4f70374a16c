//! Frustration, correction and preference markers in the user's messages.
//!
//! Phrase packs per language (`markers_lexicon.rs`, versioned) are matched on
//! a normalised copy of the text: full Unicode lowercase, curly apostrophes
//! folded to `'`, whitespace runs folded to one space. Phrases of languages
//! written with spaces match at word boundaries; Chinese and Japanese phrases
//! match anywhere. A hit inside an exclusion phrase (`没错了`, "nothing
//! wrong", "I provided the wrong …") does not count. Matching goes through an
//! index keyed by a phrase's first word (or first character for CJK), built
//! once, so a message costs a lookup per word, not a scan per phrase.

use std::collections::HashMap;

use crate::hash::FastBuild;
use std::sync::OnceLock;

pub use super::markers_lexicon::{LEXICON_VERSION, PACKS, Pack};
use super::markers_reply;
pub use super::markers_reply::Previous;

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
    let mut space = false;
    for (i, c) in text.char_indices() {
        if c.is_whitespace() {
            if !space && !out.is_empty() {
                out.push(' ');
                map.push(i);
            }
            space = true;
            continue;
        }
        space = false;
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

fn spaced(lang: &str) -> bool {
    !matches!(lang, "zh" | "ja")
}

fn is_word(c: char) -> bool {
    c.is_alphanumeric() || c == '\''
}

/// The index key of a phrase: its first word, or its first character for CJK.
fn key_of(phrase: &str, lang: &str) -> String {
    if spaced(lang) {
        phrase
            .split(|c: char| !is_word(c))
            .next()
            .unwrap_or("")
            .to_string()
    } else {
        phrase.chars().next().map(String::from).unwrap_or_default()
    }
}

type Entry = (Kind, &'static str, &'static str);

struct Index {
    by_key: HashMap<String, Vec<Entry>, FastBuild>,
    /// Some CJK phrase starts with an ASCII character; if none does (the
    /// usual case), ASCII characters need no lookup by character.
    ascii_cjk_key: bool,
}

fn build(packs: &'static [Pack]) -> Index {
    let mut by_key: HashMap<String, Vec<Entry>, FastBuild> = HashMap::default();
    for p in packs {
        for (kind, list) in [
            (Kind::Exclude, p.exclude),
            (Kind::Pushback, p.pushback),
            (Kind::Preference, p.preference),
        ] {
            for phrase in list {
                by_key
                    .entry(key_of(phrase, p.lang))
                    .or_default()
                    .push((kind, p.lang, phrase));
            }
        }
    }
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

/// Every phrase occurrence in normalised text `t`. Phrases of spaced
/// languages are looked up by the word starting at a word boundary and must
/// end at one; CJK phrases are looked up by the character at any position.
fn find_all(idx: &Index, t: &str) -> Vec<Hit> {
    let mut hits = Vec::new();
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
                    hits.push(Hit {
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
    hits
}

/// Analyses one user message on its own (phrases only).
pub fn analyze(text: &str) -> Analysis {
    analyze_with(index(), text, None)
}

/// Analyses a user message that replies to `previous`: besides the phrases,
/// pushback told by the reply itself (`markers_reply`).
pub fn analyze_reply(text: &str, previous: Option<Previous<'_>>) -> Analysis {
    analyze_with(index(), text, previous)
}

/// Letters typed apart for emphasis ("w r o n g. the total…") joined into a
/// word; `None` when the text has no run of three or more.
fn join_spaced_letters(t: &str) -> Option<String> {
    // A letter alone, perhaps followed by punctuation ("g.").
    let letter = |w: &&str| {
        let mut cs = w.chars();
        cs.next().is_some_and(char::is_alphabetic) && cs.all(|c| !c.is_alphanumeric())
    };
    let words: Vec<&str> = t.split(' ').collect();
    let (mut out, mut joined, mut i) = (String::with_capacity(t.len()), false, 0);
    while let Some(&w) = words.get(i) {
        let run = words[i..].iter().take_while(|w| letter(w)).count();
        if !out.is_empty() {
            out.push(' ');
        }
        if run >= 3 {
            words[i..i + run].iter().for_each(|w| out.push_str(w));
            joined = true;
            i += run;
        } else {
            out.push_str(w);
            i += 1;
        }
    }
    joined.then_some(out)
}

/// Hits that are not wholly inside an exclusion hit.
fn outside_exclusions(hits: &[Hit]) -> impl Iterator<Item = &Hit> {
    hits.iter().filter(|h| {
        !hits
            .iter()
            .any(|x| x.kind == Kind::Exclude && x.start <= h.start && h.end <= x.end && x != *h)
    })
}

fn analyze_with(idx: &Index, text: &str, previous: Option<Previous<'_>>) -> Analysis {
    let (t, map) = normalize(text);
    let hits = find_all(idx, &t);
    let excluded = |h: &Hit| {
        hits.iter()
            .any(|x| x.kind == Kind::Exclude && x.start <= h.start && h.end <= x.end && x != h)
    };
    let mut out = Analysis::default();
    for h in &hits {
        if excluded(h) {
            continue;
        }
        match h.kind {
            Kind::Pushback => out.pushback.push(h.clone()),
            Kind::Preference => {
                let s = sentence(text, map.get(h.start).copied().unwrap_or(0));
                if !s.is_empty() && !out.preferences.iter().any(|p| p == s) {
                    out.preferences.push(s.to_string());
                }
            }
            Kind::Exclude => {}
        }
    }
    let joined = join_spaced_letters(&t);
    if out.pushback.is_empty()
        && let Some(joined) = &joined
    {
        let again = find_all(idx, joined);
        let found = outside_exclusions(&again).filter(|h| h.kind == Kind::Pushback);
        out.pushback.extend(found.cloned());
    }
    // A standing rule is what to act on ("No, from now on use tabs").
    if out.pushback.is_empty()
        && out.preferences.is_empty()
        && let Some((phrase, start, end)) =
            markers_reply::find(joined.as_deref().unwrap_or(&t), previous)
    {
        let h = Hit {
            kind: Kind::Pushback,
            lang: "",
            phrase,
            start,
            end,
        };
        if !excluded(&h) {
            out.pushback.push(h);
        }
    }
    out
}

/// The sentence of `text` around byte `at`, trimmed.
fn sentence(text: &str, at: usize) -> &str {
    let is_end = |c: char| matches!(c, '.' | '!' | '?' | '\n' | '。' | '！' | '？' | '；' | ';');
    let head = text.get(..at).unwrap_or("");
    let start = head.rfind(is_end).map_or(0, |i| {
        i + head[i..].chars().next().map_or(1, char::len_utf8)
    });
    let tail = text.get(at..).unwrap_or("");
    let end = tail.find(is_end).map_or(text.len(), |i| {
        at + i + tail[i..].chars().next().map_or(0, char::len_utf8)
    });
    text.get(start..end).unwrap_or("").trim()
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
        assert_eq!(normalize("ﾀﾞﾒです ｴﾗｰ ﾊﾟｽ ｳﾞ").0, "ダメです エラー パス ヴ");
        assert_eq!(normalize("ＷＲＯＮＧ ＡＧＡＩＮ！").0, "wrong again!");
        assert_eq!(pushes("ＷＲＯＮＧ　ＡＧＡＩＮ"), ["wrong again"]);
        assert_eq!(pushes("W R O N G again."), ["wrong again"]);
        assert_eq!(
            join_spaced_letters("a b c d and i am"),
            Some("abcd and i am".into())
        );
        assert_eq!(join_spaced_letters("i am a dev"), None);
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
