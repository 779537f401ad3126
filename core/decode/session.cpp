// DecodingSession: the step-wise API the GUI drives, and resultFromSession.
// Legend: S source length with <sos>/<eos>, V target vocabulary size, H_d dec_hid_dim.
#include "decode/decoding.h"
#include "decode/subword_words.h"

#include "base/errors.h"
#include "decode/candidates.h"
#include "decode/decode_inputs.h"
#include "decode/kind_steps.h"
#include "decode/on_path.h"
#include "text/tokenizer.h"

#include <algorithm>
#include <optional>
#include <string>

namespace attnviz {

struct DecodingSession::Impl {
    std::shared_ptr<const Model> model;
    TokenizedText source;
    DecodeOptions options;
    int max_len = 0;
    std::vector<StepRecord> steps;
    int cursor = 0;
    int computed = 0;
    std::optional<detail::KindSteps> kind;
    // The steps computed, cut back to step i's inputs when step i is recomputed, so going back and branching keep
    // O(t) steps.
    detail::DecodePrefix prefix;

    Impl(std::shared_ptr<const Model> m, const TokenizedText& src, DecodeOptions opt, const detail::StepPath& path)
        : model(std::move(m)), source(detail::checkedSource(*model, src)), options(opt) {
        max_len = detail::resolveMaxLength(options, int(source.ids.size()));
        options.top_k = std::clamp(options.top_k, 0, detail::producibleCount(model->target_vocab));
        checkInterventions(*model, options.interventions, int(source.ids.size()), max_len);
        kind.emplace(*model, source.ids, path, &options.interventions);  // options lives as long as the steps
        max_len = kind->lengthLimit(max_len);
        prefix = kind->start();
        kind->chainSteps(max_len);
    }

    bool complete() const {
        return int(steps.size()) >= max_len ||
               (!steps.empty() && steps.back().token == model->target_vocab.specials().eos);
    }

    // Computes step `index` (dropping it and every later step first); token < 0 = greedy. No validation.
    void computeStep(int index, int token) {
        steps.resize(size_t(index));
        detail::KindSteps::truncate(prefix, index);
        const int y_prev = index == 0 ? model->target_vocab.specials().start : steps[size_t(index) - 1].token;
        StepRecord rec;
        kind->step(prefix, y_prev, options.top_k, rec);
        addRecord(std::move(rec), token, kind->logProbs());
    }

    void addRecord(StepRecord rec, int token, const Vec& log_probs) {
        ++computed;
        rec.forced = token >= 0;
        rec.token = token >= 0 ? token : detail::bestToken(log_probs, model->target_vocab.specials());
        rec.log_prob = log_probs[rec.token];
        rec.token_text = model->target_vocab.token(rec.token);
        steps.push_back(std::move(rec));
        cursor = int(steps.size());
    }
};

DecodingSession::DecodingSession(std::shared_ptr<const Model> model, std::string_view source_text,
                                 DecodeOptions options)
    : DecodingSession(model, model ? tokenizeSource(*model, source_text) : TokenizedText{}, options) {}

DecodingSession::DecodingSession(std::shared_ptr<const Model> model, TokenizedText source, DecodeOptions options) {
    if (!model) throw InputError("decoding session: no model");
    const detail::StepPath path = detail::defaultPath(*model, options);
    impl_ = std::make_unique<Impl>(std::move(model), source, options, path);
}

DecodingSession::DecodingSession(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

DecodingSession detail::SessionAccess::session(std::shared_ptr<const Model> model, TokenizedText source,
                                               DecodeOptions options, const StepPath& path) {
    if (!model) throw InputError("decoding session: no model");
    return DecodingSession(std::make_unique<DecodingSession::Impl>(std::move(model), source, options, path));
}

const detail::KindSteps& detail::SessionAccess::steps(const DecodingSession& session) { return *session.impl_->kind; }

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

const std::vector<std::vector<Mat>>& DecodingSession::encoderSelfAttention() const {
    return impl_->kind->encoderSelfAttention();
}

bool DecodingSession::forward() {
    Impl& d = *impl_;
    if (d.cursor < int(d.steps.size())) {
        ++d.cursor;
        return true;
    }
    if (d.complete()) return false;
    d.computeStep(int(d.steps.size()), -1);
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
    if (index < 0 || index > int(d.steps.size()) || index >= d.max_len)
        throw InputError("force: step " + std::to_string(index) + " is out of range (0.." +
                         std::to_string(std::min(int(d.steps.size()), d.max_len - 1)) + ")");
    detail::checkProducible(*d.model, token, "force:");
    // The step's attention, state and distribution do not depend on its own output, so recomputing it from the
    // kept state before it gives the same row; only the token (and its log-prob) change.
    d.computeStep(index, token);
}

void DecodingSession::runToEnd() {
    Impl& d = *impl_;
    while (!d.complete()) d.computeStep(int(d.steps.size()), -1);
    d.cursor = int(d.steps.size());
}

DecodeResult resultFromSession(const DecodingSession& session) {
    DecodeResult r;
    r.source_tokens = session.source().tokens;
    r.source_ids = session.source().ids;
    r.decoder_start = session.model().target_vocab.token(session.model().target_vocab.specials().start);
    const auto& steps = session.steps();
    std::vector<const StepRecord*> rows;
    for (int i = 0; i < session.cursor(); ++i) {
        const StepRecord& s = steps[size_t(i)];
        rows.push_back(&s);
        r.target_tokens.push_back(s.token_text);
        r.target_ids.push_back(s.token);
        r.attention.push_back(s.attention);
        r.scores.push_back(s.scores);
        r.log_probs.push_back(s.log_prob);
        r.total_log_prob += double(s.log_prob);
    }
    detail::SessionAccess::steps(session).addLayerAttention(r, rows);
    describeSubwords(session.model(), r);
    return r;
}

}  // namespace attnviz
