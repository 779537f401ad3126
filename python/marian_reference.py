"""The shared spec marian.md's maths in plain PyTorch eager ops, written from the spec (no transformers): the
reference that bench/pytorch_marian_check.py holds attnviz-cli to, and the PyTorch side of the Marian speed ratio.

    from marian_reference import MarianReference
    m = MarianReference("path/to/opus-mt-en-zh")          # config.json, generation_config.json, the weights
    out = m.forced(source_ids, target_ids)                 # log-probs and every layer's and head's attention
    tokens, log_probs = m.greedy(source_ids, max_len=20)   # eager loop with a key/value cache
    R = m.grad_input(source_ids, target_ids)               # explain.md's gradient x input, T x S

Ids are model ids: the source ends with </s> (no <sos>), the target is the output tokens (</s> included); the
decoder's inputs are decoder_start_token_id then the target without its last token.
Legend: S source length, T target length, L layers, H heads, d width, d_h = d / H, V_t target vocabulary.
"""
import math
import os
import sys

import torch
import torch.nn.functional as F

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from marian_folder import MarianError, load_config, load_vocabs, load_weights  # noqa: E402,F401


def activation(name, x):
    """The config's activation_function from its formula."""
    if name in ("swish", "silu"):
        return x * torch.sigmoid(x)
    if name == "relu":
        return torch.clamp(x, min=0)
    if name == "gelu":  # the erf form
        return 0.5 * x * (1 + torch.erf(x / math.sqrt(2)))
    return 0.5 * x * (1 + torch.tanh(math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)))  # gelu_new


def halves_sinusoid(positions, d, dtype=torch.float32):
    """(P, d): sines of p / 10000^(2k/d) in columns k < ceil(d/2), cosines in the rest (transformers'
    MarianSinusoidalPositionalEmbedding; for even d the spec's P[p, k] and P[p, d/2 + k]), computed in float64."""
    p = torch.arange(positions, dtype=torch.float64).unsqueeze(1)
    j = torch.arange(d, dtype=torch.float64)
    angle = p / torch.pow(10000.0, 2 * torch.div(j, 2, rounding_mode="floor") / d)  # (P, d), column j uses j // 2
    sentinel = (d + 1) // 2
    out = torch.empty(positions, d, dtype=torch.float64)
    out[:, :sentinel] = torch.sin(angle[:, 0::2])
    out[:, sentinel:] = torch.cos(angle[:, 1::2])
    return out.to(dtype)


