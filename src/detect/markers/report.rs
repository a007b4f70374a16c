//! Failure reports as real users write them after an answer
//! (`reply.rs` calls these rules; they fire only on a reply):
//!
//! - an **error pasted** on its own or after a few words: a traceback, a
//!   compiler or shell error ("error[E0502]: …", "npm ERR!", "fatal: …",
//!   "TypeError: …"), or "i get this error: …", "j'ai cette erreur :",
//!   "こんなエラーが出ました";
//! - **nothing changed**: "no difference", "the test output is identical",
//!   "c'est toujours pareil", "всё так же", "変わらないです";
//! - **still**: "the charge is still there", "it still shows the old
//!   value", "sigue saliendo el mismo mensaje";
//! - **stopped working**: "the page loads forever now", "jetzt startet der
//!   container gar nicht mehr", "agora nem abre o app";
//! - **fixed one thing, broke another**: "that fixed the header but now the
//!   footer overlaps…", "build passes but prod is just a blank white page".
//!
//! Quiet when the message changes the topic or is about someone else's or
//! the user's own older work ("unrelated, but what does this error in my old
//! cron job mean?"), when the problem is gone ("no errors anymore", "the
//! 'Failed to compile' was from before I saved"), when nothing changed on
//! the user's side ("nothing changed on my side, so go ahead"), and when a
//! pasted error comes with a question that shares no word with the answer.

use super::failure::{REQUEST, supposed};
use super::frames::{Found, Frame, listed, pieces, words_at, words_from};
use super::reply::{Previous, is_word};
use super::sarcasm::bad_news;
use super::scan::{fam, glad};
use crate::text::KeywordBag;

/// Strong signs of a pasted error, as tools print them (lowercased).
pub(super) static PASTED: &[Frame] = &[Frame::new(
    "en",
    "traceback (most recent call last)|exception in thread|npm err!|panicked at|\
     segmentation fault|core dumped|command not found|no such file or directory|\
     permission denied|connection refused|cannot find module|can't resolve|no module named|\
     is not defined|is not a function|cannot read properties|cannot read property|\
     unexpected token|unexpected indent|syntax error near|undefined reference to|\
     call to undefined|could not find a version|unable to resolve|could not resolve|\
     cannot borrow|mismatched types|is already allocated|address already in use|\
     refusing to merge|rejected]|non-zero exit|failed (failures=|build failed with|\
     is not assignable to|cannot find symbol|failed to load resource|has no attribute|\
     cannot be resolved|undefined method|unresolved reference|cannot find name|make: ***|\
     blocked by cors policy|access-control-allow-origin|outofmemoryerror|\
     certificate_verify_failed|exit code 1|exited with code|too_many_redirects|too many redirects|\
     emerg]|unknown directive",
)];

/// Whether a word prints an error when `:` (or a code and `:`) follows:
/// "TypeError:", "error[E0502]:", "fatal:", "error TS2339:".
fn error_word(w: &str) -> bool {
    w.ends_with("error")
        || w.ends_with("exception")
        || matches!(
            w,
            "fatal"
                | "failure"
                | "fail"
                | "failed"
                | "warning"
                | "ошибка"
                | "erreur"
                | "fehler"
                | "erro"
        )
}

/// Announcing a paste or a report: "i get this error", "me sale esto:".
pub(super) static REPORTS: &[Frame] = &[
    Frame::new(
        "en",
        "i get|i got|i'm getting|im getting|i am getting|i keep getting|getting|got|i see|\
               i'm seeing|im seeing|seeing|it gives|it gives me|it gave me|gives me|it throws|\
               it threw|it shows|it says|it said|it returns|it raises|now i get|now it says|\
               i receive|i received|ran it, got|ran it and got|ran it, i get / \
               |this|the|an|a|another|a new|the following|that|this new|a different|some|\
               following|these / error|errors|exception|traceback|stack trace|error message|\
               crash|panic|404|500|502|503|504|403|401|400|timeout|segfault|:|`",
    ),
    Frame::new(
        "en",
        "console|terminal|log|logs|output|browser|server|compiler|linter|build|ci|pytest|npm|\
               cargo / says|shows|prints|printed|gives|throws|returns|reports|spits out|complains / :",
    ),
    Frame::new(
        "es",
        "me sale esto|me sale este error|me sale el error|me sale un error|me da este error|\
               me da error|me da un error|me tira|me aparece|obtengo este error",
    ),
    Frame::new(
        "de",
        "fehlermeldung:|fehlermeldung beim|fehlermeldung bei|ich bekomme|ich kriege|bekomme diesen fehler|bekomme den fehler|\
               kommt dieser fehler|kommt der fehler|kommt folgender fehler|kommt folgende",
    ),
    Frame::new(
        "fr",
        "j'ai cette erreur|j'ai l'erreur|j'ai une erreur|j'obtiens|ça me donne|ça donne|\
               ça me met|voici l'erreur|me renvoie|ça renvoie|renvoie une erreur|j'ai eu cette erreur|\
               j'ai eu l'erreur|ça plante avec",
    ),
    Frame::new(
        "pt",
        "deu isso|deu esse erro|deu este erro|deu erro|dá erro|da erro|aparece esse erro|\
               aparece isso|recebo esse erro",
    ),
    Frame::new(
        "ru",
        "выдаёт|выдает|выдало|пишет ошибку|вылезает|получаю ошибку|падает с ошибкой|\
               вылетает с ошибкой|выводит ошибку",
    ),
    Frame::new("zh", "提示|报了这个错|出现错误|出现了错误|报这个错"),
    Frame::new(
        "ja",
        "エラーが出|エラーになり|エラーになる|と出ます|って出ます|と表示され",
    ),
];

