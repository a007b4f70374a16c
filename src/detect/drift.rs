//! Scope drift, beyond keyword overlap. A long on-topic answer uses many
//! words the user never typed, so "share of new words" alone cries wolf on
//! most real turns. This detector warns only on evidence a reviewer would
//! accept:
//!
//! - **off topic**: almost none of the answer's weighted content is anchored
//!   in the request, earlier user turns, this turn's tool output or the app's
//!   glossary (generic explanation words weigh little);
//! - **forbidden**: the user said "don't add logging" / "keep X unchanged" and
//!   the answer does it (the reference counted such words as anchored);
//! - **additions**: a sentence that announces an addition ("I also added…",
//!   "另外…", "además…") carries content the request never mentioned;
//! - **language**: answered in another human language than asked, when no
//!   translation was requested;
//! - **framework**: asked about one member of a family (Python, React,
//!   Postgres…) and answered with another.

use std::collections::{HashMap, HashSet};

use crate::hash::FastBuild;
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::scope::MAX_LISTED;
use crate::text::{KeywordBag, is_cjk};

/// What made the answer drift.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Cause {
    OffTopic,
    Forbidden,
    Additions,
    Language,
    Framework,
}

/// Facts about the request, computed once at turn start.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TaskFacts {
    /// Stems the user asked to leave out or unchanged.
    pub forbidden: Vec<String>,
    pub lang: String,
    /// Family members named (lowercase canonical names).
    pub tech: Vec<String>,
    /// The user asked for a translation or another language.
    pub translation: bool,
}

/// The verdict on one response.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DriftReport {
    /// Weighted share of the answer's content not anchored anywhere, 0–1.
    pub score: f64,
    pub cause: Option<Cause>,
    /// The words a person would point at, most telling first.
    pub tokens: Vec<String>,
}

const MAX_FACTS: usize = 32;

/// Explanation vocabulary: present in most answers, it says little about scope.
const GENERIC: &[&str] = &[
    "abl",
    "about",
    "access",
    "actual",
    "also",
    "alway",
    "answer",
    "anyth",
    "approach",
    "argument",
    "back",
    "base",
    "basic",
    "befor",
    "below",
    "best",
    "better",
    "bit",
    "call",
    "case",
    "caus",
    "chang",
    "check",
    "choos",
    "clean",
    "code",
    "common",
    "complet",
    "consid",
    "correct",
    "creat",
    "current",
    "default",
    "depend",
    "detail",
    "differ",
    "direct",
    "done",
    "easi",
    "edit",
    "effect",
    "els",
    "empti",
    "end",
    "ensur",
    "error",
    "everi",
    "exampl",
    "exist",
    "expect",
    "explain",
    "fail",
    "featur",
    "field",
    "file",
    "final",
    "first",
    "fix",
    "follow",
    "form",
    "found",
    "full",
    "function",
    "gener",
    "given",
    "good",
    "happen",
    "help",
    "here",
    "ident",
    "import",
    "includ",
    "input",
    "insid",
    "instanc",
    "instead",
    "issu",
    "item",
    "keep",
    "kind",
    "last",
    "later",
    "least",
    "level",
    "like",
    "line",
    "list",
    "littl",
    "long",
    "look",
    "main",
    "make",
    "mean",
    "method",
    "might",
    "mode",
    "name",
    "need",
    "next",
    "note",
    "noth",
    "now",
    "number",
    "object",
    "onc",
    "onli",
    "open",
    "option",
    "order",
    "origin",
    "other",
    "output",
    "part",
    "pass",
    "path",
    "place",
    "point",
    "possibl",
    "previous",
    "problem",
    "process",
    "provid",
    "put",
    "read",
    "readi",
    "real",
    "reason",
    "recommend",
    "relat",
    "replac",
    "requir",
    "result",
    "return",
    "right",
    "run",
    "same",
    "second",
    "see",
    "separ",
    "set",
    "simpl",
    "sinc",
    "singl",
    "small",
    "someth",
    "step",
    "still",
    "string",
    "sure",
    "take",
    "test",
    "thing",
    "think",
    "time",
    "top",
    "true",
    "type",
    "updat",
    "use",
    "valu",
    "variabl",
    "version",
    "want",
    "way",
    "whole",
    "without",
    "work",
    "write",
    "wrong",
    "convert",
    "caller",
    "usual",
    "alreadi",
    "move",
    "abov",
    "happi",
    "pleas",
    "know",
];

