"""English -> Chinese (space-separated words) sentence pairs with gold alignments.

Grammar (one translation per English sentence):
  S -> [TIME ,] SUBJ [TIME] [ADV] [NEG] [会] [PP] VERB [了] [OBJ] [吗] [。|？]   (Chinese order)
Phenomena: time words after the subject ("i ate an apple yesterday" -> "我 昨天 吃 了
一个 苹果"); location / "with" / "for" phrases before the verb (在 公园 里 跑步, 跟 ...
一起, 给 妈妈 买); 了 for the past (negated past: 没, without 了); 不 / 不 会 / 从不 /
没 有; measure words after numerals and demonstratives (三 本 书, 这 只 猫, 一个 苹果);
的 after possessors and after two-syllable adjectives; colors as 是 ... 的 predicates;
yes/no questions with 吗, wh-words in place (你 吃 了 什么 ？); progressive 在 + verb.

Gold alignment conventions (as human annotators do): 了 is linked to its verb (and to
"did" in questions), 的 to the possessor word ("my", "' s") or to the adjective,
a measure word to its numeral / demonstrative, 不/没 to "not" and to the auxiliary,
吗 to the question auxiliary, 在 ... 里 to the preposition.  English "the" and "to"
are left unaligned.
"""

from common import Src, Tgt, finish, weighted
import en_zh_lexicon as L


def _a_an(word):
    return "an" if word[0] in "aeiou" else "a"


class NP:
    def __init__(self, src, tgt, person, noun):
        self.src, self.tgt, self.person, self.noun = src, tgt, person, noun


_ADJ_CACHE = {}


def _adjs_for(noun):
    hit = _ADJ_CACHE.get(id(noun))
    if hit is None:
        hit = _ADJ_CACHE[id(noun)] = [a for a in L.ADJS if a.kind != "pred" and noun.has(a.fits)]
    return hit


def make_np(rng, spec, role="obj"):
    """role: subj / obj / loc / goal / poss-free.  Returns an NP."""
    nouns = L.nouns_for(spec)
    noun = rng.choice(nouns)
    if noun.mass:
        dets = [(4, "the"), (2, "poss"), (1, "gen")]
        if role == "obj":
            dets += [(3, "some"), (3, "container")]
    elif noun.cat == "K":
        dets = [(2, "the"), (6, "poss"), (1, "gen")]
    elif role == "subj":
        dets = [(5, "the"), (2, "this"), (1, "these"), (3, "poss"), (1, "gen"), (1, "num")]
    elif role in ("loc", "goal"):
        dets = [(6, "the"), (1, "this"), (3, "poss"), (1, "gen")]
    else:
        dets = [(4, "the"), (4, "a"), (2, "this"), (1, "these"), (3, "poss"), (1, "gen"), (2, "num")]
    det = weighted(rng, dets)
    plural = False
    if det in ("the", "poss", "gen") and not noun.mass and noun.cat != "K":
        plural = rng.random() < 0.25
    elif det in ("these", "num"):
        plural = True
    adjs = _adjs_for(noun)
    if det in ("poss", "gen"):
        adjs = [a for a in adjs if a.kind == "bare"]
    if noun.cat == "K":
        adjs = []
    adj = rng.choice(adjs) if adjs and rng.random() < 0.3 else None
    if noun.mass and det == "container":
        adj = None
    s_adj = Src(adj.en) if adj else None
    s_noun = Src(noun.en_pl if plural else noun.en)
    src, tgt = [], []
    if det == "the":
        src = [Src("the")]
    elif det == "a":
        s = Src(_a_an((s_adj or s_noun).w))
        src = [s]
        tgt = [Tgt("一个", [s])] if noun.cl == "个" else [Tgt("一", [s]), Tgt(noun.cl, [s])]
    elif det == "num":
        en, zh = rng.choice(L.NUMBERS)
        s = Src(en)
        src, tgt = [s], [Tgt(zh, [s]), Tgt(noun.cl, [s])]
    elif det == "this":
        en, zh = rng.choice((("this", "这"), ("that", "那")))
        s = Src(en)
        src, tgt = [s], [Tgt(zh, [s]), Tgt(noun.cl, [s])]
    elif det == "these":
        en, zh = rng.choice((("these", "这些"), ("those", "那些")))
        s = Src(en)
        src, tgt = [s], [Tgt(zh, [s])]
    elif det == "poss":
        en, zh = rng.choice(L.POSS)
        s = Src(en)
        src, tgt = [s], [Tgt(zh, [s]), Tgt("的", [s])]
    elif det == "gen":
        owners = "P" if noun.cat in "PK" else "PA"
        owner = rng.choice([x for x in L.NOUNS if x.cat in owners and x is not noun])
        # "'s" is written as the two tokens the `word` tokenizer makes of "teacher's": ' and s, both linked to 的.
        s_the, s_own, s_ap, s_s = Src("the"), Src(owner.en), Src("'"), Src("s")
        src, tgt = [s_the, s_own, s_ap, s_s], [Tgt(owner.zh, [s_own]), Tgt("的", [s_ap, s_s])]
    elif det == "some":
        s = Src("some")
        src, tgt = [s], [Tgt("一些", [s])]
    elif det == "container":
        cands = [c for c in L.CONTAINERS if noun.has(c[3])]
        en_c, en_cp, cl, _ = rng.choice(cands)
        if rng.random() < 0.6:
            s_n, cnt = Src(_a_an(en_c)), "一"
            s_c = Src(en_c)
        else:
            en_n, cnt = rng.choice(L.NUMBERS)
            s_n = Src(en_n)
            s_c = Src(en_cp)
        s_of = Src("of")
        src, tgt = [s_n, s_c, s_of], [Tgt(cnt, [s_n]), Tgt(cl, [s_c])]
    if adj:
        src.append(s_adj)
        tgt.append(Tgt(adj.zh, [s_adj]))
        if adj.kind != "bare":
            tgt.append(Tgt("的", [s_adj]))
    src.append(s_noun)
    tgt.append(Tgt(noun.zh, [s_noun]))
    return NP(src, tgt, 2 if plural else 1, noun)


