// The attribution methods of docs/explain.md (core/explain/) against independent double-precision computations:
// gradient × input, the gradient's norm and integrated gradients against central differences of the plain
// references (tests/support/reference_model, reference_transformer) with respect to each source position's
// embedding; occlusion against the references' forced decodes of the occluded sources; norm from the references'
// encoder outputs and attention; rollout against a hand-worked three-token case. Every RNN variant (bahdanau and
// luong, each score, local spans, input feeding) and the Transformer (post-LN and pre-LN) is a row.
#include "decode/decoding.h"
#include "error_of.h"
#include "explain/explanation.h"
#include "model/transformer_params_ops.h"
#include "reference_model.h"
#include "reference_transformer.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>

#include <cmath>
#include <functional>
#include <memory>
#include <optional>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

using Rows = std::vector<DVec>;  // (S, E) one embedding per source position

// Distinct ids, so that a vocabulary row is one position's embedding: <sos> cat sat on the mat <eos>.
const std::vector<int> kSource = {kSos, 8, 9, 10, 7, 11, kEos};
const std::vector<int> kTarget = {5, 6, 4, 7, kEos};  // forced rows y_0 … y_4

struct Case {
    std::shared_ptr<Model> model;  // shared with the reference's functions
    // Every row's log-probabilities (V) from the independent reference, with the given source embeddings and ids.
    std::function<std::vector<DVec>(const Rows& embeddings, const std::vector<int>& ids)> log_probs;
    Rows embeddings;  // the model's e_j
    std::optional<Contrast> contrast;

    // f_t of docs/explain.md for every row.
    DVec f(const Rows& emb, const std::vector<int>& ids) const {
        const std::vector<DVec> lp = log_probs(emb, ids);
        DVec out;
        for (size_t t = 0; t < kTarget.size(); ++t) {
            double v = lp[t][size_t(kTarget[t])];
            if (contrast && contrast->row == int(t)) v -= lp[t][size_t(contrast->token)];
            out.push_back(v);
        }
        return out;
    }
};

// `iv`: the interventions the reference runs with (docs/explain.md): the decode explained is the intervened one.
Case rnnCase(const ModelConfig& config, const Interventions& iv = {}) {
    Case c{std::make_shared<Model>(smallModel(config, 11, 1.5f)), {}, {}, {}};
    RefInterventions ref{iv.knockout, {}};
    for (const AttendAt& a : iv.attend) ref.attend.emplace_back(a.row, a.position);
    const std::shared_ptr<const Model> m = c.model;
    for (int id : kSource) {
        DVec e;
        for (Eigen::Index k = 0; k < m->params.enc_embedding.cols(); ++k) e.push_back(m->params.enc_embedding(id, k));
        c.embeddings.push_back(e);
    }
    c.log_probs = [m, ref](const Rows& emb, const std::vector<int>& ids) {
        const RefDecode r = referenceForced(*m, ids, kTarget, &emb, ref);
        std::vector<DVec> lp;
        for (const RefStep& step : r.steps) lp.push_back(step.log_probs);
        return lp;
    };
    return c;
}

// The reference's own way to a head off: the head's columns of out_proj zeroed (o_h contributes nothing).
void zeroHeads(const TransformerConfig& c, const Interventions& iv, TransformerParamsT<double>& p) {
    for (const HeadRef& h : iv.heads_off) {
        const int dh = c.headDim(h.kind);
        auto& attn = h.kind == AttentionKind::EncoderSelf   ? p.encoder_layers[size_t(h.layer)].self_attn
                     : h.kind == AttentionKind::DecoderSelf ? p.decoder_layers[size_t(h.layer)].self_attn
                                                            : p.decoder_layers[size_t(h.layer)].multihead_attn;
        attn.out_proj_weight.middleCols(h.head * dh, dh).setZero();
    }
}

