// DecodingSession (the step-wise API the GUI drives), greedy and forced decoding on tokenized text.
// Legend: S source length with <sos>/<eos>, V target vocabulary size, H_d dec_hid_dim.
#include "decode/decoding.h"

#include "base/errors.h"
#include "decode/detail.h"
#include "nn/decoder.h"
#include "nn/encoder.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnviz {
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

float attentionEntropy(const Vec& w) {
    double h = 0;
    for (int j = 0; j < int(w.size()); ++j)
        if (w[j] > 0) h -= double(w[j]) * std::log(double(w[j]));
    return float(h);
}

void fillRecord(const StepOutput& out, int top_k, StepRecord& rec) {
    const AttentionStep& a = out.attn;
    rec.attention.assign(a.weights.data(), a.weights.data() + a.weights.size());
    rec.scores.assign(a.scores.data(), a.scores.data() + a.scores.size());
    rec.context.assign(a.context.data(), a.context.data() + a.context.size());
    topCandidates(out.log_probs, top_k, rec.top_k);
    rec.entropy = attentionEntropy(a.weights);
    rec.center = a.center;
}

int resolveMaxLength(const DecodeOptions& options, int S) {
    if (options.max_len < 0)
        throw InputError("max_len must be at least 1 (0 for the default 2 * S + 10), got " +
                         std::to_string(options.max_len));
    return options.max_len == 0 ? 2 * S + 10 : options.max_len;
}

void checkSource(const Model& model, const TokenizedText& source) {
    if (source.ids.empty()) throw InputError("source sentence: no tokens (expected at least <sos> and <eos>)");
    if (!source.tokens.empty() && source.tokens.size() != source.ids.size())
        throw InputError("source sentence: " + std::to_string(source.tokens.size()) + " tokens but " +
                         std::to_string(source.ids.size()) + " ids");
    const int Vs = model.source_vocab.size();
    for (size_t j = 0; j < source.ids.size(); ++j)
        if (source.ids[j] < 0 || source.ids[j] >= Vs)
            throw InputError("source sentence: token id " + std::to_string(source.ids[j]) + " at position " +
                             std::to_string(j) + " is outside the source vocabulary (size " + std::to_string(Vs) + ")");
}

}  // namespace detail

struct DecodingSession::Impl {
    std::shared_ptr<const Model> model;
    TokenizedText source;
    DecodeOptions options;
    int max_len = 0;
    EncoderState enc;
    Decoder decoder;
    StepOutput work;                   // scratch of the step being computed
    std::vector<DecoderState> states;  // states[i] = the state before step i; size steps.size() + 1
    std::vector<StepRecord> steps;
    int cursor = 0;
    int computed = 0;

    Impl(std::shared_ptr<const Model> m, TokenizedText src, DecodeOptions opt)
        : model(std::move(m)), source(std::move(src)), options(opt), decoder(*model, options.token_tables.get()) {
        detail::checkSource(*model, source);
        if (source.tokens.empty())
            for (int id : source.ids) source.tokens.push_back(model->source_vocab.token(id));
        max_len = detail::resolveMaxLength(options, int(source.ids.size()));
        options.top_k = std::clamp(options.top_k, 0, std::max(0, model->target_vocab.size() - 2));
        encode(*model, source.ids, enc);
        states.resize(1);
        decoder.begin(enc, states[0], work);
        decoder.chainSteps(max_len);
    }

    bool complete() const { return int(steps.size()) >= max_len || (!steps.empty() && steps.back().token == kEos); }

    // Computes step `index` (dropping it and every later step first); token < 0 = greedy. No validation.
    void computeStep(int index, int token, const std::string* text) {
        steps.resize(size_t(index));
        states.resize(size_t(index) + 2);
        const int y_prev = index == 0 ? kSos : steps[size_t(index) - 1].token;
        decoder.step(enc, y_prev, index + 1, states[size_t(index)], states[size_t(index) + 1], work);
        ++computed;
        StepRecord rec;
        detail::fillRecord(work, options.top_k, rec);
        rec.forced = token >= 0;
        rec.token = token >= 0 ? token : detail::bestToken(work.log_probs);
        rec.log_prob = work.log_probs[rec.token];
        rec.token_text = text ? *text : model->target_vocab.token(rec.token);
        steps.push_back(std::move(rec));
        cursor = index + 1;
    }
};

DecodingSession::DecodingSession(std::shared_ptr<const Model> model, TokenizedText source, DecodeOptions options) {
    if (!model) throw InputError("decoding session: no model");
    impl_ = std::make_unique<Impl>(std::move(model), std::move(source), options);
}
DecodingSession::~DecodingSession() = default;
DecodingSession::DecodingSession(DecodingSession&&) noexcept = default;
DecodingSession& DecodingSession::operator=(DecodingSession&&) noexcept = default;

const Model& DecodingSession::model() const { return *impl_->model; }
const std::shared_ptr<const Model>& DecodingSession::modelPtr() const { return impl_->model; }
const TokenizedText& DecodingSession::source() const { return impl_->source; }
const std::vector<StepRecord>& DecodingSession::steps() const { return impl_->steps; }
int DecodingSession::cursor() const { return impl_->cursor; }
int DecodingSession::maxLength() const { return impl_->max_len; }
bool DecodingSession::complete() const { return impl_->complete(); }
int DecodingSession::computedStepCount() const { return impl_->computed; }

