//! JSON by hand where serde_json is too slow: a minimal reader for the
//! snapshot's fast path (the correction rows, nearly all of a mature
//! snapshot's bytes, and the two levels of objects around them, everything
//! else handed to serde_json), the two writers the rows need (which write
//! what serde_json writes), and the byte scans the tool-argument reader
//! (`detect::args`) shares.
//!
//! It accepts only well-formed input in the plain form reins writes, and
//! answers anything else with `None`: the caller then parses the whole text
//! with serde_json, which gives the same value or the exact error. So this
//! never decides what a snapshot means; it only reads the common case faster.

use serde::de::DeserializeOwned;

pub mod typed;

/// For serde's `skip_serializing_if`: a field at its default is left out.
pub(crate) fn is_default<T: Default + PartialEq>(v: &T) -> bool {
    *v == T::default()
}

/// Nesting serde_json allows below the top level (its limit is 128 levels,
/// the outermost one included).
pub const MAX_NESTING: usize = 127;

pub struct Cursor<'a> {
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    pub fn new(text: &'a str) -> Self {
        Cursor { text, pos: 0 }
    }

    #[inline]
    fn rest(&self) -> &'a [u8] {
        self.text.as_bytes().get(self.pos..).unwrap_or_default()
    }

    /// The next byte after whitespace, not consumed.
    #[inline]
    pub fn peek(&mut self) -> Option<u8> {
        match self.rest().first() {
            // reins writes no whitespace: try the next byte first.
            Some(&b) if !is_space(b) => Some(b),
            _ => {
                self.pos += self.rest().iter().take_while(|&&b| is_space(b)).count();
                self.rest().first().copied()
            }
        }
    }

    /// Consumes `b` (after whitespace) if it comes next.
    #[inline]
    pub fn eat(&mut self, b: u8) -> bool {
        let next = self.peek() == Some(b);
        if next {
            self.pos += 1;
        }
        next
    }

    /// Consumes `b`, or fails.
    #[inline]
    pub fn expect(&mut self, b: u8) -> Option<()> {
        self.eat(b).then_some(())
    }

    /// Nothing but whitespace is left.
    pub fn end(&mut self) -> Option<()> {
        self.peek().is_none().then_some(())
    }

    /// The items of an array or the entries of an object, after its opening
    /// bracket: `item` reads one (an object's key included), and this reads
    /// the commas and the `close` bracket.
    pub fn items(
        &mut self,
        close: u8,
        mut item: impl FnMut(&mut Self) -> Option<()>,
    ) -> Option<()> {
        if self.eat(close) {
            return Some(());
        }
        loop {
            item(self)?;
            if !self.eat(b',') {
                return self.expect(close);
            }
        }
    }

    /// An object key without escapes, and its colon.
    #[inline]
    pub fn key(&mut self) -> Option<&'a str> {
        let k = self.plain_str()?;
        self.expect(b':')?;
        Some(k)
    }

    /// A string without escapes, borrowed; `None` for any other value.
    #[inline]
    pub fn plain_str(&mut self) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.pos;
        let end = start + special_at(self.rest())?;
        if self.text.as_bytes().get(end) != Some(&b'"') {
            return None;
        }
        self.pos = end + 1;
        self.text.get(start..end)
    }

    /// A string of exactly `len` bytes, borrowed, which the caller checks
    /// (for ids and tags: cheaper than looking for the closing quote).
    #[inline]
    pub fn quoted(&mut self, len: usize) -> Option<&'a str> {
        self.expect(b'"')?;
        let start = self.pos;
        if self.text.as_bytes().get(start + len) != Some(&b'"') {
            return None;
        }
        self.pos = start + len + 1;
        self.text.get(start..start + len)
    }

    /// Any string, its escapes decoded by serde_json.
    #[inline]
    pub fn string(&mut self) -> Option<String> {
        let start = self.pos;
        if let Some(s) = self.plain_str() {
            return Some(s.to_string());
        }
        self.pos = start;
        self.value(1)
    }

    /// A whole number as serde_json reads one into a `u64`: digits without a
    /// leading zero, no sign, fraction or exponent.
    #[inline]
    pub fn u64(&mut self) -> Option<u64> {
        self.peek()?;
        let bytes = self.rest();
        let (mut n, mut digits) = (0u64, 0);
        while let Some(&b) = bytes.get(digits).filter(|b| b.is_ascii_digit()) {
            n = n.wrapping_mul(10).wrapping_add(u64::from(b - b'0'));
            digits += 1;
        }
        // Nineteen digits cannot overflow; longer numbers are read again, checked.
        if digits > 19 {
            n = bytes.get(..digits)?.iter().try_fold(0u64, |n, d| {
                n.checked_mul(10)?.checked_add(u64::from(d - b'0'))
            })?;
        }
        let leading_zero = digits > 1 && bytes[0] == b'0';
        let fraction = matches!(bytes.get(digits), Some(b'.' | b'e' | b'E'));
        if digits == 0 || leading_zero || fraction {
            return None;
        }
        self.pos += digits;
        Some(n)
    }

    /// The next value read by serde_json, which must nest no deeper than
    /// `depth` levels (what the full parse would allow at this point).
    pub fn value<T: DeserializeOwned>(&mut self, depth: usize) -> Option<T> {
        self.peek()?;
        let rest = self.text.get(self.pos..)?;
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<T>();
        let value = values.next()?.ok()?;
        let len = values.byte_offset();
        if nests_deeper(rest.get(..len)?, depth) {
            return None;
        }
        self.pos += len;
        Some(value)
    }
}

