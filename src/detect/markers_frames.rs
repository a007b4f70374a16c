//! Phrases written as frames: slots of alternatives, every path through the
//! slots a phrase (`"that|it / doesn't|does not / sound|look|seem /
//! right|correct"`). The reply families (`markers_doubt.rs`,
//! `markers_report.rs`) say a family in a few frames instead of hundreds of
//! listed phrases, and the frames are matched without expanding them: a
//! frame is looked up by the first word (or, for Chinese and Japanese, the
//! first character) of its first slot and walked slot by slot from there.
//!
//! How to write a frame (the tests check every frame):
//! - slots are separated by `" / "`, alternatives by `|`; an empty
//!   alternative makes a slot optional (never the first);
//! - alternatives are written as the normalised text reads
//!   (`markers::normalize`): lowercase, ASCII `'`, single spaces;
//! - in languages written with spaces, consecutive slots are joined by one
//!   space, except an alternative that starts with punctuation (`?`, `,`),
//!   which follows the previous slot directly or after one space; Chinese
//!   and Japanese slots join with nothing or one space;
//! - a phrase starts at a word start and, when it ends in a letter, ends at a
//!   word end; Chinese and Japanese phrases match anywhere.

use std::collections::HashMap;

use super::markers::is_cjk;
use super::markers_reply::is_word;
use crate::hash::FastBuild;

/// One frame: a phrase as slots of alternatives.
pub(super) struct Frame {
    /// The language it is written in; a frame matches a message in any
    /// language, but "zh" and "ja" frames match without word boundaries.
    pub lang: &'static str,
    /// Slots separated by `" / "`, alternatives by `|`.
    pub text: &'static str,
}

impl Frame {
    pub(super) const fn new(lang: &'static str, text: &'static str) -> Self {
        Frame { lang, text }
    }
}

/// A frame read into its slots.
struct Parsed {
    spaced: bool,
    slots: Vec<Vec<&'static str>>,
}

fn parse(f: &Frame) -> Parsed {
    Parsed {
        spaced: !matches!(f.lang, "zh" | "ja"),
        slots: f
            .text
            .split(" / ")
            .map(|s| s.split('|').collect())
            .collect(),
    }
}

/// Words of `t` from byte `at`, up to `n`.
pub(super) fn words_from(t: &str, at: usize, n: usize) -> impl Iterator<Item = &str> {
    t.get(at..)
        .unwrap_or("")
        .split(|c: char| !is_word(c))
        .filter(|w| !w.is_empty())
        .take(n)
}

/// Whether `word` is one of the `|`-separated words of `list`.
pub(super) fn listed(list: &str, word: &str) -> bool {
    !word.is_empty() && list.split('|').any(|w| w == word)
}

/// Occurrences offered to `keep` before a search gives up: the callers'
/// checks read a bounded window around each, and a message that repeats a
/// phrase sixteen times says no more than one that says it once.
pub(super) const MAX_OFFERS: usize = 16;

/// Frames by the key of their first slot's alternatives.
pub(super) struct Frames {
    frames: Vec<Parsed>,
    by_key: HashMap<&'static str, Vec<u16>, FastBuild>,
}

/// The key an alternative is looked up by: its first word, or its first
/// character in a frame written without spaces.
fn key(alt: &str, spaced: bool) -> &str {
    let len = if spaced {
        alt.find(|c: char| !is_word(c)).unwrap_or(alt.len())
    } else {
        alt.chars().next().map_or(0, char::len_utf8)
    };
    alt.get(..len).unwrap_or("")
}

impl Frames {
    pub(super) fn new(frames: &'static [Frame]) -> Self {
        let frames: Vec<Parsed> = frames.iter().map(parse).collect();
        let mut by_key: HashMap<&'static str, Vec<u16>, FastBuild> = HashMap::default();
        for (i, f) in (0u16..).zip(&frames) {
            for alt in f.slots.first().into_iter().flatten() {
                let list = by_key.entry(key(alt, f.spaced)).or_default();
                if list.last() != Some(&i) {
                    list.push(i);
                }
            }
        }
        Frames { frames, by_key }
    }

    /// Whether some frame occurs in `t`.
    pub(super) fn any(&self, t: &str) -> bool {
        self.find(t, |_, _| true).is_some()
    }

    /// The first frame occurrence in normalised text `t`, in text order,
    /// that `keep` accepts, as a byte span. Linear in `t`: each word start
    /// (and each character outside ASCII) costs a lookup, and each frame
    /// found there a walk bounded by the frame's size.
    pub(super) fn find(
        &self,
        t: &str,
        mut keep: impl FnMut(usize, usize) -> bool,
    ) -> Option<(usize, usize)> {
        let mut prev_word = false;
        let mut offered = 0;
        for (i, c) in t.char_indices() {
            if offered >= MAX_OFFERS {
                break;
            }
            let word_start = is_word(c) && !prev_word;
            prev_word = is_word(c);
            let cjk = is_cjk(c);
            if !word_start && !cjk {
                continue;
            }
            let rest = t.get(i..).unwrap_or("");
            // The word is measured only where a word starts.
            let lookups = [
                (word_start, word_start.then(|| key(rest, true)), true),
                (cjk, Some(key(rest, false)), false),
            ];
            for (active, k, spaced) in lookups {
                let Some(list) = k.and_then(|k| self.by_key.get(k)).filter(|_| active) else {
                    continue;
                };
                for &f in list {
                    let Some(frame) = self.frames.get(usize::from(f)) else {
                        continue;
                    };
                    if frame.spaced != spaced {
                        continue;
                    }
                    let Some(end) = walk(t, i, &frame.slots, spaced, true) else {
                        continue;
                    };
                    if keep(i, end) {
                        return Some((i, end));
                    }
                    offered += 1;
                }
            }
        }
        None
    }
}

