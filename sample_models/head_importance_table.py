#!/usr/bin/env python3
"""Fills docs/explain.md's head importance tables (between their markers) for one Transformer on one split.

    head_importance_table.py CLI MODEL DATA.tsv DOC.md [--json OUT.json]

1. `attnviz-cli eval --head-importance --json` on DATA: the plain model's BLEU and, for every head, its BLEU and mean
   reference log-probability with that head alone removed, and its gradient importance (docs/explain.md).
   Written between `<!-- head-importance-table -->` and `<!-- /head-importance-table -->`, most BLEU lost first.
2. Cumulative removal, in two fixed orders of "least important first": (a) by the BLEU lost when the head alone is
   removed (least first; ties: the least mean log-probability lost), (b) by gradient importance (smallest first).
   For k = 1 .. heads, the first k heads of the order are removed *together* (`eval --head-off` with all k) and BLEU
   measured again. The order is fixed from the single-head numbers; it is not re-ranked after each removal.
   (c) greedy: at each k every head still on is tried with the k − 1 already removed, and the one whose removal
   leaves the highest BLEU goes (ties: the earlier head in order (a)). That is heads + (heads − 1) + … evaluations;
   `--greedy-until P` stops once the best removal falls more than P BLEU points below the plain model (0: never).
   Written between `<!-- head-removal-table -->` and `<!-- /head-removal-table -->`, with the largest k whose BLEU
   (and every smaller k's) stays within one point of the plain model's.
Each part of DOC.md is replaced atomically.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def run_eval(cli, model, data, extra):
    out = subprocess.run([cli, "eval", "--model", model, "--data", data, "--json"] + extra, check=True,
                         capture_output=True, text=True)
    return json.loads(out.stdout)


def head_name(h):
    return f"{h['kind']} {h['layer']},{h['head']}"


def head_off_args(heads):
    args = []
    for h in heads:
        args += ["--head-off", f"{h['kind']}:{h['layer']},{h['head']}"]
    return args


def importance_table(base, heads):
    rows = sorted(heads, key=lambda h: (h["bleu_off"], h["mean_log_prob_off"]))
    out = ["| head (kind layer,head from 0) | BLEU off | ΔBLEU | mean log p off | Δ mean log p | gradient importance |",
           "| --- | --- | --- | --- | --- | --- |"]
    for h in rows:
        out.append(f"| {head_name(h)} | {h['bleu_off']:.2f} | {h['bleu_off'] - base['bleu']:+.2f} | "
                   f"{h['mean_log_prob_off']:.4f} | {h['mean_log_prob_off'] - base['mean_log_prob']:+.4f} | "
                   f"{h['importance']:.4f} |")
    return "\n".join(out)


def removal(cli, model, data, order):
    curve = []
    for k in range(1, len(order) + 1):
        r = run_eval(cli, model, data, head_off_args(order[:k]))
        curve.append(r["bleu"])
        print(f"  {k} heads off: BLEU {r['bleu']:.2f}", file=sys.stderr)
    return curve


def greedy_removal(cli, model, data, order, base_bleu, until):
    """Order (c): the head to remove next is the one that leaves the highest BLEU with those already removed."""
    removed, curve, left = [], [], list(order)
    while left:
        scores = [run_eval(cli, model, data, head_off_args(removed + [h]))["bleu"] for h in left]
        best = max(range(len(left)), key=lambda i: (scores[i], -i))
        removed.append(left.pop(best))
        curve.append(scores[best])
        print(f"  {len(removed)} heads off (greedy): {head_name(removed[-1])}, BLEU {scores[best]:.2f}", file=sys.stderr)
        if until > 0 and scores[best] < base_bleu - until:
            break
    return removed, curve


def kept_within(base, curve, points=1.0):
    k = 0
    while k < len(curve) and curve[k] >= base - points:
        k += 1
    return k


def removal_table(base, orders):
    names = list(orders)
    out = ["| heads removed | " + " | ".join(f"order {n}: head added | BLEU" for n in names) + " |",
           "| --- | " + " | ".join("--- | ---" for _ in names) + " |"]
    count = max(len(curve) for _, curve in orders.values())
    heads = len(next(iter(orders.values()))[0])
    for k in range(count):
        cells = []
        for n in names:
            order, curve = orders[n]
            cells.append(f"{head_name(order[k])} | {curve[k]:.2f}" if k < len(curve) else "|")
        out.append(f"| {k + 1} | " + " | ".join(cells) + " |")
    out.append("")
    for n in names:
        order, curve = orders[n]
        out.append(f"- order {n}: {kept_within(base['bleu'], curve)} of {heads} heads removed together before BLEU "
                   f"falls more than one point below {base['bleu']:.2f}")
    return "\n".join(out)


def replace_between(doc, begin, end, text):
    if begin not in doc or end not in doc:
        sys.exit(f"no {begin} … {end} markers")
    return doc[: doc.index(begin) + len(begin)] + "\n" + text + "\n" + doc[doc.index(end):]


def write_atomically(path, text):
    fd, tmp_path = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".heads-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp_path, path)
    except BaseException:
        os.unlink(tmp_path)
        raise


def main():
    p = argparse.ArgumentParser()
    p.add_argument("cli")
    p.add_argument("model")
    p.add_argument("data")
    p.add_argument("doc")
    p.add_argument("--json", help="also write the numbers here")
    p.add_argument("--greedy-until", type=float, default=0.0,
                   help="stop the greedy order once BLEU falls this many points below the plain model (0: never)")
    a = p.parse_args()
    r = run_eval(a.cli, a.model, a.data, ["--head-importance"])
    heads = r["heads"]
    # the plain model's mean log p of the references: the forced decodes eval does not report, from the CLI's decode
    base = {"bleu": r["bleu"], "mean_log_prob": mean_log_prob(a.cli, a.model, a.data)}
    by_bleu = sorted(heads, key=lambda h: (-h["bleu_off"], -h["mean_log_prob_off"]))
    by_grad = sorted(heads, key=lambda h: h["importance"])
    print("order (a): single-head BLEU lost", file=sys.stderr)
    curve_a = removal(a.cli, a.model, a.data, by_bleu)
    print("order (b): gradient importance", file=sys.stderr)
    curve_b = removal(a.cli, a.model, a.data, by_grad)
    print("order (c): greedy", file=sys.stderr)
    by_greedy, curve_c = greedy_removal(a.cli, a.model, a.data, by_bleu, base["bleu"], a.greedy_until)
    orders = {"(a)": (by_bleu, curve_a), "(b)": (by_grad, curve_b), "(c)": (by_greedy, curve_c)}
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"base": base, "heads": heads, "order_a": [head_name(h) for h in by_bleu], "bleu_a": curve_a,
                       "order_b": [head_name(h) for h in by_grad], "bleu_b": curve_b,
                       "order_c": [head_name(h) for h in by_greedy], "bleu_c": curve_c}, f, indent=1)
    with open(a.doc, encoding="utf-8") as f:
        doc = f.read()
    doc = replace_between(doc, "<!-- head-importance-table -->", "<!-- /head-importance-table -->",
                          importance_table(base, heads))
    doc = replace_between(doc, "<!-- head-removal-table -->", "<!-- /head-removal-table -->",
                          removal_table(base, orders))
    write_atomically(a.doc, doc)
    return 0


def mean_log_prob(cli, model, data):
    """Σ log p(ref_t) / Σ reference tokens (<eos> included) of the plain model: `decode --input` forces each line's
    reference."""
    out = subprocess.run([cli, "decode", "--model", model, "--input", data, "--json"], check=True,
                         capture_output=True, text=True)
    total, tokens = 0.0, 0
    for line in out.stdout.splitlines():
        if line.strip():
            d = json.loads(line)
            total += d["total_log_prob"]
            tokens += len(d["target_ids"])
    return total / tokens


if __name__ == "__main__":
    sys.exit(main())
