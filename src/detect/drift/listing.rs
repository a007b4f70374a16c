//! The order a warning lists the answer's new words in. A person pointing at
//! what was added points at names — an identifier, a product, a library —
//! before plain content words, and never at "ihren", "aquí" or "j'ai": the
//! weight of a word (how often it occurs) ties on most words and says nothing
//! about that, so the listing sorts by this tier first.

use super::additions;
use super::scan::Scanned;
use super::words::{FUNCTION_WORDS, profile_table};
use crate::text::is_cjk;
use crate::text::table::{StrTable, key_hash};
use std::sync::OnceLock;

/// Tiers, listed in this order.
const NAME: u8 = 0;
const CONTENT: u8 = 1;
const ACTION: u8 = 2;
const FRAGMENT: u8 = 3;
pub(super) const FILLER: u8 = 4;

/// The answer's words that it writes as names: inside code, or capitalised
/// where a sentence does not start.
pub(super) struct Names<'a> {
    code: Vec<&'a str>,
    capitalised: Vec<&'a str>,
}

impl<'a> Names<'a> {
    pub(super) fn new(s: &'a Scanned) -> Self {
        let (mut code, mut capitalised) = (Vec::new(), Vec::new());
        for (i, w) in s.words.iter().enumerate() {
            let opens = i == 0 || s.words.get(i - 1).is_none_or(|p| p.sentence != w.sentence);
            if w.code {
                code.push(s.text_of(w));
            } else if w.caps || (w.initial && !opens) {
                capitalised.push(s.text_of(w));
            }
        }
        for v in [&mut code, &mut capitalised] {
            crate::sort::sort(v);
            v.dedup();
        }
        Self { code, capitalised }
    }
}

/// The listing tier of a new word, as a keyword bag gives it: lowercase
/// (the answer's own capitals and code are in `names`).
pub(super) fn tier(surface: &str, names: &Names) -> u8 {
    let among = |v: &Vec<&str>| v.binary_search(&surface).is_ok();
    // "5GB", "6h30", "10h": quantities, however they are written.
    let quantity = surface.starts_with(|c: char| c.is_ascii_digit());
    if quantity {
        CONTENT
    } else if looks_like_identifier(surface) || among(&names.code) {
        NAME
    } else if is_filler(surface) {
        // Before capitals: formal "Ihre" is capitalised mid-sentence.
        FILLER
    } else if is_fragment(surface) {
        FRAGMENT
    } else if among(&names.capitalised) {
        NAME
    } else if additions::is_action_word(surface) {
        ACTION
    } else {
        CONTENT
    }
}

/// `snake_case`, `v3.11`, `i18next`: written for a machine. (A bag's words
/// are lowercase: `camelCase` is told by the answer's code, in `Names`.)
fn looks_like_identifier(surface: &str) -> bool {
    let mut chars = surface.chars().skip(1);
    let (mut digit, mut letter) = (false, false);
    chars.any(|c| {
        digit |= c.is_ascii_digit();
        letter |= c.is_alphabetic();
        matches!(c, '_' | '.') || (digit && letter)
    })
}

/// A CJK bigram that is grammar or half of two words: it holds a particle,
/// or starts with a character no word starts with (small kana, ー, ン).
fn is_fragment(surface: &str) -> bool {
    const PARTICLES: &str = "的了是在我你他她们个和也就都而及与着或把被给这那有为以于之其将还又很の는はがをにでともしますた";
    const NO_START: &str = "ァィゥェォッャュョヮーンぁぃぅぇぉっゃゅょゎん";
    surface.chars().any(|c| is_cjk(c) && PARTICLES.contains(c))
        || surface.chars().next().is_some_and(|c| NO_START.contains(c))
}

