// Gradient × input, the gradient's norm and integrated gradients (docs/explain.md): every row's gradient with
// respect to the source embeddings from one batched backward pass of the training code (explain/forced_objective).
#include "explain/method_impl.h"

#include <algorithm>

namespace attnviz {

ForcedInput forcedInputOf(const DecodeResult& decode, const Interventions& iv) {
    return ForcedInput{decode.source_ids, decode.target_ids, 1.0, iv};
}

std::vector<int> allRows(const ForcedInput& input) {
    std::vector<int> rows(input.target.size());
    for (size_t t = 0; t < rows.size(); ++t) rows[t] = int(t);
    return rows;
}

namespace {

// R[t][j] = ⟨e_j, G_t[j]⟩ for gradients G_t (S, E).
Mat dotWithEmbeddings(const Mat& embeddings, const std::vector<Mat>& grads) {
    Mat r(Eigen::Index(grads.size()), embeddings.rows());
    for (size_t t = 0; t < grads.size(); ++t)
        r.row(Eigen::Index(t)) = (grads[t].array() * embeddings.array()).rowwise().sum().transpose();
    return r;
}

}  // namespace

Mat gradientTimesInput(const Model& model, const ForcedInput& input, const std::optional<Contrast>& contrast,
                       const PassOptions& run) {
    return dotWithEmbeddings(sourceEmbeddings(model, input.source),
                             sourceGradients(model, {input}, allRows(input), contrast, run)[0]);
}

Mat gradientNorm(const Model& model, const ForcedInput& input, const std::optional<Contrast>& contrast,
                 const PassOptions& run) {
    const std::vector<Mat> grads = sourceGradients(model, {input}, allRows(input), contrast, run)[0];
    Mat r(Eigen::Index(grads.size()), Eigen::Index(input.source.size()));
    for (size_t t = 0; t < grads.size(); ++t) r.row(Eigen::Index(t)) = grads[t].rowwise().norm().transpose();
    return r;
}

Mat integratedGradients(const Model& model, const ForcedInput& input, int steps,
                        const std::optional<Contrast>& contrast, std::vector<double>& delta, const PassOptions& run) {
    const std::vector<int> rows = allRows(input);
    std::vector<Mat> mean;  // [t] (S, E): (1/m) Σ_i ∂f_t/∂e at α_i e, summed in the steps' order
    for (int first = 1; first <= steps; first += kIgStepsAtOnce) {
        std::vector<ForcedInput> path;  // the inputs at α_i e of this chunk
        for (int i = first; i <= std::min(steps, first + kIgStepsAtOnce - 1); ++i) {
            path.push_back(input);
            path.back().source_scale = (double(i) - 0.5) / double(steps);
        }
        for (std::vector<Mat>& g : sourceGradients(model, path, rows, contrast, run)) {  // [t] (S, E) of a step
            if (mean.empty())
                mean = std::move(g);
            else
                for (size_t t = 0; t < rows.size(); ++t) mean[t] += g[t];
        }
    }
    for (Mat& g : mean) g /= float(steps);
    // completeness: Σ_j R[t][j] ≈ f_t(e) − f_t(0)
    ForcedInput baseline = input;
    baseline.source_scale = 0.0;
    const std::vector<std::vector<double>> f = forcedObjectives(model, {input, baseline}, contrast, run);
    delta.resize(rows.size());
    for (size_t t = 0; t < rows.size(); ++t) delta[t] = f[0][t] - f[1][t];
    return dotWithEmbeddings(sourceEmbeddings(model, input.source), mean);
}

}  // namespace attnviz
