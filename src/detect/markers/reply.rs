//! Pushback told by how a message answers the previous reply rather than by a
//! fixed phrase (the phrase packs are in `lexicon.rs`):
//!
//! - a **contrast** that rejects a word the previous answer used: "orders_2023,
//!   not orders", "Canberra, не Sydney", "config.jsonではなくsettings.json",
//!   or a refusal opening a sentence that answers no question ("I don't want
//!   store credit", "别用 pandas");
//! - a **rejection opener**: "Wrong table.", "Falsch, …", "Nope, …", and a
//!   bare "No, …" when the previous answer asked nothing (then it answers the
//!   question: "No, keep the branch.");
//! - a **failure report tied to the answer**: a failure word with "still",
//!   "again", "now" or the assistant's work in the same sentence ("Still
//!   getting the 403", "I ran your script and got KeyError", "Опять сломалось
//!   после твоего изменения"), or a message that is nothing but one ("DOESNT
//!   WORK", "still 500");
//! - **sarcastic praise** (`sarcasm.rs`): "Great, now none of the
//!   tests compile".
//!
//! All of them read the normalised message (`markers::normalize`: lowercase,
//! `'` apostrophes, single spaces, full-width and half-width forms folded) and
//! fire only when the message replies to an answer. Questions are left alone
//! ("why does it still fail on my machine?" asks, it does not push back), and
//! so are messages that state a standing rule (the rule is what to act on).

use super::absent::absent;
use super::accept::{accepts, english};
use super::doubt::{CIRCLES, DOUBT, circles, doubt};
use super::failure::failure;
use super::redirect::redirect;
use super::report::{elsewhere, report};
use super::sarcasm::sarcasm;
use super::scan::scan;
use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use crate::hash::FastBuild;
use crate::text::{KeywordBag, chars};

/// The answer a message replies to.
#[derive(Debug, Clone, Copy)]
pub struct Previous<'a> {
    /// Its keywords (the response bag the regulator keeps for the turn).
    pub keywords: &'a KeywordBag,
    /// Whether it asked the user something.
    pub asked: bool,
    /// Whether it asked for output (`request.rs`): a pasted error answers it.
    pub requested: bool,
    /// The user's earlier messages, newest first: what "still …" may name.
    pub earlier: &'a [&'a KeywordBag],
}

/// Which rule fired; reported as the hit's phrase.
pub const CONTRAST: &str = "(rejects a word of the previous answer)";
pub const OPENER: &str = "(opens by rejecting the previous answer)";
pub const FAILURE: &str = "(reports the previous answer failing)";
pub const SARCASM: &str = "(praises the previous answer sarcastically)";

/// The words of the three rules for the languages written with spaces, or
/// for Chinese and Japanese. Entries ending in `*` match as a word prefix
/// ("fail*": fails, failed, failing), entries starting with one as a suffix;
/// spaced languages match at word boundaries, Chinese and Japanese anywhere.
pub(super) struct Words {
    pub(super) spaced: bool,
    /// Introduce the rejected word: "X, not Y", "instead of Y".
    contrast: &'static [&'static str],
    /// Refuse the word that follows, outside a question: "I don't want
    /// store credit", "别用 pandas".
    refuse: &'static [&'static str],
    /// Answers "no" to something: only when the previous answer asked nothing.
    no: &'static [&'static str],
    /// Open a message by calling the answer wrong.
    wrong: &'static [&'static str],
    failure: &'static [&'static str],
    /// Tie a failure to the previous answer.
    tie: &'static [&'static str],
}

/// Words that soften a contrast into an addition: "not just null", "nicht nur".
const NOT_REJECTING: &[&str] = &[
    "more",
    "need",
    "other",
    "further",
    "extra",
    "worries",
    "rush",
    "just",
    "only",
    "even",
    "always",
    "yet",
    "all",
    "too",
    "really",
    "exactly",
    "necessarily",
    "sure",
    "solo",
    "sólo",
    "solamente",
    "siempre",
    "todo",
    "todos",
    "tan",
    "tanto",
    "muy",
    "nur",
    "immer",
    "alle",
    "alles",
    "ganz",
    "so",
    "sehr",
    "mehr",
    "seulement",
    "que",
    "toujours",
    "tout",
    "tous",
    "trop",
    "très",
    "encore",
    "plus",
    "só",
    "somente",
    "apenas",
    "sempre",
    "tudo",
    "tão",
    "muito",
    "mais",
    "только",
    "всегда",
    "все",
    "всё",
    "так",
    "очень",
    "просто",
];

/// Articles and possessives between a contrast and the word it rejects.
const DETERMINERS: &[&str] = &[
    "the", "a", "an", "my", "your", "this", "that", "el", "la", "los", "las", "un", "una", "mi",
    "tu", "der", "die", "das", "den", "dem", "des", "ein", "eine", "einen", "mein", "meine",
    "dein", "le", "les", "l'", "une", "mon", "ma", "mes", "ton", "ta", "o", "os", "as", "um",
    "uma", "meu", "minha", "seu", "sua", "в", "на", "мой", "моя", "мое", "моё", "celui", "celle",
    "ceux", "celles", "essa", "esse", "esta", "este", "aquela", "aquele", "one",
];