/// Nothing changed after the answer.
pub(super) static UNCHANGED: &[Frame] = &[
    Frame::new(
        "en",
        "nothing changed|nothing has changed|nothing's changed|nothing changes|no difference|\
               didn't change anything|didnt change anything|did not change anything|\
               doesn't change anything|changed nothing|had no effect|has no effect|no effect|\
               still the same|same problem|same issue|same behavior|same behaviour|didn't help|\
               didnt help|doesn't help|doesnt help|same output|same result|same results|\
               same response|same thing happens|same thing happened|didn't do anything|\
               didnt do anything|did nothing|did absolutely nothing|no luck|no dice|no joy|\
               zero difference|zero effect|nothing different|no different|still no change",
    ),
    Frame::new("en", "no change / after|at all|whatsoever|even after|,|.|!"),
    Frame::new(
        "en",
        "looks|look|looked|stays|stayed|remains|remained|reads|came out / \
               exactly the same|exactly like before|identical|completely unchanged|unchanged",
    ),
    Frame::new(
        "en",
        "didn't budge|didnt budge|did not budge|hasn't budged|hasnt budged|won't budge|\
               didn't move at all|didnt move at all|did not move at all|hasn't moved at all",
    ),
    Frame::new(
        "en",
        "worked|was working|used to work|worked fine|was fine|ran fine / \
               before your|before you|before the change|before the fix|before this change|\
               until your|until you",
    ),
    Frame::new(
        "es",
        "funcionaba antes de tu|funcionaba antes del cambio|funktionierte vor deiner|\
               lief vor deiner|marchait avant ta|marchait avant ton|funcionava antes da sua|\
               funcionava antes do seu|работало до твоего|работало до твоих",
    ),
    Frame::new(
        "zh",
        "之前是好的|改之前是好的|本来是好的|前は動いて|修正前は動いて",
    ),
    Frame::new(
        "en",
        "doesn't|didn't|does not|did not|doesnt|didnt / seem to / \
               have changed anything|change anything|help|have helped|do anything|\
               have done anything|make a difference|have made a difference|have any effect|\
               have had any effect|work|have worked|fix it|have fixed it|have fixed anything",
    ),
    Frame::new(
        "en",
        "output|result|results|it|everything|page|error|log / \
               is|looks|stays|remains|is still|looks exactly / \
               identical|unchanged|the same|exactly the same",
    ),
    Frame::new(
        "es",
        "no cambió nada|no cambia nada|no ha cambiado nada|nada cambió|nada ha cambiado|\
               no hay diferencia|ninguna diferencia|igual que antes|lo mismo que antes|\
               no tuvo efecto|no tiene efecto|el mismo mensaje|el mismo problema|no ha servido|\
               lo mismo de antes|sin cambios|no hace nada|no hizo nada|no cambio nada|nada cambio|\
               exactamente igual|sigue igual|todo igual",
    ),
    Frame::new(
        "de",
        "nichts geändert|ändert nichts|keine veränderung|kein unterschied|keinen unterschied|\
               genauso wie vorher|gleich wie vorher|keine wirkung|bringt nichts|dasselbe problem|\
               das gleiche problem|keine änderung.|keine änderung,|keine änderung!|unverändert|\
               bleibt gleich|ist gleich geblieben|hat nichts bewirkt|tut sich nichts|passiert nichts|\
               nichts passiert|bringt nix|bringt gar nichts|genau gleich|genau dasselbe|\
               sieht genauso aus|exakt gleich",
    ),
    Frame::new(
        "fr",
        "rien ne change|ça n'a rien changé|ca n'a rien changé|ça ne change rien|\
               aucun changement|aucune différence|pas de différence|toujours pareil|c'est pareil|\
               pareil qu'avant|aucun effet|sans effet|le même problème|même problème|\
               ça n'a rien donné|ça ne donne rien|aucune amélioration|pas d'amélioration|\
               rien de changé|inchangé|exactement pareil|exactement la même chose|rien n'a bougé|ça n'a pas bougé|n'a pas bougé|rien ne bouge|il ne se passe rien|rien ne se passe",
    ),
    Frame::new(
        "pt",
        "nada mudou|não mudou nada|nao mudou nada|nenhuma diferença|nenhuma mudança|\
               sem diferença|não fez diferença|não fez nenhuma diferença|continua igual|\
               continua a mesma coisa|igual a antes|não teve efeito|sem efeito|mesmo problema|\
               do mesmo jeito|nada aconteceu|não acontece nada|não aconteceu nada|não fez nada|\
               sem mudança|a mesma coisa de antes|nao mudou|não mudou|igualzinho|exatamente igual",
    ),
    Frame::new(
        "ru",
        "ничего не меняется|без изменений|никакой разницы|всё так же|все так же|\
               всё то же самое|все то же самое|эффекта нет|никакого эффекта|та же проблема|\
               ничего не произошло|ничего не происходит|без толку|толку нет|толку ноль|как было|\
               так и осталось|осталось так же|всё как было|все как было|ничего не изменилось|\
               ничего не поменялось|точно так же|один в один",
    ),
    Frame::new(
        "zh",
        "没有变化|没什么变化|一点变化都没有|没区别|没有区别|还是老样子|跟之前一样|和之前一样|\
               跟原来一样|和原来一样|没效果|没有效果|没啥变化|毫无变化|没任何变化|还是那样|没什么用|\
               没啥用|没有用|一点用没有|什么都没变|啥也没变|一模一样|完全一样|还是一样|没变|结果还是|还是没变",
    ),
    Frame::new(
        "ja",
        "変わらない|変わりません|変化なし|変化がない|変化がありません|何も変わって|前と同じ|\
               以前と同じ|効果がない|効果なし|効果がありません|変化ありません|同じ結果|結果が同じ|\
               結果は同じ|変わっていません|変わってません|何も起きない|何も起こらない|反応がない|\
               反応しません|全く同じ|まったく同じ|全然変わ|同じ挙動|同じ動き",
    ),
];

/// A problem still there after the answer: "still" and what persists.
pub(super) static PERSISTS: &[Frame] = &[
    Frame::new(
        "en",
        "still / slow|takes|taking|there|happening|happens|shows|showing|shows up|showing up|appears|\
               appearing|occurs|the same|same|no luck|no joy|nothing|no change|getting|seeing|\
               get|see|returns|returning|prints|printing|outputs|gives|giving|says|saying|\
               throws|throwing|raises|complains|hangs|hanging|freezes|loops|looping|stuck|blank|\
               empty|down|missing|squished|red|drops|dropping|crashes|climbs|leaks|charged|\
               an issue|a problem|errors|erroring|times out|timing out|overlaps|cut off|\
               truncated|duplicated|uses the old|using the old|on the old|points to|ignores|ignored|\
               doesn't|does not|doesnt|don't|dont|can't|cant|cannot|won't|wont|isn't|isnt|\
               aren't|not|no|haven't received|hasn't arrived|haven't gotten|haven't got|\
               404|500|502|503|403|401|400",
    ),
    Frame::new(
        "en",
        "still / came out|comes out|coming out|reads|looks|sounds|feels|overlapping|off|\
               wrong|broken|too",
    ),
    Frame::new(
        "es",
        "sigue|siguen|todavía|todavia|aún / saliendo|apareciendo|dando|mostrando|ahí|\
               pasando|ocurriendo|tardando|sin|roto|vacío|vacía|en blanco|colgado|cargando|el mismo|\
               la misma|lo mismo|sale|aparece|está ahí|no",
    ),
    Frame::new(
        "de",
        "immer noch|noch immer|weiterhin|nach wie vor / da|dasselbe|das gleiche|derselbe|\
               dieselbe|der gleiche|die gleiche|gleich|leer|nichts|kein|keine|nicht|vorhanden|\
               sichtbar|rot|kaputt|falsch|langsam|zu sehen",
    ),
    Frame::new("de", "bekomme|sehe|kommt|erscheint|zeigt|habe / immer noch"),
    Frame::new(
        "fr",
        "toujours|encore / là|le même|la même|la meme|le meme|les mêmes|rien|pas|aucun|\
               aucune|vide|affiché|présent|bloqué|planté",
    ),
    Frame::new(
        "fr",
        "j'ai|ça fait|il y a|ça affiche|ça donne|j'obtiens|je vois|je reçois / toujours",
    ),
    Frame::new(
        "pt",
        "ainda|continua|continuam|segue / aparecendo|aparece|lá|igual|o mesmo|a mesma|nada|\
               vazio|vazia|mostrando|mostra|desalinhado|desalinhada|sem|não|nao|errado|errada|\
               com o mesmo|com a mesma",
    ),
    Frame::new(
        "ru",
        "всё ещё|все еще|все ещё|всё еще|до сих пор|по-прежнему|всё равно|все равно / \
               там|есть|то же|та же|тот же|те же|висит|показывает|выдаёт|выдает|пусто|пустой|\
               пустая|ничего|нет|не|падает|502|500|404|старое|старая|старый",
    ),
    Frame::new(
        "zh",
        "还是乱码|还是显示|还是出现|还是白屏|还是空白|还是卡|还是报|依然存在|仍然存在|依然报|\
               仍然报|依然不|仍然不|依然没|仍然没|一直报|照样报|照样不",
    ),
    Frame::new(
        "ja",
        "まだタイムアウト|まだ遅い|まだ落ち|まだ出ます|まだ出る|まだ出て|まだ表示され|まだ残って|まだ同じ|まだ文字化け|\
               相変わらず文字化け|相変わらずエラー|いまだに",
    ),
];