/// Stems that stand for one another in requests and answers ("make it async"
/// answered with "non-blocking", "await"). Kept small and general.
const SYNONYMS: &[&[&str]] = &[
    &[
        "async",
        "asynchron",
        "await",
        "non",
        "block",
        "nonblock",
        "concurr",
        "futur",
        "promis",
        "coroutin",
        "asyncio",
        "synchron",
        "parallel",
        "thread",
    ],
    &[
        "databas", "db", "sql", "queri", "tabl", "schema", "row", "column", "index",
    ],
    &[
        "auth", "authent", "login", "logout", "password", "credenti", "token", "session", "oauth",
        "signin", "sign",
    ],
    &["delet", "remov", "drop", "eras", "purg", "clear"],
    &[
        "fix", "bug", "crash", "broken", "repair", "patch", "fault", "issu", "error", "except",
        "panic",
    ],
    &["test", "spec", "assert", "unittest", "pytest", "jest"],
    &[
        "fast", "speed", "perform", "optim", "slow", "latenc", "quick", "effici", "cach",
    ],
    &[
        "order", "purchas", "shipment", "deliveri", "packag", "track", "parcel", "ship", "courier",
        "transit",
    ],
    &[
        "refund",
        "reimburs",
        "money",
        "chargeback",
        "credit",
        "payment",
        "charg",
        "pay",
    ],
    &[
        "flight", "book", "reserv", "ticket", "seat", "airlin", "depart", "arriv", "fare", "trip",
    ],
    &[
        "account",
        "profil",
        "member",
        "subscript",
        "plan",
        "seat",
        "user",
        "teammat",
        "invit",
    ],
    &["renam", "name", "variabl", "identifi"],
    &[
        "file",
        "directori",
        "folder",
        "csv",
        "json",
        "yaml",
        "upload",
        "download",
    ],
    &[
        "style", "css", "layout", "design", "center", "centr", "align", "margin", "flex", "grid",
        "div",
    ],
    &["translat", "languag", "word", "phrase", "sentenc"],
    &[
        "deploy", "releas", "ship", "rollout", "server", "host", "contain", "docker", "kubernet",
        "k8s",
    ],
    &[
        "summar",
        "summari",
        "overview",
        "tl",
        "recap",
        "highlight",
        "key",
    ],
];

/// Words that announce an addition the user may not have asked for.
const ADDITION_CUES: &[&str] = &[
    "i also",
    "i've also",
    "i have also",
    "also added",
    "additionally",
    "in addition",
    "as a bonus",
    "bonus:",
    "while i was at it",
    "went ahead and",
    "i added",
    "i've added",
    "i have added",
    "i also added",
    "plus i",
    "另外",
    "还添加",
    "还加了",
    "顺便",
    "此外",
    "也加了",
    "también añadí",
    "también agregué",
    "además,",
    "de paso",
    "zusätzlich",
    "außerdem",
    "habe ich auch",
    "j'ai aussi",
    "j'ai également",
    "en plus,",
    "de plus,",
    "também adicionei",
    "além disso",
    "さらに",
    "ついでに",
    "также добавил",
    "кроме того",
    "заодно",
];

/// Words after which, in the same clause, the user rules something out.
/// ("Keep X unchanged" is not here: mentioning X is not breaking it.)
const NEGATION_CUES: &[&str] = &[
    " don't ",
    " do not ",
    " dont ",
    " never ",
    " without ",
    " avoid ",
    " no ",
    " not ",
    "不要",
    "别",
    "不用",
    " no añadas ",
    " no agregues ",
    " sin ",
    " nicht ",
    " kein",
    " ohne ",
    " ne ",
    " pas de ",
    " sans ",
    " não ",
    " sem ",
    "しないで",
    "ないで",
    " не ",
    " без ",
];

/// Verbs of the negated clause itself, which are not the forbidden thing.
const NEGATION_VERBS: &[&str] = &[
    "add", "use", "chang", "touch", "modifi", "introduc", "includ", "keep", "leav", "unchang",
    "make", "creat", "put", "write", "rewrit", "alter", "same", "is", "any", "ani", "extra", "new",
];

