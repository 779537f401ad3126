// The corpus measures of docs/explain.md against hand-worked answers: Spearman's ρ with and without ties, the
// ranking of a row's words (specials left out, ties to the lower position), a row's shares of its magnitude, the
// per-row ρ over the words, a method's AER on hand-made links, AOPC by docs/explain.md (log p of the row's token
// from independent forced decodes of the sources with the top-k words replaced by <unk>), and explainCorpus's lines.
#include "decode/decoding.h"
#include "eval/alignment.h"
#include "explain/measures.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QtTest>

#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

Mat rows(std::initializer_list<std::initializer_list<float>> values) {
    Mat m(Eigen::Index(values.size()), Eigen::Index(values.begin()->size()));
    Eigen::Index t = 0;
    for (const auto& row : values) {
        Eigen::Index j = 0;
        for (float v : row) m(t, j++) = v;
        ++t;
    }
    return m;
}

Model additiveModel() { return smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 7); }

// log p(y_t) of every row, forced along `target` from `source` ids (the decoder's own forced decode, not the
// attribution code's passes).
std::vector<double> forcedLogProbs(const Model& m, const std::vector<int>& source, const DecodeResult& along) {
    TokenizedText src, ref;
    src.ids = source;
    for (int id : source) src.tokens.push_back(m.source_vocab.token(id));
    ref.ids = along.target_ids;
    ref.tokens = along.target_tokens;
    const DecodeResult d = forcedDecode(m, src, ref);
    std::vector<double> lp;
    for (float v : d.log_probs) lp.push_back(double(v));
    return lp;
}

}  // namespace

class TestExplainMeasures : public QObject {
    Q_OBJECT
private slots:
    void spearmanOfHandWorkedVectors();
    void rankedWordsLeaveOutTheSpecialsAndBreakTiesToTheLeft();
    void rowSharesAreMagnitudesOverTheirSum();
    void rowSpearmanTakesTheWordsOfEachRow();
    void aerOfAMethodsLinksAgainstHandMadeGold();
    void aopcIsTheMeanFallOfLogPWhenTheTopWordsGo();
    void explainCorpusScoresEachLineOrSaysWhyNot();
};

void TestExplainMeasures::spearmanOfHandWorkedVectors() {
    // no ties: ρ = 1 − 6 Σd² / (n (n² − 1)) = 1 − 6·2 / 60
    QVERIFY(std::abs(spearman({1, 2, 3, 4}, {1, 3, 2, 4}) - 0.8) < 1e-12);
    QVERIFY(std::abs(spearman({10, 20, 30}, {3, 2, 1}) + 1.0) < 1e-12);
    // ties get average ranks: a → (1.5, 1.5, 3), b → (1, 2, 3): cov 1.5, var 1.5 and 2
    QVERIFY(std::abs(spearman({1, 1, 2}, {1, 2, 3}) - 1.5 / std::sqrt(3.0)) < 1e-12);
    QVERIFY(std::isnan(spearman({1, 1, 1}, {1, 2, 3})));  // constant
    QVERIFY(std::isnan(spearman({1}, {2})));              // fewer than 2
}

void TestExplainMeasures::rankedWordsLeaveOutTheSpecialsAndBreakTiesToTheLeft() {
    // S = 6: <sos>, four words, <eos>; the specials' 9s are not words
    const Mat R = rows({{9, 0.1f, 0.5f, 0.5f, 0.2f, 9}});
    QCOMPARE(rankedWords(R, 0), (std::vector<int>{2, 3, 4, 1}));
}

void TestExplainMeasures::rowSharesAreMagnitudesOverTheirSum() {
    const Mat shares = rowShares(rows({{1, -3, 0, 0}, {0, 0, 0, 0}}));
    QCOMPARE(shares(0, 0), 0.25f);
    QCOMPARE(shares(0, 1), 0.75f);
    QCOMPARE(shares.row(1).sum(), 0.0f);
}

void TestExplainMeasures::rowSpearmanTakesTheWordsOfEachRow() {
    // S = 5: the words are columns 1..3; row 0 agrees in order (ρ 1) despite different specials, row 1 reverses
    const Mat a = rows({{5, 1, 2, 3, 0}, {0, 1, 2, 3, 0}});
    const Mat b = rows({{0, 10, 20, 30, 7}, {0, 3, 2, 1, 0}});
    const std::vector<double> rho = rowSpearman(a, b);
    QCOMPARE(rho.size(), size_t(2));
    QVERIFY(std::abs(rho[0] - 1.0) < 1e-12);
    QVERIFY(std::abs(rho[1] + 1.0) < 1e-12);
}

