//! Pushback that doubts the previous answer or says the answers go in
//! circles (`reply.rs` calls these rules; they fire only on a
//! reply):
//!
//! - **doubt**: "Are you sure?", "That doesn't sound right", "I believe
//!   that's not accurate", "that can't be right", "no me cuadra", "Klingt
//!   komisch", "好像有问题", "違う気がします"; a surprise that opens the reply
//!   and is not followed by praise ("Really? I thought Canberra was the
//!   capital", "Точно?", while "really? that's great" is thanks); a negative
//!   question or an "I thought …?" opening a sentence ("wait, isnt n log n
//!   the lower bound?", "Ich dachte git stash nimmt untracked files nicht
//!   mit?"); the docs cited against the answer ("my docs say 0.12 removed
//!   that flag", "la doc dice que…"); "I don't think" before a word or a
//!   number of the answer ("I don't think 17 x 24 is 418");
//! - **circles**: "you're going in circles", "Ты зациклился", "tu tournes en
//!   rond", "you already suggested that", "the same code you gave me".
//!
//! Not when the doubt is only supposed ("if that doesn't look right, …"),
//! quoted as UI text ("a dialog that asks 'are you sure?'"), or comes with
//! a go-ahead ("are you sure you can book two seats at once? if so, do it").

use super::failure::{REQUEST, supposed};
use super::frames::{Found, Frame, listed, words_from};
use super::reply::{Previous, in_question, is_word, skip_interjection};
use super::scan::{fam, glad};
use crate::text::KeywordBag;

/// Reported as the hit's phrase.
pub const DOUBT: &str = "(doubts the previous answer)";
pub const CIRCLES: &str = "(says the answers go in circles)";

