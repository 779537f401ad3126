// The backward passes of the Transformer's blocks (docs/transformer.md's maths), each forward beside its backward,
// templated on the scalar (float for training, double for the finite-difference checks). A forward keeps in its
// cache what its backward reads; a backward ADDS the parameter gradients into *g and returns the input gradient.
// A null g skips the parameters' gradients (attribution needs only the inputs' gradients).
// Sequences are rows: (n positions, d). A batch is packed: its examples' rows one after the other (RowSegments), so
// that the position-wise blocks (linear, LayerNorm, feed-forward) run as one matrix product over the whole batch and
// only attention looks at where an example starts and ends. Dropout is PyTorch's inverted dropout (kept values ×
// 1/(1 − p)); the masks of example b come from its own generator of the DropoutSource, drawn in forward order, so
// they are the same whichever examples it is packed with.
// Legend: n query positions, m key positions, d d_model, d_h = d / nhead, F dim_feedforward.
#pragma once
#include "model/transformer_params.h"
#include "nn/activation.h"

#include <cstdint>
#include <random>
#include <vector>

namespace attnviz {

// A packed batch's rows: example b holds rows start[b] .. start[b + 1] − 1 of each (rows, ·) matrix.
struct RowSegments {
    std::vector<Eigen::Index> start{0};

    static RowSegments single(Eigen::Index rows) {
        RowSegments s;
        s.append(rows);
        return s;
    }
    void append(Eigen::Index rows) { start.push_back(start.back() + rows); }
    int count() const { return int(start.size()) - 1; }
    Eigen::Index begin(int b) const { return start[size_t(b)]; }
    Eigen::Index rows(int b) const { return start[size_t(b) + 1] - start[size_t(b)]; }
    Eigen::Index total() const { return start.back(); }
};

// Where dropout masks come from: none when p is 0 (evaluation), else one generator per example of the packed batch,
// seeded by the caller.
struct DropoutSource {
    double p = 0;
    std::vector<std::mt19937_64> rngs;  // [example]
    bool active() const { return p > 0; }
};

// A (rows.total(), cols) mask of 0 and 1/(1 − p), each value kept with probability 1 − p, example b's rows drawn
// from rngs[b] in row-major order; empty when the source is null or inactive (apply and its backward then leave x as
// it is).
template <typename T>
TMat<T> dropoutMask(DropoutSource* drop, const RowSegments& rows, Eigen::Index cols);
// x ∘ mask, or x when the mask is empty: the forward and (with the gradient as x) the backward of dropout.
template <typename T>
void applyMask(TMat<T>& x, const TMat<T>& mask);

// The member `part` of the gradient holder g, or null when g is null.
template <class Whole, class Part>
Part* partOf(Whole* g, Part Whole::*part) {
    return g ? &(g->*part) : nullptr;
}

// ---- linear: y = x W^T + b, x (n, in), W (out, in), b (out)
template <typename T>
TMat<T> linearForward(const TMat<T>& x, const TMat<T>& w, const TVec<T>& b);
// *dw += dyᵀ x, *db += Σ_rows dy (each when not null); returns dx = dy W (n, in).
template <typename T>
TMat<T> linearBackward(const TMat<T>& x, const TMat<T>& w, const TMat<T>& dy, TMat<T>* dw, TVec<T>* db);

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
                          LayerNormParamsT<T>* g);

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
                           const RowSegments& rows, FeedForwardCache<T>& cache);
template <typename T>
TMat<T> feedForwardBackward(const TMat<T>& dy, const FeedForwardParamsT<T>& p, Activation a,
                            const FeedForwardCache<T>& cache, FeedForwardParamsT<T>* g);
// act'(x) is nn/activation.h's activationDerivative.

// ---- multi-head attention MHA(Q_in, KV_in): q, k, v from in_proj's row slices, per head
// A_h = dropout(softmax(q_h k_hᵀ / √d_h)) with, when causal, query i seeing keys 0..i only; o_h = A_h v_h;
// out_proj of the heads concatenated. Packed: example b's queries (q_rows) attend to its own keys (kv_rows) only;
// n and m below are one example's counts, N and M the batch's.
// One example's interventions on one multi-head attention (docs/explain.md): keys_off (m) 1 for a key scored −∞
// before the softmax (a query with every key off gets no weight, o_h = 0); heads_off (nhead) 1 for a head whose
// output o_h is 0 before out_proj (its weights A_h are still computed). Empty: none.
struct AttentionEdits {
    std::vector<char> keys_off, heads_off;
};

template <typename T>
struct AttentionCache {
    RowSegments q_rows, kv_rows;
    std::vector<AttentionEdits> edits;  // [b] or empty (none)
    TMat<T> q_in, kv_in;                // (N, d), (M, d)
    TMat<T> q, k, v;                    // (N, d), (M, d), (M, d) projected
    std::vector<TMat<T>> a;     // [b · nhead + h] (n, m) softmax weights (exact zeros above the diagonal if causal)
    std::vector<TMat<T>> mask;  // [b · nhead + h] (n, m) dropout of the weights, or empty
    TMat<T> heads;              // (N, d) the heads' outputs concatenated
};
// edits: [b] example b's interventions, or empty for none.
template <typename T>
TMat<T> attentionForward(const TMat<T>& q_in, const TMat<T>& kv_in, const MultiHeadAttentionParamsT<T>& p, int nhead,
                         bool causal, DropoutSource* drop, const RowSegments& q_rows, const RowSegments& kv_rows,
                         AttentionCache<T>& cache, std::vector<AttentionEdits> edits = {});
// Gradients of Q_in (N, d) and KV_in (M, d) are written to dq_in and dkv_in (a self-attention adds the two).
// weights_grad, when given, is a further gradient of the loss with respect to the weights A (before dropout), laid
// out as cache.a (guided alignment, nn/transformer_guidance.h); an empty matrix adds nothing.
template <typename T>
void attentionBackward(const TMat<T>& dout, const MultiHeadAttentionParamsT<T>& p, int nhead,
                       const AttentionCache<T>& cache, MultiHeadAttentionParamsT<T>* g, TMat<T>& dq_in, TMat<T>& dkv_in,
                       const std::vector<TMat<T>>* weights_grad = nullptr);

}  // namespace attnviz
