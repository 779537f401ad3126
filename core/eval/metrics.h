// Evaluation metrics of docs/cli.md (`attnviz-cli eval`): exact match, token accuracy, corpus BLEU-4, chrF
// (eval/chrf.h), mean attention entropy and the alignment error rate (AER) of the attention against gold Pharaoh alignments.
//
// Every metric is a corpus-level ratio of sums, so each example yields counts (EvalCounts) that are added up in any
// order (one accumulator per thread, then merged) before the ratios are taken.
//
// Tokens are compared by spelling: an unknown reference word ("foo", id 1) never matches a produced "<unk>".
#pragma once
#include "base/row_entropy.h"
#include "decode/decoding.h"
#include "eval/alignment.h"
#include "eval/chrf.h"
#include "io/corpus.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace attnviz {

// Clipped n-gram statistics of corpus BLEU-4 (Papineni et al. 2002), summed over sentences.
struct BleuStats {
    std::array<int64_t, 4> matches{};  // clipped n-gram matches, n = 1..4
    std::array<int64_t, 4> totals{};   // n-grams in the hypotheses
    int64_t hyp_length = 0;            // c
    int64_t ref_length = 0;            // r
    BleuStats& operator+=(const BleuStats& o);
    // 100 * BP * exp(mean_n log p_n), p_n = matches[n] / totals[n]; 0 if any p_n is 0 (no smoothing) or c = 0;
    // BP = 1 if c >= r, else exp(1 - r / c).
    double bleu() const;
    // BLEU+1 of one sentence (Lin & Och 2004, as Moses' sentence-bleu): one added to the matches and the totals of
    // n = 2..4, so that a short sentence without a 4-gram match does not score 0; the same BP; 0 if c = 0 or no
    // unigram matches.
    double bleuPlusOne() const;
};
// The statistics of one sentence pair (tokens without <eos>; one reference).
BleuStats bleuStats(const std::vector<std::string>& hypothesis, const std::vector<std::string>& reference);
// Corpus BLEU-4 in % of parallel lists.
double corpusBleu(const std::vector<std::vector<std::string>>& hypotheses,
                  const std::vector<std::vector<std::string>>& references);

// rowEntropy, the entropy of one attention row: base/row_entropy.h.

// attentionAlignment, AerCounts and the other alignment modes and scores: eval/alignment.h.

// Token-level comparison of an output with its reference, both with <eos> where they have it.
struct TokenCounts {
    int64_t correct = 0;    // reference positions where the output has the same token
    int64_t positions = 0;  // reference positions (<eos> included)
};
// Position k of the reference counts as correct when the output has a token at k and it is the same;
// an output shorter than the reference loses the missing positions, a longer one loses nothing more.
TokenCounts tokenCounts(const std::vector<std::string>& output, const std::vector<std::string>& reference);
// Output without a final <eos> equals reference without a final <eos>.
bool exactMatch(const std::vector<std::string>& output, const std::vector<std::string>& reference);
// The tokens without a final "<eos>" (BLEU and exact match work on these).
std::vector<std::string> withoutEos(const std::vector<std::string>& tokens);

// The sums over a corpus from which every metric is taken.
struct EvalCounts {
    int64_t lines = 0;
    int64_t exact = 0;
    TokenCounts tokens;
    BleuStats bleu;
    ChrfStats chrf;
    double entropy_sum = 0;  // over all attention rows of the greedy outputs
    int64_t attention_rows = 0;
    int64_t output_tokens = 0;  // greedy output tokens, <eos> included
    int64_t aligned_lines = 0;
    AerCounts alignment;
    EvalCounts& operator+=(const EvalCounts& o);
};
// The counts of one example: `greedy` the greedy output, `reference` the reference target tokens with <eos>,
// `forced` the forced decode on the reference and `gold` its alignment (both or neither), whose links are extracted
// with `align` (eval/alignment.h).
EvalCounts evalExample(const DecodeResult& greedy, const std::vector<std::string>& reference,
                       const DecodeResult* forced = nullptr, const GoldAlignment* gold = nullptr,
                       const AlignOptions& align = {});
// The same for `model`'s outputs. A SentencePiece target (docs/marian.md) is scored on its text: the translation and
// the reference decoded by the model's target.spm, then cut into characters by the char tokenizer, so that exact
// match, BLEU and chrF are the "char BLEU" of the char-target models (token accuracy stays on the pieces).
EvalCounts evalExample(const Model& model, const DecodeResult& greedy, const std::vector<std::string>& reference,
                       const DecodeResult* forced = nullptr, const GoldAlignment* gold = nullptr,
                       const AlignOptions& align = {});
// The tokens exact match, BLEU and chrF read: withoutEos of `tokens`, or for a SentencePiece target their text in
// characters.
std::vector<std::string> scoredTokens(const Model& model, const std::vector<std::string>& tokens);

struct EvalReport {
    int64_t lines = 0;
    double exact_match = 0;                                       // share of lines, 0..1
    double token_accuracy = 0;                                    // share of reference positions, 0..1
    double bleu = 0;                                              // %
    double chrf = 0;                                              // %
    double mean_entropy = 0;                                      // nats
    std::optional<double> aer;                                    // when some line has an alignment
    std::optional<double> alignment_precision, alignment_recall;  // likewise (eval/alignment.h)
    EvalCounts counts;
};
EvalReport evalReport(const EvalCounts& counts);

}  // namespace attnviz
