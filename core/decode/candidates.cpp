#include "decode/candidates.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnviz::detail {

int bestToken(const Vec& lp) {
    int best = -1;
    float best_v = -std::numeric_limits<float>::infinity();
    for (int i = 0; i < int(lp.size()); ++i) {
        if (!producible(i)) continue;
        if (best < 0 || lp[i] > best_v) best = i, best_v = lp[i];  // strict: ties keep the lower id
    }
    return best;
}

void topCandidates(const Vec& lp, int k, std::vector<Candidate>& out) {
    out.clear();
    if (k <= 0) return;
    for (int i = 0; i < int(lp.size()); ++i) {
        if (!producible(i)) continue;
        const float v = lp[i];
        if (int(out.size()) == k && !(v > out.back().log_prob)) continue;
        // insert after every candidate with log_prob >= v (lower ids first among equals)
        auto pos = std::find_if(out.begin(), out.end(), [&](const Candidate& c) { return c.log_prob < v; });
        if (int(out.size()) == k) out.pop_back();
        out.insert(pos, Candidate{i, 0.0f, v});
    }
    for (Candidate& c : out) c.prob = std::exp(c.log_prob);
}

}  // namespace attnviz::detail
