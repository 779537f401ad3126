// Transformer models through the decode API every model kind shares (core/decode/): the session's steps equal
// nn/transformer's forward bit for bit and the independent double reference (tests/support/reference_transformer)
// to float32 round-off; going back, forcing and branching recompute only what changed; forced decoding equals the
// reference on the whole input; beam width 1 equals greedy; the decode object's three attention keys have the
// docs/transformer.md's shapes and its `attention` is the last layer's cross-attention averaged over the heads.
#include "base/errors.h"
#include "decode/decoding.h"
#include "error_of.h"
#include "io/decode_json.h"
#include "model/model.h"
#include "nn/transformer.h"
#include "reference_transformer.h"
#include "test_models.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>

#include <cmath>
#include <memory>

using namespace attnviz;
using attnviz::testing::close;
using testing::RefTransformerDecoding;

using attnviz::testing::errorOf;

namespace {

// |a − b| ≤ tol · (1 + |b|): float32 round-off through a few layers.
std::shared_ptr<const Model> transformerModel(bool norm_first = false, int nhead = 2, int layers = 2, int maxlen = 0,
                                              uint64_t seed = 5, bool never_eos = false) {
    ModelConfig c;
    c.decoder = DecoderKind::Transformer;
    c.score = ScoreKind::ScaledDot;
    c.transformer = {8, nhead, layers, layers, 16, norm_first, norm_first ? Activation::Gelu : Activation::Relu};
    Model m =
        makeRandomTransformerModel(c, testing::smallSourceVocab(), testing::smallTargetVocab(), {seed, true}, maxlen);
    // Larger generator weights so that the distributions are peaked: greedy has no near ties to the reference.
    m.transformer.generator_weight *= 3.0f;
    if (never_eos) m.transformer.generator_bias[kEos] -= 100.0f;  // greedy runs to the length limit
    return std::make_shared<const Model>(std::move(m));
}

TokenizedText source(std::vector<int> words) {
    TokenizedText t;
    t.ids = {kSos};
    for (int w : words) t.ids.push_back(w);
    t.ids.push_back(kEos);
    return t;
}

TransformerParamsT<double> exactParams(const Model& m) {
    return castTransformerParams<double>(m.transformer, m.transformerShape());
}

// Step t of a decode against row t of a reference decoding of the same inputs: the record's log-probs, its
// `attention` row (the last layer's mean over heads) and every layer's and head's cross- and self-attention.
void compareWithReference(const StepRecord& rec, const Vec* log_probs, const RefTransformerDecoding& ref, int t) {
    if (log_probs)
        for (Eigen::Index v = 0; v < log_probs->size(); ++v)
            QVERIFY2(close((*log_probs)[v], ref.log_probs(t, v), 2e-5),
                     qPrintable(QString("step %1 token %2").arg(t).arg(v)));
    QVERIFY(close(rec.log_prob, ref.log_probs(t, rec.token), 2e-5));
    const size_t L = ref.cross.size(), H = ref.cross[0].size();
    QCOMPARE(rec.cross_attention.size(), L);
    for (size_t j = 0; j < rec.attention.size(); ++j) {
        double mean = 0;
        for (size_t h = 0; h < H; ++h) mean += ref.cross[L - 1][h](t, Eigen::Index(j)) / double(H);
        QVERIFY2(close(rec.attention[j], mean, 2e-5), qPrintable(QString("step %1 attention %2").arg(t).arg(j)));
    }
    for (size_t l = 0; l < L; ++l)
        for (size_t h = 0; h < H; ++h) {
            QCOMPARE(rec.self_attention[l].cols(), Eigen::Index(t + 1));
            for (Eigen::Index j = 0; j < rec.cross_attention[l].cols(); ++j)
                QVERIFY(close(rec.cross_attention[l](Eigen::Index(h), j), ref.cross[l][h](t, j), 2e-5));
            for (Eigen::Index j = 0; j <= t; ++j)
                QVERIFY(close(rec.self_attention[l](Eigen::Index(h), j), ref.self_attention[l][h](t, j), 2e-5));
        }
}

void requireSameMatrices(const std::vector<std::vector<Mat>>& a, const std::vector<std::vector<Mat>>& b) {
    QCOMPARE(a.size(), b.size());
    for (size_t l = 0; l < a.size(); ++l) {
        QCOMPARE(a[l].size(), b[l].size());
        for (size_t h = 0; h < a[l].size(); ++h) QVERIFY(a[l][h] == b[l][h]);
    }
}

void requireSameResult(const DecodeResult& a, const DecodeResult& b) {
    QCOMPARE(a.target_ids, b.target_ids);
    QCOMPARE(a.attention, b.attention);
    QCOMPARE(a.log_probs, b.log_probs);
    requireSameMatrices(a.cross_attention, b.cross_attention);
    requireSameMatrices(a.encoder_self_attention, b.encoder_self_attention);
    requireSameMatrices(a.decoder_self_attention, b.decoder_self_attention);
}

}  // namespace

