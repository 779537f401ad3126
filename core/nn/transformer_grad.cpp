#include "nn/transformer_grad.h"

#include <algorithm>
#include <cmath>

namespace attnviz {

template <typename T>
TMat<T> dropoutMask(DropoutSource* drop, Eigen::Index rows, Eigen::Index cols) {
    if (!drop || !drop->active()) return TMat<T>();
    const T keep_scale = T(1.0 / (1.0 - drop->p));
    TMat<T> mask(rows, cols);
    for (Eigen::Index i = 0; i < mask.size(); ++i) {
        const double u = double(drop->rng() >> 11) * 0x1.0p-53;  // uniform in [0, 1) from 53 bits
        mask.data()[i] = u < drop->p ? T(0) : keep_scale;
    }
    return mask;
}

template <typename T>
void applyMask(TMat<T>& x, const TMat<T>& mask) {
    if (mask.size() > 0) x.array() *= mask.array();
}

// ---- linear

template <typename T>
TMat<T> linearForward(const TMat<T>& x, const TMat<T>& w, const TVec<T>& b) {
    TMat<T> y(x.rows(), w.rows());
    y.noalias() = x * w.transpose();  // (n, in) (in, out)
    y.rowwise() += b.transpose();
    return y;
}

template <typename T>
TMat<T> linearBackward(const TMat<T>& x, const TMat<T>& w, const TMat<T>& dy, TMat<T>& dw, TVec<T>& db) {
    dw.noalias() += dy.transpose() * x;  // (out, n) (n, in)
    db += dy.colwise().sum().transpose();
    TMat<T> dx(dy.rows(), w.cols());
    dx.noalias() = dy * w;  // (n, out) (out, in)
    return dx;
}

// ---- LayerNorm

template <typename T>
TMat<T> layerNormForward(const TMat<T>& x, const LayerNormParamsT<T>& p, LayerNormCache<T>& cache) {
    constexpr double kEps = 1e-5;
    const Eigen::Index n = x.rows(), d = x.cols();
    cache.xhat.resize(n, d);
    cache.inv_std.resize(n);
    for (Eigen::Index r = 0; r < n; ++r) {  // statistics in double, as nn/transformer_blocks' layerNorm
        double mean = 0;
        for (Eigen::Index c = 0; c < d; ++c) mean += double(x(r, c));
        mean /= double(d);
        double var = 0;
        for (Eigen::Index c = 0; c < d; ++c) var += (double(x(r, c)) - mean) * (double(x(r, c)) - mean);
        const double inv_std = 1.0 / std::sqrt(var / double(d) + kEps);
        cache.inv_std[r] = T(inv_std);
        for (Eigen::Index c = 0; c < d; ++c) cache.xhat(r, c) = T((double(x(r, c)) - mean) * inv_std);
    }
    TMat<T> y = cache.xhat.array().rowwise() * p.weight.transpose().array();
    y.rowwise() += p.bias.transpose();
    return y;
}

template <typename T>
TMat<T> layerNormBackward(const TMat<T>& dy, const LayerNormParamsT<T>& p, const LayerNormCache<T>& cache,
                          LayerNormParamsT<T>& g) {
    const TMat<T>& xhat = cache.xhat;
    g.weight += (dy.array() * xhat.array()).colwise().sum().transpose().matrix();
    g.bias += dy.colwise().sum().transpose();
    const TMat<T> dxhat = dy.array().rowwise() * p.weight.transpose().array();  // (n, d)
    const T inv_d = T(1) / T(dy.cols());
    TMat<T> dx(dy.rows(), dy.cols());
    for (Eigen::Index r = 0; r < dy.rows(); ++r) {
        const T mean_dxhat = dxhat.row(r).sum() * inv_d;
        const T mean_dxhat_xhat = dxhat.row(r).dot(xhat.row(r)) * inv_d;
        dx.row(r) = cache.inv_std[r] * (dxhat.row(r).array() - mean_dxhat - xhat.row(r).array() * mean_dxhat_xhat);
    }
    return dx;
}

// ---- feed-forward

namespace {

template <typename T>
T activate(T x, Activation a) {
    if (a == Activation::Relu) return x > T(0) ? x : T(0);
    return T(0.5) * x * (T(1) + std::erf(x * T(1.0 / std::sqrt(2.0))));
}

}  // namespace

template <typename T>
T activationDerivative(T x, Activation a) {
    if (a == Activation::Relu) return x > T(0) ? T(1) : T(0);
    const T cdf = T(0.5) * (T(1) + std::erf(x * T(1.0 / std::sqrt(2.0))));
    const T pdf = std::exp(T(-0.5) * x * x) * T(1.0 / std::sqrt(2.0 * M_PI));
    return cdf + x * pdf;
}

template <typename T>
TMat<T> feedForwardForward(const TMat<T>& x, const FeedForwardParamsT<T>& p, Activation a, DropoutSource* drop,
                           FeedForwardCache<T>& cache) {
    cache.x = x;
    cache.pre = linearForward<T>(x, p.linear1_weight, p.linear1_bias);  // (n, F)
    cache.hidden = cache.pre.unaryExpr([a](T v) { return activate(v, a); });
    cache.mask = dropoutMask<T>(drop, cache.hidden.rows(), cache.hidden.cols());
    applyMask(cache.hidden, cache.mask);
    return linearForward<T>(cache.hidden, p.linear2_weight, p.linear2_bias);  // (n, d)
}

template <typename T>
TMat<T> feedForwardBackward(const TMat<T>& dy, const FeedForwardParamsT<T>& p, Activation a,
                            const FeedForwardCache<T>& cache, FeedForwardParamsT<T>& g) {
    TMat<T> dhidden = linearBackward<T>(cache.hidden, p.linear2_weight, dy, g.linear2_weight, g.linear2_bias);
    applyMask(dhidden, cache.mask);  // (n, F)
    const TMat<T> dpre = dhidden.array() * cache.pre.unaryExpr([a](T v) { return activationDerivative(v, a); }).array();
    return linearBackward<T>(cache.x, p.linear1_weight, dpre, g.linear1_weight, g.linear1_bias);
}

// ---- multi-head attention

namespace {

// The in_proj slice `which` (0 q, 1 k, 2 v) as a weight (d, d) and a bias (d).
template <typename P>
auto projWeight(P& p, int which) {
    const Eigen::Index d = p.out_proj_weight.rows();
    return p.in_proj_weight.middleRows(which * d, d);
}
template <typename P>
auto projBias(P& p, int which) {
    const Eigen::Index d = p.out_proj_weight.rows();
    return p.in_proj_bias.segment(which * d, d);
}

template <typename T>
TMat<T> project(const TMat<T>& x, const MultiHeadAttentionParamsT<T>& p, int which) {
    return linearForward<T>(x, projWeight(p, which), projBias(p, which));
}

// The gradient through projection `which`: dW += dyᵀ x, db += Σ dy, returns dx = dy W.
template <typename T>
TMat<T> projectBackward(const TMat<T>& x, const TMat<T>& dy, const MultiHeadAttentionParamsT<T>& p,
                        MultiHeadAttentionParamsT<T>& g, int which) {
    projWeight(g, which).noalias() += dy.transpose() * x;
    projBias(g, which) += dy.colwise().sum().transpose();
    TMat<T> dx(dy.rows(), x.cols());
    dx.noalias() = dy * projWeight(p, which);
    return dx;
}

}  // namespace

template <typename T>
TMat<T> attentionForward(const TMat<T>& q_in, const TMat<T>& kv_in, const MultiHeadAttentionParamsT<T>& p, int nhead,
                         bool causal, DropoutSource* drop, AttentionCache<T>& cache) {
    cache.q_in = q_in;
    cache.kv_in = kv_in;
    cache.q = project<T>(q_in, p, 0);   // (n, d)
    cache.k = project<T>(kv_in, p, 1);  // (m, d)
    cache.v = project<T>(kv_in, p, 2);  // (m, d)
    const Eigen::Index n = q_in.rows(), m = kv_in.rows(), d = q_in.cols(), dh = d / nhead;
    const T inv_sqrt_dh = T(1.0 / std::sqrt(double(dh)));
    cache.a.resize(size_t(nhead));
    cache.mask.resize(size_t(nhead));
    cache.heads.resize(n, d);
    for (int h = 0; h < nhead; ++h) {
        TMat<T>& a = cache.a[size_t(h)];
        a.noalias() = (cache.q.middleCols(h * dh, dh) * inv_sqrt_dh) * cache.k.middleCols(h * dh, dh).transpose();
        for (Eigen::Index i = 0; i < n; ++i) {
            auto row = a.row(i);
            const Eigen::Index seen = causal ? std::min(i + 1, m) : m;  // query i sees keys 0 .. seen − 1
            const T mx = row.head(seen).maxCoeff();
            row.head(seen) = (row.head(seen).array() - mx).exp().matrix();
            row.head(seen) /= row.head(seen).sum();
            row.tail(m - seen).setZero();
        }
        cache.mask[size_t(h)] = dropoutMask<T>(drop, n, m);
        TMat<T> dropped = a;
        applyMask(dropped, cache.mask[size_t(h)]);
        cache.heads.middleCols(h * dh, dh).noalias() = dropped * cache.v.middleCols(h * dh, dh);  // (n, m) (m, d_h)
    }
    return linearForward<T>(cache.heads, p.out_proj_weight, p.out_proj_bias);
}

template <typename T>
void attentionBackward(const TMat<T>& dout, const MultiHeadAttentionParamsT<T>& p, int nhead,
                       const AttentionCache<T>& cache, MultiHeadAttentionParamsT<T>& g, TMat<T>& dq_in,
                       TMat<T>& dkv_in) {
    const TMat<T> dheads = linearBackward<T>(cache.heads, p.out_proj_weight, dout, g.out_proj_weight, g.out_proj_bias);
    const Eigen::Index n = cache.q.rows(), m = cache.k.rows(), d = cache.q.cols(), dh = d / nhead;
    const T inv_sqrt_dh = T(1.0 / std::sqrt(double(dh)));
    TMat<T> dq(n, d), dk(m, d), dv(m, d);
    for (int h = 0; h < nhead; ++h) {
        const TMat<T>& a = cache.a[size_t(h)];
        TMat<T> dropped = a;
        applyMask(dropped, cache.mask[size_t(h)]);
        const auto dheads_h = dheads.middleCols(h * dh, dh);                   // (n, d_h)
        dv.middleCols(h * dh, dh).noalias() = dropped.transpose() * dheads_h;  // (m, n) (n, d_h)
        TMat<T> da = dheads_h * cache.v.middleCols(h * dh, dh).transpose();    // (n, m)
        applyMask(da, cache.mask[size_t(h)]);
        // softmax backward per row: ds = a ∘ (da − Σ_j da_j a_j); masked positions have a = 0, so ds = 0 there
        const TVec<T> row_dot = (da.array() * a.array()).rowwise().sum();
        const TMat<T> ds = a.array() * (da.colwise() - row_dot).array();  // (n, m)
        dq.middleCols(h * dh, dh).noalias() = ds * cache.k.middleCols(h * dh, dh) * inv_sqrt_dh;
        dk.middleCols(h * dh, dh).noalias() = ds.transpose() * cache.q.middleCols(h * dh, dh) * inv_sqrt_dh;
    }
    dq_in = projectBackward<T>(cache.q_in, dq, p, g, 0);
    dkv_in = projectBackward<T>(cache.kv_in, dk, p, g, 1);
    dkv_in += projectBackward<T>(cache.kv_in, dv, p, g, 2);
}

#define ATTNVIZ_TRANSFORMER_GRAD(T)                                                                                  \
    template TMat<T> dropoutMask<T>(DropoutSource*, Eigen::Index, Eigen::Index);                                     \
    template void applyMask<T>(TMat<T>&, const TMat<T>&);                                                            \
    template TMat<T> linearForward<T>(const TMat<T>&, const TMat<T>&, const TVec<T>&);                               \
    template TMat<T> linearBackward<T>(const TMat<T>&, const TMat<T>&, const TMat<T>&, TMat<T>&, TVec<T>&);          \
    template TMat<T> layerNormForward<T>(const TMat<T>&, const LayerNormParamsT<T>&, LayerNormCache<T>&);            \
    template TMat<T> layerNormBackward<T>(const TMat<T>&, const LayerNormParamsT<T>&, const LayerNormCache<T>&,      \
                                          LayerNormParamsT<T>&);                                                     \
    template T activationDerivative<T>(T, Activation);                                                               \
    template TMat<T> feedForwardForward<T>(const TMat<T>&, const FeedForwardParamsT<T>&, Activation, DropoutSource*, \
                                           FeedForwardCache<T>&);                                                    \
    template TMat<T> feedForwardBackward<T>(const TMat<T>&, const FeedForwardParamsT<T>&, Activation,                \
                                            const FeedForwardCache<T>&, FeedForwardParamsT<T>&);                     \
    template TMat<T> attentionForward<T>(const TMat<T>&, const TMat<T>&, const MultiHeadAttentionParamsT<T>&, int,   \
                                         bool, DropoutSource*, AttentionCache<T>&);                                  \
    template void attentionBackward<T>(const TMat<T>&, const MultiHeadAttentionParamsT<T>&, int,                     \
                                       const AttentionCache<T>&, MultiHeadAttentionParamsT<T>&, TMat<T>&, TMat<T>&);

ATTNVIZ_TRANSFORMER_GRAD(float)
ATTNVIZ_TRANSFORMER_GRAD(double)

}  // namespace attnviz
