// The passes of the RNN models' loss and gradient (nn/seq2seq_grad.cpp) that attribution's shared forward
// (nn/seq2seq_source_grad.cpp) runs too: the forward as far as the output layer's features, the output layer with its
// loss (nn/seq2seq_output.cpp), and the backward from its dlogits. Internal to nn/: the API is nn/seq2seq_grad.h.
// Legend: B examples, S the longest source, N decoder steps; buffers time-major (rows t*B + b), as in seq2seq_grad.h.
#pragma once
#include "nn/seq2seq_grad.h"

#include <vector>

namespace attnviz::seq2seq_passes {

// The padded sizes of a batch: S the longest source, N the most decoder steps (the longest target − 1).
void batchSizes(const TrainExample* const* batch, int B, int& S, int& N);
// targets (N*B): the token step t of example b must produce, −1 past the example's end.
void fillTargets(const TrainExample* const* batch, int B, int N, int V, std::vector<int>& targets);

// The forward of B examples as far as the output layer's features (w.feat or w.htil); with `backward`, the buffers
// the backward needs. Guided alignment (align_weight > 0): .align_sum.
template <typename T>
LossSum forwardSteps(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B, int S,
                     int N, const DropoutSpec& dropout, bool backward, Seq2SeqWorkspace<T>& w, T align_weight,
                     T grad_scale);

// logits = F fc_outᵀ + b (F: (N*B, ·) the steps' features) and Σ −log p into `out`; with `backward` w.logits becomes
// dlogits. Examples with an objective_row each count that row alone (attribution). label_smoothing ε > 0: .smooth_sum
// too, and dlogits of the smoothed objective (nn/label_smoothing.h).
template <typename T>
void outputForward(const ModelParamsT<T>& p, const MatT<T>& F, const TrainExample* const* batch, int B, T grad_scale,
                   bool backward, Seq2SeqWorkspace<T>& w, LossSum& out, T label_smoothing = T(0));
// dlogits (in w.logits) → fc_out's gradients (when G is not null) and w.dfeat = ∂/∂F (zero on rows outside w.out_rows
// when gathered).
template <typename T>
void outputBackward(const ModelParamsT<T>& p, const MatT<T>& F, Seq2SeqWorkspace<T>& w, ModelParamsT<T>* G);

// The backward from the output layer's dlogits (w.logits) of B examples: into *G when G is not null, else only as far
// as w.dxe. w.active[t]: the rows of step t that have a gradient.
template <typename T>
void backwardSteps(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B, int S,
                   int N, bool drop, ModelParamsT<T>* G, Seq2SeqWorkspace<T>& w);

}  // namespace attnviz::seq2seq_passes
