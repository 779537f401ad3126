#!/usr/bin/python3
"""attnviz-cli explain against PyTorch's autograd, and the same work timed in PyTorch (docs/explain.md).

For each model (default: shipped Tatoeba and en_fr models of every kind), `attnviz-cli explain --json` on a forced
reference gives grad_input, grad_norm, ig and occlusion; this script loads the same file into PyTorch (the RNN
kinds through python/attnviz_torch.py, the Transformer as the nn.Transformer tutorial model of
bench/pytorch_transformer_check.py), makes the source embeddings a leaf tensor, and computes every method with
torch.autograd.grad and forced forward passes. Each number must agree to 1e-4 · (1 + |value|).

    /usr/bin/python3 bench/pytorch_explain_check.py --cli build/dev/app/attnviz-cli [--time] [MODEL ...]

--time prints PyTorch 1.13 eager's median time for the issue's work (grad_input of every row, ig with 32 steps,
occlusion) on the issue's 10-word sentence and on an 11-word one, to set beside bench_explain's (docs/performance.md).
Exit 0 when every number agrees, 1 when one does not, 77 (a CTest skip) when torch does not import.
"""
import argparse
import json
import math
import os
import subprocess
import sys

try:
    import torch
    import torch.nn.functional as F
except ImportError as e:
    print(f"SKIP: torch does not import ({e})")
    sys.exit(77)

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "python"))
sys.path.insert(0, here)
import attnviz_torch as av  # noqa: E402
from attnviz_format import read_safetensors  # noqa: E402
from pytorch_transformer_check import Seq2SeqTransformer  # noqa: E402
from torch_timing import timed  # noqa: E402

SOS, UNK = 2, 1
TOLERANCE = 1e-4
SAMPLES = os.path.join(here, "..", "sample_models")
DEFAULT_MODELS = [
    ("tatoeba-bahdanau-additive.safetensors", "I love you.", "我爱你。"),
    ("tatoeba-bahdanau-dot.safetensors", "I love you.", "我爱你。"),
    ("tatoeba-luong-general-feed.safetensors", "Tom is reading a book.", "汤姆在看书。"),
    ("en_fr-luong-general-local_p.safetensors", "the cat sat on the mat", "le chat s'est assis sur le tapis"),
    ("tatoeba-transformer.safetensors", "I love you.", "我爱你。"),
]
TIMED_SENTENCES = {"10words": "Tom said he would come to the party with us.",
                   "11words": "Tom said he would come to the party with his sister."}


class RnnModel:
    """f_t along a target for given source embeddings, through attnviz_torch's Seq2Seq layers."""

    def __init__(self, path):
        self.m = av.load(path)
        self.table = self.m.encoder.embedding.weight

    def log_probs(self, emb, target):  # emb (S, E) -> [t] (V) log-probabilities
        enc = self.m.encoder
        out, h = enc.rnn(emb.unsqueeze(1))
        s = torch.tanh(enc.fc(torch.cat((h[-2], h[-1]), dim=1)))
        y, feed, rows = torch.tensor([SOS]), None, []
        for t in range(1, len(target) + 1):
            logits, s, _, feed = self.m.decoder(y, s, out, None, t, feed)
            rows.append(F.log_softmax(logits, dim=1)[0])
            y = torch.tensor([target[t - 1]])
        return rows


class TransformerModel:
    """The same through the nn.Transformer tutorial model, all rows at once with the causal mask."""

    def __init__(self, path):
        tensors, meta = read_safetensors(path)
        c = json.loads(meta["config"])
        sd = {n: torch.frombuffer(bytearray(t.data), dtype=av.TORCH_DTYPES[t.dtype]).to(torch.float32).reshape(t.shape)
              for n, t in tensors.items()}
        maxlen = sd["positional_encoding.pos_embedding"].shape[0] if "positional_encoding.pos_embedding" in sd else 5000
        vs, vt = len(json.loads(meta["source_vocab"])), len(json.loads(meta["target_vocab"]))
        self.m = Seq2SeqTransformer(c["num_encoder_layers"], c["d_model"], c["nhead"], vs, vt, c["dim_feedforward"],
                                    c["norm_first"], c["activation"], maxlen)
        if c["num_decoder_layers"] != c["num_encoder_layers"]:
            raise SystemExit(f"{path}: the tutorial model has as many decoder as encoder layers")
        missing = self.m.load_state_dict(sd, strict=False)
        if missing.unexpected_keys or [k for k in missing.missing_keys if "pos_embedding" not in k]:
            raise SystemExit(f"{path}: tensors do not fit the tutorial model: {missing}")
        self.m.eval()
        self.table = self.m.src_tok_emb.embedding.weight
        self.d = c["d_model"]

    def log_probs(self, emb, target):
        m = self.m
        src = m.positional_encoding((emb * math.sqrt(self.d)).unsqueeze(1))
        memory = m.transformer.encoder(src)
        inputs = torch.tensor([SOS] + list(target[:-1])).reshape(-1, 1)
        tgt = m.positional_encoding(m.tgt_tok_emb(inputs))
        mask = m.transformer.generate_square_subsequent_mask(len(target))
        out = m.transformer.decoder(tgt, memory, tgt_mask=mask)
        lp = F.log_softmax(m.generator(out[:, 0]), dim=-1)
        return [lp[t] for t in range(len(target))]


