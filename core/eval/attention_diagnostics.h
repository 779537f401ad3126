// Diagnostics of one decode's attention matrix (docs/diagnostics.md): the coverage of each source token
// c_j = Σ_t a_tj (Tu et al. 2016) with neglected and over-attended tokens marked, each row's entropy against the
// uniform entropy ln S with diffuse rows flagged, and the sentence's confidence: the coverage deviation and
// absentmindedness penalties (after Rikters & Fishel 2017) and GNMT's coverage penalty (Wu et al. 2016).
// Logarithms are natural (nats). The window and the CLI read the same functions.
// Legend: T rows (target steps), S columns (source tokens with <sos>/<eos>).
#pragma once
#include <vector>

namespace attnviz {

// A word j (not <sos>/<eos>) is neglected when c_j < kNeglectedBelow and over-attended when c_j > 1 + kOverBy.
inline constexpr double kNeglectedBelow = 0.5;
inline constexpr double kOverBy = 0.5;
// A row is diffuse when its entropy is at least this share of the uniform entropy ln S.
inline constexpr double kDiffuseShare = 0.8;
// GNMT's ln(min(c_j, 1)) takes c_j no smaller than this (a word outside every local window has c_j = 0).
inline constexpr double kCoverageFloor = 1e-6;

enum class CoverageMark { None, Neglected, OverAttended };

struct SourceCoverage {
    std::vector<double> coverage;     // (S) c_j = Σ_t a_tj over the rows given
    std::vector<CoverageMark> marks;  // (S) <sos> (j = 0) is never neglected, nor <eos> (j = S − 1)
};
// The coverage of the first `rows` rows of `attention` (T, S) (-1: all of them). Rows may be empty (nothing decoded):
// then S = 0.
SourceCoverage sourceCoverage(const std::vector<std::vector<float>>& attention, int rows = -1);

struct RowDiagnosis {
    double entropy = 0;    // H = −Σ_j a_j ln a_j (0 ln 0 = 0)
    double uniform = 0;    // ln S, the entropy of a uniform row
    double share = 0;      // H / ln S (0 when S ≤ 1)
    bool diffuse = false;  // share ≥ kDiffuseShare
};
RowDiagnosis diagnoseRow(const std::vector<float>& row);

// Per-sentence penalties, each ≤ 0 with 0 the best (definitions in docs/diagnostics.md). J = the words' columns
// 1 .. S−2 (all S columns when S ≤ 2).
struct SentenceConfidence {
    double coverage_deviation = 0;  // CDP = −(1/J) Σ_j ln(1 + (1 − c_j)²)
    double absentminded_out = 0;    // AP_out = −(1/T) Σ_t H(a_t·)
    double absentminded_in = 0;     // AP_in = −(1/J) Σ_j H(a_·j / c_j)
    double confidence = 0;          // CDP + AP_out + AP_in
    double gnmt_coverage = 0;       // Σ_j ln(min(max(c_j, kCoverageFloor), 1)) (GNMT's cp with β = 1)
};
// Zeros for an empty matrix.
SentenceConfidence sentenceConfidence(const std::vector<std::vector<float>>& attention);

}  // namespace attnviz