/// Families of names where answering with a sibling is answering another question.
const FAMILIES: &[&[&[&str]]] = &[
    &[
        &["python"],
        &["javascript", "node"],
        &["typescript"],
        &["java"],
        &["rust"],
        &["golang"],
        &["rubi"],
        &["php"],
        &["kotlin"],
        &["swift"],
        &["c#", "csharp"],
        &["c++", "cpp"],
        &["scala"],
        &["elixir"],
    ],
    &[&["react"], &["vue"], &["angular"], &["svelt"]],
    &[
        &["django"],
        &["flask"],
        &["fastapi"],
        &["express"],
        &["rail"],
        &["spring"],
        &["laravel"],
    ],
    &[
        &["postgr", "postgresql"],
        &["mysql"],
        &["sqlite"],
        &["mongodb", "mongo"],
        &["redi"],
        &["oracl"],
        &["dynamodb"],
    ],
    &[&["aw"], &["gcp"], &["azur"]],
    &[&["panda"], &["polar"]],
    &[&["npm"], &["yarn"], &["pnpm"]],
];

/// Function word → bit set of the Latin profiles it belongs to, built once:
/// one lookup per word instead of a scan of every profile.
fn profile_table() -> &'static HashMap<&'static str, u8, FastBuild> {
    static TABLE: OnceLock<HashMap<&'static str, u8, FastBuild>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t: HashMap<&'static str, u8, FastBuild> = HashMap::default();
        for (i, (_, words)) in LATIN_PROFILES.iter().enumerate() {
            for w in *words {
                *t.entry(w).or_default() |= 1 << i;
            }
        }
        t
    })
}

/// Top function words of the languages written with Latin script.
const LATIN_PROFILES: &[(&str, &[&str])] = &[
    (
        "en",
        &[
            "the", "and", "is", "to", "of", "it", "you", "this", "that", "with", "for", "are",
            "in", "be", "can", "i", "how", "what", "my", "an", "on", "your", "does", "do", "a",
        ],
    ),
    (
        "es",
        &[
            "el", "la", "de", "que", "y", "en", "los", "es", "por", "para", "con", "una", "las",
            "se", "del", "cómo", "qué", "mi",
        ],
    ),
    (
        "de",
        &[
            "der", "die", "das", "und", "ist", "nicht", "mit", "ein", "eine", "zu", "den", "sie",
            "es", "ich", "auf", "wie", "was", "mein",
        ],
    ),
    (
        "fr",
        &[
            "le", "la", "les", "et", "est", "de", "des", "un", "une", "pour", "que", "dans", "pas",
            "vous", "il", "comment", "je", "mon",
        ],
    ),
    (
        "pt",
        &[
            "o", "a", "os", "as", "de", "que", "e", "não", "um", "uma", "para", "com", "em", "do",
            "da", "como", "meu", "eu",
        ],
    ),
];

const TRANSLATION_CUES: &[&str] = &[
    "translat",
    "in english",
    "in spanish",
    "in german",
    "in french",
    "in portuguese",
    "in chinese",
    "in japanese",
    "in russian",
    "翻译",
    "用英文",
    "用中文",
    "英语",
    "traduc",
    "übersetz",
    "auf deutsch",
    "en français",
    "tradu",
    "em português",
    "en español",
    "翻訳",
    "英語で",
    "перевед",
    "по-английски",
];

fn lowercase(text: &str) -> String {
    text.to_lowercase().replace(['\u{2019}', '\u{2018}'], "'")
}

/// Removes fenced code: it is not in any human language and not the scope's words.
fn prose(text: &str) -> String {
    text.split("```").step_by(2).collect::<Vec<_>>().join(" ")
}

/// The human language of a text: by script, then by Latin function words.
pub fn language(text: &str) -> String {
    language_of(&lowercase(&prose(text)))
}