bool DecodingSession::forward() {
    Impl& d = *impl_;
    if (d.cursor < int(d.steps.size())) {
        ++d.cursor;
        return true;
    }
    if (d.complete()) return false;
    d.computeStep(int(d.steps.size()), -1, nullptr);
    return true;
}

bool DecodingSession::back() {
    if (impl_->cursor == 0) return false;
    --impl_->cursor;
    return true;
}

void DecodingSession::seek(int cursor) { impl_->cursor = std::clamp(cursor, 0, int(impl_->steps.size())); }

void DecodingSession::force(int index, int token) {
    Impl& d = *impl_;
    const int V = d.model->target_vocab.size();
    if (index < 0 || index > int(d.steps.size()) || index >= d.max_len)
        throw InputError("force: step " + std::to_string(index) + " is out of range (0.." +
                         std::to_string(std::min(int(d.steps.size()), d.max_len - 1)) + ")");
    if (token < 0 || token >= V || !detail::producible(token))
        throw InputError("force: token id " + std::to_string(token) + " cannot be produced (valid: 1 or 3.." +
                         std::to_string(V - 1) + ")");
    // The step's attention, state and distribution do not depend on its own output, so recomputing it from the
    // kept state before it gives the same row; only the token (and its log-prob) change.
    d.computeStep(index, token, nullptr);
}

void DecodingSession::runToEnd() {
    Impl& d = *impl_;
    while (!d.complete()) d.computeStep(int(d.steps.size()), -1, nullptr);
    d.cursor = int(d.steps.size());
}

DecodeResult resultFromSession(const DecodingSession& session) {
    DecodeResult r;
    r.source_tokens = session.source().tokens;
    r.source_ids = session.source().ids;
    const auto& steps = session.steps();
    for (int i = 0; i < session.cursor(); ++i) {
        const StepRecord& s = steps[size_t(i)];
        r.target_tokens.push_back(s.token_text);
        r.target_ids.push_back(s.token);
        r.attention.push_back(s.attention);
        r.scores.push_back(s.scores);
        r.log_probs.push_back(s.log_prob);
        r.total_log_prob += double(s.log_prob);
    }
    return r;
}

DecodeResult greedyDecode(const Model& model, const TokenizedText& source, const DecodeOptions& options) {
    // A non-owning shared_ptr: the session lives only inside this call.
    DecodeOptions opt = options;
    opt.top_k = 0;
    DecodingSession session(std::shared_ptr<const Model>(&model, [](const Model*) {}), source, opt);
    session.runToEnd();
    return resultFromSession(session);
}

DecodeResult forcedDecode(const Model& model, const TokenizedText& source, const TokenizedText& reference) {
    if (reference.ids.empty()) throw InputError("reference: no tokens (expected at least <eos>)");
    if (!reference.tokens.empty() && reference.tokens.size() != reference.ids.size())
        throw InputError("reference: " + std::to_string(reference.tokens.size()) + " tokens but " +
                         std::to_string(reference.ids.size()) + " ids");
    const int V = model.target_vocab.size();
    for (size_t i = 0; i < reference.ids.size(); ++i)
        if (reference.ids[i] < 0 || reference.ids[i] >= V)
            throw InputError("reference: token id " + std::to_string(reference.ids[i]) + " at position " +
                             std::to_string(i) + " is outside the target vocabulary (size " + std::to_string(V) + ")");
    TokenizedText src = source;
    detail::checkSource(model, src);
    if (src.tokens.empty())
        for (int id : src.ids) src.tokens.push_back(model.source_vocab.token(id));
    DecodeResult r;
    r.source_tokens = src.tokens;
    r.source_ids = src.ids;

    EncoderState enc;
    encode(model, src.ids, enc);
    Decoder decoder(model);
    DecoderState prev, next;
    StepOutput out;
    decoder.begin(enc, prev, out);
    // Teacher forcing: step i is fed reference token i-1 (<sos> first) and scored on reference token i. Every input
    // is known, so the output layer runs once for all steps (Decoder::logProbs).
    const int T = int(reference.ids.size());
    Mat features(T, decoder.featureSize());  // (T, fc_out input)
    for (int i = 0; i < T; ++i) {
        const int id = reference.ids[size_t(i)];
        decoder.stepFeatures(enc, i == 0 ? kSos : reference.ids[size_t(i) - 1], i + 1, prev, next, out.attn,
                             features.row(i).data());
        std::swap(prev, next);
        r.target_tokens.push_back(reference.tokens.empty() ? model.target_vocab.token(id)
                                                           : reference.tokens[size_t(i)]);
        r.target_ids.push_back(id);
        const Vec& w = out.attn.weights;
        r.attention.emplace_back(w.data(), w.data() + w.size());
        const Vec& e = out.attn.scores;
        r.scores.emplace_back(e.data(), e.data() + e.size());
    }
    Mat log_probs;  // (T, V)
    decoder.logProbs(features, log_probs);
    for (int i = 0; i < T; ++i) {
        const float lp = log_probs(i, reference.ids[size_t(i)]);
        r.log_probs.push_back(lp);
        r.total_log_prob += double(lp);
    }
    return r;
}

}  // namespace attnviz