/// Doubt anywhere in a reply.
pub(super) static DOUBTS: &[Frame] = &[
    Frame::new(
        "en",
        "are you|are u|r u|r you / |really|absolutely|completely|100% / \
               sure|certain|positive",
    ),
    Frame::new(
        "en",
        "you sure|u sure|you certain / ?|about that|about this|about it",
    ),
    Frame::new(
        "en",
        "that|this|it|which|your answer|that answer|the answer|the math|your math|\
               those numbers|these numbers|that number / |just|really|still / \
               doesn't|does not|doesnt|don't|dont|do not / sound|look|seem / \
               right|correct|accurate|true|quite right|plausible",
    ),
    Frame::new(
        "en",
        "that|this|it|which|your answer|that answer|the answer|the math|your math|\
               that number / sounds|looks|seems / wrong|off|incorrect|inaccurate|fishy|\
               suspicious|a bit off|a little off|way off|too high|too low",
    ),
    Frame::new(
        "en",
        "that|this|it|which|that answer|your answer|the answer / \
               can't|cannot|can not|cant|couldn't|couldnt / \
               be right|be correct|be true|be accurate|be the case",
    ),
    Frame::new(
        "en",
        "that's|thats|that is|this is|it's|it is|your answer is|the answer is|\
               that answer is|that number is / not accurate|inaccurate|not true|untrue|\
               not correct|not quite accurate|not entirely accurate|not entirely correct|\
               not entirely true|not exactly right|not how it works|not how that works|outdated",
    ),
    Frame::new(
        "en",
        "i don't think|i dont think|i do not think|i doubt / \
               that's|thats|that is|this is|it's|it is|you're|you are / \
               right|correct|accurate|true|the case|how it works",
    ),
    Frame::new(
        "en",
        "i'm not sure|im not sure|i am not sure|not sure|i'm not convinced / \
               that's|thats|that is|this is|it's|it is|you're|you are / \
               right|correct|accurate|true",
    ),
    Frame::new(
        "en",
        "i believe|i think|i'm pretty sure|im pretty sure|i'm fairly sure|\
               i am pretty sure|pretty sure / \
               that's|thats|that is|this is|it's|it is|you're|you are / \
               not accurate|not correct|not right|not true|incorrect|inaccurate|mistaken|\
               a mistake|outdated|not the case|not how it works",
    ),
    Frame::new(
        "en",
        "you're mistaken|you are mistaken|youre mistaken|you miscalculated|you misread|\
               you misremembered|you got that wrong|you have that wrong|you've got that wrong|\
               citation needed|source please|any source|mixing things up|mixing it up|\
               you're confusing|you are confusing|confusing it with|you confused|\
               you've got it wrong|doesn't add up|don't add up|doesnt add up",
    ),
    Frame::new("en", "i doubt it|i doubt that / .|!|,"),
    Frame::new(
        "en",
        "i'm not|im not|i am not / so sure|convinced / about that|about this|of that|\
               that's right|that's correct",
    ),
    Frame::new(
        "en",
        "that's not how|thats not how|that is not how|that isn't how|\
               it doesn't work like that|it doesn't work that way|i'm not sure about that|\
               remember it differently|recall it differently|i remember it being|\
               it's the other way around|it is the other way around|it's the opposite|\
               is the other way around|was the other way around|other way around?|\
               other way round?|contradicts what you|you contradict|contradicting yourself|\
               you said the opposite",
    ),
    Frame::new(
        "en",
        "that's not|thats not|that is not|that isn't|that's the opposite of / \
               what i read|what i've read|what i heard|what i was told|what i learned|\
               what i remember",
    ),
    Frame::new(
        "es",
        "estás|estas|está|esta / |completamente|totalmente / seguro|segura",
    ),
    Frame::new(
        "es",
        "eso|esto|esa respuesta|lo que dices / no suena|no parece|no me parece|no me suena / \
               bien|correcto|correcta|cierto|verdad|real",
    ),
    Frame::new(
        "es",
        "no creo que|dudo que / sea|eso sea|esto sea|esté|eso esté / \
               así|correcto|correcta|cierto|verdad|bien",
    ),
    Frame::new("es", "seguro que / eso|esto|es|está"),
    Frame::new(
        "es",
        "es al revés|es lo contrario|al revés?|te contradices|contradice lo que|\
               no me cuadra|no cuadra|no me convence|te equivocas|creo que no es así|\
               creo que no es correcto|me parece que no es así|no es exacto|no es del todo cierto",
    ),
    Frame::new(
        "de",
        "bist du|sind sie / |dir|sich / |da|wirklich|ganz / sicher",
    ),
    Frame::new(
        "de",
        "das|es|dies / klingt|scheint|sieht / |mir|für mich|fur mich / nicht richtig|falsch|komisch|seltsam|\
               merkwürdig|nicht plausibel|unplausibel|nicht korrekt",
    ),
    Frame::new(
        "de",
        "klingt|scheint mir / komisch|seltsam|merkwürdig|falsch|nicht richtig|\
               nicht plausibel|unplausibel",
    ),
    Frame::new(
        "de",
        "ich glaube nicht, dass|ich glaube nicht dass|ich denke nicht, dass|\
               ich denke nicht dass|ich bezweifle, dass|ich bezweifle dass / das|es|dies / \
               stimmt|richtig ist|korrekt ist|so ist|wahr ist",
    ),
    Frame::new(
        "de",
        "ist umgekehrt|genau umgekehrt|eher umgekehrt|nicht umgekehrt|widerspricht|\
               widersprichst|das kann nicht sein|kann nicht stimmen|kann nicht richtig sein|\
               das stimmt doch nicht|stimmt das wirklich|da irrst du",
    ),
    Frame::new(
        "fr",
        "tu es|t'es|vous êtes|es-tu|êtes-vous|tu en es|vous en êtes / |vraiment|bien / \
               sûr|sûre|sûrs|certain|certaine|sur ?|sur?",
    ),
    Frame::new(
        "fr",
        "ça|ca|cela|c'est / ne me semble pas|me semble pas|ne semble pas|ne paraît pas|\
               me paraît pas / juste|correct|exact|vrai|bon|logique",
    ),
    Frame::new(
        "fr",
        "ça|ca|cela / me paraît|me semble|paraît|semble|sonne / \
               faux|bizarre|louche|étrange|incorrect|douteux",
    ),
    Frame::new(
        "fr",
        "je ne pense pas que|je pense pas que|je ne crois pas que|je crois pas que / \
               ce soit|ça soit|cela soit / juste|correct|exact|vrai|bon|le cas",
    ),
    Frame::new(
        "fr",
        "je ne suis pas sûr que|je suis pas sûr que|pas sûr que / \
               ce soit|ça soit|c'est|ça marche",
    ),
    Frame::new(
        "fr",
        "c'est l'inverse|c'est le contraire|c'est plutôt l'inverse|tu te contredis|\
               contredit ce que|ça ne colle pas|ça colle pas|ca colle pas|ce n'est pas exact|c'est inexact|\
               c'est pas exact|c'est pas vrai|ce n'est pas vrai|tu te trompes",
    ),
    Frame::new(
        "pt",
        "é o contrário|é ao contrário|é o inverso|se contradizendo|contradiz o que|\
               tem certeza|tens certeza|tem a certeza|tens a certeza|não é bem assim|\
               nao é bem assim|nao e bem assim|não é assim|não bate|não está batendo|\
               se enganou|você se confundiu",
    ),
    Frame::new(
        "pt",
        "isso|isto|essa resposta / não parece|nao parece|não me parece|não soa / \
               certo|correto|verdade|real",
    ),
    Frame::new(
        "pt",
        "acho que|eu acho que / |isso / não é|nao é|nao e|não está|nao esta / \
               certo|correto|verdade|assim",
    ),
    Frame::new("ru", "ты|вы / |точно|правда / уверен|уверена|уверены"),
    Frame::new(
        "ru",
        "не думаю, что|не думаю что|сомневаюсь, что|сомневаюсь что / \
               это|так|ты прав|вы правы",
    ),
    Frame::new(
        "ru",
        "это наоборот|всё наоборот|как раз наоборот|вроде наоборот|не наоборот|\
               противоречит|противоречишь|по-моему, это не так|по-моему это не так|по-моему, это неправильно|\
               не похоже на правду|звучит странно|что-то не сходится|не сходится",
    ),
    Frame::new(
        "zh",
        "你确定吗|你确定么|您确定吗|你确定?|你确定是|你确定这|确定吗?|好像不对|好像有问题|\
               说法有问题|反过来|说反了|是反的|自相矛盾|前后矛盾|你是不是搞错|你是不是弄错|你搞错了|\
               你弄错了|你记错了|你算错了|你说错了|不太对|不对吧|有点不对|感觉不对|似乎不对|应该不是|我记得不是|难道不是|不应该是",
    ),
    Frame::new(
        "ja",
        "合ってます?|合ってますか|合ってる?|合ってるの?|それ合って|これ合って|確かですか|だったはずです|はずですよね|本当に大丈夫|本当に合って|本当に正しい|違う気がし|違うような気が|間違ってる気が|間違っている気が|正しくない気が|\
               逆じゃない|逆では|間違っていませんか|間違ってませんか|違っていませんか|違いませんか|\
               正しくないと思|矛盾して|すぎる気が|すぎませんか|すぎないですか|じゃなかったですか|じゃなかったっけ|ではなかったですか|\
               ではなかったでしょうか|だったはずでは|のはずでは|おかしくないですか|おかしくない?|おかしいと思|変じゃないですか",
    ),
];

