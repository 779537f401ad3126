// The Transformer kind's forward maths (nn/transformer.h) against an independent double-precision reference that
// recomputes the whole prefix (tests/support/reference_transformer.h), hand-worked known answers for the blocks,
// properties of the attentions, and bad parameters and ids. The config and the parameter list:
// test_transformer_params.cpp.
#include "base/errors.h"
#include "error_of.h"
#include "model/transformer_params.h"
#include "nn/transformer.h"
#include "nn/transformer_blocks.h"
#include "reference_transformer.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>
#include <cmath>
#include <random>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

constexpr int kSosId = 2, kEosId = 3;

// |a − b| ≤ tol · (1 + |b|): float32 round-off through a few layers, relative for large values.
struct Net {
    TransformerConfig config;
    TransformerParams params;
    TransformerParamsT<double> exact;  // the same weights in double, for the reference
};

Net makeNet(bool norm_first, Activation act, int layers, int nhead, int maxlen = 0, int d = 8) {
    Net n;
    n.config = {d, nhead, layers, layers, 2 * d, norm_first, act};
    const TransformerShape shape{n.config, 11, 13, maxlen};
    initTransformerParams(n.params, shape, {uint64_t(1000 + 7 * layers + nhead + (norm_first ? 100 : 0)), true});
    if (maxlen > 0)  // a stored table that is not the sinusoid, so that using it is visible
        n.params.pos_embedding = Mat::Random(maxlen, d);
    n.exact = castTransformerParams<double>(n.params, shape);
    return n;
}

std::vector<int> randomIds(int n, int vocab, unsigned seed) {
    std::mt19937 rng(seed);
    std::vector<int> ids;
    for (int i = 0; i < n; ++i) ids.push_back(int(rng() % unsigned(vocab - 3)) + 3);  // <unk> and words; <eos> too
    return ids;
}

std::vector<int> sourceIds(int words, unsigned seed) {
    std::vector<int> ids = {kSosId};
    for (int id : randomIds(words, 11, seed)) ids.push_back(id == kEosId ? 1 : id);
    ids.push_back(kEosId);
    return ids;
}

// Checks every number of an engine step against row t of a reference decoding of at least t + 1 inputs.
void compareStep(const TransformerStep& step, const RefTransformerDecoding& ref, int t, int nhead) {
    for (Eigen::Index v = 0; v < step.log_probs.size(); ++v)
        QVERIFY2(
            close(step.log_probs[v], ref.log_probs(t, v), 2e-5),
            qPrintable(
                QString("step %1 log p(%2): %3 vs %4").arg(t).arg(v).arg(step.log_probs[v]).arg(ref.log_probs(t, v))));
    for (size_t l = 0; l < ref.cross.size(); ++l)
        for (int h = 0; h < nhead; ++h) {
            const Mat& cross = step.cross_attention[l];
            const Mat& self = step.self_attention[l];
            QCOMPARE(self.cols(), Eigen::Index(t + 1));
            for (Eigen::Index j = 0; j < cross.cols(); ++j)
                QVERIFY2(close(cross(h, j), ref.cross[l][h](t, j), 2e-5),
                         qPrintable(QString("step %1 layer %2 head %3 cross %4").arg(t).arg(l).arg(h).arg(j)));
            for (Eigen::Index j = 0; j <= t; ++j)
                QVERIFY2(close(self(h, j), ref.self_attention[l][h](t, j), 2e-5),
                         qPrintable(QString("step %1 layer %2 head %3 self %4").arg(t).arg(l).arg(h).arg(j)));
        }
}

// Greedy decoding by docs/model-format.md's rules on the engine's steps.
std::vector<int> engineGreedy(const Transformer& net, const std::vector<int>& source, int max_len,
                              std::vector<TransformerStep>& steps) {
    const TransformerEncoding enc = net.encode(source);
    TransformerDecoderState state;
    std::vector<int> tokens;
    int input = kSosId;
    while (int(tokens.size()) < max_len) {
        steps.emplace_back();
        net.step(enc, state, input, steps.back());
        const Vec& lp = steps.back().log_probs;
        int best = -1;
        for (int v = 0; v < int(lp.size()); ++v)
            if (v != 0 && v != kSosId && (best < 0 || lp[v] > lp[best])) best = v;
        tokens.push_back(best);
        if (best == kEosId) break;
        input = best;
    }
    return tokens;
}

}  // namespace

