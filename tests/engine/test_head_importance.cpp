// Head importance (docs/explain.md, eval/head_importance.h): the gradient of the loss by a head's gate, from the
// engine's own Transformer backward, against central differences of that gate in the independent double reference
// (a gate g on o_h is the head's out_proj columns times g); bleu_off and mean_log_prob_off against the decodes of a
// model whose head's out_proj columns are zeroed. The gate gradients also on a model whose encoder has more heads than
// its decoder.
#include "base/errors.h"
#include "decode/decoding.h"
#include "decode_variants.h"
#include "error_of.h"
#include "eval/head_importance.h"
#include "eval/metrics.h"
#include "reference_transformer.h"
#include "test_models.h"
#include "test_registry.h"

#include <QtTest>
#include <atomic>
#include <cmath>

using namespace attnviz;
using namespace attnviz::testing;

namespace {

// L = −Σ_t log p(target_t) of the reference forward, with head h's o_h multiplied by `gate`.
double referenceLoss(const TransformerConfig& c, TransformerParamsT<double> p, const HeadRef& h, double gate,
                     const std::vector<int>& source, const std::vector<int>& target) {
    const int dh = c.headDim(h.kind);
    auto& a = h.kind == AttentionKind::EncoderSelf   ? p.encoder_layers[h.layer].self_attn
              : h.kind == AttentionKind::DecoderSelf ? p.decoder_layers[h.layer].self_attn
                                                     : p.decoder_layers[h.layer].multihead_attn;
    a.out_proj_weight.middleCols(h.head * dh, dh) *= gate;  // W_O (g o_h) = (g W_O[:, h]) o_h
    const DMat memory = referenceTransformerEncode(c, p, source).memory;
    std::vector<int> inputs = {kSos};
    inputs.insert(inputs.end(), target.begin(), target.end() - 1);
    const DMat lp = referenceTransformerDecode(c, p, memory, inputs).log_probs;
    double loss = 0;
    for (size_t t = 0; t < target.size(); ++t) loss -= lp(Eigen::Index(t), target[t]);
    return loss;
}

std::vector<CorpusExample> smallCorpus() {
    std::vector<CorpusExample> corpus;
    for (const char* src : {"the cat sat on the mat .", "i love you", "the cat ate"}) {
        CorpusExample ex;
        ex.line = int(corpus.size()) + 1;
        ex.source = src;
        ex.target = "猫 坐 在 垫子 上 。";
        ex.has_target = true;
        corpus.push_back(ex);
    }
    return corpus;
}

}  // namespace

class TestHeadImportance : public QObject {
    Q_OBJECT
private slots:
    void gateGradientEqualsCentralDifferences();
    void scoresAreTheZeroedModelsDecodes();
    void reportHoldsThePlainModelsScores();
    void cancelGivesAnIncompleteReport();
    void sortsByBleuLostThenLogProbLost();
    void refusesAnRnnModel();
};

void TestHeadImportance::gateGradientEqualsCentralDifferences() {
    for (uint64_t seed : {4u, 5u}) {
        Model m = smallTransformer(seed);
        if (seed == 5) m.config.transformer.encoder_nhead = 4;  // heads of 2 in the encoder, of 4 in the decoder
        const TransformerConfig& c = m.config.transformer;
        const TransformerParamsT<double> p = castTransformerParams<double>(m.transformer, m.transformerShape());
        const std::vector<int> source = sourceOf(m, kMatSentence).ids;
        const std::vector<int> target = {m.target_vocab.id("猫"), m.target_vocab.id("坐"), kUnk, kEos};
        const std::vector<double> grad = headGateGradients(c, p, source, target);
        const std::vector<double> grad_float = headGateGradients(c, m.transformer, source, target);
        const std::vector<HeadRef> heads = allHeads(c);
        QCOMPARE(grad.size(), heads.size());
        constexpr double eps = 1e-5;
        double largest = 0;
        for (size_t k = 0; k < heads.size(); ++k) {
            const double fd = (referenceLoss(c, p, heads[k], 1 + eps, source, target) -
                               referenceLoss(c, p, heads[k], 1 - eps, source, target)) /
                              (2 * eps);
            QVERIFY2(std::abs(grad[k] - fd) <= 1e-6 * (1 + std::abs(fd)),
                     qPrintable(QString("head %1: gradient %2, central difference %3").arg(k).arg(grad[k]).arg(fd)));
            QVERIFY2(std::abs(grad_float[k] - fd) <= 1e-3 * (1 + std::abs(fd)),
                     qPrintable(QString("float head %1").arg(k)));
            largest = std::max(largest, std::abs(fd));
        }
        QVERIFY2(largest > 1e-2, qPrintable(QString("every gate's derivative is near 0 (%1)").arg(largest)));
    }
}

