//! Technologies named in a text: families of siblings (languages,
//! frameworks, databases, data formats…) where answering with one member
//! answers another question than the one asked about.

use std::sync::OnceLock;

use super::scan::Scanned;
use super::words::{FAMILIES, FENCE_TAGS, SIGNATURES, WordTable};
use crate::detect::scope::MAX_LISTED;
use crate::text::KeywordBag;

/// Family members named, given the scanned text and its keyword bag.
pub fn tech_in(s: &Scanned, bag: &KeywordBag) -> Vec<String> {
    // One lookup per word of the bag in a table built once, instead of one
    // bag lookup per family member (there are a hundred and fifty).
    let (by_stem, by_surface, signed) = member_tables();
    let mut named = [0u32; 64];
    let mut mark = |packed: u64| {
        for (family, member) in packed_members(packed) {
            if let Some(slot) = named.get_mut(family) {
                *slot |= 1 << member.min(31);
            }
        }
    };
    for (stem, surface, _) in bag.iter() {
        if let Some(&bits) = by_stem.get(stem) {
            mark(bits);
        }
        if let Some(&bits) = by_surface.get(surface) {
            mark(bits);
        }
    }
    // "c#", "c++": the tokenizer drops the sign, the text keeps it; "sql
    // server" is two words (not the end of "mysql server").
    for (bits, word) in signed {
        let starts_word = |(i, _): &(usize, &str)| {
            !s.text
                .get(..*i)
                .and_then(|b| b.chars().next_back())
                .is_some_and(char::is_alphanumeric)
        };
        if s.text.match_indices(word).any(|m| starts_word(&m)) {
            mark(*bits);
        }
    }
    let mut found = Vec::new();
    for (f, family) in FAMILIES.iter().enumerate() {
        for (m, member) in family.iter().enumerate() {
            if named.get(f).is_some_and(|b| b & (1 << m.min(31)) != 0) {
                found.push(member[0].trim_start_matches('=').to_string());
            }
        }
    }
    // "How do I react when a prop changes?": the verb, not the library.
    if found.iter().any(|f| f == "react") && only_the_verb_react(s) {
        found.retain(|f| f != "react");
    }
    for member in fenced_tech(&s.text) {
        if !found.iter().any(|f| f == member) {
            found.push(member.to_string());
        }
    }
    for (_, member) in signatures_in(&s.text) {
        if !found.iter().any(|f| f == member) {
            found.push(member.to_string());
        }
    }
    found
}

/// The members code fences name as their language ("```go"), in order.
pub fn fenced_tech(text: &str) -> Vec<&'static str> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("```").take(32) {
        let tag: String = text
            .get(i + 3..)
            .unwrap_or("")
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        let tag = tag.to_ascii_lowercase();
        if let Some((_, member)) = FENCE_TAGS.iter().find(|(t, _)| *t == tag)
            && !out.contains(member)
        {
            out.push(*member);
        }
    }
    out
}

/// Stem → members and surface → members (`=name` entries) of `FAMILIES`:
/// up to four `family << 8 | member` entries per word ("ubuntu" is a Unix
/// and a distribution), 16 bits each, plus one so that 0 ends the list.
/// Members written with a sign ("c#") are looked up in the text, listed apart.
type MemberTables = (WordTable, WordTable, Vec<(u64, &'static str)>);

/// The (family, member) entries packed in one `member_tables` value.
fn packed_members(packed: u64) -> impl Iterator<Item = (usize, usize)> {
    (0..4)
        .map(move |k| (packed >> (16 * k)) & 0xffff)
        .take_while(|&entry| entry != 0)
        .map(|entry| (((entry - 1) >> 8) as usize, ((entry - 1) & 0xff) as usize))
}

fn member_tables() -> &'static MemberTables {
    static TABLES: OnceLock<MemberTables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let (mut stems, mut surfaces, mut signed) =
            (WordTable::default(), WordTable::default(), Vec::new());
        for (f, family) in FAMILIES.iter().enumerate() {
            for (m, member) in family.iter().enumerate() {
                for word in *member {
                    let entry = ((f as u64) << 8 | m as u64) + 1;
                    if word.contains(['#', '+', ' ']) {
                        signed.push((entry, *word));
                    }
                    let (table, key) = match word.strip_prefix('=') {
                        Some(surface) => (&mut surfaces, surface),
                        None => (&mut stems, *word),
                    };
                    let packed = table.entry(key).or_default();
                    if let Some(k) = (0..4).find(|k| (*packed >> (16 * k)) & 0xffff == 0) {
                        *packed |= entry << (16 * k);
                    }
                }
            }
        }
        (stems, surfaces, signed)
    })
}

/// How an answer writes the family members `siblings` (canonical names):
/// its words that name them, then the identifiers that gave them away.
pub fn sibling_words(siblings: &[String], s: &Scanned, bag: &KeywordBag) -> Vec<String> {
    let (by_stem, by_surface, _) = member_tables();
    let names = |packed: u64| {
        packed_members(packed).any(|(f, m)| {
            FAMILIES
                .get(f)
                .and_then(|family| family.get(m))
                .is_some_and(|member| {
                    siblings
                        .iter()
                        .any(|x| member[0].trim_start_matches('=') == x)
                })
        })
    };
    let mut out: Vec<String> = Vec::new();
    for (stem, surface, _) in bag.iter() {
        let hit = by_stem.get(stem).is_some_and(|&p| names(p))
            || by_surface.get(surface).is_some_and(|&p| names(p));
        if hit && !out.iter().any(|o| o == surface) {
            out.push(surface.to_string());
        }
    }
    for (sign, member) in signatures_in(&s.text) {
        if siblings.iter().any(|x| x == member) && !out.iter().any(|o| o == sign.trim()) {
            out.push(sign.trim().to_string());
        }
    }
    out.truncate(MAX_LISTED);
    out
}

