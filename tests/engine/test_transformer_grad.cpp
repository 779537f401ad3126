// The Transformer's backward passes (nn/transformer_grad.h, nn/transformer_loss.h): central finite differences on
// the double instantiation for each block (LayerNorm, the feed-forward block with relu and gelu, multi-head
// attention causal and not, with and without dropout) and for the whole model's loss in every variant (post-LN and
// pre-LN, relu and gelu, 1 + 1 and 2 + 2 layers, with dropout); the full forward's log-probabilities against the
// engine's incremental decoder (nn/transformer) and the independent double reference; gelu's derivative by hand.
#include "base/errors.h"
#include "finite_differences.h"
#include "nn/label_smoothing.h"
#include "nn/transformer.h"
#include "nn/transformer_loss.h"
#include "reference_transformer.h"
#include "test_registry.h"

#include <QtTest>
#include <cmath>
#include <functional>
#include <limits>
#include <random>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

using DM = TMat<double>;
using DV = TVec<double>;

// Compares analytic[i] with the central difference of f at x[i], for `count` indices of x (the first, the last and
// random ones). Returns a description of the first mismatch, empty when all agree to tol (relative above 1).
std::string checkValues(const std::string& name, double* x, const double* analytic, Eigen::Index size, int count,
                        std::mt19937_64& rng, const std::function<double()>& f, double tol = 1e-6) {
    for (int k = 0; k < count && size > 0; ++k) {
        const Eigen::Index i = k == 0 ? 0 : k == 1 ? size - 1 : Eigen::Index(rng() % uint64_t(size));
        const double saved = x[i];
        x[i] = saved + kStep;
        const double fp = f();
        x[i] = saved - kStep;
        const double fm = f();
        x[i] = saved;
        const double numeric = (fp - fm) / (2 * kStep);
        if (!(std::abs(numeric - analytic[i]) <= tol * std::max(1.0, std::abs(numeric))))
            return name + "[" + std::to_string(i) + "]: analytic " + std::to_string(analytic[i]) + ", numeric " +
                   std::to_string(numeric);
    }
    return {};
}

#define CHECK_GRAD(name, x, g, f)                                                                     \
    do {                                                                                              \
        const std::string failure = checkValues(name, (x).data(), (g).data(), (x).size(), 8, rng, f); \
        QVERIFY2(failure.empty(), failure.c_str());                                                   \
    } while (0)

// A scalar loss of a block's output: Σ R ∘ y with fixed random R, so that every output matters differently.
double weighted(const DM& y, const DM& r) { return (y.array() * r.array()).sum(); }

MultiHeadAttentionParamsT<double> randomAttention(int d, std::mt19937_64& rng) {
    MultiHeadAttentionParamsT<double> p;
    p.in_proj_weight.resize(3 * d, d);
    p.in_proj_bias.resize(3 * d);
    p.out_proj_weight.resize(d, d);
    p.out_proj_bias.resize(d);
    randomFill(p.in_proj_weight, rng, 0.6);
    randomFill(p.in_proj_bias, rng, 0.3);
    randomFill(p.out_proj_weight, rng, 0.6);
    randomFill(p.out_proj_bias, rng, 0.3);
    return p;
}

MultiHeadAttentionParamsT<double> zerosLikeAttention(const MultiHeadAttentionParamsT<double>& p) {
    return {DM::Zero(p.in_proj_weight.rows(), p.in_proj_weight.cols()), DV::Zero(p.in_proj_bias.size()),
            DM::Zero(p.out_proj_weight.rows(), p.out_proj_weight.cols()), DV::Zero(p.out_proj_bias.size())};
}

struct GradNet {
    TransformerConfig config;
    TransformerShape shape;
    TransformerParamsT<double> params;
};

// uneven: the encoder 4 heads and F 12, the decoder 2 heads and F 20 (else 2 heads and F 12 on both sides).
GradNet makeGradNet(bool norm_first, Activation act, int layers, uint64_t seed, int maxlen = 0, bool uneven = false) {
    GradNet n;
    n.config = {8, 2, layers, layers, 12, norm_first, act};
    if (uneven) {
        n.config.encoder_nhead = 4;
        n.config.decoder_dim_feedforward = 20;
    }
    n.shape = {n.config, 9, 10, maxlen};
    initTransformerParams(n.params, n.shape, {seed, true});
    return n;
}

TrainExample example(std::vector<int> source, std::vector<int> target, int line = 1) {
    TrainExample e;
    e.source = std::move(source);
    e.target = std::move(target);
    e.line = line;
    return e;
}

