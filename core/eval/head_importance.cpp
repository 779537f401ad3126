#include "eval/head_importance.h"
#include "model/model_kind.h"

#include "base/errors.h"
#include "decode/decoding.h"
#include "decode/parallel.h"
#include "eval/metrics.h"
#include "model/transformer_params_ops.h"
#include "nn/transformer_loss.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <thread>

namespace attnviz {
namespace {

template <typename T>
const MultiHeadAttentionParamsT<T>& attentionOf(const TransformerParamsT<T>& p, const HeadRef& h) {
    switch (h.kind) {
    case AttentionKind::EncoderSelf:
        return p.encoder_layers[size_t(h.layer)].self_attn;
    case AttentionKind::DecoderSelf:
        return p.decoder_layers[size_t(h.layer)].self_attn;
    case AttentionKind::Cross:
        break;
    }
    return p.decoder_layers[size_t(h.layer)].multihead_attn;
}

// One line, tokenized and checked.
struct Line {
    TokenizedText source, reference;
};

Line lineOf(const Model& model, const CorpusExample& ex, int max_source_tokens) {
    try {
        Line l{tokenizeSource(model, ex.source), tokenizeTarget(model, ex.target)};
        if (int(l.source.ids.size()) - 2 > max_source_tokens)
            throw InputError("the source has " + std::to_string(l.source.ids.size() - 2) + " tokens, more than " +
                             std::to_string(max_source_tokens));
        return l;
    } catch (const InputError& e) {
        throw InputError("line " + std::to_string(ex.line) + ": " + e.what());
    }
}

// What one head-off job of one line gives.
struct OffCounts {
    EvalCounts greedy;
    double log_prob = 0;
    int64_t tokens = 0;
};

// A line's output (greedy, or the best hypothesis of a beam search of width options.beam) scored against its
// reference, and the reference's log-probability, under `iv`.
OffCounts scoreLine(const Model& model, const Line& line, const Interventions& iv,
                    const HeadImportanceOptions& options) {
    DecodeOptions o;
    o.max_len = options.max_len;
    o.length_penalty = options.length_penalty;
    o.parallel_steps = false;  // every core runs a job of its own
    o.interventions = iv;
    OffCounts c;
    const DecodeResult output =
        options.beam > 1 ? beamSearch(model, line.source, options.beam, o).best : greedyDecode(model, line.source, o);
    c.greedy = evalExample(model, output, line.reference.tokens);
    c.log_prob = forcedDecode(model, line.source, line.reference, o).total_log_prob;
    c.tokens = int64_t(line.reference.ids.size());
    return c;
}

// What a line's last job gives: the plain model's scores and every head's gate gradient.
struct PlainLine {
    OffCounts plain;
    std::vector<double> gates;
};

struct Totals {
    EvalCounts counts;
    double log_prob = 0;
    int64_t tokens = 0;
    Totals& operator+=(const OffCounts& c) {
        counts += c.greedy;
        log_prob += c.log_prob;
        tokens += c.tokens;
        return *this;
    }
    double meanLogProb() const { return tokens ? log_prob / double(tokens) : 0.0; }
};

HeadImportanceReport sumUp(const std::vector<HeadRef>& heads, const std::vector<OffCounts>& off,
                           const std::vector<PlainLine>& plain) {
    const size_t H = heads.size(), lines = plain.size();
    HeadImportanceReport report;
    Totals base;
    for (const PlainLine& p : plain) base += p.plain;
    report.bleu = evalReport(base.counts).bleu;
    report.mean_log_prob = base.meanLogProb();
    report.heads.resize(H);
    for (size_t k = 0; k < H; ++k) {
        Totals t;
        double importance = 0;
        for (size_t i = 0; i < lines; ++i) {  // in the lines' order: the same sums whatever the threads
            t += off[i * H + k];
            importance += std::abs(plain[i].gates[k]);
        }
        report.heads[k] = {heads[k], evalReport(t.counts).bleu, t.meanLogProb(),
                           lines ? importance / double(lines) : 0.0};
    }
    return report;
}

}  // namespace

std::vector<HeadRef> allHeads(const TransformerConfig& c) {
    std::vector<HeadRef> heads;
    for (AttentionKind kind : {AttentionKind::Cross, AttentionKind::EncoderSelf, AttentionKind::DecoderSelf}) {
        for (int l = 0; l < c.layers(kind); ++l)
            for (int h = 0; h < c.nhead(kind); ++h) heads.push_back({kind, l, h});
    }
    return heads;
}

template <typename T>
std::vector<double> headGateGradients(const TransformerConfig& c, const TransformerParamsT<T>& p,
                                      const std::vector<int>& source, const std::vector<int>& target, int start) {
    TrainExample ex;
    ex.source = source;
    ex.target.push_back(start);  // the loss's target is [<sos>, y_1, …, <eos>]
    ex.target.insert(ex.target.end(), target.begin(), target.end());
    TransformerParamsT<T> g;
    zerosLike(g, p);
    TransformerLossCache<T> cache;
    transformerLossAndGrad<T>(c, p, ex, nullptr, T(1), &g, cache);  // g = ∂L/∂θ, L = −Σ log p(ref_t)
    std::vector<double> out;
    for (const HeadRef& h : allHeads(c)) {
        const int dh = c.headDim(h.kind);
        const auto w = attentionOf(p, h).out_proj_weight.middleCols(h.head * dh, dh);   // (d, d_h) W_O[:, h]
        const auto gw = attentionOf(g, h).out_proj_weight.middleCols(h.head * dh, dh);  // (d, d_h)
        out.push_back((w.template cast<double>().cwiseProduct(gw.template cast<double>())).sum());
    }
    return out;
}
template std::vector<double> headGateGradients<float>(const TransformerConfig&, const TransformerParamsT<float>&,
                                                      const std::vector<int>&, const std::vector<int>&, int);
template std::vector<double> headGateGradients<double>(const TransformerConfig&, const TransformerParamsT<double>&,
                                                       const std::vector<int>&, const std::vector<int>&, int);

void checkHeadImportance(const Model& model) {
    if (!kindOffers(model.config).attention_heads)
        throw InputError("head importance: a " + std::string(toString(model.config.decoder)) +
                         " model has no attention heads (it is for Transformer models)");
}

HeadImportanceReport headImportanceReport(const Model& model, const std::vector<CorpusExample>& examples,
                                          const HeadImportanceOptions& options) {
    checkHeadImportance(model);
    std::vector<Line> lines;
    for (const CorpusExample& ex : examples) lines.push_back(lineOf(model, ex, options.max_source_tokens));
    const std::vector<HeadRef> heads = allHeads(model.config.transformer);
    const size_t H = heads.size(), per_line = H + 1, jobs = lines.size() * per_line;
    std::vector<OffCounts> off(lines.size() * H);
    std::vector<PlainLine> plain(lines.size());
    const int threads = threadsFor(jobs, options.threads);
    auto cancelled = [&] { return options.cancel && options.cancel->load(std::memory_order_relaxed); };
    std::atomic<size_t> next{0}, done{0};
    runInParallel(threads, [&](int task) {  // each thread takes the next job: lines differ in length
        for (size_t j = next++; j < jobs && !cancelled(); j = next++) {
            const size_t i = j / per_line, k = j % per_line;
            try {
                if (k == H)
                    plain[i] = {scoreLine(model, lines[i], {}, options),
                                headGateGradients(model.config.transformer, model.transformer, lines[i].source.ids,
                                                  lines[i].reference.ids, model.target_vocab.specials().start)};
                else
                    off[i * H + k] = scoreLine(model, lines[i], Interventions{{}, {}, {heads[k]}}, options);
            } catch (const InputError& e) {
                throw InputError("line " + std::to_string(examples[i].line) + ": " + e.what());
            }
            const size_t finished = ++done;
            if (task == 0 && options.progress) options.progress(finished, jobs);
        }
    });
    if (done.load() < jobs) return {false, 0, 0, {}};  // cancelled before every job ran
    return sumUp(heads, off, plain);
}

std::vector<HeadScore> headsByBleuLost(std::vector<HeadScore> heads) {
    std::stable_sort(heads.begin(), heads.end(), [](const HeadScore& a, const HeadScore& b) {
        if (a.bleu_off != b.bleu_off) return a.bleu_off < b.bleu_off;
        return a.mean_log_prob_off < b.mean_log_prob_off;
    });
    return heads;
}

std::vector<HeadScore> headImportance(const Model& model, const std::vector<CorpusExample>& examples,
                                      const HeadImportanceOptions& options) {
    return headImportanceReport(model, examples, options).heads;
}

}  // namespace attnviz
