// Beam search: width 1 is greedy, wider beams score at least as well, the tree is consistent, an exhaustive
// beam finds the true best sequence (brute force over the reference model). bahdanau runs with the context folded
// (fast/folded_decoder.h: each hypothesis steps from its own state with the sentence's shared products) and without.
#include "base/errors.h"
#include "decode/candidates.h"
#include "decode/decoding.h"
#include "decode/on_path.h"
#include "decode_variants.h"
#include "nn/decoder.h"
#include "reference_model.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>
#include <cmath>
#include <map>

using namespace attnviz;
using namespace attnviz::testing;

namespace {}  // namespace

class TestBeam : public QObject {
    Q_OBJECT

private slots:
    void widthOneIsGreedy_data();
    void widthOneIsGreedy();
    void wideBeamTreeIsConsistent_data();
    void wideBeamTreeIsConsistent();
    void exhaustiveBeamFindsTheBest_data();
    void exhaustiveBeamFindsTheBest();
    void lengthPenaltyRanksTheFinishedHypotheses();
    void rejectsBadWidth();
};

static void addVariants() {
    QTest::addColumn<int>("decoder");
    QTest::addColumn<int>("score");
    QTest::addColumn<int>("span");
    QTest::addColumn<bool>("input_feeding");
    QTest::addColumn<int>("seed");
    QTest::addColumn<int>("folding");
    int seed = 100;
    for (ScoreKind sc : {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General}) {
        QTest::addRow("bahdanau/%s/global", toString(sc).data())
            << int(DecoderKind::Bahdanau) << int(sc) << int(SpanKind::Global) << false << seed << int(Folding::Never);
        QTest::addRow("bahdanau/%s/global/folded", toString(sc).data())
            << int(DecoderKind::Bahdanau) << int(sc) << int(SpanKind::Global) << false << seed++
            << int(Folding::Always);
    }
    const int luong_folding = int(Folding::Auto);  // (luong has no context to fold)
    QTest::newRow("luong/additive/global/no_if") << int(DecoderKind::Luong) << int(ScoreKind::Additive)
                                                 << int(SpanKind::Global) << false << seed++ << luong_folding;
    QTest::newRow("luong/general/local_m/if") << int(DecoderKind::Luong) << int(ScoreKind::General)
                                              << int(SpanKind::LocalM) << true << seed++ << luong_folding;
    QTest::newRow("luong/dot/local_p/if")
        << int(DecoderKind::Luong) << int(ScoreKind::Dot) << int(SpanKind::LocalP) << true << seed++ << luong_folding;
    QTest::newRow("luong/scaled_dot/local_p/no_if") << int(DecoderKind::Luong) << int(ScoreKind::ScaledDot)
                                                    << int(SpanKind::LocalP) << false << seed++ << luong_folding;
}

static Model fetchModel(float eos_bias = 0.0f) {
    QFETCH(int, decoder);
    QFETCH(int, score);
    QFETCH(int, span);
    QFETCH(bool, input_feeding);
    QFETCH(int, seed);
    Model m = smallModel(smallConfig(DecoderKind(decoder), ScoreKind(score), SpanKind(span), input_feeding),
                         uint64_t(seed), 2.5f);
    m.params.fc_out_b[kEos] += eos_bias;
    return m;
}

// The row's folding, with the model's own tables and the engine's threads.
static detail::StepPath fetchStepPath(const Model& m) {
    QFETCH(int, folding);
    detail::StepPath path = detail::defaultPath(m, DecodeOptions{});
    path.folding = Folding(folding);
    return path;
}

void TestBeam::widthOneIsGreedy_data() { addVariants(); }

void TestBeam::widthOneIsGreedy() {
    const Model m = fetchModel();
    for (int max_len : {0, 3}) {
        DecodeOptions opt;
        opt.max_len = max_len;
        const DecodeResult g = detail::greedyDecode(m, catSentence(), opt, fetchStepPath(m));
        const BeamResult b = detail::beamSearch(m, catSentence(), 1, opt, fetchStepPath(m));
        QCOMPARE(b.best.target_ids, g.target_ids);
        QCOMPARE(b.best.target_tokens, g.target_tokens);
        QCOMPARE(b.best.attention, g.attention);
        QCOMPARE(b.best.log_probs, g.log_probs);
        QCOMPARE(b.best.total_log_prob, g.total_log_prob);
        QCOMPARE(b.best.source_ids, g.source_ids);
        QCOMPARE(b.finished.size(), size_t(1));
        for (size_t i = 0; i < g.scores.size(); ++i)
            for (size_t j = 0; j < g.scores[i].size(); ++j)
                QVERIFY(g.scores[i][j] == b.best.scores[i][j] ||
                        (std::isnan(g.scores[i][j]) && std::isnan(b.best.scores[i][j])));
    }
}

