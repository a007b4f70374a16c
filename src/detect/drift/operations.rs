//! What a how-to question asks to do, from a closed list of operations on
//! common tools (git, containers, SQL, spreadsheets, CSS, shells, editors,
//! writing) in nine languages. An answer that carries out other operations
//! and names none of the question's answers another question about the same
//! tool: "how do I squash commits?" answered with amending the author,
//! "UNION vs UNION ALL" answered with join types.
//!
//! Terms name the operation itself ("stash", "bisect", "freeze"), never the
//! tool or the object it works on ("git", "commit", "row"): two questions
//! about one tool share those.

use super::lexicon::Lexicon;
use super::scan::Scanned;

/// Each operation's terms (see `Lexicon`).
const OPERATIONS: &[&[&str]] = &[
    // Version control.
    &["stash"],
    &["bisect"],
    &["squash", "fixup", "压缩提交"],
    &["amend"],
    &["rebase", "变基"],
    &["cherry-pick"],
    &[
        "revert",
        "=undo",
        "rückgängig",
        "deshac",
        "desfaz",
        "=annuler",
        "撤销",
        "撤回",
        "取り消",
        "元に戻",
    ],
    &[
        "conflict",
        "konflikt",
        "conflit",
        "conflitt",
        "конфликт",
        "冲突",
        "競合",
        "コンフリクト",
    ],
    &[
        "rename",
        "umbenenn",
        "renomm",
        "renombr",
        "renome",
        "rinomin",
        "переимен",
        "重命名",
        "改名",
        "名前を変更",
        "リネーム",
    ],
    &["gitignore"],
    &["submodul"],
    &["blame"],
    // Containers and clusters.
    &[
        "=logs",
        "logcat",
        "journalctl",
        "=protokolle",
        "=journaux",
        "=логи",
        "=логов",
        "日志",
    ],
    &[
        "restart",
        "reboot",
        "neustart",
        "redémarr",
        "reinici",
        "riavvi",
        "перезапус",
        "перезагру",
        "重启",
        "再起動",
    ],
    &[
        "autoscal",
        "~=scale",
        "~=scaling",
        "=replica",
        "=replicas",
        "=hpa",
        "horizontalpod",
        "skalier",
        "扩容",
        "缩容",
        "伸缩",
        "スケール",
    ],
    &["liveness", "readiness", "=probe", "=probes", "探针"],
    &[
        "oom",
        "~=memory",
        "~arbeitsspeicher",
        "~mémoire",
        "~=memoria",
        "~памят",
        "~内存",
        "~メモリ",
    ],
    &[
        "leak",
        "fuite",
        "=fuga",
        "speicherleck",
        "утечк",
        "泄漏",
        "泄露",
        "リーク",
    ],
    &[
        "~=size",
        "~smaller",
        "shrink",
        "alpine",
        "distroless",
        "multi-stage",
        "multistage",
        "verkleiner",
        "~=größe",
        "~=taille",
        "~=tamaño",
        "~=tamanho",
        "~dimensione",
        "~размер",
        "体积",
        "减小",
        "~サイズ",
    ],
    &[
        "=install",
        "=installs",
        "installed",
        "installing",
        "installer",
        "installation",
        "installier",
        "installa",
        "instala",
        "~установ",
        "安装",
        "インストール",
    ],
    &["=proxy", "proxy_pass", "反向代理", "プロキシ"],
    &["lsof", "~=kill", "pkill", "killall"],
    &[
        "chmod",
        "chown",
        "~permission",
        "~berechtigung",
        "~permiso",
        "~permiss",
        "~permess",
        "~=права",
        "~权限",
        "~権限",
        "~パーミッション",
    ],
    &["=cron", "crontab", "cronjob", "定时任务"],
    &["ssh-keygen", "authorized_keys"],
    &[
        "=mirror",
        "index-url",
        "=miroir",
        "=espejo",
        "зеркал",
        "镜像源",
        "ミラー",
    ],
    &[
        "~disk",
        "~festplatt",
        "~disque",
        "~=disco",
        "~=диск",
        "~=диска",
        "~=диске",
        "~磁盘",
        "~硬盘",
        "~ディスク",
    ],
    // Databases.
    &["=union"],
    &["=join", "=joins", "=joint", "=jointure"],
    &[
        "~=lock",
        "~=locks",
        "~locked",
        "~locking",
        "pg_locks",
        "deadlock",
        "~=sperre",
        "~=sperren",
        "~verrou",
        "~блокиров",
        "死锁",
    ],
    &[
        "~backup",
        "pg_dump",
        "mysqldump",
        "~=dump",
        "~sicherung",
        "~sauvegard",
        "~respaldo",
        "~резервн",
        "~бэкап",
        "~备份",
        "~バックアップ",
    ],
    &[
        "charset",
        "utf8mb4",
        "collation",
        "=collate",
        "~encoding",
        "~kodierung",
        "~encodage",
        "~codificac",
        "~codifica",
        "~кодиров",
        "字符集",
        "编码",
        "文字コード",
    ],
    &[
        "~=index",
        "~=indexes",
        "~=indices",
        "~=índice",
        "~=indice",
        "~индекс",
        "~索引",
        "~インデックス",
    ],
    // Spreadsheets.
    &["median", "mediana", "médiane", "медиан", "中位数", "中央値"],
    &[
        "=avg",
        "average",
        "durchschnitt",
        "=moyenne",
        "=promedio",
        "=média",
        "~=media",
        "среднее",
        "平均值",
        "平均値",
    ],
    &[
        "weighted",
        "sumproduct",
        "summenprodukt",
        "sommeprod",
        "sumaproducto",
        "gewichtet",
        "pondér",
        "ponder",
        "взвешен",
        "加权",
        "加重",
    ],
    &["gleitend", "скользящ", "移动平均", "移動平均"],
    &["pivot", "croisé", "сводн", "透视", "ピボット"],
    &[
        "~conditional",
        "bedingte",
        "~conditionnelle",
        "~condicional",
        "~condizionale",
        "~условн",
        "条件格式",
        "条件付き書式",
    ],
    &[
        "vlookup",
        "xlookup",
        "hlookup",
        "sverweis",
        "xverweis",
        "recherchev",
        "rechercherx",
        "buscarv",
        "buscarx",
        "procv",
        "procx",
        "=впр",
    ],
    &[
        "duplicat",
        "dedup",
        "=doppelte",
        "=doppelten",
        "duplikat",
        "doublon",
        "duplicad",
        "duplicati",
        "дубл",
        "去重",
        "重复",
        "重複",
    ],
    &[
        "~freeze",
        "~frozen",
        "fixier",
        "figer",
        "inmoviliz",
        "congelar",
        "bloccare",
        "закреп",
        "冻结",
        "枠の固定",
    ],
    &[
        "protect",
        "~schütz",
        "blattschutz",
        "~protég",
        "~proteg",
        "~защит",
        "~保护",
        "~保護",
    ],
    // Code.
    &[
        "=environ",
        "~environment",
        "getenv",
        "dotenv",
        "~umgebungsvariabl",
        "~окружени",
        "环境变量",
        "環境変数",
    ],
    &["venv", "virtualenv", "conda", "虚拟环境", "仮想環境"],
    &[
        "~=sort",
        "~sorted",
        "~sorting",
        "~sortier",
        "~=trier",
        "~ordenar",
        "~ordinare",
        "~сортир",
        "~排序",
        "~ソート",
        "~並べ替",
    ],
    &["regex", "regexp", "正则", "正規表現"],
    &["closure", "замыкан", "闭包", "クロージャ"],
    &[
        "=cache",
        "=cached",
        "caching",
        "=caché",
        "кэш",
        "缓存",
        "キャッシュ",
    ],
    &["promise", "promesa", "promessa", "промис", "=promesse"],
    // Interfaces and documents.
    &[
        "~=center",
        "~=centre",
        "centering",
        "centered",
        "zentrier",
        "=centrer",
        "centrar",
        "centrare",
        "~центр",
        "居中",
        "中央揃え",
    ],
    &[
        "=bold",
        "font-weight",
        "=fett",
        "=gras",
        "negrita",
        "negrito",
        "grassetto",
        "жирн",
        "加粗",
        "粗体",
        "太字",
    ],
    &[
        "=icon",
        "=icons",
        "icône",
        "icono",
        "ícone",
        "icona",
        "иконк",
        "图标",
        "アイコン",
    ],
    &["=theme", "=themes", "=thème", "主题", "テーマ"],
    &[
        "autosave",
        "auto-save",
        "autoguard",
        "автосохран",
        "自动保存",
        "自動保存",
    ],
    &[
        "~=title",
        "~=titles",
        "~headline",
        "~=titel",
        "~=titre",
        "~=título",
        "~=titolo",
        "~заголов",
        "~标题",
        "~タイトル",
    ],
    &["outline", "gliederung", "提纲", "大纲", "アウトライン"],
    // Accounts and subscriptions.
    &[
        "cancel",
        "kündig",
        "résili",
        "cancelar",
        "disdir",
        "отмен",
        "取消",
        "解約",
        "キャンセル",
    ],
    &[
        "=pause",
        "=paused",
        "pausar",
        "pausier",
        "приостанов",
        "暂停",
        "一時停止",
    ],
    // Travel and money.
    &[
        "weather",
        "~climat",
        "~=clima",
        "wetter",
        "погод",
        "~климат",
        "天气",
        "~气候",
        "天気",
        "~気候",
    ],
    &[
        "~=visa",
        "passport",
        "pasaport",
        "passaport",
        "reisepass",
        "passeport",
        "паспорт",
        "签证",
        "护照",
        "ビザ",
        "パスポート",
    ],
    &[
        "installment",
        "instalment",
        "ratenzahl",
        "échelonn",
        "=cuotas",
        "parcelament",
        "rateizz",
        "рассрочк",
        "分期",
        "分割払い",
    ],
    // Spreadsheets and documents: exporting, filtering, sharing.
    &[
        "=export",
        "exporting",
        "exportier",
        "exporter",
        "exportar",
        "esport",
        "экспорт",
        "导出",
        "エクスポート",
    ],
    &[
        "=filter",
        "=filters",
        "filtr",
        "filtern",
        "фильтр",
        "筛选",
        "过滤",
        "フィルタ",
    ],
    &[
        "=share",
        "=sharing",
        "partag",
        "compartir",
        "compartilh",
        "condivi",
        "freigeb",
        "поделит",
        "共享",
        "分享",
        "共有",
    ],
];

