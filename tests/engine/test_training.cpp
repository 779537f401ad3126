// Training maths: padded batches equal their examples, 1 vs 2 threads, the loss equals the inference engine's forced
// decoding and the double reference, Adam / SGD / clipping against hand-worked numbers, guided alignment off is
// bit-identical, the learning-rate warmup inside the trainer, vocabulary order. Real training runs: test_training_runs.cpp; `attnviz-cli train`:
// tests/cli/test_cli_train.cpp.
#include "base/errors.h"
#include "decode/decoding.h"
#include "decode_variants.h"
#include "model/params_ops.h"
#include "reference_model.h"
#include "test_models.h"
#include "test_registry.h"
#include "train/trainer.h"
#include "training_fixtures.h"

#include <QTest>

#include <algorithm>
#include <cmath>
#include <random>

using namespace attnviz;
using attnviz::testing::configFor;
using attnviz::testing::maxAbsDiff;
using attnviz::testing::pointers;

namespace {

std::vector<TrainExample> randomExamples(int n, int Vs, int Vt, int max_src, int max_tgt, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<TrainExample> out;
    for (int b = 0; b < n; ++b) {
        TrainExample e;
        e.line = b + 1;
        const int ls = 2 + int(rng() % uint64_t(max_src - 1)), lt = 2 + int(rng() % uint64_t(max_tgt - 1));
        e.source.push_back(kSos);
        for (int i = 0; i < ls - 2; ++i) e.source.push_back(4 + int(rng() % uint64_t(Vs - 4)));
        e.source.push_back(kEos);
        e.target.push_back(kSos);
        for (int i = 0; i < lt - 2; ++i) e.target.push_back(4 + int(rng() % uint64_t(Vt - 4)));
        e.target.push_back(kEos);
        out.push_back(std::move(e));
    }
    return out;
}

}  // namespace

class TestTraining : public QObject {
    Q_OBJECT
private slots:
    void batchEqualsExamples_data();
    void batchEqualsExamples();
    void threadsOneVsTwo_data();
    void threadsOneVsTwo();
    void lossMatchesInference_data();
    void lossMatchesInference();
    void adamMatchesHandComputed();
    void sgdAndClipping_data();
    void sgdAndClipping();
    void guidedAlignmentOffIsBitIdentical_data();
    void guidedAlignmentOffIsBitIdentical();
    void warmupInTheTrainer();
    void vocabularyOrder();
};

void TestTraining::batchEqualsExamples_data() {
    QTest::addColumn<QString>("variant");
    QTest::newRow("bahdanau additive") << QString("bahdanau/additive/global");
    QTest::newRow("bahdanau dot") << QString("bahdanau/dot/global");
    QTest::newRow("luong general local_m") << QString("luong/general/local_m");
    QTest::newRow("luong scaled_dot local_p feed") << QString("luong/scaled_dot/local_p/feed");
    QTest::newRow("luong additive local_p") << QString("luong/additive/local_p");
}