pub(super) const LANGS: &[Words] = &[
    Words {
        spaced: true,
        contrast: &[
            ", not",
            "instead of",
            "rather than",
            ", а не",
            ", не",
            "а не",
            "вместо",
            ", nicht",
            ", kein",
            ", keine",
            "statt",
            "anstatt",
            ", pas",
            "et non",
            "et non pas",
            "au lieu de",
            "au lieu du",
            "au lieu des",
            ", no",
            "en lugar de",
            "en vez de",
            "y no",
            ", não",
            ", nao",
            "e não",
            "em vez de",
            "em vez do",
            "em vez da",
            "ao invés de",
        ],
        refuse: &[
            "i don't want",
            "i do not want",
            "i dont want",
            "don't use",
            "do not use",
            "dont use",
            "no quiero",
            "no uses",
            "no utilices",
            "ich will kein",
            "ich will keine",
            "ich möchte kein",
            "ich möchte keine",
            "nicht über",
            "nicht mit",
            "je ne veux pas",
            "n'utilise pas",
            "não quero",
            "nao quero",
            "não use",
            "não usa",
            "не хочу",
            "не надо",
            "не используй",
        ],
        no: &[
            "no", "nope", "nah", "nein", "nö", "non", "não", "nao", "нет",
        ],
        wrong: &[
            "wrong",
            "incorrect",
            "not quite",
            "not really",
            "falsch",
            "nicht ganz",
            "nicht richtig",
            "faux",
            "pas tout à fait",
            "pas vraiment",
            "incorrecto",
            "incorrecta",
            "falso",
            "mal",
            "no exactamente",
            "errado",
            "errada",
            "incorreto",
            "não exatamente",
            "неправильно",
            "неверно",
            "не совсем",
            "не так",
        ],
        failure: &[
            // English; exception names ("KeyError", "NullPointerException")
            "error*",
            "*error",
            "*exception",
            "fail*",
            "crash*",
            "broke",
            "broken",
            "breaks",
            "exception",
            "traceback",
            // Error names that are the failure by themselves, in any language.
            "econnrefused",
            "econnreset",
            "etimedout",
            "enoent",
            "eacces",
            "eaddrinuse",
            "imagepullbackoff",
            "errimagepull",
            "crashloopbackoff",
            "oomkilled",
            "segfault*",
            "panicked",
            "times out",
            "timed out",
            "timeout",
            "hangs",
            "freezes",
            "not fixed",
            "doesn't work",
            "doesnt work",
            "doesn't load",
            "doesn't compile",
            "doesn't build",
            "doesn't run",
            "doesn't start",
            "won't load",
            "won't compile",
            "won't build",
            "won't run",
            "won't start",
            "wont work",
            "can't log in",
            "cannot log in",
            "not working",
            "no longer works",
            "stopped working",
            "same result",
            "same output",
            "same problem",
            "same issue",
            // Spanish
            "falla*",
            "falló",
            "roto",
            "rompe",
            "rompió",
            "no carga",
            "no compila",
            "no arranca",
            "no abre",
            "se cuelga",
            "se cae",
            // German
            "fehler*",
            "fehl",
            "schlägt fehl",
            "schlagen fehl",
            "fehlgeschlagen",
            "stürzt ab",
            "abgestürzt",
            "kaputt",
            "lädt nicht",
            "kompiliert nicht",
            "startet nicht",
            "läuft nicht",
            "geht nicht",
            // French
            "erreur*",
            "plante",
            "planté",
            "cassé",
            "échoue*",
            "ne charge pas",
            "ne compile pas",
            "ne démarre pas",
            "ne se lance pas",
            // Portuguese
            "erro",
            "erros",
            "falha*",
            "falhou",
            "quebrou",
            "quebrado",
            "trava",
            "travou",
            "não compila",
            "nem compila",
            "nem abre",
            "nem carrega",
            "em branco",
            "en blanco",
            "komplett leer",
            "ganz leer",
            "völlig leer",
            "não carrega",
            "não abre",
            "não roda",
            "não inicia",
            // Russian
            "ошибк*",
            "падает",
            "упал*",
            "сломал*",
            "сломано",
            "вылетает",
            "виснет",
            "не запускается",
            "не грузится",
            "не открывается",
            "не компилируется",
            "blank",
            "empty",
            "prints nothing",
            "in a loop",
            "redirect loop",
            "infinite loop",
            "en boucle",
            "bucle infinito",
            "endlosschleife",
            "loop infinito",
            "бесконечный цикл",
            "worse",
            "is red",
            "went red",
            "turned red",
            "red now",
            "nothing renders",
            "renders nothing",
            "nothing loads",
            "nothing appears",
            "no change",
            "doesn't do anything",
            "does not do anything",
            "no data",
            "shows nothing",
            "nothing shows",
            "no results",
            "not loading",
            "not saving",
            "not updating",
            "does nothing",
            "nothing at all",
            "no output",
            "disappeared",
            "vanished",
            "is gone",
            "killed",
            "core dumped",
            "segfault*",
            "segmentation fault",
            "connection refused",
            "off by one",
            "vacío",
            "vacía",
            "desapareció",
            "ni arranca",
            "ni carga",
            "ni compila",
            "ni funciona",
            "verschwunden",
            "ist leer",
            "bleibt leer",
            "hängt weiterhin",
            "hängt immer noch",
            "hängt sich auf",
            "bricht ab",
            "vide",
            "disparu",
            "ne fait rien",
            "ne marche pas",
            "vazio",
            "vazia",
            "sumiu",
            "travando",
            "пуст*",
            "пропал*",
            "исчез*",
            "refused",
            // What an answer's command or query destroyed: the user's things
            // or all of them, not "wiped the cache" (often what was wanted).
            "deleted my",
            "deleted all",
            "deleted everything",
            "deleted the whole",
            "wiped my",
            "wiped all",
            "wiped everything",
            "wiped out",
            "erased my",
            "erased all",
            "erased everything",
            "dropped my",
            "dropped all",
            "dropped the whole",
            "zeros",
            "zeroes",
            "all zero",
            "messed up",
            "garbled",
            "can't connect",
            "cannot connect",
            "cant connect",
            "won't connect",
            "borró todo",
            "borró todos",
            "borró mis",
            "me borró",
            "me vació",
            "me vacio",
            "vació toda",
            "vacio toda",
            "se perdió todo",
            "alles gelöscht",
            "komplett gelöscht",
            "stürzt",
            "tout supprimé",
            "a supprimé mes",
            "tout effacé",
            "a effacé mes",
            "tout vidé",
            "apagou todas",
            "apagou todos",
            "apagou tudo",
            "apagou minhas",
            "apagou meus",
            "нулями",
            "обнулил*",
            "удалил все",
            "удалило все",
            "всё удалил*",
            "все удалил*",
        ],
        tie: &[
            "still",
            "again",
            "now",
            "your script",
            "your code",
            "your fix",
            "your change",
            "your changes",
            "your command",
            "your query",
            "your solution",
            "your snippet",
            "your patch",
            "your suggestion",
            "your steps",
            "your formula",
            "your version",
            "after your",
            "since your",
            "after the fix",
            "after the change",
            "after applying",
            "sigue",
            "todavía",
            "todavia",
            "otra vez",
            "de nuevo",
            "ahora",
            "tu script",
            "tu código",
            "tu codigo",
            "tu cambio",
            "tu solución",
            "después de tu",
            "immer noch",
            "noch immer",
            "wieder",
            "jetzt",
            "sogar",
            "dein skript",
            "dein code",
            "deine änderung",
            "nach deiner",
            "nach deinem",
            "toujours",
            "encore",
            "à nouveau",
            "de nouveau",
            "maintenant",
            "ta modification",
            "ton code",
            "ton script",
            "ta solution",
            "après ta",
            "après ton",
            "ainda",
            "de novo",
            "novamente",
            "agora",
            "piorou",
            "seu código",
            "seu script",
            "sua alteração",
            "sua solução",
            "depois da sua",
            "depois do seu",
            "всё ещё",
            "все еще",
            "всё равно",
            "опять",
            "снова",
            "теперь",
            "после твоего",
            "currently",
            "right now",
            "seit deiner",
            "seit deinem",
            "desde tu",
            "depuis ta",
            "depuis ton",
            "depuis votre",
            "desde a sua",
            "desde o seu",
            "с тех пор как ты",
            "actuellement",
            "en ce moment",
            "actualmente",
            "aktuell",
            "atualmente",
            "сейчас",
            "после твоей",
            "после вашего",
            "после вашей",
            "твой код",
            "твой скрипт",
            "your",
            "tu",
            "tus",
            "dein",
            "deine",
            "deinen",
            "ton",
            "ta",
            "tes",
            "votre",
            "vos",
            "seu",
            "sua",
            "teu",
            "tua",
            "твой",
            "твоя",
            "твоё",
            "твое",
            "ваш",
            "ваша",
            "ваше",
            "same",
            "mismo",
            "misma",
            "gleiche",
            "gleichen",
            "selbe",
            "selben",
            "même",
            "mesmo",
            "mesma",
            "тот же",
            "та же",
            "то же",
            "second time",
            "third time",
            "fourth time",
            "twice",
            "three times",
            "dos veces",
            "tres veces",
            "zweimal",
            "dreimal",
            "deux fois",
            "trois fois",
            "duas vezes",
            "três vezes",
            "segunda vez",
            "terceira vez",
            "tercera vez",
            "который раз",
            "второй раз",
            "третий раз",
            "дважды",
            "трижды",
            "weiterhin",
            "continua",
            "continúa",
            "followed your",
            "à la lettre",
            "al pie de la letra",
            // What the answer gave, named as such.
            "after running",
            "after i ran",
            "after using",
            "after trying",
            "with that",
            "that command",
            "that script",
            "that formula",
            "that query",
            "that migration",
            "that code",
            "that fix",
            "that change",
            "that snippet",
            "that setting",
            "you gave",
            "you sent",
            "you suggested",
            "you told me",
            "you wrote",
            "que me pasaste",
            "que me diste",
            "que me mandaste",
            "tu comando",
            "tu consulta",
            "tu fórmula",
            "die du mir",
            "den du mir",
            "das du mir",
            "dein befehl",
            "deinem befehl",
            "que tu m'as",
            "ta commande",
            "ta requête",
            "ta formule",
            "seu comando",
            "que você me passou",
            "que voce me passou",
            "que vc me passou",
            "твоего",
            "твоей",
        ],
    },
    Words {
        spaced: false,
        contrast: &[
            "，不是",
            ",不是",
            "而不是",
            "不是",
            "ではなく",
            "じゃなくて",
            "じゃなく",
        ],
        refuse: &["别用", "不要用", "別用", "我不要", "不想要"],
        no: &["不，", "不,", "いいえ", "いや、"],
        wrong: &["だめ", "ダメ", "駄目"],
        failure: &[
            "报错",
            "闪退",
            "死循环",
            "無限ループ",
            "報錯",
            "失败",
            "崩溃",
            "崩了",
            "打不开",
            "启动不了",
            "编译不过",
            "跑不了",
            "没解决",
            "没用",
            "挂了",
            "卡住",
            "不生效",
            "エラー",
            "失敗",
            "落ち",
            "起動しな",
            "起動でき",
            "通りません",
            "通らな",
            "壊れ",
            "表示されな",
            "直らな",
            "解決しな",
            "固まる",
            "動かな",
            "白屏",
            "没反应",
            "不上了",
            "没到账",
            "没变化",
            "不起作用",
            "消失了",
            "空白",
            "跑不起",
            "真っ白",
            "消え",
            "変わらな",
            "違う",
            "違います",
            "ちがう",
            "乱了",
            "连不上",
            "全删了",
            "都删了",
            "全被删",
            "都被删",
        ],
        tie: &[
            "还是",
            "還是",
            "仍然",
            "依然",
            "又",
            "再次",
            "改了之后",
            "现在",
            "目前",
            "自从你",
            "改完以后",
            "直したら",
            "修正したら",
            "按你说的",
            "你的代码",
            "照你",
            "怎么还",
            "まだ",
            "また",
            "逆に",
            "今度は",
            "してもらった",
            "言われた通り",
            "相変わらず",
            "你这个",
            "你给的",
            "你給的",
            "你的",
            "改完",
            "第二次",
            "第三次",
            "マダ",
            "マタ",
            "同じ",
        ],
    },
];

