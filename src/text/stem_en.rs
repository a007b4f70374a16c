//! Snowball Porter2 ("english") stemmer.
//!
//! Output is identical to `rust_stemmers::Stemmer::create(Algorithm::English)`
//! (rust-stemmers 1.2.0, i.e. the older `english.sbl`), but stemming never
//! allocates and runs several times faster than the generic Snowball runtime.
//!
//! Snowball's backward-mode `among` always commits to the *longest* matching
//! suffix, even if that suffix's condition then fails. Every suffix table
//! below is therefore ordered longest-first per final letter, and a match
//! ends the step whether or not its region condition held.
//!
//! All suffix work happens on the word's last sixteen bytes held in a `u128`
//! register (last byte lowest): a suffix test is one mask-and-compare, and an
//! edit is a couple of shifts. Keeping edits out of memory matters as much as
//! avoiding `memcmp`: reloading bytes that were just stored at a different
//! width stalls on store forwarding, which cost more than the stemming itself.

/// Longer tokens are essentially never English words (URLs, hashes, glued
/// identifiers); passing them through lets per-position masks fit a `u64`.
const MAX_LEN: usize = 48;

/// The postlude's Y -> y is setting bit 0x20, which every other byte that
/// can occur in the register (a-z and the apostrophe) already has.
const LOWER: u128 = 0x2020_2020_2020_2020_2020_2020_2020_2020;

/// Writes the Porter2 stem of `word` into `out` (cleared first).
/// `word` must already be lowercase. Words that are not plain ASCII
/// letters/apostrophes, or longer than 48 bytes, are copied unchanged.
pub fn stem_into(word: &str, out: &mut String) {
    out.clear();
    let raw = word.as_bytes();
    // `not hop 3` counts the raw word, apostrophes included; no exception
    // word is that short, so checking this before `exception1` is safe.
    if raw.len() > MAX_LEN || raw.len() < 3 {
        out.push_str(word);
        return;
    }
    let (start, body) = match raw {
        [b'\'', rest @ ..] => (1, rest),
        _ => (0, raw),
    };
    let n = body.len();

    // One pass validates and records the tail register plus per-position
    // vowel and y masks, so no later step rescans the word. Plain locals,
    // not struct fields, so they stay in registers; and no loop-carried
    // dependency besides the accumulators, which is why y marking is left
    // to a fix-up pass.
    let mut t = 0u128;
    let mut vowels = 0u64;
    let mut ys = 0u64;
    let mut valid = true;
    for (i, &c) in body.iter().enumerate() {
        valid &= c.is_ascii_lowercase() || c == b'\'';
        t = (t << 8) | u128::from(c);
        vowels |= u64::from(is_vowel(c)) << i;
        ys |= u64::from(c == b'y') << i;
    }
    // Anything outside [a-z'] (digits, uppercase, non-ASCII) is not a word
    // the algorithm was designed for; leave it intact.
    if !valid {
        out.push_str(word);
        return;
    }
    // The prelude's y marking: a y that starts the word or follows a vowel
    // acts as a consonant (`Y`). Going left to right over the updated mask
    // matches Snowball's `repeat goto` ("ayy" gives "aYy").
    let mut rest = ys;
    while rest != 0 {
        let i = rest.trailing_zeros();
        rest &= rest - 1;
        if i == 0 || (vowels >> (i - 1)) & 1 != 0 {
            vowels &= !(1 << i);
            // y ^ Y = 0x20; positions left of the 16-byte window drop out.
            t ^= 0x20u128.checked_shl(8 * (n as u32 - 1 - i)).unwrap_or(0);
        }
    }
    let input = t;
    let mut w = Word {
        src: body,
        n,
        t,
        known: n.saturating_sub(16),
        p1: n,
        p2: n,
        vowels,
    };

    // Snowball matches the exceptions against the raw word, so a leading
    // apostrophe disables them. None of them contains a y that the marking
    // above would have changed.
    if start == 0
        && let Some(s) = exception1(w.tail())
    {
        out.push_str(s);
        return;
    }

    // `mark_regions`: a region starts one past each vowel/non-vowel boundary.
    // The exceptional R1 prefixes contain no y, so the raw input can be used.
    let boundaries = (vowels << 1) & !vowels & !u64::MAX.checked_shl(n as u32).unwrap_or(0);
    let first_region_after = |p: usize| {
        let later = boundaries & u64::MAX.checked_shl(p as u32 + 1).unwrap_or(0);
        if later == 0 {
            n
        } else {
            later.trailing_zeros() as usize + 1
        }
    };
    w.p1 = if body.starts_with(b"gener") || body.starts_with(b"arsen") {
        5
    } else if body.starts_with(b"commun") {
        6
    } else if boundaries == 0 {
        n
    } else {
        boundaries.trailing_zeros() as usize + 1
    };
    w.p2 = first_region_after(w.p1);

    w.stem();

    let edited = w.n.saturating_sub(w.known);
    let cut = n.saturating_sub(w.n);
    // Usually the stem is just a prefix of the input; then the input itself
    // can be pushed, skipping UTF-8 validation of a scratch copy.
    if edited + cut <= 16 {
        let mask = !u128::MAX.checked_shl(8 * edited as u32).unwrap_or(0);
        let before = input.checked_shr(8 * cut as u32).unwrap_or(0);
        if ((w.t ^ before) & !LOWER & mask) == 0 {
            if let Some(s) = word.get(start..start + w.n) {
                out.push_str(s);
            }
            return;
        }
    }
    // Bytes before `known` were never edited, so they come straight from the
    // input (whose y's are already what the postlude would restore); the
    // rest comes from the register.
    if let Some(s) = word.get(start..start + w.known.min(w.n)) {
        out.push_str(s);
    }
    let bytes = (w.t | LOWER).to_be_bytes();
    if let Some(Ok(s)) = bytes.get(16 - edited.min(16)..).map(core::str::from_utf8) {
        out.push_str(s);
    }
}