// The loss of the whole model with dropout drawn from a fresh generator of `seed` each time (the same masks).
double modelLoss(const GradNet& n, const TrainExample& ex, double dropout, uint64_t seed,
                 TransformerParamsT<double>* g) {
    DropoutSource drop{dropout, {std::mt19937_64(seed)}};
    TransformerLossCache<double> cache;
    return transformerLossAndGrad<double>(n.config, n.params, ex, &drop, 1.0, g, cache).sum;
}

// Every trained tensor of n.params against g by central differences of f (3 values each; the stored positional
// table is a buffer, not trained). Returns the first mismatch or empty; counts the tensors checked.
std::string checkEveryTensor(GradNet& n, TransformerParamsT<double>& g, const std::function<double()>& f,
                             std::mt19937_64& rng, int* checked) {
    std::vector<const double*> grads;  // the params and the gradient walked side by side: the same list and order
    forEachTransformerTensor(
        g, n.shape, [&](const std::string&, const std::vector<int64_t>&, auto& t) { grads.push_back(t.data()); });
    size_t i = 0;
    std::string failure;
    forEachTransformerTensor(n.params, n.shape, [&](const std::string& name, const std::vector<int64_t>&, auto& t) {
        const double* analytic = grads[i++];
        if (name == "positional_encoding.pos_embedding" || !failure.empty()) return;
        failure = checkValues(name, t.data(), analytic, t.size(), 3, rng, f);
        ++*checked;
    });
    return failure;
}

// The loss of a packed batch, example b's masks drawn from a fresh generator of seed + b.
double batchLoss(const GradNet& n, const std::vector<TrainExample>& batch, double dropout, uint64_t seed,
                 TransformerParamsT<double>* g, double align_weight = 0) {
    std::vector<const TrainExample*> examples;
    DropoutSource drop{dropout, {}};
    for (size_t b = 0; b < batch.size(); ++b) {
        examples.push_back(&batch[b]);
        drop.rngs.emplace_back(seed + b);
    }
    TransformerLossCache<double> cache;
    const LossSum s = transformerLossAndGrad<double>(n.config, n.params, examples.data(), int(examples.size()), &drop,
                                                     1.0, g, cache, align_weight);
    return s.sum + align_weight * s.align_sum;
}

// The largest |a − b| over every tensor of two gradients, relative to the larger of 1 and |a|.
double largestDifference(const TransformerShape& shape, TransformerParamsT<double>& a, TransformerParamsT<double>& b) {
    std::vector<const double*> values;
    forEachTransformerTensor(
        a, shape, [&](const std::string&, const std::vector<int64_t>&, auto& t) { values.push_back(t.data()); });
    size_t i = 0;
    double worst = 0;
    forEachTransformerTensor(b, shape, [&](const std::string&, const std::vector<int64_t>&, auto& t) {
        const double* va = values[i++];
        for (Eigen::Index j = 0; j < t.size(); ++j)
            worst = std::max(worst, std::abs(va[j] - t.data()[j]) / std::max(1.0, std::abs(va[j])));
    });
    return worst;
}

}  // namespace

class TestTransformerGrad : public QObject {
    Q_OBJECT

private slots:
    void geluDerivativeByHand() {
        // gelu'(x) = Φ(x) + x φ(x): 0.5 at 0; Φ(1) + φ(1) = 0.8413447461 + 0.2419707245 at 1; relu's step
        QVERIFY(std::abs(activationDerivative(0.0, Activation::Gelu) - 0.5) < 1e-12);
        QVERIFY(std::abs(activationDerivative(1.0, Activation::Gelu) - 1.0833154706) < 1e-9);
        QVERIFY(std::abs(activationDerivative(-1.0, Activation::Gelu) - (0.1586552539 - 0.2419707245)) < 1e-9);
        QCOMPARE(activationDerivative(0.3, Activation::Relu), 1.0);
        QCOMPARE(activationDerivative(-0.3, Activation::Relu), 0.0);
    }

