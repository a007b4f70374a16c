//! Operations that come in opposite pairs (import/export, read/write,
//! upload/download…), in nine languages. A request that names one side only,
//! answered with the other side and never the asked one, got the answer to
//! the neighbouring question: how to write a CSV for "how do I read one?",
//! the CSV importer for "how do I export my board?".
//!
//! Terms follow `Lexicon`: word prefixes, whole words (`=`), and CJK or
//! hyphenated terms found in the text. Words a pair's terms share with
//! everyday speech ("ready", "active") are kept out with whole words.

use super::lexicon::Lexicon;
use super::scan::Scanned;

/// Pairs of opposite operations: concepts `2k` and `2k + 1`.
const OPPOSITES: &[&[&str]] = &[
    &["import", "импорт", "导入", "インポート", "取り込"],
    &["export", "экспорт", "导出", "エクスポート", "書き出"],
    &[
        "=read",
        "=reads",
        "=reading",
        "=reader",
        "read_",
        "readfile",
        "readline",
        "=fread",
        "=lesen",
        "=liest",
        "=lire",
        "=ler",
        "=leggere",
        "читать",
        "прочит",
        "чтени",
        "读取",
        "読み込",
    ],
    &[
        "=write",
        "=writes",
        "=writing",
        "=writer",
        "=written",
        "writerow",
        "writefile",
        "writeline",
        "=fwrite",
        "to_csv",
        "to_excel",
        "to_json",
        "to_parquet",
        "=schreiben",
        "=escribir",
        "=écrire",
        "=escrever",
        "=scrivere",
        "записать",
        "записыв",
        "写入",
        "書き込",
    ],
    &["upload", "hochlad", "téléverse", "上传", "アップロード"],
    &[
        "download",
        "herunterlad",
        "descarg",
        "télécharg",
        "=baixar",
        "scaric",
        "скача",
        "下载",
        "ダウンロード",
    ],
    &[
        "=enable",
        "=enabled",
        "=enabling",
        "aktivier",
        "einschalt",
        "=activar",
        "=activer",
        "=activé",
        "=ativar",
        "=attivare",
        "включить",
        "开启",
        "启用",
        "有効に",
    ],
    &[
        "=disable",
        "=disabled",
        "=disabling",
        "deaktivier",
        "ausschalt",
        "desactiv",
        "désactiv",
        "desativ",
        "disattiv",
        "отключ",
        "выключ",
        "禁用",
        "無効",
    ],
    &[
        "encrypt",
        "verschlüssel",
        "=cifrar",
        "chiffr",
        "criptograf",
        "зашифр",
        "加密",
        "暗号化",
    ],
    &[
        "decrypt",
        "entschlüssel",
        "descifr",
        "déchiffr",
        "descriptograf",
        "decifr",
        "расшифр",
        "解密",
        "復号",
    ],
    &[
        "compress",
        "komprimier",
        "comprim",
        "сжать",
        "сжима",
        "压缩",
    ],
    &[
        "decompress",
        "unzip",
        "entpack",
        "dekomprimier",
        "descomprim",
        "décompress",
        "decomprim",
        "распаков",
        "解压",
        "解凍",
    ],
    &[
        "=serialize",
        "=serialise",
        "serializ",
        "serialis",
        "сериализ",
    ],
    &[
        "deserializ",
        "deserialis",
        "désérialis",
        "десериализ",
        "反序列化",
    ],
    &[
        "=encode",
        "=encoding",
        "=encoded",
        "kodier",
        "codific",
        "кодиров",
        "编码",
        "エンコード",
    ],
    &[
        "=decode",
        "=decoding",
        "=decoded",
        "dekodier",
        "decodific",
        "descodific",
        "декодир",
        "解码",
        "デコード",
    ],
    &["=push", "=pushed", "=pushing", "=pushes"],
    &["=pull", "=pulled", "=pulling", "=pulls"],
    &[
        "=lock",
        "=locked",
        "=locking",
        "sperren",
        "bloque",
        "verrouill",
        "blocc",
        "заблокир",
        "锁定",
    ],
    &[
        "=unlock",
        "=unlocked",
        "=unlocking",
        "entsperr",
        "desbloque",
        "déverrouill",
        "sblocc",
        "разблокир",
        "解锁",
    ],
];

static LEXICON: Lexicon = Lexicon::new(OPPOSITES);

/// At most this many one-sided operations are kept for a request.
pub const MAX_SIDES: usize = 8;

fn partner(i: usize) -> usize {
    i ^ 1
}