/// It worked before the answer and no longer does.
pub(super) static STOPPED: &[Frame] = &[
    Frame::new(
        "en",
        "it|that|this|your script|your code|the script|the migration|your migration|\
               your command / deleted|wiped|erased|dropped|removed|overwrote|lost / \
               all|my|every|the whole|everything|the entire",
    ),
    Frame::new(
        "en",
        "every|all|each|all the / request|requests|call|calls|page|pages|test|tests / |now / \
               500s|404s|fails|fail|errors|error out|time out|times out|crash|crashes|are failing|\
               is failing",
    ),
    Frame::new(
        "en",
        "stopped|no longer / working|loading|running|compiling|responding|sending|arriving|\
               loads|starts|runs|compiles|builds|opens|arrive|arrives|shows up|show up",
    ),
    Frame::new(
        "en",
        "doesn't|does not|doesnt|won't|wont|can't|cant / |even / \
               load|start|work|open|compile|build|run|launch|boot / anymore|any more",
    ),
    Frame::new(
        "en",
        "doesn't|does not|doesnt|won't|wont / even / \
               load|start|open|compile|build|run|launch|boot",
    ),
    Frame::new(
        "en",
        "loads|spins|hangs|takes|loading|spinning|hanging / forever",
    ),
    Frame::new(
        "en",
        "never / loads|finishes|goes away|ends|completes|stops",
    ),
    Frame::new(
        "es",
        "dejó de funcionar|ya no funciona|ya no carga|ya no arranca|ya no abre|ya no compila|\
               ya no llega|ya no llegan|no funciona más",
    ),
    Frame::new(
        "de",
        "startet|lädt|läuft|geht|funktioniert|kompiliert|öffnet|kommt|kommen|baut / \
               |sich|er|es|sie|der container|die seite|die app / \
               gar nicht mehr|nicht mehr|nichts mehr|nicht mal mehr|nicht einmal mehr",
    ),
    Frame::new(
        "fr",
        "ne marche plus|marche plus|ne fonctionne plus|fonctionne plus|ne démarre plus|\
               démarre plus|ne charge plus|ne s'ouvre plus|n'arrive plus|n'arrivent plus|\
               ne compile plus|plus aucun|plus rien ne|ne s'affiche plus|s'affiche plus|n'apparaît plus|\
               ne se lance plus|ne répond plus|ne s'envoie plus|ne se charge plus",
    ),
    Frame::new(
        "pt",
        "parou de funcionar|não funciona mais|nem abre|nem carrega|nem inicia|nem roda|\
               nem sobe|não sobe|não sobe mais|não abre mais|não carrega mais|não inicia mais|não chega mais",
    ),
    Frame::new(
        "ru",
        "перестал работать|перестало работать|перестала работать|перестали работать|\
               больше не работает|больше не запускается|больше не открывается|\
               больше не грузится|больше не приходят|больше не приходит",
    ),
    Frame::new(
        "zh",
        "闪退|用不了了|不能用了|启动不了了|打不开了|不了了|没法用了",
    ),
    Frame::new(
        "ja",
        "起動しなくな|動かなくな|開かなくな|落ちるようにな|表示されなくな|できなくな|使えなくな|\
               開けなくな|通らなくな|すらしません|すらしない|さえしない|さえしません",
    ),
];

/// Good news whatever it is about: "works now", "all good", "好了".
pub(super) static FINE: &[Frame] = &[
    Frame::new(
        "en",
        "works now|working now|compiles now|passes now|fine now|ok now|okay now|good now|\
               all good|all green|green now|all set|resolved|from before|ya funciona|geht jetzt|marche maintenant|\
               funciona agora|работает теперь|теперь работает|läuft jetzt|funktioniert jetzt|\
               klappt jetzt|заработало|заработал|заработала|funciona ahora|fonctionne maintenant",
    ),
    Frame::new("zh", "好了|解决了|直りました"),
];

/// Gone, no longer: good news of an error ("no errors anymore", "エラー消え
/// ました"), bad news of anything else ("my booking disappeared").
pub(super) static GONE: &[Frame] = &[
    Frame::new(
        "en",
        "anymore|any more|no longer|no more|is gone|are gone|went away|disappeared|ya no|\
               nicht mehr|ist weg|a disparu|plus d'|sumiu|não aparece mais|больше нет|ушла|пропала|\
               больше не|исчезла|sind weg|n'apparaît plus|desapareció|desapareceu",
    ),
    Frame::new("zh", "没了|消失了|消え|なくなりました"),
];

/// Words that name a failure; "no longer" after one is good news ("the
/// error doesn't show anymore"), after anything else bad ("doesn't load
/// anymore").
pub(super) static FAILURE_NOUNS: &[Frame] = &[
    Frame::new(
        "en",
        "error|errors|crash|crashes|warning|warnings|bug|problem|problems|issue|issues|\
               fehler|fehlern|erreur|erreurs|problème|souci|erro|erros|errores|fallo|fallos|\
               problema|problemas|ошибка|ошибки|ошибок|проблема|timeout|timeouts|exception|\
               exceptions|segfault|segfaults|panic|freeze|freezes|hang|traceback|nullpointerexception|typeerror|keyerror|valueerror|\
               warnung|warnungen|aviso|avisos|предупреждение",
    ),
    Frame::new("zh", "错误|报错|问题|エラー|問題"),
];

/// A message that changes the topic, is about older or other work, or owns
/// the mistake: no reply rule reads it as pushback.
pub(super) static ELSEWHERE: &[Frame] = &[
    Frame::new(
        "en",
        "unrelated,|unrelated but|unrelated question|on an unrelated note|something unrelated|\
               different question|another question|other question|off topic|off-topic|\
               side question|separate question|different topic|my old|my own|myself|\
               before any of|before you started|since last week|since yesterday",
    ),
    Frame::new("es", "otra pregunta|otra cosa|cambiando de tema"),
    Frame::new("de", "andere frage|anderes thema|im falschen"),
    Frame::new("fr", "autre question|autre chose|hors sujet"),
    Frame::new("pt", "outra pergunta|outra coisa|mudando de assunto"),
    Frame::new("ru", "не по теме|другой вопрос|мой старый|мой собственный"),
    Frame::new(
        "zh",
        "别的问题|问个别的|另一个问题|题外话|我自己写的|我的问题|別件|話変わりますが|\
               別の質問|自分で書いた",
    ),
];

