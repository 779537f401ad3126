#include "reference_transformer.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnviz::testing {
namespace {

using Rows = std::vector<std::vector<double>>;  // a sequence: one vector of d per position

// E[id]·s + PE. Interleaved (the tutorial: div_term = exp(−2k · ln(10000) / d), sin at 2k, cos at 2k+1) or halves
// (docs/marian.md: sin(p / 10000^(2k/d)) at k, cos at d/2 + k).
Rows embedRef(const TransformerConfig& c, const DMat& table, const DMat& stored_pe, const std::vector<int>& ids) {
    const int d = int(table.cols());
    const double s = c.scale_embedding ? std::sqrt(double(d)) : 1.0;
    Rows x(ids.size(), std::vector<double>(d));
    for (size_t pos = 0; pos < ids.size(); ++pos)
        for (int i = 0; i < d; ++i) {
            double pe;
            if (c.positions == PositionLayout::Halves) {
                const int k = i < d / 2 ? i : i - d / 2;
                const double angle = double(pos) / std::pow(10000.0, 2.0 * k / d);
                pe = i < d / 2 ? std::sin(angle) : std::cos(angle);
            } else {
                const int k = i / 2;
                const double angle = double(pos) * std::exp(-2.0 * k * std::log(10000.0) / d);
                pe = i % 2 == 0 ? std::sin(angle) : std::cos(angle);
            }
            if (stored_pe.size()) pe = stored_pe(pos, i);
            x[pos][i] = table(ids[pos], i) * s + pe;
        }
    return x;
}

double activationRef(double v, Activation act) {
    switch (act) {
    case Activation::Relu:
        return std::max(v, 0.0);
    case Activation::Gelu:
        return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0)));
    case Activation::GeluTanh:
        return 0.5 * v * (1 + std::tanh(std::sqrt(2.0 / M_PI) * (v + 0.044715 * v * v * v)));
    case Activation::Swish:
        return v / (1 + std::exp(-v));
    }
    return v;
}

// x W^T + b for one position.
std::vector<double> affine(const std::vector<double>& x, const DMat& w, const TVec<double>& b, int row0, int rows) {
    std::vector<double> y(rows);
    for (int r = 0; r < rows; ++r) {
        double s = b[row0 + r];
        for (size_t c = 0; c < x.size(); ++c) s += w(row0 + r, c) * x[c];
        y[r] = s;
    }
    return y;
}

Rows affineRows(const Rows& x, const DMat& w, const TVec<double>& b, int row0, int rows) {
    Rows y;
    for (const auto& xi : x) y.push_back(affine(xi, w, b, row0, rows));
    return y;
}

Rows add(const Rows& a, const Rows& b) {
    Rows y = a;
    for (size_t i = 0; i < a.size(); ++i)
        for (size_t j = 0; j < a[i].size(); ++j) y[i][j] += b[i][j];
    return y;
}

Rows norm(const Rows& x, const LayerNormParamsT<double>& p) {
    Rows y = x;
    for (auto& row : y) {
        const double n = double(row.size());
        double mean = 0, var = 0;
        for (double v : row) mean += v / n;
        for (double v : row) var += (v - mean) * (v - mean) / n;
        for (size_t i = 0; i < row.size(); ++i)
            row[i] = (row[i] - mean) / std::sqrt(var + 1e-5) * p.weight[i] + p.bias[i];
    }
    return y;
}

Rows feedForwardRef(const Rows& x, const FeedForwardParamsT<double>& p, Activation act) {
    Rows hidden = affineRows(x, p.linear1_weight, p.linear1_bias, 0, int(p.linear1_weight.rows()));
    for (auto& row : hidden)
        for (double& v : row) v = activationRef(v, act);
    return affineRows(hidden, p.linear2_weight, p.linear2_bias, 0, int(p.linear2_weight.rows()));
}

// MHA(q_in, kv_in); with `causal` query i sees keys 0..i only. weights[h] (n, m).
// Keys in `knocked_out` take no part in any softmax (a row with none left is all zeros).
Rows attentionRef(const Rows& q_in, const Rows& kv_in, const MultiHeadAttentionParamsT<double>& p, int nhead,
                  bool causal, std::vector<DMat>& weights, const std::vector<int>& knocked_out = {}) {
    const int d = int(p.out_proj_weight.rows()), dh = d / nhead;
    const Rows q = affineRows(q_in, p.in_proj_weight, p.in_proj_bias, 0, d);
    const Rows k = affineRows(kv_in, p.in_proj_weight, p.in_proj_bias, d, d);
    const Rows v = affineRows(kv_in, p.in_proj_weight, p.in_proj_bias, 2 * d, d);
    const size_t n = q.size(), m = k.size();
    Rows heads(n, std::vector<double>(d, 0.0));
    weights.assign(nhead, DMat::Zero(n, m));
    for (int h = 0; h < nhead; ++h)
        for (size_t i = 0; i < n; ++i) {
            const size_t visible = causal ? i + 1 : m;
            std::vector<double> e(visible);
            double mx = -std::numeric_limits<double>::infinity();
            for (size_t j = 0; j < visible; ++j) {
                double s = 0;
                for (int c = h * dh; c < (h + 1) * dh; ++c) s += q[i][c] * k[j][c];
                e[j] = s / std::sqrt(double(dh));
                mx = std::max(mx, e[j]);
            }
            for (int j : knocked_out) e[size_t(j)] = -std::numeric_limits<double>::infinity();
            mx = -std::numeric_limits<double>::infinity();
            for (size_t j = 0; j < visible; ++j) mx = std::max(mx, e[j]);
            double z = 0;
            for (size_t j = 0; j < visible; ++j) z += std::exp(e[j] - mx);
            for (size_t j = 0; j < visible && z > 0; ++j) {
                const double a = std::exp(e[j] - mx) / z;
                weights[h](i, j) = a;
                for (int c = h * dh; c < (h + 1) * dh; ++c) heads[i][c] += a * v[j][c];
            }
        }
    return affineRows(heads, p.out_proj_weight, p.out_proj_bias, 0, d);
}

