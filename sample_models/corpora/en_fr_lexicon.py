"""Lexicon of the English -> French corpus (see en_fr.py for the grammar).

All French nouns and prenominal adjectives start with a consonant (no "l'homme",
"bel", "vieil", "cet"), so the only elisions are the regular ones the grammar
applies after the fact (l' j' m' n' d' qu' before a vowel-initial word).
"""

from common import LexiconNoun, en_plural

VOWELS = "aeiouyàâäéèêëîïôöùûüœæ"

# Noun categories: P person, A animal, F countable food, M mass food/drink,
# T thing, L place.  Flags: i "in" (container or place), o "on" (surface),
# u "under", g a goal for go/come/arrive, r readable/writable, p openable,
# b breakable, c cleanable, w washable, d drinkable, s singable, v visitable.
# Fields: english singular | english plural | french | gender | french plural | cats | flags
_NOUNS = """
boy||garçon|m||P|
girl||fille|f||P|
woman|women|femme|f||P|
teacher||professeur|m||P|
doctor||médecin|m||P|
baby|babies|bébé|m||P|w
neighbor||voisin|m||P|
king||roi|m||P|
queen||reine|f||P|
brother||frère|m||P|
sister||sœur|f||P|
mother||mère|f||P|
father||père|m||P|
friend||copain|m||P|
farmer||fermier|m||P|
baker||boulanger|m||P|
cat||chat|m||A|w
dog||chien|m||A|w
mouse|mice|souris|f|souris|A|
horse||cheval|m|chevaux|A|w
cow||vache|f||A|
rabbit||lapin|m||A|
duck||canard|m||A|
pig||cochon|m||A|w
lion||lion|m||A|
monkey||singe|m||A|
frog||grenouille|f||A|
wolf|wolves|loup|m||A|
apple||pomme|f||F|w
cake||gâteau|m|gâteaux|F|
banana||banane|f||F|
carrot||carotte|f||F|w
sandwich|sandwiches|sandwich|m|sandwichs|F|
pizza||pizza|f||F|
cookie||biscuit|m||F|
tomato|tomatoes|tomate|f||F|w
pie||tarte|f||F|
strawberry|strawberries|fraise|f||F|w
pear||poire|f||F|w
milk||lait|m||M|d
coffee||café|m||M|d
tea||thé|m||M|d
juice||jus|m|jus|M|d
soup||soupe|f||M|
bread||pain|m||M|
cheese||fromage|m||M|
meat||viande|f||M|
chocolate||chocolat|m||M|
book||livre|m||T|rp
table||table|f||T|oucw
chair||chaise|f||T|oubcw
bed||lit|m||T|ouc
door||porte|f||T|pcw
window||fenêtre|f||T|pbcw
car||voiture|f||T|iucw
bike||vélo|m||T|cw
ball||ballon|m||T|
box|boxes|boîte|f||T|ipo
bag||sac|m||T|ip
cup||tasse|f||T|bcw
bottle||bouteille|f||T|pbw
key||clé|f||T|
phone||téléphone|m||T|b
letter||lettre|f||T|rp
newspaper||journal|m|journaux|T|r
pen||stylo|m||T|b
hat||chapeau|m|chapeaux|T|w
shirt||chemise|f||T|w
coat||manteau|m|manteaux|T|w
dress|dresses|robe|f||T|w
photo||photo|f||T|
map||carte|f||T|r
toy||jouet|m||T|b
lamp||lampe|f||T|b
mat||tapis|m|tapis|T|oucw
flower||fleur|f||T|
gift||cadeau|m|cadeaux|T|p
boat||bateau|m|bateaux|T|ioc
song||chanson|f||T|s
house||maison|f||L|icgv
garden||jardin|m||L|icgv
kitchen||cuisine|f||L|icg
bedroom||chambre|f||L|icg
park||parc|m||L|igv
market||marché|m||L|igv
beach||plage|f||L|ogv
city|cities|ville|f||L|igv
street||rue|f||L|icg
shop||magasin|m||L|igv
restaurant||restaurant|m||L|igv
library|libraries|bibliothèque|f||L|igv
station||gare|f||L|igv
forest||forêt|f||L|igv
river||rivière|f||L|igv
museum||musée|m||L|igv
office||bureau|m|bureaux|L|icgv
village||village|m||L|igv
bridge||pont|m||L|oucgv
castle||château|m|châteaux|L|icgv
"""


_FILTER = {}


