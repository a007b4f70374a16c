//! Limits a request sets that only the answer's code or figures can break,
//! with no tell-tale word in the answer: "keep the logic" (the code grew new
//! statements), "no dependencies" (it imports a third-party package), "it
//! must run on Python 3.8" (it uses newer syntax), "don't touch the amounts"
//! (a number of the material is gone), "no jargon" (acronyms everywhere).

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

use super::scan::Scanned;

/// The size of the request's code: what "keep the logic" is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CodeShape {
    /// Statements of the largest fenced block (imports, comments, decorators
    /// and docstrings aside).
    pub statements: u32,
    /// Branches, loops, raises and returns among them.
    pub controls: u32,
}

crate::json::typed::from_json!(CodeShape {
    req statements: "statements",
    req controls: "controls",
});

const MAX_NUMBERS: usize = 16;

/// The fenced code blocks of a text as (language tag, code); the tag is ""
/// when the fence names none.
pub fn fences(text: &str) -> impl Iterator<Item = (&str, &str)> {
    text.split("```").skip(1).step_by(2).map(|block| {
        // The first line after the fence is its language tag.
        match block.find('\n') {
            Some(i) if !block[..i].contains(char::is_whitespace) => (&block[..i], &block[i + 1..]),
            _ => ("", block),
        }
    })
}

/// The fenced code blocks of a text, each as one string.
pub fn fenced_blocks(text: &str) -> impl Iterator<Item = &str> {
    fences(text).map(|(_, code)| code)
}

/// The text outside fenced code blocks: the prose.
pub fn outside_fences(text: &str) -> String {
    text.split("```").step_by(2).collect()
}

const CONTROL_WORDS: &[&str] = &[
    "if", "elif", "else", "for", "while", "try", "except", "catch", "finally", "switch", "case",
    "match", "raise", "throw", "return", "unless", "guard",
];

fn shape_of(block: &str) -> CodeShape {
    let mut shape = CodeShape::default();
    let mut docstring = false;
    for line in block.lines() {
        let t = line.trim();
        let quotes = t.matches("\"\"\"").count() + t.matches("'''").count();
        if docstring || quotes > 0 {
            // A docstring opened and not closed on this line runs on.
            if quotes % 2 == 1 {
                docstring = !docstring;
            }
            continue;
        }
        let skip = t.is_empty()
            || [
                "#", "//", "/*", "*", "--", "@", "import ", "from ", "use ", "using ",
            ]
            .iter()
            .any(|p| t.starts_with(p))
            || t.chars()
                .all(|c| matches!(c, '{' | '}' | '(' | ')' | ';' | ',' | ']'));
        if skip {
            continue;
        }
        shape.statements += 1;
        let first: String = t
            .trim_start_matches(['}', ' '])
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        if CONTROL_WORDS.contains(&first.as_str()) {
            shape.controls += 1;
        }
    }
    shape
}

/// The shape of a text's largest fenced block (all zero without code).
pub fn code_shape(text: &str) -> CodeShape {
    fenced_blocks(text)
        .map(shape_of)
        .max_by_key(|s| s.statements)
        .unwrap_or_default()
}

/// Under "keep the logic": the answer's code took on new statements or new
/// branches. Returns "N statements instead of M" to show the change.
pub fn logic_changed(task: CodeShape, response: &str) -> Option<Vec<String>> {
    if task.statements == 0 {
        return None;
    }
    let after = code_shape(response);
    if after.controls > task.controls || after.statements >= task.statements + 2 {
        return Some(vec![format!(
            "{} statements instead of {}",
            after.statements, task.statements
        )]);
    }
    None
}

/// A function definition's name and parameter names, from one code line
/// (`def f(a, b=1):`, `function f(a, b) {`, `fn f(a: u8)`, `func f(a int)`).
fn signature(line: &str) -> Option<(String, Vec<String>)> {
    let t = line
        .trim()
        .trim_start_matches("async ")
        .trim_start_matches("pub ");
    let rest = ["def ", "function ", "fn ", "func "]
        .iter()
        .find_map(|k| t.strip_prefix(k))?;
    let open = rest.find('(')?;
    let name = rest[..open].trim().to_string();
    let close = rest.rfind(')').filter(|&c| c > open)?;
    let params = rest[open + 1..close]
        .split(',')
        .filter_map(|p| {
            let p = p.trim().trim_start_matches(['*', '&']);
            let ident: String = p
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            (!ident.is_empty() && ident != "self" && ident != "mut").then_some(ident)
        })
        .collect();
    (!name.is_empty()).then_some((name, params))
}

