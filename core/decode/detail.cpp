#include "decode/detail.h"

#include "base/errors.h"
#include "base/row_entropy.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace attnviz {

int defaultMaxLength(int S) { return 2 * S + 10; }

namespace detail {

int bestToken(const Vec& lp) {
    int best = -1;
    float best_v = -std::numeric_limits<float>::infinity();
    for (int i = 0; i < int(lp.size()); ++i) {
        if (!producible(i)) continue;
        if (best < 0 || lp[i] > best_v) best = i, best_v = lp[i];  // strict: ties keep the lower id
    }
    return best;
}

void topCandidates(const Vec& lp, int k, std::vector<Candidate>& out) {
    out.clear();
    if (k <= 0) return;
    for (int i = 0; i < int(lp.size()); ++i) {
        if (!producible(i)) continue;
        const float v = lp[i];
        if (int(out.size()) == k && !(v > out.back().log_prob)) continue;
        // insert after every candidate with log_prob >= v (lower ids first among equals)
        auto pos = std::find_if(out.begin(), out.end(), [&](const Candidate& c) { return c.log_prob < v; });
        if (int(out.size()) == k) out.pop_back();
        out.insert(pos, Candidate{i, 0.0f, v});
    }
    for (Candidate& c : out) c.prob = std::exp(c.log_prob);
}

void fillRecord(const StepOutput& out, int top_k, StepRecord& rec) {
    const AttentionStep& a = out.attn;
    rec.attention.assign(a.weights.data(), a.weights.data() + a.weights.size());
    rec.scores.assign(a.scores.data(), a.scores.data() + a.scores.size());
    rec.context.assign(a.context.data(), a.context.data() + a.context.size());
    topCandidates(out.log_probs, top_k, rec.top_k);
    rec.entropy = float(rowEntropy({a.weights.data(), size_t(a.weights.size())}));
    rec.center = a.center;
}

int resolveMaxLength(const DecodeOptions& options, int S) {
    if (options.max_len < 0)
        throw InputError("max_len must be at least 1 (0 for the default 2 * S + 10), got " +
                         std::to_string(options.max_len));
    return options.max_len == 0 ? defaultMaxLength(S) : options.max_len;
}

TokenizedText checkedSource(const Model& model, const TokenizedText& source) {
    if (source.ids.empty()) throw InputError("source sentence: no tokens (expected at least <sos> and <eos>)");
    if (!source.tokens.empty() && source.tokens.size() != source.ids.size())
        throw InputError("source sentence: " + std::to_string(source.tokens.size()) + " tokens but " +
                         std::to_string(source.ids.size()) + " ids");
    const int Vs = model.source_vocab.size();
    for (size_t j = 0; j < source.ids.size(); ++j)
        if (source.ids[j] < 0 || source.ids[j] >= Vs)
            throw InputError("source sentence: token id " + std::to_string(source.ids[j]) + " at position " +
                             std::to_string(j) + " is outside the source vocabulary (size " + std::to_string(Vs) + ")");
    TokenizedText checked = source;
    if (checked.tokens.empty())
        for (int id : checked.ids) checked.tokens.push_back(model.source_vocab.token(id));
    return checked;
}

}  // namespace detail
}  // namespace attnviz
