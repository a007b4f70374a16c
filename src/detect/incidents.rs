//! "The user is repeatedly unhappy": pushback markers on two or more user
//! turns within a window (six by default), on one task, make an incident; a
//! second incident on the same topic escalates to the `repeatedFailure`
//! circuit break. One task is one topic, or one episode: messages that
//! each came soon after the answer before, none announcing another subject
//! (the refund, then "can you check what happened to the kettle" a minute
//! later). Pushback on the CSS fix and then once on an unrelated SQL answer
//! asked the next morning is not an incident: each waits for its own topic
//! to come back.
//! Greedy clustering as in spool: hits that made an incident are consumed.

use std::collections::VecDeque;

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

use crate::sorted_map::SortedMap;

/// Unconsumed pushback turns remembered.
const MAX_PENDING: usize = 16;
/// Topics whose incidents are counted.
const MAX_TOPICS: usize = 64;
/// The marker of pushback sent as a `userCorrection` of the last answer.
pub const EXPLICIT: &str = "(corrected the answer)";
/// Characters of the user's message kept as the incident summary.
pub const SUMMARY_CHARS: usize = 200;
/// Distinct marker phrases kept per pushback turn and per incident.
pub const MAX_MARKERS: usize = 16;
/// Bytes of one marker phrase (the packs' longest is far shorter).
const MAX_MARKER_BYTES: usize = 256;