/// The names a request's code defines (functions, parameters, variables,
/// loop variables, SQL aliases) that its prose does not mention: what "keep
/// the names" keeps. `name(a,b)` entries record each signature.
pub fn defined_names(task: &str) -> (Vec<String>, Vec<String>) {
    let prose = outside_fences(task);
    let (mut names, mut signatures) = (Vec::new(), Vec::new());
    // A name counts unless `text` (the prose) mentions it.
    let keep = |n: &str, text: &str, names: &mut Vec<String>| {
        let ident = n.chars().all(|c| c.is_alphanumeric() || c == '_') && !n.is_empty();
        if ident
            && !has_identifier(text, n)
            && !names.iter().any(|m| m == n)
            && names.len() < MAX_NUMBERS * 2
        {
            names.push(n.to_string());
        }
    };
    let sign = |name: &str, params: &[String], signatures: &mut Vec<String>| {
        if signatures.len() < MAX_NUMBERS {
            signatures.push(format!("{name}({})", params.join(",")));
        }
    };
    let mut any_block = false;
    for block in fenced_blocks(task) {
        any_block = true;
        for line in block.lines() {
            if let Some((name, params)) = signature(line) {
                keep(&name, &prose, &mut names);
                for p in &params {
                    keep(p, &prose, &mut names);
                }
                sign(&name, &params, &mut signatures);
                continue;
            }
            let t = line.trim();
            let t = ["let ", "const ", "var ", "for "]
                .iter()
                .find_map(|k| t.strip_prefix(k))
                .unwrap_or(t)
                .trim_start_matches("mut ");
            let ident: String = t
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let after = t[ident.len()..].trim_start();
            let assigns = ["=", "+=", "-=", ":=", "in "]
                .iter()
                .any(|op| after.starts_with(op))
                && !after.starts_with("==");
            if assigns {
                keep(&ident, &prose, &mut names);
            }
            // SQL aliases: `… AS total_ventas`.
            // ASCII lowering keeps byte offsets, so `line` can be cut where `lower` matched.
            let lower = line.to_ascii_lowercase();
            for (i, _) in lower.match_indices(" as ") {
                let alias: String = line[i + 4..]
                    .trim_start()
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                keep(&alias, &prose, &mut names);
            }
        }
    }
    // A one-line definition given inline ("keep the signature: `def
    // calc(a, b): …`"); its own span does not count as a mention.
    if !any_block {
        for span in prose.split('`').skip(1).step_by(2) {
            if let Some((name, params)) = signature(span) {
                keep(&name, &prose.replacen(span, " ", 1), &mut names);
                sign(&name, &params, &mut signatures);
            }
        }
    }
    (names, signatures)
}

/// `ident` in `text` with no identifier character on either side (after
/// it only when it ends with one: "println!" may touch what follows).
pub(super) fn has_identifier(text: &str, ident: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '_';
    text.match_indices(ident).any(|(i, _)| {
        let before = text[..i].chars().next_back();
        let after = text[i + ident.len()..].chars().next();
        !(before.is_some_and(part) || ident.ends_with(part) && after.is_some_and(part))
    })
}

/// Under "keep the names": the request's names the answer's code lost, and
/// signatures that kept their name but changed their parameters.
pub fn names_changed(names: &[String], signatures: &[String], response: &str) -> Vec<String> {
    let code = fenced_blocks(response).collect::<Vec<_>>().join("\n");
    if code.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<String> = names
        .iter()
        .filter(|n| !has_identifier(&code, n))
        .take(5)
        .cloned()
        .collect();
    for line in code.lines() {
        if let Some((name, params)) = signature(line) {
            let now = format!("{name}({})", params.join(","));
            let before = signatures
                .iter()
                .find(|s| s.split('(').next() == Some(name.as_str()));
            if before.is_some_and(|b| *b != now) && out.len() < 5 {
                out.push(now);
            }
        }
    }
    out
}

