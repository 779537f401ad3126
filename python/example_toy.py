#!/usr/bin/python3
"""The worked example of docs/pytorch.md: train the classic tutorial model in PyTorch on a toy task and save it for
attnviz. The task: English digit words to French ones in reverse order ("one two three" -> "trois deux un"), so a
trained model's attention draws an anti-diagonal.

    /usr/bin/python3 python/example_toy.py --steps 400 --out toy.safetensors
"""
import argparse
import os
import random
import sys

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import attnviz_torch as av  # noqa: E402
from attnviz_format import PAD, SOS, SPECIALS, text_ids  # noqa: E402

EN = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
FR = ["zéro", "un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf"]
CONFIG = {"decoder": "bahdanau", "score": "additive", "emb_dim": 32, "enc_hid_dim": 32, "dec_hid_dim": 64}


def example(rng):
    digits = [rng.randrange(10) for _ in range(rng.randint(3, 7))]
    return " ".join(EN[d] for d in digits), " ".join(FR[d] for d in reversed(digits))


def batch(pairs, model):
    """Padded (S, B) source and (T, B) target id tensors and the source lengths, as the tutorial's iterators give."""
    src = [text_ids(s, model.config, model.src_vocab) for s, _ in pairs]
    trg = [[SOS] + text_ids(t, model.config, model.trg_vocab, "target") for _, t in pairs]
    pad = lambda seqs: torch.tensor([q + [PAD] * (max(map(len, seqs)) - len(q)) for q in seqs]).T  # noqa: E731
    return pad(src), torch.tensor([len(s) for s in src]), pad(trg)


def train(steps, batch_size=32, seed=0, log=print):
    """A Seq2Seq trained with Adam and clip_grad_norm_(1.0) on fresh random examples; -> (model, last loss)."""
    torch.manual_seed(seed)
    rng = random.Random(seed)
    model = av.Seq2Seq(CONFIG, len(SPECIALS + EN), len(SPECIALS + FR))
    model.src_vocab, model.trg_vocab = SPECIALS + EN, SPECIALS + FR
    opt = torch.optim.Adam(model.parameters(), lr=3e-3)
    for step in range(1, steps + 1):
        loss = model.loss(*batch([example(rng) for _ in range(batch_size)], model))
        opt.zero_grad()
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if step % 50 == 0 or step == steps:
            log(f"step {step:4d}  loss {float(loss):.4f}")
    return model.eval(), float(loss)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=400)
    ap.add_argument("--out", default="toy.safetensors")
    args = ap.parse_args()
    model, loss = train(args.steps)
    av.save(model, args.out, model.src_vocab, model.trg_vocab, task="toy-reverse-digits",
            description="English digit words to French, reversed (docs/pytorch.md)",
            training={"steps": args.steps, "batch_size": 32, "optimizer": "adam", "lr": 3e-3, "final_loss": loss})
    sentence = "one two three four"
    ids, _, _ = model.decode(text_ids(sentence, model.config, model.src_vocab))
    print(f"saved {args.out}; PyTorch decodes '{sentence}' as '{' '.join(model.trg_vocab[i] for i in ids)}'")


if __name__ == "__main__":
    main()
