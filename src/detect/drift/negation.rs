//! What the user ruled out, and whether the answer did it anyway.
//!
//! Request side: a negation ("don't add logging", "sin emojis", "不要加日志")
//! rules out the content words after it in its clause (before it for
//! postposed negations: "ändere das nicht"); with a change verb ("don't touch
//! the CSS", "keep the signature") the words are protected instead: naming
//! them is fine, changing them is not. Limits on the form ("no explanation",
//! "in one sentence", "no examples", "without adding anything") are kept as
//! flags. Statements ("I never got it", "there is no output", "区别") and
//! questions ("why don't my tests run?") rule nothing out.
//!
//! Answer side: a ruled-out word in a clause that is not itself negated; a
//! change verb next to a protected word; prose beyond the code when only code
//! was wanted; examples, several sentences or new content when they were not.

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

use super::cues::{
    ADD_VERBS, ANALOGY_GIVEN, CHANGE_VERBS, EXAMPLE_GIVEN, FORMAL_GIVEN, INFORMAL, KEEP,
    KEEP_AFTER, KEPT, LEFT_OUT, NEGATION, NEGATION_NOT, NO_ANALOGIES, NO_CODE, NO_DEPENDENCIES,
    NO_EXAMPLES, NO_EXPLANATION, NO_FORMULAS, NO_HEADINGS, NO_LISTS, NO_NEW_CONTENT, NO_OPINIONS,
    NO_TABLES, ONE_SENTENCE, OPINION_GIVEN, PLAIN_LANGUAGE, PLAIN_TEXT, POSTPOSED, PRESERVING,
    YES_NO,
};
use super::first_stem;
use super::form::{self, Form};
use super::scan::{Hit, Hits, Scanned, Word};
use super::words::{FAMILIES, GENERIC, NEGATION_VERBS, low_weight};
use crate::text::KeywordBag;

const MAX_STEMS: usize = 32;

/// Limits on the answer's form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Limits {
    #[serde(default)]
    pub no_explanation: bool,
    #[serde(default)]
    pub no_examples: bool,
    #[serde(default)]
    pub one_sentence: bool,
    #[serde(default)]
    pub no_new_content: bool,
    #[serde(default)]
    pub no_emoji: bool,
    #[serde(default)]
    pub no_comments: bool,
    /// Standard library only: no third-party imports or installs.
    #[serde(default)]
    pub no_dependencies: bool,
    /// Plain words: no pile of acronyms.
    #[serde(default)]
    pub plain_language: bool,
    /// Dates, amounts or numbers of the material must survive.
    #[serde(default)]
    pub keep_numbers: bool,
    /// The code's logic, behaviour or return value must stay.
    #[serde(default)]
    pub keep_logic: bool,
    /// The Python 3 minor version the code must run on (0: none named).
    #[serde(default)]
    pub python_minor: u8,
    /// The code's names (variables, parameters, signature, aliases) must stay.
    #[serde(default)]
    pub keep_names: bool,
    /// No analogies or metaphors.
    #[serde(default)]
    pub no_analogies: bool,
    /// No opinions or advice of the answer's own.
    #[serde(default)]
    pub no_opinions: bool,
    /// A casual register: no formal address or closing.
    #[serde(default)]
    pub informal: bool,
    /// A bare yes or no.
    #[serde(default)]
    pub yes_no: bool,
    /// Figures the request brings to replace the material's, when only
    /// the requested change may touch it ("leave everything else as is").
    #[serde(default)]
    pub numbers_changed: u8,
    /// The tests must stay as they are ("don't touch the test file").
    #[serde(default)]
    pub keep_tests: bool,
    /// Size and shape a count can check (words, items, lists, Markdown).
    #[serde(default, skip_serializing_if = "Form::is_empty")]
    pub form: Form,
}

crate::json::typed::from_json!(Limits {
    opt no_explanation: "noExplanation",
    opt no_examples: "noExamples",
    opt one_sentence: "oneSentence",
    opt no_new_content: "noNewContent",
    opt no_emoji: "noEmoji",
    opt no_comments: "noComments",
    opt no_dependencies: "noDependencies",
    opt plain_language: "plainLanguage",
    opt keep_numbers: "keepNumbers",
    opt keep_logic: "keepLogic",
    opt python_minor: "pythonMinor",
    opt keep_names: "keepNames",
    opt no_analogies: "noAnalogies",
    opt no_opinions: "noOpinions",
    opt informal: "informal",
    opt yes_no: "yesNo",
    opt numbers_changed: "numbersChanged",
    opt keep_tests: "keepTests",
    opt form: "form",
});

/// What a request rules out, borrowed from where it is kept.
pub struct RulesRef<'a> {
    pub forbidden: &'a [String],
    pub protected: &'a [String],
    pub limits: Limits,
    /// The answer's language, as far as it tells.
    pub lang: &'a str,
}

impl RulesRef<'_> {
    pub fn is_empty(&self) -> bool {
        self.forbidden.is_empty() && self.protected.is_empty() && self.limits == Limits::default()
    }
}

/// What a request rules out.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Rules {
    pub forbidden: Vec<String>,
    pub protected: Vec<String>,
    pub limits: Limits,
    /// Numbers inside a protected scope ("the return flight on the 22nd must stay").
    pub numbers: Vec<String>,
    /// Quoted terms inside a protected scope ("don't translate the brand “青柠”").
    pub verbatim: Vec<String>,
}

