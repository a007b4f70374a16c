//! Which human language a text is written in: by script, then by the
//! function words of the languages written in Latin script.

use super::scan::{KeyTable, Scanned};
use super::words::{LATIN_PROFILES, profile_table};
use crate::text::is_cjk;
use std::sync::OnceLock;

/// The human language of a text.
pub fn language(text: &str) -> String {
    language_of_scanned(&Scanned::new(text))
}

/// The language of a scanned text, from its prose words (code is in no
/// human language), the first 600 characters' worth: plenty to tell.
pub fn language_of_scanned(s: &Scanned) -> String {
    Counts::of(s, 600).verdict(&s.text)
}

/// The Latin-script languages whose function words a short text uses
/// ("Die Lieferung dauert drei Werktage." → de; "Le colis arrivera
/// demain." → fr or it): a weaker verdict than `language`'s, for a
/// translation whose target is known.
pub fn leaning(s: &Scanned) -> Vec<&'static str> {
    let counts = Counts::of(s, usize::MAX);
    if !counts.mostly_latin() {
        return Vec::new();
    }
    LATIN_PROFILES
        .iter()
        .zip(counts.profiles)
        .filter(|(_, n)| *n > 0)
        .map(|((lang, _), _)| *lang)
        .collect()
}

/// The byte length of the longest Latin profile word: longer words need no
/// lookup.
fn longest_profile_word() -> usize {
    static LONGEST: OnceLock<usize> = OnceLock::new();
    *LONGEST.get_or_init(|| {
        LATIN_PROFILES
            .iter()
            .flat_map(|(_, words)| words.iter())
            .map(|w| w.len())
            .max()
            .unwrap_or(0)
    })
}

/// `profile_table` by scan key: the words' keys are computed already.
fn profile_keys() -> &'static KeyTable<u64> {
    static TABLE: OnceLock<KeyTable<u64>> = OnceLock::new();
    TABLE.get_or_init(|| KeyTable::new(profile_table().iter().map(|(w, m)| (*w, *m)).collect()))
}

/// Letters per script, and function-word hits per Latin-script language.
#[derive(Default)]
struct Counts {
    han: usize,
    kana: usize,
    hangul: usize,
    cyr: usize,
    latin: usize,
    profiles: [usize; 6],
}

/// Spellings only one language of `LATIN_PROFILES` (en, es, de, fr, pt, it)
/// uses: "¿", "ñ" are Spanish, "ã" Portuguese, "ß" German, "œ" French.
fn marks(text: impl Iterator<Item = char>) -> [usize; 6] {
    let mut m = [0usize; 6];
    for c in text {
        let i = match c {
            '¿' | '¡' | 'ñ' | 'Ñ' => 1,
            'ß' | 'ä' | 'Ä' => 2,
            'œ' | 'Œ' | 'ë' | 'û' => 3,
            'ã' | 'õ' | 'Ã' | 'Õ' => 4,
            _ => continue,
        };
        if let Some(n) = m.get_mut(i) {
            *n += 1;
        }
    }
    m
}

impl Counts {
    /// The counts of a text's prose words (code is in no human language),
    /// until `max_chars` bytes' worth have been read.
    fn of(s: &Scanned, max_chars: usize) -> Self {
        let (mut counts, mut chars) = (Counts::default(), 0usize);
        for w in s.words.iter().filter(|w| !w.code && !w.caps) {
            if chars >= max_chars {
                break;
            }
            let t = s.text_of(w);
            chars += t.len();
            counts.add_word(t, w.key());
        }
        counts
    }

    fn total(&self) -> usize {
        self.han + self.kana + self.hangul + self.cyr + self.latin
    }

    /// Half the letters or more are Latin.
    fn mostly_latin(&self) -> bool {
        self.latin * 2 >= self.total()
    }

    /// Counts one word; `key` is its scan key.
    fn add_word(&mut self, word: &str, key: u32) {
        if word.is_ascii() {
            self.latin += word.bytes().filter(u8::is_ascii_alphabetic).count();
        } else {
            self.add_letters(word);
        }
        if word.len() > longest_profile_word() {
            return;
        }
        if let Some(mask) = profile_keys().get(key, |w| w == word) {
            for (i, c) in self.profiles.iter_mut().enumerate() {
                *c += usize::from(mask & (1 << i) != 0);
            }
        }
    }

    fn add_letters(&mut self, word: &str) {
        for c in word.chars() {
            match c as u32 {
                0x3040..=0x30FF => self.kana += 1,
                0xAC00..=0xD7AF => self.hangul += 1,
                0x0400..=0x04FF => self.cyr += 1,
                _ if c.is_ascii_alphabetic() || ('\u{C0}'..='\u{24F}').contains(&c) => {
                    self.latin += 1;
                }
                _ if is_cjk(c) => self.han += 1,
                _ => {}
            }
        }
    }

    fn verdict(&self, text: &str) -> String {
        let total = self.total();
        if total == 0 {
            return String::new();
        }
        if self.kana * 10 >= total {
            return "ja".into();
        }
        if (self.han + self.kana) * 3 >= total {
            return "zh".into();
        }
        if self.hangul * 3 >= total {
            return "ko".into();
        }
        if self.cyr * 3 >= total {
            return "ru".into();
        }
        // The language with a clear lead in function words, each profile's
        // count raised by `bonus`. Short texts share function words across
        // languages: a lead is required.
        let lead = |bonus: [usize; 6]| {
            let mut scores: Vec<(usize, &str)> = LATIN_PROFILES
                .iter()
                .zip(self.profiles.iter().zip(bonus))
                .map(|((lang, _), (n, b))| (n + b, *lang))
                .collect();
            crate::sort::sort_by(&mut scores, |a, b| b.cmp(a));
            match (scores.first(), scores.get(1)) {
                (Some(&(best, lang)), Some(&(second, _)))
                    if (best >= 3 && best >= second + 2) || (best == 2 && second == 0) =>
                {
                    Some(lang.to_string())
                }
                _ => None,
            }
        };
        if let Some(lang) = lead([0; 6]) {
            return lang;
        }
        // Too few function words: a spelling only one language uses counts
        // as two of them ("¿Dónde está la estación?"). Counted only now:
        // most texts are decided above.
        if !self.mostly_latin() {
            return String::new();
        }
        let marks = marks(text.chars().take(600));
        if marks.iter().all(|&n| n == 0) {
            return String::new();
        }
        lead(marks.map(|m| 2 * m.min(1))).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::language;

    #[test]
    fn short_texts_are_told_by_spellings_only_one_language_uses() {
        assert_eq!(language("¿Dónde está la estación de tren?"), "es");
        assert_eq!(language("Onde fica a estação de trem?"), "pt");
        // Without such a spelling, a short text stays undecided.
        assert_eq!(language("Dove si trova la stazione?"), "");
        // Function words still decide when they are clear: an English
        // sentence quoting Spanish is English.
        assert_eq!(
            language("In Spanish you would ask ¿Dónde está? when you are lost in the city."),
            "en"
        );
    }
}