    void dropoutMaskRate() {
        // 40,000 values at p = 0.25: the share of zeros within 4 standard deviations (0.0087) of p, every kept value
        // exactly 1/(1 − p); two examples' rows come from their own generators, so example 1's rows equal a mask
        // drawn for it alone.
        DropoutSource drop{0.25, {std::mt19937_64(1), std::mt19937_64(2)}};
        RowSegments rows;
        rows.append(150);
        rows.append(50);
        const DM mask = dropoutMask<double>(&drop, rows, 200);
        const double zeros = double((mask.array() == 0).count()) / double(mask.size());
        QVERIFY2(std::abs(zeros - 0.25) < 0.0087, std::to_string(zeros).c_str());
        QVERIFY(((mask.array() == 0) || (mask.array() == 1.0 / 0.75)).all());
        DropoutSource alone{0.25, {std::mt19937_64(2)}};
        QVERIFY(dropoutMask<double>(&alone, RowSegments::single(50), 200) == mask.bottomRows(50));
        QCOMPARE(dropoutMask<double>(nullptr, rows, 200).size(), Eigen::Index(0));
    }

    void layerNormGradient() {
        std::mt19937_64 rng(1);
        DM x(3, 6), r(3, 6);
        randomFill(x, rng, 2.0);
        randomFill(r, rng, 1.0);
        LayerNormParamsT<double> p{DV::Random(6), DV::Random(6)}, g{DV::Zero(6), DV::Zero(6)};
        LayerNormCache<double> cache;
        auto f = [&] { return weighted(layerNormForward<double>(x, p, cache), r); };
        f();
        const DM dx = layerNormBackward<double>(r, p, cache, &g);
        CHECK_GRAD("x", x, dx, f);
        CHECK_GRAD("weight", p.weight, g.weight, f);
        CHECK_GRAD("bias", p.bias, g.bias, f);
    }

    void feedForwardGradient_data() {
        QTest::addColumn<int>("activation");
        QTest::addColumn<double>("dropout");
        QTest::newRow("relu") << int(Activation::Relu) << 0.0;
        QTest::newRow("gelu") << int(Activation::Gelu) << 0.0;
        QTest::newRow("gelu, dropout 0.3") << int(Activation::Gelu) << 0.3;
        QTest::newRow("swish") << int(Activation::Swish) << 0.0;
        QTest::newRow("gelu_new") << int(Activation::GeluTanh) << 0.0;
    }
    void feedForwardGradient() {
        QFETCH(int, activation);
        QFETCH(double, dropout);
        const Activation act = Activation(activation);
        std::mt19937_64 rng(2);
        DM x(4, 6), r(4, 6);
        randomFill(x, rng, 1.5);
        randomFill(r, rng, 1.0);
        FeedForwardParamsT<double> p{DM(10, 6), DV(10), DM(6, 10), DV(6)};
        randomFill(p.linear1_weight, rng, 0.8);
        randomFill(p.linear1_bias, rng, 0.5);
        randomFill(p.linear2_weight, rng, 0.8);
        randomFill(p.linear2_bias, rng, 0.5);
        FeedForwardParamsT<double> g{DM::Zero(10, 6), DV::Zero(10), DM::Zero(6, 10), DV::Zero(6)};
        FeedForwardCache<double> cache;
        auto f = [&] {
            DropoutSource drop{dropout, {std::mt19937_64(7)}};
            return weighted(feedForwardForward<double>(x, p, act, &drop, RowSegments::single(4), cache), r);
        };
        f();
        if (dropout > 0) QVERIFY((cache.mask.array() == 0).any() && (cache.mask.array() > 0).any());
        const DM dx = feedForwardBackward<double>(r, p, act, cache, &g);
        CHECK_GRAD("x", x, dx, f);
        CHECK_GRAD("linear1.weight", p.linear1_weight, g.linear1_weight, f);
        CHECK_GRAD("linear1.bias", p.linear1_bias, g.linear1_bias, f);
        CHECK_GRAD("linear2.weight", p.linear2_weight, g.linear2_weight, f);
        CHECK_GRAD("linear2.bias", p.linear2_bias, g.linear2_bias, f);
    }

