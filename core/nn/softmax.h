// Softmax and log-softmax over a vector or a row (any Eigen vector expression, float or double), max-shifted so that
// no exp overflows. The one definition the decoder (attention weights, log-probabilities) and training (the loss)
// both use.
#pragma once
#include <Eigen/Core>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace attnviz {

// log Σ_j exp(x_j) = m + log Σ_j exp(x_j − m), m = max_j x_j.
template <class Derived>
typename Derived::Scalar logSumExp(const Eigen::MatrixBase<Derived>& x) {
    const typename Derived::Scalar mx = x.maxCoeff();
    return mx + std::log((x.array() - mx).exp().sum());
}

// x ← x − log Σ_j exp(x_j): log-probabilities from logits.
template <class Derived>
void logSoftmaxInPlace(Eigen::MatrixBase<Derived>& x) {
    const typename Derived::Scalar lse = logSumExp(x);
    x.array() -= lse;
}
template <class Derived>
void logSoftmaxInPlace(Eigen::MatrixBase<Derived>&& x) {
    logSoftmaxInPlace(x);
}

// x_id ← −∞ for each forbidden id: a log-softmax after it renormalises over the other ids (a Marian model's pad and
// bad_words_ids, as transformers' generate with renormalize_logits), and their probability is exactly 0.
template <class Derived>
void removeForbidden(Eigen::MatrixBase<Derived>& x, const std::vector<int>& ids) {
    for (const int id : ids) x(id) = -std::numeric_limits<typename Derived::Scalar>::infinity();
}
template <class Derived>
void removeForbidden(Eigen::MatrixBase<Derived>&& x, const std::vector<int>& ids) {
    removeForbidden(x, ids);
}

// w ← exp(e − max e) / Σ exp(e − max e). w may be e itself.
template <class In, class Out>
void softmaxInto(const Eigen::MatrixBase<In>& e, Eigen::MatrixBase<Out>&& w) {
    const typename In::Scalar mx = e.maxCoeff();
    w = (e.array() - mx).exp().matrix();
    w /= w.sum();
}
template <class In, class Out>
void softmaxInto(const Eigen::MatrixBase<In>& e, Eigen::MatrixBase<Out>& w) {
    softmaxInto(e, std::move(w));
}

}  // namespace attnviz
