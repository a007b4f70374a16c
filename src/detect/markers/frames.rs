//! Phrases written as frames: slots of alternatives, every path through the
//! slots a phrase (`"that|it / doesn't|does not / sound|look|seem /
//! right|correct"`). The reply families (`doubt.rs`,
//! `report.rs`) say a family in a few frames instead of hundreds of
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

use super::groups::Groups;
use super::is_cjk;
use super::reply::is_word;

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

/// A frame read into its slots: where they are in `FrameSet::slots`.
struct Parsed {
    spaced: bool,
    slots: (u32, u32),
}

/// `text.split(" / ")`, read a byte at a time (the string searcher's setup
/// cost more than these short texts).
fn slot_texts(text: &str) -> impl Iterator<Item = &str> {
    split_on(text, b" / ")
}

/// Words of `t` from byte `at`, up to `n`.
pub(super) fn words_from(t: &str, at: usize, n: usize) -> impl Iterator<Item = &str> {
    t.get(at..)
        .unwrap_or("")
        .split(|c: char| !is_word(c))
        .filter(|w| !w.is_empty())
        .take(n)
}

/// The words of `t`, each with its byte offset.
pub(super) fn words_at(t: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut rest = t;
    let mut base = 0;
    std::iter::from_fn(move || {
        let skip = rest.find(is_word)?;
        let len = rest
            .get(skip..)?
            .find(|c: char| !is_word(c))
            .unwrap_or(rest.len() - skip);
        let at = base + skip;
        let word = rest.get(skip..skip + len)?;
        rest = rest.get(skip + len..)?;
        base = at + len;
        Some((at, word))
    })
}

/// Whether `word` is one of the `|`-separated words of `list`.
pub(super) fn listed(list: &str, word: &str) -> bool {
    !word.is_empty() && pieces(list).any(|w| w == word)
}

/// `list.split('|')`, read a byte at a time: the pieces are short, and the
/// char searcher's setup per piece cost more than reading them.
pub(super) fn pieces(list: &str) -> impl Iterator<Item = &str> {
    split_on(list, b"|")
}

/// `text.split(sep)` for an ASCII `sep`, by bytes.
fn split_on<'a>(text: &'a str, sep: &'static [u8]) -> impl Iterator<Item = &'a str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let r = rest?;
        let at = match sep {
            [b] => r.bytes().position(|x| x == *b),
            _ => r.as_bytes().windows(sep.len()).position(|w| w == sep),
        };
        match at {
            Some(i) => {
                rest = r.get(i + sep.len()..);
                r.get(..i)
            }
            None => {
                rest = None;
                Some(r)
            }
        }
    })
}

/// Occurrences offered to `keep` before a search gives up: the callers'
/// checks read a bounded window around each, and a message that repeats a
/// phrase sixteen times says no more than one that says it once.
pub(super) const MAX_OFFERS: usize = 16;

/// Occurrences kept per family by one scan.
const MAX_KEPT: usize = 64;
/// Families one set may hold (family numbers run below it).
pub(super) const MAX_FAMILIES: usize = 48;
/// Walks tried per family by one scan, matched or not.
const MAX_TRIED: usize = 4 * MAX_KEPT;

/// Families of frames by the key of their first slot's alternatives.
pub(super) struct FrameSet {
    frames: Vec<(u8, Parsed)>,
    /// Every frame's slots, each as where its alternatives are in `alts`.
    slots: Vec<(u32, u32)>,
    alts: Vec<&'static str>,
    /// Each key's first-slot alternatives, as (frame, alternative).
    by_key: Groups<(u16, u16)>,
}

/// The key an alternative is looked up by: its first word, or its first
/// character in a frame written without spaces.
fn key(alt: &str, spaced: bool) -> &str {
    let len = if spaced {
        // ASCII word bytes by byte (most words); from the first other
        // character on, by character.
        let ascii = alt
            .bytes()
            .position(|b| !(b.is_ascii_alphanumeric() || b == b'\'' || b == b'_'))
            .unwrap_or(alt.len());
        match alt.get(ascii..) {
            Some(rest) if !rest.is_empty() && !rest.starts_with(|c: char| c.is_ascii()) => {
                ascii + rest.find(|c: char| !is_word(c)).unwrap_or(rest.len())
            }
            _ => ascii,
        }
    } else {
        alt.chars().next().map_or(0, char::len_utf8)
    };
    alt.get(..len).unwrap_or("")
}

