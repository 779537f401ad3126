// One decoder step of docs/model-format.md, for both designs, with log-softmax over the full target vocabulary.
//   bahdanau: a from s_prev; c = Σ a_j h_j; s = GRU([x ; c], s_prev); logits = fc_out([s ; c ; x])
//   luong:    x' = [x ; h̃_prev] (input feeding) or x; s = GRU(x', s_prev); a from s; h̃ = tanh(combine([c ; s]));
//             logits = fc_out(h̃)
// This is the plain step, formula by formula. The bahdanau step has a faster form with the same results
// (fast/folded_decoder.h), which decode/ chooses when it pays.
// Legend: S source length, E emb_dim, H_e enc_hid_dim, H_d dec_hid_dim, V target vocabulary size.
#pragma once
#include "base/tensor.h"
#include "kernels/thread_pool.h"
#include "model/model.h"
#include "nn/attention.h"
#include "nn/encoder.h"

namespace attnviz {

// The recurrent state between steps.
struct DecoderState {
    Vec s;       // (H_d)
    Vec htilde;  // (H_d) luong's attentional vector h̃ (zeros before the first step); empty for bahdanau
};

// What one step computed.
struct StepOutput {
    AttentionStep attn;
    Vec log_probs;  // (V) log-softmax of the logits
};

// Owns the per-step scratch: after begin(), step() allocates nothing (except sizing `next` the first time).
class Decoder {
public:
    // `pool`: the threads a step's products may share (kernels/row_split.h); nullptr: this thread only.
    Decoder(const Model& model, ThreadPool* pool);
    const Model& model() const { return *model_; }
    // Attention::setInterventions; before begin().
    void setInterventions(const Interventions* iv) { attention_.setInterventions(iv); }

    // Sizes the buffers for this sentence and writes the state before the first step (s_0, h̃ = 0). Every later
    // call must pass the same `enc`.
    void begin(const EncoderState& enc, DecoderState& initial, StepOutput& out);
    // One step: previous token y_prev (<sos> first), `t` the target position of the token produced (1 first).
    // `next` must not alias `prev`.
    void step(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
              StepOutput& out);

    // The same step without the output layer: writes fc_out's input (bahdanau [s ; c ; x], luong h̃;
    // featureSize() floats) to `features`. Teacher forcing knows every input in advance, so it computes the
    // features of all steps first and the logits of all steps as one GEMM (logProbs), reading fc_out once.
    void stepFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                      AttentionStep& attn, float* features);
    int featureSize() const { return int(model_->params.fc_out_w.cols()); }
    // log_probs (T, V) = log-softmax of rows of features (T, featureSize()) · fc_outᵀ + b.
    void logProbs(const Mat& features, Mat& log_probs) const;

private:
    void bahdanauFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                          AttentionStep& attn, float* features);
    void luongFeatures(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                       AttentionStep& attn, float* features);

    const Model* model_;
    ThreadPool* pool_;
    Attention attention_;
    Vec in_;    // GRU input: bahdanau [x ; c] (E + 2H_e); luong [x ; h̃_prev] or x
    Vec gi_;    // (3H_d) W_ih in + b_ih
    Vec gh_;    // (3H_d) scratch of the cell
    Vec cat_;   // bahdanau fc_out input [s ; c ; x] (H_d + 2H_e + E); luong combine input [c ; s] (2H_e + H_d)
    Vec feat_;  // luong fc_out input h̃ (H_d)
};

// InputError unless y is a target token id of the model.
void checkTargetId(const ModelParams& p, int y);

// bahdanau's fc_out input [s ; c ; x] (H_d + 2H_e + E) written to `features`.
void writeBahdanauFeatures(const Vec& s, const Vec& context, const float* x, int E, float* features);

}  // namespace attnviz