/// A string as serde_json writes it: plain text is copied as it is, and
/// anything to escape is left to serde_json.
pub fn write_str(out: &mut Vec<u8>, s: &str) -> serde_json::Result<()> {
    if special_at(s.as_bytes()).is_some() {
        return serde_json::to_writer(out, s);
    }
    out.push(b'"');
    out.extend_from_slice(s.as_bytes());
    out.push(b'"');
    Ok(())
}

/// Writes `n` in decimal, as serde_json writes it, into `buf` from `at`,
/// and returns where it ends; `buf` needs room for 20 digits there. Two
/// digits a step (by table) as serde_json's `itoa` does, in 32-bit
/// arithmetic below 10^8 (record times have thirteen digits), byte by byte
/// rather than by slice copies, each of which is a call in the
/// size-optimised wasm build.
pub fn put_u64(buf: &mut [u8], at: usize, mut n: u64) -> usize {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let end = at + decimal_len(n);
    let mut i = end;
    let mut pair = |buf: &mut [u8], p: u32| {
        let p = 2 * p as usize;
        i -= 2;
        buf[i] = PAIRS[p];
        buf[i + 1] = PAIRS[p + 1];
    };
    // A 64-bit division by a constant becomes a 128-bit multiplication,
    // which wasm32 makes a library call (a third of export); its own
    // division instruction is far cheaper, so the divisor is kept opaque.
    let e8 = std::hint::black_box(100_000_000u64);
    while n >= e8 {
        let mut low = (n % e8) as u32;
        n /= e8;
        for _ in 0..4 {
            pair(buf, low % 100);
            low /= 100;
        }
    }
    // Below 10^8 now.
    let mut n = n as u32;
    while n >= 100 {
        pair(buf, n % 100);
        n /= 100;
    }
    if n >= 10 {
        pair(buf, n);
    } else {
        buf[at] = b'0' + n as u8;
    }
    end
}

/// How many decimal digits `n` has. (By comparisons: an overflow-checked
/// 64-bit multiplication is a 128-bit library call in wasm32.)
fn decimal_len(n: u64) -> usize {
    const POWERS: [u64; 20] = {
        let mut p = [1u64; 20];
        let mut i = 1;
        while i < 20 {
            p[i] = p[i - 1] * 10;
            i += 1;
        }
        p
    };
    // POWERS[k] = 10^k; n has one digit more than the powers of ten it reaches past 10^0.
    1 + POWERS[1..].iter().take_while(|&&p| n >= p).count()
}

pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\n' | b'\t' | b'\r')
}