void TestBeam::wideBeamTreeIsConsistent_data() { addVariants(); }

void TestBeam::wideBeamTreeIsConsistent() {
    const Model m = fetchModel(1.5f);  // <eos> likely enough that hypotheses finish at different lengths
    const int K = 4;
    DecodeOptions opt;
    opt.max_len = 8;
    const BeamResult b = detail::beamSearch(m, catSentence(), K, opt, fetchStepPath(m));
    const DecodeResult g = detail::greedyDecode(m, catSentence(), opt, fetchStepPath(m));
    QVERIFY2(b.best.total_log_prob >= g.total_log_prob - 1e-6,
             qPrintable(QString("beam %1 < greedy %2").arg(b.best.total_log_prob).arg(g.total_log_prob)));

    QVERIFY(!b.nodes.empty());
    QCOMPARE(b.nodes[0].parent, -1);
    QCOMPARE(b.nodes[0].token, kSos);
    std::map<int, int> in_beam_per_step;
    for (size_t i = 1; i < b.nodes.size(); ++i) {
        const BeamNode& n = b.nodes[i];
        QVERIFY(n.parent >= 0 && size_t(n.parent) < i);
        const BeamNode& p = b.nodes[size_t(n.parent)];
        QVERIFY(std::count(p.children.begin(), p.children.end(), int(i)) == 1);
        QCOMPARE(n.step, p.step + 1);
        QVERIFY(p.in_beam && !p.finished);  // only live hypotheses are expanded
        QVERIFY(std::abs(n.total_log_prob - (p.total_log_prob + n.log_prob)) < 1e-9);
        QVERIFY(n.token != kPad && n.token != kSos);
        QVERIFY(n.log_prob <= 0);
        QCOMPARE(int(b.attention(int(i)).size()), int(catSentence().ids.size()));
        QCOMPARE(int(p.children.size()) <= K, true);
        if (n.in_beam) ++in_beam_per_step[n.step];
        if (n.finished) QVERIFY(n.in_beam && (n.token == kEos || n.step == opt.max_len));
        if (!n.children.empty()) QVERIFY(n.in_beam && !n.finished);
        // Siblings share the row of the step that produced them.
        QCOMPARE(b.attention(int(i)), b.attention(p.children.front()));
    }
    for (auto [step, count] : in_beam_per_step)
        QVERIFY2(count <= K, qPrintable(QString("step %1 keeps %2").arg(step).arg(count)));
    QVERIFY(!b.finished.empty());
    for (size_t i = 1; i < b.finished.size(); ++i)
        QVERIFY(b.nodes[size_t(b.finished[i - 1])].total_log_prob >= b.nodes[size_t(b.finished[i])].total_log_prob);
    for (int f : b.finished) QVERIFY(b.nodes[size_t(f)].finished);
    // best is the path of finished[0], and its numbers are the model's (reference, teacher-forced on that path).
    const BeamNode& leaf = b.nodes[size_t(b.finished[0])];
    QCOMPARE(int(b.best.target_ids.size()), leaf.step);
    QCOMPARE(b.best.target_ids.back(), leaf.token);
    QVERIFY(std::abs(b.best.total_log_prob - leaf.total_log_prob) < 1e-9);
    const RefDecode ref = referenceForced(m, catSentence().ids, b.best.target_ids);
    for (size_t i = 0; i < b.best.target_ids.size(); ++i) {
        QVERIFY(std::abs(b.best.log_probs[i] - ref.steps[i].log_probs[size_t(b.best.target_ids[i])]) < 1e-5);
        for (size_t j = 0; j < b.best.attention[i].size(); ++j)
            QVERIFY(std::abs(b.best.attention[i][j] - ref.steps[i].attention[j]) < 1e-5);
    }
}