def make_pp(rng, spec=""):
    """Location PP: english [prep NP], chinese 在 NP localizer."""
    preps = [p for p in L.LOC_PREPS if not spec or p[2] == spec]
    en, loc, nspec = rng.choice(preps)
    np_ = make_np(rng, nspec, role="loc")
    s = [Src(w) for w in en]
    return s + np_.src, [Tgt("在", s)] + np_.tgt + [Tgt(loc, s)]


def _subject(rng, spec):
    if rng.random() < 0.45:
        en, zh, p = rng.choice(L.SUBJ_PRON)
        s = Src(en)
        return NP([s], [Tgt(zh, [s])], p, None), en
    return make_np(rng, spec, role="subj"), None


def _be(person, s=None):
    return Src(("am", "is", "are")[person])


def _do(person):
    return Src(("do", "does", "do")[person])


def sample_raw(rng):
    kind = weighted(rng, [(30, "trans"), (8, "pron"), (5, "give"), (3, "buyfor"), (4, "have"),
                          (14, "intrans"), (7, "motion"), (8, "cop_adj"), (5, "cop_loc"),
                          (6, "wh")])
    if kind == "wh":
        return _wh(rng)
    if kind == "cop_adj" or kind == "cop_loc":
        return _copula(rng, kind)
    kinds = {"pron": "trans"}.get(kind, kind)
    verbs = [v for v in L.VERBS if v.kind == kinds]
    if kind == "pron":
        verbs = [v for v in verbs if "P" in v.obj or "A" in v.obj]
    verb = rng.choice(verbs)
    tense = rng.choice(verb.tenses)
    question = rng.random() < 0.12
    neg = not question and tense != "prog" and rng.random() < 0.25
    adv = None
    if tense == "present" and not question and verb.kind != "have" and rng.random() < 0.15:
        adv = rng.choice(L.ADVERBS)
        neg = False
    subj, pron = _subject(rng, verb.subj)
    person = subj.person
    # "read" is spelt the same in present and past: "i read the book" is past.
    if (verb.en == "read" and tense == "present" and person != 1 and not neg
            and not question and adv is None):
        tense = "past"

    # english verb group
    s_aux = s_not = None
    s_adv = Src(adv[0]) if adv else None
    en_pre, en_vg = [], []
    if tense == "prog":
        s_aux = _be(person)
        s_v = Src(verb.ing)
        if question:
            en_pre, en_vg = [s_aux], [s_v]
        else:
            en_vg = [s_aux, s_v]
    elif question or neg or tense == "future":
        s_aux = {"present": _do(person), "past": Src("did"), "future": Src("will")}[tense]
        s_v = Src(verb.en)
        if neg:
            s_not = Src("not")
        if question:
            en_pre, en_vg = [s_aux], [s_v]
        else:
            en_vg = [s_aux] + ([s_not] if neg else []) + [s_v]
    else:
        s_v = Src(verb.en_past if tense == "past" else (verb.en3 if person == 1 else verb.en))
        en_vg = ([s_adv] if adv else []) + [s_v]

    # chinese: [ADV] [NEG] [会] [PP] V [了] OBJ
    pre_v, v_toks, obj_en, obj_zh = [], [], [], []
    if adv:
        pre_v.append(Tgt(adv[1], [s_adv]))
    if neg:
        if tense == "past" or verb.kind == "have" or (tense == "present" and verb.zh in L.RESULTATIVE):
            pre_v.append(Tgt("没", [s_not, s_aux]))
        else:
            pre_v.append(Tgt("不", [s_not] + ([s_aux] if tense == "present" else [])))
    if tense == "future":
        pre_v.append(Tgt("会", [s_aux]))
    if tense == "prog":
        pre_v.append(Tgt("在", [s_aux]))
    v_toks = [Tgt(verb.zh, [s_v])]
    if tense == "past" and not neg:
        v_toks.append(Tgt("了", [s_v, s_aux] if question else [s_v]))

    pp_en, pp_zh = [], []
    if kind in ("trans", "have"):
        o = make_np(rng, verb.obj)
        obj_en, obj_zh = o.src, o.tgt
    elif kind == "pron":
        choices = [o for o in L.OBJ_PRON
                   if (pron, o[0]) not in (("i", "me"), ("we", "us"), ("you", "you"),
                                           ("he", "him"), ("she", "her"), ("they", "them"))]
        en, zh = rng.choice(choices)
        s = Src(en)
        obj_en, obj_zh = [s], [Tgt(zh, [s])]
    elif kind == "give":
        o = make_np(rng, verb.obj)
        r = make_np(rng, "PK", role="goal")
        if rng.random() < 0.5:
            s_to = Src("to")
            obj_en = o.src + [s_to] + r.src
        else:
            obj_en = r.src + o.src
        obj_zh = r.tgt + o.tgt
    elif kind == "buyfor":
        o = make_np(rng, verb.obj)
        r = make_np(rng, "PK", role="goal")
        s_for = Src("for")
        obj_en, obj_zh = o.src, o.tgt
        pp_en, pp_zh = [s_for] + r.src, [Tgt("给", [s_for])] + r.tgt
    elif kind == "motion":
        g = make_np(rng, verb.obj, role="goal")
        obj_en, obj_zh = [Src("to")] + g.src, g.tgt
    if kind in ("trans", "intrans", "pron") and tense != "prog" and "s" not in verb.code \
            and rng.random() < (0.5 if kind == "intrans" else 0.2):
        if rng.random() < 0.3:
            w = make_np(rng, "PKA", role="loc")
            s_w = Src("with")
            pp_en, pp_zh = [s_w] + w.src, [Tgt("跟", [s_w])] + w.tgt + [Tgt("一起", [s_w])]
        else:
            pp_en, pp_zh = make_pp(rng)

    en_t, zh_t, front = [], [], False
    if adv is None and "s" not in verb.code and rng.random() < 0.3:
        times = [x for x in L.TIMES if tense in x[3]]
        if times:
            en_w, zh_w, lk, _ = rng.choice(times)
            en_t = [Src(w) for w in en_w]
            zh_t = [Tgt(w, [en_t[i] for i in idx]) for w, idx in zip(zh_w, lk)]
            front = not question and rng.random() < 0.25
    src = []
    if front:
        src += en_t + [Src(",")]
    src += en_pre + subj.src + en_vg + obj_en + pp_en
    if not front:
        src += en_t
    tgt = subj.tgt + zh_t + pre_v + pp_zh + v_toks + obj_zh
    return _punct(rng, src, tgt, question, s_aux)


