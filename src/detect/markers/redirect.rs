//! A redirect away from a word of the previous answer, written without the
//! comma the contrast rule (`reply.rs`) looks for: a reply that
//! opens by negating it ("not login, the signup function", "não era essa
//! planilha, era a de junho", "nicht die Tabelle, …") or an English "X not
//! Y" ("i meant the staging db not prod"). Only when the answer asked
//! nothing ("Deploy now?" — "Not now" answers), and never after a verb or
//! an auxiliary ("it's not working" is for the failure rules, "I do not
//! want" for the refusals).
//!
//! And a clause that opens by saying what the user meant ("I meant the
//! staging db", "non je parlais du fichier de prod", "Я имел в виду другой
//! файл"), unless it thanks ("je voulais dire merci") or follows a word
//! ("that's the order I meant").

use super::frames::{Found, Frame, listed, pieces};
use super::reply::{Previous, is_word, occurrences, rejected, skip_interjection};
use super::scan::{fam, glad};

/// Negations that open a redirect.
const OPENING: &str = "not|não era|não é|nao era|no era|no es|nicht|pas|ce n'est pas|c'est pas";

/// Words after which "not" negates a verb, not a noun: "it's not working",
/// "do not use", "I'm not sure", "I'd rather not cancel".
const VERBAL: &str = "is|are|was|were|be|been|am|do|does|did|can|could|will|would|should|shall|\
                      may|might|must|have|has|had|it's|its|that's|thats|i'm|im|you're|we're|\
                      they're|he's|she's|there's|why|or|and|if|but|please|just|still|really|i|\
                      you|we|they|it|he|she|this|that|so|then|also|yet|certainly|definitely|\
                      probably|maybe|absolutely|rather|prefer|want|wants|need|needs|hope|try|\
                      tried|decided|chose|asked|told|said|whether|course|sure|least|better|best";

/// What the user meant, opening a clause.
pub(super) static MEANT: &[Frame] = &[Frame::new(
    "en",
    "i meant|i was talking about|i was asking about|i was referring to|i'm talking about|\
           me refería a|me refería al|yo hablaba de|estaba hablando de|ich meinte|ich rede von|\
           ich sprach von|je parlais de|je parlais du|je parlais des|je voulais dire|\
           eu quis dizer|eu estava falando d|eu me referia|me referia a|я имел в виду|\
           я имела в виду|я про другой|я про другую|я говорил про|я говорила про",
)];

/// What the user asked for, opening a clause: a redirect only when the
/// message then sets it against something ("I wanted the median, you gave
/// me the mean"; "я спрашивал про nginx, а не про apache"), since "I wanted
/// the blue one and you got it right" is praise.
pub(super) static ASKED: &[Frame] = &[
    Frame::new(
        "en",
        "i asked for|i asked about|i was asking for|what i asked for|what i asked was|\
               i wanted the|i wanted a|i wanted an|what i wanted was|yo pedí|yo pedi|\
               lo que pedí|lo que pedi|yo quería|yo queria|ich wollte|ich hatte nach|\
               j'ai demandé|je voulais|je demandais|eu pedi|eu queria|o que eu pedi|\
               я спрашивал|я спрашивала|я просил|я просила|я хотел|я хотела",
    ),
    Frame::new(
        "zh",
        "我要的是|我问的是|我说的是|我想要的是|聞いたのは|聞いてるのは|欲しいのは|知りたいのは|\
               頼んだのは",
    ),
];

/// What sets the request against the answer, after an `ASKED` opening.
pub(super) static AGAINST: &[Frame] = &[
    Frame::new(
        "en",
        "not|instead|you gave|you sent|you did|you wrote|you answered|you used|you made|\
               nicht|kein|keine|statt|du hast|pas|non|au lieu|tu as|no|en vez|en lugar|\
               me diste|me pasaste|não|nao|em vez|você deu|voce deu|vc deu|не|а не|вместо|\
               ты дал|ты дала|ты написал|ты написала",
    ),
    Frame::new(
        "zh",
        "不是|而不是|你给|你却|你给的|じゃな|ではな|でなく|ではなく",
    ),
];

