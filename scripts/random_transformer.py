#!/usr/bin/env python3
"""A Transformer model (docs/transformer.md) with random weights and the vocabularies of an existing model, for the
window's head grid screenshot (docs/head-grid.png) until a trained one ships:

    python3 scripts/random_transformer.py sample_models/en_zh-bahdanau-additive.safetensors /tmp/en_zh-transformer.safetensors

Uniform weights (seeded), the attention projections scaled up so that the heads are peaked and differ from each other;
d_model 32, 4 heads, 2 encoder and 2 decoder layers. Standard-library Python only (python/attnviz_format.py).
"""
import json
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from attnviz_format import Tensor, model_metadata, read_safetensors, write_safetensors  # noqa: E402

D, HEADS, LAYERS, FF = 32, 4, 2, 64


def uniform(shape, bound, rng):
    n = 1
    for s in shape:
        n *= s
    return Tensor(list(shape), [rng.uniform(-bound, bound) for _ in range(n)])


def attention(prefix, t, rng):
    t[prefix + ".in_proj_weight"] = uniform((3 * D, D), 0.5, rng)  # peaked heads (PyTorch's xavier: ~0.22)
    t[prefix + ".in_proj_bias"] = uniform((3 * D,), 0.1, rng)
    t[prefix + ".out_proj.weight"] = uniform((D, D), 0.18, rng)
    t[prefix + ".out_proj.bias"] = Tensor([D], [0.0] * D)


def layer(prefix, norms, cross, t, rng):
    attention(prefix + ".self_attn", t, rng)
    if cross:
        attention(prefix + ".multihead_attn", t, rng)
    t[prefix + ".linear1.weight"] = uniform((FF, D), 0.18, rng)
    t[prefix + ".linear1.bias"] = uniform((FF,), 0.1, rng)
    t[prefix + ".linear2.weight"] = uniform((D, FF), 0.12, rng)
    t[prefix + ".linear2.bias"] = uniform((D,), 0.1, rng)
    for k in range(1, norms + 1):
        t[f"{prefix}.norm{k}.weight"] = Tensor([D], [1.0] * D)
        t[f"{prefix}.norm{k}.bias"] = Tensor([D], [0.0] * D)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    _, meta = read_safetensors(sys.argv[1])
    src, trg = json.loads(meta["source_vocab"]), json.loads(meta["target_vocab"])
    tokenizer = json.loads(meta["config"]).get("tokenizer", {})
    rng = random.Random(16)
    t = {"src_tok_emb.embedding.weight": uniform((len(src), D), 1.7, rng),
         "tgt_tok_emb.embedding.weight": uniform((len(trg), D), 1.7, rng)}
    for l in range(LAYERS):
        layer(f"transformer.encoder.layers.{l}", 2, False, t, rng)
        layer(f"transformer.decoder.layers.{l}", 3, True, t, rng)
    for side in ("encoder", "decoder"):
        t[f"transformer.{side}.norm.weight"] = Tensor([D], [1.0] * D)
        t[f"transformer.{side}.norm.bias"] = Tensor([D], [0.0] * D)
    t["generator.weight"] = uniform((len(trg), D), 0.5, rng)
    t["generator.bias"] = Tensor([len(trg)], [0.0] * len(trg))
    config = {"decoder": "transformer", "d_model": D, "nhead": HEADS, "num_encoder_layers": LAYERS,
              "num_decoder_layers": LAYERS, "dim_feedforward": FF, "tokenizer": tokenizer}
    write_safetensors(sys.argv[2], t, model_metadata(config, src, trg, task=meta.get("task"),
                                                     description="random weights (scripts/random_transformer.py)"))


if __name__ == "__main__":
    main()