impl Rules {
    /// Takes note of a protected scope (words `range`): which kind of thing it
    /// keeps, its numbers and its quoted terms.
    fn kept(&mut self, s: &Scanned, range: std::ops::Range<usize>) {
        let text = s.span(range.start, range.end);
        let names_before = self.limits.keep_names;
        mark_kept(text, &mut self.limits);
        // "Keep the name `f`": that name, not every name of the code; "keep
        // the signature `def f(x)`" is the definition itself.
        let code = |i: usize| s.words.get(i).is_some_and(|w| w.code);
        let named = (range.start..range.end).any(code);
        let defined = (range.start..range.end)
            .any(|i| code(i) && matches!(s.word(i), "def" | "function" | "fn" | "func"));
        if named && !defined {
            self.limits.keep_names = names_before;
        }
        // Two digits or more: "Python 3.8" is a version, not a figure.
        for n in super::limits::digit_runs(text) {
            if n.len() >= 2 && !self.numbers.contains(&n) && self.numbers.len() < MAX_STEMS {
                self.numbers.push(n);
            }
        }
        let mut i = range.start;
        while i < range.end {
            let quoted =
                |j: usize| j < range.end && s.words.get(j).is_some_and(|w| w.quoted || w.code);
            if !quoted(i) {
                i += 1;
                continue;
            }
            let from = i;
            while quoted(i) {
                i += 1;
            }
            let term = s.span(from, i).to_string();
            if !self.verbatim.contains(&term) && self.verbatim.len() < MAX_STEMS {
                self.verbatim.push(term);
            }
        }
    }
}

/// Whether a hit lies inside one of `not` (a statement, or 别 inside 区别).
fn covered(h: &Hit, not: &[Hit]) -> bool {
    not.iter().any(|n| n.first <= h.first && h.first < n.last)
}

/// Sentences of `s` that end with a question mark.
fn questions(s: &Scanned) -> Vec<bool> {
    let mut q = vec![false; s.sentences as usize];
    for (i, w) in s.words.iter().enumerate() {
        let next = s
            .words
            .get(i + 1)
            .map_or(s.text.len(), |n| n.start as usize);
        let gap = s.text.get(w.end as usize..next).unwrap_or("");
        if let Some(slot) = q
            .get_mut(w.sentence as usize)
            .filter(|_| gap.contains(['?', '？']))
        {
            *slot = true;
        }
    }
    q
}

/// Where the thing a negation rules out ends.
const STOPS: &[&str] = &[
    "for",
    "in",
    "on",
    "at",
    "with",
    "from",
    "to",
    "because",
    "since",
    "as",
    "when",
    "if",
    "so",
    "but",
    "that",
    "which",
    "while",
    "para",
    "en",
    "con",
    "por",
    "porque",
    "cuando",
    "si",
    "pero",
    "für",
    "mit",
    "bei",
    "weil",
    "wenn",
    "aber",
    "dass",
    "pour",
    "dans",
    "avec",
    "par",
    "quand",
    "mais",
    "em",
    "com",
    "quando",
    "se",
    "mas",
    "для",
    "в",
    "с",
    "потому",
    "когда",
    "но",
];

/// "I don't remember the ID", "it never arrived": a subject before the
/// negation makes it a statement, unless what follows is a wish ("I don't
/// want a discount", "we don't need insurance").
fn reports_a_fact(s: &Scanned, h: &Hit, cue: &str) -> bool {
    const SUBJECTS: &[&str] = &["i", "we", "it", "he", "she", "they", "this", "that"];
    const WISHES: &[&str] = &["want", "need", "wish", "like"];
    let english = matches!(cue, "don't" | "do not" | "dont" | "never");
    const ADVERBS: &[&str] = &[
        "still",
        "really",
        "actually",
        "just",
        "also",
        "even",
        "currently",
    ];
    let clause = s.words.get(h.first).map(|w| w.clause);
    let subject = (0..h.first)
        .rev()
        .take_while(|&i| s.words.get(i).map(|w| w.clause) == clause)
        .map(|i| s.word(i))
        .find(|w| !ADVERBS.contains(w))
        .unwrap_or("");
    // German: "Mein Koffer ist nicht angekommen", "die App funktioniert
    // nicht": what happened, not what to leave out.
    const HAPPENED: &[&str] = &[
        "angekommen",
        "gekommen",
        "geliefert",
        "zugestellt",
        "erhalten",
        "bekommen",
        "eingegangen",
        "aufgetaucht",
        "erschienen",
        "funktioniert",
        "geklappt",
        "passiert",
        "gespeichert",
        "geladen",
        "angezeigt",
        "verschickt",
        "gesendet",
    ];
    if cue == "nicht" {
        let around = [h.first.checked_sub(1), Some(h.last)];
        return around
            .iter()
            .flatten()
            .any(|&i| HAPPENED.contains(&s.word(i)));
    }
    english && SUBJECTS.contains(&subject) && !WISHES.contains(&s.word(h.last))
}

/// "Add an index without locking the table?" rules out locking, "… without
/// the AWS CLI?" a tool; "Can you
/// help me without the reservation ID?" asks about a missing thing.
fn verb_follows_without(s: &Scanned, at: usize) -> bool {
    let w = s.word(at);
    // "… without the AWS CLI?": a tool ruled out ("without Terraform
    // destroying it" rules out what the tool does).
    let tool = |i: usize| names_tech(s.word(i)) && !s.word(i + 1).ends_with("ing");
    w.ends_with("ing")
        || tool(at)
        || (matches!(w, "the" | "a" | "an" | "any") && tool(at + 1))
        || matches!(w, "zu" | "être" | "avoir")
        || w.ends_with("ar")
        || w.ends_with("er")
        || w.ends_with("ir")
}

