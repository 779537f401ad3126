#!/usr/bin/python3
"""The decoding benchmark of bench_decode.cpp in eager PyTorch, for comparison.

Same sizes (small: E=64, H_e=64, H_d=128, V=500; large: E=256, H_e=256, H_d=512, V=8000), one sentence at a time,
S = 12 source tokens, 11 target steps: greedy (argmax over the log-softmax, <pad>/<sos> masked, no early stop) and
forced (teacher forcing on an 11-token reference). The modules are python/attnviz_torch.py's (docs/model-format.md).
Prints the median per-sentence time with 1 and 2 threads; with --attnviz FILE (the JSON of
`bench_decode --benchmark_format=json`) also the ratio PyTorch / attnviz.

    /usr/bin/python3 bench/pytorch_decode.py   (Debian python3-torch 1.13) [--repeats 200] [--attnviz build/.../bench.json]
"""
import argparse
import json
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from attnviz_torch import Seq2Seq  # noqa: E402
from torch_timing import timed  # noqa: E402

SIZES = {"Small": (64, 64, 128, 500), "Large": (256, 256, 512, 8000)}
SOS, EOS = 2, 3
KINDS = {"Bahdanau": ("bahdanau", "additive"), "Luong": ("luong", "general")}


def make_model(kind, V, E, He, Hd):
    decoder, score = KINDS[kind]
    config = {"decoder": decoder, "score": score, "emb_dim": E, "enc_hid_dim": He, "dec_hid_dim": Hd}
    return Seq2Seq(config, V, V).eval()


def greedy(model, src, steps):
    """argmax over the log-softmax, <pad>/<sos> masked, no early stop."""
    enc, s = model.encoder(src)
    y, feed, out = torch.tensor([SOS]), None, []
    for t in range(1, steps + 1):
        logits, s, a, feed = model.decoder(y, s, enc, None, t, feed)
        lp = F.log_softmax(logits, dim=1)
        lp[:, 0] = float("-inf")  # never <pad> / <sos>
        lp[:, SOS] = float("-inf")
        y = lp.argmax(dim=1)
        out.append((int(y), a))
    return out


def forced(model, src, ref):
    enc, s = model.encoder(src)
    y, feed, total = torch.tensor([SOS]), None, 0.0
    for t, token in enumerate(ref, start=1):
        logits, s, a, feed = model.decoder(y, s, enc, None, t, feed)
        total += float(F.log_softmax(logits, dim=1)[0, token])
        y = torch.tensor([token])
    return total


def median_ms(fn, repeats):
    """(wall, cpu) medians in ms; cpu is the process's CPU time (all threads), robust to a loaded machine."""
    wall, cpu = timed(fn, repeats, max(3, repeats // 10))
    return wall * 1e3, cpu * 1e3


def attnviz_medians(path):
    """(wall, cpu) median per benchmark name (ms) from Google Benchmark JSON ("greedy/Small_Luong_General")."""
    with open(path, encoding="utf-8") as f:
        data = json.load(f)
    scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}
    out = {}
    for b in data["benchmarks"]:
        if b.get("aggregate_name") == "median":
            name = b["run_name"].split("/repeats:")[0]
            out[name] = (b["real_time"] * scale[b["time_unit"]], b["cpu_time"] * scale[b["time_unit"]])
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=200)
    ap.add_argument("--attnviz", help="bench_decode --benchmark_format=json output, for ratios")
    args = ap.parse_args()
    ours = attnviz_medians(args.attnviz) if args.attnviz else {}
    torch.manual_seed(0)
    print(f"torch {torch.__version__}; median ms per sentence (S=12, 11 steps), wall / CPU time")
    print(f"{'benchmark':34} {'pt 1 thr':>15} {'pt 2 thr':>15} {'attnviz':>15} {'pt1/ours':>13} {'pt2/ours':>13}")
    for size, (E, He, Hd, V) in SIZES.items():
        for kind, score in (("Bahdanau", "Additive"), ("Luong", "General")):
            model = make_model(kind, V, E, He, Hd)
            with torch.no_grad():
                model.decoder.fc_out.bias[EOS] = -1e4  # as bench_decode.cpp: no early <eos>
            src = torch.tensor([SOS] + [4 + (i * 37) % (V - 4) for i in range(10)] + [EOS]).unsqueeze(1)
            ref = [4 + (i * 53 + 11) % (V - 4) for i in range(10)] + [EOS]
            for mode in ("greedy", "forced"):
                fn = (lambda: greedy(model, src, 11)) if mode == "greedy" else (lambda: forced(model, src, ref))
                row = []
                for threads in (1, 2):
                    torch.set_num_threads(threads)
                    with torch.inference_mode():
                        row.append(median_ms(fn, args.repeats))
                name = f"{mode}/{size}_{kind}_{score}"
                mine = ours.get(name)
                cell = lambda t: f"{t[0]:7.3f}/{t[1]:7.3f}"
                extra = ""
                if mine:
                    ratio = lambda t: f"{t[0] / mine[0]:6.1f}/{t[1] / mine[1]:6.1f}"
                    extra = f" {cell(mine)} {ratio(row[0]):>13} {ratio(row[1]):>13}"
                print(f"{name:34} {cell(row[0])} {cell(row[1])}{extra}", flush=True)


if __name__ == "__main__":
    main()
