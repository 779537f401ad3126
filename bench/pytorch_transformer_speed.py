#!/usr/bin/python3
"""Issue 16's Transformer speed in eager PyTorch: the tutorial's model, its greedy loop and its training step.

The model is the Seq2SeqTransformer of PyTorch's tutorial "Language Translation with nn.Transformer"
(bench/pytorch_transformer_check.py's copy) at d_model 256, 4 heads, 3 + 3 layers, dim_feedforward 1024, dropout 0.1,
V_s = V_t = 8000, post-LN relu; the same work as bench_decode's greedy/Large_Transformer_d256_3x3 and bench_train's
BM_TrainTransformerD256:
  decode: one 12-token source (10 words + <sos>/<eos>), eval mode under torch.no_grad(), the tutorial's
          greedy_decode (the decoder re-run on the whole prefix every step), exactly 11 steps (<eos> pushed down);
  train:  batches of 64 sentences of 12 tokens on both sides (11 target positions each), the tutorial's
          train_epoch step (masks, CrossEntropyLoss(ignore_index=<pad>), Adam(1e-4, (0.9, 0.98), 1e-9)) plus
          clip_grad_norm_(1.0) as attnviz's bench does; target tokens per second.
Prints one JSON line: per thread count (torch.set_num_threads 1 and 2) the median ms per sentence and the median
target tokens/s, both also per CPU-second (process time, all threads), which is robust to other load.

    /usr/bin/python3 bench/pytorch_transformer_speed.py [--decode-repeats 60] [--steps 3] [--repeats 5] [--decode-only]

Exits 77 when torch does not import.
"""
import argparse
import json
import os
import sys

try:
    import torch
    from torch import nn
except ImportError as e:
    print(f"SKIP: torch does not import ({e})", file=sys.stderr)
    sys.exit(77)

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pytorch_transformer_check import Seq2SeqTransformer  # noqa: E402  (the tutorial's modules)
from torch_timing import timed  # noqa: E402

D, NHEAD, LAYERS, FF, V, B, WORDS, STEPS = 256, 4, 3, 1024, 8000, 64, 10, 11
PAD, SOS, EOS = 0, 2, 3


def make_model(seed):
    torch.manual_seed(seed)
    m = Seq2SeqTransformer(LAYERS, D, NHEAD, V, V, FF, False, "relu", 5000)
    for p in m.parameters():  # the tutorial's initialisation
        if p.dim() > 1:
            nn.init.xavier_uniform_(p)
    return m


# The tutorial's Seq2SeqTransformer.forward / encode / decode and its masks.
def forward(m, src, trg, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, memory_key_padding_mask):
    src_emb = m.positional_encoding(m.src_tok_emb(src))
    tgt_emb = m.positional_encoding(m.tgt_tok_emb(trg))
    outs = m.transformer(src_emb, tgt_emb, src_mask, tgt_mask, None, src_padding_mask, tgt_padding_mask,
                         memory_key_padding_mask)
    return m.generator(outs)


def encode(m, src, src_mask):
    return m.transformer.encoder(m.positional_encoding(m.src_tok_emb(src)), src_mask)


def decode(m, tgt, memory, tgt_mask):
    return m.transformer.decoder(m.positional_encoding(m.tgt_tok_emb(tgt)), memory, tgt_mask)


def generate_square_subsequent_mask(sz):
    mask = (torch.triu(torch.ones((sz, sz))) == 1).transpose(0, 1)
    return mask.float().masked_fill(mask == 0, float("-inf")).masked_fill(mask == 1, float(0.0))


def create_mask(src, tgt):
    src_mask = torch.zeros((src.shape[0], src.shape[0])).type(torch.bool)
    tgt_mask = generate_square_subsequent_mask(tgt.shape[0])
    return src_mask, tgt_mask, (src == PAD).transpose(0, 1), (tgt == PAD).transpose(0, 1)


