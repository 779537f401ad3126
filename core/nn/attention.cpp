#include "nn/attention.h"

#include "nn/attention_window.h"
#include "nn/softmax.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attnviz {

Attention::Attention(const Model& model, ThreadPool* pool) : model_(&model), pool_(pool) {
    ws_.resize(model.config.dec_hid_dim);
    query_.resize(model.config.dec_hid_dim);
    row_.resize(model.config.dec_hid_dim);
}

void Attention::prepare(int S, AttentionStep& out) {
    knocked_ = interventions_ ? knockoutMask(*interventions_, S) : std::vector<char>();
    attended_ = interventions_ ? attendedPositions(*interventions_) : std::vector<int>();
    out.scores.resize(S);
    out.weights.resize(S);
    out.context.resize(2 * model_->config.enc_hid_dim);
}

bool Attention::hasQuery() const { return model_->config.score == ScoreKind::Additive; }

GemvTerm Attention::queryTerm(const float* s) const {
    return columnsOf(model_->params.attn_w, 0, model_->config.dec_hid_dim, s);  // W_s: (H_d, H_d) of attn.weight
}

void Attention::compute(const EncoderState& enc, const float* s, int t, AttentionStep& out) {
    if (hasQuery()) {  // the same kernel as the callers of queryTerm() use, so both ways give the same query
        const GemvTerm query = queryTerm(s);
        gemvTerms({&query, 1}, query_.size(), query_.data(), pool_);
    }
    computeWithQuery(enc, s, query_.data(), t, out);
}

void Attention::computeWithQuery(const EncoderState& enc, const float* s_ptr, const float* query, int t,
                                 AttentionStep& out) {
    const ModelConfig& c = model_->config;
    const ModelParams& p = model_->params;
    const int S = enc.S, Hd = c.dec_hid_dim, D = c.window;
    ConstVecMap s(s_ptr, Hd);

    // The window [lo, hi] and its centre.
    AttentionWindow<float> win = globalWindow<float>(S);
    if (c.span == SpanKind::LocalM) {
        win = monotonicWindow<float>(t, S, D);
    } else if (c.span == SpanKind::LocalP) {
        ws_.noalias() = p.attn_Wp * s;  // (H_d)
        win = predictiveWindow(p.attn_vp.dot(ws_.array().tanh().matrix()), S, D);
    }
    const int lo = win.lo, hi = win.hi, n = win.size();
    out.center = win.center;
    out.lo = lo;
    out.hi = hi;

    auto e = out.scores.segment(lo, n);
    switch (c.score) {
    case ScoreKind::Additive: {
        // query = W_s s (H_d); the key side U h_j + b is precomputed (enc.keys). Row by row over contiguous rows,
        // so that tanh runs on SIMD packets (the broadcast expression does not).
        const ConstVecMap q(query, Hd);
        for (int j = lo; j <= hi; ++j) {
            row_ = enc.keys.row(j).transpose() + q;
            row_ = row_.array().tanh().matrix();
            out.scores[j] = row_.dot(p.attn_v);
        }
        break;
    }
    case ScoreKind::Dot:
        e.noalias() = enc.outputs.middleRows(lo, n) * s;
        break;
    case ScoreKind::ScaledDot:
        e.noalias() = enc.outputs.middleRows(lo, n) * s;
        e *= 1.0f / std::sqrt(float(Hd));
        break;
    case ScoreKind::General:
        e.noalias() = enc.keys.middleRows(lo, n) * s;
        break;
    }

    // Softmax over the window; zeros (and NaN scores) elsewhere.
    auto w = out.weights.segment(lo, n);
    const bool any = knocked_.empty() || knockOut(lo, hi, out);
    if (any)
        softmaxInto(e, w);
    else
        w.setZero();  // every position of the window knocked out: no weight, context 0
    if (c.span == SpanKind::LocalP)
        for (int j = lo; j <= hi; ++j) out.weights[j] *= gaussianFactor(j, win.center, D);
    if (n < S) {
        const float nan = std::numeric_limits<float>::quiet_NaN();
        for (int j = 0; j < lo; ++j) out.scores[j] = nan, out.weights[j] = 0.0f;
        for (int j = hi + 1; j < S; ++j) out.scores[j] = nan, out.weights[j] = 0.0f;
    }
    out.context.noalias() = enc.outputs.middleRows(lo, n).transpose() * w;  // (2H_e)
    if (t >= 1 && size_t(t - 1) < attended_.size()) {
        const int j = attended_[size_t(t - 1)];  // row t − 1 produces target token t − 1
        if (j >= 0) attendOnly(enc, j, out);
    }
}

bool Attention::knockOut(int lo, int hi, AttentionStep& out) const {
    bool any = false;
    for (int j = lo; j <= hi; ++j) {
        if (knocked_[size_t(j)])
            out.scores[j] = -std::numeric_limits<float>::infinity();  // exp(−∞ − max) = 0 exactly
        else
            any = true;
    }
    return any;
}

void Attention::attendOnly(const EncoderState& enc, int j, AttentionStep& out) const {
    out.weights.setZero();
    out.weights[j] = 1.0f;
    out.context = enc.outputs.row(j).transpose();  // (2H_e) h_j
}

}  // namespace attnviz