/// Whether normalised message `t` owns the mistake ("I pasted the wrong
/// log"), so that even a phrase in it ("错了") is no pushback.
pub fn owns_the_mistake(t: &str) -> bool {
    super::report::owned(t, &scan(t))
}

/// The first rule that fires on normalised message `t`, with its span.
pub fn find(t: &str, prev: Option<Previous<'_>>) -> Option<(&'static str, usize, usize)> {
    let prev = prev?;
    let found = scan(t);
    if elsewhere(t, &found) {
        return None;
    }
    let words = Present::of(t);
    let accepts = accepts(t, &found);
    contrast(t, prev, &words)
        .or_else(|| absent(t, prev, &words))
        .or_else(|| redirect(t, prev, &found))
        .filter(|_| !accepts)
        .map(|(a, b)| (CONTRAST, a, b))
        .or_else(|| opener(t, prev).map(|(a, b)| (OPENER, a, b)))
        .or_else(|| failure(t, &words, &found).map(|(a, b)| (FAILURE, a, b)))
        .or_else(|| sarcasm(t).map(|(a, b)| (SARCASM, a, b)))
        .or_else(|| report(t, prev, &found).map(|(a, b)| (FAILURE, a, b)))
        .or_else(|| doubt(t, prev, &found).map(|(a, b)| (DOUBT, a, b)))
        .or_else(|| circles(t, &found).map(|(a, b)| (CIRCLES, a, b)))
}