/// The answers go in circles.
pub(super) static CIRCLING: &[Frame] = &[
    Frame::new(
        "en",
        "going|running|spinning|walking|moving|talking / |round|around / in circles|in a circle",
    ),
    Frame::new(
        "en",
        "you're|you are|youre|we're|we are|you keep|we keep|you seem / \
               |just|stuck|to be|to be stuck / looping|in a loop|going back and forth|\
               flip-flopping|flip flopping|flipping|switching back and forth|repeating yourself|\
               back to|back where we started|bouncing between|bouncing back and forth|\
               ping-ponging|ping ponging",
    ),
    Frame::new(
        "en",
        "you|you've|you have|we|we've|we have|i|i've|i have / already / \
               suggested|tried|said|proposed|recommended|gave me|did / that|this|it|the same|exactly",
    ),
    Frame::new(
        "en",
        "the same|exactly the same|the exact|the exact same / code|thing|answer|solution|\
               suggestion|fix|steps|command|script|advice|version / |that|as / \
               you gave|you suggested|you sent|you posted|you wrote|before|last time",
    ),
    Frame::new(
        "en",
        "you|we / keep / going back|coming back|suggesting|proposing|recommending|\
               returning to|giving the same|circling",
    ),
    Frame::new(
        "en",
        "keep|keeps / landing back on|landing on|ending up back at|ending up with / the same",
    ),
    Frame::new(
        "en",
        "you gave before|you gave me before|you gave earlier|you gave last time|\
               you already gave|you already sent",
    ),
    Frame::new(
        "en",
        "you're|you are|youre|you keep|you just keep / repeating|saying / \
               the same|yourself|that again",
    ),
    Frame::new(
        "en",
        "you|you've / |literally|just / suggested|proposed|said|told me|gave me|tried|\
               recommended / that|this|exactly this|the same thing|the same|it / |already / \
               already|before|earlier|twice|an hour ago|yesterday|minutes ago|a minute ago|\
               last time",
    ),
    Frame::new(
        "en",
        "going nowhere|getting nowhere|not getting anywhere|isn't going anywhere|\
               not going anywhere|what you said last time|what you said before|\
               you said last time|you said before|you said that already|you said this already|\
               been through this|been over this|gone over this|went through this|\
               covered this already|already did this|answers ago|messages ago|replies ago|\
               responses ago|this is circular|\
               that's circular|it's circular|back to square one|we've been here before|round and round|same loop|\
               this is where we started",
    ),
    Frame::new(
        "es",
        "en círculos|en circulos|en círculo|en bucle|dando vueltas|ya lo probamos|ya lo probé|\
               ya lo intentamos|ya lo intenté|ya me lo dijiste|ya me dijiste eso|te repites|\
               estás repitiendo|otra vez lo mismo|otra vez con lo mismo|otra vez con eso|\
               la misma solución|la misma sugerencia|una y otra vez|me repites|otra vez me dices|\
               otra vez me pides|me vuelves a decir|vuelves a sugerir|volvemos a lo mismo|volvimos al principio",
    ),
    Frame::new(
        "de",
        "im kreis|in einer schleife|in der schleife|wiederholst dich|das hattest du|\
               das hatten wir|schon versucht|schon probiert|wieder am anfang|wieder bei null|\
               wieder dasselbe|wieder das gleiche|dieselbe lösung|die gleiche lösung|\
               denselben vorschlag|den gleichen vorschlag|schon vorgeschlagen|\
               schon wieder dasselbe|immer wieder dasselbe|immer wieder das gleiche",
    ),
    Frame::new(
        "fr",
        "tourne en rond|tournes en rond|tournez en rond|tourner en rond|tournons en rond|\
               tourne en boucle|tu boucles|vous bouclez|tu te répètes|vous vous répétez|\
               encore la même chose|toujours la même chose|la même solution|tu m'as déjà|\
               tu me l'as déjà dit|tu l'as déjà dit|ce que tu m'as dit il y a|tu m'as dit ça il y a|\
               déjà essayé|déjà proposé|retour à la case départ|au point de départ",
    ),
    Frame::new(
        "pt",
        "em círculos|em circulos|em círculo|em circulo|dando voltas|em loop|repetindo a mesma coisa|\
               se repetindo|está repetindo|ta repetindo|tá repetindo|já tentei isso|\
               já tentamos isso|já sugeriu|já falou isso|já disse isso|de novo a mesma|\
               a mesma coisa de novo|mesma solução|mesma sugestão|estaca zero|voltamos ao início",
    ),
    Frame::new(
        "ru",
        "зациклился|зациклилась|зациклились|зацикливаешься|зациклило|по кругу|\
               повторяешься|повторяетесь|снова одно и то же|опять одно и то же|уже предлагал|\
               к тому же вернулись|вернулись к тому же|опять вернулись|снова вернулись|уже пробовали|уже проходили|уже обсуждали|ты это уже|это уже было|снова то же|тот же совет|то же решение|уже пробовал|уже было|замкнутый круг",
    ),
    Frame::new(
        "zh",
        "兜圈子|绕圈子|原地打转|绕回来|绕回去|又回到|你已经说过|你上面已经说过|上面说过|已经试过|\
               一直重复|又在重复|你在重复|一直在重复|同样的答案|一样的答案|同样的方案|同样的建议|同样的办法|你之前说过|又是这个|还是这个方案|老一套|翻来覆去|车轱辘话",
    ),
    Frame::new(
        "ja",
        "堂々巡り|堂々めぐり|ループして|同じことの繰り返し|同じことを繰り返|振り出しに戻|\
               さっきと同じ|さっきも同じ|また同じ提案|前にも同じ|同じことを言って|同じことばかり|\
               また同じこと|またその話|また同じ話|前と同じ提案|同じ提案|もう試しました",
    ),
];

