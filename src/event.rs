//! The events an agent loop reports. Every event may carry `at_ms`, the
//! caller's wall-clock time in milliseconds: the core never reads a clock.

use std::fmt;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::config::{Config, MAX_SAFE_INT};
use crate::error::{Error, Result, check_len, check_unit_range, json_message};

/// Longest tool name, call id or provider name accepted, in bytes.
pub const MAX_NAME_BYTES: usize = 256;
/// Deepest JSON nesting accepted in tool arguments.
pub const MAX_ARGS_DEPTH: usize = 64;

/// One thing that happened in the agent loop.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum Event {
    /// The user's message opens a turn; per-turn state resets.
    TurnStart {
        message: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// One generated token's log-probability; `None` means the provider gave none.
    Token {
        logprob: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// A batch of log-probabilities, plus how many tokens had none.
    Tokens {
        logprobs: Vec<f64>,
        #[serde(default, skip_serializing_if = "crate::json::is_default")]
        unavailable: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// The agent's full response for this turn.
    TurnComplete {
        response: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// Spend for one model call.
    Cost {
        #[serde(default)]
        tokens_in: u64,
        #[serde(default)]
        tokens_out: u64,
        #[serde(default)]
        wallclock_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        provider: Option<String>,
        /// Money spent, in the unit of `Config::cost_cap_usd`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        usd: Option<f64>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// A grade for the current turn's response, in [0, 1].
    QualityFeedback {
        quality: f64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// The user explicitly corrected the agent. With `corrects_last` (the
    /// default) it is filed under the topic of the response it corrects;
    /// otherwise under the current turn's topic.
    UserCorrection {
        message: String,
        #[serde(default = "yes")]
        corrects_last: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// The agent called a tool. `side_effect` / `read_only` are the app's
    /// word on what the call does (else its name and arguments are read).
    ToolCall {
        name: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        args: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        call_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        side_effect: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        read_only: Option<bool>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
    /// A tool returned.
    ToolResult {
        name: String,
        ok: bool,
        #[serde(default)]
        duration_ms: u64,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        result: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        call_id: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        at_ms: Option<u64>,
    },
}

fn yes() -> bool {
    true
}

/// What the app says a tool call does: `readOnly: true` (or `sideEffect:
/// false`) is a read, `sideEffect: true` an action whose repeat repeats its
/// effect, `readOnly: false` a write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EffectHint {
    ReadOnly,
    Write,
    SideEffect,
    /// `sideEffect: true` with `readOnly: true`: rejected by `validate`.
    Contradiction,
}

impl EffectHint {
    pub fn from_flags(side_effect: Option<bool>, read_only: Option<bool>) -> Option<EffectHint> {
        match (side_effect, read_only) {
            (Some(true), Some(true)) => Some(EffectHint::Contradiction),
            (Some(true), _) => Some(EffectHint::SideEffect),
            (_, Some(true)) | (Some(false), _) => Some(EffectHint::ReadOnly),
            (None, Some(false)) => Some(EffectHint::Write),
            (None, None) => None,
        }
    }
}

/// Tool arguments: a parsed value, or JSON text straight from JS (fingerprinted
/// without building a tree).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Args<'a> {
    Value(&'a Value),
    Json(&'a str),
}

/// A borrowed view of an event: what the regulator actually consumes, so hot
/// calls from JS need not build owned strings.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EventRef<'a> {
    TurnStart {
        message: &'a str,
        at_ms: Option<u64>,
    },
    Token {
        logprob: Option<f64>,
        at_ms: Option<u64>,
    },
    Tokens {
        logprobs: &'a [f64],
        unavailable: u64,
        at_ms: Option<u64>,
    },
    TurnComplete {
        response: &'a str,
        at_ms: Option<u64>,
    },
    Cost {
        tokens_in: u64,
        tokens_out: u64,
        wallclock_ms: u64,
        provider: Option<&'a str>,
        usd: Option<f64>,
        at_ms: Option<u64>,
    },
    QualityFeedback {
        quality: f64,
        at_ms: Option<u64>,
    },
    UserCorrection {
        message: &'a str,
        corrects_last: bool,
        at_ms: Option<u64>,
    },
    ToolCall {
        name: &'a str,
        args: Option<Args<'a>>,
        call_id: Option<&'a str>,
        /// The app's hint (`EffectHint`), when it gave one.
        effect: Option<EffectHint>,
        at_ms: Option<u64>,
    },
    ToolResult {
        name: &'a str,
        ok: bool,
        duration_ms: u64,
        error: Option<&'a str>,
        result: Option<&'a str>,
        call_id: Option<&'a str>,
        at_ms: Option<u64>,
    },
}

impl Event {
    /// Parses one event from JSON text, naming what was wrong on failure.
    pub fn from_json(text: &str) -> Result<Event> {
        let value: Value = serde_json::from_str(text).map_err(|e| {
            Error::type_error("event", format!("is not JSON: {}", json_message(&e)))
        })?;
        Self::from_value(value)
    }

    /// Builds an event from a JSON value. The shape is checked against
    /// [`EVENT_FIELDS`] first, so an error names the field
    /// (`qualityFeedback.quality: must be a number, got "good"`): serde alone
    /// cannot say which field of an internally tagged enum was wrong.
    pub fn from_value(mut value: Value) -> Result<Event> {
        // Tools return objects as often as text: the JSON of one is its text.
        if value.get("type").and_then(Value::as_str) == Some("toolResult")
            && let Some(r) = value
                .get_mut("result")
                .filter(|r| r.is_object() || r.is_array())
        {
            *r = Value::String(r.to_string());
        }
        check_shape(&value)?;
        serde_json::from_value(value).map_err(|e| Error::type_error("event", e.to_string()))
    }

    pub fn as_ref(&self) -> EventRef<'_> {
        match self {
            Event::TurnStart { message, at_ms } => EventRef::TurnStart {
                message,
                at_ms: *at_ms,
            },
            Event::Token { logprob, at_ms } => EventRef::Token {
                logprob: *logprob,
                at_ms: *at_ms,
            },
            Event::Tokens {
                logprobs,
                unavailable,
                at_ms,
            } => EventRef::Tokens {
                logprobs,
                unavailable: *unavailable,
                at_ms: *at_ms,
            },
            Event::TurnComplete { response, at_ms } => EventRef::TurnComplete {
                response,
                at_ms: *at_ms,
            },
            Event::Cost {
                tokens_in,
                tokens_out,
                wallclock_ms,
                provider,
                usd,
                at_ms,
            } => EventRef::Cost {
                tokens_in: *tokens_in,
                tokens_out: *tokens_out,
                wallclock_ms: *wallclock_ms,
                provider: provider.as_deref(),
                usd: *usd,
                at_ms: *at_ms,
            },
            Event::QualityFeedback { quality, at_ms } => EventRef::QualityFeedback {
                quality: *quality,
                at_ms: *at_ms,
            },
            Event::UserCorrection {
                message,
                corrects_last,
                at_ms,
            } => EventRef::UserCorrection {
                message,
                corrects_last: *corrects_last,
                at_ms: *at_ms,
            },
            Event::ToolCall {
                name,
                args,
                call_id,
                side_effect,
                read_only,
                at_ms,
            } => EventRef::ToolCall {
                name,
                args: args.as_ref().map(Args::Value),
                call_id: call_id.as_deref(),
                effect: EffectHint::from_flags(*side_effect, *read_only),
                at_ms: *at_ms,
            },
            Event::ToolResult {
                name,
                ok,
                duration_ms,
                error,
                result,
                call_id,
                at_ms,
            } => EventRef::ToolResult {
                name,
                ok: *ok,
                duration_ms: *duration_ms,
                error: error.as_deref(),
                result: result.as_deref(),
                call_id: call_id.as_deref(),
                at_ms: *at_ms,
            },
        }
    }

    /// Checks every field against `config`; see [`EventRef::validate`].
    pub fn validate(&self, config: &Config) -> Result<()> {
        self.as_ref().validate(config)
    }
}

impl EventRef<'_> {
    /// The event's `type` string as it appears in JSON.
    pub fn type_name(&self) -> &'static str {
        match self {
            EventRef::TurnStart { .. } => "turnStart",
            EventRef::Token { .. } => "token",
            EventRef::Tokens { .. } => "tokens",
            EventRef::TurnComplete { .. } => "turnComplete",
            EventRef::Cost { .. } => "cost",
            EventRef::QualityFeedback { .. } => "qualityFeedback",
            EventRef::UserCorrection { .. } => "userCorrection",
            EventRef::ToolCall { .. } => "toolCall",
            EventRef::ToolResult { .. } => "toolResult",
        }
    }

    pub fn at_ms(&self) -> Option<u64> {
        match *self {
            EventRef::TurnStart { at_ms, .. }
            | EventRef::Token { at_ms, .. }
            | EventRef::Tokens { at_ms, .. }
            | EventRef::TurnComplete { at_ms, .. }
            | EventRef::Cost { at_ms, .. }
            | EventRef::QualityFeedback { at_ms, .. }
            | EventRef::UserCorrection { at_ms, .. }
            | EventRef::ToolCall { at_ms, .. }
            | EventRef::ToolResult { at_ms, .. } => at_ms,
        }
    }

    /// Checks every field against `config`. Field names in errors are the JS
    /// ones, prefixed with the event type (`qualityFeedback.quality`).
    pub fn validate(&self, config: &Config) -> Result<()> {
        let ty = self.type_name();
        let field = |name| Fld(ty, name);
        let max_text = config.max_text_bytes as usize;
        if let Some(at) = self.at_ms() {
            check_count(field("atMs"), at)?;
        }
        match *self {
            EventRef::TurnStart { message, .. } => check_len(field("message"), message, max_text),
            EventRef::Token { logprob, .. } => match logprob {
                Some(lp) => check_logprob(field("logprob"), lp),
                None => Ok(()),
            },
            EventRef::Tokens {
                logprobs,
                unavailable,
                ..
            } => {
                if logprobs.len() > max_text {
                    return Err(Error::range_error(
                        field("logprobs").to_string(),
                        format!("has {} entries; the limit is {max_text}", logprobs.len()),
                    ));
                }
                for (i, lp) in logprobs.iter().enumerate() {
                    check_logprob(Idx(ty, "logprobs", i), *lp)?;
                }
                check_count(field("unavailable"), unavailable)
            }
            EventRef::TurnComplete { response, .. } => {
                check_len(field("response"), response, max_text)
            }
            EventRef::Cost {
                tokens_in,
                tokens_out,
                wallclock_ms,
                provider,
                usd,
                ..
            } => {
                check_count(field("tokensIn"), tokens_in)?;
                check_count(field("tokensOut"), tokens_out)?;
                check_count(field("wallclockMs"), wallclock_ms)?;
                if let Some(p) = provider {
                    check_len(field("provider"), p, MAX_NAME_BYTES)?;
                }
                if let Some(u) = usd {
                    check_unit_range(field("usd"), u, 0.0, 1e12)?;
                }
                Ok(())
            }
            EventRef::QualityFeedback { quality, .. } => {
                check_unit_range(field("quality"), quality, 0.0, 1.0)
            }
            EventRef::UserCorrection { message, .. } => {
                check_len(field("message"), message, max_text)
            }
            EventRef::ToolCall {
                name,
                args,
                call_id,
                effect,
                ..
            } => {
                check_name(field("name"), name)?;
                if effect == Some(EffectHint::Contradiction) {
                    return Err(Error::type_error(
                        field("sideEffect").to_string(),
                        "cannot be true together with readOnly: true",
                    ));
                }
                if let Some(id) = call_id {
                    check_len(field("callId"), id, MAX_NAME_BYTES)?;
                }
                match args {
                    Some(Args::Value(v)) => check_args(field("args"), v, max_text)?,
                    Some(Args::Json(text)) => check_len(field("args"), text, max_text)?,
                    None => {}
                }
                Ok(())
            }
            EventRef::ToolResult {
                name,
                duration_ms,
                error,
                result,
                call_id,
                ..
            } => {
                check_name(field("name"), name)?;
                check_count(field("durationMs"), duration_ms)?;
                if let Some(e) = error {
                    check_len(field("error"), e, max_text)?;
                }
                if let Some(r) = result {
                    check_len(field("result"), r, max_text)?;
                }
                if let Some(id) = call_id {
                    check_len(field("callId"), id, MAX_NAME_BYTES)?;
                }
                Ok(())
            }
        }
    }
}

/// What a field of an event holds, for shape checks and error messages.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldKind {
    Str,
    Bool,
    /// A whole number from 0 to 2^53 − 1.
    Count,
    /// Any number (range checked later).
    Num,
    /// A number, or `null`.
    NumOrNull,
    /// An array of numbers.
    Nums,
    /// Any JSON value.
    Json,
}

/// Every event type with its fields: `(name, kind, required)`. The single
/// description of the wire shape, also handed to the JS layer.
/// One field: name, kind, required.
pub type FieldSpec = (&'static str, FieldKind, bool);

pub const EVENT_FIELDS: &[(&str, &[FieldSpec])] = {
    use FieldKind::*;
    &[
        (
            "turnStart",
            &[("message", Str, true), ("atMs", Count, false)],
        ),
        (
            "token",
            &[("logprob", NumOrNull, true), ("atMs", Count, false)],
        ),
        (
            "tokens",
            &[
                ("logprobs", Nums, true),
                ("unavailable", Count, false),
                ("atMs", Count, false),
            ],
        ),
        (
            "turnComplete",
            &[("response", Str, true), ("atMs", Count, false)],
        ),
        (
            "cost",
            &[
                ("tokensIn", Count, false),
                ("tokensOut", Count, false),
                ("wallclockMs", Count, false),
                ("provider", Str, false),
                ("usd", Num, false),
                ("atMs", Count, false),
            ],
        ),
        (
            "qualityFeedback",
            &[("quality", Num, true), ("atMs", Count, false)],
        ),
        (
            "userCorrection",
            &[
                ("message", Str, true),
                ("correctsLast", Bool, false),
                ("atMs", Count, false),
            ],
        ),
        (
            "toolCall",
            &[
                ("name", Str, true),
                ("args", Json, false),
                ("callId", Str, false),
                ("sideEffect", Bool, false),
                ("readOnly", Bool, false),
                ("atMs", Count, false),
            ],
        ),
        (
            "toolResult",
            &[
                ("name", Str, true),
                ("ok", Bool, true),
                ("durationMs", Count, false),
                ("error", Str, false),
                ("result", Str, false),
                ("callId", Str, false),
                ("atMs", Count, false),
            ],
        ),
    ]
};

/// A short description of a JSON value for error messages.
pub(crate) fn describe(v: &Value) -> String {
    match v {
        Value::String(s) if s.len() > 40 => "a string".into(),
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
        other => other.to_string(),
    }
}

/// Checks `type`, unknown and missing fields, and each field's JSON type.
fn check_shape(value: &Value) -> Result<()> {
    let obj = value.as_object().ok_or_else(|| {
        Error::type_error(
            "event",
            format!("must be an object, got {}", describe(value)),
        )
    })?;
    let ty = match obj.get("type") {
        Some(Value::String(t)) => t.as_str(),
        Some(other) => {
            return Err(Error::type_error(
                "event.type",
                format!("must be a string, got {}", describe(other)),
            ));
        }
        None => return Err(Error::type_error("event.type", "is missing")),
    };
    let Some((_, fields)) = EVENT_FIELDS.iter().find(|(name, _)| *name == ty) else {
        let known: Vec<&str> = EVENT_FIELDS.iter().map(|(n, _)| *n).collect();
        return Err(Error::type_error(
            "event.type",
            format!(
                "{ty:?} is not an event type; expected one of {}",
                known.join(", ")
            ),
        ));
    };
    for key in obj.keys().filter(|k| *k != "type") {
        if !fields.iter().any(|(name, _, _)| name == key) {
            return Err(Error::type_error(
                format!("{ty}.{key}"),
                "is not a field of this event",
            ));
        }
    }
    for &(name, kind, required) in fields.iter() {
        let field = Fld(ty, name);
        let v = match obj.get(name) {
            None | Some(Value::Null) if kind == FieldKind::NumOrNull && required => {
                if obj.contains_key(name) {
                    continue;
                }
                return Err(Error::type_error(
                    field.to_string(),
                    "is missing (use null for no logprob)",
                ));
            }
            None if required => return Err(Error::type_error(field.to_string(), "is missing")),
            None => continue,
            Some(Value::Null) if !required => continue,
            Some(v) => v,
        };
        let ok = match kind {
            FieldKind::Str => v.is_string(),
            FieldKind::Bool => v.is_boolean(),
            FieldKind::Num | FieldKind::NumOrNull => v.is_number(),
            FieldKind::Nums => v.as_array().is_some_and(|a| a.iter().all(Value::is_number)),
            FieldKind::Json => true,
            FieldKind::Count => {
                if !v.is_number() {
                    false
                } else if v.as_u64().is_none_or(|n| n > MAX_SAFE_INT) {
                    return Err(Error::range_error(
                        field.to_string(),
                        format!("must be a whole number from 0 to 2^53-1, got {v}"),
                    ));
                } else {
                    true
                }
            }
        };
        if !ok {
            let want = match kind {
                FieldKind::Str => "a string",
                FieldKind::Bool => "true or false",
                FieldKind::Nums => "an array of numbers",
                _ => "a number",
            };
            return Err(Error::type_error(
                field.to_string(),
                format!("must be {want}, got {}", describe(v)),
            ));
        }
    }
    Ok(())
}

/// `type.name`, formatted only when an error needs it.
struct Fld<'a>(&'a str, &'a str);

impl fmt::Display for Fld<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.0, self.1)
    }
}