DMat toMat(const Rows& x) {
    DMat m(x.size(), x.empty() ? 0 : x[0].size());
    for (size_t i = 0; i < x.size(); ++i)
        for (size_t j = 0; j < x[i].size(); ++j) m(i, j) = x[i][j];
    return m;
}

}  // namespace

RefTransformerEncoding referenceTransformerEncode(const TransformerConfig& c, const TransformerParamsT<double>& p,
                                                  const std::vector<int>& source_ids) {
    RefTransformerEncoding out;
    Rows x = embedRef(c, c.shared_embeddings ? p.tgt_embedding : p.src_embedding, p.pos_embedding, source_ids);
    for (const auto& layer : p.encoder_layers) {
        std::vector<DMat> w;
        if (c.norm_first) {
            x = add(x, attentionRef(norm(x, layer.norm1), norm(x, layer.norm1), layer.self_attn, c.encoder_nhead, false,
                                    w));
            x = add(x, feedForwardRef(norm(x, layer.norm2), layer.ff, c.activation));
        } else {
            x = norm(add(x, attentionRef(x, x, layer.self_attn, c.encoder_nhead, false, w)), layer.norm1);
            x = norm(add(x, feedForwardRef(x, layer.ff, c.activation)), layer.norm2);
        }
        out.self_attention.push_back(w);
    }
    out.memory = toMat(c.final_norms ? norm(x, p.encoder_norm) : x);
    return out;
}

RefTransformerDecoding referenceTransformerDecode(const TransformerConfig& c, const TransformerParamsT<double>& p,
                                                  const DMat& memory, const std::vector<int>& inputs,
                                                  const std::vector<int>& cross_knockout) {
    RefTransformerDecoding out;
    Rows mem(memory.rows());
    for (Eigen::Index i = 0; i < memory.rows(); ++i)
        for (Eigen::Index j = 0; j < memory.cols(); ++j) mem[i].push_back(memory(i, j));
    Rows y = embedRef(c, p.tgt_embedding, p.decoder_pos_embedding.rows() ? p.decoder_pos_embedding : p.pos_embedding,
                      inputs);
    for (const auto& layer : p.decoder_layers) {
        std::vector<DMat> self_w, cross_w;
        if (c.norm_first) {
            const Rows n1 = norm(y, layer.norm1);
            y = add(y, attentionRef(n1, n1, layer.self_attn, c.decoder_nhead, true, self_w));
            y = add(y, attentionRef(norm(y, layer.norm2), mem, layer.multihead_attn, c.decoder_nhead, false, cross_w,
                                    cross_knockout));
            y = add(y, feedForwardRef(norm(y, layer.norm3), layer.ff, c.activation));
        } else {
            y = norm(add(y, attentionRef(y, y, layer.self_attn, c.decoder_nhead, true, self_w)), layer.norm1);
            y = norm(
                add(y, attentionRef(y, mem, layer.multihead_attn, c.decoder_nhead, false, cross_w, cross_knockout)),
                layer.norm2);
            y = norm(add(y, feedForwardRef(y, layer.ff, c.activation)), layer.norm3);
        }
        out.self_attention.push_back(self_w);
        out.cross.push_back(cross_w);
    }
    const DMat& output = c.tied_output ? p.tgt_embedding : p.generator_weight;
    const Rows logits =
        affineRows(c.final_norms ? norm(y, p.decoder_norm) : y, output, p.generator_bias, 0, int(output.rows()));
    out.log_probs = toMat(logits);
    for (Eigen::Index i = 0; i < out.log_probs.rows(); ++i) {
        for (int id : c.forbidden_outputs) out.log_probs(i, id) = -std::numeric_limits<double>::infinity();
        const double mx = out.log_probs.row(i).maxCoeff();
        double z = 0;
        for (Eigen::Index j = 0; j < out.log_probs.cols(); ++j) z += std::exp(out.log_probs(i, j) - mx);
        for (Eigen::Index j = 0; j < out.log_probs.cols(); ++j) out.log_probs(i, j) -= mx + std::log(z);
    }
    return out;
}

RefTransformerGreedy referenceTransformerGreedy(const TransformerConfig& c, const TransformerParamsT<double>& p,
                                                const std::vector<int>& source_ids, int max_len,
                                                const std::vector<int>& cross_knockout, const RefIds& ids) {
    RefTransformerGreedy out;
    const DMat memory = referenceTransformerEncode(c, p, source_ids).memory;
    std::vector<int> inputs = {ids.start};
    while (int(out.tokens.size()) < max_len) {
        out.steps.push_back(referenceTransformerDecode(c, p, memory, inputs, cross_knockout));
        const DMat& lp = out.steps.back().log_probs;
        const Eigen::Index last = lp.rows() - 1;
        int best = -1;
        for (int v = 0; v < int(lp.cols()); ++v) {
            if (std::find(ids.never.begin(), ids.never.end(), v) != ids.never.end()) continue;
            if (best < 0 || lp(last, v) > lp(last, best)) best = v;
        }
        out.tokens.push_back(best);
        if (best == ids.eos) break;
        inputs.push_back(best);
    }
    return out;
}

}  // namespace attnviz::testing
