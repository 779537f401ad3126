"""Tests of the PyTorch bridge. Always (standard library only): models written by attnviz_format's writer are decoded
by `attnviz-cli decode --json` and compared with a pure-Python forward pass of docs/model-format.md's maths, and
malformed input to the writer gets a clear error. Where torch imports (TorchBridge; skipped otherwise): save/load
round trips of both layouts and `check` agreeing to 1e-5.

    ATTNVIZ_CLI=build/dev/app/attnviz-cli python3 -m unittest discover -s python -v
"""
import contextlib
import io
import json
import math
import os
import random
import struct
import subprocess
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from attnviz_format import (EOS, PAD, SOS, SPECIALS, Tensor, complete_config, model_metadata,  # noqa: E402
                            read_safetensors, text_ids, tokenize, write_safetensors)
from attnviz_check import find_cli  # noqa: E402  (needs no torch)

WORDS = ["the", "cat", "sat", "on", "mat", "a", "dog", "ran", "hello", ",", "world", "!"]
VOCAB = SPECIALS + WORDS


# ---- the format's maths on Python lists (weights as lists of rows), independent of the engine and of torch ----
def linear(p, name, x):
    y = [sum(w * xi for w, xi in zip(row, x)) for row in p[name + ".weight"]]
    return [a + b for a, b in zip(y, p[name + ".bias"])] if name + ".bias" in p else y


def sigmoid(x):
    return 1 / (1 + math.exp(-x))


def gru(p, prefix, x, h, sfx=""):
    """PyTorch's GRU cell: rows [r; z; n]."""
    H = len(h)
    gi = [sum(w * v for w, v in zip(row, x)) + b for row, b in zip(p[f"{prefix}.weight_ih_l0{sfx}"],
                                                                   p[f"{prefix}.bias_ih_l0{sfx}"])]
    gh = [sum(w * v for w, v in zip(row, h)) + b for row, b in zip(p[f"{prefix}.weight_hh_l0{sfx}"],
                                                                   p[f"{prefix}.bias_hh_l0{sfx}"])]
    out = []
    for k in range(H):
        r, z = sigmoid(gi[k] + gh[k]), sigmoid(gi[H + k] + gh[H + k])
        n = math.tanh(gi[2 * H + k] + r * gh[2 * H + k])
        out.append((1 - z) * n + z * h[k])
    return out


def softmax(e):
    m = max(e)
    ex = [math.exp(v - m) for v in e]
    return [v / sum(ex) for v in ex]


def encode(p, src, He):
    xs = [p["encoder.embedding.weight"][i] for i in src]
    f, b, fw, bw = [0.0] * He, [0.0] * He, [], []
    for x in xs:
        f = gru(p, "encoder.rnn", x, f)
        fw.append(f)
    for x in reversed(xs):
        b = gru(p, "encoder.rnn", x, b, "_reverse")
        bw.insert(0, b)
    s0 = [math.tanh(v) for v in linear(p, "encoder.fc", fw[-1] + bw[0])]
    return [fj + bj for fj, bj in zip(fw, bw)], s0


def scores(p, c, s, hs):
    if c["score"] == "additive":
        v = p["decoder.attention.v.weight"][0]
        return [sum(a * math.tanh(u) for a, u in zip(v, linear(p, "decoder.attention.attn", s + h))) for h in hs]
    if c["score"] == "general":
        hs = [linear(p, "decoder.attention.W", h) for h in hs]
    scale = math.sqrt(len(s)) if c["score"] == "scaled_dot" else 1.0
    return [sum(a * b for a, b in zip(s, h)) / scale for h in hs]