    void attentionGradient_data() {
        QTest::addColumn<bool>("causal");
        QTest::addColumn<int>("nhead");
        QTest::addColumn<double>("dropout");
        QTest::newRow("cross, 2 heads") << false << 2 << 0.0;
        QTest::newRow("causal, 2 heads") << true << 2 << 0.0;
        QTest::newRow("causal, 4 heads, dropout") << true << 4 << 0.25;
        QTest::newRow("cross, 1 head, dropout") << false << 1 << 0.25;
    }
    void attentionGradient() {
        QFETCH(bool, causal);
        QFETCH(int, nhead);
        QFETCH(double, dropout);
        std::mt19937_64 rng(3);
        const int d = 8, n = 4, m = causal ? 4 : 5;
        DM q_in(n, d), kv_in(m, d), r(n, d);
        randomFill(q_in, rng, 1.0);
        randomFill(kv_in, rng, 1.0);
        randomFill(r, rng, 1.0);
        MultiHeadAttentionParamsT<double> p = randomAttention(d, rng), g = zerosLikeAttention(p);
        AttentionCache<double> cache;
        auto f = [&] {
            DropoutSource drop{dropout, {std::mt19937_64(11)}};
            const RowSegments q_rows = RowSegments::single(n), kv_rows = RowSegments::single(m);
            return weighted(attentionForward<double>(q_in, kv_in, p, nhead, causal, &drop, q_rows, kv_rows, cache), r);
        };
        f();
        if (causal)  // query 0 sees key 0 only: exact zeros above the diagonal, rows summing to 1
            for (const DM& a : cache.a) {
                QCOMPARE(a(0, 1), 0.0);
                QCOMPARE(a(1, 3), 0.0);
                QVERIFY(std::abs(a(0, 0) - 1.0) < 1e-15);
            }
        DM dq, dkv;
        attentionBackward<double>(r, p, nhead, cache, &g, dq, dkv);
        CHECK_GRAD("q_in", q_in, dq, f);
        CHECK_GRAD("kv_in", kv_in, dkv, f);
        CHECK_GRAD("in_proj_weight", p.in_proj_weight, g.in_proj_weight, f);
        CHECK_GRAD("in_proj_bias", p.in_proj_bias, g.in_proj_bias, f);
        CHECK_GRAD("out_proj.weight", p.out_proj_weight, g.out_proj_weight, f);
        CHECK_GRAD("out_proj.bias", p.out_proj_bias, g.out_proj_bias, f);
    }

    void causalSelfAttentionGradient() {
        // A self-attention passes one input as queries, keys and values: the input's gradient is dq + dkv.
        std::mt19937_64 rng(4);
        const int d = 8, n = 5;
        DM x(n, d), r(n, d);
        randomFill(x, rng, 1.0);
        randomFill(r, rng, 1.0);
        MultiHeadAttentionParamsT<double> p = randomAttention(d, rng), g = zerosLikeAttention(p);
        AttentionCache<double> cache;
        const RowSegments rows = RowSegments::single(n);
        auto f = [&] { return weighted(attentionForward<double>(x, x, p, 2, true, nullptr, rows, rows, cache), r); };
        f();
        DM dq, dkv;
        attentionBackward<double>(r, p, 2, cache, &g, dq, dkv);
        const DM dx = dq + dkv;
        CHECK_GRAD("x", x, dx, f);
    }

    void wholeModelGradient_data() {
        QTest::addColumn<bool>("norm_first");
        QTest::addColumn<int>("activation");
        QTest::addColumn<int>("layers");
        QTest::addColumn<double>("dropout");
        QTest::addColumn<int>("maxlen");
        QTest::addColumn<bool>("uneven");
        QTest::newRow("post-LN relu 1+1") << false << int(Activation::Relu) << 1 << 0.0 << 0 << false;
        QTest::newRow("post-LN gelu 2+2") << false << int(Activation::Gelu) << 2 << 0.0 << 0 << false;
        QTest::newRow("pre-LN relu 2+2") << true << int(Activation::Relu) << 2 << 0.0 << 0 << false;
        QTest::newRow("pre-LN gelu 1+1, stored table") << true << int(Activation::Gelu) << 1 << 0.0 << 9 << false;
        QTest::newRow("post-LN gelu 1+1, dropout") << false << int(Activation::Gelu) << 1 << 0.2 << 0 << false;
        QTest::newRow("pre-LN relu 2+2, dropout") << true << int(Activation::Relu) << 2 << 0.2 << 0 << false;
        QTest::newRow("post-LN relu 2+2, 4 + 2 heads, F 12 + 20")
            << false << int(Activation::Relu) << 2 << 0.0 << 0 << true;
        QTest::newRow("pre-LN gelu 1+1, 4 + 2 heads, F 12 + 20, dropout")
            << true << int(Activation::Gelu) << 1 << 0.2 << 0 << true;
    }
    void wholeModelGradient() {
        QFETCH(bool, norm_first);
        QFETCH(int, activation);
        QFETCH(int, layers);
        QFETCH(double, dropout);
        QFETCH(int, maxlen);
        QFETCH(bool, uneven);
        GradNet n = makeGradNet(norm_first, Activation(activation), layers, 20 + uint64_t(layers), maxlen, uneven);
        const TrainExample ex = example({2, 5, 6, 4, 8, 3}, {2, 7, 4, 9, 5, 3});
        TransformerParamsT<double> g;
        resizeTransformerParams(g, n.shape);
        const double loss = modelLoss(n, ex, dropout, 5, &g);
        QVERIFY(std::isfinite(loss) && loss > 0);
        std::mt19937_64 rng(6);
        auto f = [&] { return modelLoss(n, ex, dropout, 5, nullptr); };
        int checked = 0;
        const std::string failure = checkEveryTensor(n, g, f, rng, &checked);
        QVERIFY2(failure.empty(), failure.c_str());
        QCOMPARE(checked, 2 + 12 * layers + 2 + 18 * layers + 2 + 2);
    }