def load(path):
    meta = read_safetensors(path)[1]
    return TransformerModel(path) if json.loads(meta["config"])["decoder"] == "transformer" else RnnModel(path)


def grads_at(model, emb, target):
    """[t] (S, E) ∂f_t/∂emb, f_t = log p(y_t), one backward pass per row (eager autograd as a user writes it)."""
    leaf = emb.detach().clone().requires_grad_(True)
    rows = model.log_probs(leaf, target)
    out = []
    for t, y in enumerate(target):
        out.append(torch.autograd.grad(rows[t][y], leaf, retain_graph=t + 1 < len(target))[0])
    return out


def methods(model, source, target, ig_steps):
    with torch.no_grad():
        e = model.table[torch.tensor(source)].clone()
    g = grads_at(model, e, target)
    ours = {"grad_input": [(gt * e).sum(1).tolist() for gt in g], "grad_norm": [gt.norm(dim=1).tolist() for gt in g]}
    mean = [torch.zeros_like(e) for _ in target]
    for i in range(1, ig_steps + 1):
        for t, gt in enumerate(grads_at(model, e * ((i - 0.5) / ig_steps), target)):
            mean[t] += gt / ig_steps
    ours["ig"] = [(mt * e).sum(1).tolist() for mt in mean]
    with torch.no_grad():
        f0 = [float(r[y]) for r, y in zip(model.log_probs(e, target), target)]
        occ = [[0.0] * len(source) for _ in target]
        for j in range(len(source)):
            ids = list(source)
            ids[j] = UNK
            fj = model.log_probs(model.table[torch.tensor(ids)], target)
            for t, y in enumerate(target):
                occ[t][j] = f0[t] - float(fj[t][y])
        ours["occlusion"] = occ
    return ours


def check(cli, path, sentence, reference, ig_steps=8):
    run = subprocess.run([cli, "explain", "--model", path, "--target", reference, "--method",
                          "grad_input,grad_norm,ig,occlusion", "--ig-steps", str(ig_steps), "--json", sentence],
                         capture_output=True, text=True, check=False)
    if run.returncode != 0:
        print(f"FAIL {os.path.basename(path)}: attnviz-cli explain: {run.stderr.strip()}")
        return False
    j = json.loads(run.stdout)
    theirs = methods(load(path), j["source_ids"], j["target_ids"], ig_steps)
    ok = True
    for name, rows in theirs.items():
        worst = max(abs(a - b) / (1 + abs(b)) for ra, rb in zip(j["explanations"][name], rows) for a, b in zip(ra, rb))
        good = worst <= TOLERANCE
        ok &= good
        print(f"{'ok  ' if good else 'FAIL'} {os.path.basename(path):42s} {name:10s} worst relative difference "
              f"{worst:.2e}")
    return ok


def time_torch(path):
    """PyTorch eager's medians for the issue's work on TIMED_SENTENCES: grad_input of every row, ig 32, occlusion."""
    model = load(path)
    for label, sentence in TIMED_SENTENCES.items():
        time_sentence(model, path, label, sentence)


def time_sentence(model, path, label, sentence):
    tokens = sentence.lower().replace(".", " .").split()
    vocab = json.loads(read_safetensors(path)[1]["source_vocab"])
    index = {w: i for i, w in enumerate(vocab)}
    src = [SOS] + [index.get(w, UNK) for w in tokens] + [3]
    target = [4 + (k % 7) for k in range(len(src) - 1)] + [3]
    with torch.no_grad():
        e = model.table[torch.tensor(src)].clone()
    work = {
        "grad_input": lambda: grads_at(model, e, target),
        "ig32": lambda: [grads_at(model, e * ((i - 0.5) / 32), target) for i in range(1, 33)],
        "occlusion": lambda: methods_occlusion(model, src, target),
    }
    for name, fn in work.items():
        wall, _ = timed(fn, repeats=5, warmup=1)
        print(f"torch {os.path.basename(path):42s} {name + '_' + label:18s} {wall * 1000:9.2f} ms (median of 5)")


def methods_occlusion(model, source, target):
    with torch.no_grad():
        for j in range(len(source) + 1):
            ids = list(source)
            if j < len(source):
                ids[j] = UNK
            model.log_probs(model.table[torch.tensor(ids)], target)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cli", required=True)
    p.add_argument("--time", action="store_true", help="also time PyTorch eager on the same work")
    p.add_argument("models", nargs="*", help="model files (default: a shipped model of every kind)")
    a = p.parse_args()
    cases = [(m, None, None) for m in a.models] or [(os.path.join(SAMPLES, f), s, r) for f, s, r in DEFAULT_MODELS]
    ok = True
    for path, sentence, reference in cases:
        if sentence is None:
            sentence, reference = "I love you.", "我爱你。"
        ok &= check(a.cli, path, sentence, reference)
        if a.time:
            time_torch(path)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