/// The words of a message, to pass over list entries whose first word it
/// lacks before searching the text for them: the rules hold some 600
/// entries, and a substring search for each made reading a reply five times
/// slower than reading the phrases.
pub(super) struct Present<'a> {
    words: HashSet<&'a str, FastBuild>,
    ascii: bool,
    /// The bytes the words start with, end with, and the message's bytes,
    /// as 256-bit sets: an entry that may run on (`*error`, `fail*`) is
    /// tried against every word only when its word's bytes are there.
    firsts: [u64; 4],
    lasts: [u64; 4],
    bytes: [u64; 4],
}

/// Adds byte `x` to a 256-bit set.
fn set_byte(set: &mut [u64; 4], x: u8) {
    if let Some(w) = set.get_mut(usize::from(x / 64)) {
        *w |= 1 << (x % 64);
    }
}

/// Whether byte `x` is in a 256-bit set.
fn has_byte(set: &[u64; 4], x: u8) -> bool {
    set.get(usize::from(x / 64))
        .is_some_and(|w| w & (1 << (x % 64)) != 0)
}

impl<'a> Present<'a> {
    pub(super) fn of(t: &'a str) -> Self {
        // Sized for a word a space up front, so the set is not regrown
        // as it fills.
        let spaces = t.bytes().filter(|&b| b == b' ').count();
        let mut words =
            HashSet::with_capacity_and_hasher(spaces.min(1024) + 1, FastBuild::default());
        let (mut firsts, mut lasts, mut bytes) = ([0u64; 4], [0u64; 4], [0u64; 4]);
        for m in t.split(|c: char| !is_word(c)).filter(|w| !w.is_empty()) {
            if let (Some(&f), Some(&l)) = (m.as_bytes().first(), m.as_bytes().last()) {
                set_byte(&mut firsts, f);
                set_byte(&mut lasts, l);
            }
            words.insert(m);
        }
        for &x in t.as_bytes() {
            set_byte(&mut bytes, x);
        }
        Present {
            words,
            ascii: t.is_ascii(),
            firsts,
            lasts,
            bytes,
        }
    }

    /// Whether some word holds `w` as an open entry asks (at its start
    /// unless `open_start`, at its end unless `open_end`, else anywhere).
    fn holds(&self, w: &str, open_start: bool, open_end: bool) -> bool {
        self.may_hold(w, open_start, open_end)
            && self.words.iter().any(|m| {
                (open_start || m.starts_with(w)) && (open_end || m.ends_with(w)) && m.contains(w)
            })
    }

