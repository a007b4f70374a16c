//! Every threshold in one place, with its default and its valid range.
//!
//! The defaults follow the reference design (noos 0.4.1) where it had one; the
//! fields it lacked are marked. A config is part of the persisted snapshot, so a
//! restored regulator behaves exactly like the one that was exported.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::error::{Error, Result, check_unit_range, json_message};
use crate::sorted_map::SortedMap;

/// Which tokens count against `cost_cap_tokens`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum TokenBasis {
    /// Output tokens only, as in the reference design.
    #[default]
    Output,
    /// Input plus output tokens: agent loops re-send context, so input often dominates.
    Total,
}

/// How long the token and money budget lasts before it starts over.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum CostScope {
    /// The whole session, until `reset_session` (an agent run per regulator).
    #[default]
    Session,
    /// Each user turn: spend starts over at every `TurnStart` (a chat app,
    /// where each request is a task and a long friendly chat is no runaway).
    /// Quality samples are kept.
    Turn,
}

/// Which tool-loop rule runs. A detector is a pure function of the turn's tool
/// history (see `detect::tools`), so a new rule is a new variant here.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "camelCase")]
pub enum ToolLoopRule {
    /// Identity by tool name + canonical arguments, progress judged from
    /// results: identical repeats, no-progress retries, cycles, polling with
    /// no change, failure streaks, cross-turn duplicates; nudge, then halt.
    #[default]
    Fingerprint,
    /// The reference rule: the same tool name called N times in a row this turn.
    ConsecutiveSameTool,
}

