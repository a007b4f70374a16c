//! A canonical fingerprint of tool arguments: equal JSON gives equal
//! fingerprints whatever the key order or number spelling (`1` = `1.0`).
//! Computed straight from the JSON text without building a tree (`read`), so
//! a tool call costs no allocations. The same pass notes what the loop rules need
//! from the values: the ids among them (to tell an enumeration of listed
//! items from guessing) and, for a shell tool, whether the command writes.

use serde_json::Value;

use crate::detect::tools::{effect, gist};
use crate::hash::{combine, hash_bytes, mix};

mod read;

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
    let mut notes = Notes::new(shell);
    let h = read::Reader::new(text, &mut notes).document()?;
    Ok(notes.done(h))
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

    #[test]
    fn the_reader_accepts_exactly_what_serde_json_accepts() {
        let cases = [
            "",
            " ",
            "01",
            "1.",
            "-",
            "+1",
            "1e",
            ".5",
            "[1,]",
            r#"{"a":1,}"#,
            "{a:1}",
            r#""\x""#,
            r#""\ud800""#,
            r#""\udc00""#,
            r#""\ud800\u0041""#,
            "\"a\nb\"",
            "nul",
            "[1 2]",
            r#"{"a" 1}"#,
            "1e400",
            "-1e400",
            "[",
            "{",
            "\"abc",
            "tru",
            "[]]",
            "\u{feff}1",
            r#""\u12""#,
            "--1",
            "-01",
            "1.5e",
            "[,1]",
            "{,}",
            "1E+2",
            "-0",
            "0.0e0",
            "18446744073709551615",
            "18446744073709551616",
            "-9223372036854775808",
            "-9223372036854775809",
            r#""\u00e9\ud83d\ude00""#,
            r#"  {"a" : [ ] , "b":{}}  "#,
            r#""\"\\\/\b\f\n\r\t""#,
            "1e-400",
            "123456789012345678901234567890",
            "0.1",
            "-2.5E-3",
            "true",
            "false",
            "null",
        ];
        for text in cases {
            let serde = serde_json::from_str::<Value>(text);
            let ours = fingerprint_json(text);
            assert_eq!(ours.is_ok(), serde.is_ok(), "{text:?}: {ours:?}");
            if let Ok(v) = serde {
                assert_eq!(ours.unwrap(), fingerprint_value(&v), "{text:?}");
            }
        }
    }

    #[test]
    fn the_reader_hashes_every_value_as_the_tree_does() {
        use proptest::prelude::*;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<u64>().prop_map(Value::from),
            any::<f64>()
                .prop_filter("finite", |f| f.is_finite())
                .prop_map(Value::from),
            "\\PC{0,12}".prop_map(Value::String),
            "[a-z\"\\\n\u{0}-\u{1f}é😀]{0,8}".prop_map(Value::String),
        ];
        let tree = leaf.prop_recursive(4, 32, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..6).prop_map(Value::Array),
                prop::collection::btree_map("[a-z\"é]{0,6}", inner, 0..6)
                    .prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        });
        proptest!(ProptestConfig::with_cases(2000), |(v in tree, pretty in any::<bool>())| {
            let text = if pretty {
                serde_json::to_string_pretty(&v).unwrap()
            } else {
                serde_json::to_string(&v).unwrap()
            };
            let from_text = inspect_json(&text, true).unwrap();
            let mut from_tree = inspect_value(&v, true);
            prop_assert_eq!(from_text.fingerprint, from_tree.fingerprint, "{}", text);
            prop_assert_eq!(from_text.shell_writes, from_tree.shell_writes);
            let mut names = from_text.names.clone();
            names.sort_unstable();
            from_tree.names.sort_unstable();
            prop_assert_eq!(names.len(), from_tree.names.len());
        });
    }
}
