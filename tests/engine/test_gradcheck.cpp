// Finite-difference gradient checks of the training code (core/gru_train, core/attention_train, core/seq2seq_train):
// central differences on the double instantiation, at random indices of every tensor, for each layer (GRU cell over
// a masked sequence in both directions, attention for every score and span) and for the whole model in every variant.
#include "decode/decoding.h"
#include "decode_variants.h"
#include "finite_differences.h"
#include "test_models.h"
#include "test_registry.h"
#include "train/seq2seq_loss.h"

#include <QTest>

#include <cmath>
#include <functional>
#include <random>

using namespace attnviz;
using attnviz::testing::kStep;
using attnviz::testing::randomFill;

namespace {

struct Failure {
    std::string what;
    double analytic, numeric;
};

// Compares analytic gradients against central differences at `per_tensor` random indices of x.
// f recomputes the loss from the current values. Returns the worst failure (empty `what` if none).
void checkTensor(const std::string& name, double* x, const double* analytic, Eigen::Index size, int per_tensor,
                 std::mt19937_64& rng, const std::function<double()>& f, double tol, std::vector<Failure>& failures,
                 int& checked) {
    if (size == 0) return;
    for (int k = 0; k < per_tensor; ++k) {
        const Eigen::Index i = k == 0 ? 0 : Eigen::Index(rng() % uint64_t(size));
        const double saved = x[i];
        x[i] = saved + kStep;
        const double fp = f();
        x[i] = saved - kStep;
        const double fm = f();
        x[i] = saved;
        const double num = (fp - fm) / (2 * kStep);
        ++checked;
        if (!(std::abs(num - analytic[i]) <= tol * std::max(1.0, std::abs(num))))
            failures.push_back({name + "[" + std::to_string(i) + "]", analytic[i], num});
    }
}

QString describe(const std::vector<Failure>& fs) {
    QString s;
    for (size_t i = 0; i < fs.size() && i < 6; ++i)
        s += QString("%1: analytic %2 numeric %3; ")
                 .arg(QString::fromStdString(fs[i].what))
                 .arg(fs[i].analytic, 0, 'g', 10)
                 .arg(fs[i].numeric, 0, 'g', 10);
    return s;
}

// A padded batch of B examples with source lengths (with <sos>/<eos>) from 2 to max_src and targets from 2 to max_tgt.
std::vector<TrainExample> randomBatch(int B, int Vs, int Vt, int max_src, int max_tgt, std::mt19937_64& rng) {
    std::vector<TrainExample> out;
    for (int b = 0; b < B; ++b) {
        TrainExample e;
        e.line = b + 1;
        // the first example is the longest on both sides, the others shorter: padding is exercised
        const int ls = b == 0 ? max_src : 2 + int(rng() % uint64_t(max_src - 1));
        const int lt = b == 0 ? max_tgt : 2 + int(rng() % uint64_t(max_tgt - 1));
        e.source.push_back(kSos);
        for (int i = 0; i < ls - 2; ++i) e.source.push_back(4 + int(rng() % uint64_t(Vs - 4)));
        e.source.push_back(kEos);
        e.target.push_back(kSos);
        for (int i = 0; i < lt - 2; ++i) e.target.push_back(1 + int(rng() % uint64_t(Vt - 1)));  // <unk>.. allowed
        e.target.push_back(kEos);
        out.push_back(std::move(e));
    }
    return out;
}

// Random gold links for guided alignment: each decoder step of a word gets 0, 1 or 2 source word positions.
void addRandomAlignment(std::vector<TrainExample>& data, std::mt19937_64& rng) {
    for (TrainExample& e : data) {
        const int ws = int(e.source.size()) - 2, wt = int(e.target.size()) - 2;
        std::vector<std::pair<int, int>> links;
        for (int j = 0; j < wt && ws > 0; ++j)
            for (int n = int(rng() % 3); n > 0; --n) links.emplace_back(int(rng() % uint64_t(ws)), j);
        setAlignment(e, links);
    }
}

ModelConfig windowedConfig(const QString& variant, int window) {
    ModelConfig c = testing::configFor(variant);
    c.window = window;
    return c;
}

}  // namespace

class TestGradcheck : public QObject {
    Q_OBJECT
private slots:
    void gruSequence_data();
    void gruSequence();
    void attention_data();
    void attention();
    void wholeModel_data();
    void wholeModel();
    void floatMatchesDouble();
};

