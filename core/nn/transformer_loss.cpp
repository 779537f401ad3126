#include "nn/transformer_loss.h"

#include "base/errors.h"
#include "nn/label_smoothing.h"
#include "nn/softmax.h"
#include "nn/transformer_guidance.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnviz {
namespace {

std::string lineOf(const TrainExample& ex) { return "line " + std::to_string(ex.line) + ": "; }

// Example ex's `ids` (a side's n positions) checked against the vocabulary and the stored positional table.
template <typename T>
void checkSide(const TrainExample& ex, const char* side, const std::vector<int>& ids, Eigen::Index n,
               const TMat<T>& table, const TMat<T>& pos_table) {
    if (pos_table.rows() > 0 && n > pos_table.rows())
        throw InputError(lineOf(ex) + side + " has " + std::to_string(n) +
                         " positions with <sos> and <eos>, more than the model's positional table (maxlen " +
                         std::to_string(pos_table.rows()) + ")");
    for (const int id : ids)
        if (id < 0 || id >= table.rows())
            throw InputError(lineOf(ex) + side + " token id " + std::to_string(id) + " is outside the vocabulary (" +
                             std::to_string(table.rows()) + " entries)");
}

// The batch checked and packed into the cache's row segments and id lists.
template <typename T>
void pack(const TransformerConfig& c, const TransformerParamsT<T>& p, const TrainExample* const* batch, int B,
          TransformerLossCache<T>& k) {
    k.src_rows = RowSegments();
    k.tgt_rows = RowSegments();
    k.src_ids.clear();
    k.tgt_inputs.clear();
    k.tgt_next.clear();
    k.in_objective.clear();
    k.contrast.clear();
    k.src_scale.clear();
    k.interventions.clear();
    k.out_rows.clear();
    bool every_example_one_row = B > 0;
    for (int b = 0; b < B; ++b) {
        const TrainExample& ex = *batch[b];
        if (ex.source.size() < 2 || ex.target.size() < 2)
            throw InputError(lineOf(ex) + "a training example needs <sos> and <eos> on both sides");
        const Eigen::Index s = Eigen::Index(ex.source.size()), n = Eigen::Index(ex.target.size()) - 1;
        checkSide<T>(ex, "source", ex.source, s, sourceTable(p, c), p.pos_embedding);
        checkSide<T>(ex, "target", ex.target, n, p.tgt_embedding, decoderPositions(p));
        k.src_rows.append(s);
        k.tgt_rows.append(n);
        k.src_ids.insert(k.src_ids.end(), ex.source.begin(), ex.source.end());
        k.tgt_inputs.insert(k.tgt_inputs.end(), ex.target.begin(), ex.target.end() - 1);
        k.tgt_next.insert(k.tgt_next.end(), ex.target.begin() + 1, ex.target.end());
        for (Eigen::Index i = 0; i < n; ++i) {
            const bool counted = ex.objective_row < 0 || i == ex.objective_row;
            k.in_objective.push_back(counted ? 1 : 0);
            k.contrast.push_back(ex.objective_row >= 0 && counted ? ex.contrast : -1);
        }
        k.src_scale.insert(k.src_scale.end(), size_t(s), T(ex.source_scale));
        every_example_one_row = every_example_one_row && ex.objective_row >= 0 && ex.objective_row < n;
        if (every_example_one_row) k.out_rows.push_back(k.tgt_rows.begin(b) + ex.objective_row);
    }
    if (!every_example_one_row) k.out_rows.clear();
    for (int b = 0; b < B; ++b)
        if (!batch[b]->interventions.empty()) {
            for (int e = 0; e < B; ++e) k.interventions.push_back(batch[e]->interventions);
            break;
        }
}

// Each example's edits of layer `layer` of one attention: the heads off and, for the cross-attention, the knocked-out
// source positions as keys off; empty when no example has an intervention (the plain path).
template <typename T>
std::vector<AttentionEdits> editsOf(const TransformerLossCache<T>& k, AttentionKind kind, int layer, int nhead) {
    std::vector<AttentionEdits> edits;
    for (size_t b = 0; b < k.interventions.size(); ++b) {
        const Interventions& iv = k.interventions[b];
        AttentionEdits e;
        e.heads_off = headsOffMask(iv, kind, layer, nhead);
        if (kind == AttentionKind::Cross) e.keys_off = knockoutMask(iv, int(k.src_rows.rows(int(b))));
        edits.push_back(std::move(e));
    }
    return edits;
}

// The decoder row of log_probs' row i.
template <typename T>
Eigen::Index decoderRowOf(const TransformerLossCache<T>& k, Eigen::Index i) {
    return k.out_rows.empty() ? i : k.out_rows[size_t(i)];
}

// The embeddings' scale s: √d, or 1 without scale_embedding.
template <typename T>
T embeddingScale(const TransformerConfig& c) {
    return c.scale_embedding ? T(std::sqrt(double(c.d_model))) : T(1);
}

// E[id] · s + PE[position within its example], then dropout: (rows.total(), d). The ids are checked by pack().
template <typename T>
TMat<T> embedForward(const TransformerConfig& c, const TMat<T>& table, const TMat<T>& pos_table,
                     const std::vector<int>& ids, const RowSegments& rows, DropoutSource* drop, TMat<T>& mask,
                     const std::vector<T>* row_scale = nullptr) {
    const int d = c.d_model;
    Eigen::Index longest = 0;
    for (int b = 0; b < rows.count(); ++b) longest = std::max(longest, rows.rows(b));
    const TMat<T> pe = pos_table.rows() > 0 ? TMat<T>(pos_table.topRows(longest))
                                            : sinusoidalPositions<T>(int(longest), d, 0, c.positions);
    const T scale = embeddingScale<T>(c);
    TMat<T> x(rows.total(), d);
    for (int b = 0; b < rows.count(); ++b)
        for (Eigen::Index i = 0; i < rows.rows(b); ++i) {
            const Eigen::Index r = rows.begin(b) + i;
            const T alpha = row_scale ? (*row_scale)[size_t(r)] : T(1);  // integrated gradients: α·E[id]
            x.row(r) = table.row(ids[size_t(r)]) * (scale * alpha) + pe.row(i);
        }
    mask = dropoutMask<T>(drop, rows, d);
    applyMask(x, mask);
    return x;
}

// (*dtable)[id_r] += s · (dropout's backward of dx)_r; PE is not trained. rows_grad, if not null, gets those rows.
template <typename T>
void embedBackward(const TransformerConfig& c, TMat<T> dx, const TMat<T>& mask, const std::vector<int>& ids,
                   TMat<T>* dtable, TMat<T>* rows_grad = nullptr) {
    applyMask(dx, mask);
    dx *= embeddingScale<T>(c);
    if (dtable)
        for (Eigen::Index i = 0; i < dx.rows(); ++i) dtable->row(ids[size_t(i)]) += dx.row(i);
    if (rows_grad) *rows_grad = std::move(dx);
}

// A sublayer's output through its dropout: the mask is drawn and kept.
template <typename T>
TMat<T> dropped(TMat<T> x, DropoutSource* drop, const RowSegments& rows, TMat<T>& mask) {
    mask = dropoutMask<T>(drop, rows, x.cols());
    applyMask(x, mask);
    return x;
}
template <typename T>
TMat<T> masked(TMat<T> dx, const TMat<T>& mask) {
    applyMask(dx, mask);
    return dx;
}

// post-LN: x = LN1(x + SA(x)), x = LN2(x + FF(x)); pre-LN: x = x + SA(LN1(x)), x = x + FF(LN2(x)). x (S, d).
// edits: the self-attention's (editsOf).
template <typename T>
TMat<T> encoderLayerForward(const TMat<T>& x, const EncoderLayerParamsT<T>& p, const TransformerConfig& c,
                            const RowSegments& rows, DropoutSource* drop, std::vector<AttentionEdits> edits,
                            EncoderLayerCache<T>& k) {
    auto self_attention = [&](const TMat<T>& in) {  // each sublayer through its dropout
        const TMat<T> out = attentionForward<T>(in, in, p.self_attn, c.encoder_nhead, false, drop, rows, rows,
                                                k.self_attn, std::move(edits));
        return dropped<T>(out, drop, rows, k.drop1);
    };
    auto feed_forward = [&](const TMat<T>& in) {
        return dropped<T>(feedForwardForward<T>(in, p.ff, c.activation, drop, rows, k.ff), drop, rows, k.drop2);
    };
    if (c.norm_first) {
        const TMat<T> h = x + self_attention(layerNormForward<T>(x, p.norm1, k.norm1));
        return h + feed_forward(layerNormForward<T>(h, p.norm2, k.norm2));
    }
    const TMat<T> y1 = layerNormForward<T>(x + self_attention(x), p.norm1, k.norm1);
    return layerNormForward<T>(y1 + feed_forward(y1), p.norm2, k.norm2);
}

// The gradient of a self-attention's input (queries, keys and values all from it).
template <typename T>
TMat<T> selfAttentionBackward(const TMat<T>& dout, const MultiHeadAttentionParamsT<T>& p, int nhead,
                              const AttentionCache<T>& k, MultiHeadAttentionParamsT<T>* g) {
    TMat<T> dq, dkv;
    attentionBackward<T>(dout, p, nhead, k, g, dq, dkv);
    return dq + dkv;
}

template <typename T>
TMat<T> encoderLayerBackward(const TMat<T>& dout, const EncoderLayerParamsT<T>& p, const TransformerConfig& c,
                             const EncoderLayerCache<T>& k, EncoderLayerParamsT<T>* g) {
    using L = EncoderLayerParamsT<T>;
    if (c.norm_first) {
        const TMat<T> dn2 =
            feedForwardBackward<T>(masked<T>(dout, k.drop2), p.ff, c.activation, k.ff, partOf(g, &L::ff));
        const TMat<T> dh = dout + layerNormBackward<T>(dn2, p.norm2, k.norm2, partOf(g, &L::norm2));
        const TMat<T> dn1 = selfAttentionBackward<T>(masked<T>(dh, k.drop1), p.self_attn, c.encoder_nhead, k.self_attn,
                                                     partOf(g, &L::self_attn));
        return dh + layerNormBackward<T>(dn1, p.norm1, k.norm1, partOf(g, &L::norm1));
    }
    const TMat<T> du2 = layerNormBackward<T>(dout, p.norm2, k.norm2, partOf(g, &L::norm2));  // ∂(y1 + f)
    const TMat<T> dy1 =
        du2 + feedForwardBackward<T>(masked<T>(du2, k.drop2), p.ff, c.activation, k.ff, partOf(g, &L::ff));
    const TMat<T> du1 = layerNormBackward<T>(dy1, p.norm1, k.norm1, partOf(g, &L::norm1));  // ∂(x + a)
    return du1 + selfAttentionBackward<T>(masked<T>(du1, k.drop1), p.self_attn, c.encoder_nhead, k.self_attn,
                                          partOf(g, &L::self_attn));
}

// post-LN: y = LN1(y + SA_causal(y)), y = LN2(y + MHA(y, memory)), y = LN3(y + FF(y));
// pre-LN: y = y + SA_causal(LN1(y)), y = y + MHA(LN2(y), memory), y = y + FF(LN3(y)). y (N, d), memory (S, d).
// self_edits, cross_edits: the two attentions' (editsOf).
template <typename T>
TMat<T> decoderLayerForward(const TMat<T>& y, const TMat<T>& memory, const DecoderLayerParamsT<T>& p,
                            const TransformerConfig& c, const RowSegments& tgt, const RowSegments& src,
                            DropoutSource* drop, std::vector<AttentionEdits> self_edits,
                            std::vector<AttentionEdits> cross_edits, DecoderLayerCache<T>& k) {
    const int nh = c.decoder_nhead;
    auto self_attention = [&](const TMat<T>& in) {  // each sublayer through its dropout
        const TMat<T> out =
            attentionForward<T>(in, in, p.self_attn, nh, true, drop, tgt, tgt, k.self_attn, std::move(self_edits));
        return dropped<T>(out, drop, tgt, k.drop1);
    };
    auto cross_attention = [&](const TMat<T>& in) {
        const TMat<T> out = attentionForward<T>(in, memory, p.multihead_attn, nh, false, drop, tgt, src, k.cross_attn,
                                                std::move(cross_edits));
        return dropped<T>(out, drop, tgt, k.drop2);
    };
    auto feed_forward = [&](const TMat<T>& in) {
        return dropped<T>(feedForwardForward<T>(in, p.ff, c.activation, drop, tgt, k.ff), drop, tgt, k.drop3);
    };
    if (c.norm_first) {
        const TMat<T> h1 = y + self_attention(layerNormForward<T>(y, p.norm1, k.norm1));
        const TMat<T> h2 = h1 + cross_attention(layerNormForward<T>(h1, p.norm2, k.norm2));
        return h2 + feed_forward(layerNormForward<T>(h2, p.norm3, k.norm3));
    }
    const TMat<T> z1 = layerNormForward<T>(y + self_attention(y), p.norm1, k.norm1);
    const TMat<T> z2 = layerNormForward<T>(z1 + cross_attention(z1), p.norm2, k.norm2);
    return layerNormForward<T>(z2 + feed_forward(z2), p.norm3, k.norm3);
}

// Returns ∂y; adds the cross-attention's ∂memory into dmemory. guide_grad: a further gradient of the
// cross-attention's weights (attentionBackward's weights_grad), or null.
template <typename T>
TMat<T> decoderLayerBackward(const TMat<T>& dout, const DecoderLayerParamsT<T>& p, const TransformerConfig& c,
                             const DecoderLayerCache<T>& k, DecoderLayerParamsT<T>* g, TMat<T>& dmemory,
                             const std::vector<TMat<T>>* guide_grad) {
    using L = DecoderLayerParamsT<T>;
    const int nh = c.decoder_nhead;
    TMat<T> dq, dmem;
    if (c.norm_first) {
        const TMat<T> dn3 =
            feedForwardBackward<T>(masked<T>(dout, k.drop3), p.ff, c.activation, k.ff, partOf(g, &L::ff));
        const TMat<T> dh2 = dout + layerNormBackward<T>(dn3, p.norm3, k.norm3, partOf(g, &L::norm3));
        attentionBackward<T>(masked<T>(dh2, k.drop2), p.multihead_attn, nh, k.cross_attn, partOf(g, &L::multihead_attn),
                             dq, dmem, guide_grad);
        dmemory += dmem;
        const TMat<T> dh1 = dh2 + layerNormBackward<T>(dq, p.norm2, k.norm2, partOf(g, &L::norm2));
        const TMat<T> dn1 =
            selfAttentionBackward<T>(masked<T>(dh1, k.drop1), p.self_attn, nh, k.self_attn, partOf(g, &L::self_attn));
        return dh1 + layerNormBackward<T>(dn1, p.norm1, k.norm1, partOf(g, &L::norm1));
    }
    const TMat<T> du3 = layerNormBackward<T>(dout, p.norm3, k.norm3, partOf(g, &L::norm3));  // ∂(z2 + f)
    const TMat<T> dz2 =
        du3 + feedForwardBackward<T>(masked<T>(du3, k.drop3), p.ff, c.activation, k.ff, partOf(g, &L::ff));
    const TMat<T> du2 = layerNormBackward<T>(dz2, p.norm2, k.norm2, partOf(g, &L::norm2));  // ∂(z1 + b)
    attentionBackward<T>(masked<T>(du2, k.drop2), p.multihead_attn, nh, k.cross_attn, partOf(g, &L::multihead_attn), dq,
                         dmem, guide_grad);
    dmemory += dmem;
    const TMat<T> du1 = layerNormBackward<T>(du2 + dq, p.norm1, k.norm1, partOf(g, &L::norm1));  // ∂(y + a)
    return du1 +
           selfAttentionBackward<T>(masked<T>(du1, k.drop1), p.self_attn, nh, k.self_attn, partOf(g, &L::self_attn));
}

// The forward: the memory, the decoder output and the log-probabilities, every cache filled (pack() first).
template <typename T>
void forward(const TransformerConfig& c, const TransformerParamsT<T>& p, DropoutSource* drop,
             TransformerLossCache<T>& k) {
    const int d = c.d_model;
    TMat<T> x =
        embedForward<T>(c, sourceTable(p, c), p.pos_embedding, k.src_ids, k.src_rows, drop, k.src_drop, &k.src_scale);
    k.encoder.resize(size_t(c.num_encoder_layers));
    for (int l = 0; l < c.num_encoder_layers; ++l)
        x = encoderLayerForward<T>(x, p.encoder_layers[size_t(l)], c, k.src_rows, drop,
                                   editsOf(k, AttentionKind::EncoderSelf, l, c.encoder_nhead), k.encoder[size_t(l)]);
    k.memory = c.final_norms ? layerNormForward<T>(x, p.encoder_norm, k.encoder_norm) : std::move(x);
    TMat<T> y = embedForward<T>(c, p.tgt_embedding, decoderPositions(p), k.tgt_inputs, k.tgt_rows, drop, k.tgt_drop);
    k.decoder.resize(size_t(c.num_decoder_layers));
    for (int l = 0; l < c.num_decoder_layers; ++l)
        y = decoderLayerForward<T>(y, k.memory, p.decoder_layers[size_t(l)], c, k.tgt_rows, k.src_rows, drop,
                                   editsOf(k, AttentionKind::DecoderSelf, l, c.decoder_nhead),
                                   editsOf(k, AttentionKind::Cross, l, c.decoder_nhead), k.decoder[size_t(l)]);
    k.decoder_out = c.final_norms ? layerNormForward<T>(y, p.decoder_norm, k.decoder_norm) : std::move(y);
    if (!k.out_rows.empty()) {  // attribution: the generator reads the objective's rows alone
        k.out_features.resize(Eigen::Index(k.out_rows.size()), d);
        for (size_t i = 0; i < k.out_rows.size(); ++i)
            k.out_features.row(Eigen::Index(i)) = k.decoder_out.row(k.out_rows[i]);
    }
    const TMat<T>& features = k.out_rows.empty() ? k.decoder_out : k.out_features;
    k.log_probs = linearForward<T>(features, outputTable(p, c), p.generator_bias);  // (N or B, V_t) logits
    for (Eigen::Index i = 0; i < k.log_probs.rows(); ++i) {
        removeForbidden(k.log_probs.row(i), c.forbidden_outputs);
        logSoftmaxInPlace(k.log_probs.row(i));
    }
}

// The backward: the parameters' gradients into *g when g is not null; k.source_grad always.
template <typename T>
void backward(const TransformerConfig& c, const TransformerParamsT<T>& p, T grad_scale, TransformerLossCache<T>& k,
              TransformerParamsT<T>* g, T label_smoothing = T(0)) {
    using P = TransformerParamsT<T>;
    // ∂/∂logits of −Σ log p(next token): softmax − one-hot (− the smoothed target with label smoothing), times the
    // scale; an attribution row with a contrast c: one-hot(c) − one-hot; rows outside the objective: 0
    TMat<T> dlogits = k.log_probs.array().exp() * grad_scale;
    for (Eigen::Index i = 0; i < dlogits.rows(); ++i) {
        const size_t r = size_t(decoderRowOf(k, i));
        if (!k.in_objective[r] || k.contrast[r] >= 0) dlogits.row(i).setZero();
        if (!k.in_objective[r]) continue;
        if (k.contrast[r] >= 0) {
            dlogits(i, k.contrast[r]) += grad_scale;
            dlogits(i, k.tgt_next[r]) -= grad_scale;
        } else {
            subtractSmoothedTarget(dlogits.row(i), k.tgt_next[r], double(label_smoothing), double(grad_scale),
                                   c.forbidden_outputs);
        }
    }
    const bool gathered = !k.out_rows.empty();
    // a tied output weight's gradient adds into the target table's (outputTable of g)
    TMat<T> dy = linearBackward<T>(gathered ? k.out_features : k.decoder_out, outputTable(p, c), dlogits,
                                   g ? &outputTable(*g, c) : nullptr, partOf(g, &P::generator_bias));
    if (gathered) {  // (B, d) → (N, d), zero outside the objective's rows
        TMat<T> rows = std::move(dy);
        dy.setZero(k.decoder_out.rows(), k.decoder_out.cols());
        for (size_t i = 0; i < k.out_rows.size(); ++i) dy.row(k.out_rows[i]) = rows.row(Eigen::Index(i));
    }
    if (c.final_norms) dy = layerNormBackward<T>(dy, p.decoder_norm, k.decoder_norm, partOf(g, &P::decoder_norm));
    TMat<T> dmemory = TMat<T>::Zero(k.memory.rows(), k.memory.cols());
    const int last = c.num_decoder_layers - 1;
    for (int l = last; l >= 0; --l)
        dy = decoderLayerBackward<T>(dy, p.decoder_layers[size_t(l)], c, k.decoder[size_t(l)],
                                     g ? &g->decoder_layers[size_t(l)] : nullptr, dmemory,
                                     l == last && !k.guide_grad.empty() ? &k.guide_grad : nullptr);
    if (g) embedBackward<T>(c, dy, k.tgt_drop, k.tgt_inputs, &g->tgt_embedding);
    TMat<T> dx = c.final_norms
                     ? layerNormBackward<T>(dmemory, p.encoder_norm, k.encoder_norm, partOf(g, &P::encoder_norm))
                     : std::move(dmemory);
    for (int l = c.num_encoder_layers - 1; l >= 0; --l)
        dx = encoderLayerBackward<T>(dx, p.encoder_layers[size_t(l)], c, k.encoder[size_t(l)],
                                     g ? &g->encoder_layers[size_t(l)] : nullptr);
    embedBackward<T>(c, dx, k.src_drop, k.src_ids, g ? &sourceTable(*g, c) : nullptr, &k.source_grad);
}

}  // namespace