/// Digit runs of a text, with thousands separators removed ("1.240,50" →
/// 1240, 50; "15.03.2024" → 15, 03, 2024).
pub(super) fn digit_runs(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    let mut runs = Vec::new();
    let mut cur = String::new();
    for (i, &c) in chars.iter().enumerate() {
        if c.is_ascii_digit() {
            cur.push(c);
            continue;
        }
        let thousands = matches!(c, '.' | ',' | '\'' | ' ' | '\u{202F}' | '\u{A0}')
            && !cur.is_empty()
            && (1..=3).all(|k| chars.get(i + k).is_some_and(char::is_ascii_digit))
            && !chars.get(i + 4).is_some_and(char::is_ascii_digit);
        if !thousands && !cur.is_empty() {
            runs.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        runs.push(cur);
    }
    runs
}

/// The material a request quotes (or, without quotes, what follows its
/// first colon), and the rest of the request.
fn material(s: &Scanned) -> (String, String) {
    let (mut material, mut rest) = (String::new(), String::new());
    let mut prev: Option<usize> = None;
    for (i, w) in s.words.iter().enumerate() {
        if !(w.quoted || w.code) {
            rest.push(' ');
            rest.push_str(s.text_of(w));
            continue;
        }
        // Consecutive quoted words are taken with what lies between them.
        let from = match prev {
            Some(p) if p + 1 == i => s.words[p].end as usize,
            _ => {
                material.push(' ');
                w.start as usize
            }
        };
        material.push_str(s.text.get(from..w.end as usize).unwrap_or(""));
        prev = Some(i);
    }
    if material.trim().is_empty() {
        let (before, after) = s
            .text
            .split_once([':', '：', '\n'])
            .unwrap_or((s.text.as_str(), ""));
        (material, rest) = (after.to_string(), before.to_string());
    }
    (material, rest)
}

/// The numbers of the material a request quotes: the figures "keep the
/// amounts" protects.
pub fn material_numbers(s: &Scanned) -> Vec<String> {
    let material = material(s).0;
    // One-digit runs are no figure ("Python 3"), but for a decimal's
    // fraction: "12.4 %" turned into "12 %" lost its ".4".
    let chars: Vec<char> = material.chars().collect();
    let fraction = |run: &str| {
        chars.windows(run.len() + 2).any(|w| {
            w[0].is_ascii_digit()
                && matches!(w[1], '.' | ',')
                && w[2..].iter().collect::<String>() == run
        })
    };
    let mut out: Vec<String> = Vec::new();
    for run in digit_runs(&material) {
        let figure = run.len() >= 2 || fraction(&run);
        if figure && !out.contains(&run) && out.len() < MAX_NUMBERS {
            out.push(run);
        }
    }
    out
}

/// How many figures the request itself brings that its material lacks
/// ("move it to Thursday *9* May"): each may replace one of the material's.
pub fn new_numbers(s: &Scanned) -> usize {
    let (material, rest) = material(s);
    let old = digit_runs(&material);
    let mut new: Vec<String> = digit_runs(&rest);
    new.retain(|n| !old.contains(n));
    new.dedup();
    new.len().min(MAX_NUMBERS)
}

/// The protected numbers the answer no longer has.
pub fn numbers_lost(numbers: &[String], response: &str) -> Vec<String> {
    let have = digit_runs(response);
    numbers
        .iter()
        .filter(|n| !have.contains(n))
        .cloned()
        .collect()
}

/// "Python 3.8" in a request: the minor version the code must run on.
/// Without the word, "3.8-compatible" counts when the request's code is Python.
pub fn python_minor(s: &Scanned) -> u8 {
    let minor_at = |v: &str| -> Option<u8> {
        let digits: String = v
            .strip_prefix("3.")?
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        digits.parse::<u8>().ok()
    };
    let text = s.text.as_str();
    for (i, _) in text.match_indices("python") {
        let v = text[i + "python".len()..].trim_start_matches([' ', '-']);
        if let Some(m) = minor_at(v) {
            return m;
        }
    }
    let python_code = text.contains("```py") || text.contains("def ") || text.contains("import ");
    for (i, _) in text.match_indices("3.").filter(|_| python_code) {
        let v = &text[i..];
        let digits = v[2..].chars().take_while(char::is_ascii_digit).count();
        let after = v[2 + digits..].trim_start_matches([' ', '-']);
        if after.starts_with("compat") || after.starts_with("kompat") {
            return minor_at(v).unwrap_or(0);
        }
    }
    0
}

/// Python syntax and library parts newer than 3.`minor`, used in `code`.
pub fn newer_python(code: &str, minor: u8) -> Vec<String> {
    let future = code.contains("from __future__ import annotations");
    let mut found: Vec<String> = Vec::new();
    let mut note = |since: u8, what: &str| {
        if minor < since && !found.iter().any(|f| f == what) {
            found.push(what.to_string());
        }
    };
    let lines: Vec<&str> = code.lines().map(str::trim).collect();
    let opens_match = lines
        .iter()
        .any(|l| l.starts_with("match ") && l.ends_with(':'));
    if opens_match && lines.iter().any(|l| l.starts_with("case ")) {
        note(10, "match");
        note(10, "case");
    }
    if code.contains(":=") {
        note(8, ":=");
    }
    for generic in ["list[", "dict[", "tuple[", "set[", "frozenset[", "type["] {
        let annotated = code.match_indices(generic).any(|(i, _)| {
            let before = code[..i].trim_end();
            before.ends_with("->") || before.ends_with(':') || before.ends_with('[')
        });
        if annotated && !future {
            note(9, generic.trim_end_matches('['));
        }
    }
    if !future && (code.contains("| None") || code.contains("None |")) {
        note(10, "| None");
    }
    for (since, part) in [
        (9, "removeprefix"),
        (9, "removesuffix"),
        (9, "zoneinfo"),
        (9, "functools.cache"),
        (10, "strict=True"),
        (10, "slots=True"),
        (10, "kw_only=True"),
        (10, "TypeAlias"),
        (10, "ParamSpec"),
        (11, "tomllib"),
        (11, "TaskGroup"),
        (11, "ExceptionGroup"),
        (11, "except*"),
        (11, "typing import Self"),
        (12, "itertools.batched"),
    ] {
        if code.contains(part) {
            note(since, part);
        }
    }
    found
}

/// Constructs a request can rule out by name (stems or word prefixes, in
/// several languages), and what shows them in code; a marker starting with
/// `^` counts only at a line's start ("for x in xs:" is a loop, a list
/// comprehension's "for" is not).
const CONSTRUCTS: &[(&[&str], &[&str])] = &[
    (&["window"], &["over (", "over("]),
    (
        &[
            "regex",
            "regular",
            "regolar",
            "regulär",
            "réguli",
            "регуляр",
            "正则",
            "正規表現",
        ],
        REGEX_USE,
    ),
    (
        &[
            "loop",
            "boucl",
            "bucl",
            "schleif",
            "laço",
            "ciclo",
            "цикл",
            "循环",
            "ループ",
        ],
        &["^for ", "^while "],
    ),
    (&["class"], &["^class "]),
    (&["lambda"], &["lambda "]),
    (&["jqueri"], &["$(", "jquery"]),
    (&["global"], &["global "]),
    (&["var"], &["var "]),
    (&["async"], &["async ", "await "]),
    (
        &[
            "subquer",
            "subconsult",
            "unterabfrag",
            "sous-requêt",
            "sottoquer",
            "подзапрос",
            "子查询",
            "サブクエリ",
        ],
        &["(select", "( select", "exists ("],
    ),
    (
        &[
            "procedur",
            "procedimiento",
            "prozedur",
            "procédur",
            "procediment",
            "процедур",
            "存储过程",
            "プロシージャ",
        ],
        &["create procedure", "create or replace procedure", "call "],
    ),
];

const REGEX_USE: &[&str] = &[
    "import re\n",
    "re.compile",
    "re.sub(",
    "re.match(",
    "new regexp",
    "/.test(",
    ".match(/",
    ".replace(/",
    "preg_match",
];

/// Whether a construct's name is among the ruled-out stems: exactly for
/// short names ("var" is not "variable"), by prefix for long or Cyrillic
/// ones ("subqueries", "цикла"), by all its bigrams for CJK ones.
fn named(forbidden: &[String], name: &str) -> bool {
    let chars: Vec<char> = name.chars().collect();
    if chars.first().is_some_and(|&c| crate::text::is_cjk(c)) {
        return chars.windows(2).all(|pair| {
            let bigram: String = pair.iter().collect();
            forbidden.contains(&bigram)
        });
    }
    let long = chars.len() >= 7 || !name.is_ascii();
    forbidden
        .iter()
        .any(|f| f == name || (long && f.starts_with(name)))
}

/// What shows a block of code is a test.
const TEST_MARKERS: &[&str] = &[
    "def test",
    "assert ",
    "assert(",
    "assert_eq!",
    "expect(",
    "describe(",
    "it(",
    "#[test]",
    "@test",
    "pytest",
    "unittest",
];

/// The answer's code, when all of it is tests: the markers that show it
/// (for a request that said to leave the tests alone; a fix shows the code
/// it fixes).
pub fn tests_edited(response: &str) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for block in fenced_blocks(response) {
        let code = block.to_lowercase();
        let markers: Vec<&str> = TEST_MARKERS
            .iter()
            .filter(|m| code.contains(*m))
            .copied()
            .collect();
        if markers.is_empty() && !code.trim().is_empty() {
            return Vec::new();
        }
        for m in markers {
            let m = m.trim_end_matches(['(', ' ']).to_string();
            if !found.contains(&m) {
                found.push(m);
            }
        }
    }
    found
}

