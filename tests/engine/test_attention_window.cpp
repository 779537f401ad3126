// nn/attention_window.h and nn/softmax.h: the span and softmax maths shared by decoding and training, against values
// worked out by hand, and a diverged local_p model (NaN weights) decoding a step without indexing with NaN.
#include "nn/attention.h"
#include "nn/attention_window.h"
#include "nn/encoder.h"
#include "nn/softmax.h"
#include "test_models.h"
#include "test_registry.h"

#include <QTest>

#include <cmath>
#include <limits>

using namespace attnviz;

class TestAttentionWindow : public QObject {
    Q_OBJECT
private slots:
    void monotonicWindowClampsToTheSource();
    void predictiveWindowCentresOnSSigmoid();
    void predictiveWindowOfNaNIsTheWholeSource();
    void gaussianFactorIsOneAtTheCentre();
    void softmaxAndLogSoftmaxAreShiftInvariant();
    void divergedLocalPModelStepsWithoutCrashing();
};

void TestAttentionWindow::monotonicWindowClampsToTheSource() {
    // local_m: p = min(t, S − 1), [p − D, p + D] ∩ [0, S − 1]
    const auto first = monotonicWindow<float>(1, 8, 2);
    QCOMPARE(first.center, 1.0f);
    QCOMPARE(first.lo, 0);
    QCOMPARE(first.hi, 3);
    const auto past_end = monotonicWindow<double>(20, 8, 2);  // a target longer than the source: p stays at S − 1
    QCOMPARE(past_end.center, 7.0);
    QCOMPARE(past_end.lo, 5);
    QCOMPARE(past_end.hi, 7);
}

void TestAttentionWindow::predictiveWindowCentresOnSSigmoid() {
    const auto mid = predictiveWindow<double>(0.0, 10, 2);  // sigmoid(0) = 1/2: p = 5
    QCOMPARE(mid.sig, 0.5);
    QCOMPARE(mid.center, 5.0);
    QCOMPARE(mid.lo, 3);
    QCOMPARE(mid.hi, 7);
    const auto half = predictiveWindow<double>(0.0, 9, 1);  // p = 4.5: [⌈3.5⌉, ⌊5.5⌋] = [4, 5]
    QCOMPARE(half.center, 4.5);
    QCOMPARE(half.lo, 4);
    QCOMPARE(half.hi, 5);
    const auto left = predictiveWindow<float>(-50.0f, 10, 2);  // p ≈ 0: the window is cut at the first position
    QCOMPARE(left.lo, 0);
    QCOMPARE(left.hi, 2);
}

void TestAttentionWindow::predictiveWindowOfNaNIsTheWholeSource() {
    const auto w = predictiveWindow<float>(std::numeric_limits<float>::quiet_NaN(), 6, 2);
    QVERIFY(std::isnan(w.center));
    QCOMPARE(w.lo, 0);
    QCOMPARE(w.hi, 5);
}

void TestAttentionWindow::gaussianFactorIsOneAtTheCentre() {
    QCOMPARE(gaussianFactor(4, 4.0, 2), 1.0);
    // σ = D/2 = 1: one σ away the factor is exp(−1/2), two σ away exp(−2)
    QVERIFY(std::abs(gaussianFactor(5, 4.0, 2) - std::exp(-0.5)) < 1e-15);
    QVERIFY(std::abs(gaussianFactor(2, 4.0, 2) - std::exp(-2.0)) < 1e-15);
}

void TestAttentionWindow::softmaxAndLogSoftmaxAreShiftInvariant() {
    Eigen::VectorXd e(3), w(3);
    e << 1.0, 2.0, 3.0;
    softmaxInto(e, w);
    const double z = std::exp(1.0) + std::exp(2.0) + std::exp(3.0);
    for (int j = 0; j < 3; ++j) QVERIFY(std::abs(w[j] - std::exp(e[j]) / z) < 1e-15);
    // Logits far beyond exp's range give the same distribution (the max is subtracted first).
    Eigen::VectorXf big(2);
    big << 1000.0f, 1000.0f;
    QVERIFY(std::abs(logSumExp(big) - (1000.0f + std::log(2.0f))) < 1e-3f);
    logSoftmaxInPlace(big);
    QVERIFY(std::abs(big[0] - std::log(0.5f)) < 1e-4f);  // float spacing near 1000 is 6e-5
    QVERIFY(std::abs(big[1] - std::log(0.5f)) < 1e-4f);  // float spacing near 1000 is 6e-5
}

void TestAttentionWindow::divergedLocalPModelStepsWithoutCrashing() {
    ModelConfig c = testing::smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::LocalP);
    c.window = 1;
    Model m = testing::smallModel(c, 7);
    m.params.attn_vp.setConstant(std::numeric_limits<float>::quiet_NaN());
    EncoderState enc;
    encode(m, {kSos, 4, 5, 6, 7, kEos}, enc, nullptr);
    Attention attention(m, nullptr);
    AttentionStep step;
    attention.prepare(enc.S, step);
    attention.compute(enc, enc.s0.data(), 1, step);
    QVERIFY(std::isnan(step.center));  // reported, not turned into an index
    QCOMPARE(step.lo, 0);
    QCOMPARE(step.hi, enc.S - 1);
    QCOMPARE(step.weights.size(), Eigen::Index(enc.S));
}

ATTNVIZ_TEST_MAIN(TestAttentionWindow)
#include "test_attention_window.moc"
