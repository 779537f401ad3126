// Interventions (docs/explain.md): every intervened decode against an independent computation. Knockout and attend
// of the RNN kinds against the double-precision reference with the masked scores and the one-hot row
// (tests/support/reference_model.h), for every decoder × score × span × input feeding and both bahdanau steps;
// knockout of a Transformer against reference_transformer's masked cross-attention; a Transformer head off against
// the plain decode of a model file whose head's out_proj columns are zeroed, for each kind of attention; each
// combined with forcing (forced decoding, prefixDecode's "what if") and beam search; the refusals.
#include "base/errors.h"
#include "decode/beam_hypothesis.h"
#include "decode/decoding.h"
#include "decode/on_path.h"
#include "decode/prefix_decode.h"
#include "decode_variants.h"
#include "error_of.h"
#include "io/model_file.h"
#include "reference_model.h"
#include "reference_transformer.h"
#include "test_models.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>
#include <algorithm>
#include <cmath>
#include <limits>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// |a − b| ≤ tol · (1 + |b|): float32 round-off against the double reference.
RefInterventions toRef(const Interventions& iv) {
    RefInterventions r;
    r.knockout = iv.knockout;
    for (const AttendAt& a : iv.attend) r.attend.emplace_back(a.row, a.position);
    return r;
}

// Row i of a decode (attention, raw scores, log-prob of its token) against the reference's step i: knocked-out
// scores are −∞ in both, scores outside a local window NaN in both.
void compareRow(const std::vector<float>& attention, const std::vector<float>& scores, float log_prob, int token,
                const RefStep& e, size_t i) {
    for (size_t j = 0; j < attention.size(); ++j) {
        QVERIFY2(
            close(attention[j], e.attention[j], 1e-5),
            qPrintable(QString("row %1 a_%2 = %3, reference %4").arg(i).arg(j).arg(attention[j]).arg(e.attention[j])));
        if (std::isnan(e.scores[j]) || std::isinf(e.scores[j]))
            QVERIFY2(
                scores[j] == float(e.scores[j]) || (std::isnan(scores[j]) && std::isnan(e.scores[j])),
                qPrintable(QString("row %1 e_%2 = %3, reference %4").arg(i).arg(j).arg(scores[j]).arg(e.scores[j])));
        else
            QVERIFY2(close(scores[j], e.scores[j], 1e-5), qPrintable(QString("row %1 e_%2").arg(i).arg(j)));
    }
    QVERIFY2(
        close(log_prob, e.log_probs[size_t(token)], 1e-5),
        qPrintable(QString("row %1 log p = %2, reference %3").arg(i).arg(log_prob).arg(e.log_probs[size_t(token)])));
}

// A greedy session with `iv` on the row's path against the reference's greedy decode with the same interventions:
// the same tokens, and every row (with its context) the reference's.
void greedyMatchesReference(const Interventions& iv) {
    const ModelConfig cfg = fetchConfig();
    for (uint64_t seed : {11u, 12u}) {
        auto model = std::make_shared<const Model>(smallModel(cfg, seed, 3.0f));
        const TokenizedText src = sourceOf(*model, kMatSentence);
        const RowPath row = fetchPath(*model);
        DecodeOptions opt;
        opt.max_len = 10;
        opt.interventions = iv;
        DecodingSession session = detail::SessionAccess::session(model, src, opt, row.path);
        session.runToEnd();
        const RefDecode greedy = referenceGreedy(*model, src.ids, opt.max_len, toRef(iv));
        std::vector<int> tokens;
        for (const StepRecord& r : session.steps()) tokens.push_back(r.token);
        QCOMPARE(tokens, greedy.tokens);
        const RefDecode e = referenceForced(*model, src.ids, tokens, nullptr, toRef(iv));
        for (size_t i = 0; i < tokens.size(); ++i) {
            const StepRecord& r = session.steps()[i];
            compareRow(r.attention, r.scores, r.log_prob, r.token, e.steps[i], i);
            if (QTest::currentTestFailed()) return;
            for (size_t k = 0; k < r.context.size(); ++k)
                QVERIFY2(close(r.context[k], e.steps[i].context[k], 1e-5),
                         qPrintable(QString("row %1 c_%2").arg(i).arg(k)));
        }
    }
}

