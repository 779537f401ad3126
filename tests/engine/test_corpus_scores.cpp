// Every line of a corpus scored on its own (core/eval/corpus_scores.h), as the window's corpus browser shows it:
// each number against the same quantity taken by a different route (greedyDecode / forcedDecode on the text, the
// sums and entropies written out here), known answers (an output used as its own reference, gold links equal to or
// disjoint from the attention's), the threaded run against line-by-line scoring, cancelling, bad lines, the CSV,
// and the corpus reader's skip_bad_lines.
#include "base/errors.h"
#include "eval/corpus_scores.h"
#include "io/corpus.h"
#include "io/model_file.h"
#include "marian_folders.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QtTest>
#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

Model testModel() { return smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 11, 3.0f); }

std::string joined(const std::vector<std::string>& tokens) {
    std::string s;
    for (const std::string& t : tokens) s += (s.empty() ? "" : " ") + t;
    return s;
}

std::string pharaoh(const std::vector<AlignmentLink>& links) {
    std::string s;
    for (const auto& [i, j] : links) s += (s.empty() ? "" : " ") + std::to_string(i) + "-" + std::to_string(j);
    return s;
}

CorpusOptions readerOptions(const Model& m) {
    CorpusOptions o;
    o.tokenizer = m.config.tokenizer;
    return o;
}

}  // namespace

class TestCorpusScores : public QObject {
    Q_OBJECT

private slots:
    void numbersMatchTheDecodeTakenByHand();
    void knownAnswersOfBleuExactAndAer();
    void threadedRunEqualsLineByLine();
    void cancelledAndUnscorableLines();
    void csvQuotesAndLeavesMissingValuesEmpty();
    void readerSkipsBadLinesWhenAsked();
    void bleuPlusOneByHand();
    void subwordOutputIsTheDetokenizedText();
    void subwordAerIsReadOnWords();
};

void TestCorpusScores::numbersMatchTheDecodeTakenByHand() {
    const Model m = testModel();
    const std::string source = "the cat sat on the mat .", reference = "猫 坐 在 垫子 上 。";
    const Corpus c = parseCorpus(source + "\t" + reference + "\n", "t.tsv", readerOptions(m));
    const LineScores s = scoreLine(m, c.examples[0], DecodeOptions{});
    QVERIFY2(s.scored && s.error.empty(), s.error.c_str());

    const DecodeResult greedy = greedyDecode(m, source);  // the text route, not the tokenized one
    QCOMPARE(s.output_tokens, greedy.target_tokens);
    QCOMPARE(s.output, detokenize(greedy.target_tokens, TokenizerKind::Whitespace));
    double sum = 0;
    for (float lp : greedy.log_probs) sum += double(lp);
    QVERIFY(std::abs(s.log_prob - sum) < 1e-4);
    QVERIFY(std::abs(s.log_prob_per_token - sum / double(greedy.target_tokens.size())) < 1e-5);
    double entropy = 0;  // −Σ a ln a per row, averaged over the rows
    for (const auto& row : greedy.attention)
        for (float a : row)
            if (a > 0) entropy -= double(a) * std::log(double(a));
    entropy /= double(greedy.attention.size());
    QVERIFY2(std::abs(s.mean_entropy - entropy) < 1e-5, qPrintable(QString::number(s.mean_entropy - entropy)));
    const SentenceConfidence conf = sentenceConfidence(greedy.attention);
    QCOMPARE(s.confidence.confidence, conf.confidence);
    QVERIFY(s.confidence.confidence < 0);  // a random model is never perfectly confident
    const std::vector<std::string> ref = tokenizeTarget(m, reference).tokens;
    QCOMPARE(s.bleu, bleuStats(withoutEos(greedy.target_tokens), withoutEos(ref)).bleu());
    QCOMPARE(bool(s.counts.exact), exactMatch(greedy.target_tokens, ref));
    QVERIFY(!s.aer.has_value());  // no gold links on the line
}

