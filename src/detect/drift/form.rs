//! Limits on the answer's size and shape that a count can check: "in under
//! 50 words", "three bullet points", "in two sentences", "one paragraph",
//! "no bullet points", "no code", "plain text, no Markdown", "no tables".
//! An answer breaks them without any tell-tale word, so the word rules of
//! `negation` cannot see it: only counting its words, lines and marks can.

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

use super::limits::outside_fences;
use super::scan::Scanned;
use super::words::WordTable;
use crate::text::is_cjk;

/// What the request asks of the answer's size and shape (0 / false: nothing).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Form {
    #[serde(default)]
    pub max_words: u16,
    /// The count is a target ("in 100 words", "a 200-word summary"), not a
    /// cap ("under 100 words"): it gets more slack.
    #[serde(default)]
    pub word_target: bool,
    #[serde(default)]
    pub max_chars: u16,
    #[serde(default)]
    pub max_sentences: u8,
    #[serde(default)]
    pub max_paragraphs: u8,
    /// "Three bullet points", "give me 5 name ideas", "top 3".
    #[serde(default)]
    pub max_items: u8,
    #[serde(default)]
    pub no_lists: bool,
    #[serde(default)]
    pub no_code: bool,
    /// Plain text: no Markdown marks at all.
    #[serde(default)]
    pub plain_text: bool,
    #[serde(default)]
    pub no_headings: bool,
    #[serde(default)]
    pub no_tables: bool,
    /// No formulas or equations.
    #[serde(default)]
    pub no_formulas: bool,
}

crate::json::typed::from_json!(Form {
    opt max_words: "maxWords",
    opt word_target: "wordTarget",
    opt max_chars: "maxChars",
    opt max_sentences: "maxSentences",
    opt max_paragraphs: "maxParagraphs",
    opt max_items: "maxItems",
    opt no_lists: "noLists",
    opt no_code: "noCode",
    opt plain_text: "plainText",
    opt no_headings: "noHeadings",
    opt no_tables: "noTables",
    opt no_formulas: "noFormulas",
});

