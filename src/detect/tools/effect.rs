//! What a tool call does to the world, so an empty result from a write is
//! read as progress and a repeated booking as harm.
//!
//! The app's own hint (`readOnly` / `sideEffect` on `toolCall`) wins; else the
//! tool's name says it (`write_file`, `str_replace`, `send_certificate`); else,
//! for a shell tool, the command does (`cat > f <<EOF`, `sed -i`, `echo >> f`).

#[cfg(test)]
use serde::Deserialize;
use serde::Serialize;

use crate::event::EffectHint;

/// The three kinds of call the loop rules tell apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[cfg_attr(test, derive(Deserialize))]
#[serde(rename_all = "camelCase")]
pub enum Effect {
    /// Reads, or nothing known: progress is judged from what comes back.
    #[default]
    Read,
    /// Changes a file or record in a way that repeating does not compound
    /// (write, edit, update, delete): success is progress even when silent.
    Write,
    /// Does something that repeating does again (send, book, pay, transfer):
    /// the same successful call twice is a duplicate side effect.
    Action,
}

impl crate::json::typed::FromJson for Effect {
    fn from_json(v: &serde_json::Value) -> crate::json::typed::Got<Effect> {
        use Effect::*;
        crate::json::typed::variant(v, &["read", "write", "action"], &[Read, Write, Action])
    }
}

impl Effect {
    pub fn is_read(&self) -> bool {
        *self == Effect::Read
    }
}

/// Name words that mark an action: repeating it repeats its effect.
/// Updates of business records are here too: an airline's
/// `update_reservation_flights` refunds the fare difference each time it runs.
const ACTION_WORDS: &[&str] = &[
    "book",
    "send",
    "pay",
    "charge",
    "transfer",
    "purchase",
    "buy",
    "order",
    "refund",
    "email",
    "notify",
    "post",
    "publish",
    "issue",
    "grant",
    "exchange",
    "return",
    "create",
    "add",
    "insert",
    "append",
    "enqueue",
    "schedule",
    "invite",
    "message",
    "sms",
    "tweet",
    "deploy",
    "commit",
    "push",
    "merge",
    "cancel",
    "update",
    "modify",
    "change",
    "upgrade",
    "downgrade",
    "assign",
    "toggle",
];

/// Name words that mark a write that repeating does not compound (files,
/// settings). `submit` is here: an answer or form submitted again is judged
/// again (a CTF flag, a solution), not charged again.
const WRITE_WORDS: &[&str] = &[
    "write",
    "submit",
    "edit",
    "set",
    "put",
    "replace",
    "patch",
    "save",
    "rename",
    "move",
    "delete",
    "remove",
    "apply",
    "upsert",
    "overwrite",
    "store",
    "upload",
    "mkdir",
    "touch",
    "rm",
    "mv",
    "cp",
    "install",
    "reset",
    "revert",
    "undo",
    "enable",
    "disable",
    "configure",
    "str",
];

/// Name words that mark a read even beside a write word (`get_update_status`).
const READ_WORDS: &[&str] = &[
    "get",
    "list",
    "search",
    "find",
    "read",
    "fetch",
    "lookup",
    "query",
    "check",
    "view",
    "show",
    "describe",
    "calculate",
    "compute",
    "think",
    "status",
    "preview",
    "validate",
    "estimate",
    "count",
    "open",
    "cat",
    "grep",
    "ls",
    "head",
    "tail",
    "diff",
    "browse",
    "inspect",
    "scroll",
    "goto",
    "is",
    "has",
    "can",
    "verify",
    "summarize",
    "explain",
];

/// Tools that run a shell command given in their arguments.
const SHELL_NAMES: &[&str] = &[
    "bash",
    "sh",
    "zsh",
    "shell",
    "terminal",
    "run",
    "exec",
    "execute",
    "command",
    "cmd",
    "run_command",
    "run_shell_command",
    "shell_command",
    "execute_command",
    "execute_bash",
    "bash_command",
    "run_terminal_cmd",
    "run_in_terminal",
    "sed",
    "echo",
    "printf",
    "tee",
];

/// The effect a tool's name implies: its words split at `_`, `-`, `.`, `/`,
/// spaces and camel case. The first word decides when it is a verb
/// (`get_update_status` reads, `update_status` writes); otherwise any action
/// word makes an action, any write word a write.
pub fn from_name(name: &str) -> Effect {
    // A shell tool's name says nothing: its command does (`of_call`).
    if is_shell(name) {
        return Effect::Read;
    }
    // Names are capped at 256 bytes by the event checks; read at most 16 words.
    let mut first = true;
    let mut found = Effect::Read;
    let mut words = 0;
    for_words(name, |w| {
        words += 1;
        if words > 16 {
            return false;
        }
        let here = if READ_WORDS.contains(&w) {
            Some(Effect::Read)
        } else if ACTION_WORDS.contains(&w) {
            Some(Effect::Action)
        } else if WRITE_WORDS.contains(&w) {
            Some(Effect::Write)
        } else {
            None
        };
        if first {
            first = false;
            if let Some(e) = here {
                found = e;
                return false;
            }
        } else if let Some(e) = here.filter(|e| !e.is_read()) {
            found = if found == Effect::Action { found } else { e };
        }
        true
    });
    found
}

