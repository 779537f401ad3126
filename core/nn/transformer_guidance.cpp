#include "nn/transformer_guidance.h"

#include "base/errors.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

namespace attnviz {
namespace {

// G of one example: (N_b, S_b), row k uniform over the gold source positions of decoder row k, or all zeros.
template <typename T>
TMat<T> goldDistribution(const TrainExample& ex, Eigen::Index n, Eigen::Index m) {
    TMat<T> gold = TMat<T>::Zero(n, m);
    for (const auto& [j, k] : ex.align) {
        if (j < 0 || j >= m || k < 0 || k >= n)
            throw InputError("training example (line " + std::to_string(ex.line) + "): alignment link (" +
                             std::to_string(j) + ", " + std::to_string(k) + ") is outside the sentence pair");
        gold(k, j) += T(1);
    }
    for (Eigen::Index k = 0; k < n; ++k)
        if (gold.row(k).sum() > T(0)) gold.row(k) /= gold.row(k).sum();
    return gold;
}

}  // namespace

template <typename T>
double guidedAlignmentLoss(const AttentionCache<T>& cross, int nhead, const TrainExample* const* batch, int B, T weight,
                           std::vector<TMat<T>>* da) {
    if (da) da->assign(size_t(B) * size_t(nhead), TMat<T>());
    double sum = 0;
    for (int b = 0; b < B; ++b) {
        const Eigen::Index n = cross.q_rows.rows(b), m = cross.kv_rows.rows(b);
        const TMat<T> gold = goldDistribution<T>(*batch[b], n, m);
        TMat<T> mean = TMat<T>::Zero(n, m);  // Ā (n, m)
        for (int h = 0; h < nhead; ++h) mean += cross.a[size_t(b) * size_t(nhead) + size_t(h)];
        mean /= T(nhead);
        const TMat<T> floored = mean.cwiseMax(std::numeric_limits<T>::min());
        for (Eigen::Index k = 0; k < n; ++k)
            for (Eigen::Index j = 0; j < m; ++j)
                if (gold(k, j) > T(0)) sum -= double(gold(k, j)) * std::log(double(floored(k, j)));
        if (!da) continue;
        const TMat<T> d_head = (gold.array() / floored.array()) * (-weight / T(nhead));  // the same for every head
        for (int h = 0; h < nhead; ++h) (*da)[size_t(b) * size_t(nhead) + size_t(h)] = d_head;
    }
    return sum;
}

template double guidedAlignmentLoss<float>(const AttentionCache<float>&, int, const TrainExample* const*, int, float,
                                           std::vector<TMat<float>>*);
template double guidedAlignmentLoss<double>(const AttentionCache<double>&, int, const TrainExample* const*, int, double,
                                            std::vector<TMat<double>>*);

}  // namespace attnviz