// A padded batch gives what its examples give one by one: loss = Σ loss_i / Σ tokens_i and the gradient is the
// token-weighted sum of the per-example gradients (the sum-of-losses gradients add up exactly).
void TestTraining::batchEqualsExamples() {
    QFETCH(QString, variant);
    const ModelConfig c = configFor(variant);
    const Model m = testing::smallModel(c, 7, 1.0f);
    const auto ex = randomExamples(6, m.source_vocab.size(), m.target_vocab.size(), 9, 8, 3);
    const auto ptrs = pointers(ex);
    // double: exact to round-off
    const ModelParamsD pd = toDouble(m.params);
    ModelParamsD gb, gsum, gi;
    zerosLike(gb, pd);
    zerosLike(gsum, pd);
    zerosLike(gi, pd);
    Seq2SeqWorkspace<double> ws;
    const LossSum lb = seq2seqLossAndGrad<double>(c, pd, ptrs.data(), 6, {}, 1.0, &gb, ws);
    double sum = 0;
    int64_t tokens = 0;
    for (int i = 0; i < 6; ++i) {
        setZero(gi);
        const LossSum li = seq2seqLossAndGrad<double>(c, pd, ptrs.data() + i, 1, {}, 1.0, &gi, ws);
        QCOMPARE(li.tokens, int64_t(ex[size_t(i)].target.size()) - 1);
        sum += li.sum;
        tokens += li.tokens;
        addInto(gsum, gi);
    }
    QCOMPARE(lb.tokens, tokens);
    QVERIFY(std::abs(lb.sum - sum) <= 1e-10 * std::abs(sum));
    visitTensorPairs(gb, gsum, [&](const auto& a, const auto& b) {
        if (a.size() == 0) return;
        QVERIFY((a - b).cwiseAbs().maxCoeff() <= 1e-10 * std::max(1.0, b.cwiseAbs().maxCoeff()));
    });
    // float, through the trainer's BatchGradient (mean loss): the same within float tolerance
    BatchGradient bg(c, m.params, 1);
    ModelParams gf;
    zerosLike(gf, m.params);
    const LossSum lf = bg.compute(m.params, ptrs, 0.0f, 0, gf);
    QVERIFY(std::abs(lf.sum - sum) <= 1e-5 * std::abs(sum));
    ModelParams expect = toFloat(gsum);
    visitTensors(expect, [&](const char*, auto& t) { t /= float(tokens); });
    double scale = 0;
    const double d = maxAbsDiff(gf, expect, &scale);
    QVERIFY2(d <= 1e-5 * std::max(1.0, scale), qPrintable(QString::number(d)));
}

void TestTraining::threadsOneVsTwo_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<double>("dropout");
    QTest::newRow("bahdanau additive") << QString("bahdanau/additive/global") << 0.0;
    QTest::newRow("bahdanau general, dropout 0.2") << QString("bahdanau/general/global") << 0.2;
    QTest::newRow("luong dot local_p feed, dropout 0.3") << QString("luong/dot/local_p/feed") << 0.3;
}

void TestTraining::threadsOneVsTwo() {
    QFETCH(QString, variant);
    QFETCH(double, dropout);
    const ModelConfig c = configFor(variant);
    const Model m = testing::smallModel(c, 9, 1.0f);
    const auto ex = randomExamples(9, m.source_vocab.size(), m.target_vocab.size(), 9, 8, 4);
    BatchGradient one(c, m.params, 1), two(c, m.params, 2);
    ModelParams g1, g2;
    zerosLike(g1, m.params);
    zerosLike(g2, m.params);
    const LossSum l1 = one.compute(m.params, pointers(ex), float(dropout), 42, g1);
    const LossSum l2 = two.compute(m.params, pointers(ex), float(dropout), 42, g2);
    QCOMPARE(l1.tokens, l2.tokens);
    QVERIFY(std::abs(l1.sum - l2.sum) <= 1e-5 * std::abs(l1.sum));
    double scale = 0;
    const double d = maxAbsDiff(g1, g2, &scale);
    QVERIFY2(d <= 1e-5 * std::max(1.0, scale), qPrintable(QString::number(d)));
    if (dropout > 0) {  // dropout really is on: the loss differs from the loss without it
        ModelParams g0;
        zerosLike(g0, m.params);
        const LossSum l0 = one.compute(m.params, pointers(ex), 0.0f, 42, g0);
        QVERIFY(std::abs(l0.sum - l1.sum) > 1e-3);
    }
}

void TestTraining::lossMatchesInference_data() {
    QTest::addColumn<QString>("variant");
    for (const char* v : {"bahdanau/additive/global", "bahdanau/dot/global", "bahdanau/scaled_dot/global",
                          "bahdanau/general/global", "luong/additive/global", "luong/dot/local_m",
                          "luong/general/local_p", "luong/scaled_dot/local_p/feed", "luong/additive/local_m/feed"})
        QTest::newRow(v) << QString(v);
}

