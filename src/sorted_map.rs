//! A map kept as one vector sorted by key, in place of `BTreeMap`, to keep
//! the wasm module small.
//!
//! Every `BTreeMap<K, V>` instantiates the B-tree's node, search, balancing
//! and iteration code (~7 KB of wasm) for its key and value types; the
//! crate's ten or so cost ~70 KB. Its maps are small and bounded (tool names,
//! topics, record ids), so a sorted vector with a binary search does the
//! same work in a few hundred bytes per instantiation, and iterates in the
//! same (key) order, so snapshots and decisions are unchanged.

use std::borrow::Borrow;
use std::fmt;
use std::marker::PhantomData;

use serde::de::{Deserialize, Deserializer, MapAccess, Visitor};
use serde::ser::{Serialize, SerializeMap, Serializer};

/// Keys in ascending order, each once.
#[derive(Clone, PartialEq, Eq)]
pub struct SortedMap<K, V>(Vec<(K, V)>);

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        Self(Vec::new())
    }
}

impl<K: fmt::Debug, V: fmt::Debug> fmt::Debug for SortedMap<K, V> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    pub fn new() -> Self {
        Self::default()
    }

    /// From pairs in any order; a key given twice keeps its last value, as
    /// inserting them one by one would.
    pub fn from_pairs(mut pairs: Vec<(K, V)>) -> Self {
        if !pairs.is_sorted_by(|a, b| a.0 < b.0) {
            // Stable, so equal keys stay in the order given.
            crate::sort::sort_by(&mut pairs, |a, b| a.0.cmp(&b.0));
            let mut out: Vec<(K, V)> = Vec::with_capacity(pairs.len());
            for p in pairs {
                match out.last_mut() {
                    Some(last) if last.0 == p.0 => *last = p,
                    _ => out.push(p),
                }
            }
            pairs = out;
        }
        Self(pairs)
    }

    /// From pairs in any order whose keys differ; the first key given
    /// twice is the error. One sort, so a hostile order costs n log n.
    pub fn from_unique_pairs(mut pairs: Vec<(K, V)>) -> Result<Self, K> {
        if !pairs.is_sorted_by(|a, b| a.0 < b.0) {
            crate::sort::sort_by(&mut pairs, |a, b| a.0.cmp(&b.0));
            if let Some(i) = (1..pairs.len()).find(|&i| pairs[i - 1].0 == pairs[i].0) {
                return Err(pairs.swap_remove(i).0);
            }
        }
        Ok(Self(pairs))
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.0.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.0[i].1)
    }

    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &mut self.0[i].1)
    }

    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Sets `key` to `value`, returning the value it replaced.
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.0[i].1, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.0.remove(i).1)
    }

    /// The value at `key`, inserted as `V::default()` when absent (as
    /// `BTreeMap::entry(key).or_default()`).
    pub fn or_default(&mut self, key: K) -> &mut V
    where
        V: Default,
    {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.0.insert(i, (key, V::default()));
                i
            }
        };
        &mut self.0[i].1
    }

    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.0.retain_mut(|(k, v)| keep(k, v));
    }
}

impl<K, V> SortedMap<K, V> {
    /// Entries in key order.
    pub fn iter(&self) -> Iter<'_, K, V> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    pub fn keys(&self) -> impl Iterator<Item = &K> + Clone {
        self.0.iter().map(|(k, _)| k)
    }

    pub fn values(&self) -> impl Iterator<Item = &V> + Clone {
        self.0.iter().map(|(_, v)| v)
    }

    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut V> {
        self.0.iter_mut().map(|(_, v)| v)
    }

    pub fn into_values(self) -> impl Iterator<Item = V> {
        self.0.into_iter().map(|(_, v)| v)
    }
}

/// `map[key]`, as `BTreeMap`'s: panics when the key is absent.
impl<K: Ord + Borrow<Q>, Q: Ord + ?Sized, V> std::ops::Index<&Q> for SortedMap<K, V> {
    type Output = V;
    fn index(&self, key: &Q) -> &V {
        self.get(key).expect("no entry for the key")
    }
}

/// Entries by reference, in key order.
pub type Iter<'a, K, V> =
    std::iter::Map<std::slice::Iter<'a, (K, V)>, fn(&'a (K, V)) -> (&'a K, &'a V)>;

impl<'a, K, V> IntoIterator for &'a SortedMap<K, V> {
    type Item = (&'a K, &'a V);
    type IntoIter = Iter<'a, K, V>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.into_iter()
    }
}

impl<K: Ord, V> FromIterator<(K, V)> for SortedMap<K, V> {
    fn from_iter<I: IntoIterator<Item = (K, V)>>(iter: I) -> Self {
        Self::from_pairs(iter.into_iter().collect())
    }
}