void TestCorpusScores::knownAnswersOfBleuExactAndAer() {
    const Model m = testModel();
    // A sentence whose greedy output has a 4-gram (BLEU-4 of an output against itself is then 100).
    std::string source, own;
    int words = 0;
    size_t output_words = 0;
    bool stopped = false;  // the output ends with <eos> (else it ran to the length limit)
    for (const char* s : {"i love you .", "the cat sat on the mat .", "yesterday the cat ate an apple .",
                          "you ate the apple on the mat yesterday"}) {
        const DecodeResult greedy = greedyDecode(m, s);
        if (withoutEos(greedy.target_tokens).size() < 4) continue;
        source = s;
        own = joined(withoutEos(greedy.target_tokens));
        words = int(tokenizeSource(m, s).tokens.size()) - 2;
        output_words = withoutEos(greedy.target_tokens).size();
        stopped = greedy.target_tokens.back() == "<eos>";
        break;
    }
    QVERIFY2(!source.empty(), "no sentence gives four output words");
    const DecodeResult forced = forcedDecode(m, source, own);
    const std::vector<AlignmentLink> links = attentionAlignment(forced);
    // Disjoint from the attention's links: each target word linked to a source word it does not look at most.
    std::vector<AlignmentLink> wrong;
    for (const auto& [i, j] : links) wrong.emplace_back((i + 1) % words, j);
    const std::string tsv = source + "\t" + own + "\t" + pharaoh(links) + "\n" + source + "\t" + own + "\t" +
                            pharaoh(wrong) + "\n" + source + "\t我 爱 猫 。\n";
    const Corpus c = parseCorpus(tsv, "t.tsv", readerOptions(m));
    const std::vector<LineScores> s = scoreCorpus(m, c.examples);
    QCOMPARE(s.size(), size_t(3));
    QVERIFY(s[0].counts.exact == 1);
    QCOMPARE(s[0].bleu, 100.0);
    QCOMPARE(s[0].bleu_plus_one, 100.0);
    // The reference has <eos>; an output cut at the length limit lacks it: one position of n + 1 lost.
    QCOMPARE(s[0].token_accuracy, stopped ? 1.0 : double(output_words) / double(output_words + 1));
    QVERIFY(s[0].aer.has_value());
    QCOMPARE(*s[0].aer, 0.0);
    QCOMPARE(*s[1].aer, 1.0);
    QVERIFY(s[2].counts.exact == 0);
    QVERIFY(!s[2].aer.has_value());
    QCOMPARE(s[2].line, 3);
}

void TestCorpusScores::threadedRunEqualsLineByLine() {
    const Model m = testModel();
    std::string tsv;
    const char* sources[] = {"i love you",      "the cat ate an apple", "the cat sat on the mat",
                             "yesterday i ate", "an apple , the cat",   "you sat on the mat yesterday ."};
    for (int k = 0; k < 30; ++k) tsv += std::string(sources[k % 6]) + "\t我 爱 你\n" + (k % 7 == 0 ? "\n" : "");
    const Corpus c = parseCorpus(tsv, "t.tsv", readerOptions(m));
    QCOMPARE(c.examples.size(), size_t(30));
    CorpusScoreOptions o;
    o.threads = 3;
    std::atomic<size_t> done{0};
    const std::vector<LineScores> all = scoreCorpus(m, c.examples, o, &done);
    QCOMPARE(done.load(), size_t(30));
    for (size_t i = 0; i < c.examples.size(); ++i) {
        const LineScores one = scoreLine(m, c.examples[i], DecodeOptions{});
        QCOMPARE(all[i].line, c.examples[i].line);
        QCOMPARE(all[i].output_tokens, one.output_tokens);
        QCOMPARE(all[i].log_prob, one.log_prob);
        QCOMPARE(all[i].mean_entropy, one.mean_entropy);
    }
    QVERIFY(all[29].line > 30);  // blank lines keep the numbering of the file
}

