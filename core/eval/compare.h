// Comparing the attention of two models on the same sentences (`attnviz-cli compare`, docs/cli.md): per attention
// row, the total-variation distance and the Jensen–Shannon divergence between the two rows, whether their argmax
// agrees, and each row's entropy; per corpus, their means over rows and each model's AER where gold links exist.
//
// A row is compared over all its S columns, <sos> and <eos> included (specials are columns like any other). Logarithms
// are natural: entropies and JS are in nats (JS lies in [0, ln 2]); TV = ½ Σ|p − q| lies in [0, 1].
#pragma once
#include "decode/decoding.h"
#include "eval/metrics.h"
#include "io/corpus.h"
#include "model/model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnviz {

// ½ Σ_j |p_j − q_j|.
double totalVariation(const std::vector<float>& p, const std::vector<float>& q);
// ½ KL(p ‖ m) + ½ KL(q ‖ m), m = (p + q) / 2, in nats (0 ln 0 = 0).
double jensenShannon(const std::vector<float>& p, const std::vector<float>& q);
// The first column with the highest weight.
int rowArgmax(const std::vector<float>& row);

// Why the attention rows of two models would not line up ("" when they do): they must tokenize a sentence alike and
// number its tokens alike, i.e. have equal source and target vocabularies and tokenizers (siblings do). Names the
// first difference: "target vocabularies differ (id 57 is "cat" against "dog")".
std::string comparabilityProblem(const Model& a, const Model& b);

// The measures of one pair of rows (row t of `a` and of `b`).
struct RowComparison {
    double tv = 0;  // totalVariation
    double js = 0;  // jensenShannon, nats
    int argmax_a = 0, argmax_b = 0;
    double entropy_a = 0, entropy_b = 0;  // rowEntropy, nats
    bool agree() const { return argmax_a == argmax_b; }
};
// Row by row, for decodes as compareAttention takes them (InputError when their shapes differ).
std::vector<RowComparison> compareRows(const DecodeResult& a, const DecodeResult& b);
// B − A cell by cell in float, (T, S) like the attention (InputError when the shapes differ).
std::vector<std::vector<float>> attentionDifference(const DecodeResult& a, const DecodeResult& b);

// Sums over rows (and over aligned lines for the AER), added up in any order before the means are taken.
struct AttentionComparisonCounts {
    int64_t lines = 0;
    int64_t rows = 0;
    double tv_sum = 0, js_sum = 0;
    int64_t argmax_agreements = 0;
    double entropy_a_sum = 0, entropy_b_sum = 0;
    int64_t aligned_lines = 0;
    AerCounts alignment_a, alignment_b;
    AttentionComparisonCounts& operator+=(const AttentionComparisonCounts& o);
};

// The counts of one sentence: `a` and `b` are decodes of the same source onto the same target (one row per target
// token, each of the same length S); throws InputError when their shapes differ. With `gold`, both decodes must be
// forced onto the reference those links refer to: each model's attention alignment (attentionAlignment) is counted
// against their sure and possible links (eval/alignment.h).
AttentionComparisonCounts compareAttention(const DecodeResult& a, const DecodeResult& b,
                                           const GoldAlignment* gold = nullptr);

struct AttentionComparison {
    int64_t lines = 0;
    int64_t rows = 0;
    double mean_tv = 0;           // over rows
    double mean_js = 0;           // over rows, nats
    double argmax_agreement = 0;  // share of rows, 0..1
    double mean_entropy_a = 0;    // over rows, nats
    double mean_entropy_b = 0;
    std::optional<double> aer_a, aer_b;  // when some line has gold links (ratio of the summed counts, as in eval)
};
// Means over every row counted (a long sentence weighs more than a short one); zeros when there are no rows.
AttentionComparison comparisonSummary(const AttentionComparisonCounts& counts);

}  // namespace attnviz
