// The methods that run the model again (explain/explanation.h dispatches to them). Each returns (T, S).
#pragma once
#include "decode/decoding.h"
#include "explain/forced_objective.h"

#include <optional>
#include <vector>

namespace attnviz {

// The forced pass of a decode made with `iv`: its source and target ids, embeddings unscaled.
ForcedInput forcedInputOf(const DecodeResult& decode, const Interventions& iv);
// Every row index 0 .. T − 1 of the input's target.
std::vector<int> allRows(const ForcedInput& input);

// Σ_k e_jk ∂f_t/∂e_jk.
Mat gradientTimesInput(const Model& model, const ForcedInput& input, const std::optional<Contrast>& contrast,
                       const PassOptions& run);
// ‖∂f_t/∂e_j‖₂.
Mat gradientNorm(const Model& model, const ForcedInput& input, const std::optional<Contrast>& contrast,
                 const PassOptions& run);
// The steps of integrated gradients whose gradients are held at once: the path runs in chunks of this many inputs,
// each summed into the mean before the next starts, so that memory holds kIgStepsAtOnce + 1 sets of T gradients
// (S, E), not m + 1. A constant (a pass's inputs, and so the numbers, do not depend on the threads); 16 = a pass's
// copies, so that short decodes' passes are made of the same inputs as in one call.
constexpr int kIgStepsAtOnce = 16;
// Σ_k e_jk (1/m) Σ_i ∂f_t/∂e_jk at α_i e, α_i = (i − ½)/m; delta gets f_t(e) − f_t(0).
Mat integratedGradients(const Model& model, const ForcedInput& input, int steps,
                        const std::optional<Contrast>& contrast, std::vector<double>& delta, const PassOptions& run);
// f_t(x) − f_t(x with id_j replaced by <unk>), for every j.
Mat occlusion(const Model& model, const ForcedInput& input, const std::optional<Contrast>& contrast,
              const PassOptions& run);

}  // namespace attnviz
