// Coverage, row entropy and sentence confidence of docs/diagnostics.md, in double over the engine's float weights.
#include "eval/attention_diagnostics.h"

#include "eval/metrics.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace attnviz {

namespace {

// The columns the sentence penalties average over: the words, or every column when there are none.
std::pair<int, int> wordColumns(int S) { return S > 2 ? std::pair{1, S - 2} : std::pair{0, S - 1}; }

}  // namespace

SourceCoverage sourceCoverage(const std::vector<std::vector<float>>& attention, int rows) {
    SourceCoverage out;
    const int T = rows < 0 ? int(attention.size()) : std::min(rows, int(attention.size()));
    const int S = attention.empty() ? 0 : int(attention.front().size());
    out.coverage.assign(size_t(S), 0.0);
    for (int t = 0; t < T; ++t)
        for (int j = 0; j < S && j < int(attention[size_t(t)].size()); ++j)
            out.coverage[size_t(j)] += double(attention[size_t(t)][size_t(j)]);
    out.marks.assign(size_t(S), CoverageMark::None);
    for (int j = 0; j < S && T > 0; ++j) {
        const double c = out.coverage[size_t(j)];
        const bool special = j == 0 || j == S - 1;
        if (c > 1.0 + kOverBy)
            out.marks[size_t(j)] = CoverageMark::OverAttended;
        else if (c < kNeglectedBelow && !special)
            out.marks[size_t(j)] = CoverageMark::Neglected;
    }
    return out;
}

RowDiagnosis diagnoseRow(const std::vector<float>& row) {
    RowDiagnosis d;
    d.entropy = rowEntropy(row);
    d.uniform = row.size() > 1 ? std::log(double(row.size())) : 0.0;
    d.share = d.uniform > 0 ? d.entropy / d.uniform : 0.0;
    d.diffuse = d.uniform > 0 && d.share >= kDiffuseShare;
    return d;
}

SentenceConfidence sentenceConfidence(const std::vector<std::vector<float>>& attention) {
    SentenceConfidence out;
    if (attention.empty() || attention.front().empty()) return out;
    const int T = int(attention.size()), S = int(attention.front().size());
    const std::vector<double> c = sourceCoverage(attention).coverage;
    const auto [first, last] = wordColumns(S);
    const double J = double(last - first + 1);
    double cdp = 0, ap_in = 0, gnmt = 0;
    for (int j = first; j <= last; ++j) {
        const double cj = c[size_t(j)];
        cdp += std::log1p((1.0 - cj) * (1.0 - cj));
        gnmt += std::log(std::min(std::max(cj, kCoverageFloor), 1.0));
        if (cj <= 0) continue;  // a column nobody attends: no distribution, no entropy
        double h = 0;
        for (int t = 0; t < T; ++t) {
            const double q = double(attention[size_t(t)][size_t(j)]) / cj;
            if (q > 0) h -= q * std::log(q);
        }
        ap_in += h;
    }
    double ap_out = 0;
    for (const auto& row : attention) ap_out += rowEntropy(row);
    out.coverage_deviation = -cdp / J;
    out.absentminded_in = -ap_in / J;
    out.absentminded_out = -ap_out / double(T);
    out.confidence = out.coverage_deviation + out.absentminded_out + out.absentminded_in;
    out.gnmt_coverage = gnmt;
    return out;
}

}  // namespace attnviz
