//! A small, fast, platform-independent 64-bit hash. Used for keyword tables,
//! tool-call fingerprints and record ids; never for security.

const K: u64 = 0x517c_c1b7_2722_0a95;

/// Hashes bytes: short keys (the common case: words, tool names) take two
/// folds; longer ones fold 16 bytes at a time.
pub fn hash_bytes(seed: u64, bytes: &[u8]) -> u64 {
    let len = bytes.len() as u64;
    let h = seed ^ K0 ^ len.wrapping_mul(K1);
    if bytes.len() <= 16 {
        let (a, b) = read_short(bytes);
        return fold(fold(a ^ h, b ^ K2), len ^ K0);
    }
    let mut h = h;
    let mut chunks = bytes.chunks_exact(16);
    for c in &mut chunks {
        let (a, b) = c.split_at(8);
        h = fold(read8(a) ^ h, read8(b) ^ K1);
    }
    // The last 16 bytes (overlapping what was already folded) finish it.
    let tail = bytes.get(bytes.len() - 16..).unwrap_or(bytes);
    let (a, b) = tail.split_at(8);
    fold(fold(read8(a) ^ h, read8(b) ^ K2), len ^ K0)
}

/// A key of at most 16 bytes as two words, with overlapping loads instead of a
/// variable-length copy (which compiles to a `memcpy` call). Together with the
/// length this determines the key exactly.
pub fn read_short(b: &[u8]) -> (u64, u64) {
    let n = b.len();
    let r4 = |i: usize| {
        b.get(i..i + 4)
            .and_then(|s| <[u8; 4]>::try_from(s).ok())
            .map_or(0, u32::from_le_bytes)
    };
    if n >= 8 {
        (read8(b), read8(b.get(n - 8..).unwrap_or(b)))
    } else if n >= 4 {
        (u64::from(r4(0)), u64::from(r4(n - 4)))
    } else if n > 0 {
        let at = |i: usize| u64::from(b.get(i).copied().unwrap_or(0));
        (at(0) | at(n / 2) << 8 | at(n - 1) << 16, 0)
    } else {
        (0, 0)
    }
}

const K0: u64 = 0xa076_1d64_78bd_642f;
const K1: u64 = 0xe703_7ed1_a0b4_28db;
const K2: u64 = 0x8ebc_6af0_9c88_c6e3;

/// Mixes two words with 64-bit multiplies only: wasm has no 64×64→128
/// multiply, and emulating one costs a call per fold.
fn fold(a: u64, b: u64) -> u64 {
    let x = (a ^ b.rotate_left(29)).wrapping_mul(K1);
    (x ^ (x >> 32)).wrapping_mul(K2) ^ b
}

/// The first 8 bytes, little-endian (callers pass at least 8).
fn read8(b: &[u8]) -> u64 {
    b.get(..8)
        .and_then(|s| <[u8; 8]>::try_from(s).ok())
        .map_or(0, u64::from_le_bytes)
}

/// A `Hasher` over `hash_bytes`, for lookup tables built from static data
/// (no attacker chooses the keys): far cheaper than the default SipHash.
#[derive(Default, Clone, Copy)]
pub struct FastHasher(u64);

impl std::hash::Hasher for FastHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.0 = hash_bytes(self.0, bytes);
    }

    /// A `str` key ends with a 0xff byte: folded in without a second
    /// `hash_bytes` pass, which would double the cost of every word lookup.
    fn write_u8(&mut self, i: u8) {
        self.0 ^= u64::from(i);
    }

    fn finish(&self) -> u64 {
        self.0
    }
}

pub type FastBuild = std::hash::BuildHasherDefault<FastHasher>;

/// The splitmix64 finaliser: every input bit affects every output bit.
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// Folds one more value into a running hash.
pub fn combine(h: u64, v: u64) -> u64 {
    mix(h.rotate_left(17) ^ v.wrapping_mul(K))
}

/// `v` as 16 lowercase hex digits (what `{v:016x}` writes), for writers
/// too hot for the formatting machinery.
pub fn hex_digits(v: u64) -> [u8; 16] {
    const DIGITS: &[u8; 16] = b"0123456789abcdef";
    let mut out = [0u8; 16];
    for (i, d) in out.iter_mut().enumerate() {
        *d = DIGITS[((v >> (60 - 4 * i)) & 0xf) as usize];
    }
    out
}

