"""Lexicon of the English -> Chinese corpus (see en_zh.py for the grammar)."""

from common import LexiconNoun, en_plural

# Nouns: english sg | english pl | chinese | measure word | category | flags
# categories: P person, K kinship (only with possessives / "the"), A animal, F food
# (countable), M mass food/drink, T thing, L place.
# flags: o "on" surface, u "under", i "in" container/place, g a goal of go/come,
# r readable, w writable, p openable, e edible, d drinkable, b breakable, s singable,
# m watchable, c cleanable, v visitable
_NOUNS = """
teacher||老师|位|P|
doctor||医生|位|P|
student||学生|个|P|
child|children|孩子|个|P|
boy||男孩|个|P|
girl||女孩|个|P|
man|men|男人|个|P|
woman|women|女人|个|P|
friend||朋友|个|P|
farmer||农民|个|P|
worker||工人|个|P|
driver||司机|个|P|
cook||厨师|个|P|
singer||歌手|个|P|
neighbor||邻居|个|P|
mother||妈妈|个|K|
father||爸爸|个|K|
brother||哥哥|个|K|
sister||姐姐|个|K|
cat||猫|只|A|
dog||狗|只|A|
bird||鸟|只|A|
horse||马|匹|A|
cow||牛|头|A|
pig||猪|头|A|
rabbit||兔子|只|A|
fish|fish|鱼|条|A|e
monkey||猴子|只|A|
tiger||老虎|只|A|
panda||熊猫|只|A|
duck||鸭子|只|A|
snake||蛇|条|A|
mouse|mice|老鼠|只|A|
apple||苹果|个|F|e
banana||香蕉|根|F|e
egg||鸡蛋|个|F|e
cake||蛋糕|块|F|e
orange||橙子|个|F|e
rice||米饭||M|e
water||水||M|d
milk||牛奶||M|d
tea||茶||M|d
coffee||咖啡||M|d
juice||果汁||M|d
soup||汤||M|d
meat||肉||M|e
bread||面包||M|e
noodles|noodles|面条||M|e
book||书|本|T|rp
pen||笔|支|T|
table||桌子|张|T|ou
chair||椅子|把|T|ou
bed||床|张|T|ouc
car||车|辆|T|ic
bike||自行车|辆|T|c
phone||手机|部|T|b
computer||电脑|台|T|b
door||门|扇|T|pc
window||窗户|扇|T|pbc
letter||信|封|T|rwp
newspaper||报纸|份|T|r
photo||照片|张|T|
map||地图|张|T|r
ticket||票|张|T|
shirt||衬衫|件|T|c
coat||外套|件|T|
dress|dresses|裙子|条|T|c
hat||帽子|顶|T|
umbrella||伞|把|T|
key||钥匙|把|T|
knife|knives|刀|把|T|
cup||杯子|个|T|ib
bottle||瓶子|个|T|ipb
box|boxes|盒子|个|T|ip
bag||包|个|T|ip
ball||球|个|T|
toy||玩具|个|T|b
flower||花|朵|T|
tree||树|棵|T|u
song||歌|首|T|sw
movie||电影|部|T|m
gift||礼物|个|T|p
park||公园|个|L|igv
school||学校|个|L|igv
store||商店|家|L|igv
market||市场|个|L|igv
restaurant||餐厅|家|L|igv
library|libraries|图书馆|个|L|igv
hospital||医院|家|L|igv
station||车站|个|L|igv
beach||海滩|个|L|igv
city|cities|城市|个|L|igv
village||村子|个|L|igv
zoo||动物园|个|L|igv
office||办公室|个|L|igc
kitchen||厨房|个|L|igc
garden||花园|个|L|igv
bank||银行|家|L|igv
museum||博物馆|个|L|igv
classroom||教室|个|L|igc
room||房间|个|L|igc
house||房子|座|L|igcv
"""


_FILTER = {}


def nouns_for(spec):
    """Nouns fitting spec, in lexicon order (cached)."""
    hit = _FILTER.get(spec)
    if hit is None:
        hit = _FILTER[spec] = [x for x in NOUNS if x.has(spec)]
    return hit