/// A surprise or "sure?" that opens a reply: doubt unless praise follows.
pub(super) static SURPRISE: &[Frame] = &[
    Frame::new(
        "en",
        "really|seriously|huh|sure|you sure|seguro|en serio|de verdad|sicher|wirklich|echt|\
               ernsthaft|vraiment|sérieux|ah bon|sûr|sério|serio|é mesmo|certeza|точно|правда|\
               серьёзно|серьезно|уверен|уверена|source|says who|hä|hein|quê|что|what|eh|啊|え|えっ / ?",
    ),
    Frame::new("en", "no way|no chance"),
    Frame::new("en", "wait what"),
    Frame::new("en", "is that|is this / right|correct|true|accurate / ?"),
    Frame::new(
        "zh",
        "真的吗|真的?|确定吗|是吗?|本当ですか|本当に?|ほんとに?|本当?|マジで?",
    ),
];

/// Praise, thanks or a go-ahead after a surprise: "really? that's great".
pub(super) static GLAD: &[Frame] = &[
    Frame::new(
        "en",
        "good|glad|cool|amazing|thanks|thank|yay|ok|okay|qué bien|que bien|gracias|danke|\
               merci|que bom|obrigado|obrigada|спасибо|здорово|ура",
    ),
    Frame::new(
        "zh",
        "好的|谢谢|太棒|太好|助かり|よかった|ありがとう|嬉しい",
    ),
];