void TestGradcheck::gruSequence_data() {
    QTest::addColumn<int>("B");
    QTest::addColumn<int>("L");
    QTest::addColumn<int>("In");
    QTest::addColumn<int>("H");
    QTest::addColumn<bool>("reverse");
    QTest::addColumn<bool>("masked");
    QTest::addColumn<int>("seed");
    QTest::addColumn<double>("tol");
    QTest::newRow("cell: one step, one row") << 1 << 1 << 3 << 4 << false << false << 1 << 1e-7;
    QTest::newRow("forward direction, 4 steps") << 2 << 4 << 5 << 3 << false << false << 2 << 1e-7;
    QTest::newRow("reverse direction, 4 steps") << 2 << 4 << 5 << 3 << true << false << 3 << 1e-7;
    QTest::newRow("forward, padded rows carry their state") << 3 << 5 << 4 << 4 << false << true << 4 << 1e-7;
    QTest::newRow("reverse, padded rows start at their own end") << 3 << 5 << 4 << 4 << true << true << 5 << 1e-7;
}

void TestGradcheck::gruSequence() {
    QFETCH(int, B);
    QFETCH(int, L);
    QFETCH(int, In);
    QFETCH(int, H);
    QFETCH(bool, reverse);
    QFETCH(bool, masked);
    QFETCH(int, seed);
    QFETCH(double, tol);
    std::mt19937_64 rng{uint64_t(seed)};
    GruParamsD p, g;
    p.w_ih.resize(3 * H, In);
    p.w_hh.resize(3 * H, H);
    p.b_ih.resize(3 * H);
    p.b_hh.resize(3 * H);
    randomFill(p.w_ih, rng, 0.8);
    randomFill(p.w_hh, rng, 0.8);
    randomFill(p.b_ih, rng, 0.5);
    randomFill(p.b_hh, rng, 0.5);
    g.w_ih.setZero(3 * H, In);
    g.w_hh.setZero(3 * H, H);
    g.b_ih.setZero(3 * H);
    g.b_hh.setZero(3 * H);
    MatT<double> x(L * B, In), wout(L * B, H);
    randomFill(x, rng, 1.0);
    randomFill(wout, rng, 1.0);
    std::vector<uint8_t> mask(size_t(L * B), 1);
    if (masked)  // row b has length L - b
        for (int t = 0; t < L; ++t)
            for (int b = 0; b < B; ++b) mask[size_t(t * B + b)] = t < L - b ? 1 : 0;
    const uint8_t* m = masked ? mask.data() : nullptr;
    GruSeqCache<double> cache;
    // loss = Σ wout ⊙ h over the real positions (padded outputs are not used by the model)
    MatT<double> wmask = wout;
    for (int i = 0; i < L * B; ++i)
        if (!mask[size_t(i)]) wmask.row(i).setZero();
    auto f = [&] {
        gruSequenceForward<double>(p, x, m, L, B, reverse, cache);
        return (cache.h.array() * wmask.array()).sum();
    };
    f();
    MatT<double> dx;
    gruSequenceBackward<double>(p, x, m, L, B, reverse, cache, wmask, &g, &dx);
    std::vector<Failure> fails;
    int checked = 0;
    checkTensor("w_ih", p.w_ih.data(), g.w_ih.data(), p.w_ih.size(), 8, rng, f, tol, fails, checked);
    checkTensor("w_hh", p.w_hh.data(), g.w_hh.data(), p.w_hh.size(), 8, rng, f, tol, fails, checked);
    checkTensor("b_ih", p.b_ih.data(), g.b_ih.data(), p.b_ih.size(), 6, rng, f, tol, fails, checked);
    checkTensor("b_hh", p.b_hh.data(), g.b_hh.data(), p.b_hh.size(), 6, rng, f, tol, fails, checked);
    checkTensor("x", x.data(), dx.data(), x.size(), 10, rng, f, tol, fails, checked);
    QVERIFY2(fails.empty(), qPrintable(describe(fails)));
    QVERIFY(checked >= 30);
    // the gradient is not trivially zero (with one step from a zero state, W_hh gets none)
    QVERIFY(dx.norm() > 1e-3 && g.w_ih.norm() > 1e-3);
    if (L > 1) QVERIFY(g.w_hh.norm() > 1e-3);
}

