// The Transformer's teacher-forced loss and its gradient for one (source, target) example (docs/model-format.md's
// objective, docs/transformer.md's maths): the encoder over the source, the decoder over the whole target prefix at
// once with the causal mask, the final norms and the generator, keeping what the backward reads; then the backward
// of each layer (nn/transformer_grad.h's blocks). One example at a time, so there is no padding: the trainer sums
// the examples of a batch (train/transformer_batch.h).
// Dropout at PyTorch's sites (nn.Transformer(dropout=P) and the tutorial's dropout after E·√d + PE): after the
// embedding, on the attention weights, after each sublayer before its residual add, and inside the feed-forward
// block after the activation. The stored positional table is a buffer, as in the tutorial: its gradient stays 0.
// Legend: S source length with <sos>/<eos>, T target length with <sos>/<eos>, N = T − 1 decoder positions, d, V_t.
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

// What the forward keeps for the backward (reused from example to example).
template <typename T>
struct TransformerLossCache {
    TMat<T> src_drop, tgt_drop;  // (S, d), (N, d) dropout after E·√d + PE, or empty
    std::vector<EncoderLayerCache<T>> encoder;
    LayerNormCache<T> encoder_norm;
    TMat<T> memory;  // (S, d)
    std::vector<DecoderLayerCache<T>> decoder;
    LayerNormCache<T> decoder_norm;
    TMat<T> decoder_out;  // (N, d) decoder.norm of the last layer's output
    TMat<T> log_probs;    // (N, V_t) row i: the distribution of target[i + 1] given target[0..i]
};

// Σ −log p(target[i + 1]) over i = 0 .. N − 1, and N. With g not null, ADDS grad_scale × the gradient of that sum
// into g (shaped like p). drop null or inactive: no dropout. Throws InputError naming ex.line for an id outside a
// vocabulary, a sequence shorter than 2, or a sequence longer than a stored positional table.
template <typename T>
LossSum transformerLossAndGrad(const TransformerConfig& c, const TransformerParamsT<T>& p, const TrainExample& ex,
                               DropoutSource* drop, T grad_scale, TransformerParamsT<T>* g,
                               TransformerLossCache<T>& cache);

}  // namespace attnviz
