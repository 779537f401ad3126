"""Reading a Hugging Face MarianMT folder (the opus-mt models) as the shared spec marian.md describes it: the
config (config.json, generation_config.json winning where it has a key), the vocabularies, and the weights of
model.safetensors (F32, F16, BF16, read by attnviz_format's own parser) or pytorch_model.bin (torch.load), with the
spec's tied-name rules resolved into one float tensor per name. The maths are in marian_reference.py.

Legend: V source vocabulary, V_t target vocabulary, d model width, F feed-forward width, P max positions.
"""
import json
import os
import sys
from dataclasses import dataclass

import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attnviz_format import read_safetensors  # noqa: E402

TORCH_DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16}
GENERATION_KEYS = ("bad_words_ids", "num_beams", "max_length", "decoder_start_token_id", "eos_token_id",
                   "pad_token_id")
PRE_LN_KEYS = ("normalize_before", "normalize_embedding", "add_final_layer_norm")
ACTIVATIONS = ("swish", "silu", "relu", "gelu", "gelu_new")
# MarianConfig's defaults (transformers' configuration_marian.py), for keys a config.json leaves out.
DEFAULTS = {"vocab_size": 58101, "max_position_embeddings": 1024, "encoder_layers": 12, "encoder_ffn_dim": 4096,
            "encoder_attention_heads": 16, "decoder_layers": 12, "decoder_ffn_dim": 4096,
            "decoder_attention_heads": 16, "activation_function": "gelu", "d_model": 1024, "scale_embedding": False,
            "pad_token_id": 58100, "eos_token_id": 0, "decoder_start_token_id": 58100,
            "share_encoder_decoder_embeddings": True, "tie_word_embeddings": True}
SHARED, ENC_EMB, DEC_EMB, LM_HEAD = ("model.shared.weight", "model.encoder.embed_tokens.weight",
                                     "model.decoder.embed_tokens.weight", "lm_head.weight")


class MarianError(ValueError):
    """A folder this reader refuses, with a message naming the file and what is wrong."""


@dataclass
class MarianConfig:
    d: int
    enc_layers: int
    dec_layers: int
    enc_heads: int
    dec_heads: int
    enc_ffn: int
    dec_ffn: int
    activation: str
    vocab: int  # V
    target_vocab: int  # V_t
    max_positions: int
    scale_embedding: bool
    pad: int
    eos: int
    start: int
    forbidden: list  # the pad id and every single-token entry of bad_words_ids, sorted
    share: bool
    tie: bool


def read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise MarianError(f"{path}: cannot be read as JSON ({e})") from None


def merged_config(folder):
    """config.json's keys with MarianConfig's defaults, generation_config.json winning for GENERATION_KEYS."""
    path = os.path.join(folder, "config.json")
    raw = read_json(path)
    if not isinstance(raw, dict) or raw.get("model_type") != "marian":
        raise MarianError(f"{path}: model_type is {raw.get('model_type') if isinstance(raw, dict) else None!r}, "
                          "not \"marian\"")
    c = {**DEFAULTS, **raw}
    gen_path = os.path.join(folder, "generation_config.json")
    if os.path.exists(gen_path):
        gen = read_json(gen_path)
        c.update({k: gen[k] for k in GENERATION_KEYS if isinstance(gen, dict) and k in gen})
    for key in PRE_LN_KEYS:
        if c.get(key):
            raise MarianError(f"{path}: {key} is {c[key]!r}; Marian is post-LN with no extra norms")
    if c.get("static_position_embeddings", True) is not True:
        raise MarianError(f"{path}: static_position_embeddings must be true or absent")
    if c["activation_function"] not in ACTIVATIONS:
        raise MarianError(f"{path}: activation_function {c['activation_function']!r} is not one of {ACTIVATIONS}")
    return c


def load_config(folder):
    c = merged_config(folder)
    path = os.path.join(folder, "config.json")
    cfg = MarianConfig(
        d=c["d_model"], enc_layers=c["encoder_layers"], dec_layers=c["decoder_layers"],
        enc_heads=c["encoder_attention_heads"], dec_heads=c["decoder_attention_heads"], enc_ffn=c["encoder_ffn_dim"],
        dec_ffn=c["decoder_ffn_dim"], activation=c["activation_function"], vocab=c["vocab_size"],
        target_vocab=c.get("decoder_vocab_size") or c["vocab_size"], max_positions=c["max_position_embeddings"],
        scale_embedding=bool(c["scale_embedding"]), pad=c["pad_token_id"], eos=c["eos_token_id"],
        start=c["decoder_start_token_id"], forbidden=[], share=bool(c["share_encoder_decoder_embeddings"]),
        tie=bool(c["tie_word_embeddings"]))
    for heads, side in ((cfg.enc_heads, "encoder"), (cfg.dec_heads, "decoder")):
        if heads < 1 or cfg.d % heads:
            raise MarianError(f"{path}: {side}_attention_heads {heads} does not divide d_model {cfg.d}")
    if cfg.share and cfg.target_vocab != cfg.vocab:
        raise MarianError(f"{path}: shared embeddings need decoder_vocab_size == vocab_size")
    bad = c.get("bad_words_ids") or []
    cfg.forbidden = sorted({cfg.pad} | {w[0] for w in bad if isinstance(w, list) and len(w) == 1})
    for name, i in [("pad_token_id", cfg.pad), ("eos_token_id", cfg.eos), ("decoder_start_token_id", cfg.start)] + \
            [("bad_words_ids", i) for i in cfg.forbidden]:
        if not (isinstance(i, int) and 0 <= i < cfg.target_vocab):
            raise MarianError(f"{path}: {name} {i!r} is not a target id (0..{cfg.target_vocab - 1})")
    return cfg