Case transformerCase(bool norm_first, const Interventions& iv = {}) {
    Case c{std::make_shared<Model>(smallTransformer(5)), {}, {}, {}};
    c.model->config.transformer.norm_first = norm_first;
    const std::shared_ptr<const Model> m = c.model;
    const auto exact = std::make_shared<TransformerParamsT<double>>(
        castTransformerParams<double>(m->transformer, m->transformerShape()));
    zeroHeads(m->config.transformer, iv, *exact);
    const std::vector<int> knockout = iv.knockout;
    for (int id : kSource) {
        DVec e;
        for (Eigen::Index k = 0; k < exact->src_embedding.cols(); ++k) e.push_back(exact->src_embedding(id, k));
        c.embeddings.push_back(e);
    }
    c.log_probs = [m, exact, knockout](const Rows& emb, const std::vector<int>& ids) {
        TransformerParamsT<double> p = *exact;
        for (size_t j = 0; j < ids.size(); ++j)  // the ids are distinct: row ids[j] is position j's embedding
            for (size_t k = 0; k < emb[j].size(); ++k) p.src_embedding(ids[j], Eigen::Index(k)) = emb[j][k];
        const auto enc = referenceTransformerEncode(m->config.transformer, p, ids);
        std::vector<int> inputs = {kSos};
        inputs.insert(inputs.end(), kTarget.begin(), kTarget.end() - 1);
        const auto dec = referenceTransformerDecode(m->config.transformer, p, enc.memory, inputs, knockout);
        std::vector<DVec> lp;
        for (Eigen::Index t = 0; t < dec.log_probs.rows(); ++t)
            lp.emplace_back(dec.log_probs.row(t).data(), dec.log_probs.row(t).data() + dec.log_probs.cols());
        return lp;
    };
    return c;
}

Case caseNamed(const QString& name) {
    const auto rnn = [](DecoderKind d, ScoreKind s, SpanKind span = SpanKind::Global, bool feed = false) {
        return rnnCase(smallConfig(d, s, span, feed));
    };
    if (name == "bahdanau additive") return rnn(DecoderKind::Bahdanau, ScoreKind::Additive);
    if (name == "bahdanau dot") return rnn(DecoderKind::Bahdanau, ScoreKind::Dot);
    if (name == "bahdanau scaled dot") return rnn(DecoderKind::Bahdanau, ScoreKind::ScaledDot);
    if (name == "bahdanau general") return rnn(DecoderKind::Bahdanau, ScoreKind::General);
    if (name == "luong general") return rnn(DecoderKind::Luong, ScoreKind::General);
    if (name == "luong dot, input feeding") return rnn(DecoderKind::Luong, ScoreKind::Dot, SpanKind::Global, true);
    if (name == "luong additive, local-m") return rnn(DecoderKind::Luong, ScoreKind::Additive, SpanKind::LocalM);
    if (name == "luong general, local-p") return rnn(DecoderKind::Luong, ScoreKind::General, SpanKind::LocalP);
    if (name == "luong scaled dot, local-p, input feeding")
        return rnn(DecoderKind::Luong, ScoreKind::ScaledDot, SpanKind::LocalP, true);
    if (name == "transformer post-LN") return transformerCase(false);
    return transformerCase(true);
}

void addCases() {
    QTest::addColumn<QString>("name");
    for (const char* n :
         {"bahdanau additive", "bahdanau dot", "bahdanau scaled dot", "bahdanau general", "luong general",
          "luong dot, input feeding", "luong additive, local-m", "luong general, local-p",
          "luong scaled dot, local-p, input feeding", "transformer post-LN", "transformer pre-LN"})
        QTest::newRow(n) << QString(n);
}

DecodeResult forced(const Model& m, const Interventions& iv = {}) {
    TokenizedText src, ref;
    for (int id : kSource) {
        src.ids.push_back(id);
        src.tokens.push_back(m.source_vocab.token(id));
    }
    for (int id : kTarget) {
        ref.ids.push_back(id);
        ref.tokens.push_back(m.target_vocab.token(id));
    }
    DecodeOptions o;
    o.interventions = iv;
    return forcedDecode(m, src, ref, o);
}

// The interventions of each kind a model can take, on the decode of kSource/kTarget: RNN models a knockout and an
// attended row, Transformers a knockout and a head off of each attention.
Interventions interventionsFor(const ModelConfig& config) {
    Interventions iv;
    iv.knockout = {2};
    if (config.isTransformer())
        iv.heads_off = {
            {AttentionKind::Cross, 1, 1}, {AttentionKind::EncoderSelf, 0, 0}, {AttentionKind::DecoderSelf, 0, 1}};
    else
        iv.attend = {{1, 4}};
    return iv;
}

