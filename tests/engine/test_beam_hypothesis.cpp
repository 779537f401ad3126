// A beam hypothesis as the window shows it (decode/beam_hypothesis.h): the forced decode of a node's tokens
// reproduces, by another route, what the search recorded along that node's path: the attention row of every step
// (for a Transformer the last layer's cross-attention averaged over the heads, averaged here by hand from the
// forced decode's per-head matrices), the log-probabilities, and for the best hypothesis every layer and head the
// search kept. Paths and ranks of nodes, and the root or a missing node refused.
#include "base/errors.h"
#include "decode/beam_hypothesis.h"
#include "decode/decoding.h"
#include "decode_variants.h"
#include "error_of.h"
#include "model/model.h"
#include "test_models.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>

#include <cmath>
#include <memory>

using namespace attnviz;
using attnviz::testing::catSentence;
using attnviz::testing::close;
using attnviz::testing::errorOf;

namespace {

std::shared_ptr<const Model> peakedTransformer() {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.transformer = {8, 2, 2, 2, 16, false, Activation::Relu};
    Model m = makeRandomTransformerModel(c, testing::smallSourceVocab(), testing::smallTargetVocab(), {5, true});
    m.transformer.generator_weight *= 3.0f;  // peaked distributions: hypotheses that differ in their tokens
    return std::make_shared<const Model>(std::move(m));
}

// Row i of the by-hand mean over heads of layer `layer`'s cross-attention.
std::vector<double> meanRow(const DecodeResult& r, size_t layer, Eigen::Index i) {
    const std::vector<Mat>& heads = r.cross_attention[layer];
    std::vector<double> mean(size_t(heads[0].cols()), 0.0);
    for (const Mat& h : heads)
        for (Eigen::Index j = 0; j < h.cols(); ++j) mean[size_t(j)] += double(h(i, j)) / double(heads.size());
    return mean;
}

// The forced decode of `node` against the search's path: tokens, log-probs, attention rows.
void checkAgainstPath(const BeamResult& tree, const DecodeResult& d, int node) {
    const std::vector<int> path = beamPath(tree, node);
    QCOMPARE(d.target_ids.size(), path.size());
    QCOMPARE(d.source_ids, tree.best.source_ids);
    for (size_t i = 0; i < path.size(); ++i) {
        const BeamNode& n = tree.nodes[size_t(path[i])];
        QCOMPARE(d.target_ids[i], n.token);
        QVERIFY2(close(d.log_probs[i], n.log_prob, 1e-6), qPrintable(QString("node %1 step %2").arg(node).arg(i)));
        const std::vector<float>& row = tree.attention(path[i]);
        QCOMPARE(d.attention[i].size(), row.size());
        for (size_t j = 0; j < row.size(); ++j) QVERIFY(close(d.attention[i][j], row[j], 1e-6));
    }
    QVERIFY(close(d.total_log_prob, tree.nodes[size_t(node)].total_log_prob, 1e-6));
}

}  // namespace

class TestBeamHypothesis : public QObject {
    Q_OBJECT

private slots:
    void averagedCrossAttentionIsTheSearchsRows();
    void bestHypothesisHasTheSearchsLayers();
    void unfinishedAndPrunedNodes();
    void rnnHypothesisIsTheSearchsRows();
    void pathsRanksAndBadNodes();
};

void TestBeamHypothesis::averagedCrossAttentionIsTheSearchsRows() {
    const auto model = peakedTransformer();
    const BeamResult tree = beamSearch(*model, catSentence(), 4);
    QVERIFY(tree.finished.size() >= 3);
    const size_t L = size_t(model->config.transformer.num_decoder_layers);
    for (int leaf : tree.finished) {
        const DecodeResult d = hypothesisDecode(*model, tree, leaf);
        checkAgainstPath(tree, d, leaf);
        QCOMPARE(d.cross_attention.size(), L);
        const std::vector<int> path = beamPath(tree, leaf);
        for (size_t i = 0; i < path.size(); ++i) {
            const std::vector<double> mean = meanRow(d, L - 1, Eigen::Index(i));
            const std::vector<float>& row = tree.attention(path[i]);
            for (size_t j = 0; j < row.size(); ++j)
                QVERIFY2(close(mean[j], row[j], 1e-6),
                         qPrintable(QString("leaf %1 step %2 col %3").arg(leaf).arg(i).arg(j)));
        }
        // T × T decoder self-attention, causal; the encoder's the same for every hypothesis.
        const Eigen::Index T = Eigen::Index(path.size());
        QCOMPARE(d.decoder_self_attention[0][0].rows(), T);
        QCOMPARE(d.decoder_self_attention[0][0].cols(), T);
        QCOMPARE(d.decoder_self_attention[0][0](0, 0), 1.0f);  // position 1 sees <sos> only
        if (T > 1) QCOMPARE(d.decoder_self_attention[0][0](0, 1), 0.0f);
        QCOMPARE(d.encoder_self_attention.size(), tree.best.encoder_self_attention.size());
        QVERIFY(d.encoder_self_attention[0][1] == tree.best.encoder_self_attention[0][1]);
    }
    // The hypotheses differ: the second best does not have the best's tokens.
    QVERIFY(hypothesisDecode(*model, tree, tree.finished[1]).target_ids != tree.best.target_ids);
}

