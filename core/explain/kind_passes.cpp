// KindPasses for the RNN kinds and for the Transformer.
#include "explain/kind_passes.h"

#include "nn/seq2seq_grad.h"
#include "nn/softmax.h"
#include "nn/transformer_loss.h"

namespace attnviz {
namespace {

// The batch as the loss functions take it.
std::vector<const TrainExample*> pointersTo(const std::vector<TrainExample>& batch) {
    std::vector<const TrainExample*> ptrs;
    for (const TrainExample& ex : batch) ptrs.push_back(&ex);
    return ptrs;
}

// f from a row of log-probabilities (or logits: only differences and the log-sum-exp are read).
template <class Row>
double objectiveOf(const Row& logits, int y, int t, const std::optional<Contrast>& contrast) {
    if (contrast && contrast->row == t) return double(logits[y]) - double(logits[contrast->token]);
    return double(logits[y]) - double(logSumExp(logits));
}

// Appends f_t for the T rows of each example of the batch; rowOf(b, t) is example b's row t of log-probabilities (or
// logits).
template <class RowOf>
void appendObjectives(const std::vector<TrainExample>& batch, const std::optional<Contrast>& contrast, RowOf rowOf,
                      std::vector<std::vector<double>>& out) {
    for (size_t b = 0; b < batch.size(); ++b) {
        const std::vector<int>& y = batch[b].target;  // [<sos>, y_0, …]
        std::vector<double> f(y.size() - 1);
        for (size_t t = 0; t < f.size(); ++t)
            f[t] = objectiveOf(rowOf(int(b), Eigen::Index(t)), y[t + 1], int(t), contrast);
        out.push_back(std::move(f));
    }
}

class RnnPasses final : public KindPasses {
public:
    explicit RnnPasses(const Model& model) : model_(model) {}

    void objectives(const std::vector<TrainExample>& batch, const std::optional<Contrast>& contrast,
                    std::vector<std::vector<double>>& out) override {
        const std::vector<const TrainExample*> ptrs = pointersTo(batch);
        const int B = int(ptrs.size());
        seq2seqLossAndGrad<float>(model_.config, model_.params, ptrs.data(), B, DropoutSpec{}, 1.0f, nullptr, ws_[0]);
        const auto& logits = ws_[0].logits;  // (T·B, V) time-major
        appendObjectives(
            batch, contrast, [&](int b, Eigen::Index t) { return logits.row(t * B + b); }, out);
    }

    std::vector<Mat> sourceGradients(const std::vector<TrainExample>& batch) override {
        const std::vector<const TrainExample*> ptrs = pointersTo(batch);
        const int B = int(ptrs.size());
        seq2seqLossAndSourceGrad<float>(model_.config, model_.params, ptrs.data(), B, ws_[0], ws_[1]);
        std::vector<Mat> grads;
        for (int b = 0; b < B; ++b) {
            const int S = int(batch[size_t(b)].source.size());
            Mat g(S, ws_[0].dxe.cols());
            for (int j = 0; j < S; ++j) g.row(j) = -ws_[0].dxe.row(Eigen::Index(j) * B + b);  // (S*B, E) time-major
            grads.push_back(std::move(g));
        }
        return grads;
    }

    Mat encoderOutputs(const TrainExample& example) override {
        const TrainExample* one = &example;
        seq2seqLossAndGrad<float>(model_.config, model_.params, &one, 1, DropoutSpec{}, 1.0f, nullptr, ws_[0]);
        return ws_[0].enc.H.topRows(Eigen::Index(example.source.size()));  // (B·S, 2H_e), example b's rows from b·S
    }

    const Mat& sourceEmbeddingTable() const override { return model_.params.enc_embedding; }

private:
    const Model& model_;
    Seq2SeqWorkspace<float> ws_[2];  // the copies', the inputs' forward; their buffers keep their memory
};

class TransformerPasses final : public KindPasses {
public:
    explicit TransformerPasses(const Model& model) : model_(model) {}

    void objectives(const std::vector<TrainExample>& batch, const std::optional<Contrast>& contrast,
                    std::vector<std::vector<double>>& out) override {
        const std::vector<const TrainExample*> ptrs = pointersTo(batch);
        transformerLossAndGrad<float>(model_.config.transformer, model_.transformer, ptrs.data(), int(ptrs.size()),
                                      nullptr, 1.0f, nullptr, cache_);
        appendObjectives(
            batch, contrast, [&](int b, Eigen::Index t) { return cache_.log_probs.row(cache_.tgt_rows.begin(b) + t); },
            out);
    }

    std::vector<Mat> sourceGradients(const std::vector<TrainExample>& batch) override {
        const std::vector<const TrainExample*> ptrs = pointersTo(batch);
        transformerLossAndSourceGrad<float>(model_.config.transformer, model_.transformer, ptrs.data(),
                                            int(ptrs.size()), cache_);
        std::vector<Mat> grads;
        for (size_t b = 0; b < batch.size(); ++b)
            grads.push_back(
                -cache_.source_grad.middleRows(cache_.src_rows.begin(int(b)), cache_.src_rows.rows(int(b))));
        return grads;
    }

    Mat encoderOutputs(const TrainExample& example) override {
        const TrainExample* one = &example;
        transformerLossAndGrad<float>(model_.config.transformer, model_.transformer, &one, 1, nullptr, 1.0f, nullptr,
                                      cache_);
        return cache_.memory;
    }

    const Mat& sourceEmbeddingTable() const override {
        return sourceTable(model_.transformer, model_.config.transformer);
    }

private:
    const Model& model_;
    TransformerLossCache<float> cache_;
};

}  // namespace

std::unique_ptr<KindPasses> passesFor(const Model& model) {
    if (model.config.isTransformer()) return std::make_unique<TransformerPasses>(model);
    return std::make_unique<RnnPasses>(model);
}

}  // namespace attnviz