def nouns_for(spec):
    """Nouns fitting spec, in lexicon order (cached)."""
    hit = _FILTER.get(spec)
    if hit is None:
        hit = _FILTER[spec] = [x for x in NOUNS if x.has(spec)]
    return hit


class Noun(LexiconNoun):
    __slots__ = ("en", "en_pl", "fr", "g", "fr_pl", "cat", "flags")

    def __init__(self, en, en_pl, fr, g, fr_pl, cat, flags):
        self.en, self.en_pl, self.fr, self.g = en, en_pl, fr, g
        self.fr_pl, self.cat, self.flags = fr_pl, cat, flags


def _load_nouns():
    out = []
    for line in _NOUNS.strip().splitlines():
        en, en_pl, fr, g, fr_pl, cat, flags = line.split("|")
        out.append(Noun(en, en_pl or en_plural(en), fr, g, fr_pl or fr + "s", cat, flags))
    return out


NOUNS = _load_nouns()

# Adjectives: english | french m.sg | f.sg | m.pl | f.pl | position (pre/post) | nouns it fits
# (the "nouns it fits" spec uses Noun.has: categories and flags).
_ADJS = """
small|petit|petite|petits|petites|pre|PATFL
big|grand|grande|grands|grandes|pre|PATFL
good|bon|bonne|bons|bonnes|pre|PAFM
bad|mauvais|mauvaise|mauvais|mauvaises|pre|PAFM
beautiful|beau|belle|beaux|belles|pre|PATL
pretty|joli|jolie|jolis|jolies|pre|PATL
old|vieux|vieille|vieux|vieilles|pre|PATL
young|jeune|jeune|jeunes|jeunes|pre|PA
new|nouveau|nouvelle|nouveaux|nouvelles|pre|PTL
long|long|longue|longs|longues|pre|T
black|noir|noire|noirs|noires|post|AT
white|blanc|blanche|blancs|blanches|post|AT
red|rouge|rouge|rouges|rouges|post|TF
green|vert|verte|verts|vertes|post|TF
blue|bleu|bleue|bleus|bleues|post|T
yellow|jaune|jaune|jaunes|jaunes|post|TF
gray|gris|grise|gris|grises|post|AT
happy|heureux|heureuse|heureux|heureuses|post|PA
sad|triste|triste|tristes|tristes|post|PA
tired|fatigué|fatiguée|fatigués|fatiguées|post|PA
hungry|affamé|affamée|affamés|affamées|post|PA
angry|fâché|fâchée|fâchés|fâchées|post|PA
sick|malade|malade|malades|malades|post|PA
clean|propre|propre|propres|propres|post|cw
dirty|sale|sale|sales|sales|post|cw
hot|chaud|chaude|chauds|chaudes|post|MF
cold|froid|froide|froids|froides|post|MF
fast|rapide|rapide|rapides|rapides|post|A
heavy|lourd|lourde|lourds|lourdes|post|T
expensive|cher|chère|chers|chères|post|FT
smart|intelligent|intelligente|intelligents|intelligentes|post|PA
funny|drôle|drôle|drôles|drôles|post|PA
lazy|paresseux|paresseuse|paresseux|paresseuses|post|PA
empty|vide|vide|vides|vides|post|ip
full|plein|pleine|pleins|pleines|post|ip
broken|cassé|cassée|cassés|cassées|post|b
delicious|délicieux|délicieuse|délicieux|délicieuses|post|FM
famous|célèbre|célèbre|célèbres|célèbres|post|PL
"""


class Adj:
    __slots__ = ("en", "forms", "pre", "fits")

    def __init__(self, en, forms, pre, fits):
        self.en, self.forms, self.pre, self.fits = en, forms, pre, fits

    def fr(self, g, n):
        return self.forms[(0 if g == "m" else 1) + (2 if n == "pl" else 0)]


def _load_adjs():
    out = []
    for line in _ADJS.strip().splitlines():
        en, ms, fs, mp, fp, pos, fits = line.split("|")
        out.append(Adj(en, (ms, fs, mp, fp), pos == "pre", fits))
    return out


ADJS = _load_adjs()

# Persons: 0 je, 1 il/elle (3rd sg), 2 nous, 3 vous, 4 ils (3rd pl)
FUT_END = ("ai", "a", "ons", "ez", "ont")
AVOIR = ("ai", "a", "avons", "avez", "ont")
ETRE = ("suis", "est", "sommes", "êtes", "sont")
ETRE_IMP = ("étais", "était", "étions", "étiez", "étaient")
ETRE_FUT = ("serai", "sera", "serons", "serez", "seront")


