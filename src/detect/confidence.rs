//! Confidence from token log-probabilities, with a structural fallback on the
//! response text when the provider gives none.

use std::collections::VecDeque;

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

/// A `-inf` logprob (probability 0) counts as this much surprise, so one such
/// token lowers confidence without pinning the whole window at zero.
pub const MAX_NLL: f64 = 30.0;
/// Mean negative log-likelihood mapped to confidence 0.5.
const NLL_MIDPOINT: f64 = 4.0;
/// NLL distance from the midpoint to confidence 0 or 1.
const NLL_HALF_RANGE: f64 = 3.0;
pub const NEUTRAL: f64 = 0.5;
/// Structural fallback: short responses and question-heavy ones are less sure.
const SHORT_CHARS: u64 = 40;
const QUESTION_RATIO: f64 = 0.02;
const STRUCT_DEFAULT: f64 = 0.7;
const STRUCT_WEAK: f64 = 0.4;
const STRUCT_STRONG: f64 = 0.2;

/// Token statistics for the current turn.
#[derive(Debug, Clone, PartialEq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TokenStats {
    /// Negative log-likelihoods of the newest usable tokens, oldest first.
    pub window: VecDeque<f64>,
    pub total: u64,
    pub unavailable: u64,
}

crate::json::typed::from_json!(TokenStats {
    req window: "window",
    req total: "total",
    req unavailable: "unavailable",
});

/// The two facts about a response the structural fallback needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Shape {
    pub chars: u64,
    pub questions: u64,
}

crate::json::typed::from_json!(Shape {
    req chars: "chars",
    req questions: "questions",
});

/// The questions a text asks: marks that end a clause outside code, so a
/// `$request_uri?` or `?page=2` asks nothing. Chinese and Japanese ask with
/// the full-width mark.
fn questions(text: &str) -> u64 {
    let mut in_code = false;
    let mut n = 0;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '`' => in_code = !in_code,
            '？' if !in_code => n += 1,
            '?' if !in_code => {
                let ends = chars
                    .peek()
                    .is_none_or(|&d| d.is_whitespace() || "\"')»”*_".contains(d));
                n += u64::from(ends);
            }
            _ => {}
        }
    }
    n
}

impl Shape {
    pub fn of(text: &str) -> Self {
        let questions = questions(text);
        let chars = if text.is_ascii() {
            text.len()
        } else {
            text.chars().count()
        } as u64;
        Self { chars, questions }
    }

    /// Short and question-heavy answers are the least sure; the ceiling is 0.7
    /// because text alone cannot show certainty.
    pub fn structural_confidence(self) -> f64 {
        if self.chars == 0 {
            return NEUTRAL;
        }
        let short = self.chars < SHORT_CHARS;
        let questioning = self.questions as f64 / self.chars as f64 >= QUESTION_RATIO;
        match (short, questioning) {
            (true, true) => STRUCT_STRONG,
            (false, false) => STRUCT_DEFAULT,
            _ => STRUCT_WEAK,
        }
    }
}

impl TokenStats {
    /// `None` is a token without a logprob; `-inf` is a usable, maximally
    /// surprising one. Callers have rejected NaN and positive values.
    pub fn record(&mut self, logprob: Option<f64>, keep: usize) {
        self.total = self.total.saturating_add(1);
        match logprob {
            Some(lp) => {
                self.window.push_back((-lp).clamp(0.0, MAX_NLL));
                while self.window.len() > keep {
                    self.window.pop_front();
                }
            }
            None => self.unavailable = self.unavailable.saturating_add(1),
        }
    }

    pub fn record_unavailable(&mut self, n: u64) {
        self.total = self.total.saturating_add(n);
        self.unavailable = self.unavailable.saturating_add(n);
    }

    /// Share of this turn's tokens that came with a logprob.
    pub fn coverage(&self) -> f64 {
        if self.total == 0 {
            return 0.0;
        }
        (self.total - self.unavailable) as f64 / self.total as f64
    }