/// `language` of text already stripped of code and lowercased; looks at the
/// first 600 characters, plenty to tell a language.
fn language_of(lower: &str) -> String {
    let cut = lower
        .char_indices()
        .nth(600)
        .map_or(lower.len(), |(i, _)| i);
    let text = lower.get(..cut).unwrap_or(lower);
    let (mut han, mut kana, mut hangul, mut cyr, mut latin) = (0, 0, 0, 0, 0);
    for c in text.chars() {
        match c as u32 {
            0x3040..=0x30FF => kana += 1,
            0xAC00..=0xD7AF => hangul += 1,
            0x0400..=0x04FF => cyr += 1,
            _ if is_cjk(c) => han += 1,
            _ if c.is_ascii_alphabetic() || ('\u{C0}'..='\u{24F}').contains(&c) => latin += 1,
            _ => {}
        }
    }
    let total = han + kana + hangul + cyr + latin;
    if total == 0 {
        return String::new();
    }
    if kana * 10 >= total {
        return "ja".into();
    }
    if (han + kana) * 3 >= total {
        return "zh".into();
    }
    if hangul * 3 >= total {
        return "ko".into();
    }
    if cyr * 3 >= total {
        return "ru".into();
    }
    let lower = text;
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .collect();
    let table = profile_table();
    let mut counts = [0usize; 5];
    for w in &words {
        if let Some(mask) = table.get(w) {
            for (i, c) in counts.iter_mut().enumerate() {
                *c += usize::from(mask & (1 << i) != 0);
            }
        }
    }
    let mut scores: Vec<(usize, &str)> = LATIN_PROFILES
        .iter()
        .zip(counts)
        .map(|((lang, _), n)| (n, *lang))
        .collect();
    scores.sort_unstable_by(|a, b| b.cmp(a));
    // Short texts share function words across languages: require a clear lead.
    match (scores.first(), scores.get(1)) {
        (Some(&(best, lang)), Some(&(second, _))) if best >= 3 && best >= second + 2 => {
            lang.to_string()
        }
        _ => String::new(),
    }
}

fn stems_of(text: &str) -> Vec<String> {
    KeywordBag::from_text(text)
        .iter()
        .map(|(s, _, _)| s.to_string())
        .collect()
}

/// Family members named, given the lowercased text and its keyword bag.
fn tech_in(lower: &str, bag: &KeywordBag) -> Vec<String> {
    let mut found = Vec::new();
    for family in FAMILIES {
        for member in *family {
            let hit = member
                .iter()
                .any(|m| bag.contains_stem(m) || (m.contains(['#', '+']) && lower.contains(m)));
            if hit {
                found.push(member[0].to_string());
            }
        }
    }
    found
}

/// The clauses of `text` (sentences split further at commas and semicolons).
fn clauses(text: &str) -> Vec<&str> {
    text.split([
        '.', '!', '?', '\n', ';', ',', '。', '！', '？', '；', '，', ':', '：',
    ])
    .filter(|s| !s.trim().is_empty())
    .collect()
}

/// Whether a clause holds one of `cues`; spaces in a cue stand for word
/// boundaries (punctuation counts as one).
fn has_cue(clause_lower: &str, cues: &[&str]) -> bool {
    // Spaces in a cue stand for word boundaries; punctuation counts as one.
    let spaced: String = clause_lower
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '\'' || c > '\u{2FFF}' {
                c
            } else {
                ' '
            }
        })
        .collect();
    let padded = format!(" {spaced} ");
    cues.iter().any(|c| padded.contains(c))
}

/// Facts about a request: what it rules out, its language, the tech it names.
pub fn task_facts(task: &str, bag: &KeywordBag) -> TaskFacts {
    let lower = lowercase(task);
    let mut forbidden = Vec::new();
    for clause in clauses(&lower) {
        if !has_cue(clause, NEGATION_CUES) {
            continue;
        }
        for s in stems_of(clause) {
            if !NEGATION_VERBS.contains(&s.as_str())
                && !GENERIC.contains(&s.as_str())
                && !forbidden.contains(&s)
            {
                forbidden.push(s);
            }
        }
    }
    forbidden.truncate(MAX_FACTS);
    TaskFacts {
        forbidden,
        lang: language_of(&lower),
        tech: tech_in(&lower, bag),
        translation: TRANSLATION_CUES.iter().any(|c| lower.contains(c)),
    }
}

fn weight(stem: &str) -> f64 {
    if low_weight().contains(stem) {
        0.2
    } else if stem.chars().any(is_cjk) {
        // Character bigrams: many straddle two words and carry little.
        0.4
    } else if stem.chars().count() <= 3 {
        0.5
    } else {
        1.0
    }
}

