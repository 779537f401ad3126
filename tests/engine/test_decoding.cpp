// The engine's forward pass against an independent double-precision reference (tests/support/reference_model.h)
// for every decoder × score × span × input-feeding combination docs/model-format.md allows, plus a hand-worked case.
// bahdanau runs twice: with the context folded into per-sentence products (fast/folded_decoder.h) and without.
#include "base/errors.h"
#include "decode/decoding.h"
#include "decode/on_path.h"
#include "decode_variants.h"
#include "fast/token_tables.h"
#include "nn/decoder.h"
#include "reference_model.h"
#include "test_models.h"
#include "test_registry.h"
#include "tolerance.h"

#include <QtTest>
#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// |a − b| ≤ tol · (1 + |b|): relative for large values, absolute near 0.
}  // namespace

class TestDecoding : public QObject {
    Q_OBJECT

private slots:
    void matchesReference_data();
    void matchesReference();
    void handWorkedBahdanauAdditive_data();
    void handWorkedBahdanauAdditive();
    void forcedMatchesReference_data();
    void forcedMatchesReference();
    void forcedKeepsUnknownSpelling();
    void forcedOnGreedyOutputAgrees_data();
    void forcedOnGreedyOutputAgrees();
    void recomputingFromAnEarlierStep_data();
    void recomputingFromAnEarlierStep();
    void rejectsBadIds();
};

void TestDecoding::matchesReference_data() { addAllVariants(); }

void TestDecoding::matchesReference() {
    const ModelConfig cfg = fetchConfig();
    for (uint64_t seed : {11u, 12u, 13u}) {
        // Scaled weights: attention rows far from uniform, so a wrong score or span shows.
        auto model = std::make_shared<const Model>(smallModel(cfg, seed, 3.0f));
        const TokenizedText src = sourceOf(*model, kMatSentence);
        const int S = int(src.ids.size());
        const int max_len = 12;
        const RowPath row = fetchPath(*model);
        DecodeOptions opt;
        opt.max_len = max_len;
        opt.top_k = 4;
        DecodingSession session = detail::SessionAccess::session(model, src, opt, row.path);
        session.runToEnd();
        const auto& steps = session.steps();

        const RefDecode greedy = referenceGreedy(*model, src.ids, max_len);
        std::vector<int> tokens;
        for (const StepRecord& r : steps) tokens.push_back(r.token);
        QCOMPARE(tokens, greedy.tokens);

        const RefDecode ref = referenceForced(*model, src.ids, tokens);
        double max_spread = 0;
        for (size_t i = 0; i < steps.size(); ++i) {
            const StepRecord& r = steps[i];
            const RefStep& e = ref.steps[i];
            QCOMPARE(int(r.attention.size()), S);
            QCOMPARE(int(r.scores.size()), S);
            QCOMPARE(int(r.context.size()), 2 * cfg.enc_hid_dim);
            double sum = 0, amax = 0, amin = 1;
            for (int j = 0; j < S; ++j) {
                const bool inside = j >= e.lo && j <= e.hi;
                if (!inside) {
                    QVERIFY2(r.attention[j] == 0.0f,
                             qPrintable(QString("step %1 pos %2 outside the window").arg(i).arg(j)));
                    QVERIFY(std::isnan(r.scores[j]));
                } else {
                    QVERIFY2(close(r.attention[j], e.attention[j], 1e-5),
                             qPrintable(QString("step %1 a_%2 = %3, reference %4")
                                            .arg(i)
                                            .arg(j)
                                            .arg(r.attention[j])
                                            .arg(e.attention[j])));
                    QVERIFY2(close(r.scores[j], e.scores[j], 1e-5),
                             qPrintable(QString("step %1 e_%2 = %3, reference %4")
                                            .arg(i)
                                            .arg(j)
                                            .arg(r.scores[j])
                                            .arg(e.scores[j])));
                    amax = std::max(amax, double(r.attention[j]));
                    amin = std::min(amin, double(r.attention[j]));
                }
                sum += r.attention[j];
            }
            max_spread = std::max(max_spread, amax - amin);
            for (size_t k = 0; k < r.context.size(); ++k)
                QVERIFY2(close(r.context[k], e.context[k], 1e-5), qPrintable(QString("step %1 c_%2").arg(i).arg(k)));
            QVERIFY2(close(r.log_prob, e.log_probs[size_t(r.token)], 1e-5),
                     qPrintable(QString("step %1 log p = %2, reference %3")
                                    .arg(i)
                                    .arg(r.log_prob)
                                    .arg(e.log_probs[size_t(r.token)])));
            // top-k: descending, log-probs as the reference, never <pad>/<sos>.
            QCOMPARE(int(r.top_k.size()), 4);
            QCOMPARE(r.top_k[0].id, r.token);
            for (size_t k = 0; k < r.top_k.size(); ++k) {
                const Candidate& cand = r.top_k[k];
                QVERIFY(cand.id != kPad && cand.id != kSos);
                QVERIFY(close(cand.log_prob, e.log_probs[size_t(cand.id)], 1e-5));
                QVERIFY(close(cand.prob, std::exp(e.log_probs[size_t(cand.id)]), 1e-5));
                if (k > 0) QVERIFY(r.top_k[k - 1].log_prob >= cand.log_prob);
            }
            double entropy = 0;
            for (double a : e.attention)
                if (a > 0) entropy -= a * std::log(a);
            QVERIFY(close(r.entropy, entropy, 1e-5));
            switch (cfg.span) {
            case SpanKind::Global:
                QVERIFY(std::isnan(r.center));
                QVERIFY2(std::abs(sum - 1.0) < 1e-6,
                         qPrintable(QString("row %1 sums to %2").arg(i).arg(sum, 0, 'g', 10)));
                break;
            case SpanKind::LocalM:
                QCOMPARE(r.center, float(std::min(int(i) + 1, S - 1)));
                QVERIFY(std::abs(sum - 1.0) < 1e-6);
                QVERIFY(e.hi - e.lo + 1 < S);  // the window really cuts (D = 2, S = 9)
                break;
            case SpanKind::LocalP:
                QVERIFY(close(r.center, e.center, 1e-5));
                QVERIFY2(sum < 1.0, qPrintable(QString("local_p row %1 sums to %2").arg(i).arg(sum)));
                break;
            }
        }
        // The model is not degenerate: some row is far from uniform.
        QVERIFY2(max_spread > 0.08, qPrintable(QString("attention almost uniform (spread %1)").arg(max_spread)));
    }
}

