// How decode/ computes a sentence's steps: the plain step of nn/decoder.h, or the folded bahdanau step of
// fast/folded_decoder.h when it pays; both give the same results. Internal to decode/ (the public API is
// decode/decoding.h); tests and benchmarks use StepPath to pick a path.
// Legend: S source length with <sos>/<eos>, V target vocabulary size.
#pragma once
#include "decode/decoding.h"
#include "fast/folded_decoder.h"
#include "fast/token_tables.h"
#include "kernels/thread_pool.h"
#include "nn/decoder.h"
#include "nn/encoder.h"

#include <optional>

namespace attnviz::detail {

// The engine's way of computing a decode.
struct StepPath {
    Folding folding = Folding::Auto;
    TokenTables* tables = nullptr;  // the folded step's per-token products; nullptr: computed at every step
    ThreadPool* pool = nullptr;     // the threads a step may share; nullptr: this thread only
};

// The model's token tables, made on first use (Model::engine_cache) and shared by every decode of that model.
TokenTables& tablesOf(const Model& model);
// What the engine uses unless told otherwise: Auto, the model's own tables, and the engine's pool unless the
// options keep the decode on its own thread.
StepPath defaultPath(const Model& model, const DecodeOptions& options);

// A decoder that picks its step for each sentence in begin(). Same calls as Decoder.
class StepDecoder {
public:
    // `iv` (nullptr: none): the decode's interventions, for either step; must outlive the decoder.
    StepDecoder(const Model& model, const StepPath& path, const Interventions* iv = nullptr);

    void begin(const EncoderState& enc, DecoderState& initial, StepOutput& out);
    // Greedy decoding and the session continue from the state a step returns until step `last_t` (see
    // FoldedDecoder::chainSteps); only speed depends on it. Call after begin().
    void chainSteps(int last_t);
    void step(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
              StepOutput& out);
    void stepFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                      AttentionStep& attn, float* features);
    int featureSize() const { return plain_.featureSize(); }
    void logProbs(const Mat& features, Mat& log_probs) const { plain_.logProbs(features, log_probs); }
    // The sentence begun last uses the folded step.
    bool folded() const { return use_folded_; }

private:
    Folding folding_;
    Decoder plain_;
    std::optional<FoldedDecoder> folded_;  // bahdanau models only
    bool use_folded_ = false;
};

}  // namespace attnviz::detail
