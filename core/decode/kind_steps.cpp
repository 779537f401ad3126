// KindSteps: a sentence's steps for either model kind.
// Legend: S source length with <sos>/<eos>, T reference length with <eos>, V target vocabulary size.
#include "decode/kind_steps.h"

#include "base/row_entropy.h"
#include "decode/candidates.h"

#include <stdexcept>
#include <string>
#include <utility>

namespace attnviz::detail {
namespace {

// The row of an RNN step: everything but token/token_text/log_prob/forced.
void fillRecord(const StepOutput& out, int top_k, const SpecialIds& target, StepRecord& rec) {
    const AttentionStep& a = out.attn;
    rec.attention.assign(a.weights.data(), a.weights.data() + a.weights.size());
    rec.scores.assign(a.scores.data(), a.scores.data() + a.scores.size());
    rec.context.assign(a.context.data(), a.context.data() + a.context.size());
    topCandidates(out.log_probs, top_k, target, rec.top_k);
    rec.entropy = float(rowEntropy({a.weights.data(), size_t(a.weights.size())}));
    rec.center = a.center;
}

}  // namespace

KindSteps::KindSteps(const Model& model, const std::vector<int>& source_ids, const StepPath& path,
                     const Interventions* iv)
    : model_(model) {
    if (model.config.isTransformer()) {
        transformer_.emplace(model, source_ids, iv, path.pool);
        return;
    }
    rnn_.emplace(model, path, iv);
    encode(model, source_ids, enc_, path.pool);
    start_.states.resize(1);
    rnn_->begin(enc_, start_.states[0], out_);
}

int KindSteps::lengthLimit(int max_len) const { return transformer_ ? transformer_->lengthLimit(max_len) : max_len; }

void KindSteps::chainSteps(int last_t) {
    if (rnn_) rnn_->chainSteps(last_t);
}

void KindSteps::step(DecodePrefix& prefix, int y_prev, int top_k, StepRecord& rec) {
    const int t = ++prefix.steps;  // 1-based, as the decoders number their steps
    if (transformer_) {
        transformer_->step(prefix.cache, y_prev, transformer_out_);
        fillTransformerRecord(transformer_out_, top_k, model_.target_vocab.specials(), rec);
        return;
    }
    std::vector<DecoderState>& states = prefix.states;
    states.emplace_back();
    const size_t after = states.size() - 1;
    rnn_->step(enc_, y_prev, t, states[after - 1], states[after], out_);
    fillRecord(out_, top_k, model_.target_vocab.specials(), rec);
    // The state the attention read: bahdanau's comes before the step, luong's after its GRU.
    const bool luong = model_.config.decoder == DecoderKind::Luong;
    const Vec& query = states[luong ? after : after - 1].s;
    rec.query_state.assign(query.data(), query.data() + query.size());
}

void KindSteps::truncate(DecodePrefix& prefix, int n) {
    if (n < prefix.first_state || n > prefix.steps)
        throw std::logic_error("decode: cannot go back to step " + std::to_string(n) + " of a prefix of steps " +
                               std::to_string(prefix.first_state) + ".." + std::to_string(prefix.steps));
    prefix.steps = n;
    prefix.cache.truncate(n);
    if (!prefix.states.empty()) prefix.states.resize(size_t(n - prefix.first_state) + 1);
}

DecodePrefix KindSteps::branch(const DecodePrefix& prefix) {
    DecodePrefix copy;
    copy.steps = prefix.steps;
    copy.cache = prefix.cache;  // O(t): the positions fed
    if (!prefix.states.empty()) {
        copy.states.push_back(prefix.states.back());
        copy.first_state = prefix.steps;
    }
    return copy;
}

void KindSteps::forced(const TokenizedText& reference, DecodeResult& r) {
    if (transformer_)
        forcedTransformer(reference, r);
    else
        forcedRnn(reference, r);
}

void KindSteps::forcedRnn(const TokenizedText& reference, DecodeResult& r) {
    // Every input is known, so the output layer runs once for all steps (Decoder::logProbs).
    DecoderState prev = start_.states[0], next;
    const int start = model_.target_vocab.specials().start;
    const int T = int(reference.ids.size());
    Mat features(T, rnn_->featureSize());  // (T, fc_out input)
    for (int i = 0; i < T; ++i) {
        const int id = reference.ids[size_t(i)];
        rnn_->stepFeatures(enc_, i == 0 ? start : reference.ids[size_t(i) - 1], i + 1, prev, next, out_.attn,
                           features.row(i).data());
        std::swap(prev, next);
        r.target_tokens.push_back(reference.tokens.empty() ? model_.target_vocab.token(id)
                                                           : reference.tokens[size_t(i)]);
        r.target_ids.push_back(id);
        const Vec& w = out_.attn.weights;
        r.attention.emplace_back(w.data(), w.data() + w.size());
        const Vec& e = out_.attn.scores;
        r.scores.emplace_back(e.data(), e.data() + e.size());
    }
    Mat log_probs;  // (T, V)
    rnn_->logProbs(features, log_probs);
    for (int i = 0; i < T; ++i) {
        const float lp = log_probs(i, reference.ids[size_t(i)]);
        r.log_probs.push_back(lp);
        r.total_log_prob += double(lp);
    }
}

void KindSteps::forcedTransformer(const TokenizedText& reference, DecodeResult& r) {
    DecodePrefix prefix = start();
    std::vector<StepRecord> records(reference.ids.size());
    std::vector<const StepRecord*> rows;
    for (size_t i = 0; i < reference.ids.size(); ++i) {
        const int id = reference.ids[i];
        step(prefix, i == 0 ? model_.target_vocab.specials().start : reference.ids[i - 1], 0, records[i]);
        const float lp = logProbs()[id];
        r.target_tokens.push_back(reference.tokens.empty() ? model_.target_vocab.token(id) : reference.tokens[i]);
        r.target_ids.push_back(id);
        r.attention.push_back(records[i].attention);
        r.scores.push_back(records[i].scores);
        r.log_probs.push_back(lp);
        r.total_log_prob += double(lp);
        rows.push_back(&records[i]);
    }
    addLayerAttention(r, rows);
}

void KindSteps::addLayerAttention(DecodeResult& r, const std::vector<const StepRecord*>& rows) const {
    if (transformer_) addTransformerAttention(r, transformer_->encoding().self_attention, rows);
}

const std::vector<std::vector<Mat>>& KindSteps::encoderSelfAttention() const {
    static const std::vector<std::vector<Mat>> none;
    return transformer_ ? transformer_->encoding().self_attention : none;
}

}  // namespace attnviz::detail