def reference_greedy(p, c, src):
    """Greedy decode (global span) -> (ids, attention rows, log-probs)."""
    hs, s = encode(p, src, c["enc_hid_dim"])
    y, feed, ids, rows, lps = SOS, [0.0] * c["dec_hid_dim"], [], [], []
    while len(ids) < 2 * len(src) + 10:
        x = p["decoder.embedding.weight"][y]
        if c["decoder"] == "bahdanau":
            a = softmax(scores(p, c, s, hs))
            ctx = [sum(aj * h[k] for aj, h in zip(a, hs)) for k in range(len(hs[0]))]
            s = gru(p, "decoder.rnn", x + ctx, s)
            logits = linear(p, "decoder.fc_out", s + ctx + x)
        else:
            s = gru(p, "decoder.rnn", x + feed if c["input_feeding"] else x, s)
            a = softmax(scores(p, c, s, hs))
            ctx = [sum(aj * h[k] for aj, h in zip(a, hs)) for k in range(len(hs[0]))]
            feed = [math.tanh(v) for v in linear(p, "decoder.combine", ctx + s)]
            logits = linear(p, "decoder.fc_out", feed)
        m = max(logits)
        lse = m + math.log(sum(math.exp(v - m) for v in logits))
        y = max((i for i in range(len(logits)) if i not in (PAD, SOS)), key=lambda i: (logits[i], -i))
        ids.append(y)
        rows.append(a)
        lps.append(logits[y] - lse)
        if y == EOS:
            break
    return ids, rows, lps


def shapes(c, V):
    E, He, Hd = c["emb_dim"], c["enc_hid_dim"], c["dec_hid_dim"]
    g = lambda pre, i, h, sfx: {f"{pre}.{k}_l0{sfx}": s for k, s in (  # noqa: E731
        ("weight_ih", [3 * h, i]), ("weight_hh", [3 * h, h]), ("bias_ih", [3 * h]), ("bias_hh", [3 * h]))}
    out = {"encoder.embedding.weight": [V, E], **g("encoder.rnn", E, He, ""), **g("encoder.rnn", E, He, "_reverse"),
           "encoder.fc.weight": [Hd, 2 * He], "encoder.fc.bias": [Hd], "decoder.embedding.weight": [V, E]}
    if c["decoder"] == "bahdanau":
        out.update({**g("decoder.rnn", E + 2 * He, Hd, ""), "decoder.fc_out.weight": [V, Hd + 2 * He + E],
                    "decoder.fc_out.bias": [V], "decoder.attention.attn.weight": [Hd, Hd + 2 * He],
                    "decoder.attention.attn.bias": [Hd], "decoder.attention.v.weight": [1, Hd]})
    else:
        out.update({**g("decoder.rnn", E + Hd if c["input_feeding"] else E, Hd, ""),
                    "decoder.combine.weight": [Hd, 2 * He + Hd], "decoder.fc_out.weight": [V, Hd],
                    "decoder.fc_out.bias": [V], "decoder.attention.W.weight": [Hd, 2 * He]})
    return out


def random_model(c, seed, dtype):
    """Tensors of the writer (values rounded to dtype) and the same values as nested lists for the reference."""
    rng, code = random.Random(seed), {"F32": "f", "F16": "e"}[dtype]
    tensors, params = {}, {}
    for name, shape in shapes(c, len(VOCAB)).items():
        n = math.prod(shape)
        values = struct.unpack(f"<{n}{code}", struct.pack(f"<{n}{code}", *(rng.uniform(-1.5, 1.5)
                                                                           for _ in range(n))))
        tensors[name] = Tensor(shape, list(values), dtype)
        params[name] = [list(values[r * shape[1]:(r + 1) * shape[1]]) for r in range(shape[0])] \
            if len(shape) == 2 else list(values)
    return tensors, params


class CliTestCase(unittest.TestCase):
    """The fixture of the tests that run attnviz-cli: its path (`cli`) and a temporary folder (`tmp`) for the class."""

    @classmethod
    def setUpClass(cls):
        cls.cli = find_cli()
        cls.tmp = tempfile.TemporaryDirectory()

    @classmethod
    def tearDownClass(cls):
        cls.tmp.cleanup()


