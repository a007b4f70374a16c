//! House styles a user corrects across requests, each under several words:
//! "km please" … "km/h like before" … "metric!"; "Bitte siezen" … "Sie
//! bitte" … "gesiezt!!"; "British spelling" … "uk spelling again" …
//! "flavour. optimised."; "です・ます調で" … "敬体で". A text names a
//! concept when it holds any of its words; corrections that name one concept
//! are corrections of one thing (`detect::corrections::rules`,
//! `detect::insist`), whatever word each used. The answer's language is no
//! concept here: an answer is in a language rather than naming it, so "in
//! English" would read as left out of every English answer.
//!
//! Reads a bounded window: one pass over its words (a hash lookup each) and
//! a bounded number of substring searches for the phrases.

use std::collections::HashMap;
use std::sync::OnceLock;

use crate::hash::FastBuild;
use crate::text::chars;

/// Bytes of a text read for its concepts: corrections name them early.
pub const WINDOW_BYTES: usize = 600;

struct Concept {
    key: &'static str,
    /// Whole words, `|`-separated, lowercase; a trailing `*` matches a prefix.
    words: &'static str,
    /// Substrings (CJK, several words, symbols), `|`-separated, lowercase.
    phrases: &'static str,
}

/// In the word map: the word starts an ASCII phrase (no concept has this
/// bit: there are fewer than 32).
const STARTS_A_PHRASE: u32 = 1 << 31;

/// The concepts; at most 31 (a text's concepts are a bit set).
static CONCEPTS: &[Concept] = &[
    Concept {
        key: "metric",
        words: "metric|metrisch|métrique|métrico|métrica|metrico|metrica|km|kms|km/h|kmh|\
                kilometre|kilometres|kilometer|kilometers|kilómetros|kilomètres|kilometern|\
                quilômetros|celsius|kg|kilogram|kilograms|kilogramm|grams|grammes|gramos|gramas|\
                gramm|ml|millilitres|milliliters|mililitros|метрическ*|километр*|цельси*|грамм*",
        phrases: "公里|公制|千米|摄氏|キロメートル|メートル法|摂氏|°c",
    },
    Concept {
        key: "imperial",
        words: "imperial|miles|mph|fahrenheit|lbs|feet|inches|meilen|milles|millas|milhas|миль|мили|милях|миля|\
                cups|ounces|oz",
        phrases: "英里|华氏|マイル|華氏|°f",
    },
    Concept {
        key: "formal address",
        words: "siezen|gesiezt|siezt|sie-form|sie/ihnen|vouvoyer|vouvoie|vouvoyez|vouvoiement|\
                usted|ustedes|formell|förmlich",
        phrases: "sie bitte|bitte sie|nicht du|statt du|nicht duzen|pas tu|no tú|на вы|敬体|です・ます|ですます|丁寧語|您",
    },
    Concept {
        key: "informal address",
        words: "duzen|geduzt|duzt|du-form|tutoyer|tutoie|tutoyez|tutoiement|tutea|tutear",
        phrases: "на ты|常体|である調",
    },
    Concept {
        key: "British spelling",
        words: "british|uk|colour|colours|flavour|favour|behaviour|organise|organised|optimise|\
                optimised|analyse|analysed|customise|customised|realise|centre|honour|labour",
        phrases: "",
    },
    Concept {
        key: "24-hour time",
        words: "24h|24-hour|24hr|24-hours|24-stunden|24-uhr|am/pm",
        phrases: "24 hour|24 heures|24 horas|24 uhr|24 часа|24小时|24時間",
    },
    Concept {
        key: "ISO dates",
        words: "iso|iso-8601|iso8601|yyyy-mm-dd",
        phrases: "",
    },
    Concept {
        key: "day-first dates",
        words: "dd/mm/yyyy|dd/mm/aaaa|jj/mm/aaaa|dd.mm.yyyy|tt.mm.jjjj|dd/mm|día/mes/año|dia/mês/ano|\
                jour/mois/année|дд.мм.гггг",
        phrases: "日/月/年",
    },
    Concept {
        key: "indentation",
        words: "tabs|indent|indentation|indented|einrückung|indentación|indentação|tabulador|\
                tabuladores|tabulaciones|tabulations|tabulações|отступ*|табы|табуляци*",
        phrases: "缩进|インデント",
    },
    Concept {
        key: "euros",
        words: "eur|euro|euros",
        phrases: "€|欧元|ユーロ",
    },
    Concept {
        key: "dollars",
        words: "usd|dollar|dollars|dólares|dólar",
        phrases: "美元|ドル",
    },
    Concept {
        key: "uv",
        words: "uv|uvx",
        phrases: "",
    },
];

