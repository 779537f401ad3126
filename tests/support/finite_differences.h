// What the gradient checks share: the step of their central differences and random values in double precision.
#pragma once
#include <Eigen/Core>

#include <random>

namespace attnviz::testing {

// The step h of the central difference (f(x + h) - f(x - h)) / 2h, in double precision.
constexpr double kStep = 1e-5;

// Fills a matrix or vector with values drawn uniformly from [-scale, scale].
template <class M>
void randomFill(M& m, std::mt19937_64& rng, double scale) {
    std::uniform_real_distribution<double> u(-scale, scale);
    for (Eigen::Index i = 0; i < m.size(); ++i) m.data()[i] = u(rng);
}

}  // namespace attnviz::testing