/// A go-ahead in the same message makes a doubt a question before acting:
/// "are you sure you can book two seats at once? if so, do it".
pub(super) static GO_AHEAD: &[Frame] = &[
    Frame::new(
        "en",
        "if so|if yes|if you can|go ahead|do it|si es así|si es asi|si oui|se sim|wenn ja|\
               если да",
    ),
    Frame::new("zh", "如果可以|可能なら"),
];

/// Words before a doubt that quote it as text: "a dialog that asks 'are you
/// sure?'", "the prompt says 'are you sure'".
const QUOTING: &str = "ask|asks|asking|say|says|saying|prompt|dialog|dialogue|popup|message|\
                       text|label|button|confirm|confirmation|modal|alert";

/// Sentence openers that ask or request: a docs citation in "what do the
/// docs say about…?" asks.
const ASKING: &str = "what|how|why|where|which|can|could|would|do|does|did|is|are|qué|que|was|\
                      quoi|o|что|где";

/// Sources cited against the answer; a say verb must follow.
pub(super) static DOCS: &[Frame] = &[
    Frame::new(
        "en",
        "docs|doc|documentation|manual|man page|readme|changelog|release notes|the spec|mdn|\
               wikipedia|documentación|doku|dokumentation|documentação|доке|документации|\
               документация|my lease|my contract|my ticket|my receipt",
    ),
    Frame::new(
        "zh",
        "文档写|文档说|文档里写|文档上写|ドキュメントには|公式には",
    ),
];
const SAYS: &str = "say|says|said|state|states|show|shows|mention|mentions|claim|claims|\
                    recommend|recommends|dice|dicen|pone|indica|sagt|steht|schreibt|dit|disent|\
                    indique|précise|recommande|diz|dizem|mostra|написано|говорится|сказано|пишут|\
                    утверждает";

/// Doubt stated as a claim of its own: "that's a myth", "not convinced".
/// Not in a question ("Is it a myth that…?" asks), not with thanks ("so
/// that's a myth then, thanks!"), not of the user's own needs ("not
/// convinced I need it").
pub(super) static STATED: &[Frame] = &[
    Frame::new(
        "en",
        "i'm not so sure|im not so sure|i am not so sure|not so sure|not convinced|unconvinced|i'm skeptical|i'm sceptical|that's a myth|that is a myth|\
               it's a myth|a common myth|misconception|urban legend|es un mito|ist ein mythos|\
               das ist ein mythos|c'est un mythe|idée reçue|é um mito|isso é mito|é mito|это миф|миф",
    ),
    Frame::new("zh", "谣言|误区|迷信|神話|都市伝説"),
];

