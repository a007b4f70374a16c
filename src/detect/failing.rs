//! The agent failing the same task with the same obstacle turn after turn:
//! "couldn't write the cron file: permission denied" → "crontab: permission
//! denied" → "the timer can't execute run.sh (permission denied)"; "state
//! is locked" while the user says "try again". A turn fails when one of its
//! tool results is not ok or its reply reports a failure; the obstacle is
//! the words of that error. The same obstacle on `repeatedFailureTurns`
//! consecutive turns is a `repeatedFailure` break. A different obstacle is
//! movement and starts the count again; a turn without failure ends it,
//! unless the user's next message pushes back ("try again", "still broken").

use std::collections::HashMap;
use std::sync::OnceLock;

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

use crate::hash::FastBuild;

use crate::text::{KeywordBag, truncate_chars};

/// Turns remembered in a streak (evidence).
const MAX_TURNS: usize = 16;
/// Words kept of each part of an obstacle.
const MAX_WORDS: usize = 12;
/// Parts of one failure: the failing tool result and the reply's report.
const PARTS: usize = 2;
/// Separates them in the text of a failure.
const PART: char = '\u{1f}';
/// Characters of a failing tool result kept until the turn ends.
const ERROR_CHARS: usize = 300;
/// Bytes of a reply searched for a failure report.
const REPLY_BYTES: usize = 600;

/// Words that report a failure in a reply. Plain refusals ("I'm unable to
/// add insurance after booking") are not failures.
const FAILED: &[&str] = &[
    "failed",
    "fails",
    "failing",
    "failure",
    "error",
    "errors",
    "denied",
    "timeout",
    "locked",
    "refused",
    "exception",
    "forbidden",
    "unauthorized",
    "falló",
    "fallo",
    "fehlgeschlagen",
    "fehler",
    "échec",
    "échoué",
    "erreur",
    "erreurs",
    "falhou",
    "erro",
    "erros",
    "ошибка",
    "ошибки",
    "ошибку",
    "ошибкой",
    // Error names that are the failure by themselves.
    "econnrefused",
    "econnreset",
    "etimedout",
    "enoent",
    "eacces",
    "eperm",
    "eaddrinuse",
    "enotfound",
    "imagepullbackoff",
    "errimagepull",
    "crashloopbackoff",
    "oomkilled",
    "traceback",
    "panicked",
    "segfault",
];
/// Two-word failure reports: "timed out", "not found".
const FAILED_PAIRS: &[(&str, &str)] = &[
    ("timed", "out"),
    ("not", "found"),
    ("no", "such"),
    ("exit", "code"),
    ("not", "permitted"),
    ("не", "удалось"),
];
/// Chinese and Japanese failure words, found anywhere.
const FAILED_CJK: &[&str] = &["失败", "错误", "报错", "失敗", "エラー"];

/// Words of a refusal ("Unfortunately, I cannot cancel it without the
/// reservation ID"): a user who names the thing again after one argues
/// with a decision, which is no correction of the answer.
const REFUSED: &[&str] = &[
    "cannot",
    "can't",
    "unable",
    "unfortunately",
    "lamentablemente",
    "leider",
    "malheureusement",
    "infelizmente",
];
const REFUSED_PAIRS: &[(&str, &str)] = &[
    ("can", "not"),
    ("not", "able"),
    ("i'm", "sorry"),
    ("am", "sorry"),
    ("no", "puedo"),
    ("ich", "nicht"),
    ("ne", "peux"),
    ("não", "posso"),
    ("не", "могу"),
    ("к", "сожалению"),
];
const REFUSED_CJK: &[&str] = &["无法", "不能", "抱歉", "できません", "申し訳"];

/// Word kinds, for one lookup per word.
const FAILS: u8 = 1;
const REFUSES: u8 = 2;
/// The first word of a listed pair.
const OPENS_PAIR: u8 = 4;

fn kinds() -> &'static HashMap<&'static str, u8, FastBuild> {
    static KINDS: OnceLock<HashMap<&'static str, u8, FastBuild>> = OnceLock::new();
    KINDS.get_or_init(|| {
        let mut m: HashMap<&'static str, u8, FastBuild> = HashMap::default();
        for w in FAILED {
            *m.entry(w).or_default() |= FAILS;
        }
        for w in REFUSED {
            *m.entry(w).or_default() |= REFUSES;
        }
        for (a, _) in FAILED_PAIRS.iter().chain(REFUSED_PAIRS) {
            *m.entry(a).or_default() |= OPENS_PAIR;
        }
        m
    })
}