/// Words that may come before a clause opening: "no, I meant…", "sorry, I
/// meant…", "non je parlais…".
const LEAD: &str = "no|nope|sorry|oh|oops|wait|hmm|um|uh|but|actually|well|nein|non|não|nao|нет|いや|いえ|不|不是|\
                    perdón|perdona|pardon|desculpa|sorry|извини|ah|ach|ой";

/// "I meant …" opening a clause, in a message that does not thank; or "I
/// asked for …" opening one and set against what came after.
fn meant(t: &str, found: &Found) -> Option<(usize, usize)> {
    let opens = |a: usize| {
        let head = t
            .get(t.floor_char_boundary(a.saturating_sub(40))..a)
            .unwrap_or("");
        let clause = head
            .rsplit(['.', '!', '?', ';', ',', ':', '、', '。'])
            .next()
            .unwrap_or("");
        let starts = head.len() < 40 || clause.len() < head.len();
        starts
            && clause
                .split(|c: char| !is_word(c))
                .filter(|w| !w.is_empty())
                .all(|w| listed(LEAD, w))
    };
    found
        .find(fam::MEANT, |a, _| opens(a))
        .or_else(|| {
            found.find(fam::ASKED, |a, b| {
                // "I asked about pricing last time; what's the enterprise
                // tier?" recalls a request to make a new one.
                let asks = t.get(a..).unwrap_or("").contains(['?', '？']);
                opens(a) && !asks && found.any_in(fam::AGAINST, b, t.len().min(b + 160))
            })
        })
        .filter(|_| !glad(found, 0, t.len()))
}

/// "Wrong" beside the first word of a reply: "Falsches Datum, ich wollte den
/// 14.", "Mauvaise date", "Data errada, era dia 14".
const WRONG: &str = "wrong|falsch|falsches|falscher|falsche|falschen|mauvaise|mauvais|errada|errado|\
                     equivocado|equivocada|incorrecto|incorrecta|incorrect|incorrecte|incorreto|\
                     incorreta|неправильный|неправильная|неправильное|неверный|неверная|неверное";

/// A reply whose first two words name a wrong thing, then stop: "Wrong
/// flight, I wanted LH 404" (not in a question).
fn wrong_thing(t: &str) -> Option<(usize, usize)> {
    if t.contains(['?', '？']) {
        return None;
    }
    let t0 = skip_interjection(t.trim_start_matches(|c: char| !c.is_alphanumeric()));
    let off = t.len() - t0.len();
    let mut words = t0.split(' ').take(3);
    let (a, b) = (words.next()?, words.next()?);
    let b_bare = b.trim_end_matches([',', '.', '!', ':', ';']);
    let stops = b.len() > b_bare.len() || words.next().is_none();
    // "Wrong table." opens with the opener rule's own word.
    let wrong = (listed(WRONG, a) && a != "wrong") || listed(WRONG, b_bare);
    (wrong && stops && a.chars().all(is_word) && b_bare.chars().all(is_word))
        .then_some((off, off + a.len() + 1 + b_bare.len()))
}

/// Negations written after the word they reject.
const AFTER: &str = "no|não|nao|not|non|nicht|нет|nope";

/// A reply that opens with a word of the answer and then says no to it:
/// "semana não, mês!", "Woche nicht, Monat", "the black no, the blue one".
/// The negation ends a clause: "dia não funciona" reports, it does not
/// redirect.
fn postposed(t0: &str, prev: Previous<'_>) -> Option<(usize, usize)> {
    let end = rejected(t0, 0, prev.keywords)?;
    let rest = t0.get(end..)?;
    let no = rest.trim_start();
    let word = no.split(|c: char| !is_word(c)).next()?;
    let after = no.get(word.len()..)?;
    let closes = after.is_empty() || after.starts_with([',', '!', '.', ';', ':', '—', '-']);
    (listed(AFTER, word) && closes).then(|| (0, end + (rest.len() - no.len()) + word.len()))
}

