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

/// Code in lowercase with its whitespace folded, so "ALTER  TABLE\n" is
/// found as "alter table".
fn folded(code: &str) -> String {
    code.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// The schema-changing statements in `code`, as written in `CHANGES`.
pub fn changes(code: &str) -> Vec<String> {
    let folded = folded(code);
    CHANGES
        .iter()
        .filter(|c| folded.contains(*c))
        .map(|c| (*c).to_string())
        .collect()
}

// The words that ask for each object, in the nine languages.
const TRIGGER: &[&str] = &[
    "trigger",
    "disparador",
    "déclencheur",
    "триггер",
    "触发器",
    "トリガー",
];
const VIEW: &[&str] = &[
    "view",
    "materialized",
    "vista",
    "vue",
    "ansicht",
    "представление",
    "视图",
    "ビュー",
];
const PARTITION: &[&str] = &[
    "partition",
    "partición",
    "partitionnement",
    "partitionierung",
    "partição",
    "partizione",
    "партиция",
    "分区",
    "パーティション",
];
const FUNCTION: &[&str] = &[
    "function",
    "procedure",
    "función",
    "procedimiento",
    "fonction",
    "procédure",
    "funktion",
    "prozedur",
    "função",
    "procedimento",
    "funzione",
    "функция",
    "процедура",
    "函数",
    "存储过程",
    "関数",
    "プロシージャ",
];
const SCHEDULE: &[&str] = &[
    "cron",
    "schedule",
    "programar",
    "planifier",
    "planen",
    "agendar",
    "pianificare",
    "расписание",
    "定时",
    "スケジュール",
];
const CONSTRAINT: &[&str] = &[
    "constraint",
    "unique",
    "key",
    "restricción",
    "único",
    "contrainte",
    "einschränkung",
    "eindeutig",
    "restrição",
    "vincolo",
    "unico",
    "ограничение",
    "уникальный",
    "约束",
    "唯一",
    "制約",
    "一意",
];
const REQUIRED: &[&str] = &[
    "null",
    "required",
    "mandatory",
    "obligatorio",
    "obligatoire",
    "pflicht",
    "obrigatório",
    "obbligatorio",
    "обязательный",
    "必填",
    "必須",
];
const TABLE: &[&str] = &[
    "table",
    "schema",
    "create",
    "tabla",
    "crear",
    "créer",
    "tabelle",
    "erstellen",
    "tabela",
    "criar",
    "tabella",
    "creare",
    "таблица",
    "таблицу",
    "создать",
    "создай",
    "创建",
    "建表",
    "テーブル",
    "作成",
];

/// Database objects an answer's SQL creates (lowercase statement starts)
/// and the words of a request that ask for them. Indexes are left out: an
/// index is the usual answer to a slow query, asked for or not.
const OBJECTS: &[(&str, &[&str])] = &[
    ("create trigger", TRIGGER),
    ("create materialized view", VIEW),
    ("create view", VIEW),
    ("create or replace view", VIEW),
    ("partition by range", PARTITION),
    ("partition by list", PARTITION),
    ("partition by hash", PARTITION),
    ("create procedure", FUNCTION),
    ("create function", FUNCTION),
    ("create or replace function", FUNCTION),
    ("cron.schedule", SCHEDULE),
    ("add constraint", CONSTRAINT),
    ("set not null", REQUIRED),
    ("create table", TABLE),
];

/// Database objects `code` creates that the request never asked for
/// (`asked` tells whether it named a word): a trigger and an audit table
/// around "a query for January's orders".
pub fn unasked(code: &str, asked: &dyn Fn(&str) -> bool) -> Vec<String> {
    // Most code creates none: a few substring searches rule it out before
    // the copy below (SQL is written in upper or lower case).
    const WORDS: &[&str] = &[
        "create",
        "CREATE",
        "Create",
        "partition",
        "PARTITION",
        "cron.",
        "constraint",
        "CONSTRAINT",
        "null",
        "NULL",
    ];
    if !WORDS.iter().any(|w| code.contains(w)) {
        return Vec::new();
    }
    let folded = folded(code);
    let mut found: Vec<String> = Vec::new();
    for (statement, words) in OBJECTS {
        if folded.contains(statement) && !words.iter().any(|w| asked(w)) {
            found.push((*statement).to_string());
        }
    }
    found
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
    fn objects_nobody_asked_for() {
        let code = "SELECT * FROM orders WHERE created_at >= '2024-01-01';\n\
                    CREATE TABLE orders_audit (id serial);\n\
                    CREATE TRIGGER trg AFTER UPDATE ON orders FOR EACH ROW EXECUTE FUNCTION log_it();";
        assert_eq!(
            unasked(code, &|_| false),
            ["create trigger", "create table"]
        );
        // Named by the request: asked for.
        assert_eq!(
            unasked(code, &|w| w == "trigger" || w == "table"),
            Vec::<String>::new()
        );
        // A window's PARTITION BY and an index are no new objects.
        let window = "SELECT id, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY total) FROM orders;\nCREATE INDEX ON orders (customer_id);";
        assert!(unasked(window, &|_| false).is_empty());
    }

    #[test]
    fn statements_that_change_it() {
        let code = "ALTER TABLE orders\n  ADD COLUMN total numeric;\nSELECT 1;";
        assert_eq!(changes(code), ["alter table", "add column"]);
        assert!(changes("SELECT id FROM orders WHERE total > 10;").is_empty());
        assert_eq!(changes("create  index idx on t(a);"), ["create index"]);
    }
}