/// What one pass over the start of a reply finds.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct ReplyRead<'a> {
    /// The sentence reporting a failure, if one does.
    pub failure: Option<&'a str>,
    /// It refuses or declines something.
    pub refused: bool,
}

/// Reads the first `REPLY_BYTES` of a reply once, word by word.
pub fn read_reply(reply: &str) -> ReplyRead<'_> {
    let head = &reply[..reply.floor_char_boundary(REPLY_BYTES.min(reply.len()))];
    crate::work::add(head.len());
    let (mut failure_at, mut refused) = (None, false);
    // The previous word and this one, lowercase, reused.
    let (mut prev, mut word) = (String::new(), String::new());
    let mut pending: Option<usize> = None;
    let mut prev_kind = 0u8;
    let is_word = |c: char| c.is_alphanumeric() || c == '\'' || c == '\u{2019}';
    let mut at = 0;
    // Inside quotation marks: a drafted letter's "Leider können wir Ihnen
    // keine Zusage geben" is the user's text, not the agent refusing.
    let mut quoted = false;
    for piece in head.split_inclusive(|c: char| !is_word(c)) {
        let start = at;
        at += piece.len();
        let w = piece.trim_end_matches(|c: char| !is_word(c));
        let in_quote = quoted;
        if let Some(c) = piece.chars().next_back().filter(|&c| !is_word(c)) {
            quoted = match c {
                '"' => !quoted,
                '„' | '«' | '「' | '『' => true,
                '»' | '」' | '』' | '”' => false,
                '“' => !quoted,
                _ => quoted,
            };
        }
        if w.is_empty() {
            continue;
        }
        word.clear();
        // No listed word is longer than 32 bytes; ASCII lowercases in place.
        if w.len() <= 32 {
            if w.is_ascii() {
                word.push_str(w);
                word.make_ascii_lowercase();
            } else {
                word.extend(
                    w.chars()
                        .flat_map(char::to_lowercase)
                        .map(|c| if c == '\u{2019}' { '\'' } else { c }),
                );
            }
        }
        let (p, w) = (prev.as_str(), word.as_str());
        let kind = kinds().get(w).copied().unwrap_or(0);
        let good_news = matches!(
            p,
            "no" | "without" | "0" | "zero" | "sin" | "keine" | "kein" | "sans" | "sem" | "без"
        );
        let pair = |pairs: &[(&str, &str)]| {
            prev_kind & OPENS_PAIR != 0 && pairs.iter().any(|&(a, b)| a == p && b == w)
        };
        // "error handling", "error messages": a feature, not a failure.
        if let Some(at) = pending.take() {
            let feature = matches!(
                w,
                "handling"
                    | "handler"
                    | "handlers"
                    | "message"
                    | "messages"
                    | "page"
                    | "pages"
                    | "boundary"
                    | "boundaries"
                    | "rate"
                    | "rates"
                    | "tracking"
                    | "reporting"
                    | "logging"
                    | "budget"
                    | "states"
                    | "state"
                    | "codes"
            );
            if !feature && failure_at.is_none() {
                failure_at = Some(at);
            }
        }
        let failed = kind & FAILS != 0 && !good_news || pair(FAILED_PAIRS);
        if failed && failure_at.is_none() {
            pending = Some(start);
        }
        refused |= !in_quote && (kind & REFUSES != 0 || pair(REFUSED_PAIRS));
        prev_kind = kind;
        std::mem::swap(&mut prev, &mut word);
    }
    failure_at = failure_at.or(pending);
    if !head.is_ascii() {
        let cjk_at = FAILED_CJK.iter().filter_map(|w| head.find(w)).min();
        failure_at = match (failure_at, cjk_at) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        refused |= REFUSED_CJK.iter().any(|w| head.contains(w));
    }
    ReplyRead {
        failure: failure_at.map(|at| sentence_around(head, at)),
        refused,
    }
}

/// The sentence of `text` around byte `at`. A '.' ends a sentence only
/// before a space ("run.sh" goes on).
fn sentence_around(text: &str, at: usize) -> &str {
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
    &text[start..end]
}

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

/// Words every failure report uses, whatever failed.
const GENERIC: &[&str] = &[
    "fail", "failed", "fails", "error", "errors", "couldn", "could", "unable", "again", "still",
    "same", "tried", "try", "trying", "message", "said", "says", "get", "got", "run", "ran",
    "command", "exit", "code", "status", "time", "also", "here", "now",
];

