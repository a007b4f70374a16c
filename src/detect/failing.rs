//! The agent failing the same task with the same obstacle turn after turn:
//! "couldn't write the cron file: permission denied" → "crontab: permission
//! denied" → "the timer can't execute run.sh (permission denied)"; "state
//! is locked" while the user says "try again". A turn fails when one of its
//! tool results is not ok or its reply reports a failure; the obstacle is
//! the words of that error. The same obstacle on `repeatedFailureTurns`
//! consecutive turns is a `repeatedFailure` break. A different obstacle is
//! movement and starts the count again; a turn without failure ends it,
//! unless the user's next message pushes back ("try again", "still broken").

use serde::{Deserialize, Serialize};

use crate::text::{KeywordBag, truncate_chars};

/// Turns remembered in a streak (evidence).
const MAX_TURNS: usize = 16;
/// Words kept of an obstacle.
const MAX_WORDS: usize = 12;
/// Characters of a failing tool result kept until the turn ends.
const ERROR_CHARS: usize = 300;
/// Bytes of a reply searched for a failure report.
const REPLY_BYTES: usize = 1200;

/// Words that report a failure in a reply, as lowercase substrings. Plain
/// refusals ("I'm unable to add insurance after booking") are not failures.
const FAILED: &[&str] = &[
    "failed",
    "fails",
    "failing",
    "failure",
    "error",
    "denied",
    "timed out",
    "timeout",
    "locked",
    "refused",
    "exception",
    "not found",
    "no such file",
    "exit code",
    "forbidden",
    "unauthorized",
    "not permitted",
    "falló",
    "fallo",
    "fehlgeschlagen",
    "fehler",
    "échec",
    "échoué",
    "erreur",
    "falhou",
    "erro ",
    "не удалось",
    "ошибк",
    "失败",
    "错误",
    "报错",
    "失敗",
    "エラー",
];

/// A lookup that found nothing: about the query, not an obstacle. Only the
/// very same miss repeats ("No module named 'requests'" three times), not
/// misses of different names ("Patient not found" for three names).
const MISS: &[&str] = &[
    "not found",
    "no such",
    "does not exist",
    "doesn't exist",
    "no match",
    "no results",
    "no module named",
];

/// Before a failure word, these make it good news ("no errors", "0 failed").
const NO: &[&str] = &[
    "no ", "without ", "0 ", "zero ", "sin ", "keine ", "kein ", "sans ", "sem ", "без ",
];

/// Words every failure report uses, whatever failed.
const GENERIC: &[&str] = &[
    "fail", "failed", "fails", "error", "errors", "couldn", "could", "unable", "again", "still",
    "same", "tried", "try", "trying", "message", "said", "says", "get", "got", "run", "ran",
    "command", "exit", "code", "status", "time", "also", "here", "now",
];

/// The current streak of failing turns.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Failing {
    /// Turns of the streak, oldest first.
    pub turns: Vec<u64>,
    /// Stems of the obstacle.
    pub obstacle: Vec<String>,
    /// The streak's last failure as reported.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub last_text: String,
    /// The obstacle is a lookup that found nothing.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub miss: bool,
    /// The topic of the streak's first turn.
    pub topic: String,
    /// This turn's first failing tool result, until the turn ends.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// The failing call's identity (name and arguments), when known.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::hash::hex_opt"
    )]
    pub call: Option<u64>,
    /// The identity of the call behind the streak's last failure.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "crate::hash::hex_opt"
    )]
    pub last_call: Option<u64>,
    /// The streak a turn without failure ended, while the user may still
    /// say it did fail.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ended: Option<Box<Failing>>,
}

impl Failing {
    /// A tool result of this turn.
    pub fn tool_result(&mut self, ok: bool, text: &str, call: Option<u64>) {
        if !ok && self.error.is_none() {
            self.error = Some(truncate_chars(text, ERROR_CHARS));
            self.call = call;
        }
    }