/// `markers` without repeats (first kept, in order), at most `MAX_MARKERS`.
fn distinct(markers: impl IntoIterator<Item = String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in markers {
        if out.len() == MAX_MARKERS {
            break;
        }
        if !out.contains(&m) {
            out.push(m);
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PendingHit {
    pub turn: u64,
    pub markers: Vec<String>,
    /// The topic pushed back on (empty: none; pairs only within its episode).
    #[serde(default)]
    pub topic: String,
    /// The episode of the session it came in.
    #[serde(default)]
    pub episode: u64,
}

crate::json::typed::from_json!(PendingHit {
    req turn: "turn",
    req markers: "markers",
    opt topic: "topic",
    opt episode: "episode",
});

/// One turn of pushback, as the regulator reports it.
pub struct Hit<'a> {
    pub turn: u64,
    pub markers: Vec<String>,
    pub topic: &'a str,
    pub episode: u64,
}

/// Whether pushback `h` and `hit` are about one task.
fn same_task(h: &PendingHit, hit: &Hit<'_>) -> bool {
    h.episode == hit.episode || !h.topic.is_empty() && h.topic == hit.topic
}

/// The incident raised at the current turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Incident {
    pub evidence_turns: Vec<u64>,
    pub markers: Vec<String>,
    pub summary: String,
    pub topic: String,
    /// Incidents on this topic so far this session, this one included.
    pub count: u32,
}

crate::json::typed::from_json!(Incident {
    req evidence_turns: "evidenceTurns",
    req markers: "markers",
    req summary: "summary",
    req topic: "topic",
    req count: "count",
});

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Incidents {
    pub pending: VecDeque<PendingHit>,
    pub by_topic: SortedMap<String, u32>,
    pub current: Option<Incident>,
}

crate::json::typed::from_json!(Incidents {
    req pending: "pending",
    req by_topic: "byTopic",
    opt current: "current",
});

impl Incidents {
    /// A new turn: the previous turn's incident is no longer news.
    pub fn start_turn(&mut self) {
        self.current = None;
    }

    /// Records pushback on `turn`; raises an incident when enough hits fall
    /// within the window.
    pub fn pushback(&mut self, hit: Hit<'_>, summary: String, window: u64, min_hits: usize) {
        let (turn, topic) = (hit.turn, hit.topic);
        self.pending
            .retain(|h| turn.saturating_sub(h.turn) < window);
        // Pushback twice in one turn (the correction control, then a
        // message) is one turn of pushback: an incident needs two turns.
        if let Some(h) = self
            .pending
            .iter_mut()
            .find(|h| h.turn == turn && same_task(h, &hit))
        {
            h.markers = distinct(h.markers.drain(..).chain(hit.markers));
            return;
        }
        self.pending.push_back(PendingHit {
            turn,
            markers: distinct(hit.markers.iter().cloned()),
            topic: crate::text::truncate_chars(topic, 128),
            episode: hit.episode,
        });
        while self.pending.len() > MAX_PENDING {
            self.pending.pop_front();
        }
        let on_topic = |h: &PendingHit| same_task(h, &hit);
        if self.pending.iter().filter(|h| on_topic(h)).count() < min_hits {
            return;
        }
        let (hits, rest): (Vec<PendingHit>, Vec<PendingHit>) =
            self.pending.drain(..).partition(|h| on_topic(h));
        self.pending = rest.into();
        let count = if topic.is_empty() {
            1
        } else {
            if !self.by_topic.contains_key(topic) && self.by_topic.len() >= MAX_TOPICS {
                let oldest = self.by_topic.keys().next().cloned();
                if let Some(k) = oldest {
                    self.by_topic.remove(&k);
                }
            }
            let n = self.by_topic.or_default(topic.to_string());
            *n = n.saturating_add(1);
            *n
        };
        let markers = distinct(hits.iter().flat_map(|h| h.markers.iter().cloned()));
        self.current = Some(Incident {
            evidence_turns: hits.iter().map(|h| h.turn).collect(),
            markers,
            summary,
            topic: topic.to_string(),
            count,
        });
    }

    pub fn is_bounded(&self) -> bool {
        let markers_ok =
            |m: &[String]| m.len() <= MAX_MARKERS && m.iter().all(|p| p.len() <= MAX_MARKER_BYTES);
        let current_ok = self.current.as_ref().is_none_or(|i| {
            markers_ok(&i.markers)
                && i.evidence_turns.len() <= MAX_PENDING
                && i.summary.chars().count() <= SUMMARY_CHARS + 1
        });
        self.pending.len() <= MAX_PENDING
            && self.pending.iter().all(|h| h.topic.len() <= 4 * 129)
            && self.by_topic.len() <= MAX_TOPICS
            && self.pending.iter().all(|h| markers_ok(&h.markers))
            && current_ok
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Pushback on `turn`, each turn its own episode.
    fn hit(i: &mut Incidents, turn: u64, topic: &str) -> Option<u32> {
        hit_in(i, turn, topic, turn)
    }

    fn hit_in(i: &mut Incidents, turn: u64, topic: &str, episode: u64) -> Option<u32> {
        i.start_turn();
        i.pushback(
            Hit {
                turn,
                markers: vec!["wrong again".into()],
                topic,
                episode,
            },
            format!("turn {turn}"),
            6,
            2,
        );
        i.current.as_ref().map(|c| c.count)
    }

    #[test]
    fn two_hits_within_six_turns_make_an_incident_and_are_consumed() {
        let mut i = Incidents::default();
        assert_eq!(hit(&mut i, 1, "t"), None);
        assert_eq!(hit(&mut i, 4, "t"), Some(1));
        assert_eq!(i.current.as_ref().unwrap().evidence_turns, [1, 4]);
        assert_eq!(hit(&mut i, 5, "t"), None, "consumed hits do not pair again");
        assert_eq!(
            hit(&mut i, 7, "t"),
            Some(2),
            "a second incident on the topic"
        );
        i.start_turn();
        assert!(i.current.is_none());
    }

    #[test]
    fn markers_are_kept_once_each_and_bounded() {
        let mut i = Incidents::default();
        let many: Vec<String> = (0..100).map(|k| format!("phrase {}", k % 40)).collect();
        let at = |turn, markers| Hit {
            turn,
            markers,
            topic: "t",
            episode: 0,
        };
        i.pushback(at(1, many.clone()), "a".into(), 6, 2);
        i.pushback(
            at(2, vec!["phrase 1".into(), "other".into()]),
            "b".into(),
            6,
            2,
        );
        let inc = i.current.as_ref().unwrap();
        assert_eq!(inc.markers.len(), MAX_MARKERS);
        assert_eq!(inc.markers[0], "phrase 0");
        assert_eq!(inc.markers[1], "phrase 1");
        let mut seen = inc.markers.clone();
        seen.sort();
        seen.dedup();
        assert_eq!(
            seen.len(),
            inc.markers.len(),
            "no repeats: {:?}",
            inc.markers
        );
        assert!(i.is_bounded());
        // A snapshot holding more is refused.
        i.pending.push_back(PendingHit {
            turn: 3,
            markers: many,
            topic: "t".into(),
            episode: 0,
        });
        assert!(!i.is_bounded());
    }

    #[test]
    fn hits_too_far_apart_do_not_pair() {
        let mut i = Incidents::default();
        assert_eq!(hit(&mut i, 1, "t"), None);
        assert_eq!(hit(&mut i, 8, "t"), None);
        assert_eq!(hit(&mut i, 12, "t"), Some(1));
    }

    #[test]
    fn pushback_pairs_only_on_one_topic() {
        let mut i = Incidents::default();
        assert_eq!(hit(&mut i, 1, "css+fix"), None);
        assert_eq!(hit(&mut i, 2, "query+sql"), None, "another topic");
        // Back on the CSS fix: the first hit still waits there.
        assert_eq!(hit(&mut i, 3, "css+fix"), Some(1));
        assert_eq!(i.current.as_ref().unwrap().evidence_turns, [1, 3]);
        assert_eq!(i.pending.len(), 1, "the SQL hit stays");
        assert_eq!(hit(&mut i, 4, "query+sql"), Some(1));
    }

    #[test]
    fn pushback_pairs_within_one_episode_across_topics() {
        let mut i = Incidents::default();
        assert_eq!(hit_in(&mut i, 1, "refund+status", 7), None);
        assert_eq!(
            hit_in(&mut i, 3, "happen+kettl", 7),
            Some(1),
            "one episode of work"
        );
        assert_eq!(hit_in(&mut i, 4, "order+ship", 8), None, "another episode");
    }

    #[test]
    fn two_pushbacks_in_one_turn_are_one_turn() {
        let mut i = Incidents::default();
        assert_eq!(hit(&mut i, 2, "t"), None);
        // The correction control, then the message: still turn 2.
        assert_eq!(hit(&mut i, 2, "t"), None);
        assert_eq!(i.pending.len(), 1);
        assert_eq!(hit(&mut i, 3, "t"), Some(1));
        assert_eq!(i.current.as_ref().unwrap().evidence_turns, [2, 3]);
    }

    #[test]
    fn pushback_on_no_topic_pairs_only_within_its_episode() {
        let mut i = Incidents::default();
        // "whats 3/4 + 1/6" has no topic; a date in history, later, does.
        assert_eq!(hit_in(&mut i, 1, "", 1), None);
        assert_eq!(hit_in(&mut i, 6, "histori+thirti", 4), None);
        assert_eq!(hit_in(&mut i, 2, "", 1), Some(1), "the same episode");
    }
}
