"""English -> French sentence pairs with gold word alignments.

Grammar (every English sentence has exactly one French translation):
  S   -> [TIME ,] SUBJ VG [OBJ] [PP] [TIME] [.]        declarative
       | AUX SUBJ VG' [OBJ] [PP] [TIME] ?               yes/no question -> "est-ce que ..."
  SUBJ -> pronoun | NP          NP -> DET [PRE-ADJ] [POST-ADJ] NOUN [of NP]
French phenomena: adjectives after the noun except petit/grand/bon/mauvais/beau/joli/
vieux/jeune/nouveau/long; gender and number agreement of articles, adjectives and
participles (être verbs, preceding object pronouns); "des" -> "de" before a
prenominal adjective; ne ... pas / ne ... jamais, with un/une/des/du -> de after a
negation; du/au/des/aux contractions; l'/j'/m'/n'/d'/qu' elision; object pronouns
before the verb; frequency adverbs after the verb; passé composé with avoir/être;
futur simple; imparfait for "was/were"; reflexive s'asseoir ("the cat sat on the
mat" -> "le chat s'est assis sur le tapis").

English "you" is always "vous" (agreeing as masculine singular), "they" is "ils",
"i"/"we" agree as masculine.
"""

from common import Src, Tgt, finish, weighted
import en_fr_lexicon as L

VOWELS = L.VOWELS
_ELIDE = {"le": "l'", "la": "l'", "je": "j'", "me": "m'", "ne": "n'", "de": "d'", "que": "qu'"}
_CONTRACT = {("de", "le"): "du", ("de", "les"): "des", ("à", "le"): "au", ("à", "les"): "aux"}


def postprocess(tgt):
    """French contractions (de+le -> du ...; only preposition + definite article)
    and elisions before a vowel; links of merged words are united."""
    out = []
    for t in tgt:
        if (out and t.tag == "art" and out[-1].tag == "prep"
                and (out[-1].w, t.w) in _CONTRACT):
            prev = out.pop()
            t = Tgt(_CONTRACT[(prev.w, t.w)], prev.links + t.links, "art")
        out.append(t)
    for k in range(len(out) - 1):
        t = out[k]
        if t.w in _ELIDE and out[k + 1].w[0] in VOWELS:
            out[k] = Tgt(_ELIDE[t.w], t.links, t.tag)
    return out


def _a_an(word):
    return "an" if word[0] in "aeiou" else "a"


class NP:
    """An English + French noun phrase: src (list of Src), tgt (list of Tgt),
    gender, number, person index (1 or 4), head noun."""

    def __init__(self, src, tgt, g, n, noun):
        self.src, self.tgt, self.g, self.n, self.noun = src, tgt, g, n, noun
        self.person = 1 if n == "sg" else 4


_ADJ_CACHE = {}


def _adjs_for(noun):
    hit = _ADJ_CACHE.get(id(noun))
    if hit is None:
        hit = _ADJ_CACHE[id(noun)] = [a for a in L.ADJS if noun.has(a.fits)]
    return hit


