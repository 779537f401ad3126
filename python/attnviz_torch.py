#!/usr/bin/python3
"""PyTorch <-> attnviz: save a PyTorch seq2seq model as an attnviz model file, load one back, and check that
attnviz decodes it as PyTorch does.

    import attnviz_torch as av
    model = av.Seq2Seq({"decoder": "bahdanau", "score": "additive", "emb_dim": 64, "enc_hid_dim": 64,
                        "dec_hid_dim": 128}, len(src_vocab), len(trg_vocab))
    ... train ...
    av.save(model, "model.safetensors", src_vocab, trg_vocab)
    model = av.load("model.safetensors")          # a Seq2Seq with .config, .src_vocab, .trg_vocab, .metadata

    python3 python/attnviz_torch.py check model.safetensors "a sentence" [--target "a reference"] [--cli PATH]

Layouts `save` takes (any nn.Module or state_dict whose keys are these):
(a) the classic tutorial's Encoder / Attention / Decoder (this module's Seq2Seq; the tensor names of
    docs/model-format.md), bahdanau or luong, every score and span;
(b) additive attention with separate linear layers `decoder.attention.W` (on the decoder state s), `.U` (on the
    encoder outputs h) and `.v`, each with a bias: e_j = v . tanh(W s + b_W + U h_j + b_U) + b_v. It is converted
    exactly to the format's form: attn.weight = [W | U], attn.bias = b_W + b_U, and v's bias is dropped because a
    constant added to every score leaves the softmax unchanged. Other names: attention_names=(W, U, v).
(c) nn.Transformer tutorial models (docs/transformer.md): NotImplementedError, this bridge has no such modules yet.

Debian's python3-torch: run with /usr/bin/python3. The file writer itself (attnviz_format.py) needs no torch.
"""
import json
import math
import os
import sys

import torch
import torch.nn as nn
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attnviz_format import (EOS, PAD, SOS, Tensor, complete_config, model_metadata,  # noqa: E402
                            read_safetensors, write_safetensors)

TORCH_DTYPES = {"F32": torch.float32, "F16": torch.float16, "BF16": torch.bfloat16, "F64": torch.float64}


class Encoder(nn.Module):
    """Bidirectional one-layer GRU; s_0 = tanh(fc([f_{S-1} ; b_0]))."""

    def __init__(self, V, E, He, Hd, dropout=0.0):
        super().__init__()
        self.embedding = nn.Embedding(V, E)
        self.rnn = nn.GRU(E, He, bidirectional=True)
        self.fc = nn.Linear(2 * He, Hd)
        self.dropout = nn.Dropout(dropout)

    def forward(self, src, src_len=None):  # src (S, B) ids; src_len (B,) when the batch is padded
        x = self.dropout(self.embedding(src))
        if src_len is None:
            out, h = self.rnn(x)  # out (S, B, 2He); h (2, B, He) = [f_{S-1}, b_0]
        else:  # each sentence's backward GRU starts at its own last token
            packed = nn.utils.rnn.pack_padded_sequence(x, src_len.cpu(), enforce_sorted=False)
            out, h = self.rnn(packed)
            out, _ = nn.utils.rnn.pad_packed_sequence(out, total_length=src.shape[0])
        return out, torch.tanh(self.fc(torch.cat((h[-2], h[-1]), dim=1)))


