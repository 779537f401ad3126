"""Self-checks of the Marian PyTorch reference (marian_reference.py), the yardstick of bench/pytorch_marian_check.py,
so that a disagreement there is attnviz's: the reference against PyTorch's own nn.TransformerEncoderLayer /
DecoderLayer carrying the same weights, greedy with its key/value cache against forced decoding without one, every
weights form of the spec (scripts/make_marian_folder.py) giving the same numbers, the halves positional table against
the spec's formula, forbidden tokens, gradient × input against central differences in float64, and the refusals.

    /usr/bin/python3 python/test_marian_reference.py      (exit 77, a CTest skip, when torch does not import)
"""
import json
import math
import os
import sys
import tempfile
import unittest

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
sys.path.insert(0, os.path.join(here, "..", "scripts"))
try:
    import torch
    import torch.nn.functional as F
    from torch import nn

    from make_marian_folder import FolderSpec, write_folder, write_weights
    from marian_reference import MarianError, MarianReference, halves_sinusoid
    from marian_reference import max_difference as max_diff
    NO_TORCH = None
except ImportError as e:
    NO_TORCH = f"torch does not import ({e})"

SOURCE = [5, 6, 7, 8, 9, 0]
TARGET = [11, 3, 17, 25, 30, 12, 0]


class TorchLayers:
    """The same model through nn.TransformerEncoderLayer / DecoderLayer (post-LN, batch first), PyTorch's own
    activations, the spec's positional formula written as a loop, and config.json read here, not by the reader."""

    def __init__(self, folder, weights):
        with open(os.path.join(folder, "config.json")) as f:
            c = json.load(f)
        with open(os.path.join(folder, "generation_config.json")) as f:
            c.update(json.load(f))
        self.c, self.w = c, weights
        act = {"swish": F.silu, "relu": F.relu, "gelu": F.gelu,
               "gelu_new": lambda x: F.gelu(x, approximate="tanh")}[c["activation_function"]]
        self.enc = [self.layer(nn.TransformerEncoderLayer, "encoder", i, act) for i in range(c["encoder_layers"])]
        self.dec = [self.layer(nn.TransformerDecoderLayer, "decoder", i, act) for i in range(c["decoder_layers"])]

    def layer(self, cls, side, i, act):
        c, p = self.c, f"model.{side}.layers.{i}."
        m = cls(c["d_model"], c[f"{side}_attention_heads"], c[f"{side}_ffn_dim"], dropout=0.0, activation=act,
                batch_first=True).eval()
        pairs = {"self_attn": "self_attn", "linear1": "fc1", "linear2": "fc2", "norm1": "self_attn_layer_norm"}
        pairs.update({"multihead_attn": "encoder_attn", "norm2": "encoder_attn_layer_norm", "norm3": "final_layer_norm"}
                     if side == "decoder" else {"norm2": "final_layer_norm"})
        sd = {}
        for ours, theirs in pairs.items():
            if "attn" in ours:
                proj = [p + f"{theirs}.{x}_proj" for x in "qkv"]
                sd[ours + ".in_proj_weight"] = torch.cat([self.w[n + ".weight"] for n in proj])
                sd[ours + ".in_proj_bias"] = torch.cat([self.w[n + ".bias"] for n in proj])
                ours, theirs = ours + ".out_proj", theirs + ".out_proj"
            sd[ours + ".weight"], sd[ours + ".bias"] = self.w[p + theirs + ".weight"], self.w[p + theirs + ".bias"]
        m.load_state_dict(sd)
        return m

    @staticmethod
    def record(mha, store):
        forward = mha.forward

        def with_weights(q, k, v, **kw):
            kw.update(need_weights=True, average_attn_weights=False)
            out, weights = forward(q, k, v, **kw)
            store.append(weights[0])
            return out, weights
        mha.forward = with_weights

    def embed(self, side, ids):
        d, scale = self.c["d_model"], math.sqrt(self.c["d_model"]) if self.c["scale_embedding"] else 1.0
        pos = [[math.sin(p / 10000 ** (2 * k / d)) for k in range(d // 2)] +
               [math.cos(p / 10000 ** (2 * k / d)) for k in range(d // 2)] for p in range(len(ids))]
        table = self.w[f"model.{side}.embed_tokens.weight"]
        return (table[torch.tensor(ids)] * scale + torch.tensor(pos)).unsqueeze(0)

    def forced(self, source, target):
        enc_maps, self_maps, cross_maps = [], [], []
        for m in self.enc:
            self.record(m.self_attn, enc_maps)
        for m in self.dec:
            self.record(m.self_attn, self_maps)
            self.record(m.multihead_attn, cross_maps)
        x = self.embed("encoder", source)
        for m in self.enc:
            x = m(x)
        y = self.embed("decoder", [self.c["decoder_start_token_id"]] + target[:-1])
        mask = nn.Transformer.generate_square_subsequent_mask(len(target))
        for m in self.dec:
            y = m(y, x, tgt_mask=mask)
        logits = y[0] @ self.w["lm_head.weight"].T + self.w["final_logits_bias"][0]
        full = torch.log_softmax(logits, dim=-1)
        allowed = torch.ones(logits.shape[-1], dtype=torch.bool)
        allowed[[self.c["pad_token_id"]] + [b[0] for b in self.c["bad_words_ids"] if len(b) == 1]] = False
        lp = torch.where(allowed, full - torch.logsumexp(full[:, allowed], dim=-1, keepdim=True), -math.inf)
        return {"log_probs": lp, "cross": torch.stack(cross_maps), "decoder_self": torch.stack(self_maps),
                "encoder_self": torch.stack(enc_maps)}


@unittest.skipIf(NO_TORCH, NO_TORCH)
class MarianReferenceTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.tmp.cleanup()

    def folder(self, name, spec, **kw):
        path = os.path.join(self.tmp.name, name)
        _, weights = write_folder(path, spec, **kw)
        return path, weights

    def forced(self, path, source=SOURCE, target=TARGET, dtype=None):
        with torch.no_grad():
            return MarianReference(path, dtype or torch.float32).forced(source, target)

    def assertSameOutputs(self, a, b, tolerance=0.0, what=""):
        for key in ("log_probs", "cross", "decoder_self", "encoder_self"):
            self.assertLessEqual(max_diff(a[key], b[key]), tolerance, f"{what}: {key}")

    def test_reference_equals_pytorch_transformer_layers(self):
        specs = [FolderSpec(seed=1), FolderSpec(seed=2, activation="relu", encoder_layers=3, decoder_heads=2),
                 FolderSpec(seed=3, activation="gelu", scale_embedding=False, bad_words=[4, 7]),
                 FolderSpec(seed=4, activation="gelu_new", d=24, encoder_heads=3, decoder_heads=6, encoder_ffn=40)]
        for i, spec in enumerate(specs):
            with self.subTest(activation=spec.activation):
                path, weights = self.folder(f"m{i}", spec)
                ours, theirs = self.forced(path), TorchLayers(path, weights).forced(SOURCE, TARGET)
                self.assertEqual(ours["cross"].shape, (spec.decoder_layers, spec.decoder_heads, 7, 6))
                self.assertSameOutputs(ours, theirs, 1e-5, spec.activation)
                self.assertFalse(torch.isfinite(ours["log_probs"][:, [39] + spec.bad_words]).any())

    def test_greedy_with_cache_equals_forced_without(self):
        specs = [FolderSpec(seed=6, eos_bias=3.0), FolderSpec(seed=6, activation="relu", decoder_layers=3,
                                                              positions="random")]
        for i, spec in enumerate(specs):
            path, _ = self.folder(f"g{i}", spec)
            m = MarianReference(path)
            tokens, log_probs, maps = m.greedy(SOURCE, max_len=12)
            with torch.no_grad():
                forced = m.forced(SOURCE, tokens)
            self.assertTrue(len(tokens) == 12 or tokens[-1] == 0, tokens)
            self.assertEqual(tokens, forced["log_probs"].argmax(dim=1).tolist())
            self.assertLessEqual(max_diff(log_probs, forced["token_log_probs"]), 1e-5)
            for key in ("cross", "decoder_self", "encoder_self"):
                self.assertLessEqual(max_diff(maps[key], forced[key]), 1e-6, key)

    def test_greedy_stops_at_eos_and_at_max_len(self):
        path, _ = self.folder("eos", FolderSpec(seed=6, eos_bias=3.0))  # </s> wins at the fifth step
        tokens, _, maps = MarianReference(path).greedy(SOURCE, max_len=30)
        self.assertEqual((len(tokens), tokens[-1], tokens.count(0)), (5, 0, 1), tokens)
        self.assertEqual(maps["decoder_self"].shape[-1], len(tokens))
        path, _ = self.folder("no_eos", FolderSpec(seed=7, eos_bias=-1e4))
        self.assertEqual(len(MarianReference(path).greedy(SOURCE, max_len=30)[0]), 30)

    def test_halves_positions_are_the_specs_formula(self):
        for d in (16, 512):
            table = halves_sinusoid(40, d, torch.float64)
            spec = [[math.sin(p / 10000 ** (2 * k / d)) for k in range(d // 2)] +
                    [math.cos(p / 10000 ** (2 * k / d)) for k in range(d // 2)] for p in range(40)]
            self.assertLessEqual(max_diff(table, spec), 1e-12)
        # not interleaved: position 1's cos(1 / 10000^0) is column d/2
        self.assertEqual(halves_sinusoid(3, 4, torch.float64)[1].tolist()[2], math.cos(1.0))

    def test_stored_positions_are_used_as_stored(self):
        computed, weights = self.folder("computed", FolderSpec(seed=8))
        stored, _ = self.folder("stored", FolderSpec(seed=8, positions="sinusoid"))
        self.assertSameOutputs(self.forced(computed), self.forced(stored), 1e-7, "sinusoid stored")
        weights = dict(weights)
        weights["model.decoder.embed_positions.weight"] = weights["model.decoder.embed_positions.weight"] * 0
        weights["model.encoder.embed_positions.weight"] = halves_sinusoid(64, 16)
        zero, _ = self.folder("zero", FolderSpec(seed=8, positions="random"), weights=weights)
        self.assertGreater(max_diff(self.forced(zero)["log_probs"], self.forced(computed)["log_probs"]), 0.01)

    def test_every_weights_form_gives_the_same_outputs(self):
        base, weights = self.folder("base", FolderSpec(seed=9))
        expected = self.forced(base)
        forms = [dict(tables=("encoder",)), dict(tables=("decoder",)), dict(tables=("shared", "encoder", "decoder")),
                 dict(lm_head=True), dict(weights="bin"), dict(weights="bin", bin_form="legacy", lm_head=True),
                 dict(weights="bin", tables=("decoder",)), dict(tie=False, lm_head=True),
                 dict(share=False, tables=())]
        for i, form in enumerate(forms):
            with self.subTest(form=form):
                path, _ = self.folder(f"form{i}", FolderSpec(seed=9, **form), weights=weights)
                self.assertSameOutputs(expected, self.forced(path), 0.0, str(form))
        for dtype, cast in (("F16", torch.float16), ("BF16", torch.bfloat16)):
            rounded = {n: t.to(cast).float() for n, t in weights.items()}
            f32, _ = self.folder(f"{dtype}-as-f32", FolderSpec(seed=9), weights=rounded)
            for form in ("safetensors", "bin"):
                path, _ = self.folder(f"{dtype}-{form}", FolderSpec(seed=9, dtype=dtype, weights=form), weights=rounded)
                self.assertSameOutputs(self.forced(f32), self.forced(path), 0.0, f"{dtype} {form}")

    def test_absent_logits_bias_is_zeros(self):
        _, weights = self.folder("random", FolderSpec(seed=10))
        weights = dict(weights, final_logits_bias=torch.zeros(1, 40))
        stored, _ = self.folder("stored", FolderSpec(seed=10), weights=weights)
        absent, _ = self.folder("absent", FolderSpec(seed=10, logits_bias=False), weights=weights)
        self.assertSameOutputs(self.forced(stored), self.forced(absent), 0.0, "final_logits_bias")

    def test_forbidden_tokens_are_never_produced(self):
        path, weights = self.folder("bad", FolderSpec(seed=11, bad_words=[21]))
        weights = dict(weights)
        weights["final_logits_bias"] = weights["final_logits_bias"].clone()
        weights["final_logits_bias"][0, [21, 39]] = 50.0  # <pad> and a bad word would win every step
        path, _ = self.folder("bad", FolderSpec(seed=11, bad_words=[21]), weights=weights)
        m = MarianReference(path)
        self.assertEqual(m.cfg.forbidden, [21, 39])
        tokens, _, _ = m.greedy(SOURCE, max_len=10)
        self.assertFalse({21, 39} & set(tokens), tokens)
        lp = self.forced(path)["log_probs"]
        self.assertLessEqual(max_diff(torch.logsumexp(lp, dim=1), torch.zeros(len(TARGET))), 1e-6)

    def test_grad_input_is_the_derivative_along_each_embedding(self):
        path, _ = self.folder("grad", FolderSpec(seed=12, activation="gelu_new"))
        m = MarianReference(path, torch.float64)
        R = m.grad_input(SOURCE, TARGET)
        self.assertEqual(R.shape, (len(TARGET), len(SOURCE)))
        e, h = m.w["model.encoder.embed_tokens.weight"][torch.tensor(SOURCE)], 1e-5
        def scaled(t, j, s):  # f_t with e_j scaled by s
            scale = torch.tensor([s if i == j else 1.0 for i in range(len(SOURCE))], dtype=torch.float64)
            return float(m.forced(SOURCE, TARGET, e * scale.unsqueeze(1))["log_probs"][t, TARGET[t]])

        for t in (0, 3, 6):
            for j in range(len(SOURCE)):
                difference = (scaled(t, j, 1 + h) - scaled(t, j, 1 - h)) / (2 * h)
                self.assertAlmostEqual(float(R[t, j]), difference, delta=1e-6 * (1 + abs(R[t, j])))
        self.assertGreater(float(R.abs().min()), 0.0, "every source position matters")

    def test_refusals_name_the_file_and_what(self):
        cases = [({"normalize_before": True}, None, "normalize_before"),
                 ({"encoder_attention_heads": 5}, None, "does not divide d_model"),
                 ({"model_type": "bart"}, None, "not \"marian\""),
                 ({}, ("extra.weight", torch.zeros(2)), "'extra.weight' is not a Marian weight"),
                 ({}, ("model.encoder.layers.0.fc1.bias", torch.zeros(3)), "fc1.bias' has shape \\[3\\]"),
                 ({}, ("model.decoder.layers.1.fc2.weight", None), "fc2.weight' is missing")]
        for i, (config, tensor, message) in enumerate(cases):
            with self.subTest(message=message):
                path, weights = self.folder(f"bad{i}", FolderSpec(seed=13))
                if tensor:
                    weights = dict(weights)
                    if tensor[1] is None:
                        del weights[tensor[0]]
                    else:
                        weights[tensor[0]] = tensor[1]
                    write_weights(path, FolderSpec(seed=13), weights, [n for n in weights if "positions" not in n])
                with open(os.path.join(path, "config.json")) as f:
                    c = json.load(f)
                with open(os.path.join(path, "config.json"), "w") as f:
                    json.dump({**c, **config}, f)
                with self.assertRaisesRegex(MarianError, message):
                    MarianReference(path)
        path, _ = self.folder("long", FolderSpec(seed=13, max_positions=8))
        with self.assertRaisesRegex(MarianError, "past max_position_embeddings 8"):
            MarianReference(path).forced(list(range(9)), [0])


def main():
    if NO_TORCH:
        print(f"SKIP: {NO_TORCH}")
        return 77
    result = unittest.main(exit=False, verbosity=2).result
    return 0 if result.wasSuccessful() else 1


if __name__ == "__main__":
    sys.exit(main())
