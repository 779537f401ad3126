// core/metrics: BLEU, chrF, token accuracy, exact match, attention entropy and AER against hand-worked examples.
#include "eval/metrics.h"
#include "test_registry.h"

#include <QtTest>

#include <cmath>

using namespace attnviz;

namespace {

std::vector<std::string> words(const char* text) {
    std::vector<std::string> out;
    for (const QString& w : QString::fromUtf8(text).split(' ', Qt::SkipEmptyParts)) out.push_back(w.toStdString());
    return out;
}

// A forced decode with the given source words and attention rows (the last target token is <eos>).
DecodeResult forcedWith(const std::vector<std::string>& src_words, const std::vector<std::string>& tgt_words,
                        std::vector<std::vector<float>> attention) {
    DecodeResult r;
    r.source_tokens = {"<sos>"};
    r.source_tokens.insert(r.source_tokens.end(), src_words.begin(), src_words.end());
    r.source_tokens.push_back("<eos>");
    r.source_ids.assign(r.source_tokens.size(), 1);
    r.source_ids.front() = kSos;
    r.source_ids.back() = kEos;
    r.target_tokens = tgt_words;
    r.target_tokens.push_back("<eos>");
    r.target_ids.assign(r.target_tokens.size(), 1);
    r.target_ids.back() = kEos;
    r.attention = std::move(attention);
    r.log_probs.assign(r.target_tokens.size(), -1.0f);
    return r;
}

}  // namespace

class TestMetrics : public QObject {
    Q_OBJECT
private slots:
    void bleuSentence_data();
    void bleuSentence();
    void bleuClippedCounts();
    void bleuTwoSentenceCorpus();
    void chrf_data();
    void chrf();
    void chrfCorpusSumsCounts();
    void tokenAccuracy_data();
    void tokenAccuracy();
    void exactMatchIgnoresFinalEos();
    void rowEntropy_data();
    void rowEntropy();
    void attentionAlignmentExcludesSpecials();
    void aerWorkedExample();
    void evalReportAveragesOverRows();
};

void TestMetrics::bleuSentence_data() {
    QTest::addColumn<QString>("hyp");
    QTest::addColumn<QString>("ref");
    QTest::addColumn<double>("bleu");
    // Identical, long enough for 4-grams: every p_n = 1, c = r: 100.
    QTest::newRow("identical") << "a b c d e"
                               << "a b c d e" << 100.0;
    // Hypothesis a prefix of 4 of 6 reference words: p_n = 1/1 for all n (4/4, 3/3, 2/2, 1/1);
    // BP = exp(1 - 6/4) = exp(-0.5): BLEU = 60.653066.
    QTest::newRow("brevity penalty short prefix") << "a b c d"
                                                  << "a b c d e f" << 100.0 * std::exp(-0.5);
    // Longer than the reference: no brevity penalty, but p_n < 1. hyp "a b c d e x" vs ref "a b c d e":
    // p1 = 5/6, p2 = 4/5, p3 = 3/4, p4 = 2/3; product = 1/3; BLEU = 100 * (1/3)^(1/4) = 75.983569.
    QTest::newRow("longer hypothesis no penalty") << "a b c d e x"
                                                  << "a b c d e" << 100.0 * std::pow(1.0 / 3.0, 0.25);
    // Fewer than 4 words: no 4-grams in the hypothesis, p4 undefined, no smoothing: 0.
    QTest::newRow("three words is zero") << "i love you"
                                         << "i love you" << 0.0;
    // The classic: "the" x7 against "the cat is on the mat": p1 = 2/7 (clipped), p2 = 0/6: BLEU 0.
    QTest::newRow("the x7 no bigram match") << "the the the the the the the"
                                            << "the cat is on the mat" << 0.0;
    QTest::newRow("empty hypothesis") << ""
                                      << "a b c d" << 0.0;
}

void TestMetrics::bleuSentence() {
    QFETCH(QString, hyp);
    QFETCH(QString, ref);
    QFETCH(double, bleu);
    const double got = corpusBleu({words(hyp.toUtf8().constData())}, {words(ref.toUtf8().constData())});
    QVERIFY2(std::abs(got - bleu) < 1e-9,
             qPrintable(QString("got %1, want %2").arg(got, 0, 'g', 12).arg(bleu, 0, 'g', 12)));
}