void TestGradcheck::attention_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("window");
    QTest::addColumn<int>("step");
    QTest::addColumn<int>("seed");
    QTest::addColumn<double>("tol");
    for (const char* score : {"additive", "dot", "scaled_dot", "general"}) {
        for (const char* span : {"global", "local_m", "local_p"}) {
            const QString v = QString("luong/%1/%2").arg(score, span);
            QTest::newRow(qPrintable(v)) << v << 2 << 2 << 11 << 1e-7;
        }
    }
    QTest::newRow("local_p window 1, late step") << QString("luong/general/local_p") << 1 << 4 << 12 << 1e-7;
    QTest::newRow("local_m past the source end") << QString("luong/additive/local_m") << 1 << 9 << 13 << 1e-7;
}

void TestGradcheck::attention() {
    QFETCH(QString, variant);
    QFETCH(int, window);
    QFETCH(int, step);
    QFETCH(int, seed);
    QFETCH(double, tol);
    const ModelConfig c = windowedConfig(variant, window);
    std::mt19937_64 rng{uint64_t(seed)};
    ModelParamsD p = toDouble(testing::smallModel(c, uint64_t(seed), 1.5f).params), g;
    zerosLike(g, p);
    const int B = 3, S = 7, He2 = 2 * c.enc_hid_dim, Hd = c.dec_hid_dim;
    AttnEncoder<double> enc;
    AttnCache<double> cache;
    attentionResize<double>(c, B, S, step + 1, true, enc, cache);
    enc.len = {7, 4, 5};
    enc.H.setZero();
    for (int b = 0; b < B; ++b) {
        auto rows = enc.H.middleRows(b * S, enc.len[size_t(b)]);
        randomFill(rows, rng, 1.0);
    }
    MatT<double> q(B, Hd), wc(B, He2), ctx(B, He2);
    randomFill(q, rng, 1.0);
    randomFill(wc, rng, 1.0);
    auto f = [&] {
        attentionPrepare<double>(p, c, enc);
        attentionStepForward<double>(p, c, enc, step, q.data(), cache, ctx.data());
        return (ctx.array() * wc.array()).sum();
    };
    f();
    MatT<double> dq = MatT<double>::Zero(B, Hd);
    attentionStepBackward<double>(p, c, enc, step, q.data(), cache, wc.data(), dq.data(), &g);
    attentionPrepareBackward<double>(p, c, enc, &g);
    MatT<double> dH = enc.dH;
    std::vector<Failure> fails;
    int checked = 0;
    visitTensorPairs(p, g, [&](auto& pt, auto& gt) {
        checkTensor("param", pt.data(), gt.data(), pt.size(), 8, rng, f, tol, fails, checked);
    });
    checkTensor("q", q.data(), dq.data(), q.size(), 10, rng, f, tol, fails, checked);
    for (int b = 0; b < B; ++b)  // only real positions are inputs
        checkTensor("H[b" + std::to_string(b) + "]", enc.H.data() + b * S * He2, dH.data() + b * S * He2,
                    enc.len[size_t(b)] * He2, 8, rng, f, tol, fails, checked);
    QVERIFY2(fails.empty(), qPrintable(describe(fails)));
    QVERIFY(dq.norm() > 1e-4);
    if (c.span == SpanKind::LocalP) QVERIFY2(g.attn_vp.norm() > 1e-6, "no gradient reached p");
}

