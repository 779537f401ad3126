// Comparisons of computed numbers with the values a test expects.
#pragma once
#include <cmath>
#include <cstring>

namespace attnviz::testing {

// a agrees with the expected b to the relative tolerance tol: |a - b| <= tol (1 + |b|).
inline bool close(double a, double b, double tol) { return std::abs(a - b) <= tol * (1.0 + std::abs(b)); }

// The same float to the bit (0.0f and -0.0f differ; a NaN equals the same NaN).
inline bool sameBits(float a, float b) { return std::memcmp(&a, &b, sizeof a) == 0; }

}  // namespace attnviz::testing
