// The RNN models' output layer and its loss (nn/seq2seq_passes.h): the logits of every decoder step in one GEMM, the
// NLL (label-smoothed, or an attribution row's contrast), and the backward from dlogits to fc_out and the features.
#include "nn/label_smoothing.h"
#include "nn/seq2seq_passes.h"
#include "nn/softmax.h"

#include <vector>

namespace attnviz::seq2seq_passes {
namespace {

using Index = Eigen::Index;

// ---- output layer and loss: logits = F fc_outᵀ + b for every step in one GEMM (F: (N*B, ·) the steps' features),
// Σ −log softmax(logits)[y] over the real positions. With `backward` the logits become
// dlogits = (softmax − onehot) · grad_scale (zero past an example's end). An example with an objective_row counts
// that row alone, as −(log p(y) − log p(contrast)) with a contrast: dlogits = (onehot(contrast) − onehot(y)) · scale.
// When every example has one (attribution: a batch of copies, one row each), only those rows go through the output
// layer: w.out_rows lists them, and w.logits holds their rows in that order.

// The rows t*B + b with t = batch[b]->objective_row, or none unless every example has an objective_row.
std::vector<Index> singleObjectiveRows(const TrainExample* const* batch, int B, int N) {
    std::vector<Index> rows;
    for (int b = 0; b < B; ++b) {
        const int t = batch[b]->objective_row;
        if (t < 0 || t >= N) return {};
        rows.push_back(Index(t) * B + b);
    }
    return rows;
}

}  // namespace

template <typename T>
void outputForward(const ModelParamsT<T>& p, const MatT<T>& F, const TrainExample* const* batch, int B, T grad_scale,
                   bool backward, Seq2SeqWorkspace<T>& w, LossSum& out, T label_smoothing) {
    static const std::vector<int> kNoneForbidden;  // an RNN model can produce every output
    const Index NB = F.rows();
    w.out_rows = singleObjectiveRows(batch, B, int(NB / B));
    const bool gathered = !w.out_rows.empty();
    if (gathered) {
        w.out_features.resize(Index(w.out_rows.size()), F.cols());
        for (size_t k = 0; k < w.out_rows.size(); ++k) w.out_features.row(Index(k)) = F.row(w.out_rows[k]);
    }
    const MatT<T>& X = gathered ? w.out_features : F;
    w.logits.resize(X.rows(), p.fc_out_w.rows());
    w.logits.noalias() = X * p.fc_out_w.transpose();  // (N*B or the objective rows, V)
    w.logits.rowwise() += p.fc_out_b.transpose();
    for (Index k = 0; k < X.rows(); ++k) {
        auto row = w.logits.row(k);
        const Index i = gathered ? w.out_rows[size_t(k)] : k;
        const TrainExample& ex = *batch[i % B];
        const int y = w.targets[size_t(i)];
        if (y < 0 || (ex.objective_row >= 0 && i / B != ex.objective_row)) {
            if (backward) row.setZero();
            continue;
        }
        if (ex.objective_row >= 0 && ex.contrast >= 0) {
            out.sum += double(row[ex.contrast] - row[y]);
            ++out.tokens;
            if (backward) {
                row.setZero();
                row[ex.contrast] += grad_scale;
                row[y] -= grad_scale;
            }
            continue;
        }
        const T lse = logSumExp(row);
        out.sum += double(lse - row[y]);
        ++out.tokens;
        if (label_smoothing > T(0)) out.smooth_sum += uniformCrossEntropy((row.array() - lse).matrix(), kNoneForbidden);
        if (backward) {
            row = ((row.array() - lse).exp() * grad_scale).matrix();
            subtractSmoothedTarget(row, y, double(label_smoothing), double(grad_scale), kNoneForbidden);
        }
    }
}

// dlogits (in w.logits) → fc_out's gradients (when G is not null) and w.dfeat = ∂/∂F (zero on rows outside w.out_rows when gathered).
template <typename T>
void outputBackward(const ModelParamsT<T>& p, const MatT<T>& F, Seq2SeqWorkspace<T>& w, ModelParamsT<T>* G) {
    const bool gathered = !w.out_rows.empty();
    const MatT<T>& X = gathered ? w.out_features : F;
    if (G) {
        G->fc_out_w.noalias() += w.logits.transpose() * X;  // (V, F)
        G->fc_out_b += w.logits.colwise().sum().transpose();
    }
    if (!gathered) {
        w.dfeat.resize(F.rows(), F.cols());
        w.dfeat.noalias() = w.logits * p.fc_out_w;  // (N*B, F)
        return;
    }
    w.dfeat.setZero(F.rows(), F.cols());
    const MatT<T> d = w.logits * p.fc_out_w;  // (objective rows, F)
    for (size_t k = 0; k < w.out_rows.size(); ++k) w.dfeat.row(w.out_rows[k]) = d.row(Index(k));
}

#define ATTNVIZ_SEQ2SEQ_OUTPUT(T)                                                                                    \
    template void outputForward<T>(const ModelParamsT<T>&, const MatT<T>&, const TrainExample* const*, int, T, bool, \
                                   Seq2SeqWorkspace<T>&, LossSum&, T);                                               \
    template void outputBackward<T>(const ModelParamsT<T>&, const MatT<T>&, Seq2SeqWorkspace<T>&, ModelParamsT<T>*);
ATTNVIZ_SEQ2SEQ_OUTPUT(float)
ATTNVIZ_SEQ2SEQ_OUTPUT(double)
#undef ATTNVIZ_SEQ2SEQ_OUTPUT

}  // namespace attnviz::seq2seq_passes