class Attention(nn.Module):
    """Scores e_j of decoder state s against encoder outputs h_j, and the weights over the span."""

    def __init__(self, score, He, Hd, span="global", window=5):
        super().__init__()
        self.score, self.span, self.window, self.Hd = score, span, window, Hd
        if score == "additive":
            self.attn = nn.Linear(Hd + 2 * He, Hd)
            self.v = nn.Linear(Hd, 1, bias=False)
        elif score == "general":
            self.W = nn.Linear(2 * He, Hd, bias=False)
        if span == "local_p":
            self.Wp = nn.Linear(Hd, Hd, bias=False)
            self.vp = nn.Linear(Hd, 1, bias=False)

    def scores(self, s, enc):  # s (B, Hd), enc (S, B, 2He) -> (B, S)
        keys = enc.permute(1, 0, 2)
        if self.score == "additive":
            query = s.unsqueeze(1).repeat(1, enc.shape[0], 1)
            return self.v(torch.tanh(self.attn(torch.cat((query, keys), dim=2)))).squeeze(2)
        if self.score == "general":
            keys = self.W(keys)
        e = torch.bmm(keys, s.unsqueeze(2)).squeeze(2)
        return e / math.sqrt(self.Hd) if self.score == "scaled_dot" else e

    def forward(self, s, enc, mask=None, t=1):  # mask (B, S), True at real tokens; t: the position produced
        e = self.scores(s, enc)
        if mask is not None:
            e = e.masked_fill(~mask, float("-inf"))
        if self.span == "global":
            return F.softmax(e, dim=1)
        S = enc.shape[0]
        lengths = mask.sum(1).to(s.dtype) if mask is not None else torch.full((s.shape[0],), float(S))
        if self.span == "local_m":
            p = torch.clamp(lengths - 1, max=float(t))
        else:
            p = lengths * torch.sigmoid(self.vp(torch.tanh(self.Wp(s)))).squeeze(1)
        dist = torch.arange(S, dtype=s.dtype).unsqueeze(0) - p.unsqueeze(1)  # (B, S): j - p
        a = F.softmax(e.masked_fill(dist.abs() > self.window, float("-inf")), dim=1)
        if self.span == "local_p":  # not renormalised: a row sums to less than 1
            a = a * torch.exp(-dist ** 2 / (2 * (self.window / 2) ** 2))
        return a


def _context(a, enc):  # a (B, S), enc (S, B, 2He) -> (B, 2He)
    return torch.bmm(a.unsqueeze(1), enc.permute(1, 0, 2)).squeeze(1)


class BahdanauDecoder(nn.Module):
    """Attention from the previous state: s = GRU([x ; c], s_prev), logits = fc_out([s ; c ; x])."""

    def __init__(self, c, V, dropout=0.0):
        super().__init__()
        E, He, Hd = c["emb_dim"], c["enc_hid_dim"], c["dec_hid_dim"]
        self.attention = Attention(c["score"], He, Hd)
        self.embedding = nn.Embedding(V, E)
        self.rnn = nn.GRU(E + 2 * He, Hd)
        self.fc_out = nn.Linear(Hd + 2 * He + E, V)
        self.dropout = nn.Dropout(dropout)

    def forward(self, y, s, enc, mask=None, t=1, feed=None):  # y (B,), s (B, Hd) -> logits (B, V), s, a, feed
        x = self.dropout(self.embedding(y))
        a = self.attention(s, enc, mask, t)
        c = _context(a, enc)
        _, h = self.rnn(torch.cat((x, c), dim=1).unsqueeze(0), s.unsqueeze(0))
        s = h.squeeze(0)
        return self.fc_out(torch.cat((s, c, x), dim=1)), s, a, None


class LuongDecoder(nn.Module):
    """Attention from the current state: s = GRU(x, s_prev), h~ = tanh(combine([c ; s])), logits = fc_out(h~)."""

    def __init__(self, c, V, dropout=0.0):
        super().__init__()
        E, He, Hd = c["emb_dim"], c["enc_hid_dim"], c["dec_hid_dim"]
        self.input_feeding = c["input_feeding"]
        self.attention = Attention(c["score"], He, Hd, c["span"], c["window"])
        self.embedding = nn.Embedding(V, E)
        self.rnn = nn.GRU(E + Hd if self.input_feeding else E, Hd)
        self.combine = nn.Linear(2 * He + Hd, Hd, bias=False)
        self.fc_out = nn.Linear(Hd, V)
        self.dropout = nn.Dropout(dropout)

    def forward(self, y, s, enc, mask=None, t=1, feed=None):  # feed: the previous h~ (input feeding)
        x = self.dropout(self.embedding(y))
        if self.input_feeding:
            x = torch.cat((x, feed if feed is not None else torch.zeros_like(s)), dim=1)
        _, h = self.rnn(x.unsqueeze(0), s.unsqueeze(0))
        s = h.squeeze(0)
        a = self.attention(s, enc, mask, t)
        ht = torch.tanh(self.combine(torch.cat((_context(a, enc), s), dim=1)))
        return self.fc_out(ht), s, a, ht