/// Scopes words cannot judge: an action ("don't want to be transferred",
/// "without having to call"; mentioning it is not doing it) or a quantity
/// ("no extra baggage", "no additional passengers": the summary still
/// names the one bag or passenger).
fn unjudgeable(s: &Scanned, from: usize, to: usize) -> bool {
    const ACTION: &[&[&str]] = &[
        &["want", "to"],
        &["need", "to"],
        &["having", "to"],
        &["to"],
        &["be"],
        &["being"],
    ];
    // "without the reservation ID": the absence of something, not a ban.
    const ARTICLES: &[&str] = &[
        "the", "my", "your", "a", "an", "his", "her", "our", "their", "it",
    ];
    const QUANTITY: &[&str] = &[
        "extra",
        "additional",
        "more",
        "other",
        "further",
        "another",
        "más",
        "adicional",
        "adicionales",
        "zusätzlich",
        "zusätzliche",
        "weitere",
        "supplémentaire",
        "supplémentaires",
        "autre",
        "autres",
        "mais",
        "outro",
        "outros",
        "дополнительн",
    ];
    let words: Vec<&str> = (from..to).take(4).map(|i| s.word(i)).collect();
    // Past a wish and an "any": "need any additional bags".
    let mut i = usize::from(
        matches!(words.first(), Some(&("want" | "need"))) && words.get(1) != Some(&"to"),
    );
    i += usize::from(words.get(i) == Some(&"any"));
    let without = s.word(from.wrapping_sub(1)) == "without";
    // "no space left", "no seats available": a state, not a ban.
    let state = words
        .iter()
        .take(3)
        .any(|w| matches!(*w, "left" | "remaining" | "available"));
    state
        || ACTION.iter().any(|a| words.starts_with(a))
        || (without
            && words.first().is_some_and(|w| ARTICLES.contains(w))
            // "without the AWS CLI": a tool not to use, absent or not.
            && !words.get(1).is_some_and(|w| names_tech(w)))
        || words
            .get(i)
            .is_some_and(|w| QUANTITY.iter().any(|q| w.starts_with(q)))
}

/// Conjunctions that turn from what is kept to what changes.
const TURNS: &[&str] = &[
    "but", "then", "while", "whereas", "aber", "doch", "pero", "mais", "mas", "ma", "но", "但",
    "而", "でも", "けど",
];

/// Words a negation takes in: "without" and its kin still rule out inside a
/// question ("how do I add an index without locking the table?").
fn binds_in_questions(cue: &str) -> bool {
    matches!(cue, "without" | "sin" | "ohne" | "sans" | "sem" | "без")
}

fn push_new(into: &mut Vec<String>, stems: Vec<String>) {
    for s in stems {
        // `low_weight` holds `GENERIC`: one lookup for both, not a scan.
        if into.len() < MAX_STEMS
            && !low_weight().contains_key(s.as_str())
            && !NEGATION_VERBS.contains(&s.as_str())
            && !into.contains(&s)
        {
            into.push(s);
        }
    }
}

/// Words a rule reaches either side of its cue.
const MAX_SCOPE: usize = 32;

/// The words of `clause` a rule cued by `h` reads: at most `MAX_SCOPE`
/// either side of the cue. What a rule rules out or keeps is named near it,
/// and a clause of thousands of words (a CJK text without punctuation) was
/// read again for each cue in it.
fn scope(s: &Scanned, clause: u32, h: &Hit) -> std::ops::Range<usize> {
    let c = s.clause_range(clause);
    let scope = c.start.max(h.first.saturating_sub(MAX_SCOPE))..c.end.min(h.last + MAX_SCOPE);
    crate::work::add(scope.len());
    scope
}

/// The rules in a request (already scanned).
#[cfg(test)]
pub fn rules(s: &Scanned, hits: &Hits) -> Rules {
    rules_known(s, hits, &KeywordBag::default())
}

