#!/usr/bin/python3
"""One training update of attnviz-cli on a Marian folder against the same update by PyTorch's autograd, on the
reference written from the shared spec marian.md (python/marian_reference.py), in float64.

`attnviz-cli train --init FOLDER --steps 1 --optimizer sgd --label-smoothing E` over a batch of a few lines writes the
updated folder. PyTorch computes from the folder's weights the objective of docs/cli.md's --label-smoothing:
    Σ over the batch's target pieces (</s> included) of (1 − E)·(−log p(y)) + E·mean over every piece of −log p,
    divided by the number of pieces (training's log p covers every output, <pad> included, as transformers' loss
    with labels; only decoding removes <pad>): torch.nn.CrossEntropyLoss(label_smoothing=E),
its gradient by autograd (a tied table is one tensor, so its gradient sums every use), drops the gradient of the
target table's <pad> row and of its logits bias (kept fixed in training: docs/marian.md), and steps θ − lr·∇. Every
stored tensor of the two updated folders agrees to 1e-5 · (1 + |θ|).

Folders: one `attnviz-cli train` writes (one table shared by both sides and the output, swish), and two of random
weights in the Hugging Face form (scripts/make_marian_folder.py): a table per side, and an output layer of its own.

    /usr/bin/python3 bench/pytorch_marian_train_check.py --cli build/dev/app/attnviz-cli

Exit 0 when the updates agree, 1 when they do not, 77 (a CTest skip) when torch does not import or the SentencePiece
tools are not installed.
"""
import argparse
import os
import subprocess
import sys
import tempfile

from pytorch_marian_check import (CASES, SOURCE_WORDS, TARGET_WORDS, run_cli, tool, train_spm,  # noqa: E402
                                  trained_folders, write_folder)

import torch  # noqa: E402  (pytorch_marian_check exits 77 when it does not import)
from marian_folder import load_config, load_weights  # noqa: E402
from marian_reference import MarianReference  # noqa: E402

TOLERANCE = 1e-5
LR, SMOOTHING = 0.5, 0.1
PAIRS = [("the cat sat on the mat", "le chat assis sur le tapis"),
         ("a big dog ran to the old house", "un grand chien couru vers la vieille maison"),
         ("the child likes bread", "l'enfant aime pain")]


def attnviz_update(cli, folder, workdir):
    """The folder attnviz-cli writes after one SGD update on PAIRS."""
    corpus = os.path.join(workdir, "step.tsv")
    with open(corpus, "w", encoding="utf-8") as f:
        f.writelines(f"{s}\t{t}\n" for s, t in PAIRS)
    out = os.path.join(workdir, os.path.basename(folder) + "-step")
    subprocess.run([cli, "train", "--init", folder, "--data", corpus, "--out", out, "--steps", "1", "--optimizer",
                    "sgd", "--lr", str(LR), "--batch-size", str(len(PAIRS)), "--no-shuffle", "--label-smoothing",
                    str(SMOOTHING), "--threads", "1", "--quiet"], check=True, capture_output=True)
    return out


def reference_update(cli, folder):
    """name -> the tensor after PyTorch's update of the same objective, float64."""
    ref = MarianReference(folder, torch.float64)
    weights, _ = load_weights(folder, ref.cfg)  # tied names share one tensor object
    leaves = {}
    for name, t in weights.items():
        if id(t) not in leaves:
            leaves[id(t)] = t.to(torch.float64).clone().requires_grad_(True)
        ref.w[name] = leaves[id(t)]
    ref.log_softmax = lambda logits: torch.log_softmax(logits, dim=-1)  # training's objective: every output
    total, count = 0, 0
    for sentence, reference in PAIRS:
        ids = run_cli(cli, "decode", "--model", folder, "--json", "--target", reference, sentence)
        target = ids["target_ids"]
        lp = ref.forced(ids["source_ids"], target)["log_probs"]  # (T, V)
        nll = -lp[torch.arange(len(target)), torch.tensor(target)]
        smooth = -lp.mean(dim=1)
        total = total + ((1 - SMOOTHING) * nll + SMOOTHING * smooth).sum()
        count += len(target)
    (total / count).backward()
    pad = ref.cfg.pad
    ref.w["model.decoder.embed_tokens.weight"].grad[pad] = 0  # the decoder's first input: fixed
    ref.w["final_logits_bias"].grad[0, pad] = 0
    # a tensor the objective does not read (stored positions, a buffer) stays as it is
    return {name: (t if t.grad is None else t - LR * t.grad).detach() for name, t in ref.w.items() if t.requires_grad}


def check(cli, folder, name, workdir):
    ours_folder = attnviz_update(cli, folder, workdir)
    ours, _ = load_weights(ours_folder, load_config(ours_folder))
    theirs = reference_update(cli, folder)
    before, _ = load_weights(folder, load_config(folder))
    worst, moved, failures = 0.0, 0.0, []
    for key, want in theirs.items():
        got = ours[key].to(torch.float64)
        diff = float(((got - want).abs() / (1 + want.abs())).max())
        worst = max(worst, diff)
        moved = max(moved, float((want - before[key].to(torch.float64)).abs().max()))
        if not diff <= TOLERANCE:
            failures.append(f"{name}: {key} differs by {diff:.3g} (relative)")
    if moved < 1e-3:
        failures.append(f"{name}: the update hardly moved any weight ({moved:.3g}): the check would see nothing")
    print(f"{name}: {len(theirs)} tensors, largest relative difference {worst:.2g}, largest step {moved:.2g}")
    for f in failures:
        print(f"FAIL {f}")
    return not failures


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cli", required=True, help="the attnviz-cli binary")
    a = p.parse_args()
    torch.set_num_threads(1)
    for program in ("spm_train", "spm_encode", "spm_decode"):
        tool(program)
    ok = True
    with tempfile.TemporaryDirectory() as workdir:
        trained, *_ = next(trained_folders(a.cli, workdir))
        ok &= check(a.cli, trained, "trained by attnviz-cli train (shared, tied)", workdir)
        src_spm, src_pieces = train_spm(workdir, "source", SOURCE_WORDS, 1)
        tgt_spm, tgt_pieces = train_spm(workdir, "target", TARGET_WORDS, 2)
        for case, name in ((4, "random, a table per side"), (3, "random, gelu_new, an output layer of its own")):
            folder = os.path.join(workdir, f"case{case}")
            write_folder(folder, CASES[case][0], pieces=src_pieces + tgt_pieces, source_spm=src_spm,
                         target_spm=tgt_spm)
            ok &= check(a.cli, folder, name, workdir)
    print("OK: attnviz's update equals PyTorch's" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
