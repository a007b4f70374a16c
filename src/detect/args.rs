//! A canonical fingerprint of tool arguments: equal JSON gives equal
//! fingerprints whatever the key order or number spelling (`1` = `1.0`).
//! Computed straight from the JSON text without building a tree, so a tool
//! call costs no allocations. The same pass notes what the loop rules need
//! from the values: the ids among them (to tell an enumeration of listed
//! items from guessing) and, for a shell tool, whether the command writes.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::detect::tools::{effect, gist};
use crate::error::json_message;
use crate::event::MAX_ARGS_DEPTH;
use crate::hash::{combine, hash_bytes, mix};

/// Most id-like argument values noted per call.
pub const MAX_ARG_NAMES: usize = 8;

/// What one pass over the arguments found besides the fingerprint.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ArgsInfo {
    pub fingerprint: u64,
    /// Hashes of id-like string values (`gist::name_hash`), at most `MAX_ARG_NAMES`.
    pub names: Vec<u32>,
    /// A shell command among the values writes: any string value of a shell
    /// tool, or the value of a `command` / `cmd` / `script` / `action` member.
    pub shell_writes: bool,
}

/// Members whose value is a shell command, whatever the tool is called.
const COMMAND_KEYS: &[&str] = &[
    "command",
    "cmd",
    "commands",
    "script",
    "shell",
    "bash",
    "action",
    "command_line",
    "commandLine",
];

/// Collects `ArgsInfo` beside the hash.
struct Notes {
    shell: bool,
    names: Vec<u32>,
    shell_writes: bool,
    /// The member being read holds a command.
    command: bool,
}

impl Notes {
    fn new(shell: bool) -> Notes {
        Notes {
            shell,
            names: Vec::new(),
            shell_writes: false,
            command: false,
        }
    }

    fn key(&mut self, k: &str) {
        self.command = COMMAND_KEYS.contains(&k);
    }

    fn value(&mut self, s: &str) {
        if self.names.len() < MAX_ARG_NAMES && gist::arg_names(s) {
            self.names.push(gist::name_hash(s));
        }
        if (self.shell || self.command) && !self.shell_writes {
            self.shell_writes = effect::shell_writes(s);
        }
        self.command = false;
    }

    fn done(self, fingerprint: u64) -> ArgsInfo {
        ArgsInfo {
            fingerprint,
            names: self.names,
            shell_writes: self.shell_writes,
        }
    }
}

const NULL: u64 = 0x6e756c6c;
const TRUE: u64 = 0x74727565;
const FALSE: u64 = 0x66616c73;
const STR: u64 = 0x737472;
const ARR: u64 = 0x617272;
const OBJ: u64 = 0x6f626a;

fn num_i(n: i128) -> u64 {
    combine(0x6e756d, (n as u64) ^ ((n >> 64) as u64).rotate_left(7))
}

fn num_f(f: f64) -> u64 {
    // Integral floats hash as the integer they equal, and -0 as 0.
    if f.fract() == 0.0 && f.abs() < 9.0e18 {
        return num_i(f as i128);
    }
    combine(0x666c74, f.to_bits())
}

fn str_h(s: &str) -> u64 {
    combine(STR, hash_bytes(0, s.as_bytes()))
}

/// Objects combine their members with a commutative sum, so key order is ignored.
fn member(k: u64, v: u64) -> u64 {
    mix(k ^ v.rotate_left(32))
}

/// The fingerprint of a parsed JSON value.
pub fn fingerprint_value(v: &Value) -> u64 {
    hash_value(v, &mut Notes::new(false))
}

/// The fingerprint of a parsed JSON value and what its values say;
/// `shell`: look for a command that writes.
pub fn inspect_value(v: &Value, shell: bool) -> ArgsInfo {
    let mut notes = Notes::new(shell);
    let h = hash_value(v, &mut notes);
    notes.done(h)
}

fn hash_value(v: &Value, notes: &mut Notes) -> u64 {
    match v {
        Value::Null => NULL,
        Value::Bool(true) => TRUE,
        Value::Bool(false) => FALSE,
        Value::Number(n) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => num_i(i.into()),
            (_, Some(u), _) => num_i(u.into()),
            (_, _, Some(f)) => num_f(f),
            _ => NULL,
        },
        Value::String(s) => {
            notes.value(s);
            str_h(s)
        }
        Value::Array(items) => combine(
            items
                .iter()
                .fold(ARR, |h, i| combine(h, hash_value(i, notes))),
            items.len() as u64,
        ),
        Value::Object(map) => {
            let sum = map.iter().fold(0u64, |acc, (k, v)| {
                notes.key(k);
                acc.wrapping_add(member(str_h(k), hash_value(v, notes)))
            });
            combine(combine(OBJ, map.len() as u64), sum)
        }
    }
}

/// The fingerprint of JSON text; an error says what is wrong with it.
pub fn fingerprint_json(text: &str) -> Result<u64, String> {
    inspect_json(text, false).map(|i| i.fingerprint)
}

/// The fingerprint of JSON text and what its values say; an error says what
/// is wrong with the text.
pub fn inspect_json(text: &str, shell: bool) -> Result<ArgsInfo, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let mut notes = Notes::new(shell);
    let h = Seed(0, &mut notes, false)
        .deserialize(&mut de)
        .map_err(|e| json_message(&e))?;
    de.end().map_err(|e| json_message(&e))?;
    Ok(notes.done(h))
}