class MarianReference:
    """A Marian folder's model; every computation in the dtype given (float32 as the engine, float64 for checks)."""

    def __init__(self, folder, dtype=torch.float32):
        self.folder = folder
        self.cfg = load_config(folder)
        weights, self.weights_file = load_weights(folder, self.cfg)
        self.w = {n: t.to(dtype) for n, t in weights.items()}
        self.dtype = dtype
        c = self.cfg
        self.scale = math.sqrt(c.d) if c.scale_embedding else 1.0
        computed = halves_sinusoid(c.max_positions, c.d, dtype)
        self.positions = {side: self.w.get(f"model.{side}.embed_positions.weight", computed)
                          for side in ("encoder", "decoder")}
        self.forbidden = torch.tensor(c.forbidden, dtype=torch.long)

    # ---- blocks ----
    def linear(self, name, x):
        return F.linear(x, self.w[name + ".weight"], self.w[name + ".bias"])

    def layer_norm(self, name, x):
        return F.layer_norm(x, (self.cfg.d,), self.w[name + ".weight"], self.w[name + ".bias"], eps=1e-5)

    def feed_forward(self, p, x):
        return self.linear(p + "fc2", activation(self.cfg.activation, self.linear(p + "fc1", x)))

    def keys_values(self, prefix, m):
        """(k, v), each (n, d): the projections of the attended rows m (n, d)."""
        return self.linear(prefix + ".k_proj", m), self.linear(prefix + ".v_proj", m)

    def attend(self, prefix, x, k, v, heads, causal=False):
        """(out (n, d), weights (H, n, m)) of x (n, d) attending to keys and values (m, d); causal: row i sees
        columns 0..i of a sequence whose last n rows are x."""
        n, d = x.shape
        dh = d // heads
        q = self.linear(prefix + ".q_proj", x) * dh ** -0.5
        qh = q.reshape(n, heads, dh).transpose(0, 1)  # (H, n, d_h)
        kh = k.reshape(-1, heads, dh).transpose(0, 1)  # (H, m, d_h)
        vh = v.reshape(-1, heads, dh).transpose(0, 1)
        scores = qh @ kh.transpose(1, 2)  # (H, n, m)
        if causal:
            m = k.shape[0]
            rows = torch.arange(m - n, m).unsqueeze(1)
            scores = scores.masked_fill(torch.arange(m).unsqueeze(0) > rows, -math.inf)
        a = torch.softmax(scores, dim=-1)
        o = a @ vh  # (H, n, d_h)
        return self.linear(prefix + ".out_proj", o.transpose(0, 1).reshape(n, d)), a

    def embed(self, side, table, ids, rows=None):
        """(n, d): E[id] · s + P[position], positions from 0 (or rows[i] when given); `table` rows replace E[ids]."""
        n = len(ids) if table is None else table.shape[0]
        positions = torch.arange(n) if rows is None else torch.tensor(rows)
        if int(positions.max()) >= self.cfg.max_positions:
            raise MarianError(f"{side} position {int(positions.max())} is past max_position_embeddings "
                              f"{self.cfg.max_positions}")
        if table is None:
            table = self.w[f"model.{side}.embed_tokens.weight"][torch.tensor(ids, dtype=torch.long)]
        return table * self.scale + self.positions[side][positions]

    def log_softmax(self, logits):
        """log p over the tokens that may be produced: the forbidden ones' logits removed (−inf)."""
        return torch.log_softmax(logits.index_fill(-1, self.forbidden, -math.inf), dim=-1)

    def logits(self, y):
        return F.linear(y, self.w["lm_head.weight"]) + self.w["final_logits_bias"][0]

    # ---- passes ----
    def encode(self, source_ids, embeddings=None):
        """(memory (S, d), [L_enc] self-attention (H, S, S)); embeddings (S, d) replaces E[source_ids]."""
        x = self.embed("encoder", embeddings, source_ids)
        maps = []
        for lay in range(self.cfg.enc_layers):
            p = f"model.encoder.layers.{lay}."
            sa, a = self.attend(p + "self_attn", x, *self.keys_values(p + "self_attn", x), self.cfg.enc_heads)
            x = self.layer_norm(p + "self_attn_layer_norm", x + sa)
            x = self.layer_norm(p + "final_layer_norm", x + self.feed_forward(p, x))
            maps.append(a)
        return x, maps

    def decoder_inputs(self, target_ids):
        return [self.cfg.start] + list(target_ids[:-1])

    def forced(self, source_ids, target_ids, embeddings=None):
        """Forced decoding of target_ids, every row at once under the causal mask: a dict with log_probs (T, V_t),
        token_log_probs [T], cross (L_dec, H, T, S), decoder_self (L_dec, H, T, T), encoder_self (L_enc, H, S, S)."""
        memory, enc_maps = self.encode(source_ids, embeddings)
        y = self.embed("decoder", None, self.decoder_inputs(target_ids))
        cross, self_maps, c = [], [], self.cfg
        for lay in range(c.dec_layers):
            p = f"model.decoder.layers.{lay}."
            sa, a_self = self.attend(p + "self_attn", y, *self.keys_values(p + "self_attn", y), c.dec_heads, True)
            y = self.layer_norm(p + "self_attn_layer_norm", y + sa)
            ca, a_cross = self.attend(p + "encoder_attn", y, *self.keys_values(p + "encoder_attn", memory),
                                      c.dec_heads)
            y = self.layer_norm(p + "encoder_attn_layer_norm", y + ca)
            y = self.layer_norm(p + "final_layer_norm", y + self.feed_forward(p, y))
            cross.append(a_cross)
            self_maps.append(a_self)
        lp = self.log_softmax(self.logits(y))
        return {"log_probs": lp, "token_log_probs": [lp[t, i] for t, i in enumerate(target_ids)],
                "cross": torch.stack(cross), "decoder_self": torch.stack(self_maps),
                "encoder_self": torch.stack(enc_maps)}

    def greedy(self, source_ids, max_len):
        """(tokens, log_probs, attentions): greedy decoding one position at a time, each decoder layer's
        self-attention keys and values cached and the cross-attention's computed once. Stops after </s> or at
        max_len tokens (</s> counted); the highest log p wins, the lowest id among equals. attentions is forced()'s
        cross / decoder_self / encoder_self, assembled from the steps (decoder_self zero above the diagonal)."""
        c = self.cfg
        with torch.no_grad():
            memory, enc_maps = self.encode(source_ids)
            cross_kv = [self.keys_values(f"model.decoder.layers.{lay}.encoder_attn", memory)
                        for lay in range(c.dec_layers)]
            cache = [[torch.empty(0, c.d, dtype=self.dtype)] * 2 for _ in range(c.dec_layers)]
            token, tokens, log_probs, rows = c.start, [], [], []
            while len(tokens) < max_len:
                y = self.embed("decoder", None, [token], rows=[len(tokens)])
                y, maps = self.decoder_step(y, cache, cross_kv)
                lp = self.log_softmax(self.logits(y))[0]
                token = int(torch.argmax(lp))  # the first of equal maxima
                tokens.append(token)
                log_probs.append(float(lp[token]))
                rows.append(maps)
                if token == c.eos:
                    break
        return tokens, log_probs, self.stack_steps(rows, enc_maps)

    def decoder_step(self, y, cache, cross_kv):
        """One decoder position: y (1, d) through every layer, appending its keys and values to cache[layer]."""
        maps = []
        for lay in range(self.cfg.dec_layers):
            p = f"model.decoder.layers.{lay}."
            k, v = self.keys_values(p + "self_attn", y)
            cache[lay] = [torch.cat((cache[lay][0], k)), torch.cat((cache[lay][1], v))]
            sa, a_self = self.attend(p + "self_attn", y, *cache[lay], self.cfg.dec_heads)
            y = self.layer_norm(p + "self_attn_layer_norm", y + sa)
            ca, a_cross = self.attend(p + "encoder_attn", y, *cross_kv[lay], self.cfg.dec_heads)
            y = self.layer_norm(p + "encoder_attn_layer_norm", y + ca)
            y = self.layer_norm(p + "final_layer_norm", y + self.feed_forward(p, y))
            maps.append((a_cross[:, 0], a_self[:, 0]))
        return y, maps

    def stack_steps(self, rows, enc_maps):
        T = len(rows)
        cross = torch.stack([torch.stack([r[lay][0] for r in rows], dim=1) for lay in range(self.cfg.dec_layers)])
        dec = torch.zeros(self.cfg.dec_layers, self.cfg.dec_heads, T, T, dtype=self.dtype)
        for t, r in enumerate(rows):
            for lay in range(self.cfg.dec_layers):
                dec[lay, :, t, :t + 1] = r[lay][1]
        return {"cross": cross, "decoder_self": dec, "encoder_self": torch.stack(enc_maps)}

    def grad_input(self, source_ids, target_ids, rows=None):
        """explain.md's grad_input, (len(rows), S): R[t][j] = Σ_k e_jk ∂f_t/∂e_jk, e_j = E[source_ids[j]] (before
        · s and the positions), f_t = log p(y_t | y_<t, x) of forced decoding; rows default to every row."""
        rows = range(len(target_ids)) if rows is None else rows
        table = self.w["model.encoder.embed_tokens.weight"]
        e = table[torch.tensor(source_ids, dtype=torch.long)].detach().clone().requires_grad_(True)
        lp = self.forced(source_ids, target_ids, embeddings=e)["log_probs"]
        out = []
        for i, t in enumerate(rows):
            (g,) = torch.autograd.grad(lp[t, target_ids[t]], e, retain_graph=i + 1 < len(rows))
            out.append((g * e).sum(dim=1).detach())
        return torch.stack(out)