template <typename T>
LossSum transformerLossAndGrad(const TransformerConfig& c, const TransformerParamsT<T>& p,
                               const TrainExample* const* batch, int B, DropoutSource* drop, T grad_scale,
                               TransformerParamsT<T>* g, TransformerLossCache<T>& cache, T align_weight,
                               T label_smoothing) {
    pack<T>(c, p, batch, B, cache);
    forward<T>(c, p, drop, cache);
    LossSum s;
    cache.guide_grad.clear();
    if (align_weight > T(0) && c.num_decoder_layers > 0)
        s.align_sum = guidedAlignmentLoss<T>(cache.decoder.back().cross_attn, c.decoder_nhead, batch, B,
                                             align_weight * grad_scale, g ? &cache.guide_grad : nullptr);
    for (Eigen::Index i = 0; i < cache.log_probs.rows(); ++i) {
        const size_t r = size_t(decoderRowOf(cache, i));
        if (!cache.in_objective[r]) continue;
        s.sum -= double(cache.log_probs(i, cache.tgt_next[r]));
        if (cache.contrast[r] >= 0)
            s.sum += double(cache.log_probs(i, cache.contrast[r]));
        else if (label_smoothing > T(0))
            s.smooth_sum += uniformCrossEntropy(cache.log_probs.row(i), c.forbidden_outputs);
        ++s.tokens;
    }
    if (g) backward<T>(c, p, grad_scale, cache, g, label_smoothing);
    return s;
}

