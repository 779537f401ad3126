// What every attribution method reads from the model (docs/explain.md): the objective f_t of docs/explain.md along
// a fixed target, for a batch of variants of one sentence (occluded sources, scaled embeddings), and its gradient
// with respect to the source embeddings. Both come from the training code's own forward and backward passes
// (nn/seq2seq_grad.h, nn/transformer_loss.h) with TrainExample's attribution fields: one model, no second
// implementation.
// Legend: S source length with <sos>/<eos>, T target rows (<eos> included), E the source embedding width
// (emb_dim for the RNN kinds, d_model for a Transformer).
#pragma once
#include "base/tensor.h"
#include "model/interventions.h"
#include "model/model.h"

#include <cstddef>
#include <functional>
#include <optional>
#include <vector>

namespace attnviz {

// "Why y_t and not c?": at `row` the objective is log p(y_row) − log p(token).
struct Contrast {
    int row = 0;
    int token = 0;
    friend bool operator==(const Contrast&, const Contrast&) = default;
};

// One forced pass: the source ids (with <sos>/<eos>), the target ids y_0 … y_{T−1} (<eos> included), and the scale
// of the source embeddings (integrated gradients' α; 1 = the model).
struct ForcedInput {
    std::vector<int> source;
    std::vector<int> target;
    double source_scale = 1.0;
    Interventions interventions;  // the decode's (docs/explain.md): every pass runs the intervened model
};

// How the passes run: sourceGradients' on how many of the engine's threads (0: one per core; the numbers do not
// depend on it), and `on_pass` called after each pass of either function, on the thread that ran it (progress).
struct PassOptions {
    int threads = 0;
    std::function<void()> on_pass;
};
// The passes forcedObjectives runs for `inputs` inputs, and sourceGradients for `inputs` inputs and `rows` rows: what
// progress counts to, and explain/explain_cost multiplies.
size_t objectivePasses(size_t inputs);
size_t sourceGradientPasses(size_t inputs, size_t rows);
// The largest pass of sourceGradients: its distinct inputs and its copies (an input's row each), what its buffers
// hold.
struct PassShape {
    size_t inputs = 0, copies = 0;
};
PassShape largestPass(size_t inputs, size_t rows);

// f_t for every row t of each input: log p(y_t | y_<t, x), or log p(y_t) − log p(c) at the contrast's row.
// [input] (T values). Forward passes only, batched.
std::vector<std::vector<double>> forcedObjectives(const Model& model, const std::vector<ForcedInput>& inputs,
                                                  const std::optional<Contrast>& contrast, const PassOptions& run = {});

// ∂f_t/∂e_j for each requested row t of each input: [i][k] (S, E) for inputs[i], rows[k]. e_j is the source
// embedding of position j before any scaling (for a Transformer before ·√d and the positional encoding); the
// gradient is taken at the input's scaled embeddings. Each row's gradient is the backward of one copy of its input
// with that row as the objective, through the training code's passes.
std::vector<std::vector<Mat>> sourceGradients(const Model& model, const std::vector<ForcedInput>& inputs,
                                              const std::vector<int>& rows, const std::optional<Contrast>& contrast,
                                              const PassOptions& run = {});

// (S, ·) what the decoder attends over: an RNN encoder's outputs h_j = [f_j ; b_j] (S, 2H_e), or a Transformer's
// memory (S, d), with the encoder's heads in `iv` off.
Mat encoderOutputs(const Model& model, const std::vector<int>& source, const Interventions& iv = {});

// (S, E) the source embeddings e_j of the input's ids, unscaled.
Mat sourceEmbeddings(const Model& model, const std::vector<int>& source);

}  // namespace attnviz