class WriterAgainstEngine(CliTestCase):
    """Files from the pure-Python writer, read by the C++ reader and decoded as docs/model-format.md's maths says."""

    def decode_both(self, config, dtype, sentence, seed):
        c = complete_config(config)
        tensors, params = random_model(c, seed, dtype)
        path = os.path.join(self.tmp.name, f"{c['decoder']}-{dtype}.safetensors")
        write_safetensors(path, tensors, model_metadata(config, VOCAB, VOCAB))
        run = subprocess.run([self.cli, "decode", "--model", path, "--json", sentence], capture_output=True,
                             text=True)
        self.assertEqual(run.returncode, 0, run.stderr)
        got = json.loads(run.stdout)
        src = text_ids(sentence, c, VOCAB)
        self.assertEqual(got["source_ids"], src, "Python tokenizer and attnviz's disagree")
        ids, rows, lps = reference_greedy(params, c, src)
        self.assertEqual(got["target_ids"], ids)
        self.assertGreater(len(ids), 1)
        for mine, theirs in zip(rows, got["attention"]):
            self.assertLess(max(abs(a - b) for a, b in zip(mine, theirs)), 1e-5)
        self.assertLess(max(abs(a - b) / (1 + abs(a)) for a, b in zip(lps, got["log_probs"])), 1e-5)
        self.assertGreater(max(max(r) - min(r) for r in rows), 0.3, "attention near uniform: a weak test")

    def test_bahdanau_additive_f32_word_tokenizer(self):
        self.decode_both({"decoder": "bahdanau", "score": "additive", "emb_dim": 6, "enc_hid_dim": 5,
                          "dec_hid_dim": 7, "tokenizer": {"source": "word", "lowercase": True}},
                         "F32", "Hello, the CAT sat on the mat!", seed=4)

    def test_luong_general_input_feeding_f16(self):
        self.decode_both({"decoder": "luong", "score": "general", "input_feeding": True, "emb_dim": 6,
                          "enc_hid_dim": 4, "dec_hid_dim": 8}, "F16", "a dog ran on the mat", seed=2)


class WriterErrors(unittest.TestCase):
    """Bad input to the writer: a clear error naming what is wrong, and no file (nor temporary) left behind."""

    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.tmp.name, "m.safetensors")

    def tearDown(self):
        self.tmp.cleanup()

    def assertFails(self, tensors, metadata, *words):
        with self.assertRaises((ValueError, TypeError)) as ctx:
            write_safetensors(self.path, tensors, metadata)
        for w in words:
            self.assertIn(w, str(ctx.exception))
        self.assertEqual(os.listdir(self.tmp.name), [])

    def test_malformed(self):
        self.assertFails({"x": Tensor([2, 3], [1.0] * 5)}, {}, "'x'", "6 values, got 5")
        self.assertFails({"x": Tensor([2], b"\0" * 7)}, {}, "'x'", "8 bytes, got 7")
        self.assertFails({"x": Tensor([2], [1.0, 2.0], "I8")}, {}, "'x'", "dtype 'I8'")
        self.assertFails({"x": Tensor([2, -1], [])}, {}, "'x'", "shape")
        self.assertFails({"x": Tensor([2], [1.0, "two"])}, {}, "'x'", "numbers", "'two'")
        self.assertFails({"x": Tensor([1], [1e6], "F16")}, {}, "'x'", "F16")
        self.assertFails({"__metadata__": Tensor([1], [1.0])}, {}, "__metadata__")
        self.assertFails({"x": 3.0}, {}, "'x'", "Tensor(shape, data, dtype)")
        self.assertFails({"x": Tensor([1], [1.0])}, {"config": {"decoder": "luong"}}, "'config'", "strings")

    def test_failed_write_keeps_the_old_file(self):
        write_safetensors(self.path, {"x": Tensor([2], [1.0, 2.0])})
        with self.assertRaises(ValueError):
            write_safetensors(self.path, {"x": Tensor([2], [1.0, 2.0]), "y": Tensor([3], [1.0])})
        tensors, _ = read_safetensors(self.path)
        self.assertEqual(struct.unpack("<2f", tensors["x"].data), (1.0, 2.0))
        self.assertEqual(os.listdir(self.tmp.name), ["m.safetensors"])

    def test_round_trip_and_alignment(self):
        meta = {"format": "attnviz.seq2seq", "note": "注意力"}
        tensors = {"a": Tensor([3], [0.5, -2.0, 7.25], "F16"), "b": Tensor([2, 2], [[1, 2], [3, 4]])}
        write_safetensors(self.path, tensors, meta)
        with open(self.path, "rb") as f:
            self.assertEqual(struct.unpack("<Q", f.read(8))[0] % 8, 0)
        tensors, got_meta = read_safetensors(self.path)
        self.assertEqual(got_meta, meta)
        self.assertEqual(struct.unpack("<3e", tensors["a"].data), (0.5, -2.0, 7.25))
        self.assertEqual(tensors["b"].shape, [2, 2])
        self.assertEqual(struct.unpack("<4f", tensors["b"].data), (1.0, 2.0, 3.0, 4.0))

    def test_metadata_checks_vocabularies(self):
        config = {"decoder": "bahdanau", "score": "dot", "emb_dim": 2, "enc_hid_dim": 2, "dec_hid_dim": 4}
        with self.assertRaisesRegex(ValueError, "target vocabulary must start with"):
            model_metadata(config, VOCAB, ["a", "b"])
        with self.assertRaisesRegex(ValueError, "'cat' appears twice"):
            model_metadata(config, VOCAB + ["cat"], VOCAB)
        with self.assertRaisesRegex(NotImplementedError, "transformer.md"):
            complete_config({"decoder": "transformer"})

    def test_tokenizers(self):
        self.assertEqual(tokenize("Hi,  you\u3000there!", "word", True), ["hi", ",", "you", "there", "!"])
        self.assertEqual(tokenize(" ab  c ", "char"), ["a", "b", "\u2581", "c"])
        self.assertEqual(tokenize("\u0130STANBUL \u00c9T\u00c9", lowercase=True), ["istanbul", "\u00e9t\u00e9"])
        self.assertEqual(tokenize("a\x1cb c"), ["a\x1cb", "c"])  # U+001C is not Unicode White_Space