class TestTransformer : public QObject {
    Q_OBJECT

private slots:
    void incrementalEqualsRecomputation_data();
    void incrementalEqualsRecomputation();
    void greedyEqualsPrefixRecomputation_data();
    void greedyEqualsPrefixRecomputation();
    void goingBackAndBranchingGiveFreshResults();
    void storedPositionTableEnforcesMaxlen();
    void positionalEncodingKnownValues();
    void embeddingScaledPlusPosition();
    void layerNormKnownVector();
    void activationsKnownValues();
    void attentionOneHeadByHand();
    void attentionTwoHeadsSliceInProj();
    void attentionRowsSumToOneAndCausalZeros();
    void paramsShapeErrorsNameTheTensor();
    void badIdsAreInputErrors();
};

void TestTransformer::incrementalEqualsRecomputation_data() {
    QTest::addColumn<bool>("norm_first");
    QTest::addColumn<int>("activation");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("nhead");
    QTest::addColumn<int>("maxlen");
    for (bool pre : {false, true})
        for (Activation act : {Activation::Relu, Activation::Gelu})
            for (int layers : {1, 2, 3})
                for (int nhead : {1, 2, 4})
                    QTest::addRow("%s/%s/L%d/h%d", pre ? "pre_ln" : "post_ln", toString(act).data(), layers, nhead)
                        << pre << int(act) << layers << nhead << 0;
    QTest::addRow("post_ln/relu/L2/h2/stored_table") << false << int(Activation::Relu) << 2 << 2 << 12;
    QTest::addRow("pre_ln/gelu/L2/h4/stored_table") << true << int(Activation::Gelu) << 2 << 4 << 12;
}

// Teacher forcing: the engine, one cached step at a time, against the reference's masked pass over the whole input.
void TestTransformer::incrementalEqualsRecomputation() {
    QFETCH(bool, norm_first);
    QFETCH(int, activation);
    QFETCH(int, layers);
    QFETCH(int, nhead);
    QFETCH(int, maxlen);
    const Net n = makeNet(norm_first, Activation(activation), layers, nhead, maxlen);
    const Transformer net(n.config, n.params);
    const std::vector<int> source = sourceIds(6, 7u * layers + nhead);  // S = 8
    std::vector<int> inputs = {kSosId};
    for (int id : randomIds(6, 13, 3u * layers + nhead)) inputs.push_back(id);  // T = 7

    const TransformerEncoding enc = net.encode(source);
    const RefTransformerEncoding ref_enc = referenceTransformerEncode(n.config, n.exact, source);
    for (Eigen::Index i = 0; i < enc.memory.size(); ++i)
        QVERIFY2(close(enc.memory.data()[i], ref_enc.memory.data()[i], 2e-5), "memory");
    for (int l = 0; l < layers; ++l)
        for (int h = 0; h < nhead; ++h)
            for (Eigen::Index i = 0; i < enc.self_attention[l][h].size(); ++i)
                QVERIFY2(close(enc.self_attention[l][h].data()[i], ref_enc.self_attention[l][h].data()[i], 2e-5),
                         "encoder self-attention");

    const RefTransformerDecoding ref = referenceTransformerDecode(n.config, n.exact, ref_enc.memory, inputs);
    TransformerDecoderState state;
    TransformerStep step;
    for (int t = 0; t < int(inputs.size()); ++t) {
        net.step(enc, state, inputs[t], step);
        QCOMPARE(state.length, t + 1);
        compareStep(step, ref, t, nhead);
        if (QTest::currentTestFailed()) return;
    }
}

void TestTransformer::greedyEqualsPrefixRecomputation_data() {
    QTest::addColumn<bool>("norm_first");
    QTest::addColumn<int>("activation");
    QTest::addColumn<int>("layers");
    QTest::addColumn<int>("nhead");
    QTest::addRow("post_ln/relu/L3/h2") << false << int(Activation::Relu) << 3 << 2;
    QTest::addRow("pre_ln/gelu/L2/h4") << true << int(Activation::Gelu) << 2 << 4;
    QTest::addRow("post_ln/gelu/L1/h1") << false << int(Activation::Gelu) << 1 << 1;
}