class Noun(LexiconNoun):
    __slots__ = ("en", "en_pl", "zh", "cl", "cat", "flags")

    def __init__(self, en, en_pl, zh, cl, cat, flags):
        self.en, self.en_pl, self.zh, self.cl, self.cat, self.flags = en, en_pl, zh, cl, cat, flags


def _load_nouns():
    out = []
    for line in _NOUNS.strip().splitlines():
        en, en_pl, zh, cl, cat, flags = line.split("|")
        out.append(Noun(en, en_pl or en_plural(en), zh, cl, cat, flags))
    return out


NOUNS = _load_nouns()

# Adjectives: english | chinese | kind | nouns it fits (Noun.has spec) | predicative?
# kind: "bare" one-syllable adjectives that go straight before the noun (大 猫),
# "de" adjectives that take 的 (漂亮 的 花), "color" (红色 的 车; predicate 是 红色 的),
# "pred" only after the copula (很 饿).
_ADJS = """
big|大|bare|ATL|y
small|小|bare|ATL|y
new|新|bare|TL|y
old|旧|bare|T|y
good|好|bare|PKA|y
long|长|bare|T|y
beautiful|漂亮|de|PKATL|y
smart|聪明|de|PKA|y
cute|可爱|de|KA|y
happy|高兴|de|PKA|y
lazy|懒惰|de|PKA|y
famous|有名|de|PL|y
expensive|贵|de|TF|y
delicious|好吃|de|FM|y
clean|干净|de|cL|y
dirty|脏|de|cL|y
red|红色|color|Tc|y
white|白色|color|TA|y
black|黑色|color|TA|y
blue|蓝色|color|T|y
green|绿色|color|T|y
yellow|黄色|color|TF|y
hungry|饿|pred|PKA|y
tired|累|pred|PKA|y
busy|忙|pred|PK|y
angry|生气|pred|PKA|y
"""


class Adj:
    __slots__ = ("en", "zh", "kind", "fits")

    def __init__(self, en, zh, kind, fits):
        self.en, self.zh, self.kind, self.fits = en, zh, kind, fits


ADJS = [Adj(*line.split("|")[:4]) for line in _ADJS.strip().splitlines()]

# Verbs: english base | 3sg | past | chinese | kind | subject spec | object spec | tenses
# kind: trans, intrans, motion (go/come: 去/来 + place), give (给 Y X),
# buyfor (给 Y 买 X), have (有, negated 没 有), stative verbs take no 了 and no progressive.
_VERBS = """
eat|eats|ate|吃|trans|PKA|e|pfgr
drink|drinks|drank|喝|trans|PKA|d|pfgr
see|sees|saw|看见|trans|PKA|PKATL|pf
watch|watches|watched|看|trans|PK|m|pfgr
read|reads|read|读|trans|PK|r|pfgr
write|writes|wrote|写|trans|PK|w|pfgr
buy|buys|bought|买|trans|PK|FMT|pfg
sell|sells|sold|卖|trans|PK|FMT|pfg
open|opens|opened|打开|trans|PK|p|pfg
close|closes|closed|关上|trans|PK|p|pfg
clean|cleans|cleaned|打扫|trans|PK|c|pfgr
find|finds|found|找到|trans|PKA|PKAT|pfg
lose|loses|lost|丢|trans|PK|T|pg
take|takes|took|拿|trans|PK|FT|pfg
break|breaks|broke|打破|trans|PKA|b|pg
help|helps|helped|帮助|trans|PK|PKA|pfgr
visit|visits|visited|参观|trans|PK|v|pfg
chase|chases|chased|追|trans|PKA|PKA|pfgr
sing|sings|sang|唱|trans|PK|s|pfgr
like|likes|liked|喜欢|trans|PKA|PKAFMTL|s
love|loves|loved|爱|trans|PKA|PKA|s
want|wants|wanted|想要|trans|PKA|FMT|s
know|knows|knew|认识|trans|PK|PK|s
have|has|had|有|have|PKA|AFMT|s
give|gives|gave|给|give|PK|FMT|pfg
buy|buys|bought|买|buyfor|PK|FMT|pfg
sleep|sleeps|slept|睡觉|intrans|PKA||pfgr
run|runs|ran|跑步|intrans|PKA||pfgr
swim|swims|swam|游泳|intrans|PKA||pfgr
dance|dances|danced|跳舞|intrans|PK||pfgr
sing|sings|sang|唱歌|intrans|PK||pfgr
work|works|worked|工作|intrans|PK||pfgr
cry|cries|cried|哭|intrans|PKA||pfgr
play|plays|played|玩|intrans|PKA||pfgr
rest|rests|rested|休息|intrans|PKA||pfgr
study|studies|studied|学习|intrans|PK||pfgr
go|goes|went|去|motion|PKA|g|pfg
come|comes|came|来|motion|PKA|g|pfg
"""