/// `rules`, with `known` the request's keyword bag: words it met are not
/// stemmed again.
pub fn rules_known(s: &Scanned, hits: &Hits, known: &KeywordBag) -> Rules {
    let stems_in = |text: &str| KeywordBag::stems_known(text, known);
    let mut r = Rules::default();
    let not = hits.get(&NEGATION_NOT);
    let changes = hits.get(&CHANGE_VERBS);
    let asked = questions(s);
    for h in hits.get(&NEGATION) {
        let cue = NEGATION.phrase(h.cue);
        let Some(w) = s.words.get(h.first) else {
            continue;
        };
        // A bare "not" rules out only a technology it opens a clause with:
        // "as JSON, not YAML". "It's not working" and "to Las Vegas, not
        // Los Angeles" rule out nothing.
        if cue == "not"
            && (s.clause_range(w.clause).start != h.first || !names_tech(s.word(h.last)))
        {
            continue;
        }
        let question = asked.get(w.sentence as usize).copied().unwrap_or(false);
        // "non-stop", "no-code": a prefix of a compound, not a negation.
        let compound = s
            .text
            .get(w.end as usize..)
            .is_some_and(|r| r.starts_with('-'));
        if w.quoted
            || compound
            || covered(h, not)
            || (question && !(binds_in_questions(cue) && verb_follows_without(s, h.last)))
            || reports_a_fact(s, h, cue)
        {
            continue;
        }
        let clause = scope(s, w.clause, h);
        if !POSTPOSED.contains(&cue) && unjudgeable(s, h.last, clause.end) {
            continue;
        }
        // The thing ruled out ends where a preposition or conjunction begins:
        // "no insurance for this booking" rules out insurance, not bookings.
        let end = (h.last..clause.end)
            .find(|&i| i > h.last && STOPS.contains(&s.word(i)))
            .unwrap_or(clause.end);
        let (before, after) = (s.span(clause.start, h.first), s.span(h.last, end));
        let change = changes.iter().any(|c| {
            clause.contains(&c.first)
                && !(h.first..h.last).contains(&c.first)
                && !s.words.get(c.first).is_some_and(|w| w.caps || w.code)
        });
        // A verb written as a keyword ("sin usar DELETE", "without `rm`")
        // is the thing ruled out.
        let keywords: Vec<String> = (h.last..end)
            .filter(|&i| s.words.get(i).is_some_and(|w| w.caps || w.code))
            .filter_map(|i| first_stem(s.word(i)))
            .collect();
        let content = |scope: &str| -> Vec<String> {
            stems_in(scope)
                .into_iter()
                // The verbs themselves ("touch", "add") are not the thing.
                .filter(|st| {
                    keywords.contains(st)
                        || (!CHANGE_VERBS.matches_word(st) && !ADD_VERBS.matches_word(st))
                })
                .collect()
        };
        // Postposed negations, and verb-final orders ("Комментарии не
        // добавляй": only a verb follows), rule out what comes before.
        // "ストアドプロシージャは禁止" rules out what precedes; Chinese
        // "禁止使用…" what follows.
        let stems = if POSTPOSED.contains(&cue) && !(cue == "禁止" && content(before).is_empty())
        {
            content(before)
        } else {
            let ahead = content(after);
            // Explanation words are not verbs: "without touching the tests"
            // keeps the tests.
            let only_verbs = ahead.iter().all(|st| {
                NEGATION_VERBS.contains(&st.as_str())
                    || (low_weight().contains_key(st.as_str()) && !GENERIC.contains(&st.as_str()))
            });
            let verb_follows = || {
                (h.last..clause.end).any(|i| {
                    let word = s.word(i);
                    ADD_VERBS.matches_word(word) || CHANGE_VERBS.matches_word(word)
                })
            };
            if only_verbs && verb_follows() {
                content(before)
            } else {
                ahead
            }
        };
        if change {
            r.kept(s, clause.start..h.first);
            r.kept(s, h.last..end);
            // "The tests are the spec, don't touch them": a pronoun keeps
            // what the clause before it names.
            let pronoun = (h.last..end).any(|i| PRONOUNS.contains(&s.word(i)))
                && (h.last..end)
                    .all(|i| PRONOUNS.contains(&s.word(i)) || CHANGE_VERBS.matches_word(s.word(i)));
            if pronoun && w.clause > 0 {
                // Its last words: what "them" stands for is named near it.
                let before = s.clause_range(w.clause - 1);
                let from = before.start.max(before.end.saturating_sub(MAX_SCOPE));
                crate::work::add(before.end - from);
                mark_kept(s.span(from, before.end), &mut r.limits);
            }
            push_new(&mut r.protected, stems);
        } else {
            push_new(&mut r.forbidden, stems);
        }
    }
    for h in hits.get(&KEEP) {
        // "I keep getting …", "it keeps crashing": a statement, not a rule.
        let statement = s.word(h.last).ends_with("ing")
            || matches!(
                s.word(h.first.wrapping_sub(1)),
                "i" | "we" | "it" | "they" | "this"
            );
        if statement {
            continue;
        }
        if let Some(w) = s.words.get(h.first) {
            let clause = scope(s, w.clause, h);
            // "Keep the meeting but move it to 11:00": the keep ends at "but".
            let end = (h.last..clause.end)
                .find(|&i| TURNS.contains(&s.word(i)))
                .unwrap_or(clause.end);
            r.kept(s, h.last..end);
            push_new(&mut r.protected, stems_in(s.span(h.last, end)));
        }
    }
    // "Parameter und Rückgabewert sollen so bleiben": what comes before.
    for h in hits.get(&KEEP_AFTER) {
        if let Some(w) = s.words.get(h.first) {
            let clause = scope(s, w.clause, h);
            let start = (clause.start..h.first)
                .rev()
                .find(|&i| TURNS.contains(&s.word(i)))
                .map_or(clause.start, |i| i + 1);
            r.kept(s, start..h.first);
            push_new(&mut r.protected, stems_in(s.span(start, h.first)));
        }
    }
    // What the request itself asks to change is not protected by a "keep"
    // elsewhere ("cancel one of the duplicate flights, keep my LAX flight").
    let ruling = |clause: u32| {
        [&NEGATION, &KEEP, &KEEP_AFTER].iter().any(|list| {
            hits.get(list)
                .iter()
                .any(|h| s.words.get(h.first).is_some_and(|w| w.clause == clause))
        })
    };
    // Each clause once, however many change verbs it holds (hits come in
    // text order, so a clause's hits are neighbours).
    let mut cleared = None;
    for h in changes {
        let Some(w) = s.words.get(h.first).filter(|w| !ruling(w.clause)) else {
            continue;
        };
        if cleared.replace(w.clause) == Some(w.clause) {
            continue;
        }
        let clause = s.clause_range(w.clause);
        crate::work::add(clause.len());
        let asked = stems_in(s.span(clause.start, clause.end));
        r.protected.retain(|p| !asked.contains(p));
    }
    // Form limits; their own words ("explanation", "examples") are not content.
    let mut form_words = Vec::new();
    for (set, flag) in [
        (&NO_EXPLANATION, &mut r.limits.no_explanation),
        (&NO_EXAMPLES, &mut r.limits.no_examples),
        (&ONE_SENTENCE, &mut r.limits.one_sentence),
        (&NO_NEW_CONTENT, &mut r.limits.no_new_content),
        (&NO_DEPENDENCIES, &mut r.limits.no_dependencies),
        (&PLAIN_LANGUAGE, &mut r.limits.plain_language),
        (&NO_ANALOGIES, &mut r.limits.no_analogies),
        (&NO_OPINIONS, &mut r.limits.no_opinions),
        (&INFORMAL, &mut r.limits.informal),
        (&YES_NO, &mut r.limits.yes_no),
    ] {
        for h in hits.get(set) {
            *flag = true;
            form_words.extend(stems_in(s.span(h.first, h.last)));
        }
    }
    // Shape limits. Beside "no code blocks", "no tables" or "plain text",
    // what else the clause rules out is form too: "no code blocks or SQL
    // snippets" bans snippets, not the word "SQL". Each clause read once.
    let mut shaped = vec![false; s.words.last().map_or(0, |w| w.clause as usize + 1)];
    for (set, flag) in [
        (&NO_LISTS, &mut r.limits.form.no_lists),
        (&NO_CODE, &mut r.limits.form.no_code),
        (&PLAIN_TEXT, &mut r.limits.form.plain_text),
        (&NO_HEADINGS, &mut r.limits.form.no_headings),
        (&NO_TABLES, &mut r.limits.form.no_tables),
        (&NO_FORMULAS, &mut r.limits.form.no_formulas),
    ] {
        for h in hits.get(set) {
            *flag = true;
            let first_read = |w: &&Word| {
                shaped
                    .get_mut(w.clause as usize)
                    .is_some_and(|seen| !std::mem::replace(seen, true))
            };
            if let Some(w) = s.words.get(h.first).filter(first_read) {
                let clause = s.clause_range(w.clause);
                crate::work::add(clause.len());
                form_words.extend(stems_in(s.span(clause.start, clause.end)));
            }
        }
    }
    r.limits.keep_logic |= hits.any(&PRESERVING);
    // "Keep it under 40 words" is a length, not a figure to keep.
    let counts = form::counted(s, &mut r.limits.form);
    r.numbers.retain(|n| !counts.contains(n));
    r.limits.no_emoji = r.forbidden.iter().any(|f| f.starts_with("emoji"));
    r.limits.no_comments = r.forbidden.iter().any(|f| is_comment_word(f));
    r.forbidden
        .retain(|f| !form_words.contains(f) && !f.starts_with("emoji") && !is_comment_word(f));
    r
}