/// Regulator thresholds. Unknown fields are rejected so a typo in an option
/// name fails loudly instead of silently using a default.
/// Default `implicitCorrectionWindowMs`: a retry within two minutes of the
/// answer is a reaction to it.
pub const DEFAULT_IMPLICIT_WINDOW_MS: u64 = 120_000;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Config {
    /// Token budget for the session; reached when spent ≥ cap.
    pub cost_cap_tokens: u64,
    /// Which tokens count against the cap.
    pub token_cap_basis: TokenBasis,
    /// Whether the caps hold for the session or for each user turn.
    pub cost_cap_scope: CostScope,
    /// Optional money budget (same unit as `cost.usd`), reached when spent ≥ cap.
    pub cost_cap_usd: Option<f64>,
    /// Halt over budget even when no quality feedback was ever sent
    /// (the reference never halts there, so apps that never grade never stop).
    pub halt_over_cap_without_quality: bool,
    /// Recent quality below this mean counts as poor.
    pub poor_quality_mean: f64,
    /// How many of the newest quality samples the cost and decline rules look at.
    pub quality_window: u32,
    /// Oldest-minus-newest drop in that window that counts as a decline.
    pub quality_decline_min_delta: f64,
    /// Quality samples kept.
    pub quality_history: u32,
    /// Tool-loop rule.
    pub tool_loop_rule: ToolLoopRule,
    /// Repeats that make a loop (halt).
    pub tool_loop_threshold: u32,
    /// Repeats that earn a nudge before the halt.
    pub tool_nudge_threshold: u32,
    /// Consecutive failed calls (any tool) that halt; half of it nudges.
    pub tool_failure_streak: u32,
    /// Settled tool steps a nudge may stand before it becomes a halt: an
    /// agent that keeps going past the advice is stopped (0: never).
    pub tool_nudge_patience: u32,
    /// Tools never counted as looping (e.g. `think`, `read_file`).
    pub tool_loop_exempt: Vec<String>,
    /// Per-tool halt thresholds, overriding `toolLoopThreshold`.
    pub tool_loop_thresholds: SortedMap<String, u32>,
    /// Share of a response's weighted content not anchored anywhere at or
    /// above which it counts as off topic. `None` (the default) leaves that
    /// check off: a paraphrase shares no words with its question either, and
    /// on the blind drift sets the check cried wolf about as often as it was
    /// right. Other off-topic evidence (another goal, intent or operation)
    /// still warns.
    pub drift_warn_threshold: Option<f64>,
    /// Judge whether each answer stays on what was asked (`scopeDrift`).
    /// Off, no answer is read for it: the check is about half of a turn's
    /// work, which an app whose answers go to a program rather than a
    /// person (a tool-only agent) need not pay. Switched off, a pending
    /// warning goes at once; switched on, it reads from the next request.
    pub scope_drift: bool,
    /// App vocabulary that is always on topic (product names, features),
    /// at most `MAX_GLOSSARY` entries of `MAX_GLOSSARY_BYTES` each.
    pub glossary: Vec<String>,
    /// Look for frustration, correction and preference markers in user messages.
    pub markers: bool,
    /// User turns within which repeated pushback makes an incident.
    pub incident_window_turns: u32,
    /// Pushback turns within the window that make an incident.
    pub incident_min_hits: u32,
    /// Consecutive turns failing on the same obstacle that halt the task
    /// (`repeatedFailure`).
    pub repeated_failure_turns: u32,
    /// A reworded retry of the last request within this many ms of its
    /// answer counts as an implicit correction (default two minutes). `None`
    /// turns implicit detection off.
    pub implicit_correction_window_ms: Option<u64>,
    /// Corrections on one topic that make a pattern.
    pub pattern_threshold: u32,
    /// Example corrections shown per pattern, newest first.
    pub max_examples: u32,
    /// Correction records kept per topic (newest kept).
    pub max_corrections_per_topic: u32,
    /// Correction records kept in total (newest kept).
    pub max_correction_records: u32,
    /// Usable logprobs kept for confidence.
    pub logprob_window: u32,
    /// Longest message, response, tool result, correction, prompt or
    /// tool-argument JSON accepted, in UTF-8 bytes (and the most entries of
    /// one `tokens` batch). Every event's work is linear in its text (see
    /// `benches/hostile.mjs`).
    pub max_text_bytes: u32,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            cost_cap_tokens: 10_000,
            token_cap_basis: TokenBasis::Output,
            cost_cap_scope: CostScope::Session,
            cost_cap_usd: None,
            halt_over_cap_without_quality: true,
            poor_quality_mean: 0.5,
            quality_window: 3,
            quality_decline_min_delta: 0.15,
            quality_history: 20,
            tool_loop_rule: ToolLoopRule::Fingerprint,
            tool_loop_threshold: 5,
            tool_nudge_threshold: 3,
            tool_failure_streak: 6,
            tool_nudge_patience: 3,
            tool_loop_exempt: Vec::new(),
            tool_loop_thresholds: SortedMap::new(),
            drift_warn_threshold: None,
            scope_drift: true,
            glossary: Vec::new(),
            markers: true,
            incident_window_turns: 6,
            incident_min_hits: 2,
            repeated_failure_turns: 3,
            implicit_correction_window_ms: Some(DEFAULT_IMPLICIT_WINDOW_MS),
            pattern_threshold: 3,
            max_examples: 3,
            max_corrections_per_topic: 20,
            max_correction_records: 1000,
            logprob_window: 128,
            max_text_bytes: 1 << 20,
        }
    }
}

/// Tool names in `toolLoopExempt` / `toolLoopThresholds`.
pub const MAX_TOOL_SETTINGS: usize = 64;

/// Longest options text accepted (the largest valid config, a full
/// glossary of escaped text, is about 400 KB).
pub const MAX_CONFIG_BYTES: usize = 1 << 20;

/// Correction records a regulator may keep at most; with the longest
/// records this keeps a snapshot under `state::MAX_SNAPSHOT_BYTES`.
pub const MAX_CORRECTION_RECORDS: u64 = 10_000;

/// JS numbers are exact only up to 2^53; larger integers cannot round-trip.
pub const MAX_SAFE_INT: u64 = (1 << 53) - 1;

fn check_int(field: &str, value: u64, lo: u64, hi: u64) -> Result<()> {
    if value < lo || value > hi {
        return Err(Error::range_error(
            format!("config.{field}"),
            format!("must be between {lo} and {hi}, got {value}"),
        ));
    }
    Ok(())
}