/// The user owns the mistake: "my bad", "I pasted the wrong log", "是我把
/// 订单号发错了", "間違えたのは私の方". Unless a turn follows ("my bad for
/// being vague, but it still fails"), nothing in the message is pushback.
pub(super) static OWN: &[Frame] = &[
    Frame::new(
        "en",
        "my fault|my mistake|my bad|i'm in the wrong|my error|my typo|i was wrong|\
               i made a mistake|i messed up|i mixed up|i got confused|i misread|i misspoke|\
               i pasted the wrong|pasted the wrong|i sent the wrong|sent you the wrong|\
               i sent you the wrong|i gave you the wrong|gave you the wrong|copied the wrong|\
               attached the wrong|uploaded the wrong|i typed the wrong|i had the wrong|\
               i ran the wrong|i was on the wrong|i looked at the wrong|i was looking at the wrong",
    ),
    Frame::new(
        "es",
        "culpa mía|culpa mia|error mío|error mio|me equivoqué|me equivoque|me confundí|\
               me confundi|pegué el|pegue el|pegué mal|te pasé el|te pase el|te mandé el|\
               te mande el|lo siento, era|fallo mío|fallo mio",
    ),
    Frame::new(
        "de",
        "mein fehler|meine schuld|mein versehen|ich habe mich vertan|ich hab mich vertan|\
               hab mich vertan|ich habe mich geirrt|hab mich geirrt|ich habe die falsche|\
               ich hab die falsche|hab die falsche|hab dir das falsche|\
               habe dir das falsche|hab das falsche|habe das falsche|hab dir den falschen|\
               habe dir den falschen|hab dir die falsche|habe dir die falsche|falsch kopiert",
    ),
    Frame::new(
        "fr",
        "ma faute|mon erreur|je me suis trompé|je me suis trompée|j'avais collé|\
               j'ai collé le mauvais|j'ai collé la mauvaise|j'ai envoyé le mauvais|\
               j'ai envoyé la mauvaise|autant pour moi|au temps pour moi|c'est moi qui",
    ),
    Frame::new(
        "pt",
        "erro meu|culpa minha|foi mal|me enganei|eu errei|eu me confundi|colei o|colei a|\
               mandei o errado|mandei o arquivo errado|mandei o log errado|te mandei o",
    ),
    Frame::new(
        "ru",
        "моя ошибка|моя вина|я ошибся|я ошиблась|я перепутал|я перепутала|сам накосячил|\
               сама накосячила|я накосячил|сам виноват|сама виновата|скинул не тот|скинула не тот|\
               прислал не тот|прислала не тот|подсунул не тот|подсунула не тот|отправил не тот|\
               отправила не тот|вставил не тот|вставила не тот",
    ),
    Frame::new(
        "zh",
        "我的错|是我的错|是我把|是我发|是我弄|是我搞|是我看|是我写|是我贴|我发错|我贴错|我搞错|\
               我弄错|我看错|我输错|我写错|我复制错|怪我|私のミス|自分のミス|私の間違い|\
               間違えたのは私|私が間違え|貼り間違え|送り間違え|こちらのミス|こちらの間違い|\
               私の方が間違",
    ),
];

/// Someone else's work: "my coworker's script throws…".
pub(super) static OTHERS: &[Frame] = &[
    Frame::new(
        "en",
        "coworker's|colleague's|friend's|boss's|teammate's|my coworker|my colleague|\
               mi compañero|mein kollege|meine kollegin|mon collègue|meu colega|мой коллега",
    ),
    Frame::new("zh", "同事的|同僚の"),
];

/// Nothing changed on the user's side: an answer, not a report.
pub(super) static MY_SIDE: &[Frame] = &[
    Frame::new(
        "en",
        "on my side|on my end|on our side|on our end|to me|for me|between|de mi lado|\
               de mi parte|para mí|für mich|pour moi|pra mim|для меня|\
               bei mir|de mon côté|de notre côté|do meu lado|da minha parte|с моей стороны|\
               у меня ничего",
    ),
    Frame::new("zh", "我这边|对我来说|こちらでは|私には"),
];

/// What follows a negated "still" when the user is undecided, not failed:
/// "still not sure", "still don't know which".
const UNDECIDED: &str = "sure|decided|decide|deciding|know|certain|ready|done|finished|convinced|\
                         idea|seguro|segura|decidido|sé|sicher|entschieden|weiß|weiss|sûr|décidé|sais|\
                         certeza|decidi|sei|уверен|уверена|решил|решила|знаю|tried|tested|\
                         checked|time|probado|probé|probarlo|tiempo|getestet|probiert|zeit|\
                         testé|essayé|temps|testei|testado|tentei|tempo|проверял|проверила|\
                         пробовал|время";

/// Openers that ask for a check: "Confirm there are still no compact
/// options", "Check whether it still fails".
const CHECK: &str = "confirm|check|verify|ensure|see|let|make|test";

/// The user's own things after "nothing changed": "with my medication".
const MINE: &str = "my|our|mine|mi|mis|mein|meine|mon|ma|mes|meu|minha|мой|моя|мои";

/// Turns after a partial success: "X works, but now Y…".
pub(super) static BUT: &[Frame] = &[
    Frame::new(
        "en",
        "but|aber|mais|pero|mas|но / |now|jetzt|maintenant|ahora|agora|теперь",
    ),
    Frame::new("zh", "但是|可是|但现在|可是现在|でも|けど"),
];

/// "Still", in the eight languages.
pub(super) static STILL: &[Frame] = &[
    Frame::new(
        "en",
        "still|sigue|siguen|todavía|todavia|aún|immer noch|noch immer|toujours|encore|ainda|\
               continua|continuam|всё ещё|все еще|всё равно|все равно|до сих пор",
    ),
    Frame::new("zh", "还是|仍然|依然|まだ|相変わらず"),
];

/// The old thing the answer was to replace.
pub(super) static OLD: &[Frame] = &[
    Frame::new(
        "en",
        "old|previous|former|original|outdated|stale|cached|viejo|vieja|antiguo|antigua|\
               anterior|alte|alten|alter|altes|vorherige|ancien|ancienne|l'ancien|l'ancienne|\
               précédent|précédente|\
               antigo|antiga|velho|velha|старый|старое|старая|старые|старую|прежний|прежнюю",
    ),
    Frame::new("zh", "旧|老的|以前的|原来的|古い|前の"),
];

/// What the answer gave, repeated: "the same suggestion again".
pub(super) static ANSWERED: &[Frame] = &[
    Frame::new(
        "en",
        "suggestion|answer|advice|code|fix|solution|output|result|response|screen|page|\
               message|behavior|behaviour|thing happens|suggest|suggesting|suggested|proposing|\
               sugieres|vorschlagen|proposes|sugere|предлагаешь|предлагаете|предложил|vorschlag|antwort|lösung|ausgabe|meldung|\
               sugerencia|respuesta|solución|mensaje|réponse|proposition|résultat|sugestão|resposta|\
               solução|mensagem|совет|ответ|решение|результат|сообщение",
    ),
    Frame::new("zh", "方案|建议|回答|结果|提案|結果|画面"),
];

/// Whether a text holds an HTTP error status: "504", "a 500".
fn status(text: &str) -> bool {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .any(|w| w.len() == 3 && w.starts_with(['4', '5']) && w.bytes().all(|b| b.is_ascii_digit()))
}

/// A polite request: "Same as before, please".
pub(super) static PLEASE: &[Frame] = &[
    Frame::new(
        "en",
        "please|pls|por favor|bitte|s'il te plaît|s'il vous plaît|por gentileza|пожалуйста",
    ),
    Frame::new("zh", "请|ください|お願い"),
];