class Verb:
    __slots__ = ("en", "en3", "en_past", "pres", "pp", "fut", "aux", "kind", "subj", "obj")

    def __init__(self, en, en3, en_past, pres, pp, fut_stem, aux, kind, subj, obj):
        self.en, self.en3, self.en_past = en, en3, en_past
        self.pres, self.pp = pres, pp
        self.fut = tuple(fut_stem + e for e in FUT_END)
        self.aux, self.kind, self.subj, self.obj = aux, kind, subj, obj


def _en3(w):
    if w.endswith(("s", "sh", "ch", "x", "z", "o")):
        return w + "es"
    if w.endswith("y") and w[-2] not in "aeiou":
        return w[:-1] + "ies"
    return w + "s"


def _er(inf):
    """Present and participle of a regular -er verb (with -ger/-cer spelling)."""
    st = inf[:-2]
    nous = st + ("eons" if st.endswith("g") else "ons")
    return (st + "e", st + "e", nous, st + "ez", st + "ent"), st + "é"


# kind: trans (direct object), ditrans (object + "to" someone), intrans, motion, sit
# english base | english past | french: inf (regular -er) or "pres1,pres3,nous,vous,ils;pp;future stem"
# | aux | kind | subject spec | object spec
_VERBS = """
eat|ate|manger|avoir|trans|PA|F
drink|drank|bois,boit,buvons,buvez,boivent;bu;boir|avoir|trans|PA|d
see|saw|vois,voit,voyons,voyez,voient;vu;verr|avoir|trans|PA|PATL
like|liked|aimer|avoir|trans|P|PAFMTL
want|wanted|veux,veut,voulons,voulez,veulent;voulu;voudr|avoir|trans|PA|FMT
buy|bought|achète,achète,achetons,achetez,achètent;acheté;achèter|avoir|trans|P|FMT
read|read|lis,lit,lisons,lisez,lisent;lu;lir|avoir|trans|P|r
write|wrote|écris,écrit,écrivons,écrivez,écrivent;écrit;écrir|avoir|trans|P|rs
find|found|trouver|avoir|trans|PA|PATF
take|took|prends,prend,prenons,prenez,prennent;pris;prendr|avoir|trans|P|FT
open|opened|ouvre,ouvre,ouvrons,ouvrez,ouvrent;ouvert;ouvrir|avoir|trans|P|p
close|closed|fermer|avoir|trans|P|p
watch|watched|regarder|avoir|trans|PA|PAT
clean|cleaned|nettoie,nettoie,nettoyons,nettoyez,nettoient;nettoyé;nettoier|avoir|trans|P|c
wash|washed|laver|avoir|trans|P|w
break|broke|casser|avoir|trans|PA|b
help|helped|aider|avoir|trans|PA|PA
call|called|appelle,appelle,appelons,appelez,appellent;appelé;appeller|avoir|trans|P|PA
visit|visited|visiter|avoir|trans|P|v
sing|sang|chanter|avoir|trans|P|s
give|gave|donner|avoir|ditrans|P|FTA
show|showed|montrer|avoir|ditrans|P|FTA
sleep|slept|dors,dort,dormons,dormez,dorment;dormi;dormir|avoir|intrans|PA|
run|ran|cours,court,courons,courez,courent;couru;courr|avoir|intrans|PA|
walk|walked|marcher|avoir|intrans|PA|
swim|swam|nager|avoir|intrans|PA|
dance|danced|danser|avoir|intrans|PA|
work|worked|travailler|avoir|intrans|PA|
play|played|jouer|avoir|intrans|PA|
wait|waited|attendre|avoir|intrans|PA|
go|went|vais,va,allons,allez,vont;allé;ir|etre|motion|PA|g
come|came|viens,vient,venons,venez,viennent;venu;viendr|etre|motion|PA|g
arrive|arrived|arriver|etre|motion|PA|g
sit|sat|-|etre|sit|PA|
"""