// Tiny sizes worked out by hand: E = 1, H_e = 1, H_d = 1, V_s = V_t = 5, source "a" → ids [2, 4, 3], S = 3.
//
// Encoder GRUs (both directions): W_ih = [0; 0; 1] (rows r, z, n), W_hh = 0, biases 0, so z = σ(0) = 0.5 and
// n = tanh(x), h' = 0.5·tanh(x) + 0.5·h. Source embeddings <sos> = 0, "a" = 1, <eos> = 0:
//   f_0 = 0, f_1 = 0.5·tanh(1) = 0.38079708, f_2 = 0.5·f_1 = 0.19039854
//   b_2 = 0, b_1 = 0.38079708, b_0 = 0.19039854
//   h_0 = [0, 0.19039854], h_1 = [0.38079708, 0.38079708], h_2 = [0.19039854, 0]
// fc = [1, 1], bias 0: s_0 = tanh(f_2 + b_0) = tanh(0.38079708) = 0.36339948
// Additive attention: attn.weight = [1, 3, −1] (columns [s ; f ; b]), bias 0, v = [1]:
//   e_j = tanh(s_0 + 3 f_j − b_j): tanh(0.17300095) = 0.17129543, tanh(1.12499364) = 0.80929888,
//                                  tanh(0.93459510) = 0.73272910
//   a = softmax(e) = exp(e)/Σ: [0.21524436, 0.40739262, 0.37736301]
//   c = Σ a_j h_j = [0.40739262·0.38079708 + 0.37736301·0.19039854, 0.21524436·0.19039854 + 0.40739262·0.38079708]
//     = [0.22698329, 0.19611613]
// Decoder: E_t[<sos>] = 0.5; GRU W_ih = [0; 0; 1 1 1] (input [x ; c]), W_hh = 0, biases 0:
//   n = tanh(0.5 + 0.22698329 + 0.19611613) = tanh(0.92309942) = 0.72736037, s_1 = 0.5·n + 0.5·s_0 = 0.54537993
// fc_out: column s only, weights [0, 1, 0, 2, −1], bias [0, 0, 0, 0, 0.5]:
//   logits = [0, 0.54537993, 0, 1.09075986, −0.04537993], logsumexp = 2.03567681
//   log p = [−2.03567681, −1.49029689, −2.03567681, −0.94491696, −2.08105674] → greedy picks <eos> (id 3),
//   log p(<eos>) = −0.94491696, and decoding stops after one step.
void TestDecoding::handWorkedBahdanauAdditive_data() {
    QTest::addColumn<int>("folding");
    QTest::addRow("unfolded") << int(Folding::Never);
    QTest::addRow("folded") << int(Folding::Always);  // W_ih's context columns as (W_c Hᵀ) a
}