/// Function words and filler of the supported languages.
fn is_filler(word: &str) -> bool {
    // Entries are byte offsets into `FILLER_WORDS`; past its end, indices
    // into `FUNCTION_WORDS`. No table of slices is kept for either list.
    static TABLE: OnceLock<StrTable> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        let mut t = StrTable::with_capacity(FILLER_WORDS.len() / 6 + FUNCTION_WORDS.len());
        let mut at = 0;
        for w in FILLER_WORDS.split(' ') {
            if !w.is_empty() {
                t.insert(key_hash(w), at as u32);
            }
            at += w.len() + 1;
        }
        for (i, w) in FUNCTION_WORDS.iter().enumerate() {
            t.insert(key_hash(w), (FILLER_WORDS.len() + i) as u32);
        }
        t
    });
    let word_at = |i: u32| {
        let i = i as usize;
        match i.checked_sub(FILLER_WORDS.len()) {
            None => FILLER_WORDS
                .get(i..)
                .and_then(|rest| rest.split(' ').next())
                .unwrap_or(""),
            Some(f) => FUNCTION_WORDS.get(f).copied().unwrap_or(""),
        }
    };
    profile_table().contains_key(word) || table.find(key_hash(word), word, word_at).is_some()
}

/// Pronouns, auxiliaries, adverbs and stock phrases of the languages whose
/// function words the other tables do not already hold.
#[rustfmt::skip]
const FILLER_WORDS: &str = concat!(
    // English (the stop words are never listed)
    "almost anyway certainly definitely basically simply really quite ",
    "probably perhaps maybe usually instead however please thanks ",
    "sure okay ok let's i've i'll i'm we've we'll you'll you're ",
    "it's that's there's here's done make made get got ",
    // German
    "ihr ihre ihren ihrem ihrer ihres euch euer eure uns unser ",
    "unsere unseren unserem unserer wir mich mir dich dir ihm ",
    "ihn sein seine seinen seinem seiner mein meine meinen meinem ",
    "dein deine kein keine keinen einem einer eines waren wurde ",
    "wurden worden bin bist seid habe hast hatte hatten gibt ",
    "soll sollte sollten muss müssen möchte möchten würde würden ",
    "könnte hier dort jetzt heute immer wieder bitte gerne gern ",
    "nur ganz mehr viel viele etwas alle allen alles jede jeden ",
    "jeder dabei dafür dazu darauf daher denn doch also über ",
    "unter vor durch gegen ohne bis seit zwischen während weil ",
    "ob als nun gut gute guten direkt einfach natürlich gemacht ",
    // Spanish
    "hace hacer hecho favor aquí ahí allí estamos estoy estás ",
    "están estaba tengo tienes tienen tenemos hemos han fue era ",
    "ser sido son soy eres somos puedo podemos pueden quiero ",
    "usted ustedes nosotros ellos ellas ella les nos mis tus ",
    "nuestro nuestra nuestros nuestras cada todo toda todos todas ",
    "otro otra otros otras mismo misma aún todavía siempre nunca ",
    "ahora luego después antes bien solo sólo sin hasta desde ",
    "hacia según durante mientras así algo nada mucho mucha muchos ",
    "poco bastante tan tanto pues entonces aunque dejo claro listo ",
    "directamente ",
    // French
    "j'ai c'est n'est qu'il qu'elle qu'ils qu'on d'un d'une être ",
    "avoir été fait faire avons avez ont suis sommes êtes était ",
    "sera serait pouvez pouvons doit devez elle ils elles lui ",
    "eux mon mes ton tes son ses notre nos leurs cet cela ",
    "ça ceci celui celle ici très bien plus moins encore déjà ",
    "toujours jamais ainsi donc alors puis ensuite car sans sous ",
    "chez vers avant après pendant depuis chaque quelque quelques ",
    "autre autres même toute toutes rien voici voilà ",
    // Portuguese
    "umas uns minha minhas meu meus seus suas nosso nossa ",
    "nossos nossas dele dela eles elas ele ela eu nós vocês ",
    "lhe foi foram estou estamos estão tenho tem temos têm ter ",
    "tinha fazer feito faz vai vou vamos posso ali lá já ",
    "ainda sempre nunca agora depois antes bem muito muita muitos ",
    "pouco só sem até desde sobre entre cada todo toda todos ",
    "todas outro outra outros outras mesmo mesma isto este esta ",
    "estes estas então pois nem favor ",
    // Italian
    "il lo gli della delle dei degli nel nella nei sul sulla ",
    "per tra fra che chi non più molto anche ancora già ",
    "sempre mai ora adesso poi dopo prima subito qui qua lì ",
    "ho hai abbiamo avete hanno sono sei siamo siete stato ",
    "stata essere avere fare fatto può puoi possiamo vuoi voglio ",
    "mio mia miei mie tuo tua suo sua suoi nostro nostra ",
    "vostro loro lei noi voi questo questa questi queste quello ",
    "quella ogni tutto tutta tutti tutte altro altra altri stesso ",
    "così quindi però perché dove quando senza fino vedere dire ",
    // Russian
    "немного больше меньше очень ещё еще тоже также только всё ",
    "все всех всем весь вся каждый каждое каждая каждого который ",
    "которая которое которые этот эта эти этого этой тот та те ",
    "того там тут здесь сейчас теперь потом затем можно нужно ",
    "надо будет было была были быть есть нет вы вас вам ваш ",
    "ваша ваше ваши вашего вашей мы нас нам наш наша меня ",
    "мне ты тебя он оно их им него неё свой свою своё ",
    "свои себя сам сама самый чем когда где куда почему потому ",
    "поэтому либо но да без под над после перед через между ",
    "около вместе сделал сделала сделали ",
);