/// What a call does: the app's hint when it gave one, else a shell command
/// among the arguments that writes, else what the tool's name implies
/// (`from_name`).
pub fn of_call(hint: Option<EffectHint>, shell_writes: bool, by_name: Effect) -> Effect {
    match hint {
        Some(EffectHint::ReadOnly) => Effect::Read,
        Some(EffectHint::Write) => Effect::Write,
        // A contradiction never gets here: the event checks refuse it.
        Some(EffectHint::SideEffect | EffectHint::Contradiction) => Effect::Action,
        None if shell_writes => Effect::Write,
        None => by_name,
    }
}

/// What the last few tool names imply (`is_shell`, `from_name`),
/// remembered: agents call the same few tools over and over, and reading a
/// name's words costs more than the rest of a call. Never persisted.
#[derive(Debug, Clone, Default)]
pub struct NameMemo {
    slots: [(String, bool, Effect); 4],
    next: usize,
}

impl NameMemo {
    /// Whether `name` is a shell tool, and the effect its words imply.
    pub fn get(&mut self, name: &str) -> (bool, Effect) {
        if let Some((_, shell, effect)) = self.slots.iter().find(|s| s.0 == name) {
            return (*shell, *effect);
        }
        let found = (is_shell(name), from_name(name));
        let at = self.next % self.slots.len();
        if let Some(slot) = self.slots.get_mut(at) {
            slot.0.clear();
            slot.0.push_str(name);
            (slot.1, slot.2) = found;
        }
        self.next = self.next.wrapping_add(1);
        found
    }
}

/// Whether the tool runs a shell command from its arguments.
pub fn is_shell(name: &str) -> bool {
    SHELL_NAMES.iter().any(|s| s.eq_ignore_ascii_case(name))
}

/// Calls `f` with each lowercase ASCII word of a name until it returns
/// false. Words longer than 24 bytes (none of the lists') are cut; no
/// allocation, since this runs on every tool call.
fn for_words(name: &str, mut f: impl FnMut(&str) -> bool) {
    let mut buf = [0u8; 24];
    let mut len = 0;
    let mut prev_lower = false;
    for c in name.bytes() {
        let boundary = !c.is_ascii_alphanumeric() || (c.is_ascii_uppercase() && prev_lower);
        if boundary && len > 0 {
            let w = std::str::from_utf8(buf.get(..len).unwrap_or(&[])).unwrap_or("");
            if !f(w) {
                return;
            }
            len = 0;
        }
        if c.is_ascii_alphanumeric()
            && let Some(slot) = buf.get_mut(len)
        {
            *slot = c.to_ascii_lowercase();
            len += 1;
        }
        prev_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
    }
    if len > 0 {
        f(std::str::from_utf8(buf.get(..len).unwrap_or(&[])).unwrap_or(""));
    }
}

/// Shell programs that change files when run, whatever their arguments.
const SHELL_WRITERS: &[&str] = &[
    "tee", "mv", "cp", "rm", "mkdir", "touch", "patch", "chmod", "ln", "truncate", "rmdir",
    "unzip", "install",
];

/// Whether a shell command changes files: an output redirection to a file
/// (`>`, `>>`, a heredoc written with `cat > f <<EOF`), an in-place edit
/// (`sed -i`, `perl -i`), or a program that writes (`tee`, `mv`, `git apply`,
/// `pip install`…). One pass over the command; a heredoc's body is not read
/// (it is the file's content, where `>` means nothing).
pub fn shell_writes(command: &str) -> bool {
    let mut quote: Option<char> = None;
    let mut words: Vec<&str> = Vec::with_capacity(4);
    let mut start: Option<usize> = None;
    let mut prev = ' ';
    let mut heredoc = false;
    let bytes = command.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = char::from(*bytes.get(i).unwrap_or(&b' '));
        if let Some(q) = quote {
            if c == q {
                quote = None;
            }
            prev = c;
            i += 1;
            continue;
        }
        let sep = c.is_ascii_whitespace() || matches!(c, ';' | '|' | '&' | '(' | ')');
        if (sep || c == '>' || c == '<') && start.is_some() {
            let s = start.take().unwrap_or(i);
            if words.len() < 4 {
                words.push(command.get(s..i).unwrap_or(""));
            }
        }
        match c {
            '\'' | '"' | '`' => quote = Some(c),
            '>' if prev != '2' && prev != '&' && prev != '>' => {
                let rest = command.get(i + 1..).unwrap_or("");
                let target = rest.trim_start_matches('>').trim_start();
                if !target.starts_with('&') && !target.starts_with("/dev/null") {
                    return true;
                }
            }
            '<' if bytes.get(i + 1) == Some(&b'<') => heredoc = true,
            '\n' | ';' | '|' | '&' => {
                if writes_by_program(&words) {
                    return true;
                }
                words.clear();
                if c == '\n' && heredoc {
                    return false; // the rest is the heredoc's body
                }
            }
            _ if !sep && c != '>' && c != '<' && start.is_none() => start = Some(i),
            _ => {}
        }
        prev = c;
        i += 1;
    }
    if let Some(s) = start
        && words.len() < 4
    {
        words.push(command.get(s..).unwrap_or(""));
    }
    writes_by_program(&words)
}