// Each head's bleu_off and mean_log_prob_off are those of the plain decodes of a model with the head's out_proj
// columns zeroed; importance the mean of |gate gradient| over the lines.
void TestHeadImportance::scoresAreTheZeroedModelsDecodes() {
    const Model m = smallTransformer(6);
    const std::vector<CorpusExample> corpus = smallCorpus();
    HeadImportanceOptions options;
    options.max_len = 8;
    size_t last_done = 0, total = 0;
    options.progress = [&](size_t done, size_t all) { last_done = done, total = all; };
    const std::vector<HeadScore> scores = headImportance(m, corpus, options);
    const std::vector<HeadRef> heads = allHeads(m.config.transformer);
    QCOMPARE(scores.size(), heads.size());
    QCOMPARE(total, corpus.size() * (heads.size() + 1));
    QVERIFY(last_done > 0 && last_done <= total);
    for (size_t k = 0; k < heads.size(); ++k) {
        QCOMPARE(scores[k].head, heads[k]);
        const Model zeroed = withHeadZeroed(m, heads[k]);
        std::vector<std::vector<std::string>> hyps, refs;
        double log_prob = 0, importance = 0;
        size_t tokens = 0;
        DecodeOptions o;
        o.max_len = 8;
        for (const CorpusExample& ex : corpus) {
            const TokenizedText src = tokenizeSource(m, ex.source), ref = tokenizeTarget(m, ex.target);
            hyps.push_back(withoutEos(greedyDecode(zeroed, src, o).target_tokens));
            refs.push_back(withoutEos(ref.tokens));
            log_prob += forcedDecode(zeroed, src, ref).total_log_prob;
            tokens += ref.ids.size();
            const auto g =
                headGateGradients(m.config.transformer,
                                  castTransformerParams<double>(m.transformer, m.transformerShape()), src.ids, ref.ids);
            importance += std::abs(g[k]) / double(corpus.size());
        }
        QVERIFY2(std::abs(scores[k].bleu_off - corpusBleu(hyps, refs)) < 1e-9, qPrintable(QString("head %1").arg(k)));
        QVERIFY(std::abs(scores[k].mean_log_prob_off - log_prob / double(tokens)) < 1e-4);
        QVERIFY(std::abs(scores[k].importance - importance) <= 1e-3 * (1 + importance));
    }
}

// The report's own BLEU and mean log-probability are the plain model's decodes of the same lines, and its heads
// headImportance's.
void TestHeadImportance::reportHoldsThePlainModelsScores() {
    const Model m = smallTransformer(6);
    const std::vector<CorpusExample> corpus = smallCorpus();
    HeadImportanceOptions options;
    options.max_len = 8;
    const HeadImportanceReport report = headImportanceReport(m, corpus, options);
    QVERIFY(report.complete);
    std::vector<std::vector<std::string>> hyps, refs;
    double log_prob = 0;
    size_t tokens = 0;
    DecodeOptions o;
    o.max_len = 8;
    for (const CorpusExample& ex : corpus) {
        const TokenizedText src = tokenizeSource(m, ex.source), ref = tokenizeTarget(m, ex.target);
        hyps.push_back(withoutEos(greedyDecode(m, src, o).target_tokens));
        refs.push_back(withoutEos(ref.tokens));
        log_prob += forcedDecode(m, src, ref).total_log_prob;
        tokens += ref.ids.size();
    }
    QVERIFY(std::abs(report.bleu - corpusBleu(hyps, refs)) < 1e-9);
    QVERIFY(std::abs(report.mean_log_prob - log_prob / double(tokens)) < 1e-4);
    const std::vector<HeadScore> heads = headImportance(m, corpus, options);
    QCOMPARE(report.heads.size(), heads.size());
    for (size_t k = 0; k < heads.size(); ++k) {
        QCOMPARE(report.heads[k].bleu_off, heads[k].bleu_off);
        QCOMPARE(report.heads[k].importance, heads[k].importance);
    }
    // some head matters on these lines: the plain numbers differ from at least one head's
    bool differs = false;
    for (const HeadScore& h : heads) differs = differs || h.mean_log_prob_off != report.mean_log_prob;
    QVERIFY(differs);
}

// A cancel set before the start or by the progress of the first job stops the jobs: the report is incomplete and
// holds no numbers.
void TestHeadImportance::cancelGivesAnIncompleteReport() {
    const Model m = smallTransformer(6);
    const std::vector<CorpusExample> corpus = smallCorpus();
    std::atomic<bool> cancel{true};
    HeadImportanceOptions options;
    options.max_len = 8;
    options.threads = 1;
    options.cancel = &cancel;
    size_t calls = 0;
    options.progress = [&](size_t, size_t) { ++calls; };
    HeadImportanceReport report = headImportanceReport(m, corpus, options);
    QVERIFY(!report.complete);
    QVERIFY(report.heads.empty());
    QCOMPARE(calls, size_t(0));
    cancel = false;
    options.progress = [&](size_t, size_t) {
        ++calls;
        cancel = true;
    };
    report = headImportanceReport(m, corpus, options);
    QVERIFY(!report.complete);
    QVERIFY(report.heads.empty());
    QCOMPARE(calls, size_t(1));  // one thread: no job started after the cancel
}

void TestHeadImportance::sortsByBleuLostThenLogProbLost() {
    const auto score = [](int head, double bleu_off, double log_prob_off) {
        return HeadScore{{AttentionKind::Cross, 0, head}, bleu_off, log_prob_off, 0.0};
    };
    const std::vector<HeadScore> sorted = headsByBleuLost(
        {score(0, 30.0, -1.0), score(1, 12.5, -1.5), score(2, 30.0, -2.5), score(3, 12.5, -1.0), score(4, 30.0, -1.0)});
    std::vector<int> order;
    for (const HeadScore& h : sorted) order.push_back(h.head.head);
    // the most BLEU lost first; then the most log-probability lost; then the order given
    QCOMPARE(order, (std::vector<int>{1, 3, 2, 0, 4}));
}

void TestHeadImportance::refusesAnRnnModel() {
    const Model rnn = smallModel(smallConfig(DecoderKind::Bahdanau, ScoreKind::Dot), 3);
    QCOMPARE(errorOf([&] { headImportance(rnn, {}); }),
             QString("head importance: a bahdanau model has no attention heads (it is for Transformer models)"));
}

ATTNVIZ_TEST_MAIN(TestHeadImportance)
#include "test_head_importance.moc"
