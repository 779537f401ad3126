// Comparing one Transformer head with an RNN's attention (core/eval/compare_heads.h, the compare view's choosers and
// `compare --head-a/--head-b`): the rows compared for layer L, head H are the cross-attention of an independent run
// of the Transformer's forward pass (nn/transformer: encode, then the decoder fed the decode's tokens one by one,
// each step's weights read straight from its (nhead, S) matrix), and the distances are those of these rows; the mean
// of the last layer's heads is the decode's `attention`; the choices parse, are checked against the model and print.
#include "base/errors.h"
#include "decode/decoding.h"
#include "eval/compare.h"
#include "eval/compare_heads.h"
#include "eval/compare_json.h"
#include "eval/metrics.h"
#include "nn/transformer.h"
#include "test_models.h"
#include "test_registry.h"
#include "text/tokenizer.h"

#include <QtTest>
#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// Row t of every decoder step's cross-attention of `layer`, `head`: the engine's forward pass run again.
std::vector<std::vector<float>> engineHeadRows(const Model& m, const DecodeResult& r, int layer, int head) {
    const Transformer net(m.config.transformer, m.transformer);
    const TransformerEncoding encoding = net.encode(r.source_ids);
    TransformerDecoderState cache;
    std::vector<std::vector<float>> rows;
    int token = kSos;
    for (const int next : r.target_ids) {
        TransformerStep step;
        net.step(encoding, cache, token, step);
        const Mat& heads = step.cross_attention[size_t(layer)];
        std::vector<float> row(size_t(heads.cols()));
        for (Eigen::Index j = 0; j < heads.cols(); ++j) row[size_t(j)] = heads(head, j);
        rows.push_back(std::move(row));
        token = next;
    }
    return rows;
}

}  // namespace

class TestCompareHeads : public QObject {
    Q_OBJECT

private slots:
    void initTestCase();
    void chosenHeadIsTheEnginesHead();
    void lastLayersMeanIsTheSpecsAttention();
    void choicesParseAndAreChecked();
    void choicesAsTextAndJson();

private:
    Model transformer_, rnn_;
    DecodeResult a_, b_;  // the Transformer's greedy decode; the RNN forced onto it
};

void TestCompareHeads::initTestCase() {
    transformer_ = smallTransformer(7, 3);  // 3 decoder layers of 2 heads
    rnn_ = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 41, 3.0f);
    QCOMPARE(comparabilityProblem(transformer_, rnn_), std::string());
    a_ = greedyDecode(transformer_, tokenizeSource(transformer_, "the cat sat on the mat"));
    b_ = forcedDecode(rnn_, TokenizedText{a_.source_tokens, a_.source_ids},
                      TokenizedText{a_.target_tokens, a_.target_ids});
    QVERIFY(a_.attention.size() >= 2);
}

void TestCompareHeads::chosenHeadIsTheEnginesHead() {
    const std::vector<RowComparison> spec_rows = compareRows(a_, b_);
    int differs_from_spec = 0;
    for (const auto& [layer, head] : {std::pair{0, 1}, std::pair{2, 0}, std::pair{1, 1}}) {
        const std::vector<std::vector<float>> want = engineHeadRows(transformer_, a_, layer, head);
        const DecodeResult chosen = withComparedAttention(a_, {AttentionKind::Cross, layer, head});
        QCOMPARE(chosen.target_tokens, a_.target_tokens);
        QVERIFY(chosen.scores.empty());
        QCOMPARE(chosen.attention.size(), want.size());
        const std::vector<RowComparison> rows = compareRows(chosen, b_);
        for (size_t t = 0; t < want.size(); ++t) {
            for (size_t j = 0; j < want[t].size(); ++j)
                QVERIFY2(std::abs(chosen.attention[t][j] - want[t][j]) <= 1e-6f, qPrintable(QString::number(t)));
            QVERIFY(std::abs(rows[t].tv - totalVariation(want[t], b_.attention[t])) <= 1e-6);
            QVERIFY(std::abs(rows[t].js - jensenShannon(want[t], b_.attention[t])) <= 1e-6);
            QVERIFY(std::abs(rows[t].entropy_a - rowEntropy(want[t])) <= 1e-5);
            QCOMPARE(rows[t].entropy_b, spec_rows[t].entropy_b);  // B's side is untouched
            QCOMPARE(rows[t].argmax_a, int(std::max_element(want[t].begin(), want[t].end()) - want[t].begin()));
            differs_from_spec += std::abs(rows[t].tv - spec_rows[t].tv) > 1e-3;
        }
        // The sentence's means are those of the same rows.
        const AttentionComparison s = comparisonSummary(compareAttention(chosen, b_));
        double tv = 0;
        for (const RowComparison& r : rows) tv += r.tv;
        QVERIFY(std::abs(s.mean_tv - tv / double(rows.size())) < 1e-12);
    }
    QVERIFY(differs_from_spec > 0);  // a head is not the decode's average
    // Both sides may choose: a head against itself differs by nothing.
    const DecodeResult h = withComparedAttention(a_, {AttentionKind::Cross, 1, 0});
    const AttentionComparison self = comparisonSummary(compareAttention(h, h));
    QCOMPARE(self.mean_tv, 0.0);
    QCOMPARE(self.argmax_agreement, 1.0);
}