impl Form {
    pub fn is_empty(&self) -> bool {
        *self == Form::default()
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Unit {
    Words,
    Chars,
    Sentences,
    Paragraphs,
    Items,
}

/// Count nouns, exact (lowercase); Russian ones go by stem (`RU_UNITS`).
const UNITS: &[(Unit, &[&str])] = &[
    (
        Unit::Words,
        &[
            "word", "words", "wörter", "wörtern", "worte", "worten", "mot", "mots", "palabra",
            "palabras", "palavra", "palavras", "parola", "parole", "単語", "词",
        ],
    ),
    (
        Unit::Chars,
        &[
            "character",
            "characters",
            "chars",
            "zeichen",
            "caractère",
            "caractères",
            "carácter",
            "caracteres",
            "caratteri",
            "字",
        ],
    ),
    (
        Unit::Sentences,
        &[
            "sentence",
            "sentences",
            "satz",
            "sätze",
            "sätzen",
            "phrase",
            "phrases",
            "frase",
            "frases",
            "frasi",
            "oración",
            "oraciones",
            "句",
        ],
    ),
    (
        Unit::Paragraphs,
        &[
            "paragraph",
            "paragraphs",
            "absatz",
            "absätze",
            "absätzen",
            "paragraphe",
            "paragraphes",
            "párrafo",
            "párrafos",
            "parágrafo",
            "parágrafos",
            "paragrafo",
            "paragrafi",
            "段",
        ],
    ),
    (
        Unit::Items,
        &[
            "bullet",
            "bullets",
            "point",
            "points",
            "item",
            "items",
            "idea",
            "ideas",
            "tip",
            "tips",
            "option",
            "options",
            "reason",
            "reasons",
            "suggestion",
            "suggestions",
            "name",
            "names",
            "title",
            "titles",
            "alternative",
            "alternatives",
            "examples",
            "questions",
            "headlines",
            "slogans",
            "taglines",
            "recommendations",
            "synonyms",
            "punkte",
            "stichpunkte",
            "ideen",
            "tipps",
            "optionen",
            "gründe",
            "namen",
            "titel",
            "vorschläge",
            "beispiele",
            "alternativen",
            "fragen",
            "idées",
            "conseils",
            "raisons",
            "noms",
            "titres",
            "exemples",
            "puntos",
            "consejos",
            "opciones",
            "razones",
            "sugerencias",
            "nombres",
            "títulos",
            "ejemplos",
            "alternativas",
            "preguntas",
            "viñetas",
            "pontos",
            "ideias",
            "dicas",
            "opções",
            "razões",
            "sugestões",
            "nomes",
            "exemplos",
            "perguntas",
            "tópicos",
            "punti",
            "idee",
            "consigli",
            "opzioni",
            "motivi",
            "suggerimenti",
            "nomi",
            "titoli",
            "esempi",
            "domande",
            "つ",
            "個",
            "点",
            "条",
        ],
    ),
];

/// Russian count nouns change their ending with the number: matched by stem.
const RU_UNITS: &[(Unit, &str)] = &[
    (Unit::Words, "слов"),
    (Unit::Chars, "символ"),
    (Unit::Chars, "знак"),
    (Unit::Sentences, "предложени"),
    (Unit::Paragraphs, "абзац"),
    (Unit::Items, "пункт"),
    (Unit::Items, "иде"),
    (Unit::Items, "совет"),
    (Unit::Items, "вариант"),
    (Unit::Items, "причин"),
    (Unit::Items, "названи"),
    (Unit::Items, "пример"),
];

fn unit_of(word: &str) -> Option<Unit> {
    UNITS
        .iter()
        .find(|(_, words)| words.contains(&word))
        .map(|(u, _)| *u)
        .or_else(|| {
            RU_UNITS
                .iter()
                .find(|(_, stem)| word.starts_with(stem))
                .map(|(u, _)| *u)
        })
}

/// Number words from one to ten in the supported languages.
const NUMERALS: &[&[&str]] = &[
    &[
        "one",
        "single",
        "eins",
        "einzigen",
        "один",
        "одно",
        "одна",
        "одним",
        "одном",
        "一",
    ],
    &[
        "two",
        "zwei",
        "deux",
        "dos",
        "dois",
        "duas",
        "due",
        "два",
        "две",
        "двух",
        "двумя",
        "二",
        "两",
    ],
    &[
        "three",
        "drei",
        "trois",
        "tres",
        "três",
        "tre",
        "три",
        "трёх",
        "трех",
        "тремя",
        "三",
    ],
    &[
        "four",
        "vier",
        "quatre",
        "cuatro",
        "quatro",
        "quattro",
        "четыре",
        "четырёх",
        "四",
    ],
    &[
        "five", "fünf", "cinq", "cinco", "cinque", "пять", "пяти", "五",
    ],
    &["six", "sechs", "seis", "sei", "шесть", "шести", "六"],
    &[
        "seven", "sieben", "sept", "siete", "sete", "sette", "семь", "七",
    ],
    &[
        "eight",
        "acht",
        "huit",
        "ocho",
        "oito",
        "otto",
        "восемь",
        "八",
    ],
    &["nine", "neun", "neuf", "nueve", "nove", "девять", "九"],
    &["ten", "zehn", "dix", "diez", "dez", "dieci", "десять", "十"],
];

/// Numeral → value, built once: one hash lookup per word of the request.
fn numerals() -> &'static WordTable {
    static TABLE: std::sync::OnceLock<WordTable> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (1u64..)
            .zip(NUMERALS)
            .flat_map(|(n, words)| words.iter().map(move |w| (*w, n)))
            .collect()
    })
}

/// Articles that mean one before "sentence" or "paragraph" ("in a
/// sentence", "in einem Absatz", "en une phrase"), never before items.
const ARTICLES: &[&str] = &[
    "a", "an", "ein", "eine", "einem", "einen", "un", "une", "una", "uno", "um", "uma",
];

/// Adjectives allowed between an article and its noun.
const SHORT: &[&str] = &[
    "short", "single", "brief", "concise", "kurzen", "kurzer", "einzigen", "courte", "seule",
    "corta", "sola", "curta", "única", "breve",
];

/// Prepositions that make a count of words the answer's length.
const MANNER: &[&str] = &[
    "in",
    "with",
    "using",
    "en",
    "con",
    "mit",
    "em",
    "com",
    "в",
    "одним",
];