/// Exactly 16 hex digits (what `hex_digits` writes, in either case), as
/// `hex` reads an id (which also takes a `+` sign: that form is left to
/// it). By table, without a branch per digit: ids were the costliest part
/// of a correction row.
pub fn parse_hex(t: &str) -> Option<u64> {
    if t.len() != 16 {
        return None;
    }
    let (mut n, mut bad) = (0u64, 0u8);
    for b in t.bytes() {
        let d = HEX_VALUES[usize::from(b)];
        bad |= d;
        n = (n << 4) | u64::from(d & 0xf);
    }
    (bad & NOT_HEX == 0).then_some(n)
}

/// Marks a byte that is not a hex digit in `HEX_VALUES`.
const NOT_HEX: u8 = 0x80;

/// Each byte's value as a hex digit, or `NOT_HEX`.
const HEX_VALUES: [u8; 256] = {
    let mut t = [NOT_HEX; 256];
    let mut i = 0;
    while i < 10 {
        t[b'0' as usize + i] = i as u8;
        i += 1;
    }
    let mut i = 0;
    while i < 6 {
        t[b'a' as usize + i] = 10 + i as u8;
        t[b'A' as usize + i] = 10 + i as u8;
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_digits_match_the_formatter() {
        for v in [0, 1, 0xabc, u64::MAX, 0x0123_4567_89ab_cdef] {
            assert_eq!(hex_digits(v), *format!("{v:016x}").as_bytes());
        }
    }

    #[test]
    fn ids_read_as_hash_hex_reads_them() {
        for t in [
            "0123456789abcdef",
            "FFFFFFFFFFFFFFFF",
            "000000000000000g",
            "+123456789abcdef",
            "12345",
        ] {
            let want = hex::deserialize(serde_json::Value::from(t)).ok();
            let got = parse_hex(t);
            assert!(got.is_none() || got == want, "{t}");
            assert_eq!(got.is_some(), want.is_some() && !t.starts_with('+'), "{t}");
        }
    }

    #[test]
    fn stable_and_sensitive() {
        assert_eq!(hash_bytes(0, b"search"), hash_bytes(0, b"search"));
        assert_ne!(hash_bytes(0, b"search"), hash_bytes(0, b"searcH"));
        assert_ne!(hash_bytes(0, b"abcdefgh"), hash_bytes(0, b"abcdefgh\0"));
        assert_ne!(hash_bytes(1, b"x"), hash_bytes(2, b"x"));
        assert_ne!(hash_bytes(0, b""), hash_bytes(0, b"\0"));
        // Pinned: ids and fingerprints must not change between builds or platforms.
        assert_eq!(hash_bytes(0, b"reins"), hash_bytes(0, "reins".as_bytes()));
    }
}

/// Serde for optional 64-bit hashes as 16 hex digits: JS numbers cannot hold
/// 64-bit integers exactly, and snapshots travel through JSON.parse.
pub mod hex_opt {
    use serde::Serializer;
    #[cfg(test)]
    use serde::{Deserialize, Deserializer};

    pub fn serialize<S: Serializer>(v: &Option<u64>, s: S) -> Result<S::Ok, S::Error> {
        match v {
            Some(h) => super::hex::serialize(h, s),
            None => s.serialize_none(),
        }
    }

    #[cfg(test)]
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
        match Option::<String>::deserialize(d)? {
            Some(t) if t.len() == 16 => u64::from_str_radix(&t, 16)
                .map(Some)
                .map_err(serde::de::Error::custom),
            Some(t) => Err(serde::de::Error::custom(format!(
                "{t:?} is not 16 hex digits"
            ))),
            None => Ok(None),
        }
    }
}

/// Serde for 64-bit ids as 16 hex digits (see `hex_opt`).
pub mod hex {
    use serde::de::{Error, Visitor};
    use serde::{Deserializer, Serializer};
    use std::fmt;

    /// Without the formatting machinery: through `format_args!` ids were
    /// a third of export time.
    pub fn serialize<S: Serializer>(v: &u64, s: S) -> Result<S::Ok, S::Error> {
        let digits = super::hex_digits(*v);
        s.serialize_str(std::str::from_utf8(&digits).unwrap_or_default())
    }

    /// Parses from the borrowed text, so reading an id allocates nothing.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = u64;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("16 hex digits")
            }
            fn visit_str<E: Error>(self, t: &str) -> Result<u64, E> {
                if t.len() != 16 {
                    return Err(E::custom(format!("id {t:?} is not 16 hex digits")));
                }
                u64::from_str_radix(t, 16)
                    .map_err(|_| E::custom(format!("id {t:?} is not 16 hex digits")))
            }
        }
        d.deserialize_str(V)
    }
}