void TestCompareHeads::lastLayersMeanIsTheSpecsAttention() {
    const DecodeResult mean = withComparedAttention(a_, {AttentionKind::Cross, 2, -1});
    for (const RowComparison& r : compareRows(mean, a_)) QVERIFY(r.tv < 1e-6);
    // Layer 1's mean by hand: the average of the engine's two heads.
    const auto h0 = engineHeadRows(transformer_, a_, 0, 0), h1 = engineHeadRows(transformer_, a_, 0, 1);
    const DecodeResult first = withComparedAttention(a_, {AttentionKind::Cross, 0, -1});
    for (size_t t = 0; t < h0.size(); ++t)
        for (size_t j = 0; j < h0[t].size(); ++j)
            QVERIFY(std::abs(first.attention[t][j] - 0.5f * (h0[t][j] + h1[t][j])) <= 1e-6f);
    // The default view leaves the decode as it is.
    QCOMPARE(withComparedAttention(a_, {}).attention, a_.attention);
    QCOMPARE(withComparedAttention(b_, {}).scores, b_.scores);
}

void TestCompareHeads::choicesParseAndAreChecked() {
    QCOMPARE(parseHeadChoice("2,3"), (AttentionView{AttentionKind::Cross, 1, 2}));
    QCOMPARE(parseHeadChoice("1,mean"), (AttentionView{AttentionKind::Cross, 0, -1}));
    for (const char* bad : {"2", "0,1", "2,0", "x,1", "2,", ",1", "2,1,3", "2,-1", "2,means", ""}) {
        try {
            (void)parseHeadChoice(bad);
            QFAIL(bad);
        } catch (const InputError& e) {
            QVERIFY2(std::string(e.what()).find("LAYER,HEAD counted from 1") != std::string::npos, e.what());
        }
    }
    const ModelConfig& t = transformer_.config;
    QCOMPARE(headChoiceProblem(t, {}), std::string());
    QCOMPARE(headChoiceProblem(t, {AttentionKind::Cross, 2, 1}), std::string());
    QCOMPARE(headChoiceProblem(t, {AttentionKind::Cross, 3, 0}),
             std::string("it has 3 decoder layers; layer 4 asked for"));
    QCOMPARE(headChoiceProblem(t, {AttentionKind::Cross, 0, 2}),
             std::string("its layers have 2 heads; head 3 asked for"));
    QCOMPARE(headChoiceProblem(rnn_.config, {}), std::string());
    QVERIFY(headChoiceProblem(rnn_.config, {AttentionKind::Cross, 0, -1}).find("RNN model (bahdanau)") !=
            std::string::npos);
    // A decode without such a head, or another kind of attention, is refused rather than shown as if it were one.
    QVERIFY_THROWS_EXCEPTION(InputError, withComparedAttention(b_, {AttentionKind::Cross, 0, 0}));
    QVERIFY_THROWS_EXCEPTION(InputError, withComparedAttention(a_, {AttentionKind::Cross, 3, 0}));
    QVERIFY_THROWS_EXCEPTION(InputError, withComparedAttention(a_, {AttentionKind::EncoderSelf, 0, 0}));
}

void TestCompareHeads::choicesAsTextAndJson() {
    QCOMPARE(headChoiceText({}), std::string("attention"));
    QCOMPARE(headChoiceText({AttentionKind::Cross, 1, 2}), std::string("layer 2, head 3"));
    QCOMPARE(headChoiceText({AttentionKind::Cross, 0, -1}), std::string("layer 1, mean of heads"));
    QCOMPARE(headChoiceJson({}).dump(), std::string("null"));
    QCOMPARE(headChoiceJson({AttentionKind::Cross, 1, 2}).dump(), std::string(R"({"layer":2,"head":3})"));
    QCOMPARE(headChoiceJson({AttentionKind::Cross, 0, -1}).dump(), std::string(R"({"layer":1,"head":"mean"})"));
}

ATTNVIZ_TEST_MAIN(TestCompareHeads)
#include "test_compare_heads.moc"