template <typename T>
LossSum transformerLossAndSourceGrad(const TransformerConfig& c, const TransformerParamsT<T>& p,
                                     const TrainExample* const* batch, int B, TransformerLossCache<T>& cache) {
    const LossSum s = transformerLossAndGrad<T>(c, p, batch, B, nullptr, T(1), nullptr, cache);
    backward<T>(c, p, T(1), cache, nullptr);
    return s;
}

template LossSum transformerLossAndGrad<float>(const TransformerConfig&, const TransformerParamsT<float>&,
                                               const TrainExample* const*, int, DropoutSource*, float,
                                               TransformerParamsT<float>*, TransformerLossCache<float>&, float, float);
template LossSum transformerLossAndGrad<double>(const TransformerConfig&, const TransformerParamsT<double>&,
                                                const TrainExample* const*, int, DropoutSource*, double,
                                                TransformerParamsT<double>*, TransformerLossCache<double>&, double,
                                                double);
template LossSum transformerLossAndSourceGrad<float>(const TransformerConfig&, const TransformerParamsT<float>&,
                                                     const TrainExample* const*, int, TransformerLossCache<float>&);
template LossSum transformerLossAndSourceGrad<double>(const TransformerConfig&, const TransformerParamsT<double>&,
                                                      const TrainExample* const*, int, TransformerLossCache<double>&);

}  // namespace attnviz