/// "I don't think …" before a word or number of the answer.
pub(super) static DISBELIEF: &[Frame] = &[Frame::new(
    "en",
    "i'm pretty sure|im pretty sure|i am pretty sure|pretty sure|i'm fairly sure|\
           i'm quite sure|i'm almost sure|estoy casi seguro|estoy bastante seguro|\
           ich bin ziemlich sicher|ich bin mir ziemlich sicher|je suis presque sûr|\
           je suis quasi sûr|tenho quase certeza|я почти уверен|я почти уверена|i don't think|i dont think|i do not think|i doubt|no creo que|ich glaube nicht|\
           ich denke nicht|ich bezweifle|je ne pense pas|je pense pas|je ne crois pas|\
           je crois pas|não acho que|nao acho que|acho que não|acho que nao|не думаю|сомневаюсь",
)];

/// What follows "I don't think" when it is about the user, answers a
/// question or judges relevance: "I don't think I have a patient ID", "I
/// don't think so", "I don't think that's relevant" (the doubt frames read
/// "I don't think that's right").
const OWN: &str = "i|i'm|im|i've|i'd|i'll|we|we're|we'll|we've|we'd|so|you|he|she|they|my|our|\
                   there|that's|thats|that|it's|its|it|this|which|what|whether|how|if|yet|yo|\
                   ich|wir|je|eu|я|мы|que|dass";

/// A negative question, or "I thought …?", opening a sentence.
pub(super) static ASKS_BACK: &[Frame] = &[
    Frame::new(
        "en",
        "isn't|isnt|wasn't|wasnt|shouldn't|shouldnt|aren't|arent|didn't you|didnt you|\
               don't you|dont you|wouldn't that|won't that|i thought|i always thought",
    ),
    Frame::new(
        "es",
        "no es|no era|no debería|no sería|no se supone|yo pensaba|pensaba que|creía que|\
               tenía entendido|yo tenía entendido",
    ),
    Frame::new(
        "de",
        "ist das nicht|ist es nicht|war das nicht|war es nicht|müsste das nicht|\
               müsste es nicht|sollte das nicht|sollte es nicht|wäre es nicht|ich dachte",
    ),
    Frame::new(
        "fr",
        "ce n'est pas|c'est pas plutôt|ce ne serait pas|ça ne devrait pas|\
               n'est-ce pas plutôt|je croyais|je pensais",
    ),
    Frame::new(
        "pt",
        "não seria|não era|não deveria|nao seria|nao era|eu achava|achava que|eu pensei que",
    ),
    Frame::new("ru", "разве|а разве|я думал|я думала|мне казалось"),
    Frame::new("zh", "我以为|我记得|难道|不是应该"),
];

/// A negative question that asks for more rather than doubting: "Isn't
/// there anything you can do?".
const MORE: &str = "there|anything|any|anyone|someone|hay|gibt|existe";

/// Interjections and conjunctions that may come before an opening.
const LEAD: &str = "but|and|so|wait|hmm|hm|um|uh|oh|ah|huh|mmm|well|pero|aber|mais|mas|но|а|и|ну|\
                    хм|euh|bon|pues|ué";

/// Done again and again: a try, then a count a few words on.
pub(super) static TRIED: &[Frame] = &[Frame::new(
    "en",
    "tried|suggested|proposed|recommended|done|said|told me|rewritten|rewrote|redone|redid|\
           rephrased|regenerated|probado|intentado|versucht|probiert|essayé|tentei|tentamos|\
           пробовали|пробовал|предлагал",
)];
pub(super) static TIMES: &[Frame] = &[
    Frame::new(
        "en",
        "three times|four times|five times|six times|seven times|ten times|a dozen times|\
               3 times|4 times|5 times|6 times|7 times|8 times|10 times|several times|multiple times|many times|\
               a few times|tres veces|varias veces|dreimal|mehrmals|trois fois|plusieurs fois|\
               três vezes|várias vezes|три раза|несколько раз",
    ),
    Frame::new("zh", "三次|好几次|几次了|三回|何度も"),
];

/// The text before byte `at` back to the last sentence mark, at most 120 bytes.
fn clause_before(t: &str, at: usize) -> &str {
    let from = t.floor_char_boundary(at.saturating_sub(120));
    crate::work::add(at - from);
    let head = t.get(from..at).unwrap_or("");
    let start = head
        .rfind(|c: char| ".!?;:\n。！？；¿¡".contains(c))
        .map_or(0, |i| {
            i + head[i..].chars().next().map_or(1, char::len_utf8)
        });
    head.get(start..).unwrap_or("")
}

