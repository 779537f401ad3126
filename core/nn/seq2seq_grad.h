// The whole model's teacher-forced loss and its gradient for a padded batch (docs/model-format.md "Training
// objective"), templated on the scalar type: the encoder, the decoder (bahdanau or luong) and the output layer, each
// forward beside its backward in seq2seq_grad.cpp. The float, multi-threaded BatchGradient is in train/.
// Legend: B examples, S the longest source (with <sos>/<eos>), T the longest target (with <sos>/<eos>),
// N = T − 1 decoder steps, E, H_e, H_d, V = V_t. Step buffers are time-major: rows t*B .. t*B+B-1.
#pragma once
#include "nn/attention_grad.h"
#include "nn/gru_grad.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace attnviz {

// One example as ids: source [<sos>, ..., <eos>] and target [<sos>, ..., <eos>] (both at least 2 long).
struct TrainExample {
    std::vector<int> source;
    std::vector<int> target;
    int line = 0;  // where it came from (messages)
    // Gold alignment for guided alignment training: (source position j, decoder step k), j counted in `source`
    // (1 = the first word), k the step that produces target[k + 1]. Empty: no guidance for this example.
    std::vector<std::pair<int, int>> align;
    // Attribution (core/explain, docs/explain.md): with objective_row ≥ 0 the objective is −f at that decoder row
    // alone, f = log p(target[objective_row + 1]) − log p(contrast) (no contrast when contrast < 0), instead of the
    // sum over every row; source_scale multiplies the source embeddings (integrated gradients' α). Training leaves
    // the defaults.
    int objective_row = -1;
    int contrast = -1;
    double source_scale = 1.0;
    // Attribution of an intervened decode (docs/explain.md "Interventions"): the forward and backward run with the
    // example's knockouts, attended rows and heads off, as the decoder does (nn/attention, nn/transformer). Training
    // leaves it empty.
    Interventions interventions;
};

// Pharaoh links (source word i, target word j; 0-based, specials not counted) → TrainExample::align entries
// (i + 1, j), sorted, duplicates removed. Throws InputError naming ex.line if a link is past either sentence.
void setAlignment(TrainExample& ex, const std::vector<std::pair<int, int>>& links);

// Inverted dropout on both embeddings: each kept value is scaled by 1/(1 − p). The mask of an example depends only
// on (seed, first_index + its position in the batch), so splitting a batch across threads changes nothing.
struct DropoutSpec {
    float p = 0;
    uint64_t seed = 0;
    int first_index = 0;
};

struct LossSum {
    double sum = 0;      // Σ −log p(token) over the target positions 1..T_b−1 of every example
    int64_t tokens = 0;  // the number of those positions
    // Guided alignment (only computed with align_weight > 0): Σ over guided steps of −Σ_j G_kj log a_kj, not
    // multiplied by the weight. The objective is sum + align_weight · align_sum; `sum` stays the pure NLL.
    double align_sum = 0;
    // Label smoothing ε (nn/label_smoothing.h; only computed with ε > 0): Σ over the same positions of the mean
    // −log p over the outputs not forbidden. The objective is (1 − ε)·sum + ε·smooth_sum (+ align_weight · align_sum).
    double smooth_sum = 0;
    // Adds another part's sums (a batch split across threads).
    void add(const LossSum& o) {
        sum += o.sum;
        tokens += o.tokens;
        align_sum += o.align_sum;
        smooth_sum += o.smooth_sum;
    }
};

template <typename T>
struct Seq2SeqWorkspace {
    // encoder
    MatT<T> xe;                     // (S*B, E) source embeddings (after dropout)
    MatT<T> xe_mask;                // (S*B, E) dropout factors
    std::vector<uint8_t> src_mask;  // (S*B) 1 where t < S_b
    GruSeqCache<T> fwd, bwd;
    MatT<T> fin;  // (B, 2H_e) [f_{S_b−1} ; b_0]
    AttnEncoder<T> enc;
    AttnCache<T> attn;
    // decoder
    MatT<T> xd, xd_mask;                 // (N*B, E) target-input embeddings, dropout factors
    std::vector<int> targets;            // (N*B) the token step t must produce, −1 past the example's end
    MatT<T> gix;                         // (N*B, 3H_d) the embedding part of W_ih x + b_ih
    MatT<T> gi, gh;                      // (B, 3H_d) step scratch
    MatT<T> states;                      // ((N+1)*B, H_d) s_0 .. s_N
    MatT<T> gates, ghn;                  // (N*B, 3H_d), (N*B, H_d)
    MatT<T> ctx;                         // (N*B, 2H_e)
    MatT<T> htil;                        // (N*B, H_d) luong: tanh(combine([c ; s]))
    MatT<T> feat;                        // (N*B, H_d + 2H_e + E) bahdanau: [s ; c ; x]
    MatT<T> logits;                      // (N*B, V); becomes dlogits in the backward (attribution: the out_rows only)
    std::vector<Eigen::Index> out_rows;  // attribution (every example one objective_row): those rows, else empty
    MatT<T> out_features;                // (out_rows, ·) their features
    // backward
    MatT<T> dfeat, dgi, dgh, dpre;  // (N*B, ·)
    MatT<T> ds, ds2, dc, dcarry;    // (B, ·)
    MatT<T> dxd, dxe, dxe2, dHf, dHr, dfin;
    std::vector<int> active;  // (N) the rows of step t the backward computes (B in training; attribution: fewer)
};

// Σ −log p over the batch (not divided). With g not null, ADDS grad_scale × the gradient of that sum into g
// (g must have p's shapes). Throws InputError on an id outside the vocabularies.
// Guided alignment (Chen et al. 2016): with align_weight λ > 0 and a global span, the objective becomes
// Σ −log p + λ Σ_k CE(G_k, a_k), G_k uniform over the gold source positions of step k (examples' `align`; steps
// without links add nothing); .align_sum reports Σ CE and the gradient (× grad_scale) is that of the whole
// objective. Local spans (local_m, local_p) ignore λ: their windows need not contain the gold positions.
// label_smoothing ε > 0 smooths the NLL's targets (nn/label_smoothing.h): the gradient is that of
// (1 − ε)·sum + ε·smooth_sum (+ λ·align_sum); .sum stays the pure NLL.
template <typename T>
LossSum seq2seqLossAndGrad(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch, int B,
                           const DropoutSpec& dropout, T grad_scale, ModelParamsT<T>* g, Seq2SeqWorkspace<T>& ws,
                           T align_weight = T(0), T label_smoothing = T(0));

// The same loss (no dropout, scale 1) and the same backward, without the parameters' gradients: only as far as
// ws.dxe (S*B, E), ∂(loss)/∂(the source embeddings as the encoder read them), time-major. For attribution
// (core/explain), which needs the inputs' gradients alone, of a batch of copies of few inputs: examples with the
// same source and scale whose targets are prefixes of one another share one forward pass. Order the copies by
// objective_row, latest first: step t's backward then runs on the copies whose row is t or later alone.
// `inputs` holds the distinct inputs' forward (kept apart from ws so that both keep their sizes from call to call).
template <typename T>
LossSum seq2seqLossAndSourceGrad(const ModelConfig& c, const ModelParamsT<T>& p, const TrainExample* const* batch,
                                 int B, Seq2SeqWorkspace<T>& ws, Seq2SeqWorkspace<T>& inputs);

}  // namespace attnviz