class TestTransformerDecoding : public QObject {
    Q_OBJECT
private slots:
    void sessionEqualsForwardAndReference_data() {
        QTest::addColumn<bool>("norm_first");
        QTest::addColumn<int>("nhead");
        QTest::addColumn<int>("layers");
        QTest::newRow("post-LN, 2 heads, 2 layers") << false << 2 << 2;
        QTest::newRow("pre-LN gelu, 4 heads, 1 layer") << true << 4 << 1;
        QTest::newRow("post-LN, 1 head, 3 layers") << false << 1 << 3;
    }
    // Greedy through the session: bit for bit nn/transformer's steps, and the double reference that recomputes
    // the whole prefix at every step.
    void sessionEqualsForwardAndReference() {
        QFETCH(bool, norm_first);
        QFETCH(int, nhead);
        QFETCH(int, layers);
        const auto model = transformerModel(norm_first, nhead, layers);
        const TokenizedText src = source({5, 9, 4, 12, 7});
        DecodeOptions options;
        options.max_len = 9;
        options.top_k = 4;
        DecodingSession session(model, src, options);
        session.runToEnd();
        const std::vector<StepRecord>& steps = session.steps();
        QVERIFY(!steps.empty());

        const Transformer net(model->config.transformer, model->transformer);
        const TransformerEncoding enc = net.encode(src.ids);
        TransformerDecoderState state;
        const auto exact = exactParams(*model);
        const testing::RefTransformerGreedy ref =
            testing::referenceTransformerGreedy(model->config.transformer, exact, src.ids, options.max_len);
        QCOMPARE(int(steps.size()), int(ref.tokens.size()));
        for (size_t t = 0; t < steps.size(); ++t) {
            TransformerStep direct;
            net.step(enc, state, t == 0 ? kSos : steps[t - 1].token, direct);
            QCOMPARE(steps[t].token, ref.tokens[t]);
            QCOMPARE(steps[t].log_prob, direct.log_probs[steps[t].token]);
            for (size_t l = 0; l < direct.cross_attention.size(); ++l) {
                QVERIFY(steps[t].cross_attention[l] == direct.cross_attention[l]);
                QVERIFY(steps[t].self_attention[l] == direct.self_attention[l]);
            }
            compareWithReference(steps[t], &direct.log_probs, ref.steps[t], int(t));
            QCOMPARE(int(steps[t].top_k.size()), 4);
            QCOMPARE(steps[t].top_k[0].id, steps[t].token);
            double entropy = 0;
            for (float a : steps[t].attention) entropy -= a > 0 ? double(a) * std::log(double(a)) : 0.0;
            QVERIFY(std::abs(steps[t].entropy - entropy) < 1e-5);
        }
        requireSameMatrices(session.encoderSelfAttention(), enc.self_attention);
        const auto ref_enc = testing::referenceTransformerEncode(model->config.transformer, exact, src.ids);
        for (size_t l = 0; l < ref_enc.self_attention.size(); ++l)
            for (size_t h = 0; h < ref_enc.self_attention[l].size(); ++h)
                QVERIFY(
                    ((enc.self_attention[l][h].cast<double>() - ref_enc.self_attention[l][h]).cwiseAbs().maxCoeff()) <
                    2e-5);
    }

