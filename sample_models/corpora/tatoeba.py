#!/usr/bin/env python3
"""The Tatoeba English-Chinese corpus as attnviz corpus TSVs, split deterministically.

    python3 sample_models/corpora/tatoeba.py --out DIR [--input CMN] [--seed 1] [--valid 1000] [--test 1000]

reads CMN (default: sample_models/tatoeba/cmn.txt.xz; `.xz`, `.gz` or plain text), the Tatoeba export
`English<TAB>Chinese<TAB>attribution`, and writes DIR/tatoeba/{train,valid,test}.tsv (`English<TAB>Chinese`, UTF-8,
LF; the text as in the corpus, untokenized: the model's tokenizers split it) and, line for line beside each, the
pair's attribution in {train,valid,test}.attribution.txt (CC-BY 2.0 FR asks that it travel with the data).

The split is decided by the English sentence: all translations of one English sentence (compared case-folded, with
whitespace runs as one space) fall into the same split. Sentences are ordered by SHA-256 of "seed:sentence"; walking
that order, a sentence's group of lines goes to test if it fits in the lines test still lacks, else to valid if it
fits there, else to train. Same input and seed -> same bytes.

Bad lines are skipped with a message on stderr naming the line (1-based): an empty line, a line of other than three
tab-separated columns, invalid UTF-8, an empty English or Chinese side. Standard library only.
"""

import argparse
import gzip
import hashlib
import lzma
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_INPUT = os.path.join(os.path.dirname(HERE), "tatoeba", "cmn.txt.xz")
SPLITS = ("train", "valid", "test")


class Pair:
    """One corpus line: English, Chinese, attribution, and its 1-based line number in the input."""

    __slots__ = ("english", "chinese", "attribution", "line")

    def __init__(self, english, chinese, attribution, line):
        self.english = english
        self.chinese = chinese
        self.attribution = attribution
        self.line = line


def read_bytes(path):
    opener = lzma.open if path.endswith(".xz") else gzip.open if path.endswith(".gz") else open
    with opener(path, "rb") as f:
        return f.read()


def parse(data, name, warn):
    """[Pair] of the good lines of `data` (bytes); `warn(message)` gets one message per skipped line."""
    pairs = []
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()  # the newline that ends the last line starts no line of its own
    for number, raw in enumerate(lines, start=1):
        raw = raw[:-1] if raw.endswith(b"\r") else raw
        where = "%s:%d" % (name, number)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            warn("%s: invalid UTF-8 at byte %d of the line (%s), line skipped" % (where, e.start, e.reason))
            continue
        if not text.strip():
            warn("%s: empty line, skipped" % where)
            continue
        columns = text.split("\t")
        if len(columns) != 3:
            warn("%s: %d tab-separated column(s), expected 3 (English, Chinese, attribution), line skipped"
                 % (where, len(columns)))
            continue
        english, chinese, attribution = (c.strip() for c in columns)
        if not english or not chinese:
            warn("%s: empty %s sentence, line skipped" % (where, "English" if not english else "Chinese"))
            continue
        pairs.append(Pair(english, chinese, attribution, number))
    return pairs


def english_key(sentence):
    """What makes two English sentences 'the same sentence' for the split."""
    return " ".join(sentence.casefold().split())


def split(pairs, seed=1, n_valid=1000, n_test=1000):
    """{"train": [Pair], "valid": [...], "test": [...]}, each in input order; see the module's docstring."""
    groups = {}
    for p in pairs:
        groups.setdefault(english_key(p.english), []).append(p)
    order = sorted(groups, key=lambda k: hashlib.sha256(("%d:%s" % (seed, k)).encode("utf-8")).digest())
    wanted = {"test": n_test, "valid": n_valid}
    where = {}
    for key in order:
        size = len(groups[key])
        name = next((s for s in ("test", "valid") if size <= wanted[s]), "train")
        if name != "train":
            wanted[name] -= size
        where[key] = name
    out = {s: [] for s in SPLITS}
    for p in pairs:
        out[where[english_key(p.english)]].append(p)
    return out


def write(out_dir, splits):
    folder = os.path.join(out_dir, "tatoeba")
    os.makedirs(folder, exist_ok=True)
    for name in SPLITS:
        with open(os.path.join(folder, name + ".tsv"), "w", encoding="utf-8", newline="\n") as f:
            f.writelines("%s\t%s\n" % (p.english, p.chinese) for p in splits[name])
        with open(os.path.join(folder, name + ".attribution.txt"), "w", encoding="utf-8", newline="\n") as f:
            f.writelines(p.attribution + "\n" for p in splits[name])
    return folder


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output directory (the files go to OUT/tatoeba/)")
    ap.add_argument("--input", default=DEFAULT_INPUT, help="the corpus (.xz, .gz or plain; default: %(default)s)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--valid", type=int, default=1000, help="validation lines (default 1000)")
    ap.add_argument("--test", type=int, default=1000, help="test lines (default 1000)")
    args = ap.parse_args(argv)
    try:
        data = read_bytes(args.input)
    except (OSError, EOFError, lzma.LZMAError) as e:
        print("%s: cannot read: %s" % (args.input, e), file=sys.stderr)
        return 1
    pairs = parse(data, os.path.basename(args.input), lambda m: print(m, file=sys.stderr))
    splits = split(pairs, args.seed, args.valid, args.test)
    if len(splits["valid"]) < args.valid or len(splits["test"]) < args.test:
        print("%s: %d good lines, too few for %d validation and %d test lines"
              % (args.input, len(pairs), args.valid, args.test), file=sys.stderr)
        return 1
    folder = write(args.out, splits)
    print("tatoeba: %s -> %s" % ("/".join(str(len(splits[s])) for s in SPLITS), folder), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
