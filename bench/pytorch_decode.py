#!/usr/bin/python3
"""The decoding benchmark of bench_decode.cpp in eager PyTorch, for comparison.

Same sizes (small: E=64, H_e=64, H_d=128, V=500; large: E=256, H_e=256, H_d=512, V=8000), one sentence at a time,
S = 12 source tokens, 11 target steps: greedy (argmax over the log-softmax, <pad>/<sos> masked, no early stop) and
forced (teacher forcing on an 11-token reference). Modules are those of spec/model-format.md (state_dict keys match).
Prints the median per-sentence time with 1 and 2 threads; with --attnviz FILE (the JSON of
`bench_decode --benchmark_format=json`) also the ratio PyTorch / attnviz.

    /usr/bin/python3 bench/pytorch_decode.py   (Debian python3-torch 1.13) [--repeats 200] [--attnviz build/.../bench.json]
"""
import argparse
import json
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

SIZES = {"Small": (64, 64, 128, 500), "Large": (256, 256, 512, 8000)}
SOS, EOS = 2, 3


class Encoder(nn.Module):
    def __init__(self, V, E, He, Hd):
        super().__init__()
        self.embedding = nn.Embedding(V, E)
        self.rnn = nn.GRU(E, He, bidirectional=True)
        self.fc = nn.Linear(2 * He, Hd)

    def forward(self, src):  # src (S, 1)
        out, h = self.rnn(self.embedding(src))  # out (S, 1, 2He); h (2, 1, He) = [f_{S-1}, b_0]
        s0 = torch.tanh(self.fc(torch.cat((h[-2], h[-1]), dim=1)))
        return out, s0


class Additive(nn.Module):
    def __init__(self, He, Hd):
        super().__init__()
        self.attn = nn.Linear(Hd + 2 * He, Hd)
        self.v = nn.Linear(Hd, 1, bias=False)

    def forward(self, s, enc):  # s (1, Hd), enc (S, 1, 2He)
        S = enc.shape[0]
        e = self.v(torch.tanh(self.attn(torch.cat((s.unsqueeze(1).repeat(1, S, 1), enc.permute(1, 0, 2)), dim=2))))
        return F.softmax(e.squeeze(2), dim=1)  # (1, S)


class General(nn.Module):
    def __init__(self, He, Hd):
        super().__init__()
        self.W = nn.Linear(2 * He, Hd, bias=False)

    def forward(self, s, enc):
        e = torch.bmm(self.W(enc.permute(1, 0, 2)), s.unsqueeze(2)).squeeze(2)
        return F.softmax(e, dim=1)


class Bahdanau(nn.Module):
    def __init__(self, V, E, He, Hd):
        super().__init__()
        self.attention = Additive(He, Hd)
        self.embedding = nn.Embedding(V, E)
        self.rnn = nn.GRU(E + 2 * He, Hd)
        self.fc_out = nn.Linear(Hd + 2 * He + E, V)

    def forward(self, y, s, enc, state):  # y (1,), s (1, Hd)
        x = self.embedding(y)  # (1, E)
        a = self.attention(s, enc)  # (1, S)
        c = torch.bmm(a.unsqueeze(1), enc.permute(1, 0, 2)).squeeze(1)  # (1, 2He)
        out, h = self.rnn(torch.cat((x, c), dim=1).unsqueeze(0), s.unsqueeze(0))
        s = h.squeeze(0)
        return F.log_softmax(self.fc_out(torch.cat((s, c, x), dim=1)), dim=1), s, a, state


class Luong(nn.Module):
    def __init__(self, V, E, He, Hd):
        super().__init__()
        self.attention = General(He, Hd)
        self.embedding = nn.Embedding(V, E)
        self.rnn = nn.GRU(E, Hd)
        self.combine = nn.Linear(2 * He + Hd, Hd, bias=False)
        self.fc_out = nn.Linear(Hd, V)

    def forward(self, y, s, enc, state):
        x = self.embedding(y)
        out, h = self.rnn(x.unsqueeze(0), s.unsqueeze(0))
        s = h.squeeze(0)
        a = self.attention(s, enc)
        c = torch.bmm(a.unsqueeze(1), enc.permute(1, 0, 2)).squeeze(1)
        ht = torch.tanh(self.combine(torch.cat((c, s), dim=1)))
        return F.log_softmax(self.fc_out(ht), dim=1), s, a, state


class Seq2Seq(nn.Module):
    def __init__(self, kind, V, E, He, Hd):
        super().__init__()
        self.encoder = Encoder(V, E, He, Hd)
        self.decoder = (Bahdanau if kind == "Bahdanau" else Luong)(V, E, He, Hd)

    def greedy(self, src, steps):
        enc, s = self.encoder(src)
        y = torch.tensor([SOS])
        out = []
        for _ in range(steps):
            lp, s, a, _ = self.decoder(y, s, enc, None)
            lp[:, 0] = float("-inf")  # never <pad> / <sos>
            lp[:, SOS] = float("-inf")
            y = lp.argmax(dim=1)
            out.append((int(y), a))
        return out

    def forced(self, src, ref):
        enc, s = self.encoder(src)
        y = torch.tensor([SOS])
        total = 0.0
        for t in ref:
            lp, s, a, _ = self.decoder(y, s, enc, None)
            total += float(lp[0, t])
            y = torch.tensor([t])
        return total


def median_ms(fn, repeats):
    """(wall, cpu) medians in ms; cpu is the process's CPU time (all threads), robust to a loaded machine."""
    for _ in range(max(3, repeats // 10)):
        fn()
    wall, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        fn()
        wall.append(time.perf_counter() - t0)
        cpu.append(time.process_time() - c0)
    return statistics.median(wall) * 1e3, statistics.median(cpu) * 1e3


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
            model = Seq2Seq(kind, V, E, He, Hd).eval()
            with torch.no_grad():
                model.decoder.fc_out.bias[EOS] = -1e4  # as bench_decode.cpp: no early <eos>
            src = torch.tensor([SOS] + [4 + (i * 37) % (V - 4) for i in range(10)] + [EOS]).unsqueeze(1)
            ref = [4 + (i * 53 + 11) % (V - 4) for i in range(10)] + [EOS]
            for mode in ("greedy", "forced"):
                fn = (lambda: model.greedy(src, 11)) if mode == "greedy" else (lambda: model.forced(src, ref))
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
