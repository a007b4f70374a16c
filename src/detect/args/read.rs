//! A JSON reader that fingerprints as it reads: one pass over the bytes, no
//! tree, no allocation unless a string has escapes. It accepts exactly RFC
//! 8259 JSON, as serde_json does, and hashes every value the way
//! `hash_value` hashes the parsed tree (the tests prove they agree), so a
//! tool call's arguments cost a scan, not a parse.

use super::{ARR, FALSE, NULL, Notes, OBJ, TRUE, member, num_f, num_i, str_h};
use crate::event::MAX_ARGS_DEPTH;
use crate::hash::combine;
use crate::json;

pub(super) struct Reader<'a, 'n> {
    text: &'a str,
    at: usize,
    notes: &'n mut Notes,
    /// A string with escapes, decoded.
    unescaped: String,
}

type Step<T> = Result<T, String>;

/// A string `Reader::string` read: its span in the text, or `None` when it
/// had escapes and was decoded into `unescaped`. (A free function, so the
/// reader's notes can be borrowed beside it.)
fn text_of<'s>(text: &'s str, unescaped: &'s str, span: Option<(usize, usize)>) -> &'s str {
    match span {
        Some((from, to)) => text.get(from..to).unwrap_or(""),
        None => unescaped,
    }
}

impl<'a, 'n> Reader<'a, 'n> {
    pub(super) fn new(text: &'a str, notes: &'n mut Notes) -> Self {
        Reader {
            text,
            at: 0,
            notes,
            unescaped: String::new(),
        }
    }

    /// The fingerprint of the whole text, which must be one JSON value.
    pub(super) fn document(mut self) -> Step<u64> {
        let h = self.value(0)?;
        self.skip_space();
        if self.at < self.text.len() {
            return Err(self.fail("trailing characters"));
        }
        Ok(h)
    }

    fn peek(&self) -> Option<u8> {
        self.text.as_bytes().get(self.at).copied()
    }

    fn fail(&self, what: &str) -> String {
        if self.at >= self.text.len() {
            format!("EOF while parsing: {what}")
        } else {
            what.to_string()
        }
    }

    fn skip_space(&mut self) {
        while self.peek().is_some_and(json::is_space) {
            self.at += 1;
        }
    }

    fn expect(&mut self, word: &str, h: u64) -> Step<u64> {
        if self.text.as_bytes().get(self.at..self.at + word.len()) == Some(word.as_bytes()) {
            self.at += word.len();
            Ok(h)
        } else {
            Err(self.fail("expected value"))
        }
    }

    fn value(&mut self, depth: usize) -> Step<u64> {
        if depth > MAX_ARGS_DEPTH {
            return Err(format!("nests deeper than {MAX_ARGS_DEPTH}"));
        }
        self.skip_space();
        match self.peek() {
            Some(b'n') => self.expect("null", NULL),
            Some(b't') => self.expect("true", TRUE),
            Some(b'f') => self.expect("false", FALSE),
            Some(b'"') => {
                let span = self.string()?;
                let s = text_of(self.text, &self.unescaped, span);
                self.notes.value(s);
                Ok(str_h(s))
            }
            Some(b'[') => self.array(depth),
            Some(b'{') => self.object(depth),
            Some(b'-' | b'0'..=b'9') => self.number(),
            _ => Err(self.fail("expected value")),
        }
    }

