//! Standing preferences ("from now on …", "以后都 …"): user-wide, not tied to
//! a topic, always included by `injectCorrections`. A preference is its
//! words: the same words said in two tabs are one preference, so merging
//! keeps one copy of each (the newest) before trimming to the newest 20.

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Preferences kept (newest).
pub const MAX_PREFERENCES: usize = 20;
/// Characters kept of one preference.
pub const MAX_PREFERENCE_CHARS: usize = 500;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Preference {
    #[serde(with = "crate::hash::hex")]
    pub id: u64,
    pub at_ms: u64,
    pub seq: u64,
    pub text: String,
}

impl Preference {
    fn order(&self) -> (u64, u64, u64) {
        (self.at_ms, self.seq, self.id)
    }

    /// A total order, newest last: time, then the tie-breaks that make a
    /// merge independent of which copy came first.
    fn cmp_total(&self, other: &Self) -> std::cmp::Ordering {
        self.order()
            .cmp(&other.order())
            .then_with(|| self.text.cmp(&other.text))
    }

    /// What makes two preferences the same: their words, lowercase, with
    /// whitespace runs as one space.
    fn words(&self) -> String {
        self.text
            .split_whitespace()
            .map(str::to_lowercase)
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Preferences(pub Vec<Preference>);

impl Preferences {
    /// Adds a preference unless the same words are already stored.
    pub fn add(&mut self, p: Preference) {
        let words = p.words();
        if self.0.iter().any(|q| q.words() == words) {
            return;
        }
        self.0.push(p);
        self.trim();
    }

    fn trim(&mut self) {
        crate::sort::sort_by(&mut self.0, Preference::cmp_total);
        let cut = self.0.len().saturating_sub(MAX_PREFERENCES);
        self.0.drain(..cut);
    }

    /// Union by words: of the copies of one preference the newest is kept
    /// (in the total order `cmp_total`), then the newest `MAX_PREFERENCES`
    /// distinct ones. Commutative, associative and idempotent: each step
    /// keeps a maximum, and a preference dropped from the union of some
    /// copies has twenty distinct newer ones there, which only grow newer as
    /// copies are added.
    pub fn merge(&self, other: &Preferences) -> Preferences {
        let mut all: Vec<(String, &Preference)> = self
            .0
            .iter()
            .chain(other.0.iter())
            .map(|p| (p.words(), p))
            .collect();
        crate::sort::sort_by(&mut all, |a, b| {
            a.0.cmp(&b.0).then_with(|| a.1.cmp_total(b.1))
        });
        // The last of each run of one wording is its newest copy.
        let mut newest: Vec<Preference> = Vec::new();
        for (i, (words, p)) in all.iter().enumerate() {
            if all.get(i + 1).is_none_or(|next| next.0 != *words) {
                newest.push((*p).clone());
            }
        }
        crate::sort::sort_by(&mut newest, Preference::cmp_total);
        // Ids are hashes of the words, so two kept copies never share one
        // unless a snapshot was forged; the older then goes.
        let mut ids: Vec<u64> = Vec::new();
        for i in (0..newest.len()).rev() {
            if ids.contains(&newest[i].id) {
                newest.remove(i);
            } else {
                ids.push(newest[i].id);
            }
        }
        let mut out = Preferences(newest);
        out.trim();
        out
    }

    pub fn validate(&self) -> Result<()> {
        if self.0.len() > MAX_PREFERENCES {
            return Err(Error::range_error(
                "memory.preferences",
                format!("has more than {MAX_PREFERENCES} entries"),
            ));
        }
        if self
            .0
            .iter()
            .any(|p| p.text.is_empty() || p.text.chars().count() > MAX_PREFERENCE_CHARS + 1)
        {
            return Err(Error::range_error(
                "memory.preferences",
                "has an empty or over-long text",
            ));
        }
        let mut ids: Vec<u64> = self.0.iter().map(|p| p.id).collect();
        crate::sort::sort_u64(&mut ids);
        if ids.windows(2).any(|w| w[0] == w[1]) {
            return Err(Error::range_error(
                "memory.preferences",
                "has a duplicate id",
            ));
        }
        Ok(())
    }

    pub fn texts(&self) -> impl Iterator<Item = &str> {
        self.0.iter().map(|p| p.text.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(id: u64, at: u64, text: &str) -> Preference {
        Preference {
            id,
            at_ms: at,
            seq: 0,
            text: text.into(),
        }
    }

    #[test]
    fn duplicates_are_skipped_and_the_newest_are_kept() {
        let mut s = Preferences::default();
        s.add(p(1, 1, "From now on, use tabs."));
        s.add(p(2, 2, "from now on, use tabs."));
        assert_eq!(s.0.len(), 1);
        for i in 0..30 {
            s.add(p(10 + i, 10 + i, &format!("rule {i}")));
        }
        assert_eq!(s.0.len(), MAX_PREFERENCES);
        assert_eq!(s.0.last().unwrap().text, "rule 29");
    }

    #[test]
    fn merge_is_a_union_by_id() {
        let a = Preferences(vec![p(1, 1, "a"), p(2, 2, "b")]);
        let b = Preferences(vec![p(2, 2, "b"), p(3, 3, "c")]);
        assert_eq!(a.merge(&b), b.merge(&a));
        assert_eq!(a.merge(&b).0.len(), 3);
        assert_eq!(a.merge(&a), a);
    }
}