void TestExplainMeasures::aerOfAMethodsLinksAgainstHandMadeGold() {
    // source <sos> a b <eos>, target x y <eos>: row 0 looks at word 0, row 1 at word 1 (argmax over the words)
    DecodeResult d;
    d.source_tokens = {"<sos>", "a", "b", "<eos>"};
    d.target_tokens = {"x", "y", "<eos>"};
    d.target_ids = {5, 6, kEos};  // the <eos> row is not a target word
    d.attention.assign(3, std::vector<float>(4, 0.f));
    const Mat R = rows({{0, 0.9f, -0.2f, 0}, {5, -1, 0.3f, 0}, {0, 0, 0, 1}});
    const std::vector<AlignmentLink> links = extractAlignment(d, R, AlignOptions{});
    GoldAlignment gold;
    gold.sure = {{0, 0}, {0, 1}};  // (source word, target word): a-x and a-y
    // A = {a-x, b-y}, S = P = {a-x, a-y}: AER = 1 − (|A ∩ S| + |A ∩ P|) / (|A| + |S|) = 1 − 2 / 4
    const AerCounts c = aerCounts(links, gold);
    QCOMPARE(c.predicted, int64_t(2));
    QCOMPARE(c.overlap, int64_t(1));
    QVERIFY(std::abs(c.aer() - 0.5) < 1e-12);
}

void TestExplainMeasures::aopcIsTheMeanFallOfLogPWhenTheTopWordsGo() {
    const Model m = additiveModel();
    const DecodeResult forced = forcedDecode(m, "the cat sat on the mat", "猫 坐 在 垫子 上");
    const Explanation e = explainDecode(m, forced, ExplainMethod::GradInput);
    std::vector<std::vector<int>> order;
    for (Eigen::Index t = 0; t < e.values.rows(); ++t) order.push_back(rankedWords(e.values, int(t)));
    const MeanSum got = aopcOf(m, forced, order);
    // by the definition: Δ_k = log p(y_t | x) − log p(y_t | x with the top k words replaced by <unk>), k ≤ 5
    const std::vector<double> base = forcedLogProbs(m, forced.source_ids, forced);
    double sum = 0;
    int count = 0;
    for (size_t t = 0; t < order.size(); ++t)
        for (int k = 1; k <= 5; ++k) {
            std::vector<int> occluded = forced.source_ids;
            for (int i = 0; i < k; ++i) occluded[size_t(order[t][size_t(i)])] = kUnk;
            sum += base[t] - forcedLogProbs(m, occluded, forced)[t];
            ++count;
        }
    QCOMPARE(got.count, int64_t(count));
    QVERIFY2(std::abs(got.mean() - sum / count) < 1e-5,
             qPrintable(QString("%1 vs %2").arg(got.mean()).arg(sum / count)));
}

void TestExplainMeasures::explainCorpusScoresEachLineOrSaysWhyNot() {
    const Model m = additiveModel();
    std::vector<CorpusExample> lines(3);
    lines[0].line = 1;
    lines[0].source = "i love you";
    lines[0].target = "我 爱 你";
    lines[0].has_target = true;
    lines[0].has_alignment = true;
    lines[0].alignment = parseAlignment("0-0 1-1 2-2");
    lines[1].line = 2;
    lines[1].source = "the cat";  // no reference: nothing to force
    lines[2].line = 3;
    lines[2].source = "the cat sat";
    lines[2].target = "猫 坐";
    lines[2].has_target = true;
    std::atomic<size_t> done{0};
    const std::vector<LineExplainScores> s = explainCorpus(m, lines, ExplainMethod::Occlusion, AlignOptions{}, &done);
    QCOMPARE(done.load(), size_t(3));
    QCOMPARE(s.size(), size_t(3));
    // line 1: the measures of its forced decode, as measureMethod takes them
    const DecodeResult forced = forcedDecode(m, "i love you", "我 爱 你");
    const ExplainMeasures want = measureMethod(
        m, forced, &lines[0].alignment, explainDecode(m, forced, ExplainMethod::Occlusion).values, AlignOptions{});
    QVERIFY(s[0].scored);
    QVERIFY(s[0].aer.has_value());
    QCOMPARE(*s[0].aer, want.aer.aer());
    QCOMPARE(s[0].aopc, want.aopc.mean());
    QVERIFY(!s[1].scored);
    QVERIFY(QString::fromStdString(s[1].error).contains("reference"));
    QVERIFY(s[2].scored);
    QVERIFY(!s[2].aer.has_value());  // no gold links on that line
    // cancelled before the first line: nothing is scored
    std::atomic<bool> cancel{true};
    for (const LineExplainScores& x : explainCorpus(m, lines, ExplainMethod::Occlusion, {}, nullptr, &cancel))
        QVERIFY(!x.scored);
}

ATTNVIZ_TEST_MAIN(TestExplainMeasures)
#include "test_explain_measures.moc"
