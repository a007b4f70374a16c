//! Typed values from a parsed `serde_json::Value`, by hand: the session's
//! detector state in a snapshot is a tree of some twenty structs, and
//! serde's derived deserialisers for it were ~100 KB of the module (the
//! largest block of code a page or Worker loads and never runs on a turn).
//! serde_json still parses the text; these only take the tree apart, and
//! name the field that is wrong (`tools.recent[2].key`).
//!
//! They read what the derived deserialisers read from a snapshot reins
//! wrote (a test holds them equal on real sessions): every field by its
//! camelCase name, unknown fields refused, a missing field an error unless
//! it has a default. Unlike serde they do not read a struct written as an
//! array of its fields, and a key given twice keeps its last value.

use std::collections::VecDeque;

use serde_json::{Map, Value};

use crate::sorted_map::SortedMap;

/// A value that does not fit its type: where (a path below the value read)
/// and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bad {
    pub path: String,
    pub message: String,
}

impl Bad {
    pub fn new(message: impl Into<String>) -> Bad {
        Bad {
            path: String::new(),
            message: message.into(),
        }
    }

    /// The same error, one level further out: under the field `key`.
    pub fn within(mut self, key: &str) -> Bad {
        self.path = match self.path.as_str() {
            "" => key.to_string(),
            p if p.starts_with('[') => format!("{key}{p}"),
            p => format!("{key}.{p}"),
        };
        self
    }
}

pub type Got<T> = std::result::Result<T, Bad>;

/// A type read from a JSON value.
pub trait FromJson: Sized {
    /// The field names of a struct read by `from_json!` (for the test that
    /// holds them to serde's).
    const FIELDS: &'static [&'static str] = &[];

    fn from_json(v: &Value) -> Got<Self>;
}

/// `FromJson` for a struct, field by field: `req` (must be there), `opt`
/// (its default when missing), `hex` and `hex_opt` (ids as 16 hex digits),
/// each with its JSON name; `..base` fills fields that are not stored.
macro_rules! from_json {
    ($ty:ident { $($how:ident $field:ident: $name:literal),* $(,)? } $(.. $base:expr)?) => {
        impl $crate::json::typed::FromJson for $ty {
            const FIELDS: &'static [&'static str] = &[$($name),*];

            fn from_json(v: &serde_json::Value) -> $crate::json::typed::Got<$ty> {
                let mut f = $crate::json::typed::Fields::of(v)?;
                let out = $ty { $($field: f.$how($name),)* $(..$base)? };
                f.end(Self::FIELDS)?;
                Ok(out)
            }
        }
    };
}
pub(crate) use from_json;

/// The fields of an object, taken one by one. A field that is wrong
/// records its error and reads as its default, so a struct is built
/// without an early return per field (whose drop code would be most of a
/// reader's size); `end` returns the first error, or refuses the rest.
pub struct Fields<'a> {
    map: &'a Map<String, Value>,
    taken: usize,
    bad: Option<Bad>,
}

impl<'a> Fields<'a> {
    pub fn of(v: &'a Value) -> Got<Fields<'a>> {
        match v {
            Value::Object(map) => Ok(Fields {
                map,
                taken: 0,
                bad: None,
            }),
            _ => Err(Bad::new("must be an object")),
        }
    }

    fn take(&mut self, key: &str) -> Option<&'a Value> {
        let v = self.map.get(key);
        self.taken += usize::from(v.is_some());
        v
    }

    fn fail(&mut self, key: &str, bad: Bad) {
        if self.bad.is_none() {
            self.bad = Some(bad.within(key));
        }
    }

    /// A field read by `read`; when it is not there, its default if
    /// `optional`, else an error.
    fn read<T: Default>(&mut self, key: &str, read: fn(&Value) -> Got<T>, optional: bool) -> T {
        let got = match self.take(key) {
            Some(v) => read(v),
            None if optional => Ok(T::default()),
            None => Err(Bad::new("is missing")),
        };
        got.unwrap_or_else(|bad| {
            self.fail(key, bad);
            T::default()
        })
    }

