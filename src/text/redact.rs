//! Removes obvious secrets (API keys, tokens, passwords) from text before it
//! is stored: correction memory is persisted and may be synced or shown.

const MARK: &str = "[redacted]";

/// Prefixes of well-known credential formats, with the minimum length of the
/// whole token for it to count as a secret (so `sk-learn` survives).
const PREFIXES: &[(&str, usize)] = &[
    ("sk-", 20),
    ("pk-", 20),
    ("sk_live_", 16),
    ("sk_test_", 16),
    ("rk_live_", 16),
    ("ghp_", 20),
    ("gho_", 20),
    ("ghu_", 20),
    ("ghs_", 20),
    ("ghr_", 20),
    ("github_pat_", 20),
    ("glpat-", 20),
    ("xoxb-", 15),
    ("xoxp-", 15),
    ("xoxa-", 15),
    ("xoxs-", 15),
    ("AKIA", 20),
    ("ASIA", 20),
    ("AIza", 30),
    ("hf_", 24),
    ("npm_", 30),
];

/// Words after which the next token is a credential (`Bearer abc…`, `password: x`).
const KEY_WORDS: &[&str] = &[
    "bearer",
    "password",
    "passwd",
    "pwd",
    "secret",
    "token",
    "api_key",
    "apikey",
    "api-key",
    "access_token",
    "auth_token",
    "client_secret",
    "private_key",
];

/// A byte of a token: token characters are all ASCII, so a token starts
/// and ends at a character boundary.
fn is_token_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'/' | b'+' | b'=')
}

/// Whether `word` is one of `KEY_WORDS` in any case (they are lowercase):
/// compared in place, without a lowercased copy.
fn is_key_word(word: &str) -> bool {
    KEY_WORDS.iter().any(|k| k.eq_ignore_ascii_case(word))
}

/// A long run of base64/hex-like characters with mixed classes looks like a key.
fn looks_random(tok: &str) -> bool {
    if tok.len() < 32 {
        return false;
    }
    let digits = tok.bytes().filter(u8::is_ascii_digit).count();
    let upper = tok.bytes().filter(u8::is_ascii_uppercase).count();
    let lower = tok.bytes().filter(u8::is_ascii_lowercase).count();
    digits >= 4 && (upper >= 4 || lower >= 4) && !tok.contains('/')
}

fn is_jwt(tok: &str) -> bool {
    tok.starts_with("eyJ") && tok.split('.').filter(|p| p.len() >= 8).count() == 3
}

fn is_secret(tok: &str) -> bool {
    PREFIXES
        .iter()
        // The length first: most tokens are too short for every prefix.
        .any(|&(p, min)| tok.len() >= min && tok.starts_with(p))
        || is_jwt(tok)
        || looks_random(tok)
}

/// Returns `text` with secret-looking tokens replaced by `[redacted]`, and
/// each `-----BEGIN … -----END …-----` block (a PEM key) by one mark; a block
/// that never ends takes the rest of the text. One pass: blocks are handled
/// in a loop (a recursion per block overflowed the stack on a message of
/// thousands of them, and copied the rest of the text at each).
pub fn redact_secrets(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("-----BEGIN") {
        redact_tokens(&rest[..start], &mut out);
        out.push_str(MARK);
        let tail = &rest[start..];
        let end = tail
            .find("-----END")
            .and_then(|e| tail[e + 8..].find("-----").map(|k| e + 8 + k + 5));
        match end {
            Some(e) => rest = &tail[e..],
            None => return out,
        }
    }
    redact_tokens(rest, &mut out);
    out
}

/// Appends `text` to `out` with secret-looking tokens replaced.
fn redact_tokens(text: &str, out: &mut String) {
    crate::work::add(text.len());
    // After a key word: Some(true) if the value must follow `:` or `=`.
    let mut after_key: Option<bool> = None;
    let mut rest = text;
    while !rest.is_empty() {
        let start = rest.bytes().position(is_token_byte).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        let gap = &rest[..start];
        rest = &rest[start..];
        let len = rest
            .bytes()
            .position(|b| !is_token_byte(b))
            .unwrap_or(rest.len());
        let tok = &rest[..len];
        rest = &rest[len..];
        if tok.is_empty() {
            continue;
        }
        let separator_ok = gap
            .chars()
            .all(|c| c.is_whitespace() || matches!(c, ':' | '=' | '"' | '\''));
        let assigned = gap.contains([':', '=']);
        let value_follows = after_key.is_some_and(|needs| separator_ok && (assigned || !needs));
        if (value_follows && tok.len() >= 4) || is_secret(tok) {
            out.push_str(MARK);
            after_key = None;
            continue;
        }
        // Lowercasing leaves `=` and `:` alone: trimmed first, compared
        // without case.
        let key = tok.trim_end_matches(['=', ':']);
        if is_key_word(key) {
            out.push_str(tok);
            after_key = Some(!key.eq_ignore_ascii_case("bearer"));
            continue;
        }
        let eq = tok.bytes().position(|b| b == b'=');
        if let Some((k, v)) = eq.and_then(|i| Some((tok.get(..i)?, tok.get(i + 1..)?)))
            && is_key_word(k)
            && v.len() >= 4
        {
            out.push_str(k);
            out.push('=');
            out.push_str(MARK);
            after_key = None;
            continue;
        }
        after_key = None;
        out.push_str(tok);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_key_formats_are_redacted() {
        let r = redact_secrets("use sk-proj-abcdefghijklmnop1234 and AKIAABCDEFGHIJKLMNOP then");
        assert_eq!(r, "use [redacted] and [redacted] then");
        assert_eq!(
            redact_secrets("ghp_0123456789abcdefghijABCDEFGHIJ"),
            "[redacted]"
        );
        assert_eq!(
            redact_secrets("Authorization: Bearer abc.def-ghi"),
            "Authorization: Bearer [redacted]"
        );
        assert_eq!(
            redact_secrets("my password: hunter22 ok"),
            "my password: [redacted] ok"
        );
        assert_eq!(
            redact_secrets("set API_KEY=supersecretvalue now"),
            "set API_KEY=[redacted] now"
        );
        let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U";
        assert_eq!(redact_secrets(&format!("token {jwt}")), "token [redacted]");
        let pem = "key:\n-----BEGIN PRIVATE KEY-----\nMIIEv\n-----END PRIVATE KEY-----\ndone";
        assert_eq!(redact_secrets(pem), "key:\n[redacted]\ndone");
    }

    #[test]
    fn thousands_of_key_blocks_take_one_pass() {
        let block = "-----BEGIN KEY-----abc-----END KEY----- ";
        let text = format!(
            "password: hunter22 {}tail sk-abcdefghijklmnopqrstuvwx",
            block.repeat(30_000)
        );
        let mut out = String::new();
        let work = crate::work::counted(|| out = redact_secrets(&text));
        assert!(work <= text.len(), "{work} for {}", text.len());
        assert_eq!(
            out,
            format!(
                "password: [redacted] {}tail [redacted]",
                "[redacted] ".repeat(30_000)
            )
        );
        // A block that never ends takes the rest.
        assert_eq!(redact_secrets("a -----BEGIN KEY----- b c"), "a [redacted]");
    }

    #[test]
    fn ordinary_text_is_untouched() {
        for s in [
            "Don't add logging; keep the database lookup unchanged.",
            "use sk-learn for the model",
            "the token count was 800",
            "see src/regulator/mod.rs and https://example.com/a/b",
            "请不要添加日志",
            "",
        ] {
            assert_eq!(redact_secrets(s), s);
        }
    }
}
