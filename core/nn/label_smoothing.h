// Label smoothing (Szegedy et al. 2016; torch.nn.CrossEntropyLoss(label_smoothing=ε)): the target of a position is
// q = (1 − ε)·one-hot(y) + ε·u, u uniform over the K outputs of the objective: every output but forbidden ones, whose
// probability is exactly 0 (training's objective has none, so there it is PyTorch's; PyTorch's u covers every
// class, which would make a forbidden class's −log p infinite):
//   loss = −Σ_k q_k log p_k = (1 − ε)·(−log p_y) + ε·(1/K)·Σ_{k producible} −log p_k
//   ∂loss/∂logit_k = p_k − q_k
// The one definition both losses (nn/seq2seq_grad, nn/transformer_loss) use; ε = 0 is the plain cross-entropy.
#pragma once
#include <Eigen/Core>

#include <cmath>
#include <vector>

namespace attnviz {

// (1/K) Σ_{k producible} −log p_k of a row of log-probabilities (the forbidden outputs' −∞ entries are skipped).
template <class Derived>
double uniformCrossEntropy(const Eigen::MatrixBase<Derived>& log_probs, const std::vector<int>& forbidden) {
    double sum = 0;
    for (Eigen::Index k = 0; k < log_probs.size(); ++k)
        if (std::isfinite(log_probs(k))) sum -= double(log_probs(k));
    return sum / double(log_probs.size() - Eigen::Index(forbidden.size()));
}

// grad ← grad − scale·q, q the smoothed target of y: with grad = scale·p on entry (p the softmax, 0 at the forbidden
// outputs) it leaves scale·∂loss/∂logits.
template <class Derived>
void subtractSmoothedTarget(Eigen::MatrixBase<Derived>& grad, int y, double epsilon, double scale,
                            const std::vector<int>& forbidden) {
    using T = typename Derived::Scalar;
    grad(y) -= T(scale * (1 - epsilon));
    if (epsilon <= 0) return;
    const T share = T(scale * epsilon / double(grad.size() - Eigen::Index(forbidden.size())));
    grad.array() -= share;
    for (const int id : forbidden) grad(id) += share;
}
template <class Derived>
void subtractSmoothedTarget(Eigen::MatrixBase<Derived>&& grad, int y, double epsilon, double scale,
                            const std::vector<int>& forbidden) {
    subtractSmoothedTarget(grad, y, epsilon, scale, forbidden);
}

}  // namespace attnviz
