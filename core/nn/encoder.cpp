#include "nn/encoder.h"

#include "base/errors.h"
#include "kernels/gemv_terms.h"
#include "kernels/row_split.h"
#include "nn/gru.h"

#include <string>

namespace attnviz {

void encode(const Model& model, const std::vector<int>& ids, EncoderState& out, ThreadPool* pool) {
    const ModelParams& p = model.params;
    const int S = static_cast<int>(ids.size());
    const int E = model.config.emb_dim, He = model.config.enc_hid_dim, Hd = model.config.dec_hid_dim;
    const int Vs = static_cast<int>(p.enc_embedding.rows());
    if (S == 0) throw InputError("source sentence: no tokens to encode");
    for (int j = 0; j < S; ++j)
        if (ids[j] < 0 || ids[j] >= Vs)
            throw InputError("source sentence: token id " + std::to_string(ids[j]) + " at position " +
                             std::to_string(j) + " is outside the source vocabulary (size " + std::to_string(Vs) + ")");
    out.S = S;

    Mat x(S, E);  // (S, E) embedded tokens
    for (int j = 0; j < S; ++j) x.row(j) = p.enc_embedding.row(ids[j]);
    out.outputs.resize(S, 2 * He);

    // The two directions are independent: on two cores when their weights are large enough to pay for it.
    // Forward writes f_j into columns [0, H_e) of row j (reading f_{j-1} in place); backward, from the sentence's own
    // last token, writes b_j into columns [H_e, 2H_e).
    auto direction = [&](const GruParams& g, bool reverse) {
        Mat gi;  // (S, 3H_e) input projections, one product for the sentence
        gruProjectInputs(g, x, gi, pool);
        Vec zero = Vec::Zero(He), gh(3 * He);
        const int column = reverse ? He : 0, step = reverse ? -1 : 1;
        for (int k = 0; k < S; ++k) {
            const int j = reverse ? S - 1 - k : k;
            const float* prev = k == 0 ? zero.data() : out.outputs.row(j - step).data() + column;
            gruCell(g, gi.row(j).data(), prev, out.outputs.row(j).data() + column, gh.data(), pool);
        }
    };
    auto forward = [&] { direction(p.enc_fwd, false); };
    auto backward = [&] { direction(p.enc_bwd, true); };
    const std::int64_t direction_bytes = (p.enc_fwd.w_ih.size() + p.enc_fwd.w_hh.size()) * std::int64_t(sizeof(float));
    if (S > 1 && splitPays(direction_bytes, pool)) {
        pool->runBoth(backward, forward);
    } else {
        forward();
        backward();
    }

    Vec last(2 * He);  // [f_{S-1} ; b_0]
    last.head(He) = out.outputs.row(S - 1).head(He).transpose();
    last.tail(He) = out.outputs.row(0).tail(He).transpose();
    out.s0.resize(Hd);
    splitGemv(p.enc_fc_w, last.data(), out.s0.data(), pool);  // (H_d, 2H_e)
    out.s0 = (out.s0 + p.enc_fc_b).array().tanh().matrix();

    switch (model.config.score) {
    case ScoreKind::Additive:  // (S, H_d) = (S, 2H_e) · (the h columns of attn.weight)ᵀ + b
        projectVectors(columnsOf(p.attn_w, Hd, 2 * He, nullptr), Hd, out.outputs, out.keys, pool);
        out.keys.rowwise() += p.attn_b.transpose();
        break;
    case ScoreKind::General:  // (S, H_d) = (S, 2H_e) · W_aᵀ
        projectVectors(columnsOf(p.attn_W, 0, 2 * He, nullptr), Hd, out.outputs, out.keys, pool);
        break;
    case ScoreKind::Dot:
    case ScoreKind::ScaledDot:
        out.keys.resize(0, 0);
        break;
    }
}

}  // namespace attnviz
