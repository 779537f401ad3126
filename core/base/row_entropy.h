// The entropy of one attention row: H = −Σ_j a_j ln a_j in nats, 0 ln 0 = 0, over the row as it is (not
// renormalised). The step records, the corpus measures, the diagnostics and the beam tree all read this one.
#pragma once
#include <cmath>
#include <span>

namespace attnviz {

inline double rowEntropy(std::span<const float> row) {
    double h = 0;
    for (float a : row)
        if (a > 0) h -= double(a) * std::log(double(a));
    return h;
}

}  // namespace attnviz