/// Whether byte `at` opens a sentence, after at most interjections and a
/// "but": "wait, isnt…", "But I thought…".
fn opens(t: &str, at: usize) -> bool {
    clause_before(t, at)
        .split(|c: char| !is_word(c))
        .filter(|w| !w.is_empty())
        .all(|w| listed(LEAD, w))
}

/// Whether the doubt at byte `a` is supposed or quoted.
fn discounted(t: &str, a: usize) -> bool {
    let clause = clause_before(t, a);
    let quoted = clause.trim_end().ends_with(['"', '\'', '`', '«', '“']);
    let quoting = clause
        .split(|c: char| !is_word(c))
        .rev()
        .filter(|w| !w.is_empty())
        .take(4)
        .any(|w| listed(QUOTING, w));
    quoted || quoting || supposed(clause, clause.len())
}

/// A surprise opening the reply, not followed by praise or thanks.
fn surprised(t: &str, found: &Found) -> Option<(usize, usize)> {
    let t0 = skip_interjection(t.trim_start_matches(|c: char| !c.is_alphanumeric()));
    let off = t.len() - t0.len();
    let (_, end) = found.find(fam::SURPRISE, |a, _| a == off)?;
    // "Oh, really? How about economy instead?" moves on to a new request.
    let first = words_from(t, end, 1).next().unwrap_or("");
    let moves_on = REQUEST.contains(&first) || listed("what|let's|lets|maybe|then", first);
    let pleased = glad(found, end, t.len()) || found.any_in(fam::GO_AHEAD, end, t.len());
    (!pleased && !moves_on).then_some((off, end))
}

/// A docs citation: the source, then a say verb within four words (or a
/// Chinese or Japanese citation), in a sentence that does not ask.
fn cites_docs(t: &str, found: &Found) -> Option<(usize, usize)> {
    found.find(fam::DOCS, |a, b| {
        let cjk = t
            .get(a..b)
            .is_some_and(|s| !s.is_ascii() && !s.contains(' '))
            && {
                t.get(a..)
                    .and_then(|s| s.chars().next())
                    .is_some_and(super::is_cjk)
            };
        let says = cjk || words_from(t, b, 4).any(|w| listed(SAYS, w));
        let asked = in_question(t, a) && {
            let clause = clause_before(t, a);
            let first = clause.split(|c: char| !is_word(c)).find(|w| !w.is_empty());
            first.is_some_and(|w| listed(ASKING, w))
        };
        says && !asked && !discounted(t, a)
    })
}

/// "I don't think" with a word or a number of the answer in the next six
/// words, about the answer rather than the user.
fn disbelieves(t: &str, prev: Previous<'_>, found: &Found) -> Option<(usize, usize)> {
    found.find(fam::DISBELIEF, |a, b| {
        let own = words_from(t, b, 1).next().is_none_or(|w| listed(OWN, w));
        !own && !discounted(t, a)
            && words_from(t, b, 6).any(|w| {
                w.bytes().any(|c| c.is_ascii_digit())
                    || KeywordBag::first_stem(w).is_some_and(|s| prev.keywords.contains_stem(&s))
            })
    })
}

/// The doubt rule: its span in normalised reply `t`.
pub fn doubt(t: &str, prev: Previous<'_>, found: &Found) -> Option<(usize, usize)> {
    if found.any(fam::GO_AHEAD) {
        return None;
    }
    let pleased = glad(found, 0, t.len());
    found
        .find(fam::DOUBTS, |a, _| !discounted(t, a))
        .or_else(|| {
            let own = |b| words_from(t, b, 1).next().is_some_and(|w| listed(OWN, w));
            let stated = |a, b| !in_question(t, a) && !own(b) && !discounted(t, a);
            found.find(fam::STATED, stated).filter(|_| !pleased)
        })
        .or_else(|| surprised(t, found))
        .or_else(|| {
            found.find(fam::ASKS_BACK, |a, b| {
                let more = words_from(t, b, 1).any(|w| listed(MORE, w));
                opens(t, a) && in_question(t, a) && !more && !pleased
            })
        })
        .or_else(|| cites_docs(t, found))
        .or_else(|| disbelieves(t, prev, found))
}

