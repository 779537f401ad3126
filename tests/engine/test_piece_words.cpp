// Pieces or words (docs/marian.md "What is shown"): word spans of hand-made piece lists, their labels, and merged
// matrices against sums and means worked out by hand.
#include "test_registry.h"
#include "text/piece_words.h"

#include <QTest>

#include <cmath>
#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

using namespace attnviz;

namespace {

using Spans = std::vector<WordSpan>;

std::vector<std::string> strings(const QStringList& list) {
    std::vector<std::string> out;
    for (const auto& s : list) out.push_back(s.toStdString());
    return out;
}

QString spansText(const Spans& spans) {
    QStringList parts;
    for (const auto& s : spans) parts << QString("[%1,%2)").arg(s.first).arg(s.end);
    return parts.join(' ');
}

Mat matrix(int rows, int cols, std::initializer_list<float> values) {
    Mat m(rows, cols);
    auto it = values.begin();
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) m(r, c) = *it++;
    return m;
}

bool near(const Mat& a, const Mat& b) {
    return a.rows() == b.rows() && a.cols() == b.cols() && (a - b).cwiseAbs().maxCoeff() < 1e-6f;
}

}  // namespace

class TestPieceWords : public QObject {
    Q_OBJECT

private slots:
    void spans_data() {
        QTest::addColumn<QStringList>("pieces");
        QTest::addColumn<QList<int>>("specials");
        QTest::addColumn<QString>("spans");
        QTest::addColumn<QStringList>("labels");
        QTest::newRow("english, </s> last") << QStringList{"▁Hello", "▁wor", "ld", "</s>"} << QList<int>{3}
                                            << "[0,1) [1,3) [3,4)" << QStringList{"Hello", "world", "</s>"};
        QTest::newRow("chinese: one ▁, then no word starts")
            << QStringList{"▁", "我", "喜欢", "猫", "。", "</s>"} << QList<int>{5} << "[0,5) [5,6)"
            << QStringList{"我喜欢猫。", "</s>"};
        QTest::newRow("position 0 without ▁")
            << QStringList{"ab", "c", "▁d"} << QList<int>{} << "[0,2) [2,3)" << QStringList{"abc", "d"};
        QTest::newRow("language code and </s>") << QStringList{">>fra<<", "▁Bon", "jour", "</s>"} << QList<int>{0, 3}
                                                << "[0,1) [1,3) [3,4)" << QStringList{">>fra<<", "Bonjour", "</s>"};
        QTest::newRow("a piece after a special starts a word") << QStringList{"<unk>", "s", "▁x"} << QList<int>{0}
                                                               << "[0,1) [1,2) [2,3)" << QStringList{"<unk>", "s", "x"};
        QTest::newRow("special inside a word's pieces") << QStringList{"▁ab", "<unk>", "cd"} << QList<int>{1}
                                                        << "[0,1) [1,2) [2,3)" << QStringList{"ab", "<unk>", "cd"};
        QTest::newRow("two specials") << QStringList{"</s>", "</s>"} << QList<int>{0, 1} << "[0,1) [1,2)"
                                      << QStringList{"</s>", "</s>"};
        QTest::newRow("every ▁ left out of a label")
            << QStringList{"▁a▁b", "▁▁"} << QList<int>{} << "[0,1) [1,2)" << QStringList{"ab", ""};
        QTest::newRow("no pieces") << QStringList{} << QList<int>{} << "" << QStringList{};
    }
    void spans() {
        QFETCH(QStringList, pieces);
        QFETCH(QList<int>, specials);
        QFETCH(QString, spans);
        QFETCH(QStringList, labels);
        const auto p = strings(pieces);
        const std::set<int> special(specials.begin(), specials.end());
        const Spans got = wordSpans(p, [&](int i) { return special.count(i) > 0; });
        QCOMPARE(spansText(got), spans);
        QStringList got_labels;
        for (const auto& l : wordLabels(p, got)) got_labels << QString::fromStdString(l);
        QCOMPARE(got_labels, labels);
    }

    // (2, 4) with words [0,1) [1,4): columns 2+3+4 and 6+7+8.
    void sumColumnsAddsAWordsPieces() {
        const Mat m = matrix(2, 4, {1, 2, 3, 4, 5, 6, 7, 8});
        QVERIFY(near(sumColumns(m, {{0, 1}, {1, 4}}), matrix(2, 2, {1, 9, 5, 21})));
    }

    // (3, 2) with words [0,2) [2,3): the first row the mean of (1,2) and (3,4).
    void meanRowsAveragesAWordsPieces() {
        const Mat m = matrix(3, 2, {1, 2, 3, 4, 5, 9});
        QVERIFY(near(meanRows(m, {{0, 2}, {2, 3}}), matrix(2, 2, {2, 3, 5, 9})));
    }

    // A causal 3 x 3 decoder self-attention, target words [0,2) [2,3) on both axes. Rows: the mean of rows 0 and 1
    // is (0.625, 0.375, 0); row 2 stays. Columns: 0.625 + 0.375 = 1 and 0; 0.2 + 0.3 = 0.5 and 0.5. Each merged row
    // still sums to 1, and the first word puts nothing on the later one.
    void causalSelfAttentionMergedOnBothAxes() {
        const Mat a = matrix(3, 3, {1, 0, 0, 0.25f, 0.75f, 0, 0.2f, 0.3f, 0.5f});
        const Spans words{{0, 2}, {2, 3}};
        QVERIFY(near(mergeBoth(a, words, words), matrix(2, 2, {1, 0, 0.5f, 0.5f})));
    }

    // Cross-attention (target rows, source columns), different spans per axis, each row a distribution: merged rows
    // are distributions too.
    void mergedCrossAttentionRowsStillSumToOne() {
        Mat a = Mat::Random(5, 7).array().exp().matrix();
        for (int r = 0; r < a.rows(); ++r) a.row(r) /= a.row(r).sum();
        const Mat merged = mergeBoth(a, {{0, 1}, {1, 4}, {4, 5}}, {{0, 3}, {3, 4}, {4, 7}});
        QCOMPARE(merged.rows(), Eigen::Index(3));
        QCOMPARE(merged.cols(), Eigen::Index(3));
        for (int r = 0; r < 3; ++r) QVERIFY(std::abs(merged.row(r).sum() - 1.0f) < 1e-5f);
        QCOMPARE(merged(1, 1), (a(1, 3) + a(2, 3) + a(3, 3)) / 3.0f);
    }

    void oneWordPerPieceChangesNothing() {
        const Mat a = Mat::Random(3, 4);
        QVERIFY(near(mergeBoth(a, {{0, 1}, {1, 2}, {2, 3}}, {{0, 1}, {1, 2}, {2, 3}, {3, 4}}), a));
    }

    void spansThatDoNotTileAreRefused() {
        const Mat a = Mat::Zero(2, 3);
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sumColumns(a, {{0, 2}}));          // short
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sumColumns(a, {{0, 2}, {1, 3}}));  // overlap
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, sumColumns(a, {{0, 0}, {0, 3}}));  // empty word
        QVERIFY_THROWS_EXCEPTION(std::invalid_argument, meanRows(a, {{0, 3}}));            // past the end
    }
};

ATTNVIZ_TEST_MAIN(TestPieceWords)
#include "test_piece_words.moc"