/// Spelled alike: one edit apart (two for long names). Bounded: names
/// longer than 64 bytes are never near.
fn near(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let most = if a.len().min(b.len()) >= 10 { 2 } else { 1 };
    if a.len() > 64 || b.len() > 64 || a.len().abs_diff(b.len()) > most || a.len() < 4 {
        return false;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, &x) in a.iter().enumerate() {
        let mut row = vec![i + 1];
        for (j, &y) in b.iter().enumerate() {
            row.push(
                (prev[j] + usize::from(x != y))
                    .min(prev[j + 1] + 1)
                    .min(row[j] + 1),
            );
        }
        prev = row;
    }
    prev[b.len()] <= most
}

impl Config {
    /// Reads options given as a JSON object (missing fields take their
    /// defaults) and validates them. Errors name the option
    /// (`options.costCapTokens: invalid type: string "5", expected u64`,
    /// `options.costCap: is not an option`), never a parser position.
    pub fn from_json(text: &str) -> Result<Config> {
        let field = "options";
        if text.len() > MAX_CONFIG_BYTES {
            return Err(Error::range_error(
                field,
                format!(
                    "are {} bytes as JSON; the limit is {MAX_CONFIG_BYTES} bytes",
                    text.len()
                ),
            ));
        }
        // Options that read as they are: parsed once. Anything else (an
        // unknown or mistyped option, a non-object) goes the long way below,
        // which says what is wrong. (An array would read as the struct's
        // fields in order, so only an object is tried.)
        if text.trim_start().starts_with('{')
            && let Ok(config) = serde_json::from_str::<Config>(text)
        {
            config.validate()?;
            return Ok(config);
        }
        // Parsed straight from the text, as typed structs only: a second
        // way in (through `serde_json::Value`) costs the module ~35 KB.
        let value: Value = serde_json::from_str(text).map_err(|e| {
            Error::type_error(
                field,
                format!("must be a JSON object: {}", json_message(&e)),
            )
        })?;
        let Value::Object(map) = value else {
            return Err(Error::type_error(field, "must be a JSON object"));
        };
        let defaults = serde_json::to_string(&Config::default()).unwrap_or_default();
        let known = match serde_json::from_str(&defaults) {
            Ok(Value::Object(known)) => known,
            _ => Map::new(),
        };
        if let Some(key) = map.keys().find(|k| !known.contains_key(k.as_str())) {
            // `cost_cap_tokens`, `costcaptokens`: the option meant.
            let plain = |k: &str| k.replace('_', "").to_lowercase();
            let meant = known
                .keys()
                .find(|k| plain(k) == plain(key))
                .or_else(|| known.keys().find(|k| near(&plain(k), &plain(key))));
            let hint = meant.map_or(String::new(), |m| format!("; did you mean {m}?"));
            return Err(Error::type_error(
                format!("{field}.{key}"),
                format!("is not an option{hint}"),
            ));
        }
        let config: Config = match serde_json::from_str(text) {
            Ok(c) => c,
            // Which option is wrong: serde names only the type it expected.
            Err(whole) => {
                let one = |k: &String, v: &Value| {
                    let text = format!("{{{}:{v}}}", Value::String(k.clone()));
                    serde_json::from_str::<Config>(&text)
                        .err()
                        .map(|e| (format!("{field}.{k}"), json_message(&e)))
                };
                let (at, message) = map
                    .iter()
                    .find_map(|(k, v)| one(k, v))
                    .unwrap_or_else(|| (field.to_string(), json_message(&whole)));
                return Err(Error::type_error(at, message));
            }
        };
        config.validate()?;
        Ok(config)
    }

