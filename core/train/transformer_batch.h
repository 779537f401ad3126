// The float gradient of a batch's mean loss for a Transformer: the batch split across threads, each part packed
// (nn/transformer_loss.h: one matrix product per block over the part's rows, no padding), the parts' gradients
// summed in thread order. The counterpart of
// train/seq2seq_loss.h's BatchGradient with the same interface, so the training loop serves either kind.
#pragma once
#include "kernels/heap_retention.h"
#include "model/config.h"
#include "nn/transformer_loss.h"

#include <cstdint>
#include <vector>

namespace attnviz {

class TransformerBatchGradient {
public:
    TransformerBatchGradient(const ModelConfig& config, const TransformerParams& like, int threads);
    // Loss = Σ −log p / tokens over the batch; grads (shaped like the params) is overwritten with its gradient.
    // Example b of the batch draws its dropout masks from a generator seeded by (seed, b) alone, so the split across
    // threads changes no mask. align_weight > 0: guided alignment (nn/transformer_guidance.h), the loss then
    // (Σ −log p + align_weight · Σ CE_align) / tokens; .sum stays the pure NLL, .align_sum is Σ CE_align.
    // label_smoothing ε > 0: Σ −log p becomes (1 − ε)·Σ −log p + ε·Σ smooth (nn/label_smoothing.h), .smooth_sum.
    LossSum compute(const TransformerParams& p, const std::vector<const TrainExample*>& batch, float dropout,
                    uint64_t seed, TransformerParams& grads, float align_weight = 0.0f, float label_smoothing = 0.0f);
    // Forward only (no dropout); the Σ and the count.
    LossSum loss(const TransformerParams& p, const std::vector<const TrainExample*>& batch);
    int threads() const { return threads_; }

private:
    LossSum run(const TransformerParams& p, const std::vector<const TrainExample*>& batch, float dropout, uint64_t seed,
                TransformerParams* grads, float align_weight, float label_smoothing);

    HeapRetention heap_;  // the packed batch's large temporaries stay mapped from batch to batch
    TransformerConfig config_;
    int threads_;
    std::vector<TransformerLossCache<float>> caches_;
    std::vector<TransformerParams> grads_;  // threads 1.. (thread 0 writes into the caller's buffer)
};

}  // namespace attnviz
