// Optimizers with PyTorch's semantics (torch.optim.SGD without momentum, torch.optim.Adam) and total-norm clipping
// as torch.nn.utils.clip_grad_norm_. Parameters, gradients and moments are ModelParams of the same shapes.
#pragma once
#include "model/params_ops.h"

namespace attnviz {

enum class OptimizerKind { Adam, Sgd };

// The L2 norm of all gradients together (accumulated in double).
double gradNorm(const ModelParams& grads);

// clip_grad_norm_: scale = max_norm / (norm + 1e-6); the gradients are multiplied by it when it is < 1.
// max_norm <= 0 turns clipping off. Returns the norm before clipping.
double clipGradNorm(ModelParams& grads, double max_norm);

class Optimizer {
public:
    Optimizer(OptimizerKind kind, double lr, const ModelParams& like, double beta1 = 0.9, double beta2 = 0.999,
              double eps = 1e-8);
    // sgd: θ ← θ − lr·g.  adam (torch.optim.Adam, step t from 1):
    //   m ← β1 m + (1 − β1) g;  v ← β2 v + (1 − β2) g²
    //   θ ← θ − (lr / (1 − β1^t)) · m / (√v / √(1 − β2^t) + ε)      (= lr·m̂ / (√v̂ + ε))
    void step(ModelParams& params, const ModelParams& grads);
    int64_t steps() const { return t_; }
    double lr() const { return lr_; }
    void setLr(double lr) { lr_ = lr; }

private:
    OptimizerKind kind_;
    double lr_, beta1_, beta2_, eps_;
    int64_t t_ = 0;
    ModelParams m_, v_;
};

}  // namespace attnviz