class Verb:
    __slots__ = ("en", "en3", "en_past", "zh", "kind", "subj", "obj", "tenses", "ing", "code")

    def __init__(self, en, en3, en_past, zh, kind, subj, obj, tenses):
        self.en, self.en3, self.en_past, self.zh = en, en3, en_past, zh
        self.kind, self.subj, self.obj = kind, subj, obj
        self.code = tenses
        # p present, f future, g past, r progressive, s stative (present / future only)
        self.tenses = {"p": "present", "f": "future", "g": "past", "r": "prog",
                       "s": "present"}
        self.tenses = tuple(self.tenses[c] for c in tenses)
        self.ing = _ing(en)


def _ing(w):
    if w in ("swim", "run"):
        return w + w[-1] + "ing"
    if w.endswith("e") and not w.endswith("ee"):
        return w[:-1] + "ing"
    return w + "ing"


VERBS = [Verb(*line.split("|")) for line in _VERBS.strip().splitlines()]

# resultative verbs: "does not see" is 没 看见 (不 看见 is not said)
RESULTATIVE = ("看见", "找到", "打破", "关上", "打开")

SUBJ_PRON = (("i", "我", 0), ("you", "你", 2), ("he", "他", 1), ("she", "她", 1),
             ("we", "我们", 2), ("they", "他们", 2))
OBJ_PRON = (("me", "我"), ("you", "你"), ("him", "他"), ("her", "她"), ("us", "我们"),
            ("them", "他们"))
POSS = (("my", "我"), ("your", "你"), ("his", "他"), ("her", "她"), ("our", "我们"),
        ("their", "他们"))
NUMBERS = (("two", "两"), ("three", "三"), ("four", "四"), ("five", "五"), ("six", "六"),
           ("seven", "七"), ("eight", "八"), ("nine", "九"), ("ten", "十"))
# containers for mass nouns: english sg, english pl, chinese measure word, nouns
CONTAINERS = (("cup", "cups", "杯", "d"), ("glass", "glasses", "杯", "d"),
              ("bottle", "bottles", "瓶", "d"), ("bowl", "bowls", "碗", "e"))

# Location PPs: english words, chinese localizer after the noun, noun spec
LOC_PREPS = ((("in",), "里", "i"), (("on",), "上", "o"), (("under",), "下", "u"),
             (("near",), "附近", "L"), (("behind",), "后面", "TL"),
             (("in", "front", "of"), "前面", "TL"))

# Time words: english words, chinese token(s), links (per chinese token, english indices),
# tenses
TIMES = ((("yesterday",), ("昨天",), ((0,),), ("past",)),
         (("today",), ("今天",), ((0,),), ("present", "past", "future")),
         (("tomorrow",), ("明天",), ((0,),), ("future",)),
         (("now",), ("现在",), ((0,),), ("present", "prog")),
         (("every", "day"), ("每天",), ((0, 1),), ("present",)),
         (("last", "year"), ("去年",), ((0, 1),), ("past",)),
         (("next", "year"), ("明年",), ((0, 1),), ("future",)),
         (("last", "week"), ("上周",), ((0, 1),), ("past",)),
         (("next", "week"), ("下周",), ((0, 1),), ("future",)),
         (("in", "the", "morning"), ("早上",), ((0, 1, 2),), ("present",)),
         (("tonight",), ("今晚",), ((0,),), ("future",)))

ADVERBS = (("often", "经常"), ("always", "总是"), ("never", "从不"), ("sometimes", "有时"))
