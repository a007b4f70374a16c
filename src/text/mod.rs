//! Text analysis: Unicode-aware tokens, CJK bigrams, English stemming,
//! keyword bags, topic keys and secret redaction. All pure functions.

pub(crate) mod chars;
pub mod concepts;
mod keywords;
mod redact;
pub mod stem_en;
pub mod stem_light;
mod stopwords;
pub(crate) mod table;
pub(crate) mod tokenize;
pub(crate) mod topic;

pub use keywords::{KeywordBag, MAX_KEYWORD_BYTES, MAX_KEYWORDS, Scratch};
pub use redact::redact_secrets;
pub use stopwords::{is_stop_word, is_tech_term};
pub use tokenize::{Token, TokenKind, for_each_token, is_cjk};
pub use topic::{TopicIndex, salient, topic_key};

/// Truncates to at most `max_chars` characters, marking the cut with `…`.
pub fn truncate_chars(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => {
            let mut s = text[..cut].to_string();
            s.push('…');
            s
        }
        None => text.to_string(),
    }
}
