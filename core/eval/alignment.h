// Word alignments read off attention, and how they score against gold links (docs/diagnostics.md, "Gold alignments").
//
// A word model's forced decode on a reference has one attention row per reference word and a final <eos> row; row t
// holds the weights over the source positions 0 … S−1, where 0 is <sos>, S−1 is <eos> and position i + 1 is source
// word i. A SentencePiece model's rows and columns are pieces and its source has no <sos>: merged into words on both
// sides (WordAxes::merge, decode/subword_words: a word's columns summed, its rows averaged), column i is source word i,
// the last column and row its </s>. An extraction mode turns the rows into links (i, j): source word i, target word
// j, as Pharaoh writes them.
//
// Scores are Och & Ney's (2003) with sure links S and possible links P (S ⊆ P), A the predicted links:
//   AER = 1 − (|A∩S| + |A∩P|) / (|A| + |S|),  precision = |A∩P| / |A|,  recall = |A∩S| / |S|.
// With sure links only (P = S) the AER is 1 − 2|A∩S| / (|A| + |S|), the number `eval` has always printed.
#pragma once
#include "decode/decoding.h"
#include "decode/subword_words.h"
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

// Which of a forced decode's rows and columns are the gold's words: a word model's (the defaults), or a SentencePiece
// model's merged into words (wordAxes).
struct WordAxes {
    MergeSides merge = MergeSides::None;  // the sides merged into words before the links are read
    int first_column = 1;                 // source word 0's column: 1 after a <sos>, 0 when the source has none
    int end_id = kEos;                    // the target's end id: a final row of it is not a word
    bool operator==(const WordAxes&) const = default;
};
// `model`'s axes with its pieces merged on `merge`'s sides (a word model's decodes have no pieces: merge is kept but
// changes nothing). Gold word links fit a SentencePiece model's axes only with merge Both (readsWords).
WordAxes wordAxes(const Model& model, MergeSides merge);
// Whether the axes' rows and columns are words: not a SentencePiece model's pieces left unmerged on either side.
bool readsWords(const Model& model, MergeSides merge);

struct AlignOptions {
    AlignMode mode = AlignMode::Argmax;
    double threshold = 0.3;  // Threshold only: τ in (0, 1]
    // false (the default): the specials are taken out of each row first; the argmax runs over the words only and the
    // threshold compares the words' weights renormalised to sum 1 over the words. true: the row as it is; a target
    // word whose argmax is <sos> or <eos> gets no link, and the threshold compares the raw weights.
    bool include_specials = false;
    WordAxes words;  // not a reading of the user's: where the model's words are (wordAxes)
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

// The links of a forced decode under `options`, sorted by (i, j). Target words are the rows but a final end row
// (all rows if the output has no end token). Ties in an argmax go to the lower source index. Shift: word j reads row
// j + 1, so the last word reads the end row; a word with no row after it (an output without one) gets no link.
// Rows with no source words give no links.
std::vector<AlignmentLink> extractAlignment(const DecodeResult& forced, const AlignOptions& options = {});
// The same for a (T × S) matrix over the forced decode's pieces in place of its attention (an explanation method's,
// signed values as they are), merged on options.words.merge's sides as the attention is.
std::vector<AlignmentLink> extractAlignment(const DecodeResult& forced, const Mat& weights,
                                            const AlignOptions& options);
// Throws InputError unless the forced decode read on `w` has `source_words` and `target_words` words, the gold's
// text's: a SentencePiece model's <unk> piece or >>lang<< code is a word of its own, where the text has none.
void checkWordCounts(const DecodeResult& forced, const WordAxes& w, size_t source_words, size_t target_words);
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
