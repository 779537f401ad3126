// The feed-forward block's activations, one scalar definition for the forward (float) and the backward (float and
// double): relu, gelu (exact erf form), gelu_new (transformers' tanh form) and swish (x·σ(x), PyTorch's silu).
#pragma once
#include "model/transformer_params.h"

#include <cmath>

namespace attnviz {

template <typename T>
T activate(T x, Activation a) {
    switch (a) {
    case Activation::Relu:
        return x > T(0) ? x : T(0);
    case Activation::Gelu:
        return T(0.5) * x * (T(1) + std::erf(x * T(1.0 / std::sqrt(2.0))));
    case Activation::GeluTanh: {
        const T inner = T(std::sqrt(2.0 / M_PI)) * (x + T(0.044715) * x * x * x);
        return T(0.5) * x * (T(1) + std::tanh(inner));
    }
    case Activation::Swish:
        return x / (T(1) + std::exp(-x));
    }
    return x;
}

template <typename T>
T activationDerivative(T x, Activation a) {
    switch (a) {
    case Activation::Relu:
        return x > T(0) ? T(1) : T(0);
    case Activation::Gelu: {
        const T cdf = T(0.5) * (T(1) + std::erf(x * T(1.0 / std::sqrt(2.0))));
        const T pdf = std::exp(T(-0.5) * x * x) * T(1.0 / std::sqrt(2.0 * M_PI));
        return cdf + x * pdf;
    }
    case Activation::GeluTanh: {  // d/dx ½x(1 + tanh u), u = c(x + 0.044715x³)
        const T c = T(std::sqrt(2.0 / M_PI));
        const T t = std::tanh(c * (x + T(0.044715) * x * x * x));
        return T(0.5) * (T(1) + t) + T(0.5) * x * (T(1) - t * t) * c * (T(1) + T(3 * 0.044715) * x * x);
    }
    case Activation::Swish: {  // σ(x) (1 + x (1 − σ(x)))
        const T s = T(1) / (T(1) + std::exp(-x));
        return s * (T(1) + x * (T(1) - s));
    }
    }
    return T(1);
}

}  // namespace attnviz