/// The span of a redirect in normalised reply `t`.
pub fn redirect(t: &str, prev: Previous<'_>, found: &Found) -> Option<(usize, usize)> {
    if prev.asked {
        return meant(t, found);
    }
    let t0 = skip_interjection(t.trim_start_matches(|c: char| !c.is_alphanumeric()));
    let off = t.len() - t0.len();
    let opening = pieces(OPENING).find_map(|w| {
        if !t0.starts_with(w) {
            return None;
        }
        let (0, end) = occurrences(t0, w, true).next()? else {
            return None;
        };
        rejected(t0, end, prev.keywords).map(|stop| (off, off + stop))
    });
    opening
        .or_else(|| postposed(t0, prev).map(|(a, b)| (off + a, off + b)))
        .or_else(|| meant(t, found))
        .or_else(|| wrong_thing(t))
        .or_else(|| {
            occurrences(t, "not", true).take(8).find_map(|(a, b)| {
                let before = t.get(..a)?.trim_end();
                let word_at = before.rfind(|c: char| !is_word(c)).map_or(0, |i| i + 1);
                let word = before.get(word_at..)?;
                let noun = !word.is_empty()
                    && before.len() == word_at + word.len()
                    && !listed(VERBAL, word)
                    && !word.ends_with("n't")
                    && !word.ends_with("ly");
                let question = t.get(b..)?.split(['.', '!', ';']).next()?.contains('?');
                (noun && !question)
                    .then(|| rejected(t, b, prev.keywords).map(|stop| (a, stop)))
                    .flatten()
            })
        })
}

#[cfg(test)]
mod tests {
    use crate::detect::markers::frames::tests::fires;

    #[test]
    fn a_negated_word_of_the_answer_opening_a_reply_redirects() {
        let login = "I added email validation to `login()` in auth.py.";
        assert!(fires("not login, the signup function", login));
        assert!(fires(
            "não era essa planilha, era a de junho",
            "Atualizei os totais na planilha de maio."
        ));
        assert!(fires(
            "i meant the staging db not prod!!",
            "I ran the migration on the production database (db-prod-1)."
        ));
        // Not when it answers a question, softens, or negates a verb.
        assert!(!fires("not now", "Shall I run the login migration now?"));
        assert!(!fires("not just login, the signup function too", login));
        assert!(!fires(
            "the login page is not loading yet",
            "I restyled the page."
        ));
        assert!(!fires("it's not login related, just a question", login));
        // The negation after the word: "week no, month!".
        let weeks = "Agora agrupei com date_trunc('week'): 53 linhas, uma por semana.";
        assert!(fires("semana não, mês!", weeks));
        assert!(!fires("semana no longer matters, thanks", weeks));
        assert!(
            !fires("mês não, semana!", weeks),
            "the rejected word is the answer's"
        );
    }

    #[test]
    fn what_the_user_meant_opening_a_clause_redirects() {
        let prev = "J'ai ajouté la variable `API_URL` dans `config/dev.yml`.";
        for msg in [
            "non je parlais du fichier de prod, pas celui de dev",
            "sorry, I meant the prod config",
            "Я имел в виду другой файл",
            "Mauvaise date, c'était le 14",
            "Data errada, era dia 14",
        ] {
            assert!(fires(msg, prev), "{msg}");
        }
        for msg in [
            "yes, that's the file I meant. thanks",
            "je voulais dire merci, c'est parfait",
        ] {
            assert!(!fires(msg, prev), "{msg}");
        }
    }

    #[test]
    fn what_the_user_asked_for_set_against_the_answer_redirects() {
        let mean = "The average order value across the 12 months is $84.20.";
        for (msg, prev) in [
            ("I wanted the median, you gave me the mean", mean),
            (
                "я спрашивал про nginx, а не про apache",
                "В Apache редирект делается через Redirect permanent.",
            ),
            (
                "je voulais trier par date de livraison pas date de commande",
                "Voici la requête triée par date_commande.",
            ),
            (
                "我要的是繁体，你给的是简体",
                "这是翻译好的菜单：宫保鸡丁、麻婆豆腐。",
            ),
            (
                "いや、聞いたのは Vue の書き方で React じゃないです",
                "React なら useState を使います。",
            ),
        ] {
            assert!(fires(msg, prev), "{msg}");
        }
        // Praise, a recalled request before a new question, and nothing set
        // against the request are no redirect.
        for msg in [
            "I wanted the median and this is exactly it",
            "I wanted a short version, now make one for Twitter too",
            "I asked about pricing in the last chat; what's the enterprise tier?",
            "我要的是这个，完美",
        ] {
            assert!(!fires(msg, mean), "{msg}");
        }
    }
}