// The case `name` with its model's interventions in the reference.
Case intervenedCase(const QString& name) {
    const Case plain = caseNamed(name);
    const Interventions iv = interventionsFor(plain.model->config);
    if (plain.model->config.isTransformer()) return transformerCase(name.endsWith("pre-LN"), iv);
    return rnnCase(plain.model->config, iv);
}

// The directional derivative of f along position j's own embedding, at embeddings `at`: Σ_k e_jk ∂f/∂e_jk.
DVec alongOwnEmbedding(const Case& c, const Rows& at, size_t j) {
    constexpr double h = 1e-5;
    Rows plus = at, minus = at;
    for (size_t k = 0; k < at[j].size(); ++k) {
        plus[j][k] += h * c.embeddings[j][k];
        minus[j][k] -= h * c.embeddings[j][k];
    }
    const DVec fp = c.f(plus, kSource), fm = c.f(minus, kSource);
    DVec d(fp.size());
    for (size_t t = 0; t < d.size(); ++t) d[t] = (fp[t] - fm[t]) / (2 * h);
    return d;
}

// Compares a (T, S) matrix against reference[j][t], to float32 round-off of quantities of order 1.
QString compare(const Mat& got, const std::vector<DVec>& by_position, double tol) {
    for (size_t j = 0; j < by_position.size(); ++j)
        for (size_t t = 0; t < by_position[j].size(); ++t) {
            const double want = by_position[j][t], have = got(Eigen::Index(t), Eigen::Index(j));
            if (!(std::abs(have - want) <= tol * (1 + std::abs(want))))
                return QString("row %1, position %2: %3, reference %4").arg(t).arg(j).arg(have).arg(want);
        }
    return {};
}

// The occlusion matrix of a case from its reference: f_t(x) − f_t(x with id_j replaced by <unk>), by position.
std::vector<DVec> referenceOcclusion(const Case& c) {
    const DVec f = c.f(c.embeddings, kSource);
    std::vector<DVec> want;
    for (size_t j = 0; j < kSource.size(); ++j) {
        std::vector<int> ids = kSource;
        ids[j] = kUnk;
        Rows emb = c.embeddings;  // position j now reads <unk>'s embedding
        const bool transformer = c.model->config.isTransformer();
        for (size_t k = 0; k < emb[j].size(); ++k)
            emb[j][k] = transformer ? double(c.model->transformer.src_embedding(kUnk, Eigen::Index(k)))
                                    : double(c.model->params.enc_embedding(kUnk, Eigen::Index(k)));
        const DVec fj = c.f(emb, ids);
        DVec d(f.size());
        for (size_t t = 0; t < f.size(); ++t) d[t] = f[t] - fj[t];
        want.push_back(d);
    }
    return want;
}

// IG with m steps against the case's reference: the path's central differences along each position's own
// embedding at α_i e, averaged, and ig_delta = f(e) − f(0). "" or the first row and position that differ.
QString integratedGradientsAgainstReference(const Case& c, const Explanation& e, int m) {
    std::vector<DVec> want(kSource.size(), DVec(kTarget.size(), 0.0));
    for (int i = 1; i <= m; ++i) {
        const double alpha = (i - 0.5) / m;
        Rows at = c.embeddings;
        for (DVec& row : at)
            for (double& v : row) v *= alpha;
        for (size_t j = 0; j < kSource.size(); ++j) {
            const DVec d = alongOwnEmbedding(c, at, j);
            for (size_t t = 0; t < d.size(); ++t) want[j][t] += d[t] / m;
        }
    }
    if (const QString failure = compare(e.values, want, 2e-4); !failure.isEmpty()) return failure;
    Rows zero = c.embeddings;
    for (DVec& row : zero) std::fill(row.begin(), row.end(), 0.0);
    const DVec f1 = c.f(c.embeddings, kSource), f0 = c.f(zero, kSource);
    if (e.ig_delta.size() != kTarget.size()) return QString("%1 ig_delta values").arg(e.ig_delta.size());
    for (size_t t = 0; t < kTarget.size(); ++t)
        if (!(std::abs(e.ig_delta[t] - (f1[t] - f0[t])) < 1e-4 * (1 + std::abs(f1[t] - f0[t]))))
            return QString("ig_delta row %1: %2 vs %3").arg(t).arg(e.ig_delta[t]).arg(f1[t] - f0[t]);
    return {};
}

}  // namespace

