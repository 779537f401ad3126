// Word alignments read off attention, and how they score against gold links (docs/diagnostics.md, "Gold alignments").
//
// A forced decode on a reference has one attention row per reference word and a final <eos> row; row t holds the
// weights over the source positions 0 … S−1, where 0 is <sos>, S−1 is <eos> and position i + 1 is source word i.
// An extraction mode turns those rows into links (i, j): source word i, target word j, as Pharaoh writes them.
//
// Scores are Och & Ney's (2003) with sure links S and possible links P (S ⊆ P), A the predicted links:
//   AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|),  precision = |A∩P| / |A|,  recall = |A∩S| / |S|.
// With sure links only (P = S) the AER is 1 − 2|A∩S| / (|A| + |S|), the number `eval` has always printed.
#pragma once
#include "decode/decoding.h"
#include "io/corpus.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

// How each target word j gets its links from the forced decode's rows.
enum class AlignMode {
    Argmax,     // row j's highest-weighted source word
    Threshold,  // every source word of row j whose weight is at least the threshold
    Shift,      // row j + 1's highest-weighted source word (attention that runs one token late)
};

struct AlignOptions {
    AlignMode mode = AlignMode::Argmax;
    double threshold = 0.3;  // Threshold only: τ in (0, 1]
    // false (the default): the specials are taken out of each row first; the argmax runs over the words only and the
    // threshold compares the words' weights renormalised to sum 1 over the words. true: the row as it is; a target
    // word whose argmax is <sos> or <eos> gets no link, and the threshold compares the raw weights.
    bool include_specials = false;
    bool operator==(const AlignOptions&) const = default;
};

inline constexpr double kDefaultAlignThreshold = 0.3;

// "argmax", "threshold:0.3", "shift" (the threshold with the shortest exact spelling).
std::string alignModeName(const AlignOptions& options);
// Parses "argmax", "threshold" (τ = kDefaultAlignThreshold), "threshold:T" (0 < T ≤ 1) or "shift" into `options`
// (include_specials is kept). Throws InputError naming the bad value.
void parseAlignMode(std::string_view text, AlignOptions& options);
// Every mode with `include_specials` as given: argmax, threshold (τ = threshold), shift.
std::vector<AlignOptions> allAlignModes(double threshold, bool include_specials);

// The links of a forced decode under `options`, sorted by (i, j). Target words are the rows but a final <eos> row
// (all rows if the output has no <eos>). Ties in an argmax go to the lower source index. Shift: word j reads row
// j + 1, so the last word reads the <eos> row; a word with no row after it (an output without <eos>) gets no link.
// Rows with no source words (S < 3) give no links.
std::vector<AlignmentLink> extractAlignment(const DecodeResult& forced, const AlignOptions& options = {});
// The default extraction (argmax, specials excluded): what `eval` and the compare view have always counted.
std::vector<AlignmentLink> attentionAlignment(const DecodeResult& forced);

// The counts behind AER, precision and recall; sums over sentences add up (corpus figures are ratios of sums).
struct AerCounts {
    int64_t predicted = 0;         // |A|
    int64_t gold = 0;              // |S|, the sure links
    int64_t overlap = 0;           // |A ∩ S|
    int64_t overlap_possible = 0;  // |A ∩ P| (P includes S)
    int64_t possible = 0;          // |P|
    AerCounts& operator+=(const AerCounts& o);
    double aer() const;        // 0 when |A| + |S| = 0
    double precision() const;  // 0 when |A| = 0
    double recall() const;     // 0 when |S| = 0
};
AerCounts aerCounts(const std::vector<AlignmentLink>& predicted, const GoldAlignment& gold);

// Where the window marks a cell: a predicted link that is possible (sure ones included) is correct, one that is not
// possible is false, a sure link that was not predicted is missed. A possible link that was not predicted is none.
enum class AlignmentCellKind { Correct, False, Missed };
struct AlignmentCell {
    AlignmentLink link;
    AlignmentCellKind kind = AlignmentCellKind::Correct;
    bool operator==(const AlignmentCell&) const = default;
};
// Each predicted link and each missed sure link once, sorted by link.
std::vector<AlignmentCell> classifyAlignment(const std::vector<AlignmentLink>& predicted, const GoldAlignment& gold);

}  // namespace attnviz