class Seq2Seq(nn.Module):
    """docs/model-format.md's model: `encoder` and `decoder` whose state_dict keys are the model file's tensor names."""

    def __init__(self, config, src_vocab_size, trg_vocab_size, dropout=0.0):
        super().__init__()
        self.config = complete_config(config)
        c = self.config
        self.encoder = Encoder(src_vocab_size, c["emb_dim"], c["enc_hid_dim"], c["dec_hid_dim"], dropout)
        self.decoder = (BahdanauDecoder if c["decoder"] == "bahdanau" else LuongDecoder)(c, trg_vocab_size, dropout)

    def forward(self, src, src_len, trg):
        """Teacher forcing. src (S, B), src_len (B,), trg (T, B) starting with <sos> -> logits (T-1, B, V)."""
        enc, s = self.encoder(src, src_len)
        mask = (src != PAD).permute(1, 0)
        out, feed = [], None
        for t in range(1, trg.shape[0]):
            logits, s, _, feed = self.decoder(trg[t - 1], s, enc, mask, t, feed)
            out.append(logits)
        return torch.stack(out)

    def loss(self, src, src_len, trg):
        """docs/model-format.md's objective: mean -log p over the non-<pad> target positions after <sos>."""
        logits = self(src, src_len, trg)
        return F.cross_entropy(logits.reshape(-1, logits.shape[-1]), trg[1:].reshape(-1), ignore_index=PAD)

    @torch.no_grad()
    def decode(self, src_ids, max_len=None, target_ids=None):
        """Greedy decoding by the format's rule (never <pad>/<sos>, ties to the lowest id, stop after <eos>), or
        forced onto target_ids (<eos> included). -> (target ids, attention rows, log-probabilities)."""
        enc, s = self.encoder(torch.tensor(src_ids).unsqueeze(1))
        y, feed, ids, rows, log_probs = torch.tensor([SOS]), None, [], [], []
        steps = len(target_ids) if target_ids is not None else max_len or 2 * len(src_ids) + 10
        for t in range(1, steps + 1):
            logits, s, a, feed = self.decoder(y, s, enc, None, t, feed)
            lp = F.log_softmax(logits, dim=1)[0]
            if target_ids is not None:
                token = target_ids[t - 1]
            else:
                masked = lp.clone()
                masked[[PAD, SOS]] = float("-inf")
                token = int(masked.argmax())
            ids.append(token)
            rows.append(a[0].tolist())
            log_probs.append(float(lp[token]))
            if target_ids is None and token == EOS:
                break
            y = torch.tensor([token])
        return ids, rows, log_probs