/// The `SIGNATURES` entries (signature, member) found in a lowercased text,
/// in one pass: only at word starts whose first two bytes begin some
/// signature (a bit test), not one substring search per signature.
fn signatures_in(text: &str) -> Vec<(&'static str, &'static str)> {
    // A 4-Kbit filter of first-two-byte pairs (half a kilobyte: the heap
    // is a budget too), and the signatures sorted by that pair.
    type Filter = (Vec<u64>, Vec<(usize, usize)>);
    let bit = |k: usize| (k ^ (k >> 7)) & 4095;
    static FIRST_TWO: OnceLock<Filter> = OnceLock::new();
    let (filter, by_pair) = FIRST_TWO.get_or_init(|| {
        let mut bits = vec![0u64; 64];
        let mut by_pair = Vec::new();
        for (i, (sign, _)) in SIGNATURES.iter().enumerate() {
            let b = sign.as_bytes();
            let k = usize::from(b[0]) << 8 | usize::from(b[1]);
            bits[bit(k) / 64] |= 1 << (bit(k) % 64);
            by_pair.push((k, i));
        }
        crate::sort::sort(&mut by_pair);
        (bits, by_pair)
    });
    let bytes = text.as_bytes();
    let part = |b: u8| b.is_ascii_alphanumeric() || b == b'_' || b >= 0x80;
    let mut found = Vec::new();
    for i in 0..bytes.len().saturating_sub(1) {
        let k = usize::from(bytes[i]) << 8 | usize::from(bytes[i + 1]);
        if filter[bit(k) / 64] & (1 << (bit(k) % 64)) == 0 {
            continue;
        }
        let word_start = i == 0 || !part(bytes[i - 1]);
        let rest = &bytes[i..];
        let from = by_pair.partition_point(|&(p, _)| p < k);
        let candidates = by_pair[from..].iter().take_while(|&&(p, _)| p == k);
        for (sign, member) in candidates.filter_map(|&(_, i)| SIGNATURES.get(i)) {
            let sb = sign.as_bytes();
            // "useState" starts a word; "°F" and "*ngFor" may follow anything.
            if sb[0].is_ascii_alphanumeric() && !word_start {
                continue;
            }
            let ends_word = sb.last().is_some_and(|&b| part(b));
            let matches = rest.starts_with(sb)
                && !(ends_word && rest.get(sb.len()).is_some_and(|&b| part(b)));
            if matches && !found.iter().any(|(s, _)| s == sign) {
                found.push((*sign, *member));
            }
        }
    }
    found
}

/// Whether every "react" of a text is the English verb: lowercase prose
/// after a subject or a modal ("I react", "to react").
fn only_the_verb_react(s: &Scanned) -> bool {
    const BEFORE: &[&str] = &[
        "to", "i", "we", "you", "they", "should", "can", "will", "would", "and", "then",
    ];
    (0..s.words.len())
        .filter(|&i| s.word(i) == "react")
        .all(|i| {
            let w = &s.words[i];
            !w.initial && !w.code && i > 0 && BEFORE.contains(&s.word(i - 1))
        })
}

/// Kinds of technology a request can rule out by their kind's name, each
/// with a member that identifies its family in `FAMILIES`.
const TECH_KINDS: &[(&str, &str)] = &[("orm", "sqlalchemi")];

/// The technologies in `used` that `forbidden` rules out: by name, or by
/// the name of their kind.
pub fn ruled_out_tech(forbidden: &[String], used: &[String]) -> Vec<String> {
    let kind_of = |member: &str| {
        FAMILIES.iter().find_map(|f| {
            let family_has = |m: &str| f.iter().any(|x| x[0].trim_start_matches('=') == m);
            family_has(member).then(|| {
                TECH_KINDS
                    .iter()
                    .find(|(_, sample)| family_has(sample))
                    .map(|(kind, _)| *kind)
            })?
        })
    };
    used.iter()
        .filter(|u| {
            forbidden.iter().any(|f| f == *u)
                || kind_of(u).is_some_and(|k| forbidden.iter().any(|f| f == k))
        })
        .cloned()
        .collect()
}

/// The members of a family the answer names, when the request named other
/// members of that family and the answer none of them ("Node" in a Docker
/// question does not excuse answering with kubectl).
pub fn sibling_tech(asked: &[String], answered: &[String]) -> Option<Vec<String>> {
    FAMILIES.iter().find_map(|f| {
        let of = |xs: &[String]| -> Vec<String> {
            xs.iter()
                .filter(|x| f.iter().any(|m| m[0].trim_start_matches('=') == x.as_str()))
                .cloned()
                .collect()
        };
        let (a, b) = (of(asked), of(answered));
        (!a.is_empty() && !b.is_empty() && !b.iter().any(|t| a.contains(t))).then_some(b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_name_a_member_whole_identifiers_only() {
        assert_eq!(
            signatures_in("bake at 350°f for an hour"),
            [("°f", "imperi")]
        );
        assert_eq!(
            signatures_in("use usestate() here"),
            [("usestate", "react")]
        );
        assert!(signatures_in("reusestate and ausestate").is_empty());
    }
}
