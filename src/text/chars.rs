//! `char::is_alphabetic` and `char::is_alphanumeric` with the scripts most
//! text outside ASCII is written in answered by a bit test or a range:
//! std's own test is a search of the Unicode tables for every character
//! past ASCII, the largest cost in tokenising non-English text and in
//! building the word-list indexes. The answers are std's own, for every
//! character (a test compares all of them).

/// U+0080 to U+07FF (Latin-1, Latin Extended, IPA, Greek, Cyrillic,
/// Armenian, Hebrew, Arabic…), a bit per character.
const LOW_FROM: u32 = 0x80;
const LOW_TO: u32 = 0x800;

pub fn is_alphabetic(c: char) -> bool {
    let u = c as u32;
    if u < LOW_FROM {
        c.is_ascii_alphabetic()
    } else if u < LOW_TO {
        bit(&ALPHABETIC, u)
    } else if wide_letter(u) {
        true
    } else {
        c.is_alphabetic()
    }
}

pub fn is_alphanumeric(c: char) -> bool {
    let u = c as u32;
    if u < LOW_FROM {
        c.is_ascii_alphanumeric()
    } else if u < LOW_TO {
        bit(&ALPHABETIC, u) || low_numeric(u)
    } else if wide_letter(u) {
        true
    } else {
        c.is_alphanumeric()
    }
}

/// CJK ideographs (the unified block and extension A) and Hangul
/// syllables: every character in them is a letter.
fn wide_letter(u: u32) -> bool {
    matches!(u, 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7A3)
}

fn bit(words: &[u64; 30], u: u32) -> bool {
    let i = (u - LOW_FROM) as usize;
    words.get(i / 64).is_some_and(|w| w >> (i % 64) & 1 == 1)
}

// Generated from std (`char::is_alphabetic`); the test
// below fails if a toolchain's Unicode version ever disagrees.
const ALPHABETIC: [u64; 30] = [
    0x0420040000000000,
    0xff7fffffff7fffff,
    0xffffffffffffffff,
    0xffffffffffffffff,
    0xffffffffffffffff,
    0xffffffffffffffff,
    0xffffffffffffffff,
    0xffffffffffffffff,
    0xffffffffffffffff,
    0x0000501f0003ffc3,
    0x0000000000000000,
    0xbcdffff800000020,
    0xfffffffbffffd740,
    0xffbfffffffffffff,
    0xffffffffffffffff,
    0xffffffffffffffff,
    0xfffffffffffffc03,
    0xffffffffffffffff,
    0xfffeffffffffffff,
    0xffffffff027fffff,
    0xbfff0000000001ff,
    0x000787ffffff00b6,
    0xffffffff07ff0000,
    0xffffc000feffffff,
    0xffffffffffffffff,
    0x9c00e1fe1fefffff,
    0xffffffffffff0000,
    0xffffffffffffe000,
    0x0003ffffffffffff,
    0x043007fffffffc00,
];

/// The numbers among U+0080 to U+07FF: superscripts and fractions of
/// Latin-1, Arabic-Indic, extended Arabic-Indic and NKo digits.
fn low_numeric(u: u32) -> bool {
    matches!(u, 0xB2 | 0xB3 | 0xB9 | 0xBC..=0xBE | 0x660..=0x669 | 0x6F0..=0x6F9 | 0x7C0..=0x7C9)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_character_is_classed_as_std_classes_it() {
        for c in (0..=0x10FFFF).filter_map(char::from_u32) {
            assert_eq!(is_alphabetic(c), c.is_alphabetic(), "{c:?}");
            assert_eq!(is_alphanumeric(c), c.is_alphanumeric(), "{c:?}");
        }
    }
}