void TestGradcheck::wholeModel_data() {
    QTest::addColumn<QString>("variant");
    QTest::addColumn<int>("batch");
    QTest::addColumn<int>("maxSrc");
    QTest::addColumn<int>("maxTgt");
    QTest::addColumn<double>("dropout");
    QTest::addColumn<int>("seed");
    QTest::addColumn<double>("tol");
    QTest::addColumn<double>("alignWeight");
    QTest::addColumn<double>("labelSmoothing");
    for (const char* score : {"additive", "dot", "scaled_dot", "general"})
        QTest::newRow(qPrintable(QString("bahdanau/%1/global").arg(score)))
            << QString("bahdanau/%1/global").arg(score) << 3 << 7 << 6 << 0.0 << 21 << 1e-6 << 0.0 << 0.0;
    for (const char* score : {"additive", "dot", "scaled_dot", "general"})
        for (const char* span : {"global", "local_m", "local_p"})
            QTest::newRow(qPrintable(QString("luong/%1/%2").arg(score, span)))
                << QString("luong/%1/%2").arg(score, span) << 3 << 8 << 6 << 0.0 << 22 << 1e-6 << 0.0 << 0.0;
    for (const char* v : {"luong/additive/global/feed", "luong/dot/local_m/feed", "luong/general/local_p/feed",
                          "luong/scaled_dot/global/feed"})
        QTest::newRow(v) << QString(v) << 3 << 7 << 6 << 0.0 << 23 << 1e-6 << 0.0 << 0.0;
    QTest::newRow("decoder step: bahdanau, one target step")
        << QString("bahdanau/additive/global") << 2 << 5 << 2 << 0.0 << 24 << 1e-6 << 0.0 << 0.0;
    QTest::newRow("decoder step: luong feed, one target step")
        << QString("luong/general/local_p/feed") << 2 << 5 << 2 << 0.0 << 25 << 1e-6 << 0.0 << 0.0;
    QTest::newRow("single example, no padding")
        << QString("bahdanau/general/global") << 1 << 6 << 5 << 0.0 << 26 << 1e-6 << 0.0 << 0.0;
    QTest::newRow("with embedding dropout 0.3 (fixed mask)")
        << QString("bahdanau/additive/global") << 3 << 6 << 5 << 0.3 << 27 << 1e-6 << 0.0 << 0.0;
    QTest::newRow("luong feed with dropout")
        << QString("luong/dot/local_p/feed") << 3 << 6 << 5 << 0.3 << 28 << 1e-6 << 0.0 << 0.0;
    // guided alignment: the checked objective is NLL + λ·Σ CE(G, a)
    QTest::newRow("guided alignment: bahdanau additive")
        << QString("bahdanau/additive/global") << 3 << 7 << 6 << 0.0 << 41 << 1e-6 << 0.7 << 0.0;
    QTest::newRow("guided alignment: bahdanau general")
        << QString("bahdanau/general/global") << 3 << 7 << 6 << 0.0 << 42 << 1e-6 << 1.3 << 0.0;
    QTest::newRow("guided alignment: luong dot feed")
        << QString("luong/dot/global/feed") << 3 << 7 << 6 << 0.0 << 43 << 1e-6 << 0.9 << 0.0;
    QTest::newRow("guided alignment: luong additive, dropout")
        << QString("luong/additive/global") << 3 << 6 << 5 << 0.3 << 44 << 1e-6 << 2.0 << 0.0;
    // label smoothing: the checked objective is (1 − ε)·NLL + ε·Σ mean −log p over every output
    QTest::newRow("label smoothing: bahdanau additive")
        << QString("bahdanau/additive/global") << 3 << 7 << 6 << 0.0 << 45 << 1e-6 << 0.0 << 0.25;
    QTest::newRow("label smoothing: luong general feed, dropout, guided")
        << QString("luong/general/global/feed") << 3 << 6 << 5 << 0.3 << 46 << 1e-6 << 0.8 << 0.1;
}

