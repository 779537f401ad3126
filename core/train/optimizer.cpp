#include "train/optimizer.h"

#include <cmath>

namespace attnviz {

double gradNorm(const ModelParams& grads) {
    double sq = 0;
    visitTensors(grads, [&](const char*, const auto& t) {
        if (t.size() > 0) sq += double(t.squaredNorm());  // per tensor in float (vectorised), summed in double
    });
    return std::sqrt(sq);
}

double clipGradNorm(ModelParams& grads, double max_norm) {
    const double norm = gradNorm(grads);
    if (max_norm <= 0) return norm;
    const double coef = max_norm / (norm + 1e-6);
    if (coef < 1.0) {
        const float c = float(coef);
        visitTensors(grads, [&](const char*, auto& t) { t *= c; });
    }
    return norm;
}

Optimizer::Optimizer(OptimizerKind kind, double lr, const ModelParams& like, double beta1, double beta2, double eps)
    : kind_(kind), lr_(lr), beta1_(beta1), beta2_(beta2), eps_(eps) {
    if (kind_ == OptimizerKind::Adam) {
        zerosLike(m_, like);
        zerosLike(v_, like);
    }
}

void Optimizer::step(ModelParams& params, const ModelParams& grads) {
    ++t_;
    if (kind_ == OptimizerKind::Sgd) {
        const float lr = float(lr_);
        visitTensorPairs(params, grads, [&](auto& p, const auto& g) { p -= lr * g; });
        return;
    }
    // The order of operations of torch.optim.Adam's single-tensor path (torch 1.13, float32 tensors).
    const double bc1 = 1.0 - std::pow(beta1_, double(t_));
    const double bc2 = 1.0 - std::pow(beta2_, double(t_));
    const float step_size = float(lr_ / bc1);
    const float bc2_sqrt = float(std::sqrt(bc2));
    const float b1 = float(beta1_), b2 = float(beta2_), eps = float(eps_);
    visitTensorSets(
        [&](auto& p, const auto& g, auto& m, auto& v) {
            const Eigen::Index n = p.size();
            Eigen::Map<Eigen::ArrayXf> M(m.data(), n), Vv(v.data(), n), th(p.data(), n);
            Eigen::Map<const Eigen::ArrayXf> G(g.data(), n);
            M = M * b1 + (1.0f - b1) * G;
            Vv = Vv * b2 + (1.0f - b2) * G * G;
            th -= step_size * (M / (Vv.sqrt() / bc2_sqrt + eps));
        },
        params, grads, m_, v_);
}

}  // namespace attnviz
