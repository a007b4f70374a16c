//! An open-addressing set of string slices stored in an external arena, so a
//! keyword bag needs one allocation for all its strings instead of one each.
//! Callers hash a key once and pass the hash to every lookup and insert.

use crate::hash::{hash_bytes, read_short};

const EMPTY: u32 = u32::MAX;

/// The 32-bit table hash of a key.
pub fn key_hash(key: &str) -> u32 {
    hash_bytes(0, key.as_bytes()) as u32
}

/// String equality without a `memcmp` call for short keys: keyword lookups
/// compare many short strings, where the call itself is the cost.
pub fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    if a.len() > 16 {
        return a == b;
    }
    if a.len() < 4 {
        return a.iter().zip(b).all(|(x, y)| x == y);
    }
    read_short(a) == read_short(b)
}

#[derive(Debug, Clone, Default)]
pub struct StrTable {
    /// `(entry index or EMPTY, key hash)`: the stored hash places entries on
    /// growth without rehashing and lets a probe skip most string compares.
    slots: Vec<(u32, u32)>,
    len: usize,
}

impl StrTable {
    /// An empty table sized for about `n` entries.
    pub fn with_capacity(n: usize) -> Self {
        let size = (n * 2).next_power_of_two().max(16);
        Self {
            slots: vec![(EMPTY, 0); size],
            len: 0,
        }
    }

    /// Finds the entry whose string equals `key` (hash `h`); `get` maps an
    /// entry index to its string.
    pub fn find<'a>(&self, h: u32, key: &str, get: impl Fn(u32) -> &'a str) -> Option<u32> {
        if self.slots.is_empty() {
            return None;
        }
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        loop {
            let (idx, t) = *self.slots.get(i)?;
            if idx == EMPTY {
                return None;
            }
            if t == h && same(get(idx), key) {
                return Some(idx);
            }
            i = (i + 1) & mask;
        }
    }

    /// Inserts entry `idx` with key hash `h` (the caller checked it is absent).
    pub fn insert(&mut self, h: u32, idx: u32) {
        if (self.len + 1) * 2 > self.slots.len() {
            self.grow();
        }
        self.place(h, idx);
        self.len += 1;
    }

    fn place(&mut self, h: u32, idx: u32) {
        let mask = self.slots.len() - 1;
        let mut i = h as usize & mask;
        while let Some(slot) = self.slots.get_mut(i) {
            if slot.0 == EMPTY {
                *slot = (idx, h);
                return;
            }
            i = (i + 1) & mask;
        }
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        self.slots = vec![(EMPTY, 0); (old.len() * 2).max(16)];
        for (idx, h) in old.into_iter().filter(|s| s.0 != EMPTY) {
            self.place(h, idx);
        }
    }
}
