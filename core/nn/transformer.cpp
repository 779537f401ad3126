#include "nn/transformer.h"

#include "base/errors.h"
#include "kernels/row_split.h"
#include "nn/softmax.h"
#include "nn/transformer_blocks.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace attnviz {

void TransformerDecoderState::truncate(int n) { length = std::clamp(n, 0, length); }

Transformer::Transformer(const TransformerConfig& config, const TransformerParams& params, const Interventions* iv,
                         ThreadPool* pool)
    : config_(&config), params_(&params), pool_(pool) {
    checkTransformerParams(params, config);
    if (!iv) return;
    knockout_ = iv->knockout;
    for (AttentionKind kind : {AttentionKind::Cross, AttentionKind::EncoderSelf, AttentionKind::DecoderSelf}) {
        auto& masks = heads_off_[int(kind)];
        for (int l = 0; l < config.layers(kind); ++l) masks.push_back(headsOffMask(*iv, kind, l, config.nhead(kind)));
    }
}

std::span<const char> Transformer::headsOff(AttentionKind kind, int l) const {
    const auto& masks = heads_off_[int(kind)];
    return size_t(l) < masks.size() ? std::span<const char>(masks[size_t(l)]) : std::span<const char>();
}

namespace {

int longestFor(const Mat& table, const TransformerConfig& c) {
    return table.rows() > 0 ? int(table.rows()) : c.max_positions;
}

}  // namespace

int Transformer::maxLength() const { return longestFor(decoderPositions(*params_), *config_); }

int Transformer::sourceVocabSize() const { return int(sourceTable(*params_, *config_).rows()); }

Mat Transformer::embed(const std::vector<int>& ids, bool source, int first_position) const {
    const Mat& table = source ? sourceTable(*params_, *config_) : params_->tgt_embedding;
    const char* side = source ? "source" : "target";
    const int n = int(ids.size()), d = config_->d_model;
    const Mat& positions = source ? params_->pos_embedding : decoderPositions(*params_);  // (maxlen, d) or empty
    const int maxlen = longestFor(positions, *config_);
    if (maxlen > 0 && first_position + n > maxlen)
        throw InputError(std::string(side) + ": position " + std::to_string(first_position + n - 1) +
                         " is beyond the model's positional table (maxlen " + std::to_string(maxlen) + ", so at most " +
                         std::to_string(maxlen) + " positions, the special tokens included)");
    const Mat pe = positions.rows() > 0 ? Mat(positions.middleRows(first_position, n))
                                        : sinusoidalPositions<float>(n, d, first_position, config_->positions);
    // PyTorch: float tensor × math.sqrt(d); Marian without scale_embedding: × 1
    const float scale = config_->scale_embedding ? float(std::sqrt(double(d))) : 1.0f;
    Mat x(n, d);
    for (int i = 0; i < n; ++i) {
        if (ids[i] < 0 || ids[i] >= table.rows())
            throw InputError(std::string(side) + ": token id " + std::to_string(ids[i]) +
                             " is outside the vocabulary (" + std::to_string(table.rows()) + " entries)");
        x.row(i) = table.row(ids[i]) * scale + pe.row(i);
    }
    return x;
}

// post-LN: x = LN1(x + SA(x)), x = LN2(x + FF(x)); pre-LN: x = x + SA(LN1(x)), x = x + FF(LN2(x)).
// Knockout applies to the cross-attention only (docs/explain.md's "every softmax over source positions"), not here.
Mat Transformer::encoderLayer(const Mat& x, int l, std::vector<Mat>& heads) const {
    const EncoderLayerParamsT<float>& layer = params_->encoder_layers[size_t(l)];
    const int nhead = config_->encoder_nhead;
    const Eigen::Index S = x.rows();
    const HeadEdits edits{{}, headsOff(AttentionKind::EncoderSelf, l)};
    Mat weights;  // (nhead·S, S)
    Mat out;
    if (config_->norm_first) {
        const Mat normed = layerNorm(x, layer.norm1);
        out = x + multiHeadAttention(normed, normed, layer.self_attn, nhead, &weights, edits);
        out += feedForward(layerNorm(out, layer.norm2), layer.ff, config_->activation);
    } else {
        out = layerNorm(x + multiHeadAttention(x, x, layer.self_attn, nhead, &weights, edits), layer.norm1);
        out = layerNorm(out + feedForward(out, layer.ff, config_->activation), layer.norm2);
    }
    heads.resize(nhead);
    for (int h = 0; h < nhead; ++h) heads[h] = weights.middleRows(h * S, S);
    return out;
}

TransformerEncoding Transformer::encode(const std::vector<int>& source_ids) const {
    if (source_ids.empty()) throw InputError("source: no tokens (not even <sos> and <eos>)");
    TransformerEncoding enc;
    Mat x = embed(source_ids, true, 0);  // (S, d)
    enc.self_attention.resize(config_->num_encoder_layers);
    for (int l = 0; l < config_->num_encoder_layers; ++l) x = encoderLayer(x, l, enc.self_attention[l]);
    enc.keys_off = knockoutMask(Interventions{knockout_, {}, {}}, int(source_ids.size()));
    enc.memory = config_->final_norms ? layerNorm(x, params_->encoder_norm) : std::move(x);
    for (const DecoderLayerParamsT<float>& layer : params_->decoder_layers) {
        enc.cross_keys.push_back(project(enc.memory, layer.multihead_attn, Projection::Key));      // (S, d)
        enc.cross_values.push_back(project(enc.memory, layer.multihead_attn, Projection::Value));  // (S, d)
    }
    return enc;
}