    // back() and forward() move over kept steps; force() recomputes its step and drops the rest; the branch
    // continues as a fresh decode of the forced prefix would (the reference on those inputs).
    void backForceAndBranch() {
        const auto model = transformerModel(false, 2, 2, 0, 5, true);
        const TokenizedText src = source({6, 8, 10});
        DecodeOptions options;
        options.max_len = 7;
        DecodingSession session(model, src, options);
        for (int i = 0; i < 4; ++i) QVERIFY(session.forward());
        QCOMPARE(session.computedStepCount(), 4);
        QVERIFY(session.back() && session.back());
        QCOMPARE(session.cursor(), 2);
        QVERIFY(session.forward());
        QCOMPARE(session.computedStepCount(), 4);  // kept, not recomputed

        const std::vector<StepRecord> before = session.steps();
        const int forced = before[1].token == 9 ? 10 : 9;
        session.force(1, forced);
        QCOMPARE(int(session.steps().size()), 2);
        QCOMPARE(session.cursor(), 2);
        QCOMPARE(session.steps()[1].token, forced);
        QVERIFY(session.steps()[1].forced);
        QCOMPARE(session.steps()[1].attention, before[1].attention);  // a step does not depend on its own output
        QVERIFY(session.steps()[0].cross_attention[1] == before[0].cross_attention[1]);
        session.runToEnd();

        std::vector<int> inputs = {kSos};
        for (size_t t = 0; t + 1 < session.steps().size(); ++t) inputs.push_back(session.steps()[t].token);
        const auto exact = exactParams(*model);
        const auto memory = testing::referenceTransformerEncode(model->config.transformer, exact, src.ids).memory;
        const RefTransformerDecoding ref =
            testing::referenceTransformerDecode(model->config.transformer, exact, memory, inputs);
        for (size_t t = 0; t < session.steps().size(); ++t)
            compareWithReference(session.steps()[t], nullptr, ref, int(t));

        // The same branch from a fresh session forced at step 1 gives the same bits.
        DecodingSession fresh(model, src, options);
        fresh.forward();
        fresh.force(1, forced);
        fresh.runToEnd();
        requireSameResult(resultFromSession(fresh), resultFromSession(session));
    }

    void forcedEqualsReferenceOnTheWholeInput() {
        const auto model = transformerModel(true, 2, 2);
        const TokenizedText src = source({4, 5, 6, 7});
        TokenizedText reference;
        reference.ids = {9, 1, 12, 5, kEos};
        const DecodeResult r = forcedDecode(*model, src, reference);
        QCOMPARE(r.target_ids, reference.ids);
        const auto exact = exactParams(*model);
        const auto memory = testing::referenceTransformerEncode(model->config.transformer, exact, src.ids).memory;
        const RefTransformerDecoding ref =
            testing::referenceTransformerDecode(model->config.transformer, exact, memory, {kSos, 9, 1, 12, 5});
        const int T = 5, S = 6;
        for (int t = 0; t < T; ++t)
            QVERIFY(close(r.log_probs[size_t(t)], ref.log_probs(t, reference.ids[size_t(t)]), 2e-5));
        QCOMPARE(int(r.cross_attention.size()), 2);
        for (int l = 0; l < 2; ++l)
            for (int h = 0; h < 2; ++h) {
                QCOMPARE(r.cross_attention[size_t(l)][size_t(h)].rows(), Eigen::Index(T));
                QCOMPARE(r.cross_attention[size_t(l)][size_t(h)].cols(), Eigen::Index(S));
                QVERIFY((r.cross_attention[size_t(l)][size_t(h)].cast<double>() - ref.cross[size_t(l)][size_t(h)])
                            .cwiseAbs()
                            .maxCoeff() < 2e-5);
                const Mat& self = r.decoder_self_attention[size_t(l)][size_t(h)];
                QVERIFY((self.cast<double>() - ref.self_attention[size_t(l)][size_t(h)]).cwiseAbs().maxCoeff() < 2e-5);
                for (int i = 0; i < T; ++i)
                    for (int j = i + 1; j < T; ++j) QCOMPARE(self(i, j), 0.0f);  // causal: exact zeros
                QCOMPARE(r.encoder_self_attention[size_t(l)][size_t(h)].rows(), Eigen::Index(S));
            }
    }

    void beamWidthOneEqualsGreedy() {
        for (uint64_t seed : {3u, 4u, 5u}) {
            const auto model = transformerModel(false, 2, 2, 0, seed);
            const TokenizedText src = source({5, 11, 8});
            DecodeOptions options;
            options.max_len = 8;
            const DecodeResult greedy = greedyDecode(*model, src, options);
            const BeamResult beam = beamSearch(*model, src, 1, options);
            requireSameResult(beam.best, greedy);
        }
    }