/// Explanation and foreign function words, as a set: `weight` runs for every
/// word of every answer.
fn low_weight() -> &'static HashSet<&'static str, FastBuild> {
    static SET: OnceLock<HashSet<&'static str, FastBuild>> = OnceLock::new();
    SET.get_or_init(|| GENERIC.iter().chain(FUNCTION_WORDS).copied().collect())
}

/// Function words of the other supported languages (the English ones are
/// already stop words), so they do not count as unanchored content.
const FUNCTION_WORDS: &[&str] = &[
    "que",
    "para",
    "una",
    "uno",
    "los",
    "las",
    "del",
    "por",
    "con",
    "como",
    "pero",
    "más",
    "esta",
    "este",
    "esto",
    "puede",
    "puedes",
    "tiene",
    "hay",
    "sus",
    "cuando",
    "también",
    "sobre",
    "entre",
    "donde",
    "porque",
    "muy",
    "der",
    "die",
    "das",
    "und",
    "ist",
    "nicht",
    "mit",
    "ein",
    "eine",
    "einen",
    "dem",
    "den",
    "des",
    "sie",
    "ich",
    "auf",
    "wenn",
    "diese",
    "dieser",
    "dieses",
    "wird",
    "werden",
    "kann",
    "können",
    "auch",
    "noch",
    "oder",
    "aber",
    "sich",
    "sind",
    "hat",
    "haben",
    "bei",
    "aus",
    "nach",
    "vom",
    "zum",
    "zur",
    "dann",
    "dass",
    "wie",
    "was",
    "les",
    "des",
    "une",
    "pour",
    "dans",
    "pas",
    "vous",
    "est",
    "sont",
    "avec",
    "sur",
    "par",
    "qui",
    "mais",
    "ou",
    "cette",
    "ces",
    "peut",
    "peux",
    "votre",
    "vos",
    "nous",
    "leur",
    "aussi",
    "tout",
    "tous",
    "quand",
    "comme",
    "não",
    "uma",
    "com",
    "mais",
    "seu",
    "sua",
    "você",
    "está",
    "são",
    "pelo",
    "pela",
    "isso",
    "esse",
    "essa",
    "como",
    "também",
    "quando",
    "pode",
    "podem",
    "aqui",
    "onde",
    "это",
    "что",
    "как",
    "для",
    "или",
    "если",
    "так",
    "вы",
    "мы",
    "они",
    "его",
    "она",
    "при",
    "чтобы",
    "уже",
];

/// What anchors a response, prepared once per judgement: anchored means in
/// the request or its context exactly, through a synonym group, or by a shared
/// prefix of five characters (derivations the stemmer leaves apart).
struct Anchors<'a> {
    bags: &'a [&'a KeywordBag],
    glossary: &'a [String],
    /// Which synonym groups the anchors touch.
    groups: Vec<bool>,
    /// Five-character prefixes of anchor stems, sorted.
    prefixes: Vec<String>,
}

impl<'a> Anchors<'a> {
    fn new(bags: &'a [&'a KeywordBag], glossary: &'a [String]) -> Self {
        let groups = SYNONYMS
            .iter()
            .map(|g| g.iter().any(|s| bags.iter().any(|b| b.contains_stem(s))))
            .collect();
        let mut prefixes: Vec<String> = bags
            .iter()
            .flat_map(|b| b.iter())
            .filter(|(s, _, _)| s.chars().count() >= 5)
            .map(|(s, _, _)| s.chars().take(5).collect())
            .collect();
        prefixes.sort_unstable();
        prefixes.dedup();
        Self {
            bags,
            glossary,
            groups,
            prefixes,
        }
    }

    fn has(&self, stem: &str) -> bool {
        if self.bags.iter().any(|b| b.contains_stem(stem))
            || self.glossary.iter().any(|g| g == stem)
        {
            return true;
        }
        if SYNONYMS
            .iter()
            .zip(&self.groups)
            .any(|(g, on)| *on && g.contains(&stem))
        {
            return true;
        }
        match stem.char_indices().nth(5) {
            Some((cut, _)) => {
                let prefix = stem.get(..cut).unwrap_or(stem);
                self.prefixes
                    .binary_search_by(|p| p.as_str().cmp(prefix))
                    .is_ok()
            }
            None => {
                stem.chars().count() == 5
                    && self
                        .prefixes
                        .binary_search_by(|p| p.as_str().cmp(stem))
                        .is_ok()
            }
        }
    }
}

