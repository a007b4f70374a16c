//! Entries grouped by a string key, each key's entries in the order they
//! were added: one hash table of keys and two flat arrays, not a vector per
//! key. The phrase indexes are built on the first message a process reads,
//! where a vector per key was most of their cost.

use std::collections::HashMap;

use crate::hash::FastBuild;

pub(super) struct Groups<E> {
    /// Each key's number: its range in `ranges`.
    ids: HashMap<&'static str, u32, FastBuild>,
    /// Each key's entries, as a range of `entries`.
    ranges: Vec<(u32, u32)>,
    entries: Vec<E>,
}

impl<E: Copy> Groups<E> {
    pub(super) fn new(items: impl IntoIterator<Item = (&'static str, E)>) -> Self {
        let items: Vec<(&'static str, E)> = items.into_iter().collect();
        // Sized for every key distinct: the table never grows.
        let mut ids: HashMap<&'static str, u32, FastBuild> =
            HashMap::with_capacity_and_hasher(items.len(), FastBuild::default());
        let keyed: Vec<(u32, E)> = items
            .iter()
            .map(|&(key, e)| {
                let next = ids.len() as u32;
                (*ids.entry(key).or_insert(next), e)
            })
            .collect();
        // A counting sort by key number: stable, so each key keeps its order.
        let mut ranges = vec![(0u32, 0u32); ids.len()];
        for (id, _) in &keyed {
            if let Some(r) = ranges.get_mut(*id as usize) {
                r.1 += 1;
            }
        }
        let mut start = 0;
        for r in &mut ranges {
            r.0 = start;
            start += r.1;
        }
        let mut order = vec![0u32; keyed.len()];
        let mut next: Vec<u32> = ranges.iter().map(|r| r.0).collect();
        for (i, (id, _)) in (0u32..).zip(&keyed) {
            if let Some(at) = next.get_mut(*id as usize) {
                if let Some(slot) = order.get_mut(*at as usize) {
                    *slot = i;
                }
                *at += 1;
            }
        }
        let entries = order
            .iter()
            .filter_map(|&i| keyed.get(i as usize).map(|k| k.1))
            .collect();
        Groups {
            ids,
            ranges,
            entries,
        }
    }

    /// The entries of `key`, in the order they were added.
    pub(super) fn get(&self, key: &str) -> Option<&[E]> {
        let &(from, n) = self.ranges.get(*self.ids.get(key)? as usize)?;
        self.entries.get(from as usize..(from + n) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_key_keeps_its_entries_in_order() {
        let g = Groups::new([("b", 1), ("a", 2), ("b", 3), ("c", 4), ("b", 5), ("a", 6)]);
        assert_eq!(g.get("b"), Some(&[1, 3, 5][..]));
        assert_eq!(g.get("a"), Some(&[2, 6][..]));
        assert_eq!(g.get("c"), Some(&[4][..]));
        assert_eq!(g.get("d"), None);
        assert_eq!(Groups::<u8>::new([]).get(""), None);
    }
}