void TestGradcheck::wholeModel() {
    QFETCH(QString, variant);
    QFETCH(int, batch);
    QFETCH(int, maxSrc);
    QFETCH(int, maxTgt);
    QFETCH(double, dropout);
    QFETCH(int, seed);
    QFETCH(double, tol);
    QFETCH(double, alignWeight);
    QFETCH(double, labelSmoothing);
    const ModelConfig c = windowedConfig(variant, 2);
    const Model m = testing::smallModel(c, uint64_t(seed), 1.0f);
    std::mt19937_64 rng{uint64_t(seed) * 7 + 1};
    std::vector<TrainExample> data =
        randomBatch(batch, m.source_vocab.size(), m.target_vocab.size(), maxSrc, maxTgt, rng);
    if (alignWeight > 0) {
        std::mt19937_64 arng{uint64_t(seed) + 100};
        addRandomAlignment(data, arng);
    }
    std::vector<const TrainExample*> ptrs;
    for (const auto& e : data) ptrs.push_back(&e);
    ModelParamsD p = toDouble(m.params), g;
    zerosLike(g, p);
    Seq2SeqWorkspace<double> ws;
    const DropoutSpec drop{float(dropout), 99, 0};
    const LossSum first =
        seq2seqLossAndGrad<double>(c, p, ptrs.data(), batch, drop, 1.0, &g, ws, alignWeight, labelSmoothing);
    const double eps = labelSmoothing;
    if (eps > 0) QVERIFY(std::isfinite(first.smooth_sum) && first.smooth_sum > 0);
    QVERIFY(std::isfinite(first.sum) && first.tokens > 0);
    if (alignWeight > 0) {
        QVERIFY(first.align_sum > 0.1);
        if (dropout == 0) {  // Σ CE against the inference engine's attention rows (forcedDecode, float), by hand
            double ce = 0;
            for (const TrainExample& e : data) {
                TokenizedText src, ref;
                src.ids = e.source;
                src.tokens.assign(e.source.size(), "w");
                ref.ids.assign(e.target.begin() + 1, e.target.end());
                ref.tokens.assign(ref.ids.size(), "w");
                const DecodeResult r = forcedDecode(m, src, ref);
                for (size_t k = 0; k < r.attention.size(); ++k) {
                    std::vector<int> gold;
                    for (const auto& [j, step] : e.align)
                        if (step == int(k)) gold.push_back(j);
                    for (int j : gold) ce -= std::log(double(r.attention[k][size_t(j)])) / double(gold.size());
                }
            }
            QVERIFY2(std::abs(ce - first.align_sum) <= 1e-4 * ce,
                     qPrintable(QString("align_sum %1, from forcedDecode %2").arg(first.align_sum).arg(ce)));
        }
        // the pure NLL does not change with λ
        Seq2SeqWorkspace<double> ws0;
        QCOMPARE(seq2seqLossAndGrad<double>(c, p, ptrs.data(), batch, drop, 0.0, nullptr, ws0).sum, first.sum);
    } else {
        QCOMPARE(first.align_sum, 0.0);
    }
    auto f = [&] {
        const LossSum l =
            seq2seqLossAndGrad<double>(c, p, ptrs.data(), batch, drop, 0.0, nullptr, ws, alignWeight, labelSmoothing);
        return (1 - eps) * l.sum + eps * l.smooth_sum + alignWeight * l.align_sum;
    };
    // the forward does not depend on whether gradients are taken
    QCOMPARE(f(), (1 - eps) * first.sum + eps * first.smooth_sum + alignWeight * first.align_sum);
    std::vector<Failure> fails;
    int checked = 0, tensors = 0;
    visitTensors(p, [&](const char* name, auto& pt) {
        if (pt.size() == 0) return;
        ++tensors;
        // the matching gradient tensor, found by name
        visitTensors(g, [&](const char* gname, auto& gt) {
            if (std::string(gname) == name)
                checkTensor(name, pt.data(), gt.data(), pt.size(), 5, rng, f, tol, fails, checked);
        });
    });
    QVERIFY2(fails.empty(), qPrintable(describe(fails)));
    QCOMPARE(checked, tensors * 5);
    // every non-empty tensor gets some gradient (except rows of unused embeddings: check the whole tensor)
    visitTensors(g, [&](const char* name, auto& gt) {
        if (gt.size() > 0) QVERIFY2(gt.norm() > 0, name);
    });
}

// The float instantiation (what training runs) computes the same gradient as the checked double one.
void TestGradcheck::floatMatchesDouble() {
    for (const char* v : {"bahdanau/additive/global", "luong/general/local_p/feed", "luong/scaled_dot/local_m"}) {
        const ModelConfig c = windowedConfig(v, 2);
        const Model m = testing::smallModel(c, 31, 1.0f);
        std::mt19937_64 rng(5);
        const auto data = randomBatch(4, m.source_vocab.size(), m.target_vocab.size(), 8, 7, rng);
        std::vector<const TrainExample*> ptrs;
        for (const auto& e : data) ptrs.push_back(&e);
        ModelParamsD pd = toDouble(m.params), gd;
        zerosLike(gd, pd);
        ModelParams gf;
        zerosLike(gf, m.params);
        Seq2SeqWorkspace<double> wd;
        Seq2SeqWorkspace<float> wf;
        const LossSum ld = seq2seqLossAndGrad<double>(c, pd, ptrs.data(), 4, {}, 1.0, &gd, wd);
        const LossSum lf = seq2seqLossAndGrad<float>(c, m.params, ptrs.data(), 4, {}, 1.0f, &gf, wf);
        QCOMPARE(lf.tokens, ld.tokens);
        QVERIFY2(std::abs(lf.sum - ld.sum) <= 1e-5 * std::abs(ld.sum), v);
        ModelParamsD gfd = toDouble(gf);
        visitTensorPairs(gfd, gd, [&](auto& a, auto& b) {
            if (a.size() == 0) return;
            const double err = (a - b).cwiseAbs().maxCoeff();
            QVERIFY2(err <= 1e-4 * std::max(1.0, b.cwiseAbs().maxCoeff()), v);
        });
    }
}

ATTNVIZ_TEST_MAIN(TestGradcheck)
#include "test_gradcheck.moc"