/// "Same", and "again" or "before" near it.
pub(super) static SAME: &[Frame] = &[
    Frame::new(
        "en",
        "same|mismo|misma|gleiche|gleichen|selbe|selben|dasselbe|même|mesmo|mesma|тот же|\
               та же|то же|те же",
    ),
    Frame::new("zh", "同じ|一样|同样"),
];
pub(super) static AGAIN: &[Frame] = &[
    Frame::new(
        "en",
        "again|as before|like before|as last time|than before|otra vez|de nuevo|que antes|\
               wieder|wie vorher|encore|qu'avant|de novo|novamente|снова|опять|как раньше|как и раньше",
    ),
    Frame::new("zh", "又|再次|和之前|跟之前|まただ|また同じ|前と|さっきと"),
];

/// A turn that keeps a report alive after thanks: "thanks, but…".
pub(super) static TURNS: &[Frame] = &[
    Frame::new(
        "en",
        "but|though|however|still|again|aber|trotzdem|mais|pero|mas|но|всё ещё|все еще",
    ),
    Frame::new("zh", "但|可是|不过|还是|でも|けど|まだ"),
];

/// What worked, before the "but".
const WORKED: &str = "fixed|fixes|works|worked|passes|passed|runs|compiles|builds|loads|funciona|\
                      funcionó|klappt|funktioniert|läuft|marche|tourne|corre|fonctionne|s'envoie|\
                      funcionou|roda|работает|好了|可以了|動いた";

/// What is broken after the "but": "prod is just a blank white page".
pub(super) static BROKEN: &[Frame] = &[
    Frame::new(
        "en",
        "blank|empty|broken|error|errors|fails|failing|crash|crashes|missing|slow|slower|\
               locked|locked out|deleted|wiped|gesperrt|gelöscht|bloqueado|bloqueada|borrado|\
               bloqué|bloquée|supprimé|apagado|заблокирован|заблокировали|удалено|удалились|\
               laggy|lags|freezes|hangs|spikes|leaks|eats|hogs|times out|100%|vacío|vacía|vide|vazio|\
               vazia|leer|kaputt|cassé|пуст|пустой",
    ),
    Frame::new("zh", "白屏|空白|真っ白"),
];

/// The user's own mind after "but now": "but now I'm certain I don't want it".
const MIND: &str = "want|need|think|know|realize|wonder|guess|prefer|certain|sure|like|feel|\
                    decided|hope";

/// The sentence of `t` around byte `at`, within 200 bytes each way, and
/// where it starts. A '.' ends a sentence only before a space ("etl.py").
fn sentence_at(t: &str, at: usize) -> (usize, &str) {
    let marks = |c: char| "!?;\n。！？；".contains(c);
    let from = t.floor_char_boundary(at.saturating_sub(200));
    let to = t.floor_char_boundary((at + 200).min(t.len()));
    crate::work::add(to - from);
    let head = t.get(from..at).unwrap_or("");
    let start = head.rfind(marks).max(head.rfind(". ")).map_or(from, |i| {
        from + i + head[i..].chars().next().map_or(1, char::len_utf8)
    });
    let tail = t.get(at..to).unwrap_or("");
    let first = match (tail.find(marks), tail.find(". ")) {
        (Some(m), Some(d)) => Some(m.min(d)),
        (m, d) => m.or(d),
    };
    let end = first.map_or(to, |i| {
        at + i + tail[i..].chars().next().map_or(1, char::len_utf8)
    });
    (start, t.get(start..end).unwrap_or(""))
}

/// Whether the message shares a content word with the answer.
fn shares_a_word(t: &str, prev: &KeywordBag) -> bool {
    KeywordBag::stems(t).iter().any(|s| prev.contains_stem(s))
}

/// The span of a pasted error in normalised reply `t`.
fn pasted(t: &str, found: &Found) -> Option<(usize, usize)> {
    let strong = found.find(fam::PASTED, |_, _| true);
    // One pass over the words for the weaker signs: a test summary ("2
    // failed") or an error word printing an error ("TypeError:").
    let weak = || {
        let mut count: Option<usize> = None;
        words_at(t).take(4096).find_map(|(at, w)| {
            let end = at + w.len();
            let number = w.bytes().all(|b| b.is_ascii_digit());
            // The words a test summary counts: "2 failed, 10 passed".
            let counts = matches!(w, "failed" | "failing" | "errors");
            let summary = counts.then_some(count).flatten();
            count = number.then_some(at);
            if let Some(from) = summary {
                return Some((from, end));
            }
            (error_word(w) && prints_an_error(t.get(end..).unwrap_or(""))).then_some((at, end))
        })
    };
    let found = strong.or_else(weak);
    // "How do I get 2 failed tests to show?" asks about an error, it does
    // not paste one.
    found.filter(|&(a, _)| !sentence_at(t, a).1.trim_end().ends_with(['?', '？']))
}

/// Whether the text after an error word prints one: "[E0502]:", " TS2339:",
/// " 1064 (42000):", ":".
fn prints_an_error(rest: &str) -> bool {
    let code = rest
        .strip_prefix('[')
        .and_then(|r| r.find(']').filter(|&i| i <= 12).map(|i| &r[i + 1..]))
        .or_else(|| {
            let r = rest.strip_prefix(' ')?;
            let w = r.get(..r.find(|c: char| !is_word(c))?)?;
            (w.len() <= 12 && w.bytes().any(|b| b.is_ascii_digit())).then(|| &r[w.len()..])
        })
        .unwrap_or(rest);
    // "ERROR 1064 (42000): …": a state in parentheses.
    let code = code
        .strip_prefix(" (")
        .and_then(|r| r.find(')').filter(|&i| i <= 12).map(|i| &r[i + 1..]))
        .unwrap_or(code);
    code.starts_with(':') || code.starts_with(" :")
}

/// The failure report rules: the first that fires on normalised reply `t`.
pub fn report(t: &str, prev: Previous<'_>, found: &Found) -> Option<(usize, usize)> {
    // "The output is identical to the spec, great job": thanks, unless it
    // turns ("thanks, but it still fails").
    if glad(found, 0, t.len()) && !found.any(fam::TURNS) {
        return None;
    }
    let resolved = resolved(t, found, 0, t.len());
    // A question with the paste, or an answer that asked: the paste is
    // about the answer only when it shares a word with it.
    let asks = t.contains(['?', '？']) || prev.asked;
    let related = || !asks || shares_a_word(t, prev.keywords);
    let paste = || {
        let announced = || {
            found.find(fam::REPORTS, |a, _| {
                let (s, sentence) = sentence_at(t, a);
                !negated_before(t, a)
                    && !sentence.ends_with(['?', '？'])
                    && !supposed(sentence, a - s)
            })
        };
        // The paste itself first: an announcement like "报错了" may lie
        // inside a phrase exclusion.
        pasted(t, found).or_else(announced)
    };
    if !resolved
        && !prev.requested
        && let Some(span) = paste().filter(|_| related())
    {
        return Some(span);
    }
    // "Still takes a while but it's a big file, all good": good news after
    // a report takes it back.
    let fine_after = |a: usize| found.any_in(fam::FINE, a, t.len());
    found
        .find(fam::UNCHANGED, |a, b| {
            let (s, sentence) = sentence_at(t, a);
            let e = s + sentence.len();
            !fine_after(a)
                && plain(sentence, a - s)
                && !found.any_in(fam::MY_SIDE, s, e)
                && !mine_after(t, b)
                && !found.any_in(fam::GO_AHEAD, s, e)
        })
        .or_else(|| {
            found.find(fam::PERSISTS, |a, b| {
                let (s, sentence) = sentence_at(t, a);
                // After a "no longer" of a named failure, "still" is good news.
                let gone = resolved && found.any_in(fam::FAILURE_NOUNS, s, a);
                // "It still looks good": what persists is good news.
                let e = s + sentence.len();
                let good = glad(found, a, e) || found.any_in(fam::YES, a, e);
                let taken_back = gone || good || fine_after(a);
                plain(sentence, a - s)
                    && !negated_before(t, a)
                    && !undecided(t, a, b)
                    && !taken_back
            })
        })
        .or_else(|| {
            found.find(fam::STOPPED, |a, _| {
                let (s, sentence) = sentence_at(t, a);
                plain(sentence, a - s) && !found.any_in(fam::FAILURE_NOUNS, s, a)
            })
        })
        .or_else(|| broke_another(t, found))
        .or_else(|| followed(t, found))
        .or_else(|| same_again(t, found))
        .or_else(|| still_old(t, found))
        .or_else(|| super::still::still_named(t, prev, found))
}

