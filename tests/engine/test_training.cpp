// Training behaviour: padded batches equal their examples, 1 vs 2 threads, the loss equals the inference engine's
// forced decoding and the double reference, Adam / SGD / clipping against hand-worked numbers, a real training run
// that must learn to reverse sequences, cancel and NaN handling, vocabulary order, and `attnviz-cli train`.
#include "base/errors.h"
#include "decode/decoding.h"
#include "io/model_file.h"
#include "reference_model.h"
#include "test_models.h"
#include "train/trainer.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <fstream>
#include <random>

using namespace attnviz;

namespace {

ModelConfig configFor(const QString& variant) {
    const QStringList parts = variant.split('/');  // decoder/score/span[/feed]
    ModelConfig c =
        testing::smallConfig(parseDecoderKind(parts[0].toStdString()), parseScoreKind(parts[1].toStdString()),
                             parseSpanKind(parts[2].toStdString()), parts.size() > 3 && parts[3] == "feed");
    return c;
}

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

std::vector<const TrainExample*> pointers(const std::vector<TrainExample>& v) {
    std::vector<const TrainExample*> p;
    for (const auto& e : v) p.push_back(&e);
    return p;
}

double maxAbsDiff(const ModelParams& a, const ModelParams& b, double* scale = nullptr) {
    double d = 0, s = 0;
    visitTensorPairs(const_cast<ModelParams&>(a), const_cast<ModelParams&>(b), [&](const auto& x, const auto& y) {
        if (x.size() == 0) return;
        d = std::max(d, double((x - y).cwiseAbs().maxCoeff()));
        s = std::max(s, double(y.cwiseAbs().maxCoeff()));
    });
    if (scale) *scale = s;
    return d;
}

// Symbol sequences of length 3..6 over a..j; the target is the source reversed. `aligned` adds the gold alignment
// column (target word j ↔ source word len−1−j).
void writeReverseTask(const QString& path, int n, uint64_t seed, bool aligned = false) {
    std::mt19937_64 rng(seed);
    std::ofstream f(path.toStdString());
    for (int i = 0; i < n; ++i) {
        const int len = 3 + int(rng() % 4);
        std::vector<char> s;
        for (int k = 0; k < len; ++k) s.push_back(char('a' + rng() % 10));
        for (int k = 0; k < len; ++k) f << (k ? " " : "") << s[size_t(k)];
        f << '\t';
        for (int k = len - 1; k >= 0; --k) f << s[size_t(k)] << (k ? " " : "");
        if (aligned) {
            f << '\t';
            for (int j = 0; j < len; ++j) f << (j ? " " : "") << (len - 1 - j) << '-' << j;
        }
        f << '\n';
    }
}

std::vector<std::pair<std::string, std::string>> reversePairs(int n, uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::pair<std::string, std::string>> out;
    for (int i = 0; i < n; ++i) {
        const int len = 3 + int(rng() % 4);
        std::string s, t;
        std::vector<char> c;
        for (int k = 0; k < len; ++k) c.push_back(char('a' + rng() % 10));
        for (int k = 0; k < len; ++k) s += (k ? " " : "") + std::string(1, c[size_t(k)]);
        for (int k = len - 1; k >= 0; --k) t += std::string(1, c[size_t(k)]) + (k ? " " : "");
        out.emplace_back(s, t);
    }
    return out;
}

Model reverseModel(uint64_t seed) {
    ModelConfig c;
    c.decoder = DecoderKind::Bahdanau;
    c.score = ScoreKind::Additive;
    c.emb_dim = 16;
    c.enc_hid_dim = 24;
    c.dec_hid_dim = 48;
    std::vector<std::string> syms;
    for (int k = 0; k < 10; ++k) syms.push_back(std::string(1, char('a' + k)));
    return makeRandomModel(c, testing::vocabWith(syms), testing::vocabWith(syms), seed);
}

// dir/train.tsv (n reverse-task lines from data_seed) and dir/init.safetensors (`init`) for the CLI; returns the
// model's path.
QString writeReverseTaskAndInit(const QTemporaryDir& dir, int n, uint64_t data_seed, const Model& init) {
    writeReverseTask(dir.filePath("train.tsv"), n, data_seed);
    return testing::saveInto(init, dir, "init.safetensors");
}

QString cliPath() { return QString::fromUtf8(ATTNVIZ_CLI_PATH); }

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
    void learnsToReverse();
    void guidedAlignmentOffIsBitIdentical_data();
    void guidedAlignmentOffIsBitIdentical();
    void guidedAlignmentLearnsGoldAlignment();
    void cancelStopsAfterCurrentStep();
    void nanStopsWithLastGoodParameters();
    void vocabularyOrder();
    void cliTrainWritesModelAndMetrics();
    void cliAlignWeight();
    void cliNanLeavesLastGoodModel();
    void cliCtrlCWritesModel();
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

// A real run: reverse sequences of 3–6 symbols from 10; greedy decoding must get ≥ 90 % of unseen lines exactly.
void TestTraining::learnsToReverse() {
    Model m = reverseModel(1);
    std::vector<TrainExample> train, valid;
    int line = 0;
    for (const auto& [s, t] : reversePairs(1500, 1)) train.push_back(makeExample(m, s, t, ++line));
    const auto held_out = reversePairs(100, 2);
    for (const auto& [s, t] : held_out) valid.push_back(makeExample(m, s, t, ++line));
    TrainOptions o;
    o.lr = 0.01;
    o.batch_size = 32;
    o.epochs = 7;
    o.clip = 1.0;
    o.seed = 3;
    o.threads = 2;
    const TrainReport rep = trainModel(m, train, valid, o);
    QCOMPARE(int(rep.status), int(TrainStatus::Completed));
    QCOMPARE(rep.steps, int64_t(7 * ((1500 + 31) / 32)));
    QVERIFY2(rep.valid_loss < 0.3, qPrintable(QString::number(rep.valid_loss)));
    int exact = 0;
    for (const auto& [s, t] : held_out) {
        const DecodeResult r = greedyDecode(m, s);
        std::string out;
        for (size_t k = 0; k + 1 < r.target_tokens.size(); ++k) out += (k ? " " : "") + r.target_tokens[k];
        if (out == t && r.target_ids.back() == kEos) ++exact;
    }
    QVERIFY2(exact >= 90, qPrintable(QString("exact match %1 / 100").arg(exact)));
}

// Reverse-task gold links in a convention the data alone does not suggest (as 个 → the numeral, not the noun):
// target word j (= source word L−1−j) is linked to the source word BEFORE its own, max(0, L−2−j).
static int shiftedGold(int len, int j) { return std::max(0, len - 2 - j); }
static std::vector<std::pair<int, int>> shiftedReverseLinks(const std::string& source) {
    const int len = int(std::count(source.begin(), source.end(), ' ')) + 1;
    std::vector<std::pair<int, int>> links;
    for (int j = 0; j < len; ++j) links.emplace_back(shiftedGold(len, j), j);
    return links;
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

// Guided alignment on the reverse task with the shifted gold convention above: with λ = 1 the trained model's
// attention argmax (forcedDecode, the inference engine) is the gold source position on ≥ 95 % of the word rows of
// unseen lines; without guidance (λ = 0) the model attends to the word it copies, so it is not.
void TestTraining::guidedAlignmentLearnsGoldAlignment() {
    // the share of word rows whose attention argmax is the gold source position, after 15 epochs with weight λ
    auto trainAndScore = [](double lambda, TrainReport& rep) {
        Model m = reverseModel(6);
        std::vector<TrainExample> train;
        int line = 0;
        for (const auto& [s, t] : reversePairs(800, 11)) {
            train.push_back(makeExample(m, s, t, ++line));
            setAlignment(train.back(), shiftedReverseLinks(s));
        }
        TrainOptions o;
        o.lr = 0.01;
        o.batch_size = 32;
        o.epochs = 15;
        o.clip = 1.0;
        o.seed = 5;
        o.threads = 2;
        o.align_weight = lambda;
        rep = trainModel(m, train, {}, o);
        int rows = 0, hits = 0;
        for (const auto& [s, t] : reversePairs(100, 12)) {
            const DecodeResult r = forcedDecode(m, s, t);
            const int len = int(r.source_ids.size()) - 2;
            for (int k = 0; k < len && k < int(r.attention.size()); ++k) {
                const auto& a = r.attention[size_t(k)];
                const int argmax = int(std::max_element(a.begin(), a.end()) - a.begin());
                ++rows;
                hits += argmax == shiftedGold(len, k) + 1;  // source word i sits at position i + 1 (after <sos>)
            }
        }
        return double(hits) / double(std::max(1, rows));
    };
    TrainReport rep;
    const double guided = trainAndScore(1.0, rep);
    QCOMPARE(int(rep.status), int(TrainStatus::Completed));
    QVERIFY(std::isfinite(rep.train_align_loss));
    TrainReport rep0;
    const double unguided = trainAndScore(0.0, rep0);
    qInfo("attention argmax on the gold position: %.1f %% with λ = 1, %.1f %% with λ = 0", 100 * guided,
          100 * unguided);
    QVERIFY(!std::isfinite(rep0.train_align_loss));
    QVERIFY2(guided >= 0.95, qPrintable(QString("attention argmax on gold %1 %").arg(100 * guided)));
    QVERIFY2(unguided < 0.6, "the gold convention is one the model finds unguided: the test shows nothing");
}

void TestTraining::cancelStopsAfterCurrentStep() {
    Model m = reverseModel(2);
    std::vector<TrainExample> train;
    for (const auto& [s, t] : reversePairs(200, 3)) train.push_back(makeExample(m, s, t, 1));
    std::atomic<bool> cancel{false};
    TrainOptions o;
    o.batch_size = 8;
    o.epochs = 5;
    o.progress_interval = 0;  // every step
    TrainCallbacks cb;
    cb.cancel = &cancel;
    int64_t reported = 0;
    cb.progress = [&](const TrainProgress& p) {
        reported = p.step;
        if (p.step == 3) cancel.store(true);
    };
    const ModelParams before = m.params;
    const TrainReport rep = trainModel(m, train, {}, o, cb);
    QCOMPARE(int(rep.status), int(TrainStatus::Cancelled));
    QCOMPARE(rep.steps, int64_t(3));
    QCOMPARE(reported, int64_t(3));
    QVERIFY(allFinite(m.params));
    QVERIFY(maxAbsDiff(m.params, before) > 0);  // the three updates are kept
}

void TestTraining::nanStopsWithLastGoodParameters() {
    Model m = reverseModel(3);
    std::vector<TrainExample> train;
    for (const auto& [s, t] : reversePairs(64, 4)) train.push_back(makeExample(m, s, t, 1));
    TrainOptions o;
    o.optimizer = OptimizerKind::Sgd;
    o.lr = 1e30;  // the first update blows the weights up
    o.batch_size = 16;
    o.epochs = 3;
    const TrainReport rep = trainModel(m, train, {}, o);
    QCOMPARE(int(rep.status), int(TrainStatus::NonFinite));
    QVERIFY2(rep.message.find("step") != std::string::npos && rep.message.find("learning rate") != std::string::npos,
             rep.message.c_str());
    QVERIFY(allFinite(m.params));
    QVERIFY(std::isfinite(evaluateLoss(m, train)));  // the parameters kept still give a finite loss
}

void TestTraining::vocabularyOrder() {
    // counts: b 3, a 2, é 2, c 1, <eos> typed in the data (not added twice); ties in code-point order: a < é
    const Vocabulary v = buildVocabulary({{"b", "é", "a"}, {"b", "a", "é", "<eos>"}, {"b", "c"}}, 1);
    const std::vector<std::string> expect = {"<pad>", "<unk>", "<sos>", "<eos>", "b", "a", "é", "c"};
    QCOMPARE(v.tokens(), expect);
    const Vocabulary v2 = buildVocabulary({{"b", "é", "a"}, {"b", "a", "é"}, {"b", "c"}}, 2);
    QCOMPARE(v2.size(), 7);  // c is dropped
}

void TestTraining::cliTrainWritesModelAndMetrics() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writeReverseTask(dir.filePath("train.tsv"), 300, 5);
    writeReverseTask(dir.filePath("valid.tsv"), 40, 6);
    {
        std::ofstream f(dir.filePath("cfg.json").toStdString());
        f << R"({"decoder": "luong", "score": "general", "span": "local_p", "window": 2, "input_feeding": true,)"
          << R"( "emb_dim": 8, "enc_hid_dim": 8, "dec_hid_dim": 16})";
    }
    const QString out = dir.filePath("m.safetensors");
    QProcess proc;
    proc.start(cliPath(), {"train",
                           "--data",
                           dir.filePath("train.tsv"),
                           "--valid",
                           dir.filePath("valid.tsv"),
                           "--config",
                           dir.filePath("cfg.json"),
                           "--out",
                           out,
                           "--steps",
                           "25",
                           "--batch-size",
                           "16",
                           "--seed",
                           "4",
                           "--threads",
                           "2",
                           "--dropout",
                           "0.1",
                           "--json",
                           "--task",
                           "reverse",
                           "--description",
                           "test"});
    QVERIFY(proc.waitForFinished(120000));
    QCOMPARE(proc.exitCode(), 0);
    const QByteArray stdout_ = proc.readAllStandardOutput().trimmed();
    const QJsonObject j = QJsonDocument::fromJson(stdout_).object();
    QCOMPARE(j["status"].toString(), QString("completed"));
    QCOMPARE(j["steps"].toInt(), 25);
    QVERIFY(j["valid_loss"].isDouble() && j["train_loss"].isDouble() && j["tokens_per_second"].toDouble() > 0);
    const Model m = loadModel(out.toStdString());
    QCOMPARE(m.task, std::string("reverse"));
    QCOMPARE(m.description, std::string("test"));
    QCOMPARE(m.source_vocab.size(), 14);
    QVERIFY(m.config.span == SpanKind::LocalP);
    const QJsonObject t = QJsonDocument::fromJson(QByteArray::fromStdString(m.training)).object();
    QCOMPARE(t["data"].toString(), QString("train.tsv"));
    QCOMPARE(t["lines"].toInt(), 300);
    QCOMPARE(t["steps"].toInt(), 25);
    QCOMPARE(t["batch_size"].toInt(), 16);
    QCOMPARE(t["optimizer"].toString(), QString("adam"));
    QCOMPARE(t["seed"].toInt(), 4);
    QVERIFY(t["valid_loss"].isDouble());
    // the same seed gives the same model, whatever the thread count
    const QString out2 = dir.filePath("m2.safetensors");
    proc.start(cliPath(), {"train",
                           "--data",
                           dir.filePath("train.tsv"),
                           "--valid",
                           dir.filePath("valid.tsv"),
                           "--config",
                           dir.filePath("cfg.json"),
                           "--out",
                           out2,
                           "--steps",
                           "25",
                           "--batch-size",
                           "16",
                           "--seed",
                           "4",
                           "--threads",
                           "1",
                           "--dropout",
                           "0.1",
                           "--quiet"});
    QVERIFY(proc.waitForFinished(120000));
    QCOMPARE(proc.exitCode(), 0);
    Model m2 = loadModel(out2.toStdString());
    double scale = 0;
    QVERIFY(maxAbsDiff(m2.params, m.params, &scale) < 1e-3 * std::max(1.0, scale));
    // an unwritable --out fails before training, naming the path
    const QString bad_out = dir.filePath("no/such/dir/m.safetensors");
    proc.start(cliPath(), {"train", "--data", dir.filePath("train.tsv"), "--config", dir.filePath("cfg.json"), "--out",
                           bad_out, "--steps", "1000000", "--quiet"});
    QVERIFY(proc.waitForFinished(30000));
    QCOMPARE(proc.exitCode(), 1);
    QVERIFY(proc.readAllStandardError().contains("no/such/dir/m.safetensors"));
    // bad usage: exit 2, naming the flag
    proc.start(cliPath(), {"train", "--data", dir.filePath("train.tsv"), "--out", out});
    QVERIFY(proc.waitForFinished(30000));
    QCOMPARE(proc.exitCode(), 2);
    QVERIFY(proc.readAllStandardError().contains("--init"));
}

// --align-weight: recorded in the metadata, the alignment loss reported; usage errors for a negative weight and for
// data without an alignment column.
void TestTraining::cliAlignWeight() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    writeReverseTask(dir.filePath("aligned.tsv"), 200, 9, true);
    writeReverseTask(dir.filePath("plain.tsv"), 50, 10);
    {
        std::ofstream f(dir.filePath("cfg.json").toStdString());
        f << R"({"decoder": "bahdanau", "score": "additive", "emb_dim": 8, "enc_hid_dim": 8, "dec_hid_dim": 16})";
    }
    const QString out = dir.filePath("m.safetensors");
    QProcess proc;
    proc.start(cliPath(),
               {"train", "--data", dir.filePath("aligned.tsv"), "--config", dir.filePath("cfg.json"), "--out", out,
                "--steps", "8", "--batch-size", "16", "--align-weight", "0.5", "--json", "--quiet"});
    QVERIFY(proc.waitForFinished(120000));
    QVERIFY2(proc.exitCode() == 0, proc.readAllStandardError().constData());
    const QJsonObject j = QJsonDocument::fromJson(proc.readAllStandardOutput().trimmed()).object();
    QVERIFY(j["train_align_loss"].toDouble() > 0);
    const Model m = loadModel(out.toStdString());
    const QJsonObject t = QJsonDocument::fromJson(QByteArray::fromStdString(m.training)).object();
    QCOMPARE(t["align_weight"].toDouble(), 0.5);
    QVERIFY(t["train_align_loss"].toDouble() > 0);
    // off by default: recorded as 0
    proc.start(cliPath(), {"train", "--data", dir.filePath("aligned.tsv"), "--config", dir.filePath("cfg.json"),
                           "--out", out, "--steps", "2", "--quiet"});
    QVERIFY(proc.waitForFinished(120000));
    QCOMPARE(proc.exitCode(), 0);
    QCOMPARE(QJsonDocument::fromJson(QByteArray::fromStdString(loadModel(out.toStdString()).training))
                 .object()["align_weight"]
                 .toDouble(-1),
             0.0);
    // usage errors: exit 2 naming the flag
    const QStringList bad[] = {
        {"train", "--data", dir.filePath("plain.tsv"), "--config", dir.filePath("cfg.json"), "--out", out,
         "--align-weight", "1"},
        {"train", "--data", dir.filePath("aligned.tsv"), "--config", dir.filePath("cfg.json"), "--out", out,
         "--align-weight", "-0.5"},
    };
    for (const QStringList& args : bad) {
        proc.start(cliPath(), args);
        QVERIFY(proc.waitForFinished(30000));
        const QByteArray err = proc.readAllStandardError();
        QCOMPARE(proc.exitCode(), 2);
        QVERIFY2(err.contains("--align-weight"), err.constData());
    }
}