/// Bit `c & 63` set for each byte `c` of a set. Only a-z, `'`, `Y` and the
/// zero padding ever reach these tests, and those never collide mod 64 with
/// a member (`'` shares its slot with the non-vowel `g`).
const fn byte_set(members: &[u8]) -> u64 {
    let mut m = 0u64;
    let mut rest = members;
    while let [first, tail @ ..] = rest {
        m |= 1 << (*first & 63);
        rest = tail;
    }
    m
}

const VOWELS: u64 = byte_set(b"aeiouy");
const VOWELS_WXY: u64 = byte_set(b"aeiouywxY");

/// The prelude's y marking: a y that starts the word or follows a vowel acts
/// as a consonant (`Y`). Feeding back the already-marked previous byte
/// matches Snowball's `repeat goto` ("ayy" gives "aYy").
#[inline(always)]
fn mark_y(c: u8, prev_vowel: bool, i: usize) -> u8 {
    if c == b'y' && (prev_vowel || i == 0) {
        b'Y'
    } else {
        c
    }
}

/// Snowball's `v` grouping; `Y` (a consonantal y) is deliberately absent.
#[inline(always)]
fn is_vowel(c: u8) -> bool {
    (VOWELS >> (c & 63)) & 1 != 0
}

/// `v_WXY`: a syllable ending in w, x or Y does not count as short.
#[inline(always)]
fn is_vowel_wxy(c: u8) -> bool {
    (VOWELS_WXY >> (c & 63)) & 1 != 0
}

/// Big-endian packing: the last byte of `s` lands in the low bits, which is
/// how `Word::tail` presents the end of the word.
const fn pack(s: &[u8]) -> u64 {
    let mut v = 0u64;
    let mut rest = s;
    while let [first, tail @ ..] = rest {
        v = (v << 8) | *first as u64;
        rest = tail;
    }
    v
}

/// A suffix of at most eight bytes, ready for a mask-and-compare.
#[derive(Clone, Copy)]
struct Sfx {
    pat: u64,
    mask: u64,
    len: usize,
}

impl Sfx {
    const fn new(s: &[u8]) -> Sfx {
        let len = s.len();
        let mask = if len >= 8 {
            u64::MAX
        } else {
            (1u64 << (8 * len)) - 1
        };
        Sfx {
            pat: pack(s),
            mask,
            len,
        }
    }

    #[inline(always)]
    fn on(self, tail: u64) -> bool {
        tail & self.mask == self.pat
    }
}

/// Rewrites suffix `from` to `to` (packed like `Sfx::pat`).
#[derive(Clone, Copy)]
struct Rule {
    from: Sfx,
    to: u64,
    to_len: usize,
}

const fn rule(from: &[u8], to: &[u8]) -> Rule {
    Rule {
        from: Sfx::new(from),
        to: pack(to),
        to_len: to.len(),
    }
}

/// Whole-word constants compare against `Word::tail` directly: the zero
/// padding makes `tail == pack(word)` an exact equality test for words of
/// up to seven bytes (a longer word has a letter in the top byte).
macro_rules! whole {
    ($($name:ident = $s:literal;)*) => {
        $(const $name: u64 = pack($s);)*
    };
}

whole! {
    SKIS = b"skis"; SKIES = b"skies"; DYING = b"dying"; LYING = b"lying";
    TYING = b"tying"; IDLY = b"idly"; GENTLY = b"gently"; UGLY = b"ugly";
    EARLY = b"early"; ONLY = b"only"; SINGLY = b"singly"; SKY = b"sky";
    NEWS = b"news"; HOWE = b"howe"; ATLAS = b"atlas"; COSMOS = b"cosmos";
    BIAS = b"bias"; ANDES = b"andes";
    INNING = b"inning"; OUTING = b"outing"; CANNING = b"canning";
    HERRING = b"herring"; EARRING = b"earring"; PROCEED = b"proceed";
    EXCEED = b"exceed"; SUCCEED = b"succeed";
}

/// Whole-word exceptions, matched before any other processing.
fn exception1(tail: u64) -> Option<&'static str> {
    Some(match tail {
        SKIS => "ski",
        SKIES => "sky",
        DYING => "die",
        LYING => "lie",
        TYING => "tie",
        IDLY => "idl",
        GENTLY => "gentl",
        UGLY => "ugli",
        EARLY => "earli",
        ONLY => "onli",
        SINGLY => "singl",
        SKY => "sky",
        NEWS => "news",
        HOWE => "howe",
        ATLAS => "atlas",
        COSMOS => "cosmos",
        BIAS => "bias",
        ANDES => "andes",
        _ => return None,
    })
}

macro_rules! sfx {
    ($($name:ident = $s:literal;)*) => {
        $(const $name: Sfx = Sfx::new($s);)*
    };
}

sfx! {
    APOS_S_APOS = b"'s'"; APOS_S = b"'s"; APOS = b"'";
    SSES = b"sses"; IES = b"ies"; IED = b"ied"; SS = b"ss"; US = b"us";
    EEDLY = b"eedly"; EED = b"eed"; INGLY = b"ingly"; EDLY = b"edly";
    ING = b"ing"; ED = b"ed";
    OGI = b"ogi"; LOGI = b"logi"; ATIVE = b"ative"; SION = b"sion"; TION = b"tion";
}

