#include "decode/step_decoder.h"

namespace attnviz::detail {

TokenTables& tablesOf(const Model& model) {
    // The cache lives in the model and the tables point back at it: no cycle, as they hold a plain pointer.
    const std::shared_ptr<void> tables =
        model.engine_cache.getOrMake([&model] { return std::make_shared<TokenTables>(model); });
    return *static_cast<TokenTables*>(tables.get());
}

StepPath defaultPath(const Model& model, const DecodeOptions& options) {
    StepPath path;
    if (model.config.decoder == DecoderKind::Bahdanau) path.tables = &tablesOf(model);
    path.pool = options.parallel_steps ? &ThreadPool::engine() : nullptr;
    return path;
}

StepDecoder::StepDecoder(const Model& model, const StepPath& path, const Interventions* iv)
    : folding_(path.folding), plain_(model, path.pool) {
    plain_.setInterventions(iv);
    if (model.config.decoder == DecoderKind::Bahdanau && folding_ != Folding::Never) {
        folded_.emplace(model, path.tables, path.pool);
        folded_->setInterventions(iv);
    }
}

void StepDecoder::begin(const EncoderState& enc, DecoderState& initial, StepOutput& out) {
    use_folded_ = folded_ && (folding_ == Folding::Always || foldingPays(plain_.model(), enc.S));
    if (use_folded_)
        folded_->begin(enc, initial, out);
    else
        plain_.begin(enc, initial, out);
}

void StepDecoder::chainSteps(int last_t) {
    if (use_folded_) folded_->chainSteps(last_t);
}

void StepDecoder::step(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                       StepOutput& out) {
    if (use_folded_)
        folded_->step(enc, y_prev, t, prev, next, out);
    else
        plain_.step(enc, y_prev, t, prev, next, out);
}

void StepDecoder::stepFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                               AttentionStep& attn, float* features) {
    if (use_folded_)
        folded_->stepFeatures(enc, y_prev, t, prev, next, attn, features);
    else
        plain_.stepFeatures(enc, y_prev, t, prev, next, attn, features);
}

}  // namespace attnviz::detail