try:
    import torch
    import torch.nn as nn

    import attnviz_torch as av
    from attnviz_check import agrees, check
    from attnviz_check import main as check_main
    NO_TORCH = None
except ImportError as e:
    NO_TORCH = f"torch does not import ({e}): the PyTorch bridge tests need Debian's python3-torch"

SENTENCES = ["the cat sat on the mat", "a dog ran", "hello , world !"]
# The tutorial's classic model at its smallest (bahdanau, additive scores).
SMALL_ADDITIVE = {"decoder": "bahdanau", "score": "additive", "emb_dim": 4, "enc_hid_dim": 3, "dec_hid_dim": 5}


@unittest.skipIf(NO_TORCH, NO_TORCH)
class TorchBridge(CliTestCase):
    """save / load round trips and `check` against attnviz-cli, both layouts."""

    def model(self, config, seed, vocab=VOCAB):
        torch.manual_seed(seed)
        m = av.Seq2Seq(config, len(vocab), len(vocab))
        with torch.no_grad():  # larger weights than the default init, so that attention is far from uniform
            for p in m.parameters():
                p.mul_(3.0)
        return m.eval()

    def assertAgrees(self, path, sentence, model, target=None):
        d = check(path, sentence, cli=self.cli, model=model, target=target)
        self.assertTrue(agrees(d, 1e-5), f"{path} '{sentence}': {d}")

    def test_classic_layout_round_trip_and_check(self):
        base = {"emb_dim": 6, "enc_hid_dim": 5, "dec_hid_dim": 10}
        configs = [{"decoder": "bahdanau", "score": "additive"}, {"decoder": "bahdanau", "score": "general"},
                   {"decoder": "luong", "score": "dot", "span": "local_m", "window": 2, "input_feeding": True},
                   {"decoder": "luong", "score": "scaled_dot", "span": "local_p", "window": 2},
                   {"decoder": "luong", "score": "additive", "tokenizer": {"source": "word", "lowercase": True}}]
        for i, config in enumerate(configs):
            with self.subTest(config=config):
                m = self.model({**base, **config}, seed=i)
                path = os.path.join(self.tmp.name, f"classic{i}.safetensors")
                av.save(m, path, VOCAB, VOCAB, task="toy")
                back = av.load(path)
                self.assertEqual(back.config, m.config)
                self.assertEqual((back.src_vocab, back.metadata["task"]), (VOCAB, "toy"))
                for name, t in m.state_dict().items():
                    self.assertTrue(torch.equal(t, back.state_dict()[name]), name)
                for sentence in SENTENCES:
                    self.assertAgrees(path, sentence, back)
                self.assertAgrees(path, SENTENCES[0], back, target="the dog sat on a mat")

    def test_f16_keeps_half_precision_values(self):
        m = self.model(SMALL_ADDITIVE, seed=7)
        path = os.path.join(self.tmp.name, "half.safetensors")
        av.save(m, path, VOCAB, VOCAB, dtype="F16")
        back = av.load(path)
        for name, t in m.state_dict().items():
            self.assertTrue(torch.equal(t.half().float(), back.state_dict()[name]), name)
        self.assertAgrees(path, SENTENCES[0], back)

    def test_classic_layout_with_a_v_bias(self):
        m = self.model(SMALL_ADDITIVE, seed=9)
        m.decoder.attention.v = nn.Linear(5, 1)  # the tutorial's v has no bias; a bias shifts every score alike
        path = os.path.join(self.tmp.name, "vbias.safetensors")
        av.save(m, path, VOCAB, VOCAB)
        src = text_ids(SENTENCES[0], m.config, VOCAB)
        self.assertEqual(m.decode(src)[0], av.load(path).decode(src)[0])
        self.assertAgrees(path, SENTENCES[0], av.load(path))

    def separate_model(self, names, seed):
        """A bahdanau model whose attention is v . tanh(W s + b_W + U h + b_U) + b_v with its own names."""
        q, k, v = names

        class SeparateAdditive(nn.Module):
            def __init__(self, He, Hd):
                super().__init__()
                setattr(self, q, nn.Linear(Hd, Hd))
                setattr(self, k, nn.Linear(2 * He, Hd))
                setattr(self, v, nn.Linear(Hd, 1))

            def forward(self, s, enc, mask=None, t=1):  # s (B, Hd), enc (S, B, 2He)
                energy = torch.tanh(getattr(self, q)(s).unsqueeze(0) + getattr(self, k)(enc))
                return torch.softmax(getattr(self, v)(energy).squeeze(2).permute(1, 0), dim=1)

        m = self.model({"decoder": "bahdanau", "score": "additive", "emb_dim": 6, "enc_hid_dim": 4,
                        "dec_hid_dim": 7}, seed)
        m.decoder.attention = SeparateAdditive(4, 7)
        with torch.no_grad():
            for p in m.decoder.attention.parameters():
                p.mul_(3.0)
        return m.eval()

    def test_separate_w_u_v_layout_converts_exactly(self):
        for names in (("W", "U", "v"), ("Wa", "Ua", "va")):
            with self.subTest(names=names):
                m = self.separate_model(names, seed=3)
                self.assertNotEqual(float(getattr(m.decoder.attention, names[2]).bias), 0.0)
                path = os.path.join(self.tmp.name, f"separate-{names[0]}.safetensors")
                av.save(m, path, VOCAB, VOCAB, attention_names=names)
                back = av.load(path)
                for sentence in SENTENCES:
                    src = text_ids(sentence, back.config, VOCAB)
                    (ids, rows, lps), (ids2, rows2, lps2) = m.decode(src), back.decode(src)
                    self.assertEqual(ids, ids2)
                    self.assertLess(max(abs(a - b) for r, r2 in zip(rows, rows2) for a, b in zip(r, r2)), 1e-6)
                    self.assertLess(max(abs(a - b) for a, b in zip(lps, lps2)), 1e-5)
                    self.assertAgrees(path, sentence, back)

    def test_separate_layout_with_swapped_roles_is_refused(self):
        m = self.separate_model(("U", "W", "v"), seed=4)  # U on the state, W on the encoder outputs
        with self.assertRaisesRegex(ValueError, "attention_names"):
            av.save(m, os.path.join(self.tmp.name, "swapped.safetensors"), VOCAB, VOCAB)

    def test_wrong_vocabulary_and_transformer_are_refused(self):
        m = self.model({"decoder": "bahdanau", "score": "dot", "emb_dim": 4, "enc_hid_dim": 3, "dec_hid_dim": 6}, 5)
        path = os.path.join(self.tmp.name, "bad.safetensors")
        with self.assertRaisesRegex(ValueError, r"encoder.embedding.weight': shape \[16, 4\].*\[15, 4\]"):
            av.save(m, path, VOCAB[:-1], VOCAB)
        with self.assertRaisesRegex(NotImplementedError, "transformer.md"):
            av.save(nn.Transformer(8, 2, 1, 1, 16), path, VOCAB, VOCAB)

        class Seq2SeqTransformer(nn.Module):  # the nn.Transformer tutorial's attribute names
            def __init__(self):
                super().__init__()
                self.transformer = nn.Transformer(8, 2, 1, 1, 16)
        with self.assertRaisesRegex(NotImplementedError, "transformer.md"):
            av.save(Seq2SeqTransformer(), path, VOCAB, VOCAB)
        self.assertFalse(os.path.exists(path))
        config = {"decoder": "transformer", "d_model": 8, "nhead": 2, "num_encoder_layers": 1,
                  "num_decoder_layers": 1, "dim_feedforward": 16}
        write_safetensors(path, {}, model_metadata(config, VOCAB, VOCAB))
        with self.assertRaisesRegex(NotImplementedError, "transformer.md"):
            av.load(path)

    def test_worked_example_trains_saves_and_checks(self):
        import example_toy
        losses = []
        model, _ = example_toy.train(steps=6, batch_size=8, log=losses.append)
        path = os.path.join(self.tmp.name, "toy.safetensors")
        av.save(model, path, model.src_vocab, model.trg_vocab, task="toy")
        self.assertEqual(len(losses), 1)
        self.assertAgrees(path, "one two three four", av.load(path))
        with contextlib.redirect_stdout(io.StringIO()) as out:
            self.assertEqual(check_main(["check", path, "one two three", "--cli", self.cli]), 0)
        self.assertIn("agree (tolerance 1e-05)", out.getvalue())

    def test_check_sees_a_difference(self):
        m = self.model({"decoder": "luong", "score": "general", "emb_dim": 4, "enc_hid_dim": 3, "dec_hid_dim": 5}, 10)
        path = os.path.join(self.tmp.name, "differ.safetensors")
        av.save(m, path, VOCAB, VOCAB)
        with torch.no_grad():
            m.decoder.attention.W.weight[0, 0] += 1e-3
        m.src_vocab = m.trg_vocab = VOCAB
        d = check(path, SENTENCES[0], cli=self.cli, model=m)
        self.assertFalse(agrees(d, 1e-5))
        self.assertGreater(max(d["attention"][0], d["log_probs"][0]), 1e-5)

    def test_padding_never_changes_the_loss(self):
        m = self.model({"decoder": "luong", "score": "general", "span": "local_m", "window": 1, "emb_dim": 4,
                        "enc_hid_dim": 3, "dec_hid_dim": 6}, seed=6)
        pairs = [("the cat sat on the mat", "a dog ran"), ("a dog", "the cat sat on the mat !")]
        ex = [(text_ids(s, m.config, VOCAB), [SOS] + text_ids(t, m.config, VOCAB, "target")) for s, t in pairs]
        pad = lambda seqs: torch.tensor([q + [PAD] * (max(map(len, seqs)) - len(q)) for q in seqs]).T  # noqa: E731
        src, trg = pad([s for s, _ in ex]), pad([t for _, t in ex])
        batch = float(m.loss(src, torch.tensor([len(s) for s, _ in ex]), trg)) * sum(len(t) - 1 for _, t in ex)
        alone = sum(float(m.loss(pad([s]), torch.tensor([len(s)]), pad([t]))) * (len(t) - 1) for s, t in ex)
        self.assertAlmostEqual(batch, alone, places=4)

    def test_large_model_on_the_engine_fast_path(self):
        """fc_out of 2 MB: bahdanau folds the context and the products are split between the cores."""
        vocab = VOCAB + [f"w{i}" for i in range(2000)]
        m = self.model({"decoder": "bahdanau", "score": "additive", "emb_dim": 64, "enc_hid_dim": 64,
                        "dec_hid_dim": 128}, seed=8, vocab=vocab)
        path = os.path.join(self.tmp.name, "large.safetensors")
        av.save(m, path, vocab, vocab)
        self.assertAgrees(path, "the cat w17 sat w1999 on the mat", av.load(path))


if __name__ == "__main__":
    unittest.main()