const IES_TO_I: Rule = rule(b"ies", b"i");
const IES_TO_IE: Rule = rule(b"ies", b"ie");
const EEDLY_TO_EE: Rule = rule(b"eedly", b"ee");
const EED_TO_EE: Rule = rule(b"eed", b"ee");

const STEP2_L: &[Rule] = &[rule(b"ational", b"ate"), rule(b"tional", b"tion")];
const STEP2_N: &[Rule] = &[rule(b"ization", b"ize"), rule(b"ation", b"ate")];
const STEP2_R: &[Rule] = &[rule(b"izer", b"ize"), rule(b"ator", b"ate")];
const STEP2_M: &[Rule] = &[rule(b"alism", b"al")];
const STEP2_S: &[Rule] = &[
    rule(b"fulness", b"ful"),
    rule(b"ousness", b"ous"),
    rule(b"iveness", b"ive"),
];
const STEP2_I: &[Rule] = &[
    rule(b"lessli", b"less"),
    rule(b"entli", b"ent"),
    rule(b"ousli", b"ous"),
    rule(b"fulli", b"ful"),
    rule(b"abli", b"able"),
    rule(b"alli", b"al"),
    rule(b"bli", b"ble"),
    rule(b"biliti", b"ble"),
    rule(b"aliti", b"al"),
    rule(b"iviti", b"ive"),
    rule(b"enci", b"ence"),
    rule(b"anci", b"ance"),
];

const STEP3_L: &[Rule] = &[
    rule(b"ational", b"ate"),
    rule(b"tional", b"tion"),
    rule(b"ical", b"ic"),
    rule(b"ful", b""),
];
const STEP3_E: &[Rule] = &[rule(b"alize", b"al"), rule(b"icate", b"ic")];
const STEP3_I: &[Rule] = &[rule(b"iciti", b"ic")];
const STEP3_S: &[Rule] = &[rule(b"ness", b"")];

const STEP4_L: &[Rule] = &[rule(b"al", b"")];
const STEP4_E: &[Rule] = &[
    rule(b"ance", b""),
    rule(b"ence", b""),
    rule(b"able", b""),
    rule(b"ible", b""),
    rule(b"ate", b""),
    rule(b"ive", b""),
    rule(b"ize", b""),
];
const STEP4_R: &[Rule] = &[rule(b"er", b"")];
const STEP4_C: &[Rule] = &[rule(b"ic", b"")];
const STEP4_T: &[Rule] = &[
    rule(b"ement", b""),
    rule(b"ment", b""),
    rule(b"ent", b""),
    rule(b"ant", b""),
];
const STEP4_M: &[Rule] = &[rule(b"ism", b"")];
const STEP4_I: &[Rule] = &[rule(b"iti", b"")];
const STEP4_S: &[Rule] = &[rule(b"ous", b"")];

/// The word being stemmed.
///
/// Every edit happens at the end, so `p1`/`p2` (computed once, as Snowball
/// does) stay valid as the word shrinks, and everything before `known` is
/// still the input. `t` holds the last sixteen byte positions (zero for
/// positions before the word) and is exact from `known` on; edits keep
/// `known` fixed, and `refill` restores the invariant that the low eight
/// bytes are exact once cuts eat into that margin (only words over 16
/// bytes, or after more than 8 bytes of cuts, ever need it).
struct Word<'a> {
    /// The input without its leading apostrophe; read only by `refill`.
    src: &'a [u8],
    n: usize,
    t: u128,
    known: usize,
    p1: usize,
    p2: usize,
    /// Bit `i` is set if byte `i` of the input (after y marking) is a vowel.
    /// Before `Step_1b`'s test, edits only truncate or rewrite the end with
    /// the same letters, so it is exact for every prefix those steps probe.
    vowels: u64,
}

