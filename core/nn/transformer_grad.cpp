#include "nn/transformer_grad.h"

#include "nn/activation.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace attnviz {

namespace {

// `count` values of 0 and 1/(1 − p), each kept with probability 1 − p, drawn from rng in order: each 64-bit draw
// gives two uniforms in [0, 1) of 32 bits, its high half first. The draws are taken a chunk at a time and then
// turned into values in a loop of their own, which vectorises: interleaved, the conversion cost more than the
// generator.
template <typename T>
void drawMask(double p, std::mt19937_64& rng, T* values, Eigen::Index count) {
    const T keep_scale = T(1.0 / (1.0 - p));
    const uint64_t threshold = uint64_t(std::ceil(std::ldexp(p, 32)));  // u < p ⇔ u · 2³² < ⌈p · 2³²⌉, 32-bit u
    auto value = [&](uint64_t bits32) { return bits32 < threshold ? T(0) : keep_scale; };
    constexpr Eigen::Index kChunk = 256;  // draws
    uint64_t draws[kChunk];
    Eigen::Index i = 0;
    while (i + 1 < count) {
        const Eigen::Index pairs = std::min(kChunk, (count - i) / 2);
        for (Eigen::Index k = 0; k < pairs; ++k) draws[k] = rng();
        T* out = values + i;
        for (Eigen::Index k = 0; k < pairs; ++k) {
            out[2 * k] = value(draws[k] >> 32);
            out[2 * k + 1] = value(draws[k] & 0xFFFFFFFFu);
        }
        i += 2 * pairs;
    }
    if (i < count) values[i] = value(rng() >> 32);
}

// Example b's generator; a packed batch needs one per example.
std::mt19937_64& generatorOf(DropoutSource& drop, int b) {
    if (size_t(b) >= drop.rngs.size()) throw std::logic_error("DropoutSource: fewer generators than examples");
    return drop.rngs[size_t(b)];
}

}  // namespace

template <typename T>
TMat<T> dropoutMask(DropoutSource* drop, const RowSegments& rows, Eigen::Index cols) {
    if (!drop || !drop->active()) return TMat<T>();
    TMat<T> mask(rows.total(), cols);  // row-major: example b's values are one contiguous run
    for (int b = 0; b < rows.count(); ++b)
        drawMask<T>(drop->p, generatorOf(*drop, b), mask.data() + rows.begin(b) * cols, rows.rows(b) * cols);
    return mask;
}

template <typename T>
void applyMask(TMat<T>& x, const TMat<T>& mask) {
    if (mask.size() > 0) x.array() *= mask.array();
}

// ---- linear

namespace {
// Outputs per product when a layer has many (the generator's V_t): Eigen sizes its blocks by the last-level cache it
// is told of, which a virtual machine can overstate many times, and the (N, V_t) product then runs slower in one
// piece than in blocks of columns (docs/performance.md, "Training"). Each output is the same dot product either way.
constexpr Eigen::Index kLinearOutputBlock = 512;
}  // namespace

template <typename T>
TMat<T> linearForward(const TMat<T>& x, const TMat<T>& w, const TVec<T>& b) {
    TMat<T> y(x.rows(), w.rows());
    if (w.rows() <= 4 * kLinearOutputBlock) {
        y.noalias() = x * w.transpose();  // (n, in) (in, out)
    } else {
        for (Eigen::Index j = 0; j < w.rows(); j += kLinearOutputBlock) {
            const Eigen::Index cols = std::min(kLinearOutputBlock, w.rows() - j);
            y.middleCols(j, cols).noalias() = x * w.middleRows(j, cols).transpose();
        }
    }
    y.rowwise() += b.transpose();
    return y;
}