impl FrameSet {
    /// A set of families, each a family number (below `MAX_FAMILIES`;
    /// others are never found) and its frames.
    pub(super) fn new(families: &[(u8, &[Frame])]) -> Self {
        // Flat arrays, not a vector per slot and per key: building the sets
        // is part of the first reply a process reads.
        let count: usize = families.iter().map(|(_, list)| list.len()).sum();
        let mut frames = Vec::with_capacity(count);
        let (mut slots, mut alts) = (Vec::new(), Vec::new());
        // (key, (frame, alternative)) in frame order.
        let mut keyed: Vec<(&'static str, (u16, u16))> = Vec::new();
        for (i, (fam, f)) in (0u16..).zip(
            families
                .iter()
                .flat_map(|&(fam, list)| list.iter().map(move |f| (fam, f))),
        ) {
            let spaced = !matches!(f.lang, "zh" | "ja");
            let first_slot = slots.len() as u32;
            for text in slot_texts(f.text) {
                let from = alts.len() as u32;
                alts.extend(pieces(text));
                slots.push((from, alts.len() as u32 - from));
            }
            let (from, n) = slots.get(first_slot as usize).copied().unwrap_or((0, 0));
            for (j, alt) in
                (0u16..).zip(alts.get(from as usize..(from + n) as usize).unwrap_or(&[]))
            {
                keyed.push((key(alt, spaced), (i, j)));
            }
            let parsed = Parsed {
                spaced,
                slots: (first_slot, slots.len() as u32 - first_slot),
            };
            frames.push((fam, parsed));
        }
        let by_key = Groups::new(keyed);
        FrameSet {
            frames,
            slots,
            alts,
            by_key,
        }
    }

    /// The slots `(from, n)` of `self.slots`.
    fn slot_range(&self, (from, n): (u32, u32)) -> &[(u32, u32)] {
        self.slots
            .get(from as usize..(from + n) as usize)
            .unwrap_or(&[])
    }

    /// The alternatives of one slot.
    fn alts_of(&self, (from, n): (u32, u32)) -> &[&'static str] {
        self.alts
            .get(from as usize..(from + n) as usize)
            .unwrap_or(&[])
    }

    /// Every frame occurrence in normalised text `t`, in text order, up to
    /// `MAX_KEPT` per family. One pass: each word start (and each character
    /// outside ASCII) costs one lookup, and each frame found there a walk
    /// bounded by the frame's size.
    pub(super) fn scan(&self, t: &str) -> Found {
        let mut found = Found {
            hits: Vec::new(),
            kept: [0; MAX_FAMILIES],
        };
        let mut tried = [0u16; MAX_FAMILIES];
        let mut prev_word = false;
        for (i, c) in t.char_indices() {
            // ASCII first: most text is, and its classes are one compare.
            let (word, cjk) = if c.is_ascii() {
                (c.is_ascii_alphanumeric() || c == '\'' || c == '_', false)
            } else {
                (is_word(c), is_cjk(c))
            };
            let word_start = word && !prev_word;
            prev_word = word;
            if !word_start && !cjk {
                continue;
            }
            let rest = t.get(i..).unwrap_or("");
            // The word is measured only where a word starts.
            let lookups = [
                (word_start.then(|| key(rest, true)), true),
                (cjk.then(|| key(rest, false)), false),
            ];
            for (k, spaced) in lookups {
                let Some(list) = k.and_then(|k| self.by_key.get(k)) else {
                    continue;
                };
                let mut last = None;
                for &(f, j) in list {
                    // A frame whose earlier alternative matched here is done.
                    if last == Some(f) {
                        continue;
                    }
                    let Some((fam, frame)) = self.frames.get(usize::from(f)) else {
                        continue;
                    };
                    let slot = usize::from(*fam);
                    let (Some(kept), Some(tries)) = (found.kept.get_mut(slot), tried.get_mut(slot))
                    else {
                        continue;
                    };
                    if frame.spaced != spaced
                        || usize::from(*kept) >= MAX_KEPT
                        || usize::from(*tries) >= MAX_TRIED
                    {
                        continue;
                    }
                    *tries += 1;
                    let slots = self.slot_range(frame.slots);
                    let first = slots
                        .first()
                        .and_then(|&s| self.alts_of(s).get(usize::from(j)));
                    let rest = slots.get(1..).unwrap_or(&[]);
                    if let Some(end) =
                        first.and_then(|alt| self.step(t, i, alt, rest, spaced, true))
                    {
                        *kept += 1;
                        last = Some(f);
                        found.hits.push((*fam, i, end));
                    }
                }
            }
        }
        found
    }
}

/// The frame occurrences of one text, by family.
pub(super) struct Found {
    hits: Vec<(u8, usize, usize)>,
    kept: [u8; MAX_FAMILIES],
}

impl Found {
    /// The first occurrence of family `fam`, in text order, that `keep`
    /// accepts; at most `MAX_OFFERS` are offered.
    pub(super) fn find(
        &self,
        fam: u8,
        mut keep: impl FnMut(usize, usize) -> bool,
    ) -> Option<(usize, usize)> {
        self.hits
            .iter()
            .filter(|h| h.0 == fam)
            .take(MAX_OFFERS)
            .find(|h| keep(h.1, h.2))
            .map(|h| (h.1, h.2))
    }

    /// Whether family `fam` occurs.
    pub(super) fn any(&self, fam: u8) -> bool {
        self.kept.get(usize::from(fam)).is_some_and(|&n| n > 0)
    }