/// Constructs the request ruled out that the answer's code uses.
pub fn constructs_used(forbidden: &[String], response: &str) -> Vec<String> {
    let code = fenced_blocks(response)
        .map(|b| format!("{}\n", b.to_lowercase()))
        .collect::<String>();
    let at_line_start = |m: &str| code.lines().any(|l| l.trim_start().starts_with(m));
    // "IN (\n  SELECT" is "in ( select".
    let flat = code.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut found = Vec::new();
    for (names, markers) in CONSTRUCTS {
        let ruled_out = names.iter().any(|n| named(forbidden, n));
        let used = markers.iter().find(|m| match m.strip_prefix('^') {
            Some(m) => at_line_start(m),
            None => code.contains(*m) || flat.contains(*m),
        });
        if ruled_out && let Some(m) = used {
            found.push(m.trim_start_matches('^').trim().to_string());
        }
    }
    found
}

/// Modules of Python's standard library (top-level names).
const PY_STDLIB: &[&str] = &[
    "__future__",
    "abc",
    "argparse",
    "array",
    "ast",
    "asyncio",
    "base64",
    "binascii",
    "bisect",
    "builtins",
    "bz2",
    "calendar",
    "cmath",
    "codecs",
    "collections",
    "concurrent",
    "configparser",
    "contextlib",
    "contextvars",
    "copy",
    "csv",
    "ctypes",
    "dataclasses",
    "datetime",
    "decimal",
    "difflib",
    "dis",
    "email",
    "enum",
    "errno",
    "fnmatch",
    "fractions",
    "functools",
    "gc",
    "getpass",
    "gettext",
    "glob",
    "graphlib",
    "gzip",
    "hashlib",
    "heapq",
    "hmac",
    "html",
    "http",
    "imaplib",
    "importlib",
    "inspect",
    "io",
    "ipaddress",
    "itertools",
    "json",
    "keyword",
    "locale",
    "logging",
    "lzma",
    "math",
    "mimetypes",
    "multiprocessing",
    "numbers",
    "operator",
    "os",
    "pathlib",
    "pickle",
    "platform",
    "pprint",
    "queue",
    "random",
    "re",
    "secrets",
    "select",
    "selectors",
    "shelve",
    "shlex",
    "shutil",
    "signal",
    "smtplib",
    "socket",
    "socketserver",
    "sqlite3",
    "ssl",
    "stat",
    "statistics",
    "string",
    "struct",
    "subprocess",
    "sys",
    "sysconfig",
    "tarfile",
    "tempfile",
    "textwrap",
    "threading",
    "time",
    "timeit",
    "tkinter",
    "tomllib",
    "traceback",
    "types",
    "typing",
    "unicodedata",
    "unittest",
    "urllib",
    "uuid",
    "venv",
    "warnings",
    "weakref",
    "webbrowser",
    "wsgiref",
    "xml",
    "zipfile",
    "zlib",
    "zoneinfo",
];

