// Batched attention forward / backward for training: the four scores and the three spans of docs/model-format.md,
// templated on the scalar type. The query q of a step is the decoder state the score is taken from.
// Legend: B batch rows, S the batch's longest source (with <sos>/<eos>), S_b example b's own length, H_e, H_d,
// D window, K decoder steps. Encoder buffers are batch-major: row b*S + j is h_j of example b (j < S_b valid).
#pragma once
#include "model/config.h"
#include "model/interventions.h"
#include "model/params_ops.h"

#include <vector>

namespace attnviz {

// The encoder side of one batch, shared by every decoder step.
// Attribution runs the forward once per distinct input (B_f of them) and the backward for B copies of those inputs
// (nn/seq2seq_grad.cpp): then H, keys, len and the AttnCache's forward rows are the inputs', and backward row b reads
// input input_of[b]. In training B_f = B and input_of is empty (row b reads itself).
template <typename T>
struct AttnEncoder {
    int B = 0, S = 0;
    int inputs = 0;             // B_f
    std::vector<int> input_of;  // (B) attribution: the input copy b reads; empty: b
    std::vector<int> len;       // (B_f) S_b
    // (B_f) each input's interventions (TrainExample::interventions; knockout and attend), null for none
    std::vector<const Interventions*> interventions;
    MatT<T> H;     // (B_f*S, 2H_e) encoder outputs h_j
    MatT<T> keys;  // (B_f*S, H_d) additive: U h_j + b (U = the last 2H_e columns of attn.weight); general: W h_j
    // backward
    MatT<T> dH;     // (B*S, 2H_e)
    MatT<T> dkeys;  // (B*S, H_d)
    int inputOf(int b) const { return input_of.empty() ? b : input_of[size_t(b)]; }
    const Interventions* interventionsOf(int f) const {
        return interventions.empty() ? nullptr : interventions[size_t(f)];
    }
    // The position input f's row k attends only to (Interventions::attend), or −1.
    int attendedAt(int f, int k) const {
        const Interventions* iv = interventionsOf(f);
        return iv ? attendedPosition(*iv, k) : -1;
    }
};

// What the forward of K steps keeps for the backward (step-major: rows of step k are k*B_f ..; the backward
// scratch dwq, dpq has B rows).
template <typename T>
struct AttnCache {
    MatT<T> A;                // (K*B, S) weights a_j, zero outside the window / past S_b
    MatT<T> alpha;            // (K*B, S) local_p: the window softmax before the Gaussian factor
    MatT<T> tanhs;            // (K*B*S, H_d) additive: tanh(W_s q + U h_j + b), rows (k*B + b)*S + j
    MatT<T> wq;               // (K*B, H_d) additive: W_s q
    MatT<T> pq;               // (K*B, H_d) local_p: tanh(W_p q)
    VecT<T> center;           // (K*B) local_p: p = S_b sigmoid(v_p · tanh(W_p q)); local_m: p as a number
    VecT<T> sig;              // (K*B) local_p: sigmoid(v_p · tanh(W_p q))
    std::vector<int> lo, hi;  // (K*B) the window, inclusive
    // Guided alignment (global span only; filled by the caller after attentionResize, left alone by it): when
    // guide.rows() > 0, the backward of row r with guided[r] != 0 adds guide_weight · (a − G_r) to ∂/∂e, the
    // gradient of guide_weight · (−Σ_j G_rj log a_rj).
    MatT<T> guide;                // (K*B, S) G_r: gold distribution over source positions, 0 past S_b
    std::vector<uint8_t> guided;  // (K*B) 1 where the row has gold links
    T guide_weight = T(0);        // λ × the caller's gradient scale
    // backward scratch
    MatT<T> dwq;   // (B, H_d)
    MatT<T> dpq;   // (B, H_d)
    MatT<T> dpre;  // (S, H_d) additive
    VecT<T> e;     // (S) scores of one row
    VecT<T> da;    // (S)
};

// Sizes the encoder-side buffers (H must be filled by the caller after this) and the cache for K steps; with
// `backward`, also zeroes enc.dH and enc.dkeys.
template <typename T>
void attentionResize(const ModelConfig& c, int B, int S, int K, bool backward, AttnEncoder<T>& enc,
                     AttnCache<T>& cache);

// keys from H (one GEMM for the batch). Call once per batch before the steps.
template <typename T>
void attentionPrepare(const ModelParamsT<T>& p, const ModelConfig& c, AttnEncoder<T>& enc);

// Step k (target position t = k + 1, used by local_m): q (B, H_d) → a (cache) and context ctx (B, 2H_e).
template <typename T>
void attentionStepForward(const ModelParamsT<T>& p, const ModelConfig& c, const AttnEncoder<T>& enc, int k, const T* q,
                          AttnCache<T>& cache, T* ctx);

// Backward of step k given dctx (B, 2H_e): ADDS into dq (B, H_d), enc.dH, enc.dkeys and, when g is not null, the
// parameter gradients *g (attribution passes null: it needs only the inputs' gradients). Only the first `active`
// rows (all B when −1) are computed: attribution's copies whose objective row is before step k have no gradient
// there, and their rows of dq, dH and dkeys are left as they are.
template <typename T>
void attentionStepBackward(const ModelParamsT<T>& p, const ModelConfig& c, AttnEncoder<T>& enc, int k, const T* q,
                           AttnCache<T>& cache, const T* dctx, T* dq, ModelParamsT<T>* g, int active = -1);

// Backward of attentionPrepare: enc.dkeys → enc.dH and, when g is not null, the parameter gradients *g. Call once
// after all steps.
template <typename T>
void attentionPrepareBackward(const ModelParamsT<T>& p, const ModelConfig& c, AttnEncoder<T>& enc, ModelParamsT<T>* g);

}  // namespace attnviz