    void swishAndGeluNewByHand() {
        // swish'(x) = σ(x)(1 + x(1 − σ(x))): 0.5 at 0; σ(1) = 0.7310585786 at 1
        QVERIFY(std::abs(activationDerivative(0.0, Activation::Swish) - 0.5) < 1e-12);
        QVERIFY(std::abs(activationDerivative(1.0, Activation::Swish) - 0.7310585786 * (1 + 0.2689414214)) < 1e-9);
        QVERIFY(std::abs(activate(1.0, Activation::Swish) - 0.7310585786) < 1e-9);
        // gelu_new(1) = ½(1 + tanh(√(2/π)·1.044715)) = 0.8411919906
        QVERIFY(std::abs(activate(1.0, Activation::GeluTanh) - 0.8411919906) < 1e-9);
        QVERIFY(std::abs(activationDerivative(0.0, Activation::GeluTanh) - 0.5) < 1e-12);
    }

    void marianConfiguredModelGradient() {
        // docs/marian.md's configuration: no final norms, halves positions, no embedding scale, one table shared by
        // both sides and tied to the output, swish, forbidden outputs; every stored tensor by central differences.
        GradNet n;
        n.config = {8, 2, 2, 2, 12, false, Activation::Swish};
        n.config.final_norms = false;
        n.config.scale_embedding = false;
        n.config.positions = PositionLayout::Halves;
        n.config.shared_embeddings = n.config.tied_output = true;
        n.config.forbidden_outputs = {1, 9};
        n.shape = {n.config, 10, 10, 0};
        initTransformerParams(n.params, n.shape, {31, true});
        const TrainExample ex = example({5, 6, 4, 8, 0}, {9, 7, 4, 2, 5, 0});  // decoder start 9, eos 0
        TransformerParamsT<double> g;
        resizeTransformerParams(g, n.shape);
        const double loss = modelLoss(n, ex, 0.0, 5, &g);
        QVERIFY(std::isfinite(loss) && loss > 0);
        std::mt19937_64 rng(8);
        auto f = [&] { return modelLoss(n, ex, 0.0, 5, nullptr); };
        int checked = 0;
        const std::string failure = checkEveryTensor(n, g, f, rng, &checked);
        QVERIFY2(failure.empty(), failure.c_str());
        QCOMPARE(checked, 1 + 12 * 2 + 18 * 2 + 1);  // one table, the layers, the logits bias
        // a forbidden output's logits bias has no gradient: its probability is exactly 0
        QCOMPARE(g.generator_bias[9], 0.0);
        QCOMPARE(g.generator_bias[1], 0.0);
    }

    void labelSmoothingByHand() {
        // p = (½, ¼, ¼, 0), output 3 forbidden: the uniform part is (log 2 + 2 log 4) / 3, and with ε 0.3 the target
        // is (0.7 + 0.1, 0.1, 0.1, 0), so p − q = (−0.3, 0.15, 0.15, 0)
        const std::vector<int> forbidden = {3};
        Eigen::RowVector4d log_p(std::log(0.5), std::log(0.25), std::log(0.25),
                                 -std::numeric_limits<double>::infinity());
        QVERIFY(std::abs(uniformCrossEntropy(log_p, forbidden) - (std::log(2.0) + 2 * std::log(4.0)) / 3) < 1e-15);
        Eigen::RowVector4d grad(0.5, 0.25, 0.25, 0.0);
        subtractSmoothedTarget(grad, 0, 0.3, 1.0, forbidden);
        QVERIFY((grad - Eigen::RowVector4d(-0.3, 0.15, 0.15, 0.0)).cwiseAbs().maxCoeff() < 1e-15);
        QCOMPARE(grad(3), 0.0);  // exactly: a forbidden output gets no gradient
        // ε 0 is the plain cross-entropy's p − one-hot
        Eigen::RowVector4d plain(0.5, 0.25, 0.25, 0.0);
        subtractSmoothedTarget(plain, 2, 0.0, 2.0, forbidden);
        QCOMPARE(plain, Eigen::RowVector4d(0.5, 0.25, -1.75, 0.0));
    }