/// Words around a count that make it a cap, not a target.
const CAPS: &[&str] = &[
    "under",
    "below",
    "max",
    "maximum",
    "most",
    "fewer",
    "less",
    "within",
    "exceed",
    "more",
    "limit",
    "tops",
    "höchstens",
    "maximal",
    "unter",
    "weniger",
    "mehr",
    "moins",
    "plus",
    "menos",
    "máximo",
    "más",
    "mais",
    "até",
    "meno",
    "massimo",
    "più",
    "более",
    "до",
    "меньше",
    "максимум",
    "不超过",
    "以内",
    "以下",
    "之内",
    "内",
];

/// The number written at word `i`, if any: digits ("50", "1,000") or a
/// numeral from one to ten.
fn number_at(s: &Scanned, i: usize, articles: bool) -> Option<(u32, usize)> {
    let w = s.word(i);
    if !w.is_empty() && w.len() <= 5 && w.bytes().all(|b| b.is_ascii_digit()) {
        let mut n: u32 = w.parse().ok()?;
        // "1,000" and "1 000" are one number to the scanner's two words.
        let next = s.word(i + 1);
        let gap = match (s.words.get(i), s.words.get(i + 1)) {
            (Some(a), Some(b)) => s.text.get(a.end as usize..b.start as usize).unwrap_or(""),
            _ => "",
        };
        if next.len() == 3
            && next.bytes().all(|b| b.is_ascii_digit())
            && matches!(gap, "," | "." | " ")
        {
            n = n * 1000 + next.parse::<u32>().ok()?;
            return Some((n, i + 2));
        }
        return Some((n, i + 1));
    }
    if let Some(&n) = numerals().get(w) {
        return Some((n as u32, i + 1));
    }
    (articles && ARTICLES.contains(&w)).then_some((1, i + 1))
}

/// The size limits a request sets by counting: "under 50 words", "three
/// bullet points", "top 5", "in two sentences", "一段话". Returns the
/// figures the counts were written with.
pub fn counted(s: &Scanned, form: &mut Form) -> Vec<String> {
    let mut figures = Vec::new();
    for i in 0..s.words.len() {
        let Some(w) = s.words.get(i).filter(|w| !w.code && !w.quoted) else {
            continue;
        };
        // "top 5" asks for five items.
        if s.word(i) == "top"
            && let Some((n, _)) = number_at(s, i + 1, false)
        {
            set(&mut form.max_items, n);
            figures.push(n.to_string());
            continue;
        }
        let numeral = number_at(s, i, false);
        let Some((n, after)) = numeral.or_else(|| number_at(s, i, true)) else {
            continue;
        };
        // The noun follows at once, after one adjective ("3 short bullet
        // points"), or after a counter ("三句话", "3个建议").
        let unit = (after..after + 3)
            .take_while(|&j| s.words.get(j).is_some_and(|x| x.clause == w.clause))
            .find_map(|j| unit_of(s.word(j)).map(|u| (u, j)));
        let Some((unit, at)) = unit else { continue };
        // An article counts one only right before the noun, or before
        // "short" ("in a short paragraph"): "a few sentences" is no count.
        let article = numeral.is_none();
        let next_to_noun = at == after || (at == after + 1 && SHORT.contains(&s.word(after)));
        // "Answer in one word", "con una sola parola": a few words after a
        // preposition are a length; "give me 3 words for it" asks for items.
        let manner = i
            .checked_sub(1)
            .is_some_and(|p| MANNER.contains(&s.word(p)));
        let counted_one =
            matches!(unit, Unit::Sentences | Unit::Paragraphs) || (unit == Unit::Words && manner);
        if article && (!counted_one || !next_to_noun) {
            continue;
        }
        let capped = (i.saturating_sub(3)..at + 4).any(|j| CAPS.contains(&s.word(j)));
        match unit {
            // Under ten words only "in 5 words" is a length (see `manner`).
            Unit::Words if n >= 10 || manner => {
                form.max_words = n.min(u32::from(u16::MAX)) as u16;
                form.word_target = !capped && n >= 10;
            }
            Unit::Chars if n >= 10 => form.max_chars = n.min(u32::from(u16::MAX)) as u16,
            Unit::Sentences => set(&mut form.max_sentences, n),
            Unit::Paragraphs => set(&mut form.max_paragraphs, n),
            Unit::Items if n <= 20 && !article => set(&mut form.max_items, n),
            _ => continue,
        }
        if !article && figures.len() < 8 {
            figures.push(n.to_string());
        }
    }
    figures
}