// SA_causal for the one new position t = state.length: its key and value join the cache, its query sees 0..t.
Mat Transformer::causalSelfAttention(const Mat& y, int l, TransformerDecoderState& state, Mat& weights) const {
    const MultiHeadAttentionParamsT<float>& p = params_->decoder_layers[l].self_attn;
    const int t = state.length;
    Mat& keys = state.keys[l];
    Mat& values = state.values[l];
    if (keys.rows() <= t) {  // grow by doubling: amortised O(d) per step
        const Eigen::Index capacity = std::max<Eigen::Index>(16, 2 * keys.rows());
        keys.conservativeResize(capacity, config_->d_model);
        values.conservativeResize(capacity, config_->d_model);
    }
    keys.row(t) = project(y, p, Projection::Key);      // (1, d)
    values.row(t) = project(y, p, Projection::Value);  // (1, d)
    const Mat q = project(y, p, Projection::Query);    // (1, d)
    const HeadEdits edits{{}, headsOff(AttentionKind::DecoderSelf, l)};
    return outProject(
        attendHeads(q, keys.topRows(t + 1), values.topRows(t + 1), config_->decoder_nhead, &weights, edits), p);
}

Mat Transformer::crossAttention(const Mat& y, int l, const TransformerEncoding& enc, Mat& weights) const {
    const MultiHeadAttentionParamsT<float>& p = params_->decoder_layers[l].multihead_attn;
    const Mat q = project(y, p, Projection::Query);  // (1, d)
    const HeadEdits edits{enc.keys_off, headsOff(AttentionKind::Cross, l)};
    return outProject(attendHeads(q, enc.cross_keys[l], enc.cross_values[l], config_->decoder_nhead, &weights, edits),
                      p);
}

// post-LN: y = LN1(y + SA_causal(y)), y = LN2(y + MHA(y, memory)), y = LN3(y + FF(y));
// pre-LN: y = y + SA_causal(LN1(y)), y = y + MHA(LN2(y), memory), y = y + FF(LN3(y)).   y is (1, d).
Mat Transformer::decoderLayer(const Mat& y, int l, const TransformerEncoding& enc, TransformerDecoderState& state,
                              TransformerStep& out) const {
    const DecoderLayerParamsT<float>& layer = params_->decoder_layers[l];
    Mat& self_weights = out.self_attention[l];    // (decoder_nhead, t + 1)
    Mat& cross_weights = out.cross_attention[l];  // (decoder_nhead, S)
    Mat z;
    if (config_->norm_first) {
        z = y + causalSelfAttention(layerNorm(y, layer.norm1), l, state, self_weights);
        z += crossAttention(layerNorm(z, layer.norm2), l, enc, cross_weights);
        z += feedForward(layerNorm(z, layer.norm3), layer.ff, config_->activation);
    } else {
        z = layerNorm(y + causalSelfAttention(y, l, state, self_weights), layer.norm1);
        z = layerNorm(z + crossAttention(z, l, enc, cross_weights), layer.norm2);
        z = layerNorm(z + feedForward(z, layer.ff, config_->activation), layer.norm3);
    }
    return z;
}

void Transformer::step(const TransformerEncoding& enc, TransformerDecoderState& state, int token,
                       TransformerStep& out) const {
    const int layers = config_->num_decoder_layers;
    if (int(enc.cross_keys.size()) != layers) throw InputError("transformer step: the encoding is of another model");
    state.keys.resize(layers);
    state.values.resize(layers);
    Mat y = embed({token}, false, state.length);  // (1, d)
    out.self_attention.resize(layers);
    out.cross_attention.resize(layers);
    for (int l = 0; l < layers; ++l) y = decoderLayer(y, l, enc, state, out);
    ++state.length;
    const Mat normed = config_->final_norms ? layerNorm(y, params_->decoder_norm) : std::move(y);
    // (V_t) logits: the step's largest product (V_t × d weights), shared with a second core when that pays; the split
    // falls on a multiple of 16 rows, so the bits are the unsplit product's
    const Mat& output = outputTable(*params_, *config_);
    out.logits.resize(output.rows());
    splitGemv(output, normed.data(), out.logits.data(), pool_);
    out.logits += params_->generator_bias;
    out.log_probs = out.logits;
    removeForbidden(out.log_probs, config_->forbidden_outputs);
    logSoftmaxInPlace(out.log_probs);
}

Mat decoderSelfAttentionMatrix(const std::vector<TransformerStep>& steps, int layer, int head) {
    const int T = int(steps.size());
    Mat m = Mat::Zero(T, T);
    for (int i = 0; i < T; ++i) {
        const Mat& w = steps[i].self_attention.at(layer);  // (nhead, i + 1)
        if (w.cols() != i + 1) throw InputError("decoder self-attention: the steps do not start at position 0");
        m.row(i).head(i + 1) = w.row(head);
    }
    return m;
}

Mat crossAttentionMatrix(const std::vector<TransformerStep>& steps, int layer, int head) {
    if (steps.empty()) return Mat();
    const Eigen::Index S = steps[0].cross_attention.at(layer).cols();
    Mat m(Eigen::Index(steps.size()), S);
    for (size_t i = 0; i < steps.size(); ++i) {
        const Mat& w = steps[i].cross_attention.at(layer);  // (nhead, S)
        if (head < 0)
            m.row(Eigen::Index(i)) = w.colwise().sum() / float(w.rows());
        else
            m.row(Eigen::Index(i)) = w.row(head);
    }
    return m;
}

}  // namespace attnviz
