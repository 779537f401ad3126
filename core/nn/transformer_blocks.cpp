#include "nn/transformer_blocks.h"

#include "nn/activation.h"

#include <cmath>
#include <limits>

namespace attnviz {

Mat linear(const ConstMatRef& x, const ConstMatRef& w, const ConstVecRef& b) {
    Mat out(x.rows(), w.rows());
    out.noalias() = x * w.transpose();
    out.rowwise() += b.transpose();
    return out;
}

Mat layerNorm(const ConstMatRef& x, const LayerNormParamsT<float>& p) {
    constexpr double kEps = 1e-5;
    Mat out(x.rows(), x.cols());
    const double n = double(x.cols());
    for (Eigen::Index r = 0; r < x.rows(); ++r) {
        double mean = 0;
        for (Eigen::Index c = 0; c < x.cols(); ++c) mean += x(r, c);
        mean /= n;
        double var = 0;  // biased: divided by d
        for (Eigen::Index c = 0; c < x.cols(); ++c) var += (x(r, c) - mean) * (x(r, c) - mean);
        const double inv_std = 1.0 / std::sqrt(var / n + kEps);
        for (Eigen::Index c = 0; c < x.cols(); ++c)
            out(r, c) = float((x(r, c) - mean) * inv_std) * p.weight[c] + p.bias[c];
    }
    return out;
}

void activateInPlace(Mat& x, Activation a) {
    if (a == Activation::Relu) {
        x = x.cwiseMax(0.0f);
        return;
    }
    x = x.unaryExpr([a](float v) { return activate(v, a); });
}

Mat feedForward(const ConstMatRef& x, const FeedForwardParamsT<float>& p, Activation a) {
    Mat hidden = linear(x, p.linear1_weight, p.linear1_bias);  // (n, F)
    activateInPlace(hidden, a);
    return linear(hidden, p.linear2_weight, p.linear2_bias);  // (n, d)
}

void softmaxRowsInPlace(Mat& scores) {
    for (Eigen::Index r = 0; r < scores.rows(); ++r) {
        auto row = scores.row(r);
        row.array() = (row.array() - row.maxCoeff()).exp();
        row /= row.sum();
    }
}

void softmaxRowsInPlace(Mat& scores, std::span<const char> keys_off) {
    const float minus_inf = -std::numeric_limits<float>::infinity();
    for (Eigen::Index j = 0; j < scores.cols(); ++j)
        if (keys_off[size_t(j)]) scores.col(j).setConstant(minus_inf);  // exp(−∞ − max) = 0 exactly
    for (Eigen::Index r = 0; r < scores.rows(); ++r) {
        auto row = scores.row(r);
        const float mx = row.maxCoeff();
        if (mx == minus_inf) {
            row.setZero();  // every key off: no weight, o_h = 0
            continue;
        }
        row.array() = (row.array() - mx).exp();
        row /= row.sum();
    }
}

Mat attendHeads(const ConstMatRef& q, const ConstMatRef& k, const ConstMatRef& v, int nhead, Mat* weights,
                const HeadEdits& edits) {
    const Eigen::Index n = q.rows(), m = k.rows(), d = q.cols(), dh = d / nhead;
    const float inv_sqrt_dh = float(1.0 / std::sqrt(double(dh)));
    Mat heads(n, d);
    if (weights) weights->resize(nhead * n, m);
    Mat a(n, m);
    for (int h = 0; h < nhead; ++h) {
        // q_h / √d_h first, then the product with k_hᵀ, in PyTorch's order: (n, d_h) (d_h, m) → (n, m)
        a.noalias() = (q.middleCols(h * dh, dh) * inv_sqrt_dh) * k.middleCols(h * dh, dh).transpose();
        if (edits.keys_off.empty())
            softmaxRowsInPlace(a);
        else
            softmaxRowsInPlace(a, edits.keys_off);
        if (!edits.heads_off.empty() && edits.heads_off[size_t(h)])
            heads.middleCols(h * dh, dh).setZero();  // head off: o_h = 0
        else
            heads.middleCols(h * dh, dh).noalias() = a * v.middleCols(h * dh, dh);  // (n, m) (m, d_h)
        if (weights) weights->middleRows(h * n, n) = a;
    }
    return heads;
}

Mat project(const ConstMatRef& x, const MultiHeadAttentionParamsT<float>& p, Projection which) {
    const Eigen::Index d = p.out_proj_weight.rows(), first = Eigen::Index(which) * d;
    return linear(x, p.in_proj_weight.middleRows(first, d), p.in_proj_bias.segment(first, d));
}

Mat outProject(const ConstMatRef& heads, const MultiHeadAttentionParamsT<float>& p) {
    return linear(heads, p.out_proj_weight, p.out_proj_bias);
}

Mat multiHeadAttention(const ConstMatRef& q_in, const ConstMatRef& kv_in, const MultiHeadAttentionParamsT<float>& p,
                       int nhead, Mat* weights, const HeadEdits& edits) {
    const Mat q = project(q_in, p, Projection::Query);   // (n, d)
    const Mat k = project(kv_in, p, Projection::Key);    // (m, d)
    const Mat v = project(kv_in, p, Projection::Value);  // (m, d)
    return outProject(attendHeads(q, k, v, nhead, weights, edits), p);
}

}  // namespace attnviz