template <typename T>
TMat<T> linearBackward(const TMat<T>& x, const TMat<T>& w, const TMat<T>& dy, TMat<T>* dw, TVec<T>* db) {
    if (dw) dw->noalias() += dy.transpose() * x;  // (out, n) (n, in)
    if (db) *db += dy.colwise().sum().transpose();
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
                          LayerNormParamsT<T>* g) {
    const TMat<T>& xhat = cache.xhat;
    if (g) {
        g->weight += (dy.array() * xhat.array()).colwise().sum().transpose().matrix();
        g->bias += dy.colwise().sum().transpose();
    }
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

// out = act(pre) ∘ mask (no mask: act(pre)) in one pass. Relu and swish are array expressions, so they vectorise (a
// scalar call per element cost as much as the block's smaller product); swish's exp is then Eigen's, equal to
// std::exp to float round-off. The other activations go through activate() element by element.
template <typename T, class Act>
void assignMasked(const Act& act, const TMat<T>& mask, TMat<T>& out) {
    if (mask.size() > 0)
        out = (act * mask.array()).matrix();
    else
        out = act.matrix();
}
template <typename T>
void activateMasked(const TMat<T>& pre, Activation a, const TMat<T>& mask, TMat<T>& out) {
    const auto x = pre.array();
    if (a == Activation::Relu)
        assignMasked<T>(x.max(T(0)), mask, out);
    else if (a == Activation::Swish)
        assignMasked<T>(x / (T(1) + (-x).exp()), mask, out);
    else
        assignMasked<T>(x.unaryExpr([a](T v) { return activate(v, a); }), mask, out);
}

// d ← (d ∘ mask) ∘ act'(pre) in place, one pass: the gradient of the hidden layer becomes that of pre. The products
// run in the order of the dropout's backward, then the activation's.
template <typename T>
void activationBackwardMasked(const TMat<T>& pre, Activation a, const TMat<T>& mask, TMat<T>& d) {
    applyMask(d, mask);
    const auto x = pre.array();
    if (a == Activation::Relu) {
        d = (x > T(0)).select(d.array(), T(0)).matrix();  // × 1 or × 0
    } else if (a == Activation::Swish) {
        const auto s = T(1) / (T(1) + (-x).exp());  // σ(x); act' = σ(x) (1 + x (1 − σ(x)))
        d = (d.array() * (s * (T(1) + x * (T(1) - s)))).matrix();
    } else {
        d = (d.array() * x.unaryExpr([a](T v) { return activationDerivative(v, a); })).matrix();
    }
}

}  // namespace

template <typename T>
TMat<T> feedForwardForward(const TMat<T>& x, const FeedForwardParamsT<T>& p, Activation a, DropoutSource* drop,
                           const RowSegments& rows, FeedForwardCache<T>& cache) {
    cache.x = x;
    cache.pre = linearForward<T>(x, p.linear1_weight, p.linear1_bias);  // (n, F)
    cache.mask = dropoutMask<T>(drop, rows, cache.pre.cols());
    activateMasked<T>(cache.pre, a, cache.mask, cache.hidden);
    return linearForward<T>(cache.hidden, p.linear2_weight, p.linear2_bias);  // (n, d)
}

template <typename T>
TMat<T> feedForwardBackward(const TMat<T>& dy, const FeedForwardParamsT<T>& p, Activation a,
                            const FeedForwardCache<T>& cache, FeedForwardParamsT<T>* g) {
    using P = FeedForwardParamsT<T>;
    TMat<T> dhidden = linearBackward<T>(cache.hidden, p.linear2_weight, dy, partOf(g, &P::linear2_weight),
                                        partOf(g, &P::linear2_bias));
    activationBackwardMasked<T>(cache.pre, a, cache.mask, dhidden);  // (n, F): now ∂/∂pre
    return linearBackward<T>(cache.x, p.linear1_weight, dhidden, partOf(g, &P::linear1_weight),
                             partOf(g, &P::linear1_bias));
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
                        MultiHeadAttentionParamsT<T>* g, int which) {
    if (g) {
        projWeight(*g, which).noalias() += dy.transpose() * x;
        projBias(*g, which) += dy.colwise().sum().transpose();
    }
    TMat<T> dx(dy.rows(), x.cols());
    dx.noalias() = dy * projWeight(p, which);
    return dx;
}

bool headOff(const AttentionEdits* edits, int h) {
    return edits && !edits->heads_off.empty() && edits->heads_off[size_t(h)];
}

// The edits of example b, or null.
const AttentionEdits* editsOf(const std::vector<AttentionEdits>& edits, int b) {
    return edits.empty() ? nullptr : &edits[size_t(b)];
}

