//! One sort for the whole crate, to keep the wasm module small.
//!
//! `slice::sort*` is instantiated in full (a few KB each) for every element
//! type and comparator; a dozen call sites cost ~75 KB of wasm. Here every
//! call sorts a permutation of indices with one shared, non-generic
//! instantiation of the standard stable sort, then applies it: the generic
//! part left per call site is a few hundred bytes.
//!
//! The result is exactly that of the standard stable sort (`sort_by`). For
//! the former `sort_unstable*` callers it is the same too, because each of
//! them compares whole values: elements that compare equal are identical.

use std::cmp::Ordering;

/// Stable sort by `cmp`, as `slice::sort_by`.
pub(crate) fn sort_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    if v.len() < 2 {
        return;
    }
    let mut idx: Vec<usize> = (0..v.len()).collect();
    {
        let v: &[T] = v;
        sort_indices(&mut idx, &mut |a, b| cmp(&v[a], &v[b]));
    }
    permute(v, &mut idx);
}

/// Stable sort by the natural order, as `slice::sort`.
pub(crate) fn sort<T: Ord>(v: &mut [T]) {
    sort_by(v, T::cmp);
}

/// Stable sort by a key, as `slice::sort_by_key`.
pub(crate) fn sort_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(v, |a, b| key(a).cmp(&key(b)));
}

/// Sorts ids, as `slice::sort_unstable`: the one sort on a hot path
/// (validating an imported snapshot's ids), so it stays the standard,
/// inlined-comparator sort; one instantiation serves every caller.
pub(crate) fn sort_u64(v: &mut [u64]) {
    v.sort_unstable();
}

/// Stable sort by a key below 2^40, as `slice::sort_by_key`: each element's
/// key and position packed into one `u64`, sorted as integers
/// (`sort_u64`), then applied. Several times cheaper than `sort_by` on large
/// tables, whose comparator is called through a pointer.
pub(crate) fn sort_by_key40<T>(v: &mut [T], key: impl Fn(&T) -> u64) {
    const POSITION_BITS: u32 = 24;
    if v.len() < 2 || v.len() >= 1 << POSITION_BITS {
        sort_by_key(v, key);
        return;
    }
    // Each key read once: packed, or `None` when one is too wide to pack.
    let packed: Option<Vec<u64>> = (0u64..)
        .zip(v.iter())
        .map(|(i, e)| {
            let k = key(e);
            (k >> 40 == 0).then_some(k << POSITION_BITS | i)
        })
        .collect();
    let Some(mut packed) = packed else {
        sort_by_key(v, key);
        return;
    };
    sort_u64(&mut packed);
    let mut idx: Vec<usize> = packed
        .iter()
        .map(|p| (p & ((1 << POSITION_BITS) - 1)) as usize)
        .collect();
    permute(v, &mut idx);
}

/// The single instantiation of the standard sort.
#[inline(never)]
fn sort_indices(idx: &mut [usize], cmp: &mut dyn FnMut(usize, usize) -> Ordering) {
    idx.sort_by(|&a, &b| cmp(a, b));
}

/// Moves `v[idx[i]]` to position `i` for every `i`, cycle by cycle; `idx`
/// becomes the identity.
fn permute<T>(v: &mut [T], idx: &mut [usize]) {
    for start in 0..idx.len() {
        let mut j = start;
        loop {
            let k = idx[j];
            idx[j] = j;
            if k == start {
                break;
            }
            v.swap(j, k);
            j = k;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_std_stable_sort() {
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        for n in 0..200 {
            let v: Vec<(u8, u32)> = (0..n as u32)
                .map(|i| {
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    ((seed % 7) as u8, i)
                })
                .collect();
            let mut want = v.clone();
            want.sort_by_key(|e| e.0);
            let mut got = v.clone();
            sort_by_key(&mut got, |e| e.0);
            assert_eq!(got, want);
            let mut got = v.clone();
            sort_by_key40(&mut got, |e| u64::from(e.0));
            assert_eq!(got, want);
            // A key too wide to pack takes the general sort, same result.
            let mut got = v.clone();
            sort_by_key40(&mut got, |e| u64::from(e.0) << 40);
            assert_eq!(got, want);
            let mut want = v.clone();
            want.sort_unstable();
            let mut got = v;
            sort(&mut got);
            assert_eq!(got, want);
        }
    }
}
