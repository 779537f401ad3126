// Inference: a step-wise decoding session (the API the GUI drives), greedy, forced and beam decoding, the same for
// every model kind (bahdanau, luong, transformer).
// Legend: S source length with <sos>/<eos>, T target length, V = V_t, H_e, H_d as in params.h; for a Transformer
// L_enc / L_dec its encoder / decoder layers and nhead its heads.
#pragma once
#include "decode/limits.h"
#include "model/interventions.h"
#include "model/model.h"
#include "text/piece_words.h"
#include "text/tokenizer.h"

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace attnviz {

struct Candidate {
    int id = 0;
    float prob = 0;  // from the full softmax
    float log_prob = 0;
};

// Everything one decoder step computed; the row of the heatmap for the token it produced.
struct StepRecord {
    int token = 0;                 // the produced (or forced) target id
    std::string token_text;        // its spelling (the reference's spelling when forced with an unknown word)
    float log_prob = 0;            // log p(token) from the full softmax
    std::vector<float> attention;  // (S) a_j; exact zeros outside a local window
    std::vector<float> scores;     // (S) raw e_j before the softmax; NaN outside a local window
    std::vector<float> context;    // (2H_e) c = sum_j a_j h_j
    std::vector<Candidate> top_k;  // most probable next tokens, descending (ties: lower id first)
    float entropy = 0;             // -sum a log a over the row, nats
    float center = std::numeric_limits<float>::quiet_NaN();  // p of a local span; NaN for global
    bool forced = false;                                     // token chosen by the user / the reference, not the argmax
    // (H_d) the decoder state the scores were taken from (bahdanau s_{t−1}, luong s_t), so that one cell can be
    // explained later (eval/cell_explanation.h). Kept by DecodingSession (and so prefixDecode); empty elsewhere and
    // for the Transformer. H_d floats per step, next to the S-float rows above.
    std::vector<float> query_state;
    // Transformer models only (empty for the RNN kinds), row h = head h. For them `attention` is the last layer's
    // cross-attention averaged over its heads, `scores` is NaN (no single e_j) and `context` is empty.
    std::vector<Mat> cross_attention;  // [decoder layer] (nhead, S)
    std::vector<Mat> self_attention;   // [decoder layer] (nhead, t): step t (1-based) sees decoder inputs 0 .. t − 1
};

// The default length limit for a source of S tokens (with <sos>/<eos>): 2 * S + 10 target tokens.
int defaultMaxLength(int S);

// Whether a decode of this model may output target id `id`: not its <pad>, <sos> or decoder start, nor an id it
// forbids (a configured Transformer's forbidden_outputs). What the window offers to force.
bool canProduce(const Model& model, int id);

struct DecodeOptions {
    int max_len = 0;  // at most this many target tokens (<eos> included); 0 = defaultMaxLength(S)
    int top_k = 5;    // candidates kept per step
    // Beam search only: a finished hypothesis ranks by its total log p / L^length_penalty, L its length counted as
    // transformers' generate counts an encoder-decoder's (the tokens produced, </s> included, and the decoder
    // start); 0 ranks by the total log p (the default; no length normalisation). generate's default is 1.
    double length_penalty = 0;
    // A step may share its large products with a second core (the engine's threads). Turn off when the caller already
    // keeps every core busy, e.g. decoding several sentences side by side (decode/parallel.h). Only speed depends on it.
    bool parallel_steps = true;
    // Knockout, attend, heads off (docs/explain.md, "Interventions"): a different decode, taken by every decode
    // (greedy, forced, beam, the session, prefixDecode). Checked against the model and the source when a decode
    // starts (InputError). Empty: the plain model, every bit as before.
    Interventions interventions;
};

namespace detail {
struct SessionAccess;  // decode/on_path.h: a session on a path the caller picks (tests and benchmarks)
}

// Encodes once, then produces target tokens one step at a time. Steps already computed are kept: moving back and
// forward again does not recompute. `cursor()` is the number of steps shown (0..steps().size()).
class DecodingSession {
public:
    DecodingSession(std::shared_ptr<const Model> model, std::string_view source_text, DecodeOptions options = {});
    DecodingSession(std::shared_ptr<const Model> model, TokenizedText source, DecodeOptions options = {});
    ~DecodingSession();
    DecodingSession(DecodingSession&&) noexcept;
    DecodingSession& operator=(DecodingSession&&) noexcept;

    const Model& model() const;
    const std::shared_ptr<const Model>& modelPtr() const;
    const TokenizedText& source() const;
    const std::vector<StepRecord>& steps() const;
    int cursor() const;
    int maxLength() const;
    // True when the last computed step produced <eos> or the length limit is reached.
    bool complete() const;

    // Moves the cursor one step forward, computing the next step greedily if it is not computed yet.
    // Returns false (and does nothing) when the cursor is already after the final step.
    bool forward();
    bool back();            // cursor - 1; false at 0
    void seek(int cursor);  // 0..steps().size(), clamped
    // Replaces step `index` (0-based; index <= steps().size()) by one that outputs `token`, drops every later step,
    // and leaves the cursor after it. The attention of that step is unchanged (it does not depend on its own
    // output); the steps after it will follow from the forced token. Throws InputError for an invalid id.
    void force(int index, int token);
    // Computes greedily until complete; cursor moves to the end.
    void runToEnd();
    // Number of decoder steps computed since construction (a test hook: moving the cursor computes nothing).
    int computedStepCount() const;
    // Transformer models: the encoder's self-attention, [encoder layer][head] (S, S), row i = query position i.
    // Empty for the RNN kinds.
    const std::vector<std::vector<Mat>>& encoderSelfAttention() const;

private:
    friend struct detail::SessionAccess;
    struct Impl;
    explicit DecodingSession(std::unique_ptr<Impl> impl);
    std::unique_ptr<Impl> impl_;
};

// The decode object of docs/cli.md.
struct DecodeResult {
    std::vector<std::string> source_tokens;
    std::vector<int> source_ids;
    std::vector<std::string> target_tokens;
    std::vector<int> target_ids;
    std::vector<std::vector<float>> attention;  // (T, S)
    std::vector<std::vector<float>> scores;     // (T, S) raw e_j (NaN outside a local window)
    std::vector<float> log_probs;               // (T)
    double total_log_prob = 0;
    std::string decoder_start = kSpecialTokens[kSos];  // the decoder's first input as text (Marian: its <pad>)
    // A SentencePiece model's words (decode/subword_words.h): spans of piece positions, and the translation as text;
    // empty for the other tokenizers.
    std::vector<WordSpan> source_words, target_words;
    std::string text;
    // Transformer models only (empty for the RNN kinds): docs/transformer.md's keys, [layer][head].
    std::vector<std::vector<Mat>> cross_attention;         // [L_dec][nhead] (T, S)
    std::vector<std::vector<Mat>> encoder_self_attention;  // [L_enc][nhead] (S, S)
    std::vector<std::vector<Mat>> decoder_self_attention;  // [L_dec][nhead] (T, T), exact zeros above the diagonal
};

DecodeResult resultFromSession(const DecodingSession& session);  // the steps up to the cursor
DecodeResult greedyDecode(const Model& model, std::string_view source_text, const DecodeOptions& options = {});
// Teacher forcing on a reference (target tokenizer, <eos> appended); the rows are the model's attention on it.
DecodeResult forcedDecode(const Model& model, std::string_view source_text, std::string_view reference_text,
                          const DecodeOptions& options = {});
// The same on already tokenized text: `source` with <sos>/<eos> (as tokenizeSource gives it), `reference` the
// target tokens with <eos> (as tokenizeTarget gives it; id 1 keeps the reference's spelling). Ids are checked
// against the vocabularies (InputError).
DecodeResult greedyDecode(const Model& model, const TokenizedText& source, const DecodeOptions& options = {});
// Of the options, forced decoding reads parallel_steps and interventions only.
DecodeResult forcedDecode(const Model& model, const TokenizedText& source, const TokenizedText& reference,
                          const DecodeOptions& options = {});

// Beam search of width K keeping the whole tree: node 0 is the root (<sos>); every expanded node lists its children.
// All children of one expanded hypothesis come from the same decoder step and so share that step's attention row:
// the tree keeps one row per expansion (`rows`), and a node names the row of the step that produced it.
// For a Transformer, `attention` is docs/transformer.md's `attention` row and `best` has the three attention keys.
struct BeamNode {
    int parent = -1;
    int token = kSos;           // the root's: the decoder's start token (<sos>; a Marian's <pad>)
    int step = 0;               // target position (1 for the first produced token)
    float log_prob = 0;         // of this token given its parent
    double total_log_prob = 0;  // sum along the path
    int row = -1;               // index into BeamResult::rows of the step that produced this token; -1 for the root
    bool finished = false;      // token is <eos> or the length limit was reached
    bool in_beam = true;        // kept among the K best at its step
    bool forced = false;        // a token of the forced prefix (beamSearch with a prefix), not searched
    std::vector<int> children;
};
struct BeamResult {
    std::vector<BeamNode> nodes;
    std::vector<std::vector<float>> rows;  // [expansion] (S): the attention row of each decoder step taken
    std::vector<int> finished;             // leaf nodes of finished hypotheses, best first (by beamRank)
    DecodeResult best;                     // the best finished hypothesis as a decode object
    double length_penalty = 0;             // the α the finished hypotheses were ranked with (DecodeOptions)

    // (S) the attention row of the step that produced node `node`; empty for the root.
    const std::vector<float>& attention(int node) const;
};
// What a finished hypothesis ranks by: its total log-probability, or total / L^α with a length penalty α ≠ 0, L = its
// step + 1 (DecodeOptions::length_penalty).
double beamRank(double total_log_prob, int step, double length_penalty);
// `best` is the finished hypothesis with the highest total log-probability, or with options.length_penalty α ≠ 0
// the highest total / L^α (DecodeOptions). Width 1 gives exactly greedyDecode's result. Throws InputError for a width < 1 or > kMaxBeamWidth (decode/limits.h), or a tree
// larger than kMaxBeamTreeBytes.
BeamResult beamSearch(const Model& model, std::string_view source_text, int beam_width,
                      const DecodeOptions& options = {});
BeamResult beamSearch(const Model& model, const TokenizedText& source, int beam_width,
                      const DecodeOptions& options = {});
// The same search after a forced prefix of target ids (the window's "force a token at a node"): the tree starts
// with one `forced` node per prefix token (its log-prob the model's), then searches on from the last one. A prefix
// ending with <eos> is the whole hypothesis. max_len is raised to the prefix's length. Throws InputError for an id
// that cannot be produced or an <eos> before the prefix's end. An empty prefix gives beamSearch's result.
BeamResult beamSearch(const Model& model, const TokenizedText& source, const std::vector<int>& prefix, int beam_width,
                      const DecodeOptions& options = {});
// An upper bound of what a search keeps: max_len steps of beam_width expansions, each one attention row and one
// row of raw scores of S floats, and min(beam_width, V − 2) nodes (BeamNode) per expansion.
uint64_t beamTreeBytes(int S, int beam_width, int max_len, int target_vocab);

}  // namespace attnviz