    fn array(&mut self, depth: usize) -> Step<u64> {
        self.at += 1;
        let (mut h, mut n) = (ARR, 0u64);
        self.skip_space();
        if self.peek() == Some(b']') {
            self.at += 1;
            return Ok(combine(h, n));
        }
        loop {
            h = combine(h, self.value(depth + 1)?);
            n += 1;
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b']') => {
                    self.at += 1;
                    return Ok(combine(h, n));
                }
                _ => return Err(self.fail("expected `,` or `]`")),
            }
        }
    }

    fn object(&mut self, depth: usize) -> Step<u64> {
        self.at += 1;
        let (mut sum, mut n) = (0u64, 0u64);
        self.skip_space();
        if self.peek() == Some(b'}') {
            self.at += 1;
            return Ok(combine(combine(OBJ, n), sum));
        }
        loop {
            self.skip_space();
            if self.peek() != Some(b'"') {
                return Err(self.fail("key must be a string"));
            }
            if depth + 1 > MAX_ARGS_DEPTH {
                return Err(format!("nests deeper than {MAX_ARGS_DEPTH}"));
            }
            let span = self.string()?;
            let k = text_of(self.text, &self.unescaped, span);
            self.notes.key(k);
            let k = str_h(k);
            self.skip_space();
            if self.peek() != Some(b':') {
                return Err(self.fail("expected `:`"));
            }
            self.at += 1;
            let v = self.value(depth + 1)?;
            sum = sum.wrapping_add(member(k, v));
            n += 1;
            self.skip_space();
            match self.peek() {
                Some(b',') => self.at += 1,
                Some(b'}') => {
                    self.at += 1;
                    return Ok(combine(combine(OBJ, n), sum));
                }
                _ => return Err(self.fail("expected `,` or `}`")),
            }
        }
    }

    /// Reads the string starting at the opening quote (see `text_of`).
    fn string(&mut self) -> Step<Option<(usize, usize)>> {
        self.at += 1;
        let start = self.at;
        self.skip_plain();
        if self.peek() == Some(b'"') {
            self.at += 1;
            return Ok(Some((start, self.at - 1)));
        }
        // Escapes (or an error): decode from the start into the scratch string.
        let mut out = std::mem::take(&mut self.unescaped);
        out.clear();
        out.push_str(self.text.get(start..self.at).unwrap_or(""));
        let done = self.unescape_rest(&mut out);
        self.unescaped = out;
        done?;
        Ok(None)
    }

    /// Moves to the string's next quote, backslash or control byte (or the
    /// end of the text), eight bytes at a time.
    fn skip_plain(&mut self) {
        let rest = self.text.as_bytes().get(self.at..).unwrap_or_default();
        self.at += json::special_at(rest).unwrap_or(rest.len());
    }

    /// Decodes the rest of a string, from a byte `skip_plain` stopped at.
    fn unescape_rest(&mut self, out: &mut String) -> Step<()> {
        loop {
            match self.peek() {
                None => return Err(self.fail("unterminated string")),
                Some(b'"') => {
                    self.at += 1;
                    return Ok(());
                }
                Some(b'\\') => {
                    self.at += 1;
                    self.escape(out)?;
                }
                Some(_) => return Err("control character in string".to_string()),
            }
            let run = self.at;
            self.skip_plain();
            out.push_str(self.text.get(run..self.at).unwrap_or(""));
        }
    }

    fn escape(&mut self, out: &mut String) -> Step<()> {
        let c = self
            .peek()
            .ok_or_else(|| self.fail("unterminated string"))?;
        self.at += 1;
        let plain = match c {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => return self.unicode(out),
            _ => return Err("invalid escape".to_string()),
        };
        out.push(plain);
        Ok(())
    }

    fn hex4(&mut self) -> Step<u32> {
        let digits = self
            .text
            .get(self.at..self.at + 4)
            .filter(|d| d.bytes().all(|b| b.is_ascii_hexdigit()))
            .ok_or_else(|| self.fail("invalid \\u escape"))?;
        self.at += 4;
        u32::from_str_radix(digits, 16).map_err(|_| "invalid \\u escape".to_string())
    }

    /// `\uXXXX`, with a surrogate pair as two escapes; a lone surrogate is
    /// an error, as in serde_json.
    fn unicode(&mut self, out: &mut String) -> Step<()> {
        let first = self.hex4()?;
        let code = match first {
            0xD800..=0xDBFF => {
                let bytes = self.text.as_bytes();
                if bytes.get(self.at..self.at + 2) != Some(b"\\u") {
                    return Err("lone leading surrogate in hex escape".to_string());
                }
                self.at += 2;
                let second = self.hex4()?;
                if !(0xDC00..=0xDFFF).contains(&second) {
                    return Err("lone leading surrogate in hex escape".to_string());
                }
                0x10000 + ((first - 0xD800) << 10) + (second - 0xDC00)
            }
            0xDC00..=0xDFFF => return Err("lone trailing surrogate in hex escape".to_string()),
            c => c,
        };
        out.push(char::from_u32(code).ok_or_else(|| "invalid \\u escape".to_string())?);
        Ok(())
    }

    /// A number: integers that fit 64 bits hash as integers, everything
    /// else as the nearest double, as serde_json reads them.
    fn number(&mut self) -> Step<u64> {
        let start = self.at;
        let bytes = self.text.as_bytes();
        let digits = |at: &mut usize| {
            let from = *at;
            while bytes.get(*at).is_some_and(u8::is_ascii_digit) {
                *at += 1;
            }
            *at - from
        };
        let mut at = self.at;
        let negative = bytes.get(at) == Some(&b'-');
        at += usize::from(negative);
        let whole_from = at;
        let whole = digits(&mut at);
        if whole == 0 || (whole > 1 && bytes.get(whole_from) == Some(&b'0')) {
            self.at = at;
            return Err(self.fail("invalid number"));
        }
        let mut integral = true;
        if bytes.get(at) == Some(&b'.') {
            at += 1;
            integral = false;
            if digits(&mut at) == 0 {
                self.at = at;
                return Err(self.fail("invalid number"));
            }
        }
        if matches!(bytes.get(at), Some(b'e' | b'E')) {
            at += 1;
            integral = false;
            if matches!(bytes.get(at), Some(b'+' | b'-')) {
                at += 1;
            }
            if digits(&mut at) == 0 {
                self.at = at;
                return Err(self.fail("invalid number"));
            }
        }
        self.at = at;
        let text = self.text.get(start..at).unwrap_or("");
        if integral {
            if negative {
                if let Ok(i) = text.parse::<i64>() {
                    return Ok(num_i(i.into()));
                }
            } else if let Ok(u) = text.parse::<u64>() {
                return Ok(num_i(u.into()));
            }
        }
        // serde_json's own float reader: the module has it already (core's
        // would add 6 KB), and it rounds exactly as the tree path does.
        match serde_json::from_str::<f64>(text) {
            Ok(f) if f.is_finite() => Ok(num_f(f)),
            _ => Err("number out of range".to_string()),
        }
    }
}