void TestCorpusScores::cancelledAndUnscorableLines() {
    const Model m = testModel();
    const Corpus c = parseCorpus("i love you\t我 爱 你\nthe cat sat on the mat\t猫\n", "t.tsv", readerOptions(m));
    std::atomic<bool> cancel{true};
    std::atomic<size_t> done{0};
    for (const LineScores& s : scoreCorpus(m, c.examples, {}, &done, &cancel)) QVERIFY(!s.scored && s.error.empty());
    QCOMPARE(done.load(), size_t(0));

    CorpusScoreOptions o;
    o.max_source_tokens = 3;  // the second line has 6 words
    const std::vector<LineScores> s = scoreCorpus(m, c.examples, o);
    QVERIFY(s[0].scored);
    QVERIFY(!s[1].scored);
    QVERIFY2(QString::fromStdString(s[1].error).contains("6 tokens"), s[1].error.c_str());
}

void TestCorpusScores::csvQuotesAndLeavesMissingValuesEmpty() {
    const Model m = testModel();
    const Corpus c =
        parseCorpus("i love you , \"the cat\"\t我 爱 你\t0-0 1-1\nthe mat\t猫\n", "t.tsv", readerOptions(m));
    std::vector<LineScores> s = scoreCorpus(m, c.examples);
    s[1] = LineScores{};  // as if not reached
    s[1].line = 2;
    s[1].error = "why, \"not\"";
    const std::string csv = corpusScoresToCsv(c.examples, s);
    const QStringList lines = QString::fromStdString(csv).split(u'\n');
    QCOMPARE(lines.size(), 4);  // header, two rows, the empty text after the last "\n"
    QCOMPARE(
        lines[0],
        QStringLiteral("line,source,reference,output,log_prob,log_prob_per_token,mean_entropy,confidence,"
                       "coverage_deviation,absentminded_out,absentminded_in,bleu,bleu_plus_one,token_accuracy,exact,"
                       "aer,error"));
    QVERIFY2(lines[1].startsWith(QStringLiteral("1,\"i love you , \"\"the cat\"\"\",我 爱 你,")), qPrintable(lines[1]));
    QVERIFY2(lines[1].endsWith(QStringLiteral(",") + QString::number(*s[0].aer) + ","), qPrintable(lines[1]));
    QCOMPARE(lines[2], QStringLiteral("2,the mat,猫,,,,,,,,,,,,,,\"why, \"\"not\"\"\""));
    QCOMPARE(lines[3], QString());
}

void TestCorpusScores::readerSkipsBadLinesWhenAsked() {
    const Model m = testModel();
    const std::string tsv = "i love you\t我 爱 你\na\tb\tc\td\n\nthe cat\t猫\t0-5\nthe mat\t垫子\n";
    CorpusOptions o = readerOptions(m);
    try {
        parseCorpus(tsv, "t.tsv", o);
        QFAIL("a bad line was accepted");
    } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).startsWith("t.tsv:2: "), e.what());
    }
    o.skip_bad_lines = true;
    const Corpus c = parseCorpus(tsv, "t.tsv", o);
    QCOMPARE(c.examples.size(), size_t(2));
    QCOMPARE(c.examples[0].line, 1);
    QCOMPARE(c.examples[1].line, 5);
    QCOMPARE(c.skipped_count, int64_t(2));
    QCOMPARE(c.skipped.size(), size_t(2));
    QCOMPARE(c.skipped[0].line, 2);
    QVERIFY2(QString::fromStdString(c.skipped[0].message).contains("4 tab-separated fields"),
             c.skipped[0].message.c_str());
    QCOMPARE(c.skipped[1].line, 4);
    QVERIFY2(QString::fromStdString(c.skipped[1].message).startsWith("t.tsv:4: alignment link 0-5"),
             c.skipped[1].message.c_str());

    std::string many;
    for (size_t k = 0; k < kMaxListedSkippedLines + 50; ++k) many += "no tab here\n";
    const Corpus bad = parseCorpus(many, "bad.tsv", o);
    QVERIFY(bad.examples.empty());
    QCOMPARE(bad.skipped.size(), kMaxListedSkippedLines);
    QCOMPARE(bad.skipped_count, int64_t(kMaxListedSkippedLines + 50));
}