TokenizedText referenceOf(const Model& model) {
    TokenizedText ref;
    for (const char* w : {"猫", "坐", "在", "垫子", "上", "。"}) {
        ref.tokens.push_back(w);
        ref.ids.push_back(model.target_vocab.id(w));
    }
    ref.tokens.push_back("<eos>");
    ref.ids.push_back(kEos);
    return ref;
}

}  // namespace

class TestInterventions : public QObject {
    Q_OBJECT

private slots:
    void knockoutMatchesMaskedReference_data() { addAllVariants(); }
    void knockoutMatchesMaskedReference();
    void everyPositionKnockedOutGivesZeroRows_data() { addAllVariants(); }
    void everyPositionKnockedOutGivesZeroRows();
    void attendMatchesOneHotReference_data() { addAllVariants(); }
    void attendMatchesOneHotReference();
    void forcedWithInterventionsMatchesReference_data() { addAllVariants(); }
    void forcedWithInterventionsMatchesReference();
    void whatIfPrefixWithInterventionsMatchesReference();
    void beamWithInterventionsMatchesReference();
    void transformerKnockoutMatchesMaskedReference();
    void headOffEqualsZeroedOutProjColumns_data();
    void headOffEqualsZeroedOutProjColumns();
    void headOffInBeamAndForcedEqualsZeroedModel();
    void emptyInterventionsChangeNothing();
    void refusesWhatAModelCannotTake();
    void aSecondModelTakesWhatItCan();
};

void TestInterventions::knockoutMatchesMaskedReference() { greedyMatchesReference({{2, 5}, {}, {}}); }

// S = 9 positions all knocked out: every row all zeros with context 0 (local windows included), and the decode still
// follows the reference (the logits from a zero context).
void TestInterventions::everyPositionKnockedOutGivesZeroRows() {
    greedyMatchesReference({{0, 1, 2, 3, 4, 5, 6, 7, 8}, {}, {}});
    const auto model = std::make_shared<const Model>(smallModel(fetchConfig(), 11, 3.0f));
    DecodeOptions opt;
    opt.max_len = 4;
    opt.interventions.knockout = {0, 1, 2, 3, 4, 5, 6, 7, 8};
    DecodingSession session(model, sourceOf(*model, kMatSentence), opt);
    session.runToEnd();
    for (const StepRecord& r : session.steps()) {
        for (float a : r.attention) QCOMPARE(a, 0.0f);
        for (float c : r.context) QCOMPARE(c, 0.0f);
    }
}

// Row 0 one-hot at position 3 and row 2 at position 6 (outside a local_m window of row 2: one-hot all the same), with
// position 5 knocked out elsewhere.
void TestInterventions::attendMatchesOneHotReference() { greedyMatchesReference({{5}, {{0, 3}, {2, 6}}, {}}); }

void TestInterventions::forcedWithInterventionsMatchesReference() {
    const Model model = smallModel(fetchConfig(), 21, 2.5f);
    const TokenizedText src = sourceOf(model, kMatSentence);
    const TokenizedText ref = referenceOf(model);
    const Interventions iv{{1, 4}, {{1, 7}, {3, 0}}, {}};
    const DecodeResult r = detail::forcedDecode(model, src, ref, fetchPath(model).path, iv);
    const RefDecode e = referenceForced(model, src.ids, ref.ids, nullptr, toRef(iv));
    QCOMPARE(r.target_ids, ref.ids);
    for (size_t i = 0; i < ref.ids.size(); ++i)
        compareRow(r.attention[i], r.scores[i], r.log_probs[i], ref.ids[i], e.steps[i], i);
    QVERIFY(close(r.total_log_prob, e.total_log_prob, 1e-5));
}