static LEXICON: Lexicon = Lexicon::new(OPERATIONS);

/// At most this many operations are kept for a request.
pub const MAX_OPS: usize = 16;

/// The operations a text names, sorted, with code included.
pub fn of(s: &Scanned) -> Vec<u16> {
    let mut ops: Vec<u16> = Vec::new();
    LEXICON.found(s, true, &mut |i, _, _| {
        let i = u16::try_from(i).unwrap_or(u16::MAX);
        if let Err(at) = ops.binary_search(&i)
            && ops.len() < MAX_OPS
        {
            ops.insert(at, i);
        }
    });
    ops
}

/// An answer's operations outside `asked`, by how often strong terms name
/// them, and whether it names any of `asked` at all.
pub fn other(s: &Scanned, asked: &[u16]) -> (u32, bool) {
    let (mut hits, mut named) = (0u32, false);
    LEXICON.found(s, true, &mut |i, _, weak| {
        let i = u16::try_from(i).unwrap_or(u16::MAX);
        if asked.contains(&i) {
            named = true;
        } else if !weak {
            hits += 1;
        }
    });
    (hits, named)
}

/// The words of an answer that name an operation outside `asked` (strong
/// terms only).
pub fn words(s: &Scanned, asked: &[u16]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    LEXICON.found(s, true, &mut |i, w, weak| {
        let i = u16::try_from(i).unwrap_or(u16::MAX);
        if !weak && !asked.contains(&i) && out.len() < 8 && !out.iter().any(|o| o == w) {
            out.push(w.to_string());
        }
    });
    out
}