impl<K: Ord, V, const N: usize> From<[(K, V); N]> for SortedMap<K, V> {
    fn from(pairs: [(K, V); N]) -> Self {
        Self::from_pairs(Vec::from(pairs))
    }
}

/// Written as a JSON object in key order, as `BTreeMap` is.
impl<K: Serialize, V: Serialize> Serialize for SortedMap<K, V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Deserialize<'de> for SortedMap<K, V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct Pairs<K, V>(PhantomData<(K, V)>);
        impl<'de, K: Ord + Deserialize<'de>, V: Deserialize<'de>> Visitor<'de> for Pairs<K, V> {
            type Value = SortedMap<K, V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Self::Value, A::Error> {
                let mut pairs = Vec::with_capacity(m.size_hint().unwrap_or(0).min(256));
                while let Some(pair) = m.next_entry()? {
                    pairs.push(pair);
                }
                Ok(SortedMap::from_pairs(pairs))
            }
        }
        d.deserialize_map(Pairs(PhantomData))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeMap;

    /// Every operation against `BTreeMap` on the same random script.
    #[test]
    fn does_what_a_btree_map_does() {
        let (mut ours, mut theirs) = (SortedMap::new(), BTreeMap::new());
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for step in 0..5000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let key = format!("k{}", x % 97);
            match x % 5 {
                0 => assert_eq!(ours.insert(key.clone(), step), theirs.insert(key, step)),
                1 => assert_eq!(ours.remove(key.as_str()), theirs.remove(key.as_str())),
                2 => {
                    *ours.or_default(key.clone()) += 1;
                    *theirs.entry(key).or_default() += 1;
                }
                3 => {
                    ours.retain(|_, v| *v % 7 != (step % 7));
                    theirs.retain(|_, v| *v % 7 != (step % 7));
                }
                _ => {
                    assert_eq!(ours.get(key.as_str()), theirs.get(key.as_str()));
                    assert_eq!(ours.contains_key(&key), theirs.contains_key(&key));
                    if let (Some(a), Some(b)) = (ours.get_mut(&key), theirs.get_mut(&key)) {
                        *a += 3;
                        *b += 3;
                    }
                }
            }
            assert_eq!(ours.len(), theirs.len());
            assert!(ours.iter().eq(theirs.iter()), "after step {step}");
        }
        assert!(ours.keys().eq(theirs.keys()));
        assert!(ours.values().eq(theirs.values()));
    }

    #[test]
    fn unsorted_pairs_sort_and_keep_the_last_value_of_a_key() {
        let m = SortedMap::from_pairs(vec![("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)]);
        assert_eq!(
            m.iter().collect::<Vec<_>>(),
            [(&"a", &5), (&"b", &3), (&"c", &4)]
        );
        let t: BTreeMap<_, _> = [("b", 1), ("a", 2), ("b", 3), ("c", 4), ("a", 5)].into();
        assert!(m.iter().eq(t.iter()));
    }

    #[test]
    fn unique_pairs_name_a_repeated_key() {
        let m = SortedMap::from_unique_pairs(vec![("b", 1), ("a", 2), ("c", 3)]).unwrap();
        assert_eq!(m.keys().copied().collect::<Vec<_>>(), ["a", "b", "c"]);
        let twice = SortedMap::from_unique_pairs(vec![("b", 1), ("a", 2), ("b", 3)]);
        assert_eq!(twice.err(), Some("b"));
        assert!(SortedMap::<&str, u8>::from_unique_pairs(vec![("a", 1), ("a", 2)]).is_err());
    }

    /// Building from many keys in the worst order is one sort, not a
    /// shift of the vector per key.
    #[test]
    fn keys_in_reverse_build_in_one_sort() {
        let n = 20_000u32;
        let pairs: Vec<(u32, u32)> = (0..n).rev().map(|k| (k, k)).collect();
        let m = SortedMap::from_unique_pairs(pairs).unwrap();
        assert!(m.keys().copied().eq(0..n));
    }

    #[test]
    fn json_is_a_btree_maps_both_ways() {
        let text = r#"{"z":1,"a":2,"m":3,"a":4}"#;
        let ours: SortedMap<String, u32> = serde_json::from_str(text).unwrap();
        let theirs: BTreeMap<String, u32> = serde_json::from_str(text).unwrap();
        assert!(ours.iter().eq(theirs.iter()));
        assert_eq!(
            serde_json::to_string(&ours).unwrap(),
            serde_json::to_string(&theirs).unwrap()
        );
        assert!(serde_json::from_str::<SortedMap<String, u32>>("[1]").is_err());
    }
}
