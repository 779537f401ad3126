// Optimizers with PyTorch's semantics (torch.optim.SGD without momentum, torch.optim.Adam), total-norm clipping as
// torch.nn.utils.clip_grad_norm_ and the learning-rate schedule. Parameters, gradients and moments are parameter sets
// of the same layout: ModelParams (the RNN kinds) or TransformerParams.
#pragma once
#include "model/params_ops.h"
#include "model/transformer_params_ops.h"

#include <cstdint>
#include <string_view>

namespace attnviz {

enum class OptimizerKind { Adam, Sgd };
// "adam" and "sgd", as `train --optimizer`, the training metadata and the window's remembered settings spell them.
std::string_view optimizerName(OptimizerKind kind);
// The optimizer of a name optimizerName gives; anything else is Adam.
OptimizerKind parseOptimizer(std::string_view name);

// The L2 norm of all gradients together (accumulated in double); the tensors shared among `threads` threads.
template <class P>
double gradNorm(const P& grads, int threads = 1);

// clip_grad_norm_: scale = max_norm / (norm + 1e-6); the gradients are multiplied by it when it is < 1.
// max_norm <= 0 turns clipping off. Returns the norm before clipping. The bits do not depend on `threads`.
template <class P>
double clipGradNorm(P& grads, double max_norm, int threads = 1);

// After the warmup: the rate stays (None), or decays with the inverse square root of the update (Vaswani et al.
// 2017's schedule after its peak; Marian's --lr-decay-inv-sqrt, fairseq's inverse_sqrt).
enum class LrDecay { None, InverseSqrt };
// "none" and "inverse_sqrt", as `train --lr-decay` and the training metadata spell them.
std::string_view lrDecayName(LrDecay decay);
// The decay of a name lrDecayName gives; anything else is None.
LrDecay parseLrDecay(std::string_view name);

// The learning rate of update `update` (1 = the first) with a warmup of `warmup` updates (docs/cli.md --warmup,
// --lr-decay): lr · update / warmup while update < warmup; then lr (None) or lr · √(max(warmup, 1) / update)
// (InverseSqrt). warmup <= 1 is no warmup.
double scheduledLearningRate(double lr, int64_t update, int64_t warmup, LrDecay decay = LrDecay::None);

template <class P>
class OptimizerT {
public:
    OptimizerT(OptimizerKind kind, double lr, const P& like, double beta1 = 0.9, double beta2 = 0.999,
               double eps = 1e-8);
    // Updates share the elements among `threads` threads (the engine's pool); each element's arithmetic is the
    // same, so the bits do not depend on the count.
    void setThreads(int threads) { threads_ = threads < 1 ? 1 : threads; }
    // sgd: θ ← θ − lr·g.  adam (torch.optim.Adam, step t from 1):
    //   m ← β1 m + (1 − β1) g;  v ← β2 v + (1 − β2) g²
    //   θ ← θ − (lr / (1 − β1^t)) · m / (√v / √(1 − β2^t) + ε)      (= lr·m̂ / (√v̂ + ε))
    void step(P& params, const P& grads);
    int64_t steps() const { return t_; }
    double lr() const { return lr_; }
    void setLr(double lr) { lr_ = lr; }

private:
    OptimizerKind kind_;
    double lr_, beta1_, beta2_, eps_;
    int64_t t_ = 0;
    int threads_ = 1;
    P m_, v_;
};
using Optimizer = OptimizerT<ModelParams>;
using TransformerOptimizer = OptimizerT<TransformerParams>;

}  // namespace attnviz