/// Words whose protection means "keep the figures" (dates, amounts,
/// prices, numbers) and "keep the logic" (behaviour, return value), as
/// lowercase prefixes.
const NUMBER_WORDS: &[&str] = &[
    "date", "amount", "price", "number", "figure", "sums", "totals", "percent", "fecha", "importe",
    "precio", "número", "cifra", "cantidad", "datum", "daten", "betrag", "beträge", "preis",
    "zahl", "montant", "prix", "chiffre", "nombre", "data", "datas", "valor", "preço", "quantia",
    "importo", "importi", "prezz", "numer", "cifre", "дат", "сумм", "цен", "цифр", "числ", "日期",
    "金额", "数字", "价格", "日付", "金額", "価格", "数値",
];
const LOGIC_WORDS: &[&str] = &[
    "logic",
    "behavio",
    "functionality",
    "return",
    "output",
    "semantic",
    "lógica",
    "comportamiento",
    "funcionalidad",
    "retorno",
    "logik",
    "verhalten",
    "funktion",
    "rückgabe",
    "ausgabe",
    "logique",
    "comportement",
    "fonctionnalit",
    "retour",
    "comportamento",
    "funcionalidade",
    "logica",
    "логик",
    "поведени",
    "функциональ",
    "возвращ",
    "逻辑",
    "行为",
    "功能",
    "返回",
    "ロジック",
    "挙動",
    "動作",
    "戻り値",
];

const NAME_WORDS: &[&str] = &[
    "name",
    // "Keep the public API": how callers call it.
    "api",
    "interfa",
    "schnittstelle",
    "интерфейс",
    "接口",
    "インターフェース",
    "variable",
    "identifier",
    "alias",
    "signature",
    "parameter",
    "argument",
    "nombre",
    "variabl",
    "identificador",
    "firma",
    "parámetro",
    "bezeichner",
    "signatur",
    "paramet",
    "nom",
    "identifiant",
    "nome",
    "assinatura",
    "parâmetro",
    "имя",
    "имена",
    "переменн",
    "сигнатур",
    "параметр",
    "变量",
    "参数",
    "签名",
    "别名",
    "函数名",
    "変数",
    "引数",
    "関数名",
];

const TEST_WORDS: &[&str] = &["test", "prueba", "тест", "测试", "テスト"];

/// Whether a word names a member of a technology family ("yaml", "python").
pub fn names_tech(word: &str) -> bool {
    let stem = first_stem(word).unwrap_or_default();
    FAMILIES.iter().flat_map(|f| f.iter()).any(|member| {
        member.iter().any(|m| {
            let m = m.trim_start_matches('=');
            m == word || m == stem
        })
    })
}

/// Object pronouns that stand for something named before.
const PRONOUNS: &[&str] = &[
    "it", "them", "those", "these", "that", "lo", "la", "los", "las", "le", "les", "ihn", "sie",
    "es", "их", "его", "это",
];

/// Sets `keep_numbers` / `keep_logic` / `keep_names` / `keep_tests` when a
/// protected scope names them.
fn mark_kept(scope: &str, limits: &mut Limits) {
    // The three lists as (first char, prefix, which), sorted: a word is
    // compared with the few prefixes that start like it, not all 130.
    type Table = Vec<(char, &'static str, u8)>;
    static TABLE: std::sync::OnceLock<Table> = std::sync::OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t: Table = [NUMBER_WORDS, LOGIC_WORDS, NAME_WORDS, TEST_WORDS]
            .iter()
            .enumerate()
            .flat_map(|(k, list)| {
                list.iter()
                    .filter_map(move |p| Some((p.chars().next()?, *p, k as u8)))
            })
            .collect();
        crate::sort::sort(&mut t);
        t
    });
    let mut kinds = [false; 4];
    for w in scope.split(|c: char| !c.is_alphanumeric()) {
        let Some(c) = w.chars().next() else {
            continue;
        };
        let from = table.partition_point(|e| e.0 < c);
        for (first, p, k) in table[from..].iter().take_while(|e| e.0 == c) {
            // CJK words have no spaces: the prefix may sit anywhere in the run.
            let hit = if crate::text::is_cjk(*first) {
                w.contains(p)
            } else {
                w.starts_with(p)
            };
            kinds[usize::from(*k)] |= hit;
        }
        if w.chars().any(crate::text::is_cjk) {
            for (first, p, k) in table.iter().filter(|e| crate::text::is_cjk(e.0)) {
                kinds[usize::from(*k)] |= *first != c && w.contains(p);
            }
        }
    }
    limits.keep_numbers |= kinds[0];
    limits.keep_logic |= kinds[1];
    limits.keep_names |= kinds[2];
    limits.keep_tests |= kinds[3];
}

/// A response stem counts as a ruled-out one when equal, or the same word
/// with a common ending the stemmer left ("log" → "logger").
fn same_word(resp: &str, ruled: &str) -> bool {
    let n = ruled.chars().count();
    resp == ruled
        || resp.strip_prefix(ruled).is_some_and(|rest| {
            (n >= 3 && matches!(rest, "ger" | "ging" | "ged" | "s" | "es" | "er"))
                // Romance and German inflections: "inovador" → "inovadora".
                || (n >= 5 && matches!(rest, "a" | "as" | "os" | "e" | "en" | "n"))
                // A verb in the past, first or third person: "não remarque"
                // → "já remarquei", "remarcou"; "no reserves" → "reservé".
                || (n >= 5 && matches!(rest, "ei" | "ou" | "é" | "ó"))
        })
        || cyrillic_root(ruled).is_some_and(|root| resp.starts_with(root))
}

