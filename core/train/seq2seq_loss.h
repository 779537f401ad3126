// The float gradient of a batch's mean loss for the trainer, the batch split across threads; the maths is
// nn/seq2seq_grad.h's seq2seqLossAndGrad.
#pragma once
#include "nn/seq2seq_grad.h"

#include <cstdint>
#include <vector>

namespace attnviz {

// The float gradient of the mean loss of a batch, the batch split across threads (each with its own workspace and
// gradient buffer, summed after in a fixed order).
class BatchGradient {
public:
    BatchGradient(const ModelConfig& config, const ModelParams& like, int threads);
    // Loss = ((1 − ε)·Σ −log p + ε·Σ smooth + align_weight · Σ CE_align) / tokens, ε the label smoothing; grads
    // (shaped like the params) is overwritten with its gradient. The returned .sum is the pure NLL, .align_sum the
    // alignment cross-entropy, .smooth_sum the smoothing term (see seq2seqLossAndGrad).
    LossSum compute(const ModelParams& p, const std::vector<const TrainExample*>& batch, float dropout, uint64_t seed,
                    ModelParams& grads, float align_weight = 0.0f, float label_smoothing = 0.0f);
    // Forward only (no dropout); the Σ and the count.
    LossSum loss(const ModelParams& p, const std::vector<const TrainExample*>& batch);
    int threads() const { return threads_; }

private:
    ModelConfig config_;
    int threads_;
    std::vector<Seq2SeqWorkspace<float>> ws_;
    std::vector<ModelParams> grads_;  // threads 1.. (thread 0 writes into the caller's buffer)
};

}  // namespace attnviz
