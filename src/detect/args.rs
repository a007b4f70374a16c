//! A canonical fingerprint of tool arguments: equal JSON gives equal
//! fingerprints whatever the key order or number spelling (`1` = `1.0`).
//! Computed straight from the JSON text without building a tree, so a tool
//! call costs no allocations.

use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, Error as _, MapAccess, SeqAccess, Visitor};
use serde_json::Value;

use crate::error::json_message;
use crate::event::MAX_ARGS_DEPTH;
use crate::hash::{combine, hash_bytes, mix};

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
        Value::String(s) => str_h(s),
        Value::Array(items) => combine(
            items
                .iter()
                .fold(ARR, |h, i| combine(h, fingerprint_value(i))),
            items.len() as u64,
        ),
        Value::Object(map) => {
            let sum = map.iter().fold(0u64, |acc, (k, v)| {
                acc.wrapping_add(member(str_h(k), fingerprint_value(v)))
            });
            combine(combine(OBJ, map.len() as u64), sum)
        }
    }
}

/// The fingerprint of JSON text; an error says what is wrong with it.
pub fn fingerprint_json(text: &str) -> Result<u64, String> {
    let mut de = serde_json::Deserializer::from_str(text);
    let h = Seed(0).deserialize(&mut de).map_err(|e| json_message(&e))?;
    de.end().map_err(|e| json_message(&e))?;
    Ok(h)
}

/// Hashes one value at nesting `depth`.
struct Seed(usize);

impl<'de> DeserializeSeed<'de> for Seed {
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

impl<'de> Visitor<'de> for Seed {
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
        Ok(str_h(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<u64, A::Error> {
        let (mut h, mut n) = (ARR, 0u64);
        while let Some(v) = seq.next_element_seed(Seed(self.0 + 1))? {
            h = combine(h, v);
            n += 1;
        }
        Ok(combine(h, n))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<u64, A::Error> {
        let (mut sum, mut n) = (0u64, 0u64);
        while let Some(k) = map.next_key_seed(Seed(self.0 + 1))? {
            let v = map.next_value_seed(Seed(self.0 + 1))?;
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
    fn bad_and_deep_json_is_an_error() {
        assert!(fingerprint_json("{").is_err());
        assert!(fingerprint_json("1 2").is_err());
        let deep = format!("{}{}", "[".repeat(70), "]".repeat(70));
        assert!(fingerprint_json(&deep).unwrap_err().contains("deeper"));
        let ok = format!("{}{}", "[".repeat(60), "]".repeat(60));
        fp(&ok);
    }
}