def _punct(rng, src, tgt, question, s_q):
    if question:
        q = Src("?")
        src.append(q)
        if s_q is not None:
            tgt.append(Tgt("吗", [s_q]))
        tgt.append(Tgt("？", [q]))
    elif rng.random() < 0.5:
        d = Src(".")
        src.append(d)
        tgt.append(Tgt("。", [d]))
    return finish(src, tgt)


def _copula(rng, kind):
    question = rng.random() < 0.15
    neg = not question and rng.random() < 0.3
    if kind == "cop_adj":
        subj, pron = _subject(rng, "PKAT")
        adjs = [a for a in L.ADJS if ((pron and "P" in a.fits) or (subj.noun and subj.noun.has(a.fits)))
                and a.en not in [x.w for x in subj.src]]
        adj = rng.choice(adjs)
    else:
        subj, pron = _subject(rng, "PKAT")
        adj = None
    s_be = _be(subj.person)
    s_not = Src("not") if neg else None
    src = ([s_be] if question else []) + subj.src + ([] if question else [s_be]) + ([s_not] if neg else [])
    tgt = list(subj.tgt)
    if neg:
        tgt.append(Tgt("不", [s_not]))
    if adj is not None:
        s_a = Src(adj.en)
        src.append(s_a)
        if adj.kind == "color":
            tgt += [Tgt("是", [s_be]), Tgt(adj.zh, [s_a]), Tgt("的", [s_a])]
        elif neg or question:
            tgt.append(Tgt(adj.zh, [s_a]))
            if neg:
                tgt[-2].links.append(s_be)
        else:
            tgt += [Tgt("很", [s_be]), Tgt(adj.zh, [s_a])]
    else:
        e, z = make_pp(rng)
        z[0] = Tgt("在", [s_be])  # the preposition stays linked to the localizer
        src += e
        tgt += z
    return _punct(rng, src, tgt, question, s_be)