def greedy_decode(m, src, src_mask, max_len, start_symbol):
    memory = encode(m, src, src_mask)
    ys = torch.ones(1, 1).fill_(start_symbol).type(torch.long)
    for _ in range(max_len - 1):
        tgt_mask = generate_square_subsequent_mask(ys.size(0)).type(torch.bool)
        out = decode(m, ys, memory, tgt_mask).transpose(0, 1)
        prob = m.generator(out[:, -1])
        _, next_word = torch.max(prob, dim=1)
        next_word = next_word.item()
        ys = torch.cat([ys, torch.ones(1, 1).type_as(src.data).fill_(next_word)], dim=0)
        if next_word == EOS:
            break
    return ys


def measure_decode(repeats):
    m = make_model(42).eval()
    with torch.no_grad():
        m.generator.bias[EOS] = -1e4  # as bench_decode.cpp: never an early <eos>, always 11 steps
    src = torch.tensor([SOS] + [4 + (i * 37) % (V - 4) for i in range(WORDS)] + [EOS]).reshape(-1, 1)
    src_mask = torch.zeros((src.shape[0], src.shape[0])).type(torch.bool)

    def run():
        with torch.no_grad():
            ys = greedy_decode(m, src, src_mask, STEPS + 1, SOS)
        assert ys.size(0) == STEPS + 1, "greedy did not take 11 steps"

    wall, cpu = timed(run, repeats, max(3, repeats // 10))
    return {"ms": wall * 1e3, "cpu_ms": cpu * 1e3}


def make_batch(gen):
    def side():
        words = torch.randint(4, V, (WORDS, B), generator=gen)
        return torch.cat((torch.full((1, B), SOS), words, torch.full((1, B), EOS)))

    return side(), side()


def measure_train(steps, repeats):
    m = make_model(1).train()
    opt = torch.optim.Adam(m.parameters(), lr=0.0001, betas=(0.9, 0.98), eps=1e-9)
    loss_fn = nn.CrossEntropyLoss(ignore_index=PAD)
    src, tgt = make_batch(torch.Generator().manual_seed(2))
    tokens = int((tgt[1:] != PAD).sum())

    def step():  # the tutorial's train_epoch body for one batch
        tgt_input = tgt[:-1, :]
        src_mask, tgt_mask, src_padding_mask, tgt_padding_mask = create_mask(src, tgt_input)
        logits = forward(m, src, tgt_input, src_mask, tgt_mask, src_padding_mask, tgt_padding_mask, src_padding_mask)
        opt.zero_grad()
        loss = loss_fn(logits.reshape(-1, logits.shape[-1]), tgt[1:, :].reshape(-1))
        loss.backward()
        torch.nn.utils.clip_grad_norm_(m.parameters(), 1.0)
        opt.step()

    def window():
        for _ in range(steps):
            step()

    wall, cpu = timed(window, repeats, 1)
    return {"tokens_per_s": tokens * steps / wall, "tokens_per_cpu_s": tokens * steps / cpu}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--decode-repeats", type=int, default=60, help="sentences timed; the median is reported")
    ap.add_argument("--steps", type=int, default=3, help="training updates per timed window (default 3)")
    ap.add_argument("--repeats", type=int, default=5, help="timed training windows; the median is reported")
    ap.add_argument("--threads", type=int, nargs="*", default=[1, 2])
    ap.add_argument("--decode-only", action="store_true", help="time the decode alone (no training)")
    a = ap.parse_args()
    res = {}
    for t in a.threads:
        torch.set_num_threads(t)
        res[str(t)] = {"decode": measure_decode(a.decode_repeats)}
        if not a.decode_only:
            res[str(t)]["train"] = measure_train(a.steps, a.repeats)
        print(f"pytorch, {t} thread(s): {json.dumps(res[str(t)])}", file=sys.stderr, flush=True)
    print(json.dumps({"torch": torch.__version__, "per_threads": res}))


if __name__ == "__main__":
    main()
