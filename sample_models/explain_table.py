#!/usr/bin/env python3
"""Fills docs/explain.md's table of the explanation methods on the shipped models (between its markers).

    explain_table.py CLI MODELS_DIR CORPORA_DIR DOC.md [--lines N] [--seed S]

For every model of MODELS_DIR, `attnviz-cli eval --explain all --json` on its task's whole test split
(CORPORA_DIR/TASK/test.tsv, as sample_models/build.sh makes them), or on its first N lines with --lines N (a quicker
look, not a sample: the Tatoeba split is ordered by length, so its first lines are its shortest sentences): each
method's AER (where the split has gold links: en_fr, en_zh), AOPC with the random order's beside it, and Spearman
against occlusion. The part of DOC.md between `<!-- explain-table -->` and `<!-- /explain-table -->` is replaced;
the file is written atomically.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

BEGIN, END = "<!-- explain-table -->", "<!-- /explain-table -->"
METHODS = ["attention", "norm", "grad_input", "grad_norm", "ig", "occlusion", "rollout"]


def fmt(v, digits=3):
    return "-" if v is None else f"{v:.{digits}f}"


def measure(cli, model, data, seed):
    out = subprocess.run([cli, "eval", "--model", model, "--data", data, "--explain", "all", "--seed", str(seed),
                          "--json"], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


def head(path, lines, folder):
    cut = os.path.join(folder, os.path.basename(os.path.dirname(path)) + ".tsv")
    with open(path, encoding="utf-8") as src, open(cut, "w", encoding="utf-8") as dst:
        for i, line in enumerate(src):
            if lines and i >= lines:
                break
            dst.write(line)
    return cut


def table(rows):
    out = ["| model | lines | measure | " + " | ".join(METHODS) + " | random |",
           "| --- | --- | --- | " + " | ".join("---" for _ in METHODS) + " | --- |"]
    for name, r in rows:
        e = r["explain"]
        measures = [("AOPC", "aopc"), ("ρ occlusion", "occlusion_spearman")]
        if r.get("aligned_lines"):
            measures.insert(0, ("AER", "aer"))
        for label, key in measures:
            cells = [fmt(e[m].get(key)) if m in e else "" for m in METHODS]
            rand = fmt(e["random"]["aopc"]) if key == "aopc" else ""
            out.append(f"| {name} | {r['lines']} | {label} | " + " | ".join(cells) + f" | {rand} |")
    return "\n".join(out)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("cli")
    p.add_argument("models")
    p.add_argument("corpora")
    p.add_argument("doc")
    p.add_argument("--lines", type=int, default=0, help="the first N lines of each split (default: all)")
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in sorted(os.listdir(a.models)):
            if not name.endswith(".safetensors"):
                continue
            task = name.split("-", 1)[0]
            data = os.path.join(a.corpora, task, "test.tsv")
            if not os.path.exists(data):
                print(f"{name}: no {data}, skipped", file=sys.stderr)
                continue
            print(f"{name} ...", file=sys.stderr)
            rows.append((name[: -len(".safetensors")],
                         measure(a.cli, os.path.join(a.models, name), head(data, a.lines, tmp), a.seed)))
    with open(a.doc, encoding="utf-8") as f:
        doc = f.read()
    if BEGIN not in doc or END not in doc:
        sys.exit(f"{a.doc}: no {BEGIN} … {END} markers")
    text = doc[: doc.index(BEGIN) + len(BEGIN)] + "\n" + table(rows) + "\n" + doc[doc.index(END):]
    folder = os.path.dirname(os.path.abspath(a.doc))
    fd, tmp_path = tempfile.mkstemp(dir=folder, prefix=".explain-", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp_path, a.doc)
    except BaseException:
        os.unlink(tmp_path)
        raise
    return 0


if __name__ == "__main__":
    sys.exit(main())
