//! Splits text into lowercase tokens without allocating per token.
//!
//! Latin, Cyrillic, Greek and other alphabetic scripts form words of letters,
//! digits and `_`, with an apostrophe kept between letters (`don't`) and a dot
//! between digits (`3.14`). Han, kana and Hangul have no spaces between words,
//! so each run becomes overlapping character bigrams (`异步编程` → `异步`,
//! `步编`, `编程`), the dictionary-free scheme search engines use for CJK.

use super::chars;

/// What a token is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenKind {
    /// Contains at least one letter.
    Word,
    /// Digits (and separators) only.
    Number,
    /// A CJK bigram, or a lone CJK character.
    Cjk,
}

/// One token, already lowercased. `text` borrows a scratch buffer or the input.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokenKind,
    pub text: &'a str,
    /// Only `a`–`z` and `'`: eligible for the English stemmer.
    pub ascii_alpha: bool,
}

/// Han, kana and Hangul: scripts written without spaces between words.
pub fn is_cjk(c: char) -> bool {
    // Below the first range (ASCII, Latin, Cyrillic…): one compare, not ten.
    let u = c as u32;
    u >= 0x1100
        && matches!(u,
            0x1100..=0x11FF        // Hangul Jamo
            | 0x3005..=0x3007      // 々 〆 〇
            | 0x3041..=0x309F      // Hiragana
            | 0x30A1..=0x30FA      // Katakana (not the middle dot U+30FB)
            | 0x30FC..=0x30FF      // ー and Katakana iteration marks
            | 0x3130..=0x318F      // Hangul compatibility Jamo
            | 0x31F0..=0x31FF      // Katakana phonetic extensions
            | 0x3400..=0x4DBF      // CJK extension A
            | 0x4E00..=0x9FFF      // CJK unified ideographs
            | 0xA960..=0xA97F      // Hangul Jamo extended A
            | 0xAC00..=0xD7AF      // Hangul syllables
            | 0xD7B0..=0xD7FF      // Hangul Jamo extended B
            | 0xF900..=0xFAFF      // CJK compatibility ideographs
            | 0xFF66..=0xFF9F      // half-width Katakana
            | 0x20000..=0x3FFFF    // CJK extensions B and later
        )
}

/// Classes of ASCII bytes, by table: one load per byte instead of a chain
/// of range tests in the loops that read words a byte at a time.
pub(crate) const WORD_BYTE: u8 = 1;
pub(crate) const ALPHA_BYTE: u8 = 2;
pub(crate) const UPPER_BYTE: u8 = 4;
pub(crate) const DIGIT_BYTE: u8 = 8;
/// A digit or `_`: a word byte that is no letter.
pub(crate) const OTHER_BYTE: u8 = 16;

static ASCII_CLASS: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        if c.is_ascii_alphanumeric() || c == b'_' {
            t[b] |= WORD_BYTE;
        }
        if c.is_ascii_alphabetic() {
            t[b] |= ALPHA_BYTE;
        }
        if c.is_ascii_uppercase() {
            t[b] |= UPPER_BYTE;
        }
        if c.is_ascii_digit() {
            t[b] |= DIGIT_BYTE;
        }
        if c.is_ascii_digit() || c == b'_' {
            t[b] |= OTHER_BYTE;
        }
        b += 1;
    }
    t
};

/// The class bits of a byte (0 for bytes of non-ASCII characters).
pub(crate) fn ascii_class(b: u8) -> u8 {
    ASCII_CLASS.get(usize::from(b)).copied().unwrap_or(0)
}

/// Combining marks continue a word (decomposed `é` is `e` + U+0301).
fn is_combining(c: char) -> bool {
    matches!(c as u32, 0x0300..=0x036F | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x20D0..=0x20FF | 0xFE20..=0xFE2F)
}

fn is_word_char(c: char) -> bool {
    if c.is_ascii() {
        c.is_ascii_alphanumeric() || c == '_'
    } else {
        !is_cjk(c) && (chars::is_alphanumeric(c) || is_combining(c))
    }
}

fn is_apostrophe(c: char) -> bool {
    c == '\'' || c == '\u{2019}'
}