void TestBeamHypothesis::bestHypothesisHasTheSearchsLayers() {
    const auto model = peakedTransformer();
    const BeamResult tree = beamSearch(*model, catSentence(), 3);
    const DecodeResult d = hypothesisDecode(*model, tree, tree.finished.front());
    QCOMPARE(d.target_ids, tree.best.target_ids);
    QCOMPARE(d.cross_attention.size(), tree.best.cross_attention.size());
    for (size_t l = 0; l < d.cross_attention.size(); ++l)
        for (size_t h = 0; h < d.cross_attention[l].size(); ++h) {
            const Mat& a = d.cross_attention[l][h];
            const Mat& b = tree.best.cross_attention[l][h];
            QCOMPARE(a.rows(), b.rows());
            QVERIFY2((a - b).cwiseAbs().maxCoeff() <= 1e-6f, qPrintable(QString("layer %1 head %2").arg(l).arg(h)));
            const Mat& sa = d.decoder_self_attention[l][h];
            QVERIFY((sa - tree.best.decoder_self_attention[l][h]).cwiseAbs().maxCoeff() <= 1e-6f);
        }
}

// A node inside the tree (kept, not finished) and a pruned one: a hypothesis of their tokens all the same.
void TestBeamHypothesis::unfinishedAndPrunedNodes() {
    const auto model = peakedTransformer();
    const BeamResult tree = beamSearch(*model, catSentence(), 3);
    int inner = -1, pruned = -1;
    for (size_t n = 1; n < tree.nodes.size(); ++n) {
        const BeamNode& node = tree.nodes[n];
        if (inner < 0 && node.in_beam && !node.finished && node.step >= 2) inner = int(n);
        if (pruned < 0 && !node.in_beam) pruned = int(n);
    }
    QVERIFY(inner > 0 && pruned > 0);
    checkAgainstPath(tree, hypothesisDecode(*model, tree, inner), inner);
    checkAgainstPath(tree, hypothesisDecode(*model, tree, pruned), pruned);
    QCOMPARE(finishedRank(tree, inner), -1);
}

void TestBeamHypothesis::rnnHypothesisIsTheSearchsRows() {
    const Model model = testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 11);
    const BeamResult tree = beamSearch(model, catSentence(), 3);
    QVERIFY(tree.finished.size() >= 2);
    const DecodeResult d = hypothesisDecode(model, tree, tree.finished[1]);
    QVERIFY(d.cross_attention.empty());
    // The RNN's forced decode batches its output layer: the same maths in another order, float round-off apart.
    const std::vector<int> path = beamPath(tree, tree.finished[1]);
    QCOMPARE(d.target_ids.size(), path.size());
    for (size_t i = 0; i < path.size(); ++i) {
        QVERIFY(std::abs(d.log_probs[i] - tree.nodes[size_t(path[i])].log_prob) < 1e-4f);
        for (size_t j = 0; j < d.attention[i].size(); ++j)
            QVERIFY(std::abs(d.attention[i][j] - tree.attention(path[i])[j]) < 1e-5f);
    }
}

void TestBeamHypothesis::pathsRanksAndBadNodes() {
    const auto model = peakedTransformer();
    const BeamResult tree = beamSearch(*model, catSentence(), 3);
    QVERIFY(beamPath(tree, 0).empty());
    const std::vector<int> best = beamPath(tree, tree.finished.front());
    QCOMPARE(best.size(), tree.best.target_ids.size());
    QCOMPARE(tree.nodes[size_t(best.front())].parent, 0);
    QCOMPARE(best.back(), tree.finished.front());
    for (size_t k = 0; k < tree.finished.size(); ++k) QCOMPARE(finishedRank(tree, tree.finished[k]), int(k));
    QCOMPARE(finishedRank(tree, 0), -1);
    QVERIFY(errorOf([&] { hypothesisDecode(*model, tree, 0); }).contains("root"));
    const int missing = int(tree.nodes.size());
    QVERIFY(errorOf([&] { hypothesisDecode(*model, tree, missing); }).contains("no node"));
    QVERIFY(errorOf([&] { beamPath(tree, -1); }).contains("no node"));
}

ATTNVIZ_TEST_MAIN(TestBeamHypothesis)
#include "test_beam_hypothesis.moc"