// One example's head h: a = softmax(q_h k_hᵀ / √d_h) with the causal cut, a mask drawn from the example's
// generator, and heads_h = dropout(a) v_h. q (n, d), k and v (m, d) are the example's rows; heads (n, d).
template <typename T, class Q, class KV, class Out>
void attendOneHead(const Q& q, const KV& k, const KV& v, int h, Eigen::Index dh, bool causal, DropoutSource* drop,
                   int b, const AttentionEdits* edits, TMat<T>& a, TMat<T>& mask, Out&& heads) {
    const Eigen::Index n = q.rows(), m = k.rows();
    const T inv_sqrt_dh = T(1.0 / std::sqrt(double(dh)));
    a.noalias() = (q.middleCols(h * dh, dh) * inv_sqrt_dh) * k.middleCols(h * dh, dh).transpose();
    const std::vector<char>* keys_off = edits && !edits->keys_off.empty() ? &edits->keys_off : nullptr;
    for (Eigen::Index i = 0; i < n; ++i) {
        auto row = a.row(i);
        const Eigen::Index seen = causal ? std::min(i + 1, m) : m;  // query i sees keys 0 .. seen − 1
        if (keys_off)
            for (Eigen::Index j = 0; j < seen; ++j)
                if ((*keys_off)[size_t(j)]) row[j] = -std::numeric_limits<T>::infinity();
        const T mx = row.head(seen).maxCoeff();
        if (mx == -std::numeric_limits<T>::infinity()) {
            row.setZero();  // every key off: no weight, o_h = 0
            continue;
        }
        row.head(seen) = (row.head(seen).array() - mx).exp().matrix();
        row.head(seen) /= row.head(seen).sum();
        row.tail(m - seen).setZero();
    }
    mask.resize(0, 0);
    if (drop && drop->active()) {
        mask.resize(n, m);
        drawMask<T>(drop->p, generatorOf(*drop, b), mask.data(), mask.size());
    }
    if (headOff(edits, h)) {
        heads.middleCols(h * dh, dh).setZero();  // head off: o_h = 0
        return;
    }
    TMat<T> dropped = a;
    applyMask(dropped, mask);
    heads.middleCols(h * dh, dh).noalias() = dropped * v.middleCols(h * dh, dh);  // (n, m) (m, d_h)
}

}  // namespace

template <typename T>
TMat<T> attentionForward(const TMat<T>& q_in, const TMat<T>& kv_in, const MultiHeadAttentionParamsT<T>& p, int nhead,
                         bool causal, DropoutSource* drop, const RowSegments& q_rows, const RowSegments& kv_rows,
                         AttentionCache<T>& cache, std::vector<AttentionEdits> edits) {
    if (q_rows.count() != kv_rows.count() || q_rows.total() != q_in.rows() || kv_rows.total() != kv_in.rows() ||
        (!edits.empty() && int(edits.size()) != q_rows.count()))
        throw std::logic_error("attentionForward: the row segments do not match the inputs");
    cache.edits = std::move(edits);
    cache.q_rows = q_rows;
    cache.kv_rows = kv_rows;
    cache.q_in = q_in;
    cache.kv_in = kv_in;
    cache.q = project<T>(q_in, p, 0);   // (N, d)
    cache.k = project<T>(kv_in, p, 1);  // (M, d)
    cache.v = project<T>(kv_in, p, 2);  // (M, d)
    const Eigen::Index dh = q_in.cols() / nhead;
    const size_t slots = size_t(q_rows.count()) * size_t(nhead);
    cache.a.resize(slots);
    cache.mask.resize(slots);
    cache.heads.resize(q_in.rows(), q_in.cols());
    for (int b = 0; b < q_rows.count(); ++b) {
        const auto q = cache.q.middleRows(q_rows.begin(b), q_rows.rows(b));
        const auto k = cache.k.middleRows(kv_rows.begin(b), kv_rows.rows(b));
        const auto v = cache.v.middleRows(kv_rows.begin(b), kv_rows.rows(b));
        for (int h = 0; h < nhead; ++h) {
            const size_t slot = size_t(b) * size_t(nhead) + size_t(h);
            attendOneHead<T>(q, k, v, h, dh, causal, drop, b, editsOf(cache.edits, b), cache.a[slot], cache.mask[slot],
                             cache.heads.middleRows(q_rows.begin(b), q_rows.rows(b)));
        }
    }
    return linearForward<T>(cache.heads, p.out_proj_weight, p.out_proj_bias);
}

