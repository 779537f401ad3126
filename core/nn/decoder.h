// One decoder step of spec/model-format.md, for both designs, with log-softmax over the full target vocabulary.
//   bahdanau: a from s_prev; c = Σ a_j h_j; s = GRU([x ; c], s_prev); logits = fc_out([s ; c ; x])
//   luong:    x' = [x ; h̃_prev] (input feeding) or x; s = GRU(x', s_prev); a from s; h̃ = tanh(combine([c ; s]));
//             logits = fc_out(h̃)
// Legend: S source length, E emb_dim, H_e enc_hid_dim, H_d dec_hid_dim, V target vocabulary size.
#pragma once
#include "base/tensor.h"
#include "fast/token_tables.h"
#include "kernels/gemv_terms.h"
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

// Whether the bahdanau decoder folds the context into per-sentence products (see Decoder): Auto when it pays (a
// short source, 4·S ≤ 2H_e, and an fc_out too large for L2); Always and Never let tests compare both ways with the
// reference and benchmarks measure both. Process-wide.
enum class ContextFolding { Auto, Always, Never };
void setContextFolding(ContextFolding mode);
ContextFolding contextFolding();

// Owns the per-step scratch: after begin(), step() allocates nothing (except sizing `next` the first time).
// bahdanau, folded: the context c = Hᵀa enters the GRU input and the output layer through the context columns W_c
// of decoder.rnn.weight_ih and fc_out: W_c c = (W_c Hᵀ) a. W_c Hᵀ is computed once per sentence, so a step reads the
// (V, S) product instead of fc_out's (V, 2H_e) context columns: 24.6 of fc_out's 41 MB per step for the large model.
// The same sums in another order: equal to float32 round-off. The products of the previous token's embedding (with
// fc_out's and W_ih's x columns) are separate products, kept per token when the decoder has TokenTables.
class Decoder {
public:
    // `tables` (optional, for this very model object; InputError otherwise) keep the folded steps' per-token products
    // across steps and sentences. Only speed depends on them.
    explicit Decoder(const Model& model, TokenTables* tables = nullptr);
    const Model& model() const { return *model_; }

    // Sizes the buffers for this sentence and writes the state before the first step (s_0, h̃ = 0). Every later
    // call must pass the same `enc`.
    void begin(const EncoderState& enc, DecoderState& initial, StepOutput& out);
    // Tells step() that until step `last_t`, the next step will most likely continue from the state it returns
    // (greedy decoding and the session do; beam search steps several states in turn and does not call this). A
    // folded step t < last_t then also computes the next step's products of its new state while fc_out streams.
    // Only speed depends on it: a step from any other state computes them itself. begin() resets it.
    void chainSteps(int last_t) { chain_until_ = last_t; }
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
    // bahdanau, folded (see decoder.cpp): the attention and the new state; the whole step.
    void foldedState(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                     AttentionStep& attn);
    void stepFolded(const EncoderState& enc, int y_prev, int t, const DecoderState& prev, DecoderState& next,
                    StepOutput& out);

    // The jobs that compute W_hh s into gh_ and the attention's query W_s s (when it has one); returns how many.
    size_t stateJobs(const Vec& s, GemvTerm& hh, GemvTerm& query, GemvJob* jobs);

    // The per-token products of y_prev (TokenTables): the kept row, or computed into x_rows_[part] (and kept).
    const float* tokenRow(TokenTables::Part part, int y) const;
    void keepRow(TokenTables::Part part, int y);

    const Model* model_;
    TokenTables* tables_ = nullptr;  // nullptr, or enabled tables of *model_
    Attention attention_;
    Vec in_;             // GRU input: bahdanau [x ; c] (E + 2H_e); luong [x ; h̃_prev] or x
    Vec gi_;             // (3H_d) W_ih in + b_ih
    Vec gh_;             // (3H_d) scratch of the cell
    Vec cat_;            // bahdanau fc_out input [s ; c ; x] (H_d + 2H_e + E); luong combine input [c ; s] (2H_e + H_d)
    Vec feat_;           // luong fc_out input h̃ (H_d)
    bool fold_ = false;  // bahdanau: the context is folded for this sentence
    bool fold_fc_ready_ =
        false;       // fold_fc_ is computed in the first step()'s output pass (forced decoding never needs it)
    Mat fold_ih_;    // (3H_d, S') W_ih's context columns times each h_j; S' = paddedColumns(S), zeros past S
    Mat fold_fc_;    // (V, S') fc_out's context columns times each h_j
    Vec weights_;    // (S') this step's attention row a, zeros past S
    Vec x_rows_[2];  // folded: y_prev's products when not kept, (V) fc_out's x columns · x, (3H_d) W_ih's · x
    // A folded step t < chain_until_ computes W_hh s and the attention's query for its new state s in its output
    // pass, so that they stream with fc_out rather than in a phase of their own; carried_: gh_ and the query hold
    // them, for the state carried_s_. cursor_: where the two cores met in the last output pass (shareChunks).
    int chain_until_ = 0;
    bool carried_ = false;
    Vec carried_s_;  // (H_d)
    ChunkCursor cursor_;
};

}  // namespace attnviz