    /// The turn `turn` on `topic` ended with `reply`.
    pub fn turn_complete(&mut self, turn: u64, topic: &str, reply: &str) {
        let error = self.error.take();
        let call = self.call.take();
        let what = error.or_else(|| failure_report(reply).map(str::to_string));
        let Some(what) = what else {
            // Kept one turn, for the user to say it failed after all.
            let ended = std::mem::take(self);
            self.ended = (!ended.turns.is_empty()).then(|| {
                Box::new(Failing {
                    ended: None,
                    ..ended
                })
            });
            return;
        };
        self.ended = None;
        let obstacle = obstacle(&what);
        let lower = what.to_lowercase();
        let miss = MISS.iter().any(|m| lower.contains(m));
        // A miss repeats only as the same call missing again.
        let same_call = match (call, self.last_call) {
            (Some(a), Some(b)) => a == b,
            _ => true,
        };
        let same = !self.turns.is_empty()
            && if miss || self.miss {
                self.obstacle == obstacle && same_call && !distinct_names(&self.last_text, &what)
            } else {
                same_obstacle(&self.obstacle, &obstacle)
            };
        self.miss = miss;
        self.last_call = call;
        self.last_text = truncate_chars(&what, ERROR_CHARS);
        if !same {
            self.turns.clear();
            self.topic = topic.to_string();
        }
        if self.turns.last() != Some(&turn) {
            self.turns.push(turn);
            if self.turns.len() > MAX_TURNS {
                self.turns.remove(0);
            }
        }
        // The newest words of one obstacle, so it may drift slowly.
        self.obstacle = obstacle;
    }

    /// The user pushed back on the last turn: if it had ended the streak, it
    /// failed after all.
    pub fn user_says_failed(&mut self, turn: u64) {
        if let Some(mut streak) = self.ended.take().map(|b| *b)
            && streak.turns.last().is_some_and(|&t| t + 1 == turn)
        {
            if streak.turns.last() != Some(&turn) {
                streak.turns.push(turn);
                if streak.turns.len() > MAX_TURNS {
                    streak.turns.remove(0);
                }
            }
            *self = streak;
        }
    }

    /// The streak's turns when it reached `at_least`.
    pub fn repeated(&self, at_least: usize) -> Option<&[u64]> {
        (self.turns.len() >= at_least).then_some(&self.turns[..])
    }

    pub fn is_bounded(&self) -> bool {
        let one = |f: &Failing| {
            f.turns.len() <= MAX_TURNS
                && f.obstacle.len() <= MAX_WORDS
                && f.obstacle
                    .iter()
                    .all(|w| w.len() <= 4 * crate::text::MAX_KEYWORD_BYTES)
                && f.topic.len() <= 128
                && f.error
                    .as_ref()
                    .is_none_or(|e| e.chars().count() <= ERROR_CHARS + 1)
                && f.last_text.chars().count() <= ERROR_CHARS + 1
        };
        one(self)
            && self
                .ended
                .as_ref()
                .is_none_or(|e| one(e) && e.ended.is_none())
    }
}

/// The sentence of a reply that reports a failure, if one does.
fn failure_report(reply: &str) -> Option<&str> {
    let head = &reply[..reply.floor_char_boundary(REPLY_BYTES.min(reply.len()))];
    let lower = head.to_lowercase();
    crate::work::add(lower.len());
    // Lowercasing can change byte lengths; then read the lowercase copy.
    let (text, same_len) = if lower.len() == head.len() {
        (head, true)
    } else {
        (head, false)
    };
    let hit = FAILED.iter().filter_map(|w| {
        let mut from = 0;
        while let Some(i) = lower[from..].find(w) {
            let at = from + i;
            let before = &lower[lower.floor_char_boundary(at.saturating_sub(10))..at];
            if !NO.iter().any(|n| before.ends_with(n)) {
                return Some(at);
            }
            from = at + w.len();
        }
        None
    });
    let at = hit.min()?;
    // Lowercasing can move byte offsets; then the whole head is the report.
    if !same_len || !text.is_char_boundary(at) {
        return Some(text);
    }
    // A '.' ends a sentence only before a space ("run.sh" goes on).
    let ends =
        |i: usize, c: char| "!?\n。！？".contains(c) || c == '.' && text[i + 1..].starts_with(' ');
    let start = text[..at]
        .char_indices()
        .rev()
        .find(|&(i, c)| ends(i, c))
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[at..]
        .char_indices()
        .find(|&(i, c)| ends(at + i, c))
        .map_or(text.len(), |(i, _)| at + i);
    Some(&text[start..end])
}

/// Whether two misses name different things: their ids and numbers
/// differ ("Patient PS-48201 not found", "Patient PS-48210 not found").
fn distinct_names(a: &str, b: &str) -> bool {
    let names = |t: &str| -> Vec<String> {
        t.split(|c: char| !(c.is_alphanumeric() || c == '-' || c == '_'))
            .filter(|w| w.chars().any(|c| c.is_ascii_digit()))
            .map(str::to_lowercase)
            .collect()
    };
    names(a) != names(b)
}