    /// Whether `holds` can be true, by the bytes such a word would have and
    /// without reading the words: never false when `holds` is true.
    fn may_hold(&self, w: &str, open_start: bool, open_end: bool) -> bool {
        let (Some(&first), Some(&last)) = (w.as_bytes().first(), w.as_bytes().last()) else {
            return true;
        };
        match (open_start, open_end) {
            (false, false) => has_byte(&self.firsts, first) && has_byte(&self.lasts, last),
            (false, true) => has_byte(&self.firsts, first),
            (true, false) => has_byte(&self.lasts, last),
            (true, true) => has_byte(&self.bytes, first),
        }
    }

    /// Whether the message holds the word `w`.
    pub(super) fn has(&self, w: &str) -> bool {
        self.words.contains(w)
    }

    /// Whether `entry` may occur (never false when it does).
    pub(super) fn may(&self, entry: &str, spaced: bool) -> bool {
        if !spaced {
            return !self.ascii;
        }
        match first_word(entry) {
            None => true,
            Some((w, false, false)) => self.words.contains(w),
            Some((w, open_start, open_end)) => self.holds(w, open_start, open_end),
        }
    }

    /// The entries of a list of `lang` the message may contain, in list order.
    pub(super) fn candidates(&self, lang: &Words, list: List) -> Vec<&'static str> {
        let entries = lang.list(list);
        if !lang.spaced {
            return if self.ascii {
                Vec::new()
            } else {
                entries.to_vec()
            };
        }
        let index = &indexes()[list as usize];
        let mut found: Vec<u16> = index.always.clone();
        for w in &self.words {
            found.extend(index.by_first.get(w).into_iter().flatten());
        }
        found.extend(
            index
                .open
                .iter()
                .filter(|&&(_, w, s, e)| self.holds(w, s, e))
                .map(|&(i, ..)| i),
        );
        crate::sort::sort(&mut found);
        found.dedup();
        found
            .into_iter()
            .filter_map(|i| entries.get(usize::from(i)).copied())
            .collect()
    }
}

/// An entry's first word, and whether it may run on before (`*error`) or
/// after (`fail*`) it. The entries' letters outside ASCII are all letters,
/// so no Unicode table is read.
fn first_word(entry: &str) -> Option<(&str, bool, bool)> {
    let body = entry.trim_matches('*');
    let split = |c: char| c.is_ascii() && !(c.is_ascii_alphanumeric() || c == '\'' || c == '_');
    let first = body.split(split).find(|w| !w.is_empty())?;
    let open_start = entry.starts_with('*') && body.starts_with(first);
    let open_end = entry.ends_with('*') && body.ends_with(first);
    Some((first, open_start, open_end))
}

/// The lists of the spaced languages that are looked up by first word.
#[derive(Clone, Copy)]
pub(super) enum List {
    Contrast,
    Refuse,
    Failure,
    Tie,
}

impl Words {
    fn list(&self, list: List) -> &'static [&'static str] {
        match list {
            List::Contrast => self.contrast,
            List::Refuse => self.refuse,
            List::Failure => self.failure,
            List::Tie => self.tie,
        }
    }
}

/// One list's entries by first word, as positions in the list.
struct Index {
    by_first: HashMap<&'static str, Vec<u16>, FastBuild>,
    /// First words that may be part of a longer word, with the entry.
    open: Vec<(u16, &'static str, bool, bool)>,
    /// Entries without a word.
    always: Vec<u16>,
}

fn indexes() -> &'static [Index; 4] {
    static INDEXES: OnceLock<[Index; 4]> = OnceLock::new();
    INDEXES.get_or_init(|| {
        [List::Contrast, List::Refuse, List::Failure, List::Tie].map(|list| {
            let mut index = Index {
                by_first: HashMap::default(),
                open: Vec::new(),
                always: Vec::new(),
            };
            let spaced = LANGS
                .iter()
                .find(|l| l.spaced)
                .map_or(&[][..], |l| l.list(list));
            for (i, entry) in (0u16..).zip(spaced) {
                match first_word(entry) {
                    None => index.always.push(i),
                    Some((w, false, false)) => index.by_first.entry(w).or_default().push(i),
                    Some((w, s, e)) => index.open.push((i, w, s, e)),
                }
            }
            index
        })
    })
}

pub(super) fn is_word(c: char) -> bool {
    chars::is_alphanumeric(c) || c == '\'' || c == '_'
}

/// Spans of `entry` in `t`: at word boundaries for spaced languages (an
/// entry ending in `*` may run on, one starting with `*` may start inside a
/// word: `*error` is `KeyError`), anywhere for the others.
pub(super) fn occurrences<'a>(
    t: &'a str,
    entry: &'a str,
    spaced: bool,
) -> impl Iterator<Item = (usize, usize)> + 'a {
    let (body, prefix) = match entry.strip_suffix('*') {
        Some(b) => (b, true),
        None => (entry, false),
    };
    let (body, suffix) = match body.strip_prefix('*') {
        Some(b) => (b, true),
        None => (body, false),
    };
    t.match_indices(body).filter_map(move |(i, m)| {
        let end = i + m.len();
        if !spaced {
            return Some((i, end));
        }
        let before = t.get(..i).and_then(|h| h.chars().next_back());
        let after = t.get(end..).and_then(|r| r.chars().next());
        let starts = suffix || !body.starts_with(is_word) || before.is_none_or(|c| !is_word(c));
        let ends = prefix || !body.ends_with(is_word) || after.is_none_or(|c| !is_word(c));
        (starts && ends).then(|| {
            let end = if prefix {
                end + t
                    .get(end..)
                    .map_or(0, |r| r.find(|c| !is_word(c)).unwrap_or(r.len()))
            } else {
                end
            };
            (i, end)
        })
    })
}

