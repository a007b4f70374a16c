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
//! All suffix work happens on the word's last eight bytes held in a `u64`
//! (last byte in the top lane, i.e. as a little-endian load of those bytes
//! reads them): no suffix is longer than seven bytes, so a suffix test is
//! one mask-and-compare. Everything stays within 64 bits on purpose: the
//! product runs as wasm32, which has no 128-bit integers (a `u128` shift
//! there is a libcall that returns through memory) and no byte swap.
//!
//! Every Porter2 edit is a cut, sometimes followed by appending one or two
//! letters (`ational` -> `ate` is "cut five, append `e`"). So the input is
//! never copied or written: after a cut, the register's low lanes are
//! refilled straight from it, and the few appended letters live only in
//! the register (and are all the output needs beyond a prefix of the input).

/// Longer tokens are essentially never English words (URLs, hashes, glued
/// identifiers); passing them through lets per-position masks fit a `u64`.
const MAX_LEN: usize = 48;

const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
const HIGH: u64 = 0x8080_8080_8080_8080;

/// `b` in every lane.
const fn splat(b: u8) -> u64 {
    0x0101_0101_0101_0101 * b as u64
}

/// Per-lane classification of eight bytes, as the top bit of each lane.
struct Lanes {
    /// Lanes outside `[a-z']`.
    bad: u64,
    vowels: u64,
    ys: u64,
}

impl Lanes {
    #[inline(always)]
    fn of(x: u64) -> Lanes {
        // With the top bit clear in every lane (anything else is bad
        // anyway), adding 0x7f sets it exactly in the nonzero lanes, and
        // no addition below carries into the next lane.
        let ascii = x & !LOW7 == 0;
        let x = x & LOW7;
        let differs = |b: u8| (x ^ splat(b)).wrapping_add(LOW7);
        let at_least = |b: u8| x.wrapping_add(splat(0x80 - b));
        let letter = at_least(b'a') & !at_least(b'z' + 1);
        let ok = (letter | !differs(b'\'')) & HIGH;
        let not_y = differs(b'y');
        let consonant =
            differs(b'a') & differs(b'e') & differs(b'i') & differs(b'o') & differs(b'u') & not_y;
        Lanes {
            bad: if ascii { !ok & HIGH } else { HIGH },
            vowels: !consonant & HIGH,
            ys: !not_y & HIGH,
        }
    }

    /// Bit `i` set for each lane `i` whose top bit is set.
    #[inline(always)]
    fn bits(lanes: u64) -> u64 {
        ((lanes >> 7) & 0x0101_0101_0101_0101).wrapping_mul(0x0102_0408_1020_4080) >> 56
    }

    #[inline(always)]
    fn vowels(&self) -> u64 {
        Self::bits(self.vowels)
    }

