#include "train/optimizer.h"

#include "train/parallel_tensors.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace attnviz {
namespace {

// One tensor of each set, as flat float arrays of the same length: parameters, gradient, Adam's two moments.
struct FlatTensors {
    float* p;
    const float* g;
    float* m;
    float* v;
};

}  // namespace

template <class P>
double gradNorm(const P& grads, int threads) {
    return std::sqrt(squaredNormOf(grads, threads));  // per tensor in float (vectorised), summed in double
}

template <class P>
double clipGradNorm(P& grads, double max_norm, int threads) {
    const double norm = gradNorm(grads, threads);
    if (max_norm <= 0) return norm;
    const double coef = max_norm / (norm + 1e-6);
    if (coef < 1.0) scaleBy(grads, float(coef), threads);
    return norm;
}

std::string_view optimizerName(OptimizerKind kind) { return kind == OptimizerKind::Sgd ? "sgd" : "adam"; }

OptimizerKind parseOptimizer(std::string_view name) {
    return name == optimizerName(OptimizerKind::Sgd) ? OptimizerKind::Sgd : OptimizerKind::Adam;
}

std::string_view lrDecayName(LrDecay decay) { return decay == LrDecay::InverseSqrt ? "inverse_sqrt" : "none"; }

LrDecay parseLrDecay(std::string_view name) {
    return name == lrDecayName(LrDecay::InverseSqrt) ? LrDecay::InverseSqrt : LrDecay::None;
}

double scheduledLearningRate(double lr, int64_t update, int64_t warmup, LrDecay decay) {
    update = std::max<int64_t>(update, 1);
    if (warmup > 1 && update < warmup) return lr * double(update) / double(warmup);
    if (decay == LrDecay::None) return lr;
    return lr * std::sqrt(double(std::max<int64_t>(warmup, 1)) / double(update));
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
    std::vector<Eigen::Index> sizes;
    visitSets(
        [&](auto& p, const auto& g, auto& m, auto& v) {
            list.push_back({p.data(), g.data(), m.data(), v.data()});
            sizes.push_back(p.size());
        },
        params, grads, m_, v_);
    forElementRanges(sizes, threads_, [&](size_t k, Eigen::Index first, Eigen::Index n) {
        const FlatTensors& t = list[k];
        Eigen::Map<Eigen::ArrayXf> M(t.m + first, n), Vv(t.v + first, n), th(t.p + first, n);
        Eigen::Map<const Eigen::ArrayXf> G(t.g + first, n);
        M = M * b1 + (1.0f - b1) * G;
        Vv = Vv * b2 + (1.0f - b2) * G * G;
        th -= step_size * (M / (Vv.sqrt() / bc2_sqrt + eps));
    });
}

template double gradNorm(const ModelParams&, int);
template double gradNorm(const TransformerParams&, int);
template double clipGradNorm(ModelParams&, double, int);
template double clipGradNorm(TransformerParams&, double, int);
template class OptimizerT<ModelParams>;
template class OptimizerT<TransformerParams>;

}  // namespace attnviz
