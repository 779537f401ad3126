"""Tests of concat_pairs.py, the joined training pairs of tatoeba-marian (stdlib unittest, well under a second).

    python3 -m unittest discover -s sample_models/corpora
"""

import contextlib
import io
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import concat_pairs  # noqa: E402


def write(path, text):
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


def read(path):
    with open(path, encoding="utf-8", newline="\n") as f:
        return f.read()


class ConcatPairsTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.input = os.path.join(self.dir.name, "train.tsv")
        self.output = os.path.join(self.dir.name, "joined.tsv")
        self.english = ["Sentence %d." % i for i in range(40)]
        self.chinese = ["句子%d。" % i for i in range(40)]
        write(self.input, "".join("%s\t%s\n" % pair for pair in zip(self.english, self.chinese)))

    def tearDown(self):
        self.dir.cleanup()

    def run_script(self, *extra):
        with contextlib.redirect_stderr(io.StringIO()) as stderr:
            status = concat_pairs.main(["--input", self.input, "--output", self.output, *extra])
        return status, stderr.getvalue()

    def test_keeps_every_line_then_joins_english_with_a_space_and_chinese_with_nothing(self):
        status, _ = self.run_script("--fraction", "0.5", "--seed", "3")
        self.assertEqual(status, 0)
        lines = read(self.output).splitlines()
        self.assertEqual(lines[:40], ["%s\t%s" % pair for pair in zip(self.english, self.chinese)])
        joined = lines[40:]
        self.assertEqual(len(joined), 20)
        firsts = set()
        for line in joined:
            english, chinese = line.split("\t")
            a, b = (int(word.rstrip(".")) for word in english.split(" ")[1::2])
            self.assertNotEqual(a, b)
            self.assertEqual(english, "Sentence %d. Sentence %d." % (a, b))
            self.assertEqual(chinese, "句子%d。句子%d。" % (a, b))
            firsts.add(a)
        self.assertEqual(len(firsts), 20, "each line is a first half at most once")

    def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_pairs(self):
        self.run_script("--seed", "1")
        first = read(self.output)
        self.run_script("--seed", "1")
        self.assertEqual(read(self.output), first)
        self.run_script("--seed", "2")
        self.assertNotEqual(read(self.output), first)

    def test_the_attribution_file_grows_the_same_way_naming_both_pairs(self):
        attribution = os.path.join(self.dir.name, "train.attribution.txt")
        write(attribution, "".join("#%d\n" % i for i in range(40)))
        status, _ = self.run_script("--fraction", "0.25", "--attribution", attribution)
        self.assertEqual(status, 0)
        pairs = read(self.output).splitlines()
        credits = read(os.path.join(self.dir.name, "joined.attribution.txt")).splitlines()
        self.assertEqual(len(credits), len(pairs))
        self.assertEqual(len(pairs), 50)
        for line, credit in zip(pairs[40:], credits[40:]):
            a, b = (int(word.rstrip(".")) for word in line.split("\t")[0].split(" ")[1::2])
            self.assertEqual(credit, "#%d; #%d" % (a, b))

    def test_a_bad_line_is_refused_naming_it_and_nothing_is_written(self):
        write(self.input, "One.\t一。\nTwo only one column\n")
        status, message = self.run_script()
        self.assertEqual(status, 1)
        self.assertIn("train.tsv:2", message)
        self.assertFalse(os.path.exists(self.output))

    def test_an_attribution_file_of_another_length_is_refused(self):
        attribution = os.path.join(self.dir.name, "short.txt")
        write(attribution, "#0\n")
        status, message = self.run_script("--attribution", attribution)
        self.assertEqual(status, 1)
        self.assertIn("1 lines, but the corpus has 40 pairs", message)

    def test_a_fraction_above_one_keeps_the_smaller_fractions_pairs_and_adds_rounds_after_them(self):
        self.run_script("--fraction", "1", "--seed", "5")
        one_round = read(self.output).splitlines()
        self.run_script("--fraction", "2.5", "--seed", "5")
        lines = read(self.output).splitlines()
        self.assertEqual(len(lines), 40 + 100)
        self.assertEqual(lines[:80], one_round)
        later_firsts = [int(line.split(" ")[1].rstrip(".")) for line in lines[80:120]]
        self.assertEqual(sorted(later_firsts), list(range(40)), "each round uses every line once as a first half")
        self.assertNotEqual(lines[80:120], one_round[40:], "the second round draws other pairs")

    def test_a_fraction_above_four_is_refused(self):
        with contextlib.redirect_stderr(io.StringIO()), self.assertRaises(SystemExit):
            self.run_script("--fraction", "4.5")
        self.assertFalse(os.path.exists(self.output))

    def test_fraction_zero_copies_the_corpus(self):
        self.run_script("--fraction", "0")
        self.assertEqual(read(self.output), read(self.input))


if __name__ == "__main__":
    unittest.main()