void TestMetrics::bleuClippedCounts() {
    // "the the the the the the the" vs "the cat is on the mat": "the" appears twice in the reference, so only 2 of
    // the 7 hypothesis unigrams match (unclipped it would be 7/7); 6 bigrams "the the", none in the reference.
    const BleuStats s = bleuStats(words("the the the the the the the"), words("the cat is on the mat"));
    QCOMPARE(s.matches[0], int64_t(2));
    QCOMPARE(s.totals[0], int64_t(7));
    QCOMPARE(s.matches[1], int64_t(0));
    QCOMPARE(s.totals[1], int64_t(6));
    QCOMPARE(s.totals[3], int64_t(4));
    QCOMPARE(s.hyp_length, int64_t(7));
    QCOMPARE(s.ref_length, int64_t(6));
}

void TestMetrics::bleuTwoSentenceCorpus() {
    // Sentence 1: hyp "the cat sat on the mat", ref "the cat sat on a mat"
    //   1-grams: the(2, clipped to 1) cat sat on mat -> 5/6; 2-grams: the-cat cat-sat sat-on | on-the the-mat -> 3/5
    //   3-grams: the-cat-sat cat-sat-on | sat-on-the on-the-mat -> 2/4; 4-grams: the-cat-sat-on -> 1/3
    // Sentence 2: hyp "i love you", ref "i love you very much": 3/3, 2/2, 1/1, 0/0
    // Corpus: p1 = 8/9, p2 = 5/7, p3 = 3/5, p4 = 1/3 (product 8/63); c = 9, r = 11, BP = exp(1 - 11/9) = exp(-2/9)
    // BLEU = 100 * exp(-2/9) * (8/63)^(1/4) = 47.799954.
    const std::vector<std::vector<std::string>> hyps = {words("the cat sat on the mat"), words("i love you")};
    const std::vector<std::vector<std::string>> refs = {words("the cat sat on a mat"), words("i love you very much")};
    const double want = 100.0 * std::exp(-2.0 / 9.0) * std::pow(8.0 / 63.0, 0.25);
    QVERIFY(std::abs(corpusBleu(hyps, refs) - want) < 1e-9);
    QVERIFY(std::abs(want - 47.799954) < 1e-5);
    // Corpus BLEU is not the mean of sentence BLEUs (sentence 2 alone scores 0: no 4-gram).
    const double mean = (corpusBleu({hyps[0]}, {refs[0]}) + corpusBleu({hyps[1]}, {refs[1]})) / 2;
    QVERIFY(std::abs(mean - want) > 1.0);
    // Accumulating per-sentence stats in either order gives the same corpus value.
    BleuStats a = bleuStats(hyps[1], refs[1]);
    a += bleuStats(hyps[0], refs[0]);
    QVERIFY(std::abs(a.bleu() - want) < 1e-9);
}

void TestMetrics::chrf_data() {
    QTest::addColumn<QString>("hyp");
    QTest::addColumn<QString>("ref");
    QTest::addColumn<double>("want");
    // "ab" against "abc": n = 1: P 2/2, R 2/3, F = 5 (2/3) / (4 + 2/3) = 10/14; n = 2: P 1/1, R 1/2, F = 2.5/4.5;
    // n >= 3: the hypothesis has none, so the mean is over two orders.
    QTest::newRow("prefix") << "a b"
                            << "a b c" << 100.0 * (10.0 / 14.0 + 2.5 / 4.5) / 2;
    // Whitespace and token boundaries do not count: char tokens against one word token of the same characters.
    QTest::newRow("same characters") << "我 爱 你"
                                     << "我爱你" << 100.0;
    QTest::newRow("disjoint") << "ab"
                              << "cd" << 0.0;
    // Clipped: "aaa" against "a": n = 1: P 1/3, R 1, F = 5 (1/3) / (4/3 + 1) = 5/7; n = 2 only in the hypothesis.
    QTest::newRow("clipped repeats") << "aaa"
                                     << "a" << 100.0 * 5.0 / 7.0;
    QTest::newRow("empty hypothesis") << ""
                                      << "a b" << 0.0;
}