/// Node's built-in modules.
const NODE_BUILTINS: &[&str] = &[
    "assert",
    "buffer",
    "child_process",
    "cluster",
    "crypto",
    "dgram",
    "dns",
    "events",
    "fs",
    "http",
    "http2",
    "https",
    "net",
    "os",
    "path",
    "perf_hooks",
    "process",
    "querystring",
    "readline",
    "stream",
    "string_decoder",
    "timers",
    "tls",
    "url",
    "util",
    "v8",
    "vm",
    "worker_threads",
    "zlib",
];

/// Package names an answer's code imports or installs that are neither in
/// the standard library nor `known` (named in the request).
pub fn third_party(response: &str, known: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    let mut note = |name: &str, builtin: &[&str]| {
        let name = name.trim_matches(|c: char| !(c.is_alphanumeric() || c == '_' || c == '-'));
        let known = builtin.contains(&name) || known(name);
        if !name.is_empty() && !known && !found.iter().any(|f| f == name) && found.len() < 5 {
            found.push(name.to_string());
        }
    };
    for block in fenced_blocks(response) {
        for line in block.lines().map(str::trim) {
            let words: Vec<&str> = line.split_whitespace().collect();
            // Go: an import path is third-party when its first part is a
            // host ("github.com/gin-gonic/gin"), standard otherwise ("net/http").
            let go_path = match words.as_slice() {
                ["import", path] | ["import", _, path] | [path] => path.strip_prefix('"'),
                _ => None,
            };
            if let Some(path) = go_path.and_then(|p| p.strip_suffix('"')) {
                if path
                    .split('/')
                    .next()
                    .is_some_and(|host| host.contains('.'))
                {
                    note(path.rsplit('/').next().unwrap_or(path), &[]);
                }
                continue;
            }
            match words.as_slice() {
                ["import", module, ..] | ["from", module, "import", ..]
                    if !module.starts_with('.') =>
                {
                    for m in module.split(',') {
                        note(m.split('.').next().unwrap_or(""), PY_STDLIB);
                    }
                }
                [
                    "pip" | "pip3" | "uv" | "poetry" | "npm" | "yarn" | "pnpm" | "cargo" | "gem",
                    "install" | "add" | "i",
                    packages @ ..,
                ] => {
                    for p in packages.iter().filter(|p| !p.starts_with('-')) {
                        note(p, &[]);
                    }
                }
                _ => {}
            }
            // JavaScript: require('x'), import … from 'x'.
            for marker in ["require(", "from "] {
                if let Some(i) = line.find(marker) {
                    let rest = &line[i + marker.len()..];
                    let quoted = rest
                        .strip_prefix(['\'', '"'])
                        .and_then(|r| r.find(['\'', '"']).map(|end| &r[..end]));
                    if let Some(spec) =
                        quoted.filter(|s| !s.starts_with(['.', '/']) && !s.starts_with("node:"))
                    {
                        let name = spec.split('/').next().unwrap_or("");
                        note(name, NODE_BUILTINS);
                    }
                }
            }
        }
    }
    found
}

