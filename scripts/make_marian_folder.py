#!/usr/bin/python3
"""Writes a Hugging Face MarianMT folder (the shared spec marian.md) with random weights, for tests and benchmarks:
config.json, generation_config.json, tokenizer_config.json, vocab.json, the weights in any of the spec's forms, and
source.spm / target.spm copied from given files (left out otherwise).

    /usr/bin/python3 scripts/make_marian_folder.py OUT [--d 16 --layers 2 2 --heads 4 4 --ffn 32 32 ...]
    /usr/bin/python3 scripts/make_marian_folder.py OUT --opus-mt-en-zh          # d 512, 6+6, 8 heads, F 2048, V 65001
    /usr/bin/python3 scripts/make_marian_folder.py OUT --weights bin --bin-form legacy --dtype F16 --lm-head

Weights forms: model.safetensors (F32, F16, BF16) or pytorch_model.bin (zip or legacy torch.save); the tied table
stored under any of model.shared / encoder.embed_tokens / decoder.embed_tokens (or several); lm_head.weight,
final_logits_bias and the embed_positions tables each stored or not. The vocabulary is vocab.json's pieces, a list
of pieces (one a line; an spm_train .vocab file's first column) or "▁w0", "▁w1", ... — in each case </s> = 0,
<unk> = 1 and <pad> the last id, as converted opus-mt models have them. Every tensor is random and matters:
LayerNorm weights and biases, biases, the pad row and the logits bias included. Needs torch.
"""
import argparse
import json
import math
import os
import shutil
import sys
from collections import OrderedDict
from dataclasses import dataclass, field, fields

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
from attnviz_format import Tensor, write_safetensors  # noqa: E402
from marian_folder import expected_shapes, load_config  # noqa: E402
from marian_reference import halves_sinusoid  # noqa: E402

TABLE_NAMES = {"shared": "model.shared.weight", "encoder": "model.encoder.embed_tokens.weight",
               "decoder": "model.decoder.embed_tokens.weight"}
POSITION_NAMES = ("model.encoder.embed_positions.weight", "model.decoder.embed_positions.weight")
SAVE_DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}


@dataclass
class FolderSpec:
    d: int = 16
    encoder_layers: int = 2
    decoder_layers: int = 2
    encoder_heads: int = 4
    decoder_heads: int = 4
    encoder_ffn: int = 32
    decoder_ffn: int = 32
    activation: str = "swish"
    scale_embedding: bool = True
    max_positions: int = 64
    vocab_size: int = 40  # for synthetic pieces only
    seed: int = 0
    weights: str = "safetensors"  # or "bin"
    dtype: str = "F32"  # F32, F16, BF16
    bin_form: str = "zip"  # or "legacy"
    tables: tuple = ("shared",)  # which of TABLE_NAMES' names hold the tied table
    lm_head: bool = False  # store lm_head.weight (always stored when not tied)
    logits_bias: bool = True  # store final_logits_bias
    positions: str = "none"  # "sinusoid" or "random": store the embed_positions tables
    eos_bias: float = 0.0  # added to final_logits_bias[</s>] (stored): -1e4 and greedy runs to its length limit
    bad_words: list = field(default_factory=list)  # single-token ids forbidden besides <pad> (generation_config.json)
    share: bool = True
    tie: bool = True
    source_lang: str = "en"
    target_lang: str = "de"


def build_vocab(pieces):
    """piece -> id: </s> 0, <unk> 1, the pieces in order (specials and repeats skipped), <pad> last."""
    order = ["</s>", "<unk>"] + [p for p in pieces if p not in ("</s>", "<unk>", "<s>", "<pad>")] + ["<pad>"]
    return {p: i for i, p in enumerate(OrderedDict.fromkeys(order))}