/// The current streak of failing turns.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Failing {
    /// Turns of the streak, oldest first.
    pub turns: Vec<u64>,
    /// Stems of the obstacle.
    pub obstacle: Vec<String>,
    /// The streak's last failure as reported: the failing call's words when
    /// there was one, else the reply's.
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

crate::json::typed::from_json!(Failing {
    req turns: "turns",
    req obstacle: "obstacle",
    opt last_text: "lastText",
    opt miss: "miss",
    req topic: "topic",
    opt error: "error",
    hex_opt call: "call",
    hex_opt last_call: "lastCall",
    opt ended: "ended",
});

impl Failing {
    /// A tool result of this turn.
    pub fn tool_result(&mut self, ok: bool, text: &str, call: Option<u64>) {
        if !ok && self.error.is_none() {
            self.error = Some(truncate_chars(text, ERROR_CHARS));
            self.call = call;
        }
    }

    /// The turn `turn` on `topic` ended with a reply reporting `failure`
    /// (see `read_reply`).
    pub fn turn_complete(&mut self, turn: u64, topic: &str, failure: Option<&str>) {
        let error = self.error.take();
        let call = self.call.take();
        // A failing call and the reply's own report name the obstacle
        // together: "progress deadline exceeded" in the tool, "ImagePullBackOff:
        // unauthorized" in the reply.
        let what = match (error, failure) {
            (Some(e), Some(f)) if !e.contains(f) => Some(format!("{e}{PART}{f}")),
            (e, f) => e.or_else(|| f.map(str::to_string)),
        };
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
        self.fail(turn, topic, &what, call);
    }

