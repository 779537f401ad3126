// One cell of a decode explained: how the raw score e_tj of target step t and source position j was made for the
// model's scoring, its softmax weight a_tj, its rank in the row, its share of the context vector and, for local
// spans, the window and the Gaussian factor. The maths is docs/model-format.md's, computed by nn/attention (the
// decoder's own code) from the decoder state the step kept (StepRecord::query_state); docs/diagnostics.md describes
// every number shown.
// Legend: S source length with <sos>/<eos>, H_e enc_hid_dim, H_d dec_hid_dim, D window half-width.
#pragma once
#include "decode/decoding.h"
#include "model/model.h"

#include <limits>
#include <vector>

namespace attnviz {

struct CellExplanation {
    int step = 0;    // the row: 0-based step index; the token it produced is at target position t = step + 1
    int source = 0;  // the column j
    DecoderKind decoder = DecoderKind::Bahdanau;
    ScoreKind score_kind = ScoreKind::Additive;
    SpanKind span = SpanKind::Global;
    // False for a Transformer: its row is the mean of the last layer's heads, with no single score; only the weight,
    // the rank and the window below are filled in.
    bool has_score = false;

    std::vector<float> query;  // (H_d) s, the state the score is taken from: bahdanau s_{t−1}, luong s_t
    std::vector<float> key;    // (2H_e) h_j, the encoder output at j

    // The score's parts, by score kind (empty vectors and NaN for the other kinds).
    // additive: e = v · tanh(W s + U h_j + b), [W U] = attn.weight, b = attn.bias
    std::vector<float> query_term;                                      // (H_d) W s
    std::vector<float> key_term;                                        // (H_d) additive: U h_j; general: W h_j
    std::vector<float> bias;                                            // (H_d) b
    std::vector<float> hidden;                                          // (H_d) tanh(W s + U h_j + b)
    double query_term_norm = std::numeric_limits<double>::quiet_NaN();  // ‖W s‖
    double key_term_norm = std::numeric_limits<double>::quiet_NaN();    // ‖U h_j‖ (general: ‖W h_j‖)
    // dot and scaled_dot: s · h_j; general: s · (W h_j)
    double dot = std::numeric_limits<double>::quiet_NaN();
    double scale = 1.0;  // scaled_dot: 1 / √H_d (e = scale · dot); 1 otherwise

    float score = std::numeric_limits<float>::quiet_NaN();  // e_tj as the decoder computes it; NaN outside a window
    float softmax_weight = 0;  // softmax of the window's scores at j (local_p: before the Gaussian); 0 outside
    float weight = 0;          // a_tj
    int rank = 0;              // 1 for the row's largest weight; equal weights share the better rank
    int row_size = 0;          // S
    double share = std::numeric_limits<double>::quiet_NaN();  // a_tj ‖h_j‖ / Σ_j' a_tj' ‖h_j'‖ (NaN: no h_j)

    // The span: the window [lo, hi] (0 .. S−1 for global), its centre p and half-width D, the Gaussian factor at j.
    bool in_window = true;
    int lo = 0, hi = -1;
    float center = std::numeric_limits<float>::quiet_NaN();  // local spans only
    int half_width = 0;                                      // D, local spans only
    float gaussian = 1.0f;                                   // local_p: exp(−(j − p)² / (2 (D/2)²)); 1 otherwise
};

// Explains cell (step_index, j) of a decode of `source_ids` (with <sos>/<eos>) by `model`, from the kept `step`
// (a DecodingSession's StepRecord, with query_state). Re-encodes the source (once per call). Throws InputError when
// j is outside the row, the row's length is not the source's, or an RNN step kept no decoder state.
CellExplanation explainCell(const Model& model, const std::vector<int>& source_ids, const StepRecord& step,
                            int step_index, int j);

}  // namespace attnviz