/// A Russian word without its vowel ending, when a root of five letters or
/// more is left ("рекурсии" → "рекурс", which "рекурсивно" starts with).
fn cyrillic_root(word: &str) -> Option<&str> {
    let root = word.trim_end_matches(['а', 'е', 'и', 'о', 'у', 'ы', 'ю', 'я', 'й', 'ь']);
    let cyrillic = root.chars().all(|c| ('а'..='я').contains(&c) || c == 'ё');
    (cyrillic && root.chars().count() >= 5 && root.len() < word.len()).then_some(root)
}

/// Answer-side evidence, given the scanned answer and its keyword bag.
/// `new_content` lists content stems anchored nowhere (computed only when a
/// form limit needs it).
pub fn violation(
    r: &RulesRef<'_>,
    s: &Scanned,
    hits: &Hits,
    bag: &KeywordBag,
    new_content: &dyn Fn() -> Vec<String>,
) -> Option<Vec<String>> {
    let ruled_in_bag = |list: &[String]| {
        list.iter()
            .any(|f| bag.iter().any(|(st, _, _)| same_word(st, f)))
    };
    let in_clause = |list: &[Hit], clause: u32| {
        list.iter()
            .any(|h| s.words.get(h.first).is_some_and(|w| w.clause == clause))
    };
    // Portuguese "no" is "in the" ("remarquei você no LA3460"): its
    // negation is "não".
    let portuguese = r.lang == "pt";
    let negated = |clause: u32| {
        hits.get(&NEGATION).iter().any(|h| {
            (!portuguese || NEGATION.phrase(h.cue) != "no")
                && s.words.get(h.first).is_some_and(|w| w.clause == clause)
        })
    };
    let clause_negated = |clause: u32| {
        negated(clause) || in_clause(hits.get(&KEPT), clause) || label_says_no(s, clause)
    };
    let clauses = s.words.last().map_or(0, |w| w.clause + 1);
    // Ruled-out words, code included: `logger.debug(...)` is logging.
    if !r.forbidden.is_empty() && ruled_in_bag(r.forbidden) {
        let mut used = Vec::new();
        let left_out = |c: u32| in_clause(hits.get(&LEFT_OUT), c);
        for c in (0..clauses).filter(|&c| !clause_negated(c) && !left_out(c)) {
            let range = s.clause_range(c);
            for st in KeywordBag::stems_known(s.span(range.start, range.end), bag) {
                if r.forbidden.iter().any(|f| same_word(&st, f)) && !used.contains(&st) {
                    used.push(st);
                }
            }
        }
        if !used.is_empty() {
            return Some(surfaces(bag, &used));
        }
    }
    // A change verb beside a protected word, in prose.
    if !r.protected.is_empty() && ruled_in_bag(r.protected) {
        for h in hits.get(&CHANGE_VERBS) {
            let Some(w) = s.words.get(h.first).filter(|w| !w.code) else {
                continue;
            };
            if clause_negated(w.clause) {
                continue;
            }
            // "In the Dockerfile, change `EXPOSE 80`": the place may be the
            // clause before, in the same sentence.
            let mut range = s.clause_range(w.clause);
            if let Some(prev) = w.clause.checked_sub(1)
                && !clause_negated(prev)
                && s.words
                    .get(range.start.wrapping_sub(1))
                    .is_some_and(|p| p.sentence == w.sentence)
            {
                range.start = s.clause_range(prev).start;
            }
            let hit: Vec<String> = KeywordBag::stems_known(s.span(range.start, range.end), bag)
                .into_iter()
                .filter(|st| r.protected.iter().any(|p| same_word(st, p)))
                .collect();
            if !hit.is_empty() {
                let mut tokens = vec![s.word(h.first).to_string()];
                tokens.extend(surfaces(bag, &hit));
                return Some(tokens);
            }
        }
    }
    let l = &r.limits;
    let first5 = || new_content().into_iter().take(5).collect::<Vec<_>>();
    if l.no_explanation {
        let prose_units = s.units(|w| !w.code);
        let first = first_prose_sentence(s);
        let first_sentence_units = s.units(|w| !w.code && w.sentence == first);
        let too_much_prose = if s.words.iter().any(|w| w.code) {
            prose_units > 30.0
        } else {
            prose_units - first_sentence_units > 15.0 && s.prose_sentences() >= 2
        };
        if too_much_prose {
            return Some(first5());
        }
    }
    if l.no_examples && hits.any(&EXAMPLE_GIVEN) {
        return Some(vec!["example".into()]);
    }
    if l.no_analogies
        && let Some(h) = hits.get(&ANALOGY_GIVEN).first()
    {
        return Some(vec![s.span(h.first, h.last).to_string()]);
    }
    if l.no_opinions
        && let Some(h) = hits.get(&OPINION_GIVEN).first()
    {
        return Some(vec![s.span(h.first, h.last).to_string()]);
    }
    if l.informal {
        let formal: Vec<String> = hits
            .get(&FORMAL_GIVEN)
            .iter()
            .map(|h| s.span(h.first, h.last).to_string())
            .take(5)
            .collect();
        if !formal.is_empty() {
            return Some(formal);
        }
    }
    // "Oui. Toutefois, …": more than the yes or no and a few words.
    if l.yes_no && s.units(|w| !w.code) > 12.0 {
        return Some(first5());
    }
    if let Some(reason) = form::broken(&l.form, &s.text, s) {
        return Some(reason);
    }
    if l.one_sentence && s.prose_sentences() >= 3 {
        return Some(first5());
    }
    if l.no_new_content {
        let new = new_content();
        if new.len() >= 2 {
            return Some(new.into_iter().take(5).collect());
        }
    }
    if l.no_comments {
        let comments = code_comments(&s.text);
        if !comments.is_empty() {
            return Some(comments);
        }
    }
    if l.no_emoji {
        let mut emoji: Vec<String> = s
            .text
            .chars()
            .filter(|&c| is_emoji(c))
            .map(String::from)
            .collect();
        emoji.extend(shortcodes(&s.text));
        if !emoji.is_empty() {
            return Some(emoji.into_iter().take(5).collect());
        }
    }
    None
}