#[cfg(test)]
mod tests {
    use super::*;

    fn tier_of(word: &str, answer: &str) -> u8 {
        let s = Scanned::new(answer);
        tier(word, &Names::new(&s))
    }

    #[test]
    fn identifiers_and_names_come_before_plain_words() {
        let answer = "I also wired in Sentry and a `retry_policy` helper for the upload.";
        assert_eq!(tier_of("sentry", answer), NAME);
        assert_eq!(tier_of("retry_policy", answer), NAME);
        assert_eq!(tier_of("readconfig", "Call `readConfig()` first."), NAME);
        assert_eq!(tier_of("readconfig", "Call readConfig first."), CONTENT);
        assert_eq!(tier_of("v3.11", "Use v3.11 there."), NAME);
        assert_eq!(tier_of("i18next", answer), NAME);
        assert_eq!(tier_of("helper", answer), CONTENT);
        // Quantities are no names, however they are written.
        assert_eq!(tier_of("6h30", "Breakfast from 6h30."), CONTENT);
        assert_eq!(tier_of("5gb", "You get 5GB free."), CONTENT);
        assert_eq!(tier_of("ec2", "Run it on EC2."), NAME);
        // The capital that opens a sentence is no name.
        assert_eq!(tier_of("also", "Also check the upload."), FILLER);
        assert_eq!(tier_of("upload", "Upload the file. Then stop."), CONTENT);
    }

    #[test]
    fn function_words_of_every_language_come_last() {
        for w in [
            "ihren",
            "aquí",
            "j'ai",
            "minhas",
            "немного",
            "subito",
            "almost",
        ] {
            assert_eq!(tier_of(w, "Plain text here."), FILLER, "{w}");
        }
        // Capitalised formal "Ihre" mid-sentence is still a function word.
        assert_eq!(tier_of("ihre", "Wir haben Ihre Adresse."), FILLER);
    }

    #[test]
    fn every_listed_function_word_is_found() {
        let words = FILLER_WORDS.split(' ').filter(|w| !w.is_empty());
        for w in words.chain(FUNCTION_WORDS.iter().copied()) {
            assert_eq!(w, w.to_lowercase(), "lists are lowercase");
            assert!(is_filler(w), "{w}");
        }
        assert!(!is_filler("premium"));
    }

    #[test]
    fn word_fragments_and_report_verbs_come_after_content() {
        assert_eq!(tier_of("ョン", "コントリビューション"), FRAGMENT);
        assert_eq!(tier_of("的数", "的数据"), FRAGMENT);
        assert_eq!(tier_of("解説", "文法解説"), CONTENT);
        assert_eq!(tier_of("implemented", "I implemented it."), ACTION);
    }
}