    void labelSmoothingGradient_data() {
        QTest::addColumn<bool>("marian");
        QTest::newRow("post-LN, every output producible") << false;
        QTest::newRow("Marian configuration, forbidden outputs") << true;
    }
    void labelSmoothingGradient() {
        // (1 − ε)·Σ −log p + ε·Σ mean −log p over the producible outputs, ε 0.3, with dropout: every tensor by
        // central differences
        QFETCH(bool, marian);
        GradNet n = makeGradNet(false, Activation::Swish, 2, 90);
        if (marian) {
            n.config.final_norms = false;
            n.config.shared_embeddings = n.config.tied_output = true;
            n.config.forbidden_outputs = {1, 9};
            n.shape = {n.config, 10, 10, 0};
            initTransformerParams(n.params, n.shape, {91, true});
        }
        const std::vector<TrainExample> batch = {example({5, 6, 4, 8, 3}, {2, 7, 4, 5, 3}),
                                                 example({2, 8, 3}, {2, 6, 3})};
        auto loss = [&](TransformerParamsT<double>* g, double epsilon, LossSum* sums) {
            std::vector<const TrainExample*> examples = {&batch[0], &batch[1]};
            DropoutSource drop{0.2, {std::mt19937_64(5), std::mt19937_64(6)}};
            TransformerLossCache<double> cache;
            const LossSum s = transformerLossAndGrad<double>(n.config, n.params, examples.data(), 2, &drop, 1.0, g,
                                                             cache, 0.0, epsilon);
            if (sums) *sums = s;
            return (1 - epsilon) * s.sum + epsilon * s.smooth_sum;
        };
        TransformerParamsT<double> g, plain;
        resizeTransformerParams(g, n.shape);
        resizeTransformerParams(plain, n.shape);
        LossSum smoothed, unsmoothed;
        loss(&g, 0.3, &smoothed);
        loss(&plain, 0.0, &unsmoothed);
        QCOMPARE(smoothed.sum, unsmoothed.sum);  // .sum stays the pure NLL
        QCOMPARE(unsmoothed.smooth_sum, 0.0);
        QVERIFY(std::isfinite(smoothed.smooth_sum) && smoothed.smooth_sum > 0);
        std::mt19937_64 rng(10);
        int checked = 0;
        const std::string failure = checkEveryTensor(
            n, g, [&] { return loss(nullptr, 0.3, nullptr); }, rng, &checked);
        QVERIFY2(failure.empty(), failure.c_str());
        QVERIFY(largestDifference(n.shape, g, plain) > 1e-3);
        if (marian) {
            QCOMPARE(g.generator_bias[9], 0.0);
            QCOMPARE(g.generator_bias[1], 0.0);
        }
    }

    void packedBatchEqualsExamplesApart_data() {
        QTest::addColumn<bool>("norm_first");
        QTest::addColumn<double>("dropout");
        QTest::newRow("post-LN") << false << 0.0;
        QTest::newRow("pre-LN, dropout") << true << 0.3;
    }
    void packedBatchEqualsExamplesApart() {
        // Packing examples of different lengths into one matrix changes nothing an example sees: its positions start
        // at 0, it attends to its own rows only and its dropout masks come from its own generator. So the batch's
        // loss and gradient are the sums of the examples' own, to double round-off.
        QFETCH(bool, norm_first);
        QFETCH(double, dropout);
        const GradNet n = makeGradNet(norm_first, Activation::Gelu, 2, 50);
        const std::vector<TrainExample> batch = {example({2, 5, 3}, {2, 7, 4, 3}),
                                                 example({2, 5, 6, 4, 8, 7, 3}, {2, 7, 4, 9, 5, 6, 3}),
                                                 example({2, 8, 4, 3}, {2, 9, 3})};
        TransformerParamsT<double> packed, apart;
        resizeTransformerParams(packed, n.shape);
        resizeTransformerParams(apart, n.shape);
        const double packed_loss = batchLoss(n, batch, dropout, 70, &packed);
        double apart_loss = 0;
        for (size_t b = 0; b < batch.size(); ++b) apart_loss += modelLoss(n, batch[b], dropout, 70 + b, &apart);
        QVERIFY(std::abs(packed_loss - apart_loss) < 1e-12 * apart_loss);
        QVERIFY(apart.decoder_layers[0].multihead_attn.in_proj_weight.norm() > 0);
        const double worst = largestDifference(n.shape, packed, apart);
        QVERIFY2(worst < 1e-12, std::to_string(worst).c_str());
        // and a different order of the same examples gives the same sums
        const std::vector<TrainExample> reordered = {batch[2], batch[0], batch[1]};
        TransformerParamsT<double> again;
        resizeTransformerParams(again, n.shape);
        if (dropout == 0) {
            QVERIFY(std::abs(batchLoss(n, reordered, 0.0, 0, &again) - apart_loss) < 1e-12 * apart_loss);
            QVERIFY(largestDifference(n.shape, again, apart) < 1e-12);
        }
    }