    /// A field that must be there (`Option` fields: use `opt`).
    pub fn req<T: FromJson + Default>(&mut self, key: &str) -> T {
        self.read(key, T::from_json, false)
    }

    /// A field that takes its type's default when missing.
    pub fn opt<T: FromJson + Default>(&mut self, key: &str) -> T {
        self.read(key, T::from_json, true)
    }

    /// A required id as 16 hex digits.
    pub fn hex(&mut self, key: &str) -> u64 {
        self.read(key, hex, false)
    }

    /// An optional id as 16 hex digits, or null; `None` when missing.
    pub fn hex_opt(&mut self, key: &str) -> Option<u64> {
        self.read(key, hex_opt, true)
    }

    /// The first field that was wrong; else every field was taken, or the
    /// first other one is named. `known` lists the fields the type has.
    pub fn end(self, known: &[&str]) -> Got<()> {
        if let Some(bad) = self.bad {
            return Err(bad);
        }
        if self.taken == self.map.len() {
            return Ok(());
        }
        let other = self.map.keys().find(|k| !known.contains(&k.as_str()));
        Err(Bad::new("is not a field").within(other.map_or("?", |k| k.as_str())))
    }
}

fn whole(v: &Value) -> Got<u64> {
    v.as_u64().ok_or_else(|| Bad::new("must be a whole number"))
}

impl FromJson for u64 {
    fn from_json(v: &Value) -> Got<u64> {
        whole(v)
    }
}

macro_rules! narrow {
    ($($t:ty),*) => {$(
        impl FromJson for $t {
            fn from_json(v: &Value) -> Got<$t> {
                <$t>::try_from(whole(v)?).map_err(|_| {
                    Bad::new(format!("must be a whole number up to {}", <$t>::MAX))
                })
            }
        }
    )*};
}
narrow!(u32, u16, u8);

impl FromJson for f64 {
    fn from_json(v: &Value) -> Got<f64> {
        v.as_f64().ok_or_else(|| Bad::new("must be a number"))
    }
}

impl FromJson for bool {
    fn from_json(v: &Value) -> Got<bool> {
        v.as_bool().ok_or_else(|| Bad::new("must be true or false"))
    }
}

impl FromJson for String {
    fn from_json(v: &Value) -> Got<String> {
        str_of(v).map(str::to_string)
    }
}

/// A string value, borrowed.
pub fn str_of(v: &Value) -> Got<&str> {
    v.as_str().ok_or_else(|| Bad::new("must be a string"))
}

impl<T: FromJson> FromJson for Option<T> {
    fn from_json(v: &Value) -> Got<Option<T>> {
        match v {
            Value::Null => Ok(None),
            v => T::from_json(v).map(Some),
        }
    }
}

impl<T: FromJson> FromJson for Box<T> {
    fn from_json(v: &Value) -> Got<Box<T>> {
        T::from_json(v).map(Box::new)
    }
}

/// The items of an array, each read by `read`.
pub fn items<'v, T>(v: &'v Value, read: impl Fn(&'v Value) -> Got<T>) -> Got<Vec<T>> {
    let Value::Array(items) = v else {
        return Err(Bad::new("must be an array"));
    };
    let mut out = Vec::with_capacity(items.len());
    for (i, v) in items.iter().enumerate() {
        out.push(read(v).map_err(|e| e.within(&format!("[{i}]")))?);
    }
    Ok(out)
}

impl<T: FromJson> FromJson for Vec<T> {
    fn from_json(v: &Value) -> Got<Vec<T>> {
        items(v, T::from_json)
    }
}

impl<T: FromJson> FromJson for VecDeque<T> {
    fn from_json(v: &Value) -> Got<VecDeque<T>> {
        items(v, T::from_json).map(VecDeque::from)
    }
}

