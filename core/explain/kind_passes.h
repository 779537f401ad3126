// The training code's passes for either model kind, as the attribution methods read them: the one place explain/
// asks the model's kind how its loss runs (nn/seq2seq_grad.h for the RNN kinds, nn/transformer_loss.h for the
// Transformer). Internal to explain/ (the API is explain/forced_objective.h).
// Legend: S source length with <sos>/<eos>, T target rows (<eos> included), B examples in a batch, E the source
// embedding width (emb_dim for the RNN kinds, d_model for a Transformer).
#pragma once
#include "base/tensor.h"
#include "explain/forced_objective.h"
#include "model/model.h"
#include "nn/seq2seq_grad.h"

#include <memory>
#include <optional>
#include <vector>

namespace attnviz {

// One model's passes; an object per thread, as it keeps its passes' buffers from call to call.
class KindPasses {
public:
    virtual ~KindPasses() = default;
    // Appends, for each example of the batch (target [<sos>, y_0 … y_{T−1}]), f_t for its T rows: log p(y_t), or
    // log p(y_t) − log p(c) at the contrast's row. One forward pass.
    virtual void objectives(const std::vector<TrainExample>& batch, const std::optional<Contrast>& contrast,
                            std::vector<std::vector<double>>& out) = 0;
    // −∂loss/∂(source embedding rows) of each example, [b] (S_b, E), from one backward of the batch (whose examples
    // set the objective row).
    virtual std::vector<Mat> sourceGradients(const std::vector<TrainExample>& batch) = 0;
    // (S, ·) what the decoder attends over for one example: the RNN encoder's outputs (S, 2H_e) or the Transformer's
    // memory (S, d).
    virtual Mat encoderOutputs(const TrainExample& example) = 0;
    // (V_s, E) the source embedding table.
    virtual const Mat& sourceEmbeddingTable() const = 0;
};

std::unique_ptr<KindPasses> passesFor(const Model& model);

}  // namespace attnviz
