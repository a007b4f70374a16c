//! Insistence: the user names the same thing again after an answer that left
//! it out ("we use pnpm here, not npm" … "pnpm again please" … "it's
//! pnpm exec, not npx"; "用中文讲一下" … "又是英文…请用中文"). The second time is a
//! correction, and so, looking back, was the first: both are filed, under
//! the topics they corrected, so a thing corrected across requests can
//! become a learned rule.

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

use crate::detect::corrections::rules::concept_word;
use crate::text::{KeywordBag, concepts, is_cjk, truncate_chars};

/// Words followed per session.
const MAX_WORDS: usize = 48;
/// Words read per message, in order.
const READ: usize = 6;
/// CJK character pairs read per message, in order.
const READ_PAIRS: usize = 16;
/// Characters kept of the first message, to file it later.
const TEXT_CHARS: usize = 300;

/// One word the user raised after an answer that did not use it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Raised {
    pub stem: String,
    pub times: u32,
    pub turn: u64,
    /// The first such message, with the topic it answered, until filed.
    pub first: Option<(String, String)>,
}

crate::json::typed::from_json!(Raised {
    req stem: "stem",
    req times: "times",
    req turn: "turn",
    opt first: "first",
});

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(transparent)]
pub struct Insistence(pub Vec<Raised>);

impl crate::json::typed::FromJson for Insistence {
    fn from_json(v: &serde_json::Value) -> crate::json::typed::Got<Insistence> {
        crate::json::typed::FromJson::from_json(v).map(Insistence)
    }
}

/// The answer a message follows: its keywords and the house styles it
/// follows (`text::concepts`).
#[derive(Clone, Copy)]
pub struct Answer<'a> {
    pub keywords: &'a KeywordBag,
    pub concepts: u32,
}

/// What a message insists on: the earlier message to file as well, if any.
pub struct Insisted {
    pub earlier: Option<(String, String)>,
}

/// The words of a message that can name a thing (the keyword bag's: three
/// letters or more, or a CJK pair); not a request verb, a code-structure noun
/// or a word every correction uses. Repeated first, then in text order.
fn words(task: &KeywordBag) -> Vec<&str> {
    let generic = crate::detect::corrections::rules::generic();
    let mut out: Vec<(&str, u32)> = task
        .iter()
        .filter(|(s, _, _)| s.chars().count() >= 3 || s.chars().all(is_cjk))
        .filter(|(s, _, _)| !crate::text::topic::NOT_TOPICS.contains(s) && !generic.contains(*s))
        .map(|(s, _, n)| (s, n))
        .collect();
    crate::sort::sort_by(&mut out, |a, b| b.1.cmp(&a.1));
    // A CJK clause is a pair per character ("日元我看不懂，说人民币"): its
    // pairs are read as many as a short clause has, beside the words.
    let (mut words, mut pairs) = (0, 0);
    out.into_iter()
        .filter(|(s, _)| {
            let (n, cap) = if s.chars().all(is_cjk) {
                (&mut pairs, READ_PAIRS)
            } else {
                (&mut words, READ)
            };
            *n += 1;
            *n <= cap
        })
        .map(|(s, _)| s)
        .collect()
}

impl Insistence {
    /// Reads message `task` (text `message`, turn `turn`) after an answer
    /// with keywords `answer` on topic `topic`. `Some` when it names, for the
    /// second time or more, a word the answer before it left out. `reacts`:
    /// the message came soon after that answer, so if it is the first time,
    /// it may be filed later as a correction (a new request minutes later
    /// is not one).
    pub fn read(
        &mut self,
        task: &KeywordBag,
        message: &str,
        answer: Answer<'_>,
        topic: &str,
        turn: u64,
        reacts: bool,
    ) -> Option<Insisted> {
        let mut found: Option<Insisted> = None;
        // The house styles it names that the answer did not follow ("km
        // please" after an answer in miles), each as one word.
        let styles: Vec<String> =
            concepts::names(concepts::concepts_in(message) & !answer.concepts)
                .map(concept_word)
                .collect();
        let words = words(task)
            .into_iter()
            .filter(|stem| !answer.keywords.contains_stem(stem))
            .chain(styles.iter().map(String::as_str));
        for stem in words {
            let at = self.0.iter().position(|r| r.stem == stem);
            let Some(i) = at else {
                if self.0.len() == MAX_WORDS {
                    // The least raised, then the oldest, makes room.
                    let drop = (0..self.0.len()).min_by_key(|&k| (self.0[k].times, self.0[k].turn));
                    if let Some(k) = drop {
                        self.0.remove(k);
                    }
                }
                self.0.push(Raised {
                    stem: stem.to_string(),
                    times: 1,
                    turn,
                    first: reacts.then(|| (truncate_chars(message, TEXT_CHARS), topic.to_string())),
                });
                continue;
            };
            let r = &mut self.0[i];
            if r.turn == turn {
                continue;
            }
            r.times = r.times.saturating_add(1);
            r.turn = turn;
            let earlier = r.first.take();
            if found.as_ref().is_none_or(|f| f.earlier.is_none()) {
                found = Some(Insisted { earlier });
            }
        }
        found
    }

    pub fn is_bounded(&self) -> bool {
        self.0.len() <= MAX_WORDS
            && self.0.iter().all(|r| {
                r.stem.len() <= 4 * crate::text::MAX_KEYWORD_BYTES
                    && r.first
                        .as_ref()
                        .is_none_or(|(t, k)| t.chars().count() <= TEXT_CHARS + 1 && k.len() <= 128)
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An answer that follows no house style.
    fn plain(keywords: &KeywordBag) -> Answer<'_> {
        Answer {
            keywords,
            concepts: 0,
        }
    }

    #[test]
    fn a_word_raised_again_after_answers_that_left_it_out_is_insisted_on() {
        let mut ins = Insistence::default();
        let bag = KeywordBag::from_text;
        let turns = [
            ("add zod to the project pls", ""),
            ("we use pnpm here, not npm", "Installed zod with npm."),
            ("next: i need vitest", "Done: ran pnpm add zod."),
            (
                "pnpm again please... pnpm add -D",
                "Installed vitest with npm.",
            ),
        ];
        let mut hits = Vec::new();
        for (t, (msg, answer)) in turns.iter().enumerate() {
            let got = ins.read(
                &bag(msg),
                msg,
                plain(&bag(answer)),
                "deps",
                t as u64 + 1,
                true,
            );
            hits.push(got.map(|g| g.earlier.map(|(text, _)| text)));
        }
        assert_eq!(hits[..3], [None, None, None]);
        assert_eq!(
            hits[3],
            Some(Some("we use pnpm here, not npm".to_string())),
            "the first time is filed too"
        );
    }

    #[test]
    fn a_word_the_answer_used_is_no_insistence() {
        let mut ins = Insistence::default();
        let bag = KeywordBag::from_text;
        assert!(
            ins.read(
                &bag("book the insurance"),
                "",
                plain(&bag("hi")),
                "t",
                1,
                true
            )
            .is_none()
        );
        let answer = bag("I added the insurance to your booking.");
        assert!(
            ins.read(
                &bag("thanks, is the insurance refundable?"),
                "",
                plain(&answer),
                "t",
                2,
                true
            )
            .is_none()
        );
    }
}