    // A wider beam's best hypothesis is the most probable finished one, and its numbers are those forced decoding
    // gives for its tokens.
    void widerBeamIsConsistentWithForcedDecoding() {
        const auto model = transformerModel(false, 2, 2, 0, 8);
        const TokenizedText src = source({7, 5, 9, 6});
        DecodeOptions options;
        options.max_len = 8;
        const BeamResult beam = beamSearch(*model, src, 3, options);
        QVERIFY(beam.finished.size() >= 1);
        for (int n : beam.finished) QVERIFY(beam.nodes[size_t(n)].total_log_prob <= beam.best.total_log_prob + 1e-9);
        TokenizedText reference;
        reference.ids = beam.best.target_ids;
        const DecodeResult forced = forcedDecode(*model, src, reference);
        for (size_t t = 0; t < forced.log_probs.size(); ++t)
            QVERIFY(close(beam.best.log_probs[t], forced.log_probs[t], 1e-6));
        requireSameMatrices(beam.best.cross_attention, forced.cross_attention);
        requireSameMatrices(beam.best.decoder_self_attention, forced.decoder_self_attention);
        QCOMPARE(beam.best.attention, forced.attention);
    }

    // A stored positional table of maxlen rows: a longer source is refused by name, and decoding stops at maxlen
    // target tokens (step i feeds position i).
    void storedTableBoundsLengths() {
        const auto model = transformerModel(false, 2, 1, 6);
        const QString error = errorOf([&] { (void)DecodingSession(model, source({4, 5, 6, 7, 8})); });
        QVERIFY2(error.contains("beyond the model's positional table (maxlen 6"), qPrintable(error));
        DecodeOptions options;
        options.max_len = 20;
        DecodingSession session(model, source({4, 5}), options);
        QCOMPARE(session.maxLength(), 6);
        const DecodeResult r = greedyDecode(*model, source({4, 5}), options);
        QVERIFY(r.target_ids.size() <= 6);
        TokenizedText reference;
        reference.ids = {4, 4, 4, 4, 4, 4, kEos};
        const QString forced = errorOf([&] { forcedDecode(*model, source({4, 5}), reference); });
        QVERIFY2(forced.contains("target: position 6 is beyond"), qPrintable(forced));
    }

    void decodeJsonHasTheSpecsKeys() {
        const auto model = transformerModel(false, 2, 2);
        DecodeOptions options;
        options.max_len = 5;
        const DecodeResult r = greedyDecode(*model, source({4, 5, 6}), options);
        const size_t T = r.target_ids.size(), S = 5;
        const nlohmann::json j = nlohmann::json::parse(decodeToJsonText(r, model->config));
        QCOMPARE(j["config"]["decoder"].get<std::string>(), std::string("transformer"));
        QCOMPARE(j["config"]["nhead"].get<int>(), 2);
        const auto& cross = j["cross_attention"];
        QCOMPARE(cross.size(), size_t(2));
        QCOMPARE(cross[1].size(), size_t(2));
        QCOMPARE(cross[1][0].size(), T);
        QCOMPARE(cross[1][0][0].size(), S);
        QCOMPARE(j["encoder_self_attention"][0][1].size(), S);
        QCOMPARE(j["encoder_self_attention"][0][1][0].size(), S);
        QCOMPARE(j["decoder_self_attention"][1][1].size(), T);
        QCOMPARE(j["decoder_self_attention"][1][1][0].size(), T);
        for (size_t i = 0; i < T; ++i)
            for (size_t s = 0; s < S; ++s) {
                const double mean = (cross[1][0][i][s].get<double>() + cross[1][1][i][s].get<double>()) / 2;
                QVERIFY(std::abs(j["attention"][i][s].get<double>() - mean) < 1e-7);
            }
        ModelConfig config;
        const DecodeResult back = decodeFromJson(j, &config);
        QVERIFY(config == model->config);
        requireSameResult(back, r);

        // An RNN decode has none of the three keys.
        const Model rnn = testing::smallModel(testing::smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 2);
        const nlohmann::json k = decodeToJson(greedyDecode(rnn, source({4, 5})), rnn.config);
        QVERIFY(!k.contains("cross_attention") && !k.contains("encoder_self_attention") &&
                !k.contains("decoder_self_attention"));
    }

    void badDecodeJsonShapesAreNamed() {
        const auto model = transformerModel();
        DecodeOptions options;
        options.max_len = 4;
        nlohmann::json j = decodeToJson(greedyDecode(*model, source({4}), options), model->config);
        j["decoder_self_attention"][0][1].erase(0);
        const QString error = errorOf([&] { decodeFromJson(j); });
        QVERIFY2(error.contains("\"decoder_self_attention\": every head must be"), qPrintable(error));
    }
};

ATTNVIZ_TEST_MAIN(TestTransformerDecoding)
#include "test_transformer_decoding.moc"
