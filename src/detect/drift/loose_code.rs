//! Code pasted into a request without a fence ("Convert this to an
//! f-string:\n\ndef greet(name):\n    return …"), found by the shape of its
//! lines and fenced, so that every fact a fenced block gives (its names and
//! signatures, its size, a narrow edit of it, third-party imports being new)
//! holds for it too.

use std::borrow::Cow;

/// SQL statements open with an upper-case keyword and may hold no bracket.
const SQL: &[&str] = &[
    "SELECT ", "UPDATE ", "INSERT ", "DELETE ", "WITH ", "CREATE ", "ALTER ",
];

/// A line of code rather than prose: indented, a tag, a closing bracket, an
/// SQL statement, or a bracket or `=` glued to a name (`f(x)`, `a[i]`,
/// `x=1`). Sentences and quoted texts are prose whatever they hold.
fn code_like(line: &str) -> bool {
    let t = line.trim();
    if t.is_empty() || t.starts_with(['«', '“', '"', '„', '「', '『', '\'', '-', '*', '>']) {
        return false;
    }
    let sentence = t.split_whitespace().count() >= 6
        && t.ends_with(['.', '?', '!', '。', '？', '！'])
        && !t.contains([';', '{', '}']);
    if sentence {
        return false;
    }
    if line.starts_with("  ") || line.starts_with('\t') {
        return true;
    }
    let tag =
        t.starts_with('<') && t[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/');
    if tag || t.starts_with(['}', ')', ']']) || SQL.iter().any(|k| t.starts_with(k)) {
        return true;
    }
    let b = t.as_bytes();
    b.windows(2).any(|w| {
        let glued =
            w[0].is_ascii_alphanumeric() || matches!(w[0], b'_' | b')' | b']' | b'\'' | b'"');
        glued && matches!(w[1], b'(' | b'[' | b'=' | b'{')
    }) || t.ends_with([';', '{'])
}

/// The request with its first run of unfenced code lines fenced: a run
/// that opens after a blank line or a line ending in a colon, and goes on
/// through code lines and the blank lines between them. A request with a
/// fence already is left as it is.
pub fn fenced(task: &str) -> Cow<'_, str> {
    if task.contains("```") || !task.contains('\n') {
        return Cow::Borrowed(task);
    }
    let lines: Vec<&str> = task.lines().collect();
    let opens = |i: usize| {
        let prev = lines.get(i.wrapping_sub(1)).map_or("", |l| l.trim_end());
        i > 0
            && (prev.is_empty() || prev.ends_with([':', '：']))
            && lines.get(i).is_some_and(|l| code_like(l))
    };
    let Some(start) = (1..lines.len()).find(|&i| opens(i)) else {
        return Cow::Borrowed(task);
    };
    let mut end = start;
    while let Some(l) = lines.get(end) {
        let blank_inside = l.trim().is_empty() && lines.get(end + 1).is_some_and(|n| code_like(n));
        if !(code_like(l) || blank_inside) {
            break;
        }
        end += 1;
    }
    let mut out = String::with_capacity(task.len() + 10);
    for (i, l) in lines.iter().enumerate() {
        if i == start {
            out.push_str("```\n");
        }
        out.push_str(l);
        out.push('\n');
        if i + 1 == end {
            out.push_str("```\n");
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pasted_code_is_fenced() {
        let task = "Convert this to an f-string:\n\ndef greet(name, n):\n    return 'Hi %s' % name\n\nThanks!";
        let f = fenced(task);
        assert_eq!(
            f,
            "Convert this to an f-string:\n\n```\ndef greet(name, n):\n    return 'Hi %s' % name\n```\n\nThanks!\n"
        );
        // After a colon without a blank line; SQL without brackets; a tag.
        let sql = fenced(
            "Fix this query, keep the column names:\nSELECT nm, qty FROM items WHER qty > 0",
        );
        assert!(sql.contains("```\nSELECT nm"), "{sql}");
        let tag = fenced("Disable it while submitting:\n\n<button type=\"submit\">Save</button>");
        assert!(tag.contains("```\n<button"), "{tag}");
        // Code that opens with a statement glued to its brackets.
        let go = fenced(
            "Fix the off-by-one:\n\nfor i := 0; i <= len(items); i++ {\n    process(items[i])\n}",
        );
        assert!(go.ends_with("}\n```\n"), "{go}");
    }

    #[test]
    fn prose_quotes_lists_and_fenced_requests_stay() {
        for task in [
            "Please fix the test.\n\nIt fails on CI (only there) and I don't know why it does that.",
            "Translate this:\n\n\"Your order (no. 5) has shipped.\"",
            "Summarise:\n\n- first point (short)\n- second point",
            "Rename it:\n\n```py\nx=1\n```",
            "Thanks!\n\nUpdate the README (docs folder)",
            "One line only",
        ] {
            assert_eq!(fenced(task), task, "{task}");
        }
    }
}
