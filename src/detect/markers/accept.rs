//! Confirmations and acceptances never count as pushback
//! (`reply.rs` asks before reading a reply as rejecting a word of
//! the answer): "Yes, please proceed exactly as proposed, no other changes"
//! accepts the plan, and "one passenger, no checked bags" lists what is
//! absent. A confirmation that turns with a "but" is read as usual.

use super::frames::{Found, Frame};
use super::reply::Present;
use super::scan::fam;

/// Whether a reply opens by accepting the answer and never turns with a
/// "but": "Yes, please proceed exactly as proposed, no other changes" and
/// "Thanks! I'd like a nonstop flight instead of the one-stop" reject no
/// word of it.
pub(super) fn accepts(t: &str, found: &Found) -> bool {
    let off = t.len() - t.trim_start_matches(|c: char| !c.is_alphanumeric()).len();
    found.find(fam::YES, |a, _| a == off).is_some() && !found.any(fam::TURN)
}

/// Acceptances that may open a reply.
pub(super) static YES: &[Frame] = &[
    Frame::new(
        "en",
        "yes|yep|yeah|yup|sure|ok|okay|sounds good|looks good|perfect|great|thanks|thank you|\
         got it|understood|alright|all right|exactly|go ahead|please proceed|proceed|sí|vale|\
         claro|de acuerdo|perfecto|gracias|ja|genau|passt|danke|einverstanden|oui|d'accord|\
         parfait|merci|sim|pode|beleza|obrigado|obrigada|да|хорошо|ок|спасибо|worked|it worked|\
         that worked|funcionó|hat geklappt|ça a marché|funcionou|сработало",
    ),
    Frame::new(
        "zh",
        "好的|可以|是的|谢谢|はい|了解|お願いします|好了|可以了",
    ),
];

/// A turn that makes an acceptance a correction after all: "Yes, but…".
pub(super) static TURN: &[Frame] = &[
    Frame::new("en", "but|however|actually|pero|aber|mais|mas|но"),
    Frame::new("zh", "但|可是|不过|でも|けど"),
];

/// Whether a message holds English function words (no other language of
/// the eight writes them).
pub(super) fn english(words: &Present<'_>) -> bool {
    const FUNCTION: &[&str] = &[
        "the", "and", "i", "is", "to", "it", "my", "you", "with", "for", "of", "this", "that",
        "please", "was", "are", "we", "be", "all", "good", "now", "more", "any", "not", "but",
        "so", "just", "yes", "ok", "okay", "thanks",
    ];
    FUNCTION.iter().any(|w| words.has(w))
}

#[cfg(test)]
mod tests {
    use super::super::reply::CONTRAST;
    use super::super::reply::tests::rule;

    #[test]
    fn confirmations_and_acceptances_never_count() {
        // The cause of the confirmation once read as rejecting a word: an
        // English ", no X" and "I don't want to X" after an acceptance.
        let plan = "Here's the plan: add a `deleted_at` column, no other changes to the schema; \
                    I won't cancel anything. Shall I proceed with the proposed changes?";
        let done = "I've issued the refund; the changes are committed and the plan is done.";
        for (msg, prev) in [
            ("Yes, please proceed exactly as proposed.", plan),
            (
                "Yes, please proceed exactly as proposed, no other changes.",
                done,
            ),
            (
                "Yes—please proceed exactly as proposed. I don't want to cancel anything.",
                done,
            ),
            (
                "Thanks! I'd like the nonstop flight instead of the one-stop itinerary.",
                done,
            ),
            (
                "One passenger, no checked bags, and no changes to the plan.",
                done,
            ),
            ("yes", plan),
            ("go ahead", plan),
            ("sí, dale", plan),
            ("ja, mach", plan),
            ("D'accord, fais exactement comme tu as proposé.", plan),
            ("pode seguir exatamente como vc propôs", plan),
            ("ок, делай как предложил", plan),
            ("好的，就按这个方案来", plan),
            ("それで進めてください", plan),
            ("thanks, works now", done),
            ("ya funciona, mil gracias!!", done),
            ("läuft jetzt, danke!", done),
            ("c'est bon l'erreur a disparu, merci !", done),
            ("show, o erro sumiu", done),
            ("ошибка ушла, спасибо", done),
            ("报错没了，感谢", done),
            ("エラー消えました、助かりました", done),
        ] {
            assert_eq!(rule(msg, prev), None, "{msg}");
        }
        // A "but" turns an acceptance back into a correction.
        assert_eq!(
            rule("Yes, but the column is deleted_on, not deleted_at.", plan),
            Some(CONTRAST)
        );
    }
}
