//! A message that opens by announcing another subject ("unrelated: …",
//! "separate thing: …", "Autre question : …", "换个话题，…") starts a new
//! task however soon it follows the answer.

use super::frames::Frame;
use super::scan::{fam, scan_opening};

/// Bytes into the message a switch may start: after an "ok." or "thanks,".
const OPENING: usize = 16;

/// Announcements of another subject.
pub(super) static SWITCH: &[Frame] = &[
    Frame::new(
        "en",
        "unrelated|separate thing|different thing|something else|separate question|\
         different question|another question|other question|new question|side question|\
         different topic|another topic|new topic|off topic|change of topic|changing the subject|\
         on another note|on a different note",
    ),
    Frame::new(
        "es",
        "otra cosa|otra pregunta|otro tema|cambiando de tema|aparte de eso",
    ),
    Frame::new(
        "de",
        "andere frage|anderes thema|etwas anderes|was anderes|themenwechsel|noch eine andere",
    ),
    Frame::new(
        "fr",
        "autre question|autre chose|autre sujet|changement de sujet|rien à voir|hors sujet",
    ),
    Frame::new(
        "pt",
        "outra pergunta|outra coisa|outro assunto|mudando de assunto",
    ),
    Frame::new(
        "ru",
        "другой вопрос|другая тема|не по теме|о другом|другое дело",
    ),
    Frame::new(
        "zh",
        "别的问题|另一个问题|换个话题|题外话|另一件事|另外一件事|問個別的|別件|\
         話は変わりますが|話変わりますが|別の質問|ところで",
    ),
];

/// Whether `message` opens by announcing another subject. Reads the first
/// 64 bytes.
pub fn switches_topic(message: &str) -> bool {
    scan_opening(message)
        .find(fam::SWITCH, |a, _| a <= OPENING)
        .is_some()
}

#[cfg(test)]
mod tests {
    use super::switches_topic;

    #[test]
    fn an_announced_subject_opens_the_message() {
        for m in [
            "unrelated: how do I see which process holds port 5432",
            "ok. separate thing: update the README install section",
            "Autre question : comment je change mon plafond ?",
            "otra cosa: cómo se pronuncia 'though'",
            "换个话题，帮我写个标题",
        ] {
            assert!(switches_topic(m), "{m}");
        }
        for m in [
            "also mention I speak Portuguese",
            "now add a timeout of 5s per request",
            "can you check what happened to the kettle? it's unrelated to the mug, I think",
        ] {
            assert!(!switches_topic(m), "{m}");
        }
    }
}