def expected_shapes(c, Vs, Vt):
    """name -> shape of every tensor docs/model-format.md gives a model of config c (complete)."""
    E, He, Hd = c["emb_dim"], c["enc_hid_dim"], c["dec_hid_dim"]

    def gru(prefix, inputs, hidden, suffixes):
        return {f"{prefix}.{kind}_l0{sfx}": shape for sfx in suffixes for kind, shape in (
            ("weight_ih", [3 * hidden, inputs]), ("weight_hh", [3 * hidden, hidden]),
            ("bias_ih", [3 * hidden]), ("bias_hh", [3 * hidden]))}

    want = {"encoder.embedding.weight": [Vs, E], "encoder.fc.weight": [Hd, 2 * He], "encoder.fc.bias": [Hd],
            **gru("encoder.rnn", E, He, ("", "_reverse")), "decoder.embedding.weight": [Vt, E]}
    a = "decoder.attention."
    if c["score"] == "additive":
        want.update({a + "attn.weight": [Hd, Hd + 2 * He], a + "attn.bias": [Hd], a + "v.weight": [1, Hd]})
    elif c["score"] == "general":
        want[a + "W.weight"] = [Hd, 2 * He]
    if c["decoder"] == "bahdanau":
        want.update(gru("decoder.rnn", E + 2 * He, Hd, ("",)))
        want.update({"decoder.fc_out.weight": [Vt, Hd + 2 * He + E], "decoder.fc_out.bias": [Vt]})
        return want
    want.update(gru("decoder.rnn", E + Hd if c["input_feeding"] else E, Hd, ("",)))
    want.update({"decoder.combine.weight": [Hd, 2 * He + Hd], "decoder.fc_out.weight": [Vt, Hd],
                 "decoder.fc_out.bias": [Vt]})
    if c["span"] == "local_p":
        want.update({a + "Wp.weight": [Hd, Hd], a + "vp.weight": [1, Hd]})
    return want


def _additive_from_separate(sd, names):
    """(b): W, U, v with biases -> attn = [W | U], b_W + b_U (summed in float64), v without its bias."""
    p = "decoder.attention."
    qn, kn, vn = names
    W, U, v = sd.pop(f"{p}{qn}.weight"), sd.pop(f"{p}{kn}.weight"), sd.pop(f"{p}{vn}.weight")
    Hd = W.shape[0]
    if W.shape[1] != Hd or U.shape[0] != Hd or list(v.shape) != [1, Hd]:
        raise ValueError(f"attention {qn}/{kn}/{vn}: expected {qn} {Hd}x{Hd} (on the decoder state), {kn} {Hd}x2H_e "
                         f"(on the encoder outputs), {vn} 1x{Hd}; got {list(W.shape)}, {list(U.shape)}, "
                         f"{list(v.shape)} (pass attention_names in that order)")
    zero = torch.zeros(Hd, dtype=torch.float64)
    b = sd.pop(f"{p}{qn}.bias", zero).double() + sd.pop(f"{p}{kn}.bias", zero).double()
    sd[f"{p}attn.weight"] = torch.cat((W, U), dim=1)
    sd[f"{p}attn.bias"] = b.float()
    sd[f"{p}v.weight"] = v
    return sd


def _infer_config(sd, given):
    """The config from the tensors' shapes, where they tell; `given` keys win."""
    c = dict(given)
    try:
        c.setdefault("emb_dim", sd["encoder.embedding.weight"].shape[1])
        c.setdefault("enc_hid_dim", sd["encoder.rnn.weight_hh_l0"].shape[1])
        c.setdefault("dec_hid_dim", sd["encoder.fc.weight"].shape[0])
    except KeyError as e:
        raise ValueError(f"not an attnviz seq2seq layout: no tensor {e} (docs/model-format.md names)") from None
    c.setdefault("decoder", "luong" if "decoder.combine.weight" in sd else "bahdanau")
    if "score" not in c:
        if "decoder.attention.attn.weight" in sd:
            c["score"] = "additive"
        elif "decoder.attention.W.weight" in sd:
            c["score"] = "general"
        else:
            raise ValueError("the tensors do not say the score (dot or scaled_dot?): pass config={'score': ...}")
    if "decoder.attention.Wp.weight" in sd and "span" not in c:
        raise ValueError("a local_p model: pass config={'span': 'local_p', 'window': D}")
    if c["decoder"] == "luong" and "input_feeding" not in c:
        c["input_feeding"] = sd["decoder.rnn.weight_ih_l0"].shape[1] != c["emb_dim"]
    return c