// Greedy: the reference recomputes the whole prefix at every step; the tokens and every step's numbers agree.
void TestTransformer::greedyEqualsPrefixRecomputation() {
    QFETCH(bool, norm_first);
    QFETCH(int, activation);
    QFETCH(int, layers);
    QFETCH(int, nhead);
    const Net n = makeNet(norm_first, Activation(activation), layers, nhead);
    const Transformer net(n.config, n.params);
    const std::vector<int> source = sourceIds(5, 11u + layers);
    std::vector<TransformerStep> steps;
    const std::vector<int> tokens = engineGreedy(net, source, 9, steps);
    const RefTransformerGreedy ref = referenceTransformerGreedy(n.config, n.exact, source, 9);
    QCOMPARE(tokens, ref.tokens);
    for (size_t t = 0; t < steps.size(); ++t) compareStep(steps[t], ref.steps[t], int(t), nhead);
}

// Truncating the cache (back) or copying it (a beam's branches) and stepping on gives the bits of a fresh run.
void TestTransformer::goingBackAndBranchingGiveFreshResults() {
    const Net n = makeNet(true, Activation::Gelu, 2, 2);
    const Transformer net(n.config, n.params);
    const TransformerEncoding enc = net.encode(sourceIds(4, 5));
    const std::vector<int> first = {kSosId, 5, 6, 7, 8}, second = {kSosId, 5, 9};
    TransformerDecoderState state;
    TransformerStep step;
    for (int id : first) net.step(enc, state, id, step);
    TransformerDecoderState branch = state;
    state.truncate(2);
    QCOMPARE(state.length, 2);
    net.step(enc, state, second[2], step);

    TransformerDecoderState fresh;
    TransformerStep fresh_step;
    for (int id : second) net.step(enc, fresh, id, fresh_step);
    QVERIFY(step.log_probs == fresh_step.log_probs);
    QVERIFY(step.self_attention[1] == fresh_step.self_attention[1]);

    net.step(enc, branch, 10, step);  // the branch kept positions 0..4
    TransformerDecoderState fresh_long;
    for (int id : {kSosId, 5, 6, 7, 8, 10}) net.step(enc, fresh_long, id, fresh_step);
    QVERIFY(step.log_probs == fresh_step.log_probs);
    QCOMPARE(step.self_attention[0].cols(), Eigen::Index(6));
}

void TestTransformer::storedPositionTableEnforcesMaxlen() {
    const Net n = makeNet(false, Activation::Relu, 1, 2, /*maxlen=*/5);
    const Transformer net(n.config, n.params);
    QCOMPARE(net.maxLength(), 5);
    const QString too_long = errorOf([&] { net.encode(sourceIds(4, 1)); });  // S = 6
    QVERIFY2(too_long.contains("maxlen 5") && too_long.contains("source"), qPrintable(too_long));
    const TransformerEncoding enc = net.encode(sourceIds(3, 1));  // S = 5 fits
    TransformerDecoderState state;
    TransformerStep step;
    for (int id : {kSosId, 4, 5, 6, 7}) net.step(enc, state, id, step);
    const QString too_far = errorOf([&] { net.step(enc, state, 8, step); });
    QVERIFY2(too_far.contains("maxlen 5") && too_far.contains("target"), qPrintable(too_far));
    QCOMPARE(state.length, 5);  // the failed step changed nothing
    // Without a stored table, positions are computed for any length.
    const Net computed = makeNet(false, Activation::Relu, 1, 2);
    QCOMPARE(Transformer(computed.config, computed.params).encode(sourceIds(40, 2)).length(), 42);
}

// PE[p, 2k] = sin(p / 10000^(2k/d)), PE[p, 2k+1] = cos(...), d = 4: the divisors are 1 and 100.
void TestTransformer::positionalEncodingKnownValues() {
    const TMat<double> pe = sinusoidalPositions<double>(3, 4);
    const double expected[3][4] = {{0, 1, 0, 1},
                                   {0.8414709848078965, 0.5403023058681398, 0.009999833334166664, 0.9999500004166653},
                                   {0.9092974268256817, -0.4161468365471424, 0.01999866669333308, 0.9998000066665778}};
    for (int p = 0; p < 3; ++p)
        for (int i = 0; i < 4; ++i) QVERIFY2(std::abs(pe(p, i) - expected[p][i]) < 1e-15, "PE value");
    const Mat row2 = sinusoidalPositions<float>(1, 4, 2);
    for (int i = 0; i < 4; ++i) QCOMPARE(row2(0, i), float(expected[2][i]));
}