void TestCorpusScores::bleuPlusOneByHand() {
    // "a b c" against "a b d": unigrams 2/3, bigrams (1+1)/(2+1), trigrams (0+1)/(1+1), 4-grams (0+1)/(0+1); c = r.
    const BleuStats s = bleuStats({"a", "b", "c"}, {"a", "b", "d"});
    QCOMPARE(s.bleu(), 0.0);  // unsmoothed: no trigram matches
    QVERIFY(std::abs(s.bleuPlusOne() - 100.0 * std::pow(2.0 / 3 * 2.0 / 3 * 1.0 / 2 * 1.0, 0.25)) < 1e-12);
    // A hypothesis shorter than its reference pays the brevity penalty exp(1 − r/c): "a b" against "a b d".
    const BleuStats short_one = bleuStats({"a", "b"}, {"a", "b", "d"});
    const double p = 1.0 * (1.0 + 1) / (1 + 1) * 1.0 * 1.0;  // 2/2, (1+1)/(1+1), (0+1)/(0+1), (0+1)/(0+1)
    QVERIFY(std::abs(short_one.bleuPlusOne() - 100.0 * std::exp(1.0 - 3.0 / 2.0) * std::pow(p, 0.25)) < 1e-12);
    QCOMPARE(bleuStats({"x"}, {"a"}).bleuPlusOne(), 0.0);  // no unigram matches
}

// A SentencePiece model's output reads as the window's output line does: the pieces joined by the SentencePiece
// model (its ▁ as spaces), without </s>, not the pieces spaced apart.
void TestCorpusScores::subwordOutputIsTheDetokenizedText() {
    QTemporaryDir dir;
    const std::string folder = dir.filePath("m").toStdString();
    makeMarianFolder(folder);
    const Model m = loadModel(folder);
    CorpusOptions o;
    const Corpus c = parseCorpus("the old house stood near the river\tla maison\n", "t.tsv", o);
    DecodeOptions d;
    d.max_len = 8;
    const LineScores s = scoreLine(m, c.examples[0], d);
    QVERIFY2(s.scored, s.error.c_str());
    const DecodeResult greedy = greedyDecode(m, tokenizeSource(m, c.examples[0].source), d);
    QVERIFY(greedy.target_tokens.size() > 2);
    QCOMPARE(s.output, greedy.text);
    QCOMPARE(s.output, detokenizeTarget(m, greedy.target_tokens));
    QVERIFY(s.output != joined(greedy.target_tokens));
    QVERIFY(s.output.find("\u2581") == std::string::npos);
    QVERIFY(s.output.find("</s>") == std::string::npos);
}

// A SentencePiece model's gold links number the text's words: the line's AER is read off its forced decode merged
// into words (wordAxes, as eval --merge both), the same links and counts computed here from the engine's functions.
void TestCorpusScores::subwordAerIsReadOnWords() {
    QTemporaryDir dir;
    const std::string folder = dir.filePath("m").toStdString();
    makeMarianFolder(folder);
    const Model m = loadModel(folder);
    CorpusOptions o;
    o.tokenizer = m.config.tokenizer;
    const std::string links = "0-0 1-2 2-1 4-3";
    const Corpus c =
        parseCorpus("the greenest rivers walked under\tthree smaller birds singing\t" + links + "\n", "t.tsv", o);
    const LineScores s = scoreLine(m, c.examples[0], DecodeOptions{});
    QVERIFY2(s.scored, s.error.c_str());
    QVERIFY(s.aer.has_value());
    const DecodeResult forced = forcedDecode(m, tokenizeSource(m, c.examples[0].source),
                                             tokenizeTarget(m, c.examples[0].target), DecodeOptions{});
    QVERIFY(forced.source_words.size() < forced.source_tokens.size());  // words of several pieces
    AlignOptions words;
    words.words = wordAxes(m, MergeSides::Both);
    QCOMPARE(words.words.first_column, 0);
    const AerCounts want = aerCounts(extractAlignment(forced, words), parseAlignment(links));
    QCOMPARE(s.counts.alignment.predicted, int64_t(4));  // one link per reference word
    QCOMPARE(s.counts.alignment.overlap, want.overlap);
    QCOMPARE(*s.aer, want.aer());
}

ATTNVIZ_TEST_MAIN(TestCorpusScores)
#include "test_corpus_scores.moc"