/// The first words of one simple command: does running it write?
fn writes_by_program(words: &[&str]) -> bool {
    let mut w = words
        .iter()
        .copied()
        .skip_while(|w| *w == "sudo" || w.contains('='));
    let Some(program) = w.next() else {
        return false;
    };
    let program = program.rsplit('/').next().unwrap_or(program);
    let arg = w.next().unwrap_or("");
    match program {
        // `-i`, `-i.bak`, `-pi`, `-pie`: a group of short flags holding `i`.
        "sed" | "perl" => words.iter().any(|a| {
            *a == "--in-place" || (a.starts_with('-') && !a.starts_with("--") && a.contains('i'))
        }),
        "git" => matches!(
            arg,
            "apply" | "checkout" | "restore" | "commit" | "stash" | "rm" | "mv" | "reset" | "am"
        ),
        "pip" | "pip3" | "npm" | "yarn" | "pnpm" | "cargo" | "apt" | "apt-get" => {
            matches!(arg, "install" | "add" | "uninstall" | "remove")
        }
        "tar" => arg.starts_with('x') || arg.starts_with("-x"),
        _ => SHELL_WRITERS.contains(&program),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memo_answers_as_the_names_do_while_it_evicts() {
        let names = [
            "bash",
            "get_order",
            "send_certificate",
            "write_file",
            "Execute_Command",
            "update_reservation_flights",
            "get_order",
            "bash",
            "list_files",
        ];
        let mut memo = NameMemo::default();
        for round in 0..3 {
            for name in names.iter().cycle().skip(round).take(20) {
                assert_eq!(memo.get(name), (is_shell(name), from_name(name)), "{name}");
            }
        }
        assert_eq!(memo.get("bash"), (true, Effect::Read));
        assert_eq!(memo.get("send_certificate"), (false, Effect::Action));
    }

    #[test]
    fn names_say_what_a_call_does() {
        for (name, want) in [
            ("get_reservation_details", Effect::Read),
            ("search_direct_flight", Effect::Read),
            ("get_update_status", Effect::Read),
            ("think", Effect::Read),
            ("bash", Effect::Read),
            ("write_file", Effect::Write),
            ("str_replace_editor", Effect::Write),
            ("update_reservation_flights", Effect::Action),
            ("modify_pending_order_address", Effect::Action),
            ("delete_file", Effect::Write),
            ("editFile", Effect::Write),
            ("send_certificate", Effect::Action),
            ("book_reservation", Effect::Action),
            ("sendEmail", Effect::Action),
            ("transfer_to_human_agents", Effect::Action),
            ("exchange_delivered_order_items", Effect::Action),
            ("lookup", Effect::Read),
            ("submit", Effect::Write),
        ] {
            assert_eq!(from_name(name), want, "{name}");
        }
    }

    #[test]
    fn shell_commands_that_write() {
        for cmd in [
            "cat > repro.py <<'EOF'\nprint(1 > 0)\nEOF",
            "cat <<'EOF' > repro.py\nx = 1\nEOF",
            "echo 'x = 1' >> settings.py",
            "sed -i 's/a/b/' src/lib.py",
            "cd /repo && sed -i.bak -e 's/a/b/' f.py",
            "perl -pi -e 's/a/b/' f",
            "git apply fix.patch",
            "pip install -e .",
            "mkdir -p out && touch out/x",
            "printf 'a\\n' | tee notes.txt",
            "python gen.py > out.txt 2>&1",
        ] {
            assert!(shell_writes(cmd), "{cmd}");
        }
    }

    #[test]
    fn shell_commands_that_only_read() {
        for cmd in [
            "python reproduce.py",
            "python -m pytest tests/ 2>&1 | tail -20",
            "grep -rn 'a > b' src/",
            "ls -la > /dev/null",
            "cat file.py | head -50",
            "python -c \"print(1 > 0)\"",
            "sed -n '10,20p' f.py",
            "git diff",
            "find . -name '*.py' 2>/dev/null",
            "echo hello",
            "python - <<'EOF'\nimport x\nprint(a > b)\nEOF",
        ] {
            assert!(!shell_writes(cmd), "{cmd}");
        }
    }
}