// The window's "what if": two forced tokens, then greedy, on a model with a knockout and an attend after the prefix.
void TestInterventions::whatIfPrefixWithInterventionsMatchesReference() {
    for (DecoderKind kind : {DecoderKind::Bahdanau, DecoderKind::Luong}) {
        const auto model = std::make_shared<const Model>(smallModel(smallConfig(kind, ScoreKind::General), 12, 3.0f));
        PrefixDecodeInput in;
        in.source = sourceOf(*model, kMatSentence);
        in.forced = {model->target_vocab.id("垫子"), model->target_vocab.id("猫")};
        in.options.max_len = 8;
        in.options.interventions = {{3}, {{3, 2}}, {}};
        const PrefixDecoding out = prefixDecode(model, in);
        std::vector<int> tokens = out.result.target_ids;
        QCOMPARE(std::vector<int>(tokens.begin(), tokens.begin() + 2), in.forced);
        const RefDecode e = referenceForced(*model, in.source.ids, tokens, nullptr, toRef(in.options.interventions));
        for (size_t i = 0; i < tokens.size(); ++i) {
            compareRow(out.result.attention[i], out.result.scores[i], out.result.log_probs[i], tokens[i], e.steps[i],
                       i);
            if (i < 2) continue;  // after the prefix: the reference's argmax (never <pad>/<sos>)
            const auto& lp = e.steps[i].log_probs;
            int best = kUnk;
            for (int v = kUnk; v < int(lp.size()); ++v)
                if (v != kSos && lp[size_t(v)] > lp[size_t(best)]) best = v;
            QCOMPARE(tokens[i], best);
        }
    }
}

// Beam search with interventions: width 1 is the intervened greedy decode; the best of width 3 has the reference's
// rows and log-probs along its tokens, and so has any hypothesis's decode object (hypothesisDecode, forced).
void TestInterventions::beamWithInterventionsMatchesReference() {
    for (DecoderKind kind : {DecoderKind::Bahdanau, DecoderKind::Luong}) {
        const Model model = smallModel(smallConfig(kind, ScoreKind::Additive), 13, 3.0f);
        const TokenizedText src = sourceOf(model, kMatSentence);
        DecodeOptions opt;
        opt.max_len = 8;
        opt.interventions = {{2, 6}, {{1, 4}}, {}};
        const DecodeResult greedy = greedyDecode(model, src, opt);
        QCOMPARE(beamSearch(model, src, 1, opt).best.target_ids, greedy.target_ids);
        const BeamResult beam = beamSearch(model, src, 3, opt);
        const RefDecode e = referenceForced(model, src.ids, beam.best.target_ids, nullptr, toRef(opt.interventions));
        for (size_t i = 0; i < beam.best.target_ids.size(); ++i)
            compareRow(beam.best.attention[i], beam.best.scores[i], beam.best.log_probs[i], beam.best.target_ids[i],
                       e.steps[i], i);
        const int last = beam.finished.back();
        const DecodeResult h = hypothesisDecode(model, beam, last, opt);
        const RefDecode eh = referenceForced(model, src.ids, h.target_ids, nullptr, toRef(opt.interventions));
        for (size_t i = 0; i < h.target_ids.size(); ++i)
            compareRow(h.attention[i], h.scores[i], h.log_probs[i], h.target_ids[i], eh.steps[i], i);
    }
}

// Knockout on a Transformer: every cross-attention head of every decoder layer against the reference with the
// positions out of its softmax; greedy tokens, log-probs and each layer's and head's cross-attention.
void TestInterventions::transformerKnockoutMatchesMaskedReference() {
    const Model model = smallTransformer(7);
    const TokenizedText src = sourceOf(model, kMatSentence);
    const std::vector<int> knocked = {1, 3, 4};
    DecodeOptions opt;
    opt.max_len = 6;
    opt.interventions.knockout = knocked;
    const DecodeResult r = greedyDecode(model, src, opt);
    const TransformerConfig& c = model.config.transformer;
    const TransformerParamsT<double> p = castTransformerParams<double>(model.transformer, model.transformerShape());
    const RefTransformerGreedy e = referenceTransformerGreedy(c, p, src.ids, opt.max_len, knocked);
    QCOMPARE(r.target_ids, e.tokens);
    const RefTransformerDecoding& whole = e.steps.back();  // the last step recomputes every row
    for (size_t t = 0; t < r.target_ids.size(); ++t) {
        QVERIFY(close(r.log_probs[t], whole.log_probs(Eigen::Index(t), r.target_ids[t]), 2e-5));
        for (int l = 0; l < c.num_decoder_layers; ++l)
            for (int h = 0; h < c.decoder_nhead; ++h)
                for (size_t j = 0; j < src.ids.size(); ++j) {
                    const double ref = whole.cross[size_t(l)][size_t(h)](Eigen::Index(t), Eigen::Index(j));
                    QVERIFY(
                        close(r.cross_attention[size_t(l)][size_t(h)](Eigen::Index(t), Eigen::Index(j)), ref, 2e-5));
                    if (std::find(knocked.begin(), knocked.end(), int(j)) != knocked.end()) QCOMPARE(ref, 0.0);
                }
    }
}

