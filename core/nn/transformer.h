// The forward pass of docs/transformer.md: the encoder once per sentence, the decoder one position at a time.
// Each decoder layer caches the keys and values of its self-attention (TransformerDecoderState) and the encoding
// holds the cross-attentions' keys and values of the memory, so step t costs O(t) rather than a re-run of the prefix.
// Every layer's and head's attention is kept: the encoder's self-attention once, the decoder's per step.
// Legend: S source length with <sos>/<eos>, t the decoder input position (0 for <sos>), d d_model, V_t target vocab.
#pragma once
#include "base/tensor.h"
#include "kernels/thread_pool.h"
#include "model/interventions.h"
#include "model/transformer_params.h"

#include <span>
#include <vector>

namespace attnviz {

// One sentence's encoder output and what every decoder step reads from it.
struct TransformerEncoding {
    Mat memory;                                    // (S, d) transformer.encoder.norm of the last layer's output
    std::vector<Mat> cross_keys;                   // [decoder layer] (S, d) memory W_k^T + b_k of multihead_attn
    std::vector<Mat> cross_values;                 // [decoder layer] (S, d) memory W_v^T + b_v
    std::vector<std::vector<Mat>> self_attention;  // [encoder layer][head] (S, S), row i = query position i
    std::vector<char> keys_off;                    // (S) knocked-out source positions (Interventions); empty: none
    int length() const { return int(memory.rows()); }
};

// The decoder's self-attention keys and values of the positions fed so far. A value: copy it to branch (beam search).
struct TransformerDecoderState {
    std::vector<Mat> keys;    // [decoder layer] (capacity, d); rows 0 .. length − 1 are positions 0 .. length − 1
    std::vector<Mat> values;  // [decoder layer] (capacity, d)
    int length = 0;           // positions fed; the next step feeds position `length`
    // Forgets positions ≥ n (going back): what earlier positions cached does not depend on later ones.
    void truncate(int n);
};

// What one decoder step gives: the distribution of the token at the next output position and the attentions.
struct TransformerStep {
    Vec logits;                        // (V_t) generator(decoder.norm(y))
    Vec log_probs;                     // (V_t) log-softmax of logits
    std::vector<Mat> cross_attention;  // [decoder layer] (nhead, S), row h = head h
    std::vector<Mat> self_attention;   // [decoder layer] (nhead, t + 1): positions 0 .. t (the causal row)
};

// The forward maths over a config and float parameters, which it refers to (they must outlive it). const and
// stateless: one object can serve several sentences and threads.
class Transformer {
public:
    // Throws ModelError if the config breaks a rule or a tensor's size is not the config's (checkTransformerParams).
    // `iv` (nullptr: none): knockout and heads off (docs/explain.md), applied to every sentence; checked by the
    // caller (checkInterventions). Only its knockout and heads_off are read; it need not outlive the constructor.
    // `pool`: where a step's output product may share its rows (the engine's pool by default; nullptr: this thread
    // alone). The bits are the same either way.
    Transformer(const TransformerConfig& config, const TransformerParams& params, const Interventions* iv = nullptr,
                ThreadPool* pool = &ThreadPool::engine());

    const TransformerConfig& config() const { return *config_; }
    int sourceVocabSize() const;
    int targetVocabSize() const { return int(params_->tgt_embedding.rows()); }
    // The decoder's longest input: rows of its stored positional table, else the config's max_positions; 0 when PE
    // is computed for any length.
    int maxLength() const;

    // E[id_i] · √d + PE[first + i] for each id: (n, d). Throws InputError for an id outside the vocabulary or a
    // position beyond a stored table's maxlen.
    Mat embed(const std::vector<int>& ids, bool source, int first_position) const;

    // The encoder over source ids ([<sos>] + tokens + [<eos>]), then the cross keys and values of every decoder
    // layer. Throws InputError for an empty source, an id outside V_s, or S > maxlen of a stored table.
    TransformerEncoding encode(const std::vector<int>& source_ids) const;

    // Feeds `token` at position state.length (the decoder input [<sos>, y_1, …]) and gives the distribution of the
    // next output token. Throws InputError for a token outside V_t or a position beyond a stored table's maxlen.
    void step(const TransformerEncoding& enc, TransformerDecoderState& state, int token, TransformerStep& out) const;

private:
    Mat encoderLayer(const Mat& x, int l, std::vector<Mat>& heads) const;
    // (nhead) the heads of `kind`'s layer l that are off; empty when none is.
    std::span<const char> headsOff(AttentionKind kind, int l) const;
    Mat decoderLayer(const Mat& y, int l, const TransformerEncoding& enc, TransformerDecoderState& state,
                     TransformerStep& out) const;
    Mat causalSelfAttention(const Mat& y, int l, TransformerDecoderState& state, Mat& weights) const;
    Mat crossAttention(const Mat& y, int l, const TransformerEncoding& enc, Mat& weights) const;

    const TransformerConfig* config_;
    const TransformerParams* params_;
    ThreadPool* pool_;
    std::vector<int> knockout_;                    // source positions knocked out
    std::vector<std::vector<char>> heads_off_[3];  // [AttentionKind][layer] (nhead) or empty
};

// The T × T decoder self-attention of one layer and head from the steps of a decode (T = steps.size()): row i is
// step i's causal row, exact zeros above the diagonal.
Mat decoderSelfAttentionMatrix(const std::vector<TransformerStep>& steps, int layer, int head);
// The T × S cross-attention of one layer and head; head −1 averages over the heads (`attention` for the last
// layer).
Mat crossAttentionMatrix(const std::vector<TransformerStep>& steps, int layer, int head);

}  // namespace attnviz
