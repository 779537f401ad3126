// The building blocks of docs/transformer.md's maths in float, on sequences held as rows (n positions × d):
// linear layers, LayerNorm, the feed-forward block and multi-head attention. nn/transformer.h puts them together.
// Legend: n query positions, m key positions, d d_model, d_h = d / nhead, F dim_feedforward.
#pragma once
#include "base/tensor.h"
#include "model/transformer_params.h"

#include <span>

namespace attnviz {

using ConstMatRef = Eigen::Ref<const Mat>;  // a Mat or a block of rows / a contiguous row block of one
using ConstVecRef = Eigen::Ref<const Vec>;

// x W^T + b: x (n, in), w (out, in), b (out) → (n, out).
Mat linear(const ConstMatRef& x, const ConstMatRef& w, const ConstVecRef& b);

// LayerNorm over each row (d): (x − mean) / sqrt(biased variance + 1e-5) · weight + bias. Statistics in double.
Mat layerNorm(const ConstMatRef& x, const LayerNormParamsT<float>& p);

// relu, or the exact gelu 0.5 x (1 + erf(x / √2)), in place.
void activateInPlace(Mat& x, Activation a);

// linear2(act(linear1(x))): (n, d) → (n, d) through (n, F).
Mat feedForward(const ConstMatRef& x, const FeedForwardParamsT<float>& p, Activation a);

// Softmax of each row in place (max-shifted).
void softmaxRowsInPlace(Mat& scores);
// The same with the columns where keys_off (m) is set at −∞ first; a row with every column off is all zeros.
void softmaxRowsInPlace(Mat& scores, std::span<const char> keys_off);

// Interventions on one multi-head attention (docs/explain.md): keys_off (m) 1 for a key whose scores are −∞ before
// the softmax; heads_off (nhead) 1 for a head whose output o_h is zero before out_proj (its weights A_h are still
// given). Empty spans: none, and every bit as without them.
struct HeadEdits {
    std::span<const char> keys_off;
    std::span<const char> heads_off;
};

// The heads of already projected queries q (n, d), keys k (m, d) and values v (m, d): head h takes columns
// h·d_h … (h+1)·d_h − 1, A_h = softmax(q_h k_hᵀ / √d_h) (n, m), o_h = A_h v_h (n, d_h); the heads' outputs
// concatenated in head order (n, d), before out_proj. With `weights`, A_h goes to its rows h·n … h·n + n − 1
// (weights is (nhead·n, m)). No mask: a causal caller passes only the keys a query may see.
Mat attendHeads(const ConstMatRef& q, const ConstMatRef& k, const ConstMatRef& v, int nhead, Mat* weights,
                const HeadEdits& edits = {});

// The in_proj slices of docs/transformer.md: rows 0..d−1 (q), d..2d−1 (k), 2d..3d−1 (v) and the same of the bias.
enum class Projection { Query = 0, Key = 1, Value = 2 };
Mat project(const ConstMatRef& x, const MultiHeadAttentionParamsT<float>& p, Projection which);

// out_proj of concatenated heads (n, d) → (n, d).
Mat outProject(const ConstMatRef& heads, const MultiHeadAttentionParamsT<float>& p);

// MHA(Q_in, KV_in) whole, no mask: Q_in (n, d), KV_in (m, d) → (n, d); weights as attendHeads.
Mat multiHeadAttention(const ConstMatRef& q_in, const ConstMatRef& kv_in, const MultiHeadAttentionParamsT<float>& p,
                       int nhead, Mat* weights, const HeadEdits& edits = {});

}  // namespace attnviz
