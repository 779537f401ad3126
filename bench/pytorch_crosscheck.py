#!/usr/bin/python3
"""Cross-check against PyTorch: the classic tutorial's modules (bench/pytorch_decode.py, whose state_dict keys are the
spec's tensor names) with random weights are saved to the model format from Python, decoded by `attnviz-cli decode
--json`, and compared with PyTorch's own greedy decode: the same tokens, attention rows and log-probabilities to
float32 round-off. Not part of the CI test command (Debian's python3-torch is large); run it by hand:

    /usr/bin/python3 bench/pytorch_crosscheck.py build/dev/app/attnviz-cli
"""
import json
import os
import struct
import subprocess
import sys
import tempfile

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pytorch_decode import EOS, SOS, Seq2Seq  # noqa: E402

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "house", "big", "red", "blue", "saw", "it"]


def save_safetensors(path, tensors, metadata):
    """A minimal safetensors writer: F32 tensors in key order, header padded to 8 bytes with spaces."""
    header, blobs, offset = {"__metadata__": metadata}, [], 0
    for name, t in tensors.items():
        data = t.detach().contiguous().to(torch.float32).numpy().tobytes()
        header[name] = {"dtype": "F32", "shape": list(t.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    text = json.dumps(header).encode("utf-8")
    text += b" " * (-len(text) % 8)
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(text)) + text + b"".join(blobs))


def torch_greedy(model, src_ids, max_len):
    enc, s = model.encoder(torch.tensor(src_ids).unsqueeze(1))
    y, tokens, rows, log_probs = torch.tensor([SOS]), [], [], []
    for _ in range(max_len):
        lp, s, a, _ = model.decoder(y, s, enc, None)
        masked = lp.clone()
        masked[:, 0] = float("-inf")
        masked[:, SOS] = float("-inf")
        y = masked.argmax(dim=1)
        tokens.append(int(y))
        rows.append(a[0].tolist())
        log_probs.append(float(lp[0, int(y)]))
        if int(y) == EOS:
            break
    return tokens, rows, log_probs


def check(cli, kind, seed, tmp, sizes=(16, 12, 24), extra_words=0):
    torch.manual_seed(seed)
    E, He, Hd = sizes
    vocab = ["<pad>", "<unk>", "<sos>", "<eos>"] + WORDS + [f"w{i}" for i in range(extra_words)]
    model = Seq2Seq(kind, len(vocab), E, He, Hd)
    with torch.no_grad():  # larger weights than the default init, so that attention is far from uniform
        for p in model.parameters():
            p.mul_(3.0)
    decoder, score = ("bahdanau", "additive") if kind == "Bahdanau" else ("luong", "general")
    config = {"decoder": decoder, "score": score, "emb_dim": E, "enc_hid_dim": He, "dec_hid_dim": Hd,
              "tokenizer": {"source": "whitespace", "target": "whitespace", "lowercase": False}}
    metadata = {"format": "attnviz.seq2seq", "format_version": "1", "config": json.dumps(config),
                "source_vocab": json.dumps(vocab), "target_vocab": json.dumps(vocab)}
    path = os.path.join(tmp, f"{decoder}-{score}.safetensors")
    save_safetensors(path, model.state_dict(), metadata)
    worst = 0.0
    for sentence in ["the cat sat on the mat", "a big red dog ran to the house", "it saw the blue cat",
                     "the the the cat"]:
        src = [SOS] + [vocab.index(w) for w in sentence.split()] + [EOS]
        with torch.no_grad():
            tokens, rows, log_probs = torch_greedy(model, src, 2 * len(src) + 10)
        out = subprocess.run([cli, "decode", "--model", path, "--json", sentence], check=True,
                             capture_output=True, text=True).stdout
        got = json.loads(out)
        assert got["source_ids"] == src, (got["source_ids"], src)
        assert got["target_ids"] == tokens, f"{kind} '{sentence}': attnviz {got['target_ids']}, torch {tokens}"
        for r_ours, r_torch in zip(got["attention"], rows):
            worst = max(worst, max(abs(a - b) for a, b in zip(r_ours, r_torch)))
        worst = max(worst, max(abs(a - b) / (1 + abs(b)) for a, b in zip(got["log_probs"], log_probs)))
    assert worst < 1e-5, f"{kind}: largest difference {worst:g}"
    print(f"{decoder}/{score} E {E} H {He}/{Hd} V {len(vocab)}: 4 sentences, same tokens; "
          f"largest attention / log-prob difference {worst:.2g}")


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    with tempfile.TemporaryDirectory() as tmp:
        for kind in ("Bahdanau", "Luong"):
            for seed in (1, 2):
                check(sys.argv[1], kind, seed, tmp)
        # fc_out of 2.6 MB: large enough that bahdanau folds the context (core/decoder.h) and products are split
        # between the cores.
        check(sys.argv[1], "Bahdanau", 3, tmp, sizes=(64, 64, 128), extra_words=2000)
    print("PyTorch cross-check passed")


if __name__ == "__main__":
    main()