/// The words after byte `at`, up to three, and where each ends.
fn next_words(t: &str, at: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut pos = at;
    std::iter::from_fn(move || {
        let rest = t.get(pos..)?;
        let skip = rest.find(is_word)?;
        // Only spaces (and an opening quote) may stand before the word.
        if !rest
            .get(..skip)?
            .chars()
            .all(|c| c == ' ' || "\"'`«“(".contains(c))
        {
            return None;
        }
        let start = pos + skip;
        let len = t
            .get(start..)?
            .find(|c| !is_word(c))
            .unwrap_or(t.len() - start);
        pos = start + len;
        Some((pos, t.get(start..pos)?))
    })
    .take(3)
}

/// The first content word after a contrast, if the previous answer used it:
/// articles and function words are passed over ("not per request"), a
/// softener ends the search ("not just null").
pub(super) fn rejected(t: &str, at: usize, prev: &KeywordBag) -> Option<usize> {
    for (end, w) in next_words(t, at) {
        if NOT_REJECTING.contains(&w) {
            return None;
        }
        if DETERMINERS.contains(&w) {
            continue;
        }
        if let Some(stem) = KeywordBag::first_stem(w) {
            return prev.contains_stem(&stem).then_some(end);
        }
    }
    None
}

/// "X, not Y" where the previous answer said Y; "I don't want Y" outside a
/// question ("Why don't you use pandas?" suggests, it does not refuse).
fn contrast(t: &str, prev: Previous<'_>, words: &Present<'_>) -> Option<(usize, usize)> {
    for lang in LANGS {
        let contrasts = words
            .candidates(lang, List::Contrast)
            .into_iter()
            .map(|e| (e, false));
        let refusals = words
            .candidates(lang, List::Refuse)
            .into_iter()
            .map(|e| (e, true));
        for (entry, refuses) in contrasts.chain(refusals) {
            // ", no" in English text lists what is absent ("one
            // passenger, no checked bags"); in Spanish it contrasts.
            if entry == ", no" && english(words) {
                continue;
            }
            for (i, end) in occurrences(t, entry, lang.spaced) {
                // "I don't want travel insurance" answers "Would you like…?".
                if refuses && (prev.asked || in_question(t, end) || !opens_sentence(t, i)) {
                    continue;
                }
                let said = if lang.spaced {
                    rejected(t, end, prev.keywords)
                } else {
                    cjk_rejected(t, i, end, entry, prev.keywords)
                };
                if let Some(stop) = said {
                    return Some((i, stop.max(end)));
                }
            }
        }
    }
    None
}

/// The sentences of `t`, each with its closing mark. A '.' closes one only
/// before a space or the end ("`Promise.all`" and "3.12" go on).
pub(super) fn sentences(t: &str) -> impl Iterator<Item = &str> {
    let mut rest = t;
    std::iter::from_fn(move || {
        if rest.is_empty() {
            return None;
        }
        let end = rest
            .char_indices()
            .find(|&(i, c)| {
                "!?;。！？；".contains(c)
                    || c == '.'
                        && rest
                            .get(i + 1..)
                            .is_none_or(|r| r.is_empty() || r.starts_with(' '))
            })
            .map_or(rest.len(), |(i, c)| i + c.len_utf8());
        let (head, tail) = rest.split_at(end);
        rest = tail;
        Some(head)
    })
}

/// Whether byte `at` opens a sentence of `t`, after at most a "please" or
/// a "no": "Bitte nicht über Docker Compose" refuses, "…, and I don't want
/// travel insurance" lists what the user wants.
fn opens_sentence(t: &str, at: usize) -> bool {
    const LEAD: &[&str] = &[
        "please",
        "no",
        "bitte",
        "nein",
        "por favor",
        "não",
        "nao",
        "non",
        "нет",
        "пожалуйста",
        "请",
        "不",
    ];
    let head = t.get(..at).unwrap_or("");
    let from = sentences(head)
        .last()
        .filter(|s| !s.ends_with(['.', '!', '?', ';', '。', '！', '？', '；']));
    let lead = from
        .unwrap_or("")
        .trim_matches(|c: char| !c.is_alphanumeric());
    lead.is_empty() || LEAD.contains(&lead)
}

/// Whether the sentence around byte `at` ends in a question mark.
pub(super) fn in_question(t: &str, at: usize) -> bool {
    let rest = t.get(at..).unwrap_or("");
    sentences(rest)
        .next()
        .is_some_and(|s| s.ends_with(['?', '？']))
}