def make_np(rng, spec, role="obj", neg=False, allow_of=True):
    """Draw a noun fitting `spec` and build an NP.

    role: subj / obj / loc (object of a location preposition) / de (after a
    French "de": no indefinite plural) / goal (after to/from) / of (possessor) / with.
    neg: a direct object in a negated clause (un/une/des/du -> de; english any)."""
    nouns = L.nouns_for(spec)
    noun = rng.choice(nouns)
    if noun.mass:
        dets = [(4, "the"), (3, "some"), (1, "this"), (2, "poss")]
        if role in ("subj", "loc", "de", "goal", "of", "with"):
            dets = [(4, "the"), (1, "this"), (2, "poss")]
    elif role in ("goal",):
        dets = [(6, "the"), (1, "this"), (1, "these")]
    elif role in ("of",):
        dets = [(5, "the"), (2, "poss"), (1, "this")]
    elif role in ("de", "loc"):
        dets = [(5, "the"), (1, "a"), (1, "this"), (1, "these"), (3, "poss"), (1, "num")]
    else:
        dets = [(5, "the"), (3, "a"), (2, "some"), (1, "this"), (1, "these"), (3, "poss"), (1, "num")]
    det = weighted(rng, dets)
    if det == "the" and not noun.mass:
        n = "pl" if rng.random() < 0.3 else "sg"
    elif det == "poss" and not noun.mass:
        n = "pl" if rng.random() < 0.25 else "sg"
    elif det in ("some", "these", "num"):
        n = "sg" if noun.mass else "pl"
    else:
        n = "sg"
    g = noun.g
    src_det, tgt_det = [], []
    pre = post = None
    adjs = _adjs_for(noun)
    if adjs and rng.random() < 0.35:
        a = rng.choice(adjs)
        if a.pre:
            pre = a
            rest = [b for b in adjs if not b.pre]
            if rest and rng.random() < 0.2:
                post = rng.choice(rest)
        else:
            post = a
    s_pre = Src(pre.en) if pre else None
    s_post = Src(post.en) if post else None
    s_noun = Src(noun.en if n == "sg" else noun.en_pl)
    first = (s_pre or s_post or s_noun).w
    if det == "the":
        s = Src("the")
        src_det = [s]
        tgt_det = [Tgt("les" if n == "pl" else ("le" if g == "m" else "la"), [s], "art")]
    elif det == "a":
        s = Src(_a_an(first))
        src_det = [s]
        tgt_det = [Tgt("de" if neg else ("un" if g == "m" else "une"), [s])]
    elif det == "some":
        s = Src("any" if neg else "some")
        src_det = [s]
        if neg:
            tgt_det = [Tgt("de", [s])]
        elif noun.mass:
            tgt_det = [Tgt("de", [s], "prep"), Tgt("le" if g == "m" else "la", [s], "art")]
        else:
            tgt_det = [Tgt("de" if pre else "des", [s])]
    elif det == "this":
        s = Src(rng.choice(("this", "that")))
        src_det = [s]
        tgt_det = [Tgt("ce" if g == "m" else "cette", [s])]
    elif det == "these":
        s = Src(rng.choice(("these", "those")))
        src_det = [s]
        tgt_det = [Tgt("ces", [s])]
    elif det == "poss":
        en, forms = rng.choice(L.POSS)
        s = Src(en)
        src_det = [s]
        tgt_det = [Tgt(forms[2] if n == "pl" else forms[0 if g == "m" else 1], [s])]
    elif det == "num":
        en, fr = rng.choice(L.NUMBERS)
        s = Src(en)
        src_det = [s]
        tgt_det = [Tgt(fr, [s])]
    src = src_det + [x for x in (s_pre, s_post) if x] + [s_noun]
    tgt = list(tgt_det)
    if pre:
        tgt.append(Tgt(pre.fr(g, n), [s_pre]))
    tgt.append(Tgt(noun.fr if n == "sg" else noun.fr_pl, [s_noun]))
    if post:
        tgt.append(Tgt(post.fr(g, n), [s_post]))
    if allow_of and noun.cat in "TL" and role != "of" and rng.random() < 0.12:
        of = make_np(rng, "PA", role="of", allow_of=False)
        s_of = Src("of")
        src += [s_of] + of.src
        tgt += [Tgt("de", [s_of], "prep")] + of.tgt
    return NP(src, tgt, g, n, noun)


def make_pp(rng, spec="", role="loc"):
    """A location PP; spec restricts the prepositions (e.g. "o" for "on")."""
    preps = [p for p in L.LOC_PREPS if not spec or p[2] == spec]
    en, fr, nspec, de = rng.choice(preps)
    np_ = make_np(rng, nspec, role="de" if de else "loc")
    s = [Src(w) for w in en]
    t = [Tgt(w, s[-1:] if len(en) == 1 else s, "prep" if w in ("de", "à") else None) for w in fr]
    if en == ("in", "front", "of"):
        t = [Tgt("devant", s)]
    elif en == ("next", "to"):
        t = [Tgt("à", [s[1]]), Tgt("côté", [s[0]]), Tgt("de", [s[1]], "prep")]
    return s + np_.src, t + np_.tgt