void TestInterventions::headOffEqualsZeroedOutProjColumns_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("layer");
    QTest::addColumn<int>("head");
    for (AttentionKind k : {AttentionKind::Cross, AttentionKind::EncoderSelf, AttentionKind::DecoderSelf})
        for (int l : {0, 1})
            for (int h : {0, 1}) QTest::addRow("%s/%d/%d", headKindName(k).data(), l, h) << int(k) << l << h;
}

// A head off gives the plain decode of a model file whose head's out_proj columns are zeroed: the same tokens and
// the same bits (o_h · 0 and 0 · W_O[:, h] are the same zero terms of the same sums).
void TestInterventions::headOffEqualsZeroedOutProjColumns() {
    QFETCH(int, kind);
    QFETCH(int, layer);
    QFETCH(int, head);
    const HeadRef off{AttentionKind(kind), layer, head};
    const Model model = smallTransformer(9);
    QTemporaryDir dir;
    const Model zeroed = loadModel(saveInto(withHeadZeroed(model, off), dir, "zeroed.safetensors").toStdString());
    const TokenizedText src = sourceOf(model, kMatSentence);
    DecodeOptions opt;
    opt.max_len = 8;
    const DecodeResult plain = greedyDecode(zeroed, src, opt);
    opt.interventions.heads_off = {off};
    const DecodeResult r = greedyDecode(model, src, opt);
    QCOMPARE(r.target_ids, plain.target_ids);
    QCOMPARE(r.log_probs, plain.log_probs);
    QCOMPARE(r.attention, plain.attention);
    DecodeOptions eight;
    eight.max_len = 8;
    QVERIFY(r.log_probs != greedyDecode(model, src, eight).log_probs);  // the head did matter
}

// The same with forcing (a reference) and beam search, two heads of different kinds off at once.
void TestInterventions::headOffInBeamAndForcedEqualsZeroedModel() {
    const HeadRef a{AttentionKind::Cross, 1, 0}, b{AttentionKind::EncoderSelf, 0, 1};
    const Model model = smallTransformer(9);
    QTemporaryDir dir;
    const Model zeroed =
        loadModel(saveInto(withHeadZeroed(withHeadZeroed(model, a), b), dir, "z.safetensors").toStdString());
    const TokenizedText src = sourceOf(model, kMatSentence);
    const TokenizedText ref = referenceOf(model);
    DecodeOptions opt;
    opt.max_len = 8;
    const DecodeResult forced_plain = forcedDecode(zeroed, src, ref, opt);
    const BeamResult beam_plain = beamSearch(zeroed, src, 3, opt);
    opt.interventions.heads_off = {a, b};
    const DecodeResult forced = forcedDecode(model, src, ref, opt);
    QCOMPARE(forced.log_probs, forced_plain.log_probs);
    QCOMPARE(forced.attention, forced_plain.attention);
    const BeamResult beam = beamSearch(model, src, 3, opt);
    QCOMPARE(beam.best.target_ids, beam_plain.best.target_ids);
    QCOMPARE(beam.best.log_probs, beam_plain.best.log_probs);
    QCOMPARE(beam.rows, beam_plain.rows);
}

// No intervention is the plain model: the same decode, bit for bit, on every kind.
void TestInterventions::emptyInterventionsChangeNothing() {
    const Model rnn = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Additive), 3, 3.0f);
    const Model transformer = smallTransformer(3);
    for (const Model* m : {&rnn, &transformer}) {
        const TokenizedText src = sourceOf(*m, kMatSentence);
        DecodeOptions opt;
        opt.max_len = 6;
        const DecodeResult plain = greedyDecode(*m, src, opt);
        opt.interventions = {{}, {}, {}};
        const DecodeResult r = greedyDecode(*m, src, opt);
        QCOMPARE(r.target_ids, plain.target_ids);
        QCOMPARE(r.log_probs, plain.log_probs);
        QCOMPARE(r.attention, plain.attention);
    }
}