/// "Travel insurance: No": a label whose value (the next clause, after a
/// colon) is a no.
fn label_says_no(s: &Scanned, clause: u32) -> bool {
    const NO: &[&str] = &[
        "no", "none", "not", "0", "n", "false", "declined", "nein", "keine", "non", "aucun",
        "aucune", "não", "nenhum", "ninguno", "нет", "无", "否", "なし",
    ];
    let range = s.clause_range(clause);
    let (Some(last), Some(next)) = (
        range.end.checked_sub(1).and_then(|i| s.words.get(i)),
        s.words.get(range.end),
    ) else {
        return false;
    };
    let gap = s
        .text
        .get(last.end as usize..next.start as usize)
        .unwrap_or("");
    next.sentence == last.sentence && gap.contains([':', '：']) && NO.contains(&s.word(range.end))
}

fn first_prose_sentence(s: &Scanned) -> u32 {
    s.words.iter().find(|w| !w.code).map_or(0, |w| w.sentence)
}

/// "Comment" in the supported languages (stems and CJK bigrams).
fn is_comment_word(stem: &str) -> bool {
    [
        "comment",
        "comentario",
        "kommentar",
        "commentair",
        "comentário",
        "注释",
        "комментари",
    ]
    .iter()
    .any(|c| stem.starts_with(c))
}

/// Comment lines inside fenced code: `//`, `#`, `/*`, `--` at a line start.
fn code_comments(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut found = Vec::new();
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let comment = ["//", "/*", "-- ", "# "].iter().any(|m| t.starts_with(m));
        if fenced && comment && found.len() < 5 {
            found.push(crate::text::truncate_chars(t, 40));
        }
    }
    found
}

/// Emoji written as shortcodes, as commit messages and chat tools do
/// (":sparkles:", ":white_check_mark:"): a word of letters, digits, `_`
/// `+` `-` between two colons, standing alone.
fn shortcodes(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for token in text.split_whitespace() {
        let t = token.trim_end_matches([',', '.', ';', '!', '?', ')']);
        let Some(name) = t.strip_prefix(':').and_then(|r| r.strip_suffix(':')) else {
            continue;
        };
        let shaped = name.len() >= 2
            && name.chars().any(|c| c.is_ascii_lowercase())
            && name
                .chars()
                .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "_+-".contains(c));
        if shaped && out.len() < 5 {
            out.push(t.to_string());
        }
    }
    out
}

fn is_emoji(c: char) -> bool {
    matches!(c as u32, 0x1F300..=0x1FAFF | 0x2600..=0x27BF | 0x1F000..=0x1F2FF)
}