    /// Linear in mean NLL: 1 at NLL ≤ 1, 0 at NLL ≥ 7; else the structural
    /// fallback on this turn's response; else neutral.
    pub fn confidence(&self, response: Option<Shape>) -> f64 {
        if !self.window.is_empty() {
            let mean = self.window.iter().sum::<f64>() / self.window.len() as f64;
            return (0.5 + 0.5 * ((NLL_MIDPOINT - mean) / NLL_HALF_RANGE)).clamp(0.0, 1.0);
        }
        response.map_or(NEUTRAL, Shape::structural_confidence)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(lps: &[f64], keep: usize) -> TokenStats {
        let mut s = TokenStats::default();
        for &lp in lps {
            s.record(Some(lp), keep);
        }
        s
    }

    #[test]
    fn a_question_mark_in_code_or_a_url_asks_nothing() {
        assert_eq!(Shape::of("Which file, the login one?").questions, 1);
        assert_eq!(Shape::of("确定要删除吗？").questions, 1);
        assert_eq!(Shape::of("(is it \"on\"?) Ok.").questions, 1);
        assert_eq!(
            Shape::of("Use `rewrite ^ https://$host$request_uri? permanent;` there.").questions,
            0
        );
        assert_eq!(
            Shape::of("Open https://shop.example/orders?page=2 now.").questions,
            0
        );
    }

    #[test]
    fn reference_confidence_values() {
        assert_eq!(TokenStats::default().confidence(None), 0.5);
        assert!(stats(&[-0.1; 20], 128).confidence(None) > 0.9);
        assert!(stats(&[-7.0; 20], 128).confidence(None) < 0.1);
        assert_eq!(stats(&[-4.0; 10], 128).confidence(None), 0.5);
        assert_eq!(stats(&[-2.5, -5.5], 128).confidence(None), 0.5);
        assert!((stats(&[-6.5; 15], 128).confidence(None) - 0.08333333333333331).abs() < 1e-12);
    }

    #[test]
    fn window_keeps_the_newest() {
        let mut lps = vec![-7.0; 128];
        lps.extend([-1.0; 127]);
        let s = stats(&lps, 128);
        assert_eq!(s.confidence(None), 0.9921875);
        assert_eq!(s.total, 255);
        let narrow = stats(&[-9.0, -9.0, -1.0], 1);
        assert_eq!(narrow.confidence(None), 1.0);
    }

    #[test]
    fn zero_is_certain_and_minus_infinity_is_bounded_surprise() {
        // The reference treated both as "unavailable".
        assert_eq!(stats(&[0.0, -0.0], 128).confidence(None), 1.0);
        let mut lps = vec![-0.1; 19];
        let clean = stats(&lps, 128).confidence(None);
        lps.push(f64::NEG_INFINITY);
        let s = stats(&lps, 128);
        assert_eq!(s.coverage(), 1.0);
        let c = s.confidence(None);
        assert!(
            c > 0.5 && c < clean,
            "one impossible token lowers, but does not zero, confidence: {c}"
        );
    }

    #[test]
    fn coverage_counts_unavailable_tokens() {
        let mut s = TokenStats::default();
        s.record(None, 128);
        s.record(Some(-1.0), 128);
        s.record_unavailable(2);
        assert_eq!(s.coverage(), 0.25);
        assert_eq!(
            s.confidence(Some(Shape::of("???"))),
            1.0,
            "logprobs win over structure"
        );
    }

    #[test]
    fn structural_fallback() {
        let c = |t: &str| TokenStats::default().confidence(Some(Shape::of(t)));
        assert_eq!(c(""), 0.5);
        assert_eq!(c("No."), 0.4);
        assert_eq!(c("I don't know."), 0.4);
        assert_eq!(c("What? How? When?"), 0.2);
        assert_eq!(
            c("Here's the refactored function. It preserves the original signature."),
            0.7
        );
        assert_eq!(c(&"字".repeat(40)), 0.7, "counts chars, not bytes");
        let long_q = format!("{} Is it? Or not? Maybe?", "word ".repeat(20));
        assert_eq!(c(&long_q), 0.4);
    }
}