def _load_verbs():
    out = []
    for line in _VERBS.strip().splitlines():
        en, past, fr, aux, kind, subj, obj = line.split("|")
        if fr == "-":
            pres, pp, fut = ("",) * 5, "assis", ""
        elif ";" in fr:
            p, pp, fut = fr.split(";")
            pres = tuple(p.split(","))
        elif fr.endswith("re"):          # attendre
            st = fr[:-2]
            pres, pp, fut = (st + "s", st, st + "ons", st + "ez", st + "ent"), st + "u", st + "r"
        else:
            pres, pp = _er(fr)
            fut = fr
        en3 = {"go": "goes"}.get(en, _en3(en))
        out.append(Verb(en, en3, past, pres, pp, fut, aux, kind, subj, obj))
    return out


VERBS = _load_verbs()
# verbs used with an object pronoun (le chat l' a vue): few, so that every agreed
# participle (vue, vus, vues) is frequent enough to be learnt
PRON_VERBS = ("see", "help", "call", "watch", "find")
VERB = {v.en: v for v in VERBS}

# Reflexive "sit" (s'asseoir): tokens per person; the clitic is fused with the verb
# where French elides it (s'est, s'assoit), as in the seed example.
SIT_PRES = (("m'assois",), ("s'assoit",), ("nous", "asseyons"), ("vous", "asseyez"), ("s'assoient",))
SIT_FUT = (("m'assiérai",), ("s'assiéra",), ("nous", "assiérons"), ("vous", "assiérez"), ("s'assiéront",))
SIT_PAST = (("me", "suis"), ("s'est",), ("nous", "sommes"), ("vous", "êtes"), ("se", "sont"))

# Subject pronouns: english, french, person index, gender, number
SUBJ_PRON = (("i", "je", 0, "m", "sg"), ("you", "vous", 3, "m", "sg"), ("he", "il", 1, "m", "sg"),
             ("she", "elle", 1, "f", "sg"), ("we", "nous", 2, "m", "pl"), ("they", "ils", 4, "m", "pl"))
# Object pronouns: english, french clitic, person it refers to, gender, number
OBJ_PRON = (("me", "me", 0, "m", "sg"), ("you", "vous", 3, "m", "sg"), ("him", "le", 1, "m", "sg"),
            ("her", "la", 1, "f", "sg"), ("us", "nous", 2, "m", "pl"), ("them", "les", 4, "m", "pl"))
# Possessive determiners: english, (masc sg, fem sg, plural)
POSS = (("my", ("mon", "ma", "mes")), ("your", ("votre", "votre", "vos")),
        ("his", ("son", "sa", "ses")), ("her", ("son", "sa", "ses")),
        ("our", ("notre", "notre", "nos")), ("their", ("leur", "leur", "leurs")))
NUMBERS = (("two", "deux"), ("three", "trois"), ("four", "quatre"), ("five", "cinq"),
           ("six", "six"), ("seven", "sept"), ("eight", "huit"), ("ten", "dix"))

# Location prepositions: english words, french words, noun spec of the object,
# whether the french ends in "de" (then no indefinite plural object).
LOC_PREPS = ((("in",), ("dans",), "i", False), (("on",), ("sur",), "o", False),
             (("under",), ("sous",), "u", False), (("near",), ("près", "de"), "ATL", True),
             (("behind",), ("derrière",), "PATL", False),
             (("in", "front", "of"), ("devant",), "PATL", False),
             (("next", "to"), ("à", "côté", "de"), "PATL", True))

# Time expressions: english words, french words, per french word the indices of the
# english words it is aligned to, tenses it goes with.
TIMES = ((("yesterday",), ("hier",), ((0,),), ("past",)),
         (("today",), ("aujourd'hui",), ((0,),), ("present", "past", "future")),
         (("tomorrow",), ("demain",), ((0,),), ("future",)),
         (("now",), ("maintenant",), ((0,),), ("present",)),
         (("every", "day"), ("tous", "les", "jours"), ((0,), (0,), (1,)), ("present",)),
         (("last", "week"), ("la", "semaine", "dernière"), ((0,), (1,), (0,)), ("past",)),
         (("next", "week"), ("la", "semaine", "prochaine"), ((0,), (1,), (0,)), ("future",)),
         (("last", "night"), ("hier", "soir"), ((0,), (1,)), ("past",)),
         (("this", "morning"), ("ce", "matin"), ((0,), (1,)), ("past", "future")),
         (("tonight",), ("ce", "soir"), ((0,), (0,)), ("future",)))

# Frequency adverbs (present tense only): english, french ("never" is ne ... jamais)
ADVERBS = (("often", "souvent"), ("always", "toujours"), ("sometimes", "parfois"),
           ("never", "jamais"))
