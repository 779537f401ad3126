// The backward passes of the Transformer's blocks (docs/transformer.md's maths), each forward beside its backward,
// templated on the scalar (float for training, double for the finite-difference checks). A forward keeps in its
// cache what its backward reads; a backward ADDS the parameter gradients into g and returns the input gradient.
// Sequences are rows: (n positions, d). Dropout is PyTorch's inverted dropout (kept values × 1/(1 − p)); its masks
// come from a DropoutSource the caller seeds, drawn in forward order, so a seed gives the same masks every time.
// Legend: n query positions, m key positions, d d_model, d_h = d / nhead, F dim_feedforward.
#pragma once
#include "model/transformer_params.h"

#include <cstdint>
#include <random>
#include <vector>

namespace attnviz {

// Where dropout masks come from: none when p is 0 (evaluation), else a generator the caller seeds.
struct DropoutSource {
    double p = 0;
    std::mt19937_64 rng;
    bool active() const { return p > 0; }
};

// A (rows, cols) mask of 0 and 1/(1 − p), each value kept with probability 1 − p; empty when the source is null or
// inactive (apply and its backward then leave x as it is).
template <typename T>
TMat<T> dropoutMask(DropoutSource* drop, Eigen::Index rows, Eigen::Index cols);
// x ∘ mask, or x when the mask is empty: the forward and (with the gradient as x) the backward of dropout.
template <typename T>
void applyMask(TMat<T>& x, const TMat<T>& mask);

// ---- linear: y = x W^T + b, x (n, in), W (out, in), b (out)
template <typename T>
TMat<T> linearForward(const TMat<T>& x, const TMat<T>& w, const TVec<T>& b);
// dW += dyᵀ x, db += Σ_rows dy; returns dx = dy W (n, in).
template <typename T>
TMat<T> linearBackward(const TMat<T>& x, const TMat<T>& w, const TMat<T>& dy, TMat<T>& dw, TVec<T>& db);

// ---- LayerNorm over each row: x̂ = (x − mean) / sqrt(var + 1e-5) (biased variance), y = x̂ ∘ weight + bias
template <typename T>
struct LayerNormCache {
    TMat<T> xhat;     // (n, d)
    TVec<T> inv_std;  // (n) 1 / sqrt(var + ε)
};
template <typename T>
TMat<T> layerNormForward(const TMat<T>& x, const LayerNormParamsT<T>& p, LayerNormCache<T>& cache);
// dx = inv_std · (dx̂ − mean(dx̂) − x̂ · mean(dx̂ ∘ x̂)) per row, with dx̂ = dy ∘ weight.
template <typename T>
TMat<T> layerNormBackward(const TMat<T>& dy, const LayerNormParamsT<T>& p, const LayerNormCache<T>& cache,
                          LayerNormParamsT<T>& g);

// ---- feed-forward: linear2(dropout(act(linear1(x))))
template <typename T>
struct FeedForwardCache {
    TMat<T> x;       // (n, d)
    TMat<T> pre;     // (n, F) linear1(x)
    TMat<T> hidden;  // (n, F) dropout(act(pre))
    TMat<T> mask;    // (n, F) or empty
};
template <typename T>
TMat<T> feedForwardForward(const TMat<T>& x, const FeedForwardParamsT<T>& p, Activation a, DropoutSource* drop,
                           FeedForwardCache<T>& cache);
template <typename T>
TMat<T> feedForwardBackward(const TMat<T>& dy, const FeedForwardParamsT<T>& p, Activation a,
                            const FeedForwardCache<T>& cache, FeedForwardParamsT<T>& g);
// act'(x): relu 1 for x > 0 else 0; gelu Φ(x) + x φ(x) with Φ the normal CDF and φ its density.
template <typename T>
T activationDerivative(T x, Activation a);

// ---- multi-head attention MHA(Q_in, KV_in): q, k, v from in_proj's row slices, per head
// A_h = dropout(softmax(q_h k_hᵀ / √d_h)) with, when causal, query i seeing keys 0..i only; o_h = A_h v_h;
// out_proj of the heads concatenated.
template <typename T>
struct AttentionCache {
    TMat<T> q_in, kv_in;        // (n, d), (m, d)
    TMat<T> q, k, v;            // (n, d), (m, d), (m, d) projected
    std::vector<TMat<T>> a;     // [head] (n, m) softmax weights (exact zeros above the diagonal when causal)
    std::vector<TMat<T>> mask;  // [head] (n, m) dropout of the weights, or empty
    TMat<T> heads;              // (n, d) the heads' outputs concatenated
};
template <typename T>
TMat<T> attentionForward(const TMat<T>& q_in, const TMat<T>& kv_in, const MultiHeadAttentionParamsT<T>& p, int nhead,
                         bool causal, DropoutSource* drop, AttentionCache<T>& cache);
// Gradients of Q_in (n, d) and KV_in (m, d) are written to dq_in and dkv_in (a self-attention adds the two).
template <typename T>
void attentionBackward(const TMat<T>& dout, const MultiHeadAttentionParamsT<T>& p, int nhead,
                       const AttentionCache<T>& cache, MultiHeadAttentionParamsT<T>& g, TMat<T>& dq_in,
                       TMat<T>& dkv_in);

}  // namespace attnviz