    #[inline(always)]
    fn ys(&self) -> u64 {
        Self::bits(self.ys)
    }
}

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

    // Validate and find the vowels and y's eight bytes at a time: words
    // of up to eight bytes (most of them) take one pass over the register,
    // with no per-byte loop. Longer words add the full chunks in front of
    // the last eight bytes.
    let mut t = last8(body);
    let mut bad = 0u64;
    let mut vowels = 0u64;
    let mut ys = 0u64;
    let mut at = 0;
    while at + 8 < n
        && let Some(chunk) = body.get(at..).and_then(|s| s.first_chunk::<8>())
    {
        let c = Lanes::of(u64::from_le_bytes(*chunk));
        bad |= c.bad;
        vowels |= c.vowels().wrapping_shl(at as u32);
        ys |= c.ys().wrapping_shl(at as u32);
        at += 8;
    }
    // The last eight bytes; for a shorter word only its top `n` lanes.
    let c = Lanes::of(t);
    bad |= c.bad & u64::MAX.wrapping_shl(8 * (8 - n.min(8)) as u32);
    let (v, y) = (c.vowels(), c.ys());
    if n >= 8 {
        vowels |= v.wrapping_shl(n as u32 - 8);
        ys |= y.wrapping_shl(n as u32 - 8);
    } else {
        vowels |= v.wrapping_shr(8 - n as u32);
        ys |= y.wrapping_shr(8 - n as u32);
    }
    // Anything outside [a-z'] (digits, uppercase, non-ASCII) is not a word
    // the algorithm was designed for; leave it intact.
    if bad != 0 {
        out.push_str(word);
        return;
    }
    // The prelude's y marking: a y that starts the word or follows a vowel
    // acts as a consonant (`Y`). Going left to right over the updated mask
    // matches Snowball's `repeat goto` ("ayy" gives "aYy").
    let mut marks = 0u64;
    let mut rest = ys;
    while rest != 0 {
        let i = rest.trailing_zeros();
        rest &= rest - 1;
        if i == 0 || (vowels >> (i - 1)) & 1 != 0 {
            vowels &= !(1 << i);
            marks |= 1 << i;
        }
    }
    let mut head = match body.first_chunk::<8>() {
        Some(c) => u64::from_le_bytes(*c),
        None => t.wrapping_shr(8 * (8 - n) as u32),
    };
    if marks != 0 {
        t ^= case_flips(marks, n);
        head ^= case_flips(marks, 8);
    }
    let mut w = Word {
        src: body,
        head,
        marks,
        t,
        n,
        edit: n,
        p1: n,
        p2: n,
        vowels,
    };

    // Snowball matches the exceptions against the raw word, so a leading
    // apostrophe disables them. None of them contains a y that the marking
    // above would have changed.
    if start == 0
        && let Some(s) = EXCEPTION1.get(w.t)
    {
        out.push_str(s);
        return;
    }

    // `mark_regions`: a region starts one past each vowel/non-vowel boundary.
    // The exceptional R1 prefixes contain no y, so marking cannot hide them.
    let boundaries = (vowels << 1) & !vowels & !u64::MAX.wrapping_shl(n as u32);
    let first_region_after = |p: usize| {
        let later = boundaries & u64::MAX.wrapping_shl(p as u32 + 1);
        if later == 0 {
            n
        } else {
            later.trailing_zeros() as usize + 1
        }
    };
    w.p1 = if head & FRONT5 == GENER || head & FRONT5 == ARSEN {
        5
    } else if head & FRONT6 == COMMUN {
        6
    } else if boundaries == 0 {
        n
    } else {
        boundaries.trailing_zeros() as usize + 1
    };
    w.p2 = first_region_after(w.p1);

    w.stem();

    // Bytes before `edit` are the input's (whose y's are already what the
    // postlude would restore); the at most two letters after it were
    // appended by the steps and exist only in the register.
    let keep = w.n.min(w.edit);
    if let Some(s) = word.get(start..start + keep) {
        out.push_str(s);
    }
    let extra = (w.n - keep).min(8);
    let mut appended = w.t.checked_shr(8 * (8 - extra) as u32).unwrap_or(0);
    for _ in 0..extra {
        out.push(char::from(appended as u8));
        appended >>= 8;
    }
}

/// The last eight bytes of `s` (zero-padded in front), last byte highest.
/// `s` must have at least two bytes.
#[inline]
fn last8(s: &[u8]) -> u64 {
    if let Some(c) = s.last_chunk::<8>() {
        return u64::from_le_bytes(*c);
    }
    // Shorter words: two overlapping loads, so no per-byte loop.
    let n = s.len() as u32;
    let front = match (s.first_chunk::<4>(), s.last_chunk::<4>()) {
        (Some(a), Some(b)) => {
            u64::from(u32::from_le_bytes(*a)) | u64::from(u32::from_le_bytes(*b)) << (8 * (n - 4))
        }
        _ => match (s.first_chunk::<2>(), s.last_chunk::<2>()) {
            (Some(a), Some(b)) => {
                u64::from(u16::from_le_bytes(*a))
                    | u64::from(u16::from_le_bytes(*b)) << (8 * (n - 2))
            }
            _ => 0,
        },
    };
    front.wrapping_shl(8 * (8 - n))
}

