// eval/cell_explanation.h: every cell of a decode explained for every decoder × score × span the format allows. The
// score and weight equal the decode's own (float round-off) and the independent double reference's; the score is
// recomputed by hand from its parts in double; the shares sum to 1; a hand-built one-word model gives the numbers
// worked out on paper.
#include "base/errors.h"
#include "decode/decoding.h"
#include "decode_variants.h"
#include "eval/cell_explanation.h"
#include "reference_model.h"
#include "test_models.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>
#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

TokenizedText matSource(const Model& m) {
    TokenizedText t{{"<sos>"}, {kSos}};
    for (const std::string& w : kMatSentence) {
        t.tokens.push_back(w);
        t.ids.push_back(m.source_vocab.id(w));
    }
    t.tokens.push_back("<eos>");
    t.ids.push_back(kEos);
    return t;
}

// e_tj from the explanation's parts, by hand in double.
double scoreFromParts(const Model& m, const CellExplanation& x) {
    const int Hd = m.config.dec_hid_dim;
    switch (m.config.score) {
    case ScoreKind::Additive: {
        double e = 0;
        for (int k = 0; k < Hd; ++k)
            e += double(m.params.attn_v[k]) *
                 std::tanh(double(x.query_term[k]) + double(x.key_term[k]) + double(x.bias[k]));
        return e;
    }
    case ScoreKind::Dot:
    case ScoreKind::ScaledDot:
        return x.dot * x.scale;
    case ScoreKind::General:
        return x.dot;
    }
    return NAN;
}

// The parts against the model's weights, by hand in double: W s, U h_j, W h_j, s · h_j.
void checkPartsAgainstWeights(const Model& m, const CellExplanation& x) {
    const ModelParams& p = m.params;
    const int Hd = m.config.dec_hid_dim, He2 = 2 * m.config.enc_hid_dim;
    auto norm = [](const std::vector<float>& v) {
        double n = 0;
        for (float f : v) n += double(f) * double(f);
        return std::sqrt(n);
    };
    if (m.config.score == ScoreKind::Additive || m.config.score == ScoreKind::General) {
        const Mat& W = m.config.score == ScoreKind::Additive ? p.attn_w : p.attn_W;
        const int first = m.config.score == ScoreKind::Additive ? Hd : 0;  // the h_j columns
        for (int r = 0; r < Hd; ++r) {
            double uh = 0, ws = 0;
            for (int k = 0; k < He2; ++k) uh += double(W(r, first + k)) * double(x.key[k]);
            QVERIFY(close(x.key_term[size_t(r)], uh, 1e-5));
            if (m.config.score != ScoreKind::Additive) continue;
            for (int k = 0; k < Hd; ++k) ws += double(W(r, k)) * double(x.query[k]);
            QVERIFY(close(x.query_term[size_t(r)], ws, 1e-5));
            QVERIFY(close(x.hidden[size_t(r)], std::tanh(ws + uh + double(p.attn_b[r])), 1e-5));
        }
        QVERIFY(close(x.key_term_norm, norm(x.key_term), 1e-5));
        if (m.config.score == ScoreKind::Additive) QVERIFY(close(x.query_term_norm, norm(x.query_term), 1e-5));
    } else {
        double d = 0;
        for (int k = 0; k < Hd; ++k) d += double(x.query[k]) * double(x.key[k]);
        QVERIFY(close(x.dot, d, 1e-5));
        QVERIFY(close(x.scale, m.config.score == ScoreKind::ScaledDot ? 1.0 / std::sqrt(double(Hd)) : 1.0, 1e-7));
    }
}

}  // namespace

class TestCellExplanation : public QObject {
    Q_OBJECT
private slots:
    void everyCellMatchesTheDecode_data();
    void everyCellMatchesTheDecode();
    void handBuiltModel();
    void rejectsBadCells();
};

void TestCellExplanation::everyCellMatchesTheDecode_data() {
    QTest::addColumn<int>("decoder");
    QTest::addColumn<int>("score");
    QTest::addColumn<int>("span");
    QTest::addColumn<bool>("input_feeding");
    for (ScoreKind sc : {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General}) {
        QTest::addRow("bahdanau/%s", toString(sc).data())
            << int(DecoderKind::Bahdanau) << int(sc) << int(SpanKind::Global) << false;
        for (SpanKind sp : {SpanKind::Global, SpanKind::LocalM, SpanKind::LocalP})
            for (bool inf : {false, true})
                QTest::addRow("luong/%s/%s/%s", toString(sc).data(), toString(sp).data(), inf ? "if" : "no_if")
                    << int(DecoderKind::Luong) << int(sc) << int(sp) << inf;
    }
}