// E[id] · √d + PE[position]: d = 4, E[5] = (1, 0, 0, −0.5) at position 1 gives (2 + sin 1, cos 1, sin .01, cos .01 − 1).
void TestTransformer::embeddingScaledPlusPosition() {
    Net n = makeNet(false, Activation::Relu, 1, 2, 0, 4);
    n.params.tgt_embedding.row(5) << 1, 0, 0, -0.5f;
    const Transformer net(n.config, n.params);
    const Mat x = net.embed({4, 5}, false, 0);
    const float expected[4] = {2 + 0.8414709848f, 0.5403023059f, 0.0099998333f, 0.9999500004f - 1};
    for (int i = 0; i < 4; ++i) QVERIFY2(std::abs(x(1, i) - expected[i]) < 1e-6, qPrintable(QString::number(x(1, i))));
}

// mean 2.5, biased variance 1.25: (x − 2.5) / √1.25001, then · weight + bias.
void TestTransformer::layerNormKnownVector() {
    LayerNormParamsT<float> p{Vec::Ones(4), Vec::Zero(4)};
    Mat x(1, 4);
    x << 1, 2, 3, 4;
    const double z[4] = {-1.3416354199689269, -0.447211806656309, 0.447211806656309, 1.3416354199689269};
    Mat y = layerNorm(x, p);
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(y(0, i) - z[i]) < 1e-6);
    p.weight << 2, 1, 1, 0.5f;
    p.bias << 1, 0, -1, 0;
    y = layerNorm(x, p);
    const double expected[4] = {2 * z[0] + 1, z[1], z[2] - 1, 0.5 * z[3]};
    for (int i = 0; i < 4; ++i) QVERIFY(std::abs(y(0, i) - expected[i]) < 1e-6);
}

// gelu(±1) = ±Φ(±1) = 0.8413447, −0.1586553 (erf form, not the tanh approximation's 0.8411920).
void TestTransformer::activationsKnownValues() {
    Mat x(1, 3);
    x << 1, -1, 2;
    Mat g = x;
    activateInPlace(g, Activation::Gelu);
    QVERIFY(std::abs(g(0, 0) - 0.8413447460685429) < 1e-6);
    QVERIFY(std::abs(g(0, 1) + 0.15865525393145707) < 1e-6);
    Mat r = x;
    activateInPlace(r, Activation::Relu);
    QCOMPARE(r(0, 0), 1.0f);
    QCOMPARE(r(0, 1), 0.0f);
    QCOMPARE(r(0, 2), 2.0f);
}

namespace {
// in_proj = [I; I; I] (d = 2), zero biases, out_proj = I.
MultiHeadAttentionParamsT<float> identityAttention() {
    MultiHeadAttentionParamsT<float> p;
    p.in_proj_weight.resize(6, 2);
    p.in_proj_weight << 1, 0, 0, 1, 1, 0, 0, 1, 1, 0, 0, 1;
    p.in_proj_bias = Vec::Zero(6);
    p.out_proj_weight = Mat::Identity(2, 2);
    p.out_proj_bias = Vec::Zero(2);
    return p;
}
}  // namespace

// One head, d = 2: query (1, 0), keys = values = (1, 0), (0, 1). Scores (1/√2, 0), so
// a = (1 / (1 + e^(−1/√2)), …) = (0.66976155, 0.33023845) and the output is a itself.
void TestTransformer::attentionOneHeadByHand() {
    Mat q(1, 2), kv(2, 2);
    q << 1, 0;
    kv << 1, 0, 0, 1;
    Mat weights;
    const Mat out = multiHeadAttention(q, kv, identityAttention(), 1, &weights);
    const double a0 = 0.6697615493266569;
    QVERIFY(std::abs(weights(0, 0) - a0) < 1e-6 && std::abs(weights(0, 1) - (1 - a0)) < 1e-6);
    QVERIFY(std::abs(out(0, 0) - a0) < 1e-6 && std::abs(out(0, 1) - (1 - a0)) < 1e-6);
}