void TestDecoding::handWorkedBahdanauAdditive() {
    QFETCH(int, folding);
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
    p.dec_embedding(kSos, 0) = 0.5f;
    p.dec_rnn.w_ih.row(2) << 1, 1, 1;
    p.fc_out_w.col(0) << 0, 1, 0, 2, -1;
    p.fc_out_b << 0, 0, 0, 0, 0.5f;

    auto model = std::make_shared<const Model>(m);
    DecodingSession session = detail::SessionAccess::session(
        model, TokenizedText{{"<sos>", "a", "<eos>"}, {kSos, 4, kEos}}, {}, {Folding(folding), nullptr, nullptr});
    session.runToEnd();
    QCOMPARE(int(session.steps().size()), 1);
    const StepRecord& r = session.steps()[0];
    QCOMPARE(r.token, kEos);
    QCOMPARE(r.token_text, std::string("<eos>"));
    const double a[3] = {0.21524436, 0.40739262, 0.37736301};
    const double e[3] = {0.17129543, 0.80929888, 0.73272910};
    for (int j = 0; j < 3; ++j) {
        QVERIFY2(close(r.attention[j], a[j], 1e-6),
                 qPrintable(QString("a_%1 = %2").arg(j).arg(r.attention[j], 0, 'g', 9)));
        QVERIFY(close(r.scores[j], e[j], 1e-6));
    }
    QVERIFY(close(r.context[0], 0.22698329, 1e-6));
    QVERIFY(close(r.context[1], 0.19611613, 1e-6));
    QVERIFY2(close(r.log_prob, -0.94491696, 1e-6), qPrintable(QString::number(r.log_prob, 'g', 9)));
    QCOMPARE(r.top_k.size(), size_t(3));  // ids 3, 1, 4 (never <pad> or <sos>)
    QCOMPARE(r.top_k[1].id, kUnk);
    QVERIFY(close(r.top_k[1].log_prob, -1.49029689, 1e-6));
    QCOMPARE(r.top_k[2].id, 4);
}

void TestDecoding::forcedMatchesReference_data() { addAllVariants(); }

void TestDecoding::forcedMatchesReference() {
    const ModelConfig cfg = fetchConfig();
    const Model model = smallModel(cfg, 21, 2.5f);
    const TokenizedText src = sourceOf(model, kMatSentence);
    TokenizedText ref;
    for (const char* w : {"猫", "坐", "在", "垫子", "上", "。"}) {
        ref.tokens.push_back(w);
        ref.ids.push_back(model.target_vocab.id(w));
    }
    ref.tokens.push_back("<eos>");
    ref.ids.push_back(kEos);
    const DecodeResult r = detail::forcedDecode(model, src, ref, fetchPath(model).path);
    const RefDecode e = referenceForced(model, src.ids, ref.ids);
    QCOMPARE(r.target_ids, ref.ids);
    QCOMPARE(r.target_tokens, ref.tokens);
    QCOMPARE(r.source_ids, src.ids);
    QCOMPARE(r.attention.size(), ref.ids.size());
    for (size_t i = 0; i < ref.ids.size(); ++i) {
        QVERIFY2(close(r.log_probs[i], e.steps[i].log_probs[size_t(ref.ids[i])], 1e-5),
                 qPrintable(QString("step %1").arg(i)));
        for (size_t j = 0; j < src.ids.size(); ++j) {
            QVERIFY(close(r.attention[i][j], e.steps[i].attention[j], 1e-5));
            if (std::isnan(e.steps[i].scores[j]))
                QVERIFY(std::isnan(r.scores[i][j]));
            else
                QVERIFY(close(r.scores[i][j], e.steps[i].scores[j], 1e-5));
        }
    }
    QVERIFY(close(r.total_log_prob, e.total_log_prob, 1e-5));
    QVERIFY(r.total_log_prob < 0);
}

void TestDecoding::forcedKeepsUnknownSpelling() {
    const Model model = smallModel(smallConfig(DecoderKind::Luong, ScoreKind::General), 5, 2.0f);
    const TokenizedText src = sourceOf(model, {"i", "love", "you"});
    const TokenizedText ref{{"我", "喜欢", "你", "<eos>"},
                            {model.target_vocab.id("我"), kUnk, model.target_vocab.id("你"), kEos}};
    const DecodeResult r = forcedDecode(model, src, ref);
    QCOMPARE(r.target_tokens, ref.tokens);
    QCOMPARE(r.target_ids[1], kUnk);
    const RefDecode e = referenceForced(model, src.ids, ref.ids);
    QVERIFY(close(r.log_probs[1], e.steps[1].log_probs[kUnk], 1e-5));
}