def load_vocabs(folder):
    """(source piece -> id, target id -> piece): vocab.json for both sides unless tokenizer_config.json says
    separate_vocabs, then target_vocab.json for the target."""
    tok_path = os.path.join(folder, "tokenizer_config.json")
    tok = read_json(tok_path) if os.path.exists(tok_path) else {}
    source = read_json(os.path.join(folder, "vocab.json"))
    target = read_json(os.path.join(folder, "target_vocab.json")) if tok.get("separate_vocabs") else source
    return source, {i: piece for piece, i in target.items()}


def expected_shapes(cfg):
    """name -> shape of every tensor the model has (tied and optional ones included)."""
    d, shapes = cfg.d, {}
    shapes.update({SHARED: [cfg.vocab, d]} if cfg.share else {})
    shapes.update({ENC_EMB: [cfg.vocab, d], DEC_EMB: [cfg.target_vocab, d], LM_HEAD: [cfg.target_vocab, d],
                   "final_logits_bias": [1, cfg.target_vocab],
                   "model.encoder.embed_positions.weight": [cfg.max_positions, d],
                   "model.decoder.embed_positions.weight": [cfg.max_positions, d]})

    def linear(prefix, out, inp):
        shapes.update({prefix + ".weight": [out, inp], prefix + ".bias": [out]})

    for side, layers, ffn, attns in (("encoder", cfg.enc_layers, cfg.enc_ffn, ("self_attn",)),
                                     ("decoder", cfg.dec_layers, cfg.dec_ffn, ("self_attn", "encoder_attn"))):
        for lay in range(layers):
            p = f"model.{side}.layers.{lay}."
            for a in attns:
                for proj in ("q_proj", "k_proj", "v_proj", "out_proj"):
                    linear(p + a + "." + proj, d, d)
                shapes.update({p + a + "_layer_norm.weight": [d], p + a + "_layer_norm.bias": [d]})
            linear(p + "fc1", ffn, d)
            linear(p + "fc2", d, ffn)
            shapes.update({p + "final_layer_norm.weight": [d], p + "final_layer_norm.bias": [d]})
    return shapes


def read_tensors(folder):
    """(name -> float32 tensor as stored, the file's name): model.safetensors wins over pytorch_model.bin."""
    st, pt = os.path.join(folder, "model.safetensors"), os.path.join(folder, "pytorch_model.bin")
    if os.path.exists(st):
        tensors, _ = read_safetensors(st)
        out = {}
        for name, t in tensors.items():
            if t.dtype not in TORCH_DTYPES:
                raise MarianError(f"{st}: tensor '{name}' has dtype {t.dtype}, not F32, F16 or BF16")
            flat = torch.frombuffer(bytearray(t.data), dtype=TORCH_DTYPES[t.dtype]) if t.data else torch.empty(0)
            out[name] = flat.to(torch.float32).reshape(t.shape)
        return out, st
    if os.path.exists(pt):
        sd = torch.load(pt, map_location="cpu", weights_only=True)
        return {name: t.to(torch.float32) for name, t in sd.items()}, pt
    raise MarianError(f"{folder}: neither model.safetensors nor pytorch_model.bin is there")


def tied_groups(cfg):
    """Lists of names that are one tensor: the first stored name of a group stands for the others."""
    if cfg.share:
        return [[SHARED, ENC_EMB, DEC_EMB] + ([LM_HEAD] if cfg.tie else [])]
    return [[ENC_EMB], [DEC_EMB] + ([LM_HEAD] if cfg.tie else [])]


def load_weights(folder, cfg):
    """(name -> float32 tensor for every name of expected_shapes but the positions when not stored, the file)."""
    stored, path = read_tensors(folder)
    shapes = expected_shapes(cfg)
    for name, t in stored.items():
        if name not in shapes:
            raise MarianError(f"{path}: tensor '{name}' is not a Marian weight")
        if list(t.shape) != shapes[name]:
            raise MarianError(f"{path}: tensor '{name}' has shape {list(t.shape)}, expected {shapes[name]}")
    w = dict(stored)
    for group in tied_groups(cfg):
        present = [n for n in group if n in stored]
        if not present:
            raise MarianError(f"{path}: none of {', '.join(group)} is stored")
        for n in present[1:]:
            if not torch.equal(stored[n], stored[present[0]]):
                raise MarianError(f"{path}: tied tensors '{present[0]}' and '{n}' differ")
        w.update({n: stored[present[0]] for n in group})
    w.setdefault("final_logits_bias", torch.zeros(1, cfg.target_vocab))
    optional = {"model.encoder.embed_positions.weight", "model.decoder.embed_positions.weight"}
    missing = [n for n in shapes if n not in w and n not in optional]
    if missing:
        raise MarianError(f"{path}: tensor '{missing[0]}' is missing" + (f" ({len(missing)} in all)"
                                                                         if len(missing) > 1 else ""))
    return w, path