void TestMetrics::chrf() {
    QFETCH(QString, hyp);
    QFETCH(QString, ref);
    QFETCH(double, want);
    const double got = chrfStats(words(hyp.toUtf8().constData()), words(ref.toUtf8().constData())).chrf();
    QVERIFY2(std::abs(got - want) < 1e-9, qPrintable(QString::number(got, 'g', 12)));
}

void TestMetrics::chrfCorpusSumsCounts() {
    // ("ab", "abc") + ("ab", "ab"): n = 1: 4 matches of 4 hypothesis and 5 reference grams, F = 4/4.8;
    // n = 2: 2 of 2 and 3, F = (10/3) / (14/3). The corpus value is not the mean of 63.49 and 100.
    ChrfStats s = chrfStats(words("ab"), words("abc"));
    s += chrfStats(words("ab"), words("ab"));
    const double want = 100.0 * (4.0 / 4.8 + 10.0 / 14.0) / 2;
    QVERIFY(std::abs(s.chrf() - want) < 1e-9);
    QVERIFY(std::abs(want - 77.380952) < 1e-5);
}

void TestMetrics::tokenAccuracy_data() {
    QTest::addColumn<QString>("output");
    QTest::addColumn<QString>("reference");
    QTest::addColumn<int>("correct");
    QTest::addColumn<int>("positions");
    QTest::newRow("equal") << "a b c <eos>"
                           << "a b c <eos>" << 4 << 4;
    // Shorter output: positions 0 (a) right, 1 (c vs b) and 2 (<eos> vs c) wrong, 3 missing.
    QTest::newRow("shorter output loses missing positions") << "a c <eos>"
                                                            << "a b c <eos>" << 1 << 4;
    // Longer output: the extra token takes the place of <eos>: 3 of 4.
    QTest::newRow("longer output") << "a b c d <eos>"
                                   << "a b c <eos>" << 3 << 4;
    // Hit the length limit without <eos>: the <eos> position is wrong.
    QTest::newRow("no eos at the limit") << "a b c"
                                         << "a b c <eos>" << 3 << 4;
    QTest::newRow("unknown spelled differently") << "<unk> b <eos>"
                                                 << "foo b <eos>" << 2 << 3;
}

void TestMetrics::tokenAccuracy() {
    QFETCH(QString, output);
    QFETCH(QString, reference);
    QFETCH(int, correct);
    QFETCH(int, positions);
    const TokenCounts c = tokenCounts(words(output.toUtf8().constData()), words(reference.toUtf8().constData()));
    QCOMPARE(c.correct, int64_t(correct));
    QCOMPARE(c.positions, int64_t(positions));
}

void TestMetrics::exactMatchIgnoresFinalEos() {
    QVERIFY(exactMatch(words("a b <eos>"), words("a b <eos>")));
    QVERIFY(exactMatch(words("a b"), words("a b <eos>")));
    QVERIFY(!exactMatch(words("a b c <eos>"), words("a b <eos>")));
    QVERIFY(!exactMatch(words("a <eos>"), words("a b <eos>")));
}

void TestMetrics::rowEntropy_data() {
    QTest::addColumn<QVector<float>>("row");
    QTest::addColumn<double>("nats");
    QTest::newRow("one-hot is 0") << QVector<float>{0, 1, 0} << 0.0;
    QTest::newRow("two halves is ln 2") << QVector<float>{0.5f, 0.5f, 0, 0} << std::log(2.0);
    QTest::newRow("uniform over 4 is ln 4") << QVector<float>{0.25f, 0.25f, 0.25f, 0.25f} << std::log(4.0);
    // A local_p row summing to 0.75 is taken as it is: -(0.5 ln 0.5 + 0.25 ln 0.25) = ln 2 = 0.693147, whereas the
    // renormalised (2/3, 1/3) would give 0.636514.
    QTest::newRow("row summing below 1 not renormalised") << QVector<float>{0, 0.5f, 0.25f, 0} << std::log(2.0);
}

void TestMetrics::rowEntropy() {
    QFETCH(QVector<float>, row);
    QFETCH(double, nats);
    QVERIFY(std::abs(attnviz::rowEntropy(std::vector<float>(row.begin(), row.end())) - nats) < 1e-7);
}