/// The circling rule: its span in normalised reply `t`.
pub fn circles(t: &str, found: &Found) -> Option<(usize, usize)> {
    found
        .find(fam::CIRCLING, |a, _| {
            let clause = clause_before(t, a);
            !supposed(clause, clause.len()) && !clause.ends_with("as ")
        })
        .or_else(|| {
            // "we've tried the tomllib thing three times now".
            found.find(fam::TRIED, |a, b| {
                let to = t.floor_char_boundary((b + 48).min(t.len()));
                let clause = clause_before(t, a);
                !supposed(clause, clause.len()) && found.any_in(fam::TIMES, b, to)
            })
        })
}

#[cfg(test)]
mod tests {
    use crate::detect::markers::frames::tests::fires;

    #[test]
    fn doubt_is_heard_in_every_language() {
        let fact = "Sydney is the capital of Australia; the tower is 250 m tall.";
        for msg in [
            "That doesn't sound right.",
            "Are you sure?",
            "Really? I thought Canberra was the capital",
            "I believe that's not accurate. It ended in March",
            "that can't be right, it's 330 m",
            "wait, isnt canberra the capital?",
            "hmm, my docs say the tower is 330 m",
            "I don't think 17 x 24 is 418",
            "¿Seguro? Yo tenía entendido que es Canberra",
            "mmm eso no me cuadra",
            "Bist du sicher? Laut Karte nicht",
            "Klingt komisch. Ich dachte, es ist Canberra?",
            "T'es sûr ? Je croyais que c'était Canberra",
            "Tem certeza? Pelo que eu sei é Canberra",
            "Точно? Я думал, Канберра",
            "你确定吗？",
            "这个说法好像有问题",
            "本当ですか？キャンベラだと思ってました",
            "それちょっと違う気がします",
            "Hmm, I'm not so sure the tower is that tall at all",
            "本当に250mで大丈夫ですか？330mだったはずです",
        ] {
            assert!(fires(msg, fact), "{msg}");
        }
    }

    #[test]
    fn praise_a_go_ahead_a_quote_or_an_if_keeps_doubt_quiet() {
        let done = "Your refund of €84.90 has been processed; I can also book the seats.";
        for msg in [
            "really? that's great",
            "真的吗？那太好了",
            "sério? que ótimo",
            "are you sure you can book two seats at once? if so, do it",
            "Add a dialog that asks 'are you sure?' before deleting",
            "if that doesn't look right, tell me and I'll tweak it",
            "What do the docs say about refunds?",
            "I don't think I have my booking number",
            "Isn't it great? Works perfectly now",
            "Isn't there anything else you can do?",
            "Oh, really? How about downgrading all passengers to economy instead?",
            "are you sure-footed with asyncio? just kidding, thanks",
            "Is it a misconception that the tower is 250 m?",
            "Ah, so that's a myth then. Good to know, thanks!",
            "I doubt it matters, but should I restart the server?",
            "I'm not so sure which database to use, any advice?",
        ] {
            assert!(!fires(msg, done), "{msg}");
        }
    }

    #[test]
    fn going_in_circles_is_heard_in_every_language() {
        let again = "Let's try reinstalling the driver again.";
        for msg in [
            "you're going in circles",
            "you already suggested that, twice. it didnt help",
            "this is the same code you gave me 3 answers ago",
            "we're back to the first version again lol",
            "estás dando vueltas en círculo",
            "Du drehst dich im Kreis",
            "tu tournes en rond là",
            "vc ta repetindo a mesma coisa",
            "Ты зациклился",
            "你又绕回来了",
            "さっきと同じ提案ですよね…",
            "we've tried the reinstall thing three times now",
            "that's what you said last time",
            "we're going nowhere",
            "Мы опять к тому же вернулись",
            "we keep bouncing between two versions of the driver",
            "we've rewritten the install script like 6 times now",
            "it keeps landing back on the same driver",
            "a gente ta andando em circulo",
        ] {
            assert!(fires(msg, again), "{msg}");
        }
        for msg in [
            "As you already said, the driver is fine.",
            "we keep alternating between two designs internally, which would you pick?",
            "It keeps coming back to me that we need caching. Add Redis please.",
        ] {
            assert!(!fires(msg, again), "{msg}");
        }
    }
}