impl<T: FromJson> FromJson for SortedMap<String, T> {
    fn from_json(v: &Value) -> Got<SortedMap<String, T>> {
        let Value::Object(map) = v else {
            return Err(Bad::new("must be an object"));
        };
        // serde_json's object is already in key order, each key once.
        let mut out = Vec::with_capacity(map.len());
        for (k, v) in map {
            out.push((k.clone(), T::from_json(v).map_err(|e| e.within(k))?));
        }
        Ok(SortedMap::from_pairs(out))
    }
}

impl FromJson for (String, String) {
    fn from_json(v: &Value) -> Got<(String, String)> {
        match v.as_array().map(Vec::as_slice) {
            Some([a, b]) => Ok((
                String::from_json(a).map_err(|e| e.within("[0]"))?,
                String::from_json(b).map_err(|e| e.within("[1]"))?,
            )),
            _ => Err(Bad::new("must be an array of two strings")),
        }
    }
}

/// A 64-bit hash or id written as 16 hex digits (`hash::hex`).
pub fn hex(v: &Value) -> Got<u64> {
    let t = str_of(v)?;
    crate::hash::parse_hex(t).ok_or_else(|| Bad::new(format!("{t:?} is not 16 hex digits")))
}

/// The same, or null (`hash::hex_opt`).
pub fn hex_opt(v: &Value) -> Got<Option<u64>> {
    match v {
        Value::Null => Ok(None),
        v => hex(v).map(Some),
    }
}

/// A unit variant of an enum, by its name among `names` (in the order of
/// `variants`).
pub fn variant<T: Copy>(v: &Value, names: &[&str], variants: &[T]) -> Got<T> {
    let t = str_of(v)?;
    names
        .iter()
        .position(|n| *n == t)
        .and_then(|i| variants.get(i).copied())
        .ok_or_else(|| Bad::new(format!("{t:?} is not one of {}", names.join(", "))))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Debug, Default, PartialEq)]
    struct Two {
        a: u32,
        b: Vec<Option<String>>,
    }

    from_json!(Two {
        req a: "a",
        opt b: "b",
    });

    fn err(v: Value) -> (String, String) {
        let e = Vec::<Two>::from_json(&v).unwrap_err();
        (e.path, e.message)
    }

    #[test]
    fn reads_fields_and_names_what_is_wrong() {
        let v = json!([{"a": 1}, {"a": 2, "b": [null, "x"]}]);
        assert_eq!(
            Vec::<Two>::from_json(&v).unwrap(),
            [
                Two { a: 1, b: vec![] },
                Two {
                    a: 2,
                    b: vec![None, Some("x".into())]
                }
            ]
        );
        let at = |p: &str, m: &str| (p.to_string(), m.to_string());
        assert_eq!(err(json!([{"a": 1}, {}])), at("[1].a", "is missing"));
        assert_eq!(
            err(json!([{"a": 1, "c": 0}])),
            at("[0].c", "is not a field")
        );
        assert_eq!(
            err(json!([{"a": 1.5}])),
            at("[0].a", "must be a whole number")
        );
        assert_eq!(
            err(json!([{"a": -1}])),
            at("[0].a", "must be a whole number")
        );
        let big = at("[0].a", "must be a whole number up to 4294967295");
        assert_eq!(err(json!([{"a": 4_294_967_296u64}])), big);
        assert_eq!(
            err(json!([{"a": 0, "b": [1]}])),
            at("[0].b[0]", "must be a string")
        );
        assert_eq!(err(json!({})), at("", "must be an array"));
        assert_eq!(err(json!([7])), at("[0]", "must be an object"));
    }

    #[test]
    fn hex_ids_and_variants() {
        assert_eq!(hex(&json!("00000000000000ff")), Ok(255));
        for bad in [
            json!("ff"),
            json!("+0000000000000ff"),
            json!(255),
            json!(null),
        ] {
            assert!(hex(&bad).is_err(), "{bad}");
        }
        assert_eq!(hex_opt(&json!(null)), Ok(None));
        assert_eq!(variant(&json!("b"), &["a", "b"], &[1, 2]), Ok(2));
        let e = variant(&json!("c"), &["a", "b"], &[1, 2]).unwrap_err();
        assert_eq!(e.message, "\"c\" is not one of a, b");
    }
}
