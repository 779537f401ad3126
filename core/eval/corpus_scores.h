// Every line of a corpus scored on its own: the model's greedy output with its log-probability, the attention's mean
// entropy and confidence (eval/attention_diagnostics.h), exact match, sentence BLEU-4 and token accuracy against the
// reference, and the AER of the attention forced onto the reference where the line has gold links. What the window's
// corpus browser shows, one row per line; the definitions are those of `attnviz-cli eval` (eval/metrics.h) taken per
// line instead of summed.
#pragma once
#include "decode/decoding.h"
#include "decode/limits.h"
#include "eval/attention_diagnostics.h"
#include "eval/metrics.h"
#include "io/corpus.h"

#include <atomic>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace attnviz {

struct LineScores {
    int line = 0;         // the example's 1-based line in its file
    std::string error;    // not empty: the line was not scored (e.g. a source past the length limit); nothing below is
    bool scored = false;  // false also when the scoring was cancelled before this line
    std::vector<std::string> output_tokens;  // the greedy output, <eos> included when produced
    std::string output;                      // the same detokenized (text/tokenizer.h), without <eos>
    double log_prob = 0;                     // Σ_t log p(y_t), <eos> included
    double log_prob_per_token = 0;           // log_prob / T (T output tokens, <eos> included); 0 when T = 0
    double mean_entropy = 0;                 // mean over the greedy attention rows of rowEntropy, nats
    SentenceConfidence confidence;           // of the greedy attention (T, S)
    EvalCounts counts;                       // evalExample's counts: exact, tokens, BLEU statistics, AER counts
    double bleu = 0;                         // counts.bleu.bleu(): sentence BLEU-4 in %, unsmoothed
    double bleu_plus_one = 0;                // counts.bleu.bleuPlusOne(): BLEU+1 in %, the browser's BLEU column
    double token_accuracy = 0;               // counts.tokens.correct / counts.tokens.positions
    std::optional<double> aer;               // counts.alignment.aer() when the line has gold links
};

struct CorpusScoreOptions {
    int max_len = 0;                           // output tokens per line, <eos> included; 0: defaultMaxLength(S)
    int max_source_tokens = kMaxSourceTokens;  // a longer source is not scored (LineScores::error)
    int threads = 0;                           // lines decoded side by side; 0: one per core
};

// One line: the greedy decode of its source and, with gold links, the forced decode on its reference. Never throws
// for a bad line: the reason is in LineScores::error.
LineScores scoreLine(const Model& model, const CorpusExample& example, const DecodeOptions& options,
                     int max_source_tokens = kMaxSourceTokens);

// Every example, in the examples' order, decoded side by side on the engine's threads (decode/parallel.h). `done`
// (when given) counts the lines finished, for a progress bar read from another thread; `cancel` (when given) stops
// the work at the next line once set: the lines not reached keep scored = false.
std::vector<LineScores> scoreCorpus(const Model& model, const std::vector<CorpusExample>& examples,
                                    const CorpusScoreOptions& options = {}, std::atomic<size_t>* done = nullptr,
                                    const std::atomic<bool>* cancel = nullptr);

// The corpus measures of `attnviz-cli eval` (eval/metrics.h's evalReport: corpus BLEU-4, exact match, token
// accuracy, and the AER where some line has gold links) of every line scoreCorpus scores, summed in the lines' order;
// a line it cannot score is left out and counted in `*unscored` (when given). What the training window shows after
// each epoch's validation.
EvalReport evaluateCorpus(const Model& model, const std::vector<CorpusExample>& examples,
                          const CorpusScoreOptions& options = {}, int64_t* unscored = nullptr);

// The table as CSV (RFC 4180 quoting via io/decode_json.h's csvField, "\n" line ends, UTF-8): the header
// `line,source,reference,output,log_prob,log_prob_per_token,mean_entropy,confidence,coverage_deviation,
// absentminded_out,absentminded_in,bleu,bleu_plus_one,token_accuracy,exact,aer,error`, then one row per example with its scores
// (same index). Unscored lines and lines without gold links leave the number fields empty.
std::string corpusScoresToCsv(const std::vector<CorpusExample>& examples, const std::vector<LineScores>& scores);

}  // namespace attnviz