/// "Still" and, a few words on, the old thing the answer was to replace:
/// "it still reads the old config.ini", "sigue leyendo el archivo viejo",
/// "还是读的旧文件". Not of the user's own state ("I still have the old
/// one").
fn still_old(t: &str, found: &Found) -> Option<(usize, usize)> {
    found.find(fam::STILL, |a, b| {
        let (s, sentence) = sentence_at(t, a);
        let to = t.floor_char_boundary((b + 40).min(s + sentence.len()));
        let head = t
            .get(t.floor_char_boundary(a.saturating_sub(12))..a)
            .unwrap_or("");
        let subject = head.split(|c: char| !is_word(c)).rfind(|w| !w.is_empty());
        let mine = subject.is_some_and(|w| listed("i|we|i'm|im|we're|yo|ich|je|eu|я|мы", w));
        found.any_in(fam::OLD, b, to) && !mine && plain(sentence, a - s)
    })
}

/// Whether the report at byte `at` of `sentence` is stated plainly: not
/// asked, supposed, requested or asked to be checked.
fn plain(sentence: &str, at: usize) -> bool {
    let first = words_from(sentence, 0, 1).next().unwrap_or("");
    !sentence.trim_end().ends_with(['?', '？'])
        && !supposed(sentence, at)
        && !REQUEST.contains(&first)
        && !listed(CHECK, first)
}

/// "Same" with "again" or "as before" a few words away: "same 504 as
/// before", "again the same suggestion", "schon wieder der gleiche
/// Vorschlag". Outside a question and a request.
fn same_again(t: &str, found: &Found) -> Option<(usize, usize)> {
    found.find(fam::SAME, |a, b| {
        let (s, sentence) = sentence_at(t, a);
        let e = s + sentence.len();
        let from = t.floor_char_boundary(a.saturating_sub(48)).max(s);
        let to = t.floor_char_boundary((b + 32).min(e));
        let near = |f| found.any_in(f, from, to);
        // "the same payment method as before" confirms; "the same 504 as
        // before" reports.
        let bad = near(fam::FAILURE_NOUNS)
            || near(fam::ANSWERED)
            || status(t.get(from..to).unwrap_or(""));
        bad && near(fam::AGAIN) && !found.any_in(fam::PLEASE, s, e) && plain(sentence, a - s)
    })
}

/// Whether a reply changes the topic, is about someone else's or the
/// user's own older work, or owns the mistake: no reply rule reads it as
/// pushback.
pub fn elsewhere(t: &str, found: &Found) -> bool {
    found.any(fam::ELSEWHERE) || found.any_in(fam::OTHERS, 0, 60) || owned(t, found)
}

/// Whether the user owns the mistake in normalised message `t` and no
/// "but" turns it after: "my bad, I pasted the wrong log" is no pushback,
/// "my bad for being vague, but it still fails" is.
pub fn owned(t: &str, found: &Found) -> bool {
    // "Still" and "again" say the same mistake of the user's again.
    const NOT_A_TURN: &str = "still|again|всё ещё|все еще|还是|まだ";
    let mut last_turn = 0;
    // "My bad … but why does cargo not rebuild?" asks; it does not turn.
    found.find(fam::TURNS, |x, y| {
        let asks = sentence_at(t, x).1.trim_end().ends_with(['?', '？']);
        if !asks && !listed(NOT_A_TURN, t.get(x..y).unwrap_or("")) {
            last_turn = y;
        }
        false
    });
    found.find(fam::OWN, |_, b| b >= last_turn).is_some()
}

/// Whether bytes `from..to` of the scanned reply say something of the
/// user's side, not the answer's: "nothing changed on my side, so go ahead".
pub fn on_my_side(found: &Found, from: usize, to: usize) -> bool {
    found.any_in(fam::MY_SIDE, from, to)
}

/// Whether bytes `from..to` of the scanned reply `t` say the problem is
/// gone: "it's fine now", "no errors anymore", "报错没了".
pub fn resolved(t: &str, found: &Found, from: usize, to: usize) -> bool {
    found.any_in(fam::FINE, from, to)
        || found
            .find(fam::GONE, |a, b| {
                from <= a && b <= to && clause_names_a_failure(t, found, a)
            })
            .is_some()
}

/// Whether the clause around byte `at` (the sentence cut at commas) names a
/// failure: "ya no sale el error", "the error doesn't show anymore".
fn clause_names_a_failure(t: &str, found: &Found, at: usize) -> bool {
    let (s, sentence) = sentence_at(t, at);
    let cut = |c: char| ",，;；".contains(c);
    let head = sentence.get(..at - s).unwrap_or("");
    let from = head.rfind(cut).map_or(0, |i| i + 1);
    let tail = sentence.get(at - s..).unwrap_or("");
    let to = at - s + tail.find(cut).unwrap_or(tail.len());
    found.any_in(fam::FAILURE_NOUNS, s + from, s + to)
}

/// Whether "nothing changed" is said of the user's things: "since nothing
/// has changed with my medication".
fn mine_after(t: &str, at: usize) -> bool {
    words_from(t, at, 3).any(|w| listed(MINE, w))
        || t.get(at..)
            .is_some_and(|r| r.chars().take(6).collect::<String>().contains("我的"))
}

/// Whether the word before byte `at` negates what follows ("not getting")
/// or is said of someone else ("sorry you're seeing that error").
fn negated_before(t: &str, at: usize) -> bool {
    const NOT_MINE: &str = "not|no|never|longer|stopped|you're|youre|you|are|they're|they|he|she|\
                            he's|she's";
    let head = t
        .get(t.floor_char_boundary(at.saturating_sub(24))..at)
        .unwrap_or("");
    let last = head.split(|c: char| !is_word(c)).rfind(|w| !w.is_empty());
    last.is_some_and(|w| listed(NOT_MINE, w) || w.ends_with("n't"))
}