/// The end of the first path through `slots` that `t` spells from byte `at`.
fn walk(t: &str, at: usize, slots: &[Vec<&str>], spaced: bool, first: bool) -> Option<usize> {
    let Some((slot, rest)) = slots.split_first() else {
        return Some(at);
    };
    for alt in slot.iter() {
        crate::work::add(1);
        if alt.is_empty() {
            if let Some(end) = walk(t, at, rest, spaced, first) {
                return Some(end);
            }
            continue;
        }
        let mut from = at;
        // Punctuation follows its word directly or after one space ("sûr ?").
        let attached = alt.starts_with(|c: char| !is_word(c));
        if !first {
            let gap = t.get(from..).is_some_and(|r| r.starts_with(' '));
            if gap {
                from += 1;
            } else if spaced && !attached {
                continue;
            }
        }
        if !t.get(from..).is_some_and(|r| r.starts_with(alt)) {
            continue;
        }
        let end = from + alt.len();
        // "sure-footed" runs on past the hyphen.
        let mut next = t.get(end..).unwrap_or("").chars();
        let runs_on = match next.next() {
            Some('-') => next.next().is_some_and(char::is_alphabetic),
            c => c.is_some_and(is_word),
        };
        if spaced && alt.ends_with(is_word) && runs_on {
            continue;
        }
        if let Some(end) = walk(t, end, rest, spaced, false) {
            return Some(end);
        }
    }
    None
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// Whether the whole analysis reads `msg`, replying to `prev`, as pushback.
    pub(crate) fn fires(msg: &str, prev: &str) -> bool {
        !crate::detect::markers::analyze_after(msg, prev)
            .pushback
            .is_empty()
    }

    /// Checks a list of frames is written as the matcher reads it.
    pub(crate) fn check(name: &str, frames: &[Frame]) {
        for f in frames {
            let p = parse(f);
            for (k, slot) in p.slots.iter().enumerate() {
                for alt in slot {
                    let at = format!("{name}/{}: {alt:?} in {:?}", f.lang, f.text);
                    assert!(k > 0 || !alt.is_empty(), "{at}: optional first slot");
                    assert_eq!(*alt, alt.to_lowercase(), "{at} not lowercase");
                    assert!(!alt.contains(['\u{2019}', '\u{2018}']), "{at} curly");
                    assert_eq!(*alt, alt.trim(), "{at} spaces around");
                    assert!(!alt.contains("  ") && !alt.contains('\n'), "{at} space");
                    assert!(!alt.contains('/'), "{at} a slot mark left");
                    if k == 0 {
                        assert!(alt.starts_with(is_word), "{at} must start a word");
                    }
                }
            }
        }
    }

    static TEST: &[Frame] = &[
        Frame::new(
            "en",
            "that|it / doesn't|does not / sound|seem / right|correct",
        ),
        Frame::new("en", "you sure|u sure / ?|about"),
        Frame::new("en", "i / |still / get"),
        Frame::new("zh", "你确定 / 吗|?"),
    ];

    fn found(text: &str) -> Option<&str> {
        let frames = Frames::new(TEST);
        frames
            .find(text, |_, _| true)
            .and_then(|(a, b)| text.get(a..b))
    }

    #[test]
    fn frames_match_every_path_at_word_boundaries() {
        assert_eq!(
            found("hmm, that doesn't sound right."),
            Some("that doesn't sound right")
        );
        assert_eq!(
            found("it does not seem correct"),
            Some("it does not seem correct")
        );
        assert_eq!(found("that doesn't sound rightful"), None, "word end");
        assert_eq!(found("what doesn't sound right"), None, "word start");
        assert_eq!(found("you sure? my lease says 60"), Some("you sure?"));
        assert_eq!(found("u sure about that"), Some("u sure about"));
        assert_eq!(found("i still get it"), Some("i still get"));
        assert_eq!(found("i get it"), Some("i get"), "an optional slot");
        assert_eq!(found("这个你确定吗"), Some("你确定吗"));
        assert_eq!(found("你确定 ?"), Some("你确定 ?"), "one space may join");
        check("test", TEST);
        assert!(listed("a|bc|d", "bc") && !listed("a|bc|d", "b") && !listed("a||b", ""));
    }

    #[test]
    fn keep_can_pass_over_an_occurrence() {
        let frames = Frames::new(TEST);
        let t = "if that doesn't sound right, it does not seem correct";
        let second = frames.find(t, |a, _| a > 10);
        assert_eq!(
            second.and_then(|(a, b)| t.get(a..b)),
            Some("it does not seem correct")
        );
    }

    #[test]
    fn finding_is_linear_in_the_text() {
        let frames = Frames::new(TEST);
        for unit in [
            "that doesn't sound rightly ",
            "i still i still ",
            "你确定你确定",
            "确定确定",
        ] {
            let mut per_byte = Vec::new();
            for n in [4 * 1024, 64 * 1024] {
                let text = unit.repeat(n / unit.len() + 1);
                let work = crate::work::counted(|| {
                    frames.find(&text, |_, _| false);
                });
                per_byte.push(work as f64 / text.len() as f64);
            }
            assert!(per_byte.iter().all(|&w| w <= 2.0), "{unit:?}: {per_byte:?}");
        }
    }
}