/// Calls `f` for every token of `text`, in order. `buf` is scratch space the
/// caller reuses so steady-state tokenising does not allocate; a word that is
/// already lowercase ASCII is passed as a slice of `text` without copying.
pub fn for_each_token(text: &str, buf: &mut String, mut f: impl FnMut(Token<'_>)) {
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        if b < 0x80 {
            if ascii_class(b) & WORD_BYTE != 0 {
                i = word(text, i, buf, &mut f);
            } else {
                i += 1;
            }
            continue;
        }
        let Some(c) = text.get(i..).and_then(|t| t.chars().next()) else {
            break;
        };
        if is_cjk(c) {
            i = cjk_run(text, i, &mut f);
        } else if is_word_char(c) && !is_combining(c) {
            i = word(text, i, buf, &mut f);
        } else {
            i += c.len_utf8();
        }
    }
}

fn char_at(text: &str, i: usize) -> Option<char> {
    text.get(i..).and_then(|t| t.chars().next())
}

/// Reads one word starting at `start`; returns the index after it.
fn word(text: &str, start: usize, buf: &mut String, f: &mut impl FnMut(Token<'_>)) -> usize {
    let bytes = text.as_bytes();
    let mut i = start;
    let (mut non_ascii, mut curly) = (false, false);
    // Letters and others (digits, `_`, non-ASCII) outside the ASCII classes.
    let (mut letters, mut others) = (false, false);
    // The classes of the word's ASCII bytes, or-ed; and of the last
    // character (0 after a joining mark, ALPHA_BYTE after a non-ASCII letter).
    let (mut seen, mut last) = (0u8, 0u8);
    loop {
        // A run of ASCII word bytes, the common case, in a loop of its own.
        let run = i;
        while let Some(&b) = bytes.get(i) {
            let class = ascii_class(b);
            if class & WORD_BYTE == 0 {
                break;
            }
            seen |= class;
            i += 1;
        }
        if i > run {
            last = bytes.get(i - 1).map_or(0, |&b| ascii_class(b));
        }
        let Some(&b) = bytes.get(i) else { break };
        let (prev_alpha, prev_digit) = (last & ALPHA_BYTE != 0, last & DIGIT_BYTE != 0);
        if b < 0x80 {
            let next = bytes.get(i + 1).copied().unwrap_or(0);
            let joins = (b == b'\''
                && prev_alpha
                && (next.is_ascii_alphabetic()
                    || next >= 0x80 && char_at(text, i + 1).is_some_and(chars::is_alphabetic)))
                || ((b == b'.' || b == b',') && prev_digit && next.is_ascii_digit());
            if !joins {
                break;
            }
            last = 0;
            i += 1;
            continue;
        }
        let Some(c) = char_at(text, i) else { break };
        let next_alpha = || char_at(text, i + c.len_utf8()).is_some_and(chars::is_alphabetic);
        if is_word_char(c) {
            non_ascii = true;
            others = true;
            let alpha = chars::is_alphabetic(c);
            letters |= alpha;
            last = if alpha { ALPHA_BYTE } else { 0 };
        } else if is_apostrophe(c) && prev_alpha && next_alpha() {
            curly = true;
            last = 0;
        } else {
            break;
        }
        i += c.len_utf8();
    }
    let upper = seen & UPPER_BYTE != 0;
    letters |= seen & ALPHA_BYTE != 0;
    others |= seen & OTHER_BYTE != 0;
    let raw = text.get(start..i).unwrap_or("");
    // Checked first: the generic trim costs more than the word's other work.
    let raw = if raw.starts_with('_') || raw.ends_with('_') {
        raw.trim_matches('_')
    } else {
        raw
    };
    if raw.is_empty() {
        return i;
    }
    let kind = if letters {
        TokenKind::Word
    } else {
        TokenKind::Number
    };
    let ascii_alpha = letters && !others;
    if !upper && !non_ascii && !curly {
        f(Token {
            kind,
            text: raw,
            ascii_alpha,
        });
        return i;
    }
    buf.clear();
    if !non_ascii && !curly {
        // ASCII with capitals: copied and lowercased as a block.
        buf.push_str(raw);
        buf.make_ascii_lowercase();
        f(Token {
            kind,
            text: buf,
            ascii_alpha,
        });
        return i;
    }
    for c in raw.chars() {
        if c.is_ascii() {
            buf.push(c.to_ascii_lowercase());
        } else if is_apostrophe(c) {
            buf.push('\'');
        } else {
            push_lower(buf, c);
        }
    }
    f(Token {
        kind,
        text: buf,
        ascii_alpha,
    });
    i
}

/// Full Unicode lowercase, with final sigma folded to σ so Greek words match
/// wherever they sit in a sentence.
fn push_lower(buf: &mut String, c: char) {
    for l in c.to_lowercase() {
        buf.push(if l == 'ς' { 'σ' } else { l });
    }
}

/// Emits the bigrams of one CJK run; returns the index after it.
fn cjk_run(text: &str, start: usize, f: &mut impl FnMut(Token<'_>)) -> usize {
    let mut bounds = [start; 3]; // starts of the previous two chars and the current end
    let mut count = 0usize;
    let mut end = text.len();
    for (off, c) in text[start..].char_indices() {
        let at = start + off;
        if !is_cjk(c) {
            end = at;
            break;
        }
        if count >= 1 {
            let from = bounds[1];
            f(Token {
                kind: TokenKind::Cjk,
                text: &text[from..at + c.len_utf8()],
                ascii_alpha: false,
            });
        }
        bounds[1] = at;
        count += 1;
        bounds[2] = at + c.len_utf8();
    }
    if count == 1 {
        f(Token {
            kind: TokenKind::Cjk,
            text: &text[start..bounds[2]],
            ascii_alpha: false,
        });
    }
    end
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(text: &str) -> Vec<(TokenKind, String)> {
        let mut out = Vec::new();
        let mut buf = String::new();
        for_each_token(text, &mut buf, |t| out.push((t.kind, t.text.to_string())));
        out
    }

    fn words(text: &str) -> Vec<String> {
        toks(text).into_iter().map(|(_, t)| t).collect()
    }

    #[test]
    fn latin_words_lowercase_and_split_on_punctuation() {
        assert_eq!(
            words("Refactor fetch_user to be ASYNC!"),
            ["refactor", "fetch_user", "to", "be", "async"]
        );
        assert_eq!(
            words("event-driven non-blocking"),
            ["event", "driven", "non", "blocking"]
        );
        assert_eq!(
            words("node.js foo@bar.com a+b"),
            ["node", "js", "foo", "bar", "com", "a", "b"]
        );
        assert_eq!(words("__init__ _private"), ["init", "private"]);
    }

    #[test]
    fn apostrophes_join_letters_only_and_curly_ones_normalise() {
        assert_eq!(
            words("don't won’t 'quoted' users'"),
            ["don't", "won't", "quoted", "users"]
        );
    }

    #[test]
    fn numbers_keep_their_decimal_point() {
        let t = toks("pi is 3.14, v2 and 1,000 items. 2024");
        assert_eq!(t[2], (TokenKind::Number, "3.14".into()));
        assert_eq!(t[3], (TokenKind::Word, "v2".into()));
        assert_eq!(t[5], (TokenKind::Number, "1,000".into()));
        assert_eq!(t[7], (TokenKind::Number, "2024".into()));
    }

    #[test]
    fn cjk_runs_become_bigrams_not_one_giant_token() {
        assert_eq!(
            words("你好，世界。请解释一下异步编程"),
            [
                "你好", "世界", "请解", "解释", "释一", "一下", "下异", "异步", "步编", "编程"
            ]
        );
        assert_eq!(words("用Rust写"), ["用", "rust", "写"]);
        assert_eq!(
            words("日本語のテキスト"),
            ["日本", "本語", "語の", "のテ", "テキ", "キス", "スト"]
        );
        assert!(toks("한국어").iter().all(|(k, _)| *k == TokenKind::Cjk));
    }

    #[test]
    fn other_scripts_and_unicode_lowercasing() {
        assert_eq!(words("Привет мир, объясни"), ["привет", "мир", "объясни"]);
        assert_eq!(words("ΟΔΟΣ ΣΟΦΟΣ"), ["οδοσ", "σοφοσ"]);
        assert_eq!(
            words("Erklären Sie die Straße"),
            ["erklären", "sie", "die", "straße"]
        );
        // Decomposed é stays inside its word.
        assert_eq!(words("cafe\u{301} ok"), ["cafe\u{301}", "ok"]);
        assert_eq!(
            words("emoji 🚀launch rocket🚀"),
            ["emoji", "launch", "rocket"]
        );
    }

    #[test]
    fn ascii_alpha_flag_marks_stemmable_words() {
        let mut flags = Vec::new();
        let mut buf = String::new();
        for_each_token("Running v2 café don't", &mut buf, |t| {
            flags.push(t.ascii_alpha)
        });
        assert_eq!(flags, [true, false, false, true]);
    }

    #[test]
    fn never_panics_on_odd_input() {
        for s in [
            "",
            "'",
            "’",
            "...",
            "_",
            "3.",
            ".3",
            "a'",
            "'a",
            "\u{301}",
            "a\u{301}",
            "你",
            "\u{FEFF}x",
            "x\u{0085}y",
        ] {
            let _ = toks(s);
        }
        assert_eq!(words("\u{301}abc"), ["abc"]);
    }
}
