"""Tests of tatoeba.py, the split of the shipped Tatoeba corpus (stdlib unittest, about a second).

    python3 -m unittest discover -s sample_models/corpora
"""

import contextlib
import gzip
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import tatoeba  # noqa: E402

ATTR = "CC-BY 2.0 (France) Attribution: tatoeba.org #%d (a) & #%d (b)"


def line(i, english, chinese):
    return ("%s\t%s\t%s\n" % (english, chinese, ATTR % (i, i + 1))).encode("utf-8")


def small_corpus(n=60):
    """n English sentences, every third with a second translation (and a case/space variant of the English)."""
    out = b""
    for i in range(n):
        out += line(i, "Sentence number %d." % i, "句子%d。" % i)
        if i % 3 == 0:
            out += line(1000 + i, "sentence  NUMBER %d." % i, "第%d句。" % i)
    return out


def parse(data):
    messages = []
    return tatoeba.parse(data, "in.txt", messages.append), messages


class ParseTest(unittest.TestCase):
    def test_bad_lines_are_named_and_skipped(self):
        data = (line(1, "Hi.", "嗨。") + b"\n" + b"Only English\t\xe4\xbd\xa0\n" + line(2, "Run.", "跑。")
                + b"Bad \xff byte\t\xe5\x97\xa8\tattr\n" + b"\t\xe5\x97\xa8\tattr\n" + line(3, "Stop!", "住手！"))
        pairs, messages = parse(data)
        self.assertEqual([p.english for p in pairs], ["Hi.", "Run.", "Stop!"])
        self.assertEqual([p.line for p in pairs], [1, 4, 7])
        self.assertEqual(len(messages), 4)
        self.assertTrue(messages[0].startswith("in.txt:2: empty line"), messages[0])
        self.assertTrue(messages[1].startswith("in.txt:3: 2 tab-separated column(s), expected 3"), messages[1])
        self.assertTrue(messages[2].startswith("in.txt:5: invalid UTF-8 at byte 4"), messages[2])
        self.assertTrue(messages[3].startswith("in.txt:6: empty English sentence"), messages[3])

    def test_fields_keep_their_text_and_attribution(self):
        pairs, messages = parse(line(5, "I'm Tom's friend.", "我是汤姆的朋友。").replace(b"\n", b"\r\n"))
        self.assertEqual(messages, [])
        self.assertEqual((pairs[0].english, pairs[0].chinese), ("I'm Tom's friend.", "我是汤姆的朋友。"))
        self.assertEqual(pairs[0].attribution, ATTR % (5, 6))

    def test_a_last_line_without_newline_counts(self):
        pairs, messages = parse(line(1, "Hi.", "嗨。") + line(2, "Run.", "跑。").rstrip(b"\n"))
        self.assertEqual((len(pairs), messages), (2, []))


class SplitTest(unittest.TestCase):
    def setUp(self):
        self.pairs, _ = parse(small_corpus())
        self.splits = tatoeba.split(self.pairs, seed=1, n_valid=10, n_test=12)

    def test_sizes_and_every_line_once(self):
        self.assertEqual((len(self.splits["test"]), len(self.splits["valid"])), (12, 10))
        lines = sorted(p.line for s in tatoeba.SPLITS for p in self.splits[s])
        self.assertEqual(lines, sorted(p.line for p in self.pairs))

    def test_translations_of_one_english_sentence_stay_together(self):
        home = {}
        for name in tatoeba.SPLITS:
            for p in self.splits[name]:
                home.setdefault(tatoeba.english_key(p.english), set()).add(name)
        self.assertTrue(all(len(s) == 1 for s in home.values()), home)
        # The variants "Sentence number 0." / "sentence  NUMBER 0." are one sentence: 60 keys, 80 lines.
        self.assertEqual(len(home), 60)

    def test_seed_decides_and_repeats(self):
        again = tatoeba.split(self.pairs, seed=1, n_valid=10, n_test=12)
        other = tatoeba.split(self.pairs, seed=2, n_valid=10, n_test=12)
        test_lines = lambda s: [p.line for p in s["test"]]  # noqa: E731
        self.assertEqual(test_lines(again), test_lines(self.splits))
        self.assertNotEqual(test_lines(other), test_lines(self.splits))


class CommandTest(unittest.TestCase):
    def run_main(self, path, out):
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            code = tatoeba.main(["--input", path, "--out", out, "--valid", "10", "--test", "10"])
        return code, err.getvalue()

    def test_writes_the_same_bytes_twice_with_attributions_beside(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cmn.txt.gz")
            with gzip.open(path, "wb") as f:
                f.write(small_corpus() + b"\n")
            outputs = []
            for out in ("a", "b"):
                code, err = self.run_main(path, os.path.join(tmp, out))
                self.assertEqual(code, 0, err)
                self.assertIn("cmn.txt.gz:81: empty line", err)
                files = {}
                for name in tatoeba.SPLITS:
                    for suffix in (".tsv", ".attribution.txt"):
                        with open(os.path.join(tmp, out, "tatoeba", name + suffix), "rb") as f:
                            files[name + suffix] = f.read().decode("utf-8")
                outputs.append(files)
            self.assertEqual(outputs[0], outputs[1])
            for name in tatoeba.SPLITS:
                rows = outputs[0][name + ".tsv"].splitlines()
                attributions = outputs[0][name + ".attribution.txt"].splitlines()
                self.assertEqual(len(rows), len(attributions))
                self.assertTrue(all(len(r.split("\t")) == 2 for r in rows))
            self.assertEqual(len(outputs[0]["test.tsv"].splitlines()), 10)

    def test_too_small_a_corpus_is_refused(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cmn.txt")
            with open(path, "wb") as f:
                f.write(small_corpus(8))
            code, err = self.run_main(path, os.path.join(tmp, "out"))
            self.assertEqual(code, 1)
            self.assertIn("too few", err)
            self.assertFalse(os.path.exists(os.path.join(tmp, "out")))


class ShippedCorpusTest(unittest.TestCase):
    def test_the_shipped_corpus_splits_as_documented(self):
        messages = []
        pairs = tatoeba.parse(tatoeba.read_bytes(tatoeba.DEFAULT_INPUT), "cmn.txt", messages.append)
        self.assertEqual(len(pairs), 29155)
        self.assertEqual(messages, ["cmn.txt:29156: empty line, skipped"])
        self.assertTrue(all(p.attribution.startswith("CC-BY 2.0 (France) Attribution: tatoeba.org #")
                            for p in pairs))
        splits = tatoeba.split(pairs)
        self.assertEqual([len(splits[s]) for s in tatoeba.SPLITS], [27155, 1000, 1000])
        keys = [{tatoeba.english_key(p.english) for p in splits[s]} for s in tatoeba.SPLITS]
        self.assertEqual(keys[0] & keys[1] | keys[0] & keys[2] | keys[1] & keys[2], set())


if __name__ == "__main__":
    unittest.main()