/// Judges one response. `anchors` are the bags of the request, earlier user
/// turns and this turn's tool traffic; `glossary` holds stems.
pub fn judge(
    facts: &TaskFacts,
    anchors: &[&KeywordBag],
    glossary: &[String],
    response: &str,
    resp_bag: &KeywordBag,
    off_topic_at: f64,
) -> DriftReport {
    let task = anchors.first().copied();
    let anchor = Anchors::new(anchors, glossary);
    let (mut total, mut loose) = (0.0, 0.0);
    let mut unanchored: Vec<(&str, &str, f64)> = Vec::new();
    // Weighed and anchored once per stem; everything below reuses it.
    let (mut resp_content, mut anchored_content) = (0usize, 0usize);
    for (stem, surface, count) in resp_bag.iter() {
        let base = weight(stem);
        let w = base * f64::from(count.min(3));
        total += w;
        let forbidden = facts.forbidden.iter().any(|f| f == stem);
        let held = !forbidden && anchor.has(stem);
        if base >= 0.5 {
            resp_content += 1;
            anchored_content += usize::from(held);
        }
        if !held {
            loose += w;
            unanchored.push((stem, surface, w));
        }
    }
    let score = if total > 0.0 { loose / total } else { 0.0 };
    unanchored.sort_by(|a, b| b.2.total_cmp(&a.2));
    let listed = |pick: &dyn Fn(&str) -> bool| -> Vec<String> {
        unanchored
            .iter()
            .filter(|(s, _, _)| pick(s))
            .take(MAX_LISTED)
            .map(|(_, f, _)| f.to_string())
            .collect()
    };
    let report = |cause, tokens| DriftReport {
        score,
        cause: Some(cause),
        tokens,
    };

    // Forbidden terms used outside a negated clause of the answer.
    let lower = lowercase(&prose(response));
    let mut used = Vec::new();
    // Only worth a clause-by-clause look when the request ruled something out
    // and the answer mentions it at all.
    let mentions = facts.forbidden.iter().any(|f| resp_bag.contains_stem(f));
    let negatable = if mentions {
        clauses(&lower)
    } else {
        Vec::new()
    };
    for clause in negatable {
        if has_cue(clause, NEGATION_CUES) {
            continue;
        }
        for s in stems_of(clause) {
            if facts.forbidden.contains(&s) && !used.contains(&s) {
                used.push(s);
            }
        }
    }
    if !used.is_empty() {
        let tokens: Vec<String> = resp_bag
            .iter()
            .filter(|(s, _, _)| used.iter().any(|u| u == s))
            .map(|(_, f, _)| f.to_string())
            .collect();
        return report(Cause::Forbidden, tokens);
    }
    // Another human language, unasked.
    let lang = if facts.translation || facts.lang.is_empty() {
        String::new()
    } else {
        language(response)
    };
    if !facts.translation
        && !facts.lang.is_empty()
        && !lang.is_empty()
        && lang != facts.lang
        && resp_bag.len() >= 4
    {
        return report(
            Cause::Language,
            vec![format!("answered in {lang}, asked in {}", facts.lang)],
        );
    }
    // A sibling technology instead of the one asked about.
    let resp_tech = if facts.tech.is_empty() {
        Vec::new()
    } else {
        tech_in(&lower, resp_bag)
    };
    if !facts.tech.is_empty()
        && !resp_tech.is_empty()
        && !resp_tech.iter().any(|t| facts.tech.contains(t))
        && same_family(&facts.tech, &resp_tech)
    {
        return report(Cause::Framework, resp_tech);
    }
    // Announced additions carrying new content.
    let mut added = Vec::new();
    let announces = has_cue(&lower, ADDITION_CUES);
    for sentence in lower
        .split(['.', '!', '?', '\n', '。', '！', '？'])
        .filter(|_| announces)
    {
        if !has_cue(sentence, ADDITION_CUES) {
            continue;
        }
        for s in stems_of(sentence) {
            if weight(&s) > 0.2 && !anchor.has(&s) && !added.contains(&s) {
                added.push(s);
            }
        }
    }
    if added.len() >= 2 {
        let tokens = listed(&|s| added.iter().any(|a| a == s));
        return report(Cause::Additions, tokens);
    }
    // Hardly anything anchored at all: a long answer may touch one request
    // word in passing, a short one none; a question back is never off topic.
    let content = |st: &str| weight(st) >= 0.5;
    let task_content = task.map_or(0, |t| t.iter().filter(|(st, _, _)| content(st)).count());
    let asks_back = response.trim_end().ends_with(['?', '？']) && response.len() < 400;
    if task_content >= 1
        && resp_content >= 2
        && anchored_content <= resp_content / 20
        && score >= off_topic_at
        && !asks_back
    {
        return report(Cause::OffTopic, listed(&|_| true));
    }
    DriftReport {
        score,
        cause: None,
        tokens: Vec::new(),
    }
}

