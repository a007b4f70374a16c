//! "Still" or "again" opening a reply, then the very thing the user named
//! before or the answer said: "still 6 lines??" after "it's 6 lines, I said
//! 4", "that's still threads under the hood" after "asyncio, not threads",
//! "опять формула" after "без формул". The user is telling the answer it
//! did not change what they objected to. Not good news ("still works"), not
//! the user's own plans ("still need to deploy"), not a pause ("still,
//! thanks").

use super::frames::{Found, listed, words_from};
use super::reply::{Previous, skip_interjection};
use super::scan::fam;
use crate::text::KeywordBag;

/// What may open the reply before the "still": "that's still threads".
const SUBJECTS: &str = "that's|thats|it's|its|this is|that is|it is|this|it|that|is it|and|but";

/// Words passed over between "still" and the thing named.
const SKIP: &str = "not|no|the|a|an|on|in|at|of|using|with|showing|returning|giving|over|under|\
                    just|only|un|una|el|la|los|las|en|con|sin|con|nicht|kein|keine|der|die|das|\
                    mit|ohne|pas|le|les|des|du|de|avec|sans|não|nao|o|os|as|com|em|sem|не|на|в|с|\
                    без|по";

/// Words after "still" that are good news or the user's own plans.
const FINE: &str = "work|works|working|worked|good|fine|great|ok|okay|love|like|need|needs|want|\
                    wants|have|has|had|got|think|thinking|waiting|here|there|learning|valid|\
                    correct|right|perfect|happy|funciona|bien|bueno|geht|gut|funktioniert|marche|\
                    bon|bien|funciona|bom|работает|хорошо|нормально";

/// Words read after the "still".
const AFTER: usize = 4;

/// Whether `word` is one the user named in an earlier message or the
/// answer said: by stem, or by a shared start of five letters for the
/// inflections a light stemmer keeps apart ("формул", "формула").
fn named(word: &str, prev: &Previous<'_>) -> bool {
    let Some(stem) = KeywordBag::first_stem(word) else {
        return false;
    };
    let bags = std::iter::once(prev.keywords).chain(prev.earlier.iter().copied());
    let head: String = stem.chars().take(5).collect();
    let close = |s: &str| {
        head.chars().count() == 5
            && s.starts_with(&head)
            && s.chars().count().abs_diff(stem.chars().count()) <= 2
    };
    bags.into_iter()
        .any(|b| b.contains_stem(&stem) || b.iter().any(|(s, _, _)| close(s)))
}

/// The span of "still …" naming what was objected to, in normalised reply `t`.
pub(super) fn still_named(t: &str, prev: Previous<'_>, found: &Found) -> Option<(usize, usize)> {
    if prev.asked {
        return None;
    }
    let t0 = skip_interjection(t.trim_start_matches(|c: char| !c.is_alphanumeric()));
    let off = t.len() - t0.len();
    let opens = |a: usize, b: usize| {
        let head = t.get(off..a).map(str::trim);
        let after = t.get(b..).unwrap_or("");
        a >= off
            && head.is_some_and(|h| h.is_empty() || listed(SUBJECTS, h))
            && !after.trim_start().starts_with(',')
    };
    let names = |b: usize| {
        for w in words_from(t, b, AFTER) {
            if listed(FINE, w) {
                return false;
            }
            if listed(SKIP, w) || w.chars().all(|c| c.is_ascii_digit()) {
                continue;
            }
            return named(w, &prev);
        }
        false
    };
    [fam::STILL, fam::AGAIN]
        .into_iter()
        .find_map(|f| found.find(f, |a, b| opens(a, b) && names(b)))
}

#[cfg(test)]
mod tests {
    use crate::detect::markers::{Previous, analyze_reply};
    use crate::text::KeywordBag;

    fn fires(msg: &str, answer: &str, earlier: &str) -> bool {
        let bag = KeywordBag::from_text(answer);
        let before = KeywordBag::from_text(earlier);
        let p = Previous {
            keywords: &bag,
            asked: answer.contains('?'),
            requested: false,
            earlier: &[&before],
        };
        !analyze_reply(msg, Some(p)).pushback.is_empty()
    }

    #[test]
    fn still_or_again_then_what_the_user_objected_to() {
        let poem = "Tightened it and swapped the rhymes: 'Ninety springs of soil and sun.'";
        assert!(fires("still 6 lines??", poem, "it's 6 lines, I said 4"));
        let executor =
            "Rewritten with asyncio: it gathers loop.run_in_executor(None, requests.get, u).";
        assert!(fires(
            "that's still threads under the hood (run_in_executor). real async",
            executor,
            "I asked for async, asyncio not threads"
        ));
        let entropy = "Хорошо. Энтропия показывает, насколько трудно угадать результат.";
        assert!(fires(
            "опять формула. совсем без них можно?",
            entropy,
            "я же просил без формул("
        ));
    }

    #[test]
    fn not_good_news_plans_a_pause_or_an_unnamed_thing() {
        let fix = "I fixed the login redirect in auth.py.";
        let asked = "fix the login redirect";
        for msg in [
            "still works after the restart, thanks",
            "still need to deploy the login fix tomorrow",
            "still, thanks for the login fix",
            "still waiting on the team to review",
            "again the weather is terrible here",
        ] {
            assert!(!fires(msg, fix, asked), "{msg}");
        }
        // Asked something: "still the login one?" answers it.
        assert!(!fires(
            "still the login one",
            "Which redirect, the login one?",
            asked
        ));
    }
}