impl Word<'_> {
    /// The last eight bytes (zero-padded in front), last byte lowest.
    #[inline(always)]
    fn tail(&self) -> u64 {
        self.t as u64
    }

    /// Whether the first `len` bytes contain a vowel (see `vowels`).
    #[inline]
    fn has_vowel_before(&self, len: usize) -> bool {
        self.vowels & !u64::MAX.checked_shl(len as u32).unwrap_or(0) != 0
    }

    /// Whether a suffix of `len` bytes starts inside the region at `p`.
    #[inline]
    fn starts_in(&self, len: usize, p: usize) -> bool {
        self.n.checked_sub(len).is_some_and(|c| p <= c)
    }

    /// Snowball's `shortv` for the text left of cursor `c`, which is the end
    /// of the word or one byte before it.
    #[inline]
    fn short_v(&self, c: usize) -> bool {
        let shift = 8 * self.n.saturating_sub(c) as u32;
        let x = self.t.checked_shr(shift).unwrap_or(0) as u64;
        let (a, b, z) = ((x >> 16) as u8, (x >> 8) as u8, x as u8);
        match c {
            0 | 1 => false,
            // Only a two-letter prefix reaches the `atlimit` alternative, and
            // it uses plain `non-v`, so "ow" is short although "bow" is not.
            2 => is_vowel(b) && !is_vowel(z),
            _ => !is_vowel(a) && is_vowel(b) && !is_vowel_wxy(z),
        }
    }

    #[inline]
    fn cut(&mut self, len: usize) {
        self.n = self.n.saturating_sub(len);
        self.t = self.t.checked_shr(8 * len as u32).unwrap_or(0);
        self.refill();
    }

    #[inline]
    fn apply(&mut self, r: Rule) {
        self.n = self.n.saturating_sub(r.from.len) + r.to_len;
        let kept = self.t.checked_shr(8 * r.from.len as u32).unwrap_or(0);
        self.t = kept.checked_shl(8 * r.to_len as u32).unwrap_or(0) | u128::from(r.to);
        self.refill();
    }

    #[inline]
    fn push_e(&mut self) {
        self.t = (self.t << 8) | u128::from(b'e');
        self.n += 1;
    }

    /// Re-establishes exact low eight bytes by rebuilding the unedited
    /// bytes below `known` from the input. Rare, so it simply redoes the y
    /// marking from the start.
    #[cold]
    fn refill_slow(&mut self) {
        let lo = self.n.saturating_sub(8);
        let hi = self.known.min(self.n);
        let mut stored = 0u64;
        let mut prev_vowel = false;
        for (i, &c) in self.src.iter().enumerate().take(hi) {
            let c = mark_y(c, prev_vowel, i);
            prev_vowel = is_vowel(c);
            if i >= lo {
                let shift = 8 * (self.n - 1 - i) as u32;
                stored |= u64::from(c).checked_shl(shift).unwrap_or(0);
            }
        }
        let exact = self.n - hi;
        let mask = !u64::MAX.checked_shl(8 * exact as u32).unwrap_or(0);
        self.t = u128::from(stored | (self.tail() & mask));
        self.known = lo;
    }

    #[inline(always)]
    fn refill(&mut self) {
        if self.known != 0 && self.n < self.known + 8 {
            self.refill_slow();
        }
    }

    /// Applies the first (longest) matching rule if it starts at or after
    /// `p`. Returns whether any rule matched, since a match ends the step
    /// even when the region test fails.
    #[inline]
    fn rules(&mut self, table: &[Rule], p: usize) -> bool {
        let t = self.tail();
        for &r in table {
            if r.from.on(t) {
                if self.starts_in(r.from.len, p) {
                    self.apply(r);
                }
                return true;
            }
        }
        false
    }

    fn stem(&mut self) {
        self.step1a();
        if matches!(
            self.tail(),
            INNING | OUTING | CANNING | HERRING | EARRING | PROCEED | EXCEED | SUCCEED
        ) {
            return;
        }
        self.step1b();
        self.step1c();
        self.step2();
        self.step3();
        self.step4();
        self.step5();
    }

    /// Snowball's `Step_1a`, which also performs Porter2's Step 0.
    fn step1a(&mut self) {
        let t = self.tail();
        if APOS_S_APOS.on(t) {
            self.cut(3);
        } else if APOS_S.on(t) {
            self.cut(2);
        } else if APOS.on(t) {
            self.cut(1);
        }

        let t = self.tail();
        if SSES.on(t) {
            self.cut(2);
        } else if IES.on(t) || IED.on(t) {
            // `hop 2`: keep "ie" when at most one letter precedes ("ties").
            self.apply(if self.n >= 5 { IES_TO_I } else { IES_TO_IE });
        } else if t as u8 == b's' && !SS.on(t) && !US.on(t) {
            // The vowel may not be the letter right before the s ("gas").
            if self.has_vowel_before(self.n.saturating_sub(2)) {
                self.cut(1);
            }
        }
    }

    fn step1b(&mut self) {
        let t = self.tail();
        if !matches!(t as u8, b'd' | b'g' | b'y') {
            return;
        }
        if EEDLY.on(t) || EED.on(t) {
            let r = if EEDLY.on(t) { EEDLY_TO_EE } else { EED_TO_EE };
            if self.starts_in(r.from.len, self.p1) {
                self.apply(r);
            }
            return;
        }
        let k = if INGLY.on(t) {
            5
        } else if EDLY.on(t) {
            4
        } else if ING.on(t) {
            3
        } else if ED.on(t) {
            2
        } else {
            return;
        };
        let stem = self.n.saturating_sub(k);
        if !self.has_vowel_before(stem) {
            return;
        }
        self.cut(k);
        let t = self.tail();
        let (a, z) = ((t >> 8) as u8, t as u8);
        if matches!((a, z), (b'a', b't') | (b'b', b'l') | (b'i', b'z')) {
            self.push_e();
        } else if a == z
            && matches!(
                z,
                b'b' | b'd' | b'f' | b'g' | b'm' | b'n' | b'p' | b'r' | b't'
            )
        {
            self.cut(1);
        } else if stem == self.p1 && self.short_v(stem) {
            // `atmark p1` tests equality, not `p1 >= len`.
            self.push_e();
        }
    }

    fn step1c(&mut self) {
        let t = self.tail();
        // At least one letter must precede the consonant before the y.
        if self.n >= 3 && matches!(t as u8, b'y' | b'Y') && !is_vowel((t >> 8) as u8) {
            self.t = (self.t & !0xff) | u128::from(b'i');
        }
    }

    fn step2(&mut self) {
        let p1 = self.p1;
        let t = self.tail();
        let table = match t as u8 {
            b'l' => STEP2_L,
            b'n' => STEP2_N,
            b'r' => STEP2_R,
            b'm' => STEP2_M,
            b's' => STEP2_S,
            b'i' => STEP2_I,
            _ => return,
        };
        if self.rules(table, p1) || t as u8 != b'i' {
            return;
        }
        // The two conditional rules; neither overlaps a table suffix.
        if OGI.on(t) {
            if LOGI.on(t) && self.starts_in(3, p1) {
                self.cut(1);
            }
        } else if (t >> 8) as u8 == b'l'
            && matches!(
                (t >> 16) as u8,
                b'c' | b'd' | b'e' | b'g' | b'h' | b'k' | b'm' | b'n' | b'r' | b't'
            )
            && self.starts_in(2, p1)
        {
            self.cut(2);
        }
    }

    fn step3(&mut self) {
        let (p1, p2) = (self.p1, self.p2);
        let t = self.tail();
        let table = match t as u8 {
            b'l' => STEP3_L,
            b'e' => {
                if ATIVE.on(t) {
                    // R2 lies inside R1, so R2 alone decides.
                    if self.starts_in(5, p2) {
                        self.cut(5);
                    }
                    return;
                }
                STEP3_E
            }
            b'i' => STEP3_I,
            b's' => STEP3_S,
            _ => return,
        };
        self.rules(table, p1);
    }

    fn step4(&mut self) {
        let p2 = self.p2;
        let t = self.tail();
        let table = match t as u8 {
            b'l' => STEP4_L,
            b'e' => STEP4_E,
            b'r' => STEP4_R,
            b'c' => STEP4_C,
            b't' => STEP4_T,
            b'm' => STEP4_M,
            b'i' => STEP4_I,
            b's' => STEP4_S,
            b'n' => {
                if (SION.on(t) || TION.on(t)) && self.starts_in(3, p2) {
                    self.cut(3);
                }
                return;
            }
            _ => return,
        };
        self.rules(table, p2);
    }

    fn step5(&mut self) {
        let (p1, p2) = (self.p1, self.p2);
        let t = self.tail();
        let c = self.n.saturating_sub(1);
        let drop = match t as u8 {
            b'e' => p2 <= c || (p1 <= c && !self.short_v(c)),
            b'l' => (t >> 8) as u8 == b'l' && p2 <= c,
            _ => false,
        };
        if drop {
            self.cut(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::stem_into;
    use rust_stemmers::{Algorithm, Stemmer};

    fn stem(word: &str) -> String {
        let mut out = String::new();
        stem_into(word, &mut out);
        out
    }

    /// Compares against the reference stemmer, reporting every mismatch at
    /// once; returns how many words were checked.
    fn check_all<'a>(words: impl IntoIterator<Item = &'a str>) -> usize {
        let oracle = Stemmer::create(Algorithm::English);
        let mut out = String::new();
        let mut count = 0;
        let mut bad = Vec::new();
        for w in words {
            stem_into(w, &mut out);
            let want = oracle.stem(w);
            if out != want {
                bad.push(format!("{w:?}: got {out:?}, want {want:?}"));
            }
            count += 1;
        }
        assert!(
            bad.is_empty(),
            "{} mismatches:\n{}",
            bad.len(),
            bad.join("\n")
        );
        count
    }

    #[test]
    fn known_outputs() {
        let cases = [
            ("consign", "consign"),
            ("consigned", "consign"),
            ("consigning", "consign"),
            ("consignment", "consign"),
            ("consist", "consist"),
            ("consisted", "consist"),
            ("consistency", "consist"),
            ("generously", "generous"),
            ("generically", "generic"),
            ("generate", "generat"),
            ("communication", "communic"),
            ("arsenal", "arsenal"),
            ("running", "run"),
            ("hopping", "hop"),
            ("hoping", "hope"),
            ("hoped", "hope"),
            ("filing", "file"),
            ("failing", "fail"),
            ("fitted", "fit"),
            ("caresses", "caress"),
            ("ponies", "poni"),
            ("ties", "tie"),
            ("cries", "cri"),
            ("flies", "fli"),
            ("gas", "gas"),
            ("gaps", "gap"),
            ("this", "this"),
            ("sky", "sky"),
            ("news", "news"),
            ("skies", "sky"),
            ("skis", "ski"),
            ("dying", "die"),
            ("lying", "lie"),
            ("only", "onli"),
            ("early", "earli"),
            ("happily", "happili"),
            ("happy", "happi"),
            ("cry", "cri"),
            ("say", "say"),
            ("saying", "say"),
            ("yelling", "yell"),
            ("agreed", "agre"),
            ("feed", "feed"),
            ("proceed", "proceed"),
            ("innings", "inning"),
            ("nationalization", "nation"),
            ("national", "nation"),
            ("relational", "relat"),
            ("refactoring", "refactor"),
            ("refactored", "refactor"),
            ("refactors", "refactor"),
            ("asynchronously", "asynchron"),
            ("abandoned", "abandon"),
            ("ability", "abil"),
            ("abilities", "abil"),
            ("able", "abl"),
            ("absolutely", "absolut"),
            ("accommodation", "accommod"),
            ("biology", "biolog"),
            ("hopeful", "hope"),
            ("hopefully", "hope"),
            ("hopefulness", "hope"),
            ("controlling", "control"),
            ("controll", "control"),
            ("dog's", "dog"),
            ("dogs'", "dog"),
            ("'tis", "tis"),
            ("yes", "yes"),
            ("by", "by"),
            ("a", "a"),
            ("", ""),
        ];
        for (word, want) in cases {
            assert_eq!(stem(word), want, "stem({word:?})");
        }
    }

    /// The contract is "never panic, copy what we do not stem".
    #[test]
    fn passthrough_and_no_panic() {
        let long = "a".repeat(1000);
        #[rustfmt::skip]
        let odd = [
            "", "'", "''", "'''", "''s", "'s'", "'s", "s'", "y", "yy", "yyy", "Y", "ab1", "123",
            "Running", "café", "naïve", "日本語", "\u{0}", "a b", "a-b", "e'e", long.as_str(),
        ];
        for w in odd {
            let _ = stem(w);
        }
        for w in [
            "ab1",
            "123",
            "Running",
            "café",
            "日本語",
            "a b",
            "a-b",
            long.as_str(),
        ] {
            assert_eq!(stem(w), w);
        }
        let over = "s".repeat(46) + "ing";
        assert_eq!(stem(&over), over, "over 48 bytes is copied");
        let at_limit = ["s".repeat(45) + "ing", "y".repeat(48), "'".repeat(48)];
        check_all(at_limit.iter().map(String::as_str));
        assert_eq!(stem("''s"), "");
    }

    /// Stemming must not allocate once `out` is big enough.
    #[test]
    fn reuses_output_capacity() {
        let mut out = String::with_capacity(64);
        let ptr = out.as_ptr();
        for w in ["consignment", "nationalization", "a", "", "skies", "ééé"] {
            stem_into(w, &mut out);
            assert_eq!(out.as_ptr(), ptr);
        }
    }

    #[rustfmt::skip]
    const ROOTS: &[&str] = &[
        // Exceptions and their neighbours.
        "skis", "skies", "sky", "dying", "lying", "tying", "idly", "gently", "ugly", "early",
        "only", "singly", "news", "howe", "atlas", "cosmos", "bias", "andes", "inning", "outing",
        "canning", "herring", "earring", "proceed", "exceed", "succeed", "ski", "die", "lie",
        "tie", "idle", "gentle", "single", "new", "how",
        // Exceptional R1 prefixes.
        "gener", "general", "generate", "generic", "generous", "genera", "commun", "commune",
        "communism", "communicate", "community", "arsen", "arsenal", "arsenic", "generator",
        // Words starting or ending in y, or with y after a vowel.
        "yes", "yellow", "young", "youth", "yield", "yard", "year", "yoke", "yacht", "yay", "yyy",
        "day", "play", "boy", "toy", "say", "obey", "enjoy", "annoy", "ready", "happy", "easy",
        "busy", "lady", "baby", "pony", "city", "party", "study", "story", "try", "deny", "apply",
        "reply", "supply", "mystery", "entry", "ability", "stay", "buyer", "layer", "player",
        "mayor", "royal", "loyal", "crayon", "beyond", "voyage", "employ", "by", "fly", "dry",
        "cry", "spy", "key", "holy", "family", "friendly", "lovely", "likely", "rely", "ay", "oy",
        "eye", "sayy", "syzygy", "rhythm", "crypt", "myth",
        // Final e, final l, doubled consonants.
        "hope", "rate", "state", "late", "cure", "note", "use", "make", "take", "give", "love",
        "move", "prove", "smoke", "agree", "free", "see", "tree", "flee", "knee", "guarantee",
        "feel", "cool", "fool", "real", "ideal", "model", "level", "panel", "metal", "cruel",
        "steel", "pool", "tool", "school", "will", "fill", "ball", "tell", "doll", "all", "spell",
        "skill", "well", "full", "kill", "pull", "bat", "fat", "sit", "plan", "step", "big", "hot",
        "wet", "thin", "fit", "rub", "beg", "dim", "stir", "rob", "trim", "chat", "knit", "occur",
        "commit", "admit", "refer", "control", "travel", "label", "fizz", "buzz", "mess", "kiss",
        "miss", "pass", "boss", "bus", "gas", "this", "us", "is", "as", "was", "has", "its", "ow",
        "bow", "row", "tax", "fix", "box", "wax", "sew", "few", "feed", "need", "seed", "speed",
        "bleed", "breed", "agreed", "indeed", "freed", "weed", "greed", "creed", "bed", "red",
        "shed", "sled", "fled", "wed", "ring", "sing", "king", "thing", "bring", "string",
        "spring", "sting", "wing", "ding", "ping",
        // -ion, -al, -ic, -ful and friends.
        "nation", "relate", "relation", "condition", "action", "motion", "station", "position",
        "tradition", "emotion", "fiction", "mission", "session", "lion", "onion", "union",
        "opinion", "region", "religion", "logic", "music", "magic", "critic", "electric", "basic",
        "civil", "final", "formal", "normal", "natural", "cultural", "beauty", "beautiful", "harm",
        "power", "wonder", "cheer", "care", "mouth", "hand", "spoon", "biology", "apology",
        "analog", "geology", "ecology", "zoology", "possible", "visible", "sensible", "notable",
        "organ", "optim", "mechanic", "theory", "critical", "historic", "periodic", "radical",
        "tropic", "quantum", "moment", "element", "document", "argument", "judgement", "agent",
        "parent", "current", "accent", "event", "servant", "elephant", "giant", "plant", "decent",
        "recent", "cement", "lament", "torment", "ferment", "intense", "sense", "tense", "dense",
        "commence", "romance", "finance", "balance", "dance", "trance", "france", "active",
        "native", "motive", "relative", "sensitive", "creative", "negative", "positive", "massive",
        "passive", "olive", "alive", "drive", "dive", "five", "hive", "realism", "prism", "schism",
        "tourism", "baptism", "ego", "hero", "zero", "radio", "ratio", "piano", "tomato", "echo",
        "solo",
        // Technical vocabulary.
        "refactor", "async", "synchron", "asynchronous", "compile", "parse", "token", "index",
        "query", "cache", "buffer", "thread", "stream", "socket", "server", "client", "agenda",
        "regulate", "decide", "detect", "relied", "reliable", "config", "deploy", "rebase", "merge",
        "branch", "stem", "tokenize", "serial", "vector", "matrix", "kernel", "process", "access",
        "success", "address", "express", "progress", "compress", "digest", "ingest", "suggest",
        "request", "retry", "timeout", "overload", "throttle", "schedule", "monitor", "observe",
        "measure", "limit", "budget", "threshold",
        // Common verbs.
        "act", "add", "allow", "answer", "appear", "argue", "arrange", "arrive", "ask", "attack",
        "attend", "avoid", "bake", "ban", "bar", "base", "bear", "beat", "begin", "believe",
        "belong", "bend", "bet", "bid", "bind", "bite", "blame", "bless", "block", "blow", "boil",
        "book", "border", "bore", "borrow", "bother", "bounce", "brake", "break", "breathe",
        "brush", "build", "burn", "bury", "buy", "call", "calm", "camp", "cancel", "carry",
        "catch", "cause", "change", "charge", "chase", "cheat", "check", "chew", "choke", "chop",
        "claim", "clap", "clean", "clear", "climb", "close", "coach", "collect", "comb", "combine",
        "come", "command", "comment", "compare", "compete", "complain", "complete", "compute",
        "concern", "confirm", "confuse", "connect", "consider", "consign", "contain", "continue",
        "cook", "copy", "correct", "cost", "cough", "count", "cover", "crack", "crash", "crawl",
        "create", "cross", "crowd", "crush", "curl", "curve", "cut", "cycle", "damage", "dare",
        "deal", "decay", "declare", "decorate", "defend", "define", "delay", "delete", "deliver",
        "depend", "derive", "describe", "deserve", "design", "destroy", "develop", "differ", "dig",
        "dine", "dip", "direct", "disagree", "discover", "dislike", "divide", "double", "doubt",
        "drag", "drain", "draw", "dream", "dress", "drink", "drip", "drop", "drown", "drum",
        "dust", "earn", "eat", "educate", "embarrass", "empty", "encourage", "end", "enter",
        "entertain", "equal", "escape", "examine", "excite", "excuse", "exist", "expand", "expect",
        "explain", "explode", "extend", "face", "fade", "fail", "fancy", "fasten", "fear", "fence",
        "fetch", "fight", "file", "film", "find", "fire", "flap", "flash", "float", "flood",
        "flow", "flower", "fold", "follow", "force", "forget", "forgive", "form", "found", "frame",
        "freeze", "frighten", "fry", "gather", "gaze", "glow", "glue", "grab", "grate", "grease",
        "greet", "grin", "grip", "groan", "grow", "guard", "guess", "guide", "hammer", "handle",
        "hang", "happen", "hate", "haunt", "head", "heal", "heap", "hear", "heat", "help", "hide",
        "hit", "hold", "hook", "hop", "hover", "hug", "hum", "hunt", "hurry", "hurt", "identify",
        "ignore", "imagine", "impress", "improve", "include", "increase", "influence", "inform",
        "inject", "injure", "instruct", "intend", "interest", "interrupt", "introduce", "invent",
        "invite", "irritate", "itch", "jail", "jam", "jog", "join", "joke", "judge", "juggle",
        "jump", "keep", "kick", "kneel", "knock", "knot", "land", "last", "laugh", "launch", "lay",
        "lead", "learn", "lend", "let", "license", "lick", "lift", "light", "like", "limp", "list",
        "listen", "live", "load", "lock", "long", "look", "lose", "manage", "march", "mark",
        "marry", "match", "mate", "matter", "meet", "melt", "memorize", "mend", "milk", "mine",
        "mix", "moan", "moor", "mourn", "muddle", "mug", "multiply", "murder", "nail", "name",
        "nest", "nod", "notice", "number", "object", "obtain", "offend", "offer", "open", "order",
        "organize", "own", "pack", "paddle", "paint", "park", "part", "pause", "pay", "peck",
        "pedal", "peel", "peep", "perform", "permit", "phone", "pick", "pinch", "pine", "place",
        "planet", "please", "plug", "point", "poke", "polish", "pop", "possess", "post", "pour",
        "practise", "pray", "preach", "precede", "prefer", "prepare", "present", "preserve",
        "press", "pretend", "prevent", "prick", "print", "produce", "program", "promise",
        "protect", "provide", "pump", "punch", "puncture", "punish", "purr", "push", "put",
        "question", "queue", "race", "radiate", "rain", "raise", "reach", "read", "realize",
        "receive", "recognize", "record", "reduce", "reflect", "refuse", "regret", "reign",
        "reject", "rejoice", "relax", "release", "remain", "remember", "remind", "remove",
        "repair", "repeat", "replace", "report", "reproduce", "rescue", "retire", "return",
        "rhyme", "rinse", "risk", "rock", "roll", "rot", "ruin", "rule", "run", "rush", "sack",
        "sail", "satisfy", "save", "saw", "scare", "scatter", "scold", "scorch", "scrape",
        "scratch", "scream", "screw", "scribble", "scrub", "seal", "search", "sell", "send",
        "separate", "serve", "settle", "shade", "share", "shave", "shelter", "shiver", "shock",
        "shop", "shrug", "sigh", "sign", "signal", "sin", "sip", "skip", "slap", "sleep", "slip",
        "slow", "smash", "smell", "smile", "snatch", "sneeze", "sniff", "snore", "snow", "soak",
        "soothe", "sound", "spare", "spark", "sparkle", "spill", "spoil", "spot", "spray",
        "sprout", "squash", "squeak", "squeal", "squeeze", "stain", "stamp", "stand", "stare",
        "start", "steer", "stitch", "stop", "store", "strap", "strengthen", "stretch", "strip",
        "stroke", "stuff", "subtract", "suck", "suffer", "suit", "support", "suppose", "surprise",
        "surround", "suspect", "suspend", "switch", "talk", "tame", "tap", "taste", "teach",
        "tear", "tease", "telephone", "tempt", "terrify", "test", "thank", "thaw", "think", "tick",
        "tickle", "time", "tip", "tire", "touch", "tour", "tow", "trace", "trade", "train",
        "transport", "trap", "treat", "tremble", "trick", "trip", "trot", "trouble", "trust",
        "tug", "tumble", "turn", "twist", "type", "undress", "unfasten", "unite", "unlock",
        "unpack", "untidy", "vanish", "visit", "wail", "wait", "walk", "wander", "want", "warm",
        "warn", "wash", "waste", "watch", "water", "wave", "weigh", "welcome", "whine", "whip",
        "whirl", "whisper", "whistle", "wink", "wipe", "wish", "wobble", "work", "worry", "wrap",
        "wreck", "wrestle", "wriggle", "yawn", "yell", "zip", "zoom",
    ];

    #[rustfmt::skip]
    const SUFFIXES: &[&str] = &[
        "", "s", "es", "ed", "ing", "ly", "er", "est", "ness", "ment", "ation", "ational",
        "ization", "ize", "izer", "able", "ible", "ful", "fully", "less", "lessly", "ity", "ive",
        "iveness", "ous", "ously", "al", "ally", "ism", "ist", "ence", "ance", "ent", "ant", "'s",
        "s'",
    ];

    /// Stacked suffixes: these make long words whose stemming cuts well
    /// past the last sixteen bytes.
    #[rustfmt::skip]
    const COMPOUNDS: &[&str] = &[
        "izational", "izationally", "ationalism", "ationalist", "ationalization",
        "ationalizations", "fulnesses", "ivenesses", "lessnesses", "alizations",
        "ousnesses", "icalities", "abilities", "ibilities", "ementally", "ingly",
        "edly", "eedly", "ically", "ologies", "ementalisation", "entialities",
        // Up to ten bytes of Step_0/1a/1b cuts before Step_2 reads seven.
        "izationninglys's'", "fulnessttedlys'", "ationalddingly's'", "ousnessppedly's",
        "ivenessmmingly's'", "alismggedlys's'",
    ];

    #[test]
    fn oracle_generated_words() {
        let mut words = Vec::new();
        for root in ROOTS {
            for suffix in SUFFIXES.iter().chain(COMPOUNDS) {
                words.push(format!("{root}{suffix}"));
            }
            words.push(format!("'{root}"));
        }
        words.sort();
        words.dedup();
        assert!(words.len() > 50_000);
        check_all(words.iter().map(String::as_str));
    }

    #[test]
    fn oracle_prose_words() {
        let text = include_str!("../../tests/fixtures/english_words.txt");
        let n = check_all(text.lines().filter(|w| !w.is_empty()));
        assert!(n > 4000);
    }

    /// Deterministic xorshift, so failures reproduce.
    fn rng(seed: u64) -> impl FnMut(usize) -> usize {
        let mut state = seed;
        move |bound| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        }
    }

    #[test]
    fn oracle_fuzz() {
        const ALPHABET: &[u8] = b"aeiouybcdlmnrstgw'";
        let mut next = rng(0x9E37_79B9_7F4A_7C15);
        let words: Vec<String> = (0..20_000)
            .map(|_| {
                let len = next(16);
                (0..len)
                    .map(|_| char::from(ALPHABET[next(ALPHABET.len())]))
                    .collect()
            })
            .collect();
        assert_eq!(check_all(words.iter().map(String::as_str)), 20_000);
    }

    /// Random chains of suffix-like pieces reach the long, heavily stripped
    /// words (and apostrophe/y interactions) that letter noise rarely does.
    #[test]
    fn oracle_fuzz_morphemes() {
        #[rustfmt::skip]
        const PIECES: &[&str] = &[
            "ation", "ational", "al", "ize", "iz", "ization", "ing", "ingly", "ly", "ed", "edly",
            "eed", "eedly", "s", "'s", "'", "'s'", "y", "ful", "fulli", "ness", "ous", "ousli",
            "li", "bli", "abli", "ogi", "logi", "e", "ement", "ment", "ent", "sses", "ies", "ied",
            "at", "bl", "tt", "ss", "us", "ic", "ical", "icate", "iciti", "ative", "alize", "iti",
            "ive", "iviti", "ence", "enci", "ance", "anci", "er", "izer", "ator", "ism", "alism",
            "sion", "tion", "ion", "able", "ible", "ant", "gener", "commun", "arsen", "yay", "ay",
            "o", "u", "a", "b", "c", "d", "h", "l", "n", "r", "t", "w", "x", "lessli", "entli",
        ];
        let mut next = rng(0x2545_F491_4F6C_DD1D);
        let words: Vec<String> = (0..20_000)
            .map(|_| {
                let pieces = 1 + next(8);
                (0..pieces).map(|_| PIECES[next(PIECES.len())]).collect()
            })
            .filter(|w: &String| w.len() <= 48)
            .collect();
        assert!(words.len() > 19_000);
        check_all(words.iter().map(String::as_str));
    }
}