fn same_family(a: &[String], b: &[String]) -> bool {
    FAMILIES.iter().any(|f| {
        let has = |xs: &[String]| xs.iter().any(|x| f.iter().any(|m| m[0] == x));
        has(a) && has(b)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(task: &str, response: &str) -> DriftReport {
        let facts = task_facts(task, &KeywordBag::from_text(task));
        let t = KeywordBag::from_text(task);
        let r = KeywordBag::from_text(response);
        judge(&facts, &[&t], &[], response, &r, 0.85)
    }

    #[test]
    fn verbose_on_topic_and_paraphrase_stay_quiet() {
        let r = run(
            "Why does my tokio program panic with \"Cannot start a runtime from within a runtime\"?",
            "That panic means some code called block_on while already inside a tokio runtime. The usual culprit is a \
             synchronous helper that builds its own runtime; make the helper async and await it, or move the work to \
             spawn_blocking so the runtime is not nested.",
        );
        assert_eq!(r.cause, None, "{r:?}");
        assert_eq!(
            run(
                "Make this function async.",
                "Converted it to non-blocking code: callers now await it."
            )
            .cause,
            None
        );
        assert_eq!(
            run(
                "Fix the bug.",
                "Which bug do you mean? Could you paste the error message?"
            )
            .cause,
            None
        );
        assert_eq!(run("Rename tmp to buffer.", "Done.").cause, None);
    }

    #[test]
    fn each_cause_fires_on_its_case() {
        assert_eq!(
            run("How do I center a div horizontally?", "To make the navbar stick to the top while scrolling, give the header position sticky and a z-index.").cause,
            Some(Cause::OffTopic)
        );
        assert_eq!(
            run(
                "Refactor fetch_user to be async. Don't add logging.",
                "Here it is, async now, with logging on each call."
            )
            .cause,
            Some(Cause::Forbidden)
        );
        assert_eq!(
            run("Refactor fetch_user to be async.", "Here is fetch_user, async now. I also added a retry loop with exponential backoff and tracing spans.").cause,
            Some(Cause::Additions)
        );
        assert_eq!(
            run("Write a Python function that sums a CSV column.", "Here's a JavaScript version using node's fs module to read the file and sum the column.").cause,
            Some(Cause::Framework)
        );
        assert_eq!(
            run("Explain how the borrow checker works in Rust.", "El verificador de préstamos comprueba que las referencias sean válidas y que no haya dos referencias mutables a la vez.").cause,
            Some(Cause::Language)
        );
    }

    #[test]
    fn a_respected_negation_is_not_drift() {
        let r = run(
            "Refactor fetch_user to be async. Don't add logging.",
            "Done: fetch_user is async. No logging added.",
        );
        assert_eq!(r.cause, None, "{r:?}");
    }

    #[test]
    fn language_detection() {
        assert_eq!(
            language("The quick brown fox jumps over the lazy dog and it is fine"),
            "en"
        );
        assert_eq!(language("请把这个函数改成异步"), "zh");
        assert_eq!(language("この関数を非同期にしてください"), "ja");
        assert_eq!(language("Это не работает"), "ru");
        assert_eq!(
            language("Das ist nicht was ich wollte und es ist falsch"),
            "de"
        );
    }
}