/// XOR mask turning `y` into `Y` (0x20 apart) at the marked positions
/// among the eight ending at `end`.
#[inline]
fn case_flips(marks: u64, end: usize) -> u64 {
    let bits = if end >= 8 {
        marks.wrapping_shr(end as u32 - 8)
    } else {
        marks.wrapping_shl(8 - end as u32)
    } & 0xff;
    // Spread bit i to bit 8i.
    let x = (bits | bits << 28) & 0x0000_000f_0000_000f;
    let x = (x | x << 14) & 0x0003_0003_0003_0003;
    let x = (x | x << 7) & 0x0101_0101_0101_0101;
    x << 5
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

/// Packs `s` the way `Word::t` holds the end of the word: last byte in the
/// top lane, earlier bytes below it, unused low lanes zero.
const fn pack(s: &[u8]) -> u64 {
    let mut v = 0u64;
    let mut rest = s;
    while let [first, tail @ ..] = rest {
        v = (v >> 8) | (*first as u64) << 56;
        rest = tail;
    }
    v
}

/// Packs `s` the way `Word::head` holds the start of the word: first byte
/// in the lowest lane.
const fn pack_front(s: &[u8]) -> u64 {
    let mut v = 0u64;
    let mut shift = 0;
    let mut rest = s;
    while let [first, tail @ ..] = rest {
        v |= (*first as u64) << shift;
        shift += 8;
        rest = tail;
    }
    v
}

/// The exceptional R1 prefixes, tested against the word's first bytes.
const FRONT5: u64 = (1 << 40) - 1;
const FRONT6: u64 = (1 << 48) - 1;
const GENER: u64 = pack_front(b"gener");
const ARSEN: u64 = pack_front(b"arsen");
const COMMUN: u64 = pack_front(b"commun");

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
        let mask = if len == 0 {
            0
        } else if len >= 8 {
            u64::MAX
        } else {
            u64::MAX << (64 - 8 * len)
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

/// Rewrites suffix `from` to `to`, as a cut of `cut` bytes followed by
/// appending the `add_len` bytes `add` (packed like `Sfx::pat`): the part
/// of `to` that `from` already starts with is kept, not rewritten.
#[derive(Clone, Copy)]
struct Rule {
    from: Sfx,
    cut: usize,
    add: u64,
    add_len: usize,
}

const fn rule(from: &[u8], to: &[u8]) -> Rule {
    let (mut cut, mut add) = (from, to);
    while let ([a, cut_rest @ ..], [b, add_rest @ ..]) = (cut, add) {
        if *a != *b {
            break;
        }
        cut = cut_rest;
        add = add_rest;
    }
    Rule {
        from: Sfx::new(from),
        cut: cut.len(),
        add: pack(add),
        add_len: add.len(),
    }
}

/// Whole words compare against `Word::t` directly: the zero padding makes
/// `t == pack(word)` an exact equality test for words of up to seven bytes
/// (a longer word has a letter in the lowest lane). Each list is a small
/// perfect-hash table, so a lookup is a multiply, one load and one compare
/// instead of a chain of hard-to-predict branches.
struct WordSet<V: Copy, const N: usize> {
    mul: u64,
    slots: [(u64, V); N],
}

impl<V: Copy, const N: usize> WordSet<V, N> {
    /// Panics (at compile time: only ever evaluated for a `const`) if `mul`
    /// sends two words to the same slot.
    const fn new(mul: u64, words: &[(&[u8], V)], empty: V) -> Self {
        let mut slots = [(0, empty); N];
        let mut rest = words;
        while let [(word, value), tail @ ..] = rest {
            let key = pack(word);
            let slot = Self::slot(mul, key);
            assert!(slots[slot].0 == 0, "hash collision");
            slots[slot] = (key, *value);
            rest = tail;
        }
        WordSet { mul, slots }
    }

    #[inline(always)]
    const fn slot(mul: u64, key: u64) -> usize {
        (key.wrapping_mul(mul) >> (64 - N.trailing_zeros())) as usize
    }

    #[inline(always)]
    fn get(&self, t: u64) -> Option<V> {
        match self.slots.get(Self::slot(self.mul, t)) {
            Some(&(key, value)) if key == t => Some(value),
            _ => None,
        }
    }
}

/// Whole-word exceptions, matched before any other processing.
static EXCEPTION1: WordSet<&str, 32> = WordSet::new(
    0xc4c5_475d_7b3e_5dab,
    &[
        (b"skis", "ski"),
        (b"skies", "sky"),
        (b"dying", "die"),
        (b"lying", "lie"),
        (b"tying", "tie"),
        (b"idly", "idl"),
        (b"gently", "gentl"),
        (b"ugly", "ugli"),
        (b"early", "earli"),
        (b"only", "onli"),
        (b"singly", "singl"),
        (b"sky", "sky"),
        (b"news", "news"),
        (b"howe", "howe"),
        (b"atlas", "atlas"),
        (b"cosmos", "cosmos"),
        (b"bias", "bias"),
        (b"andes", "andes"),
    ],
    "",
);

/// Words left alone once `Step_1a` has run.
static EXCEPTION2: WordSet<(), 16> = WordSet::new(
    0xda94_e3e8_ab73_738f,
    &[
        (b"inning", ()),
        (b"outing", ()),
        (b"canning", ()),
        (b"herring", ()),
        (b"earring", ()),
        (b"proceed", ()),
        (b"exceed", ()),
        (b"succeed", ()),
    ],
    (),
);

macro_rules! sfx {
    ($($name:ident = $s:literal;)*) => {
        $(const $name: Sfx = Sfx::new($s);)*
    };
}

sfx! {
    APOS_S_APOS = b"'s'"; APOS_S = b"'s";
    SSES = b"sses"; IES = b"ies"; IED = b"ied"; SS = b"ss"; US = b"us";
    EEDLY = b"eedly"; EED = b"eed"; INGLY = b"ingly"; EDLY = b"edly";
    ING = b"ing"; ED = b"ed";
    OGI = b"ogi"; LOGI = b"logi"; ATIVE = b"ative"; SION = b"sion"; TION = b"tion";
}

const E: u64 = pack(b"e");

/// Applies the first (longest) of the listed rules whose suffix ends the
/// word, if it starts at or after `p`, and evaluates to whether any matched:
/// a match ends the step even when its region test fails. Expanded in
/// place rather than walking a table, so every suffix test is a compare
/// against constants, with no loop (each wasm loop iteration also pays for
/// an interrupt check).
macro_rules! first_rule {
    ($w:ident, $p:expr; $($from:literal => $to:literal),+ $(,)?) => {{
        let t = $w.t;
        let hit: Option<Rule> = 'search: {
            $({
                const RULE: Rule = rule($from, $to);
                if RULE.from.on(t) {
                    break 'search Some(RULE);
                }
            })+
            None
        };
        $w.apply_if(hit, $p)
    }};
}

/// The word being stemmed.
///
/// Every edit happens at the end, so `p1`/`p2` (computed once, as Snowball
/// does) stay valid as the word shrinks. Bytes before `edit` are still the
/// input's; the (at most two) bytes from `edit` to `n` were appended by a
/// rule. `t` holds the last eight byte positions, exactly (zero for
/// positions before the word).
struct Word<'a> {
    /// The input without its leading apostrophe; never written.
    src: &'a [u8],
    /// The first eight bytes of `src` after y marking, first byte lowest.
    head: u64,
    /// Bit `i` is set if byte `i` of the input is a consonantal `Y`.
    marks: u64,
    t: u64,
    n: usize,
    edit: usize,
    p1: usize,
    p2: usize,
    /// Bit `i` is set if byte `i` of the input (after y marking) is a vowel.
    /// Before `Step_1b`'s test, edits only truncate the word, so it is exact
    /// for every prefix those steps probe.
    vowels: u64,
}