void TestTraining::cliNanLeavesLastGoodModel() {
    QTemporaryDir dir;
    const QString init_path = writeReverseTaskAndInit(dir, 64, 7, reverseModel(4));
    const QString out = dir.filePath("out.safetensors");
    QProcess proc;
    proc.start(cliPath(), {"train", "--data", dir.filePath("train.tsv"), "--init", init_path, "--out", out,
                           "--optimizer", "sgd", "--lr", "1e30", "--batch-size", "16", "--epochs", "3", "--quiet"});
    QVERIFY(proc.waitForFinished(60000));
    QCOMPARE(proc.exitCode(), 1);
    const QByteArray err = proc.readAllStandardError();
    QVERIFY2(err.contains("NaN") || err.contains("infinite") || err.contains("non-finite"), err.constData());
    QVERIFY2(err.contains("last good model"), err.constData());
    const Model m = loadModel(out.toStdString());
    QVERIFY(allFinite(m.params));
}

void TestTraining::cliCtrlCWritesModel() {
    QTemporaryDir dir;
    const Model init = reverseModel(5);
    const QString init_path = writeReverseTaskAndInit(dir, 2000, 8, init);
    const QString out = dir.filePath("out.safetensors");
    QProcess proc;
    proc.start(cliPath(), {"train", "--data", dir.filePath("train.tsv"), "--init", init_path, "--out", out,
                           "--batch-size", "8", "--epochs", "1000", "--threads", "1"});
    QVERIFY(proc.waitForStarted());
    // wait for the first progress line (training has started), then Ctrl-C
    QByteArray err;
    for (int i = 0; i < 600 && !err.contains("step"); ++i) {
        proc.waitForReadyRead(100);
        err += proc.readAllStandardError();
    }
    QVERIFY2(err.contains("step"), err.constData());
    ::kill(pid_t(proc.processId()), SIGINT);
    QVERIFY(proc.waitForFinished(60000));
    err += proc.readAllStandardError();
    QCOMPARE(proc.exitStatus(), QProcess::NormalExit);
    QCOMPARE(proc.exitCode(), 1);
    QVERIFY2(err.contains("interrupted"), err.constData());
    const Model m = loadModel(out.toStdString());
    QVERIFY(allFinite(m.params));
    QVERIFY(maxAbsDiff(m.params, init.params) > 0);  // trained, not the initial weights
    QVERIFY(QByteArray::fromStdString(m.training).contains("\"status\":\"interrupted\""));
}

QTEST_GUILESS_MAIN(TestTraining)
#include "test_training.moc"
