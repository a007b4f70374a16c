//! What a tool result says, with what changes on every call taken out.
//!
//! Two runs of the same call that differ only in a generated id, a UUID, a
//! timestamp, a memory address or a timing ("in 0.031s") said the same thing:
//! the gist digests the text with each such token replaced by one marker.
//! Short numbers stay (`running 35%` → `running 40%` is progress), and so do
//! words. One pass over the text, no allocation.

use crate::hash::{combine, hash_bytes};

/// The digest of a result with volatile tokens masked: the text between
/// them is hashed in spans, each volatile token counts as one marker.
pub fn gist(ok: bool, text: &str) -> u64 {
    let bytes = text.trim().as_bytes();
    let mut h = combine(0x6769_7374, u64::from(ok));
    let mut span = 0;
    let token_byte =
        |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b':' | b'.' | b'+');
    for_runs(bytes, token_byte, |start, end| {
        if volatile(bytes.get(start..end).unwrap_or(&[])) {
            h = combine(
                h,
                hash_bytes(0x7370_616e, bytes.get(span..start).unwrap_or(&[])),
            );
            h = combine(h, 0x766f_6c61);
            span = end;
        }
        true
    });
    combine(h, hash_bytes(0x7370_616e, bytes.get(span..).unwrap_or(&[])))
}

/// Calls `f(start, end)` for each maximal run of bytes that `part` accepts,
/// until it returns false. One pass; the scanner of both the gist and the
/// listed names.
fn for_runs(bytes: &[u8], part: impl Fn(u8) -> bool, mut f: impl FnMut(usize, usize) -> bool) {
    let mut start = 0;
    for i in 0..=bytes.len() {
        if bytes.get(i).is_some_and(|&b| part(b)) {
            continue;
        }
        if i > start && !f(start, i) {
            return;
        }
        start = i + 1;
    }
}

/// A token is a run of ASCII letters, digits and `_ - : . +`. It is volatile
/// when it holds a digit and is either at least 5 bytes long (ids, hashes,
/// UUID parts, addresses, long counters, timings) or joins digits with `:`
/// or `-` (times, dates).
fn volatile(token: &[u8]) -> bool {
    let digits = token.iter().filter(|b| b.is_ascii_digit()).count();
    if digits == 0 {
        return false;
    }
    let edge = |b: &u8| matches!(b, b'.' | b'-' | b':' | b'_' | b'+');
    let first = token.iter().position(|b| !edge(b)).unwrap_or(token.len());
    let last = token
        .iter()
        .rposition(|b| !edge(b))
        .map_or(first, |i| i + 1);
    let t = token.get(first..last).unwrap_or(&[]);
    t.len() >= 5 || (digits >= 2 && t.iter().any(|b| matches!(b, b':' | b'-')))
}

/// Hashes of the id-like tokens of a result (a run of letters, digits and
/// `_ - . # @ / :` of 2 to 64 bytes holding a digit or an `_`, or in capitals),
/// for `f`; at most `cap` of them. An argument equal to one of them was taken
/// from this result.
pub fn for_names(text: &str, cap: usize, mut f: impl FnMut(u32)) {
    let mut seen = 0;
    for_runs(text.as_bytes(), name_byte, |start, end| {
        let token = text
            .get(start..end)
            .unwrap_or("")
            .trim_end_matches(['.', ':']);
        if (2..=64).contains(&token.len()) && name_like(token) {
            f(name_hash(token));
            seen += 1;
        }
        seen < cap
    });
}

/// A byte of an id-like token.
fn name_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-' | b'.' | b'#' | b'@' | b'/' | b':')
}

fn name_like(token: &str) -> bool {
    token
        .bytes()
        .any(|b| b.is_ascii_digit() || b == b'_' || b == b'#' || b == b'@')
        || (token.len() >= 3 && token.bytes().all(|b| b.is_ascii_uppercase() || b == b'-'))
}

/// The hash an argument value and a result token share.
pub fn name_hash(s: &str) -> u32 {
    (hash_bytes(0x6e61_6d65, s.as_bytes()) >> 32) as u32
}

/// Whether an argument's string value could name something a result listed.
pub fn arg_names(value: &str) -> bool {
    (2..=64).contains(&value.len()) && value.bytes().all(name_byte) && name_like(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generated_ids_and_times_do_not_change_the_gist() {
        let a =
            r#"{"certificate_id": "cert_8f3k29", "amount": 50, "issued": "2024-05-15T10:02:11Z"}"#;
        let b =
            r#"{"certificate_id": "cert_1a9x07", "amount": 50, "issued": "2024-05-15T10:04:57Z"}"#;
        assert_eq!(gist(true, a), gist(true, b));
        let u1 = "created job 550e8400-e29b-41d4-a716-446655440000 at 0x7ecde07396a8";
        let u2 = "created job 6fa459ea-ee8a-3ca4-894e-db77e160355e at 0x799ccddba400";
        assert_eq!(gist(true, u1), gist(true, u2));
        assert_eq!(
            gist(true, "Ran 12 tests in 0.031s\n\nOK"),
            gist(true, "Ran 12 tests in 0.027s\n\nOK")
        );
    }

    #[test]
    fn what_a_result_says_still_counts() {
        assert_ne!(gist(true, "running 35%"), gist(true, "running 40%"));
        assert_ne!(gist(true, "3 failed"), gist(true, "1 failed"));
        assert_ne!(gist(true, "status: running"), gist(true, "status: done"));
        assert_ne!(gist(true, "amount: 50"), gist(true, "amount: 60"));
        assert_ne!(gist(true, "x"), gist(false, "x"));
        assert_ne!(gist(true, "投票は完了"), gist(true, "投票は未完了"));
    }

    #[test]
    fn names_listed_in_a_result_are_found() {
        let mut got = Vec::new();
        for_names(
            r##"{"reservations": ["H9ZU1C", "NO6JO3"], "orders": ["#W4680753"], "x": "hello"}"##,
            16,
            |h| got.push(h),
        );
        for id in ["H9ZU1C", "NO6JO3", "#W4680753"] {
            assert!(arg_names(id));
            assert!(got.contains(&name_hash(id)), "{id}");
        }
        assert!(!got.contains(&name_hash("hello")));
        assert!(!arg_names("late delivery"));
        let mut n = 0;
        for_names(&"A1 ".repeat(1000), 10, |_| n += 1);
        assert_eq!(n, 10, "capped");
    }
}