void TestMetrics::attentionAlignmentExcludesSpecials() {
    // Source <sos> a b c <eos>; targets x y <eos>.
    // Row x: <sos> has the most weight but is excluded; among a b c the max is b (0.3): link 1-0.
    // Row y: <eos> excluded; a and b tie at 0.2: the lower index wins: link 0-1. The <eos> row links nothing.
    const DecodeResult f =
        forcedWith(words("a b c"), words("x y"),
                   {{0.5f, 0.1f, 0.3f, 0.05f, 0.05f}, {0.0f, 0.2f, 0.2f, 0.1f, 0.5f}, {0.1f, 0.1f, 0.1f, 0.6f, 0.1f}});
    const std::vector<AlignmentLink> want = {{0, 1}, {1, 0}};
    QCOMPARE(attentionAlignment(f), want);
}

void TestMetrics::aerWorkedExample() {
    // Sentence 1: A = {1-0, 0-1} (as above), G = {1-0, 2-1, 2-0}: |A∩G| = 1, AER = 1 - 2/(2+3) = 0.6.
    const DecodeResult f1 =
        forcedWith(words("a b c"), words("x y"),
                   {{0.5f, 0.1f, 0.3f, 0.05f, 0.05f}, {0.0f, 0.2f, 0.2f, 0.1f, 0.5f}, {0.2f, 0.2f, 0.2f, 0.2f, 0.2f}});
    const GoldAlignment g1 = makeGoldAlignment({{1, 0}, {2, 1}, {2, 0}});
    const AerCounts c1 = aerCounts(attentionAlignment(f1), g1);
    QCOMPARE(c1.predicted, int64_t(2));
    QCOMPARE(c1.gold, int64_t(3));
    QCOMPARE(c1.overlap, int64_t(1));
    QVERIFY(std::abs(c1.aer() - 0.6) < 1e-12);
    // Sentence 2: one word each, perfectly aligned: A = G = {0-0}.
    const DecodeResult f2 = forcedWith(words("z"), words("w"), {{0.1f, 0.8f, 0.1f}, {0.3f, 0.3f, 0.4f}});
    const GoldAlignment g2 = makeGoldAlignment({{0, 0}});
    // Corpus AER sums the counts: A = 3, G = 4, overlap 2: 1 - 4/7 = 3/7 (not the mean 0.3 of 0.6 and 0).
    EvalCounts total = evalExample(f1, f1.target_tokens, &f1, &g1);
    total += evalExample(f2, f2.target_tokens, &f2, &g2);
    const EvalReport r = evalReport(total);
    QVERIFY(r.aer.has_value());
    QVERIFY(std::abs(*r.aer - 3.0 / 7.0) < 1e-12);
    QCOMPARE(r.counts.aligned_lines, int64_t(2));
}

void TestMetrics::evalReportAveragesOverRows() {
    // Line 1: 2 rows with entropies ln 2 and 0; line 2: 1 row with entropy ln 4. Mean over rows = (ln 2 + ln 4) / 3
    // = ln 2 (not the mean of the line means, (ln2/2 + ln4)/2).
    DecodeResult g1 = forcedWith(words("a b"), words("x"), {{0, 0.5f, 0.5f, 0}, {0, 0, 0, 1}});
    DecodeResult g2 = forcedWith({"a", "b"}, {}, {{0.25f, 0.25f, 0.25f, 0.25f}});
    EvalCounts c = evalExample(g1, words("x <eos>"));
    c += evalExample(g2, words("y <eos>"));
    const EvalReport r = evalReport(c);
    QVERIFY(std::abs(r.mean_entropy - std::log(2.0)) < 1e-7);
    QCOMPARE(r.lines, int64_t(2));
    QVERIFY(std::abs(r.exact_match - 0.5) < 1e-12);           // line 1 exact, line 2 "<eos>" vs "y <eos>" not
    QVERIFY(std::abs(r.token_accuracy - 2.0 / 4.0) < 1e-12);  // x,<eos> right; y wrong, <eos> at position 1 missing
    QVERIFY(!r.aer.has_value());
    QCOMPARE(r.counts.output_tokens, int64_t(3));
}

ATTNVIZ_TEST_MAIN(TestMetrics)
#include "test_metrics.moc"