def max_difference(a, b):
    """The largest |a − b| of two arrays (nested lists or tensors) of one shape, equal infinities (forbidden
    tokens' log-probs) counting as 0 and a NaN or JSON null (None) as infinitely far."""
    def floats(x):
        return [floats(v) for v in x] if isinstance(x, (list, tuple)) else math.nan if x is None else float(x)

    a, b = (x.to(torch.float64) if torch.is_tensor(x) else torch.tensor(floats(x), dtype=torch.float64) for x in (a, b))
    if a.shape != b.shape:
        return math.inf
    d = torch.where(a == b, torch.zeros_like(a), (a - b).abs())
    return float(torch.nan_to_num(d, nan=math.inf).max()) if d.numel() else 0.0


def main():
    """python3 python/marian_reference.py FOLDER ID... : greedy output ids and log-probs of a source given as ids."""
    if len(sys.argv) < 3:
        sys.exit(main.__doc__)
    m = MarianReference(sys.argv[1])
    tokens, log_probs, _ = m.greedy([int(a) for a in sys.argv[2:]], max_len=m.cfg.max_positions)
    _, pieces = load_vocabs(sys.argv[1])
    for t, lp in zip(tokens, log_probs):
        print(f"{t}\t{pieces.get(t, '?')!r}\t{lp:.6f}")


if __name__ == "__main__":
    main()