/// Hashes one value at nesting `depth`; `.2`: it is an object key.
struct Seed<'n>(usize, &'n mut Notes, bool);

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = u64;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<u64, D::Error> {
        if self.0 > MAX_ARGS_DEPTH {
            return Err(D::Error::custom(format!(
                "nests deeper than {MAX_ARGS_DEPTH}"
            )));
        }
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = u64;
    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("JSON")
    }
    fn visit_unit<E>(self) -> Result<u64, E> {
        Ok(NULL)
    }
    fn visit_bool<E>(self, b: bool) -> Result<u64, E> {
        Ok(if b { TRUE } else { FALSE })
    }
    fn visit_i64<E>(self, n: i64) -> Result<u64, E> {
        Ok(num_i(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<u64, E> {
        Ok(num_i(n.into()))
    }
    fn visit_f64<E>(self, f: f64) -> Result<u64, E> {
        Ok(num_f(f))
    }
    fn visit_str<E>(self, s: &str) -> Result<u64, E> {
        if self.2 {
            self.1.key(s);
        } else {
            self.1.value(s);
        }
        Ok(str_h(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        let (mut h, mut n) = (ARR, 0u64);
        while let Some(v) = seq.next_element_seed(Seed(self.0 + 1, &mut *self.1, false))? {
            h = combine(h, v);
            n += 1;
        }
        Ok(combine(h, n))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let (mut sum, mut n) = (0u64, 0u64);
        while let Some(k) = map.next_key_seed(Seed(self.0 + 1, &mut *self.1, true))? {
            let v = map.next_value_seed(Seed(self.0 + 1, &mut *self.1, false))?;
            sum = sum.wrapping_add(member(k, v));
            n += 1;
        }
        Ok(combine(combine(OBJ, n), sum))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fp(text: &str) -> u64 {
        let from_text = fingerprint_json(text).unwrap();
        let value: Value = serde_json::from_str(text).unwrap();
        assert_eq!(
            from_text,
            fingerprint_value(&value),
            "text and tree disagree on {text}"
        );
        from_text
    }

    #[test]
    fn key_order_and_number_spelling_do_not_matter() {
        assert_eq!(
            fp(r#"{"q":"late","days":7}"#),
            fp(r#"{ "days": 7.0, "q": "late" }"#)
        );
        assert_eq!(fp("[1,-0.0]"), fp("[1.0,0]"));
        assert_eq!(
            fp(r#"{"a":{"x":1,"y":[true,null]}}"#),
            fp(r#"{"a":{"y":[true,null],"x":1}}"#)
        );
    }

    #[test]
    fn different_arguments_differ() {
        let all = [
            "null",
            "true",
            "false",
            "0",
            "1",
            "1.5",
            "\"1\"",
            "[]",
            "{}",
            "[1,2]",
            "[2,1]",
            "[[1],2]",
            "[1,[2]]",
            r#"{"a":1}"#,
            r#"{"a":2}"#,
            r#"{"b":1}"#,
            r#"{"a":1,"b":1}"#,
            r#"{"a":"b"}"#,
            r#"{"b":"a"}"#,
            "\"\"",
        ];
        let mut seen = std::collections::BTreeSet::new();
        for a in all {
            assert!(seen.insert(fp(a)), "collision on {a}");
        }
    }

    #[test]
    fn values_are_noted_the_same_from_text_and_tree() {
        let text = r##"{"reservation_id": "H9ZU1C", "note": "hello there", "ids": ["#W1", "P-301"], "command": "cat > f.py <<EOF\nx\nEOF"}"##;
        let value: Value = serde_json::from_str(text).unwrap();
        let from_text = inspect_json(text, true).unwrap();
        let mut from_tree = inspect_value(&value, true);
        assert_eq!(from_text.fingerprint, from_tree.fingerprint);
        assert!(from_text.shell_writes);
        let mut names = from_text.names.clone();
        names.sort_unstable();
        from_tree.names.sort_unstable();
        assert_eq!(
            names, from_tree.names,
            "object members may come in any order"
        );
        assert_eq!(names.len(), 3, "H9ZU1C, #W1 and P-301; not the prose");
        assert!(
            inspect_json(text, false).unwrap().shell_writes,
            "a `command` member is a command whatever the tool"
        );
        let prose = r#"{"note": "cat > f.py", "query": "x > 5"}"#;
        assert!(!inspect_json(prose, false).unwrap().shell_writes);
        assert!(
            inspect_json(prose, true).unwrap().shell_writes,
            "a shell tool's strings are commands"
        );
        let nested = r#"{"action": {"note": "a > b"}}"#;
        assert!(!inspect_json(nested, false).unwrap().shell_writes);
        let many = format!("[{}]", vec!["\"A_1\""; 100].join(","));
        assert_eq!(
            inspect_json(&many, false).unwrap().names.len(),
            MAX_ARG_NAMES
        );
    }

    #[test]
    fn bad_and_deep_json_is_an_error() {
        assert!(fingerprint_json("{").is_err());
        assert!(fingerprint_json("1 2").is_err());
        let deep = format!("{}{}", "[".repeat(70), "]".repeat(70));
        assert!(fingerprint_json(&deep).unwrap_err().contains("deeper"));
        let ok = format!("{}{}", "[".repeat(60), "]".repeat(60));
        fp(&ok);
    }
}