    void guidedAlignmentGradient_data() {
        QTest::addColumn<bool>("norm_first");
        QTest::addColumn<int>("layers");
        QTest::addColumn<double>("dropout");
        QTest::addColumn<bool>("uneven");
        QTest::newRow("post-LN 1+1") << false << 1 << 0.0 << false;
        QTest::newRow("pre-LN 2+2, dropout") << true << 2 << 0.2 << false;
        QTest::newRow("post-LN 2+2, 4 + 2 heads, F 12 + 20") << false << 2 << 0.0 << true;
    }
    void guidedAlignmentGradient() {
        // The objective Σ −log p + λ Σ_k CE(G_k, Ā_k), Ā the last layer's cross-attention averaged over heads: every
        // tensor by central differences, on a packed batch where one example has links (one of them on a row with
        // two gold positions) and one has none.
        QFETCH(bool, norm_first);
        QFETCH(int, layers);
        QFETCH(double, dropout);
        QFETCH(bool, uneven);
        GradNet n = makeGradNet(norm_first, Activation::Relu, layers, 60 + uint64_t(layers), 0, uneven);
        std::vector<TrainExample> batch = {example({2, 5, 6, 4, 3}, {2, 7, 4, 9, 3}), example({2, 8, 3}, {2, 9, 5, 3})};
        setAlignment(batch[0], {{2, 0}, {1, 1}, {0, 2}, {1, 2}});
        TransformerParamsT<double> g;
        resizeTransformerParams(g, n.shape);
        const double guided = batchLoss(n, batch, dropout, 80, &g, 0.7);
        TransformerParamsT<double> unguided_g;
        resizeTransformerParams(unguided_g, n.shape);
        QVERIFY(guided > batchLoss(n, batch, dropout, 80, &unguided_g) + 0.1);  // the term is there...
        std::mt19937_64 rng(9);
        auto f = [&] { return batchLoss(n, batch, dropout, 80, nullptr, 0.7); };
        int checked = 0;
        const std::string failure = checkEveryTensor(n, g, f, rng, &checked);
        QVERIFY2(failure.empty(), failure.c_str());
        QCOMPARE(checked, 2 + 12 * layers + 2 + 18 * layers + 2 + 2);
        QVERIFY(largestDifference(n.shape, g, unguided_g) > 1e-3);  // ...and moves the gradient
    }

    void guidedAlignmentLinkOutsideThePair() {
        const GradNet n = makeGradNet(false, Activation::Relu, 1, 61);
        TrainExample ex = example({2, 5, 3}, {2, 7, 4, 3}, 12);
        ex.align = {{1, 0}, {3, 1}};  // source position 3 is past <eos> (positions 0 .. 2)
        TransformerLossCache<double> cache;
        try {
            transformerLossAndGrad<double>(n.config, n.params, ex, nullptr, 1.0, nullptr, cache, 0.5);
            QFAIL("no error");
        } catch (const InputError& e) {
            QCOMPARE(std::string(e.what()),
                     std::string("training example (line 12): alignment link (3, 1) is outside the sentence pair"));
        }
    }

