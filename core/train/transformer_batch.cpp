#include "train/transformer_batch.h"

#include "kernels/thread_pool.h"
#include "model/transformer_params_ops.h"
#include "train/parallel_tensors.h"

#include <algorithm>

namespace attnviz {

TransformerBatchGradient::TransformerBatchGradient(const ModelConfig& config, const TransformerParams& like,
                                                   int threads)
    : config_(config.transformer), threads_(std::max(1, threads)), caches_(size_t(threads_)), grads_(size_t(threads_)) {
    for (int i = 1; i < threads_; ++i) zerosLike(grads_[size_t(i)], like);
}

LossSum TransformerBatchGradient::run(const TransformerParams& p, const std::vector<const TrainExample*>& batch,
                                      float dropout, uint64_t seed, TransformerParams* grads, float align_weight,
                                      float label_smoothing) {
    const int B = int(batch.size());
    int64_t tokens = 0;
    for (const TrainExample* e : batch) tokens += int64_t(e->target.size()) - 1;
    const float scale = tokens > 0 ? 1.0f / float(tokens) : 0.0f;
    const int parts = std::min(threads_, std::max(1, B));
    std::vector<LossSum> sums(static_cast<size_t>(parts));
    auto work = [&](int i) {
        TransformerParams* g = !grads ? nullptr : i == 0 ? grads : &grads_[size_t(i)];
        if (g) setZero(*g);
        const int first = B * i / parts, end = B * (i + 1) / parts;
        if (end == first) return;
        DropoutSource drop{dropout, {}};
        if (drop.active())
            for (int b = first; b < end; ++b)
                drop.rngs.emplace_back(seed * 0x9E3779B97F4A7C15ull + uint64_t(b));  // example b's, wherever it runs
        sums[size_t(i)] = transformerLossAndGrad<float>(config_, p, batch.data() + first, end - first, &drop, scale, g,
                                                        caches_[size_t(i)], align_weight, label_smoothing);
    };
    ThreadPool::engine().run(parts, work);  // rethrows the first part's exception, if any
    if (grads) addParts(*grads, grads_, parts, threads_);
    LossSum total;
    for (int i = 0; i < parts; ++i) total.add(sums[size_t(i)]);
    return total;
}

LossSum TransformerBatchGradient::compute(const TransformerParams& p, const std::vector<const TrainExample*>& batch,
                                          float dropout, uint64_t seed, TransformerParams& grads, float align_weight,
                                          float label_smoothing) {
    return run(p, batch, dropout, seed, &grads, align_weight, label_smoothing);
}

LossSum TransformerBatchGradient::loss(const TransformerParams& p, const std::vector<const TrainExample*>& batch) {
    return run(p, batch, 0.0f, 0, nullptr, 0.0f, 0.0f);
}

}  // namespace attnviz
