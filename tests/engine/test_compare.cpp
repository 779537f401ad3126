// The attention comparison of `attnviz-cli compare` (core/eval/compare.h) on rows whose distances are known by hand:
// total variation, Jensen–Shannon in nats, argmax agreement, entropies, AER against gold links, and the row-weighted
// means of a corpus.
#include "base/errors.h"
#include "eval/compare.h"
#include "test_registry.h"

#include <QtTest>
#include <cmath>

using namespace attnviz;

namespace {

DecodeResult decodeWith(std::vector<std::vector<float>> rows, std::vector<int> target_ids) {
    DecodeResult r;
    r.attention = std::move(rows);
    r.target_ids = std::move(target_ids);
    for (int id : r.target_ids) r.target_tokens.push_back(id == kEos ? "<eos>" : "w" + std::to_string(id));
    return r;
}

bool near(double a, double b, double tol = 1e-7) { return std::abs(a - b) <= tol; }

}  // namespace

class TestCompare : public QObject {
    Q_OBJECT

private slots:
    void distancesOfHandRows_data();
    void distancesOfHandRows();
    void argmaxTakesTheFirstOfTies();
    void sentenceCountsAndCorpusMeans();
    void aerOfEachModelAgainstGold();
    void shapesMustMatch();
};

void TestCompare::distancesOfHandRows_data() {
    QTest::addColumn<QVector<float>>("p");
    QTest::addColumn<QVector<float>>("q");
    QTest::addColumn<double>("tv");
    QTest::addColumn<double>("js");
    const double ln2 = std::log(2.0);
    QTest::newRow("equal") << QVector<float>{0.2f, 0.3f, 0.5f} << QVector<float>{0.2f, 0.3f, 0.5f} << 0.0 << 0.0;
    QTest::newRow("disjoint") << QVector<float>{1, 0, 0} << QVector<float>{0, 0.5f, 0.5f} << 1.0 << ln2;
    // p = (1, 0), q = (1/2, 1/2), m = (3/4, 1/4): KL(p||m) = ln(4/3), KL(q||m) = 1/2 ln(2/3) + 1/2 ln 2.
    QTest::newRow("one-hot against flat")
        << QVector<float>{1, 0} << QVector<float>{0.5f, 0.5f} << 0.5
        << 0.5 * std::log(4.0 / 3.0) + 0.5 * (0.5 * std::log(2.0 / 3.0) + 0.5 * std::log(2.0));
    // p = (1/2, 1/2, 0), q = (0, 1/2, 1/2): TV = 1/2; m = (1/4, 1/2, 1/4), KL(p||m) = 1/2 ln 2 = KL(q||m).
    QTest::newRow("half overlap") << QVector<float>{0.5f, 0.5f, 0} << QVector<float>{0, 0.5f, 0.5f} << 0.5 << 0.5 * ln2;
}

void TestCompare::distancesOfHandRows() {
    QFETCH(QVector<float>, p);
    QFETCH(QVector<float>, q);
    QFETCH(double, tv);
    QFETCH(double, js);
    const std::vector<float> a(p.begin(), p.end()), b(q.begin(), q.end());
    QVERIFY2(near(totalVariation(a, b), tv), qPrintable(QString::number(totalVariation(a, b), 'g', 17)));
    QVERIFY2(near(jensenShannon(a, b), js), qPrintable(QString::number(jensenShannon(a, b), 'g', 17)));
    // Both are symmetric.
    QVERIFY(near(totalVariation(b, a), tv));
    QVERIFY(near(jensenShannon(b, a), js));
}

void TestCompare::argmaxTakesTheFirstOfTies() {
    QCOMPARE(rowArgmax({0.1f, 0.45f, 0.45f}), 1);
    QCOMPARE(rowArgmax({0.7f, 0.2f, 0.1f}), 0);
    QCOMPARE(rowArgmax({0.0f, 0.0f, 1.0f}), 2);
}