// With K = every producible token and max_len 2, the beam keeps every length-1 hypothesis, and the best
// length-2 hypothesis is certainly among the K best of step 2 (hypotheses of one length rank alike by total and by
// total / L^α): the result must be the true optimum, found here by brute force over the double-precision reference,
// ranking by total log p / L^α with L = tokens + 1 (the decoder start), α = 0 the plain total.
void TestBeam::exhaustiveBeamFindsTheBest_data() {
    QTest::addColumn<double>("alpha");
    QTest::newRow("no length penalty") << 0.0;
    QTest::newRow("length penalty 1 (transformers' default)") << 1.0;
    QTest::newRow("length penalty 2.5") << 2.5;
    QTest::newRow("length penalty -1 (shorter preferred)") << -1.0;
}

void TestBeam::exhaustiveBeamFindsTheBest() {
    QFETCH(double, alpha);
    int differs_from_plain = 0;
    for (uint64_t seed : {1u, 2u, 3u}) {
        Model m = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General, SpanKind::Global, true), seed, 2.5f);
        m.params.fc_out_b[kEos] += 2.0f;
        const int V = m.target_vocab.size();
        DecodeOptions opt;
        opt.max_len = 2;
        opt.length_penalty = alpha;
        const BeamResult b = beamSearch(m, catSentence(), V - 2, opt);
        const auto ranked = [&](double total, int tokens) { return total / std::pow(tokens + 1.0, alpha); };
        double best = -1e300, best_total = 0;
        std::vector<int> best_seq;
        const RefDecode first = referenceForced(m, catSentence().ids, {kEos});
        for (int y1 = 0; y1 < V; ++y1) {
            if (y1 == kPad || y1 == kSos) continue;
            const double lp1 = first.steps[0].log_probs[size_t(y1)];
            if (y1 == kEos) {
                if (ranked(lp1, 1) > best) best = ranked(lp1, 1), best_total = lp1, best_seq = {y1};
                continue;
            }
            const RefDecode two = referenceForced(m, catSentence().ids, {y1, kEos});
            for (int y2 = 0; y2 < V; ++y2) {
                if (y2 == kPad || y2 == kSos) continue;
                const double total = lp1 + two.steps[1].log_probs[size_t(y2)];
                if (ranked(total, 2) > best) best = ranked(total, 2), best_total = total, best_seq = {y1, y2};
            }
        }
        QCOMPARE(b.best.target_ids, best_seq);
        QVERIFY(std::abs(b.best.total_log_prob - best_total) < 1e-5);
        DecodeOptions plain = opt;
        plain.length_penalty = 0;
        differs_from_plain += beamSearch(m, catSentence(), V - 2, plain).best.target_ids != best_seq;
    }
    if (alpha >= 1) QVERIFY2(differs_from_plain > 0, "the length penalty changed no search: the test sees nothing");
}

void TestBeam::rejectsBadWidth() {
    const Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 1);
    QVERIFY_THROWS_EXCEPTION(InputError, beamSearch(m, catSentence(), 0));
    QVERIFY_THROWS_EXCEPTION(InputError, beamSearch(m, TokenizedText{{}, {kSos, 500, kEos}}, 2));
    DecodeOptions nan_penalty;
    nan_penalty.length_penalty = std::nan("");
    QVERIFY_THROWS_EXCEPTION(InputError, beamSearch(m, catSentence(), 2, nan_penalty));
}

// A wide search with a length penalty: the finished list is in order of total / (step + 1)^α, and the best is its
// first; without one, in order of total.
void TestBeam::lengthPenaltyRanksTheFinishedHypotheses() {
    const Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 5, 1.5f);
    for (double alpha : {0.0, 1.0}) {
        DecodeOptions o;
        o.length_penalty = alpha;
        const BeamResult b = beamSearch(m, catSentence(), 6, o);
        QVERIFY(b.finished.size() >= 2);
        const auto ranked = [&](int node) {
            const BeamNode& n = b.nodes[size_t(node)];
            return n.total_log_prob / std::pow(n.step + 1.0, alpha);
        };
        for (size_t i = 1; i < b.finished.size(); ++i) QVERIFY(ranked(b.finished[i - 1]) >= ranked(b.finished[i]));
        QCOMPARE(b.best.total_log_prob, b.nodes[size_t(b.finished.front())].total_log_prob);
    }
}

ATTNVIZ_TEST_MAIN(TestBeam)
#include "test_beam.moc"
