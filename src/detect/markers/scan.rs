//! One pass over a reply finds every family of frames the reply rules read
//! (`frames.rs`): the rules then ask the scan, not the text, so a
//! reply costs one lookup per word however many families there are.

use std::sync::OnceLock;

use super::frames::{Found, Frame, FrameSet};
use super::is_cjk;
use super::sarcasm::PRAISE;
use super::{accept, doubt, redirect, report, switch};

/// Family numbers: one per frame list.
pub(super) mod fam {
    pub const DOUBTS: u8 = 0;
    pub const CIRCLING: u8 = 1;
    pub const SURPRISE: u8 = 2;
    pub const GLAD: u8 = 3;
    pub const GO_AHEAD: u8 = 4;
    pub const DOCS: u8 = 5;
    pub const DISBELIEF: u8 = 6;
    pub const ASKS_BACK: u8 = 7;
    pub const TRIED: u8 = 8;
    pub const TIMES: u8 = 9;
    pub const STATED: u8 = 10;
    pub const REPORTS: u8 = 11;
    pub const UNCHANGED: u8 = 12;
    pub const PERSISTS: u8 = 13;
    pub const STOPPED: u8 = 14;
    pub const FINE: u8 = 15;
    pub const GONE: u8 = 16;
    pub const FAILURE_NOUNS: u8 = 17;
    pub const ELSEWHERE: u8 = 18;
    pub const OTHERS: u8 = 19;
    pub const MY_SIDE: u8 = 20;
    pub const BUT: u8 = 21;
    pub const BROKEN: u8 = 22;
    pub const TURNS: u8 = 23;
    pub const SAME: u8 = 24;
    pub const AGAIN: u8 = 25;
    pub const PLEASE: u8 = 26;
    pub const ANSWERED: u8 = 27;
    pub const STILL: u8 = 28;
    pub const OLD: u8 = 29;
    pub const MEANT: u8 = 30;
    pub const PRAISE: u8 = 31;
    pub const YES: u8 = 32;
    pub const TURN: u8 = 33;
    pub const PASTED: u8 = 34;
    pub const OWN: u8 = 35;
    pub const FOLLOWED: u8 = 36;
    pub const THEN: u8 = 37;
    pub const SWITCH: u8 = 38;
    pub const ASKED: u8 = 39;
    pub const AGAINST: u8 = 40;
}

/// The sarcasm rule's praise words as frames, spaced and CJK apart.
fn praise() -> &'static [Frame] {
    static FRAMES: OnceLock<[Frame; 2]> = OnceLock::new();
    static TEXT: OnceLock<(String, String)> = OnceLock::new();
    let (spaced, cjk) = TEXT.get_or_init(|| {
        let (c, s): (Vec<&str>, Vec<&str>) = PRAISE.iter().partition(|w| w.chars().all(is_cjk));
        (s.join("|"), c.join("|"))
    });
    FRAMES.get_or_init(|| [Frame::new("en", spaced), Frame::new("zh", cjk)])
}

/// Every family with its frames.
fn families() -> [(u8, &'static [Frame]); 41] {
    [
        (fam::DOUBTS, doubt::DOUBTS),
        (fam::CIRCLING, doubt::CIRCLING),
        (fam::SURPRISE, doubt::SURPRISE),
        (fam::GLAD, doubt::GLAD),
        (fam::GO_AHEAD, doubt::GO_AHEAD),
        (fam::DOCS, doubt::DOCS),
        (fam::DISBELIEF, doubt::DISBELIEF),
        (fam::ASKS_BACK, doubt::ASKS_BACK),
        (fam::TRIED, doubt::TRIED),
        (fam::TIMES, doubt::TIMES),
        (fam::STATED, doubt::STATED),
        (fam::REPORTS, report::REPORTS),
        (fam::UNCHANGED, report::UNCHANGED),
        (fam::PERSISTS, report::PERSISTS),
        (fam::STOPPED, report::STOPPED),
        (fam::FINE, report::FINE),
        (fam::GONE, report::GONE),
        (fam::FAILURE_NOUNS, report::FAILURE_NOUNS),
        (fam::ELSEWHERE, report::ELSEWHERE),
        (fam::OTHERS, report::OTHERS),
        (fam::MY_SIDE, report::MY_SIDE),
        (fam::BUT, report::BUT),
        (fam::BROKEN, report::BROKEN),
        (fam::TURNS, report::TURNS),
        (fam::SAME, report::SAME),
        (fam::AGAIN, report::AGAIN),
        (fam::PLEASE, report::PLEASE),
        (fam::ANSWERED, report::ANSWERED),
        (fam::STILL, report::STILL),
        (fam::OLD, report::OLD),
        (fam::MEANT, redirect::MEANT),
        (fam::PRAISE, praise()),
        (fam::YES, accept::YES),
        (fam::TURN, accept::TURN),
        (fam::PASTED, report::PASTED),
        (fam::OWN, report::OWN),
        (fam::FOLLOWED, report::FOLLOWED),
        (fam::THEN, report::THEN),
        (fam::SWITCH, switch::SWITCH),
        (fam::ASKED, redirect::ASKED),
        (fam::AGAINST, redirect::AGAINST),
    ]
}

/// The frames of every family, indexed once.
fn set() -> &'static FrameSet {
    static SET: OnceLock<FrameSet> = OnceLock::new();
    SET.get_or_init(|| FrameSet::new(&families()))
}

/// Every frame family found in normalised reply `t`.
pub(super) fn scan(t: &str) -> Found {
    set().scan(t)
}

/// Only the families that say how a message opens (YES, GLAD, SWITCH), in
/// its first 64 bytes, normalised: read at every turn start, so kept apart
/// from the full set.
pub(super) fn scan_opening(message: &str) -> Found {
    static SET: OnceLock<FrameSet> = OnceLock::new();
    let head = &message[..message.floor_char_boundary(64.min(message.len()))];
    let (t, _) = super::normalize(head.trim_start());
    SET.get_or_init(|| {
        FrameSet::new(&[
            (fam::YES, accept::YES),
            (fam::GLAD, doubt::GLAD),
            (fam::SWITCH, switch::SWITCH),
        ])
    })
    .scan(&t)
}

/// Whether `from..to` of the scanned text praises or thanks: "Isn't it
/// great? Works perfectly", "really? that's great".
pub(super) fn glad(found: &Found, from: usize, to: usize) -> bool {
    found.any_in(fam::PRAISE, from, to) || found.any_in(fam::GLAD, from, to)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_family_is_written_as_normalised_text() {
        for (f, frames) in families() {
            crate::detect::markers::frames::tests::check(&format!("family {f}"), frames);
        }
    }

    #[test]
    fn every_family_number_fits_a_scan() {
        assert!(usize::from(fam::AGAINST) < crate::detect::markers::frames::MAX_FAMILIES);
    }

    #[test]
    fn praise_words_are_frames_too() {
        let t = "great, now it loads. 太好了";
        let found = scan(t);
        assert!(glad(&found, 0, 6) && glad(&found, 21, t.len()));
        assert!(!glad(&found, 6, 21));
    }
}