/// Whether every id names an operation: what an imported snapshot holds.
pub fn valid(ops: &[u16]) -> bool {
    ops.len() <= MAX_OPS && ops.iter().all(|&i| usize::from(i) < LEXICON.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ops(text: &str) -> Vec<u16> {
        of(&Scanned::new(text))
    }

    #[test]
    fn operations_in_several_languages() {
        let vlookup = ops("How do I use VLOOKUP to match the two sheets?");
        assert_eq!(vlookup.len(), 1);
        assert_eq!(ops("¿Cómo uso BUSCARV entre dos hojas?"), vlookup);
        assert_eq!(ops("Wie benutze ich SVERWEIS?"), vlookup);
        assert_eq!(ops("Как использовать ВПР?"), vlookup);
        // Hyphenated and CJK terms are found although the scanner splits them.
        assert_eq!(ops("git cherry-pick a1b2c3").len(), 1);
        assert_eq!(ops("如何撤销上一次提交？").len(), 1);
        // The tool and its objects are not operations: two questions about
        // one tool share them.
        assert!(ops("What does git commit do to my files?").is_empty());
    }

    #[test]
    fn weak_terms_ask_but_do_not_detour() {
        let asked = ops("How do I reduce the size of my Docker image?");
        assert_eq!(asked.len(), 1);
        let sizes = Scanned::new("Set the part size and the size of each chunk.");
        assert_eq!(other(&sizes, &[]), (0, false));
        assert_eq!(other(&sizes, &asked), (0, true));
        assert!(words(&sizes, &[]).is_empty());
        let restart = Scanned::new("Restart the pod, then restart the service.");
        assert_eq!(other(&restart, &asked), (2, false));
        assert_eq!(words(&restart, &asked), ["restart"]);
        // "What does it mean?" asks no average.
        assert!(ops("What does exit code 137 mean, and how do I fix it?").is_empty());
        assert_eq!(
            ops("Compute the average per region."),
            ops("Calcula el promedio por región.")
        );
    }

    #[test]
    fn a_request_keeps_at_most_max_ops() {
        let all: Vec<&str> = OPERATIONS
            .iter()
            .map(|terms| terms[0].trim_start_matches('~').trim_start_matches('='))
            .collect();
        let found = ops(&all.join(" "));
        assert_eq!(found.len(), MAX_OPS);
        assert!(found.windows(2).all(|w| w[0] < w[1]));
        assert!(valid(&found));
        assert!(!valid(&[u16::try_from(OPERATIONS.len()).unwrap()]));
    }
}
