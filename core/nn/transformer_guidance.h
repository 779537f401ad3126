// Guided alignment for the Transformer (Chen et al. 2016, as the RNN models' in nn/seq2seq_grad.h): the attention
// that is supervised is the one the window shows, docs/transformer.md's `attention`: the last decoder layer's
// cross-attention averaged over heads, Ā = (1/H) Σ_h A_h (the weights before dropout). For each decoder row k with
// gold links, G_k is uniform over its gold source positions and the term is CE(G_k, Ā_k) = −Σ_j G_kj log Ā_kj (Ā
// floored at the smallest normal number, so an underflow stays finite). Its gradient reaches each head's weights
// as ∂/∂A_h,kj = −(1/H) G_kj / Ā_kj; the head's softmax backward (attentionBackward) takes it from there.
#pragma once
#include "nn/seq2seq_grad.h"
#include "nn/transformer_grad.h"

#include <vector>

namespace attnviz {

// Σ over the batch's guided rows of CE(G_k, Ā_k), from the last layer's cross-attention cache. With da not null,
// (*da)[b · nhead + h] is set to weight × ∂(that sum)/∂A_h of example b, (N_b, S_b) (zeros on rows without links).
// Throws InputError naming the example's line for a link outside its sentence pair.
template <typename T>
double guidedAlignmentLoss(const AttentionCache<T>& cross, int nhead, const TrainExample* const* batch, int B, T weight,
                           std::vector<TMat<T>>* da);

}  // namespace attnviz