void TestCellExplanation::everyCellMatchesTheDecode() {
    QFETCH(int, decoder);
    QFETCH(int, score);
    QFETCH(int, span);
    QFETCH(bool, input_feeding);
    ModelConfig cfg = smallConfig(DecoderKind(decoder), ScoreKind(score), SpanKind(span), input_feeding);
    cfg.window = 2;  // a window narrower than the sentence, so that cells outside it are explained too
    auto model = std::make_shared<const Model>(smallModel(cfg, 21, 3.0f));
    const TokenizedText src = matSource(*model);
    DecodingSession session(model, src);
    session.runToEnd();
    std::vector<int> tokens;
    for (const StepRecord& r : session.steps()) tokens.push_back(r.token);
    const RefDecode ref = referenceForced(*model, src.ids, tokens);  // independent, in double
    const int S = int(src.ids.size());

    for (int t = 0; t < int(session.steps().size()); ++t) {
        const StepRecord& rec = session.steps()[size_t(t)];
        QCOMPARE(int(rec.query_state.size()), cfg.dec_hid_dim);
        double shares = 0;
        for (int j = 0; j < S; ++j) {
            const CellExplanation x = explainCell(*model, src.ids, rec, t, j);
            QVERIFY(x.has_score);
            QCOMPARE(x.row_size, S);
            QVERIFY(!std::isnan(x.weight));
            QVERIFY2(close(x.weight, rec.attention[size_t(j)], 1e-6), qPrintable(QString("t %1 j %2").arg(t).arg(j)));
            QVERIFY(close(x.weight, ref.steps[size_t(t)].attention[size_t(j)], 1e-4));
            QCOMPARE(x.lo, ref.steps[size_t(t)].lo);
            QCOMPARE(x.hi, ref.steps[size_t(t)].hi);
            QCOMPARE(x.in_window, j >= x.lo && j <= x.hi);
            if (!x.in_window) {
                QVERIFY(std::isnan(x.score) && std::isnan(rec.scores[size_t(j)]));
                QCOMPARE(x.weight, 0.0f);
            } else {
                QVERIFY(close(x.score, rec.scores[size_t(j)], 1e-5));
                QVERIFY(close(x.score, ref.steps[size_t(t)].scores[size_t(j)], 1e-4));
                QVERIFY2(close(scoreFromParts(*model, x), x.score, 1e-5),
                         qPrintable(QString("%1 vs %2").arg(scoreFromParts(*model, x)).arg(x.score)));
                checkPartsAgainstWeights(*model, x);
            }
            if (SpanKind(span) == SpanKind::Global) {
                QVERIFY(std::isnan(x.center));
                QCOMPARE(x.gaussian, 1.0f);
            } else {
                QVERIFY(close(x.center, rec.center, 1e-6));
                QCOMPARE(x.half_width, 2);
                if (SpanKind(span) == SpanKind::LocalM) QCOMPARE(x.center, float(std::min(t + 1, S - 1)));
            }
            if (x.in_window && SpanKind(span) == SpanKind::LocalP) {
                const double d = j - double(x.center), sigma = 1.0;  // σ = D / 2
                QVERIFY(close(x.gaussian, std::exp(-d * d / (2 * sigma * sigma)), 1e-5));
                QVERIFY(close(x.weight, double(x.softmax_weight) * x.gaussian, 1e-6));
            } else if (x.in_window) {
                QCOMPARE(x.softmax_weight, x.weight);
            }
            // rank: 1 + how many weights of the row are larger
            int larger = 0;
            for (float w : rec.attention) larger += w > rec.attention[size_t(j)];
            QCOMPARE(x.rank, larger + 1);
            shares += x.share;
        }
        QVERIFY2(close(shares, 1.0, 1e-9), qPrintable(QString::number(shares, 'g', 12)));
    }
}