// The teacher-forced loss of one example equals −Σ log_probs / count of forcedDecode (the inference engine) and
// of the independent double reference.
void TestTraining::lossMatchesInference() {
    QFETCH(QString, variant);
    const ModelConfig c = configFor(variant);
    const Model m = testing::smallModel(c, 11, 1.5f);
    const std::string src = "i love the cat on the mat yesterday .", tgt = "我 爱 猫 在 垫子 上 。";
    const TrainExample ex = makeExample(m, src, tgt, 1);
    const TrainExample* p = &ex;
    Seq2SeqWorkspace<float> ws;
    const LossSum l = seq2seqLossAndGrad<float>(c, m.params, &p, 1, {}, 0.0f, nullptr, ws);
    QCOMPARE(l.tokens, int64_t(ex.target.size()) - 1);
    const double mine = l.sum / double(l.tokens);
    const DecodeResult forced = forcedDecode(m, src, tgt);
    QCOMPARE(forced.log_probs.size(), size_t(l.tokens));
    double lp = 0;
    for (float x : forced.log_probs) lp += x;
    const double engine = -lp / double(forced.log_probs.size());
    QVERIFY2(std::abs(mine - engine) <= 1e-5 * std::max(1.0, engine),
             qPrintable(QString("train %1 vs forcedDecode %2").arg(mine, 0, 'g', 10).arg(engine, 0, 'g', 10)));
    const std::vector<int> target_no_sos(ex.target.begin() + 1, ex.target.end());
    const double ref = testing::referenceLoss(m, ex.source, target_no_sos);
    QVERIFY2(std::abs(mine - ref) <= 1e-5 * std::max(1.0, ref),
             qPrintable(QString("train %1 vs reference %2").arg(mine, 0, 'g', 10).arg(ref, 0, 'g', 10)));
}

// Two parameters θ = [1, −2], lr 0.1, β1 0.9, β2 0.999, ε 1e-8, gradients g1 = [0.5, −1], g2 = [0.1, 0.3],
// g3 = [−0.2, 0.05]:
//   t=1: m = [0.05, −0.1], v = [0.00025, 0.001]; m̂ = g, v̂ = g² → θ −= 0.1·sign(g) → θ = [0.9, −1.9]
//   t=2: m = 0.9m + 0.1g = [0.055, −0.06], v = 0.999v + 0.001g² = [0.00025975, 0.001089];
//        m̂ = m/0.19 = [0.289474, −0.315789], v̂ = v/0.001999 = [0.129940, 0.544772]
//        θ −= 0.1·m̂/(√v̂ + ε) = [0.080304, −0.042785] → θ = [0.819695906, −1.857215142]
//   t=3: m = [0.0295, −0.049], v = [0.00029949025, 0.001090411] → θ = [0.785260532, −1.827239043]
void TestTraining::adamMatchesHandComputed() {
    ModelParams p, g;
    p.fc_out_b.resize(2);
    p.fc_out_b << 1.0f, -2.0f;
    g.fc_out_b.resize(2);
    Optimizer opt(OptimizerKind::Adam, 0.1, p);
    const float grads[3][2] = {{0.5f, -1.0f}, {0.1f, 0.3f}, {-0.2f, 0.05f}};
    const double expect[3][2] = {{0.900000002, -1.900000001}, {0.819695906, -1.857215142}, {0.785260532, -1.827239043}};
    for (int t = 0; t < 3; ++t) {
        g.fc_out_b << grads[t][0], grads[t][1];
        opt.step(p, g);
        QCOMPARE(opt.steps(), int64_t(t + 1));
        for (int i = 0; i < 2; ++i)
            QVERIFY2(std::abs(p.fc_out_b[i] - expect[t][i]) < 2e-6,
                     qPrintable(QString("step %1 param %2: %3").arg(t + 1).arg(i).arg(p.fc_out_b[i], 0, 'g', 10)));
    }
}