/// The words that name an obstacle.
fn obstacle(text: &str) -> Vec<String> {
    KeywordBag::stems(text)
        .into_iter()
        .filter(|s| s.chars().count() >= 3 && !s.chars().all(|c| c.is_ascii_digit()))
        .filter(|s| !GENERIC.contains(&s.as_str()))
        .take(MAX_WORDS)
        .collect()
}

/// Whether two obstacles are one: two words in common, or one when either
/// is that short ("Forbidden", "401 Unauthorized").
fn same_obstacle(a: &[String], b: &[String]) -> bool {
    let shared = a.iter().filter(|w| b.contains(w)).count();
    shared >= 2 || (shared >= 1 && a.len().min(b.len()) <= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(f: &mut Failing, n: u64, error: Option<&str>, reply: &str) {
        if let Some(e) = error {
            f.tool_result(false, e, None);
        }
        f.turn_complete(n, "t", reply);
    }

    #[test]
    fn the_same_obstacle_three_turns_running_repeats() {
        let mut f = Failing::default();
        turn(
            &mut f,
            1,
            Some("bash: /etc/cron.d/nightly: Permission denied"),
            "I couldn't create the cron file.",
        );
        turn(
            &mut f,
            2,
            Some("/var/spool/cron/crontabs/deploy: Permission denied"),
            "That failed too.",
        );
        assert_eq!(f.repeated(3), None);
        turn(
            &mut f,
            3,
            None,
            "The timer is installed, but a test run fails: systemd can't execute run.sh (Permission denied).",
        );
        assert_eq!(f.repeated(3), Some(&[1, 2, 3][..]));
    }

    #[test]
    fn movement_and_success_start_over() {
        let mut f = Failing::default();
        turn(
            &mut f,
            1,
            Some("ModuleNotFoundError: No module named 'requests'"),
            "Missing module.",
        );
        turn(
            &mut f,
            2,
            Some("AssertionError: expected 200, got 404 in test_fetch"),
            "The test fails.",
        );
        turn(
            &mut f,
            3,
            Some("ruff: E501 line too long (104 > 88)"),
            "Lint error left.",
        );
        assert_eq!(f.repeated(2), None, "each obstacle is new");
        let mut g = Failing::default();
        turn(
            &mut g,
            1,
            Some("Error: state is locked"),
            "The apply failed: state is locked.",
        );
        turn(&mut g, 2, None, "Applied: 3 added, 0 changed. No errors.");
        turn(&mut g, 3, Some("Error: state is locked"), "Locked again.");
        assert_eq!(g.turns, [3], "a success in between");
        // "try again" after a reply that claimed success: it failed after all.
        let mut h = Failing::default();
        turn(
            &mut h,
            1,
            Some("Error acquiring the state lock"),
            "State is locked.",
        );
        turn(&mut h, 2, None, "Done, it should work now.");
        h.user_says_failed(2);
        turn(
            &mut h,
            3,
            Some("Error acquiring the state lock"),
            "Still locked.",
        );
        assert_eq!(h.repeated(3), Some(&[1, 2, 3][..]));
    }

    #[test]
    fn misses_of_different_names_are_a_search_not_an_obstacle() {
        let mut f = Failing::default();
        let miss = "Error: Patient not found with provided name and date of birth";
        turn(&mut f, 1, Some(miss), "No match.");
        turn(&mut f, 2, Some(miss), "Still no match.");
        turn(
            &mut f,
            3,
            Some("Error: Patient PT-20451 not found"),
            "Not found either.",
        );
        assert_eq!(f.repeated(3), None);
        // The same miss text for three different lookups is a search too.
        let mut h = Failing::default();
        for (n, call) in [(1, 11), (2, 12), (3, 13)] {
            h.tool_result(false, miss, Some(call));
            h.turn_complete(n, "t", "No match.");
        }
        assert_eq!(h.repeated(2), None);
        let mut g = Failing::default();
        for n in 1..=3 {
            turn(
                &mut g,
                n,
                Some("ModuleNotFoundError: No module named 'requests'"),
                "Missing.",
            );
        }
        assert_eq!(g.repeated(3), Some(&[1, 2, 3][..]));
    }

    #[test]
    fn refusals_and_good_news_are_no_failures() {
        assert_eq!(
            failure_report("I'm unable to add insurance after the booking."),
            None
        );
        assert_eq!(failure_report("All 12 tests pass, no errors."), None);
        assert!(failure_report("Deploy failed: image not found.").is_some());
        assert!(failure_report("Das ging nicht: Fehler beim Verbinden.").is_some());
    }
}