/// `type.name[i]`.
struct Idx<'a>(&'a str, &'a str, usize);

impl fmt::Display for Idx<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}[{}]", self.0, self.1, self.2)
    }
}

/// Counts and times must be exact JS integers.
fn check_count(field: impl fmt::Display, n: u64) -> Result<()> {
    if n > MAX_SAFE_INT {
        return Err(Error::range_error(
            field.to_string(),
            format!("must be at most 2^53-1, got {n}"),
        ));
    }
    Ok(())
}

/// A logprob is ln(p) for p in [0, 1]: at most 0, and -inf means p = 0.
fn check_logprob(field: impl fmt::Display, lp: f64) -> Result<()> {
    if lp.is_nan() {
        return Err(Error::range_error(
            field.to_string(),
            "must be a number, got NaN",
        ));
    }
    if lp > 0.0 {
        return Err(Error::range_error(
            field.to_string(),
            format!("must be at most 0 (a log-probability), got {lp}"),
        ));
    }
    Ok(())
}

fn check_name(field: impl fmt::Display, name: &str) -> Result<()> {
    if name.is_empty() {
        return Err(Error::range_error(field.to_string(), "must not be empty"));
    }
    check_len(field, name, MAX_NAME_BYTES)
}

/// Bounds tool arguments by nesting depth and by total string/key bytes.
fn check_args(field: impl fmt::Display, args: &Value, max_bytes: usize) -> Result<()> {
    fn walk(v: &Value, depth: usize, budget: &mut usize) -> std::result::Result<(), &'static str> {
        if depth > MAX_ARGS_DEPTH {
            return Err("nests too deeply");
        }
        let cost = match v {
            Value::String(s) => s.len(),
            _ => 8,
        };
        *budget = budget.checked_sub(cost).ok_or("is too large")?;
        match v {
            Value::Array(items) => items.iter().try_for_each(|i| walk(i, depth + 1, budget)),
            Value::Object(map) => map.iter().try_for_each(|(k, i)| {
                *budget = budget.checked_sub(k.len()).ok_or("is too large")?;
                walk(i, depth + 1, budget)
            }),
            _ => Ok(()),
        }
    }
    let mut budget = max_bytes;
    walk(args, 0, &mut budget).map_err(|why| {
        Error::range_error(
            field.to_string(),
            format!("{why} (limit: depth {MAX_ARGS_DEPTH}, {max_bytes} bytes)"),
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_shape_is_camel_case_with_a_type_tag() {
        let e =
            Event::from_json(r#"{"type":"cost","tokensIn":25,"tokensOut":800,"wallclockMs":900}"#)
                .unwrap();
        assert_eq!(
            e,
            Event::Cost {
                tokens_in: 25,
                tokens_out: 800,
                wallclock_ms: 900,
                provider: None,
                usd: None,
                at_ms: None
            }
        );
        let round = serde_json::to_string(&e).unwrap();
        assert_eq!(
            round,
            r#"{"type":"cost","tokensIn":25,"tokensOut":800,"wallclockMs":900}"#
        );
        let c = Event::from_json(r#"{"type":"userCorrection","message":"no"}"#).unwrap();
        assert!(matches!(
            c,
            Event::UserCorrection {
                corrects_last: true,
                ..
            }
        ));
        let t = Event::from_json(
            r#"{"type":"toolCall","name":"search","args":{"q":"late"},"callId":"c1"}"#,
        )
        .unwrap();
        assert!(matches!(
            t,
            Event::ToolCall {
                args: Some(_),
                call_id: Some(_),
                ..
            }
        ));
    }

    #[test]
    fn unknown_types_fields_and_wrong_types_name_the_field() {
        use crate::error::ErrorKind::{Range, Type};
        for (text, field, kind, needle) in [
            (
                r#"{"type":"explode"}"#,
                "event.type",
                Type,
                "not an event type",
            ),
            (r#"{"message":"x"}"#, "event.type", Type, "is missing"),
            (r#"[1]"#, "event", Type, "must be an object"),
            (
                r#"{"type":"turnStart","message":"x","extra":1}"#,
                "turnStart.extra",
                Type,
                "not a field",
            ),
            (
                r#"{"type":"turnStart"}"#,
                "turnStart.message",
                Type,
                "is missing",
            ),
            (
                r#"{"type":"cost","tokensOut":-5}"#,
                "cost.tokensOut",
                Range,
                "whole number",
            ),
            (
                r#"{"type":"cost","tokensOut":1.5}"#,
                "cost.tokensOut",
                Range,
                "whole number",
            ),
            (
                r#"{"type":"qualityFeedback","quality":"good"}"#,
                "qualityFeedback.quality",
                Type,
                "must be a number",
            ),
            (
                r#"{"type":"toolResult","name":"x","ok":"yes"}"#,
                "toolResult.ok",
                Type,
                "true or false",
            ),
            (r#"{"type":"token"}"#, "token.logprob", Type, "use null"),
            (
                r#"{"type":"tokens","logprobs":[1,"a"]}"#,
                "tokens.logprobs",
                Type,
                "array of numbers",
            ),
            ("not json", "event", Type, "not JSON"),
        ] {
            let err = Event::from_json(text).unwrap_err();
            assert_eq!((err.field(), err.kind()), (field, kind), "{text}: {err}");
            assert!(err.message().contains(needle), "{text}: {err}");
        }
        assert!(matches!(
            Event::from_json(r#"{"type":"token","logprob":null}"#),
            Ok(Event::Token { logprob: None, .. })
        ));
        assert!(Event::from_json(r#"{"type":"cost","provider":null}"#).is_ok());
    }

    #[test]
    fn the_field_table_matches_the_serde_shape() {
        // Every field the table names deserializes, and a full event of each
        // type serializes to exactly the table's fields.
        let full = [
            Event::TurnStart {
                message: "m".into(),
                at_ms: Some(1),
            },
            Event::Token {
                logprob: Some(-1.0),
                at_ms: Some(1),
            },
            Event::Tokens {
                logprobs: vec![-1.0],
                unavailable: 1,
                at_ms: Some(1),
            },
            Event::TurnComplete {
                response: "r".into(),
                at_ms: Some(1),
            },
            Event::Cost {
                tokens_in: 1,
                tokens_out: 1,
                wallclock_ms: 1,
                provider: Some("p".into()),
                usd: Some(0.1),
                at_ms: Some(1),
            },
            Event::QualityFeedback {
                quality: 0.5,
                at_ms: Some(1),
            },
            Event::UserCorrection {
                message: "m".into(),
                corrects_last: false,
                at_ms: Some(1),
            },
            Event::ToolCall {
                name: "t".into(),
                args: Some(Value::Bool(true)),
                call_id: Some("c".into()),
                side_effect: Some(true),
                read_only: Some(false),
                at_ms: Some(1),
            },
            Event::ToolResult {
                name: "t".into(),
                ok: true,
                duration_ms: 1,
                error: Some("e".into()),
                result: Some("r".into()),
                call_id: Some("c".into()),
                at_ms: Some(1),
            },
        ];
        assert_eq!(full.len(), EVENT_FIELDS.len());
        for (e, (ty, fields)) in full.iter().zip(EVENT_FIELDS) {
            let v = serde_json::to_value(e).unwrap();
            assert_eq!(v["type"], *ty);
            let mut keys: Vec<&str> = v
                .as_object()
                .unwrap()
                .keys()
                .map(String::as_str)
                .filter(|k| *k != "type")
                .collect();
            let mut want: Vec<&str> = fields.iter().map(|f| f.0).collect();
            keys.sort_unstable();
            want.sort_unstable();
            assert_eq!(keys, want, "{ty}");
            assert_eq!(Event::from_value(v).unwrap(), *e);
        }
    }

    #[test]
    fn bad_values_are_range_errors_naming_the_field() {
        let cfg = Config {
            max_text_bytes: 10,
            ..Config::default()
        };
        let cases = [
            (
                Event::QualityFeedback {
                    quality: f64::NAN,
                    at_ms: None,
                },
                "qualityFeedback.quality",
            ),
            (
                Event::QualityFeedback {
                    quality: 1.5,
                    at_ms: None,
                },
                "qualityFeedback.quality",
            ),
            (
                Event::QualityFeedback {
                    quality: -0.1,
                    at_ms: None,
                },
                "qualityFeedback.quality",
            ),
            (
                Event::QualityFeedback {
                    quality: f64::INFINITY,
                    at_ms: None,
                },
                "qualityFeedback.quality",
            ),
            (
                Event::Token {
                    logprob: Some(f64::NAN),
                    at_ms: None,
                },
                "token.logprob",
            ),
            (
                Event::Token {
                    logprob: Some(0.5),
                    at_ms: None,
                },
                "token.logprob",
            ),
            (
                Event::Tokens {
                    logprobs: vec![-1.0, f64::INFINITY],
                    unavailable: 0,
                    at_ms: None,
                },
                "tokens.logprobs[1]",
            ),
            (
                Event::TurnStart {
                    message: "x".repeat(11),
                    at_ms: None,
                },
                "turnStart.message",
            ),
            (
                Event::TurnStart {
                    message: "ok".into(),
                    at_ms: Some(u64::MAX),
                },
                "turnStart.atMs",
            ),
            (
                Event::Cost {
                    tokens_in: 0,
                    tokens_out: 1,
                    wallclock_ms: 0,
                    provider: None,
                    usd: Some(f64::NAN),
                    at_ms: None,
                },
                "cost.usd",
            ),
            (
                Event::ToolCall {
                    name: String::new(),
                    args: None,
                    call_id: None,
                    side_effect: None,
                    read_only: None,
                    at_ms: None,
                },
                "toolCall.name",
            ),
            (
                Event::ToolCall {
                    name: "t".into(),
                    args: Some(Value::String("y".repeat(20))),
                    call_id: None,
                    side_effect: None,
                    read_only: None,
                    at_ms: None,
                },
                "toolCall.args",
            ),
        ];
        for (event, field) in cases {
            let err = event.validate(&cfg).unwrap_err();
            assert_eq!(err.kind(), crate::error::ErrorKind::Range, "{err}");
            assert_eq!(err.field(), field, "{err}");
        }
    }

    #[test]
    fn accepted_edge_values() {
        let cfg = Config::default();
        for e in [
            Event::Token {
                logprob: Some(0.0),
                at_ms: None,
            },
            Event::Token {
                logprob: Some(-0.0),
                at_ms: None,
            },
            Event::Token {
                logprob: Some(f64::NEG_INFINITY),
                at_ms: None,
            },
            Event::Token {
                logprob: None,
                at_ms: None,
            },
            Event::QualityFeedback {
                quality: 0.0,
                at_ms: Some(0),
            },
            Event::QualityFeedback {
                quality: 1.0,
                at_ms: None,
            },
        ] {
            e.validate(&cfg).unwrap();
        }
    }

    #[test]
    fn a_tool_result_may_be_the_json_the_tool_returned() {
        let e = Event::from_json(
            r#"{"type":"toolResult","name":"orders","ok":true,"result":{"status":"shipped","ids":[1,2]}}"#,
        )
        .unwrap();
        let Event::ToolResult { result, .. } = e else {
            panic!("{e:?}")
        };
        assert_eq!(
            result.as_deref(),
            Some(r#"{"ids":[1,2],"status":"shipped"}"#)
        );
        let e =
            Event::from_json(r#"{"type":"toolResult","name":"ls","ok":true,"result":["a","b"]}"#)
                .unwrap();
        assert!(matches!(e, Event::ToolResult { result: Some(r), .. } if r == r#"["a","b"]"#));
        // Text stays text; a number is still no result.
        let err = Event::from_json(r#"{"type":"toolResult","name":"t","ok":true,"result":5}"#)
            .unwrap_err();
        assert_eq!(err.field(), "toolResult.result");
    }
}