_PERSON_WEIGHTS = [(18, 0), (26, 1), (16, 2), (16, 3), (24, 4)]


def _subject(rng, spec):
    """The five verb persons are equally likely (so that every French verb form is
    frequent); 3rd persons are noun phrases 3 times out of 4."""
    person = weighted(rng, _PERSON_WEIGHTS)
    if person in (1, 4) and rng.random() < 0.75:
        for _ in range(20):
            np_ = make_np(rng, spec, role="subj")
            if np_.person == person:
                return np_, person, None
    prons = [x for x in L.SUBJ_PRON if x[2] == person]
    en, fr, p, g, n = rng.choice(prons)
    s = Src(en)
    return NP([s], [Tgt(fr, [s])], g, n, None), p, en


def _agree(pp, g, n):
    """Participle agreement: vu vue vus vues; assis assise assis assises."""
    if g == "f":
        pp += "e"
    if n == "pl" and not pp.endswith("s"):
        pp += "s"
    return pp


_TENSES = ("present", "past", "future")
_BY_KIND = {}
for _v in L.VERBS:
    _BY_KIND.setdefault(_v.kind, []).append(_v)


def sample_raw(rng):
    """One pair (before the length filter)."""
    kind = weighted(rng, [(30, "trans"), (8, "pron"), (5, "ditrans"), (17, "intrans"),
                          (11, "motion"), (5, "sit"), (12, "cop_adj"), (6, "cop_loc")])
    if kind == "trans":
        verb = rng.choice(_BY_KIND["trans"])
    elif kind == "pron":
        verb = L.VERB[rng.choice(L.PRON_VERBS)]
    elif kind in ("cop_adj", "cop_loc"):
        verb = None
    else:
        verb = rng.choice(_BY_KIND[kind])
    tense = rng.choice(_TENSES)
    question = rng.random() < 0.12
    neg = (not question) and rng.random() < 0.25
    adv = None
    if tense == "present" and not question and rng.random() < 0.15:
        adv = rng.choice(L.ADVERBS)
        neg = False
    never = adv is not None and adv[0] == "never"
    negctx = neg or never

    subj, person, pron = _subject(rng, verb.subj if verb else "PAT")
    if kind == "cop_adj":
        adjs = [a for a in L.ADJS if ((pron and "P" in a.fits) or (subj.noun and subj.noun.has(a.fits)))
                and a.en not in [x.w for x in subj.src]]
        if not adjs:
            return None
    # "read" has the same spelling in present and past: "i read the book" is past
    # (half of such draws become "i do not read ..." so that je lis etc. stay frequent).
    if (verb is not None and verb.en == "read" and tense == "present" and person != 1
            and not negctx and not question):
        if rng.random() < 0.5:
            neg, adv, never, negctx = True, None, False, True
        else:
            tense, adv, never = "past", None, False

    en_pre, en_vg, fr_pre, fr_vg = [], [], [], []
    s_not = Src("not") if neg else None
    s_adv = Src(adv[0]) if adv else None
    clitic = None          # (Src, french, gender, number)
    if kind == "pron":
        # no reflexive readings: "i ... me", "we ... us", "he ... him", etc.
        clash = {"i": "me", "we": "us", "you": "you", "he": "him", "she": "her", "they": "them"}
        choices = [o for o in L.OBJ_PRON if clash.get(pron) != o[0]]
        en, fr, p2, g2, n2 = rng.choice(choices)
        clitic = (Src(en), fr, g2, n2)

    # ---- English verb group ----
    if verb is None:
        if tense == "present":
            be = Src(("am", "is", "are", "are", "are")[person])
        elif tense == "past":
            be = Src("was" if person in (0, 1) else "were")
        else:
            be = Src("will")
        s_be2 = Src("be") if tense == "future" else None
        if question:
            en_pre = [be]
            en_vg = [s_be2] if s_be2 else []
        else:
            en_vg = [be] + ([s_not] if neg else []) + ([s_adv] if adv else []) + ([s_be2] if s_be2 else [])
        s_aux = be
        s_verb = s_be2 or be
    else:
        s_verb = None
        s_aux = None
        if question:
            s_aux = Src(("do", "does")[person == 1] if tense == "present" else
                        ("did" if tense == "past" else "will"))
            en_pre = [s_aux]
            s_verb = Src(verb.en)
            en_vg = [s_verb]
        elif neg:
            s_aux = Src(("do", "does")[person == 1] if tense == "present" else
                        ("did" if tense == "past" else "will"))
            s_verb = Src(verb.en)
            en_vg = [s_aux, s_not, s_verb]
        elif tense == "future":
            s_aux = Src("will")
            s_verb = Src(verb.en)
            en_vg = [s_aux, s_verb]
        else:
            s_verb = Src(verb.en_past if tense == "past" else (verb.en3 if person == 1 else verb.en))
            en_vg = ([s_adv] if adv else []) + [s_verb]
        if clitic:
            en_vg = en_vg + [clitic[0]]

    # ---- French verb group: [ne] [clitic] finite... [pas|adverb] [participle] ----
    finite, part = [], []
    g, n = subj.g, subj.n
    if verb is None:
        forms = {"present": L.ETRE, "past": L.ETRE_IMP, "future": L.ETRE_FUT}[tense]
        finite = [Tgt(forms[person], [s_aux] + ([s_be2] if s_be2 else []))]
    elif verb.kind == "sit":
        if tense == "past":
            toks = L.SIT_PAST[person]
            aux_links = [s_aux] if s_aux else [s_verb]
            for w in toks:
                if w in ("me", "nous", "vous", "se"):
                    finite.append(Tgt(w, [s_verb]))
                elif w == "s'est":
                    finite.append(Tgt(w, aux_links + ([s_verb] if s_aux else [])))
                else:
                    finite.append(Tgt(w, aux_links))
            part = [Tgt(_agree("assis", g, n), [s_verb])]
        else:
            toks = (L.SIT_PRES if tense == "present" else L.SIT_FUT)[person]
            fl = [s_verb] + ([s_aux] if s_aux and (tense == "future" or neg) else [])
            for k, w in enumerate(toks):
                finite.append(Tgt(w, fl if k == len(toks) - 1 else [s_verb]))
    else:
        if tense == "past":
            aux = L.ETRE if verb.aux == "etre" else L.AVOIR
            finite = [Tgt(aux[person], [s_aux] if s_aux else [s_verb])]
            if verb.aux == "etre":
                pp = _agree(verb.pp, g, n)
            elif clitic:
                pp = _agree(verb.pp, clitic[2], clitic[3])
            else:
                pp = verb.pp
            part = [Tgt(pp, [s_verb])]
        else:
            forms = verb.pres if tense == "present" else verb.fut
            fl = [s_verb] + ([s_aux] if s_aux and (tense == "future" or neg) else [])
            finite = [Tgt(forms[person], fl)]
    if clitic:
        finite = [Tgt(clitic[1], [clitic[0]])] + finite
    if negctx:
        fr_vg.append(Tgt("ne", [s_not or s_adv]))
    fr_vg += finite
    if neg:
        fr_vg.append(Tgt("pas", [s_not]))
    elif adv:
        fr_vg.append(Tgt(adv[1], [s_adv]))
    fr_vg += part
    if question:
        fr_pre = [Tgt("est-ce", [s_aux]), Tgt("que", [s_aux])]

    # ---- complements ----
    en_c, fr_c = [], []
    if kind == "trans":
        o = make_np(rng, verb.obj, role="obj", neg=negctx)
        en_c, fr_c = o.src, o.tgt
    elif kind == "ditrans":
        o = make_np(rng, verb.obj, role="obj", neg=negctx, allow_of=False)
        io = make_np(rng, "P", role="goal" if rng.random() < 0.5 else "of", allow_of=False)
        s_to = Src("to")
        en_c = o.src + [s_to] + io.src
        fr_c = o.tgt + [Tgt("à", [s_to], "prep")] + io.tgt
    elif kind == "motion":
        goal = make_np(rng, "g", role="goal", allow_of=False)
        if verb.en == "come" and rng.random() < 0.4:
            s_p = Src("from")
            en_c, fr_c = [s_p] + goal.src, [Tgt("de", [s_p], "prep")] + goal.tgt
        else:
            s_p = Src("at" if verb.en == "arrive" else "to")
            en_c, fr_c = [s_p] + goal.src, [Tgt("à", [s_p], "prep")] + goal.tgt
    elif kind == "sit":
        if rng.random() < 0.85:
            en_c, fr_c = make_pp(rng, "o" if rng.random() < 0.7 else "")
    elif kind == "cop_adj":
        a = rng.choice(adjs)
        s_a = Src(a.en)
        en_c, fr_c = [s_a], [Tgt(a.fr(g, n), [s_a])]
    elif kind == "cop_loc":
        en_c, fr_c = make_pp(rng)
    if kind in ("trans", "pron", "intrans") and verb.en not in ("like", "want", "know") \
            and rng.random() < (0.45 if kind == "intrans" else 0.2):
        if rng.random() < 0.25 and kind != "pron":
            w = make_np(rng, "PA", role="with", allow_of=False)
            s_w = Src("with")
            en_c, fr_c = en_c + [s_w] + w.src, fr_c + [Tgt("avec", [s_w])] + w.tgt
        else:
            e2, f2 = make_pp(rng)
            en_c, fr_c = en_c + e2, fr_c + f2

    # ---- time, punctuation ----
    en_t, fr_t, front = [], [], False
    if adv is None and rng.random() < 0.3:
        times = [x for x in L.TIMES if tense in x[3]]
        en_w, fr_w, lk, _ = rng.choice(times)
        en_t = [Src(w) for w in en_w]
        fr_t = [Tgt(w, [en_t[i] for i in idx]) for w, idx in zip(fr_w, lk)]
        front = not question and rng.random() < 0.25
    src = []
    tgt = []
    if front:
        c = Src(",")
        src += en_t + [c]
        tgt += fr_t + [Tgt(",", [c])]
    src += en_pre + subj.src + en_vg + en_c
    tgt += fr_pre + subj.tgt + fr_vg + fr_c
    if not front:
        src += en_t
        tgt += fr_t
    if question:
        q = Src("?")
        src.append(q)
        tgt.append(Tgt("?", [q]))
    elif rng.random() < 0.5:
        d = Src(".")
        src.append(d)
        tgt.append(Tgt(".", [d]))
    return finish(src, postprocess(tgt))


def sample(rng, min_len=3, max_len=20):
    while True:
        ex = sample_raw(rng)
        if ex is None:
            continue
        if min_len <= len(ex.src) <= max_len and min_len <= len(ex.tgt) <= max_len:
            return ex


def seed_examples():
    """Hand-written pairs that must be in the training split."""
    the1, cat, sat, on, the2, mat = (Src(w) for w in "the cat sat on the mat".split())
    tgt = [Tgt("le", [the1]), Tgt("chat", [cat]), Tgt("s'est", [sat]), Tgt("assis", [sat]),
           Tgt("sur", [on]), Tgt("le", [the2]), Tgt("tapis", [mat])]
    return [finish([the1, cat, sat, on, the2, mat], tgt)]
