//! Word lists packed into one string each, to keep the wasm module small.
//!
//! A `&[&str]` list costs a pointer and a length (8 bytes in wasm32) per
//! entry beside the text; the crate's lists hold thousands of entries. A
//! `Words` list is its entries' text run together and where each ends (2
//! bytes per entry), both laid out at compile time by `words!`.
//!
//! Only the drift cue lists use it: there it saves 8 KB of wasm (2 KB
//! gzip). Packed, the other lists saved 5 KB raw and cost 0.5 KB gzip:
//! gzip already squeezes their regular pointer-length pairs, and a literal
//! shared by several lists is no longer stored once.

/// A list of words (or phrases), in the order written.
#[derive(Clone, Copy)]
pub struct Words {
    text: &'static str,
    ends: &'static [u16],
}

impl std::fmt::Debug for Words {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl Words {
    /// Use `words!`, which lays out `ends` from the entries.
    pub const fn new(text: &'static str, ends: &'static [u16]) -> Self {
        Self { text, ends }
    }

    pub const fn len(&self) -> usize {
        self.ends.len()
    }

    pub const fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Entry `i` (`None` past the end).
    pub fn get(&self, i: usize) -> Option<&'static str> {
        let end = *self.ends.get(i)? as usize;
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1] as usize,
        };
        self.text.get(start..end)
    }

    pub fn iter(&self) -> Iter {
        Iter {
            text: self.text,
            ends: self.ends.iter(),
            at: 0,
        }
    }

    pub fn contains(&self, word: &str) -> bool {
        self.iter().any(|w| w == word)
    }
}

impl IntoIterator for Words {
    type Item = &'static str;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

impl IntoIterator for &Words {
    type Item = &'static str;
    type IntoIter = Iter;
    fn into_iter(self) -> Iter {
        self.iter()
    }
}

/// The entries of a `Words`, in order.
#[derive(Clone)]
pub struct Iter {
    text: &'static str,
    ends: std::slice::Iter<'static, u16>,
    at: usize,
}

impl Iterator for Iter {
    type Item = &'static str;

    fn next(&mut self) -> Option<&'static str> {
        let end = *self.ends.next()? as usize;
        let word = self.text.get(self.at..end).unwrap_or("");
        self.at = end;
        Some(word)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.ends.size_hint()
    }
}

impl ExactSizeIterator for Iter {}

/// Where each of `N` entries of lengths `lens` ends in their concatenation.
pub const fn ends<const N: usize>(lens: &[usize]) -> [u16; N] {
    let mut out = [0u16; N];
    let (mut i, mut at) = (0, 0);
    while i < N {
        at += lens[i];
        assert!(at <= u16::MAX as usize, "a word list longer than 64 KB");
        out[i] = at as u16;
        i += 1;
    }
    out
}

/// `words!["a", "b"]`: a `Words` of string literals, laid out at compile time.
macro_rules! words {
    ($($w:literal),* $(,)?) => {{
        const LENS: &[usize] = &[$($w.len()),*];
        const ENDS: [u16; LENS.len()] = $crate::packed::ends::<{ LENS.len() }>(LENS);
        $crate::packed::Words::new(concat!($($w),*), &ENDS)
    }};
}
pub(crate) use words;

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: Words = words!["alpha", "", "βeta", "gamma delta", "x"];

    #[test]
    fn entries_read_back_as_written() {
        let want = ["alpha", "", "βeta", "gamma delta", "x"];
        assert_eq!(LIST.len(), want.len());
        assert!(LIST.iter().eq(want));
        for (i, w) in want.iter().enumerate() {
            assert_eq!(LIST.get(i), Some(*w));
        }
        assert_eq!(LIST.get(want.len()), None);
        assert!(LIST.contains("βeta") && LIST.contains("") && !LIST.contains("gamma"));
        assert_eq!(LIST.iter().len(), 5);
    }

    #[test]
    fn an_empty_list_is_empty() {
        const NONE: Words = words![];
        assert!(NONE.is_empty() && NONE.iter().next().is_none() && NONE.get(0).is_none());
    }
}
