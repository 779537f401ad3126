// Attention scores, spans and context of docs/model-format.md for one decoder state.
// Legend: S source length with <sos>/<eos>, H_e enc_hid_dim, H_d dec_hid_dim, D window half-width.
#pragma once
#include "base/tensor.h"
#include "kernels/gemv_terms.h"
#include "model/interventions.h"
#include "model/model.h"
#include "nn/encoder.h"

#include <limits>

namespace attnviz {

// The attention of one decoder step.
struct AttentionStep {
    Vec scores;                                              // (S) raw e_j; NaN outside a local window
    Vec weights;                                             // (S) a_j; exactly 0 outside a local window
    Vec context;                                             // (2H_e) c = Σ_j a_j h_j
    float center = std::numeric_limits<float>::quiet_NaN();  // p of a local span; NaN for global
    int lo = 0, hi = -1;                                     // the window, inclusive (0 .. S-1 for global)
};

// Computes e_j, a and c from a decoder state. Owns its per-step scratch: call prepare(S) once per sentence,
// then compute() allocates nothing.
class Attention {
public:
    // `pool`: the threads the query's product may share (kernels/row_split.h); nullptr: this thread only.
    Attention(const Model& model, ThreadPool* pool);
    // The interventions of the decode (docs/explain.md; nullptr or empty: none), applied from the next prepare() on:
    // knocked-out positions score −∞ before the softmax (a window with none left is all zeros, context 0); an
    // attended row is one-hot at its position (context h_j). `iv` must outlive the decode.
    void setInterventions(const Interventions* iv) { interventions_ = iv; }
    void prepare(int S, AttentionStep& out);
    // `s` is the state the score is taken from (H_d); `t` the target position of the token being produced
    // (1 for the first), used by local_m.
    void compute(const EncoderState& enc, const float* s, int t, AttentionStep& out);

    // The additive score's query W_s s (H_d) as a product a caller can run together with others (the folded
    // bahdanau step); computeWithQuery() then does the rest from the caller's `query` = W_s s. Other scores have no
    // such product (hasQuery() false; `query` is not read): computeWithQuery() is compute() for them.
    bool hasQuery() const;
    GemvTerm queryTerm(const float* s) const;
    void computeWithQuery(const EncoderState& enc, const float* s, const float* query, int t, AttentionStep& out);

private:
    // The softmax over the window [lo, hi] with the knockout applied; false when every position is knocked out.
    bool knockOut(int lo, int hi, AttentionStep& out) const;
    void attendOnly(const EncoderState& enc, int j, AttentionStep& out) const;

    const Model* model_;
    const Interventions* interventions_ = nullptr;
    std::vector<char> knocked_;  // (S) knockoutMask of the sentence; empty: nothing knocked out
    std::vector<int> attended_;  // attendedPositions of the interventions; empty: no attend
    ThreadPool* pool_;
    Vec query_;  // (H_d) additive: W_s s, for compute()
    Vec ws_;     // (H_d) local_p: W_p s
    Vec row_;    // (H_d) additive: tanh(W_s s + U h_j + b) for one j
};

}  // namespace attnviz