void TestTraining::sgdAndClipping_data() {
    QTest::addColumn<double>("clip");
    QTest::addColumn<double>("expectG0");
    QTest::addColumn<double>("expectG1");
    // g = [3, 4], ‖g‖ = 5: clip 1 → scale 1/(5 + 1e-6); clip 10 → 2/(5+1e-6)>1: unchanged; 0 → off
    QTest::newRow("clip 1 scales to norm 1") << 1.0 << 3.0 / (5.0 + 1e-6) << 4.0 / (5.0 + 1e-6);
    QTest::newRow("clip 10 leaves it") << 10.0 << 3.0 << 4.0;
    QTest::newRow("clip 5 (scale just under 1) scales") << 5.0 << 3.0 * 5.0 / (5.0 + 1e-6) << 4.0 * 5.0 / (5.0 + 1e-6);
    QTest::newRow("clip 0 is off") << 0.0 << 3.0 << 4.0;
}

void TestTraining::sgdAndClipping() {
    QFETCH(double, clip);
    QFETCH(double, expectG0);
    QFETCH(double, expectG1);
    ModelParams p, g;
    p.fc_out_b.resize(2);
    p.fc_out_b << 1.0f, -2.0f;
    g.fc_out_b.resize(2);
    g.fc_out_b << 3.0f, 4.0f;
    const double norm = clipGradNorm(g, clip);
    QVERIFY(std::abs(norm - 5.0) < 1e-6);
    QVERIFY(std::abs(g.fc_out_b[0] - expectG0) < 1e-6);
    QVERIFY(std::abs(g.fc_out_b[1] - expectG1) < 1e-6);
    Optimizer sgd(OptimizerKind::Sgd, 0.5, p);
    sgd.step(p, g);  // θ ← θ − 0.5 g
    QVERIFY(std::abs(p.fc_out_b[0] - (1.0 - 0.5 * expectG0)) < 1e-6);
    QVERIFY(std::abs(p.fc_out_b[1] - (-2.0 - 0.5 * expectG1)) < 1e-6);
}

static bool bitIdentical(const ModelParams& a, const ModelParams& b) {
    bool same = true;
    visitTensorPairs(const_cast<ModelParams&>(a), const_cast<ModelParams&>(b), [&](const auto& x, const auto& y) {
        same = same && x.size() == y.size() && (x.size() == 0 || (x.array() == y.array()).all());
    });
    return same;
}

void TestTraining::guidedAlignmentOffIsBitIdentical_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<bool>("guidable");  // global span: λ > 0 changes the gradient
    QTest::newRow("bahdanau additive global") << QString("bahdanau/additive/global") << true;
    QTest::newRow("luong general global feed") << QString("luong/general/global/feed") << true;
    QTest::newRow("luong dot local_m: λ ignored") << QString("luong/dot/local_m") << false;
    QTest::newRow("luong additive local_p: λ ignored") << QString("luong/additive/local_p") << false;
}