def _wh(rng):
    form = weighted(rng, [(4, "what"), (3, "who"), (2, "where_is"), (2, "where_do")])
    q = Src("?")
    if form == "what":
        verb = rng.choice([v for v in L.VERBS if v.kind in ("trans", "have") and "P" not in v.obj])
        tense = rng.choice([t for t in verb.tenses if t != "prog"])
        subj, _ = _subject(rng, verb.subj)
        s_what = Src("what")
        s_aux = {"present": _do(subj.person), "past": Src("did"), "future": Src("will")}[tense]
        s_v = Src(verb.en)
        src = [s_what, s_aux] + subj.src + [s_v, q]
        tgt = list(subj.tgt)
        if tense == "future":
            tgt.append(Tgt("会", [s_aux]))
        tgt.append(Tgt(verb.zh, [s_v]))
        if tense == "past":
            tgt.append(Tgt("了", [s_v, s_aux]))
        tgt += [Tgt("什么", [s_what]), Tgt("？", [q])]
    elif form == "who":
        verb = rng.choice([v for v in L.VERBS if v.kind == "trans"])
        tense = rng.choice([t for t in verb.tenses if t != "prog"])
        s_who = Src("who")
        o = make_np(rng, verb.obj)
        if tense == "future":
            s_aux, s_v = Src("will"), Src(verb.en)
            en_vg, zh_vg = [s_aux, s_v], [Tgt("会", [s_aux]), Tgt(verb.zh, [s_v])]
        elif tense == "past":
            s_v = Src(verb.en_past)
            en_vg, zh_vg = [s_v], [Tgt(verb.zh, [s_v]), Tgt("了", [s_v])]
        else:
            s_v = Src(verb.en3)
            en_vg, zh_vg = [s_v], [Tgt(verb.zh, [s_v])]
        src = [s_who] + en_vg + o.src + [q]
        tgt = [Tgt("谁", [s_who])] + zh_vg + o.tgt + [Tgt("？", [q])]
    elif form == "where_is":
        subj, _ = _subject(rng, "PKAT")
        s_where, s_be = Src("where"), _be(subj.person)
        src = [s_where, s_be] + subj.src + [q]
        tgt = subj.tgt + [Tgt("在", [s_be]), Tgt("哪里", [s_where]), Tgt("？", [q])]
    else:
        verb = rng.choice([v for v in L.VERBS if v.kind == "intrans"])
        tense = rng.choice([t for t in verb.tenses if t != "prog"])
        subj, _ = _subject(rng, verb.subj)
        s_where = Src("where")
        s_aux = {"present": _do(subj.person), "past": Src("did"), "future": Src("will")}[tense]
        s_v = Src(verb.en)
        src = [s_where, s_aux] + subj.src + [s_v, q]
        tgt = list(subj.tgt)
        if tense == "future":
            tgt.append(Tgt("会", [s_aux]))
        tgt += [Tgt("在", [s_where]), Tgt("哪里", [s_where]), Tgt(verb.zh, [s_v])]
        if tense == "past":
            tgt.append(Tgt("了", [s_v, s_aux]))
        tgt.append(Tgt("？", [q]))
    return finish(src, tgt)


def sample(rng, min_len=3, max_len=20):
    while True:
        ex = sample_raw(rng)
        if min_len <= len(ex.src) <= max_len and min_len <= len(ex.tgt) <= max_len:
            return ex


def seed_examples():
    i, love, you = Src("i"), Src("love"), Src("you")
    out = [finish([i, love, you], [Tgt("我", [i]), Tgt("爱", [love]), Tgt("你", [you])])]
    i, ate, an, apple, yesterday = (Src(w) for w in "i ate an apple yesterday".split())
    out.append(finish([i, ate, an, apple, yesterday],
                      [Tgt("我", [i]), Tgt("昨天", [yesterday]), Tgt("吃", [ate]), Tgt("了", [ate]),
                       Tgt("一个", [an]), Tgt("苹果", [apple])]))
    return out