// Two heads, d_h = 1, b_v = (1, 0) (the bias slice 2d..3d−1), out_proj swaps and adds (0.25, 0).
// Head 0 (column 0): scores (1, 0) → a = (e/(e+1), 1/(e+1)) = (0.7310586, 0.2689414); v column 0 = (2, 1) → 1.7310586.
// Head 1 (column 1): q = 0, scores (0, 0) → a = (0.5, 0.5); v column 1 = (0, 1) → 0.5.
// Concatenated (1.7310586, 0.5), swapped (0.5, 1.7310586), plus bias: (0.75, 1.7310586).
void TestTransformer::attentionTwoHeadsSliceInProj() {
    MultiHeadAttentionParamsT<float> p = identityAttention();
    p.in_proj_bias << 0, 0, 0, 0, 1, 0;
    p.out_proj_weight << 0, 1, 1, 0;
    p.out_proj_bias << 0.25f, 0;
    Mat q(1, 2), kv(2, 2);
    q << 1, 0;
    kv << 1, 0, 0, 1;
    Mat weights;
    const Mat out = multiHeadAttention(q, kv, p, 2, &weights);
    QCOMPARE(weights.rows(), Eigen::Index(2));
    const double s = 0.7310585786300049;
    QVERIFY(std::abs(weights(0, 0) - s) < 1e-6 && std::abs(weights(1, 0) - 0.5) < 1e-6);
    QVERIFY(std::abs(out(0, 0) - 0.75) < 1e-6);
    QVERIFY(std::abs(out(0, 1) - (2 * s + (1 - s))) < 1e-6);
}

void TestTransformer::attentionRowsSumToOneAndCausalZeros() {
    const Net n = makeNet(false, Activation::Relu, 2, 4);
    const Transformer net(n.config, n.params);
    std::vector<TransformerStep> steps;
    const std::vector<int> source = sourceIds(6, 9);
    const TransformerEncoding enc = net.encode(source);
    TransformerDecoderState state;
    for (int id : {kSosId, 4, 5, 6, 7, 8}) {
        steps.emplace_back();
        net.step(enc, state, id, steps.back());
    }
    const int T = int(steps.size()), S = int(source.size());
    for (int l = 0; l < 2; ++l) {
        const Mat average = crossAttentionMatrix(steps, l, -1);
        Mat sum = Mat::Zero(T, S);
        for (int h = 0; h < 4; ++h) {
            const Mat self = decoderSelfAttentionMatrix(steps, l, h);  // (T, T)
            const Mat cross = crossAttentionMatrix(steps, l, h);       // (T, S)
            sum += cross;
            QCOMPARE(self.rows(), Eigen::Index(T));
            for (int i = 0; i < T; ++i) {
                QVERIFY(std::abs(self.row(i).sum() - 1) < 1e-6);
                QVERIFY(std::abs(cross.row(i).sum() - 1) < 1e-6);
                QVERIFY(std::abs(enc.self_attention[l][h].row(i % S).sum() - 1) < 1e-6);
                for (int j = i + 1; j < T; ++j) QCOMPARE(self(i, j), 0.0f);
                for (int j = 0; j <= i; ++j) QVERIFY(self(i, j) > 0);
            }
        }
        QVERIFY((average - sum / 4).cwiseAbs().maxCoeff() < 1e-6);
    }
}

void TestTransformer::paramsShapeErrorsNameTheTensor() {
    Net n = makeNet(false, Activation::Relu, 2, 2);
    n.params.decoder_layers[1].ff.linear2_bias.resize(3);
    QString e = errorOf([&] { Transformer(n.config, n.params); });
    QVERIFY2(e.contains("transformer.decoder.layers.1.linear2.bias") && e.contains("8"), qPrintable(e));
    n = makeNet(false, Activation::Relu, 2, 2);
    n.params.generator_weight.resize(12, 8);  // 13 target words
    e = errorOf([&] { Transformer(n.config, n.params); });
    QVERIFY2(e.contains("generator.weight") && e.contains("13 x 8"), qPrintable(e));
    n = makeNet(false, Activation::Relu, 2, 2);
    n.params.encoder_layers.pop_back();
    e = errorOf([&] { Transformer(n.config, n.params); });
    QVERIFY2(e.contains("1 encoder"), qPrintable(e));
}

void TestTransformer::badIdsAreInputErrors() {
    const Net n = makeNet(false, Activation::Relu, 1, 1);
    const Transformer net(n.config, n.params);
    QVERIFY_THROWS_EXCEPTION(InputError, net.encode({kSosId, 11, kEosId}));
    QVERIFY_THROWS_EXCEPTION(InputError, net.encode({}));
    const TransformerEncoding enc = net.encode({kSosId, 4, kEosId});
    TransformerDecoderState state;
    TransformerStep step;
    QVERIFY(errorOf([&] { net.step(enc, state, 13, step); }).contains("token id 13"));
    QVERIFY(errorOf([&] { net.step(enc, state, -1, step); }).contains("outside the vocabulary"));
    QCOMPARE(state.length, 0);
}

ATTNVIZ_TEST_MAIN(TestTransformer)
#include "test_transformer.moc"