void TestCompare::sentenceCountsAndCorpusMeans() {
    // Sentence 1: two rows; row 0 equal (argmax agrees), row 1 disjoint (argmax differs).
    const DecodeResult a1 = decodeWith({{0.5f, 0.5f, 0, 0}, {1, 0, 0, 0}}, {5, kEos});
    const DecodeResult b1 = decodeWith({{0.5f, 0.5f, 0, 0}, {0, 0, 0.5f, 0.5f}}, {5, kEos});
    const AttentionComparisonCounts c1 = compareAttention(a1, b1);
    QCOMPARE(c1.lines, int64_t(1));
    QCOMPARE(c1.rows, int64_t(2));
    QVERIFY(near(c1.tv_sum, 1.0));
    QVERIFY(near(c1.js_sum, std::log(2.0)));
    QCOMPARE(c1.argmax_agreements, int64_t(1));
    QVERIFY(near(c1.entropy_a_sum, std::log(2.0)));      // ln 2 + 0
    QVERIFY(near(c1.entropy_b_sum, 2 * std::log(2.0)));  // ln 2 + ln 2
    QCOMPARE(c1.aligned_lines, int64_t(0));
    // Sentence 2: one row, p one-hot, q flat over two columns.
    const DecodeResult a2 = decodeWith({{0, 1, 0, 0}}, {kEos});
    const DecodeResult b2 = decodeWith({{0, 0.5f, 0.5f, 0}}, {kEos});
    AttentionComparisonCounts total = c1;
    total += compareAttention(a2, b2);
    const AttentionComparison s = comparisonSummary(total);
    QCOMPARE(s.lines, int64_t(2));
    QCOMPARE(s.rows, int64_t(3));
    // Means over the three rows, not over the two sentences.
    QVERIFY(near(s.mean_tv, (0 + 1 + 0.5) / 3));
    const double js_hand = 0.5 * std::log(4.0 / 3.0) + 0.5 * (0.5 * std::log(2.0 / 3.0) + 0.5 * std::log(2.0));
    QVERIFY(near(s.mean_js, (std::log(2.0) + js_hand) / 3, 1e-6));
    QVERIFY(near(s.argmax_agreement, 2.0 / 3.0));  // rows 0 and the last (columns 1 and 1: first of the tie)
    QVERIFY(near(s.mean_entropy_a, std::log(2.0) / 3));
    QVERIFY(near(s.mean_entropy_b, 3 * std::log(2.0) / 3));
    QVERIFY(!s.aer_a && !s.aer_b);
    // No rows: zeros, not NaN.
    const AttentionComparison empty = comparisonSummary({});
    QCOMPARE(empty.mean_tv, 0.0);
    QCOMPARE(empty.argmax_agreement, 0.0);
}

void TestCompare::aerOfEachModelAgainstGold() {
    // Source <sos> w0 w1 <eos>; target t0 t1 <eos>. A links t0-w0, t1-w1 (the gold); B links both to w1.
    const DecodeResult a = decodeWith({{0, 0.9f, 0.1f, 0}, {0, 0.2f, 0.8f, 0}, {0, 0, 0, 1}}, {5, 6, kEos});
    const DecodeResult b = decodeWith({{0, 0.3f, 0.7f, 0}, {0, 0.1f, 0.6f, 0.3f}, {0, 0, 0, 1}}, {5, 6, kEos});
    const GoldAlignment gold = parseAlignment("0-0 1-1");
    const AttentionComparisonCounts c = compareAttention(a, b, &gold);
    QCOMPARE(c.aligned_lines, int64_t(1));
    const AttentionComparison s = comparisonSummary(c);
    QVERIFY(s.aer_a && s.aer_b);
    QCOMPARE(*s.aer_a, 0.0);
    // B: A = {(1,0), (1,1)}, |A ∩ G| = 1: AER = 1 − 2·1 / (2 + 2) = 0.5.
    QCOMPARE(*s.aer_b, 0.5);
}

void TestCompare::shapesMustMatch() {
    const DecodeResult a = decodeWith({{0.5f, 0.5f}, {1, 0}}, {5, kEos});
    const DecodeResult fewer_rows = decodeWith({{0.5f, 0.5f}}, {kEos});
    const DecodeResult more_columns = decodeWith({{0.5f, 0.5f, 0}, {1, 0, 0}}, {5, kEos});
    QVERIFY_THROWS_EXCEPTION(InputError, compareAttention(a, fewer_rows));
    try {
        compareAttention(a, more_columns);
        QFAIL("no error");
    } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains("2 and 3 columns"), e.what());
    }
}

ATTNVIZ_TEST_MAIN(TestCompare)
#include "test_compare.moc"