def save(model, path, src_vocab, trg_vocab, config=None, task=None, description=None, training=None,
         dtype="F32", attention_names=("W", "U", "v")):
    """Writes model (an nn.Module or a state_dict, layouts (a) and (b) of the module doc) to path. config: the
    model's (a Seq2Seq knows its own; otherwise inferred from the shapes, with config's keys winning).
    dtype: F32 or F16. The tensors are checked against the format before anything is written; an nn.Transformer
    model raises NotImplementedError."""
    sd = model if isinstance(model, dict) else model.state_dict()
    if isinstance(model, nn.Transformer) or any(k.startswith(("transformer.", "src_tok_emb.")) for k in sd):
        raise NotImplementedError("nn.Transformer models (spec transformer.md, decoder 'transformer') cannot be "
                                  "saved: the attnviz engine has no transformer kind yet")
    sd = {k: v.detach().cpu() for k, v in sd.items()}
    if f"decoder.attention.{attention_names[1]}.weight" in sd:
        sd = _additive_from_separate(sd, attention_names)
    # v's bias, in either layout: a constant added to every score leaves the softmax unchanged
    sd.pop(f"decoder.attention.{attention_names[2]}.bias", None)
    sd.pop("decoder.attention.v.bias", None)
    c = complete_config(_infer_config(sd, {**(getattr(model, "config", None) or {}), **(config or {})}))
    Vs, Vt = len(src_vocab), len(trg_vocab)
    want = expected_shapes(c, Vs, Vt)
    missing, extra = sorted(set(want) - set(sd)), sorted(set(sd) - set(want))
    if missing or extra:
        raise ValueError(f"tensors do not match config {c['decoder']}/{c['score']}/{c['span']}: "
                         f"missing {missing}, unexpected {extra}")
    for name, shape in want.items():
        if list(sd[name].shape) != shape:
            raise ValueError(f"tensor '{name}': shape {list(sd[name].shape)}, the config and vocabularies "
                             f"(source {Vs}, target {Vt} words) need {shape}")
    if dtype not in ("F32", "F16"):
        raise ValueError(f"dtype must be F32 or F16, not {dtype!r}")
    # numpy comes with torch (Debian's python3-torch depends on python3-numpy)
    tensors = {name: Tensor(shape, sd[name].to(TORCH_DTYPES[dtype]).contiguous().numpy().tobytes(), dtype)
               for name, shape in want.items()}
    write_safetensors(path, tensors, model_metadata(c, src_vocab, trg_vocab, task, description, training))


def load(path, dropout=0.0):
    """The model of an attnviz file as a Seq2Seq in eval mode, with .config, .src_vocab, .trg_vocab, .metadata.
    F16 / BF16 / F64 tensors become float32."""
    tensors, meta = read_safetensors(path)
    if meta.get("format") != "attnviz.seq2seq":
        raise ValueError(f"{path}: metadata format is {meta.get('format')!r}, not 'attnviz.seq2seq'")
    try:
        config, src_vocab, trg_vocab = (json.loads(meta[k]) for k in ("config", "source_vocab", "target_vocab"))
    except KeyError as e:
        raise ValueError(f"{path}: the metadata has no {e}") from None
    except json.JSONDecodeError as e:
        raise ValueError(f"{path}: metadata config or vocabulary is not JSON ({e})") from None
    model = Seq2Seq(config, len(src_vocab), len(trg_vocab), dropout)
    sd = {}
    for name, t in tensors.items():
        values = torch.frombuffer(bytearray(t.data), dtype=TORCH_DTYPES[t.dtype]) if t.data else torch.zeros(0)
        sd[name] = values.to(torch.float32).reshape(t.shape)
    model.load_state_dict(sd, strict=True)
    model.src_vocab, model.trg_vocab, model.metadata = src_vocab, trg_vocab, meta
    return model.eval()


if __name__ == "__main__":
    from attnviz_check import main
    sys.exit(main())
