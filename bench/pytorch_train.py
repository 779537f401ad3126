#!/usr/bin/env python3
"""Training throughput of the classic PyTorch seq2seq tutorial model (bentrevett/pytorch-seq2seq, "Packed Padded
Sequences, Masking"): bidirectional GRU encoder over packed padded batches, additive attention with a source mask,
GRU decoder, teacher forcing, CrossEntropyLoss(ignore_index=<pad>), Adam, clip_grad_norm_(1.0).

The same work as bench/bench_train.cpp: E=64, H_e=64, H_d=128, 500-word vocabularies, batch 64, sentences of 12 tokens
(10 words + <sos>/<eos> on both sides: 11 target positions each), dropout 0. Prints one JSON line with the median
target tokens/s of each thread count (1 and 2) and the best of them; also tokens per CPU-second (process time, all
threads), which is robust to other load on the machine.

Run with Debian's python3-torch: /usr/bin/python3 bench/pytorch_train.py [--steps N] [--repeats R]
"""
import argparse
import json
import statistics
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

E, HE, HD, V, B, WORDS = 64, 64, 128, 500, 64, 10
PAD, SOS, EOS = 0, 2, 3


class Encoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.embedding = nn.Embedding(V, E)
        self.rnn = nn.GRU(E, HE, bidirectional=True)
        self.fc = nn.Linear(HE * 2, HD)
        self.dropout = nn.Dropout(0.0)

    def forward(self, src, src_len):
        embedded = self.dropout(self.embedding(src))
        packed = nn.utils.rnn.pack_padded_sequence(embedded, src_len.to("cpu"), enforce_sorted=False)
        packed_outputs, hidden = self.rnn(packed)
        outputs, _ = nn.utils.rnn.pad_packed_sequence(packed_outputs)
        hidden = torch.tanh(self.fc(torch.cat((hidden[-2, :, :], hidden[-1, :, :]), dim=1)))
        return outputs, hidden


class Attention(nn.Module):
    def __init__(self):
        super().__init__()
        self.attn = nn.Linear(HE * 2 + HD, HD)
        self.v = nn.Linear(HD, 1, bias=False)

    def forward(self, hidden, encoder_outputs, mask):
        src_len = encoder_outputs.shape[0]
        hidden = hidden.unsqueeze(1).repeat(1, src_len, 1)
        encoder_outputs = encoder_outputs.permute(1, 0, 2)
        energy = torch.tanh(self.attn(torch.cat((hidden, encoder_outputs), dim=2)))
        attention = self.v(energy).squeeze(2)
        attention = attention.masked_fill(mask == 0, -1e10)
        return F.softmax(attention, dim=1)


class Decoder(nn.Module):
    def __init__(self):
        super().__init__()
        self.attention = Attention()
        self.embedding = nn.Embedding(V, E)
        self.rnn = nn.GRU(HE * 2 + E, HD)
        self.fc_out = nn.Linear(HE * 2 + HD + E, V)
        self.dropout = nn.Dropout(0.0)

    def forward(self, inp, hidden, encoder_outputs, mask):
        inp = inp.unsqueeze(0)
        embedded = self.dropout(self.embedding(inp))
        a = self.attention(hidden, encoder_outputs, mask).unsqueeze(1)
        encoder_outputs = encoder_outputs.permute(1, 0, 2)
        weighted = torch.bmm(a, encoder_outputs).permute(1, 0, 2)
        rnn_input = torch.cat((embedded, weighted), dim=2)
        output, hidden = self.rnn(rnn_input, hidden.unsqueeze(0))
        prediction = self.fc_out(torch.cat((output.squeeze(0), weighted.squeeze(0), embedded.squeeze(0)), dim=1))
        return prediction, hidden.squeeze(0)


class Seq2Seq(nn.Module):
    def __init__(self):
        super().__init__()
        self.encoder = Encoder()
        self.decoder = Decoder()

    def forward(self, src, src_len, trg):
        trg_len, batch = trg.shape
        outputs = torch.zeros(trg_len, batch, V)
        encoder_outputs, hidden = self.encoder(src, src_len)
        mask = (src != PAD).permute(1, 0)
        inp = trg[0, :]
        for t in range(1, trg_len):  # teacher forcing
            output, hidden = self.decoder(inp, hidden, encoder_outputs, mask)
            outputs[t] = output
            inp = trg[t]
        return outputs


def make_batch(gen):
    words_s = torch.randint(4, V, (WORDS, B), generator=gen)
    words_t = torch.randint(4, V, (WORDS, B), generator=gen)
    sos = torch.full((1, B), SOS)
    eos = torch.full((1, B), EOS)
    src = torch.cat((sos, words_s, eos))
    trg = torch.cat((sos, words_t, eos))
    return src, torch.full((B,), WORDS + 2, dtype=torch.long), trg


def measure(threads, steps, repeats):
    torch.set_num_threads(threads)
    torch.manual_seed(1)
    model = Seq2Seq()
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    crit = nn.CrossEntropyLoss(ignore_index=PAD)
    src, src_len, trg = make_batch(torch.Generator().manual_seed(2))
    tokens_per_step = int((trg[1:] != PAD).sum())

    def step():
        opt.zero_grad()
        out = model(src, src_len, trg)
        loss = crit(out[1:].reshape(-1, V), trg[1:].reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        return float(loss)

    for _ in range(3):
        step()
    wall, cpu = [], []
    for _ in range(repeats):
        t0, c0 = time.perf_counter(), time.process_time()
        for _ in range(steps):
            step()
        t1, c1 = time.perf_counter(), time.process_time()
        wall.append(tokens_per_step * steps / (t1 - t0))
        cpu.append(tokens_per_step * steps / (c1 - c0))
    return statistics.median(wall), statistics.median(cpu)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--steps", type=int, default=10, help="updates per timed window (default 10)")
    ap.add_argument("--repeats", type=int, default=5, help="timed windows; the median is reported (default 5)")
    ap.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    a = ap.parse_args()
    res = {}
    for t in a.threads:
        w, c = measure(t, a.steps, a.repeats)
        res[str(t)] = {"tokens_per_s": w, "tokens_per_cpu_s": c}
    best = max(res, key=lambda k: res[k]["tokens_per_s"])
    print(json.dumps({"torch": torch.__version__, "per_threads": res, "best_threads": int(best),
                      "tokens_per_s": res[best]["tokens_per_s"],
                      "tokens_per_cpu_s": max(r["tokens_per_cpu_s"] for r in res.values())}))


if __name__ == "__main__":
    main()
