// Which explanation is right (docs/explain.md, "Corpus measures"): each method's AER against gold links, its AOPC
// (comprehensiveness: how much f_t falls when the words it ranks first are replaced by <unk>) beside a random
// order's, and its per-row Spearman correlation with occlusion. A line gives sums; a corpus adds them up.
// Legend: S source length with <sos>/<eos>, n = S − 2 words, T target rows, K = min(5, n). A source without <sos> (a
// Marian model's pieces + </s>) has its words from position 0 (`first`, WordAxes::first_column): n = S − 1.
#pragma once
#include "eval/alignment.h"
#include "explain/explanation.h"
#include "io/corpus.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnviz {

constexpr int kAopcMaxK = 5;

// A mean kept as a sum and a count, so that lines add up.
struct MeanSum {
    double sum = 0;
    int64_t count = 0;
    MeanSum& operator+=(const MeanSum& o);
    double mean() const;  // NaN when nothing was counted
};

struct ExplainMeasures {
    AerCounts aer;               // lines with gold links
    MeanSum aopc;                // over every (line, row, k) of Δ_k
    MeanSum occlusion_spearman;  // over rows with n ≥ 2 and neither vector constant
    ExplainMeasures& operator+=(const ExplainMeasures& o);
};

// The word positions first..S−2 of row t ordered by R[t] descending (ties: lower j first).
std::vector<int> rankedWords(const Mat& R, int t, int first = 1);
// Spearman's rank correlation with average ranks for ties; NaN when fewer than 2 values or either is constant.
double spearman(const std::vector<double>& a, const std::vector<double>& b);
// Per row t, spearman of a[t][first..S−2] and b[t][first..S−2] (the words, specials left out); a and b (T, S).
std::vector<double> rowSpearman(const Mat& a, const Mat& b, int first = 1);
// Each row's shares of its magnitude: |R[t][j]| / Σ_j' |R[t][j']| (a row of zeros stays 0), so that any method's
// row reads as a distribution over the source, as attention's does (the compare view's "method as B").
Mat rowShares(const Mat& R);
// Σ_t Σ_k Δ_k with its count, for the per-row orders given (order[t]: word positions, most important first); `iv`:
// the interventions the forced decode was made with (every f_t is the intervened model's).
MeanSum aopcOf(const Model& model, const DecodeResult& forced, const std::vector<std::vector<int>>& order,
               const Interventions& iv = {});
// A seeded random order of the word positions first..first+words−1 for every row (the random floor of AOPC).
std::vector<std::vector<int>> randomOrders(int rows, int words, uint64_t seed, int first = 1);

// A method's matrix R of the forced decode (made with `iv`) measured: its AER against gold (when not null; its links
// read as `eval` reads attention, eval/alignment.h's extractAlignment of R) and its AOPC.
ExplainMeasures measureMethod(const Model& model, const DecodeResult& forced, const GoldAlignment* gold, const Mat& R,
                              const AlignOptions& align, const Interventions& iv = {});

// One corpus line's measures for one method (the corpus browser's columns): on the forced decode of its reference,
// the AER (lines with gold links) and the AOPC. A line without a reference, or one that cannot be decoded, is not
// scored and says why.
struct LineExplainScores {
    bool scored = false;
    std::string error;
    std::optional<double> aer;
    double aopc = 0;
};
// Every example, in order, side by side on the engine's threads; `done` counts the lines finished and `cancel`
// stops at the next line (decode/parallel.h's forEachInParallel).
std::vector<LineExplainScores> explainCorpus(const Model& model, const std::vector<CorpusExample>& examples,
                                             ExplainMethod method, const AlignOptions& align,
                                             std::atomic<size_t>* done = nullptr,
                                             const std::atomic<bool>* cancel = nullptr);

// One line's measures for each method (in the order given) and for the random order. `forced` is the forced decode
// of the line's reference, made with options.interventions; gold may be null. `seed` makes the random order.
struct LineMeasures {
    std::vector<ExplainMeasures> methods;
    ExplainMeasures random;
};
LineMeasures measureLine(const Model& model, const DecodeResult& forced, const GoldAlignment* gold,
                         const std::vector<ExplainMethod>& methods, const AlignOptions& align, uint64_t seed,
                         const ExplainOptions& options = {});

}  // namespace attnviz