class TestExplain : public QObject {
    Q_OBJECT
private slots:
    void gradientTimesInputEqualsCentralDifferences_data() { addCases(); }
    void gradientTimesInputEqualsCentralDifferences();
    void gradientNormEqualsCentralDifferences_data() { addCases(); }
    void gradientNormEqualsCentralDifferences();
    void integratedGradientsEqualCentralDifferencesAlongThePath_data() { addCases(); }
    void integratedGradientsEqualCentralDifferencesAlongThePath();
    void integratedGradientsAreCompleteAt64Steps_data();
    void integratedGradientsAreCompleteAt64Steps();
    void occlusionEqualsForcedDecodesOfTheOccludedSources_data() { addCases(); }
    void occlusionEqualsForcedDecodesOfTheOccludedSources();
    void contrastExplainsTheDifferenceOfTwoLogProbs_data() { addCases(); }
    void contrastExplainsTheDifferenceOfTwoLogProbs();
    void gradientsAndOcclusionExplainTheIntervenedModel_data() { addCases(); }
    void gradientsAndOcclusionExplainTheIntervenedModel();
    void integratedGradientsFollowTheIntervenedModel_data();
    void integratedGradientsFollowTheIntervenedModel();
    void transformerNormLeavesOutTheHeadsOff();
    void rnnNormIsAttentionTimesEncoderOutputNorm();
    void transformerNormWeighsEachHeadsValues();
    void rolloutOfAHandWorkedThreeTokenCase();
    void methodListsNameWhatIsWrong();
};