/// Where a string's text stops: at its closing quote, an escape, or a
/// control character (which JSON strings may not hold raw). Eight bytes at
/// a time, as serde_json does: texts are most of a snapshot's bytes.
pub(crate) fn special_at(bytes: &[u8]) -> Option<usize> {
    const ONES: u64 = u64::from_ne_bytes([1; 8]);
    const HIGH: u64 = ONES << 7;
    // Whether some byte of `w` is below `n` (exact for n ≤ 128).
    let below = |w: u64, n: u8| (w.wrapping_sub(ONES * u64::from(n)) & !w & HIGH) != 0;
    let special = |w: u64| {
        below(w ^ (ONES * u64::from(b'"')), 1)
            || below(w ^ (ONES * u64::from(b'\\')), 1)
            || below(w, 0x20)
    };
    let mut at = 0;
    for chunk in bytes.chunks_exact(8) {
        let word = chunk.try_into().map_or(u64::MAX, u64::from_ne_bytes);
        if special(word) {
            break;
        }
        at += 8;
    }
    let tail = bytes.get(at..)?;
    let i = tail
        .iter()
        .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
    Some(at + i)
}

/// Whether a JSON value nests arrays and objects more than `depth` deep.
/// Counting brackets first settles the common case without tracking strings.
fn nests_deeper(json: &str, depth: usize) -> bool {
    let bytes = json.as_bytes();
    if bytes.iter().filter(|&&b| b == b'[' || b == b'{').count() <= depth {
        return false;
    }
    let (mut level, mut deepest) = (0usize, 0usize);
    let (mut in_str, mut escaped) = (false, false);
    for &b in bytes {
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'[' | b'{' => {
                level += 1;
                deepest = deepest.max(level);
            }
            b']' | b'}' => level = level.saturating_sub(1),
            _ => {}
        }
    }
    deepest > depth
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_as_serde_json_reads_them() {
        for (text, want) in [
            ("0", Some(0)),
            (" 17,", Some(17)),
            ("18446744073709551615", Some(u64::MAX)),
            ("18446744073709551616", None),
            ("1732000000000]", Some(1_732_000_000_000)),
            ("12345678", Some(12_345_678)),
            ("9999999999999999", Some(9_999_999_999_999_999)),
            ("10000000000000000000", Some(10_000_000_000_000_000_000)),
            ("1234567:", Some(1_234_567)),
            ("12345678/", Some(12_345_678)),
            ("012345678", None),
            ("01", None),
            ("-1", None),
            ("1.0", None),
            ("1e3", None),
            ("\"1\"", None),
        ] {
            assert_eq!(Cursor::new(text).u64(), want, "{text}");
        }
    }

    #[test]
    fn strings_plain_and_escaped() {
        assert_eq!(Cursor::new(r#""abc""#).plain_str(), Some("abc"));
        assert_eq!(Cursor::new(r#""a\nb""#).plain_str(), None);
        assert_eq!(
            Cursor::new(r#""a\nb\u00e9""#).string().as_deref(),
            Some("a\nb\u{e9}")
        );
        assert_eq!(Cursor::new("\"a\u{1}b\"").string(), None);
        assert_eq!(Cursor::new(r#""\ud800""#).string(), None);
    }

    #[test]
    fn writers_write_what_serde_json_writes() {
        for s in [
            "",
            "plain",
            "a \"quote\"",
            "back\\slash",
            "new\nline",
            "\u{1}\u{1f}\u{7f}é",
        ] {
            let mut out = Vec::new();
            write_str(&mut out, s).unwrap();
            assert_eq!(out, serde_json::to_vec(s).unwrap(), "{s:?}");
        }
        // Every digit count, and each side of the 10^8 split.
        let mut numbers = vec![0, 7, 10, 99, 100, 1_732_000_000_000, u64::MAX];
        numbers.extend((1..20).map(|k| 10u64.pow(k) - 1));
        numbers.extend((1..20).map(|k| 10u64.pow(k)));
        numbers.extend([100_000_001, 123_456_789_012_345_678]);
        for n in numbers {
            let mut buf = [b'x'; 24];
            let end = put_u64(&mut buf, 3, n);
            assert_eq!(buf[3..end], serde_json::to_vec(&n).unwrap(), "{n}");
            assert!(buf[..3].iter().chain(&buf[end..]).all(|&b| b == b'x'));
        }
    }

    #[test]
    fn nesting_is_measured_outside_strings() {
        assert!(!nests_deeper(r#"[[1],{"a":"[[[["}]"#, 2));
        assert!(nests_deeper("[[[1]]]", 2));
        assert!(!nests_deeper("[[[1]]]", 3));
    }
}