/// The operations a request names without their opposite, sorted.
pub fn asked(s: &Scanned) -> Vec<u16> {
    let mut named = [false; 64];
    LEXICON.found(s, true, &mut |i, _, _| {
        if let Some(n) = named.get_mut(i) {
            *n = true;
        }
    });
    (0..LEXICON.len().min(64))
        .filter(|&i| named[i] && !named[partner(i)])
        .filter_map(|i| u16::try_from(i).ok())
        .take(MAX_SIDES)
        .collect()
}

/// The answer's words naming the opposite of an asked operation, when it
/// names no asked one: twice at least, once in its prose (an `import` line
/// of code alone is not an import).
pub fn reversed(s: &Scanned, asked: &[u16]) -> Option<Vec<String>> {
    if asked.is_empty() {
        return None;
    }
    let opposite = |i: usize| asked.iter().any(|&a| partner(usize::from(a)) == i);
    let (mut named, mut hits, mut in_prose) = (false, 0u32, false);
    let mut words: Vec<String> = Vec::new();
    LEXICON.found(s, true, &mut |i, w, _| {
        if asked.iter().any(|&a| usize::from(a) == i) {
            named = true;
        } else if opposite(i) {
            hits += 1;
            if words.len() < 6 && !words.iter().any(|x| x == w) {
                words.push(w.to_string());
            }
        }
    });
    if named || hits < 2 {
        return None;
    }
    LEXICON.found(s, false, &mut |i, _, _| in_prose |= opposite(i));
    in_prose.then_some(words)
}

/// Whether every id is a concept of the list: what an imported snapshot holds.
pub fn valid(ids: &[u16]) -> bool {
    ids.len() <= MAX_SIDES && ids.iter().all(|&i| usize::from(i) < LEXICON.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reversed_in(task: &str, answer: &str) -> Option<Vec<String>> {
        reversed(&Scanned::new(answer), &asked(&Scanned::new(task)))
    }

    #[test]
    fn pairs_are_whole_and_every_term_finds_itself() {
        assert_eq!(OPPOSITES.len() % 2, 0);
        assert!(OPPOSITES.len() <= 64);
        for (i, terms) in OPPOSITES.iter().enumerate() {
            for term in *terms {
                let body = term.trim_start_matches('=');
                assert_eq!(body, body.to_lowercase(), "{term}");
                // "read_" starts identifiers such as `read_csv`.
                let text = format!("{body}{}", if body.ends_with('_') { "csv" } else { "" });
                let mut found = false;
                LEXICON.found(&Scanned::new(&text), true, &mut |c, _, _| found |= c == i);
                assert!(found, "{term} does not find itself");
            }
        }
    }

    #[test]
    fn one_side_asked_the_other_answered() {
        let task = "How do I read a CSV file line by line with Python's csv module?";
        let write = "To produce a CSV file, open it in write mode and use `csv.writer`:\n\n\
                     ```python\nwith open('p.csv', 'w') as f:\n    csv.writer(f).writerows(rows)\n```";
        assert!(reversed_in(task, write).is_some_and(|w| w.contains(&"write".to_string())));
        // Naming the asked side at all is an answer to it.
        let both = "Use `csv.reader`; to write it back, `csv.writer` and `writerows`.";
        assert_eq!(reversed_in(task, both), None);
        // A request naming both sides asks about both.
        assert!(asked(&Scanned::new("Read the file and write the result")).is_empty());
        assert!(
            reversed_in(
                "Wie exportiere ich die Tabelle?",
                "Mit dem Import-Assistenten: Importieren wählen, Datei auswählen."
            )
            .is_some()
        );
        assert!(
            reversed_in("如何导出表格？", "在菜单中选择导入，然后再导入第二个文件。").is_some()
        );
    }

    #[test]
    fn locking_for_unlocking() {
        let task = "¿Cómo desbloqueo mi tarjeta?";
        let lock = "Para bloquear la tarjeta entra en la app y pulsa Bloquear; \
                    puedes bloquearla también por teléfono.";
        assert!(reversed_in(task, lock).is_some());
        let unlock =
            "Entra en la app y pulsa Desbloquear; si la bloqueaste por robo, llama al banco.";
        assert_eq!(reversed_in(task, unlock), None);
    }

    #[test]
    fn an_import_line_of_code_is_not_an_import() {
        let task = "How do I export my DataFrame to Excel?";
        let code = "```python\nimport pandas as pd\nfrom openpyxl import Workbook\n```\nCall `df.to_excel('out.xlsx')`.";
        assert_eq!(reversed_in(task, code), None);
    }
}