    void forwardMatchesIncrementalDecoding_data() {
        QTest::addColumn<bool>("norm_first");
        QTest::addColumn<int>("activation");
        QTest::addColumn<bool>("uneven");
        QTest::addColumn<bool>("two_tables");
        QTest::newRow("post-LN relu") << false << int(Activation::Relu) << false << false;
        QTest::newRow("pre-LN gelu") << true << int(Activation::Gelu) << false << false;
        QTest::newRow("post-LN relu, 4 + 2 heads, F 12 + 20") << false << int(Activation::Relu) << true << false;
        QTest::newRow("post-LN relu, the decoder's own stored positions")
            << false << int(Activation::Relu) << false << true;
    }
    void forwardMatchesIncrementalDecoding() {
        // The training forward over the whole prefix (float) against the engine's cached steps (float) and the
        // independent double reference: the same log-probabilities to float round-off.
        QFETCH(bool, norm_first);
        QFETCH(int, activation);
        QFETCH(bool, uneven);
        QFETCH(bool, two_tables);
        GradNet n = makeGradNet(norm_first, Activation(activation), 2, 31, two_tables ? 9 : 0, uneven);
        if (two_tables) {  // the decoder reads a table of its own: the encoder's rows upside down
            n.params.decoder_pos_embedding = n.params.pos_embedding.colwise().reverse();
            n.shape.decoder_maxlen = 9;
        }
        const TransformerParams fp = castTransformerParams<float>(n.params, n.shape);
        const TrainExample ex = example({2, 5, 6, 4, 8, 7, 3}, {2, 7, 4, 9, 5, 3});
        TransformerLossCache<float> cache;
        const LossSum s = transformerLossAndGrad<float>(n.config, fp, ex, nullptr, 1.0f, nullptr, cache);
        QCOMPARE(s.tokens, int64_t(5));

        const Transformer engine(n.config, fp);
        const TransformerEncoding enc = engine.encode(ex.source);
        TransformerDecoderState state;
        TransformerStep step;
        const std::vector<int> inputs(ex.target.begin(), ex.target.end() - 1);
        const RefTransformerEncoding ref_enc = referenceTransformerEncode(n.config, n.params, ex.source);
        const RefTransformerDecoding ref = referenceTransformerDecode(n.config, n.params, ref_enc.memory, inputs);
        double engine_sum = 0;
        for (size_t t = 0; t < inputs.size(); ++t) {
            engine.step(enc, state, inputs[t], step);
            engine_sum -= step.log_probs[ex.target[t + 1]];
            for (Eigen::Index v = 0; v < step.log_probs.size(); ++v) {
                QVERIFY(std::abs(cache.log_probs(Eigen::Index(t), v) - step.log_probs[v]) < 2e-5);
                QVERIFY(std::abs(cache.log_probs(Eigen::Index(t), v) - ref.log_probs(Eigen::Index(t), v)) < 2e-5);
            }
        }
        QVERIFY(std::abs(s.sum - engine_sum) < 1e-4);
    }

    void gradientScaleAndAccumulation() {
        // g gets grad_scale × the gradient ADDED: two calls of scale 0.25 give half of one call of scale 1.
        const GradNet n = makeGradNet(false, Activation::Relu, 1, 40);
        const TrainExample ex = example({2, 5, 3}, {2, 7, 4, 3});
        TransformerParamsT<double> once, twice;
        resizeTransformerParams(once, n.shape);
        resizeTransformerParams(twice, n.shape);
        TransformerLossCache<double> cache;
        transformerLossAndGrad<double>(n.config, n.params, ex, nullptr, 1.0, &once, cache);
        transformerLossAndGrad<double>(n.config, n.params, ex, nullptr, 0.25, &twice, cache);
        transformerLossAndGrad<double>(n.config, n.params, ex, nullptr, 0.25, &twice, cache);
        QVERIFY(once.generator_weight.norm() > 0);
        QVERIFY((once.generator_weight * 0.5 - twice.generator_weight).norm() < 1e-12);
        QVERIFY((once.src_embedding * 0.5 - twice.src_embedding).norm() < 1e-12);
    }

    void badExamples() {
        const GradNet n = makeGradNet(false, Activation::Relu, 1, 41, 5);
        TransformerLossCache<double> cache;
        auto message = [&](const TrainExample& ex) {
            try {
                transformerLossAndGrad<double>(n.config, n.params, ex, nullptr, 1.0, nullptr, cache);
            } catch (const InputError& e) {
                return std::string(e.what());
            }
            return std::string("no error");
        };
        QCOMPARE(message(example({2, 5, 3}, {2, 10, 3}, 7)),
                 std::string("line 7: target token id 10 is outside the vocabulary (10 entries)"));
        QCOMPARE(message(example({2, 9, 3}, {2, 4, 3}, 8)),
                 std::string("line 8: source token id 9 is outside the vocabulary (9 entries)"));
        QCOMPARE(message(example({2, 4, 4, 4, 4, 3}, {2, 4, 3}, 9)),
                 std::string("line 9: source has 6 positions with <sos> and <eos>, more than the model's positional "
                             "table (maxlen 5)"));
        QCOMPARE(message(example({2, 3}, {2}, 10)),
                 std::string("line 10: a training example needs <sos> and <eos> on both sides"));
    }
};

ATTNVIZ_TEST_MAIN(TestTransformerGrad)
#include "test_transformer_grad.moc"
