#!/usr/bin/env python3
"""A training corpus with longer pairs made by joining two of its own pairs (concatenation augmentation).

    python3 sample_models/corpora/concat_pairs.py --input train.tsv --output train-concat.tsv \
        [--fraction 0.5] [--seed 1] [--attribution train.attribution.txt]

Tatoeba's sentences are short (224 of the 27,155 training sources have 14 words or more), so a model trained on them
alone has seldom read a long sentence and tends to lose the thread of one. This writes every input line unchanged,
then round(fraction x lines) extra pairs (fraction 0 to 4): each joins a line picked without replacement within
its round of `lines` joins with another line picked uniformly (never itself), the English halves with one space and
the Chinese halves with nothing between them, as a reader would write two sentences in a row. Only the training split is joined; validation and test stay as they are.

Input and output are attnviz corpus TSVs of two columns, `English<TAB>Chinese` (UTF-8, LF). With --attribution, the
input's attribution file (one line per pair) is extended the same way into OUTPUT's name with `.tsv` replaced by
`.attribution.txt`, a joined pair's line naming both. The same input, fraction and seed give the same bytes.
Lines that are not two non-empty tab-separated columns are refused with a message naming the line (1-based).
Standard library only.
"""

import argparse
import contextlib
import os
import random
import sys

MAX_FRACTION = 4  # a round of joins per unit: more would mostly repeat the corpus's sentences in new company


def read_pairs(path):
    """The (English, Chinese) pairs of a two-column corpus TSV; raises ValueError naming the first bad line."""
    pairs = []
    with open(path, encoding="utf-8", newline="\n") as f:
        for number, line in enumerate(f, 1):
            columns = line.rstrip("\n").split("\t")
            if len(columns) != 2 or not columns[0].strip() or not columns[1].strip():
                raise ValueError(f"{path}:{number}: expected two non-empty tab-separated columns")
            pairs.append((columns[0], columns[1]))
    return pairs


def read_lines(path, count):
    with open(path, encoding="utf-8", newline="\n") as f:
        lines = [line.rstrip("\n") for line in f]
    if len(lines) != count:
        raise ValueError(f"{path}: {len(lines)} lines, but the corpus has {count} pairs")
    return lines


def joined_indices(count, fraction, seed):
    """(first, second) line indices of the pairs to join: firsts without replacement within a round, second != first.

    A fraction above 1 takes several rounds of up to `count` pairs each; round k draws with seed + k, so a larger
    fraction keeps every pair a smaller one joined and adds more after them.
    """
    extra = round(fraction * count)
    if count < 2 or extra == 0:
        return []
    joined = []
    for round_number in range((extra + count - 1) // count):
        rng = random.Random(seed + round_number)
        firsts = rng.sample(range(count), min(extra - len(joined), count))
        for first in firsts:
            second = rng.randrange(count - 1)
            joined.append((first, second + 1 if second >= first else second))
    return joined


def join_pair(first, second):
    return (first[0] + " " + second[0], first[1] + second[1])


def write_atomically(path, lines):
    temporary = path + ".part"
    try:
        with open(temporary, "w", encoding="utf-8", newline="\n") as f:
            for line in lines:
                f.write(line + "\n")
            f.flush()
            os.fsync(f.fileno())
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise


def attribution_path(output):
    stem = output[:-4] if output.endswith(".tsv") else output
    return stem + ".attribution.txt"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True)
    parser.add_argument("--output", required=True)
    parser.add_argument("--fraction", type=float, default=0.5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--attribution")
    args = parser.parse_args(argv)
    if not 0 <= args.fraction <= MAX_FRACTION:
        parser.error(f"--fraction must lie in [0, {MAX_FRACTION}]")
    try:
        pairs = read_pairs(args.input)
        attributions = read_lines(args.attribution, len(pairs)) if args.attribution else None
    except (OSError, UnicodeDecodeError, ValueError) as error:
        print(f"concat_pairs: {error}", file=sys.stderr)
        return 1
    joined = joined_indices(len(pairs), args.fraction, args.seed)
    rows = pairs + [join_pair(pairs[a], pairs[b]) for a, b in joined]
    try:
        write_atomically(args.output, [english + "\t" + chinese for english, chinese in rows])
        if attributions is not None:
            extra = [attributions[a] + "; " + attributions[b] for a, b in joined]
            write_atomically(attribution_path(args.output), attributions + extra)
    except OSError as error:
        print(f"concat_pairs: {error}", file=sys.stderr)
        return 1
    print(f"{args.output}: {len(pairs)} pairs and {len(joined)} joined ones", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
