// BatchGradient: the batch split into contiguous parts, one per thread, each with its own workspace and gradient
// buffer; the parts' gradients are summed in thread order, so the result does not depend on timing.
#include "train/seq2seq_loss.h"

#include "kernels/thread_pool.h"
#include "train/parallel_tensors.h"

#include <algorithm>

namespace attnviz {

// ---- BatchGradient

BatchGradient::BatchGradient(const ModelConfig& config, const ModelParams& like, int threads)
    : config_(config), threads_(std::max(1, threads)), ws_(size_t(threads_)), grads_(size_t(threads_)) {
    for (int i = 1; i < threads_; ++i) zerosLike(grads_[size_t(i)], like);
}

LossSum BatchGradient::compute(const ModelParams& p, const std::vector<const TrainExample*>& batch, float dropout,
                               uint64_t seed, ModelParams& grads, float align_weight, float label_smoothing) {
    const int B = int(batch.size());
    int64_t tokens = 0;
    for (const TrainExample* e : batch) tokens += int64_t(e->target.size()) - 1;
    const float scale = tokens > 0 ? 1.0f / float(tokens) : 0.0f;
    const int parts = std::min(threads_, std::max(1, B));
    std::vector<LossSum> sums(static_cast<size_t>(parts));
    auto run = [&](int i) {
        const int b0 = B * i / parts, b1 = B * (i + 1) / parts;
        ModelParams& g = i == 0 ? grads : grads_[size_t(i)];
        setZero(g);
        sums[size_t(i)] =
            seq2seqLossAndGrad<float>(config_, p, batch.data() + b0, b1 - b0, DropoutSpec{dropout, seed, b0}, scale, &g,
                                      ws_[size_t(i)], align_weight, label_smoothing);
    };
    ThreadPool::engine().run(parts, run);  // rethrows the first part's exception, if any
    addParts(grads, grads_, parts, threads_);
    LossSum total;
    for (int i = 0; i < parts; ++i) total.add(sums[size_t(i)]);
    return total;
}

LossSum BatchGradient::loss(const ModelParams& p, const std::vector<const TrainExample*>& batch) {
    const int B = int(batch.size());
    const int parts = std::min(threads_, std::max(1, B));
    std::vector<LossSum> sums(static_cast<size_t>(parts));
    auto run = [&](int i) {
        const int b0 = B * i / parts, b1 = B * (i + 1) / parts;
        sums[size_t(i)] = seq2seqLossAndGrad<float>(config_, p, batch.data() + b0, b1 - b0, DropoutSpec{}, 0.0f,
                                                    nullptr, ws_[size_t(i)]);
    };
    ThreadPool::engine().run(parts, run);
    LossSum total;
    for (const LossSum& s : sums) {
        total.sum += s.sum;
        total.tokens += s.tokens;
    }
    return total;
}

}  // namespace attnviz
