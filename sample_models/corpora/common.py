"""Shared helpers for the corpus generators: aligned token builders and split writing.

A sentence pair is built from `Src` objects (source words, in source order) and
`Tgt` objects (target words, in target order); each `Tgt` carries the list of
`Src` objects it is aligned to.  Identity (not spelling) of the `Src` objects
decides the links, so two "the" in one sentence never get confused.
"""

import os


class Src:
    """One source word."""

    __slots__ = ("w",)

    def __init__(self, w):
        self.w = w

    def __repr__(self):
        return "Src(%r)" % self.w


class Tgt:
    """One target word aligned to the source words in `links`.

    `tag` is a grammatical label some post-processing steps look at (for example
    French contractions only merge a preposition with a *definite article*).
    """

    __slots__ = ("w", "links", "tag")

    def __init__(self, w, links, tag=None):
        self.w = w
        self.links = list(links)
        self.tag = tag

    def __repr__(self):
        return "Tgt(%r, %r)" % (self.w, [s.w for s in self.links])


class Pair:
    """A finished example: source words, target words, sorted (i, j) links."""

    __slots__ = ("src", "tgt", "align")

    def __init__(self, src, tgt, align):
        self.src = src
        self.tgt = tgt
        self.align = align

    @property
    def source(self):
        return " ".join(self.src)

    @property
    def target(self):
        return " ".join(self.tgt)

    def line(self):
        if self.align is None:
            return "%s\t%s" % (self.source, self.target)
        return "%s\t%s\t%s" % (self.source, self.target,
                               " ".join("%d-%d" % ij for ij in self.align))


def finish(src, tgt):
    """Turn lists of Src / Tgt into a Pair with Pharaoh links."""
    pos = {}
    for i, s in enumerate(src):
        pos[id(s)] = i
    links = set()
    for j, t in enumerate(tgt):
        if not t.links:
            raise ValueError("unaligned target word %r in %r" % (t.w, [x.w for x in tgt]))
        for s in t.links:
            i = pos.get(id(s))
            if i is None:
                raise ValueError("link to a word not in the source: %r" % (s,))
            links.add((i, j))
    for s in src + tgt:
        if len(s.w.split()) != 1 or s.w.split()[0] != s.w:
            raise ValueError("bad token %r" % (s.w,))
    return Pair([s.w for s in src], [t.w for t in tgt], sorted(links))


def weighted(rng, items):
    """items: list of (weight, value). Deterministic given rng."""
    total = sum(w for w, _ in items)
    r = rng.random() * total
    acc = 0.0
    for w, v in items:
        acc += w
        if r < acc:
            return v
    return items[-1][1]


def make_splits(sample, rng, n_train, n_valid, n_test, fixed_train=(), max_tries_factor=50):
    """Draw examples with `sample(rng)`; every source sentence appears at most once
    over all three splits.  `fixed_train` examples are put into train (at positions
    drawn from rng) and never into valid/test.  Returns (train, valid, test)."""
    seen = set()
    for ex in fixed_train:
        seen.add(ex.source)

    def draw(n):
        out = []
        tries = 0
        while len(out) < n:
            tries += 1
            if tries > max_tries_factor * (n + 10):
                raise RuntimeError("grammar too small: cannot draw %d distinct sentences" % n)
            ex = sample(rng)
            key = ex.source
            if key in seen:
                continue
            seen.add(key)
            out.append(ex)
        return out

    test = draw(n_test)
    valid = draw(n_valid)
    fixed = list(fixed_train)[:n_train]
    train = draw(n_train - len(fixed))
    for ex in fixed:
        train.insert(rng.randrange(len(train) + 1), ex)
    return train, valid, test


def write_split(path, examples):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for ex in examples:
            f.write(ex.line())
            f.write("\n")


class LexiconNoun:
    """Shared by the en_fr and en_zh noun tables: `cat` is one category letter (upper case: "M" = mass noun), `flags`
    lower-case letters; `has(spec)` is true when the noun has any of spec's letters (memoised, the generators ask
    the same questions millions of times)."""

    __slots__ = ()
    _has_cache = {}

    @property
    def mass(self):
        return self.cat == "M"

    def has(self, spec):
        key = (id(self), spec)
        hit = LexiconNoun._has_cache.get(key)
        if hit is None:
            hit = LexiconNoun._has_cache[key] = any(
                (c.isupper() and c == self.cat) or (c.islower() and c in self.flags) for c in spec)
        return hit


def en_plural(w):
    """Regular English plural: box -> boxes, city -> cities, day -> days, cat -> cats."""
    if w.endswith(("s", "sh", "ch", "x")):
        return w + "es"
    if w.endswith("y") and w[-2] not in "aeiou":
        return w[:-1] + "ies"
    return w + "s"
