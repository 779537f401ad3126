#!/usr/bin/python3
"""PyTorch's own Transformer against attnviz-cli, on a model file written in docs/transformer.md's layout.

Builds the Seq2SeqTransformer of PyTorch's tutorial "Language Translation with nn.Transformer" (TokenEmbedding,
PositionalEncoding with its pos_embedding buffer, nn.Transformer, generator) with random weights (xavier_uniform_
as the tutorial, biases and LayerNorm weights perturbed so that every tensor matters), saves its state_dict with
python/attnviz_format.py, decodes a sentence greedily in PyTorch (log-softmax, <pad>/<sos> never produced, stop
after <eos>) and with `attnviz-cli decode --json`, and compares the tokens, the log-probabilities and every layer's
and head's attention (cross, encoder self, decoder self; `attention` = last layer's cross-attention averaged over
heads) to 1e-5. Post-LN relu and pre-LN gelu.

    /usr/bin/python3 bench/pytorch_transformer_check.py --cli build/dev/app/attnviz-cli

Exit 0 when every number agrees, 1 when one does not, 77 (a CTest skip) when torch does not import.
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

try:
    import torch
    from torch import nn
except ImportError as e:  # CI without python3-torch
    print(f"SKIP: torch does not import ({e})")
    sys.exit(77)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from attnviz_format import SPECIALS, Tensor, model_metadata, write_safetensors  # noqa: E402

PAD, SOS, EOS = 0, 2, 3
TOLERANCE = 1e-5


class PositionalEncoding(nn.Module):  # the tutorial's, batch second
    def __init__(self, emb_size, dropout, maxlen):
        super().__init__()
        den = torch.exp(-torch.arange(0, emb_size, 2) * math.log(10000) / emb_size)
        pos = torch.arange(0, maxlen).reshape(maxlen, 1)
        pos_embedding = torch.zeros((maxlen, emb_size))
        pos_embedding[:, 0::2] = torch.sin(pos * den)
        pos_embedding[:, 1::2] = torch.cos(pos * den)
        self.dropout = nn.Dropout(dropout)
        self.register_buffer("pos_embedding", pos_embedding.unsqueeze(-2))

    def forward(self, token_embedding):
        return self.dropout(token_embedding + self.pos_embedding[: token_embedding.size(0), :])


class TokenEmbedding(nn.Module):
    def __init__(self, vocab_size, emb_size):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, emb_size)
        self.emb_size = emb_size

    def forward(self, tokens):
        return self.embedding(tokens.long()) * math.sqrt(self.emb_size)


class Seq2SeqTransformer(nn.Module):
    def __init__(self, layers, d, nhead, src_vocab, tgt_vocab, ff, norm_first, activation, maxlen):
        super().__init__()
        self.transformer = nn.Transformer(d_model=d, nhead=nhead, num_encoder_layers=layers,
                                          num_decoder_layers=layers, dim_feedforward=ff, dropout=0.1,
                                          activation=activation, norm_first=norm_first)
        self.generator = nn.Linear(d, tgt_vocab)
        self.src_tok_emb = TokenEmbedding(src_vocab, d)
        self.tgt_tok_emb = TokenEmbedding(tgt_vocab, d)
        self.positional_encoding = PositionalEncoding(d, dropout=0.1, maxlen=maxlen)


def random_model(norm_first, activation, seed, sizes):
    torch.manual_seed(seed)
    m = Seq2SeqTransformer(sizes["layers"], sizes["d"], sizes["nhead"], sizes["V_s"], sizes["V_t"], sizes["F"],
                           norm_first, activation, sizes["maxlen"])
    with torch.no_grad():
        for name, p in m.named_parameters():
            if p.dim() > 1:
                nn.init.xavier_uniform_(p)
            elif "norm" in name and name.endswith("weight"):
                p.uniform_(0.5, 1.5)
            else:
                p.uniform_(-0.5, 0.5)
        m.generator.weight.mul_(3.0)  # peaked distributions: no near ties in greedy
        m.generator.bias[EOS] -= 3.0  # outputs of several tokens, so that the causal rows are seen
    return m.eval()


def save(model, config, src_vocab, tgt_vocab, path):
    tensors = {}
    for name, t in model.state_dict().items():
        t = t.detach().to(torch.float32).contiguous()
        tensors[name] = Tensor(list(t.shape), t.numpy().tobytes())
    write_safetensors(path, tensors, model_metadata(config, src_vocab, tgt_vocab))


def multihead(mha, q_in, kv_in, mask=None):
    out, weights = mha(q_in, kv_in, kv_in, attn_mask=mask, need_weights=True, average_attn_weights=False)
    return out, weights[0]  # (nhead, n, m) of the one sentence


def encoder_forward(model, x):
    """The encoder layer by layer (post-LN or pre-LN as nn.TransformerEncoderLayer), keeping each head's weights."""
    maps = []
    for layer in model.transformer.encoder.layers:
        ff = lambda h: layer.linear2(layer.activation(layer.linear1(h)))  # noqa: E731
        if layer.norm_first:
            sa, w = multihead(layer.self_attn, layer.norm1(x), layer.norm1(x))
            x = x + sa
            x = x + ff(layer.norm2(x))
        else:
            sa, w = multihead(layer.self_attn, x, x)
            x = layer.norm1(x + sa)
            x = layer.norm2(x + ff(x))
        maps.append(w)
    return model.transformer.encoder.norm(x), maps