struct Index {
    /// Whole word → the concepts it names.
    words: HashMap<&'static str, u32, FastBuild>,
    /// A bit per (length, first two bytes) of some word: most words of
    /// prose miss it and need no hash lookup.
    sieve: [u64; 16],
    /// Prefix → concepts (few: Russian stems).
    prefixes: Vec<(&'static str, u32)>,
    /// Phrases of ASCII words, searched only in a text holding their first
    /// word ("sie bitte" where "sie" is a word).
    ascii: Vec<(&'static str, &'static str, u32)>,
    /// The rest, searched only in a text that is not all ASCII.
    other: Vec<(&'static str, u32)>,
}

fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    INDEX.get_or_init(|| {
        let mut idx = Index {
            words: HashMap::default(),
            sieve: [0; 16],
            prefixes: Vec::new(),
            ascii: Vec::new(),
            other: Vec::new(),
        };
        for (i, c) in CONCEPTS.iter().enumerate() {
            let bit = 1u32 << i;
            for w in c.words.split('|').filter(|w| !w.is_empty()) {
                match w.strip_suffix('*') {
                    Some(p) => idx.prefixes.push((p, bit)),
                    None => idx.add_word(w, bit),
                }
            }
            for p in c.phrases.split('|').filter(|p| !p.is_empty()) {
                match p.split_once(' ') {
                    Some((first, _)) if p.is_ascii() => {
                        idx.ascii.push((first, p, bit));
                        idx.add_word(first, STARTS_A_PHRASE);
                    }
                    _ => idx.other.push((p, bit)),
                }
            }
        }
        idx
    })
}

/// Where a word (its bytes, either case) falls in the sieve.
fn sieve_key(b: &[u8]) -> usize {
    let at = |i: usize| usize::from(b.get(i).copied().unwrap_or(0).to_ascii_lowercase());
    (at(0) * 31 + at(1) * 7 + b.len() * 131) % 1024
}

impl Index {
    /// Adds `bits` to word `w`, in the map and the sieve.
    fn add_word(&mut self, w: &'static str, bits: u32) {
        *self.words.entry(w).or_default() |= bits;
        let k = sieve_key(w.as_bytes());
        self.sieve[k / 64] |= 1 << (k % 64);
    }

    /// Whether an ASCII word may be in the word map.
    fn sifts(&self, w: &[u8]) -> bool {
        let k = sieve_key(w);
        self.sieve[k / 64] & (1 << (k % 64)) != 0
    }
}

/// A byte of a word: ASCII letters and digits, the joiners a unit or a
/// format keeps ("km/h", "24-hour", "sie-form"), and any byte of a
/// non-ASCII character (trimmed of punctuation after).
fn in_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'/') || !b.is_ascii()
}

/// The words of `text`, split on ASCII bytes (so each is valid UTF-8).
fn words(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut at = 0;
    std::iter::from_fn(move || {
        while at < bytes.len() && !in_word(bytes[at]) {
            at += 1;
        }
        let start = at;
        while at < bytes.len() && in_word(bytes[at]) {
            at += 1;
        }
        (at > start).then(|| text.get(start..at).unwrap_or(""))
    })
}

