//! A database schema the request keeps ("don't change the schema",
//! "不要改动表结构", "без изменения структуры таблиц"), and the statements
//! of an answer's code that change it anyway: no word of the request shows
//! up in an `ALTER TABLE … ADD COLUMN`.

/// Stems (or their starts) that name a schema or a table's structure.
const SCHEMA: &[&str] = &[
    "schema",
    "schém",
    "esquema",
    "structur",
    "struktur",
    "estrutur",
    "struttur",
    "структур",
    "схем",
    "结构",
    "構造",
    "スキ",
];

/// Statements that change a schema, lowercase.
const CHANGES: &[&str] = &[
    "alter table",
    "create table",
    "drop table",
    "create index",
    "create unique index",
    "add column",
    "drop column",
    "create trigger",
    "create materialized view",
];

/// Whether the request rules out or keeps a schema.
pub fn ruled_out(forbidden: &[String], protected: &[String]) -> bool {
    forbidden
        .iter()
        .chain(protected)
        .any(|st| SCHEMA.iter().any(|s| st.starts_with(s)))
}

/// The schema-changing statements in `code`, as written in `CHANGES`.
pub fn changes(code: &str) -> Vec<String> {
    // Whitespace folded so "ALTER  TABLE\n" is found too.
    let folded = code
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase();
    CHANGES
        .iter()
        .filter(|c| folded.contains(*c))
        .map(|c| (*c).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stems(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_string()).collect()
    }

    #[test]
    fn a_kept_schema_in_several_languages() {
        assert!(ruled_out(&[], &stems(&["schema"])));
        assert!(ruled_out(&stems(&["структуру", "таблиц"]), &[]));
        assert!(ruled_out(&[], &stems(&["表结", "结构"])));
        assert!(!ruled_out(&stems(&["logging"]), &stems(&["signatur"])));
    }

    #[test]
    fn statements_that_change_it() {
        let code = "ALTER TABLE orders\n  ADD COLUMN total numeric;\nSELECT 1;";
        assert_eq!(changes(code), ["alter table", "add column"]);
        assert!(changes("SELECT id FROM orders WHERE total > 10;").is_empty());
        assert_eq!(changes("create  index idx on t(a);"), ["create index"]);
    }
}
