#!/usr/bin/env python3
"""Fills docs/explain.md's knockout table (between its markers): does taking away the word attention points at change
the translation more often than taking away the word occlusion ranks first?

    knockout_table.py CLI MODELS_DIR CORPORA_DIR DOC.md [--lines N] [--seed S] [--json OUT.json]

For every Tatoeba model of MODELS_DIR (tatoeba-*.safetensors), on the first N lines (default 200) of
CORPORA_DIR/tatoeba/test.tsv (sources only, as sample_models/build.sh makes the split):
1. `attnviz-cli explain --method occlusion --input SOURCES --json` gives each line's greedy output y, its attention
   (T x S) and occlusion (T x S) on that output.
2. For every row t, three source words (positions 1..n, the specials left out; ties: the lower position):
   the most attended one (argmax of attention[t]), the one occlusion ranks first (argmax of occlusion[t]), and a
   seeded random one (the floor).
3. Each chosen word is knocked out (`attnviz-cli decode --knockout J --input ... --json`: its scores are -inf before
   every softmax over the source, at every row) and the sentence decoded again, greedy.
4. Per row: did the token at row t change (a shorter output counts as changed), and did anything from row t on
   change? Rates over every row of every line, and the share of rows where attention and occlusion chose the same
   word. A knockout is a whole decode, so one decode per (line, word) serves every row that chose that word.
The part of DOC.md between `<!-- knockout-table -->` and `<!-- /knockout-table -->` is replaced (atomically).
"""
import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

BEGIN, END = "<!-- knockout-table -->", "<!-- /knockout-table -->"
PICKS = ["attention", "occlusion", "random"]


def jsonl(cli, args):
    out = subprocess.run([cli] + args + ["--json"], check=True, capture_output=True, text=True)
    return [json.loads(line) for line in out.stdout.splitlines() if line.strip()]


def argmax_word(row):
    """The word position (1..n) with the largest value; ties: the lower position. None when n = 0."""
    best = None
    for j in range(1, len(row) - 1):
        v = row[j]
        if v is not None and (best is None or v > row[best]):
            best = j
    return best


def write_lines(folder, name, lines):
    path = os.path.join(folder, name)
    with open(path, "w", encoding="utf-8") as f:
        for s in lines:
            f.write(s + "\n")
    return path


def changed(orig, new, t):
    """(token t changed, anything from row t on changed); a missing row counts as changed."""
    at = t >= len(new) or new[t] != orig[t]
    after = new[t:] != orig[t:]
    return at, after


def study(cli, model, sources, seed, folder):
    plain = jsonl(cli, ["explain", "--model", model, "--method", "occlusion", "--input",
                        write_lines(folder, "sources.txt", sources)])
    rng = random.Random(seed)
    picks = []  # per line: per row, {pick: position}
    need = {}   # position J -> lines needing it
    for i, d in enumerate(plain):
        att, occ = d["attention"], d["explanations"]["occlusion"]
        n = len(d["source_tokens"]) - 2
        rows = []
        for t in range(len(d["target_tokens"])):
            if n == 0:
                continue
            p = {"attention": argmax_word(att[t]), "occlusion": argmax_word(occ[t]), "random": rng.randint(1, n)}
            rows.append((t, p))
            for j in p.values():
                need.setdefault(j, set()).add(i)
        picks.append(rows)
    knocked = {}  # (line, J) -> target tokens
    for j, lines in sorted(need.items()):
        order = sorted(lines)
        path = write_lines(folder, f"knock{j}.txt", [sources[i] for i in order])
        for i, d in zip(order, jsonl(cli, ["decode", "--model", model, "--knockout", str(j), "--input", path])):
            knocked[(i, j)] = d["target_tokens"]
    counts = {"rows": 0, "same": 0}
    for p in PICKS:
        counts[p + "_at"] = counts[p + "_after"] = 0
    for i, rows in enumerate(picks):
        orig = plain[i]["target_tokens"]
        for t, p in rows:
            counts["rows"] += 1
            counts["same"] += p["attention"] == p["occlusion"]
            for name, j in p.items():
                at, after = changed(orig, knocked[(i, j)], t)
                counts[name + "_at"] += at
                counts[name + "_after"] += after
    counts["lines"] = len(plain)
    return counts


def pct(a, b):
    return f"{100.0 * a / b:.1f} %" if b else "-"


def table(rows):
    out = ["| model | lines | rows | same word | row t changes: attention | occlusion | random "
           "| from row t on: attention | occlusion | random |",
           "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    for name, c in rows:
        r = c["rows"]
        out.append(f"| {name} | {c['lines']} | {r} | {pct(c['same'], r)} | "
                   + " | ".join(pct(c[p + "_at"], r) for p in PICKS) + " | "
                   + " | ".join(pct(c[p + "_after"], r) for p in PICKS) + " |")
    return "\n".join(out)


def replace_between(doc_path, text):
    with open(doc_path, encoding="utf-8") as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"{doc_path}: no {BEGIN} … {END} markers")
    new = doc[: doc.index(BEGIN) + len(BEGIN)] + "\n" + text + "\n" + doc[doc.index(END):]
    fd, tmp_path = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(doc_path)), prefix=".knockout-",
                                    suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(new)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp_path, doc_path)
    except BaseException:
        os.unlink(tmp_path)
        raise


def main():
    p = argparse.ArgumentParser()
    p.add_argument("cli")
    p.add_argument("models")
    p.add_argument("corpora")
    p.add_argument("doc")
    p.add_argument("--lines", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--json", help="also write the counts here")
    a = p.parse_args()
    with open(os.path.join(a.corpora, "tatoeba", "test.tsv"), encoding="utf-8") as f:
        sources = [line.split("\t")[0] for line in f if line.strip()][: a.lines]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(a.models)):
            if not (name.startswith("tatoeba-") and name.endswith(".safetensors")):
                continue
            print(f"{name} ...", file=sys.stderr)
            rows.append((name[: -len(".safetensors")], study(a.cli, os.path.join(a.models, name), sources, a.seed, tmp)))
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump(dict(rows), f, indent=1)
    replace_between(a.doc, table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())
