// The cell inspector's numbers (docs/diagnostics.md "Cell inspector"). The row is recomputed by nn/attention from the
// kept decoder state, so the score, the weights and the window are the decoder's own; the parts of the score are
// read from the same products the decoder uses (its query term, the encoder's keys).
#include "eval/cell_explanation.h"
#include "model/model_kind.h"

#include "base/errors.h"
#include "kernels/gemv_terms.h"
#include "nn/attention.h"
#include "nn/attention_window.h"
#include "nn/encoder.h"
#include "nn/softmax.h"

#include <cmath>
#include <string>

namespace attnviz {

namespace {

std::vector<float> toVector(const Vec& v) { return {v.data(), v.data() + v.size()}; }

double dotDouble(const float* a, const float* b, int n) {
    double sum = 0;
    for (int i = 0; i < n; ++i) sum += double(a[i]) * double(b[i]);
    return sum;
}

// The parts of e_tj for the model's score kind, from the query s (H_d) and the encoded sentence.
void scoreParts(const Model& model, const Attention& attention, const EncoderState& enc, const Vec& s, int j,
                CellExplanation& out) {
    const ModelConfig& c = model.config;
    const ModelParams& p = model.params;
    const int Hd = c.dec_hid_dim, He2 = 2 * c.enc_hid_dim;
    const float* h = enc.outputs.row(j).data();  // (2H_e) h_j
    switch (c.score) {
    case ScoreKind::Additive: {
        Vec ws(Hd), uh(Hd);
        const GemvTerm query = attention.queryTerm(s.data());  // W s, as the decoder's step computes it
        gemvTerms({&query, 1}, Hd, ws.data(), nullptr);
        const GemvTerm key = columnsOf(p.attn_w, Hd, He2, h);  // U h_j: the h columns of attn.weight
        gemvTerms({&key, 1}, Hd, uh.data(), nullptr);
        // The decoder's own row: tanh(W s + (U h_j + b)), the bracket being the encoder's precomputed key.
        const Vec hidden = (enc.keys.row(j).transpose() + ws).array().tanh().matrix();
        out.query_term = toVector(ws);
        out.key_term = toVector(uh);
        out.bias = toVector(p.attn_b);
        out.hidden = toVector(hidden);
        out.query_term_norm = ws.cast<double>().norm();
        out.key_term_norm = uh.cast<double>().norm();
        break;
    }
    case ScoreKind::Dot:
        out.dot = dotDouble(s.data(), h, Hd);
        break;
    case ScoreKind::ScaledDot:
        out.dot = dotDouble(s.data(), h, Hd);
        out.scale = double(1.0f / std::sqrt(float(Hd)));  // the factor nn/attention multiplies by
        break;
    case ScoreKind::General: {
        const Vec wh = enc.keys.row(j).transpose();  // (H_d) W h_j, the encoder's key
        out.key_term = toVector(wh);
        out.key_term_norm = wh.cast<double>().norm();
        out.dot = dotDouble(s.data(), wh.data(), Hd);
        break;
    }
    }
}

// 1 + the number of weights in the row larger than row[j].
int rankIn(const std::vector<float>& row, int j) {
    int rank = 1;
    for (float w : row) rank += w > row[size_t(j)];
    return rank;
}

// The span's numbers and the softmax weight before local_p's Gaussian, from the decoder's row.
void spanParts(const ModelConfig& c, const AttentionStep& row, int j, CellExplanation& out) {
    out.lo = row.lo;
    out.hi = row.hi;
    out.in_window = j >= row.lo && j <= row.hi;
    if (c.span != SpanKind::Global) {
        out.center = row.center;
        out.half_width = c.window;
    }
    if (!out.in_window) return;
    Vec soft(row.hi - row.lo + 1);
    softmaxInto(row.scores.segment(row.lo, soft.size()), soft);
    out.softmax_weight = soft[j - row.lo];
    if (c.span == SpanKind::LocalP) out.gaussian = gaussianFactor(j, row.center, c.window);
}

void checkCell(const Model& model, const std::vector<int>& source_ids, const StepRecord& step, int j) {
    const int S = int(source_ids.size());
    if (int(step.attention.size()) != S)
        throw InputError("cell explanation: the step's attention row has " + std::to_string(step.attention.size()) +
                         " columns but the source has " + std::to_string(S) + " tokens");
    if (j < 0 || j >= S)
        throw InputError("cell explanation: source position " + std::to_string(j) + " is outside 0.." +
                         std::to_string(S - 1));
    if (kindOffers(model.config).one_scored_row && int(step.query_state.size()) != model.config.dec_hid_dim)
        throw InputError("cell explanation: the step kept no decoder state of size " +
                         std::to_string(model.config.dec_hid_dim) + " (only a decoding session's steps keep it)");
}

}  // namespace

CellExplanation explainCell(const Model& model, const std::vector<int>& source_ids, const StepRecord& step,
                            int step_index, int j) {
    checkCell(model, source_ids, step, j);
    const ModelConfig& c = model.config;
    CellExplanation out;
    out.step = step_index;
    out.source = j;
    out.decoder = c.decoder;
    out.score_kind = c.score;
    out.span = c.span;
    out.row_size = int(source_ids.size());
    if (!kindOffers(c).one_scored_row) {  // a Transformer's averaged row as it is: no score, no window
        out.weight = step.attention[size_t(j)];
        out.softmax_weight = out.weight;
        out.rank = rankIn(step.attention, j);
        out.hi = out.row_size - 1;
        return out;
    }

    EncoderState enc;
    encode(model, source_ids, enc, nullptr);
    const Vec s = ConstVecMap(step.query_state.data(), Eigen::Index(step.query_state.size()));
    Attention attention(model, nullptr);
    AttentionStep row;
    attention.prepare(enc.S, row);
    attention.compute(enc, s.data(), step_index + 1, row);  // t = step_index + 1 (local_m's centre)

    out.has_score = true;
    out.query = toVector(s);
    out.key = toVector(enc.outputs.row(j).transpose());
    scoreParts(model, attention, enc, s, j, out);
    spanParts(c, row, j, out);
    out.score = row.scores[j];
    out.weight = row.weights[j];
    const std::vector<float> weights = toVector(row.weights);
    out.rank = rankIn(weights, j);
    double total = 0;  // Σ_j' a_j' ‖h_j'‖ = Σ_j' ‖a_j' h_j'‖ (a ≥ 0)
    for (int k = 0; k < enc.S; ++k) total += double(row.weights[k]) * enc.outputs.row(k).cast<double>().norm();
    const double mine = double(row.weights[j]) * enc.outputs.row(j).cast<double>().norm();
    out.share = total > 0 ? mine / total : std::numeric_limits<double>::quiet_NaN();
    return out;
}

}  // namespace attnviz