    /// Turn `turn` on `topic` failed with `what`.
    fn fail(&mut self, turn: u64, topic: &str, what: &str, call: Option<u64>) {
        let obstacle = obstacle(what);
        let lower = what.to_lowercase();
        let miss = MISS.iter().any(|m| lower.contains(m));
        // A miss repeats only as the same call missing again, unless it
        // names what is missing ("Can't resolve '@/lib/db'"): then the same
        // words are the same miss, whatever the call.
        let same_call = match (call, self.last_call) {
            (Some(a), Some(b)) => a == b || names_what(what) && names_what(&self.last_text),
            _ => true,
        };
        // A miss is its failing call's words, without the reply's account.
        let head = what.split(PART).next().unwrap_or(what);
        let same = !self.turns.is_empty()
            && if miss || self.miss {
                self::obstacle(&self.last_text) == self::obstacle(head)
                    && same_call
                    && !distinct_names(&self.last_text, head)
            } else {
                same_obstacle(&self.obstacle, &obstacle)
            };
        self.miss = miss;
        self.last_call = call;
        self.last_text = truncate_chars(head, ERROR_CHARS);
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

    /// The user pushed back on turn `turn` (on `topic`), reporting `failure`
    /// in their own words if they did ("still 401 Unauthorized when I run
    /// it"): the turn failed after all. A streak that turn had ended goes
    /// on; otherwise the reported error is the turn's obstacle.
    pub fn user_says_failed(&mut self, turn: u64, topic: &str, failure: Option<&str>) {
        if self.turns.last() == Some(&turn) {
            return;
        }
        let resumes = self
            .ended
            .as_ref()
            .is_some_and(|e| e.turns.last().is_some_and(|&t| t + 1 == turn));
        match (self.ended.take(), failure) {
            (Some(streak), _) if resumes => {
                *self = *streak;
                self.turns.push(turn);
                if self.turns.len() > MAX_TURNS {
                    self.turns.remove(0);
                }
            }
            (_, Some(what)) => self.fail(turn, topic, what, None),
            (ended, None) => self.ended = ended,
        }
    }

    /// The streak's turns when it reached `at_least`.
    pub fn repeated(&self, at_least: usize) -> Option<&[u64]> {
        (self.turns.len() >= at_least).then_some(&self.turns[..])
    }

    pub fn is_bounded(&self) -> bool {
        let one = |f: &Failing| {
            f.turns.len() <= MAX_TURNS
                && f.obstacle.len() <= PARTS * MAX_WORDS
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

/// Whether a failure text names what failed: a quoted name or a path
/// ("Can't resolve '@/lib/db'", "open src/app.ts"), not only "not found".
fn names_what(text: &str) -> bool {
    text.split_whitespace().any(|w| {
        let w = w.trim_end_matches([',', '.', ':', ';', ')']);
        let quoted = w.len() > 2
            && ["'", "\"", "`", "‘", "“"].iter().any(|q| w.starts_with(q))
            && ["'", "\"", "`", "’", "”"].iter().any(|q| w.ends_with(q));
        quoted || w.len() > 2 && w.trim_matches('/').contains('/')
    })
}

/// The words that name an obstacle, up to `MAX_WORDS` from each part. Paths
/// say where code failed, and every error of one project shares them
/// ("github.com/acme/svc/internal/…", "internal/api/handler.go:14"): they
/// name nothing. A URL names what was asked for, and stays.
fn obstacle(text: &str) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for part in text.split(PART).take(PARTS) {
        let part: String = part
            .split_inclusive(char::is_whitespace)
            .filter(|w| w.contains("://") || !w.trim_end().contains('/'))
            .collect();
        let fresh: Vec<String> = KeywordBag::stems(&part)
            .into_iter()
            .filter(|s| s.chars().count() >= 3 && !s.chars().all(|c| c.is_ascii_digit()))
            .filter(|s| !GENERIC.contains(&s.as_str()) && !words.contains(s))
            .take(MAX_WORDS)
            .collect();
        words.extend(fresh);
    }
    words
}

/// Whether two obstacles are one: two words in common, or one when either
/// is that short ("Forbidden", "401 Unauthorized").
fn same_obstacle(a: &[String], b: &[String]) -> bool {
    let shared = a.iter().filter(|w| b.contains(w)).count();
    // Two described at length (a failing call and the reply both) need a
    // third word in common: "provider" and "reports" recur in progress.
    let needed = if a.len().min(b.len()) > MAX_WORDS {
        3
    } else {
        2
    };
    shared >= needed || (shared >= 1 && a.len().min(b.len()) <= 2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turn(f: &mut Failing, n: u64, error: Option<&str>, reply: &str) {
        if let Some(e) = error {
            f.tool_result(false, e, None);
        }
        f.turn_complete(n, "t", read_reply(reply).failure);
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
        h.user_says_failed(2, "t", None);
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
            h.turn_complete(n, "t", None);
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
        let read = read_reply("I'm unable to add insurance after the booking.");
        assert_eq!((read.failure, read.refused), (None, true));
        assert_eq!(read_reply("All 12 tests pass, no errors.").failure, None);
        assert_eq!(
            read_reply("Deployed. The deploy failed: image not found. Retrying.").failure,
            Some(" The deploy failed: image not found")
        );
        assert!(
            read_reply("Das ging nicht: Fehler beim Verbinden.")
                .failure
                .is_some()
        );
        assert!(read_reply("部署失败了").failure.is_some());
        assert!(!read_reply("Here is the refactored function.").refused);
        // A drafted letter that declines is the user's text, not a refusal.
        for letter in [
            "„Liebe Frau Demir, leider haben wir uns für eine andere Kandidatin entschieden.“",
            "Draft: \"Unfortunately, we cannot offer you the position.\" Want changes?",
            "Voici : « Malheureusement, nous ne pouvons pas donner suite. »",
        ] {
            assert!(!read_reply(letter).refused, "{letter}");
        }
        assert!(read_reply("Unfortunately I can't send \"that\" email for you.").refused);
        for unquoted in [
            "Liebe Frau Demir, leider haben wir uns für eine andere Kandidatin entschieden.",
            "Draft: Unfortunately, we cannot offer you the position. Want changes?",
            "Voici : Malheureusement, nous ne pouvons pas donner suite.",
        ] {
            assert!(read_reply(unquoted).refused, "{unquoted}");
        }
        assert_eq!(
            read_reply("I added error handling and clearer error messages.").failure,
            None
        );
    }

    #[test]
    fn the_users_report_of_the_error_makes_the_turn_fail() {
        let mut f = Failing::default();
        turn(
            &mut f,
            1,
            None,
            "I switched to a Bearer header; that should fix the 401.",
        );
        let said = read_reply("still 401 Unauthorized when i run npm run sandbox").failure;
        f.user_says_failed(1, "t", said);
        assert_eq!(f.turns, [1], "the user names the error");
        turn(
            &mut f,
            2,
            None,
            "Fixed the variable name, the 401 should be gone now.",
        );
        // "nope, same thing": no error named, the streak goes on.
        f.user_says_failed(2, "t", None);
        turn(
            &mut f,
            3,
            Some("POST https://sandbox.pay.example/v1/ping -> HTTP 401 Unauthorized"),
            "Both the client and curl get 401 Unauthorized; the key looks revoked.",
        );
        assert_eq!(f.repeated(3), Some(&[1, 2, 3][..]));
        // Pushback that names no error about a turn that never failed
        // starts nothing.
        let mut g = Failing::default();
        turn(&mut g, 1, None, "Done: the report is in reports/q3.md.");
        g.user_says_failed(1, "t", read_reply("that's not the report I meant").failure);
        assert!(g.turns.is_empty());
    }

    #[test]
    fn a_failing_call_and_the_replys_report_name_one_obstacle() {
        let mut f = Failing::default();
        turn(
            &mut f,
            1,
            Some("error: deployment \"api\" exceeded its progress deadline"),
            "The rollout failed: the pod is in ImagePullBackOff, unauthorized: authentication required.",
        );
        turn(
            &mut f,
            2,
            None,
            "Recreated the secret; the pod is still in ImagePullBackOff: unauthorized: authentication required.",
        );
        turn(
            &mut f,
            3,
            None,
            "Patched the service account, but it is still ImagePullBackOff, unauthorized: authentication required.",
        );
        assert_eq!(f.repeated(3), Some(&[1, 2, 3][..]));
    }

    #[test]
    fn progress_told_at_length_is_still_progress() {
        let mut f = Failing::default();
        turn(
            &mut f,
            1,
            Some(
                "Error: Invalid provider configuration. Provider \"registry.terraform.io/hashicorp/aws\" \
                 requires explicit configuration. Add a provider block to the root module and \
                 configure the provider's required arguments.",
            ),
            "Apply failed: the module needs an aws provider block in the root module, and infra/reports doesn't have one.",
        );
        turn(
            &mut f,
            2,
            Some(
                "Error: creating S3 Bucket (reports): BucketAlreadyExists: The requested bucket name \
                 is not available. The bucket namespace is shared by all users of the system.",
            ),
            "The provider is fixed and the plan ran, but creating the bucket failed: the name 'reports' is already taken globally.",
        );
        assert_eq!(f.turns, [2], "a new obstacle");
    }

    #[test]
    fn a_miss_that_names_what_is_missing_repeats_whatever_the_call() {
        let miss = "Failed to compile.\n./src/app/api/users/route.ts\nModule not found: Can't resolve '@/lib/db'";
        let mut f = Failing::default();
        for (n, call) in [(1, 11), (2, 12), (3, 13)] {
            f.tool_result(false, miss, Some(call));
            f.turn_complete(n, "t", read_reply("The build still fails.").failure);
        }
        assert_eq!(f.repeated(3), Some(&[1, 2, 3][..]));
        // A miss that names nothing repeats only as the same call.
        let mut g = Failing::default();
        for (n, call) in [(1, 11), (2, 12), (3, 13)] {
            g.tool_result(false, "Error: user not found", Some(call));
            g.turn_complete(n, "t", None);
        }
        assert_eq!(g.turns, [3]);
    }

    #[test]
    fn errors_of_one_module_share_paths_not_obstacles() {
        let mut f = Failing::default();
        turn(
            &mut f,
            1,
            Some(
                "# github.com/acme/svc/internal/api\ninternal/api/handler.go:14:2: undefined: config.Load",
            ),
            "",
        );
        turn(
            &mut f,
            2,
            Some(
                "--- FAIL: TestParseDuration (0.00s)\nFAIL\tgithub.com/acme/svc/internal/parse\t0.012s",
            ),
            "",
        );
        turn(
            &mut f,
            3,
            Some(
                "# github.com/acme/svc/internal/log\ninternal/log/log.go:33:2: fmt.Sprintf format %d has arg id of wrong type string",
            ),
            "",
        );
        assert_eq!(f.turns, [3], "three errors, each new");
        // A URL names what was asked for: the same registry refusing stays one obstacle.
        let mut g = Failing::default();
        for n in 1..=3 {
            turn(
                &mut g,
                n,
                Some(
                    "npm ERR! 403 Forbidden - GET https://npm.acme.internal/@acme%2fui - Forbidden",
                ),
                "",
            );
        }
        assert_eq!(g.repeated(3), Some(&[1, 2, 3][..]));
    }
}
