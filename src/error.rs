//! One error type for every bad input. It names the field that was wrong so the
//! JS layer can throw a `TypeError` or `RangeError` with a useful message.

use std::fmt;

/// Which JS error class a failure maps to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// Wrong shape: missing field, wrong type, unknown event type, foreign snapshot.
    Type,
    /// Right shape, unacceptable value: NaN, negative, too long, future version.
    Range,
}

/// A rejected input. The regulator is unchanged when one of these is returned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    kind: ErrorKind,
    field: String,
    message: String,
}

impl Error {
    pub fn type_error(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            kind: ErrorKind::Type,
            field: field.into(),
            message: message.into(),
        }
    }

    pub fn range_error(field: impl Into<String>, message: impl Into<String>) -> Self {
        Self {
            kind: ErrorKind::Range,
            field: field.into(),
            message: message.into(),
        }
    }

    pub fn kind(&self) -> ErrorKind {
        self.kind
    }

    /// The offending field as a dotted path, e.g. `qualityFeedback.quality`.
    pub fn field(&self) -> &str {
        &self.field
    }

    pub fn message(&self) -> &str {
        &self.message
    }

    /// A stable code for what kind of input was refused (the JS errors
    /// carry it as `code`): see `code_for`.
    pub fn code(&self) -> &'static str {
        code_for(&self.field, &self.message)
    }
}

/// The code of a refused input, from the field it names: an option, a
/// snapshot (a newer one, another user's, or malformed), or an event or
/// argument. One mapping, used by the core's errors and the JS layer's.
pub fn code_for(field: &str, message: &str) -> &'static str {
    let head = field.split(['.', '[']).next().unwrap_or("");
    match head {
        "snapshot" if field == "snapshot.version" && message.contains("newer") => {
            "REINS_SNAPSHOT_VERSION"
        }
        "snapshot" if field == "snapshot.userId" && message.contains("users never mix") => {
            "REINS_SNAPSHOT_USER"
        }
        "snapshot" | "memory" | "session" => "REINS_INVALID_SNAPSHOT",
        "options" | "config" | "userId" => "REINS_INVALID_OPTION",
        _ => "REINS_INVALID_EVENT",
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.field.is_empty() {
            f.write_str(&self.message)
        } else {
            write!(f, "{}: {}", self.field, self.message)
        }
    }
}

impl std::error::Error for Error {}

pub type Result<T> = std::result::Result<T, Error>;

/// Checks a float is finite (field names are formatted only on failure,
/// because validation runs on every hot call) inside `[lo, hi]`.
pub(crate) fn check_unit_range(
    field: impl fmt::Display,
    value: f64,
    lo: f64,
    hi: f64,
) -> Result<()> {
    if value.is_nan() {
        return Err(Error::range_error(
            field.to_string(),
            "must be a number, got NaN",
        ));
    }
    if !value.is_finite() {
        return Err(Error::range_error(
            field.to_string(),
            format!("must be finite, got {value}"),
        ));
    }
    if value < lo || value > hi {
        return Err(Error::range_error(
            field.to_string(),
            format!("must be between {lo} and {hi}, got {value}"),
        ));
    }
    Ok(())
}

/// A JSON parser's complaint without its position ("… at line 1 column
/// 21"): the caller names the field, and a position in text the user never
/// wrote (the JS layer's `JSON.stringify` output) only confuses.
pub(crate) fn json_message(e: &serde_json::Error) -> String {
    let text = e.to_string();
    let text = match text.rfind(" at line ") {
        Some(i) if e.line() > 0 => &text[..i],
        _ => &text,
    };
    // Rust's names for what was expected, as a JS user knows them.
    [
        ("expected u64", "expected a whole number"),
        ("expected u32", "expected a whole number"),
        ("expected f64", "expected a number"),
        ("expected a sequence", "expected an array"),
        ("expected a map", "expected an object"),
        ("floating point", "number"),
        ("unit value", "null"),
    ]
    .iter()
    .fold(text.to_string(), |t, (rust, js)| t.replace(rust, js))
}

/// Checks a string is at most `max` UTF-8 bytes.
pub(crate) fn check_len(field: impl fmt::Display, value: &str, max: usize) -> Result<()> {
    if value.len() > max {
        return Err(Error::range_error(
            field.to_string(),
            format!("is {} bytes long; the limit is {max} bytes", value.len()),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod code_tests {
    use super::*;

    #[test]
    fn codes_follow_the_field() {
        let code = |f: &str, m: &str| code_for(f, m);
        assert_eq!(code("options.costCapTokens", "x"), "REINS_INVALID_OPTION");
        assert_eq!(code("config.patternThreshold", "x"), "REINS_INVALID_OPTION");
        assert_eq!(code("userId", "x"), "REINS_INVALID_OPTION");
        assert_eq!(
            code("snapshot.version", "is 9, newer than this reins reads"),
            "REINS_SNAPSHOT_VERSION"
        );
        assert_eq!(
            code("snapshot.version", "must be a whole number"),
            "REINS_INVALID_SNAPSHOT"
        );
        assert_eq!(
            code("snapshot.userId", "is \"b\", …; users never mix"),
            "REINS_SNAPSHOT_USER"
        );
        assert_eq!(
            code("memory.corrections[\"t\"][0].text", "x"),
            "REINS_INVALID_SNAPSHOT"
        );
        assert_eq!(code("session.budget", "x"), "REINS_INVALID_SNAPSHOT");
        assert_eq!(code("cost.tokensOut", "x"), "REINS_INVALID_EVENT");
        assert_eq!(code("", "x"), "REINS_INVALID_EVENT");
        let e = Error::range_error("snapshot.version", "is 2, newer than this reins reads");
        assert_eq!(e.code(), "REINS_SNAPSHOT_VERSION");
    }
}
