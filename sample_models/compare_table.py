#!/usr/bin/env python3
"""Writes the table of attention distances between every pair of sibling models of each task (compare.md).

    compare_table.py CLI MODELS_DIR CORPORA_DIR OUT.md [TASK ...]

For each task (default: every task with models in MODELS_DIR), every unordered pair of its models is compared with
`attnviz-cli compare --model A --with B --data CORPORA_DIR/TASK/test.tsv --json`. The test lines carry references, so
both models are forced onto the same reference and the measures are symmetric in A and B. The table gives the
averages over all attention rows (docs/cli.md "compare"): total variation (0..1), Jensen-Shannon divergence (nats,
0..ln 2), the share of rows whose argmax agrees, each model's mean row entropy (nats) and, where the test split has
gold links, each model's AER. OUT.md is replaced atomically.
"""
import itertools
import json
import os
import subprocess
import sys
import tempfile


def models_by_task(folder):
    tasks = {}
    for name in sorted(os.listdir(folder)):
        if name.endswith(".safetensors"):
            tasks.setdefault(name.split("-", 1)[0], []).append(name[: -len(".safetensors")])
    return tasks


def compare(cli, folder, data, a, b):
    out = subprocess.run(
        [cli, "compare", "--model", os.path.join(folder, a + ".safetensors"),
         "--with", os.path.join(folder, b + ".safetensors"), "--data", data, "--json"],
        check=True, capture_output=True, text=True)
    return json.loads(out.stdout)["average"]


def fmt(value, digits=3):
    return "-" if value is None else f"{value:.{digits}f}"


def task_table(cli, folder, corpora, task, names):
    """The markdown section of one task (at least two models)."""
    data = os.path.join(corpora, task, "test.tsv")
    rows, avg = [], {}
    for a, b in itertools.combinations(names, 2):
        avg = compare(cli, folder, data, a, b)
        print(f"compared {a} with {b}", file=sys.stderr)
        rows.append(
            f"| `{a.split('-', 1)[1]}` | `{b.split('-', 1)[1]}` | {fmt(avg['tv'])} | {fmt(avg['js'])} | "
            f"{100 * avg['argmax_agreement']:.1f} % | {fmt(avg['entropy_a'], 2)} / {fmt(avg['entropy_b'], 2)} | "
            f"{fmt(avg.get('aer_a'))} / {fmt(avg.get('aer_b'))} |")
    # Every pair is forced onto the same references: the same lines and rows.
    head = [f"## {task} ({avg['lines']} test lines, {avg['rows']} attention rows per model)", "",
            "| A | B | TV | JS (nats) | argmax agrees | entropy A / B (nats) | AER A / B |",
            "| --- | --- | --- | --- | --- | --- | --- |"]
    return head + rows + [""]


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__.strip().splitlines()[2].strip())
    cli, folder, corpora, out = sys.argv[1:5]
    wanted = sys.argv[5:]
    tasks = models_by_task(folder)
    text = ["# Attention distances between sibling models", "",
            "Made by `sample_models/build.sh --compare` (`compare_table.py`): for every pair of models of a task,",
            "`attnviz-cli compare` on the task's test split, both models forced onto the reference. Means over all",
            "attention rows; TV = total-variation distance (0 = the same rows, 1 = disjoint), JS = Jensen-Shannon",
            "divergence in nats (natural log; at most ln 2 = 0.693); specials (`<sos>`, `<eos>`) are columns like any",
            "other. AER is each model's alignment error rate against the gold links (word tasks only).", ""]
    for task in sorted(tasks):
        if wanted and task not in wanted:
            continue
        if not os.path.exists(os.path.join(corpora, task, "test.tsv")):
            print(f"{task}: no {os.path.join(corpora, task, 'test.tsv')}, skipped", file=sys.stderr)
            continue
        if len(tasks[task]) < 2:
            continue
        text += task_table(cli, folder, corpora, task, tasks[task])
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(out)), prefix=".compare-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write("\n".join(text))
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
