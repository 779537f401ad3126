// The Transformer's teacher-forced loss and its gradient for a batch of (source, target) examples
// (docs/model-format.md's objective, docs/transformer.md's maths): the encoder over the sources, the decoder over
// each whole target prefix at once with the causal mask, the final norms and the generator, keeping what the
// backward reads; then the backward of each layer (nn/transformer_grad.h's blocks). The batch is packed, not padded:
// the examples' rows follow one another (RowSegments), every position-wise block is one matrix product over all of
// them and each example attends to its own positions only. The trainer splits a batch across threads
// (train/transformer_batch.h).
// Dropout at PyTorch's sites (nn.Transformer(dropout=P) and the tutorial's dropout after E·√d + PE): after the
// embedding, on the attention weights, after each sublayer before its residual add, and inside the feed-forward
// block after the activation. The stored positional table is a buffer, as in the tutorial: its gradient stays 0.
// Legend: S_b source length of example b with <sos>/<eos>, T_b its target length, N_b = T_b − 1 decoder positions;
// S = Σ S_b and N = Σ N_b the packed rows; d, V_t.
#pragma once
#include "nn/seq2seq_grad.h"
#include "nn/transformer_grad.h"

#include <vector>

namespace attnviz {

template <typename T>
struct EncoderLayerCache {
    AttentionCache<T> self_attn;
    FeedForwardCache<T> ff;
    LayerNormCache<T> norm1, norm2;
    TMat<T> drop1, drop2;  // (S, d) dropout after the self-attention and the feed-forward block, or empty
};

template <typename T>
struct DecoderLayerCache {
    AttentionCache<T> self_attn, cross_attn;
    FeedForwardCache<T> ff;
    LayerNormCache<T> norm1, norm2, norm3;
    TMat<T> drop1, drop2, drop3;  // (N, d) after the self-attention, the cross-attention, the feed-forward block
};

// What the forward keeps for the backward (reused from batch to batch).
template <typename T>
struct TransformerLossCache {
    RowSegments src_rows, tgt_rows;  // example b's S_b source and N_b decoder rows
    std::vector<int> src_ids;        // (S) the sources packed
    std::vector<int> tgt_inputs;     // (N) [<sos>, y_1, …] of each example: what the decoder reads
    std::vector<int> tgt_next;       // (N) the token each decoder row must predict
    // Attribution (TrainExample::objective_row): per decoder row, whether it is in the objective and its contrast
    // token (−1 none); per source row, the example's source_scale.
    std::vector<uint8_t> in_objective;
    std::vector<int> contrast;
    std::vector<T> src_scale;
    // [b] the examples' interventions (TrainExample::interventions: knockout, heads off); empty when none has any
    std::vector<Interventions> interventions;
    TMat<T> source_grad;  // (S, d) after a backward: ∂objective/∂E[id] of each source row (before ·√d and PE)
    TMat<T> src_drop, tgt_drop;  // (S, d), (N, d) dropout after E·√d + PE, or empty
    std::vector<EncoderLayerCache<T>> encoder;
    LayerNormCache<T> encoder_norm;
    TMat<T> memory;  // (S, d)
    std::vector<DecoderLayerCache<T>> decoder;
    LayerNormCache<T> decoder_norm;
    TMat<T> decoder_out;  // (N, d) decoder.norm of the last layer's output
    // Attribution, every example with an objective_row: the decoder rows of the objective (one per example, in
    // order); the generator then runs on those rows alone (out_features (B, d)). Otherwise empty: every row.
    std::vector<Eigen::Index> out_rows;
    TMat<T> out_features;
    std::vector<TMat<T>> guide_grad;  // [b · nhead + h] (N_b, S_b) guided alignment's ∂/∂A_h, last layer; or empty
    // (N, V_t) decoder row r: the distribution of tgt_next[r] given the prefix before it; with out_rows (B, V_t),
    // row k that of decoder row out_rows[k]
    TMat<T> log_probs;
};

// Σ over the B examples of Σ −log p(target[i + 1]), i = 0 .. N_b − 1, and Σ N_b (an example with an objective_row:
// that row's −(log p(y) − log p(contrast)) alone; seq2seq_grad.h). With g not null, ADDS grad_scale ×
// the gradient of that sum into g (shaped like p). drop null or inactive: no dropout; else it holds a generator per
// example (example b's masks come from rngs[b] alone). Throws InputError naming the example's line for an id outside
// a vocabulary, a sequence shorter than 2, a sequence longer than a stored positional table, or (guided) an
// alignment link outside its sentence pair.
// Guided alignment (nn/transformer_guidance.h): with align_weight λ > 0 the objective becomes Σ −log p + λ Σ_k
// CE(G_k, Ā_k) over the rows with gold links; .align_sum reports Σ CE and the gradient (× grad_scale) is that of
// the whole objective. label_smoothing ε > 0 smooths the NLL's targets over the outputs not forbidden
// (nn/label_smoothing.h): the gradient is that of (1 − ε)·sum + ε·smooth_sum (+ λ·align_sum); .sum stays the pure NLL.
template <typename T>
LossSum transformerLossAndGrad(const TransformerConfig& c, const TransformerParamsT<T>& p,
                               const TrainExample* const* batch, int B, DropoutSource* drop, T grad_scale,
                               TransformerParamsT<T>* g, TransformerLossCache<T>& cache, T align_weight = T(0),
                               T label_smoothing = T(0));

// The same loss (no dropout, scale 1) and the same backward without the parameters' gradients: only as far as
// cache.source_grad. For attribution (core/explain), which needs the inputs' gradients alone.
template <typename T>
LossSum transformerLossAndSourceGrad(const TransformerConfig& c, const TransformerParamsT<T>& p,
                                     const TrainExample* const* batch, int B, TransformerLossCache<T>& cache);

// One example: the batch of one.
template <typename T>
LossSum transformerLossAndGrad(const TransformerConfig& c, const TransformerParamsT<T>& p, const TrainExample& ex,
                               DropoutSource* drop, T grad_scale, TransformerParamsT<T>* g,
                               TransformerLossCache<T>& cache, T align_weight = T(0), T label_smoothing = T(0)) {
    const TrainExample* one = &ex;
    return transformerLossAndGrad<T>(c, p, &one, 1, drop, grad_scale, g, cache, align_weight, label_smoothing);
}

}  // namespace attnviz