void TestDecoding::forcedOnGreedyOutputAgrees_data() { addAllVariants(); }

// Forced decoding batches the output layer (one GEMM); fed the greedy output it must give the greedy numbers.
// With token tables, greedy reads W_ih's x-column products from them and forced decoding computes them: the
// attention rows must still be identical.
void TestDecoding::forcedOnGreedyOutputAgrees() {
    const auto shared = std::make_shared<const Model>(smallModel(fetchConfig(), 31, 3.0f));
    const Model& model = *shared;
    const TokenizedText src = sourceOf(model, {"i", "ate", "an", "apple", "yesterday"});
    const RowPath row = fetchPath(model);
    DecodeOptions opt;
    opt.max_len = 7;
    const DecodeResult g = detail::greedyDecode(model, src, opt, row.path);
    TokenizedText ref;
    ref.ids = g.target_ids;
    const DecodeResult f = detail::forcedDecode(model, src, ref, {row.path.folding, nullptr, row.path.pool});
    QCOMPARE(f.target_ids, g.target_ids);
    QCOMPARE(f.target_tokens, g.target_tokens);
    QCOMPARE(f.attention, g.attention);  // the same step code: identical rows
    for (size_t i = 0; i < g.log_probs.size(); ++i) QVERIFY(close(f.log_probs[i], g.log_probs[i], 1e-6));
    QVERIFY(close(f.total_log_prob, g.total_log_prob, 1e-6));
}

void TestDecoding::recomputingFromAnEarlierStep_data() {
    QTest::addColumn<int>("score");
    QTest::addColumn<bool>("tables");  // empty token tables, filled by the steps themselves
    for (ScoreKind sc : {ScoreKind::Additive, ScoreKind::Dot, ScoreKind::ScaledDot, ScoreKind::General})
        for (bool tables : {false, true})
            QTest::addRow("%s%s", toString(sc).data(), tables ? "/tables" : "") << int(sc) << tables;
}

// The folded step prepares the next step's products of its new state (FoldedDecoder::chainSteps). A session that forces an
// earlier step continues from another state than the one prepared for: every step must still be the reference's.
void TestDecoding::recomputingFromAnEarlierStep() {
    QFETCH(int, score);
    Model m = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind(score)), 17, 3.0f);
    m.params.fc_out_b[kEos] = -100.0f;  // every run takes max_len steps
    auto model = std::make_shared<const Model>(std::move(m));
    const TokenizedText src = sourceOf(*model, kMatSentence);
    QFETCH(bool, tables);
    DecodeOptions opt;
    TokenTables kept(*model);
    opt.max_len = 8;
    opt.top_k = 3;
    DecodingSession session = detail::SessionAccess::session(
        model, src, opt, {Folding::Always, tables ? &kept : nullptr, &ThreadPool::engine()});
    for (int i = 0; i < 5; ++i) QVERIFY(session.forward());  // step 5 prepared step 6's products
    const int alt = session.steps()[1].top_k[1].id;
    session.force(1, alt);  // continues from the state after step 1
    session.runToEnd();

    std::vector<int> tokens;
    for (const StepRecord& r : session.steps()) tokens.push_back(r.token);
    QCOMPARE(int(tokens.size()), opt.max_len);
    QCOMPARE(tokens[1], alt);
    QCOMPARE(kept.kept(TokenTables::Output) > 0, tables);
    const RefDecode ref = referenceForced(*model, src.ids, tokens);
    for (size_t i = 0; i < tokens.size(); ++i) {
        const StepRecord& r = session.steps()[i];
        for (size_t j = 0; j < src.ids.size(); ++j)
            QVERIFY2(close(r.attention[j], ref.steps[i].attention[j], 1e-5),
                     qPrintable(QString("step %1 a_%2").arg(i).arg(j)));
        QVERIFY2(close(r.log_prob, ref.steps[i].log_probs[size_t(r.token)], 1e-5),
                 qPrintable(QString("step %1").arg(i)));
    }
}

void TestDecoding::rejectsBadIds() {
    auto model = std::make_shared<const Model>(smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 3));
    QVERIFY_THROWS_EXCEPTION(InputError, DecodingSession(model, TokenizedText{{}, {kSos, 999, kEos}}));
    QVERIFY_THROWS_EXCEPTION(InputError, DecodingSession(model, TokenizedText{{}, {}}));
    QVERIFY_THROWS_EXCEPTION(InputError,
                             forcedDecode(*model, TokenizedText{{}, {kSos, kEos}}, TokenizedText{{}, {-1}}));
}

ATTNVIZ_TEST_MAIN(TestDecoding)
#include "test_decoding.moc"
