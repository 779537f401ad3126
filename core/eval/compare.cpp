#include "eval/compare.h"

#include "base/errors.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnviz {

double totalVariation(const std::vector<float>& p, const std::vector<float>& q) {
    double sum = 0;
    for (size_t j = 0; j < p.size() && j < q.size(); ++j)
        sum += std::abs(static_cast<double>(p[j]) - static_cast<double>(q[j]));
    return 0.5 * sum;
}

double jensenShannon(const std::vector<float>& p, const std::vector<float>& q) {
    double sum = 0;
    for (size_t j = 0; j < p.size() && j < q.size(); ++j) {
        const double a = p[j], b = q[j], m = 0.5 * (a + b);
        if (a > 0) sum += a * std::log(a / m);
        if (b > 0) sum += b * std::log(b / m);
    }
    return std::max(0.0, 0.5 * sum);  // never below 0 through round-off
}

int rowArgmax(const std::vector<float>& row) {
    return row.empty() ? 0 : static_cast<int>(std::max_element(row.begin(), row.end()) - row.begin());
}

AttentionComparisonCounts& AttentionComparisonCounts::operator+=(const AttentionComparisonCounts& o) {
    lines += o.lines;
    rows += o.rows;
    tv_sum += o.tv_sum;
    js_sum += o.js_sum;
    argmax_agreements += o.argmax_agreements;
    entropy_a_sum += o.entropy_a_sum;
    entropy_b_sum += o.entropy_b_sum;
    aligned_lines += o.aligned_lines;
    alignment_a += o.alignment_a;
    alignment_b += o.alignment_b;
    return *this;
}

AttentionComparisonCounts compareAttention(const DecodeResult& a, const DecodeResult& b,
                                           const std::vector<AlignmentLink>* gold) {
    if (a.attention.size() != b.attention.size())
        throw InputError("the two decodes have " + std::to_string(a.attention.size()) + " and " +
                         std::to_string(b.attention.size()) + " attention rows; compared rows need the same target");
    AttentionComparisonCounts c;
    c.lines = 1;
    for (size_t t = 0; t < a.attention.size(); ++t) {
        const std::vector<float>& p = a.attention[t];
        const std::vector<float>& q = b.attention[t];
        if (p.size() != q.size())
            throw InputError("attention row " + std::to_string(t) + " has " + std::to_string(p.size()) + " and " +
                             std::to_string(q.size()) + " columns; compared rows need the same source tokens");
        c.tv_sum += totalVariation(p, q);
        c.js_sum += jensenShannon(p, q);
        if (rowArgmax(p) == rowArgmax(q)) ++c.argmax_agreements;
        c.entropy_a_sum += rowEntropy(p);
        c.entropy_b_sum += rowEntropy(q);
    }
    c.rows = static_cast<int64_t>(a.attention.size());
    if (gold) {
        c.aligned_lines = 1;
        c.alignment_a = aerCounts(attentionAlignment(a), *gold);
        c.alignment_b = aerCounts(attentionAlignment(b), *gold);
    }
    return c;
}

AttentionComparison comparisonSummary(const AttentionComparisonCounts& c) {
    AttentionComparison s;
    s.lines = c.lines;
    s.rows = c.rows;
    if (c.rows > 0) {
        const double n = static_cast<double>(c.rows);
        s.mean_tv = c.tv_sum / n;
        s.mean_js = c.js_sum / n;
        s.argmax_agreement = static_cast<double>(c.argmax_agreements) / n;
        s.mean_entropy_a = c.entropy_a_sum / n;
        s.mean_entropy_b = c.entropy_b_sum / n;
    }
    if (c.aligned_lines > 0) {
        s.aer_a = c.alignment_a.aer();
        s.aer_b = c.alignment_b.aer();
    }
    return s;
}

}  // namespace attnviz