    /// Whether family `fam` occurs wholly within bytes `from..to`.
    pub(super) fn any_in(&self, fam: u8, from: usize, to: usize) -> bool {
        self.hits
            .iter()
            .any(|h| h.0 == fam && h.1 >= from && h.2 <= to)
    }
}

impl FrameSet {
    /// The end of the first path through `slots` that `t` spells from byte `at`.
    fn walk(
        &self,
        t: &str,
        at: usize,
        slots: &[(u32, u32)],
        spaced: bool,
        first: bool,
    ) -> Option<usize> {
        let Some((&slot, rest)) = slots.split_first() else {
            return Some(at);
        };
        self.alts_of(slot)
            .iter()
            .find_map(|alt| self.step(t, at, alt, rest, spaced, first))
    }

    /// The end of a path that `t` spells from byte `at`: alternative `alt`,
    /// then the slots `rest`.
    fn step(
        &self,
        t: &str,
        at: usize,
        alt: &str,
        rest: &[(u32, u32)],
        spaced: bool,
        first: bool,
    ) -> Option<usize> {
        crate::work::add(1);
        if alt.is_empty() {
            return self.walk(t, at, rest, spaced, first);
        }
        let mut from = at;
        // Punctuation follows its word directly or after one space ("sûr ?").
        let attached = alt.starts_with(|c: char| !is_word(c));
        if !first {
            let gap = t.get(from..).is_some_and(|r| r.starts_with(' '));
            if gap {
                from += 1;
            } else if spaced && !attached {
                return None;
            }
        }
        if !t.get(from..).is_some_and(|r| r.starts_with(alt)) {
            return None;
        }
        let end = from + alt.len();
        // "sure-footed" runs on past the hyphen.
        let mut next = t.get(end..).unwrap_or("").chars();
        let runs_on = match next.next() {
            Some('-') => next.next().is_some_and(char::is_alphabetic),
            c => c.is_some_and(is_word),
        };
        if spaced && alt.ends_with(is_word) && runs_on {
            return None;
        }
        self.walk(t, end, rest, spaced, false)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    #[test]
    fn pieces_split_as_split_does() {
        for list in ["", "|", "a", "a|b", "a|b|", "|a||b", "ü|日本|x", "||"] {
            assert_eq!(
                pieces(list).collect::<Vec<_>>(),
                list.split('|').collect::<Vec<_>>(),
                "{list:?}"
            );
        }
        for text in [
            "",
            " / ",
            "a / b",
            "a /  / b",
            "a / b / ",
            " /  / ",
            "a/b / c",
            "ü / 日本",
        ] {
            assert_eq!(
                slot_texts(text).collect::<Vec<_>>(),
                text.split(" / ").collect::<Vec<_>>(),
                "{text:?}"
            );
        }
    }

    /// Whether the whole analysis reads `msg`, replying to `prev`, as pushback.
    pub(crate) fn fires(msg: &str, prev: &str) -> bool {
        !crate::detect::markers::analyze_after(msg, prev)
            .pushback
            .is_empty()
    }

    /// Checks a list of frames is written as the matcher reads it.
    pub(crate) fn check(name: &str, frames: &[Frame]) {
        for f in frames {
            assert!(
                slot_texts(f.text).eq(f.text.split(" / ")),
                "{name}/{}: {:?} is split into slots as split(\" / \") does",
                f.lang,
                f.text
            );
            for (k, slot) in slot_texts(f.text).enumerate() {
                let mut seen = std::collections::HashSet::new();
                for alt in pieces(slot) {
                    let at = format!("{name}/{}: {alt:?} in {:?}", f.lang, f.text);
                    assert!(seen.insert(alt), "{at} listed twice in its slot");
                    assert!(k > 0 || !alt.is_empty(), "{at}: optional first slot");
                    assert_eq!(alt, alt.to_lowercase(), "{at} not lowercase");
                    assert!(!alt.contains(['\u{2019}', '\u{2018}']), "{at} curly");
                    assert_eq!(alt, alt.trim(), "{at} spaces around");
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
        let set = FrameSet::new(&[(0, TEST)]);
        set.scan(text)
            .find(0, |_, _| true)
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
        let set = FrameSet::new(&[(0, TEST), (1, &TEST[1..2])]);
        let t = "if that doesn't sound right, it does not seem correct; u sure?";
        let found = set.scan(t);
        let second = found.find(0, |a, _| a > 10);
        assert!(found.any(1) && found.any_in(1, 50, t.len()) && !found.any_in(1, 0, 50));
        assert_eq!(
            second.and_then(|(a, b)| t.get(a..b)),
            Some("it does not seem correct")
        );
    }

    #[test]
    fn finding_is_linear_in_the_text() {
        let set = FrameSet::new(&[(0, TEST)]);
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
                    set.scan(&text).find(0, |_, _| false);
                });
                per_byte.push(work as f64 / text.len() as f64);
            }
            assert!(per_byte.iter().all(|&w| w <= 2.0), "{unit:?}: {per_byte:?}");
        }
    }
}
