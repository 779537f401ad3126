#!/usr/bin/env python3
"""Deterministic parallel corpora with gold word alignments for attnviz.

    python3 sample_models/corpora/generate.py --out DIR [--seed 1] [--task en_fr|en_zh|dates|all]

writes DIR/<task>/{train,valid,test}.tsv: UTF-8, one `source<TAB>target<TAB>alignment`
line per pair (Pharaoh links "i-j", 0-based source word i to target word j over
whitespace-separated words; the dates task has no alignment column).
Same seed -> same bytes.  No source sentence occurs twice across or within splits.
Standard library only.
"""

import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from common import make_splits, write_split  # noqa: E402
import dates  # noqa: E402
import en_fr  # noqa: E402
import en_zh  # noqa: E402

TASKS = {"en_fr": en_fr, "en_zh": en_zh, "dates": dates}
TASK_INDEX = {"en_fr": 1, "en_zh": 2, "dates": 3}
SIZES = {"train": 20000, "valid": 1000, "test": 1000}


def generate(task, seed=1, n_train=SIZES["train"], n_valid=SIZES["valid"], n_test=SIZES["test"]):
    """Returns {"train": [Pair], "valid": [...], "test": [...]} for one task."""
    mod = TASKS[task]
    rng = random.Random(seed * 1000003 + TASK_INDEX[task])
    train, valid, test = make_splits(mod.sample, rng, n_train, n_valid, n_test,
                                     fixed_train=mod.seed_examples())
    return {"train": train, "valid": valid, "test": test}


def write_task(out, task, seed=1, **sizes):
    splits = generate(task, seed, **sizes)
    for name in ("train", "valid", "test"):
        write_split(os.path.join(out, task, name + ".tsv"), splits[name])
    return splits


def char_tokens(text):
    """The `char` tokenizer of model-format.md: code points, whitespace runs -> U+2581."""
    out = []
    for c in text:
        if c.isspace():
            if not out or out[-1] != "\u2581":
                out.append("\u2581")
        else:
            out.append(c)
    return out


def stats(task, splits, out=sys.stdout):
    """Print vocabulary sizes and the length distribution of the train split."""
    tok = (lambda s: char_tokens(s.lower())) if task == "dates" else (lambda s: s.split())
    train = splits["train"]
    print("== %s ==" % task, file=out)
    for side, name in ((0, "source"), (1, "target")):
        seqs = [tok(p.source if side == 0 else p.target) for p in train]
        vocab = {w for s in seqs for w in s}
        lens = [len(s) for s in seqs]
        hist = {}
        for n in lens:
            hist[n] = hist.get(n, 0) + 1
        print("%s: %d distinct tokens in train; length min %d mean %.1f max %d" % (
            name, len(vocab), min(lens), sum(lens) / len(lens), max(lens)), file=out)
        print("  lengths: " + " ".join("%d:%d" % (k, hist[k]) for k in sorted(hist)), file=out)
    held = [p for k in ("valid", "test") for p in splits[k]]
    for side, name in ((0, "source"), (1, "target")):
        vocab = {w for p in train for w in tok(p.source if side == 0 else p.target)}
        unseen = sum(any(w not in vocab for w in tok(p.source if side == 0 else p.target))
                     for p in held)
        print("%s: %d valid/test lines hold a token not seen in train" % (name, unseen), file=out)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True, help="output directory")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--task", default="all", choices=sorted(TASKS) + ["all"])
    ap.add_argument("--train", type=int, default=SIZES["train"], help="train pairs (default 20000)")
    ap.add_argument("--valid", type=int, default=SIZES["valid"])
    ap.add_argument("--test", type=int, default=SIZES["test"])
    ap.add_argument("--stats", action="store_true",
                    help="print vocabulary sizes and length distributions")
    args = ap.parse_args(argv)
    tasks = ["en_fr", "en_zh", "dates"] if args.task == "all" else [args.task]
    for task in tasks:
        t0 = time.time()
        splits = write_task(args.out, task, args.seed, n_train=args.train, n_valid=args.valid,
                            n_test=args.test)
        print("%s: %d/%d/%d pairs -> %s (%.1f s)" % (task, args.train, args.valid, args.test,
                                                    os.path.join(args.out, task), time.time() - t0),
              file=sys.stderr)
        if args.stats:
            stats(task, splits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