def decoder_forward(model, y, memory):
    mask = model.transformer.generate_square_subsequent_mask(y.size(0))
    cross_maps, self_maps = [], []
    for layer in model.transformer.decoder.layers:
        ff = lambda h: layer.linear2(layer.activation(layer.linear1(h)))  # noqa: E731
        if layer.norm_first:
            sa, ws = multihead(layer.self_attn, layer.norm1(y), layer.norm1(y), mask)
            y = y + sa
            ca, wc = multihead(layer.multihead_attn, layer.norm2(y), memory)
            y = y + ca
            y = y + ff(layer.norm3(y))
        else:
            sa, ws = multihead(layer.self_attn, y, y, mask)
            y = layer.norm1(y + sa)
            ca, wc = multihead(layer.multihead_attn, y, memory)
            y = layer.norm2(y + ca)
            y = layer.norm3(y + ff(y))
        self_maps.append(ws)
        cross_maps.append(wc)
    return model.transformer.decoder.norm(y), cross_maps, self_maps


def torch_greedy(model, src_ids, max_len):
    """Greedy (docs/model-format.md); the layer-by-layer pass is checked against nn.Transformer's own forward."""
    src = torch.tensor(src_ids).reshape(-1, 1)
    src_emb = model.positional_encoding(model.src_tok_emb(src))
    memory, enc_maps = encoder_forward(model, src_emb)
    assert torch.allclose(memory, model.transformer.encoder(src_emb), atol=1e-5), "encoder replay"
    inputs, tokens, log_probs = [SOS], [], []
    while len(tokens) < max_len:
        tgt = torch.tensor(inputs).reshape(-1, 1)
        tgt_emb = model.positional_encoding(model.tgt_tok_emb(tgt))
        out, cross_maps, self_maps = decoder_forward(model, tgt_emb, memory)
        mask = model.transformer.generate_square_subsequent_mask(len(inputs))
        assert torch.allclose(out, model.transformer.decoder(tgt_emb, memory, tgt_mask=mask), atol=1e-5), "decoder"
        lp = torch.log_softmax(model.generator(out[-1, 0]), dim=-1)
        masked = lp.clone()
        masked[PAD] = masked[SOS] = -math.inf
        best = int(torch.argmax(masked))  # the first of equal maxima: the lowest id
        tokens.append(best)
        log_probs.append(float(lp[best]))
        if best == EOS:
            break
        inputs.append(best)
    # The maps of the last pass hold every row: row i of a causal pass does not depend on later inputs.
    return tokens, log_probs, enc_maps, cross_maps, self_maps


def max_difference(ours, theirs):
    a = torch.tensor(ours, dtype=torch.float64)
    return float((a - theirs.to(torch.float64)).abs().max())


def check(cli, norm_first, activation, seed):
    words_src = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "to", "house", "big", "small"]
    words_tgt = ["le", "chat", "assis", "sur", "tapis", "un", "chien", "couru", "vers", "maison", "grand", "petit"]
    sizes = {"layers": 2, "d": 16, "nhead": 4, "F": 32, "maxlen": 64,
             "V_s": len(SPECIALS) + len(words_src), "V_t": len(SPECIALS) + len(words_tgt)}
    config = {"decoder": "transformer", "d_model": sizes["d"], "nhead": sizes["nhead"],
              "num_encoder_layers": sizes["layers"], "num_decoder_layers": sizes["layers"],
              "dim_feedforward": sizes["F"], "norm_first": norm_first, "activation": activation}
    model = random_model(norm_first, activation, seed, sizes)
    sentence = "the big cat sat on a small mat"
    src_ids = [SOS] + [len(SPECIALS) + words_src.index(w) for w in sentence.split()] + [EOS]
    max_len = 12
    with torch.no_grad():
        tokens, log_probs, enc_maps, cross_maps, self_maps = torch_greedy(model, src_ids, max_len)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "tutorial.safetensors")
        save(model, config, SPECIALS + words_src, SPECIALS + words_tgt, path)
        run = subprocess.run([cli, "decode", "--model", path, "--json", "--max-len", str(max_len), sentence],
                             capture_output=True, text=True, timeout=120)
    name = f"{'pre' if norm_first else 'post'}-LN {activation}"
    if run.returncode != 0:
        print(f"FAIL {name}: attnviz-cli exited {run.returncode}: {run.stderr.strip()}")
        return False
    j = json.loads(run.stdout)
    T = len(tokens)
    failures = []
    if j["target_ids"] != tokens:
        failures.append(f"tokens {j['target_ids']} vs PyTorch {tokens}")
    else:
        diffs = {
            "log_probs": max_difference(j["log_probs"], torch.tensor(log_probs)),
            "attention": max_difference(j["attention"], cross_maps[-1][:, :T].mean(dim=0)),
            "cross_attention": max_difference(j["cross_attention"], torch.stack([m[:, :T] for m in cross_maps])),
            "encoder_self_attention": max_difference(j["encoder_self_attention"], torch.stack(enc_maps)),
            "decoder_self_attention": max_difference(j["decoder_self_attention"],
                                                     torch.stack([m[:, :T, :T] for m in self_maps])),
        }
        failures += [f"{k} differs by {v:.3g}" for k, v in diffs.items() if not v <= TOLERANCE]
        print(f"{name}: {T} tokens; largest differences " + ", ".join(f"{k} {v:.2g}" for k, v in diffs.items()))
    for f in failures:
        print(f"FAIL {name}: {f}")
    return not failures


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cli", required=True, help="the attnviz-cli binary")
    args = parser.parse_args()
    torch.set_num_threads(1)
    ok = check(args.cli, False, "relu", 11) & check(args.cli, True, "gelu", 12)
    print("OK: attnviz equals PyTorch to 1e-5" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
