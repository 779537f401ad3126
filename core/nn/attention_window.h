// The span of an attention step (docs/model-format.md "Attention"): which source positions a decoder step may
// attend to, and the Gaussian factor of local_p. One definition for decoding (nn/attention.cpp) and training
// (nn/attention_grad.cpp), templated on the scalar type.
// Legend: S the source length (with <sos>/<eos>), D the window half-width (config.window, at least 1),
// t the target position of the token being produced (1 for the first), σ = D / 2.
//   global:  [0, S−1], no centre
//   local_m: p = min(t, S−1), window [p − D, p + D] ∩ [0, S−1]
//   local_p: p = S · sigmoid(u), u = v_p · tanh(W_p s); window [⌈p − D⌉, ⌊p + D⌋] ∩ [0, S−1];
//            a_j = softmax_j(e) · exp(−(j − p)² / (2σ²)) inside it
#pragma once
#include "model/config.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnviz {

template <typename T>
struct AttentionWindow {
    int lo = 0, hi = -1;                             // inclusive
    T center = std::numeric_limits<T>::quiet_NaN();  // p; NaN for the global span
    T sig = T(0);  // local_p: sigmoid(u) (the backward's dp/du is S·sig·(1 − sig))

    int size() const { return hi - lo + 1; }
};

template <typename T>
AttentionWindow<T> globalWindow(int S) {
    AttentionWindow<T> w;
    w.lo = 0;
    w.hi = S - 1;
    return w;
}

// local_m for target position t.
template <typename T>
AttentionWindow<T> monotonicWindow(int t, int S, int D) {
    const int p = std::min(t, S - 1);
    AttentionWindow<T> w;
    w.center = T(p);
    w.lo = std::max(0, p - D);
    w.hi = std::min(S - 1, p + D);
    return w;
}

// local_p from u = v_p · tanh(W_p s). A NaN u (a diverged model) gives a NaN centre: the window is then the
// whole source (never an index computed from NaN) and the Gaussian factor makes the weights NaN, which the caller
// reports.
template <typename T>
AttentionWindow<T> predictiveWindow(T u, int S, int D) {
    AttentionWindow<T> w = globalWindow<T>(S);
    w.sig = T(1) / (T(1) + std::exp(-u));
    w.center = T(S) * w.sig;  // in (0, S)
    if (std::isfinite(double(w.center))) {
        w.lo = std::max(0, int(std::ceil(w.center - T(D))));
        w.hi = std::min(S - 1, int(std::floor(w.center + T(D))));
        if (w.lo > w.hi) w.lo = w.hi;
    } else {
        w.center = std::numeric_limits<T>::quiet_NaN();
    }
    return w;
}

// local_p's factor for position j: exp(−(j − p)² / (2σ²)).
template <typename T>
T gaussianFactor(int j, T center, int D) {
    const T sigma = T(D) / T(2);
    const T d = T(j) - center;
    return std::exp(-(d * d) / (T(2) * sigma * sigma));
}

}  // namespace attnviz