/// The first surface of each stem, as written in the answer.
fn surfaces(bag: &KeywordBag, stems: &[String]) -> Vec<String> {
    bag.iter()
        .filter(|(st, _, _)| stems.iter().any(|u| u == st))
        .map(|(_, f, _)| f.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Requests that repeat a rule's cue thousands of times in one clause
    /// (CJK without punctuation, a long list of "don't"s): each rule reads
    /// at most `MAX_SCOPE` words either side of its cue, and each clause is
    /// read whole once, so the work counted stays within a multiple of the
    /// words scanned. Before, every cue read its whole clause again.
    #[test]
    fn rules_read_a_bounded_scope_per_cue() {
        for unit in [
            "别用pandas以后都用中文错了",
            "don't add logging, don't touch the tests, keep the name ",
            "no emojis no lists no code blocks keep the signature do not change the date ",
            "不要改函数名保持返回值不变别加注释",
        ] {
            let text = unit.repeat(4000 / unit.len() + 1);
            let s = Scanned::new(&text);
            let hits = Hits::new(&s);
            let work = crate::work::counted(|| {
                rules(&s, &hits);
            });
            assert!(
                work <= 8 * s.words.len() + 64 * 70 * 4,
                "{unit:?}: {work} units for {} words",
                s.words.len()
            );
        }
    }

    fn ruled(task: &str) -> Rules {
        let s = Scanned::new(task);
        rules(&s, &Hits::new(&s))
    }

    fn breaks(task: &str, answer: &str) -> bool {
        let r = ruled(task);
        let rules = RulesRef {
            forbidden: &r.forbidden,
            protected: &r.protected,
            limits: r.limits,
            lang: &super::super::lang::language(answer),
        };
        let s = Scanned::new(answer);
        let bag = KeywordBag::from_text(answer);
        violation(&rules, &s, &Hits::new(&s), &bag, &Vec::new).is_some()
    }

    #[test]
    fn negations_rule_out_what_follows_them() {
        let r = ruled("Refactor it to async. Don't add any logging — we have tracing.");
        assert_eq!(r.forbidden, ["log"]);
        assert!(
            ruled("My package says delivered but I never got it.")
                .forbidden
                .is_empty()
        );
        assert!(
            ruled("请解释一下Git rebase和merge的区别。")
                .forbidden
                .is_empty()
        );
        assert!(ruled("Why don't my tests run?").forbidden.is_empty());
        assert!(
            ruled("I don't remember the reservation ID.")
                .forbidden
                .is_empty()
        );
        assert_eq!(ruled("I don't need insurance.").forbidden, ["insur"]);
        assert!(ruled("I still don't have my user ID.").forbidden.is_empty());
        assert!(
            ruled("I really don't want to be transferred.")
                .forbidden
                .is_empty()
        );
        assert!(
            ruled("It's just me, so no additional passengers.")
                .forbidden
                .is_empty()
        );
        // "without it" rules out nothing, and does not reach back past it.
        let r = ruled("Could you change my return flight without it?");
        assert!(r.forbidden.is_empty() && r.protected.is_empty(), "{r:?}");
        assert_eq!(
            ruled("How do I add an index without locking the table?").forbidden,
            ["lock", "tabl"]
        );
        assert_eq!(ruled("Ändere die Signatur nicht.").protected, ["signatur"]);
        // Verb-final: the object comes before the negation.
        let r = ruled("Перепиши этот цикл. Комментарии не добавляй.");
        assert!(r.limits.no_comments, "{r:?}");
    }

    #[test]
    fn a_bare_not_rules_out_a_technology_only() {
        let r = ruled("Export this config as JSON, not YAML: host localhost, port 8080.");
        assert_eq!(r.forbidden, ["yaml"]);
        assert!(breaks(
            "Export this config as JSON, not YAML: host localhost, port 8080.",
            "Here it is in YAML, easier to read:\n\n```yaml\nhost: localhost\nport: 8080\n```"
        ));
        // A correction of fact, and a statement.
        assert!(
            ruled("I'm flying to Las Vegas, not Los Angeles.")
                .forbidden
                .is_empty()
        );
        assert!(
            ruled("The export is not working with YAML.")
                .forbidden
                .is_empty()
        );
    }

    #[test]
    fn a_casual_tone_asked_in_japanese() {
        let task = "敬語を使わずに書き直して：「本日は伺えません。」";
        assert!(breaks(
            task,
            "「本日は伺うことができず、申し訳ございません。よろしくお願いいたします。」"
        ));
        assert!(!breaks(task, "「今日は行けないや、ごめんね。」"));
    }

    #[test]
    fn a_tool_or_keyword_ruled_out_is_held_to() {
        // A tool after "without the", even in a question; not what a tool
        // would do, nor a missing thing.
        let task = "How do I list the pods without the kubectl tool?";
        assert!(ruled(task).forbidden.contains(&"kubectl".to_string()));
        assert!(breaks(task, "Run `kubectl get pods -A`."));
        assert!(!breaks(
            task,
            "Call the API server: `curl -k https://api:6443/api/v1/pods`."
        ));
        assert!(
            ruled("How do I rename it without Terraform destroying the resource?")
                .forbidden
                .iter()
                .all(|f| f != "terraform")
        );
        assert!(
            ruled("Can you help me without the booking reference?")
                .forbidden
                .is_empty()
        );
        // A verb written as a keyword is the thing ruled out.
        let task = "Write a query that hides old orders, but without using DELETE.";
        assert_eq!(ruled(task).forbidden, ["delet"]);
        assert!(breaks(
            task,
            "```sql\nDELETE FROM orders WHERE year < 2020;\n```"
        ));
        // A Russian ruled-out word in another form.
        let task = "Напиши сортировку на Python, только без рекурсии.";
        assert!(breaks(task, "Функция рекурсивно делит список пополам."));
        assert!(!breaks(task, "Функция в цикле делит список пополам."));
    }

    #[test]
    fn change_verbs_protect_instead() {
        let r = ruled("Add validation to the form. Don't touch the CSS.");
        assert_eq!(r.protected, ["css"]);
        assert!(r.forbidden.is_empty());
        assert!(breaks(
            "Fix it, but keep the function signature.",
            "So I changed the signature:"
        ));
        assert!(!breaks(
            "Fix it, but keep the function signature.",
            "The signature is unchanged."
        ));
    }

    #[test]
    fn form_limits() {
        let r = ruled("Give me only the SQL, no explanation: customers with 3 orders.");
        assert!(r.limits.no_explanation);
        assert!(r.forbidden.is_empty(), "{:?}", r.forbidden);
        let sql = "```sql\nSELECT 1;\n```\n";
        assert!(!breaks("Only the SQL, no explanation: x", sql));
        let chatty = format!(
            "{sql}{}",
            "This query works because it counts rows. ".repeat(8)
        );
        assert!(breaks("Only the SQL, no explanation: x", &chatty));
        assert!(breaks(
            "In one sentence, no examples: what is a mutex?",
            "A lock. For example, a bank."
        ));
        assert!(breaks(
            "Write it. Sin emojis, por favor.",
            "¡Lo logramos! 🚀"
        ));
        assert!(!breaks("Write it. Sin emojis, por favor.", "¡Lo logramos!"));
    }

    #[test]
    fn a_ruled_out_word_in_a_negated_clause_is_respected() {
        assert!(breaks(
            "Don't add logging.",
            "Done; I used logger.debug for tracing."
        ));
        assert!(!breaks("Don't add logging.", "Done. No logging added."));
        assert!(!breaks(
            "I don't want travel insurance.",
            "Done: the new total, with the travel insurance removed, is $299."
        ));
        assert!(breaks(
            "I don't want travel insurance.",
            "Done: the new total, with travel insurance, is $329."
        ));
        assert!(
            ruled("She said I could cancel it without the reservation ID.")
                .forbidden
                .is_empty()
        );
        assert!(!breaks(
            "I don't want travel insurance.",
            "Booked.\n- **Travel insurance:** No\n- **Cabin:** Economy"
        ));
    }

    #[test]
    fn what_happened_and_what_a_without_clause_keeps() {
        // A German report of what went wrong rules nothing out.
        let r = ruled("Mein Paket ist nicht angekommen. Was soll ich tun?");
        assert!(r.forbidden.is_empty() && r.protected.is_empty(), "{r:?}");
        let r = ruled("Die Synchronisierung funktioniert nicht.");
        assert!(r.forbidden.is_empty(), "{r:?}");
        assert!(ruled("Ändere die Tests nicht.").limits.keep_tests);
        // "Fix X without touching the tests" keeps the tests, not X.
        let r = ruled("Fix the crash in parser.rs without touching the tests.");
        assert!(r.protected.is_empty() && r.limits.keep_tests, "{r:?}");
        // However it is worded, no new dependency is a limit of its own.
        let r = ruled("Add caching to this view without adding any new dependencies.");
        assert!(r.limits.no_dependencies, "{r:?}");
    }
}