// E = H_e = H_d = 1, the encoder's GRUs pass tanh(x) at half strength: with k = tanh 1, the forward states are
// f = (0, k/2, k/4), the backward ones b = (k/4, k/2, 0), s_0 = tanh(f_2 + b_0) = tanh(k/2); attn.weight = [1 3 −1],
// b = 0, v = 1: W s_0 = tanh(k/2), U h_j = 3 f_j − b_j = (−k/4, k, 3k/4), e_j = tanh(W s_0 + U h_j).
void TestCellExplanation::handBuiltModel() {
    ModelConfig cfg = smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive, SpanKind::Global, false, 1, 1, 1);
    Model m = makeRandomModel(cfg, vocabWith({"a"}), vocabWith({"x"}), 1);
    ModelParams& p = m.params;
    for (ParamRef& r : paramRefs(p, m.config, 5, 5))
        for (int64_t i = 0; i < r.size; ++i) r.data[i] = 0;
    p.enc_embedding(4, 0) = 1;
    p.enc_fwd.w_ih(2, 0) = 1;
    p.enc_bwd.w_ih(2, 0) = 1;
    p.enc_fc_w << 1, 1;
    p.attn_w << 1, 3, -1;
    p.attn_v << 1;
    auto model = std::make_shared<const Model>(m);
    const std::vector<int> ids = {kSos, 4, kEos};
    DecodingSession session(model, TokenizedText{{"<sos>", "a", "<eos>"}, ids});
    QVERIFY(session.forward());
    const StepRecord& rec = session.steps()[0];

    const double k = std::tanh(1.0), ws = std::tanh(k / 2);
    const double uh[3] = {-k / 4, k, 3 * k / 4};
    const double norms[3] = {k / 4, k / std::sqrt(2.0), k / 4};  // ‖h_j‖
    double e[3], a[3], z = 0, weighted = 0;
    for (int j = 0; j < 3; ++j) z += std::exp(e[j] = std::tanh(ws + uh[j]));
    for (int j = 0; j < 3; ++j) weighted += (a[j] = std::exp(e[j]) / z) * norms[j];
    const int ranks[3] = {3, 1, 2};
    for (int j = 0; j < 3; ++j) {
        const CellExplanation x = explainCell(*model, ids, rec, 0, j);
        QVERIFY(close(x.query[0], ws, 1e-6));
        QVERIFY(close(x.query_term[0], ws, 1e-6));
        QVERIFY(close(x.key_term[0], uh[j], 1e-6));
        QCOMPARE(x.bias[0], 0.0f);
        QVERIFY(close(x.query_term_norm, ws, 1e-6));
        QVERIFY(close(x.key_term_norm, std::abs(uh[j]), 1e-6));
        QVERIFY(close(x.hidden[0], e[j], 1e-6));
        QVERIFY(close(x.score, e[j], 1e-6));
        QVERIFY(close(x.weight, a[j], 1e-6));
        QCOMPARE(x.rank, ranks[j]);
        QVERIFY(close(x.share, a[j] * norms[j] / weighted, 1e-6));
        QVERIFY(close(x.key[0], j == 0 ? 0.0 : j == 1 ? k / 2 : k / 4, 1e-6));  // h_j = [f_j ; b_j]
        QVERIFY(close(x.key[1], j == 0 ? k / 4 : j == 1 ? k / 2 : 0.0, 1e-6));
    }
}

void TestCellExplanation::rejectsBadCells() {
    auto model = std::make_shared<const Model>(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 3));
    const TokenizedText src = matSource(*model);
    DecodingSession session(model, src);
    QVERIFY(session.forward());
    StepRecord rec = session.steps()[0];
    QVERIFY_THROWS_EXCEPTION(InputError, explainCell(*model, src.ids, rec, 0, -1));
    QVERIFY_THROWS_EXCEPTION(InputError, explainCell(*model, src.ids, rec, 0, int(src.ids.size())));
    const std::vector<int> shorter(src.ids.begin(), src.ids.end() - 1);
    QVERIFY_THROWS_EXCEPTION(InputError, explainCell(*model, shorter, rec, 0, 0));
    rec.query_state.clear();  // e.g. a step of a beam search, which keeps no state
    try {
        explainCell(*model, src.ids, rec, 0, 0);
        QFAIL("no exception");
    } catch (const InputError& e) {
        QVERIFY2(QString(e.what()).contains("decoder state"), e.what());
    }
}

ATTNVIZ_TEST_MAIN(TestCellExplanation)
#include "test_cell_explanation.moc"