/// Ruled-out stems that mean prices ("don't mention prices", "sin precios").
const PRICE_WORDS: &[&str] = &[
    "price",
    "pric",
    "cost",
    "fee",
    "preç",
    "precio",
    "prix",
    "tarif",
    "preis",
    "prezz",
    "costo",
    "цен",
    "стоимост",
    "价格",
    "价钱",
    "費用",
    "価格",
    "料金",
];

/// Whether the ruled-out stems include prices.
pub fn prices_ruled_out(forbidden: &[String]) -> bool {
    // Short English stems exactly ("fee" is not "feedback"), others by prefix.
    forbidden.iter().any(|f| {
        PRICE_WORDS
            .iter()
            .any(|p| f == p || (!matches!(*p, "cost" | "fee") && f.starts_with(p)))
    })
}

/// The first amount of money in a text: a currency sign or code beside a
/// figure ("R$ 49,90", "€12", "12 EUR", "300元").
pub fn money(text: &str) -> Option<String> {
    const SIGNS: &[char] = &['$', '€', '£', '¥', '₽', '₹', '元', '円'];
    const CODES: &[&str] = &[
        "usd",
        "eur",
        "gbp",
        "brl",
        "rub",
        "jpy",
        "cny",
        "chf",
        "euro",
        "euros",
        "dollars",
        "reais",
        "рублей",
        "руб",
    ];
    let chars: Vec<char> = text.chars().collect();
    for (i, c) in chars.iter().enumerate() {
        if !SIGNS.contains(c) {
            continue;
        }
        let near = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(char::is_ascii_digit)
        };
        if near(Some(i + 1))
            || near(Some(i + 2))
            || near(i.checked_sub(1))
            || near(i.checked_sub(2))
        {
            let from = i.saturating_sub(2);
            return Some(
                chars[from..(i + 8).min(chars.len())]
                    .iter()
                    .collect::<String>()
                    .trim()
                    .to_string(),
            );
        }
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    for pair in words.windows(2) {
        let figure = pair[0]
            .trim_matches(|c: char| !c.is_ascii_digit())
            .starts_with(|c: char| c.is_ascii_digit());
        let code = pair[1]
            .trim_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase();
        if figure && CODES.contains(&code.as_str()) {
            return Some(format!("{} {}", pair[0], pair[1]));
        }
    }
    None
}