void TestExplain::gradientTimesInputEqualsCentralDifferences() {
    QFETCH(QString, name);
    const Case c = caseNamed(name);
    const Explanation e = explainDecode(*c.model, forced(*c.model), ExplainMethod::GradInput);
    QCOMPARE(e.values.rows(), Eigen::Index(kTarget.size()));
    QCOMPARE(e.values.cols(), Eigen::Index(kSource.size()));
    std::vector<DVec> want;
    for (size_t j = 0; j < kSource.size(); ++j) want.push_back(alongOwnEmbedding(c, c.embeddings, j));
    const QString failure = compare(e.values, want, 2e-4);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestExplain::gradientNormEqualsCentralDifferences() {
    QFETCH(QString, name);
    const Case c = caseNamed(name);
    const Explanation e = explainDecode(*c.model, forced(*c.model), ExplainMethod::GradNorm);
    constexpr double h = 1e-5;
    std::vector<DVec> want(kSource.size(), DVec(kTarget.size(), 0.0));
    for (size_t j = 0; j < kSource.size(); ++j) {
        for (size_t k = 0; k < c.embeddings[j].size(); ++k) {
            Rows plus = c.embeddings, minus = c.embeddings;
            plus[j][k] += h;
            minus[j][k] -= h;
            const DVec fp = c.f(plus, kSource), fm = c.f(minus, kSource);
            for (size_t t = 0; t < kTarget.size(); ++t) want[j][t] += std::pow((fp[t] - fm[t]) / (2 * h), 2);
        }
        for (double& v : want[j]) v = std::sqrt(v);
    }
    const QString failure = compare(e.values, want, 2e-4);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestExplain::integratedGradientsEqualCentralDifferencesAlongThePath() {
    QFETCH(QString, name);
    const Case c = caseNamed(name);
    constexpr int m = 6;
    ExplainOptions o;
    o.ig_steps = m;
    const Explanation e = explainDecode(*c.model, forced(*c.model), ExplainMethod::IntegratedGradients, o);
    const QString failure = integratedGradientsAgainstReference(c, e, m);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    QCOMPARE(e.ig_delta.size(), kTarget.size());
}

// Completeness needs f smooth along the path: a local-p span's window moves with the decoder state, so positions
// enter and leave it as α grows (f jumps), and a relu Transformer's kinks slow the midpoint rule to O(1/m). The
// smooth variants reach 1 % at 64 steps (gelu for the Transformer); relu Transformers at 256.
void TestExplain::integratedGradientsAreCompleteAt64Steps_data() {
    QTest::addColumn<QString>("name");
    QTest::addColumn<int>("steps");
    for (const char* n : {"bahdanau additive", "bahdanau dot", "bahdanau scaled dot", "bahdanau general",
                          "luong general", "luong dot, input feeding", "luong additive, local-m",
                          "transformer post-LN, gelu", "transformer pre-LN, gelu"})
        QTest::newRow(n) << QString(n) << 64;
    QTest::newRow("transformer post-LN, relu, 256 steps") << QString("transformer post-LN") << 256;
    QTest::newRow("transformer pre-LN, relu, 256 steps") << QString("transformer pre-LN") << 256;
}

void TestExplain::integratedGradientsAreCompleteAt64Steps() {
    QFETCH(QString, name);
    QFETCH(int, steps);
    const bool gelu = name.endsWith(", gelu");
    Case c = caseNamed(gelu ? name.chopped(6) : name);
    if (gelu) c.model->config.transformer.activation = Activation::Gelu;
    ExplainOptions o;
    o.ig_steps = steps;
    const Explanation e = explainDecode(*c.model, forced(*c.model), ExplainMethod::IntegratedGradients, o);
    for (int t = 0; t < int(kTarget.size()); ++t) {
        const double delta = e.ig_delta[size_t(t)];
        QVERIFY2(
            std::abs(completenessGap(e, t)) <= 0.01 * std::abs(delta) + 1e-4,
            qPrintable(QString("row %1: Σ R = %2, f(e) − f(0) = %3").arg(t).arg(e.values.row(t).sum()).arg(delta)));
    }
}

void TestExplain::occlusionEqualsForcedDecodesOfTheOccludedSources() {
    QFETCH(QString, name);
    const Case c = caseNamed(name);
    const Explanation e = explainDecode(*c.model, forced(*c.model), ExplainMethod::Occlusion);
    const QString failure = compare(e.values, referenceOcclusion(c), 2e-4);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestExplain::contrastExplainsTheDifferenceOfTwoLogProbs() {
    QFETCH(QString, name);
    Case c = caseNamed(name);
    c.contrast = Contrast{2, 9};  // at row 2, why y_2 and not token 9: f_2 = log p(y_2) − log p(9)
    ExplainOptions o;
    o.contrast = c.contrast;
    const Explanation e = explainDecode(*c.model, forced(*c.model), ExplainMethod::GradInput, o);
    std::vector<DVec> want;
    for (size_t j = 0; j < kSource.size(); ++j) want.push_back(alongOwnEmbedding(c, c.embeddings, j));
    const QString failure = compare(e.values, want, 2e-4);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    // and row 2 differs from the plain explanation's, which the other rows equal
    const Explanation plain = explainDecode(*c.model, forced(*c.model), ExplainMethod::GradInput);
    QVERIFY((e.values.row(2) - plain.values.row(2)).cwiseAbs().maxCoeff() > 1e-3);
    QVERIFY((e.values.row(1) - plain.values.row(1)).cwiseAbs().maxCoeff() < 1e-6);
}

// With interventions, the methods that run the model again run the intervened one: gradient × input and occlusion
// equal the reference run with the same knockout, attended row or heads off, and differ from the plain model's.
void TestExplain::gradientsAndOcclusionExplainTheIntervenedModel() {
    QFETCH(QString, name);
    const Case c = intervenedCase(name);
    ExplainOptions o;
    o.interventions = interventionsFor(c.model->config);
    const DecodeResult d = forced(*c.model, o.interventions);
    const Explanation g = explainDecode(*c.model, d, ExplainMethod::GradInput, o);
    std::vector<DVec> want;
    for (size_t j = 0; j < kSource.size(); ++j) want.push_back(alongOwnEmbedding(c, c.embeddings, j));
    QString failure = compare(g.values, want, 2e-4);
    QVERIFY2(failure.isEmpty(), qPrintable("grad_input, " + failure));
    const Explanation occ = explainDecode(*c.model, d, ExplainMethod::Occlusion, o);
    failure = compare(occ.values, referenceOcclusion(c), 2e-4);
    QVERIFY2(failure.isEmpty(), qPrintable("occlusion, " + failure));
    const Explanation plain = explainDecode(*c.model, forced(*c.model), ExplainMethod::GradInput);
    QVERIFY2((g.values - plain.values).cwiseAbs().maxCoeff() > 1e-3, "the interventions changed nothing");
}

void TestExplain::integratedGradientsFollowTheIntervenedModel_data() {
    QTest::addColumn<QString>("name");
    for (const char* n : {"bahdanau additive", "luong scaled dot, local-p, input feeding", "transformer pre-LN"})
        QTest::newRow(n) << QString(n);
}

// IG of an intervened decode: the path's gradients and f(e) − f(0) are the intervened reference's.
void TestExplain::integratedGradientsFollowTheIntervenedModel() {
    QFETCH(QString, name);
    const Case c = intervenedCase(name);
    constexpr int m = 3;
    ExplainOptions o;
    o.ig_steps = m;
    o.interventions = interventionsFor(c.model->config);
    const Explanation e =
        explainDecode(*c.model, forced(*c.model, o.interventions), ExplainMethod::IntegratedGradients, o);
    const QString failure = integratedGradientsAgainstReference(c, e, m);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestExplain::rnnNormIsAttentionTimesEncoderOutputNorm() {
    const Case c = rnnCase(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive));
    const DecodeResult d = forced(*c.model);
    const Explanation e = explainDecode(*c.model, d, ExplainMethod::Norm);
    const RefEncoding enc = referenceEncode(*c.model, kSource);
    for (size_t t = 0; t < kTarget.size(); ++t) {
        DVec n(kSource.size());
        double sum = 0;
        for (size_t j = 0; j < kSource.size(); ++j) {
            double norm = 0;
            for (double v : enc.h[j]) norm += v * v;
            n[j] = d.attention[t][j] * std::sqrt(norm);
            sum += n[j];
        }
        for (size_t j = 0; j < kSource.size(); ++j)
            QVERIFY2(std::abs(e.values(Eigen::Index(t), Eigen::Index(j)) - n[j] / sum) < 1e-5,
                     qPrintable(QString("row %1, position %2").arg(t).arg(j)));
        QVERIFY(std::abs(e.values.row(Eigen::Index(t)).sum() - 1.0f) < 1e-5);
    }
}

// Norm of a Transformer's decode made with `iv` against the reference's sum over heads (a head off has its out_proj
// columns zeroed there, so it adds nothing; the encoder's heads off change the memory).
QString transformerNormAgainstReference(const Interventions& iv) {
    const Case c = transformerCase(false);
    const DecodeResult d = forced(*c.model, iv);
    ExplainOptions o;
    o.interventions = iv;
    const Explanation e = explainDecode(*c.model, d, ExplainMethod::Norm, o);
    const TransformerConfig& tc = c.model->config.transformer;
    auto p = castTransformerParams<double>(c.model->transformer, c.model->transformerShape());
    zeroHeads(tc, iv, p);
    const auto enc = referenceTransformerEncode(tc, p, kSource);
    std::vector<int> inputs = {kSos};
    inputs.insert(inputs.end(), kTarget.begin(), kTarget.end() - 1);
    const auto dec = referenceTransformerDecode(tc, p, enc.memory, inputs, iv.knockout);
    const int dm = tc.d_model, dh = dm / tc.decoder_nhead;
    const auto& attn = p.decoder_layers.back().multihead_attn;
    for (size_t t = 0; t < kTarget.size(); ++t) {
        DVec n(kSource.size());
        double sum = 0;
        for (size_t j = 0; j < kSource.size(); ++j) {
            DVec out(size_t(dm), 0.0);
            for (int h = 0; h < tc.decoder_nhead; ++h) {
                const double a = dec.cross.back()[size_t(h)](Eigen::Index(t), Eigen::Index(j));
                for (int r = 0; r < dh; ++r) {  // v = W_V^h m_j + b_V^h, then W_O's columns of head h
                    double v = attn.in_proj_bias(2 * dm + h * dh + r);
                    for (int k = 0; k < dm; ++k)
                        v += attn.in_proj_weight(2 * dm + h * dh + r, k) * enc.memory(Eigen::Index(j), k);
                    for (int o = 0; o < dm; ++o) out[size_t(o)] += a * attn.out_proj_weight(o, h * dh + r) * v;
                }
            }
            double norm = 0;
            for (double v : out) norm += v * v;
            n[j] = std::sqrt(norm);
            sum += n[j];
        }
        for (size_t j = 0; j < kSource.size(); ++j) {
            const double have = e.values(Eigen::Index(t), Eigen::Index(j));
            if (!(std::abs(have - n[j] / sum) < 1e-4))
                return QString("row %1, position %2: %3 vs %4").arg(t).arg(j).arg(have).arg(n[j] / sum);
        }
    }
    return {};
}

void TestExplain::transformerNormWeighsEachHeadsValues() {
    const QString failure = transformerNormAgainstReference({});
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
}

void TestExplain::transformerNormLeavesOutTheHeadsOff() {
    const Interventions iv = interventionsFor(smallTransformer(5).config);
    const QString failure = transformerNormAgainstReference(iv);
    QVERIFY2(failure.isEmpty(), qPrintable(failure));
    // and the head off made a difference: the plain model's norm is not the intervened one's
    const Case c = transformerCase(false);
    ExplainOptions o;
    o.interventions = iv;
    const Explanation with = explainDecode(*c.model, forced(*c.model, iv), ExplainMethod::Norm, o);
    const Explanation without = explainDecode(*c.model, forced(*c.model, iv), ExplainMethod::Norm);
    QVERIFY((with.values - without.values).cwiseAbs().maxCoeff() > 1e-3);
}

void TestExplain::rolloutOfAHandWorkedThreeTokenCase() {
    // C (2 rows, 3 positions); layer 1: heads I and P (a cyclic shift); layer 2: one head M sending rows 0 and 1 to
    // position 0. Â¹ = ¾ I + ¼ P, Â² = ½ M + ½ I; rollout = C · Â² · Â¹, worked by hand:
    // row 0: [.5 .25 .25] Â² = [.625 .125 .25], then Â¹: [.53125 .25 .21875]; row 1: [0 1 0] → [.375 .5 .125].
    const Model model = smallTransformer(1);
    DecodeResult d;
    d.source_ids = {kSos, 4, kEos};
    d.target_ids = {5, kEos};
    d.attention = {{0.5f, 0.25f, 0.25f}, {0.0f, 1.0f, 0.0f}};
    d.cross_attention = {{Mat::Zero(2, 3)}};
    Mat I = Mat::Identity(3, 3), P(3, 3), M(3, 3);
    P << 0, 1, 0, 0, 0, 1, 1, 0, 0;
    M << 1, 0, 0, 1, 0, 0, 0, 0, 1;
    d.encoder_self_attention = {{I, P}, {M}};
    const Explanation e = explainDecode(model, d, ExplainMethod::Rollout);
    Mat want(2, 3);
    want << 0.53125f, 0.25f, 0.21875f, 0.375f, 0.5f, 0.125f;
    QVERIFY2((e.values - want).cwiseAbs().maxCoeff() < 1e-6, "rollout differs from the hand-worked matrix");
}

void TestExplain::methodListsNameWhatIsWrong() {
    const Model rnn = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 3);
    const Model transformer = smallTransformer(3);
    QCOMPARE(parseMethodList("all", rnn.config).size(), size_t(6));
    QCOMPARE(parseMethodList("all", transformer.config).size(), size_t(7));
    const std::vector<ExplainMethod> two = parseMethodList("ig,attention,ig", rnn.config);
    QCOMPARE(two.size(), size_t(2));
    QCOMPARE(two[0], ExplainMethod::IntegratedGradients);
    QVERIFY(errorOf([&] { parseMethodList("rollout", rnn.config); }).contains("needs a Transformer"));
    QVERIFY(
        errorOf([&] { parseMethodList("attention,gradient", rnn.config); }).contains("unknown method \"gradient\""));
    QVERIFY(errorOf([&] {
                explainDecode(rnn, forced(rnn), ExplainMethod::GradInput, {32, Contrast{9, 5}, {}});
            }).contains("contrast row 9"));
    QVERIFY(errorOf([&] {
                explainDecode(rnn, forced(rnn), ExplainMethod::IntegratedGradients, {0, {}, {}});
            }).contains("--ig-steps"));
}

ATTNVIZ_TEST_MAIN(TestExplain)
#include "test_explain.moc"