// λ = 0, or examples without alignments, leave the gradient bit-identical to a run without alignments; λ > 0 with
// alignments changes the gradient (global spans) but not the reported NLL, and stays thread-count independent.
void TestTraining::guidedAlignmentOffIsBitIdentical() {
    QFETCH(QString, variant);
    QFETCH(bool, guidable);
    const ModelConfig c = configFor(variant);
    const Model m = testing::smallModel(c, 13, 1.0f);
    const auto plain = randomExamples(9, m.source_vocab.size(), m.target_vocab.size(), 9, 8, 5);
    auto aligned = plain;
    std::mt19937_64 rng(6);
    for (TrainExample& e : aligned) {
        std::vector<std::pair<int, int>> links;
        const int ws = int(e.source.size()) - 2, wt = int(e.target.size()) - 2;
        for (int j = 0; j < wt && ws > 0; ++j)
            if (rng() % 4) links.emplace_back(int(rng() % uint64_t(ws)), j);
        setAlignment(e, links);
    }
    BatchGradient one(c, m.params, 1), two(c, m.params, 2);
    ModelParams g_plain, g, g2;
    zerosLike(g_plain, m.params);
    zerosLike(g, m.params);
    zerosLike(g2, m.params);
    const LossSum l_plain = two.compute(m.params, pointers(plain), 0.0f, 7, g_plain);
    QCOMPARE(l_plain.align_sum, 0.0);
    const LossSum l0 = two.compute(m.params, pointers(aligned), 0.0f, 7, g, 0.0f);
    QVERIFY(bitIdentical(g, g_plain));
    QCOMPARE(l0.sum, l_plain.sum);
    QCOMPARE(l0.align_sum, 0.0);
    const LossSum lnone = two.compute(m.params, pointers(plain), 0.0f, 7, g, 1.0f);  // λ > 0, no links
    QVERIFY(bitIdentical(g, g_plain));
    QCOMPARE(lnone.sum, l_plain.sum);
    const LossSum l1 = two.compute(m.params, pointers(aligned), 0.0f, 7, g, 1.0f);
    QCOMPARE(l1.sum, l_plain.sum);  // the reported NLL is the pure NLL
    if (!guidable) {
        QVERIFY(bitIdentical(g, g_plain));
        QCOMPARE(l1.align_sum, 0.0);
        return;
    }
    QVERIFY(l1.align_sum > 0.5);
    double scale = 0;
    QVERIFY2(maxAbsDiff(g, g_plain, &scale) > 1e-4 * scale, "λ = 1 did not change the gradient");
    const LossSum l1b = one.compute(m.params, pointers(aligned), 0.0f, 7, g2, 1.0f);
    QVERIFY(std::abs(l1b.align_sum - l1.align_sum) <= 1e-5 * l1.align_sum);
    const double d = maxAbsDiff(g2, g, &scale);
    QVERIFY2(d <= 1e-5 * std::max(1.0, scale), qPrintable(QString::number(d)));
}

void TestTraining::warmupInTheTrainer() {
    // --warmup for an RNN model: sgd lr 0.3, warmup 3, two updates on one batch: θ2 = θ1 − 0.2 g(θ1),
    // θ1 = θ0 − 0.1 g(θ0) (the Transformer's: test_transformer_training.cpp).
    Model m = testing::reverseModel(11);
    std::vector<TrainExample> ex;
    for (const auto& [s, t] : testing::reversePairs(6, 12)) ex.push_back(makeExample(m, s, t, int(ex.size()) + 1));
    Model by_hand = m;
    BatchGradient bg(m.config, m.params, 1);
    ModelParams g;
    zerosLike(g, m.params);
    for (float lr : {0.1f, 0.2f}) {
        bg.compute(by_hand.params, pointers(ex), 0.0f, 0, g);
        visitTensorPairs(by_hand.params, g, [&](auto& p, const auto& d) { p -= lr * d; });
    }
    TrainOptions o;
    o.optimizer = OptimizerKind::Sgd;
    o.lr = 0.3;
    o.warmup = 3;
    o.steps = 2;
    o.batch_size = 6;
    o.shuffle = false;
    o.threads = 1;
    Model without = m;
    trainModel(m, ex, {}, o);
    double scale = 0;
    QVERIFY(maxAbsDiff(m.params, by_hand.params, &scale) <= 1e-7 * scale);
    o.warmup = 0;
    trainModel(without, ex, {}, o);
    QVERIFY(maxAbsDiff(without.params, by_hand.params) > 1e-4);
}

void TestTraining::vocabularyOrder() {
    // counts: b 3, a 2, é 2, c 1, <eos> typed in the data (not added twice); ties in code-point order: a < é
    const Vocabulary v = buildVocabulary({{"b", "é", "a"}, {"b", "a", "é", "<eos>"}, {"b", "c"}}, 1);
    const std::vector<std::string> expect = {"<pad>", "<unk>", "<sos>", "<eos>", "b", "a", "é", "c"};
    QCOMPARE(v.tokens(), expect);
    const Vocabulary v2 = buildVocabulary({{"b", "é", "a"}, {"b", "a", "é"}, {"b", "c"}}, 2);
    QCOMPARE(v2.size(), 7);  // c is dropped
}

ATTNVIZ_TEST_MAIN(TestTraining)
#include "test_training.moc"