/// The rejected words around a Chinese or Japanese contrast: after 不是,
/// before ではなく, when the previous answer used most of its words or
/// bigrams ("config.json", "测试环境").
fn cjk_rejected(t: &str, i: usize, end: usize, entry: &str, prev: &KeywordBag) -> Option<usize> {
    // Not '.': it joins "config.json".
    let stop = |c: char| "，,。！!？?、：:；; ".contains(c);
    let (span, at) = if entry.starts_with(['で', 'じ']) {
        // "header.php じゃなくて": the space before the contrast is no stop.
        let head = t.get(..i)?.trim_end();
        let from = head.rfind(stop).map_or(0, |p| {
            p + head
                .get(p..)
                .and_then(|r| r.chars().next())
                .map_or(1, char::len_utf8)
        });
        (head.get(from..)?, from)
    } else {
        let tail = t.get(end..)?;
        let lead = tail.len() - tail.trim_start().len();
        let tail = tail.trim_start();
        (
            tail.get(..tail.find(stop).unwrap_or(tail.len()))?,
            end + lead,
        )
    };
    let span: String = span.chars().take(12).collect();
    // Most of it: "settings.json" shares only "json" with "config.json". A
    // Latin word counts even when it is a stop word ("settings" stems to one).
    let latin: Vec<&str> = span
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| w.len() >= 2)
        .collect();
    let cjk = KeywordBag::stems(&span.chars().filter(|c| !c.is_ascii()).collect::<String>());
    let held = latin
        .iter()
        .filter(|w| KeywordBag::first_stem(w).is_some_and(|st| prev.contains_stem(&st)))
        .count()
        + cjk.iter().filter(|st| prev.contains_stem(st)).count();
    (held * 2 > latin.len() + cjk.len()).then_some(at + span.len())
}

/// Thanks and closings, in the eight languages.
pub(super) const THANKS: &[&str] = &[
    "thank",
    "thanks",
    "that's all",
    "that's it",
    "gracias",
    "eso es todo",
    "danke",
    "das wäre alles",
    "merci",
    "c'est tout",
    "obrigad",
    "só isso",
    "спасибо",
    "это всё",
    "это все",
    "谢谢",
    "謝謝",
    "就这些",
    "ありがとう",
    "以上です",
];

/// "Wrong table.", "Falsch, …", "ダメです"; a bare "No, …" only when the
/// previous answer asked nothing.
fn opener(t: &str, prev: Previous<'_>) -> Option<(usize, usize)> {
    if t.contains(['?', '？']) {
        return None;
    }
    let t0 = skip_interjection(t.trim_start_matches(|c: char| !c.is_alphanumeric()));
    let off = t.len() - t0.len();
    // "No, that's all, thanks": declining an offer, asked or not.
    let declines = THANKS.iter().any(|w| t.contains(w));
    for lang in LANGS {
        let lists: [&[&str]; 2] = [
            lang.wrong,
            if prev.asked || declines { &[] } else { lang.no },
        ];
        for w in lists.into_iter().flatten() {
            if !t0.starts_with(w.trim_end_matches('*')) {
                continue;
            }
            let Some((0, end)) = occurrences(t0, w, lang.spaced).next() else {
                continue;
            };
            // A spaced opener stands alone ("No, …", "Falsch: …", "no no,"),
            // except "wrong" before what was wrong ("Wrong table.").
            let rest = t0.get(end..).unwrap_or("");
            let alone = rest.is_empty()
                || rest
                    .trim_start()
                    .starts_with([',', '.', ':', ';', '!', '—', '–', '-'])
                || rest
                    .strip_prefix(' ')
                    .is_some_and(|r| r.starts_with(w) || *w == "wrong");
            if !lang.spaced || alone {
                return Some((off, off + end));
            }
        }
    }
    None
}