    /// Rejects values that would make a rule meaningless or a collection unbounded.
    pub fn validate(&self) -> Result<()> {
        check_int("costCapTokens", self.cost_cap_tokens, 0, MAX_SAFE_INT)?;
        if let Some(usd) = self.cost_cap_usd {
            check_unit_range("config.costCapUsd", usd, 0.0, 1e12)?;
        }
        check_unit_range("config.poorQualityMean", self.poor_quality_mean, 0.0, 1.0)?;
        check_int("qualityHistory", self.quality_history.into(), 2, 1000)?;
        check_int(
            "qualityWindow",
            self.quality_window.into(),
            2,
            self.quality_history.into(),
        )?;
        check_unit_range(
            "config.qualityDeclineMinDelta",
            self.quality_decline_min_delta,
            0.0,
            1.0,
        )?;
        check_int(
            "toolLoopThreshold",
            self.tool_loop_threshold.into(),
            2,
            1000,
        )?;
        check_int(
            "toolNudgePatience",
            self.tool_nudge_patience.into(),
            0,
            1000,
        )?;
        if let Some(t) = self.drift_warn_threshold {
            check_unit_range("config.driftWarnThreshold", t, 0.0, 1.0)?;
            if t == 0.0 {
                return Err(Error::range_error(
                    "config.driftWarnThreshold",
                    "must be above 0, or every response would drift",
                ));
            }
        }
        // Bytes, not characters: 256 leaves a Cyrillic or CJK "term —
        // definition" entry room (64 bytes were 21 CJK characters).
        if self.glossary.len() > MAX_GLOSSARY
            || self
                .glossary
                .iter()
                .any(|g| g.is_empty() || g.len() > MAX_GLOSSARY_BYTES)
        {
            return Err(Error::range_error(
                "config.glossary",
                "takes at most 256 entries of 1 to 256 bytes each",
            ));
        }
        check_int(
            "incidentWindowTurns",
            self.incident_window_turns.into(),
            1,
            100,
        )?;
        check_int("incidentMinHits", self.incident_min_hits.into(), 1, 16)?;
        check_int(
            "repeatedFailureTurns",
            self.repeated_failure_turns.into(),
            2,
            16,
        )?;
        if let Some(w) = self.implicit_correction_window_ms {
            check_int("implicitCorrectionWindowMs", w, 0, MAX_SAFE_INT)?;
        }
        check_int(
            "maxCorrectionsPerTopic",
            self.max_corrections_per_topic.into(),
            1,
            200,
        )?;
        check_int(
            "patternThreshold",
            self.pattern_threshold.into(),
            1,
            self.max_corrections_per_topic.into(),
        )?;
        check_int("maxExamples", self.max_examples.into(), 1, 20)?;
        check_int(
            "maxCorrectionRecords",
            self.max_correction_records.into(),
            1,
            MAX_CORRECTION_RECORDS,
        )?;
        check_int("logprobWindow", self.logprob_window.into(), 1, 4096)?;
        check_int("maxTextBytes", self.max_text_bytes.into(), 1, 16 << 20)?;
        Ok(())
    }
}

/// Glossary entries a config may hold, and the bytes of one entry.
pub const MAX_GLOSSARY: usize = 256;
pub const MAX_GLOSSARY_BYTES: usize = 256;

#[cfg(test)]
mod tests {

    #[test]
    fn near_names_are_one_edit_apart_or_two_when_long() {
        assert!(near("costcaptokenz", "costcaptokens"));
        assert!(near("paternthreshold", "patternthreshold"));
        assert!(near("qualitywindw", "qualitywindow"));
        assert!(!near("zzz", "zzy"), "too short to guess");
        assert!(!near("markers", "glossary"));
        assert!(
            !near(&"a".repeat(65), &"a".repeat(64)),
            "long names are never near"
        );
    }

    use super::*;

    #[test]
    fn defaults_are_valid_and_match_the_reference() {
        let c = Config::default();
        c.validate().unwrap();
        assert_eq!(c.cost_cap_tokens, 10_000);
        assert_eq!(c.tool_loop_threshold, 5);
        assert_eq!(c.pattern_threshold, 3);
        assert_eq!(c.max_corrections_per_topic, 20);
    }