template <typename T>
void attentionBackward(const TMat<T>& dout, const MultiHeadAttentionParamsT<T>& p, int nhead,
                       const AttentionCache<T>& cache, MultiHeadAttentionParamsT<T>* g, TMat<T>& dq_in, TMat<T>& dkv_in,
                       const std::vector<TMat<T>>* weights_grad) {
    using P = MultiHeadAttentionParamsT<T>;
    const TMat<T> dheads = linearBackward<T>(cache.heads, p.out_proj_weight, dout, partOf(g, &P::out_proj_weight),
                                             partOf(g, &P::out_proj_bias));
    const Eigen::Index d = cache.q.cols(), dh = d / nhead;
    const T inv_sqrt_dh = T(1.0 / std::sqrt(double(dh)));
    TMat<T> dq(cache.q.rows(), d), dk(cache.k.rows(), d), dv(cache.v.rows(), d);
    for (int b = 0; b < cache.q_rows.count(); ++b) {
        const Eigen::Index q0 = cache.q_rows.begin(b), n = cache.q_rows.rows(b);
        const Eigen::Index k0 = cache.kv_rows.begin(b), m = cache.kv_rows.rows(b);
        for (int h = 0; h < nhead; ++h) {
            const size_t slot = size_t(b) * size_t(nhead) + size_t(h);
            if (headOff(editsOf(cache.edits, b), h)) {  // o_h = 0: nothing reaches q_h, k_h or v_h
                dq.block(q0, h * dh, n, dh).setZero();
                dk.block(k0, h * dh, m, dh).setZero();
                dv.block(k0, h * dh, m, dh).setZero();
                continue;
            }
            const TMat<T>& a = cache.a[slot];
            TMat<T> dropped = a;
            applyMask(dropped, cache.mask[slot]);
            const auto dheads_h = dheads.block(q0, h * dh, n, dh);                   // (n, d_h)
            dv.block(k0, h * dh, m, dh).noalias() = dropped.transpose() * dheads_h;  // (m, n) (n, d_h)
            TMat<T> da = dheads_h * cache.v.block(k0, h * dh, m, dh).transpose();    // (n, m)
            applyMask(da, cache.mask[slot]);
            if (weights_grad && (*weights_grad)[slot].size() > 0) da += (*weights_grad)[slot];
            // softmax backward per row: ds = a ∘ (da − Σ_j da_j a_j); masked positions have a = 0, so ds = 0 there
            const TVec<T> row_dot = (da.array() * a.array()).rowwise().sum();
            const TMat<T> ds = a.array() * (da.colwise() - row_dot).array();  // (n, m)
            dq.block(q0, h * dh, n, dh).noalias() = ds * cache.k.block(k0, h * dh, m, dh) * inv_sqrt_dh;
            dk.block(k0, h * dh, m, dh).noalias() = ds.transpose() * cache.q.block(q0, h * dh, n, dh) * inv_sqrt_dh;
        }
    }
    dq_in = projectBackward<T>(cache.q_in, dq, p, g, 0);
    dkv_in = projectBackward<T>(cache.kv_in, dk, p, g, 1);
    dkv_in += projectBackward<T>(cache.kv_in, dv, p, g, 2);
}

#define ATTNVIZ_TRANSFORMER_GRAD(T)                                                                                  \
    template TMat<T> dropoutMask<T>(DropoutSource*, const RowSegments&, Eigen::Index);                               \
    template void applyMask<T>(TMat<T>&, const TMat<T>&);                                                            \
    template TMat<T> linearForward<T>(const TMat<T>&, const TMat<T>&, const TVec<T>&);                               \
    template TMat<T> linearBackward<T>(const TMat<T>&, const TMat<T>&, const TMat<T>&, TMat<T>*, TVec<T>*);          \
    template TMat<T> layerNormForward<T>(const TMat<T>&, const LayerNormParamsT<T>&, LayerNormCache<T>&);            \
    template TMat<T> layerNormBackward<T>(const TMat<T>&, const LayerNormParamsT<T>&, const LayerNormCache<T>&,      \
                                          LayerNormParamsT<T>*);                                                     \
    template TMat<T> feedForwardForward<T>(const TMat<T>&, const FeedForwardParamsT<T>&, Activation, DropoutSource*, \
                                           const RowSegments&, FeedForwardCache<T>&);                                \
    template TMat<T> feedForwardBackward<T>(const TMat<T>&, const FeedForwardParamsT<T>&, Activation,                \
                                            const FeedForwardCache<T>&, FeedForwardParamsT<T>*);                     \
    template TMat<T> attentionForward<T>(const TMat<T>&, const TMat<T>&, const MultiHeadAttentionParamsT<T>&, int,   \
                                         bool, DropoutSource*, const RowSegments&, const RowSegments&,               \
                                         AttentionCache<T>&, std::vector<AttentionEdits>);                           \
    template void attentionBackward<T>(const TMat<T>&, const MultiHeadAttentionParamsT<T>&, int,                     \
                                       const AttentionCache<T>&, MultiHeadAttentionParamsT<T>*, TMat<T>&, TMat<T>&,  \
                                       const std::vector<TMat<T>>*);

ATTNVIZ_TRANSFORMER_GRAD(float)
ATTNVIZ_TRANSFORMER_GRAD(double)

}  // namespace attnviz