def read_pieces(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n").split("\t")[0] for line in f if line.strip("\n")]


def write_json(path, value):
    with open(path, "w", encoding="utf-8") as f:
        json.dump(value, f, ensure_ascii=False, indent=2)
        f.write("\n")


def config_files(spec, vocab_size):
    """(config.json, generation_config.json, tokenizer_config.json) as converted opus-mt folders have them."""
    pad = vocab_size - 1
    config = {
        "_name_or_path": f"random-opus-mt-{spec.source_lang}-{spec.target_lang}", "activation_dropout": 0.0,
        "activation_function": spec.activation, "architectures": ["MarianMTModel"], "attention_dropout": 0.0,
        "bad_words_ids": [[pad]], "bos_token_id": 0, "classifier_dropout": 0.0, "d_model": spec.d,
        "decoder_attention_heads": spec.decoder_heads, "decoder_ffn_dim": spec.decoder_ffn, "decoder_layerdrop": 0.0,
        "decoder_layers": spec.decoder_layers, "decoder_start_token_id": pad, "decoder_vocab_size": vocab_size,
        "dropout": 0.1, "encoder_attention_heads": spec.encoder_heads, "encoder_ffn_dim": spec.encoder_ffn,
        "encoder_layerdrop": 0.0, "encoder_layers": spec.encoder_layers, "eos_token_id": 0, "forced_eos_token_id": 0,
        "init_std": 0.02, "is_encoder_decoder": True, "max_length": spec.max_positions,
        "max_position_embeddings": spec.max_positions, "model_type": "marian", "normalize_embedding": False,
        "num_beams": 4, "num_hidden_layers": spec.encoder_layers, "pad_token_id": pad,
        "scale_embedding": spec.scale_embedding, "share_encoder_decoder_embeddings": spec.share,
        "static_position_embeddings": True, "tie_word_embeddings": spec.tie, "torch_dtype": "float32",
        "transformers_version": "4.36.2", "use_cache": True, "vocab_size": vocab_size}
    generation = {"bad_words_ids": [[pad]] + [[i] for i in spec.bad_words], "bos_token_id": 0,
                  "decoder_start_token_id": pad, "eos_token_id": 0, "forced_eos_token_id": 0,
                  "max_length": spec.max_positions, "num_beams": 4, "pad_token_id": pad, "renormalize_logits": True,
                  "transformers_version": "4.36.2"}
    tokenizer = {"eos_token": "</s>", "model_max_length": spec.max_positions, "pad_token": "<pad>",
                 "separate_vocabs": False, "source_lang": spec.source_lang, "sp_model_kwargs": {},
                 "target_lang": spec.target_lang, "tokenizer_class": "MarianTokenizer", "unk_token": "<unk>"}
    return config, generation, tokenizer


def random_tensor(name, shape, gen):
    """Uniform values scaled so that every tensor shows in the output: attention peaked, LayerNorm far from 1/0."""
    def uniform(lo, hi):
        return torch.rand(shape, generator=gen) * (hi - lo) + lo

    if name.endswith("layer_norm.weight"):  # signs mixed: tied tables then do not make every output a copy
        return uniform(0.5, 1.5) * (torch.randint(0, 2, shape, generator=gen) * 2 - 1)
    if name.endswith("layer_norm.bias") or name == "final_logits_bias":
        return uniform(-0.5, 0.5)
    if name.endswith(".bias"):
        return uniform(-0.2, 0.2)
    if name in POSITION_NAMES or name in TABLE_NAMES.values() or name == "lm_head.weight":
        bound = 4 / math.sqrt(shape[1])  # E · √d of the order of 1 to 4
        return uniform(-bound, bound)
    gain = 1.8 if name.endswith(("q_proj.weight", "k_proj.weight")) else 1.0  # peaked heads
    bound = gain * math.sqrt(6 / (shape[0] + shape[1]))  # xavier_uniform
    return uniform(-bound, bound)


def random_weights(spec, cfg):
    """name -> float32 tensor of every tensor the model has, tied ones being the same tensor."""
    gen = torch.Generator().manual_seed(spec.seed)
    shapes = expected_shapes(cfg)
    w = {}
    for name, shape in shapes.items():
        w[name] = random_tensor(name, shape, gen)  # drawn in every case: the same seed, the same other tensors
        if name in POSITION_NAMES and spec.positions == "sinusoid":
            w[name] = halves_sinusoid(shape[0], shape[1])
    if spec.share:
        w[TABLE_NAMES["encoder"]] = w[TABLE_NAMES["decoder"]] = w[TABLE_NAMES["shared"]]
    if spec.tie:
        w["lm_head.weight"] = w[TABLE_NAMES["decoder"]]
    w["final_logits_bias"][0, cfg.eos] += spec.eos_bias
    return w


def stored_names(spec, cfg):
    """The names written to the weights file under the spec's choices."""
    names = set(expected_shapes(cfg))
    if spec.share:
        names -= {n for key, n in TABLE_NAMES.items() if key not in spec.tables}
    if spec.tie and not spec.lm_head:
        names.discard("lm_head.weight")
        if not spec.share and "decoder" not in spec.tables:  # the decoder's table stands in lm_head's name
            names.discard(TABLE_NAMES["decoder"])
            names.add("lm_head.weight")
    if not spec.logits_bias and not spec.eos_bias:
        names.discard("final_logits_bias")
    if spec.positions == "none":
        names -= set(POSITION_NAMES)
    return [n for n in expected_shapes(cfg) if n in names]


def write_weights(folder, spec, weights, names):
    """weights[names] in the spec's file form and dtype."""
    dtype = SAVE_DTYPES[spec.dtype]
    if spec.weights == "safetensors":
        tensors = {}
        for n in names:
            t = weights[n].to(dtype).contiguous()
            raw = t.view(torch.int16) if dtype == torch.bfloat16 else t  # numpy has no bfloat16
            tensors[n] = Tensor(list(t.shape), raw.numpy().tobytes(), spec.dtype)
        write_safetensors(os.path.join(folder, "model.safetensors"), tensors, {"format": "pt"})
    elif spec.weights == "bin":
        sd = OrderedDict((n, weights[n].to(dtype).contiguous()) for n in names)
        torch.save(sd, os.path.join(folder, "pytorch_model.bin"),
                   _use_new_zipfile_serialization=spec.bin_form == "zip")
    else:
        raise ValueError(f"weights form {spec.weights!r} is neither safetensors nor bin")


def write_folder(folder, spec, vocab=None, pieces=None, source_spm=None, target_spm=None, weights=None):
    """Writes the folder; returns (vocab: piece -> id, weights: name -> float32 tensor before the file's dtype).
    weights given (every name of the model) are written instead of random ones."""
    os.makedirs(folder, exist_ok=True)
    if vocab is None:
        vocab = build_vocab(pieces if pieces is not None else [f"\u2581w{i}" for i in range(spec.vocab_size - 3)])
    config, generation, tokenizer = config_files(spec, len(vocab))
    write_json(os.path.join(folder, "config.json"), config)
    write_json(os.path.join(folder, "generation_config.json"), generation)
    write_json(os.path.join(folder, "tokenizer_config.json"), tokenizer)
    write_json(os.path.join(folder, "vocab.json"), vocab)
    for src, name in ((source_spm, "source.spm"), (target_spm, "target.spm")):
        if src:
            shutil.copyfile(src, os.path.join(folder, name))
    cfg = load_config(folder)
    weights = weights if weights is not None else random_weights(spec, cfg)
    write_weights(folder, spec, weights, stored_names(spec, cfg))
    return vocab, weights


def opus_mt_en_zh():
    """The sizes of Helsinki-NLP/opus-mt-en-zh (V 65,001, F32)."""
    return dict(d=512, encoder_layers=6, decoder_layers=6, encoder_heads=8, decoder_heads=8, encoder_ffn=2048,
                decoder_ffn=2048, vocab_size=65001, max_positions=512, target_lang="zh")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", help="the folder to write (created)")
    p.add_argument("--opus-mt-en-zh", action="store_true", help="opus-mt-en-zh's sizes (other size flags win)")
    p.add_argument("--d", type=int)
    p.add_argument("--layers", type=int, nargs=2, metavar=("ENC", "DEC"))
    p.add_argument("--heads", type=int, nargs=2, metavar=("ENC", "DEC"))
    p.add_argument("--ffn", type=int, nargs=2, metavar=("ENC", "DEC"))
    p.add_argument("--activation", choices=["swish", "silu", "relu", "gelu", "gelu_new"])
    p.add_argument("--no-scale-embedding", action="store_true")
    p.add_argument("--max-positions", type=int)
    p.add_argument("--vocab-size", type=int, help="synthetic pieces: V including </s>, <unk>, <pad>")
    p.add_argument("--vocab-json", help="use this vocab.json as it is")
    p.add_argument("--pieces", help="a file of pieces, one a line (an spm .vocab file's first column)")
    p.add_argument("--source-spm")
    p.add_argument("--target-spm")
    p.add_argument("--seed", type=int)
    p.add_argument("--weights", choices=["safetensors", "bin"])
    p.add_argument("--dtype", choices=list(SAVE_DTYPES))
    p.add_argument("--bin-form", choices=["zip", "legacy"])
    p.add_argument("--tables", nargs="+", choices=list(TABLE_NAMES), help="names that hold the tied table")
    p.add_argument("--lm-head", action="store_true", help="store lm_head.weight")
    p.add_argument("--no-logits-bias", action="store_true", help="leave final_logits_bias out")
    p.add_argument("--positions", choices=["none", "sinusoid", "random"], help="store the embed_positions tables")
    p.add_argument("--eos-bias", type=float, help="added to final_logits_bias[</s>] (stored)")
    p.add_argument("--no-eos", action="store_true", help="--eos-bias -1e4: greedy runs to its length limit")
    p.add_argument("--bad-words", type=int, nargs="*", help="single-token ids forbidden besides <pad>")
    p.add_argument("--no-share", action="store_true", help="separate encoder and decoder tables")
    p.add_argument("--no-tie", action="store_true", help="an lm_head.weight of its own")
    p.add_argument("--langs", nargs=2, metavar=("SRC", "TGT"))
    return p.parse_args(argv)


def spec_from_args(a):
    values = opus_mt_en_zh() if a.opus_mt_en_zh else {}
    pairs = {"layers": ("encoder_layers", "decoder_layers"), "heads": ("encoder_heads", "decoder_heads"),
             "ffn": ("encoder_ffn", "decoder_ffn"), "langs": ("source_lang", "target_lang")}
    for arg, (first, second) in pairs.items():
        if getattr(a, arg):
            values[first], values[second] = getattr(a, arg)
    for f in fields(FolderSpec):
        if getattr(a, f.name, None) is not None:
            values[f.name] = getattr(a, f.name)
    values["tables"] = tuple(a.tables or ("shared",))
    values.update(scale_embedding=not a.no_scale_embedding, share=not a.no_share, tie=not a.no_tie,
                  lm_head=a.lm_head, logits_bias=not a.no_logits_bias)
    if a.no_eos:
        values["eos_bias"] = -1e4
    return FolderSpec(**values)


def main(argv=None):
    a = parse_args(argv)
    spec = spec_from_args(a)
    vocab = None
    if a.vocab_json:
        with open(a.vocab_json, encoding="utf-8") as f:
            vocab = json.load(f)
    pieces = read_pieces(a.pieces) if a.pieces else None
    vocab, _ = write_folder(a.out, spec, vocab=vocab, pieces=pieces, source_spm=a.source_spm,
                            target_spm=a.target_spm)
    print(f"{a.out}: V {len(vocab)}, d {spec.d}, {spec.encoder_layers}+{spec.decoder_layers} layers, "
          f"{spec.weights} {spec.dtype}")


if __name__ == "__main__":
    main()