/// Acronyms of an answer that are not `known` ("REST", "OAuth"), at most
/// five: "no jargon" is broken by three.
pub fn acronyms(response: &str, known: &dyn Fn(&str) -> bool) -> Vec<String> {
    let mut found: Vec<String> = Vec::new();
    for word in response.split(|c: char| !c.is_alphanumeric()) {
        let upper = word.chars().filter(char::is_ascii_uppercase).count();
        let len = word.chars().count();
        let acronym = (2..=6).contains(&len) && upper >= 2 && word.is_ascii();
        let lower = word.to_lowercase();
        if acronym && !found.contains(&lower) && !known(&lower) {
            found.push(lower);
            if found.len() == 5 {
                break;
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn code_shape_counts_statements_and_branches_only() {
        let task = "```python\nimport os\n\ndef average(values):\n    \"\"\"Mean.\"\"\"\n    return sum(values) / len(values)\n```";
        assert_eq!(
            code_shape(task),
            CodeShape {
                statements: 2,
                controls: 1
            }
        );
        let hinted = "```python\nfrom typing import Sequence\n\ndef average(values: Sequence[float]) -> float:\n    # mean\n    return sum(values) / len(values)\n```";
        assert_eq!(logic_changed(code_shape(task), hinted), None);
        let guarded = "```python\ndef average(values: list) -> float:\n    if not values:\n        return 0.0\n    return sum(values) / len(values)\n```";
        assert!(logic_changed(code_shape(task), guarded).is_some());
        assert_eq!(logic_changed(CodeShape::default(), guarded), None);
    }

    #[test]
    fn numbers_survive_reformatting_but_not_removal() {
        let s = Scanned::new(
            "Rewrite this, don't touch the amounts: \"We paid 1.240 € on 15 March 2024.\"",
        );
        let numbers = material_numbers(&s);
        assert_eq!(numbers, ["1240", "15", "2024"]);
        assert!(numbers_lost(&numbers, "We settled €1,240 on March 15, 2024.").is_empty());
        assert_eq!(
            numbers_lost(&numbers, "We settled the invoice in mid-March."),
            ["1240", "15", "2024"]
        );
        assert_eq!(
            digit_runs("15.03.2024 and 1,240.50"),
            ["15", "03", "2024", "1240", "50"]
        );
    }

    #[test]
    fn python_versions_and_newer_syntax() {
        assert_eq!(python_minor(&Scanned::new("It must run on Python 3.8.")), 8);
        assert_eq!(python_minor(&Scanned::new("python3.11 is fine")), 11);
        assert_eq!(python_minor(&Scanned::new("Use Python.")), 0);
        let compat = "Clean this up, it must stay 3.8-compatible.\n```python\nimport os\n```";
        assert_eq!(python_minor(&Scanned::new(compat)), 8);
        assert_eq!(
            python_minor(&Scanned::new("Version 3.8-compatible docs")),
            0
        );
        let code = "def f(p) -> list[str]:\n    match p.suffix:\n        case '.log':\n            return [p]\n";
        assert_eq!(newer_python(code, 8), ["match", "case", "list"]);
        assert!(newer_python(code, 10).is_empty());
        let future = format!(
            "from __future__ import annotations\n{}",
            "def f() -> list[str]: ..."
        );
        assert!(newer_python(&future, 8).is_empty());
    }

    #[test]
    fn third_party_imports_and_installs() {
        let code = "```python\nimport os, json\nimport requests\nfrom pandas import DataFrame\nfrom .local import x\n```";
        assert_eq!(third_party(code, &|_| false), ["requests", "pandas"]);
        let task = "I use requests and pandas already";
        assert!(third_party(code, &|n| task.contains(n)).is_empty());
        let js = "```js\nconst fs = require('fs');\nimport axios from 'axios';\nimport { x } from './x';\n```\n```bash\nnpm install lodash\n```";
        assert_eq!(third_party(js, &|_| false), ["axios", "lodash"]);
        assert_eq!(
            money("Tudo isso por apenas R$ 49,90 mensais").as_deref(),
            Some("R$ 49,90")
        );
        assert_eq!(money("It costs 12 EUR a month.").as_deref(), Some("12 EUR"));
        assert_eq!(money("Version 2 of the API, released in 2024."), None);
        assert!(prices_ruled_out(&["fee".into()]) && !prices_ruled_out(&["feedback".into()]));
        let go = "```go\nimport (\n    \"net/http\"\n    \"github.com/gin-gonic/gin\"\n)\n```";
        assert_eq!(third_party(go, &|_| false), ["gin"]);
        let one = "```go\nimport \"encoding/json\"\n```";
        assert!(third_party(one, &|_| false).is_empty());
    }

    #[test]
    fn names_and_signatures_kept_or_changed() {
        let task = "Fix the bug, keep the variable names. The `avg` helper:\n```python\ndef avg(xs):\n    tmp = 0\n    for x in xs:\n        tmp += x\n    return tmp / len(x)\n```";
        let (names, sigs) = defined_names(task);
        assert_eq!(names, ["xs", "tmp", "x"]);
        assert_eq!(sigs, ["avg(xs)"]);
        let fixed = "```python\ndef avg(xs):\n    tmp = 0\n    for x in xs:\n        tmp += x\n    return tmp / len(xs)\n```";
        assert!(names_changed(&names, &sigs, fixed).is_empty());
        let renamed = "```python\ndef avg(values):\n    total = 0\n    for v in values:\n        total += v\n    return total / len(values)\n```";
        assert_eq!(
            names_changed(&names, &sigs, renamed),
            ["xs", "tmp", "x", "avg(values)"]
        );
        let sql = "Don't touch the aliases:\n```sql\nSELECT a AS id_cliente, SUM(b) AS total\nFROM t\n```";
        let (names, _) = defined_names(sql);
        assert_eq!(names, ["id_cliente", "total"]);
        let widened = "```python\ndef evens(nums, *, reverse=False):\n    pass\n```";
        let (_, sigs) = defined_names(
            "keep the signature\n```python\ndef evens(nums: list[int]) -> list[int]:\n    pass\n```",
        );
        assert_eq!(names_changed(&[], &sigs, widened), ["evens(nums,reverse)"]);
        // A definition given inline is held the same way.
        let (names, sigs) =
            defined_names("Tidy this, same signature: `def area(w, h): return w*h if w else 0`");
        assert_eq!(
            (names.as_slice(), sigs.as_slice()),
            (&["area".to_string()][..], &["area(w,h)".to_string()][..])
        );
        let renamed = "```python\ndef rect_area(width, height):\n    return width * height\n```";
        assert_eq!(names_changed(&names, &sigs, renamed), ["area"]);
        let kept = "```python\ndef area(w, h):\n    return w * h\n```";
        assert!(names_changed(&names, &sigs, kept).is_empty());
    }

    #[test]
    fn ruled_out_constructs_seen_in_code() {
        let nested =
            "```sql\nSELECT id FROM users WHERE id IN (\n  SELECT user_id FROM logins\n);\n```";
        assert_eq!(constructs_used(&["subqueri".into()], nested), ["( select"]);
        let sql = "```sql\nSELECT *, ROW_NUMBER() OVER (PARTITION BY c) AS rn FROM t\n```";
        assert_eq!(constructs_used(&["window".into()], sql), ["over ("]);
        assert!(constructs_used(&["loop".into()], sql).is_empty());
        assert!(constructs_used(&["window".into()], "No window function: a join.").is_empty());
        // "senza espressioni regolari", and a JavaScript literal used anyway.
        let js = "```js\nreturn /^[^@]+@[^@]+$/.test(email);\n```";
        assert_eq!(constructs_used(&["regolari".into()], js), ["/.test("]);
        let plain = "```js\nreturn email.includes('@');\n```";
        assert!(constructs_used(&["regolari".into()], plain).is_empty());
    }

    #[test]
    fn acronyms_new_to_the_request() {
        let task = "what is an api?";
        let a = acronyms(
            "An API exposes REST endpoints over HTTP with JSON and OAuth tokens.",
            &|w| task.contains(w),
        );
        assert_eq!(a, ["rest", "http", "json", "oauth"]);
        assert!(acronyms("It is a menu for programs.", &|w| task.contains(w)).is_empty());
    }
}