impl Word<'_> {
    /// The last byte.
    #[inline(always)]
    fn last(&self) -> u8 {
        (self.t >> 56) as u8
    }

    /// The byte before the last one.
    #[inline(always)]
    fn second_last(&self) -> u8 {
        (self.t >> 48) as u8
    }

    /// Whether the first `len` bytes contain a vowel (see `vowels`).
    #[inline]
    fn has_vowel_before(&self, len: usize) -> bool {
        self.vowels & !u64::MAX.wrapping_shl(len as u32) != 0
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
        let x = if c < self.n { self.t << 8 } else { self.t };
        let (a, b, z) = ((x >> 40) as u8, (x >> 48) as u8, (x >> 56) as u8);
        match c {
            0 | 1 => false,
            // Only a two-letter prefix reaches the `atlimit` alternative, and
            // it uses plain `non-v`, so "ow" is short although "bow" is not.
            2 => is_vowel(b) && !is_vowel(z),
            _ => !is_vowel(a) && is_vowel(b) && !is_vowel_wxy(z),
        }
    }

    /// The eight input bytes (after y marking) that end at `end`,
    /// zero-padded in front, laid out like `t`.
    #[inline(always)]
    fn source(&self, end: usize) -> u64 {
        if end <= 8 {
            return self.head.checked_shl(8 * (8 - end) as u32).unwrap_or(0);
        }
        let v = self
            .src
            .get(end - 8..end)
            .and_then(|s| s.first_chunk::<8>())
            .map_or(0, |c| u64::from_le_bytes(*c));
        if self.marks == 0 {
            v
        } else {
            v ^ case_flips(self.marks, end)
        }
    }

    /// Drops the last `k` bytes; the lanes this frees at the bottom of `t`
    /// are refilled from the input. Appended bytes are always within the
    /// last two, so the refilled positions were never edited.
    #[inline(always)]
    fn cut(&mut self, k: usize) {
        self.n = self.n.saturating_sub(k);
        let shift = 8 * k as u32;
        let fresh = self.source(self.n) & !u64::MAX.wrapping_shl(shift);
        self.t = self.t.wrapping_shl(shift) | fresh;
    }

    /// Appends the `len` bytes packed in `add`.
    #[inline]
    fn append(&mut self, add: u64, len: usize) {
        self.edit = self.edit.min(self.n);
        self.n += len;
        self.t = self.t.wrapping_shr(8 * len as u32) | add;
    }

    #[inline]
    fn apply(&mut self, r: Rule) {
        self.cut(r.cut);
        if r.add_len != 0 {
            self.append(r.add, r.add_len);
        }
    }

    /// Applies `hit`, if any, when it starts at or after `p`; returns
    /// whether there was a hit.
    #[inline]
    fn apply_if(&mut self, hit: Option<Rule>, p: usize) -> bool {
        let Some(r) = hit else {
            return false;
        };
        if self.starts_in(r.from.len, p) {
            self.apply(r);
        }
        true
    }

    fn stem(&mut self) {
        self.step1a();
        if EXCEPTION2.get(self.t).is_some() {
            return;
        }
        self.step1b();
        self.step1c();
        // Every later rule needs its whole suffix inside R1 (Step 2 and 3,
        // at least two bytes), R2 (Step 4, at least two) or R1 (Step 5),
        // so skipping the steps that cannot fire changes nothing.
        if self.n >= self.p1 + 2 {
            self.step2();
            self.step3();
        }
        if self.n >= self.p2 + 2 {
            self.step4();
        }
        if self.n > self.p1 {
            self.step5();
        }
    }

    /// Snowball's `Step_1a`, which also performs Porter2's Step 0.
    fn step1a(&mut self) {
        let t = self.t;
        match self.last() {
            b'\'' => self.cut(if APOS_S_APOS.on(t) { 3 } else { 1 }),
            b's' if APOS_S.on(t) => self.cut(2),
            _ => {}
        }

        let t = self.t;
        if SSES.on(t) {
            self.cut(2);
        } else if IES.on(t) || IED.on(t) {
            // `hop 2`: keep "ie" when at most one letter precedes ("ties").
            self.cut(if self.n >= 5 { 2 } else { 1 });
        } else if self.last() == b's' && !SS.on(t) && !US.on(t) {
            // The vowel may not be the letter right before the s ("gas").
            if self.has_vowel_before(self.n.saturating_sub(2)) {
                self.cut(1);
            }
        }
    }

    fn step1b(&mut self) {
        let t = self.t;
        if !matches!(self.last(), b'd' | b'g' | b'y') {
            return;
        }
        if EEDLY.on(t) || EED.on(t) {
            // "eedly" -> "ee", "eed" -> "ee".
            let (len, k) = if EEDLY.on(t) { (5, 3) } else { (3, 1) };
            if self.starts_in(len, self.p1) {
                self.cut(k);
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
        let (a, z) = (self.second_last(), self.last());
        if matches!((a, z), (b'a', b't') | (b'b', b'l') | (b'i', b'z')) {
            self.append(E, 1);
        } else if a == z
            && matches!(
                z,
                b'b' | b'd' | b'f' | b'g' | b'm' | b'n' | b'p' | b'r' | b't'
            )
        {
            self.cut(1);
        } else if stem == self.p1 && self.short_v(stem) {
            // `atmark p1` tests equality, not `p1 >= len`.
            self.append(E, 1);
        }
    }

    fn step1c(&mut self) {
        // At least one letter must precede the consonant before the y.
        if self.n >= 3 && matches!(self.last(), b'y' | b'Y') && !is_vowel(self.second_last()) {
            self.edit = self.edit.min(self.n - 1);
            self.t = (self.t & !(0xff << 56)) | pack(b"i");
        }
    }

    fn step2(&mut self) {
        let p1 = self.p1;
        let t = self.t;
        let matched = match self.last() {
            b'l' => first_rule!(self, p1; b"ational" => b"ate", b"tional" => b"tion"),
            b'n' => first_rule!(self, p1; b"ization" => b"ize", b"ation" => b"ate"),
            b'r' => first_rule!(self, p1; b"izer" => b"ize", b"ator" => b"ate"),
            b'm' => first_rule!(self, p1; b"alism" => b"al"),
            b's' => first_rule!(self, p1;
                b"fulness" => b"ful",
                b"ousness" => b"ous",
                b"iveness" => b"ive",
            ),
            b'i' => first_rule!(self, p1;
                b"lessli" => b"less",
                b"entli" => b"ent",
                b"ousli" => b"ous",
                b"fulli" => b"ful",
                b"abli" => b"able",
                b"alli" => b"al",
                b"bli" => b"ble",
                b"biliti" => b"ble",
                b"aliti" => b"al",
                b"iviti" => b"ive",
                b"enci" => b"ence",
                b"anci" => b"ance",
            ),
            _ => return,
        };
        if matched || self.last() != b'i' {
            return;
        }
        // The two conditional rules; neither overlaps a table suffix.
        if OGI.on(t) {
            if LOGI.on(t) && self.starts_in(3, p1) {
                self.cut(1);
            }
        } else if self.second_last() == b'l'
            && matches!(
                (t >> 40) as u8,
                b'c' | b'd' | b'e' | b'g' | b'h' | b'k' | b'm' | b'n' | b'r' | b't'
            )
            && self.starts_in(2, p1)
        {
            self.cut(2);
        }
    }

    fn step3(&mut self) {
        let (p1, p2) = (self.p1, self.p2);
        match self.last() {
            b'l' => first_rule!(self, p1;
                b"ational" => b"ate",
                b"tional" => b"tion",
                b"ical" => b"ic",
                b"ful" => b"",
            ),
            b'e' => {
                if ATIVE.on(self.t) {
                    // R2 lies inside R1, so R2 alone decides.
                    if self.starts_in(5, p2) {
                        self.cut(5);
                    }
                    return;
                }
                first_rule!(self, p1; b"alize" => b"al", b"icate" => b"ic")
            }
            b'i' => first_rule!(self, p1; b"iciti" => b"ic"),
            b's' => first_rule!(self, p1; b"ness" => b""),
            _ => false,
        };
    }

    fn step4(&mut self) {
        let p2 = self.p2;
        let t = self.t;
        match self.last() {
            b'l' => first_rule!(self, p2; b"al" => b""),
            b'e' => first_rule!(self, p2;
                b"ance" => b"",
                b"ence" => b"",
                b"able" => b"",
                b"ible" => b"",
                b"ate" => b"",
                b"ive" => b"",
                b"ize" => b"",
            ),
            b'r' => first_rule!(self, p2; b"er" => b""),
            b'c' => first_rule!(self, p2; b"ic" => b""),
            b't' => first_rule!(self, p2;
                b"ement" => b"",
                b"ment" => b"",
                b"ent" => b"",
                b"ant" => b"",
            ),
            b'm' => first_rule!(self, p2; b"ism" => b""),
            b'i' => first_rule!(self, p2; b"iti" => b""),
            b's' => first_rule!(self, p2; b"ous" => b""),
            b'n' => {
                let matched = SION.on(t) || TION.on(t);
                if matched && self.starts_in(3, p2) {
                    self.cut(3);
                }
                matched
            }
            _ => false,
        };
    }

    fn step5(&mut self) {
        let (p1, p2) = (self.p1, self.p2);
        let c = self.n.saturating_sub(1);
        let drop = match self.last() {
            b'e' => p2 <= c || (p1 <= c && !self.short_v(c)),
            b'l' => self.second_last() == b'l' && p2 <= c,
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
