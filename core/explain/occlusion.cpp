// Occlusion (docs/explain.md): how much f_t falls when source position j is replaced by <unk>, for every j,
// specials included; the S + 1 forced passes run as batches.
#include "explain/method_impl.h"

namespace attnviz {

Mat occlusion(const Model& model, const ForcedInput& original, const std::optional<Contrast>& contrast,
              const PassOptions& run) {
    std::vector<ForcedInput> inputs{original};
    for (size_t j = 0; j < original.source.size(); ++j) {
        inputs.push_back(original);
        inputs.back().source[j] = model.source_vocab.specials().unk;
    }
    const std::vector<std::vector<double>> f = forcedObjectives(model, inputs, contrast, run);
    const Eigen::Index T = Eigen::Index(original.target.size()), S = Eigen::Index(original.source.size());
    Mat r(T, S);
    for (Eigen::Index t = 0; t < T; ++t)
        for (Eigen::Index j = 0; j < S; ++j) r(t, j) = float(f[0][size_t(t)] - f[size_t(j) + 1][size_t(t)]);
    return r;
}

}  // namespace attnviz