    #[test]
    fn partial_json_fills_defaults_and_typos_are_rejected() {
        let c: Config = serde_json::from_str(r#"{"costCapTokens":2000}"#).unwrap();
        assert_eq!(c.cost_cap_tokens, 2000);
        assert_eq!(c.quality_window, 3);
        let err = serde_json::from_str::<Config>(r#"{"costCap":2000}"#).unwrap_err();
        assert!(err.to_string().contains("unknown field `costCap`"), "{err}");
    }

    #[test]
    fn options_text_errors_name_the_option_and_no_parser_position() {
        let c = Config::from_json(r#"{"costCapTokens":2000,"costCapUsd":null}"#).unwrap();
        assert_eq!((c.cost_cap_tokens, c.cost_cap_usd), (2000, None));
        let c = Config::from_json(" \n{ \"costCapTokens\" : 7 } ").unwrap();
        assert_eq!(c.cost_cap_tokens, 7);
        assert_eq!(Config::from_json("{}").unwrap(), Config::default());
        for (text, field, says) in [
            (r#"{"costCap":5}"#, "options.costCap", "is not an option"),
            (
                r#"{"cost_cap_tokens":5}"#,
                "options.cost_cap_tokens",
                "did you mean costCapTokens?",
            ),
            (
                r#"{"qualityWindow":3,"costCapTokens":"5"}"#,
                "options.costCapTokens",
                "expected a whole number",
            ),
            (
                r#"{"glossary":"x"}"#,
                "options.glossary",
                "expected an array",
            ),
            (
                r#"{"tokenCapBasis":"words"}"#,
                "options.tokenCapBasis",
                "unknown variant",
            ),
            (r#"{"qualityWindow":0}"#, "config.qualityWindow", "between"),
            ("[1]", "options", "must be a JSON object"),
            // serde would read an array as the fields in order.
            ("[]", "options", "must be a JSON object"),
            (" [2000]", "options", "must be a JSON object"),
            ("{", "options", "must be a JSON object"),
        ] {
            let err = Config::from_json(text).unwrap_err();
            assert_eq!(err.field(), field, "{text}: {err}");
            assert!(err.message().contains(says), "{text}: {err}");
            assert!(!err.message().contains("line 1"), "{text}: {err}");
        }
        let long = format!(r#"{{"glossary":["{}"]}}"#, "x".repeat(MAX_CONFIG_BYTES));
        assert_eq!(Config::from_json(&long).unwrap_err().field(), "options");
    }

    #[test]
    fn glossary_entries_are_bounded_in_bytes_not_characters() {
        let with = |glossary: Vec<String>| Config {
            glossary,
            ..Config::default()
        };
        // A natural Russian entry is 101 bytes.
        let entry = "Кошелёк — внутренний баланс пользователя в приложении".to_string();
        with(vec![entry; 3]).validate().unwrap();
        for bad in [
            vec![String::new()],
            vec!["я".repeat(MAX_GLOSSARY_BYTES / 2 + 1)],
            vec!["term".to_string(); MAX_GLOSSARY + 1],
        ] {
            let err = with(bad).validate().unwrap_err();
            assert_eq!(err.field(), "config.glossary", "{err:?}");
        }
    }

    #[test]
    fn out_of_range_values_name_the_field() {
        let bad = [
            (
                Config {
                    poor_quality_mean: f64::NAN,
                    ..Config::default()
                },
                "config.poorQualityMean",
            ),
            (
                Config {
                    quality_window: 1,
                    ..Config::default()
                },
                "config.qualityWindow",
            ),
            (
                Config {
                    quality_window: 30,
                    ..Config::default()
                },
                "config.qualityWindow",
            ),
            (
                Config {
                    tool_loop_threshold: 0,
                    ..Config::default()
                },
                "config.toolLoopThreshold",
            ),
            (
                Config {
                    drift_warn_threshold: Some(0.0),
                    ..Config::default()
                },
                "config.driftWarnThreshold",
            ),
            (
                Config {
                    drift_warn_threshold: Some(1.5),
                    ..Config::default()
                },
                "config.driftWarnThreshold",
            ),
            (
                Config {
                    pattern_threshold: 25,
                    ..Config::default()
                },
                "config.patternThreshold",
            ),
            (
                Config {
                    cost_cap_usd: Some(-1.0),
                    ..Config::default()
                },
                "config.costCapUsd",
            ),
            (
                Config {
                    cost_cap_tokens: u64::MAX,
                    ..Config::default()
                },
                "config.costCapTokens",
            ),
            (
                Config {
                    logprob_window: 0,
                    ..Config::default()
                },
                "config.logprobWindow",
            ),
        ];
        for (cfg, field) in bad {
            let err = cfg.validate().unwrap_err();
            assert_eq!(err.field(), field, "{err}");
        }
    }
}