/// The text after an opening interjection ("lol no.", "Hmm, wrong table").
pub(super) fn skip_interjection(t: &str) -> &str {
    const SOUNDS: &[&str] = &[
        "lol", "haha", "hmm", "hmmm", "mmm", "mm", "ugh", "uh", "um", "well", "oh", "ah", "meh",
        "ой", "хм", "ну", "いや", "嗯", "呃", "pues", "bueno", "na", "bon", "alors", "nossa", "ok",
        "okay", "wait",
    ];
    let word = t
        .get(..t.find(|c: char| !is_word(c)).unwrap_or(t.len()))
        .unwrap_or("");
    if SOUNDS.contains(&word) {
        t.get(word.len()..)
            .unwrap_or("")
            .trim_start_matches(|c: char| !c.is_alphanumeric())
    } else {
        t
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::detect::markers::analyze_reply;

    /// The rule that fires on `msg` replying to `prev`, through the whole
    /// analysis (normalising, phrases first, exclusions).
    pub(crate) fn rule(msg: &str, prev: &str) -> Option<&'static str> {
        let bag = KeywordBag::from_text(prev);
        let p = Previous {
            keywords: &bag,
            asked: prev.contains(['?', '？']),
            requested: crate::detect::markers::asks_for_output(prev),
            earlier: &[],
        };
        let a = analyze_reply(msg, Some(p));
        a.pushback.first().map(|h| h.phrase)
    }

    #[test]
    fn a_contrast_fires_only_on_a_word_the_answer_used() {
        let said = "The capital of Australia is Sydney.";
        assert_eq!(
            rule("The capital is Canberra, not Sydney.", said),
            Some(CONTRAST)
        );
        assert_eq!(rule("Canberra, not Sydney.", "Canberra it is."), None);
        assert_eq!(
            rule(
                "You misread it: the limit is per user, not per request.",
                "A limit of 100 per request."
            ),
            Some(CONTRAST),
            "function words are passed over"
        );
        assert_eq!(
            rule(
                "Handle the empty list, not just null.",
                "It now returns early on null."
            ),
            None,
            "'not just' adds, it does not reject"
        );
        assert_eq!(
            rule("Nimm orders_2023 statt orders.", "SELECT * FROM orders;"),
            Some(CONTRAST)
        );
        assert_eq!(
            rule(
                "Встреча в четверг, а не в среду.",
                "Встреча назначена на среду."
            ),
            Some(CONTRAST)
        );
    }

    #[test]
    fn chinese_and_japanese_contrasts_read_the_rejected_side() {
        let prev = "config.json の timeout を 30 に変更しました。";
        assert_eq!(
            rule("config.jsonではなくsettings.jsonです。", prev),
            Some(CONTRAST)
        );
        assert_eq!(rule("settings.jsonではなくconfig.jsonです。", prev), None);
        assert_eq!(
            rule(
                "要改的是生产环境，不是测试环境。",
                "我已经修改了测试环境的配置。"
            ),
            Some(CONTRAST)
        );
    }

    #[test]
    fn an_opener_rejects_unless_it_answers_a_question_or_declines() {
        let done = "I dropped the old column.";
        assert_eq!(
            rule("No, keep the column and rename it.", done),
            Some(OPENER)
        );
        assert_eq!(
            rule(
                "No, keep the branch.",
                "Shall I delete the branch after merging?"
            ),
            None
        );
        assert_eq!(rule("No, that's all for now. Thanks!", done), None);
        assert_eq!(rule("Wrong table.", done), Some(OPENER));
        assert_eq!(
            rule("Falsch, die Rechnung ist vom März.", done),
            Some(OPENER)
        );
        assert_eq!(
            rule("Wrong password error when I log in, what now?", done),
            None
        );
        assert_eq!(
            rule("No idea what that means", done),
            None,
            "'no' must stand alone"
        );
    }

    #[test]
    fn nothing_structural_fires_without_a_previous_answer() {
        for msg in [
            "Wrong table.",
            "Still getting the 403.",
            "Canberra, not Sydney.",
        ] {
            let a = analyze_reply(msg, None);
            assert!(a.pushback.is_empty(), "{msg}");
        }
    }

    #[test]
    fn a_standing_rule_is_a_preference_not_pushback() {
        let prev = "I used camelCase for the new helper.";
        let bag = KeywordBag::from_text(prev);
        let p = Previous {
            keywords: &bag,
            asked: false,
            requested: false,
            earlier: &[],
        };
        let a = analyze_reply("From now on use snake_case, not camelCase.", Some(p));
        assert!(a.pushback.is_empty());
        assert_eq!(a.preferences.len(), 1);
    }

    #[test]
    fn a_refusal_opens_a_sentence_and_answers_no_question() {
        let credit = "I've issued a $64.99 store credit to your account.";
        assert_eq!(
            rule("I don't want store credit. Put it back on my Visa.", credit),
            Some(CONTRAST)
        );
        assert_eq!(
            rule(
                "别用 pandas，这台机器只能用标准库。",
                "用 pandas 读取 CSV 最简单。"
            ),
            Some(CONTRAST)
        );
        assert_eq!(
            rule(
                "Bitte nicht über Docker Compose, wir nutzen Kubernetes.",
                "Hier ist eine docker-compose.yml für den Dienst."
            ),
            Some(CONTRAST)
        );
        let offer = "Would you like to add travel insurance for $30?";
        assert_eq!(rule("I don't want travel insurance.", offer), None);
        assert_eq!(
            rule(
                "It's just me, and I don't want travel insurance.",
                "Here are the options, travel insurance is $30 per passenger."
            ),
            None,
            "mid-sentence it lists what the user wants"
        );
        assert_eq!(
            rule("Why don't you use pandas for it?", "I parsed it with csv."),
            None
        );
    }

    #[test]
    fn sarcasm_interjections_and_sentence_ends() {
        assert_eq!(
            rule(
                "Wow, great. Now none of the tests even compile.",
                "I renamed UserRepo across the codebase."
            ),
            Some(SARCASM)
        );
        assert_eq!(
            rule(
                "lol no. that regex matches literally everything",
                "Use ^.*@.*$ to validate it."
            ),
            Some(OPENER)
        );
        assert_eq!(
            rule(
                "Your rounding is wrong on every line: off by one cent.",
                "I round each line to 2 places."
            ),
            Some(FAILURE),
            "'your' ties a failure to the answer"
        );
        assert_eq!(
            rule(
                "Toujours sur le même sujet : comment je gère les erreurs dans un `Promise.all` ?",
                "J'ai parallélisé les appels avec `Promise.all`."
            ),
            None,
            "the '.' inside `Promise.all` does not end the question"
        );
    }

    #[test]
    fn the_first_word_index_keeps_every_entry_a_message_holds() {
        for lang in LANGS.iter().filter(|l| l.spaced) {
            for list in [List::Contrast, List::Refuse, List::Failure, List::Tie] {
                for entry in lang.list(list) {
                    let text = format!("so {} here", entry.replace('*', ""));
                    let found = Present::of(&text).candidates(lang, list);
                    assert!(found.contains(entry), "{entry:?}");
                    assert!(Present::of(&text).may(entry, true), "{entry:?}");
                }
            }
        }
        let none = Present::of("refactor fetch_user to be async");
        assert!(none.candidates(&LANGS[0], List::Failure).is_empty());
        assert!(
            none.candidates(&LANGS[1], List::Failure).is_empty(),
            "ASCII has no CJK entry"
        );
    }
}