/// Whether the words after a negated "still" say the user is undecided.
/// So does the user's own state after "I still": "I still don't have my
/// user ID with me", "we still need to deploy".
fn undecided(t: &str, a: usize, b: usize) -> bool {
    const MINE_NOW: &str = "have|remember|need|want|got|find";
    let head = t
        .get(t.floor_char_boundary(a.saturating_sub(12))..a)
        .unwrap_or("");
    let subject = head.split(|c: char| !is_word(c)).rfind(|w| !w.is_empty());
    let mine = subject.is_some_and(|w| listed("i|we|i'm|im|we're", w));
    words_from(t, b, 3).any(|w| listed(UNDECIDED, w) || mine && listed(MINE_NOW, w))
}

/// Whether a clause tells of the user's own mind, not of the answer's
/// effect: "but now I'm certain I don't want it".
fn decides(clause: &str) -> bool {
    let mut words = words_from(clause, 0, 4).peekable();
    let first = words.peek().copied().unwrap_or("");
    matches!(first, "i" | "i'm" | "im" | "we" | "i've") && words.any(|w| listed(MIND, w))
}

/// Doing as the answer said: "I followed your steps", "hice lo que
/// dijiste", "按你说的".
pub(super) static FOLLOWED: &[Frame] = &[
    Frame::new(
        "en",
        "i followed your|followed your steps|followed your instructions|did what you said|\
               did exactly what you said|did as you said|did everything you said|\
               tried what you said|did what you told me|did exactly as you said|\
               hice lo que dijiste|hice lo que me dijiste|hice lo que me dijo|seguí tus pasos|\
               segui tus pasos|seguí los pasos|hice todo lo que|wie du gesagt hast|\
               wie sie gesagt haben|wie du es gesagt hast|deine schritte befolgt|\
               ihre schritte befolgt|comme vous avez dit|comme tu as dit|comme vous me l'avez dit|\
               j'ai suivi vos|j'ai suivi tes|j'ai fait ce que vous|j'ai fait ce que tu|\
               fiz o que você disse|fiz o que voce disse|fiz o que você falou|segui seus passos|\
               segui os seus passos|fiz tudo que você|как ты сказал|как вы сказали|\
               как ты написал|как вы написали|сделал всё как|сделала всё как|сделал все как",
    ),
    Frame::new(
        "zh",
        "按你说的|照你说的|按照你说的|按你的方法|照着你说的|按照你的步骤|言われた通り|\
               言われたとおり|教えてもらった通り",
    ),
];

/// "Now" or "still" after doing as told: "… and now my banking is locked".
pub(super) static THEN: &[Frame] = &[
    Frame::new(
        "en",
        "now|still|yet|ahora|todavía|todavia|sigue|jetzt|trotzdem|immer noch|maintenant|\
               toujours|agora|ainda|continua|теперь|всё ещё|все еще|всё равно|все равно|\
               по-прежнему",
    ),
    Frame::new("zh", "现在|还是|仍然|依然|却|まだ|今度は|なのに"),
];

/// "I did what you said and now X is broken": a report of the answer
/// failing, unless X is good news or a request.
fn followed(t: &str, found: &Found) -> Option<(usize, usize)> {
    let (a, b) = found.find(fam::FOLLOWED, |a, _| {
        let (s, sentence) = sentence_at(t, a);
        plain(sentence, a - s)
    })?;
    let to = t.floor_char_boundary((b + 160).min(t.len()));
    if resolved(t, found, a, to) {
        return None;
    }
    // Praise before the "now" is thanks; after bad news it is sarcasm
    // ("… and now my banking is locked. Fantastic.").
    found
        .find(fam::THEN, |x, y| {
            let (s, sentence) = sentence_at(t, x);
            let clause = t.get(y..s + sentence.len()).unwrap_or("");
            let broken = found.any_in(fam::BROKEN, y, s + sentence.len());
            x >= b
                && x < to
                && !glad(found, a, x)
                && plain(sentence, x - s)
                && !decides(clause)
                && (bad_news(clause) || broken)
        })
        .map(|(_, y)| (a, y))
}

