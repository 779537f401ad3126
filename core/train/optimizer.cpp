#include "train/optimizer.h"

#include "kernels/thread_pool.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace attnviz {
namespace {

// f(t...) over the matching tensors of parameter sets of either kind.
template <class F, class... P>
void visitSets(F&& f, P&... p) {
    if constexpr ((std::is_same_v<std::remove_const_t<P>, TransformerParams> && ...))
        visitTransformerTensorSets(f, p...);
    else
        visitTensorSets(f, p...);
}

// One tensor of each set, as flat float arrays of the same length: parameters, gradient, Adam's two moments.
struct FlatTensors {
    float* p;
    const float* g;
    float* m;
    float* v;
    Eigen::Index n;
};

// A boundary of the whole list as an index into the tensor at `offset` (n elements): 0 before it, n after it, and
// inside it rounded up to a multiple of 16 floats (64 bytes), so that a range starts where the whole tensor's
// vector loop would have a packet boundary and every element gets the same instructions, split or not.
Eigen::Index localBoundary(Eigen::Index boundary, Eigen::Index offset, Eigen::Index n) {
    if (boundary <= offset) return 0;
    if (boundary >= offset + n) return n;
    return std::min(n, (boundary - offset + 15) / 16 * 16);
}

// update(tensor, first, count) over every element of the list, the elements split into `threads` contiguous
// ranges of about the same size (one task each on the engine's pool).
template <class F>
void forElementRanges(const std::vector<FlatTensors>& list, int threads, F&& update) {
    Eigen::Index total = 0;
    for (const FlatTensors& t : list) total += t.n;
    const int parts = total < (Eigen::Index(1) << 16) ? 1 : threads;
    auto part = [&](int i) {
        const Eigen::Index begin = total * i / parts, end = total * (i + 1) / parts;
        Eigen::Index offset = 0;  // of the current tensor in the whole list
        for (const FlatTensors& t : list) {
            const Eigen::Index first = localBoundary(begin, offset, t.n), last = localBoundary(end, offset, t.n);
            if (first < last) update(t, first, last - first);
            offset += t.n;
        }
    };
    ThreadPool::engine().run(parts, part);
}

}  // namespace

template <class P>
double gradNorm(const P& grads) {
    double sq = 0;
    visitSets(
        [&](const auto& t) {
            if (t.size() > 0) sq += double(t.squaredNorm());  // per tensor in float (vectorised), summed in double
        },
        grads);
    return std::sqrt(sq);
}

template <class P>
double clipGradNorm(P& grads, double max_norm) {
    const double norm = gradNorm(grads);
    if (max_norm <= 0) return norm;
    const double coef = max_norm / (norm + 1e-6);
    if (coef < 1.0) {
        const float c = float(coef);
        visitSets([&](auto& t) { t *= c; }, grads);
    }
    return norm;
}

double warmupLearningRate(double lr, int64_t update, int64_t warmup) {
    if (warmup <= 1 || update >= warmup) return lr;
    return lr * double(std::max<int64_t>(update, 1)) / double(warmup);
}

template <class P>
OptimizerT<P>::OptimizerT(OptimizerKind kind, double lr, const P& like, double beta1, double beta2, double eps)
    : kind_(kind), lr_(lr), beta1_(beta1), beta2_(beta2), eps_(eps) {
    if (kind_ == OptimizerKind::Adam) {
        zerosLike(m_, like);
        zerosLike(v_, like);
    }
}

template <class P>
void OptimizerT<P>::step(P& params, const P& grads) {
    ++t_;
    if (kind_ == OptimizerKind::Sgd) {
        const float lr = float(lr_);
        visitSets([&](auto& p, const auto& g) { p -= lr * g; }, params, grads);
        return;
    }
    // The order of operations of torch.optim.Adam's single-tensor path (torch 1.13, float32 tensors).
    const double bc1 = 1.0 - std::pow(beta1_, double(t_));
    const double bc2 = 1.0 - std::pow(beta2_, double(t_));
    const float step_size = float(lr_ / bc1);
    const float bc2_sqrt = float(std::sqrt(bc2));
    const float b1 = float(beta1_), b2 = float(beta2_), eps = float(eps_);
    std::vector<FlatTensors> list;
    visitSets(
        [&](auto& p, const auto& g, auto& m, auto& v) {
            list.push_back({p.data(), g.data(), m.data(), v.data(), p.size()});
        },
        params, grads, m_, v_);
    forElementRanges(list, threads_, [&](const FlatTensors& t, Eigen::Index first, Eigen::Index n) {
        Eigen::Map<Eigen::ArrayXf> M(t.m + first, n), Vv(t.v + first, n), th(t.p + first, n);
        Eigen::Map<const Eigen::ArrayXf> G(t.g + first, n);
        M = M * b1 + (1.0f - b1) * G;
        Vv = Vv * b2 + (1.0f - b2) * G * G;
        th -= step_size * (M / (Vv.sqrt() / bc2_sqrt + eps));
    });
}

template double gradNorm(const ModelParams&);
template double gradNorm(const TransformerParams&);
template double clipGradNorm(ModelParams&, double);
template double clipGradNorm(TransformerParams&, double);
template class OptimizerT<ModelParams>;
template class OptimizerT<TransformerParams>;

}  // namespace attnviz