fn set(slot: &mut u8, n: u32) {
    if n > 0 && n <= 50 {
        *slot = n as u8;
    }
}

/// Whether the prose of an answer breaks `form`; the reason, as a person
/// would say it, first.
pub fn broken(form: &Form, response: &str, s: &Scanned) -> Option<Vec<String>> {
    if form.is_empty() {
        return None;
    }
    let prose = outside_fences(response);
    let lines = || prose.lines().map(str::trim_end);
    if form.max_words > 0 {
        let words = s.units(|w| !w.code).round() as u32;
        let cap = u32::from(form.max_words);
        let allowed = if form.word_target {
            cap * 3 / 2 + 10
        } else {
            cap + cap / 5 + 5
        };
        if words > allowed {
            return Some(vec![format!("{words} words, asked for {cap}")]);
        }
    }
    if form.max_chars > 0 {
        let chars = response.trim().chars().count() as u32;
        let cap = u32::from(form.max_chars);
        if chars > cap + cap / 5 + 5 {
            return Some(vec![format!("{chars} characters, asked for {cap}")]);
        }
    }
    if form.max_sentences > 0 {
        let n = s.prose_sentences();
        if n > usize::from(form.max_sentences) + 1 {
            return Some(vec![format!(
                "{n} sentences, asked for {}",
                form.max_sentences
            )]);
        }
    }
    if form.max_paragraphs > 0 {
        let n = prose
            .split("\n\n")
            .filter(|p| {
                p.split_whitespace().count() >= 3 || p.chars().filter(|&c| is_cjk(c)).count() >= 6
            })
            .count();
        if n > usize::from(form.max_paragraphs) + 1 {
            return Some(vec![format!(
                "{n} paragraphs, asked for {}",
                form.max_paragraphs
            )]);
        }
    }
    let items = lines().filter(|l| is_list_item(l)).count();
    if form.max_items > 0 && items > usize::from(form.max_items) {
        return Some(vec![format!("{items} items, asked for {}", form.max_items)]);
    }
    // Any list line, nested ones included (`items` counts the top level).
    let listed = lines().filter(|l| is_list_item(l.trim_start())).count();
    if form.no_lists && listed >= 2 {
        return Some(vec!["a list".into()]);
    }
    if form.no_code && response.contains("```") {
        return Some(vec!["code".into()]);
    }
    let heading = |l: &str| heading(l).is_some();
    let table = || lines().any(|l| l.trim_start().starts_with('|') && l.contains("---"));
    if form.no_headings && lines().any(heading) {
        return Some(vec!["headings".into()]);
    }
    if form.no_tables && table() {
        return Some(vec!["a table".into()]);
    }
    if form.no_formulas
        && let Some(f) = formula(response)
    {
        return Some(vec![f]);
    }
    if form.plain_text {
        let marks: Vec<String> = [
            (response.contains("```"), "code block"),
            (prose.contains("**") || prose.contains("__"), "bold"),
            (lines().any(heading), "headings"),
            (table(), "a table"),
            (listed >= 2, "a list"),
            (prose.contains("](http"), "a link"),
        ]
        .iter()
        .filter(|(found, _)| *found)
        .map(|(_, mark)| format!("Markdown {mark}"))
        .collect();
        if !marks.is_empty() {
            return Some(marks);
        }
    }
    None
}