/// "X works, but now Y…" or "X passes but Y is blank": the answer fixed
/// one thing and broke another.
fn broke_another(t: &str, found: &Found) -> Option<(usize, usize)> {
    found.find(fam::BUT, |a, b| {
        let (s, sentence) = sentence_at(t, a);
        let before = sentence.get(..a - s).unwrap_or("");
        let after = sentence.get(b - s..).unwrap_or("");
        let span = t.get(a..b).unwrap_or("");
        let now = span.contains(' ') || span.contains("现在");
        let worked = before
            .split(|c: char| !is_word(c))
            .any(|w| listed(WORKED, w))
            || pieces(WORKED).any(|w| !w.is_ascii() && before.contains(w));
        let bad = bad_news(after) || found.any_in(fam::BROKEN, b, s + sentence.len());
        !sentence.trim_end().ends_with(['?', '？']) && (now || worked) && bad && !decides(after)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::detect::markers::frames::tests::fires;

    const FIX: &str = "I changed etl.py to merge the rates on `currency`; run it again.";

    #[test]
    fn a_pasted_error_is_a_report() {
        for msg in [
            "i get this error : Failed to compile.\n\nModule not found: Can't resolve './Navbar'",
            "Traceback (most recent call last):\n  File \"etl.py\", line 42\nKeyError: 'currency'",
            "error[E0502]: cannot borrow `self.items` as mutable",
            "npm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\n\nwhat now",
            "fatal: refusing to merge unrelated histories",
            "ERROR 1064 (42000): You have an error in your SQL syntax",
            "me sale esto:\n\nPHP Fatal error:  Uncaught Error: Call to undefined function",
            "j'ai cette erreur :\n\nSQLSTATE[HY000] [2002] Connection refused",
            "выдаёт\n\nPermissionError: [Errno 13] Permission denied",
            "こんなエラーが出ました\n\nModuleNotFoundError: No module named 'sklearn'",
            "报错了\n\nUncaught SyntaxError: Unexpected token '<'",
        ] {
            assert!(fires(msg, FIX), "{msg}");
        }
    }

    #[test]
    fn an_error_about_other_work_or_gone_is_no_report() {
        for msg in [
            "unrelated, but what does this error in my old cron job mean? `python: not found`",
            "my coworker's script throws `UnicodeDecodeError: 'utf-8' codec` — whats going on?",
            "CI has been failing with `ENOSPC` since last week, before any of today's changes. any idea?",
            "The 'Failed to compile' was from before I saved the file. It compiles now.",
            "no errors anymore",
            "the error is gone, thanks",
            "Der Fehler kommt nicht mehr, danke!",
            "现在不报错了，谢谢",
            "エラーが出なくなりました！",
            "Bei mir kommt `fatal: not a git repository`, aber ich bin im falschen Ordner. Wie finde ich das Repo?",
        ] {
            assert!(!fires(msg, FIX), "{msg}");
        }
    }

    #[test]
    fn nothing_changed_still_and_stopped_are_reports() {
        for msg in [
            "no difference, the chart is still squished",
            "the test output is identical, 3 failed 41 passed",
            "it still shows the old value after refresh",
            "the page loads forever now, spinner never goes away",
            "build passes but prod is just a blank white page",
            "that fixed the header but now the footer overlaps the content on every page",
            "same 504 as before",
            "le site est actuellement cassé",
            "c'est toujours pareil",
            "jetzt startet der container gar nicht mehr",
            "agora nem abre o app",
            "всё так же",
            "没变化，页面还是乱码",
            "変わらないです。相変わらず文字化けしてる",
            "nothing different, it still reads the old config.ini",
            "Sigue leyendo el archivo viejo",
            "Ça lit toujours l'ancien fichier",
            "还是读的旧文件",
            "it worked before your refactor, now the CLI ignores every option",
            "===== 2 failed, 10 passed in 1.20s =====",
            "401 Unauthorized",
            "it deleted all my rows!!",
            "now every request 500s",
            "sigue tardando lo mismo, 40 segundos",
            "ça redirige en boucle maintenant, ERR_TOO_MANY_REDIRECTS",
            "nginx: [emerg] unknown directive \"retrun\" in /etc/nginx/nginx.conf:12",
            "Toujours en HTTP, rien n'a bougé",
            "agora o container nem sobe",
            "今度は起動すらしません",
        ] {
            assert!(fires(msg, FIX), "{msg}");
        }
    }

    #[test]
    fn unchanged_on_the_users_side_or_undecided_is_quiet() {
        let asked = "Did anything change in your .env since yesterday? If not, I'll deploy.";
        for msg in [
            "nothing changed on my side, so go ahead and deploy",
            "rien n'a changé de mon côté, tu peux lancer le déploiement",
            "since nothing has changed with my setup, deploy it",
            "I'm still not sure which one to pick",
            "Immer noch nicht sicher, ob ich Postgres nehme.",
            "still works fine after the upgrade",
            "Same as before, please: keep the tests",
            "Confirm there are still no pending orders.",
            "Yes, I'd like to proceed. I will use the same payment method as before.",
            "I still don't have my user ID with me, but the reservation is HXDUBJ.",
            "I still have the old version installed, should I remove it?",
            "How do I get 2 failed tests to show in the report?",
            "todavía no lo he probado",
            "it deleted the temp files as expected, perfect",
            "Still takes a while but it's a big file, all good",
            "Can you process the files in a loop instead of one by one?",
            "How do I avoid an infinite loop if the folder is empty?",
        ] {
            assert!(!fires(msg, asked), "{msg}");
        }
    }

    #[test]
    fn reading_a_reply_is_bounded_however_often_a_phrase_repeats() {
        let bag = KeywordBag::from_text(FIX);
        let prev = Previous {
            keywords: &bag,
            asked: false,
            requested: false,
            earlier: &[],
        };
        for unit in [
            "still the same? ",
            "nothing changed on my side. ",
            "but now none ",
            "same as before please. ",
        ] {
            let text = unit.repeat(8 * 1024 / unit.len());
            let work = crate::work::counted(|| {
                report(&text, prev, &crate::detect::markers::scan::scan(&text));
            });
            assert!(work <= 8 * text.len(), "{unit:?}: {work}");
        }
    }

    #[test]
    fn a_user_who_owns_the_mistake_pushes_back_on_nothing() {
        for (msg, prev) in [
            (
                "Sorry, I pasted the wrong stack trace. Here's the real one: IndexError: list index out of range",
                FIX,
            ),
            (
                "上次是我把订单号发错了，正确的是 20240518337。",
                "抱歉，没有查到订单号 20240518373 的记录。",
            ),
            (
                "間違えたのは私の方でした。予約番号は ABC123 ではなく ABX123 です。",
                "予約番号 ABC123 ではご予約が見つかりませんでした。",
            ),
            ("сорри, я сам накосячил — подсунул не тот конфиг", FIX),
            (
                "my bad, I was still running the old binary. but why does cargo not rebuild?",
                FIX,
            ),
        ] {
            assert!(!fires(msg, prev), "{msg}");
        }
        // A turn after owning a small part of it still reports.
        for msg in [
            "my bad for being vague, but it still fails with KeyError: 'currency'",
            "Nein, das ist die falsche Datei, ich meinte die settings.yaml im Root.",
        ] {
            assert!(
                fires(
                    msg,
                    "Ich habe den Port in `config/settings.yaml` geändert. I changed etl.py."
                ),
                "{msg}"
            );
        }
    }

    #[test]
    fn an_error_pasted_on_request_answers_it() {
        let asked = "That log only shows the job being scheduled. Can you paste the output from the worker when the job runs?";
        let paste = "2024-05-14 09:12:03 ERROR worker[3] job=send_digest: smtplib.SMTPAuthenticationError: (535, b'5.7.8 Username and Password not accepted')";
        assert!(!fires(paste, asked));
        // After a proposed fix that asks for the traceback if it fails, the
        // same paste reports the fix failing.
        let fix = "I set `MAIL_USE_TLS = True` in the worker config. If it still fails, paste the output.";
        assert!(fires(paste, fix));
    }

    #[test]
    fn doing_as_told_and_then_a_breakage_is_a_report() {
        for msg in [
            "I followed your steps and now none of the pages load",
            "I followed your steps and now my online banking is locked.",
            "Hice lo que dijiste y ahora ni siquiera puedo entrar a la app del banco.",
            "J'ai suivi vos étapes et maintenant le bouton ne fait plus rien.",
        ] {
            assert!(
                fires(msg, "Clear the app's data and log in again."),
                "{msg}"
            );
        }
        for msg in [
            "I followed your steps and now it works, thanks",
            "I did what you said, and now the error is gone",
            "I did what you said and now I want to add tests",
            "I followed your steps, now what do I do next?",
        ] {
            assert!(
                !fires(msg, "Clear the app's data and log in again."),
                "{msg}"
            );
        }
    }

    #[test]
    fn damage_done_by_what_the_answer_gave_is_a_report() {
        for msg in [
            "after running that sed command every config file is empty",
            "depois do seu comando o git apagou todas as minhas alteracoes",
            "el script que me pasaste me vacio la tabla de clientes entera!!",
            "после твоего запроса в таблице половина цен стала нулями",
            "用了你的命令之后 ssh 连不上服务器了",
            "改完之后其他页面的样式全乱了",
            "seit deiner Änderung stürzt die App beim Speichern ab",
        ] {
            assert!(fires(msg, FIX), "{msg}");
        }
        // Destruction that was wanted, and good news, are no report.
        for msg in [
            "That command wiped the cache, good, now the page loads fast.",
            "that migration deleted all the test rows like I wanted, next step?",
            "my wifi dropped the connection again ugh",
            "seit deiner Änderung läuft alles super",
            "改完之后页面正常了，谢谢",
        ] {
            assert!(!fires(msg, FIX), "{msg}");
        }
    }

    #[test]
    fn a_result_unchanged_or_still_wrong_is_a_report() {
        for msg in [
            "chart looks exactly the same, the labels are still on top of each other",
            "same 3.2s LCP, lighthouse score didnt budge",
            "followed it to the letter and the sponge still came out heavy",
            "bringt nix, der zähler bleibt bei 0",
            "no cambio nada, los correos siguen llegando a spam",
            "改了之后跟原来一模一样",
            "設定変えたけど前と全く同じ挙動です",
        ] {
            assert!(fires(msg, FIX), "{msg}");
        }
        for msg in [
            "It still looks good to me, ship it.",
            "The layout is identical to the old one, which is what I wanted. Now add a footer.",
            "Perfect, the output looks exactly the same as the mockup now.",
            "yup the timeout is gone and the job finishes in 40s now",
            "Läuft jetzt, die NullPointerException ist weg. Danke dir!",
            "заработало, ошибка с кодировкой больше не вылезает",
            "nice, the segfault doesn't happen anymore with that bounds check",
        ] {
            assert!(!fires(msg, FIX), "{msg}");
        }
    }
}