void TestInterventions::refusesWhatAModelCannotTake() {
    const Model rnn = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::Dot), 3);
    const Model transformer = smallTransformer(3);
    const TokenizedText src = sourceOf(rnn, kMatSentence);  // S = 9
    const auto refusal = [&](const Model& m, Interventions iv) {
        DecodeOptions opt;
        opt.max_len = 10;
        opt.interventions = std::move(iv);
        const QString greedy = errorOf([&] { greedyDecode(m, src, opt); });
        const QString beam = errorOf([&] { beamSearch(m, src, 2, opt); });
        return beam == greedy ? greedy : "beam search said otherwise: " + beam;
    };
    QCOMPARE(refusal(rnn, {{9}, {}, {}}),
             QString("knockout: source position 9 is past the source (9 tokens with <sos> and <eos>: positions 0..8)"));
    QVERIFY(refusal(rnn, {{-1}, {}, {}}).startsWith("knockout: source position -1 is past the source"));
    QVERIFY(refusal(rnn, {{}, {{0, 12}}, {}}).startsWith("attend: source position 12 is past the source"));
    QCOMPARE(refusal(rnn, {{}, {{10, 1}}, {}}),
             QString("attend: row 10 is past the decode's length limit (rows 0..9)"));
    QCOMPARE(refusal(rnn, {{}, {{2, 1}, {2, 3}}, {}}), QString("attend: row 2 is given twice (positions 1 and 3)"));
    QVERIFY(refusal(transformer, {{}, {{0, 1}}, {}}).startsWith("attend: a Transformer has no single attention row"));
    QCOMPARE(refusal(rnn, {{}, {}, {{AttentionKind::Cross, 0, 0}}}),
             QString("head off: a luong model has no attention heads (head off is for Transformer models)"));
    QCOMPARE(refusal(transformer, {{}, {}, {{AttentionKind::EncoderSelf, 2, 0}}}),
             QString("head off encoder: layer 2 is out of range (the model has 2 such layers: 0..1)"));
    QCOMPARE(refusal(transformer, {{}, {}, {{AttentionKind::DecoderSelf, 0, 2}}}),
             QString("head off decoder: head 2 is out of range (the model has 2 heads: 0..1)"));
    // Forced decoding checks attend rows against the reference's length.
    DecodeOptions opt;
    opt.interventions.attend = {{7, 1}};
    QCOMPARE(errorOf([&] { forcedDecode(rnn, src, referenceOf(rnn), opt); }),
             QString("attend: row 7 is past the decode's length limit (rows 0..6)"));
}

// The compare view's B: of one set of interventions, an RNN model keeps the knockouts and attends and leaves the
// head off out, a Transformer keeps the knockouts and the head off and leaves the attend out, each with the reason
// checkInterventions gives; a knockout past the source and a second attend of a row are left out too.
void TestInterventions::aSecondModelTakesWhatItCan() {
    const Model rnn = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::Dot), 3);
    const Model transformer = smallTransformer(3);
    const Interventions all{{2, 9}, {{1, 3}, {1, 4}}, {{AttentionKind::Cross, 0, 1}}};
    std::vector<std::string> refused;
    const Interventions by_rnn = interventionsModelTakes(rnn, all, 9, 10, &refused);
    QCOMPARE(by_rnn, (Interventions{{2}, {{1, 3}}, {}}));
    QCOMPARE(refused.size(), size_t(3));
    QVERIFY(QString::fromStdString(refused[0]).startsWith("knockout: source position 9 is past the source"));
    QCOMPARE(QString::fromStdString(refused[1]), QString("attend: row 1 is given twice (positions 3 and 4)"));
    QCOMPARE(QString::fromStdString(refused[2]),
             QString("head off: a luong model has no attention heads (head off is for Transformer models)"));
    refused.clear();
    const Interventions by_transformer = interventionsModelTakes(transformer, all, 9, 10, &refused);
    QCOMPARE(by_transformer, (Interventions{{2}, {}, {{AttentionKind::Cross, 0, 1}}}));
    QCOMPARE(refused.size(), size_t(3));
    QVERIFY(QString::fromStdString(refused[1]).startsWith("attend: a Transformer has no single attention row"));
    // What is kept is what checkInterventions takes whole.
    checkInterventions(rnn, by_rnn, 9, 10);
    checkInterventions(transformer, by_transformer, 9, 10);
}

ATTNVIZ_TEST_MAIN(TestInterventions)
#include "test_interventions.moc"