/// The concepts `text` names, as a bit set (bit `i` is concept `i`).
/// Called on every answer, so the common case (English prose naming no
/// style) costs one pass of word lookups and no phrase search.
pub fn concepts_in(text: &str) -> u32 {
    let window = &text[..text.floor_char_boundary(WINDOW_BYTES.min(text.len()))];
    let idx = index();
    let mut found = 0u32;
    let mut lower = String::new();
    let mut starts: Vec<&str> = Vec::new();
    for raw in words(window) {
        let ascii = raw.is_ascii();
        let word = if ascii {
            raw.trim_matches(['-', '/'])
        } else {
            raw.trim_matches(|c: char| {
                matches!(c, '-' | '/') || !c.is_ascii() && !chars::is_alphanumeric(c)
            })
        };
        // ASCII words (most of them) meet the sieve before any other work.
        if word.is_empty() || word.len() > 24 || ascii && !idx.sifts(word.as_bytes()) {
            continue;
        }
        let word = if word
            .bytes()
            .any(|b| b.is_ascii_uppercase() || !b.is_ascii())
        {
            lower.clear();
            lower.extend(word.chars().flat_map(char::to_lowercase));
            lower.as_str()
        } else {
            word
        };
        if let Some(&bits) = idx.words.get(word) {
            found |= bits & !STARTS_A_PHRASE;
            if bits & STARTS_A_PHRASE != 0 {
                for &(first, p, _) in &idx.ascii {
                    if first == word && !starts.contains(&p) {
                        starts.push(p);
                    }
                }
            }
        }
        if !ascii {
            for &(p, bit) in &idx.prefixes {
                if word.starts_with(p) {
                    found |= bit;
                }
            }
        }
    }
    let all_ascii = window.is_ascii();
    if starts.is_empty() && all_ascii {
        return found;
    }
    let text = window.to_lowercase();
    let ascii = idx.ascii.iter().filter(|(_, p, _)| starts.contains(p));
    let phrases = ascii
        .map(|&(_, p, bit)| (p, bit))
        .chain(idx.other.iter().copied().filter(|_| !all_ascii));
    for (p, bit) in phrases {
        if found & bit == 0 && text.contains(p) {
            found |= bit;
        }
    }
    found
}

/// The names of the concepts in a bit set of `concepts_in`.
pub fn names(bits: u32) -> impl Iterator<Item = &'static str> {
    (0u32..)
        .zip(CONCEPTS)
        .filter(move |(i, _)| bits & (1 << i) != 0)
        .map(|(_, c)| c.key)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn named(text: &str) -> Vec<&'static str> {
        names(concepts_in(text)).collect()
    }

    #[test]
    fn a_house_style_is_named_by_any_of_its_words() {
        for text in [
            "miles? we're in germany lol. km please",
            "km/h like before pls",
            "metric. always metric for this dataset",
            "公里，不要英里",
        ] {
            assert!(named(text).contains(&"metric"), "{text}");
        }
        for text in [
            "Bitte siezen",
            "wieder du... Sie bitte",
            "gesiezt!! Sie/Ihnen",
            "これも敬体で",
            "Sie, nicht du!!",
            "usted, no tú",
        ] {
            assert_eq!(named(text), ["formal address"], "{text}");
        }
        for text in [
            "en grammes stp, j'ai pas de cups",
            "toujours en g / ml",
            "grammes et ml !!",
        ] {
            assert!(named(text).contains(&"metric"), "{text}");
        }
        for text in [
            "las fechas ponlas dd/mm/aaaa",
            "eso es formato gringo, día/mes/año",
        ] {
            assert_eq!(named(text), ["day-first dates"], "{text}");
        }
        for text in [
            "tabs, no espacios",
            "otra vez con espacios, tabulador",
            "табуляция",
        ] {
            assert_eq!(named(text), ["indentation"], "{text}");
        }
        assert_eq!(
            named("flavour. optimised. british english!"),
            ["British spelling"]
        );
        assert_eq!(
            named("I've asked for 24-hour times twice now"),
            ["24-hour time"]
        );
        assert_eq!(named("uv again please... uv add --dev"), ["uv"]);
    }

    #[test]
    fn ordinary_words_name_no_concept() {
        for text in [
            "sie hat gesagt, dass es morgen regnet",
            "go ahead and deploy",
            "add zod to the project",
            "what's the color of the button",
            "",
        ] {
            assert!(named(text).is_empty(), "{text}: {:?}", named(text));
        }
    }

    #[test]
    fn concepts_fit_a_bit_set_and_a_long_text_reads_a_window() {
        assert!(CONCEPTS.len() < 32);
        let long = format!("{} metric", "word ".repeat(1_000_000));
        assert_eq!(concepts_in(&long), 0, "beyond the window");
    }
}