/// The first formula of a text: math signs (Σ, √, x²), LaTeX, a spreadsheet
/// formula (`=SUM(`), or an equation between names (`Var(X) = E[…]`).
fn formula(text: &str) -> Option<String> {
    const SIGNS: &[&str] = &[
        "Σ", "∑", "√", "²", "³", "∫", "≈", "±", "\\frac", "\\sum", "$$",
    ];
    if let Some(sign) = SIGNS.iter().find(|m| text.contains(**m)) {
        return Some((*sign).to_string());
    }
    for line in text.lines() {
        let t = line.trim();
        if t.starts_with('=') && t[1..].starts_with(|c: char| c.is_ascii_uppercase()) {
            return Some(t.chars().take(24).collect());
        }
        // "x = a + b": a name or a closing bracket, then " = ", then more.
        for (i, _) in t.match_indices(" = ") {
            let before = t[..i].chars().last();
            let after = t[i + 3..].chars().next();
            if before.is_some_and(|c| c.is_alphanumeric() || c == ')')
                && after.is_some_and(|c| c.is_alphanumeric() || "([-".contains(c))
                && !t.contains("://")
            {
                return Some(t.chars().take(40).collect());
            }
        }
    }
    None
}

/// The title of a Markdown heading line ("## Roadmap" → "Roadmap").
pub fn heading(line: &str) -> Option<&str> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    let title = line.get(hashes..)?.strip_prefix(' ')?.trim();
    ((1..=6).contains(&hashes) && !title.is_empty()).then_some(title)
}

/// A list line: "- x", "* x", "• x", "+ x", "1. x", "2) x".
fn is_list_item(line: &str) -> bool {
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    let rest = &line[digits..];
    if digits > 0 {
        return digits <= 2 && (rest.starts_with(". ") || rest.starts_with(") "));
    }
    ["- ", "* ", "• ", "+ ", "– "]
        .iter()
        .any(|m| line.starts_with(m))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form_of(task: &str) -> Form {
        let mut f = Form::default();
        let _ = counted(&Scanned::new(task), &mut f);
        f
    }

    #[test]
    fn counts_in_requests() {
        let f = form_of("Summarise this in under 50 words.");
        assert_eq!((f.max_words, f.word_target), (50, false));
        let f = form_of("Write a 200-word product description.");
        assert_eq!((f.max_words, f.word_target), (200, true));
        assert_eq!(
            form_of("Give me three bullet points on the risks.").max_items,
            3
        );
        assert_eq!(form_of("Suggest 5 catchy names for a bakery").max_items, 5);
        assert_eq!(form_of("What are the top 3 causes?").max_items, 3);
        assert_eq!(form_of("Explain it in two sentences.").max_sentences, 2);
        assert_eq!(form_of("Erkläre es in einem Absatz.").max_paragraphs, 1);
        assert_eq!(form_of("用三句话解释一下").max_sentences, 3);
        assert_eq!(form_of("Résume en 100 mots maximum.").max_words, 100);
        assert_eq!(form_of("Ответь не более чем в 30 словах").max_words, 30);
        // No count: a version, words as items, an article before items.
        assert!(form_of("I'm on Python 3 and have 2 servers.").is_empty());
        assert_eq!(form_of("Describe it in 5 words").max_words, 5);
        assert_eq!(
            form_of("Rispondi con una sola parola: qual è la capitale?").max_words,
            1
        );
        assert!(form_of("Give me 3 words that rhyme with cat").is_empty());
        assert!(form_of("What's a word for happy?").is_empty());
        assert!(form_of("Can you suggest a name for my cat?").is_empty());
        assert!(form_of("Explain it in a few sentences.").is_empty());
        assert_eq!(form_of("Answer in a short paragraph.").max_paragraphs, 1);
    }

    #[test]
    fn counts_in_answers() {
        let check = |f: &Form, answer: &str| broken(f, answer, &Scanned::new(answer));
        let f = form_of("Give me three bullet points on the risks.");
        assert!(check(&f, "- cost\n- time\n- scope").is_none());
        let five = "- cost\n- time\n- scope\n- staff\n- vendors";
        assert_eq!(check(&f, five).unwrap()[0], "5 items, asked for 3");
        let f = form_of("Summarise this in under 20 words.");
        assert!(check(&f, "Sales rose twelve percent, driven by exports, which now make up over a third of revenue.").is_none());
        let long = "word ".repeat(40);
        assert!(check(&f, &long).is_some());
        let f = form_of("Explain it in two sentences.");
        assert!(check(&f, "It caches. It expires after an hour.").is_none());
        assert!(check(&f, "It caches. It expires. It refreshes. It logs.").is_some());
    }
}
